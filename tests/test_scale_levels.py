"""Levels one sheet states that a sheet of the same skill scale cannot write as that number
(core.scale_levels): carried with the numbers written for them, written again on the way home
while those numbers stand. Every conversion here is afresh: nothing remembered."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from xsys.conversions import api
from xsys.core import codec

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures"


def _plain(doc):
    return msgspec.to_builtins(doc, enc_hook=codec.enc_hook)


def _convert(plain: dict, to: str):
    return api.convert(api.from_plain(plain), to, fresh=True)


def test_a_6th_edition_dodge_under_7th_editions_base_comes_home_exactly():
    # the dock brute: Dodge 18 (DEX 9 x 2) is written 22 on the 7e sheet (DEX 45 / 2); Club 55
    # beside Fist/Punch 70 is 7th edition's one Fighting (Brawl) 70
    mid = api.convert(FIX / "coc" / "npcs" / "dock_brute.yaml", "coc7", fresh=True)
    doc = _plain(mid.document)
    assert doc["skills"]["Dodge"] == 22 and "Club" not in doc["skills"]
    assert doc["carried"]["coc"]["scale_levels"] == {
        "Dodge": {"level": 18, "coc7": {"Dodge": 22}},
        "Club": {"level": 55, "coc7": {"Fighting (Brawl)": 70}},
    }
    said = {x.path: x for x in mid.losses if x.rule == "core.scale_levels"}
    assert said["$.skills.Dodge"].kind == "kept-verbatim" and said["$.skills.Dodge"].level == "info"
    assert "carried at carried.coc.scale_levels.Dodge" in said["$.skills.Dodge"].message
    assert "Club 55 (coc)" in said["$.skills.Club"].message
    home = _plain(_convert(doc, "coc").document)
    assert home["skills"]["Dodge"] == 18 and home["skills"]["Club"] == 55 and home["skills"]["Fist/Punch"] == 70
    # nothing of the trip home is carried back again: the coc7 sheet writes those numbers anyway
    assert "scale_levels" not in home.get("carried", {}).get("coc7", {})


def test_an_edited_number_is_converted_not_restored():
    doc = _plain(api.convert(FIX / "coc" / "npcs" / "dock_brute.yaml", "coc7", fresh=True).document)
    doc["skills"]["Dodge"] = 40  # the Keeper trained him
    doc["skills"]["Fighting (Brawl)"] = 80
    home = _plain(_convert(doc, "coc").document)
    assert home["skills"]["Dodge"] == 40
    assert home["skills"]["Fist/Punch"] == 80 and home["skills"]["Club"] != 55


def test_a_7th_edition_brawl_under_6th_editions_base_comes_home_exactly():
    # Harvey Walters (Foundry CoC7): Fighting (Brawl) 35 is under 6th edition's Fist/Punch 50
    src = api.load(FIX / "foundry-coc7" / "harvey-walters-v11.json")
    assert src.document.system == "coc7"
    first = _plain(src.document)
    mid = api.convert(src, "coc", fresh=True)
    assert mid.document.skills["Fist/Punch"] == 50
    assert _plain(mid.document)["carried"]["coc7"]["scale_levels"]["Fighting (Brawl)"] == {
        "level": 35, "coc": {"Fist/Punch": 50}}
    home = _plain(_convert(_plain(mid.document), "coc7").document)
    assert home["skills"] == first["skills"]


def test_a_skill_the_other_edition_does_not_write_at_all_comes_home():
    # Inspector Chen (coc-zh) has Club 60 beside Fist/Punch 70 and no weapon line: 7th edition
    # writes only Fighting (Brawl) 70; the Club comes home, and no line calls it dropped
    mid = api.convert(FIX / "coc-zh" / "npcs" / "inspector_chen.yaml", "coc7", fresh=True)
    doc = _plain(mid.document)
    assert doc["carried"]["coc"]["scale_levels"]["Club"] == {"level": 60, "coc7": {}}
    assert not [x for x in mid.losses if x.path == "$.skills.Club" and x.message.endswith("dropped")]
    home = _plain(_convert(doc, "coc-zh").document)
    assert home["skills"]["Club"] == 60 and home["skills"]["Fist/Punch"] == 70


def test_an_armed_brawl_is_one_skill_home_not_a_second_fighting_skill():
    # a 7e Brawl that is also the NPC's sword-cane skill is written coc Fist/Punch and Sword;
    # home, the 7e sheet has its Brawl and no Fighting (Sword) it never had
    src = api.load(FIX / "corpus" / "foundry-coc7" / "lucius-varley-coc7-8-npc.json")
    first = _plain(api.convert(src, "coc7").document)
    mid = _plain(_convert(first, "coc").document)
    assert mid["skills"]["Sword"] == mid["skills"]["Fist/Punch"] == first["skills"]["Fighting (Brawl)"]
    entry = mid["carried"]["coc7"]["scale_levels"]["Fighting (Brawl)"]
    assert entry["also"] == ["Sword"]
    home = _plain(_convert(mid, "coc7").document)
    assert home["skills"] == first["skills"]


SEVENTH = sorted([*(FIX / "coc7" / "npcs").glob("*.yaml"), *(FIX / "foundry-coc7").glob("*.json"),
                  *(FIX / "corpus" / "foundry-coc7").glob("*.json"), *(FIX / "dholes-house").glob("*.json"),
                  *(FIX / "corpus" / "dholes-house").glob("*.json")])


@pytest.mark.parametrize("path", SEVENTH, ids=lambda p: f"{p.parent.name}/{p.name}")
@pytest.mark.parametrize("via", ["coc", "coc-zh"])
def test_every_7th_edition_sheet_keeps_every_skill_through_6th_edition(path, via):
    src = api.load(path)
    assert src.document.kind == "npc"  # every file listed is a stat block
    first = _plain(api.convert(src, "coc7").document if src.document.system != "coc7" else src.document)
    mid = _convert(first, via)
    home = _plain(_convert(_plain(mid.document), "coc7").document)
    assert home["skills"] == first["skills"]
    # characteristics too, a creature's beyond the human table included (STR 200 is a 6e STR 40), and
    # a creature's APP and EDU, none on its sheet, none home (the 6th-edition sheet's median stays there)
    chars = ("STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU")
    assert {c: home.get(c) for c in chars} == {c: first.get(c) for c in chars}


def test_a_creature_s_characteristics_beyond_the_human_table_are_its_numbers_in_both_editions():
    src = api.load(FIX / "corpus" / "foundry-coc7" / "moor-serpent-creature.json")
    conv = api.convert(src, "coc", fresh=True)
    doc = conv.document
    assert (doc.STR, doc.CON, doc.SIZ, doc.POW) == (40, 20, 50, 20)  # x 1/5, as a 6th-edition book prints them
    # values the dice never give have their place in coc's table too (its outer millionth, in order)
    assert not [x for x in conv.losses if x.path == "$.STR" and "beyond the coc table" in x.message]
    gurps = api.convert(src, "gurps", fresh=True)
    # to GURPS, whose table ends at 18: 200 is 2.17 times 7th edition's top (92), ST 39 (core.beyond; it had
    # been clamped to ST 18)
    (said,) = [x for x in gurps.losses if x.path == "$.STR" and x.message.startswith("STR 200 lies beyond")]
    assert said.kind == "assumed" and gurps.document.ST == 39
    # its attacks are made with its own Fighting skills, which the 6th-edition sheet writes as they are
    melee = {m.name: m.skill for m in doc.melee}
    assert melee == {"Bite": "Fighting (Bite)", "Tail lash": "Fighting (Tail)"}
    assert doc.skills["Fighting (Bite)"] == 55


def test_a_hand_edited_entry_is_ignored_not_an_error():
    doc = _plain(api.convert(FIX / "coc" / "npcs" / "dock_brute.yaml", "coc7", fresh=True).document)
    doc["carried"]["coc"]["scale_levels"] = {"Dodge": "eighteen", "Nonsense": {"level": 5, "coc7": {"X": 1}},
                                             "Club": {"level": 500, "coc7": {"Fighting (Brawl)": 70}}}
    conv = _convert(doc, "coc")
    assert conv.document.skills["Dodge"] == 22  # the 7e number, converted
    assert "Nonsense" not in conv.document.skills and conv.document.skills.get("Club") != 500


def test_a_carried_block_that_is_no_mapping_of_levels_is_said_and_dropped():
    doc = _plain(api.convert(FIX / "coc" / "npcs" / "dock_brute.yaml", "coc7", fresh=True).document)
    doc["carried"]["coc"]["scale_levels"] = 5
    conv = _convert(doc, "coc")
    (said,) = [x for x in conv.losses if x.path.endswith("scale_levels")]
    assert said.kind == "unsupported-field" and "dropped" in said.message
    assert conv.document.skills["Dodge"] == 22


@pytest.mark.parametrize("rel", ["corpus/ccfolia/vampireblood-6e-kanzaki.json", "coc-zh/npcs/pmc_contractor.yaml",
                                 "corpus/text-coc/ja-markdown-table.txt"])
def test_a_skill_the_6th_edition_sheet_never_stated_stays_unstated_at_home(rel):
    """A 7e sheet writes Fighting (Brawl) for what its 6th-edition source fought with (a Kick 70
    better than the punch it never stated, a knife): the source stated no Fist/Punch, and the
    trip home, afresh, states none either (the base), not Fist/Punch at the 7e Brawl. Carried
    as `scale_levels.Fist/Punch: {unstated: true, coc7: {...}}`; an edited Brawl is converted."""
    src = _plain(api.load(ROOT / "fixtures" / rel).document)
    home = src["system"]
    assert "Fist/Punch" not in src["skills"]
    seventh = _plain(_convert(src, "coc7").document)
    entry = seventh["carried"]["coc"]["scale_levels"]["Fist/Punch"]
    assert entry == {"unstated": True, "coc7": {"Fighting (Brawl)": seventh["skills"]["Fighting (Brawl)"]}}
    back = _plain(_convert(seventh, home).document)
    assert "Fist/Punch" not in back["skills"]
    assert back["skills"] == src["skills"]  # every skill as the source had it, and no other
    edited = {**seventh, "skills": {**seventh["skills"], "Fighting (Brawl)": seventh["skills"]["Fighting (Brawl)"] + 10}}
    assert "Fist/Punch" in _plain(_convert(edited, home).document)["skills"]


def test_an_ogre_s_attribute_beyond_the_gurps_table_stays_on_a_gurps_sheet():
    """A GURPS stat block's ST 25 (an ogre) lies past the population table (ordinary adults end at
    18): it was read as 18 even for a GURPS sheet written from a GURPS one. A GURPS sheet keeps it;
    other systems read its percentile as the table's end and its size as 1.39 times the table's top
    (core.beyond: CoC STR 25), said."""
    ogre = {"system": "gurps", "kind": "npc", "name": "Ogre", "ST": 25, "DX": 10, "IQ": 7, "HT": 14,
            "skills": {"Brawling": 12}}
    same = api.convert(api.from_plain(ogre), "gurps")
    assert same.document.ST == 25
    (said,) = [x for x in same.losses if x.path == "$.ST"]
    assert said.kind == "assumed" and "1.39 times the top of the table (18)" in said.message \
        and "(a gurps sheet keeps 25)" in said.message
    coc = api.convert(api.from_plain(ogre), "coc")
    assert coc.document.STR == 25 and [x for x in coc.losses if x.path == "$.ST" and x.rule == "core.beyond"]


def test_a_value_beyond_a_declared_sheets_table_stays_on_that_systems_sheet():
    """A 7th-edition creature's STR 200 and SIZ 250 (the Foundry moor serpent), and a vampire's
    Strength 7 (an nWoD supernatural being past the mortal 5): each was read as the table's end, and
    a sheet of its own system written from it had STR 99 (damage bonus +1D6 for +5D6) or was refused.
    The system's own sheet keeps the number (core.sheet: its native block's beyond_table); every other
    system reads the table's end and the number's multiple of the table's top (core.beyond), said."""
    serpent = api.load(FIX / "corpus" / "foundry-coc7" / "moor-serpent-creature.json")
    same = api.convert(serpent, "coc7").document
    assert (same.STR, same.SIZ, same.DB) == (200, 250, "+5D6")
    said = [x for x in api.convert(serpent, "gurps").losses if x.path == "$.STR"]
    assert said and "(a coc7 sheet keeps 200)" in said[0].message
    vampire = {"system": "nwod", "kind": "npc", "name": "Elder", "Strength": 7, "Dexterity": 3, "Stamina": 4,
               "skills": {"Brawl": 3}}
    assert api.convert(api.from_plain(vampire), "nwod").document.Strength == 7
    coc = api.convert(api.from_plain(vampire), "coc")
    assert coc.document.STR == 25  # 1.4 times CoC's 18
    assert [x for x in coc.losses if x.path == "$.Strength" and "its percentile is the end's, 5's" in x.message
            and "(a nwod sheet keeps 7)" in x.message]
