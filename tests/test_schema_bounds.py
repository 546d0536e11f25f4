"""The bounds the OpenAPI schema states are the ones the server enforces: every query parameter
and header of every operation is sent at its bounds and just past them (its minimum and maximum,
its maxLength, its pattern, its enum), and every integer is sent spelled the ways the server
refuses (`1_0`, `٣`, ` 5`, `+5`, `05`); a path's ids are taken up to the schema's maximum and no
further. The unit suite runs these on SQLite, tests/integration/test_schema_bounds.py on
PostgreSQL."""

import re

import pytest
from rest_framework.test import APIClient

from games.models import Table
from tests.matchplay import create, new_player

pytestmark = pytest.mark.django_db(transaction=True)

SPELLINGS = ["1_0", "٣", " 5", "5 ", "+5", "-0", "05", "0x5", "1e3", "5.0", "", "²"]
TEXTS = ["a b", "é", "a\tb", "~", "key-1"]


@pytest.fixture
def world() -> dict:
    """A person with a match in play and a table: what every operation's URL can name."""
    person = new_player()
    view = create(person, "510k", {"players": 2}, [{"type": "human"}] * 2)
    new_player().post("/matches/join/", {"code": view["invite_code"]})
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=person.headers["Authorization"])
    table = Table.objects.create(name="House", slug="house", ruleset="gandengyan",
                                 options={"players": 4, "decks": 1, "starting_score": 500})
    version = person.get(f"/matches/{view['id']}/")[1]["version"]
    return {"client": client, "path": {"match_id": view["id"], "number": 1, "slug": table.slug,
                                       "ruleset": "gandengyan"},
            "bodies": {"matches_act": {"expected_version": version + 1000,
                                       "action": {"type": "pass"}}}}


def operations(client: APIClient):
    schema = client.get("/api/v1/schema/?format=json").json()
    for path, items in schema["paths"].items():
        for method, operation in items.items():
            yield path, method, operation


def send(world: dict, path: str, method: str, operation: dict, parameter: dict, value: str):
    url = path.format(**world["path"])
    if parameter["in"] == "query":
        query, headers = {parameter["name"]: value}, {}
    else:
        query, headers = {}, {"HTTP_" + parameter["name"].upper().replace("-", "_"): value}
    client = world["client"]
    if method == "get":
        return client.get(url, query, **headers)
    body = world["bodies"].get(operation["operationId"])
    assert body is not None, f"give {operation['operationId']} a body in world()"
    return client.post(url + "?" + "&".join(f"{k}={v}" for k, v in query.items()), body,
                       format="json", **headers)


def refused(response, name: str) -> bool:
    """The answer refuses the parameter `name` itself (not the request for another reason)."""
    if response.status_code != 400:
        return False
    error = response.json()["error"]
    return error["code"] == "invalid_input" and error["details"].get("field") == name


def test_every_query_parameter_and_header_is_refused_exactly_past_its_stated_bounds(world):
    checked = 0
    for path, method, operation in operations(world["client"]):
        for parameter in operation.get("parameters", []):
            if parameter["in"] not in ("query", "header"):
                continue
            schema, name = parameter["schema"], parameter["name"]
            cases = []  # (value, refused by the schema)
            if schema["type"] == "integer":
                assert {"minimum", "maximum"} <= set(schema), (path, name, "states no bounds")
                low, high = schema["minimum"], schema["maximum"]
                cases += [(str(low), False), (str(high), False), (str(high + 1), True)]
                cases += [(str(low - 1), True)] if low > 0 else []
                cases += [(text, True) for text in SPELLINGS if text]
            elif "enum" in schema:
                cases += [(value, False) for value in schema["enum"]] + [("nothing-such", True)]
            elif "maxLength" in schema or "pattern" in schema:
                longest = schema.get("maxLength", 64)
                cases += [("k" * longest, False), ("k" * (longest + 1), "maxLength" in schema)]
                pattern = schema.get("pattern")
                cases += [(text, pattern is not None and not re.search(pattern, text))
                          for text in TEXTS]
            for value, out_of_bounds in cases:
                response = send(world, path, method, operation, parameter, value)
                assert refused(response, name) == out_of_bounds, (
                    method, path, name, value, response.status_code, response.content[:300])
                checked += 1
    assert checked > 50


def test_ids_in_paths_are_taken_up_to_the_schemas_maximum(world):
    client = world["client"]
    for path, method, operation in operations(client):
        for parameter in operation.get("parameters", []):
            if parameter["in"] != "path" or parameter["schema"]["type"] != "integer":
                continue
            high = parameter["schema"]["maximum"]
            for value, a_url in ((high, True), (high + 1, False)):
                url = path.format(**{**world["path"], parameter["name"]: value})
                body = world["bodies"].get(operation["operationId"], {})
                response = client.get(url) if method == "get" else client.post(
                    url, body, format="json")
                error = response.json()["error"]
                assert response.status_code in (400, 404, 409), (url, response.content)
                # The URL's own 404 names the path; a view's refusal (no such match) does not.
                assert ("path" not in error["details"]) == a_url, (url, error)
