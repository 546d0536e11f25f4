"""The API's one error shape, `{"error": {"code", "message", "details", "request_id"}}`, for every
4xx (and the 500 and 503 answers).

`exception_handler` is DRF's EXCEPTION_HANDLER: it maps DRF's exceptions, Django's Http404 and
PermissionDenied, oversized bodies, SQLite's lock timeout and every `Refusal` of the engine and
the services (by its kind: the only place that knows their HTTP statuses) to that shape. The
views at the end do the same for errors raised outside DRF views (config/urls.py installs them).
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

from games.api.middleware import current_request_id
from games.engine.errors import Refusal

logger = logging.getLogger(__name__)
STATUS_OF_KIND = {"invalid": 400, "forbidden": 403, "not_found": 404, "conflict": 409,
                  "unavailable": 503}


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
                            status=status.HTTP_503_SERVICE_UNAVAILABLE)
        response["Retry-After"] = "1"
        return response
    if isinstance(exc, OperationalError | InterfaceError):
        # The database is away (restarting, unreachable): not the request's fault, nothing
        # written. The connection is replaced at the end of the request.
        logger.warning("database unavailable: %s", exc)
        return Response(
            error_body("unavailable", "The service is briefly unavailable: try again soon.",
                       {"retry_after_seconds": RETRY_AFTER_SECONDS}),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        )
    if isinstance(exc, Refusal):
        return Response(error_body(exc.code, exc.message, exc.details),
                        status=STATUS_OF_KIND[exc.kind])
    if isinstance(exc, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return Response(
            error_body("body_too_large", f"The request body exceeds {limit} bytes.",
                       {"limit_bytes": limit}),
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
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
    return JsonResponse(error_body("bad_request", "The request was refused."), status=400)


def page_not_found(request, exception):
    if not _is_api(request):
        return defaults.page_not_found(request, exception)
    return JsonResponse(
        error_body("not_found", "There is no such URL.", {"path": request.path}), status=404
    )


@csrf_exempt
def no_such_url(request):
    """The last route under /api/v1/: with DEBUG on Django would answer its HTML debug page."""
    return page_not_found(request, None)


def server_error(request):
    if not _is_api(request):
        return defaults.server_error(request)
    return JsonResponse(error_body("server_error", "Something went wrong on our side."),
                        status=500)
