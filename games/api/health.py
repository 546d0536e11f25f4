"""GET /api/v1/health/ (liveness): can this process serve? For load balancers and container
restarts. GET /api/v1/health/ready/ (readiness): is the whole deployment doing its work:
PostgreSQL and Redis answer, beat's sweep ran lately and each queue has a live worker? For
operators' alerts and the compose healthcheck of beat (`manage.py ready`). In the embedded mode
(no broker) there is no beat nor worker: those checks say "embedded"."""

from celery import current_app
from django.conf import settings
from django.db import DatabaseError, connection
from drf_spectacular.utils import extend_schema
from kombu.exceptions import OperationalError
from redis import RedisError
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from games import coordination


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


class ProbeView(APIView):
    # Probes send no credentials and must not be refused for a stale one.
    authentication_classes = []
    permission_classes = [AllowAny]


class HealthView(ProbeView):

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


CHECKS = ("database", "redis", "sweep", "bots_worker", "clock_worker")
WORKER_STATUSES = ["ok", "missing", "unknown", "embedded"]


class ReadySerializer(serializers.Serializer):
    status = serializers.ChoiceField(["ready", "unready"])
    database = serializers.ChoiceField(["ok", "unreachable"])
    redis = serializers.ChoiceField(["ok", "unreachable", "embedded"])
    sweep = serializers.ChoiceField(
        ["ok", "late", "unknown", "embedded"],
        help_text="late: no recovery sweep for SWEEP_STALE_SECONDS (beat, the clock worker or its "
        "queue is down); unknown: Redis does not answer")
    sweep_seconds_ago = serializers.FloatField(allow_null=True)
    bots_worker = serializers.ChoiceField(
        WORKER_STATUSES,
        help_text="missing: no worker of the `bots` queue beat within 3 WORKER_HEARTBEAT_SECONDS")
    clock_worker = serializers.ChoiceField(
        WORKER_STATUSES,
        help_text="missing: no worker of the `clock` queue beat within 3 WORKER_HEARTBEAT_SECONDS")


def readiness() -> dict:
    """Every check's answer, and "ready" when all are fine."""
    answer = {"database": database_status(), "sweep_seconds_ago": None}
    if settings.CELERY_TASK_ALWAYS_EAGER:
        answer.update(redis="embedded", sweep="embedded", bots_worker="embedded",
                      clock_worker="embedded")
    else:
        queues = [settings.BOTS_QUEUE, settings.CLOCK_QUEUE]
        try:
            ages = coordination.last_beats([coordination.SWEEP, *queues])
        except (RedisError, OSError):
            answer.update(redis="unreachable", sweep="unknown", bots_worker="unknown",
                          clock_worker="unknown")
        else:
            sweep = ages[coordination.SWEEP]
            worker_stale = 3 * settings.WORKER_HEARTBEAT_SECONDS
            answer.update(
                redis="ok",
                sweep="ok" if sweep is not None and sweep <= settings.SWEEP_STALE_SECONDS
                else "late",
                sweep_seconds_ago=None if sweep is None else round(sweep, 3),
                **{f"{queue}_worker": "ok" if ages[queue] is not None
                   and ages[queue] <= worker_stale else "missing" for queue in queues})
    fine = {"ok", "embedded"}
    answer["status"] = "ready" if all(answer[check] in fine for check in CHECKS) else "unready"
    return answer


class ReadyView(ProbeView):
    @extend_schema(
        responses={200: ReadySerializer, 503: ReadySerializer},
        description="200 when every part of the deployment does its work; 503, naming the part, "
        "when one does not. For alerts, not for a load balancer: a late sweep is no reason to "
        "stop sending requests to a web process (`/health/` is).",
    )
    def get(self, request):
        answer = readiness()
        return Response(answer, status=200 if answer["status"] == "ready" else 503)
