"""pl-trudnosc rule defects (shared/rules/polish-firefight.md; seed
the Polish firefight text), each test citing its rule ID: the default dice mechanic gives a
playable spread over the text's own Trudność scale (pl.resolution, pl.suppress), exploding
dice are exact up to a documented truncation, and the plugin's assumptions (range rounding,
best of all sights, target size) are labelled `assumed`."""

from __future__ import annotations

import time
from fractions import Fraction as F
from pathlib import Path

import pytest

from xsys.conversions import api
from xsys.core.model import Cover, Light, Shooter, Shot, Target, generic_weapon
from xsys.core.units import Duration, Illuminance, Length, Speed
from xsys.plugins.pl_trudnosc import system as pl
from xsys.plugins.pl_trudnosc.system import MECHANICS, PlSettings, PlTrudnosc

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "plugins" / "pl_trudnosc" / "README.md"
DEFAULT = PlTrudnosc(PlSettings())


def chance(key: str, trait: int, skill: int, t: int, extra: int = 0) -> F:
    return pl.pass_chance(MECHANICS[key].successes(trait, skill, extra, t))


def shot(cls="handgun", distance=10.0, lux=10_000.0, aids=(), sights="iron", height=1.75) -> Shot:
    w = generic_weapon(cls)
    import msgspec
    w = msgspec.structs.replace(w, sights=sights)
    return Shot(shooter=Shooter(skill=0.5, speed=Speed(0), aim_time=Duration(0)), weapon=w,
                target=Target(cover=Cover(), height=Length(height)), distance=Length(distance),
                light=Light(illuminance=Illuminance(lux), aids=list(aids)))


# ---- pl.resolution: the default and its spread ------------------------------------------

def test_pl_resolution_default_is_exploding_2d6(monkeypatch):
    """pl.resolution: the default mechanic is exploding-2d6, still assumed and
    swappable (settings, --set, XSYS_PL_MECHANIC); the previous default exploding-trait stays selectable."""
    monkeypatch.delenv("XSYS_PL_MECHANIC", raising=False)
    assert pl.DEFAULT_MECHANIC == "exploding-2d6" == PlTrudnosc().mechanic.key
    assert PlTrudnosc().describe()["dice"].startswith("exploding-2d6 (assumed)")
    assert api.parse_settings(["pl-trudnosc.mechanic=sum-d6"]) == {"pl-trudnosc": {"mechanic": "sum-d6"}}
    for key in ("exploding-2d6", "exploding-trait", "exploding-d6", "sum-d6", "per-die-d10"):
        assert PlTrudnosc({"mechanic": key}).mechanic.key == key
    c = DEFAULT.check(shot())
    assert "assumed [pl.resolution]: mechanic exploding-2d6" in c.notes


@pytest.mark.parametrize("trait, skill, t", [(3, 0, 10), (3, 0, 16), (1, 0, 10), (5, 5, 30), (2, 3, 25), (4, 1, 7)])
def test_pl_resolution_exploding_2d6_is_two_dice_and_a_flat_bonus(trait, skill, t):
    """pl.resolution (exploding-2d6): 2 exploding d6 + 2 per skill level + 1 per trait point
    above 3 (-1 below) against Trudność, equal to a direct enumeration of 2d6!; the roll text
    says the bonus; every full 5 over Trudność is an additional success."""
    m = MECHANICS["exploding-2d6"]
    bonus = 2 * skill + (trait - 3)
    assert chance("exploding-2d6", trait, skill, t) == _reference(2, t - bonus, 6)
    assert m.pool(trait, skill, 0) == 2 and m.pool(trait, skill, 1) == 3  # pl.aim: one more die
    d = m.successes(trait, skill, 0, t)
    assert sum(d.values()) == 1
    assert d.get(2, 0) == _reference(2, t - bonus + 5, 6) - _reference(2, t - bonus + 10, 6)
    assert m.roll_text(2, trait, skill, t) == f"sum of 2d6 (6s explode) {'+' if bonus >= 0 else '-'} {abs(bonus)} >= {t}"


def test_pl_resolution_exploding_2d6_spread():
    """pl.resolution (exploding-2d6): the median untrained adult passes the base Trudność 10
    with 2d6 alone (11/36); each skill level is worth two trait points; every Trudność stays
    reachable (open tail) and harder never means likelier."""
    assert chance("exploding-2d6", 3, 0, 10) == F(11, 36)
    assert chance("exploding-2d6", 5, 0, 20) == chance("exploding-2d6", 3, 1, 20)
    assert chance("exploding-2d6", 1, 1, 20) == chance("exploding-2d6", 3, 0, 20)
    for trait, skill in [(1, 0), (3, 0), (3, 2), (5, 5)]:
        cs = [chance("exploding-2d6", trait, skill, t) for t in range(10, 41)]
        assert cs == sorted(cs, reverse=True) and cs[-1] > 0, (trait, skill)
    assert chance("exploding-2d6", 5, 5, 40) < F(1, 100)  # 40 is next to impossible, even for a master


def test_pl_resolution_default_spans_likely_to_unlikely_over_10_to_40():
    """pl.resolution / pl.difficulty.base / pl.defence.cover: under the default, Trudność 10
    is likely and 40 unlikely but possible; a median untrained shooter (trait 3, skill 0) has
    a real chance against a target firing from cover (20) and a prone one (18) -- 0% and
    0.5% under sum-d6."""
    key = "exploding-trait"
    for trait, skill in [(3, 0), (3, 1), (3, 2), (3, 3), (3, 5), (4, 3), (5, 5)]:
        cs = [chance(key, trait, skill, t) for t in range(10, 41)]
        assert cs == sorted(cs, reverse=True)
        assert all(0 < c for c in cs), (trait, skill)
        assert cs[-1] < F(15, 100)  # 40 is unlikely for everyone
    assert chance(key, 3, 2, 10) > F(9, 10)  # the base shot is likely for a trained median shooter
    assert F(1, 10) < chance(key, 3, 0, 20) < F(1, 5)  # firing from cover, untrained: ~11%
    assert F(1, 10) < chance(key, 3, 0, 18)  # prone
    assert F(1, 5) < chance(key, 3, 2, 20) < F(1, 2)  # cover, skill 2: ~25%
    assert chance(key, 5, 5, 40) > F(1, 10)  # a master still has a chance at 40
    # the defect: sum-d6 has no chance at all against cover for trait 3 + skill 0
    assert chance("sum-d6", 3, 0, 20) == 0 and chance("sum-d6", 3, 0, 18) == F(1, 216)


def test_pl_suppress_odwaga_is_passable_under_the_default():
    """pl.suppress: Odwaga (alone) against 15 + N keeps a falling, nonzero chance under the
    default (sum-d6: 0 from N = 4 for Odwaga 3, 0 for Odwaga 2 always)."""
    m = MECHANICS["exploding-trait"]
    got = [pl.suppression(m, 3, n).chance for n in (1, 3, 5, 10, 25)]
    assert got == sorted(got, reverse=True) and got[-1] > 0
    assert [round(float(g), 2) for g in got[:4]] == [0.25, 0.17, 0.11, 0.04]
    assert pl.suppression(m, 2, 1).chance > 0
    assert pl.suppression(MECHANICS["sum-d6"], 3, 4).chance == 0


def test_pl_shoot_converted_coc_shots_are_not_zero():
    """pl.shoot / pl.resolution: every CoC and coc-zh fixture shot converted to pl-trudnosc
    has a chance under the default (sum-d6: 7 of 15 were 0%)."""
    chances = {}
    for key in ("exploding-trait", "sum-d6"):
        out = []
        for sysd in ("coc", "coc-zh"):
            for f in sorted((ROOT / "fixtures" / sysd / "scenarios").glob("*.yaml")):
                shots, _ = api.shots_of(api.load(f))
                for _, s in shots:
                    out.append(api.odds(s, ["pl-trudnosc"], settings={"pl-trudnosc": {"mechanic": key}})[0].check.chance)
        chances[key] = out
    assert len(chances["sum-d6"]) >= 10
    assert all(c > 0 for c in chances["exploding-trait"])
    assert sum(c == 0 for c in chances["sum-d6"]) >= 5  # the defect, kept selectable


# ---- pl.resolution: exploding dice, exact up to the bounded depth ----------------------

def test_pl_resolution_exploding_die_closed_forms():
    """pl.resolution: one exploding d6 (trait 1, skill 0): P(>= 6) = 1/6, P(>= 7) = 1/6 (a
    6 then anything), P(>= 8) = 1/6 * 5/6, P(>= 12) = 1/36; 1 + 1 skill level = +2."""
    assert chance("exploding-d6", 1, 0, 6) == F(1, 6)
    assert chance("exploding-d6", 1, 0, 7) == F(1, 6)
    assert chance("exploding-d6", 1, 0, 8) == F(5, 36)
    assert chance("exploding-d6", 1, 0, 12) == F(1, 36)
    assert chance("exploding-d6", 1, 0, 13) == F(1, 36)
    assert chance("exploding-trait", 1, 1, 8) == chance("exploding-d6", 1, 0, 6)
    # additional successes: every full 10 over (default), every full 5 (exploding-d6)
    # 1d6! vs 1, step 10: >= 11 (a 6 then 5-6: 1/18) is 1+ additional; >= 21 (6, 6, 6, 3+) 2+
    d = MECHANICS["exploding-trait"].successes(1, 0, 0, 1)
    assert d[1] == F(17, 18) and d[2] == F(1, 18) - F(4, 6 ** 4) and sum(d.values()) == 1
    # step 5: >= 6 is 1+ additional (1/6), >= 11 2+ (1/18)
    d = MECHANICS["exploding-d6"].successes(1, 0, 0, 1)
    assert d[1] == F(5, 6) and d[2] == F(1, 6) - F(1, 18)
    # an extra die (pl.aim) is one more exploding d6
    assert MECHANICS["exploding-trait"].successes(2, 1, 1, 17) == MECHANICS["exploding-trait"].successes(3, 1, 0, 17)
    assert MECHANICS["exploding-trait"].successes(1, 3, -1, 1) == {0: 1}


def _reference(n: int, t: int, depth: int) -> F:
    """P(sum of n exploding d6 >= t) by direct recursion, explosion cut at `depth`."""
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def die(d: int) -> dict[int, F]:
        out = {v: F(1, 6) for v in range(1, 6)}
        if d == 0:
            out[6] = F(1, 6)
        else:
            for v, p in die(d - 1).items():
                out[6 + v] = out.get(6 + v, 0) + p / 6
        return out

    dist = {0: F(1)}
    for _ in range(n):
        new: dict[int, F] = {}
        for a, p in dist.items():
            for b, q in die(depth).items():
                new[a + b] = new.get(a + b, 0) + p * q
        dist = new
    return sum((p for v, p in dist.items() if v >= t), F(0))


@pytest.mark.parametrize("n, t", [(1, 9), (2, 13), (3, 20), (3, 45), (4, 30)])
def test_pl_resolution_exploding_sum_matches_direct_enumeration(n, t):
    """pl.resolution: the cached integer convolution equals a direct enumeration at the same
    depth (6), and differs from a deeper one (12) by less than n * 6**-7 (< 1e-4), only
    downward; below 42 + n - 1 the pass chance is exact."""
    ours = chance("exploding-d6", n, 0, t)
    assert ours == _reference(n, t, 6)
    deeper = _reference(n, t, 12)
    assert 0 <= deeper - ours <= n * F(1, 6 ** 7) < F(1, 10 ** 4)
    if t <= 42 + n - 1:
        assert ours == deeper


def test_pl_resolution_exploding_is_cached_and_fast():
    """pl.resolution: distributions are cached (lru_cache): skill ladders call the check
    hundreds of times."""
    pl._exploding_trait.cache_clear()
    pl._exploding_successes.cache_clear()
    t0 = time.perf_counter()
    for trait in range(1, 6):
        for skill in range(6):
            for t in range(0, 61):
                MECHANICS["exploding-trait"].successes(trait, skill, 1, t)
    first = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(3):
        for trait in range(1, 6):
            for skill in range(6):
                for t in range(0, 61):
                    MECHANICS["exploding-trait"].successes(trait, skill, 1, t)
    assert pl._exploding_trait.cache_info().hits >= 3 * 5 * 6 * 61
    assert first < 10 and time.perf_counter() - t0 < 1


def test_pl_resolution_curve_is_in_the_readme():
    """pl.resolution: the README shows the curve (chance against Trudność 10..40 for trait +
    skill pairs, and suppression) of the default and of the alternatives, as computed."""
    text = README.read_text(encoding="utf-8")
    for key in ("exploding-2d6", "exploding-trait", "exploding-d6", "sum-d6"):
        assert pl.curve_markdown(key) in text, key
    assert "depth 6" in text and "6⁻⁷" in text


# ---- assumptions labelled -------------------------------------------------------------

@pytest.mark.parametrize("distance, value, source", [
    (11, 1, "assumed"), (12, 1, "seed"), (17, 4, "assumed"), (20, 5, "seed"), (10, 0, None), (13.5, 2, "assumed")])
def test_pl_difficulty_range_started_step_is_assumed(distance, value, source):
    """pl.difficulty.range: +1 per 2 m beyond 10 m is the text; counting a started step
    (11 m -> +1) is the plugin's rounding: labelled assumed in the check."""
    mods = [m for m in DEFAULT.check(shot("handgun", distance)).modifiers if m.rule == "pl.difficulty.range"]
    if source is None:
        assert not mods
        return
    (m,) = mods
    assert (m.value, m.source) == (value, source)
    assert ("assumed" in m.why) == (source == "assumed")


def test_pl_difficulty_range_long_weapon_rounding_label():
    """pl.difficulty.range: long weapon, 30 m (half a step) +1 assumed; 35 m +1 seed."""
    def mod(d):
        return next(m for m in DEFAULT.check(shot("rifle", d)).modifiers if m.rule == "pl.difficulty.range")
    assert (mod(30).value, mod(30).source) == (1, "assumed")
    assert (mod(35).value, mod(35).source) == (1, "seed")


def test_pl_light_best_of_all_sights_is_labelled_assumed():
    """pl.light: with several night aids and a night sight, only the best counts (+3 at
    most, not less for more aids): labelled assumed in the modifier."""
    one = DEFAULT.check(shot(lux=0.25, aids=["hand-light"]))
    many = DEFAULT.check(shot(lux=0.25, aids=["hand-light", "nv-goggles"], sights="thermal"))
    for c in (one, many):
        (m,) = [m for m in c.modifiers if m.rule == "pl.light"]
        assert m.value == 3 and m.source == "assumed" and "best of all" in m.why
    assert one.target == many.target


def test_pl_shoot_target_size_is_assumed_without_effect():
    """pl.shoot / pl.difficulty.base: every target is the text's human silhouette; a large
    target (single shot) has no rule: named in the notes as assumed, no effect."""
    big, std = DEFAULT.check(shot(height=3.0)), DEFAULT.check(shot())
    assert big.chance == std.chance and big.target == std.target
    assert any("target height" in n and "assumed" in n and "large" in n for n in big.notes)
    assert not any("target height" in n for n in std.notes)
