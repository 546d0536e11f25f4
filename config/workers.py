"""gunicorn's worker for the service: uvicorn's (ASGI), which also ends when its master is gone,
and which reads proxy headers from TRUSTED_PROXIES alone.

gunicorn's own workers look at their parent each time they tell it they are alive; uvicorn's
worker does not, so a master killed with SIGKILL (or by the OOM killer) left its workers running
on as orphans, holding the port and unsupervised, and a restarted master could not take it over.
Here each worker looks at its parent every second: once the master is gone it shuts down as on
SIGTERM (stops accepting, lets requests in flight finish for up to gunicorn's
`graceful_timeout`) and exits.
"""

import asyncio
import os
import signal

from django.conf import settings
from uvicorn_worker import UvicornWorker as BaseUvicornWorker

MASTER_CHECK_SECONDS = 1.0
# How long an idle keep-alive connection stays open. nginx (deploy/nginx.conf) lets go of its
# idle upstream connections sooner (4 s), so it never sends a request down one the web server is
# closing: a POST sent so fails with 502, and nginx never retries a POST. uvicorn's worker takes
# gunicorn's `--keep-alive`, whose default (2 s) was shorter than nginx's: about one act in a
# thousand was answered 502 under load (docs/operations.md).
KEEP_ALIVE_SECONDS = 5


class UvicornWorker(BaseUvicornWorker):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A shutdown waits for open responses, and a live stream never ends by itself: bounded
        # here as the master bounds it (it kills a worker graceful_timeout after SIGTERM), so
        # that an orphan, whom nobody kills, ends too.
        self.config.timeout_graceful_shutdown = self.cfg.graceful_timeout
        self.config.timeout_keep_alive = max(self.cfg.keepalive, KEEP_ALIVE_SECONDS)
        # X-Forwarded-For and -Proto from TRUSTED_PROXIES alone, as the throttles read them
        # (gunicorn's --forwarded-allow-ips, 127.0.0.1 by default, is not used).
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        self.config.proxy_headers = bool(settings.TRUSTED_PROXIES)
        self.config.forwarded_allow_ips = settings.TRUSTED_PROXIES

    async def _serve(self) -> None:
        watch = asyncio.create_task(self._watch_master())
        try:
            await super()._serve()
        finally:
            watch.cancel()

    async def _watch_master(self) -> None:
        while os.getppid() == self.ppid:
            await asyncio.sleep(MASTER_CHECK_SECONDS)
        self.log.warning("worker %s: its master %s is gone, shutting down", os.getpid(),
                         self.ppid)
        os.kill(os.getpid(), signal.SIGTERM)  # uvicorn's own graceful shutdown
