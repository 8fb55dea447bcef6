"""The Python API of xsys: the operations the CLI offers, as plain functions.

- :func:`load` reads a document file (YAML/JSON/TOML) into its typed form;
- :func:`convert` converts a document (typed, plain data, or a path) to another system;
- :func:`to_neutral` lifts a document into the neutral model;
- :func:`odds` computes every system's native check and exact chance for shots.

Every conversion returns its output together with its loss report and trace.
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import msgspec

from xsys.core import carried, codec, skillplan
from xsys.core.audit import _MISSING, LossAudit, _follow_derived, _inside, _path_text, _show, _tokens
from xsys.core.errors import InputError, LossError, PluginError, XsysError
from xsys.core.guard import (blame as _blame, guard as _guard, halted as _halted, halts_are_errors as _halts_are_errors,
                             native_fields as _native_fields)
from xsys.core.model import Combatant, Scenario, Scene, Shot
from xsys.core.registry import PLUGIN_FAULTS, PluginHalt, Registry, check_chance, default_registry, describe_fault
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


def parse_settings(pairs: Iterable[str], registry: Registry | None = None) -> dict[str, dict[str, Any]]:
    """``["pl-trudnosc.mechanic=per-die-d10"]`` -> ``{"pl-trudnosc": {"mechanic": "per-die-d10"}}``.

    The system must be installed and take a setting of that name (an error names
    ``--set``, what is expected and what was found); the value is checked when the
    system starts."""
    out: dict[str, dict[str, Any]] = {}
    for pair in pairs:
        m = re.match(r"^([A-Za-z0-9_-]+)\.([A-Za-z0-9_]+)=(.*)$", pair)
        if not m:
            raise InputError("bad --set", path="--set",
                             expected="SYSTEM.FIELD=VALUE, e.g. pl-trudnosc.mechanic=per-die-d10", found=repr(pair))
        key, name = m.group(1), m.group(2)
        _check_setting(key, name, pair, registry or default_registry())
        value: Any = m.group(3)
        if value.lower() in ("true", "false"):
            value = value.lower() == "true"
        else:
            try:
                value = int(value)
            except ValueError:
                pass
        out.setdefault(key, {})[name] = value
    return out


def _check_setting(key: str, name: str, pair: str, reg: Registry) -> None:
    try:
        entry = reg.entry(key)
    except XsysError as exc:
        if not isinstance(exc, InputError):
            raise
        raise InputError(f"unknown system in --set {pair!r}", path="--set",
                         expected=exc.expected or "an installed system", found=repr(key)) from None
    stype = entry.cls.settings_type
    fields = list(getattr(stype, "__struct_fields__", ())) if stype is not None else []
    if not fields:
        raise InputError(f"system {key!r} takes no settings (--set {pair!r})", path="--set",
                         expected=f"no --set for {key}", found=repr(name))
    if name not in fields:
        raise InputError(f"unknown setting of system {key!r} in --set {pair!r}", path="--set",
                         expected="one of " + ", ".join(f"{key}.{f}" for f in fields), found=repr(name))


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
    if prefix == "$":  # the paths stay as they are; losses and trace entries are frozen: shared
        return list(items)
    out = []
    for it in items:
        p = it.path
        out.append(msgspec.structs.replace(it, path=prefix + p[1:]) if p.startswith("$") else it)
    return out


def _absorb(res: Result[Any], losses: list[Loss], trace: list[TraceEntry], prefix: str) -> Any:
    losses.extend(_prefix(res.losses, prefix))
    trace.extend(_prefix(res.trace, prefix))
    return res.value




# ---- to / from the neutral model ------------------------------------------------

@_halts_are_errors
def to_neutral(loaded: Loaded, system: System | None, losses: list[Loss], trace: list[TraceEntry],
               registry: Registry | None = None) -> Any:
    """The document's content in the neutral model (Combatant, list, Shot or Scenario).
    `registry` finds the systems whose characteristics a document carries (default: the
    process-wide one)."""
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
        return _read_npc(system, doc, losses, trace, "$", registry)
    if kind == "roster":
        return [_read_npc(system, n, losses, trace, f"$.npcs[{i}]", registry) for i, n in enumerate(doc.npcs)]
    if kind == "shot":
        return _absorb(_guard(system, "shot_to_neutral", system.shot_to_neutral,
                              _native_fields(doc, system.shot_type), want=Shot), losses, trace, "$")
    scenes = []
    for si, scene in enumerate(doc.scenes):
        combatants = [_read_npc(system, n, losses, trace, f"$.scenes[{si}].combatants[{i}]", registry)
                      for i, n in enumerate(scene.combatants)]
        shots = [_absorb(_guard(system, "shot_to_neutral", system.shot_to_neutral, s, want=Shot), losses, trace,
                         f"$.scenes[{si}].shots[{i}]") for i, s in enumerate(scene.shots)]
        scenes.append(Scene(name=scene.name, notes=scene.notes, combatants=combatants, shots=shots))
    return Scenario(name=doc.name or "scenario", notes=doc.notes, scenes=scenes)


def _read_npc(system: System, npc: Any, losses: list[Loss], trace: list[TraceEntry], prefix: str,
              registry: Registry | None = None) -> Combatant:
    """One stat block read by its plugin, with the ``carried:`` block of its document
    (other systems' system-only data, xsys.core.carried) put back into the neutral NPC, and
    the characteristics it carries (a coc SIZ through GURPS) back in the neutral model."""
    comb = _absorb(_guard(system, "npc_to_neutral", system.npc_to_neutral, _native_fields(npc, system.npc_type),
                          want=Combatant), losses, trace, prefix)
    comb = carried.attach(comb, getattr(npc, carried.FIELD, None))
    if comb.carried:
        comb = carried.characteristics_in(comb, _namespace_owner(registry))
        comb = skillplan.restore(comb, _namespace_owner(registry), system)
    return comb


def _namespace_owner(registry: Registry | None) -> Any:
    """namespace -> the installed system whose stat blocks write it (None: none does)."""
    reg = registry or default_registry()

    def owner(ns: str) -> System | None:
        try:
            found = reg.system(ns)
            if carried.namespaces(found)[:1] == (ns,):
                return found
        except XsysError:
            pass
        for key in reg.keys():
            try:
                found = reg.system(key)
            except XsysError:
                continue
            if carried.namespaces(found)[:1] == (ns,):
                return found
        return None
    return owner


def _carried_characteristics(system: System, neutral: Combatant, prefix: str, losses: list[Loss],
                             first: int, audit: "LossAudit | None", registry: Registry | None) -> dict[str, dict[str, Any]]:
    """The neutral characteristics `system`'s stat block has no field for, as the carried
    entries of the first system that has a field for it: the source, a system whose carried
    block the document holds, else the installed systems in order (a CoC SIZ that came through
    GURPS into a Polish stat block is written as CoC writes it). Each is reported where the audit
    found it dropped: ``kept-verbatim``, not expressible in `system`, carried. A characteristic
    the source derives from others (GURPS's Per, from IQ) stays a loss, not another system's guess."""
    if not neutral.characteristics:
        return {}
    source = audit.source_sys if audit is not None else None
    written = carried.places(system)
    if all(k in written for k in neutral.characteristics):
        return {}
    reg = registry or default_registry()
    # what the source derives from its other characteristics (GURPS's Per from IQ) is not a
    # value of its own: no other system's field stands in for it
    derived = set(source.derived_characteristics()) if source is not None else set()
    values = {k: v for k, v in neutral.characteristics.items() if k not in derived}

    def owners() -> Iterable[System]:
        if source is not None:
            yield source
        owner = _namespace_owner(reg)
        for ns in neutral.carried:  # the systems the document came through
            found = owner(ns)
            if found is not None:
                yield found
        for key in reg.keys():  # else the installed systems, in order
            try:
                yield reg.system(key)
            except XsysError:
                continue

    out: dict[str, dict[str, Any]] = {}
    for key, ns, name, value in carried.characteristics_out(system, values, owners()):
        out.setdefault(ns, {})[name] = value
        where = f"{carried.FIELD}.{ns}.{name}"
        what = f"characteristics.{key} {_show(neutral.characteristics[key])}"
        i = next((j for j in range(first, len(losses)) if losses[j].kind == "unsupported-field"
                  and losses[j].message.startswith(what + ":")), None)
        path = losses[i].path if i is not None else f"{prefix}.characteristics.{key}"
        loss = Loss.of("kept-verbatim", path, f"{what} ({ns} {name} {value}): not expressible in {system.key}; "
                       f"carried verbatim at {where}", carried.RULE,
                       system=system.key)
        if i is not None:
            losses[i] = loss
        else:
            losses.append(loss)
    return out


def _system_of(registry: Registry | None) -> Callable[[str], System | None]:
    reg = registry or default_registry()

    def find(key: str) -> System | None:
        try:
            return reg.system(key)
        except XsysError:
            return None
    return find


def _carried_skills(plan: "skillplan.Plan | None", prefix: str, losses: list[Loss], audit: "LossAudit | None",
                    system: System) -> dict[str, dict[str, Any]]:
    """The sheet skills a stat block does not write as they were (a broad skill's other neutral
    skills, a twin's name), carried for the way back, each with its one report line at the
    sheet skill's path in the source."""
    if plan is None or not plan.carry:
        return {}
    for name, message in plan.lines:
        path = f"{prefix}.skills.{name}"
        if audit is not None:
            try:
                path = audit.sheet_skill(prefix, name)
            except Exception:  # noqa: BLE001 - the neutral path still names the skill
                pass
        losses.append(Loss.of("kept-verbatim", path, message, skillplan.RULE, system=system.key))
    return {ns: {skillplan.FIELD: dict(entries)} for ns, entries in plan.carry.items()}


def _carry(system: System, neutral: Combatant, native: Any, prefix: str, losses: list[Loss],
           audit: "LossAudit | None", first: int = 0, registry: Registry | None = None,
           plan: "skillplan.Plan | None" = None) -> Any:
    """A written stat block with the system-only data its system does not read itself in its
    ``carried:`` block, each value reported (kept-verbatim) at its path in the source, the
    neutral characteristics it has no field for (:func:`_carried_characteristics`) and the
    sheet skills it does not write (:func:`_carried_skills`)."""
    block = carried.detach(system, neutral)
    chars = _carried_characteristics(system, neutral, prefix, losses, first, audit, registry)
    sheet = _carried_skills(plan, prefix, losses, audit, system)
    if sheet:
        for ns, entries in sheet.items():
            old = block.get(ns, {})
            mine = {**(old.get(skillplan.FIELD) or {}), **entries[skillplan.FIELD]}
            chars.setdefault(ns, {})[skillplan.FIELD] = mine
    if not block and not chars:
        return native
    if block:
        carried.report(block, system.key, prefix, losses, audit.source_losses(prefix) if audit is not None else [],
                       # whether the source as written has that path (its own carried: block)
                       audit.in_source if audit is not None else (lambda p: False))
    for ns, entries in chars.items():
        block[ns] = {**block.get(ns, {}), **entries}
    typ = documents.carrier_type(type(native))
    fields = {f: getattr(native, f) for f in native.__struct_fields__}
    own = fields.get(carried.FIELD)  # a plugin whose stat block has a carried block of its own
    fields[carried.FIELD] = {**own, **block} if isinstance(own, dict) else block
    return typ(**fields)


@_halts_are_errors
def from_neutral(value: Any, kind: str, key: str, system: System | None, losses: list[Loss],
                 trace: list[TraceEntry], name: str = "", notes: str = "",
                 registry: Registry | None = None, audit: "LossAudit | None" = None) -> Any:
    """Neutral content -> the typed document of system `key` (or neutral).

    With an ``audit`` (as :func:`convert` passes), every item written is read back into
    the neutral model and whatever did not survive joins the loss report (see
    :class:`LossAudit`)."""
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

    def item(what: str, neutral: Any, prefix: str) -> Any:
        first = len(losses)
        method = system.npc_from_neutral if what == "npc" else system.shot_from_neutral
        want = system.npc_type if what == "npc" else system.shot_type
        plan = None
        if what == "npc":  # the skills the sheet had: the core decides for every target (core.skillplan)
            plan = skillplan.plan(system, neutral, _system_of(registry))
            neutral = plan.combatant
        native = _absorb(_guard(system, f"{what}_from_neutral", method, neutral, want=want), losses, trace, prefix)
        if audit is not None:
            audit.check(system, what, neutral, native, prefix, losses, first)
        if what != "npc":
            return native
        native = _carry(system, neutral, native, prefix, losses, audit, first, registry, plan)
        if audit is not None:  # after what is carried: a carried input crosses exactly
            _follow_derived(audit, prefix, losses, first)
        return native

    if kind == "npc":
        return typ(system=key, kind=kind, **_fields(item("npc", value, "$")))
    if kind == "roster":
        npcs = [item("npc", c, f"$.npcs[{i}]") for i, c in enumerate(value)]
        return typ(system=key, kind=kind, name=name, notes=notes, npcs=npcs)
    if kind == "shot":
        return typ(system=key, kind=kind, **_fields(item("shot", value, "$")))
    scen: Scenario = value
    scene_t = _scene_type(typ)
    scenes = []
    default_light = Scene().light
    for si, scene in enumerate(scen.scenes):
        # a scene of a system document has no light or barriers of its own: each shot has them
        if scene.light != default_light:
            losses.append(Loss.of("unsupported-field", f"$.scenes[{si}].light",
                                  f"a {key} scene has no light of its own (each shot has its light); dropped",
                                  system=key))
        if scene.barriers:
            losses.append(Loss.of("unsupported-field", f"$.scenes[{si}].barriers",
                                  f"a {key} scene has no barriers of its own (each shot has its cover); dropped",
                                  system=key))
        combatants = [item("npc", c, f"$.scenes[{si}].combatants[{i}]") for i, c in enumerate(scene.combatants)]
        shots = [item("shot", s, f"$.scenes[{si}].shots[{i}]") for i, s in enumerate(scene.shots)]
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

@_halts_are_errors
def convert(source: Any, to: str, *, default_system: str | None = None, settings: Settings | None = None,
            strict: bool = False, registry: Registry | None = None, fmt: str | None = None,
            trace: bool = True, fresh: bool = False) -> Conversion:
    """Convert a document (a :class:`Loaded`, plain data, or a path) to system `to`.

    Returns a :class:`Conversion`; with ``strict=True`` raises :class:`LossError` when
    anything is lost. ``trace=False`` skips recording how every number crossed (the
    conversion's ``trace`` stays empty; the loss report is complete either way).
    ``fresh=True`` ignores the source a converted document remembers (``xsys.origin``):
    the document is converted as it reads, and the output remembers only it."""
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
    notes: list[Loss] = []
    restored, carry = (None, False) if fresh else _restore(loaded, to, settings, reg, notes)
    if restored is not None:
        conv = restored
        if not trace:
            conv.trace = []
    else:
        conv = _convert_afresh(loaded, to, merged, reg, trace)
        if loaded.system != to:
            conv.origin = _origin_of(loaded, carry=carry)
    from .readreport import read_losses  # what a format plugin's reader could not read or assumed

    conv.losses[:0] = read_losses(loaded.meta, loaded.system) + notes
    if strict and conv.strict_losses:
        first = conv.strict_losses[0]
        raise LossError(f"{len(conv.strict_losses)} loss(es) under --strict; first: {first.path}: {first.message}",
                        file=loaded.file)
    return conv


def _convert_afresh(loaded: Loaded, to: str, merged: dict[str, dict[str, Any]], reg: Registry,
                    trace: bool) -> Conversion:
    src_sys = None if loaded.system == NEUTRAL else system_for(loaded.system, merged, reg)
    dst_sys = None if to == NEUTRAL else system_for(to, merged, reg)
    losses: list[Loss] = []
    entries: list[TraceEntry] = []
    doc = loaded.document
    with tracing(trace):
        neutral = to_neutral(loaded, src_sys, losses, entries, reg)
        audit = None if to == NEUTRAL else LossAudit(doc, loaded.system, to, src_sys)
        if audit is not None:
            audit.begin(losses)
        out = from_neutral(neutral, loaded.kind, to, dst_sys, losses, entries,
                           name=getattr(doc, "name", "") or "", notes=getattr(doc, "notes", "") or "",
                           registry=reg, audit=audit)
    return Conversion(codec.canonical(out), loaded.system, to, loaded.kind, losses, entries, canonical=True)


# ---- lossless round trips ----------------------------------------------------------
#
# A conversion that rounds to the nearest native value cannot in general be both
# faithful (within half a step of the source) and stable after one round trip: with
# A = {-0.09, 0.1} and B = {-0.15, 0}, nearest rounding takes 0.1 -> 0 -> -0.09 -> -0.15.
# So every converted document remembers its source (`xsys.origin`, with a digest of the
# document as written). Converting an unedited document back to a system in its chain
# of origins returns that original; an edited one is converted afresh.
#
# The memory is not trusted for being there: anyone can write an `xsys.origin` block and
# its (unkeyed) digest. A remembered source is used only if it reads as a valid document
# and, converted afresh, gives exactly the document at hand (each hop of the chain to the
# one restored); the document at hand is then a function of the source, so restoring the
# source loses nothing of it. Otherwise the memory is ignored with a warning in the loss
# report and the document is converted as it reads. A restored document remembers only
# what its own source remembered: converting it on to another system is a fresh
# conversion with its own loss report.

ORIGIN_DEPTH = 3
ORIGIN_RULE = "xsys.origin"


def digest(document: Any) -> str:
    plain = codec.to_builtins(codec.canonical(document))
    plain.pop("xsys", None)
    return _digest_of_plain(plain)


def _digest_of_plain(plain: Any) -> str:
    return hashlib.sha256(codec.json_encode(plain)).hexdigest()


def _origin_of(loaded: Loaded, depth: int = ORIGIN_DEPTH, carry: bool = True) -> dict[str, Any]:
    """The `xsys.origin` block of a conversion of `loaded`: the document itself and (with
    ``carry``) what it remembers in turn, up to `depth` documents."""
    plain = codec.to_builtins(loaded.document)
    if loaded.settings:
        plain["settings"] = loaded.settings
    inner = _origin_block(loaded.meta) if carry else None
    if inner is not None and depth > 1:
        plain["xsys"] = {"origin": _trim(inner, depth - 1)}
    return _kept({"system": loaded.system, "document": plain}, loaded.kind)


def _kept(block: dict[str, Any], kind: str) -> dict[str, Any]:
    """An origin block as a document of this kind keeps it: a roster's packed (conversions/origin.py), any other's a readable copy."""
    from .origin import pack, packs

    return pack(block) if packs(kind) else block


def _trim(origin: dict[str, Any], depth: int) -> dict[str, Any]:
    doc = dict(origin["document"])
    inner = _origin_block(doc.get("xsys"))
    if inner is not None and depth > 1:
        doc["xsys"] = {"origin": _trim(inner, depth - 1)}
    else:
        doc.pop("xsys", None)
    return {"system": origin["system"], "document": doc}


def _origin_block(meta: Any) -> dict[str, Any] | None:
    """The remembered source of a document's ``xsys`` block as ``{"system", "document"}``
    (a packed one unpacked and checked against its digest); None if there is none or it is
    malformed or damaged."""
    if not isinstance(meta, dict):
        return None
    origin = meta.get("origin")
    if isinstance(origin, dict) and "packed" in origin:
        from .origin import unpack

        origin = unpack(origin)
    if not (isinstance(origin, dict) and isinstance(origin.get("system"), str)
            and isinstance(origin.get("document"), dict)):
        return None
    return origin


def _origin_ignored(why: str) -> Loss:
    """A warning (not a loss: --strict judges the fresh conversion's own report)."""
    return Loss(kind="assumed", level="warning", path="$.xsys.origin", rule=ORIGIN_RULE,
                message=f"the remembered source is ignored: {why}; converted as the document reads")


def _restore(loaded: Loaded, to: str, settings: Settings | None, reg: Registry,
             notes: list[Loss]) -> tuple[Conversion | None, bool]:
    """(the original `to` document, if `loaded` is an unedited conversion whose chain of
    remembered sources reaches `to` and checks out; whether the chain may be carried on
    into the output's memory)."""
    origin = _origin_block(loaded.meta)
    if origin is None:
        return None, True
    chain: list[Loaded] = []
    while origin is not None and len(chain) < ORIGIN_DEPTH:
        try:  # validated like any input
            source = from_plain(origin["document"], f"{loaded.file} (xsys.origin)", None, reg)
        except XsysError as exc:
            notes.append(_origin_ignored(f"it does not read ({exc.line()})"))
            return None, False
        chain.append(source)
        if source.system == to:
            break
        origin = _origin_block(source.meta)
    if not chain or chain[-1].system != to:
        return None, True  # not needed here; carried on unchecked (checked where it is used)
    wanted = chain[-1]
    if wanted.kind != loaded.kind:
        notes.append(_origin_ignored(f"it is a {wanted.kind}, not a {loaded.kind}"))
        return None, False
    if not isinstance(loaded.meta, dict) or loaded.meta.get("digest") != digest(loaded.document):
        if isinstance(loaded.meta, dict) and isinstance(loaded.meta.get("digest"), str):
            return _merge_edited(loaded, chain[0], to, settings, reg, notes), False
        notes.append(_origin_ignored("the document was edited after it was converted (it holds no digest)"))
        return None, False
    here, here_system = loaded.document, loaded.system
    for source in chain:
        try:
            again = convert(source, here_system, settings=settings, registry=reg, trace=False, fresh=True)
        except XsysError as exc:
            notes.append(_origin_ignored(f"it does not convert to {here_system} ({exc.line()})"))
            return None, False
        if digest(again.document) != digest(here):
            notes.append(_origin_ignored(
                f"converted afresh it is not this {here_system} document (forged, edited, or converted with other "
                "settings or plugin versions)"))
            return None, False
        here, here_system = source.document, source.system
    conv = Conversion(wanted.document, loaded.system, to, loaded.kind, [], [TraceEntry(
        path="$", source_value=f"{loaded.system} document (unedited)",
        neutral=f"original {to} document", rules=[ORIGIN_RULE], source="seed",
        note=f"restored from the document this {loaded.system} document was converted from")])
    inner = _origin_block(wanted.meta)
    conv.origin = None if inner is None else _kept(_trim(inner, ORIGIN_DEPTH), loaded.kind)
    return conv, True


# ---- hand-edited documents -----------------------------------------------------------
#
# A converted document edited by hand no longer matches its digest. Converting it back is
# then neither a restoration (the edit would be lost) nor a fresh conversion (everything the
# target could not hold would be lost, though the user changed one field). Instead the
# remembered source is checked (converted afresh it must give the document as it was
# written: the recorded digest), the edited document is compared with that document, and
# both are converted back: a field of the source whose two conversions back agree was not
# touched by the edit and is restored from the source; a field where they differ is taken
# from the conversion of the edited document, and a warning names both sets of fields.

EDIT_RULE = "xsys.origin.edited"


def _plain(doc: Any) -> Any:
    plain = codec.to_builtins(codec.canonical(doc))
    plain = msgspec.json.decode(codec.json_encode(plain))  # tuples as lists, as in a file
    if isinstance(plain, dict):
        plain.pop("xsys", None)
    return plain


def _changed_paths(a: Any, b: Any, path: str, out: list[str]) -> None:
    """Where plain documents `a` and `b` differ, as paths (a whole list where lengths differ)."""
    if a == b:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            _changed_paths(a.get(k, _MISSING), b.get(k, _MISSING), _path_text([*(_tokens(path) or ()), k]), out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            _changed_paths(x, y, f"{path}[{i}]", out)
    else:
        out.append(path)


def _merge_back(src: Any, before: Any, after: Any, path: str, changed: list[str]) -> Any:
    """The source's value where the edit did not change its conversion back (`before` ==
    `after`), the conversion of the edited document where it did (`changed` records where)."""
    if before == after:
        return src
    if isinstance(before, dict) and isinstance(after, dict) and isinstance(src, dict):
        out = {}
        for k in list(src) + [k for k in after if k not in src] + [k for k in before if k not in src and k not in after]:
            v = _merge_back(src.get(k, _MISSING), before.get(k, _MISSING), after.get(k, _MISSING),
                            _path_text([*(_tokens(path) or ()), k]), changed)
            if v is not _MISSING:
                out[k] = v
        return out
    if isinstance(before, list) and isinstance(after, list) and isinstance(src, list) and len(before) == len(src):
        if len(before) == len(after):
            return [_merge_back(s, b, a, f"{path}[{i}]", changed)
                    for i, (s, b, a) in enumerate(zip(src, before, after))]
        # items added or removed (a weapon more): an item whose conversion back is unchanged
        # is the source's item; the others are new
        out, used = [], set()
        for i, a in enumerate(after):
            j = next((j for j, b in enumerate(before) if j not in used and b == a), None)
            if j is None:
                changed.append(f"{path}[{i}]")
                out.append(a)
            else:
                used.add(j)
                out.append(src[j])
        changed.extend(f"{path}[{j}] (removed)" for j in range(len(before)) if j not in used)
        return out
    changed.append(path)
    return after


def _merge_edited(loaded: Loaded, source: Loaded, to: str, settings: Settings | None, reg: Registry,
                  notes: list[Loss]) -> Conversion | None:
    """`loaded`, a hand-edited conversion of `source`, back in `source`'s system: the fields
    the edit changed converted afresh, the rest restored from `source` (see above); then, if
    `source` is itself a conversion of a document in system `to`, on down the chain. None
    (with a note) when the remembered source does not check out."""
    here = loaded.system
    try:
        expected = convert(source, here, settings=settings, registry=reg, trace=False, fresh=True)
    except XsysError as exc:
        notes.append(_origin_ignored(f"it does not convert to {here} ({exc.line()})"))
        return None
    if digest(expected.document) != loaded.meta.get("digest"):
        notes.append(_origin_ignored(
            f"converted afresh it is not the {here} document that was written (forged, or converted with other "
            "settings or plugin versions)"))
        return None
    edited: list[str] = []
    _changed_paths(_plain(expected.document), _plain(loaded.document), "$", edited)
    try:
        unedited = Loaded(expected.document, here, loaded.kind, loaded.file, loaded.settings)
        before = convert(unedited, source.system, settings=settings, registry=reg, trace=False, fresh=True)
        after = convert(Loaded(loaded.document, here, loaded.kind, loaded.file, loaded.settings),
                        source.system, settings=settings, registry=reg, fresh=True)
    except XsysError as exc:
        notes.append(_origin_ignored(f"the edited document does not convert back ({exc.line()})"))
        return None
    changed: list[str] = []
    src = msgspec.json.decode(codec.json_encode(codec.to_builtins(source.document)))  # in the source's own order
    merged = _merge_back(src, _plain(before.document), _plain(after.document), "$", changed)
    if source.settings:
        merged["settings"] = source.settings
    try:
        result = from_plain(merged, f"{loaded.file} (edited)", None, reg)
    except XsysError as exc:
        notes.append(_origin_ignored(f"the edited fields do not fit the remembered source ({exc.line()})"))
        return None
    what = ", ".join(edited) or "nothing"
    redone = ", ".join(changed) or "nothing"
    if loaded.meta.get("carried"):  # a later hop of a chain: the edit came from the document converted
        head = f"the edit carried into the remembered {here} document (changed: {what}); "
    else:
        head = f"edited by hand since it was converted from {source.system} (changed: {what}); "
    if changed:
        tail = f"reconverted {redone}; everything else restored from the remembered {source.system} source"
    else:
        tail = (f"reconverted nothing: the edited document converts back to the same {source.system} document as "
                f"before the edit (the edit is finer than a {source.system} step, or in a field {source.system} has "
                "no place for), so the remembered source is restored")
    notes.append(Loss(kind="assumed", level="warning", path="$", rule=EDIT_RULE, system=source.system,
                      message=head + tail))
    losses = [x for x in after.losses if any(_inside(x.path, p) for p in edited)]
    trace = [TraceEntry(path="$", source_value=f"{here} document (edited: {what})",
                        neutral=f"{source.system} document", rules=[EDIT_RULE], source="seed",
                        note=f"reconverted {redone}; the rest restored from the remembered source")]
    # how the edited fields were read (paths in the edited document) and written (paths in the output)
    trace += [t for t in after.trace if any(_inside(t.path, p) for p in edited)
              or any(_inside(t.path, p.split(" ")[0]) for p in changed)]
    if source.system != to:  # further down the chain: the merged document, edited against its own source
        inner = _origin_block(source.meta)
        if inner is None:
            return None
        onward = Loaded(result.document, source.system, source.kind, loaded.file, source.settings,
                        {"origin": inner, "digest": digest(source.document), "carried": True})
        conv, _ = _restore(onward, to, settings, reg, notes)
        if conv is None:
            return None
        conv.losses[:0] = losses
        conv.trace[:0] = trace
        return conv
    return Conversion(result.document, here, to, loaded.kind, losses, trace)


# ---- odds -----------------------------------------------------------------------

@dataclass
class OddsResult:
    system: str
    label: str
    check: Check
    #: the check is the system's own check of the document's native shot (``check_native``)
    native: bool = False
    #: what of the native shot did not cross into the neutral shot this system checked
    losses: list[Loss] = field(default_factory=list)

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


@dataclass(frozen=True)
class NativeSource:
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
            if src is not None:
                nscene = loaded.document.scenes[si]
                nshot = nscene.shots[i]
                who = getattr(nshot, "shooter", None)
                npc = next((c for c in getattr(nscene, "combatants", ()) if who and getattr(c, "name", None) == who),
                           None)
                prefix = f"$.scenes[{si}].shots[{i}]"
                mine = tuple(x for x in losses if _inside(x.path, prefix))
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
            try:
                check = check_native(sysm, src, extra) if own else sysm.check(shot, extra)  # type: ignore[arg-type]
                label = sysm.label()
            except XsysError:
                raise
            except PluginHalt as exc:
                raise _halted(sysm, exc) from None
            except PLUGIN_FAULTS as exc:
                raise _blame(sysm, f"failed to check the shot: {describe_fault(exc)}") from exc
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


def dump(conv: Conversion, fmt: str, explain: bool = False) -> bytes:
    """A conversion as file content: the document plus an ``xsys`` block with the loss
    report (and the trace with ``explain``)."""
    if fmt == "md":
        from .markdown import render

        return render(conv, explain, shot_checks(conv)).encode("utf-8")
    plain = codec.to_builtins(conv.document)
    meta = conv.meta(explain)
    # a canonical document is its own canonical form: its plain data is what digest() hashes
    meta["digest"] = _digest_of_plain(plain) if conv.canonical else digest(conv.document)
    # what the document is comes first, then its fields, then what xsys adds
    head = {k: plain.pop(k) for k in ("system", "kind", "name") if k in plain}
    return documents.dumps({**head, **plain, "xsys": meta}, fmt)


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
