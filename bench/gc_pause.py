"""The garbage collector's full collection in a web process holding 1,000 live streams, as the
streams keep their last view: as dicts and lists (before) or as JSON text (`streams.Sent`), and
with the process's start-up objects frozen (`gc.freeze()`, config/asgi.py) or not. A full
collection walks every tracked object; its time is a pause of every stream of the process.

Prints one line per figure: the median full-collection time in ms (REPEATS collections each).

Run: `.venv/bin/python bench/gc_pause.py [--smoke]` (a few seconds; no database needed).
"""

import argparse
import copy
import gc
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
for name in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL"):
    os.environ.pop(name, None)

STREAMS = 1000
REPEATS = 9


def full_collection_ms(repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        gc.collect()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a quick run: figures mean little")
    smoke = parser.parse_args().smoke
    streams, repeats = (50, 2) if smoke else (STREAMS, REPEATS)

    from config import asgi  # the web process's start-up (it freezes what it loaded)
    from games.api import streams as live_streams
    from games.api.schema import example_view
    from games.engine.registry import get_ruleset

    views = [example_view(get_ruleset(name)) for name in ("gandengyan", "510k")]
    kinds = {"as dicts": lambda view: copy.deepcopy(view),
             "as text (Sent)": live_streams.Sent.of}
    for frozen in (False, True):
        for kind, keep in kinds.items():
            gc.unfreeze()
            if frozen:
                gc.collect()
                gc.freeze()  # the start-up's objects only: the streams come after
            held = [keep(views[i % 2]) for i in range(streams)]
            pause = full_collection_ms(repeats)
            print(f"full collection, {streams} streams' views {kind}, start-up "
                  f"{'frozen' if frozen else 'not frozen'}: {pause:.1f} ms")
            del held
    assert asgi.application


if __name__ == "__main__":
    main()
