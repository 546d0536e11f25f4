"""The ASGI application (`manage.py serve`, gunicorn's uvicorn workers): each request goes to the
cheaper of two Django handlers. The live streams (async views that stay open) go to Django's own,
whose middleware chain runs on the event loop. Every other view is synchronous (DRF): its request
goes to a handler whose middleware chain is synchronous and runs with the view in one thread, a
single hop from the event loop as a WSGI server's thread would serve it, where Django's own would
hop between the loop and threads at each synchronous middleware, each hook of Django's own
async-capable ones and the view (docs/performance.md, bench/api.py)."""

import gc
import os

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.core.asgi import get_asgi_application
from django.core.handlers.asgi import ASGIHandler
from django.http import FileResponse
from django.urls import Resolver404, ResolverMatch, get_resolver, resolve

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# The collector's thresholds in a web process (Python's are 700, 10, 10). A full collection
# walks every object the open streams hold (about 300 each: ~300 ms of CPU with 1,000 streams,
# a pause of every one of them); the young ones promoted objects that a request or a stream's
# read still held at the time, which made a full collection due every 5-15 s under load.
# Younger collections 2,000 allocations apart let most of those die young, and a full one
# waits for 1,000 middle ones (Python also waits until a quarter of what it would walk is new):
# at bench/stream.py's load, about an hour apart rather than seconds (docs/performance.md).
GC_THRESHOLDS = (2000, 10, 1000)
# Where the scope keeps the view its path resolved to, to pick the handler: Django's own
# resolution of it, repeated, cost a match's GET or act about 3% of its CPU.
RESOLVED = "cardtable.resolved"


class ThreadedHandler(ASGIHandler):
    """Django's ASGI handler with a synchronous middleware chain, run with the view in the
    request's thread."""

    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)

    def resolve_request(self, request):
        found: ResolverMatch | None = request.scope.get(RESOLVED)
        if found is None or getattr(request, "urlconf", None) is not None \
                or request.path_info != request.scope["path"]:
            return super().resolve_request(request)
        request.resolver_match = found
        return found

    async def run_get_response(self, request):
        response = await sync_to_async(self.get_response, thread_sensitive=True)(request)
        response._handler_class = self.__class__
        if isinstance(response, FileResponse):  # as Django's: the server chunks
            response.block_size = self.chunk_size
        return response


def resolved(path: str) -> ResolverMatch | None:
    try:
        return resolve(path)
    except Resolver404:
        return None


def streamed(found: ResolverMatch | None) -> bool:
    """The path's view is a live stream (asynchronous), served on the event loop."""
    return found is not None and iscoroutinefunction(found.func)


class Application:
    def __init__(self):
        self.streams = get_asgi_application()  # sets Django up
        self.threaded = ThreadedHandler()
        get_resolver().url_patterns  # noqa: B018 (imports every view)
        # What is loaded by now lives as long as the process: kept out of the garbage
        # collector's full walks, which the live streams make frequent (bench/gc_pause.py).
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            found = resolved(scope["path"])
            if not streamed(found):
                return await self.threaded({**scope, RESOLVED: found}, receive, send)
        return await self.streams(scope, receive, send)


application = Application()
