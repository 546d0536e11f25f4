"""Tasks loaded only into the integration worker (celery worker --include ...), to look at the
database from the worker's side."""

from celery import shared_task
from django.contrib.auth import get_user_model


@shared_task(name="tests.integration.user_exists")
def user_exists(username: str) -> bool:
    return get_user_model().objects.filter(username=username).exists()
