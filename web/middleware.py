"""WhiteNoise under ASGI, the way the service always runs (`manage.py serve`, gunicorn with
uvicorn workers). WhiteNoise hands Django a file iterator that is synchronous; Django's ASGI
handler then reads it in a thread, and writes a Python warning to the server's log. Here the
same thread read is done by an asynchronous iterator, so nothing is logged. Under WSGI (the
test client) the response stays as WhiteNoise made it. WhiteNoise's middleware is synchronous
only; this one is also asynchronous where the chain around it is (the live streams' chain,
config/asgi.py), so that Django adds no thread hop around it there."""

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.core.handlers.asgi import ASGIRequest
from whitenoise.middleware import WhiteNoiseMiddleware


async def _read_in_a_thread(blocks):
    # Django's own fallback for a synchronous iterator, minus its warning: static files are small.
    for block in await sync_to_async(list, thread_sensitive=False)(blocks):
        yield block


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    sync_capable = True
    async_capable = True

    def __init__(self, get_response=None, **kwargs):
        super().__init__(get_response, **kwargs)
        self.async_mode = iscoroutinefunction(get_response)
        if self.async_mode:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.async_mode:
            return self._acall(request)
        return super().__call__(request)

    async def _acall(self, request):
        if self.autorefresh:  # development: a look at the disk
            static_file = await sync_to_async(self.find_file)(request.path_info)
        else:
            static_file = self.files.get(request.path_info)
        if static_file is not None:
            return await sync_to_async(self.serve)(static_file, request)
        return await self.get_response(request)

    @staticmethod
    def serve(static_file, request):
        response = WhiteNoiseMiddleware.serve(static_file, request)
        if isinstance(request, ASGIRequest):
            response.streaming_content = _read_in_a_thread(response.streaming_content)
        return response
