"""Every endpoint refuses a query parameter it does not take with 400 `unknown_query_parameter`
naming it, as unknown body fields are refused; each declares what it takes (games.api.params'
`takes`), and the declarations are the parameters the OpenAPI schema lists."""

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from drf_spectacular.generators import SchemaGenerator

from games.api.params import _declared

pytestmark = pytest.mark.django_db
METHODS = ("get", "post", "put", "patch", "delete")
SAMPLES = {"match_id": 1, "number": 1, "slug": "a-table", "ruleset": "gandengyan", "user_id": 1}


def routes(patterns=None, prefix: str = "") -> list[tuple[str, object]]:
    """(URL, view) of every named route under /api/v1/."""
    found = []
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            if (prefix + str(entry.pattern)).startswith("api/"):
                found += routes(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern) and entry.name:
            url = reverse(entry.name, kwargs={k: SAMPLES[k] for k in entry.pattern.converters})
            if url.startswith("/api/v1/"):
                found.append((url, entry.callback))
    return found


def methods(view) -> list[str]:
    view_class = getattr(view, "cls", None) or getattr(view, "view_class", None)
    if view_class is None:
        return ["get"]  # the streams: plain async views
    return [m for m in METHODS if hasattr(view_class, m)]


CASES = [(url, method) for url, view in routes() for method in methods(view)]


def test_every_api_route_is_checked():
    urls = {url for url, _ in CASES}
    assert {"/api/v1/matches/", "/api/v1/stream/", "/api/v1/auth/login/",
            "/api/v1/matches/1/stream/", "/api/v1/health/"} <= urls
    assert len(urls) == len(routes())


@pytest.mark.parametrize(("url", "method"), CASES)
def test_an_unknown_query_parameter_is_refused_naming_it(client, url, method):
    response = getattr(client, method)(f"{url}?limt=5&zz=1", content_type="application/json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "unknown_query_parameter"
    assert error["details"] == {"fields": ["limt", "zz"]}


@pytest.mark.parametrize(("url", "query", "code"), [
    ("/api/v1/matches/", "limit=5&before=9&status=active", 200),
    ("/api/v1/matches/1/events/", "since=0&limit=5", 404),
    ("/api/v1/health/", "", 200),
    ("/api/v1/leaderboards/gandengyan/", "limit=5&rank=0", 200),
    ("/api/v1/no/such/url/", "anything=1", 404),
])
def test_declared_parameters_pass(auth_client, url, query, code):
    assert auth_client.get(f"{url}?{query}").status_code == code


def test_each_endpoint_declares_the_query_parameters_its_schema_lists():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    views = {url: view for url, view in routes()}
    checked = 0
    for path, operations in schema["paths"].items():
        url = path.format(**SAMPLES)
        for method, operation in operations.items():
            listed = {p["name"] for p in operation.get("parameters", []) if p["in"] == "query"}
            assert _declared(views[url], method.upper()) == listed, (method, url)
            checked += 1
    assert checked > 20
