"""WhiteNoise (the web table's files, the admin's) for both of config/asgi.py's handlers.
WhiteNoise's own middleware is synchronous only: this one is synchronous or asynchronous as the
chain around it is (games.api.middleware.Middleware), so that Django adds no thread hop around it
in the live streams' chain. WhiteNoise hands Django a file iterator that is synchronous; Django's
ASGI handler then reads it in a thread, and writes a Python warning to the server's log. Here the
same thread read is done by an asynchronous iterator, so nothing is logged. Under WSGI (the test
client) the response stays as WhiteNoise made it."""

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from whitenoise.middleware import WhiteNoiseMiddleware

from games.api.middleware import Middleware


async def _read_in_a_thread(blocks):
    # Django's own fallback for a synchronous iterator, minus its warning: static files are small.
    for block in await sync_to_async(list, thread_sensitive=False)(blocks):
        yield block


class StaticFilesMiddleware(Middleware, WhiteNoiseMiddleware):
    def __init__(self, get_response):
        WhiteNoiseMiddleware.__init__(self, get_response)
        Middleware.__init__(self, get_response)

    def before(self, request):
        # A dict look-up in production; a look at the disk only with WHITENOISE_AUTOREFRESH
        # (development). Serving opens one small file.
        if self.autorefresh:
            static_file = self.find_file(request.path_info)
        else:
            static_file = self.files.get(request.path_info)
        return None if static_file is None else self.serve(static_file, request)

    @staticmethod
    def serve(static_file, request):
        response = WhiteNoiseMiddleware.serve(static_file, request)
        if isinstance(request, ASGIRequest):
            response.streaming_content = _read_in_a_thread(response.streaming_content)
        return response
