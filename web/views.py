"""The web table: one page at `/`; everything else it does goes through the public API."""

from pathlib import Path

from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

# One optional module per ruleset, named after it: how the page shows that ruleset's own facts.
RULESET_MODULES = Path(__file__).resolve().parent / "static" / "web" / "js" / "rulesets"


def ruleset_modules() -> list[tuple[str, str]]:
    """(ruleset, URL) of each ruleset's module: the page imports a ruleset's module by the URL
    given here (hashed in production), so that it shares the page's own modules."""
    return [(path.stem, static(f"web/js/rulesets/{path.name}"))
            for path in sorted(RULESET_MODULES.glob("*.js"))]


@require_safe
@never_cache
def index(request):
    return render(request, "web/index.html", {"ruleset_modules": ruleset_modules()})
