"""A neutral shot from the inline options of `xsys odds` / `xsys curve`, held to the same
limits as a shot document (the model's ranges: burst 1 to 1000, chances 0 to 1, finite
quantities that cannot be negative), each error naming its option."""

from __future__ import annotations

import math
import re

from xsys.core import codec, units
from xsys.core.errors import InputError
from xsys.core.model import Barrier, Cover, Light, Shooter, Shot, Target, generic_weapon
from xsys.core.registry import catalog
from xsys.core.vocab import GAIT, ILLUMINANCE, POSTURES, WEAPON_CLASSES


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


def inline_shot(*, distance: str, light: str = "daylight", exposure: float = 1.0, skill: float = 0.5,
                weapon: str = "handgun", target_speed: str = "still", shooter_speed: str = "still",
                posture: str = "standing", shooter_posture: str = "standing", barrier: str | None = None,
                aim: str = "0 s", burst: int = 1) -> Shot:
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
