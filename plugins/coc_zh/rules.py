"""The Chinese edition's combat rules (shared/rules/coc-zh-combat.md, coc-zh.*) that xsys plays on top
of coc's: its armor list with its identity rows, darkness and the halving of the chance, the
resolution and impales, shotgun pellets, and the formulas of its own rules. :class:`CocZhRules` is
the game (coc's check with these changes); sheet.py maps the stat block's armor and the documents to
the neutral model; system.py is the declaration that binds them.

Formulas of the Chinese CoC combat rules (the Chinese CoC combat text) that the neutral
shot model cannot carry: armor, impales, stuck weapons, parries, dodge, surprise,
darkness for any skill, knockouts, partial concealment, thrown objects, two weapons.
Every function cites its rule ID; numbers come from tables.toml (coc-zh's own part).

The dice arithmetic is coc's public ``rules`` module (same game, same damage rolls).
"""

from __future__ import annotations

import contextvars
import copy
import math
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping, Sequence

import msgspec

from xsys.core import dice
from xsys.core.cache import package_toml
from xsys.core.ladder import Ladder, Step, ladders_from_data
from xsys.core.model import Armor, Barrier
from xsys.core.trace import Check, Modifier, fraction_text
from xsys.core.units import Length, parse
from xsys.plugins.coc import CocSystem, LightEffect, Situation, rules as coc_rules


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


# Called locations that do impale damage as a head shot (coc-ja.aimed.effects, inherited).
HEAD = frozenset({"head", "skull", "eye", "face", "jaw", "nose"})
INCH = 0.0254
# coc-zh.darkness "at least halve": while True, light_effect() leaves the x1/2 out and
# evaluate() applies it to the whole-percent chance, rounded down (45% -> 22%).
_FLOOR_HALF: contextvars.ContextVar[bool] = contextvars.ContextVar("coc_zh_floor_half", default=False)
HALF = Fraction(1, 2)


def _catalog():
    from xsys.core.registry import catalog

    return catalog()


@lru_cache(maxsize=None)
def parent() -> CocSystem:
    """The system coc-zh varies: what `coc` would say (for the trace's comparisons)."""
    return CocSystem()


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), Mapping):
            out[k] = _merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


@lru_cache(maxsize=None)
def merged_tables() -> dict[str, Any]:
    """coc's tables with coc-zh's tables.toml over them (key by key; [replaces].tables whole),
    without the coc-ja rules coc-zh replaces ([replaces].rules)."""
    base = copy.deepcopy(parent().tables())
    mine = tables()
    whole = set(mine["replaces"]["tables"])
    for key, value in mine.items():
        if key == "replaces":
            continue
        if key in whole or not isinstance(value, Mapping) or not isinstance(base.get(key), Mapping):
            base[key] = copy.deepcopy(value)
        else:
            base[key] = _merge(base[key], value)
    for rid in mine["replaces"]["rules"]:
        base["rule"].pop(rid, None)
    return base


def _wild(a: float, b: float) -> bool:
    """Two armor values 'disagree wildly': one is at least twice the other and they are at
    least 5 points apart (15 cm concrete: 40 and 9)."""
    lo, hi = sorted((a, b))
    return hi >= 2 * lo and hi - lo >= 5


def _chance_before_location(check: Check) -> int:
    """The whole-percent chance coc computed before the location (x1/5), Mozambique or
    autofire step: what coc-zh.darkness halves."""
    for m in check.modifiers:
        if m.rule == "coc-ja.autofire.penalty" and m.kind == "add":
            return int(check.target) - int(m.value)
        if m.rule in ("coc-ja.aimed.location", "coc-ja.mozambique") and m.kind == "set":
            found = re.search(r"of (\d+)%", m.why)
            if found:
                return int(found.group(1))
    return int(check.target)


class CocZhRules(CocSystem):
    """The game of :class:`CocZhSystem` (its checks and its rules), which sheet.py's conversions and
    system.py's declaration build on."""

    # ==== armor list: coc-zh.armor.table ===============================================
    def armor_path(self) -> Any:
        return resources.files(__package__).joinpath("armor.toml")

    def armor_ladders(self) -> dict[str, Ladder]:
        """coc's ladders of this armor file, with the list's nominal sizes: a barrier within
        ``nominal_tolerance`` below a listed thickness is that row (15 cm concrete is the
        6 in row); generated rows are labelled in inches."""
        if self._zh_armor_ladders is None:
            lads = super().armor_ladders()
            data = self.armor_data()
            tol = float(coc_rules.frac(data.get("nominal", {}).get("tolerance", 0)))
            anchors: dict[str, list[float]] = {}
            for r in data["armor"].get("barrier", []):
                anchors.setdefault(r["material"], []).append(float(parse(r["thickness"], Length)))
            for name, lad in list(lads.items()):
                material = name.removeprefix("armor.barrier.")
                if material == name or material not in anchors:
                    continue
                nominal = anchors[material]
                steps = []
                for s in lad.steps:
                    t = next((x for x in nominal if math.isclose(s.at, x, rel_tol=1e-9)), None)
                    if t is not None:  # a listed thickness represents itself
                        steps.append(Step(s.native, t * (1 - tol), s.rule, s.source, s.label, rep=t))
                    elif any(x * (1 - tol) <= s.at < x for x in nominal):
                        continue  # inside a listed thickness's nominal band
                    else:
                        label = s.label if s.source == "seed" or s.native == 0 else f"{s.at / INCH:.3g} in {material}"
                        steps.append(Step(s.native, s.at, s.rule, s.source, label))  # rep: the new step's middle
                lads[name] = Ladder.build(name, "m", steps, rounding="down")
            self._zh_armor_ladders = lads
        return dict(self._zh_armor_ladders)

    def _identity(self) -> dict[str, dict[str, Any]]:
        """The list's worn items by catalog id, catalog name and the list's own names."""
        if self._zh_identity is None:
            cat = _catalog()
            out: dict[str, dict[str, Any]] = {}
            for r in self.armor_data()["armor"]["worn"]:
                keys = [a.casefold() for a in r.get("aliases", [])]
                if r.get("catalog"):
                    keys.append(r["catalog"])
                    entry = cat.armor.get(r["catalog"])
                    if entry is not None:
                        keys.append(entry.name.casefold())
                for k in keys:
                    out[k] = r
            self._zh_identity = out
        return self._zh_identity

    def identity_row(self, armor: Armor) -> dict[str, Any] | None:
        """The armor-list row that names this item (catalog id or name), if any."""
        ident = self._identity()
        if armor.catalog and armor.catalog in ident:
            return ident[armor.catalog]
        return ident.get(armor.name.strip().casefold())

    def armor_value(self, armor: Armor) -> tuple[int, float, Step]:
        """coc-zh.armor.table: an item the list names is its row (seed: elephant hide is 4
        although the catalog credits it with fewer joules than the WWI helmet's 2); any
        other item by the joules it stops, the strongest row it reaches."""
        row = self.identity_row(armor)
        if row is not None:
            step = self.armor_ladders()["armor.worn"].step_of(row["A"])
            return step.native, 0.0, msgspec.structs.replace(step, source="seed", label=row["label"])
        return super().armor_value(armor)

    def barrier_value(self, barrier: Barrier) -> tuple[int, float, Step, str]:
        """coc's lookup (the material's own rows, else the joules it stops); a material the
        list does not name is read on the joule axis, an assumption whatever row it hits."""
        A, B, step, name = super().barrier_value(barrier)
        if name == "armor.barrier.generic":
            step = msgspec.structs.replace(step, source="assumed")
        return A, B, step, name

    def _compare(self, mine: tuple[int, Step], theirs: tuple[Any, Any, Step]) -> tuple[list[str], str]:
        """Rule IDs and note comparing coc-zh's armor value with coc's for the same thing."""
        A, step = mine
        cA, cB, cstep = theirs
        note = f"{cstep.rule}: {cA}/{float(cB):g} ({cstep.label}); {step.rule}: {A} ({step.label})"
        if _wild(A, cA):
            note += "; the two lists disagree wildly"
        return [step.rule, cstep.rule], note

    # ==== darkness: coc-zh.darkness =====================================================
    def darkness_ladder(self) -> Ladder:
        """coc-zh.darkness over lux: total darkness / dim light / daylight (breakpoints
        assumed, tables.toml)."""
        return table_ladders()["darkness"]

    def light_effect(self, sit: Situation) -> LightEffect:
        """coc's light rules on coc-zh's levels and matrix (x1/2, 01%; lights, night vision,
        thermal and tritium as coc), plus what a target's concealment does:
        coc-zh.partial-concealment (a partly concealed target is no harder to hit) and, for
        a target that cannot be seen at all, coc-zh.darkness's "much harder to hit" as x1/2
        (assumed), not on top of a light penalty as large."""
        eff = super().light_effect(sit)
        visible = coc_rules.table_ladders()["exposure"].step_for(sit.exposure)
        if visible.native == 0:
            u = self.tables()["unseen"]
            m = coc_rules.frac(u["multiply"])
            why = "the target cannot be seen (wholly behind its cover): much harder to hit"
            if eff.cap is None and eff.multiply > m:
                eff = msgspec.structs.replace(eff, multiply=m, modifiers=[
                    Modifier(rule=u["rule"], kind="multiply", value=u["multiply"], source=u["source"], why=why)])
            else:
                eff.modifiers.append(Modifier(rule=u["rule"], kind="multiply", value=1, source=u["source"],
                                              why=why + "; the light already costs as much"))
        elif visible.native < coc_rules.table_ladders()["exposure"].natives[-1]:
            eff.modifiers.append(Modifier(rule="coc-zh.partial-concealment", kind="multiply", value=1, source="seed",
                                          why=f"target shows {visible.label}: a partly concealed target is no "
                                              "harder to hit"))
        if _FLOOR_HALF.get() and self._halves(eff):
            mods = [msgspec.structs.replace(m, value=1, why=m.why + "; halved below, rounded down")
                    if self._is_halving(m) else m for m in eff.modifiers]
            eff = msgspec.structs.replace(eff, multiply=Fraction(1), modifiers=mods)
        return eff

    @staticmethod
    def _is_halving(m: Modifier) -> bool:
        return m.rule == "coc-zh.darkness" and m.kind == "multiply" and str(m.value) == "1/2"

    def _halves(self, eff: LightEffect) -> bool:
        """The light's effect is coc-zh.darkness's x1/2 (poor visibility, or a target that
        cannot be seen), which "at least halves" the chance: rounded down, not up."""
        return eff.cap is None and eff.multiply == HALF and any(self._is_halving(m) for m in eff.modifiers)

    # ==== resolution: coc-zh.impale ======================================================
    def resolve(self, target: int) -> dice.Outcomes:
        """d100 <= target hits (coc-ja.resolution, inherited); coc-zh.impale: an impale on
        d100 <= target / 5, i.e. <= floor(target / 5) for a whole-number roll."""
        t = max(0, target)
        return dice.Outcomes(dice.d100_at_most(t), critical_success=dice.d100_at_most(impale_threshold(t)))

    def impale_threshold(self, target: int) -> int:
        return impale_threshold(target)

    def evaluate(self, sit: Situation, extra: Sequence[Modifier] = (), with_damage: bool = True) -> Check:
        """coc's evaluation; then coc-zh.impale's "all firearms impale": shotgun shot, which
        coc never lets impale, impales here (damage dice rolled twice, armor per die as
        coc-ja.armor.shotgun-pellets).

        coc-zh.darkness: poor visibility "at least halves" the chance, so the x1/2 rounds
        down (45% -> 22%), where coc rounds every chance up: the chance without the light is
        found first, then halved and set before any house-rule modifier (as coc orders them)."""
        if not self._halves(self.light_effect(sit)):
            return self._evaluate_zh(sit, extra, with_damage)
        token = _FLOOR_HALF.set(True)
        try:
            probe = super().evaluate(sit, (), with_damage=False)
            before = _chance_before_location(probe)
            half = before // 2
            why = self._halving_why(sit)
            setm = Modifier(rule="coc-zh.darkness", kind="set", value=half,
                            source="seed" if why.startswith("poor") else self.tables()["unseen"]["source"],
                            why=f"{why}: {before}% at least halved, rounded down -> {half:02d}%")
            return self._evaluate_zh(sit, (setm, *extra), with_damage)
        finally:
            _FLOOR_HALF.reset(token)

    def _halving_why(self, sit: Situation) -> str:
        visible = coc_rules.table_ladders()["exposure"].step_for(sit.exposure)
        return "the target cannot be seen" if visible.native == 0 else "poor visibility"

    def _evaluate_zh(self, sit: Situation, extra: Sequence[Modifier], with_damage: bool) -> Check:
        check = super().evaluate(sit, extra, with_damage)
        imp = check.outcomes.get("impale", Fraction(0))
        thr = int(imp * 100)
        notes = list(check.notes)
        # The impale is read against the chance before the autofire penalty (coc resolves
        # it on T, the one-hit chance), not against the burst's penalised target M.
        burst_penalty = sum(int(m.value) for m in check.modifiers
                            if m.rule == "coc-ja.autofire.penalty" and m.kind == "add")
        base = int(check.target) - burst_penalty
        what = f"{base}%" + (f", the one-hit chance before the burst penalty ({int(check.target)}% after it)"
                             if burst_penalty else "")
        if thr:
            notes.append(f"coc-zh.impale: d100 01-{thr:02d} impales (1/5 of {what}, rounded down)")
        else:
            notes.append(f"coc-zh.impale: no impale below 5% ({what})")
        fields: dict[str, Any] = {"notes": notes}
        if with_damage and check.damage_mean is not None:
            nw = sit.native_weapon or self.weapon_defaults(sit.weapon)
            roll, pellets = self.damage_roll(sit, nw)
            if pellets:
                fields["damage_mean"] = float(self._shot_damage_mean(sit, roll, check))
                # coc's distribution lets no pellet impale; here an impale rolls the dice twice
                fields["damage"] = self._pellet_distribution(sit, roll, check)
        return msgspec.structs.replace(check, **fields)

    def _pellet_distribution(self, sit: Situation, roll: str, check: Check) -> dict[str, str] | None:
        """Exact damage of one unarmored single shot of pellets (coc-zh.impale): a hit rolls the
        dice once, an impale twice. Armor meets pellets die by die (coc-ja.armor.shotgun-pellets),
        and bursts, double taps and called shots have their own reading: those keep the mean."""
        A, _ = self.armor_points(sit)
        if (A or "mean_hits" in check.outcomes or sit.fire != "single" or sit.called_location
                or not check.chance):
            return None
        imp, chance = check.outcomes.get("impale", Fraction(0)), Fraction(check.chance)
        out: dict[int, Fraction] = {0: 1 - chance}
        for weight, dist in ((chance - imp, coc_rules.damage_distribution(roll)),
                             (imp, coc_rules.damage_rolled_twice(roll))):
            for v, p in dist.items():
                out[v] = out.get(v, Fraction(0)) + weight * p
        return {str(v): fraction_text(p) for v, p in sorted(out.items()) if p}

    def _shot_damage_mean(self, sit: Situation, roll: str, check: Check) -> Fraction:
        A, _ = self.armor_points(sit)
        e1 = coc_rules.mean_pellets_after_armor(roll, A)
        e2 = tables()["impale"]["times"] * e1  # each roll of the dice meets the armor die by die
        imp, chance = check.outcomes.get("impale", Fraction(0)), check.chance
        if "mean_hits" in check.outcomes:
            return check.outcomes["mean_hits"] * e1 + imp * (e2 - e1)
        if sit.fire == "mozambique" or sit.called_location in HEAD:
            return chance * e2
        one = (chance - imp) * e1 + imp * e2
        return 2 * one if sit.fire == "double tap" else one


__all__ = ["ATTACKS", "CocZhRules", "PARRIERS", "Parry", "ParryDamage", "armor_after_impale", "can_attack_and_parry", "can_dodge_and_parry", "can_impale", "can_knock_out", "can_parry", "concealed_hit_chance", "damage_after_armor", "darkness_chance", "darkness_level", "dodge_chance", "find_chance", "grapple_parry_chance", "half_damage_bonus", "impale_distribution", "impale_roll", "impale_threshold", "knockout_allowed", "knockout_chance", "knockout_damage", "knockout_outcome", "luck", "parries_per_round", "parry_chance", "parry_damage", "parry_stands", "pull_out_chance", "resistance", "stuck_free_within", "surprise_can_attack", "surprise_can_defend", "surprise_shots", "surprised_DEX", "table_ladders", "tables", "thrown_damage_distribution", "two_weapon_actions", "wake_chance"]
