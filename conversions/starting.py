"""The first thing the ``xsys`` command loads: Ctrl-C while the rest loads (a good part of a
second on a slow machine) ends with one line, not a traceback from deep inside an import.
Standard library only, so that it is in place before anything slow is imported."""

from __future__ import annotations

import signal
import sys
from typing import Any


def interrupted_while_starting(signum: int, frame: Any) -> None:  # pragma: no cover - timing dependent
    if sys.stderr is not None:
        sys.stderr.write("xsys: interrupted\n")
    raise SystemExit(130)


def guard() -> Any:
    """Ctrl-C ends the start with one line; what to hand :func:`release` when the modules are in."""
    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            return signal.signal(signal.SIGINT, interrupted_while_starting)
    except ValueError:  # not the main thread: signals are not ours to handle
        pass
    return None


def release(before: Any) -> None:
    """Started: Ctrl-C from now on is the run's to report (xsys.conversions.run.main_with)."""
    try:
        if before is not None and signal.getsignal(signal.SIGINT) is interrupted_while_starting:
            signal.signal(signal.SIGINT, before)
    except ValueError:
        pass
