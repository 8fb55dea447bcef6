"""The built-in Call of Cthulhu 7th edition system (plugins/coc7): its 7e mechanics (exact
bonus/penalty dice against brute-force enumeration of every die, the success levels, the range
bands and the modifiers as dice, damage, characteristics and the official x5 rule) and its
conversions with every installed system.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
XSYS = Path(sys.executable).with_name("xsys")

from xsys.plugins.coc7 import d100  # noqa: E402
from xsys.plugins.coc7.convert6 import from_6th_edition  # noqa: E402
from xsys.plugins.coc7.model import Coc7Npc, Coc7Shot, build_and_damage_bonus  # noqa: E402
from xsys.plugins.coc7.system import Coc7System, load_tables, mean_after_armor  # noqa: E402
from xsys.plugins.coc.system import CocSystem  # noqa: E402

from xsys.conversions import documents  # noqa: E402
from xsys.core import dice, equating  # noqa: E402
from xsys.core.model import Armor, Barrier, Cover, Light, Shot, standard_shot  # noqa: E402
from xsys.core.trace import Modifier  # noqa: E402
from xsys.core.units import Duration, Energy, Illuminance, Length, Speed  # noqa: E402

SYS = Coc7System()


# =========================================================================================
# 2. Bonus and penalty dice: exact, against brute-force enumeration of every die
# =========================================================================================

def _brute_distribution(dice: int) -> dict[int, Fraction]:
    """Roll the units die and 1 + |dice| tens dice in every combination; keep the lowest
    (bonus) or highest (penalty) result; 00 + 0 reads 100."""
    n = abs(dice)
    counts: dict[int, int] = {}
    for units in range(10):
        for tens in itertools.product(range(10), repeat=n + 1):
            values = [100 if t == 0 and units == 0 else 10 * t + units for t in tens]
            kept = min(values) if dice >= 0 else max(values)
            counts[kept] = counts.get(kept, 0) + 1
    total = 10 ** (n + 2)
    return {v: Fraction(c, total) for v, c in counts.items()}


BRUTE = {k: _brute_distribution(k) for k in range(-2, 3)}


@pytest.mark.parametrize("dice", range(-2, 3))
def test_chance_equals_brute_force_for_every_threshold(dice):
    dist = BRUTE[dice]
    assert sum(dist.values()) == 1
    assert d100.distribution(dice) == dist
    for t in range(0, 101):
        brute = sum((p for r, p in dist.items() if r == 1 or (r <= t and r != 100)), Fraction(0))
        assert d100.chance(t, dice) == brute, (t, dice)


def test_closed_forms_for_tens_aligned_targets():
    # P(d100 <= 50 with one bonus die) = 1 - 0.5^2
    assert d100.chance(50, 1) == 1 - Fraction(1, 2) ** 2 == Fraction(3, 4)
    assert d100.chance(50, -1) == Fraction(1, 2) ** 2
    for k in range(1, 10):
        q = Fraction(k, 10)
        for n in (1, 2):
            assert d100.chance(10 * k, n) == 1 - (1 - q) ** (n + 1)
            assert d100.chance(10 * k, -n) == q ** (n + 1)


def test_worked_values():
    assert d100.chance(45) == Fraction(45, 100)
    # 45 with one penalty die: units 1-5 have 5 good tens faces, units 6-9 and 0 have 4
    assert d100.chance(45, -1) == (5 * Fraction(5, 10) ** 2 + 5 * Fraction(4, 10) ** 2) / 10 == Fraction(41, 200)
    assert d100.chance(45, 2) == Fraction(1659, 2000)
    # only the critical 01: skill 0, or a roll needed above Extreme
    assert d100.chance(0) == Fraction(1, 100)
    assert d100.chance(0, 1) == Fraction(1, 10) * (1 - Fraction(9, 10) ** 2) == Fraction(19, 1000)
    # 100 always fumbles: a skill of 100 still misses on 100
    assert d100.chance(100) == Fraction(99, 100)


def test_success_levels_and_dice_cancelling():
    assert [d100.threshold(45, lvl) for lvl in (d100.REGULAR, d100.HARD, d100.EXTREME)] == [45, 22, 9]
    assert [d100.threshold(99, lvl) for lvl in (0, 1, 2, 3)] == [99, 49, 19, 0]
    assert d100.net_dice(1, 1) == 0 and d100.net_dice(2, 1) == 1 and d100.net_dice(0, 3) == -2
    assert d100.net_dice(4, 0) == 2 and d100.net_dice(3, 4) == -1


def test_chance_monotone_in_threshold_and_dice():
    for dice in range(-2, 3):
        row = [d100.chance(t, dice) for t in range(0, 101)]
        assert row == sorted(row)
    for t in range(0, 101):
        col = [d100.chance(t, dice) for dice in range(-2, 3)]
        assert col == sorted(col)


# =========================================================================================
# 3. The system: skill levels and competence, range bands, modifiers as dice, damage
# =========================================================================================

def _shot(cls="handgun", skill=0.5, distance=10.0, **kw) -> Shot:
    base = standard_shot(cls, skill)
    shooter = msgspec.structs.replace(base.shooter, **kw.pop("shooter", {}))
    target = msgspec.structs.replace(base.target, **kw.pop("target", {}))
    return msgspec.structs.replace(base, shooter=shooter, target=target, distance=Length(distance), **kw)


def check(shot: Shot, extra=(), level: int = 50):
    """The 7e check of `shot` by a shooter with the firing skill at `level`% (check_at)."""
    return SYS.check_at(shot, SYS.skill_for_weapon(shot.weapon.weapon_class), level, extra=extra)


def test_identity_and_registration():
    from xsys.plugins.coc7 import xsys_register_systems

    found = []
    xsys_register_systems(register=found.append)
    assert found == [Coc7System]
    assert (SYS.key, SYS.name, SYS.edition) == ("coc7", "Call of Cthulhu", "7th edition")
    from xsys.core.percentile import PercentileSystem
    from xsys.plugins.coc import CocSystem

    # a d100 system of the core's family (core.percentile), not a subclass of the 6th edition's
    assert issubclass(Coc7System, PercentileSystem) and not issubclass(Coc7System, CocSystem)
    assert all(r.startswith("coc7.") for r in SYS.rule_ids())


def test_every_rule_a_coc7_sheet_or_check_cites_is_its_own():
    """Tiers, derived fields, the close-combat check and the competence rule of a Fighting skill cite
    coc7's rules (they cited coc's coc-ja.* while coc7 inherited them from CocSystem)."""
    from xsys.core.melee import MELEE_BATTERY

    assert {t.rule for t in SYS.tiers("Firearms (Handgun)")} == {"coc7.skills"}
    assert [t.lowest for t in SYS.tiers("Dodge")] == [0, 26, 51, 76, 91]  # the Keeper's chart, as coc's
    assert SYS.derived_fields() == {"HP": (("CON", "SIZ"), "coc7.derived")}
    assert SYS.competence_rule("Fighting (Brawl)") == "coc7.melee"
    cited = set()
    for item in MELEE_BATTERY:
        check = SYS.melee_check_at(item, "Fighting (Brawl)", 50, {"@class": "club", "db": "0"})
        cited |= {m.rule for m in check.modifiers}
    assert cited and all(r.startswith("coc7.") for r in cited), cited


FIREARM_SKILLS = {"Firearms (Handgun)": "handgun", "Firearms (Rifle/Shotgun)": "rifle",
                  "Firearms (Submachine Gun)": "smg", "Firearms (Machine Gun)": "mg", "Throw": "thrown"}


@pytest.mark.parametrize("skill", sorted(FIREARM_SKILLS))
def test_firearm_levels_are_checked_by_7e_rules_and_equated_on_cocs_checks(skill):
    cls = FIREARM_SKILLS[skill]
    assert list(SYS.skill_levels(skill)) == list(range(1, 100))
    # coc7.range: 10 m is within every class's base range and beyond point-blank, so a level's
    # check there is a plain Regular roll
    for level in (1, 25, 50, 99):
        assert SYS.check_at(_shot(cls, distance=10.0), skill, level).chance == Fraction(level, 100)
    # every level is its own step (none of 1-99 shares a battery score) and competence
    # rises strictly with the level; a level's competence is coc's for the same number
    # (coc7.conversion.6e: skills keep their %; System.skill_scale_checks), its true score over
    # every firearm class's battery on coc's checks (core.equating.firearm_score)
    ctx = {"@class": cls}
    assert SYS.skill_ladder(skill, ctx).natives == list(range(1, 100))
    comps = [SYS.competence(skill, lv, ctx) for lv in range(1, 100)]
    assert all(a < b for a, b in zip(comps, comps[1:]))
    expected = (0.5 if cls == "thrown"  # throwing is linked on the published tiers: CoC reads its own chart
                else equating.firearm_score(CocSystem(), 50))
    assert comps[49] == pytest.approx(expected)
    assert all(SYS.level_for(skill, c, ctx) == lv for lv, c in zip(range(1, 100), comps))
    # 0% (critical 01 only, like 1%) and values above 99 read as the nearest level
    assert SYS.competence(skill, 0, ctx) == comps[0] and SYS.competence(skill, 120, ctx) == comps[-1]


@pytest.mark.parametrize("skill", ["Spot Hidden", "Dodge", "Sleight of Hand"])
def test_skills_without_a_battery_are_the_regular_roll(skill):
    for level in range(1, 100):
        assert SYS.roll_chance(skill, level) == Fraction(level, 100)
        assert SYS.competence(skill, level) == pytest.approx(level / 100)


def test_battery_items_through_7e_rules():
    # Firearms (Handgun) 50% over the handgun battery (core.equating.BATTERY, in order)
    shots = equating.battery("handgun")
    got = [SYS.check_at(s, "Firearms (Handgun)", 50).chance for s in shots]
    assert got[0] == d100.chance(50, 2)  # 3 m, aimed: point-blank + aim, two bonus dice
    assert got[1] == Fraction(1, 2)  # the standard shot: a plain Regular roll
    assert got[2] == d100.chance(50, 1)  # aimed
    assert got[3] == d100.chance(25, 1) and got[5] == Fraction(1, 4)  # 20 m: long range, Hard
    assert got[4] == d100.chance(10, 1)  # 40 m: extreme range
    assert got[6] == d100.chance(50, -1)  # full moon: dim light, a penalty die
    assert got[7] == d100.chance(25, -1)  # 15 m (long range), half behind cover
    assert got[9] == Fraction(1, 2)  # walking is not running (coc7.shooter-running)
    assert got[0] == max(got) and got[-1] == min(got) == d100.chance(10, -1)  # easiest and hardest items


def test_generic_check_reads_competence_as_a_level():
    ctx = {"@key": "handgun"}
    for level in (10, 50, 90):
        shot = _shot(skill=SYS.competence("Firearms (Handgun)", level, ctx))
        c = SYS.check(shot)
        assert c.base == level and c.chance == check(shot, level=level).chance
    lo, hi = (SYS.check(_shot(distance=30.0, skill=p)).chance for p in (0.2, 0.4))
    assert lo < hi


def test_standard_health_is_the_mean_adult_hp():
    # coc7.derived: HP = (CON + SIZ) / 10 rounded down, over adults rolled by coc7.characteristics
    ch = load_tables()["characteristics"]
    con, siz = ch["CON"], ch["SIZ"]
    mean = sum(p * q * (((a + con["plus"]) * con["times"] + (b + siz["plus"]) * siz["times"]) // 10)
               for a, p in dice.sum_distribution(con["dice"], con["sides"]).items()
               for b, q in dice.sum_distribution(siz["dice"], siz["sides"]).items())
    assert SYS.standard_health == mean == Fraction(23, 2)
    assert SYS.health_rule == "coc7.derived" and SYS.health_rule in SYS.rule_ids()


def test_range_bands_are_difficulty_levels():
    # a generic handgun: base range 15 yd = 13.716 m (coc7.range)
    cases = [(10, d100.chance(50)), (20, d100.chance(25)), (40, d100.chance(10)),
             (60, d100.chance(10, -1)), (200, d100.chance(10, -2))]
    for distance, expected in cases:
        c = check(_shot(distance=distance))
        assert c.chance == expected, distance
    c = check(_shot(distance=20))
    assert c.target == 25 and "Hard" in c.needs
    assert [m.rule for m in c.modifiers] == ["coc7.range"]
    # said in the table's yards, the shot's metres beside them (not "base range 13.716 m")
    assert c.modifiers[0].why == "20 m (21.9 yd), base range 15 yd: long range (Hard)"
    # braced (bipod, rest): base range x2 -> 20 m is within base range again
    braced = check(_shot(distance=20, shooter={"braced": True}))
    assert braced.chance == Fraction(1, 2) and "base range x2 = 30 yd" in " ".join(braced.notes)


def test_bonus_dice_point_blank_aim_prone_shooter():
    # DEX at the adult median -> DEX 53 -> 53/5 ft = 3.23 m (coc7.point-blank)
    assert check(_shot(distance=3.0)).chance == Fraction(3, 4)
    assert check(_shot(distance=3.5)).chance == Fraction(1, 2)
    assert check(_shot("rifle", distance=3.0)).chance == Fraction(1, 2)  # not for rifles
    aimed = check(_shot(shooter={"aim_time": Duration(6.0)}))
    assert aimed.chance == Fraction(3, 4) and [m.rule for m in aimed.modifiers] == ["coc7.aim"]
    assert check(_shot(shooter={"aim_time": Duration(1.0)})).chance == Fraction(1, 2)
    both = check(_shot(distance=3.0, shooter={"aim_time": Duration(6.0), "posture": "prone"}))
    assert both.chance == d100.chance(50, 2)  # three bonus dice, at most two remain
    assert any("at most 2 remain" in n for n in both.notes)


def test_penalty_dice():
    one = d100.chance(50, -1)
    assert check(_shot(target={"cover": Cover(exposure=0.5)})).chance == one  # coc7.cover
    assert check(_shot(target={"speed": Speed(5.0)})).chance == one  # coc7.fast-target
    assert check(_shot(target={"speed": Speed(2.7)})).chance == Fraction(1, 2)
    assert check(_shot(shooter={"speed": Speed(2.7)})).chance == one  # coc7.shooter-running
    assert check(_shot(target={"posture": "prone"})).chance == one  # coc7.prone-target
    assert check(_shot(distance=3.0, target={"posture": "prone"})).chance == Fraction(3, 4)  # not point-blank
    assert check(_shot(light=Light(illuminance=Illuminance(0.25)))).chance == one  # dim light
    dark = check(_shot(light=Light(illuminance=Illuminance(0.0))))
    assert dark.chance == d100.chance(50, -2)  # darkness: 2 penalty dice
    lit = check(_shot(light=Light(illuminance=Illuminance(0.0), aids=["hand-light"])))
    assert lit.chance == Fraction(1, 2)
    small = check(_shot(target={"cover": Cover(exposure=0.1)}))
    assert small.chance == d100.chance(50, -2)
    assert [m.rule for m in small.modifiers] == ["coc7.cover", "coc7.small-target"]
    # hidden + darkness = 4 penalty dice, at most 2 remain
    worst = check(_shot(target={"cover": Cover(exposure=0.0)}, light=Light(illuminance=Illuminance(0.0))))
    assert worst.chance == d100.chance(50, -2)


def test_every_modifier_is_dice_or_difficulty_with_rule_and_source():
    c = SYS.check(_shot(distance=60, target={"speed": Speed(6.0), "cover": Cover(exposure=0.5)},
                        light=Light(illuminance=Illuminance(0.25))))
    assert {m.kind for m in c.modifiers} <= {"dice", "difficulty"}
    assert all(m.rule.startswith("coc7.") and m.source == "assumed" for m in c.modifiers)


def test_extra_modifiers_apply_by_kind():
    base = _shot()
    assert check(base, [Modifier(rule="house.x", kind="dice", value=1, source="assumed")]).chance == Fraction(3, 4)
    assert check(base, [Modifier(rule="house.x", kind="difficulty", value=1, source="assumed")]).chance == \
        Fraction(25, 100)
    assert check(base, [Modifier(rule="house.x", kind="add", value=10, source="assumed")]).chance == \
        Fraction(60, 100)
    assert check(base, [Modifier(rule="house.x", kind="set", value="05%", source="assumed")]).chance == \
        Fraction(5, 100)


def test_automatic_fire_in_volleys():
    thompson = SYS.find_weapon("thompson-m1928")
    shot = msgspec.structs.replace(_shot("smg", distance=10.0), weapon=thompson, burst=10)
    sit = SYS.situation_from_shot(shot, skill_value=55)
    c = SYS.evaluate(sit)
    # volleys of the skill's tens digit (5): two volleys; the second has one penalty die
    assert c.outcomes["volleys"] == 2
    p0, p1 = d100.chance(55), d100.chance(55, -1)
    e0, e1 = d100.chance(11), d100.chance(11, -1)
    assert c.chance == p0
    assert c.outcomes["any_hit"] == 1 - (1 - p0) * (1 - p1)
    assert c.outcomes["mean_hits"] == (p0 - e0) * 2 + e0 * 5 + (p1 - e1) * 2 + e1 * 5
    # non-automatic weapon, several shots: a penalty die on each (coc7.multiple-shots)
    pistol = check(msgspec.structs.replace(_shot(), burst=3))
    assert pistol.chance == d100.chance(50, -1) and pistol.outcomes["mean_hits"] == 3 * d100.chance(50, -1)


@given(a=st.integers(1, 99), b=st.integers(1, 99), rounds=st.integers(2, 60))
def test_automatic_fire_chance_monotone_in_skill(a, b, rounds):
    lo, hi = sorted((a, b))
    shot = msgspec.structs.replace(_shot("smg"), burst=rounds)
    c_lo = SYS.evaluate(SYS.situation_from_shot(shot, skill_value=lo), with_damage=False).chance
    c_hi = SYS.evaluate(SYS.situation_from_shot(shot, skill_value=hi), with_damage=False).chance
    assert c_lo <= c_hi


def test_damage_and_impales():
    assert mean_after_armor("1D10", 0) == Fraction(11, 2)
    assert mean_after_armor("1D10", 0, impale=True) == 10 + Fraction(11, 2)  # maximum + a roll
    assert mean_after_armor("1D10", 1) == Fraction(45, 10)
    assert mean_after_armor("1D10+2", 20) == 0
    # handgun at the standard shot, skill 50: regular hits 40%, extreme (<= 10) 10%
    c = check(_shot(weapon=SYS.find_weapon("sw-model-10")))
    assert c.damage_mean == pytest.approx(float(Fraction(40, 100) * Fraction(11, 2) + Fraction(10, 100) * Fraction(31, 2)))
    # shotgun shot: 4D6 close, no impale (coc7.damage.shotgun, coc7.impale)
    sg = check(_shot("shotgun", distance=5.0, weapon=SYS.find_weapon("remington-870")))
    assert sg.damage_mean == pytest.approx(float(sg.chance * 14))


@given(a=st.floats(0, 6000), b=st.floats(0, 6000))
def test_damage_mean_non_increasing_with_armor(a, b):
    lo, hi = sorted((a, b))
    light, heavy = (SYS.check(_shot(target={"armor": [Armor(name="x", stops=Energy(s))]})).damage_mean
                    for s in (lo, hi))
    assert heavy <= light


def test_barrier_protects_a_hidden_target_only():
    crates = Barrier(material="soft-wood", thickness=Length(0.05))
    hidden = SYS.check(_shot(target={"cover": Cover(exposure=0.0, barrier=crates)}))
    seen = SYS.check(_shot(target={"cover": Cover(exposure=0.5, barrier=crates)}))
    assert any("soft-wood" in n for n in hidden.notes) and not any("soft-wood" in n for n in seen.notes)
    concrete = SYS.barrier_value(Barrier(material="concrete", thickness=Length(0.1524)))
    assert concrete[0] == 25  # 6 in concrete (coc7.armor)


# =========================================================================================
# 4. Characteristics on the 1-99 scale, the official x5 rule, derived values
# =========================================================================================

def test_characteristic_populations():
    specs = SYS.characteristics()
    assert set(specs) == {"STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU"}
    # a sheet may state any value 1-99; the dice give 3D6 x 5 +-2 (STR) and (2D6 + 6) x 5 +-2
    # (SIZ, EDU): the values outside share a millionth of the population at the ends
    for name, low, high in (("STR", 13, 92), ("SIZ", 38, 92), ("EDU", 38, 92)):
        lad = specs[name].ladder
        assert lad.natives == list(range(1, 100))
        below, above = lad.step_of(low).rep, lad.step_of(high).rep
        assert lad.step_of(low - 1).rep < below and below < 1e-4 * 5 + 1 / 216
        assert lad.step_of(1).rep < 1e-4 and lad.step_of(99).rep > 1 - 1e-4
        assert above < 1 and lad.step_of(high + 1).rep > above


def test_neutral_route_agrees_with_the_official_times_five_rule():
    from xsys.plugins.coc import CocSystem

    coc = CocSystem()
    for name in ("STR", "CON", "SIZ", "DEX", "APP", "INT", "POW"):  # same dice in both editions
        old, new = coc.characteristics()[name].ladder, SYS.characteristics()[name].ladder
        spec = coc.tables()["characteristics"][name]
        for v in range(spec["dice"] + spec["plus"], spec["dice"] * spec["sides"] + spec["plus"] + 1):  # the dice's
            assert new.step_for(old.neutral(v)).native == 5 * v, (name, v)
            for off in (-2, -1, 0, 1, 2):
                assert old.step_for(new.neutral(5 * v + off)).native == v, (name, v, off)


def test_from_6th_edition():
    npc = documents.load(ROOT / "fixtures" / "coc" / "npcs" / "investigator_38.yaml")
    from xsys.plugins.coc import CocNpc

    old = CocNpc(**{f: getattr(npc, f) for f in CocNpc.__struct_fields__})
    res = from_6th_edition(old)
    new = res.value
    assert (new.STR, new.SIZ, new.INT, new.EDU) == (45, 50, 80, 90)
    assert new.skills["Firearms (Handgun)"] == 40 and new.skills["Sleight of Hand"] == 25
    assert new.weapons[0].skill == "Firearms (Handgun)" and new.weapons[0].damage == "1D10"
    assert new.derived_HP == (new.CON + new.SIZ) // 10 == 10


def test_derived_values():
    # cthulhuwiki examples: STR 60 + SIZ 70 -> +1D4, Build 1; CON 50 + SIZ 50 -> 10 HP
    assert build_and_damage_bonus(130) == (1, "+1D4")
    assert [build_and_damage_bonus(x) for x in (64, 65, 124, 164, 204, 205, 284, 285)] == [
        (-2, "-2"), (-1, "-1"), (0, "0"), (1, "+1D4"), (2, "+1D6"), (3, "+2D6"), (3, "+2D6"), (4, "+3D6")]
    npc = Coc7Npc(name="x", STR=60, CON=50, SIZ=50, DEX=40, APP=50, INT=50, POW=55, EDU=50)
    assert (npc.derived_HP, npc.derived_MP, npc.derived_MOV) == (10, 11, 8)


# =========================================================================================
# 5. Conversions: fixtures round-trip, shots round-trip, other systems come in
# =========================================================================================

FIXTURES = ROOT / "fixtures" / "coc7"


def _native(path, kind_type):
    plain = documents.read_plain(path)
    plain = {k: v for k, v in plain.items() if k not in ("system", "kind")}
    from xsys.core import codec

    return msgspec.convert(plain, kind_type, dec_hook=codec.dec_hook)


@pytest.mark.parametrize("name", ["agnes_whitcombe", "silas_crane"])
def test_npc_fixtures_round_trip(name):
    npc = _native(FIXTURES / "npcs" / f"{name}.yaml", Coc7Npc)
    there = SYS.npc_to_neutral(npc)
    assert SYS.npc_from_neutral(there.value).value == npc
    assert all(loss.kind in ("kept-verbatim", "assumed") for loss in there.losses)


def test_scenario_shots_round_trip_and_worked_example():
    plain = documents.read_plain(FIXTURES / "scenarios" / "kingsport_docks.yaml")
    from xsys.core import codec

    shots = [msgspec.convert(s, Coc7Shot, dec_hook=codec.dec_hook) for s in plain["scenes"][0]["shots"]]
    for shot in shots:
        assert SYS.shot_from_neutral(SYS.shot_to_neutral(shot).value).value == shot, shot.name
    gangway = SYS.check_native(shots[3])
    assert gangway.chance == Fraction(1659, 2000)  # 45%, point-blank + aimed: two bonus dice
    agnes = _native(FIXTURES / "npcs" / "agnes_whitcombe.yaml", Coc7Npc)
    assert SYS.check_native(shots[1], agnes).chance == d100.chance(22, -1)  # long range, partial cover


def test_npc_from_another_system_gets_derived_values():
    from xsys.core.model import Combatant

    comb = Combatant(name="x", characteristics={"strength": 0.5, "size": 0.5, "constitution": 0.5},
                     skills={"handgun": 0.4, "shotgun": 0.3, "rifle": 0.5})
    res = SYS.npc_from_neutral(comb)
    npc = res.value
    assert npc.skills["Firearms (Handgun)"] == SYS.level_for("Firearms (Handgun)", 0.4, {"@key": "handgun"})
    rifle, shotgun = (SYS.level_for("Firearms (Rifle/Shotgun)", p, {"@key": k}) for k, p in
                      (("rifle", 0.5), ("shotgun", 0.3)))
    assert npc.skills["Firearms (Rifle/Shotgun)"] in (rifle, shotgun)
    # rifle and shotgun share one 7e skill: the loss names both levels
    (merged,) = [loss for loss in res.losses if loss.kind == "merged"]
    assert f"rifle {rifle}" in merged.message and f"shotgun {shotgun}" in merged.message
    # back to neutral, the handgun competence is the nearest 7e level's
    back = SYS.npc_to_neutral(npc).value.skills["handgun"]
    assert back == SYS.competence("Firearms (Handgun)", npc.skills["Firearms (Handgun)"], {"@key": "handgun"})
    assert abs(back - 0.4) < 0.01
    assert npc.HP == npc.derived_HP and npc.MOV == npc.derived_MOV


def test_neutral_shot_round_trips_through_native():
    shot = _shot(distance=30.0, shooter={"aim_time": Duration(6.0), "speed": Speed(5.0)},
                 target={"speed": Speed(5.0), "posture": "prone", "cover": Cover(exposure=0.5)},
                 light=Light(illuminance=Illuminance(0.25), aids=["hand-light"]))
    native = SYS.shot_from_neutral(shot).value
    assert (native.aiming, native.shooter_running, native.target_full_speed, native.target_cover, native.light) == \
        (True, True, True, "partially concealed", "dim light")
    again = SYS.shot_to_neutral(native).value
    assert SYS.check(again).chance == SYS.check(shot).chance


# =========================================================================================
# 7. The plugin's fixtures convert to every installed system (in process, via a registry
#    that adds the source plugin to the installed ones)
# =========================================================================================

@pytest.fixture(scope="module")
def registry():
    from xsys.core.registry import default_registry

    return default_registry()


@pytest.mark.parametrize("path", sorted(FIXTURES.rglob("*.yaml")), ids=lambda p: p.name)
def test_fixtures_convert_to_every_system(registry, path):
    import yaml

    from xsys.conversions import api
    from xsys.core import codec

    def plain(doc):
        out = json.loads(codec.json_encode(doc))
        out.pop("xsys", None)
        return out

    loaded = api.load(path, registry=registry)
    original = plain(loaded.document)
    for to in [k for k in registry.keys() if k != "coc7"] + ["neutral"]:
        there = api.convert(loaded, to, registry=registry)
        assert there.document.system == to and there.document.kind == loaded.kind
        # through a file, unedited: back to the original
        written = yaml.safe_load(api.dump(there, "yaml"))
        back = api.convert(api.from_plain(written, "<file>", registry=registry), "coc7", registry=registry)
        assert plain(back.document) == original, f"{path.name}: coc7 -> {to} -> coc7 changed it"
        # edited (no origin block): converted afresh, still a valid coc7 document
        written.pop("xsys", None)
        fresh = api.convert(api.from_plain(written, "<edited>", registry=registry), "coc7", registry=registry)
        assert fresh.document.system == "coc7" and fresh.document.kind == loaded.kind
        assert getattr(fresh.document, "name", None) == getattr(loaded.document, "name", None)


def test_a_grenade_is_the_7e_tables_hand_grenade_not_dice_from_its_energy():
    """coc7.weapons (assumed): a Keeper writes a hand grenade as the 7th-edition table does,
    4D10/3 yards, 1/2 per round, malfunction 99; from its energy (1300 J) it was 1D10+1D4+2, like a
    rifle round. The blast still does not cross, and says so; the Polish damage comes back."""
    from xsys.conversions import api
    from xsys.core import codec

    src = codec.to_builtins(api.load(ROOT / "fixtures" / "pl-trudnosc" / "npcs" / "sierzant_kowalski.yaml").document)
    src.pop("xsys", None)
    conv = api.convert(api.from_plain(src), "coc7", fresh=True, trace=False)
    doc = codec.to_builtins(conv.document)
    nade = next(w for w in doc["weapons"] if w["name"] == "Granat obronny F-1")
    assert (nade["skill"], nade["damage"], nade["uses_per_round"], nade["malfunction"]) == ("Throw", "4D10", "1/2", 99)
    said = [x.message for x in conv.losses if "Granat" in x.message]
    assert any("[grenade]" in m and "4D10/3 yards" in m and "did not cross" in m for m in said), said
    assert any("blast" in m and "did not cross" in m for m in said)
    doc.pop("xsys", None)
    back = codec.to_builtins(api.convert(api.from_plain(doc), "pl-trudnosc", fresh=True, trace=False).document)
    assert next(w for w in back["broń"] if w["nazwa"] == "Granat obronny F-1")["obrażenia"] == 6


def test_sixth_edition_skills_seventh_edition_does_not_have_are_not_written_on_a_7e_sheet():
    """coc7.conversion.6e: Grapple is a Fighting (Brawl) manoeuvre in 7th edition and Off-hand
    Shooting no skill at all; a 7e sheet that printed them (Grapple 50 beside Fighting (Brawl) 65)
    was one a Keeper corrects by hand. Each is said and carried, so coc-zh gets it back."""
    from xsys.conversions import api
    from xsys.core import codec

    src = codec.to_builtins(api.load(ROOT / "fixtures" / "coc-zh" / "npcs" / "hk_bodyguard.yaml").document)
    src.pop("xsys", None)
    assert src["skills"]["Grapple"] == 50 and src["skills"]["Off-hand Shooting"] == 30
    conv = api.convert(api.from_plain(src), "coc7", fresh=True, trace=False)
    doc = codec.to_builtins(conv.document)
    assert "Grapple" not in doc["skills"] and "Off-hand Shooting" not in doc["skills"]
    said = {x.path: x.message for x in conv.losses if x.rule == "coc7.conversion.6e"}
    assert "Fighting (Brawl) manoeuvre" in said["$.skills.Grapple"]
    assert "penalty die" in said["$.skills.Off-hand Shooting"]
    doc.pop("xsys", None)
    back = codec.to_builtins(api.convert(api.from_plain(doc), "coc-zh", trace=False).document)
    assert back["skills"]["Grapple"] == 50 and back["skills"]["Off-hand Shooting"] == 30


def _plain_doc(path):
    from xsys.conversions import api
    from xsys.core import codec

    doc = codec.to_builtins(api.load(path).document)
    doc.pop("xsys", None)
    return doc


def test_a_sixth_edition_kick_is_a_brawl_attack_on_a_7e_sheet():
    """coc7.conversion.6e: Kick and Head Butt are Fighting (Brawl) attacks in 7th edition, not
    skills: a 6e bootlegger's Kick 40 beside Fist/Punch 70 is not written as a 7e skill, his Kick
    line is rolled with Fighting (Brawl) at 7th edition's unarmed 1D3+DB (not the 6th-edition kick's
    1D6), and a trip back to 6th edition has Kick 40 and its 1d6+db line again."""
    from xsys.conversions import api
    from xsys.core import codec

    conv = api.convert(ROOT / "fixtures/corpus/text-coc/en6-bootlegger-idea.txt", "coc7", fresh=True, trace=False)
    doc = codec.to_builtins(conv.document)
    assert "Kick" not in doc["skills"] and doc["skills"]["Fighting (Brawl)"] == 70
    kick = next(m for m in doc["melee"] if m["name"] == "Kick")
    assert kick["skill"] == "Fighting (Brawl)" and kick["damage"] == "1D3+DB"
    said = {x.path: x.message for x in conv.losses if x.rule == "coc7.conversion.6e"}
    assert "is a Fighting (Brawl) attack there (Fighting (Brawl) 70 on this sheet)" in said["$.skills.Kick"]
    back = codec.to_builtins(api.convert(api.from_plain(codec.to_builtins(conv.document)), "coc",
                                         trace=False).document)
    assert back["skills"]["Kick"] == 40
    # (the block prints "1D6+1D4" beside its damage bonus +1D4: read as 1d6+db)
    assert next(m for m in back["melee"] if m["name"] == "Kick") == {"name": "Kick", "skill": "Kick",
                                                                     "damage": "1d6+db"}
    # a kicker who states no punch: his Kick 70 is his unarmed competence (coc-ja.melee), so the
    # 7e Brawl is 70, and the Kick itself is said not to be a 7e skill
    kicker = api.convert(ROOT / "fixtures/corpus/ccfolia/vampireblood-6e-kanzaki.json", "coc7", fresh=True,
                         trace=False)
    assert kicker.document.skills["Fighting (Brawl)"] == 70 and "Kick" not in kicker.document.skills
    (said,) = [x for x in kicker.losses if x.path == "$.skills.Kick" and x.rule == "coc7.conversion.6e"]
    assert said.message.endswith("it is a Fighting (Brawl) attack there (Fighting (Brawl) 70 on this sheet); "
                                 "not written on the coc7 sheet")
    assert not [x for x in kicker.losses if x.message.startswith("Fighting (Brawl): the skill")]
    # a Grapple better than a 7e Brawl the sheet would write is that Brawl (the better passes)
    grappler = {**_plain_doc(ROOT / "fixtures/coc-zh/npcs/pmc_contractor.yaml"), "skills": {"Grapple": 60}}
    conv = api.convert(api.from_plain(grappler), "coc7", fresh=True, trace=False)
    assert conv.document.skills["Fighting (Brawl)"] == 60
    (merged,) = [x for x in conv.losses if x.path == "$.skills.Grapple" and x.rule == "coc7.conversion.6e"]
    assert merged.kind == "merged" and merged.message.endswith(
        "better than the NPC's Fighting (Brawl) (not stated; untrained 25): Fighting (Brawl) 60 is written")
    from xsys.conversions.convert import dump

    back = api.convert(api.from_plain(msgspec.yaml.decode(dump(kicker, "yaml"))), "coc", trace=False).document
    assert back.skills["Kick"] == 70 and "Fist/Punch" not in back.skills  # the sheet he came from


def test_a_handgun_named_for_a_revolver_cartridge_is_a_revolver_in_every_system():
    """vocab.REVOLVER_CARTRIDGES, read once in the core (Catalog.weapon_class_named): the dock
    brute's 'Colt Police Positive (.38 Special)' fired with Handgun was a revolver in nWoD alone
    (its own check) and an automatic in coc7 (the handgun row, malfunction 99)."""
    from xsys.conversions import api
    from xsys.core.registry import catalog

    assert catalog().weapon_class_named("Colt Police Positive (.38 Special)", "handgun") == "revolver"
    assert catalog().weapon_class_named("Walther PPK (7.65 mm)", "handgun") == "handgun"
    assert catalog().weapon_class_named("Glock 17", "handgun") == "handgun"
    src = api.load(ROOT / "fixtures" / "coc" / "npcs" / "dock_brute.yaml")
    neutral = api.convert(src, "neutral", fresh=True, trace=False).document
    assert neutral.weapons[0].weapon_class == "revolver"
    c7 = api.convert(src, "coc7", fresh=True, trace=False).document
    assert (c7.weapons[0].uses_per_round, c7.weapons[0].malfunction) == ("1 (3)", 100)
    nwod = api.convert(src, "nwod", fresh=True, trace=False).document
    assert nwod.weapons[0].type == "Revolver, Lt."


@pytest.mark.parametrize("key, line, said", [
    ("coc7", {"name": "Mystery vest", "armor": 25}, "stops read from 18 points, the armor table's nearest row to the "
                                                    "stated 25 points"),
    ("coc", {"name": "Mystery vest", "A": 50, "B": 25}, "stops read from A 40, the armor table's nearest row to the "
                                                         "stated A 50"),
])
def test_an_armor_line_past_the_rows_says_which_row_it_was_read_as(key, line, said):
    """An armor line in no catalog, whose points the armor table has no row for (beyond its last
    row: coc7 25, coc A 50), is read at the nearest row, and the loss says so beside the stated value
    (core.percentile)."""
    from xsys.core.registry import get_system
    from xsys.core.trace import Collector

    system = get_system(key)
    col = Collector(key)
    armor = system.armor_to_neutral(msgspec.convert(line, _armor_type(system)), col, "$.armor[0]")
    assert float(armor.stops) == system.armor_ladders()["armor.worn"].neutral(18 if key == "coc7" else 40)
    messages = [loss.message for loss in col.result(None).losses]
    assert any(said in m for m in messages), messages


@pytest.mark.parametrize("key, line, joules, said", [
    ("coc", {"name": "Hide", "A": 3, "B": 1.5}, 109.7, "stops read from A 3 (109.7 J)"),
    ("coc", {"name": "Hide", "A": 9, "B": 4.5}, 789.0, "stops read from A 9 (789 J)"),
    ("coc7", {"name": "Hide", "armor": 3}, 289.4, "stops read from 3 points (289.4 J)"),
])
def test_whole_points_between_two_rows_are_rows_on_the_power_law_through_them(key, line, joules, said):
    """The whole points between two rows of a d100 armor list (coc's 1 @ 20 J and 6 @ 321 J; coc7's
    2 @ 250 J and 4 @ 321 J) are rows of their own, at the joules of the power law through the two
    ([armor] between = "power", assumed): a 3-point hide stops 110 J, not the leather jacket's 20."""
    from xsys.core.registry import get_system
    from xsys.core.trace import Collector

    system = get_system(key)
    col = Collector(key)
    armor = system.armor_to_neutral(msgspec.convert(line, _armor_type(system)), col, "$.armor[0]")
    assert float(armor.stops) == joules
    step = system.armor_ladders()["armor.worn"].step_of(line.get("A", line.get("armor")))
    assert step.source == "assumed" and "between" in step.label
    losses = col.result(None).losses
    assert [(x.kind, x.rule) for x in losses if said in x.message] == [("assumed", system.armor_table_rule)]


def test_power_law_rows_keep_gurps_dr_in_order_both_ways():
    """GURPS DR 2-7 and coc's 1-6 points meet at their own steps, in order, with no cliff (DR 4 had been
    coc 1 and DR 8 coc 6; coc 3 had been DR 1 and coc 4 DR 7), and coc's 2-8 points come back from
    GURPS as they were."""
    from xsys.core.registry import get_system
    from xsys.core.model import Armor
    from xsys.core.units import Energy

    coc, gurps = get_system("coc"), get_system("gurps")
    to_coc = [coc.armor_value(Armor(name="x", stops=Energy(gurps.ladder("dr").neutral(dr))))[0]
              for dr in range(1, 13)]
    assert to_coc == sorted(to_coc) and to_coc[:7] == [0, 1, 2, 3, 4, 5, 6]
    lad = coc.armor_ladders()["armor.worn"]
    to_dr = [gurps.ladder("dr").step_for(lad.neutral(a)).native for a in range(1, 9)]
    assert to_dr == sorted(to_dr) and to_dr[:6] == [1, 3, 4, 5, 6, 7]
    back = [coc.armor_value(Armor(name="x", stops=Energy(gurps.ladder("dr").neutral(d))))[0] for d in to_dr]
    assert back[1:] == list(range(2, 9))


def _armor_type(system):
    from xsys.plugins.coc.model import CocArmor
    from xsys.plugins.coc7.model import Coc7Armor

    return Coc7Armor if system.key == "coc7" else CocArmor


def test_a_d100_system_of_its_own_finds_its_tables_and_armor_file_in_its_own_package(tmp_path, monkeypatch):
    """A third party's PercentileSystem that declares neither tables() nor armor_file reads the
    tables.toml and armor.toml beside its class (core.percentile), not the core's or coc's."""
    import importlib
    import sys
    import textwrap

    pkg = tmp_path / "xsys_d100_probe"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "system.py").write_text(textwrap.dedent('''
        from xsys.core.percentile import PercentileSystem

        class Probe(PercentileSystem):
            key = "d100-probe"
            rule_prefix = "probe."
    '''))
    (pkg / "tables.toml").write_text('[rule]\n"probe.roll" = { source = "assumed", text = "d100" }\n'
                                     '[resolution]\nimpale_divisor = 4\n')
    (pkg / "armor.toml").write_text('[armor]\nrule = "probe.armor"\n'
                                    'worn = [{ A = 0, at = "0 J" }, { A = 3, at = "500 J" }]\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    probe = importlib.import_module("xsys_d100_probe.system").Probe()
    try:
        assert probe.rule_source("probe.roll") == "assumed"
        assert probe.impale_threshold(50) == 13  # ceil(50 / 4), its own [resolution]
        assert probe.resolve(50).success == Fraction(1, 2)
        assert probe.armor_ladders()["armor.worn"].natives == [0, 3]
    finally:
        sys.modules.pop("xsys_d100_probe.system", None)
        sys.modules.pop("xsys_d100_probe", None)


def test_an_armor_line_is_kept_alike_in_both_editions():
    """One armor line, one answer: a GURPS vest with PD 2 on the torso and arms, and a catalog
    jacket at a DR that stops more than the catalog's, are written by coc and coc7 alike, keeping
    what their points would not give back (the joules, the coverage, the deflection, said
    ``kept-verbatim``); each comes back to GURPS with its PD, locations and DR (coc7 dropped the
    vest's PD and arms and read the jacket back as the catalog's 20 J)."""
    from xsys.conversions import api

    doc = {"system": "gurps", "kind": "npc", "name": "Armored courier", "ST": 10, "DX": 11, "IQ": 10, "HT": 11,
           "skills": {"Guns (Pistol)": 12},
           "armor": [{"name": "Tactical vest", "PD": 2, "DR": 12, "locations": ["torso", "arms"]},
                     {"name": "Heavy leather jacket", "PD": 1, "DR": 3, "catalog": "heavy-leather-jacket"}]}
    lines = {}
    for to in ("coc", "coc7"):
        conv = api.convert(api.from_plain(doc, "courier.yaml"), to, trace=False)
        plain = msgspec.to_builtins(conv.document, enc_hook=str)
        lines[to] = [{k: v for k, v in a.items() if k in ("stops", "covers", "deflection")} for a in plain["armor"]]
        kept = [x for x in conv.losses if x.kind == "kept-verbatim" and x.path.startswith("$.armor")]
        assert [x.path for x in kept] == ["$.armor[0]"] and "deflection 2" in kept[0].message, kept
        back = api.convert(api.from_plain(plain, "courier." + to + ".yaml"), "gurps", trace=False, fresh=True)
        armor = msgspec.to_builtins(back.document)["armor"]
        assert [(a["PD"], a["DR"]) for a in armor] == [(2, 12), (1, 3)], armor
        assert armor[0]["locations"] == ["torso", "arms"], armor
    assert lines["coc7"] == lines["coc"]
    assert lines["coc7"][0] == {"stops": "912 J", "covers": ["torso", "arms"], "deflection": 2}
    assert lines["coc7"][1]["stops"] == "72.5 J"  # DR 3, not the catalog jacket's 20 J


def test_a_coc7_sheet_converted_to_coc7_keeps_every_fighting_skill_and_a_level_under_its_base():
    """A 7th-edition sheet's own numbers come back from coc7 to coc7: Fighting (Spear) 45 beside
    Sword 85 (one neutral melee holds only the best: the names are remembered), and a Dodge 30
    under DEX / 2 = 32, a Brawl 20 under its base 25 (the sheet states them; a number from another
    system would be floored)."""
    from xsys.conversions import api

    doc = {"system": "coc7", "kind": "npc", "name": "Viking", "STR": 90, "CON": 95, "SIZ": 90, "DEX": 65,
           "APP": 40, "INT": 55, "POW": 85, "EDU": 45,
           "skills": {"Dodge": 30, "Fighting (Brawl)": 20, "Fighting (Sword)": 85, "Fighting (Spear)": 45},
           "melee": [{"name": "Sword", "skill": "Fighting (Sword)", "damage": "1D8+DB"},
                     {"name": "Spear", "skill": "Fighting (Spear)", "damage": "1D8+DB"}]}
    out = api.convert(api.from_plain(doc), "coc7", trace=False)
    assert out.document.skills == doc["skills"]
    assert not [x for x in out.losses if x.kind == "clamped"]
    # a number from another system is floored as before: coc's Dodge 30 for this DEX is coc7's 32
    sixth = {**doc, "system": "coc", "STR": 18, "CON": 19, "SIZ": 18, "DEX": 13, "APP": 8, "INT": 11, "POW": 17,
             "EDU": 9, "skills": {"Dodge": 30}, "melee": []}
    assert api.convert(api.from_plain(sixth), "coc7", fresh=True, trace=False).document.skills["Dodge"] == 32


_FIGHTER = {"system": "coc7", "kind": "npc", "name": "Fighter", "STR": 60, "CON": 55, "SIZ": 45, "DEX": 70, "APP": 50,
            "INT": 60, "POW": 55, "EDU": 50}


@pytest.mark.parametrize("skill, level", [("Fighting (Sword)", 60), ("Fighting (Whip)", 45), ("Fighting (Whip)", 15)])
def test_a_fighting_skill_with_no_line_stays_on_its_own_sheet(skill, level):
    """A coc7 NPC's Fighting (Sword) 60, stated with no sword line, converted to coc7 (what every
    Dhole's House or Foundry reading into coc7 is): the sword skill stays; it had become Brawl's
    ("is Fighting (Brawl) in 7th edition, which it has at 40: the 60 is not written") and been
    lost. A Whip 15 under the Sword and Spear bases: kept, with no word of a Sword or Spear at its
    untrained level that is not written."""
    from xsys.conversions import api

    doc = {**_FIGHTER, "skills": {skill: level, "Fighting (Brawl)": 40}}
    out = api.convert(doc, "coc7", trace=False)
    assert out.document.skills == {skill: level, "Fighting (Brawl)": 40}
    assert [x.message for x in out.losses if x.level == "warning"] == []
    # and through GURPS with --fresh: the sword skill's weapon crosses (Broadsword), and back
    gurps = api.convert(doc, "gurps", trace=False)
    if skill == "Fighting (Sword)":
        assert "Broadsword" in gurps.document.skills
        from xsys.core import codec

        back = api.convert(api.from_plain(codec.to_builtins(gurps.document)), "coc7", fresh=True, trace=False)
        assert "Fighting (Sword)" in back.document.skills


def test_the_skills_of_one_neutral_skill_left_unwritten_are_said_in_one_line():
    """A Fighting (Whip) 15 into GURPS: Knife, Axe/Mace, Broadsword, Shortsword, Spear and Staff all
    lie below their defaults and none is written: one line names them all (they had been merged
    into a line with the brackets nested: 'Knife 6 (... (Knife 9, Axe/Mace 6 (...')."""
    from xsys.conversions import api

    out = api.convert({**_FIGHTER, "skills": {"Fighting (Whip)": 15}}, "gurps", trace=False)
    (line,) = [x.message for x in out.losses if x.path == "$.skills.Fighting (Whip)" and x.kind == "clamped"]
    assert line.startswith("Knife 6, Axe/Mace 6, Broadsword 6, Shortsword 6, Spear 6 and Staff 6 (melee competence "
                           "0.014) lie below what this NPC has untrained in gurps (Knife 9, Axe/Mace 8, Broadsword 8, "
                           "Shortsword 8, Spear 8 and Staff 8); a gurps sheet lists no skill at that level")


def test_a_line_named_shotgun_fired_with_rifle_shotgun_is_a_shotgun():
    """The CoC7 system's own example Goon carries a 'Shotgun' of one damage roll (no range bands),
    fired with Firearms (Rifle/Shotgun): a shotgun, as its name says (it had crossed as a rifle, and
    GURPS wrote it Guns (Rifle) with a rifle's Acc 11 and 1/2D 1000)."""
    from xsys.conversions import api

    doc = {**_FIGHTER, "skills": {"Firearms (Rifle/Shotgun)": 40},
           "weapons": [{"name": "Shotgun", "skill": "Firearms (Rifle/Shotgun)", "damage": "1D6", "base_range": "15 yd"}]}
    gun = api.convert(doc, "gurps", trace=False).document.weapons[0]
    assert (gun.skill, gun.Acc) == ("Guns (Shotgun)", 5)
