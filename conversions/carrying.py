"""What a written stat block carries for other systems (its ``carried:`` block,
xsys.core.carried): the system-only data its system does not read, the neutral
characteristics it has no field for (as the carried entries of a system that has one), and
the sheet skills it does not write as they were (xsys.core.skillplan); each reported, where
the loss audit found it, as ``kept-verbatim``."""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from xsys.core import carried, scalelevels, skillplan
from xsys.core.audit import LossAudit, show
from xsys.core.errors import XsysError
from xsys.core.model import Combatant
from xsys.core.registry import Registry, default_registry
from xsys.core.system import System
from xsys.core.trace import UNWRITTEN_AT_FLOOR, WRITTEN_AT_FLOOR, Loss

from . import documents


def _namespace_family(registry: Registry | None) -> Any:
    """namespace -> every installed system whose stat blocks write it (coc and coc-zh: coc)."""
    reg = registry or default_registry()

    def family(ns: str) -> list[System]:
        out = []
        for key in reg.keys():
            try:
                found = reg.system(key)
            except XsysError:
                continue
            if carried.namespaces(found)[:1] == (ns,):
                out.append(found)
        return out
    return family


def _namespace_owner(registry: Registry | None) -> Any:
    """namespace -> the installed system whose stat blocks write it (None: none does): the
    system of that key, else the first of its family."""
    reg = registry or default_registry()
    family = _namespace_family(reg)

    def owner(ns: str) -> System | None:
        try:
            found = reg.system(ns)
            if carried.namespaces(found)[:1] == (ns,):
                return found
        except XsysError:
            pass
        return next(iter(family(ns)), None)
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
    for key, ns, name, value in carried.characteristics_out(system, values, owners(), neutral.beyond):
        out.setdefault(ns, {})[name] = value
        where = f"{carried.FIELD}.{ns}.{name}"
        what = f"characteristics.{key} {show(neutral.characteristics[key])}"
        i = next((j for j in range(first, len(losses)) if losses[j].kind == "unsupported-field"
                  and losses[j].message.startswith(what + ":")), None)
        path = losses[i].path if i is not None else f"{prefix}.characteristics.{key}"
        loss = Loss.of("kept-verbatim", path, f"{name} {value} ({ns}, the neutral {key}): not expressible in "
                       f"{system.key}; carried verbatim at {where}", carried.RULE,
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


def _skill_path(audit: "LossAudit | None", prefix: str, name: str) -> str:
    """The path of the sheet skill `name` in the source (else its place under ``skills``)."""
    if audit is not None:
        try:
            return audit.sheet_skill(prefix, name)
        except Exception:  # noqa: BLE001 - the neutral path still names the skill
            pass
    return f"{prefix}.skills.{name}"


def _carried_skills(plan: "skillplan.Plan | None", prefix: str, losses: list[Loss], audit: "LossAudit | None",
                    system: System) -> dict[str, dict[str, Any]]:
    """The sheet skills a stat block does not write as they were (a broad skill's other neutral
    skills, a twin's name), carried for the way back, each with its one report line at the
    sheet skill's path in the source."""
    if plan is None or not plan.carry:
        return {}
    for name, message in plan.lines:
        path = _skill_path(audit, prefix, name)
        kind = "unsupported-field" if name in plan.missing else "kept-verbatim"
        losses.append(Loss.of(kind, path, message, skillplan.RULE, system=system.key))
    return {ns: {skillplan.FIELD: dict(entries)} for ns, entries in plan.carry.items()}


def _scale_levels(system: System, neutral: Combatant, native: Any, prefix: str, losses: list[Loss],
                  audit: "LossAudit | None", registry: Registry | None, first: int = 0) -> dict[str, dict[str, Any]]:
    """The levels a sheet of `system`'s skill scale stated that `native` writes as another number
    or not at all (core.scalelevels), carried for the way back, each with its one report line at
    the skill's path in the source (which replaces the audit's "dropped" there: it is carried)."""
    carry, lines = scalelevels.unwritten(system, neutral, native, _system_of(registry))
    for _ns, name, message in lines:
        path = _skill_path(audit, prefix, name)
        losses[first:] = [x for x in losses[first:] if not (x.path == path and x.kind == "unsupported-field"
                                                             and x.message.endswith("dropped"))]
        losses.append(Loss.of("kept-verbatim", path, message, scalelevels.RULE, system=system.key))
    return {ns: entries[scalelevels.FIELD] for ns, entries in carry.items()}


def _unwritten_floors(system: System, neutral: Combatant, prefix: str, losses: list[Loss], first: int,
                      registry: Registry | None) -> dict[str, dict[str, Any]]:
    """The source's skills a target wrote no line for because they lie under what the NPC rolls
    untrained there (``System.floor_unwritten``: a GURPS skill at its default is not on a 3e
    sheet), carried as the source's sheet lines (core.skillplan), so a sheet of the source
    written from that one has them again (a CoC Conceal 25 under GURPS Holdout's default 8 came
    home as the base 15), or wrote at that level instead (a GURPS Vision at the NPC's Per for a
    CoC Spot Hidden 45), carried as the source's sheet lines (core.skillplan) for the way back.
    Each clamp's report line says where."""
    out: dict[str, dict[str, Any]] = {}
    for i in range(first, len(losses)):
        loss = losses[i]
        if loss.kind != "clamped" or not (loss.message.endswith(UNWRITTEN_AT_FLOOR) or WRITTEN_AT_FLOOR in loss.message):
            continue
        name = loss.path.rsplit(".", 1)[-1]
        stated = neutral.sheet_skills.get(name)
        owner = _system_of(registry)(stated.system) if stated is not None else None
        if owner is None or isinstance(stated.level, bool) or not isinstance(stated.level, (int, float)):
            continue
        ns = carried.namespaces(owner)[0]
        if ns in carried.namespaces(system) or (owner.skill_scale and owner.skill_scale == system.skill_scale):
            continue  # (a sheet of the same skill scale carries its levels itself: core.scalelevels)
        out.setdefault(ns, {})[name] = stated.level
        losses[i] = Loss.of(loss.kind, loss.path, f"{loss.message}; {name} {stated.level} is carried at "
                            f"carried.{ns}.{skillplan.FIELD}.{name} for the way back", loss.rule, system=loss.system)
    return out


def _dropped_sheet_skills(system: System, neutral: Combatant, prefix: str, losses: list[Loss], first: int,
                          registry: Registry | None) -> dict[str, dict[str, Any]]:
    """The source's sheet skills whose neutral skill `system`'s stat block has no line for (the
    audit's "skills.melee 0.560: no place for it ...; dropped": 7th edition fights a knife with
    Fighting (Brawl) and writes no level of its own for the NPC's nWoD Weaponry), carried as the
    source's sheet lines (core.skillplan), so a sheet of the source written from this one has
    them again; the audit's line is said in the source's own words, as carried."""
    out: dict[str, dict[str, Any]] = {}
    find = _system_of(registry)
    for i in range(first, len(losses)):
        loss = losses[i]
        if loss.kind != "unsupported-field" or not loss.message.startswith("skills.") \
                or not loss.message.endswith("; dropped"):
            continue
        key = loss.message.split(" ", 1)[0][len("skills."):]
        name = loss.path.rsplit(".", 1)[-1]
        stated = neutral.sheet_skills.get(name)
        if stated is None or key not in stated.covers or isinstance(stated.level, bool) \
                or not isinstance(stated.level, (int, float)):
            continue
        owner = find(stated.system)
        if owner is None:
            continue
        ns = carried.namespaces(owner)[0]
        if ns in carried.namespaces(system) or (owner.skill_scale and owner.skill_scale == system.skill_scale):
            continue  # its own sheet, or a sheet of the same skill scale (core.scalelevels carries those)
        out.setdefault(ns, {})[name] = stated.level
        value = neutral.skills.get(key)
        said = f"{key} competence {value:.3f}" if isinstance(value, float) else f"the neutral {key}"
        losses[i] = Loss.of("kept-verbatim", loss.path, f"{name} {stated.level} ({stated.system}, {said}): no line "
                            f"for it in a {system.key} stat block; carried verbatim at "
                            f"carried.{ns}.{skillplan.FIELD}.{name} for the way back", carried.RULE, system=system.key)
    return out


def _melee_kind_carried(system: System, neutral: Combatant, native: Any, prefix: str, losses: list[Loss],
                        first: int, registry: Registry | None,
                        audit: "LossAudit | None" = None) -> tuple[str, str] | None:
    """(namespace, weapon class) of the close-combat skill the source stated, where `system`'s
    stat block has one skill for every weapon and so reads back none (a CoC Club 60 as nWoD
    Weaponry 3): carried in the source's namespace, so its sheet written from this one writes
    Club again, not its first melee skill. The audit's line for it says it is carried."""
    kind = neutral.melee_kind
    if kind is None or not any("melee" in keys for keys in system.skills().values()):
        return None
    stated = next((s for s in neutral.sheet_skills.values() if "melee" in s.covers), None)
    owner = _system_of(registry)(stated.system) if stated is not None else None
    if owner is None or carried.namespaces(owner)[0] in carried.namespaces(system):
        return None
    read = audit.read_back_of(native) if audit is not None else None  # the audit read it already
    try:
        back = (read if read is not None else system.npc_to_neutral(native).value).melee_kind
    except Exception:  # noqa: BLE001 - a sheet its own plugin cannot read: nothing carried
        return None
    if back == kind:
        return None
    ns = carried.namespaces(owner)[0]
    said = f"melee_kind {kind!r}: a {system.key} stat block has one melee skill for every weapon; the level " \
           f"crosses, the weapon it is for is carried at carried.{ns}.{carried.MELEE_KIND}, so a {owner.key} sheet " \
           "written from this one names that weapon's skill again"
    # the audit's line for it (placed at the source's skills): said once, as carried
    at = next((i for i in range(first, len(losses)) if losses[i].rule == "core.melee"
               and losses[i].message.startswith(f"melee_kind {kind!r}:")), None)
    if at is not None:
        losses[at] = Loss.of("kept-verbatim", losses[at].path, said, "core.melee", system=system.key)
    else:
        losses.append(Loss.of("kept-verbatim", f"{prefix}.melee_kind" if prefix != "$" else "$.melee_kind", said,
                              "core.melee", system=system.key))
    return ns, kind


def _writes(native: Any, key: str, value: Any, system: System | None = None) -> bool | str:
    """Whether the written stat block holds `value` at the carried `key` ("skills.Intimidate"):
    True; or, for a carried line of a list the stat block has ("melee.Trench knife"), a line of
    that name written its own way: "as its own line"; a skill under the name its system writes
    a kin's under (System.kin_skill_name): "as <that name>"; else False."""
    head, _, name = key.partition(".")
    if head == "skills" and name and system is not None:
        renamed = system.kin_skill_name(name)
        if renamed != name:
            return f"as {renamed}" if _writes(native, f"skills.{renamed}", value) is True else False
    if name and isinstance(value, Mapping) and hasattr(native, "__struct_fields__") \
            and (isinstance(getattr(native, head, None), list) or head in ("melee", "weapons")):
        # a line of that name in any list of named lines (an nWoD sheet keeps its fists among
        # its weapons)
        lists = [getattr(native, f) for f in native.__struct_fields__ if isinstance(getattr(native, f), list)]
        return "as its own line" if any(getattr(x, "name", None) == name for xs in lists for x in xs) else False
    obj = native
    for part in key.split("."):
        if isinstance(obj, Mapping):
            obj = obj.get(part)
        elif hasattr(obj, "__struct_fields__") and part in obj.__struct_fields__:
            obj = getattr(obj, part)
        else:
            return False
    return obj == value


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
    for ns, entries in _scale_levels(system, neutral, native, prefix, losses, audit, registry, first).items():
        old = block.get(ns, {})
        chars.setdefault(ns, {})[scalelevels.FIELD] = {**(old.get(scalelevels.FIELD) or {}), **entries}
    for found in (_unwritten_floors(system, neutral, prefix, losses, first, registry),
                  _dropped_sheet_skills(system, neutral, prefix, losses, first, registry)):
        for ns, entries in found.items():
            old = {**(block.get(ns, {}).get(skillplan.FIELD) or {}),
                   **(chars.get(ns, {}).get(skillplan.FIELD) or {})}
            chars.setdefault(ns, {})[skillplan.FIELD] = {**old, **entries}
    kind = _melee_kind_carried(system, neutral, native, prefix, losses, first, registry, audit)
    if kind is not None:
        chars.setdefault(kind[0], {})[carried.MELEE_KIND] = kind[1]
    if not block and not chars:
        return native
    if block:
        carried.report(block, system.key, prefix, losses, audit.source_losses(prefix) if audit is not None else [],
                       # whether the source as written has that path (its own carried: block)
                       audit.in_source if audit is not None else (lambda p: False),
                       lambda key, value: _writes(native, key, value, system))
    for ns, entries in chars.items():
        block[ns] = {**block.get(ns, {}), **entries}
    typ = documents.carrier_type(type(native))
    fields = {f: getattr(native, f) for f in native.__struct_fields__}
    own = fields.get(carried.FIELD)  # a plugin whose stat block has a carried block of its own
    fields[carried.FIELD] = {**own, **block} if isinstance(own, dict) else block
    return typ(**fields)
