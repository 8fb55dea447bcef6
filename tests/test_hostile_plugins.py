"""Hostile plugins are contained (issue 15): a plugin that raises (at import, in any hook,
in a format reader, in a command), returns the wrong type, calls sys.exit, hangs at
import, or claims what is already taken (the system key `gurps`, the catalog id
`glock-17`, an extension, a command) is reported with its distribution name and skipped;
the built-in systems keep answering and are never blamed.

Each plugin is a real throwaway distribution (modules plus a dist-info with entry
points), loaded in process through a Registry and, for the command line, installed on
PYTHONPATH for a real `xsys` subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from importlib import metadata
from pathlib import Path

import pytest

from xsys.conversions import api
from xsys.conversions.inline import inline_shot
from xsys.core import registry as registry_module
from xsys.core.errors import PluginError
from xsys.core.registry import Registry

ROOT = Path(__file__).resolve().parent.parent
XSYS = Path(sys.executable).with_name("xsys")
DIST = "xsys-hostile"
BUILTIN_KEYS = ["coc", "coc-zh", "gurps", "nwod", "pl-trudnosc"]

HEAD = "from xsys.core.hookspecs import hookimpl\nimport sys, time\n"
EVIL_SYSTEM = HEAD + """
import msgspec
from xsys.plugins.coc.system import CocSystem

class Evil(CocSystem):
    key = "evil"
    name = "Evil"
    MODE = "nan"

    def check(self, shot, extra=()):
        c = super().check(shot, extra)
        if self.MODE == "nan":
            return msgspec.structs.replace(c, chance=float("nan"))
        if self.MODE == "float":
            return msgspec.structs.replace(c, chance=0.25)
        if self.MODE == "exit":
            sys.exit(3)
        if self.MODE == "dict":
            return {"chance": 0.5}
        return c

    def npc_from_neutral(self, combatant):
        from xsys.core.trace import Result
        return Result({"name": combatant.name})

@hookimpl
def xsys_register_systems(register):
    register(Evil)
"""

PLUGINS = {
    "import_raises": HEAD + "raise RuntimeError('boom at import')\n",
    "import_exits": HEAD + "sys.exit(7)\n",
    "register_raises": HEAD + "@hookimpl\ndef xsys_register_systems(register):\n    raise ValueError('boom in hook')\n",
    "register_exits": HEAD + "@hookimpl\ndef xsys_register_systems(register):\n    sys.exit(5)\n",
    "register_garbage": HEAD + "@hookimpl\ndef xsys_register_systems(register):\n    register({'key': 'x'})\n",
    "claims_gurps": HEAD + """
from xsys.plugins.coc.system import CocSystem
class FakeGurps(CocSystem):
    key = "gurps"
    name = "Not GURPS"
@hookimpl
def xsys_register_systems(register):
    register(FakeGurps)
""",
    "claims_glock": HEAD + """
from xsys.core.catalog import WeaponEntry
from xsys.core.units import Energy
@hookimpl
def xsys_register_catalog(catalog):
    catalog.add_weapon(WeaponEntry(id="my-pistol", name="My pistol", weapon_class="handgun",
                                   muzzle_energy=Energy(100)), "hostile")
    catalog.add_weapon(WeaponEntry(id="glock-17", name="Fake Glock", weapon_class="handgun",
                                   muzzle_energy=Energy(1)), "hostile")
""",
    "catalog_raises": HEAD + "@hookimpl\ndef xsys_register_catalog(catalog):\n    raise KeyError('no catalog')\n",
    "modifiers_raise": HEAD + "@hookimpl\ndef xsys_shot_modifiers(system, shot):\n    raise ZeroDivisionError('house')\n",
    "modifiers_int": HEAD + "@hookimpl\ndef xsys_shot_modifiers(system, shot):\n    return 7\n",
    "modifiers_exit": HEAD + "@hookimpl\ndef xsys_shot_modifiers(system, shot):\n    sys.exit(9)\n",
    "formats": HEAD + """
@hookimpl
def xsys_register_formats(register):
    def load(data):
        raise ValueError("reader crashed")
    register("evil", ["evil"], load, lambda plain: b"")
""",
    "formats_yaml": HEAD + """
@hookimpl
def xsys_register_formats(register):
    register("fake yaml", ["yaml"], lambda data: {}, lambda plain: b"")
""",
    "formats_raise": HEAD + "@hookimpl\ndef xsys_register_formats(register):\n    raise OSError('formats')\n",
    "commands": HEAD + """
@hookimpl
def xsys_register_commands(app):
    @app.command("hostile-hello")
    def hostile_hello() -> None:
        raise RuntimeError("command crashed")

    @app.command("hostile-bye")
    def hostile_bye() -> None:
        sys.exit(4)
""",
    "commands_claim": HEAD + """
@hookimpl
def xsys_register_commands(app):
    @app.command("convert")
    def convert() -> None:
        print("hijacked")
""",
    "commands_raise": HEAD + "@hookimpl\ndef xsys_register_commands(app):\n    raise TypeError('commands')\n",
    "evil": EVIL_SYSTEM,
}


def make_dist(path: Path, plugins: dict[str, str], name: str = DIST) -> metadata.Distribution:
    """A throwaway installed distribution: module xsys_hostile_<ep> per entry point."""
    path.mkdir(parents=True, exist_ok=True)
    for ep, src in plugins.items():
        (path / f"xsys_hostile_{ep}.py").write_text(textwrap.dedent(src))
    info = path / f"{name.replace('-', '_')}-6.6.6.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 6.6.6\n")
    (info / "entry_points.txt").write_text("[xsys]\n" + "".join(f"{ep} = xsys_hostile_{ep}\n" for ep in plugins))
    return next(d for d in metadata.distributions(path=[str(path)]) if d.metadata["Name"] == name)


@pytest.fixture
def hostile(tmp_path, monkeypatch):
    """Registry(plugins...): the built-in plugins plus the named hostile ones, installed
    for real and made the default registry for the test."""
    monkeypatch.syspath_prepend(str(tmp_path))
    builtin = [ep for ep in metadata.entry_points(group="xsys") if ep.dist is None or ep.dist.name == "xsys"]
    old = registry_module._default

    def build(*names: str, **extra: str) -> Registry:
        dist = make_dist(tmp_path, {n: PLUGINS[n] for n in names} | extra)
        reg = Registry(entry_points=builtin + list(dist.entry_points))
        registry_module.set_default_registry(reg)
        return reg

    yield build
    registry_module.set_default_registry(old)
    for mod in [m for m in sys.modules if m.startswith("xsys_hostile_")]:
        del sys.modules[mod]


def broken(reg: Registry) -> dict[str, tuple[str, str]]:
    return {b.name: (b.distribution, b.reason) for b in reg.broken}


def still_answers(reg: Registry) -> None:
    """Every built-in system gives a check for a plain shot."""
    failures: list = []
    results = api.odds(inline_shot(distance="20m"), BUILTIN_KEYS, registry=reg, failures=failures)
    assert [r.system for r in results] == BUILTIN_KEYS, [f.line() for f in failures]


# ---- in process ---------------------------------------------------------------------

@pytest.mark.parametrize("name, reason", [
    ("import_raises", "boom at import"), ("import_exits", "sys.exit(7)"), ("register_raises", "boom in hook"),
    ("register_exits", "sys.exit(5)"), ("register_garbage", "not a usable system")])
def test_a_plugin_failing_to_load_is_named_and_skipped(hostile, name, reason):
    reg = hostile(name)
    assert reg.keys() == BUILTIN_KEYS
    assert broken(reg)[name][0] == DIST and reason in broken(reg)[name][1]
    still_answers(reg)


def test_a_plugin_claiming_a_built_in_key_is_skipped(hostile):
    reg = hostile("claims_gurps")
    assert reg.keys() == BUILTIN_KEYS
    assert reg.entry("gurps").distribution == "xsys" and reg.system("gurps").name == "GURPS"
    dist, reason = broken(reg)["claims_gurps"]
    assert dist == DIST and "'gurps'" in reason and "xsys" in reason
    still_answers(reg)


def test_a_plugin_claiming_a_catalog_id_is_skipped_as_a_whole(hostile):
    reg = hostile("claims_glock")
    cat = reg.catalog()
    assert cat.weapons["glock-17"].name != "Fake Glock" and "my-pistol" not in cat.weapons
    dist, reason = broken(reg)["claims_glock"]
    assert dist == DIST and "glock-17" in reason
    still_answers(reg)


def test_a_catalog_hook_that_raises_is_skipped(hostile):
    reg = hostile("catalog_raises")
    assert "glock-17" in reg.catalog().weapons
    assert broken(reg)["catalog_raises"][0] == DIST and "no catalog" in broken(reg)["catalog_raises"][1]


@pytest.mark.parametrize("name", ["modifiers_raise", "modifiers_int", "modifiers_exit"])
def test_house_rules_that_fail_are_skipped_and_blame_only_their_plugin(hostile, name):
    reg = hostile(name)
    failures: list = []
    results = api.odds(inline_shot(distance="20m"), registry=reg, failures=failures)
    assert [r.system for r in results] == BUILTIN_KEYS
    assert len(failures) == 1
    line = failures[0].line()
    assert name in line and DIST in line and not any(f"system '{k}'" in line for k in BUILTIN_KEYS)
    assert broken(reg)[name][0] == DIST
    with pytest.raises(PluginError):  # without a failures list the error is raised, naming the plugin
        api.odds(inline_shot(distance="20m"), registry=hostile(name))


@pytest.mark.parametrize("mode, ok", [("nan", False), ("float", True), ("exit", False), ("dict", False)])
def test_a_system_returning_garbage_is_blamed_alone(hostile, mode, ok):
    reg = hostile("evil").load()
    sys.modules["xsys_hostile_evil"].Evil.MODE = mode
    failures: list = []
    results = api.odds(inline_shot(distance="20m"), registry=reg, failures=failures)
    keys = [r.system for r in results]
    assert [k for k in keys if k != "evil"] == BUILTIN_KEYS
    if ok:  # a finite float is taken exactly
        evil = next(r for r in results if r.system == "evil")
        assert evil.check.chance == 0.25 and evil.as_json()["exact"] == "1/4"
    else:
        assert "evil" not in keys and len(failures) == 1
        assert "system 'evil'" in failures[0].line() and DIST in failures[0].line()
    text = json.dumps([r.as_json() for r in results])
    assert "NaN" not in text and "Infinity" not in text


def test_a_system_writing_a_dict_for_a_stat_block_is_an_error_naming_it(hostile):
    reg = hostile("evil")
    doc = {"system": "neutral", "kind": "npc", "name": "N", "skills": {"handgun": 0.5}}
    with pytest.raises(PluginError) as err:
        api.convert(doc, "evil", registry=reg)
    assert "system 'evil'" in err.value.line() and DIST in err.value.line() and "dict" in err.value.line()
    assert api.convert(doc, "gurps", registry=reg).document.name == "N"


def test_formats_that_crash_or_claim_built_in_extensions(hostile, tmp_path):
    reg = hostile("formats", "formats_yaml", "formats_raise")
    fmts = reg.formats()
    assert "evil" in fmts and "yaml" not in fmts
    reasons = broken(reg)
    assert ".yaml is built in" in reasons["formats_yaml"][1] and "formats" in reasons["formats_raise"][1]
    bad = tmp_path / "doc.evil"
    bad.write_bytes(b"whatever")
    with pytest.raises(PluginError) as err:
        api.load(bad)
    assert "reader crashed" in err.value.line() and DIST in err.value.line()
    assert api.load(ROOT / "fixtures" / "coc" / "npcs" / "investigator_38.yaml").system == "coc"


def test_commands_that_crash_or_claim_a_built_in_name(hostile):
    import typer
    from typer.testing import CliRunner

    reg = hostile("commands", "commands_claim", "commands_raise")
    app = typer.Typer()

    @app.command()
    def convert() -> None:
        print("the real convert")

    @app.command()
    def other() -> None:
        pass

    reg.register_commands(app)
    reasons = broken(reg)
    assert "'convert'" in reasons["commands_claim"][1] and "commands" in reasons["commands_raise"][1]
    r = CliRunner().invoke(app, ["convert"])
    assert "the real convert" in r.stdout and "hijacked" not in r.stdout
    r = CliRunner().invoke(app, ["hostile-hello"])
    assert isinstance(r.exception, PluginError) and DIST in r.exception.line() and "command crashed" in r.exception.line()


def test_a_hanging_import_is_stopped_by_the_time_limit(hostile, monkeypatch):
    monkeypatch.setenv("XSYS_PLUGIN_TIMEOUT", "1")
    reg = hostile(hang="import time\nwhile True:\n    try:\n        time.sleep(0.05)\n    except Exception:\n        pass\n")
    start = time.monotonic()
    assert reg.keys() == BUILTIN_KEYS
    assert time.monotonic() - start < 20
    assert "longer than 1 s" in broken(reg)["hang"][1] and broken(reg)["hang"][0] == DIST
    still_answers(reg)


def test_a_bad_time_limit_is_a_clear_error(hostile, monkeypatch):
    monkeypatch.setenv("XSYS_PLUGIN_TIMEOUT", "soon")
    reg = hostile("import_raises")
    with pytest.raises(api.InputError) as err:
        reg.keys()
    assert "XSYS_PLUGIN_TIMEOUT" in err.value.line() and "'soon'" in err.value.line()


# ---- the command line ------------------------------------------------------------------

@pytest.fixture
def installed(tmp_path):
    """Every hostile plugin installed at once; run(*args) runs the real xsys with them."""
    site = tmp_path / "site"
    plugins = dict(PLUGINS)
    plugins["hang"] = "import time\ntime.sleep(1000)\n"
    make_dist(site, plugins)
    env = {**os.environ, "XSYS_PLUGIN_TIMEOUT": "1",
           "PYTHONPATH": os.pathsep.join([str(site)] + [p for p in [os.environ.get("PYTHONPATH")] if p])}
    env.pop("XSYS_PLUGINS", None)

    def run(*args: str, **kw) -> subprocess.CompletedProcess:
        return subprocess.run([str(XSYS), *map(str, args)], capture_output=True, text=True, env=env, timeout=300, **kw)

    return run


def test_cli_systems_names_every_hostile_distribution_and_keeps_the_built_ins(installed):
    r = installed("systems", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    keys = [s["key"] for s in data["systems"]]
    assert keys[:len(BUILTIN_KEYS)] == BUILTIN_KEYS or set(BUILTIN_KEYS) <= set(keys)
    assert next(s for s in data["systems"] if s["key"] == "gurps")["distribution"] == "xsys"
    names = {b["plugin"]: b for b in data["broken"]}
    for name in ("import_raises", "import_exits", "register_raises", "register_exits", "claims_gurps", "hang"):
        assert names[name]["distribution"] == DIST, names.get(name)
    assert "Traceback" not in r.stderr


def test_cli_odds_still_answers_with_hostile_plugins(installed):
    r = installed("odds", "--distance", "20m", "--weapon", "glock-17", "--json")
    assert r.returncode == 2 and "Traceback" not in r.stderr  # the failing plugins are errors, one line each
    data = json.loads(r.stdout)
    systems = [x["system"] for x in data["results"]]
    assert set(BUILTIN_KEYS) <= set(systems)
    assert "NaN" not in r.stdout
    errors = "\n".join(data["errors"])
    assert DIST in errors and "system 'gurps'" not in errors


def test_cli_plugin_command_failing_is_one_line(installed):
    r = installed("hostile-hello")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "command crashed" in r.stderr and DIST in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = installed("hostile-bye")
    assert r.returncode == 2 and "sys.exit(4)" in r.stderr and "Traceback" not in r.stderr


def test_cli_convert_is_not_hijacked(installed, tmp_path):
    out = tmp_path / "g.yaml"
    r = installed("convert", ROOT / "fixtures" / "coc" / "npcs" / "investigator_38.yaml", "--to", "gurps", "-q",
                  "-o", out)
    assert r.returncode == 0, r.stderr
    assert "hijacked" not in r.stdout and out.exists()
