"""A request's body is no larger than an image upload may be (service/body_limit.py): one that says
its length over the limit is refused unread, and one sent in chunks, saying no length, is refused
(413) once it passes the limit, before the rest of it is sent: not spooled to disk to its end. A
real server, a real socket."""

from __future__ import annotations

import select
import socket
from urllib.parse import urlsplit

import pytest

from live_server import serve
from table_fixtures import PIN

LIMIT = 200_000                 # the image's limit set for these tests (TABLE_MAX_UPLOAD_BYTES)
CHUNK = 64 * 1024


@pytest.fixture
def address(tmp_path):
    for url, _ in serve(tmp_path, reader="", camera="", max_upload_bytes=LIMIT):
        parts = urlsplit(url)
        yield parts.hostname, parts.port


def _answer(sock: socket.socket) -> bytes:
    """The server's answer, head and body (its Content-Length)."""
    data = b""
    while b"\r\n\r\n" not in data:
        got = sock.recv(65536)
        if not got:
            return data
        data += got
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        got = sock.recv(65536)
        if not got:
            break
        body += got
    return head + b"\r\n\r\n" + body


def _post_in_chunks(address, chunks: int) -> tuple[bytes, int]:
    """A multipart upload of ``chunks`` chunks of 64 KB, sent chunked (no Content-Length); the answer's
    head and how many bytes were sent before it came (all of them, where it came only at the end)."""
    sock = socket.create_connection(address, timeout=30)
    try:
        sock.sendall(b"POST /api/read HTTP/1.1\r\nHost: t\r\nX-Table-PIN: " + PIN.encode() +
                     b"\r\nContent-Type: multipart/form-data; boundary=b0undary\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n")
        head = (b'--b0undary\r\nContent-Disposition: form-data; name="image"; filename="t.png"\r\n'
                b"Content-Type: image/png\r\n\r\n\x89PNG")
        sent = 0
        for i in range(chunks):
            if select.select([sock], [], [], 0.02)[0]:               # the server answered already
                return _answer(sock), sent
            body = (head if i == 0 else b"") + b"0" * CHUNK
            sock.sendall(f"{len(body):x}\r\n".encode() + body + b"\r\n")
            sent += len(body)
        tail = b"\r\n--b0undary--\r\n"
        sock.sendall(f"{len(tail):x}\r\n".encode() + tail + b"\r\n0\r\n\r\n")
        return _answer(sock), sent
    finally:
        sock.close()


def test_an_upload_in_chunks_past_the_limit_is_refused_before_it_is_all_sent(address):
    answer, sent = _post_in_chunks(address, chunks=40)              # 2.6 MB: 13 times the limit
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert sent < 3 * LIMIT, f"{sent:,} bytes were sent before the answer came"
    assert f'"the request is over {LIMIT + 64 * 1024:,} bytes, the limit is {LIMIT:,} for an image"'.encode() \
        in answer, answer                                          # the API's one line, as any refusal


def test_an_upload_in_chunks_within_the_limit_is_read_as_any_other(address):
    answer, sent = _post_in_chunks(address, chunks=2)               # 128 KB of no image: read, refused as such
    assert answer.startswith(b"HTTP/1.1 415"), answer[:200]
    assert sent == 2 * CHUNK + len(b'--b0undary\r\nContent-Disposition: form-data; name="image"; '
                                   b'filename="t.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG')
