"""Formulas of the Japanese CoC firearms rules (the Japanese CoC firearms text) that are not
step tables: concealment, quick draw, autofire, suppression, dodge, encumbrance, light,
armor shock, shotgun pellets, door breach. Every function cites its rule ID; the numbers
come from tables.toml (loaded once by :func:`tables`).

Public: a variant or a scenario tool may import these from ``xsys.plugins.coc``.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from functools import lru_cache
from typing import Any, Iterable, Sequence

from xsys.core import dice
from xsys.core.cache import package_toml
from xsys.core.ladder import Ladder, Step
from xsys.core.percentile import frac  # a table number as an exact Fraction


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
        why.append(f"{distance_m:g} m is beyond close range ({close_range(DEX):g} m)")
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

_DICE = re.compile(r"^\s*(\d+)d(\d+)\s*$")


def parse_dice(text: str) -> tuple[list[tuple[int, int]], int]:
    """'1d10+1d4+2' -> ([(1, 10), (1, 4)], 2)."""
    groups: list[tuple[int, int]] = []
    bonus = 0
    for part in re.split(r"(?=[+-])", text.replace(" ", "")):
        if not part:
            continue
        sign = -1 if part.startswith("-") else 1
        body = part.lstrip("+-")
        m = _DICE.match(body)
        if m:
            groups.append((int(m.group(1)), int(m.group(2))))
        elif body.isdigit():
            bonus += sign * int(body)
        else:
            raise ValueError(f"not a damage roll: {text!r}")
    return groups, bonus


@lru_cache(maxsize=256)
def damage_distribution(text: str) -> dict[int, Fraction]:
    """Exact distribution of a damage roll such as '2d6+4'."""
    groups, bonus = parse_dice(text)
    dist: dict[int, Fraction] = {bonus: Fraction(1)}
    for n, sides in groups:
        d = dice.sum_distribution(n, sides)
        new: dict[int, Fraction] = {}
        for a, pa in dist.items():
            for b, pb in d.items():
                new[a + b] = new.get(a + b, Fraction(0)) + pa * pb
        dist = new
    return dist


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


__all__ = [
    "tables", "table_ladders", "frac", "ceil", "resistance", "conceal_size_multiplier", "conceal_value", "detection_chance",
    "quickdraw_skill_bonus", "action_dex", "ready_first_cycle", "reload_rounds", "off_hand_chance",
    "two_guns_chance", "autofire_modified", "autofire_hits", "autofire_hit_distribution", "large_target_bonus",
    "untrained_min_rounds", "sweep_rounds", "in_sweep_arc", "burst_dodge", "suppression_chance", "close_range",
    "point_blank", "double_tap_allowed", "mozambique_allowed", "shots_in_dex_rank", "dodges_per_round",
    "sniper_notice_chance", "can_dodge", "encumbrance_ladder", "encumbrance", "dazzle_chance", "dazzle_effect", "shoot_at_light_allowed",
    "armor_shock_chance", "pellet_damage", "armored_damage", "parse_dice", "damage_distribution",
    "shot_damage_distribution",
    "mean_after_armor", "mean_pellets_after_armor", "door_breach_chance", "door_backfire_chance",
]
