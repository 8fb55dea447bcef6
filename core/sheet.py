"""A stat block's way to the neutral model and back, done once from what the system declares.

A system plugin is its document (the ``npc_type`` Struct), its rules (ladders, checks) and a
:class:`Sheet`: which fields of the stat block hold the name, the notes, the skills, the
weapons and the armor, which fields only this system states (carried verbatim through every
other system, xsys.core.carried), where exact skill levels are kept for the way back. The
generic :func:`npc_to_neutral` and :func:`npc_from_neutral` (the default
``System.npc_to_neutral`` / ``npc_from_neutral`` of a system that declares a ``sheet``) then do
the steps every system repeats, in one order, and ask the system's hooks only for what is its
own: one weapon or armor line (``weapon_to_neutral`` ...), the values its rules derive
(``derived_values``), the neutral skills such a value is (``derived_to_neutral``: nWoD Defense
as the dodge), what its native block remembers (``native_block``), and a last word each way
(``extra_to_neutral``, ``extra_from_neutral``). docs/hooks.md lists them.

The order of the steps is the order of the losses and the trace a conversion reports, so it is
fixed here: characteristics, mapped skills, skills no neutral key holds, derived values and the
hit points, weapons, armor, kept levels, carried fields; and back: the restored stat block, the
carried block, characteristics, carried fields, skills, weapons, melee lines, armor.
"""

from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

import msgspec

from . import carried, codec
from .model import Combatant, MeleeWeapon
from .trace import Collector, Result, and_list

if TYPE_CHECKING:
    from .system import System


@dataclass(frozen=True)
class Sheet:
    """Where a system's stat block (its ``npc_type``) keeps what the core converts: attribute
    names of the Struct's fields. Checked when the System subclass is defined (:func:`check`)."""

    name: str = "name"
    notes: str = "notes"
    # the skill levels: a dict (native skill -> level) or a Struct of levels (``as_dict()`` when
    # it has one, else its encoded fields); skills not in ``System.skills()`` are carried verbatim
    skills: str = "skills"
    weapons: str = "weapons"
    armor: str = "armor"
    # the native fields a skill's levels depend on (``skill_context``); empty: the characteristics
    context: tuple[str, ...] = ()
    # fields only this system states: carried verbatim (kept-verbatim loss, ``carried_rule``)
    # under the system's first carried namespace, and taken back through ``carried_type``. The
    # skills no neutral key holds are carried as "skills": naming the skills field here places
    # them in that order in the carried block (else they follow the fields)
    carried: tuple[str, ...] = ()
    carried_rule: str = ""
    carried_type: type | None = None  # a Struct of optional fields (xsys.core.carried.take)
    # a level the stat block writes for a skill it does not have (pl-trudnosc, nWoD: 0): a
    # converted skill at or below it is not written; and with ``unstated_crosses`` False such a
    # skill of the stat block does not cross either (every target writes its own untrained default)
    unstated_level: Any = None
    unstated_crosses: bool = True
    # the key of the native block that keeps exact levels the equating cannot tell apart
    # (``System.levels_kept`` / ``levels_restored``); "": none kept
    levels_kept: str = ""
    # report every other system's native block on the way in as having no place here
    foreign_native: bool = False


def check(system: type) -> None:
    """A declared sheet names fields its ``npc_type`` has: one clear error at class definition."""
    if "sheet" not in system.__dict__ and "npc_type" not in system.__dict__:
        return  # nothing new to check: what it inherits was checked with its parent
    sheet = getattr(system, "sheet", None)
    if sheet is None:
        return
    if not isinstance(sheet, Sheet):
        raise TypeError(f"{system.__name__}.sheet must be an xsys.core.sheet.Sheet, not {type(sheet).__name__}")
    fields = set(getattr(system.npc_type, "__struct_fields__", ()))
    named = [sheet.name, sheet.notes, sheet.skills, sheet.weapons, sheet.armor, *sheet.context, *sheet.carried]
    missing = [f for f in named if f not in fields]
    if missing:
        raise TypeError(f"{system.__name__}.sheet names fields its npc_type {system.npc_type.__name__} does not "
                        f"have: {', '.join(missing)} (it has {', '.join(sorted(fields))})")
    if (sheet.carried or sheet.carried_rule) and sheet.carried_type is None:
        raise TypeError(f"{system.__name__}.sheet carries {', '.join(sheet.carried)} but names no carried_type")


def _levels(value: Any) -> dict[str, Any]:
    if isinstance(value, Mapping):
        return dict(value)
    if hasattr(value, "as_dict"):
        return dict(value.as_dict())
    return dict(msgspec.to_builtins(value, enc_hook=codec.enc_hook))


def _builtins(value: Any) -> Any:
    return msgspec.to_builtins(value, enc_hook=codec.enc_hook)


def npc_to_neutral(system: "System", npc: Any) -> Result[Combatant]:
    """A stat block as the neutral NPC, by the system's ``sheet`` and hooks."""
    sheet: Sheet = system.sheet  # type: ignore[assignment]
    col = Collector(system.key)
    chars = {k: getattr(npc, k) for k in system.characteristics()}
    neutral_chars = system.characteristics_to_neutral(chars, col, "$")
    ctx = {k: getattr(npc, k) for k in sheet.context} if sheet.context else chars
    spath = f"$.{sheet.skills}"
    levels = _levels(getattr(npc, sheet.skills))
    if sheet.unstated_level is not None and not sheet.unstated_crosses:
        levels = {k: v for k, v in levels.items() if v > sheet.unstated_level}
    mapped = system.skills()
    stated = {k: v for k, v in levels.items() if k in mapped}
    skills = system.skills_to_neutral(stated, col, spath, context=ctx)
    own: dict[str, Any] = {}  # what only this system states, carried through every other system
    other = {k: v for k, v in _levels(getattr(npc, sheet.skills)).items() if k not in mapped}
    for k in other:
        col.carried(f"{spath}.{k}", f"skill {k!r}")
    # the values its rules derive: a derived skill (nWoD Defense: the dodge), the hit points as
    # the toughness, and a stated value the rules would not give, kept as stated
    der = system.derived_values(npc)
    skills.update(system.derived_to_neutral(npc, der, col))
    toughness = None
    if system.health_field and system.health_field in der:
        toughness = system.toughness_of(getattr(npc, system.health_field), der[system.health_field], col)
    crossing = set(system.derived_skills().values()) | {system.health_field}
    for k, v in der.items():
        stated_value = getattr(npc, k)
        if stated_value is not None and stated_value != v and k not in crossing:
            col.loss("rounded", f"$.{k}", f"{k} {stated_value} differs from the rules' {v}; kept verbatim",
                     system.derived_fields().get(k, ((), system.health_rule))[1])
    weapons, melee, lines = [], [], {}
    for i, line in enumerate(getattr(npc, sheet.weapons)):
        w = system.weapon_to_neutral(line, col, f"$.{sheet.weapons}[{i}]")
        if isinstance(w, MeleeWeapon):  # close combat: its class crosses, its own line is carried
            melee.append(w)
            lines[w.name] = _builtins(line)
        else:
            weapons.append(w)
    armor = [system.armor_to_neutral(a, col, f"$.{sheet.armor}[{i}]") for i, a in enumerate(getattr(npc, sheet.armor))]
    native = dict(system.native_block(npc))
    if sheet.levels_kept:
        exact = system.levels_kept(stated, col, spath, context=ctx)
        if exact:
            native[sheet.levels_kept] = exact
    for k in sheet.carried:
        if k == sheet.skills:  # its place in the carried block: the skills no neutral key holds
            if other:
                own["skills"] = other
            continue
        value = getattr(npc, k)
        if value:
            col.carried(f"$.{k}", k, sheet.carried_rule)
        if value is not None and (value or not isinstance(value, (list, dict))):
            own[k] = _builtins(value)
    if other:
        own.setdefault("skills", other)
    if lines:
        own["melee"] = lines
    comb = Combatant(name=getattr(npc, sheet.name), characteristics=neutral_chars, skills=skills, weapons=weapons,
                     melee=melee, armor=armor, toughness=toughness, notes=getattr(npc, sheet.notes),
                     native={system.key: native} if native else {},
                     carried={carried.namespaces(system)[0]: own} if own else {})
    return col.result(system.extra_to_neutral(npc, comb, col))


def npc_from_neutral(system: "System", combatant: Combatant) -> Result[Any]:
    """The neutral NPC as a stat block, by the system's ``sheet`` and hooks."""
    sheet: Sheet = system.sheet  # type: ignore[assignment]
    col = Collector(system.key)
    restored = system.npc_restored(combatant, col)
    if restored is not None:
        return col.result(restored)
    ns = carried.namespaces(system)[0]
    own = carried.take(combatant.carried.get(ns), sheet.carried_type, col, f"$.carried.{ns}", system.key) \
        if sheet.carried_type is not None else {}
    mine = combatant.native.get(system.key, {})
    fields = system.characteristics_from_neutral(combatant.characteristics, col, "$")
    for k in sheet.carried:
        if k == sheet.skills:
            continue  # the carried skills join the converted ones below
        value = own[k] if k in own else system.carried_missing(k, mine, combatant, col)
        if value is not None:
            fields[k] = value
    ctx = {k: fields[k] for k in sheet.context if k in fields} if sheet.context else dict(fields)
    spath = f"$.{sheet.skills}"
    levels = system.skills_from_neutral(combatant.skills, col, spath, context=ctx)
    if sheet.levels_kept:
        levels = system.levels_restored(levels, mine.get(sheet.levels_kept, {}), combatant.skills, context=ctx)
    if sheet.unstated_level is not None:
        levels = {k: v for k, v in levels.items() if v > sheet.unstated_level}
    levels.update({k: v for k, v in own.get("skills", {}).items() if k not in levels})
    others = [o for o in combatant.native if o != system.key] if sheet.foreign_native else []
    if others:  # one line for them all (a coc-zh sheet keeps its parent coc's view too)
        col.loss("unsupported-field", f"$.native.{others[0]}",
                 f"the {and_list(others)} sheet{'s' if len(others) > 1 else ''} as "
                 f"{'they were' if len(others) > 1 else 'it was'}, kept for an exact trip back, "
                 f"{'have' if len(others) > 1 else 'has'} no place in a {system.key} sheet: a trip back converts "
                 f"these numbers afresh (what has no line here is carried at carried.{others[0]})")
    wpath = f"$.{sheet.weapons}"
    weapons = [system.weapon_from_neutral(w, col, f"{wpath}[{i}]", kept=mine) for i, w in enumerate(combatant.weapons)]
    weapons += system.melee_from_neutral(combatant, own.get("melee", {}), col)
    # (a system's armor line may, like its weapon line, look at its own native block: ``kept``)
    more = {"kept": mine} if _takes_kept(type(system).armor_from_neutral) else {}
    armor = [system.armor_from_neutral(a, col, f"$.{sheet.armor}[{i}]", **more) for i, a in enumerate(combatant.armor)]
    typ = system.npc_type
    skill_type = next((f.type for f in msgspec.structs.fields(typ) if f.name == sheet.skills), dict)
    written = msgspec.convert(levels, skill_type) if isinstance(skill_type, type) and \
        issubclass(skill_type, msgspec.Struct) else levels
    npc = typ(**{sheet.name: combatant.name, sheet.notes: combatant.notes, **fields, sheet.skills: written,
                 sheet.weapons: weapons, sheet.armor: armor})
    return col.result(system.extra_from_neutral(npc, combatant, col))


@functools.lru_cache(maxsize=None)
def _takes_kept(method: Any) -> bool:
    """Whether a plugin's armor_from_neutral has a ``kept`` parameter (the native block)."""
    try:
        return "kept" in inspect.signature(method).parameters
    except (TypeError, ValueError):
        return False
