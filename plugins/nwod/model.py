"""The nWoD documents xsys reads and writes: the character sheet (NwodNpc) with its weapon and armor
lines, the carried block, and one shot as an nWoD table states it (NwodShot, NwodBarrier), with the
per-run settings. Field names are the game's own (Dexterity, Firearms, Durability).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from xsys.core.model import field_error
from xsys.core.units import Length
from xsys.core.vocab import Location


Dots = Annotated[int, Meta(ge=1, le=5)]
# an attribute: 1-5 for mortals, up to 10 for a supernatural being of great power (a vampire's
# Blood Potency, a werewolf's Primal Urge): a value past 5 is read as 5 by every other system and
# kept for an nwod sheet (core.sheet: beyond the table)
AttributeDots = Annotated[int, Meta(ge=1, le=10, description="1-5 for mortals; up to 10 for supernatural beings")]
SkillDots = Annotated[int, Meta(ge=0, le=5)]
Rating = Annotated[int, Meta(ge=0, le=10)]
Name = Annotated[str, Meta(max_length=200)]
Text = Annotated[str, Meta(max_length=20_000)]


# ======================================================================= native Structs

class Opts(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    pass


class NwodWeapon(Opts, kw_only=True):
    """A weapon as the Ranged Weapons Chart writes it (WoD p. 170)."""

    name: Name
    type: Name = ""  # chart line ("Pistol, Lt.") when it is one
    catalog: Name | None = None  # xsys catalog id of the real gun
    damage: Rating = 0  # bonus dice to the attack pool
    # short/medium/long; None: close combat, or a Thrown line (its thrower's ranges, nwod.range)
    ranges: tuple[Length, Length, Length] | None = None
    clip: Annotated[int, Meta(ge=0, le=1000)] = 0
    chamber: bool = False  # the chart's "+1"
    strength: Dots = 1
    size: Annotated[int, Meta(ge=0, le=10)] = 1
    autofire: bool = False
    two_handed: bool = False
    again: Annotated[int, Meta(ge=8, le=10)] = 10  # 9-again shotguns
    armor_piercing: Annotated[int, Meta(ge=0, le=5)] = 0

    def __post_init__(self) -> None:
        # nwod.range: short, medium and long are where the -2 and -4 begin; a range of 0 m,
        # or one shorter than the band before it, has no band (below 0 the decoder refuses)
        if self.ranges is not None:
            short, medium, long_ = self.ranges
            if not short > 0:
                raise field_error("ranges", f"short range must be above 0 m (found {short})")
            if not short <= medium <= long_:
                raise field_error("ranges", f"must be short, medium, long in that order "
                                            f"(found {short}, {medium}, {long_})")


class NwodArmor(Opts, kw_only=True):
    """Armor as the Armor Chart rates it: general/ballistic (WoD p. 166, 170)."""

    name: Name
    general: Rating = 0
    ballistic: Rating = 0
    catalog: Name | None = None
    # Where it sits and how readily it turns a blow aside (a GURPS PD), when that is not what its
    # catalog item (or the torso alone, no deflection) says: the chart has neither, the line keeps
    # them for the way back (xsys.core.armorline).
    covers: list[Location] | None = None
    deflection: Annotated[int, Meta(ge=0, le=10)] | None = None
    # a creature's own hide, scales or shell: it wears nothing, so the chart's Strength, Defense and
    # Speed costs of worn armor are not its (nwod.armor, assumed)
    natural: bool = False


class NwodNpc(Opts, kw_only=True):
    """An nWoD stat block: nine attributes, skills, specialties, merits, derived traits."""

    name: Name
    Intelligence: AttributeDots = 2
    Wits: AttributeDots = 2
    Resolve: AttributeDots = 2
    Strength: AttributeDots = 2
    Dexterity: AttributeDots = 2
    Stamina: AttributeDots = 2
    Presence: AttributeDots = 2
    Manipulation: AttributeDots = 2
    Composure: AttributeDots = 2
    skills: dict[str, SkillDots] = msgspec.field(default_factory=dict)
    specialties: dict[str, list[Name]] = msgspec.field(default_factory=dict)
    merits: dict[str, Dots] = msgspec.field(default_factory=dict)
    Size: Annotated[int, Meta(ge=1, le=10)] = 5
    Health: Annotated[int, Meta(ge=1, le=20)] | None = None
    Willpower: Annotated[int, Meta(ge=1, le=10)] | None = None
    Defense: Annotated[int, Meta(ge=0, le=10)] | None = None
    Speed: Annotated[int, Meta(ge=1, le=30)] | None = None
    Initiative: Annotated[int, Meta(ge=0, le=20)] | None = None
    weapons: list[NwodWeapon] = msgspec.field(default_factory=list)
    armor: list[NwodArmor] = msgspec.field(default_factory=list)
    notes: Text = ""


class NwodCarried(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What an nwod stat block puts in the neutral NPC's ``carried: {nwod: ...}`` (and takes
    back from it): what only nWoD states, verbatim (xsys.core.carried)."""

    Resolve: Dots | None = None  # no neutral characteristic measures it
    skills: dict[str, SkillDots] = msgspec.field(default_factory=dict)  # skills no neutral key holds
    specialties: dict[str, list[Name]] = msgspec.field(default_factory=dict)
    merits: dict[str, Dots] = msgspec.field(default_factory=dict)
    melee: dict[Name, dict] = msgspec.field(default_factory=dict)  # close-combat weapon lines by name


Concealment = Literal["none", "barely", "partial", "substantial"]
Lighting = Literal["lit", "dim", "poor", "dark", "pitch-black"]
RangeBand = Literal["short", "medium", "long", "extreme"]
Burst = Literal["single", "short", "medium", "long"]


class NwodBarrier(Opts, kw_only=True):
    """Full cover: a barrier between shooter and target (nwod.barrier)."""

    name: Name = ""
    window: bool = False  # nwod.window
    Durability: Annotated[int, Meta(ge=0, le=10)] = 1
    Size: Annotated[int, Meta(ge=1, le=20)] = 5
    damage_taken: Annotated[int, Meta(ge=0, le=100)] = 0  # Structure lost to earlier shots

    @property
    def Structure(self) -> int:  # object rules: Structure = Durability + Size
        return self.Durability + self.Size

    @property
    def destroyed(self) -> bool:  # nwod.barrier.penetration: no Structure left, no cover
        return self.damage_taken >= self.Structure


class NwodShot(Opts, kw_only=True):
    """One shot as an nWoD table says it: "Dexterity 3 + Firearms 2, light pistol, medium
    range, target substantially concealed (-3)", "the door is Durability 1"."""

    name: Name = ""
    shooter: Name = ""
    Dexterity: AttributeDots = 2
    Strength: Dots = 2  # against the weapon's Strength requirement
    Firearms: SkillDots = 0
    specialty: bool = False  # a Firearms specialty that applies (+1 die)
    # chart line, catalog id or catalog name; or a weapon line of its own ("Ingram MAC-10",
    # type "SMG, Small") for a weapon that is neither (names survive)
    weapon: Name | NwodWeapon = "Pistol, Lt."
    range: RangeBand = "short"
    lighting: Lighting = "lit"
    concealment: Concealment = "none"  # the target's (nwod.cover.partial)
    shooter_cover: Concealment = "none"  # nwod.cover.firing-from
    leaning_out: bool = False  # nwod.cover.full: shooter behind a barrier leans out
    barrier: NwodBarrier | None = None  # target in full cover (nwod.barrier)
    aimed_at_glass: bool = False  # nwod.window -1
    aiming: Annotated[int, Meta(ge=0, le=3)] = 0  # turns (nwod.aim)
    autofire: Burst = "single"
    prone: bool = False  # target prone (nwod.prone)
    armor: Rating = 0  # target's ballistic armor rating where the shot hits
    armor_piercing: Annotated[int, Meta(ge=0, le=5)] = 0
    specified_target: Location | None = None  # nwod.specified-target: head -3, arm -2 ... (WoD p. 165)
    target: Name = ""
    notes: Text = ""


class NwodSettings(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Per-run options. ``target_defense``: Defense of a target of a thrown attack when the
    scenario does not say (average adult: lower of Dexterity 2 and Wits 2)."""

    target_defense: Annotated[int, Meta(ge=0, le=10)] = 2
