"""Native Call of Cthulhu documents: the stat block (npc) and one shot as a CoC scenario
says it. Field names are the game's own (STR, SIZ, Handgun, base range ...)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from xsys.core.model import field_error
from xsys.core.units import Energy, Length
from xsys.core.vocab import Location, Posture, Sight

_OPTS = dict(frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True)

# Human characteristics are 3..18 (EDU 6..21); the type allows monsters and the ladders
# report anything outside the population table as a "clamped" loss.
Characteristic = Annotated[int, Meta(ge=1, le=999, description="a CoC characteristic (3-18 for most humans; a creature's to 999)")]
Percent = Annotated[int, Meta(ge=0, le=200, description="a skill chance in %")]
Name = Annotated[str, Meta(max_length=200)]
Text = Annotated[str, Meta(max_length=20_000)]

FirearmSkill = Literal["Handgun", "Rifle", "Shotgun", "SMG", "Machine Gun", "Throw"]
DamageRoll = Annotated[str, Meta(pattern=r"^\d+d\d+([+-](\d+d\d+|\d+))*(/\d+d\d+([+-](\d+d\d+|\d+))*)*$",
                                 description="damage dice, e.g. '1d10+2'; shotguns by range band '4d6/2d6/1d6'")]

LightWord = Literal["daylight", "dim light", "starlight", "total darkness"]
LightAid = Literal["flashlight", "weapon light", "night-vision goggles", "thermal goggles"]
Hold = Literal["two-handed", "one-handed", "off-hand", "two guns"]
Support = Literal["hand-held", "braced", "mounted"]
Fire = Literal["single", "double tap", "mozambique", "full auto"]
ExposureWord = Literal["full", "half", "head and shoulders", "head only", "barely", "none"]


class CocWeapon(msgspec.Struct, **_OPTS):
    """A weapon line of a CoC stat block."""

    name: Name
    skill: FirearmSkill
    damage: DamageRoll
    base_range: Length
    shots_per_round: Annotated[int, Meta(ge=1, le=100)] = 1
    burst: bool = False  # "1 or burst": may fire automatic bursts
    capacity: Annotated[int, Meta(ge=0, le=10_000)] = 0
    malfunction: Annotated[int, Meta(ge=1, le=100)] = 100
    length: Length | None = None
    STR: Annotated[int, Meta(ge=1, le=99)] | None = None  # required STR (coc-ja.quickdraw.str)
    sights: Sight = "iron"
    carry: Name | None = None  # holster / sling (coc-ja.quickdraw.carry, coc-ja.conceal.holster)
    ammo: Literal["bullet", "shot", "slug", "none"] = "bullet"  # "none": a thrown weapon fires nothing
    catalog: Name | None = None
    # What the gun physically delivers when it is not a catalog weapon (kept so that a
    # conversion does not collapse it onto the damage row's representative).
    muzzle_energy: Energy | None = None

    def __post_init__(self) -> None:
        # coc-ja.range: the range bands are doublings of the base range; a base range of
        # 0 m has none (every shot would lie beyond it). Below 0 the decoder refuses.
        if not self.base_range > 0:
            raise field_error("base_range", f"must be above 0 m (found {self.base_range})")


class CocMelee(msgspec.Struct, **_OPTS):
    """A close-combat attack of a CoC stat block: the weapon, the skill it is made with
    (its % is in the stat block's skills) and its damage ("1d4+db": the wielder's damage bonus)."""

    name: Name
    skill: Name
    damage: Annotated[str, Meta(max_length=40, pattern=r"^[0-9dD+\-/ ]*(\+ ?(1/2 ?)?[dD][bB])?$",
                                description="damage dice, e.g. '1d4+db'")]


class CocArmor(msgspec.Struct, **_OPTS):
    """Armor with both numbers of the armor table (coc-ja.armor.table, "A/B")."""

    name: Name
    A: Annotated[int, Meta(ge=0, le=1000)]
    B: Annotated[float, Meta(ge=0, le=1000)]
    catalog: Name | None = None
    # What it physically stops when that is not its catalog item's or its row's value.
    stops: Energy | None = None
    # Where it sits and how readily it turns a blow aside (a GURPS PD), when that is not what
    # its catalog item (or the torso alone, no deflection) says: CoC's table has neither, the
    # line keeps them for the way back (xsys.core.armorline).
    covers: list[Location] | None = None
    deflection: Annotated[int, Meta(ge=0, le=10)] | None = None


class CocNpc(msgspec.Struct, **_OPTS):
    """A Call of Cthulhu (5th/6th edition framework) stat block."""

    name: Name
    STR: Characteristic
    CON: Characteristic
    SIZ: Characteristic
    DEX: Characteristic
    # a creature has no appearance and no education (its block prints neither): a sheet that
    # states none has none; a target that needs them assumes the adult median, said
    APP: Characteristic | None = None
    INT: Characteristic
    POW: Characteristic
    EDU: Characteristic | None = None
    HP: Annotated[int, Meta(ge=0, le=999)] | None = None
    # What only Call of Cthulhu states (no other system can express it): carried verbatim
    # through every other system's document (its `carried: {coc: ...}` block), so a trip
    # through GURPS and back keeps it. None: not stated (the rules' default is POW x 5 for
    # SAN and Luck, POW for MP).
    SAN: Annotated[int, Meta(ge=0, le=99, description="Sanity points")] | None = None
    MP: Annotated[int, Meta(ge=0, le=999, description="Magic Points")] | None = None
    Luck: Annotated[int, Meta(ge=0, le=99, description="Luck (a percentage)")] | None = None
    spells: list[Name] = msgspec.field(default_factory=list)
    skills: dict[Name, Percent] = msgspec.field(default_factory=dict)
    weapons: list[CocWeapon] = msgspec.field(default_factory=list)
    melee: list[CocMelee] = msgspec.field(default_factory=list)  # close-combat attacks
    armor: list[CocArmor] = msgspec.field(default_factory=list)
    notes: Text = ""

    # Derived rolls (coc-ja.derived, assumed CoC convention): characteristic x 5.
    @property
    def luck_roll(self) -> int:
        return self.Luck if self.Luck is not None else self.POW * 5

    @property
    def Idea(self) -> int:
        return self.INT * 5

    @property
    def Know(self) -> int | None:
        return self.EDU * 5 if self.EDU is not None else None

    @property
    def derived_HP(self) -> int:
        return -(-(self.CON + self.SIZ) // 2)


class CocCarried(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What a coc stat block puts in the neutral NPC's ``carried: {coc: ...}`` (and takes back
    from it): the values only Call of Cthulhu states, verbatim (xsys.core.carried)."""

    SAN: Annotated[int, Meta(ge=0, le=99)] | None = None
    MP: Annotated[int, Meta(ge=0, le=999)] | None = None
    Luck: Annotated[int, Meta(ge=0, le=99)] | None = None
    spells: list[Name] = msgspec.field(default_factory=list)
    skills: dict[Name, Percent] = msgspec.field(default_factory=dict)  # skills no neutral key holds
    melee: dict[Name, dict] = msgspec.field(default_factory=dict)  # close-combat lines by weapon name
    carry: dict[Name, Name] = msgspec.field(default_factory=dict)  # weapon name -> holster / sling


class CocBarrier(msgspec.Struct, **_OPTS):
    """What the target stands behind: a catalog material and its thickness
    ("behind a 15 cm concrete wall")."""

    material: Name
    thickness: Length


class CocShot(msgspec.Struct, **_OPTS):
    """One shot as a CoC scenario states it."""

    weapon: Name  # catalog id or name
    distance: Length
    skill_value: Percent
    skill: FirearmSkill | None = None  # default: the weapon's skill (a weapon not in the catalog: Handgun)
    catalog: Name | None = None  # catalog id of a catalog weapon called by another name
    # A weapon not in the catalog: its damage line (coc-ja.damage) and what it physically
    # delivers (kept so that a conversion does not collapse it onto the damage row's
    # representative, as CocWeapon.muzzle_energy).
    damage: DamageRoll | None = None
    muzzle_energy: Energy | None = None
    name: Name = ""
    shooter: Name = ""
    DEX: Characteristic | None = None  # shooter's DEX (point-blank, close range); None = 10
    sights: Sight | None = None  # overrides the weapon's own sights
    light: LightWord = "daylight"
    light_aids: list[LightAid] = msgspec.field(default_factory=list)
    hold: Hold = "two-handed"
    off_hand_skill: Percent | None = None  # coc-ja.skill.off-hand-shooting
    support: Support = "hand-held"
    careful_aim: bool = False
    called_location: Location | None = None
    keeper_double: bool = False  # coc-ja.aimed.keeper-double
    fire: Fire = "single"
    rounds: Annotated[int, Meta(ge=1, le=1000)] = 1
    target: Name = ""
    target_posture: Posture = "standing"
    target_exposure: ExposureWord = "full"
    cover: CocBarrier | None = None
    target_armor: list[CocArmor] = msgspec.field(default_factory=list)
    target_SIZ: Characteristic | None = None  # large target (coc-ja.autofire.order)
