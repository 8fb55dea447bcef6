"""Stat blocks copied from a PDF or a scanned book break their lines at the page's width, in the
middle of an item: a skill's name on one line and its level on the next, a trait's brackets
across two lines, a word broken at its hyphen (core.textblock.unwrapped). Each item is read
whole, as the book means it; a line that is a line of its own is not joined. The documents are
written for these tests in the shape of the 4th-edition GURPS books' character write-ups and
the sample NPCs of the GURPS Foundry system's NPC generator (crnormand/gurps, lib/npc-input.js),
and of Call of Cthulhu scenario blocks."""

from __future__ import annotations

from xsys.conversions import api
from xsys.core.textblock import unwrapped
from xsys.plugins.textblock.reader import load


def read(text: str) -> dict:
    return load(text.encode("utf-8"))


def unread(doc: dict) -> list[tuple[int, str]]:
    return [(u["line"], u["text"]) for u in doc.get("xsys", {}).get("read", {}).get("unread", [])]


# a 4th-edition write-up with every item's cost, broken at a narrow column
WARDEN = """Edda Morrow
188 points
A customs warden of the river ports, patient and hard to bribe.
Attributes: ST 11 [10], DX 13 [60], IQ 12 [40], HT 11
[10]
Secondary Characteristics: Dmg 1d-1/1d+1, BL 24, HP
11, Will 13, Per 13, FP 11, Basic Speed 6.00, Basic
Move 6, Dodge 9, Parry 10.
Advantages: Combat Reflexes [15]; Danger Sense [15]; Legal
Enforcement Powers (Customs) [5].
Disadvantages: Duty (River Guild; 12 or less) [-10]; Sense of Duty
(Her crew) [-5]; Honesty (12) [-10].
Skills: Boating/TL3 (Unpowered) (A) DX [2]-13; Fast-Draw
(Knife) (E) DX [1]-13; Guns/TL8
(Pistol) (E) DX+2 [4]-15; Climbing-
12; Interrogation (A) IQ+1 [4]-13; Swimming (E)
HT [1]-11; Shortsword (A) DX+1 [4]-14.
Languages: Riverspeech-Native [0]; Tradetongue-
Accented [4].
Weapons: Shortsword: 1d+1 cutting, 1d-1 impaling; Long
Knife: 1d-1 cutting, 1 die impaling.
"""


def test_a_wrapped_write_up_reads_each_item_whole():
    doc = read(WARDEN)
    assert doc["system"] == "gurps" and doc["name"] == "Edda Morrow"
    # 'HT 11' over '[10]', and a skill's '(E) DX [1]-13' at the start of a line, had been read as DX -13
    assert (doc["ST"], doc["DX"], doc["IQ"], doc["HT"]) == (11, 13, 12, 11)
    assert doc["skills"] == {"Boating (Unpowered)": 13, "Fast-Draw (Knife)": 13, "Guns (Pistol)": 15, "Climbing": 12,
                             "Interrogation": 13, "Swimming": 11, "Shortsword": 14}
    assert "Legal Enforcement Powers (Customs)" in doc["advantages"]
    assert "Sense of Duty (Her crew)" in doc["disadvantages"]
    assert "Duty (River Guild; 12 or less)" in doc["disadvantages"]
    # the prose's '1 die impaling' is 1d imp; a weapon's name broken before its colon ('Long' over 'Knife:')
    assert [(m["name"], m["damage"], m["type"]) for m in doc["melee"]] == \
        [("Shortsword", "1d+1", "cut"), ("Long Knife", "1d-1", "cut")]
    assert "Tradetongue-Accented [4]" in doc["notes"]  # (a language: kept in the notes, whole)
    texts = [t for _, t in unread(doc)]
    assert not any(t in ("[10]", "Climbing-", "12", "Knife") or t.startswith("(Knife)") for t in texts)
    assert any("Long Knife: second attack '1d imp'" in t for t in texts)  # the line holds its first attack


def test_the_wrapped_write_up_converts_with_its_levels(tmp_path):
    """Converted to 7th edition, the warden is a deft adult with her pistol at its level (the block had
    been refused: DX -13)."""
    src = tmp_path / "warden.txt"
    src.write_text(WARDEN, encoding="utf-8")
    npc = api.convert(src, "coc7", trace=False).document
    direct = api.convert(src.with_name("unwrapped.txt"), "coc7", trace=False).document \
        if src.with_name("unwrapped.txt").write_text(WARDEN.replace("Guns/TL8\n(Pistol)", "Guns/TL8 (Pistol)")
                                                      .replace("HT 11\n[10]", "HT 11 [10]"), encoding="utf-8") else None
    assert npc.DEX == direct.DEX and npc.DEX > 50
    assert npc.skills["Firearms (Handgun)"] == direct.skills["Firearms (Handgun)"] > 50


def test_a_footnote_with_stats_after_a_skill_list_names_no_skill():
    """A footnote after the skills ('* By day the golem has DX 10, Per' over '10, Dodge 8, Move 5, and ...'):
    its stats are no skills (they had become skills named 'Dodge', 'Move' and '... has'), the block's own DX
    stands, and the footnote's words are reported unread."""
    doc = read("Bronze Watcher\nST 19; DX 15; IQ 9; HT 13.\nWill 11; Per 12; Speed 7.00; Dodge 10; Move 7.\n"
               "Skills: Brawling-16; Climbing-\n15; Stealth-17; Traps-13.\n"
               "* By day the watcher has DX 10, Per\n10, Dodge 8, Move 5, and loses its night vision.\n")
    assert doc["DX"] == 15
    assert doc["skills"] == {"Brawling": 16, "Climbing": 15, "Stealth": 17, "Traps": 13}
    texts = [t for _, t in unread(doc)]
    assert "Dodge 8" in texts and "Move 5" in texts


def test_a_wrapped_coc_skill_list_and_stat_line():
    """A 7th-edition block broken at a column: 'INT' over '65 POW 50 ...', 'Drive Auto' over '45%, ...'."""
    doc = read("Mrs. Adelaide Voss, landlady\nSTR 45 CON 60 SIZ 55 DEX 50 APP 65 INT\n65 POW 50 EDU 70\nHP 11\n"
               "Skills: Charm 55%, Drive Auto\n45%, Spot Hidden 60%, Psychology\n50%.\n")
    assert (doc["INT"], doc["POW"], doc["EDU"]) == (65, 50, 70)
    assert doc["skills"] == {"Charm": 55, "Drive Auto": 45, "Spot Hidden": 60, "Psychology": 50}
    assert not unread(doc)


def test_lines_of_their_own_are_not_joined():
    """A list item with no level before a sentence, a heading on its own line, one skill a line, an
    empty line: each stays a line of its own (the joined line is left empty: numbers are kept)."""
    lines = ["Skills: Dodge 30%, Fist/Punch 70%, Looming menacingly", "He likes cats.", "Attacks",
             "Fighting: 45%, damage 1D3+DB", "Skills:", "Brawling-13", "Guns (Pistol)-12", "", "(a note)"]
    assert unwrapped(lines) == lines
    assert unwrapped(["Skills: Stealth-12; Climbing-", "13; Knife-11."]) == ["Skills: Stealth-12; Climbing-13; Knife-11.",
                                                                          ""]
    # a list apart by semicolons goes on where a line ends with none; a single item does not
    assert unwrapped(["Advantages: Luck [15]; Legal", "Enforcement Powers (Customs) [5]."]) == \
        ["Advantages: Luck [15]; Legal Enforcement Powers (Customs) [5].", ""]
    assert unwrapped(["Advantages: Luck [15]", "Fit [5]"]) == ["Advantages: Luck [15]", "Fit [5]"]
    assert unwrapped(["Disadvantages: Sense of Duty", "(Her crew) [-5]."]) == \
        ["Disadvantages: Sense of Duty (Her crew) [-5].", ""]


def test_attack_lines_keep_their_reach_and_a_fixed_bayonet_is_a_spear():
    """4th-edition attack lines ('Name (level): damage, Reach C,1; second attack'): the first attack's reach
    is the melee line's (it had been said unread); a reach makes the line a close-combat one (a rifle butt's
    stroke had become a rifle firing 1d+1); a bayonet fixed on its rifle is thrust with Spear, one in the hand
    with Knife (GURPS: 'Bayonet (fixed): Spear skill')."""
    doc = read("Grenadier Aldo\nST 11 DX 11 IQ 10 HT 12\nHP 12 Will 10 Per 10 Move 5 Dodge 8\n"
               "Carcano M91 6.5mm (12): 6d pi, Acc 5, Range 1,000/4,000\n"
               "Bayonet (7): 1d cut, Reach C,1; 1d imp, Reach C\n"
               "Carcano with fixed bayonet (10): 1d+3 imp, Reach 1,2*\n"
               "Rifle butt stroke (9): 1d+1 cr, Reach 1\n"
               "Skills: Guns (Rifle)-12; Spear-10; Brawling-11.\n")
    melee = {m["name"]: (m["reach"], m["skill"]) for m in doc["melee"]}
    assert melee["Bayonet"] == ("C,1", "Knife")
    assert melee["Carcano with fixed bayonet"] == ("1,2", "Spear")
    assert melee["Rifle butt stroke"][0] == "1"
    assert [w["name"] for w in doc["weapons"]] == ["Carcano M91 6.5mm"]
    assert any("Bayonet: second attack" in t or "Bayonet: 1d imp, Reach C" in t for _, t in unread(doc))


def test_numbers_in_the_notes_are_not_the_npcs_stats():
    """A bestiary's notes after the stats tell of a variant ('A scout would have ST 9 (and lower damage), DX
    13, HP' / '9, and better Stealth. Chieftains have IQ 11+ ...'): prose in the notes, not the NPC's own ST,
    DX, HP and IQ (they had replaced them: the last value read won). A line of stats there is read and said."""
    doc = read("Marsh Ghoul\nST: 12 HP: 12 Speed: 5.50\nDX: 11 Will: 10 Move: 5\nIQ: 8 Per: 11\nHT: 11 FP: 11\n"
               "Dodge: 8 Parry: 9 DR: 1\nSkills: Brawling-13; Stealth-12.\n"
               "Notes: Wears rags and bones, and smells of the fen. A scout\n"
               "would have ST 9 (and lower damage), DX 13, HP\n"
               "9, Speed 6.00, and better Stealth. Chieftains have\n"
               "IQ 11+ and higher skills, and often carry a club.\n")
    assert (doc["ST"], doc["DX"], doc["IQ"]) == (12, 11, 8)
    assert "would have ST 9" in doc["notes"] and "IQ 11+ and higher skills" in doc["notes"]
    assert not any("ST 9" in t for _, t in unread(doc))
