"""`manage.py simulate`: bot-only matches on the engine, a table of results, JSON for plotting.

    python manage.py simulate --ruleset gandengyan --players 4 \\
        --seats normal,random,random,random --matches 100 --seed 1 --rounds 20 --json out.json
"""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from bots.simulation import Outcome, load, simulate, summary, table
from bots.strategies import strategies
from bots.strategies.search import DEFAULT_CAP_MS, WALL_FACTOR, Budget
from games.engine.errors import IllegalAction
from games.engine.registry import RULESETS

BAR_WIDTH = 30


class Command(BaseCommand):
    help = "Play bot-only matches directly on the engine and report how each level does."

    def add_arguments(self, parser):
        parser.add_argument("--ruleset", required=True, choices=sorted(RULESETS))
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--seats", required=True,
                            help="one level per seat, comma-separated: random, greedy, normal, "
                                 "hard")
        parser.add_argument("--matches", type=int, required=True)
        parser.add_argument("--seed", default="1")
        parser.add_argument("--rounds", type=int, default=None,
                            help="rounds per match (the `rounds` option where the ruleset has "
                                 "one; else a cap, or until the match ends)")
        parser.add_argument("--samples", type=int, default=None,
                            help="the hard bot's samples per decision (default: the ruleset's)")
        parser.add_argument("--budget-ms", type=float, default=DEFAULT_CAP_MS,
                            help="the hard bot's cap per decision in CPU ms (the wall clock "
                                 "stops it only at 4 times as much); 0: no cap (exactly "
                                 "--samples samples, reproducible)")
        parser.add_argument("--options", default="{}", help="more match options, as JSON")
        parser.add_argument("--json", dest="json_path", default=None,
                            help="write the summary and every round here")
        parser.add_argument("--no-wall-net", action="store_true",
                            help="hard: the CPU cap only, no wall-clock net (a machine too busy "
                                 "for the net would cut its searches short)")
        parser.add_argument("--processes", type=int, default=1,
                            help="worker processes playing matches side by side (same results "
                                 "with a sample budget and no cap)")
        parser.add_argument("--load", type=int, default=0,
                            help="sibling processes burning CPU while the matches are played: "
                                 "an artificial load (a level's strength must not change)")
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args, **opts):
        seats = [s.strip() for s in opts["seats"].split(",")]
        if len(seats) != opts["players"]:
            raise CommandError(f"--seats lists {len(seats)} levels for {opts['players']} players")
        budget = Budget(samples=opts["samples"], ms=opts["budget_ms"] or None,
                        wall=None if opts["no_wall_net"] else WALL_FACTOR)
        levels = strategies(opts["ruleset"], budget)
        unknown = sorted(set(seats) - set(levels))
        if unknown:
            raise CommandError(f"unknown levels {unknown}; known: {', '.join(levels)}")
        if opts["matches"] < 1:
            raise CommandError("--matches must be at least 1")
        if opts["processes"] < 1:
            raise CommandError("--processes must be at least 1")
        if opts["load"] < 0:
            raise CommandError("--load must be 0 or more")
        try:
            options = json.loads(opts["options"])
        except json.JSONDecodeError as err:
            raise CommandError(f"--options is not JSON: {err}") from None
        command = {key: opts[key] for key in ("ruleset", "players", "seats", "matches", "seed",
                                               "rounds", "budget_ms", "samples", "options",
                                               "processes", "load", "no_wall_net")}
        done = {"matches": -1}

        def progress(matches: int, outcome: Outcome) -> None:
            if not opts["no_progress"]:
                _bar(matches, opts["matches"], len(outcome.rounds))
            if opts["json_path"] and matches > done["matches"]:
                # After every whole match, so that a long run stopped early keeps its figures.
                done["matches"] = matches
                _write(opts["json_path"], command, outcome)

        try:
            with load(opts["load"]):
                outcome = simulate(opts["ruleset"], seats, opts["matches"], opts["seed"],
                                   levels, rounds=opts["rounds"], options=options,
                                   progress=progress, processes=opts["processes"])
        except IllegalAction as err:
            raise CommandError(f"{err.code}: {err}") from None
        if not opts["no_progress"]:
            sys.stderr.write("\n")
        self.stdout.write(table(summary(outcome)))
        if opts["json_path"]:
            _write(opts["json_path"], command, outcome)


def _write(path: str, command: dict, outcome: Outcome) -> None:
    with open(path, "w") as out:
        json.dump({**summary(outcome), "command": command, "per_round": outcome.rounds}, out,
                  indent=1)


def _bar(matches: int, total: int, rounds: int) -> None:
    filled = BAR_WIDTH * matches // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] "
                     f"{matches}/{total} matches, {rounds} rounds")
    sys.stderr.flush()

