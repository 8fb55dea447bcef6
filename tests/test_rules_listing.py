"""``xsys rules`` reads well to someone who has never seen the code: rules grouped by
system under a legend saying what seed / assumed / mixed / ƒ mean, every title whole
(wrapped to the terminal, never cut), and one rule's table rows as "the system's value,
from / up to this neutral value with its unit"; ``--system`` narrows the listing, and a
formula is still evaluated from the command line."""

from __future__ import annotations

import json

import pytest

from helpers import run_main
from xsys.core.registry import default_registry

LEGEND = [
    "Rules of the installed game systems, by system. After each rule ID, where it comes from:",
    "  seed     the rule text states it",
    "  assumed  the rule text is silent: xsys's own choice, explained in the system's README",
    "  mixed    some of its values are stated, some assumed",
]


def rules_text(capsys, monkeypatch, *args, columns: int = 100) -> str:
    monkeypatch.setenv("COLUMNS", str(columns))
    code, out, err = run_main(capsys, "rules", *args)
    assert code == 0, err
    return out


def joined(text: str) -> str:
    return " ".join(text.split())


def test_the_listing_has_a_legend_and_groups_rules_by_system(capsys, monkeypatch):
    out = rules_text(capsys, monkeypatch)
    lines = out.splitlines()
    assert lines[:4] == LEGEND
    headers = [i for i, line in enumerate(lines) if " — " in line and not line.startswith(" ")]
    assert [lines[i].split(" — ")[0] for i in headers] == default_registry().keys()
    at = default_registry().keys().index("nwod")
    nwod = lines[headers[at]:headers[at + 1]]
    assert nwod[0] == "nwod — new World of Darkness: 36 rules (7 seed, 29 assumed, 0 mixed; 7 formulas)"
    ids = [line.split()[0] for line in nwod[1:] if line.startswith("  ") and not line.startswith("   ")]
    assert ids and all(i.startswith("nwod.") for i in ids)
    assert "  nwod.barrier.penetration  seed     ƒ Penetration needs S > D (strictly greater)" in nwod


def test_titles_are_whole_and_wrapped_to_the_terminal(capsys, monkeypatch):
    out = rules_text(capsys, monkeypatch, "coc", columns=80)
    assert "…" not in out
    assert max(len(line) for line in out.splitlines()) <= 80
    assert ("coc-ja.conceal seed ƒ concealed carry: size multiplier, modified Conceal, chance of being found "
            "(evaluates coc-ja.conceal.size, coc-ja.conceal.clothing, coc-ja.conceal.holster, "
            "coc-ja.conceal.roll)") in joined(out)
    code, out, _ = run_main(capsys, "rules", "coc", "--json")
    conceal = next(r for r in json.loads(out)["rules"] if r["id"] == "coc-ja.cover.exposure")
    assert conceal["title"] == ("a target showing less than half of itself can only be hit as an aimed location "
                                "shot (<= 1/5, coc-ja.aimed.location)")


@pytest.mark.parametrize("args,lines", [
    (("gurps", "gurps.ssr"), [
        "  ladder ssr: the gurps value by distance or length in m; a value takes the first row at or above",
        "     15  up to 0.002 m", "     -7  up to 30 m      100 km/h"]),
    (("coc", "coc-ja.darkness"), [
        "  ladder darkness: the coc value by illuminance in lx; a value takes the row at or below it:",
        "    2  from 0.01 lx    dim light  (assumed)"]),
    (("coc", "coc-ja.conceal.size"), [
        "    0.5  up to 1.2 m   x1/2: rifle, full-size shotgun, x1 gun with a drum",
        "      0  beyond 1.2 m  cannot be concealed"]),
    (("coc", "coc-ja.range"), ["     2  up to 2 x base range    up to 2x base range: x1/2"]),
    (("coc", "coc-ja.characteristics"), ["    11  from 50%"]),
    (("gurps", "gurps.crit.basic"), ["    roll 9-11: Normal damage"]),
    (("gurps", "gurps.hit-location"), ["    eye: modifier -9; 2+ damage blinds the eye. Impaling or missile hit:"]),
], ids=["ssr-metres", "darkness-lux", "conceal-length", "base-ranges", "percentile", "roll-range", "modifier"])
def test_one_rules_rows_say_what_each_number_is_with_its_unit(capsys, monkeypatch, args, lines):
    out = rules_text(capsys, monkeypatch, *args)
    for want in lines:
        assert any(line.startswith(want) for line in out.splitlines()), (want, out)
    assert "at=" not in out and "axis=" not in out and "native=" not in out


def test_no_rule_shows_a_raw_ladder_row(capsys, monkeypatch):
    from xsys.conversions import rules_cmd

    for key in ("nwod", "pl-trudnosc"):
        for rid in rules_cmd.rule_infos(default_registry().system(key)):
            out: list[str] = []
            rules_cmd._emit_description(rules_cmd.describe(key, rid), out.append)
            text = "\n".join(out)
            assert "at=" not in text and "ladder=" not in text and "source=" not in text, (key, rid)


def test_system_option_narrows_the_listing(capsys, monkeypatch):
    out = rules_text(capsys, monkeypatch, "--system", "nwod", "-s", "pl-trudnosc")
    headers = [line.split(" — ")[0] for line in out.splitlines() if " — " in line and not line.startswith(" ")]
    assert headers == ["nwod", "pl-trudnosc"]
    assert rules_text(capsys, monkeypatch, "-s", "nwod") == rules_text(capsys, monkeypatch, "nwod")
    code, out, err = run_main(capsys, "rules", "-s", "dnd")
    assert code == 2 and err == ("xsys: error: unknown system (expected one of coc, coc-zh, coc7, gurps, nwod, "
                                 "pl-trudnosc, found 'dnd')\n")


def test_a_formula_is_still_evaluated(capsys, monkeypatch):
    for args in (("coc", "coc-ja.conceal"), ("-s", "coc", "coc-ja.conceal")):
        out = rules_text(capsys, monkeypatch, *args, "--length", "21cm")
        assert out.splitlines()[-1] == "  size_multiplier: 2"
    code, out, _ = run_main(capsys, "rules", "nwod", "nwod.barrier.penetration", "--successes", "5", "--durability",
                            "1", "--armor", "2", "--json")
    assert code == 0 and json.loads(out)["result"]["damage_pool"] == 2
