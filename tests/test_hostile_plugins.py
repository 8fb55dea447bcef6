"""Hostile plugins are contained: a plugin that raises (at import, in any hook,
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
BUILTIN_KEYS = ["coc", "coc-zh", "coc7", "gurps", "nwod", "pl-trudnosc"]

HEAD = "from xsys.core.hookspecs import hookimpl\nimport sys, time\n"
EVIL_SYSTEM = HEAD + """
import os
import msgspec
from xsys.plugins.coc.system import CocSystem

def misbehave(mode, where):
    # what a hostile plugin does in one of its methods (XSYS_HOSTILE_MODE for the command line)
    if mode in ("hang", "swallow"):
        mark = os.environ.get("XSYS_HOSTILE_MARK")
        if mark:
            open(mark, "w").write(where)
        try:
            while True:
                time.sleep(0.02)
        except BaseException:
            if mode == "hang":
                raise
    if mode == "kbd":
        raise KeyboardInterrupt
    if mode == "osexit":
        os._exit(3)
    if mode == "print":
        print("evil prints in " + where)

class Evil(CocSystem):
    key = "evil"
    name = "Evil"
    MODE = os.environ.get("XSYS_HOSTILE_MODE", "nan")
    NPC_MODE = os.environ.get("XSYS_HOSTILE_NPC_MODE", "dict")

    def check(self, shot, extra=()):
        misbehave(self.MODE, "check")
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
        misbehave(self.NPC_MODE, "npc_from_neutral")
        if self.NPC_MODE == "dict":
            from xsys.core.trace import Result
            return Result({"name": combatant.name})
        return super().npc_from_neutral(combatant)

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
    env = {**os.environ, "XSYS_PLUGIN_TIMEOUT": "1", "XDG_CACHE_HOME": str(tmp_path / "cache"), "XSYS_CACHE": "1",
           "PYTHONPATH": os.pathsep.join([str(site)] + [p for p in [os.environ.get("PYTHONPATH")] if p])}
    env.pop("XSYS_PLUGINS", None)  # (a cache of its own: what the commands remember is theirs alone)

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


# ---- a plugin's hangs, prints, interrupts and exits (containment of plugin calls) ----------

LOUD = HEAD + """
from xsys.plugins.coc.system import CocSystem

print("loud prints at import")
CACHED = sys.stdout  # kept at import, written to later: still not xsys's output
import io
sys.stdout = io.StringIO()  # and a stream of its own put in sys.stdout does not take xsys's output

class Loud(CocSystem):
    key = "loud"
    name = "Loud"

    def npc_from_neutral(self, combatant):
        print("loud prints in npc_from_neutral")
        CACHED.write("loud writes to the stdout it kept\\n")
        sys.stdout.buffer.write(b"loud writes bytes\\n")
        return super().npc_from_neutral(combatant)

    def wait_here(self, inside, done):
        print("loud prints in a worker thread")
        inside.set()
        done.wait(30)

@hookimpl
def xsys_register_systems(register):
    print("loud prints in xsys_register_systems")
    register(Loud)

@hookimpl
def xsys_shot_modifiers(system, shot):
    print("loud prints in xsys_shot_modifiers")
    return None
"""

WHO = f"plugin 'evil' ({DIST} 6.6.6)"
NEUTRAL_NPC = {"system": "neutral", "kind": "npc", "name": "N", "skills": {"handgun": 0.5}}


@pytest.fixture
def safety_net():
    """Stops a test whose plugin call would hang for ever without a time limit (the code before
    plugin calls had one): an AssertionError raised in it after 60 s."""
    import signal

    def stop(signum, frame):
        raise AssertionError("the plugin call was not stopped")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def _odds_of_evil(reg, mode: str) -> tuple[list, list]:
    reg.load()
    sys.modules["xsys_hostile_evil"].Evil.MODE = mode
    failures: list = []
    try:
        results = api.odds(inline_shot(distance="20m"), ["evil", "gurps"], registry=reg, failures=failures)
    except KeyboardInterrupt as exc:  # a plugin's own KeyboardInterrupt must not look like the user's Ctrl-C
        pytest.fail(f"KeyboardInterrupt escaped from a plugin call: {exc!r}")
    return results, failures


def test_a_hang_in_a_plugin_check_is_stopped_and_named(hostile, monkeypatch, safety_net):
    monkeypatch.setenv("XSYS_PLUGIN_TIMEOUT", "1")
    reg = hostile("evil")
    results, failures = _odds_of_evil(reg, "hang")
    assert [r.system for r in results] == ["gurps"]
    assert [f.line() for f in failures] == [
        f"system 'evil' stopped: {WHO}: check took longer than 1 s (XSYS_PLUGIN_TIMEOUT)"]
    # a plugin that ran past its time is not waited for again in this process
    start = time.monotonic()
    _, again = _odds_of_evil(reg, "hang")
    assert time.monotonic() - start < 1
    assert "check took longer than 1 s (XSYS_PLUGIN_TIMEOUT); not run again" in again[0].line()


def test_a_hang_in_npc_from_neutral_ends_the_conversion_with_an_error_naming_the_plugin(hostile, monkeypatch,
                                                                                      safety_net):
    monkeypatch.setenv("XSYS_PLUGIN_TIMEOUT", "1")
    reg = hostile("evil").load()
    sys.modules["xsys_hostile_evil"].Evil.NPC_MODE = "hang"
    with pytest.raises(PluginError) as err:
        api.convert(NEUTRAL_NPC, "evil", registry=reg)
    assert err.value.line() == f"system 'evil' stopped: {WHO}: npc_from_neutral took longer than 1 s (XSYS_PLUGIN_TIMEOUT)"
    assert api.convert(NEUTRAL_NPC, "gurps", registry=reg).document.name == "N"


def test_a_hang_in_a_plugin_check_is_stopped_in_another_thread(hostile, monkeypatch):
    # the server converts in worker threads, where SIGALRM cannot reach: a watchdog does
    import threading

    monkeypatch.setenv("XSYS_PLUGIN_TIMEOUT", "1")
    reg = hostile("evil")
    out: dict = {}
    worker = threading.Thread(target=lambda: out.update(zip(("results", "failures"), _odds_of_evil(reg, "hang"))),
                              daemon=True)
    worker.start()
    worker.join(30)
    assert not worker.is_alive(), "the plugin's check was not stopped in a worker thread"
    assert [r.system for r in out["results"]] == ["gurps"]
    assert [f.line() for f in out["failures"]] == [
        f"system 'evil' stopped: {WHO}: check took longer than 1 s (XSYS_PLUGIN_TIMEOUT)"]


def test_a_keyboard_interrupt_raised_by_a_plugin_is_its_fault_not_a_ctrl_c(hostile):
    reg = hostile("evil")
    results, failures = _odds_of_evil(reg, "kbd")
    assert [r.system for r in results] == ["gurps"]
    assert [f.line() for f in failures] == [
        f"system 'evil' failed to check the shot: KeyboardInterrupt (the plugin's own: no Ctrl-C was pressed) [{WHO}]"]


@pytest.mark.parametrize("mode", ["hang", "swallow"])  # a plugin that catches the Ctrl-C is stopped all the same
def test_ctrl_c_during_a_plugin_call_names_the_plugin(hostile, monkeypatch, tmp_path, safety_net, mode):
    import signal
    import threading

    mark = tmp_path / "entered"
    monkeypatch.setenv("XSYS_HOSTILE_MARK", str(mark))
    monkeypatch.setenv("XSYS_PLUGIN_TIMEOUT", "0")  # no limit: only Ctrl-C ends it
    reg = hostile("evil").load()
    sys.modules["xsys_hostile_evil"].Evil.MODE = mode

    def press_ctrl_c() -> None:  # (up to 50 s: a fresh checkout builds the plugin's tables first, on a busy machine)
        for _ in range(5000):
            if mark.exists():
                os.kill(os.getpid(), signal.SIGINT)
                return
            time.sleep(0.01)

    threading.Thread(target=press_ctrl_c, daemon=True).start()
    with pytest.raises(KeyboardInterrupt) as stop:
        api.odds(inline_shot(distance="20m"), ["evil"], registry=reg, failures=[])
    assert str(stop.value) == f"interrupted while {WHO} was running its check"


def test_print_in_a_plugin_goes_to_stderr_and_the_document_to_stdout(hostile, capsys):
    import threading

    reg = hostile(loud=LOUD)
    out = capsys.readouterr()  # nothing is imported yet
    reg.load()
    conv = api.convert(NEUTRAL_NPC, "loud", registry=reg)
    api.odds(inline_shot(distance="20m"), ["gurps"], registry=reg)
    # xsys's own output, written while a plugin call runs in a worker thread, stays on stdout
    inside, done = threading.Event(), threading.Event()
    worker = threading.Thread(target=reg.system("loud").wait_here, args=(inside, done))
    worker.start()
    assert inside.wait(30)
    print("xsys's own line")
    done.set()
    worker.join()
    out = capsys.readouterr()
    assert out.out == "xsys's own line\n"
    for line in ("loud prints at import", "loud prints in xsys_register_systems", "loud prints in npc_from_neutral",
                 "loud writes to the stdout it kept", "loud writes bytes", "loud prints in xsys_shot_modifiers",
                 "loud prints in a worker thread"):
        assert line in out.err
    assert conv.document.name == "N"


def test_built_in_systems_are_not_wrapped(hostile):
    # the hot path: a built-in system's methods are its own functions, called directly
    reg = hostile("evil")
    coc, evil = reg.system("coc"), reg.system("evil")
    assert not [k for k, v in vars(coc).items() if callable(v)]
    assert getattr(evil.check, "_xsys_contained", False) and getattr(evil.npc_from_neutral, "_xsys_contained", False)


def test_a_hanging_import_is_remembered_until_the_plugin_changes(hostile, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XSYS_CACHE", "1")
    monkeypatch.setenv("XSYS_PLUGIN_TIMEOUT", "1")
    tries = tmp_path / "tries"
    src = f"open({str(tries)!r}, 'a').write('x')\nimport time\nwhile True:\n    time.sleep(0.02)\n"
    reg = hostile(hang=src)
    eps = reg.entry_points

    def tried(registry: Registry) -> tuple[int, str]:
        registry.keys()
        return len(tries.read_text()), broken(registry)["hang"][1]

    assert tried(reg) == (1, "import took longer than 1 s (XSYS_PLUGIN_TIMEOUT); skipped")
    # the next command: skipped at once, saying so, without importing it again
    count, reason = tried(Registry(entry_points=eps))
    assert count == 1 and reason.startswith("import took longer than 1 s (XSYS_PLUGIN_TIMEOUT) when last tried; "
                                            "not tried again until the plugin changes")
    assert str(tmp_path / "cache" / "xsys" / "plugin-hangs.msgpack") in reason
    # a longer limit tries again
    monkeypatch.setenv("XSYS_PLUGIN_TIMEOUT", "1.5")
    assert tried(Registry(entry_points=eps)) == (2, "import took longer than 1.5 s (XSYS_PLUGIN_TIMEOUT); skipped")
    # a changed plugin (another size) is tried again
    module = tmp_path / "xsys_hostile_hang.py"
    module.write_text("# fixed\n" + src)
    assert tried(Registry(entry_points=eps))[0] == 3
    # a plugin that imports again is forgotten
    module.write_text("X = 1\n")
    assert "hang" not in broken(Registry(entry_points=eps).load())


@pytest.fixture
def run_xsys(tmp_path):
    """run(plugins, *args, **env): the real xsys with these hostile plugins installed."""
    def run(plugins: dict[str, str], *args: str, timeout: float = 300, **env: str) -> subprocess.CompletedProcess:
        site = tmp_path / "site"
        make_dist(site, plugins)
        full = {**os.environ, **env,
                "PYTHONPATH": os.pathsep.join([str(site)] + [p for p in [os.environ.get("PYTHONPATH")] if p])}
        full.pop("XSYS_PLUGINS", None)
        return subprocess.run([str(XSYS), *map(str, args)], capture_output=True, text=True, env=full,
                              timeout=timeout)
    return run


def test_cli_convert_json_is_not_mixed_with_a_plugin_print(run_xsys):
    r = run_xsys({"loud": LOUD}, "convert", ROOT / "fixtures" / "coc" / "npcs" / "investigator_38.yaml", "--to",
                 "loud", "--format", "json", "-q")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["name"] == "Professor Eleanor Ward"
    for line in ("loud prints at import", "loud prints in npc_from_neutral", "loud writes to the stdout it kept",
                 "loud writes bytes"):
        assert line in r.stderr
    r = run_xsys({"loud": LOUD}, "odds", "--distance", "20m", "-s", "gurps", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["results"][0]["system"] == "gurps"
    assert "loud prints in xsys_shot_modifiers" in r.stderr


def test_cli_a_hang_in_a_plugin_check_is_stopped_and_named(run_xsys):
    r = run_xsys({"evil": EVIL_SYSTEM}, "odds", "--distance", "20m", "-s", "evil", "-s", "gurps", "--json",
                 timeout=120, XSYS_HOSTILE_MODE="hang", XSYS_PLUGIN_TIMEOUT="1")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert [x["system"] for x in json.loads(r.stdout)["results"]] == ["gurps"]
    assert f"xsys: error: system 'evil' stopped: {WHO}: check took longer than 1 s (XSYS_PLUGIN_TIMEOUT)\n" in r.stderr


@pytest.mark.parametrize("mode", ["hang", "swallow"])
def test_cli_ctrl_c_during_a_plugin_call_names_the_plugin(tmp_path, mode):
    import signal

    site = tmp_path / "site"
    make_dist(site, {"evil": EVIL_SYSTEM})
    mark = tmp_path / "entered"
    env = {**os.environ, "XSYS_HOSTILE_MODE": mode, "XSYS_HOSTILE_MARK": str(mark), "XSYS_PLUGIN_TIMEOUT": "0",
           "PYTHONPATH": os.pathsep.join([str(site)] + [p for p in [os.environ.get("PYTHONPATH")] if p])}
    proc = subprocess.Popen([str(XSYS), "odds", "--distance", "20m", "-s", "evil"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 120
        while not mark.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert err == f"xsys: interrupted while {WHO} was running its check\n"


def test_cli_os_exit_in_a_plugin_does_not_end_xsys(run_xsys):
    r = run_xsys({"evil": EVIL_SYSTEM}, "odds", "--distance", "20m", "-s", "evil", "-s", "gurps", "--json",
                 XSYS_HOSTILE_MODE="osexit")
    assert r.returncode == 2, (r.returncode, r.stderr)  # the plugin's failure, not its os._exit(3)
    assert [x["system"] for x in json.loads(r.stdout)["results"]] == ["gurps"]
    assert f"xsys: error: system 'evil' failed to check the shot: called os._exit(3) [{WHO}]\n" in r.stderr
    r = run_xsys({"import_osexit": HEAD + "import os\nos._exit(3)\n"}, "systems", "--json")
    assert r.returncode == 0, (r.returncode, r.stderr)
    found = {b["plugin"]: b["reason"] for b in json.loads(r.stdout)["broken"]}
    assert found["import_osexit"] == "import failed: called os._exit(3)"


def test_cli_convert_and_odds_say_which_plugins_were_skipped(installed, tmp_path):
    out = tmp_path / "g.yaml"
    r = installed("convert", ROOT / "fixtures" / "coc" / "npcs" / "investigator_38.yaml", "--to", "gurps", "-q",
                  "-o", out)
    assert r.returncode == 0, r.stderr
    warnings = [x for x in r.stderr.splitlines() if x.startswith("xsys: warning: ")]
    who = f"xsys: warning: plugin '{{}}' ({DIST} 6.6.6) skipped: "
    assert who.format("import_raises") + "import failed: RuntimeError: boom at import" in warnings
    assert who.format("import_exits") + "import failed: called sys.exit(7)" in warnings
    assert who.format("hang") + "import took longer than 1 s (XSYS_PLUGIN_TIMEOUT); skipped" in warnings
    assert len(warnings) == len({w.split(" skipped: ")[0] for w in warnings})  # once each
    # the next command does not wait for the hanging plugin again, and says so
    r = installed("odds", "--distance", "20m", "-s", "gurps")
    assert r.returncode == 2  # the failing house-rule plugins are errors (said once, not again as skipped)
    hang = [x for x in r.stderr.splitlines() if x.startswith(who.format("hang"))]
    assert hang == [who.format("hang") + "import took longer than 1 s (XSYS_PLUGIN_TIMEOUT) when last tried; not "
                    "tried again until the plugin changes (remembered in " + hang[0].split("(remembered in ")[-1]]
    assert not [x for x in r.stderr.splitlines() if x.startswith(who.format("modifiers_raise"))]
    assert f"xsys: error: plugin 'modifiers_raise' ({DIST} 6.6.6) failed in xsys_shot_modifiers" in r.stderr


def test_a_thread_stopped_by_the_watchdog_leaves_no_trace_on_the_interpreter(tmp_path):
    # the watchdog's exception is one CPython keeps pending per interpreter: taken back the wrong
    # way, the flag stayed set and the next call under sys.settrace (a profiler, a debugger,
    # coverage) spun for ever
    script = textwrap.dedent(f"""
        import os, sys, threading
        sys.path.insert(0, {str(ROOT / "tests")!r})
        os.environ["XSYS_PLUGIN_TIMEOUT"] = "1"
        from importlib import metadata
        from pathlib import Path
        import test_hostile_plugins as t
        from xsys.conversions import api
        from xsys.conversions.inline import inline_shot
        from xsys.core.registry import Registry
        site = Path({str(tmp_path / "site")!r})
        sys.path.insert(0, str(site))
        dist = t.make_dist(site, {{"evil": t.EVIL_SYSTEM}})
        builtin = [ep for ep in metadata.entry_points(group="xsys") if ep.dist is None or ep.dist.name == "xsys"]
        reg = Registry(entry_points=builtin + list(dist.entry_points)).load()
        sys.modules["xsys_hostile_evil"].Evil.MODE = "hang"
        failures = []
        worker = threading.Thread(target=api.odds, args=(inline_shot(distance="20m"), ["evil"]),
                                  kwargs={{"registry": reg, "failures": failures}})
        worker.start()
        worker.join()
        lines = []
        sys.settrace(lambda frame, event, arg: lines.append(event) and None)
        api.odds(inline_shot(distance="20m"), ["gurps"], registry=reg)
        sys.settrace(None)
        print(failures[0].line(), bool(lines))
    """)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"system 'evil' stopped: {WHO}: check took longer than 1 s (XSYS_PLUGIN_TIMEOUT) True\n"
