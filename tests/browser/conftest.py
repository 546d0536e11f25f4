"""Browser tests: the web table in a real headless Chromium, driven by Playwright, against a
server started for the session (`manage.py serve`, as `make run` starts it, on its own SQLite
file, bots in-process).

Chromium is Debian's (`apt-get install chromium`, which `.ci/run` does); Playwright drives it and
never downloads a browser. Without Chromium or Playwright the tests are skipped, unless
BROWSER_TESTS=required (`.ci/run` sets it): then that is an error.

Every page a test opens is watched: a console error, an uncaught exception or a failed request
(4xx/5xx, network error) fails the test.
"""

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
SERVER_START_SECONDS = 60
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # the `browser` extra is not installed
    sync_playwright = None


def missing() -> str | None:
    if sync_playwright is None:
        return "playwright is not installed (pip install -e '.[browser]')"
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


def pytest_collection_modifyitems(config, items):
    reason = missing()
    ours = [item for item in items if item.path.is_relative_to(HERE)]
    for item in ours:
        item.add_marker(pytest.mark.browser)
    if reason and ours:
        if os.environ.get("BROWSER_TESTS") == "required":
            raise pytest.UsageError(f"browser tests required, but {reason}")
        for item in ours:
            item.add_marker(pytest.mark.skip(reason=reason))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


class Manage:
    """manage.py on the browser tests' own database (a fresh SQLite file in `folder`), DEBUG on,
    bots run in-process, the test-only rulesets registered (tests/browser/settings.py):
    `manage(*args)` runs a command, `manage.start(*args, log=f)` starts one."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.env = {key: value for key, value in os.environ.items()
                    if key not in ("CELERY_BROKER_URL", "CACHE_URL")}
        self.env.update(DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}", DEBUG="1",
                        DJANGO_SETTINGS_MODULE="tests.browser.settings")

    def _command(self, args) -> list[str]:
        return [sys.executable, str(ROOT / "manage.py"), *args]

    def __call__(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(self._command(args), cwd=ROOT, env=self.env, check=True,
                              capture_output=True, text=True)

    def start(self, *args: str, log) -> subprocess.Popen:
        return subprocess.Popen(self._command(args), cwd=ROOT, env=self.env, stdout=log,
                                stderr=subprocess.STDOUT)


@pytest.fixture(scope="session")
def manage(tmp_path_factory) -> Manage:
    run = Manage(tmp_path_factory.mktemp("web"))
    run("migrate", "--noinput")
    return run


@pytest.fixture(scope="session")
def server(manage):
    """The service's base URL, served as `make run` serves it."""
    port = _free_port()
    log_path = manage.folder / "server.log"
    with open(log_path, "wb") as log:
        process = manage.start("serve", f"127.0.0.1:{port}", log=log)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVER_START_SECONDS
        while not _answers(f"{base}/api/v1/health/"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start:\n{log_path.read_text()}")
            time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def open_page(browser, server):
    """open_page(viewport=DESKTOP, locale="en-US") → a page of the table in a new browser
    context (its own storage: a new person). The test fails if any page logged a problem."""
    contexts = []
    problems = []

    def watch(page, name):
        page.on("console", lambda m: problems.append(f"{name} console {m.type}: {m.text}")
                if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(f"{name} exception: {e}"))
        # A reload or a closing page aborts the poll in flight: not a problem of the page.
        page.on("requestfailed", lambda r: problems.append(f"{name} failed: {r.url}")
                if "ERR_ABORTED" not in (r.failure or "") else None)
        page.on("response", lambda r: problems.append(f"{name} {r.status}: {r.url}")
                if r.status >= 400 else None)

    def open_one(viewport=DESKTOP, locale="en-US", path="/"):
        context = browser.new_context(viewport=viewport, locale=locale, base_url=server)
        context.set_default_timeout(20_000)
        contexts.append(context)
        page = context.new_page()
        watch(page, f"page{len(contexts)}")
        page.goto(path)
        return page

    yield open_one
    for context in contexts:
        context.close()
    assert problems == []
