"""Melee attacks convert like firearms where feasible: a close-combat weapon crosses
as what it is (its class: fists, knife, club, sword, axe, spear, improvised) with the neutral skill
it is wielded with (brawl / melee), each system writes its own line for the class (rule IDs
coc-ja.melee, gurps.melee, nwod.melee, assumed, in the trace), and the source's exact line rides
in the carried block, so A -> B -> A gives it back with nothing remembered."""

from __future__ import annotations

from pathlib import Path

import pytest

from xsys.conversions import api
from xsys.core import codec
from xsys.core.model import melee_class_of

ROOT = Path(__file__).resolve().parent.parent


def _plain(doc):
    p = codec.to_builtins(doc)
    p.pop("xsys", None)
    return p


def _thug() -> dict:
    src = _plain(api.load(ROOT / "fixtures" / "gurps" / "npcs" / "street_thug.yaml").document)
    src["melee"].append({"name": "Fire axe", "skill": "Axe/Mace", "damage": "2d+1", "type": "cut"})
    return src


@pytest.mark.parametrize("words,cls", [
    (("Switchblade", "Knife"), "knife"), (("Nightstick", ""), "club"), (("Brawl", "Fist/Punch"), "unarmed"),
    (("Fire axe", "Axe/Mace"), "axe"), (("Persuader", "Club"), "club"), (("Bottle", ""), "improvised"),
    (("こぶし", ""), "unarmed"), (("Katana", "Sword"), "sword"), (("Bottle", "Axe/Mace (improvised)"), "improvised"),
    # as Japanese sheets write them: a tantō is a knife, not the sword its 刀 says; bare hands, a bat
    (("短刀", ""), "knife"), (("ドス", ""), "knife"), (("素手", ""), "unarmed"), (("金属バット", ""), "club"),
    (("鉄パイプ", ""), "club"), (("鉈", ""), "axe"), (("メリケンサック", ""), "unarmed"), (("日本刀", ""), "sword"),
    # the Japanese rulebook's weapon table: a fencing foil, a rapier or heavy épée, a sword cane
    (("フェンシング・フォイル", ""), "sword"), (("レイピア/重いエペー", ""), "sword"), (("仕込み杖", ""), "sword"),
])
def test_melee_class_of_reads_the_name_then_the_skill(words, cls):
    assert melee_class_of(*words) == cls


@pytest.mark.parametrize("name,cls", [
    # a short word is found as a word only: no club in "Engineer (Combat)" or "Acrobatics", no spear in a
    # "Spiked club"; a longer one inside a compound too ("Battleaxe", the German "Streitaxt", "Kampfmesser")
    ("Engineer (Combat)", "improvised"), ("Acrobatics", "improvised"), ("Sapper", "improvised"),
    ("Spiked club", "club"), ("Battleaxe", "axe"), ("Greatsword", "sword"), ("Streitaxt", "axe"),
    ("Kampfmesser", "knife"), ("Baseball bat", "club"),
    # the names the Foundry CoC7 system's French, Portuguese, Spanish, German, Italian and Polish sheets give
    ("Poings", "unarmed"), ("Coup de pied", "unarmed"), ("Couteau", "knife"), ("Clava", "club"),
    ("Faca", "knife"), ("Cuchillo", "knife"), ("Espada", "sword"), ("Hacha", "axe"), ("Porrete", "club"),
    ("Faustschlag", "unarmed"), ("Schwert", "sword"), ("Coltello", "knife"), ("Pięść", "unarmed"),
    ("Nóż", "knife"), ("Pałka", "club"), ("Lanza", "spear"),
])
def test_a_weapon_word_is_a_word_in_any_of_the_sheets_languages(name, cls):
    assert melee_class_of(name) == cls


def test_a_gurps_knife_and_axe_cross_to_coc_and_nwod_as_their_class():
    src = _thug()
    neutral = _plain(api.convert(api.from_plain(src), "neutral", fresh=True, trace=False).document)
    assert neutral["melee"] == [{"name": "Switchblade", "melee_class": "knife"},
                                {"name": "Fire axe", "melee_class": "axe"}]
    coc = api.convert(api.from_plain(src), "coc", fresh=True, trace=True)
    doc = _plain(coc.document)
    assert doc["melee"] == [{"name": "Switchblade", "skill": "Knife", "damage": "1d4+db"},
                            {"name": "Fire axe", "skill": "Axe", "damage": "1d8+2+db"}]
    assert any("coc-ja.melee" in t.rules and t.source == "assumed" and "Fire axe" in t.render() for t in coc.trace)
    assert any("gurps.melee" in t.rules for t in coc.trace)
    nwod = _plain(api.convert(api.from_plain(src), "nwod", fresh=True, trace=False).document)
    close = [w for w in nwod["weapons"] if "ranges" not in w]
    assert [(w["name"], w["type"], w["damage"]) for w in close] == [("Switchblade", "Knife", 1), ("Fire axe", "Hatchet", 2)]


@pytest.mark.parametrize("b", ["coc", "coc-zh", "nwod", "pl-trudnosc"])
def test_the_gurps_line_comes_back_exactly_with_nothing_remembered(b):
    src = _thug()
    there = api.convert(api.from_plain(src), b, fresh=True, trace=False)
    mid = _plain(there.document)
    assert mid["carried"]["gurps"]["melee"]["Fire axe"] == {"name": "Fire axe", "skill": "Axe/Mace", "damage": "2d+1",
                                                             "type": "cut"}
    back = _plain(api.convert(api.from_plain(mid), "gurps", fresh=True, trace=False).document)
    assert back["melee"] == src["melee"]
    said = [x for x in there.losses if x.path == "$.melee[1]" and x.rule == "gurps.melee"]
    assert said and all("dropped" not in x.message for x in said)
    if b == "pl-trudnosc":  # no close combat in the Polish rules: the class and skill are lost there, and said
        assert any("melee" in x.message and x.level == "warning" for x in there.losses)


def test_nwod_nightstick_stays_a_club_everywhere():
    src = _plain(api.load(ROOT / "fixtures" / "nwod" / "npcs" / "patrol-officer.yaml").document)
    for b in ("coc", "gurps"):
        conv = api.convert(api.from_plain(src), b, fresh=True, trace=False)
        assert not [x for x in conv.losses if "melee_class" in x.message], [x.render() for x in conv.losses]
        out = _plain(conv.document)
        back = _plain(api.convert(api.from_plain(out), "neutral", fresh=True, trace=False).document)
        assert back["melee"][0] == {"name": "Nightstick", "melee_class": "club"}


def test_a_coc_text_block_brawl_becomes_a_gurps_brawling_line():
    from xsys.plugins.textblock.reader import load

    doc = load((ROOT / "fixtures" / "text" / "walters-coc7.txt").read_bytes())
    doc.pop("xsys", None)
    out = _plain(api.convert(api.from_plain(doc), "gurps", fresh=True, trace=False).document)
    # 3e's punch is thrust-2: 1d-4 at Walters's ST 10 (gurps.melee), in the melee table, not
    # among the guns (it was a weapon line with Acc 0, RoF 1, Shots 0)
    reflexes = 1 if "Combat Reflexes" in out.get("advantages", []) else 0  # +1 to every active defense (3e)
    assert out["melee"] == [{"name": "Brawl", "skill": "Brawling", "damage": "thr-2", "dice": "1d-4", "reach": "C",
                             "parry": 2 * out["skills"]["Brawling"] // 3 + reflexes}]
    assert [w["name"] for w in out["weapons"]] == [".38 Revolver"]
    assert out["skills"].get("Brawling")  # the skill's level crosses as the neutral brawl


def test_without_the_carried_line_the_class_line_is_written():
    """Not vacuous: with the carried block taken out on the way, the axe comes back as GURPS's
    axe line (swing+2 cut: 2d at the thug's ST 12), not the source's 2d+1."""
    mid = _plain(api.convert(api.from_plain(_thug()), "coc", fresh=True, trace=False).document)
    mid.pop("carried")
    back = _plain(api.convert(api.from_plain(mid), "gurps", fresh=True, trace=False).document)
    axe = next(w for w in back["melee"] if w["name"] == "Fire axe")
    assert (axe["skill"], axe["damage"], axe["dice"], axe["type"], axe["reach"]) == ("Axe/Mace", "sw+2", "2d", "cut",
                                                                                     "1")


@pytest.mark.parametrize("st,punch,club", [(8, "1d-5", "1d-1"), (10, "1d-4", "1d+1"), (15, "1d-1", "2d+2"),
                                           (20, "1d+1", "4d-1")])
def test_a_gurps_class_line_hits_as_hard_as_its_wielders_st(st, punch, club):
    """gurps.melee: a class line is thrust or swing plus the weapon's add, at the wielder's own
    ST (3e's thrust/swing table): a ST 15 brute's punch (thrust-2) is 1d-1, his club (swing+1)
    2d+2, where an average man's are 1d-4 and 1d+1."""
    from xsys.plugins.gurps.system import melee_damage

    assert (melee_damage("unarmed", st), melee_damage("club", st)) == (punch, club)


# ---- the skill a line is rolled with, whatever the source called it -----------------------

def _rosa() -> dict:
    """A Dhole's House 7e investigator whose trench knife is fought with Fighting (Brawl) 60 and
    whose line states 1D4+2+DB (coc7.melee: knives and clubs are Brawl in 7th edition)."""
    return _plain(api.load(ROOT / "fixtures" / "corpus" / "dholes-house" / "rosa-delgado-unknown-version.json").document)


def test_a_7e_knife_fought_with_brawl_is_the_knife_skill_of_every_other_system():
    src = _rosa()
    assert src["skills"]["Fighting (Brawl)"] == 60
    conv = api.convert(api.from_plain(src), "neutral", fresh=True, trace=True)
    neutral = _plain(conv.document)
    assert neutral["skills"]["melee"] == neutral["skills"]["brawl"]  # one hand, one competence
    assert any("coc7.melee" in t.rules and t.source == "assumed" and "Trench knife" in t.render() for t in conv.trace)
    coc = _plain(api.convert(api.from_plain(src), "coc", fresh=True, trace=False).document)
    # before: Knife had no level (the 6th-edition base, 25) for a 60% knife fighter
    assert coc["skills"]["Knife"] == 60 and coc["skills"]["Fist/Punch"] == 60
    gurps = _plain(api.convert(api.from_plain(src), "gurps", fresh=True, trace=False).document)
    assert gurps["skills"]["Knife"] == gurps["skills"]["Brawling"] == 13
    knife = next(m for m in gurps["melee"] if m["name"] == "Trench knife")
    # gurps.melee: a knife parries one less than half; Combat Reflexes (her Dodge 7 above Move 6) +1
    assert "Combat Reflexes" in gurps["advantages"] and knife["parry"] == 13 // 2 - 1 + 1
    nwod = _plain(api.convert(api.from_plain(src), "nwod", fresh=True, trace=False).document)
    # 60 is professional (51-75): of nWoD 2 and 3, about equally near, 3 is professional (core.tiers)
    assert nwod["skills"]["Weaponry"] == nwod["skills"]["Brawl"] == 3


def test_a_stated_7e_melee_line_keeps_its_dice_in_6th_edition_and_back():
    """coc-ja.melee / coc7.melee: both editions print the same weapon dice, so a stated
    1D4+2+DB is not the knife class's 1d4+db; a bonus already rolled into dice does not cross."""
    conv = api.convert(api.from_plain(_rosa()), "coc", fresh=True, trace=True)
    coc = _plain(conv.document)
    assert coc["melee"] == [{"name": "Trench knife", "skill": "Knife", "damage": "1d4+2+db"}]
    assert any("coc-ja.melee" in t.rules and "1D4+2+DB" in t.render() for t in conv.trace)
    coc.pop("carried")  # nothing remembered: the 6th-edition line alone says the dice
    coc7 = _plain(api.convert(api.from_plain({**coc, "carried": {"coc": {"melee": {
        "Trench knife": coc["melee"][0]}}}}), "coc7", fresh=True, trace=False).document)
    assert coc7["melee"] == [{"name": "Trench knife", "skill": "Fighting (Brawl)", "damage": "1D4+2+DB"}]
    rolled = _rosa()
    rolled["melee"][0]["damage"] = "1D4+2+1D4"  # the wielder's bonus rolled in: the class line
    coc = _plain(api.convert(api.from_plain(rolled), "coc", fresh=True, trace=False).document)
    assert coc["melee"][0]["damage"] == "1d4+db"


def test_a_coc7_round_trip_of_a_knife_fighter_says_no_merge():
    conv = api.convert(api.from_plain(_rosa()), "coc7", fresh=True, trace=False)
    out = _plain(conv.document)
    assert out["skills"]["Fighting (Brawl)"] == 60
    assert not [x for x in conv.losses if x.kind == "merged"], [x.render() for x in conv.losses]


def test_a_line_whose_skill_the_source_never_states_is_written_at_the_untrained_level():
    """nWoD's patrol officer has no Weaponry: his nightstick is rolled untrained. CoC writes Club
    at its 6th-edition base (25, coc-ja.skills), GURPS Axe/Mace at its default DX-5 (gurps.defaults)
    with the parry it gives; each said as assumed. Before, the line named a skill the sheet lacked."""
    src = _plain(api.load(ROOT / "fixtures" / "nwod" / "npcs" / "patrol-officer.yaml").document)
    assert "Weaponry" not in src["skills"]
    coc = api.convert(api.from_plain(src), "coc", fresh=True, trace=False)
    out = _plain(coc.document)
    assert out["melee"][0]["skill"] == "Club" and out["skills"]["Club"] == 25
    assert any(x.kind == "assumed" and x.rule == "coc-ja.skills" and "Nightstick" in x.message for x in coc.losses)
    gurps = api.convert(api.from_plain(src), "gurps", fresh=True, trace=False)
    out = _plain(gurps.document)
    assert out.get("DX", 10) == 10 and out["skills"]["Axe/Mace"] == 5  # DX 10 - 5
    assert out["melee"][0]["skill"] == "Axe/Mace" and out["melee"][0]["parry"] == 2
    assert any(x.kind == "assumed" and x.rule == "gurps.defaults" and "Nightstick" in x.message for x in gurps.losses)


def test_a_7e_text_attack_named_for_its_weapon_is_made_with_brawl():
    """'Kitchen knife 30% (15/6), damage 1D4' in a 7e block is a Fighting (Brawl) attack
    (coc7.melee), not a skill called 'Kitchen knife' carried verbatim through every system."""
    from xsys.plugins.textblock.reader import load

    doc = load((ROOT / "fixtures" / "corpus" / "text-coc" / "en7-homebrewery-markdown.txt").read_bytes())
    doc.pop("xsys", None)
    assert doc["system"] == "coc7"
    assert "Kitchen knife" not in doc["skills"] and doc["skills"]["Fighting (Brawl)"] == 30
    assert {m["name"]: m["skill"] for m in doc["melee"]} == {"Brawl": "Fighting (Brawl)",
                                                              "Kitchen knife": "Fighting (Brawl)"}


def test_a_sheet_skill_of_two_neutral_skills_with_no_place_is_carried_once():
    conv = api.convert(api.from_plain(_rosa()), "pl-trudnosc", fresh=True, trace=False)
    out = _plain(conv.document)
    assert out["carried"]["coc7"]["sheet_skills"]["Fighting (Brawl)"] == 60
    said = [x for x in conv.losses if "Fighting (Brawl)" in x.path or "melee" in x.message and x.path == "$.skills"]
    assert len([x for x in said if "no skill for" in x.message]) == 1, [x.render() for x in said]
    back = _plain(api.convert(api.from_plain(out), "coc7", trace=False).document)
    assert back["skills"]["Fighting (Brawl)"] == 60


def test_a_kicker_who_states_no_punch_brawls_at_his_kick_in_every_system():
    """coc-ja.melee: Kick and Head Butt are unarmed attacks beside Fist/Punch. A 6e sheet that
    states no punch but Kick 70 (CCFOLIA's Kanzaki) brawls at his kick: GURPS Brawling above his
    DX (it was written at the untrained DX 11 for the kick line), an nWoD Brawl, a 7e Brawl 70; the
    Kick stays carried, a coc sheet of him writes no Fist/Punch, and the trip through 7th
    edition comes home as it was. A stated punch stays his brawl (Inspector Chen's Fist/Punch 70
    beside Kick 40)."""
    path = ROOT / "fixtures" / "corpus" / "ccfolia" / "vampireblood-6e-kanzaki.json"
    src = _plain(api.load(path).document)
    assert src["skills"]["Kick"] == 70 and "Fist/Punch" not in src["skills"]
    gurps = api.convert(path, "gurps", fresh=True, trace=False)
    assert gurps.document.skills["Brawling"] > gurps.document.DX
    said = [x for x in gurps.losses if x.path == "$.skills.Kick" and x.rule == "coc-ja.melee"]
    assert said and said[0].message.startswith("Kick 70 is an unarmed attack like Fist/Punch (not stated: base 50)")
    assert api.convert(path, "nwod", fresh=True, trace=False).document.skills.get("Brawl", 0) > 0
    assert api.convert(path, "coc7", fresh=True, trace=False).document.skills["Fighting (Brawl)"] == 70
    coc = _plain(api.convert(path, "coc", fresh=True, trace=False).document)
    assert "Fist/Punch" not in coc["skills"] and coc["skills"]["Kick"] == 70
    seventh = _plain(api.convert(path, "coc7", fresh=True, trace=False).document)
    home = _plain(api.convert(api.from_plain(seventh), "coc", fresh=True, trace=False).document)
    assert home["skills"] == src["skills"]
    chen = api.convert(ROOT / "fixtures" / "coc-zh" / "npcs" / "inspector_chen.yaml", "gurps", fresh=True, trace=False)
    assert not [x for x in chen.losses if "is an unarmed attack like" in x.message]


def test_the_weapon_of_a_close_combat_skill_crosses_a_system_with_one_skill_for_every_weapon():
    """Inspector Chen's Club 60 (no club line) through nWoD Weaponry, afresh: nWoD has one
    close-combat skill for every weapon, so the weapon it is for (Combatant.melee_kind) is carried
    at carried.coc.melee_kind, and his coc-zh sheet home writes Club again (it wrote Knife 56, the
    first melee skill). A target that names the weapon itself (GURPS Axe/Mace) carries nothing."""
    src = _plain(api.load(ROOT / "fixtures" / "coc-zh" / "npcs" / "inspector_chen.yaml").document)
    conv = api.convert(api.from_plain(src), "nwod", fresh=True, trace=False)
    mid = _plain(conv.document)
    assert mid["carried"]["coc"]["melee_kind"] == "club" and mid["skills"]["Weaponry"] > 0
    (said,) = [x for x in conv.losses if x.message.startswith("melee_kind 'club'")]
    assert said.kind == "kept-verbatim" and "carried at carried.coc.melee_kind" in said.message
    back = _plain(api.convert(api.from_plain(mid), "coc-zh", fresh=True, trace=False).document)
    assert "Club" in back["skills"] and "Knife" not in back["skills"]
    assert "melee_kind" not in back.get("carried", {}).get("coc", {})
    gurps = _plain(api.convert(api.from_plain(src), "gurps", fresh=True, trace=False).document)
    assert "Axe/Mace" in gurps["skills"] and "melee_kind" not in gurps.get("carried", {}).get("coc", {})


def test_a_close_combat_skill_carried_through_a_system_with_none_comes_home_under_its_name():
    """Inspector Chen's Club 60 through pl-trudnosc, which has no close-combat skill at all: the
    line is carried (carried.coc.sheet_skills.Club) and his coc-zh sheet home, afresh, writes Club
    60 again (it wrote Knife 60: the carried line's level came home, the weapon it is for did not)."""
    src = _plain(api.load(ROOT / "fixtures" / "coc-zh" / "npcs" / "inspector_chen.yaml").document)
    mid = _plain(api.convert(api.from_plain(src), "pl-trudnosc", fresh=True, trace=False).document)
    assert mid["carried"]["coc"]["sheet_skills"]["Club"] == 60
    back = _plain(api.convert(api.from_plain(mid), "coc-zh", fresh=True, trace=False).document)
    assert back["skills"]["Club"] == 60 and "Knife" not in back["skills"]


def test_a_3e_shortsword_for_a_nightstick_is_a_club_skill():
    """A 3e vault guard fights with a nightstick on Shortsword-11 (3e's skill for a baton): the
    weapon his melee skill is for is the line made with it, a club, so a CoC sheet writes Club 39
    beside his nightstick and no Sword (it wrote both), and 7th edition no Fighting (Sword) beside
    his Brawl (which came home through coc as nothing: the sword he never had)."""
    path = ROOT / "fixtures" / "corpus" / "text-gurps" / "vault-guard-3e.txt"
    coc = _plain(api.convert(path, "coc", fresh=True, trace=False).document)
    assert "Club" in coc["skills"] and "Sword" not in coc["skills"]
    seventh = _plain(api.convert(path, "coc7", fresh=True, trace=False).document)
    assert "Fighting (Sword)" not in seventh["skills"] and "Fighting (Brawl)" in seventh["skills"]
    # an Axe/Mace whose line is an axe handle stays a club (3e reads Axe/Mace so): GURPS's own
    # reading of a two-weapon skill wins over its line's name
    axe = {"system": "gurps", "kind": "npc", "name": "Bouncer", "ST": 12, "DX": 10, "IQ": 9, "HT": 11,
           "skills": {"Axe/Mace": 13}, "melee": [{"name": "Axe handle", "skill": "Axe/Mace", "damage": "sw+2",
                                                 "type": "cr"}]}
    assert _plain(api.convert(api.from_plain(axe), "neutral", fresh=True, trace=False).document)["melee_kind"] == "club"


VIKING = {"system": "coc7", "kind": "npc", "name": "Raider", "STR": 80, "CON": 75, "SIZ": 75, "DEX": 60, "APP": 45,
          "INT": 55, "POW": 60, "EDU": 40,
          "skills": {"Fighting (Brawl)": 60, "Fighting (Sword)": 85, "Fighting (Spear)": 40, "Dodge": 30},
          "melee": [{"name": "Longsword", "skill": "Fighting (Sword)", "damage": "1D8+DB"},
                    {"name": "Boar spear", "skill": "Fighting (Spear)", "damage": "1D8+1+DB"}]}


def test_a_weapon_fought_with_a_skill_of_its_own_keeps_that_skill_s_level():
    """One neutral melee holds the NPC's best (Sword 85); his spear, fought with Spear 40, had been
    written at the sword's level everywhere (GURPS Spear-14, back in 7th edition Fighting (Spear)
    86). The spear line carries its own skill's competence: GURPS writes the spear below the sword,
    the trip back keeps Spear 40 in its tier, 6th edition (the same percentages) Spear 40; a system
    with one melee skill for every weapon (nWoD Weaponry) writes the best, as the source says."""
    src = api.from_plain(VIKING)
    neutral = api.convert(src, "neutral", trace=False).document
    spear = next(m for m in neutral.melee if m.name == "Boar spear")
    sword = next(m for m in neutral.melee if m.name == "Longsword")
    assert sword.competence is None and spear.competence is not None and spear.competence < neutral.skills["melee"]
    gurps = _plain(api.convert(src, "gurps", fresh=True, trace=False).document)
    assert gurps["skills"]["Spear"] < gurps["skills"]["Broadsword"]
    back = _plain(api.convert(api.from_plain(gurps), "coc7", fresh=True, trace=False).document)
    seventh = api.default_registry().system("coc7")
    from xsys.core.equating import tier_of
    for skill in ("Fighting (Sword)", "Fighting (Spear)"):
        assert tier_of(seventh.tiers(skill), back["skills"][skill]).rank == \
            tier_of(seventh.tiers(skill), VIKING["skills"][skill]).rank, (skill, back["skills"][skill])
    sixth = api.convert(src, "coc", fresh=True, trace=False)
    assert (sixth.document.skills["Spear"], sixth.document.skills["Sword"]) == (40, 85)
    said = [x.message for x in sixth.losses if x.kind == "merged" and "Fighting (Spear) 40" in x.message]
    assert said and "crosses with its Boar spear line alone" in said[0]
    nwod = api.convert(src, "nwod", fresh=True, trace=False)
    assert not any("competence" in x.message and "no place" in x.message for x in nwod.losses)


def _spore_creature() -> dict:
    """A 7e creature whose second attack states no damage (a spore kiss: its effect is in the notes)."""
    return {"system": "coc7", "kind": "npc", "name": "Withered one", "STR": 80, "CON": 75, "SIZ": 55, "DEX": 80,
            "INT": 50, "POW": 50, "skills": {"Fighting (Brawl)": 60, "Spore kiss": 30},
            "melee": [{"name": "Claws", "skill": "Fighting (Brawl)", "damage": "1D4+DB"},
                      {"name": "Spore kiss", "skill": "Spore kiss", "damage": ""}],
            "notes": "Spore kiss: the victim makes a Hard CON roll or is infected."}


def test_an_attack_that_states_no_damage_gets_none_invented():
    """A line of no damage (a manoeuvre, a spore kiss, a bestiary's 'damage special') crosses as a
    special attack: GURPS and nWoD, whose line of its class would give it damage (the spore kiss had
    become a GURPS Axe/Mace (improvised) swing for 3d), write no line for it and say so; the d100
    sheets write it as it was, with no damage; a trip back gives the line as written."""
    src = api.from_plain(_spore_creature())
    neutral = api.convert(src, "neutral", trace=False).document
    assert [(m.name, m.special) for m in neutral.melee] == [("Claws", False), ("Spore kiss", True)]
    for target, field in (("gurps", "melee"), ("nwod", "weapons")):
        conv = api.convert(src, target, fresh=True, trace=False)
        lines = codec.to_builtins(conv.document).get(field) or []
        assert "Spore kiss" not in [x["name"] for x in lines] and "Claws" in [x["name"] for x in lines], target
        said = [x for x in conv.losses if x.path == "$.melee[1]" and "states no damage" in x.message]
        assert said and said[0].kind == "unsupported-field", (target, [x.message for x in conv.losses])
    gurps = api.convert(src, "gurps", fresh=True, trace=False).document
    assert not any("improvised" in k for k in gurps.skills)
    coc = _plain(api.convert(src, "coc", fresh=True, trace=False).document)
    assert {"name": "Spore kiss", "skill": "Spore kiss", "damage": ""} in coc["melee"]
    back = _plain(api.convert(api.from_plain(_plain(api.convert(src, "gurps", trace=False).document)), "coc7",
                              trace=False).document)
    assert back["melee"] == _spore_creature()["melee"]


def test_the_neutral_sheet_prints_a_yes_no_column_only_where_a_line_says_yes():
    """The neutral melee table had a 'natural' column of 'no' on every line; a yes/no column that is
    its default on every line is left out, as the YAML leaves it out, and shown where one says yes."""
    from xsys.conversions import markdown

    conv = api.convert(api.from_plain(_spore_creature()), "neutral", trace=False)
    text = markdown.render(conv)
    table = text.split("**melee**", 1)[1].split("\n\n", 2)[1]
    assert table.splitlines()[0] == "| name | melee\\_class | skill | natural | special |"
    assert "| Claws | unarmed | brawl | yes | no |" in table and "| Spore kiss | improvised | melee | no | yes |" in table
    plain = api.convert(api.load(ROOT / "fixtures" / "coc" / "npcs" / "dock_brute.yaml"), "neutral", trace=False)
    assert "| name | melee\\_class | skill |\n" in markdown.render(plain)


def test_a_7th_edition_knife_line_by_the_size_its_name_says():
    """7th edition's weapons table prints knives in three sizes (coc7.melee): a GURPS Large Knife had been the
    small knife's 1D4+DB; a line whose name says its size is that row, another knife the small one."""
    from xsys.core.registry import get_system

    seventh = get_system("coc7")
    assert seventh.melee_line("knife", "Large Knife") == ("Fighting (Brawl)", "1D8+DB")
    assert seventh.melee_line("knife", "Kitchen knife") == ("Fighting (Brawl)", "1D4+2+DB")
    assert seventh.melee_line("knife", "Switchblade") == ("Fighting (Brawl)", "1D4+DB")
    assert seventh.melee_line("knife", "Largest blade") == ("Fighting (Brawl)", "1D4+DB")  # a word, not a part
    assert get_system("coc").melee_line("knife", "Large knife") == ("Knife", "1d4+db")  # (no sizes in its table)


def test_the_trace_and_report_speak_only_of_the_melee_skills_a_sheet_writes():
    """A naginata fought with Spear 50 becomes GURPS Spear-11; the neutral melee had been converted
    to every GURPS melee skill first (Knife, Axe/Mace, Broadsword ...), and the trace listed each and
    the report a skill-cost note on Knife-11, a skill the sheet does not have."""
    f = ROOT / "fixtures/corpus/text-coc/ja-one-per-line-fullwidth.txt"
    conv = api.convert(api.load(f), "gurps", fresh=True)
    assert "Spear" in conv.document.skills and "Knife" not in conv.document.skills
    written = {e.path for e in conv.trace if e.path.startswith("$.skills.")}
    assert written & {"$.skills.Knife", "$.skills.Axe/Mace", "$.skills.Broadsword"} == set(), written
    assert "$.skills.Spear" in written
    assert not [x.message for x in conv.losses if "Knife" in x.message]


def test_a_biting_creature_read_into_its_own_system_is_said_no_punch(tmp_path):
    """A 6th-edition hound that bites (no Fist/Punch on its sheet) read into coc: its brawl is its Bite, and
    no Fist/Punch is written; the report had said 'Fist/Punch 40 ... written at the untrained Fist/Punch
    50', a warning about a skill the sheet does not have (the loss of a skill a sheet finally leaves out is
    taken back, as core.melee.melee_skills_written does)."""
    src = tmp_path / "hound.txt"
    src.write_text("WATCH HOUND\nSTR 11 CON 12 SIZ 8 POW 6 DEX 14 HP 10\nWeapons: Bite 45%, damage 1D6\n"
                   "Skills: Listen 70%, Track by Scent 85%.\n", encoding="utf-8")
    conv = api.convert(src, "coc", trace=True)
    assert "Fist/Punch" not in conv.document.skills and conv.document.skills["Bite"] == 45
    assert not [x for x in conv.losses if "Fist/Punch" in x.path or "written at the untrained" in x.message]
    assert not [t for t in conv.trace if t.path.endswith("Fist/Punch")]
