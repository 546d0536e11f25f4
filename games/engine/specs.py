"""The shape of a JSON value, said once: parsed strictly (exact JSON types, bounds, no unknown
keys) with a typed refusal naming the field, and described as a JSON schema for OpenAPI and the
admin. Rulesets describe their options and settlement facts with these; actions use them too.
"""

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from games.engine.errors import IllegalAction

MISSING = object()


class Where(NamedTuple):
    """Where a value is being parsed: the refusal's code, the details key naming the field, and
    the path to it."""

    code: str
    key: str = "field"
    path: str = ""

    def at(self, name) -> "Where":
        if isinstance(name, int):
            return self._replace(path=f"{self.path}[{name}]")
        return self._replace(path=f"{self.path}.{name}" if self.path else str(name))

    def fail(self, message: str, **details):
        where = f"{self.path}: " if self.path else ""
        raise IllegalAction(self.code, where + message, **{self.key: self.path or None}, **details)


class Spec:
    description: str = ""

    def parse(self, value, where: Where):
        raise NotImplementedError

    def schema(self) -> dict:
        raise NotImplementedError

    def _with_description(self, data: dict) -> dict:
        return {**data, "description": self.description} if self.description else data


def _whole(value) -> bool:
    return type(value) is int  # JSON numbers: bool is not a number here, 5.0 is not whole


@dataclass(frozen=True)
class Int(Spec):
    low: int
    high: int
    description: str = ""

    def parse(self, value, where: Where) -> int:
        if not _whole(value) or not self.low <= value <= self.high:
            where.fail(f"a whole number {self.low}..{self.high}", min=self.low, max=self.high)
        return value

    def schema(self) -> dict:
        return self._with_description(
            {"type": "integer", "minimum": self.low, "maximum": self.high})


@dataclass(frozen=True)
class Bool(Spec):
    description: str = ""

    def parse(self, value, where: Where) -> bool:
        if type(value) is not bool:
            where.fail("true or false")
        return value

    def schema(self) -> dict:
        return self._with_description({"type": "boolean"})


@dataclass(frozen=True)
class Text(Spec):
    max_length: int
    description: str = ""

    def parse(self, value, where: Where) -> str:
        if type(value) is not str or len(value) > self.max_length:
            where.fail(f"a string of at most {self.max_length} characters")
        return value

    def schema(self) -> dict:
        return self._with_description({"type": "string", "maxLength": self.max_length})


@dataclass(frozen=True)
class Choice(Spec):
    """One of fixed strings or whole numbers; `labels` name each for people ({"en", "zh"})."""

    values: tuple
    description: str = ""
    labels: Mapping[Any, Mapping[str, str]] = field(default_factory=dict)

    def parse(self, value, where: Where):
        # Exact types: 4 is not "4", and True is not 1.
        if not any(type(value) is type(v) and value == v for v in self.values):
            where.fail("one of " + ", ".join(map(str, self.values)), allowed=list(self.values))
        return value

    def schema(self) -> dict:
        kind = "integer" if all(_whole(v) for v in self.values) else "string"
        return self._with_description({"type": kind, "enum": list(self.values)})


@dataclass(frozen=True)
class Nullable(Spec):
    spec: Spec
    description: str = ""

    def parse(self, value, where: Where):
        return None if value is None else self.spec.parse(value, where)

    def schema(self) -> dict:
        return self._with_description({**self.spec.schema(), "nullable": True})


@dataclass(frozen=True)
class List(Spec):
    item: Spec
    max_items: int
    min_items: int = 0
    description: str = ""

    def parse(self, value, where: Where) -> list:
        if type(value) is not list:
            where.fail("a list")
        if not self.min_items <= len(value) <= self.max_items:
            where.fail(f"a list of {self.min_items}..{self.max_items} items")
        return [self.item.parse(v, where.at(i)) for i, v in enumerate(value)]

    def schema(self) -> dict:
        return self._with_description({"type": "array", "items": self.item.schema(),
                                       "minItems": self.min_items, "maxItems": self.max_items})


@dataclass(frozen=True)
class AnyObject(Spec):
    """A JSON object whose keys something else checks (a ruleset, its options); `schema` may say
    what it holds."""

    description: str = ""
    described: Mapping | None = None

    def parse(self, value, where: Where) -> dict:
        if not isinstance(value, Mapping):
            where.fail("a JSON object")
        return dict(value)

    def schema(self) -> dict:
        return self._with_description(dict(self.described or {"type": "object"}))


@dataclass(frozen=True)
class Field:
    """A key of an `Obj`: its spec, its default (none: required), and for people a label in
    English and Chinese."""

    spec: Spec
    default: Any = MISSING
    label: Mapping[str, str] = field(default_factory=dict)

    @property
    def required(self) -> bool:
        return self.default is MISSING


@dataclass(frozen=True)
class Obj(Spec):
    """A JSON object with known keys; unknown keys are refused, missing ones take their default."""

    fields: Mapping[str, Field]
    description: str = ""

    def parse(self, value, where: Where) -> dict:
        if not isinstance(value, Mapping):
            where.fail("a JSON object")
        unknown = sorted(str(k) for k in value if k not in self.fields)
        if unknown:
            where.at(unknown[0]).fail("unknown field", unknown=unknown)
        parsed = {}
        for name, spec in self.fields.items():
            if name in value:
                parsed[name] = spec.spec.parse(value[name], where.at(name))
            elif spec.required:
                where.at(name).fail("required")
            else:
                parsed[name] = copy.copy(spec.default)
        return parsed

    def defaults(self) -> dict:
        return {name: copy.copy(f.default) for name, f in self.fields.items() if not f.required}

    def schema(self) -> dict:
        properties = {}
        for name, f in self.fields.items():
            properties[name] = f.spec.schema()
            if not f.required:
                properties[name]["default"] = f.default
        data = {"type": "object", "properties": properties, "additionalProperties": False}
        required = [name for name, f in self.fields.items() if f.required]
        if required:
            data["required"] = required
        return self._with_description(data)


@dataclass(frozen=True)
class Tagged(Spec):
    """One of several objects told apart by the value of `tag` (e.g. an action's `type`)."""

    tag: str
    variants: Mapping[str, Obj]
    description: str = ""

    def parse(self, value, where: Where) -> dict:
        if not isinstance(value, Mapping):
            where.fail("a JSON object")
        kind = value.get(self.tag)
        if not isinstance(kind, str) or kind not in self.variants:
            where.at(self.tag).fail("one of " + ", ".join(self.variants),
                                    allowed=list(self.variants))
        return self.variants[kind].parse(value, where)

    def schema(self) -> dict:
        return self._with_description({"oneOf": [v.schema() for v in self.variants.values()]})


def parse(spec: Spec, value, code: str, key: str = "field", path: str = ""):
    """`spec` applied to `value` (found at `path`); refused with IllegalAction(code,
    details={key: path})."""
    return spec.parse(value, Where(code, key, path))

