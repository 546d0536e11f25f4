"""The load test (bench/locustfile.py) against the compose topology without Docker: a private
PostgreSQL and Redis, `--web` web servers (gunicorn, `--web-workers` uvicorn workers each) behind
nginx with deploy/nginx.conf, `--workers` Celery workers and one beat, all on this machine
(tests/integration/stack.py starts them as the fault tests do), with bench.load_settings (guests
unthrottled). Locust runs headless in steps of people (`--steps`, `--step-seconds` each) and
prints its per-step table (acts/s, act, push and bot-reply p99, tables in play, where each first
degrades); then the service's own metrics of the run: bot queue lag and decision p99 (from the
histograms' buckets), sweeps and what they recovered, acts and 409s; and the CPU time each part
used during the run (from /proc: web servers, workers, beat, PostgreSQL, Redis, nginx, Locust),
in cores and per committed act: the figures a capacity plan scales.

Run: `.venv/bin/python bench/load_stack.py` (needs nginx, PostgreSQL's server programs and
redis-server on the machine, and `pip install -e '.[dev,bench]'`; about `steps × step-seconds`).
`--smoke`: one short step. The load generator shares the machine's cores with the service: quote
the figures with the machine and its load.
"""

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.procs import cpu_seconds  # noqa: E402
from tests.integration.stack import Stack, free_port  # noqa: E402

TOKEN = "load-stack-metrics-token"


def parts(stack: Stack) -> dict[str, list[int]]:
    """The deployment's processes by part (each with its descendants)."""
    found: dict[str, list[int]] = {}
    for name, process in stack.processes.items():
        part = name.rstrip("0123456789")
        found.setdefault(part, []).append(process.pid)
    postmaster = (stack.pg_data / "postmaster.pid").read_text().split()[0]
    found["postgres"] = [int(postmaster)]
    return found


def cpu_by_part(stack: Stack) -> dict[str, float]:
    return {part: sum(map(cpu_seconds, pids)) for part, pids in parts(stack).items()}


def scrape(port: int) -> str:
    import urllib.request

    request = urllib.request.Request(f"http://127.0.0.1:{port}/metrics",
                                     headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.read().decode()


def samples(page: str, name: str) -> list[tuple[dict, float]]:
    found = []
    for labels, value in re.findall(rf"^{re.escape(name)}(?:\{{(.*?)\}})? (\S+)$", page,
                                    re.MULTILINE):
        found.append((dict(re.findall(r'(\w+)="([^"]*)"', labels or "")), float(value)))
    return found


def total(page: str, name: str) -> float:
    return sum(value for _, value in samples(page, name))


def quantile(page: str, name: str, q: float) -> str:
    """The bucket bound under which `q` of a histogram's observations fall (all labels)."""
    buckets: dict[float, float] = {}
    for labels, value in samples(page, f"{name}_bucket"):
        bound = float(labels["le"])
        buckets[bound] = buckets.get(bound, 0) + value
    count = buckets.get(float("inf"), 0)
    if not count:
        return "none"
    for bound in sorted(buckets):
        if buckets[bound] >= q * count:
            return f"≤ {bound * 1000:g} ms" if bound != float("inf") else "over the top bucket"
    return "?"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--web", type=int, default=2)
    parser.add_argument("--web-workers", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--steps", default="10,25,50,100,150")
    parser.add_argument("--step-seconds", type=int, default=90)
    parser.add_argument("--smoke", action="store_true", help="one 20 s step of 4 people")
    args = parser.parse_args()
    if args.smoke:
        args.steps, args.step_seconds = "4", 20
    # The production defaults, where the fault tests' stack shortens them.
    stack = Stack(DJANGO_SETTINGS_MODULE="bench.load_settings", METRICS_TOKEN=TOKEN,
                  LOG_LEVEL="ERROR", RECOVERY_SWEEP_SECONDS="2", TURN_RECOVERY_SECONDS="5",
                  BOT_TASK_SOFT_TIME_LIMIT="10", BOT_TASK_TIME_LIMIT="15")
    metrics = stack.home / "metrics"
    metrics.mkdir()
    stack.env["PROMETHEUS_MULTIPROC_DIR"] = str(metrics)
    try:
        stack.prepare()
        ports = [stack.start_web(f"web{i}", free_port(), args.web_workers)
                 for i in range(args.web)]
        for i in range(args.workers):
            stack.start_worker(name=f"worker{i}")
        stack.start_beat()
        balancer = stack.start_balancer(ports)
        print(f"{args.web} web servers × {args.web_workers} workers behind nginx, "
              f"{args.workers} Celery workers (solo), one beat; steps {args.steps} people, "
              f"{args.step_seconds} s each", flush=True)
        env = {**os.environ, "LOAD_STEPS": args.steps,
               "LOAD_STEP_SECONDS": str(args.step_seconds)}
        before, locust_before = cpu_by_part(stack), resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.monotonic()
        done = subprocess.run(
            [str(Path(sys.executable).parent / "locust"), "-f", str(ROOT / "bench" /
             "locustfile.py"), "--headless", "-H", f"http://127.0.0.1:{balancer}",
             "--only-summary"], cwd=ROOT, env=env, capture_output=True, text=True)
        seconds = time.monotonic() - started
        after, locust_after = cpu_by_part(stack), resource.getrusage(resource.RUSAGE_CHILDREN)
        used = {part: after[part] - before.get(part, 0.0) for part in after}
        used["locust"] = (locust_after.ru_utime + locust_after.ru_stime
                          - locust_before.ru_utime - locust_before.ru_stime)
        print(done.stdout[done.stdout.find("\ntables in play"):])
        table = done.stderr.rfind("Response time percentiles")
        print(done.stderr[table:] if table >= 0 else done.stderr[-3000:])
        page = scrape(ports[0])
        print("the service's metrics for the run:")
        print(f"  bot queue lag p99 {quantile(page, 'cardtable_bot_queue_lag_seconds', 0.99)}, "
              f"p50 {quantile(page, 'cardtable_bot_queue_lag_seconds', 0.5)}")
        print(f"  bot decision p99 {quantile(page, 'cardtable_bot_decision_seconds', 0.99)}")
        print(f"  acts committed {total(page, 'cardtable_acts_committed_total'):.0f}, "
              f"409s {total(page, 'cardtable_conflicts_total'):.0f}, sweeps "
              f"{total(page, 'cardtable_sweep_runs_total'):.0f} recovering "
              f"{total(page, 'cardtable_sweep_recovered_total'):.0f}, pool waits "
              f"{total(page, 'cardtable_db_pool_wait_seconds_total'):.2f} s")
        acts = total(page, "cardtable_acts_committed_total")
        print(f"CPU used over the {seconds:.0f} s run (cores on average; ms per committed act, "
              f"{acts:.0f} acts of people and server):")
        for part, cpu in sorted(used.items()):
            print(f"  {part:9} {cpu / seconds:5.2f} cores  {cpu * 1000 / max(acts, 1):6.1f} ms/act")
        return done.returncode
    finally:
        stack.down()


if __name__ == "__main__":
    sys.exit(main())
