"""`xsys serve --workers N` (N >= 2, where the system can fork; XSYS_SERVE_PREFORK=0 turns it
off): a pre-fork server.

The parent process (the supervisor) owns the listening socket, forks N conversion processes
(workers), starts a new one when one ends, kills one whose request has run past the time
budget without its watchdog ending it, and reports overload on stderr at most once per
serve_net.NOTICE_EVERY seconds. It answers no request itself.

Each worker accepts connections on the shared socket, reads HTTP/1.1 with h11 and answers:
the conversion endpoints (POST /api/convert, /api/odds, /api/curve) directly, with the checks
and error lines of serve.ApiFront (Host, origin, JSON content type, size read within the limit,
nesting); every other route through the same Litestar app `xsys serve --workers 1` runs (the
page, /api/systems, /api/schema, the OpenAPI document). A request costs one process one
conversion plus its HTTP, with no front process and no pipes in its path.

The bounds of serve_net hold here too: an idle connection is closed after ``keep_alive``
seconds, a request must arrive within ``request_timeout`` seconds of its first byte (else 408),
the open connections of all workers together are at most ``max_connections`` (an idle one is
closed to make room, else 503 at once).

Fairness. A worker converting does not accept: the kernel gives new connections to the workers
waiting in accept. A worker's idle keep-alive connections are not left behind while it converts
a long request: its watchdog thread, once the request has run HAND_OFF seconds, passes each
idle connection (its descriptor, over a Unix socket all workers share) to whichever worker is
free, which serves it from then on. Nothing is lost by that: a connection is passed only
between requests (no byte of a next request read yet), and what the client sends meanwhile
waits in the kernel for the new owner.

The time budget. A watchdog thread in each worker ends a request that runs past
``time_limit``: it writes the time-limit error (503) to that client and ends the process; the
supervisor starts another. A worker whose watchdog cannot run (a conversion stuck in C code
holding the interpreter lock) is killed by the supervisor BUDGET_GRACE seconds later; its
client's connection is then closed without an answer."""

from __future__ import annotations

import asyncio
import errno
import gc
import logging
import mmap
import multiprocessing
import os
import select
import selectors
import signal
import socket
import struct
import threading
import time
from http import HTTPStatus
from typing import Any, Callable

import h11
import msgspec

from ..core.errors import InputError, XsysError
from . import serve, serve_net

HAND_OFF = 1.0  # seconds a request runs before its worker passes its idle connections on
BUDGET_GRACE = 2.0  # seconds past the budget before the supervisor kills a worker itself
CHECK_EVERY = 0.2  # seconds between two looks of the supervisor at its workers
PARENT_CHECK = 1.0  # seconds between two looks of a worker at whether its supervisor still runs
WAIT_POLL = 0.02  # seconds between two looks for a free slot by a long request set aside
RESPAWN_DELAY = 0.5  # seconds before a worker that failed at once is started again
READ = 65536

log = logging.getLogger("xsys.serve")

# one slot of shared memory per worker: its pid, when its current request started (0: none),
# its open connections, and counters of overload events the supervisor reports
_SLOT = struct.Struct("qdqq4q")
_COUNTERS = ("refused", "slow", "budget", "invalid")


def available() -> bool:
    """Whether this system can run the pre-fork server (fork, and descriptors passed over Unix sockets)."""
    return hasattr(os, "fork") and hasattr(socket, "send_fds") and hasattr(socket, "AF_UNIX")


PREFORK_ENV = "XSYS_SERVE_PREFORK"


def wanted(workers: int) -> bool:
    """Whether `--workers N` runs this server: N of 2 or more, where the system can run it,
    unless XSYS_SERVE_PREFORK=0 asks for the front and its pool of conversion processes
    (the design `--workers 1` runs). It delivers more of what the machine can (docs/benchmarks.md:
    served / (in process x workers) 0.86 against the front's 0.71, measured together)."""
    return workers >= 2 and available() and os.environ.get(PREFORK_ENV, "1").strip() != "0"


class Slots:
    """The workers' shared memory (anonymous, made before the fork: every process sees it)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.mem = mmap.mmap(-1, _SLOT.size * n)

    def get(self, i: int) -> tuple[Any, ...]:
        return _SLOT.unpack_from(self.mem, i * _SLOT.size)

    def set(self, i: int, **kw: Any) -> None:
        pid, started, open_, long_, *counts = self.get(i)
        vals = {"pid": pid, "started": started, "open": open_, "long": long_, **dict(zip(_COUNTERS, counts))}
        vals.update(kw)
        _SLOT.pack_into(self.mem, i * _SLOT.size, vals["pid"], vals["started"], vals["open"], vals["long"],
                        *(vals[k] for k in _COUNTERS))

    def count(self, i: int, kind: str) -> None:
        self.set(i, **{kind: self.get(i)[4 + _COUNTERS.index(kind)] + 1})

    def open_total(self) -> int:
        return sum(self.get(i)[2] for i in range(self.n))

    def totals(self) -> dict[str, int]:
        out = dict.fromkeys(_COUNTERS, 0)
        for i in range(self.n):
            for k, v in zip(_COUNTERS, self.get(i)[4:]):
                out[k] += v
        return out


# ---- answers ----------------------------------------------------------------------------------

def _head(status: int, headers: list[tuple[bytes, bytes]]) -> h11.Response:
    try:
        reason = HTTPStatus(status).phrase.encode()
    except ValueError:
        reason = b""
    return h11.Response(status_code=status, headers=headers, reason=reason)


def _json_headers(body: bytes, extra: list[tuple[bytes, bytes]] = ()) -> list[tuple[bytes, bytes]]:  # type: ignore[assignment]
    return [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
            *serve._SECURITY_RAW, *extra]


def budget_line(limits: serve.Limits, took: float, waited: float = 0.0) -> str:
    if waited and not took:
        found = f"{waited:.1f} s waiting for a conversion process (the server is busy)"
    elif waited >= 0.05:
        found = f"{waited:.1f} s waiting for a conversion process, then {took:.1f} s converting"
    else:
        found = f"{took:.1f} s converting"
    return InputError("over the time budget", file="request",
                      expected=f"an answer within {limits.time_limit:g} s, the limit of this server "
                               f"({serve.TIME_LIMIT_ENV}; the CLI has none)", found=found).line()


class Conn:
    """One client connection of a worker."""

    __slots__ = ("sock", "h", "body", "size", "refused", "since", "timer", "linger_until", "dropped",
                 "handed", "request", "skip")

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.h = h11.Connection(h11.SERVER)
        self.body: list[bytes] = []
        self.size = 0
        self.refused = False  # answered before its body was read: the rest is dropped
        self.since = time.monotonic()  # idle since (no request arriving, none running)
        self.timer: float | None = None  # when the request arriving must be here by
        self.linger_until: float | None = None
        self.dropped = 0
        self.handed = False
        self.request: h11.Request | None = None
        self.skip = False  # the request's body is read and dropped (refused, or too large)

    def idle(self) -> bool:
        return (self.h.their_state is h11.IDLE and self.h.our_state is h11.IDLE and not self.h.trailing_data[0]
                and self.linger_until is None and not self.handed)


class Worker:
    """The loop of one conversion process (see the module's docstring)."""

    def __init__(self, index: int, listener: socket.socket, hand: tuple[socket.socket, socket.socket],
                 slots: Slots, limits: serve.Limits, hosts: list[str] | None, app: Any, long_slots: Any) -> None:
        self.index, self.listener, self.slots, self.limits = index, listener, slots, limits
        self.hand_in, self.hand_out = hand
        self.app = app
        self.parent = os.getppid()
        self.loop = asyncio.new_event_loop()
        self.limit = serve.body_limit()
        self.hosts = frozenset(h.lower().encode("latin-1") for h in hosts) if hosts else None
        self.cap = serve_net.max_open(limits.max_connections)
        self.sel = selectors.DefaultSelector()
        self.conns: dict[int, Conn] = {}
        self.lock = threading.Lock()  # the connections, between this loop and the watchdog
        self.current: Conn | None = None  # the connection whose request is running
        self.started = 0.0  # when the running request was read (its budget counts from then)
        self.converting_since = 0.0
        self.answered = False
        self.waiting: list[tuple[Conn, bytes, Any, float]] = []  # long requests waiting for a slot
        self.long_slots = long_slots  # the running request's answer is written (or being written)
        self.cond = threading.Condition(self.lock)
        # the runtime ApiFront's checks read (bodies in memory: one at a time here)
        self.rt = serve.Runtime(limits)
        self.memory = limits.body_memory or 8 * self.limit

    # -- the watchdog --------------------------------------------------------------------------
    def watchdog(self) -> None:
        handed_for = 0.0
        with self.cond:
            while True:
                if self.current is None:
                    self.cond.wait()
                    continue
                now = time.monotonic()
                end = self.started + self.limits.time_limit
                if now >= end and not self.answered:
                    self._over_budget(now)
                    return
                if now >= self.started + HAND_OFF and handed_for != self.started:
                    handed_for = self.started
                    self._hand_off_idle()
                nxt = end if handed_for == self.started else min(end, self.started + HAND_OFF)
                self.cond.wait(max(0.01, nxt - now))

    def _over_budget(self, now: float) -> None:
        conn = self.current
        self.slots.count(self.index, "budget")
        if conn is not None:
            body = serve.error_body(budget_line(self.limits, now - self.converting_since,
                                                self.converting_since - self.started))
            head = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nconnection: close\r\n"
                    + b"".join(k + b": " + v + b"\r\n" for k, v in serve._SECURITY_RAW)
                    + f"content-length: {len(body)}\r\n\r\n".encode())
            try:
                conn.sock.settimeout(2.0)
                conn.sock.sendall(head + body)
                conn.sock.shutdown(socket.SHUT_WR)
            except OSError:
                pass
        self._hand_off_idle()
        os._exit(3)

    def _hand_off_idle(self) -> None:
        """Pass this worker's idle connections to the others (the lock held)."""
        for c in list(self.conns.values()):
            if c is self.current or not c.idle():
                continue
            try:
                socket.send_fds(self.hand_out, [b"c"], [c.sock.fileno()], socket.MSG_DONTWAIT)
            except OSError:  # the others' queue is full: the connection stays here
                return
            c.handed = True

    # -- the loop ------------------------------------------------------------------------------
    def run(self) -> None:
        threading.Thread(target=self.watchdog, name="xsys-serve-watchdog", daemon=True).start()
        self.sel.register(self.listener, selectors.EVENT_READ, "accept")
        self.sel.register(self.hand_in, selectors.EVENT_READ, "hand")
        pending: list[Conn] = []
        while True:
            if os.getppid() != self.parent:  # the supervisor is gone (killed): so is its server
                os._exit(0)
            timeout = 0.0 if pending else self._next_timer()
            timeout = PARENT_CHECK if timeout is None else min(timeout, PARENT_CHECK)
            if self.waiting:
                timeout = WAIT_POLL if timeout is None else min(timeout, WAIT_POLL)
            ready = pending
            pending = []
            accept = adopt = False
            for key, _ in self.sel.select(timeout):
                if key.data == "accept":
                    accept = True
                elif key.data == "hand":
                    adopt = True
                else:
                    ready.append(key.data)
            # connections are taken on a turn with no request of this process's own to answer
            # (a process about to convert leaves new connections to the others) and, when every
            # process has requests to answer (the server saturated), by one holding no more than
            # the processes' average: every waiting one up to that share, else a connection would
            # wait in the kernel's queue for as long as the others keep their processes busy
            if not ready and adopt:
                self._adopt()
            elif accept:
                while self._accept(fair=bool(ready)):
                    pass
            for c in ready:
                if c.sock.fileno() < 0 or c.handed:
                    continue
                if self._serve(c):  # one request answered: its next one (pipelined) waits a turn
                    pending.append(c)
                self._drop_handed()
            if self.waiting:
                self._waiting()
                self._drop_handed()
            self._timers()

    def _next_timer(self) -> float | None:
        now = time.monotonic()
        soonest = None
        for c in self.conns.values():
            t = c.linger_until or c.timer or (c.since + self.limits.keep_alive if c.idle() else None)
            if t is not None and (soonest is None or t < soonest):
                soonest = t
        return None if soonest is None else max(0.0, soonest - now)

    def _timers(self) -> None:
        now = time.monotonic()
        for c in list(self.conns.values()):
            if c.linger_until is not None:
                if now >= c.linger_until:
                    self._close(c)
            elif c.timer is not None and now >= c.timer:
                self.slots.count(self.index, "slow")
                t = self.limits.request_timeout
                self._send_raw(c, 408, "Request Timeout", "request: not received in time (expected the whole "
                               f"request within {t:g} s of its first byte)")
                self._close(c)
            elif c.idle() and now >= c.since + self.limits.keep_alive:
                self._close(c)

    def _count_open(self) -> None:
        self.slots.set(self.index, open=len(self.conns))

    def _add(self, sock: socket.socket) -> None:
        sock.setblocking(False)
        c = Conn(sock)
        with self.lock:
            self.conns[sock.fileno()] = c
        self.sel.register(sock, selectors.EVENT_READ, c)
        self._count_open()

    def _accept(self, fair: bool = False) -> bool:
        """Take one waiting connection; True if another may be taken on this turn (with `fair`,
        while this process holds no more connections than the processes' average)."""
        if fair and len(self.conns) * self.slots.n > self.slots.open_total():
            return False
        try:
            sock, _ = self.listener.accept()
        except BlockingIOError:  # another worker took it, or none waits
            return False
        except OSError as exc:
            if exc.errno in (errno.EMFILE, errno.ENFILE):
                time.sleep(0.05)
            return False
        if self.slots.open_total() >= self.cap and not self._close_an_idle_one():
            self.slots.count(self.index, "refused")
            sock.setblocking(False)
            try:
                sock.send(serve_net._raw(503, "Service Unavailable",
                                         f"server busy: {self.cap} connections are open, the most it keeps "
                                         f"(try again in a moment)", retry_after=1))
                serve_net._drain(_Fake(sock))
            except OSError:
                pass
            sock.close()
            return False
        self._add(sock)
        return fair

    def _close_an_idle_one(self) -> bool:
        now = time.monotonic()
        idle = [c for c in self.conns.values() if c.idle() and now - c.since >= serve_net.IDLE_GRACE]
        if not idle:
            return False
        self._close(min(idle, key=lambda c: c.since))
        return True

    def _adopt(self) -> None:
        try:
            _, fds, _, _ = socket.recv_fds(self.hand_in, 16, 1, socket.MSG_DONTWAIT)
        except OSError:  # another worker took it
            return
        for fd in fds:
            self._add(socket.socket(fileno=fd))

    def _drop_handed(self) -> None:
        with self.lock:
            gone = [c for c in self.conns.values() if c.handed]
        for c in gone:
            self._close(c)

    def _close(self, c: Conn) -> None:
        with self.lock:
            self.conns.pop(c.sock.fileno(), None)
        try:
            self.sel.unregister(c.sock)
        except (KeyError, ValueError):
            pass
        c.sock.close()
        self._count_open()

    # -- one connection's turn -----------------------------------------------------------------
    def _serve(self, c: Conn) -> bool:
        """Read what has come and answer at most one request; True if a next request is
        already here (pipelined), to be served on a later turn."""
        try:
            data: bytes | None = c.sock.recv(READ)
        except BlockingIOError:  # a turn for a request already read (pipelined)
            data = None
        except OSError:
            self._close(c)
            return False
        if c.linger_until is not None:  # answered: what still comes is dropped
            c.dropped += len(data or b"")
            if data == b"" or c.dropped > serve_net.LINGER_BYTES:
                self._close(c)
            return False
        if data is not None:
            c.h.receive_data(data)
        while True:
            try:
                event = c.h.next_event()
            except h11.RemoteProtocolError as exc:
                self.slots.count(self.index, "invalid")
                status = exc.error_status_hint or 400
                self._send_raw(c, status, "Bad Request", InputError(
                    "not an HTTP/1.1 request this server reads", file="request", found=str(exc)[:60]).line())
                self._close(c)
                return False
            if event is h11.NEED_DATA:
                break
            if isinstance(event, h11.ConnectionClosed):
                self._close(c)
                return False
            if event is h11.PAUSED:
                break
            if isinstance(event, h11.Request):
                c.request, c.body, c.size, c.skip = event, [], 0, False
                self._check(c, event)
                if c.linger_until is not None or c.sock.fileno() < 0:
                    return False
            elif isinstance(event, h11.Data):
                if not c.skip:
                    c.size += len(event.data)
                    if c.size > self.limit:
                        self._refuse(c, 413, serve.too_large_line(self.limit))
                        return False
                    c.body.append(event.data)
            elif isinstance(event, h11.EndOfMessage):
                c.timer = None
                self._answer(c)
                if any(w[0] is c for w in self.waiting):  # set aside until a slot for long requests is free
                    return False
                if c.sock.fileno() < 0 or c.linger_until is not None:
                    return False
                if c.h.our_state is h11.DONE and c.h.their_state is h11.DONE:
                    c.h.start_next_cycle()
                    c.since = time.monotonic()
                    return bool(c.h.trailing_data[0])
                self._close(c)
                return False
        # a request is arriving: it must be here within request_timeout of its first byte
        arriving = c.h.their_state is h11.SEND_BODY or (c.h.their_state is h11.IDLE and bool(c.h.trailing_data[0]))
        if arriving and c.timer is None:
            c.timer = time.monotonic() + self.limits.request_timeout
        elif not arriving:
            c.timer = None
        if c.h.their_state is h11.MUST_CLOSE or c.h.their_state is h11.CLOSED:
            self._close(c)
        return False

    def _check(self, c: Conn, req: h11.Request) -> None:
        """The checks made before a byte of the body is read (those of ApiFront)."""
        headers: dict[bytes, bytes] = {}
        for k, v in req.headers:
            headers.setdefault(k, v)
        if req.method == b"POST" and req.target in _API_TARGETS:
            if self.hosts is not None and (headers.get(b"host") or b"").lower() not in self.hosts:
                found = (headers.get(b"host") or b"").decode("latin-1")
                self._refuse(c, 400, InputError(
                    "not this server's name", file="request", path="Host",
                    expected="a name of this machine's loopback (127.0.0.1 or localhost, and the port)",
                    found=serve._cut(repr(found)) if found else "none").line())
                return
            refused, _ = serve.refusal(headers, self.limit, self.rt, self.memory)
            if refused is not None:
                status, line, extra = refused
                self._refuse(c, status, line, list(extra.items()))
                return
        elif req.method not in (b"GET", b"HEAD", b"OPTIONS"):
            # another route's body goes to the app, read within the limit like any other
            raw = headers.get(b"content-length")
            if raw is not None and raw.isdigit() and int(raw) > self.limit:
                self._refuse(c, 413, serve.too_large_line(self.limit))
                return
        if c.h.client_is_waiting_for_100_continue:
            self._write(c, c.h.send(h11.InformationalResponse(status_code=100, headers=[])))

    def _refuse(self, c: Conn, status: int, line: str, extra: list[tuple[bytes, bytes]] = ()) -> None:  # type: ignore[assignment]
        """An answer given before the body is read: written, then the connection lingers
        (what still comes is read and dropped) and closes."""
        body = serve.error_body(line)
        hs = _json_headers(body, [(b"connection", b"close"), *extra])
        try:
            self._write(c, c.h.send(_head(status, hs)) + c.h.send(h11.Data(data=body)) + c.h.send(h11.EndOfMessage()))
        except h11.LocalProtocolError:
            self._close(c)
            return
        self._linger(c)

    def _linger(self, c: Conn) -> None:
        try:
            c.sock.shutdown(socket.SHUT_WR)
        except OSError:
            self._close(c)
            return
        c.timer = None
        c.linger_until = time.monotonic() + serve_net.LINGER

    def _send_raw(self, c: Conn, status: int, reason: str, line: str) -> None:
        try:
            c.sock.send(serve_net._raw(status, reason, line))
        except OSError:
            pass

    def _write(self, c: Conn, data: bytes) -> None:
        """All of `data`, waiting for the client to read it up to request_timeout."""
        view = memoryview(data)
        deadline = time.monotonic() + self.limits.request_timeout
        while view:
            try:
                n = c.sock.send(view)
                view = view[n:]
            except BlockingIOError:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise OSError(errno.ETIMEDOUT, "the client did not read its answer") from None
                select.select([], [c.sock], [], left)

    # -- a complete request ----------------------------------------------------------------------
    def _answer(self, c: Conn) -> None:
        req = c.request
        assert req is not None
        body = c.body[0] if len(c.body) == 1 else b"".join(c.body)
        c.body = []
        if not (req.method == b"POST" and req.target in _API_TARGETS):
            self._run(c, lambda: self._app(req, body))
            return
        kind, typ = serve.API_KINDS[req.target.decode()]
        try:
            decoded = serve.decode_request(body, typ)
        except XsysError as exc:
            line = serve.error_body(serve.short_line(exc.line()))
            self._run(c, lambda: (400, line, _json_headers(line), True))
            return
        except Exception as exc:  # the traceback to the server's terminal, one line to the client
            log.error("internal error", exc_info=exc)
            line = serve.error_body(serve.internal_line(exc))
            self._run(c, lambda: (500, line, _json_headers(line), True))
            return
        del body
        if self.rt.heavy(decoded):
            if not self.long_slots.acquire(False):
                # every process but one may convert long requests at once: this one waits
                # (its connection set aside) while the process goes on taking others
                self.waiting.append((c, kind, decoded, time.monotonic()))
                self.sel.unregister(c.sock)
                return
            self._run_long(c, kind, decoded, time.monotonic())
            return
        self._run(c, lambda: self._convert(kind, decoded))

    def _run_long(self, c: Conn, kind: bytes, decoded: Any, t0: float) -> None:
        self.slots.set(self.index, long=1)
        try:
            self._run(c, lambda: self._convert(kind, decoded), t0)
        finally:
            self.slots.set(self.index, long=0)
            self.long_slots.release()

    def _waiting(self) -> None:
        """The long requests set aside: converted once a slot is free (and no request of a
        connection of this process is waiting to be read: a quick one is not held up by a long
        one that has waited anyway), or ended at the budget."""
        now = time.monotonic()
        quick_first = any(key.data not in ("accept", "hand") for key, _ in self.sel.select(0))
        for item in list(self.waiting):
            c, kind, decoded, t0 = item
            if now - t0 >= self.limits.time_limit:
                self.waiting.remove(item)
                self.slots.count(self.index, "budget")
                line = budget_line(self.limits, 0.0, now - t0)
                body = serve.error_body(line)
                self._run(c, lambda: (503, body, _json_headers(body, [(b"retry-after", b"5")]), True), now)
            elif not quick_first and self.long_slots.acquire(False):
                self.waiting.remove(item)
                self._run_long(c, kind, decoded, t0)
            else:
                continue
            if c.sock.fileno() >= 0:
                self.sel.register(c.sock, selectors.EVENT_READ, c)
                if c.h.our_state is h11.DONE and c.h.their_state is h11.DONE:
                    c.h.start_next_cycle()
                    c.since = time.monotonic()
                else:
                    self._close(c)

    def _run(self, c: Conn, fn: Callable[[], tuple[int, bytes, list[tuple[bytes, bytes]], bool]],
             t0: float | None = None) -> None:
        """One request answered, under the watchdog (its budget counted from t0, when it was read)."""
        req = c.request
        assert req is not None
        with self.cond:
            self.current, self.answered = c, False
            self.started = t0 if t0 is not None else time.monotonic()
            self.converting_since = time.monotonic()
            self.cond.notify()
        self.slots.set(self.index, started=self.started)
        try:
            status, payload, headers, keep = fn()
            with self.lock:
                self.answered = True
            if not keep:
                headers = [*headers, (b"connection", b"close")]
            out = c.h.send(_head(status, headers))
            if payload and req.method != b"HEAD":
                out += c.h.send(h11.Data(data=payload))
            out += c.h.send(h11.EndOfMessage())
            self._write(c, out)
            serve.save_learnt()
        except OSError:
            self._close(c)
        except h11.LocalProtocolError:
            self._close(c)
        finally:
            with self.cond:
                self.current = None
            self.slots.set(self.index, started=0.0)

    def _convert(self, kind: bytes, req: Any) -> tuple[int, bytes, list[tuple[bytes, bytes]], bool]:
        try:
            payload, status = msgspec.json.encode(serve.KINDS[kind][1](req)), 200
        except XsysError as exc:
            payload, status = serve.error_body(serve.client_line(exc)), serve.status_of(exc)
        except Exception as exc:  # the traceback to the server's terminal, one line to the client
            log.error("internal error", exc_info=exc)
            payload, status = serve.error_body(serve.internal_line(exc)), 500
        return status, payload, _json_headers(payload), True

    def _app(self, req: h11.Request, body: bytes) -> tuple[int, bytes, list[tuple[bytes, bytes]], bool]:
        """Any other route, through the Litestar app (one call on this process's event loop)."""
        path, _, query = req.target.partition(b"?")
        scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
                 "method": req.method.decode("latin-1"), "scheme": "http", "path": path.decode("latin-1"),
                 "raw_path": path, "query_string": query, "root_path": "",
                 "headers": [(k.lower(), v) for k, v in req.headers], "client": None, "server": None,
                 "state": {}}
        sent: dict[str, Any] = {"status": 500, "headers": [], "body": []}
        given = False

        async def receive() -> dict[str, Any]:
            nonlocal given
            if given:
                await asyncio.sleep(3600)
            given = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                sent["status"] = message["status"]
                sent["headers"] = list(message.get("headers", []))
            elif message["type"] == "http.response.body":
                sent["body"].append(message.get("body", b""))

        self.loop.run_until_complete(self.app(scope, receive, send))
        headers = [(k, v) for k, v in sent["headers"] if k.lower() not in (b"content-length", b"transfer-encoding")]
        keep = not any(k.lower() == b"connection" and v.lower() == b"close" for k, v in headers)
        headers = [(k, v) for k, v in headers if k.lower() != b"connection"]
        payload = b"".join(sent["body"])
        headers.append((b"content-length", str(len(payload)).encode()))
        return sent["status"], payload, headers, keep


_API_TARGETS = {k.encode(): v for k, v in serve.API_KINDS.items()}


class _Fake:
    """What serve_net._drain needs of a transport."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def get_extra_info(self, name: str) -> Any:
        return self.sock


# ---- the supervisor ------------------------------------------------------------------------

class Supervisor:
    def __init__(self, sock: socket.socket, limits: serve.Limits, hosts: list[str] | None) -> None:
        self.sock, self.limits, self.hosts = sock, limits, hosts
        # one process more than `workers`: long requests (serve.Runtime.heavy) are converted by
        # at most `workers` processes at once, so one is always left for quick requests
        self.n = limits.workers + 1
        self.slots = Slots(self.n)
        self.long_slots = multiprocessing.get_context("fork").BoundedSemaphore(limits.workers)
        self.hand = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
        for s in self.hand:
            s.setblocking(False)
        self.pids: dict[int, int] = {}  # pid -> slot
        self.born: dict[int, float] = {}
        self.stopping = False
        self.reported = dict.fromkeys(_COUNTERS, 0)
        self.last_notice = -1e9

    def start(self) -> None:
        self.sock.setblocking(False)
        self.app = serve.create_app(self.hosts, self.limits)
        # what the supervisor has loaded is kept out of the collector's sight: a worker's
        # first full collection would otherwise touch (and so copy) every page of it
        gc.collect()
        gc.freeze()
        for i in range(self.n):
            self._spawn(i)

    def _spawn(self, i: int) -> None:
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the group: the supervisor stops us
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                self.slots.set(i, pid=os.getpid(), started=0.0, open=0)
                Worker(i, self.sock, self.hand, self.slots, self.limits, self.hosts, self.app, self.long_slots).run()
            except BaseException as exc:  # noqa: BLE001 - a worker never returns into the supervisor's code
                if not isinstance(exc, (KeyboardInterrupt, SystemExit)):
                    log.error("internal error in a conversion process", exc_info=exc)
                code = 1
            finally:
                os._exit(code)
        self.pids[pid] = i
        self.born[pid] = time.monotonic()

    def run(self) -> None:
        """Until SIGINT or SIGTERM: reap, replace, kill workers over the budget, report overload."""
        def stop(*_: Any) -> None:
            self.stopping = True

        old_int = signal.signal(signal.SIGINT, stop)
        old_term = signal.signal(signal.SIGTERM, stop)
        try:
            while not self.stopping:
                time.sleep(CHECK_EVERY)
                self._reap()
                self._police()
                self._notices()
        finally:
            signal.signal(signal.SIGINT, old_int)
            signal.signal(signal.SIGTERM, old_term)

    def _reap(self) -> None:
        while self.pids:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            i = self.pids.pop(pid, None)
            born = self.born.pop(pid, 0.0)
            if i is None or self.stopping:
                continue
            if self.slots.get(i)[3]:  # it ended converting a long request: its slot is free again
                self.slots.set(i, long=0)
                self.long_slots.release()
            code = os.waitstatus_to_exitcode(status)
            if code not in (3, -signal.SIGKILL):
                log.warning("xsys serve: a conversion process ended (exit %s); another takes its place", code)
            if time.monotonic() - born < 1.0:
                time.sleep(RESPAWN_DELAY)  # one that fails at once does not spin
            self.slots.set(i, pid=0, started=0.0, open=0)
            self._spawn(i)

    def _police(self) -> None:
        now = time.monotonic()
        for pid, i in list(self.pids.items()):
            started = self.slots.get(i)[1]
            if started and now - started > self.limits.time_limit + BUDGET_GRACE:
                self.slots.count(i, "budget")
                self.slots.set(i, started=0.0)
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

    def _notices(self) -> None:
        now = time.monotonic()
        if now - self.last_notice < serve_net.NOTICE_EVERY:
            return
        totals = self.slots.totals()
        new = {k: totals[k] - self.reported[k] for k in _COUNTERS if totals[k] > self.reported[k]}
        self.reported = totals
        if not new:
            return
        self.last_notice = now
        fields = {"limit": serve_net.max_open(self.limits.max_connections), "timeout": self.limits.request_timeout,
                  "detail": "?", "time_limit": self.limits.time_limit}
        parts = [f"{n} {serve_net.Notices.WHAT[k].format(**fields)}" for k, n in sorted(new.items())]
        log.warning("xsys serve: overloaded: %s (told at most once per %g s)", "; ".join(parts),
                    serve_net.NOTICE_EVERY)

    def close(self) -> None:
        for pid in self.pids:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 5
        for pid in list(self.pids):
            while True:
                try:
                    done, _ = os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    break
                if done or time.monotonic() > deadline:
                    if not done:
                        os.kill(pid, signal.SIGKILL)
                        os.waitpid(pid, 0)
                    break
                time.sleep(0.02)
        self.pids.clear()
        for s in self.hand:
            s.close()  # a second close does nothing


WARM_TEXT = "Warm-up, a thug. STR 60 CON 50 SIZ 65 DEX 55 INT 50 POW 45 APP 40 EDU 40 HP 11. Handgun 45%, Dodge 30%"


def _warm_readers() -> None:
    """Load, before the fork, what the first request of each kind loads (the text-block
    reader, the sheet's Markdown, the odds and curve tables): about 2 s the first time. Done
    here once, a worker (and each one that replaces another) answers its first request as
    fast as its hundredth."""
    work = [(b"c", serve.ConvertRequest(document=WARM_TEXT, to=key, format="md"))
            for key in serve.default_registry().keys()]
    work += [(b"o", serve.OddsRequest(shot=serve.ShotSpec(distance="20m"))),
             (b"u", serve.CurveRequest(shot=serve.ShotSpec(distance="20m"), points=4, svg=True))]
    for kind, req in work:
        try:
            serve.KINDS[kind][1](req)
        except Exception:  # warming is best effort: a broken plugin shows itself when asked for
            pass


def run(sock: socket.socket, limits: serve.Limits, hosts: list[str] | None,
        info: Callable[[str], None] | None = None) -> None:
    """Serve on `sock` with ``limits.workers`` forked processes until SIGINT or SIGTERM."""
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    serve.default_registry().load()
    # every table built once here, shared by every worker the fork makes: read from the
    # on-disk cache in a moment, computed (and written there) on the first start after an
    # install or an upgrade, which takes a while: said if it does
    slow = threading.Timer(2.0, info or (lambda _: None), ["preparing every system's tables before the first "
                                                           "request (once after an install or an upgrade: about half "
                                                           "a minute; later starts read them from the cache)"])
    slow.daemon = True
    slow.start()
    try:
        serve._warm_caches()
        _warm_readers()
    finally:
        slow.cancel()
    sup = Supervisor(sock, limits, hosts)
    try:
        sup.start()
        sup.run()
    finally:  # however the supervisor ends (Ctrl-C while it starts too), its processes end with it
        sup.close()


__all__: list[Callable[..., Any] | str] = ["run", "wanted", "available"]
