"""Engine speed for both rulesets beside RLCard's Dou Dizhu engine, timed interleaved: each
contender runs in short blocks taken in turn (the order rotating every cycle), so the machine's
load, whatever it does during the run, falls on all of them alike and cannot flip a ratio. Every
figure is given per wall-clock second and per CPU second of this process.

Targets: gandengyan whole random rounds (4 seats, 1 deck) ≥ 3× RLCard's raw random games/s;
510k 4-player whole rounds ≥ RLCard's games/s; the median 510k listing on a 22-card lead ≤
RLCard's on a 20-card lead. Then each engine's own figures (matches, listings, a 2,000-game soak
that must end with zero errors).

Run: `make bench`, or `.venv/bin/python bench/engine.py [--smoke]`.
"""

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import engine_510k, engine_gandengyan, rlcard_reference  # noqa: E402
from bench.smoke import parser  # noqa: E402

BLOCK_SECONDS = 0.25
CYCLES = 24
SEED = 7


def interleaved(streams: dict, block: float = BLOCK_SECONDS, cycles: int = CYCLES) -> dict:
    """Items per wall and per CPU second of each stream, its blocks taken in turn."""
    totals = {name: [0, 0.0, 0.0] for name in streams}
    names = list(streams)
    for cycle in range(cycles):
        for name in names[cycle % len(names):] + names[:cycle % len(names)]:
            items, stream = 0, streams[name]
            wall, cpu = time.perf_counter(), time.process_time()
            while time.perf_counter() - wall < block:
                next(stream)
                items += 1
            totals[name][0] += items
            totals[name][1] += time.perf_counter() - wall
            totals[name][2] += time.process_time() - cpu
    return {name: {"per_second": n / wall, "per_cpu_second": n / cpu}
            for name, (n, wall, cpu) in totals.items()}


def interleaved_medians(streams: dict, samples: int = 2000, chunk: int = 100) -> dict:
    """The median of each timing stream, its samples drawn in chunks taken in turn."""
    times = {name: [] for name in streams}
    while any(len(t) < samples for t in times.values()):
        for name, stream in streams.items():
            times[name].extend(next(stream) for _ in range(chunk))
    return {name: statistics.median(t) * 1000 for name, t in times.items()}


def main() -> None:
    smoke = parser(__doc__).parse_args().smoke
    block, cycles, samples = (0.02, 3, 100) if smoke else (BLOCK_SECONDS, CYCLES, 2000)
    started = time.perf_counter()
    if not rlcard_reference.available():
        print("rlcard is not installed (pip install -e '.[bench]'): no ratios")
        return
    rates = interleaved({
        "gandengyan rounds": engine_gandengyan.round_stream(SEED),
        "510k rounds": engine_510k.round_stream(SEED),
        "RLCard games": rlcard_reference.game_stream(SEED),
    }, block, cycles)
    print(f"== interleaved, {cycles} blocks of {block} s each")
    for name, rate in rates.items():
        print(f"{name:18} {rate['per_second']:7.0f}/s  {rate['per_cpu_second']:7.0f}/CPU s")
    reference = rates["RLCard games"]
    for name, target in (("gandengyan rounds", 3), ("510k rounds", 1)):
        wall = rates[name]["per_second"] / reference["per_second"]
        cpu = rates[name]["per_cpu_second"] / reference["per_cpu_second"]
        print(f"{name} ÷ RLCard games: {wall:.2f} per second, {cpu:.2f} per CPU second "
              f"(target ≥ {target})")
    medians = interleaved_medians({
        "510k 22-card lead": engine_510k.lead_listing_stream(SEED),
        "RLCard 20-card lead": rlcard_reference.lead_listing_stream(SEED),
    }, samples)
    ours, theirs = medians["510k 22-card lead"], medians["RLCard 20-card lead"]
    print(f"lead listing medians: 510k {ours:.4f} ms, RLCard {theirs:.4f} ms, ratio "
          f"{ours / theirs:.2f} (target ≤ 1)")
    print("== gandengyan")
    engine_gandengyan.report(engine_gandengyan.run(**(engine_gandengyan.SMOKE if smoke else {})))
    print("== 510k")
    engine_510k.report(engine_510k.run(**(engine_510k.SMOKE if smoke else {})))
    print(f"total {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
