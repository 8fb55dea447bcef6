"""Exact dice: every chance is a Fraction, computed once and cached.

Mechanisms only; the numbers that make them a particular game's rules (critical bands,
thresholds, clamps) are supplied by the plugins. Distributions are convolutions over
integer weights, which need no library at start-up; the tests check them against icepool.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache
from math import comb, lcm
from typing import Mapping

import msgspec

Dist = Mapping[int, Fraction]

ZERO = Fraction(0)
ONE = Fraction(1)


# ---- sums of dice ---------------------------------------------------------------------

class WeightedDist(dict):
    """A distribution (value -> Fraction, as a plain dict) made from integer weights over
    one denominator, value = offset + index, zero weights left out. It keeps the running
    sums of its weights, so that :func:`at_least` and :func:`at_most` are one integer
    lookup instead of an exact sum over the tail (the distributions of pools and sums of
    dice are cached and asked again and again)."""

    __slots__ = ("_offset", "_den", "_suffix")

    def __init__(self, weights: tuple[int, ...], den: int, offset: int = 0) -> None:
        super().__init__((offset + k, Fraction(w, den)) for k, w in enumerate(weights) if w)
        suffix = [0] * (len(weights) + 1)
        running = 0
        for i in range(len(weights) - 1, -1, -1):
            running += weights[i]
            suffix[i] = running
        self._offset = offset
        self._den = den
        self._suffix = suffix

    def __reduce__(self) -> tuple:  # a copy (or pickle) is a plain dict
        return (dict, (dict(self),))

    def tail(self, k: int) -> Fraction:
        """P(value >= k)."""
        i = k - self._offset
        if i <= 0:
            i = 0
        elif i >= len(self._suffix) - 1:
            return ZERO
        return Fraction(self._suffix[i], self._den)

    def head(self, k: int) -> Fraction:
        """P(value <= k)."""
        i = k + 1 - self._offset
        if i <= 0:
            return ZERO
        if i >= len(self._suffix) - 1:
            i = len(self._suffix) - 1
        return Fraction(self._suffix[0] - self._suffix[i], self._den)


@lru_cache(maxsize=None)
def sum_distribution(n: int, sides: int) -> dict[int, Fraction]:
    """Distribution of the sum of n dice with `sides` faces (n >= 0)."""
    if n < 0:
        raise ValueError("number of dice must be >= 0")
    if n == 0:
        return {0: ONE}
    return WeightedDist(_sum_weights(n, sides), sides ** n, n)


@lru_cache(maxsize=None)
def _sum_weights(n: int, sides: int) -> tuple[int, ...]:
    """Ways to roll n + k on n dice, for k = 0 .. n x (sides - 1): one die at a time."""
    if n == 1:
        return (1,) * sides
    prev = _sum_weights(n - 1, sides)
    out = [0] * (len(prev) + sides - 1)
    for i, w in enumerate(prev):
        for j in range(i, i + sides):
            out[j] += w
    return tuple(out)


_ROLL_TERM = re.compile(r"([+-]?)(?:(\d+)[dD](\d+)|(\d+))")


def parse_roll(text: str) -> tuple[tuple[tuple[int, int, int], ...], int]:
    """A roll as printed ('2d6+4', '1D10+1D4+2', '1d6-1'; any case, spaces ignored) ->
    ((sign, count, sides) of each group of dice, the constant). ValueError for what is no
    roll."""
    s = text.replace(" ", "")
    groups: list[tuple[int, int, int]] = []
    bonus, pos = 0, 0
    while pos < len(s):
        m = _ROLL_TERM.match(s, pos)
        if m is None or m.end() == pos or (pos > 0 and not m.group(1)):
            raise ValueError(f"not a roll: {text!r}")
        sign = -1 if m.group(1) == "-" else 1
        if m.group(2) is not None:
            groups.append((sign, int(m.group(2)), int(m.group(3))))
        else:
            bonus += sign * int(m.group(4))
        pos = m.end()
    if not s:
        raise ValueError(f"not a roll: {text!r}")
    return tuple(groups), bonus


@lru_cache(maxsize=512)
def roll_distribution(text: str) -> dict[int, Fraction]:
    """The exact distribution of a roll as printed (:func:`parse_roll`): '2d6+4' -> {6: 1/36, ...}."""
    groups, bonus = parse_roll(text)
    dist: dict[int, Fraction] = {bonus: ONE}
    for sign, n, sides in groups:
        part = sum_distribution(n, sides)
        new: dict[int, Fraction] = {}
        for a, pa in dist.items():
            for b, pb in part.items():
                v = a + sign * b
                new[v] = new.get(v, ZERO) + pa * pb
        dist = new
    return dist


def at_least(dist: Dist, k: int) -> Fraction:
    if type(dist) is WeightedDist:
        return dist.tail(k)
    return _exact_sum([(1, p) for v, p in dist.items() if v >= k])


def at_most(dist: Dist, k: int) -> Fraction:
    if type(dist) is WeightedDist:
        return dist.head(k)
    return _exact_sum([(1, p) for v, p in dist.items() if v <= k])


def mean(dist: Dist) -> Fraction:
    return _exact_sum(list(dist.items()))


def _exact_sum(terms: list[tuple[int, Fraction]]) -> Fraction:
    """sum(v * p) as one Fraction over the common denominator of the p: the same exact
    value as adding Fractions one by one, without reducing after every term."""
    try:
        den = lcm(*(p.denominator for _, p in terms))
        num = sum(v * p.numerator * (den // p.denominator) for v, p in terms)
    except AttributeError:  # a float probability: ordinary arithmetic
        return sum((v * p for v, p in terms), ZERO)
    if not isinstance(num, int):  # non-integer values
        return sum((v * p for v, p in terms), ZERO)
    return Fraction(num, den)


# ---- d100 roll-under ------------------------------------------------------------------

def d100(target: int, *, always_succeed: int = 0, always_fail: int = 101) -> Fraction:
    """P(d100 <= target), where rolls <= always_succeed always succeed and rolls >=
    always_fail always fail (the system supplies its bands; 0/101 means none)."""
    lo = max(0, min(100, always_succeed))
    hi = max(1, min(101, always_fail))
    t = max(0, min(100, target))
    successes = {r for r in range(1, 101) if (r <= t or r <= lo) and r < hi}
    return Fraction(len(successes), 100)


def d100_at_most(threshold: int) -> Fraction:
    """P(d100 <= threshold), no bands."""
    return Fraction(max(0, min(100, threshold)), 100)


# ---- 3d6 roll-under with critical bands -----------------------------------------------

class RollUnderBands(msgspec.Struct, frozen=True):
    """Critical rules of a roll-under game on a sum of dice.

    - rolls <= ``auto_success`` always succeed and are critical successes;
    - ``crit_success_at`` maps a roll to the minimum target at which it is a critical
      success (e.g. {5: 15, 6: 16});
    - rolls >= ``auto_fail`` always fail;
    - ``crit_fail_rolls`` are always critical failures; ``crit_fail_below`` maps a roll to
      the target below which it is a critical failure (e.g. {17: 16});
    - a roll >= target + ``crit_fail_margin`` is a critical failure (None: no such rule).
    """

    dice: int = 3
    sides: int = 6
    auto_success: int = 0
    crit_success_at: Mapping[int, int] = msgspec.field(default_factory=dict)
    auto_fail: int = 10**9
    crit_fail_rolls: frozenset[int] = frozenset()
    crit_fail_below: Mapping[int, int] = msgspec.field(default_factory=dict)
    crit_fail_margin: int | None = None

    def __hash__(self) -> int:
        return hash((self.dice, self.sides, self.auto_success, tuple(sorted(self.crit_success_at.items())),
                     self.auto_fail, self.crit_fail_rolls, tuple(sorted(self.crit_fail_below.items())),
                     self.crit_fail_margin))


class Outcomes(msgspec.Struct, frozen=True):
    """Exact probabilities of a roll's outcomes. ``success`` includes critical success;
    ``failure`` includes critical failure."""

    success: Fraction
    critical_success: Fraction = ZERO
    critical_failure: Fraction = ZERO

    @property
    def failure(self) -> Fraction:
        return ONE - self.success


@lru_cache(maxsize=4096)
def roll_under(target: int, bands: RollUnderBands = RollUnderBands()) -> Outcomes:
    """Outcomes of rolling `dice`d`sides` and needing a total <= target."""
    dist = sum_distribution(bands.dice, bands.sides)
    succ = crit_s = crit_f = ZERO
    for roll, p in dist.items():
        crit_success = roll <= bands.auto_success or (
            roll in bands.crit_success_at and target >= bands.crit_success_at[roll]
        )
        always_fail = roll >= bands.auto_fail
        success = not always_fail and (roll <= target or roll <= bands.auto_success)
        crit_failure = (
            roll in bands.crit_fail_rolls
            or (roll in bands.crit_fail_below and target < bands.crit_fail_below[roll])
            or (bands.crit_fail_margin is not None and roll >= target + bands.crit_fail_margin)
        ) and not success
        if success:
            succ += p
            if crit_success:
                crit_s += p
        elif crit_failure:
            crit_f += p
    return Outcomes(succ, crit_s, crit_f)


# ---- d10 pools counting successes -----------------------------------------------------

class PoolRules(msgspec.Struct, frozen=True):
    """A dice pool: each die succeeds at >= ``threshold``; a die showing >= ``again`` is
    rolled again and adds its successes (None: no again-rule). A pool of 0 or fewer dice
    rolls one chance die, which succeeds only on ``chance_success`` (and, when
    ``chance_again`` is set, rolls again on it) and is a dramatic failure on
    ``chance_dramatic``. ``depth`` bounds the re-rolls of one die: the mass of longer
    chains (below 10^-depth for 10-again) is kept on the deepest count, so the chance of
    at least one success stays exact."""

    sides: int = 10
    threshold: int = 8
    again: int | None = 10
    chance_success: int = 10
    chance_dramatic: int = 1
    chance_again: bool = False
    depth: int = 12


@lru_cache(maxsize=64)
def die_successes(rules: PoolRules = PoolRules()) -> dict[int, Fraction]:
    """Successes from one die of the pool."""
    s = rules.sides
    hit = Fraction(max(0, s - rules.threshold + 1), s)
    reroll = Fraction(max(0, s - rules.again + 1), s) if rules.again else ZERO
    stay_hit = hit - reroll  # a success that does not roll again
    miss = ONE - hit
    dist: dict[int, Fraction] = {}
    # A chain: k rerolling faces (each a success), then a last die that hits or misses.
    carry = ONE
    for k in range(rules.depth + 1):
        if k == rules.depth:
            dist[k] = dist.get(k, ZERO) + carry  # tail mass kept on the deepest count
            break
        dist[k] = dist.get(k, ZERO) + carry * miss
        dist[k + 1] = dist.get(k + 1, ZERO) + carry * stay_hit
        carry *= reroll
        if carry == 0:
            break
    return {k: p for k, p in dist.items() if p}


@lru_cache(maxsize=256)
def pool_successes(n: int, rules: PoolRules = PoolRules()) -> dict[int, Fraction]:
    """Distribution of successes of a pool of n dice (n <= 0: the chance die).

    Pools are built one die at a time from the pool one smaller (cached), as integer
    weights over a common denominator, so all pools up to n cost n small convolutions;
    tests check the result against icepool."""
    if n <= 0:
        return chance_die(rules)
    weights, den = _pool_weights(n, rules)
    return WeightedDist(weights, den)


def pool_weights(n: int, rules: PoolRules = PoolRules()) -> tuple[tuple[int, ...], int]:
    """The successes of a pool of n >= 1 dice as integer weights over one denominator:
    P(k successes) = weights[k] / denominator (not reduced). Exact sums over many pools
    add integers instead of Fractions."""
    if n < 1:
        raise ValueError("a pool of weights needs at least one die")
    return _pool_weights(n, rules)


@lru_cache(maxsize=256)
def _pool_weights(n: int, rules: PoolRules) -> tuple[tuple[int, ...], int]:
    one, den1 = _die_weights(rules)
    if n == 1:
        return one, den1
    prev, den = _pool_weights(n - 1, rules)
    out = [0] * (len(prev) + len(one) - 1)
    for i, a in enumerate(prev):
        if a:
            for j, b in enumerate(one):
                if b:
                    out[i + j] += a * b
    return tuple(out), den * den1


@lru_cache(maxsize=16)
def _die_weights(rules: PoolRules) -> tuple[tuple[int, ...], int]:
    dist = die_successes(rules)
    den = _lcm_den(dist)
    top = max(dist)
    return tuple((dist.get(k, ZERO) * den).numerator for k in range(top + 1)), den


def _lcm_den(dist: Mapping[int, Fraction]) -> int:
    out = 1
    for p in dist.values():
        out = lcm(out, p.denominator)
    return out


@lru_cache(maxsize=16)
def chance_die(rules: PoolRules = PoolRules()) -> dict[int, Fraction]:
    s = Fraction(1, rules.sides)
    if rules.chance_again:
        # a success rolls again as an ordinary die
        more = die_successes(rules)
        dist: dict[int, Fraction] = {0: ONE - s}
        for k, p in more.items():
            dist[k + 1] = dist.get(k + 1, ZERO) + s * p
        return dist
    return {0: ONE - s, 1: s}


def chance_die_dramatic(rules: PoolRules = PoolRules()) -> Fraction:
    return Fraction(1, rules.sides)


def pool_hit(n: int, rules: PoolRules = PoolRules()) -> Fraction:
    """P(at least one success)."""
    return ONE - pool_successes(n, rules).get(0, ZERO)


# ---- per-die target numbers (count dice that reach a number) ------------------------

@lru_cache(maxsize=4096)
def count_at_least(n: int, sides: int, target: int) -> dict[int, Fraction]:
    """Number of n dice (d`sides`) showing >= target."""
    p = Fraction(max(0, min(sides, sides - target + 1)), sides)
    return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


# ---- resistance and opposed checks ----------------------------------------------------

def resistance(active: int, passive: int, *, lo: int = 0, hi: int = 100, base: int = 50, step: int = 5) -> Fraction:
    """The BRP resistance table: base% + step% x (active - passive), clamped to lo..hi%."""
    pct = max(lo, min(hi, base + step * (active - passive)))
    return Fraction(pct, 100)


def opposed(a: Dist, b: Dist) -> tuple[Fraction, Fraction, Fraction]:
    """(P(a > b), P(a == b), P(a < b)) for two independent results."""
    win = tie = lose = ZERO
    for va, pa in a.items():
        for vb, pb in b.items():
            if va > vb:
                win += pa * pb
            elif va == vb:
                tie += pa * pb
            else:
                lose += pa * pb
    return win, tie, lose


def clear_caches() -> None:
    for f in (sum_distribution, roll_under, die_successes, pool_successes, chance_die, count_at_least,
              _pool_weights, _die_weights, _sum_weights):
        f.cache_clear()
