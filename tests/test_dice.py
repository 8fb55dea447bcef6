from fractions import Fraction as F

import pytest

from xsys.core import dice

GURPS3E = dice.RollUnderBands(auto_success=4, crit_success_at={5: 15, 6: 16}, auto_fail=17,
                              crit_fail_rolls=frozenset({18}), crit_fail_below={17: 16}, crit_fail_margin=10)


def test_3d6_closed_forms():
    d = dice.sum_distribution(3, 6)
    assert sum(d.values()) == 1
    assert d[3] == F(1, 216) and d[10] == F(27, 216) and d[18] == F(1, 216)
    assert dice.roll_under(10).success == F(1, 2)
    assert dice.roll_under(12).success == F(20, 27)


def test_3d6_critical_bands():
    # skill 3: only 3 and 4 succeed (always), both critical
    o = dice.roll_under(3, GURPS3E)
    assert o.success == F(4, 216) and o.critical_success == F(4, 216)
    # skill 20: 17 and 18 still fail
    o = dice.roll_under(20, GURPS3E)
    assert o.success == 1 - F(4, 216)
    assert o.critical_success == F(1 + 3 + 6 + 10, 216)  # 3,4,5,6 at skill >= 16
    assert o.critical_failure == F(1, 216)  # only 18 (17 is an ordinary failure at 16+)
    o = dice.roll_under(15, GURPS3E)
    assert o.critical_success == F(1 + 3 + 6, 216)
    # skill 5: critical failure on 17, 18 and any roll >= 15
    o = dice.roll_under(5, GURPS3E)
    d = dice.sum_distribution(3, 6)
    assert o.critical_failure == sum(d[r] for r in range(15, 19))


def test_d100_bands():
    assert dice.d100(45) == F(45, 100)
    assert dice.d100(0, always_succeed=1) == F(1, 100)
    assert dice.d100(120, always_fail=100) == F(99, 100)
    assert dice.d100(-5) == 0


@pytest.mark.parametrize("n", range(1, 16))
def test_pool_at_least_one_success(n):
    assert dice.pool_hit(n) == 1 - F(7, 10) ** n


@pytest.mark.parametrize("k", range(1, 8))
def test_per_die_ten_again(k):
    assert dice.die_successes()[k] == F(7, 10) * F(1, 10) ** k + F(2, 10) * F(1, 10) ** (k - 1)


def test_chance_die():
    assert dice.pool_successes(0) == {0: F(9, 10), 1: F(1, 10)}
    assert dice.pool_hit(-3) == F(1, 10)
    assert dice.chance_die_dramatic() == F(1, 10)


def test_pool_distribution_sums_to_one_and_mean():
    for n in (1, 5, 12):
        d = dice.pool_successes(n)
        assert sum(d.values()) == 1
        # mean successes of one die: 0.3 / 0.9 (a geometric chain of 10s)
        assert abs(float(dice.mean(d)) - n * (0.3 / 0.9)) < 1e-9


def test_resistance_table_and_clamps():
    assert dice.resistance(10, 10) == F(1, 2)
    assert dice.resistance(13, 10) == F(65, 100)
    assert dice.resistance(20, 5) == 1 and dice.resistance(5, 20) == 0
    assert dice.resistance(20, 5, lo=5, hi=95) == F(95, 100)


def test_opposed_and_counts():
    a = dice.sum_distribution(1, 6)
    win, tie, lose = dice.opposed(a, a)
    assert tie == F(1, 6) and win == lose == F(5, 12)
    c = dice.count_at_least(2, 10, 8)
    assert c[2] == F(9, 100) and sum(c.values()) == 1


@pytest.mark.parametrize("n", [1, 2, 5, 13, 30])
def test_pools_agree_with_icepool(n):
    import icepool

    rules = dice.PoolRules()
    one = dice.die_successes(rules)
    den = 10 ** (rules.depth + 1)
    die = icepool.Die({k: int(p * den) for k, p in one.items()})
    expected = {int(k): F(q, (n @ die).denominator()) for k, q in (n @ die).items()}
    assert dice.pool_successes(n, rules) == {k: v for k, v in expected.items() if v}


def test_ten_again_against_deep_icepool_explosion():
    import icepool

    # icepool's own exploding d10, 30 rerolls deep, counted as successes at 8+
    die = icepool.d10.explode([10], depth=30).map(lambda x: x // 10 + (1 if x % 10 >= 8 else 0))
    for k in range(0, 6):
        assert abs(float(die.probability(k)) - float(dice.die_successes()[k])) < 1e-12


# ---- tail sums of weighted distributions -----------------------------------

def _slow(dist, k, op):
    return sum((p for v, p in dist.items() if op(v, k)), F(0))


@pytest.mark.parametrize("make", [lambda: dice.pool_successes(7), lambda: dice.pool_successes(3, dice.PoolRules(again=8)),
                                  lambda: dice.sum_distribution(3, 6), lambda: dice.sum_distribution(1, 100),
                                  lambda: dice.sum_distribution(4, 10)])
def test_tails_of_weighted_distributions_are_exact(make):
    import operator

    d = make()
    assert isinstance(d, dice.WeightedDist) and sum(d.values()) == 1
    assert d == dict(d) and type(dict(d)) is dict  # still a plain mapping for every caller
    lo, hi = min(d) - 2, max(d) + 2
    for k in range(lo, hi + 1):
        assert dice.at_least(d, k) == _slow(d, k, operator.ge), k
        assert dice.at_most(d, k) == _slow(d, k, operator.le), k
    # and a plain dict still takes the exact sum
    assert dice.at_least(dict(d), lo + 3) == dice.at_least(d, lo + 3)


def test_tails_are_fast():
    import time

    d = dice.pool_successes(20)
    plain = dict(d)
    t = time.perf_counter()
    for k in range(2000):
        dice.at_least(d, k % 25)
    fast = time.perf_counter() - t
    t = time.perf_counter()
    for k in range(2000):
        dice.at_least(plain, k % 25)
    slow = time.perf_counter() - t
    assert fast < slow


@pytest.mark.parametrize("text,dice_", [("2d6+4", lambda i: 2 @ i.d6 + 4), ("1D10+1D4+2", lambda i: i.d10 + i.d4 + 2),
                                       ("1d6-1", lambda i: i.d6 - 1), ("1d3-1d2", lambda i: i.d3 - i.d2),
                                       ("3", lambda i: i.Die([3]))])
def test_a_printed_roll_agrees_with_icepool(text, dice_):
    """core.dice.roll_distribution, which both Call of Cthulhu editions' damage lines use, is
    exact: the same distribution icepool computes."""
    import icepool

    want = dice_(icepool)
    total = want.denominator()
    assert dice.roll_distribution(text) == {int(k): F(w, total) for k, w in want.items()}


@pytest.mark.parametrize("text", ["", "x", "2d", "1d6+", "d6", "2d6*2"])
def test_what_is_no_roll_is_refused(text):
    with pytest.raises(ValueError, match="not a roll"):
        dice.parse_roll(text)
