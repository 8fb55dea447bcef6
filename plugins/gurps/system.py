"""GURPS 3rd edition (Japanese Basic Set): 3d6 roll-under, the situation tables of
the GURPS 3e tables text (digest: shared/rules/gurps-3e-tables.md).

Tables are data (tables.toml: ladders; rules.toml: crit/fumble/fright/maneuver tables;
weapons.toml: assumed weapon lines); this module holds the formulas of
`gurps.ranged-attack` and the conversions native <-> neutral.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import msgspec

from xsys.core import cache, carried, dice
from xsys.core.armorline import says_helmet
from xsys.core.catalog import say_grenade, strip_entry
from xsys.core.model import capacity_of, generic_weapon
from xsys.core.dice import RollUnderBands, roll_under
from xsys.core.errors import InputError
from xsys.core.formulas import Formula, RuleNote
from xsys.core.ladder import Ladder, ladders_from_data
from xsys.core.model import Armor, Combatant, Cover, Light, MeleeWeapon, Shooter, Shot, Target, Weapon, melee_class_of
from xsys.core.equating import Tier
from xsys.core.melee import (MeleeItem, attack_check, line_skills_untrained, melee_kind, melee_skills_of, melee_skills_written,
                             reference_armor)
from xsys.core.system import CharacteristicSpec, System, percentile_ladder
from xsys.core.trace import Check, Collector, Modifier, Result, fraction_text
from xsys.core.units import Duration, Energy
from xsys.core.vocab import SHORT_ARMS, cartridge_in_name, is_sawn_off  # noqa: F401 (cartridge_in_name: kept importable from here)

from .native import NATIVE_ONLY, GurpsArmor, GurpsCarried, GurpsMelee, GurpsNpc, GurpsShot, GurpsWeapon
from . import rules

HERE = Path(__file__).parent

def _damage_origin(basis: Any) -> str:
    """Where a GURPS line's damage comes from, in the words of its loss line."""
    if basis.kind == "cartridge" and "name" in basis.said:
        return f", damage of {basis.cartridge}, the cartridge its name states (gurps.damage)"
    if basis.cartridge:
        return f", damage of {basis.cartridge} (gurps.damage)"
    if basis.entry is not None:
        return f", damage at catalog weapon {basis.entry.id}'s {basis.energy:g} J (gurps.damage)"
    return f", damage at its own {basis.energy:g} J: no catalog weapon or cartridge says more (gurps.damage)"


def _shots(weapon: Weapon) -> tuple[int, bool]:
    """The Shots a GURPS line writes: the capacity the source states, else its catalog weapon's,
    else the usual one of its class (core.model.USUAL_CAPACITY, assumed: a revolver 6, never 0);
    and whether it is that usual one."""
    if weapon.capacity:
        return int(weapon.capacity), False
    entry = _basis(weapon).entry
    if entry is not None and entry.capacity:
        return int(entry.capacity), False
    return capacity_of(weapon)


def _rof(of_class: str, weapon: Weapon) -> str:
    """gurps.weapon-stats: a weapon with no line of its own fires at its class's RoF, unless it
    fires full auto and its class does not (an automatic rifle is not a bolt-action rifle's
    RoF 1): then rounds a second, its cyclic rate / 60 (10 where none is given), marked *; and
    unless it is a rifle worked by hand (fire mode "single": a bolt or lever action), RoF 1/2."""
    if "auto" in weapon.fire_modes and "*" not in of_class:
        return f"{max(1, round(weapon.cyclic_rate / 60)) if weapon.cyclic_rate else 10}*"
    if weapon.weapon_class == "rifle" and list(weapon.fire_modes) == ["single"] and of_class == "1":
        # a rifle worked by hand between shots (a bolt or a lever: one shot a cycle) fires every
        # other turn in 3e, as the Remington 700's own row says (RoF 1/2)
        return "1/2"
    return of_class


def _basis(weapon: Weapon):
    """What decides a neutral weapon's GURPS line: its catalog weapon, else the cartridge its
    calibre or name states, else its own energy on its class's line (core.catalog.Catalog.weapon_basis)."""
    from xsys.core.registry import catalog

    return catalog().weapon_basis(weapon)


# ---- resolution ------------------------------------------------------------------------
# gurps.resolution: 3d6 <= effective skill. 3-4 always succeed (critical); 5 is critical at
# effective skill 15+, 6 at 16+; 17-18 always fail; 18 is a critical failure, 17 one below
# skill 16; a roll >= skill + 10 is a critical failure (the seed does not restate it).
# Part by part (RESOLUTION_PARTS): what the seed says and what is assumed.
RESOLUTION_PARTS: tuple[tuple[str, str, str], ...] = (
    ("target number = skill + size + speed/range + other modifiers, rolled on 3d6", "seed",
     "gurps.ranged-attack: the seed's tables are modifiers to the target number (目標値)"),
    ("a critical hit is read on gurps.crit.basic / gurps.crit.head; a fumble on the fumble tables", "seed",
     "the seed's critical and fumble tables"),
    ("3-4 always succeed (critical); 5 critical at 15+, 6 at 16+", "assumed",
     "standard 3e; the seed gives no critical bands"),
    ("17-18 always fail; 18 a critical failure, 17 one below 16; skill + 10 or more a critical failure",
     "assumed", "standard 3e; the seed says 17-18 fumble only for yojutsu rolls"),
)
BANDS = RollUnderBands(
    dice=3, sides=6, auto_success=4, crit_success_at={5: 15, 6: 16}, auto_fail=17,
    crit_fail_rolls=frozenset({18}), crit_fail_below={17: 16}, crit_fail_margin=10,
)

MAX_AIM_TURNS = 100  # GurpsShot.aim_turns' upper bound
TURN_SECONDS = 1.0  # assumed: a GURPS turn is one second (core unit gurps_turn)
KMH_PER_MPS = 3.6
HEX = Fraction(1)  # one hex = 1 m (gurps.maneuvers: Step and Attack moves 1 hex)
STEP_SPEED = HEX / Fraction(1)  # 1 hex per 1 s turn: Step and Attack, the attack is normal


@lru_cache(maxsize=8192)  # the same distances, speeds and table rows come back on every check
def exact(x: float) -> Fraction:
    """A measured float as the exact number it was written as (5 m, 30 km/h -> 25/3 m/s ...):
    the nearest fraction with a denominator up to 10^6, so that table lookups do not fall
    past a row on a rounding error (5 m + 30 km/h / 3 is the 15 m row, not 20 m)."""
    return Fraction(float(x)).limit_denominator(1_000_000)


def ssr_index(lad: Ladder, value: Fraction) -> int:
    """gurps.ssr, "round up to the next row", in exact arithmetic: the first row >= value."""
    ats = _exact_rows(lad)
    return min(bisect_left(ats, value), len(ats) - 1)


@lru_cache(maxsize=64)
def _exact_rows(lad: Ladder) -> tuple[Fraction, ...]:
    return tuple(exact(st.at) for st in lad.steps)


def speed_value(speed_mps: float) -> Fraction:
    """gurps.ssr's speed column in the text's "m/s": km/h / 3, exactly."""
    return exact(float(speed_mps) * KMH_PER_MPS) / 3


def success(effective: int) -> Fraction:
    """P(3d6 <= effective) with the 3e critical bands (gurps.resolution)."""
    return roll_under(int(effective), BANDS).success


# ---- data ------------------------------------------------------------------------------

def _toml(name: str) -> dict[str, Any]:
    return cache.package_toml(__package__, name)


@lru_cache(maxsize=None)
def table_ladders() -> dict[str, Ladder]:
    return ladders_from_data(_toml("tables.toml"), str(HERE / "tables.toml"))


def rule_tables() -> dict[str, dict[str, Any]]:
    """The data tables of rules.toml by rule ID (gurps.crit.basic, gurps.fright ...)."""
    return _toml("rules.toml")["table"]


@lru_cache(maxsize=None)
def _formulas() -> tuple[Formula, ...]:
    """The formulas of this module's rules (formulas.py, given this module: no import circle)."""
    import sys

    from .formulas import build

    return tuple(build(sys.modules[__name__]))


def lookup(rule: str, key: int | str) -> dict[str, Any]:
    """A row of a data table: by 3d6 roll (or 3d6 + margin for gurps.fright) or by key.
    ``lookup("gurps.crit.basic", 10)["effect"] == "Normal damage"``."""
    table = rule_tables().get(rule)
    if table is None:
        raise InputError("unknown GURPS table", expected="one of " + ", ".join(sorted(rule_tables())),
                         found=repr(rule))
    for row in table["rows"]:
        if "key" in row and row["key"] == key:
            return row
        if isinstance(key, int) and not isinstance(key, bool):
            if row.get("roll") == key or (row.get("from", 99) <= key <= row.get("to", -99)):
                return row
    raise InputError(f"{rule}: no row for {key!r}", found=repr(key))


def row_modifier(rule: str, key: str, field: str = "modifier") -> int:
    return int(lookup(rule, key)[field])


# ---- population of attributes (gurps.population, assumed) ------------------------------

@lru_cache(maxsize=None)
def attribute_distribution() -> dict[int, Fraction]:
    """Ordinary adults: 10 + 8dF (eight dice of -1/0/+1): mean 10, s.d. 2.3, 2..18."""
    dist = {0: Fraction(1)}
    for _ in range(8):
        nxt: dict[int, Fraction] = {}
        for v, p in dist.items():
            for d in (-1, 0, 1):
                nxt[v + d] = nxt.get(v + d, Fraction(0)) + p / 3
        dist = nxt
    return {10 + v: p for v, p in sorted(dist.items())}


ATTRIBUTES = {"ST": "strength", "DX": "dexterity", "IQ": "intelligence", "HT": "constitution"}
DERIVED = ("HP", "Will", "Per", "Move", "Dodge")
# Derived values carried as neutral values of their own, not as offsets kept for GURPS:
# Will and Per as the will and perception characteristics, Dodge as the dodge (gurps.dodge).
MINDS = {"Will": "will", "Per": "perception"}
# gurps.melee (assumed): a close-combat weapon known only by its class, as the 3e Basic Set
# weapon table gives its line: skill, damage as thrust or swing plus an add (so the wielder's
# own ST sets the dice, thrust_swing), damage type; ST 10 lines in the comment
MELEE_LINES = {"unarmed": ("Brawling", "thr", -2, "cr"),       # punch: 1d-4
               "knife": ("Knife", "sw", -2, "cut"),            # 1d-2
               "club": ("Axe/Mace", "sw", 1, "cr"),            # 1d+1
               "sword": ("Broadsword", "sw", 1, "cut"),        # 1d+1
               "axe": ("Axe/Mace", "sw", 2, "cut"),            # 1d+2
               "spear": ("Spear", "thr", 2, "imp"),            # 1d
               "improvised": ("Axe/Mace (improvised)", "sw", 0, "cr")}  # 1d


# gurps.melee (assumed, the Basic Set's weapon tables; the seed names reach C, 1, 2 and 3 but
# lists no weapon): the reach of each class's weapon. A fist reaches only the hex one stands in
# and the next (C); a knife C or 1; a club, sword, axe, spear or improvised weapon held in one
# hand 1.
MELEE_REACH = {"unarmed": "C", "knife": "C,1", "club": "1", "sword": "1", "axe": "1", "spear": "1",
               "improvised": "1"}
# the skill a melee line that names none is wielded with, by the class its name says
_GURPS_MELEE_SKILL = {"unarmed": "Brawling", "knife": "Knife", "club": "Axe/Mace", "sword": "Broadsword",
                      "axe": "Axe/Mace", "spear": "Spear", "improvised": "Axe/Mace"}


def melee_parry(skill: str, level: int) -> int:
    """gurps.melee (assumed; 3e, not in the seed): the parry a close-combat skill gives, half the
    skill rounded down; Brawling's bare-handed parry two thirds of it (as gurps.dodge reads the
    median adult's, MEDIAN_PARRY); a knife, a poor parrying weapon, one less than half."""
    if skill in ("Brawling", "Karate", "Boxing"):
        return (2 * level) // 3
    return level // 2 - (1 if skill == "Knife" else 0)


def _melee_dicts(lines: Any) -> dict[str, Any]:
    """Carried close-combat lines as melee-table lines: a line carried before melee had a table of
    its own is a weapon line (Acc, RoF, Shots ...): its melee fields are kept, the rest dropped."""
    if not isinstance(lines, dict):
        return {}
    keep = ("name", "skill", "damage", "dice", "type", "reach", "parry")
    return {k: {f: v for f, v in line.items() if f in keep} if isinstance(line, dict) else line
            for k, line in lines.items()}


def melee_damage(cls: str, st: int) -> str:
    """gurps.melee (assumed): a class line's damage dice for a wielder of ST `st`."""
    _, base, add, _ = MELEE_LINES[cls]
    thr, sw = thrust_swing(st)
    return dice_text((thr if base == "thr" else sw) + add)
CARRIED = ("Will", "Per", "Dodge", "HP")
# Close combat (core.melee): the skills, the median adult's defences (gurps.dodge:
# Dodge = Move = (HT + DX) / 4 = 5; a bare-handed parry 2/3 of an untrained DX 10, rounded
# down, assumed) and 3e thrust/swing damage by ST (Basic Set table, not in the seed; assumed),
# as dice codes (4 x dice + adds).
# gurps.melee: the weapon a close-combat skill wields when no line says (Axe/Mace names two:
# the club, a modern NPC's baton, cosh or cargo hook, is taken; assumed)
SKILL_MELEE_CLASS = {"Axe/Mace": "club", "Staff": "club"}
CLOSE_COMBAT = frozenset({"Brawling", "Knife", "Axe/Mace", "Broadsword", "Shortsword", "Spear", "Staff"})
MEDIAN_DODGE = 5
MEDIAN_PARRY = 6
_THR_SW = {1: ("1d-6", "1d-5"), 2: ("1d-6", "1d-5"), 3: ("1d-5", "1d-4"), 4: ("1d-5", "1d-4"), 5: ("1d-4", "1d-3"),
           6: ("1d-4", "1d-3"), 7: ("1d-3", "1d-2"), 8: ("1d-3", "1d-2"), 9: ("1d-2", "1d-1"), 10: ("1d-2", "1d"),
           11: ("1d-1", "1d+1"), 12: ("1d-1", "1d+2"), 13: ("1d", "2d-1"), 14: ("1d", "2d"), 15: ("1d+1", "2d+1"),
           16: ("1d+1", "2d+2"), 17: ("1d+2", "3d-1"), 18: ("1d+2", "3d"), 19: ("2d-1", "3d+1"), 20: ("2d-1", "3d+2")}


def thrust_swing(st: int) -> tuple[int, int]:
    """3e thrust and swing damage of ST as dice codes (past ST 20: +1 die of each per 4 ST
    beyond; assumed)."""
    st = max(1, int(st))
    if st <= 20:
        thr, sw = _THR_SW[st]
        return dice_code(thr), dice_code(sw)
    extra = 4 * ((st - 20 + 3) // 4)
    return dice_code("2d-1") + extra, dice_code("3d+2") + extra


def _melee_class(w: GurpsWeapon | GurpsMelee) -> str:
    """A close-combat weapon's class by its name, else its skill; Axe/Mace by its damage type."""
    cls = melee_class_of(w.name, w.skill or "")
    if cls in ("axe", "club") and "axe/mace" in (w.skill or "").lower() and melee_class_of(w.name) == "improvised":
        return "axe" if w.type == "cut" else "club"
    return cls  # HP as the neutral toughness (HP / HT)


def derive(ST: int, DX: int, IQ: int, HT: int, offsets: Mapping[str, int] | None = None) -> dict[str, int]:
    """gurps.derived (3e): HP = HT, Will = IQ, Per = IQ, Move = (HT + DX) / 4 rounded down,
    Dodge = Move; `offsets` are a stat block's own differences (advantages)."""
    o = offsets or {}
    move = (HT + DX) // 4 + o.get("Move", 0)
    return {"HP": HT + o.get("HP", 0), "Will": IQ + o.get("Will", 0), "Per": IQ + o.get("Per", 0),
            "Move": move, "Dodge": move + o.get("Dodge", 0)}


# ---- skills ----------------------------------------------------------------------------

SKILLS: dict[str, tuple[str, ...]] = {
    "Guns (Pistol)": ("handgun",), "Guns (Rifle)": ("rifle",), "Guns (Shotgun)": ("shotgun",),
    "Guns (SMG)": ("smg",), "Guns (Machine Gun)": ("machine_gun",), "Throwing": ("throw",),
    "Vision": ("spot",), "Hearing": ("listen",), "Stealth": ("stealth",), "Holdout": ("conceal",),
    "Lockpicking": ("locksmith",), "Brawling": ("brawl",), "Knife": ("melee",),
    # every 3e melee weapon skill holds the neutral melee (the best crosses, core.melee)
    "Axe/Mace": ("melee",), "Broadsword": ("melee",), "Shortsword": ("melee",), "Spear": ("melee",),
    "Staff": ("melee",), "Running": ("athletics",),
    "First Aid": ("first_aid",), "Driving": ("drive",), "Climbing": ("climb",), "Swimming": ("swim",),
    "Jumping": ("jump",), "Tracking": ("track",),
    "Research": ("research",), "Psychology": ("psychology",), "Diplomacy": ("persuade",),
    "Intimidation": ("intimidate",),
}
# gurps.defaults (3e Basic Set, not in the seed; assumed): what a character rolls untrained, from
# his own attribute. Vision and Hearing are sense rolls on Per; guns default to DX-4, Throwing to
# DX-3, Brawling to DX, Knife to DX-4 and the other melee weapons to DX-5; the other skills to
# DX-5, IQ-5, HT-5, First Aid to IQ-4 and Swimming to DX-4; Jumping, which the Basic Set gives no
# default roll, is read like the other athletic skills (DX-5). Research and Intimidation (mental,
# average) default to IQ-5, Psychology and Diplomacy (mental, hard) to IQ-6.
DEFAULT_OF: dict[str, tuple[str, int]] = {
    "Guns (Pistol)": ("DX", -4), "Guns (Rifle)": ("DX", -4), "Guns (Shotgun)": ("DX", -4), "Guns (SMG)": ("DX", -4),
    "Guns (Machine Gun)": ("DX", -4), "Throwing": ("DX", -3), "Brawling": ("DX", 0), "Knife": ("DX", -4),
    "Axe/Mace": ("DX", -5), "Broadsword": ("DX", -5), "Shortsword": ("DX", -5), "Spear": ("DX", -5), "Staff": ("DX", -5),
    "Vision": ("Per", 0), "Hearing": ("Per", 0), "Stealth": ("DX", -5), "Holdout": ("IQ", -5),
    "Lockpicking": ("IQ", -5), "Running": ("HT", -5), "First Aid": ("IQ", -4), "Driving": ("DX", -5),
    "Climbing": ("DX", -5), "Swimming": ("DX", -4), "Jumping": ("DX", -5), "Tracking": ("IQ", -5),
    "Research": ("IQ", -5), "Psychology": ("IQ", -6), "Diplomacy": ("IQ", -6), "Intimidation": ("IQ", -5)}
# the same at median attributes (10): the untrained anchor of a skill with no battery
SKILL_DEFAULTS = {k: 10 + off for k, (_, off) in DEFAULT_OF.items()}
SKILL_CLASS = {"Guns (Pistol)": "handgun", "Guns (Rifle)": "rifle", "Guns (Shotgun)": "shotgun",
               "Guns (SMG)": "smg", "Guns (Machine Gun)": "mg", "Throwing": "thrown"}
# Words of a ranged-weapon skill this plugin does not list ("Guns (Light Auto)", "Guns/TL7
# (Sniper Rifle)"), first match wins (assumed, README): the class it fires.
SKILL_WORDS = (("launcher", "rifle"), ("machine", "mg"), ("light auto", "smg"), ("smg", "smg"), ("submachine", "smg"),
               ("shotgun", "shotgun"), ("carbine", "carbine"), ("rifle", "rifle"), ("musket", "rifle"),
               ("revolver", "revolver"), ("pistol", "handgun"), ("handgun", "handgun"), ("grenade", "thrown"),
               ("throw", "thrown"))


def class_of_skill(skill: str, acc: int = 0) -> str | None:
    """The weapon class a Guns or Throwing skill not in SKILL_CLASS fires (None: not a
    ranged weapon): the class its words name, else a pistol's Accuracy (up to 3) a handgun
    and any other a rifle (gurps.weapon-stats, assumed)."""
    low = skill.lower()
    if "gun" not in low and "throw" not in low and "grenade" not in low:
        return None
    for word, cls in SKILL_WORDS:
        if word in low:
            return cls
    return "handgun" if acc <= 3 else "rifle"


CLASS_SKILL = {"handgun": "Guns (Pistol)", "revolver": "Guns (Pistol)", "smg": "Guns (SMG)",
               "carbine": "Guns (Rifle)", "rifle": "Guns (Rifle)", "shotgun": "Guns (Shotgun)",
               "mg": "Guns (Machine Gun)", "thrown": "Throwing"}
SKILL_LEVELS = range(0, 41)
# Dodge (gurps.derived: = Move, (HT + DX) / 4) is an active defense rolled on 3d6 like a
# skill; a stat block prints it from 0 up (Move 15 would take DX and HT near 30).
DODGE_LEVELS = range(0, 16)
# gurps.dodge (assumed, README): the ordinary dodge of a close attack the defender sees
# coming is Dodge + 3 for stepping back (3e's retreat), with no passive defense (unarmored).
RETREAT = 3

# ---- situations ------------------------------------------------------------------------

EXPOSURE_MOD = {"full": 0, "light_cover": -2, "half": -3, "head_shoulders": -4, "head_only": -5, "hidden": -7}
EXPOSURE_KEY = {v: k for k, v in EXPOSURE_MOD.items()}
TARGET_POSTURE_ROW = {"crouching": "tgt_low", "kneeling": "tgt_low", "sitting": "tgt_low",
                      "crawling": "tgt_crawl_prone", "prone": "tgt_crawl_prone"}
# Called shots: neutral location -> gurps.hit-location key, and back.
LOCATION_TO_NATIVE = {
    "head": "head", "skull": "head", "eye": "eye", "face": "face", "jaw": "jaw", "nose": "nose",
    "neck": "throat", "throat": "throat", "torso": "torso", "vitals": "vitals", "groin": "groin",
    "arm": "arm_near", "arms": "arm_near", "hand": "hand_random", "hands": "hand_random",
    "weapon": "weapon", "leg": "leg_near", "legs": "leg_near", "foot": "foot_random", "feet": "foot_random",
}
LOCATION_TO_NEUTRAL = {
    "head": "head", "face": "face", "eye": "eye", "eye_helmet_gap": "eye", "jaw": "jaw", "nose": "nose",
    "throat": "throat", "arm_far": "arm", "hand_random": "hand", "hand_far": "hand", "arm_near": "arm",
    "torso": "torso", "leg_far": "leg", "leg_near": "leg", "foot_random": "foot", "vitals": "vitals",
    "kidneys": "vitals", "groin": "groin", "weapon": "weapon", "disarm": "weapon",
}
LOSSY_LOCATIONS = {"eye_helmet_gap", "arm_far", "hand_far", "leg_far", "kidneys", "disarm"}
# Which armor `covers` entries protect a hit on a location (assumed: plates over the torso
# protect the torso as well as the vitals).
COVERED_BY = {
    "torso": {"torso", "vitals"}, "vitals": {"torso", "vitals"}, "groin": {"groin"},
    "head": {"head", "skull"}, "skull": {"head", "skull"}, "face": {"face"}, "eye": {"face", "eye"},
    "jaw": {"face"}, "nose": {"face"}, "neck": {"neck"}, "throat": {"neck"},
    "arm": {"arm", "arms"}, "arms": {"arm", "arms"}, "hand": {"hand", "hands"}, "hands": {"hand", "hands"},
    "leg": {"leg", "legs"}, "legs": {"leg", "legs"}, "foot": {"foot", "feet"}, "feet": {"foot", "feet"},
    "weapon": set(),
}
ARMOR_LOCATIONS = {"head": "head", "skull": "head", "face": "face", "eye": "face", "neck": "neck",
                   "throat": "neck", "torso": "torso", "vitals": "vitals", "groin": "groin",
                   "arm": "arms", "arms": "arms", "hand": "hands", "hands": "hands", "leg": "legs",
                   "legs": "legs", "foot": "feet", "feet": "feet"}
# gurps.hit-location (assumed reading): armor whose name says it is a helmet covers the head
# (xsys.core.armorline.says_helmet, one reading for every system).

# gurps.pd (assumed, README "PD"): the passive defense of armor no source rates, by kind: 3e's
# modern body armour PD 2, a helmet's hard shell 3, a garment's leather or cloth 1, hide 0. A piece
# of no kind counts as body armour when it stops a bullet (at least NIJ I's .380 ACP, 321 J).
PD_BY_KIND = {"soft-vest": 2, "plate": 2, "plate-carrier": 2, "helmet": 3, "garment": 1, "natural": 0}
BULLET_RESISTANT_J = 321.0


def passive_defense(a: Armor) -> tuple[int, str | None]:
    """PD of a neutral armor piece (gurps.pd): its deflection where one is stated (a GURPS sheet's
    PD, its catalog item's); else assumed by kind, with the reason (None: stated)."""
    if a.deflection is not None:
        return int(a.deflection), None
    if a.kind == "helmet" or says_helmet(a.name):
        return PD_BY_KIND["helmet"], "a helmet's hard shell"
    if a.kind in PD_BY_KIND:
        return PD_BY_KIND[a.kind], f"a {a.kind}"
    if float(a.stops) >= BULLET_RESISTANT_J:
        return PD_BY_KIND["soft-vest"], f"no kind, but it stops {float(a.stops):g} J (a bullet): body armour"
    return 0, "no kind, and nothing says it is hard"


def armor_covers(a: Armor) -> tuple[list[str], bool]:
    """What a neutral armor piece covers for GURPS, and whether that was read from what it is:
    a helmet (kind "helmet", or a name that says so) left on the neutral default, the torso
    alone, covers the head (gurps.hit-location, assumed); anything else as it says."""
    covers = list(a.covers)
    if covers == ["torso"] and (a.kind == "helmet" or says_helmet(a.name)):
        return ["head"], True
    return covers, False


# gurps.derived: a Strong Will / Weak Will entry of a stat block and its level ("Strong Will +2",
# "Weak Will -1", "Strong Will 3"; no number: 1)
WILL_TRAIT = re.compile(r"^(strong|weak) will(?:\s*([+-]?\d+))?$", re.IGNORECASE)
HP_TRAIT = re.compile(r"^(extra|reduced) hit points(?:\s*([+-]?\d+))?$", re.IGNORECASE)
DODGE_TRAIT = re.compile(r"^(combat reflexes|enhanced dodge)(?:\s*([+-]?\d+))?$", re.IGNORECASE)


def _plus_minus(plus: str, minus: str) -> Callable[[int], tuple[list[str], list[str]]]:
    """The trait of a derived value `diff` levels off its rule: "plus +N" an advantage, "minus -N"
    a disadvantage, nothing at 0."""
    return lambda diff: ([f"{plus} +{diff}"], []) if diff > 0 else ([], [f"{minus} {diff}"]) if diff < 0 else ([], [])


def _signed_level(pattern: re.Pattern[str], minus: str) -> Callable[[str], int | None]:
    """The levels a trait entry matching `pattern` (group 1 its word, group 2 its level) adds:
    negative where the word is `minus` ("Weak Will -2"); None for another entry."""
    def level_of(entry: str) -> int | None:
        m = pattern.match(entry.strip())
        if not m:
            return None
        n = int(m.group(2) or 1)
        return -abs(n) if m.group(1).lower() == minus else abs(n)
    return level_of


def _offset_traits(said: str, diff: int, traits: Callable[[int], tuple[list[str], list[str]]],
                   level_of: Callable[[str], int | None], names: str, advantages: list[str],
                   disadvantages: list[str], col: Collector, verbatim: bool,
                   path: str | None = None) -> tuple[list[str], list[str]]:
    """The advantages and disadvantages that account for a derived value `diff` levels off the
    3e rule (`said` says which): entries `level_of` reads (the traits of this kind) are replaced
    by ``traits(diff)``, in an ``assumed`` loss; a sheet whose entries already add up to `diff`
    is left as it is. `verbatim`: the lists are a GURPS stat block's own, carried back
    (xsys.core.carried), and stay as they were; what they do not account for is said. `path`:
    where the loss is (the neutral value the trait stands for), else the trait lists."""
    found = [(lst, i) for lst in (advantages, disadvantages) for i, e in enumerate(lst) if level_of(e) is not None]
    if sum(level_of(lst[i]) or 0 for lst, i in found) == diff:
        return advantages, disadvantages  # already says it
    stale = [lst[i] for lst, i in found]
    if verbatim:
        col.loss("assumed", path or "$.advantages", f"{said}, but the carried GURPS traits say "
                 f"{', '.join(stale) if stale else 'neither'}; they are written as carried", "gurps.derived")
        return advantages, disadvantages
    add, drop = traits(diff)
    adv = [e for e in advantages if level_of(e) is None] + add
    dis = [e for e in disadvantages if level_of(e) is None] + drop
    want = ", ".join(add + drop)
    what = f"the sheet says {want}" if want else f"the sheet has no {names}"
    col.loss("assumed", path or ("$.disadvantages" if drop and not add else "$.advantages"),
             f"{said}, so {what}" + (f" (in place of {', '.join(stale)})" if stale else ""), "gurps.derived")
    return adv, dis
AIM_EXTRA = {1: 0, 2: 1, 3: 2}  # gurps.ranged-modifiers aim_2..aim_4 (max +3)
LIGHT_AIDS = {"weapon-light", "hand-light"}
NV_AIDS = {"nv-goggles", "thermal-goggles"}
NV_SIGHTS = {"nv-sight", "thermal"}

_DICE = re.compile(r"^(\d+)d([+-]\d+)?$")


def dice_code(text: str) -> int:
    """'2d+2' -> 10 (4 x dice + adds), the native of the `damage` ladder."""
    m = _DICE.match(text)
    if not m:
        raise InputError("not GURPS damage dice", expected="e.g. '2d+2'", found=repr(text))
    return 4 * int(m.group(1)) + int(m.group(2) or 0)


def dice_text(code: int) -> str:
    n = max(1, (code + 1) // 4)
    a = code - 4 * n
    return f"{n}d" if a == 0 else f"{n}d{a:+d}"


def damage_distribution(code: int) -> dict[int, Fraction]:
    n = max(1, (code + 1) // 4)
    a = code - 4 * n
    return {v + a: p for v, p in dice.sum_distribution(n, 6).items()}


@dataclass(frozen=True)
class WeaponStats:
    """What a GURPS weapon line adds to a neutral weapon (gurps.weapon-stats)."""

    skill: str
    damage: int  # dice code
    Acc: int
    SS: int | None
    RoF: str
    ST: int | None
    source: str  # "seed" when from a native weapon line, else "assumed"
    origin: str
    half_D: int | None = None  # metres
    Max: int | None = None
    reach_origin: str = ""  # the weapons.toml row 1/2D and Max come from


def effective_distance(distance: float | Fraction, elevation: float | Fraction) -> Fraction:
    """gurps.height: shooting down (elevation > 0), -1 m per full 2 m higher, never below half
    the distance; shooting up (elevation < 0), +1 m per full 1 m lower (exact arithmetic)."""
    d = distance if isinstance(distance, Fraction) else exact(distance)
    e = elevation if isinstance(elevation, Fraction) else exact(elevation)
    if e > 0:
        return max(d - math.floor(e / 2), d / 2)
    if e < 0:
        return d + math.floor(-e)
    return d


# gurps.hit-location: where a roll of exactly one more than the target number lands instead
# of missing (the seed's redirection rows). vitals: only for a gun or impaling weapon;
# head and face: only for a swung weapon (never a gun); throat, kidneys: any attack.
MISS_BY_1 = {"vitals": "torso", "throat": "torso", "kidneys": "torso", "jaw": "face", "nose": "face",
             "groin": "leg_near"}
# gurps.hit-location: limbs ignore damage beyond the crippling amount (HT/2 arm and leg,
# HT/3 hand and foot).
LIMB_CAP = {"arm_far": Fraction(1, 2), "arm_near": Fraction(1, 2), "leg_far": Fraction(1, 2),
            "leg_near": Fraction(1, 2), "hand_random": Fraction(1, 3), "hand_far": Fraction(1, 3),
            "foot_random": Fraction(1, 3)}
CRUSHING_X15 = {"throat", "kidneys"}  # 喉「叩きは1.5倍」, 腎臓「叩きダメージは1.5倍」
POP_UP_EXPOSURE = 0.5  # a shooter popping out of cover shows about half of himself (assumed)
# Barrier materials one sees through (catalog ids): a target wholly behind a window or
# bullet-resistant glazing is seen, not shot at blind (assumed; the text has no glass).
SEE_THROUGH = frozenset({"window-glass", "bulletproof-glass"})
# gurps.hit-location keys on the head, and the cover rows of gurps.ranged-modifiers under which
# the head shows ("only the head visible -5 (the same as aiming at the head)")
HEAD_PARTS = frozenset({"head", "face", "eye", "eye_helmet_gap", "jaw", "nose"})
HEAD_SHOWS = frozenset({"tgt_head_only", "tgt_head_shoulders"})


def behind_see_through(barrier: Any, exposure_row: int) -> bool:
    """Whether a target wholly behind its barrier (the `exposure` ladder's hidden row) is seen
    through it (SEE_THROUGH, assumed)."""
    return barrier is not None and barrier.material in SEE_THROUGH and exposure_row == EXPOSURE_MOD["hidden"]
STANDARD_HT = 10  # the target's HT when the shot does not say (gurps.population: the average adult)


# GURPS 3e skill levels as players read them (assumed, not in the seed's tables): the default
# from DX (DX-4: 6 for DX 10), 10-11 amateur, about 12 competent, 14 expert, 16+ master.
GURPS_TIERS = ((0, "default (DX-4)", 0, 6), (1, "amateur", 10, 10), (2, "competent", 12, 12),
               (3, "expert", 14, 14), (4, "master", 16, 16))


def _roll_text(tn: int) -> str:
    """What the table rolls for target number `tn` (gurps.resolution: 3d6, a 3 or 4 always
    hits, a 17 or 18 always misses)."""
    if tn < BANDS.auto_success:
        return f"target {tn}: only a 3 or 4 hits (they always do)"
    if tn >= BANDS.auto_fail:
        return f"target {tn}: roll 16 or less (a 17 or 18 always misses)"
    return f"roll {tn} or less"


# What each modifier of a check is, in the words a GM says at the table (the floor line below).
REASON_WORDS = {
    "gurps.height.shoot_down": "shooting down", "gurps.height.shoot_up": "shooting up",
    "gurps.ranged-modifiers.nearsighted": "nearsightedness", "gurps.ranged-modifiers.blind_fire": "firing blind",
    "gurps.ranged-modifiers.tgt_hidden": "a target almost hidden",
    "gurps.ranged-modifiers.tgt_head_only": "only the head showing",
    "gurps.ranged-modifiers.tgt_head_shoulders": "only head and shoulders showing",
    "gurps.ranged-modifiers.tgt_half": "half the target hidden",
    "gurps.ranged-modifiers.tgt_light_cover": "light cover", "gurps.ranged-modifiers.tgt_low": "a low target",
    "gurps.ranged-modifiers.tgt_crawl_prone": "a prone target",
    "gurps.ranged-modifiers.tgt_behind_char": "characters in the way",
    "gurps.hit-modifiers.darkness": "darkness", "gurps.hit-modifiers.poor_light": "poor light",
    "gurps.maneuvers.move": "moving while firing", "gurps.ranged-modifiers.pop_up": "the pop-up",
    "gurps.hit-modifiers.off_hand": "the off hand", "gurps.hit-modifiers.low_st": "low ST",
    "gurps.hit-modifiers.in_water": "water", "gurps.hit-modifiers.one_eye": "one eye",
    "gurps.hit-modifiers.bad_footing": "bad footing", "gurps.hit-modifiers.shock": "shock",
    "gurps.ranged-modifiers.of_check": "checking the target",
    "gurps.ranged-modifiers.unfamiliar_same_type": "an unfamiliar gun",
    "gurps.ranged-modifiers.unknown_weapon": "an unknown weapon",
    "gurps.ranged-modifiers.bad_condition": "the weapon's poor condition", "gurps.ranged-modifiers.brace": "bracing",
}
_BELOW_SS = re.compile(r"below SS (\d+)")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _reason(m: Modifier) -> str | None:
    """One modifier as "-7 for range (25 m)" (None: it changes nothing)."""
    v = m.value
    if m.kind != "add" or not isinstance(v, int) or isinstance(v, bool):
        return f"{m.value} ({m.why or m.rule})" if m.kind != "set" else None
    if not v:
        return None
    rule = m.rule
    if rule == "gurps.ssr":
        if m.why.startswith("size"):
            words = "size"
        else:  # "speed/range: 17 m + speed 9.72 km/h / 3 = 3.24 -> 30 m row"
            nums = [float(x) for x in _NUMBER.findall(m.why.split(": ", 1)[-1].split(" -> ")[0])]
            words = f"range ({nums[0]:.3g} m)" if len(nums) < 2 else \
                f"range and speed ({nums[0]:.3g} m, {nums[1]:.3g} km/h)"
    elif rule == "gurps.ranged-modifiers.snap_shot":
        ss = _BELOW_SS.search(m.why)
        words = "the snap shot (unaimed, below SS " + (ss.group(1) if ss else "?") + ")"
    elif rule.startswith("gurps.ranged-modifiers.aim_"):
        words = "aiming"
    elif rule.startswith("gurps.ranged-modifiers.of_"):
        words = "opportunity fire"
    elif rule in ("gurps.ranged-modifiers.tgt_low", "gurps.ranged-modifiers.tgt_crawl_prone"):
        words = f"the {m.why.removeprefix('target ')} target"
    elif rule.startswith("gurps.posture."):
        words = f"firing {rule.rsplit('.', 1)[-1]}"
    elif rule.startswith("gurps.hit-location."):
        words = f"aiming at the {rule.rsplit('.', 1)[-1].replace('_', ' ')}"
    else:
        words = REASON_WORDS.get(rule, m.why or rule)
    return f"{v:+d} for {words}"


def floor_text(mods: Sequence[Modifier], tn: int) -> str:
    """Why a target number of 4 or less leaves only the 3 and 4 that always hit (gurps.resolution),
    in a GM's words: "needs 3 or 4: -7 for range (25 m), -3 for poor light and -4 for the snap shot
    (unaimed, below SS 10) leave an effective skill of -3"."""
    parts = [r for r in (_reason(m) for m in mods) if r]
    said = ", ".join(parts[:-1]) + f" and {parts[-1]}" if len(parts) > 1 else "".join(parts)
    return f"needs 3 or 4 (they always hit): {said} leave an effective skill of {tn}" if parts else \
        f"needs 3 or 4 (they always hit): effective skill {tn}"


class Gurps(System):
    key = "gurps"
    name = "GURPS"
    edition = "3rd edition (Japanese Basic Set)"
    dice = "3d6 roll-under"
    rule_prefix = "gurps."
    npc_type = GurpsNpc
    shot_type = GurpsShot

    def __init__(self, settings: Any = None) -> None:
        super().__init__(settings)
        self._lad = table_ladders()
        self._attr = percentile_ladder("attribute", attribute_distribution(), "gurps.population", "assumed")

    # ---- tables ------------------------------------------------------------------------
    def text_layout(self) -> Any:
        """Plain-text stat blocks: the GURPS block (text.py)."""
        from .text import GurpsText  # the block's reader is loaded when a block is read

        return GurpsText(self.key, thrust_swing, dice_text)

    def ladders(self) -> dict[str, Ladder]:
        return {**self._lad, "attribute": self._attr}

    def ladder(self, name: str) -> Ladder:
        return self.ladders()[name]

    def characteristics(self) -> dict[str, CharacteristicSpec]:
        return {k: CharacteristicSpec(v, self._attr) for k, v in ATTRIBUTES.items()}

    def skills(self) -> dict[str, tuple[str, ...]]:
        return dict(SKILLS)

    # ---- skills: levels, the unmodified roll, the check at a level (equating: core) ----
    standard_health = 10.0  # HP = HT, and HT 10 is the average adult (gurps.derived, gurps.population)
    health_rule = "gurps.derived"
    health_field = "HP"
    health_formula = "HP = HT"
    health_range = (1, 60)
    # The levels' results come from the check, whose modifiers are the seed's, but whose
    # critical bands (gurps.resolution: 3-4 / 17-18 ...) and battery weapons are assumed.
    skill_source = "assumed"

    def derived_characteristics(self) -> dict[str, str]:
        return {neutral: f for f, neutral in MINDS.items()}  # gurps.derived: Will and Per

    def derived_skills(self) -> dict[str, str]:
        return {"dodge": "Dodge"}  # gurps.derived: Dodge is on every stat block, not a skill

    def sheet_derived(self, npc: Any) -> dict[str, tuple[Any, str]]:
        """HP, Will, Per, Move and Dodge by gurps.derived where the block leaves them out (a
        fan-site 3e block often prints attributes only): a GURPS sheet always shows them. The
        traits that change them (the 3e names the writer itself uses: Extra Hit Points, Strong
        or Weak Will, Alertness, Combat Reflexes, Enhanced Dodge) are counted."""
        if not all(isinstance(getattr(npc, a, None), int) for a in ("ST", "DX", "IQ", "HT")):
            return {}
        offsets: dict[str, int] = {}
        for trait in [*getattr(npc, "advantages", []), *getattr(npc, "disadvantages", [])]:
            m = re.fullmatch(r"\s*(Extra Hit Points|Hit Points|Strong Will|Weak Will|Alertness|Enhanced Dodge)"
                             r"\s*([+-]?\d+)\s*", str(trait))
            if m:
                field = {"Extra Hit Points": "HP", "Hit Points": "HP", "Strong Will": "Will", "Weak Will": "Will",
                         "Alertness": "Per", "Enhanced Dodge": "Dodge"}[m.group(1)]
                n = int(m.group(2))
                n = -abs(n) if m.group(1) == "Weak Will" or (m.group(1) == "Hit Points" and n < 0) else abs(n)
                offsets[field] = offsets.get(field, 0) + n
            elif str(trait).strip().lower() == "combat reflexes":
                offsets["Dodge"] = offsets.get("Dodge", 0) + 1
        values = derive(npc.ST, npc.DX, npc.IQ, npc.HT, offsets)
        return {k: (v, "gurps.derived") for k, v in values.items() if getattr(npc, k, None) is None}

    def sheet_legend(self) -> dict[str, dict[str, str]]:
        return {"melee": {
            "damage": "thr or sw: the thrust or swing damage of the wielder's ST, plus the weapon's add (gurps.melee)",
            "dice": "what that damage rolls at this wielder's ST (gurps.melee)",
            "reach": "hexes the weapon reaches: C only the wielder's own hex, 1 the next (gurps.melee)",
            "parry": "the parry the wielder's skill gives: half the skill, Brawling two thirds, a knife one less, "
                     "+1 with Combat Reflexes (gurps.melee, assumed)"},
            "armor": {
                "DR_at": "a lower DR on those locations (a full kit's helmet, its limb shells); DR everywhere else it "
                         "covers (gurps.armor)"},
            "weapons": {
                "1/2D": "metres (the Japanese Basic Set's unit) from which the damage is halved (gurps.weapon-stats, "
                        "assumed magnitudes; not part of the hit chances)",
                "Max": "metres: the farthest the weapon reaches (gurps.weapon-stats, assumed magnitudes)"}}

    def derived_fields(self) -> dict[str, tuple[tuple[str, ...], str]]:
        # gurps.derived (3e): HP = HT, Will = Per = IQ, Move = (HT + DX) / 4, Dodge = Move
        return {"HP": (("HT",), "gurps.derived"), "Will": (("IQ",), "gurps.derived"),
                "Per": (("IQ",), "gurps.derived"), "Move": (("HT", "DX"), "gurps.derived"),
                "Dodge": (("HT", "DX"), "gurps.derived")}

    def skill_levels(self, skill: str) -> Sequence[int]:
        if skill == "Dodge":
            return DODGE_LEVELS
        if skill not in SKILLS:
            raise InputError("unknown GURPS skill", expected="one of " + ", ".join(SKILLS), found=repr(skill))
        return SKILL_LEVELS

    def tiers(self, skill: str) -> tuple[Tier, ...]:
        return tuple(Tier(r, n, lo, ty, 'gurps.ranged-attack', 'assumed') for r, n, lo, ty in GURPS_TIERS)

    def untrained_level(self, skill: str) -> float | None:
        """The skill's default at median attributes (SKILL_DEFAULTS, gurps.defaults, assumed): the
        untrained anchor of a skill with no battery on the published competence scale."""
        return SKILL_DEFAULTS.get(skill)

    def skill_floor(self, skill: str, context: Mapping[str, Any] | None = None) -> tuple[Any, str] | None:
        """The NPC's default from his own attribute (gurps.defaults): a sheet never shows a skill
        below what he rolls untrained (an IQ 13 investigator's Vision is at least his Per 13)."""
        spec = DEFAULT_OF.get(skill)
        value = (context or {}).get(spec[0]) if spec else None
        if value is None:
            return None
        return max(0, int(value) + spec[1]), "gurps.defaults"  # type: ignore[index]

    def competence_rule(self, skill: str) -> str:
        if skill == "Dodge":
            return "gurps.dodge"
        if skill in CLOSE_COMBAT:
            return "gurps.melee"
        return "gurps.ranged-attack" if skill in SKILL_CLASS else "gurps.resolution"

    def roll_chance(self, skill: str, level: Any, context: Mapping[str, Any] | None = None) -> Fraction:
        if skill == "Dodge":
            return success(int(level) + RETREAT)  # gurps.dodge: the ordinary dodge, stepping back
        return success(int(level))  # gurps.resolution: the unmodified roll

    def check_at(self, shot: Shot, skill: str, level: Any, context: Mapping[str, Any] | None = None,
                 extra: Sequence[Modifier] = ()) -> Check:
        return self._evaluate(shot, int(level), skill, extra)

    # ---- close combat: the close-combat battery's check (core.melee) ----------
    def skill_context(self, skill: str, context: Mapping[str, Any] | None) -> dict[str, Any]:
        """A close-combat skill's damage goes by ST (gurps.melee, thrust/swing)."""
        if skill not in CLOSE_COMBAT:
            return {}
        return {"ST": int((context or {}).get("ST") or 10)}

    def melee_check_at(self, item: MeleeItem, skill: str, level: Any, context: Mapping[str, Any] | None = None
                       ) -> Check:
        """One close-combat battery item: 3d6 <= skill + the attacker's posture (prone -4,
        gurps.posture) + light (gurps.hit-modifiers, the light ladder); a critical hit (3-4, 5 at
        15+, 6 at 16+: gurps.resolution) allows no defence; otherwise the adult's active defence
        (Dodge 5 + 3 stepping back, gurps.dodge; a bare-handed parry 2/3 of DX 10 = 6 against fists,
        against a club he dodges) at -3 when he is prone (gurps.posture). Damage: a punch thrust-2
        crushing, the reference club swing+1 crushing, by ST (MELEE_DAMAGE_BY_ST), less the jacket's
        DR (gurps.armor). All gurps.melee assumed where the seed is silent (README, close combat)."""
        ctx = context or {}
        cls = str(ctx.get("@class", "unarmed"))
        st = int(ctx.get("ST") or 10)
        mods: list[Modifier] = []
        notes: list[str] = []

        def add(rule: str, value: int, source: str, why: str) -> None:
            mods.append(Modifier(rule=rule, kind="add", value=int(value), source=source, why=why))  # type: ignore[arg-type]

        eff = int(level)
        if item.attacker_posture == "prone":
            add("gurps.posture", -4, "seed", "attacking while lying prone")
        lx = self._lad["light"].step_for(float(item.illuminance))
        if lx.native:
            add(lx.rule, int(lx.native), lx.source, f"{item.illuminance:g} lx: {lx.label}")
        eff += sum(int(m.value) for m in mods)
        att = roll_under(eff, BANDS)
        defence = item.defence
        if defence == "parry" and cls != "unarmed":
            notes.append("bare hands cannot parry a club without Karate: the adult dodges [gurps.melee; assumed]")
            defence = "dodge"
        dr = pd = 0
        if item.armor:
            from xsys.core.registry import catalog

            jacket = reference_armor(item.armor, catalog())
            dr = int(self._lad["dr"].native(float(jacket.stops)))
            pd = passive_defense(jacket)[0]
            notes.append(f"{item.armor}: DR {dr} [gurps.armor; assumed], PD {pd} [gurps.pd; assumed]")
        p_def = Fraction(0)
        if defence != "none":
            value = MEDIAN_DODGE + RETREAT if defence == "dodge" else MEDIAN_PARRY
            what = f"Dodge {MEDIAN_DODGE} + {RETREAT} stepping back" if defence == "dodge" else \
                f"bare-handed parry {MEDIAN_PARRY} (2/3 of DX 10)"
            if pd:
                # gurps.pd (3e Basic Set, not in the seed: assumed): the armor's passive defense
                # adds to every active defense
                value += pd
                what += f" + PD {pd} of the armor"
            if item.target_posture == "prone":
                value -= 3
                what += ", -3 prone (gurps.posture)"
            p_def = success(value)
            notes.append(f"the adult's {what}: {float(p_def):.1%} [gurps.dodge{', gurps.pd' if pd else ''}; assumed]")
        elif pd:
            # no active defense (a surprised adult): the armor's PD alone still turns a blow, as the
            # seed's All-Out Attack leaves the defender "passive defense only"
            # (gurps.maneuvers.all_out_attack); a 3 or 4 always succeeds (gurps.resolution)
            p_def = success(pd)
            notes.append(f"the surprised adult has no active defense, only the armor's PD {pd}: 3d6 <= {pd}, "
                         f"{float(p_def):.2%} [gurps.pd, gurps.maneuvers.all_out_attack; assumed]")
        hit = att.critical_success + (att.success - att.critical_success) * (1 - p_def)
        thr, sw = thrust_swing(st)
        code = thr - 2 if cls == "unarmed" else sw + 1
        dmg = damage_distribution(code)
        line = f"{'punch thrust-2' if cls == 'unarmed' else 'club swing+1'} crushing at ST {st}: {dice_text(code)}"
        return attack_check(self, stat=skill, base=int(level), target=eff, needs=f"3d6 <= {eff}", hit=hit,
                            damage={max(0, v): p for v, p in dmg.items()}, armor=dr, modifiers=mods, notes=notes,
                            native=f"{skill}-{level} at {eff - int(level):+d}, {line}")

    def rule_ids(self) -> set[str]:
        ids = super().rule_ids()
        for rid, table in rule_tables().items():
            ids.add(rid)
            ids |= {f"{rid}.{row['key']}" for row in table["rows"] if "key" in row}
        ids |= {"gurps.ranged-attack", "gurps.resolution", "gurps.population", "gurps.derived", "gurps.dodge",
                "gurps.weapon-stats", "gurps.damage", "gurps.armor", "gurps.pd", "gurps.melee", "gurps.defaults"}
        return ids

    def formulas(self) -> Sequence[Formula]:
        """``xsys rules gurps`` formulas (formulas.py): SSR, height, resolution, derived
        characteristics, and a row of each rules.toml table by roll or key."""
        return _formulas()

    def rule_notes(self) -> dict[str, RuleNote]:
        """Each rules.toml table and keyed row as the note of its rule (formulas.table_notes)."""
        from .formulas import table_notes

        return table_notes(rule_tables())

    # ---- weapons -----------------------------------------------------------------------
    def weapon_stats(self, weapon: Weapon) -> WeaponStats:
        """A neutral weapon's GURPS line: the catalog entry of weapons.toml, else the class
        line, with damage from the muzzle-energy ladder (all gurps.weapon-stats, assumed)."""
        data = _toml("weapons.toml")
        length = float(weapon.length) if weapon.length is not None else None
        cls_key = "sawn-off" if is_sawn_off(weapon.weapon_class, length, weapon.name) else weapon.weapon_class
        cls = data["class"][cls_key]
        basis = _basis(weapon)
        per = data["weapon"].get(basis.entry.id if basis.entry is not None else "", {})
        # the range of the cartridge it fires (its class's where none is listed); a sawn-off's own
        cart = {} if cls_key == "sawn-off" else data.get("cartridge", {}).get(basis.cartridge or "", {})
        code = self.damage_code(weapon)
        return WeaponStats(
            skill=cls["skill"], damage=code, Acc=per.get("Acc", cls.get("Acc", 0)), SS=per.get("SS", cls.get("SS")),
            RoF=per.get("RoF", _rof(cls.get("RoF", "1"), weapon)), ST=per.get("ST", cls.get("ST")), source="assumed",
            origin=f"weapons.toml [{'weapon.' + basis.entry.id if per else 'class.' + cls_key}]"
                   + _damage_origin(basis),
            half_D=per.get("half_D", cart.get("half_D", cls.get("half_D"))),
            Max=per.get("Max", cart.get("Max", cls.get("Max"))),
            reach_origin="weapons.toml [" + (f"weapon.{basis.entry.id}" if "half_D" in per else
                                             f'cartridge."{basis.cartridge}"' if "half_D" in cart else
                                             f"class.{cls_key}") + "]",
        )

    def damage_code(self, weapon: Weapon) -> int:
        """Damage of a neutral weapon (gurps.damage, assumed): one line per cartridge
        (weapons.toml [cartridge.*], else the damage ladder at the cartridge's reference
        muzzle energy, core.vocab.CARTRIDGES), the cartridge its calibre names or, with no
        calibre, the one its name states ("Colt Police Positive (.38 Special)"), else the
        ladder at its own muzzle energy."""
        basis = _basis(weapon)
        row = _toml("weapons.toml").get("cartridge", {}).get(basis.cartridge or "", {})
        if "damage" in row:
            return dice_code(row["damage"])
        return self._lad["damage"].native(basis.energy)

    @staticmethod
    def native_stats(w: GurpsWeapon) -> WeaponStats:
        return WeaponStats(skill=w.skill or "", damage=dice_code(w.damage), Acc=w.Acc, SS=w.SS, RoF=w.RoF, ST=w.ST,
                           source="seed", origin=f"weapon line {w.name}", half_D=w.half_D, Max=w.Max)

    @staticmethod
    def resolution_parts() -> tuple[tuple[str, str, str], ...]:
        """gurps.resolution part by part: (what, "seed" or "assumed", why)."""
        return RESOLUTION_PARTS

    # ---- the check ---------------------------------------------------------------------
    def check_native(self, native: GurpsShot, extra: Sequence[Modifier] = ()) -> Check:
        """A GURPS shot with everything it says, including the situations the neutral model
        has no field for (opportunity fire, nearsighted, shock ...), at its exact level."""
        res = self.shot_to_neutral(native)
        shot = res.value
        stats = self.native_stats(native.weapon) if isinstance(native.weapon, GurpsWeapon) else None
        skill = native.skill or (stats.skill if stats and stats.skill else CLASS_SKILL[shot.weapon.weapon_class])
        return self._evaluate(shot, native.level, skill, extra, stats=stats, native=native)

    def _evaluate(self, shot: Shot, level: int, skill: str, extra: Sequence[Modifier] = (),
                  stats: WeaponStats | None = None, native: GurpsShot | None = None,
                  notes: list[str] | None = None, with_damage: bool = True) -> Check:
        """gurps.ranged-attack: target number = skill + size + speed/range + other modifiers
        (+ aim), the snap-shot -4 below SS when not aiming; 3d6 <= target number.
        ``with_damage=False`` leaves the damage out (a standard chance needs none)."""
        lad = self._lad
        stats = stats or self.weapon_stats(shot.weapon)
        mods: list[Modifier] = []
        notes = list(notes or [])

        def add(rule: str, value: int, source: str, why: str) -> None:
            mods.append(Modifier(rule=rule, kind="add", value=int(value), source=source, why=why))  # type: ignore[arg-type]

        cls = shot.weapon.weapon_class
        d = float(shot.distance)
        elev = float(shot.elevation)
        # gurps.ssr: speed (the text's m/s = km/h / 3, i.e. 1.2 x true m/s) + distance, round
        # up; looked up in exact arithmetic (no float error past a row).
        dx = exact(d)
        sv = speed_value(float(shot.target.speed))
        ssr = lad["ssr"]
        st_true = ssr.steps[ssr_index(ssr, dx + sv)]
        why = f"{d:g} m" + (f" + speed {float(exact(float(shot.target.speed) * KMH_PER_MPS)):g} km/h / 3 = "
                            f"{float(sv):g}" if sv else "") + f" -> {st_true.at:g} m row"
        add("gurps.ssr", st_true.native, "seed", f"speed/range: {why}")
        range_mod = st_true.native
        d_eff = effective_distance(dx, exact(elev))
        if d_eff != dx:
            st_eff = ssr.steps[ssr_index(ssr, d_eff + sv)]
            rule = "gurps.height.shoot_down" if elev > 0 else "gurps.height.shoot_up"
            add(rule, st_eff.native - st_true.native, "seed",
                f"{'shooting down' if elev > 0 else 'shooting up'} {abs(elev):g} m: distance counts as "
                f"{float(d_eff):g} m")
            range_mod = st_eff.native
        if native is not None and native.nearsighted and range_mod:
            add("gurps.ranged-modifiers.nearsighted", range_mod, "seed", "Nearsighted: speed/range modifier doubled")
        # Size column of the same table, sign reversed (the target's standing height).
        st_size = ssr.steps[ssr_index(ssr, exact(float(shot.target.height)))]
        add("gurps.ssr", -st_size.native, "seed", f"size: {float(shot.target.height):g} m -> {st_size.at:g} m row")

        # A target that cannot be seen at all: nothing of it shows (visible fraction 0, full
        # cover), or total darkness with no light or night vision (assumed readings of the
        # row): gurps.ranged-modifiers.blind_fire, -10 and target number at most 9
        # (「全く見ずに攻撃する時 -10。目標値は最大9」), instead of the "almost invisible" -7 /
        # the darkness -10.
        aids = set(shot.light.aids)
        sees_in_dark = bool(aids & (NV_AIDS | LIGHT_AIDS)) or shot.weapon.sights in NV_SIGHTS
        ex = lad["exposure"].step_for(float(shot.target.cover.exposure))
        # wholly behind glass (a window, bullet-resistant glazing) the target is seen through it:
        # no "cannot be seen" and no "almost invisible" row; the glass is shot through (assumed)
        behind_glass = behind_see_through(shot.target.cover.barrier, ex.native)
        unseen_why = None
        if float(shot.target.cover.exposure) == 0 and not behind_glass:
            unseen_why = "nothing of the target shows (visible fraction 0)"
        elif float(shot.light.illuminance) == 0 and not sees_in_dark and (native is None or native.light != -10):
            # (a GURPS shot that says light -10 has the text's own darkness row, below)
            unseen_why = "total darkness (0 lx) and no light or night vision"
        if native is not None and native.blind_fire:
            unseen_why = None  # the native row is applied below (_native_only_modifiers)
        cap9 = None
        cap9_src = "seed"
        if unseen_why is not None:
            # the -10 and the 9 are the seed's; reading the neutral situation as "cannot be
            # seen at all" is assumed, so the trace says assumed
            add("gurps.ranged-modifiers.blind_fire", row_modifier("gurps.ranged-modifiers", "blind_fire"), "assumed",
                f"the target cannot be seen at all: {unseen_why} (the row's -10 and 9 are the seed's; this reading "
                "is assumed)")
            cap9, cap9_src = "the target cannot be seen at all", "assumed"

        # Called shot (gurps.hit-location), applied below; looked up here because a called shot at
        # the head of a target that shows only its head is one penalty, not two.
        loc_key = None
        if native is not None and native.location:
            loc_key = native.location
        elif shot.called_location:
            loc_key = LOCATION_TO_NATIVE[shot.called_location]

        # Target exposure and posture (gurps.ranged-modifiers, target posture group). The group's
        # rows each say how the target presents itself ("lying behind cover, head down, almost
        # invisible" is one row, -7, not prone -4 plus hidden -7), so the one that applies is the
        # harder of the cover row and the posture row (reading assumed); other characters in the
        # way add to it (-4 each).
        group: list[tuple[str, int, str, str]] = []  # (rule, value, source, why)
        ex_row = ex.label.split(":")[0]
        if ex.native and float(shot.target.cover.exposure) > 0 and not behind_glass:
            why = f"target visible fraction {float(shot.target.cover.exposure):g}: {ex.label.split(': ', 1)[-1]}"
            if loc_key in HEAD_PARTS and ex_row in HEAD_SHOWS:
                # 「頭しか見えない -5(頭狙いと同じ)」: the head that shows is what the called shot
                # aims at; its own modifier (gurps.hit-location) is the whole penalty
                notes.append(f"{why}: not counted again, the called shot at the {loc_key} is aimed at what shows "
                             f"[gurps.ranged-modifiers.{ex_row}: 'the same as aiming at the head'; "
                             f"{'seed' if ex_row == 'tgt_head_only' else 'assumed'}]")
            else:
                group.append((f"gurps.ranged-modifiers.{ex_row}", int(ex.native), ex.source, why))
        elif behind_glass:
            notes.append(f"target behind {shot.target.cover.barrier.material}: seen through it, shot through it "  # type: ignore[union-attr]
                         "[gurps.ranged-modifiers; assumed]")
        row = TARGET_POSTURE_ROW.get(shot.target.posture)
        if row:
            group.append((f"gurps.ranged-modifiers.{row}", row_modifier("gurps.ranged-modifiers", row), "seed",
                          f"target {shot.target.posture}"))
        if group:
            keep = min(group, key=lambda g: g[1])
            add(*keep)
            for g in group:
                if g is not keep:
                    notes.append(f"{g[3]} ({g[1]:+d}): not added to {keep[3]} ({keep[1]:+d}), one row of the "
                                 "target's posture and cover applies [gurps.ranged-modifiers; assumed]")
        if native is not None and native.behind_characters:
            add("gurps.ranged-modifiers.tgt_behind_char", -4 * native.behind_characters, "seed",
                f"behind {native.behind_characters} other character(s)")

        # Light (gurps.hit-modifiers poor_light / darkness; lux breakpoints and the vision
        # aids' caps assumed).
        light_mod, light_src, light_why = self.light_modifier(shot)
        if light_mod and (unseen_why is not None or (native is not None and native.blind_fire)):
            # a target that cannot be seen at all is shot at without looking (-10, at most 9): how
            # much light falls on what the shooter does not see changes nothing; counted once
            if light_mod != -10 or sees_in_dark:
                notes.append(f"{light_why} ({light_mod:+d}): not added, the target cannot be seen at all "
                             "[gurps.ranged-modifiers.blind_fire; assumed]")
            light_mod = 0
        if light_mod:
            key = "darkness" if light_mod == -10 else "poor_light"
            add(f"gurps.hit-modifiers.{key}", light_mod, light_src, light_why)

        # Shooter: posture (gurps.posture, attack column), motion, hand, strength.
        post = lookup("gurps.posture", shot.shooter.posture)
        impossible = None
        if isinstance(post["attack"], str):
            impossible = f"shooter {shot.shooter.posture}: {post['attack']}"
        elif post["attack"]:
            add(f"gurps.posture.{shot.shooter.posture}", post["attack"], "seed", f"shooter {shot.shooter.posture}")
        # gurps.maneuvers.step_attack: up to 1 hex per turn (1 m/s with 1 s turns) the attack
        # is normal and Aim (1/2 Move) is kept; only faster is the Move maneuver.
        v = exact(float(shot.shooter.speed))
        moving = v > STEP_SPEED
        if v > 0 and not moving:
            mods.append(Modifier(rule="gurps.maneuvers.step_attack", kind="add", value=0, source="seed",
                                 why=f"shooter moving {float(v):g} m/s, at most 1 hex per turn: Step and Attack, "
                                     "attack normal (Aim allows 1/2 Move)"))
        elif moving:
            mv = lad["shooter_speed"].step_for(float(shot.shooter.speed))
            add("gurps.maneuvers.move", mv.native, mv.source,
                f"shooter moving {float(shot.shooter.speed):g} m/s, more than 1 hex per turn: {mv.label}; no Aim")
        turns = int(lad["aim_turns"].step_for(float(shot.shooter.aim_time)).native)
        if native is not None:
            turns = native.aim_turns
        if turns and moving:
            notes.append("aim ignored: a moving shooter takes the Move maneuver, not Aim [gurps.maneuvers]")
            turns = 0
        # The shooter's own cover: a pop-up attack from it (gurps.ranged-modifiers.pop_up, -2;
        # reading the shooter's cover as popping out of it is assumed). A pop-up shot is a snap
        # shot (the row: "the snap-shot -4 is separate"): a shooter who aims from his cover stays
        # out and aims, and takes no pop-up -2.
        if native is None and float(shot.shooter.cover.exposure) < 1:
            if turns:
                notes.append(f"shooter behind cover (visible fraction {float(shot.shooter.cover.exposure):g}) aims "
                             f"{turns} turn(s) from it: not a pop-up attack, which is unaimed "
                             "[gurps.ranged-modifiers.pop_up; assumed]")
            else:
                add("gurps.ranged-modifiers.pop_up", row_modifier("gurps.ranged-modifiers", "pop_up"), "assumed",
                    f"shooter behind cover (visible fraction {float(shot.shooter.cover.exposure):g}): a pop-up "
                    "attack, popping out, firing and ducking back (the -2 is the seed's row; this reading is "
                    "assumed)")
        if shot.shooter.off_hand:
            add("gurps.hit-modifiers.off_hand", row_modifier("gurps.hit-modifiers", "off_hand"), "seed", "off hand")
        if stats.ST is not None and not (native is not None and native.shooter_ST is None):
            ST = self._attr.step_for(float(shot.shooter.characteristics.get("strength", 0.5))).native
            if ST < stats.ST:
                add("gurps.hit-modifiers.low_st", ST - stats.ST, stats.source,
                    f"ST {ST} below the weapon's ST {stats.ST} ({stats.origin})")
        if shot.underwater:
            add("gurps.hit-modifiers.in_water", row_modifier("gurps.hit-modifiers", "in_water"), "assumed",
                "firing underwater: the in-water -6 (the underwater table lists melee reaches only)")

        # Called shot (gurps.hit-location).
        if loc_key and loc_key != "torso":
            loc = lookup("gurps.hit-location", loc_key)
            src = "seed"
            val = loc["modifier"]
            if loc_key in ("weapon", "disarm"):
                src = "assumed"  # the target's weapon is unknown: the "any other" value
            add(f"gurps.hit-location.{loc_key}", val, src, f"called shot: {loc_key}")

        # Native-only situations (gurps.ranged-modifiers / gurps.hit-modifiers).
        if native is not None:
            for m in self._native_only_modifiers(native):
                mods.append(m)
            if native.blind_fire or native.missed_behind:
                cap9 = "blind fire" if native.blind_fire else "shooting at a character behind a missed target"
                cap9_src = "seed"

        # Aim (gurps.maneuvers.aim, gurps.ranged-modifiers aim_1..aim_4, brace): + Acc on the
        # first turn, +1/+2/+3 for further turns; the aim bonus never exceeds the skill level.
        if turns:
            cap = max(level, 0)
            aim = stats.Acc + AIM_EXTRA.get(turns, 3)
            row_key = f"aim_{min(turns, 4)}"
            add(f"gurps.ranged-modifiers.{row_key}", min(aim, cap), stats.source,
                f"aim {turns} turn(s): Acc {stats.Acc} ({stats.origin}) + {AIM_EXTRA.get(turns, 3)}"
                + (f", capped at skill {cap}" if aim > cap else ""))
            if shot.shooter.braced and cls != "thrown" and aim < cap:
                add("gurps.ranged-modifiers.brace", 1, "seed", "braced while aiming (inside the skill cap)")

        tn = level + sum(int(m.value) for m in mods if m.kind == "add")
        # House rules from other plugins, each by its kind.
        for m in extra:
            mods.append(m)
            tn = _apply(tn, m)
        # Snap shot: final target number below SS without aiming.
        if not turns and stats.SS is not None and tn < stats.SS:
            add("gurps.ranged-modifiers.snap_shot", -4, stats.source,
                f"snap shot: target number {tn} is below SS {stats.SS} ({stats.origin})")
            tn -= 4
        if cap9 is not None and tn > 9:
            mods.append(Modifier(rule="gurps.ranged-modifiers", kind="set", value=9, source=cap9_src,  # type: ignore[arg-type]
                                 why=f"{cap9}: target number at most 9"))
            tn = 9
        if impossible is not None:
            mods.append(Modifier(rule=f"gurps.posture.{shot.shooter.posture}", kind="set", value="impossible",
                                 source="seed", why=impossible))
            chance = Fraction(0)
            outcomes: dict[str, Fraction] = {}
        else:
            o = roll_under(tn, BANDS)
            chance = o.success
            outcomes = {"critical_success": o.critical_success, "critical_failure": o.critical_failure}
        # gurps.hit-location: a roll of exactly target number + 1 on some called locations
        # hits another one instead of missing (not on 17-18, which always fail).
        redirect = None
        redirect_p = Fraction(0)
        if impossible is None and loc_key in MISS_BY_1 and (loc_key != "vitals" or cls != "thrown"):
            redirect = MISS_BY_1[loc_key]
            roll = tn + 1
            if BANDS.auto_success < roll < BANDS.auto_fail:  # 3-4 always hit, 17-18 always miss
                redirect_p = dice.sum_distribution(3, 6).get(roll, Fraction(0))
            outcomes[f"miss_by_1_hits_{LOCATION_TO_NEUTRAL[redirect]}"] = redirect_p
            notes.append(f"a roll of {roll} (miss by 1) hits the {LOCATION_TO_NEUTRAL[redirect]} instead: "
                         f"{float(redirect_p):.2%} [gurps.hit-location.{loc_key}, seed]")

        dmg_mean = dmg_dist = None
        if with_damage:
            hit_mean, hit_dist, dnotes = self._damage(shot, stats, loc_key, native)
            notes += dnotes
            # Check.damage_mean is the expected damage of the shot (a miss does 0)
            dmg_mean = float(chance) * hit_mean
            r_dist = None
            if redirect is not None and redirect_p:
                r_mean, r_dist, _ = self._damage(shot, stats, redirect, native)
                dmg_mean += float(redirect_p) * r_mean
            # exact, computed once per (hit damage, chance, redirected damage, its chance)
            dmg_dist = rules.shot_damage(hit_dist, chance, r_dist, redirect_p)
        if shot.burst > 1:
            notes.append(f"burst of {shot.burst}: the text has no autofire rule; this is the chance of the first round")
        if shot.shooter.hands == 1 and cls not in SHORT_ARMS:
            notes.append("long arm fired one-handed: the text gives no modifier")
        delta = tn - level
        line = (f"{skill}-{level}: not allowed ({impossible})" if impossible is not None
                else f"{skill}-{level} at {delta:+d}: {floor_text(mods, tn)}" if tn <= BANDS.auto_success
                else f"{skill}-{level} at {delta:+d}: {_roll_text(tn)}")
        if shot.burst > 1:  # said on the roll line too: `xsys odds` prints no notes
            line += f" (the first round of a burst of {shot.burst}: the seed has no rapid-fire rule)"
        return Check(
            system=self.key, stat=skill, base=level, modifiers=mods, target=tn, needs=f"3d6 <= {tn}",
            chance=chance, outcomes=outcomes, native=line, damage_mean=dmg_mean, damage=dmg_dist, notes=notes,
        )

    def light_modifier(self, shot: Shot) -> tuple[int, str, str]:
        """gurps.hit-modifiers poor_light / darkness for the light on the target, after the
        vision aids' assumed caps (the text has no vision aids): night-vision goggles or an NV /
        thermal sight at most -2; a weapon or hand light at most -1 within 25 m, -3 within 50 m.
        (modifier, source, why). The check and a written GURPS shot both take it from here, so
        a converted shot says what the check of its neutral shot says."""
        lx = self._lad["light"].step_for(float(shot.light.illuminance))
        mod, src, why = int(lx.native), lx.source, f"{float(shot.light.illuminance):g} lx: {lx.label}"
        aids = set(shot.light.aids)
        if mod < -2 and (aids & NV_AIDS or shot.weapon.sights in NV_SIGHTS):
            mod, src, why = -2, "assumed", why + "; night vision: at most -2"
        if mod < 0 and aids & LIGHT_AIDS:
            d = float(shot.distance)
            cap = -1 if d <= 25 else (-3 if d <= 50 else None)
            if cap is not None and mod < cap:
                mod, src, why = cap, "assumed", why + f"; lit by a light at {d:g} m: {cap}"
        return mod, src, why

    def _native_only_modifiers(self, n: GurpsShot) -> list[Modifier]:
        out: list[Modifier] = []

        def add(key: str, value: int, why: str, table: str = "gurps.ranged-modifiers") -> None:
            out.append(Modifier(rule=f"{table}.{key}", kind="add", value=value, source="seed", why=why))

        if n.opportunity_hexes:
            h = n.opportunity_hexes
            key = ("of_1" if h <= 1 else "of_2" if h == 2 else "of_3_4" if h <= 4 else "of_5_6" if h <= 6
                   else "of_7_10" if h <= 10 else "of_10_plus")
            add(key, row_modifier("gurps.ranged-modifiers", key), f"opportunity fire, watching {h} hexes")
        if n.checking_target:
            add("of_check", -2, "opportunity fire: checking the target before firing")
        if n.pop_up:
            add("pop_up", row_modifier("gurps.ranged-modifiers", "pop_up"), "pop-up shot from cover")
        if n.one_eye:
            add("one_eye", -3, "one eye, missile weapon", "gurps.hit-modifiers")
        if n.bad_footing and not n.aim_turns:
            add("bad_footing", n.bad_footing, "unstable footing (aiming cancels it)", "gurps.hit-modifiers")
        if n.shock:
            add("shock", n.shock, "wounded last turn", "gurps.hit-modifiers")
        if n.unfamiliar:
            add(n.unfamiliar, row_modifier("gurps.ranged-modifiers", n.unfamiliar), n.unfamiliar.replace("_", " "))
        if n.bad_condition:
            add("bad_condition", n.bad_condition, "weapon in poor condition")
        if n.blind_fire:
            add("blind_fire", -10, "attacking without looking")
        return out

    def _damage(self, shot: Shot, stats: WeaponStats, loc_key: str | None, native: GurpsShot | None = None
                ) -> tuple[float, dict[str, str], list[str]]:
        """Expected damage of one hit past DR (armor + barrier), with the head's skull DR 2
        and x4, throat and kidneys crushing x1.5, limbs ignoring damage beyond HT/2 or HT/3
        (gurps.hit-location) and underwater halving (gurps.underwater)."""
        notes: list[str] = []
        loc = LOCATION_TO_NEUTRAL.get(loc_key or "torso", "torso")
        covered = COVERED_BY.get(loc, {loc})
        dr = 0
        for a in shot.target.armor:
            hit = covered & set(armor_covers(a)[0])
            if hit:  # the part over the location hit (a full kit's helmet is not its plates)
                dr += int(self._lad["dr"].native(min(float(a.stops_on(c)) for c in hit)))
        mult = Fraction(1)
        if loc_key in ("head",):
            dr += 2
            mult = Fraction(4)
        elif loc_key in ("eye", "eye_helmet_gap"):
            mult = Fraction(4)  # through the eye to the brain: skull DR ignored
            if loc_key == "eye_helmet_gap":
                dr = 0
        barrier = shot.target.cover.barrier
        # A target on the ladder's hidden row (visible fraction below 0.1) is shot through
        # the barrier in front of him (assumed).
        hidden = self._lad["exposure"].step_for(float(shot.target.cover.exposure)).native == EXPOSURE_MOD["hidden"]
        if barrier is not None and hidden:
            from xsys.core.registry import catalog

            bdr = int(self._lad["dr"].native(catalog().barrier_stops(barrier)))
            dr += bdr
            notes.append(f"shot through {barrier.material} {float(barrier.thickness) * 100:g} cm: DR {bdr} [gurps.armor]")
        dtype = native.weapon.type if native is not None and isinstance(native.weapon, GurpsWeapon) else "cr"
        if loc_key in CRUSHING_X15 and dtype == "cr":
            mult = Fraction(3, 2)
            notes.append(f"{loc_key}: crushing damage x1.5 [gurps.hit-location.{loc_key}]")
        if shot.underwater:
            mult /= 2
        cap = None
        if loc_key in LIMB_CAP:
            # damage beyond the crippling amount is ignored; the crippling amount is the
            # first whole point at or above HT/2 (HT/3) (rounding assumed); HT 10 unless given
            cap = math.ceil(STANDARD_HT * LIMB_CAP[loc_key])
            notes.append(f"{loc_key}: damage beyond {cap} (HT {STANDARD_HT} x {LIMB_CAP[loc_key]}, cripples) "
                         f"is ignored [gurps.hit-location.{loc_key}]")
        mean, shown = _damage_past_dr(stats.damage, dr, mult, cap)
        notes.append(f"damage {dice_text(stats.damage)} {dtype} vs DR {dr}: {mean:.2f} per hit")
        return mean, dict(shown), notes

    # ---- stat blocks -------------------------------------------------------------------
    def npc_to_neutral(self, npc: GurpsNpc) -> Result[Combatant]:
        col = Collector(self.key)
        chars = self.characteristics_to_neutral({k: getattr(npc, k) for k in ATTRIBUTES}, col, "$")
        blob: dict[str, Any] = {}
        base = derive(npc.ST, npc.DX, npc.IQ, npc.HT)
        offsets: dict[str, int] = {}
        omitted: list[str] = []
        toughness: float | None = None
        for f in DERIVED:
            v = getattr(npc, f)
            if v is None:
                omitted.append(f)
                continue
            expect = derive(npc.ST, npc.DX, npc.IQ, npc.HT, offsets)[f]
            if f == "HP":
                toughness = self.toughness_of(v, expect, col)
            if v != expect and f not in CARRIED:  # carried as the neutral dodge, will, perception, toughness
                offsets[f] = v - expect
                col.loss("kept-verbatim", f"$.{f}", f"{f} {v} differs from the rule's {base[f]}; the difference "
                         f"{v - expect:+d} is kept for GURPS", "gurps.derived")
        if offsets:
            blob["derived_offsets"] = offsets
        if omitted:
            blob["omitted"] = omitted
        known = {k: v for k, v in npc.skills.items() if k in SKILLS}
        other = {k: v for k, v in npc.skills.items() if k not in SKILLS}
        derived_now = derive(npc.ST, npc.DX, npc.IQ, npc.HT, offsets)
        chars.update(self._minds_to_neutral({f: getattr(npc, f) if getattr(npc, f) is not None else derived_now[f]
                                             for f in MINDS}, col))
        skills = self.skills_to_neutral(known, col, "$.skills", context={"ST": npc.ST})  # ST: close combat
        if melee_skills_of(self, known):
            blob["melee_skills"] = melee_skills_of(self, known)  # their names, for the way back
        dodge = npc.Dodge if npc.Dodge is not None else derive(npc.ST, npc.DX, npc.IQ, npc.HT, offsets)["Dodge"]
        skills["dodge"] = self.competence("Dodge", dodge)
        if col.tracing:
            col.step("$.Dodge", f"Dodge {dodge}", f"dodge competence {skills['dodge']:.3f}", rules=["gurps.dodge"],
                     source="assumed", note=f"3d6 <= Dodge + {RETREAT} (stepping back)")
        back = self.level_for("Dodge", skills["dodge"])
        if back != dodge or dodge < derived_now["Move"]:  # below Move: kept as written (gurps.derived)
            blob["dodge"] = dodge
        if npc.Will is not None and npc.Will != npc.IQ:
            blob["will"] = npc.Will  # a GURPS sheet's own Will: no Strong / Weak Will is written for it
        if back != dodge:
            col.loss("rounded", "$.Dodge", f"Dodge {dodge} has the same dodge competence as Dodge {back}; the exact "
                     "value is kept for GURPS", "gurps.dodge")
        exact = {}
        for k, v in known.items():
            back = self.level_for(k, self.competence(k, v, {"ST": npc.ST}), {"ST": npc.ST})
            if back != v:
                exact[k] = v
                col.loss("rounded", f"$.skills.{k}", f"{k}-{v} has the same competence as {k}-{back}; "
                         "the exact level is kept for GURPS", self.skill_ladder(k).steps[0].rule)
        mine = {"ST": npc.ST, "DX": npc.DX, "IQ": npc.IQ, "HT": npc.HT,
                "Per": npc.Per if npc.Per is not None else derived_now["Per"]}
        for k, v in known.items():  # under his own default (Bad Sight's Vision): stated, so it comes back
            floor = self.skill_floor(k, mine)
            if floor is not None and v < floor[0]:
                exact[k] = v
        if exact:
            blob["skill_levels"] = exact
        # what only GURPS states: carried verbatim through every other system (xsys.core.carried)
        own: dict[str, Any] = {}
        if other:
            own["skills"] = other
            for k in other:
                col.carried(f"$.skills.{k}", f"skill {k!r}")
        for f in ("advantages", "disadvantages"):
            if getattr(npc, f):
                own[f] = list(getattr(npc, f))
                col.carried(f"$.{f}", f)
        weapons: list[Weapon] = []
        melee: list[MeleeWeapon] = []

        def close_combat(line: GurpsMelee, where: str) -> None:
            """A close-combat weapon: its class crosses, its line is carried (gurps.melee)."""
            cls = _melee_class(line)
            melee.append(MeleeWeapon(name=line.name, melee_class=cls, skill="brawl" if cls == "unarmed" else "melee"))
            own.setdefault("melee", {})[line.name] = msgspec.to_builtins(line)
            if col.tracing:
                col.step(where, f"{line.name} ({line.skill}, {line.damage} {line.type})", f"melee {cls}",
                         rules=["gurps.melee"], source="assumed")

        for i, w in enumerate(npc.weapons):
            nw = self._weapon_to_neutral(w, col, f"$.weapons[{i}]")
            if nw is None:  # a melee weapon among the weapons (a text block writes them there)
                close_combat(GurpsMelee(name=w.name, skill=w.skill or _GURPS_MELEE_SKILL[melee_class_of(w.name)],
                                        damage=w.damage, type=w.type), f"$.weapons[{i}]")
            else:
                weapons.append(nw)
                blob.setdefault("weapons", {})[w.name] = msgspec.to_builtins(w)
        for i, m in enumerate(npc.melee):
            col.loss("kept-verbatim", f"$.melee[{i}]", f"{m.name} ({m.skill}) crosses as a {_melee_class(m)}; its "
                     f"GURPS line is kept (carried.gurps.melee.{m.name})", "gurps.melee")
            close_combat(m, f"$.melee[{i}]")
        armor: list[Armor] = []
        for i, a in enumerate(npc.armor):
            armor.append(self._armor_to_neutral(a, col, f"$.armor[{i}]"))
            blob.setdefault("armor", {})[a.name] = msgspec.to_builtins(a)
        return col.result(Combatant(name=npc.name, characteristics=chars, skills=skills, weapons=weapons,
                                    melee=melee, melee_kind=melee_kind(self, known, SKILL_MELEE_CLASS),
                                    armor=armor, toughness=toughness, notes=npc.notes,
                                    native={self.key: blob} if blob else {},
                                    carried={self.key: own} if own else {}))

    def npc_from_neutral(self, combatant: Combatant) -> Result[GurpsNpc]:
        col = Collector(self.key)
        blob = combatant.native.get(self.key, {})
        # read from a GURPS stat block: its own Dodge and Will are written as they were
        # (npc_to_neutral keeps a Dodge below Move and a Will beside IQ in the blob)
        from_sheet = bool(blob)
        own = carried.take(combatant.carried.get(self.key), GurpsCarried, col, f"$.carried.{self.key}", self.key)
        attrs = self.characteristics_from_neutral(combatant.characteristics, col, "$")
        derived = derive(attrs["ST"], attrs["DX"], attrs["IQ"], attrs["HT"], blob.get("derived_offsets"))
        for f, neutral in MINDS.items():
            p = combatant.characteristics.get(neutral)
            if p is not None:
                step = self.characteristics()["IQ"].ladder.step_for(p)
                derived[f] = int(step.native)
                if col.tracing:
                    col.step(f"$.{f}", None, f"{neutral} percentile {p:.3f}", f"{f} {derived[f]}",
                             rules=["gurps.derived", step.rule], source=step.source,
                             note=f"{f} on IQ's population ladder")
        dodge = combatant.skills.get("dodge")
        if dodge is not None:
            level = self.level_for("Dodge", dodge)
            kept = blob.get("dodge")
            if kept is not None and self.level_for("Dodge", self.competence("Dodge", kept)) == level:
                level = kept
            if col.tracing:
                col.step("$.Dodge", None, f"dodge competence {dodge:.3f}", f"Dodge {level}", rules=["gurps.dodge"],
                         source="assumed", note=f"3d6 <= Dodge + {RETREAT} (stepping back)")
            if level < derived["Move"] and not from_sheet:
                # gurps.derived (3e): Dodge = Move, and only a better dodge (Combat Reflexes) is
                # written above it; a source's untrained or poor dodge that equates below Move is
                # written as the rule's value (a GURPS stat block's own lower Dodge is kept)
                col.loss("clamped", "$.Dodge", f"the source's dodge (competence {dodge:.3f}) equates to Dodge "
                         f"{level}, below Move {derived['Move']}; 3e derives Dodge = Move, so Dodge "
                         f"{derived['Move']} is written (read back, a better dodge than the source's)",
                         "gurps.derived")
                level = derived["Move"]
            derived["Dodge"] = level
        t = combatant.toughness
        if t is not None and "HP" not in blob.get("derived_offsets", {}):
            derived["HP"] = self.health_of(attrs["HT"], t, col)
        for f in blob.get("omitted", []):
            derived.pop(f, None)
        if col.tracing:
            col.step("$.HP", None, None, ", ".join(f"{k} {v}" for k, v in derived.items()), rules=["gurps.derived"])
        st_ctx = {"ST": attrs["ST"]}  # close combat is equated at the NPC's own ST
        skills = self.skills_from_neutral(combatant.skills, col, "$.skills", context=st_ctx)
        for k, lv in blob.get("skill_levels", {}).items():
            if k in skills:
                chance = max(combatant.skills.get(n, -1.0) for n in SKILLS[k])
                if abs(self.competence(k, lv, st_ctx) - chance) < 1e-9:
                    skills[k] = lv
        # no skill below what he rolls untrained, from his own attributes and Per (gurps.defaults)
        skills = self.levels_floored(skills, combatant.skills, col, "$.skills",
                                     {**attrs, "Per": derived.get("Per", attrs["IQ"])}, blob.get("skill_levels"))
        skills.update(blob.get("skills", {}))
        skills.update(own.get("skills", {}))
        weapons: list[GurpsWeapon] = []
        for i, w in enumerate(combatant.weapons):
            kept = blob.get("weapons", {}).get(w.name)
            if kept is not None:
                line = msgspec.convert(kept, GurpsWeapon)
                shots, usual = _shots(w)
                if not line.Shots and shots and not usual:  # a line that stated none: its catalog weapon's
                    line = msgspec.structs.replace(line, Shots=shots)
                weapons.append(line)
            else:
                weapons.append(self._weapon_from_neutral(w, col, f"$.weapons[{i}]"))
        weapons += [msgspec.convert(e, GurpsWeapon) for e in blob.get("extra_weapons", [])]
        written: list[GurpsMelee] = []  # lines written from a weapon's class (not a GURPS sheet's own)

        def of_class(m: MeleeWeapon) -> GurpsMelee:
            line = self._melee_line(m, attrs["ST"])
            written.append(line)
            return line

        melee = carried.melee_lines(combatant, _melee_dicts(own.get("melee", {})), GurpsMelee, "gurps", "gurps.melee",
                                    col, of_class, lambda m: f"{m.skill}, {m.damage} {m.type} ({m.dice}) at "
                                                             f"ST {attrs['ST']}, reach {m.reach}")
        # the neutral melee is written for the skills the weapon lines use (a club line: Axe/Mace),
        # not for every melee skill at once (core.melee.melee_skills_written)
        kind = MELEE_LINES[combatant.melee_kind][0] if combatant.melee_kind else None  # gurps.melee: a club is Axe/Mace
        skills = melee_skills_written(self, skills, [w.skill or "" for w in weapons] + [m.skill for m in melee],
                                      blob.get("melee_skills"), kind)
        # a line written from its class whose skill the source states none for: at its default
        skills = line_skills_untrained(self, skills, written, attrs, col)
        # the parry the wielder's own skill gives, on the lines written from a class (gurps.melee)
        melee = [msgspec.structs.replace(m, parry=melee_parry(m.skill, skills[m.skill]))
                 if any(m is w for w in written) and m.skill in skills else m for m in melee]
        armor: list[GurpsArmor] = []
        for i, a in enumerate(combatant.armor):
            kept = blob.get("armor", {}).get(a.name)
            armor.append(msgspec.convert(kept, GurpsArmor) if kept is not None
                         else self._armor_from_neutral(a, col, f"$.armor[{i}]"))
        advantages, disadvantages = list(own.get("advantages", [])), list(own.get("disadvantages", []))
        if "Will" in derived and not from_sheet:
            advantages, disadvantages = self._will_traits(derived["Will"], attrs["IQ"], advantages, disadvantages, col,
                                                          verbatim=bool(own))
        if not from_sheet:
            advantages, disadvantages = self._body_traits(derived, attrs["HT"], advantages, disadvantages, col,
                                                          verbatim=bool(own))
        if "Combat Reflexes" in advantages:  # 3e: +1 to every active defense, a parry as the dodge
            melee = [msgspec.structs.replace(m, parry=m.parry + 1) if m.name in {w.name for w in written}
                     and m.parry is not None else m for m in melee]
        npc = GurpsNpc(name=combatant.name, **attrs, **derived, skills=skills,
                       advantages=advantages, disadvantages=disadvantages,
                       weapons=weapons, melee=melee, armor=armor, notes=combatant.notes)
        return col.result(npc)

    @staticmethod
    def _will_traits(will: int, iq: int, advantages: list[str], disadvantages: list[str], col: Collector,
                     verbatim: bool = False) -> tuple[list[str], list[str]]:
        """gurps.derived (3e): Will rolls are made against IQ, plus Strong Will or minus Weak Will
        levels; a written Will that differs from IQ names the trait that makes it so (Will 13 on
        IQ 6: Strong Will +7), replacing a Strong / Weak Will entry of another level. No cap: the
        text gives none (assumed, README). `verbatim`: the lists are a GURPS stat block's own,
        carried back through another system (xsys.core.carried), and stay as they were; a Will
        they do not account for is said in a loss."""
        return _offset_traits(f"Will {will} beside IQ {iq}: 3e makes Will rolls against IQ plus Strong Will "
                              "(or minus Weak Will) levels", will - iq, _plus_minus("Strong Will", "Weak Will"),
                              _signed_level(WILL_TRAIT, "weak"), "Strong or Weak Will",
                              advantages, disadvantages, col, verbatim)

    @staticmethod
    def _body_traits(derived: Mapping[str, int], ht: int, advantages: list[str], disadvantages: list[str],
                     col: Collector, verbatim: bool = False) -> tuple[list[str], list[str]]:
        """gurps.derived (3e): HP = HT and Dodge = Move; a written HP or Dodge that differs (the
        source's toughness gave more hit points, its dodge a better one than Move) names the
        trait a GURPS sheet would show for it (assumed, README): Extra Hit Points +N or Reduced
        Hit Points -N; Combat Reflexes for Dodge Move + 1, and Enhanced Dodge for more."""
        def dodge_traits(diff: int) -> tuple[list[str], list[str]]:
            return (["Combat Reflexes"] + ([f"Enhanced Dodge +{diff - 1}"] if diff > 1 else []), []) if diff > 0 \
                else ([], [])

        def dodge_level(entry: str) -> int | None:
            m = DODGE_TRAIT.match(entry.strip())
            if not m:
                return None
            return 1 if m.group(1).lower().startswith("combat") else int(m.group(2) or 1)

        if "HP" in derived:
            advantages, disadvantages = _offset_traits(
                f"HP {derived['HP']} beside HT {ht}: 3e gives HP = HT", derived["HP"] - ht,
                _plus_minus("Extra Hit Points", "Reduced Hit Points"), _signed_level(HP_TRAIT, "reduced"),
                "Extra or Reduced Hit Points", advantages, disadvantages, col, verbatim, "$.toughness")
        if "Dodge" in derived and "Move" in derived and derived["Dodge"] >= derived["Move"]:
            advantages, disadvantages = _offset_traits(
                f"Dodge {derived['Dodge']} beside Move {derived['Move']}: 3e gives Dodge = Move, +1 with Combat "
                "Reflexes", derived["Dodge"] - derived["Move"], dodge_traits, dodge_level,
                "Combat Reflexes or Enhanced Dodge", advantages, disadvantages, col, verbatim, "$.skills.dodge")
        return advantages, disadvantages

    def _melee_line(self, m: MeleeWeapon, st: int = 10) -> GurpsMelee:
        """gurps.melee (assumed): the melee-table line of a close-combat weapon known only by its
        class: thrust or swing plus the class's add ("sw+1"), what that rolls at the wielder's
        ST (a brute's punch is not an average man's), its type and reach."""
        skill, base, add, dtype = MELEE_LINES[m.melee_class]
        return GurpsMelee(name=m.name, skill=skill, damage=f"{base}{add:+d}" if add else base,
                          dice=melee_damage(m.melee_class, st), type=dtype, reach=MELEE_REACH[m.melee_class])

    def _minds_to_neutral(self, values: Mapping[str, int], col: Collector) -> dict[str, float]:
        """gurps.derived: Will and Per start at IQ and measure the same kind of thing, so each is
        read on IQ's population ladder as the neutral will and perception (a stat block's
        Will 14 beside IQ 12, Strong Will, is a strong will elsewhere too)."""
        lad = self.characteristics()["IQ"].ladder
        out: dict[str, float] = {}
        for f, value in values.items():
            if not lad.has_native(value):
                near = lad.nearest_native(value)
                col.loss("clamped", f"$.{f}", f"{f} {value} lies outside IQ's population table; read as {near}",
                         "gurps.population")
                value = near
            step = lad.step_of(value)
            out[MINDS[f]] = step.rep
            if col.tracing:
                col.step(f"$.{f}", f"{f} {value}", f"{MINDS[f]} percentile {step.rep:.3f}",
                         rules=["gurps.derived", step.rule], source=step.source, note=f"{f} on IQ's population ladder")
        return out

    def _weapon_to_neutral(self, w: GurpsWeapon, col: Collector, path: str) -> Weapon | None:
        """A weapon line as what it is (core.catalog.Catalog.identify_weapon, one answer for every
        system): its catalog weapon (its ``catalog`` id, else what its name says, when its skill
        fires that kind of gun), with the line's own Shots where it states them; else a weapon of
        the class its skill fires (the kind of it the name says: a revolver), else of the class
        its name says, else (no skill, a name that says nothing) read by its Accuracy and said in
        a warning: never a silent pistol. A close-combat line is None (it crosses as melee)."""
        from xsys.core.registry import catalog

        cat = catalog()
        entry, word_class = (cat.weapons.get(w.catalog), None) if w.catalog else cat.identify_weapon(w.name)
        if entry is not None and w.skill and CLASS_SKILL[entry.weapon_class] != w.skill and \
                (SKILL_CLASS.get(w.skill) or class_of_skill(w.skill, w.Acc)) != entry.weapon_class:
            entry = None  # 'Glock 17' fired with Guns (Rifle) or Knife is not the catalog Glock
        if entry is not None:
            nw = msgspec.structs.replace(strip_entry(entry), name=w.name)
            if col.tracing:
                col.step(path, w.name, f"catalog {entry.id}", rules=["gurps.weapon-stats"], source="assumed")
            if w.Shots and w.Shots != entry.capacity:
                col.loss("assumed", f"{path}.Shots", f"{w.name}: the line states Shots {w.Shots}; catalog "
                         f"weapon {entry.id} holds {entry.capacity}: the stated {w.Shots} is kept", "gurps.weapon-stats")
                nw = msgspec.structs.replace(nw, capacity=w.Shots)
            self._damage_line_loss(w, nw, col, path)
            return nw  # type: ignore[return-value]
        if not w.skill:  # a melee word makes a close-combat weapon, unless the name says gun ("spear gun")
            close = melee_class_of(w.name) != "improvised" and "gun" not in w.name.lower()
            cls = word_class or ("" if close else None)
            if cls == "":
                col.loss("kept-verbatim", path, f"{w.name} (no skill; its name says a {melee_class_of(w.name)}) is a "
                         f"close-combat weapon: it crosses as one; its GURPS line is kept "
                         f"(carried.gurps.melee.{w.name})", "gurps.melee")
                return None
            if cls is None:
                cls = "handgun" if w.Acc <= 3 else "rifle"
                col.loss("unsupported-field", f"{path}.skill", f"{w.name!r} states no skill and its name says no weapon "
                         f"or class; read as a {cls} by its Acc {w.Acc} (up to 3 a pistol's): say its skill "
                         f"({', '.join(SKILL_CLASS)})", "gurps.weapon-stats")
        else:
            cls = SKILL_CLASS.get(w.skill)
        if cls is None:
            cls = class_of_skill(w.skill, w.Acc)
            if cls is None:
                col.loss("kept-verbatim", path, f"{w.name} ({w.skill}) is a close-combat weapon: it crosses as a "
                         f"{_melee_class(w)}; its GURPS line is kept (carried.gurps.melee.{w.name})",
                         "gurps.melee")
                return None
            # never a silent handgun: a Guns specialisation this plugin does not
            # list is read by its words, else by its Accuracy, and said so
            col.loss("unsupported-field", f"{path}.skill", f"{w.skill!r} is not one of "
                     + ", ".join(SKILL_CLASS) + f"; {w.name!r} is read as a {cls}", "gurps.weapon-stats")
        cls = cat.weapon_class_named(w.name, cls)  # a 'Revolver' fired with Guns (Pistol) is a revolver
        code = dice_code(w.damage)
        lad = self._lad["damage"]
        if not lad.has_native(code):
            near = lad.nearest_native(code)
            col.loss("rounded", f"{path}.damage", f"{w.damage} read as {dice_text(near)}", "gurps.damage")
            code = near
        energy = lad.neutral(code)
        col.loss("assumed", f"{path}.damage", f"{w.name}: no catalog match; {w.damage} -> muzzle energy "
                 f"{energy:g} J", "gurps.damage")
        modes = ["semi", "auto"] if "*" in w.RoF else ["semi"]
        nw = Weapon(name=w.name, weapon_class=cls, muzzle_energy=Energy(energy),  # type: ignore[arg-type]
                    fire_modes=modes, capacity=w.Shots,  # type: ignore[arg-type]
                    sights="none" if cls == "thrown" else "iron")
        self._damage_line_loss(w, nw, col, path)
        say_grenade(col, path, nw)
        return nw

    def _damage_line_loss(self, w: GurpsWeapon, nw: Weapon, col: Collector, path: str) -> None:
        """One weapon, one damage line (gurps.damage): a line whose own damage is not the line of
        the weapon it is (its catalog weapon's, or the cartridge its name states) is said, since a
        sheet written again from the neutral weapon does the weapon's line."""
        basis = _basis(nw)
        if basis.kind == "class":
            return
        line = self.damage_code(nw)
        if line == dice_code(w.damage):
            return
        if basis.kind == "catalog":
            what = f"it is catalog weapon {basis.entry.id}" + (f" ({basis.cartridge})" if basis.cartridge else "")
        else:
            what = f"its name states {basis.cartridge}"
        col.loss("merged", f"{path}.damage", f"{w.name}: {what}, whose damage line is {dice_text(line)}; the line's "
                 f"own {w.damage} is not that {'weapon' if basis.kind == 'catalog' else 'cartridge'}'s, and a sheet "
                 f"written again from the neutral weapon does {dice_text(line)} (one "
                 f"{'weapon' if basis.kind == 'catalog' else 'cartridge'}, one damage line)", "gurps.damage")

    def _weapon_from_neutral(self, w: Weapon, col: Collector, path: str) -> GurpsWeapon:
        s = self.weapon_stats(w)
        shots, usual = _shots(w)
        reach = f", 1/2D {s.half_D} m, Max {s.Max:,} m ({s.reach_origin})" \
            if s.half_D is not None and s.Max is not None else ""
        col.loss("assumed", path, f"{w.name}: GURPS line (damage {dice_text(s.damage)}, Acc {s.Acc}, SS {s.SS}, "
                 f"ST {s.ST}{reach}) from {s.origin}" + (f"; Shots {shots}, the usual {w.weapon_class}'s: no source "
                                                          "states its capacity" if usual else ""), "gurps.weapon-stats")
        return GurpsWeapon(name=w.name, skill=s.skill, damage=dice_text(s.damage), Acc=s.Acc, SS=s.SS, RoF=s.RoF,
                           Shots=shots, ST=s.ST, catalog=w.catalog, half_D=s.half_D, Max=s.Max)

    def _armor_to_neutral(self, a: GurpsArmor, col: Collector, path: str) -> Armor:
        from xsys.core.registry import catalog

        entry = catalog().find_armor(a.name, a.catalog, path=f"{path}.catalog")
        lad = self._lad["dr"]
        if entry is not None:
            # the catalog item, with what the sheet states of it: its PD (the neutral deflection,
            # gurps.pd), where it sits and, where the sheet's DR is not the item's, its DR
            out = msgspec.structs.replace(strip_entry(entry), name=a.name, deflection=a.PD)
            if a.locations != self._armor_locations(out.covers):
                out = msgspec.structs.replace(out, covers=list(a.locations))
            out = self._dr_at_to_neutral(a, out, entry, col, path)
            item_dr = int(lad.native(float(entry.stops)))
            if a.DR != item_dr:
                dr = a.DR if lad.has_native(a.DR) else lad.nearest_native(a.DR)
                out = msgspec.structs.replace(out, stops=Energy(lad.neutral(dr)))
                col.loss("assumed", f"{path}.DR", f"{a.name}: DR {a.DR} is not the DR of its catalog item {entry.id} "
                         f"({float(entry.stops):g} J: DR {item_dr}); the sheet's DR {dr} is kept (it stops "
                         f"{float(out.stops):g} J)", "gurps.armor")
            return out  # type: ignore[return-value]
        dr = a.DR if lad.has_native(a.DR) else lad.nearest_native(a.DR)
        if dr != a.DR:
            col.loss("rounded", f"{path}.DR", f"DR {a.DR} read as DR {dr}", "gurps.armor")
        plain = Armor(name=a.name, covers=list(a.locations), stops=Energy(lad.neutral(dr)),  # type: ignore[arg-type]
                      deflection=a.PD)
        return self._dr_at_to_neutral(a, plain, None, col, path)

    def _dr_at_to_neutral(self, a: GurpsArmor, out: Armor, entry: Any, col: Collector, path: str) -> Armor:
        """A line's lower DR at some locations (``DR_at``) as what the armor stops there: its
        catalog item's figures where they give that DR (a round trip is exact), else the DR's."""
        if not a.DR_at and not (entry is not None and out.stops_at):
            return out
        lad = self._lad["dr"]
        at: dict[str, Energy] = {}
        for c in out.covers:
            n = ARMOR_LOCATIONS.get(c)
            dr = a.DR_at.get(n) if n is not None else None  # type: ignore[call-overload]
            if dr is None:
                continue
            mine = out.stops_at.get(c) if entry is not None else None
            if mine is not None and int(lad.native(float(mine))) == dr:
                at[c] = mine
            else:
                dr = dr if lad.has_native(dr) else lad.nearest_native(dr)
                at[c] = Energy(min(lad.neutral(dr), float(out.stops)))
        if entry is not None and at != dict(out.stops_at):
            col.loss("assumed", f"{path}.DR_at", f"{a.name}: the sheet's DR by location "
                     f"({', '.join(f'{k} {v}' for k, v in a.DR_at.items()) or 'none'}) is not its catalog item's; "
                     "the sheet's is kept", "gurps.armor")
        return msgspec.structs.replace(out, stops_at=at)

    @staticmethod
    def _armor_locations(covers: Sequence[str]) -> list[str]:
        """The GURPS locations of neutral `covers` (gurps.hit-location), in order, once each."""
        out: list[str] = []
        for c in covers:
            n = ARMOR_LOCATIONS.get(c)
            if n is not None and n not in out:
                out.append(n)
        return out

    def _armor_from_neutral(self, a: Armor, col: Collector, path: str) -> GurpsArmor:
        dr = int(self._lad["dr"].native(float(a.stops)))
        locs: list[str] = []
        covers, helmet = armor_covers(a)
        if helmet:
            col.loss("assumed", f"{path}.covers", f"{a.name}: a helmet on the torso alone (what a source that "
                     "names no location leaves) is written as covering the head", "gurps.hit-location")
        elif a.catalog is None and a.kind == "other" and covers == ["torso"]:
            col.loss("assumed", f"{path}.covers", f"{a.name}: no catalog entry and no kind; it covers the torso, "
                     "the neutral default when a source names no location", "gurps.hit-location")
        for c in covers:
            n = ARMOR_LOCATIONS.get(c)
            if n is None:
                col.loss("unsupported-field", f"{path}.covers", f"{c} is no GURPS armor location")
            elif n not in locs:
                locs.append(n)
        pd, why = passive_defense(a)
        if why is not None:
            col.loss("assumed", f"{path}.PD", f"{a.name}: no passive defense stated; PD {pd} assumed ({why})",
                     "gurps.pd")
        if col.tracing:
            col.step(path, a.name, f"stops {float(a.stops):g} J", f"DR {dr}", rules=["gurps.armor"], source="assumed")
            col.step(f"{path}.PD", a.name, f"deflection {a.deflection}" if why is None else None, f"PD {pd}",
                     rules=["gurps.pd"], source="assumed")
        lower: dict[str, int] = {}  # a part that stops less (gurps.armor): its DR, the least of what maps there
        for c, e in a.stops_at.items():
            n = ARMOR_LOCATIONS.get(c)
            part = int(self._lad["dr"].native(float(e)))
            if n is not None and n in locs and part != dr:
                lower[n] = min(part, lower.get(n, part))
        if lower and col.tracing:
            col.step(f"{path}.DR_at", a.name, ", ".join(f"{c} {float(e):g} J" for c, e in a.stops_at.items()),
                     ", ".join(f"{n} DR {v}" for n, v in lower.items()), rules=["gurps.armor"], source="assumed")
        return GurpsArmor(name=a.name, PD=pd, DR=dr, locations=locs or ["torso"], DR_at=lower,  # type: ignore[arg-type]
                          catalog=a.catalog)

    # ---- shots -------------------------------------------------------------------------
    def shot_to_neutral(self, n: GurpsShot) -> Result[Shot]:
        from xsys.core.registry import catalog

        col = Collector(self.key)
        if isinstance(n.weapon, str):
            entry, word_class = catalog().identify_weapon(n.weapon)  # one answer for every system
            if entry is not None:
                weapon = strip_entry(entry)
            elif word_class is not None:
                weapon = msgspec.structs.replace(generic_weapon(word_class), name=n.weapon)
                col.loss("assumed", "$.weapon", f"{n.weapon!r} is no catalog weapon; its name says a {word_class}: "
                         f"the generic {word_class}'s muzzle energy and size", "gurps.damage")
            else:
                raise InputError("unknown weapon", path="$.weapon",
                                 expected="a catalog weapon (see `xsys catalog weapon`), a weapon class (pistol, "
                                          "revolver, smg, carbine, rifle, shotgun, machine gun) or a weapon line",
                                 found=repr(n.weapon))
            say_grenade(col, "$.weapon", weapon)
        else:
            weapon = self._weapon_to_neutral(n.weapon, col, "$.weapon")
            if weapon is None:
                raise InputError("not a ranged weapon", path="$.weapon.skill",
                                 expected="a Guns or Throwing skill", found=repr(n.weapon.skill))
            if weapon.catalog is None:
                back = self._weapon_from_neutral(weapon, Collector(self.key), "$.weapon")
                for f in ("Acc", "SS", "RoF", "ST", "half_D", "Max"):
                    if getattr(n.weapon, f) is not None and getattr(back, f) != getattr(n.weapon, f):
                        said = "1/2D" if f == "half_D" else f
                        col.loss("unsupported-field", f"$.weapon.{said}", f"{said} {getattr(n.weapon, f)} has no "
                                 f"neutral field; it reads as {getattr(back, f)} on the way back", "gurps.weapon-stats")
        cls_skill = CLASS_SKILL[weapon.weapon_class]
        skill = n.skill or (n.weapon.skill if isinstance(n.weapon, GurpsWeapon) else None) or cls_skill
        if skill != cls_skill:
            col.loss("merged", "$.skill", f"{skill} is read as {cls_skill}, the skill of a {weapon.weapon_class}")
        chance = self.competence(cls_skill, n.level)
        back = self.level_for(cls_skill, chance)
        if back != n.level:
            col.loss("rounded", "$.level", f"{cls_skill}-{n.level} has the same competence as "
                     f"{cls_skill}-{back}", "gurps.ranged-attack")
        col.step("$.level", f"{cls_skill}-{n.level}", f"competence {chance:.4f}", rules=["gurps.ranged-attack"],
                 note="equated over the battery [core.equating]")
        chars = {}
        if n.shooter_ST is not None:
            chars["strength"] = self._attr.neutral(n.shooter_ST)
        armor = [self._armor_to_neutral_dr(a, col, f"$.target_armor[{i}]") for i, a in enumerate(n.target_armor)]
        location = None
        if n.location is not None:
            location = LOCATION_TO_NEUTRAL[n.location]
            if n.location in LOSSY_LOCATIONS:
                col.loss("merged", "$.location", f"{n.location} is read as {location}", f"gurps.hit-location.{n.location}")
        # blind fire (gurps.ranged-modifiers.blind_fire) at a hidden target or in total darkness
        # is the neutral "cannot be seen at all": nothing shows, or 0 lx with no aid.
        blind_neutral = n.blind_fire and (n.exposure == "hidden" or n.light == -10)
        for f, rule in NATIVE_ONLY.items():
            v = getattr(n, f)
            if f == "blind_fire" and blind_neutral:
                continue
            if v not in (0, False, ""):
                col.loss("unsupported-field", f"$.{f}", f"{f} = {v!r} has no neutral equivalent "
                         "(Gurps.check_native keeps it)", rule)
        light = self._lad["light"].neutral(n.light)
        exposure = self._lad["exposure"].neutral(EXPOSURE_MOD[n.exposure])
        if blind_neutral and n.exposure == "hidden":
            exposure = 0.0
        # pop-up attack (gurps.ranged-modifiers.pop_up): the shooter fires from cover; half of
        # him shows while he pops out (assumed).
        shooter_cover = Cover(exposure=POP_UP_EXPOSURE) if n.pop_up else Cover()
        shot = Shot(
            name=n.name,
            shooter=Shooter(name=n.shooter, skill=chance, characteristics=chars, posture=n.shooter_posture,
                            speed=n.shooter_speed, off_hand=n.off_hand, braced=n.braced,
                            aim_time=Duration(n.aim_turns * TURN_SECONDS), cover=shooter_cover),
            weapon=weapon,
            target=Target(name=n.target, posture=n.target_posture, speed=n.target_speed, height=n.target_height,
                          cover=Cover(exposure=exposure, barrier=n.barrier), armor=armor),
            distance=n.distance, elevation=n.elevation, light=Light(illuminance=light),  # type: ignore[arg-type]
            called_location=location, underwater=n.underwater,  # type: ignore[arg-type]
        )
        return col.result(shot)

    def _armor_to_neutral_dr(self, a: GurpsArmor, col: Collector, path: str) -> Armor:
        """Target armor of a shot goes by its DR alone, so that the shot round-trips."""
        lad = self._lad["dr"]
        dr = a.DR if lad.has_native(a.DR) else lad.nearest_native(a.DR)
        if dr != a.DR:
            col.loss("rounded", f"{path}.DR", f"DR {a.DR} read as DR {dr}", "gurps.armor")
        return Armor(name=a.name, covers=list(a.locations), stops=Energy(lad.neutral(dr)),  # type: ignore[arg-type]
                     catalog=a.catalog, deflection=a.PD)

    def shot_from_neutral(self, shot: Shot) -> Result[GurpsShot]:
        from xsys.core.registry import catalog

        col = Collector(self.key)
        w = shot.weapon
        weapon: str | GurpsWeapon
        entry = catalog().weapons.get(w.catalog) if w.catalog else None
        if entry is not None and w.name in (entry.name, entry.id):
            weapon = w.catalog  # type: ignore[assignment]
        else:  # a weapon line keeps its own name beside its catalog id
            weapon = self._weapon_from_neutral(w, col, "$.weapon")
        skill = CLASS_SKILL[w.weapon_class]
        step = self.skill_ladder(skill).step_for(float(shot.shooter.skill))
        col.step("$.level", None, f"competence {float(shot.shooter.skill):.4f}",
                 f"{skill}-{step.native} (competence {step.rep:.4f})", rules=[step.rule], source=step.source,
                 note="equated over the battery [core.equating]")
        lx = self._lad["light"].step_for(float(shot.light.illuminance))
        # The text has no vision aids: the shot is written with the light modifier after the
        # aid's assumed cap (light_modifier), the modifier the check of the neutral shot applies.
        light_mod, _, light_why = self.light_modifier(shot)
        aid_words = list(shot.light.aids) + ([f"the weapon's {w.sights}"] if w.sights in NV_SIGHTS else [])
        if light_mod != int(lx.native):
            col.loss("merged", "$.light.aids", f"{', '.join(aid_words)}: the GURPS text has no vision aids; the shot "
                     f"is written with light {light_mod} ({light_why}) instead of {int(lx.native)} ({lx.label}); "
                     "read back, it is that light without the aid", "gurps.hit-modifiers")
        elif shot.light.aids:
            col.loss("unsupported-field", "$.light.aids", f"{', '.join(shot.light.aids)}: the GURPS text has no "
                     f"vision aids; here the aid changes no light modifier (light {light_mod}: {light_why})",
                     "gurps.hit-modifiers")
        ex = self._lad["exposure"].step_for(float(shot.target.cover.exposure))
        if abs(ex.rep - float(shot.target.cover.exposure)) > 1e-9:
            col.loss("rounded", "$.target.cover.exposure", f"visible fraction {float(shot.target.cover.exposure):g} "
                     f"-> {EXPOSURE_KEY[ex.native]}", "gurps.ranged-modifiers")
        ST = None
        if "strength" in shot.shooter.characteristics:
            ST = int(self._attr.step_for(float(shot.shooter.characteristics["strength"])).native)
        turns = math.floor(float(shot.shooter.aim_time) / TURN_SECONDS + 1e-9)
        aims = turns > 0 and not exact(float(shot.shooter.speed)) > STEP_SPEED
        pop_up = float(shot.shooter.cover.exposure) < 1 and not aims  # a pop-up shot is unaimed (the check)
        if pop_up and abs(float(shot.shooter.cover.exposure) - POP_UP_EXPOSURE) > 1e-9:
            col.loss("merged", "$.shooter.cover", f"the shooter's cover (visible fraction "
                     f"{float(shot.shooter.cover.exposure):g}) is read as a pop-up attack", "gurps.ranged-modifiers.pop_up")
        elif float(shot.shooter.cover.exposure) < 1 and aims:
            col.loss("unsupported-field", "$.shooter.cover", f"the shooter's cover (visible fraction "
                     f"{float(shot.shooter.cover.exposure):g}): he aims from it, so no pop-up attack; the text has no "
                     "modifier for a shooter's own cover", "gurps.ranged-modifiers.pop_up")
        exposure0 = float(shot.target.cover.exposure) == 0 and not behind_see_through(shot.target.cover.barrier,
                                                                                     ex.native)
        dark = float(shot.light.illuminance) == 0 and not (set(shot.light.aids) & (NV_AIDS | LIGHT_AIDS)
                                                           or w.sights in NV_SIGHTS)
        for path, cond, msg in (
            ("$.burst", shot.burst > 1, "the text has no autofire rule"),
            ("$.shooter.hands", shot.shooter.hands == 1 and w.weapon_class not in SHORT_ARMS,
             "one-handed long arm: no modifier in the text"),
        ):
            if cond:
                col.loss("unsupported-field", path, msg)
        armor = [self._armor_from_neutral(a, col, f"$.target.armor[{i}]") for i, a in enumerate(shot.target.armor)]
        if turns > MAX_AIM_TURNS:  # the shot document holds at most 100 turns of aim
            col.loss("clamped", "$.shooter.aim_time", f"{float(shot.shooter.aim_time):g} s of aim is "
                     f"{turns:g} turns; written as {MAX_AIM_TURNS} (aim gives nothing past 3 turns)",
                     "gurps.maneuvers.aim")
            turns = MAX_AIM_TURNS
        turns = int(turns)
        return col.result(GurpsShot(
            name=shot.name, shooter=shot.shooter.name, level=int(step.native), weapon=weapon,
            distance=shot.distance, target=shot.target.name, target_speed=shot.target.speed,
            target_height=shot.target.height, target_posture=shot.target.posture,
            exposure=EXPOSURE_KEY[ex.native], barrier=shot.target.cover.barrier, target_armor=armor,  # type: ignore[arg-type]
            light=light_mod, aim_turns=turns, braced=shot.shooter.braced,
            shooter_posture=shot.shooter.posture, shooter_speed=shot.shooter.speed, off_hand=shot.shooter.off_hand,
            shooter_ST=ST, elevation=shot.elevation,
            location=LOCATION_TO_NATIVE[shot.called_location] if shot.called_location else None,  # type: ignore[arg-type]
            underwater=shot.underwater, pop_up=pop_up, blind_fire=exposure0 or dark,
        ))


@lru_cache(maxsize=1024)
def _damage_past_dr(code: int, dr: int, mult: Fraction, cap: int | None = None) -> tuple[float, dict[str, str]]:
    """Mean and distribution of one hit's damage past DR (at most ``cap``): the same for every
    shot with the same dice, DR, multiplier and cap, so computed once."""
    dist: dict[int, Fraction] = {}
    for v, p in damage_distribution(code).items():
        dmg = math.floor(max(0, v - dr) * mult)
        if cap is not None:
            dmg = min(dmg, cap)
        dist[dmg] = dist.get(dmg, Fraction(0)) + p
    mean = float(sum(k * p for k, p in dist.items()))
    return mean, {str(k): fraction_text(p) for k, p in sorted(dist.items())}


def _apply(tn: int, m: Modifier) -> int:
    """Fold a house-rule modifier into the target number by its kind (dice: one point per
    die; difficulty: +1 difficulty = -1; assumed, see README)."""
    v = m.value
    if m.kind == "set":
        return int(v) if isinstance(v, (int, float)) else tn
    if not isinstance(v, (int, float)):
        return tn
    if m.kind == "multiply":
        return math.floor(tn * v)
    if m.kind == "difficulty":
        return tn - int(v)
    return tn + int(v)


__all__ = ["Gurps", "BANDS", "success", "lookup", "rule_tables", "effective_distance", "dice_code", "dice_text"]
