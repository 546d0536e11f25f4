# One image for web (gunicorn), worker (celery) and migrations; see docker-compose.yml.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DEBUG=0

WORKDIR /app
COPY . .
# The secret given here only lets settings load for collectstatic; it is not kept in the image.
# The app runs from /app (its modules shadow an installed copy), so the bots' hot loop is compiled
# here, beside its sources (setup.py), as `make compile` does; the compiler and Cython then go.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && pip install -e . "cython>=3.1,<4" && python setup.py -q build_ext --inplace \
    && pip uninstall -y cython && apt-get purge -y --auto-remove gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/* build \
    && SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput \
    && useradd --system --no-create-home app

USER app
EXPOSE 8000
CMD ["gunicorn", "config.asgi:application", "--worker-class", "config.workers.UvicornWorker", \
     "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
