"""The project's URLs plus the baselines an act is measured against: bare DRF endpoints that
insert one row and read it back, no authentication, no game logic; one in raw SQL, one through
the ORM (on Django's session table, which every deployment has)."""

import uuid

from django.contrib.sessions.models import Session
from django.db import connection
from django.urls import include, path
from django.utils import timezone
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

TABLE = "bench_row"


class BaselineView(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]

    def post(self, request):  # raw SQL
        with connection.cursor() as cursor:
            cursor.execute(f"INSERT INTO {TABLE} (payload) VALUES (%s) RETURNING id", ["row"])
            row_id = cursor.fetchone()[0]
            cursor.execute(f"SELECT id, payload FROM {TABLE} WHERE id = %s", [row_id])
            found = cursor.fetchone()
        return Response({"id": found[0], "payload": found[1]})


class OrmBaselineView(BaselineView):
    def post(self, request):
        key = uuid.uuid4().hex
        Session.objects.create(session_key=key, session_data="row", expire_date=timezone.now())
        found = Session.objects.get(pk=key)
        return Response({"id": found.pk, "payload": found.session_data})


urlpatterns = [
    path("bench/row/", BaselineView.as_view()),
    path("bench/orm-row/", OrmBaselineView.as_view()),
    path("", include("config.urls")),
]
