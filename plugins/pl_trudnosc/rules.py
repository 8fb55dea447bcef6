"""Per-shot arithmetic of pl-trudnosc's check that depends on a few small values only,
computed once per process (warm odds of a shot within 1 ms).

:func:`shot_damage` is the damage part of ``PlTrudnosc.check_at`` (pl.damage, pl.armor,
pl.barrier, pl.shoot, pl.grenade): exact Fractions with denominators up to 6^12 cost most
of a check when multiplied out on every call. ``tests/test_fast_odds.py`` checks that it
gives exactly what the plain computation gives.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Hashable, Mapping

from xsys.core.trace import fraction_text

ZERO = Fraction(0)
ONE = Fraction(1)

_MEMO: dict[tuple, tuple] = {}
_LIMIT = 4096  # answers kept: memory stays bounded however many shots are asked


def shot_damage(dist_key: Hashable, dist: Mapping[int, Fraction], scale: Fraction, base: int, soak: int,
                thrown: bool) -> tuple[dict[str, str], float, dict[str, Fraction]]:
    """(the damage distribution as text, ``"points": "p/q"``; its mean; the outcomes,
    ``"k additional": chance``) of one shot whose test has the success distribution
    `dist` (0 = failed, 1 + k = k additional successes) scaled by `scale` (modifiers that
    multiply or set the chance): a hit does `base` points, +1 per additional success (not
    for a grenade, `thrown`: pl.grenade), less `soak` (armor and barrier), never below 0;
    a miss does 0.

    `dist_key` must determine `dist` (the mechanic and its arguments: ``(mechanic.key,
    trait, level, extra dice, Trudność)``); the answer for the same values is computed once
    (new dicts on every call)."""
    key = (dist_key, scale, base, soak, thrown)
    hit = _MEMO.get(key)
    if hit is None:
        hit = _shot_damage(dist, scale, base, soak, thrown)
        if len(_MEMO) < _LIMIT:
            _MEMO[key] = hit
    damage, mean, outcomes = hit
    return dict(damage), mean, dict(outcomes)


def _shot_damage(dist: Mapping[int, Fraction], scale: Fraction, base: int, soak: int,
                 thrown: bool) -> tuple[tuple[tuple[str, str], ...], float, tuple[tuple[str, Fraction], ...]]:
    damage: dict[int, Fraction] = {}
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
    outcomes = tuple((f"{k - 1} additional", p * scale) for k, p in sorted(dist.items()) if k >= 1)
    return tuple((str(v), fraction_text(p)) for v, p in sorted(damage.items())), mean, outcomes


def clear_caches() -> None:
    """Forget the remembered answers (tests)."""
    _MEMO.clear()
