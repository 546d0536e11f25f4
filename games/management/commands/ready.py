"""`manage.py ready [--check sweep ...]`: the readiness answer (/api/v1/health/ready/) as JSON;
exits 1 when a check named (all by default) fails. The compose healthcheck of beat runs it with
`--check sweep`: a beat whose sweeps no longer run is unhealthy."""

import json

from django.core.management.base import BaseCommand, CommandError

from games.api.health import CHECKS, readiness


class Command(BaseCommand):
    help = "Print the readiness checks; exit 1 if one of those named fails."

    def add_arguments(self, parser):
        parser.add_argument("--check", action="append", choices=CHECKS,
                            help="only this check (repeat for more); all by default")

    def handle(self, *args, check=None, **options):
        answer = readiness()
        self.stdout.write(json.dumps(answer))
        failed = [name for name in check or CHECKS if answer[name] not in {"ok", "embedded"}]
        if failed:
            raise CommandError(f"not ready: {', '.join(failed)}")
