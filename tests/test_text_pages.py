"""Layouts met in real stat blocks found on the web and in repositories (a Homebrewery page's markup, a
Roll20 compendium page's title, an older scenario's 'Bite 35%, 1D10+1D6' attack lines, a 4th-edition
weapon's close-combat modes). The documents are written for these tests in those shapes."""

from __future__ import annotations

from xsys.plugins.textblock.reader import load


def read(text: str) -> dict:
    return load(text.encode("utf-8"))


def unread(doc: dict) -> list[str]:
    return [u["text"] for u in doc.get("xsys", {}).get("read", {}).get("unread", [])]


def test_a_homebrewery_page_reads_without_its_markup():
    """Homebrewery (the naturalcrit editor) wraps a block in '{{cocCharacter' ... '}}' and spaces it with
    ':' lines: markup, not text (the name had been '{{cocCharacter', the ':' a spell, '}}' unread)."""
    doc = read("{{cocCharacter\n\n### Mr. Finch\n\nThe bookbinder on Wharf Street\n\n{{cocStatsBlock\n\n"
               "|        |        |        |        |\n|--------|--------|--------|--------|\n"
               "| STR 50 | CON 55 | SIZ 60 | DEX 45 |\n| INT 70 | APP 50 | POW 60 | EDU 80 |\n\n}}\n\n"
               "**Hit Points**   : 11\n\n**Move**         : 7\n\n:\n\n"
               "**Skills** : Library Use 70%, Occult 40%,\nPersuade 35%\n\n}}\n")
    assert doc["name"] == "Mr. Finch" and (doc["STR"], doc["EDU"], doc["HP"]) == (50, 80, 11)
    assert doc["skills"] == {"Library Use": 70, "Occult": 40, "Persuade": 35}
    assert not doc.get("spells") and not [t for t in unread(doc) if t in ("}}", ":")]


def test_a_compendium_pages_attributes_title_is_no_section():
    """'Attributes' over a creature's name and its stats (a compendium page flattened to text): a title,
    so the line after it is the name (it had been an unread attribute and the NPC unnamed)."""
    doc = read("Attributes\n\nMarsh Strider\n\nLong-legged fen hunters\n\nSTR 90\nCON 60\nSIZ 110\nDEX 70\n"
               "INT 40\nPOW 55\n\nHitpoints: 17\nDodge: 35\nFighting: 50% damage: 1d8 + damage bonus\n")
    assert doc["name"] == "Marsh Strider" and doc["STR"] == 90 and doc["skills"]["Dodge"] == 35
    assert "Marsh Strider" not in unread(doc)


def test_an_older_scenarios_attacks_with_bare_dice():
    """'Bite 30%, 1D3; Claws (x2) 40%, 1D2 each.': the damage after the comma, with no damage word (the
    attacks had all been unread); that each claw rolls it, said."""
    doc = read("Old Tom, ferry cat\nSTR 4 CON 9 SIZ 2 INT 6 POW 8 DEX 19 HP 6\n"
               "Weapons: Bite 30%, 1D3; Claws (x2) 40%, 1D2 each.\nSkills: Hide 70%, Sneak 90%.\n")
    assert [(m["name"], m["damage"]) for m in doc["melee"]] == [("Bite", "1d3"), ("Claws (x2)", "1d2")]
    assert doc["skills"]["Bite"] == 30 and "Claws (x2): each" in unread(doc)


def test_a_gurps_weapon_with_close_combat_modes_only():
    """'Small Knife (Reach C, 1d-2 imp / Reach C,1, 1d-2 cut)': the first mode is the line (its damage type
    had been the last mode's), the other said."""
    doc = read("Footpad\nST 10; DX 12; IQ 10; HT 10.\nSkills: Knife-13.\n"
               "Equipment: Small Knife (Reach C, 1d-2 imp / Reach C,1, 1d-2 cut).\n")
    knife = next(m for m in doc["melee"] if m["name"] == "Small Knife")
    assert (knife["damage"], knife["type"], knife["reach"], knife["skill"]) == ("1d-2", "imp", "C", "Knife")
    assert any("another attack mode 'Reach C,1, 1d-2 cut'" in t for t in unread(doc))


GANG = """The Doyle brothers, bootleggers
        STR CON SIZ INT POW DEX  HP
SEAMUS   15  14  13  10  11  12  14
PADRAIG  13  16  12  11   9  14  14
LIAM     11  12  10  14  12  15  11
Damage Bonus: +1D4
Weapons: .45 Revolver 45%, 1D10+2; Brawl 60%, 1D3+1D4.
Skills: Drive Auto 50%, Listen 40%.
"""


def test_a_table_of_several_npcs_is_a_roster(tmp_path):
    """A scenario's family or gang printed as one table (a header of stat names, a row an NPC, then the
    weapons and skills they share): a roster of one NPC a row, each with the shared lines (it had been
    refused: 'cannot tell which system this stat block is for'); converted like any roster."""
    doc = read(GANG)
    assert (doc["system"], doc["kind"], doc["name"]) == ("coc", "roster", "The Doyle brothers, bootleggers")
    assert [(n["name"], n["STR"], n["DEX"], n["HP"]) for n in doc["npcs"]] == \
        [("SEAMUS", 15, 12, 14), ("PADRAIG", 13, 14, 14), ("LIAM", 11, 15, 11)]
    assert all(n["skills"]["Handgun"] == 45 and n["skills"]["Drive Auto"] == 50 for n in doc["npcs"])
    said = doc["xsys"]["read"]["assumed"]
    assert said[0].startswith("lines 2-5: a table of 3 NPCs' stats (STR CON SIZ INT POW DEX HP)")
    from xsys.conversions import api

    src = tmp_path / "doyles.txt"
    src.write_text(GANG, encoding="utf-8")
    out = api.convert(src, "gurps", trace=False).document
    assert [n.name for n in out.npcs] == ["SEAMUS", "PADRAIG", "LIAM"] and out.npcs[0].ST > out.npcs[2].ST


def test_one_row_under_stat_names_is_no_table():
    """A header with a single row under it is no group (one NPC's stats in a table are read as they were)."""
    from xsys.core.textblock import group_table, layouts

    assert group_table(["STR CON SIZ DEX", "BOB 10 11 12 13", "Skills: Listen 40%"], layouts()) is None
    assert group_table(GANG.splitlines(), layouts())[0] == 1


def test_a_roster_asked_for_as_text_is_refused_with_the_way_to_write_it():
    """A table read as a roster and written back as text (the input's format by default): text holds one
    NPC, so the message says how to write the roster instead."""
    import pytest

    from xsys.core.errors import InputError
    from xsys.core.textblock import text_of

    with pytest.raises(InputError, match=r"write a roster as YAML, JSON or TOML \(--format yaml"):
        text_of(read(GANG))
