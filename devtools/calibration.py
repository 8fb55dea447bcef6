"""The calibration table: each system's published tier shooters (pistol and rifle) equated
into every other system (docs/calibration.md is generated from it; tests check it)."""

from __future__ import annotations

from typing import Any

from xsys.core.equating import TIER_NAMES, TierCell, tier_cells, tier_of
from xsys.core.registry import Registry, default_registry
from xsys.devtools.config import section

CLASSES = ("handgun", "rifle")


Cell = TierCell  # one tier shooter converted (xsys.core.equating)


def skill_of(system: Any, weapon_class: str) -> str:
    return system.skill_for_weapon(weapon_class)


def _tier_cells(keys: tuple[str, ...], skill_for: Any, registry: Registry | None = None) -> list[Cell]:
    reg = registry or default_registry()
    return tier_cells({k: reg.system(k) for k in reg.keys()}, keys, skill_for)


def table(registry: Registry | None = None) -> list[Cell]:
    return _tier_cells(CLASSES, skill_of, registry)


def markdown(cells: list[Cell], groups: tuple[str, ...] = CLASSES, heading: str = "###",
             measure: str = "competence") -> str:
    """The table of :func:`table` (or of :func:`standing_table`, with its groups): a row per source
    tier, a column per target, each level marked with how many tiers it lies from the source's."""
    out = []
    keys = sorted({c.source for c in cells})
    for group in groups:
        rows: dict[tuple[str, int], dict[str, Cell]] = {}
        for c in cells:
            if c.weapon_class == group:
                rows.setdefault((c.source, c.rank), {})[c.target] = c
        if not rows:
            continue
        out.append(f"{heading} {group}\n")
        out.append(f"| source | tier | level | {measure} | " + " | ".join(keys) + " |")
        out.append("|---|---|---|---|" + "---|" * len(keys))
        for (src, rank), targets in sorted(rows.items()):
            any_c = next(iter(targets.values()))
            marks = []
            for k in keys:
                c = targets.get(k)
                marks.append("—" if c is None else f"{c.level}" + ("" if c.off_by == 0 else " (±1 tier)" if c.off_by == 1
                                                                  else f" ({c.off_by} tiers off)"))
            out.append(f"| {src} | {TIER_NAMES[rank]} | {any_c.source_level} | {any_c.competence:.3f} | "
                       + " | ".join(marks) + " |")
        out.append("")
    exact = sum(c.off_by == 0 for c in cells)
    one = sum(c.off_by == 1 for c in cells)
    worse = sum(c.off_by > 1 for c in cells)
    out.append(f"{len(cells)} conversions: {exact} land in the target's own tier, {one} one tier away, "
               f"{worse} further.")
    return "\n".join(out) + "\n"


# ---- worked examples, converted as a user would (``api.convert(fresh=True)``) ----------

GUNS = frozenset({"handgun", "rifle", "shotgun", "smg", "machine_gun"})
CLOSE_COMBAT = frozenset({"brawl", "melee"})


def skills_holding(system_key: str, neutral: frozenset[str]) -> tuple[str, ...]:
    """A system's native skills that hold any of the `neutral` skills, in its own order (its
    firearm skills: GUNS; its close-combat skills: CLOSE_COMBAT)."""
    return tuple(k for k, keys in default_registry().system(system_key).skills().items() if neutral & set(keys))


def _examples() -> list[tuple[str, Any, tuple[str, ...]]]:
    """(what, source: a fixture path relative to the project or plain data, targets), as
    fixtures/devtools/choices.toml [calibration.examples] lists them."""
    return [(e["what"], e.get("source", e.get("document")), tuple(e["targets"]))
            for e in section("calibration")["examples"]]


def _firearms(doc: Any, system: str) -> dict[str, Any]:
    skills = doc.umiejętności.as_dict() if hasattr(doc, "umiejętności") else dict(getattr(doc, "skills", {}) or {})
    return {k: skills[k] for k in skills_holding(system, GUNS) if skills.get(k)}


def examples(root: Any = None) -> list[tuple[str, str, dict[str, Any]]]:
    """(example, target, the target's firearm skills) for each worked example, converted
    afresh (the remembered source ignored)."""
    from pathlib import Path

    from xsys.conversions import api

    base = Path(root) if root is not None else Path(__file__).resolve().parents[1]
    out = []
    for what, source, targets in _examples():
        src = base / source if isinstance(source, str) else source
        for t in targets:
            doc = api.convert(src, t, fresh=True, trace=False).document
            out.append((what, t, _firearms(doc, t)))
    return out


def examples_markdown(rows: list[tuple[str, str, dict[str, Any]]]) -> str:
    out = ["| source | target | firearm skills now |", "|---|---|---|"]
    for what, target, skills in rows:
        shown = ", ".join(f"{k} {v}" for k, v in skills.items()) or "(none above the untrained default)"
        out.append(f"| {what} | {target} | {shown} |")
    return "\n".join(out) + "\n"


# ---- skills with no battery: linked on the published competence scale ---------------------

STANDING_SKILLS = ("spot", "stealth", "first_aid")


def skill_covering(system: Any, neutral_skill: str) -> str | None:
    """The system's first native skill that holds `neutral_skill` (None: it has none)."""
    return next((k for k, keys in system.skills().items() if neutral_skill in keys), None)


def standing_table(registry: Registry | None = None) -> list[Cell]:
    """Each system's tier typical levels of a skill with no battery (Spot, Stealth, First Aid) at
    median attributes, converted into every other system that has the skill (core.equating:
    linked on the published competence scale; CoC reads its own percentage)."""
    return _tier_cells(STANDING_SKILLS, skill_covering, registry)


def standing_markdown(cells: list[Cell]) -> str:
    return markdown(cells, STANDING_SKILLS, "####", "standing")


# ---- close combat: CoC Fist/Punch and Knife 25/50/75 into every system ------------

def _close_combat(doc: Any, system: str) -> dict[str, Any]:
    skills = doc.umiejętności.as_dict() if hasattr(doc, "umiejętności") else dict(getattr(doc, "skills", {}) or {})
    return {k: skills[k] for k in skills_holding(system, CLOSE_COMBAT) if k in skills}


def close_combat_rows(root: Any = None) -> list[tuple[str, float | None, dict[str, dict[str, Any]]]]:
    """(source, its close-combat competence, {target: its close-combat skills}) for an average CoC
    adult with Fist/Punch or Knife 25, 50 and 75, and the dock brute (STR 17, SIZ 17, Fist/Punch 70,
    Club 55), each converted afresh into every other system."""
    from pathlib import Path

    from xsys.conversions import api

    base = Path(root) if root is not None else Path(__file__).resolve().parents[1]
    cc = section("calibration")["close_combat"]
    sources: list[tuple[str, Any]] = [
        (f"{cc['source_label']} {skill} {lv} (average adult)",
         {"system": cc["system"], "kind": "npc", "name": f"{skill} {lv}", **cc["average"], "skills": {skill: lv}})
        for skill in cc["skills"] for lv in cc["levels"]]
    sources.append((cc["brute"]["what"], base / cc["brute"]["source"]))
    out = []
    for what, src in sources:
        neutral = api.convert(src, "neutral", fresh=True, trace=False).document
        comps = {k: v for k, v in neutral.skills.items() if k in ("brawl", "melee")}
        comp = max(comps.values()) if len(comps) == 1 else None
        row = {t: _close_combat(api.convert(src, t, fresh=True, trace=False).document, t)
               for t in close_combat_targets()}
        out.append((what, comp, row))
    return out


def close_combat_targets() -> tuple[str, ...]:
    return tuple(section("calibration")["close_combat"]["targets"])


def close_combat_markdown(rows: list[tuple[str, float | None, dict[str, dict[str, Any]]]]) -> str:
    targets = close_combat_targets()
    out = ["| source | competence | " + " | ".join(targets) + " |",
           "|---|---|" + "---|" * len(targets)]
    for what, comp, row in rows:
        cells = [", ".join(f"{k} {v}" for k, v in row[t].items()) or "(none)" for t in targets]
        out.append(f"| {what} | {'—' if comp is None else f'{comp:.3f}'} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"
