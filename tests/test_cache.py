"""Tables kept across processes and within one: cached and uncached dice
tables and ladders are identical; the disk cache is keyed, atomic, ignores what it cannot
trust, and can be turned off."""

from __future__ import annotations

import glob
import hashlib
import os
import tomllib
from fractions import Fraction as F
from pathlib import Path

import msgspec
import pytest

from xsys.core import cache, dice
from xsys.core.registry import default_registry

ROOT = Path(__file__).resolve().parent.parent
KEYS = default_registry().keys()


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    """An empty cache directory for the test, with the cache on."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("XSYS_CACHE", "1")
    cache.forget()
    yield tmp_path / "xsys"
    cache.forget()


def _contexts(system) -> list[dict]:
    """Every characteristic at its lowest and at its highest value, with each weapon class
    (a skill covering several neutral skills has one ladder per class)."""
    out: list[dict] = []
    specs = system.characteristics()
    for pick in (0, -1):
        ctx = {name: spec.ladder.natives[pick] for name, spec in specs.items()}
        out += [ctx] + [{**ctx, "@class": c} for c in ("handgun", "rifle", "shotgun", "thrown")]
    return out


def _tables(system) -> dict[str, object]:
    """Every ladder of a system, every skill ladder with no context and the standard chances
    behind it, and the handgun skill's ladders in every context of :func:`_contexts` (every
    skill in every context takes a minute for coc; the Store keeps them all alike)."""
    out: dict[str, object] = {f"ladder {k}": v for k, v in system.ladders().items()}
    out |= {f"characteristic {k}": spec.ladder for k, spec in system.characteristics().items()}
    handgun = system.skill_for_weapon("handgun")
    for skill, ctx in [(skill, None) for skill in system.skills()] + [(handgun, c) for c in _contexts(system)]:
        lad = system.skill_ladder(skill, ctx)
        out[f"skill {skill} {ctx}"] = lad
        out[f"competence {skill} {ctx}"] = [system.competence(skill, s.native, ctx) for s in lad.steps]
    return out


@pytest.mark.parametrize("key", KEYS)
def test_cached_and_uncached_tables_are_identical(key, cache_home, monkeypatch):
    cls = default_registry().entry(key).cls
    computed = _tables(cls())  # computed (the cache directory is empty), and written to the cache
    # the cache off computes the same: the handgun skill's ladder and chances in its widest
    # context (every table again would double the time of the test, not its reach)
    monkeypatch.setenv("XSYS_CACHE", "0")
    system = cls()
    handgun, ctx = system.skill_for_weapon("handgun"), _contexts(system)[-1]
    uncached = system.skill_ladder(handgun, ctx)
    assert uncached == computed[f"skill {handgun} {ctx}"]
    assert [system.competence(handgun, s.native, ctx) for s in uncached.steps] == computed[f"competence {handgun} {ctx}"]
    monkeypatch.setenv("XSYS_CACHE", "1")
    cache.save_all()
    cache.forget()
    # a system equated on another's checks (skill_scale_checks: coc7 on coc's) asks that
    # system's ladders, which that system caches: nothing of its own, or its own few
    ref = cls().scale_system()
    assert {f.name.rsplit("-", 1)[0] for f in cache_home.glob("*.tables")} <= (
        {key} if ref is None else {key, ref.key}), list(cache_home.glob("*.tables"))
    if ref is None:
        assert [f.name.rsplit("-", 1)[0] for f in cache_home.glob("*.tables")] == [key]
    # read back: building the skill ladders asks the rules nothing
    system = cls()
    monkeypatch.setattr(system, "check_at", _refuse)
    monkeypatch.setattr(system, "roll_chance", _refuse)
    for skill in system.skills():
        system.skill_ladder(skill)
    assert _tables(cls()) == computed


def _refuse(*args, **kwargs):
    raise AssertionError("computed, not read from the cache")


def test_pool_and_barrier_outcomes_read_back_are_identical(cache_home, monkeypatch):
    from xsys.conversions import api
    from xsys.core.model import Barrier, Cover, standard_shot
    from xsys.core.units import Length
    from xsys.plugins.nwod import rules as nwod_rules  # the game: where the outcome tables are computed
    from xsys.plugins.nwod import system as nw

    door = api.load(ROOT / "fixtures" / "nwod" / "scenarios" / "door.yaml")
    shots = [s for _, s in api.shots_of(door)[0]]
    for cls, skill in (("handgun", 0.3), ("rifle", 0.7), ("shotgun", 0.95)):
        shot = standard_shot(cls, skill)
        barrier = Barrier(material="concrete", thickness=Length(0.1))
        target = msgspec_replace(shot.target, cover=Cover(exposure=0.0, barrier=barrier))
        shots += [shot, msgspec_replace(shot, target=target)]
    monkeypatch.setenv("XSYS_CACHE", "0")
    computed = [nw.NwodSystem().check(s) for s in shots]
    monkeypatch.setenv("XSYS_CACHE", "1")
    assert [nw.NwodSystem().check(s) for s in shots] == computed  # computed again, and written
    cache.save_all()
    cache.forget()
    monkeypatch.setattr(nwod_rules, "_pool_outcomes", _refuse)
    monkeypatch.setattr(nwod_rules, "_barrier_outcomes", _refuse)
    system = nw.NwodSystem()
    assert [system.check(s) for s in shots] == computed  # read back


def msgspec_replace(obj, **changes):
    import msgspec

    return msgspec.structs.replace(obj, **changes)


def test_dice_tables_cached_in_the_process_equal_fresh_ones():
    before = {(n, s): dict(dice.sum_distribution(n, s)) for n in range(0, 9) for s in (4, 6, 10, 20)}
    pools = {(n, a): dict(dice.pool_successes(n, dice.PoolRules(again=a))) for n in range(-1, 25) for a in (8, 9, 10)}
    dice.clear_caches()
    assert before == {(n, s): dice.sum_distribution(n, s) for n in range(0, 9) for s in (4, 6, 10, 20)}
    assert pools == {(n, a): dice.pool_successes(n, dice.PoolRules(again=a)) for n in range(-1, 25) for a in (8, 9, 10)}


@pytest.mark.parametrize("sides", [2, 4, 6, 10, 20])
def test_sums_of_dice_agree_with_icepool(sides):
    import icepool

    for n in range(1, 7):
        die = n @ icepool.d(sides)
        expected = {int(k): F(q, die.denominator()) for k, q in die.items() if q}
        got = dice.sum_distribution(n, sides)
        assert got == expected and list(got) == list(expected)


def test_sums_over_weights_equal_fraction_sums():
    ref = {0: F(1, 3), 2: F(1, 6), 5: F(1, 2)}
    at_least = [F(1), F(1), F(2, 3), F(2, 3), F(1, 2), F(1, 2), F(1, 2), F(0)]  # k = -1 .. 6
    at_most = [F(0), F(1, 3), F(1, 3), F(1, 2), F(1, 2), F(1, 2), F(1), F(1)]
    assert [dice.at_least(ref, k) for k in range(-1, 7)] == at_least
    assert [dice.at_most(ref, k) for k in range(-1, 7)] == at_most
    assert dice.mean(ref) == F(17, 6)  # 0 x 1/3 + 2 x 1/6 + 5 x 1/2
    assert dice.mean({}) == 0 and isinstance(dice.mean({}), F)
    assert dice.mean({1.5: F(1, 2)}) == 0.75  # non-integer values: ordinary arithmetic
    assert dice.at_least({1: 0.25, 2: 0.75}, 2) == 0.75


# ---- the disk cache itself, on a stub system ---------------------------------------------
# Each behaviour of the files (written whole, checked, ignored when damaged or stale, kept
# per process when the sources changed, off, unwritable) is shown on a stub with three small
# tables; the real systems' tables go through the same Store (see the round trip above).

LEVELS = range(5)


class Stub:
    """A system as the disk cache sees it: a key, settings, and a class whose sources are this
    file and the core. Two chance tables go through ``cache.chances`` and one exact result
    through ``cache.remembered``; every computation is recorded in ``asked``, so a test tells a
    table read back from one computed."""

    key = "stub"
    settings = None

    def __init__(self) -> None:
        self.asked: list[tuple[str, int | None]] = []

    def _chance(self, table: str, level: int) -> F:
        self.asked.append((table, level))
        return F(level + (1 if table == "b" else 0), 10)

    def _pool(self) -> dict[int, F]:
        self.asked.append(("pool", None))
        return {0: F(1, 8), 1: F(3, 8), 2: F(3, 8), 3: F(1, 8)}  # heads in three coin tosses

    def tables(self) -> dict[str, object]:
        return {
            "a": cache.chances(self, "chance a", LEVELS, lambda lv: self._chance("a", lv)),
            "b": cache.chances(self, "chance b", LEVELS, lambda lv: self._chance("b", lv)),
            "pool": cache.remembered(self, "pool 3", dict[int, F], self._pool),
        }


STUB_TABLES = {
    "a": [F(0), F(1, 10), F(1, 5), F(3, 10), F(2, 5)],
    "b": [F(1, 10), F(1, 5), F(3, 10), F(2, 5), F(1, 2)],
    "pool": {0: F(1, 8), 1: F(3, 8), 2: F(3, 8), 3: F(1, 8)},
}
ALL_ASKED = [("a", lv) for lv in LEVELS] + [("b", lv) for lv in LEVELS] + [("pool", None)]


def _fill() -> None:
    """Compute the stub's tables and write them (as at the end of a process)."""
    stub = Stub()
    assert stub.tables() == STUB_TABLES
    assert stub.asked == ALL_ASKED
    cache.save_all()
    cache.forget()


def test_stub_tables_are_read_back_without_computing(cache_home):
    _fill()
    assert [f.name.rsplit("-", 1)[0] for f in cache_home.glob("*.tables")] == ["stub"]
    stub = Stub()
    assert stub.tables() == STUB_TABLES
    assert stub.asked == []


def test_a_table_another_process_wrote_meanwhile_is_read_not_computed_and_saving_keeps_it(cache_home):
    # two processes' Stores of one file (two workers of `xsys serve`, forked with it read)
    path = cache_home / "shared.tables"
    first, second = cache.Store(path, "fp"), cache.Store(path, "fp")
    assert first.get("chance a") is None and second.get("chance a") is None  # both read it: none yet
    second.put("chance a", [(0, 1, 2)])
    second.save()
    assert first.get("chance a") == [(0, 1, 2)]  # a miss looks at the file again
    first.put_result("pool 3", msgspec.Raw(msgspec.msgpack.encode([1, 2])))
    second.put("chance b", [(1, 1, 3)])
    second.save()
    first.save()  # written after the second: what the second wrote meanwhile is kept
    third = cache.Store(path, "fp")
    assert third.get("chance a") == [(0, 1, 2)] and third.get("chance b") == [(1, 1, 3)]
    assert msgspec.msgpack.decode(third.get_result("pool 3")) == [1, 2]
    # another fingerprint (other sources) never takes them
    assert cache.Store(path, "other").get("chance a") is None


def test_off_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("XSYS_CACHE", "0")
    cache.forget()
    _fill()
    stub = Stub()
    assert stub.tables() == STUB_TABLES
    assert stub.asked == ALL_ASKED  # nothing kept: computed again
    cache.load_toml(ROOT / "plugins" / "gurps" / "tables.toml")
    assert not (tmp_path / "xsys").exists()


def test_files_are_whole_and_checked(cache_home):
    _fill()
    files = list(cache_home.glob("*"))
    assert [f.name for f in files if ".tmp" in f.name] == []  # no temporary file left behind
    (path,) = [f for f in files if f.suffix == ".tables"]
    raw = path.read_bytes()
    assert raw[:32] == hashlib.sha256(raw[32:]).digest()


def _checked(payload: bytes) -> bytes:
    return hashlib.sha256(payload).digest() + payload


@pytest.mark.parametrize("damage,recomputed", [
    ("garbage", ALL_ASKED), ("truncated", ALL_ASKED), ("flipped", ALL_ASKED), ("empty", ALL_ASKED),
    # well formed and checked, but impossible: only the impossible table is computed again
    ("zero-denominator", [("a", lv) for lv in LEVELS]),
    ("result-of-another-type", [("pool", None)]),
    ("result-not-a-fraction", [("pool", None)]),
])
def test_damaged_cache_is_ignored(cache_home, damage, recomputed):
    import msgspec

    _fill()
    (path,) = cache_home.glob("stub-*.tables")
    raw = path.read_bytes()
    kept = msgspec.msgpack.decode(raw[32:], type=cache._Tables)
    if damage == "garbage":
        path.write_bytes(b"\x00not a cache file" * 10)
    elif damage == "truncated":
        path.write_bytes(raw[: len(raw) // 2])
    elif damage == "flipped":
        path.write_bytes(raw[:-5] + bytes([raw[-5] ^ 0x40]) + raw[-4:])
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "zero-denominator":
        kept.tables["chance a"] = [(lv, 1, 0) for lv in LEVELS]
        path.write_bytes(_checked(msgspec.msgpack.encode(kept)))
    elif damage == "result-of-another-type":
        kept.results["pool 3"] = msgspec.Raw(msgspec.msgpack.encode(["not", "a", "table"]))
        path.write_bytes(_checked(msgspec.msgpack.encode(kept)))
    else:
        kept.results["pool 3"] = msgspec.Raw(msgspec.msgpack.encode({0: "1/0"}))
        path.write_bytes(_checked(msgspec.msgpack.encode(kept)))
    stub = Stub()
    assert stub.tables() == STUB_TABLES
    assert stub.asked == recomputed


def test_a_damaged_file_is_made_again(cache_home):
    _fill()
    (path,) = cache_home.glob("stub-*.tables")
    path.write_bytes(b"")
    assert Stub().tables() == STUB_TABLES  # computed again ...
    cache.save_all()
    cache.forget()
    stub = Stub()
    assert stub.tables() == STUB_TABLES  # ... and written: read back
    assert stub.asked == []


def test_stale_cache_is_ignored(cache_home, monkeypatch):
    _fill()
    # the same file under another fingerprint (as after an edit of a rule file)
    with monkeypatch.context() as m:
        m.setattr(cache, "_fingerprint", lambda c: "another version of the rules")
        stub = Stub()
        assert stub.tables() == STUB_TABLES
        assert stub.asked == ALL_ASKED  # not trusted: computed
        cache.forget()
    stub = Stub()
    assert stub.tables() == STUB_TABLES
    assert stub.asked == []  # the file of the right fingerprint is still read


def test_a_process_older_than_its_sources_trusts_no_one_elses_tables(cache_home, monkeypatch):
    """A test run that imported the rules before another session edited them computed ladders
    with the old code and wrote them under the fingerprint of the new files, and later
    processes read the old ladders back. A process whose sources changed after it started keeps
    a fingerprint of its own: it neither writes tables others trust nor reads theirs."""
    import time

    monkeypatch.setattr(cache, "_STARTED", time.time() + 60)  # started after every edit
    clean = cache._fingerprint(Stub)
    cache.forget()
    monkeypatch.setattr(cache, "_STARTED", 0.0)  # every source file changed after it started
    changed = cache._fingerprint(Stub)
    assert changed.startswith(clean) and changed != clean and str(os.getpid()) in changed
    _fill()  # written under the process's own fingerprint
    monkeypatch.setattr(cache, "_STARTED", time.time() + 60)
    stub = Stub()
    assert stub.tables() == STUB_TABLES
    assert stub.asked == ALL_ASKED  # not trusted by a process that is up to date: computed


def test_process_start_is_now_or_before():
    import time

    assert time.time() - 3600 * 24 * 365 < cache._process_start() <= time.time()


def test_fingerprint_covers_the_class_and_its_parents():
    coc_zh = default_registry().entry("coc-zh").cls
    sources = {p.name for p in cache._sources(coc_zh)}
    assert {"core", "coc", "coc_zh"} <= sources


def test_unwritable_cache_is_not_an_error(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    monkeypatch.setenv("XSYS_CACHE", "1")
    cache.forget()
    try:
        stub = Stub()
        assert stub.tables() == STUB_TABLES
        cache.save_all()  # cannot write: no error
        assert blocker.read_text() == "not a directory"
        with open(ROOT / "plugins" / "gurps" / "tables.toml", "rb") as fh:
            assert cache.load_toml(ROOT / "plugins" / "gurps" / "tables.toml") == tomllib.load(fh)
    finally:
        cache.forget()


# ---- TOML data -------------------------------------------------------------------------

TOML_FILES = sorted(glob.glob(str(ROOT / "plugins" / "*" / "*.toml")) + glob.glob(str(ROOT / "core" / "data" / "*.toml")))


@pytest.mark.parametrize("path", TOML_FILES, ids=lambda p: str(Path(p).relative_to(ROOT)))
def test_toml_read_back_from_the_cache_is_the_same(path, cache_home):
    with open(path, "rb") as fh:
        expected = tomllib.load(fh)
    first = cache.load_toml(path)  # parsed, and written to the cache
    assert first == expected
    assert len(list((cache_home / "toml").glob("*.msgpack"))) == 1
    again = cache.load_toml(path)  # read from the cache
    assert again == expected and again is not first


def test_toml_that_msgpack_cannot_keep_is_not_cached(tmp_path, cache_home):
    path = tmp_path / "dated.toml"
    path.write_text('when = 1979-05-27\nbig = 123456789012345678901234567890\n[t]\nx = nan\n')
    for _ in range(2):
        data = cache.load_toml(path)
        assert str(data["when"]) == "1979-05-27" and data["big"] == 123456789012345678901234567890
    assert not (cache_home / "toml").exists()


def test_toml_errors_are_tomllibs(tmp_path, cache_home):
    path = tmp_path / "bad.toml"
    path.write_text("a = = 1\n")
    with pytest.raises(tomllib.TOMLDecodeError):
        cache.load_toml(path)
    good = tmp_path / "good.toml"
    good.write_text("a = 1\n")
    assert cache.load_toml(good) == {"a": 1}
    good.write_text("a = 2\n")  # edited: the cached data is stale
    assert cache.load_toml(good) == {"a": 2}


@pytest.mark.parametrize("module", ["coc", "coc_zh", "gurps", "nwod", "pl_trudnosc"])
def test_every_plugin_tables_toml_goes_through_the_cache(module, monkeypatch):
    """Each built-in plugin's tables.toml is read by ``cache.load_toml`` (coc-zh's
    tables skipped it), with tomllib's data."""
    import importlib
    import inspect

    mod = importlib.import_module(f"xsys.plugins.{module}")
    files = [importlib.import_module(f"xsys.plugins.{module}.{m}") for m in ("rules", "system")
             if importlib.util.find_spec(f"xsys.plugins.{module}.{m}") is not None]
    sources = "".join(inspect.getsource(f) for f in files)
    assert "tomllib" not in sources, f"{mod.__name__} parses TOML itself instead of through the cache (cache.load_toml, cache.package_toml)"
    assert "load_toml" in sources or "package_toml" in sources


def test_coc_zh_tables_are_read_through_the_cache(monkeypatch):
    from xsys.plugins.coc_zh import rules

    seen = []
    real = cache.load_toml
    monkeypatch.setattr(cache, "load_toml", lambda p: seen.append(Path(p).name) or real(p))
    cache.package_toml.cache_clear()
    try:
        data = rules.tables()
    finally:
        cache.package_toml.cache_clear()
    assert seen == ["tables.toml"]
    with open(ROOT / "plugins" / "coc_zh" / "tables.toml", "rb") as fh:
        assert data == tomllib.load(fh)
