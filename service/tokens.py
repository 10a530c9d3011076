"""The tablet's and the counter's login cookies: a signed, expiring token, never the PIN itself.

A token is ``<scope>.<expires>.<signature>``: the scope (``table:<name>`` or
``staff``), when it stops working (Unix seconds), and an HMAC-SHA256 over both
keyed by the service's secret *and* the PIN it was issued for. So a cookie read
off a tablet gives away neither PIN, works only until it expires, only for its
own scope, and stops working the moment that PIN changes.

The secret is made once per data folder (``secret.key``, readable by its owner
only) and kept, so a restart does not log the tablets out.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import logging
import os
import secrets
import time
from pathlib import Path

log = logging.getLogger(__name__)


SECRET_BYTES = 32


def load_secret(data_dir: Path) -> bytes:
    """The data folder's signing secret, made on first use. One that is damaged (not base64, or short)
    is made anew, logged: it signs only the tablets' sign-ins, so they sign in again with the PIN."""
    path = Path(data_dir) / "secret.key"
    try:
        secret = base64.b64decode(path.read_bytes(), validate=True)
        if len(secret) >= SECRET_BYTES:
            return secret
        log.warning("%s is too short to sign with: made anew, tablets sign in again", path)
    except FileNotFoundError:
        pass
    except (binascii.Error, ValueError):
        log.warning("%s is damaged (not base64): made anew, tablets sign in again", path)
    secret = secrets.token_bytes(SECRET_BYTES)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(base64.b64encode(secret))
    os.replace(tmp, path)
    return secret


class Tokens:
    """Issues and checks tokens for the scopes this service knows, each with its PIN."""

    def __init__(self, secret: bytes, clock=time.time):
        self.secret, self.clock = secret, clock

    def _signature(self, scope: str, expires: int, pin: str) -> str:
        key = hmac.new(self.secret, b"pin:" + pin.encode(), hashlib.sha256).digest()
        mac = hmac.new(key, f"{scope}.{expires}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac).decode().rstrip("=")

    def issue(self, scope: str, pin: str, ttl_s: float) -> str:
        expires = int(self.clock() + ttl_s)
        scope_text = base64.urlsafe_b64encode(scope.encode()).decode().rstrip("=")
        return f"{scope_text}.{expires}.{self._signature(scope, expires, pin)}"

    def valid(self, token: str | None, scope: str, pin: str) -> bool:
        """Whether ``token`` was issued by this service for ``scope`` with ``pin`` and has not expired."""
        if not token or not pin:
            return False
        parts = token.split(".")
        if len(parts) != 3 or not (parts[1].isascii() and parts[1].isdigit() and len(parts[1]) <= 12):
            return False
        try:
            given_scope = base64.urlsafe_b64decode(parts[0] + "=" * (-len(parts[0]) % 4)).decode()
        except (ValueError, UnicodeDecodeError):
            return False
        expires = int(parts[1])
        if given_scope != scope or expires < self.clock():
            return False
        # as bytes: a forged cookie's signature may hold any character
        return hmac.compare_digest(parts[2].encode("utf-8", "surrogatepass"), self._signature(scope, expires, pin).encode())
