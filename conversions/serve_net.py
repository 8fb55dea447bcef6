"""The connection layer of `xsys serve`: how long a client may take to send a request, how
many connections are open at once, and what the server says about overload.

uvicorn's HTTP/1.1 protocol (h11) waits for a request head and body as long as the client
likes, and accepts every connection until the process runs out of file descriptors; then
asyncio's accept loop logs the error once per pending connection, again every second (a
flood of 'Too many open files' tracebacks) while the server answers no one. This module
gives every connection three bounds:

* idle (no byte of a next request): closed after ``keep_alive`` seconds; and, when the
  connection limit is reached, an idle connection is closed to make room for a new one;
* receiving a request: its head and body must arrive within ``request_timeout`` seconds of
  its first byte, else the answer is 408 and the connection is closed;
* open connections: at most ``max_connections`` (kept below the process's descriptor
  limit); a connection beyond them, with no idle one to close, gets 503 at once.

Overload (connections refused, requests not received in time, requests that are not HTTP,
the accept loop out of descriptors) is reported on stderr at most once per ``NOTICE_EVERY``
seconds, with counts."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import resource
import time
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

NOTICE_EVERY = 10.0  # seconds between two overload lines on stderr
LINGER = 1.0  # seconds an answer given before the whole body came is kept readable
LINGER_BYTES = 2 << 20  # bytes of such a body read (and dropped) at most before closing
IDLE_GRACE = 0.5  # seconds a connection must have been idle to be closed for a new one
RESERVED_FDS = 128  # descriptors kept for everything but client connections (workers' pipes, files)

log = logging.getLogger("xsys.serve")


def max_open(wanted: int) -> int:
    """The connections the process can hold: `wanted`, but never more than the descriptor
    limit leaves after RESERVED_FDS (the rest of the process needs some)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(8, min(wanted, soft - RESERVED_FDS))


def raise_fd_limit() -> None:
    """Lift the soft descriptor limit to the hard one (bounded): the connection limit follows it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
        except (ValueError, OSError):
            pass


# ---- overload, told once ---------------------------------------------------------------

class Notices:
    """Counts overload events and writes one line per NOTICE_EVERY seconds at most: the first
    event at once, the rest as counts when the period ends."""

    WHAT = {"refused": "connections refused (the limit of {limit} open connections was reached)",
            "slow": "requests not received within {timeout:g} s (closed with 408)",
            "accept": "times the accept loop ran out of file descriptors ({detail})",
            "budget": "requests over the {time_limit:g} s time budget (their conversion processes restarted)",
            "invalid": "requests that were not HTTP/1.1 or asked for an upgrade this server does not make"}

    def __init__(self, every: float = NOTICE_EVERY) -> None:
        self.every = every
        self.counts: dict[str, int] = {}
        self.info: dict[str, Any] = {}
        self.last = -1e9
        self.handle: asyncio.TimerHandle | None = None

    def note(self, kind: str, **info: Any) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1
        self.info.update(info)
        now = time.monotonic()
        if now - self.last >= self.every:
            self.flush()
        elif self.handle is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return
            self.handle = loop.call_later(self.last + self.every - now, self.flush)

    def flush(self) -> None:
        self.handle = None
        if not self.counts:
            return
        self.last = time.monotonic()
        parts = [f"{n} {self.WHAT[k].format(**self._fields())}" for k, n in sorted(self.counts.items())]
        self.counts = {}
        log.warning("xsys serve: overloaded: %s (told at most once per %g s)", "; ".join(parts), self.every)

    def _fields(self) -> dict[str, Any]:
        return {"limit": "?", "timeout": 0, "detail": "?", "time_limit": 0, **self.info}


NOTICES = Notices()


class AcceptErrorFilter(logging.Filter):
    """asyncio's accept loop, out of descriptors, logs a traceback per pending connection and
    again every second: the record is dropped and counted as one overload notice instead.
    (Each of those errors also schedules a retry; a retry that runs after the server closed
    its socket fails with an invalid descriptor, which is dropped too.)"""

    def filter(self, record: logging.LogRecord) -> bool:
        msg = str(record.msg)
        exc = record.exc_info[1] if record.exc_info else None
        if msg.startswith("socket.accept() out of system resource"):
            NOTICES.note("accept", detail=getattr(exc, "strerror", None) or "out of system resource")
            return False
        if "_start_serving" in msg and isinstance(exc, ValueError) and "Invalid file descriptor" in str(exc):
            return False
        return True


class BadRequestFilter(logging.Filter):
    """uvicorn warns once per request that is not HTTP or asks for an upgrade (a WebSocket):
    counted as overload notices instead (anyone can send many)."""

    PER_REQUEST = ("Invalid HTTP request received.", "Unsupported upgrade request.",
                   "No supported WebSocket library detected")

    def filter(self, record: logging.LogRecord) -> bool:
        msg = str(record.msg)
        if msg.startswith(self.PER_REQUEST):
            if not msg.startswith("No supported"):  # the second line of an upgrade's warning
                NOTICES.note("invalid")
            return False
        return True


def install_log_filter() -> None:
    for name, cls in (("asyncio", AcceptErrorFilter), ("uvicorn.error", BadRequestFilter)):
        logger = logging.getLogger(name)
        if not any(isinstance(f, cls) for f in logger.filters):
            logger.addFilter(cls())


# ---- the protocol ----------------------------------------------------------------------

def _raw(status: int, reason: str, error: str, retry_after: int | None = None) -> bytes:
    body = json.dumps({"error": error}).encode()
    extra = f"Retry-After: {retry_after}\r\n" if retry_after is not None else ""
    return (f"HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nConnection: close\r\n{extra}"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


class _Transport:
    """The connection's transport, with a lingering close: when the answer goes out before the
    client has sent its whole body (a 413, a 403), the server stops writing, reads and drops
    what still comes for up to LINGER seconds (LINGER_BYTES at most), then closes. Closing at once, with unread bytes,
    would send a reset that can destroy the answer before the client reads it."""

    def __init__(self, transport: asyncio.Transport, protocol: "Protocol") -> None:
        self._t = transport
        self._p = protocol
        self.lingering = False
        self.dropped = 0
        self._out: list[bytes] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._t, name)

    def write(self, data: bytes) -> None:
        """Written at the end of this turn of the event loop, with what else is written in
        it: an answer's head and body (written one after the other) leave in one send, not
        two (two segments, with TCP_NODELAY, and two wake-ups of the client)."""
        if not data:
            return
        if not self._out:
            self._p.loop.call_soon(self.flush)
        self._out.append(data)

    def flush(self) -> None:
        if self._out:
            data = self._out[0] if len(self._out) == 1 else b"".join(self._out)
            self._out = []
            if not self._t.is_closing():
                self._t.write(data)

    def get_write_buffer_size(self) -> int:
        return self._t.get_write_buffer_size() + sum(map(len, self._out))

    def is_closing(self) -> bool:
        return self.lingering or self._t.is_closing()

    def close(self) -> None:
        self.flush()
        if self.lingering or self._t.is_closing():
            self._t.close()
            return
        if self._p.conn.their_state is h11.SEND_BODY and self._t.can_write_eof():
            self.lingering = True
            self._p._cancel_timer()
            try:
                self._t.write_eof()
            except OSError:
                self._t.close()
                return
            self._t.resume_reading()
            self._p.loop.call_later(LINGER, self._t.close)
            return
        self._t.close()


def _drain(transport: asyncio.BaseTransport, most: int = 4) -> None:
    """Read (and drop) what a connection has received so far, without waiting."""
    sock = transport.get_extra_info("socket")
    if sock is None:
        return
    for _ in range(most):
        try:
            if not os.read(sock.fileno(), 65536):
                return
        except OSError:  # nothing more now (or the connection is gone)
            return


class Protocol(H11Protocol):
    """uvicorn's h11 protocol with the bounds of this module (set on a subclass by `protocol`)."""

    net: Any = None  # the server's serve.Limits (keep_alive, request_timeout, max_connections)
    cap: int = 1000

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._timer: asyncio.TimerHandle | None = None
        self._refused = False
        self._idle_since = time.monotonic()

    # -- connections
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        if len(self.connections) >= self.cap and not self._close_an_idle_one():
            # refused: 503 at once, and closed. What the client has sent so far is read first:
            # closing with it unread would reset the connection, and the client could lose
            # the answer
            self._refused = True
            NOTICES.note("refused", limit=self.cap)
            transport.write(_raw(503, "Service Unavailable",
                                 f"server busy: {self.cap} connections are open, the most it keeps "
                                 f"(try again in a moment)", retry_after=1))
            _drain(transport)
            transport.close()
            return
        wrapped = _Transport(transport, self)
        super().connection_made(wrapped)  # type: ignore[arg-type]
        # a new connection is idle until its first byte: closed after keep_alive like any other
        self.timeout_keep_alive_task = self.loop.call_later(self.timeout_keep_alive, self.timeout_keep_alive_handler)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._refused:
            return
        self._cancel_timer()
        super().connection_lost(exc)

    def _idle(self, now: float) -> bool:
        """Idle for a while (not just opened, its request perhaps on the way)."""
        return (now - self._idle_since >= IDLE_GRACE and (self.cycle is None or self.cycle.response_complete)
                and self.conn.their_state is h11.IDLE and not self.conn.trailing_data[0]
                and self.transport is not None and not self.transport.is_closing())

    def _close_an_idle_one(self) -> bool:
        now = time.monotonic()
        idle = [c for c in self.connections if isinstance(c, Protocol) and c._idle(now)]
        if not idle:
            return False
        oldest = min(idle, key=lambda c: c._idle_since)
        oldest.timeout_keep_alive_handler()
        oldest.connections.discard(oldest)  # its slot is free now, not when the close completes
        return True

    # -- reading
    def data_received(self, data: bytes) -> None:
        if isinstance(self.transport, _Transport) and self.transport.lingering:
            # the answer is out; what still comes of the body is dropped, up to a bound
            self.transport.dropped += len(data)
            if self.transport.dropped > LINGER_BYTES:
                self._close_now()
            return
        super().data_received(data)
        self._update()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._idle_since = time.monotonic()
        self._update()

    def _update(self) -> None:
        """Arm the request timer while a request is arriving (from its first byte until the
        client has sent all of it); disarm it once all of it is here."""
        their = self.conn.their_state
        arriving = their is h11.SEND_BODY or (their is h11.IDLE and bool(self.conn.trailing_data[0]))
        if not arriving:
            self._cancel_timer()
        elif self._timer is None:
            self._timer = self.loop.call_later(self.net.request_timeout, self._too_slow)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _too_slow(self) -> None:
        self._timer = None
        if self.transport.is_closing():
            return
        cycle = self.cycle
        if cycle is not None and cycle.response_complete:  # answered; the rest of its body did not come
            self._close_now()
            return
        if cycle is not None:
            if cycle.response_started:
                self.transport.close()
                return
            # the application waits for the body: it is told the client went away, and its
            # answer (if any) is not written (the 408 below is)
            cycle.disconnected = True
            cycle.message_event.set()
        NOTICES.note("slow", timeout=self.net.request_timeout)
        self.transport.write(_raw(408, "Request Timeout",
                                  f"request: not received in time (expected the whole request within "
                                  f"{self.net.request_timeout:g} s of its first byte)"))
        self._close_now()

    def _close_now(self) -> None:
        t = self.transport
        if isinstance(t, _Transport):
            t.flush()  # what was written goes first (a 408)
            t = t._t
        t.close()

    def shutdown(self) -> None:
        if isinstance(self.transport, _Transport) and self.transport.lingering:
            self._close_now()
            return
        super().shutdown()


ACCEPT_BURST = 16  # connections asyncio accepts per turn of the event loop
LISTEN_BACKLOG = 2048  # connections the kernel queues before the server accepts them


class Server:
    """Made by `server`: a uvicorn Server whose listening sockets keep a long kernel queue."""


def server(config: Any) -> Any:
    """A uvicorn Server for `config`. asyncio takes one number for two things: the kernel's
    queue of connections not yet accepted (listen), and how many it accepts in one turn of
    the event loop before any of them is looked at. A turn that accepts a burst of 2,048
    connections can run out of descriptors before the connection limit refuses any; so the
    turn takes ACCEPT_BURST, and once the server listens the queue is set back to
    LISTEN_BACKLOG (200 clients connecting at once must not find it full)."""
    import uvicorn

    class _Server(uvicorn.Server, Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets=sockets)
            for sock in sockets or ():
                try:
                    sock.listen(LISTEN_BACKLOG)
                except OSError:
                    pass

    return _Server(config)


def protocol(limits: Any) -> type[Protocol]:
    """The protocol class for a server with these bounds (a serve.Limits)."""
    return type("XsysProtocol", (Protocol,), {"net": limits, "cap": max_open(limits.max_connections)})


def server_config(app: Any, limits: Any, **kwargs: Any) -> Any:
    """The uvicorn configuration `xsys serve` runs with (the tests and the benchmark use it
    too): the protocol of this module, uvicorn's keep-alive timeout, a short graceful stop."""
    import uvicorn

    kwargs.setdefault("log_level", "warning")
    # nothing reads the client's address, and the origin check reads X-Forwarded-Host
    # itself (serve.refusal): uvicorn's rewriting of it is a layer less on every request
    kwargs.setdefault("proxy_headers", False)
    config = uvicorn.Config(app, http=protocol(limits), timeout_keep_alive=limits.keep_alive,  # type: ignore[arg-type]
                            backlog=ACCEPT_BURST, lifespan="on", timeout_graceful_shutdown=3, access_log=False,
                            **kwargs)
    install_log_filter()  # after uvicorn has configured its loggers
    return config
