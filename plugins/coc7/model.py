"""Native Call of Cthulhu 7th edition documents: the stat block (npc) and one shot as a 7e
scenario says it. Field names are the game's own (STR, SIZ, "Firearms (Handgun)", MOV ...)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from xsys.core.units import Energy, Length
from xsys.core.vocab import Location, Posture, Sight

# Every native Struct: frozen, keyword-only, refuses unknown fields, omits defaults.
_OPTS = dict(frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True)

# 7e characteristics are on the 1-99 scale for humans (15-90 as rolled); monsters go
# higher (the rulebook's Cthulhu: STR 700, SIZ 1050). Values outside the population table are
# reported as "clamped" losses.
Characteristic = Annotated[int, Meta(ge=1, le=9_999, description="a 7e characteristic (15-90 for most humans)")]
Percent = Annotated[int, Meta(ge=0, le=200, description="a skill in %")]
Name = Annotated[str, Meta(max_length=200)]
Text = Annotated[str, Meta(max_length=20_000)]

FirearmSkill = Literal[
    "Firearms (Handgun)", "Firearms (Rifle/Shotgun)", "Firearms (Submachine Gun)", "Firearms (Machine Gun)",
    "Throw",
]
DamageRoll = Annotated[str, Meta(pattern=r"^\d+D\d+([+-](\d+D\d+|\d+))*(/\d+D\d+([+-](\d+D\d+|\d+))*)*$",
                                 description="damage dice, e.g. '1D10+2'; shotguns by range band '4D6/2D6/1D6'")]

LightWord = Literal["good light", "dim light", "darkness"]
LightAid = Literal["flashlight", "weapon light", "night-vision goggles", "thermal goggles"]
CoverWord = Literal["in the open", "partially concealed", "small part showing", "hidden"]


class Coc7Weapon(msgspec.Struct, **_OPTS):
    """A weapon line of a 7e stat block."""

    name: Name
    skill: FirearmSkill
    damage: DamageRoll
    base_range: Length
    uses_per_round: Annotated[str, Meta(max_length=40)] = "1"  # "1 (3)", "1 or full auto"
    capacity: Annotated[int, Meta(ge=0, le=10_000)] = 0  # bullets in gun (mag)
    malfunction: Annotated[int, Meta(ge=1, le=100)] = 100
    sights: Sight = "iron"
    catalog: Name | None = None
    # What the gun physically delivers when it is not a catalog weapon.
    muzzle_energy: Energy | None = None


class Coc7Melee(msgspec.Struct, **_OPTS):
    """A close-combat attack of a 7e stat block: the weapon, the Fighting skill it is made with
    (its % is in the stat block's skills) and its damage ("1D4+DB": the wielder's damage bonus)."""

    name: Name
    skill: Name
    damage: Annotated[str, Meta(max_length=40, pattern=r"^[0-9dD+\-/ ]*(\+ ?(1/2 ?)?[dD][bB])?$",
                                description="damage dice, e.g. '1D4+DB'")]


class Coc7Armor(msgspec.Struct, **_OPTS):
    """Armor: points subtracted from each hit's damage (coc7.armor)."""

    name: Name
    armor: Annotated[int, Meta(ge=0, le=1000)]
    catalog: Name | None = None
    # What it physically stops when that is not its catalog item's or its row's value.
    stops: Energy | None = None
    # Where it sits and how readily it turns a blow aside (a GURPS PD), when that is not what its
    # catalog item (or the torso alone, no deflection) says: kept for the way back, as coc's line.
    covers: list[Location] | None = None
    deflection: Annotated[int, Meta(ge=0, le=10)] | None = None


class Coc7Carried(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What a coc7 stat block puts in the neutral NPC's ``carried: {coc7: ...}`` and takes back:
    the values only Call of Cthulhu states (Sanity, Magic Points, Luck) and the skills no neutral
    key holds, verbatim through every other system (xsys.core.carried)."""

    SAN: Annotated[int, Meta(ge=0, le=99)] | None = None
    MP: Annotated[int, Meta(ge=0, le=9999)] | None = None
    Luck: Annotated[int, Meta(ge=0, le=99)] | None = None
    spells: list[Name] = msgspec.field(default_factory=list)
    skills: dict[Name, Percent] = msgspec.field(default_factory=dict)
    melee: dict[Name, dict] = msgspec.field(default_factory=dict)  # close-combat lines by weapon name


class Coc7Npc(msgspec.Struct, **_OPTS):
    """A Call of Cthulhu 7th edition stat block."""

    name: Name
    STR: Characteristic
    CON: Characteristic
    SIZ: Characteristic
    DEX: Characteristic
    # a creature has no appearance and no education (7th edition prints neither in its block): a
    # sheet that states none has none; a target that needs them assumes the adult median, said
    APP: Characteristic | None = None
    INT: Characteristic
    POW: Characteristic
    EDU: Characteristic | None = None
    # Derived values: computed by the rules when omitted (coc7.derived); a value given here
    # is kept as written, even where it differs from the formula.
    HP: Annotated[int, Meta(ge=0, le=9999)] | None = None
    MP: Annotated[int, Meta(ge=0, le=9999)] | None = None
    MOV: Annotated[int, Meta(ge=0, le=100)] | None = None
    Luck: Annotated[int, Meta(ge=0, le=99)] | None = None  # rolled (3D6 x 5), not derived
    SAN: Annotated[int, Meta(ge=0, le=99)] | None = None
    spells: list[Name] = msgspec.field(default_factory=list)
    skills: dict[Name, Percent] = msgspec.field(default_factory=dict)
    weapons: list[Coc7Weapon] = msgspec.field(default_factory=list)
    melee: list[Coc7Melee] = msgspec.field(default_factory=list)
    armor: list[Coc7Armor] = msgspec.field(default_factory=list)
    notes: Text = ""

    # ---- derived values (coc7.derived, assumed: Keeper Rulebook ch. 3) ------------------
    @property
    def derived_HP(self) -> int:
        return (self.CON + self.SIZ) // 10

    @property
    def derived_MP(self) -> int:
        return self.POW // 5

    @property
    def derived_MOV(self) -> int:
        if self.DEX < self.SIZ and self.STR < self.SIZ:
            return 7
        if self.DEX > self.SIZ and self.STR > self.SIZ:
            return 9
        return 8

    @property
    def Build(self) -> int:
        return build_and_damage_bonus(self.STR + self.SIZ)[0]

    @property
    def DB(self) -> str:
        return build_and_damage_bonus(self.STR + self.SIZ)[1]


def build_and_damage_bonus(str_siz: int) -> tuple[int, str]:
    """Build and damage bonus from STR + SIZ (coc7.derived)."""
    for top, build, db in ((64, -2, "-2"), (84, -1, "-1"), (124, 0, "0"), (164, 1, "+1D4"), (204, 2, "+1D6")):
        if str_siz <= top:
            return build, db
    # 205-284: +2D6 / Build 3; each further 80 points: +1D6 and +1 Build
    extra = (str_siz - 205) // 80
    return 3 + extra, f"+{2 + extra}D6"


class Coc7Barrier(msgspec.Struct, **_OPTS):
    """What a hidden target stands behind: a catalog material and its thickness ("behind a 15 cm
    concrete wall"); its armor points come from armor.toml (coc7.armor)."""

    material: Name
    thickness: Length


class Coc7Shot(msgspec.Struct, **_OPTS):
    """One shot as a 7e scenario states it."""

    weapon: Name  # catalog id or name, or a weapon class (handgun, revolver, smg, carbine, rifle, shotgun)
    distance: Length
    skill_value: Percent
    skill: FirearmSkill | None = None  # default: the weapon's skill
    catalog: Name | None = None  # catalog id of a catalog weapon called by another name
    # A weapon not in the catalog: its damage line (coc7.damage; shot by range band: a shotgun)
    # and what it physically delivers (kept so that a conversion does not collapse it onto the
    # damage row's representative, as Coc7Weapon.muzzle_energy)
    damage: DamageRoll | None = None
    muzzle_energy: Energy | None = None
    name: Name = ""
    shooter: Name = ""
    DEX: Characteristic | None = None  # shooter's DEX (point-blank range); None = the adult median
    sights: Sight | None = None  # overrides the weapon's own sights
    light: LightWord = "good light"
    light_aids: list[LightAid] = msgspec.field(default_factory=list)
    aiming: bool = False  # aimed for one round (coc7.aim)
    braced: bool = False  # bipod, tripod, rest (coc7.range.braced)
    shooter_prone: bool = False  # coc7.prone-shooter
    shooter_running: bool = False  # coc7.shooter-running
    rounds: Annotated[int, Meta(ge=1, le=1000)] = 1  # >1: automatic fire or several shots
    target: Name = ""
    target_posture: Posture = "standing"
    target_full_speed: bool = False  # coc7.fast-target
    target_cover: CoverWord = "in the open"
    cover: Coc7Barrier | None = None  # what a hidden target stands behind
    target_armor: list[Coc7Armor] = msgspec.field(default_factory=list)


__all__ = ["Coc7Npc", "Coc7Weapon", "Coc7Armor", "Coc7Shot", "Coc7Barrier", "build_and_damage_bonus"]
