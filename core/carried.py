"""System-only data carried through other systems.

What one system states and no other can express (Call of Cthulhu's Sanity, Luck, Magic
Points and spells, GURPS advantages, nWoD merits, skills no neutral key holds) has no place in
the neutral model's physical fields. A plugin puts it, verbatim, in ``Combatant.carried``
under a namespace (the system family that states it: ``coc`` for coc and coc-zh); every other
system's document then shows it in its ``carried:`` block, keyed by that namespace::

    carried:
      coc:
        SAN: 55
        Luck: 40
        spells: [Contact Ghoul]

and reading that document puts it back into ``Combatant.carried``, so a trip A -> B -> A
keeps it with nothing remembered (``--fresh``, or the ``xsys`` block removed). The conversion
reports each carried value as ``kept-verbatim`` ("not expressible in B"): it is not lost, and
``--strict`` does not fail on it.

This is generic: a system declares the namespaces its own stat blocks read and write
(``carried_namespaces``, default: its key); the document layer (``xsys.conversions``) gives
every system's documents the ``carried:`` block and moves everything else through it, so a
third-party system carries the others' data without a line of its own.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator, Mapping

import msgspec

from .model import Combatant
from .trace import Loss

FIELD = "carried"
RULE = "xsys.carried"
# entries of a namespace that the core writes and reads for every system alike (a plugin's
# carried Struct does not declare them): the levels of core.scalelevels, and the weapon the
# sheet's best close-combat skill is for where a target has one such skill for every weapon
CORE_KEYS = frozenset({"scale_levels", "melee_kind", "unstated"})
MELEE_KIND = "melee_kind"
# the characteristics a stat block left unstated (a field its npc_type allows to be None: a creature's
# APP and EDU on a 7th-edition sheet): its own sheet writes none for them again, whatever another
# system assumed for them on the way (core.sheet)
UNSTATED = "unstated"


def unstated(system: Any, combatant: Combatant) -> list[str]:
    """The characteristics `system`'s own stat block left unstated, as its carried block says; where
    its own block is absent, a kin system's (``Sheet.carried_kin``: a 6th-edition creature's APP and
    EDU are none on its 7th-edition sheet too, the two editions' characteristics being one)."""
    sheet = getattr(system, "sheet", None)
    for ns in (namespaces(system)[0], *(getattr(sheet, "carried_kin", None) or {})):
        block = combatant.carried.get(ns)
        if isinstance(block, Mapping):
            keys = block.get(UNSTATED)
            return [k for k in keys if isinstance(k, str)] if isinstance(keys, list) else []
    return []


def namespaces(system: Any) -> tuple[str, ...]:
    """The namespaces of ``Combatant.carried`` that `system`'s stat blocks read and write
    themselves (``system.carried_namespaces``; default: the system's key)."""
    ns = getattr(system, "carried_namespaces", ())  # declared on System; a duck-typed system may lack it
    if isinstance(ns, str):
        return (ns,)
    return tuple(ns) if ns else (str(getattr(system, "key", "")),)


def attach(combatant: Combatant, carried: Mapping[str, Any] | None) -> Combatant:
    """`combatant` (as a plugin read it) with a document's ``carried:`` block merged in;
    what the plugin read from the document's own fields wins over the block."""
    if not carried:
        return combatant
    out: dict[str, dict[str, Any]] = {ns: dict(block) for ns, block in carried.items()
                                      if isinstance(block, dict) and block}
    for ns, block in combatant.carried.items():
        out[ns] = {**out.get(ns, {}), **block}
    return msgspec.structs.replace(combatant, carried=out)


def detach(system: Any, combatant: Combatant) -> dict[str, dict[str, Any]]:
    """What a document of `system` carries for `combatant`: every namespace the system does
    not read itself (None: a neutral document, which holds ``carried`` as a field)."""
    own = set(namespaces(system)) if system is not None else set()
    return {ns: dict(block) for ns, block in combatant.carried.items() if ns not in own and block}


def leaves(block: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    """The values a carried namespace reports one by one, as (dotted key, value): each
    top-level entry, and each entry of a mapping (``skills.Spot Hidden``)."""
    for k, v in block.items():
        if isinstance(v, dict) and v:
            for k2, v2 in v.items():
                yield f"{k}.{k2}", v2
        else:
            yield str(k), v


def show(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(show(v) for v in value) or "none"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show(v)}" for k, v in value.items()) + "}"
    return str(value)


def take(block: Any, typ: type, col: Any, path: str, owner: str) -> dict[str, Any]:
    """The entries of one carried namespace that a stat block takes back into its own fields:
    each is checked against its field in `typ` (a Struct of optional fields named as the plugin
    writes them). An unknown name or a value of the wrong type (a hand-edited block) is an
    ``unsupported-field`` loss in `col` at ``path.<name>``, never an error."""
    out: dict[str, Any] = {}
    if not isinstance(block, Mapping):
        return out
    fields = set(typ.__struct_fields__)
    for k, v in block.items():
        if k == UNSTATED:  # the core's own entry (core.sheet), read by the core
            if not isinstance(v, list) or not all(isinstance(e, str) for e in v):
                col.loss("unsupported-field", f"{path}.{k}", f"{k} {show(v)}: carried, but not a list of "
                         "characteristic names; dropped", RULE)
            continue
        if k in CORE_KEYS:  # the core's own entries (core.scale_levels), read by the core
            if not isinstance(v, Mapping) or not all(isinstance(e, Mapping) for e in v.values()):
                col.loss("unsupported-field", f"{path}.{k}", f"{k} {show(v)}: carried, but not a mapping of "
                         "skill names to {level, <system>: {skill: level}}; dropped", RULE)
            continue
        if k not in fields:
            col.loss("unsupported-field", f"{path}.{k}", f"{k} {show(v)}: carried, but a {owner} stat block has no "
                     f"{k} (it takes {', '.join(sorted(fields))}); dropped", RULE)
            continue
        try:
            msgspec.convert({k: v}, typ)
        except msgspec.ValidationError as exc:
            col.loss("unsupported-field", f"{path}.{k}", f"{k} {show(v)}: carried, but not a {owner} {k} ({exc}); "
                     "dropped", RULE)
            continue
        out[k] = v
    return out


def named(message: str, carried: Mapping[str, Mapping[str, Any]]) -> bool:
    """Whether a plugin's loss message names a value the neutral NPC carries
    ("... kept (carried.gurps.melee.Switchblade)"): that value is not dropped where it is."""
    if f"{FIELD}." not in message:
        return False
    return any(f"{FIELD}.{ns}.{key}" in message for ns, block in carried.items() for key, _ in leaves(block))


def _mentions(names: set[str], messages: list[tuple[int, str]]) -> tuple[dict[str, int], dict[str, int]]:
    """Which of `names` (each ``carried.<ns>.<key>``) each message names: name -> the index of
    the first message naming it in parentheses, and name -> the first naming it at all.

    Asking every message about every name costs names x messages substring searches, which made
    an NPC with thousands of skills the target has no place for (each kept verbatim) take
    quadratic time. A name starts with ``carried.``, so it can only start where that word does
    in a message; there, each length a name has is looked up in the set. The work is the
    messages' length times the number of distinct name lengths, whatever the number of names."""
    paren: dict[str, int] = {}
    bare: dict[str, int] = {}
    if not names:
        return paren, bare
    start = f"{FIELD}."
    lengths = sorted({len(n) for n in names})
    for i, msg in messages:
        p = msg.find(start)
        while p >= 0:
            room = len(msg) - p
            for n in lengths:
                if n > room:
                    break
                name = msg[p:p + n]
                if name in names:
                    bare.setdefault(name, i)
                    if p > 0 and msg[p - 1] == "(" and msg[p + n:p + n + 1] == ")":
                        paren.setdefault(name, i)
            p = msg.find(start, p + 1)
    return paren, bare


def report(carried: Mapping[str, Mapping[str, Any]], target: str, prefix: str, losses: list[Loss],
           earlier: list[int], exists: Callable[[str], bool],
           written: Callable[[str, Any], "bool | str"] = lambda key, value: False) -> None:
    """Say, in `losses`, what a document of system `target` carries: each value at its path in
    the source (the source's own field, or its ``carried:`` block when it came from one). A
    ``kept-verbatim`` loss the source's plugin already wrote there (``losses[i]`` for i in
    `earlier`) is extended; else one is added. ``written(key, value)``: whether the target's
    sheet writes it too, True (as it is) or how ("as its own line")."""
    at: dict[str, int] = {}
    kept = [i for i in earlier if losses[i].kind == "kept-verbatim"]
    for i in kept:
        at.setdefault(losses[i].path, i)
    # a plugin that keeps a value at a path of its own (a weapon line at $.weapons[2]) says
    # where it is carried ("carried.gurps.melee.Switchblade"): found by that name, in the first
    # message naming it in parentheses ("(carried.coc.carry.Glock 17)"), else the first naming it
    names = {f"{FIELD}.{ns}.{key}" for ns, block in carried.items() for key, _ in leaves(block)}
    paren, bare = _mentions(names, [(i, losses[i].message) for i in kept])
    for ns, block in carried.items():
        for key, _ in leaves(block):
            name = f"{FIELD}.{ns}.{key}"
            hit = paren.get(name)
            if hit is None:
                hit = bare.get(name)
            if hit is not None:
                at.setdefault(f"@{name}", hit)
    for ns, block in carried.items():
        for top, value in block.items():
            # the source's plugin said it kept the whole entry (``$.specialties``): say it once
            i = at.get(f"{prefix}.{top}")
            if i is not None and not exists(f"{prefix}.{FIELD}.{ns}.{top}"):
                old = losses[i]
                where = f"carried verbatim at {FIELD}.{ns}.{top}"
                # the target's sheet may write it too (coc writes coc7's SAN): said so, not "not expressible"
                said = f"written on the {target} sheet as it is, and {where} for the way back" \
                    if not isinstance(value, (dict, list)) and written(top, value) else \
                    f"not expressible in {target}: {where}"
                losses[i] = Loss.of("kept-verbatim", old.path, f"{old.message.rstrip('.')}; {said}", old.rule or RULE,
                                    system=old.system)
                continue
            for key, v in leaves({top: value}):
                inside = f"{prefix}.{FIELD}.{ns}.{key}"
                path = inside if exists(inside) else f"{prefix}.{key}"
                where = f"carried verbatim at {FIELD}.{ns}.{key}"
                how = written(key, v)
                if how:  # the target's sheet writes it too (coc writes coc7's Intimidate; a melee line its own way)
                    how = how if isinstance(how, str) else "as it is"
                    where = f"written on the {target} sheet {how}, and {where} for the way back"
                i = at.get(path)
                if i is None and f"@{FIELD}.{ns}.{key}" in at:
                    i = at[f"@{FIELD}.{ns}.{key}"]
                    old = losses[i]
                    tail = f"written on the {target} sheet {how}, and carried verbatim for the way back" if how \
                        else f"not expressible in {target}: carried verbatim"
                    if f"not expressible in {target}" not in old.message and f"written on the {target}" \
                            not in old.message:
                        losses[i] = Loss.of("kept-verbatim", old.path, f"{old.message.rstrip('.')}; {tail}",
                                            old.rule or RULE, system=old.system)
                    continue
                said = where if where.startswith("written") else f"not expressible in {target}: {where}"
                if i is not None:
                    old = losses[i]
                    losses[i] = Loss.of("kept-verbatim", old.path, f"{old.message.rstrip('.')}; {said}",
                                        old.rule or RULE, system=old.system)
                    continue
                losses.append(Loss.of("kept-verbatim", path, f"{key} {show(v)}: {said.replace(': ', '; ', 1)}",
                                      RULE, system=target))


# ---- neutral characteristics a system has no field for --------------------------------
#
# The neutral model holds every characteristic any system states (Call of Cthulhu's SIZ, APP
# and EDU are the neutral size, appearance and education); a system without a field for one
# (GURPS has no SIZ) would drop it, and the trip back would set it to the adult median. So a
# written stat block carries it, as a stat block of a system that has it writes it (``carried:
# {coc: {SIZ: 13}}``), and reading any document puts it back into the neutral model.


def places(system: Any) -> set[str]:
    """The neutral characteristics a system's stat blocks write (own fields and derived ones)."""
    out = {spec.neutral for spec in system.characteristics().values()}
    return out | set(system.derived_characteristics())


def characteristics_out(target: Any, values: Mapping[str, float], owners: Iterable[Any],
                        beyond: Mapping[str, float] | None = None) -> list[tuple[str, str, str, Any]]:
    """The neutral characteristics in `values` that `target`'s stat blocks have no field for,
    each as the first of `owners` (systems, the source first) that has one writes it:
    ``(neutral key, namespace, native name, native value)``, from that system's own ladder; one
    beyond every ordinary adult (`beyond`: ``Combatant.beyond``) as that system writes it, its
    table's top that many times (core.beyond: a GURPS SM +2 is a CoC SIZ 33, not the table's 18)."""
    from .ladder import population_top
    written = places(target)
    own = set(namespaces(target))
    source = iter(owners)
    seen: list[Any] = []  # the owners asked so far: the rest are started only when needed

    def each() -> Iterator[Any]:
        yield from seen
        for system in source:
            seen.append(system)
            yield system

    out = []
    for key, p in values.items():
        if key in written or p is None:
            continue
        for system in each():
            ns = namespaces(system)[0]
            if ns in own:
                continue
            hit = next(((native, spec) for native, spec in system.characteristics().items() if spec.neutral == key), None)
            if hit is not None:
                native, spec = hit
                value = spec.ladder.step_for(float(p)).native
                top, ratio = population_top(spec.ladder), (beyond or {}).get(key)
                if ratio is not None and isinstance(top, int) and isinstance(value, int) and round(top * ratio) > value:
                    value = round(top * ratio)
                out.append((key, ns, native, value))
                break
    return out


def characteristics_in(combatant: Combatant, owner: Callable[[str], Any]) -> Combatant:
    """`combatant` with the characteristics its carried block holds (as ``owner(namespace)``'s
    stat blocks write them) back in the neutral model, where it has none of its own; those
    entries leave the carried block. One beyond every ordinary adult also wins over the multiple a
    coarser field of the document gave it (a CoC SIZ 45 over the GURPS SM +3 written for it: core.beyond).
    An entry that is not a value of that system's table (a hand edit) stays carried, as written."""
    from .ladder import population_top

    if not combatant.carried:
        return combatant
    chars = dict(combatant.characteristics)
    beyond = dict(combatant.beyond)
    blocks: dict[str, dict[str, Any]] = {}
    changed = False
    for ns, block in combatant.carried.items():
        system = owner(ns)
        specs = system.characteristics() if system is not None else {}
        keep = {}
        for k, v in block.items():
            spec = specs.get(k)
            number = isinstance(v, (int, float)) and not isinstance(v, bool)
            top = population_top(spec.ladder) if spec is not None and number else None
            over = isinstance(top, (int, float)) and top > 0 and v > top and spec.neutral in beyond
            if spec is not None and (spec.neutral not in chars or over) and number and spec.ladder.has_native(v):
                # (beyond the table: its top's percentile and the multiple, as every target writes such a value)
                chars[spec.neutral] = spec.ladder.step_of(top if over else v).rep
                if over:
                    beyond[spec.neutral] = round(min(float(v) / top, 10_000.0), 4)
                changed = True
            else:
                keep[k] = v
        if keep:
            blocks[ns] = keep
    if not changed:
        return combatant
    return msgspec.structs.replace(combatant, characteristics=chars, beyond=beyond, carried=blocks)


def melee_kind_in(combatant: Combatant) -> Combatant:
    """`combatant` with the weapon its close-combat skill is for (``Combatant.melee_kind``) that
    a carried block holds (:data:`MELEE_KIND`: a CoC Club 60 through nWoD Weaponry), where the
    stat block read names none itself; the entry leaves the carried block."""
    from typing import get_args

    from .model import MeleeClass

    classes = set(get_args(MeleeClass))
    found = None
    blocks: dict[str, dict[str, Any]] = {}
    for ns, block in combatant.carried.items():
        value = block.get(MELEE_KIND) if isinstance(block, Mapping) else None
        if not (isinstance(value, str) and value in classes):
            blocks[ns] = block  # none, or a hand edit that names no weapon class: left as it is
            continue
        found = found or value
        rest = {k: v for k, v in block.items() if k != MELEE_KIND}
        if rest:
            blocks[ns] = rest
    if found is None and len(blocks) == len(combatant.carried):
        return combatant
    kind = combatant.melee_kind if combatant.melee_kind is not None else found
    return msgspec.structs.replace(combatant, melee_kind=kind, carried=blocks)


__all__ = ["FIELD", "RULE", "attach", "characteristics_in", "characteristics_out", "detach", "kin_melee_damage",
           "leaves", "melee_kind_in", "melee_lines", "named", "namespaces", "places", "report", "show", "take"]


def melee_lines(combatant: Combatant, lines: Any, typ: type, namespace: str, rule: str, col: Any,
                write_class: Callable[[Any], Any], describe: Callable[[Any], str],
                dec_hook: Callable[[type, Any], Any] | None = None,
                write_special: Callable[[Any], Any] | None = None) -> list[Any]:
    """A system's close-combat lines (``typ``) for `combatant`'s melee weapons: the line its own
    stat block carried under `namespace` for a weapon of that name, else ``write_class(weapon)``,
    the system's line for the weapon's class (traced as ``describe(line)`` under `rule`, assumed);
    then the carried lines whose weapons the systems on the way could not hold, back as they were.
    An attack whose source states no damage (``MeleeWeapon.special``) gets no line of its class,
    whose damage would be this system's invention: ``write_special(weapon)``, a line of no damage
    where the system has one, else none, said. A carried line that no longer reads as `typ` (a
    hand edit) is a loss, not a crash."""
    lines = lines if isinstance(lines, dict) else {}

    def read(line: Any, name: str, otherwise: str) -> Any:
        try:
            return msgspec.convert(line, typ, dec_hook=dec_hook)
        except (msgspec.ValidationError, TypeError) as exc:
            col.loss("unsupported-field", f"$.{FIELD}.{namespace}.melee.{name}",
                     f"{name}: the carried {namespace} line is not one ({exc}); {otherwise}", rule)
            return None

    out: list[Any] = []
    for i, m in enumerate(combatant.melee):
        kept = lines.get(m.name)
        line = read(kept, m.name, f"written as a {m.melee_class}") if isinstance(kept, dict) else None
        if line is None and m.special:
            if write_special is None:
                col.loss("unsupported-field", f"$.melee[{i}]", f"{m.name}: the source states no damage for it (a "
                         f"manoeuvre or a special attack); a {namespace} line of its class would give it damage the "
                         "source does not, so none is written", rule)
                continue
            line = write_special(m)
        elif line is None:
            line = write_class(m)
            if col.tracing:
                col.step(f"$.melee[{i}]", m.name, f"melee {m.melee_class}" + (" (natural)" if m.natural else ""),
                         describe(line), rules=[rule], source="assumed")
        out.append(line)
    crossed = {m.name for m in combatant.melee}
    for name, line in lines.items():
        if name not in crossed and isinstance(line, dict):
            back = read(line, name, "dropped")
            if back is not None:
                out.append(back)
    return out


def _kin_lines(combatant: Combatant, namespaces: Iterable[str], name: str) -> Iterator[tuple[str, dict, dict]]:
    """The close-combat line `name` each of `namespaces` carried: (namespace, its block, the line)."""
    for ns in namespaces:
        block = combatant.carried.get(ns)
        lines = block.get("melee") if isinstance(block, dict) else None
        line = lines.get(name) if isinstance(lines, dict) else None
        if isinstance(line, dict):
            yield ns, block, line  # type: ignore[misc]


def kin_melee_skill(combatant: Combatant, namespaces: Iterable[str], name: str) -> str | None:
    """The skill of the close-combat line `name` that a system of the same family carried, where
    that skill is one of its skills no neutral key holds, carried too (a 7e creature's Bite made
    with its own Fighting (Bite) 55): a sheet that writes that skill as it is names it on the line,
    not its class's skill at no stated level."""
    for _ns, block, line in _kin_lines(combatant, namespaces, name):
        skill, own = line.get("skill"), block.get("skills")
        if isinstance(skill, str) and isinstance(own, dict) and skill in own:
            return skill
    return None


def kin_melee_damage(combatant: Combatant, namespaces: Iterable[str], name: str, pattern: str) -> tuple[str, str] | None:
    """The damage that a system printing the same weapon table (CoC 6th and 7th edition: Knife,
    medium 1D4+2 in both) carried for the close-combat weapon `name`, if it reads as this system's
    damage (``pattern``, the line's damage field); with the namespace it came from. A stated line
    wins over the class's assumed one: a 7e trench knife's 1D4+2+DB stays 1d4+2+db in 6th edition,
    not the knife class's 1d4+db. Only a line that writes the bonus as the bonus ('+db') crosses, or
    one of a single die and no bonus at all (a creature's bite, 1d10)."""
    import re

    for ns, _block, line in _kin_lines(combatant, namespaces, name):
        damage = line.get("damage")
        # "+db" written out: a line whose bonus was already rolled into dice ("1d3+1d4", its
        # wielder's) says nothing of the weapon apart from the wielder, so it does not cross
        if isinstance(damage, str) and re.fullmatch(pattern, damage) and (
                re.search(r"db\s*$", damage, re.IGNORECASE) or re.fullmatch(r"\s*\d*d\d+\s*", damage, re.IGNORECASE)):
            return damage, ns
    return None
