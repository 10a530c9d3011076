"""A TCP proxy a test can cut and mend: the network between a table and the parlour's database."""

from __future__ import annotations

import socket
import threading


class Proxy:
    """Forwards 127.0.0.1:``port`` to ``target`` until ``cut()`` (every connection dropped, new ones
    refused); ``mend()`` listens on the same port again."""

    def __init__(self, target: tuple[str, int]):
        self.target, self.port, self._links = target, 0, []
        self.mend()

    def mend(self) -> None:
        self._listener = socket.socket()
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", self.port))
        self._listener.listen()
        self.port = self._listener.getsockname()[1]
        threading.Thread(target=self._accept, args=(self._listener,), daemon=True).start()

    def cut(self) -> None:
        _close(self._listener, shut=True)          # shut first: a blocked accept() returns
        for s in self._links:
            _close(s, shut=True)
        self._links = []

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                near, _ = listener.accept()
                far = socket.create_connection(self.target)
            except OSError:
                return
            self._links += [near, far]
            for a, b in ((near, far), (far, near)):
                threading.Thread(target=_pipe, args=(a, b), daemon=True).start()


def _pipe(a: socket.socket, b: socket.socket) -> None:
    try:
        while data := a.recv(65536):
            b.sendall(data)
    except OSError:
        pass
    finally:
        _close(a)
        _close(b)


def _close(s: socket.socket, shut: bool = False) -> None:
    try:
        if shut:
            s.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    s.close()
