"""WhiteNoise under ASGI, the way the service always runs (`manage.py serve`, gunicorn with
uvicorn workers). WhiteNoise hands Django a file iterator that is synchronous; Django's ASGI
handler then reads it in a thread, and writes a Python warning to the server's log. Here the
same thread read is done by an asynchronous iterator, so nothing is logged. Under WSGI (the
test client) the response stays as WhiteNoise made it."""

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from whitenoise.middleware import WhiteNoiseMiddleware


async def _read_in_a_thread(blocks):
    # Django's own fallback for a synchronous iterator, minus its warning: static files are small.
    for block in await sync_to_async(list, thread_sensitive=False)(blocks):
        yield block


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    @staticmethod
    def serve(static_file, request):
        response = WhiteNoiseMiddleware.serve(static_file, request)
        if isinstance(request, ASGIRequest):
            response.streaming_content = _read_in_a_thread(response.streaming_content)
        return response
