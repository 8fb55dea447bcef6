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

A characteristic stated beyond its table (a creature's STR 200 on a 7th-edition sheet, a
vampire's Strength 7) is read as the table's end, said as ``clamped``, and kept in the native
block (``BEYOND_TABLE``) so the system's own sheet written from it has the number again.

The steps go in this order: characteristics, mapped skills, skills no neutral key holds, derived
values and the hit points, the numbers of a shared scale, weapons, a close-combat list of its
own, armor, the native block (with kept lines and levels), carried fields; and back: the restored
stat block, the carried block (a kin edition's where its own is absent), characteristics, carried
fields, skills (restored, on a shared scale, floored), a close-combat list and its skills, carried
skills, weapons, close combat among them, armor. The losses and the trace they report are then put
in the order of the stat block (:func:`in_sheet_order`), as those of a system that converts its
stat block itself are (System wraps its conversions): one order for every system, whatever order
its steps take. Every built-in system declares its sheet, GURPS too: its Will, Dodge and trait
rules and its skill costs are its hooks (derived_from_neutral, carried_skills, extra_from_neutral).
"""

from __future__ import annotations

import functools
import inspect
import re
from typing import TYPE_CHECKING, Any, Mapping

import msgspec

from . import armorline, carried, catalog, codec, scalelevels
from .ladder import population_top
from .model import Combatant, MeleeWeapon
from .trace import Collector, Result, and_list, path_tokens

if TYPE_CHECKING:
    from .system import System


class ArmorLine(msgspec.Struct, frozen=True):
    """An armor line that rates a piece by points on one of the system's ladders (Cepheus's
    "rating", the Polish "punkty"): the fields of the line's Struct (the item type of the stat
    block's armor list) that hold its name, points, catalog id, where it sits and its
    deflection, the ladder (a key of ``System.ladders()``) that reads points as the joules a
    piece stops, and the rule. Declared as ``Sheet.armor_line``, it gives the system its
    ``armor_to_neutral`` and ``armor_from_neutral`` (core.armorline: the catalog item or the
    ladder, the sheet's stated points winning, what the line states of coverage and deflection
    kept on it); checked with the sheet."""

    rule: str
    ladder: str = "armor"
    points: str = "rating"
    name: str = "name"
    catalog: str = "catalog"
    covers: str = "covers"
    deflection: str = "deflection"


class Sheet(msgspec.Struct, frozen=True):
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
    carried_rules: Mapping[str, str] = msgspec.field(default_factory=dict)  # a field's own rule
    carried_type: type | None = None  # a Struct of optional fields (xsys.core.carried.take)
    # where this system's carried block is absent, a kin system's namespace whose entries of the
    # same name mean the same (a 6th-edition CoC sheet's Sanity for 7th edition): namespace ->
    # the entries taken, each kept where it is a valid ``carried_type`` value
    carried_kin: Mapping[str, tuple[str, ...]] = msgspec.field(default_factory=dict)
    # a list of close-combat lines apart from the weapons (CoC's melee attacks): each read by
    # ``melee_line_to_neutral`` and carried for the way back, written by ``melee_from_neutral``
    # (then ``melee_skills`` settles the skills the lines use); "": close combat is in the weapons
    melee: str = ""
    # the weapon and armor lines as written are kept in the native block ("weapons", "armor")
    # for the way back (what the neutral item cannot say: CoC's base range, malfunction); the
    # system's ``weapon_lines_from_neutral`` / ``armor_lines_from_neutral`` read them
    lines_kept: bool = False
    # no skill is written below what the NPC has untrained (``System.levels_floored``)
    floored: bool = False
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
    # the field that names a weapon or armor line (Polish ``nazwa``), for reports that name a line
    line_name: str = "name"
    # armor lines rated by points on a ladder: the system's armor hooks, declared (ArmorLine)
    armor_line: ArmorLine | None = None
    # a skill of ``System.line_skills`` (a creature's Bite) rides by name in the carried block;
    # False: the system writes it again beside its line from what the sheet stated (GURPS's
    # thrown blades, from ``Combatant.sheet_skills``), and carries it only where that differs
    line_skills_carried: bool = True

    def __hash__(self) -> int:  # by every field but the two mappings
        return hash(tuple(getattr(self, f) for f in self.__struct_fields__ if f not in ("carried_rules", "carried_kin")))


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
    named = [sheet.name, sheet.notes, sheet.skills, sheet.weapons, sheet.armor, *sheet.context, *sheet.carried,
             *([sheet.melee] if sheet.melee else [])]
    missing = [f for f in named if f not in fields]
    if missing:
        raise TypeError(f"{system.__name__}.sheet names fields its npc_type {system.npc_type.__name__} does not "
                        f"have: {', '.join(missing)} (it has {', '.join(sorted(fields))})")
    if sheet.armor_line is not None:
        line_type = armor_line_type(system.npc_type, sheet)
        have = set(getattr(line_type, "__struct_fields__", ()))
        al = sheet.armor_line
        lacking = [f for f in (al.name, al.points, al.catalog, al.covers, al.deflection) if f not in have]
        if lacking:
            raise TypeError(f"{system.__name__}.sheet.armor_line names fields its armor line "
                            f"{getattr(line_type, '__name__', line_type)} does not have: {', '.join(lacking)} "
                            f"(it has {', '.join(sorted(have))})")
    _NAME_FIELDS[system.npc_type] = sheet.name
    _LINE_NAMES[system.npc_type] = sheet.line_name
    derived_from = getattr(sheet.carried_type, "__xsys_derived_from__", None)
    if (sheet.carried or sheet.carried_rule) and (sheet.carried_type is None or (
            derived_from is not None and derived_from is not system.npc_type)):
        # the block's Struct, from the stat block's own fields: what a plugin would write out
        # (again for a subclass with a stat block of its own that inherits the sheet)
        system.sheet = msgspec.structs.replace(sheet, carried_type=carried_struct(system.npc_type, sheet))


def carried_struct(npc_type: type, sheet: Sheet) -> type:
    """The Struct a declared sheet's carried block is taken back through, when the sheet names
    none (``carried_type``): each carried field as the stat block types it (optional), the
    skills no neutral key holds at the stat block's skill levels, and the close-combat lines
    by weapon name (core.carried.melee_lines), so a hand edit that is no such value is a loss."""
    types = {f.name: f.type for f in codec.struct_fields(npc_type)}
    args = getattr(types.get(sheet.skills), "__args__", ())
    level = args[1] if getattr(types.get(sheet.skills), "__origin__", None) is dict and len(args) == 2 else Any
    fields: list[tuple[str, Any, Any]] = [(name, types[name] | None, None) for name in sheet.carried
                                          if name != sheet.skills]
    fields += [("skills", dict[str, level], msgspec.field(default_factory=dict)),
               ("melee", dict[str, dict], msgspec.field(default_factory=dict))]
    typ = msgspec.defstruct(f"{npc_type.__name__}Carried", fields, frozen=True, kw_only=True, omit_defaults=True)
    typ.__xsys_derived_from__ = npc_type  # type: ignore[attr-defined]
    return typ


# the key of a system's native block that keeps its stat block's characteristics beyond their tables
BEYOND_TABLE = "beyond_table"
# a characteristic beyond every ordinary adult crosses as a multiple of the top of its table (Combatant.beyond)
BEYOND_RULE = "core.beyond"


def beyond_ratios(system: "System", values: Mapping[str, Any]) -> dict[str, float]:
    """The characteristics among `values` (native name -> value) stated beyond every ordinary adult,
    as ``Combatant.beyond``: neutral name -> how many times the top of its population table it is
    (ladder.population_top: a giant's ST 60 is 3.33 times GURPS's 18)."""
    out: dict[str, float] = {}
    for native, spec in system.characteristics().items():
        v = values.get(native)
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            continue
        top = population_top(spec.ladder)
        if isinstance(top, (int, float)) and top > 0 and v > top:
            out[spec.neutral] = round(min(float(v) / top, 10_000.0), 4)
    return out


def _beyond_written(system: "System", fields: dict[str, Any], combatant: Combatant, col: Collector) -> None:
    """Each characteristic the source states beyond every ordinary adult (``Combatant.beyond``) at this
    system's population top that many times, where the percentile wrote less (its table's end), as far
    as its stat block holds (the field's bound), said (core.beyond, assumed)."""
    if not combatant.beyond:
        return
    for native, spec in system.characteristics().items():
        ratio = combatant.beyond.get(spec.neutral) if native not in system.beyond_held else None
        now = fields.get(native)
        top = population_top(spec.ladder)
        if ratio is None or not isinstance(now, int) or isinstance(now, bool) or not isinstance(top, int):
            continue
        want = round(top * ratio)
        hi = codec.int_bounds(system.npc_type, native)[1]
        value = min(want, int(hi)) if hi is not None else want
        if want <= now or now > top:
            # its percentile gave as much, or more was written already (a target with a creatures' tail of its own,
            # one on the source's scale: a 6th-edition STR 24 is 7th edition's 120)
            continue
        path = f"$.characteristics.{spec.neutral}"  # (the report names the source's own field)
        if value <= now:
            col.loss("clamped", path, f"{native} {now}: the source's {spec.neutral} is {ratio:.2f} times the top of "
                     f"its population table ({native} {want} here), beyond what a {system.key} stat block holds",
                     BEYOND_RULE)
            continue
        fields[native] = value
        if col.tracing:
            col.step(f"$.{native}", None, f"{spec.neutral} {ratio:.2f} times the top of its table", f"{native} {value}",
                     rules=[BEYOND_RULE], source="assumed", note=f"{ratio:.2f} x {system.key}'s top, {top}")
        col.loss("assumed", path, f"{native} {value}: the source's {spec.neutral} is {ratio:.2f} times the top of its "
                 f"population table (a creature beyond every ordinary adult), written as {ratio:.2f} times "
                 f"{system.key}'s top, {native} {top}" + (f" ({want} is beyond what a {system.key} stat block holds, "
                                                          f"{hi})" if value < want else ""), BEYOND_RULE)


_NAME_FIELDS: dict[type, str] = {}  # a declared sheet's stat block type -> the field of its name
_LINE_NAMES: dict[type, str] = {}  # a declared sheet's stat block type -> the key naming a weapon or armor line


def line_name_field(npc_type: type) -> str:
    """The key that names a weapon or armor line of a stat block of this type (its declared
    sheet's ``line_name``: Polish ``nazwa``), else ``name``."""
    return next((_LINE_NAMES[c] for c in getattr(npc_type, "__mro__", ()) if c in _LINE_NAMES), "name")


def npc_name_field(npc_type: type) -> str | None:
    """The key of the name in a stat block of this type, plain: its declared sheet's (Polish
    ``imię``; a document's stat block is a subclass with its ``carried`` block), else ``name``
    where it has one."""
    field = next((_NAME_FIELDS[c] for c in getattr(npc_type, "__mro__", ()) if c in _NAME_FIELDS), "name")
    if field not in getattr(npc_type, "__struct_fields__", ()):
        return None
    return next(f.encode_name for f in codec.struct_fields(npc_type) if f.name == field)


def name_field(system: "System | None") -> str | None:
    """The key of a stat block's name in its plain form: the declared sheet's ``name`` field
    (Polish ``imię``), else ``name`` where the ``npc_type`` has one; the neutral model's
    (`system` None) is ``name``."""
    if system is None:
        return "name"
    fields = {f.name: f.encode_name for f in codec.struct_fields(system.npc_type)}
    sheet = getattr(system, "sheet", None)
    return fields.get(sheet.name if isinstance(sheet, Sheet) else "name")


_LAST = 1 << 30  # a path's step the document has no place for: after every one it has
_FIELD_ORDER: dict[type, dict[str, int]] = {}


def _field_order(typ: type) -> dict[str, int]:
    """A Struct's fields by their place in it, under their names in a path (encoded) and in Python."""
    order = _FIELD_ORDER.get(typ)
    if order is None:
        order = {}
        for i, f in enumerate(codec.struct_fields(typ)):
            order.setdefault(f.encode_name, i)
            order.setdefault(f.name, i)
        _FIELD_ORDER[typ] = order
    return order


def sheet_position(doc: Any, path: str, places: dict[int, dict[Any, int]] | None = None) -> tuple[int, ...]:
    """Where `path` ("$.skills.Handgun", "$.weapons[1].damage"; of several joined by ", " the
    first) lies in `doc`: at each step the field's place in its Struct, the key's in its
    mapping, the item's in its list; a step the document has no place for comes after every
    one it has. The root ``$`` comes first. `places`: each mapping's keys by place, kept
    between calls on one document (so a sheet of many skills costs one pass per mapping)."""
    tokens = path_tokens(path.split(", ", 1)[0])
    if tokens is None:
        return (_LAST,)
    out: list[int] = []
    obj = doc
    for t in tokens:
        if isinstance(obj, msgspec.Struct) and isinstance(t, str):
            order = _field_order(type(obj))
            i = order.get(t, _LAST)
            out.append(i)
            obj = getattr(obj, obj.__struct_fields__[i], None) if i != _LAST else None
        elif isinstance(obj, Mapping) and isinstance(t, str):
            index = None if places is None else places.get(id(obj))
            if index is None:
                index = {k: n for n, k in enumerate(obj)}
                if places is not None:
                    places[id(obj)] = index
            out.append(index.get(t, _LAST))
            obj = obj.get(t)
        elif isinstance(obj, (list, tuple)) and isinstance(t, int):
            out.append(t)
            obj = obj[t] if t < len(obj) else None
        else:
            out.append(t if isinstance(t, int) else _LAST)
            obj = None
    return tuple(out)


def in_sheet_order(result: Result[Any], doc: Any) -> Result[Any]:
    """The losses and the trace of converting a stat block in the order of that stat block
    (`doc`: the one read, or the one written): what concerns the whole first, then field by
    field as the sheet lists them, a skill where it stands among the skills, what the sheet
    has no place for last (each path of those together); what concerns one place in the order
    it was said. One order for every system, whatever order its conversion takes its steps in."""
    places: dict[int, dict[Any, int]] = {}
    for items in (result.losses, result.trace):
        if len(items) > 1:
            # (where, which path first): paths the block has no place for (a skill not written)
            # share a place, each kept together in the order they were first said
            keys: dict[str, tuple[tuple[int, ...], int]] = {}
            for x in items:
                if x.path not in keys:
                    keys[x.path] = (sheet_position(doc, x.path, places), len(keys))
            items[:] = sorted(items, key=lambda x: keys[x.path])
    return result


def _levels(value: Any) -> dict[str, Any]:
    if isinstance(value, Mapping):
        return dict(value)
    if hasattr(value, "as_dict"):
        return dict(value.as_dict())
    return dict(msgspec.to_builtins(value, enc_hook=codec.enc_hook))


def _builtins(value: Any) -> Any:
    return msgspec.to_builtins(value, enc_hook=codec.enc_hook)


def _carried_rule(sheet: Sheet, k: str) -> str:
    return sheet.carried_rules.get(k, sheet.carried_rule)


def npc_to_neutral(system: "System", npc: Any) -> Result[Combatant]:
    """A stat block as the neutral NPC, by the system's ``sheet`` and hooks."""
    sheet: Sheet = system.sheet  # type: ignore[assignment]
    col = Collector(system.key)
    chars = {k: getattr(npc, k) for k in system.characteristics()}
    # a stated value beyond the characteristic's table (a creature's STR 200 on a 7th-edition
    # sheet) is read as the table's end; the number is kept for this system's own way back
    beyond = {k: v for k, spec in system.characteristics().items() if isinstance(v := chars.get(k), int)
              and not isinstance(v, bool) and not spec.ladder.has_native(v)}
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
    # (and a creature's attack skills, System.line_skills: each holds its competence, and rides by
    # name for the sheets that write it beside its line)
    other = {k: v for k, v in _levels(getattr(npc, sheet.skills)).items()
             if k not in mapped or (sheet.line_skills_carried and k in system.line_skills)}
    for k in other:
        if k in mapped:  # an attack skill (System.line_skills): its level crosses, its name is kept
            col.loss("kept-verbatim", f"{spath}.{k}", f"skill {k!r}, the skill of the NPC's own attack: its level "
                     f"crosses as the neutral {' and '.join(mapped[k])}; its name is kept for {system.key}",
                     system.competence_rule(k))
        else:
            col.carried(f"{spath}.{k}", f"skill {k!r}")
    # the values its rules derive: a derived skill (nWoD Defense: the dodge), the hit points as
    # the toughness, and a stated value the rules would not give, kept as stated
    der = system.derived_values(npc)
    skills.update(system.derived_to_neutral(npc, der, col))
    toughness = None
    hf = system.health_field
    if hf and hf in der:
        toughness = system.toughness_of(getattr(npc, hf), der[hf], col)
    crossing = set(system.derived_skills().values()) | {hf}
    for k, v in der.items():
        stated_value = getattr(npc, k)
        if stated_value is not None and stated_value != v and k not in crossing:
            col.loss("rounded", f"$.{k}", f"{k} {stated_value} differs from the rules' {v}; kept verbatim",
                     system.derived_fields().get(k, ((), system.health_rule))[1])
    native: dict[str, Any] = {}
    if system.skill_scale or system.characteristic_scale:
        # the numbers as stated, for a system of the same scale (System.scale_levels); what each
        # skill covers on this sheet (a 7e Brawl that is also the knife skill) as it was read
        hp = getattr(npc, hf, None) if hf else None
        scale = system.scale_levels(stated, skills, chars, neutral_chars,
                                    covers={k: s.covers for k, s in col.sheet.get("skills", {}).items()},
                                    health=(hp if hp is not None else der.get(hf), toughness) if hf else None)
        if scale:
            native["scale"] = scale
    weapons, melee, lines = [], [], {}
    kept_lines: dict[str, list[Any]] = {}
    # (a line read by what the NPC is, a thrown blade's damage at its thrower's ST: ``context``)
    more = {"context": ctx} if _takes(type(system).weapon_to_neutral, "context") else {}
    for i, line in enumerate(getattr(npc, sheet.weapons)):
        w = system.weapon_to_neutral(line, col, f"$.{sheet.weapons}[{i}]", **more)
        if sheet.lines_kept:
            kept_lines.setdefault("weapons", []).append(_builtins(line))
        if w is None:  # a line no neutral weapon holds (a GURPS crossbow), which the system keeps and says itself
            continue
        if isinstance(w, MeleeWeapon):  # close combat: its class crosses, its own line is carried
            melee.append(w)
            lines[w.name] = system.melee_line_carried(line)
        else:
            weapons.append(w)
    if sheet.melee:  # a list of its own: each line's class crosses, the line is carried
        for i, line in enumerate(getattr(npc, sheet.melee)):
            m = system.melee_line_to_neutral(line, col, f"$.{sheet.melee}[{i}]")
            melee.append(m)
            lines[m.name] = system.melee_line_carried(line)
    melee = melee_competences(system, melee, lines, stated, skills, ctx, col, spath)
    armor = []
    for i, a in enumerate(getattr(npc, sheet.armor)):
        armor.append(system.armor_to_neutral(a, col, f"$.{sheet.armor}[{i}]"))
        if sheet.lines_kept:
            kept_lines.setdefault("armor", []).append(_builtins(a))
    # (a plugin written before the hook took the collector says nothing there: native_block(npc))
    native.update(system.native_block(npc, col) if _takes(type(system).native_block, "col")
                  else system.native_block(npc))  # type: ignore[call-arg]
    native.update(kept_lines)
    if beyond:
        native[BEYOND_TABLE] = beyond
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
        if value is not None and (value or not isinstance(value, (list, dict))):
            own[k] = _builtins(value)
            col.carried(f"$.{k}", f"{k} {carried.show(own[k])}", _carried_rule(sheet, k))
    if other:
        own.setdefault("skills", other)
    if lines:
        own["melee"] = lines
    unstated = [k for k, v in chars.items() if v is None]
    if unstated:  # none stated (a creature's APP and EDU on a 7th-edition sheet): its sheet writes none again,
        own[carried.UNSTATED] = unstated  # whatever a system on the way assumed (carried, read by the core)
    comb = Combatant(name=getattr(npc, sheet.name), characteristics=neutral_chars, skills=skills, weapons=weapons,
                     melee=melee, armor=armor, toughness=toughness, beyond=beyond_ratios(system, chars),
                     notes=getattr(npc, sheet.notes),
                     native={system.key: native} if native else {},
                     carried={carried.namespaces(system)[0]: own} if own else {})
    return in_sheet_order(col.result(system.extra_to_neutral(npc, comb, col)), npc)


def melee_competences(system: "System", melee: list[MeleeWeapon], lines: Mapping[str, Any], stated: Mapping[str, Any],
                      skills: Mapping[str, float], context: Mapping[str, Any], col: Collector,
                      path: str = "$.skills") -> list[MeleeWeapon]:
    """Each close-combat weapon whose line is fought with a skill the sheet states (its line's
    ``skill``) that is not the NPC's best for that neutral skill (a viking's Spear 45 beside his
    Sword 85): that skill's own competence on the weapon (``MeleeWeapon.competence``), so a target
    writes the spear at the spear's level, not the sword's; the skills' ``merged`` loss says so."""
    out = []
    of_skill: dict[str, list[str]] = {}  # a skill -> the lines fought with it
    for name, line in lines.items():
        if isinstance(line, Mapping) and isinstance(line.get("skill"), str):
            of_skill.setdefault(line["skill"], []).append(name)
    spec = system.skills() if melee else {}
    for m in melee:
        line = lines.get(m.name)
        skill = line.get("skill") if isinstance(line, Mapping) else None
        level = stated.get(skill) if isinstance(skill, str) else None
        if level is not None and tuple(spec.get(skill) or ()) == (m.skill,) and m.skill in skills:
            value = system.competence(skill, level, {**context, "@key": m.skill})
            if abs(value - skills[m.skill]) > 1e-9:
                m = msgspec.structs.replace(m, competence=round(value, 9))
                said = f" and {skill} {level} cross as one neutral {m.skill} skill: "
                for i, x in enumerate(col.losses):
                    if x.kind == "merged" and x.path.startswith(path) and (said in x.message or x.message.startswith(
                            f"{skill} {level} and ")) and _MERGED_TAIL.search(x.message):
                        col.losses[i] = msgspec.structs.replace(x, message=_MERGED_TAIL.sub(
                            f" is the NPC's {m.skill}; {skill} {level} crosses with its {_lines(of_skill, skill, m.name)} "
                            f"alone (a system with one {m.skill} skill for every weapon writes the best)", x.message))
        out.append(m)
    return out


def _lines(of_skill: Mapping[str, list[str]], skill: str, name: str) -> str:
    names = of_skill.get(skill) or [name]
    return f"{and_list(names)} line" + ("s" if len(names) > 1 else "")


_MERGED_TAIL = re.compile(r" is what another system gets; a .*$", re.S)


def _carried_block(system: "System", sheet: Sheet, combatant: Combatant, col: Collector) -> dict[str, Any]:
    """The carried entries this stat block takes back: its own namespace's, else (none there) a
    kin namespace's entries of ``sheet.carried_kin`` that are valid values of its ``carried_type``."""
    if sheet.carried_type is None:
        return {}
    ns = carried.namespaces(system)[0]
    own = carried.take(combatant.carried.get(ns), sheet.carried_type, col, f"$.carried.{ns}", system.key)
    if ns in combatant.carried:
        return own
    for kin, keys in sheet.carried_kin.items():
        block = combatant.carried.get(kin)
        if not isinstance(block, Mapping):
            continue
        for k in keys:
            if k in block:
                try:
                    msgspec.convert({k: block[k]}, sheet.carried_type)
                except msgspec.ValidationError:
                    continue  # not a value this sheet can write: it stays carried for its owner
                own[k] = block[k]
        break
    return own


def npc_from_neutral(system: "System", combatant: Combatant) -> Result[Any]:
    """The neutral NPC as a stat block, by the system's ``sheet`` and hooks."""
    sheet: Sheet = system.sheet  # type: ignore[assignment]
    col = Collector(system.key)
    restored = system.npc_restored(combatant, col)
    if restored is not None:
        return in_sheet_order(col.result(restored), restored)
    own = _carried_block(system, sheet, combatant, col)
    mine = combatant.native.get(system.key, {})
    unstated = [k for k in carried.unstated(system, combatant) if k in system.characteristics()]
    fields = system.characteristics_from_neutral(combatant.characteristics, col, "$", unstated=unstated)
    fields = system.characteristics_on_scale(fields, combatant, col, "$")
    specs = system.characteristics()
    for k in unstated:  # none, as its own sheet stated (a creature's APP), whatever a system on the way assumed
        fields.pop(k, None)
        if specs[k].neutral in combatant.characteristics:
            col.loss("assumed", f"$.{k}", f"{k}: none, as the {system.key} sheet this NPC came from stated "
                     f"(carried.{carried.namespaces(system)[0]}.{carried.UNSTATED}); the {specs[k].neutral} "
                     "another system gave it is not written", specs[k].ladder.steps[0].rule)
    for k, v in (mine.get(BEYOND_TABLE) or {}).items():  # its own number beyond the table, as stated
        if k in specs and isinstance(v, int) and fields.get(k) == specs[k].ladder.nearest_native(v):
            fields[k] = v
    _beyond_written(system, fields, combatant, col)
    fields.update(system.derived_from_neutral(fields, combatant, mine, col))
    for k in sheet.carried:
        if k == sheet.skills:
            continue  # the carried skills join the converted ones below
        value = own[k] if k in own else system.carried_missing(k, mine, combatant, col)
        if value is not None:
            fields[k] = value
    ctx = {k: fields[k] for k in sheet.context if k in fields} if sheet.context else dict(fields)
    spath = f"$.{sheet.skills}"
    levels = system.skills_from_neutral(combatant.skills, col, spath, context=ctx)
    exact = mine.get(sheet.levels_kept, {}) if sheet.levels_kept else {}
    if exact:
        levels = system.levels_restored(levels, exact, combatant.skills, context=ctx)
    levels = system.levels_on_scale(levels, combatant, col, spath, context=ctx)
    if sheet.floored:  # a level its own sheet stated stays as it was (kept, or carried on its scale)
        levels = system.levels_floored(levels, combatant.skills, col, spath, ctx,
                                       {**exact, **scalelevels.carried_levels(system, combatant)})
    if sheet.unstated_level is not None:
        levels = {k: v for k, v in levels.items() if v > sheet.unstated_level}
    melee: list[Any] = []
    if sheet.melee:  # its close-combat lines, then the skills they are fought with
        melee = system.melee_from_neutral(combatant, own.get("melee", {}), col, **_fields(system, fields))
        levels = system.melee_skills(levels, melee, own.get("melee", {}), combatant, ctx, col)
    levels = system.carried_skills(levels, own.get("skills", {}), combatant, ctx, col)
    others = [o for o in combatant.native if o != system.key] if sheet.foreign_native else []
    if others:  # one line for them all (a coc-zh sheet keeps its parent coc's view too)
        col.loss("unsupported-field", f"$.native.{others[0]}",
                 f"the {and_list(others)} sheet{'s' if len(others) > 1 else ''} as "
                 f"{'they were' if len(others) > 1 else 'it was'}, kept for an exact trip back, "
                 f"{'have' if len(others) > 1 else 'has'} no place in a {system.key} sheet: a trip back converts "
                 f"these numbers afresh (what has no line here is carried at carried.{others[0]})")
    weapons = system.weapon_lines_from_neutral(combatant, fields, mine, col)
    if not sheet.melee:
        weapons += system.melee_from_neutral(combatant, own.get("melee", {}), col, **_fields(system, fields))
    armor = system.armor_lines_from_neutral(combatant, fields, mine, col)
    typ = system.npc_type
    skill_type = next((f.type for f in codec.struct_fields(typ) if f.name == sheet.skills), dict)
    written = msgspec.convert(levels, skill_type) if isinstance(skill_type, type) and \
        issubclass(skill_type, msgspec.Struct) else levels
    npc = typ(**{sheet.name: combatant.name, sheet.notes: combatant.notes, **fields, sheet.skills: written,
                 sheet.weapons: weapons, sheet.armor: armor, **({sheet.melee: melee} if sheet.melee else {})})
    done = col.result(system.extra_from_neutral(npc, combatant, col))
    return in_sheet_order(done, done.value)


def armor_line_type(npc_type: type, sheet: Sheet) -> Any:
    """The Struct of one armor line: the item type of the stat block's armor list."""
    typ = next((f.type for f in codec.struct_fields(npc_type) if f.name == sheet.armor), None)
    args = getattr(typ, "__args__", ())
    return args[0] if getattr(typ, "__origin__", None) is list and args else None


def armor_line_to_neutral(system: "System", line: Any, col: Collector, path: str) -> Any:
    """A declared armor line (``Sheet.armor_line``) as the neutral armor (core.armorline.read)."""
    al: ArmorLine = system.sheet.armor_line  # type: ignore[union-attr, assignment]
    return armorline.read(catalog.installed(), getattr(line, al.name), getattr(line, al.catalog), getattr(line, al.points),
                          system.ladders()[al.ladder], al.rule, col, path, getattr(line, al.covers),
                          getattr(line, al.deflection), field=al.points)


def armor_line_from_neutral(system: "System", armor: Any, col: Collector, path: str) -> Any:
    """The neutral armor as a declared armor line (core.armorline.write): its points, its catalog
    item, and the coverage and deflection the line would not give back without them."""
    sheet: Sheet = system.sheet  # type: ignore[assignment]
    al: ArmorLine = sheet.armor_line  # type: ignore[assignment]
    w = armorline.write(catalog.installed(), armor, system.ladders()[al.ladder], al.rule, col, path, system.key)
    return armor_line_type(system.npc_type, sheet)(**{
        al.name: armor.name, al.points: w["points"], al.catalog: w["catalog"], al.covers: w.get("covers"),
        al.deflection: w.get("deflection")})


def kept_line(kept: Mapping[str, Any], field: str, index: int, name: str) -> dict[str, Any] | None:
    """The line as this sheet wrote it (``Sheet.lines_kept``: the native block's `field` list)
    for the `index`-th neutral weapon or armor, while that item still bears its name; else None."""
    stored = kept.get(field) or []
    line = stored[index] if index < len(stored) else None
    return line if isinstance(line, dict) and line.get("name") == name else None


def weapon_lines(system: "System", combatant: Combatant, kept: Mapping[str, Any], col: Collector) -> list[Any]:
    """Each neutral weapon through ``weapon_from_neutral`` (the default ``weapon_lines_from_neutral``)."""
    wpath = f"$.{system.sheet.weapons if system.sheet else 'weapons'}"
    return [system.weapon_from_neutral(w, col, f"{wpath}[{i}]", kept=kept) for i, w in enumerate(combatant.weapons)]


def armor_lines(system: "System", combatant: Combatant, kept: Mapping[str, Any], col: Collector) -> list[Any]:
    """Each neutral armor through ``armor_from_neutral`` (the default ``armor_lines_from_neutral``)."""
    apath = f"$.{system.sheet.armor if system.sheet else 'armor'}"
    # (a system's armor line may, like its weapon line, look at its own native block: ``kept``)
    more = {"kept": kept} if _takes(type(system).armor_from_neutral, "kept") else {}
    return [system.armor_from_neutral(a, col, f"{apath}[{i}]", **more) for i, a in enumerate(combatant.armor)]


def _fields(system: "System", fields: Mapping[str, Any]) -> dict[str, Any]:
    """``fields`` for a melee_from_neutral that takes them (GURPS: a line at the wielder's ST)."""
    return {"fields": fields} if _takes(type(system).melee_from_neutral, "fields") else {}


@functools.lru_cache(maxsize=None)
def _takes(method: Any, name: str) -> bool:
    """Whether a plugin's hook has a parameter `name` (armor_from_neutral's ``kept``, the native
    block; native_block's ``col``, which hooks written before it took one lack)."""
    try:
        return name in inspect.signature(method).parameters
    except (TypeError, ValueError):
        return False
