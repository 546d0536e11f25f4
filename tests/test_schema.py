"""The OpenAPI schema is generated without warnings, validates, and the docs page works offline."""

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command


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
    assert "/api/v1/schema/" in page
    bundle = "drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js"
    assert f"/static/{bundle}" in page
    assert finders.find(bundle), "the Swagger UI bundle ships in the sidecar package"
