"""Worked examples and formulas of the Japanese CoC firearms rules (coc-ja.*), exact."""

from fractions import Fraction as F

import pytest

from xsys.plugins.coc import rules


# ---- coc-ja.resistance ---------------------------------------------------------------

@pytest.mark.parametrize("active,passive,pct", [
    (5, 5, 50), (6, 5, 55), (6, 10, 30),
    (9, 0, 95), (10, 0, 100), (15, 0, 100),      # +10 or more: automatic success
    (0, 9, 5), (0, 10, 0), (0, 18, 0),           # -10 or less: automatic failure
])
def test_resistance_table_and_clamps(active, passive, pct):
    assert rules.resistance(active, passive) == F(pct, 100)


# ---- coc-ja.conceal.example: Karl ------------------------------------------------------

def test_karl_example_1_mp5_under_jacket_55_percent():
    # MP5A3 with the stock collapsed ("medium weapon", <= 80 cm: x1), ordinary jacket (x1),
    # carried on a sling (the example applies no x1/2; README, ambiguity 3).
    conceal = rules.conceal_value(25, 0.49, clothing="street clothes", carry="sling")
    assert conceal == 25
    assert rules.ceil(F(conceal, 5)) == 5 and rules.ceil(F(30, 5)) == 6
    assert rules.detection_chance(30, conceal) == F(55, 100)


def test_karl_example_2_pistol_in_holster_30_percent():
    conceal = rules.conceal_value(25, 0.22, clothing="suit", carry="holster")  # <= 40 cm: x2
    assert conceal == 50
    assert rules.detection_chance(30, conceal) == F(30, 100)


@pytest.mark.parametrize("length,mult", [(0.15, 3), (0.20, 3), (0.201, 2), (0.40, 2), (0.80, 1),
                                         (0.81, F(1, 2)), (1.20, F(1, 2)), (1.21, 0), (2.0, 0)])
def test_conceal_size_ladder(length, mult):
    assert rules.conceal_size_multiplier(length) == mult  # coc-ja.conceal.size


def test_conceal_clothing_and_holster_multiply():
    # coc-ja.conceal.clothing x coc-ja.conceal.holster (multiplication assumed)
    assert rules.conceal_value(40, 0.3, "winter long coat", "holster") == 160
    assert rules.conceal_value(40, 0.3, "evening dress", "none") == 20
    assert rules.conceal_value(40, 0.3, "street clothes", "quick-draw holster") == 0
    assert rules.detection_chance(5, 0) == 1  # cannot be concealed at all


# ---- quick draw ------------------------------------------------------------------------

def test_quickdraw_action_dex():
    # coc-ja.quickdraw.skill-bonus ceil(55/10) = 6, laser +2, pistol two-handed -2,
    # shoulder holster -3 (coc-ja.quickdraw.holster), summed (coc-ja.quickdraw.total)
    assert rules.action_dex(12, "Handgun", 55, ["laser"], "pistol two-handed", "shoulder holster") == 15
    # sights do not stack: reflex +3 is the best (coc-ja.quickdraw.sights)
    assert rules.action_dex(10, "SMG", 41, ["laser", "reflex"], None, "single-point sling") == 10 + 3 + 3 - 2
    assert rules.action_dex(10, "Rifle", 60, [], "long arm one-handed", "rifle sling") == 10 + 3 - 4 - 3
    assert rules.action_dex(10, carry="pocket, exposed hammer", flashlight_draw=True) == 10 - 4 - 5
    assert rules.action_dex(10, carry="in hand", gun_light_draw=True) == 8  # coc-ja.light.technique


def test_ready_first_cycle():
    # coc-ja.quickdraw.str / .single-action / .ready
    assert not rules.ready_first_cycle(STR=8, required_STR=10)
    assert not rules.ready_first_cycle(STR=12, required_STR=10, single_action=True, cocked=False)
    assert rules.ready_first_cycle(STR=12, required_STR=10, single_action=True, cocked=True)
    assert not rules.ready_first_cycle(STR=12, required_STR=None, chambered=False)


def test_reload():
    assert rules.reload_rounds("magazine") == 1                                  # coc-ja.reload.magazine
    assert rules.reload_rounds("loose", 6) == 3                                  # coc-ja.reload.loose-rounds
    assert rules.reload_rounds("loose", 6, skill_success=True) == 2
    assert rules.reload_rounds("belt") == 2 and rules.reload_rounds("belt", skill_success=True) == 1
    assert rules.reload_rounds("magazine", reachable=False) is None             # coc-ja.reload.limits


# ---- stances -----------------------------------------------------------------------------

def test_off_hand_shooting_example():
    # coc-ja.skill.off-hand-shooting: Off-hand 40%, Handgun 50%, SMG 35%
    assert rules.off_hand_chance(50, 40) == 40
    assert rules.off_hand_chance(35, 40) == 35
    assert rules.off_hand_chance(50) == 25  # coc-ja.stance.off-hand without the skill


def test_two_guns():
    # coc-ja.stance.two-guns
    assert rules.two_guns_chance(50) == 10
    assert rules.two_guns_chance(60, "Handgun", laser=True) == 60
    assert rules.two_guns_chance(59, "Handgun", laser=True) == F(59, 5)
    assert rules.two_guns_chance(60, "Handgun", laser=False) == 12
    assert rules.two_guns_chance(50, off_hand_skill=40) == 20  # Off-hand Shooting x1/2


# ---- autofire --------------------------------------------------------------------------

def test_autofire_penalty_and_floor():
    # coc-ja.autofire.penalty: -3 / -2 / -1 per round after the first, floor 5%
    assert rules.autofire_modified(60, 10, "hand-held") == 33
    assert rules.autofire_modified(60, 10, "braced") == 42
    assert rules.autofire_modified(60, 10, "mounted") == 51
    assert rules.autofire_modified(20, 10, "hand-held") == 5
    assert rules.autofire_modified(4, 10, "hand-held") == 4


@pytest.mark.parametrize("roll,hits", [(1, 7), (3, 7), (4, 6), (8, 6), (9, 5), (28, 2), (29, 1), (33, 1),
                                       (34, 1), (60, 1), (61, 0), (100, 0)])
def test_autofire_hits_hand_made_rolls(roll, hits):
    # coc-ja.autofire.hits: M = 33 (60% with 10 rounds hand-held), S = 60
    assert rules.autofire_hits(roll, 33, 60, 10) == hits


def test_autofire_hits_capped_by_rounds():
    assert rules.autofire_hits(1, 60, 60, 3) == 3
    dist = rules.autofire_hit_distribution(33, 60, 10)
    assert sum(dist.values()) == 1 and dist[0] == F(40, 100)


def test_large_target_untrained_sweep_dodge_suppression():
    assert rules.large_target_bonus(30) == 0 and rules.large_target_bonus(39) == 0   # coc-ja.autofire.order
    assert rules.large_target_bonus(40) == 5 and rules.large_target_bonus(55) == 10
    assert rules.untrained_min_rounds("SMG", 19, 20) == 10                          # coc-ja.autofire.untrained
    assert rules.untrained_min_rounds("SMG", 20, 20) == 1
    assert rules.sweep_rounds(10, 3) == [3, 3, 2]                                    # coc-ja.autofire.sweep
    assert rules.in_sweep_arc([0, 30, 60]) and not rules.in_sweep_arc([0, 61])
    with pytest.raises(ValueError):
        rules.sweep_rounds(4, 3)
    assert rules.burst_dodge(40, 10) == 31                                           # coc-ja.autofire.dodge-penalty
    assert rules.suppression_chance(10, 12) == F(40, 100)                            # coc-ja.autofire.suppression
    assert rules.suppression_chance(25, 12) == 1


# ---- close range, double tap, Mozambique, dodge -----------------------------------------

def test_close_range_double_tap_mozambique():
    assert rules.close_range(12) == 12.0                                             # coc-ja.close-range
    assert rules.double_tap_allowed(75, 2, 12, 12) == []                             # coc-ja.double-tap
    assert len(rules.double_tap_allowed(74, 1, 13, 12)) == 3
    assert rules.mozambique_allowed(80, 2, 5, 12) == ["rate of fire 2 < 3"]          # coc-ja.mozambique
    assert rules.shots_in_dex_rank(3) == "double tap + 1 shot"
    assert rules.shots_in_dex_rank(4) == "two double taps"


def test_dodge_rules():
    assert rules.dodges_per_round(74) == 1 and rules.dodges_per_round(75) == 2      # coc-ja.dodge.count
    assert rules.sniper_notice_chance(50, 30) == F(70, 100)                          # coc-ja.dodge.sniper
    assert not rules.can_dodge(knows_shooter=False)                                  # coc-ja.dodge.firearms


# ---- encumbrance ----------------------------------------------------------------------------

@pytest.mark.parametrize("load,state,skill", [(0, "unencumbered", 0), (28.4, "unencumbered", 0), (28.5, "light", -5),
                                              (57, "medium", -10), (85.5, "heavy", -20), (114, "extreme", -100)])
def test_encumbrance_ladder(load, state, skill):
    # coc-ja.encumbrance: STR 12, SIZ 14 -> L = 12 + 14/2 = 19 -> 28.5 / 57 / 85.5 / 114 kg
    e = rules.encumbrance(12, 14, load)
    assert e["state"] == state and e["active_skills"] == skill


# ---- light, armor, door -----------------------------------------------------------------------

def test_dazzle_and_armor_shock():
    assert rules.dazzle_chance(12, 10) == F(60, 100) * F(50, 100)                     # coc-ja.light.dazzle
    assert rules.dazzle_effect(False)["after"].endswith("1d6 rounds")
    assert rules.armor_shock_chance(12, 60) == F(90, 100)                            # coc-ja.armor.shock
    assert rules.armor_shock_chance(12, 55) == F(88, 100)                            # ceil(55 / 2) = 28
    assert rules.shoot_at_light_allowed(None) and not rules.shoot_at_light_allowed("head")  # coc-ja.light.exposure


def test_shotgun_pellets_example():
    # coc-ja.armor.shotgun-pellets: armor 8, 4d6+2 reading 3+2, 3, 4, 6 (total 18)
    assert sum([3, 3, 4, 6]) + 2 == 18
    assert rules.armored_damage(18, 8) == 10          # the original rule
    assert rules.pellet_damage([3, 3, 4, 6], 2, 8) == 0  # the revised rule
    assert rules.pellet_damage([6, 6, 1, 1], 2, 5) == 3 + 1


def test_pellet_mean_is_per_die():
    assert rules.mean_pellets_after_armor("1d6", 3) == F(0 + 0 + 0 + 1 + 2 + 3, 6)
    assert rules.mean_pellets_after_armor("4d6", 6) == 0
    assert rules.mean_after_armor("4d6", 6) > 0


def test_door_breach_exact():
    # coc-ja.door-breach: no malfunction on 01-99 (malfunction 100), Idea 50% beats Locksmith 20 x2,
    # 1d6 damage vs strength 10: 5..30% -> 17.5%
    p = rules.door_breach_chance(malfunction=100, locksmith=20, INT=10, damage="1d6", door_strength=10)
    assert p == F(99, 100) * F(1, 2) * F(175, 1000)
    assert rules.door_backfire_chance(malfunction=96, POW=10) == F(5, 100) * F(1, 2)


def test_dice_parsing():
    assert rules.parse_dice("1d10+1d4+2") == ([(1, 10), (1, 4)], 2)
    assert rules.parse_dice("2d6-1") == ([(2, 6)], -1)
    assert rules.damage_distribution("1d3") == {1: F(1, 3), 2: F(1, 3), 3: F(1, 3)}
