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
