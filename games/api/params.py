"""Query parameters and headers, parsed strictly, each described to OpenAPI from the same bounds
it is parsed with (tests/test_schema_bounds.py sends each bound to the server).

Each endpoint declares the query parameters it reads (`takes`, beside the code that reads them);
any other is refused with 400 `unknown_query_parameter` naming them (UnknownQueryMiddleware), as
an unknown field of a body is: a misspelt `?limt=5` is told, not silently ignored.

Whole numbers are ASCII digits only, in their one spelling: no sign, space, underscore, other
script's digits (`٣`) or leading zero (`05`; `0` itself is fine), so that a number has one form
in URLs, caches and logs."""

import re
from dataclasses import dataclass

from django.http import JsonResponse
from drf_spectacular.utils import OpenApiParameter

from games.api.errors import error_body
from games.engine.errors import IllegalAction

DIGITS = re.compile(r"0|[1-9][0-9]*")


def invalid_query(name: str, message: str) -> IllegalAction:
    """A query parameter's or a header's refusal, naming it."""
    return IllegalAction("invalid_input", f"{name}: {message}", field=name)


def whole_number(name: str, text: str, low: int, high: int) -> int:
    """`text` as a whole number within low..high, written as DIGITS says; refused naming `name`."""
    if len(text) > len(str(high)) or not DIGITS.fullmatch(text) or not low <= int(text) <= high:
        raise invalid_query(name, f"a whole number {low}..{high} in ASCII digits, no leading "
                            "zero")
    return int(text)


def query_once(request, name: str) -> str | None:
    """A query parameter's value: None when absent or empty, refused when given twice (`request`:
    Django's or DRF's)."""
    values = request.GET.getlist(name)
    if len(values) > 1:
        raise invalid_query(name, "given more than once")
    return values[0] if values and values[0] else None


@dataclass(frozen=True)
class QueryInt:
    """A whole-number query parameter, optional, within low..high."""

    name: str
    low: int
    high: int
    default: int | None = None
    description: str = ""

    def parse(self, request) -> int | None:
        text = query_once(request, self.name)
        return self.default if text is None else whole_number(self.name, text, self.low,
                                                              self.high)

    def parameter(self) -> OpenApiParameter:
        schema = {"type": "integer", "minimum": self.low, "maximum": self.high}
        if self.default is not None:
            schema["default"] = self.default
        return OpenApiParameter(self.name, schema, description=self.description)


@dataclass(frozen=True)
class QueryChoice:
    """A query parameter that is one of fixed strings, optional."""

    name: str
    choices: tuple[str, ...]

    def parse(self, request) -> str | None:
        value = query_once(request, self.name)
        if value is not None and value not in self.choices:
            raise invalid_query(self.name, "one of " + ", ".join(self.choices))
        return value

    def parameter(self) -> OpenApiParameter:
        return OpenApiParameter(self.name, {"type": "string", "enum": list(self.choices)})


IDEMPOTENCY_KEY = "Idempotency-Key"
IDEMPOTENCY_KEY_CHARACTERS = re.compile(r"^[!-~]{1,64}$")  # visible ASCII: a UUID fits


def idempotency_key(request) -> str | None:
    """The act's optional Idempotency-Key header: 1..64 visible ASCII characters."""
    key = request.headers.get(IDEMPOTENCY_KEY)
    if key is not None and not IDEMPOTENCY_KEY_CHARACTERS.fullmatch(key):
        raise invalid_query(IDEMPOTENCY_KEY, "1 to 64 visible ASCII characters, e.g. a UUID")
    return key


IDEMPOTENCY_KEY_PARAMETER = OpenApiParameter(
    IDEMPOTENCY_KEY, {"type": "string", "minLength": 1, "maxLength": 64,
                      "pattern": IDEMPOTENCY_KEY_CHARACTERS.pattern},
    OpenApiParameter.HEADER,
    description="optional, a new one per action (e.g. a UUID): a retry with the key of an act "
    "that was applied answers 200 with the view as it is now and every event since that act "
    "(header `Idempotent-Replayed: true`) instead of acting again; the same key with another "
    "action is a 409 `idempotency_key_reused`")


def takes(*params, anything: bool = False):
    """Declares the query parameters a view reads (names, or QueryInt/QueryChoice): a function
    view, or a DRF view's handler method (`get`, `post`...). `anything`: no endpoint (the last
    route's 404 says more than a parameter would)."""
    names = frozenset(p if isinstance(p, str) else p.name for p in params)

    def declare(view):
        view.query_parameters = None if anything else names
        return view

    return declare


def _declared(view_func, method: str) -> frozenset | None:
    if hasattr(view_func, "query_parameters"):
        return view_func.query_parameters
    view_class = getattr(view_func, "cls", None) or getattr(view_func, "view_class", None)
    handler = getattr(view_class, method.lower(), None)
    if handler is None and method == "HEAD":
        handler = getattr(view_class, "get", None)
    if handler is None:
        return None  # a method the view does not take: its 405 comes first
    return getattr(handler, "query_parameters", frozenset())


class UnknownQueryMiddleware:
    """Under /api/, a query parameter the resolved endpoint does not declare is a 400."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if not request.path.startswith("/api/") or not request.GET:
            return None
        declared = _declared(view_func, request.method)
        if declared is None:
            return None
        unknown = sorted(set(request.GET) - declared)
        if not unknown:
            return None
        return JsonResponse(error_body(
            "unknown_query_parameter", "Unknown query parameter: " + ", ".join(unknown)
            + (". This endpoint takes: " + ", ".join(sorted(declared)) if declared
               else ". This endpoint takes none."), {"fields": unknown}), status=400)
