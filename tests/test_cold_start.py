"""Cold start: a built-in command is built alone, the plugins' entry points come
from the on-disk cache while the installed distributions are unchanged (importlib.metadata
is then not imported), and they are the same entry points importlib.metadata finds."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from xsys.conversions import cli
from xsys.core import cache, registry

ROOT = Path(__file__).resolve().parent.parent
NPC = ROOT / "fixtures" / "coc" / "npcs" / "investigator_38.yaml"


def test_a_builtin_command_is_built_alone():
    one = cli.app_for(["convert", str(NPC), "--to", "gurps"])
    assert [registry._command_name(c) for c in one.registered_commands] == ["convert"]
    assert one.registered_callback is cli.app.registered_callback
    # anything else gets every command (plugins' too)
    for args in (["--help"], ["--version"], ["no-such-command"], []):
        assert cli.app_for(args) is cli.app


def test_cached_entry_points_are_what_importlib_metadata_finds(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("XSYS_CACHE", "1")
    first = registry.installed_entry_points()  # found, and remembered
    again = registry.installed_entry_points()  # remembered
    assert all(isinstance(ep, registry.CachedEntryPoint) for ep in again)
    want = sorted((ep.name, ep.value, ep.dist.name, ep.dist.version) for ep in metadata.entry_points(group="xsys"))
    for eps in (first, again):
        assert sorted((ep.name, ep.value, ep.dist.name, ep.dist.version) for ep in eps) == want
    by_name = {ep.name: ep for ep in again}
    assert by_name["gurps"].load() is __import__("xsys.plugins.gurps", fromlist=["x"])


def test_a_new_or_changed_distribution_is_seen(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XSYS_CACHE", "1")
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    before = registry._distributions_fingerprint()
    registry.installed_entry_points()
    info = site / "toyplug-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toyplug\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[xsys]\ntoy = toyplug_mod\n")
    added = registry._distributions_fingerprint()
    assert added != before
    assert "toy" in {ep.name for ep in registry.installed_entry_points()}
    os.utime(info / "entry_points.txt", ns=(1, 1))
    (info / "entry_points.txt").write_text("[xsys]\ntoy2 = toyplug_mod\n")
    assert registry._distributions_fingerprint() != added
    names = {ep.name for ep in registry.installed_entry_points()}
    assert "toy2" in names and "toy" not in names


def test_a_damaged_cache_is_ignored(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("XSYS_CACHE", "1")
    registry.installed_entry_points()
    f = cache.cache_dir() / "entry-points.msgpack"
    assert f.exists()
    f.write_bytes(b"\0" * 40)
    assert {ep.name for ep in registry.installed_entry_points()} >= {"coc", "gurps"}
    cache.keep("entry-points", registry._distributions_fingerprint(), [["x", 1, 2]])  # not four strings
    assert {ep.name for ep in registry.installed_entry_points()} >= {"coc", "gurps"}


def test_a_warm_convert_does_not_scan_the_installed_distributions(tmp_path):
    # importlib.metadata itself is imported by pydantic's plugin loader when typer builds a
    # parameter (typer 0.29; the typer floor pays it too); xsys no longer asks it to scan
    # every installed distribution for its plugins
    code = ("import atexit, sys\n"
            "import importlib.metadata as md\n"
            "asked = []\n"
            "real = md.entry_points\n"
            "def spy(*a, **k):\n"
            "    asked.append(k.get('group'))\n"
            "    return real(*a, **k)\n"
            "md.entry_points = spy\n"
            "atexit.register(lambda: open(sys.argv[1], 'w').write(repr(asked) + ' ' + ' '.join(sorted(sys.modules))))\n"
            "from xsys.conversions.cli import main\n"
            "main(['convert', sys.argv[2], '--to', 'gurps', '-o', sys.argv[3]])\n")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "XSYS_CACHE": "1"}
    for i in range(2):  # the first run fills the cache
        out = tmp_path / f"run{i}"
        r = subprocess.run([sys.executable, "-c", code, str(out), str(NPC), str(tmp_path / "out.yaml")], env=env,
                           capture_output=True)
        assert r.returncode == 0, r.stderr.decode()
    first = (tmp_path / "run0").read_text()
    asked, _, modules = (tmp_path / "run1").read_text().partition(" ")
    assert "'xsys'" in first and "'xsys'" not in asked
    assert "xsys.conversions.stream" not in modules.split()  # one NPC: converted whole, as before


def test_a_ladder_built_twice_is_built_once():
    import pytest

    from xsys.core.ladder import Ladder, LadderError

    rows = [{"native": 1, "at": "1 m", "rule": "r"}, {"native": 2, "at": "3 m", "rule": "r"}]
    a = Ladder.build("memo-test", "m", rows)
    assert Ladder.build("memo-test", "m", [dict(r) for r in rows]) is a
    assert Ladder.build("memo-test", "m", iter(rows)) is a  # any iterable of rows
    other = Ladder.build("memo-test", "m", [{**rows[0]}, {**rows[1], "native": 2.0}])
    assert other is not a and other.steps[1].native == 2.0 and type(other.steps[1].native) is float
    assert Ladder.build("memo-test", "m", rows, rounding="up") is not a
    bad = [{"native": 1, "at": "3 m", "rule": "r"}, {"native": 2, "at": "1 m", "rule": "r"}]
    for _ in range(2):  # a refused table stays refused
        with pytest.raises(LadderError):
            Ladder.build("memo-test", "m", bad)


def test_facts_of_environments_that_share_the_cache_are_kept_side_by_side(tmp_path, monkeypatch):
    # a test run (sys.path with the tests folder) and the installed command see different
    # fingerprints; neither may push the other's entry points out (each would scan again)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("XSYS_CACHE", "1")
    for i in range(cache.MAX_FACTS):
        cache.keep("entry-points", f"fp{i}", [[f"ep{i}", "m", "d", "1"]])
    assert all(cache.recall("entry-points", f"fp{i}") == [[f"ep{i}", "m", "d", "1"]] for i in range(cache.MAX_FACTS))
    cache.keep("entry-points", "fp0", [["again", "m", "d", "1"]])  # kept again: first, still once
    cache.keep("entry-points", "new", [])
    assert cache.recall("entry-points", "fp0") == [["again", "m", "d", "1"]]
    assert cache.recall("entry-points", "fp1") is None  # the least recently kept went out
    assert cache.recall("entry-points", "new") == []
    # a file of the previous version (one fact) is read as nothing, and replaced
    import msgspec

    (cache.cache_dir() / "old.msgpack").write_bytes(b"")
    cache._write(cache.cache_dir() / "old.msgpack", msgspec.msgpack.encode(cache._Fact("fp", [1])))
    assert cache.recall("old", "fp") is None
    cache.keep("old", "fp", [2])
    assert cache.recall("old", "fp") == [2]
