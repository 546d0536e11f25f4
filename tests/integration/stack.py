"""A private deployment for the tests that need whole processes: its own PostgreSQL cluster and
Redis server (so the tests may stop, kill and restart them without touching the machine's), web
servers, a Celery worker and Celery beat, all started with the project's own commands and one
environment."""

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
PG_BIN = Path("/usr/lib/postgresql") / sorted(os.listdir("/usr/lib/postgresql"))[-1] / "bin"
START_SECONDS = 60


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def answers(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
    except OSError:
        return False
    return True


def wait_for(what: str, check, seconds: float = START_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"{what} did not come up within {seconds}s")


def as_postgres(args: list[str], **kwargs) -> subprocess.CompletedProcess:
    """PostgreSQL's tools refuse to run as root: run them as the postgres user when we are."""
    if os.geteuid() == 0:
        args = ["runuser", "-u", "postgres", "--", *args]
    return subprocess.run(args, check=True, capture_output=True, text=True, **kwargs)


class Stack:
    def __init__(self, **settings: str):
        # Not under pytest's temporary folder: PostgreSQL's tools run as their own user, who
        # must be able to reach the data folder.
        self.home = Path(tempfile.mkdtemp(prefix="cardtable-faults-"))
        self.home.chmod(0o755)
        self.pg_data = self.home / "pg"
        self.pg_port, self.redis_port, self.web_port = free_port(), free_port(), free_port()
        self.processes: dict[str, subprocess.Popen] = {}
        self.env = {
            **{k: v for k, v in os.environ.items()
               if not k.startswith(("DATABASE_", "CELERY_", "BOT_", "CACHE_", "PYTEST"))},
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "0", "SECRET_KEY": "faults-only-" + "x" * 50,
            "ALLOWED_HOSTS": "127.0.0.1", "SECURE_SSL_REDIRECT": "0", "LOG_LEVEL": "WARNING",
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:{self.pg_port}/cardtable",
            "CELERY_BROKER_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            "RECOVERY_SWEEP_SECONDS": "1", "TURN_RECOVERY_SECONDS": "2",
            "BOT_TASK_SOFT_TIME_LIMIT": "4", "BOT_TASK_TIME_LIMIT": "5",
            # The server moves at once (no pace) unless a match sets one: the tests and benches
            # on a stack measure the machinery, not a person's reading speed.
            "SERVER_PACE_MS": "0",
            "PYTHONWARNINGS": "ignore::UserWarning",  # whitenoise: no collected static files
            **settings,
        }

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.web_port}"

    # -- the parts -------------------------------------------------------------------------------

    def start_postgres(self) -> None:
        if not self.pg_data.exists():
            self.pg_data.mkdir(parents=True)
            if os.geteuid() == 0:
                shutil.chown(self.pg_data, "postgres")
            as_postgres([str(PG_BIN / "initdb"), "-D", str(self.pg_data), "-U", "postgres",
                         "--auth=trust", "-E", "UTF8"])
        as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(self.pg_data), "-w", "-l",
                     str(self.pg_data / "log"), "-o",
                     f"-p {self.pg_port} -k {self.pg_data} -c listen_addresses=127.0.0.1 "
                     "-c fsync=off", "start"])

    def stop_postgres(self) -> None:
        as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(self.pg_data), "-m", "fast", "-w",
                     "stop"])

    def start_redis(self) -> None:
        self.processes["redis"] = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.redis_port),
             "--save", "", "--appendonly", "no", "--dir", str(self.home)],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        wait_for("redis", lambda: answers(self.redis_port))

    def redis(self, *args: str) -> str:
        return subprocess.run(["redis-cli", "-p", str(self.redis_port), *args], check=True,
                              capture_output=True, text=True).stdout.strip()

    def _start(self, name: str, args: list[str]) -> None:
        log = open(self.home / f"{name}.log", "a")  # noqa: SIM115 (closed with the process)
        self.processes[name] = subprocess.Popen([sys.executable, "-m", *args], cwd=ROOT,
                                                env=self.env, stdout=log,
                                                stderr=subprocess.STDOUT)

    def start_web(self, name: str = "web", port: int | None = None, workers: int = 2) -> int:
        """A web server as production runs it (gunicorn, uvicorn workers); its port."""
        port = port or self.web_port
        self._start(name, ["gunicorn", "config.asgi:application", "--worker-class",
                           "config.workers.UvicornWorker", "--bind", f"127.0.0.1:{port}",
                           "--workers", str(workers), "--timeout", "60",
                           "--no-control-socket"])  # several servers on one machine
        wait_for(f"the web server {name}", lambda: answers(port))
        return port

    def start_worker(self, as_in_production: bool = False, name: str = "worker",
                     queues: tuple[str, ...] = ()) -> None:
        """The solo pool, alone; or as the README and compose run it: prefork, gossip and
        mingle on, two children (one for the clock queue alone). `queues`: those only (all by
        default)."""
        options = (["--concurrency=1" if queues == ("clock",) else "--concurrency=2"]
                   if as_in_production
                   else ["--pool=solo", "--without-gossip", "--without-mingle"])
        if queues:
            options += ["-Q", ",".join(queues)]
        self._start(name, ["celery", "-A", "config", "worker", *options, "-n", f"{name}@%h",
                           "--loglevel=WARNING"])

    def wait_for_worker(self, name: str = "worker") -> None:
        """Until the worker `name` answers a ping: started, connected, its pool forked (a
        measurement that starts before would time the worker's start-up)."""
        from celery import Celery

        app = Celery(broker=self.env["CELERY_BROKER_URL"])
        node = f"{name}@{socket.gethostname()}"
        try:
            wait_for(f"the Celery worker {name}",
                     lambda: app.control.ping(destination=[node], timeout=0.5))
        finally:
            app.close()

    def start_beat(self, name: str = "beat") -> None:
        self._start(name, ["celery", "-A", "config", "beat", "--loglevel=WARNING",
                           "--schedule", str(self.home / f"{name}-schedule")])

    def start_balancer(self, web_ports: list[int]) -> int:
        """nginx with the deployment's own site (deploy/nginx.conf) in front of these web
        servers instead of compose's `web` replicas; its port."""
        port = free_port()
        site = (ROOT / "deploy" / "nginx.conf").read_text()
        site = site.replace("server web:8000;", " ".join(f"server 127.0.0.1:{p};"
                                                         for p in web_ports))
        site = site.replace("listen 80;", f"listen 127.0.0.1:{port};")
        (self.home / "nginx-site.conf").write_text(site)
        temp = self.home / "nginx-temp"
        temp.mkdir()
        temp.chmod(0o777)  # nginx's workers run as nobody when it is started as root
        paths = " ".join(f"{kind}_temp_path {temp / kind};"
                         for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        (self.home / "nginx.conf").write_text(
            f"daemon off; pid {self.home / 'nginx.pid'}; error_log {self.home / 'nginx.log'};"
            f" events {{}} http {{ access_log off; {paths}"
            f" include {self.home / 'nginx-site.conf'}; }}\n")
        log = open(self.home / "nginx.log", "a")  # noqa: SIM115 (closed with the process)
        self.processes["nginx"] = subprocess.Popen(
            ["nginx", "-c", str(self.home / "nginx.conf"), "-p", str(self.home)],
            stdout=log, stderr=subprocess.STDOUT)
        wait_for("nginx", lambda: answers(port))
        return port

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        process = self.processes.pop(name)
        process.send_signal(sig)
        process.wait(timeout=30)

    # -- all of it -------------------------------------------------------------------------------

    def prepare(self) -> "Stack":
        """The database, migrated, and Redis: all the parts but the project's processes."""
        with self._down_on_failure():
            self.start_postgres()
            as_postgres([str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", str(self.pg_port),
                         "-U", "postgres", "cardtable"])
            self.start_redis()
            subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                           cwd=ROOT, env=self.env, check=True)
        return self

    def up(self) -> "Stack":
        with self._down_on_failure():
            self.prepare()
            self.start_web()
            self.start_worker()
            self.start_beat()
        return self

    @contextlib.contextmanager
    def _down_on_failure(self):
        """A stack that fails to come up stops what it started (its fixture never tears down)."""
        try:
            yield
        except BaseException:
            print(self.logs())
            self.down()
            raise

    def manage(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env,
                              capture_output=True, text=True, timeout=300)

    def down(self) -> None:
        for name in list(self.processes):
            process = self.processes.pop(name)
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        if (self.pg_data / "postmaster.pid").exists():
            self.stop_postgres()
        shutil.rmtree(self.home, ignore_errors=True)

    def logs(self) -> str:
        return "\n".join(f"--- {path.name}\n{path.read_text()[-4000:]}"
                         for path in sorted(self.home.glob("*.log")))


@contextlib.contextmanager
def two_web_servers(**settings: str):
    """A stack with two web servers on one database and Redis (the second's port:
    `second_port`); its logs printed at the end (shown when a test failed)."""
    stack = Stack(**settings).prepare()
    try:
        stack.start_web("web")
        stack.second_port = stack.start_web("web2", free_port())
        yield stack
    finally:
        print(stack.logs())
        stack.down()
