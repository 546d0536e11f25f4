"""A Content-Security-Policy on every response: the web table, the admin and the API docs may
run their own origin's scripts only (and their pages hold no inline script the policy would
block), JSON answers nothing at all."""

import re

import pytest

from games.api.middleware import JSON_POLICY, PAGE_POLICY

pytestmark = pytest.mark.django_db

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)


def directives(policy: str) -> dict[str, list[str]]:
    return {name: values for name, *values in (d.split() for d in policy.split(";"))}


@pytest.mark.parametrize(("path", "staff"), [
    ("/", False), ("/api/v1/docs/", False), ("/admin/login/", False), ("/admin/", True),
    ("/admin/accounts/user/", True), ("/admin/games/match/", True),
    ("/admin/accounts/user/add/", True), ("/admin/accounts/authtoken/", True)])
def test_the_admin_and_the_docs_run_only_their_own_scripts(client, admin_client, path, staff):
    response = (admin_client if staff else client).get(path)
    assert response.status_code == 200
    policy = directives(response["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
    assert INLINE_SCRIPT.findall(response.content.decode()) == []


def test_the_docs_start_up_script_is_a_file_of_the_same_origin(client):
    page = client.get("/api/v1/docs/").content.decode()
    script = client.get("/api/v1/docs/?script=")
    assert 'src="/api/v1/docs/?script="' in page
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in script.content.decode()


@pytest.mark.parametrize("path", ["/api/v1/health/", "/api/v1/schema/", "/api/v1/no-such/"])
def test_json_answers_allow_nothing(client, path):
    assert client.get(path)["Content-Security-Policy"] == JSON_POLICY


def test_the_page_policy_is_strict_about_scripts():
    policy = directives(PAGE_POLICY)
    assert "'unsafe-inline'" not in policy["script-src"]
    assert "'unsafe-eval'" not in policy["script-src"]
    assert policy["default-src"] == ["'self'"]
