"""NUL (U+0000) in the text a request sends: refused before any view reads it, in one place for
every JSON body (`nul_refused`, called by games.api.parsers) and every query parameter
(`NulQueryMiddleware`, the admin's included). PostgreSQL's text and JSONB cannot hold a NUL (its
DataError would be a 500) while SQLite stores one: a 400 on both databases, and no endpoint has
any use for one. The one stored header, Idempotency-Key, allows visible ASCII only."""

from django.http import HttpResponseBadRequest, JsonResponse

from games.api.middleware import Middleware
from games.engine.errors import IllegalAction

NUL = "\x00"


def nul_at(value) -> str | None:
    """Where a parsed JSON value holds a NUL, named as the specs name fields (`seats[1].level`;
    a key holding one: the key's own path; the whole body: ""); None where it holds none."""
    stack = [(value, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            if NUL in item:
                return path
        elif isinstance(item, dict):
            for key, child in item.items():
                at = f"{path}.{key}" if path else key
                if NUL in key:
                    return at
                stack.append((child, at))
        elif isinstance(item, list):
            stack.extend((child, f"{path}[{i}]") for i, child in enumerate(item))
    return None


def refusal(field: str | None) -> IllegalAction:
    where = f"{field}: " if field else ""
    return IllegalAction("invalid_input", f"{where}text may not hold a NUL character (U+0000)",
                         field=field)


def nul_refused(data) -> None:
    """Raises the 400 for a parsed JSON body that holds a NUL anywhere, keys included."""
    path = nul_at(data)
    if path is not None:
        raise refusal(path or None)


class NulQueryMiddleware(Middleware):
    """A query string with a NUL in a parameter's name or value: a 400 `invalid_input` naming
    it under /api/, a plain 400 elsewhere (the admin's filters would take it to the database)."""

    def before(self, request):
        query = request.META.get("QUERY_STRING", "")
        if "%00" in query or NUL in query:
            for name, values in request.GET.lists():
                if NUL in name or any(NUL in value for value in values):
                    return self._refused(request, name)
        return None

    @staticmethod
    def _refused(request, name: str):
        # Imported here: errors imports DRF's views, which import this module's parser.
        from games.api.errors import error_body, status_of

        error = refusal(name)
        if not request.path.startswith("/api/"):
            return HttpResponseBadRequest(error.message, content_type="text/plain")
        return JsonResponse(error_body(error.code, error.message, error.details),
                            status=status_of(error.code))
