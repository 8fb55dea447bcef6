"""Which skills a target stat block writes: the skills the source sheet had.

A source sheet states its skills by native name (``Combatant.sheet_skills``). A native skill
that covers one neutral skill STATES it (CoC Handgun 55: handgun); one that covers several
only IMPLIES each of them (nWoD Firearms 3 stands for every gun: handgun, rifle, shotgun, smg,
machine_gun), unless the sheet also has a broader one (a 7th-edition Firearms (Rifle/Shotgun)
carried home beside nWoD Firearms states rifle and shotgun). The core decides, for every target
alike (built-in or third-party), before the target's plugin writes its stat block:

- a stated skill is written;
- an implied skill that is no gun (nWoD Athletics: climb, swim, jump, throw) is written;
- an implied gun is written when the target has no narrower choice (its skill covers every
  neutral skill of the broad one that the target holds at all: nWoD Firearms -> the Polish
  long-arm skill does not, nWoD Firearms does) or when one of the NPC's weapons is fired (or
  wielded) with it; every other implied skill stays out of the stat block, and the broad skill
  is carried as the source wrote it (``carried: {nwod: {sheet_skills: {Firearms: 3}}}``), with
  ONE report line naming what it stands for, what was written and the equated values of the
  rest (a broad gun skill none of whose guns the NPC carries is written as its first gun).
  Reading the document back puts the carried broad skill's neutral skills back (those the
  document does not state itself), so the trip home writes the broad skill as it was;
- where the target has several skills for one stated neutral skill (CoC Hide and Sneak are
  both the neutral stealth), it writes those the sheet named, else all of them; a sheet of a
  system with such twins keeps their names through other systems the same way (carried,
  ``sheet_skills``), so a CoC sheet with Hide and no Sneak does not gain a Sneak line;
- a stated line the target writes only under a broader skill (CoC Handgun, or a 7th-edition
  Firearms (Rifle/Shotgun), as nWoD Firearms) is carried the same way: read back, the broad
  skill only implies it, and while the broad skill is what the best line gives, each line
  comes home at its own level.

Close-combat skills are not decided here (core.melee.melee_skills_written writes the one the
weapon lines use). A combatant with no ``sheet_skills`` (a neutral document, a plugin that
reads its skills without System.skills_to_neutral) has every skill stated: written as before.
"""

from __future__ import annotations

from contextlib import contextmanager, nullcontext
from contextvars import ContextVar
from typing import Any, Callable, Iterator, Mapping, Sequence

import msgspec

from . import codec
from .carried import namespaces
from .melee import melee_kind, reference_class
from .model import Combatant, SheetSkill
from .trace import Collector
from .vocab import firearm_skill_for

# the neutral gun skills: one skill of one system (nWoD Firearms) and five of another (CoC)
FIREARMS = frozenset(firearm_skill_for(c) for c in ("handgun", "rifle", "shotgun", "smg", "mg"))

FIELD = "sheet_skills"  # the key of a carried namespace that holds sheet skills for the way back
RULE = "core.skillplan"

# The target's native skills the conversion under way does not write (twins the sheet did not
# name): System.skills_from_neutral skips them.
_OMIT: ContextVar[frozenset[str]] = ContextVar("xsys_skill_omit", default=frozenset())


def omitted() -> frozenset[str]:
    return _OMIT.get()


@contextmanager
def writing(omit: frozenset[str]) -> Iterator[None]:
    token = _OMIT.set(omit)
    try:
        yield
    finally:
        _OMIT.reset(token)


class Plan(msgspec.Struct, kw_only=True):
    combatant: Combatant  # with only the skills the target writes
    carry: dict[str, dict[str, Any]] = msgspec.field(default_factory=dict)  # namespace -> name -> level
    lines: list[tuple[str, str]] = msgspec.field(default_factory=list)  # (native name, report message)
    # the sheet skills the target has no skill for at all: their lines are warnings (the NPC
    # cannot use that competence at this table), the other lines info (the sheet says it all)
    missing: set[str] = msgspec.field(default_factory=set)


def _stated(sheet: Mapping[str, SheetSkill]) -> set[str]:
    """The neutral skills a line of the sheet states: a line of one, or a line of several under a
    broader one the sheet also has (7th-edition Firearms (Rifle/Shotgun) beside nWoD Firearms)."""
    stated = {s.covers[0] for s in sheet.values() if len(s.covers) == 1}
    many = [set(s.covers) for s in sheet.values() if len(s.covers) > 1]
    for narrow in many:
        if any(narrow < wide for wide in many):
            stated |= narrow
    return stated


def implied(combatant: Combatant) -> dict[str, str]:
    """Neutral skill -> the broad sheet skill that only implies it (no sheet skill states it)."""
    stated = _stated(combatant.sheet_skills)
    out: dict[str, str] = {}
    for name, s in combatant.sheet_skills.items():
        if len(s.covers) > 1:
            for k in s.covers:
                if k not in stated and not reference_class(k):
                    out.setdefault(k, name)
    return out


def used(combatant: Combatant) -> set[str]:
    """The neutral skills the NPC's weapons are used with."""
    return {firearm_skill_for(w.weapon_class) for w in combatant.weapons} | {m.skill for m in combatant.melee}


def _context(system: Any, combatant: Combatant) -> dict[str, Any]:
    """`system`'s native characteristics for `combatant` (what its skill ladders depend on)."""
    try:
        return dict(system.characteristics_from_neutral(combatant.characteristics, Collector(system.key),
                                                        default=None))
    except Exception:  # noqa: BLE001 - a context only sharpens the equated values reported
        return {}


def _prints_every_skill(target: Any) -> bool:
    """Whether the target's stat block holds its skills as fixed fields (a Struct of levels,
    each printed whatever its value), not as a dict of the lines a sheet has."""
    sheet, npc_type = getattr(target, "sheet", None), getattr(target, "npc_type", None)
    if sheet is None or not isinstance(npc_type, type) or not issubclass(npc_type, msgspec.Struct):
        return False
    field = next((f for f in codec.struct_fields(npc_type) if f.name == sheet.skills), None)
    return field is not None and isinstance(field.type, type) and issubclass(field.type, msgspec.Struct)


class _Spec(msgspec.Struct, frozen=True):
    """A system's skills as a plan reads them, made once per system instance (its declared skills
    are the same every time it is asked): every skill but its line skills with the neutral skills
    it covers (in the order it declares them), and for each neutral skill the skills that cover it,
    in that order."""

    skills: dict[str, tuple[str, ...]]
    covering: dict[str, tuple[str, ...]]


def _spec(system: Any) -> _Spec:
    held = getattr(system, "__dict__", None)
    found = held.get("_plan_spec") if held is not None else None
    if found is None:
        skills = {n: tuple(ks) for n, ks in system.skills().items() if n not in system.line_skills}
        covering: dict[str, list[str]] = {}
        for n, ks in skills.items():
            for k in dict.fromkeys(ks):
                covering.setdefault(k, []).append(n)
        found = _Spec(skills, {k: tuple(v) for k, v in covering.items()})
        if held is not None:
            held["_plan_spec"] = found
    return found


def plan(target: Any, combatant: Combatant, system_of: Callable[[str], Any]) -> Plan:
    """What `target` writes of `combatant`'s skills (see the module's text). ``system_of(key)``:
    the installed system of a key, or None."""
    sheet = combatant.sheet_skills
    if not sheet:
        return Plan(combatant=combatant)
    plan_spec = _spec(target)
    spec = plan_spec.skills  # not line skills (read only: made once per target)
    covered = target.covered_skills()
    own = set(namespaces(target))
    skills = combatant.skills
    broad_of = implied(combatant)
    uses = used(combatant)
    carry: dict[str, dict[str, Any]] = {}
    lines: list[tuple[str, str]] = []
    missing: set[str] = set()

    # a trip home: the sheet's own lines of the target's skill list came along (carried), so
    # they say which skills the sheet had; nothing is written for a broad skill beyond them
    def home(s: SheetSkill) -> bool:
        owner = system_of(s.system)
        return owner is not None and namespaces(owner)[0] in own

    going_home = any(home(s) for s in sheet.values())
    every_line = _prints_every_skill(target)
    # implied skills: written under a target skill no narrower than the broad one, or one in use
    written: set[str] = set()
    why: dict[str, str] = {}
    position = {n: i for i, n in enumerate(spec)} if len(skills) * 4 < len(spec) else None
    relevant = spec if position is None else sorted(  # (those that cover a skill the NPC has, in order)
        {n for k in skills for n in plan_spec.covering.get(k, ())}, key=position.__getitem__)
    for native in relevant:
        keys = spec[native]
        present = [k for k in keys if k in skills]
        if not present:
            continue
        if any(k not in broad_of for k in present) or every_line:
            # (a sheet that prints every skill line, the Polish one, shows 0 for one not written:
            # an untrained pistol for a SWAT officer; it writes the equated level instead)
            written.add(native)
            continue
        if not going_home and not any(k in FIREARMS for k in present):
            # climbing, swimming, jumping, throwing under nWoD Athletics: a sheet of the target
            # writes each such skill (a Keeper puts Climb, Jump, Swim and Throw on the sheet);
            # only the guns are one skill in one system and five lines in another
            written.add(native)
            continue
        if any(k in uses for k in present):
            written.add(native)
            why[native] = "the NPC's weapon"
            continue
        for k in present:
            whole = {c for c in sheet[broad_of[k]].covers if c in covered}
            if whole <= set(keys):
                written.add(native)
                why[native] = f"{target.name} has no narrower skill"
                break
    # a broad gun skill none of whose guns the NPC carries (a sheet with no weapon lines) is
    # written as its first gun (nWoD Firearms as CoC Handgun, Polish Broń długa as Rifle), so
    # the competence is on the sheet; the rest is carried as for any other
    for name, s in sheet.items():
        guns = [k for k in s.covers if k in FIREARMS and k in skills and broad_of.get(k) == name]
        if going_home or len(s.covers) < 2 or not guns:
            continue
        if any(k in spec[n] for n in written for k in s.covers if k in FIREARMS):
            continue
        first = next((n for k in guns for n, ks in spec.items() if k in ks), None)
        if first is not None:
            written.add(first)
            why[first] = "no weapon says which gun: the skill's first"
    kept = {k for native in written for k in spec[native] if k in skills}
    dropped = {k for k in broad_of if k in skills and k in covered and k not in kept}
    by_broad: dict[str, list[str]] = {}
    for k in broad_of:  # the sheet's order, not a set's: the same output in every process
        if k in dropped:
            by_broad.setdefault(broad_of[k], []).append(k)
    out_skills = dict(skills)
    ctx = None
    for name, keys in by_broad.items():
        s = sheet[name]
        owner = system_of(s.system)
        ns = namespaces(owner)[0] if owner is not None else s.system
        if ns in own:
            continue  # the target's own skill list: its plugin writes it
        if ctx is None:
            ctx = _context(target, combatant)
        gone = [k for k in s.covers if k in skills and (k in dropped or k not in covered)]
        for k in gone:
            out_skills.pop(k, None)
        carry.setdefault(ns, {})[name] = s.level
        natives = [n for n, ks in spec.items() if any(k in s.covers for k in ks)]
        wrote = [f"{n} ({why[n]})" if n in why else n for n in natives if n in written]
        rest = []
        for n in natives:
            if n in written:
                continue
            k = next(k for k in spec[n] if k in gone)
            try:
                level = target.level_for(n, float(skills[k]), {**ctx, "@key": k})
                rest.append(f"{n} {level}")
            except Exception:  # noqa: BLE001 - the report names the skill without a value
                rest.append(n)
        none = [k for k in gone if k not in covered]
        lines.append((name, f"{name} {s.level} ({s.system}) stands for {target.name} {', '.join(natives)}"
                      f"{' and ' + ', '.join(none) + ' (no skill of its own)' if none else ''}; written: "
                      f"{', '.join(wrote) or 'none'}; {'the others' if wrote else 'all'} not expressible in "
                      f"{target.key} without lines the sheet never had: carried at carried.{ns}.{FIELD}.{name} "
                      f"(equated values: {', '.join(rest)})"))

    # a stated skill the target has no skill for: the sheet's line is carried as it was
    # (one that gives several neutral skills the target has none of, a 7e Fighting (Brawl) that
    # is also the NPC's knife skill, the same: one line)
    for name, s in sheet.items():
        if not s.covers or any(k in covered or k in target.derived_skills() for k in s.covers) \
                or not any(k in out_skills for k in s.covers):
            continue
        owner = system_of(s.system)
        if owner is None or namespaces(owner)[0] in own:
            continue
        ns = namespaces(owner)[0]
        for k in s.covers:
            out_skills.pop(k, None)
        carry.setdefault(ns, {})[name] = s.level
        missing.add(name)
        lines.append((name, f"{name} {s.level} ({s.system}): {target.name} has no skill for {', '.join(s.covers)}; "
                            f"not expressible in {target.key}: carried at carried.{ns}.{FIELD}.{name}"))

    # a stated skill the target's sheet derives from attributes alone (nWoD Defense: the dodge):
    # the sheet's line is carried as it was, for the way back
    for name, s in sheet.items():
        if len(s.covers) != 1 or s.covers[0] not in target.derived_only or s.covers[0] not in out_skills:
            continue
        owner = system_of(s.system)
        if owner is None or namespaces(owner)[0] in own:
            continue
        ns = namespaces(owner)[0]
        carry.setdefault(ns, {})[name] = s.level
        field = target.derived_skills().get(s.covers[0], s.covers[0])
        lines.append((name, f"{name} {s.level} ({s.system}): {target.name} derives {field} from the NPC's attributes, "
                            f"whatever his {s.covers[0]}, so the line is not expressible in {target.key}: carried at "
                            f"carried.{ns}.{FIELD}.{name} for the way back"))

    # twins: a sheet of a system with several skills for one neutral skill keeps its names
    # (in the sheet's order, so the report lines and carried entries are the same in every run)
    for name, s in sheet.items():
        if len(s.covers) > 1:
            _carry_under_broad(name, s, spec, out_skills, system_of, own, target, carry, lines)
        if len(s.covers) != 1:
            continue
        k = s.covers[0]
        if reference_class(k) or k not in out_skills:
            continue
        twins = list(plan_spec.covering.get(k, ()))
        if name in twins:
            continue
        owner = system_of(s.system)
        if owner is None or namespaces(owner)[0] in own:
            continue
        if name in owner.line_skills and _written_beside_a_line(owner, name, s.level, float(out_skills[k])):
            continue  # its own sheet writes it again beside the weapon line that uses it
        theirs = list(_spec(owner).covering.get(k, ()))
        broad = [n for n in twins if len(spec[n]) > 1]
        if broad and len(theirs) == 1 and twins == broad:
            # written under a broad skill (CoC Conceal as nWoD Larceny): read back, the broad
            # skill only implies it, so the sheet's own line rides along to be written again
            ns = namespaces(owner)[0]
            carry.setdefault(ns, {})[name] = s.level
            lines.append((name, f"{name} {s.level} ({s.system}) is written as {', '.join(broad)}, which "
                                f"stands for more; the line itself is not expressible in {target.key}: carried "
                                f"at carried.{ns}.{FIELD}.{name} for the way back"))
        elif len(theirs) > 1:  # the way back must know which of its twins the sheet had
            ns = namespaces(owner)[0]
            carry.setdefault(ns, {})[name] = s.level
            lines.append((name, f"{name} {s.level} ({s.system}): which of {', '.join(theirs)} the sheet had "
                                f"for the neutral {k} is not expressible in {target.key}: carried at "
                                f"carried.{ns}.{FIELD}.{name} for the way back"))
    out = combatant if out_skills == skills else msgspec.structs.replace(combatant, skills=out_skills)
    return Plan(combatant=out, carry=carry, lines=lines, missing=missing)


def _carry_under_broad(name: str, s: SheetSkill, spec: Mapping[str, Sequence[str]], out_skills: Mapping[str, float],
                       system_of: Callable[[str], Any], own: set[str], target: Any,
                       carry: dict[str, dict[str, Any]], lines: list[tuple[str, str]]) -> None:
    """A stated line of several neutral skills (7th-edition Firearms (Rifle/Shotgun): rifle and
    shotgun) written, every one of them, under one broad skill of the target that stands for
    more (nWoD Firearms, also the handgun): read back, the broad skill only implies it, so the
    line rides along to be written again, as a line of one neutral skill does (below)."""
    present = [k for k in s.covers if k in out_skills and not reference_class(k)]
    owner = system_of(s.system)
    if not present or owner is None or namespaces(owner)[0] in own:
        return
    broad: set[str] = set()
    for k in present:
        twins = [n for n, ks in spec.items() if k in ks]
        theirs = [n for n, ks in owner.skills().items() if k in ks and n not in owner.line_skills]
        if not twins or theirs != [name] or any(len(spec[n]) <= len(s.covers) or
                                                not set(s.covers) <= set(spec[n]) for n in twins):
            return
        broad.update(twins)
    ns = namespaces(owner)[0]
    carry.setdefault(ns, {})[name] = s.level
    lines.append((name, f"{name} {s.level} ({s.system}) is written as {', '.join(sorted(broad))}, which stands "
                        f"for more; the line itself is not expressible in {target.key}: carried at "
                        f"carried.{ns}.{FIELD}.{name} for the way back"))


def _under_broad(reader: Any, k: str, keys: Sequence[str]) -> bool:
    """Whether `reader` holds neutral skill `k` only under skills broader than a line of `keys`."""
    try:
        natives = [ks for n, ks in reader.skills().items() if k in ks and n not in reader.line_skills]
    except Exception:  # noqa: BLE001 - no reader: nothing to compare with
        return False
    return bool(natives) and all(len(ks) > len(keys) and set(keys) <= set(ks) for ks in natives)


def _written_beside_a_line(owner: Any, name: str, level: Any, competence: float) -> bool:
    """Whether `owner`'s line skill `name` at `level` is what its sheet writes from the neutral
    `competence` (System.line_skills: written beside the weapon line that uses it)."""
    try:
        return owner.level_for(name, competence) == level
    except Exception:  # noqa: BLE001 - a plugin that cannot say: carried as any other
        return False


def twins(target: Any, combatant: Combatant) -> frozenset[str]:
    """`target`'s skills not to write for `combatant`: where it has several skills for one
    neutral skill the sheet stated (CoC Hide and Sneak: stealth) and the sheet named some of
    them, the others. None named (GURPS Stealth): all are written."""
    sheet = combatant.sheet_skills
    if not sheet:
        return frozenset()
    plan_spec = _spec(target)
    spec = plan_spec.skills  # not line skills
    omit: set[str] = set()
    for k in _stated(sheet):
        if reference_class(k):
            continue
        natives = plan_spec.covering.get(k, ())
        if len(natives) > 1 and any(n in sheet for n in natives):
            omit |= {n for n in natives if n not in sheet and list(spec[n]) == [k]}
    return frozenset(omit)


def _unedited(reader: Any, combatant: Combatant, k: str, carried_value: float, present: float,
              readings: Sequence[tuple[Any, Mapping[str, float]]] = (),
              line: tuple[str, str, Any] | None = None) -> float | None:
    """Whether `reader`'s stat block holds for neutral skill `k` just what it writes for the
    carried line's competence (so the line comes back exactly; an edited value is converted).
    A broad skill of `reader` (nWoD Firearms) is written at the best of the lines it stands for:
    unedited while it is still the level the best carried line gives, or while it is above every
    carried line and the sheet's system has a broad line of its own it may have been written
    from and did not carry (Polish Broń długa, on a document converted before such lines rode
    along). `readings`: (a system that may have written the lines, the lines' competences by
    neutral skill on its ladders), one per system sharing
    the carried namespace (coc and coc-zh write one family's lines on their own ladders).
    `line`: (system key, native name, level) of the carried line: what a writer wrote for it was
    rounded toward its tier (core.tiers, ``System.writing_for``), and is asked so here.
    Returns the line's competence to take back (on the ladders of the member whose reading the
    broad skill holds, the nearest to it where several do: a coc-zh Handgun 100 under nWoD
    Firearms 5 (0.734) is coc-zh's 0.731, not coc's 0.727), or None: edited."""
    if reader is None:
        return None
    ctx = _context(reader, combatant)
    source = None if line is None else Combatant(
        name=combatant.name, characteristics=combatant.characteristics,
        sheet_skills={line[1]: SheetSkill(system=line[0], level=line[2], covers=[k])})
    writing = getattr(reader, "writing_for", None)
    # what the writer wrote: the nearest level, or the neighbour it rounded to toward the line's
    # tier (which of the two depended on the whole sheet it wrote from: either is unedited)
    for source_ in ((None, source) if source is not None else (None,)):
        with writing(source_) if writing is not None else nullcontext():
            found = _unedited_in(reader, combatant, k, carried_value, present, readings, ctx)
        if found is not None:
            return found
    return None


def _unedited_in(reader: Any, combatant: Combatant, k: str, carried_value: float, present: float,
                 readings: Sequence[tuple[Any, Mapping[str, float]]], ctx: Mapping[str, Any]) -> float | None:
    for native, keys in reader.skills().items():
        if k in keys:
            try:
                c = {**ctx, "@key": k}
                level = reader.level_written(native, k, carried_value, ctx)
                floor = reader.skill_floor(native, ctx)
                if floor is not None and level < floor[0]:
                    level = floor[0]  # the sheet writes no lower than what the NPC rolls untrained
                back = reader.competence(native, level, c)
                if len(keys) > 1:
                    at = reader.level_for(native, present, c)
                    # (of the members that may have written it, the reading nearest what the sheet holds)
                    for writer, lines in sorted(readings, key=lambda r: abs(r[1].get(k, carried_value) - present)):
                        best = max((v for key, v in lines.items() if key in keys), default=None)
                        if best is None:
                            continue
                        wrote = reader.level_written(native, k, best, ctx)
                        if wrote == at:  # a line under the broad skill, which is what the best gives
                            return lines.get(k, carried_value)
                        if wrote < at and any(len(ks) > 1 and set(ks) & set(keys) for ks in writer.skills().values()):
                            return lines.get(k, carried_value)  # written from a broad line of the sheet's, never carried
            except Exception:  # noqa: BLE001 - not comparable: the document's value stands
                return None
            return carried_value if abs(float(back) - float(present)) < 1e-9 else None
    return None


def restore(combatant: Combatant, owner: Callable[[str], Any], reader: Any = None,
            family: Callable[[str], Sequence[Any]] | None = None) -> Combatant:
    """`combatant` with the sheet skills its carried block holds (``carried.<ns>.sheet_skills``)
    back: each one's neutral skills the document does not state itself, at the competences of
    ``owner(ns)``'s own ladders, and its name among the sheet's skills. A neutral skill the
    document (of system `reader`) does state keeps the document's value, unless that value is
    just what `reader` writes for the carried line (unedited): then the line's own competence,
    so a CoC Sneak 20 comes back as 20, not as the nearest of the other system's coarser steps.
    ``family(ns)``: every installed system writing namespace `ns` (default: its owner alone).
    An entry that is not a skill and level of that system (a hand edit) stays carried."""
    if not any(isinstance(b, dict) and FIELD in b for b in combatant.carried.values()):
        return combatant
    skills = dict(combatant.skills)
    sheet = dict(combatant.sheet_skills)
    kind = combatant.melee_kind
    blocks: dict[str, dict[str, Any]] = {}
    for ns, block in combatant.carried.items():
        entries = block.get(FIELD) if isinstance(block, dict) else None
        if not isinstance(entries, dict):
            blocks[ns] = block
            continue
        system = owner(ns)
        keep = {}
        ctx = _context(system, combatant) if system is not None else {}
        valid: dict[str, tuple[str, ...]] = {}
        for name, level in entries.items():
            keys = system.skills().get(name) if system is not None else None
            if not keys or isinstance(level, bool) or level not in list(system.skill_levels(name)):
                keep[name] = level
                continue
            valid[name] = tuple(keys)
        # each one-skill line's competence on the ladders of each system that may have written it
        readings = []
        for writer in [system, *[m for m in (family(ns) if family else ()) if m is not None and m is not system]]:
            try:
                wctx = _context(writer, combatant)
                lines: dict[str, float] = {}
                for name, keys in valid.items():
                    for k in keys:  # (a line of several, 7e Firearms (Rifle/Shotgun), on each)
                        v = float(writer.competence(name, entries[name], {**wctx, "@key": k}))
                        lines[k] = max(lines.get(k, 0.0), v)
                readings.append((writer, lines))
            except Exception:  # noqa: BLE001 - a member that reads the lines otherwise: not a reading
                continue
        for name, keys in valid.items():
            level = entries[name]
            for k in keys:
                value = float(system.competence(name, level, {**ctx, "@key": k}))
                if k not in skills or (len(keys) == 1 and k in getattr(reader, "derived_only", ())):
                    skills[k] = value
                elif len(keys) == 1 or _under_broad(reader, k, keys):
                    # (a line of several only where the reader's sheet holds it under a broader
                    # skill, nWoD Firearms: where it has a line of its own, that line's value stands)
                    back = _unedited(reader, combatant, k, value, skills[k], readings,
                                     (system.key, name, level) if system is not None else None)
                    if back is not None:
                        skills[k] = back
            sheet.setdefault(name, SheetSkill(system=system.key, level=level, covers=list(keys)))
        if kind is None and system is not None and valid:
            # the weapon a carried close-combat line is for (a CoC Club 60 through a system with no
            # melee skill at all): it crosses with the line, so the sheet names Club, not Knife
            kind = melee_kind(system, {name: entries[name] for name in valid})
        rest = {k: v for k, v in block.items() if k != FIELD}
        if keep:
            rest[FIELD] = keep
        if rest:
            blocks[ns] = rest
    return msgspec.structs.replace(combatant, skills=skills, sheet_skills=sheet, carried=blocks, melee_kind=kind)


__all__ = ["FIELD", "Plan", "implied", "omitted", "plan", "restore", "twins", "used", "writing"]
