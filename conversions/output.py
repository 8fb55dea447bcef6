"""Atomic output: a file is either written whole or not at all, and an existing file is
never truncated by a failed run.

The data is written to an unnamed file in the target folder (Linux ``O_TMPFILE``) and
given a name only once it is complete and flushed, then renamed over the target, so even a
process killed mid-write leaves no partial file behind. Where ``O_TMPFILE`` is not
available, a hidden temporary file beside the target is used and removed on any error."""

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
    except OSError as exc:
        raise InputError(f"cannot write output: {exc.strerror}", file=str(p)) from None
    if hasattr(os, "O_TMPFILE"):
        try:
            _write_unnamed(p, parent, data)
            return
        except _Unsupported:
            pass
    _write_named_temp(p, parent, data)


class _Unsupported(Exception):
    pass


def _write_unnamed(p: Path, parent: Path, data: bytes) -> None:
    try:
        fd = os.open(parent, os.O_TMPFILE | os.O_WRONLY, 0o644)
    except OSError as exc:
        if exc.errno in (getattr(os, "EOPNOTSUPP", 95), getattr(os, "EISDIR", 21), getattr(os, "EINVAL", 22)):
            raise _Unsupported from None
        raise InputError(f"cannot write output: {exc.strerror}", file=str(p)) from None
    tmp_name = None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
            # only now does the file get a name: a complete, hidden one, renamed over the target
            tmp_name = parent / f".{p.name}.{os.getpid()}.{id(data):x}.complete"
            # a dir_fd makes os.link use linkat(..., AT_SYMLINK_FOLLOW), which can name an
            # O_TMPFILE file through /proc (plain link() cannot)
            dir_fd = os.open(parent, os.O_RDONLY)
            try:
                os.link(f"/proc/self/fd/{fh.fileno()}", tmp_name, src_dir_fd=dir_fd, follow_symlinks=True)
            finally:
                os.close(dir_fd)
        os.replace(tmp_name, p)
    except BaseException as exc:
        if tmp_name is not None:
            try:
                os.unlink(tmp_name)
            except OSError:
                pass
        if isinstance(exc, OSError):
            if tmp_name is None and exc.errno in (2, 18):  # no /proc, or link across devices
                raise _Unsupported from None
            raise InputError(f"cannot write output: {exc.strerror}", file=str(p)) from None
        raise


def _write_named_temp(p: Path, parent: Path, data: bytes) -> None:
    try:
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
