"""The memoised rule helpers behind warm odds answer the rules' numbers, worked by hand
here from the rule digests (coc-ja.autofire.hits, coc-ja.aimed.effects, pl.shoot,
pl.grenade, gurps.hit-location), in the same order every time, and hand out new objects
(changing an answer does not change the remembered one)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from xsys.plugins.coc import rules


# coc-ja.autofire.hits: roll d100 once; roll <= M: 1 + floor((M - roll) / 5) hits, at most
# the rounds fired; M < roll <= S: exactly 1 hit; else none. Counted over the 100 rolls,
# listed in roll order (the most hits first).
@pytest.mark.parametrize("modified,unmodified,rounds,want", [
    # rolls 1-7: 3 hits (capped), 8-12: 2, 13-17: 1, 18-33: 1 (unmodified skill), 34-100: 0
    (17, 33, 3, {3: F(7, 100), 2: F(5, 100), 1: F(21, 100), 0: F(67, 100)}),
    # at the 5% floor: rolls 1-5 give 1 + 0 hits, however many rounds; 6-60 the one hit
    (5, 60, 10, {1: F(60, 100), 0: F(40, 100)}),
    # M = S: rolls 1-55 give 2+ hits (2 rounds), 56-60 one
    (60, 60, 2, {2: F(55, 100), 1: F(5, 100), 0: F(40, 100)}),
    # M above 100: rolls 1-84 give 5 (all rounds), 85-89: 4, 90-94: 3, 95-99: 2, 100: 1
    (104, 100, 5, {5: F(84, 100), 4: F(5, 100), 3: F(5, 100), 2: F(5, 100), 1: F(1, 100)}),
    # nothing to roll under: no hit
    (-5, 0, 3, {0: F(1)}),
])
def test_autofire_hit_distribution_worked_examples(modified, unmodified, rounds, want):
    got = rules.autofire_hit_distribution(modified, unmodified, rounds)
    assert got == want and list(got) == list(want)
    got[99] = F(1)  # a new dict each call: the remembered answer is not changed
    again = rules.autofire_hit_distribution(modified, unmodified, rounds)
    assert again == want and list(again) == list(want)


# one shot's damage (coc-ja.aimed.effects for the doubled hit): a miss does 0; a hit rolls the
# damage (twice, added, for an impale), less the armor of the location hit, never below 0
@pytest.mark.parametrize("text,chance,parts,want", [
    # 1d10 - 3: 0 on 1-3, then 1..7 at 1/10 each; half the shots hit
    ("1d10", F(1, 2), [(F(1, 2), 3, False)],
     {"0": "13/20", "1": "1/20", "2": "1/20", "3": "1/20", "4": "1/20", "5": "1/20", "6": "1/20", "7": "1/20"}),
    # 1d4 rolled twice (2..8 as 1,2,3,4,3,2,1 sixteenths) less armor 1, every shot hits
    ("1d4", F(1), [(F(1), 1, True)],
     {"1": "1/16", "2": "1/8", "3": "3/16", "4": "1/4", "5": "3/16", "6": "1/8", "7": "1/16"}),
    # a hit on 1d4: 1/10 an impale without armor, 2/5 once against armor 2 (0, 0, 1, 2)
    ("1d4", F(1, 2), [(F(1, 10), 0, True), (F(2, 5), 2, False)],
     {"0": "7/10", "1": "1/10", "2": "17/160", "3": "1/80", "4": "3/160", "5": "1/40", "6": "3/160",
      "7": "1/80", "8": "1/160"}),
    # armor as high as the best roll: every hit does 0
    ("1d8", F(37, 100), [(F(37, 100), 8, False)], {"0": "1/1"}),
    # no chance to hit
    ("2d6+4", F(0), [], {"0": "1/1"}),
])
def test_shot_damage_distribution_worked_examples(text, chance, parts, want):
    for _ in range(2):  # computed, then remembered
        got = rules.shot_damage_distribution(text, chance, parts)
        assert got == want and list(got) == list(want)
    got["99"] = "1/1"
    assert rules.shot_damage_distribution(text, chance, parts) == want


# pl.shoot: a passed test hits; each additional success adds 1 damage point to the weapon's
# base damage. pl.grenade: additional successes catch more enemies, not more damage. Soak
# (armor and barrier) comes off the hit, never below 0. The test's successes: 0 = failed,
# 1 + k = passed with k additional successes.
PL_DIST = {0: F(1, 2), 1: F(1, 4), 2: F(1, 8), 3: F(1, 8)}
PL_OUTCOMES = {"0 additional": F(1, 4), "1 additional": F(1, 8), "2 additional": F(1, 8)}


@pytest.mark.parametrize("scale,base,soak,thrown,want_damage,want_mean,want_outcomes", [
    # base 3: a pass does 3, one more success 4, two more 5
    (F(1), 3, 0, False, {"0": "1/2", "3": "1/4", "4": "1/8", "5": "1/8"}, 15 / 8, PL_OUTCOMES),
    # soak 4: 3 and 4 points are stopped, 5 does 1
    (F(1), 3, 4, False, {"0": "7/8", "1": "1/8"}, 1 / 8, PL_OUTCOMES),
    # a modifier that halves the chance of every outcome: the rest are misses
    (F(1, 2), 3, 0, False, {"0": "3/4", "3": "1/8", "4": "1/16", "5": "1/16"}, 15 / 16,
     {k: p / 2 for k, p in PL_OUTCOMES.items()}),
    # a grenade, base 4 less soak 1: every hit does 3, whatever the additional successes
    (F(1), 4, 1, True, {"0": "1/2", "3": "1/2"}, 3 / 2, PL_OUTCOMES),
])
def test_pl_shot_damage_worked_examples(scale, base, soak, thrown, want_damage, want_mean, want_outcomes):
    from xsys.plugins.pl_trudnosc import rules as pl_rules

    pl_rules.clear_caches()
    key = ("worked example", 3, 2, 0, 20)  # stands for the mechanic and test that give PL_DIST
    for _ in range(2):  # computed, then remembered
        damage, mean, outcomes = pl_rules.shot_damage(key, PL_DIST, scale, base, soak, thrown)
        assert damage == want_damage and list(damage) == list(want_damage)
        assert type(mean) is float and mean == want_mean
        assert outcomes == want_outcomes and list(outcomes) == list(want_outcomes)
    damage["x"] = "1/1"  # new dicts: the remembered answer is not changed
    assert pl_rules.shot_damage(key, PL_DIST, scale, base, soak, thrown)[0] == want_damage


# gurps.hit-location: on some called locations a roll of exactly the target number + 1 hits
# another location instead of missing. Target number 10 on 3d6: hit 108/216 = 1/2, a roll of
# 11 is 27/216 = 1/8; the rest (3/8) misses.
HIT = {"0": "1/6", "2": "1/2", "4": "1/3"}  # damage past DR of a hit on the called location
OTHER = {"1": "1/2", "3": "1/2"}  # of a hit on the other location


@pytest.mark.parametrize("chance,redirect,redirect_p,want", [
    # 0: 1/2 x 1/6 + 3/8 = 11/24; 1 and 3: 1/8 x 1/2; 2: 1/2 x 1/2; 4: 1/2 x 1/3
    (F(1, 2), OTHER, F(1, 8), {"0": "11/24", "1": "1/16", "2": "1/4", "3": "1/16", "4": "1/6"}),
    # no redirection: 0 is 1/2 x 1/6 + 1/2
    (F(1, 2), None, F(0), {"0": "7/12", "2": "1/4", "4": "1/6"}),
    (F(1, 2), OTHER, F(0), {"0": "7/12", "2": "1/4", "4": "1/6"}),  # a location given, never hit
    (F(1), None, F(0), HIT),
    (F(0), None, F(0), {"0": "1/1"}),
])
def test_gurps_shot_damage_worked_examples(chance, redirect, redirect_p, want):
    from xsys.plugins.gurps import rules as g_rules

    g_rules.clear_caches()
    for _ in range(2):  # computed, then remembered
        got = g_rules.shot_damage(HIT, chance, redirect, redirect_p)
        assert got == want and list(got) == list(want)
    got["x"] = "1/1"
    assert g_rules.shot_damage(HIT, chance, redirect, redirect_p) == want
