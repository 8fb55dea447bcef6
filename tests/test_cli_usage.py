"""The command line as a user meets it: the installed console script, run as a
real subprocess, never prints a traceback. Usage errors, bad options, special files,
closed or full standard streams, Ctrl-C and broken pipes each end with one line on stderr
and a documented exit status, and write no output file."""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import re
import sys
import time
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
XSYS = shutil.which("xsys", path=str(Path(sys.executable).parent)) or shutil.which("xsys")
NPC = ROOT / "fixtures" / "coc" / "npcs" / "investigator_38.yaml"
SHOT = ROOT / "fixtures" / "neutral" / "shots" / "car_park_by_moonlight.yaml"
# the built-in systems these tests need (fewer plugins: faster, and independent of the others)
ENV = {**os.environ, "XSYS_PLUGINS": "catalog,coc,gurps", "PYTHONIOENCODING": "utf-8", "COLUMNS": "200"}
ENV.pop("XSYS_CATALOG", None)

pytestmark = pytest.mark.skipif(XSYS is None, reason="the xsys console script is not installed")


def xsys(*args, cwd=None, env=None, timeout=60, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([XSYS, *map(str, args)], capture_output=True, text=True, cwd=cwd,
                          env=env or ENV, timeout=timeout, **kw)


def one_error_line(r: subprocess.CompletedProcess, code: int = 2) -> str:
    """The run failed with `code` and said why in one line, without a traceback."""
    assert r.returncode == code, (r.returncode, r.stderr)
    assert "Traceback" not in r.stderr and "Exception ignored" not in r.stderr, r.stderr
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(lines) == 1, r.stderr
    return lines[0]


def files_in(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


# ---- usage errors: typer's own message, exit 2 -----------------------------------------

@pytest.mark.parametrize("args,fragments", [
    ([], ["Usage: xsys", "convert", "validate"]),
    (["frobnicate"], ["Usage: xsys", "No such command 'frobnicate'"]),
    (["convert", "--bogus"], ["Usage: xsys convert", "No such option", "--bogus"]),
    (["convert", NPC], ["Usage: xsys convert", "Missing option '--to'"]),
    (["odds", "--distance", "10m", "--exposure", "abc"], ["Usage: xsys odds", "'--exposure'"]),
    (["curve", "--points", "2**64"], ["Usage: xsys curve", "'--points'"]),
], ids=["no-args", "unknown-command", "unknown-option", "missing-to", "exposure-not-a-number", "points-not-an-int"])
def test_usage_errors_exit_2_with_typers_message(tmp_path, args, fragments):
    r = xsys(*args, cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and "ModuleNotFoundError" not in r.stderr
    for f in fragments:
        assert f in r.stderr
    assert r.stdout == ""  # no command given is a usage error too: the help goes to stderr
    assert files_in(tmp_path) == []


def test_help_and_version_still_exit_0():
    r = xsys("--help")
    assert r.returncode == 0 and "Usage: xsys" in r.stdout and r.stderr == ""
    r = xsys("--version")
    assert r.returncode == 0 and r.stdout == "xsys 0.1.0\n"


def test_no_undeclared_imports():
    """Nothing the package imports may come from a distribution pyproject does not declare
    (click came with an old typer only)."""
    tool = ROOT.parent / "shared" / "tools" / "check_imports.py"
    if not tool.exists():
        pytest.skip("shared/tools/check_imports.py is not beside this checkout")
    r = subprocess.run([sys.executable, str(tool)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert r.returncode == 0 and r.stdout == "", r.stdout + r.stderr


def test_ci_installs_the_newest_versions_the_bounds_allow():
    ci = (ROOT / ".ci" / "run").read_text()
    assert "-U --upgrade-strategy eager" in ci and "set -euo pipefail" in ci


# ---- inline options: the limits of a document, each error naming its option ----------

@pytest.mark.parametrize("args,fragments", [
    (["odds", "--distance", "-5m"], ["--distance: out of range", "not negative", "found '-5m'"]),
    (["odds", "--distance", "1e308km"], ["--distance: ", "found '1e308km'"]),  # finite only before the unit
    (["odds", "--distance", "10m", "--burst", 2**70], ["--burst: out of range", "from 1 to 1000", f"found {2**70}"]),
    (["odds", "--distance", "10m", "--burst", 1001], ["--burst: out of range", "from 1 to 1000", "found 1001"]),
    (["odds", "--distance", "10m", "--aim", "-2s"], ["--aim: out of range", "found '-2s'"]),
    (["curve", "--sweep", "distance=1m...2m"], ["--sweep: bad --sweep", "two dots", "found 'distance=1m...2m'"]),
    (["curve", "--points", 100_000_000], ["--points: too many points", "at most 10,000", "found 100,000,000"]),
    (["curve", "--points", 2**64], ["--points: too many points", "at most 10,000"]),
    (["curve", "--sweep", "distance=0m..1e308km"], ["--sweep: ", "found '1e308km'"]),
    (["convert", NPC, "--to", "gurps", "--set", "nosuch.x=1"], ["--set", "unknown system", "found 'nosuch'"]),
    (["convert", NPC, "--to", "gurps", "--set", "gurps.x=1"], ["--set", "'gurps' takes no settings"]),
    (["odds", "--distance", "10m", "--set", "nosuch.x=1"], ["--set", "unknown system", "found 'nosuch'"]),
], ids=["negative-distance", "overflowing-distance", "burst-2**70", "burst-1001", "negative-aim", "three-dots",
        "points-1e8", "points-2**64", "sweep-overflow", "set-unknown-system",
        "set-unknown-field", "odds-set"])
def test_bad_options_one_line_exit_2(tmp_path, args, fragments):
    line = one_error_line(xsys(*args, "-o", tmp_path / "out.yaml") if args[0] == "convert"
                          else xsys(*args, cwd=tmp_path))
    assert line.startswith("xsys: error: ")
    for f in fragments:
        assert f in line
    assert files_in(tmp_path) == []


def test_a_sweep_up_to_the_largest_finite_length_still_answers():
    r = xsys("curve", "--sweep", "distance=0m..1.7e308m", "--points", 3, "--json", "-s", "coc")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["x"][-1] == pytest.approx(1.7e308)


def test_dollar_signs_in_names_do_not_break_the_svg_chart(tmp_path):
    pytest.importorskip("matplotlib")
    shot = tmp_path / "shot.yaml"
    shot.write_text("system: neutral\nkind: shot\nname: $\\foo$\nweapon:\n  name: $x$ gun\n"
                    "  weapon_class: handgun\n  muzzle_energy: 500 J\ndistance: 10 m\n")
    r = xsys("curve", shot, "--points", 3, "-s", "coc", "-o", tmp_path / "chart.svg")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert (tmp_path / "chart.svg").read_text().startswith("<?xml")


# ---- -o and --out-dir ---------------------------------------------------------------

def test_dash_o_dash_writes_to_stdout(tmp_path):
    r = xsys("convert", NPC, "--to", "gurps", "-q", "-o", "-", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("system: gurps\nkind: npc\n")
    assert files_in(tmp_path) == []  # no file named "-"


def test_standard_input_keeps_its_sniffed_format(tmp_path):
    doc = '{"system": "neutral", "kind": "npc", "name": "J"}'
    r = xsys("convert", "-", "--to", "neutral", "-q", "-o", "-", input=doc)
    assert r.returncode == 0 and json.loads(r.stdout)["name"] == "J", r.stderr
    r = xsys("convert", "-", "--to", "neutral", "-q", "--out-dir", tmp_path / "out", input=doc)
    assert r.returncode == 0 and files_in(tmp_path / "out") == ["stdin.json"], r.stderr


def _collide(tmp_path: Path, names: list[str]) -> list[Path]:
    paths = []
    for name in names:
        p = tmp_path / "in" / name
        p.parent.mkdir(parents=True, exist_ok=True)
        text = NPC.read_text()
        p.write_text(json.dumps(yaml.safe_load(text)) if p.suffix == ".json" else text)
        paths.append(p)
    return paths


@pytest.mark.parametrize("names,extra", [
    (["a/npc.yaml", "b/npc.yaml"], []),
    (["npc.json", "npc.yaml"], ["--format", "yaml"]),
    (["x.YAML", "x.Yml"], []),
], ids=["same-name-two-folders", "same-stem-one-format", "suffixes-differing-in-case"])
def test_out_dir_collisions_fail_before_writing(tmp_path, names, extra):
    first, second = _collide(tmp_path, names)
    out = tmp_path / "out"
    line = one_error_line(xsys("convert", first, second, "--to", "gurps", "--out-dir", out, *extra))
    assert "--out-dir: two inputs would write the same output file" in line
    assert str(first) in line and str(second) in line
    assert not out.exists()


def test_out_dir_collisions_in_a_folder_fail_before_writing(tmp_path):
    _collide(tmp_path, ["npc.json", "npc.yaml", "a.yaml"])
    out = tmp_path / "out"
    line = one_error_line(xsys("convert", tmp_path / "in", "--to", "gurps", "--format", "yaml", "--out-dir", out))
    assert "two inputs would write the same output file" in line and "npc.json" in line
    assert not out.exists()


def test_out_dir_never_replaces_an_input(tmp_path):
    (src,) = _collide(tmp_path, ["npc.yaml"])
    line = one_error_line(xsys("convert", src.parent, "--to", "gurps", "--out-dir", src.parent))
    assert "the output would replace an input" in line and str(src) in line
    assert src.read_text() == NPC.read_text()


def test_out_dir_inside_the_input_folder_is_not_read_again(tmp_path):
    _collide(tmp_path, ["npc.yaml"])
    src = tmp_path / "in"
    for _ in range(2):
        r = xsys("convert", src, "--to", "gurps", "-q", "--out-dir", src / "out")
        assert r.returncode == 0 and r.stderr == "", r.stderr
    assert files_in(src) == ["npc.yaml", "out", "out/npc.yaml"]


# ---- folders: empty, not documents, special files -------------------------------------

@pytest.mark.parametrize("command", ["convert", "validate"])
def test_an_empty_folder_is_an_error(tmp_path, command):
    empty = tmp_path / "empty"
    empty.mkdir()
    args = ["--to", "gurps", "--out-dir", tmp_path / "out"] if command == "convert" else []
    line = one_error_line(xsys(command, empty, *args))
    assert f"{empty}: no documents in this folder" in line and "found none" in line
    assert files_in(tmp_path) == ["empty"]


def _mixed_folder(tmp_path: Path, fifo: bool = False) -> Path:
    d = tmp_path / "docs"
    (d / "plugin").mkdir(parents=True)
    shutil.copy(NPC, d / "npc.yaml")
    shutil.copy(ROOT / "pyproject.toml", d / "plugin" / "pyproject.toml")
    if fifo:
        os.mkfifo(d / "pipe.yaml")
    return d


def test_validate_skips_what_is_not_an_xsys_document(tmp_path):
    d = _mixed_folder(tmp_path)
    r = xsys("validate", d)
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"ok: {d / 'npc.yaml'} (coc npc)\n"
    assert r.stderr == f"xsys: info: skipped {d / 'plugin' / 'pyproject.toml'}: not an xsys document " \
                       "(it has no system: or kind: key)\n"


def test_validate_still_reports_a_document_with_a_typo(tmp_path):
    d = _mixed_folder(tmp_path)
    (d / "typo.yaml").write_text("sytem: coc\nkind: npc\nname: x\n")
    r = xsys("validate", d)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"{d / 'typo.yaml'}: $.system: the document does not say its system" in r.stderr
    # named on the command line, a file is always checked
    r = xsys("validate", d / "plugin" / "pyproject.toml")
    assert r.returncode == 2
    assert r.stderr.splitlines()[0] == (f"{d / 'plugin' / 'pyproject.toml'}: $.system: the document does not say "
                                        "its system (expected system: <key> (or --from), found nothing)")


def test_convert_skips_what_is_not_an_xsys_document(tmp_path):
    d = _mixed_folder(tmp_path)
    out = tmp_path / "out"
    r = xsys("convert", d, "--to", "gurps", "-q", "--out-dir", out)
    assert r.returncode == 0 and "Traceback" not in r.stderr
    assert "xsys: info: skipped" in r.stderr and "pyproject.toml: not an xsys document" in r.stderr
    assert files_in(out) == ["npc.yaml"]


@pytest.mark.parametrize("command", ["validate", "convert"])
def test_a_fifo_in_a_folder_is_skipped_not_waited_on(tmp_path, command):
    d = _mixed_folder(tmp_path, fifo=True)
    args = ["--to", "gurps", "-q", "--out-dir", tmp_path / "out"] if command == "convert" else []
    r = xsys(command, d, *args, timeout=30)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert f"xsys: info: skipped {d / 'pipe.yaml'}: not a regular file" in r.stderr


# ---- standard streams ------------------------------------------------------------------

def test_closed_stdin(tmp_path):
    r = xsys("convert", "-", "--to", "gurps", "-o", tmp_path / "out.yaml", preexec_fn=lambda: os.close(0))
    line = one_error_line(r)
    name, _, message = line.partition(": ")
    assert name in ("-", "<stdin>") and message == "cannot read: standard input is closed"
    assert files_in(tmp_path) == []


def test_closed_stdout():
    line = one_error_line(xsys("systems", preexec_fn=lambda: os.close(1)))
    assert line == "xsys: error: cannot write to standard output: standard output is closed"


@pytest.mark.parametrize("args", [["systems"], ["catalog", "--json"], ["convert", NPC, "--to", "gurps", "-q"]],
                         ids=["text", "json", "document"])
def test_stdout_to_dev_full(args):
    if not (os.path.exists("/dev/full") and stat.S_ISCHR(os.stat("/dev/full").st_mode)):
        pytest.skip("no /dev/full device (or something replaced it with a file)")
    with open("/dev/full", "w") as full:
        r = subprocess.run([XSYS, *map(str, args)], stdout=full, stderr=subprocess.PIPE, text=True, env=ENV,
                           timeout=60)
    line = one_error_line(r)
    assert line == "xsys: error: cannot write to standard output: No space left on device"


def test_ascii_terminal():
    env = {**ENV, "PYTHONIOENCODING": "ascii"}
    line = one_error_line(xsys("systems", env=env))
    assert line.startswith("xsys: error: standard output cannot show '\\u2014' in its encoding ascii")
    # a document is UTF-8 as a file would be, whatever the terminal
    r = subprocess.run([XSYS, "convert", "-", "--to", "neutral", "-q"], input="system: neutral\nkind: npc\nname: Zoë\n",
                       capture_output=True, encoding="utf-8", env=env, timeout=60)
    assert r.returncode == 0 and "name: Zoë" in r.stdout, r.stderr


@pytest.mark.parametrize("args", [["catalog"], ["catalog", "--json"]], ids=["text", "json"])
def test_broken_pipe(args):
    p = subprocess.Popen([XSYS, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    p.stdout.close()  # the reader is gone before xsys writes anything, as with `| head -1` at its end
    err = p.stderr.read()
    p.stderr.close()
    code = p.wait(timeout=60)
    assert code == 141 and "Traceback" not in err and "Exception ignored" not in err, err
    assert err == "xsys: stopped: standard output was closed by its reader (broken pipe)\n"


@pytest.mark.parametrize("when", ["importing", "computing"])
def test_ctrl_c(when):
    """Ctrl-C while the modules load (the first fraction of a second) or while working.
    Python reports each finished import (-X importtime): the signal is sent once typer has
    loaded, with most of xsys still to come, whatever the speed of the machine."""
    env = {**os.environ, "XSYS_PLUGINS": "catalog,coc", "PYTHONPROFILEIMPORTTIME": "1"}
    p = subprocess.Popen([XSYS, "curve", "--points", "10000", "--json"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)
    seen = []
    for line in p.stderr:
        seen.append(line)
        if re.search(r"\|\s+typer$", line.rstrip()) or not line.startswith("import time:"):
            break
    if when == "computing":
        for line in p.stderr:  # the last import the command needs before it computes
            seen.append(line)
            if re.search(r"\|\s+xsys\.conversions\.curve$", line.rstrip()) or not line.startswith("import time:"):
                break
        time.sleep(0.5)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    err = "".join(x for x in seen + err.splitlines(keepends=True) if not x.startswith("import time:"))
    assert p.returncode == 130, (p.returncode, err)
    assert err == "xsys: interrupted\n" and out == ""
