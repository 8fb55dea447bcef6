"""A neutral shot from the inline options of `xsys odds` / `xsys curve`, held to the same
limits as a shot document (the model's ranges: burst 1 to 1000, chances 0 to 1, finite
quantities that cannot be negative), each error naming its option.

``--skill`` takes the neutral competence (0 to 1) or a system's own skill level, as a GM
reads it off a sheet: ``coc:55``, ``gurps:14``, ``pl-trudnosc:3``, and for a pool system
the attribute the pool adds, ``nwod:3,Dexterity=3``. A native level is equated exactly as
the conversion of that system's firearm skill equates it (``System.competence``: the
system's own check over the battery, core.equating); nothing here computes a competence."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from xsys.core import codec, units
from xsys.core.errors import InputError
from xsys.core.model import Barrier, Cover, Light, Shooter, Shot, Target, generic_weapon
from xsys.core.registry import catalog, default_registry
from xsys.core.vocab import GAIT, ILLUMINANCE, POSTURES, WEAPON_CLASSES, firearm_skill_for


def _option(name: str, value: str, qtype, presets: dict[str, float] | None = None):
    if presets and value in presets:
        return qtype(presets[value])
    try:
        q = units.parse(value, qtype)
    except InputError as exc:
        exc.path = f"--{name}"
        if presets:
            exc.expected = f"{exc.expected} or one of {', '.join(presets)}"
        raise
    if not (math.isfinite(q) and q >= 0):
        raise InputError("out of range", path=f"--{name}", expected=f"{qtype.what}, finite and not negative",
                         found=repr(value))
    return q


# where a shot field comes from among the inline options
_OPTIONS = (
    ("$.shooter.skill", "--skill"), ("$.shooter.speed", "--shooter-speed"), ("$.shooter.aim_time", "--aim"),
    ("$.shooter.posture", "--shooter-posture"), ("$.shooter", "--skill"),
    ("$.target.cover.barrier", "--barrier"), ("$.target.cover", "--exposure"), ("$.target.speed", "--target-speed"),
    ("$.target.posture", "--posture"), ("$.weapon", "--weapon"), ("$.distance", "--distance"),
    ("$.light", "--light"), ("$.burst", "--burst"),
)


def _held_to_the_model(shot: Shot, given: dict[str, object]) -> Shot:
    """Refuse what a shot document with these values would refuse: the Struct was built
    directly, so its ranges (``Meta``) are checked by decoding its plain form."""
    try:
        codec.convert(codec.to_builtins(shot), Shot)
    except InputError as exc:
        path = exc.path or "$"
        option = next((opt for prefix, opt in _OPTIONS if path == prefix or path.startswith(prefix + ".")), None)
        if option is not None:
            exc.path = option
            m = re.match(r"^Expected `([^`]*)` (.+)$", exc.message)
            if m and exc.expected is None:
                exc.message, exc.expected = "out of range", f"{m.group(1)} {m.group(2)}"
            if exc.found is None and option in given:
                exc.found = str(given[option])
        raise
    return shot


def weapon_for(spec: str):
    if spec in WEAPON_CLASSES:
        return generic_weapon(spec)
    entry = catalog().find_weapon(spec)
    if entry is None:
        raise InputError("unknown weapon", path="--weapon",
                         expected="a weapon class (" + ", ".join(WEAPON_CLASSES) + ") or a catalog id",
                         found=repr(spec))
    from xsys.core.catalog import strip_entry

    return strip_entry(entry)


SKILL_FORMS = "a competence from 0 to 1, or SYSTEM:LEVEL (coc:55, gurps:14, nwod:3,Dexterity=3)"


@dataclass(frozen=True)
class InlineSkill:
    """What ``--skill`` gave: the shooter's neutral competence, the neutral characteristics a
    native pool attribute stands for, and the native reading it came from (None for a plain
    competence)."""

    competence: float
    characteristics: dict[str, float] = field(default_factory=dict)
    native: "NativeSkill | None" = None


@dataclass(frozen=True)
class NativeSkill:
    """A skill level as a system writes it, and its equated competence."""

    system: str
    skill: str  # the system's skill that fires the weapon (Handgun, Guns (Pistol), Firearms ...)
    level: int
    attributes: tuple[tuple[str, int], ...]  # a pool's attribute, as given (nWoD Dexterity)
    competence: float
    rule: str
    source: str
    reads_back: int  # the level a neutral shot of this competence is checked at (same unless merged)

    def line(self) -> str:
        attrs = ", ".join(f"{name} {value}" for name, value in self.attributes)
        own = f"{self.system} {self.skill} {self.level}" + (f" ({attrs})" if attrs else "")
        back = (f"; {self.system} checks it as {self.skill} {self.reads_back}, the lowest level of the same "
                "competence") if self.reads_back != self.level else ""
        return (f"skill: {own} = competence {self.competence:.3f} [{self.rule}; {self.source}] "
                f"(equated over the battery [core.equating]){back}")

    def as_json(self) -> dict[str, Any]:
        return {"system": self.system, "skill": self.skill, "level": self.level,
                "attributes": dict(self.attributes), "competence": round(self.competence, 9),
                "rule": self.rule, "source": self.source, "reads_back": self.reads_back}


def _skill_error(message: str, expected: str, found: str) -> InputError:
    return InputError(message, path="--skill", expected=expected, found=found)


def inline_skill(value: str | float, weapon: str = "handgun") -> InlineSkill:
    """``--skill`` as a competence: a plain number from 0 to 1 as it is, ``SYSTEM:LEVEL[,ATTRIBUTE=N]``
    through that system's equating of the skill that fires `weapon` (a class or catalog id)."""
    text = str(value).strip()
    try:
        number = float(text)
    except ValueError:
        number = None
    if number is not None:
        if not (math.isfinite(number) and 0.0 <= number <= 1.0):
            raise _skill_error("out of range", SKILL_FORMS, repr(text))
        return InlineSkill(number)
    key, colon, rest = text.partition(":")
    key = key.strip()
    if not colon or not key or not rest.strip():
        raise _skill_error("not a skill", SKILL_FORMS, repr(text))
    reg = default_registry()
    try:
        reg.entry(key)
    except InputError as exc:
        exc.path = "--skill"
        raise
    system = reg.system(key)
    weapon_class = weapon_for(weapon).weapon_class
    try:
        skill = system.skill_for_weapon(weapon_class)
        levels = [int(lv) for lv in system.skill_levels(skill)]
    except NotImplementedError:
        raise _skill_error("no skill to read", f"a system with a skill that fires a {weapon_class}",
                           f"{key}, which has none") from None
    level_text, *attr_texts = [part.strip() for part in rest.split(",")]
    what = f"a {key} {skill} level from {levels[0]} to {levels[-1]}"
    try:
        level = int(level_text)
    except ValueError:
        raise _skill_error("not a skill level", what, repr(level_text)) from None
    if level not in levels:
        raise _skill_error("out of range", what, repr(level_text))
    pool = system.skill_context(skill, None)  # the attribute a pool adds (none where a level includes it)
    attributes: dict[str, int] = {}
    for part in attr_texts:
        name, eq, num = part.partition("=")
        match = next((a for a in pool if a.lower() == name.strip().lower()), None)
        if match is None or not eq:
            wanted = (f"{', '.join(f'{a}=N' for a in pool)} (the attribute {key} {skill} is rolled with)" if pool
                      else f"nothing after the level ({key} {skill} levels include the attribute)")
            raise _skill_error("unknown attribute", wanted, repr(part))
        spec = system.characteristics().get(match)
        natives = [int(n) for n in spec.ladder.natives] if spec is not None else []
        within = f"{match} from {natives[0]} to {natives[-1]}" if natives else f"{match} as a whole number"
        try:
            attributes[match] = int(num)
        except ValueError:
            raise _skill_error("not an attribute value", within, repr(part)) from None
        if natives and attributes[match] not in natives:
            raise _skill_error("out of range", within, repr(part))
    context = {**attributes, "@key": firearm_skill_for(weapon_class)}
    competence = float(system.competence(skill, level, context))
    characteristics = {}
    for name, num in attributes.items():
        spec = system.characteristics().get(name)
        if spec is not None:  # the shooter's own attribute reaches every system's check
            characteristics[spec.neutral] = float(spec.ladder.neutral(num))
    native = NativeSkill(key, skill, level, tuple(attributes.items()), competence, system.competence_rule(skill),
                         str(system.skill_source), int(system.level_for(skill, competence, context)))
    return InlineSkill(competence, characteristics, native)


def inline_shot(*, distance: str, light: str = "daylight", exposure: float = 1.0, skill: float = 0.5,
                weapon: str = "handgun", target_speed: str = "still", shooter_speed: str = "still",
                posture: str = "standing", shooter_posture: str = "standing", barrier: str | None = None,
                aim: str = "0 s", burst: int = 1, characteristics: dict[str, float] | None = None) -> Shot:
    if not 0.0 <= exposure <= 1.0:
        raise InputError("out of range", path="--exposure", expected="0 to 1", found=str(exposure))
    if not 0.0 <= skill <= 1.0:
        raise InputError("out of range", path="--skill", expected="a chance from 0 to 1", found=str(skill))
    for name, p in (("posture", posture), ("shooter-posture", shooter_posture)):
        if p not in POSTURES:
            raise InputError("unknown posture", path=f"--{name}", expected=", ".join(POSTURES), found=repr(p))
    if burst < 1:
        raise InputError("out of range", path="--burst", expected="at least 1", found=str(burst))
    bar = None
    if barrier:
        mat, _, thick = barrier.partition(":")
        if not thick:
            raise InputError("bad barrier", path="--barrier", expected="MATERIAL:THICKNESS, e.g. concrete:15cm",
                             found=repr(barrier))
        catalog().material(mat)
        bar = Barrier(material=mat, thickness=_option("barrier", thick, units.Length))
    shot = Shot(
        name="inline shot",
        shooter=Shooter(skill=skill, posture=shooter_posture,  # type: ignore[arg-type]
                        characteristics=dict(characteristics or {}),
                        speed=_option("shooter-speed", shooter_speed, units.Speed, GAIT),
                        aim_time=_option("aim", aim, units.Duration)),
        weapon=weapon_for(weapon),
        target=Target(posture=posture, speed=_option("target-speed", target_speed, units.Speed, GAIT),  # type: ignore[arg-type]
                      cover=Cover(exposure=exposure, barrier=bar)),
        distance=_option("distance", distance, units.Length),
        light=Light(illuminance=_option("light", light, units.Illuminance, ILLUMINANCE)),
        burst=burst,
    )
    return _held_to_the_model(shot, {"--burst": burst, "--skill": skill, "--exposure": exposure, "--distance": distance,
                                     "--light": light, "--weapon": weapon, "--aim": aim, "--barrier": barrier,
                                     "--target-speed": target_speed, "--shooter-speed": shooter_speed})
