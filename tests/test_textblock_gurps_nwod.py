"""GURPS and nWoD stat blocks as other people print them (fan sites, sourcebooks, the 4th
edition, the World of Darkness Rulebook), and Foundry VTT mta actors as the mta system saves
them (its template.json: strengthReq, melee items, simple antagonists, derived traits saved at
the template's 0). Each test is one failure class the readers had."""

from __future__ import annotations

import json

import pytest

from xsys.conversions import api
from xsys.conversions.readreport import read_losses
from xsys.core import codec
from xsys.core.errors import InputError
from xsys.plugins.foundry_mta.reader import load as load_mta
from xsys.plugins.textblock.reader import load


def read(text: str) -> dict:
    return load(text.encode())


def report(doc: dict) -> dict:
    return doc.get("xsys", {}).get("read", {})


def unread_texts(doc: dict) -> list[str]:
    return [u["text"] for u in report(doc).get("unread", [])]


def assumed_texts(doc: dict) -> list[str]:
    return list(report(doc).get("assumed", []))


FANSITE = """Joe the Retired General
Setting: Steampunk
ST: 10 [0]; DX: 10 [0]; IQ: 12 [20]; HT: 9 [-10]
Skills: Guns (Pistol)-12 [1]; Knife-11 [1]
Gear: Webley .455 revolver (Dam 2d+, Acc 2, 1/2Dam 160, Shots 6, ST 11, Rcl -3), Large knife (1d-1 cut), outdoor clothes
"""


# ---- GURPS gear lines ----------------------------------------------------------------------

def test_a_basic_set_gear_line_is_read_as_weapons_with_what_has_no_field_said():
    doc = read(FANSITE)
    (webley,), (knife,) = doc["weapons"], doc["melee"]  # a knife is in the melee table
    assert webley == {"name": "Webley .455 revolver", "damage": "2d", "Acc": 2, "1/2D": 146, "Shots": 6, "ST": 11,
                      "skill": "Guns (Pistol)"}
    assert knife == {"name": "Large knife", "damage": "1d-1", "type": "cut", "skill": "Knife"}
    texts = unread_texts(doc)
    assert "Webley .455 revolver: Rcl -3 (no field in a gurps weapon line: not carried)" in texts
    # an English-language book's 1/2D is yards: 160 yd is 146 m, said
    assert any("1/2Dam 160 read in the book's unit, yards" in a and "146 m" in a for a in report(doc)["assumed"])
    assert any("'Dam 2d+' has a '+' with no number after it: read as 2d" in t for t in texts)
    assert "Gear: outdoor clothes" in doc["notes"]  # gear that is no weapon is kept, not dropped
    assert report(doc)["edition"].startswith("3rd edition")


@pytest.mark.parametrize("gear", [
    "Gear: Webley .455 revolver (Dam 2d, Acc 2, Shots 6, ST 11, Rcl -3)",
    "Webley .455 revolver (Dam 2d, Acc 2, Shots 6, ST 11, Rcl -3)",  # no heading at all
])
def test_a_weapons_st_is_the_weapons_never_the_npcs(gear):
    doc = read("Joe\nST: 10; DX: 10; IQ: 12; HT: 9\n" + gear + "\n")
    assert doc["ST"] == 10
    (w,) = doc["weapons"]
    assert w["ST"] == 11 and w["damage"] == "2d"


def test_close_combat_damage_as_thrust_or_swing_is_read_at_the_npcs_st():
    doc = read("Big Tam\nST 15, DX 11, IQ 9, HT 13\nSkills: Axe/Mace-13\n"
               "Weapons: Axe handle (sw+1 cr); Broadsword (2d+1 cut, 1d+2 imp)\n")
    axe, sword = doc["melee"]  # close-combat weapons: the melee table
    assert axe == {"name": "Axe handle", "damage": "2d+2", "type": "cr", "skill": "Axe/Mace"}  # swing 2d+1, +1
    assert sword == {"name": "Broadsword", "damage": "2d+1", "type": "cut", "skill": "Broadsword"}
    assert any("second attack '1d+2 imp'" in t for t in unread_texts(doc))
    assert any("sw+1 at ST 15 is 2d+2" in a for a in report(doc)["assumed"])


# ---- GURPS 4th edition ---------------------------------------------------------------------

FOURTH = """Brother Silas
ST 12 DX 11 IQ 10 HT 11; HP 12 Will 10 Per 10 FP 11; Basic Speed 5.50; Basic Move 5; Dodge 9; Parry 10 (Brawling); SM 0
Advantages: Combat Reflexes [15]
Skills: Brawling (DX/E) DX+1 [2]-12; Guns/TL8 (Pistol) (DX/E) DX+2 [4]-13
Weapons: Glock 19 (2d+2 pi, Acc 2, Range 150/1900, RoF 3, Shots 15+1(3), ST 9, Bulk -2, Rcl 2)
"""


def test_a_fourth_edition_block_is_recognised_and_read_by_the_3e_rules_with_a_warning_per_difference():
    doc = read(FOURTH)
    # 3e HP = HT (4e HP 12 came from ST 12); 3e Dodge = Move 5 + the 4e block's +1 over Basic Speed + 3
    assert (doc["ST"], doc["HT"], doc["HP"], doc["Move"], doc["Dodge"]) == (12, 11, 11, 5, 6)
    assert doc["skills"] == {"Brawling": 12, "Guns (Pistol)": 13}
    rep = report(doc)
    assert rep["edition"].startswith("4th edition (FP 11, Basic Speed 5.50")
    texts = unread_texts(doc)
    assert "HP 12: 4th-edition HP come from ST (12); 3rd-edition HP = HT: read as 11" in texts
    assert "Dodge 9: 4th-edition Dodge = Basic Speed + 3 (5 + 3 + 1); 3rd-edition Dodge = Move: read as 6" in texts
    assert any(t.startswith("FP 11 (4th-edition Fatigue Points = HT") for t in texts)
    assert any(t.startswith("Parry 10 (no Parry field") and "skill/2 + 3" in t for t in texts)
    assert [t for t in texts if t.startswith("Glock 19:")] == [
        "Glock 19: Shots 15+1(3), Bulk -2, Rcl 2 (no field in a gurps weapon line: not carried)"]
    # 4th edition's 'Range 150/1900' is 1/2D and Max in yards: metres in the 3e document
    assert (doc["weapons"][0]["1/2D"], doc["weapons"][0]["Max"]) == (137, 1737)
    assert any("Range 150/1900" in a and "137/1737 m" in a for a in rep["assumed"])
    # each difference is a warning of the loss report (not info)
    losses = read_losses(doc["xsys"], "gurps")
    assert sum(1 for x in losses if x.level == "warning" and "4th-edition" in x.message) >= 3


def test_one_fourth_edition_marker_alone_keeps_a_block_third_edition():
    doc = read("Old hand\nST 10, DX 12, IQ 11, HT 12\nHP 12, Move 6, Dodge 6, FP 12\n")
    assert (doc["HP"], doc["Dodge"]) == (12, 6)  # read as written
    assert report(doc)["edition"] == ("3rd edition (Basic Set 3e: HP = HT, Dodge = Move); one 4th-edition marker "
                                      "(FP 12) is not enough to read it as 4th")


# ---- nWoD ----------------------------------------------------------------------------------

NWOD = """Lenny the Fence
Attributes: Intelligence 3, Wits 2, Resolve 2, Strength 1, Dexterity 3, Stamina 2, Presence 2, Manipulation 3, Composure 2
Skills: Firearms 2 (Pistol), Larceny 3
Willpower 4, Health 7, Initiative 5, Defense 2, Speed 9
"""


def test_an_inline_nwod_weapon_line_is_read_and_its_dice_pool_checked():
    doc = read(NWOD + "Glock 17 (Pistol, Lt.) damage 2, ranges 20/40/80, clip 17+1, dice pool 7\n"
                      "Snub revolver (Revolver, Lt.) damage 2, ranges 20/40/80, clip 6, strength 2, dice pool 9\n")
    glock, snub = doc["weapons"]
    assert glock == {"name": "Glock 17", "type": "Pistol, Lt.", "damage": 2, "ranges": ["20 yd", "40 yd", "80 yd"],
                     "clip": 17, "chamber": True, "catalog": "glock-17"}
    assert (snub["damage"], snub["clip"], snub["strength"]) == (2, 6, 2)
    assert doc["Strength"] == 1  # the revolver's 'strength 2' is the gun's
    assert "line 5: Glock 17: stated dice pool 7 = Dexterity 3 + Firearms 2 + damage 2 (nwod.firearms.pool)" in \
        report(doc)["assumed"]
    assert ("Snub revolver: stated dice pool 9 disagrees with the rules: Dexterity 3 + Firearms 2 + damage 2 = 7 "
            "(nwod.firearms.pool); the stated pool is not carried (a power or merit the block does not show may add "
            "dice)") in unread_texts(doc)


@pytest.mark.parametrize("block, name, entry", [
    ("Enforcer\nStrength 3, Dexterity 3, Stamina 3\nWeapons: HK MP-5 (Damage 3, Ranges 50/100/200)\n", "HK MP-5", "mp5"),
    ("Crook\nST 11, DX 12, IQ 10, HT 11\nSkills: Guns (Shotgun)-13\nWeapons: Remington M870 (Guns (Shotgun), 4d, "
     "SS 12, Acc 5)\n", "Remington M870", "remington-870")])
def test_a_text_blocks_weapon_is_the_catalog_weapon_its_name_is_everywhere(block, name, entry):
    """A text block names the catalog weapon a stat block's line of that name is (Catalog.
    identify_weapon, one answer for every reader): the weapon charts' "HK MP-5" and "Remington
    M870" were no catalog weapon in a block (an MP-5 with no ranges was a club) but were one on a sheet."""
    doc = read(block)
    (w,) = doc["weapons"]
    assert (w["name"], w.get("catalog")) == (name, entry)


def test_a_weapons_attacks_table_is_read_row_by_row():
    doc = read(NWOD + "Weapons/Attacks:\nType Damage Range Dice Pool Special\nGlock 17 1 20/40/80 5 —\n"
                      "Tire chain 1 (B) — 2 —\n")
    glock, chain = doc["weapons"]
    # a 2nd-edition block (its pools below) prints 2nd-edition ratings: the 2004 chart's are one more
    # (nwod README), as a Foundry mta actor's are read
    assert (glock["name"], glock["damage"], glock["ranges"]) == ("Glock 17", 2, ["20 yd", "40 yd", "80 yd"])
    assert (chain["name"], chain["damage"], "ranges" in chain) == ("Tire chain", 2, False)
    assert "Glock 17: 2nd-edition Damage 1 is written as the 2004 chart's 2" in report(doc)["assumed"][-2]
    texts = unread_texts(doc)
    # 5 = Dexterity 3 + Firearms 2: the 2nd edition's pool (damage adds to successes there)
    assert any(t.startswith("Glock 17: stated dice pool 5 leaves the weapon's damage 1 out") and
               t.endswith("+ damage 2 (the 2004 chart's) = 7 (nwod.firearms.pool)") for t in texts), texts
    assert "Tire chain: bashing damage (B) (no field in an nwod weapon: not carried)" in texts
    assert "Chronicles of Darkness (2nd edition)" in report(doc)["edition"]
    assert doc["specialties"] == {"Firearms": ["Pistol"]} and doc["skills"]["Firearms"] == 2


@pytest.mark.parametrize("more,light_pistol", [
    ("Integrity: 6\n", 2),  # a line only the 2nd edition prints: its ratings are 2nd edition's
    ("Conditions: Shaken\n", 2),
    ("Morality: 6\n", 1),  # the 2004 rules' block: as printed
])
def test_a_second_edition_block_s_weapons_are_the_2004_chart_s_and_bare_hands_stay_0(more, light_pistol):
    doc = read(NWOD + more + "Weapons: Light Pistol (Damage 1, Ranges 20/40/80, Clip 17+1); Fists (Damage 0)\n")
    pistol, fists = doc["weapons"]
    assert (pistol["damage"], fists["damage"]) == (light_pistol, 0)


# a Virtue or Vice, said (plugins/nwod/text.py)
PERSONAL = "(a trait of the character's that changes no roll in a fight: no field for it in an nwod document)"


def test_virtue_vice_morality_and_powers_are_said_not_dropped():
    doc = read(NWOD + "Morality: 6\nVirtue: Justice\nVice: Pride\nDisciplines: Celerity 2, Vigor 1\n")
    texts = unread_texts(doc)
    for said in ("Morality 6 (no Morality field in an nwod document)", f"Virtue Justice {PERSONAL}",
                 f"Vice Pride {PERSONAL}"):
        assert said in texts
    assert sum("Celerity 2" in t or "Vigor 1" in t for t in texts) == 2


def test_a_wiki_dot_sheet_flattened_into_pipe_cells():
    """A wiki's character sheet copied as pipe-separated cells, a name's dots sometimes on the next line
    ('Dexterity |' then '●●●● | Manipulation |'), skills three to a row, a werewolf's '(A)' asset mark: read
    as the sheet says (it had been refused as no system's block, and with --from nwod left at the average
    adult's 2s, every row in its notes); a line number in the report is the file's."""
    doc = read("Name: |\nRosa Vey |\nMental | Physical | Social | ||\n"
               "Power | Intelligence | ●●● | Strength | ●● | Presence | ●● | ||\n"
               "Finesse | Wits | ●●●● | Dexterity |\n●●●● | Manipulation |\n●● | ||\n"
               "Resistance |\nResolve | ●● | Stamina | ●●● | Composure | ●●● |\n"
               "Athletics | ●● | Brawl | ●●● | Empathy | ● | ||\n"
               "Larceny (A) | ● | Firearms | ●●(Pistols) | Drive | ||\n")
    assert doc["name"] == "Rosa Vey"
    assert [doc[k] for k in ("Intelligence", "Wits", "Resolve", "Strength", "Dexterity", "Stamina", "Presence",
                             "Manipulation", "Composure")] == [3, 4, 2, 2, 4, 3, 2, 2, 3]
    assert doc["skills"] == {"Athletics": 2, "Brawl": 3, "Empathy": 1, "Larceny": 1, "Firearms": 2}
    assert doc["specialties"] == {"Firearms": ["Pistols"]}
    assert (11, "(A) (a mark after Larceny)") in [(u["line"], u["text"]) for u in report(doc)["unread"]]
    # a pipe table of anything else is left as it is (no cell of dots)
    from xsys.core.textblock import _dot_table_lines

    table = ["Joe", "| Weapon | Damage |", "| Knife | 1L |"]
    assert _dot_table_lines(table) == table


def test_a_second_edition_defense_is_read_as_the_2004_rules_give_it():
    """'Defense: 3' with Wits 3, Dexterity 2 and Athletics 1 is 2nd edition's Defense (Athletics added); read
    with the 2004 rules it is 2, said (it had crossed as a dodge a point better: GURPS Enhanced Dodge)."""
    doc = read("Sarah\nIntelligence 3, Wits 3, Resolve 2\nStrength 2, Dexterity 2, Stamina 2\n"
               "Presence 2, Manipulation 2, Composure 3\nSkills: Athletics 1, Stealth 3\nHealth: 7 Defense: 3\n")
    assert doc["Defense"] == 2
    assert any(a.startswith("Defense 3 is 2nd edition's") and a.endswith("read as 2") for a in assumed_texts(doc))
    plain = read("Sam\nIntelligence 3, Wits 3, Resolve 2\nStrength 2, Dexterity 2, Stamina 2\n"
                 "Presence 2, Manipulation 2, Composure 3\nSkills: Athletics 1, Stealth 3\nHealth: 7 Defense: 2\n")
    assert plain["Defense"] == 2 and not any("2nd edition's" in a for a in assumed_texts(plain))


def test_the_lines_after_a_vice_are_the_sheets_next_fields_not_more_vices():
    """A changeling's 'Seeming: Darkling' and a 'Vital Characteristics' heading after 'Vice: Sloth' had been
    said as 'Vice Seeming: Darkling' and 'Vice Vital Characteristics': each is said as written."""
    doc = read(NWOD + "Virtue: Temperance\nVice: Sloth\nSeeming: Darkling\nKith: Mirrorskin\n\nVital Characteristics\n")
    texts = unread_texts(doc)
    assert f"Vice Sloth {PERSONAL}" in texts and f"Virtue Temperance {PERSONAL}" in texts
    assert {"Seeming: Darkling", "Kith: Mirrorskin", "Vital Characteristics"} <= set(texts)
    assert not [t for t in texts if t.startswith("Vice ") and "Sloth" not in t]


# ---- Foundry VTT mta actors ----------------------------------------------------------------

def _actor(**over) -> dict:
    body = {"attributes_physical": {"strength": {"value": 2}, "dexterity": {"value": 3}, "stamina": {"value": 2}},
            "attributes_social": {"presence": {"value": 2}, "manipulation": {"value": 2}, "composure": {"value": 3}},
            "attributes_mental": {"intelligence": {"value": 2}, "wits": {"value": 2}, "resolve": {"value": 2}},
            "skills_physical": {"firearms": {"value": 2, "specialties": []}, "weaponry": {"value": 1}},
            "derivedTraits": {"size": {"value": 0, "mod": 0}}, "health": {"max": 7}, "willpower": {"max": 5}}
    body.update(over.pop("system", {}))
    return {"name": "A", "type": "character", "system": body, "items": [], **over}


def test_an_mta_firearms_strength_requirement_and_melee_items_are_read():
    actor = _actor(items=[
        {"name": "Shotgun", "type": "firearm", "system": {"damage": 3, "ranges": {"short": 20, "medium": 40, "long": 80},
                                                          "capacity": 5, "strengthReq": 3, "size": 2, "penetration": 1,
                                                          "initiativeMod": -3}},
        {"name": "Knife", "type": "melee", "system": {"damage": 0, "strengthReq": 1, "size": 1, "initiativeMod": -1}}])
    doc = load_mta(json.dumps(actor).encode())
    gun, knife = doc["weapons"]
    assert (gun["strength"], gun["armor_piercing"], gun["clip"]) == (3, 1, 5)
    # 2nd-edition ratings are the 2004 chart's less one: the shotgun's 3 is its 4, the knife's 0 its 1
    assert gun["damage"] == 4
    assert knife == {"name": "Knife", "damage": 1, "size": 1, "strength": 1}
    assert any("Knife: 2nd-edition Damage 0 is written as the 2004 chart's 1" in a for a in report(doc)["assumed"])
    texts = unread_texts(doc)
    assert "Shotgun: Initiative -3 (a 2nd-edition weapon trait; no field in an nwod weapon)" in texts
    assert report(doc)["reader"] == "foundry-mta actor (character), Foundry v10+ data model (system)"


@pytest.mark.parametrize("name, second, line, fourth", [
    ("Glock 17", 1, "Pistol, Lt.", 2), ("Colt M1911A1", 2, "Pistol, Hvy.", 3), ("HK MP-5", 2, "SMG, Large", 3),
    ("Remington M-700", 4, "Rifle", 5), ("Steyr-AUG", 3, "Assault Rifle", 4), ("Remington M870", 3, "Shotgun", 4)])
def test_an_mta_weapon_is_the_2004_charts_line_of_that_weapon(name, second, line, fourth):
    """The Chronicles of Darkness chart rates its example guns one lower than the 2004 chart rates
    the same guns (the Glock 17 1 and 2): an mta actor's weapon reads as the 2004 line of that
    weapon, not as a weaker one (a 2nd-edition heavy pistol's 2 was the 2004 light pistol's)."""
    actor = _actor(items=[{"name": name, "type": "firearm", "system": {"damage": second}}])
    npc = api.convert(api.from_plain(load_mta(json.dumps(actor).encode())), "nwod", trace=False).document
    (w,) = codec.to_builtins(npc)["weapons"]
    assert (w["type"], w["damage"]) == (line, fourth)


def test_an_mta_simple_antagonist_is_read_and_its_dice_pools_said():
    actor = _actor(type="simple_antagonist", items=[
        {"name": "Beat them down", "type": "combat_dice_pool", "system": {"value": 6, "damage": 1}}])
    del actor["system"]["skills_physical"]
    actor["system"]["derivedTraits"] = {"size": {"value": 0, "mod": 1}}
    doc = load_mta(json.dumps(actor).encode())
    assert doc["Size"] == 6 and doc["Dexterity"] == 3
    assert ("combat dice pool 'Beat them down': 6 dice, damage 1 (a simple antagonist's pool; an nwod document rolls "
            "Attribute + Skill)") in unread_texts(doc)
    assert any("Size 6 = 5 + the sheet's modifier +1" in a for a in report(doc)["assumed"])
    with pytest.raises(InputError):  # a character with no skills at all is still no mta actor
        load_mta(json.dumps({"name": "B", "type": "character", "system": {"attributes_physical": {}}}).encode())


def test_a_read_4e_block_converts_with_its_warnings_among_the_losses():
    loaded = api.from_plain(read(FOURTH), "x")
    conv = api.convert(loaded, "coc", trace=False)
    assert conv.document.name == "Brother Silas"
    assert any(x.level == "warning" and "a GURPS 4th-edition block" in x.message
               for x in read_losses(loaded.meta, "gurps"))


def test_a_block_laid_out_a_label_a_line_reads_its_values():
    """A blog's GURPS block with each label on its own line and the value on the next ("ST:" then
    "12"): no attribute was read and each went into the notes without a word; the label and its
    value are one item, every other line keeps its number."""
    doc = read("Bandit\n\nST:\n13\nDX:\n11\nIQ:\n9\nHT:\n12\nHP:\n13\nSM\n+0\n"
               "Skills: Broadsword-12; Brawling-11\n")
    assert doc["system"] == "gurps"
    assert (doc["ST"], doc["DX"], doc["IQ"], doc["HT"]) == (13, 11, 9, 12)
    assert doc["skills"] == {"Broadsword": 12, "Brawling": 11}
    assert "ST:" not in doc.get("notes", "")


def test_chronicles_of_darkness_traits_listed_by_category():
    """The rulebooks list an antagonist's traits by category ("Mental Attributes: ...", "Social
    Skills: ..."): the skills were three unread lines, the attribute lines each said 'not read:
    Mental Attributes:'."""
    doc = read("Clerk\nMental Attributes: Intelligence 3, Wits 2, Resolve 2\n"
               "Physical Attributes: Strength 1, Dexterity 2, Stamina 2\n"
               "Social Attributes: Presence 2, Manipulation 3, Composure 2\n"
               "Mental Skills: Academics (Law) 3, Computer 2\nPhysical Skills: Stealth 1\n"
               "Social Skills: Subterfuge 3\nHealth: 7\nWillpower: 4\n")
    assert doc["system"] == "nwod"
    assert (doc["Intelligence"], doc["Manipulation"], doc["Strength"]) == (3, 3, 1)
    assert doc["skills"] == {"Academics": 3, "Computer": 2, "Stealth": 1, "Subterfuge": 3}
    assert doc["specialties"] == {"Academics": ["Law"]}
    assert not unread_texts(doc)


def test_a_block_copied_without_its_line_breaks_is_read_heading_by_heading():
    """A Chronicles of Darkness block run together on one line (a web page copied): each heading's
    traits under it, the derived traits as stats. Every attribute, skill and merit had been said
    as a Virtue with 'no place in an nwod document', the NPC read with none of them."""
    doc = read("Mina Ortega\nVirtue: Loyal Vice: Greedy Mental Attributes: Intelligence 2, Wits 4, Resolve 3 "
               "Physical Attributes: Strength 1, Dexterity 3, Stamina 2 Social Attributes: Presence 3, "
               "Manipulation 4, Composure 2 Mental Skills: Computer (Hacking) 3, Investigation 2 Physical Skills: "
               "Larceny 3 Social Skills: Subterfuge (Lies) 4, Streetwise 2 Merits: Contacts (Fences) 2, Fast Reflexes "
               "Health: 7 Willpower: 5 Morality: 6 Size: 5 Speed: 9 Defense: 3 Initiative: 7 Armor: None\n")
    assert (doc["Wits"], doc["Resolve"], doc["Strength"], doc["Dexterity"], doc["Presence"], doc["Manipulation"]) == \
        (4, 3, 1, 3, 3, 4)
    assert doc["skills"] == {"Computer": 3, "Investigation": 2, "Larceny": 3, "Subterfuge": 4, "Streetwise": 2}
    assert doc["specialties"] == {"Computer": ["Hacking"], "Subterfuge": ["Lies"]}
    assert doc["merits"] == {"Contacts (Fences)": 2, "Fast Reflexes": 1}
    assert (doc["Health"], doc["Willpower"], doc["Speed"], doc["Initiative"]) == (7, 5, 9, 7)
    assert sorted(unread_texts(doc)) == sorted([f"Virtue Loyal {PERSONAL}",
                                                f"Vice Greedy {PERSONAL}",
                                                "Morality 6 (no Morality field in an nwod document)"])


def test_bullets_no_name_line_and_an_equipment_line_s_dr():
    """A forum's or a blog's block: a bullet before each line (read as 'not read: •'), no name line
    (the first line below the stats, a weapon line, was taken for the name), and an equipment
    line whose item states its DR in brackets (the line was taken for a stats line and lost)."""
    doc = read("• ST 12; DX 10; IQ 11; HT 12\n• Broadsword damage 1d+3 cut\n"
               "Equipment\nBlackjack (Reach C, 1d cr); Leather Jacket (DR 1, arms & torso).\n"
               "Skills: Broadsword-11; Brawling-12\n")
    assert doc["system"] == "gurps" and doc["name"] == "Unnamed NPC"
    assert (doc["ST"], doc["IQ"]) == (12, 11)
    assert [(m["name"], m["damage"]) for m in doc["melee"]] == [("Broadsword", "1d+3"), ("Blackjack", "1d")]
    assert doc["armor"] == [{"name": "Leather Jacket", "DR": 1, "locations": ["arms", "torso"]}]
    assert not any("•" in t for t in unread_texts(doc))


def test_a_character_sheet_s_lines_each_with_its_cost():
    """A character builder's sheet as text: traits and skills a line each with their costs
    ('Acrobatics - 15 [8]', 'Guns: Pistol - 22^ [12]', 'Skinny [-5]'), which were all unread; an
    advantage 'Enhanced Defenses: Dodge +1' was read as Dodge 1; 'Disadvantages: -62' became a
    disadvantage named '-62' and 'Size Modifier: -1' a skill."""
    doc = read("---\nNAME: Grik the Quick\n\nPoints Total: 150\nDisadvantages: -40\n"
               "ST: 10 [0]   HP: 10\nDX: 13 [60]  Will: 10\nIQ: 10 [0]   Per: 10\nHT: 11 [10]  FP: 11\n"
               "Size Modifier: -1\n\nCombat Reflexes [15]\nEnhanced Defenses: Dodge +1 [15]\n"
               "Greed (12) [-15]\nSkinny [-5]\n\nAcrobatics - 14 [4]\nGuns: Pistol - 16^ [8]\nStealth - 13 [2]\n")
    assert doc["name"] == "Grik the Quick"
    assert (doc["DX"], doc["HT"]) == (13, 11)
    assert doc.get("Dodge") != 1
    assert doc["skills"] == {"Acrobatics": 14, "Guns (Pistol)": 16, "Stealth": 13}
    assert doc["advantages"] == ["Combat Reflexes", "Enhanced Defenses: Dodge +1"]
    assert doc["disadvantages"] == ["Greed (12)", "Skinny"]
    assert doc["SM"] == -1  # 4th edition's Size Modifier (gurps.size), no longer a skill nor left unread
    assert not any("Size Modifier" in t for t in unread_texts(doc))
    assert any("a point total" in a for a in report(doc)["assumed"])


def test_a_gurps_sheet_s_own_knife_throwing_stays_knife_throwing():
    """'Knife Throwing-12' with no knife on the sheet came back from gurps to gurps as Throwing 12,
    without a word: both are the neutral throw, and Knife Throwing is written for a knife's line."""
    doc = {"system": "gurps", "kind": "npc", "name": "Joe", "ST": 11, "DX": 12, "IQ": 10, "HT": 11,
           "skills": {"Knife Throwing": 12, "Brawling": 15}}
    out = codec.to_builtins(api.convert(api.from_plain(doc, "joe.yaml"), "gurps", trace=False).document)
    assert out["skills"] == {"Knife Throwing": 12, "Brawling": 15}


def test_fourth_edition_attack_lines_are_melee_lines():
    """A 4th-edition book's attack lines, 'Broadsword (11): swing 2d cutting, Reach 1; or thrust
    1d crushing', were unread: the first attack is the weapon line, the rest said."""
    doc = read("Bandit\nST 12; DX 11; IQ 9; HT 12\nSkills: Broadsword-11; Knife-11\n"
               "Broadsword (11): swing 2d cutting, Reach 1; or thrust 1d crushing, Reach 1.\n"
               "Dagger (11): thrust 1d-2 impaling, Reach C.\n")
    assert [(m["name"], m["damage"], m.get("type")) for m in doc["melee"]] == [
        ("Broadsword", "2d", "cut"), ("Dagger", "1d-2", "imp")]
    assert any("or thrust 1d crushing" in t for t in unread_texts(doc))
    # a thrown attack line (its Acc, and its ranges in yards at the thrower's ST) is a ranged weapon
    thrown = read("Bandit\nST 12; DX 11; IQ 9; HT 12\nSkills: Knife Throwing-11\n"
                  "Dagger throw (11): thrust 1d-2 impaling, Acc 0, x0.5/x1 (6/12).\n")
    assert thrown["weapons"] == [{"name": "Dagger throw", "damage": "1d-2", "type": "imp", "Acc": 0, "1/2D": 5,
                                  "Max": 11, "skill": "Knife Throwing"}]  # thrown with its own skill
    assert not unread_texts(thrown)


def test_a_fourth_edition_traits_line_sorts_its_disadvantages_by_their_self_control_number():
    """'Traits: Bully (12); Callous; Combat Reflexes' was kept as three advantages: a trait with a
    self-control number (6, 9, 12 or 15), a negative cost or a Basic Set disadvantage's name (Callous)
    is a disadvantage."""
    doc = read("Thug\nST 12; DX 11; IQ 9; HT 12\nTraits: Bully (12); Callous; Combat Reflexes; Bad Temper (9) [-10].\n"
               "Skills: Brawling-12\n")
    assert doc["advantages"] == ["Combat Reflexes"]
    assert doc["disadvantages"] == ["Bully (12)", "Callous", "Bad Temper (9)"]


def test_a_fourth_edition_sheet_s_social_traits_are_notes():
    """'Languages: Lowland (Native), Trade Tongue (Accented) [4]', 'Wealth: Average', 'Status: 1',
    'Cultural Familiarity: Lowland' (no combat statistic, no 3rd-edition field) had each been said
    unread, piece by piece; they are the notes, as written, said once each. A trait line after them,
    still under the last such heading, is read as a trait."""
    doc = read("Brakka the Fence\nST: 10 [0] DX: 12 [40]\nIQ: 12 [40] HT: 11 [10]\n"
               "Languages: Lowland (Native), Trade Tongue (Accented) [4]\nWealth: Average\nStatus: 1\n"
               "Cultural Familiarity: Lowland\nCombat Reflexes [15]\nGuns (Pistol) - 14 [4]\n")
    assert doc["notes"].splitlines()[-4:] == [
        "Languages: Lowland (Native), Trade Tongue (Accented) [4]", "Wealth: Average", "Status: 1",
        "Cultural Familiarity: Lowland"]
    assert doc["advantages"] == ["Combat Reflexes"] and doc["skills"] == {"Guns (Pistol)": 14}
    said = doc["xsys"]["read"]
    assert not [u for u in said.get("unread", []) if u["line"] in (4, 5, 6, 7)]
    assert sum("kept in the notes (a social trait" in a for a in said["assumed"]) == 4


def test_attributes_listed_by_category_with_list_marks():
    """'- Physical: Strength 2, Dexterity 3, Stamina 3' (a list of the attributes by category, as a
    Markdown page prints it): the attributes are read and the mark and category are no value (they
    had been said unread); an attribute nWoD has not (an older game's Charisma) is still said."""
    doc = read("Archivist\nAttributes:\n- Mental: Intelligence 4, Wits 3, Resolve 4\n"
               "- Physical: Strength 2, Dexterity 3, Stamina 3\n- Social: Charisma 2, Manipulation 4, Composure 3\n")
    assert (doc["Intelligence"], doc["Strength"], doc["Composure"]) == (4, 2, 3)
    unread = [u["text"] for u in doc["xsys"]["read"].get("unread", [])]
    assert unread == ["Social: Charisma 2, Manipulation 4, Composure 3 (not read: Charisma 2)"]


def test_skills_one_a_line_with_no_heading_and_merit_dots_as_stars():
    """A blog's conversion lists every skill on a line of its own ('Academics: 3 (Psychoanalysis),
    (Psychology)', 'Computer: 0') under no Skills heading, and merits with their dots as stars in
    brackets ('Resources (***)'); the skills had all been said unread, the merit read as 1."""
    doc = read("Dr. Test\nIntelligence: 3        Strength: 2         Presence: 3\n"
               "Wits: 2                Dexterity: 2        Manipulation: 2\n"
               "Resolve: 3             Stamina: 2          Composure: 3\n\n"
               "Academics: 3 (Psychoanalysis), (Psychology)\nComputer: 0\nMedicine: 3 (Pharmacy)\n"
               "Firearms: 1\nSocialise: 2\n\nWillpower: 6\nHealth: 7\n\nMerits\nResources (***)\n"
               "Status (Police) (**)\n")
    assert doc["skills"] == {"Academics": 3, "Medicine": 3, "Firearms": 1, "Socialize": 2}
    assert doc["specialties"] == {"Academics": ["Psychoanalysis", "Psychology"], "Medicine": ["Pharmacy"]}
    assert doc["merits"] == {"Resources": 3, "Status (Police)": 2}
    assert not unread_texts(doc)


def test_a_gurps_stats_line_runs_on_into_its_skills_and_weapons():
    """'ST 12, DX 13, IQ 10, HT 11. Speed 6; Move 6. Skills: Brawling-14. Weapons: Colt .45: Dmg 2d+1
    cr, SS 10.' (a sourcebook box run together): the stats, then each section run on after them;
    the whole line had been one weapon line of no damage, every stat and skill unread. 'Dmg' is
    the damage's label as much as 'Dam'."""
    doc = read("Frank Dolan\nST 12, DX 13, IQ 10, HT 11. Speed 6; Move 6. Skills: Brawling-14, Knife-12. "
               "Weapons: Colt .45: Dmg 2d+1 cr, SS 10, Acc 2, Shots 7.\n")
    assert (doc["ST"], doc["DX"], doc["HT"]) == (12, 13, 11)  # not the Colt's ST, not its 10
    assert doc["skills"] == {"Brawling": 14, "Knife": 12}
    (colt,) = doc["weapons"]
    assert (colt["name"], colt["damage"], colt["SS"], colt["Acc"], colt["Shots"]) == ("Colt .45", "2d+1", 10, 2, 7)


def test_a_pdfs_minus_sign_and_an_advantages_and_disadvantages_heading():
    """Steve Jackson Games' PDFs print 'Brawling−14' with a minus sign (U+2212): a skill level, as
    with a hyphen (every skill had been unread). A forum post's 'Advantages & Disadvantages' heading
    holds both kinds of trait, told apart as under 'Traits:' (a self-control number says a
    disadvantage); they had been dropped."""
    doc = read("Vera\nST 10 DX 13 IQ 11 HT 10\nAdvantages & Disadvantages\nCombat Reflexes; Bad Temper (12)\n"
               "Skills: Brawling\u221214; Guns/TL8 (Pistol)\u221215\n")
    assert doc["skills"] == {"Brawling": 14, "Guns (Pistol)": 15}
    assert doc["advantages"] == ["Combat Reflexes"] and doc["disadvantages"] == ["Bad Temper (12)"]


def test_an_mta_items_bonuses_and_armor_not_worn_are_said():
    """A firearm's dice bonus and its traits ('9-again'), an Initiative modifier saved as text
    ('-2'), an armor's Defense modifier: said (they had gone without a word). An armor not worn
    (equipped: false, the spare vest in the van) is not written as his armor; it had been, beside
    the flak jacket he wears."""
    actor = _actor(items=[
        {"name": "Remington 870", "type": "firearm", "system": {"damage": 3, "ranges": {"short": 20, "medium": 40,
                                                                                        "long": 80},
                                                                "capacity": 5, "diceBonus": 1, "traits": ["9-again"]}},
        {"name": "Sword cane", "type": "melee", "system": {"damage": "2", "initiativeMod": "-2"}},
        {"name": "Flak jacket", "type": "armor", "system": {"rating": 2, "ballistic": 4, "defenseMod": -1,
                                                            "equipped": True}},
        {"name": "Kevlar vest (spare)", "type": "armor", "system": {"rating": 1, "ballistic": 3, "equipped": False}}])
    doc = load_mta(json.dumps(actor).encode())
    texts = unread_texts(doc)
    for said in ("Remington 870: +1 dice (equipment bonus; no field in an nwod weapon)",
                 "Remington 870: 9-again (no field in an nwod weapon)",
                 "Sword cane: Initiative -2 (a 2nd-edition weapon trait; no field in an nwod weapon)",
                 "armor 'Flak jacket': Defense -1 (no field in an nwod armor line)",
                 "armor 'Kevlar vest (spare)' 1/3: not worn (equipped: false); not written"):
        assert said in texts
    assert [a["name"] for a in doc["armor"]] == ["Flak jacket"]


def test_a_sourcebook_box_printed_as_one_paragraph():
    """A 3rd-edition sourcebook's NPC as one paragraph: a description, the stats, then Advantages,
    Skills, Weapons and Armor run on in sentences. Each is read under its heading: the weapons apart
    at each name's colon (the Colt had taken the Thompson's SS, Acc and Shots), no weapon's 'ST 11'
    read as the NPC's ST, a skill with the weapon it is used with in brackets read and that said."""
    doc = read("Mae Kowalski, bootlegger\nAge 29; red hair. ST 11, DX 12, IQ 11, HT 10. Speed 5.5; Move 5. Dodge 5. "
               "Advantages: Alertness +1. Disadvantages: Greed. Skills: Driving (Car)-12, Guns (Pistol)-13 (her "
               "Colt), Knife-11. Weapons: Colt .38: Dmg 2d-1 cr, SS 10, Acc 2, Shots 6, ST 9. Winchester M1912: "
               "Dmg 4d cr, SS 12, Acc 5, Shots 6, ST 11. Armor: Heavy coat (PD 1, DR 1).\n")
    assert (doc["ST"], doc["DX"], doc["IQ"], doc["HT"], doc["Move"], doc["Dodge"]) == (11, 12, 11, 10, 5, 5)
    assert doc["skills"] == {"Driving": 12, "Guns (Pistol)": 13, "Knife": 11}
    assert [(w["name"], w["SS"], w["Acc"], w["Shots"], w["ST"]) for w in doc["weapons"]] == [
        ("Colt .38", 10, 2, 6, 9), ("Winchester M1912", 12, 5, 6, 11)]
    assert doc["advantages"] == ["Alertness +1"] and doc["disadvantages"] == ["Greed"]
    assert [(a["name"], a["PD"], a["DR"]) for a in doc["armor"]] == [("Heavy coat", 1, 1)]
    assert any("Guns (Pistol)-13: used with her Colt" in a for a in report(doc)["assumed"])


def test_chronicles_of_darkness_attacks_as_its_books_print_them():
    """'Weapons/Attacks: Knife 1L, 7 dice; 9mm pistol 1L, 6 dice': each attack with its 2nd-edition
    damage (the 2004 chart's, one higher, written) and its pool checked (each had been unread, the
    coc7 sheet left with no weapon). 'Conditions: none' is no power or trait."""
    doc = read("Nina, knife for hire\nAttributes: Intelligence 2, Wits 3, Resolve 2, Strength 3, Dexterity 4, Stamina 2, "
               "Presence 2, Manipulation 3, Composure 3\nSkills: Brawl 2, Firearms 2, Weaponry 3 (Knives)\n"
               "Willpower: 5\nWeapons/Attacks: Knife 1L, 7 dice; 9mm pistol 1L, 6 dice\nConditions: none\n")
    assert [(w["name"], w["damage"]) for w in doc["weapons"]] == [("Knife", 2), ("9mm pistol", 2)]
    texts = unread_texts(doc)
    assert not any(t.startswith("Knife") or "power or trait none" in t for t in texts)
    assert any(t.startswith("9mm pistol: stated dice pool 6 leaves the weapon's damage 1 out") for t in texts)


def test_a_bestiary_grid_of_paired_stats_ranges_and_natural_armor():
    """A 3rd-edition bestiary's grid: 'Move/Dodge: 8/6' and 'PD/DR: 1/2' are two stats each (Dodge had
    been 8, Move unread, PD/DR unread); 'ST: 15-18' and 'HT: 13/18-22' give the low end of the
    creature's range, said; PD and DR with no armor line are its own armor; a sentence that names
    its swimming Move 10 is prose, not the block's Move."""
    doc = read("MARSH STALKER\nST: 15-18      Move/Dodge: 8/6\nDX: 13         PD/DR: 1/2\nIQ: 4\n"
               "HT: 13/18-22\n\nA long-bodied predator of the fens that swims at Move 10 and can stay under for "
               "up to a quarter of an hour.\n")
    assert (doc["ST"], doc["HT"], doc["HP"], doc["Move"], doc["Dodge"]) == (15, 13, 18, 8, 6)
    (hide,) = doc["armor"]
    assert (hide["PD"], hide["DR"], len(hide["locations"])) == (1, 2, 10)
    said = report(doc)["assumed"]
    assert any("ST 15-18: a range of the kind, read as its low end, 15" in a for a in said)
    assert any("HP 18-22: a range of the kind, read as its low end, 18" in a for a in said)


def test_a_japanese_sheets_weapons_heading_holds_no_skills():
    """'―武器―' over a Japanese GURPS sheet's weapon lines: its lines are weapons (read, or said
    unread), not skills; they had become skills named 'コルト・ガバメント ダメージ:叩き2D+ ...', kept with
    an info line only and carried to every system. 早抜き is Fast-Draw."""
    doc = read("◆NPCデータ 組員\n\n20/体力:12\n45/敏捷力:14\n0/知力:10\n10/生命力:11\n基本移動力:6.25 移動力:6\n\n"
               "―技能―\n2/格闘15\n4/拳銃16\n1/早抜き/拳銃14\n\n―武器―\n"
               "コルト・ガバメント ダメージ:叩き2D+ SS:10 命中:2 装弾数:7\n")
    assert not any("ダメージ" in k for k in doc["skills"])
    assert doc["skills"].get("Brawling") == 15 and any(k.startswith("Fast-Draw") for k in doc["skills"])
    assert any("コルト・ガバメント" in t for t in unread_texts(doc)) or doc.get("weapons")


def test_a_forum_posts_dotted_attribute_rows_and_weapon_lines():
    """'Str ••••  Dex ••  Sta ••••' (abbreviations with dots, three a row) are attributes (the rows had
    been unread since middle dots became separators; Strength 4 had been the default 2); a forum's
    'Sawed-off: 4L, 20/40/80, clip 2, 7 dice' is one weapon, a shotgun by its name; 'Molotov cocktail
    (thrown): 2L, range 10/20/40, 7 dice' is thrown, its pool Dexterity + Athletics."""
    doc = read("Brother Caddock\nInt •  Wits ••  Res •••\nStr ••••  Dex ••  Sta ••••\nPre ••  Man •  Com ••\n"
               "Skills: Athletics •• (Throwing), Firearms •, Weaponry •••\nWeapons:\n"
               "- Sawed-off: 4L, 20/40/80, clip 2, 7 dice\n- Molotov cocktail (thrown): 2L, range 10/20/40, 7 dice\n")
    assert (doc["Strength"], doc["Stamina"], doc["Resolve"], doc["Manipulation"]) == (4, 4, 3, 1)
    sawn, molotov = doc["weapons"]
    assert (sawn["name"], sawn["clip"], len(sawn["ranges"])) == ("Sawed-off", 2, 3)
    assert molotov["name"] == "Molotov cocktail (thrown)" and len(molotov["ranges"]) == 3
    assert not any("dice" in t or "clip" in t for t in unread_texts(doc))
    assert any("Molotov cocktail (thrown): stated dice pool 7 = Dexterity 2 + Athletics 2" in a
               for a in report(doc)["assumed"])


def test_a_forum_posts_subject_and_opening_sentence_are_no_name():
    """A forum post's 'Re: Modern goons ...' subject and its 'Here's the driver I used last session,
    feel free to steal him.' are no name: the name is the line after them; an item of the gear line
    with its DR and a remark after it ('Leather Jacket (DR 1, arms & torso). No encumbrance.') is
    armor (it had been kept in the notes only)."""
    doc = read("Re: Modern goons for a monster hunt\n\nHere's the driver I used last session, feel free to steal him.\n\n"
               "Nico Ferrante\nST 10 DX 13 IQ 11 HT 11\nSkills: Driving (Car)-15\n"
               "Equipment: Leather Jacket (DR 1, arms & torso). No encumbrance.\n")
    assert doc["name"] == "Nico Ferrante"
    assert [(a["name"], a["DR"], a["locations"]) for a in doc["armor"]] == [("Leather Jacket", 1, ["arms", "torso"])]


def test_a_forum_posts_health_boxes_abbreviations_and_no_armor_remark():
    """'Health ○○○○○○○○○○ (10)   Size 6   Speed 11   Def 2   Init 4': Health by its count, Def and
    Init as Defense and Initiative (all had been unread); 'Armor: none (just a grimy raincoat)' is no
    armor and a note, not an unread line."""
    doc = read("Caddock\nStr ••••  Dex ••  Sta ••••\nHealth ○○○○○○○○○○ (10)   Size 6   Speed 11   Def 2   Init 4\n"
               "Armor: none (just a grimy raincoat)\n")
    assert (doc["Health"], doc["Size"], doc["Speed"], doc["Defense"], doc["Initiative"]) == (10, 6, 11, 2, 4)
    assert not doc.get("armor") and "Armor: none (just a grimy raincoat)" in doc["notes"]
    assert unread_texts(doc) == []


def test_an_mta_actors_own_template_fields_are_said_and_other_templates_defaults_not():
    """A werewolf's essence, auspice and tribe, a changeling's seeming, glamour and dream attributes
    (template.json Actor.templates) had gone without a word; they are said for the actor's own
    template only (every character actor holds every template's fields, a mortal's glamour 10 at its
    default is no changeling's)."""
    wolf = _actor(system={"characterType": "Werewolf", "auspice": "Rahu", "tribe": "Blood Talons",
                                                    "essence": {"value": 8, "max": 12}, "glamour": {"value": 10, "max": 10}})
    texts = unread_texts(load_mta(json.dumps(wolf).encode()))
    assert "Werewolf: Auspice Rahu, Tribe Blood Talons, Essence 8/12 (a supernatural template: no place in an nwod " \
           "document)" in texts
    assert not any("Glamour" in t for t in texts)
    mortal = _actor(system={"characterType": "Mortal", "glamour": {"value": 10, "max": 10}, "essence": {"value": 0, "max": 10}})
    assert not any("template" in t for t in unread_texts(load_mta(json.dumps(mortal).encode())))


def test_a_gurps_skills_tech_level_is_said_left_out():
    """'Guns/TL7 (Rifle)-17': the skill, its /TL7 left out and said once (it had gone without a word)."""
    doc = read("Jenna\nST 11 DX 14 IQ 11 HT 12\nSkills: First Aid/TL7-11; Guns/TL7 (Rifle)-17\n")
    assert doc["skills"] == {"First Aid": 11, "Guns (Rifle)": 17}
    assert sum("tech level ('/TL7') left out" in a for a in report(doc)["assumed"]) == 1


# a blog's 4th-edition bandit, each stat's value on the line under its label, and its DR said
# to be on one location only (my own figures, in that shape)
FOURTH_DR_ON = """Dockside fence

Typical Stats
ST:
10
HP:
10
DX:
12
IQ:
11
HT:
11
FP:
11
Dodge:
9
DR:
2* on torso (1 vs crushing)
Knife stab (12): thrust 1d-1 impaling, Reach C.
Knife throw (13): thrust 1d-1 impaling, Acc 0, x0.5/x1 (5/10).
Skills: Brawling-12; Fast-Talk-13; Knife-12; Stealth-12; Thrown Weapon (Knife)-13.
Gear: Leather jacket (torso).
"""


def test_a_dr_among_the_stats_on_the_torso_covers_the_torso_alone():
    """'DR: 2* on torso (1 vs crushing)' had been read as armor all over (the fence armored head to
    foot); the DR is on the torso, as the line says, and only what is left is said as unread."""
    doc = read(FOURTH_DR_ON)
    assert doc["armor"] == [{"name": "Armor", "DR": 2, "locations": ["torso"]}]
    assert any(t.startswith("DR: 2* on torso (1 vs crushing) (not read: *") and "on torso" not in t.split("not read")[1]
               for t in unread_texts(doc))
    assert any("on the torso as the line says" in a for a in report(doc).get("assumed", []))
    # a DR among the stats that says nowhere is the NPC's own armor, all over, as before
    bare = read(FOURTH_DR_ON.replace("2* on torso (1 vs crushing)", "2"))
    assert bare["armor"][0]["locations"] == ["head", "face", "neck", "torso", "vitals", "groin", "arms", "hands",
                                             "legs", "feet"]


def test_a_fourth_edition_thrown_weapon_skill_is_the_third_edition_s_own():
    """The 4th edition's Thrown Weapon (Knife) is the 3rd edition's Knife Throwing (the neutral
    throw), said; it had been a skill no system knew, carried as it was."""
    doc = read(FOURTH_DR_ON)
    assert doc["skills"]["Knife Throwing"] == 13 and "Thrown Weapon (Knife)" not in doc["skills"]
    assert any("Thrown Weapon (Knife)-13 is the 3rd edition's Knife Throwing" in a for a in report(doc)["assumed"])


def test_a_fourth_edition_thrown_blade_is_a_thrown_weapon_not_a_knife_in_hand():
    """'Knife throw (13): thrust 1d-1 impaling, Acc 0, x0.5/x1 (5/10)': a blade with an Acc and a
    thrown range is thrown with Knife Throwing (it had crossed as a second knife in hand, fought
    with Knife); the stab beside it stays a melee line."""
    doc = read(FOURTH_DR_ON)
    (thrown,) = [w for w in doc["weapons"] if w["name"] == "Knife throw"]
    assert thrown["skill"] == "Knife Throwing" and thrown["Acc"] == 0 and thrown["Max"] == 9  # 10 yd
    assert [m["skill"] for m in doc["melee"] if m["name"] == "Knife stab"] == ["Knife"]
    assert any("Knife throw: ranged stats on a Knife weapon: thrown, with Knife Throwing" in a
               for a in report(doc)["assumed"])
    coc7 = codec.to_builtins(api.convert(api.from_plain(doc), "coc7").document)
    assert [w["skill"] for w in coc7["weapons"] if w["name"] == "Knife throw"] == ["Throw"]


def test_a_fourth_edition_line_of_attack_modes_is_a_melee_line_and_a_thrown_line():
    """'Large Knife (Reach C, 1d-1 imp / Reach C,1, 1d-1 cut / Acc 0, Range 8/16, 1d-1 imp)': a 4th-edition
    weapon's modes, close combat and thrown. Only the thrown mode had been read (the knife fighter had no
    melee line, and his Knife-14 no Fighting skill in 7th edition); its first close-combat mode is the
    melee line, fought with Knife, its first ranged mode the thrown line, and the other modes are said."""
    doc = read("Cutpurse\nST 11; DX 12; IQ 10; HT 10.\nSkills: Knife 14; Thrown Weapon (Knife) 12.\n"
               "Equipment: Long Knife (Reach C, 1d-1 imp / Reach C,1, 1d-1 cut / Acc 0, Range 8/16, 1d-1 imp).\n")
    assert [(m["name"], m["skill"], m["damage"], m["type"]) for m in doc["melee"]] == \
        [("Long Knife", "Knife", "1d-1", "imp")]
    (thrown,) = doc["weapons"]
    assert (thrown["name"], thrown["skill"], thrown["damage"]) == ("Long Knife", "Knife Throwing", "1d-1")
    assert any("another attack mode 'Reach C,1, 1d-1 cut'" in t for t in unread_texts(doc))
    coc7 = codec.to_builtins(api.convert(api.from_plain(doc), "coc7", fresh=True).document)
    assert [m["skill"] for m in coc7["melee"]] == ["Fighting (Brawl)"] and coc7["skills"]["Fighting (Brawl)"] == 65


def test_a_knife_fighter_with_no_melee_line_fights_with_brawl_in_seventh_edition():
    """A GURPS NPC whose close combat is Knife-14 and who has no weapon line: 7th edition rolls a
    knife with Fighting (Brawl), so his 65 is written there, said (it had not been written at all)."""
    npc = {"system": "gurps", "kind": "npc", "name": "Knifer", "ST": 11, "DX": 12, "IQ": 10, "HT": 10,
           "skills": {"Knife": 14}}
    conv = api.convert(api.from_plain(npc), "coc7", fresh=True)
    assert codec.to_builtins(conv.document)["skills"]["Fighting (Brawl)"] == 65
    assert any("written Fighting (Brawl) 65 (its brawl was not stated)" in x.message for x in conv.losses)


def test_a_wiki_sheet_s_dots_and_boxes_are_read_as_the_dots_filled():
    """A wiki's character sheet prints every trait as five boxes, filled then empty ('Dex ●●●○○'), and
    Health and Willpower as tracks of ten in two fives ('Health ●●●●● . ●●○○○' is 7), with the Health
    track's damage row of empty boxes below. Health and Willpower had been read as 5 (the rest said
    unread), and every skill with empty boxes or a specialty written after its name ('Academics
    religion ●●○○○'), or a mark before it ('2 Stealth ●●●○○'), had been lost."""
    doc = read("Shen Wu\nPre ●○○○○\nMan ●●○○○\nCom ●●●●○\nStr ●○○○○\nDex ●●●○○\nSta ●●○○○\n"
               "Int ●●●○○\nWit ●●●○○\nRes ●●○○○\n\nHealth ●●●●● . ●●○○○\n○○○○○ . ○○○○○\n"
               "Willpower ●●●●● . ●○○○○\nMental skills\nAcademics religion ●●○○○\nCrafts ○○○○○\n"
               "1 Occult rituals ●●●●●\nPhysical skills\nBrawl ○○○○○\n2 Stealth ●●●○○\nSurvival ●○○○○\n")
    assert (doc["Dexterity"], doc["Composure"], doc["Strength"], doc["Health"], doc["Willpower"]) == (3, 4, 1, 7, 6)
    assert doc["skills"] == {"Academics": 2, "Occult": 5, "Stealth": 3, "Survival": 1}
    assert doc["specialties"] == {"Academics": ["religion"], "Occult": ["rituals"]}
    said = unread_texts(doc)
    assert "1 (a mark before Occult)" in said and "2 (a mark before Stealth)" in said
    assert not [t for t in said if "○" in t or "Health" in t or "Willpower" in t], said


def test_a_quick_block_s_weapon_at_its_level_is_its_skill_and_a_blocking_shield_is_said():
    """A quick 4th-edition thug: 'Thrusting Broadsword-11' is the weapon at its level, so Broadsword-11
    (it had been a skill no system knew, and 7th edition wrote his sword skill at the untrained
    level); 'Block 10 (Small Shield)': the shield is said (it had gone without a word)."""
    doc = read("Hired Blade\nST 13; DX 9; IQ 9; HT 9\nThrusting Broadsword damage 2d cut\nParry 9; Block 10 (Small Shield)\n"
               "Thrusting Broadsword-11\n")
    assert doc["skills"] == {"Broadsword": 11} and doc["melee"][0]["skill"] == "Broadsword"
    assert any("Thrusting Broadsword-11 is a weapon at its level: Broadsword-11" in a for a in report(doc)["assumed"])
    assert any(t.startswith("Small Shield (the shield of Block 10") for t in unread_texts(doc))
    coc7 = codec.to_builtins(api.convert(api.from_plain(doc), "coc7", fresh=True).document)
    assert coc7["skills"]["Fighting (Sword)"] > 20


def test_a_text_block_that_says_too_little_is_read_as_the_from_system(tmp_path, capsys):
    """'--from KEY' names the system of files that do not say: a text block with no system line and
    too few of any system's stats to tell (a sheet pasted from a web page's table) had been refused
    whatever --from said; it is read as that system's, and the refusal names --from."""
    from helpers import run_main

    block = tmp_path / "pasted.txt"
    block.write_text("Oscar Haar\nStrength 3\nSkills: Brawl 2, Stealth 3\n", encoding="utf-8")
    code, _, err = run_main(capsys, "convert", str(block), "--to", "nwod", "-o", str(tmp_path / "no.yaml"))
    assert code == 2 and "or --from KEY" in err and not (tmp_path / "no.yaml").exists()
    out = tmp_path / "oscar.yaml"
    code, _, err = run_main(capsys, "convert", str(block), "--from", "nwod", "--to", "nwod", "-o", str(out))
    assert code == 0, err
    doc = api.load(out)
    plain = codec.to_builtins(doc.document)
    assert (plain["Strength"], plain["skills"]) == (3, {"Brawl": 2, "Stealth": 3})
    # a block whose stats tell its system is read as they tell, whatever --from says (a 6th-edition block
    # with --from coc7 is not read as 7th edition, STR 12 as a 7th-edition 12)
    six = tmp_path / "six.txt"
    six.write_text("Old Tom, age 60\nSTR 12 CON 11 SIZ 13 DEX 10 APP 9 INT 14 POW 12 EDU 16 HP 12\n", encoding="utf-8")
    for key in ("coc7", "gurps"):
        code, _, err = run_main(capsys, "convert", str(six), "--from", key, "--to", "coc", "-o", str(tmp_path / "six.yaml"))
        assert code == 0, err
        read_back = api.load(tmp_path / "six.yaml")
        assert codec.to_builtins(read_back.document)["STR"] == 12 and read_back.meta["converted_from"] == "coc"


def test_a_quick_bulleted_fourth_edition_block_its_weapons_at_their_levels_and_its_armor_where_worn():
    """A blog's bulleted 4th-edition cultist: 'Long Knife 15 – Thrust 1d-1 imp, Swing 1d+1 cut, Parry 10'
    and 'Throwing Knife 12 – Range 8/16, 1d-2 imp' (each had been unread) are Knife-15 with its melee line
    and Knife Throwing-12 with its thrown line; 'Cloth Armor DR 1 on Face and Torso. DR 3 Skull' is DR 1
    on the face and torso (it had been DR 3 there), the skull's DR said; Dodge 8 at DX 12, HT 11 is the
    4th edition's (DX + HT) / 4 + 3, which with the Range tells the edition."""
    doc = read("Temple Lookout\n  • ST 11 DX 12 IQ 10 HT 11 HP 11\n  • Dodge 8\n"
               "  • Long Knife 15 – Thrust 1d-1 imp, Swing 1d+1 cut, Parry 10\n"
               "  • Throwing Knife 12 – Range 8/16, 1d-2 imp\n  • Cloth Armor DR 1 on Face and Torso. DR 3 Skull\n")
    assert doc["skills"] == {"Knife": 15, "Knife Throwing": 12}
    assert [(m["name"], m["damage"], m["skill"]) for m in doc["melee"]] == [("Long Knife", "1d-1", "Knife")]
    assert [(w["name"], w["skill"]) for w in doc["weapons"]] == [("Throwing Knife", "Knife Throwing")]
    assert [(a["name"], a["DR"], a["locations"]) for a in doc["armor"]] == [("Cloth Armor", 1, ["face", "torso"])]
    said = unread_texts(doc)
    assert any(t.startswith("DR 3 Skull (a DR of its own") for t in said)
    assert any("Dodge 8 with (DX 12 + HT 11) / 4 = 5: Basic Speed + 3" in t for t in said)
    assert doc["Dodge"] == 5  # read by the 3rd edition's rule, Dodge = Move, said


def test_a_sheets_skills_wrapped_with_their_relative_levels_are_skills_not_attributes():
    """A character-sheet export's skills wrap onto the next lines ('Swimming HT+0 [1]-10; Jumping DX+0
    [1]-14;'): they are skills; their 'DX+0' had been read as DX 0 and the block refused. Its
    'Secondary Characteristics: Dmg 1d-1/1d+2; BL 29 lb; HP 12 [0]' is stats, not a weapon."""
    doc = read("Name: Archer Joan (150)\nAttributes: ST 12 [20]; DX 14 [80]; IQ 10 [0]; HT 10 [0]\n"
               "Secondary Characteristics: Dmg 1d-1/1d+2; BL 29 lb; HP 12 [0]; Will 10 [0];\n"
               "Skills: Climbing DX-1 [1]-13; Bow DX+1 [4]-15;\nSwimming HT+0 [1]-10; Jumping DX+0 [1]-14; "
               "Geography/TL3 (Regional) IQ-1 [2]-9;\n")
    assert (doc["ST"], doc["DX"]) == (12, 14)
    assert {k: doc["skills"][k] for k in ("Climbing", "Bow", "Swimming", "Jumping")} == \
        {"Climbing": 13, "Bow": 15, "Swimming": 10, "Jumping": 14}
    assert not doc.get("weapons") and not [t for t in unread_texts(doc) if "damage dice" in t]


def test_a_creatures_lifting_st_its_natural_attacks_and_its_skills_with_no_heading():
    """A 4th-edition creature: 'Lifting ST +4' among its traits had made its ST 4 (it is 18); 'Peck (11):
    2d-2 pi+ at Reach C, 1.' had been a handgun and 'Scratch (11)' an Axe/Mace line: both are natural
    attacks, fought with Brawling; 'Brawling-11; Survival (Jungle)-10.' on a line of its own had been unread."""
    doc = read("Dire Hen\n\nST: 18\n\nDX: 10\n\nIQ: 3\n\nHT: 10\n\nDodge: 8\n\n"
               "  • Peck (11): 2d-2 pi+ at Reach C, 1.\n\n  • Scratch (11): 1d+1 cut at Reach C, 1.\n\n"
               "Bestial; Feathers; Lifting ST +4; Sharp Beak\n\nBrawling-11; Survival (Jungle)-10.\n")
    assert doc["ST"] == 18
    assert [(m["name"], m["skill"]) for m in doc["melee"]] == [("Peck", "Brawling"), ("Scratch", "Brawling")]
    assert not doc.get("weapons")
    assert doc["skills"]["Brawling"] == 11
    assert any(t.startswith("Lifting ST +4 (a 4th-edition advantage") for t in unread_texts(doc))


def test_a_fourth_edition_parry_with_a_shields_bonus_is_a_marker():
    """'Parry 9; Block 10 (Small Shield)' beside Broadsword-11 is 4th edition's Parry (11/2 + 3, + the small
    shield's DB 1): with 'Dodge 7' at Speed 4.5 (Basic Speed + 3) the block is 4th edition, its Dodge read as 3e's
    Move (it had stayed 7, a clumsy thug dodging better than an assassin)."""
    doc = read("Gate Thug\nST 13; DX 9; IQ 9; HT 9\nSpeed 4.5, Dodge 7, Move 4\nParry 9; Block 10 (Small Shield)\n"
               "Broadsword-11\n")
    assert doc["Dodge"] == 4
    assert "Parry 9 = skill/2 + 3 + the shield's DB 1" in report(doc)["edition"]


def test_a_compressed_statlines_attacks_and_skills():
    """A forum's monster statline in brackets ('Ogres (ST 19 ... Bite-14 2d cutting C Claws(x2)-14 2d+1 cutting
    C-2 ... Night Vision Tracking-13 ...)'): its attacks are melee lines fought with Brawling at their level,
    its Tracking a skill (they had all been unread: a creature with no attack); the attacks a turn said."""
    doc = read("Bog Ogres (ST 19 DX 12 IQ 8 HT 13 HP 19 Will 10 Per 12 Speed 6.25 Move 6 Dodge 9 DR 1 "
               "Bite-14 2d cutting C Claws(x2)-14 2d+1 cutting C-2 Night Vision Tracking-13 Bk p.9)\n")
    assert doc["name"] == "Bog Ogres" and doc["ST"] == 19
    assert [(m["name"], m["damage"], m["type"], m["skill"]) for m in doc["melee"]] == [
        ("Bite", "2d", "cut", "Brawling"), ("Claws", "2d+1", "cut", "Brawling")]
    assert doc["skills"] == {"Tracking": 13, "Brawling": 14}
    assert "Claws(x2): attacks a turn (a gurps line holds one)" in unread_texts(doc)
    assert any(a.endswith("Brawling-14: the level of its Bite attack (the block states no Brawling)")
               for a in assumed_texts(doc))


def test_an_enhanced_move_among_the_traits_is_no_move():
    """'Enhanced Move 1 (Ground Move 10)' among a creature's traits is an advantage's level: its stated
    'Move: 5' stays (it had become Move 1, slower than its Basic Speed gives)."""
    doc = read("Dire Hen\n\nST: 18\n\nDX: 10\n\nMove: 5\n\nIQ: 3\n\nHT: 10\n\n"
               "Bestial; Enhanced Move 1 (Ground Move 10); Feathers; Sharp Beak\n\nBrawling-11.\n")
    assert doc["Move"] == 5 and doc["ST"] == 18


def test_a_third_edition_pd_dr_grid_none_for_advantages_and_an_encumbered_dodge():
    """'chainmail armor (PD/DR 3/4)' is PD 3, DR 4 (it had been DR 3); 'Advantages: None' is no advantage
    named None; a 4th-edition 'Speed 5.75 ... Move 4 ... Dodge 7' (encumbered: both one down) is 3rd-edition
    Dodge = Move = 4 (the encumbrance had been taken off twice: 3)."""
    doc = read("Shield Man\nST 12, DX 11, IQ 10, HT 11\nAdvantages: None\n"
               "Gear: chainmail armor (PD/DR 3/4), personal basics\n")
    assert [(a["PD"], a["DR"]) for a in doc["armor"]] == [(3, 4)] and not doc.get("advantages")
    guard = read("Gate Guard\nST 12 HP 12 Speed 5.75\nDX 11 Will 10 Move 4\nIQ 10 Per 10\nHT 12 FP 12\n"
                 "Dodge 7 Parry 9 Block 11\nSkills: Broadsword-13; Shield-12.\n")
    assert (guard["Move"], guard["Dodge"]) == (4, 4)


def test_a_wiki_sheets_traits_worked_out_and_a_specialty_before_the_dots():
    """'Health: 2[Sta] + 5 = 7', 'Speed: 1[Str] + 4[Dex] + 5 = 10', 'Defense: 3[Wits]' are 7, 10 and 3
    (each had been its first term: Health 2, Speed 1); 'Larceny (Lockpicking) ●●●' is Larceny 3 with its
    specialty (it had been dropped, with the sheet's other best skills)."""
    doc = read("Quiet Jo\nIntelligence ●●\nWits ●●●\nResolve ●●\nStrength ●\nDexterity ●●●●\nStamina ●●\n"
               "Presence ●●\nManipulation ●●●\nComposure ●●\nHealth: 2[Sta] + 5 = 7\n"
               "Speed: 1[Str] + 4[Dex] + 5 = 10\nDefense: 3[Wits]\n"
               "  • Larceny (Lockpicking) ●●●\n  • Stealth (Moving in Darkness) ●●●●\n")
    assert (doc["Health"], doc["Speed"], doc["Defense"]) == (7, 10, 3)
    assert (doc["skills"]["Larceny"], doc["skills"]["Stealth"]) == (3, 4)
    assert doc["specialties"]["Larceny"] == ["Lockpicking"]


def test_a_books_block_run_together_after_a_sentence_is_read():
    """A book's block copied from a PDF with its line breaks lost, after a sentence ('Mara appears in the
    Tale: ... (p. 88). Virtue: Hopeful Vice: ... Mental Attributes: ...'): its skills, specialties and
    merits had all been unread; the sentence is notes."""
    doc = read("Mara appears in the Tale: The Lantern House (p. 88). Virtue: Hopeful Vice: Obsessive Mental Attributes: "
               "Intelligence 3, Wits 3, Resolve 2 Physical Attributes: Strength 2, Dexterity 2, Stamina 2 Social "
               "Attributes: Presence 2, Manipulation 2, Composure 3 Mental Skills: Academics (History) 3, Occult 2 "
               "Physical Skills: Stealth (Small Spaces) 3 Social Skills: Persuasion 3 Merits: Eidetic Memory "
               "Health: 6 Willpower: 5 Size: 5 Speed: 9 Defense: 3 Initiative: 5\n")
    assert doc["skills"] == {"Academics": 3, "Occult": 2, "Stealth": 3, "Persuasion": 3}
    assert doc["specialties"]["Stealth"] == ["Small Spaces"] and "Eidetic Memory" in doc["merits"]
    assert (doc["Intelligence"], doc["Composure"], doc["Health"], doc["Willpower"]) == (3, 3, 6, 5)
    assert "Mara appears in the Tale: The Lantern House (p. 88)." in doc["notes"]


def test_a_knife_line_fought_at_its_own_level_raises_seventh_edition_brawl():
    """A 3rd-edition warrior with Shortsword-14 and Knife-13 and a line for each: the knife line crosses at
    Knife's own level, and 7th edition rolls a knife with Fighting (Brawl), so Fighting (Brawl) holds that
    level (it had been the untrained 25, and the knife with it), said."""
    doc = read("Blade Warden\nST: 11 [10]; DX: 13 [30]; IQ: 10 [0]; HT: 11 [10]\n"
               "Skills: Knife-13 [1]; Shortsword-14 [4]\n"
               "Gear: cheap shortsword (1d-1 imp, 1d+1 cut), large knife (1d-1 imp/cut)\n")
    conv = api.convert(api.from_plain(doc), "coc7", fresh=True)
    coc7 = codec.to_builtins(conv.document)
    assert [m["skill"] for m in coc7["melee"] if m["name"] == "large knife"] == ["Fighting (Brawl)"]
    assert 50 <= coc7["skills"]["Fighting (Brawl)"] < coc7["skills"]["Fighting (Sword)"]
    assert any("large knife line, fought at its own level" in x.message for x in conv.losses)


def test_a_traits_line_sorts_the_basic_sets_disadvantages_by_name():
    """A 4th-edition 'Traits:' line with no costs: 'Bully', 'Code of Honor (Soldier's)' and 'Sense of Duty
    (Companions)' are disadvantages by name (they had been kept as advantages beside High Pain Threshold)."""
    doc = read("Gate Watch\nST 12 DX 11 IQ 10 HT 12\nTraits: Bully; Code of Honor (Soldier's); High Pain Threshold; "
               "Overconfidence (12); Sense of Duty (Companions).\nSkills: Broadsword-13.\n")
    assert doc["advantages"] == ["High Pain Threshold"]
    assert doc["disadvantages"] == ["Bully", "Code of Honor (Soldier's)", "Overconfidence (12)",
                                    "Sense of Duty (Companions)"]


RUN_ON = ("Arrowhawk, Adult ST: 14 HP: 14 Speed: 6.50 DX: 15 Will: 11 Move: 0 (Air Move 13) IQ: 10 Per: 12 HT: 11 "
          "FP: 11 SM: +1 Dodge: 10 Parry: N/A DR: 2 Bite (18): 1d pi+ Electricity Ray (18): Ranged attack (Acc 3, "
          "Range 25/50) delivers 3d-3 burn. Usable once per 6 hours. Metallic armor counts as DR 1. Traits: "
          "Enhanced Dodge; Flight (Winged); No Legs (Aerial). Skills: Brawling-18; Stealth-17; Survival (Plane of "
          "Air)-14. Class: Outerplanar (Air).\n")


def test_a_bestiarys_run_on_block_keeps_its_own_stats_not_its_attacks_words():
    """A 4th-edition bestiary's block as one line (a PDF's text layer): its name before the stats, its Per 12 and
    DR 2 (not the 'once per 6 hours' or the 'counts as DR 1' of an attack's text after them), its ground Move 0
    with the air Move said, its bite at its level, the creature's class in the notes and the last skill before
    it. A legless flyer's 3rd-edition Dodge is its Basic Speed's (6 + 1 for Enhanced Dodge), not Move 0's."""
    doc = read(RUN_ON)
    assert doc["name"] == "Arrowhawk, Adult"
    assert (doc["Per"], doc["Move"], doc["Dodge"]) == (12, 0, 7)
    assert [(a["name"], a["DR"]) for a in doc["armor"]] == [("Armor", 2)]
    assert doc["skills"] == {"Brawling": 18, "Stealth": 17, "Survival (Plane of Air)": 14}
    assert [(m["name"], m["damage"]) for m in doc["melee"]] == [("Bite", "1d")]
    assert "Class: Outerplanar (Air)" in doc["notes"]
    said = "\n".join(unread_texts(doc))
    assert "Air Move 13" in said and "Electricity Ray (18)" in said and "once per 6 hours" in said


def test_a_giants_strength_beyond_any_adults_is_read_and_kept():
    """A 3rd-edition giant's ST 60 had refused the whole block (a GURPS attribute was 1-30): it is read, kept on a
    gurps sheet, and crosses as 3.33 times the top of GURPS's table (core.beyond: it had been clamped to the
    table's end, 7th edition's STR 90)."""
    doc = read("Giant, Athach\nST: 60 (7d-1/9d)\nDX: 13\nIQ: 8\nHT: 16/50\nMove/Dodge: 7/7\nPD/DR: 2/3\n"
               "Damage: 3 clubs (9d+1), bite (3d)\n")
    assert (doc["ST"], doc["HT"], doc["HP"]) == (60, 16, 50)
    # its attacks by their damage, each a line (they had been one, 'Damage: 3 clubs (9d+1), bite', at the bite's 3d)
    assert [(m["name"], m["damage"]) for m in doc["melee"]] == [("3 clubs", "9d+1"), ("bite", "3d")]
    back = api.convert(api.from_plain(doc, "giant.txt"), "gurps", trace=False).document
    assert back.ST == 60
    coc = api.convert(api.from_plain(doc, "giant.txt"), "coc7", fresh=True, trace=False)
    # (its percentile is the table's end; 3.33 times 7th edition's top, 92: STR 307, said at the source's ST)
    assert coc.document.STR == 307 and any(x.kind == "assumed" and x.path == "$.ST" and "ST 60 lies beyond" in x.message
                                           for x in coc.losses)


def test_a_blogs_derived_traits_with_their_formulas_in_brackets():
    """'Initiative (Dex + Comp) : 4' is Initiative 4: the formula's 'Comp' had become Composure 4 over the grid's
    Composure 1; the grid's header row 'Mental Physical Social' is no name."""
    doc = read("Mental Physical Social\nPower Intelligence 3 Strength 2 Presence 2\n"
               "Finesse Wits 3 Dexterity 3 Manipulation 3\nResistance Resolve 2 Stamina 3 Composure 1\n\n"
               "Brawl 1\nDefense (lowest of wits or Dex) : 3\nInitiative (Dex + Comp) : 4\n"
               "Willpower (Resolve + Composure) : 3\n")
    assert (doc["Composure"], doc["Initiative"], doc["Defense"], doc["Willpower"]) == (1, 4, 3, 3)
    assert "name" not in doc or doc["name"] != "Mental Physical Social"
    assert any("Mental Physical Social (the attributes' categories: no name)" in t for t in unread_texts(doc))


def test_a_pd_dr_grid_with_its_armor_is_read_and_not_said_unread():
    """'PD/DR:6/4 (Chainmail)' is the chainmail's PD 6, DR 4; the line had also been said 'not read'."""
    doc = read("Hobgoblin\nST: 13\nDX: 12\nIQ:10\nHT:12\nMove/Dodge: 6/6\nPD/DR:6/4 (Chainmail)\n")
    assert [(a["name"], a.get("PD"), a["DR"]) for a in doc["armor"]] == [("Chainmail", 6, 4)]
    assert not any("Chainmail" in t for t in unread_texts(doc))


def test_a_templates_abbreviated_dot_sheet_is_nwod():
    """A campaign wiki's Chronicles of Darkness template: attributes in capitals with dots ('POW STR: ●●●○○'),
    skills in a grid of four-letter abbreviations ('Comp: 0 Brwl: 4'). Its STR and INT had made it a Call of
    Cthulhu block (SIZ 4 from 'Size: 4'), its dots and skills gone to the notes, even with --from nwod."""
    doc = read("a large black dog\n\nPOW STR: ●●●○○ INT: ●○○○○ PRE: ●●●○○\nFIN DEX: ●●●○○ WIT: ●●●○○ MAN: ●○○○○\n"
               "RES STA: ●●○○○ RSV: ●●○○○ CMP: ●●●○○\nAcad: 0 Athl: 2 AnKn: 1\nComp: 0 Brwl: 4 Empt: 1\n"
               "Occl: 1 Stlt: 3 Socl: 0\n\nWillpower: 5\nInitiative: 6\nDefense: 3\nSpeed: 14\nSize: 4\nHealth: 6\n")
    assert doc["system"] == "nwod"
    assert [doc.get(k, 2) for k in ("Strength", "Dexterity", "Stamina", "Intelligence", "Wits", "Resolve",
                                    "Presence", "Manipulation", "Composure")] == [3, 3, 2, 1, 3, 2, 3, 1, 3]
    assert doc["skills"] == {"Athletics": 2, "Animal Ken": 1, "Brawl": 4, "Empathy": 1, "Occult": 1, "Stealth": 3}
    assert (doc["Willpower"], doc["Size"], doc["Health"], doc["Speed"]) == (5, 4, 6, 14)


def test_a_bestiarys_template_and_typical_traits_are_listed_once():
    """A 4th-edition bestiary prints the template's costed lists and then the typical creature's 'Traits:' line:
    each trait once (Horizontal and No Fine Manipulators had been both advantages and disadvantages); 'Perks:'
    lists advantages and 'Creature Type:' goes to the notes (both had been disadvantages); its 'DR: 2 (tough
    skin)' is its hide, all over (it had covered the torso alone). A forum's statline in brackets with brackets
    of its own ('Trolls (ST 20 ... Parry 11(x2) ...)') keeps its name."""
    doc = read("Dire Wolverine\nAdvantages: Discriminatory Smell [15]; Night Vision 6 [6]; Sharp Claws [5].\n"
               "Disadvantages: Berserk (Battle Rage, +50%) (12) [-15]; Horizontal [-10]; No Fine Manipulators [-30].\n"
               "Perks: Fur [1].\nCreature Type: Animal.\nST: 25 DX: 12 IQ: 4 HT: 14\nDR: 2 (tough skin)\n"
               "Traits: Berserk (Battle Rage) (12); Discriminatory Smell; Fur; Horizontal; Night Vision 6; "
               "No Fine Manipulators; Wild Animal.\n")
    # (Wild Animal, a meta-trait and no Basic Set disadvantage by that name, stays with the advantages, said)
    assert doc["advantages"] == ["Discriminatory Smell", "Night Vision 6", "Sharp Claws", "Fur", "Wild Animal"]
    assert doc["disadvantages"] == ["Berserk (Battle Rage, +50%) (12)", "Horizontal", "No Fine Manipulators"]
    assert sum(t.startswith("Horizontal") for t in doc["advantages"] + doc["disadvantages"]) == 1
    assert "Fur" in doc["advantages"] and "Creature Type: Animal" in doc["notes"]
    assert not any("Creature Type" in t or "Perks" in t for t in doc["disadvantages"])
    (skin,) = doc["armor"]
    assert skin["DR"] == 2 and set(skin["locations"]) >= {"head", "torso", "legs", "feet"}
    troll = read("Trolls (ST 20 DX 13 IQ 10 HT 12 HP 20 Will 10 Per 10 FP 12 Speed 6.25 Move 6 SM+1 Dodge 10 "
                 "Parry 11(x2) DR 0 Bite-15 2d cutting C IT(NB,NV) Regen Dark Vision Stealth-15 DFM1 p.31)\n")
    assert troll["name"] == "Trolls" and (troll["ST"], troll["DX"]) == (20, 13)


def test_a_players_remarks_after_a_skills_dots_are_no_specialties():
    """A blog's 'Academics 3 (eh....duh?)' and 'Empathy 1 (a sympathetic soul this one)' are remarks, said, not
    specialties (they had been carried as such); 'Firearms 3 (Pistol)' and 'Crafts 2 (Auto Repair)' are specialties."""
    doc = read("Intelligence 3, Wits 2, Resolve 2\nStrength 2, Dexterity 3, Stamina 2\nPresence 2, Manipulation 2, "
               "Composure 2\nAcademics 3 (eh....duh?)\nEmpathy 1 (a sympathetic soul this one)\nSurvival 2 (see above)\n"
               "Firearms 3 (Pistol)\nCrafts 2 (Auto Repair)\n")
    assert doc["skills"] == {"Academics": 3, "Empathy": 1, "Survival": 2, "Firearms": 3, "Crafts": 2}
    assert doc["specialties"] == {"Firearms": ["Pistol"], "Crafts": ["Auto Repair"]}
    said = "\n".join(unread_texts(doc))
    assert "Academics (eh....duh?): a remark, not a specialty" in said and "Survival (see above)" in said


def test_a_stat_stated_again_further_down_keeps_the_blocks_first_and_is_said():
    """A GURPS block's 'DX 10' on a line after its stats (a variant, a footnote's stat line) had replaced
    its DX 13 with no word: the first is the block's, the later one is said unread (as the CoC reader does)."""
    doc = read("Tester\nST 12 DX 13 IQ 10 HT 11\nSkills: Brawling-13.\nDX 10\n")
    assert doc["DX"] == 13
    assert "DX 10 (DX 13 read on line 2 is kept)" in unread_texts(doc)
