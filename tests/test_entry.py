"""The ``xsys`` command runs a plain ``xsys convert`` without building the typer app
(xsys.conversions.entry): it must read every such command line exactly as the app does, and
leave every other one to the app."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import pytest

from xsys.conversions import cli, entry, run

ROOT = Path(__file__).resolve().parents[1]
NPC = str(ROOT / "fixtures/coc/npcs/investigator_38.yaml")

PLAIN = [
    ["convert", NPC, "--to", "gurps"],
    ["convert", NPC, "-t", "gurps", "-o", "out.yaml", "-q"],
    ["convert", NPC, "--to=nwod", "--output=-", "--explain", "--strict", "--fresh"],
    ["convert", NPC, "other.yaml", "--to", "coc7", "--out-dir", "out", "--format", "md", "--losses", "full"],
    ["convert", "-", "--to", "gurps", "--from", "coc", "--input-format", "yaml"],
    ["convert", NPC, "--to", "gurps", "--set", "gurps.a=1", "--set=coc.b=2", "-f", "coc"],
    ["convert", "--to", "gurps", NPC, "--quiet", "--to", "nwod"],  # the last --to wins, as in the app
    ["convert", NPC, "--to", ""],
]


def _as_the_app_reads(args: list[str], monkeypatch: pytest.MonkeyPatch) -> dict:
    got: dict = {}
    names = list(inspect.signature(run.convert_files).parameters)

    def record(*a, **kw):
        got.update(dict(zip(names, a)), **kw)
        return 0

    monkeypatch.setattr(cli, "convert_files", record)
    with pytest.raises(SystemExit):
        cli.main(args)
    return got


@pytest.mark.parametrize("args", PLAIN)
def test_a_plain_convert_is_read_as_the_app_reads_it(args, monkeypatch):
    assert entry.plain_convert(args) == _as_the_app_reads(args, monkeypatch)


@pytest.mark.parametrize("args", [
    [], ["--help"], ["--version"], ["odds", NPC], ["convert"], ["convert", "--help"], ["convert", NPC],
    ["convert", NPC, "--to"], ["convert", NPC, "-tgurps"], ["convert", NPC, "-qt", "gurps"],
    ["convert", "--", NPC, "--to", "gurps"], ["convert", NPC, "--to", "gurps", "--strict=yes"],
    ["convert", NPC, "--to", "gurps", "--bogus"], ["convert", "--to", "gurps"]])
def test_every_other_command_line_is_the_apps(args):
    assert entry.plain_convert(args) is None


def test_a_plain_convert_loads_no_typer(tmp_path):
    """What makes a cold conversion cheap: neither typer nor the app is imported, and the
    output is the app's, byte for byte."""
    code = ("import sys\nfrom xsys.conversions import entry\nsys.argv = ['xsys', 'convert', sys.argv[1], '--to', "
            "'gurps', '-o', sys.argv[2], '-q']\ntry:\n    entry.main()\nexcept SystemExit as e:\n    assert e.code == 0\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'pydantic') or m == "
            "'xsys.conversions.cli'))\n")
    fast = subprocess.run([sys.executable, "-c", code, NPC, str(tmp_path / "fast.yaml")], capture_output=True,
                          text=True, timeout=120)
    assert fast.returncode == 0 and fast.stdout.strip() == "[]", fast.stderr
    with pytest.raises(SystemExit) as done:
        cli.main(["convert", NPC, "--to", "gurps", "-o", str(tmp_path / "app.yaml"), "-q"])
    assert done.value.code == 0
    assert (tmp_path / "fast.yaml").read_bytes() == (tmp_path / "app.yaml").read_bytes()
