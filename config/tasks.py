"""Tasks that belong to no app: the liveness probe used by the tests and by operators."""

from celery import shared_task


@shared_task
def ping() -> str:
    return "pong"
