"""The rules of Call of Cthulhu with the Japanese firearms house rules (shared/rules/coc-ja-firearms.md,
coc-ja.*) that xsys plays: d100 under the skill with its multipliers, concealment, quick draw,
autofire, suppression, dodge, encumbrance, light and darkness, armor, shotgun pellets, door breach,
the damage bonus and the published tiers; :class:`CocRules` is one shot's check (the Situation it
reads, its chance and exact damage) on the core's d100 family. sheet.py maps the stat block and the
shot to the neutral model; system.py is the declaration that binds them.

Formulas of the Japanese CoC firearms rules (the Japanese CoC firearms text) that are not
step tables: concealment, quick draw, autofire, suppression, dodge, encumbrance, light,
armor shock, shotgun pellets, door breach. Every function cites its rule ID; the numbers
come from tables.toml (loaded once by :func:`tables`).

Public: a variant or a scenario tool may import these from ``xsys.plugins.coc``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import Any, ClassVar, Iterable, Mapping, Sequence

import msgspec

from xsys.core import dice
from xsys.core.cache import package_toml
from xsys.core.catalog import grenade_blast, table_grenade
from xsys.core.ladder import Ladder, Step
from xsys.core.model import Barrier, Shot, Weapon
from xsys.core.percentile import LIGHT_AIDS, LightEffect, PercentileSystem, dice_characteristics, frac
from xsys.core.percentile import Situation as PercentileSituation
from xsys.core.system import CharacteristicSpec
from xsys.core.trace import Check, Modifier
from xsys.core.units import Length, brief, parse
from xsys.core.vocab import SHORT_ARMS

from .model import CocNpc, CocShot, CocWeapon


def tables() -> dict[str, Any]:
    """tables.toml of this package, parsed once."""
    return package_toml(__package__)


@lru_cache(maxsize=None)
def table_ladders() -> dict[str, Ladder]:
    """The ladders of tables.toml, built (and so checked) once."""
    from xsys.core.ladder import ladders_from_data

    return ladders_from_data(tables(), "xsys.plugins.coc/tables.toml")


def ceil(x: Fraction | int | float) -> int:
    """coc-ja.resolution: fractions round up (the only rounding the source states)."""
    return math.ceil(frac(x))


# ---- coc-ja.resistance ----------------------------------------------------------------

def resistance(active: int, passive: int) -> Fraction:
    """coc-ja.resistance (assumed BRP table): 50 + 5 x (active - passive) %, clamped
    0..100 (a difference of +10 always succeeds, -10 always fails)."""
    return dice.resistance(active, passive, lo=0, hi=100)


# ---- concealed carry ------------------------------------------------------------------

def conceal_size_multiplier(length_m: float) -> Fraction:
    """coc-ja.conceal.size: x3 <= 20 cm, x2 <= 40, x1 <= 80, x1/2 <= 120, else 0."""
    return frac(table_ladders()["conceal.size"].native(length_m))


def conceal_value(conceal: int, length_m: float, clothing: str = "street clothes",
                  carry: str = "holster") -> Fraction:
    """Modified Conceal: skill x size (coc-ja.conceal.size) x clothing
    (coc-ja.conceal.clothing) x carry (coc-ja.conceal.holster). The multipliers multiply
    and nothing is rounded before the ÷5 (assumed; fits coc-ja.conceal.example)."""
    t = tables()["conceal"]
    try:
        cloth = frac(t["clothing"][clothing])
    except KeyError:
        raise ValueError(f"coc-ja.conceal.clothing: unknown clothing {clothing!r}; one of "
                         + ", ".join(t["clothing"])) from None
    try:
        how = frac(t["carry"][carry])
    except KeyError:
        raise ValueError(f"coc-ja.conceal.holster: unknown carry {carry!r}; one of " + ", ".join(t["carry"])) from None
    return Fraction(conceal) * conceal_size_multiplier(length_m) * cloth * how


def detection_chance(spot_hidden: int, conceal_modified: Fraction | int) -> Fraction:
    """coc-ja.conceal.roll: ceil(Spot Hidden / 5) (active) vs ceil(modified Conceal / 5)
    (passive) on the resistance table: the chance that the weapon is found."""
    div = tables()["conceal"]["divisor"]
    if conceal_modified == 0:
        return Fraction(1)  # cannot be concealed at all (x0 rows)
    return resistance(ceil(Fraction(spot_hidden) / div), ceil(frac(conceal_modified) / div))


# ---- quick draw / action order --------------------------------------------------------

LONG_ARM_SKILLS = ("Rifle", "Shotgun", "SMG", "Machine Gun")


def quickdraw_skill_bonus(skill: str, value: int) -> int:
    """coc-ja.quickdraw.skill-bonus: ceil(Handgun / 10), ceil(long-arm skill / 20)."""
    q = tables()["quickdraw"]
    if skill == "Handgun":
        return ceil(Fraction(value, q["handgun_skill_divisor"]))
    if skill in LONG_ARM_SKILLS:
        return ceil(Fraction(value, q["long_arm_skill_divisor"]))
    return 0


def action_dex(DEX: int, skill: str = "", skill_value: int = 0, sights: Iterable[str] = (),
               grip: str | None = None, carry: str = "in hand", flashlight_draw: bool = False,
               gun_light_draw: bool = False) -> int:
    """coc-ja.quickdraw.total (sum assumed): DEX + skill bonus + the best sight bonus
    (coc-ja.quickdraw.sights, not cumulative) + grip (coc-ja.quickdraw.grip) + carry
    (coc-ja.quickdraw.carry / .holster) + light draw (coc-ja.light.technique)."""
    q = tables()["quickdraw"]
    light = tables()["light"]
    total = DEX + quickdraw_skill_bonus(skill, skill_value)
    total += max([q["sights"].get(s, 0) for s in sights] + [0])
    if grip is not None:
        total += q["grip"][grip]
    total += q["carry"][carry]
    if flashlight_draw:
        total += light["flashlight_draw_dex"]
    if gun_light_draw:
        total += light["gun_light_draw_dex"]
    return total


def ready_first_cycle(*, STR: int, required_STR: int | None, single_action: bool = False,
                      cocked: bool = False, chambered: bool = True) -> bool:
    """coc-ja.quickdraw.ready / .single-action / .str: can the gun fire in the 1st DEX
    cycle? Not below the required STR, not an uncocked single action, not with an empty
    chamber."""
    if required_STR is not None and STR < required_STR:
        return False
    if single_action and not cocked:
        return False
    return chambered


# ---- reload ---------------------------------------------------------------------------

def reload_rounds(feed: str, rounds_to_load: int = 0, skill_success: bool = False,
                  reachable: bool = True) -> int | None:
    """Combat rounds to reload (coc-ja.reload.*). feed: magazine | loose | belt. None when
    fast loading is impossible (coc-ja.reload.limits: ammunition out of reach)."""
    r = tables()["reload"]
    if not reachable:
        return None
    if feed == "magazine":
        return r["magazine_rounds"]
    if feed == "loose":
        per = r["loose_per_round_with_roll"] if skill_success else r["loose_per_round"]
        return max(1, math.ceil(rounds_to_load / per))
    if feed == "belt":
        return r["belt_rounds_with_roll"] if skill_success else r["belt_rounds"]
    raise ValueError(f"coc-ja.reload: unknown feed {feed!r}")


def reload_and_fire(feed: str, DEX: int, skill_success: bool = False) -> tuple[int, int]:
    """coc-ja.reload.loose-rounds / coc-ja.reload.magazine: load and fire in the same round.
    Returns (rounds loaded, the DEX rank the shot is fired at). Loose rounds: 1 round loaded
    and fired at DEX x 1/2; after a successful firearm roll 2 loaded and fired at DEX x 1/2.
    Magazine: only after a successful roll (the optional rule): the magazine goes in and the
    shot is fired at DEX x 1/2. DEX x 1/2 rounds up (the text's convention, assumed)."""
    r = tables()["reload"]
    rank = ceil(Fraction(DEX, 2))
    if feed == "loose":
        return (r.get("loose_and_fire_with_roll", 2) if skill_success else r.get("loose_and_fire", 1)), rank
    if feed == "magazine":
        if not skill_success:
            raise ValueError("coc-ja.reload.magazine: firing in the reloading round needs a successful skill roll")
        return 0, rank
    raise ValueError(f"coc-ja.reload: no reload-and-fire for feed {feed!r}")


# ---- stances --------------------------------------------------------------------------

def off_hand_chance(firearm_skill: int, off_hand_skill: int | None = None) -> Fraction:
    """coc-ja.stance.off-hand / coc-ja.skill.off-hand-shooting: half the firearm skill,
    or Off-hand Shooting capped at the firearm skill (the better of the two: the skill is
    rolled "instead", so a shooter would not choose the worse; assumed)."""
    half = Fraction(firearm_skill) * frac(tables()["stance"]["off_hand"])
    if off_hand_skill is None:
        return half
    return max(half, Fraction(min(off_hand_skill, firearm_skill)))


def two_guns_chance(firearm_skill: int, skill: str = "Handgun", laser: bool = False,
                    off_hand_skill: int | None = None) -> Fraction:
    """coc-ja.stance.two-guns: each gun at skill x1/5 (off hand included); Handgun >= 60%
    with a laser sight: normal chance; with Off-hand Shooting: that x1/2 instead (the
    better, assumed)."""
    st = tables()["stance"]
    if skill == "Handgun" and laser and firearm_skill >= st["two_guns_laser_skill"]:
        return Fraction(firearm_skill)
    fifth = Fraction(firearm_skill) * frac(st["two_guns"])
    if off_hand_skill is None:
        return fifth
    return max(fifth, Fraction(off_hand_skill) * frac(st["two_guns_off_hand_skill"]))


def two_guns_spray_target(targets: Sequence[str]) -> dict[str, Fraction]:
    """coc-ja.stance.two-guns: suppressive spraying with both guns (not precise fire): a hit
    strikes a target chosen at random among those sprayed. The text does not say how; each
    target is taken as equally likely (assumed). Each gun still rolls on its own
    (``two_guns_chance``)."""
    if not targets:
        raise ValueError("coc-ja.stance.two-guns: a spray needs at least one target")
    names = list(dict.fromkeys(targets))
    return {t: Fraction(1, len(names)) for t in names}


def suppressed_spray(skill_value: int, rate_of_fire: int) -> tuple[int, int]:
    """coc-ja.autofire.suppression: a suppressed (stunned) defender may still make unaimed
    spray fire: up to 2 x rate of fire shots, each at 1/5 of the success chance (rounded up,
    coc-ja.resolution). Returns (most shots, % per shot)."""
    return 2 * rate_of_fire, ceil(Fraction(max(0, skill_value), 5))


# ---- autofire -------------------------------------------------------------------------

def autofire_modified(chance: int, rounds: int, mount: str = "hand-held") -> int:
    """coc-ja.autofire.penalty: max(5, S - k x (rounds - 1)), k = 3 hand-held, 2 braced,
    1 mounted. A chance already below the floor stays as it is (assumed: the floor limits
    the reduction, it does not raise a chance)."""
    a = tables()["autofire"]
    k = a["per_round"][mount]
    reduced = chance - k * (rounds - 1)
    return max(min(chance, a["floor"]), reduced)


def autofire_hits(roll: int, modified: int, unmodified: int, rounds: int) -> int:
    """coc-ja.autofire.hits: roll <= M: 1 + floor((M - roll) / 5) hits (at most the
    rounds fired); M < roll <= S: exactly 1 hit; else none."""
    step = tables()["autofire"]["hit_step"]
    if roll <= modified:
        return min(rounds, 1 + (modified - roll) // step)
    if roll <= unmodified:
        return 1
    return 0


def autofire_hit_distribution(modified: int, unmodified: int, rounds: int) -> dict[int, Fraction]:
    """Exact distribution of hits of one burst over d100 (a new dict; the answer for the
    same numbers is computed once per process)."""
    return dict(_autofire_hit_distribution(modified, unmodified, rounds))


@lru_cache(maxsize=4096)  # pure in small integers: every burst with the same numbers asks again
def _autofire_hit_distribution(modified: int, unmodified: int, rounds: int) -> tuple[tuple[int, Fraction], ...]:
    counts: dict[int, int] = {}  # hits -> how many of the 100 rolls give them (in roll order)
    for roll in range(1, 101):
        h = autofire_hits(roll, modified, unmodified, rounds)
        counts[h] = counts.get(h, 0) + 1
    return tuple((h, Fraction(n, 100)) for h, n in counts.items())


def large_target_bonus(SIZ: int | None) -> int:
    """coc-ja.autofire.order: +5% per full 10 SIZ above SIZ 30 (floor, assumed)."""
    a = tables()["autofire"]
    if SIZ is None or SIZ <= a["large_target_siz"]:
        return 0
    return a["large_target_bonus"] * ((SIZ - a["large_target_siz"]) // a["large_target_step"])


def untrained_min_rounds(skill: str, value: int, rate_of_fire: int) -> int:
    """coc-ja.autofire.untrained: fewer than 5 points above the base chance -> at least
    half the rate of fire (rounded up) goes out in automatic fire; otherwise 1."""
    base = tables()["skills"][skill]["base"]
    if isinstance(base, int) and value - base < tables()["autofire"]["untrained_points"]:
        return max(1, ceil(Fraction(rate_of_fire, 2)))
    return 1


def sweep_rounds(rounds: int, targets: int) -> list[int]:
    """coc-ja.autofire.sweep: rounds per target when a burst sweeps `targets` targets in the
    60 degree arc; each shift wastes 1 round. Rounds are spread evenly, earlier targets
    first (assumed). Raises if too few rounds."""
    a = tables()["autofire"]
    usable = rounds - a["sweep_wasted_per_shift"] * (targets - 1)
    if targets < 1 or usable < targets:
        raise ValueError("coc-ja.autofire.sweep: not enough rounds for the targets")
    base, extra = divmod(usable, targets)
    return [base + (1 if i < extra else 0) for i in range(targets)]


def in_sweep_arc(bearings_deg: Sequence[float]) -> bool:
    """coc-ja.autofire.sweep: all targets within one 60 degree arc."""
    return (max(bearings_deg) - min(bearings_deg)) <= tables()["autofire"]["sweep_arc_degrees"]


def burst_dodge(dodge: int, rounds: int) -> int:
    """coc-ja.autofire.dodge-penalty: Dodge -1 per additional round of the burst."""
    return max(0, dodge - tables()["autofire"]["dodge_per_extra_round"] * (rounds - 1))


def suppression_chance(rounds: int, POW: int) -> Fraction:
    """coc-ja.autofire.suppression: rounds (active, summed over shooters) vs POW on the
    resistance table: the chance that the defender is suppressed (stunned 1d3 rounds)."""
    return resistance(rounds, POW)


# ---- close range, double tap, Mozambique ----------------------------------------------

def close_range(DEX: int) -> float:
    """coc-ja.close-range: DEX metres."""
    return float(DEX * tables()["close_range"]["metres_per_dex"])


def point_blank(DEX: int, careful_aim: bool = False) -> float:
    """coc-ja.range.point-blank (assumed DEX / 3 m), x2 with careful aim
    (coc-ja.aimed.careful-aim)."""
    pb = tables()["point_blank"]
    r = DEX / pb["dex_divisor"]
    return r * tables()["aimed"]["range_multiplier"] if careful_aim else r


def double_tap_allowed(skill_value: int, rate_of_fire: int, distance_m: float, DEX: int) -> list[str]:
    """coc-ja.double-tap: the reasons a double tap is NOT allowed (empty: allowed)."""
    d = tables()["double_tap"]
    why = []
    if skill_value < d["min_skill"]:
        why.append(f"skill {skill_value}% < {d['min_skill']}%")
    if rate_of_fire < d["min_rof"]:
        why.append(f"rate of fire {rate_of_fire} < {d['min_rof']}")
    if distance_m > close_range(DEX):
        why.append(f"{brief(distance_m, 'm')} is beyond close range ({brief(close_range(DEX), 'm')})")
    return why


def mozambique_allowed(skill_value: int, rate_of_fire: int, distance_m: float, DEX: int) -> list[str]:
    """coc-ja.mozambique: double-tap requirements plus rate of fire >= 3."""
    why = double_tap_allowed(skill_value, rate_of_fire, distance_m, DEX)
    m = tables()["mozambique"]["min_rof"]
    if rate_of_fire < m:
        why.append(f"rate of fire {rate_of_fire} < {m}")
    return why


def shots_in_dex_rank(rate_of_fire: int) -> str:
    """coc-ja.double-tap: ROF 2 one double tap, ROF 3 double tap + 1, ROF 4 two."""
    return {2: "double tap", 3: "double tap + 1 shot"}.get(rate_of_fire, "two double taps") \
        if rate_of_fire >= 2 else "single shot"


# ---- dodge ----------------------------------------------------------------------------

def dodges_per_round(dodge: int) -> int:
    """coc-ja.dodge.count: 1, or 2 at Dodge >= 75%."""
    d = tables()["dodge"]
    return d["expert_per_round"] if dodge >= d["expert_skill"] else d["per_round"]


def sniper_notice_chance(spot_hidden: int, hide: int) -> Fraction:
    """coc-ja.dodge.sniper: on alert, the defender's Spot Hidden / 5 (active, assumed)
    against the sniper's Hide / 5 (rounded up as in coc-ja.conceal.roll, assumed)."""
    div = tables()["dodge"]["sniper_divisor"]
    return resistance(ceil(Fraction(spot_hidden, div)), ceil(Fraction(hide, div)))


def can_dodge(knows_shooter: bool) -> bool:
    """coc-ja.dodge.firearms: only a shooter one knows about can be dodged."""
    return knows_shooter


# ---- encumbrance ----------------------------------------------------------------------

def encumbrance_ladder(STR: int, SIZ: int) -> Ladder:
    """coc-ja.encumbrance: load states over kg, L = STR + SIZ / 2 (the source's literal
    operator precedence), thresholds L x 1.5 / 3 / 4.5 / 6 kg ('以上' inclusive)."""
    e = tables()["encumbrance"]
    L = Fraction(STR) + Fraction(SIZ, 2)
    rows = [Step(0, 0.0, "coc-ja.encumbrance", "seed", e["states"][0])]
    for i, f in enumerate(e["factors"], start=1):
        rows.append(Step(i, float(L * frac(f)), "coc-ja.encumbrance", "seed", e["states"][i]))
    return Ladder.build(f"encumbrance (STR {STR}, SIZ {SIZ})", "kg", rows, rounding="down")


def encumbrance(STR: int, SIZ: int, load_kg: float) -> dict[str, Any]:
    """State, Move change and active-skill penalty for a load (coc-ja.encumbrance)."""
    e = tables()["encumbrance"]
    i = encumbrance_ladder(STR, SIZ).native(load_kg)
    return {"state": e["states"][i], "move": e["move"][i], "active_skills": e["active_skills"][i]}


# ---- light ----------------------------------------------------------------------------

def dazzle_chance(DEX: int, opponent_POW: int) -> Fraction:
    """coc-ja.light.dazzle: the DEX x5 roll succeeds and the opponent fails Luck (POW x5)."""
    li = tables()["light"]
    p = dice.d100_at_most(DEX * li["dazzle_dex_multiplier"])
    luck = dice.d100_at_most(opponent_POW * li["luck_multiplier"])
    return p * (1 - luck)


def dazzle_effect(high_intensity: bool) -> dict[str, str]:
    """coc-ja.light.dazzle: what a failed Luck roll costs."""
    if high_intensity:
        return {"blind": "1d6 rounds, sight skills 01%", "after": "sight skills x1/2 for 3d6 turns"}
    return {"blind": "none", "after": "sight skills x1/2 for 1d6 rounds"}


def shoot_at_light_allowed(called_location: str | None) -> bool:
    """coc-ja.light.exposure: a light shows where its user is; others may shoot at it
    normally, but not with an aimed location shot."""
    return called_location is None


# ---- armor ----------------------------------------------------------------------------

def armor_shock_chance(POW: int, highest_combat_skill: int = 0) -> Fraction:
    """coc-ja.armor.shock: the POW x5 roll (+ ceil(highest combat skill / 2), the sentence
    misplaced in coc-ja.sight.night-vision) that avoids a 1d3-round stun."""
    a = tables()["armor_shock"]
    return dice.d100_at_most(POW * a["pow_multiplier"]
                             + ceil(Fraction(highest_combat_skill, a["combat_skill_divisor"])))


def pellet_damage(dice_values: Sequence[int], bonus: int, armor: int) -> int:
    """coc-ja.armor.shotgun-pellets: armor applies to each die of shot; the flat bonus is
    added to the first die (as the example's 3+2); a die passes only by what it exceeds
    the armor (assumed)."""
    total = 0
    for i, v in enumerate(dice_values):
        v = v + (bonus if i == 0 else 0)
        total += max(0, v - armor)
    return total


def armored_damage(total: int, armor: int) -> int:
    """The ordinary rule: armor subtracts from the total."""
    return max(0, total - armor)


# ---- dice strings ---------------------------------------------------------------------



def parse_dice(text: str) -> tuple[list[tuple[int, int]], int]:
    """'1d10+1d4+2' -> ([(1, 10), (1, 4)], 2) (core.dice.parse_roll; a roll that takes dice
    away is no damage roll of the weapon table)."""
    groups, bonus = dice.parse_roll(text)
    if any(sign < 0 for sign, _, _ in groups):
        raise ValueError(f"not a damage roll: {text!r}")
    return [(n, sides) for _, n, sides in groups], bonus


def damage_distribution(text: str) -> dict[int, Fraction]:
    """Exact distribution of a damage roll such as '2d6+4' (core.dice.roll_distribution)."""
    return dice.roll_distribution(text)


@lru_cache(maxsize=256)
def damage_rolled_twice(text: str) -> dict[int, Fraction]:
    """The damage of an impale: the roll made twice and added (coc-ja.aimed.effects)."""
    d = damage_distribution(text)
    out: dict[int, Fraction] = {}
    for a, pa in d.items():
        for b, pb in d.items():
            out[a + b] = out.get(a + b, Fraction(0)) + pa * pb
    return out


@lru_cache(maxsize=1024)
def _after_armor(text: str, armor: int, twice: bool) -> tuple[tuple[int, Fraction], ...]:
    """The distribution of max(0, damage - armor) (the damage rolled twice for ``twice``)."""
    d = damage_rolled_twice(text) if twice else damage_distribution(text)
    out: dict[int, Fraction] = {}
    for v, p in d.items():
        k = max(0, v - armor)
        out[k] = out[k] + p if k in out else p
    return tuple(out.items())


def shot_damage_distribution(text: str, chance: Fraction,
                             parts: Sequence[tuple[Fraction, int, bool]]) -> dict[str, str]:
    """Exact damage of one single shot as text ("damage": "p/q"), misses at 0: ``parts`` are
    the hits as (probability, armor A of the location hit, damage rolled twice); a hit rolls
    ``text``, a doubled one rolls it twice (coc-ja.aimed.effects), armor subtracts once.
    The same question is answered once per process (a new dict each time)."""
    return dict(_shot_damage_distribution(text, Fraction(chance), tuple(
        (Fraction(w), int(a), bool(t)) for w, a, t in parts)))


@lru_cache(maxsize=4096)  # every shot with the same weapon, chance and armor asks again
def _shot_damage_distribution(text: str, chance: Fraction,
                              parts: tuple[tuple[Fraction, int, bool], ...]) -> tuple[tuple[str, str], ...]:
    out: dict[int, Fraction] = {0: 1 - chance}
    for weight, armor, twice in parts:
        for v, p in _after_armor(text, armor, twice):
            out[v] = out.get(v, Fraction(0)) + weight * p
    return tuple((str(v), f"{p.numerator}/{p.denominator}") for v, p in sorted(out.items()) if p)


def mean_after_armor(text: str, armor: int, impale: bool = False) -> Fraction:
    """E[max(0, damage - armor)]; an impale rolls the damage twice (assumed CoC rule,
    coc-ja.aimed.effects: 'damage x2, as with an impale') and armor subtracts once."""
    return _mean_after_armor(text, armor, impale)


@lru_cache(maxsize=1024)  # every shot with the same weapon and armor asks again
def _mean_after_armor(text: str, armor: int, impale: bool) -> Fraction:
    d = damage_distribution(text)
    if impale:
        d2: dict[int, Fraction] = {}
        for a, pa in d.items():
            for b, pb in d.items():
                d2[a + b] = d2.get(a + b, Fraction(0)) + pa * pb
        d = d2
    return sum((p * max(0, v - armor) for v, p in d.items()), Fraction(0))


def mean_pellets_after_armor(text: str, armor: int) -> Fraction:
    """coc-ja.armor.shotgun-pellets: E[sum over dice of max(0, die - armor)], the bonus on
    the first die."""
    return _mean_pellets_after_armor(text, armor)


@lru_cache(maxsize=1024)
def _mean_pellets_after_armor(text: str, armor: int) -> Fraction:
    groups, bonus = parse_dice(text)
    total = Fraction(0)
    first = True
    for n, sides in groups:
        for _ in range(n):
            add = bonus if first else 0
            first = False
            total += sum((Fraction(1, sides) * max(0, f + add - armor) for f in range(1, sides + 1)), Fraction(0))
    return total


# ---- door breach ----------------------------------------------------------------------

def door_breach_chance(*, malfunction: int, locksmith: int, INT: int, damage: str,
                       door_strength: int) -> Fraction:
    """coc-ja.door-breach: the shot always hits but must not malfunction (roll < the
    malfunction number, assumed), then Locksmith x2 or an Idea roll finds the spot (the
    better is used, assumed), then the damage total (active) beats the door's strength
    (passive) on the resistance table."""
    d = tables()["door_breach"]
    no_malf = Fraction(max(0, min(100, malfunction - 1)), 100)
    find = dice.d100_at_most(max(locksmith * d["locksmith_multiplier"], INT * d["idea_multiplier"]))
    breach = sum((p * resistance(v, door_strength) for v, p in damage_distribution(damage).items()), Fraction(0))
    return no_malf * find * breach


def door_backfire_chance(*, malfunction: int, POW: int) -> Fraction:
    """coc-ja.door-breach: a malfunction and a failed Luck roll: the shooter takes half the
    damage dealt to the door."""
    malf = Fraction(max(0, 101 - malfunction), 100)
    return malf * (1 - dice.d100_at_most(POW * 5))


FIREARM_SKILLS = ("Handgun", "Rifle", "Shotgun", "SMG", "Machine Gun", "Throw")
HEAD = frozenset({"head", "skull", "eye", "face", "jaw", "nose"})


def _tables_ladders() -> dict[str, Ladder]:
    return table_ladders()


def _catalog():
    from xsys.core.registry import catalog

    return catalog()


class Situation(PercentileSituation, frozen=True):
    """Everything one CoC shot depends on: the d100 family's situation and what only a native
    CocShot states (two guns, Off-hand Shooting, mounting, careful aim, Keeper doubling, the
    fire mode, the target's SIZ). Built from a neutral Shot by ``situation_from_shot`` or from a
    native CocShot by :meth:`CocRules.situation_from_native`; evaluated by ``evaluate``."""

    DEX: int = 10
    two_guns: bool = False
    off_hand_skill: int | None = None
    mounted: bool = False
    careful_aim: bool = False
    keeper_double: bool = False
    fire: str = "single"
    target_SIZ: int | None = None


# The Keeper Rulebook's skill chart (not in the seed text, so assumed): novice up to 5%,
# neophyte 6-25% (a firearm's untrained base chance lies here), amateur 26-50%, professional
# 51-75%, expert 76-90%, master 91%+. (rank, name, lowest level, typical level)
COC_TIERS = ((0, "novice/neophyte (base chance)", 0, 20), (1, "amateur", 26, 40), (2, "professional", 51, 63),
             (3, "expert", 76, 83), (4, "master", 91, 95))

# coc-ja.damage-bonus (assumed: the CoC 5th/6th edition table, not in the text): STR + SIZ ->
# the dice added to a close-combat attack's damage (and half of it to a thrown one, coc-zh.thrown)
DAMAGE_BONUS = ((12, "-1d6"), (16, "-1d4"), (24, "0"), (32, "+1d4"), (40, "+1d6"), (56, "+2d6"), (72, "+3d6"),
                (88, "+4d6"))


def damage_bonus(STR: int, SIZ: int) -> str:
    """The damage bonus of STR + SIZ (coc-ja.damage-bonus, assumed)."""
    total = STR + SIZ
    for top, db in DAMAGE_BONUS:
        if total <= top:
            return db
    return f"+{4 + (total - 73) // 16}d6"


# ---- helpers ------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _characteristics() -> dict[str, CharacteristicSpec]:
    return dice_characteristics(tables()["characteristics"], "coc-ja.characteristics", tail=(1, 99))


def _ftext(x: Fraction | int) -> str | int:
    x = Fraction(x)
    return int(x) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


class CocRules(PercentileSystem):
    """The game of :class:`CocSystem` (its checks and its rules), which sheet.py's conversions and
    system.py's declaration build on."""

    # ==== tables ========================================================================
    def tables(self) -> dict[str, Any]:
        """tables.toml (rules data) of this plugin."""
        return tables()

    def table_ladders(self) -> dict[str, Ladder]:
        """The ladders of tables.toml."""
        return dict(_tables_ladders())

    # ==== darkness (replaceable) =======================================================
    def darkness_ladder(self) -> Ladder:
        """Visibility level over lux (coc-ja.darkness; breakpoints assumed)."""
        return _tables_ladders()["darkness"]

    def light_effect(self, sit: Situation) -> LightEffect:
        """coc-ja.darkness with coc-ja.darkness.matrix: lights cancel it
        (coc-ja.light.flashlight), thermal ignores it (coc-ja.sight.thermal), night vision
        cancels all but total darkness (coc-ja.sight.night-vision / .nvg), tritium gives
        x3/4 and x1/2 (coc-ja.sight.luminous)."""
        step = self.darkness_ladder().step_for(sit.illuminance)
        level = step.label
        eff = LightEffect(level=level)
        if level == "daylight":
            return eff
        t = self.tables()
        sights = t["sights"]
        aids = set(sit.aids)
        if aids & {"hand-light", "weapon-light"}:
            eff.modifiers.append(Modifier(rule="coc-ja.light.flashlight", kind="multiply", value=1, source="seed",
                                          why=f"{level}: a light cancels the darkness penalty"))
            return eff
        if sit.sights in sights["thermal"] or "thermal-goggles" in aids:
            src = "seed" if sit.sights in sights["thermal"] else "assumed"
            eff.modifiers.append(Modifier(rule="coc-ja.sight.thermal", kind="multiply", value=1, source=src,
                                          why=f"{level}: thermal imaging ignores light"))
            return eff
        if sit.sights in sights["night_vision"] or "nv-goggles" in aids:
            kind, rule = "night-vision", ("coc-ja.sight.night-vision" if sit.sights in sights["night_vision"]
                                          else "coc-ja.sight.nvg")
            if rule == "coc-ja.sight.nvg" and sit.sights not in sights.get("nvg_location", ("laser", "red-dot",
                                                                                             "reflex")):
                eff.no_location = True
        elif sit.sights in sights["luminous"]:
            kind, rule = "tritium", "coc-ja.sight.luminous"
        else:
            kind, rule = "plain", "coc-ja.darkness"
        cell = t["darkness"][kind].get(level)
        if cell is None:  # night vision in dim light / starlight: cancelled
            eff.modifiers.append(Modifier(rule=rule, kind="multiply", value=1, source="seed",
                                          why=f"{level}: night vision cancels the penalty"))
            return eff
        rule = cell.get("rule", rule)
        # the effects are seed (cells the text is silent on say "assumed"); the lux
        # breakpoints are the darkness ladder's own (assumed) rows
        src = cell.get("source", "seed")
        if "cap" in cell:
            eff.cap = int(cell["cap"])
            eff.modifiers.append(Modifier(rule=rule, kind="set", value=f"{eff.cap:02d}%", source=src,
                                          why=f"{level} (at most 01%)"))
        else:
            eff.multiply = frac(cell["multiply"])
            eff.modifiers.append(Modifier(rule=rule, kind="multiply", value=_ftext(eff.multiply), source=src,
                                          why=f"{level}" + (" (tritium sights)" if kind == "tritium" else "")))
        eff.unaimed = bool(cell.get("unaimed", False))
        if eff.unaimed:
            eff.modifiers.append(Modifier(rule=rule, kind="multiply", value=1, source=src,
                                          why="every shot counts as unaimed: no careful aim"))
        return eff

    # ==== resolution (replaceable) =====================================================
    # coc-ja.resolution is the d100 family's plain roll (PercentileSystem.resolve and
    # impale_threshold): d100 <= target succeeds, an impale (BRP 'special') on <= ceil(target / 5)
    # ([resolution] impale_divisor); no automatic success or failure bands (the text states none).

    def characteristics(self) -> dict[str, CharacteristicSpec]:
        return _characteristics()

    def skill_levels(self, skill: str) -> Sequence[int]:
        return range(0, 101)

    def skill_context(self, skill: str, context: Mapping[str, Any] | None) -> dict[str, Any]:
        """A close-combat skill's results depend on the damage bonus (STR + SIZ, coc-ja.damage-bonus)."""
        if skill not in self.close_combat_skills():
            return {}
        c = context or {}
        return {"db": damage_bonus(int(c.get("STR") or 10), int(c.get("SIZ") or 13))}

    # ==== weapons ======================================================================
    def weapon_defaults(self, weapon: Weapon) -> CocWeapon:
        """Native data of a neutral weapon: its [weapon.<catalog id>] row, else the class
        defaults with damage from muzzle energy (coc-ja.damage, assumed)."""
        t = self.tables()
        cls = t["weapon_class"][weapon.weapon_class]
        entry = _catalog().weapon_basis(weapon).entry  # by id, else by what its name says
        row = t["weapon"].get(entry.id if entry is not None else "", {})
        damage = row["damage"] if "damage" in row else self.damage_of(weapon)
        if grenade_blast(weapon) is not None and "grenade" in t:  # the table's hand grenade
            damage = t["grenade"]["damage"]
        auto = "auto" in weapon.fire_modes or "burst" in weapon.fire_modes
        thrown = weapon.weapon_class == "thrown"
        return CocWeapon(
            name=weapon.name, skill=cls["skill"], damage=damage,
            base_range=parse(row.get("base_range", cls["base_range"]), Length),
            shots_per_round=row.get("shots_per_round", cls["shots_per_round"]),
            burst=row.get("burst", auto), capacity=weapon.capacity or (entry.capacity if entry is not None else 0),
            malfunction=row.get("malfunction", cls["malfunction"]), length=weapon.length,
            STR=row.get("STR", cls["STR"]), sights="none" if thrown else weapon.sights,
            # a thrown weapon (a grenade) is no firearm: it fires nothing and is aimed by eye
            ammo="shot" if weapon.weapon_class == "shotgun" else "none" if thrown else "bullet", catalog=weapon.catalog,
            # the table's hand grenade at a grenade's one energy says it by its line (xsys.grenade)
            muzzle_energy=None if weapon.catalog or ("grenade" in t and table_grenade(weapon)) else weapon.muzzle_energy,
        )

    def damage_of(self, weapon: Weapon) -> str:
        """The damage dice of a neutral weapon (coc-ja.damage, assumed): one line per
        cartridge ([cartridge.*] of tables.toml, else the damage ladder at the cartridge's
        reference muzzle energy, core.vocab.CARTRIDGES), else the ladder at the weapon's
        own muzzle energy (a long gun's ladder for a rifle, carbine or machine gun:
        ``damage_ladder``); 12-gauge shot by range band (coc-ja.damage.shotgun)."""
        basis = _catalog().weapon_basis(weapon)  # its catalog weapon, else the cartridge its calibre or name states
        row = self.tables().get("cartridge", {}).get(basis.cartridge or "", {})
        if "damage" in row:
            return row["damage"]
        if weapon.weapon_class == "shotgun":
            return "4d6/2d6/1d6"
        return self.damage_ladder(weapon.weapon_class).step_for(basis.energy).label

    # ==== situations ===================================================================
    situation_type: ClassVar[type] = Situation

    def situation_fields(self, shot: Shot) -> dict[str, Any]:
        """A prone shooter is braced (coc-ja.stance); careful aim by the aim ladder; a burst is full auto."""
        return {"braced": shot.shooter.braced or shot.shooter.posture == "prone",
                "careful_aim": _tables_ladders()["careful-aim"].native(float(shot.shooter.aim_time)) >= 1,
                "fire": "full auto" if shot.burst > 1 else "single"}

    def situation_from_native(self, shot: CocShot, npc: CocNpc | None = None) -> Situation:
        """A native CocShot as a Situation, keeping what the neutral model cannot say (two
        guns, Off-hand Shooting, Keeper doubling, double tap, mounted weapons, SIZ)."""
        weapon = self.shot_weapon(shot)
        native_w = None
        if npc is not None:
            for nw in npc.weapons:
                if nw.name == shot.weapon or nw.catalog == shot.weapon:
                    native_w = nw
        if native_w is None:
            native_w = self.weapon_defaults(weapon)
        skill = shot.skill or self.skill_for_class(weapon.weapon_class)
        ohs = shot.off_hand_skill
        if ohs is None and npc is not None:
            ohs = npc.skills.get("Off-hand Shooting")
        dex = shot.DEX if shot.DEX is not None else (npc.DEX if npc is not None else 10)
        exp = _tables_ladders()["exposure"]
        return Situation(
            skill=skill, skill_value=shot.skill_value, weapon=weapon, distance=float(shot.distance),
            native_weapon=native_w, DEX=dex, illuminance=self._light_rep(shot.light),
            aids=tuple(LIGHT_AIDS[a] for a in shot.light_aids), sights=weapon.sights,
            hands=2 if shot.hold == "two-handed" else 1, off_hand=shot.hold == "off-hand",
            two_guns=shot.hold == "two guns", off_hand_skill=ohs,
            braced=shot.support != "hand-held", mounted=shot.support == "mounted",
            careful_aim=shot.careful_aim, called_location=shot.called_location, keeper_double=shot.keeper_double,
            fire=shot.fire, rounds=shot.rounds if shot.fire == "full auto" else (2 if shot.fire == "double tap" else 1),
            exposure=exp.step_labelled(shot.target_exposure).rep,
            barrier=Barrier(material=shot.cover.material, thickness=shot.cover.thickness) if shot.cover else None,
            armor=tuple(self.armor_to_neutral(a) for a in shot.target_armor), target_SIZ=shot.target_SIZ,
        )

    def _light_rep(self, word: str) -> float:
        lad = self.darkness_ladder()
        return lad.step_labelled(word).rep

    # ==== the check ====================================================================
    def check_native(self, shot: CocShot, npc: CocNpc | None = None, extra: Sequence[Modifier] = ()) -> Check:
        """A native shot (with everything the neutral model cannot hold) as a Check."""
        return self.evaluate(self.situation_from_native(shot, npc), extra)

    def evaluate(self, sit: Situation, extra: Sequence[Modifier] = (), with_damage: bool = True) -> Check:
        t = self.tables()
        st, aimed = t["stance"], t["aimed"]
        mods: list[Modifier] = []
        notes: list[str] = []

        def mod(rule: str, kind: str, value: Any, why: str, source: str | None = None) -> None:
            mods.append(Modifier(rule=rule, kind=kind, value=value, source=source or self.rule_source(rule), why=why))

        cls = sit.weapon.weapon_class
        short = cls in SHORT_ARMS
        handgun = cls in ("handgun", "revolver")
        nw = sit.native_weapon or self.weapon_defaults(sit.weapon)
        skill = Fraction(sit.skill_value)

        # -- the base chance: two guns / off hand replace it ---------------------------
        value = skill
        if sit.two_guns:
            value = two_guns_chance(sit.skill_value, sit.skill, sit.sights == "laser", sit.off_hand_skill)
            if value == skill:
                mod("coc-ja.stance.two-guns", "multiply", 1, "two guns, Handgun >= 60% with a laser: normal chance")
            elif sit.off_hand_skill is not None and value == Fraction(sit.off_hand_skill) * frac(
                    st["two_guns_off_hand_skill"]) and value > skill * frac(st["two_guns"]):
                mod("coc-ja.skill.off-hand-shooting", "set", _ftext(value),
                    f"two guns: Off-hand Shooting {sit.off_hand_skill}% x1/2")
            else:
                mod("coc-ja.stance.two-guns", "multiply", st["two_guns"], "two guns, no sights: x1/5 each")
        elif sit.off_hand:
            value = off_hand_chance(sit.skill_value, sit.off_hand_skill)
            if sit.off_hand_skill is not None and value > skill * frac(st["off_hand"]):
                mod("coc-ja.skill.off-hand-shooting", "set", _ftext(value),
                    f"off hand: Off-hand Shooting {sit.off_hand_skill}% (at most the {sit.skill} skill)")
            else:
                mod("coc-ja.stance.off-hand", "multiply", st["off_hand"], "off hand")

        # -- additions to the base chance ----------------------------------------------
        if handgun and sit.hands == 2 and not sit.two_guns:
            value += st["two_hand_bonus"]
            mod("coc-ja.stance.two-hand", "add", st["two_hand_bonus"], "handgun held two-handed")
        big = large_target_bonus(sit.target_SIZ)  # added after range and the burst reduction, below

        # -- multipliers ---------------------------------------------------------------
        mult = Fraction(1)
        if not short and (sit.hands == 1 or sit.two_guns) and not sit.off_hand:
            # coc-ja.stance.off-hand: any gun in the off hand is halved once (the SMG example:
            # Off-hand Shooting 40, SMG 35 -> 35), not halved again as a one-handed long arm
            mult *= frac(st["long_arm_one_hand"])
            mod("coc-ja.stance.long-arm-one-hand", "multiply", st["long_arm_one_hand"], "long arm fired one-handed")

        light = self.light_effect(sit)
        called = sit.called_location
        if called is not None and light.no_location:
            notes.append(f"coc-ja.sight.nvg: night-vision goggles without a reflex, dot or laser sight allow no "
                         f"aimed location shot; the shot at the {called} is an ordinary shot")
            called = None
        aim_sight = sit.sights in t["sights"]["careful_aim"]
        braced = sit.braced or sit.mounted
        wants_aim = sit.careful_aim or sit.called_location is not None
        careful = wants_aim and (braced or aim_sight) and not light.unaimed and not sit.two_guns
        if wants_aim and not careful:
            notes.append("coc-ja.aimed.careful-aim: careful aim needs a brace or a laser/scope, usable sights and "
                         "aimed fire; not possible here")

        base_range = float(nw.base_range)
        if braced or careful:
            base_range *= st["braced_range"]
            rule = "coc-ja.stance.braced" if braced else "coc-ja.aimed.careful-aim"
            notes.append(f"{rule}: base range x2 = {base_range:g} m")
        pb = point_blank(sit.DEX, careful)
        if sit.distance <= pb:
            m2 = t["point_blank"]["multiplier"]
            mult *= m2
            mod("coc-ja.range.point-blank", "multiply", m2, f"point-blank: {brief(sit.distance, 'm')} <= {brief(pb, 'm')}")
        else:
            step = _tables_ladders()["range"].step_for(sit.distance / base_range if base_range > 0 else math.inf)
            if step.native != 1:
                mult *= Fraction(1, step.native)
                mod(step.rule, "multiply", f"1/{step.native}", f"{brief(sit.distance, 'm')}, base range {brief(base_range, 'm')}: "
                    + step.label, step.source)

        mult *= light.multiply
        mods.extend(light.modifiers)

        exp_step = _tables_ladders()["exposure"].step_for(sit.exposure)
        # a called location already is a location shot (coc-ja.aimed.location below)
        low_exposure = exp_step.native < t["exposure"]["location_below"]
        if low_exposure and called is None:
            div = t["exposure"]["location_divisor"]
            mult *= Fraction(1, div)
            mod(exp_step.rule, "multiply", f"1/{div}", f"target shows {exp_step.label}: only a location can be hit",
                exp_step.source)

        if called is not None and sit.keeper_double:
            mult *= aimed["keeper_double"]
            mod("coc-ja.aimed.keeper-double", "multiply", aimed["keeper_double"], "the Keeper doubles the aimed shot")

        S = max(0, ceil(value * mult))
        autofire = sit.fire == "full auto" and sit.rounds > 1
        if big and not autofire:  # after range and the other multipliers, as the order rule puts it
            S += big
            mod("coc-ja.autofire.order", "add", big, f"large target (SIZ {sit.target_SIZ}), after the multipliers")

        # -- house-rule modifiers from other plugins ------------------------------------
        for m in extra:
            mods.append(m)
            if m.kind == "add":
                S = max(0, S + int(m.value))
            elif m.kind == "multiply":
                S = max(0, ceil(S * frac(m.value)))
            elif m.kind == "set":
                S = max(0, int(str(m.value).rstrip("%")))
            else:
                notes.append(f"{m.rule}: a {m.kind} modifier has no meaning on d100; ignored")

        # -- location, autofire, darkness cap -------------------------------------------
        # coc-ja.aimed.location: a roll <= 1/5 of the chance hits the called location (the
        # impale threshold); any other success still hits. A target showing less than half
        # of itself can be hit only there.
        T = S
        L: int | None = None  # the called location's threshold
        if called is not None and not autofire and sit.fire != "mozambique":
            L = ceil(Fraction(S, aimed["location_divisor"]))
            if low_exposure:
                T = L
                mod("coc-ja.aimed.location", "set", T, f"target shows {exp_step.label}: only the {called} can be "
                    f"hit, on <= 1/5 of {S}%")
            else:
                mod("coc-ja.aimed.location", "multiply", 1, f"{called} hit on d100 <= {L:02d} (1/5 of {S}%, "
                    "outcomes 'location'); any other success hits as an ordinary shot")
        if sit.fire == "mozambique":
            T = L = ceil(Fraction(S, t["mozambique"]["divisor"]))
            mod("coc-ja.mozambique", "set", T, f"third shot at 1/5 of {S}%: every success is a location hit and "
                "an impale")
            notes.append("coc-ja.mozambique: cost: no shot at the next DEX rank and no Dodge for the rest of the round")
        M = T
        if autofire:
            mount = "mounted" if sit.mounted else ("braced" if sit.braced else "hand-held")
            M = autofire_modified(T, sit.rounds, mount)
            mod("coc-ja.autofire.penalty", "add", M - T,
                f"{sit.rounds} rounds {mount}: -{t['autofire']['per_round'][mount]} per round after the first "
                f"(floor {t['autofire']['floor']}%)")
            if big:  # after the reduction, with the equipment bonuses (coc-ja.autofire.order)
                M, T = M + big, T + big
                mod("coc-ja.autofire.order", "add", big, f"large target (SIZ {sit.target_SIZ}), after the burst "
                    "reduction")
        if light.cap is not None:
            T, M, S = min(T, light.cap), min(M, light.cap), min(S, light.cap)
            if L is not None:
                L = min(L, T)
        if sit.fire in ("double tap", "mozambique"):
            fn = double_tap_allowed if sit.fire == "double tap" else mozambique_allowed
            why = fn(sit.skill_value, nw.shots_per_round, sit.distance, sit.DEX)
            if why:
                notes.append(f"coc-ja.{sit.fire.replace(' ', '-')}: not allowed ({'; '.join(why)})")

        # -- the roll ------------------------------------------------------------------
        outcomes: dict[str, Fraction] = {}
        if autofire:
            hits = autofire_hit_distribution(M, T, sit.rounds)
            chance = 1 - hits.get(0, Fraction(0))
            imp = self.resolve(T).critical_success
            outcomes["impale"] = imp
            outcomes["mean_hits"] = sum((h * p for h, p in hits.items()), Fraction(0))
            needs = f"d100 <= {M} (1 hit up to {T}; +1 hit per 5 under {M}; max {sit.rounds})"
            target: int = M
        else:
            res = self.resolve(T)
            chance = res.success
            # the impale threshold is 1/5 of the chance S (of the burst's unmodified chance),
            # not 1/5 of a location or Mozambique target already cut to 1/5
            if sit.fire == "mozambique":
                outcomes["impale"] = chance  # every success impales (coc-ja.mozambique)
            elif T != S:
                outcomes["impale"] = min(chance, self.resolve(S).critical_success)
            elif low_exposure and called is None:
                # only a location can be hit, on <= 1/5 of the unreduced chance: the impale
                # threshold itself, so every hit impales (as a called shot at such a target)
                outcomes["impale"] = chance
            else:
                outcomes["impale"] = res.critical_success
            if L is not None:
                outcomes["location"] = min(chance, dice.d100_at_most(L))
            needs = f"d100 <= {T}" + (", twice (double tap)" if sit.fire == "double tap" else "")
            target = T

        damage_mean = None
        damage = None
        if with_damage and cls != "thrown":
            damage_mean = float(self._damage_mean(sit, nw, T, M, chance, outcomes, hits if autofire else None))
            if not autofire and sit.fire == "single":
                damage = self._damage_distribution(sit, nw, chance, outcomes)

        mods_txt = " ".join(m.render().split(" [")[0] for m in mods)
        roll = f"roll d100 <= {target:02d}"
        if autofire:  # coc-ja.autofire.hits: one roll read against both numbers
            more = f"1 hit + 1 per 5 under {M:02d}, at most {sit.rounds}"
            roll = f"roll d100 <= {T:02d}: 1 hit; <= {M:02d}: {more}" if M < T else f"roll d100 <= {M:02d}: {more}"
        native = f"{sit.skill} {sit.skill_value}%" + (f" {mods_txt}" if mods_txt else "") + f": {roll}"
        return Check(system=self.key, stat=sit.skill, base=sit.skill_value, modifiers=mods, target=target,
                     needs=needs, chance=chance, native=native, damage_mean=damage_mean, damage=damage,
                     outcomes=outcomes, notes=notes)

    # ==== damage =======================================================================
    def damage_roll(self, sit: Situation, nw: CocWeapon) -> tuple[str, bool]:
        """The damage dice at this distance and whether armor applies per die
        (coc-ja.armor.shotgun-pellets)."""
        if sit.weapon.weapon_class == "shotgun" and nw.ammo != "slug":
            band = _tables_ladders()["shotgun.damage"].step_for(sit.distance)
            parts = nw.damage.split("/")
            if len(parts) == 2:  # a sawn-off's 4d6/1d6: its first to 5 m, its last beyond (coc-ja.damage.shotgun)
                return parts[0 if float(sit.distance) <= 5.0 else 1], nw.ammo == "shot"
            if len(parts) > 1:  # the line's own bands
                index = [st.native for st in _tables_ladders()["shotgun.damage"].steps].index(band.native)
                return parts[min(index, len(parts) - 1)], nw.ammo == "shot"
            return band.label, nw.ammo == "shot"
        return nw.damage.split("/")[0], False

    def armor_points(self, sit: Situation, location: str | None = None) -> tuple[int, list[str]]:
        """Armor A between the bullet and the target: worn armor covering the hit location
        (``location``, else the called one, else the torso) and, for a hidden target, the barrier."""
        loc = location or sit.called_location or "torso"
        total, why = 0, []
        for a in sit.armor:
            if loc in a.covers or (loc == "torso" and "vitals" in a.covers):
                A, _, step = self.armor_value(a)
                total += A
                why.append(f"{a.name}: {A} [{step.rule}]")
        if sit.barrier is not None and _tables_ladders()["exposure"].step_for(sit.exposure).native == 0:
            A, _, step, _ = self.barrier_value(sit.barrier)
            total += A
            why.append(f"{sit.barrier.thickness.to('cm'):g} cm {sit.barrier.material}: {A} [{step.rule}]")
        return total, why

    def hit_parts(self, sit: Situation, chance: Fraction, outcomes: Mapping[str, Fraction],
                  pellets: bool) -> list[tuple[Fraction, str, bool]]:
        """A single shot's hits as (probability, location, damage rolled twice): a called
        location's hits (roll <= 1/5: they are the impales, and a head shot's x2 is that
        same doubling, coc-ja.aimed.effects), impales elsewhere, ordinary hits on the torso.
        Shot pellets do not impale (assumed)."""
        loc = sit.called_location or "torso"
        if sit.fire == "mozambique":
            return [(chance, loc, not pellets)]
        imp = Fraction(0) if pellets else outcomes.get("impale", Fraction(0))
        p_loc = outcomes.get("location", Fraction(0))
        imp_rest = max(Fraction(0), imp - p_loc)
        parts = [(p_loc, loc, not pellets), (imp_rest, "torso", True), (chance - p_loc - imp_rest, "torso", False)]
        return [p for p in parts if p[0] > 0]

    def _damage_distribution(self, sit: Situation, nw: CocWeapon, chance: Fraction,
                             outcomes: Mapping[str, Fraction]) -> dict[str, str] | None:
        """Exact damage of one single shot, misses at 0: a hit rolls the damage, an impale (and
        a called location's hit) rolls it twice (coc-ja.aimed.effects); armor A of the
        location hit subtracts once. Shot pellets against armor (armor per die) have only
        their mean."""
        roll, pellets = self.damage_roll(sit, nw)
        parts = self.hit_parts(sit, chance, outcomes, pellets)
        armor = {loc: self.armor_points(sit, loc)[0] for _, loc, _ in parts}
        if pellets and any(armor.values()):
            return None
        # exact, computed once per (roll, chance, hits after armor): rules.shot_damage_distribution
        return shot_damage_distribution(roll, chance, [(w, armor[loc], doubled) for w, loc, doubled in parts])

    def _damage_mean(self, sit, nw, T, M, chance, outcomes, hits) -> Fraction:
        roll, pellets = self.damage_roll(sit, nw)
        if hits is not None:
            A, _ = self.armor_points(sit)
            if pellets:
                e1 = e2 = mean_pellets_after_armor(roll, A)  # shot does not impale (assumed)
            else:
                e1 = mean_after_armor(roll, A)
                e2 = mean_after_armor(roll, A, impale=True)
            imp = outcomes["impale"] if not pellets else Fraction(0)
            mean_hits = sum((h * p for h, p in hits.items()), Fraction(0))
            return mean_hits * e1 + imp * (e2 - e1)
        one = Fraction(0)
        for weight, loc, doubled in self.hit_parts(sit, chance, outcomes, pellets):
            A, _ = self.armor_points(sit, loc)
            e = mean_pellets_after_armor(roll, A) if pellets else mean_after_armor(roll, A, impale=doubled)
            one += weight * e
        return 2 * one if sit.fire == "double tap" else one


__all__ = ["CocRules", "action_dex", "armor_shock_chance", "armored_damage", "autofire_hit_distribution", "autofire_hits", "autofire_modified", "burst_dodge", "can_dodge", "ceil", "close_range", "conceal_size_multiplier", "conceal_value", "damage_distribution", "dazzle_chance", "dazzle_effect", "detection_chance", "dodges_per_round", "door_backfire_chance", "door_breach_chance", "double_tap_allowed", "encumbrance", "encumbrance_ladder", "frac", "in_sweep_arc", "large_target_bonus", "mean_after_armor", "mean_pellets_after_armor", "mozambique_allowed", "off_hand_chance", "parse_dice", "pellet_damage", "point_blank", "quickdraw_skill_bonus", "ready_first_cycle", "reload_rounds", "resistance", "shoot_at_light_allowed", "shot_damage_distribution", "shots_in_dex_rank", "sniper_notice_chance", "suppression_chance", "sweep_rounds", "table_ladders", "tables", "two_guns_chance", "untrained_min_rounds"]
