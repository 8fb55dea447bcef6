"""The System base class: what a plugin implements to teach xsys one game system.

Subclass it, set the class attributes, implement the abstract methods, and register
the class through the ``xsys_register_systems`` hook. A *variant* (a translation, house
rules) subclasses another system's class through its public module and overrides only
what differs (sqlglot's dialects are the model).

The helpers here do the parts that are the same for every system: characteristics by
adult-population percentile, skills by standard-task chance, the standard shot.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, ClassVar, Iterable, Mapping, Sequence

import msgspec

from .dice import Dist
from .ladder import Ladder, Source, Step
from .model import Combatant, Shot, standard_shot
from .trace import Check, Collector, Modifier, Result
from .vocab import SKILLS


class CharacteristicSpec(msgspec.Struct, frozen=True):
    """A native characteristic: the neutral characteristic it measures and the ladder
    between its native values and the adult-population percentile."""

    neutral: str
    ladder: Ladder


class System:
    """Base of every game system. Class attributes describe it; methods convert."""

    key: ClassVar[str] = ""
    name: ClassVar[str] = ""
    edition: ClassVar[str] = ""
    dice: ClassVar[str] = ""  # how its checks are rolled, in words ("3d6 roll-under")
    rule_prefix: ClassVar[str] = ""  # e.g. "gurps." -- the rule IDs this system cites
    npc_type: ClassVar[type] = msgspec.Struct  # native stat block Struct
    shot_type: ClassVar[type | None] = None  # native shot/situation Struct
    settings_type: ClassVar[type | None] = None  # optional per-run settings Struct

    def __init__(self, settings: Any = None) -> None:
        if settings is None and self.settings_type is not None:
            settings = self.settings_type()
        self.settings = settings

    # ---- description ------------------------------------------------------------------
    def describe(self) -> dict[str, Any]:
        return {"key": self.key, "name": self.name, "edition": self.edition, "dice": self.dice}

    def label(self) -> str:
        return f"{self.name} ({self.edition})" if self.edition else self.name

    # ---- tables ------------------------------------------------------------------------
    def ladders(self) -> dict[str, Ladder]:
        """Every ladder of the system (situation tables, armor, damage ...), by name."""
        return {}

    def characteristics(self) -> dict[str, CharacteristicSpec]:
        """Native characteristic name -> its neutral characteristic and percentile ladder."""
        return {}

    def skills(self) -> dict[str, tuple[str, ...]]:
        """Native skill name -> the neutral skill keys it covers (vocab.SKILLS)."""
        return {}

    def skill_ladder(self, skill: str, context: Mapping[str, Any] | None = None) -> Ladder:
        """Native skill levels of `skill` -> their standard-task chance (a ladder over
        probability, rounding to the nearest). ``context`` holds native characteristics
        for systems where the chance also depends on them (dice pools)."""
        raise NotImplementedError(f"{self.key}: skill_ladder")

    def rule_ids(self) -> set[str]:
        """Every rule ID the system implements (for the coverage tests and docs)."""
        ids: set[str] = set()
        for lad in self.ladders().values():
            ids |= lad.rules()
        return ids

    # ---- checks ------------------------------------------------------------------------
    def check(self, shot: Shot, extra: Sequence[Modifier] = ()) -> Check:
        """A neutral shot as this system's native check with its exact chance. ``extra``
        are house-rule modifiers (the ``xsys_shot_modifiers`` hook) to fold in."""
        raise NotImplementedError(f"{self.key}: check")

    def standard_chance(self, skill: str, level: Any, context: Mapping[str, Any] | None = None) -> Fraction:
        """Chance of `skill` at native `level` on its standard task."""
        raise NotImplementedError(f"{self.key}: standard_chance")

    # ---- conversions -------------------------------------------------------------------
    def npc_to_neutral(self, npc: Any) -> Result[Combatant]:
        raise NotImplementedError(f"{self.key}: npc_to_neutral")

    def npc_from_neutral(self, combatant: Combatant) -> Result[Any]:
        raise NotImplementedError(f"{self.key}: npc_from_neutral")

    def shot_to_neutral(self, shot: Any) -> Result[Shot]:
        raise NotImplementedError(f"{self.key}: shot_to_neutral")

    def shot_from_neutral(self, shot: Shot) -> Result[Any]:
        raise NotImplementedError(f"{self.key}: shot_from_neutral")

    # ---- shared helpers for subclasses -------------------------------------------------
    def characteristics_to_neutral(self, values: Mapping[str, Any], col: Collector, path: str = "$") -> dict[str, float]:
        out: dict[str, float] = {}
        specs = self.characteristics()
        for native, value in values.items():
            spec = specs.get(native)
            if spec is None or value is None:
                continue
            lad = spec.ladder
            if not lad.has_native(value):
                near = lad.nearest_native(value)
                col.loss("clamped", f"{path}.{native}", f"{native} {value} lies outside the table; read as {near}",
                         lad.steps[0].rule)
                value = near
            step = lad.step_of(value)
            out[spec.neutral] = step.rep
            if col.tracing:
                col.step(f"{path}.{native}", f"{native} {value}", f"{spec.neutral} percentile {step.rep:.3f}",
                         rules=[step.rule], source=step.source)
        return out

    def characteristics_from_neutral(self, percentiles: Mapping[str, float], col: Collector,
                                     path: str = "$", default: float | None = 0.5) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for native, spec in self.characteristics().items():
            p = percentiles.get(spec.neutral)
            if p is None:
                if default is None:
                    continue
                p = default
                col.loss("assumed", f"{path}.{native}",
                         f"no {spec.neutral} in the source; {native} set to the adult median", spec.ladder.steps[0].rule)
            step = spec.ladder.step_for(p)
            out[native] = step.native
            if col.tracing:
                col.step(f"{path}.{native}", None, f"{spec.neutral} percentile {p:.3f}", f"{native} {step.native}",
                         rules=[step.rule], source=step.source)
        return out

    def skills_to_neutral(self, levels: Mapping[str, Any], col: Collector, path: str = "$",
                          context: Mapping[str, Any] | None = None) -> dict[str, float]:
        out: dict[str, float] = {}
        spec = self.skills()
        for native, level in levels.items():
            keys = spec.get(native)
            if not keys:
                col.loss("unsupported-field", f"{path}.{native}", f"skill {native!r} has no neutral equivalent")
                continue
            chance = float(self.standard_chance(native, level, context))
            for k in keys:
                out[k] = max(out.get(k, 0.0), chance)
            if col.tracing:
                lad = self.skill_ladder(native, context)
                col.step(f"{path}.{native}", f"{native} {level}", f"standard-task chance {chance:.3f}",
                         rules=sorted({lad.steps[0].rule}), source=lad.steps[0].source)
        return out

    def skills_from_neutral(self, chances: Mapping[str, float], col: Collector, path: str = "$",
                            context: Mapping[str, Any] | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {}
        spec = self.skills()
        for native, keys in spec.items():
            present = [(k, chances[k]) for k in keys if k in chances]
            if not present:
                continue
            values = {round(c, 6) for _, c in present}
            chance = max(c for _, c in present)
            if len(values) > 1:
                col.loss("merged", f"{path}.{native}",
                         f"{native} covers {', '.join(k for k, _ in present)}; the best ({chance:.3f}) is kept")
            lad = self.skill_ladder(native, context)
            step = lad.step_for(chance)
            out[native] = step.native
            if col.tracing:
                col.step(f"{path}.{native}", None, f"standard-task chance {chance:.3f}",
                         f"{native} {step.native} (P = {step.rep:.3f})", rules=[step.rule], source=step.source)
        covered = {k for keys in spec.values() for k in keys}
        for k in chances:
            if k not in covered:
                col.loss("unsupported-field", f"{path}.{k}", f"{self.name} has no skill for {k}")
        return out


# ---- ladder builders shared by systems --------------------------------------------

def percentile_ladder(name: str, dist: Mapping[int, Fraction] | Dist, rule: str, source: Source) -> Ladder:
    """Native values distributed as `dist` among ordinary adults -> percentile ladder.
    Value v covers the percentile interval [P(X < v), P(X <= v)); its representative is
    the middle of that interval."""
    rows = []
    below = Fraction(0)
    for v in sorted(dist):
        p = Fraction(dist[v])
        if p == 0:
            continue
        rows.append(Step(v, float(below), rule, source, rep=float(below + p / 2)))
        below += p
    return Ladder.build(name, "percentile", rows, rounding="down", native_order="increasing")


def chance_ladder(name: str, levels: Iterable[tuple[Any, float | Fraction]], rule: str, source: Source,
                  native_order: str = "increasing") -> Ladder:
    """Native levels with their standard-task chance -> a ladder over probability that
    rounds to the nearest chance. Levels whose chance equals a lower level's add nothing
    a conversion could tell apart and are left out (the lowest level of a run is kept)."""
    rows: list[Step] = []
    last = None
    for level, chance in levels:
        c = float(chance)
        if last is not None and c <= last:
            continue
        rows.append(Step(level, c, rule, source))
        last = c
    return Ladder.build(name, "probability", rows, rounding="nearest", native_order=native_order)  # type: ignore[arg-type]


def standard_shot_for(weapon_class: str, skill: float = 0.5) -> Shot:
    return standard_shot(weapon_class, skill)


Converter = Callable[[Any], Result[Any]]
__all__ = [
    "System", "CharacteristicSpec", "percentile_ladder", "chance_ladder", "standard_shot_for",
    "SKILLS",
]
