"""Formulas of the Chinese CoC combat rules (the Chinese CoC combat text) that the neutral
shot model cannot carry: armor, impales, stuck weapons, parries, dodge, surprise,
darkness for any skill, knockouts, partial concealment, thrown objects, two weapons.
Every function cites its rule ID; numbers come from tables.toml (coc-zh's own part).

The dice arithmetic is coc's public ``rules`` module (same game, same damage rolls).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from xsys.core import dice
from xsys.core.cache import package_toml
from xsys.core.ladder import Ladder, ladders_from_data
from xsys.plugins.coc import rules as coc_rules

ZERO = Fraction(0)


def tables() -> dict[str, Any]:
    """coc-zh's tables.toml (only what differs from coc), parsed once."""
    return package_toml(__package__)


@lru_cache(maxsize=None)
def table_ladders() -> dict[str, Ladder]:
    """The ladders of coc-zh's tables.toml, built (and so checked) once."""
    return ladders_from_data(tables(), "xsys.plugins.coc_zh/tables.toml")


def frac(x: Any) -> Fraction:
    return coc_rules.frac(x)


# ---- coc-zh.resistance ------------------------------------------------------------------

def resistance(active: int, passive: int) -> Fraction:
    """coc-zh.resistance (assumed, standard BRP; the text uses but does not print it):
    50 + 5 x (active - passive) %, clamped 0..100."""
    return dice.resistance(active, passive, lo=0, hi=100)


# ---- armor --------------------------------------------------------------------------------

def damage_after_armor(damage: int, armor: int) -> int:
    """coc-zh.armor.reduction: damage taken = damage roll - armor (never below 0: the
    text gives no floor, one is evidently meant; assumed)."""
    return max(0, damage - armor)


def armor_after_impale(armor: int) -> int:
    """coc-zh.armor.impale: an impale does not make the target lose any armor."""
    return armor


# ---- impales ------------------------------------------------------------------------------

def can_impale(attack: str) -> bool:
    """coc-zh.impale: sharp or pointed melee weapons and every firearm impale; blunt
    weapons and bodily attacks never. ``attack``: firearm | impaling melee | blunt melee |
    bodily."""
    t = tables()["impale"]
    if attack in t["can"]:
        return True
    if attack in t["cannot"]:
        return False
    raise ValueError(f"coc-zh.impale: unknown attack {attack!r}; one of " + ", ".join(t["can"] + t["cannot"]))


def impale_threshold(chance: int) -> int:
    """coc-zh.impale: the d100 roll impales when it is <= 1/5 of the attack chance. A d100
    roll is a whole number, so that is roll <= floor(chance / 5): Handgun 20% impales on
    01-04, and 23% too (4.6). "最大值" ("the skill's maximum") is read as the highest roll
    that still hits, i.e. the chance being rolled against (assumed)."""
    return max(0, chance) // tables()["impale"]["divisor"]


def _dice_text(groups: list[tuple[int, int]], bonus: int) -> str:
    parts = [f"{n}d{s}" for n, s in groups]
    text = "+".join(parts)
    if bonus:
        text += f"{bonus:+d}" if text else str(bonus)
    return text or "0"


def impale_roll(damage: str, hits: int = 1, immune: bool = False) -> str:
    """coc-zh.impale.damage: an impaling hit rolls the damage twice and adds the rolls, so
    ``hits`` impaling hits roll it 2 x hits times (.22: 1d6 -> 2d6; 3 impales -> 6d6). The
    whole roll is repeated, flat additions included (the text says "roll the damage dice
    twice"; coc does the same; assumed). coc-zh.impale.immune: an immune creature takes
    the ordinary damage of each hit."""
    groups, bonus = coc_rules.parse_dice(damage)
    k = hits * (1 if immune else tables()["impale"]["times"])
    return _dice_text([(n * k, s) for n, s in groups], bonus * k)


def impale_distribution(damage: str, hits: int = 1, immune: bool = False) -> dict[int, Fraction]:
    """Exact distribution of the damage of ``hits`` impaling hits (coc-zh.impale.damage)."""
    return coc_rules.damage_distribution(impale_roll(damage, hits, immune))


def pull_out_chance(weapon_skill: int) -> Fraction:
    """coc-zh.impale.stuck: an impaling melee weapon sticks; next round the attacker pulls
    it out on d100 <= weapon skill (no extra damage)."""
    return dice.d100_at_most(weapon_skill)


def stuck_free_within(weapon_skill: int, rounds: int) -> Fraction:
    """coc-zh.impale.stuck: chance the weapon is out within ``rounds`` rounds, trying once
    a round from the round after the impale (a failed roll leaves it stuck for another
    try: assumed, the text is silent)."""
    p = pull_out_chance(weapon_skill)
    return 1 - (1 - p) ** max(0, rounds)


# ---- dodge --------------------------------------------------------------------------------

def luck(POW: int) -> int:
    """Luck = POW x 5 (CoC convention, as coc)."""
    return POW * tables()["luck"]["pow_multiplier"]


def dodge_chance(dodge: int, POW: int | None = None, extreme_danger: bool = False) -> Fraction:
    """coc-zh.dodge: a Dodge roll; in an extremely dangerous situation a Luck roll decides
    whether the character gets out of the way (read as: the Luck roll is made instead of
    Dodge; assumed, digest ambiguity 8)."""
    if extreme_danger:
        if POW is None:
            raise ValueError("coc-zh.dodge: the Luck roll needs POW")
        return dice.d100_at_most(luck(POW))
    return dice.d100_at_most(dodge)


# ---- parry --------------------------------------------------------------------------------

ATTACKS = ("bullet", "bodily", "impaling melee", "blunt melee")
PARRIERS = ("bodily", "melee", "sword", "rifle", "shotgun", "large smg", "smg", "handgun")


@dataclass(frozen=True)
class Parry:
    """Whether a parry is possible, and how (coc-zh.parry.*)."""

    allowed: bool
    rule: str
    why: str
    takes_damage: bool = False  # a bodily parry against a weapon still takes damage
    by_grapple: bool = False  # touch range, higher DEX: the parry is a grapple


def can_parry(attack: str, parry_with: str, *, touch_range: bool = False, parrier_DEX: int | None = None,
              attacker_DEX: int | None = None) -> Parry:
    """coc-zh.parry.basics / .bullets / .bodily / .vs-weapons / .firearms: can ``parry_with``
    (bodily, melee, sword, rifle, shotgun, large smg, smg, handgun) parry ``attack`` (bullet,
    bodily, impaling melee, blunt melee)?"""
    if attack not in ATTACKS:
        raise ValueError(f"coc-zh.parry: unknown attack {attack!r}; one of " + ", ".join(ATTACKS))
    if parry_with not in PARRIERS:
        raise ValueError(f"coc-zh.parry: unknown parrying object {parry_with!r}; one of " + ", ".join(PARRIERS))
    if attack == "bullet":
        return Parry(False, "coc-zh.parry.bullets", "bullets cannot be parried (a parry is melee only)")
    guns = tables()["parry"]["firearms"]
    if parry_with in ("smg", "handgun"):
        return Parry(False, "coc-zh.parry.firearms", f"only {', '.join(guns)} can parry")
    if attack == "bodily":
        if parry_with == "bodily":
            return Parry(True, "coc-zh.parry.bodily", "bodily attacks parry each other")
        if parry_with in guns:
            return Parry(True, "coc-zh.parry.firearms", f"a {parry_with} may parry (but not fire this round)")
        return Parry(True, "coc-zh.parry.basics", "a weapon parries a bodily attack (nothing forbids it; assumed)")
    # a weapon attack
    if parry_with == "bodily":
        if touch_range and parrier_DEX is not None and attacker_DEX is not None and parrier_DEX > attacker_DEX:
            return Parry(True, "coc-zh.parry.vs-weapons", "touch-range weapon, higher DEX: parried by grappling",
                         by_grapple=True)
        return Parry(True, "coc-zh.parry.vs-weapons", "a bodily parry against a weapon cannot avoid damage",
                     takes_damage=True)
    if parry_with in guns:
        return Parry(True, "coc-zh.parry.firearms", f"a {parry_with} may parry (but not fire this round)")
    if attack == "impaling melee":
        return Parry(True, "coc-zh.parry.vs-weapons", "most melee weapons parry an edged or pointed weapon")
    return Parry(True, "coc-zh.parry.basics", "a melee weapon parries a blunt weapon (assumed)")


def parry_chance(skill_with_object: int) -> Fraction:
    """coc-zh.parry.basics: the parry chance is the skill with the parrying weapon/object."""
    return dice.d100_at_most(skill_with_object)


def parries_per_round() -> int:
    """coc-zh.parry.declare: one parry per combat round (coc-zh.two-weapons: also with a
    weapon in each hand)."""
    return tables()["parry"]["per_round"]


def parry_stands(declared_against: str, attacker: str, *, defender_down: bool = False,
                 attack_made: bool = True) -> bool:
    """coc-zh.parry.declare: the parry is declared against one potential attacker; it is
    void if the defender is knocked down or unconscious before the attack, or if that
    attack never comes."""
    return declared_against == attacker and attack_made and not defender_down


@dataclass(frozen=True)
class ParryDamage:
    object_absorbs: int
    defender_takes: int
    object_breaks: bool
    gun_disabled: bool = False


def parry_damage(damage: int, object_hp: int, firearm: bool = False) -> ParryDamage:
    """coc-zh.parry.object-damage: the parrying object absorbs the damage; above its HP it
    breaks and the defender takes the excess (damage - object HP). coc-zh.parry.firearms:
    a gun that takes more than its HP no longer fires but does not break; the defender
    still takes the excess (assumed, digest ambiguity 11)."""
    over = damage > object_hp
    return ParryDamage(object_absorbs=min(damage, object_hp), defender_takes=max(0, damage - object_hp),
                       object_breaks=over and not firearm, gun_disabled=over and firearm)


def can_attack_and_parry(weapon: str) -> bool:
    """coc-zh.parry.swords: most swords attack and parry in one round; coc-zh.parry.firearms:
    a gun does not parry and fire in one round. Other weapons are read as not doing both
    (the sword exception implies it; assumed, digest ambiguity 13)."""
    return weapon in tables()["parry"]["attack_and_parry"]


def grapple_parry_chance(grapple: int) -> Fraction:
    """coc-zh.parry.grapple: two successful Grapple rolls parry one attack (touch, then
    seize the weapon or the hand): both must succeed, independent rolls."""
    return dice.d100_at_most(grapple) ** tables()["parry"]["grapple_rolls"]


def can_dodge_and_parry() -> bool:
    """coc-zh.parry.with-dodge: a character may dodge and parry in the same round."""
    return True


# ---- surprise -----------------------------------------------------------------------------

def surprised_DEX(DEX: int) -> Fraction:
    """coc-zh.surprise: in the first surprised round the defender's DEX is half its normal
    value. Kept exact (6.5): DEX only orders actions, and a half point breaks no tie
    wrongly, so no rounding is needed (the text states none)."""
    return Fraction(DEX, tables()["surprise"]["dex_divisor"])


def surprise_shots(shots_per_round: int, ready: bool) -> int:
    """coc-zh.surprise: a gun-holder who was not ready fires at most one shot in the first
    surprised round."""
    return shots_per_round if ready else min(shots_per_round, tables()["surprise"]["unready_shots"])


def surprise_can_attack(completely_unexpected: bool) -> bool:
    """coc-zh.surprise: completely unexpected, the defender cannot attack at all."""
    return not completely_unexpected


def surprise_can_defend(direction: str, completely_unexpected: bool) -> bool:
    """coc-zh.surprise: completely unexpected, the defender still parries or dodges attacks
    from the front and the sides (not from behind: implied; assumed)."""
    if not completely_unexpected:
        return True
    return direction in tables()["surprise"]["defend_from"]


# ---- darkness (any skill) -----------------------------------------------------------------

def darkness_level(lux: float) -> str:
    """coc-zh.darkness: the visibility level at this illuminance (ladder over lux)."""
    return table_ladders()["darkness"].step_for(lux).label


def darkness_chance(chance: int, lux: float) -> int:
    """coc-zh.darkness for any skill roll: poor visibility at least halves it (x1/2, rounded
    down: "at least half" off, so 45% -> 22%, not coc's usual rounding up), darkness makes
    it 01%."""
    level = darkness_level(lux)
    cell = tables()["darkness"]["plain"].get(level)
    if cell is None:
        return chance
    if "cap" in cell:
        return min(chance, int(cell["cap"]))
    return math.floor(Fraction(chance) * frac(cell["multiply"]))


# ---- knockout -----------------------------------------------------------------------------

def knockout_allowed(attack: str) -> bool:
    """coc-zh.knockout: only Fist/Punch, Kick, Grapple, Head Butt, Club or other blunt means
    (``attack`` "blunt") can knock out."""
    return attack in tables()["knockout"]["attacks"]


def can_knock_out(target: str) -> bool | None:
    """coc-zh.knockout.targets: humans yes, most Mythos creatures no; Deep Ones, ghouls,
    serpent people and other humanoids: the Keeper decides (None)."""
    t = target.strip().lower()
    if t == "human":
        return True
    if t in tables()["knockout"]["humanoids"] or t == "humanoid":
        return None
    return False


def knockout_chance(damage: int, HP: int) -> Fraction:
    """coc-zh.knockout: the damage rolled (active) against the target's HP (passive) on the
    resistance table (coc-zh.resistance; damage as the active side is the reading of the
    digest)."""
    return resistance(damage, HP)


def knockout_damage(damage: int) -> int:
    """coc-zh.knockout: a successful knockout deals 1/3 of the normal damage, fractions
    dropped (the text's 小數點後無條件省略)."""
    return damage // tables()["knockout"]["damage_divisor"]


def knockout_outcome(damage_roll: str, HP: int, armor: int = 0) -> dict[str, Fraction]:
    """coc-zh.knockout, exact over the damage roll of a hit: ``knockout`` = P(unconscious),
    ``mean_damage`` = expected damage taken (1/3 on a knockout, all of it otherwise).
    Armor subtracts first (coc-zh.armor.reduction: the "normal damage" is what gets
    through; assumed, digest ambiguity 16); HP is the target's current HP (assumed)."""
    p_ko = ZERO
    mean = ZERO
    for value, p in coc_rules.damage_distribution(damage_roll).items():
        d = damage_after_armor(value, armor)
        k = knockout_chance(d, HP)
        p_ko += p * k
        mean += p * (k * knockout_damage(d) + (1 - k) * d)
    return {"knockout": p_ko, "mean_damage": mean}


def wake_chance(first_aid: int | None = None, medicine: int | None = None) -> Fraction:
    """coc-zh.knockout.recovery: a successful First Aid or Medicine roll wakes the victim at
    once; one roll, with the better of the two skills (assumed)."""
    best = max([s for s in (first_aid, medicine) if s is not None], default=0)
    return dice.d100_at_most(best)


# ---- partial concealment ------------------------------------------------------------------

def find_chance(spot_hidden: int, INT: int) -> Fraction:
    """coc-zh.partial-concealment: a target that really is hard to find is pinpointed by a
    Spot Hidden or an Idea (INT x 5) roll; the better of the two is rolled (assumed)."""
    return dice.d100_at_most(max(spot_hidden, INT * tables()["idea"]["int_multiplier"]))


def concealed_hit_chance(hit: Fraction, spot_hidden: int, INT: int, hard_to_find: bool = False) -> Fraction:
    """coc-zh.partial-concealment: a partly concealed target is no harder to hit. Only when
    it is hard to find must it be found first; an unfound target is not hit (assumed,
    digest ambiguity 17)."""
    if not hard_to_find:
        return Fraction(hit)
    return find_chance(spot_hidden, INT) * Fraction(hit)


# ---- thrown objects -----------------------------------------------------------------------

def half_damage_bonus(damage_bonus: str) -> dict[int, Fraction]:
    """coc-zh.thrown: half the damage bonus. A dice bonus is rolled and the result halved,
    fractions dropped toward zero (the text's only rounding, 小數點後無條件省略; assumed:
    digest ambiguity 18). ``damage_bonus``: "0", "+1d4", "-1d4", "+2d6" ..."""
    text = damage_bonus.strip()
    sign = -1 if text.startswith("-") else 1
    body = text.lstrip("+-") or "0"
    dist = coc_rules.damage_distribution(body)
    ratio = frac(tables()["thrown"]["damage_bonus"])
    out: dict[int, Fraction] = {}
    for v, p in dist.items():
        h = sign * math.trunc(Fraction(v) * ratio)
        out[h] = out.get(h, ZERO) + p
    return out


def thrown_damage_distribution(damage: str, damage_bonus: str = "0") -> dict[int, Fraction]:
    """coc-zh.thrown: a thrown object's damage plus half the thrower's damage bonus (never
    below 0: assumed)."""
    out: dict[int, Fraction] = {}
    for a, pa in coc_rules.damage_distribution(damage).items():
        for b, pb in half_damage_bonus(damage_bonus).items():
            v = max(0, a + b)
            out[v] = out.get(v, ZERO) + pa * pb
    return out


# ---- two weapons --------------------------------------------------------------------------

def two_weapon_actions() -> dict[str, int]:
    """coc-zh.two-weapons: a melee weapon in each hand still gives one attack and one parry
    in the round (read as one of each for the character, not per weapon; assumed, digest
    ambiguity 13). Two guns: coc's coc-ja.stance.two-guns (the "Firearms rules")."""
    t = tables()["two_weapons"]
    return {"attacks": t["attacks"], "parries": t["parries"]}


__all__ = [
    "tables", "table_ladders", "resistance", "damage_after_armor", "armor_after_impale", "can_impale",
    "impale_threshold", "impale_roll", "impale_distribution", "pull_out_chance", "stuck_free_within", "luck",
    "dodge_chance", "ATTACKS", "PARRIERS", "Parry", "can_parry", "parry_chance", "parries_per_round",
    "parry_stands", "ParryDamage", "parry_damage", "can_attack_and_parry", "grapple_parry_chance",
    "can_dodge_and_parry", "surprised_DEX", "surprise_shots", "surprise_can_attack", "surprise_can_defend",
    "darkness_level", "darkness_chance", "knockout_allowed", "can_knock_out", "knockout_chance",
    "knockout_damage", "knockout_outcome", "wake_chance", "find_chance", "concealed_hit_chance",
    "half_damage_bonus", "thrown_damage_distribution", "two_weapon_actions",
]
