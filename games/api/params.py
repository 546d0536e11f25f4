"""Query parameters and headers, parsed strictly, each described to OpenAPI from the same bounds
it is parsed with (tests/test_schema_bounds.py sends each bound to the server).

Whole numbers are ASCII digits only, in their one spelling: no sign, space, underscore, other
script's digits (`٣`) or leading zero (`05`; `0` itself is fine), so that a number has one form
in URLs, caches and logs."""

import re
from dataclasses import dataclass

from drf_spectacular.utils import OpenApiParameter

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
