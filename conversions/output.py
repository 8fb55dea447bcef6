"""Output files: a file is either written whole or not at all, an existing file is never
truncated by a failed run, and what is not a regular file is written to, not replaced.

- A new path, or a regular file: the data is written to an unnamed file in the target's
  folder (Linux ``O_TMPFILE``), flushed, and only then given a name: the target's own name
  when the target does not exist (``linkat``, atomic, no other name ever appears), else a
  temporary name in a folder of xsys's own (:class:`TempFolder`) renamed over the target.
  So even a process killed mid-write leaves no partial file under the target's name. Where
  ``O_TMPFILE`` is not available, the data is written under a temporary name in such a
  folder and renamed over the target.
- A symbolic link is followed: the file it points to is replaced (or created).
- A character device (``/dev/null``, a terminal), a FIFO, a socket, or a file reached
  through ``/proc`` (``/dev/stdout``) is opened and written through, never replaced.
- A new file gets the permissions the umask gives (0666 & ~umask); a replaced file keeps
  its mode (and, where allowed, its owner and group).
- Temporary files live only inside xsys's own folders, ``.xsys-PID-TOKEN.d`` (TOKEN: 16
  random hex digits), each holding an ``owner`` file that says so (its text names the
  folder's TOKEN) and that the writing process keeps locked (``flock``) while it runs. The
  next xsys run that writes into the same folder removes such a folder when, and only
  when, all of this holds: the name has that shape, the folder is a real folder of the same
  user, its ``owner`` text is exactly the one xsys writes for that name, its lock is free
  (the process that held it is gone, however it ended: the kernel releases a dead
  process's locks), and it holds nothing but ``owner`` and xsys's own ``NAME.part`` files.
  Nothing else is ever removed: not a file of the user's with a look-alike name, not a
  folder without the marker, not the folder of a run still going.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import signal
import stat
from pathlib import Path
from typing import Iterator

from xsys.core.errors import InputError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no locks, so nothing is ever swept
    fcntl = None  # type: ignore[assignment]

_FOLDER = re.compile(r"^\.xsys-(\d+)-([0-9a-f]{16})\.d$")
_INNER = re.compile(r"^[a-z0-9-]{1,32}\.part$")
_OWNER = "owner"
_swept: set[str] = set()
_HELD = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n))


def _marker(pid: int, token: str) -> bytes:
    return (f"xsys temporary folder .xsys-{pid}-{token}.d\n"
            "removed by the next xsys run that writes beside it, once the process holding this "
            "file's lock is gone\n").encode("ascii")


# The stop a signal asked for (conversions.run._on_signal), kept beside the exception its handler
# raises: Python runs a handler between any two steps of Python code, also inside a ``__hash__``
# that C code calls and whose error it drops (msgspec looking a type up), so that exception can be
# lost. Every output is committed, and every NPC of a roster begun, only after
# :func:`raise_pending_stop`: a stopped run never finishes as if nothing had happened.
_PENDING_STOP: list[BaseException] = []


def stop_requested(stop: BaseException) -> None:
    _PENDING_STOP.append(stop)


def clear_pending_stop() -> None:
    """Forget a stop asked for (each command starts afresh; a process that goes on after one ends)."""
    _PENDING_STOP.clear()


def raise_pending_stop() -> None:
    """Raise the stop a signal asked for, if one did (see above)."""
    if _PENDING_STOP:
        raise _PENDING_STOP[0]


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP wait (are blocked) until the block ends: a temporary
    folder is made or removed whole, never left half made by a signal's handler."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None or not _HELD:
        yield
        return
    old = mask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, old)


class TempFolder:
    """A folder of xsys's own in `parent` for temporary files (see the module docstring):
    ``.xsys-PID-TOKEN.d`` with a locked ``owner`` marker. :meth:`file` names a file in it;
    :meth:`remove` removes what this process made there and the folder."""

    def __init__(self, parent: Path) -> None:
        pid, token = os.getpid(), secrets.token_hex(8)
        path = parent / f".xsys-{pid}-{token}.d"
        self.path = path
        self.parent = parent
        self._names: list[str] = []
        self._fd = -1
        with signals_held():
            os.mkdir(path, 0o700)
            try:
                fd = os.open(path / _OWNER, os.O_RDWR | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600)
                self._fd = fd
                # locked before it says anything: a folder whose marker is complete is held
                # until its process ends (a folder that cannot be locked gets no marker and
                # so is never swept: a leftover, never a removal of a live run's files)
                if _lock(fd, wait=True):
                    _write_all(fd, _marker(pid, token))
            except BaseException:
                self._remove_now()
                raise

    def file(self, stem: str) -> Path:
        """The path of temporary file `stem` in this folder (recorded for :meth:`remove`)."""
        name = f"{stem}.part"
        assert _INNER.match(name), name
        if name not in self._names:
            self._names.append(name)
        return self.path / name

    def remove(self) -> None:
        with signals_held():
            self._remove_now()

    def _remove_now(self) -> None:
        if self._fd < 0 and not self.path.exists():
            return
        for name in self._names:
            _unlink(self.path / name)
        _unlink(self.path / _OWNER)
        try:
            os.rmdir(self.path)
        except OSError:
            pass
        if self._fd >= 0:
            os.close(self._fd)  # the lock goes with it
            self._fd = -1


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def _lock(fd: int, wait: bool) -> bool:
    if fcntl is None:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except OSError:  # held by a live process, or a file system without locks
        return False
    return True


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


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
    target, magic = final_target(p, name)
    if magic:  # /dev/stdout and the like: the file the shell opened
        _write_through(p, name, data, append=st is not None)
        return
    _replace(target, name, data, st)


def final_target(p: Path, name: str) -> tuple[Path, bool]:
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
    flags = os.O_WRONLY | getattr(os, "O_NOCTTY", 0) | _CLOEXEC
    if append:
        flags |= os.O_APPEND
    try:
        fd = os.open(p, flags)
    except OSError as exc:
        raise InputError(f"cannot write output: {exc.strerror}", file=name) from None
    try:
        _write_all(fd, data)
    except OSError as exc:
        raise InputError(f"cannot write output: {exc.strerror}", file=name) from None
    finally:
        os.close(fd)


def _replace(target: Path, name: str, data: bytes, st: os.stat_result | None) -> None:
    folder = target.parent
    sweep(folder)
    if hasattr(os, "O_TMPFILE"):
        try:
            _write_unnamed(target, folder, name, data, st)
            return
        except _Unsupported:
            pass
    _write_named_temp(target, folder, name, data, st)


class _Unsupported(Exception):
    pass


def temp_folder(folder: Path, name: str) -> TempFolder:
    """A :class:`TempFolder` in `folder`, or the error of writing output `name`."""
    try:
        return TempFolder(folder)
    except OSError as exc:
        raise InputError(f"cannot write output: {exc.strerror}", file=name) from None


def keep_mode(fd: int, st: os.stat_result | None) -> None:
    if st is None:
        return
    os.fchmod(fd, stat.S_IMODE(st.st_mode))
    if (st.st_uid, st.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.fchown(fd, st.st_uid, st.st_gid)
        except OSError:
            pass  # only root may give a file away; the data is what matters


def _fill(fd: int, data: bytes) -> None:
    _write_all(fd, data)
    os.fsync(fd)


def _write_unnamed(target: Path, folder: Path, name: str, data: bytes, st: os.stat_result | None) -> None:
    try:
        fd = os.open(folder, os.O_TMPFILE | os.O_WRONLY | _CLOEXEC, 0o666)
    except OSError as exc:
        if exc.errno in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOENT):
            raise _Unsupported from None
        raise InputError(f"cannot write output: {exc.strerror}", file=name) from None
    temps: TempFolder | None = None
    named = False
    try:
        _fill(fd, data)
        keep_mode(fd, st)
        # a dir_fd makes os.link use linkat(..., AT_SYMLINK_FOLLOW), which can name an
        # O_TMPFILE file through /proc (plain link() cannot)
        source = f"/proc/self/fd/{fd}"
        if st is None:
            dir_fd = os.open(folder, os.O_RDONLY | _CLOEXEC)
            try:
                os.link(source, target, src_dir_fd=dir_fd, follow_symlinks=True)
                return  # named at once: no other name ever existed
            except FileExistsError:
                pass  # created meanwhile: replace it like any existing file
            finally:
                os.close(dir_fd)
        temps = temp_folder(folder, name)
        tmp = temps.file("out")
        dir_fd = os.open(folder, os.O_RDONLY | _CLOEXEC)
        try:
            os.link(source, tmp, src_dir_fd=dir_fd, follow_symlinks=True)
        finally:
            os.close(dir_fd)
        named = True
        raise_pending_stop()
        os.replace(tmp, target)
    except OSError as exc:
        if not named and exc.errno in (errno.ENOENT, errno.EXDEV, errno.EPERM, errno.EOPNOTSUPP):
            raise _Unsupported from None  # no /proc, or a filesystem that will not link it
        raise InputError(f"cannot write output: {exc.strerror}", file=name) from None
    finally:
        os.close(fd)
        if temps is not None:
            temps.remove()


def _write_named_temp(target: Path, folder: Path, name: str, data: bytes, st: os.stat_result | None) -> None:
    temps = temp_folder(folder, name)
    try:
        tmp = temps.file("out")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC, 0o666)
        except OSError as exc:
            raise InputError(f"cannot write output: {exc.strerror}", file=name) from None
        try:
            try:
                _fill(fd, data)
                keep_mode(fd, st)
            finally:
                os.close(fd)
            raise_pending_stop()
            os.replace(tmp, target)
        except OSError as exc:
            raise InputError(f"cannot write output: {exc.strerror}", file=name) from None
    finally:
        temps.remove()


def _unlink(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def sweep(folder: Path) -> None:
    """Remove the temporary folders of xsys runs that are gone from `folder` (once per
    folder and process): only what xsys provably made (see the module docstring)."""
    key = str(folder)
    if key in _swept or fcntl is None:
        return
    _swept.add(key)
    try:
        entries = [e for e in os.scandir(folder) if e.name.startswith(".xsys-") and _FOLDER.match(e.name)]
    except OSError:
        return
    for entry in entries:
        try:
            _sweep_one(Path(entry.path), _FOLDER.match(entry.name))
        except OSError:
            continue  # whatever cannot be checked is left alone


def _sweep_one(path: Path, m: "re.Match[str]") -> None:
    st = os.lstat(path)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid():
        return
    fd = os.open(path / _OWNER, os.O_RDONLY | _NOFOLLOW | _CLOEXEC | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode) or not _lock(fd, wait=False):
            return  # not a marker, or its process is still running
        expected = _marker(int(m.group(1)), m.group(2))
        if os.read(fd, len(expected) + 1) != expected:
            return  # not the marker xsys writes for this name
        inner = []
        for e in os.scandir(path):
            if e.name == _OWNER:
                continue
            if not _INNER.match(e.name) or not e.is_file(follow_symlinks=False):
                return  # something xsys does not put there: leave the folder as it is
            inner.append(e.path)
        with signals_held():
            for p in inner:
                _unlink(Path(p))
            _unlink(path / _OWNER)
            os.rmdir(path)
    finally:
        os.close(fd)
