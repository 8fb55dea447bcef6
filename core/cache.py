"""What is kept across processes, under ``$XDG_CACHE_HOME/xsys`` (default
``~/.cache/xsys``):

- the exact chances behind a system's skill ladders (:func:`chances`), which take it
  hundreds of evaluations of its rules, and other exact results that are slow to compute
  (:func:`remembered`: the outcomes of a dice pool, also fired through a barrier); one
  file per system and settings, trusted only while the xsys version and every code and
  data file they come from (the core, and the package of each class the system is made
  of) are byte for byte the same;
- the data of TOML tables (:func:`load_toml`), which the pure-Python TOML parser reads
  many times slower than msgpack; one file per TOML file, trusted only while that file is
  byte for byte the same.

``XSYS_CACHE=0`` turns the cache off (everything is computed in the process). Files are
replaced atomically (a temporary file renamed over the old one) and start with the SHA-256
of their content, so a missing, unreadable, damaged or stale file is ignored (and made
again). Tests check that what is read back equals what is computed afresh.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import os
import sys
import tempfile
import threading
import time
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Sequence

import msgspec

from . import __version__, codec
from .cachedir import cache_dir
from .errors import XsysError

SOURCE_SUFFIXES = (".py", ".toml", ".txt", ".json", ".yaml", ".yml")
MAX_TABLES = 10_000  # per file: a bound on what unusual contexts can add


def enabled() -> bool:
    return os.environ.get("XSYS_CACHE", "1").strip().lower() not in ("0", "false", "no", "off")


# ---- files ------------------------------------------------------------------------------

def _read(path: Path) -> bytes | None:
    """The payload of a cache file, None if it is missing, unreadable or damaged."""
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    digest, payload = raw[:32], raw[32:]
    return payload if hashlib.sha256(payload).digest() == digest else None


def _write(path: Path, payload: bytes) -> bool:
    """Replace a cache file atomically; False if it cannot be written (a cache that cannot
    be written only means computing again next time)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(hashlib.sha256(payload).digest() + payload)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        return False
    return True


# ---- exact chances of a system ----------------------------------------------------------

class _Tables(msgspec.Struct):
    fingerprint: str
    tables: dict[str, list[tuple[int, int, int]]]  # table -> [(level, numerator, denominator)]
    results: dict[str, msgspec.Raw] = {}  # name -> msgpack of the value (fractions as "p/q")


class Store:
    """The cached tables of one system with one set of settings; written at exit."""

    def __init__(self, path: Path, fingerprint: str) -> None:
        self.path = path
        self.fingerprint = fingerprint
        self._tables: dict[str, list[tuple[int, int, int]]] | None = None
        self._results: dict[str, msgspec.Raw] = {}
        self._dirty = False
        self._lock = threading.Lock()
        self._seen: tuple[int, int, int] | None = None  # the file as last read: inode, mtime, size

    def _stamp(self) -> tuple[int, int, int] | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return st.st_ino, st.st_mtime_ns, st.st_size  # each write is a new file (renamed over)

    def _merge_file(self) -> None:
        """Add what the file holds and this Store does not: another process (a sibling worker of
        `xsys serve`, a second CLI run) may have computed and written tables since it was read."""
        stamp = self._stamp()
        if stamp is None or stamp == self._seen:
            return
        self._seen = stamp
        payload = _read(self.path)
        if payload is None:
            return
        try:
            data = msgspec.msgpack.decode(payload, type=_Tables)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return
        if data.fingerprint != self.fingerprint:
            return
        assert self._tables is not None
        for k, v in data.tables.items():
            self._tables.setdefault(k, v)
        for k, r in data.results.items():
            self._results.setdefault(k, r)

    def _load(self) -> dict[str, list[tuple[int, int, int]]]:
        if self._tables is None:
            self._tables = {}
            self._merge_file()
        return self._tables

    def get(self, table: str) -> list[tuple[int, int, int]] | None:
        with self._lock:
            tables = self._load()
            if table not in tables:  # about to be computed: perhaps another process has, meanwhile
                self._merge_file()
            return tables.get(table)

    def put(self, table: str, rows: list[tuple[int, int, int]]) -> None:
        with self._lock:
            tables = self._load()
            if table not in tables and len(tables) < MAX_TABLES:
                tables[table] = rows
                self._dirty = True
                _dirty.add(self)

    def get_result(self, name: str) -> msgspec.Raw | None:
        with self._lock:
            self._load()
            if name not in self._results:
                self._merge_file()
            return self._results.get(name)

    def put_result(self, name: str, raw: msgspec.Raw) -> None:
        with self._lock:
            self._load()
            if name not in self._results and len(self._results) < MAX_TABLES:
                self._results[name] = raw
                self._dirty = True
                _dirty.add(self)

    def save(self) -> None:
        """Write the file if it learnt something since it was read."""
        with self._lock:
            if self._dirty and self._tables is not None:
                self._merge_file()  # keep what others wrote since this Store read the file
                if _write(self.path, msgspec.msgpack.encode(_Tables(self.fingerprint, self._tables, self._results))):
                    self._dirty = False
                    self._seen = self._stamp()


def _process_start() -> float:
    """When this process started (Linux: from /proc, to the clock tick; elsewhere: when this
    module was imported, which is early in every xsys process)."""
    now = time.time()
    try:
        with open("/proc/self/stat", encoding="ascii") as fh:
            ticks = int(fh.read().rsplit(")", 1)[1].split()[19])  # field 22: starttime, ticks after boot
        with open("/proc/stat", encoding="ascii") as fh:
            boot = next(int(line.split()[1]) for line in fh if line.startswith("btime "))
        return min(now, boot + ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError, StopIteration):
        return now


_STARTED = _process_start()
_stores: dict[tuple[type, str], Store] = {}
_fingerprints: dict[type, str] = {}
_source_digests: dict[Path, bytes] = {}
_source_newest: dict[Path, float] = {}  # the newest modification time of a root's source files
_dirty: set[Store] = set()
_lock = threading.Lock()


def store(system: Any) -> Store | None:
    """The Store of a system instance (by class, key and settings), None when disabled."""
    if not enabled():
        return None
    cls = type(system)
    settings = repr(getattr(system, "settings", None))
    with _lock:
        found = _stores.get((cls, settings))
        if found is None:
            ident = hashlib.sha256(f"{cls.__module__}.{cls.__qualname__} {settings}".encode()).hexdigest()[:16]
            key = "".join(c if c.isalnum() or c in "-_" else "_" for c in str(system.key))
            found = _stores[(cls, settings)] = Store(cache_dir() / f"{key}-{ident}.tables", _fingerprint(cls))
        return found


def chances(system: Any, table: str, levels: Sequence[int], chance: Callable[[int], Fraction]) -> list[Fraction]:
    """``[chance(level) for level in levels]``, read from the system's Store when it holds
    `table` for these levels, else computed (and stored)."""
    st = store(system)
    if st is not None:
        rows = st.get(table)
        if rows is not None and [r[0] for r in rows] == list(levels) and all(d > 0 for _, _, d in rows):
            return [Fraction(n, d) for _, n, d in rows]
    values = [chance(level) for level in levels]
    if st is not None:
        st.put(table, [(level, v.numerator, v.denominator) for level, v in zip(levels, values)])
    return values


def remembered(system: Any, name: str, kind: Any, compute: Callable[[], Any]) -> Any:
    """``compute()``, read from the system's Store when it holds `name`, else computed (and
    stored). `kind` is the value's type, to read it back exactly (Fractions as "p/q")."""
    st = store(system)
    if st is not None:
        raw = st.get_result(name)
        if raw is not None:
            try:
                return msgspec.msgpack.decode(raw, type=kind, dec_hook=codec.dec_hook)
            except (msgspec.DecodeError, msgspec.ValidationError, XsysError):
                pass
    value = compute()
    if st is not None:
        st.put_result(name, msgspec.Raw(msgspec.msgpack.encode(value, enc_hook=codec.enc_hook)))
    return value


def _fingerprint(cls: type) -> str:
    """Digest of the xsys version and of every source file the class's results can depend
    on: the core, and the package (or module file) of each class in its MRO."""
    fp = _fingerprints.get(cls)
    if fp is None:
        h = hashlib.sha256(__version__.encode())
        roots = sorted(_sources(cls))
        for root in roots:
            h.update(_source_digest(root))
        fp = h.hexdigest()
        # A source file changed after this process started (another session editing the tree
        # while tests run): the code this process runs may be older than the files the digest
        # read, and tables it computed must not be trusted as theirs (stale ladders were read
        # back that way). Its tables stay its own: no other process shares this fingerprint.
        # (btime has a resolution of one second: a file changed within it counts as changed.)
        if any(_source_newest[root] > _STARTED - 1.0 for root in roots):
            fp += f" changed after process {os.getpid()} started at {_STARTED:.2f}"
        _fingerprints[cls] = fp
    return fp


def _source_digest(root: Path) -> bytes:
    """Digest of a package directory's source files (or of one module file), once per process."""
    digest = _source_digests.get(root)
    if digest is None:
        h = hashlib.sha256()
        files = sorted(p for p in root.rglob("*") if p.suffix in SOURCE_SUFFIXES) if root.is_dir() else [root]
        newest = 0.0
        for p in files:
            newest = max(newest, p.stat().st_mtime)
            h.update(str(p.relative_to(root.parent)).encode() + b"\0" + p.read_bytes() + b"\0")
        _source_newest[root] = newest
        digest = _source_digests[root] = h.digest()
    return digest


def _sources(cls: type) -> set[Path]:
    out = {Path(__file__).parent}
    for klass in cls.__mro__:
        module = sys.modules.get(klass.__module__)
        path = getattr(module, "__file__", None)
        if path is None:
            continue
        # a module inside a package: the whole package (its data files too); else the file
        out.add(Path(path).parent if getattr(module, "__package__", "") else Path(path))
    return out


def learnt() -> bool:
    """Whether a Store of this process holds tables not yet written."""
    return bool(_dirty)


def save_all() -> None:
    """Write every Store that learnt something (run at exit, and by a long-lived process such
    as a worker of `xsys serve` after a request that computed a table, so that its siblings
    and successors read it instead of computing it again)."""
    for st in list(_dirty):
        st.save()
        if not st._dirty:
            _dirty.discard(st)


def forget() -> None:
    """Drop every Store and fingerprint without writing them (tests start again from the files)."""
    with _lock:
        _stores.clear()
        _fingerprints.clear()
        _source_digests.clear()
        _source_newest.clear()
        _dirty.clear()


atexit.register(save_all)


# ---- small facts ------------------------------------------------------------------------

class _Fact(msgspec.Struct):
    fingerprint: str
    data: Any


class _Facts(msgspec.Struct):
    facts: list[_Fact]  # the most recently kept first


MAX_FACTS = 8  # fingerprints kept per name: environments that share the cache (a venv and
# a test run see different sys.path entries) do not push each other's facts out


def _facts(name: str) -> list[_Fact]:
    payload = _read(cache_dir() / f"{name}.msgpack")
    if payload is None:
        return []
    try:
        return msgspec.msgpack.decode(payload, type=_Facts).facts
    except (msgspec.DecodeError, msgspec.ValidationError):
        return []  # damaged, or written by an older version (one fact): made again


def recall(name: str, fingerprint: str) -> Any:
    """What :func:`keep` stored under `name` with this `fingerprint` (None if nothing, or
    something else, is stored)."""
    if not enabled():
        return None
    for fact in _facts(name):
        if fact.fingerprint == fingerprint:
            return fact.data
    return None


def keep(name: str, fingerprint: str, data: Any) -> None:
    """Store plain `data` (lists, dicts, strings, numbers) under `name`, valid while the
    caller's `fingerprint` of what it depends on is the same. The last :data:`MAX_FACTS`
    fingerprints are kept side by side."""
    if enabled():
        facts = [_Fact(fingerprint, data)] + [f for f in _facts(name) if f.fingerprint != fingerprint]
        _write(cache_dir() / f"{name}.msgpack", msgspec.msgpack.encode(_Facts(facts[:MAX_FACTS])))


# ---- TOML data --------------------------------------------------------------------------

class _Toml(msgspec.Struct):
    source: str  # SHA-256 of the TOML file
    data: dict[str, Any]


def load_toml(path: str | Path) -> dict[str, Any]:
    """``tomllib.load`` of a file, through the cache: the same data (new objects on every
    call), the same errors. Data msgpack would not give back exactly (dates, integers
    beyond 64 bits, NaN) is not cached."""
    import tomllib

    raw = Path(path).read_bytes()
    if not enabled():
        return tomllib.loads(raw.decode("utf-8"))
    source = hashlib.sha256(raw).hexdigest()
    where = cache_dir() / "toml" / (hashlib.sha256(str(Path(path).resolve()).encode()).hexdigest()[:24] + ".msgpack")
    payload = _read(where)
    if payload is not None:
        try:
            cached = msgspec.msgpack.decode(payload, type=_Toml)
        except (msgspec.DecodeError, msgspec.ValidationError):
            pass
        else:
            if cached.source == source:
                return cached.data
    data = tomllib.loads(raw.decode("utf-8"))
    try:
        payload = msgspec.msgpack.encode(_Toml(source, data))
        exact = msgspec.msgpack.decode(payload, type=_Toml).data == data
    except (TypeError, ValueError, OverflowError):
        exact = False
    if exact:
        _write(where, payload)
    return data


@functools.lru_cache(maxsize=None)
def package_toml(package: str, name: str = "tables.toml") -> dict[str, Any]:
    """A data file shipped inside a plugin's package (``package_toml(__package__)``), parsed once
    per process through :func:`load_toml`. The same object every call: do not change it."""
    from importlib import resources

    with resources.as_file(resources.files(package).joinpath(name)) as path:
        return load_toml(path)
