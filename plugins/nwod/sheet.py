"""The nWoD character sheet and shot as xsys's neutral model, and back: Attributes and Skills (equated),
Health, Defense and Speed by their rules, weapons (the weapon chart's lines), armor ratings, close
combat, and what only nWoD states, carried. :class:`NwodSheet` adds these conversions to the game
(rules.py).
"""

from __future__ import annotations

from typing import Any, Mapping

import msgspec

from xsys.core import armorline, carried
from xsys.core.catalog import capacity_note, damage_line_note, say_grenade, says_revolver, weapon_note
from xsys.core.codec import dec_hook, enc_hook
from xsys.core.errors import XsysError
from xsys.core.model import (THROWN_BLADE_ENERGY, Armor, Barrier, Combatant, Cover, MeleeWeapon, Shot, Weapon,
                             generic_weapon, melee_class_of, melee_class_words, melee_weapon, natural_attack,
                             thrown_blade)
from xsys.core.trace import Collector
from xsys.core.units import Energy, Illuminance, Length, brief, parse
from xsys.core.vocab import KIND_OF, POSTURE_HEIGHT

from .model import NwodArmor, NwodBarrier, NwodNpc, NwodShot, NwodWeapon
from .rules import (CHART, CONCEALMENT, CONCEALMENT_NAME, LIGHTING, MELEE_LINES, NwodRules, RANGE_LADDERS,
                    SHOT_THROUGH, TABLES, WINDOW, YARD, _LADDERS, _catalog, _catalog_entry, armor_on, barrier_stops,
                    chart_type_for, is_revolver, lighting, range_ladder, thrown_short_range)


LIGHTING_NAME = {v: k for k, v in LIGHTING.items()}
RANGE_PENALTY = {"short": 0, "medium": -2, "long": -4, "extreme": -6}
RANGE_NAME = {v: k for k, v in RANGE_PENALTY.items()}

CLIP = TABLES["clip"]


def chambers(weapon: Weapon, line: Mapping[str, Any]) -> tuple[bool, str]:
    """nwod.weapon.clip (assumed, README): whether the gun holds a round in the chamber beside a
    full magazine (the chart's "+1"), and why: only a closed-bolt gun fed from a magazine, tube or
    stripper clip; not a revolver, a break-action, a belt, an open bolt or an en-bloc clip."""
    entry = _catalog_entry(weapon)
    if entry is not None:
        if entry.feed in CLIP["no_chamber_feeds"]:
            return False, f"its feed is a {entry.feed}"
        if entry.id in CLIP["open_bolt"]:
            return False, "it fires from an open bolt"
        if entry.id in CLIP["en_bloc"]:
            return False, "its chambered round is one of its en-bloc clip's"
        return True, f"a closed bolt fed from a {entry.feed or 'magazine'}"
    if is_revolver(weapon):
        return False, "a revolver holds its rounds in the cylinder"
    if weapon.weapon_class == "shotgun" and (0 < weapon.capacity <= 2 or any(
            word in weapon.name.lower() for word in CLIP["break_action_words"])):
        return False, "a break-action holds its rounds in the barrels"
    if weapon.weapon_class in ("handgun", "rifle", "carbine") and (0 < weapon.capacity <= 2 or any(
            word in weapon.name.lower() for word in CLIP.get("barrel_gun_words", ()))):
        # a derringer, a flare pistol, a single-shot rifle: no magazine to hold more beside
        return False, "a one- or two-shot gun holds its rounds in its barrels"
    if weapon.weapon_class == "mg":
        return False, "a machine gun fires from an open bolt, off a belt"
    return bool(line.get("chamber", False)), f"its chart line's ({'+1' if line.get('chamber') else 'no +1'})"


# Words of a weapon type that is no chart line ("Sniper Rifle", "Hunting Shotgun"), first
# match wins (assumed, README): the class the type names.
TYPE_WORDS = (("machine gun", "mg"), ("machinegun", "mg"), ("submachine", "smg"), ("smg", "smg"),
              ("shotgun", "shotgun"), ("carbine", "carbine"), ("rifle", "rifle"), ("revolver", "revolver"),
              ("pistol", "handgun"), ("handgun", "handgun"), ("grenade", "thrown"), ("thrown", "thrown"))


def weapon_class_of(w: "NwodWeapon", col: Collector | None = None, path: str = "$") -> str:
    """The neutral class of a native weapon line: its chart line's; for a type that is no
    chart line, the class its words name, else a guess from its traits, with a warning
    (never a silent handgun); with no type at all, what its name says (its catalog weapon, a
    class word: an `assumed` note), else the guess from its traits, with a warning. A chart
    line's class is refined by a revolver word in the name."""
    if w.type in CHART:
        return _catalog().weapon_class_named(w.name, CHART[w.type]["class"])  # a 'Revolver' on a Pistol line
    low = w.type.lower()
    cls = next((c for word, c in TYPE_WORDS if word in low), None) if low else None
    how = f"its type {w.type!r} names a {cls}" if cls else ""
    if cls is None and not w.type:
        entry, cls = _catalog().identify_weapon(w.name)  # no type: what its name says
        cls = entry.weapon_class if entry is not None else cls
        how = f"its name says a {cls}" if cls else ""
    if cls is None:
        cls = ("shotgun" if w.again == 9 else "handgun" if w.size <= 1 and not w.autofire
               else "smg" if w.autofire and w.size <= 2 else "rifle")
        how = (f"a {cls} by its traits (Size {w.size}, {'autofire' if w.autofire else 'no autofire'}"
               f"{', 9-again' if w.again == 9 else ''})")
    if col is not None:
        if w.type:
            col.loss("unsupported-field", f"{path}.type", f"{w.type!r} is not a Ranged Weapons Chart line ("
                     + ", ".join(CHART) + f"); {w.name!r} is read as {how}", "nwod.weapon.damage")
        elif how.startswith("its name"):
            col.loss("assumed", f"{path}.type", f"{w.name!r} names no chart line; read as {how}",
                     "nwod.weapon.damage")
        else:  # never a silent handgun: a guess from the traits alone is a warning
            col.loss("unsupported-field", f"{path}.type", f"{w.name!r} names no chart line and its name says no "
                     f"weapon or class; read as {how}: say its type (" + ", ".join(CHART) + ")",
                     "nwod.weapon.damage")
    return cls


def _find_catalog_weapon(name: str):
    try:
        return _catalog().find_weapon(name)
    except XsysError:
        return None


class NwodSheet(NwodRules):
    """The conversions of :class:`NwodSystem`'s documents to and from the neutral model."""

    def derived_fields(self) -> dict[str, tuple[tuple[str, ...], str]]:
        # nwod.derived (WoD p. 90-91), merits as the Merits chapter adds them
        return {"Health": (("Stamina", "Size"), "nwod.derived"),
                "Willpower": (("Resolve", "Composure"), "nwod.derived"),
                "Defense": (("Dexterity", "Wits"), "nwod.derived"),
                "Speed": (("Strength", "Dexterity", "merits.Fleet of Foot"), "nwod.derived"),
                "Initiative": (("Dexterity", "Composure", "merits.Fast Reflexes"), "nwod.derived")}

    def derived_values(self, npc: NwodNpc) -> dict[str, int]:
        return self.derived(npc)

    def sheet_blank(self, table: str, row: Mapping[str, Any]) -> frozenset[str]:
        """A close-combat or thrown line prints no gun columns: the Melee Weapons Chart has no
        clip, chamber or autofire, and a thrown weapon is one in the hand."""
        if table == "weapons" and (row.get("ranges") is None or str(row.get("type", "")).startswith("Thrown")):
            return frozenset({"clip", "chamber", "autofire"})
        return frozenset()

    def sheet_notes(self, npc: Any) -> dict[str, dict[str, str]]:
        """What each armor row covers, where a row is not torso-only (a helmet beside a vest)."""
        from xsys.core import armorline

        # nWoD rolls no hit location: an ordinary attack meets the body's armor, one aimed at a part
        # (WoD p. 165, specified targets) that part's; ratings do not add up
        notes = armorline.line_notes(npc, tail="an ordinary attack meets the body's armor, one aimed at the head "
                                               "the helmet's (the rows do not add up)")
        worn = self._armor_penalties(npc)
        if worn:
            notes.setdefault("armor", {})["general"] = worn
        return notes

    def _armor_penalties(self, npc: Any) -> str:
        """What the armor the NPC wears asks and costs him, by the Armor Chart's row of its rating
        (tables.toml [armor_chart], nwod.armor, assumed): its Strength, and his Defense and Speed
        in it (the worst piece's; penalties do not add up). "" where it costs nothing."""
        pieces = [a for a in getattr(npc, "armor", None) or [] if (a.general or a.ballistic) and not a.natural]
        if not pieces or not isinstance(npc, NwodNpc):
            return ""
        worst = [(a, self._chart_row(a)) for a in pieces]
        strength = max(r["strength"] for _, r in worst)
        armored = self._armored(npc)  # Defense and Speed in it, where it costs them
        if not armored and npc.Strength >= strength:
            return ""

        def costs(r: Mapping[str, Any]) -> str:
            return ", ".join([f"Strength {r['strength']}"] + [f"{k.title()} {r[k]:+d}" for k in ("defense", "speed")
                                                                if r[k]])

        said = "; ".join(f"{a.name} ({a.general}/{a.ballistic}) as the chart's {r['name']}: {costs(r)}" for a, r in worst
                         if r["defense"] or r["speed"] or r["strength"] > npc.Strength)
        short = f"; it needs Strength {strength}, the NPC has {npc.Strength}" if npc.Strength < strength else ""
        d = self._unarmored(npc)
        worn = [f"{k} {d[k]} becomes {v}" for k, v in armored.items() if v != d[k]]
        return (f"{said} (nwod.armor, assumed: the Armor Chart's modern rows)"
                + (f"; worn, {' and '.join(worn)}" if worn else "") + short)

    def _unarmored(self, npc: NwodNpc) -> dict[str, int]:
        """The sheet's own derived values where it states them, else the rule's (nwod.derived)."""
        return {k: getattr(npc, k) if getattr(npc, k, None) is not None else v for k, v in self.derived(npc).items()}

    def sheet_derived(self, npc: NwodNpc) -> dict[str, tuple[Any, str]]:
        """Health, Willpower, Defense, Speed and Initiative by nwod.derived where the block
        leaves them out: an nWoD sheet always shows them."""
        out = {k: (v, "nwod.derived") for k, v in self.derived(npc).items() if getattr(npc, k) is None}
        # and, where the armor worn costs them, Defense and Speed in it (nwod.armor, assumed)
        worn = self._armored(npc)
        out.update({f"{k} in armor": (v, "nwod.armor") for k, v in worn.items()})
        return out

    def _armored(self, npc: Any) -> dict[str, int]:
        """Defense and Speed in the armor the NPC wears, where it costs them (the Armor Chart's
        row of the worst piece's rating: _armor_penalties)."""
        if not isinstance(npc, NwodNpc):
            return {}
        rows = [self._chart_row(a) for a in npc.armor if (a.general or a.ballistic) and not a.natural]
        if not rows:
            return {}
        d = self._unarmored(npc)
        defense, speed = min(r["defense"] for r in rows), min(r["speed"] for r in rows)
        out = {}
        if defense:
            out["Defense"] = max(0, d["Defense"] + defense)
        if speed:
            out["Speed"] = d["Speed"] + speed
        return out

    @staticmethod
    def _chart_row(a: NwodArmor) -> dict[str, Any]:
        """The Armor Chart's row of a piece's rating (tables.toml [armor_chart]): its ballistic
        rating's, a general-only piece reinforced clothing's, above the last row the last."""
        rows = TABLES["armor_chart"]["rows"]
        if not a.ballistic:
            return rows[0]
        fit = [r for r in rows if r["ballistic"] <= a.ballistic]
        return fit[-1] if fit else rows[0]

    def _skill_context(self, npc: NwodNpc | Mapping[str, int]) -> dict[str, int]:
        if isinstance(npc, NwodNpc):
            return {a: getattr(npc, a) for a in self.ATTRIBUTES}
        return dict(npc)

    def weapon_to_neutral(self, w: NwodWeapon, col: Collector, path: str) -> Weapon | MeleeWeapon:
        # close combat: its class crosses, its line is carried (xsys.core.sheet); a Thrown line need
        # state no ranges, which are its thrower's (nwod.range: Strength + Dexterity + Athletics - Size)
        if w.ranges is None and w.type != "Thrown":
            cls = melee_class_of(w.name, w.type)
            natural = natural_attack(w.name, w.type)
            col.loss("kept-verbatim", path, f"close-combat weapon {w.name!r} crosses as "
                     f"{melee_class_words('natural' if natural else cls)}; its nWoD line is kept "
                     f"(carried.nwod.melee.{w.name})", "nwod.melee")
            if col.tracing:
                col.step(path, f"{w.name} (damage {w.damage}, Size {w.size})",
                         f"melee {cls}" + (" (natural)" if natural and cls == "unarmed" else ""), rules=["nwod.melee"],
                         source="assumed")
            return melee_weapon(w.name, cls, natural)
        try:
            from xsys.core.catalog import strip_entry

            # its catalog weapon: by id, else what its name says, when its chart line is of that kind
            entry = _catalog().weapons.get(w.catalog) if w.catalog else _catalog().identify_weapon(w.name)[0]
            if entry is not None and not w.catalog and w.type in CHART and \
                    CHART[w.type]["class"] not in (entry.weapon_class, KIND_OF.get(entry.weapon_class)):
                entry = None
            if entry is not None:
                if col.tracing:
                    col.step(path, w.name, f"catalog {entry.id}", rules=["nwod.weapon.damage"], source="assumed")
                # the line's own clip is this gun's magazine (nwod.weapon.clip): a stated one wins
                out = msgspec.structs.replace(strip_entry(entry), name=w.name, capacity=w.clip or entry.capacity)
                if w.clip and w.clip != entry.capacity:
                    col.loss("assumed", f"{path}.clip", f"{w.name}: the line states Clip {w.clip}; catalog "
                             f"weapon {entry.id} holds {entry.capacity}: the stated {w.clip} is kept", "nwod.weapon.clip")
                rating = self.weapon_stats(out)[2]
                if w.damage != rating:  # one weapon, one damage line: the catalog weapon's rating
                    col.loss("merged", f"{path}.damage", damage_line_note(w.name, _catalog().weapon_basis(out),
                                                                          str(rating), str(w.damage)),
                             "nwod.weapon.damage")
                self._chamber_loss(w, out, col, path)
                return out
        except XsysError:
            pass
        cls = weapon_class_of(w, col, path)
        energy = _LADDERS["weapon_damage"].neutral(min(w.damage, 6))
        blade = thrown_blade(cls, w.name)
        if blade is not None and w.damage == MELEE_LINES[blade][1]:
            # a thrown blade at its Melee Weapons Chart damage is its class's blade (the same
            # hatchet in every system: core.model.THROWN_BLADE_ENERGY), not a bullet of that rating
            energy = THROWN_BLADE_ENERGY[blade]
        modes = ["semi", "auto"] if w.autofire else ["semi"]
        # the energy its damage rating stands for (assumed): said, as every system says it
        col.loss("assumed", f"{path}.damage", weapon_note(w.name, f"damage {w.damage}", energy), "nwod.weapon.damage")
        if col.tracing:
            col.step(path, f"{w.name} (damage {w.damage})", f"{cls}, {energy:g} J", rules=["nwod.weapon.damage"],
                     source="assumed")
        # the weapon keeps its own name: "Ingram MAC-10", not its chart line
        # the clip is the neutral capacity (the rounds in the magazine, nwod.weapon.clip); the
        # chamber's "+1" has no neutral field and follows the weapon's kind on the way back
        out = Weapon(name=w.name, weapon_class=cls, muzzle_energy=Energy(energy), fire_modes=modes, capacity=w.clip,
                     sights="none" if cls == "thrown" else "iron")
        self._chamber_loss(w, out, col, path)
        say_grenade(col, path, out)
        return out

    @staticmethod
    def _chamber_loss(w: NwodWeapon, out: Weapon, col: Collector, path: str) -> None:
        """The chamber's "+1" has no neutral field: coming back it follows the gun's kind
        (nwod.weapon.clip); a line that says otherwise is reported."""
        if w.chamber != chambers(out, CHART.get(chart_type_for(out), {}))[0]:
            col.loss("rounded", f"{path}.chamber", f"{w.name!r} {'has a' if w.chamber else 'has no'} round in the "
                     f"chamber ({'+1' if w.chamber else 'no +1'}); the neutral model has no place for it, and a gun "
                     f"of its kind reads back "
                     f"{'without' if w.chamber else 'with'} one", "nwod.weapon.clip")

    def weapon_from_neutral(self, w: Weapon, col: Collector, path: str,
                            kept: Mapping[str, Any] | None = None) -> NwodWeapon:
        t, entry, dmg, rule, src = self.weapon_stats(w)
        blade = thrown_blade(w.weapon_class, w.name)
        if blade is not None and dmg != MELEE_LINES[blade][1]:
            # a thrown knife, hatchet or spear does its Melee Weapons Chart damage (nwod.melee), as
            # in the hand: not the rating of a bullet of its energy (a knife was 0)
            col.loss("assumed", f"{path}.damage", f"{w.name}: a thrown {blade} does the chart's {MELEE_LINES[blade][0]} "
                     f"damage {MELEE_LINES[blade][1]}, not {dmg} by its {float(w.muzzle_energy):g} J", "nwod.melee")
            dmg = MELEE_LINES[blade][1]
        if col.tracing:
            col.step(path, w.name, f"{w.weapon_class}, {w.muzzle_energy}", f"{t}, damage {dmg}", rules=[rule],
                     source=src, note=f"damage by {_catalog().weapon_basis(w).said}")
        example = _catalog_entry(w)
        if w.weapon_class != "thrown" and w.name not in CHART and not (
                example is not None and example.id in entry.get("catalog", ())):
            # a chart line picked by class and energy, not by the chart (its own line or example
            # gun): what the line says beside its damage is that line's, said as every system says
            # its line (nwod.weapon.chart, assumed)
            kind = "revolver" if t.startswith("Revolver") else w.weapon_class
            col.loss("assumed", path, f"{w.name}: Ranged Weapons Chart line {t!r} (ranges "
                     f"{'/'.join(str(x) for x in entry['ranges'])} yd, Strength {entry['strength']}, Size "
                     f"{entry['size']}) for a {kind} of {float(w.muzzle_energy):g} J, damage {dmg} ({rule})",
                     "nwod.weapon.chart")
        yd = [Length(float(x) * YARD) for x in entry["ranges"]]
        # nwod.weapon.clip (assumed, README): clip and chamber are the gun's own, not its chart
        # line's: the clip is the neutral capacity (the catalog's or the source's: rounds in the
        # magazine, cylinder, tube or barrels), "+1" only for a closed-bolt magazine-fed gun
        basis_entry = _catalog_entry(w)  # a capacity the source states, else its catalog weapon's
        if w.capacity or (basis_entry is not None and basis_entry.capacity):
            clip = int(w.capacity) if w.capacity else int(basis_entry.capacity)  # type: ignore[union-attr]
        else:  # else its chart line's, said (a light pistol's 17, a light revolver's 6)
            clip = int(entry["clip"])
            if w.weapon_class != "thrown":  # a thrown weapon is one object: nothing assumed
                col.loss("assumed", f"{path}.clip", capacity_note(w.name, f"the {t!r} line's clip {clip}"),
                         "nwod.weapon.clip")
        chamber, why = chambers(w, entry)
        if t.startswith("Revolver") and basis_entry is None and not says_revolver(w.name) \
                and w.weapon_class in ("handgun", "revolver") and w.name not in CHART:
            col.loss("assumed", path, f"{w.name!r} is a handgun of no catalog; its name or calibre makes it a revolver, "
                     f"written as the {t!r} line with {clip} in the cylinder and none chambered", "nwod.weapon.clip")
        if col.tracing:
            col.step(path, f"capacity {w.capacity}" if w.capacity else "no capacity",
                     f"clip {clip}" + ("+1" if chamber else ""), rules=["nwod.weapon.clip"], source="assumed",
                     note=("the chart line's clip; " if not w.capacity else "") + ("+1: " if chamber else "no +1: ")
                     + why)
        return NwodWeapon(name=w.name, type=t, catalog=w.catalog, damage=dmg, ranges=(yd[0], yd[1], yd[2]),
                          clip=clip, chamber=chamber,
                          strength=int(entry["strength"]), size=int(entry["size"]),
                          autofire=bool(entry.get("autofire", False)), two_handed=bool(entry.get("two_handed", False)),
                          again=int(entry.get("again", 10)))

    def derived_to_neutral(self, npc: NwodNpc, derived: Mapping[str, Any], col: Collector) -> dict[str, float]:
        return self._dodge_to_neutral(npc, derived, col)

    def native_block(self, npc: NwodNpc, col: Collector) -> dict[str, Any]:
        """The whole stat block: restored verbatim while the neutral values read back to it."""
        return msgspec.to_builtins(npc, enc_hook=enc_hook)

    def armor_to_neutral(self, a: NwodArmor, col: Collector | None, path: str) -> Armor:
        """An Armor Chart line as what it physically is: its catalog item (by ``catalog`` id, else by
        the item's name, as "Full riot gear"), else the joules of its rating (nwod.armor); with the
        coverage and deflection the line states (xsys.core.armorline)."""
        from xsys.core.catalog import strip_entry

        entry = _catalog().find_armor(a.name, a.catalog, path=f"{path}.catalog")
        stops = _LADDERS["armor_ballistic"].neutral(a.ballistic) if a.ballistic else \
            _LADDERS["armor_general"].neutral(a.general)
        if entry is not None:
            out = msgspec.structs.replace(strip_entry(entry), name=a.name, catalog=a.catalog)
            item = (int(_LADDERS["armor_general"].step_for(float(entry.stops)).native),
                    int(_LADDERS["armor_ballistic"].step_for(float(entry.stops)).native))
            if (a.general, a.ballistic) != item:  # the sheet's rating wins over its item's, said
                out = msgspec.structs.replace(out, stops=Energy(stops))
                if col is not None:
                    col.loss("assumed", f"{path}.ballistic" if a.ballistic != item[1] else f"{path}.general",
                             armorline.stated_note(a.name, f"{a.general}/{a.ballistic}", entry, f"{item[0]}/{item[1]}",
                                                   f"{a.general}/{a.ballistic}", stops), "nwod.armor")
        else:
            kind = "natural" if a.natural else "garment" if not a.ballistic else "soft-vest"
            out = Armor(name=a.name, kind=kind, stops=Energy(stops))
            if col is not None:
                # a rating read on the assumed joules scale, and a kind by its ballistic rating (the
                # Armor Chart's ballistic pieces are vests and jackets): said, as every system says
                # an armor line of no catalog item read from its points
                rated = f"ballistic {a.ballistic}" if a.ballistic else f"general {a.general}"
                col.loss("assumed", f"{path}.{'ballistic' if a.ballistic else 'general'}",
                         armorline.points_note(a.name, rated, stops)
                         + (", the creature's own (natural)" if a.natural else f", a {kind} by its ballistic rating"),
                         "nwod.armor")
                if col.tracing:
                    col.step(path, f"{a.name} {a.general}/{a.ballistic}", f"stops {stops:g} J",
                             rules=["nwod.armor"], source="assumed")
        return armorline.restore(out, a.covers, a.deflection, col, path, "nwod.armor")

    def armor_from_neutral(self, a: Armor, col: Collector, path: str) -> NwodArmor:
        """general/ballistic by the joules stopped (nwod.armor), with the coverage and deflection the
        chart cannot state where its catalog item would not give them back (xsys.core.armorline)."""
        g = int(_LADDERS["armor_general"].step_for(float(a.stops)).native)
        b = int(_LADDERS["armor_ballistic"].step_for(float(a.stops)).native)
        line = NwodArmor(name=a.name, general=g, ballistic=b, catalog=a.catalog, natural=a.kind == "natural")
        if col.tracing:
            col.step(path, a.name, f"stops {a.stops}", f"{g}/{b}", rules=["nwod.armor"], source="assumed")
        more = armorline.extras(a, self.armor_to_neutral(line, None, path))
        if "deflection" in more:
            col.loss("kept-verbatim", f"{path}.deflection", armorline.deflection_note(a, "nWoD"), "nwod.armor")
        return msgspec.structs.replace(line, **more)

    def npc_restored(self, combatant: Combatant, col: Collector) -> NwodNpc | None:
        """The kept stat block, trusted only while the neutral values still read back to it."""
        kept = combatant.native.get(self.key)
        if kept:
            try:
                npc = msgspec.convert(kept, NwodNpc, dec_hook=dec_hook)
                if self._consistent(npc, combatant):
                    col.step("$", "native.nwod", None, "stat block restored verbatim", rules=["nwod.derived"],
                             source="assumed")
                    return self._lines_completed(npc, combatant, col)
            except (msgspec.ValidationError, TypeError):
                pass
        return None

    def carried_missing(self, field: str, kept: Mapping[str, Any], combatant: Combatant, col: Collector) -> Any:
        """Resolve from another system: read from will, as Composure is (nwod.attributes)."""
        if field != "Resolve":
            return None
        resolve_p = combatant.characteristics.get("will", 0.5)
        col.loss("assumed", "$.Resolve", "no neutral characteristic for Resolve; read from will like Composure",
                 "nwod.attributes")
        return int(self.characteristics()["Composure"].ladder.step_for(resolve_p).native)

    def melee_from_neutral(self, combatant: Combatant, lines: Mapping[str, Any], col: Collector) -> list[NwodWeapon]:
        return self._melee_from_neutral(combatant, lines, col)

    def extra_from_neutral(self, npc: NwodNpc, combatant: Combatant, col: Collector) -> NwodNpc:
        """The derived traits by nwod.derived; Defense checked against the neutral dodge; Health
        scaled by the neutral toughness."""
        derived = self.derived(npc)
        dodge = combatant.skills.get("dodge")
        if dodge is not None:
            self._dodge_from_neutral(float(dodge), npc, derived["Defense"], col)
        npc = self._thrown_ranges(npc, col)
        rule_health = derived["Health"]
        derived["Health"] = self.health_of(rule_health, combatant.toughness, col)
        if derived["Health"] != rule_health:
            # nwod.derived: Health = Stamina + Size, and no 2004 merit adds Health alone (Giant
            # adds a dot of Size): the source's own toughness is written, said beside the rule
            col.loss("assumed", "$.toughness", f"Health {derived['Health']} beside Stamina + Size = {rule_health}: the "
                     f"source's NPC is {'tougher' if derived['Health'] > rule_health else 'frailer'} than its build "
                     f"(toughness {combatant.toughness:.2f}); no nWoD trait says so, so the sheet states it as Health "
                     f"{derived['Health']}", "nwod.derived")
        return msgspec.structs.replace(npc, **derived)

    def _lines_completed(self, npc: NwodNpc, combatant: Combatant, col: Collector) -> NwodNpc:
        """A restored stat block's firearm lines with what they do not state written as a line of
        the weapon writes it (nwod.weapon.clip): a line with no type or no clip (a text block's
        'Glock 17 (Damage 2, Ranges 20/40/80)') takes the chart line, clip and chamber of the
        neutral weapon it was read as (its catalog weapon's), so the sheet does not say Clip 0."""
        by_name = {w.name: w for w in combatant.weapons}
        lines = []
        for i, line in enumerate(npc.weapons):
            w = by_name.get(line.name)
            if w is None or line.ranges is None or (line.type and line.clip):
                lines.append(line)
                continue
            written = self.weapon_from_neutral(w, Collector(self.key), f"$.weapons[{i}]")
            fields: dict[str, Any] = {}
            if not line.type:
                fields["type"] = written.type
            if not line.clip:
                fields.update(clip=written.clip, chamber=written.chamber)
            missing = [k for k in ("type", "clip") if k in fields]
            col.loss("assumed", f"$.weapons[{i}]", f"{line.name}: the line states no {' or '.join(missing)}; written "
                     f"as its weapon's: " + ", ".join(f"{k} {v}" for k, v in fields.items()), "nwod.weapon.clip")
            lines.append(msgspec.structs.replace(line, **fields))
        return msgspec.structs.replace(npc, weapons=lines)

    def _melee_from_neutral(self, combatant: Combatant, lines: Any, col: Collector) -> list[NwodWeapon]:
        """Close-combat weapons: the line of each weapon's class (nwod.melee, assumed),
        or the carried nWoD line of that weapon (core.carried.melee_lines)."""
        def of_class(m: Any) -> NwodWeapon:
            t, dmg, size = MELEE_LINES["natural" if m.natural else m.melee_class]
            return NwodWeapon(name=m.name, type=t, damage=dmg, size=size)

        return carried.melee_lines(combatant, lines, NwodWeapon, "nwod", "nwod.melee", col, of_class,
                                   lambda w: f"{w.type}, damage {w.damage}, Size {w.size}", dec_hook=dec_hook)

    def _attacks(self) -> str:
        return f"{self.DEFENSE_ATTACKS[0]}- to {self.DEFENSE_ATTACKS[-1]}-die"

    def _dodge_to_neutral(self, npc: NwodNpc, der: Mapping[str, int], col: Collector) -> dict[str, float]:
        """The stat block's Defense (stated, else derived) as the neutral dodge (nwod.defense)."""
        defense = npc.Defense if npc.Defense is not None else der["Defense"]
        value = self.competence("Defense", defense)
        if col.tracing:
            col.step("$.Defense", f"Defense {defense}", f"dodge competence {value:.3f}", rules=["nwod.defense"],
                     source="assumed", note=f"the share of the hits of {self._attacks()} attacks it takes away")
        back = self.level_for("Defense", value)
        if back != defense:
            col.loss("rounded", "$.Defense", f"Defense {defense} takes every die of the largest attack of "
                     f"{self._attacks()}, as Defense {back} does; it reads as Defense {back} elsewhere", "nwod.defense")
        return {"dodge": value}

    def _dodge_from_neutral(self, dodge: float, npc: NwodNpc, defense: int, col: Collector) -> None:
        """A neutral dodge written to an nWoD sheet. Defense is derived, the lower of Dexterity and
        Wits (nwod.derived, WoD p. 90): the sheet shows that and nothing else, so a dodge that reads
        as another Defense (nwod.defense) is reported, not written (README, "Defense is derived")."""
        would = int(self.level_for("Defense", dodge))
        if col.tracing:
            col.step("$.Defense", None, f"Dexterity {npc.Dexterity}, Wits {npc.Wits}", f"Defense {defense}",
                     rules=["nwod.derived"], source="assumed", note="the lower of Dexterity and Wits")
        if would != defense:
            share = float(self.competence("Defense", defense))
            col.loss("derived", "$.skills.dodge",
                     f"dodge {dodge:.0%} would be Defense {would} (nwod.defense: the share of the hits of "
                     f"{self._attacks()} attacks it takes away), but Defense is the lower of Dexterity "
                     f"{npc.Dexterity} and Wits {npc.Wits}: the sheet shows Defense {defense} ({share:.0%}); "
                     "the dodge is not written", "nwod.derived")

    def _consistent(self, npc: NwodNpc, comb: Combatant) -> bool:
        col = Collector(self.key)
        values = {a: getattr(npc, a) for a in self.ATTRIBUTES if a in self.NEUTRAL_ATTR}
        values["Size"] = npc.Size
        chars = self.characteristics_to_neutral(values, col)
        if any(abs(chars[k] - comb.characteristics.get(k, -1)) > 1e-9 for k in chars):
            return False
        skills = self.skills_to_neutral({k: v for k, v in npc.skills.items() if k in self.SKILLS}, col, "$",
                                        self._skill_context(npc))
        skills.update(self._dodge_to_neutral(npc, self.derived(npc), col))
        return all(abs(v - comb.skills.get(k, -1)) <= 1e-9 for k, v in skills.items()) and \
            set(skills) == set(comb.skills)

    # ------------------------------------------------------------------ shots
    def _weapon_for_native(self, name: str | NwodWeapon, col: Collector | None = None) -> Weapon:
        if isinstance(name, NwodWeapon):
            w = self.weapon_to_neutral(name, col if col is not None else Collector(self.key), "$.weapon")
            if not isinstance(w, Weapon):
                raise XsysError("not a ranged weapon", path="$.weapon.ranges",
                                expected="short/medium/long ranges of a firearm or thrown weapon", found="none")
            return w
        name = next((line for line in CHART if line.lower() == name.strip().lower()), name)  # 'rifle' is the Rifle line
        if name in CHART:
            e = CHART[name]
            energy = _LADDERS["weapon_damage"].neutral(int(e["damage"]))
            modes = ["semi", "auto"] if e.get("autofire") else ["semi"]
            return Weapon(name=name, weapon_class=e["class"], muzzle_energy=Energy(energy), fire_modes=modes)
        found = _find_catalog_weapon(name)
        word_class = None
        if found is None:
            found, word_class = _catalog().identify_weapon(name)  # one answer for every system
        if found is None and word_class is not None:
            if col is not None:
                col.loss("assumed", "$.weapon", f"{name!r} is no chart line or catalog weapon; its name says a "
                         f"{word_class}: the generic {word_class}'s muzzle energy", "nwod.weapon.damage")
            return msgspec.structs.replace(generic_weapon(word_class), name=name)
        if found is None:
            raise XsysError("unknown weapon", path="$.weapon",
                            expected="a Ranged Weapons Chart line (" + ", ".join(CHART) + "), a catalog weapon or a "
                                     "weapon class (pistol, revolver, smg, carbine, rifle, shotgun, machine gun)",
                            found=repr(name))
        from xsys.core.catalog import strip_entry

        return strip_entry(found)

    def _weapon_native_name(self, w: Weapon, col: Collector | None = None) -> str | NwodWeapon:
        """What an nWoD shot names: a chart line, a catalog weapon (by id, or by its own name
        when that is the catalog's), else a weapon line of its own that keeps its name, its
        chart type and its catalog id."""
        if w.name in CHART and not w.calibre:
            return w.name
        entry = _catalog().weapons.get(w.catalog) if w.catalog else None
        if entry is not None and w.name in (entry.name, entry.id):
            return w.catalog  # type: ignore[return-value]
        if entry is None and w.catalog is None:
            found = _find_catalog_weapon(w.name)
            if found is not None and found.weapon_class == w.weapon_class:
                return w.name
        return self.weapon_from_neutral(w, col if col is not None else Collector(self.key), "$.weapon")

    # ---- shots: the core's (xsys.core.shotsheet), from the declaration in system.py, and these ----
    def shot_weapon_to_neutral(self, ns: NwodShot, col: Collector) -> Weapon:  # type: ignore[override]
        """A chart line, a catalog weapon or a weapon line of the shot's own."""
        weapon = self._weapon_for_native(ns.weapon, col)
        if isinstance(ns.weapon, str):  # a weapon line says it in its own reading
            say_grenade(col, "$.weapon", weapon)
        return weapon

    def shot_weapon_from_neutral(self, shot: Shot, col: Collector, path: str) -> str | NwodWeapon:
        return self._weapon_native_name(shot.weapon, col)

    def shot_own_to_neutral(self, ns: NwodShot, col: Collector) -> dict[str, Any]:
        """The distance of the range band on the weapon's chart line (a thrown object's by the
        thrower: nwod.range), the light, what the target stands behind or is concealed by, the
        shooter's own cover, the armor rating where the shot hits and a prone target."""
        weapon = self._weapon_for_native(ns.weapon)
        chart = chart_type_for(weapon)
        rlad = RANGE_LADDERS[chart] if chart != "Thrown" else \
            range_ladder("Thrown", thrown_short_range(ns.Strength, ns.Dexterity, ns.Firearms))
        out: dict[str, Any] = {"distance": Length(rlad.neutral(RANGE_PENALTY[ns.range])),
                               "light.illuminance": Illuminance(_LADDERS["darkness"].neutral(LIGHTING[ns.lighting])),
                               "target.posture": "prone" if ns.prone else "standing"}
        barrier = None
        if ns.barrier is not None and ns.barrier.destroyed:
            col.loss("dropped-item", "$.barrier", "the barrier has no Structure left and gives no cover "
                                                  "(nwod.barrier.penetration)", "nwod.barrier.penetration")
        elif ns.barrier is not None:
            b = ns.barrier
            rep = TABLES["barrier_material"].get("window" if b.window else str(b.Durability))
            if rep is None:
                raise XsysError("barrier Durability beyond the table", path="$.barrier.Durability",
                                expected="1 to 5", found=str(b.Durability))
            barrier = Barrier(material=rep["material"], thickness=parse(rep["thickness"], Length), name=b.name)
            if b.damage_taken:
                col.loss("unsupported-field", "$.barrier.damage_taken",
                         f"{b.damage_taken} Structure already lost has no neutral field (check_native keeps it)",
                         "nwod.barrier.penetration")
            exp_size = int(WINDOW["Size"]) if b.window else int(_LADDERS["barrier_size"].step_for(
                barrier_stops(barrier)).native)
            if b.Size != exp_size:
                col.loss("rounded", "$.barrier.Size", f"Size {b.Size} reads back as {exp_size}", "nwod.barrier.size")
            if ns.concealment != "none":
                col.loss("merged", "$.concealment", "a target behind a barrier is in full cover; concealment ignored",
                         "nwod.barrier")
        out["target.cover"] = Cover(exposure=0.0, barrier=barrier) if barrier is not None else \
            Cover(exposure=_LADDERS["concealment"].neutral(CONCEALMENT[ns.concealment]))
        out["shooter.cover"] = Cover(exposure=0.0, barrier=Barrier(material="soft-wood", thickness=Length(0.03),
                                                                   name="full cover")) if ns.leaning_out else \
            Cover(exposure=_LADDERS["concealment"].neutral(CONCEALMENT[ns.shooter_cover]))
        if ns.armor:  # the rating where the shot hits: armor that covers that location
            out["target.armor"] = [Armor(name=f"ballistic armor {ns.armor}", kind="soft-vest",
                                         stops=Energy(_LADDERS["armor_ballistic"].neutral(ns.armor)),
                                         covers=[ns.specified_target or "torso"])]
        return out

    def shot_own_from_neutral(self, shot: Shot, col: Collector) -> dict[str, Any]:
        """The range band, the light the shooter sees by (nwod.darkness), the target's concealment
        or barrier, the shooter's own cover, the armor rating where the shot hits and a prone target."""
        out: dict[str, Any] = {}
        if chart_type_for(shot.weapon) == "Thrown":
            st = self._attr_from_percentile("Strength", shot.shooter.characteristics.get("strength"))
            dex = self._attr_from_percentile("Dexterity", shot.shooter.characteristics.get("dexterity"))
            level = int(self.level_for("Athletics", shot.shooter.skill, {"Dexterity": dex, "@class": "thrown"}))
            rlad = range_ladder("Thrown", thrown_short_range(st, dex, level))
        else:
            rlad = RANGE_LADDERS[chart_type_for(shot.weapon)]
        out["range"] = RANGE_NAME[int(rlad.step_for(float(shot.distance)).native)]
        # nwod.darkness: an nWoD shot states the light as the shooter sees it; a vision aid
        # (a flashlight within 50 m, night vision) is folded into it, as the check folds it
        dstep, dark, aid = lighting(shot)
        if aid and dark != int(dstep.native):
            col.loss("merged", "$.light.aids", f"{aid} on a {dstep.label.split(':')[0]} target "
                     f"({float(shot.light.illuminance):g} lx, {brief(shot.distance)}): written as "
                     f"{LIGHTING_NAME[dark]} ({dark:+d}) instead of {LIGHTING_NAME[int(dstep.native)]}; "
                     "an nWoD shot has no field for the aid", "nwod.darkness")
        out["lighting"] = LIGHTING_NAME[dark]
        cov = shot.target.cover
        out["barrier"], out["concealment"] = None, "none"
        if cov.exposure <= SHOT_THROUGH and cov.barrier is not None:
            stops = barrier_stops(cov.barrier)
            out["barrier"] = NwodBarrier(name=cov.barrier.name, window=True, Durability=int(WINDOW["Durability"]),
                                         Size=int(WINDOW["Size"])) if cov.barrier.material == "window-glass" else \
                NwodBarrier(name=cov.barrier.name, Durability=int(_LADDERS["barrier_durability"].step_for(stops).native),
                            Size=int(_LADDERS["barrier_size"].step_for(stops).native))
        elif cov.exposure > 0:
            out["concealment"] = CONCEALMENT_NAME[int(_LADDERS["concealment"].step_for(cov.exposure).native)]
        else:
            out["concealment"] = "substantial"
            col.loss("clamped", "$.target.cover", "target wholly hidden with no barrier: written as substantial "
                                                  "concealment (the check uses a chance roll)", "nwod.hidden")
        own = shot.shooter.cover
        out["leaning_out"] = own.exposure <= 0 or (own.barrier is not None and own.exposure < 0.35)
        out["shooter_cover"] = "none" if out["leaning_out"] else \
            CONCEALMENT_NAME[int(_LADDERS["concealment"].step_for(own.exposure).native)]
        out["armor"] = armor_on(shot)[0]  # the rating against this shot: what covers the hit location
        out["prone"] = int(_LADDERS["posture"].step_for(POSTURE_HEIGHT[shot.target.posture]).native) < 0
        return out
