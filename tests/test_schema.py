"""The OpenAPI schema is generated without warnings, validates, and the docs page works offline."""

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command

from games.engine.registry import RULESETS, get_ruleset
from games.engine.specs import parse


def test_schema_validates_without_warnings(tmp_path):
    # --fail-on-warn makes any generator warning (a view it cannot describe) a failure.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yml"))
    schema = (tmp_path / "s.yml").read_text()
    assert schema.startswith("openapi: 3.")
    assert "/api/v1/auth/guest/" in schema


@pytest.mark.django_db
def test_schema_is_served_as_json(api_client):
    response = api_client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert response.json()["info"]["title"] == "Card table API"


@pytest.mark.django_db
def test_docs_page_uses_bundled_assets(client):
    response = client.get("/api/v1/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "/api/v1/schema/" in client.get("/api/v1/docs/?script=").content.decode()
    bundle = "drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js"
    assert f"/static/{bundle}" in page
    assert finders.find(bundle), "the Swagger UI bundle ships in the sidecar package"


@pytest.mark.django_db
def test_each_ruleset_view_is_a_component_and_each_example_is_a_real_view(api_client):
    schema = api_client.get("/api/v1/schema/?format=json").json()
    components = schema["components"]["schemas"]
    view = schema["paths"]["/api/v1/matches/{match_id}/"]["get"]["responses"]["200"]
    examples = view["content"]["application/json"]["examples"]
    seen = set()
    for example in examples.values():
        state = example["value"]["state"]
        ruleset = get_ruleset(state["ruleset"])
        parse(ruleset.info.view, state, "bad_example")
        seen.add(ruleset.name)
        assert example["value"]["legal_actions"] and example["value"]["your_turn"]
    assert seen == set(RULESETS) >= {"gandengyan", "510k"}
    for name in RULESETS:
        title = name.capitalize()
        assert {f"{title}View", f"{title}Options", f"{title}SettleInput"} <= set(components)
    state = components["MatchViewOutput"]["properties"]["state"]
    assert {"$ref": "#/components/schemas/GandengyanView"} in state["oneOf"]


@pytest.mark.django_db
def test_the_rules_endpoints_document_their_400_and_404(api_client):
    paths = api_client.get("/api/v1/schema/?format=json").json()["paths"]
    for name in ("evaluate", "settle"):
        responses = paths[f"/api/v1/rules/{{ruleset}}/{name}/"]["post"]["responses"]
        assert {"200", "400", "404"} <= set(responses)
        error = responses["400"]["content"]["application/json"]["schema"]
        assert error == {"$ref": "#/components/schemas/Error"}


@pytest.mark.django_db
def test_the_act_documents_its_idempotency_key_header(api_client):
    act = api_client.get("/api/v1/schema/?format=json").json()["paths"][
        "/api/v1/matches/{match_id}/act/"]["post"]
    header = next(p for p in act["parameters"] if p["in"] == "header")
    assert header["name"] == "Idempotency-Key" and not header.get("required", False)
    assert header["schema"]["maxLength"] == 64
