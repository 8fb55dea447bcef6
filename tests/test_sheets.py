"""Sheets a GM can read: `--format md` shows every stat, those at their default too,
numbers without float noise, yes/no for flags, nWoD and GURPS ranges in yards as bands; the
text block (`--format text`) has no float noise either."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from xsys.conversions import api

ROOT = Path(__file__).resolve().parents[1]
NOISE = re.compile(r"\d\.\d{4,}")  # 0.20400000000000001 m, 41.147999999999996 m


def md(src, to: str) -> str:
    conv = api.convert(api.load(src) if isinstance(src, Path) else src, to, trace=False, fresh=True)
    return api.dump(conv, "md").decode("utf-8")


def test_an_nwod_sheet_shows_all_nine_attributes_even_at_their_default():
    text = md(ROOT / "fixtures" / "gurps" / "npcs" / "soldier.yaml", "nwod")
    for attr in ("Intelligence", "Wits", "Resolve", "Strength", "Dexterity", "Stamina", "Presence",
                 "Manipulation", "Composure"):
        assert f"**{attr}** " in text, attr
    assert "150/300/600 yd" in text  # ranges as the rulebook prints them, not a tuple in metres
    assert "('" not in text and "True" not in text


def test_an_average_gurps_shooter_shows_st_dx_iq_ht():
    doc = {"system": "gurps", "kind": "npc", "name": "Average trained shooter", "skills": {"Guns (Pistol)": 12}}
    text = md(doc, "gurps")
    assert "**ST** 10 · **DX** 10 · **IQ** 10 · **HT** 10" in text


SCENARIOS = sorted((ROOT / "fixtures").glob("*/scenarios/*.yaml"))
SCENARIOS = [p for p in SCENARIOS  # on the path below the checkout: a checkout may sit in a folder called plugins
             if "plugins" not in p.relative_to(ROOT).parts and p.parent.parent.name != "neutral"]


@pytest.mark.parametrize("src", SCENARIOS[:4], ids=lambda p: f"{p.parent.parent.name}/{p.name}")
@pytest.mark.parametrize("to", ["coc", "gurps", "nwod", "pl-trudnosc"])
def test_no_float_noise_and_no_python_values_on_a_sheet(src, to):
    text = md(src, to)
    body = text.split("## Loss report")[0]  # the report quotes neutral values at full precision
    # a shot's roll is the system's own words for its check (coc writes '8 m <= 9.33 m')
    body = "\n".join(x for x in body.splitlines() if not x.startswith("**Roll**: "))
    assert not NOISE.search(body), NOISE.search(body).group(0)
    assert not re.search(r"\bTrue\b|\bFalse\b|\('[^']*', '", body)  # no Python tuple


@pytest.mark.parametrize("src", [p for p in sorted((ROOT / "fixtures").glob("*/npcs/*.yaml"))
                                 if p.parent.parent.name != "neutral"][:12],
                         ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_no_float_noise_in_a_text_block(src):
    for to in ("coc", "gurps", "nwod", "pl-trudnosc"):
        conv = api.convert(api.load(src), to, trace=False, fresh=True)
        text = api.dump(conv, "text").decode("utf-8")
        assert not NOISE.search(text), (to, NOISE.search(text).group(0))


@pytest.mark.parametrize("to, says", [("gurps", re.compile(r"roll \d+ or less|needs 3 or 4 \(they always hit\): .* leave an effective skill of -?\d+")),
                                      ("nwod", " di"), ("pl-trudnosc", "Trudność"), ("coc", "d100")])
def test_each_shot_states_the_number_the_table_rolls_against(to, says):
    text = md(ROOT / "fixtures" / "coc" / "scenarios" / "speakeasy_raid.yaml", to)
    heads = [x for x in text.splitlines() if x.startswith("### Shot")]
    rolls = [x for x in text.splitlines() if x.startswith("**Roll**: ")]
    assert heads and len(rolls) == len(heads)
    assert all((says.search(r) if isinstance(says, re.Pattern) else says in r) and r.endswith("% chance")
               for r in rolls), rolls
    assert "(Vincenzo 'Tommy' Scarpa at Detective Sergeant Frank Malloy)" in heads[0]  # who shoots at whom


def test_headings_carry_the_names_a_polish_document_writes_under_its_own_keys():
    # a Polish stat block names its NPC under `imię` and its shot under `nazwa`
    text = md(ROOT / "fixtures" / "gurps" / "scenarios" / "alley_at_night.yaml", "pl-trudnosc")
    headings = [line for line in text.splitlines() if line.startswith("#")]
    assert any(h.startswith("### Patrol officer — ") for h in headings), headings
    assert any(h.startswith("### Shot 1: Officer fires at the thug") for h in headings), headings
    assert not any(h.startswith(("# NPC", "## NPC", "### NPC")) for h in headings)
    assert "**imię**" not in text  # the name is the heading, not a stat


@pytest.mark.parametrize("scenario", sorted((ROOT / "fixtures").glob("*/scenarios/*.yaml")), ids=lambda p: p.stem)
def test_no_float_noise_in_the_odds_explanations(scenario):
    # "point-blank: 8 m <= 9.33 m", "target moves 4.17 m/s": a reader's three digits, not 9.33333 m
    from typer.testing import CliRunner

    from xsys.conversions.cli import app

    res = CliRunner().invoke(app, ["odds", str(scenario)])
    assert res.exit_code == 0, res.output
    assert not NOISE.findall(res.output), [line for line in res.output.splitlines() if NOISE.search(line)]


def test_brief_quantities():
    from xsys.core.units import Length, Speed, brief

    assert brief(Length(28 / 3)) == "9.33 m"
    assert brief(Speed(15 / 3.6)) == "4.17 m/s"
    assert brief(Length(8)) == "8 m" and brief(0.0381, "m") == "0.0381 m" and brief(1234.5, "m") == "1230 m"


def test_a_name_with_quotes_reads_as_written():
    """Mickey "the Crane" Doyle: a double quote needs no escape in Markdown (the sheet has no
    HTML attribute), so the heading shows it as written, in a terminal as in a browser; what
    Markdown or HTML would act on is still escaped."""
    from xsys.conversions import markdown

    text = markdown.md('Mickey "the Crane" Doyle <b>*x*</b>')
    assert text.startswith('Mickey "the Crane" Doyle') and "&lt;b&gt;" in text and "\\*x\\*" in text


def test_an_ampersand_reads_as_written_unless_it_would_be_a_character_reference():
    """"Smith & Wesson" needs no escape (a lone & is text to every Markdown renderer); a name that
    spells a character reference ("&lt;b&gt;", "&#60;") keeps showing those characters, not a tag."""
    from xsys.conversions import markdown

    assert markdown.md("Smith & Wesson Model 10") == "Smith & Wesson Model 10"
    assert markdown.md("R&D") == "R&D"
    assert markdown.md("&lt;b&gt;") == "&amp;lt;b&amp;gt;"
    assert markdown.md("&#60;script").startswith("&amp;")
    assert "&lt;script&gt;" in markdown.md("<script>")


def test_the_carried_block_reads_as_each_system_writes_it():
    """The md sheet shows the carried block one line per system family, each value as that
    system writes it (SAN 38, SIZ 17) and a close-combat line as "Fists (Fist/Punch, 1d3+db)",
    and the notes as a paragraph of their own, not a stat."""
    from xsys.conversions import markdown

    conv = api.convert(ROOT / "fixtures/coc/npcs/dock_brute.yaml", "gurps", fresh=True, trace=False)
    out = markdown.render(conv)
    line = next(x for x in out.splitlines() if x.startswith("- coc: "))
    assert "SAN 38" in line and "SIZ 17" in line and "Fists (Fist/Punch, 1d3+db)" in line, line
    assert "**notes**: Kingsport" in out and "**notes** Kingsport" not in out


def test_a_polish_sheets_notes_are_its_opis_paragraph():
    """The Polish stat block writes the notes as ``opis``: a paragraph of its own, not a stat."""
    from xsys.conversions import markdown

    conv = api.convert(ROOT / "fixtures/gurps/npcs/sniper.yaml", "pl-trudnosc", fresh=True, trace=False)
    out = markdown.render(conv)
    assert "\n**opis**: " in out and "**opis** " not in out.split("\n")[2]


def test_a_gurps_sheet_shows_metres_as_its_metric_tables_do():
    """The Japanese GURPS 3e Basic Set reads distances in metres (gurps.ssr: "8 m -> 10 m row"),
    so its shot table says 8 m, not 8.749 yd."""
    text = md(ROOT / "fixtures" / "coc" / "scenarios" / "speakeasy_raid.yaml", "gurps")
    assert "| distance | 8 m |" in text and " yd |" not in text, [x for x in text.splitlines() if "distance" in x]


def test_a_coc_sheet_prints_the_damage_bonus_its_melee_lines_add():
    """'1d3+db' on a sheet that never said what db is: STR 17 + SIZ 17 = 34 is +1d6."""
    from xsys.conversions import api, markdown

    conv = api.convert(api.load(ROOT / "fixtures/coc/npcs/dock_brute.yaml"), "coc", fresh=True)
    text = markdown.render(conv)
    assert "**DB** +1d6 (coc-ja.damage-bonus)" in text
    assert "1d3+db" in text


@pytest.mark.parametrize("strength,size,db,build", [(52, 65, "0", 0), (80, 75, "+1D4", 1), (40, 40, "-1", -1),
                                                     (30, 30, "-2", -2), (95, 90, "+1D6", 2)])
def test_a_coc7_sheet_prints_the_damage_bonus_and_build_of_its_own_table(strength, size, db, build):
    """coc7.derived: STR + SIZ 117 is damage bonus 0 and Build 0 in 7th edition (it was printed
    +6d6, coc's 3-18 table read on 7th-edition values); 155 +1D4 / 1, 80 -1 / -1, 60 -2 / -2,
    185 +1D6 / 2."""
    from xsys.conversions import api, markdown

    npc = {"system": "coc7", "kind": "npc", "name": "Tester", "STR": strength, "CON": 50, "SIZ": size, "DEX": 50,
           "APP": 50, "INT": 50, "POW": 50, "EDU": 50}
    text = markdown.render(api.convert(npc, "coc7", fresh=True))
    assert f"**DB** {db} (coc7.derived) · **Build** {build} (coc7.derived)" in text, text.splitlines()[:4]
    assert "coc-ja.damage-bonus" not in text
    # a sheet that states no HP, MP or MOV shows the rule's (HP (50 + SIZ) / 10, MP POW / 5)
    assert f"**HP** {(50 + size) // 10} (coc7.derived)" in text and "**MP** 10 (coc7.derived)" in text
    assert "**MOV** " in text


def test_a_coc_armor_table_says_what_a_and_b_are():
    from xsys.conversions import api, markdown

    text = markdown.render(api.convert(api.load(ROOT / "fixtures/coc/npcs/swat_officer.yaml"), "coc", fresh=True))
    table = text.index("| name | A | B |")
    legend = text[table:].split("\n\n")[1]
    assert legend.startswith("*A*: the armor value") and "*B*: the table's second number, which the rule text never " \
                                                          "explains" in legend


def test_an_nwod_sheet_shows_the_traits_its_block_leaves_to_the_rules():
    """A Foundry MtA actor states no Defense, Speed or Initiative: the sheet lacked them."""
    from xsys.conversions import api, markdown

    text = markdown.render(api.convert(api.load(ROOT / "fixtures/foundry-mta/officer-reyes.json"), "nwod"))
    assert ("**Defense** 2 (nwod.derived) · **Speed** 10 (nwod.derived) · **Initiative** 7 (nwod.derived)"
            in text)  # Dexterity 3, Wits 2, Strength 2, Composure 3, Fast Reflexes 1 (WoD p. 90-91)


def test_lengths_on_a_yards_sheet_read_as_a_keeper_reads_them():
    # coc7 prints ranges in yards: a whole number of them as it is, else a tenth with the exact
    # metres beside it; a door's thickness is no length a rulebook gives in yards
    from xsys.conversions.markdown import quantity_text
    from xsys.core.units import Length, parse

    assert quantity_text(parse("15 yd", Length), "yd") == "15 yd"
    assert quantity_text(parse("8 m", Length), "yd") == "8.7 yd (8 m)"
    assert quantity_text(parse("98.4 yd", Length), "yd") == "98.4 yd"
    assert quantity_text(parse("1.5 in", Length), "yd") == "3.81 cm"
    assert quantity_text(parse("8 m", Length)) == "8 m"
    text = md(ROOT / "fixtures" / "coc" / "scenarios" / "speakeasy_raid.yaml", "coc7")
    assert "| distance | 8.7 yd (8 m) |" in text and not re.search(r"\d\.\d{2,} yd", text)
