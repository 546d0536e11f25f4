"""Schemathesis hooks (SCHEMATHESIS_HOOKS=tests.fuzz.hooks): every request carries a token. The
operations that spend theirs (logout revokes it, refresh and upgrade replace it) get a fresh
guest's each time; the others share one, so that matches made by one request can be read by the
next. FUZZ_API is the API's base URL (http://host:port/api/v1)."""

import json
import os
import urllib.request

import schemathesis

SPENDING = {"/auth/logout/", "/auth/refresh/", "/auth/upgrade/"}
_shared: list[str] = []


def guest_token() -> str:
    request = urllib.request.Request(os.environ["FUZZ_API"] + "/auth/guest/", method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())["token"]


@schemathesis.auth(refresh_interval=None)
class Tokens:
    def get(self, case, context) -> str:
        if any(case.operation.path.endswith(path) for path in SPENDING):
            return guest_token()
        if not _shared:
            _shared.append(guest_token())
        return _shared[0]

    def set(self, case, data: str, context) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Token {data}"}
