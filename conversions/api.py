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
import types
import weakref
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache, wraps
from pathlib import Path
from typing import Annotated, Any, Callable, Iterable, Literal, Mapping, Sequence, Union, get_args, get_origin

import msgspec

from xsys.core import carried, codec, skillplan, units
from xsys.core.errors import InputError, LossError, PluginError, XsysError
from xsys.core.model import Combatant, Scenario, Scene, Shot
from xsys.core.registry import (PLUGIN_FAULTS, PluginHalt, Registry, check_chance, default_registry,
                                describe_fault)
from xsys.core.system import System
from xsys.core.trace import STRICT_KINDS, Check, Loss, Result, TraceEntry, tracing
from xsys.core.units import _Quantity
from xsys.core.vocab import KIND_OF, SKILLS as NEUTRAL_SKILLS

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


def _native_fields(obj: Any, typ: type) -> Any:
    """A document Struct (npc/shot plus system and kind) as the plugin's own Struct."""
    if type(obj) is typ:
        return obj
    return typ(**{f: getattr(obj, f) for f in typ.__struct_fields__})


def _blame(system: Any, message: str) -> PluginError:
    """An error about a system's plugin: ``system 'x' <message> [plugin 'x' (dist 1.0)]``,
    naming the plugin and distribution the system comes from."""
    key = getattr(system, "key", "?")
    plugin = getattr(system, "xsys_plugin", None)
    return PluginError(f"system {key!r} {message}" + (f" [{plugin}]" if plugin else ""))


def _halted(system: Any, exc: PluginHalt) -> PluginError:
    """A third-party plugin call that ran past its time (its message names the plugin and the
    method) as the error of the system it belongs to."""
    return PluginError(f"system {getattr(system, 'key', '?')!r} stopped: {exc}")


def _halts_are_errors(fn):
    """A plugin call that must end the work (a :class:`PluginHalt`: it ran past its time)
    gets out of the loss audit's probes, which skip a plugin's ordinary faults, and ends the
    conversion here as a PluginError naming the plugin (one document's error, not xsys's)."""
    @wraps(fn)
    def contained(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except PluginHalt as exc:
            raise PluginError(str(exc)) from None
    return contained


def _guard(system: System, what: str, fn, *args, want: type | tuple[type, ...] | None = None) -> Result[Any]:
    """Call a plugin's conversion; a crash inside it (or garbage out of it) is an error
    naming the system and its plugin, never a traceback. `want`: the type of the value."""
    try:
        res = fn(*args)
    except XsysError:
        raise
    except PluginHalt as exc:
        raise _halted(system, exc) from None
    except PLUGIN_FAULTS as exc:
        raise _blame(system, f"failed in {what}: {describe_fault(exc)}") from exc
    if not isinstance(res, Result):
        raise _blame(system, f"returned {type(res).__name__} from {what}, not a Result")
    if want is not None and not isinstance(res.value, want):
        names = " or ".join(t.__name__ for t in (want if isinstance(want, tuple) else (want,)))
        raise _blame(system, f"returned {type(res.value).__name__} from {what}, not a {names}")
    if not (isinstance(res.losses, list) and all(isinstance(x, Loss) for x in res.losses)
            and isinstance(res.trace, list) and all(isinstance(t, TraceEntry) for t in res.trace)):
        raise _blame(system, f"returned losses or trace entries of the wrong type from {what}")
    return res


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
    source = audit._system if audit is not None else None
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
        carried.report(block, system.key, prefix, losses, audit._mine.get(prefix, []) if audit is not None else [],
                       # whether the source as written has that path (its own carried: block): its
                       # structure alone, not the audit's search for a field under another name
                       (lambda p: _resolve(audit.plain, p, audit._keymaps)[1]) if audit is not None
                       else (lambda p: False))
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


# ---- the loss audit ---------------------------------------------------------------
#
# A plugin reports what its system cannot write, but a report it forgets must not let
# a loss through --strict. So every item a conversion writes (an NPC, a shot) is read
# back into the neutral model with the target system's own npc_to_neutral /
# shot_to_neutral and compared, field by field, with the neutral item it was made from.
# A field that was stated (not a default) and did not come back is a loss, unless the
# report already holds it:
#
# - it came back empty, as its default or not at all: ``unsupported-field``, unless the
#   system does write the field for other values (tried with one far-off value, or each
#   other choice of a closed set): then ``rounded`` (numbers) or ``merged`` (choices);
# - an item of a list (armor, weapons) that did not come back: ``dropped-item``;
# - a number that came back different: ``rounded`` (info: the system's step is coarser);
# - a choice or flag that came back different: ``merged``; free text: ``unsupported-field``.
#
# Loss paths point into the source document: a neutral source has the field itself; a
# system document is searched for the same path (keys compared without case, and
# ``target_armor`` read as ``target.armor`` or the reverse), else the nearest existing
# parent, with the neutral field named in the message.

_MISSING: Any = msgspec.UNSET  # a sentinel that is never a document value
_SEVERITY = {"assumed": 0, "rounded": 0, "kept-verbatim": 0, "derived": 0, "unsupported-field": 1, "merged": 1, "clamped": 1,
             "dropped-item": 1}
_PATH_TOKEN = re.compile(r"\.([^.\[\]]+)|\[(\d+)\]")
_ITEM = re.compile(r"^\$(\.npcs\[\d+\]|\.scenes\[\d+\]\.(combatants|shots)\[\d+\])")


class _Field:
    __slots__ = ("default", "omitted", "type", "choices", "bounds")

    def __init__(self, default: Any, type_: Any) -> None:
        self.default = default
        self.omitted = False
        self.type = type_
        self.choices: tuple[Any, ...] = ()
        self.bounds: tuple[float | None, float | None] = (None, None)
        t = type_
        while True:  # unwrap Annotated[...] and Optional[...]
            origin = get_origin(t)
            if origin is Annotated:
                args = get_args(t)
                for meta in args[1:]:
                    if isinstance(meta, msgspec.Meta):
                        lo = meta.ge if meta.ge is not None else meta.gt
                        hi = meta.le if meta.le is not None else meta.lt
                        self.bounds = (lo, hi)
                t = args[0]
            elif origin in (Union, types.UnionType):
                rest = [a for a in get_args(t) if a is not type(None)]
                if len(rest) != 1:
                    break
                t = rest[0]
            else:
                break
        if get_origin(t) is Literal:
            self.choices = get_args(t)


_FIELDS: dict[type, dict[str, _Field]] = {}


def _struct_fields(cls: type) -> dict[str, _Field]:
    out = _FIELDS.get(cls)
    if out is None:
        out = {}
        for f in msgspec.structs.fields(cls):
            info = _Field(_MISSING, f.type)
            if f.default is not msgspec.NODEFAULT:
                info.default = f.default
                info.omitted = True  # a default value is not written: it states nothing
            elif f.default_factory is not msgspec.NODEFAULT:
                info.default = f.default_factory()  # written unless empty (["torso"] is stated)
            out[f.name] = info
        _FIELDS[cls] = out
    return out


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float, Fraction)) and not isinstance(x, bool)


def _same(a: Any, b: Any) -> bool:
    if _is_number(a) and _is_number(b):
        return a == b or math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)
    return a == b


def _empty(x: Any) -> bool:
    return x is _MISSING or x is None or (isinstance(x, (str, list, dict)) and not x)


def _show(x: Any) -> str:
    if isinstance(x, _Quantity):
        return units.to_text(x)
    if isinstance(x, float):
        return f"{x:.6g}"
    if isinstance(x, msgspec.Struct):
        name = getattr(x, "name", "") or getattr(x, "material", "")
        return f"{type(x).__name__.lower()} {name!r}" if name else type(x).__name__.lower()
    if isinstance(x, list):
        return ", ".join(_show(v) for v in x) or "none"
    if isinstance(x, str):
        return repr(x)
    return str(x)


class _Diff:
    __slots__ = ("path", "src", "back", "field")

    def __init__(self, path: str, src: Any, back: Any, field: _Field | None) -> None:
        self.path, self.src, self.back, self.field = path, src, back, field


def _differences(src: Any, back: Any, path: str, field: _Field | None, out: list[_Diff]) -> None:
    """Every stated leaf of `src` that `back` does not hold, as a _Diff (paths from "$")."""
    if type(src) is type(back) and (src is back or src == back):
        return
    if isinstance(src, msgspec.Struct):
        if type(back) is not type(src):
            out.append(_Diff(path, src, back, field))
            return
        for name, f in _struct_fields(type(src)).items():
            value = getattr(src, name)
            if (f.omitted and _same(value, f.default)) or (name in ("native", "carried", "sheet_skills") and type(src) is Combatant):
                # a default states nothing; native blocks are compared by LossAudit, carried by
                # _carry; the sheet's skill names are what the source states, not the target
                continue
            _differences(value, getattr(back, name), f"{path}.{name}", f, out)
        return
    if isinstance(src, dict):
        theirs = back if isinstance(back, dict) else {}
        for k, v in src.items():
            _differences(v, theirs.get(k, _MISSING), f"{path}.{k}", None, out)
        return
    if isinstance(src, list) and any(isinstance(v, (msgspec.Struct, dict, list)) for v in src):
        theirs = back if isinstance(back, list) else []
        for i, v in enumerate(src):
            _differences(v, theirs[i] if i < len(theirs) else _MISSING, f"{path}[{i}]", None, out)
        return
    if isinstance(src, list) and isinstance(back, list):
        if all(any(_same(x, y) for y in back) for x in src):
            return  # every stated element is there (order and additions are no loss)
    elif _same(src, back):
        return
    out.append(_Diff(path, src, back, field))


@lru_cache(maxsize=8192)
def _tokens(path: str) -> tuple[str | int, ...] | None:
    if not path.startswith("$"):
        return None
    out: list[str | int] = []
    pos = 1
    for m in _PATH_TOKEN.finditer(path, 1):
        if m.start() != pos:
            return None
        out.append(m.group(1) if m.group(1) is not None else int(m.group(2)))
        pos = m.end()
    return tuple(out) if pos == len(path) else None


def _path_text(tokens: Iterable[str | int]) -> str:
    return "$" + "".join(f"[{t}]" if isinstance(t, int) else f".{t}" for t in tokens)


@lru_cache(maxsize=8192)
def _norm(key: Any) -> str:
    return str(key).lower().replace("-", "_").replace(" ", "_")


def _resolve(plain: Any, path: str, keymaps: dict[int, dict[str, Any]] | None = None) -> tuple[str, bool]:
    """The path in the source document that `path` names: (path, exact). Keys match
    without case or separators; ``a_b`` may be ``a.b`` and the reverse; what does not
    exist is cut back to the nearest existing parent (exact is then False)."""
    tokens = _tokens(path)
    if tokens is None:
        return "$", False
    node = plain
    for t in tokens:  # most paths are the source's own
        if isinstance(t, int) and isinstance(node, list) and 0 <= t < len(node):
            node = node[t]
        elif isinstance(t, str) and isinstance(node, dict) and t in node:
            node = node[t]
        else:
            break
    else:
        return path, True
    maps = keymaps if keymaps is not None else {}

    def keys_of(d: dict[Any, Any]) -> dict[str, Any]:
        km = maps.get(id(d))
        if km is None:  # dicts with the same keys (the NPCs of a roster) share one map
            sig = tuple(d)
            km = maps.get(sig)  # type: ignore[call-overload]
            if km is None:
                km = maps[sig] = {_norm(k): k for k in sig}  # type: ignore[index]
                maps[("memo", id(km))] = {}  # type: ignore[index]  # look-ups in this map
            maps[id(d)] = km
        return km

    node, done, i = plain, [], 0
    while i < len(tokens):
        t = tokens[i]
        if isinstance(t, int):
            if isinstance(node, list) and 0 <= t < len(node):
                node, i = node[t], i + 1
                done.append(t)
                continue
            break
        if not isinstance(node, dict):
            break
        keys = keys_of(node)
        # the key itself, or this key and the next ones joined (target.armor -> target_armor)
        ahead = tokens[i:i + 3]
        memo = maps[("memo", id(keys))]  # type: ignore[index]
        hit = memo.get(ahead, False)  # type: ignore[union-attr]
        if hit is False:
            hit = None
            for n in range(len(ahead), 0, -1):
                part = ahead[:n]
                if all(isinstance(p, str) for p in part):
                    k = keys.get("_".join(_norm(p) for p in part))
                    if k is not None:
                        hit = (k, n)
                        break
            memo[ahead] = hit  # type: ignore[index]
        if hit is not None:
            node, i = node[hit[0]], i + hit[1]
            done.append(hit[0])
            continue
        # or this key split in two (target_armor -> target.armor)
        pieces = t.split("_")
        if len(pieces) > 1:
            sub, walked = node, []
            for piece in pieces:
                k = keys_of(sub).get(_norm(piece)) if isinstance(sub, dict) else None
                if k is None:
                    walked = []
                    break
                sub = sub[k]
                walked.append(k)
            if walked:
                node, i = sub, i + 1
                done.extend(walked)
                continue
        break
    return _path_text(done), i == len(tokens)


def _get(obj: Any, tokens: list[str | int]) -> Any:
    for t in tokens:
        if isinstance(t, int):
            obj = obj[t] if isinstance(obj, list) and t < len(obj) else _MISSING
        elif isinstance(obj, msgspec.Struct):
            obj = getattr(obj, t, _MISSING)
        elif isinstance(obj, dict):
            obj = obj.get(t, _MISSING)
        else:
            return _MISSING
        if obj is _MISSING:
            return obj
    return obj


def _put(obj: Any, tokens: list[str | int], value: Any) -> Any:
    if not tokens:
        return value
    t, rest = tokens[0], tokens[1:]
    if isinstance(obj, msgspec.Struct) and isinstance(t, str):
        return msgspec.structs.replace(obj, **{t: _put(getattr(obj, t), rest, value)})
    if isinstance(obj, list) and isinstance(t, int):
        new = list(obj)
        new[t] = _put(obj[t], rest, value)
        return new
    if isinstance(obj, dict):
        new_d = dict(obj)
        new_d[t] = _put(obj[t], rest, value)
        return new_d
    raise KeyError(t)


def _far_values(d: _Diff) -> list[Any]:
    """Values to try when a field came back as its default: does the system write the
    field at all? (a number far from the default, or each other choice)."""
    f = d.field
    if f is None:
        tokens = _tokens(d.path) or ()
        if len(tokens) >= 2 and tokens[-2] in ("skills", "characteristics") and _is_number(d.src):
            return [0.95, 0.05]  # a competence or percentile: does the system write this one at all?
        return []
    if f.choices:
        return [c for c in f.choices if c != f.default and c != d.src]
    if _is_number(d.src) and _is_number(f.default):
        lo, hi = f.bounds
        if lo is not None and hi is not None:
            far = lo if float(f.default) >= (lo + hi) / 2 else hi
        else:
            far = float(d.src) * 4 + (1 if float(d.src) >= 0 else -1)
            if hi is not None:
                far = min(far, hi)
        value: Any = type(d.src)(far) if isinstance(d.src, (_Quantity, int)) else far
        return [value] if not _same(value, f.default) else []
    return []


# Whether a system writes a field at all (LossAudit._written_at_all) takes up to two trips
# through it per field that an item reads back without, and a roster asks it for the same
# fields of every NPC. A system's answer is remembered for the process (unless it sets
# System.remember = False), keyed by
# all it can depend on: the system object (its settings), what is written, the field's path,
# the values tried and the field's default (each with its type), and the item's shape: its
# fractional numbers (a field, or a mapping of them: characteristics, skills) by their type
# alone, its own name and notes left out, of its native blocks (and what is carried) those
# the system reads -- its own and its parent's (coc-zh reads coc's) -- and everything else
# (weapons, armor, text, whole numbers, flags) exactly. The assumption: a system
# writes a field or not whatever the fractional values of the item's characteristics,
# skills and other number fields, its name and other systems' blocks. (The shape is kept as
# a 16-byte digest, and so is each key.)
# tests/test_written_memo.py converts every fixture and generated rosters to every system,
# whole and streamed, with the memo on and off and compares the bytes; the conformance kit
# does the same for any plugin's fixtures (xsys.testing).

WRITTEN_MEMO = True  # off: asked every time (tests compare the two)
_WRITTEN_LIMIT = 20_000  # entries per system (at most about 6 MB): memory stays flat however long the run
_written_memo: "weakref.WeakKeyDictionary[System, dict[bytes, bool]]" = weakref.WeakKeyDictionary()
_FREE_TEXT = frozenset(("name", "note", "notes"))


def _key_hook(x: Any) -> Any:
    # in a key: a quantity or Fraction as its type and exact value, apart from any plain value
    # (plain numbers keep their type: 1, 1.0 and True are apart, and -0.0 is not 0.0)
    if isinstance(x, float):
        return msgspec.msgpack.Ext(1, f"{type(x).__qualname__}:{float.hex(x)}".encode())
    if isinstance(x, Fraction):
        return msgspec.msgpack.Ext(2, f"{x.numerator}/{x.denominator}".encode())
    if x is _MISSING:
        return msgspec.msgpack.Ext(3, b"")
    raise TypeError(f"not a key: {type(x).__name__}")


_KEY_ENCODER = msgspec.msgpack.Encoder(enc_hook=_key_hook)


def _shape(item: msgspec.Struct, blocks: tuple[str, ...]) -> bytes:
    """The item as the memo sees it: its fractional numbers (a field, or the values of a
    mapping of them: characteristics, skills) by their type alone, its name and notes left
    out, of its native blocks (and what systems carry) those of the systems in `blocks`,
    everything else exactly; as a digest of all that (16 bytes a key, however big the item)."""
    out: list[Any] = [type(item).__module__, type(item).__qualname__]
    encode = _KEY_ENCODER.encode
    for name in item.__struct_fields__:
        if name in _FREE_TEXT:
            continue
        value = getattr(item, name)
        if name in ("native", "carried") and isinstance(value, dict):
            out.append(["N", name, encode([[k, value[k]] for k in blocks if k in value])])
        elif isinstance(value, float):
            out.append(["F", name, type(value).__qualname__])
        elif isinstance(value, dict) and all(type(v) is float for v in value.values()):
            out.append(["K", name, list(value)])
        else:
            out.append(["V", name, encode(value)])
    return hashlib.blake2b(encode(out), digest_size=16).digest()


class LossAudit:
    """Checks a conversion's loss report against what each written item reads back as
    (see the comment above). :func:`convert` makes one per conversion."""

    def __init__(self, source: Any, source_system: str, key: str, system: System | None = None) -> None:
        self.plain = codec.to_builtins(source)
        if source_system != NEUTRAL:  # a stat block's default values are values it has (nWoD Intelligence 2)
            _fill_defaults(source, self.plain)
        self.source_system = source_system
        self.key = key
        self.source = source
        self._system = system
        self._items: dict[str, str] = {}  # item path -> "npc" / "shot" (the items audited so far)
        self._probed: dict[str, dict[str, str]] = {}  # item path -> neutral path -> its native field
        self._exists: dict[str, tuple[str, bool]] = {}
        self._keymaps: dict[int, dict[str, Any]] = {}
        self._mine: dict[str, list[int]] = {}  # item path -> indices of its losses from reading the source
        # the source system's own names for neutral characteristics and skills, so that a
        # path like $.characteristics.size is found as $.SIZ in a coc document
        self._aliases: dict[str, dict[str, list[str]]] = {"characteristics": {}, "skills": {}}
        self._fields: dict[str, list[str]] = {}  # neutral skill -> a field outside the skills (GURPS Dodge)
        self._shaped: tuple[Any, System, bytes] | None = None  # the item last shaped for the memo, for whom, its shape
        if system is not None:
            try:
                for native, spec in system.characteristics().items():
                    self._aliases["characteristics"].setdefault(spec.neutral, []).append(native)
                for native, keys in system.skills().items():
                    for k in keys:
                        self._aliases["skills"].setdefault(k, []).append(native)
                for neutral, field in system.derived_characteristics().items():
                    self._aliases["characteristics"].setdefault(neutral, []).append(field)
                for neutral, field in system.derived_skills().items():
                    self._fields.setdefault(neutral, []).append(field)
            except PLUGIN_FAULTS:
                pass

    def begin(self, losses: list[Loss]) -> None:
        """Note the losses of reading the source (before any item is written)."""
        for i, loss in enumerate(losses):
            m = _ITEM.match(loss.path)
            self._mine.setdefault(m.group(0) if m else "$", []).append(i)

    def resolve(self, path: str) -> tuple[str, bool]:
        hit = self._exists.get(path)
        if hit is None:
            hit = _resolve(self.plain, path, self._keymaps)
            if not hit[1]:
                hit = self._by_native_name(path) or self._by_probe(path) or hit
            self._exists[path] = hit
        return hit

    def _by_probe(self, path: str) -> tuple[str, bool] | None:
        """A neutral path inside an audited item (``$.scenes[0].shots[2].shooter.aim_time``) as
        the source's own field that states it (``$.scenes[0].shots[2].aim_turns``), found by
        asking the source's plugin which neutral values change when that field is left out."""
        best = None
        for prefix, what in self._items.items():
            if path != prefix and _inside(path, prefix) and (best is None or len(prefix) > len(best[0])):
                best = (prefix, what)
        if best is None:
            return None
        prefix, what = best
        rel = "$" + path[len(prefix):]
        if rel.startswith(("$.skills", "$.characteristics")):
            return None  # found by their names (_by_native_name, _locate): a trait moves every skill
        head = _tokens(rel)
        if not head or head[0] not in (Combatant if what == "npc" else Shot).__struct_fields__:
            return None  # the target's own field (GURPS advantages): no source field states it
        for neutral_path, native in self._probe_map(prefix, what).items():
            if _inside(rel, neutral_path) or _inside(neutral_path, rel):
                found, exact = _resolve(self.plain, f"{prefix}.{native}", self._keymaps)
                if exact:
                    return found, True
        return None

    def _probe_map(self, prefix: str, what: str) -> dict[str, str]:
        """Neutral path -> the native field of the source item at `prefix` that states it: each
        field holding more than its default is left out in turn and the item read again; of the
        fields that move a neutral value, the one that moves the fewest (the first of those)."""
        out = self._probed.get(prefix)
        if out is not None:
            return out
        out = self._probed[prefix] = {}
        system = self._system
        typ = None if system is None else system.npc_type if what == "npc" else system.shot_type
        item = _get(self.source, list(_tokens(prefix) or ()))
        if typ is None or item is _MISSING:
            return out
        method = system.npc_to_neutral if what == "npc" else system.shot_to_neutral  # type: ignore[union-attr]
        best: dict[str, tuple[int, str]] = {}  # neutral path -> (how many values its field moves, the field)
        try:
            item = _native_fields(item, typ)
            with tracing(False):
                base = method(item).value
            for name, f in _struct_fields(typ).items():
                value = getattr(item, name)
                if f.default is not _MISSING:
                    if _same(value, f.default):
                        continue
                    other = f.default
                elif _is_number(value) and not isinstance(value, Fraction):
                    other = type(value)(value + 1 if isinstance(value, int) else value * 1.5)  # a required number
                else:
                    continue
                try:
                    with tracing(False):
                        trial = method(msgspec.structs.replace(item, **{name: other})).value
                except (XsysError, *PLUGIN_FAULTS):
                    continue
                found: list[_Diff] = []
                _differences(base, trial, "$", None, found)
                # the field that moves the fewest neutral values states it most nearly: GURPS's
                # HT moves constitution and toughness (HP / HT), its HP toughness alone
                for d in found:
                    if d.path not in best or len(found) < best[d.path][0]:
                        best[d.path] = (len(found), name)
        except (XsysError, *PLUGIN_FAULTS):
            pass
        out.update({path: name for path, (_, name) in best.items()})
        return out

    def _by_native_name(self, path: str) -> tuple[str, bool] | None:
        """``...characteristics.X`` / ``...skills.X`` where the source calls X by its own
        name: the characteristic at its item (or an enclosing part), the skill in its
        ``skills``."""
        tokens = _tokens(path)
        if not tokens or len(tokens) < 2 or tokens[-2] not in self._aliases or not isinstance(tokens[-1], str):
            return None
        where, natives = list(tokens[:-2]), self._aliases[str(tokens[-2])].get(tokens[-1], [])
        if tokens[-2] == "skills":
            for field in self._fields.get(tokens[-1], ()):
                found, exact = _resolve(self.plain, _path_text(where + [field]), self._keymaps)
                if exact:
                    return found, True
        for native in natives:
            if tokens[-2] == "skills":
                candidates = [where + ["skills", native]]
            else:
                candidates = [where[:n] + [native] for n in range(len(where), -1, -1)]
            for c in candidates:
                found, exact = _resolve(self.plain, _path_text(c), self._keymaps)
                if exact:
                    return found, True
        return None

    def check(self, system: System, what: str, neutral: Any, native: Any, prefix: str, losses: list[Loss],
              first: int) -> None:
        """Audit one item: `neutral` was written as `native`, whose plugin losses are
        ``losses[first:]``; fix their paths and add what they left out."""
        self._items[prefix] = what
        back = self._read_back(system, what, native)
        found: list[_Diff] = []
        _differences(neutral, back, "$", None, found)
        new: list[Loss] = []
        for d in found:
            loss = self._classify(system, what, neutral, d)
            if loss is not None:
                new.append(_with_prefix(loss, prefix))
        if what == "npc":
            new += self._native_blocks(neutral, back, prefix, losses)
        mine = losses[first:]
        del losses[first:]
        losses.extend(self._settle(mine, new, losses, prefix))

    # ---- reading back -----------------------------------------------------------------
    def _read_back(self, system: System, what: str, native: Any) -> Any:
        method = system.npc_to_neutral if what == "npc" else system.shot_to_neutral
        with tracing(False):
            res = _guard(system, f"{what}_to_neutral (reading back its own {what})", method, native,
                         want=Combatant if what == "npc" else Shot)
        return res.value

    def _written_at_all(self, system: System, what: str, neutral: Any, d: _Diff) -> bool:
        tokens = _tokens(d.path)
        if not tokens:
            return False
        far = _far_values(d)
        if not far:
            return False
        if not (WRITTEN_MEMO and getattr(system, "remember", True)):
            return self._try_written(system, what, neutral, tokens, far, d)
        try:
            if self._shaped is None or self._shaped[0] is not neutral or self._shaped[1] is not system:
                blocks = tuple(dict.fromkeys((system.key, system.parent_key or system.key)))
                self._shaped = (neutral, system, _shape(neutral, blocks))
            key = hashlib.blake2b(_KEY_ENCODER.encode([what, tokens, far, d.field is None,
                                                       None if d.field is None else d.field.default,
                                                       self._shaped[2]]), digest_size=16).digest()
            memo = _written_memo.get(system)
            if memo is None:
                memo = _written_memo.setdefault(system, {})
            found = memo.get(key)
        except (TypeError, msgspec.EncodeError):  # a value that cannot be a key: asked as usual
            return self._try_written(system, what, neutral, tokens, far, d)
        if found is None:
            found = self._try_written(system, what, neutral, tokens, far, d)
            if len(memo) >= _WRITTEN_LIMIT:
                memo.clear()
            memo[key] = found
        return found

    def _try_written(self, system: System, what: str, neutral: Any, tokens: list[str | int], far: list[Any],
                     d: _Diff) -> bool:
        for value in far:
            try:
                trial = _put(neutral, tokens, value)
                with tracing(False):
                    method = system.npc_from_neutral if what == "npc" else system.shot_from_neutral
                    back = self._read_back(system, what, method(trial).value)
            except PLUGIN_FAULTS:
                continue
            got = _get(back, tokens)
            if not _empty(got) and not (d.field is not None and _same(got, d.field.default)):
                return True
        return False

    def _probe(self, system: System, what: str, neutral: Any, tokens: tuple[str | int, ...], value: Any) -> Any:
        """What `value` at `tokens` reads back as after a trip through `system` (_MISSING on a fault)."""
        try:
            trial = _put(neutral, list(tokens), value)
            with tracing(False):
                method = system.npc_from_neutral if what == "npc" else system.shot_from_neutral
                return _get(self._read_back(system, what, method(trial).value), list(tokens))
        except PLUGIN_FAULTS:
            return _MISSING

    def _clamped(self, system: System, what: str, neutral: Any, d: _Diff) -> bool:
        """Whether a competence that reads back as another number was pushed to the end of
        the target's scale: nothing further out reads back differently, and the mirror of the
        source about the value read back does (the source lies beyond the end by more than
        half the step to the next level, so no rounding explains it)."""
        tokens = _tokens(d.path)
        if not tokens or tokens[-1] != "skill" or not (_is_number(d.src) and _is_number(d.back)):
            return False
        src, back = float(d.src), float(d.back)
        gap = src - back
        lo, hi = (d.field.bounds if d.field is not None else (None, None))
        lo, hi = (0.0 if lo is None else lo), (1.0 if hi is None else hi)
        outward = min(max(src + gap, lo), hi)
        if outward != src and not _same(self._probe(system, what, neutral, tokens, outward), back):
            return False
        mirror = min(max(back - gap, lo), hi)
        got = self._probe(system, what, neutral, tokens, mirror)
        return got is not _MISSING and not _same(got, back)

    # ---- classifying --------------------------------------------------------------------
    def _classify(self, system: System, what: str, neutral: Any, d: _Diff) -> Loss | None:
        field = d.path[2:]
        src, back = d.src, d.back
        default = d.field.default if d.field is not None else _MISSING
        where = f"a {self.key} {'stat block' if what == 'npc' else what}"
        if back is _MISSING and isinstance(src, (msgspec.Struct, dict)) and d.path.endswith("]"):
            return Loss.of("dropped-item", d.path, f"{field} ({_show(src)}): no place for it in {where}; dropped",
                           system=self.key)
        if d.path.endswith("weapon_class") and isinstance(back, str) and KIND_OF.get(back) == src:
            # a handgun of no stated kind written as a revolver by its cartridge (nWoD's .38 Special
            # is the chart's revolver line) reads back as the kind it is (vocab.KIND_OF): more said,
            # nothing lost; the target reports its own assumption (nwod.weapon.clip)
            return None
        if d.path.endswith("melee_kind"):
            # the weapon a melee skill is for (Combatant.melee_kind): its level crosses; a system with
            # one melee skill for every weapon (nWoD Weaponry) cannot say which, and one with no
            # melee skill has said so at the skill already
            if not any("melee" in keys for keys in system.skills().values()):
                return None
            return Loss.of("assumed", d.path, f"{field} {_show(src)}: {where} has one melee skill for every weapon; "
                           "the level crosses, the weapon it is for does not (read back, a target writes its first "
                           "melee skill)", "core.melee", system=self.key)
        if isinstance(src, list):
            missing = [x for x in src if not (isinstance(back, list) and any(_same(x, y) for y in back))]
            return Loss.of("unsupported-field", d.path, f"{field} {_show(missing)}: no place for it in {where}; "
                           "dropped", system=self.key)
        if _empty(back) or (default is not _MISSING and _same(back, default)):
            if self._written_at_all(system, what, neutral, d):
                kind = "rounded" if _is_number(src) else "merged"
                if back is _MISSING:  # e.g. a skill at the level a stat block leaves out (Polish level 0)
                    return Loss.of(kind, d.path, f"{field} {_show(src)} is written as the level {where} leaves "
                                   "out (its lowest); it reads back as no value", system=self.key)
                return Loss.of(kind, d.path, f"{field} {_show(src)} reads back as {_show(back)} from {where}",
                               system=self.key)
            return Loss.of("unsupported-field", d.path, f"{field} {_show(src)}: no place for it in {where}; dropped",
                           system=self.key)
        if _is_number(src) and _is_number(back):
            if self._clamped(system, what, neutral, d):
                return Loss.of("clamped", d.path, f"{field} {_show(src)} lies {'above' if src > back else 'below'} "
                               f"anything {where} can express: clamped to its {'highest' if src > back else 'lowest'} "
                               f"level, which reads back as {_show(back)}", system=self.key)
            return Loss.of("rounded", d.path, f"{field} {_show(src)} reads back as {_show(back)} from {where}",
                           system=self.key)
        if isinstance(src, bool) or (d.field is not None and d.field.choices):
            return Loss.of("merged", d.path, f"{field} {_show(src)} reads back as {_show(back)} from {where}, "
                           "which does not tell them apart", system=self.key)
        return Loss.of("unsupported-field", d.path, f"{field} {_show(src)}: no place for it in {where}, which "
                       f"writes {_show(back)}", system=self.key)

    def _native_blocks(self, neutral: Combatant, back: Combatant, prefix: str, losses: list[Loss]) -> list[Loss]:
        """Native details kept for a round trip (Combatant.native) that the target drops."""
        out: list[Loss] = []
        for k, block in neutral.native.items():
            theirs = back.native.get(k)
            lost = list(block) if not isinstance(theirs, dict) else [x for x in block if x not in theirs]
            if not lost or not block:
                continue
            if k == self.source_system:
                # the source's own details: its plugin reported each one it kept ("kept-verbatim");
                # they are now lost for real, unless they are system-only data the written stat
                # block carries (xsys.core.carried, reported by _carry)
                whole = not isinstance(theirs, dict)
                kept = {"$." + key for block in neutral.carried.values() for key, _ in carried.leaves(block)}
                kept |= {"$." + str(top) for block in neutral.carried.values() for top in block}
                for i in self._mine.get(prefix, ()):
                    loss = losses[i]
                    if (loss.kind == "kept-verbatim" and loss.system == k and "$" + loss.path[len(prefix):] not in kept
                            and not carried.named(loss.message, neutral.carried)
                            and (whole or _first_key(loss.path, prefix) in {_norm(x) for x in lost})
                            and not _kept_elsewhere(block, back.native, k, "$" + loss.path[len(prefix):])):
                        losses[i] = Loss.of("unsupported-field", loss.path,
                                            f"{loss.message.rstrip('.')}; but a {self.key} stat block has no "
                                            "place for it: dropped",
                                            loss.rule, system=self.key)
                continue
            if self.source_system != NEUTRAL:
                # another system's block the source's own plugin wrote (coc-zh's copy for coc): made
                # from the source document, whose own losses are reported field by field
                continue
            paths = [f"$.native.{k}"] if not isinstance(theirs, dict) else [f"$.native.{k}.{x}" for x in lost]
            for p in paths:
                out.append(_with_prefix(Loss.of("unsupported-field", p, f"{p[2:]} (details kept for {k}): no place "
                                                f"for them in a {self.key} stat block; dropped", system=self.key),
                                        prefix))
        return out

    # ---- settling paths -----------------------------------------------------------------
    def _settle(self, plugin: list[Loss], found: list[Loss], before: list[Loss], prefix: str) -> list[Loss]:
        """The plugin's losses and the audit's, with paths into the source and no repeats."""
        earlier = [before[i] for i in self._mine.get(prefix, ())]
        known = earlier + plugin
        said: dict[str, int] = {}  # path (as written, and in the source) -> most severe loss there
        parts: set[str] = set()  # parts of the item lost as a whole (strict)
        for j, x in enumerate(known):
            sev = _SEVERITY[x.kind]
            where, exact = self.resolve(x.path) if j < len(earlier) else self._locate(x, prefix)
            for p in (x.path, where) if exact else (x.path,):
                if said.get(p, -1) < sev:
                    said[p] = sev
            if sev and x.path != prefix and _inside(x.path, prefix):
                parts.add(x.path)
        kept: list[Loss] = []
        for g in found:
            sev = _SEVERITY[g.kind]
            where, exact = self.resolve(g.path)
            if said.get(g.path, -1) >= sev or (exact and said.get(where, -1) >= sev):
                continue
            if parts and any(_inside(g.path, p) for p in parts):
                continue
            kept.append(g)
        out: list[Loss] = []
        taken: set[int] = set()
        for loss in plugin:
            where, exact = self._locate(loss, prefix)
            if exact:
                out.append(msgspec.structs.replace(loss, path=where) if where != loss.path else loss)
                continue
            # a path the source does not have (the target's own field name, e.g. "$.speed"):
            # the audit's findings with the same last key take over its message and rule;
            # else those under the nearest existing parent that the message names
            # ("$.skills.Gun: Gun covers handgun, rifle" -> $.skills.handgun)
            tokens = _tokens(loss.path)
            last = _norm(tokens[-1]) if tokens else None
            heirs = [i for i, g in enumerate(kept) if i not in taken and last is not None
                     and _last_key(g.path) == last]
            if not heirs and where != prefix and where != "$":
                words = set(_norm(w) for w in re.findall(r"[\w-]+", loss.message))
                heirs = [i for i, g in enumerate(kept) if i not in taken and _inside(g.path, where)
                         and _last_key(g.path) in words]
            if not heirs:
                out.append(msgspec.structs.replace(loss, path=where))
                continue
            for i in heirs:
                g = kept[i]
                kind = loss.kind if _SEVERITY[loss.kind] >= _SEVERITY[g.kind] else g.kind
                out.append(self._placed(Loss.of(kind, g.path, loss.message, loss.rule or g.rule, system=loss.system)))
                taken.add(i)
        out.extend(self._placed(g) for i, g in enumerate(kept) if i not in taken)
        return out

    def _locate(self, loss: Loss, prefix: str) -> tuple[str, bool]:
        """Where a plugin's loss is in the source: its path, or, for a skill the target calls
        by its own name (``$.umiejętności.Broń krótka``), the source's skill that the
        message names by its neutral key ("the source's handgun competence ...")."""
        where, exact = self.resolve(loss.path)
        if exact or "skills" in (_tokens(where) or ()):
            return where, exact
        item = _get(self.plain, list(_tokens(prefix) or ()))
        # the neutral skills a loss about skill levels names: "<skill> competence ..." (clamped,
        # rounded) or "<native> covers <skill>, <skill> at levels ..." (merged)
        named = re.findall(r"\b([a-z_]+) competence\b", loss.message)
        if " covers " in loss.message:
            named += re.findall(r"[a-z_]+", loss.message.split(" covers ", 1)[1].split(" at levels", 1)[0])
        for word in named:
            if word not in NEUTRAL_SKILLS:
                continue
            hit = self.resolve(f"{prefix}.skills.{word}")
            if hit[1]:
                return hit
            # a source whose skills are not under "skills" (pl-trudnosc: umiejętności)
            for native in self._aliases["skills"].get(word, ()):
                for key, val in (item.items() if isinstance(item, dict) else ()):
                    if isinstance(val, dict) and native in val:
                        return _path_text([*(_tokens(prefix) or ()), key, native]), True
        return where, exact

    def sheet_skill(self, prefix: str, native: str) -> str:
        """The source's line of the skill it calls `native` in the item at `prefix`: under its
        ``skills``, or wherever its system keeps them (pl-trudnosc: ``umiejętności``), so a
        report line about Broń długa names ``$.umiejętności.Broń długa``, not the whole NPC."""
        where, exact = self.resolve(f"{prefix}.skills.{native}")
        if exact:
            return where
        item = _get(self.plain, list(_tokens(prefix) or ()))
        for key, val in (item.items() if isinstance(item, dict) else ()):
            if isinstance(val, dict) and native in val:
                return _path_text([*(_tokens(prefix) or ()), key, native])
        return where

    def _placed(self, loss: Loss) -> Loss:
        where, _ = self.resolve(loss.path)
        return loss if where == loss.path else msgspec.structs.replace(loss, path=where)


def _fill_defaults(obj: Any, plain: Any) -> None:
    """Put back into `plain` (to_builtins of `obj`) the fields it left out for holding their
    default, so that a loss about them has a path in the source."""
    if isinstance(obj, msgspec.Struct) and isinstance(plain, dict):
        for name in obj.__struct_fields__:
            value = getattr(obj, name)
            if name not in plain:
                if value is None or value is msgspec.UNSET:
                    continue
                plain[name] = codec.to_builtins(value)
            _fill_defaults(value, plain[name])
    elif isinstance(obj, (list, tuple)) and isinstance(plain, list) and len(obj) == len(plain):
        for o, p in zip(obj, plain):
            _fill_defaults(o, p)
    elif isinstance(obj, dict) and isinstance(plain, dict):
        for k, v in obj.items():
            if k in plain:
                _fill_defaults(v, plain[k])


def _kept_elsewhere(block: dict[str, Any], natives: Mapping[str, Any], key: str, path: str) -> bool:
    """Whether the value a source's native block keeps at `path` (``$.skills.Sneak``) is
    kept, the same, in another system's block of the read-back (a variant and its parent
    keep the skills they share: coc-zh's Sneak is coc's Sneak)."""
    tokens = list(_tokens(path) or ())
    mine = _get(block, tokens) if tokens else _MISSING
    if mine is _MISSING:
        return False
    return any(isinstance(other, dict) and _get(other, tokens) == mine for k, other in natives.items() if k != key)


def _last_key(path: str) -> str | None:
    tokens = _tokens(path)
    return _norm(tokens[-1]) if tokens and isinstance(tokens[-1], str) else None


def _with_prefix(loss: Loss, prefix: str) -> Loss:
    return loss if prefix == "$" else msgspec.structs.replace(loss, path=prefix + loss.path[1:])


def _follow_derived(audit: LossAudit, prefix: str, losses: list[Loss], first: int) -> None:
    """A field the source computes from others by its rule (``System.derived_fields``: CoC's
    HP from CON and SIZ) follows them: where one of its inputs did not cross exactly, the loss
    report says so at the derived field too, since converting back recomputes it from what
    did cross (a GURPS stat block has no SIZ, so CoC's HP comes back from the median SIZ)."""
    derived = getattr(audit, "_derived_fields", None)
    if derived is None:  # once per conversion (a roster's NPCs share it)
        derived = {}
        if audit._system is not None:
            try:
                derived = dict(audit._system.derived_fields())
            except PLUGIN_FAULTS:
                pass
        audit._derived_fields = derived  # type: ignore[attr-defined]
    if not derived:
        return
    tokens = list(_tokens(prefix) or ())
    item = _get(audit.plain, tokens)
    if not isinstance(item, dict):
        return
    for i in range(first, len(losses)):
        loss = losses[i]
        field = loss.path[len(prefix) + 1:] if loss.path.startswith(prefix + ".") else None
        if loss.kind == "unsupported-field" and field in derived and _at_rule(audit, tokens, field):
            # a derived field at the value its rule gives (GURPS's Per 10 at IQ 10) states
            # nothing of its own: the way back computes it again from its inputs
            inputs, rule = derived[field]
            losses[i] = Loss.of("derived", loss.path, f"{field} {_show(item.get(field))} is what {rule} computes from "
                                f"{_and(inputs)}; {audit.key} has no place for it, and converting back computes it "
                                "again", rule, system=audit.source_system)
    mine = [*(losses[i] for i in audit._mine.get(prefix, ())), *losses[first:]]
    said = {x.path for x in mine}
    # the item's own paths that lost something ("$.SIZ", "$.merits.Fleet of Foot"), relative to it
    hurt = ["$" + x.path[len(prefix):] for x in mine
            if x.kind not in ("assumed", "derived", "kept-verbatim") and _inside(x.path, prefix)]
    if not hurt:
        return
    for field, (inputs, rule) in derived.items():
        value = item.get(field)
        path = _path_text([*tokens, field])
        if value is None or path in said:
            continue
        lost = [inp for inp in inputs if any(_inside(h, f"$.{inp}") for h in hurt)]
        if lost:
            losses.append(Loss.of("derived", path, f"{field} {_show(value)} is computed from {_and(inputs)}; "
                                  f"{_and(lost)} did not cross to {audit.key} exactly (see there), so converting "
                                  f"back gives the {field} of what did", rule, system=audit.source_system))


def _at_rule(audit: LossAudit, tokens: list[Any], field: str) -> bool:
    """Whether the source item at `tokens` reads as the same neutral NPC with `field` left to
    its default (its system then derives it): its value is the one its rule gives."""
    system = audit._system
    src = _get(audit.source, tokens)
    if system is None or src is _MISSING:
        return False
    try:
        typ = system.npc_type
        spec = _struct_fields(typ).get(field)
        if spec is None or spec.default is _MISSING:
            return False
        item = _native_fields(src, typ)
        with tracing(False):
            base = system.npc_to_neutral(item).value
            bare = system.npc_to_neutral(msgspec.structs.replace(item, **{field: spec.default})).value
    except (XsysError, *PLUGIN_FAULTS):
        return False
    found: list[_Diff] = []
    _differences(base, bare, "$", None, found)
    return not found


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _inside(path: str, prefix: str) -> bool:
    return path == prefix or (path.startswith(prefix) and path[len(prefix):len(prefix) + 1] in (".", "["))


def _first_key(path: str, prefix: str) -> str | None:
    tokens = _tokens("$" + path[len(prefix):])
    return _norm(tokens[0]) if tokens and isinstance(tokens[0], str) else None


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
