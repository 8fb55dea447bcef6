"""The rules of the new World of Darkness (2004 World of Darkness Rulebook) that xsys plays: dice pools
of d10s (8+ succeeds, 10-again, the chance die), the cover and barrier rules of the seed
(shared/rules/nwod-cover.md, nwod.*), range, light, autofire and thrown attacks, close combat and the
published tiers. :class:`NwodRules` is the game; sheet.py maps the character sheet and the shot to
the neutral model; model.py holds the documents; system.py is the declaration that binds them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from typing import Any, Literal, Mapping, Sequence

import msgspec

from xsys.core import cache, dice
from xsys.core.catalog import says_automatic, says_revolver
from xsys.core.dice import PoolRules
from xsys.core.equating import Tier
from xsys.core.errors import XsysError
from xsys.core.formulas import Formula
from xsys.core.ladder import Ladder, Step, ladders_from_data
from xsys.core.melee import MeleeItem, attack_check, reference_armor
from xsys.core.model import Barrier, Shot, Weapon
from xsys.core.system import System
from xsys.core.trace import Check, Collector, Modifier, fraction_text
from xsys.core.units import Length, brief
from xsys.core.vocab import CARTRIDGES, POSTURE_HEIGHT, REVOLVER_CARTRIDGES, cartridge_of, is_sawn_off

from .model import NwodBarrier, NwodNpc, NwodShot


YARD = 0.9144
RULES = PoolRules()  # 8+ succeeds, 10-again, chance die 10 / dramatic 1 (standard rules)
TAIL = Fraction(1, 10**15)  # first-roll mass left unexpanded in barrier_damage (see there)
EXCEPTIONAL = 5  # five or more successes: exceptional success (standard rules)


def _load_tables() -> tuple[dict[str, Any], dict[str, Ladder]]:
    data = cache.package_toml(__package__)
    return data, ladders_from_data(data, str(resources.files(__package__).joinpath("tables.toml")))


TABLES, _LADDERS = _load_tables()
CHART: dict[str, dict[str, Any]] = TABLES["weapon_chart"]
WINDOW = TABLES["window"]
SPECIFIED = {k: v for k, v in TABLES["specified_target"].items() if k != "rule"}

# nwod.melee (assumed): a close-combat weapon known only by its class, as the WoD Melee Weapons
# Chart (p. 167) writes the like of it: chart type, damage dice, Size (unarmed: Brawl, 0 dice)
MELEE_LINES = {"unarmed": ("Brawl", 0, 0), "knife": ("Knife", 1, 1), "club": ("Club", 2, 2),
               "sword": ("Sword", 3, 2), "axe": ("Hatchet", 2, 1), "spear": ("Spear", 3, 4),
               "improvised": ("Improvised", 1, 2),
               # a creature's bite or claws (MeleeWeapon.natural; assumed: a Brawl attack with one
               # bonus die, as the werewolf's claws of the later lines)
               "natural": ("Brawl", 1, 0)}


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
    if cls in ("handgun", "revolver"):
        # the chart's light and heavy lines are its calibres' (a .38 and a .44 Magnum revolver, a
        # 9 mm and a .45 pistol): a gun firing a known cartridge is heavy where that cartridge's
        # Damage is the heavy lines' 3, so every .45 Colt revolver is one line whatever its barrel
        rating = cartridge_rating(_catalog().weapon_basis(weapon).cartridge)
        heavy = rating >= 3 if rating is not None else e >= 600
        return ("Pistol, " if cls == "handgun" else "Revolver, ") + ("Hvy." if heavy else "Lt.")
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
    if says_automatic(weapon.name):  # "Automatic pistol (.38 Special)": an automatic, whatever it fires
        return False
    key = cartridge_of(weapon.calibre) or cartridge_of(weapon.name)
    return key in REVOLVER_CARTRIDGES


def cartridge_rating(cartridge: str | None) -> int | None:
    """nwod.weapon.damage (assumed): the Damage of a cartridge (a core.vocab.CARTRIDGES key), one
    for every gun firing it: tables.toml [cartridge], else the ladder at its reference muzzle
    energy; None for no cartridge."""
    if cartridge is None:
        return None
    if cartridge in TABLES.get("cartridge", {}):
        return int(TABLES["cartridge"][cartridge])
    return int(_LADDERS["weapon_damage"].step_for(CARTRIDGES[cartridge][0]).native)


def _catalog():
    from xsys.core.registry import catalog

    return catalog()


def barrier_stops(barrier: Barrier) -> float:
    """Joules the barrier stops (the catalog's one protection axis)."""
    return _catalog().barrier_stops(barrier)


# ======================================================================= the system

# nWoD skill dots (World of Darkness Rulebook): none untrained, 1 novice, 2 practitioner,
# 3 professional, 4 expert, 5 master (Dexterity alongside: tiers are read at Dexterity 2).
NWOD_TIERS = ((0, "untrained", 0, 0), (1, "novice/practitioner", 1, 2), (2, "professional", 3, 3),
              (3, "expert", 4, 4), (4, "master", 5, 5))


@lru_cache(maxsize=None)
def _formulas() -> tuple[Formula, ...]:
    """The formulas of this module's rules (formulas.py, given this module: no import circle)."""
    import sys

    from .formulas import build

    return tuple(build(sys.modules[__name__]))


class NwodRules(System):
    """The game of :class:`NwodSystem` (its checks and its rules), which sheet.py's conversions and
    system.py's declaration build on."""

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
                                 why=f"{rstep.label} range at {brief(shot.distance)} ({chart})"))
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
