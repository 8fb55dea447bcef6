"""Native GURPS 3rd edition documents: the stat block, its weapons and armor, and one shot
as a GURPS scenario writes it. Field names are the game's own (ST, DX, Acc, SS ...)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from xsys.core.model import Barrier
from xsys.core.units import Length, SignedLength, Speed

# a creature's ST may be far above any adult's (a giant's ST 60, a dragon's in the hundreds): read, and
# clamped to the population's table where another system has none for it
Attr = Annotated[int, Meta(ge=1, le=999, description="a GURPS attribute (10 = average adult)")]
Derived = Annotated[int, Meta(ge=0, le=60)]
HitPoints = Annotated[int, Meta(ge=0, le=999, description="hit points (a creature's may be far above HT)")]
Level = Annotated[int, Meta(ge=-10, le=40, description="a skill level (3d6 roll-under)")]
Name = Annotated[str, Meta(max_length=200)]
Text = Annotated[str, Meta(max_length=20_000)]
Dice = Annotated[str, Meta(pattern=r"^\d{1,2}d([+-]\d{1,2})?$", description="damage dice, e.g. '2d+2'")]

DamageType = Literal["cr", "cut", "imp"]  # 叩き / 切り / 刺し (firearms in 3e: crushing)
# Native postures of gurps.posture.
Posture = Literal["standing", "crouching", "kneeling", "sitting", "crawling", "prone"]
# How much of the target shows (gurps.ranged-modifiers, target posture group).
Exposure = Literal["full", "light_cover", "half", "head_shoulders", "head_only", "hidden"]
# Called shot keys of gurps.hit-location.
HitLocation = Literal[
    "head", "face", "eye", "eye_helmet_gap", "jaw", "nose", "throat", "arm_far", "hand_random",
    "hand_far", "arm_near", "torso", "leg_far", "leg_near", "foot_random", "vitals", "kidneys",
    "groin", "weapon", "disarm",
]
# Parts an armor piece covers (same words as the neutral model's locations).
ArmorLocation = Literal["head", "face", "neck", "torso", "vitals", "groin", "arms", "hands", "legs", "feet"]
Unfamiliar = Literal["", "unfamiliar_same_type", "unknown_weapon"]


class _Base(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    pass


class GurpsWeapon(_Base, kw_only=True):
    """A weapon line of a GURPS 3e stat block."""

    # in the order of a 3e weapon table's columns (a Markdown sheet prints them so)
    name: Name
    damage: Dice
    type: DamageType = "cr"
    SS: Annotated[int, Meta(ge=0, le=40)] | None = None
    Acc: Annotated[int, Meta(ge=0, le=30)] = 0
    # the range at which damage halves and the farthest it reaches, in metres (the Japanese
    # Basic Set measures in metres and hexes of 1 m: gurps.ssr); gurps.weapon-stats, assumed
    half_D: Annotated[int, Meta(ge=0, le=100_000)] | None = msgspec.field(default=None, name="1/2D")
    Max: Annotated[int, Meta(ge=0, le=100_000)] | None = None
    RoF: Annotated[str, Meta(max_length=20)] = "1"
    Shots: Annotated[int, Meta(ge=0, le=10_000)] = 0
    ST: Annotated[int, Meta(ge=0, le=30)] | None = None
    # the skill that fires it; a line that states none is what its catalog weapon or its name
    # says (a close-combat weapon by a melee word), never silently a pistol
    skill: Name | None = None
    catalog: Name | None = None  # id in the xsys catalog, when it is a catalogued weapon


class GurpsMelee(_Base, kw_only=True):
    """A close-combat weapon as a 3e sheet's melee table writes it (gurps.melee): the skill it
    is wielded with, its damage as the weapon tables give it (thrust or swing of the wielder's
    ST plus the weapon's add: "sw+1", or dice where a stat block states dice), what that rolls
    at the wielder's ST, its damage type, its reach (C: close combat only; 1, 2: hexes) and the
    parry the wielder's skill gives. No Acc, RoF or Shots: those are a ranged weapon's."""

    # in the order of a 3e melee table's columns (a Markdown sheet prints them so)
    name: Name
    damage: Annotated[str, Meta(pattern=r"^((sw|thr)([+-]\d{1,2})?|\d{1,2}d([+-]\d{1,2})?)$",
                                description="'sw+1' / 'thr-2' (by the wielder's ST), or dice ('1d+2')")]
    dice: Dice | None = None  # the damage at the wielder's ST, where `damage` is by swing or thrust
    type: DamageType = "cr"
    reach: Annotated[str, Meta(pattern=r"^(C|\d)(,\d)?$", description="C, 1, 2 or a span such as C,1")] | None = None
    parry: Annotated[int, Meta(ge=0, le=30)] | None = None
    skill: Name


class GurpsArmor(_Base, kw_only=True):
    """An armor piece: passive defense, damage resistance and what it covers."""

    name: Name
    PD: Annotated[int, Meta(ge=0, le=10)] = 0
    DR: Annotated[int, Meta(ge=0, le=200)]
    locations: list[ArmorLocation] = msgspec.field(default_factory=lambda: ["torso"])
    # a lower DR on some of its locations (a full kit's helmet and limb shells); `DR` elsewhere
    DR_at: dict[ArmorLocation, Annotated[int, Meta(ge=0, le=200)]] = msgspec.field(default_factory=dict)
    catalog: Name | None = None


class GurpsCarried(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What a gurps stat block puts in the neutral NPC's ``carried: {gurps: ...}`` (and takes
    back from it): what only GURPS states, verbatim (xsys.core.carried)."""

    skills: dict[Name, Level] = msgspec.field(default_factory=dict)  # skills no neutral key holds
    advantages: list[Name] = msgspec.field(default_factory=list)
    disadvantages: list[Name] = msgspec.field(default_factory=list)
    melee: dict[Name, dict] = msgspec.field(default_factory=dict)  # close-combat weapon lines by name
    weapons: dict[Name, dict] = msgspec.field(default_factory=dict)  # lines no neutral weapon holds (a bow), by name


class GurpsNpc(_Base, kw_only=True):
    """A GURPS 3rd edition stat block."""

    name: Name
    ST: Attr = 10
    DX: Attr = 10
    IQ: Attr = 10
    HT: Attr = 10
    # Derived (gurps.derived): HP = HT, Will = IQ, Per = IQ, Move = (HT + DX) / 4 rounded
    # down, Dodge = Move. Written explicitly; a value that differs (an advantage) is kept.
    HP: HitPoints | None = None
    Will: Derived | None = None
    Per: Derived | None = None
    Move: Derived | None = None
    Dodge: Derived | None = None
    # A creature's Size Modifier (4th edition's; gurps.size, assumed): +1 a creature 3 yd long, +2 5 yd ... A man
    # is 0, which is left out.
    SM: Annotated[int, Meta(ge=-15, le=30)] | None = None
    skills: dict[Name, Level] = msgspec.field(default_factory=dict)
    advantages: list[Name] = msgspec.field(default_factory=list)
    disadvantages: list[Name] = msgspec.field(default_factory=list)
    weapons: list[GurpsWeapon] = msgspec.field(default_factory=list)
    # close-combat weapons, the melee table (a stat block that lists them among its weapons,
    # as a text block does, is read the same way)
    melee: list[GurpsMelee] = msgspec.field(default_factory=list)
    armor: list[GurpsArmor] = msgspec.field(default_factory=list)
    notes: Text = ""


class GurpsShot(_Base, kw_only=True):
    """One ranged attack as a GURPS scenario states it."""

    name: Name = ""
    shooter: Name = ""
    skill: Name | None = None  # default: the weapon's skill
    level: Level  # the shooter's skill level
    weapon: Name | GurpsWeapon  # catalog id, or a weapon line
    distance: Length
    target: Name = ""
    target_speed: Speed = Speed(0.0)  # e.g. "15 km/h"; gurps.ssr reads it as km/h / 3
    target_height: Length = Length(1.75)  # size column of gurps.ssr
    target_posture: Posture = "standing"
    exposure: Exposure = "full"
    barrier: Barrier | None = None  # what the hidden part is behind
    target_armor: list[GurpsArmor] = msgspec.field(default_factory=list)
    light: Annotated[int, Meta(ge=-10, le=0)] = 0  # gurps.hit-modifiers poor_light / darkness
    aim_turns: Annotated[int, Meta(ge=0, le=100)] = 0
    braced: bool = False
    shooter_posture: Posture = "standing"
    shooter_speed: Speed = Speed(0.0)
    off_hand: bool = False
    shooter_ST: Attr | None = None
    elevation: SignedLength = SignedLength(0.0)  # shooter's height above the target (negative: below)
    location: HitLocation | None = None
    underwater: bool = False
    # Native situations with no neutral equivalent (kept by check_native, reported as loss
    # when converted out): gurps.ranged-modifiers and gurps.hit-modifiers rows.
    behind_characters: Annotated[int, Meta(ge=0, le=20)] = 0
    opportunity_hexes: Annotated[int, Meta(ge=0, le=1000)] = 0
    checking_target: bool = False
    pop_up: bool = False
    nearsighted: bool = False
    one_eye: bool = False
    bad_footing: Annotated[int, Meta(ge=-10, le=0)] = 0
    shock: Annotated[int, Meta(ge=-50, le=0)] = 0
    unfamiliar: Unfamiliar = ""
    bad_condition: Annotated[int, Meta(ge=-10, le=0)] = 0
    blind_fire: bool = False
    missed_behind: bool = False
    notes: Text = ""


# Native-only fields of GurpsShot and the rule row each one cites.
NATIVE_ONLY = {
    "behind_characters": "gurps.ranged-modifiers.tgt_behind_char",
    "opportunity_hexes": "gurps.ranged-modifiers",
    "checking_target": "gurps.ranged-modifiers.of_check",
    "nearsighted": "gurps.ranged-modifiers.nearsighted",
    "one_eye": "gurps.hit-modifiers.one_eye",
    "bad_footing": "gurps.hit-modifiers.bad_footing",
    "shock": "gurps.hit-modifiers.shock",
    "unfamiliar": "gurps.ranged-modifiers",
    "bad_condition": "gurps.ranged-modifiers.bad_condition",
    "blind_fire": "gurps.ranged-modifiers.blind_fire",
    "missed_behind": "gurps.ranged-modifiers.missed_behind",
}
