"""Engine speed for both rulesets, printed beside RLCard's Dou Dizhu engine measured in the same
run (when the `bench` extra is installed), so the ratios the issues set are measured, not
remembered.

Targets: gandengyan whole random rounds (4 seats, 1 deck) ≥ 3× RLCard's raw random games/s;
510k 4-player whole rounds ≥ RLCard's games/s; the median 510k listing on a 22-card lead ≤
RLCard's on a 20-card lead; 0 errors in both soaks.

Run: `make bench`, or `.venv/bin/python bench/engine.py`.
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import engine_510k, engine_gandengyan, rlcard_reference  # noqa: E402


def main() -> None:
    started = time.perf_counter()
    print("== gandengyan")
    gandengyan = engine_gandengyan.run()
    engine_gandengyan.report(gandengyan)
    print("== 510k")
    five_ten_k = engine_510k.run()
    engine_510k.report(five_ten_k)

    print("== against RLCard's Dou Dizhu (same machine, same run)")
    if not rlcard_reference.available():
        print("rlcard is not installed (pip install -e '.[bench]'): no ratios")
        return
    reference = rlcard_reference.run()
    games = reference["games_per_second"]
    lead_ms = reference["lead_listing_median_ms"]
    gdy_rounds = gandengyan["rounds_4p_1deck"]["rounds_per_second"]
    ftk_rounds = five_ten_k["rounds_per_second_4p"]
    ftk_lead_ms = five_ten_k["lead_listing"]["median_ms"]
    print(f"RLCard: {games:.0f} random games/s, 20-card lead listing median {lead_ms:.4f} ms")
    print(f"gandengyan rounds/s ÷ RLCard games/s = {gdy_rounds / games:.2f} (target ≥ 3)")
    print(f"510k 4-player rounds/s ÷ RLCard games/s = {ftk_rounds / games:.2f} (target ≥ 1)")
    print(f"510k 22-card lead listing ÷ RLCard 20-card lead = {ftk_lead_ms / lead_ms:.2f} "
          "(target ≤ 1)")
    print(f"total {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
