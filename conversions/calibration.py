"""The calibration table: each system's published tier shooters (pistol and rifle) equated
into every other system (docs/calibration.md is generated from it; tests check it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from xsys.core.equating import TIER_NAMES, tier_of
from xsys.core.registry import Registry, default_registry

CLASSES = ("handgun", "rifle")


@dataclass(frozen=True)
class Cell:
    weapon_class: str
    source: str
    rank: int
    source_level: Any
    competence: float
    target: str
    level: Any
    target_rank: int

    @property
    def off_by(self) -> int:
        return abs(self.target_rank - self.rank)


def skill_of(system: Any, weapon_class: str) -> str:
    return system.skill_for_weapon(weapon_class)


def table(registry: Registry | None = None) -> list[Cell]:
    reg = registry or default_registry()
    systems = {k: reg.system(k) for k in reg.keys()}
    cells = []
    for cls in CLASSES:
        for a, sa in systems.items():
            skill_a = skill_of(sa, cls)
            for tier in sa.tiers(skill_a):
                comp = sa.competence(skill_a, tier.typical, {"@key": cls})
                for b, sb in systems.items():
                    if b == a or not sb.tiers(skill_of(sb, cls)):
                        continue
                    skill_b = skill_of(sb, cls)
                    lv = sb.level_for(skill_b, comp, {"@key": cls})
                    cells.append(Cell(cls, a, tier.rank, tier.typical, comp, b, lv,
                                      tier_of(sb.tiers(skill_b), lv).rank))
    return cells


def markdown(cells: list[Cell]) -> str:
    out = []
    keys = sorted({c.source for c in cells})
    for cls in CLASSES:
        out.append(f"### {cls}\n")
        out.append("| source | tier | level | competence | " + " | ".join(keys) + " |")
        out.append("|---|---|---|---|" + "---|" * len(keys))
        rows: dict[tuple[str, int], dict[str, Cell]] = {}
        for c in cells:
            if c.weapon_class == cls:
                rows.setdefault((c.source, c.rank), {})[c.target] = c
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
