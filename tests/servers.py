"""Test servers (HTTP receivers, the LTI platform, SMTP, the web app) answering from a
thread of the test process."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from socketserver import BaseServer
from typing import TypeVar

POLL_SECONDS = 0.02
"""How often a serving thread looks for the stop: ``shutdown`` waits up to this long
(socketserver's default, half a second, was half a second of every such test)."""

S = TypeVar("S", bound=BaseServer)


def start(server: BaseServer) -> None:
    """``server`` answering in a daemon thread until :func:`stop`."""
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": POLL_SECONDS}, daemon=True
    )
    thread.start()


def stop(server: BaseServer) -> None:
    server.shutdown()
    server.server_close()


@contextmanager
def running(server: S) -> Iterator[S]:
    """``server`` answering while the block runs."""
    start(server)
    try:
        yield server
    finally:
        stop(server)
