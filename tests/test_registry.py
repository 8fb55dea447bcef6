"""Plugin discovery through real entry points, clashes, typos and contained faults."""

import sys
import textwrap
from importlib import metadata

import pytest

from xsys.core.errors import PluginError, UnknownSystemError
from xsys.core.registry import Registry


def make_dist(tmp_path, name, entry_points: dict[str, str], modules: dict[str, str]):
    """A temporary installed distribution: modules plus a dist-info with entry_points.txt."""
    for mod, src in modules.items():
        (tmp_path / f"{mod}.py").write_text(textwrap.dedent(src))
    info = tmp_path / f"{name}-1.2.3.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.2.3\n")
    eps = "[xsys]\n" + "".join(f"{k} = {v}\n" for k, v in entry_points.items())
    (info / "entry_points.txt").write_text(eps)
    return list(metadata.distributions(path=[str(tmp_path)]))[0]


TOY_PLUGIN = """
    from xsys.core.hookspecs import hookimpl
    import sys, os
    sys.path.insert(0, os.path.join(os.path.dirname(__file__)))
    @hookimpl
    def xsys_register_systems(register):
        from toy.toy_system import Toy
        register(Toy)
"""


@pytest.fixture
def on_path(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for mod in [m for m in sys.modules if m.startswith("xsys_test_")]:
        del sys.modules[mod]


def test_discovery_through_a_real_entry_point(on_path):
    dist = make_dist(on_path, "xsys-toy", {"toy": "xsys_test_toy"}, {"xsys_test_toy": TOY_PLUGIN})
    reg = Registry(entry_points=dist.entry_points)
    assert reg.keys() == ["toy"]
    e = reg.entry("toy")
    assert (e.plugin, e.distribution, e.version) == ("toy", "xsys-toy", "1.2.3")
    assert reg.system("toy") is reg.system("toy")


def test_discovery_from_the_environment_group(on_path, monkeypatch):
    make_dist(on_path, "xsys-toy", {"toy": "xsys_test_toy"}, {"xsys_test_toy": TOY_PLUGIN})
    eps = [ep for ep in metadata.entry_points(group="xsys") if ep.name == "toy"]
    # the temporary distribution's entry point is visible on sys.path
    assert [ep.value for ep in eps] == ["xsys_test_toy"]
    reg = Registry(only={"toy"})
    assert reg.keys() == ["toy"]


def test_two_plugins_claiming_one_key_name_both(on_path):
    # neither is built in or named after the key: both are skipped, each naming the other
    dist = make_dist(on_path, "xsys-twins", {"one": "xsys_test_one", "two": "xsys_test_two"},
                     {"xsys_test_one": TOY_PLUGIN, "xsys_test_two": TOY_PLUGIN})
    reg = Registry(entry_points=dist.entry_points).load()
    assert reg.keys() == []
    reasons = {b.name: (b.distribution, b.reason) for b in reg.broken}
    for name in ("one", "two"):
        dist_name, msg = reasons[name]
        assert dist_name == "xsys-twins" and "'toy'" in msg and "'one'" in msg and "'two'" in msg


def test_the_plugin_named_after_a_key_keeps_it(on_path):
    dist = make_dist(on_path, "xsys-twins", {"toy": "xsys_test_toy", "twin": "xsys_test_twin"},
                     {"xsys_test_toy": TOY_PLUGIN, "xsys_test_twin": TOY_PLUGIN})
    reg = Registry(entry_points=dist.entry_points)
    assert reg.entry("toy").plugin == "toy"  # found lazily through its own plugin ...
    assert reg.keys() == ["toy"] and reg.entry("toy").plugin == "toy"  # ... and after collecting all
    assert [b.name for b in reg.broken] == ["twin"] and "already registered by plugin 'toy'" in reg.broken[0].reason


def test_hook_typo_is_an_error_naming_the_plugin(on_path):
    src = """
        from xsys.core.hookspecs import hookimpl
        @hookimpl
        def xsys_register_sytems(register):
            pass
    """
    dist = make_dist(on_path, "xsys-typo", {"typo": "xsys_test_typo"}, {"xsys_test_typo": src})
    reg = Registry(entry_points=dist.entry_points).load()
    assert [b.name for b in reg.broken] == ["typo"]
    assert "xsys_register_sytems" in reg.broken[0].reason


def test_broken_plugins_are_contained(on_path):
    bad_import = "raise RuntimeError('boom at import')\n"
    bad_hook = """
        from xsys.core.hookspecs import hookimpl
        @hookimpl
        def xsys_register_systems(register):
            raise ValueError('boom in hook')
    """
    dist = make_dist(on_path, "xsys-mixed", {"a": "xsys_test_bad_import", "b": "xsys_test_bad_hook",
                                             "toy": "xsys_test_toy"},
                     {"xsys_test_bad_import": bad_import, "xsys_test_bad_hook": bad_hook,
                      "xsys_test_toy": TOY_PLUGIN})
    reg = Registry(entry_points=dist.entry_points).load()
    assert reg.keys() == ["toy"]
    reasons = {b.name: b.reason for b in reg.broken}
    assert "boom at import" in reasons["a"] and "boom in hook" in reasons["b"]


def test_limit_which_plugins_load(on_path):
    dist = make_dist(on_path, "xsys-two", {"toy": "xsys_test_toy", "bad": "xsys_test_never"},
                     {"xsys_test_toy": TOY_PLUGIN})
    reg = Registry(entry_points=dist.entry_points, only={"toy"})
    assert reg.keys() == ["toy"] and not reg.broken
    reg = Registry(entry_points=dist.entry_points, disabled={"bad"})
    assert reg.keys() == ["toy"] and not reg.broken


def test_unknown_system(toy_registry):
    with pytest.raises(UnknownSystemError) as err:
        toy_registry.system("gurp")
    assert "found 'gurp'" in err.value.line() and "toy" in err.value.line()


def test_shot_modifier_hook_and_catalog(toy_registry):
    cat = toy_registry.catalog()
    assert len(cat.weapons) >= 30 and "concrete" in cat.materials
    from xsys.core.model import Barrier
    from xsys.core.units import Length

    thin = cat.barrier_stops(Barrier(material="concrete", thickness=Length(0.05)))
    thick = cat.barrier_stops(Barrier(material="concrete", thickness=Length(0.15)))
    assert 0 < thin < thick
    assert toy_registry.shot_modifiers("toy", None) == []


def test_catalog_covers_what_the_issue_asks(toy_registry):
    cat = toy_registry.catalog()
    classes = {w.weapon_class for w in cat.weapons.values()}
    assert {"handgun", "revolver", "smg", "carbine", "rifle", "shotgun", "mg"} <= classes
    for w in cat.weapons.values():
        assert w.length and w.mass and w.calibre and w.muzzle_energy > 0 and w.capacity > 0 and w.source
    levels = {a.nij_level: a.stops for a in cat.armor.values() if a.kind == "soft-vest" and a.nij_level}
    assert levels["I"] < levels["IIA"] < levels["II"] < levels["IIIA"]
    for m in ("soft-wood", "hard-wood", "sand", "armor-steel", "bulletproof-glass", "window-glass", "concrete",
              "brick", "car-door"):
        assert m in cat.materials and cat.materials[m].source


# ---- --set names an installed system and one of its settings -------------------

def _xsys(*args):
    import os
    import subprocess
    from pathlib import Path

    env = {k: v for k, v in os.environ.items() if k not in ("XSYS_PLUGINS", "XSYS_DISABLE_PLUGINS")}
    return subprocess.run([str(Path(sys.executable).with_name("xsys")), *args], capture_output=True, text=True,
                          env=env)


@pytest.mark.parametrize("pair, expected, found", [
    ("nosuch.x=1", "expected one of coc, coc-zh, coc7, gurps, nwod, pl-trudnosc", "found 'nosuch'"),
    ("pl-trudnosc.nosuch=1", "expected one of pl-trudnosc.mechanic", "found 'nosuch'"),
    ("gurps.x=1", "expected no --set for gurps", "found 'x'"),
])
def test_cli_set_refuses_what_no_system_takes(pair, expected, found):
    r = _xsys("odds", "--distance", "10m", "--set", pair)
    assert r.returncode == 2 and r.stdout == "", r.stdout
    line = r.stderr.strip()
    assert len(line.splitlines()) == 1 and "Traceback" not in line
    assert "--set" in line and expected in line and found in line


def test_parse_settings_checks_against_the_registry(toy_registry):
    from xsys.conversions import api
    from xsys.core.errors import InputError

    with pytest.raises(InputError) as err:
        api.parse_settings(["gurps.mechanic=x"])  # not installed in this registry
    assert err.value.path == "--set" and "expected one of toy" in err.value.line()
    with pytest.raises(InputError) as err:
        api.parse_settings(["toy.x=1"])  # toy takes no settings
    assert "takes no settings" in err.value.line()
