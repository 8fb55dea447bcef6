"""Call of Cthulhu with the Chinese core combat rules (the Chinese CoC combat text, digest
shared/rules/coc-zh-combat.md) as a variant of ``coc``.

Built as an outside author would build it: only public names of ``xsys.core.*`` and of
``xsys.plugins.coc``; :class:`CocZhSystem` subclasses ``CocSystem`` and overrides only
what this text says differently (README.md, "How coc-zh builds on coc"):

- the armor list (``coc-zh.armor.table``): ``armor_path()`` / ``armor_data()`` (armor.toml),
  ``armor_ladders()`` (nominal sizes), ``armor_value()`` (the list's items by identity);
- darkness (``coc-zh.darkness``): ``darkness_ladder()`` and ``light_effect()`` (also: a
  partly concealed target is no harder to hit, ``coc-zh.partial-concealment``);
- impales (``coc-zh.impale``): ``resolve()`` (d100 <= chance / 5) and ``evaluate()`` (all
  firearms impale, shot included);
- one armor value per item: the native Structs and their conversions;
- the rule register and the few tables that differ: ``tables()`` merges tables.toml over
  coc's.

Everything else (firearms, range, stances, autofire, characteristics, skills, weapons)
is coc's.
"""

from __future__ import annotations

import contextvars
import copy
import dataclasses
import math
import re
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from typing import Any, ClassVar, Mapping, Sequence

import msgspec

from xsys.core import armorline, dice
from xsys.core.catalog import strip_entry
from xsys.core.formulas import Formula
from xsys.core.ladder import Ladder, Step
from xsys.core.model import Armor, Barrier, Combatant, Shot
from xsys.core.trace import Check, Collector, Modifier, Result, fraction_text
from xsys.core.units import Energy, Length, parse
from xsys.plugins.coc import CocSystem, LightEffect, Situation
from xsys.plugins.coc import rules as coc_rules

from . import rules
from .model import CocZhArmor, CocZhNpc, CocZhShot

# Called locations that do impale damage as a head shot (coc-ja.aimed.effects, inherited).
HEAD = frozenset({"head", "skull", "eye", "face", "jaw", "nose"})
INCH = 0.0254
# coc-zh.darkness "at least halve": while True, light_effect() leaves the x1/2 out and
# evaluate() applies it to the whole-percent chance, rounded down (45% -> 22%).
_FLOOR_HALF: contextvars.ContextVar[bool] = contextvars.ContextVar("coc_zh_floor_half", default=False)
HALF = Fraction(1, 2)


def _catalog():
    from xsys.core.registry import catalog

    return catalog()


@lru_cache(maxsize=None)
def parent() -> CocSystem:
    """The system coc-zh varies: what `coc` would say (for the trace's comparisons)."""
    return CocSystem()


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), Mapping):
            out[k] = _merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


@lru_cache(maxsize=None)
def merged_tables() -> dict[str, Any]:
    """coc's tables with coc-zh's tables.toml over them (key by key; [replaces].tables whole),
    without the coc-ja rules coc-zh replaces ([replaces].rules)."""
    base = copy.deepcopy(parent().tables())
    mine = rules.tables()
    whole = set(mine["replaces"]["tables"])
    for key, value in mine.items():
        if key == "replaces":
            continue
        if key in whole or not isinstance(value, Mapping) or not isinstance(base.get(key), Mapping):
            base[key] = copy.deepcopy(value)
        else:
            base[key] = _merge(base[key], value)
    for rid in mine["replaces"]["rules"]:
        base["rule"].pop(rid, None)
    return base


def _energy(x: Any) -> float:
    return float(parse(x, Energy)) if isinstance(x, str) else float(x)


def _wild(a: float, b: float) -> bool:
    """Two armor values 'disagree wildly': one is at least twice the other and they are at
    least 5 points apart (15 cm concrete: 40 and 9)."""
    lo, hi = sorted((a, b))
    return hi >= 2 * lo and hi - lo >= 5


class CocZhSystem(CocSystem):
    """Call of Cthulhu (d100, BRP family) with the Chinese core combat rules, over coc's
    firearms rules."""

    key: ClassVar[str] = "coc-zh"
    name: ClassVar[str] = "Call of Cthulhu (Chinese combat rules)"
    edition: ClassVar[str] = "5th/6th edition framework, Chinese core combat rules over coc's firearms rules"
    dice: ClassVar[str] = "d100 roll-under"
    rule_prefix: ClassVar[str] = "coc-zh."
    npc_type: ClassVar[type] = CocZhNpc
    shot_type: ClassVar[type | None] = CocZhShot
    #: the system this one varies; its native data in Combatant.native is read and written
    #: for what both stat blocks share (skills without a neutral key, weapon lines, HP).
    parent_key: ClassVar[str] = CocSystem.key

    def __init__(self, settings: Any = None) -> None:
        super().__init__(settings)
        self._zh_armor_data: dict[str, Any] | None = None
        self._zh_armor_ladders: dict[str, Ladder] | None = None
        self._zh_identity: dict[str, dict[str, Any]] | None = None

    # close combat (core.melee): this text states the darkness, dodge, parry and armor
    # rules coc reads for close combat (coc's melee_check_at, with these rule IDs)
    MELEE_RULES: ClassVar[dict[str, tuple[str, str]]] = {
        "darkness": ("coc-zh.darkness", "seed"),  # moonlight: at least halved; darkness: 01%
        "dodge": ("coc-zh.dodge", "assumed"),  # everyone has Dodge (seed); a success avoids the blow (assumed)
        "parry": ("coc-zh.parry.bodily", "seed"),  # bodily attacks parry one another
        "parry-weapon": ("coc-zh.parry.vs-weapons", "seed"),  # a bodily parry of a weapon takes the damage
        "armor": ("coc-zh.armor.table", "seed"),  # heavy leather jacket 1
    }

    # ==== tables =======================================================================
    def text_layout(self) -> Any:
        """coc's block (xsys.plugins.coc.text), claiming the blocks written in Chinese; its
        armor is one number of points."""
        from xsys.plugins.coc import CocText

        return CocText(self.key, chinese=True)

    def tables(self) -> dict[str, Any]:
        """coc's tables.toml with coc-zh's over it (rule register, darkness matrix,
        exposure, skills, and coc-zh's own rule tables)."""
        return merged_tables()

    def formulas(self) -> Sequence[Formula]:
        """coc's formulas of the coc-ja.* rules coc-zh keeps, and coc-zh's own (formulas.py)."""
        from .formulas import FORMULAS

        return (*super().formulas(), *FORMULAS)

    # ==== armor list: coc-zh.armor.table ===============================================
    def armor_path(self) -> Any:
        return resources.files(__package__).joinpath("armor.toml")

    def armor_data(self) -> dict[str, Any]:
        """armor.toml with the whole-point worn rows of its [fill] table added: linear in
        joules between the list's anchors, and beyond the last one to ``extend_to`` at the
        last segment's slope (assumed)."""
        if self._zh_armor_data is None:
            data = copy.deepcopy(super().armor_data())
            head, fill = data["armor"], data.get("fill", {})
            anchors = sorted(head["worn"], key=lambda r: _energy(r["at"]))
            rows: list[dict[str, Any]] = []
            for r0, r1 in zip(anchors, anchors[1:]):
                rows.append(r0)
                rows += self._fill_between(r0, r1, head["rule"])
            rows.append(anchors[-1])
            if len(anchors) >= 2 and "extend_to" in fill:
                r0, r1 = anchors[-2], anchors[-1]
                slope = (_energy(r1["at"]) - _energy(r0["at"])) / (r1["A"] - r0["A"])
                for a in range(r1["A"] + 1, int(fill["extend_to"]) + 1):
                    rows.append({"label": f"{a} points (beyond {r1['label']})",
                                 "at": _energy(r1["at"]) + slope * (a - r1["A"]), "A": a, "source": "assumed"})
            head["worn"] = rows
            self._zh_armor_data = data
        return self._zh_armor_data

    @staticmethod
    def _fill_between(r0: Mapping[str, Any], r1: Mapping[str, Any], rule: str) -> list[dict[str, Any]]:
        j0, j1, a0, a1 = _energy(r0["at"]), _energy(r1["at"]), r0["A"], r1["A"]
        return [{"label": f"{a} points (between {r0['label']} and {r1['label']})",
                 "at": j0 + (j1 - j0) * (a - a0) / (a1 - a0), "A": a, "rule": rule, "source": "assumed"}
                for a in range(a0 + 1, a1)]

    def armor_ladders(self) -> dict[str, Ladder]:
        """coc's ladders of this armor file, with the list's nominal sizes: a barrier within
        ``nominal_tolerance`` below a listed thickness is that row (15 cm concrete is the
        6 in row); generated rows are labelled in inches."""
        if self._zh_armor_ladders is None:
            lads = super().armor_ladders()
            data = self.armor_data()
            tol = float(coc_rules.frac(data.get("fill", {}).get("nominal_tolerance", 0)))
            anchors: dict[str, list[float]] = {}
            for r in data["armor"].get("barrier", []):
                anchors.setdefault(r["material"], []).append(float(parse(r["thickness"], Length)))
            for name, lad in list(lads.items()):
                material = name.removeprefix("armor.barrier.")
                if material == name or material not in anchors:
                    continue
                nominal = anchors[material]
                steps = []
                for s in lad.steps:
                    t = next((x for x in nominal if math.isclose(s.at, x, rel_tol=1e-9)), None)
                    if t is not None:  # a listed thickness represents itself
                        steps.append(Step(s.native, t * (1 - tol), s.rule, s.source, s.label, rep=t))
                    elif any(x * (1 - tol) <= s.at < x for x in nominal):
                        continue  # inside a listed thickness's nominal band
                    else:
                        label = s.label if s.source == "seed" or s.native == 0 else f"{s.at / INCH:.3g} in {material}"
                        steps.append(Step(s.native, s.at, s.rule, s.source, label))  # rep: the new step's middle
                lads[name] = Ladder.build(name, "m", steps, rounding="down")
            self._zh_armor_ladders = lads
        return dict(self._zh_armor_ladders)

    def _identity(self) -> dict[str, dict[str, Any]]:
        """The list's worn items by catalog id, catalog name and the list's own names."""
        if self._zh_identity is None:
            cat = _catalog()
            out: dict[str, dict[str, Any]] = {}
            for r in self.armor_data()["armor"]["worn"]:
                keys = [a.casefold() for a in r.get("aliases", [])]
                if r.get("catalog"):
                    keys.append(r["catalog"])
                    entry = cat.armor.get(r["catalog"])
                    if entry is not None:
                        keys.append(entry.name.casefold())
                for k in keys:
                    out[k] = r
            self._zh_identity = out
        return self._zh_identity

    def identity_row(self, armor: Armor) -> dict[str, Any] | None:
        """The armor-list row that names this item (catalog id or name), if any."""
        ident = self._identity()
        if armor.catalog and armor.catalog in ident:
            return ident[armor.catalog]
        return ident.get(armor.name.strip().casefold())

    def armor_value(self, armor: Armor) -> tuple[int, float, Step]:
        """coc-zh.armor.table: an item the list names is its row (seed: elephant hide is 4
        although the catalog credits it with fewer joules than the WWI helmet's 2); any
        other item by the joules it stops, the strongest row it reaches."""
        row = self.identity_row(armor)
        if row is not None:
            step = self.armor_ladders()["armor.worn"].step_of(row["A"])
            return step.native, 0.0, dataclasses.replace(step, source="seed", label=row["label"])
        return super().armor_value(armor)

    def barrier_value(self, barrier: Barrier) -> tuple[int, float, Step, str]:
        """coc's lookup (the material's own rows, else the joules it stops); a material the
        list does not name is read on the joule axis, an assumption whatever row it hits."""
        A, B, step, name = super().barrier_value(barrier)
        if name == "armor.barrier.generic":
            step = dataclasses.replace(step, source="assumed")
        return A, B, step, name

    def _compare(self, mine: tuple[int, Step], theirs: tuple[Any, Any, Step]) -> tuple[list[str], str]:
        """Rule IDs and note comparing coc-zh's armor value with coc's for the same thing."""
        A, step = mine
        cA, cB, cstep = theirs
        note = f"{cstep.rule}: {cA}/{float(cB):g} ({cstep.label}); {step.rule}: {A} ({step.label})"
        if _wild(A, cA):
            note += "; the two lists disagree wildly"
        return [step.rule, cstep.rule], note

    def armor_to_neutral(self, a: CocZhArmor, col: Collector | None = None, path: str = "$") -> Armor:
        """An armor item as what it physically is: its catalog item (by ``catalog``, by
        catalog name, or by the list's own name), else the joules of its row. Only an
        explicit ``catalog`` id is carried, so conversions are stable after one trip."""
        cat = _catalog()
        entry = cat.find_armor(a.name, a.catalog, path=f"{path}.catalog")
        if entry is None:
            row = self._identity().get(a.name.strip().casefold())
            if row is not None and row.get("catalog"):
                entry = cat.armor.get(row["catalog"])
        lad = self.armor_ladders()["armor.worn"]
        if entry is not None:
            out = msgspec.structs.replace(strip_entry(entry), name=a.name, catalog=a.catalog)
            if a.stops is not None:
                out = msgspec.structs.replace(out, stops=a.stops)
        elif a.stops is not None:
            out = Armor(name=a.name, stops=a.stops)
        else:
            pts = a.points
            if not lad.has_native(pts):
                pts = lad.nearest_native(pts)
                if col is not None:
                    col.loss("clamped", f"{path}.points", f"armor {a.points} is beyond the list; read as {pts}",
                             "coc-zh.armor.table")
            out = Armor(name=a.name, stops=Energy(lad.neutral(pts)))
        if col is not None:
            A, _, step = self.armor_value(out)
            if entry is not None and A != a.points:
                col.loss("assumed", f"{path}.points", f"{a.name!r} is armor {a.points} here, but the list gives "
                         f"what it is ({entry.id}) {A}; it converts by what it is", "coc-zh.armor.table")
            ids, note = self._compare((A, step), parent().armor_value(out))
            col.step(path, f"{a.name}: armor {a.points}", f"stops {float(out.stops):g} J", None, rules=ids,
                     source=step.source, note=note)
        return armorline.restore(out, a.covers, a.deflection, col, path, "coc-zh.armor.table")

    def armor_from_neutral(self, armor: Armor, col: Collector | None = None, path: str = "$") -> CocZhArmor:
        A, _, step = self.armor_value(armor)
        if col is not None:
            ids, note = self._compare((A, step), parent().armor_value(armor))
            col.step(path, armor.name, f"stops {float(armor.stops):g} J", f"armor {A} ({step.label})", rules=ids,
                     source=step.source, note=note)
        # keep the physical value, the coverage and the deflection unless the row, the catalog item
        # (by id or name) or the list's own item gives them back (xsys.core.armorline)
        line = CocZhArmor(name=armor.name, points=A, catalog=armor.catalog)
        back = self.armor_to_neutral(line)
        keep = not math.isclose(float(armor.stops), float(back.stops), rel_tol=1e-9)
        more = armorline.extras(armor, back)
        if "deflection" in more and col is not None:
            col.loss("kept-verbatim", f"{path}.deflection", armorline.deflection_note(armor, "coc-zh"), step.rule)
        return msgspec.structs.replace(line, stops=armor.stops if keep else None, **more)

    def barrier_trace(self, col: Collector, path: str, barrier: Barrier) -> None:
        """Trace a barrier's armor value in coc-zh and in coc (both rule IDs)."""
        A, _, step, _ = self.barrier_value(barrier)
        ids, note = self._compare((A, step), parent().barrier_value(barrier)[:3])
        t = float(barrier.thickness)
        col.step(path, f"{t * 100:g} cm ({t / INCH:.3g} in) {barrier.material}",
                 f"stops {_catalog().barrier_stops(barrier):g} J", f"armor {A} ({step.label})", rules=ids,
                 source=step.source, note=note)

    # ==== darkness: coc-zh.darkness =====================================================
    def darkness_ladder(self) -> Ladder:
        """coc-zh.darkness over lux: total darkness / dim light / daylight (breakpoints
        assumed, tables.toml)."""
        return rules.table_ladders()["darkness"]

    def light_effect(self, sit: Situation) -> LightEffect:
        """coc's light rules on coc-zh's levels and matrix (x1/2, 01%; lights, night vision,
        thermal and tritium as coc), plus what a target's concealment does:
        coc-zh.partial-concealment (a partly concealed target is no harder to hit) and, for
        a target that cannot be seen at all, coc-zh.darkness's "much harder to hit" as x1/2
        (assumed), not on top of a light penalty as large."""
        eff = super().light_effect(sit)
        visible = coc_rules.table_ladders()["exposure"].step_for(sit.exposure)
        if visible.native == 0:
            u = self.tables()["unseen"]
            m = coc_rules.frac(u["multiply"])
            why = "the target cannot be seen (wholly behind its cover): much harder to hit"
            if eff.cap is None and eff.multiply > m:
                eff = dataclasses.replace(eff, multiply=m, modifiers=[
                    Modifier(rule=u["rule"], kind="multiply", value=u["multiply"], source=u["source"], why=why)])
            else:
                eff.modifiers.append(Modifier(rule=u["rule"], kind="multiply", value=1, source=u["source"],
                                              why=why + "; the light already costs as much"))
        elif visible.native < coc_rules.table_ladders()["exposure"].natives[-1]:
            eff.modifiers.append(Modifier(rule="coc-zh.partial-concealment", kind="multiply", value=1, source="seed",
                                          why=f"target shows {visible.label}: a partly concealed target is no "
                                              "harder to hit"))
        if _FLOOR_HALF.get() and self._halves(eff):
            mods = [msgspec.structs.replace(m, value=1, why=m.why + "; halved below, rounded down")
                    if self._is_halving(m) else m for m in eff.modifiers]
            eff = dataclasses.replace(eff, multiply=Fraction(1), modifiers=mods)
        return eff

    @staticmethod
    def _is_halving(m: Modifier) -> bool:
        return m.rule == "coc-zh.darkness" and m.kind == "multiply" and str(m.value) == "1/2"

    def _halves(self, eff: LightEffect) -> bool:
        """The light's effect is coc-zh.darkness's x1/2 (poor visibility, or a target that
        cannot be seen), which "at least halves" the chance: rounded down, not up."""
        return eff.cap is None and eff.multiply == HALF and any(self._is_halving(m) for m in eff.modifiers)

    # ==== resolution: coc-zh.impale ======================================================
    def resolve(self, target: int) -> dice.Outcomes:
        """d100 <= target hits (coc-ja.resolution, inherited); coc-zh.impale: an impale on
        d100 <= target / 5, i.e. <= floor(target / 5) for a whole-number roll."""
        t = max(0, target)
        return dice.Outcomes(dice.d100_at_most(t), critical_success=dice.d100_at_most(rules.impale_threshold(t)))

    def impale_threshold(self, target: int) -> int:
        return rules.impale_threshold(target)

    def evaluate(self, sit: Situation, extra: Sequence[Modifier] = (), with_damage: bool = True) -> Check:
        """coc's evaluation; then coc-zh.impale's "all firearms impale": shotgun shot, which
        coc never lets impale, impales here (damage dice rolled twice, armor per die as
        coc-ja.armor.shotgun-pellets).

        coc-zh.darkness: poor visibility "at least halves" the chance, so the x1/2 rounds
        down (45% -> 22%), where coc rounds every chance up: the chance without the light is
        found first, then halved and set before any house-rule modifier (as coc orders them)."""
        if not self._halves(self.light_effect(sit)):
            return self._evaluate_zh(sit, extra, with_damage)
        token = _FLOOR_HALF.set(True)
        try:
            probe = super().evaluate(sit, (), with_damage=False)
            before = _chance_before_location(probe)
            half = before // 2
            why = self._halving_why(sit)
            setm = Modifier(rule="coc-zh.darkness", kind="set", value=half,
                            source="seed" if why.startswith("poor") else self.tables()["unseen"]["source"],
                            why=f"{why}: {before}% at least halved, rounded down -> {half:02d}%")
            return self._evaluate_zh(sit, (setm, *extra), with_damage)
        finally:
            _FLOOR_HALF.reset(token)

    def _halving_why(self, sit: Situation) -> str:
        visible = coc_rules.table_ladders()["exposure"].step_for(sit.exposure)
        return "the target cannot be seen" if visible.native == 0 else "poor visibility"

    def _evaluate_zh(self, sit: Situation, extra: Sequence[Modifier], with_damage: bool) -> Check:
        check = super().evaluate(sit, extra, with_damage)
        imp = check.outcomes.get("impale", Fraction(0))
        thr = int(imp * 100)
        notes = list(check.notes)
        # The impale is read against the chance before the autofire penalty (coc resolves
        # it on T, the one-hit chance), not against the burst's penalised target M.
        burst_penalty = sum(int(m.value) for m in check.modifiers
                            if m.rule == "coc-ja.autofire.penalty" and m.kind == "add")
        base = int(check.target) - burst_penalty
        what = f"{base}%" + (f", the one-hit chance before the burst penalty ({int(check.target)}% after it)"
                             if burst_penalty else "")
        if thr:
            notes.append(f"coc-zh.impale: d100 01-{thr:02d} impales (1/5 of {what}, rounded down)")
        else:
            notes.append(f"coc-zh.impale: no impale below 5% ({what})")
        fields: dict[str, Any] = {"notes": notes}
        if with_damage and check.damage_mean is not None:
            nw = sit.native_weapon or self.weapon_defaults(sit.weapon)
            roll, pellets = self.damage_roll(sit, nw)
            if pellets:
                fields["damage_mean"] = float(self._shot_damage_mean(sit, roll, check))
                # coc's distribution lets no pellet impale; here an impale rolls the dice twice
                fields["damage"] = self._pellet_distribution(sit, roll, check)
        return msgspec.structs.replace(check, **fields)

    def _pellet_distribution(self, sit: Situation, roll: str, check: Check) -> dict[str, str] | None:
        """Exact damage of one unarmored single shot of pellets (coc-zh.impale): a hit rolls the
        dice once, an impale twice. Armor meets pellets die by die (coc-ja.armor.shotgun-pellets),
        and bursts, double taps and called shots have their own reading: those keep the mean."""
        A, _ = self.armor_points(sit)
        if (A or "mean_hits" in check.outcomes or sit.fire != "single" or sit.called_location
                or not check.chance):
            return None
        imp, chance = check.outcomes.get("impale", Fraction(0)), Fraction(check.chance)
        out: dict[int, Fraction] = {0: 1 - chance}
        for weight, dist in ((chance - imp, coc_rules.damage_distribution(roll)),
                             (imp, coc_rules.damage_rolled_twice(roll))):
            for v, p in dist.items():
                out[v] = out.get(v, Fraction(0)) + weight * p
        return {str(v): fraction_text(p) for v, p in sorted(out.items()) if p}

    def _shot_damage_mean(self, sit: Situation, roll: str, check: Check) -> Fraction:
        A, _ = self.armor_points(sit)
        e1 = coc_rules.mean_pellets_after_armor(roll, A)
        e2 = rules.tables()["impale"]["times"] * e1  # each roll of the dice meets the armor die by die
        imp, chance = check.outcomes.get("impale", Fraction(0)), check.chance
        if "mean_hits" in check.outcomes:
            return check.outcomes["mean_hits"] * e1 + imp * (e2 - e1)
        if sit.fire == "mozambique" or sit.called_location in HEAD:
            return chance * e2
        one = (chance - imp) * e1 + imp * e2
        return 2 * one if sit.fire == "double tap" else one

    # ==== npc conversions ================================================================
    def npc_to_neutral(self, npc: CocZhNpc) -> Result[Combatant]:
        """coc's conversion (armor through :meth:`armor_to_neutral`). What coc-zh shares with
        coc and the neutral model cannot hold (skills coc has no neutral key for, weapon
        lines, HP) is also written for coc, so a trip through coc keeps it."""
        res = super().npc_to_neutral(npc)
        comb = res.value
        mine = comb.native.get(self.key, {})
        coc_skills = parent().skills()
        shared: dict[str, Any] = {}
        skills = {k: v for k, v in npc.skills.items() if k not in coc_skills}
        if skills:
            shared["skills"] = skills
        for k in ("weapons", "HP"):
            if k in mine:
                shared[k] = mine[k]
        if shared:
            comb = msgspec.structs.replace(comb, native={**comb.native, self.parent_key: shared})
        return Result(comb, res.losses, res.trace)

    def npc_from_neutral(self, combatant: Combatant) -> Result[CocZhNpc]:
        """coc's conversion, reading coc-zh's own native data or else coc's (same skills and
        weapon lines); armor always goes by what it physically is."""
        native = combatant.native.get(self.key)
        if native is None:  # coc's verbatim data, less the skills the neutral model now carries
            native = dict(combatant.native.get(self.parent_key, {}))
            mapped = self.skills()
            if "skills" in native:
                native["skills"] = {k: v for k, v in native["skills"].items()
                                    if not (mapped.get(k) and all(n in combatant.skills for n in mapped[k]))}
        native = {k: v for k, v in native.items() if k != "armor"}
        comb = msgspec.structs.replace(combatant, native={**combatant.native, self.key: native})
        res = super().npc_from_neutral(comb)
        npc = res.value
        out = CocZhNpc(**{f: getattr(npc, f) for f in CocZhNpc.__struct_fields__})
        return Result(out, res.losses, res.trace)

    # ==== shot conversions ===============================================================
    def shot_to_neutral(self, shot: CocZhShot) -> Result[Shot]:
        res = super().shot_to_neutral(shot)
        col = Collector(self.key)
        if res.value.target.cover.barrier is not None:
            self.barrier_trace(col, "$.cover", res.value.target.cover.barrier)
        return Result(res.value, res.losses + col.losses, res.trace + col.trace)

    def shot_from_neutral(self, shot: Shot) -> Result[CocZhShot]:
        res = super().shot_from_neutral(shot)
        col = Collector(self.key)
        if shot.target.cover.barrier is not None:
            self.barrier_trace(col, "$.cover", shot.target.cover.barrier)
        out = CocZhShot(**{f: getattr(res.value, f) for f in CocZhShot.__struct_fields__})
        return Result(out, res.losses + col.losses, res.trace + col.trace)


def _chance_before_location(check: Check) -> int:
    """The whole-percent chance coc computed before the location (x1/5), Mozambique or
    autofire step: what coc-zh.darkness halves."""
    for m in check.modifiers:
        if m.rule == "coc-ja.autofire.penalty" and m.kind == "add":
            return int(check.target) - int(m.value)
        if m.rule in ("coc-ja.aimed.location", "coc-ja.mozambique") and m.kind == "set":
            found = re.search(r"of (\d+)%", m.why)
            if found:
                return int(found.group(1))
    return int(check.target)


__all__ = ["CocZhSystem", "merged_tables", "parent"]
