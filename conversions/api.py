"""The Python API of xsys: the operations the CLI offers, as plain functions.

- :func:`load` reads a document file (YAML/JSON/TOML) into its typed form;
- :func:`convert` converts a document (typed, plain data, or a path) to another system;
- :func:`to_neutral` lifts a document into the neutral model;
- :func:`odds` computes every system's native check and exact chance for shots.

Every conversion returns its output together with its loss report and trace.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

import msgspec

from xsys.core import codec
from xsys.core.errors import InputError, LossError, PluginError, XsysError
from xsys.core.model import Combatant, Scenario, Scene, Shot
from xsys.core.registry import Registry, default_registry
from xsys.core.system import System
from xsys.core.trace import STRICT_KINDS, Check, Loss, Result, TraceEntry, tracing

from . import documents
from .documents import NEUTRAL

Settings = Mapping[str, Mapping[str, Any]]


@dataclass
class Conversion:
    """A converted document with what was lost and how every number crossed."""

    document: Any
    source_system: str
    target_system: str
    kind: str
    losses: list[Loss] = field(default_factory=list)
    trace: list[TraceEntry] = field(default_factory=list)
    origin: dict[str, Any] | None = None  # the source document, for lossless round trips
    canonical: bool = False  # the document is in canonical form (codec.canonical), as convert() makes it

    @property
    def strict_losses(self) -> list[Loss]:
        return [x for x in self.losses if x.kind in STRICT_KINDS]

    def meta(self, explain: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"converted_from": self.source_system,
                               "losses": codec.to_builtins(self.losses)}
        if explain:
            out["trace"] = [t.render() for t in self.trace]
        if self.origin is not None:
            out["origin"] = self.origin
        return out


# ---- systems with settings ------------------------------------------------------

def system_for(key: str, settings: Settings | None = None, registry: Registry | None = None) -> System:
    reg = registry or default_registry()
    raw = (settings or {}).get(key)
    entry = reg.entry(key)
    if raw is None:
        return reg.system(key)
    stype = entry.cls.settings_type
    if stype is None:
        raise InputError(f"system {key!r} takes no settings", path=f"$.settings.{key}", found=repr(dict(raw)))
    parsed = codec.convert(dict(raw), stype)
    return reg.system(key, parsed)


def parse_settings(pairs: Iterable[str]) -> dict[str, dict[str, Any]]:
    """``["pl-trudnosc.mechanic=per-die-d10"]`` -> ``{"pl-trudnosc": {"mechanic": "per-die-d10"}}``."""
    out: dict[str, dict[str, Any]] = {}
    for pair in pairs:
        m = re.match(r"^([A-Za-z0-9_-]+)\.([A-Za-z0-9_]+)=(.*)$", pair)
        if not m:
            raise InputError("bad --set", expected="SYSTEM.FIELD=VALUE, e.g. pl-trudnosc.mechanic=per-die-d10",
                             found=repr(pair))
        value: Any = m.group(3)
        if value.lower() in ("true", "false"):
            value = value.lower() == "true"
        else:
            try:
                value = int(value)
            except ValueError:
                pass
        out.setdefault(m.group(1), {})[m.group(2)] = value
    return out


def _merge_settings(doc_settings: Any, cli: Settings | None) -> dict[str, dict[str, Any]]:
    merged: dict[str, dict[str, Any]] = {}
    if doc_settings:
        for k, v in dict(doc_settings).items():
            merged[k] = dict(v)
    for k, v in (cli or {}).items():
        merged.setdefault(k, {}).update(v)
    return merged


# ---- loading --------------------------------------------------------------------

@dataclass
class Loaded:
    document: Any
    system: str
    kind: str
    file: str
    settings: dict[str, dict[str, Any]]
    meta: Any = None  # the `xsys:` block a previous conversion wrote, if any


def load(path: str | Path, fmt: str | None = None, default_system: str | None = None,
         registry: Registry | None = None) -> Loaded:
    return from_plain(documents.read_plain(path, fmt), str(path), default_system, registry)


def from_plain(data: Any, file: str = "<data>", default_system: str | None = None,
               registry: Registry | None = None) -> Loaded:
    meta = None
    if isinstance(data, dict):
        data = dict(data)
        meta = data.pop("xsys", None)  # metadata written by a previous conversion
        settings = data.pop("settings", None)
        if settings is not None and not (isinstance(settings, dict)
                                         and all(isinstance(v, dict) for v in settings.values())):
            raise InputError("settings must map system keys to their settings", file=file, path="$.settings",
                             expected="e.g. {pl-trudnosc: {mechanic: per-die-d10}}", found=repr(settings))
    else:
        settings = None
    doc = documents.decode(data, file, registry, default_system)
    return Loaded(doc, doc.system, doc.kind, file, dict(settings or {}), meta)


# ---- path helpers ---------------------------------------------------------------

def _prefix(items: Iterable[Any], prefix: str) -> list[Any]:
    out = []
    for it in items:
        p = it.path
        if p.startswith("$"):
            p = prefix + p[1:]
        out.append(msgspec.structs.replace(it, path=p))
    return out


def _absorb(res: Result[Any], losses: list[Loss], trace: list[TraceEntry], prefix: str) -> Any:
    losses.extend(_prefix(res.losses, prefix))
    trace.extend(_prefix(res.trace, prefix))
    return res.value


def _native_fields(obj: Any, typ: type) -> Any:
    """A document Struct (npc/shot plus system and kind) as the plugin's own Struct."""
    if type(obj) is typ:
        return obj
    return typ(**{f: getattr(obj, f) for f in typ.__struct_fields__})


def _guard(system: System, what: str, fn, *args) -> Result[Any]:
    """Call a plugin's conversion; a crash inside it is named, never a traceback."""
    try:
        res = fn(*args)
    except XsysError:
        raise
    except Exception as exc:
        raise PluginError(f"system {system.key!r} failed in {what}: {type(exc).__name__}: {exc}") from exc
    if not isinstance(res, Result):
        raise PluginError(f"system {system.key!r} returned {type(res).__name__} from {what}, not a Result")
    return res


# ---- to / from the neutral model ------------------------------------------------

def to_neutral(loaded: Loaded, system: System | None, losses: list[Loss], trace: list[TraceEntry]) -> Any:
    """The document's content in the neutral model (Combatant, list, Shot or Scenario)."""
    doc, kind = loaded.document, loaded.kind
    if loaded.system == NEUTRAL:
        if kind == "npc":
            return _native_fields(doc, Combatant)
        if kind == "roster":
            return list(doc.npcs)
        if kind == "shot":
            return _native_fields(doc, Shot)
        return _native_fields(doc, Scenario)
    assert system is not None
    if kind == "npc":
        return _absorb(_guard(system, "npc_to_neutral", system.npc_to_neutral, _native_fields(doc, system.npc_type)),
                       losses, trace, "$")
    if kind == "roster":
        return [_absorb(_guard(system, "npc_to_neutral", system.npc_to_neutral, _native_fields(n, system.npc_type)),
                        losses, trace, f"$.npcs[{i}]") for i, n in enumerate(doc.npcs)]
    if kind == "shot":
        return _absorb(_guard(system, "shot_to_neutral", system.shot_to_neutral,
                              _native_fields(doc, system.shot_type)), losses, trace, "$")
    scenes = []
    for si, scene in enumerate(doc.scenes):
        combatants = [_absorb(_guard(system, "npc_to_neutral", system.npc_to_neutral, n), losses, trace,
                              f"$.scenes[{si}].combatants[{i}]") for i, n in enumerate(scene.combatants)]
        shots = [_absorb(_guard(system, "shot_to_neutral", system.shot_to_neutral, s), losses, trace,
                         f"$.scenes[{si}].shots[{i}]") for i, s in enumerate(scene.shots)]
        scenes.append(Scene(name=scene.name, notes=scene.notes, combatants=combatants, shots=shots))
    return Scenario(name=doc.name or "scenario", notes=doc.notes, scenes=scenes)


def from_neutral(value: Any, kind: str, key: str, system: System | None, losses: list[Loss],
                 trace: list[TraceEntry], name: str = "", notes: str = "",
                 registry: Registry | None = None) -> Any:
    """Neutral content -> the typed document of system `key` (or neutral)."""
    typ = documents.doc_type(key, kind, registry)
    if key == NEUTRAL:
        if kind == "npc":
            return typ(system=key, kind=kind, **_fields(value))
        if kind == "roster":
            return typ(system=key, kind=kind, name=name, notes=notes, npcs=value)
        if kind == "shot":
            return typ(system=key, kind=kind, **_fields(value))
        return typ(system=key, kind=kind, **_fields(value))
    assert system is not None
    if kind == "npc":
        npc = _absorb(_guard(system, "npc_from_neutral", system.npc_from_neutral, value), losses, trace, "$")
        return typ(system=key, kind=kind, **_fields(npc))
    if kind == "roster":
        npcs = [_absorb(_guard(system, "npc_from_neutral", system.npc_from_neutral, c), losses, trace,
                        f"$.npcs[{i}]") for i, c in enumerate(value)]
        return typ(system=key, kind=kind, name=name, notes=notes, npcs=npcs)
    if kind == "shot":
        shot = _absorb(_guard(system, "shot_from_neutral", system.shot_from_neutral, value), losses, trace, "$")
        return typ(system=key, kind=kind, **_fields(shot))
    scen: Scenario = value
    scene_t = _scene_type(typ)
    scenes = []
    for si, scene in enumerate(scen.scenes):
        if scene.barriers or scene.light != Scene().light:
            losses.append(Loss.of("kept-verbatim", f"$.scenes[{si}]",
                                  "scene-wide light and barriers are carried by each shot in this system",
                                  system=key))
        combatants = [_absorb(_guard(system, "npc_from_neutral", system.npc_from_neutral, c), losses, trace,
                              f"$.scenes[{si}].combatants[{i}]") for i, c in enumerate(scene.combatants)]
        shots = [_absorb(_guard(system, "shot_from_neutral", system.shot_from_neutral, s), losses, trace,
                         f"$.scenes[{si}].shots[{i}]") for i, s in enumerate(scene.shots)]
        scenes.append(scene_t(name=scene.name, notes=scene.notes, combatants=combatants, shots=shots))
    return typ(system=key, kind=kind, name=scen.name, notes=scen.notes, scenes=scenes)


def _scene_type(doc_typ: type) -> type:
    for fname, ftype in zip(doc_typ.__struct_fields__, msgspec.structs.fields(doc_typ)):
        if fname == "scenes":
            return ftype.type.__args__[0]
    raise TypeError("scenario document without scenes")


def _fields(obj: Any) -> dict[str, Any]:
    return {f: getattr(obj, f) for f in obj.__struct_fields__ if f not in ("system", "kind")}


# ---- convert --------------------------------------------------------------------

def convert(source: Any, to: str, *, default_system: str | None = None, settings: Settings | None = None,
            strict: bool = False, registry: Registry | None = None, fmt: str | None = None,
            trace: bool = True) -> Conversion:
    """Convert a document (a :class:`Loaded`, plain data, or a path) to system `to`.

    Returns a :class:`Conversion`; with ``strict=True`` raises :class:`LossError` when
    anything is lost. ``trace=False`` skips recording how every number crossed (the
    conversion's ``trace`` stays empty; the loss report is complete either way)."""
    if isinstance(source, Loaded):
        loaded = source
    elif isinstance(source, (str, Path)):
        loaded = load(source, fmt, default_system, registry)
    else:
        loaded = from_plain(source, "<data>", default_system, registry)
    merged = _merge_settings(loaded.settings, settings)
    reg = registry or default_registry()
    if to != NEUTRAL:
        reg.entry(to)  # unknown target system: one clear error before any work
    restored = _restore(loaded, to, registry)
    if restored is not None:
        if not trace:
            restored.trace = []
        return restored
    src_sys = None if loaded.system == NEUTRAL else system_for(loaded.system, merged, reg)
    dst_sys = None if to == NEUTRAL else system_for(to, merged, reg)
    losses: list[Loss] = []
    entries: list[TraceEntry] = []
    doc = loaded.document
    with tracing(trace):
        neutral = to_neutral(loaded, src_sys, losses, entries)
        out = from_neutral(neutral, loaded.kind, to, dst_sys, losses, entries,
                           name=getattr(doc, "name", "") or "", notes=getattr(doc, "notes", "") or "",
                           registry=reg)
    out = codec.canonical(out)
    conv = Conversion(out, loaded.system, to, loaded.kind, losses, entries,
                      origin=_origin_of(loaded) if loaded.system != to else None, canonical=True)
    if strict and conv.strict_losses:
        first = conv.strict_losses[0]
        raise LossError(f"{len(conv.strict_losses)} loss(es) under --strict; first: {first.path}: {first.message}",
                        file=loaded.file)
    return conv


# ---- lossless round trips ----------------------------------------------------------
#
# A conversion that rounds to the nearest native value cannot in general be both
# faithful (within half a step of the source) and stable after one round trip: with
# A = {-0.09, 0.1} and B = {-0.15, 0}, nearest rounding takes 0.1 -> 0 -> -0.09 -> -0.15.
# So every converted document remembers its source (`xsys.origin`, with a digest of the
# document as written). Converting an unedited document back to a system in its chain
# of origins returns that original; an edited one is converted afresh.

ORIGIN_DEPTH = 3


def digest(document: Any) -> str:
    plain = codec.to_builtins(codec.canonical(document))
    plain.pop("xsys", None)
    return _digest_of_plain(plain)


def _digest_of_plain(plain: Any) -> str:
    return hashlib.sha256(codec.json_encode(plain)).hexdigest()


def _origin_of(loaded: Loaded, depth: int = ORIGIN_DEPTH) -> dict[str, Any]:
    plain = codec.to_builtins(loaded.document)
    if loaded.settings:
        plain["settings"] = loaded.settings
    inner = _origin_block(loaded.meta)
    if inner is not None and depth > 1:
        plain["xsys"] = {"origin": _trim(inner, depth - 1)}
    return {"system": loaded.system, "document": plain}


def _trim(origin: dict[str, Any], depth: int) -> dict[str, Any]:
    doc = dict(origin["document"])
    inner = _origin_block(doc.get("xsys"))
    if inner is not None and depth > 1:
        doc["xsys"] = {"origin": _trim(inner, depth - 1)}
    else:
        doc.pop("xsys", None)
    return {"system": origin["system"], "document": doc}


def _origin_block(meta: Any) -> dict[str, Any] | None:
    if not isinstance(meta, dict):
        return None
    origin = meta.get("origin")
    if not (isinstance(origin, dict) and isinstance(origin.get("system"), str)
            and isinstance(origin.get("document"), dict)):
        return None
    return origin


def _restore(loaded: Loaded, to: str, registry: Registry | None) -> Conversion | None:
    """The original document, if `loaded` is an unedited conversion whose chain of origins
    reaches system `to`."""
    meta = loaded.meta
    if not isinstance(meta, dict) or meta.get("digest") != digest(loaded.document):
        return None
    origin = _origin_block(meta)
    hops = 0
    while origin is not None and hops < ORIGIN_DEPTH:
        hops += 1
        try:
            source = from_plain(origin["document"], loaded.file, None, registry)
        except XsysError:
            return None  # an origin that no longer reads (a plugin changed): convert afresh
        if source.system == to and source.kind == loaded.kind:
            conv = Conversion(source.document, loaded.system, to, loaded.kind, [], [TraceEntry(
                path="$", source_value=f"{loaded.system} document (unedited)",
                neutral=f"original {to} document", rules=["xsys.origin"], source="seed",
                note=f"restored from the document this {loaded.system} document was converted from")])
            conv.origin = _origin_of(loaded)
            return conv
        inner = source.meta
        origin = _origin_block(inner)
    return None


# ---- odds -----------------------------------------------------------------------

@dataclass
class OddsResult:
    system: str
    label: str
    check: Check

    def as_json(self) -> dict[str, Any]:
        c = self.check
        return {
            "system": self.system,
            "chance": float(c.chance),
            "exact": f"{c.chance.numerator}/{c.chance.denominator}",
            # the check itself; its modifiers are listed once, below
            "check": {k: v for k, v in codec.to_builtins(c).items() if k != "modifiers"},
            "modifiers": [{"rule": m.rule, "kind": m.kind, "value": m.value, "source": m.source, "why": m.why}
                          for m in c.modifiers],
        }


def shots_of(loaded: Loaded, registry: Registry | None = None,
             settings: Settings | None = None) -> tuple[list[tuple[str, Shot]], list[Loss]]:
    """Every shot of a shot or scenario document, in the neutral model."""
    if loaded.kind not in ("shot", "scenario"):
        raise InputError("odds needs a shot or a scenario", file=loaded.file, path="$.kind",
                         expected="shot or scenario", found=repr(loaded.kind))
    merged = _merge_settings(loaded.settings, settings)
    src = None if loaded.system == NEUTRAL else system_for(loaded.system, merged, registry)
    losses: list[Loss] = []
    with tracing(False):  # the shots are wanted, not how they crossed
        neutral = to_neutral(loaded, src, losses, [])
    if loaded.kind == "shot":
        return [(neutral.name or "shot", neutral)], losses
    out = []
    for si, scene in enumerate(neutral.scenes):
        for i, s in enumerate(scene.shots):
            out.append((s.name or f"{scene.name or f'scene {si + 1}'} shot {i + 1}", s))
    return out, losses


def odds(shot: Shot, systems: Iterable[str] | None = None, *, settings: Settings | None = None,
         registry: Registry | None = None, failures: list[PluginError] | None = None) -> list[OddsResult]:
    """The shot as each system's native check, with its exact chance.

    A system whose plugin fails (raises, or returns something that is not a check) raises
    :class:`PluginError`; with a ``failures`` list the error is appended there instead and
    the other systems still answer."""
    reg = registry or default_registry()
    keys = list(systems) if systems else reg.keys()
    out = []
    for key in keys:
        try:
            sysm = system_for(key, settings, reg)
            extra = reg.shot_modifiers(key, shot)
            try:
                check = sysm.check(shot, extra)
            except XsysError:
                raise
            except Exception as exc:
                raise PluginError(f"system {key!r} failed to check the shot: {type(exc).__name__}: {exc}") from exc
            if not isinstance(check, Check) or not 0 <= check.chance <= 1:
                raise PluginError(f"system {key!r} returned {type(check).__name__} for a shot, not a check "
                                  "with a chance from 0 to 1")
        except PluginError as exc:
            if failures is None:
                raise
            failures.append(exc)
            continue
        out.append(OddsResult(key, sysm.label(), check))
    return out


def dump(conv: Conversion, fmt: str, explain: bool = False) -> bytes:
    """A conversion as file content: the document plus an ``xsys`` block with the loss
    report (and the trace with ``explain``)."""
    if fmt == "md":
        from .markdown import render

        return render(conv, explain).encode("utf-8")
    plain = codec.to_builtins(conv.document)
    meta = conv.meta(explain)
    # a canonical document is its own canonical form: its plain data is what digest() hashes
    meta["digest"] = _digest_of_plain(plain) if conv.canonical else digest(conv.document)
    # what the document is comes first, then its fields, then what xsys adds
    head = {k: plain.pop(k) for k in ("system", "kind", "name") if k in plain}
    return documents.dumps({**head, **plain, "xsys": meta}, fmt)
