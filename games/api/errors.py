"""The API's one error shape, `{"error": {"code", "message", "details", "request_id"}}`, for every
4xx (and the 500 and 503 answers), and `ERRORS`: every code the API answers with its one status.

`exception_handler` is DRF's EXCEPTION_HANDLER: it maps DRF's exceptions, Django's Http404 and
PermissionDenied, oversized bodies, SQLite's lock timeout and every `Refusal` of the engine and
the services (by its code, in `ERRORS`: the only place that knows their HTTP statuses) to that
shape. The views at the end do the same for errors raised outside DRF views (config/urls.py
installs them).
"""

import logging

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404, JsonResponse
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games import metrics
from games.api.middleware import current_request_id
from games.engine.errors import Refusal

logger = logging.getLogger(__name__)

# Every error code the API answers: its one status, and what it means. 400: the request itself is
# wrong (malformed, out of bounds, naming nothing in its body, or an action the rules refuse in
# the match as the client read it: the version it sent is current); 401, 403: who asks; 404: the
# URL names nothing the caller may see; 409: the request does not fit the match (or account) as
# it is now: read it again; the rest: the transport and the service. docs/api.md lists the same
# (tests/test_api_errors.py keeps the two equal, and checks every error the tests produce).
ERRORS: dict[str, tuple[int, str]] = {
    "invalid_input": (400, "a field, query parameter or header is missing, unknown, of the "
                      "wrong type or out of bounds; details name it"),
    "unknown_query_parameter": (400, "a query parameter the endpoint does not take; "
                                "details.fields names them"),
    "malformed_json": (400, "the body is not JSON, or nested too deep"),
    "bad_request": (400, "a request Django refused before any view (a bad Host header...)"),
    "invalid_option": (400, "an option is unknown, out of bounds, or fixed by the table"),
    "invalid_seats": (400, "the seats asked for do not fit the ruleset"),
    "unknown_ruleset": (400, "the body names no ruleset"),
    "unknown_table": (400, "the body names no active table"),
    "invalid_invite": (400, "no match has this invite code"),
    "invalid_settlement": (400, "settlement facts no round could have"),
    "invalid_previous": (400, "`previous` is not a combination"),
    "ambiguous_previous": (400, "`previous` reads several ways: name one"),
    "not_your_turn": (400, "another seat is to act"),
    "wrong_phase": (400, "that action belongs to another phase of the round"),
    "invalid_action": (400, "no action of this kind here"),
    "invalid_reading": (400, "a reading that is not {type, rank, length}"),
    "not_a_combination": (400, "the cards are no combination (or not as read)"),
    "ambiguous_play": (400, "the cards read several ways: name one"),
    "does_not_beat": (400, "the play does not beat the table"),
    "must_play": (400, "a free lead cannot be passed"),
    "unknown_card": (400, "no such card id or code"),
    "card_not_in_hand": (400, "the cards are not in the seat's hand"),
    "card_not_in_pack": (400, "the pack has no such card"),
    "too_many_copies": (400, "more copies of a card than the pack holds"),
    "duplicate_card": (400, "a card twice in one play"),
    "invalid_name": (400, "a display name of the wrong length or characters"),
    "reserved_name": (400, "a display name kept for the service, its staff or its bots"),
    "not_authenticated": (401, "no credentials"),
    "authentication_failed": (401, "a wrong or revoked token, or an inactive account"),
    "token_expired": (401, "the token is past its expiry"),
    "forbidden": (403, "acting for a seat that is not the caller's"),
    "not_found": (404, "no such URL, match, round or table, or not the caller's to see"),
    "method_not_allowed": (405, "the URL does not take this method"),
    "not_acceptable": (406, "no answer in a type the Accept header allows"),
    "stale_version": (409, "expected_version is not the match's version"),
    "match_full": (409, "every human seat is taken"),
    "match_not_started": (409, "the match is waiting for players: no action is awaited"),
    "match_over": (409, "the match is finished or aborted"),
    "match_paused": (409, "everyone was away: the match waits for a person to take their seat "
                          "back (托管 off)"),
    "round_over": (409, "no round is in play"),
    "idempotency_key_reused": (409, "the Idempotency-Key made another action"),
    "not_a_guest": (409, "the account is registered already"),
    "name_taken": (409, "another account has this name, or one that looks like it"),
    "match_not_finished": (409, "a rematch is asked for once the match is finished, a replay "
                           "once it is over"),
    "no_rematch": (409, "nobody asked for a rematch of this match"),
    "rematch_closed": (409, "the rematch started without you: bots took your seat"),
    "body_too_large": (413, "the body is over the size limit"),
    "unsupported_media_type": (415, "the body is not JSON"),
    "throttled": (429, "too many sign-ins from this address (or new guests from this browser, "
                  "or phrases from this person): wait"),
    "server_error": (500, "a bug on the server's side"),
    "unavailable": (503, "the database is out of reach for a moment: retry"),
    "database_busy": (503, "the embedded mode's SQLite stayed locked: retry"),
}


def status_of(code: str) -> int:
    """The code's status; a code the table lacks can only be a ruleset's own refusal of an
    action (tests keep every code of the project in the table): 400."""
    return ERRORS[code][0] if code in ERRORS else status.HTTP_400_BAD_REQUEST


class ErrorInfoSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="stable machine code, e.g. invalid_input, not_found")
    message = serializers.CharField(help_text="for people; may change")
    details = serializers.DictField(help_text="context: field errors, readings, versions...")
    request_id = serializers.CharField(help_text="also the X-Request-ID header and in the "
                                       "server's log lines: quote it when reporting a problem")


class ErrorSerializer(serializers.Serializer):
    """Documents the error shape in the OpenAPI schema."""

    error = ErrorInfoSerializer()


# DRF's codes, renamed where the API promises clients another name.
RENAMED_CODES = {"invalid": "invalid_input", "parse_error": "malformed_json",
                 "permission_denied": "forbidden"}


def error_body(code: str, message: str, details: dict | None = None) -> dict:
    return {"error": {"code": code, "message": message, "details": details or {},
                      "request_id": current_request_id()}}


def _code(exc: exceptions.APIException) -> str:
    if isinstance(exc, exceptions.ValidationError):
        return "invalid_input"
    codes = exc.get_codes()
    code = codes if isinstance(codes, str) else exc.default_code
    return RENAMED_CODES.get(code, code)


def _message(exc: exceptions.APIException) -> str:
    return str(exc.detail) if isinstance(exc.detail, str) else str(exc.default_detail)


def _details(exc: exceptions.APIException) -> dict:
    if isinstance(exc, exceptions.ValidationError):
        return exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
    if isinstance(exc, exceptions.Throttled):
        return {"wait_seconds": exc.wait}
    return getattr(exc, "details", {})


# How long a client should wait before trying again when the database does not answer.
RETRY_AFTER_SECONDS = 5


def exception_handler(exc, context):
    if isinstance(exc, OperationalError) and "database is locked" in str(exc):
        # SQLite (the embedded mode) waited its whole timeout for another writer: try later.
        response = Response(error_body("database_busy", "The database is busy: try again."),
                            status=status_of("database_busy"))
        response["Retry-After"] = "1"
        return response
    if isinstance(exc, OperationalError | InterfaceError):
        # The database is away (restarting, unreachable): not the request's fault, nothing
        # written. The connection is replaced at the end of the request.
        logger.warning("database unavailable: %s", exc)
        return Response(
            error_body("unavailable", "The service is briefly unavailable: try again soon.",
                       {"retry_after_seconds": RETRY_AFTER_SECONDS}),
            status=status_of("unavailable"),
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        )
    if isinstance(exc, Refusal):
        if status_of(exc.code) == status.HTTP_409_CONFLICT:
            metrics.CONFLICTS.labels(exc.code).inc()
        return Response(error_body(exc.code, exc.message, exc.details),
                        status=status_of(exc.code))
    if isinstance(exc, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return Response(
            error_body("body_too_large", f"The request body exceeds {limit} bytes.",
                       {"limit_bytes": limit}),
            status=status_of("body_too_large"),
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(*exc.args)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)
    # DRF's handler sets the status, the WWW-Authenticate / Retry-After headers and rolls back
    # an atomic request; anything else it does not know is a bug and becomes a 500.
    response = drf_exception_handler(exc, context)
    if response is not None:
        response.data = error_body(_code(exc), _message(exc), _details(exc))
    return response


def _is_api(request) -> bool:
    return request.path.startswith("/api/")


def bad_request(request, exception):
    if not _is_api(request):
        return defaults.bad_request(request, exception)
    return JsonResponse(error_body("bad_request", "The request was refused."),
                        status=status_of("bad_request"))


def page_not_found(request, exception):
    if not _is_api(request):
        return defaults.page_not_found(request, exception)
    return JsonResponse(error_body("not_found", "There is no such URL.", {"path": request.path}),
                        status=status_of("not_found"))


@csrf_exempt
def no_such_url(request):
    """The last route under /api/v1/: with DEBUG on Django would answer its HTML debug page."""
    return page_not_found(request, None)


def server_error(request):
    if not _is_api(request):
        return defaults.server_error(request)
    return JsonResponse(error_body("server_error", "Something went wrong on our side."),
                        status=status_of("server_error"))
