"""Native coc-zh documents. They are coc's (same game, same stat block, same shot) with
the two things this text says differently: an armor item has ONE armor value (the
sidebar's 耐久 column, coc-zh.armor.table) instead of coc-ja's "A/B", and the light words
are the two levels of coc-zh.darkness."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from xsys.core.units import Energy
from xsys.core.vocab import Location
from xsys.plugins.coc import CocNpc, CocShot

_OPTS = dict(frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True)

Name = Annotated[str, Meta(max_length=200)]
ArmorPoints = Annotated[int, Meta(ge=0, le=1000, description="armor points, subtracted from damage")]

# coc-zh.darkness: normal, poor visibility (moonlight: at least halved), darkness (01%).
LightWord = Literal["daylight", "dim light", "total darkness"]


class CocZhArmor(msgspec.Struct, **_OPTS):
    """An armor item: what it is and its armor points (coc-zh.armor.table)."""

    name: Name
    points: ArmorPoints
    catalog: Name | None = None
    # What it physically stops when that is neither its catalog item's nor its row's value
    # (kept so that a conversion does not collapse it onto the row).
    stops: Energy | None = None
    # Where it sits and how readily it turns a blow aside (a GURPS PD), when that is not what
    # its catalog item (or the torso alone, no deflection) says: the list has neither, the line
    # keeps them for the way back (xsys.core.armorline).
    covers: list[Location] | None = None
    deflection: Annotated[int, Meta(ge=0, le=10)] | None = None


class CocZhNpc(CocNpc, **_OPTS):
    """A Call of Cthulhu stat block as the Chinese rules write it: coc's, with one armor
    value per item."""

    armor: list[CocZhArmor] = msgspec.field(default_factory=list)


class CocZhShot(CocShot, **_OPTS):
    """One shot as a coc-zh scenario states it: coc's shot with coc-zh light words and
    coc-zh armor."""

    light: LightWord = "daylight"
    target_armor: list[CocZhArmor] = msgspec.field(default_factory=list)


__all__ = ["CocZhArmor", "CocZhNpc", "CocZhShot", "LightWord"]
