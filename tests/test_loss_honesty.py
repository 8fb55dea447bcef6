"""The loss report says what was lost, and only that ("Honest loss report"):
no system is said to lack a skill it has, no skill is invented on the way, a value pushed
to a system's lowest or highest level is a ``clamped`` warning that ``--strict`` counts,
and every path is one the source document has."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from xsys.conversions import api
from xsys.core import codec
from xsys.core.errors import LossError
from xsys.core.registry import default_registry
from xsys.core.trace import STRICT_KINDS
from xsys.core.vocab import SKILLS

ROOT = Path(__file__).resolve().parent.parent
SYSTEMS = default_registry().keys()
NPCS = sorted(p for p in (ROOT / "fixtures").glob("*/npcs/*.yaml"))
NPC_IDS = [f"{p.parent.parent.name}/{p.name}" for p in NPCS]


def _npc(skills, **chars):
    base = {"strength": 0.5, "constitution": 0.5, "size": 0.5, "dexterity": 0.5, "appearance": 0.5,
            "intelligence": 0.5, "perception": 0.5, "will": 0.5, "education": 0.5, "charisma": 0.5}
    return {"system": "neutral", "kind": "npc", "name": "Test subject", "characteristics": {**base, **chars},
            "skills": skills}


# ---- Call of Cthulhu has the skills of its character sheet ------------------------------

SHEET = {"climb": "Climb", "swim": "Swim", "jump": "Jump", "first_aid": "First Aid", "drive": "Drive Auto",
         "brawl": "Fist/Punch", "track": "Track"}


@pytest.mark.parametrize("to", ["coc", "coc-zh"])
def test_call_of_cthulhu_is_not_said_to_lack_the_skills_it_has(to):
    conv = api.convert(_npc({k: 0.4 for k in SHEET}), to)
    said = [x.message for x in conv.losses if "has no skill for" in x.message]
    assert said == [], said
    for neutral, native in SHEET.items():
        assert native in conv.document.skills, f"{neutral} should land on {native}"
        # brawl is a close-combat competence (the close-combat battery), not a roll chance
        want = 40 if neutral != "brawl" else api.system_for(to).level_for(native, 0.4, {"@key": "brawl"})
        assert conv.document.skills[native] == pytest.approx(want, abs=3)


@pytest.mark.parametrize("fixture", ["nwod/npcs/swat-officer.yaml", "gurps/npcs/shotgun_farmer.yaml",
                                     "nwod/npcs/gang-enforcer.yaml"])
def test_fixtures_keep_their_physical_skills_in_call_of_cthulhu(fixture):
    conv = api.convert(ROOT / "fixtures" / fixture, "coc", fresh=True)
    for x in conv.losses:
        for skill in SHEET:
            assert not x.message.endswith(f"has no skill for {skill}"), x.render()


# ---- no invented skills -------------------------------------------------------------------

def test_there_is_no_neutral_courage_skill():
    # courage is the will characteristic (Polish Odwaga, CoC POW); a skill "courage" had no
    # standard task, and nWoD's Intimidation (frightening others) is not courage
    assert "courage" not in SKILLS
    for key in SYSTEMS:
        for native, keys in api.system_for(key).skills().items():
            assert set(keys) <= set(SKILLS), f"{key} {native}: {keys}"


@pytest.mark.parametrize("to", [s for s in SYSTEMS if s != "nwod"])
def test_intimidation_is_reported_as_itself(to):
    conv = api.convert(ROOT / "fixtures" / "nwod" / "npcs" / "gang-enforcer.yaml", to, fresh=True)
    assert not any("courage" in x.message for x in conv.losses), [x.render() for x in conv.losses]
    # the target's counterpart skill (a coc sheet writes 7th edition's Intimidate: plugins/coc/README.md)
    written = {"coc": "Intimidate", "coc-zh": "Intimidate", "coc7": "Intimidate", "gurps": "Intimidation"}
    if to in written:
        assert conv.document.skills.get(written[to]), (to, conv.document.skills)
    else:
        mine = [x for x in conv.losses if x.path == "$.skills.Intimidation"]
        assert mine and all("Intimidation" in x.message for x in mine)
    neutral = api.convert(ROOT / "fixtures" / "nwod" / "npcs" / "gang-enforcer.yaml", "neutral")
    assert "courage" not in neutral.document.skills


# ---- clamped values --------------------------------------------------------------------

def test_a_skill_below_the_lowest_level_is_a_clamped_warning():
    # the Polish level 0 already hits the standard shot more often than this shooter
    conv = api.convert(_npc({"handgun": 0.1}), "pl-trudnosc")
    (clamp,) = [x for x in conv.losses if x.kind == "clamped"]
    assert clamp.level == "warning" and clamp.kind in STRICT_KINDS
    assert clamp.path == "$.skills.handgun"  # the source's path, not the target's field
    assert "0.100" in clamp.message and "lowest level" in clamp.message and "Broń krótka 0" in clamp.message
    with pytest.raises(LossError):
        api.convert(_npc({"handgun": 0.1}), "pl-trudnosc", strict=True)


def test_a_skill_above_the_highest_level_is_a_clamped_warning():
    # a Polish master with the top Motoryka is past CoC 100 (since exploding-2d6 the
    # fixture sergeant, Motoryka 4 and Broń długa 4, is a CoC expert, no longer past the top)
    # (with his rifle: Broń długa covers every long arm, and CoC writes the one his weapon uses)
    src = {"system": "pl-trudnosc", "kind": "npc", "imię": "Mistrz", "Motoryka": 5, "umiejętności": {"Broń długa": 5},
           "broń": [{"nazwa": "Karabin wyborowy", "rodzaj": "długa", "obrażenia": 9}]}
    conv = api.convert(src, "coc", fresh=True)
    clamps = [x for x in conv.losses if x.kind == "clamped"]
    assert any(x.path == "$.umiejętności.Broń długa" and "highest level" in x.message
               and "Rifle 100" in x.message for x in clamps), [x.render() for x in conv.losses]
    assert all(x.level == "warning" for x in clamps)


def test_a_skill_within_reach_is_not_clamped():
    conv = api.convert(_npc({"handgun": 0.3, "spot": 0.5}), "coc")
    assert not [x for x in conv.losses if x.kind == "clamped"]


def test_a_characteristic_beyond_the_table_crosses_as_its_multiple_or_is_a_clamped_warning():
    """A brute's STR 30 (1.67 times CoC's 18) is GURPS ST 30, said (core.beyond); the Polish traits end at 5, so
    there it is a clamped warning naming the 8 it would be."""
    doc = {"system": "coc", "kind": "npc", "name": "Brute", "STR": 30, "CON": 12, "SIZ": 13, "DEX": 11,
           "APP": 11, "INT": 13, "POW": 12, "EDU": 12, "skills": {"Handgun": 40}}
    conv = api.convert(doc, "gurps")
    assert conv.document.ST == 30
    (said,) = [x for x in conv.losses if x.path == "$.STR" and x.rule == "core.beyond"]
    assert said.kind == "assumed" and said.message.startswith("ST 30: the source's strength is 1.67 times")
    polish = api.convert(doc, "pl-trudnosc")
    (clamp,) = [x for x in polish.losses if x.path == "$.STR" and x.kind == "clamped"]
    assert clamp.level == "warning" and "Atletyka 5" in clamp.message and "Atletyka 8 here" in clamp.message


# ---- paths ---------------------------------------------------------------------------------

_DOUBLED = re.compile(r"\.(\w+)\.\1(\.|\[|$)")


@pytest.mark.parametrize("fixture", NPCS, ids=NPC_IDS)
def test_loss_paths_are_the_sources_own(fixture):
    loaded = api.load(fixture)
    for to in SYSTEMS:
        if to == loaded.system:
            continue
        conv = api.convert(loaded, to, fresh=True, trace=False)
        for x in conv.losses:
            assert not _DOUBLED.search(x.path), x.render()
            # a skill's loss names the source's skill, never a "$" of the whole document
            if x.kind == "clamped":
                assert x.path != "$", x.render()


def test_a_skill_at_the_level_a_sheet_leaves_out_is_not_said_to_have_no_place():
    # the Polish sheet lists trained skills only: rifle 0.5 is Broń długa 0, left out; the
    # system has a place for rifles (Broń długa), so "no place for it; dropped" would be false
    conv = api.convert(_npc({"rifle": 0.5, "handgun": 0.9}), "pl-trudnosc")
    mine = [x for x in conv.losses if x.path == "$.skills.rifle"]
    assert mine and not any("no place for it" in x.message for x in mine), [x.render() for x in mine]
    assert all(x.kind in ("rounded", "clamped") for x in mine)
    smg = api.convert(ROOT / "fixtures" / "coc" / "npcs" / "gangster_tommy_gun.yaml", "pl-trudnosc", fresh=True)
    assert not any(x.path == "$.skills.SMG" and "no place for it" in x.message for x in smg.losses)


@pytest.mark.parametrize("to,skill,end", [("pl-trudnosc", 0.1, "lowest"), ("pl-trudnosc", 0.99, "highest"),
                                          ("coc", 0.99, "highest"), ("nwod", 0.99, "highest")])
def test_a_shooter_beyond_the_targets_scale_is_a_clamped_warning(to, skill, end):
    shot = api.load(ROOT / "fixtures" / "neutral" / "shots" / "car_park_by_moonlight.yaml")
    plain = codec.to_builtins(shot.document)
    plain["shooter"]["skill"] = skill
    conv = api.convert(plain, to)
    (clamp,) = [x for x in conv.losses if x.path == "$.shooter.skill"]
    assert clamp.kind == "clamped" and clamp.level == "warning", clamp.render()
    assert f"{skill:g}" in clamp.message and f"its {end} level" in clamp.message


@pytest.mark.parametrize("to", SYSTEMS)
def test_a_shooter_within_the_targets_scale_is_rounded_not_clamped(to):
    conv = api.convert(ROOT / "fixtures" / "neutral" / "shots" / "car_park_by_moonlight.yaml", to)  # skill 0.6
    assert not [x for x in conv.losses if x.kind == "clamped"], [x.render() for x in conv.losses]


# ---- a neutral skill held by a field outside the skill list (GURPS Dodge) ---------------------

def test_a_system_declares_the_neutral_skills_its_fields_hold():
    """core: System.derived_skills() names neutral skills a stat block holds outside its skill
    list; they are covered, so never reported as a skill the system lacks."""
    from xsys.core.model import Combatant
    from xsys.plugins.gurps.system import Gurps

    class DodgelessGurps(Gurps):  # a plugin that does not declare the field holding its dodge
        def derived_skills(self):
            return {}

    comb = Combatant(name="x", characteristics={"dexterity": 0.5}, skills={"dodge": 0.3, "handgun": 0.3})
    assert "dodge" in Gurps().covered_skills() and "dodge" not in DodgelessGurps().covered_skills()
    said = DodgelessGurps().npc_from_neutral(comb)
    assert any("has no skill for dodge" in x.message for x in said.losses)
    res = Gurps().npc_from_neutral(comb)
    assert not any("has no skill for dodge" in x.message for x in res.losses)
    assert res.value.Dodge == 5  # gurps.dodge: 3d6 <= 5 + 3 is 25.9%, the nearest to a 30% dodge


def test_gurps_is_not_said_to_lack_dodge_beside_its_printed_dodge():
    conv = api.convert(ROOT / "fixtures" / "coc" / "npcs" / "gangster_tommy_gun.yaml", "gurps", fresh=True)
    assert not any("has no skill for dodge" in x.message for x in conv.losses)
    # gurps.dodge: CoC Dodge 30 (a 30% roll) is GURPS Dodge 5, rolled as 3d6 <= 5 + 3 for
    # stepping back (25.9%; Dodge 6 would be 37.5%): the average GURPS adult's Move-5 Dodge,
    # not the Dodge 8 of a bare 3d6 <= Dodge roll, which only a Move-8 sprinter has
    assert conv.document.Dodge == 5


@pytest.mark.parametrize("src, to, field, expected", [
    ("gurps/npcs/policeman.yaml", "coc", "skills.Dodge", 26),  # Dodge 5 +3: 25.9%
    ("gurps/npcs/sniper.yaml", "coc", "skills.Dodge", 37),  # Dodge 6 +3: 37.5%
    # Defense 2 takes 26.3% of the hits of attacks of 3 to 7 dice (nwod.defense), as GURPS's median Dodge 5 does
    ("nwod/npcs/patrol-officer.yaml", "coc", "skills.Dodge", 26),
    ("nwod/npcs/patrol-officer.yaml", "gurps", "Dodge", 5),
    ("nwod/npcs/swat-officer.yaml", "coc", "skills.Dodge", 45),  # Defense 3: 45.3%
    ("nwod/npcs/swat-officer.yaml", "gurps", "Dodge", 7),  # 3d6 <= 10: 50%
    ("gurps/npcs/sniper.yaml", "nwod", "Defense", 3),
])
def test_dodge_and_defense_cross_as_the_share_of_attacks_they_turn_aside(src, to, field, expected):
    conv = api.convert(ROOT / "fixtures" / src, to, fresh=True)
    value = conv.document
    for part in field.split("."):
        value = value[part] if isinstance(value, dict) else getattr(value, part)
    assert value == expected
    assert not any("has no skill for dodge" in x.message for x in conv.losses), [x.render() for x in conv.losses]


def test_a_stated_defense_or_dodge_is_read_not_the_derived_one():
    # a GURPS Dodge above Move (Combat Reflexes) and an nWoD Defense above min(Dex, Wits) carry over
    gurps = api.from_plain({"system": "gurps", "kind": "npc", "name": "Fencer", "DX": 10, "HT": 10, "Dodge": 8})
    assert api.convert(gurps, "coc", fresh=True).document.skills["Dodge"] == 62  # 3d6 <= 11: 62.5%
    nwod = api.from_plain({"system": "nwod", "kind": "npc", "name": "Brawler", "Defense": 4})
    coc = api.convert(nwod, "coc", fresh=True).document.skills["Dodge"]
    assert coc == 61
    assert coc > 45  # above Defense 3's 45.3% (Defense 4: 61.2%)


# ---- a variant and its parent share skills ------------------------------------------------

@pytest.mark.parametrize("fixture", sorted((ROOT / "fixtures" / "coc-zh" / "npcs").glob("*.yaml")),
                         ids=lambda p: p.name)
def test_coc_zh_skills_written_in_coc_are_not_reported_dropped(fixture):
    conv = api.convert(fixture, "coc", fresh=True)
    written = set(conv.document.skills)
    for x in conv.losses:
        if x.path.startswith("$.skills.") and x.kind in STRICT_KINDS:
            assert x.path[len("$.skills."):] not in written, x.render()


def test_a_characteristic_at_its_default_value_has_its_own_path():
    # the deer hunter's Manipulation 2 is nWoD's default: it is still his, and a loss about it is his
    conv = api.convert(ROOT / "fixtures" / "nwod" / "npcs" / "deer-hunter.yaml", "coc", fresh=True)
    charisma = [x for x in conv.losses if "charisma" in x.message]
    assert charisma and all(x.path == "$.Manipulation" for x in charisma), [x.render() for x in charisma]


@pytest.mark.parametrize("to", ["gurps", "nwod", "pl-trudnosc"])
def test_a_variants_copy_for_its_parent_is_not_a_second_loss(to):
    # coc-zh keeps its Sneak for coc too; Sneak is reported once, at the source's own path
    conv = api.convert(ROOT / "fixtures" / "coc-zh" / "npcs" / "harvey_walters.yaml", to, fresh=True)
    assert not [x for x in conv.losses if "native.coc" in x.message], [x.render() for x in conv.losses]
    # the sheet's choice of Sneak is one line; its level, when the trip back moves it, may be another
    sneak = [x for x in conv.losses if "Sneak" in x.message]
    assert {x.path for x in sneak} == {"$.skills.Sneak"}
    assert len([x for x in sneak if "sheet_skills.Sneak" in x.message]) == 1, [x.render() for x in sneak]


# ---- a CoC weapon's carry and a Polish target in the open ---------------------

def test_a_coc_weapons_carry_is_reported_where_it_is_carried():
    # no other system has a holster: the carry rides in nwod's carried block, and the
    # report says so at the weapon's own carry (info, not a strict loss)
    conv = api.convert(ROOT / "fixtures" / "coc" / "npcs" / "gangster_tommy_gun.yaml", "nwod", fresh=True)
    carry = [x for x in conv.losses if x.path.endswith(".carry")]
    assert [x.path for x in carry] == ["$.weapons[0].carry", "$.weapons[1].carry"]
    assert "violin case" in carry[0].message and "not expressible in nwod" in carry[0].message
    assert carry[0].kind not in STRICT_KINDS
    assert conv.document.carried["coc"]["carry"]["Thompson M1928"] == "violin case"


def test_a_fully_visible_target_is_not_a_polish_loss():
    # pl.defence.cover: "brak" (no cover) is a fully visible target, not a 75%-visible one
    for path in sorted((ROOT / "fixtures").glob("*/scenarios/*.yaml")):
        conv = api.convert(path, "pl-trudnosc", fresh=True)
        assert not any(x.message.startswith("1 visible read as") for x in conv.losses), path


def test_unit_conversions_leave_no_float_noise_in_documents():
    text = api.dump(api.convert(ROOT / "fixtures" / "coc-zh" / "scenarios" / "hong_kong_ambush.yaml", "coc",
                                fresh=True), "yaml").decode()
    assert "0.0381 m" in text and "0.038099999999999995" not in text


def test_defense_is_measured_over_a_battery_of_attacks():
    """nwod.defense takes dice, so the share of hits it takes away depends on the attack: over
    attacks of 3 to 7 dice, every Defense up to 7 takes a different share (on the one standard
    5-die attack, Defense 5, 6 and 7 all left only the chance die and read alike)."""
    from xsys.core.registry import default_registry

    nwod = default_registry().system("nwod")
    shares = [float(nwod.roll_chance("Defense", d)) for d in range(8)]
    assert shares == sorted(shares) and len(set(shares)) == 8, shares
    assert abs(shares[2] - 0.263) < 1e-3
