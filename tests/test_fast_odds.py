"""Issue 19 (warm odds): the memoised rule helpers answer exactly what the plain
computations answer (the same Fractions, the same order), and hand out new objects."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest

from xsys.plugins.coc import rules


def _plain_autofire(modified: int, unmodified: int, rounds: int) -> dict[int, F]:
    out: dict[int, F] = {}
    for roll in range(1, 101):
        h = rules.autofire_hits(roll, modified, unmodified, rounds)
        out[h] = out.get(h, F(0)) + F(1, 100)
    return out


@pytest.mark.parametrize("modified,unmodified,rounds",
                         list(itertools.product((-5, 0, 5, 17, 33, 60, 99, 104), (0, 33, 60, 100), (1, 2, 3, 5, 10))))
def test_autofire_hit_distribution_is_the_plain_count(modified, unmodified, rounds):
    got = rules.autofire_hit_distribution(modified, unmodified, rounds)
    want = _plain_autofire(modified, unmodified, rounds)
    assert got == want and list(got) == list(want)
    got[99] = F(1)  # a new dict each call: the remembered answer is not changed
    assert rules.autofire_hit_distribution(modified, unmodified, rounds) == want


def _plain_shot_damage(text, chance, parts):
    once, twice = rules.damage_distribution(text), rules.damage_rolled_twice(text)
    out: dict[int, F] = {0: 1 - chance}
    for weight, armor, doubled in parts:
        for v, p in (twice if doubled else once).items():
            d = max(0, v - armor)
            out[d] = out.get(d, F(0)) + weight * p
    return {str(v): f"{p.numerator}/{p.denominator}" for v, p in sorted(out.items()) if p}


@pytest.mark.parametrize("text", ["1d10", "1d8", "2d6+4", "1d10+1d4+2", "4d6", "1d6-1"])
@pytest.mark.parametrize("armor", [0, 1, 3, 8, 30])
def test_shot_damage_distribution_is_the_plain_sum(text, armor):
    for chance in (F(0), F(1, 100), F(37, 100), F(1)):
        for parts in ([], [(chance, armor, False)], [(chance / 5, armor, True), (chance * 4 / 5, 0, False)],
                      [(F(1, 100), armor, True), (F(3, 100), armor + 1, True), (chance / 2, armor, False)]):
            got = rules.shot_damage_distribution(text, chance, parts)
            want = _plain_shot_damage(text, chance, parts)
            assert got == want and list(got) == list(want)


def _plain_pl(dist, scale, base, soak, thrown):
    """PlTrudnosc.check_at's damage part as it is written there."""
    from xsys.core.trace import fraction_text

    ZERO, ONE = F(0), F(1)
    damage = {}
    for k, p in dist.items():
        if k == 0:
            continue
        bonus = 0 if thrown else k - 1
        d = max(0, base + bonus - soak)
        damage[d] = damage.get(d, ZERO) + p * scale
    miss = ONE - sum(damage.values(), ZERO)
    if miss:
        damage[0] = damage.get(0, ZERO) + miss
    mean = float(sum((v * p for v, p in damage.items()), ZERO))
    outcomes = {f"{k - 1} additional": p * scale for k, p in sorted(dist.items()) if k >= 1}
    return {str(v): fraction_text(p) for v, p in sorted(damage.items())}, mean, outcomes


@pytest.mark.parametrize("mechanic", ["exploding-2d6", "exploding-trait", "exploding-d6", "sum-d6", "per-die-d10"])
def test_pl_shot_damage_is_the_plain_computation(mechanic):
    from xsys.plugins.pl_trudnosc import rules as pl_rules
    from xsys.plugins.pl_trudnosc.system import MECHANICS

    mech = MECHANICS[mechanic]
    pl_rules.clear_caches()
    for trait, level, extra, trudnosc in [(2, 0, 0, 10), (3, 2, 1, 20), (4, 3, -1, 25), (5, 5, 2, 40), (1, 0, 0, 35)]:
        dist = mech.successes(trait, level, extra, trudnosc)
        for scale in (F(1), F(1, 2), F(0), F(3, 7)):
            for base, soak, thrown in [(3, 0, False), (3, 2, False), (1, 5, False), (4, 1, True)]:
                key = (mech.key, trait, level, extra, trudnosc)
                for _ in range(2):  # computed, then remembered
                    got = pl_rules.shot_damage(key, dist, scale, base, soak, thrown)
                    want = _plain_pl(dist, scale, base, soak, thrown)
                    assert got == want and list(got[0]) == list(want[0]) and list(got[2]) == list(want[2])
                    assert type(got[1]) is float
                got[0]["x"] = "1/1"  # new dicts: the remembered answer is not changed
                assert pl_rules.shot_damage(key, dist, scale, base, soak, thrown)[0] == want[0]


def _plain_gurps(hit, chance, redirect, redirect_p):
    """Gurps._evaluate's damage distribution as it is written there."""
    from xsys.core.trace import fraction_text

    per_shot = {int(k): F(v) * chance for k, v in hit.items()}
    if redirect is not None and redirect_p:
        for k, v in redirect.items():
            per_shot[int(k)] = per_shot.get(int(k), F(0)) + F(v) * redirect_p
    per_shot[0] = per_shot.get(0, F(0)) + (1 - chance - redirect_p)
    return {str(k): fraction_text(p) for k, p in sorted(per_shot.items()) if p}


def test_gurps_shot_damage_is_the_plain_computation():
    from xsys.plugins.gurps import rules as g_rules
    from xsys.plugins.gurps.system import _damage_past_dr

    g_rules.clear_caches()
    dists = [_damage_past_dr(code, dr, mult, cap)[1] for code, dr, mult, cap in
             [(7, 0, F(1), None), (10, 2, F(4), None), (13, 6, F(3, 2), None), (9, 1, F(1), 5), (4, 30, F(1), None)]]
    for hit in dists:
        for chance in (F(0), F(1, 216), F(181, 216), F(1)):
            for redirect, rp in [(None, F(0)), (dists[1], F(0)), (dists[1], F(25, 216)), (dists[3], F(27, 216))]:
                if chance + rp > 1:
                    continue
                for _ in range(2):  # computed, then remembered
                    got = g_rules.shot_damage(hit, chance, redirect, rp)
                    want = _plain_gurps(hit, chance, redirect, rp)
                    assert got == want and list(got) == list(want)
                got["x"] = "1/1"
                assert g_rules.shot_damage(hit, chance, redirect, rp) == want
