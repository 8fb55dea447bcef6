"""A document into the neutral model and out of it: each item through its system's plugin
(xsys.core.guard), what it carries put back and written out (:mod:`.carrying`), every item
written checked by the loss audit (xsys.core.audit). :func:`_convert_afresh` is one
conversion as it reads; :func:`xsys.conversions.convert.convert` adds the remembered source."""

from __future__ import annotations

from typing import Any, Iterable

import msgspec

from xsys.core import carried, codec, skillplan
from xsys.core.audit import LossAudit, follow_derived
from xsys.core.guard import guard as _guard, halts_are_errors as _halts_are_errors, native_fields as _native_fields
from xsys.core.model import Combatant, Scenario, Scene, Shot
from xsys.core.registry import Registry
from xsys.core.sheet import line_name_field, npc_name_field
from xsys.core.system import System
from xsys.core.trace import STRICT_KINDS, Loss, Result, TraceEntry, tracing

from . import documents, lossgroups
from .carrying import _carry, _namespace_family, _namespace_owner, _system_of
from .documents import NEUTRAL
from .loading import Loaded, system_for


class Conversion(msgspec.Struct):
    """A converted document with what was lost and how every number crossed."""

    document: Any
    source_system: str
    target_system: str
    kind: str
    losses: list[Loss] = msgspec.field(default_factory=list)
    trace: list[TraceEntry] = msgspec.field(default_factory=list)
    origin: dict[str, Any] | None = None  # the source document, for lossless round trips
    canonical: bool = False  # the document is in canonical form (codec.canonical), as convert() makes it
    source: Any = None  # the source document as read, where the losses' paths point (a roster's report)

    @property
    def strict_losses(self) -> list[Loss]:
        return [x for x in self.losses if x.kind in STRICT_KINDS]

    def loss_report(self, losses: str = "grouped") -> "list[Loss] | list[lossgroups.LossGroup]":
        """The loss report as written: a roster's grouped (``losses="grouped"``, of more
        than one NPC), else every loss (lossgroups)."""
        npcs = getattr(self.document, "npcs", None) if self.kind == "roster" else None
        if not lossgroups.grouped(self.kind, len(npcs or ()), lossgroups.check_mode(losses)):
            return self.losses
        field = npc_name_field(type(npcs[0])) if npcs else None
        sources = getattr(self.source, "npcs", None) if self.source is not None else None
        return lossgroups.group(self.losses, codec.to_builtins(npcs), field or "name",
                                codec.to_builtins(sources) if sources is not None else None,
                                line_name_field(type(sources[0])) if sources else "name")

    def meta(self, explain: bool = False, losses: str = "grouped") -> dict[str, Any]:
        out: dict[str, Any] = {"converted_from": self.source_system,
                               "losses": codec.to_builtins(self.loss_report(losses))}
        if explain:
            out["trace"] = [t.render() for t in self.trace]
        if self.origin is not None:
            out["origin"] = self.origin
        return out


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


def shooter_of_the_scene(shot: Shot, combatants: list[Any]) -> Shot:
    """A shot as its target system writes it: a shooter who is a combatant of its scene has that
    combatant's characteristics where the shot states none (a CoC shot states DEX; the nWoD
    check also asks the Strength a Thompson needs); what the shot states wins. The shot's own
    neutral values (what the loss report audits) are unchanged."""
    who = next((c for c in combatants if isinstance(c, Combatant) and c.name == shot.shooter.name), None)
    more = {k: v for k, v in who.characteristics.items() if k not in shot.shooter.characteristics} \
        if who is not None else {}
    if not more:
        return shot
    shooter = msgspec.structs.replace(shot.shooter, characteristics={**shot.shooter.characteristics, **more})
    return msgspec.structs.replace(shot, shooter=shooter)


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
        comb = skillplan.restore(comb, _namespace_owner(registry), system, _namespace_family(registry))
        comb = carried.melee_kind_in(comb)
    return comb


@_halts_are_errors
def from_neutral(value: Any, kind: str, key: str, system: System | None, losses: list[Loss],
                 trace: list[TraceEntry], name: str = "", notes: str = "",
                 registry: Registry | None = None, audit: "LossAudit | None" = None) -> Any:
    """Neutral content -> the typed document of system `key` (or neutral).

    With an ``audit`` (as :func:`_convert_afresh` passes), every item written is read back into
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

    def item(what: str, neutral: Any, prefix: str, scene: Scene | None = None) -> Any:
        first = len(losses)
        method = system.npc_from_neutral if what == "npc" else system.shot_from_neutral
        want = system.npc_type if what == "npc" else system.shot_type
        plan = None
        if what == "npc":  # the skills the sheet had: the core decides for every target (core.skillplan)
            plan = skillplan.plan(system, neutral, _system_of(registry))
            neutral = plan.combatant
        written = shooter_of_the_scene(neutral, scene.combatants) if scene is not None else neutral
        native = _absorb(_guard(system, f"{what}_from_neutral", method, written, want=want), losses, trace, prefix)
        if audit is not None:
            audit.check(system, what, neutral, native, prefix, losses, first)
        if what != "npc":
            return native
        native = _carry(system, neutral, native, prefix, losses, audit, first, registry, plan)
        if audit is not None:  # after what is carried: a carried input crosses exactly
            follow_derived(audit, prefix, losses, first)
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
        shots = [item("shot", s, f"$.scenes[{si}].shots[{i}]", scene) for i, s in enumerate(scene.shots)]
        scenes.append(scene_t(name=scene.name, notes=scene.notes, combatants=combatants, shots=shots))
    return typ(system=key, kind=kind, name=scen.name, notes=scen.notes, scenes=scenes)


def _scene_type(doc_typ: type) -> type:
    for fname, ftype in zip(doc_typ.__struct_fields__, codec.struct_fields(doc_typ)):
        if fname == "scenes":
            return ftype.type.__args__[0]
    raise TypeError("scenario document without scenes")


def _fields(obj: Any) -> dict[str, Any]:
    return {f: getattr(obj, f) for f in obj.__struct_fields__ if f not in ("system", "kind")}


def cross(loaded: Loaded, to: str, src_sys: System | None, dst_sys: System | None, reg: Registry,
          losses: list[Loss], entries: list[TraceEntry]) -> tuple[Any, int]:
    """`loaded` read into the neutral model and written as a `to` document (its systems
    `src_sys` and `dst_sys`, None for the neutral model), each written item checked by the
    loss audit; the losses and trace entries appended to `losses` and `entries`. Returns the
    typed document (not yet canonical) and how many of `losses` are from reading the source
    (those come first). A whole conversion and a streamed roster's NPCs go through this alike."""
    doc = loaded.document
    neutral = to_neutral(loaded, src_sys, losses, entries, reg)
    n_read = len(losses)
    audit = None if to == NEUTRAL else LossAudit(doc, loaded.system, to, src_sys)
    if audit is not None:
        audit.begin(losses)
    out = from_neutral(neutral, loaded.kind, to, dst_sys, losses, entries,
                       name=getattr(doc, "name", "") or "", notes=getattr(doc, "notes", "") or "",
                       registry=reg, audit=audit)
    return out, n_read


def _convert_afresh(loaded: Loaded, to: str, merged: dict[str, dict[str, Any]], reg: Registry,
                    trace: bool) -> Conversion:
    """`loaded` converted to `to` as it reads (what it remembers left aside), each written item
    checked by the loss audit; the document in canonical form."""
    src_sys = None if loaded.system == NEUTRAL else system_for(loaded.system, merged, reg)
    dst_sys = None if to == NEUTRAL else system_for(to, merged, reg)
    losses: list[Loss] = []
    entries: list[TraceEntry] = []
    with tracing(trace):
        out, _ = cross(loaded, to, src_sys, dst_sys, reg, losses, entries)
    return Conversion(codec.canonical(out), loaded.system, to, loaded.kind, losses, entries, canonical=True,
                      source=loaded.document)
