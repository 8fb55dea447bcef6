"""A native shot's way to the neutral model and back, done once from what the system declares.

A system whose shot document states the common things in the common way (a weapon line, the
shooter's level in the skill that fires it, his characteristics, a distance, and words on its
own ladders for the cover and the light) declares a :class:`ShotSheet`: which field holds what,
and which ladder reads a word. The generic :func:`shot_to_neutral` and :func:`shot_from_neutral`
(the default ``System.shot_to_neutral`` / ``shot_from_neutral`` of such a system) then convert
it: a word through its ladder's representative one way and the step of the neutral value the
other, so a native shot survives native -> neutral -> native unchanged; the weapon and armor
lines through the system's own ``weapon_to_neutral`` ... hooks; the level through the equating
with the shooter's characteristics as its context. What the shot cannot hold (elevation, a
burst, a moving shooter) the core's loss audit finds by reading the written shot back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

import msgspec

from .errors import InputError
from .model import Cover, Light, MeleeWeapon, Shooter, Shot, Target
from .trace import Collector, Result
from .units import Duration, Illuminance, Length, Speed
from .vocab import firearm_skill_for

if TYPE_CHECKING:
    from .system import System


class ShotSheet(msgspec.Struct, frozen=True):
    """Where a system's native shot (its ``shot_type``) keeps what the core converts: attribute
    names of the Struct's fields ("": the shot has no such field)."""

    weapon: str = "weapon"  # a weapon line (System.weapon_to_neutral / weapon_from_neutral)
    skill: str = "skill"  # the shooter's level in the skill that fires the weapon
    distance: str = "distance"  # a Length
    name: str = "name"
    shooter: str = "shooter"  # the shooter's name
    target: str = "target"  # the target's name
    # native characteristics of the shooter (System.characteristics() keys): read through their
    # ladders, and the context of the skill's level
    characteristics: tuple[str, ...] = ()
    # aiming: (field, seconds one unit of it takes, the most units that count)
    aim: tuple[str, float, int] | None = None
    # the target's movement: (field, seconds): a Length moved in that many seconds
    target_movement: tuple[str, float] | None = None
    # words on the system's own ladders (System.ladders()): (field, ladder name); a word is its
    # step's label, read as the step's representative value (the cover: the share that shows)
    cover: tuple[str, str] | None = None
    light: tuple[str, str] | None = None
    aids: str = ""  # the vision aids (a list of vocab.VisionAid)
    barrier: str = ""  # what a target in full cover is shot through
    target_armor: str = ""  # a list of armor lines (System.armor_to_neutral / armor_from_neutral)
    # the target's posture: its field, and the native word a neutral posture is written as (a
    # posture not named is written as itself); a native word reads as the neutral posture of
    # the same name
    target_posture: str = ""
    posture_written: Mapping[str, str] = msgspec.field(default_factory=dict)


def check(system: type) -> None:
    """A declared shot sheet names fields its ``shot_type`` has: one clear error at class definition."""
    sheet = system.__dict__.get("shot_sheet")
    if sheet is None:
        return
    if not isinstance(sheet, ShotSheet):
        raise TypeError(f"{system.__name__}.shot_sheet must be an xsys.core.shotsheet.ShotSheet")
    fields = set(getattr(system.shot_type, "__struct_fields__", ()))
    named = [sheet.weapon, sheet.skill, sheet.distance, sheet.name, sheet.shooter, sheet.target, *sheet.characteristics,
             *(f[0] for f in (sheet.aim, sheet.target_movement, sheet.cover, sheet.light) if f),
             sheet.aids, sheet.barrier, sheet.target_armor, sheet.target_posture]
    missing = [f for f in named if f and f not in fields]
    if missing:
        raise TypeError(f"{system.__name__}.shot_sheet names fields its shot_type has not: {', '.join(missing)}")


def _word(system: "System", ladder: str, label: str, path: str) -> float:
    steps = system.ladders()[ladder].steps
    for step in steps:
        if step.label == label:
            return float(step.rep)
    raise InputError(f"not a word of {system.key}'s {ladder} table", path=path,
                     expected=", ".join(repr(st.label) for st in steps), found=repr(label))


def _get(s: Any, name: str, default: Any = None) -> Any:
    return getattr(s, name) if name else default


def shot_to_neutral(system: "System", s: Any) -> Result[Shot]:
    """A native shot as the neutral one, by the system's ``shot_sheet``."""
    sh: ShotSheet = system.shot_sheet  # type: ignore[assignment]
    col = Collector(system.key)
    weapon = system.weapon_to_neutral(getattr(s, sh.weapon), col, f"$.{sh.weapon}")
    if isinstance(weapon, MeleeWeapon):
        raise InputError("a shot needs a ranged weapon", path=f"$.{sh.weapon}", found=repr(weapon.name))
    specs = system.characteristics()
    chars = {k: getattr(s, k) for k in sh.characteristics}
    skill = system.skill_for_weapon(weapon.weapon_class)
    shooter = Shooter(name=_get(s, sh.shooter, ""),
                      skill=system.competence(skill, getattr(s, sh.skill),
                                              {**chars, "@key": firearm_skill_for(weapon.weapon_class)}),
                      characteristics={specs[k].neutral: specs[k].ladder.neutral(v) for k, v in chars.items()},
                      aim_time=Duration(getattr(s, sh.aim[0]) * sh.aim[1]) if sh.aim else Duration(0.0))
    cover = Cover(exposure=_word(system, sh.cover[1], getattr(s, sh.cover[0]), f"$.{sh.cover[0]}") if sh.cover else 1.0,
                  barrier=_get(s, sh.barrier))
    armor = [system.armor_to_neutral(a, col, f"$.{sh.target_armor}[{i}]")
             for i, a in enumerate(_get(s, sh.target_armor, []))]
    move = sh.target_movement
    target = Target(name=_get(s, sh.target, ""), posture=_get(s, sh.target_posture, "standing"), cover=cover,
                    speed=Speed(float(getattr(s, move[0])) / move[1]) if move else Speed(0.0), armor=armor)
    light = Light(illuminance=Illuminance(_word(system, sh.light[1], getattr(s, sh.light[0]), f"$.{sh.light[0]}"))
                  if sh.light else Illuminance(10_000.0), aids=list(_get(s, sh.aids, [])))
    return col.result(Shot(name=_get(s, sh.name, ""), shooter=shooter, weapon=weapon, target=target,
                           distance=getattr(s, sh.distance), light=light))


def shot_from_neutral(system: "System", shot: Shot) -> Result[Any]:
    """The neutral shot as a native one, by the system's ``shot_sheet``: what no field holds is
    left to the loss audit, which reads the written shot back."""
    sh: ShotSheet = system.shot_sheet  # type: ignore[assignment]
    col = Collector(system.key)
    lad = system.ladders()
    specs = system.characteristics()
    cls = shot.weapon.weapon_class
    chars = {k: specs[k].ladder.native(shot.shooter.characteristics.get(specs[k].neutral, 0.5))
             for k in sh.characteristics}
    out: dict[str, Any] = {**chars, sh.distance: shot.distance,
                           sh.weapon: system.weapon_from_neutral(shot.weapon, col, f"$.{sh.weapon}"),
                           sh.skill: system.level_for(system.skill_for_weapon(cls), shot.shooter.skill,
                                                      {**chars, "@key": firearm_skill_for(cls)})}
    for name, value in ((sh.name, shot.name), (sh.shooter, shot.shooter.name), (sh.target, shot.target.name),
                        (sh.aids, list(shot.light.aids)), (sh.barrier, shot.target.cover.barrier),
                        (sh.target_posture, sh.posture_written.get(shot.target.posture, shot.target.posture))):
        if name:
            out[name] = value
    if sh.aim:
        out[sh.aim[0]] = min(sh.aim[2], int(float(shot.shooter.aim_time) // sh.aim[1]))
    if sh.target_movement:
        out[sh.target_movement[0]] = Length(float(shot.target.speed) * sh.target_movement[1])
    if sh.cover:
        out[sh.cover[0]] = lad[sh.cover[1]].step_for(shot.target.cover.exposure).label
    if sh.light:
        out[sh.light[0]] = lad[sh.light[1]].step_for(float(shot.light.illuminance)).label
    if sh.target_armor:
        out[sh.target_armor] = [system.armor_from_neutral(a, col, f"$.{sh.target_armor}[{i}]")
                                for i, a in enumerate(shot.target.armor)]
    return col.result(system.shot_type(**out))  # type: ignore[misc]


__all__ = ["ShotSheet", "shot_to_neutral", "shot_from_neutral", "check"]
