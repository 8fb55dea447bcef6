"""A command pays only for what it uses: one system is loaded through the
plugin of the same name; everything is collected (and checked for clashes) when all
systems are listed; pint and icepool stay out of ordinary commands."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from importlib import metadata
from pathlib import Path

import pytest

from xsys.core.registry import Registry

ROOT = Path(__file__).resolve().parent.parent

TOY = """
    from xsys.core.hookspecs import hookimpl
    @hookimpl
    def xsys_register_systems(register):
        from toy.toy_system import Toy
        register(Toy)
"""
LOUD = """
    from xsys.core.hookspecs import hookimpl
    CALLS = []
    @hookimpl
    def xsys_register_systems(register):
        CALLS.append(1)
        raise ValueError("boom in hook")
"""


@pytest.fixture
def dist(tmp_path, monkeypatch):
    """A temporary distribution with plugins `toy` (registers system toy), `loud` (raises
    in its hook) and `twin` (registers toy again)."""
    monkeypatch.syspath_prepend(str(tmp_path))
    for mod, src in {"xsys_lazy_toy": TOY, "xsys_lazy_loud": LOUD, "xsys_lazy_twin": TOY}.items():
        (tmp_path / f"{mod}.py").write_text(textwrap.dedent(src))
    info = tmp_path / "xsys_lazy-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: xsys-lazy\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[xsys]\ntoy = xsys_lazy_toy\nloud = xsys_lazy_loud\ntwin = xsys_lazy_twin\n")
    yield list(metadata.distributions(path=[str(tmp_path)]))[0]
    for mod in [m for m in sys.modules if m.startswith("xsys_lazy_")]:
        del sys.modules[mod]


def test_one_system_is_loaded_through_its_own_plugin(dist):
    reg = Registry(entry_points=dist.entry_points)
    toy = reg.system("toy")
    assert toy.key == "toy" and reg.system("toy") is toy
    assert sys.modules["xsys_lazy_loud"].CALLS == []  # the other plugins' systems were not asked for
    assert reg.broken == []
    e = reg.entry("toy")
    assert (e.plugin, e.distribution, e.version) == ("toy", "xsys-lazy", "1.0")


def test_listing_collects_everything_and_finds_clashes(dist):
    # a key claimed twice goes to the plugin named after it; the other is reported broken,
    # naming the holder, and a plugin whose hook raises is reported too
    reg = Registry(entry_points=dist.entry_points)
    assert reg.system("toy").key == "toy"
    assert reg.keys() == ["toy"] and reg.entry("toy").plugin == "toy"
    reasons = {b.name: b.reason for b in reg.broken}
    assert "already registered by plugin 'toy'" in reasons["twin"] and "boom in hook" in reasons["loud"]


def test_faults_are_recorded_once_everything_is_collected(dist):
    reg = Registry(entry_points=dist.entry_points, disabled={"twin"})
    assert reg.system("toy").key == "toy" and reg.broken == []
    assert reg.keys() == ["toy"]
    assert [b.name for b in reg.broken] == ["loud"] and "boom in hook" in reg.broken[0].reason
    assert reg.system("toy") is reg.system("toy")


def test_a_key_no_plugin_is_named_after_is_found_by_collecting(dist):
    reg = Registry(entry_points=[ep for ep in dist.entry_points if ep.name == "twin"])
    assert reg.system("toy").key == "toy"  # registered by the plugin "twin"
    assert reg.entry("toy").plugin == "twin"


def _modules_after(*argv: str) -> set[str]:
    code = ("import sys, json\n"
            "from xsys.conversions.cli import main\n"
            "try:\n"
            f"    main({list(argv)!r})\n"
            "except SystemExit:\n"
            "    pass\n"
            "print(json.dumps(sorted(sys.modules)))\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("XSYS_PLUGINS")}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    return set(json.loads(r.stdout.strip().splitlines()[-1]))


def test_convert_loads_only_the_two_systems_and_no_pint_or_icepool(tmp_path):
    mods = _modules_after("convert", str(ROOT / "fixtures" / "coc" / "npcs" / "investigator_38.yaml"),
                          "--to", "gurps", "-o", str(tmp_path / "out.yaml"))
    assert {"xsys.plugins.coc.system", "xsys.plugins.gurps.system"} <= mods
    assert not {"xsys.plugins.nwod.system", "xsys.plugins.pl_trudnosc.system", "xsys.plugins.coc_zh.system"} & mods
    assert not {m for m in mods if m.split(".")[0] in ("pint", "icepool")}


def test_odds_in_every_system_needs_no_pint_or_icepool():
    mods = _modules_after("odds", str(ROOT / "fixtures" / "nwod" / "scenarios" / "door.yaml"))
    assert "xsys.plugins.pl_trudnosc.system" in mods
    assert not {m for m in mods if m.split(".")[0] in ("pint", "icepool")}


def test_listing_systems_still_reports_every_plugin(capsys):
    from helpers import run_main

    code, out, _ = run_main(capsys, "systems", "--json")
    assert code == 0
    assert {s["key"] for s in json.loads(out)["systems"]} >= {"coc", "gurps", "nwod", "pl-trudnosc"}
