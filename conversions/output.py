"""Output files: a file is either written whole or not at all, an existing file is never
truncated by a failed run, and what is not a regular file is written to, not replaced.

- A new path, or a regular file: the data is written to an unnamed file in the target's
  folder (Linux ``O_TMPFILE``), flushed, and only then given a name: the target's own name
  when the target does not exist (``linkat``, atomic, no other name ever appears), else a
  short hidden name renamed over the target. So even a process killed mid-write leaves no
  partial file. Where ``O_TMPFILE`` is not available, the data goes to a short hidden
  temporary name (``.xsys-PID-XXXXXXXX.tmp``) renamed over the target.
- A symbolic link is followed: the file it points to is replaced (or created).
- A character device (``/dev/null``, a terminal), a FIFO, a socket, or a file reached
  through ``/proc`` (``/dev/stdout``) is opened and written through, never replaced.
- A new file gets the permissions the umask gives (0666 & ~umask); a replaced file keeps
  its mode (and, where allowed, its owner and group).
- A hidden temporary name left by a killed run (its process gone, the file older than a
  minute; an earlier version's ``.NAME.XXXXXXXX.part``, older than an hour) is removed
  the next time xsys writes into that folder.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import stat
import time
from pathlib import Path

from xsys.core.errors import InputError

_TMP = re.compile(r"^\.xsys-(\d+)-[0-9a-f]{8}\.tmp$")
# left by earlier versions: ".NAME.PID.HEX.complete", and mkstemp's ".NAME.XXXXXXXX.part"
_OLD_COMPLETE = re.compile(r"^\..+\.(\d+)\.[0-9a-f]+\.complete$", re.S)
_OLD_PART = re.compile(r"^\..+\.[a-z0-9_]{8}\.part$", re.S)
_STALE_AFTER = 60.0  # seconds: a temporary file younger than this may belong to a live writer
_swept: set[str] = set()


def write_atomic(path: str | Path, data: bytes) -> None:
    p = Path(path)
    name = str(p)
    parent = p.parent if str(p.parent) else Path(".")
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise InputError("cannot write output: a part of the folder is not a folder", file=name) from None
    except OSError as exc:
        raise InputError(f"cannot write output: {exc.strerror}", file=name) from None
    try:
        st = os.stat(p)  # follows symbolic links
    except FileNotFoundError:
        st = None  # a new path (or a link to one)
    except OSError as exc:
        raise InputError(f"cannot write output: {exc.strerror}", file=name) from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise InputError("cannot write output: it is a folder", file=name)
    if st is not None and not stat.S_ISREG(st.st_mode):
        _write_through(p, name, data, append=False)
        return
    target, magic = _final_target(p, name)
    if magic:  # /dev/stdout and the like: the file the shell opened
        _write_through(p, name, data, append=st is not None)
        return
    _replace(target, name, data, st)


def _final_target(p: Path, name: str) -> tuple[Path, bool]:
    """The path a chain of symbolic links ends at, and whether it goes through /proc (a
    descriptor's magic link, which must be written through, not replaced)."""
    cur = Path(os.path.abspath(p))
    for _ in range(40):
        real_parent = Path(os.path.realpath(cur.parent))
        if str(real_parent).startswith("/proc/") or str(real_parent) == "/proc":
            return cur, True
        cur = real_parent / cur.name
        try:
            link = os.readlink(cur)
        except OSError:  # not a link (or nothing there): this is the file
            return cur, False
        cur = Path(os.path.abspath(real_parent / link))
    raise InputError("cannot write output: too many levels of symbolic links", file=name)


def _write_through(p: Path, name: str, data: bytes, append: bool) -> None:
    flags = os.O_WRONLY | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    if append:
        flags |= os.O_APPEND
    try:
        fd = os.open(p, flags)
    except OSError as exc:
        raise InputError(f"cannot write output: {exc.strerror}", file=name) from None
    try:
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
    except OSError as exc:
        raise InputError(f"cannot write output: {exc.strerror}", file=name) from None
    finally:
        os.close(fd)


def _replace(target: Path, name: str, data: bytes, st: os.stat_result | None) -> None:
    folder = target.parent
    _sweep(folder)
    if hasattr(os, "O_TMPFILE"):
        try:
            _write_unnamed(target, folder, name, data, st)
            return
        except _Unsupported:
            pass
    _write_named_temp(target, folder, name, data, st)


class _Unsupported(Exception):
    pass


def _temp_name(folder: Path) -> Path:
    return folder / f".xsys-{os.getpid()}-{secrets.token_hex(4)}.tmp"


def _keep_mode(fd: int, st: os.stat_result | None) -> None:
    if st is None:
        return
    os.fchmod(fd, stat.S_IMODE(st.st_mode))
    if (st.st_uid, st.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.fchown(fd, st.st_uid, st.st_gid)
        except OSError:
            pass  # only root may give a file away; the data is what matters


def _fill(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]
    os.fsync(fd)


def _write_unnamed(target: Path, folder: Path, name: str, data: bytes, st: os.stat_result | None) -> None:
    try:
        fd = os.open(folder, os.O_TMPFILE | os.O_WRONLY | getattr(os, "O_CLOEXEC", 0), 0o666)
    except OSError as exc:
        if exc.errno in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOENT):
            raise _Unsupported from None
        raise InputError(f"cannot write output: {exc.strerror}", file=name) from None
    tmp = None
    try:
        _fill(fd, data)
        _keep_mode(fd, st)
        # a dir_fd makes os.link use linkat(..., AT_SYMLINK_FOLLOW), which can name an
        # O_TMPFILE file through /proc (plain link() cannot)
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            source = f"/proc/self/fd/{fd}"
            if st is None:
                try:
                    os.link(source, target, src_dir_fd=dir_fd, follow_symlinks=True)
                    return  # named at once: no other name ever existed
                except FileExistsError:
                    pass  # created meanwhile: replace it like any existing file
            tmp = _temp_name(folder)
            os.link(source, tmp, src_dir_fd=dir_fd, follow_symlinks=True)
        finally:
            os.close(dir_fd)
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        if tmp is None and exc.errno in (errno.ENOENT, errno.EXDEV, errno.EPERM, errno.EOPNOTSUPP):
            raise _Unsupported from None  # no /proc, or a filesystem that will not link it
        raise InputError(f"cannot write output: {exc.strerror}", file=name) from None
    finally:
        os.close(fd)
        if tmp is not None:
            _unlink(tmp)


def _write_named_temp(target: Path, folder: Path, name: str, data: bytes, st: os.stat_result | None) -> None:
    tmp = _temp_name(folder)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
    except OSError as exc:
        raise InputError(f"cannot write output: {exc.strerror}", file=name) from None
    try:
        try:
            _fill(fd, data)
            _keep_mode(fd, st)
        finally:
            os.close(fd)
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        raise InputError(f"cannot write output: {exc.strerror}", file=name) from None
    finally:
        if tmp is not None:
            _unlink(tmp)


def _unlink(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process
    return True


def _sweep(folder: Path) -> None:
    """Remove the temporary files killed runs left in `folder` (once per folder and run)."""
    key = str(folder)
    if key in _swept:
        return
    _swept.add(key)
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        n = entry.name
        if not n.startswith(".") or not (n.endswith(".tmp") or n.endswith(".complete") or n.endswith(".part")):
            continue
        m = _TMP.match(n) or _OLD_COMPLETE.match(n)
        if m is None and not _OLD_PART.match(n):
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        # a name without a process id is only known to be stale when it is old
        if not stat.S_ISREG(st.st_mode) or now - st.st_mtime < (_STALE_AFTER if m is not None else 3600.0):
            continue
        if m is not None and _alive(int(m.group(1))):
            continue
        _unlink(Path(entry.path))
