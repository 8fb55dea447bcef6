"""Atomic output: a file is either written whole or not at all, and an existing file is
never truncated by a failed run (write to a temporary file beside it, then rename)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from xsys.core.errors import InputError


def write_atomic(path: str | Path, data: bytes) -> None:
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    try:
        parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".part", dir=parent)
    except OSError as exc:
        raise InputError(f"cannot write output: {exc.strerror}", file=str(p)) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise InputError(f"cannot write output: {exc.strerror}", file=str(p)) from None
        raise
