"""CoC rule defects: each test cites the rule ID it holds the plugin to
(shared/rules/coc-ja-firearms.md; the the Japanese CoC firearms text wins)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from xsys.core.units import Length
from xsys.plugins.coc import CocNpc, CocShot, CocSystem, rules

SYS = CocSystem()


def shot(**kw) -> CocShot:
    kw.setdefault("weapon", "colt-m1911a1")
    kw.setdefault("distance", Length(10))
    kw.setdefault("skill_value", 50)
    return CocShot(**kw)


# ---- coc-ja.stance.off-hand / coc-ja.skill.off-hand-shooting -----------------------------

def test_off_hand_smg_example_is_35_not_halved_again():
    """coc-ja.skill.off-hand-shooting example: Off-hand Shooting 40, Handgun 50, SMG 35 ->
    off hand Handgun 40%, SMG 35%. coc-ja.stance.off-hand: any gun in the off hand is halved
    once, not again as a one-handed long arm."""
    smg = SYS.check_native(shot(weapon="thompson-m1928", skill_value=35, hold="off-hand", off_hand_skill=40))
    assert smg.chance == F(35, 100)
    hg = SYS.check_native(shot(skill_value=50, hold="off-hand", off_hand_skill=40))
    assert hg.chance == F(40, 100)
    # without the skill: SMG 36 in the off hand is halved once (18), not twice (9)
    half = SYS.check_native(shot(weapon="thompson-m1928", skill_value=36, hold="off-hand"))
    assert half.chance == F(18, 100) and "coc-ja.stance.long-arm-one-hand" not in half.rules()
    # a long arm one-handed in the good hand is still halved (coc-ja.stance.long-arm-one-hand)
    one = SYS.check_native(shot(weapon="thompson-m1928", skill_value=36, hold="one-handed"))
    assert one.chance == F(18, 100) and "coc-ja.stance.long-arm-one-hand" in one.rules()


# ---- coc-ja.aimed.location -----------------------------------------------------------------

def test_called_shot_any_success_hits_and_the_fifth_hits_the_location():
    """coc-ja.aimed.location: a roll <= 1/5 of the chance hits the chosen location; any other
    success still hits. chance = any hit; outcomes['location'] the location part; the impale
    is 1/5 of the chance (the same threshold), not 1/5 of the location's 1/5 (1/25)."""
    c = SYS.check_native(shot(distance=Length(20), skill_value=45, called_location="head", support="braced"))
    S = 50  # 45 + 5 two-handed, within twice the base range (braced)
    assert c.chance == F(S, 100)
    assert c.outcomes["location"] == F(10, 100)
    assert c.outcomes["impale"] == F(10, 100)  # not ceil(10 / 5) = 2
    assert "coc-ja.aimed.location" in c.rules()
    # damage: the head hits (10%) roll twice, the other hits (40%) once
    plain = SYS.check_native(shot(distance=Length(20), skill_value=45, support="braced"))
    assert c.damage_mean == pytest.approx(plain.damage_mean)  # same split: impales = location hits


def test_called_shot_at_a_barely_visible_target_hits_only_the_location():
    """coc-ja.aimed.location with coc-ja.cover.exposure: a target showing only its head can be
    hit only there, on <= 1/5; every such hit is also an impale (same threshold)."""
    c = SYS.check_native(shot(skill_value=45, called_location="head", support="braced", target_exposure="head only"))
    assert c.chance == F(10, 100) and c.outcomes["location"] == c.chance and c.outcomes["impale"] == c.chance
    # not called: the same 1/5 (coc-ja.cover.exposure), and its hits impale alike, not at 1/25
    u = SYS.check_native(shot(skill_value=45, support="braced", target_exposure="head only"))
    assert u.chance == F(10, 100) and u.outcomes["impale"] == u.chance


# ---- coc-ja.mozambique -------------------------------------------------------------------

def test_mozambique_every_success_impales_and_its_cost_is_stated():
    """coc-ja.mozambique: the third shot at 1/5 of the skill; success is automatically an aimed
    location shot and an impale; cost: no shot at the next DEX rank, no Dodge that round."""
    c = SYS.check_native(shot(weapon="glock-17", skill_value=80, DEX=12, distance=Length(5), hold="one-handed",
                              fire="mozambique"))
    assert c.chance == F(16, 100)
    assert c.outcomes["impale"] == c.chance and c.outcomes["location"] == c.chance
    assert any("next DEX rank" in n and "Dodge" in n for n in c.notes)
    assert not any("not allowed" in n for n in c.notes)


# ---- coc-ja.autofire.order ----------------------------------------------------------------

def test_large_target_bonus_after_the_burst_reduction():
    """coc-ja.autofire.order: range first, then the burst reduction (floor 5%), then the
    equipment bonuses and the large target's +5 per 10 SIZ above 30: SMG 30, 30 rounds,
    SIZ 50 -> max(5, 30 - 3 x 29) + 10 = 15, not 5."""
    c = SYS.check_native(shot(weapon="thompson-m1928", skill_value=30, fire="full auto", rounds=30, target_SIZ=50))
    assert c.target == 15
    assert "coc-ja.autofire.order" in c.rules()


def test_large_target_bonus_on_a_single_shot_is_not_halved_by_range():
    """coc-ja.autofire.order: the bonus comes after the range multiplier (45 m, base range
    15 m -> x1/4: ceil(55 / 4) = 14, + 10)."""
    c = SYS.check_native(shot(skill_value=50, distance=Length(45), target_SIZ=50))
    assert c.chance == F(14 + 10, 100)


# ---- coc-ja.sight.nvg ---------------------------------------------------------------------

def test_night_vision_goggles_need_a_compatible_sight_for_location_shots():
    """coc-ja.sight.nvg: goggles cancel the dimness and starlight penalties, but do not by
    themselves allow aimed location shots; a reflex, dot or laser sight does."""
    base = dict(light="starlight", light_aids=["night-vision goggles"], called_location="head", support="braced",
                skill_value=45)
    iron = SYS.check_native(shot(**base))
    assert "location" not in iron.outcomes and iron.chance == F(50, 100)
    assert any("coc-ja.sight.nvg" in n for n in iron.notes)
    laser = SYS.check_native(shot(sights="laser", **base))
    assert laser.outcomes["location"] == F(10, 100)
    # a night-vision sight on the gun is itself the aiming sight (coc-ja.sight.night-vision)
    nv = SYS.check_native(shot(**{**base, "light_aids": []}, sights="nv-sight"))
    assert nv.outcomes["location"] == F(10, 100)


# ---- rules the README listed without code ----------------------------------------------------

def test_two_guns_suppressive_spray_hits_a_random_target():
    """coc-ja.stance.two-guns: spraying with both guns, a hit strikes a random target
    (equally likely: assumed); each gun rolls at 1/5."""
    assert rules.two_guns_spray_target(["a", "b", "c"]) == {"a": F(1, 3), "b": F(1, 3), "c": F(1, 3)}
    assert rules.two_guns_chance(50) == 10
    with pytest.raises(ValueError):
        rules.two_guns_spray_target([])


def test_suppressed_defender_unaimed_spray():
    """coc-ja.autofire.suppression: a suppressed defender may still spray unaimed: up to
    2 x ROF shots, each at 1/5 of the chance."""
    assert rules.suppressed_spray(48, 3) == (6, 10)
    assert rules.suppressed_spray(50, 1) == (2, 10)


def test_loading_one_loose_round_and_firing_it():
    """coc-ja.reload.loose-rounds: 1 loose round loaded and fired at DEX x 1/2 in one round;
    after a successful firearm roll, 2 loaded and fired at DEX x 1/2."""
    assert rules.reload_and_fire("loose", 13) == (1, 7)
    assert rules.reload_and_fire("loose", 12, skill_success=True) == (2, 6)
    assert rules.reload_and_fire("magazine", 12, skill_success=True) == (0, 6)
    with pytest.raises(ValueError):
        rules.reload_and_fire("magazine", 12)


def test_readme_lists_no_rule_as_implemented_without_code():
    from pathlib import Path

    text = (Path(rules.__file__).parent / "README.md").read_text(encoding="utf-8")
    for fn in ("two_guns_spray_target", "suppressed_spray", "reload_and_fire"):
        assert f"rules.{fn}" in text and callable(getattr(rules, fn))
    assert "nvg_location" in text


# ---- coc-ja.skills: 96-100 ----------------------------------------------------------------

@pytest.mark.parametrize("skill,key", [("Handgun", "handgun"), ("Rifle", "rifle"), ("SMG", "smg"),
                                       ("Shotgun", "shotgun"), ("Machine Gun", "mg")])
def test_skill_96_to_100_is_not_silently_rounded(skill, key):
    """coc-ja.skills: a level the equating cannot tell from a lower one (Handgun 97 = 96 on
    every battery item: +5 two-handed takes both past 100%) is reported as rounded and kept,
    so an NPC round trip gives it back; every other level 96..100 comes back by itself."""
    ctx = {"@key": key}
    for level in range(96, 101):
        back = SYS.level_for(skill, SYS.competence(skill, level, ctx), ctx)
        npc = CocNpc(name="x", STR=10, CON=10, SIZ=13, DEX=10, APP=10, INT=13, POW=10, EDU=13,
                     skills={skill: level})
        res = SYS.npc_to_neutral(npc)
        rounded = [x for x in res.losses if x.kind == "rounded" and x.path == f"$.skills.{skill}"]
        assert SYS.npc_from_neutral(res.value).value.skills[skill] == level
        nshot = SYS.shot_to_neutral(shot(weapon={"Handgun": "colt-m1911a1", "Rifle": "winchester-70-30-06",
                                                 "SMG": "thompson-m1928", "Shotgun": "remington-870",
                                                 "Machine Gun": "thompson-m1928"}[skill], skill=skill,
                                         skill_value=level))
        shot_rounded = [x for x in nshot.losses if x.kind == "rounded" and x.path == "$.skill_value"]
        if back == level:
            assert not rounded and not shot_rounded
        else:
            assert rounded and shot_rounded and str(back) in shot_rounded[0].message
