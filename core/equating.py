"""Equating: a native skill level's competence as what it achieves over a battery of
reference shots, the same battery in every system.

The method is test equating (Kolen & Brennan, *Test Equating, Scaling, and Linking*, ch. 6,
IRT true-score equating over common items): the battery is the set of common items, each
system is a test form, and a native level's *true score* is its expected result over the
items. Two levels of two systems are equated when their true scores are equal. The true
score is the neutral value of a skill (``Combatant.skills``, ``Shooter.skill``): a number
in [0, 1] that means the same thing in every system.

**The measure** of one item is the chance that a standard adult is down (health at 0)
within three shots taken in that situation, from the system's own damage distribution of the
check (``shot_effect``). Hit chance alone is not comparable: new World of Darkness adds the
weapon's damage dice to the attack pool (its successes *are* the damage), so an untrained
rifleman "hits" 85% of the time for about a quarter of a standard adult's health. The
expected share of health per shot (the first measure tried) is comparable but linear in
each hit's lethality, so a system whose rifle hit takes the whole adult (Call of Cthulhu)
spread its rifle skill over twice the range of one whose hits take a quarter (nWoD): its
professional equated to nWoD's master. Putting the adult down within a short exchange
saturates both ways alike: a lethal hit or several lighter ones. Each system states its
standard adult's health (seed where its text has one, assumed otherwise) as
``System.standard_health``.

**The battery** (``BATTERY_SHORT``, ``BATTERY_LONG``) spans what a firearm is used for:
point-blank, unaimed snap shots, aimed shots out to four (short arms) or eight (long arms)
times the standard distance, moonlight and twilight, half cover, a moving target and a
moving shooter, and the long shot in poor light behind cover. Short arms and shotguns work
around the 10 m standard shot, long arms around 25 m, and a long arm is aimed wherever there
is time. Every item uses the class's generic weapon (``model.generic_weapon``), the same in
every system.

**One scale for every gun.** A firearm skill's level is measured on the batteries of all five
firearm classes (60 items), each fired with the system's own skill for that class at that
level (:func:`firearm_score`): every system's skill numbers and published tiers read the same
for a pistol and a rifle, and how much deadlier one class is than another is the system's
weapon rules (converted with the weapon), not the shooter. Throwing is linked on the
published tiers (``STANDING``): on a thrown battery each system's throwing rules, not the
thrower, decided the level.

**Close combat** (core.melee): brawl and melee skills are equated the same way over
the close-combat battery (:func:`close_combat_score`), each system answering its items with its
own ``System.melee_check_at``, at the NPC's own characteristics (``skill_context``).

Skills without a physical task (Spot, Dodge, Conceal ...) have no battery: their competence
is the chance of the system's own unmodified roll (``System.roll_chance``).

A system supplies its levels (``skill_levels``), its own check at a native level
(``check_at``) and its standard adult's health; everything else — the battery, the
measure, the ladders and their cache — is here, once.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

import msgspec

from .ladder import Ladder, Source, Step
from .model import Cover, Light, Shooter, Shot, Target, generic_weapon
from .units import Duration, Illuminance, Length, Speed
from .vocab import SHORT_ARMS, SKILLS

if TYPE_CHECKING:  # pragma: no cover
    from .system import System
    from .trace import Check

class Item(msgspec.Struct, frozen=True):
    """One reference situation."""

    name: str
    distance: float  # m
    aim: float = 0.0  # s spent aiming
    illuminance: float = 10_000.0  # lx on the target
    exposure: float = 1.0  # visible fraction of the target
    target_speed: float = 0.0  # m/s
    shooter_speed: float = 0.0  # m/s


# Short arms (handguns, revolvers, thrown): twelve items, easy to hard, around the 10 m
# standard shot. Aim times are 3 s (a careful shot); gaits and light are the shared presets
# (walk 1.4 m/s, full moon 0.25 lx, twilight 3 lx).
BATTERY_SHORT: tuple[Item, ...] = (
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
# Long arms (SMGs, carbines, rifles, MGs) around the 25 m standard shot: a long arm
# is aimed when there is time, so beyond the standard distance its items are aimed shots
# (an unaimed rifle shot at 50 m and more is a rare thing in every system's world).
BATTERY_LONG: tuple[Item, ...] = (
    Item("point-blank snap shot", 7.5),
    Item("standard shot (unaimed)", 25.0),
    Item("standard distance, aimed", 25.0, aim=3.0),
    Item("twice the distance, aimed", 50.0, aim=3.0),
    Item("four times the distance, aimed", 100.0, aim=3.0),
    Item("eight times the distance, aimed", 200.0, aim=3.0),
    Item("full moonlight, aimed", 50.0, aim=3.0, illuminance=0.25),
    Item("half behind cover, aimed", 75.0, aim=3.0, exposure=0.5),
    Item("walking target, aimed", 50.0, aim=3.0, target_speed=1.4),
    Item("walking shooter", 25.0, shooter_speed=1.4),
    Item("twilight, half behind cover, aimed", 100.0, aim=3.0, illuminance=3.0, exposure=0.5),
    Item("moonlight, half behind cover, long and aimed", 200.0, aim=3.0, illuminance=0.25, exposure=0.5),
)


# How far past the standard distance a class reaches, as a share of the long battery's
# (an SMG is not a 200 m weapon): an item at d metres is fired at
# 25 + (d - 25) x reach. Rifles, carbines and MGs take the battery as written.
REACH = {"smg": 0.5}


# Classes fired at handgun distances: a shotgun's pattern and every system's shotgun rules
# (CoC's 4d6/2d6/1d6 at 10/20/50 yards, GURPS's and nWoD's short ranges) make it a weapon of
# the first few tens of metres, so it takes the short arms' battery. On the long battery
# (reach 25-86 m) most items fell where one system's shotgun no longer reaches or hurts
# (CoC: 1d6 past 20 yards), so the equating measured that system's shotgun rules, not the
# shooter: CoC Shotgun 60 equated to nWoD Firearms 0 and nWoD Firearms 2 to CoC Shotgun 100.
SHORT_BATTERY_CLASSES = frozenset(SHORT_ARMS) | {"shotgun"}


def items(weapon_class: str) -> tuple[Item, ...]:
    if weapon_class in SHORT_BATTERY_CLASSES:
        return BATTERY_SHORT
    reach = REACH.get(weapon_class, 1.0)
    if reach == 1.0:
        return BATTERY_LONG
    return tuple(msgspec.structs.replace(it, distance=it.distance if it.distance <= 25.0 else 25.0 + (it.distance - 25.0) * reach)
                 for it in BATTERY_LONG)


@lru_cache(maxsize=None)
def battery(weapon_class: str) -> tuple[Shot, ...]:
    """The battery's shots for one weapon class (its generic weapon, its items)."""
    weapon = generic_weapon(weapon_class)
    return tuple(
        Shot(
            name=f"battery: {it.name}",
            weapon=weapon,
            distance=Length(it.distance),
            shooter=Shooter(skill=0.5, aim_time=Duration(it.aim), speed=Speed(it.shooter_speed)),
            target=Target(speed=Speed(it.target_speed), cover=Cover(exposure=it.exposure)),
            light=Light(illuminance=Illuminance(it.illuminance)),
        )
        for it in items(weapon_class)
    )


SHOTS = 3  # the exchange an item is measured over: three shots in the same situation
# Where no level can put the adult down in three shots (a weak thrown weapon), levels still
# differ by the share of health one shot takes: it breaks such ties at a thousandth the weight.
TIE_WEIGHT = 1e-3


def _points(value: str) -> float:
    """A damage key of a Check ("7", "17+") as a number (an open top counts as its bound)."""
    return float(value.rstrip("+"))


def damage_per_shot(check: "Check", health: float) -> dict[float, float]:
    """One shot's damage distribution, misses at 0 and damage capped at ``health``. Where the
    check gives only its mean damage, a shot is read as taking the whole adult with the
    probability of its expected share of health, ``min(chance, mean / health)``, and nothing
    otherwise: the mean alone cannot say how damage spreads over hits, and reading every hit as
    the mean hit would let a level with rarer but harder hits (only criticals at 1%) score
    above higher levels. Without a mean, a hit counts as taking the adult down."""
    if check.damage:
        out: dict[float, float] = {}
        for value, p in check.damage.items():
            v = min(_points(value), health)
            out[v] = out.get(v, 0.0) + float(Fraction(p))
        return out
    chance = float(check.chance)
    p = chance if check.damage_mean is None else min(chance, float(check.damage_mean) / health)
    return {0.0: 1.0 - p, health: p}


def shot_effect(check: "Check", health: float, shots: int = SHOTS) -> float:
    """The measure of one item: the chance that a standard adult (``health``) is down within
    ``shots`` shots taken in this situation, each shot's damage as the check gives it (ties
    broken by the expected share of health one shot takes, at ``TIE_WEIGHT``)."""
    per = sorted(damage_per_shot(check, health).items())
    reached: dict[float, float] = {0.0: 1.0}  # damage so far (capped at health) -> probability
    for _ in range(shots):
        nxt: dict[float, float] = {}
        for done, p in reached.items():
            if done >= health:
                nxt[health] = nxt.get(health, 0.0) + p
                continue
            for d, q in per:
                t = min(health, done + d)
                nxt[t] = nxt.get(t, 0.0) + p * q
        reached = nxt
    down = reached.get(health, 0.0)
    share = sum(d * q for d, q in per) / health
    return (down + TIE_WEIGHT * share) / (1.0 + TIE_WEIGHT)


def true_score(system: "System", skill: str, level: Any, weapon_class: str,
               context: Mapping[str, Any] | None = None) -> float:
    """Mean of the measure over the battery for `skill` at native `level`."""
    health = float(system.standard_health)
    shots = battery(weapon_class)
    if weapon_class == "thrown":
        # a thrown weapon's harm is the grenade's or the knife's, not the thrower's: a throw is
        # measured by whether it lands (the generic thrown object carries too little energy to
        # put anyone down, which would tie every level)
        return sum(float(system.check_at(s, skill, level, context).chance) for s in shots) / len(shots)
    return sum(shot_effect(system.check_at(s, skill, level, context), health) for s in shots) / len(shots)


# Every firearm class has its battery, and a firearm skill's level is measured on all of them:
# the skill numbers of every system mean the same whatever the gun (CoC's 60%, GURPS's Guns-14
# and two nWoD dots are read by the same tiers for a pistol and a rifle), while how deadly one
# class is compared with another is the system's weapon rules, not the shooter. Measured on
# its own class only, a skill absorbed those weapon rules: nWoD adds a rifle's 5 damage dice
# to the pool (a Firearms 2 rifleman equated to CoC Rifle 68 and his pistol to Handgun 39),
# coc-zh lets shotgun pellets impale (CoC Shotgun 40 became coc-zh Shotgun 9), and one broad
# skill (nWoD Firearms) came out as five unrelated CoC percentages.
FIREARM_CLASSES: tuple[str, ...] = ("handgun", "rifle", "shotgun", "smg", "mg")


def firearm_score(system: "System", level: Any, context: Mapping[str, Any] | None = None) -> float:
    """A firearm skill level's true score: the mean measure over every firearm class's battery,
    each class fired with the system's own skill for it at this level (``skill_for_weapon``,
    with its own context) and the class's generic weapon."""
    memo = system.__dict__.setdefault("_firearm_scores", {})
    key = (level, tuple(sorted((context or {}).items())))
    if key not in memo:
        scores = []
        for cls in FIREARM_CLASSES:
            skill = system.skill_for_weapon(cls)
            if level not in system.skill_levels(skill):
                continue  # a class whose skill has no such level is not measured at it
            ctx = system.skill_context(skill, context)
            scores.append(true_score(system, skill, level, cls, ctx))
        memo[key] = sum(scores) / len(scores) if scores else 0.0
    return memo[key]


def battery_class(neutral_skill: str | None) -> str | None:
    """The weapon class whose battery a neutral skill is equated over: a firearm skill's class
    (vocab.SKILLS), a close-combat skill's reference weapon (core.melee), else None (the
    unmodified roll)."""
    if not neutral_skill or neutral_skill == "throw":
        # throwing is linked on the published tiers (STANDING): on the thrown battery Polish
        # Rzucanie 3 (exploding 2d6 lands nearly every throw) was nWoD Athletics 5 and CoC Throw 86
        return None
    found = SKILLS.get(neutral_skill)
    if found:
        return found
    from .melee import MELEE_SKILLS  # (asked for every ladder: the table, not a function of it)

    return MELEE_SKILLS.get(neutral_skill)


def close_combat_health(system: "System", skill: str, weapon_class: str) -> float:
    """The standard adult's health in close combat, in the system's points: ``BLOWS_TO_DOWN``
    landed blows of the reference weapon by a median attacker (the system's median
    characteristics, ``skill_context(skill, None)``, at its amateur's typical level, ``tiers``).
    The same physical club takes the same share of the same physical adult in every system: the
    systems rate it differently against their own adult (CoC 1d6 of 12 HP, GURPS 3e swing+1, 4.5 of
    10 HP, nWoD an amateur's 2.3 successes of Health 7), and on the raw share that rating moved
    every skill by a tier (GURPS Axe/Mace-12 equated to CoC Club 82, GURPS-14 past CoC 100). A
    stronger attacker still takes more of him (his damage bonus, ST or Strength is his own). A
    system without published tiers keeps its ``standard_health``."""
    from fractions import Fraction

    from .melee import BLOWS_TO_DOWN, MELEE_BATTERY

    memo = system.__dict__.setdefault("_close_combat_health", {})
    key = (skill, weapon_class)
    if key not in memo:
        health = float(system.standard_health)
        tiers = system.tiers(skill)
        if len(tiers) > 1:
            ctx = {**system.skill_context(skill, None), "@class": weapon_class}
            check = system.melee_check_at(MELEE_BATTERY[0], skill, tiers[1].typical, ctx)
            dist = {_points(k): Fraction(v) for k, v in (check.damage or {}).items()}
            hit = 1 - dist.get(0.0, Fraction(0))
            if hit > 0:
                health = BLOWS_TO_DOWN * float(sum(Fraction(k) * p for k, p in dist.items()) / hit)
        memo[key] = health
    return memo[key]


def close_combat_score(system: "System", skill: str, level: Any, weapon_class: str,
                       context: Mapping[str, Any] | None = None) -> float:
    """A close-combat skill level's true score: the mean measure over the
    close-combat battery (core.melee.MELEE_BATTERY), each item answered by the system's own
    ``melee_check_at`` with the reference weapon of `weapon_class` (fists for brawl, a club for
    melee) against its standard adult: the chance he is down within three attacks."""
    from .melee import MELEE_ATTACKS, MELEE_BATTERY

    health = close_combat_health(system, skill, weapon_class)
    ctx = {**(context or {}), "@class": weapon_class}
    return sum(shot_effect(system.melee_check_at(it, skill, level, ctx), health, MELEE_ATTACKS)
               for it in MELEE_BATTERY) / len(MELEE_BATTERY)


def level_scores(system: "System", skill: str, weapon_class: str | None,
                 context: Mapping[str, Any] | None = None, neutral_skill: str | None = None) -> list[float]:
    """The true score of every native level of `skill` (``system.skill_levels``), in order:
    for a firearm skill the mean measure over every firearm class's battery
    (:func:`firearm_score`), for a close-combat skill (weapon
    class ``unarmed`` or ``club``, core.melee) the close-combat battery
    (:func:`close_combat_score`), the published competence scale for a skill with no battery
    (:func:`standing_score`, where the system states its untrained level and tiers), the
    unmodified roll's chance otherwise. A system without
    close-combat rules of its own (``melee_check_at`` not implemented, a third party's) has
    its close-combat skills equated on the unmodified roll, as before the battery."""
    from .melee import MELEE_CLASSES

    levels = list(system.skill_levels(skill))
    if weapon_class in MELEE_CLASSES:
        try:
            return [close_combat_score(system, skill, lv, weapon_class, context) for lv in levels]
        except NotImplementedError:
            weapon_class = None
    if weapon_class is None:
        if links_on_standing(system, skill, neutral_skill):
            return [standing_score(system, skill, lv, neutral_skill, context) for lv in levels]  # type: ignore[arg-type]
        return [float(system.roll_chance(skill, lv, context)) for lv in levels]
    if weapon_class not in FIREARM_CLASSES:
        return [true_score(system, skill, lv, weapon_class, context) for lv in levels]
    return [firearm_score(system, lv, context) for lv in levels]


# ---- skills with no battery: linked on the published competence scale ----------------------
#
# Spot, Stealth, First Aid, Climb ... have no physical reference task every system states, and
# one unmodified roll cannot tell levels apart where a curve is flat: nWoD's pool puts Dexterity
# 2 + Stealth 1 at 66% (CoC Hide 66, a professional, for one dot, a novice), the Polish test at
# Trudność 10 passes every level from 4 up (Czujność 4 and 5 were both CoC 100) and GURPS 3d6
# puts Vision 14 at 91% (CoC's master). What such a level means in every system is its published
# tier (the CoC skill chart, nWoD's dots, GURPS's 10/12/14/16 and the Polish 0-5): each system's
# untrained level (its default for the skill, at median attributes) stands where an untrained
# adult stands on the chart (vocab.UNTRAINED), each tier's typical level at the middle of the
# chart's band for it, and the levels between on the straight line between those anchors (test
# linking on anchor scores, Kolen & Brennan ch. 6, with the published tiers as the anchors). A
# pool system's attribute counts as the levels it adds (nWoD: a Dexterity dot is a Stealth dot).
# Call of Cthulhu reads its own chart: its percentage is its standing.
STANDING = {1: 0.40, 2: 0.63, 3: 0.83, 4: 0.95}  # tier rank -> the chart's middle of its band
STANDING_TOP = 0.5  # past the master's level each level halves what is left to 100%


def links_on_standing(system: "System", skill: str, neutral_skill: str | None) -> bool:
    """Whether `skill` (covering `neutral_skill`) is linked on the published competence scale:
    a skill with no battery, of a system that states its untrained level and its tiers."""
    from .vocab import UNTRAINED

    if neutral_skill not in UNTRAINED:
        return False
    memo = system.__dict__.setdefault("_links_on_standing", {})  # asked on every skill_ladder call
    key = (skill, neutral_skill)
    if key not in memo:
        memo[key] = (battery_class(neutral_skill) is None and system.untrained_level(skill) is not None
                     and len(system.tiers(skill)) == len(TIER_NAMES))
    return memo[key]


def standing_anchors(system: "System", skill: str, neutral_skill: str) -> list[tuple[float, float]]:
    """(native level, standing) anchors of `skill`: the untrained level at the skill's untrained
    standing, then each tier's typical level above it at its band's middle (a tier whose level
    or standing the untrained one already reaches is left out: GURPS Vision's default is Per 10,
    the amateur's level; CoC's Climb base is 40, the amateur's standing)."""
    from .vocab import UNTRAINED

    u_level, u = float(system.untrained_level(skill)), UNTRAINED[neutral_skill]  # type: ignore[arg-type]
    anchors = [(u_level, u)]
    for t in system.tiers(skill):
        v = STANDING.get(t.rank)
        if v is not None and float(t.typical) > anchors[-1][0] and v > anchors[-1][1]:
            anchors.append((float(t.typical), v))
    return anchors


def standing_score(system: "System", skill: str, level: Any, neutral_skill: str,
                   context: Mapping[str, Any] | None = None) -> float:
    """A level's standing on the published competence scale (see above): piecewise linear
    between the anchors, at the level plus what the NPC's attribute adds
    (``System.attribute_levels``); below the untrained level straight down to 0 at the
    system's lowest level (one level below the untrained one at least), above the master's
    each level halving what is left to 1."""
    anchors = standing_anchors(system, skill, neutral_skill)
    x = float(level) + float(system.attribute_levels(skill, context))
    (x0, y0), (xt, yt) = anchors[0], anchors[-1]
    if x <= x0:
        lowest = min(float(system.skill_levels(skill)[0]), x0 - 1.0)
        return max(0.0, y0 * (x - lowest) / (x0 - lowest))
    if x >= xt:
        return 1.0 - (1.0 - yt) * STANDING_TOP ** (x - xt)
    for (a, ya), (b, yb) in zip(anchors, anchors[1:]):
        if a <= x <= b:
            return ya + (yb - ya) * (x - a) / (b - a)
    raise AssertionError("unreachable: anchors cover every level between the first and the last")


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
    return [{"item": it.name, "distance": f"{it.distance:g} m", "aim": f"{it.aim:g} s",
             "light": f"{it.illuminance:g} lx", "exposure": it.exposure,
             "target speed": f"{it.target_speed:g} m/s", "shooter speed": f"{it.shooter_speed:g} m/s"}
            for it in items(weapon_class)]


__all__ = ["BATTERY_SHORT", "BATTERY_LONG", "Item", "items", "battery", "damage_per_shot", "shot_effect", "TIE_WEIGHT",
           "true_score", "firearm_score", "STANDING", "links_on_standing", "standing_anchors", "standing_score", "close_combat_score", "close_combat_health", "battery_class", "FIREARM_CLASSES", "level_scores", "competence_ladder", "describe_battery",
           "SHOTS"]


# ---- published competence tiers (a check on the firearm and close-combat equating, never an
# input to it; the anchors of a skill with no battery, standing_score) ----------------------

TIER_NAMES = ("untrained", "amateur", "professional", "expert", "master")


class Tier(msgspec.Struct, frozen=True):
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


class TierCell(msgspec.Struct, frozen=True):
    """One published tier shooter of a system converted into another: its typical level, the
    competence it equates to, the level it lands on and that level's tier in the target."""

    weapon_class: str
    source: str
    rank: int
    source_level: Any
    competence: float
    target: str
    level: Any
    target_rank: int

    @property
    def off_by(self) -> int:
        return abs(self.target_rank - self.rank)


def tier_cells(systems: "Mapping[str, System]", keys: Sequence[str],
               skill_for: "Callable[[System, str], str | None]", sources: Sequence[str] | None = None) -> list[TierCell]:
    """Each system's tier typical levels of the skill ``skill_for(system, key)`` for each key (a
    weapon class, a neutral skill), converted into every other system that has such a skill and
    publishes tiers for it. ``sources``: only these systems' tiers (all by default)."""
    cells = []
    for key in keys:
        for a, sa in systems.items():
            if sources is not None and a not in sources:
                continue
            skill_a = skill_for(sa, key)
            if skill_a is None:
                continue
            for tier in sa.tiers(skill_a):
                comp = sa.competence(skill_a, tier.typical, {"@key": key})
                for b, sb in systems.items():
                    skill_b = skill_for(sb, key)
                    if b == a or skill_b is None or not sb.tiers(skill_b):
                        continue
                    lv = sb.level_for(skill_b, comp, {"@key": key})
                    cells.append(TierCell(key, a, tier.rank, tier.typical, comp, b, lv,
                                          tier_of(sb.tiers(skill_b), lv).rank))
    return cells
