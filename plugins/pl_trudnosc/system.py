"""pl-trudnosc: the Polish firefight rules "Walka strzelecka" (the Polish firefight text,
digest shared/rules/polish-firefight.md) as an xsys system.

The text names no game and never says which dice are rolled (``pl.resolution``), so the
resolution is a named, swappable mechanic (:data:`MECHANICS`), chosen per run through the
settings Struct :class:`PlSettings` or, when no settings are given, the environment
variable ``XSYS_PL_MECHANIC``; the default is ``exploding-2d6`` (README: why). Everything the text does not give
(light, armor, barriers, weapon damage, turn length, trait scales) is an ``assumed`` value
from tables.toml, reported in the Check's modifiers/notes and in the loss report.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Annotated, Any, Callable, ClassVar, Literal, Mapping, Sequence, get_args

import msgspec
from msgspec import Meta

from xsys.core import armorline, codec, dice
from xsys.core.cache import package_toml
from xsys.core.catalog import say_grenade, strip_entry
from xsys.core.errors import InputError
from xsys.core.formulas import Formula, RuleNote
from xsys.core.ladder import Ladder, Step, ladders_from_data
from xsys.core.model import (
    Armor,
    Barrier,
    Combatant,
    Cover,
    Light,
    Name,
    Shooter,
    Shot,
    Target,
    Text,
    Weapon,
    generic_weapon,
)
from xsys.core.registry import catalog
from xsys.core.equating import Tier
from xsys.core.sheet import Sheet
from xsys.core.system import CharacteristicSpec, System, percentile_ladder
from xsys.core.trace import Check, Collector, Modifier, Result
from xsys.core.units import Duration, Energy, Illuminance, Length, Speed, brief, unit_factor
from xsys.core.vocab import POSTURE_HEIGHT, Location, VisionAid, firearm_skill_for

from . import rules

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
    one tura = 3 s, assumed in core/data/units.txt as ``pl_tura``)."""
    tura = turn_seconds()
    rows = [Step(k, k * tura, "pl.aim", "assumed", f"{k} tura" if k == 1 else f"{k} tur")
            for k in range(int(tables()["aim"]["max_turns"]) + 1)]
    # each step stands for its own row (0 turns = no aim at all, 1 = one full tura): a middle
    # of the step would read "0 turns" as 1.5 s of aim, another system's careful aim
    return Ladder.build("aim", "s", rows, rounding="down", native_order="increasing", represent="row")


def _points_ladder(name: str, rule: str) -> Ladder:
    pts = tables()["points"]
    return Ladder.from_table(name, {"axis": pts["axis"], "rounding": pts["rounding"], "rule": rule,
                                    "source": "assumed", "native_order": "increasing", "rows": pts["rows"]})


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


def _canon(label: str, literal: Any) -> str:
    """The Literal's own string object for `label` (msgspec's omit_defaults compares
    non-interned strings by identity, so a label read from TOML must be swapped for it)."""
    for v in get_args(literal):
        if v == label:
            return v
    raise KeyError(label)


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


# ---- native Structs ----------------------------------------------------------------

class _S(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    pass


Cecha = Annotated[int, Meta(ge=1, le=5, description="trait 1-5 (scale assumed, pl.traits)")]
Poziom = Annotated[int, Meta(ge=0, le=5, description="skill 0-5 (scale assumed, pl.traits)")]
Punkty = Annotated[int, Meta(ge=0, le=12, description="points on the assumed 0-12 scale (pl.damage/pl.armor)")]
Tempo = Literal["stoi", "marsz", "trucht", "bieg"]
Postawa = Literal["stojąca", "klęcząca", "leżąca"]
OsłonaCelu = Literal["brak", "zza osłony", "ukryty"]
Oświetlenie = Literal["dzień", "zmierzch", "księżyc", "gwiazdy", "ciemność"]
Rodzaj = Literal["krótka", "długa", "rzucana"]


class Umiejętności(_S, kw_only=True):
    """The skills the text names (used in "test X z Y")."""

    Broń_krótka: Poziom = msgspec.field(default=0, name="Broń krótka")
    Broń_długa: Poziom = msgspec.field(default=0, name="Broń długa")
    Rzucanie: Poziom = 0
    Czujność: Poziom = 0

    def as_dict(self) -> dict[str, int]:
        return {"Broń krótka": self.Broń_krótka, "Broń długa": self.Broń_długa,
                "Rzucanie": self.Rzucanie, "Czujność": self.Czujność}

    @classmethod
    def of(cls, levels: Mapping[str, int]) -> "Umiejętności":
        return cls(Broń_krótka=levels.get("Broń krótka", 0), Broń_długa=levels.get("Broń długa", 0),
                   Rzucanie=levels.get("Rzucanie", 0), Czujność=levels.get("Czujność", 0))


class Broń(_S, kw_only=True):
    """A weapon. ``katalog``: catalog id, needed only when ``nazwa`` is not the catalog's
    name; ``obrażenia``: base damage points (pl.damage, assumed scale), derived from the
    catalog weapon's muzzle energy when omitted."""

    nazwa: Name
    rodzaj: Rodzaj
    obrażenia: Punkty | None = None
    katalog: Name | None = None


class Pancerz(_S, kw_only=True):
    """Armor: ``punkty`` on the assumed points scale (pl.armor), or a catalog item."""

    nazwa: Name
    punkty: Punkty | None = None
    katalog: Name | None = None
    # Where it sits (osłania: neutral location words) and how readily it turns a blow aside
    # (odbicie: a GURPS PD), when that is not what its catalog item (or the torso alone, no
    # deflection) says: the points carry neither, the line keeps them (xsys.core.armorline).
    osłania: list[Location] | None = None
    odbicie: Annotated[int, Meta(ge=0, le=10)] | None = None


class Przeszkoda(_S, kw_only=True):
    """A solid barrier a shot at a hidden target passes through (pl.barrier, assumed)."""

    materiał: Name
    grubość: Length
    nazwa: Name = ""


class PlCarried(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What a pl-trudnosc stat block puts in the neutral NPC's ``carried: {pl-trudnosc: ...}``
    (and takes back from it): what only these rules state, verbatim (xsys.core.carried)."""

    Zalety: list[Name] = msgspec.field(default_factory=list)


class Postać(_S, kw_only=True):
    """A native stat block: the four traits, the four skills, Zalety, weapons, armor."""

    imię: Name
    Motoryka: Cecha = 3
    Percepcja: Cecha = 3
    Atletyka: Cecha = 3
    Odwaga: Cecha = 3
    umiejętności: Umiejętności = msgspec.field(default_factory=Umiejętności)
    Zalety: list[Name] = msgspec.field(default_factory=list)
    broń: list[Broń] = msgspec.field(default_factory=list)
    pancerz: list[Pancerz] = msgspec.field(default_factory=list)
    opis: Text = ""


class Strzał(_S, kw_only=True):
    """One shot as the text describes it (pl.shoot with pl.difficulty.*, pl.defence.*, pl.aim).
    ``umiejętność`` is the level of the skill the weapon uses (Broń krótka, Broń długa or
    Rzucanie); ``celowanie`` the aiming turns spent before the shot; ``osłona_celu`` whether
    the target fires from behind cover (+10) or is hidden behind it."""

    nazwa: Name = ""
    strzelec: Name = ""
    cel: Name = ""
    Motoryka: Cecha = 3
    umiejętność: Poziom = 0
    broń: Broń
    dystans: Length
    ruch_strzelca: Tempo = "stoi"
    ruch_celu: Tempo = "stoi"
    postawa_celu: Postawa = "stojąca"
    osłona_celu: OsłonaCelu = "brak"
    przeszkoda: Przeszkoda | None = None
    celowanie: Annotated[int, Meta(ge=0, le=20)] = 0
    oświetlenie: Oświetlenie = "dzień"
    pomoce_wzroku: list[VisionAid] = msgspec.field(default_factory=list)
    pancerz_celu: list[Pancerz] = msgspec.field(default_factory=list)


# ---- vocabulary maps ---------------------------------------------------------------

TRAITS = ("Motoryka", "Percepcja", "Atletyka", "Odwaga")
SKILL_OF_NEUTRAL = {"handgun": "Broń krótka", "rifle": "Broń długa", "shotgun": "Broń długa",
                    "smg": "Broń długa", "machine_gun": "Broń długa", "throw": "Rzucanie"}
RODZAJ_OF_CLASS = {"handgun": "krótka", "revolver": "krótka", "smg": "długa", "carbine": "długa",
                   "rifle": "długa", "shotgun": "długa", "mg": "długa", "thrown": "rzucana"}
CLASS_OF_RODZAJ = {"krótka": "handgun", "długa": "rifle", "rzucana": "thrown"}
SKILL_OF_RODZAJ = {"krótka": "Broń krótka", "długa": "Broń długa", "rzucana": "Rzucanie"}
POSTURE_OF = {"stojąca": "standing", "klęcząca": "kneeling", "leżąca": "prone"}
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


class PlTrudnosc(System):
    key: ClassVar[str] = KEY
    name: ClassVar[str] = "Polish firefight rules — Trudność difficulty system"
    edition: ClassVar[str] = "unidentified source (Walka strzelecka)"
    dice: ClassVar[str] = MECHANICS[DEFAULT_MECHANIC].dice  # replaced per instance by the selected mechanic
    rule_prefix: ClassVar[str] = "pl."
    npc_type: ClassVar[type] = Postać
    shot_type: ClassVar[type | None] = Strzał
    settings_type: ClassVar[type | None] = PlSettings

    def __init__(self, settings: Any = None) -> None:
        if settings is None:
            name = os.environ.get(ENV_MECHANIC, "").strip() or DEFAULT_MECHANIC
            if name not in MECHANICS:
                raise InputError(f"unknown dice mechanic in {ENV_MECHANIC}",
                                 expected="one of " + ", ".join(sorted(MECHANICS)), found=repr(name))
            settings = PlSettings(mechanic=name)
        elif isinstance(settings, Mapping):
            settings = codec.convert(dict(settings), PlSettings)
        elif not isinstance(settings, PlSettings):
            raise InputError("pl-trudnosc settings must be PlSettings or a mapping", found=type(settings).__name__)
        self.settings = settings
        self.mechanic = MECHANICS[settings.mechanic]
        self.dice = self.mechanic.dice  # type: ignore[misc]

    # ---- tables --------------------------------------------------------------------
    def text_layout(self) -> Any:
        """Plain-text stat blocks: the block of this system (text.py)."""
        from .text import PlText  # the block's reader is loaded when a block is read

        return PlText(self.key)

    def ladders(self) -> dict[str, Ladder]:
        return dict(all_ladders())

    def characteristics(self) -> dict[str, CharacteristicSpec]:
        return _characteristics()

    def sheet_notes(self, npc: Any) -> dict[str, dict[str, str]]:
        """What each armor row covers, where a row is not torso-only (a helmet beside a vest)."""
        return armorline.line_notes(npc, armor_field="pancerz", name="nazwa", catalog_field="katalog",
                                    covers_field="osłania")

    def skills(self) -> dict[str, tuple[str, ...]]:
        return {name: tuple(spec["neutral"]) for name, spec in tables()["skills"].items()}

    # ---- skills: levels, the observation roll, the check at a level (equating: core) ----
    # The text has no health or wounds: a standard adult takes 10 damage points (assumed,
    # pl.damage: a generic pistol's 4 points are ~40% of it, a rifle's 9 nearly all, the
    # proportions Call of Cthulhu and GURPS give their standard adult; README).
    standard_health = 10.0
    health_rule = "pl.damage"

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

    def rule_ids(self) -> set[str]:
        ids = super().rule_ids()
        ids |= {a["id"] for a in tables()["actions"]}
        ids |= {"pl.resolution", "pl.actions", "pl.observe", "pl.shoot", "pl.suppress", "pl.grenade",
                "pl.aim", "pl.sprint", "pl.crawl", "pl.swim", "pl.difficulty.base", "pl.difficulty.range",
                "pl.difficulty.target-motion", "pl.difficulty.shooter-motion", "pl.defence.posture",
                "pl.defence.cover", "pl.traits", "pl.light", "pl.damage", "pl.armor", "pl.barrier", "pl.turn"}
        return ids

    def formulas(self) -> Sequence[Formula]:
        """``xsys rules pl-trudnosc`` formulas (formulas.py): tests, actions, movement."""
        return _formulas()

    def rule_notes(self) -> dict[str, RuleNote]:
        """The ``[[actions]]`` of tables.toml as the notes of their rules (formulas.action_notes)."""
        from .formulas import action_notes

        return action_notes(tables())

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
                                 why=f"{shot.distance}: +1 per started {step}"
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
        damage_text, dmg_mean, outcomes = rules.shot_damage((mech.key, motoryka, level, extra_dice, trudnosc), dist,
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

    # ---- npc conversions: the core's (xsys.core.sheet), from this declaration -------------
    # level 0 is the trait alone (pl.shoot: test trait z umiejętność): untrained, which every
    # target writes as its own untrained default (CoC's base chance, GURPS's default), so it is
    # not carried as a competence (a Polish NPC without Broń długa is not a CoC rifleman).
    # Zalety are what only these rules state (military training: pl.crawl), carried verbatim.
    sheet: ClassVar[Sheet | None] = Sheet(
        name="imię", notes="opis", skills="umiejętności", weapons="broń", armor="pancerz",
        carried=("Zalety",), carried_rule="pl.crawl", carried_type=PlCarried, unstated_level=0,
        unstated_crosses=False, levels_kept="umiejętności", foreign_native=True)

    def native_block(self, npc: Postać) -> dict[str, Any]:
        """Weapons whose points the stat block leaves to the catalog or the class (pl.damage): a
        sheet written from any other source states them; this one's own come back as written."""
        implicit = [b.nazwa for b in npc.broń if b.obrażenia is None]
        bare = [p.nazwa for p in npc.pancerz if p.punkty is None]  # armor left to its catalog item
        return {**({"obrażenia_implicit": implicit} if implicit else {}),
                **({"punkty_implicit": bare} if bare else {})}

    def extra_to_neutral(self, npc: Postać, combatant: Combatant, col: Collector) -> Combatant:
        """The movement the rules give this NPC (pl.sprint, pl.crawl, pl.swim), in the trace only:
        the neutral model has no movement."""
        if col.tracing:
            speeds = movement_speeds(npc)
            for k, v in movement(npc).items():
                rule = {"sprint": "pl.sprint", "crawl": "pl.crawl", "swim": "pl.swim"}[k]
                col.step(f"$.{k}", None, f"{v} per tura", f"{speeds[k]} (tura = 3 s, assumed)",
                         rules=[rule, "pl.turn"], source="assumed" if k != "crawl" else "seed")
        return combatant

    def carried_missing(self, field: str, kept: Mapping[str, Any], combatant: Combatant, col: Collector) -> Any:
        """Zalety where an older document kept them (its native block), each as a name."""
        return [str(z) for z in kept.get(field, [])]

    # ---- weapons and armor -----------------------------------------------------------
    def weapon_to_neutral(self, b: Broń, col: Collector, path: str) -> Weapon:
        """A weapon as what it is (core.catalog.Catalog.identify_weapon, one answer for every
        system): its catalog weapon (``katalog``, else what its name says, when it is of its
        ``rodzaj``), whose damage goes by its cartridge; else a weapon of its ``rodzaj`` (the kind
        of it the name says: a rewolwer) at the energy of its ``obrażenia`` or, where the text
        gives none (it states no weapon's base damage: the natural document names a weapon and
        its kind only), of its class's generic weapon (pl.damage, assumed)."""
        cat = catalog()
        entry = None
        if b.katalog:
            entry = cat.weapons.get(b.katalog)
            if entry is None:
                raise InputError("unknown catalog weapon", path=f"{path}.katalog",
                                 expected="a weapon id from `xsys catalog weapon`", found=repr(b.katalog))
        else:
            found = cat.identify_weapon(b.nazwa)[0]
            if found is not None and RODZAJ_OF_CLASS[found.weapon_class] == b.rodzaj:
                entry = found
        lad = all_ladders()["damage"]
        if entry is not None:
            w = strip_entry(entry)
            if RODZAJ_OF_CLASS[w.weapon_class] != b.rodzaj:
                raise InputError("weapon kind does not match the catalog weapon", path=f"{path}.rodzaj",
                                 expected=repr(RODZAJ_OF_CLASS[w.weapon_class]), found=repr(b.rodzaj))
            if b.nazwa != w.name:
                w = msgspec.structs.replace(w, name=b.nazwa)
            derived = lad.native(damage_energy(w))
            if b.obrażenia is not None and b.obrażenia != derived:
                col.loss("rounded", f"{path}.obrażenia", f"obrażenia {b.obrażenia} replaced by {derived}, from "
                         f"the catalog weapon's {w.calibre or w.muzzle_energy}", "pl.damage")
            if col.tracing:
                col.step(path, b.nazwa, f"catalog {entry.id}, {w.muzzle_energy}", rules=["pl.damage"], source="assumed")
            return w
        cls = catalog().weapon_class_named(b.nazwa, CLASS_OF_RODZAJ[b.rodzaj])  # a rewolwer is a revolver
        sights = "none" if cls == "thrown" else "iron"  # a thrown weapon is aimed by eye
        if b.obrażenia is None:
            generic = generic_weapon(cls)
            pts = lad.native(float(generic.muzzle_energy))
            col.loss("assumed", f"{path}.obrażenia", f"{b.nazwa}: no obrażenia (the text gives no weapon's base "
                     f"damage); read as the generic {cls}'s {generic.muzzle_energy}, {pts} points", "pl.damage")
            out = msgspec.structs.replace(generic, name=b.nazwa, sights=sights)
        else:
            step = lad.step_of(b.obrażenia)
            col.loss("assumed", f"{path}.obrażenia", f"obrażenia {b.obrażenia} read as {Energy(step.rep)} muzzle "
                     "energy (assumed points scale)", "pl.damage")
            out = Weapon(name=b.nazwa, weapon_class=cls,  # type: ignore[arg-type]
                         muzzle_energy=Energy(step.rep), sights=sights)  # type: ignore[arg-type]
        say_grenade(col, path, out, "pl.grenade")  # pl.grenade: its blast catches more enemies
        return out

    def weapon_from_neutral(self, w: Weapon, col: Collector, path: str, kept: Mapping[str, Any] | None = None,
                            points: bool = True) -> Broń:
        """A weapon line: its kind, its damage points (pl.damage: its catalog weapon's, else its
        cartridge's, else its own energy's) and its catalog id where its name does not say it.
        ``points=False``: the points are left to the catalog weapon, as a shot names it and as a
        Polish stat block that left them out wrote it (its own weapons come back as written:
        ``kept``, its native block, names them)."""
        if kept is not None:
            points = w.name not in set(kept.get("obrażenia_implicit", []))
        rodzaj = RODZAJ_OF_CLASS[w.weapon_class]
        basis = catalog().weapon_basis(w)  # its catalog weapon, else the cartridge its calibre or name states
        pts = all_ladders()["damage"].native(damage_energy(w))
        entry = basis.entry
        if entry is not None and RODZAJ_OF_CLASS[entry.weapon_class] == rodzaj:
            if col.tracing:
                col.step(path, w.name, f"catalog {entry.id}", f"obrażenia {pts}", rules=["pl.damage"],
                         source="assumed", note=basis.said)
            return Broń(nazwa=w.name, rodzaj=rodzaj, obrażenia=pts if points else None,  # type: ignore[arg-type]
                        katalog=None if w.name == entry.name else entry.id)
        if not points and float(w.muzzle_energy) == float(generic_weapon(w.weapon_class).muzzle_energy):
            return Broń(nazwa=w.name, rodzaj=rodzaj)  # type: ignore[arg-type]  # its class's points, as written
        if CLASS_OF_RODZAJ[rodzaj] != w.weapon_class:
            col.loss("merged", f"{path}.rodzaj", f"{w.weapon_class} is a broń {rodzaj} here "
                     "(the text has only short and long weapons)", "pl.shoot")
        col.loss("rounded", f"{path}.obrażenia", f"{basis.cartridge or w.calibre or w.muzzle_energy} read as {pts} "
                 f"damage points (assumed scale; {basis.said})", "pl.damage")
        return Broń(nazwa=w.name, rodzaj=rodzaj, obrażenia=pts)  # type: ignore[arg-type]

    def armor_to_neutral(self, a: Pancerz, col: Collector, path: str) -> Armor:
        entry = None
        if a.katalog or a.punkty is None:
            entry = catalog().find_armor(a.nazwa, a.katalog, path=f"{path}.katalog")
            if entry is None:
                raise InputError("armor needs punkty or a catalog item", path=path,
                                 expected="punkty: <points> or katalog: <id>", found=repr(a.nazwa))
        lad = all_ladders()["armor"]
        if entry is not None:
            arm = strip_entry(entry)
            if a.nazwa != arm.name:
                arm = msgspec.structs.replace(arm, name=a.nazwa)
            derived = lad.native(arm.stops)
            if a.punkty is not None and a.punkty != derived:
                col.loss("rounded", f"{path}.punkty", f"punkty {a.punkty} replaced by {derived}, from the "
                         f"catalog item's {arm.stops}", "pl.armor")
            return armorline.restore(arm, a.osłania, a.odbicie, col, path, "pl.armor")  # type: ignore[arg-type]
        step = lad.step_of(a.punkty)
        col.loss("assumed", f"{path}.punkty", f"punkty {a.punkty} read as stopping {Energy(step.rep)} "
                 "(assumed points scale)", "pl.armor")
        return armorline.restore(Armor(name=a.nazwa, stops=Energy(step.rep)), a.osłania, a.odbicie, col, path,
                                 "pl.armor")

    def armor_from_neutral(self, a: Armor, col: Collector, path: str, kept: Mapping[str, Any] | None = None
                           ) -> Pancerz:
        """An armor line: its points (pl.armor), also for a catalog item, so that a GM reads them
        on a sheet or a shot written from another system; a Polish stat block's own line that
        left them to its catalog item (``kept``: its native block) comes back as written."""
        entry = catalog().armor.get(a.catalog) if a.catalog else None
        if entry is not None:
            if kept is None or a.name not in set(kept.get("punkty_implicit", [])):
                line = Pancerz(nazwa=a.name, katalog=entry.id, punkty=all_ladders()["armor"].native(a.stops))
            else:
                line = Pancerz(nazwa=a.name, katalog=None if a.name == entry.name else entry.id)
        else:
            pts = all_ladders()["armor"].native(a.stops)
            col.loss("rounded", f"{path}.punkty", f"stops {a.stops} read as {pts} armor points (assumed scale)",
                     "pl.armor")
            line = Pancerz(nazwa=a.name, punkty=pts)
        # where it sits and its deflection, unless the catalog item (or the torso alone) gives
        # them back (xsys.core.armorline)
        more = armorline.extras(a, self.armor_to_neutral(line, Collector(self.key), path))
        if "deflection" in more:
            col.loss("kept-verbatim", f"{path}.odbicie", armorline.deflection_note(a, "pl-trudnosc"), "pl.armor")
        return msgspec.structs.replace(line, osłania=more.get("covers"), odbicie=more.get("deflection"))

    # ---- shot conversions ------------------------------------------------------------
    def shot_to_neutral(self, s: Strzał) -> Result[Shot]:
        col = Collector(self.key)
        lads = all_ladders()
        skill = SKILL_OF_RODZAJ[s.broń.rodzaj]
        weapon = self.weapon_to_neutral(s.broń, col, "$.broń")
        key = firearm_skill_for(weapon.weapon_class)
        chance = self.competence(skill, s.umiejętność, {"Motoryka": s.Motoryka, "@key": key})
        dex = _characteristics()["Motoryka"].ladder.neutral(s.Motoryka)
        col.step("$.umiejętność", f"{skill} {s.umiejętność}", f"{key} competence {chance:.3f}",
                 rules=[skill_rule(skill), "pl.resolution"], source="assumed",
                 note="equated over the battery [core.equating]")
        aim = Duration(lads["aim"].neutral(s.celowanie))
        if s.celowanie:
            col.loss("assumed", "$.celowanie", f"{s.celowanie} aiming turn(s) = {aim} (tura = 3 s assumed)", "pl.turn")
        shooter = Shooter(name=s.strzelec, skill=chance, characteristics={"dexterity": dex},
                          speed=Speed(lads["shooter_motion"].step_labelled(s.ruch_strzelca).rep), aim_time=aim)
        if s.osłona_celu == "brak":
            cover = Cover()
        elif s.osłona_celu == "zza osłony":
            cover = Cover(exposure=lads["cover"].step_labelled("zza osłony").rep)
        else:
            cover = Cover(exposure=0.0)
        if s.przeszkoda is not None:
            cover = Cover(exposure=cover.exposure, barrier=Barrier(material=s.przeszkoda.materiał,
                                                                  thickness=s.przeszkoda.grubość,
                                                                  name=s.przeszkoda.nazwa))
            catalog().material(s.przeszkoda.materiał)  # unknown material: a clear error now
            col.loss("assumed", "$.przeszkoda", "the text has no barrier rules (pl.barrier assumed)", "pl.barrier")
        armor = [self.armor_to_neutral(a, col, f"$.pancerz_celu[{i}]") for i, a in enumerate(s.pancerz_celu)]
        target = Target(name=s.cel, posture=POSTURE_OF[s.postawa_celu],  # type: ignore[arg-type]
                        speed=Speed(lads["target_motion"].step_labelled(s.ruch_celu).rep), cover=cover, armor=armor)
        light = Light(illuminance=Illuminance(lads["light"].step_labelled(s.oświetlenie).rep),
                      aids=list(s.pomoce_wzroku))
        if s.oświetlenie != "dzień":
            col.loss("assumed", "$.oświetlenie", f"{s.oświetlenie} = {light.illuminance} (no light rules in the text)",
                     "pl.light")
        shot = Shot(name=s.nazwa, shooter=shooter, weapon=weapon, target=target, distance=s.dystans, light=light)
        return col.result(shot)

    def shot_from_neutral(self, shot: Shot) -> Result[Strzał]:
        col = Collector(self.key)
        lads = all_ladders()
        cls = shot.weapon.weapon_class
        skill = SKILL_OF_NEUTRAL[firearm_skill_for(cls)]
        dex = shot.shooter.characteristics.get("dexterity")
        if dex is None:
            dex = 0.5
            col.loss("assumed", "$.Motoryka", "no dexterity in the source; Motoryka set to the adult median",
                     "pl.traits")
        motoryka = _characteristics()["Motoryka"].ladder.step_for(dex).native
        sstep = self.skill_ladder(skill, {"Motoryka": motoryka, "@key": firearm_skill_for(cls)}).step_for(
            shot.shooter.skill)
        if abs(sstep.rep - shot.shooter.skill) > 1e-9:
            col.loss("rounded", "$.umiejętność", f"competence {shot.shooter.skill:.3f} -> {skill} {sstep.native} "
                     f"(competence {sstep.rep:.3f})", sstep.rule)
        weapon = self.weapon_from_neutral(shot.weapon, col, "$.broń", points=False)

        def gait(lad: Ladder, speed: float, path: str) -> str:
            st = lad.step_for(speed)
            if abs(st.rep - speed) > 1e-9:
                col.loss("rounded", path, f"{Speed(speed)} read as {st.label} ({Speed(st.rep)})", st.rule)
            return _canon(st.label, Tempo)

        ruch_s = gait(lads["shooter_motion"], shot.shooter.speed, "$.ruch_strzelca")
        ruch_c = gait(lads["target_motion"], shot.target.speed, "$.ruch_celu")
        pst = lads["posture"].step_for(POSTURE_HEIGHT[shot.target.posture])
        if POSTURE_OF[pst.label] != shot.target.posture:
            col.loss("rounded", "$.postawa_celu", f"{shot.target.posture} read as {pst.label}", pst.rule)
        cov = shot.target.cover
        if cov.exposure == 0:
            osl = "ukryty"
        else:
            cst = lads["cover"].step_for(cov.exposure)
            osl = "zza osłony" if cst.native else "brak"
            if abs(cst.rep - cov.exposure) > 1e-9:
                col.loss("rounded", "$.osłona_celu", f"{cov.exposure:g} visible read as {osl}", cst.rule)
        przeszkoda = None
        if cov.barrier is not None:
            b = cov.barrier
            przeszkoda = Przeszkoda(materiał=b.material, grubość=b.thickness, nazwa=b.name)
        ast = lads["aim"].step_for(shot.shooter.aim_time)
        if abs(ast.rep - shot.shooter.aim_time) > 1e-9:
            col.loss("clamped" if ast is lads["aim"].steps[-1] and shot.shooter.aim_time > ast.rep else "rounded",
                     "$.celowanie", f"aim {shot.shooter.aim_time} -> {ast.native} full turn(s) (tura = 3 s assumed)",
                     "pl.aim")
        lst = lads["light"].step_for(shot.light.illuminance)
        if lst.label != "dzień":
            col.loss("assumed", "$.oświetlenie", f"{shot.light.illuminance} read as {lst.label} "
                     "(no light rules in the text)", "pl.light")
        armor = [self.armor_from_neutral(a, col, f"$.pancerz_celu[{i}]") for i, a in enumerate(shot.target.armor)]
        for path, cond, what in (
            ("$.elevation", bool(shot.elevation), f"elevation {shot.elevation}"),
            ("$.called_location", shot.called_location is not None, f"called shot to {shot.called_location}"),
            ("$.burst", shot.burst > 1, f"burst of {shot.burst}"),
            ("$.underwater", shot.underwater, "underwater"),
            ("$.shooter.posture", shot.shooter.posture != "standing", f"shooter {shot.shooter.posture}"),
            ("$.shooter.hands", shot.shooter.hands != 2 or shot.shooter.off_hand or shot.shooter.braced,
             "shooter's hands/brace"),
            ("$.shooter.cover", shot.shooter.cover != Cover(), "shooter's own cover"),
            ("$.target.height", float(shot.target.height) != 1.75, f"target height {shot.target.height}"),
        ):
            if cond:
                col.loss("unsupported-field", path, f"{what}: the text has no rule for it")
        value = Strzał(nazwa=shot.name, strzelec=shot.shooter.name, cel=shot.target.name, Motoryka=motoryka,
                       umiejętność=sstep.native, broń=weapon, dystans=shot.distance,
                       ruch_strzelca=ruch_s, ruch_celu=ruch_c, postawa_celu=_canon(pst.label, Postawa),  # type: ignore[arg-type]
                       osłona_celu=_canon(osl, OsłonaCelu), przeszkoda=przeszkoda, celowanie=ast.native,  # type: ignore[arg-type]
                       oświetlenie=_canon(lst.label, Oświetlenie), pomoce_wzroku=list(shot.light.aids),  # type: ignore[arg-type]
                       pancerz_celu=armor)
        return col.result(value)


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
