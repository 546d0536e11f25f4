"""GET /api/v1/health/: is this process able to serve? For load balancers and operators."""

from celery import current_app
from django.conf import settings
from django.db import DatabaseError, connection
from drf_spectacular.utils import extend_schema
from kombu.exceptions import OperationalError
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView


class HealthSerializer(serializers.Serializer):
    status = serializers.ChoiceField(["ok", "degraded"])
    database = serializers.ChoiceField(["ok", "unreachable"])
    broker = serializers.ChoiceField(
        ["eager", "ok", "unreachable"], help_text="eager: tasks run in-process, no broker"
    )


def database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        return "unreachable"
    return "ok"


def broker_status() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    try:
        with current_app.connection_for_write(
            settings.CELERY_BROKER_URL, connect_timeout=settings.BROKER_TIMEOUT_SECONDS
        ) as conn:
            conn.ensure_connection(max_retries=0, timeout=settings.BROKER_TIMEOUT_SECONDS)
    except OperationalError:
        return "unreachable"
    return "ok"


class HealthView(APIView):
    # Probes send no credentials and must not be refused for a stale one.
    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: HealthSerializer, 503: HealthSerializer},
        description="200 while the database answers (broker problems only degrade the status); "
        "503 when it does not.",
    )
    def get(self, request):
        database = database_status()
        broker = broker_status()
        healthy = database == "ok" and broker != "unreachable"
        return Response(
            {"status": "ok" if healthy else "degraded", "database": database, "broker": broker},
            status=200 if database == "ok" else 503,
        )
