"""Levels one sheet states that a sheet of the same skill scale cannot write as that number.

Two systems that write skills on one scale (``System.skill_scale``: coc and coc7 are both
d100) pass a skill's number through (``System.levels_on_scale``). Where the target's own rules
forbid the number, the target writes another and the trip home would bring that other number
back: 6th edition's Dodge 18 (DEX 9 x 2, untrained) is under 7th edition's Dodge base DEX / 2
= 22; 6th edition's Club 55 beside Fist/Punch 70 is one Fighting (Brawl) 70 in 7th edition
(coc7.melee); 6th edition's Rifle 40 and Shotgun 60 are one Firearms (Rifle/Shotgun) 60.

The core finds these after the target wrote its sheet (:func:`unwritten`, nothing a plugin
writes) and carries each such level in the source's carried namespace with the number the
target wrote for it::

    carried:
      coc:
        scale_levels:
          Dodge: {level: 18, coc7: {Dodge: 22}}
          Club: {level: 55, coc7: {Fighting (Brawl): 70}}

A sheet of the source's namespace written from a document of that target which still says
those numbers (not edited since) writes the carried level again (:func:`restored`, called by
``System.levels_on_scale``): coc -> coc7 -> coc is exact, with nothing remembered. An edited
number (a Keeper raised the 7e Dodge to 40) is converted like any other.

A skill the target writes for neutral skills the source stated no skill for (7th edition's
Fighting (Brawl) from a 6th-edition Kick better than the punch the sheet never stated), is
carried as ``Fist/Punch: {unstated: true, coc7:
{Fighting (Brawl): 70}}``: the sheet home, while that number stands, states no Fist/Punch
either (its base), as the sheet it came from did.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from .carried import namespaces

FIELD = "scale_levels"  # the key of a carried namespace that holds these levels
RULE = "core.scale_levels"


def _kin_scales(target: Any, combatant: Any) -> list[tuple[str, Mapping[str, Any]]]:
    """The scale blocks of `combatant`'s native details written on `target`'s skill scale by
    another system: (that system's key, the block)."""
    name = getattr(target, "skill_scale", None)
    if not name:
        return []
    out = []
    for key, block in combatant.native.items():
        scale = block.get("scale") if isinstance(block, dict) and key != target.key else None
        if isinstance(scale, dict) and scale.get("name") == name and isinstance(scale.get("levels"), dict):
            out.append((key, scale))
    return out


def _covered(system: Any) -> set[str]:
    try:
        return set(system.covered_skills())
    except Exception:  # noqa: BLE001 - a plugin that cannot say: nothing is carried for it
        return set()


def unwritten(target: Any, combatant: Any, written: Any, system_of: Callable[[str], Any]
              ) -> tuple[dict[str, dict[str, Any]], list[tuple[str, str, str]]]:
    """The levels a source sheet on `target`'s skill scale stated that `target`'s sheet
    (`written`, its ``skills`` mapping of name -> level) does not write as that number:
    ({namespace: {FIELD: {name: {"level": n, target.key: {written name: level}}}}},
    [(namespace, name, report message)]). The written skills a level went into are those of its
    name, else those covering its neutral skills by declaration, else those the written sheet
    says cover them when read (a 7e Fighting (Brawl) that is also the NPC's knife skill); a
    level none of them holds is not here (the skill plan carries those)."""
    skills = getattr(written, "skills", None)
    scales = _kin_scales(target, combatant)
    if not scales or not isinstance(skills, Mapping):
        return {}, []
    mine = target.skills()
    carry: dict[str, dict[str, Any]] = {}
    lines: list[tuple[str, str, str]] = []
    read: list[Any] = []

    def covers() -> Mapping[str, Any]:  # what the written sheet's skills cover, as it reads them
        if not read:
            try:
                read.append(target.npc_to_neutral(written).value.sheet_skills)
            except Exception:  # noqa: BLE001 - a sheet its own plugin cannot read: nothing more said
                read.append({})
        return read[0]

    # the levels this sheet writes because the other sheet carried them for it (the trip home):
    # that sheet's numbers are what it writes for them, nothing to carry back
    own = combatant.carried.get(namespaces(target)[0])
    home = own.get(FIELD) if isinstance(own, Mapping) else None
    home = home if isinstance(home, Mapping) else {}
    for key, scale in scales:
        keys = scale.get("keys") or {}
        owner = system_of(key)
        ns = namespaces(owner)[0] if owner is not None else key
        for name, level in scale["levels"].items():
            if isinstance(level, bool) or not isinstance(level, int):
                continue
            if name in skills:
                into = [name]
            else:
                covered = set(keys.get(name) or ())
                into = [n for n in skills if covered & set(mine.get(n, ()))]
                if not into and covered:
                    into = [n for n, sk in covers().items() if n in skills and covered & set(sk.covers)]
            into = [n for n in into if isinstance(skills[n], int) and not isinstance(skills[n], bool)]
            if not into and name not in skills and set(keys.get(name) or ()) & _covered(target):
                # a skill this sheet writes none for, though it has skills for what it covers (6th
                # edition's Club 60 beside Fist/Punch 70: 7th edition fights a club with Brawl)
                carry.setdefault(ns, {}).setdefault(FIELD, {})[name] = {"level": level, target.key: {}}
                lines.append((ns, name, f"{name} {level} ({key}): not written on the {target.key} sheet; carried "
                                        f"at carried.{ns}.{FIELD}.{name}, so a {key} sheet written from this one "
                                        f"while it writes no skill for it has {name} {level} again"))
                continue
            # skills written for what this sheet's own skill covers beyond its declaration (a 7e
            # Brawl that is the NPC's sword-cane skill, written as a coc Sword too): a sheet of
            # the source written from this one has no skill of its own for them
            declared = set(owner.skills().get(name, ())) if owner is not None else set()
            beyond = set(keys.get(name) or ()) - declared if declared else set()
            also = [n for n in into if n != name and set(mine.get(n, ())) & beyond
                    and not set(mine.get(n, ())) & declared]
            if not into or (all(skills[n] == level for n in into) and not also):
                continue
            odd = [n for n in into if skills[n] != level]
            if odd and all(isinstance(home.get(n), Mapping) and home[n].get("level") == skills[n]
                           and isinstance(home[n].get(key), Mapping) and home[n][key].get(name) == level
                           for n in odd):
                continue
            as_written = {n: skills[n] for n in into}
            entry: dict[str, Any] = {"level": level, target.key: as_written}
            if also:
                entry["also"] = also
            carry.setdefault(ns, {}).setdefault(FIELD, {})[name] = entry
            said = ", ".join(f"{n} {v}" for n, v in as_written.items())
            if all(skills[n] == level for n in into):
                lines.append((ns, name, f"{name} {level} ({key}) is written {said} on the {target.key} sheet, "
                                        f"{', '.join(also)} for what the {key} sheet fights with it; carried at "
                                        f"carried.{ns}.{FIELD}.{name}, so a {key} sheet written from this one while "
                                        f"it says {said} has {name} {level} and no skill of its own for "
                                        f"{', '.join(also)}"))
                continue
            lines.append((ns, name, f"{name} {level} ({key}): not expressible in {target.key} as that number "
                                    f"(written {said} on the {target.key} sheet); carried at "
                                    f"carried.{ns}.{FIELD}.{name}, so a {key} sheet written from this one while it "
                                    f"says {said} has {name} {level} again"))
    # skills this sheet writes for neutral skills the other sheet stated no skill for (7th
    # edition's Fighting (Brawl) from a 6th-edition Kick better than the punch the sheet never
    # stated, or written at its base for a weapon line):
    # a sheet of that system written from this one, while it says those numbers, states none
    # for them either (its punch is its base), as the sheet it came from did
    for key, scale in scales:
        owner = system_of(key)
        if owner is None:
            continue
        ns = namespaces(owner)[0]
        keys = scale.get("keys") or {}
        # (a creature's own attack skill, System.line_skills, states none: it rides by name)
        own_lines = owner.line_skills
        stated = {k for name in scale["levels"] if name not in own_lines
                  for k in (keys.get(name) or owner.skills().get(name) or ())}
        for n, level in skills.items():
            covered = set(mine.get(n, ()))
            if isinstance(level, bool) or not isinstance(level, int) or not covered or covered & stated:
                continue
            for name, theirs in owner.skills().items():
                if set(theirs) & covered and name not in scale["levels"] and name not in own_lines:
                    entries = carry.setdefault(ns, {}).setdefault(FIELD, {})
                    entries.setdefault(name, {"unstated": True, target.key: {}})[target.key][n] = level
    return carry, lines


def carried_levels(system: Any, combatant: Any) -> dict[str, Any]:
    """The levels `system`'s own namespace carries (:data:`FIELD`), by name: a sheet of it
    stated them, so they are not floored at its base like a number from elsewhere."""
    block = combatant.carried.get(namespaces(system)[0])
    entries = block.get(FIELD) if isinstance(block, Mapping) else None
    if not isinstance(entries, Mapping):
        return {}
    return {n: e["level"] for n, e in entries.items() if isinstance(e, Mapping) and isinstance(e.get("level"), int)}


def restored(system: Any, levels: dict[str, Any], combatant: Any) -> list[tuple[str, int, str, dict[str, Any]]]:
    """The carried levels of `system`'s own namespace (:data:`FIELD`) that a sheet of it writes
    from `combatant`: those whose recorded numbers the document read still states (the scale
    block of the system that wrote them). Returned as (name, level, writer key, its numbers);
    `levels` is updated in place."""
    block = combatant.carried.get(namespaces(system)[0])
    entries = block.get(FIELD) if isinstance(block, Mapping) else None
    if not isinstance(entries, Mapping):
        return []
    scales = dict(_kin_scales(system, combatant))
    mine = system.skills()
    out = []
    for name, entry in entries.items():
        if name not in mine or not isinstance(entry, Mapping):
            continue
        if entry.get("unstated") is True:
            # a skill the sheet never stated: none, while the other sheet still says its numbers
            for key, scale in scales.items():
                said = entry.get(key)
                if isinstance(said, Mapping) and said and all(scale["levels"].get(n) == v for n, v in said.items()):
                    levels.pop(name, None)
                    break
            continue
        level = entry.get("level")
        if isinstance(level, bool) or not isinstance(level, int) or level not in list(system.skill_levels(name)):
            continue
        for key, scale in scales.items():
            said = entry.get(key)
            if isinstance(said, Mapping) and not said:
                # written as no skill there: while that sheet still writes none for what it covers
                keys = scale.get("keys") or {}
                if any(set(keys.get(w) or ()) & set(mine[name]) for w in scale["levels"]):
                    continue
                levels[name] = level
                out.append((name, level, key, {}))
                break
            if isinstance(said, Mapping) and said and all(scale["levels"].get(n) == v for n, v in said.items()):
                levels[name] = level
                out.append((name, level, key, dict(said)))
                also = [w for w in entry.get("also") or () if w in said]
                keys = scale.get("keys") or {}
                for n in [n for n in levels if n != name and also]:
                    # a skill of mine that only those written skills fed: not this sheet's
                    feeders = [w for w in scale["levels"] if set(keys.get(w) or ()) & set(mine.get(n, ()))]
                    if feeders and all(w in also for w in feeders):
                        del levels[n]
                break
    return out


__all__ = ["FIELD", "RULE", "carried_levels", "restored", "unwritten"]
