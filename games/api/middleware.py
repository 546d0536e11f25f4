"""What every response carries: a request id (the `X-Request-ID` header, the `request_id` of an
error body, and every log line written while the request is served) and a Content-Security-Policy
(the web table, the admin and the API docs are the only pages that run scripts; JSON answers
allow nothing).
"""

import contextvars
import logging
import uuid

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.core.signals import request_finished

REQUEST_ID_HEADER = "X-Request-ID"
_request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id",
                                                                          default=None)


def current_request_id() -> str | None:
    """The id of the request being served in this thread, if any."""
    return _request_id.get()


class Middleware:
    """A middleware that is synchronous or asynchronous as the chain around it is, so that Django
    puts no thread hop around it under ASGI. Its `before(request)` (a response ends the request
    there) and `after(request, response)` are quick and never block: neither needs a thread."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.async_mode = iscoroutinefunction(get_response)
        if self.async_mode:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.async_mode:
            return self._acall(request)
        response = self.before(request)
        if response is None:
            response = self.get_response(request)
        return self.after(request, response)

    async def _acall(self, request):
        response = self.before(request)
        if response is None:
            response = await self.get_response(request)
        return self.after(request, response)

    def before(self, request):
        return None

    def after(self, request, response):
        return response


class RequestIdMiddleware(Middleware):
    """Gives each request a new random id. A client's own X-Request-ID is not reused: an id
    anyone can choose could make one request's log lines pass for another's."""

    def before(self, request):
        request.request_id = uuid.uuid4().hex
        # Kept until the response is closed, not only while the middleware runs: Django logs an
        # error response ("Not Found: ...") after the last middleware has returned.
        _request_id.set(request.request_id)

    def after(self, request, response):
        response[REQUEST_ID_HEADER] = request.request_id
        return response


def _forget_request_id(**kwargs) -> None:
    _request_id.set(None)


request_finished.connect(_forget_request_id, dispatch_uid="games.api.middleware.request_id")


class RequestIdLogFilter(logging.Filter):
    """Adds `request_id` to every record ("-" outside a request: workers, commands)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = _request_id.get() or "-"
        return True


# Pages that run scripts (the web table at /, the admin, the API docs) get only their own origin's
# scripts, no inline script; their inline style attributes are allowed (both the admin's
# templates and Swagger UI set some).
PAGE_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
               "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
               "form-action 'self'; frame-ancestors 'none'")
JSON_POLICY = "default-src 'none'; frame-ancestors 'none'"
PAGES = ("/admin/", "/api/v1/docs/")


class ContentSecurityPolicyMiddleware(Middleware):
    def after(self, request, response):
        if "Content-Security-Policy" not in response:
            page = request.path == "/" or request.path.startswith(PAGES)
            response["Content-Security-Policy"] = PAGE_POLICY if page else JSON_POLICY
        return response
