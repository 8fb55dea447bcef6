"""Running third-party plugin code so that what goes wrong in it stays its own.

:func:`run` calls a function of a third-party plugin (importing it, a hook, a method of its
System) and, for the time of the call, in the calling thread:

- stops it after ``seconds`` with :class:`PluginTimeout` (the main thread on POSIX: SIGALRM;
  any other thread of CPython: a watchdog thread raises the exception in it; see
  :func:`run` for what neither can stop);
- sends what it prints to standard output to standard error (``sys.stdout`` is a router
  while any plugin call runs: a write from a thread inside a plugin call goes to stderr,
  every other write where it always went), so a plugin's ``print()`` never lands in a
  document or the JSON xsys writes;
- turns a call of ``os._exit`` into :class:`PluginExit` (a ``SystemExit``, contained as a
  plugin's ``sys.exit`` is);
- tells a KeyboardInterrupt the plugin raised itself (:class:`PluginKeyboardInterrupt`, a
  fault like any exception) from the user's Ctrl-C (:class:`PluginInterrupted`, or whatever
  the SIGINT handler in place raises, which can ask :func:`running` for the plugin's name).

Only the outermost plugin call of a thread does this; calls it makes into plugin code again
pass straight through. Built-in plugins are not run through here at all: they cost nothing.

What cannot be contained inside the process, and is not: a plugin that writes to file
descriptor 1 itself (``os.write(1, ...)``, a subprocess, C code) or to ``sys.__stdout__``;
``os.abort``, ``os.kill`` or a signal it sends; a hang inside a C call that never returns
to the interpreter (in the main thread SIGALRM interrupts a sleep or a read; in another
thread nothing does until the call returns). A plugin that does any of these must be
switched off with ``XSYS_DISABLE_PLUGINS``.
"""

from __future__ import annotations

import itertools
import math
import os
import signal
import sys
import threading
import time
from typing import Any, Callable

DEFAULT_TIMEOUT = 30.0
REFIRE = 0.2  # seconds between further alarms once the time is up: a plugin that catches one goes on
_OWN_INTERRUPT = "KeyboardInterrupt (the plugin's own: no Ctrl-C was pressed)"


class PluginHalt(BaseException):
    """A third-party plugin call that must end the work it is part of (a BaseException, so
    that neither the plugin's nor xsys's ``except Exception`` around plugin calls swallows
    it). Its message names the plugin."""


class PluginTimeout(PluginHalt):
    """A plugin ran past its time (``XSYS_PLUGIN_TIMEOUT``)."""


class _AsyncTimeout(PluginTimeout):
    """Raised by the watchdog in a thread whose plugin call ran past its time; :func:`run`
    gives the caller a :class:`PluginTimeout` with the plugin's name instead."""


class PluginExit(SystemExit):
    """Plugin code called ``os._exit(code)``: xsys goes on, and the call is contained as a
    plugin's ``sys.exit`` is."""


class PluginKeyboardInterrupt(Exception):
    """Plugin code raised KeyboardInterrupt itself (no Ctrl-C was pressed): a fault of the
    plugin like any other exception, not the user stopping xsys."""


class PluginInterrupted(KeyboardInterrupt):
    """The user's Ctrl-C while a plugin call ran (the default SIGINT handler's
    KeyboardInterrupt, with the plugin named)."""


class _Local(threading.local):
    depth = 0
    who = ""
    what = ""


_local = _Local()


def running() -> tuple[str, str] | None:
    """(who, what) of the plugin call this thread is running (``plugin 'x' (dist 1.0)``,
    ``check``), None outside plugin calls. A SIGINT handler (the command line's) asks it to
    say what was interrupted."""
    return (_local.who, _local.what) if _local.depth else None


# ---- standard output ------------------------------------------------------------------

class _Devnull:
    def write(self, s: Any) -> int:
        return len(s)

    def flush(self) -> None:
        pass


class _BufferRouter:
    """``sys.stdout.buffer`` while plugin calls run: bytes a plugin writes go to stderr's."""

    def __init__(self, router: "_StdoutRouter") -> None:
        self._router = router

    def _target(self) -> Any:
        if _local.depth:
            err = sys.stderr
            return getattr(err, "buffer", None) or _Devnull()
        return self._router._real.buffer

    def write(self, b: Any) -> int:
        if _local.depth:
            try:
                sys.stderr.flush()
            except (AttributeError, OSError, ValueError):
                pass
        return self._target().write(b)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._target(), name)


class _StdoutRouter:
    """``sys.stdout`` while plugin calls run: a write from a thread inside a plugin call goes
    to standard error, any other to the standard output that was in place. A reference kept
    to it (by a plugin at import, or a module imported during a plugin call) keeps routing so."""

    def __init__(self, real: Any) -> None:
        self._real = real

    def _target(self) -> Any:
        if _local.depth:
            err = sys.stderr
            return err if err is not None and err is not self else _Devnull()
        return self._real

    def write(self, s: Any) -> int:
        return self._target().write(s)

    def writelines(self, lines: Any) -> None:
        self._target().writelines(lines)

    def flush(self) -> None:
        self._target().flush()

    @property
    def buffer(self) -> Any:
        if getattr(self._real, "buffer", None) is None and not _local.depth:
            raise AttributeError("buffer")
        return _BufferRouter(self)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._target(), name)


_route_lock = threading.Lock()
_route_count = 0
_router: _StdoutRouter | None = None


def _route_enter() -> None:
    global _route_count, _router
    with _route_lock:
        if _route_count == 0:
            current = sys.stdout
            _router = current if isinstance(current, _StdoutRouter) else _StdoutRouter(current)
            sys.stdout = _router
        _route_count += 1


def _route_leave() -> None:
    global _route_count
    with _route_lock:
        _route_count -= 1
        if _route_count == 0 and _router is not None:
            # also when a plugin put a stream of its own in sys.stdout: xsys's output stays xsys's
            sys.stdout = _router._real


# ---- os._exit ---------------------------------------------------------------------------

_real_exit: Callable[[int], Any] | None = None
_exit_pid = 0


def _exit_guard(code: int) -> None:
    # a forked child (a plugin's own subprocess) exits for real: it is not xsys going on
    if _local.depth and os.getpid() == _exit_pid:
        raise PluginExit(code)
    assert _real_exit is not None
    _real_exit(code)


def _guard_exit() -> None:
    """Put :func:`_exit_guard` in place of ``os._exit`` (once; outside plugin calls it is
    ``os._exit``). A plugin that took ``os._exit`` before its first call is not caught."""
    global _real_exit, _exit_pid
    if os._exit is not _exit_guard:
        _real_exit = os._exit
        _exit_pid = os.getpid()
        os._exit = _exit_guard  # type: ignore[assignment]


# ---- Ctrl-C ------------------------------------------------------------------------------
#
# A KeyboardInterrupt that ends a plugin call is the user's when a SIGINT arrived during the
# call, else the plugin raised it itself. SIGINTs are counted: by the default handler's twin
# below (put in its place at the first plugin call in the main thread; it raises
# KeyboardInterrupt as the default does), or by a handler of the application's own that calls
# :func:`note_sigint` (the command line's does). An application whose own handler raises
# KeyboardInterrupt without calling it has its Ctrl-C taken as the plugin's fault.

_sigints = 0


def note_sigint() -> None:
    """Count a SIGINT (a SIGINT handler calls it before it stops the program)."""
    global _sigints
    _sigints += 1


def default_int_twin(signum: int, frame: Any) -> None:
    """The default SIGINT handler's twin: it raises KeyboardInterrupt as the default does, and
    counts the SIGINT."""
    note_sigint()
    raise KeyboardInterrupt


def _count_sigints() -> None:
    if _getsignal(_SIGINT) is signal.default_int_handler:
        try:
            _setsignal(_SIGINT, default_int_twin)
        except (ValueError, OSError):
            pass


# ---- time limits ---------------------------------------------------------------------------
#
# In the main thread on POSIX, SIGALRM: it also interrupts a sleep or a blocking read. The C
# functions of the _signal module are used, not the signal module's wrappers, which cost several
# times more (they convert handlers to and from enums): this runs on every third-party call.

try:
    import _signal

    _getsignal, _setsignal = _signal.getsignal, _signal.signal
except ImportError:  # pragma: no cover - not CPython
    _getsignal, _setsignal = signal.getsignal, signal.signal
_SIGINT = int(signal.SIGINT)
_SIGALRM = int(getattr(signal, "SIGALRM", 0))
_ALARM = bool(_SIGALRM) and hasattr(signal, "setitimer")
_main_ident = threading.main_thread().ident


class _Alarm:
    __slots__ = ("text", "on")

    def __init__(self, text: str) -> None:
        self.text = text
        self.on = True


_alarm: _Alarm | None = None


def _on_alarm(signum: int, frame: Any) -> None:
    alarm = _alarm
    if alarm is not None and alarm.on:
        raise PluginTimeout(alarm.text)


def _with_alarm(text: str, seconds: float, fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    """`fn` stopped by SIGALRM after `seconds`, and again every :data:`REFIRE` seconds (a
    plugin that catches one goes on); the previous handler and any pending timer are put back."""
    global _alarm
    prev = _getsignal(_SIGALRM)
    if prev is None:  # a handler installed outside Python: it could not be put back
        return _with_watchdog(text, seconds, fn, args, kwargs)
    saved, alarm = _alarm, _Alarm(text)
    _alarm = alarm
    start = time.monotonic()
    _setsignal(_SIGALRM, _on_alarm)
    old_delay, old_interval = signal.setitimer(signal.ITIMER_REAL, seconds, REFIRE)
    try:
        return fn(*args, **kwargs)
    finally:
        while True:  # a last alarm may land here: switch off first, then clean up
            try:
                alarm.on = False
                signal.setitimer(signal.ITIMER_REAL, 0)
                break
            except PluginTimeout:
                continue
        _setsignal(_SIGALRM, prev)
        _alarm = saved
        if old_delay:
            signal.setitimer(signal.ITIMER_REAL, max(old_delay - (time.monotonic() - start), 1e-3), old_interval)


class _Watchdog:
    """One daemon thread that raises :class:`_AsyncTimeout` in a thread whose plugin call ran
    past its time (``PyThreadState_SetAsyncExc``; CPython only), and again every
    :data:`REFIRE` seconds until the call ends. It looks every :data:`REFIRE` seconds while
    calls run (every second when none does), so a limit holds to within about a second. The
    exception lands when the thread next runs Python code: a C call that never returns is not
    stopped. A call costs a lock and a dictionary entry, no system call."""

    def __init__(self, set_async: Any) -> None:
        self._set_async = set_async
        self._lock = threading.Lock()
        self._jobs: dict[int, list[Any]] = {}  # token -> [deadline, thread id, fired]
        self._tokens = itertools.count()
        self._thread: threading.Thread | None = None

    def arm(self, seconds: float) -> int:
        token = next(self._tokens)
        with self._lock:
            self._jobs[token] = [time.monotonic() + seconds, threading.get_ident(), False]
            if self._thread is None:
                self._thread = threading.Thread(target=self._watch, name="xsys-plugin-watchdog", daemon=True)
                self._thread.start()
        return token

    def disarm(self, token: int) -> None:
        """End the watch. The job leaves under the lock the watchdog fires under, so no
        exception comes after; one it raised that has not landed yet is taken back, and one
        landing meanwhile is caught here."""
        tid = threading.get_ident()
        while True:
            try:
                with self._lock:
                    job = self._jobs.pop(token, None)
                if job is not None and job[2]:
                    self._set_async(tid, None)
                return
            except _AsyncTimeout:
                continue

    def _watch(self) -> None:
        while True:
            time.sleep(REFIRE if self._jobs else 1.0)
            now = time.monotonic()
            with self._lock:
                for job in self._jobs.values():
                    if job[0] <= now:
                        self._set_async(job[1], _AsyncTimeout)
                        job[0], job[2] = now + REFIRE, True


_watchdog: _Watchdog | None = None
_watchdog_lock = threading.Lock()


def _thread_watchdog() -> _Watchdog | None:
    global _watchdog
    if _watchdog is None:
        with _watchdog_lock:
            if _watchdog is None:
                try:
                    import ctypes

                    fn = ctypes.pythonapi.PyThreadState_SetAsyncExc
                except (ImportError, AttributeError):  # not CPython: no limit outside the main thread
                    return None

                def set_async(tid: int, exc: Any) -> None:
                    fn(ctypes.c_ulong(tid), ctypes.py_object(exc) if exc is not None else None)

                _watchdog = _Watchdog(set_async)
    return _watchdog


def _with_watchdog(text: str, seconds: float, fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    dog = _thread_watchdog()
    if dog is None:
        return fn(*args, **kwargs)
    token = dog.arm(seconds)
    try:
        try:
            return fn(*args, **kwargs)
        finally:
            dog.disarm(token)
    except _AsyncTimeout:
        raise PluginTimeout(text) from None


# ---- the call -------------------------------------------------------------------------

def plugin_timeout() -> float:
    """``XSYS_PLUGIN_TIMEOUT``: seconds a third-party plugin call may take (default 30; 0: no limit)."""
    global _timeout_read
    raw = os.environ.get("XSYS_PLUGIN_TIMEOUT", "")
    if raw == _timeout_read[0]:  # read on every call (it may change), parsed once
        return _timeout_read[1]
    text = raw.strip()
    if not text:
        value = DEFAULT_TIMEOUT
    else:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and value >= 0):
            from .errors import InputError

            raise InputError("bad XSYS_PLUGIN_TIMEOUT", path="XSYS_PLUGIN_TIMEOUT",
                             expected="seconds, e.g. 30 (0: no limit)", found=repr(text))
    _timeout_read = (raw, value)
    return value


_timeout_read: tuple[str, float] = ("", DEFAULT_TIMEOUT)


def run(who: str, what: str, seconds: float | None, fn: Callable[..., Any], args: tuple = (),
        kwargs: dict[str, Any] | None = None, timed_out: dict[str, str] | None = None) -> Any:
    """``fn(*args, **kwargs)``, plugin code of `who` doing `what`, contained as the module
    docstring says. ``seconds``: its time limit (0: none; None: :func:`plugin_timeout`).

    The limit holds for Python code: in the main thread on POSIX through SIGALRM (which also
    interrupts a sleep or a blocking read), in any other thread of CPython (or when a SIGALRM
    handler was installed outside Python) through the watchdog; elsewhere the call runs without
    one. `timed_out` (who -> why): plugins that ran past their time, each noted there when it
    does; a call of one of them fails at once with the same reason (a scenario of a hundred
    shots waits once for a plugin that hangs, not a hundred times)."""
    if kwargs is None:
        kwargs = {}
    loc = _local
    if loc.depth:
        return fn(*args, **kwargs)
    if timed_out and who in timed_out:
        raise PluginTimeout(f"{timed_out[who]}; not run again")
    if seconds is None:
        seconds = plugin_timeout()
    if os._exit is not _exit_guard:
        _guard_exit()
    main = threading.get_ident() == _main_ident
    if main:
        _count_sigints()
    sigints = _sigints
    loc.depth, loc.who, loc.what = 1, who, what
    _route_enter()
    try:
        try:
            if seconds <= 0:
                result = fn(*args, **kwargs)
            elif main and _ALARM:
                result = _with_alarm(_timeout_text(who, what, seconds), seconds, fn, args, kwargs)
            else:
                result = _with_watchdog(_timeout_text(who, what, seconds), seconds, fn, args, kwargs)
            if _sigints != sigints and main:  # the plugin swallowed the user's Ctrl-C: it still stops
                handler = _getsignal(_SIGINT)
                if callable(handler):
                    handler(_SIGINT, None)
                raise KeyboardInterrupt
            return result
        except KeyboardInterrupt as exc:
            if _sigints == sigints or not main:  # no SIGINT came: the plugin raised it itself
                raise PluginKeyboardInterrupt(_OWN_INTERRUPT) from None
            if isinstance(exc, PluginInterrupted):
                raise
            raise PluginInterrupted(f"interrupted while {who} was running its {what}") from None
    except PluginTimeout as exc:
        if timed_out is not None:
            timed_out[who] = str(exc)
        raise
    finally:
        loc.depth = 0
        _route_leave()


def _timeout_text(who: str, what: str, seconds: float) -> str:
    return f"{who}: {what} took longer than {seconds:g} s (XSYS_PLUGIN_TIMEOUT)"
