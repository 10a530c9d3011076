"""The login cookies hold a signed, expiring token for one scope and one PIN, never the PIN."""

from __future__ import annotations

from service.tokens import Tokens, load_secret


class Clock:
    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_a_token_works_for_its_scope_and_pin_until_it_expires(tmp_path):
    clock = Clock()
    tokens = Tokens(load_secret(tmp_path), clock)
    token = tokens.issue("table:A", "2468", ttl_s=3600)
    assert "2468" not in token
    assert tokens.valid(token, "table:A", "2468")
    assert not tokens.valid(token, "table:B", "2468")          # another table's scope
    assert not tokens.valid(token, "staff", "2468")
    assert not tokens.valid(token, "table:A", "1357")          # the PIN was changed: logged out
    clock.now += 3601
    assert not tokens.valid(token, "table:A", "2468")          # expired


def test_a_forged_or_garbled_token_is_refused(tmp_path):
    tokens = Tokens(load_secret(tmp_path))
    token = tokens.issue("table:A", "2468", ttl_s=3600)
    scope, expires, sig = token.split(".")
    later = f"{scope}.{int(expires) + 10**6}.{sig}"                # a longer life, same signature
    other_key = Tokens(b"x" * 32).issue("table:A", "2468", ttl_s=3600)
    for bad in (later, other_key, "", "a.b", "!!.1.x", token + "x", None):
        assert not tokens.valid(bad, "table:A", "2468"), bad


def test_the_secret_is_made_once_and_kept(tmp_path):
    first = load_secret(tmp_path)
    assert load_secret(tmp_path) == first and len(first) == 32
    assert (tmp_path / "secret.key").stat().st_mode & 0o077 == 0     # its owner's only
    token = Tokens(first).issue("staff", "9999", 60)
    assert Tokens(load_secret(tmp_path)).valid(token, "staff", "9999")   # a restart keeps tablets logged in


def test_a_damaged_secret_is_made_anew_and_the_tablets_sign_in_again(tmp_path, caplog):
    old = load_secret(tmp_path)
    token = Tokens(old).issue("table:A", "2468", 3600)
    for damage in (b"!!not base64", b"c2hvcnQ="):                   # not base64; "short", 5 bytes
        (tmp_path / "secret.key").write_bytes(damage)
        new = load_secret(tmp_path)
        assert len(new) == 32 and new != old and load_secret(tmp_path) == new
        assert (tmp_path / "secret.key").stat().st_mode & 0o077 == 0
        assert not Tokens(new).valid(token, "table:A", "2468")          # signed with the lost secret
    assert "made anew" in caplog.text
