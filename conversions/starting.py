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


def _the_command() -> bool:
    """Whether this process is the ``xsys`` command, not a program that imports xsys (a test, a
    script, a server): only the command's Ctrl-C is this module's to change."""
    import os

    name = os.path.basename(sys.argv[0] if sys.argv and sys.argv[0] else "")
    return name in ("xsys", "xsys.exe", "xsys-script.py")


def guard() -> Any:
    """Ctrl-C ends the start with one line; what to hand :func:`release` when the modules are in.
    Only in the ``xsys`` command: importing xsys leaves an importer's Ctrl-C as it was (a test
    run that imported the command's module had every later Ctrl-C end with 'xsys: interrupted')."""
    if not _the_command():
        return None
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
