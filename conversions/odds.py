"""Odds: every shot of a shot or scenario document in the neutral model (a system's own shot
keeps its native shot for that system's ``check_native``), and each system's check of it
with its exact chance."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import Any, Iterable

import msgspec

from xsys.core import codec
from xsys.core.audit import inside
from xsys.core.errors import InputError, PluginError, XsysError
from xsys.core.guard import blame as _blame, call, native_fields as _native_fields
from xsys.core.model import Shot
from xsys.core.registry import Registry, check_chance, default_registry
from xsys.core.system import System
from xsys.core.trace import Check, Loss, tracing

from .crossing import Conversion, shooter_of_the_scene, to_neutral
from .documents import NEUTRAL
from .loading import Loaded, Settings, _merge_settings, system_for


class OddsResult(msgspec.Struct):
    system: str
    label: str
    check: Check
    #: the check is the system's own check of the document's native shot (``check_native``)
    native: bool = False
    #: what of the native shot did not cross into the neutral shot this system checked
    losses: list[Loss] = msgspec.field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        c = self.check
        out = {
            "system": self.system,
            "chance": float(c.chance),
            "exact": f"{c.chance.numerator}/{c.chance.denominator}",
            # the check itself; its modifiers are listed once, below
            "check": {k: v for k, v in codec.to_builtins(c).items() if k != "modifiers"},
            "modifiers": [{"rule": m.rule, "kind": m.kind, "value": m.value, "source": m.source, "why": m.why}
                          for m in c.modifiers],
        }
        if self.native:
            out["native_check"] = True
        if self.losses:
            out["losses"] = [codec.to_builtins(x) for x in self.losses]
        return out


class NativeShot(Shot, dict=True):
    """A neutral shot read from a system's own document by :func:`shots_of`. The document's
    native shot rides beside the neutral fields (never encoded, never compared), so that
    :func:`odds` runs that system's ``check_native`` on it. A copy made with
    ``msgspec.structs.replace`` (an edited shot, a ``curve`` sweep) carries only the neutral
    fields: it is checked as a neutral shot."""


class NativeSource(msgspec.Struct, frozen=True):
    """The native side of a :class:`NativeShot`: the system key, its native shot Struct, the
    shooter's native stat block when the scene has one of that name, and the losses of the
    shot's way into the neutral model (paths as in the document)."""

    system: str
    shot: Any
    npc: Any = None
    losses: tuple[Loss, ...] = ()


def native_source(shot: Shot) -> NativeSource | None:
    """The native shot a neutral shot was read from (None for a neutral or edited shot)."""
    d = getattr(shot, "__dict__", None)
    return d.get("xsys_native") if d else None


def _with_native(shot: Shot, src: NativeSource) -> NativeShot:
    out = NativeShot(**{f: getattr(shot, f) for f in Shot.__struct_fields__})
    out.__dict__["xsys_native"] = src
    return out


def shots_of(loaded: Loaded, registry: Registry | None = None,
             settings: Settings | None = None) -> tuple[list[tuple[str, Shot]], list[Loss]]:
    """Every shot of a shot or scenario document, in the neutral model. A shot of a system's
    own document is a :class:`NativeShot`: it keeps its native shot for :func:`odds`."""
    if loaded.kind not in ("shot", "scenario"):
        raise InputError("odds needs a shot or a scenario", file=loaded.file, path="$.kind",
                         expected="shot or scenario", found=repr(loaded.kind))
    merged = _merge_settings(loaded.settings, settings)
    src = None if loaded.system == NEUTRAL else system_for(loaded.system, merged, registry)
    losses: list[Loss] = []
    with tracing(False):  # the shots are wanted, not how they crossed
        neutral = to_neutral(loaded, src, losses, [])
    if loaded.kind == "shot":
        shot = neutral
        if src is not None:
            shot = _with_native(neutral, NativeSource(loaded.system, _native_fields(loaded.document, src.shot_type),
                                                      None, tuple(losses)))
        return [(neutral.name or "shot", shot)], losses
    out = []
    for si, scene in enumerate(neutral.scenes):
        for i, s in enumerate(scene.shots):
            s = shooter_of_the_scene(s, scene.combatants)  # the shooter's own Strength, as a sheet writes it
            if src is not None:
                nscene = loaded.document.scenes[si]
                nshot = nscene.shots[i]
                who = getattr(nshot, "shooter", None)
                npc = next((c for c in getattr(nscene, "combatants", ()) if who and getattr(c, "name", None) == who),
                           None)
                prefix = f"$.scenes[{si}].shots[{i}]"
                mine = tuple(x for x in losses if inside(x.path, prefix))
                s = _with_native(s, NativeSource(loaded.system, nshot, npc, mine))
            out.append((s.name or f"{scene.name or f'scene {si + 1}'} shot {i + 1}", s))
    return out, losses


def native_check_of(system: System) -> Any:
    """The system's check of its own native shot, ``check_native`` (docs/hooks.md), or None."""
    fn = getattr(system, "check_native", None)
    return fn if callable(fn) else None


@lru_cache(maxsize=256)
def _native_params(fn: Any) -> frozenset[str]:
    """The parameter names a plugin's ``check_native`` takes (asked once per function, not on
    every odds call: inspect.signature is a tenth of a millisecond)."""
    import inspect

    try:
        return frozenset(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return frozenset()


def check_native(system: System, src: NativeSource, extra: Iterable[Any] = ()) -> Check:
    """``system.check_native(native_shot)`` with what it accepts of the shooter's stat block
    (``npc=``) and house-rule modifiers (``extra=``). A system without a native check is
    given the neutral shot of its own document (its ordinary ``check``)."""
    fn = native_check_of(system)
    extra = list(extra)
    if fn is None:
        res = system.shot_to_neutral(src.shot)
        return system.check(res.value, extra)
    params = _native_params(getattr(fn, "__func__", fn))
    kw: dict[str, Any] = {}
    if src.npc is not None and "npc" in params:
        kw["npc"] = src.npc
    if extra and "extra" in params:
        kw["extra"] = extra
    check = fn(src.shot, **kw)
    if extra and "extra" not in params and isinstance(check, Check):
        check = msgspec.structs.replace(check, notes=list(check.notes) + [
            f"house-rule modifiers ({', '.join(m.rule for m in extra)}) are not applied: "
            f"{system.key}'s native check takes none"])
    return check


def odds(shot: Shot, systems: Iterable[str] | None = None, *, settings: Settings | None = None,
         registry: Registry | None = None, failures: list[PluginError] | None = None) -> list[OddsResult]:
    """The shot as each system's native check, with its exact chance.

    A shot read from a system's own document (:func:`shots_of`, a :class:`NativeShot`) is,
    for that system, its own ``check_native`` of the native shot: rules the neutral model
    cannot hold (CoC two guns, Mozambique, Keeper x2; GURPS nearsighted; nWoD specialties
    ...) keep their effect. Every other system checks the neutral shot, and its result
    carries the losses of the native shot's way into the neutral model.

    A system whose plugin fails (raises, or returns something that is not a check with a
    chance from 0 to 1) raises :class:`PluginError` naming the system and its plugin; with
    a ``failures`` list the error is appended there instead and the other systems still
    answer. A house-rule plugin (``xsys_shot_modifiers``) that fails is skipped: its error
    goes the same way, and every system answers without its modifiers."""
    reg = registry or default_registry()
    keys = list(systems) if systems else reg.keys()
    src = native_source(shot)
    out = []
    for key in keys:
        own = src is not None and src.system == key
        try:
            sysm = system_for(key, settings, reg)
            extra = reg.shot_modifiers(key, shot, failures)
            check, label = call(sysm, "to check the shot", lambda: (
                check_native(sysm, src, extra) if own else sysm.check(shot, extra), sysm.label()))  # type: ignore[arg-type]
            check = _valid_check(sysm, check)
            if not isinstance(label, str):
                raise _blame(sysm, f"has a label of type {type(label).__name__}, not a string")
        except PluginError as exc:
            if failures is None:
                raise
            failures.append(exc)
            continue
        lost = list(src.losses) if src is not None and not own else []
        out.append(OddsResult(key, label, check, native=own, losses=lost))
    return out


def _valid_check(system: System, check: Any) -> Check:
    """A plugin's check, held to what the report writes: an exact chance from 0 to 1 (a
    finite float is taken exactly), finite numbers, Modifiers, text where text goes (no
    NaN or infinity ever reaches a JSON report)."""
    from xsys.core.trace import Modifier

    def bad(what: str) -> PluginError:
        return _blame(system, f"returned a check with {what}")

    if not isinstance(check, Check):
        raise _blame(system, f"returned {type(check).__name__} for a shot, not a check with a chance from 0 to 1")
    chance = check_chance(check.chance)
    if chance is None:
        raise bad(f"chance {check.chance!r}, not a number from 0 to 1")
    changes: dict[str, Any] = {}
    if chance is not check.chance:
        changes["chance"] = chance
    for f in ("base", "target"):
        v = getattr(check, f)
        if (isinstance(v, bool) or not isinstance(v, (int, float, str))
                or (isinstance(v, float) and not math.isfinite(v))):
            raise bad(f"{f} {v!r}")
    for f in ("system", "stat", "needs", "native"):
        if not isinstance(getattr(check, f), str):
            raise bad(f"{f} of type {type(getattr(check, f)).__name__}, not text")
    dm = check.damage_mean
    if dm is not None and (isinstance(dm, bool) or not isinstance(dm, (int, float, Fraction))
                           or not math.isfinite(float(dm))):
        raise bad(f"damage_mean {dm!r}")
    if not isinstance(check.modifiers, list) or not all(isinstance(m, Modifier) for m in check.modifiers):
        raise bad("modifiers that are not Modifiers")
    for m in check.modifiers:
        if isinstance(m.value, float) and not math.isfinite(m.value):
            raise bad(f"a modifier of value {m.value!r}")
    if not isinstance(check.outcomes, dict):
        raise bad("outcomes that are not a mapping")
    for k, v in check.outcomes.items():  # chances of critical results, expected hits ...: finite numbers
        if (not isinstance(k, str) or isinstance(v, bool) or not isinstance(v, (int, float, Fraction))
                or not math.isfinite(v)):
            raise bad(f"outcome {k!r}: {v!r}")
    if check.damage is not None and not (isinstance(check.damage, dict) and all(
            isinstance(k, str) and isinstance(v, str) for k, v in check.damage.items())):
        raise bad("a damage distribution that is not text")
    if not isinstance(check.notes, list) or not all(isinstance(n, str) for n in check.notes):
        raise bad("notes that are not text")
    return msgspec.structs.replace(check, **changes) if changes else check


def shot_checks(conv: Conversion) -> list[Any]:
    """For each shot of a converted shot or scenario, in order, the target system's own check
    of it (odds), or the XsysError that stopped the check: what a Markdown sheet states as the
    number the table rolls against. Empty for the neutral model, for NPCs and rosters, and for
    a document whose shots cannot be read back."""
    if conv.target_system == NEUTRAL or conv.kind not in ("shot", "scenario"):
        return []
    try:
        loaded = Loaded(conv.document, conv.target_system, conv.kind, "<converted>", {})
        shots, _ = shots_of(loaded)
    except XsysError:
        return []
    out: list[Any] = []
    for _, shot in shots:
        try:
            out.append(odds(shot, [conv.target_system])[0].check)
        except XsysError as exc:
            out.append(exc)
    return out
