"""`manage.py simulate_paired FIRST.json SECOND.json [--unit U]`: two `simulate --json` runs on the
same seed compared on the deals both played (bots.simulation.paired)."""

import json

from django.core.management.base import BaseCommand, CommandError

from bots.simulation import paired


class Command(BaseCommand):
    help = "Compare two simulate --json runs on the same deals: rates and the paired difference."

    def add_arguments(self, parser):
        parser.add_argument("first")
        parser.add_argument("second")
        parser.add_argument("--unit", default=None,
                            help="the seat or side compared (default: side A in team play, "
                                 "else seat 0)")

    def handle(self, *args, **opts):
        runs = []
        for path in (opts["first"], opts["second"]):
            try:
                with open(path) as f:
                    runs.append(json.load(f)["per_round"])
            except (OSError, ValueError, KeyError) as err:
                raise CommandError(f"{path}: not a simulate --json file ({err})") from None
        first, second = runs
        unit = opts["unit"] or ("A" if first and first[0]["sides"][0] == "A" else "0")
        result = paired(first, second, unit)
        low, high = result["difference_ci95"]
        lines = [f"{result['rounds']} rounds both played, {unit} won:"]
        for name, path in (("first", opts["first"]), ("second", opts["second"])):
            r = result[name]
            lines.append(f"  {path}: {r['won']} ({r['rate']:.1%}, "
                         f"{r['ci95'][0]:.1%}–{r['ci95'][1]:.1%})")
        lines.append(f"  difference: {result['difference']:+.1%} ({low:+.1%}..{high:+.1%})")
        self.stdout.write("\n".join(lines))
