"""Under ASGI, the live streams go to Django's own handler (its middleware on the event loop) and
every other request to one whose middleware chain runs with its synchronous view in one thread;
the project's middleware works in both, so every response carries its headers."""


import pytest
from asgiref.testing import ApplicationCommunicator
from django.urls.resolvers import URLResolver

from config import asgi
from games.api.middleware import REQUEST_ID_HEADER

pytestmark = pytest.mark.django_db(transaction=True)


def test_only_the_streams_are_served_on_the_event_loop():
    assert asgi.streamed(asgi.resolved("/api/v1/stream/"))
    assert asgi.streamed(asgi.resolved("/api/v1/matches/7/stream/"))
    for sync_path in ("/api/v1/health/", "/api/v1/matches/7/", "/", "/admin/", "/nowhere/"):
        assert not asgi.streamed(asgi.resolved(sync_path))


def test_the_threaded_chain_is_synchronous_and_the_streams_chain_asynchronous():
    assert not asgi.iscoroutinefunction(asgi.application.threaded._middleware_chain)
    assert asgi.iscoroutinefunction(asgi.application.streams._middleware_chain)


async def get(target: str) -> tuple[int, dict]:
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
             "scheme": "http", "path": target, "raw_path": target.encode(), "query_string": b"",
             "root_path": "", "headers": [(b"host", b"testserver")],
             "client": ("127.0.0.1", 1), "server": ("testserver", 80)}
    app = ApplicationCommunicator(asgi.application, scope)
    await app.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await app.receive_output(10)
    while (await app.receive_output(10)).get("more_body"):
        pass
    await app.wait(10)
    return start["status"], {k.decode().lower(): v.decode() for k, v in start["headers"]}


async def test_a_path_is_resolved_once_per_request(monkeypatch):
    resolutions = []
    original = URLResolver.resolve

    def resolve(self, path):
        if self.pattern.regex.pattern == "^/":  # the root resolver: once per resolution
            resolutions.append(path)
        return original(self, path)

    monkeypatch.setattr(URLResolver, "resolve", resolve)
    got, _ = await get("/api/v1/health/")
    assert (got, resolutions) == (200, ["/api/v1/health/"])


@pytest.mark.parametrize(("target", "status"), [
    ("/api/v1/health/", 200),  # the threaded handler
    ("/api/v1/stream/", 401),  # Django's: a stream refused before it opens
])
async def test_both_handlers_answer_with_the_middleware_headers(target, status):
    got, headers = await get(target)
    assert got == status
    assert len(headers[REQUEST_ID_HEADER.lower()]) == 32
    assert headers["content-security-policy"].startswith("default-src 'none'")

