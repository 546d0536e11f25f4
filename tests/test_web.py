"""The web table's page and its static files as production serves them (the browser tests in
tests/browser/ play on it in Chromium)."""

import json
import posixpath
import re
import warnings
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

ROOT = Path(__file__).resolve().parent.parent
WEB_STATIC = ROOT / "web" / "static"
JS = WEB_STATIC / "web" / "js"
# Every module, by its path under js/ (table/seats.js, rulesets/510k.js...).
MODULES = sorted(p.relative_to(JS).as_posix() for p in JS.rglob("*.js"))
IMPORT = re.compile(r'(?:import|export)\b[^;]*?\bfrom\s*"(\.{1,2}/[^"]+)";')


def imports(name: str, text: str) -> list[str]:
    """The modules `name` imports, by their path under the folder `name` is in."""
    folder = posixpath.dirname(name)
    return [posixpath.normpath(posixpath.join(folder, target)) for target in IMPORT.findall(text)]


def test_the_page_is_served_at_the_root_and_never_cached():
    response = Client().get("/")
    assert response.status_code == 200
    page = response.content.decode()
    assert '<script type="module" src="/static/web/js/app.js"></script>' in page
    assert "no-cache" in response["Cache-Control"]
    assert Client().post("/").status_code == 405


def test_the_static_files_are_served_by_whitenoise():
    response = Client().get("/static/web/js/app.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response.headers.get("Access-Control-Allow-Origin") == "*"  # WhiteNoise's own header


async def test_the_static_files_are_streamed_under_asgi_without_a_warning(async_client):
    # Django's ASGI handler warns at a synchronous file iterator, once per file served.
    response = await async_client.get("/static/web/js/app.js")
    assert response.status_code == 200
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        body = b"".join([part async for part in response])
    assert body == (WEB_STATIC / "web" / "js" / "app.js").read_bytes()


def test_the_favicon_is_served_where_browsers_look_for_it():
    response = Client().get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] in ("image/x-icon", "image/vnd.microsoft.icon")
    assert b"".join(response.streaming_content)[:4] == b"\x00\x00\x01\x00"  # an icon file


def test_every_module_imports_only_modules_that_exist():
    assert "table/state.js" in MODULES and "rulesets/510k.js" in MODULES
    for name in MODULES:
        for target in imports(name, (JS / name).read_text()):
            assert target in MODULES, f"{name} imports {target}"


@pytest.fixture
def collected(tmp_path):
    """collectstatic of the web table's files with the production storage."""
    with override_settings(
        STATIC_ROOT=tmp_path,
        STATICFILES_DIRS=[WEB_STATIC],
        STATICFILES_FINDERS=["django.contrib.staticfiles.finders.FileSystemFinder"],
        STORAGES={"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
                  "staticfiles": {"BACKEND": "web.storage.StaticStorage"}},
    ):
        call_command("collectstatic", "--noinput", verbosity=0)
        yield tmp_path, json.loads((tmp_path / "staticfiles.json").read_text())["paths"]


def test_production_rewrites_module_imports_to_hashed_names(collected):
    root, paths = collected
    for name in MODULES:
        hashed = paths[f"web/js/{name}"]
        assert hashed != f"web/js/{name}"
        targets = imports(hashed.removeprefix("web/js/"), (root / hashed).read_text())
        assert len(targets) == len(imports(name, (JS / name).read_text()))
        for target in targets:
            # Every import names a hashed file of this deployment: no mixing after an upgrade.
            assert f"web/js/{target}" in paths.values(), f"{name}: {target}"


def test_production_pages_link_the_hashed_files(collected):
    _, paths = collected
    with override_settings(DEBUG=False, STORAGES={
            "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": "web.storage.StaticStorage"}}):
        page = Client().get("/").content.decode()
    assert f'/static/{paths["web/js/app.js"]}' in page
    assert f'/static/{paths["web/css/table.css"]}' in page
    assert f'/static/{paths["web/css/cards.css"]}' in page
    # A ruleset's module is imported by the URL the page gives: the hashed one, which imports
    # the page's own hashed modules (a second copy of i18n.js would not know the language).
    assert (f'<link rel="modulepreload" href="/static/{paths["web/js/rulesets/510k.js"]}" '
            'data-ruleset="510k">') in page


def test_the_page_lists_each_rulesets_module_by_its_name():
    page = Client().get("/").content.decode()
    listed = re.findall(r'<link rel="modulepreload" href="([^"]+)" data-ruleset="([^"]+)">', page)
    assert listed == [(f"/static/web/js/rulesets/{name}.js", name)
                      for name in sorted(p.stem for p in (JS / "rulesets").glob("*.js"))]
    assert {name for _, name in listed} == {"510k", "gandengyan"}


def test_modules_name_each_others_types_with_import_tags():
    # collectstatic reads `import("./x.js")` as an import even inside a comment: two modules that
    # named each other's types so could not be hashed. JSDoc's `@import` tag is not read.
    for name in MODULES:
        assert 'import("' not in (JS / name).read_text(), name
