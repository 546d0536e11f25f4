"""`manage.py serve [HOST:PORT]`: the service under ASGI (uvicorn), the REST endpoints and the live
streams on one port, as `make run` and the tests start it. Production runs the same application
under gunicorn with uvicorn workers (docker-compose.yml)."""

import uvicorn
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games import live

# A stream that has not ended this long after Ctrl-C (its reader is inside a slow query) is cut.
STOP_SECONDS = 3


class Server(uvicorn.Server):
    """uvicorn, saying in the terminal when it serves and when it stops (it logs only warnings
    here), and ending the live streams when it stops: uvicorn waits for every open response to
    end, and a stream would not."""

    def __init__(self, config: uvicorn.Config, say):
        super().__init__(config)
        self.say = say

    async def startup(self, sockets=None) -> None:
        await super().startup(sockets)
        if self.started:
            self.say(f"Serving on http://{self.config.host}:{self.config.port}/ (Ctrl-C stops)")

    async def shutdown(self, sockets=None) -> None:
        self.say("Stopping: ending the live streams (their pages reconnect to the next server)")
        live.HUB.stop()
        await super().shutdown(sockets)


class Command(BaseCommand):
    help = "Serve the API, the streams and the web table under ASGI (uvicorn)."

    def add_arguments(self, parser):
        parser.add_argument("address", nargs="?", default="127.0.0.1:8000",
                            help="HOST:PORT (default 127.0.0.1:8000)")

    def handle(self, *args, address: str, **options):
        host, _, port = address.rpartition(":")
        if not host or not port.isdigit():
            raise CommandError(f"{address!r}: give HOST:PORT")
        # Django has no lifespan events: uvicorn would warn about each at start-up.
        # X-Forwarded-For and -Proto are read from TRUSTED_PROXIES alone (uvicorn would trust
        # the loopback by default: anyone on the host could name any client address).
        config = uvicorn.Config("config.asgi:application", host=host, port=int(port),
                                proxy_headers=bool(settings.TRUSTED_PROXIES),
                                forwarded_allow_ips=settings.TRUSTED_PROXIES,
                                lifespan="off", timeout_graceful_shutdown=STOP_SECONDS,
                                log_level="info" if options["verbosity"] > 1 else "warning")
        try:
            Server(config, self._say).run()
        except KeyboardInterrupt:  # uvicorn raises the Ctrl-C again once it has stopped
            pass
        self._say("Stopped.")

    def _say(self, line: str) -> None:
        self.stdout.write(line)
        self.stdout.flush()
