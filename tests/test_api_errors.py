"""Every error leaves the API as {"error": {"code", "message", "details", "request_id"}} with its
status.

This module is also the URLconf of its tests: the real routes plus one view that raises
whichever exception a test names.
"""

import ast
import logging
import re
from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db import OperationalError
from django.http import Http404
from django.test import Client
from django.urls import path
from rest_framework import exceptions
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

from config.urls import handler400, handler404, handler500
from config.urls import urlpatterns as real_urlpatterns
from games.api.errors import ERRORS
from games.api.middleware import RequestIdLogFilter
from games.engine.errors import IllegalAction, Refusal
from games.errors import Forbidden, NotFound, StaleVersion

# Django looks the error views up on the URLconf module: they must be attributes of this one.
__all__ = ["handler400", "handler404", "handler500"]

RAISED = {
    "validation": exceptions.ValidationError({"seat": ["This field is required."]}),
    "validation_list": exceptions.ValidationError("Seats must differ."),
    "not_authenticated": exceptions.NotAuthenticated(),
    "authentication_failed": exceptions.AuthenticationFailed(),
    "permission_denied": exceptions.PermissionDenied(),
    "django_permission_denied": DjangoPermissionDenied("Not your match."),
    "not_found": exceptions.NotFound(),
    "http404": Http404("No such match."),
    "throttled": exceptions.Throttled(wait=7),
    "illegal_action": IllegalAction("does_not_beat", "7S does not beat 8S", play=["7S"]),
    "stale_version": StaleVersion(expected=3, current=4),
    "service_not_found": NotFound("No such round.", number=9),
    "service_forbidden": Forbidden("Not your seat."),
    "custom_code": exceptions.NotFound("No such seat.", code="seat_not_found"),
    "crash": RuntimeError("a bug"),
    "locked": OperationalError("database is locked"),
}


class RaiseView(APIView):
    permission_classes = [AllowAny]

    def get(self, request, name):
        raise RAISED[name] if name in RAISED else Refusal(name, "a refusal with this code")


urlpatterns = [*real_urlpatterns, path("api/raise/<str:name>/", RaiseView.as_view())]

pytestmark = [pytest.mark.urls(__name__), pytest.mark.django_db]


@pytest.mark.parametrize(
    ("name", "status", "code", "details"),
    [
        ("validation", 400, "invalid_input", {"seat": ["This field is required."]}),
        ("validation_list", 400, "invalid_input", {"non_field_errors": ["Seats must differ."]}),
        ("not_authenticated", 401, "not_authenticated", {}),
        ("authentication_failed", 401, "authentication_failed", {}),
        ("permission_denied", 403, "forbidden", {}),
        ("django_permission_denied", 403, "forbidden", {}),
        ("not_found", 404, "not_found", {}),
        ("http404", 404, "not_found", {}),
        ("throttled", 429, "throttled", {"wait_seconds": 7}),
        ("illegal_action", 400, "does_not_beat", {"play": ["7S"]}),
        ("stale_version", 409, "stale_version", {"expected": 3, "current": 4}),
        ("service_not_found", 404, "not_found", {"number": 9}),
        ("service_forbidden", 403, "forbidden", {}),
        ("custom_code", 404, "seat_not_found", {}),
    ],
)
def test_each_exception_maps_to_its_status_and_code(api_client, name, status, code, details):
    response = api_client.get(f"/api/raise/{name}/")
    assert response.status_code == status
    error = response.json()["error"]
    assert error["code"] == code
    assert error["details"] == details
    assert isinstance(error["message"], str) and error["message"]


@pytest.mark.parametrize(
    ("name", "message"),
    [("http404", "No such match."), ("django_permission_denied", "Not your match."),
     ("illegal_action", "7S does not beat 8S")],
)
def test_messages_carry_through(api_client, name, message):
    assert api_client.get(f"/api/raise/{name}/").json()["error"]["message"] == message


def test_unauthenticated_and_throttled_keep_their_headers(api_client):
    assert "WWW-Authenticate" in api_client.get("/api/raise/not_authenticated/")
    assert api_client.get("/api/raise/throttled/")["Retry-After"] == "7"


def test_malformed_json_is_400(api_client):
    response = api_client.post(
        "/api/v1/auth/register/", data=b'{"username": ', content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "malformed_json"


def test_wrong_method_is_405(api_client):
    response = api_client.get("/api/v1/auth/guest/")
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"


def test_a_form_body_is_415(api_client):
    response = api_client.post("/api/v1/auth/login/", {"username": "x"}, format="multipart")
    assert response.status_code == 415
    assert response.json()["error"]["code"] == "unsupported_media_type"


def test_a_body_over_the_limit_is_413_not_500(api_client, settings):
    body = b'{"username": "' + b"x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE + b'"}'
    response = api_client.post("/api/v1/auth/register/", data=body,
                               content_type="application/json")
    assert response.status_code == 413
    error = response.json()["error"]
    assert error["code"] == "body_too_large"
    assert error["details"] == {"limit_bytes": settings.DATA_UPLOAD_MAX_MEMORY_SIZE}


def test_an_unknown_api_url_is_a_json_404(api_client):
    response = api_client.get("/api/v1/no-such-thing/")
    assert response.status_code == 404
    assert response.json()["error"] == {
        "code": "not_found", "message": "There is no such URL.",
        "details": {"path": "/api/v1/no-such-thing/"}, "request_id": response["X-Request-ID"],
    }


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize(("method", "path"), [
    ("get", "/api/v1/matches/null,null/"), ("post", "/api/v1/matches/x/act/"),
    ("get", "/api/v1/matches/" + "9" * 19 + "/"), ("get", "/api/v1/matches/1/rounds/-1/"),
    ("post", "/api/v1/auth/nothing/"), ("delete", "/api/v1/")])
def test_any_other_api_url_is_a_json_404_even_in_debug(client, settings, debug, method, path):
    settings.DEBUG = debug
    response = getattr(client, method)(path)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_ids_too_long_for_the_database_are_no_url(auth_client):
    """Not an overflow in the query: the URL does not match (18 digits at most)."""
    huge = "9" * 19
    for url in (f"/api/v1/matches/{huge}/", f"/api/v1/matches/1/rounds/{huge}/"):
        assert auth_client.get(url).status_code == 404
    longest = auth_client.get("/api/v1/matches/" + "9" * 18 + "/")
    assert longest.status_code == 404
    assert longest.json()["error"]["message"] == "no such match"


def test_a_suspicious_request_outside_drf_is_a_json_400(api_client):
    response = api_client.get("/api/v1/health/", HTTP_HOST="attacker.example")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_request"


def test_a_crash_is_a_json_500_under_the_api():
    response = Client(raise_request_exception=False).get("/api/raise/crash/")
    assert response.status_code == 500
    assert response.json()["error"]["code"] == "server_error"
    assert response.json()["error"]["request_id"] == response["X-Request-ID"]


def test_a_database_lock_timeout_is_a_503_to_retry(api_client):
    response = api_client.get("/api/raise/locked/")
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "database_busy"
    assert response["Retry-After"] == "1"


@pytest.mark.parametrize("path", ["/api/raise/validation/", "/api/raise/illegal_action/",
                                  "/api/v1/no-such-thing/", "/api/raise/throttled/"])
def test_an_error_body_names_the_request_id_of_its_response(api_client, path):
    response = api_client.get(path)
    assert len(response["X-Request-ID"]) == 32
    assert response.json()["error"]["request_id"] == response["X-Request-ID"]


def test_every_response_has_its_own_request_id(api_client, client):
    ids = {api_client.get("/api/v1/health/")["X-Request-ID"] for _ in range(3)}
    ids |= {client.get(path)["X-Request-ID"] for path in ("/admin/login/", "/no-such-page/")}
    assert len(ids) == 5


def test_a_request_id_sent_by_the_client_is_not_taken(api_client):
    response = api_client.get("/api/v1/health/", HTTP_X_REQUEST_ID="chosen-by-me")
    assert response["X-Request-ID"] != "chosen-by-me"


def test_log_lines_written_while_serving_carry_the_request_id(api_client):
    console = next(h for h in logging.getLogger().handlers
                   if any(isinstance(f, RequestIdLogFilter) for f in h.filters))
    assert "%(request_id)s" in console.formatter._fmt
    records = []
    capture = logging.Handler()
    capture.addFilter(RequestIdLogFilter())
    capture.emit = records.append
    logger = logging.getLogger("django.request")
    logger.addHandler(capture)
    try:
        response = api_client.get("/api/raise/stale_version/")
    finally:
        logger.removeHandler(capture)
    assert [r.request_id for r in records] == [response["X-Request-ID"]]
    outside = logging.LogRecord("x", logging.INFO, __file__, 1, "m", None, None)
    RequestIdLogFilter().filter(outside)
    assert outside.request_id == "-"


def test_django_logs_each_record_once_through_the_root_handler():
    # Django's default config gives its logger a console handler of its own (in DEBUG): every
    # 4xx was then printed twice, once without the request id.
    django_logger = logging.getLogger("django")
    assert django_logger.handlers == []
    assert django_logger.propagate


def test_pages_outside_the_api_keep_django_error_pages(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("code", sorted(ERRORS))
def test_a_refusal_is_answered_with_its_codes_status(api_client, code):
    response = api_client.get(f"/api/raise/{code}/")
    assert (response.status_code, response.json()["error"]["code"]) == (ERRORS[code][0], code)


def test_a_code_the_table_lacks_is_a_rulesets_own_refusal_400(api_client):
    assert api_client.get("/api/raise/no_such_move_in_my_game/").status_code == 400


ROOT = Path(__file__).resolve().parent.parent
RAISING = {"IllegalAction", "Conflict", "Refusal", "error_body"}


def codes_in_the_code() -> dict[str, str]:
    """Every code the project's code names where it refuses: the first argument of a refusal or
    of an error body, a `code=` of DRF's exceptions, the code handed to a spec's parse; {code:
    where}."""
    found = {}
    for folder in ("games", "accounts", "bots", "tests/rulesets"):
        for source in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(source.read_text())):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "id", getattr(node.func, "attr", None))
                named = [node.args[0]] if name in RAISING and node.args else []
                named += [node.args[2]] if name == "parse" and len(node.args) > 2 else []
                named += [k.value for k in node.keywords if k.arg == "code"]
                found.update((n.value, f"{source.relative_to(ROOT)}:{n.lineno}") for n in named
                             if isinstance(n, ast.Constant) and isinstance(n.value, str))
    return found


def test_every_code_the_project_refuses_with_is_in_the_table():
    found = codes_in_the_code()
    assert {"match_over", "not_a_guest", "token_expired", "body_too_large"} <= set(found)
    assert {code: where for code, where in found.items() if code not in ERRORS} == {}


def documented() -> dict[str, int]:
    """{code: status} from the table of docs/api.md's Errors section."""
    text = (ROOT / "docs/api.md").read_text()
    section = text[text.index("## Errors"):text.index("## Live streams")]
    rows = re.findall(r"^\| (\d{3}) \| ([^|]+) \|", section, re.MULTILINE)
    return {code: int(status) for status, codes in rows
            for code in re.findall(r"`([a-z_]+)`", codes)}


def test_docs_api_md_lists_every_code_with_its_status():
    assert documented() == {code: status for code, (status, _) in ERRORS.items()}
