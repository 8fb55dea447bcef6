"""What a GM review of converted fixtures found wrong on nWoD sheets, with worked numbers:
a Defense that contradicts Dexterity and Wits (nwod.derived), weapon lines with the chart
line's clip and chamber instead of the gun's, a flashlight lost from a converted shot
(nwod.darkness), and roll text without the attribute and skill numbers."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from xsys.conversions import api
from xsys.core import codec
from xsys.core.registry import get_system

ROOT = Path(__file__).resolve().parent.parent
FOREIGN_NPCS = sorted(p for s in ("coc", "coc-zh", "gurps", "pl-trudnosc") for p in (ROOT / "fixtures" / s).glob("npcs/*.yaml"))


def nwod():
    return get_system("nwod")


def to_nwod(path: Path):
    """The nWoD document (an NwodNpc or a scenario) and the loss report of a fresh conversion."""
    conv = api.convert(path, "nwod", fresh=True, trace=False)
    return conv.document, conv.losses


# ---- 1. Defense is derived: the lower of Dexterity and Wits --------------------------------

@pytest.mark.parametrize("path", FOREIGN_NPCS, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_a_written_defense_is_the_lower_of_dexterity_and_wits(path):
    doc, _ = to_nwod(path)
    assert doc.Defense == min(doc.Dexterity, doc.Wits), doc


def test_the_dock_brutes_poor_dodge_is_reported_not_written():
    # CoC Dodge 18 would be Defense 1 (nwod.defense: 10.8% of the hits of 3- to 7-die attacks);
    # the sheet has Dexterity 2 and Wits 2, so Defense 2 (26%), and the report says so
    doc, losses = to_nwod(ROOT / "fixtures/coc/npcs/dock_brute.yaml")
    assert (doc.Dexterity, doc.Wits, doc.Defense) == (2, 2, 2)
    said = [x for x in losses if x.rule == "nwod.derived" and "dodge" in x.message]
    assert len(said) == 1 and said[0].kind == "derived", [x.render() for x in losses]
    assert "dodge 18% would be Defense 1" in said[0].message and "Defense 2 (26%)" in said[0].message
    assert said[0].path == "$.skills.Dodge"


def test_a_good_dodge_above_wits_is_reported_too():
    # the SWAT officer's Dodge reads as Defense 3, but Wits is 2: Defense 2
    doc, losses = to_nwod(ROOT / "fixtures/coc/npcs/swat_officer.yaml")
    assert (doc.Dexterity, doc.Wits, doc.Defense) == (3, 2, 2)
    assert any(x.kind == "derived" and "would be Defense 3" in x.message for x in losses)


def test_a_dodge_that_matches_the_derived_defense_says_nothing():
    # the GURPS sniper: Dodge 6 is Defense 3, and Dexterity 3, Wits 3 give 3
    doc, losses = to_nwod(ROOT / "fixtures/gurps/npcs/sniper.yaml")
    assert doc.Defense == 3
    assert not any("would be Defense" in x.message for x in losses)


def test_a_stated_defense_is_still_read_as_stated():
    # an nWoD sheet's own Defense 4 (above min(Dex 2, Wits 2)) crosses as Defense 4's dodge, 61.2%
    n = api.convert(api.from_plain({"system": "nwod", "kind": "npc", "name": "Brawler", "Defense": 4}), "neutral",
                    fresh=True, trace=False)
    assert n.document.skills["dodge"] == pytest.approx(float(nwod().competence("Defense", 4)))
    assert round(n.document.skills["dodge"], 3) == 0.612


def test_coc_to_nwod_to_coc_keeps_a_sane_dodge():
    # Dodge 18 -> Defense 2 (derived from Dexterity and Wits, whatever his dodge: nwod.derived);
    # the CoC line rides along (carried.coc.sheet_skills.Dodge), so the sheet home has his own
    # Dodge 18 again, at least the 6th-edition base of the DEX 10 he comes back with (DEX x 2 =
    # 20); without the line it was 26, the share of the hits Defense 2 takes
    doc, _ = to_nwod(ROOT / "fixtures/coc/npcs/dock_brute.yaml")
    plain = codec.to_builtins(doc)
    assert plain["carried"]["coc"]["sheet_skills"]["Dodge"] == 18
    back = api.convert(api.from_plain({"system": "nwod", "kind": "npc", **plain}), "coc", fresh=True, trace=False)
    assert back.document.DEX == 10 and back.document.skills["Dodge"] == 20
    plain["carried"]["coc"]["sheet_skills"].pop("Dodge")
    bare = api.convert(api.from_plain({"system": "nwod", "kind": "npc", **plain}), "coc", fresh=True, trace=False)
    assert bare.document.skills["Dodge"] == 26


# ---- 2. clip and chamber are the gun's own (nwod.weapon.clip) ------------------------------

@pytest.mark.parametrize("fixture, name, line, clip, chamber", [
    ("pl-trudnosc/npcs/anna_nowak.yaml", "Walther PPK (7.65 mm)", "Pistol, Lt.", 7, True),  # was 17+1
    ("coc-zh/npcs/harvey_walters.yaml", "Ruger Standard (.22 LR)", "Pistol, Lt.", 9, True),  # the source's 9, was 17+1
    ("coc-zh/npcs/warlord_guard.yaml", "Mauser C96", "Pistol, Lt.", 10, True),  # was 17+1
    ("coc-zh/npcs/warlord_guard.yaml", "Mauser Kar98k", "Rifle", 5, True),  # stripper clip, bolt: 5+1
    ("coc/npcs/cultist_shotgun.yaml", "Double-barrelled 12-gauge shotgun", "Shotgun", 2, False),  # was 5+1
    ("pl-trudnosc/npcs/bandyta.yaml", "Obrzyn", "Shotgun, Sawn-off", 2, False),  # sawn-off double, was 5+1
    ("coc/npcs/dock_brute.yaml", "Colt Police Positive (.38 Special)", "Revolver, Lt.", 6, False),  # was Pistol, 5+1
    ("coc-zh/npcs/inspector_chen.yaml", "Webley Mk VI (.455)", "Revolver, Lt.", 6, False),
    ("coc-zh/npcs/us_adviser.yaml", "M16A1", "Assault Rifle", 20, True),  # was 42+1
    ("gurps/npcs/soldier.yaml", "M16A1", "Assault Rifle", 30, True),  # its sheet's Shots 30 (was the catalog's 20)
    ("coc-zh/npcs/pmc_contractor.yaml", "Colt M4 carbine", "Assault Rifle", 30, True),  # was 42+1
    ("coc/npcs/gangster_tommy_gun.yaml", "Thompson M1928", "SMG, Large", 50, False),  # open bolt, was 30+1
    ("coc/npcs/gangster_tommy_gun.yaml", "Colt M1911A1", "Pistol, Hvy.", 7, True),
    ("coc/npcs/swat_officer.yaml", "Glock 17", "Pistol, Lt.", 17, True),  # the chart's own example: 17+1
    ("coc/npcs/swat_officer.yaml", "Heckler & Koch MP5A2", "SMG, Large", 30, True),  # closed bolt
])
def test_a_weapon_line_has_the_guns_own_clip_and_chamber(fixture, name, line, clip, chamber):
    doc, _ = to_nwod(ROOT / "fixtures" / fixture)
    gun = next(w for w in doc.weapons if w.name == name)
    assert (gun.type, gun.clip, gun.chamber) == (line, clip, chamber)


def test_a_revolver_by_its_cartridge_is_reported_as_assumed():
    _, losses = to_nwod(ROOT / "fixtures/coc/npcs/dock_brute.yaml")
    said = [x for x in losses if x.rule == "nwod.weapon.clip"]
    assert len(said) == 1 and said[0].kind == "assumed" and "6 in the cylinder" in said[0].message


def test_the_clip_is_the_neutral_capacity_and_comes_back():
    # an Ingram MAC-10 line "30+1" is a 30-round magazine (the catalog's meaning of capacity),
    # and a closed-bolt SMG of no catalog takes its chart line's +1 on the way back
    sys = nwod()
    line = {"name": "Ingram MAC-10", "type": "SMG, Small", "damage": 2, "ranges": ["25 yd", "50 yd", "100 yd"],
            "clip": 30, "chamber": True, "autofire": True}
    npc = api.from_plain({"system": "nwod", "kind": "npc", "name": "x", "weapons": [line]})
    neutral = api.convert(npc, "neutral", fresh=True, trace=False)
    assert neutral.document.weapons[0].capacity == 30
    assert not any(x.rule == "nwod.weapon.clip" for x in neutral.losses)
    back = sys.npc_from_neutral(sys.npc_to_neutral(npc.document).value).value.weapons[0]
    assert (back.clip, back.chamber) == (30, True)


def test_a_chamber_the_neutral_model_cannot_hold_is_reported():
    # a revolver line that claims "+1": read, it is a 6-round revolver; the +1 is a rounded loss
    sys = nwod()
    npc = api.from_plain({"system": "nwod", "kind": "npc", "name": "x", "weapons": [
        {"name": "Odd revolver", "type": "Revolver, Lt.", "damage": 2, "ranges": ["20 yd", "40 yd", "80 yd"],
         "clip": 6, "chamber": True}]}).document
    res = sys.npc_to_neutral(npc)
    assert res.value.weapons[0].capacity == 6
    said = [x for x in res.losses if x.path == "$.weapons[0].chamber"]
    assert len(said) == 1 and said[0].kind == "rounded" and said[0].rule == "nwod.weapon.clip"


# ---- 3. a light aid is folded into the written lighting (nwod.darkness) --------------------

def _shots(path: Path, system: str):
    doc = api.convert(path, system, fresh=True, trace=False)
    return [s for sc in doc.document.scenes for s in sc.shots], doc.losses


@pytest.mark.parametrize("fixture, name, before, chance", [
    # Harvey's .22 at 6 m in total darkness with a flashlight: 2 dice (2 + 0 - 1 untrained + 1
    # damage), 1 - 0.7^2 = 51%; the sheet wrote pitch-black, a chance die, 10%
    ("coc-zh/scenarios/shanghai_warehouse_1927.yaml", "哈維打開手電筒 (with a flashlight)", "pitch-black", 0.51),
    # Malloy under a full moon (0.25 lx, poor light -2) with a flashlight: 3 dice, 1 - 0.7^3 = 65.7%;
    # the sheet wrote poor light, 1 die, 30%
    ("coc/scenarios/speakeasy_raid.yaml", "Malloy fires back by the flashlight", "poor", 0.657),
])
def test_a_flashlight_shot_is_written_as_the_odds_read_it(fixture, name, before, chance):
    sys = nwod()
    neutral, _ = _shots(ROOT / "fixtures" / fixture, "neutral")
    written, losses = _shots(ROOT / "fixtures" / fixture, "nwod")
    i = next(k for k, s in enumerate(neutral) if s.name == name)
    assert neutral[i].light.aids == ["hand-light"]
    assert written[i].lighting == "lit"
    odds = sys.check(neutral[i]).chance
    assert float(odds) == pytest.approx(chance) and sys.check_native(written[i]).chance == odds
    said = [x for x in losses if x.rule == "nwod.darkness" and "hand-light" in x.message]
    assert len(said) == 1 and said[0].kind == "merged" and f"written as lit (+0) instead of {before}" in said[0].message


def test_a_shot_without_a_light_stays_pitch_black():
    neutral, _ = _shots(ROOT / "fixtures/coc-zh/scenarios/shanghai_warehouse_1927.yaml", "neutral")
    written, _ = _shots(ROOT / "fixtures/coc-zh/scenarios/shanghai_warehouse_1927.yaml", "nwod")
    i = next(k for k, s in enumerate(neutral) if s.name.startswith("哈維在黑暗中開槍"))
    assert written[i].lighting == "pitch-black" and float(nwod().check_native(written[i]).chance) == 0.1


def test_a_light_beyond_its_reach_changes_nothing():
    # a flashlight at 60 m (beyond the 50 m it lights, assumed) leaves the darkness as it is
    from xsys.core.model import Light, standard_shot
    from xsys.core.units import Illuminance, Length
    import msgspec

    shot = msgspec.structs.replace(standard_shot("handgun"), distance=Length(60.0),
                                   light=Light(illuminance=Illuminance(0.0), aids=["hand-light"]))
    res = nwod().shot_from_neutral(shot)
    assert res.value.lighting == "pitch-black" and not any(x.rule == "nwod.darkness" for x in res.losses)
    near = msgspec.structs.replace(shot, distance=Length(20.0))
    assert nwod().shot_from_neutral(near).value.lighting == "lit"


# ---- 4. a barrier shot's roll text names the attribute and skill dots ----------------------

def test_a_barrier_shot_names_its_dots_like_an_open_one():
    # hong_kong_ambush's first shot: Dexterity 2 + Firearms 3, +4 weapon damage, -1 Strength
    # = 8 dice, through a Durability 3 barrier; the text said "Dexterity + Firearms, +4 ..."
    shots, _ = _shots(ROOT / "fixtures/coc-zh/scenarios/hong_kong_ambush.yaml", "neutral")
    check = nwod().check(shots[0])
    assert check.native.startswith("Dexterity + Firearms (2 + 3), +4 weapon.damage, -1 weapon.strength = 8 dice")
    assert check.native.endswith(", through Durability 3")


def test_the_door_example_names_its_dots():
    # fixtures/nwod/scenarios/door.yaml, Drake: Dexterity 3 + Firearms 3, +3 (Colt M1911A1) = 9 dice
    # through the Durability 1 door
    doc = api.load(ROOT / "fixtures/nwod/scenarios/door.yaml").document
    shot = doc.scenes[0].shots[0]
    check = nwod().check_native(shot)
    assert check.native == "Dexterity + Firearms (3 + 3), +3 weapon.damage = 9 dice, through Durability 1"


# ---- a converted shot is checked as xsys odds checks its source ----------------------------

SCENARIOS = sorted(p for p in (ROOT / "fixtures").glob("*/scenarios/*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_every_converted_shot_has_the_odds_of_its_source(path):
    from xsys.conversions.crossing import shooter_of_the_scene

    sys = nwod()
    # the neutral shots with their shooters as the scene's combatants state them (a CoC shot states
    # DEX; the nWoD check also asks the Strength a Thompson needs), as odds and the writers take them
    scenes = api.convert(path, "neutral", fresh=True, trace=False).document.scenes
    neutral = [shooter_of_the_scene(s, sc.combatants) for sc in scenes for s in sc.shots]
    written, _ = _shots(path, "nwod")
    assert len(neutral) == len(written) > 0
    for s, w in zip(neutral, written):
        assert sys.check_native(w).chance == sys.check(s).chance, (s.name, sys.check(s).native,
                                                                   sys.check_native(w).native)


@pytest.mark.parametrize("fixture, name, where, before, after", [
    # Chen's aimed shot at the guard's helmeted head: 3 + 1 + 2 - 2 - 3 + 1 - 3 head - 1 helmet = chance
    # die 10%; written without the head it was 1 die, 30%
    ("coc-zh/scenarios/shanghai_warehouse_1927.yaml", "陳探長瞄準衛兵的鋼盔 (Chen aims at the helmeted head)",
     "head", 0.3, 0.1),
    # Pickett's head shot: 3 dice (65.7%), was 6 dice (88.2%)
    ("coc/scenarios/dunwich_farmhouse.yaml", "Pickett takes the head shot", "head",
     0.882351, 0.657),
    # the soldier at the farmer's legs: -2, 5 dice (83.2%), was 7 (91.8%)
    ("gurps/scenarios/farmhouse_siege.yaml", None, "leg", 0.9176457, 0.83193),
])
def test_a_called_shot_keeps_its_specified_target(fixture, name, where, before, after):
    sys = nwod()
    neutral, _ = _shots(ROOT / "fixtures" / fixture, "neutral")
    written, losses = _shots(ROOT / "fixtures" / fixture, "nwod")
    i = next(k for k, s in enumerate(neutral) if s.called_location == where and s.name.startswith(name or ""))
    assert written[i].specified_target == where == neutral[i].called_location
    assert float(sys.check_native(written[i]).chance) == pytest.approx(after)
    assert float(sys.check_native(msgspec.structs.replace(written[i], specified_target=None)).chance) == \
        pytest.approx(before)
    assert not any("called_location" in x.message for x in losses)


def test_a_helmet_counts_on_a_head_shot_only():
    # the guard's WWI helmet (ballistic 1) is the written armor of the head shot, and read back it
    # covers the head; the same shot at his body is written with armor 0, as the check reads it
    sys = nwod()
    neutral, _ = _shots(ROOT / "fixtures/coc-zh/scenarios/shanghai_warehouse_1927.yaml", "neutral")
    shot = next(s for s in neutral if s.called_location == "head")
    head = sys.shot_from_neutral(shot).value
    assert (head.specified_target, head.armor) == ("head", 1)
    back = sys.shot_to_neutral(head).value
    assert back.called_location == "head" and back.target.armor[0].covers == ["head"]
    assert any(m.rule == "nwod.armor" and m.value == -1 for m in sys.check_native(head).modifiers)
    body = sys.shot_from_neutral(msgspec.structs.replace(shot, called_location=None)).value
    assert (body.specified_target, body.armor) == (None, 0)
    assert not any(m.rule == "nwod.armor" for m in sys.check(msgspec.structs.replace(shot, called_location=None)).modifiers)


def test_a_target_all_but_hidden_behind_a_barrier_is_shot_through_it():
    """GURPS's 'fires through the brick wall at the hidden farmer' (exposure hidden: visible 0.05)
    lost its wall in nWoD: -3 concealment, 83% and 'barrier: dropped'."""
    from xsys.conversions.odds import shot_checks

    conv = api.convert(ROOT / "fixtures" / "gurps" / "scenarios" / "farmhouse_siege.yaml", "nwod", fresh=True)
    shot = codec.to_builtins(conv.document)["scenes"][0]["shots"][1]
    assert shot["barrier"]["Durability"] == 3 and shot.get("concealment", "none") == "none"
    check = shot_checks(conv)[1]
    assert "through Durability 3" in check.native and float(check.chance) < 0.2


def test_a_shooter_who_is_a_combatant_fires_with_his_own_strength():
    """Scarpa (nWoD Strength 3 on his sheet) fired the Thompson at -1 for Strength 2: the CoC shot
    states only his DEX, and the shot took the adult median for the rest."""
    conv = api.convert(ROOT / "fixtures" / "coc" / "scenarios" / "speakeasy_raid.yaml", "nwod", fresh=True)
    doc = codec.to_builtins(conv.document)
    scarpa = next(c for c in doc["scenes"][0]["combatants"] if c["name"] == doc["scenes"][0]["shots"][0]["shooter"])
    shot = doc["scenes"][0]["shots"][0]
    assert shot["Strength"] == scarpa["Strength"] == 3
    from xsys.conversions.odds import shot_checks

    assert "weapon.strength" not in shot_checks(conv)[0].native


def test_a_thrown_line_has_its_throwers_ranges():
    """nwod.range (WoD p. 162): short range = Strength + Dexterity + Athletics - Size yards,
    medium and long twice and four times it, as the check reckons them. Rosa's hatchet (Strength 4,
    Dexterity 3, Athletics 1, Size 1) is 7/14/28 yd; the sheet printed the chart's 4/8/16."""
    from xsys.core import codec
    from xsys.conversions import api as xapi

    conv = xapi.convert(xapi.load(ROOT / "fixtures/corpus/dholes-house/rosa-delgado-unknown-version.json"), "nwod",
                        fresh=True, trace=False)
    doc = codec.to_builtins(conv.document)
    assert (doc["Strength"], doc["Dexterity"], doc["skills"]["Athletics"]) == (4, 3, 1)
    hatchet = next(w for w in conv.document.weapons if w.name == "Thrown hatchet")
    assert hatchet.type == "Thrown" and [round(float(r) / 0.9144, 6) for r in hatchet.ranges] == [7, 14, 28]


def test_a_one_or_two_shot_gun_has_no_round_in_the_chamber():
    """nwod.weapon.clip: the chart's "+1" is a magazine gun's round beside its magazine; a
    derringer (2) or a flare pistol (1) holds its rounds in its barrels. Annie's were "+1"."""
    from pathlib import Path

    from xsys.conversions import api

    annie = Path(__file__).resolve().parents[1] / "fixtures/corpus/foundry-coc7/annie-callahan-ranges-with-units.json"
    doc = api.convert(annie, "nwod", fresh=True).document
    lines = {w.name: w for w in doc.weapons}
    assert (lines["Derringer"].clip, lines["Derringer"].chamber) == (2, False)
    assert (lines["Flare pistol"].clip, lines["Flare pistol"].chamber) == (1, False)
    assert lines["Mauser C96"].chamber is True  # a closed bolt fed from a stripper clip keeps its +1


def test_worn_armor_says_its_strength_defense_and_speed():
    """nwod.armor (assumed, the Armor Chart's modern rows): the GURPS soldier's military body
    armor rates 3/4, full riot gear: Strength 2, Defense -2, Speed -1. The sheet says so under
    its armor table with his Defense 2 and Speed 10 in it (0 and 9); a Kevlar vest (1/2) costs
    nothing and is not said."""
    from pathlib import Path

    from xsys.conversions import api

    root = Path(__file__).resolve().parents[1]
    md = api.dump(api.convert(root / "fixtures/gurps/npcs/soldier.yaml", "nwod", fresh=True), "md").decode()
    assert "*general*: Military body armor (3/4) as the chart's full riot gear: Strength 2, Defense -2, Speed -1 " \
           "(nwod.armor, assumed: the Armor Chart's modern rows); worn, Defense 2 becomes 0 and Speed 10 becomes 9" in md
    assert "PASGT helmet (1/2) as the chart" not in md
    # and in the stat line, beside the unarmored values the conversions use
    assert "**Defense** 2 · **Speed** 10" in md and "**Defense in armor** 0 (nwod.armor) · **Speed in armor** 9 " \
           "(nwod.armor)" in md
    vest = api.dump(api.convert(root / "fixtures/gurps/npcs/policeman.yaml", "nwod", fresh=True), "md").decode()
    assert "*general*" not in vest


def test_a_creatures_own_hide_costs_it_no_defense_or_speed(tmp_path):
    """A creature's natural armor (a coc7 beast's 'Natural armor' 18 points: full riot gear's rating on the
    chart) is its hide, not worn: no Strength, Defense or Speed cost (Defense 0 'in armor' had been written),
    and it reads back as natural armor; the same rating worn costs what the chart says. Its attack (a French 'Pied', its foot, made
    with its plain Fighting: a natural one), written as the nWoD line of a natural attack, is said as such (it
    had been 'no place for it; dropped')."""
    from xsys.conversions import api

    beast = {"system": "coc7", "kind": "npc", "name": "Hound", "STR": 90, "CON": 80, "SIZ": 70, "DEX": 60,
             "INT": 20, "POW": 50, "skills": {"Fighting": 60},
             "melee": [{"name": "Pied", "skill": "Fighting", "damage": "1D8"}],
             "armor": [{"name": "Natural armor", "armor": 18}]}
    conv = api.convert(api.from_plain(beast, "hound.yaml"), "nwod", fresh=True)
    (hide,) = conv.document.armor
    assert hide.natural and hide.ballistic >= 4
    md = api.dump(conv, "md").decode()
    assert "in armor**" not in md and "*general*" not in md
    back = api.convert(api.from_plain(codec.to_builtins(conv.document), "hound.nwod.yaml"), "neutral", fresh=True)
    assert back.document.armor[0].kind == "natural"
    worn = msgspec.structs.replace(conv.document, armor=[msgspec.structs.replace(hide, natural=False)])
    assert "in armor**" in api.dump(api.convert(api.from_plain(codec.to_builtins(worn), "worn.yaml"), "nwod",
                                                fresh=True), "md").decode()
    bite = [x for x in conv.losses if x.path == "$.melee[0]"]
    assert all("dropped" not in x.message for x in bite)
    assert any("written as a natural attack, but a nwod stat block does not mark a line as one" in x.message
               for x in bite)


def test_a_trained_dodge_comes_home_through_nwod():
    """The Hong Kong bodyguard's Dodge 50 was 26 after nWoD (Defense 2: the lower of Dexterity 3
    and Wits 2, whatever his training); the line rides along and comes home as it was."""
    src = ROOT / "fixtures/coc-zh/npcs/hk_bodyguard.yaml"
    mid = codec.to_builtins(api.convert(src, "nwod", fresh=True, trace=False).document)
    assert mid["Defense"] == 2 and mid["carried"]["coc"]["sheet_skills"]["Dodge"] == 50
    back = api.convert(api.from_plain(mid), "coc-zh", fresh=True, trace=False).document
    assert back.skills["Dodge"] == 50
