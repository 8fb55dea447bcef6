"""The rules of GURPS 3rd edition that xsys plays (shared/rules/gurps-3e-tables.md; data in tables.toml,
rules.toml and weapons.toml): the success roll, the ranged-attack modifiers, damage past DR, close
combat and the published tiers. :class:`GurpsRules` is the game; sheet.py maps the character sheet
and the shot to the neutral model; system.py is the declaration that binds them.

Per-shot arithmetic of the GURPS check that depends on a few small values only, computed
once per process (warm odds of a shot within 1 ms).

:func:`shot_damage` is the damage distribution of one shot in ``Gurps._evaluate``: a hit's
damage past DR (given as text, as ``_damage`` returns it) weighted by the chance to hit, a
miss by 1 that hits another location (gurps.hit-location) weighted by its chance, misses at
0. Parsing "p/q" texts into Fractions and multiplying them out on every call cost most of a
check. ``tests/test_fast_odds.py`` checks that it gives exactly the plain computation.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, Sequence

import msgspec

from xsys.core import cache, dice
from xsys.core.armorline import says_helmet
from xsys.core.dice import RollUnderBands, roll_under
from xsys.core.equating import Tier
from xsys.core.errors import InputError
from xsys.core.formulas import Formula
from xsys.core.ladder import Ladder, ladders_from_data
from xsys.core.melee import MeleeItem, attack_check, reference_armor
from xsys.core.model import Armor, Shot, Weapon
from xsys.core.model import thrown_blade as thrown_blade_class
from xsys.core.system import TIER_RULE, System, tier_choice
from xsys.core.trace import Check, Modifier, fraction_text
from xsys.core.units import brief
from xsys.core.vocab import SHORT_ARMS, is_sawn_off

from .native import GurpsShot, GurpsWeapon


_MEMO: dict[tuple, tuple[tuple[str, str], ...]] = {}
_LIMIT = 4096  # answers kept: memory stays bounded however many shots are asked


def shot_damage(hit: Mapping[str, str], chance: Fraction, redirect: Mapping[str, str] | None = None,
                redirect_p: Fraction = Fraction(0)) -> dict[str, str]:
    """``{"points": "p/q"}`` of one shot: `hit` (a hit's damage distribution as text) with
    probability `chance`, `redirect` (the other location's) with `redirect_p` when given
    and not 0, no damage otherwise; zero probabilities left out. A new dict each call."""
    use_redirect = redirect is not None and bool(redirect_p)
    key = (tuple(hit.items()), chance, tuple(redirect.items()) if use_redirect and redirect is not None else None,
           redirect_p)
    found = _MEMO.get(key)
    if found is None:
        per_shot = {int(k): Fraction(v) * chance for k, v in hit.items()}
        if use_redirect and redirect is not None:
            for k, v in redirect.items():
                per_shot[int(k)] = per_shot.get(int(k), Fraction(0)) + Fraction(v) * redirect_p
        per_shot[0] = per_shot.get(0, Fraction(0)) + (1 - chance - redirect_p)
        found = tuple((str(k), fraction_text(p)) for k, p in sorted(per_shot.items()) if p)
        if len(_MEMO) < _LIMIT:
            _MEMO[key] = found
    return dict(found)


def clear_caches() -> None:
    """Forget the remembered answers (tests)."""
    _MEMO.clear()


HERE = Path(__file__).parent


def _class_cartridge(weapon: Weapon, basis: Any) -> str:
    """The cartridge a weapon of no catalog entry and no stated cartridge fires by its class
    (weapons.toml [class.*] cartridge: a shotgun whose gauge no source states is a 12 gauge,
    gurps.weapon-stats, assumed): its shot is not a bullet of the same energy (the 12 gauge's 2400 J
    reads 6d on the damage ladder; a 12-gauge load is 4d). "": none."""
    if basis.entry is not None or basis.cartridge:
        return ""
    data = _toml("weapons.toml")["class"]
    return data.get(weapon.weapon_class, {}).get("cartridge", "")


def _damage_origin(basis: Any, weapon: Weapon | None = None) -> str:
    """Where a GURPS line's damage comes from, in the words of its loss line."""
    by_class = _class_cartridge(weapon, basis) if weapon is not None else ""
    if by_class:
        return (f", damage of {by_class}, the cartridge of a {weapon.weapon_class} whose own no source states "
                "(weapons.toml [class], gurps.damage)")
    if basis.kind == "cartridge" and "name" in basis.said:
        return f", damage of {basis.cartridge}, the cartridge its name states (gurps.damage)"
    if basis.cartridge:
        return f", damage of {basis.cartridge} (gurps.damage)"
    if basis.entry is not None:
        return f", damage at catalog weapon {basis.entry.id}'s {basis.energy:g} J (gurps.damage)"
    return f", damage at its own {basis.energy:g} J: no catalog weapon or cartridge says more (gurps.damage)"


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
# Derived values carried as neutral values of their own, not as offsets kept for GURPS:
# Will and Per as the will and perception characteristics, Dodge as the dodge (gurps.dodge).
MINDS = {"Will": "will", "Per": "perception"}
# gurps.melee (assumed): a close-combat weapon known only by its class, as the 3e Basic Set
# weapon table gives its line (tables.toml [melee.*]): skill, damage as thrust or swing plus an
# add (so the wielder's own ST sets the dice, thrust_swing), damage type; its reach and the skill
# a line of the class that names none is wielded with; a natural weapon's type by its name
_MELEE = cache.package_toml(__package__)["melee"]
MELEE_LINES = {k: (v["skill"], v["damage"][0], v["damage"][1], v["type"]) for k, v in _MELEE.items()}
MELEE_REACH = {k: v["reach"] for k, v in _MELEE.items() if "reach" in v}
MELEE_WIELDED_WITH = {k: v.get("wielded_with", v["skill"]) for k, v in _MELEE.items() if k != "natural"}
NATURAL_TYPES = tuple((k, tuple(v)) for k, v in cache.package_toml(__package__)["melee_natural_types"].items())


def natural_type(name: str) -> str:
    """gurps.melee (assumed): a natural weapon's damage type by its name (NATURAL_TYPES), else cut."""
    low = (name or "").lower()
    for dtype, words in NATURAL_TYPES:
        if any(w in low for w in words):
            return dtype
    return MELEE_LINES["natural"][3]


def melee_damage(cls: str, st: int) -> str:
    """gurps.melee (assumed): a class line's damage dice for a wielder of ST `st`."""
    _, base, add, _ = MELEE_LINES[cls]
    thr, sw = thrust_swing(st)
    return dice_text((thr if base == "thr" else sw) + add)


CLOSE_COMBAT = frozenset({"Brawling", "Knife", "Axe/Mace", "Broadsword", "Shortsword", "Spear", "Staff"})
MEDIAN_DODGE = 5
MEDIAN_PARRY = 6
_THR_SW = {st: tuple(row) for st, row in enumerate(cache.package_toml(__package__)["melee_thrust_swing"]["rows"], 1)}
_THR_SW_STEPS = tuple((int(st), thr, sw) for st, thr, sw in cache.package_toml(__package__)["melee_thrust_swing"]["beyond"])


# gurps.size (assumed: the 4th-edition Basic Set's Size and Speed/Range Table; the 3rd-edition rule text has no
# Size Modifier): a creature's longest dimension by its SM, in yards, the table repeating tenfold every six steps
_SM_YARDS = (2, 3, 5, 7, 10, 15)
# a man's size against the top of what ordinary adults have (the d100 rules' SIZ 2D6+6: median 13, top 18), for
# a creature's size as a multiple of the top of every size table (core.beyond)
MAN_OF_TOP = 13 / 18


def size_ratio(sm: int | None) -> float:
    """How many times a man's length (SM 0, 2 yd) a creature of Size Modifier `sm` is (1 at SM 0 and below)."""
    if sm is None or sm <= 0:
        return 1.0
    return _SM_YARDS[sm % 6] * 10 ** (sm // 6) / 2


def size_gain(sm: int | None) -> float:
    """gurps.size: what a creature's bulk adds to its hit points, counted beside HT as the d100 rules count SIZ
    beside CON (HP = (CON + SIZ) / 2): (1 + its length in a man's) / 2; 1 for a man."""
    return (1 + size_ratio(sm)) / 2


def sm_of(ratio: float) -> int:
    """The Size Modifier whose length is nearest, on a log scale, to `ratio` times a man's (0 for a man)."""
    return min(range(31), key=lambda n: abs(math.log(size_ratio(n) / ratio)))


def thrust_swing(st: int) -> tuple[int, int]:
    """3e thrust and swing damage of ST as dice codes: the Basic Set's table (tables.toml
    [melee_thrust_swing]; past its last step, ST 100, one more die of each per 10 ST; assumed)."""
    st = max(1, int(st))
    if st <= 20:
        thr, sw = _THR_SW[st]
        return dice_code(thr), dice_code(sw)
    top, thr, sw = next(step for step in reversed(_THR_SW_STEPS) if step[0] <= st)
    extra = 4 * ((st - top) // 10) if top == _THR_SW_STEPS[-1][0] else 0
    return dice_code(thr) + extra, dice_code(sw) + extra


# ---- skills ----------------------------------------------------------------------------

# tables.toml [skills]: each mapped skill's neutral skills, its default (gurps.defaults), the
# lowest level points buy (gurps.skill-cost), the weapon class it fires, the thrown blade it is for
_SKILL_ROWS: dict[str, dict[str, Any]] = cache.package_toml(__package__)["skills"]
SKILLS: dict[str, tuple[str, ...]] = {k: tuple(row["neutral"]) for k, row in _SKILL_ROWS.items()}
# skills a sheet writes only for the weapon lines that use them, never from the neutral skill
# alone (System.line_skills)
THROWN_BLADE_SKILLS = {row["thrown_blade"]: k for k, row in _SKILL_ROWS.items() if "thrown_blade" in row}
LINE_SKILLS = frozenset(THROWN_BLADE_SKILLS.values())
DEFAULT_OF: dict[str, tuple[str, int]] = {k: (row["default"][0], int(row["default"][1])) for k, row in _SKILL_ROWS.items()}
LOWEST_BOUGHT: dict[str, int] = {k: row["bought"] for k, row in _SKILL_ROWS.items() if "bought" in row}
# the sense rolls: on Per, written on a sheet at any level (not skills bought with points)
SENSE_ROLLS = frozenset(k for k, row in _SKILL_ROWS.items() if row.get("sense"))
# the same at median attributes (10): the untrained anchor of a skill with no battery
SKILL_DEFAULTS = {k: 10 + off for k, (_, off) in DEFAULT_OF.items()}
SKILL_CLASS = {k: row.get("weapon_class", "thrown") for k, row in _SKILL_ROWS.items()
               if "weapon_class" in row or "thrown_blade" in row}

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
    if a.kind == "natural":  # a creature's skin or hide: its DR deflects nothing (3e Toughness)
        return PD_BY_KIND["natural"], "natural armor: a creature's skin or hide"
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


class WeaponStats(msgspec.Struct, frozen=True):
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
    type: str = "cr"  # the damage type (3e bullets crush; a thrown blade cuts or impales)


def thrown_blade(weapon: Weapon) -> str | None:
    """The class of a thrown weapon whose name says a blade 3e throws with a skill of its own
    (a hatchet or axe, a knife, a spear: THROWN_BLADE_SKILLS; core.model.thrown_blade), else None."""
    cls = thrown_blade_class(weapon.weapon_class, weapon.name)
    return cls if cls in THROWN_BLADE_SKILLS else None


def thrown_blade_stats(blade: str, st: int) -> WeaponStats:
    """The line of a thrown blade at the thrower's ST (weapons.toml [thrown.*], assumed): its
    skill, thrust or swing plus its add, its type, SS and Acc, and 1/2D and Max from ST."""
    row = _toml("weapons.toml")["thrown"][blade]
    thr, sw = thrust_swing(st)

    def reach(key: str) -> int | None:
        if key in row:
            return max(1, int(math.floor(st * float(row[key]) + 0.5)))
        return st + int(row[f"{key}_plus"]) if f"{key}_plus" in row else None

    return WeaponStats(skill=row["skill"], damage=(thr if row["damage"] == "thr" else sw) + int(row["add"]),
                       Acc=int(row["Acc"]), SS=row.get("SS"), RoF="1", ST=None, source="assumed",
                       origin=f"weapons.toml [thrown.{blade}] at ST {st} ({row['damage']}"
                              f"{int(row['add']):+d} {row['type']})".replace("+0 ", " "),
                       half_D=reach("half_D"), Max=reach("Max"), reach_origin=f"weapons.toml [thrown.{blade}], ST {st}",
                       type=row["type"])


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


class GurpsRules(System):
    """The game of :class:`Gurps` (its checks and its rules), which sheet.py's conversions and
    system.py's declaration build on."""

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
        ctx = context or {}
        # Per is IQ on a sheet that states no other (gurps.derived)
        value = (ctx.get(spec[0]) if spec[0] != "Per" or ctx.get("Per") is not None else ctx.get("IQ")) if spec else None
        if value is None:
            return None
        return max(0, int(value) + spec[1]), "gurps.defaults"  # type: ignore[index]

    def floor_unwritten(self, skill: str) -> bool:
        """gurps.defaults: a 3e sheet lists the skills the NPC has points in; one he only has at
        its default is not written (he rolls DX or IQ minus the default). The sense rolls
        (Vision, Hearing) are rolls on Per a sheet shows whatever his training."""
        return skill in DEFAULT_OF and skill not in SENSE_ROLLS

    @staticmethod
    def _bought_gap(skill: str, context: Mapping[str, Any] | None) -> tuple[int, int] | None:
        """(the NPC's default, the lowest level half a point buys) of `skill` (gurps.skill-cost)."""
        low, spec = LOWEST_BOUGHT.get(skill), DEFAULT_OF.get(skill)
        attr = (context or {}).get(spec[0]) if spec else None
        if low is None or not isinstance(attr, int):
            return None
        return max(0, attr + spec[1]), attr + low  # type: ignore[index]

    def level_text(self, skill: str, level: Any) -> str:
        return f"{skill}-{level}"  # as a 3e sheet prints a skill: Guns (Pistol)-12

    def written_level(self, skill: str, level: Any, context: Mapping[str, Any] | None = None) -> Any:
        """A level between the NPC's default and the lowest level half a point buys is on no 3e
        sheet (gurps.skill-cost, LOWEST_BOUGHT): the nearer of the two, the bought one on a tie,
        unless the other keeps the source skill's tier where the nearer does not (core.tiers); where
        neither does and the level itself does, the level stays (an NPC need not be built on points)."""
        return self._snapped(skill, level, context)[0]

    def _snapped(self, skill: str, level: Any, context: Mapping[str, Any] | None) -> tuple[Any, str]:
        """written_level with the trace's note where the level was settled by the source skill's
        tier (core.tiers: the one that reads back into it), not by nearness."""
        gap = self._bought_gap(skill, context)
        if gap is None or not isinstance(level, int) or isinstance(level, bool) or not gap[0] < level < gap[1]:
            return level, ""
        untrained, bought = gap
        nearer = bought if bought - level <= level - untrained else untrained
        ctx = {k: v for k, v in (context or {}).items() if not k.startswith("@")}
        tiered = tier_choice(self, skill, list(self.skills().get(skill, ())), ctx,
                             (nearer, untrained if nearer == bought else bought, level), nearer)
        if tiered is None:
            return nearer, ""
        if tiered[0] == level:
            return level, tiered[1].replace(
                "; rounded toward the source's tier:", "; kept off the points table, as both levels a 3e sheet can "
                "have leave the source's tier (an NPC need not be built on points):", 1)
        return tiered

    def levels_bought(self, levels: dict[str, Any], context: Mapping[str, Any], col: Any, path: str = "$",
                      kept: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Each skill at a level a 3e sheet can have (gurps.skill-cost, LOWEST_BOUGHT): one that
        lands between the NPC's default and the lowest level half a point buys is written at the
        nearer of the two (the bought one on a tie: he has trained), a ``rounded`` loss; where both
        would leave the source skill's tier and the level keeps it, the level stays, said as
        ``assumed`` (an NPC need not be built on points). A level this system's own sheet stated
        (`kept`) stays."""
        for skill, level in list(levels.items()):
            if (kept or {}).get(skill) == level:
                continue
            # of the two, the one that keeps the source skill's tier (core.tiers), else the nearer
            written, why = self._snapped(skill, level, context)
            if written == level and not why:
                continue
            untrained, bought = self._bought_gap(skill, context)  # type: ignore[misc]
            spec, low, attr = DEFAULT_OF[skill], LOWEST_BOUGHT[skill], context[DEFAULT_OF[skill][0]]
            levels[skill] = written
            col.loss("rounded" if written != level else "assumed", f"{path}.{skill}",
                     f"{skill}-{level} is on no 3e sheet at {spec[0]} {attr}: untrained it is {untrained} "
                     f"({spec[0]}{spec[1]:+d}), half a point buys {bought} ({spec[0]}{low:+d}); "
                     f"written {skill}-{written}{why}", "gurps.skill-cost")
            if col.tracing:
                col.step(f"{path}.{skill}", f"{skill}-{level}", None, f"{skill}-{written}",
                         rules=["gurps.skill-cost", *([TIER_RULE] if why else [])], source="assumed",
                         note="a 3e sheet has a skill at its default or at a level points buy" + why)
        return levels

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

    # ---- weapons -----------------------------------------------------------------------
    def weapon_stats(self, weapon: Weapon, st: int | None = None) -> WeaponStats:
        """A neutral weapon's GURPS line: the catalog entry of weapons.toml, else the class
        line, with damage from the muzzle-energy ladder (all gurps.weapon-stats, assumed). A
        thrown blade is thrown with its own skill, at the thrower's ST `st` (10 where no one
        says): thrown_blade_stats."""
        blade = thrown_blade(weapon)
        if blade is not None:
            return thrown_blade_stats(blade, 10 if st is None else st)
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
                   + _damage_origin(basis, weapon),
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
        row = _toml("weapons.toml").get("cartridge", {}).get(basis.cartridge or _class_cartridge(weapon, basis), {})
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
        why = f"{brief(d, 'm')}" + (f" + speed {float(exact(float(shot.target.speed) * KMH_PER_MPS)):g} km/h / 3 = "
                            f"{float(sv):g}" if sv else "") + f" -> {st_true.at:g} m row"
        add("gurps.ssr", st_true.native, "seed", f"speed/range: {why}")
        range_mod = st_true.native
        d_eff = effective_distance(dx, exact(elev))
        if d_eff != dx:
            st_eff = ssr.steps[ssr_index(ssr, d_eff + sv)]
            rule = "gurps.height.shoot_down" if elev > 0 else "gurps.height.shoot_up"
            add(rule, st_eff.native - st_true.native, "seed",
                f"{'shooting down' if elev > 0 else 'shooting up'} {brief(abs(elev), 'm')}: distance counts as "
                f"{brief(d_eff, 'm')}")
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
            dmg_dist = shot_damage(hit_dist, chance, r_dist, redirect_p)
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
                mod, src, why = cap, "assumed", why + f"; lit by a light at {brief(d, 'm')}: {cap}"
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
