"""What a system's armor line states beyond its own rating, so that a neutral armor piece comes
back whole: the body parts it covers and its deflection.

Every system rates armor by what it stops (CoC A/B, nWoD general/ballistic, the Polish points,
GURPS DR), but only GURPS writes where a piece sits and how readily it turns a blow aside (PD).
Where a line's catalog item (or the neutral default, the torso and no deflection) would give
other ones back, the line carries them in two optional fields of its own, and reading the line
puts them back: a helmet stays on the head, full riot gear on every limb, and a GURPS PD 2 comes
back PD 2 after a trip through a system that has no such number. Each system asks
:func:`extras` with what its line reads back as without them, and :func:`restore` on reading.
"""

from __future__ import annotations

from typing import Any, Sequence

import msgspec

from .model import Armor


def extras(armor: Armor, back: Armor) -> dict[str, Any]:
    """`armor`'s ``covers`` and ``deflection`` where `back` (what the system's line reads back
    as without them) says otherwise: the fields the line must carry."""
    out: dict[str, Any] = {}
    if list(armor.covers) != list(back.covers):
        out["covers"] = list(armor.covers)
    if armor.deflection is not None and armor.deflection != back.deflection:
        out["deflection"] = armor.deflection
    return out


def restore(armor: Armor, covers: Sequence[str] | None, deflection: int | None) -> Armor:
    """`armor` (as a line's rating and catalog item give it) with what the line states of its
    coverage and deflection."""
    changes: dict[str, Any] = {}
    if covers is not None and list(covers) != list(armor.covers):
        changes["covers"] = list(covers)
    if deflection is not None and deflection != armor.deflection:
        changes["deflection"] = deflection
    return msgspec.structs.replace(armor, **changes) if changes else armor


def deflection_note(armor: Armor, system: str) -> str:
    """The loss line of a system that has no deflection and carries it on the line."""
    return (f"{armor.name}: deflection {armor.deflection} (how readily it turns a blow aside; GURPS 3e PD) is "
            f"no {system} armor value; kept on the armor line for the way back")


__all__ = ["extras", "restore", "deflection_note"]
