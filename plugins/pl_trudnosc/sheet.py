"""The Polish character sheet (Postać) and shot (Strzał) as xsys's neutral model, and back: traits and
skills (equated), weapons and armor, and what only this system states, carried. :class:`PlSheet`
adds these conversions to the game (rules.py).
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, Mapping, get_args

import msgspec

from xsys.core import armorline
from xsys.core.catalog import GRENADE_RULE, damage_line_note, named_grenade, say_grenade, strip_entry, weapon_note
from xsys.core.errors import InputError
from xsys.core.ladder import Ladder
from xsys.core.model import Armor, Barrier, Combatant, Cover, Light, Shooter, Shot, Target, Weapon, generic_weapon
from xsys.core.registry import catalog
from xsys.core.trace import Collector, Result
from xsys.core.units import Duration, Energy, Illuminance, Speed
from xsys.core.vocab import GRENADE_ENERGY_J, POSTURE_HEIGHT, cartridge_in_name, firearm_skill_for, holds_word

from .model import Broń, OsłonaCelu, Oświetlenie, Pancerz, Postawa, Postać, Przeszkoda, Strzał, Tempo
from .rules import (PlRules, RODZAJ_OF_CLASS, _characteristics, all_ladders, damage_energy, movement,
                    movement_speeds, skill_rule)


def _canon(label: str, literal: Any) -> str:
    """The Literal's own string object for `label` (msgspec's omit_defaults compares
    non-interned strings by identity, so a label read from TOML must be swapped for it)."""
    for v in get_args(literal):
        if v == label:
            return v
    raise KeyError(label)


SKILL_OF_NEUTRAL = {"handgun": "Broń krótka", "rifle": "Broń długa", "shotgun": "Broń długa",
                    "smg": "Broń długa", "machine_gun": "Broń długa", "throw": "Rzucanie"}
CLASS_OF_RODZAJ = {"krótka": "handgun", "długa": "rifle", "rzucana": "thrown"}
# pl.shoot (assumed, README): the text has only short and long weapons; a long one of no catalog
# whose name says which long gun it is, in Polish or English (or a shotgun's gauge), is that one,
# as a rewolwer is a revolver among the short ones, so a strzelba comes back a shotgun
LONG_GUN_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("smg", ("pistolet maszynowy", "submachine gun", "sub-machine gun", "smg")),
    ("mg", ("ręczny karabin maszynowy", "karabin maszynowy", "machine gun", "machinegun")),
    ("shotgun", ("strzelba", "śrutówka", "shotgun")),
    ("carbine", ("karabinek", "carbine")),
)


def long_gun_kind(name: str) -> str | None:
    """The kind of long gun a weapon's name says (LONG_GUN_WORDS, a gauge: a shotgun), else None."""
    for cls, words in LONG_GUN_WORDS:
        if holds_word(name, words):
            return cls
    return "shotgun" if (cartridge_in_name(name) or "").endswith(" gauge") else None
SKILL_OF_RODZAJ = {"krótka": "Broń krótka", "długa": "Broń długa", "rzucana": "Rzucanie"}
POSTURE_OF = {"stojąca": "standing", "klęcząca": "kneeling", "leżąca": "prone"}


class PlSheet(PlRules):
    """The conversions of :class:`PlTrudnosc`'s documents to and from the neutral model."""

    def sheet_notes(self, npc: Any) -> dict[str, dict[str, str]]:
        """What each armor row covers, where a row is not torso-only (a helmet beside a vest)."""
        return armorline.line_notes(npc, armor_field="pancerz", name="nazwa", catalog_field="katalog",
                                    covers_field="osłania")

    def sheet_filled(self, table: str, row: Mapping[str, Any]) -> dict[str, tuple[Any, str]]:
        """A weapon line that leaves its obrażenia to its catalog weapon or its kind, and an armor
        line that leaves its punkty to its catalog item, print the points the conversion reads for
        them (pl.damage, pl.armor: one answer whatever the path)."""
        try:
            if table == "broń" and row.get("obrażenia") is None:
                b = msgspec.convert(row, Broń)
                pts = all_ladders()["damage"].native(damage_energy(self.weapon_to_neutral(b, Collector(self.key), "$")))
                why = "its catalog weapon's points (pl.damage" if b.katalog or self._catalog_weapon(b) else \
                    "a hand grenade's points (xsys.grenade" if named_grenade(b.nazwa, CLASS_OF_RODZAJ[b.rodzaj]) else \
                    "the points of a generic weapon of its kind (the text gives no weapon's base damage; pl.damage"
                return {"obrażenia": (pts, f"a line that states none has {why}, assumed scale)")}
            if table == "pancerz" and row.get("punkty") is None:
                a = msgspec.convert(row, Pancerz)
                pts = all_ladders()["armor"].native(self.armor_to_neutral(a, Collector(self.key), "$").stops)
                return {"punkty": (pts, "a line that states none has its catalog item's points (pl.armor, assumed "
                                        "scale)")}
        except (InputError, msgspec.ValidationError):
            return {}
        return {}

    @staticmethod
    def _catalog_weapon(b: Broń) -> bool:
        found = catalog().identify_weapon(b.nazwa)[0]
        return found is not None and RODZAJ_OF_CLASS[found.weapon_class] == b.rodzaj

    def native_block(self, npc: Postać, col: Collector) -> dict[str, Any]:
        """Weapons whose points the stat block leaves to the catalog or the class (pl.damage): a
        sheet written from any other source states them; this one's own come back as written."""
        implicit = [b.nazwa for b in npc.broń if b.obrażenia is None]
        bare = [p.nazwa for p in npc.pancerz if p.punkty is None]  # armor left to its catalog item
        return {**({"obrażenia_implicit": implicit} if implicit else {}),
                **({"punkty_implicit": bare} if bare else {})}

    def extra_to_neutral(self, npc: Postać, combatant: Combatant, col: Collector) -> Combatant:
        """The movement the rules give this NPC (pl.sprint, pl.crawl, pl.swim), in the trace only:
        the neutral model has no movement."""
        if col.tracing:
            speeds = movement_speeds(npc)
            for k, v in movement(npc).items():
                rule = {"sprint": "pl.sprint", "crawl": "pl.crawl", "swim": "pl.swim"}[k]
                col.step(f"$.{k}", None, f"{v} per tura", f"{speeds[k]} (tura = 3 s, assumed)",
                         rules=[rule, "pl.turn"], source="assumed" if k != "crawl" else "seed")
        return combatant

    def carried_missing(self, field: str, kept: Mapping[str, Any], combatant: Combatant, col: Collector) -> Any:
        """Zalety where an older document kept them (its native block), each as a name."""
        return [str(z) for z in kept.get(field, [])]

    # ---- weapons and armor -----------------------------------------------------------
    def weapon_to_neutral(self, b: Broń, col: Collector, path: str) -> Weapon:
        """A weapon as what it is (core.catalog.Catalog.identify_weapon, one answer for every
        system): its catalog weapon (``katalog``, else what its name says, when it is of its
        ``rodzaj``), whose damage goes by its cartridge; else a weapon of its ``rodzaj`` (the kind
        of it the name says: a rewolwer) at the energy of its ``obrażenia`` or, where the text
        gives none (it states no weapon's base damage: the natural document names a weapon and
        its kind only), of its class's generic weapon (pl.damage, assumed)."""
        cat = catalog()
        entry = None
        if b.katalog:
            entry = cat.weapons.get(b.katalog)
            if entry is None:
                raise InputError("unknown catalog weapon", path=f"{path}.katalog",
                                 expected="a weapon id from `xsys catalog weapon`", found=repr(b.katalog))
        else:
            found = cat.identify_weapon(b.nazwa)[0]
            if found is not None and RODZAJ_OF_CLASS[found.weapon_class] == b.rodzaj:
                entry = found
        lad = all_ladders()["damage"]
        if entry is not None:
            w = strip_entry(entry)
            if RODZAJ_OF_CLASS[w.weapon_class] != b.rodzaj:
                raise InputError("weapon kind does not match the catalog weapon", path=f"{path}.rodzaj",
                                 expected=repr(RODZAJ_OF_CLASS[w.weapon_class]), found=repr(b.rodzaj))
            if b.nazwa != w.name:
                w = msgspec.structs.replace(w, name=b.nazwa)
            derived = lad.native(damage_energy(w))
            if b.obrażenia is not None and b.obrażenia != derived:
                col.loss("merged", f"{path}.obrażenia", damage_line_note(b.nazwa, cat.weapon_basis(w), str(derived),
                                                                         str(b.obrażenia)), "pl.damage")
            if col.tracing:
                col.step(path, b.nazwa, f"catalog {entry.id}, {w.muzzle_energy}", rules=["pl.damage"], source="assumed")
            return w
        cls = catalog().weapon_class_named(b.nazwa, CLASS_OF_RODZAJ[b.rodzaj])  # a rewolwer is a revolver
        if b.rodzaj == "długa" and cls == CLASS_OF_RODZAJ["długa"] and (kind := long_gun_kind(b.nazwa)):
            cls = kind  # a strzelba is a shotgun
            col.loss("assumed", f"{path}.rodzaj", f"{b.nazwa}: a broń długa whose name says a {kind}: read as one "
                     "(the text has only short and long weapons)", "pl.shoot")
        sights = "none" if cls == "thrown" else "iron"  # a thrown weapon is aimed by eye
        if b.obrażenia is None and named_grenade(b.nazwa, cls):
            # xsys.grenade: a grenade named as one is one weapon from every sheet, not a thrown stone
            pts = lad.native(GRENADE_ENERGY_J)
            col.loss("assumed", f"{path}.obrażenia", f"{b.nazwa}: no obrażenia (the text gives no weapon's base "
                     f"damage); a grenade by its name, read at a hand grenade's {GRENADE_ENERGY_J:g} J, {pts} points",
                     GRENADE_RULE)
            out = Weapon(name=b.nazwa, weapon_class=cls, muzzle_energy=Energy(GRENADE_ENERGY_J),  # type: ignore[arg-type]
                         sights=sights)  # type: ignore[arg-type]
        elif b.obrażenia is None:
            generic = generic_weapon(cls)
            pts = lad.native(float(generic.muzzle_energy))
            col.loss("assumed", f"{path}.obrażenia", f"{b.nazwa}: no obrażenia (the text gives no weapon's base "
                     f"damage); read as the generic {cls}'s {generic.muzzle_energy}, {pts} points", "pl.damage")
            out = msgspec.structs.replace(generic, name=b.nazwa, sights=sights)
        else:
            step = lad.step_of(b.obrażenia)
            col.loss("assumed", f"{path}.obrażenia", weapon_note(b.nazwa, f"obrażenia {b.obrażenia}", step.rep),
                     "pl.damage")
            out = Weapon(name=b.nazwa, weapon_class=cls,  # type: ignore[arg-type]
                         muzzle_energy=Energy(step.rep), sights=sights)  # type: ignore[arg-type]
        say_grenade(col, path, out, "pl.grenade")  # pl.grenade: its blast catches more enemies
        return out

    def weapon_from_neutral(self, w: Weapon, col: Collector, path: str, kept: Mapping[str, Any] | None = None,
                            points: bool = True) -> Broń:
        """A weapon line: its kind, its damage points (pl.damage: its catalog weapon's, else its
        cartridge's, else its own energy's) and its catalog id where its name does not say it.
        ``points=False``: the points are left to the catalog weapon, as a shot names it and as a
        Polish stat block that left them out wrote it (its own weapons come back as written:
        ``kept``, its native block, names them)."""
        if kept is not None:
            points = w.name not in set(kept.get("obrażenia_implicit", []))
        rodzaj = RODZAJ_OF_CLASS[w.weapon_class]
        basis = catalog().weapon_basis(w)  # its catalog weapon, else the cartridge its calibre or name states
        pts = all_ladders()["damage"].native(damage_energy(w))
        entry = basis.entry
        if entry is not None and RODZAJ_OF_CLASS[entry.weapon_class] == rodzaj:
            if col.tracing:
                col.step(path, w.name, f"catalog {entry.id}", f"obrażenia {pts}", rules=["pl.damage"],
                         source="assumed", note=basis.said)
            return Broń(nazwa=w.name, rodzaj=rodzaj, obrażenia=pts if points else None,  # type: ignore[arg-type]
                        katalog=None if w.name == entry.name else entry.id)
        # a line of its own that left its points out comes back so: its kind's, or a grenade's
        unstated = float(GRENADE_ENERGY_J if kept is not None and named_grenade(w.name, w.weapon_class)
                         else generic_weapon(w.weapon_class).muzzle_energy)
        if not points and float(w.muzzle_energy) == unstated:
            return Broń(nazwa=w.name, rodzaj=rodzaj)  # type: ignore[arg-type]  # its class's points, as written
        if CLASS_OF_RODZAJ[rodzaj] != w.weapon_class and not (rodzaj == "długa" and long_gun_kind(w.name) == w.weapon_class):
            col.loss("merged", f"{path}.rodzaj", f"{w.weapon_class} is a broń {rodzaj} here "
                     "(the text has only short and long weapons)", "pl.shoot")
        col.loss("rounded", f"{path}.obrażenia", f"{basis.cartridge or w.calibre or w.muzzle_energy} read as {pts} "
                 f"damage points (assumed scale; {basis.said})", "pl.damage")
        return Broń(nazwa=w.name, rodzaj=rodzaj, obrażenia=pts)  # type: ignore[arg-type]

    def armor_to_neutral(self, a: Pancerz, col: Collector, path: str) -> Armor:
        entry = catalog().find_armor(a.nazwa, a.katalog, path=f"{path}.katalog")
        if entry is None and a.punkty is None:
            raise InputError("armor needs punkty or a catalog item", path=path,
                             expected="punkty: <points> or katalog: <id>", found=repr(a.nazwa))
        lad = all_ladders()["armor"]
        if entry is not None:
            arm = strip_entry(entry)
            if a.nazwa != arm.name:
                arm = msgspec.structs.replace(arm, name=a.nazwa)
            derived = lad.native(arm.stops)
            if a.punkty is not None and a.punkty != derived:  # the sheet's value wins over its item's, said
                arm = msgspec.structs.replace(arm, stops=Energy(lad.neutral(a.punkty)))
                col.loss("assumed", f"{path}.punkty", armorline.stated_note(
                    a.nazwa, f"punkty {a.punkty}", entry, f"punkty {derived}", f"punkty {a.punkty}", float(arm.stops)),
                    "pl.armor")
            return armorline.restore(arm, a.osłania, a.odbicie, col, path, "pl.armor")  # type: ignore[arg-type]
        step = lad.step_of(a.punkty)
        col.loss("assumed", f"{path}.punkty", armorline.points_note(a.nazwa, f"punkty {a.punkty}", step.rep), "pl.armor")
        return armorline.restore(Armor(name=a.nazwa, stops=Energy(step.rep)), a.osłania, a.odbicie, col, path,
                                 "pl.armor")

    def armor_from_neutral(self, a: Armor, col: Collector, path: str, kept: Mapping[str, Any] | None = None
                           ) -> Pancerz:
        """An armor line: its points (pl.armor), also for a catalog item, so that a GM reads them
        on a sheet or a shot written from another system; a Polish stat block's own line that
        left them to its catalog item (``kept``: its native block) comes back as written."""
        entry = catalog().armor.get(a.catalog) if a.catalog else None
        lad = all_ladders()["armor"]
        pts = lad.native(a.stops)
        if entry is not None:
            if kept is None or a.name not in set(kept.get("punkty_implicit", [])):
                line = Pancerz(nazwa=a.name, katalog=entry.id, punkty=pts)
                if pts == 0:  # (a leather jacket: the scale's first point is a pistol round's tenth)
                    col.loss("assumed", f"{path}.punkty", f"{a.name} stops {a.stops}, under the "
                             f"{float(lad.steps[1].at):g} J of 1 armor point on the assumed scale: punkty 0, it "
                             f"takes no point off a hit; its catalog item {entry.id} keeps the {a.stops} for the "
                             "way back", "pl.armor")
            else:
                line = Pancerz(nazwa=a.name, katalog=None if a.name == entry.name else entry.id)
        else:
            col.loss("rounded", f"{path}.punkty", f"stops {a.stops} read as {pts} armor points (assumed scale)",
                     "pl.armor")
            line = Pancerz(nazwa=a.name, punkty=pts)
        if col.tracing:
            col.step(path, a.name, f"stops {a.stops}", f"punkty {pts}", rules=["pl.armor"], source="assumed")
        # where it sits and its deflection, unless the catalog item (or the torso alone) gives
        # them back (xsys.core.armorline)
        more = armorline.extras(a, self.armor_to_neutral(line, Collector(self.key), path))
        if "deflection" in more:
            col.loss("kept-verbatim", f"{path}.odbicie", armorline.deflection_note(a, "pl-trudnosc"), "pl.armor")
        return msgspec.structs.replace(line, osłania=more.get("covers"), odbicie=more.get("deflection"))

    # ---- shot conversions: the core's, from the declaration in system.py -----------------
    def shot_weapon_from_neutral(self, shot: Shot, col: Collector, path: str) -> Broń:
        """A shot's weapon leaves its points to its catalog weapon, as a shot names it."""
        return self.weapon_from_neutral(shot.weapon, col, path, points=False)

    def shot_own_to_neutral(self, s: Strzał, col: Collector) -> dict[str, Any]:
        """What the target stands behind (the text has no barrier rules: pl.barrier, assumed)."""
        if s.przeszkoda is None:
            return {}
        catalog().material(s.przeszkoda.materiał, "$.przeszkoda.materiał")  # unknown material: a clear error now
        col.loss("assumed", "$.przeszkoda", "the text has no barrier rules (pl.barrier assumed)", "pl.barrier")
        return {"target.cover.barrier": Barrier(material=s.przeszkoda.materiał, thickness=s.przeszkoda.grubość,
                                                name=s.przeszkoda.nazwa)}

    def shot_own_from_neutral(self, shot: Shot, col: Collector) -> dict[str, Any]:
        b = shot.target.cover.barrier
        return {"przeszkoda": None if b is None else Przeszkoda(materiał=b.material, grubość=b.thickness, nazwa=b.name)}
