"""The web process's side of the metrics (games.metrics): each answer counted and timed by
route, the database pool sampled, and GET /metrics for Prometheus.

/metrics is served only when METRICS_TOKEN is set, to a scraper that sends it as a bearer token
(`Authorization: Bearer <METRICS_TOKEN>`); otherwise it is a 404 like any unknown URL. Under
several processes (PROMETHEUS_MULTIPROC_DIR) a scrape sums every process's values, the
workers' of the same machine included.
"""

import hmac
import os
import time

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.db import connections
from django.http import HttpResponse, JsonResponse
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector

from games import metrics
from games.api.errors import error_body

POOL_SAMPLE_SECONDS = 5.0
UNMATCHED = "unmatched"  # no route: a 404 of an unknown URL (one label, whatever the URL)


class PoolSampler:
    """Copies the database pool's own counters (psycopg_pool's stats) into the metrics, at most
    every POOL_SAMPLE_SECONDS: a clock read per answer, the stats dict only when due."""

    def __init__(self, alias: str = "default"):
        self.alias = alias
        self.next_at = 0.0
        self.wait_ms = 0
        self.errors = 0

    def maybe_sample(self) -> None:
        now = time.monotonic()
        if now < self.next_at:
            return
        self.next_at = now + POOL_SAMPLE_SECONDS
        pool = type(connections[self.alias]).__dict__.get("_connection_pools", {}).get(self.alias)
        if pool is not None:
            self.sample(pool.get_stats())

    def sample(self, stats: dict) -> None:
        metrics.POOL_WAITING.set(stats.get("requests_waiting", 0))
        wait_ms, errors = stats.get("requests_wait_ms", 0), stats.get("requests_errors", 0)
        metrics.POOL_WAIT.inc(max(0, wait_ms - self.wait_ms) / 1000)
        metrics.POOL_TIMEOUTS.inc(max(0, errors - self.errors))
        self.wait_ms, self.errors = wait_ms, errors


POOL = PoolSampler()


def _observe(request, response, started: float) -> None:
    match = request.resolver_match
    view = match.route if match is not None else UNMATCHED
    metrics.REQUESTS.labels(view, request.method, response.status_code).inc()
    metrics.LATENCY.labels(view).observe(time.perf_counter() - started)
    POOL.maybe_sample()


class RequestMetricsMiddleware:
    """Counts and times every answer by its route's pattern (`api/v1/matches/<id:match_id>/`:
    bounded labels, never the URL itself). Runs in the event loop under ASGI, in the thread
    under WSGI: it only reads a clock and bumps counters."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self._acall(request)
        started = time.perf_counter()
        response = self.get_response(request)
        _observe(request, response, started)
        return response

    async def _acall(self, request):
        started = time.perf_counter()
        response = await self.get_response(request)
        _observe(request, response, started)
        return response


def registry():
    """Every process's values when they share a directory, else this process's."""
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return REGISTRY
    summed = CollectorRegistry()
    MultiProcessCollector(summed)
    return summed


def metrics_view(request):
    token = settings.METRICS_TOKEN
    if not token:
        return JsonResponse(error_body("not_found", "Not found."), status=404)
    sent = request.headers.get("Authorization", "")
    if not hmac.compare_digest(sent.encode(), f"Bearer {token}".encode()):
        response = JsonResponse(error_body("not_authenticated", "Send the metrics token."),
                                status=401)
        response["WWW-Authenticate"] = "Bearer"
        return response
    return HttpResponse(generate_latest(registry()), content_type=CONTENT_TYPE_LATEST)
