"""Timing `legal_actions`, shared by both engine benches."""

import statistics
import time


def timed_listings(ruleset, states, clear_cache) -> dict:
    """legal_actions for the seat to act of each state, cold: `clear_cache()` empties the
    engine's per-hand cache before each call, so repeated hands do not flatter the figures."""
    times, sizes = [], []
    for state in states:
        seat = ruleset.to_act(state)
        clear_cache()
        began = time.perf_counter()
        actions = ruleset.legal_actions(state, seat)
        times.append(time.perf_counter() - began)
        sizes.append(len(actions))
    times.sort()
    return {
        "calls_per_second": len(times) / sum(times),
        "median_ms": statistics.median(times) * 1000,
        "p99_ms": times[int(len(times) * 0.99)] * 1000,
        "largest_listing": max(sizes),
        "mean_listing": statistics.mean(sizes),
    }
