"""Equating: a native skill level's competence as what it achieves over a battery of
reference shots, the same battery in every system (DESIGN §2).

The method is test equating (Kolen & Brennan, *Test Equating, Scaling, and Linking*, ch. 6,
IRT true-score equating over common items): the battery is the set of common items, each
system is a test form, and a native level's *true score* is its expected result over the
items. Two levels of two systems are equated when their true scores are equal. The true
score is the neutral value of a skill (``Combatant.skills``, ``Shooter.skill``): a number
in [0, 1] that means the same thing in every system.

**The measure** of one item is the expected share of a standard adult's health that the
shot takes, each shot counting at most the whole of it (``E[min(damage, health)] / health``
over the system's own damage distribution of the check). Hit chance alone is not
comparable: new World of Darkness folds the weapon's damage into the attack pool (its
successes *are* the damage), so an untrained rifleman "hits" 88% of the time for one point
of seven; measured by what the hit does, the same shooter stands where Call of Cthulhu's
untrained rifleman stands. Each system states its standard adult's health (seed where its
text has one, assumed otherwise) as ``System.standard_health``.

**The battery** (``BATTERY``) spans what a firearm is used for: point-blank and aimed,
unaimed snap shots, long aimed shots, dim light and darkness, partial cover, a moving target
and a moving shooter, and the long shot in poor light behind cover. Short arms (handguns,
revolvers, thrown weapons) take the distances as written; long arms take them ×2.5 (the
standard shot is 10 m for a short arm, 25 m for a long one). Every item uses the class's
generic weapon (``model.generic_weapon``), the same in every system.

Skills without a physical task (Spot, Dodge, Conceal ...) have no battery: their competence
is the chance of the system's own unmodified roll (``System.roll_chance``).

A system supplies its levels (``skill_levels``), its own check at a native level
(``check_at``) and its standard adult's health; everything else — the battery, the
measure, the ladders and their cache — is here, once.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from .ladder import Ladder, Source, Step
from .model import Cover, Light, Shooter, Shot, Target, generic_weapon
from .units import Duration, Illuminance, Length, Speed
from .vocab import SHORT_ARMS

if TYPE_CHECKING:  # pragma: no cover
    from .system import System
    from .trace import Check

LONG_ARM_SCALE = 2.5  # 25 m / 10 m: the standard shot's distance for a long arm over a short arm


@dataclass(frozen=True)
class Item:
    """One reference situation. Distances are for a short arm (×2.5 for a long arm)."""

    name: str
    distance: float  # m
    aim: float = 0.0  # s spent aiming
    illuminance: float = 10_000.0  # lx on the target
    exposure: float = 1.0  # visible fraction of the target
    target_speed: float = 0.0  # m/s
    shooter_speed: float = 0.0  # m/s


# Twelve items, easy to hard. Aim times are 3 s (a careful shot); gaits are the shared
# presets (walk 1.4 m/s); light levels are the presets (full moon 0.25 lx, twilight 3 lx).
BATTERY: tuple[Item, ...] = (
    Item("point-blank, aimed", 3.0, aim=3.0),
    Item("standard shot (unaimed)", 10.0),
    Item("standard distance, aimed", 10.0, aim=3.0),
    Item("twice the distance, aimed", 20.0, aim=3.0),
    Item("four times the distance, aimed", 40.0, aim=3.0),
    Item("twice the distance, unaimed", 20.0),
    Item("full moonlight", 10.0, illuminance=0.25),
    Item("half behind cover", 15.0, exposure=0.5),
    Item("walking target", 15.0, target_speed=1.4),
    Item("walking shooter", 10.0, shooter_speed=1.4),
    Item("twilight, half behind cover, aimed", 25.0, aim=3.0, illuminance=3.0, exposure=0.5),
    Item("moonlight, half behind cover, long and aimed", 40.0, aim=3.0, illuminance=0.25, exposure=0.5),
)


@lru_cache(maxsize=None)
def battery(weapon_class: str) -> tuple[Shot, ...]:
    """The battery's shots for one weapon class (its generic weapon, its distances)."""
    scale = 1.0 if weapon_class in SHORT_ARMS else LONG_ARM_SCALE
    weapon = generic_weapon(weapon_class)
    return tuple(
        Shot(
            name=f"battery: {it.name}",
            weapon=weapon,
            distance=Length(it.distance * scale),
            shooter=Shooter(skill=0.5, aim_time=Duration(it.aim), speed=Speed(it.shooter_speed)),
            target=Target(speed=Speed(it.target_speed), cover=Cover(exposure=it.exposure)),
            light=Light(illuminance=Illuminance(it.illuminance)),
        )
        for it in BATTERY
    )


def _points(value: str) -> float:
    """A damage key of a Check ("7", "17+") as a number (an open top counts as its bound)."""
    return float(value.rstrip("+"))


def shot_effect(check: "Check", health: float) -> float:
    """The measure of one item: expected share of a standard adult's health the shot takes,
    one shot counting at most all of it. Uses the check's damage distribution (which holds
    the misses at 0); without one, its mean damage, capped; without either, its chance."""
    if check.damage:
        total = 0.0
        for value, p in check.damage.items():
            total += float(Fraction(p)) * min(_points(value), health)
        return total / health
    if check.damage_mean is not None:
        return min(float(check.damage_mean) / health, float(check.chance))
    return float(check.chance)


def true_score(system: "System", skill: str, level: Any, weapon_class: str,
               context: Mapping[str, Any] | None = None) -> float:
    """Mean of the measure over the battery for `skill` at native `level`."""
    health = float(system.standard_health)
    shots = battery(weapon_class)
    return sum(shot_effect(system.check_at(s, skill, level, context), health) for s in shots) / len(shots)


def level_scores(system: "System", skill: str, weapon_class: str | None,
                 context: Mapping[str, Any] | None = None) -> list[float]:
    """The true score of every native level of `skill` (``system.skill_levels``), in order:
    the battery's mean measure for a firearm skill, the unmodified roll's chance otherwise."""
    levels = list(system.skill_levels(skill))
    if weapon_class is None:
        return [float(system.roll_chance(skill, lv, context)) for lv in levels]
    return [true_score(system, skill, lv, weapon_class, context) for lv in levels]


def competence_ladder(name: str, levels: Sequence[Any], scores: Sequence[float], rule: str,
                      source: "Source") -> Ladder:
    """Native levels with their true scores -> a ladder over [0, 1] that rounds to the nearest
    score. Levels whose score equals a lower level's add nothing a conversion could tell
    apart: the lowest level of such a run stands for the run."""
    rows: list[Step] = []
    last: float | None = None
    for lv, sc in zip(levels, scores):
        sc = round(float(sc), 9)  # float noise must not make two equal scores distinct steps
        if last is not None and sc <= last:
            continue
        rows.append(Step(lv, sc, rule, source))
        last = sc
    return Ladder.build(name, "probability", rows, rounding="nearest", native_order="increasing")


def describe_battery(weapon_class: str) -> list[dict[str, Any]]:
    """The battery as plain rows (docs, ``xsys`` output)."""
    return [{"item": it.name, "distance": f"{float(s.distance):g} m", "aim": f"{it.aim:g} s",
             "light": f"{it.illuminance:g} lx", "exposure": it.exposure,
             "target speed": f"{it.target_speed:g} m/s", "shooter speed": f"{it.shooter_speed:g} m/s"}
            for it, s in zip(BATTERY, battery(weapon_class))]


__all__ = ["BATTERY", "Item", "battery", "shot_effect", "true_score", "level_scores", "competence_ladder", "describe_battery",
           "LONG_ARM_SCALE"]


# ---- published competence tiers (a check on the equating, never an input to it) ------------

TIER_NAMES = ("untrained", "amateur", "professional", "expert", "master")


@dataclass(frozen=True)
class Tier:
    """One of a system's published competence tiers for its firearm skills: the common rank
    (0 untrained ... 4 master), the system's own name, its lowest level and a typical level."""

    rank: int
    name: str
    lowest: Any
    typical: Any
    rule: str
    source: str


def tier_of(tiers: "Sequence[Tier]", level: Any) -> Tier:
    """The tier a native level falls in (the last whose lowest level it reaches)."""
    found = tiers[0]
    for t in tiers:
        if level >= t.lowest:
            found = t
    return found
