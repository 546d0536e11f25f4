"""The web table: one page at `/`; everything else it does goes through the public API."""

from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


@require_safe
@never_cache
def index(request):
    return render(request, "web/index.html")
