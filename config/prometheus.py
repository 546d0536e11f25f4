"""Metrics outside the web's /metrics: workers and beat serve theirs on METRICS_PORT (no token:
keep that port inside the deployment's network), and processes that end take their live
gauges with them when several share PROMETHEUS_MULTIPROC_DIR."""

import os

from django.conf import settings
from prometheus_client import multiprocess, start_http_server


def serve_metrics() -> None:
    """In a worker's or beat's main process: serve every process's metrics on METRICS_PORT, if
    set (the web's own registry choice: games.api.metrics.registry)."""
    if not settings.METRICS_PORT:
        return
    from games.api.metrics import registry

    start_http_server(settings.METRICS_PORT, registry=registry())


def process_gone(pid: int) -> None:
    """A process of the shared directory ended: its live gauges (open streams) stop counting."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.mark_process_dead(pid)
