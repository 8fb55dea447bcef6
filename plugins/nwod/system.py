"""new World of Darkness (2004 World of Darkness Rulebook) for xsys.

A dice pool, not a number to roll under: pool = attribute + skill + weapon damage +/-
modifiers, each d10 succeeds on 8+, 10s roll again, a pool of 0 or less is one chance
die (success only on 10, dramatic failure on 1). Successes are damage. The cover and
barrier rules are the seed's (shared/rules/nwod-cover.md, nwod.*); everything else a
shot needs is the standard rules, marked ``assumed`` with its page in README.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from importlib import resources
from typing import Annotated, Any, Literal, Mapping, Sequence

import msgspec
from msgspec import Meta

from xsys.core import armorline, cache, carried, dice
from xsys.core.dice import PoolRules
from xsys.core.catalog import say_grenade, says_revolver
from xsys.core.codec import dec_hook, enc_hook
from xsys.core.errors import XsysError
from xsys.core.formulas import Formula
from xsys.core.ladder import Ladder, Step, ladders_from_data
from xsys.core.model import (
    Armor, Barrier, Combatant, Cover, Light, MeleeWeapon, Shooter, Shot, Target, Weapon, field_error, melee_class_of,
)
from xsys.core.equating import Tier
from xsys.core.melee import MeleeItem, attack_check, reference_armor
from xsys.core.sheet import Sheet
from xsys.core.system import CharacteristicSpec, System, percentile_ladder
from xsys.core.trace import Check, Collector, Modifier, Result, fraction_text
from xsys.core.units import Duration, Energy, Illuminance, Length
from xsys.core.model import generic_weapon
from xsys.core.vocab import KIND_OF, POSTURE_HEIGHT, REVOLVER_CARTRIDGES, Location, cartridge_of, is_sawn_off

YARD = 0.9144
TURN_S = 3.0  # one nWoD turn, seconds (assumed; core units nwod_turn)
RULES = PoolRules()  # 8+ succeeds, 10-again, chance die 10 / dramatic 1 (standard rules)
TAIL = Fraction(1, 10**15)  # first-roll mass left unexpanded in barrier_damage (see there)
EXCEPTIONAL = 5  # five or more successes: exceptional success (standard rules)

Dots = Annotated[int, Meta(ge=1, le=5)]
SkillDots = Annotated[int, Meta(ge=0, le=5)]
Rating = Annotated[int, Meta(ge=0, le=10)]
Name = Annotated[str, Meta(max_length=200)]
Text = Annotated[str, Meta(max_length=20_000)]


def _load_tables() -> tuple[dict[str, Any], dict[str, Ladder]]:
    data = cache.package_toml(__package__)
    return data, ladders_from_data(data, str(resources.files(__package__).joinpath("tables.toml")))


TABLES, _LADDERS = _load_tables()
CHART: dict[str, dict[str, Any]] = TABLES["weapon_chart"]
WINDOW = TABLES["window"]
SPECIFIED = {k: v for k, v in TABLES["specified_target"].items() if k != "rule"}


# ======================================================================= native Structs

class Opts(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    pass


class NwodWeapon(Opts, kw_only=True):
    """A weapon as the Ranged Weapons Chart writes it (WoD p. 170)."""

    name: Name
    type: Name = ""  # chart line ("Pistol, Lt.") when it is one
    catalog: Name | None = None  # xsys catalog id of the real gun
    damage: Rating = 0  # bonus dice to the attack pool
    ranges: tuple[Length, Length, Length] | None = None  # short/medium/long; None: close combat
    clip: Annotated[int, Meta(ge=0, le=1000)] = 0
    chamber: bool = False  # the chart's "+1"
    strength: Dots = 1
    size: Annotated[int, Meta(ge=0, le=10)] = 1
    autofire: bool = False
    two_handed: bool = False
    again: Annotated[int, Meta(ge=8, le=10)] = 10  # 9-again shotguns
    armor_piercing: Annotated[int, Meta(ge=0, le=5)] = 0

    def __post_init__(self) -> None:
        # nwod.range: short, medium and long are where the -2 and -4 begin; a range of 0 m,
        # or one shorter than the band before it, has no band (below 0 the decoder refuses)
        if self.ranges is not None:
            short, medium, long_ = self.ranges
            if not short > 0:
                raise field_error("ranges", f"short range must be above 0 m (found {short})")
            if not short <= medium <= long_:
                raise field_error("ranges", f"must be short, medium, long in that order "
                                            f"(found {short}, {medium}, {long_})")


class NwodArmor(Opts, kw_only=True):
    """Armor as the Armor Chart rates it: general/ballistic (WoD p. 166, 170)."""

    name: Name
    general: Rating = 0
    ballistic: Rating = 0
    catalog: Name | None = None
    # Where it sits and how readily it turns a blow aside (a GURPS PD), when that is not what its
    # catalog item (or the torso alone, no deflection) says: the chart has neither, the line keeps
    # them for the way back (xsys.core.armorline).
    covers: list[Location] | None = None
    deflection: Annotated[int, Meta(ge=0, le=10)] | None = None


class NwodNpc(Opts, kw_only=True):
    """An nWoD stat block: nine attributes, skills, specialties, merits, derived traits."""

    name: Name
    Intelligence: Dots = 2
    Wits: Dots = 2
    Resolve: Dots = 2
    Strength: Dots = 2
    Dexterity: Dots = 2
    Stamina: Dots = 2
    Presence: Dots = 2
    Manipulation: Dots = 2
    Composure: Dots = 2
    skills: dict[str, SkillDots] = msgspec.field(default_factory=dict)
    specialties: dict[str, list[Name]] = msgspec.field(default_factory=dict)
    merits: dict[str, Dots] = msgspec.field(default_factory=dict)
    Size: Annotated[int, Meta(ge=1, le=10)] = 5
    Health: Annotated[int, Meta(ge=1, le=20)] | None = None
    Willpower: Annotated[int, Meta(ge=1, le=10)] | None = None
    Defense: Annotated[int, Meta(ge=0, le=10)] | None = None
    Speed: Annotated[int, Meta(ge=1, le=30)] | None = None
    Initiative: Annotated[int, Meta(ge=0, le=20)] | None = None
    weapons: list[NwodWeapon] = msgspec.field(default_factory=list)
    armor: list[NwodArmor] = msgspec.field(default_factory=list)
    notes: Text = ""


# nwod.melee (assumed): a close-combat weapon known only by its class, as the WoD Melee Weapons
# Chart (p. 167) writes the like of it: chart type, damage dice, Size (unarmed: Brawl, 0 dice)
MELEE_LINES = {"unarmed": ("Brawl", 0, 0), "knife": ("Knife", 1, 1), "club": ("Club", 2, 2),
               "sword": ("Sword", 3, 2), "axe": ("Hatchet", 2, 1), "spear": ("Spear", 3, 4),
               "improvised": ("Improvised", 1, 2)}


class NwodCarried(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What an nwod stat block puts in the neutral NPC's ``carried: {nwod: ...}`` (and takes
    back from it): what only nWoD states, verbatim (xsys.core.carried)."""

    Resolve: Dots | None = None  # no neutral characteristic measures it
    skills: dict[str, SkillDots] = msgspec.field(default_factory=dict)  # skills no neutral key holds
    specialties: dict[str, list[Name]] = msgspec.field(default_factory=dict)
    merits: dict[str, Dots] = msgspec.field(default_factory=dict)
    melee: dict[Name, dict] = msgspec.field(default_factory=dict)  # close-combat weapon lines by name


Concealment = Literal["none", "barely", "partial", "substantial"]
Lighting = Literal["lit", "dim", "poor", "dark", "pitch-black"]
RangeBand = Literal["short", "medium", "long", "extreme"]
Burst = Literal["single", "short", "medium", "long"]


class NwodBarrier(Opts, kw_only=True):
    """Full cover: a barrier between shooter and target (nwod.barrier)."""

    name: Name = ""
    window: bool = False  # nwod.window
    Durability: Annotated[int, Meta(ge=0, le=10)] = 1
    Size: Annotated[int, Meta(ge=1, le=20)] = 5
    damage_taken: Annotated[int, Meta(ge=0, le=100)] = 0  # Structure lost to earlier shots

    @property
    def Structure(self) -> int:  # object rules: Structure = Durability + Size
        return self.Durability + self.Size

    @property
    def destroyed(self) -> bool:  # nwod.barrier.penetration: no Structure left, no cover
        return self.damage_taken >= self.Structure


class NwodShot(Opts, kw_only=True):
    """One shot as an nWoD table says it: "Dexterity 3 + Firearms 2, light pistol, medium
    range, target substantially concealed (-3)", "the door is Durability 1"."""

    name: Name = ""
    shooter: Name = ""
    Dexterity: Dots = 2
    Strength: Dots = 2  # against the weapon's Strength requirement
    Firearms: SkillDots = 0
    specialty: bool = False  # a Firearms specialty that applies (+1 die)
    # chart line, catalog id or catalog name; or a weapon line of its own ("Ingram MAC-10",
    # type "SMG, Small") for a weapon that is neither (names survive)
    weapon: Name | NwodWeapon = "Pistol, Lt."
    range: RangeBand = "short"
    lighting: Lighting = "lit"
    concealment: Concealment = "none"  # the target's (nwod.cover.partial)
    shooter_cover: Concealment = "none"  # nwod.cover.firing-from
    leaning_out: bool = False  # nwod.cover.full: shooter behind a barrier leans out
    barrier: NwodBarrier | None = None  # target in full cover (nwod.barrier)
    aimed_at_glass: bool = False  # nwod.window -1
    aiming: Annotated[int, Meta(ge=0, le=3)] = 0  # turns (nwod.aim)
    autofire: Burst = "single"
    prone: bool = False  # target prone (nwod.prone)
    armor: Rating = 0  # target's ballistic armor rating where the shot hits
    armor_piercing: Annotated[int, Meta(ge=0, le=5)] = 0
    specified_target: Location | None = None  # nwod.specified-target: head -3, arm -2 ... (WoD p. 165)
    target: Name = ""
    notes: Text = ""


class NwodSettings(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Per-run options. ``target_defense``: Defense of a target of a thrown attack when the
    scenario does not say (average adult: lower of Dexterity 2 and Wits 2)."""

    target_defense: Annotated[int, Meta(ge=0, le=10)] = 2


# ======================================================================= exact dice

def successes(n: int, again: int = 10) -> dict[int, Fraction]:
    """Distribution of successes of an n-die pool (n <= 0: the chance die)."""
    rules = RULES if again == 10 else PoolRules(again=again)
    return dice.pool_successes(n, rules)


def p_hit(n: int, again: int = 10) -> Fraction:
    return 1 - successes(n, again).get(0, Fraction(0))


@dataclass(frozen=True)
class Penetration:
    """One attack roll against a target behind a barrier (nwod.barrier.penetration)."""

    successes: int
    durability: int
    armor: int
    structure: int
    structure_left_before: int
    penetrates: bool
    excess: int  # S - D when it penetrates, else 0
    structure_damage: int
    structure_left: int
    destroyed: bool
    damage_pool: int | None  # dice rolled against the target (<= 0: chance die); None: no roll

    @property
    def chance_die(self) -> bool:
        return self.damage_pool is not None and self.damage_pool <= 0

    @property
    def more_to_destroy(self) -> int:
        return max(0, self.structure_left)


def penetration(successes: int, durability: int, armor: int = 0, structure: int | None = None,
                damage_taken: int = 0, armor_piercing: int = 0) -> Penetration:
    """nwod.barrier.penetration: successes beyond Durability pass (S > D strictly), each
    removes 1 Structure, and the excess, minus the target's armor, is the new pool (it may
    fall to a chance die). Armor-piercing ignores that many points of armor (nwod.armor-
    piercing, WoD p. 168; its effect on Durability, p. 138, is not applied: the seed's
    procedure has none)."""
    structure = durability + 5 if structure is None else structure
    left_before = structure - damage_taken
    eff_armor = max(0, armor - armor_piercing)
    if successes > durability:
        excess = successes - durability
        left = left_before - excess
        return Penetration(successes, durability, armor, structure, left_before, True, excess, excess,
                           left, left <= 0, excess - eff_armor)
    return Penetration(successes, durability, armor, structure, left_before, False, 0, 0,
                       left_before, left_before <= 0, None)


def barrier_damage(first: Mapping[int, Fraction], durability: int, armor: int,
                   again: int = 10, tail: Fraction = TAIL) -> dict[int, Fraction]:
    """Exact distribution of Health lost by a target behind a barrier: the attack roll's
    successes S (distribution ``first``); S > D rolls S - D - armor dice (a chance die
    when that is 0 or less); the new roll's successes are Health points. The second roll
    uses the standard 10-again pool rules (the seed does not say; ambiguity 6).

    First-roll results are expanded from the lowest up until the mass left is below
    ``tail`` (10^-15); that remaining mass is returned, exactly, under key -1 ("more
    than shown"), so the values are exact and sum to 1 (chance and mean are computed in
    closed form over every S: barrier_hit, barrier_damage_mean)."""
    # Exact sums over one common denominator, reduced once per value instead of once per
    # term: p = P / base and q = Q / den (the pools' own integer weights), so
    # p x q = P x Q x (common / (base x den)) / common.
    items = sorted(first.items())
    base = math.lcm(*{p.denominator for _, p in items})
    expanded: list[tuple[int, int, list[tuple[int, int]]]] = []  # (P, den, [(k, Q)])
    flat: dict[int, int] = {}  # key -> sum of P (over base)
    left = base
    for s, p in items:
        num = _over(p, base)
        if Fraction(left, base) < tail:
            flat[-1] = flat.get(-1, 0) + num
            continue
        left -= num
        if s > durability:
            qs, den = _success_weights(s - durability - armor, again)
            expanded.append((num, den, qs))
        else:
            flat[0] = flat.get(0, 0) + num
    common = base * math.lcm(*{den for _, den, _ in expanded})
    sums = {k: v * (common // base) for k, v in flat.items()}
    for num, den, qs in expanded:
        scale = num * (common // (base * den))
        for k, q in qs:
            sums[k] = sums.get(k, 0) + scale * q
    return {k: Fraction(v, common) for k, v in sorted(sums.items()) if v}


def _success_weights(n: int, again: int) -> tuple[list[tuple[int, int]], int]:
    """successes(n, again) as (successes, weight) pairs over one denominator."""
    rules = RULES if again == 10 else PoolRules(again=again)
    if n >= 1:
        weights, den = dice.pool_weights(n, rules)
        return [(k, w) for k, w in enumerate(weights) if w], den
    dist = dice.chance_die(rules)
    den = math.lcm(*{q.denominator for q in dist.values()})
    return [(k, _over(q, den)) for k, q in dist.items()], den


def _over(p: Fraction, den: int) -> int:
    """The numerator of p written over `den` (a multiple of its denominator)."""
    return p.numerator if p.denominator == den else p.numerator * (den // p.denominator)


def barrier_hit(first: Mapping[int, Fraction], durability: int, armor: int) -> Fraction:
    """P(the target behind the barrier loses at least 1 Health): closed form, since a
    pool of n >= 1 dice scores nothing with probability (7/10)^n and a chance die 9/10."""
    total = Fraction(0)
    for s, p in first.items():
        if s > durability:
            n = s - durability - armor
            total += p * (1 - (Fraction(7, 10) ** n if n > 0 else Fraction(9, 10)))  # 7 faces of 10 miss
    return total


def barrier_damage_mean(first: Mapping[int, Fraction], durability: int, armor: int, again: int = 10) -> Fraction:
    """Expected Health lost behind a barrier: n dice average n x (one die's mean); a chance
    die 1/10."""
    rules = RULES if again == 10 else PoolRules(again=again)
    mu = dice.mean(dice.die_successes(rules))
    total = Fraction(0)
    for s, p in first.items():
        if s > durability:
            n = s - durability - armor
            total += p * (n * mu if n > 0 else dice.mean(dice.chance_die(rules)))
    return total


def shown(dist: Mapping[int, Fraction], tail: float = 1e-12) -> dict[str, str]:
    """A distribution for the odds output: exact values while the mass left above them is
    at least ``tail``; the rest as one exact "N+" entry."""
    out: dict[str, str] = {}
    left = Fraction(1) - dist.get(-1, Fraction(0))
    items = sorted((k, v) for k, v in dist.items() if k >= 0)
    for i, (k, v) in enumerate(items):
        if left < tail and i > 0:
            rest = sum((q for _, q in items[i:]), Fraction(0)) + dist.get(-1, Fraction(0))
            out[f"{k}+"] = fraction_text(rest)
            return out
        out[str(k)] = fraction_text(v)
        left -= v
    if dist.get(-1):
        out["more"] = fraction_text(dist[-1])
    return out


# The outcomes of a roll depend on the pool (and barrier) alone, not on the shot that led
# to it: each is computed once per system and kept across processes (NwodSystem._outcomes),
# so a check does no exact arithmetic on pools it has met before.
_PoolOutcomes = tuple[Fraction, Fraction, Fraction, dict[str, str]]


def _pool_outcomes(pool: int, again: int) -> _PoolOutcomes:
    """(chance of 1+ success, of an exceptional success, mean successes, shown distribution)."""
    first = successes(pool, again)
    return 1 - first.get(0, Fraction(0)), dice.at_least(first, EXCEPTIONAL), dice.mean(first), shown(first)


_BarrierOutcomes = tuple[Fraction, Fraction, Fraction, Fraction, dict[str, str]]


def _barrier_outcomes(pool: int, again: int, durability: int, structure_left: int, armor: int) -> _BarrierOutcomes:
    """(chance of 1+ Health lost, of penetrating, of destroying the barrier, mean Health
    lost, shown damage distribution) of a pool fired through a barrier with
    ``structure_left`` Structure (nwod.barrier.penetration: each success beyond Durability
    is 1 Structure; at 0 the barrier is destroyed)."""
    first = successes(pool, again)
    return (barrier_hit(first, durability, armor), dice.at_least(first, durability + 1),
            dice.at_least(first, durability + max(1, structure_left)),
            barrier_damage_mean(first, durability, armor, again), shown(barrier_damage(first, durability, armor, again)))


def armor_on(shot: Shot) -> tuple[int, str]:
    """nwod.armor: the best ballistic rating among the target's armor that covers the hit
    location (the specified target, else the torso), and that armor's name."""
    loc = shot.called_location or "torso"
    armor, name = 0, ""
    for a in shot.target.armor:
        covers = set(a.covers) | ({"torso"} if "vitals" in a.covers else set())
        if loc in covers or (loc in ("vitals", "groin") and "torso" in covers):
            r = int(_LADDERS["armor_ballistic"].step_for(float(a.stops)).native)
            if r > armor:
                armor, name = r, a.name
    return armor, name


NIGHT_VISION = {"nv-goggles", "thermal-goggles", "nv-sight", "thermal"}
LIGHTS = {"weapon-light", "hand-light"}
LIGHT_REACH_M = 50.0  # a hand-held or weapon light lights a target this close (assumed)


def lighting(shot: Shot) -> tuple[Step, int, str]:
    """nwod.darkness (assumed, README): the darkness step of the light on the target, the dice
    it costs after the shooter's vision aids, and the aid that changed it ("" when none did):
    night vision or thermal leaves at most -1; a hand-held or weapon light within 50 m removes
    the penalty."""
    dstep = _LADDERS["darkness"].step_for(float(shot.light.illuminance))
    dark = int(dstep.native)
    aids = set(shot.light.aids) | ({shot.weapon.sights} & {"nv-sight", "thermal"})
    if dark < 0 and aids:
        if aids & NIGHT_VISION:
            return dstep, max(dark, -1), sorted(aids & NIGHT_VISION)[0]
        if aids & LIGHTS and float(shot.distance) <= LIGHT_REACH_M:
            return dstep, 0, sorted(aids & LIGHTS)[0]
    return dstep, dark, ""


def cover_penalty(attacker_cover: str, target_cover: str) -> tuple[int, int, int]:
    """(target part, firing-from part, total) of two concealment degrees: the target's
    degree (nwod.cover.partial) plus firing from one's own cover at one less
    (nwod.cover.firing-from); both apply together (nwod.cover.both)."""
    t = CONCEALMENT[target_cover]
    f = firing_from(CONCEALMENT[attacker_cover])
    return t, f, t + f


def firing_from(rating: int) -> int:
    """nwod.cover.firing-from: one less than the cover's own rating (-3 -> -2, -1 -> 0)."""
    return min(0, rating + 1)


# nwod.barrier (assumed): a target all but hidden behind a barrier (a visible fraction up to 0.05,
# GURPS's "behind cover, head down, almost invisible") is shot through it, as one wholly behind it
SHOT_THROUGH = 0.05


def barrier_applies(attack: Literal["melee", "ranged"], separation_m: float) -> bool:
    """nwod.barrier: a barrier usually does not affect close combat: opponents about a
    yard apart get no penalty from it; shots always hit the barrier first."""
    return not (attack == "melee" and separation_m <= YARD * 1.5)


CONCEALMENT: dict[str, int] = {"none": 0, "barely": -1, "partial": -2, "substantial": -3}
CONCEALED = {"none": "not", "barely": "barely", "partial": "partially", "substantial": "substantially"}
CONCEALMENT_NAME = {v: k for k, v in CONCEALMENT.items()}
LIGHTING: dict[str, int] = {"lit": 0, "dim": -1, "poor": -2, "dark": -3, "pitch-black": -9}
LIGHTING_NAME = {v: k for k, v in LIGHTING.items()}
BURSTS: dict[str, int] = {"single": 1, "short": 3, "medium": 10, "long": 20}
BURST_NAME = {0: "single", 1: "short", 2: "medium", 3: "long"}
RANGE_PENALTY = {"short": 0, "medium": -2, "long": -4, "extreme": -6}
RANGE_NAME = {v: k for k, v in RANGE_PENALTY.items()}


# ======================================================================= helpers

def thrown_short_range(strength: int, dexterity: int, athletics: int, size: int = 1) -> int:
    """nwod.range (WoD p. 162): a thrown object's short range, Strength + Dexterity + Athletics -
    its Size yards (at least 1); medium and long twice and four times it. One reckoning for the
    check and for the sheet's printed line."""
    return max(1, strength + dexterity + athletics - size)


def range_ladder(chart_type: str, short_yd: float | None = None) -> Ladder:
    """nwod.range: distance -> 0 / -2 / -4 at a weapon's short / medium / long range (each
    twice the previous, WoD p. 162, 170). Beyond long range: -6 (assumed: the book gives
    no fourth band; one more step of -2)."""
    entry = CHART[chart_type]
    s, m, l = (float(x) * YARD for x in entry["ranges"]) if short_yd is None else (
        short_yd * YARD, 2 * short_yd * YARD, 4 * short_yd * YARD)
    rows = [
        Step(0, s, "nwod.range", "assumed", "short", s / 2),
        Step(-2, m, "nwod.range", "assumed", "medium", (s + m) / 2),
        Step(-4, l, "nwod.range", "assumed", "long", (m + l) / 2),
        Step(-6, math.inf, "nwod.range", "assumed", "extreme (beyond long)", 2 * l),
    ]
    return Ladder.build(f"range.{chart_type}", "m", rows, rounding="up", native_order="decreasing")


RANGE_LADDERS = {t: range_ladder(t) for t in CHART}


def chart_type_for(weapon: Weapon) -> str:
    """Which Ranged Weapons Chart line a neutral weapon is (assumed, README): its name if
    it is a line, a catalog example of a line, else by class and muzzle energy."""
    if weapon.name in CHART:
        return weapon.name
    entry = _catalog_entry(weapon)
    if entry is not None:
        for t, e in CHART.items():
            if entry.id in e.get("catalog", []):
                return t
    e = float(weapon.muzzle_energy)
    auto = any(m in ("auto", "burst") for m in weapon.fire_modes)
    cls = "revolver" if is_revolver(weapon) else weapon.weapon_class
    if cls == "handgun":
        return "Pistol, Lt." if e < 600 else "Pistol, Hvy."
    if cls == "revolver":
        return "Revolver, Lt." if e < 600 else "Revolver, Hvy."
    if cls == "smg":
        return "SMG, Small" if e < 600 else "SMG, Large"
    if cls == "carbine":
        return "Assault Rifle"
    if cls == "rifle":
        return "Assault Rifle" if auto else "Rifle"
    if cls == "shotgun":
        length = float(weapon.length) if weapon.length is not None else None
        return "Shotgun, Sawn-off" if is_sawn_off(cls, length, weapon.name) else "Shotgun"
    if cls == "mg":
        return "Machine Gun"
    return "Thrown"


CLIP = TABLES["clip"]


def _catalog_entry(weapon: Weapon):
    """The catalog weapon a neutral weapon is: by its id, else by what its name says
    (core.catalog.Catalog.weapon_basis, one answer for every system)."""
    try:
        return _catalog().weapon_basis(weapon).entry
    except XsysError:
        return None


# the chart's own example revolvers by name ("S&W M640", the Revolver, Lt. line's example gun)
_REVOLVER_EXAMPLES = {e["example"].partition("(")[0].strip().lower() for e in CHART.values()
                      if e["class"] == "revolver" and e.get("example")}


def is_revolver(weapon: Weapon) -> bool:
    """nwod.weapon.clip (assumed, README): a revolver by its class, its catalog feed (a cylinder),
    or, for a handgun of no catalog, by "revolver" in its name, a name that is one of the chart's
    example revolvers ("S&W M640"), or a revolver cartridge in its calibre or in its name's
    parentheses ("Colt Police Positive (.38 Special)")."""
    if weapon.weapon_class == "revolver":
        return True
    if weapon.weapon_class != "handgun" or weapon.name in CHART:
        return False
    entry = _catalog_entry(weapon)
    if entry is not None:
        return entry.feed == "cylinder"
    low = weapon.name.lower()
    if says_revolver(weapon.name) or low in _REVOLVER_EXAMPLES:
        return True
    key = cartridge_of(weapon.calibre) or cartridge_of(weapon.name)
    return key in REVOLVER_CARTRIDGES


def chambers(weapon: Weapon, line: Mapping[str, Any]) -> tuple[bool, str]:
    """nwod.weapon.clip (assumed, README): whether the gun holds a round in the chamber beside a
    full magazine (the chart's "+1"), and why: only a closed-bolt gun fed from a magazine, tube or
    stripper clip; not a revolver, a break-action, a belt, an open bolt or an en-bloc clip."""
    entry = _catalog_entry(weapon)
    if entry is not None:
        if entry.feed in CLIP["no_chamber_feeds"]:
            return False, f"its feed is a {entry.feed}"
        if entry.id in CLIP["open_bolt"]:
            return False, "it fires from an open bolt"
        if entry.id in CLIP["en_bloc"]:
            return False, "its chambered round is one of its en-bloc clip's"
        return True, f"a closed bolt fed from a {entry.feed or 'magazine'}"
    if is_revolver(weapon):
        return False, "a revolver holds its rounds in the cylinder"
    if weapon.weapon_class == "shotgun" and (0 < weapon.capacity <= 2 or any(
            word in weapon.name.lower() for word in CLIP["break_action_words"])):
        return False, "a break-action holds its rounds in the barrels"
    if weapon.weapon_class == "mg":
        return False, "a machine gun fires from an open bolt, off a belt"
    return bool(line.get("chamber", False)), f"its chart line's ({'+1' if line.get('chamber') else 'no +1'})"


# Words of a weapon type that is no chart line ("Sniper Rifle", "Hunting Shotgun"), first
# match wins (assumed, README): the class the type names.
TYPE_WORDS = (("machine gun", "mg"), ("machinegun", "mg"), ("submachine", "smg"), ("smg", "smg"),
              ("shotgun", "shotgun"), ("carbine", "carbine"), ("rifle", "rifle"), ("revolver", "revolver"),
              ("pistol", "handgun"), ("handgun", "handgun"), ("grenade", "thrown"), ("thrown", "thrown"))


def weapon_class_of(w: "NwodWeapon", col: Collector | None = None, path: str = "$") -> str:
    """The neutral class of a native weapon line: its chart line's; for a type that is no
    chart line, the class its words name, else a guess from its traits, with a warning
    (never a silent handgun); with no type at all, what its name says (its catalog weapon, a
    class word: an `assumed` note), else the guess from its traits, with a warning. A chart
    line's class is refined by a revolver word in the name."""
    if w.type in CHART:
        return _catalog().weapon_class_named(w.name, CHART[w.type]["class"])  # a 'Revolver' on a Pistol line
    low = w.type.lower()
    cls = next((c for word, c in TYPE_WORDS if word in low), None) if low else None
    how = f"its type {w.type!r} names a {cls}" if cls else ""
    if cls is None and not w.type:
        entry, cls = _catalog().identify_weapon(w.name)  # no type: what its name says
        cls = entry.weapon_class if entry is not None else cls
        how = f"its name says a {cls}" if cls else ""
    if cls is None:
        cls = ("shotgun" if w.again == 9 else "handgun" if w.size <= 1 and not w.autofire
               else "smg" if w.autofire and w.size <= 2 else "rifle")
        how = (f"a {cls} by its traits (Size {w.size}, {'autofire' if w.autofire else 'no autofire'}"
               f"{', 9-again' if w.again == 9 else ''})")
    if col is not None:
        if w.type:
            col.loss("unsupported-field", f"{path}.type", f"{w.type!r} is not a Ranged Weapons Chart line ("
                     + ", ".join(CHART) + f"); {w.name!r} is read as {how}", "nwod.weapon.damage")
        elif how.startswith("its name"):
            col.loss("assumed", f"{path}.type", f"{w.name!r} names no chart line; read as {how}",
                     "nwod.weapon.damage")
        else:  # never a silent handgun: a guess from the traits alone is a warning
            col.loss("unsupported-field", f"{path}.type", f"{w.name!r} names no chart line and its name says no "
                     f"weapon or class; read as {how}: say its type (" + ", ".join(CHART) + ")",
                     "nwod.weapon.damage")
    return cls


def _catalog():
    from xsys.core.registry import catalog

    return catalog()


def barrier_stops(barrier: Barrier) -> float:
    """Joules the barrier stops (the catalog's one protection axis)."""
    return _catalog().barrier_stops(barrier)


def _find_catalog_weapon(name: str):
    try:
        return _catalog().find_weapon(name)
    except XsysError:
        return None


# ======================================================================= the system

# nWoD skill dots (World of Darkness Rulebook): none untrained, 1 novice, 2 practitioner,
# 3 professional, 4 expert, 5 master (Dexterity alongside: tiers are read at Dexterity 2).
NWOD_TIERS = ((0, "untrained", 0, 0), (1, "novice/practitioner", 1, 2), (2, "professional", 3, 3),
              (3, "expert", 4, 4), (4, "master", 5, 5))


class NwodSystem(System):
    key = "nwod"
    name = "new World of Darkness"
    edition = "2004 rules (World of Darkness Rulebook)"
    dice = "d10 pool, 8+ succeeds, 10-again"
    rule_prefix = "nwod."
    npc_type = NwodNpc
    shot_type = NwodShot
    settings_type = NwodSettings

    ATTRIBUTES = ("Intelligence", "Wits", "Resolve", "Strength", "Dexterity", "Stamina",
                  "Presence", "Manipulation", "Composure")
    # native attribute -> neutral characteristic (Resolve has no neutral key of its own:
    # it is kept verbatim and, from other systems, read from "will"; README)
    NEUTRAL_ATTR = {"Intelligence": "intelligence", "Wits": "perception", "Strength": "strength",
                    "Dexterity": "dexterity", "Stamina": "constitution", "Presence": "appearance",
                    "Manipulation": "charisma", "Composure": "will", "Size": "size"}
    MENTAL = ("Academics", "Computer", "Crafts", "Investigation", "Medicine", "Occult", "Politics", "Science")
    # native skill -> (attribute of its standard pool, neutral skill keys)
    SKILLS = {
        "Firearms": ("Dexterity", ("handgun", "rifle", "shotgun", "smg", "machine_gun")),
        "Athletics": ("Dexterity", ("throw", "athletics", "climb", "swim", "jump")),
        "Brawl": ("Strength", ("brawl",)),
        "Weaponry": ("Strength", ("melee",)),
        "Stealth": ("Dexterity", ("stealth",)),
        "Larceny": ("Dexterity", ("locksmith", "conceal")),
        "Investigation": ("Wits", ("spot",)),
        "Survival": ("Wits", ("track",)),
        "Medicine": ("Intelligence", ("first_aid",)),
        "Drive": ("Dexterity", ("drive",)),
        # nwod.pool: Intelligence + Academics to research, Wits + Empathy to read a person,
        # Manipulation + Persuasion, Presence + Intimidation (WoD pp. 57, 79-83; assumed pools)
        "Academics": ("Intelligence", ("research",)),
        "Empathy": ("Wits", ("psychology",)),
        "Persuasion": ("Manipulation", ("persuade",)),
        "Intimidation": ("Presence", ("intimidate",)),
    }
    PERCEPTION = ("Wits", "Composure")  # Wits + Composure: perception with no skill (listen)
    FIREARM_CLASS = {"handgun": "handgun", "rifle": "rifle", "shotgun": "shotgun", "smg": "smg",
                     "machine_gun": "mg", "throw": "thrown"}
    # The stat block as the core converts it (xsys.core.sheet): a skill's pool takes any of the
    # nine attributes; Resolve (no neutral characteristic measures it), specialties and merits
    # are what only nWoD states, carried verbatim; a skill of 0 dots is not written.
    sheet = Sheet(context=ATTRIBUTES, carried=("Resolve", "skills", "specialties", "merits"),
                  carried_type=NwodCarried, unstated_level=0)

    def __init__(self, settings: Any = None) -> None:
        super().__init__(settings)
        self._rolls: dict[tuple, Any] = {}  # (table, arguments) -> outcomes (_outcomes)

    # ------------------------------------------------------------------ tables
    def text_layout(self) -> Any:
        """Plain-text stat blocks: the World of Darkness Rulebook block (text.py)."""
        from .text import NwodText  # the block's reader is loaded when a block is read

        return NwodText(self.key)

    def ladders(self) -> dict[str, Ladder]:
        out = dict(_LADDERS)
        out.update({lad.name: lad for lad in RANGE_LADDERS.values()})
        for native, spec in self.characteristics().items():
            out[f"attribute.{native}"] = spec.ladder
        return out

    @cached_property
    def _characteristics(self) -> dict[str, CharacteristicSpec]:
        attr = {int(k): Fraction(v) for k, v in TABLES["attribute_distribution"].items() if k != "rule"}
        size = {int(k): Fraction(v) for k, v in TABLES["size_distribution"].items() if k != "rule"}
        out = {}
        for a in self.ATTRIBUTES:
            if a in self.NEUTRAL_ATTR:
                out[a] = CharacteristicSpec(self.NEUTRAL_ATTR[a],
                                            percentile_ladder(a, attr, "nwod.attributes", "assumed"))
        out["Size"] = CharacteristicSpec("size", percentile_ladder("Size", size, "nwod.size", "assumed"))
        return out

    def characteristics(self) -> dict[str, CharacteristicSpec]:
        return self._characteristics

    def skills(self) -> dict[str, tuple[str, ...]]:
        return {k: v[1] for k, v in self.SKILLS.items()}

    def rule_ids(self) -> set[str]:
        return super().rule_ids() | {
            "nwod.barrier", "nwod.barrier.penetration", "nwod.barrier.example", "nwod.window",
            "nwod.cover.partial", "nwod.cover.firing-from", "nwod.cover.both", "nwod.cover.full",
            "nwod.pool", "nwod.chance-die", "nwod.firearms.pool", "nwod.untrained", "nwod.specialty",
            "nwod.armor", "nwod.armor-piercing", "nwod.weapon.strength", "nwod.offhand",
            "nwod.defense", "nwod.specified-target", "nwod.derived", "nwod.object.structure",
            "nwod.range", "nwod.hidden", "nwod.melee", "nwod.weapon.clip",
        }

    def formulas(self) -> Sequence[Formula]:
        """``xsys rules nwod`` formulas (formulas.py): barriers, cover, dice pools."""
        return _formulas()

    # ------------------------------------------------------------------ skills
    def _attr_of(self, skill: str) -> str:
        return self.SKILLS.get(skill, ("Dexterity",))[0]

    def _untrained(self, skill: str) -> int:
        return -3 if skill in self.MENTAL else -1  # nwod.untrained (WoD p. 55)

    # the standard adult: Health = Stamina + Size (nwod.derived) with Stamina 2 and Size 5
    standard_health = 7.0
    health_rule = "nwod.derived"
    length_unit = "yd"  # the rulebook prints ranges in yards (nwod.weapon.ranges)
    health_field = "Health"
    health_formula = "Health = Stamina + Size"
    health_range = (1, 20)
    skill_rule = "nwod.pool"

    # nwod.defense (WoD p. 155-156): Defense, the lower of Dexterity and Wits (nwod.derived),
    # is taken from the dice of a close or thrown attack on its owner. Its neutral dodge is the
    # share of an attack's hits it takes away (assumed, README). A dodge roll (CoC, GURPS) takes
    # the same share of any attack's hits, but Defense takes dice, so its share depends on the
    # attack: it is the mean over a battery of attacks, 3 to 7 dice around the standard 5 (an
    # average adult's Strength 2, a practised brawler's Brawl 2 and a knife, +1): an untrained
    # weakling's to a strong, skilled, armed attacker's.
    STANDARD_ATTACK = 5
    DEFENSE_ATTACKS = (3, 4, 5, 6, 7)

    def derived_skills(self) -> dict[str, str]:
        return {"dodge": "Defense"}

    def derived_fields(self) -> dict[str, tuple[tuple[str, ...], str]]:
        # nwod.derived (WoD p. 90-91), merits as the Merits chapter adds them
        return {"Health": (("Stamina", "Size"), "nwod.derived"),
                "Willpower": (("Resolve", "Composure"), "nwod.derived"),
                "Defense": (("Dexterity", "Wits"), "nwod.derived"),
                "Speed": (("Strength", "Dexterity", "merits.Fleet of Foot"), "nwod.derived"),
                "Initiative": (("Dexterity", "Composure", "merits.Fast Reflexes"), "nwod.derived")}

    def skill_levels(self, skill: str) -> Sequence[int]:
        if skill == "Defense":
            return range(11)
        return range(6)

    def tiers(self, skill: str) -> tuple[Tier, ...]:
        return tuple(Tier(r, n, lo, ty, 'nwod.pool', 'assumed') for r, n, lo, ty in NWOD_TIERS)

    def untrained_level(self, skill: str) -> float | None:
        """No dots is the untrained adult (NWOD_TIERS): a skill with no battery (Stealth,
        Investigation, Medicine ...) is linked on the published competence scale."""
        return None if skill == "Defense" else 0.0

    def attribute_levels(self, skill: str, context: Mapping[str, Any] | None = None) -> float:
        """A pool is attribute + skill (nwod.pool): each attribute dot above the human average 2 adds
        the die a skill dot adds."""
        if skill == "Defense":
            return 0.0
        return float(int((context or {}).get(self._attr_of(skill), 2)) - 2)

    def skill_context(self, skill: str, context: Mapping[str, Any] | None) -> dict[str, Any]:
        """A pool is attribute + skill: the skill's attribute (2 when not given) is its context."""
        if skill == "Defense":
            return {}
        attr = self._attr_of(skill)
        return {attr: int((context or {}).get(attr, 2))}

    def competence_rule(self, skill: str) -> str:
        if skill in ("Brawl", "Weaponry"):
            return "nwod.melee"  # equated over the close-combat battery
        return "nwod.defense" if skill == "Defense" else super().competence_rule(skill)

    def roll_chance(self, skill: str, level: Any, context: Mapping[str, Any] | None = None) -> Fraction:
        if skill == "Defense":  # nwod.defense: the share of the attacks' hits it takes away
            shares = [1 - p_hit(a - int(level)) / p_hit(a) for a in self.DEFENSE_ATTACKS]
            return sum(shares, Fraction(0)) / len(shares)
        attr = int((context or {}).get(self._attr_of(skill), 2))
        return p_hit(attr + (int(level) if int(level) > 0 else self._untrained(skill)))

    def shot_context(self, shot: Shot) -> dict[str, Any]:
        return {"Dexterity": self._attr_from_percentile("Dexterity", shot.shooter.characteristics.get("dexterity"))}

    # ---- close combat: the close-combat battery's check (core.melee) -----------
    # The median adult's Defense is the lower of Dexterity 2 and Wits 2 (nwod.derived); a dodge
    # doubles it (WoD p. 156, not in the seed: assumed). Prone: close attacks on a prone target
    # +2 dice, attacking from prone -2 (WoD p. 164 as this plugin reads it: assumed).
    MEDIAN_DEFENSE = 2

    def melee_check_at(self, item: MeleeItem, skill: str, level: Any, context: Mapping[str, Any] | None = None
                       ) -> Check:
        """One close-combat battery item: Strength + the skill (no dots: -1, nwod.untrained) + the
        reference club's 2 damage dice (nwod.melee, the Melee Weapons Chart's club) - the adult's
        Defense (nwod.defense: 2; a dodge doubles it; none when surprised) + light (the darkness
        ladder, nwod.darkness) + posture - the jacket's general armor (nwod.armor); d10s, 8+
        succeeds, 10-again (nwod.pool); the successes are the damage. Cover would not count:
        a barrier does not affect close combat (nwod.barrier)."""
        ctx = context or {}
        strength = int(ctx.get("Strength", 2))
        lv = int(level)
        mods: list[Modifier] = []

        def dice_mod(rule: str, value: int, source: str, why: str) -> None:
            if value:
                mods.append(Modifier(rule=rule, kind="dice", value=int(value), source=source, why=why))  # type: ignore[arg-type]

        if lv <= 0:
            dice_mod("nwod.untrained", self._untrained(skill), "assumed", f"no {skill} dots: Strength alone at -1")
        t, dmg, _size = MELEE_LINES[str(ctx.get("@class", "club"))]
        dice_mod("nwod.melee", dmg, "assumed", f"the reference {t.lower()}'s {dmg} damage dice")
        if item.defence != "none":
            d = self.MEDIAN_DEFENSE * (2 if item.defence == "dodge" else 1)
            dice_mod("nwod.defense", -d, "assumed", f"the adult's Defense {self.MEDIAN_DEFENSE}"
                     + (", doubled by dodging" if item.defence == "dodge" else ""))
        dstep = _LADDERS["darkness"].step_for(float(item.illuminance))
        dice_mod(dstep.rule, int(dstep.native), dstep.source, f"{item.illuminance:g} lx: {dstep.label}")
        if item.target_posture == "prone":
            dice_mod("nwod.prone", 2, "assumed", "close attack on a prone target")
        if item.attacker_posture == "prone":
            dice_mod("nwod.prone", -2, "assumed", "attacking from prone")
        if item.armor:
            a = int(_LADDERS["armor_general"].step_for(float(reference_armor(item.armor, _catalog()).stops)).native)
            dice_mod("nwod.armor", -a, "assumed", f"{item.armor}: armor {a}")
        pool = strength + max(lv, 0) + sum(int(m.value) for m in mods)
        dist = successes(pool)
        hit = 1 - dist.get(0, Fraction(0))
        on_hit = {k: p / hit for k, p in dist.items() if k > 0} if hit else {1: Fraction(1)}
        return attack_check(self, stat=skill, base=strength + max(lv, 0), target=pool,
                            needs=f"pool {pool}, 1+ success at 8" if pool > 0 else "chance die", hit=hit,
                            damage=on_hit, modifiers=mods,
                            native=f"Strength {strength} + {skill} {lv}: {pool} dice, successes are damage")

    def check_at(self, shot: Shot, skill: str, level: Any, context: Mapping[str, Any] | None = None,
                 extra: Sequence[Modifier] = ()) -> Check:
        dex = int((context or {}).get("Dexterity", 2))
        return self._pool_check(shot, dex, int(level), skill=skill, extra=extra)

    # ------------------------------------------------------------------ the check
    def _attr_from_percentile(self, name: str, p: float | None) -> int:
        if p is None:
            return 2  # the brief: default attribute 2 when absent
        return int(self.characteristics()[name].ladder.step_for(p).native)

    def weapon_stats(self, weapon: Weapon) -> tuple[str, dict[str, Any], int, str, str]:
        """(chart line, its entry, damage rating, rule, source) of a neutral weapon. One of the
        chart's own example guns has the rating the chart prints (nwod.weapon.damage, seed: the
        MP5 is 3). Other damage goes by cartridge (nwod.weapon.damage, assumed): tables.toml [cartridge],
        else the damage ladder at the cartridge's reference muzzle energy; a weapon of
        unknown calibre has its chart line's rating when it is named by the line, else the
        ladder at its own muzzle energy."""
        t = chart_type_for(weapon)
        entry = CHART[t]
        basis = _catalog().weapon_basis(weapon)  # its catalog weapon, else the cartridge its calibre or name states
        if basis.entry is not None and basis.entry.id in entry.get("catalog", ()):
            # the chart's own example gun has the rating the chart prints for it (WoD p. 170):
            # the HK MP-5 is SMG Large at 3 although other 9 mm guns are 2
            return t, entry, int(entry["damage"]), "nwod.weapon.damage", "seed"
        key = basis.cartridge
        if key is not None and key in TABLES.get("cartridge", {}):
            return t, entry, int(TABLES["cartridge"][key]), "nwod.weapon.damage", "assumed"
        if basis.kind == "class" and weapon.name in CHART:
            return t, entry, int(entry["damage"]), "nwod.weapon.damage", "assumed"
        step = _LADDERS["weapon_damage"].step_for(basis.energy)
        return t, entry, int(step.native), step.rule, step.source

    def _pool_check(self, shot: Shot, dex: int, level: int, *, skill: str = "Firearms",
                    extra: Sequence[Modifier] = (), native_barrier: NwodBarrier | None = None,
                    armor_piercing: int = 0, native: bool = False) -> Check:
        mods: list[Modifier] = []
        notes: list[str] = []
        ch = shot.shooter.characteristics
        base = dex + level
        if level <= 0:
            mods.append(Modifier(rule="nwod.untrained", kind="dice", value=-1, source="assumed",
                                 why=f"no {skill} dots: Dexterity alone at -1 (WoD p. 161)"))
        chart, entry, dmg, dmg_rule, dmg_src = self.weapon_stats(shot.weapon)
        again = int(entry.get("again", 10))
        if dmg:
            mods.append(Modifier(rule=dmg_rule, kind="dice", value=dmg, source=dmg_src,
                                 why=f"weapon damage {dmg} ({chart}) added to the pool (WoD p. 161, 170)"))
        # range (nwod.range)
        if chart == "Thrown":
            st = self._attr_from_percentile("Strength", ch.get("strength"))
            short = thrown_short_range(st, dex, level)
            rlad = range_ladder("Thrown", short)
        else:
            rlad = RANGE_LADDERS[chart]
        rstep = rlad.step_for(float(shot.distance))
        if rstep.native:
            mods.append(Modifier(rule=rstep.rule, kind="dice", value=rstep.native, source=rstep.source,
                                 why=f"{rstep.label} range at {shot.distance} ({chart})"))
        # light (nwod.darkness); aids: a light within 50 m lights the target, NV/thermal
        # leaves at most -1 (assumed)
        dstep, dark, _aid = lighting(shot)
        blind = dark == LIGHTING["pitch-black"]
        if dark and not blind:
            mods.append(Modifier(rule="nwod.darkness", kind="dice", value=dark, source="assumed",
                                 why=dstep.label))
        # target's cover (nwod.cover.partial / nwod.barrier / hidden)
        cover = shot.target.cover
        barrier = cover.barrier if cover.exposure <= SHOT_THROUGH else None
        hidden = cover.exposure <= 0 and barrier is None
        if cover.exposure > 0 and barrier is None:
            cstep = _LADDERS["concealment"].step_for(cover.exposure)
            if cstep.native:
                mods.append(Modifier(
                    rule="nwod.cover.partial", kind="dice", value=cstep.native, source="seed" if native else "assumed",
                    why=f"target {CONCEALED[cstep.label]} concealed" + (" (as the shot states it)" if native else
                        f" (visible fraction {cover.exposure:g}): {cstep.native} is the seed's for that degree; "
                        "reading the visible fraction as the degree is derived (ladder `concealment`, assumed)")))
            target_rating = int(cstep.native)
        else:
            target_rating = -3
        # shooter's own cover (nwod.cover.firing-from, nwod.cover.full, nwod.cover.both)
        own = shot.shooter.cover
        if own.exposure <= 0 or own.barrier is not None and own.exposure < 0.35:
            mods.append(Modifier(rule="nwod.cover.full", kind="dice", value=-2, source="assumed",
                                 why="shooter in full cover leans out: the seed drops him to good cover "
                                     "(attacks on him -3); his own -2 is derived, not stated: good cover's "
                                     "-3 at one less (nwod.cover.firing-from)"))
            own_rating = -3
        else:
            own_rating = int(_LADDERS["concealment"].step_for(own.exposure).native)
            f = firing_from(own_rating)
            if f:
                mods.append(Modifier(rule="nwod.cover.firing-from", kind="dice", value=f,
                                     source="seed" if native else "assumed",
                                     why=f"firing from {CONCEALMENT_NAME[own_rating]} cover ({own_rating}) at one less"
                                         + ("" if native else " (the degree read from the shooter's visible fraction: "
                                                              "derived)")))
        if own_rating < 0 and target_rating < 0 and not barrier and not hidden:
            notes.append(f"nwod.cover.both: both in cover, penalties add "
                         f"({target_rating} + {firing_from(own_rating)})")
        # target posture (nwod.prone)
        pstep = _LADDERS["posture"].step_for(POSTURE_HEIGHT[shot.target.posture])
        if pstep.native:
            mods.append(Modifier(rule="nwod.prone", kind="dice", value=pstep.native, source="assumed",
                                 why=f"target {shot.target.posture}: ranged attacks -2 (WoD p. 166)"))
        # motion: no nWoD modifier (nwod.motion)
        if float(shot.target.speed) > 0 or float(shot.shooter.speed) > 0:
            notes.append("nwod.motion: nWoD gives no modifier for a moving target or shooter")
        # aiming, autofire
        astep = _LADDERS["aim"].step_for(float(shot.shooter.aim_time))
        if astep.native:
            mods.append(Modifier(rule="nwod.aim", kind="dice", value=astep.native, source="assumed",
                                 why=f"{astep.native} turn(s) aiming (WoD p. 163)"))
        auto = entry.get("autofire", False) or any(m in ("auto", "burst") for m in shot.weapon.fire_modes)
        if shot.burst > 1:
            bstep = _LADDERS["autofire"].step_for(shot.burst)
            if auto and bstep.native:
                mods.append(Modifier(rule="nwod.autofire", kind="dice", value=bstep.native, source="assumed",
                                     why=f"{bstep.label} ({shot.burst} rounds; WoD p. 160)"))
            elif not auto:
                notes.append("nwod.autofire: weapon cannot autofire; burst read as one shot")
        # strength requirement (+1 one-handed for two-handed guns), off hand
        st = self._attr_from_percentile("Strength", ch.get("strength"))
        need = int(entry.get("strength", 1)) + (1 if entry.get("two_handed") and shot.shooter.hands == 1 else 0)
        if st < need:
            mods.append(Modifier(rule="nwod.weapon.strength", kind="dice", value=-1, source="assumed",
                                 why=f"Strength {st} below the weapon's {need} (WoD p. 170)"))
        if shot.shooter.off_hand:
            mods.append(Modifier(rule="nwod.offhand", kind="dice", value=-2, source="assumed",
                                 why="off hand (WoD p. 112, Ambidextrous)"))
        if chart == "Thrown":
            d = self.settings.target_defense
            if d:
                mods.append(Modifier(rule="nwod.defense", kind="dice", value=-d, source="assumed",
                                     why=f"target's Defense {d} applies to thrown attacks (WoD p. 155)"))
        if shot.called_location and shot.called_location in SPECIFIED:
            v = SPECIFIED[shot.called_location]
            mods.append(Modifier(rule="nwod.specified-target", kind="dice", value=v, source="assumed",
                                 why=f"specified target: {shot.called_location} (WoD p. 165)"))
        # armor: the best ballistic rating covering the hit location (nwod.armor)
        armor, armor_name = armor_on(shot)
        if armor and barrier is None:
            mods.append(Modifier(rule="nwod.armor", kind="dice", value=-armor, source="assumed",
                                 why=f"target's ballistic armor {armor} ({armor_name}; WoD p. 166)"))
        # house rules from other plugins
        pool = base + sum(int(m.value) for m in mods)
        forced_chance = blind or hidden
        for m in extra:
            mods.append(m)
            if m.kind in ("add", "dice"):
                pool += int(m.value)
            elif m.kind == "difficulty":
                pool -= int(m.value)  # no difficulty in nWoD: +1 difficulty read as -1 die
                notes.append(f"{m.rule}: difficulty {m.value:+} read as {-int(m.value):+} dice")
            elif m.kind == "multiply":
                pool = math.floor(pool * float(m.value))
            elif m.kind == "set":
                if str(m.value).startswith("chance"):
                    forced_chance = True
                else:
                    pool = int(m.value)
        if blind:
            mods.append(Modifier(rule="nwod.darkness", kind="set", value="chance die", source="assumed",
                                 why="cannot see the target at all: a chance roll (WoD p. 166-167)"))
        if hidden:
            mods.append(Modifier(rule="nwod.hidden", kind="set", value="chance die", source="assumed",
                                 why="target wholly hidden and no barrier: attack blind, chance roll (WoD p. 166)"))
        if forced_chance:
            pool = 0
        # outcomes
        stat = "Dexterity + " + skill
        if barrier is not None:
            return self._barrier_check(shot, barrier, pool, armor, armor_name, again, stat, base, mods, notes,
                                       native_barrier, armor_piercing, dex=dex, level=level)
        hit, exceptional, dmg_mean, dmg_shown = self._outcomes("pool", _PoolOutcomes, _pool_outcomes, pool, again)
        outcomes = {"exceptional_success": exceptional}
        if pool <= 0:
            outcomes["dramatic_failure"] = Fraction(1, 10)
        return Check(
            system=self.key, stat=stat, base=base, modifiers=mods,
            target=pool if pool > 0 else "chance die",
            needs=self._needs(pool, again), chance=hit, native=self._native(stat, dex=base - level, level=level,
                                                                            mods=mods, pool=pool),
            damage_mean=float(dmg_mean), damage=dict(dmg_shown),
            outcomes=outcomes, notes=notes + ["successes are Health points of damage (lethal from firearms)"],
        )

    def _barrier_check(self, shot: Shot, barrier: Barrier, pool: int, armor: int, armor_name: str, again: int,
                       stat: str, base: int, mods: list[Modifier], notes: list[str],
                       native_barrier: NwodBarrier | None = None, armor_piercing: int = 0,
                       dex: int | None = None, level: int | None = None) -> Check:
        stops = barrier_stops(barrier)
        window = barrier.material == "window-glass"
        taken = 0
        if native_barrier is not None:
            # the native barrier as the scenario states it: its own Durability, Size and the
            # Structure earlier shots took (nwod.barrier.penetration)
            dur, size, taken = native_barrier.Durability, native_barrier.Size, native_barrier.damage_taken
            rule, src = ("nwod.window", "seed") if native_barrier.window else ("nwod.barrier", "seed")
        elif window:
            dur, size = int(WINDOW["Durability"]), int(WINDOW["Size"])
            rule, src = "nwod.window", "seed"
        else:
            dur = int(_LADDERS["barrier_durability"].step_for(stops).native)
            size = int(_LADDERS["barrier_size"].step_for(stops).native)
            rule, src = "nwod.barrier.durability", "assumed"
        structure = dur + size  # object rules: Structure = Durability + Size
        left = structure - taken
        eff_armor = armor
        if armor_piercing and armor:
            eff_armor = max(0, armor - armor_piercing)
            mods = mods + [Modifier(rule="nwod.armor-piercing", kind="difficulty",
                                    value=f"armor {armor} -> {eff_armor}", source="assumed",
                                    why=f"armor piercing {armor_piercing}: the target's armor {armor} takes "
                                        f"{armor - eff_armor} fewer dice off the roll behind the barrier (WoD p. 168)")]
        mods = mods + [Modifier(rule="nwod.barrier.penetration", kind="difficulty", value=f"S > {dur}",
                                source="seed",
                                why=f"target behind {barrier.name or barrier.material} ({stops:g} J stopped: "
                                    f"Durability {dur} [{rule}, {src}], Structure {structure}"
                                    + (f", {taken} already lost, {left} left" if taken else "")
                                    + f"): successes beyond Durability roll again as damage, minus armor {eff_armor}")]
        chance, penetrates, destroyed, dmg_mean, dmg_shown = self._outcomes(
            "barrier-left", _BarrierOutcomes, _barrier_outcomes, pool, again, dur, left, eff_armor)
        outcomes = {"penetrates": penetrates, "barrier_destroyed": destroyed}
        if pool <= 0:
            outcomes["dramatic_failure"] = Fraction(1, 10)
        notes = notes + [
            f"nwod.barrier: every shot hits the barrier first; S > {dur} passes, S - {dur} Structure damage "
            f"(Structure {structure}" + (f", {left} left after earlier shots" if taken else "")
            + f"; destroyed at S >= {dur + left}), pool S - {dur} - armor {eff_armor} against the target "
            "(chance die at 0 or less)",
            "damage is the second roll's successes",
        ]
        armor = eff_armor
        return Check(
            system=self.key, stat=stat, base=base, modifiers=mods, target=pool if pool > 0 else "chance die",
            needs=self._needs(pool, again) + f"; then successes > Durability {dur}, and 1+ success on "
                                             f"(successes - {dur} - {armor}) dice",
            chance=chance, native=self._native(stat, dex=dex, level=level, mods=mods, pool=pool)
            + f", through Durability {dur}",
            damage_mean=float(dmg_mean), damage=dict(dmg_shown),
            outcomes=outcomes, notes=notes,
        )

    def _outcomes(self, name: str, kind: Any, compute: Any, *key: int) -> Any:
        """compute(*key) once per system (and, through the cache, once across processes);
        `name` names the table, `kind` is the type of its values."""
        found = self._rolls.get((name, *key))
        if found is None:
            found = self._rolls[(name, *key)] = cache.remembered(self, f"{name} {key}", kind, lambda: compute(*key))
        return found

    @staticmethod
    def _needs(pool: int, again: int) -> str:
        if pool <= 0:
            return "chance die: success only on 10, dramatic failure on 1"
        return f"pool {pool}, 1+ success at 8 ({again}-again)"

    @staticmethod
    def _native(stat: str, dex: int | None, level: int | None, mods: list[Modifier], pool: int) -> str:
        parts = [f"{m.value:+d} {m.rule.removeprefix('nwod.')}" for m in mods
                 if m.kind == "dice" and isinstance(m.value, int)]
        tail = f"{pool} dice" if pool > 0 else "chance die"
        head = f"{stat} ({dex} + {level})" if dex is not None else stat
        return ", ".join([head] + parts) + f" = {tail}"

    # ------------------------------------------------------------------ NPCs
    def derived(self, npc: NwodNpc) -> dict[str, int]:
        """nwod.derived (WoD p. 90-91): Health = Stamina + Size, Willpower = Resolve +
        Composure, Defense = lower of Dexterity and Wits, Speed = Strength + Dexterity +
        5 (+ Fleet of Foot), Initiative = Dexterity + Composure (+ Fast Reflexes)."""
        m = npc.merits
        return {
            "Health": npc.Stamina + npc.Size,
            "Willpower": npc.Resolve + npc.Composure,
            "Defense": min(npc.Dexterity, npc.Wits),
            "Speed": npc.Strength + npc.Dexterity + 5 + m.get("Fleet of Foot", 0),
            "Initiative": npc.Dexterity + npc.Composure + m.get("Fast Reflexes", 0),
        }

    def derived_values(self, npc: NwodNpc) -> dict[str, int]:
        return self.derived(npc)

    def sheet_notes(self, npc: Any) -> dict[str, dict[str, str]]:
        """What each armor row covers, where a row is not torso-only (a helmet beside a vest)."""
        from xsys.core import armorline

        # nWoD rolls no hit location: an ordinary attack meets the body's armor, one aimed at a part
        # (WoD p. 165, specified targets) that part's; ratings do not add up
        return armorline.line_notes(npc, tail="an ordinary attack meets the body's armor, one aimed at the head "
                                              "the helmet's (the rows do not add up)")

    def sheet_derived(self, npc: NwodNpc) -> dict[str, tuple[Any, str]]:
        """Health, Willpower, Defense, Speed and Initiative by nwod.derived where the block
        leaves them out: an nWoD sheet always shows them."""
        return {k: (v, "nwod.derived") for k, v in self.derived(npc).items() if getattr(npc, k) is None}

    def _skill_context(self, npc: NwodNpc | Mapping[str, int]) -> dict[str, int]:
        if isinstance(npc, NwodNpc):
            return {a: getattr(npc, a) for a in self.ATTRIBUTES}
        return dict(npc)

    def weapon_to_neutral(self, w: NwodWeapon, col: Collector, path: str) -> Weapon | MeleeWeapon:
        if w.ranges is None:  # close combat: its class crosses, its line is carried (xsys.core.sheet)
            cls = melee_class_of(w.name, w.type)
            col.loss("kept-verbatim", path, f"close-combat weapon {w.name!r} crosses as a "
                     f"{cls}; its nWoD line is kept (carried.nwod.melee.{w.name})", "nwod.melee")
            if col.tracing:
                col.step(path, f"{w.name} (damage {w.damage}, Size {w.size})", f"melee {cls}",
                         rules=["nwod.melee"], source="assumed")
            return MeleeWeapon(name=w.name, melee_class=cls, skill="brawl" if cls == "unarmed" else "melee")
        try:
            from xsys.core.catalog import strip_entry

            # its catalog weapon: by id, else what its name says, when its chart line is of that kind
            entry = _catalog().weapons.get(w.catalog) if w.catalog else _catalog().identify_weapon(w.name)[0]
            if entry is not None and not w.catalog and w.type in CHART and \
                    CHART[w.type]["class"] not in (entry.weapon_class, KIND_OF.get(entry.weapon_class)):
                entry = None
            if entry is not None:
                if col.tracing:
                    col.step(path, w.name, f"catalog {entry.id}", rules=["nwod.weapon.damage"], source="assumed")
                # the line's own clip is this gun's magazine (nwod.weapon.clip): a stated one wins
                out = msgspec.structs.replace(strip_entry(entry), name=w.name, capacity=w.clip or entry.capacity)
                if w.clip and w.clip != entry.capacity:
                    col.loss("assumed", f"{path}.clip", f"{w.name}: the line states Clip {w.clip}; catalog "
                             f"weapon {entry.id} holds {entry.capacity}: the stated {w.clip} is kept", "nwod.weapon.clip")
                self._chamber_loss(w, out, col, path)
                return out
        except XsysError:
            pass
        cls = weapon_class_of(w, col, path)
        energy = _LADDERS["weapon_damage"].neutral(min(w.damage, 6))
        modes = ["semi", "auto"] if w.autofire else ["semi"]
        if col.tracing:
            col.step(path, f"{w.name} (damage {w.damage})", f"{cls}, {energy:g} J", rules=["nwod.weapon.damage"],
                     source="assumed")
        # the weapon keeps its own name: "Ingram MAC-10", not its chart line
        # the clip is the neutral capacity (the rounds in the magazine, nwod.weapon.clip); the
        # chamber's "+1" has no neutral field and follows the weapon's kind on the way back
        out = Weapon(name=w.name, weapon_class=cls, muzzle_energy=Energy(energy), fire_modes=modes, capacity=w.clip,
                     sights="none" if cls == "thrown" else "iron")
        self._chamber_loss(w, out, col, path)
        say_grenade(col, path, out)
        return out

    @staticmethod
    def _chamber_loss(w: NwodWeapon, out: Weapon, col: Collector, path: str) -> None:
        """The chamber's "+1" has no neutral field: coming back it follows the gun's kind
        (nwod.weapon.clip); a line that says otherwise is reported."""
        if w.chamber != chambers(out, CHART.get(chart_type_for(out), {}))[0]:
            col.loss("rounded", f"{path}.chamber", f"{w.name!r} {'has' if w.chamber else 'has no'} a round in the "
                     f"chamber (+1); the neutral model has no place for it, and a gun of its kind reads back "
                     f"{'without' if w.chamber else 'with'} one", "nwod.weapon.clip")

    def weapon_from_neutral(self, w: Weapon, col: Collector, path: str,
                            kept: Mapping[str, Any] | None = None) -> NwodWeapon:
        t, entry, dmg, rule, src = self.weapon_stats(w)
        if col.tracing:
            col.step(path, w.name, f"{w.weapon_class}, {w.muzzle_energy}", f"{t}, damage {dmg}", rules=[rule],
                     source=src, note=f"damage by {_catalog().weapon_basis(w).said}")
        yd = [Length(float(x) * YARD) for x in entry["ranges"]]
        # nwod.weapon.clip (assumed, README): clip and chamber are the gun's own, not its chart
        # line's: the clip is the neutral capacity (the catalog's or the source's: rounds in the
        # magazine, cylinder, tube or barrels), "+1" only for a closed-bolt magazine-fed gun
        basis_entry = _catalog_entry(w)  # a capacity the source states, else its catalog weapon's, else the line's
        clip = int(w.capacity) if w.capacity else int(basis_entry.capacity) if basis_entry is not None and \
            basis_entry.capacity else int(entry["clip"])
        chamber, why = chambers(w, entry)
        if t.startswith("Revolver") and basis_entry is None and not says_revolver(w.name) \
                and w.weapon_class in ("handgun", "revolver") and w.name not in CHART:
            col.loss("assumed", path, f"{w.name!r} is a handgun of no catalog; its name or calibre makes it a revolver, "
                     f"written as the {t!r} line with {clip} in the cylinder and none chambered", "nwod.weapon.clip")
        if col.tracing:
            col.step(path, f"capacity {w.capacity}" if w.capacity else "no capacity",
                     f"clip {clip}" + ("+1" if chamber else ""), rules=["nwod.weapon.clip"], source="assumed",
                     note=("the chart line's clip; " if not w.capacity else "") + ("+1: " if chamber else "no +1: ")
                     + why)
        return NwodWeapon(name=w.name, type=t, catalog=w.catalog, damage=dmg, ranges=(yd[0], yd[1], yd[2]),
                          clip=clip, chamber=chamber,
                          strength=int(entry["strength"]), size=int(entry["size"]),
                          autofire=bool(entry.get("autofire", False)), two_handed=bool(entry.get("two_handed", False)),
                          again=int(entry.get("again", 10)))

    def derived_to_neutral(self, npc: NwodNpc, derived: Mapping[str, Any], col: Collector) -> dict[str, float]:
        return self._dodge_to_neutral(npc, derived, col)

    def native_block(self, npc: NwodNpc) -> dict[str, Any]:
        """The whole stat block: restored verbatim while the neutral values read back to it."""
        return msgspec.to_builtins(npc, enc_hook=enc_hook)

    def armor_to_neutral(self, a: NwodArmor, col: Collector | None, path: str) -> Armor:
        """An Armor Chart line as what it physically is: its catalog item (by ``catalog`` id, else by
        the item's name, as "Full riot gear"), else the joules of its rating (nwod.armor); with the
        coverage and deflection the line states (xsys.core.armorline)."""
        from xsys.core.catalog import strip_entry

        entry = _catalog().find_armor(a.name, a.catalog, path=f"{path}.catalog")
        if entry is not None:
            out = msgspec.structs.replace(strip_entry(entry), name=a.name, catalog=a.catalog)
        else:
            stops = _LADDERS["armor_ballistic"].neutral(a.ballistic) if a.ballistic else \
                _LADDERS["armor_general"].neutral(a.general)
            out = Armor(name=a.name, kind="garment" if not a.ballistic else "soft-vest", stops=Energy(stops))
            if col is not None and col.tracing:
                col.step(path, f"{a.name} {a.general}/{a.ballistic}", f"stops {stops:g} J",
                         rules=["nwod.armor"], source="assumed")
        return armorline.restore(out, a.covers, a.deflection, col, path, "nwod.armor")

    def armor_from_neutral(self, a: Armor, col: Collector, path: str) -> NwodArmor:
        """general/ballistic by the joules stopped (nwod.armor), with the coverage and deflection the
        chart cannot state where its catalog item would not give them back (xsys.core.armorline)."""
        g = int(_LADDERS["armor_general"].step_for(float(a.stops)).native)
        b = int(_LADDERS["armor_ballistic"].step_for(float(a.stops)).native)
        line = NwodArmor(name=a.name, general=g, ballistic=b, catalog=a.catalog)
        if col.tracing:
            col.step(path, a.name, f"stops {a.stops}", f"{g}/{b}", rules=["nwod.armor"], source="assumed")
        more = armorline.extras(a, self.armor_to_neutral(line, None, path))
        if "deflection" in more:
            col.loss("kept-verbatim", f"{path}.deflection", armorline.deflection_note(a, "nWoD"), "nwod.armor")
        return msgspec.structs.replace(line, **more)

    def npc_restored(self, combatant: Combatant, col: Collector) -> NwodNpc | None:
        """The kept stat block, trusted only while the neutral values still read back to it."""
        kept = combatant.native.get(self.key)
        if kept:
            try:
                npc = msgspec.convert(kept, NwodNpc, dec_hook=dec_hook)
                if self._consistent(npc, combatant):
                    col.step("$", "native.nwod", None, "stat block restored verbatim", rules=["nwod.derived"],
                             source="assumed")
                    return self._lines_completed(npc, combatant, col)
            except (msgspec.ValidationError, TypeError):
                pass
        return None

    def carried_missing(self, field: str, kept: Mapping[str, Any], combatant: Combatant, col: Collector) -> Any:
        """Resolve from another system: read from will, as Composure is (nwod.attributes)."""
        if field != "Resolve":
            return None
        resolve_p = combatant.characteristics.get("will", 0.5)
        col.loss("assumed", "$.Resolve", "no neutral characteristic for Resolve; read from will like Composure",
                 "nwod.attributes")
        return int(self.characteristics()["Composure"].ladder.step_for(resolve_p).native)

    def melee_from_neutral(self, combatant: Combatant, lines: Mapping[str, Any], col: Collector) -> list[NwodWeapon]:
        return self._melee_from_neutral(combatant, lines, col)

    def extra_from_neutral(self, npc: NwodNpc, combatant: Combatant, col: Collector) -> NwodNpc:
        """The derived traits by nwod.derived; Defense checked against the neutral dodge; Health
        scaled by the neutral toughness."""
        derived = self.derived(npc)
        dodge = combatant.skills.get("dodge")
        if dodge is not None:
            self._dodge_from_neutral(float(dodge), npc, derived["Defense"], col)
        npc = self._thrown_ranges(npc, col)
        rule_health = derived["Health"]
        derived["Health"] = self.health_of(rule_health, combatant.toughness, col)
        if derived["Health"] != rule_health:
            # nwod.derived: Health = Stamina + Size, and no 2004 merit adds Health alone (Giant
            # adds a dot of Size): the source's own toughness is written, said beside the rule
            col.loss("assumed", "$.toughness", f"Health {derived['Health']} beside Stamina + Size = {rule_health}: the "
                     f"source's NPC is {'tougher' if derived['Health'] > rule_health else 'frailer'} than its build "
                     f"(toughness {combatant.toughness:.2f}); no nWoD trait says so, so the sheet states it as Health "
                     f"{derived['Health']}", "nwod.derived")
        return msgspec.structs.replace(npc, **derived)

    def _thrown_ranges(self, npc: NwodNpc, col: Collector) -> NwodNpc:
        """A thrown line's ranges are its thrower's (WoD p. 162): short range = Strength +
        Dexterity + Athletics - the object's Size yards, medium and long twice and four times it,
        as the check reckons them (``check_at``); the chart's 4/8/16 is the average adult's."""
        lines, changed = [], False
        for i, line in enumerate(npc.weapons):
            if line.type == "Thrown" and line.ranges is not None:
                short = thrown_short_range(npc.Strength, npc.Dexterity, npc.skills.get("Athletics", 0), line.size or 1)
                ranges = tuple(Length(n * short * YARD) for n in (1, 2, 4))
                if [round(float(r) / YARD) for r in line.ranges] != [short, 2 * short, 4 * short]:
                    line = msgspec.structs.replace(line, ranges=ranges)
                    changed = True
                    if col.tracing:
                        col.step(f"$.weapons[{i}].ranges", None, None, f"{short}/{2 * short}/{4 * short} yd",
                                 rules=["nwod.range"], source="seed",
                                 note="Strength + Dexterity + Athletics - Size (WoD p. 162)")
            lines.append(line)
        return msgspec.structs.replace(npc, weapons=lines) if changed else npc

    def _lines_completed(self, npc: NwodNpc, combatant: Combatant, col: Collector) -> NwodNpc:
        """A restored stat block's firearm lines with what they do not state written as a line of
        the weapon writes it (nwod.weapon.clip): a line with no type or no clip (a text block's
        'Glock 17 (Damage 2, Ranges 20/40/80)') takes the chart line, clip and chamber of the
        neutral weapon it was read as (its catalog weapon's), so the sheet does not say Clip 0."""
        by_name = {w.name: w for w in combatant.weapons}
        lines = []
        for i, line in enumerate(npc.weapons):
            w = by_name.get(line.name)
            if w is None or line.ranges is None or (line.type and line.clip):
                lines.append(line)
                continue
            written = self.weapon_from_neutral(w, Collector(self.key), f"$.weapons[{i}]")
            fields: dict[str, Any] = {}
            if not line.type:
                fields["type"] = written.type
            if not line.clip:
                fields.update(clip=written.clip, chamber=written.chamber)
            missing = [k for k in ("type", "clip") if k in fields]
            col.loss("assumed", f"$.weapons[{i}]", f"{line.name}: the line states no {' or '.join(missing)}; written "
                     f"as its weapon's: " + ", ".join(f"{k} {v}" for k, v in fields.items()), "nwod.weapon.clip")
            lines.append(msgspec.structs.replace(line, **fields))
        return msgspec.structs.replace(npc, weapons=lines)

    def _melee_from_neutral(self, combatant: Combatant, lines: Any, col: Collector) -> list[NwodWeapon]:
        """Close-combat weapons: the line of each weapon's class (nwod.melee, assumed),
        or the carried nWoD line of that weapon (core.carried.melee_lines)."""
        def of_class(m: Any) -> NwodWeapon:
            t, dmg, size = MELEE_LINES[m.melee_class]
            return NwodWeapon(name=m.name, type=t, damage=dmg, size=size)

        return carried.melee_lines(combatant, lines, NwodWeapon, "nwod", "nwod.melee", col, of_class,
                                   lambda w: f"{w.type}, damage {w.damage}, Size {w.size}", dec_hook=dec_hook)

    def _attacks(self) -> str:
        return f"{self.DEFENSE_ATTACKS[0]}- to {self.DEFENSE_ATTACKS[-1]}-die"

    def _dodge_to_neutral(self, npc: NwodNpc, der: Mapping[str, int], col: Collector) -> dict[str, float]:
        """The stat block's Defense (stated, else derived) as the neutral dodge (nwod.defense)."""
        defense = npc.Defense if npc.Defense is not None else der["Defense"]
        value = self.competence("Defense", defense)
        if col.tracing:
            col.step("$.Defense", f"Defense {defense}", f"dodge competence {value:.3f}", rules=["nwod.defense"],
                     source="assumed", note=f"the share of the hits of {self._attacks()} attacks it takes away")
        back = self.level_for("Defense", value)
        if back != defense:
            col.loss("rounded", "$.Defense", f"Defense {defense} takes every die of the largest attack of "
                     f"{self._attacks()}, as Defense {back} does; it reads as Defense {back} elsewhere", "nwod.defense")
        return {"dodge": value}

    def _dodge_from_neutral(self, dodge: float, npc: NwodNpc, defense: int, col: Collector) -> None:
        """A neutral dodge written to an nWoD sheet. Defense is derived, the lower of Dexterity and
        Wits (nwod.derived, WoD p. 90): the sheet shows that and nothing else, so a dodge that reads
        as another Defense (nwod.defense) is reported, not written (README, "Defense is derived")."""
        would = int(self.level_for("Defense", dodge))
        if col.tracing:
            col.step("$.Defense", None, f"Dexterity {npc.Dexterity}, Wits {npc.Wits}", f"Defense {defense}",
                     rules=["nwod.derived"], source="assumed", note="the lower of Dexterity and Wits")
        if would != defense:
            share = float(self.competence("Defense", defense))
            col.loss("derived", "$.skills.dodge",
                     f"dodge {dodge:.0%} would be Defense {would} (nwod.defense: the share of the hits of "
                     f"{self._attacks()} attacks it takes away), but Defense is the lower of Dexterity "
                     f"{npc.Dexterity} and Wits {npc.Wits}: the sheet shows Defense {defense} ({share:.0%}); "
                     "the dodge is not written", "nwod.derived")

    def _consistent(self, npc: NwodNpc, comb: Combatant) -> bool:
        col = Collector(self.key)
        values = {a: getattr(npc, a) for a in self.ATTRIBUTES if a in self.NEUTRAL_ATTR}
        values["Size"] = npc.Size
        chars = self.characteristics_to_neutral(values, col)
        if any(abs(chars[k] - comb.characteristics.get(k, -1)) > 1e-9 for k in chars):
            return False
        skills = self.skills_to_neutral({k: v for k, v in npc.skills.items() if k in self.SKILLS}, col, "$",
                                        self._skill_context(npc))
        skills.update(self._dodge_to_neutral(npc, self.derived(npc), col))
        return all(abs(v - comb.skills.get(k, -1)) <= 1e-9 for k, v in skills.items()) and \
            set(skills) == set(comb.skills)

    # ------------------------------------------------------------------ shots
    def _weapon_for_native(self, name: str | NwodWeapon, col: Collector | None = None) -> Weapon:
        if isinstance(name, NwodWeapon):
            w = self.weapon_to_neutral(name, col if col is not None else Collector(self.key), "$.weapon")
            if not isinstance(w, Weapon):
                raise XsysError("not a ranged weapon", path="$.weapon.ranges",
                                expected="short/medium/long ranges of a firearm or thrown weapon", found="none")
            return w
        name = next((line for line in CHART if line.lower() == name.strip().lower()), name)  # 'rifle' is the Rifle line
        if name in CHART:
            e = CHART[name]
            energy = _LADDERS["weapon_damage"].neutral(int(e["damage"]))
            modes = ["semi", "auto"] if e.get("autofire") else ["semi"]
            return Weapon(name=name, weapon_class=e["class"], muzzle_energy=Energy(energy), fire_modes=modes)
        found = _find_catalog_weapon(name)
        word_class = None
        if found is None:
            found, word_class = _catalog().identify_weapon(name)  # one answer for every system
        if found is None and word_class is not None:
            if col is not None:
                col.loss("assumed", "$.weapon", f"{name!r} is no chart line or catalog weapon; its name says a "
                         f"{word_class}: the generic {word_class}'s muzzle energy", "nwod.weapon.damage")
            return msgspec.structs.replace(generic_weapon(word_class), name=name)
        if found is None:
            raise XsysError("unknown weapon", path="$.weapon",
                            expected="a Ranged Weapons Chart line (" + ", ".join(CHART) + "), a catalog weapon or a "
                                     "weapon class (pistol, revolver, smg, carbine, rifle, shotgun, machine gun)",
                            found=repr(name))
        from xsys.core.catalog import strip_entry

        return strip_entry(found)

    def _weapon_native_name(self, w: Weapon, col: Collector | None = None) -> str | NwodWeapon:
        """What an nWoD shot names: a chart line, a catalog weapon (by id, or by its own name
        when that is the catalog's), else a weapon line of its own that keeps its name, its
        chart type and its catalog id."""
        if w.name in CHART and not w.calibre:
            return w.name
        entry = _catalog().weapons.get(w.catalog) if w.catalog else None
        if entry is not None and w.name in (entry.name, entry.id):
            return w.catalog  # type: ignore[return-value]
        if entry is None and w.catalog is None:
            found = _find_catalog_weapon(w.name)
            if found is not None and found.weapon_class == w.weapon_class:
                return w.name
        return self.weapon_from_neutral(w, col if col is not None else Collector(self.key), "$.weapon")

    def shot_to_neutral(self, ns: NwodShot) -> Result[Shot]:
        col = Collector(self.key)
        weapon = self._weapon_for_native(ns.weapon, col)
        if isinstance(ns.weapon, str):  # a weapon line says it in its own reading
            say_grenade(col, "$.weapon", weapon)
        chart = chart_type_for(weapon)
        cls = weapon.weapon_class
        skill = "Athletics" if cls == "thrown" else "Firearms"
        dex_p = self.characteristics()["Dexterity"].ladder.neutral(ns.Dexterity)
        str_p = self.characteristics()["Strength"].ladder.neutral(ns.Strength)
        chance = self.competence(skill, ns.Firearms, {"Dexterity": ns.Dexterity, "@class": cls})
        col.step("$.Firearms", f"Dexterity {ns.Dexterity} + {skill} {ns.Firearms}", f"competence {chance:.3f}",
                 rules=["nwod.pool"], source="assumed", note="equated over the battery [core.equating]")
        if ns.specialty:
            col.loss("unsupported-field", "$.specialty", "a specialty (+1 die) has no neutral field", "nwod.specialty")
        distance = RANGE_LADDERS[chart].neutral(RANGE_PENALTY[ns.range]) if chart != "Thrown" else \
            range_ladder("Thrown", thrown_short_range(ns.Strength, ns.Dexterity, ns.Firearms)).neutral(RANGE_PENALTY[ns.range])
        lux = _LADDERS["darkness"].neutral(LIGHTING[ns.lighting])
        # target cover
        barrier = None
        if ns.barrier is not None and ns.barrier.destroyed:
            col.loss("dropped-item", "$.barrier", "the barrier has no Structure left and gives no cover "
                                                  "(nwod.barrier.penetration)", "nwod.barrier.penetration")
        elif ns.barrier is not None:
            b = ns.barrier
            key = "window" if b.window else str(b.Durability)
            rep = TABLES["barrier_material"].get(key)
            if rep is None:
                raise XsysError("barrier Durability beyond the table", path="$.barrier.Durability",
                                expected="1 to 5", found=str(b.Durability))
            from xsys.core.units import parse

            barrier = Barrier(material=rep["material"], thickness=parse(rep["thickness"], Length), name=b.name)
            if b.damage_taken:
                col.loss("unsupported-field", "$.barrier.damage_taken",
                         f"{b.damage_taken} Structure already lost has no neutral field (check_native keeps it)",
                         "nwod.barrier.penetration")
            exp_size = int(WINDOW["Size"]) if b.window else int(_LADDERS["barrier_size"].step_for(
                barrier_stops(barrier)).native)
            if b.Size != exp_size:
                col.loss("rounded", "$.barrier.Size", f"Size {b.Size} reads back as {exp_size}", "nwod.barrier.size")
        exposure = 0.0 if barrier is not None else _LADDERS["concealment"].neutral(CONCEALMENT[ns.concealment])
        if barrier is not None and ns.concealment != "none":
            col.loss("merged", "$.concealment", "a target behind a barrier is in full cover; concealment ignored",
                     "nwod.barrier")
        own_barrier = None
        if ns.leaning_out:
            own_exp = 0.0
            own_barrier = Barrier(material="soft-wood", thickness=Length(0.03), name="full cover")
        else:
            own_exp = _LADDERS["concealment"].neutral(CONCEALMENT[ns.shooter_cover])
        armor = []
        if ns.armor:  # the rating where the shot hits: armor that covers that location
            armor = [Armor(name=f"ballistic armor {ns.armor}", kind="soft-vest",
                           stops=Energy(_LADDERS["armor_ballistic"].neutral(ns.armor)),
                           covers=[ns.specified_target or "torso"])]
        if ns.armor_piercing:
            col.loss("unsupported-field", "$.armor_piercing", "armor piercing has no neutral field",
                     "nwod.armor-piercing")
        if ns.aimed_at_glass:
            col.loss("unsupported-field", "$.aimed_at_glass", "aiming at the glass (-1) has no neutral field",
                     "nwod.window")
        shot = Shot(
            name=ns.name,
            shooter=Shooter(name=ns.shooter, skill=chance, characteristics={"dexterity": dex_p, "strength": str_p},
                            aim_time=Duration(ns.aiming * TURN_S),
                            cover=Cover(exposure=own_exp, barrier=own_barrier)),
            weapon=weapon,
            target=Target(name=ns.target, posture="prone" if ns.prone else "standing",
                          cover=Cover(exposure=exposure, barrier=barrier), armor=armor),
            distance=Length(distance),
            light=Light(illuminance=Illuminance(lux)),
            burst=BURSTS[ns.autofire],
            called_location=ns.specified_target,
        )
        return col.result(shot)

    def shot_from_neutral(self, shot: Shot) -> Result[NwodShot]:
        col = Collector(self.key)
        cls = shot.weapon.weapon_class
        skill = "Athletics" if cls == "thrown" else "Firearms"
        dex = self._attr_from_percentile("Dexterity", shot.shooter.characteristics.get("dexterity"))
        level = int(self.level_for(skill, shot.shooter.skill, {"Dexterity": dex, "@class": cls}))
        st = self._attr_from_percentile("Strength", shot.shooter.characteristics.get("strength"))
        chart = chart_type_for(shot.weapon)
        if chart == "Thrown":
            rlad = range_ladder("Thrown", thrown_short_range(st, dex, level))
        else:
            rlad = RANGE_LADDERS[chart]
        rng = RANGE_NAME[int(rlad.step_for(float(shot.distance)).native)]
        # nwod.darkness: an nWoD shot states the light as the shooter sees it; a vision aid
        # (a flashlight within 50 m, night vision) is folded into it, as the check folds it
        dstep, dark, aid = lighting(shot)
        if aid and dark != int(dstep.native):
            col.loss("merged", "$.light.aids", f"{aid} on a {dstep.label.split(':')[0]} target "
                     f"({float(shot.light.illuminance):g} lx, {float(shot.distance):g} m): written as "
                     f"{LIGHTING_NAME[dark]} ({dark:+d}) instead of {LIGHTING_NAME[int(dstep.native)]}; "
                     "an nWoD shot has no field for the aid", "nwod.darkness")
        cov = shot.target.cover
        barrier = None
        concealment = "none"
        if cov.exposure <= SHOT_THROUGH and cov.barrier is not None:
            stops = barrier_stops(cov.barrier)
            if cov.barrier.material == "window-glass":
                barrier = NwodBarrier(name=cov.barrier.name, window=True, Durability=int(WINDOW["Durability"]),
                                      Size=int(WINDOW["Size"]))
            else:
                barrier = NwodBarrier(name=cov.barrier.name,
                                      Durability=int(_LADDERS["barrier_durability"].step_for(stops).native),
                                      Size=int(_LADDERS["barrier_size"].step_for(stops).native))
        elif cov.exposure > 0:
            concealment = CONCEALMENT_NAME[int(_LADDERS["concealment"].step_for(cov.exposure).native)]
        else:
            concealment = "substantial"
            col.loss("clamped", "$.target.cover", "target wholly hidden with no barrier: written as substantial "
                                                  "concealment (the check uses a chance roll)", "nwod.hidden")
        own = shot.shooter.cover
        leaning = own.exposure <= 0 or (own.barrier is not None and own.exposure < 0.35)
        shooter_cover = "none" if leaning else CONCEALMENT_NAME[int(_LADDERS["concealment"].step_for(own.exposure).native)]
        # the armor rating against this shot: what covers the hit location, as the check reads it
        armor = armor_on(shot)[0]
        burst = BURST_NAME[int(_LADDERS["autofire"].step_for(shot.burst).native)]
        for fld, val, rule in (("elevation", float(shot.elevation) or None, ""),
                               ("underwater", shot.underwater or None, "")):
            if val:
                col.loss("unsupported-field", f"$.{fld}", f"{fld} is not written in an nWoD shot", rule)
        ns = NwodShot(
            name=shot.name, shooter=shot.shooter.name, Dexterity=dex, Strength=st, Firearms=level,
            weapon=self._weapon_native_name(shot.weapon, col), range=rng, lighting=LIGHTING_NAME[dark],
            concealment=concealment, shooter_cover=shooter_cover, leaning_out=leaning, barrier=barrier,
            aiming=int(_LADDERS["aim"].step_for(float(shot.shooter.aim_time)).native), autofire=burst,
            prone=int(_LADDERS["posture"].step_for(POSTURE_HEIGHT[shot.target.posture]).native) < 0,
            armor=armor, specified_target=shot.called_location, target=shot.target.name,
        )
        return col.result(ns)

    def check_native(self, ns: NwodShot, extra: Sequence[Modifier] = ()) -> Check:
        """A native shot checked directly, at its own Dexterity and dots (keeps what the
        neutral shot cannot: a specialty, armor piercing, also behind a barrier, aiming at
        the glass, the barrier's own Size and the Structure earlier shots took)."""
        shot = self.shot_to_neutral(ns).value
        barrier = ns.barrier if ns.barrier is not None and not ns.barrier.destroyed else None
        own: list[Modifier] = []
        if ns.specialty:
            own.append(Modifier(rule="nwod.specialty", kind="dice", value=1, source="assumed",
                                why="Firearms specialty (WoD p. 56)"))
        if ns.aimed_at_glass and barrier is not None and barrier.window:
            own.append(Modifier(rule="nwod.window", kind="dice", value=int(WINDOW["aim_at_glass"]), source="seed",
                                why="attack aimed specifically at the glass"))
        if ns.armor_piercing and ns.armor and barrier is None:
            own.append(Modifier(rule="nwod.armor-piercing", kind="dice", value=min(ns.armor, ns.armor_piercing),
                                source="assumed", why=f"armor piercing {ns.armor_piercing} ignores that much "
                                                      "armor (WoD p. 168)"))
        skill = "Athletics" if shot.weapon.weapon_class == "thrown" else "Firearms"
        return self._pool_check(shot, ns.Dexterity, ns.Firearms, skill=skill, extra=[*own, *extra],
                                native_barrier=barrier, armor_piercing=ns.armor_piercing if barrier else 0,
                                native=True)


@lru_cache(maxsize=None)
def _formulas() -> tuple[Formula, ...]:
    """The formulas of this module's rules (formulas.py, given this module: no import circle)."""
    import sys

    from .formulas import build

    return tuple(build(sys.modules[__name__]))
