"""What the service counts, for Prometheus: every metric, defined once, named `cardtable_*`.

The web processes serve them at /metrics (games.api.metrics); workers and beat on their own port
(METRICS_PORT, bots.apps). With PROMETHEUS_MULTIPROC_DIR set (gunicorn's and Celery's several
processes), prometheus_client keeps each process's values in files there and a scrape sums them;
that variable must be set before this module is first imported. docs/operations.md says what
each metric means and what to alert on.
"""

from prometheus_client import Counter, Gauge, Histogram

# Seconds: an API answer is a few milliseconds; a stream's time to its first byte likewise.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)
# A bot's decision: random and normal well under a millisecond, hard up to its CPU budget.
DECISION_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5)
# A queued turn's wait for a worker: milliseconds when idle; seconds means too few workers.
LAG_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)

REQUESTS = Counter("cardtable_http_requests", "HTTP answers, by route, method and status",
                   ["view", "method", "status"])
LATENCY = Histogram("cardtable_http_request_seconds",
                    "time to answer (a stream: to its first byte), by route",
                    ["view"], buckets=LATENCY_BUCKETS)
ACTS = Counter("cardtable_acts_committed", "acts written, by who chose them (human, bot, auto)",
               ["actor"])
CONFLICTS = Counter("cardtable_conflicts", "409 answers, by code", ["code"])
BOT_DECISION = Histogram("cardtable_bot_decision_seconds",
                         "a server turn's decision time, by bot level (its count: turns played)",
                         ["level"], buckets=DECISION_BUCKETS)
BOT_LAG = Histogram("cardtable_bot_queue_lag_seconds",
                    "a queued server turn's wait, from its queuing (or its clock running out) "
                    "until a worker plays it", buckets=LAG_BUCKETS)
SWEEPS = Counter("cardtable_sweep_runs", "recovery sweeps run")
SWEEP_RECOVERED = Counter("cardtable_sweep_recovered", "due turns and quick matches a sweep "
                          "claimed and played or queued again")
STREAMS_OPEN = Gauge("cardtable_streams_open", "live streams open, by kind (match, account)",
                     ["kind"], multiprocess_mode="livesum")
PUSHED = Counter("cardtable_stream_messages", "messages sent on live streams, by kind", ["kind"])
POOL_WAITING = Gauge("cardtable_db_pool_waiting",
                     "requests waiting for a database connection (sampled)",
                     multiprocess_mode="livesum")
POOL_WAIT = Counter("cardtable_db_pool_wait_seconds", "time spent waiting for a database "
                    "connection from the pool")
POOL_TIMEOUTS = Counter("cardtable_db_pool_timeouts", "requests that got no database "
                        "connection in time (answered 503)")
COMPACTED = Counter("cardtable_compacted_matches", "finished matches whose moves and events "
                    "were compacted into archive rows")
