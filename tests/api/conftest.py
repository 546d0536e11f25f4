"""Fixtures of the API and admin tests."""

import pytest
from django.test import Client as DjangoClient


@pytest.fixture
def staff(django_user_model) -> DjangoClient:
    """Django's test client logged in as a superuser: the admin as staff use it."""
    admin = django_user_model.objects.create_superuser("staff", password="pw-for-tests-only")
    client = DjangoClient()
    client.force_login(admin)
    return client
