"""The rules of the Polish difficulty-number system (shared/rules/polish-firefight.md, pl.*) that xsys
plays: a test of trait + skill against a difficulty (trudność) under the chosen mechanic (exploding
d6, sum of d6, per-die d10), the difficulty of a shot from range, aim, motion, cover and light,
damage, armor, barriers, suppression, grenades and the published tiers. :class:`PlRules` is the
game; sheet.py maps the character sheet and the shot to the neutral model; model.py holds the
documents; system.py is the declaration that binds them.

Per-shot arithmetic of pl-trudnosc's check that depends on a few small values only,
computed once per process (warm odds of a shot within 1 ms).

:func:`shot_damage` is the damage part of ``PlTrudnosc.check_at`` (pl.damage, pl.armor,
pl.barrier, pl.shoot, pl.grenade): exact Fractions with denominators up to 6^12 cost most
of a check when multiplied out on every call. ``tests/test_fast_odds.py`` checks that it
gives exactly what the plain computation gives.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, Hashable, Literal, Mapping, Sequence

import msgspec

from xsys.core import dice
from xsys.core.cache import package_toml
from xsys.core.equating import Tier
from xsys.core.errors import InputError
from xsys.core.formulas import Formula
from xsys.core.ladder import Ladder, Step, ladders_from_data
from xsys.core.model import Name, Shot, Weapon
from xsys.core.registry import catalog
from xsys.core.system import CharacteristicSpec, System, percentile_ladder
from xsys.core.trace import Check, Modifier, fraction_text
from xsys.core.units import Duration, Energy, Length, Speed, brief, unit_factor
from xsys.core.vocab import POSTURE_HEIGHT

from .model import Postać


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


KEY = "pl-trudnosc"
ENV_MECHANIC = "XSYS_PL_MECHANIC"
ONE = Fraction(1)
ZERO = Fraction(0)


# ---- tables -----------------------------------------------------------------------

def tables() -> dict[str, Any]:
    """tables.toml, parsed once."""
    return package_toml(__package__)


def _range_ladder(name: str, spec: Mapping[str, Any]) -> Ladder:
    """pl.difficulty.range: +1 per started step beyond the base range (rounding "up": the
    first row at or beyond the distance). Below the base range: +0 (the base is the floor)."""
    from xsys.core.units import parse

    base = float(parse(spec["base"], Length))
    step = float(parse(spec["step"], Length))
    rows = [Step(k, base + k * step, "pl.difficulty.range", "seed",
                 f"{base + k * step:g} m" + (" (base range, pl.difficulty.base)" if k == 0 else ""))
            for k in range(int(spec["max_steps"]) + 1)]
    return Ladder.build(name, "m", rows, rounding="up", native_order="increasing")


@lru_cache(maxsize=None)
def _range_base_step(weapon: str) -> tuple[float, float]:
    from xsys.core.units import parse

    spec = tables()["range"][weapon]
    return float(parse(spec["base"], Length)), float(parse(spec["step"], Length))


def range_on_whole_step(distance: float, weapon: Literal["short", "long"]) -> bool:
    """Whether `distance` is at or below the base range or a whole number of steps beyond it:
    there the text's "+1 per 2 m / 10 m" needs no rounding (pl.difficulty.range, seed);
    elsewhere the started step counts (assumed rounding, digest ambiguity 5)."""
    base, step = _range_base_step(weapon)
    steps = (float(distance) - base) / step
    return steps <= 0 or abs(steps - round(steps)) < 1e-9


def range_modifier(distance: float, weapon: Literal["short", "long"]) -> int:
    """pl.difficulty.range as a formula (no cap): +1 per started step beyond the base
    range (ceil), 0 at or below it. The ladders of :func:`all_ladders` are its table."""
    base, step = _range_base_step(weapon)
    over = float(distance) - base
    if over <= 0:
        return 0
    # ceil with a tolerance so that 12.000000000001 m (unit round-off) is still +1
    return math.ceil(over / step - 1e-9)


def _aim_ladder() -> Ladder:
    """pl.aim: aiming turns spent before the shot <- seconds of aim (full turns count;
    one tura = 3 s, assumed: the plugin's unit ``pl_tura``, system.py)."""
    tura = turn_seconds()
    rows = [Step(k, k * tura, "pl.aim", "assumed", f"{k} tura" if k == 1 else f"{k} tur")
            for k in range(int(tables()["aim"]["max_turns"]) + 1)]
    # each step stands for its own row (0 turns = no aim at all, 1 = one full tura): a middle
    # of the step would read "0 turns" as 1.5 s of aim, another system's careful aim
    return Ladder.build("aim", "s", rows, rounding="down", native_order="increasing", represent="row")


def _points_ladder(name: str, rule: str) -> Ladder:
    pts = tables()["points"]
    table = {"axis": pts["axis"], "rounding": pts["rounding"], "rule": rule, "source": "assumed",
             "native_order": "increasing", "rows": pts["rows"]}
    lad = Ladder.from_table(name, table)
    if name != "damage" or "damage_floor" not in pts:
        return lad
    # pl.damage (assumed): a weapon that carries any energy to speak of does a point (tables.toml [points]
    # damage_floor); each row keeps the energy it stands for, a 0-point weapon none
    reps = {s.native: s.rep for s in lad.steps}
    rows = [{**r, "rep": f"{reps[r['native']] if r['native'] else 0:g} J",
             **({"at": pts["damage_floor"]} if r["native"] == 1 else {})} for r in pts["rows"]]
    return Ladder.from_table(name, {**table, "rows": rows})


@lru_cache(maxsize=1)
def all_ladders() -> dict[str, Ladder]:
    data = tables()
    lads = ladders_from_data(data, "pl_trudnosc/tables.toml")
    lads["range_short"] = _range_ladder("range_short", data["range"]["short"])
    lads["range_long"] = _range_ladder("range_long", data["range"]["long"])
    lads["aim"] = _aim_ladder()
    lads["damage"] = _points_ladder("damage", "pl.damage")
    lads["armor"] = _points_ladder("armor", "pl.armor")
    lads["barrier"] = _points_ladder("barrier", "pl.barrier")
    return lads


def turn_seconds() -> float:
    """One tura in seconds (unit ``pl_tura``; the text gives no length: assumed)."""
    return unit_factor("pl_tura", Duration)


# ---- resolution mechanics (pl.resolution, assumed) --------------------------------

Dist = dict[int, Fraction]


@dataclass(frozen=True)
class Mechanic:
    """One way to resolve "test X z Y" against Trudność. ``successes(trait, skill,
    extra_dice, trudnosc)`` is the exact distribution of the number of successes: 0 =
    failed, 1 = passed, 1 + k = passed with k additional successes."""

    key: str
    dice: str  # in words, for System.dice
    successes: Callable[[int, int, int, int], Dist]
    pool: Callable[[int, int, int], int]  # dice rolled for (trait, skill, extra_dice)
    needs: Callable[[int, int, int], str]  # (pool, skill, trudnosc) -> how to read the roll
    note: str = ""
    # (pool, trait, skill, trudnosc) -> how to read the roll, for a mechanic whose roll also
    # adds the trait (exploding-2d6); ``needs`` otherwise
    trait_needs: Callable[[int, int, int, int], str] | None = None

    def roll_text(self, n: int, trait: int, skill: int, trudnosc: int) -> str:
        """How to read the roll of a test with `n` dice, `trait`, `skill` against `trudnosc`."""
        return self.trait_needs(n, trait, skill, trudnosc) if self.trait_needs else self.needs(n, skill, trudnosc)


@lru_cache(maxsize=None)
def _sum_d6(trait: int, skill: int, extra: int, trudnosc: int) -> Dist:
    """sum-d6: roll (trait + skill) d6 and add them; the test passes when the sum reaches
    Trudność; every full 5 points above it is one additional success."""
    step = int(tables()["resolution"]["sum-d6"]["step"])
    n = trait + skill + extra
    if n <= 0:
        return {0: ONE}
    out: Dist = {}
    for total, p in dice.sum_distribution(n, 6).items():
        k = 0 if total < trudnosc else 1 + (total - trudnosc) // step
        out[k] = out.get(k, ZERO) + p
    return out


@lru_cache(maxsize=None)
def _per_die_d10(trait: int, skill: int, extra: int, trudnosc: int) -> Dist:
    """per-die-d10: roll trait d10, add the skill to each die; every die reaching Trudność
    is a success."""
    n = trait + extra
    if n <= 0:
        return {0: ONE}
    return {k: p for k, p in dice.count_at_least(n, 10, trudnosc - skill).items() if p}


@lru_cache(maxsize=None)
def _exploding_die_weights(depth: int) -> tuple[tuple[int, ...], int]:
    """One exploding d6 as integer weights: ``weights[v]`` ways out of ``den`` to show v.
    A 6 rolls again and adds, at most `depth` times: after `depth` sixes in a row the
    last 6 stays a 6 (truncation; its mass is 6**-(depth + 1), see :func:`_exploding_successes`)."""
    den = 6 ** (depth + 1)
    weights = [0] * (6 * (depth + 1) + 1)
    for k in range(depth + 1):  # k sixes before this roll, each 1/6
        w = 6 ** (depth - k)  # (1/6)^(k+1) of den
        for face in range(1, 6):
            weights[6 * k + face] += w
    weights[6 * (depth + 1)] += 1  # depth + 1 sixes in a row: the roll stops here
    return tuple(weights), den


@lru_cache(maxsize=None)
def _exploding_sum_tails(n: int, depth: int) -> tuple[tuple[int, ...], int]:
    """n exploding d6 summed: ``tails[t]`` = ways to reach a total of at least t (t = 0 ..
    max), over ``den``. Built one die at a time from n - 1 (cached: the skill ladders and the
    equating ask for the same pools hundreds of times)."""
    die, dden = _exploding_die_weights(depth)
    if n == 1:
        dist = list(die)
        den = dden
    else:
        prev_tails, pden = _exploding_sum_tails(n - 1, depth)
        prev = [prev_tails[t] - (prev_tails[t + 1] if t + 1 < len(prev_tails) else 0)
                for t in range(len(prev_tails))]
        dist = [0] * (len(prev) + len(die) - 1)
        for i, a in enumerate(prev):
            if a:
                for j, b in enumerate(die):
                    if b:
                        dist[i + j] += a * b
        den = pden * dden
    tails = [0] * len(dist)
    acc = 0
    for t in range(len(dist) - 1, -1, -1):
        acc += dist[t]
        tails[t] = acc
    return tuple(tails), den


@lru_cache(maxsize=None)
def _exploding_successes(n: int, bonus: int, trudnosc: int, step: int, depth: int) -> Dist:
    """n exploding d6 summed, plus a flat `bonus`, against Trudność: 0 = failed, 1 = passed,
    1 + k = passed with every full `step` points above it an additional success.

    Exact with integers/Fractions, but with the explosion bounded at `depth` re-rolls per die
    (tables.toml: 6): a die that shows depth + 1 sixes in a row stops at 6 x (depth + 1) = 42
    instead of rolling on. That changes the outcome of at most n x 6**-(depth + 1) of the
    mass (3.6e-6 per die; < 4e-5 for the largest pool of 11 dice, so < 1e-4), and only ever
    lowers a total: every chance here is a lower bound of the untruncated one within that
    error, and the pass chance itself is exact while Trudność - bonus <= 6 x (depth + 1) +
    n - 1 (a truncated die already passes such a Trudność)."""
    if n <= 0:
        return {0: ONE}
    tails, den = _exploding_sum_tails(n, depth)
    top = len(tails) - 1
    need = trudnosc - bonus

    def at_least(t: int) -> int:
        return tails[max(t, 0)] if t <= top else 0

    out: Dist = {}
    fail = den - at_least(need)
    if fail:
        out[0] = Fraction(fail, den)
    k = 1
    while need + (k - 1) * step <= top:
        lo = need + (k - 1) * step
        w = at_least(lo) - at_least(lo + step)
        if w:
            out[k] = Fraction(w, den)
        k += 1
    return out


def _exploding_spec(key: str) -> tuple[int, int, int]:
    spec = tables()["resolution"][key]
    return int(spec["step"]), int(spec["depth"]), int(spec.get("per_level", 0))


def _two_dice_spec() -> tuple[int, int, int, int, int, int]:
    """exploding-2d6's (dice, per_level, per_trait, median_trait, step, depth) from tables.toml."""
    spec = tables()["resolution"]["exploding-2d6"]
    return (int(spec["dice"]), int(spec["per_level"]), int(spec["per_trait"]), int(spec["median_trait"]),
            int(spec["step"]), int(spec["depth"]))


def _two_dice_bonus(trait: int, skill: int) -> int:
    """exploding-2d6: the flat part of the roll, `per_level` per skill level and `per_trait`
    per trait point above (or below) the median adult's."""
    _, per_level, per_trait, median, _, _ = _two_dice_spec()
    return per_level * skill + per_trait * (trait - median)


@lru_cache(maxsize=None)
def _exploding_2d6(trait: int, skill: int, extra: int, trudnosc: int) -> Dist:
    """exploding-2d6 (the default): roll 2d6, a 6 rolls again and adds (again on
    another 6), and add 2 per skill level and 1 per trait point above the median adult's 3
    (take 1 per point below); the test passes when the total reaches Trudność; every full
    `step` (5) points above it is one additional success. Aiming's extra die is one more
    exploding d6. Everyone rolls the same dice, so the median untrained adult passes the
    base Trudność 10 with 2d6 alone (30.6%), and the trait moves the total by a skill level
    at most either way (README: why). Truncation: :func:`_exploding_successes`."""
    n, _, _, _, step, depth = _two_dice_spec()
    return _exploding_successes(n + extra, _two_dice_bonus(trait, skill), trudnosc, step, depth)


def _signed(v: int) -> str:
    return f"+ {v}" if v >= 0 else f"- {-v}"


@lru_cache(maxsize=None)
def _exploding_d6(trait: int, skill: int, extra: int, trudnosc: int) -> Dist:
    """exploding-d6: roll (trait + skill) d6, a 6 rolls again and adds (and again on
    another 6), and sum; the test passes when the sum reaches Trudność; every full `step`
    (5) points above it is one additional success. Truncation: :func:`_exploding_successes`."""
    step, depth, _ = _exploding_spec("exploding-d6")
    return _exploding_successes(trait + skill + extra, 0, trudnosc, step, depth)


@lru_cache(maxsize=None)
def _exploding_trait(trait: int, skill: int, extra: int, trudnosc: int) -> Dist:
    """exploding-trait (the previous default): roll trait d6, a 6 rolls again and adds, sum them and
    add `per_level` (2) per skill level; the test passes when the total reaches Trudność;
    every full `step` (10) points above it is one additional success. Aiming's extra die is
    one more exploding d6. Truncation: :func:`_exploding_successes`."""
    step, depth, per_level = _exploding_spec("exploding-trait")
    return _exploding_successes(trait + extra, per_level * skill, trudnosc, step, depth)


MECHANICS: dict[str, Mechanic] = {
    "exploding-2d6": Mechanic(
        "exploding-2d6",
        "exploding-2d6 (assumed): 2d6 summed, each 6 rolls again and adds, +2 per skill level and +1 per trait "
        "point above 3 (-1 per point below), against Trudność; each full 5 over it is an additional success",
        _exploding_2d6,
        lambda trait, skill, extra: _two_dice_spec()[0] + extra,
        lambda n, skill, t: f"sum of {n}d6 (6s explode) + {_two_dice_spec()[1] * skill} + trait >= {t}",
        trait_needs=lambda n, trait, skill, t: f"sum of {n}d6 (6s explode) {_signed(_two_dice_bonus(trait, skill))} >= {t}",
    ),
    "exploding-trait": Mechanic(
        "exploding-trait",
        "exploding-trait (assumed): trait d6 summed, each 6 rolls again and adds, +2 per skill level, against "
        "Trudność; each full 10 over it is an additional success",
        _exploding_trait,
        lambda trait, skill, extra: trait + extra,
        lambda n, skill, t: f"sum of {n}d6 (6s explode) + {_exploding_spec('exploding-trait')[2] * skill} >= {t}",
    ),
    "exploding-d6": Mechanic(
        "exploding-d6",
        "exploding-d6 (assumed): (trait + skill) d6 summed, each 6 rolls again and adds, against Trudność; "
        "each full 5 over it is an additional success",
        _exploding_d6,
        lambda trait, skill, extra: trait + skill + extra,
        lambda n, skill, t: f"sum of {n}d6, 6s explode, >= {t}",
    ),
    "sum-d6": Mechanic(
        "sum-d6",
        "sum-d6 (assumed): (trait + skill) d6 summed against Trudność; each full 5 over it is an additional success",
        _sum_d6,
        lambda trait, skill, extra: trait + skill + extra,
        lambda n, skill, t: f"sum of {n}d6 >= {t}",
    ),
    "per-die-d10": Mechanic(
        "per-die-d10",
        "per-die-d10 (assumed): trait d10, skill added to each die; each die reaching Trudność is a success",
        _per_die_d10,
        lambda trait, skill, extra: trait + extra,
        lambda n, skill, t: f"{n}d10 +{skill} each, 1+ die >= {t}",
    ),
}
DEFAULT_MECHANIC = tables()["resolution"]["default"]


def pass_chance(dist: Mapping[int, Fraction]) -> Fraction:
    return ONE - dist.get(0, ZERO)


CURVE_TRUDNOSC = (10, 15, 20, 25, 30, 35, 40)
CURVE_COMBOS = ((2, 0), (3, 0), (3, 1), (3, 2), (3, 3), (3, 5), (4, 3), (5, 5))


def curve_markdown(key: str, combos: Sequence[tuple[int, int]] = CURVE_COMBOS,
                   trudnosci: Sequence[int] = CURVE_TRUDNOSC) -> str:
    """pl.resolution: the chance to pass against Trudność 10..40 for trait + skill pairs under
    mechanic `key`, and Odwaga alone against suppression (pl.suppress, 15 + N), as the
    markdown table the README shows (a test checks the README holds it)."""
    mech = MECHANICS[key]

    def pct(p: Fraction) -> str:
        if p == 0 or p == 1:
            return f"{int(p) * 100}%"
        v = float(p) * 100
        return "<0.1%" if v < 0.05 else ">99.9%" if v > 99.95 else f"{v:.1f}%"

    out = ["| trait + skill | " + " | ".join(f"T{t}" for t in trudnosci) + " |",
           "|---|" + "---:|" * len(trudnosci)]
    for trait, skill in combos:
        out.append(f"| {trait} + {skill} | " + " | ".join(
            pct(pass_chance(mech.successes(trait, skill, 0, t))) for t in trudnosci) + " |")
    rounds = (1, 3, 5, 10, 15, 20, 25)
    out.append("")
    out.append("| suppression, Odwaga alone | " + " | ".join(f"N={n} (T{15 + n})" for n in rounds) + " |")
    out.append("|---|" + "---:|" * len(rounds))
    for odwaga in (2, 3, 5):
        out.append(f"| Odwaga {odwaga} | " + " | ".join(
            pct(suppression(mech, odwaga, n).chance) for n in rounds) + " |")
    return "\n".join(out) + "\n"


# ---- settings ----------------------------------------------------------------------

class PlSettings(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """Per-run settings of pl-trudnosc. ``mechanic``: a key of MECHANICS (``exploding-d6``,
    ``sum-d6``, ``per-die-d10``). Without settings, ``XSYS_PL_MECHANIC`` chooses, else the
    default of tables.toml (``exploding-2d6``)."""

    mechanic: Name = DEFAULT_MECHANIC

    def __post_init__(self) -> None:
        if self.mechanic not in MECHANICS:
            raise ValueError(f"@mechanic: unknown mechanic {self.mechanic!r}; "
                             f"expected one of {', '.join(sorted(MECHANICS))}")


# ---- vocabulary maps ---------------------------------------------------------------

RODZAJ_OF_CLASS = {"handgun": "krótka", "revolver": "krótka", "smg": "długa", "carbine": "długa",
                   "rifle": "długa", "shotgun": "długa", "mg": "długa", "thrown": "rzucana"}
# "test Motoryki z Bronią krótką": genitive of the trait, instrumental of the skill
GENITIVE = {"Motoryka": "Motoryki", "Percepcja": "Percepcji", "Atletyka": "Atletyki", "Odwaga": "Odwagi"}
INSTRUMENTAL = {"Broń krótka": "Bronią krótką", "Broń długa": "Bronią długą", "Rzucanie": "Rzucaniem",
                "Czujność": "Czujnością"}
NIGHT_AIDS = {"nv-goggles", "thermal-goggles", "weapon-light", "hand-light"}
NIGHT_SIGHTS = {"nv-sight", "thermal"}
STANDARD_HEIGHT = 1.75  # the neutral Target's default height: the text's "human silhouette"


def skill_trait(skill: str) -> str:
    return tables()["skills"][skill]["trait"]


def skill_rule(skill: str) -> str:
    return tables()["skills"][skill]["rule"]


# ---- rules that are formulas -------------------------------------------------------

def aim_modifiers(turns: int) -> tuple[int, int]:
    """pl.aim: (extra dice, Trudność change) after `turns` aiming turns: the first gives +1
    die, each further one -1 Trudność."""
    a = tables()["aim"]
    if turns <= 0:
        return 0, 0
    return int(a["first_turn_dice"]), int(a["further_turn_difficulty"]) * (turns - 1)


def suppression_difficulty(*rounds: int) -> int:
    """pl.suppress: Odwaga test at 15 + rounds fired toward the target; several shooters
    suppressing the same target at once add up their rounds (reading of "fired in his
    direction"; the text allows several suppressors)."""
    if any(r < 0 for r in rounds):
        raise InputError("rounds fired must not be negative", found=repr(rounds))
    return int(tables()["suppress"]["base"]) + sum(rounds)


def movement(npc: Postać) -> dict[str, Length]:
    """pl.sprint / pl.crawl / pl.swim: distance per tura. Sprint and swim have no unit in
    the text: metres (assumed); crawl is stated in metres."""
    return dict(_movement(npc.Motoryka, npc.Atletyka, tables()["movement"]["military_training"] in npc.Zalety)[0])


def movement_speeds(npc: Postać) -> dict[str, Speed]:
    """The same distances as speeds, per ``pl_tura`` (3 s, assumed)."""
    return dict(_movement(npc.Motoryka, npc.Atletyka, tables()["movement"]["military_training"] in npc.Zalety)[1])


@lru_cache(maxsize=None)
def _movement(motoryka: int, atletyka: int, trained: bool) -> tuple[dict[str, Length], dict[str, Speed]]:
    """Distances and speeds by the traits they depend on, with the unit factors pint gives
    (a test compares them with pint for every trait value)."""
    mv = tables()["movement"]
    unit = mv["length_unit"]
    crawl, crawl_unit = _q(mv["crawl_trained"] if trained else mv["crawl"])
    dist = {k: Length(float(v) * unit_factor(u, Length)) for k, v, u in
            (("sprint", mv["sprint_per_motoryka"] * motoryka, unit), ("crawl", crawl, crawl_unit),
             ("swim", mv["swim_per_atletyka"] * atletyka, unit))}
    per_second = 1.0 / turn_seconds()  # pint converts m/pl_tura to m/s by this factor
    return dist, {k: Speed(float(d) * per_second) for k, d in dist.items()}


def _q(text: str) -> tuple[float, str]:
    num, unit = text.split(None, 1)
    return float(num), unit


@dataclass(frozen=True)
class TestOutcome:
    """A test without a shot: exact chance to pass and the distribution of the effect."""

    chance: Fraction
    effect: dict[int, Fraction] = field(default_factory=dict)  # effect value -> probability (failures excluded)
    trudnosc: int = 0
    pool: int = 0


def _test(mechanic: Mechanic, trait: int, skill: int, trudnosc: int, extra: int = 0) -> Dist:
    return mechanic.successes(trait, skill, extra, trudnosc)


def observe(mechanic: Mechanic, percepcja: int, czujnosc: int, hidden: int,
            trudnosc: int | None = None) -> TestOutcome:
    """pl.observe: Percepcja (wzrok) with Czujność; passed = every enemy not hidden behind
    cover is spotted; each additional success reveals one hidden enemy (capped by how
    many there are). Trudność not stated: 10 (assumed)."""
    t = int(tables()["observe"]["difficulty"]) if trudnosc is None else trudnosc
    dist = _test(mechanic, percepcja, czujnosc, t)
    eff: dict[int, Fraction] = {}
    for k, p in dist.items():
        if k >= 1:
            r = min(k - 1, hidden)
            eff[r] = eff.get(r, ZERO) + p
    return TestOutcome(pass_chance(dist), eff, t, mechanic.pool(percepcja, czujnosc, 0))


def suppression(mechanic: Mechanic, odwaga: int, *rounds: int) -> TestOutcome:
    """pl.suppress: chance the target ignores the fire (passes Odwaga at 15 + rounds; a
    single-trait test: skill 0)."""
    t = suppression_difficulty(*rounds)
    dist = _test(mechanic, odwaga, 0, t)
    return TestOutcome(pass_chance(dist), {}, t, mechanic.pool(odwaga, 0, 0))


def grenade(mechanic: Mechanic, motoryka: int, rzucanie: int, *, distance: float, in_radius: int,
            room_size: float | None = None, blast_radius: float | None = None, room_occupants: int = 0,
            room_hidden: int = 0) -> TestOutcome:
    """pl.grenade: Motoryka with Rzucanie; passed = 1 enemy in the blast, each additional
    success 1 more (up to those in the radius). In an enclosed room smaller than the blast
    radius everyone in it is affected automatically, except those additionally hidden
    (no roll: "automatycznie"). Throw Trudność: as a short weapon (assumed)."""
    if room_size is not None and blast_radius is not None and room_size < blast_radius:
        return TestOutcome(ONE, {max(0, room_occupants - room_hidden): ONE}, 0, 0)
    t = int(tables()["difficulty"]["base"]) + range_modifier(distance, "short")
    dist = _test(mechanic, motoryka, rzucanie, t)
    eff: dict[int, Fraction] = {}
    for k, p in dist.items():
        if k >= 1:
            n = min(k, in_radius)
            eff[n] = eff.get(n, ZERO) + p
    return TestOutcome(pass_chance(dist), eff, t, mechanic.pool(motoryka, rzucanie, 0))


# ---- the system --------------------------------------------------------------------

# The text gives no skill scale (pl.traits): skills 0-5 are assumed to read like dots, 0
# untrained, 1-2 amateur, 3 professional, 4 expert, 5 master (README).
PL_TIERS = ((0, "untrained", 0, 0), (1, "amateur", 1, 1), (2, "professional", 3, 3),
            (3, "expert", 4, 4), (4, "master", 5, 5))


def damage_energy(weapon: Weapon) -> float:
    """The muzzle energy (J) a weapon's damage points are read from (pl.damage, assumed):
    its cartridge's reference energy (core.vocab.CARTRIDGES; one cartridge, one damage
    line), else its own."""
    return catalog().weapon_basis(weapon).energy


# ---- cached builders (module level: shared by every instance) ------------------------

@lru_cache(maxsize=1)
def _characteristics() -> dict[str, CharacteristicSpec]:
    tr = tables()["traits"]
    dist = {int(k): Fraction(int(v), 100) for k, v in tr["distribution"].items()}
    if sum(dist.values()) != 1:
        raise ValueError("pl_trudnosc/tables.toml: trait distribution must add up to 100")
    return {name: CharacteristicSpec(neutral, percentile_ladder(f"trait {name}", dist, tr["rule"], tr["source"]))
            for name, neutral in tr["neutral"].items()}


@lru_cache(maxsize=None)
def _formulas() -> tuple[Formula, ...]:
    """The formulas of this module's rules (formulas.py, given this module: no import circle)."""
    import sys

    from .formulas import build

    return tuple(build(sys.modules[__name__]))


class PlRules(System):
    """The game of :class:`PlTrudnosc` (its checks and its rules), which sheet.py's conversions and
    system.py's declaration build on."""

    def skill_levels(self, skill: str) -> Sequence[int]:
        tr = tables()["traits"]
        return range(int(tr["skill_min"]), int(tr["skill_max"]) + 1)

    def tiers(self, skill: str) -> tuple[Tier, ...]:
        return tuple(Tier(r, n, lo, ty, 'pl.shoot', 'assumed') for r, n, lo, ty in PL_TIERS)

    def untrained_level(self, skill: str) -> float | None:
        """Level 0 is the untrained adult (PL_TIERS, assumed): a skill with no battery (Czujność)
        is linked on the published competence scale (core.equating.standing_score)."""
        return 0.0

    def attribute_levels(self, skill: str, context: Mapping[str, Any] | None = None) -> float:
        """The skill levels the NPC's trait is worth over the median 3: the levels that give a median
        adult the chance this trait gives untrained on the unmodified test (pl.observe), read off
        the median's curve (under exploding-2d6 a trait point is half a level, +1 against +2)."""
        trait = self._trait(skill, context)
        if trait == 3:
            return 0.0
        want = float(self.roll_chance(skill, 0, context))
        median = {skill_trait(skill): 3}
        levels = list(self.skill_levels(skill))
        curve = [float(self.roll_chance(skill, lv, median)) for lv in levels]
        pairs = list(zip(levels, curve))
        if want <= curve[0]:
            (a, ya), (b, yb) = pairs[0], pairs[1]
        elif want >= curve[-1]:
            (a, ya), (b, yb) = pairs[-2], pairs[-1]
        else:
            (a, ya), (b, yb) = next((p, q) for p, q in zip(pairs, pairs[1:]) if p[1] <= want <= q[1])
        return float(a) + (want - ya) * (b - a) / (yb - ya) if yb != ya else float(a)

    def competence_rule(self, skill: str) -> str:
        return skill_rule(skill)

    def skill_context(self, skill: str, context: Mapping[str, Any] | None) -> dict[str, Any]:
        """A test is trait + skill: the skill's trait (3, the median, when not given)."""
        return {skill_trait(skill): self._trait(skill, context)}

    def roll_chance(self, skill: str, level: Any, context: Mapping[str, Any] | None = None) -> Fraction:
        """Czujność: the unmodified observation test (pl.observe; its Trudność is assumed)."""
        difficulty = int(tables()["observe"]["difficulty"])
        return pass_chance(self.mechanic.successes(self._trait(skill, context), int(level), 0, difficulty))

    def shot_context(self, shot: Shot) -> dict[str, Any]:
        dex = shot.shooter.characteristics.get("dexterity", 0.5)
        return {"Motoryka": _characteristics()["Motoryka"].ladder.step_for(dex).native}

    @staticmethod
    def _trait(skill: str, context: Mapping[str, Any] | None) -> int:
        trait = skill_trait(skill)
        v = (context or {}).get(trait, 3)
        return int(v) if v is not None else 3

    # ---- the check -----------------------------------------------------------------
    def difficulty(self, shot: Shot) -> tuple[list[Modifier], int, list[str]]:
        """The situation modifiers of a shot (Trudność and dice), the aiming turns, and
        notes on what the text does not cover. Trudność = 10 + the difficulty modifiers."""
        lads = all_ladders()
        mods: list[Modifier] = []
        notes: list[str] = []
        cls = shot.weapon.weapon_class
        thrown = cls == "thrown"
        long_arm = RODZAJ_OF_CLASS[cls] == "długa"
        # pl.difficulty.range: base 10 m short / 25 m long; thrown like short (pl.grenade, assumed)
        r = range_modifier(shot.distance, "long" if long_arm else "short")
        if r:
            step = "10 m beyond 25 m" if long_arm else "2 m beyond 10 m"
            # the text gives +1 per whole step; a started step counting (11 m -> +1) is the
            # plugin's rounding (digest ambiguity 5): assumed unless the distance is a whole step
            started = not range_on_whole_step(shot.distance, "long" if long_arm else "short")
            mods.append(Modifier(rule="pl.grenade" if thrown else "pl.difficulty.range", kind="difficulty",
                                 value=r, source="assumed" if thrown or started else "seed",
                                 why=f"{brief(shot.distance)}: +1 per started {step}"
                                     + (" (assumed: a started step counts as a whole one)" if started else "")))
        if thrown:
            notes.append("assumed [pl.grenade]: the throw's Trudność is not stated; read as a short weapon")
        # pl.difficulty.target-motion / shooter-motion: gait ladders over m/s (nearest preset)
        ts = lads["target_motion"].step_for(shot.target.speed)
        if ts.native:
            mods.append(Modifier(rule=ts.rule, kind="difficulty", value=ts.native, source=ts.source,
                                 why=f"target moves {brief(shot.target.speed)} ({ts.label})"))
        ss = lads["shooter_motion"].step_for(shot.shooter.speed)
        if ss.native:
            mods.append(Modifier(rule=ss.rule, kind="difficulty", value=ss.native, source=ss.source,
                                 why=f"shooter moves {brief(shot.shooter.speed)} ({ss.label})"))
        # pl.defence.cover / pl.defence.posture: firing from cover replaces the posture
        # modifier (the posture values are for "nieosłonięta" positions; assumed: no stacking)
        exposure = shot.target.cover.exposure
        cs = lads["cover"].step_for(exposure)
        ps = lads["posture"].step_for(POSTURE_HEIGHT[shot.target.posture])
        if cs.native:
            hidden = exposure == 0
            mods.append(Modifier(rule=cs.rule, kind="difficulty", value=cs.native,
                                 source="assumed" if hidden or exposure > 0.2 else cs.source,
                                 why=("target hidden behind cover (text: no Difficulty given; read as firing from cover)"
                                      if hidden else f"target behind cover, {exposure:g} visible (zza osłony)")))
            if ps.native:
                notes.append(f"assumed [pl.defence.posture]: {ps.label} (+{ps.native}) does not stack with cover")
        elif ps.native:
            src = "seed" if shot.target.posture in ("kneeling", "prone") else "assumed"
            mods.append(Modifier(rule=ps.rule, kind="difficulty", value=ps.native, source=src,
                                 why=f"target {shot.target.posture} in the open ({ps.label})"))
        if 0 < 1 - exposure and not cs.native:
            notes.append(f"assumed [pl.defence.cover]: {exposure:g} visible is read as uncovered")
        # pl.aim: aiming turns from seconds (tura = 3 s, assumed)
        turns = lads["aim"].native(shot.shooter.aim_time)
        dice_bonus, diff = aim_modifiers(turns)
        if dice_bonus:
            mods.append(Modifier(rule="pl.aim", kind="dice", value=dice_bonus, source="seed",
                                 why=f"aimed {turns} tura/tur ({shot.shooter.aim_time}; tura = 3 s assumed)"))
        if diff:
            mods.append(Modifier(rule="pl.aim", kind="difficulty", value=diff, source="seed",
                                 why=f"{turns - 1} further aiming turn(s)"))
        if turns >= int(tables()["aim"]["max_turns"]):
            notes.append(f"assumed [pl.aim]: aiming counted up to {turns} turns (the text gives no cap)")
        # pl.light (assumed): the text has no light rules
        ls = lads["light"].step_for(shot.light.illuminance)
        light = ls.native
        aids = set(shot.light.aids) | ({shot.weapon.sights} & NIGHT_SIGHTS)
        helping = aids & (NIGHT_AIDS | NIGHT_SIGHTS)
        if light and helping:
            light = min(light, 3)
        if light:
            mods.append(Modifier(rule="pl.light", kind="difficulty", value=light, source="assumed",
                                 why=f"light {shot.light.illuminance} ({ls.label})"
                                     + (f", with {', '.join(sorted(helping))} (assumed: the best of all the shooter's "
                                        "sights and aids counts, at most +3)" if light != ls.native else "")))
        # what the text does not cover
        ignored = []
        if shot.elevation:
            ignored.append(f"elevation {shot.elevation}")
        if shot.called_location:
            ignored.append(f"called shot to {shot.called_location}")
        if shot.burst > 1:
            ignored.append(f"burst of {shot.burst} (no burst rule; one shot resolved)")
        if shot.underwater:
            ignored.append("underwater")
        sh = shot.shooter
        if sh.posture != "standing":
            ignored.append(f"shooter {sh.posture} (posture counts only for the target)")
        if sh.hands == 1 or sh.off_hand or sh.braced:
            ignored.append("shooter's hands/brace")
        if float(shot.target.height) != STANDARD_HEIGHT:
            ignored.append(f"target height {shot.target.height} (assumed: every target is the text's human "
                           "silhouette; no large- or small-target rule, single shot or burst)")
        if ignored:
            notes.append("not in the text, no effect: " + "; ".join(ignored))
        return mods, turns, notes

    def check_at(self, shot: Shot, skill: str, level: Any, context: Mapping[str, Any] | None = None,
                 extra: Sequence[Modifier] = ()) -> Check:
        """pl.shoot: test Motoryka z Bronią (or Rzucanie) against the shot's Trudność."""
        mech = self.mechanic
        cls = shot.weapon.weapon_class
        motoryka = self._trait(skill, context)
        level = int(level)
        mods, _turns, notes = self.difficulty(shot)
        mods = mods + list(extra)
        trudnosc = int(tables()["difficulty"]["base"])
        extra_dice = 0
        mult = ONE
        set_to: Fraction | None = None
        for m in mods:
            if m.kind == "difficulty":
                trudnosc += int(m.value)
            elif m.kind == "add":  # a bonus to the roll = the same amount off Trudność
                trudnosc -= int(m.value)
            elif m.kind == "dice":
                extra_dice += int(m.value)
            elif m.kind == "multiply":
                mult *= Fraction(str(m.value))
            elif m.kind == "set":
                v = Fraction(str(m.value))
                set_to = v / 100 if v > 1 else v
        dist = mech.successes(motoryka, level, extra_dice, trudnosc)
        raw = pass_chance(dist)
        chance = set_to if set_to is not None else min(ONE, raw * mult)
        scale = chance / raw if raw else ZERO
        n = mech.pool(motoryka, level, extra_dice)
        # damage: base points from muzzle energy (pl.damage), minus armor (pl.armor) and, for
        # a hidden target, the barrier (pl.barrier); +1 per additional success (pl.shoot),
        # except a grenade, whose additional successes catch more enemies (pl.grenade)
        lads = all_ladders()
        rated = damage_energy(shot.weapon)
        base_dmg = lads["damage"].native(rated)
        loc = shot.called_location or "torso"
        stops = sum(float(a.stops) for a in shot.target.armor if loc in a.covers)
        soak = lads["armor"].native(stops) if stops else 0
        notes.append(f"assumed [pl.damage]: {Energy(rated)} -> {base_dmg} damage points")
        if stops:
            notes.append(f"assumed [pl.armor]: armor stopping {Energy(stops)} -> {soak} points off damage")
        barrier = shot.target.cover.barrier
        if barrier is not None and shot.target.cover.exposure == 0:
            b_stops = catalog().barrier_stops(barrier)
            b_pts = lads["barrier"].native(b_stops)
            soak += b_pts
            notes.append(f"assumed [pl.barrier]: {barrier.thickness} {barrier.material} stops "
                         f"{Energy(b_stops)} -> {b_pts} points off damage")
        # exact, computed once per (mechanic arguments, scale, damage, soak): rules.shot_damage
        damage_text, dmg_mean, outcomes = shot_damage((mech.key, motoryka, level, extra_dice, trudnosc), dist,
                                                            scale, base_dmg, soak, cls == "thrown")
        if cls == "thrown":
            notes.append("pl.grenade: additional successes catch more enemies in the blast, not more damage")
        notes.insert(0, f"assumed [pl.resolution]: mechanic {mech.key}")
        return Check(
            system=self.key,
            stat=f"Motoryka + {skill}",
            base=f"Motoryka {motoryka} + {skill} {level}",
            modifiers=mods,
            target=trudnosc,
            needs=mech.roll_text(n, motoryka, level, trudnosc),
            chance=chance,
            native=(f"test {GENITIVE['Motoryka']} z {INSTRUMENTAL[skill]} ({motoryka}+{level}), "
                    f"Trudność {trudnosc}: {mech.roll_text(n, motoryka, level, trudnosc)}"),
            damage_mean=dmg_mean,
            damage=damage_text,
            outcomes=outcomes,
            notes=notes,
        )
