"""A streamed roster's NPCs converted ahead by helper processes, one per further core, while
the process that writes the output converts its own share and writes every NPC in order.

Why processes: converting an NPC is Python work that holds the interpreter (about 1.5 ms of
CPU for a generated coc NPC to gurps), so threads would take turns; a roster of thousands of
different stat blocks keeps every core busy instead.

How, and why the output is the same bytes as converting alone:

- A helper is forked after the roster's first NPC is converted, so it has the conversion
  set up as the writer has it (the two systems, their tables, the output's layout) and
  nothing to load. It converts the NPCs it is sent with the writer's own function
  (``convert`` of conversions/stream.py: an NPC's conversion is a function of its stat
  block alone, which the writer's remembered stat blocks rest on too) and sends back what
  the writer needs to write it.
- The writer reads :data:`WINDOW` NPCs ahead of the one it writes and deals the stat blocks
  it has not seen to itself and the helpers in turn. It writes the NPCs in their order,
  taking each one's conversion from its helper (waiting for it) or converting it then;
  everything that depends on the NPCs before it (a stat block seen before, the loss
  groups, the digest) is done by the writer in that order, as without helpers.
- Anything that goes wrong in a helper (an error in the NPC, a fault, the helper killed, or
  stuck: no answer for :data:`PATIENCE` seconds, when it is ended) gives no answer, and the
  writer converts that NPC itself: an error is raised by the
  writer, at the NPC's turn, as it is without helpers. A helper that has gone gets no more
  NPCs.
- Only systems that say their answers are functions of their arguments (System.remember)
  are converted this way; ``XSYS_JOBS=1`` converts in one process, ``XSYS_JOBS=N`` in at
  most N.

A helper ignores Ctrl-C (the writer stops, removes its temporary files and ends the
helpers) and ends when the writer closes its pipe, or with it: a killed writer closes its
pipes too. Helpers only compute: they write no file and print nothing, and leave with
``os._exit`` (no exit handlers of the writer's run in them).
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import struct
import sys
from collections import deque
from typing import Any, Callable, Iterator

WINDOW = 32  # NPCs read ahead of the one being written
MIN_NPCS = 48  # fewer NPCs after the first are converted in one process (a fork costs a few ms)
MAX_HELPERS = 7
QUEUE = 8  # NPCs a helper may have waiting: enough to keep it busy while the writer writes a few
IN_FLIGHT = 48 * 1024  # bytes sent to a helper and not answered yet: under a pipe's buffer (64 KiB),
# so that sending never waits for a helper that is itself waiting to send an answer
PATIENCE = 120.0  # seconds the writer waits for a helper's next answer before it takes the NPCs back
_LEN = struct.Struct("<I")
UNKNOWN = object()  # a stat block's key not asked for


def helpers_wanted() -> int:
    """How many helper processes: one per further core this process may run on, at most
    :data:`MAX_HELPERS`; ``XSYS_JOBS`` (processes in all, the writer included) caps it."""
    if not hasattr(os, "fork"):
        return 0
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    want = cores
    raw = os.environ.get("XSYS_JOBS", "")
    if raw.strip():
        try:
            jobs = int(raw)
        except ValueError:
            jobs = 0
        if jobs < 1:
            from xsys.core.errors import InputError

            raise InputError("XSYS_JOBS is not a number of processes",
                             expected="a whole number above 0 (1: convert in one process)",
                             found=repr(raw) if len(raw) <= 60 else repr(raw[:60]) + f"... ({len(raw)} characters)")
        want = min(want, jobs)
    return max(0, min(want - 1, MAX_HELPERS))


class Helper:
    """One helper process and its two pipes (NPCs in, conversions out)."""

    def __init__(self, convert: Callable[[Any, int], Any]) -> None:
        req_r, req_w = os.pipe()
        ans_r, ans_w = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            for fd in (req_r, req_w, ans_r, ans_w):
                os.close(fd)
            raise
        if pid == 0:  # the helper
            code = 0
            try:
                # only its two pipes and the standard streams: no lock or file of the writer's
                # (a temporary folder's lock would outlive a killed writer in it)
                lo = 3
                for fd in sorted((req_r, ans_w)):
                    os.closerange(lo, fd)
                    lo = fd + 1
                os.closerange(lo, _max_fd())
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                for name in ("SIGTERM", "SIGHUP"):
                    if hasattr(signal, name):
                        signal.signal(getattr(signal, name), signal.SIG_DFL)
                _serve(req_r, ans_w, convert)
            except BaseException:
                code = 1
            finally:
                os._exit(code)
        os.close(req_r)
        os.close(ans_w)
        self.pid = pid
        self.req, self.ans = req_w, ans_r
        self.sent: deque[tuple[int, int]] = deque()  # (NPC index, bytes) sent, not answered yet
        self.in_flight = 0
        self.got: dict[int, Any] = {}  # NPC index -> its conversion, answered and not taken yet
        self.buf = bytearray()  # what the helper sent of an answer not read whole yet
        self.alive = True

    def send(self, i: int, plain: Any) -> bool:
        """Send NPC `i` to convert; False (nothing sent) where the helper has gone, the NPC
        cannot be sent, or it would fill the pipe."""
        if not self.alive:
            return False
        try:
            data = pickle.dumps((i, plain), pickle.HIGHEST_PROTOCOL)
        except Exception:
            return False
        size = len(data) + _LEN.size
        if self.in_flight + size > IN_FLIGHT:
            return False
        try:
            _write_all(self.req, _LEN.pack(len(data)) + data)
        except OSError:
            self._gone()
            return False
        self.sent.append((i, size))
        self.in_flight += size
        return True

    def waiting(self) -> int:
        """NPCs sent and not answered yet."""
        return len(self.sent)

    def ready(self, i: int) -> bool:
        """Whether :meth:`answer` of NPC `i` would not wait."""
        self._pump(False)
        return i in self.got or not self.alive or not self.sent or self.sent[0][0] > i

    def answer(self, i: int) -> Any:
        """The conversion of NPC `i` (sent before), waiting for it; None where the helper gave
        none (the writer converts it). Answers to NPCs before `i` not asked for are dropped
        (their stat block had been seen before)."""
        while self.alive and i not in self.got and self.sent and self.sent[0][0] <= i:
            self._pump(True)
        for j in [j for j in self.got if j < i]:
            del self.got[j]
        return self.got.pop(i, None)

    def _pump(self, wait: bool) -> None:
        """Read what the helper has sent (waiting for something where `wait`)."""
        if not self.alive:
            return
        try:
            if not select.select([self.ans], [], [], PATIENCE if wait else 0)[0]:
                if wait:  # a helper that says nothing for so long is stuck: ended, the writer converts
                    self._gone()
                    self._kill()
                return
            data = os.read(self.ans, 1 << 16)
        except InterruptedError:
            return
        except OSError:
            self._gone()
            return
        if not data:
            self._gone()
            return
        buf = self.buf
        buf += data
        while len(buf) >= _LEN.size:
            n = _LEN.unpack_from(buf)[0]
            if len(buf) < _LEN.size + n:
                break
            frame = bytes(buf[_LEN.size:_LEN.size + n])
            del buf[:_LEN.size + n]
            try:
                k, piece = pickle.loads(frame)
            except Exception:
                self._gone()
                return
            if not self.sent or k != self.sent[0][0]:  # answers come in the order of sending
                self._gone()
                return
            self.in_flight -= self.sent.popleft()[1]
            self.got[k] = piece

    def _gone(self) -> None:
        self.alive = False  # (answers read whole before stay good)
        self.sent.clear()
        self.in_flight = 0

    def _kill(self) -> None:
        try:
            os.kill(self.pid, signal.SIGKILL)
        except OSError:
            pass

    def close(self) -> None:
        """End the helper: it has nothing the writer needs once the writer is done or stops."""
        for fd in (self.req, self.ans):
            try:
                os.close(fd)
            except OSError:
                pass
        self._kill()
        try:
            os.waitpid(self.pid, 0)
        except (OSError, ChildProcessError):
            pass
        self.alive = False


def _max_fd() -> int:
    try:
        return max(int(os.sysconf("SC_OPEN_MAX")), 256)
    except (AttributeError, ValueError, OSError):
        return 65536


def settled(losses: list[Any], groups: list[tuple[Any, ...]]) -> tuple[list[Any], list[tuple[Any, ...]]]:
    """A helper's losses and loss groups as the writer's own: their kind and level strings are
    the interned ones. msgspec leaves a field out as its default (a loss's level "warning")
    where the value is the default object itself, and a string read from a pipe is another
    object with the same letters, which would be written out."""
    import msgspec

    intern = sys.intern
    replace = msgspec.structs.replace
    losses = [replace(x, kind=intern(x.kind), level=intern(x.level)) for x in losses]
    groups = [((intern(key[0]), intern(key[1]), *key[2:]), *rest) for key, *rest in groups]
    return losses, groups


def _serve(req: int, ans: int, convert: Callable[[Any, int], Any]) -> None:
    while True:
        try:
            head = _read_exact(req, _LEN.size)
        except EOFError:
            return
        i, plain = pickle.loads(_read_exact(req, _LEN.unpack(head)[0]))
        try:
            data = pickle.dumps((i, convert(plain, i)), pickle.HIGHEST_PROTOCOL)
        except BaseException:  # the writer converts it again and says what went wrong
            data = pickle.dumps((i, None), pickle.HIGHEST_PROTOCOL)
        _write_all(ans, _LEN.pack(len(data)) + data)


def _read_exact(fd: int, n: int) -> bytes:
    parts = []
    while n:
        b = os.read(fd, min(n, 1 << 20))
        if not b:
            raise EOFError
        parts.append(b)
        n -= len(b)
    return b"".join(parts)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class Ahead:
    """The roster's NPCs as the writer takes them, in order: ``(index, item, helper, piece,
    key)`` where `piece` is the NPC's conversion made ahead (by the writer while it waited for
    a helper), else `helper` converts it (ask it with :meth:`Helper.answer`), else both are
    None (the writer converts it at its turn); `key` is its stat block's ``key(plain)`` where
    it was asked, else :data:`UNKNOWN`. The first NPC comes at once; the helpers are
    started after the writer has converted it (the iteration resumes then) where `ready()`
    (both systems remember their answers) and the roster has :data:`MIN_NPCS` more.
    `key(plain)` is what a stat block is known by without its name (None: nothing),
    `seen(key)` whether the writer will take it as a stat block it converted before: neither
    is dealt, nor a stat block dealt already and still ahead. `convert(plain, i)` is what a
    helper runs, and the writer ahead of an NPC's turn.

    Dealing: a new stat block goes to the helper with the fewest NPCs waiting, while it has
    fewer than :data:`QUEUE`; else it is the writer's. Where the writer comes to a helper's
    NPC not converted yet, it converts its own NPCs further on meanwhile: the helpers are
    kept busy and the writer waits only where it has nothing of its own left to do."""

    def __init__(self, items: Iterator[tuple[Any, ...]], wanted: int, convert: Callable[[Any, int], Any],
                 key: Callable[[Any], Any], seen: Callable[[Any], bool], ready: Callable[[], bool]) -> None:
        self.items, self.wanted, self.convert = items, wanted, convert
        self.key, self.seen, self.ready = key, seen, ready
        self.helpers: list[Helper] = []
        self.ahead: set[Any] = set()  # the stat blocks dealt and not yet given to the writer

    def __iter__(self) -> Iterator[tuple[int, tuple[Any, ...], Helper | None, Any, Any]]:
        it = self.items
        first = next(it, None)
        if first is None:
            return
        yield 0, first, None, None, UNKNOWN  # the writer converts it, and so sets the conversion up
        # an entry: [index, item, helper or None, stat block key if dealt as new or None, piece or
        # None, whether it is the writer's new stat block, its stat block key (None: it has none)
        # or UNKNOWN where not asked]
        buf: deque[list[Any]] = deque()
        i = 0
        if self.wanted and self.ready():
            for item in it:  # read on until it is worth starting helpers
                i += 1
                buf.append([i, item, None, None, None, False, UNKNOWN])
                if len(buf) >= MIN_NPCS or (item[2] is not None and item[2] - 1 >= MIN_NPCS):
                    break
            if buf and (len(buf) >= MIN_NPCS or (buf[-1][1][2] is not None and buf[-1][1][2] - 1 >= MIN_NPCS)):
                self._start()
        for entry in buf:
            self._deal(entry)
        while True:
            while len(buf) < WINDOW:
                item = next(it, None)
                if item is None:
                    break
                i += 1
                entry = [i, item, None, None, None, False, UNKNOWN]
                self._deal(entry)
                buf.append(entry)
            if not buf:
                return
            head = buf[0]
            if head[2] is not None:
                self._meanwhile(buf, head)
            buf.popleft()
            if head[3] is not None:
                self.ahead.discard(head[3])
            yield head[0], head[1], head[2], head[4], head[6]

    def _meanwhile(self, buf: deque[list[Any]], head: list[Any]) -> None:
        """While the helper of `head` has not answered, convert the writer's own NPCs further on."""
        helper = head[2]
        for entry in buf:
            if helper.ready(head[0]):
                return
            if entry[5] and entry[4] is None:
                entry[5] = False
                try:
                    entry[4] = self.convert(entry[1][0], entry[0])
                except Exception:  # converted again at its turn, which says what is wrong
                    pass

    def _start(self) -> None:
        for _ in range(self.wanted):
            try:
                self.helpers.append(Helper(self.convert))
            except OSError:  # no more processes or pipes: fewer helpers
                break

    def _deal(self, entry: list[Any]) -> None:
        if not self.helpers:
            return
        key = entry[6] = self.key(entry[1][0])
        if key is not None:
            if key in self.ahead or self.seen(key):
                return  # the writer takes it as the stat block it will have converted
            self.ahead.add(key)
            entry[3] = key
        for h in self.helpers:
            h._pump(False)  # (its answers so far: how many it has waiting)
        live = [h for h in self.helpers if h.alive]
        h = min(live, key=Helper.waiting) if live else None
        if h is not None and h.waiting() < QUEUE and h.send(entry[0], entry[1][0]):
            entry[2] = h
        else:
            entry[5] = True

    def close(self) -> None:
        for h in self.helpers:
            h.close()
        self.helpers.clear()
