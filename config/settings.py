"""Settings, read from the environment; every variable has an embedded default for `make run`.

Unset, the service runs in its embedded dev mode: DEBUG on, SQLite in db.sqlite3, Celery tasks
executed eagerly in-process. Production sets DEBUG=0, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL
(PostgreSQL) and CELERY_BROKER_URL (Redis). README.md lists every variable.
"""

import ipaddress
import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from kombu import Exchange, Queue

BASE_DIR = Path(__file__).resolve().parent.parent


def env(name: str, default: str = "") -> str:
    """The variable's value; set but empty counts as unset, as in .env.example."""
    return os.environ.get(name, "").strip() or default


def env_bool(name: str, default: bool) -> bool:
    value = env(name).lower()
    if not value:
        return default
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name}={value!r}: use 1/0, true/false, yes/no or on/off")


def env_int(name: str, default: int, low: int = 0) -> int:
    value = env(name, str(default))
    if not value.isdigit() or int(value) < low:
        raise ImproperlyConfigured(f"{name}={value!r}: use a whole number, at least {low}")
    return int(value)


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


def env_networks(name: str) -> list[str]:
    """A comma-separated list of addresses and CIDR networks, each checked."""
    found = env_list(name, "")
    for item in found:
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError as err:
            raise ImproperlyConfigured(f"{name}: {item!r} is no address or network "
                                       "(e.g. 10.0.0.5 or 10.0.0.0/8)") from err
    return found


DEBUG = env_bool("DEBUG", True)

SECRET_KEY = env("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "django-insecure-dev-only-key-never-use-this-outside-a-developer-machine"
elif not DEBUG and (len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5
                    or SECRET_KEY.startswith("django-insecure")):
    # The same bar as Django's deploy check (W009), enforced: it signs sessions and CSRF tokens.
    raise ImproperlyConfigured("SECRET_KEY must be 50 or more random characters when DEBUG is off")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "accounts.apps.AdminConfig",  # Django's admin, its login throttled
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # WhiteNoise serves static files under runserver too, as in production.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "accounts",
    "games",
    "scoring",
    "ratings",
    "bots",
    "web",
]

# WhiteNoise serves the static files (the web table, admin, API docs) in every mode: from the
# apps' folders with DEBUG on, from the collected, hashed copies with DEBUG off.
MIDDLEWARE = [
    # First: it times the whole answer, every other middleware included.
    "games.api.metrics.RequestMetricsMiddleware",
    "games.api.middleware.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.static.StaticFilesMiddleware",
    "games.api.middleware.ContentSecurityPolicyMiddleware",
    "games.api.nul.NulQueryMiddleware",
    "games.api.params.UnknownQueryMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Under ASGI each request runs its blocking code in a thread of its own: a connection kept by
# that thread (CONN_MAX_AGE) would outlive it, unused, until the database refused new ones. So
# requests take PostgreSQL connections from a pool (one per process) and give them back; SQLite
# opens one per request (cheap).
DATABASES = {
    "default": dj_database_url.parse(env("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"))
}
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # Pooled connections are not checked when lent (a `SELECT 1` on every request cost an act
    # 12% of its time): one the database dropped fails its request once (503) and is replaced.
    # While the database is away a request waits at most `timeout` for a connection, then
    # answers 503. The pool's own reconnection backs off exponentially (1, 2, 4, 8, 16 s...),
    # which after a 30 s outage left a process answering 503 for up to 16 s more: it gives up
    # after `reconnect_timeout` instead, and the next request that needs a connection starts
    # a fresh attempt at once.
    # games.sql's statements are prepared on each connection after a few runs (psycopg only
    # prepares for server-binding cursors, which only games.sql uses). 0 turns it off, for a
    # pooler in transaction mode that cannot keep prepared statements.
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "pool": {"min_size": 1, "max_size": env_int("DATABASE_POOL_SIZE", 10, low=1),
                 "timeout": 5, "reconnect_timeout": 2},
        "prepare_threshold": int(env("DATABASE_PREPARE_THRESHOLD", "5")) or None,
    })
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # The embedded mode serves requests in threads. Each transaction takes SQLite's write lock as
    # it begins (IMMEDIATE), so concurrent writers queue for up to `timeout` seconds and the
    # loser of a race then reads what the winner wrote (a 409 on a stale version), instead of
    # failing to upgrade a read lock mid-transaction ("database is locked").
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20})
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Throttle counters live here; with several web processes they must share one cache. When it does
# not answer (within a second), throttles let requests through and log a warning
# (accounts.throttling): sign-in stays up, unthrottled, rather than failing for everyone.
CACHE_URL = env("CACHE_URL")
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL,
         "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# Fixed when the settings load (tests turn DEBUG off later): in development WhiteNoise reads the
# apps' folders on each request; in production only the collected files.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
# Files served at the site's root as they are (favicon.ico, which browsers and tools ask for).
WHITENOISE_ROOT = BASE_DIR / "web" / "root"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "web.storage.StaticStorage"
    },
}

# Requests bigger than this are refused with 413 before any parsing (games.api.errors).
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["games.api.parsers.BoundedJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["games.api.renderers.JSONRenderer"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "games.api.negotiation.JSONOnly",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "games.api.errors.exception_handler",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # guest and guest_browser are buckets (accounts.throttling): that many at once, then one
    # every hour / N: a café behind one address is never locked out for long.
    "DEFAULT_THROTTLE_RATES": {"signup": "20/hour", "login": "10/minute",
                               "admin_login": "10/minute", "guest": "60/hour",
                               "guest_browser": "10/hour", "talk": "10/minute"},
}
# The proxies trusted to say who their client is (addresses or networks): a request from one of
# them is counted (throttles) as coming from the rightmost X-Forwarded-For address that is not
# one of them, and the ASGI server (manage.py serve, the gunicorn worker) reads the header from
# them alone. None by default: the header is ignored, since a client can write anything in it.
TRUSTED_PROXIES = env_networks("TRUSTED_PROXIES")

# API tokens expire this long after they are issued; POST auth/refresh/ trades a valid one for a
# new one (accounts.tokens).
TOKEN_TTL_DAYS = env_int("TOKEN_TTL_DAYS", 30, low=1)

SPECTACULAR_SETTINGS = {
    "TITLE": "Card table API",
    "DESCRIPTION": "Two Chinese card games, 干瞪眼 (gandengyan) and 510K, against people and bots. "
    'Authenticate with `Authorization: Token <key>` (POST /api/v1/auth/guest/ gives one). '
    'Every error is `{"error": {"code", "message", "details"}}`.',
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The ids in URLs (games.api.urls.IdConverter).
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "minimum": 0,
                                        "maximum": 10**18 - 1}},
    # One component name for a choice set used under several field names.
    "ENUM_NAME_OVERRIDES": {"SeatKindEnum": ["human", "bot"],
                            "MatchStatusEnum": "games.api.serializers.STATUSES",
                            "RematchAnswerEnum": ["accepted", "pending", "bot"],
                            "WorkerStatusEnum": "games.api.health.WORKER_STATUSES"},
    # Each ruleset's options, view and settlement facts, from the engine's own descriptions.
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                             "games.api.schema.add_components"],
}

# Celery: with no broker, tasks run eagerly in the calling process (the embedded dev mode and
# the unit tests); with a Redis URL, real workers run them (`celery -A config worker`) and beat
# runs the recovery sweep (`celery -A config beat`).
CELERY_BROKER_URL = env("CELERY_BROKER_URL")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
if CELERY_BROKER_URL and CELERY_BROKER_URL.startswith("redis://"):
    # Kombu's Redis transport with a worker that survives Redis going away mid-task.
    CELERY_BROKER_TRANSPORT = "bots.broker:Transport"
CELERY_TASK_EAGER_PROPAGATES = CELERY_TASK_ALWAYS_EAGER
if CELERY_TASK_ALWAYS_EAGER:
    CELERY_BROKER_URL = "memory://"
# Embedded mode: the request that sets off server turns (an act, 托管 asked for) plays them for
# at most this long; whatever is left is due at once, and the next read of the match (a poll,
# the match's stream) plays on. Without it, 托管 at a table of bots played the rest of the
# match inside one request.
EMBEDDED_TURN_SECONDS = float(env("EMBEDDED_TURN_SECONDS", "2"))
CELERY_TASK_IGNORE_RESULT = True  # nobody reads task results: none are stored
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Turn-sized tasks: a worker takes one at a time, so that a queued turn waits in Redis, where any
# worker can take it, not in the memory of a busy (or dying) one.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A running task is dropped, to be delivered again, when the worker loses the broker.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# An enqueue never hangs: short timeouts and one quick retry. A turn that could not be queued is
# due in the match row all the same, where the recovery sweep finds it.
BROKER_TIMEOUT_SECONDS = float(env("BROKER_TIMEOUT_SECONDS", "1"))
CELERY_BROKER_CONNECTION_TIMEOUT = BROKER_TIMEOUT_SECONDS
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0.1,
                                    "interval_step": 0.1, "interval_max": 0.2}
# Bot turns are acked late: Redis delivers a task again when its worker has not acked it within
# the visibility timeout (it died), so the timeout must exceed the task's hard time limit; a small
# multiple of it keeps a lost turn short. Small values only in tests.
# A `hard` bot's turn that starts more than this after the person's last act (queued behind
# other matches, or behind the searches of the bots before it) is played by
# `normal` instead, its move's reason `late`: when the workers are saturated, a person's wait
# stays bounded rather than growing by a search per queued turn.
BOT_HARD_START_SECONDS = float(env("BOT_HARD_START_SECONDS", "1"))
BOT_TASK_SOFT_TIME_LIMIT = float(env("BOT_TASK_SOFT_TIME_LIMIT", "10"))
BOT_TASK_TIME_LIMIT = float(env("BOT_TASK_TIME_LIMIT", "15"))
CELERY_VISIBILITY_TIMEOUT = float(env("CELERY_VISIBILITY_TIMEOUT", str(4 * BOT_TASK_TIME_LIMIT)))
if not 0 < BOT_TASK_SOFT_TIME_LIMIT < BOT_TASK_TIME_LIMIT < CELERY_VISIBILITY_TIMEOUT:
    raise ImproperlyConfigured(
        "need 0 < BOT_TASK_SOFT_TIME_LIMIT < BOT_TASK_TIME_LIMIT < CELERY_VISIBILITY_TIMEOUT"
    )
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
    "socket_timeout": BROKER_TIMEOUT_SECONDS,
    "socket_connect_timeout": BROKER_TIMEOUT_SECONDS,
}
# The server's pace at a table with people: milliseconds between its consecutive moves (bots,
# 托管, a clock run out), PACE_BREAK times as long after a trick is taken and before a new round,
# so that people can follow them; a match or a table may set its own (option server_pace_ms).
SERVER_PACE_MS = env_int("SERVER_PACE_MS", 700)
PACE_BREAK = 2
# A bot task plays the server's turns of one match for at most this long (one turn at least; 0:
# one turn), then queues the rest behind the other matches' turns: a bot reply waits for about
# one slice of each busy match on its worker, not for their whole runs (bench/fairness.py).
# 20 ms: a few `normal` turns a task, where one turn a task spent the workers on queue round
# trips (busy matches moved 72 % faster, and `hard` replies' p99 at 10 matches halved in
# bench/bot_capacity.py), for about 12 ms more of a bot reply's p99 beside busy matches.
BOT_TASK_SLICE_SECONDS = float(env("BOT_TASK_SLICE_SECONDS", "0.02"))
# A match paused because every person at it was away is abandoned after this long.
PAUSE_ABANDON_SECONDS = float(env("PAUSE_ABANDON_SECONDS", str(24 * 3600)))
# Seconds the people of a finished match have to take their seat in its rematch before bots do.
REMATCH_ANSWER_SECONDS = float(env("REMATCH_ANSWER_SECONDS", "60"))
# A rating is provisional until its player has this many rated matches in its ruleset.
RATING_PROVISIONAL_MATCHES = int(env("RATING_PROVISIONAL_MATCHES", "10"))
# The recovery sweep: every RECOVERY_SWEEP_SECONDS, every match whose turn is due (Match.due_at)
# is played or queued again. A server turn becomes due TURN_RECOVERY_SECONDS after it was
# queued: by then its task has normally played it.
RECOVERY_SWEEP_SECONDS = float(env("RECOVERY_SWEEP_SECONDS", "2"))
TURN_RECOVERY_SECONDS = float(env("TURN_RECOVERY_SECONDS", "5"))
# A paced server turn is due (for reads and the sweep) this long after its time: with workers, its
# task, queued with the pace as countdown, plays it first; embedded, the next read plays it then.
PACED_TURN_GRACE_SECONDS = 0.0 if CELERY_TASK_ALWAYS_EAGER else TURN_RECOVERY_SECONDS
# Live streams: committed writes notify them through Redis pub/sub (LIVE_REDIS_URL, by default
# the broker's Redis), so that any web process serves any stream; in-process when unset.
LIVE_REDIS_URL = env("LIVE_REDIS_URL", "" if CELERY_TASK_ALWAYS_EAGER else CELERY_BROKER_URL)
# Seconds a stream stays silent before it sends a heartbeat comment (proxies close idle
# connections); seconds between a web process's looks at the versions of every match its streams
# follow (one query: it makes up for notices that were lost).
STREAM_HEARTBEAT_SECONDS = float(env("STREAM_HEARTBEAT_SECONDS", "15"))
STREAM_LOOK_SECONDS = float(env("STREAM_LOOK_SECONDS", "5"))
# Seconds between a web process's looks at the tokens of its open streams (one query): a token
# that expired, or was revoked while the notice of it was lost, ends its streams by then.
STREAM_TOKEN_LOOK_SECONDS = float(env("STREAM_TOKEN_LOOK_SECONDS", "1"))
STREAM_TOKENS_GOOD = "accounts.tokens.good"
# Streams an account keeps open across the web processes (counted in Redis; with Redis away,
# each process counts its own): one more ends the oldest (`event: closed`, too_many_streams).
STREAM_MAX_PER_ACCOUNT = env_int("STREAM_MAX_PER_ACCOUNT", 20, low=1)
# While the server is to act in a streamed match and nothing arrives, the stream reads the match
# again after this long, and the read plays what is overdue: with workers, a lost turn as soon as
# it counts as lost; in the embedded mode, where a request plays only EMBEDDED_TURN_SECONDS of
# server turns, the rest at once.
STREAM_SERVER_TURN_SECONDS = 0.5 if CELERY_TASK_ALWAYS_EAGER else TURN_RECOVERY_SECONDS
# How a stream knows its reader: a one-use ticket where headers cannot be sent, else the token.
STREAM_AUTHENTICATION_CLASSES = [
    "accounts.authentication.StreamTicketAuthentication",
    "accounts.authentication.TokenAuthentication",
]
# Finished matches' moves and events are compacted into one archive row per round
# (games.services.compaction) once they are over for COMPACT_AFTER_DAYS; beat sends a short run
# (games.tasks) every COMPACT_EVERY_SECONDS.
COMPACT_AFTER_DAYS = env_int("COMPACT_AFTER_DAYS", 7)
COMPACT_EVERY_SECONDS = env_int("COMPACT_EVERY_SECONDS", 60, low=1)
CELERY_BEAT_SCHEDULE = {
    "recover-turns": {"task": "bots.tasks.recover_turns", "schedule": RECOVERY_SWEEP_SECONDS},
    "compact-matches": {"task": "games.tasks.compact_matches",
                        "schedule": COMPACT_EVERY_SECONDS},
}
# Two queues, so that clocks never wait behind bots' turns: `bots` (the default: bots' and 托管
# seats' turns) and `clock` (the recovery sweep and the turns of people whose clock ran out, one
# short turn each). A worker started without -Q consumes both; production runs one for each
# (README, docker-compose.yml), so that a clock always finds a free slot.
BOTS_QUEUE, CLOCK_QUEUE = "bots", "clock"
CELERY_TASK_DEFAULT_QUEUE = BOTS_QUEUE
CELERY_TASK_QUEUES = [Queue(name, Exchange(name), routing_key=name)
                      for name in (BOTS_QUEUE, CLOCK_QUEUE)]
CELERY_TASK_ROUTES = {"bots.tasks.recover_turns": {"queue": CLOCK_QUEUE},
                      "bots.tasks.clock_act": {"queue": CLOCK_QUEUE}}
# One beat at a time sends the sweep: each holds a lease in Redis (BEAT_LEASE_SECONDS, renewed
# while it lives) before it sends anything, so a second beat started by mistake stands by, and
# takes over within the lease if the first dies.
CELERY_BEAT_SCHEDULER = "bots.beat:LeaderScheduler"
BEAT_LEASE_SECONDS = float(env("BEAT_LEASE_SECONDS", str(3 * RECOVERY_SWEEP_SECONDS)))
# A server turn queued once for a match at a version is not queued again for this long while its
# task waits in the queue (the sweep finds it due when the queue is long): the task clears the
# mark when it starts, and a turn lost from the queue is queued again after this long.
TURN_QUEUED_SECONDS = float(env("TURN_QUEUED_SECONDS", str(3 * TURN_RECOVERY_SECONDS)))
# Readiness (/api/v1/health/ready/): the last sweep must be younger than SWEEP_STALE_SECONDS, and
# each queue must have a worker whose heartbeat (every WORKER_HEARTBEAT_SECONDS) is younger than
# three of them.
SWEEP_STALE_SECONDS = float(env("SWEEP_STALE_SECONDS", str(5 * RECOVERY_SWEEP_SECONDS)))
WORKER_HEARTBEAT_SECONDS = float(env("WORKER_HEARTBEAT_SECONDS", "5"))

# GET /metrics (Prometheus) answers only a scraper sending this as a bearer token; unset, the
# URL is a 404. Workers and beat serve theirs on METRICS_PORT when it is set (bots.apps).
METRICS_TOKEN = env("METRICS_TOKEN")
METRICS_PORT = env_int("METRICS_PORT", 0)

# LOG_FORMAT=json: one JSON object per line (time, level, logger, request_id, message...), for a
# log collector; plain by default.
LOG_FORMAT = env("LOG_FORMAT", "plain")
if LOG_FORMAT not in {"plain", "json"}:
    raise ImproperlyConfigured(f"LOG_FORMAT={LOG_FORMAT!r}: use plain or json")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # request_id: the X-Request-ID of the request being served ("-" outside one).
    "filters": {"request_id": {"()": "games.api.middleware.RequestIdLogFilter"}},
    "formatters": {"plain": {
        "format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s]: %(message)s"},
        "json": {"()": "config.jsonlog.JsonFormatter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT,
                             "filters": ["request_id"]}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", "INFO").upper()},
    # Django's own handlers on its logger (a plain console in DEBUG, mail to ADMINS, none set)
    # are dropped: its records reach the root's handler, so each is printed once, with its id.
    "loggers": {"django": {}},
}

if not DEBUG:
    # TLS ends at the proxy in front of gunicorn, which must set X-Forwarded-Proto.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # Load balancers and compose probe the health endpoint over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^api/v1/health/(ready/)?$"]
    SECURE_HSTS_SECONDS = int(env("SECURE_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
