"""The API's one renderer: DRF's JSONRenderer through orjson (games.fastjson). A view of a match
is about 7 KB of JSON: the standard library's encoder cost a GET or an act more CPU than the
engine's step. Whatever orjson does not encode itself (datetimes, lazy strings, sets...) goes to
DRF's own encoder, so the text is DRF's: datetimes in its format, U+2028 and U+2029 escaped."""

import orjson
from rest_framework import renderers
from rest_framework.utils.encoders import JSONEncoder

OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
_encoder = JSONEncoder()


class JSONRenderer(renderers.JSONRenderer):
    def render(self, data, accepted_media_type=None, renderer_context=None):
        if data is None:
            return b""
        if self.get_indent(accepted_media_type, renderer_context or {}):
            return super().render(data, accepted_media_type, renderer_context)
        text = orjson.dumps(data, default=_encoder.default, option=OPTIONS)
        # As DRF's: those two are valid JSON but end a line in JavaScript.
        return text.replace("\u2028".encode(), b"\\u2028").replace("\u2029".encode(), b"\\u2029")
