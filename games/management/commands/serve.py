"""`manage.py serve [HOST:PORT]`: the service under ASGI (uvicorn), the REST endpoints and the live
streams on one port, as `make run` and the tests start it. Production runs the same application
under gunicorn with uvicorn workers (docker-compose.yml)."""

import uvicorn
from django.core.management.base import BaseCommand, CommandError


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
        uvicorn.run("config.asgi:application", host=host, port=int(port), lifespan="off",
                    log_level="info" if options["verbosity"] > 1 else "warning")
