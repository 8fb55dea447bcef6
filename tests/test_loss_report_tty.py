"""On a terminal the loss report is shown once: when standard output and standard error are
the same terminal and the converted document already carries the report (the Markdown sheet's
"Loss report", a YAML/JSON/TOML document's xsys.losses), stderr gets one summary line instead
of the report a second time. Anywhere else (stderr a pipe or a file, a format that does not
carry the report) stderr keeps every line."""

from __future__ import annotations

import os
import pty
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import run_main
from xsys.conversions import cli, run

ROOT = Path(__file__).resolve().parent.parent
NPC = "fixtures/coc/npcs/investigator_38.yaml"
XSYS = shutil.which("xsys", path=str(Path(sys.executable).parent))
# one info line of this NPC's loss report, as it reads in the sheet and on stderr alike
OFF_HAND = "carried verbatim at carried.coc.skills.Off-hand Shooting"
SUMMARY = f"{NPC}: 3 warnings and 10 info lines in the loss report above (## Loss report)"

pytestmark = pytest.mark.skipif(XSYS is None or not hasattr(os, "openpty"),
                                reason="needs the xsys console script and a pseudo-terminal")


def on_a_terminal(*args: str, stderr_too: bool = True) -> tuple[int, str, str]:
    """Run xsys with standard output on a pseudo-terminal, standard error on the same one (or
    on a pipe): (exit status, what the terminal showed, what the pipe got)."""
    master, slave = pty.openpty()
    env = {**os.environ, "COLUMNS": "200"}
    proc = subprocess.Popen([XSYS, *args], stdin=subprocess.DEVNULL, stdout=slave,
                            stderr=slave if stderr_too else subprocess.PIPE, cwd=ROOT, env=env)
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the other end closed (Linux: EIO)
            break
        if not chunk:
            break
        shown += chunk
    piped = proc.stderr.read() if proc.stderr is not None else b""
    code = proc.wait(timeout=120)
    os.close(master)
    screen = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown.decode("utf-8")).replace("\r", "")
    return code, screen, piped.decode("utf-8")


def test_the_report_is_shown_once_on_one_terminal():
    code, screen, _ = on_a_terminal("convert", NPC, "--to", "gurps", "--format", "md", "--explain")
    assert code == 0
    assert "## Loss report" in screen
    assert screen.count(OFF_HAND) == 1  # the sheet's line; stderr did not repeat it
    lines = [x for x in screen.splitlines() if x.strip()]
    assert lines[-1] == SUMMARY  # after the sheet, where "above" is true


def test_stderr_elsewhere_keeps_the_whole_report():
    code, screen, piped = on_a_terminal("convert", NPC, "--to", "gurps", "--format", "md", "--explain",
                                        stderr_too=False)
    assert code == 0 and screen.count(OFF_HAND) == 1
    lines = piped.splitlines()
    assert len(lines) == 13 and all(x.startswith(f"{NPC}: ") for x in lines)
    assert sum(": warning: " in x for x in lines) == 3 and sum(OFF_HAND in x for x in lines) == 1


@pytest.mark.parametrize("fmt,summary", [
    ("yaml", f"{NPC}: 3 warnings in the loss report above (xsys.losses)"),
    ("json", f"{NPC}: 3 warnings in the loss report above (xsys.losses)"),
    ("text", None),  # the text block does not carry the report: stderr keeps it
])
def test_which_formats_carry_the_report(capsys, monkeypatch, fmt, summary):
    monkeypatch.setattr(run, "_same_terminal", lambda: True)
    code, out, err = run_main(capsys, "convert", ROOT / NPC, "--to", "gurps", "--format", fmt)
    assert code == 0
    lines = err.splitlines()
    if summary is None:
        assert len(lines) == 3 and all(": warning: $.skills." in x for x in lines)
    else:
        assert lines == [summary.replace(NPC, str(ROOT / NPC))]
