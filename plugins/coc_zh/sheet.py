"""The Chinese edition's stat block, armor lines and shot as xsys's neutral model, and back: coc's
conversions with the armor list's identity rows and the variant's documents. :class:`CocZhSheet`
adds these conversions to the game (rules.py).
"""

from __future__ import annotations

import math
from typing import Any

import msgspec

from xsys.core import armorline
from xsys.core.catalog import strip_entry
from xsys.core.model import Armor, Barrier, Combatant, Shot
from xsys.core.trace import Collector, Result
from xsys.core.units import Energy

from .model import CocZhArmor, CocZhNpc, CocZhShot
from .rules import CocZhRules, INCH, _catalog, parent


class CocZhSheet(CocZhRules):
    """The conversions of :class:`CocZhSystem`'s documents to and from the neutral model."""

    # the rules its shot writes by (core.audit cites them): its own darkness and armor list
    shot_rules = {"light.illuminance": "coc-zh.darkness", "target.armor": "coc-zh.armor.table", "weapon": "coc-ja.damage"}

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
            if col is not None:  # said, as every system says an armor line it reads from its points
                col.loss("assumed", f"{path}.points", armorline.points_note(a.name, f"armor {pts}", float(out.stops)),
                         lad.step_of(pts).rule)
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
    def shot_own_to_neutral(self, shot: CocZhShot, col: Collector) -> dict[str, Any]:
        """coc's, and the armor value of what a hidden target stands behind, in both lists."""
        if shot.cover is not None:
            self.barrier_trace(col, "$.cover", Barrier(material=shot.cover.material, thickness=shot.cover.thickness))
        return super().shot_own_to_neutral(shot, col)

    def shot_own_from_neutral(self, shot: Shot, col: Collector) -> dict[str, Any]:
        if shot.target.cover.barrier is not None:
            self.barrier_trace(col, "$.cover", shot.target.cover.barrier)
        return super().shot_own_from_neutral(shot, col)
