"""Content negotiation for an API that answers in JSON only: a view with one renderer uses it
without parsing the Accept header on every request (DRF's negotiation was a measurable part of
an act's time). Views with several renderers (the OpenAPI schema: YAML or JSON) negotiate as
DRF does."""

from rest_framework.negotiation import DefaultContentNegotiation


class JSONOnly(DefaultContentNegotiation):
    def select_renderer(self, request, renderers, format_suffix=None):
        if len(renderers) == 1 and format_suffix is None:
            return renderers[0], renderers[0].media_type
        return super().select_renderer(request, renderers, format_suffix)
