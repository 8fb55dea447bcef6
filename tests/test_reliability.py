"""Reliability of whole runs: interrupted batches leave no partial file, outputs are
byte-identical across runs and hash seeds, and a failing system is contained."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from xsys.conversions import api

ROOT = Path(__file__).resolve().parent.parent
XSYS = str(Path(sys.executable).with_name("xsys"))
NPC = ROOT / "fixtures" / "coc" / "npcs" / "investigator_38.yaml"


def _inputs(tmp_path, n):
    src = tmp_path / "in"
    src.mkdir()
    text = NPC.read_text()
    for i in range(n):
        (src / f"npc{i:04d}.yaml").write_text(text.replace("Professor Eleanor Ward", f"Investigator {i}"))
    return src


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_interrupted_batch_leaves_no_partial_file(tmp_path, sig):
    src = _inputs(tmp_path, 400)
    out = tmp_path / "out"
    proc = subprocess.Popen([XSYS, "convert", str(src), "--to", "gurps", "--out-dir", str(out), "--quiet"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 60
    while time.time() < deadline and (not out.exists() or len(list(out.iterdir())) < 5):
        time.sleep(0.01)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode != 0, "the run finished before it could be interrupted"
    written = sorted(out.iterdir())
    assert written, "nothing was written before the interruption"
    assert len(written) < 400
    for f in written:
        assert not f.name.startswith("."), f"temporary file left behind: {f.name}"
        loaded = api.load(f)  # complete and valid
        assert loaded.system == "gurps" and loaded.document.name.startswith("Investigator ")
    if sig == signal.SIGINT:
        assert proc.returncode == 130 and b"Traceback" not in err


def _run(args, seed):
    env = {**os.environ, "PYTHONHASHSEED": str(seed)}
    r = subprocess.run([XSYS, *args], capture_output=True, env=env, cwd=ROOT)
    assert r.returncode == 0, r.stderr.decode()
    return r.stdout, r.stderr


@pytest.mark.parametrize("args", [
    ["convert", "fixtures/coc/scenarios/speakeasy_raid.yaml", "--to", "gurps", "--explain"],
    ["convert", "fixtures/gurps/npcs/soldier.yaml", "--to", "nwod", "--format", "json", "--explain"],
    ["convert", "fixtures/nwod/npcs/drake.yaml", "--to", "pl-trudnosc", "--format", "toml"],
    ["convert", "fixtures/pl-trudnosc/scenarios/nocny_szturm.yaml", "--to", "coc", "--format", "md"],
    ["odds", "fixtures/nwod/scenarios/door.yaml", "--json"],
])
def test_output_is_byte_identical_across_runs_and_hash_seeds(args):
    first = _run(args, 0)
    second = _run(args, 4242)
    assert first == second


def test_a_failing_system_is_contained_in_odds(capsys):
    """A plugin whose check raises or returns garbage is named in one message; the other
    systems still answer (exit 2 so scripts notice)."""
    import json as _json

    from helpers import run_main
    from toy import toy_system

    from xsys.core import registry
    from xsys.core.hookspecs import hookimpl
    from xsys.plugins import catalog

    class Raises(toy_system.Toy):
        key = "raises"

        def check(self, shot, extra=()):
            raise ZeroDivisionError("bad table")

    class Garbage(toy_system.Toy):
        key = "garbage"

        def check(self, shot, extra=()):
            return {"chance": 2}

    class Plugin:
        @hookimpl
        def xsys_register_systems(register):
            register(Raises)
            register(Garbage)

    old = registry._default
    registry.set_default_registry(registry.Registry(entry_points=[], extra_plugins=[
        ("toy", toy_system), ("bad", Plugin), ("catalog", catalog)]))
    try:
        code, out, err = run_main(capsys, "odds", "--distance", "10m", "--json")
    finally:
        registry.set_default_registry(old)
    assert code == 2
    data = _json.loads(out)
    assert [r["system"] for r in data["results"]] == ["toy"]
    assert any("'raises' failed to check the shot: ZeroDivisionError: bad table" in e for e in data["errors"])
    assert any("'garbage' returned dict" in e for e in data["errors"])
    lines = err.strip().splitlines()
    assert len(lines) == 2 and all(line.startswith("xsys: error: system '") for line in lines)
    assert "Traceback" not in err
