"""The API's one body parser: DRF's JSON parser, with every way a body can make the standard
library's parser fail turned into a 400 `malformed_json`, a bound on nesting, and no NUL in any
string (games.api.nul).

DRF turns only `ValueError`s into a parse error (an integer of more than 4,300 digits is one),
not the `RecursionError` of a body nested about a thousand deep. Nesting below that still reaches
the views and the renderer, where walking it could exhaust the stack again: no body the API
understands is nested more than a few levels, so anything deeper than MAX_DEPTH is refused here.
"""

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from games.api.nul import nul_refused

MAX_DEPTH = 32


def depth(value) -> int:
    """How deeply `value` nests lists and objects (a scalar is 0), without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        elif not isinstance(item, list):
            continue
        level += 1
        deepest = max(deepest, level)
        if level > MAX_DEPTH:
            break
        stack.extend((child, level) for child in item)
    return deepest


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as err:
            raise ParseError(f"JSON parse error - nested more than {MAX_DEPTH} levels") from err
        if depth(data) > MAX_DEPTH:
            raise ParseError(f"JSON parse error - nested more than {MAX_DEPTH} levels")
        nul_refused(data)
        return data
