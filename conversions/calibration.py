"""The calibration table: each system's published tier shooters (pistol and rifle) equated
into every other system (docs/calibration.md is generated from it; tests check it)."""

from __future__ import annotations

from typing import Any

from xsys.core.equating import TIER_NAMES, TierCell, tier_cells, tier_of
from xsys.core.registry import Registry, default_registry

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

FIREARM_SKILLS = {
    "coc": ("Handgun", "Rifle", "Shotgun", "SMG", "Machine Gun"),
    "coc-zh": ("Handgun", "Rifle", "Shotgun", "SMG", "Machine Gun"),
    "gurps": ("Guns (Pistol)", "Guns (Rifle)", "Guns (Shotgun)", "Guns (SMG)", "Guns (Machine Gun)"),
    "nwod": ("Firearms",),
    "pl-trudnosc": ("Broń krótka", "Broń długa"),
}

AVERAGE_COC = {"STR": 11, "CON": 11, "SIZ": 13, "DEX": 11, "APP": 11, "INT": 13, "POW": 11, "EDU": 14}

# (what, source document: a fixture path relative to the project or plain data, targets)
EXAMPLES: tuple[tuple[str, Any, tuple[str, ...]], ...] = (
    ("GURPS patrol officer, Guns (Pistol)-13", "fixtures/gurps/npcs/policeman.yaml", ("coc", "nwod")),
    ("GURPS sniper, Guns (Rifle)-16", "fixtures/gurps/npcs/sniper.yaml", ("coc", "nwod")),
    ("CoC detective, Handgun 55", "fixtures/coc/npcs/police_detective.yaml", ("nwod", "pl-trudnosc")),
    ("CoC Rifle 20", {"system": "coc", "kind": "npc", "name": "CoC Rifle 20", **AVERAGE_COC,
                      "skills": {"Rifle": 20}},
     ("gurps",)),
    ("nWoD Dexterity 2, Firearms 2", {"system": "nwod", "kind": "npc", "name": "nWoD Firearms 2",
                                      "Dexterity": 2, "skills": {"Firearms": 2}}, ("coc", "gurps")),
    ("Polish Broń długa 4", {"system": "pl-trudnosc", "kind": "npc", "imię": "Broń długa 4",
                             "umiejętności": {"Broń długa": 4}}, ("coc",)),
)


def _firearms(doc: Any, system: str) -> dict[str, Any]:
    skills = doc.umiejętności.as_dict() if hasattr(doc, "umiejętności") else dict(getattr(doc, "skills", {}) or {})
    return {k: skills[k] for k in FIREARM_SKILLS.get(system, ()) if skills.get(k)}


def examples(root: Any = None) -> list[tuple[str, str, dict[str, Any]]]:
    """(example, target, the target's firearm skills) for :data:`EXAMPLES`, each converted
    afresh (the remembered source ignored)."""
    from pathlib import Path

    from xsys.conversions import api

    base = Path(root) if root is not None else Path(__file__).resolve().parents[1]
    out = []
    for what, source, targets in EXAMPLES:
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

CLOSE_COMBAT_SKILLS = {
    "coc": ("Fist/Punch", "Knife", "Club", "Sword", "Axe", "Spear"),
    "coc-zh": ("Fist/Punch", "Knife", "Club", "Sword", "Axe", "Spear"),
    "gurps": ("Brawling", "Knife", "Axe/Mace", "Broadsword", "Shortsword", "Spear", "Staff"),
    "nwod": ("Brawl", "Weaponry"),
    "pl-trudnosc": (),
}
CLOSE_COMBAT_TARGETS = ("coc-zh", "gurps", "nwod", "pl-trudnosc")
DOCK_BRUTE = "fixtures/coc/npcs/dock_brute.yaml"


def _close_combat(doc: Any, system: str) -> dict[str, Any]:
    skills = doc.umiejętności.as_dict() if hasattr(doc, "umiejętności") else dict(getattr(doc, "skills", {}) or {})
    return {k: skills[k] for k in CLOSE_COMBAT_SKILLS.get(system, ()) if k in skills}


def close_combat_rows(root: Any = None) -> list[tuple[str, float | None, dict[str, dict[str, Any]]]]:
    """(source, its close-combat competence, {target: its close-combat skills}) for an average CoC
    adult with Fist/Punch or Knife 25, 50 and 75, and the dock brute (STR 17, SIZ 17, Fist/Punch 70,
    Club 55), each converted afresh into every other system."""
    from pathlib import Path

    from xsys.conversions import api

    base = Path(root) if root is not None else Path(__file__).resolve().parents[1]
    sources: list[tuple[str, Any]] = [
        (f"CoC {skill} {lv} (average adult)", {"system": "coc", "kind": "npc", "name": f"{skill} {lv}", **AVERAGE_COC,
                                              "skills": {skill: lv}})
        for skill in ("Fist/Punch", "Knife") for lv in (25, 50, 75)]
    sources.append(("CoC dock brute (STR 17, SIZ 17): Fist/Punch 70, Club 55", base / DOCK_BRUTE))
    out = []
    for what, src in sources:
        neutral = api.convert(src, "neutral", fresh=True, trace=False).document
        comps = {k: v for k, v in neutral.skills.items() if k in ("brawl", "melee")}
        comp = max(comps.values()) if len(comps) == 1 else None
        row = {t: _close_combat(api.convert(src, t, fresh=True, trace=False).document, t)
               for t in CLOSE_COMBAT_TARGETS}
        out.append((what, comp, row))
    return out


def close_combat_markdown(rows: list[tuple[str, float | None, dict[str, dict[str, Any]]]]) -> str:
    out = ["| source | competence | " + " | ".join(CLOSE_COMBAT_TARGETS) + " |",
           "|---|---|" + "---|" * len(CLOSE_COMBAT_TARGETS)]
    for what, comp, row in rows:
        cells = [", ".join(f"{k} {v}" for k, v in row[t].items()) or "(none)" for t in CLOSE_COMBAT_TARGETS]
        out.append(f"| {what} | {'—' if comp is None else f'{comp:.3f}'} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"
