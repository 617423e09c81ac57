"""One request's total deadline and its cancel, enforced at its socket.

httpx's timeouts bound each read, not the request: a server that sends `100 Continue`
every 2 s, or drips its headers a byte at a time, never trips a read timeout. So each
attempt is watched: httpx's `trace` extension hands over the request's socket when it
connects (and again once TLS is up), and a watchdog thread shuts that socket down when
the attempt's deadline passes or its run is cancelled. A read or write blocked on the
socket then returns at once, wherever the request is (sending, the headers, the
body); the sender reports a timeout or a cancel. The deadline is what is left of the
request's timeout when the attempt starts (client.py): connecting, sending and the
whole answer, headers included, fit in it.

Connections are not kept alive (client.py), so every attempt opens the socket it is
watched by. Before a connection exists (a name being resolved, a connect under way)
there is no socket to shut: the connect timeout bounds that part, and a cancelled
run does not wait for it (run.py leaves such a worker behind).

With `loopback_only` (a key about to go over plain http), the socket must be connected
to a loopback address: the name was resolved to one when the key was checked, and is
checked again where it connected (a name that resolves differently a second time, or
a proxy in between, gets nothing).
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

from .endpoints import loopback_address

TICK = 0.05  # seconds between the watchdog's looks at the requests in flight
IDLE = 5.0  # seconds the watchdog thread waits with nothing to watch before it ends


class Expired(Exception):
    """The attempt's deadline passed."""


class CancelledHere(Exception):
    """The attempt's run was cancelled."""


class NotLoopback(Exception):
    """The connection of a plain-http request carrying a key is not to this machine."""


class Watch:
    """One attempt: its deadline (time.monotonic()), the cancel of its run, its sockets,
    and why they were shut ("" while they are not)."""

    def __init__(
        self,
        seconds: float,
        cancel: threading.Event | None,
        loopback_only: bool = False,
    ) -> None:
        self.deadline = time.monotonic() + seconds
        self.cancel = cancel
        self.loopback_only = loopback_only
        self.sockets: list[socket.socket] = []
        self.ended = ""  # "deadline" or "cancel" once the sockets are shut
        self.lock = threading.Lock()

    def trace(self, name: str, info: dict[str, Any]) -> None:
        """httpx's `trace` extension: called at each step of the request. It raises only
        NotLoopback (before anything is sent): a deadline or a cancel shuts the socket,
        and httpcore's own error follows, its clean-up intact."""
        if name.endswith((".connect_tcp.complete", ".start_tls.complete")):
            stream = info.get("return_value")
            sock = stream.get_extra_info("socket") if stream is not None else None
            if isinstance(sock, socket.socket):
                self._add(sock, check_peer=name.endswith(".connect_tcp.complete"))
        self.check(time.monotonic())

    def _add(self, sock: socket.socket, check_peer: bool) -> None:
        if check_peer and self.loopback_only:
            try:
                peer = str(sock.getpeername()[0])
            except (OSError, IndexError, TypeError):
                peer = "?"
            if not loopback_address(peer):
                _shut(sock)
                sock.close()  # httpcore drops the connection without closing it
                raise NotLoopback(peer)
        with self.lock:
            self.sockets.append(sock)
            ended = self.ended
        if ended:
            _shut(sock)

    def check(self, now: float) -> None:
        """Shut the sockets if the deadline passed or the run was cancelled."""
        if self.cancel is not None and self.cancel.is_set():
            self.end("cancel")
        elif now >= self.deadline:
            self.end("deadline")

    def end(self, why: str) -> None:
        with self.lock:
            if self.ended:
                return
            self.ended = why
            sockets = list(self.sockets)
        for sock in sockets:
            _shut(sock)

    def raise_if_ended(self) -> None:
        if self.ended == "cancel":
            raise CancelledHere()
        if self.ended == "deadline":
            raise Expired()


def _shut(sock: socket.socket) -> None:
    """Shut a socket down for both directions (what blocks on it returns), leaving its
    closing to its owner. For a TLS socket, the plain socket's shutdown: the TLS layer
    is left as it is, for the thread reading it."""
    with contextlib.suppress(OSError, ValueError):
        socket.socket.shutdown(sock, socket.SHUT_RDWR)


class _Watchdog:
    """One daemon thread that looks at every attempt in flight each TICK."""

    def __init__(self) -> None:
        self.condition = threading.Condition()
        self.watches: set[Watch] = set()
        self.thread: threading.Thread | None = None

    def add(self, watch: Watch) -> None:
        with self.condition:
            self.watches.add(watch)
            if self.thread is None:
                self.thread = threading.Thread(
                    target=self._run, name="skillstudio-live-deadlines", daemon=True
                )
                self.thread.start()
            self.condition.notify()

    def discard(self, watch: Watch) -> None:
        with self.condition:
            self.watches.discard(watch)

    def _run(self) -> None:
        while True:
            with self.condition:
                if not self.watches:
                    self.condition.wait(IDLE)
                    if not self.watches:
                        self.thread = None
                        return
                watches = list(self.watches)
            now = time.monotonic()
            for watch in watches:
                watch.check(now)
            time.sleep(TICK)


_WATCHDOG = _Watchdog()


@contextlib.contextmanager
def watching(
    seconds: float, cancel: threading.Event | None, loopback_only: bool = False
) -> Iterator[Watch]:
    """A Watch for one attempt of at most `seconds`, looked at by the watchdog while the
    block runs."""
    watch = Watch(seconds, cancel, loopback_only)
    _WATCHDOG.add(watch)
    try:
        yield watch
    finally:
        _WATCHDOG.discard(watch)
