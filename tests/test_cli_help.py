"""The help screens read as written: a description's sentences are not broken where the
source wrapped them, a flag is shown without a value, an option taking a system key lists
the installed systems, and ``curve -o`` names the extra it needs and how to install it."""

from __future__ import annotations

import re

import pytest

from helpers import run_main
from xsys.core.registry import default_registry


def help_of(capsys, *args) -> str:
    code, out, err = run_main(capsys, *args, "--help")
    assert code == 0, err
    return out


def panel(text: str, title: str) -> list[str]:
    """The inner lines of one rich help panel (``╭─ Commands ─...╮`` to ``╰...╯``)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"╭─ {title} "))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("╰"))
    return [line.strip("│").rstrip() for line in lines[start + 1:end]]


def test_the_command_list_gives_each_command_one_unbroken_line(capsys):
    rows = panel(help_of(capsys), "Commands")
    names = [r.split()[0] for r in rows if not r.startswith("  ")]
    # every row starts with a command name: no description continues on a line of its own
    assert [r for r in rows if r.startswith("  ")] == []
    assert {"validate", "convert", "odds", "rules", "skills", "serve"} <= set(names)
    by_name = {r.split()[0]: r.split(None, 1)[1] for r in rows}
    assert by_name["validate"] == "Check documents without converting them; reports every file."
    assert by_name["odds"] == "One shot in every installed system side by side."


def test_a_command_description_is_not_broken_mid_sentence(capsys):
    text = help_of(capsys, "validate")
    assert ("In a folder, files that are not xsys documents (no system: or kind: key) and special files are "
            "skipped.") in text
    text = help_of(capsys, "convert")
    assert "Files in a folder that are not xsys documents are skipped (said on stderr)." in text


@pytest.mark.parametrize("command", ["--version", "systems", "convert", "odds", "curve", "rules", "catalog"])
def test_flags_are_shown_without_a_value(capsys, command):
    text = help_of(capsys) if command == "--version" else help_of(capsys, command)
    assert "<bool>" not in text
    rows = {r.split()[0]: r for r in panel(text, "Options") if r.strip().startswith("--")}
    assert re.match(r"^--help\s+Show this message and exit\.$", rows["--help"].strip())


def test_a_flag_takes_no_value(capsys):
    # (it never did: only its help said so)
    code, out, err = run_main(capsys, "systems", "--json", "true")
    assert code == 2 and "unexpected extra argument" in err and "(true)" in err


def test_options_taking_a_system_list_the_installed_systems(capsys):
    keys = ", ".join(default_registry().keys())
    assert "coc, coc-zh, coc7, gurps, nwod, pl-trudnosc" in keys
    convert = " ".join(help_of(capsys, "convert").split())
    assert f"Target system: {keys}, or neutral." in convert.replace("│ ", "").replace(" │", "")
    odds = " ".join(x.strip("│ ") for x in help_of(capsys, "odds").splitlines())
    assert f"Only this system (repeatable): {keys}." in " ".join(odds.split())
    assert "{installed systems}" not in convert + odds


def test_curve_output_names_the_extra_and_its_pip_command(capsys):
    text = " ".join(x.strip("│ ") for x in help_of(capsys, "curve").splitlines())
    assert 'drawing it needs the plot extra: pip install "xsys[plot]"' in " ".join(text.split())
