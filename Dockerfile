# One image for web (gunicorn), worker (celery) and migrations; see docker-compose.yml.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DEBUG=0

WORKDIR /app
COPY . .
# The secret given here only lets settings load for collectstatic; it is not kept in the image.
RUN pip install . \
    && SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput \
    && useradd --system --no-create-home app

USER app
EXPOSE 8000
CMD ["gunicorn", "config.asgi:application", "--worker-class", "config.workers.UvicornWorker", \
     "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
