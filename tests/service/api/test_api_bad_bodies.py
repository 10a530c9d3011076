"""Every route that takes a body refuses a broken one with a 4xx that says what is wrong, never a 500.

Swept from the app's own OpenAPI document, so a route added later is held to it too:
each is sent bodies no client should send (cut-off JSON, bytes that are no text, a
multipart form with no parts), under the content type it declares.
"""

from __future__ import annotations

import re

import pytest

BROKEN = {
    "application/json": [b"not json", b'{"rules": "dunhill", "players": [', b"\xff\xfe\x00"],
    "multipart/form-data": [b"--nothing--\r\n", b"\xff\xfe\x00"],
}


def routes_with_bodies(client) -> list[tuple[str, str, str]]:
    """(method, path with each id as 1, content type) of every operation that declares a body."""
    spec = client.get("/openapi.json").json()
    out = []
    for path, operations in spec["paths"].items():
        for method, op in operations.items():
            for content_type in op.get("requestBody", {}).get("content", {}):
                out.append((method.upper(), re.sub(r"{\w+}", "1", path), content_type))
    return out


def test_the_sweep_finds_the_routes_that_take_bodies(client):
    found = routes_with_bodies(client)
    assert ("POST", "/api/sessions", "application/json") in found
    assert any(ct == "multipart/form-data" for *_, ct in found)          # the photo uploads
    assert {ct for *_, ct in found} <= set(BROKEN)                       # each declared type is swept


def test_a_broken_body_gets_a_4xx_naming_what_is_wrong_on_every_route(client, session):
    refused = []
    for method, path, content_type in routes_with_bodies(client):
        header = content_type if content_type == "application/json" else f"{content_type}; boundary=x"
        for body in BROKEN[content_type]:
            r = client.request(method, path, content=body, headers={"content-type": header})
            if not 400 <= r.status_code < 500:
                refused.append(f"{method} {path} {body!r}: {r.status_code} {r.text[:120]}")
                continue
            detail = r.json().get("detail") if r.headers.get("content-type", "").startswith("application/json") \
                else None
            if not detail:
                refused.append(f"{method} {path} {body!r}: {r.status_code} with no detail: {r.text[:120]}")
    assert not refused, "\n".join(refused)


@pytest.mark.parametrize("path", ["/api/sessions/abc", "/api/sessions/-1", "/api/sessions/999999"])
def test_a_session_id_that_is_no_session_gets_a_4xx(client, path):
    r = client.get(path)
    assert 400 <= r.status_code < 500 and r.json()["detail"]
