"""A creature's natural attacks (a bite, claws, a tentacle) are fought bare-handed: each system
writes them with its brawl skill, and the creature's own attack skills cross as its brawl.

The test documents are written here in the shapes the readers meet: a 7th-edition text block of
a creature (a plain Fighting skill and attacks with chances of their own, as the rulebook's
monsters are printed) and a 6th-edition one (its Bite a skill of its own, no Fist/Punch)."""

from __future__ import annotations

import msgspec

from xsys.conversions import api
from xsys.core import codec
from xsys.core.equating import tier_of
from xsys.core.model import melee_class_of, natural_attack
from xsys.core.registry import default_registry

SEVENTH = """Marsh lurker, thing of the reeds
STR 85 CON 70 SIZ 75 DEX 60 INT 40 POW 50
HP: 14
Damage Bonus: +1D4
Build: 1
Move: 8
Combat
Fighting 55% (27/11), damage 1D6 + DB
Bite 55% (27/11), damage 1D8 + paralysis
Claws 55% (27/11), damage 1D6 + DB
Dodge 30% (15/6)
Skills: Stealth 70%, Swim 80%.
"""

SIXTH = """Pit gnawer
STR 13 CON 12 SIZ 9 INT 8 POW 9 DEX 8
HP: 11
Weapons: Bite 85%, damage 1D6
Skills: Hide 60%, Listen 55%.
"""


def _read(tmp_path, text: str, to: str):
    path = tmp_path / "creature.txt"
    path.write_text(text, encoding="utf-8")
    return api.convert(path, to)


def _plain(doc):
    return msgspec.to_builtins(doc, enc_hook=codec.enc_hook)


def test_natural_attack_words_are_unarmed_and_a_weapon_word_wins():
    names = ("Bite", "Claws", "Tentacle", "Talons", "噛みつき", "触手", "Fighting")
    assert [melee_class_of(n) for n in names] == ["unarmed"] * 7 and all(natural_attack(n) for n in names)
    assert melee_class_of("Claw hammer") == "club" and not natural_attack("Claw hammer")  # a weapon's word first
    assert melee_class_of("Bone knife") == "knife"
    assert not natural_attack("Fist") and not natural_attack("Fighting (Whip)")  # fists; a weapon's skill
    # a bestiary's other natural weapons (the Cthulhu Invictus mi-go's Nippers, a gorgon's Tail, the
    # Japanese module's 鋭い尾): fought bare-handed too, not improvised weapons
    more = ("Nippers", "Tail", "Sharp tail", "Tusks", "Antlers", "Mandibles", "Constrict", "鋭い尾", "牙", "蹄", "尾巴")
    assert all(melee_class_of(n) == "unarmed" and natural_attack(n) for n in more)
    # and as the Foundry CoC7 system's other languages name them; a word inside another is none
    # ("Resting" holds no sting, "Québec" no beak); French fists are fists, not a natural attack
    foreign = ("Morsure", "Griffes", "Tentacules", "Bico mortal", "Garras", "Mordisco", "Biss", "Klauen",
               "Artigli", "Ugryzienie", "Pazury", "Macki", "Kły")
    assert all(melee_class_of(n) == "unarmed" and natural_attack(n) for n in foreign)
    assert melee_class_of("Resting") == melee_class_of("Québec") == "improvised"
    assert melee_class_of("Poings") == "unarmed" and not natural_attack("Poings")


def test_a_7th_edition_creature_keeps_its_attack_skills_and_the_effect_in_words_is_said(tmp_path):
    conv = _read(tmp_path, SEVENTH, "coc7")
    doc = conv.document
    assert {k: doc.skills[k] for k in ("Fighting", "Bite", "Claws")} == {"Fighting": 55, "Bite": 55, "Claws": 55}
    assert "Fighting (Brawl)" not in doc.skills
    assert {m.name: (m.skill, m.damage) for m in doc.melee} == {
        "Fighting": ("Fighting", "1D6+DB"), "Bite": ("Bite", "1D8"), "Claws": ("Claws", "1D6+DB")}
    said = [x.message for x in conv.losses if "paralysis" in x.message]
    assert said and "not read" in said[0]  # the dice are read; the effect in words is said, not lost
    # its attack skills at one level lose nothing between them: no "cross as one" warning
    assert not [x for x in conv.losses if "cross as one neutral brawl" in x.message]
    # the same sheet again: exactly as written
    again = api.convert(api.from_plain(_plain(doc)), "coc7", fresh=True).document
    assert again.skills == doc.skills and again.melee == doc.melee


def test_a_7th_edition_creature_fights_with_brawling_in_gurps_and_comes_back_within_its_tier(tmp_path):
    seventh = _read(tmp_path, SEVENTH, "coc7").document
    gurps = api.convert(api.from_plain(_plain(seventh)), "gurps", fresh=True).document
    lines = {m.name: (m.skill, m.damage, m.type) for m in gurps.melee}
    # not Axe/Mace (improvised), and not a punch (thr-2 cr): a bite or claws cut
    assert lines == {n: ("Brawling", "thr", "cut") for n in ("Fighting", "Bite", "Claws")}
    assert "Brawling" in gurps.skills
    nwod = api.convert(api.from_plain(_plain(seventh)), "nwod", fresh=True).document
    assert {w.name: (w.type, w.damage) for w in nwod.weapons} == {n: ("Brawl", 1) for n in ("Fighting", "Bite", "Claws")}
    # the GURPS sheet alone (nothing carried from 7th edition), back to 7th edition afresh
    plain = _plain(gurps)
    plain.pop("carried", None)
    plain.pop("xsys", None)
    home = api.convert(api.from_plain(plain), "coc7", fresh=True).document
    tiers = default_registry().system("coc7").tiers("Fighting (Brawl)")  # the Keeper chart
    assert tiers and tier_of(tiers, home.skills["Fighting (Brawl)"]).rank == tier_of(tiers, 55).rank
    # a creature's attack, at 7th edition's line for one (not the fist's 1D3+DB)
    assert {m.name: (m.skill, m.damage) for m in home.melee} == {
        n: ("Fighting (Brawl)", "1D6+DB") for n in ("Fighting", "Bite", "Claws")}


def test_a_6th_edition_creature_s_bite_is_its_brawl(tmp_path):
    sixth = _read(tmp_path, SIXTH, "coc").document
    assert sixth.skills["Bite"] == 85 and "Fist/Punch" not in sixth.skills
    conv = api.convert(api.from_plain(_plain(sixth)), "gurps", fresh=True)
    gurps = conv.document
    assert {m.name: m.skill for m in gurps.melee} == {"Bite": "Brawling"}
    # Bite 85 above the punch's base 50 crosses as the brawl: a trained Brawling, not the DX default
    untrained = api.convert(api.from_plain({**_plain(sixth), "skills": {
        k: v for k, v in _plain(sixth)["skills"].items() if k != "Bite"}}), "gurps", fresh=True).document
    assert gurps.skills["Brawling"] > untrained.skills.get("Brawling", gurps.DX)
    assert any(x.path == "$.skills.Bite" and "unarmed attack like Fist/Punch" in x.message for x in conv.losses)


def test_a_creature_s_skin_is_natural_armor_over_its_whole_body(tmp_path):
    text = SEVENTH.replace("Dodge 30% (15/6)", "Dodge 30% (15/6)\nArmor: 4-point hide")
    conv = _read(tmp_path, text, "gurps")
    (hide,) = conv.document.armor
    assert hide.PD == 0 and {"head", "torso", "legs", "arms"} <= set(hide.locations)  # not the torso alone
    assert any("natural armor over the whole body" in x.message for x in conv.losses)
    # worn gear named for what it is made of stays worn gear
    from xsys.core.armorline import restore
    from xsys.core.model import Armor
    from xsys.core.units import Energy
    for name in ("Scale mail", "Hide coat", "Fur jacket"):
        assert restore(Armor(name=name, stops=Energy(100.0)), None, None).covers == ["torso"]


def test_an_attack_skill_is_said_to_cross_as_the_brawl_not_as_having_no_equivalent(tmp_path):
    seventh = _read(tmp_path, SEVENTH, "coc7").document
    conv = api.convert(api.from_plain(_plain(seventh)), "gurps", fresh=True)
    (said,) = [x for x in conv.losses if x.path == "$.skills.Bite"]
    assert "crosses as the neutral brawl" in said.message and "no neutral equivalent" not in said.message


def test_a_6th_edition_bite_of_its_own_dice_keeps_them_in_7th_edition(tmp_path):
    text = SIXTH.replace("Weapons: Bite 85%, damage 1D6", "Weapons: Bite 85%, damage 1D10")
    sixth = _read(tmp_path, text, "coc").document
    seventh = api.convert(api.from_plain(_plain(sixth)), "coc7", fresh=True).document
    assert {m.name: m.damage for m in seventh.melee} == {"Bite": "1D10"}  # not the fist's 1D3+DB


def test_a_foundry_creature_s_sanity_loss_and_attacks_a_round_are_kept_in_its_notes(tmp_path):
    from pathlib import Path
    import json

    actor = json.loads((Path(__file__).parent.parent / "fixtures" / "corpus" / "foundry-coc7" /
                        "vault-ghast-natural-attacks.json").read_text(encoding="utf-8"))
    assert actor["system"]["special"]["sanLoss"] == {"checkPassed": "0", "checkFailled": "1D8"}
    path = tmp_path / "ghast.json"
    path.write_text(json.dumps(actor), encoding="utf-8")
    conv = api.convert(path, "gurps")  # they had been dropped without a word
    assert "Sanity Loss: 0/1D8" in conv.document.notes and "Attacks per round: 2" in conv.document.notes
    assert any("special.attacksPerRound" in x.path and "kept in the notes" in x.message for x in conv.losses)


def test_a_foundry_creature_s_armor_is_its_body_s_own(tmp_path):
    from pathlib import Path

    moor = Path(__file__).parent.parent / "fixtures" / "corpus" / "foundry-coc7" / "moor-serpent-creature.json"
    gurps = api.convert(moor, "gurps").document  # attribs.armor 4 on a creature actor
    (armor,) = gurps.armor
    assert armor.name == "Natural armor" and armor.PD == 0 and {"head", "legs", "torso"} <= set(armor.locations)
    seventh = api.convert(moor, "coc7").document
    assert [(a.name, a.armor) for a in seventh.armor] == [("Natural armor", 4)]


def test_a_6th_edition_creature_s_bite_is_its_brawl_even_below_a_punch_s_base(tmp_path):
    # Bite 40 and no Fist/Punch: the creature bites, it does not punch (a human's Kick 30 with no
    # punch stated stays carried only: his untrained punch, 50, is the better)
    text = SIXTH.replace("Weapons: Bite 85%, damage 1D6", "Weapons: 噬咬 40%, damage 1D6")
    sixth = _read(tmp_path, text, "coc").document
    assert sixth.skills["噬咬"] == 40
    conv = api.convert(api.from_plain(_plain(sixth)), "neutral", fresh=True)
    assert conv.document.skills["brawl"] > 0
    assert any("the creature's own attack, fought bare-handed" in x.message for x in conv.losses)
    human = api.convert(api.from_plain({**_plain(sixth), "skills": {"Kick": 30}, "melee": []}), "neutral", fresh=True)
    assert "brawl" not in human.document.skills


def test_a_chinese_7th_edition_creature_s_attack_skills_hold_its_brawl(tmp_path):
    text = "沼泽潜伏者\n力量 80 体质 65 体型 65 敏捷 65 智力 45 意志 50\n生命值 13\n噬咬 45%，伤害 1D6\n鉤爪 45%，伤害 1D6+DB\n"
    seventh = _read(tmp_path, text, "coc7").document
    assert {k: seventh.skills[k] for k in ("噬咬", "鉤爪")} == {"噬咬": 45, "鉤爪": 45}  # as written
    gurps = api.convert(api.from_plain(_plain(seventh)), "gurps", fresh=True).document
    assert {m.name: m.skill for m in gurps.melee} == {"噬咬": "Brawling", "鉤爪": "Brawling"}
    neutral = api.convert(api.from_plain(_plain(seventh)), "neutral", fresh=True).document
    assert neutral.skills["brawl"] > 0 and {m.natural for m in neutral.melee} == {True}


def test_a_6th_edition_creature_s_attack_skill_keeps_its_level_in_7th_edition(tmp_path):
    sixth = _read(tmp_path, SIXTH, "coc").document
    seventh = api.convert(api.from_plain(_plain(sixth)), "coc7", fresh=True)
    assert seventh.document.skills["Bite"] == 85  # its own number, not the untrained 1 of a line skill
    assert {m.name: m.skill for m in seventh.document.melee} == {"Bite": "Bite"}
    home = api.convert(api.from_plain(_plain(seventh.document)), "coc", fresh=True).document
    assert home.skills == sixth.skills


JAPANESE = """### 沼の潜むもの

STR: 85 CON: 70 POW: 50 DEX: 60 SIZ: 75 INT: 40
HP: 14 MP: 10 DB: +1D4

#### 技能

近接戦闘: 55% ダメージ: 1D4+DB
噛みつき: 45% ダメージ: 毎ラウンド 1D6
舌: 60% ダメージ: POW 1D6
回避: 30%
"""


def test_a_japanese_creature_s_attacks_are_read_whatever_their_damage_says(tmp_path):
    conv = _read(tmp_path, JAPANESE, "coc7")
    doc = conv.document
    # a damage dealt each round is its damage; one that is no roll of hit points (POW drained) is
    # kept in the notes (said unread before), and the attack and its chance are kept (both had been
    # left unread, the attack lost)
    assert {k: doc.skills[k] for k in ("噛みつき", "舌")} == {"噛みつき": 45, "舌": 60}
    assert {m.name: (m.skill, m.damage) for m in doc.melee} == {
        "近接戦闘": ("Fighting (Brawl)", "1D4+DB"), "噛みつき": ("噛みつき", "1D6"), "舌": ("舌", "")}
    assert "噛みつき: 1D6 毎ラウンド" in doc.notes and "舌: ダメージ: POW 1D6" in doc.notes
    unread = [x.message for x in conv.losses if x.rule == "text.unread"]
    assert not any("毎ラウンド" in m or "POW 1D6" in m or "firearm" in m for m in unread)


def test_a_tongue_is_a_natural_attack(tmp_path):
    assert melee_class_of("Tongue") == melee_class_of("舌") == "unarmed" and natural_attack("Tongue", "舌")
    # the tongue is the creature's own weapon (it had been an improvised axe: Axe/Mace, swung 3d);
    # it drains POW ("ダメージ: POW 1D6"), no damage a GURPS line could hold: none is written for it
    # (it had then been a Brawling cut), and the sheet says so
    seventh = _read(tmp_path, JAPANESE, "coc7").document
    conv = api.convert(api.from_plain(_plain(seventh)), "gurps", fresh=True)
    lines = {m.name: (m.skill, m.type) for m in conv.document.melee}
    assert lines["噛みつき"] == ("Brawling", "cut") and "舌" not in lines
    assert any(x.message.startswith("舌: the source states no damage for it") for x in conv.losses)
    # a Japanese sheet's bare 近接戦闘 is no creature's word: investigators write it for their
    # Fighting (Brawl) too, and its damage says the weapon on 7th edition's table (1D4+DB a knife)
    assert not natural_attack("近接戦闘") and lines["近接戦闘"] == ("Knife", "cut")


def test_a_creature_s_attack_skills_come_home_alone_with_what_gurps_carried(tmp_path):
    """A werewolf's Bite 55 and Claws 50 (a bestiary module's creature: no Fighting (Brawl)) went
    to GURPS and back to 7th edition with --fresh as Bite 55, Claws 50 and a Fighting (Brawl) 55
    the creature never had: the carried attack skills are the brawl's skills while it is still
    exactly their best. A Fighting 100 (past the sheet's 99) converted to 7th edition again had
    come back beside a Fighting (Brawl) 99. (Its STR is 90, the top of the human table: a STR 100
    crosses to GURPS as ST 20, core.beyond, where its Bite 55 equates below the Brawling its DX gives
    untrained, and comes home as that untrained Brawling's 80.)"""
    were = ("Werewolf\nSTR 90 CON 80 SIZ 85 DEX 75 INT 50 POW 60\nHP 16\nAttacks: Bite 55% — 1D8+DB\n"
            "Attacks: Claws 50% — 1D6+DB\n")
    seventh = _read(tmp_path, were, "coc7").document
    assert seventh.skills == {"Bite": 55, "Claws": 50}
    gurps = api.convert(api.from_plain(_plain(seventh)), "gurps", fresh=True).document
    home = api.convert(api.from_plain(_plain(gurps)), "coc7", fresh=True).document
    assert {k: v for k, v in home.skills.items() if k != "Dodge"} == {"Bite": 55, "Claws": 50}
    # past the top of the sheet's levels: the same, to itself
    great = were.replace("Attacks: Bite 55% — 1D8+DB\nAttacks: Claws 50% — 1D6+DB\n", "Attacks: Fighting 100% — 1D10+DB\n")
    seventh = _read(tmp_path, great, "coc7").document
    assert seventh.skills == {"Fighting": 100}
    again = api.convert(api.from_plain(_plain(seventh)), "coc7", fresh=True).document
    assert again.skills == {"Fighting": 100}
    # a Fighting (Brawl) of its own (its Claws) beside a weaker Bite: the Fighting (Brawl) stays
    ghoul = were.replace("Attacks: Bite 55% — 1D8+DB\nAttacks: Claws 50% — 1D6+DB\n",
                         "Attacks: Fighting (Brawl) 60% (30/12), damage 1D6+DB (claws)\nAttacks: Bite 40% — 1D6\n")
    seventh = _read(tmp_path, ghoul, "coc7").document
    assert seventh.skills == {"Fighting (Brawl)": 60, "Bite": 40}
    gurps = api.convert(api.from_plain(_plain(seventh)), "gurps", fresh=True).document
    home = api.convert(api.from_plain(_plain(gurps)), "coc7", fresh=True).document
    assert "Fighting (Brawl)" in home.skills and home.skills["Bite"] == 40
    # a creature's Fighting 50 that comes back at another level (GURPS Brawling-12 at DX 11 reads back
    # as 61): its Fighting takes it, as a Fighting (Brawl) 50 of the same body does; no Fighting (Brawl)
    # 61 beside the Fighting 50 its attack is rolled with
    cyclops = ("Cyclops\nSTR 130 CON 135 SIZ 135 DEX 60 INT 50 POW 50\nHP 27\nAttacks: Fighting 50% — 1D6+DB\n")
    human = cyclops.replace("Attacks: Fighting 50% — 1D6+DB", "Fighting (Brawl) 50% (25/10), damage 1D6+DB")
    homes = []
    for text in (cyclops, human):
        seventh = _read(tmp_path, text, "coc7").document
        gurps = api.convert(api.from_plain(_plain(seventh)), "gurps", fresh=True).document
        homes.append(api.convert(api.from_plain(_plain(gurps)), "coc7", fresh=True).document.skills)
    assert set(homes[0]) - {"Dodge"} == {"Fighting"} and homes[0]["Fighting"] == homes[1]["Fighting (Brawl)"] != 50
    # a bestiary's other natural weapon (the mi-go's Nippers) is the creature's attack skill too:
    # through any system and back, its Nippers alone, with no Fighting (Brawl) beside it
    migo = "Mi-go\nSTR 50 CON 50 SIZ 50 DEX 70 INT 65 POW 65\nHP 10\nAttacks: Nippers 40% — 1D6\n"
    seventh = _read(tmp_path, migo, "coc7").document
    for to in ("gurps", "coc", "nwod"):
        there = api.convert(api.from_plain(_plain(seventh)), to, fresh=True).document
        home = api.convert(api.from_plain(_plain(there)), "coc7", fresh=True).document
        assert {k: v for k, v in home.skills.items() if k != "Dodge"} == {"Nippers": 40}, to


def test_a_gurps_natural_line_takes_its_damage_type_from_what_it_is():
    """gurps.melee (assumed): teeth and claws cut, a tail, hooves or a tentacle strike crushing,
    a horn, tusk or sting impales, each on the natural line's thrust at the creature's ST."""
    npc = {"system": "coc7", "kind": "npc", "name": "Chimera", "STR": 90, "CON": 80, "SIZ": 90, "DEX": 60,
           "INT": 30, "POW": 50, "skills": {"Fighting (Brawl)": 50},
           "melee": [{"name": n, "skill": "Fighting (Brawl)", "damage": "1D6+DB"}
                     for n in ("Bite", "Claws", "Tail lash", "Hooves", "Tentacle", "Horns", "Tusk", "Sting")]}
    plain = codec.to_builtins(api.convert(api.from_plain(npc), "gurps", fresh=True).document)
    types = {m["name"]: (m["damage"], m.get("type", "cr")) for m in plain["melee"]}  # (cr: the line's default)
    assert types == {"Bite": ("thr", "cut"), "Claws": ("thr", "cut"), "Tail lash": ("thr", "cr"),
                     "Hooves": ("thr", "cr"), "Tentacle": ("thr", "cr"), "Horns": ("thr", "imp"),
                     "Tusk": ("thr", "imp"), "Sting": ("thr", "imp")}
