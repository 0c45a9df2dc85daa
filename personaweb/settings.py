"""One env-driven settings file.

SQLite is the embedded default; ``DATABASE_URL`` selects PostgreSQL (psycopg 3).
Without ``REDIS_URL`` Celery uses kombu's filesystem transport in ``var/broker`` so
that a worker with embedded beat runs scheduled tasks with no external server; with
``REDIS_URL`` Redis is the broker, the result backend and the cache.

``DEBUG`` is off unless set; then a secret key is needed: ``SECRET_KEY``, or the file
``var/secret_key`` that ``make run`` makes (the process refuses to start without one). The HTTPS flags (HSTS, secure cookies, SSL redirect, the proxy's
header) are off by default and turned on by the README's production environment, with
which ``manage.py check --deploy`` prints no warnings.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value not in (None, "") else default


def env_float(name: str, default: float) -> float:
    value = os.environ.get(name)
    return float(value) if value not in (None, "") else default


def env_list(name: str, default: str = "") -> list[str]:
    """A comma-separated list; blanks around items and empty items are dropped."""
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


VAR_DIR = Path(env_str("PERSONAWEB_VAR_DIR", str(BASE_DIR / "var")))

DEBUG = env_bool("DEBUG", False)
#: the key `make run` makes once (Makefile ``LOCAL_KEY``): read when SECRET_KEY is not set,
#: so a process started without the shell's environment (an MCP client starting
#: ``manage.py mcp``) signs with the same key as the checkout's server
SECRET_KEY_FILE = VAR_DIR / "secret_key"


def secret_key_from_file(path: Path) -> str:
    """The key in ``path`` (its first line), or "" when there is no such file."""
    try:
        return path.read_text(encoding="utf-8").strip().splitlines()[0].strip()
    except (OSError, UnicodeDecodeError, IndexError):
        return ""


SECRET_KEY = env_str("SECRET_KEY").strip() or secret_key_from_file(SECRET_KEY_FILE)
if not SECRET_KEY:
    if not DEBUG:
        # A key everyone can read signs everyone's sessions: never serve with one.
        raise ImproperlyConfigured(
            "SECRET_KEY is not set and DEBUG is off: set SECRET_KEY to 50 or more random "
            "characters, the same for web, worker and beat (make one with: python3 -c "
            "'import secrets; print(secrets.token_urlsafe(50))'), put one in "
            f"{SECRET_KEY_FILE} (as `make run` does), or set DEBUG=1 on a development machine."
        )
    SECRET_KEY = "django-insecure-personaweb-development-only"  # DEBUG on: this machine only
# The test client's "testserver" is added by Django's test set-up, never here.
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

# --- HTTPS (all off by default: a local run is plain http on 127.0.0.1) ---------------
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", False)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", False)
# Behind a proxy that ends TLS: the header it sets to "https" (e.g. X-Forwarded-Proto).
# Only set it when the proxy always sets or strips that header, or clients could fake it.
_PROXY_SSL_HEADER = env_str("SECURE_PROXY_SSL_HEADER").strip()
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_" + _PROXY_SSL_HEADER.upper().replace("-", "_"), "https") if _PROXY_SSL_HEADER else None
)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "template_partials",
    "csp",
    "axes",
    "personaweb",
    "safety",
    "tenancy",
    "memory",
    "persona",
    "learning",
    "dashboard",
    "ninja",  # serves the vendored Swagger UI of /v1/docs (no CDN)
    "api",
]

MIDDLEWARE = [
    # Request id, Cache-Control and the error envelope on every /v1/ response, also on
    # Django's own 404/405/500 there; first, so it sees what the rest of the stack did.
    # Every other request (and everything while the API is off) passes untouched.
    "api.middleware.ApiConventionsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # a signed-in person's pages are theirs: no shared or browser cache keeps a copy
    "personaweb.middleware.PrivatePagesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "personaweb.middleware.VaryOnHtmxMiddleware",
    "personaweb.middleware.UserTimezoneMiddleware",
    # last, as django-axes asks: it turns a locked-out login into the lock-out page
    "axes.middleware.AxesMiddleware",
]

# Content Security Policy (django-csp): our own files only, no inline script or style
# (htmx's indicator style is off via the htmx-config meta tag; its CSS is in app.css).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# --- HTTP API and MCP (api app) ---------------------------------------------------
# /v1/ is mounted only when this is set (default off, like every optional surface);
# `make run` turns it on for the local demo.
PERSONAWEB_API_ENABLED = env_bool("PERSONAWEB_API_ENABLED", False)
# The six owner-document routes under /v1/persona (seed 001) are mounted only when this
# is set as well (default off): an owner's persona is written through them.
AGENT_PERSONA_API_ENABLED = env_bool("AGENT_PERSONA_API_ENABLED", False)
# Every MCP tool call is bounded by this many seconds and returns an error result when
# it takes longer: a slow memory must never take the host's conversation down.
PERSONAWEB_MCP_TOOL_TIMEOUT = env_float("PERSONAWEB_MCP_TOOL_TIMEOUT", 8.0)
# Calls a minute one API token may make (every /v1 operation and every MCP tool call
# over HTTP; 0 = no limit), counted in the cache so every process shares the count; a
# call over it is a 429 rate_limited with Retry-After.
PERSONAWEB_API_RATE_LIMIT = env_int("PERSONAWEB_API_RATE_LIMIT", 1200)

ROOT_URLCONF = "personaweb.urls"
WSGI_APPLICATION = "personaweb.wsgi.application"
ASGI_APPLICATION = "personaweb.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "personaweb.context_processors.roles",
            ],
        },
    }
]


def sqlite_options() -> dict[str, object]:
    """The OPTIONS of every SQLite database, whether chosen by ``SQLITE_PATH`` (or the
    default file) or by a ``sqlite:///`` ``DATABASE_URL``: WAL and a busy timeout so web,
    worker and beat share the file, and immediate transactions so concurrent writers
    queue for the lock instead of failing with "database is locked" (a deferred
    transaction that reads first cannot wait to upgrade its lock)."""
    return {
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
    }


def database_settings(url: str) -> dict[str, object]:
    """The default database: ``url`` (``DATABASE_URL``) or, when empty, the SQLite file."""
    if not url:
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env_str("SQLITE_PATH", str(VAR_DIR / "personaweb.sqlite3")),
            "OPTIONS": sqlite_options(),
            # persistent connections, as for DATABASE_URL: opening a SQLite file with its
            # pragmas costs more than a whole prefix fetch (runserver still closes each
            # request thread's connection)
            "CONN_MAX_AGE": env_int("DB_CONN_MAX_AGE", 600),
            "CONN_HEALTH_CHECKS": True,
        }
    parsed: dict[str, object] = dict(
        dj_database_url.parse(
            url, conn_max_age=env_int("DB_CONN_MAX_AGE", 600), conn_health_checks=True
        )
    )
    options = dict(parsed.get("OPTIONS") or {})  # type: ignore[call-overload]
    if str(parsed.get("ENGINE", "")).endswith("sqlite3"):
        parsed["OPTIONS"] = {**options, **sqlite_options()}
    elif "postgresql" in str(parsed.get("ENGINE", "")):
        parsed["OPTIONS"] = {**options, "options": postgres_session_options(options)}
    return parsed


def postgres_session_options(options: dict[str, object]) -> str:
    """The ``options`` connection parameter of a PostgreSQL database: JIT off (the
    dashboard's aggregates are short; compiling one took 92 ms of a 237 ms query at ten
    times the data), after whatever ``PGOPTIONS`` or the URL's own ``options`` say. libpq
    reads ``PGOPTIONS`` only when no ``options`` parameter is given, so it is carried
    over here, not lost (CI sets ``synchronous_commit=off`` through it)."""
    given = [str(options.get("options") or ""), os.environ.get("PGOPTIONS", "")]
    return " ".join([*(o.strip() for o in given if o.strip()), "-c jit=off"])


DATABASE_URL = env_str("DATABASE_URL")
DATABASES = {"default": database_settings(DATABASE_URL)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_str("REDIS_URL")
if REDIS_URL:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# django-axes first: it refuses a locked-out login before the password is even checked.
# It needs the request, which every login form passes (the test client's login() does
# not: tests log in with force_login or by posting the login form).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Login throttling: after LOGIN_FAILURE_LIMIT wrong passwords for one username from one
# address, that pair is refused (even with the right password) for LOGIN_LOCKOUT_MINUTES,
# counted again from each attempt made while locked. By the pair, so that one person
# cannot lock everyone out and many users behind one proxy do not share a count.
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 10)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_LOCKOUT_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "personaweb.errorpages.locked_out"
# The address a failure is counted against: REMOTE_ADDR, unless TRUSTED_PROXY_COUNT
# proxies (the TLS proxy of the README's production set-up) stand in front and append
# the client to X-Forwarded-For; then the address the outermost of them saw. With 0 (the
# default) the header is ignored, so a client cannot pick its own address.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
AXES_CLIENT_IP_CALLABLE = "personaweb.middleware.client_ip"
LOGIN_URL = "login"
# --- E-mail: the link a new team member sets their password with (tenancy.team) and
# Django's password reset. The console backend prints it in the server's output (a
# local run); a deployment sets EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend
# and EMAIL_HOST / EMAIL_PORT / EMAIL_HOST_USER / EMAIL_HOST_PASSWORD / EMAIL_USE_TLS.
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "personaweb <personaweb@localhost>")
# The Team page shows an added person's one-time set-password link to the operator too
# (for a local run, where the e-mail only reaches the console); off by default when the
# mail really goes out.
TEAM_SHOW_SET_PASSWORD_LINK = env_bool(
    "TEAM_SHOW_SET_PASSWORD_LINK",
    EMAIL_BACKEND.endswith((".console.EmailBackend", ".locmem.EmailBackend")),
)
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
# whitenoise warns on every start when STATIC_ROOT is missing, even though it serves
# from the finders; an empty folder keeps the logs clean until collectstatic fills it.
STATIC_ROOT.mkdir(parents=True, exist_ok=True)

# whitenoise serves static files from the app folders too, so no collectstatic is
# needed for a local run; a server deployment runs collectstatic as usual.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
X_FRAME_OPTIONS = "DENY"
# A refused CSRF check gets the styled 403 page with a sentence, not Django's bare one.
CSRF_FAILURE_VIEW = "personaweb.errorpages.csrf_failure"

# --- Celery -----------------------------------------------------------------
BROKER_DIR = VAR_DIR / "broker"
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND: str | None = REDIS_URL
    # Redis has no acknowledgements of its own: kombu keeps each delivered message in an
    # "unacked" set until the worker acks it (after the task, task_acks_late), and a
    # worker puts back the messages delivered more than ``visibility_timeout`` seconds ago
    # and never acked (their worker died: SIGKILL, a lost machine), scanning every
    # ``unacked_restore_interval`` seconds (throttle 1: every scan looks). The timeout must
    # be longer than any task a live worker still holds (a review is bounded by its lease,
    # LEARNING_REVIEW_STALE_SECONDS), or a running task is delivered a second time; a
    # review delivered twice still runs once (learning.services.review), other tasks are
    # idempotent. docs/deployment.md says how to choose it.
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
        "visibility_timeout": env_int("PERSONAWEB_BROKER_VISIBILITY_SECONDS", 1800),
        "unacked_restore_interval": env_int("PERSONAWEB_BROKER_RESTORE_SECONDS", 10),
        "unacked_restore_throttle": 1,
        # the scan takes a lock in Redis that a worker killed during its scan never
        # releases: every other worker's scan is refused until the lock expires (kombu's
        # default 300 s), so a dead worker's messages wait that long on top of the timeout
        "unacked_mutex_expire": env_int("PERSONAWEB_BROKER_RESTORE_LOCK_SECONDS", 300),
    }
else:
    # kombu's filesystem transport: a real broker in a folder, no server to run.
    for sub in ("queue", "processed", "control"):
        (BROKER_DIR / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://localhost/"
    CELERY_RESULT_BACKEND = None
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "processed_folder": str(BROKER_DIR / "processed"),
        # broadcast/pidbox files; kombu's default is ./control in the working folder
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
    }
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
# Exactly-once reviews on several worker machines: a task's message is acknowledged only
# after the task ran (acks_late), and a task whose worker process died under it (a prefork
# child killed by SIGKILL or the OOM killer) is put back instead of being acknowledged as
# failed (reject_on_worker_lost; without it acks_late loses that task). A whole worker
# killed at once is recovered by the broker's visibility timeout (above). A task delivered
# twice is safe: reviews are leased (review_one_running_per_agent, started_at).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULER = "celery.beat:PersistentScheduler"
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_BEAT_SWEEP_SECONDS = env_float("PERSONAWEB_SWEEP_SECONDS", 60.0)
CELERY_EMBED_SECONDS = env_float("PERSONAWEB_EMBED_SECONDS", 30.0)
# memory consolidation: beliefs formed from new user messages (memory.consolidation)
CELERY_CONSOLIDATE_SECONDS = env_float("PERSONAWEB_CONSOLIDATE_SECONDS", 300.0)
MEMORY_CONSOLIDATION_ENABLED = env_bool("MEMORY_CONSOLIDATION_ENABLED", True)
# "local" (offline, conservative) or "openai" (the LEARNING_MODEL_* endpoint)
MEMORY_PROPOSER = env_str("MEMORY_PROPOSER", "local")

# Hermes's USER.md / MEMORY.md (persona.hermes): Hermes's own character limits (its
# memory.user_char_limit / memory.memory_char_limit; an export is fitted within them)
# and the import caps checked before any entry is scanned.
HERMES_USER_CHAR_LIMIT = env_int("HERMES_USER_CHAR_LIMIT", 1_375)
HERMES_MEMORY_CHAR_LIMIT = env_int("HERMES_MEMORY_CHAR_LIMIT", 2_200)
HERMES_IMPORT_MAX_CHARS = env_int("HERMES_IMPORT_MAX_CHARS", 100_000)
HERMES_IMPORT_MAX_ENTRIES = env_int("HERMES_IMPORT_MAX_ENTRIES", 300)
# owner persona document: a "working" entry not reinforced for this many days is
# flagged dormant for the owner's review and leaves the prompt row at the next plan
PERSONA_WORKING_DORMANT_DAYS = env_float("PERSONA_WORKING_DORMANT_DAYS", 30.0)
# frequent and cheap (one UPDATE): the home page shows soon after start that beat runs
CELERY_HEARTBEAT_SECONDS = env_float("PERSONAWEB_HEARTBEAT_SECONDS", 15.0)

# --- Embeddings ---------------------------------------------------------------
EMBEDDING_BATCH_SIZE = env_int("EMBEDDING_BATCH_SIZE", 64)
EMBEDDING_TASK_CHUNK = env_int("EMBEDDING_TASK_CHUNK", 512)
# The sentence encoder (safety.encoder): "onnx" (the packaged model exported and
# quantised once into ENCODER_DIR by `manage.py safety export-encoder`, no torch in the
# process) or "torch" (sentence-transformers; also the fallback when the ONNX file
# cannot be made). ENCODER_DIR is under the checkout's var/, not PERSONAWEB_VAR_DIR, so
# benches and tests with a throwaway var dir share the one exported file.
ENCODER_BACKEND = env_str("PERSONAWEB_ENCODER", "onnx")
ENCODER_DIR = Path(env_str("PERSONAWEB_ENCODER_DIR", str(BASE_DIR / "var" / "encoder")))
# intra-op threads for batch encoding (Celery workers, commands) and for one web worker
# (a query is a few milliseconds on one thread; the workers are the parallelism)
ENCODER_THREADS = env_int("PERSONAWEB_ENCODER_THREADS", 2)
ENCODER_WEB_THREADS = env_int("PERSONAWEB_ENCODER_WEB_THREADS", 1)
# vectors of the most recent queries kept per process (safety.encoder.encode_query)
ENCODER_QUERY_CACHE = env_int("PERSONAWEB_ENCODER_QUERY_CACHE", 256)
# The memory kernel's vectors: a belief's statement at write, the question in
# build_context. Off = words only (no process loads the model for memory).
MEMORY_BELIEF_EMBEDDINGS = env_bool("MEMORY_BELIEF_EMBEDDINGS", True)
# A context pack a host was given (memory.packs) is kept this long for the turn it shapes
# to name it; a pack named by a turn stays as long as the message does.
CONTEXT_PACK_HOURS = env_float("PERSONAWEB_CONTEXT_PACK_HOURS", 24.0)
CELERY_PACK_PRUNE_SECONDS = env_float("PERSONAWEB_PACK_PRUNE_SECONDS", 3600.0)

# --- Learning reviews ------------------------------------------------------------
# A review "running" longer than this (its lease) is taken to be from a worker that died:
# the redelivered task takes it over, "Review now" and the next review release it. Longer
# than the longest review (model calls of LEARNING_MODEL_TIMEOUT each), shorter than
# PERSONAWEB_BROKER_VISIBILITY_SECONDS.
LEARNING_REVIEW_STALE_SECONDS = env_int("LEARNING_REVIEW_STALE_SECONDS", 900)

# Reviews nobody misses (learning.digests): a proposal or nomination that has waited this
# long is announced to whoever may decide it, at most once per period, by e-mail and,
# when a URL is set, by a POST signed with the secret (HMAC-SHA256).
REVIEW_DIGEST_AFTER_HOURS = env_float("PERSONAWEB_DIGEST_AFTER_HOURS", 24.0)
REVIEW_DIGEST_PERIOD_HOURS = env_float("PERSONAWEB_DIGEST_PERIOD_HOURS", 24.0)
REVIEW_DIGEST_WEBHOOK_URL = env_str("PERSONAWEB_DIGEST_WEBHOOK_URL").strip()
REVIEW_DIGEST_WEBHOOK_SECRET = env_str("PERSONAWEB_DIGEST_WEBHOOK_SECRET")
CELERY_DIGEST_SECONDS = env_float("PERSONAWEB_DIGEST_SECONDS", 3600.0)
# The memory health check (memory.audit) runs this often (daily).
CELERY_AUDIT_SECONDS = env_float("PERSONAWEB_AUDIT_SECONDS", 86400.0)
# Links in e-mails and webhooks point here (the address people open the dashboard at).
PERSONAWEB_BASE_URL = env_str("PERSONAWEB_BASE_URL", "http://127.0.0.1:8000")

# --- Learning model (OpenAI-compatible endpoint) ---------------------------------
LEARNING_PROPOSER = env_str("LEARNING_PROPOSER", "local")
LEARNING_MODEL_BASE_URL = env_str("LEARNING_MODEL_BASE_URL")
LEARNING_MODEL = env_str("LEARNING_MODEL")
LEARNING_MODEL_API_KEY = env_str("LEARNING_MODEL_API_KEY")
# Per-agent model endpoints allowed (comma-separated base URLs); empty = refused, so the
# server's key and conversation text only ever go to LEARNING_MODEL_BASE_URL.
LEARNING_MODEL_ALLOWED_URLS = env_list("LEARNING_MODEL_ALLOWED_URLS")
# Dashboard pages and host reads (the context pack: safety.checks.render_wait) never wait
# for the embedding model: text the learned layer cannot judge yet is withheld as
# "scanning" and a background thread loads the model. The test suite sets this to wait,
# so no background thread outlives a test.
PERSONAWEB_PAGE_SCAN_WAIT = env_bool("PERSONAWEB_PAGE_SCAN_WAIT", False)
# A serving process (web worker, MCP server, Celery worker) loads the embedding model in a
# background thread as it starts (safety.injection.warm_up_at_start); until it is in,
# build_context ranks on words ("ranking": "words"). 0 = load on first need instead.
PERSONAWEB_WARM_UP = env_bool("PERSONAWEB_WARM_UP", True)
LEARNING_MODEL_TIMEOUT = env_float("LEARNING_MODEL_TIMEOUT", 30.0)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # 4xx answers are logged as one line with the reason; tracebacks only for 5xx.
    "filters": {"client_errors": {"()": "personaweb.errorpages.ClientErrorLogFilter"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
    "loggers": {
        "django.request": {"filters": ["client_errors"]},
        "personaweb": {"level": env_str("LOG_LEVEL", "INFO")},
        "memory": {"level": env_str("LOG_LEVEL", "INFO")},
        "persona": {"level": env_str("LOG_LEVEL", "INFO")},
        "learning": {"level": env_str("LOG_LEVEL", "INFO")},
        "api": {"level": env_str("LOG_LEVEL", "INFO")},
    },
}
