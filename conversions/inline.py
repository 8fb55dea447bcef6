"""A neutral shot from the inline options of `xsys odds` / `xsys curve`."""

from __future__ import annotations

from xsys.core import units
from xsys.core.errors import InputError
from xsys.core.model import Barrier, Cover, Light, Shooter, Shot, Target, generic_weapon
from xsys.core.registry import catalog
from xsys.core.vocab import GAIT, ILLUMINANCE, POSTURES, WEAPON_CLASSES


def _option(name: str, value: str, qtype, presets: dict[str, float] | None = None):
    if presets and value in presets:
        return qtype(presets[value])
    try:
        return units.parse(value, qtype)
    except InputError as exc:
        exc.path = f"--{name}"
        if presets:
            exc.expected = f"{exc.expected} or one of {', '.join(presets)}"
        raise


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
    return Shot(
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
