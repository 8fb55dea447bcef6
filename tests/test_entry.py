"""The ``xsys`` command runs a plain ``xsys convert`` or ``xsys odds FILE`` without building the
typer app (xsys.conversions.entry): it must read every such command line exactly as the app
does, and leave every other one to the app."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import pytest

from xsys.conversions import cli, entry, run

ROOT = Path(__file__).resolve().parents[1]
NPC = str(ROOT / "fixtures/coc/npcs/investigator_38.yaml")
SCENARIO = str(ROOT / "fixtures/coc/scenarios/speakeasy_raid.yaml")

PLAIN = [
    ["convert", NPC, "--to", "gurps"],
    ["convert", NPC, "-t", "gurps", "-o", "out.yaml", "-q"],
    ["convert", NPC, "--to=nwod", "--output=-", "--explain", "--strict", "--fresh"],
    ["convert", NPC, "other.yaml", "--to", "coc7", "--out-dir", "out", "--format", "md", "--losses", "full"],
    ["convert", "-", "--to", "gurps", "--from", "coc", "--input-format", "yaml"],
    ["convert", NPC, "--to", "gurps", "--set", "gurps.a=1", "--set=coc.b=2", "-f", "coc"],
    ["convert", "--to", "gurps", NPC, "--quiet", "--to", "nwod"],  # the last --to wins, as in the app
    ["convert", NPC, "--to", ""],
    ["odds", SCENARIO],
    ["odds", SCENARIO, "-s", "gurps", "--system", "coc", "--json", "--set", "gurps.a=1"],
    ["odds", "--from=coc", SCENARIO, "--input-format", "yaml", "-f", "coc7"],
]


def _as_the_app_reads(args: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[str, dict]:
    got: dict = {}
    for command, work in (("convert", "convert_files"), ("odds", "odds_shots")):
        names = list(inspect.signature(getattr(run, work)).parameters)

        def record(*a, _command=command, _names=names, **kw):
            got.update({"command": _command, **dict(zip(_names, a)), **kw})
            return 0

        monkeypatch.setattr(cli, work, record)
    with pytest.raises(SystemExit):
        cli.main(args)
    return got.pop("command"), got


@pytest.mark.parametrize("args", PLAIN)
def test_a_plain_command_is_read_as_the_app_reads_it(args, monkeypatch):
    assert entry.plain_command(args) == _as_the_app_reads(args, monkeypatch)


@pytest.mark.parametrize("args", [
    [], ["--help"], ["--version"], ["systems"], ["convert"], ["convert", "--help"], ["convert", NPC],
    ["convert", NPC, "--to"], ["convert", NPC, "-tgurps"], ["convert", NPC, "-qt", "gurps"],
    ["convert", "--", NPC, "--to", "gurps"], ["convert", NPC, "--to", "gurps", "--strict=yes"],
    ["convert", NPC, "--to", "gurps", "--bogus"], ["convert", "--to", "gurps"], ["odds"], ["odds", "--json"],
    ["odds", SCENARIO, SCENARIO], ["odds", "--distance", "30m"], ["odds", SCENARIO, "--burst", "3"]])
def test_every_other_command_line_is_the_apps(args):
    assert entry.plain_command(args) is None


@pytest.mark.parametrize("args", [["convert", NPC, "--to", "gurps", "-q"], ["odds", SCENARIO, "--json"]])
def test_a_plain_command_loads_no_typer_and_prints_what_the_app_prints(args, capsys):
    """What makes a cold command cheap: neither typer nor the app is imported, and the output
    is the app's, byte for byte."""
    code = ("import sys\nfrom xsys.conversions import entry\ntry:\n    entry.main(sys.argv[1:])\n"
            "except SystemExit as e:\n    assert e.code == 0, e.code\n"
            "sys.stderr.write(repr(sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'pydantic') or m == "
            "'xsys.conversions.cli')))\n")
    fast = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, timeout=120)
    assert fast.returncode == 0 and fast.stderr.decode().endswith("[]") and fast.stdout, fast.stderr
    with pytest.raises(SystemExit) as done:
        cli.main(args)
    assert done.value.code == 0
    assert capsys.readouterr().out.encode() == fast.stdout


def test_importing_the_command_module_leaves_ctrl_c_as_it_was():
    """The console script guards Ctrl-C while its modules load ('xsys: interrupted', not a
    traceback); a program that only imports the module keeps its own Ctrl-C (a test run that
    imported it had every later Ctrl-C end in 'xsys: interrupted' and SystemExit)."""
    code = ("import signal; before = signal.getsignal(signal.SIGINT)\n"
            "import xsys.conversions.entry\n"
            "print(signal.getsignal(signal.SIGINT) is before)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
    from xsys.conversions import starting

    assert starting._the_command() is False  # this process is pytest
