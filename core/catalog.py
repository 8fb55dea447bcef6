"""The catalog of real things: weapons, armor and barrier materials by what they
physically are. Filled through the ``xsys_register_catalog`` hook (the built-in
``catalog`` plugin ships the bundled lists) and from users' own TOML/YAML/JSON files."""

from __future__ import annotations

import re
import tomllib
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Literal, NamedTuple

import msgspec

from . import codec
from .cache import load_toml
from .errors import InputError
from .model import USUAL_CAPACITY, Armor, Barrier, Base, Name, Text, Weapon
from .units import Density, Energy, Length
from .vocab import (AUTOMATIC_WORDS, CARTRIDGES, CLASS_WORDS, GRENADE_ENERGY_J, GRENADE_WORDS, KIND_OF, REVOLVER_CARTRIDGES,
                    REVOLVER_WORDS, cartridge_in_name, cartridge_of, holds_word, is_sawn_off, latin_name,
                    without_cartridge)


def _fold(name: str) -> str:
    """A name as a printed sheet and a catalog both mean it: NFKC (full-width letters as
    ASCII ones), case folded, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


class Material(Base, kw_only=True):
    """A barrier material. A barrier of thickness t stops t x ``stops_per_cm`` joules of
    muzzle energy: the one protection axis that armor ``stops`` also uses."""

    id: Name
    name: Name
    density: Density | None = None
    stops_per_cm: Energy
    typical_thickness: Length | None = None
    note: Text = ""
    source: Text = ""


class WeaponEntry(Weapon, kw_only=True, forbid_unknown_fields=True):
    id: Name
    feed: Name = ""
    era: Name = ""
    source: Text = ""
    # other names the weapon is printed under ("Thompson submachine gun"): each names it, whole
    aliases: list[Name] = []


class ArmorEntry(Armor, kw_only=True, forbid_unknown_fields=True):
    id: Name
    source: Text = ""


class WeaponBasis(NamedTuple):
    """What a neutral weapon's line in every system is rated from (Catalog.weapon_basis):
    ``kind`` "catalog" (``entry``), "cartridge" (a CARTRIDGES key its calibre or name states)
    or "class" (nothing more known: its own energy on its class's line); ``energy`` the joules
    its damage is rated at (the cartridge's reference energy where there is one); ``said`` the
    answer in words, for the trace."""

    kind: Literal["catalog", "cartridge", "class"]
    entry: WeaponEntry | None
    cartridge: str | None
    energy: float
    said: str


def damage_line_note(name: str, basis: Any, line: str, stated: str) -> str:
    """The one line every system says when a weapon line's own damage (`stated`) is not the damage
    line (`line`) of the weapon it is (`basis`: its catalog weapon, or the cartridge its name
    states; Catalog.weapon_basis): one weapon, one damage line, so a sheet written again from the
    neutral weapon writes the weapon's."""
    noun = "weapon" if basis.entry is not None else "cartridge"
    what = (f"it is catalog weapon {basis.entry.id}" + (f" ({basis.cartridge})" if basis.cartridge else "")
            if basis.entry is not None else f"its name states {basis.cartridge}")
    return (f"{name}: {what}, whose damage is {line}; the line's own {stated} is not that {noun}'s, and a sheet "
            f"written again from the neutral weapon writes {line} (one {noun}, one damage line)")


def capacity_note(name: str, written: str) -> str:
    """The one line every system says when no source states a gun's capacity and its sheet writes
    one (`written`: "the usual handgun's 7", "the 'Pistol, Lt.' line's clip 17")."""
    return f"{name}: the source states no capacity; written as {written}"


def weapon_note(name: str, read: str, energy: float) -> str:
    """The one line every system says when it reads a weapon line of no catalog weapon from its
    damage (`read`: "1d8", "2d", "damage 2", "obrażenia 6"): the muzzle energy that stands for."""
    return f"no catalog weapon {name!r}; muzzle energy from {read} ({float(energy):g} J)"


class CatalogFile(Base, kw_only=True):
    weapon: list[WeaponEntry] = []
    armor: list[ArmorEntry] = []
    material: list[Material] = []


class Catalog:
    """Weapons, armor and materials by id. ``add_*`` refuse a clashing id."""

    def __init__(self) -> None:
        self.weapons: dict[str, WeaponEntry] = {}
        self.armor: dict[str, ArmorEntry] = {}
        self.materials: dict[str, Material] = {}
        self.origin: dict[tuple[str, str], str] = {}
        self._identified: dict[str, tuple[WeaponEntry | None, str | None]] = {}  # identify_weapon, by name
        self._modelled: dict[str, WeaponEntry | None] = {}  # model_of, by name

    # -- registration ------------------------------------------------------------------
    def _add(self, table: dict, kind: str, item: Any, origin: str) -> None:
        if item.id in table:
            raise InputError(
                f"catalog {kind} id {item.id!r} is defined twice",
                file=origin, found=f"also in {self.origin[(kind, item.id)]}",
            )
        table[item.id] = item
        self.origin[(kind, item.id)] = origin
        self._identified.clear()  # a new weapon may be what a name says
        self._modelled.clear()

    def add_weapon(self, item: WeaponEntry, origin: str = "<code>") -> None:
        self._add(self.weapons, "weapon", item, origin)

    def add_armor(self, item: ArmorEntry, origin: str = "<code>") -> None:
        self._add(self.armor, "armor", item, origin)

    def add_material(self, item: Material, origin: str = "<code>") -> None:
        self._add(self.materials, "material", item, origin)

    def add_data(self, data: Any, origin: str) -> None:
        parsed: CatalogFile = codec.convert(data, CatalogFile, file=origin)
        for w in parsed.weapon:
            self.add_weapon(w, origin)
        for a in parsed.armor:
            self.add_armor(a, origin)
        for mt in parsed.material:
            self.add_material(mt, origin)

    def add_toml(self, path: str | Path) -> None:
        p = Path(path)
        try:
            raw = p.read_bytes()
        except OSError as exc:
            raise InputError(f"cannot read catalog file: {exc.strerror}", file=str(p)) from None
        bom = raw.startswith(b"\xef\xbb\xbf")  # a UTF-8 byte order mark: not part of the text
        try:
            text = raw[3 if bom else 0:].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError("catalog file is not valid UTF-8", file=str(p), expected="UTF-8 text",
                             found=f"byte 0x{raw[exc.start]:02x} at offset {exc.start}") from None
        try:
            codec.check_toml_keys(text)
            try:
                data = tomllib.loads(text) if bom else load_toml(p)
            except (UnicodeError, OSError):
                # a name that is not UTF-8 (the cache keys files by name), or a file that
                # changed meanwhile: the text already read, without the cache
                data = tomllib.loads(text)
        except InputError as exc:
            raise exc.with_file(str(p))
        except tomllib.TOMLDecodeError as exc:
            raise InputError(f"malformed TOML: {exc}", file=str(p)) from None
        self.add_data(data, str(p))

    # -- look-ups ----------------------------------------------------------------------
    def material(self, material_id: str, path: str | None = None) -> Material:
        """A material by id; `path` (e.g. ``$.target.cover.barrier.material``) goes into the error."""
        try:
            return self.materials[material_id]
        except (KeyError, TypeError):
            raise InputError(
                "unknown barrier material", path=path,
                expected="one of " + ", ".join(sorted(self.materials)),
                found=repr(material_id),
            ) from None

    def weapon(self, weapon_id: str) -> WeaponEntry:
        try:
            return self.weapons[weapon_id]
        except KeyError:
            raise InputError("unknown catalog weapon", expected="a weapon id from `xsys catalog`",
                             found=repr(weapon_id)) from None

    def armor_item(self, armor_id: str) -> ArmorEntry:
        try:
            return self.armor[armor_id]
        except KeyError:
            raise InputError("unknown catalog armor", expected="an armor id from `xsys catalog`",
                             found=repr(armor_id)) from None

    def find_armor(self, name: str, catalog_id: str | None = None, *, path: str = "$.catalog") -> ArmorEntry | None:
        """The catalog item an armor line names, one answer for every system and reader: the
        item of its ``catalog_id`` (an id the catalog does not hold is refused, so a typo never
        quietly becomes another armor or none), else the item whose name or id is the line's
        name (case and surrounding spaces aside), else None: the line stands on its own points."""
        if catalog_id:
            entry = self.armor.get(catalog_id)
            if entry is None:
                raise InputError("unknown catalog armor", path=path, expected="an armor id from `xsys catalog armor`",
                                 found=repr(catalog_id))
            return entry
        key = _fold(name)
        if not key:
            return None
        entry = self.armor.get(name.strip())
        if entry is not None:
            return entry
        # an id as a GM writes it, with spaces for its hyphens ("Chain mail", "M1 helmet")
        spaced = " ".join(key.replace("-", " ").replace("_", " ").split())
        return next((e for e in self.armor.values() if _fold(e.name) == key or _fold(e.id) == key
                     or " ".join(_fold(e.id).replace("-", " ").split()) == spaced), None)

    def barrier_stops(self, barrier: Barrier) -> float:
        """Joules of muzzle energy the barrier absorbs (thickness in cm x stops_per_cm)."""
        return float(barrier.thickness) * 100.0 * float(self.material(barrier.material).stops_per_cm)

    def find_weapon(self, name: str) -> WeaponEntry | None:
        """A weapon by id or (case-insensitive) name, or one of its aliases as written (a Japanese
        sheet's "南部十四年式拳銃", whose characters no word match reads)."""
        if name in self.weapons:
            return self.weapons[name]
        low = name.strip().lower()
        if low in self.weapons:  # "MP5", "Uzi": the id as a GM writes it
            return self.weapons[low]
        for w in self.weapons.values():
            if w.name.lower() == low:
                return w
        named = [w for w in self.weapons.values() if any(a.lower() == low for a in w.aliases)]
        return named[0] if len(named) == 1 else None

    def identify_weapon(self, name: str) -> tuple[WeaponEntry | None, str | None]:
        """What a weapon's name says, one answer for every system and path: ``(entry, None)``
        for a catalog weapon (its id, its name, or every word of the name among the entry's
        words, once the entry is the only such one: "Winchester M1894" is the catalog's
        "Winchester Model 1894 carbine (.30-30)"); ``(None, class)`` for a name that ends in a
        weapon class word (vocab.CLASS_WORDS: "rifle", "a hunting rifle"); ``(None, None)``
        for a name that says neither, which no caller may quietly read as a default weapon."""
        hit = self._identified.get(name)
        if hit is None:
            # an alias as written ("南部十四年式拳銃"), else the name in Latin words ("コルト・ガバメント":
            # the Colt Government)
            entry = self.find_weapon(name)
            hit = (entry, None) if entry is not None else self._identify(latin_name(name))
            if len(self._identified) < 4096:
                self._identified[name] = hit
        return hit

    def _identify(self, name: str) -> tuple[WeaponEntry | None, str | None]:
        entry = self.find_weapon(name)
        if entry is not None:
            return entry, None
        entry, named = self._identify_by_words(name)
        if entry is None:
            entry = self._by_model_number(name)
        if entry is None and (alternative := self._one_of_alternatives(name)) is not None:
            entry, named = alternative, None
        if entry is None and named is None and (bare := _without_bore(name)) is not None:
            # a model with a bore no cartridge is named by ("AK-47 7.62mm", "Kar98k 7.92mm", as
            # GURPS tables print them): the model its other words name, where its calibre is that bore
            found, _ = self._identify(bare[0])
            if found is not None and _calibre_number(found.calibre).startswith(bare[1]):
                entry = found
        stated = cartridge_in_name(name)
        if entry is not None and stated is not None and cartridge_of(entry.calibre) not in (None, stated):
            # a cartridge the name states is the gun's: a "Desert Eagle .357 Magnum" is no catalog
            # Desert Eagle in .50 AE (a stated value wins over a catalog one); it is that model's
            # other chambering, a gun of its class (weapon_class_named) firing what the name says
            return None, None
        return entry, named

    def model_of(self, name: str) -> WeaponEntry | None:
        """The catalog model a weapon's name names by its words, in whatever chambering (a
        "Desert Eagle .357 Magnum" names the catalog's Desert Eagle, which is a .50 AE): what
        kind of gun it is, where the name is not that catalog weapon (identify_weapon)."""
        entry = self.identify_weapon(name)[0]
        if entry is not None:
            return entry
        if name in self._modelled:
            return self._modelled[name]
        latin = latin_name(name)
        entry = self._identify_by_words(latin)[0] or self._by_model_number(latin)
        if len(self._modelled) < 4096:
            self._modelled[name] = entry
        return entry

    def _by_model_number(self, name: str) -> WeaponEntry | None:
        """A model named with the cartridge it fires ("Colt M1911A1 (.45 ACP)", "Glock 17 9mm"):
        the model, by the name's other words, where they hold a model number (in whatever
        chambering: the callers compare the cartridge). A cartridge whose name shares a word with
        the model's ("9mm Luger P08": the 9mm Luger cartridge, the Luger pistol) leaves that word."""
        rest = without_cartridge(name)
        if rest is None:
            return None
        if not any(c.isdigit() for w in _weapon_words(rest) for c in w):  # "Uzi 9mm": an id with its cartridge
            return self.find_weapon(rest.strip(" ()[],-"))
        found = self.find_weapon(rest.strip(" ()[],-")) or self._identify_by_words(rest)[0]
        if found is None:
            bare = " ".join(w for w in name.split() if not (any(c.isdigit() for c in w) and cartridge_of(w)))
            if bare != name and any(c.isdigit() for w in _weapon_words(bare) for c in w):
                found = self.find_weapon(bare) or self._identify_by_words(bare)[0]
        return found

    def _one_of_alternatives(self, name: str) -> WeaponEntry | None:
        """A name that lists alternatives, as the 7th-edition table groups guns of one line ("AK-47
        or AKM", "Garand M1, M2 Rifle"): the one catalog weapon its parts name, where they name one
        and no other."""
        parts = [p.strip() for p in re.split(r"\s+or\s+|,\s*", name) if p.strip()]
        if len(parts) < 2:
            return None
        found = {e.id: e for e in (self._identify_by_words(p)[0] or self._by_model_number(p) for p in parts)
                 if e is not None}
        return next(iter(found.values())) if len(found) == 1 else None

    def _identify_by_words(self, name: str) -> tuple[WeaponEntry | None, str | None]:
        words = _weapon_words(name)
        # the nickname a catalog name gives in quotes ("Thompson M1928 ('Tommy gun')", "Mauser C96
        # 'Broomhandle'") or an alias of the entry ("Thompson submachine gun"): the names GMs and
        # books write for it, a "the" or "a" before it or not
        said = words - {"a", "an", "the", "his", "her"}
        # (with its calibre's words or not, its kind's or not: "Colt Peacemaker .45", "Peacemaker
        # (.45 Colt)", "Webley Mk I Revolver")
        plain = said - _CLASS_TOKENS
        nicknamed = [e for e in self.weapons.values()
                     if (named := {said, plain, said - _weapon_words(e.calibre), plain - _weapon_words(e.calibre)}
                         - {frozenset()})
                     and (_nickname(e.name) in named or any(_weapon_words(a) in named for a in getattr(e, "aliases", ())))]
        if len(nicknamed) == 1:
            return nicknamed[0], None
        if len(words) == 1 and (m := _VARIANT.match(next(iter(words)))) and m.group(1) in self.weapons:
            return self.weapons[m.group(1)], None  # "MP5A3": a variant of the catalog's mp5
        # two words or more, with a model number or with two words that name no class or
        # generic thing ("Lee-Enfield" is the catalog's "Lee-Enfield No. 4 Mk I"; "Colt pistol"
        # names a maker and a class, too little to be one weapon)
        # the words that name a maker or a model, not a kind or a calibre ("Lee Enfield rifle":
        # lee, enfield, a rifle as the entry is; ".30-06 bolt-action rifle" names none)
        proper = frozenset(w for w in words - _GENERIC_WORDS if w.isalpha())
        said = {CLASS_WORDS[w] for w in words if w in CLASS_WORDS}
        # (the words of the name but those of the cartridge it states: a ".357 Magnum Revolver"
        # names a cartridge and a kind, no model; a ".44 Magnum" a cartridge, not the one catalog
        # gun that fires it)
        rest = without_cartridge(name)
        core = _weapon_words(name if rest is None else rest) - _GENERIC_WORDS - {"model", "mod"}
        if len(words) >= 2 and (any(any(c.isdigit() for c in w) for w in words) or len(proper) >= 2) \
                and (rest is None or core):
            # (a model's words with its calibre's, named or not: "Colt .45" is the Colt M1911A1 as
            # much as the Colt Single Action Army (.45 Colt), so it names neither)
            hits = [e for e in self.weapons.values()
                    if words <= _weapon_words(e.name) | _weapon_words(e.id) | _weapon_words(e.calibre)]
            if not hits and len(proper) >= 2:
                # (and every model number it states: an "H&K G3" is no catalog H&K that is not a G3;
                # a year is no model number: "Lee-Enfield No. 4 (1941)")
                numbered = {w for w in core if any(c.isdigit() for c in w) and not (w.isdigit() and len(w) == 4)}
                hits = [e for e in self.weapons.values()
                        if proper | numbered <= _weapon_words(e.name) | _weapon_words(e.id)
                        and (not said or said <= {e.weapon_class, KIND_OF.get(e.weapon_class, "")})]
            if not hits and any(w.isalpha() for w in core) and any(any(c.isdigit() for c in w) for w in core):
                # a maker or model with its number, among words that name an action or a kind
                # ("Glock 17 9mm Auto", "Model P08 Luger": the 7th-edition table's names)
                hits = [e for e in self.weapons.values() if core <= _weapon_words(e.name) | _weapon_words(e.id)]
            if not hits and words != (base := frozenset(_VARIANT.sub(r"\1", w) for w in words)):
                # a variant of a catalog model: "Thompson M1928A1" is the catalog's Thompson M1928
                hits = [e for e in self.weapons.values() if base <= _weapon_words(e.name) | _weapon_words(e.id)]
            if len(hits) == 1:
                return hits[0], None
        # the class word it ends in, its calibre aside ("Shotgun 12 gauge", "Rifle (.30-06)", "Pistol 9mm")
        bare = without_cartridge(name)
        if bare is None and (bored := _without_bore(name)) is not None:
            bare = bored[0]
        for text in (name, bare) if bare is not None else (name,):
            low = " ".join(re.sub(r"[()\[\],]", " ", text.lower()).replace("-", " ").split())
            for word in sorted(CLASS_WORDS, key=len, reverse=True):
                if low == word or low.endswith(" " + word):
                    return None, CLASS_WORDS[word]
        if says_revolver(name):
            return None, "revolver"
        return None, None

    def class_of_cartridge(self, cartridge: str) -> str | None:
        """The weapon class the catalog's weapons that fire `cartridge` (a CARTRIDGES key) are, the most of
        them (the first in id order on a tie): a .38 Special a revolver; None where none fires it."""
        from collections import Counter

        from .vocab import cartridge_of

        classes = Counter(w.weapon_class for w in sorted(self.weapons.values(), key=lambda w: w.id)
                          if w.calibre and cartridge_of(w.calibre) == cartridge)
        return classes.most_common(1)[0][0] if classes else None

    def weapon_class_named(self, name: str, stated: str) -> str:
        """The class of a source's weapon line that states `stated` (by its skill, chart line or
        kind): the kind of it the name says, where the name says one (a "ニューナンブM60リボルバー"
        fired with Handgun is a revolver: vocab.KIND_OF; a handgun named for a revolver cartridge,
        vocab.REVOLVER_CARTRIDGES), else `stated`. A name never overrides a
        stated class it is no kind of (a "Rifle" line fired with Handgun stays a handgun)."""
        entry, named = self.identify_weapon(name)
        if named is not None and KIND_OF.get(named) == stated:
            return named
        model = self.model_of(name) if entry is None else None
        if model is not None and stated in (model.weapon_class, KIND_OF.get(model.weapon_class)):
            return model.weapon_class  # a model in another chambering: a Desert Eagle .357 is an automatic
        if stated == "handgun" and entry is None and cartridge_in_name(name) in REVOLVER_CARTRIDGES \
                and not says_automatic(name):
            return "revolver"  # "Colt Police Positive (.38 Special)": a revolver cartridge (vocab)
        return stated

    def weapon_line(self, name: str, catalog_id: str | None, stated: str, line_of: Callable[[Weapon], str],
                    stated_class: str, energy_of: Callable[[str], Energy], rule: str, col: Any, path: str,
                    field: str = "damage") -> Weapon:
        """A system's weapon line (a name, a class it states by a range category or a skill, a
        damage rating) as the neutral weapon, one way for every system: its catalog weapon (its
        ``catalog_id``, an unknown one refused at ``<path>.catalog``; else the weapon its name
        is), whose own line in the system (`line_of`) wins over the stated one, the difference
        reported as ``rounded``; else a weapon of the class the name says within
        `stated_class` (:meth:`weapon_class_named`) and of the muzzle energy `energy_of(class)`
        reads the rating as, reported as ``assumed``. Either way under the line's name."""
        if catalog_id and catalog_id not in self.weapons:
            raise InputError("unknown catalog weapon", path=f"{path}.catalog",
                             expected="a weapon id from `xsys catalog weapon`", found=repr(catalog_id))
        entry = self.weapons[catalog_id] if catalog_id else self.find_weapon(name)
        if entry is not None:
            w: Weapon = msgspec.structs.replace(strip_entry(entry), name=name)  # type: ignore[assignment]
            if line_of(w) != stated:
                col.loss("rounded", f"{path}.{field}", f"{stated}: {entry.id} does {line_of(w)} here", rule)
            return w
        cls = self.weapon_class_named(name, stated_class)
        energy = energy_of(cls)
        col.loss("assumed", f"{path}.{field}", weapon_note(name, stated, float(energy)), rule)
        return Weapon(name=name, weapon_class=cls, muzzle_energy=energy,  # type: ignore[arg-type]
                      sights="none" if cls == "thrown" else "iron")

    def shot_weapon(self, name: str, catalog_id: str | None, skill: str | None) -> tuple[Weapon | None, str | None]:
        """What a native shot's weapon field names, one answer for every system: its catalog
        weapon (by ``catalog_id``, else by what `name` says: identify_weapon) under the shot's
        name, and else the class word the name ends in (None: none). A name that says no weapon
        and no class, in a shot that names no `skill`, is refused: it is not a handgun."""
        if catalog_id:
            entry, word_class = self.find_weapon(catalog_id), None
        else:
            entry, word_class = self.identify_weapon(name)
        if entry is not None:
            w = strip_entry(entry)
            if w.name != name and (catalog_id or self.find_weapon(name) is None):
                w = msgspec.structs.replace(w, name=name)
            return w, None
        if word_class is None and skill is None:
            raise InputError("unknown weapon", path="$.weapon",
                             expected="a catalog weapon (`xsys catalog weapon`), a weapon class (handgun, "
                                      "revolver, smg, carbine, rifle, shotgun, machine gun) or a shot `skill`",
                             found=repr(name))
        return None, word_class

    def weapon_basis(self, weapon: Weapon) -> "WeaponBasis":
        """What decides a neutral weapon's line in every system, one answer for every path (a
        weapon read from a text block, a native stat block or a neutral document): its catalog
        weapon (its ``catalog`` id, else what its name says: identify_weapon, when that is a
        weapon of its class), whose cartridge (else its own muzzle energy) rates its damage;
        else the cartridge its calibre names or, with no calibre, its name states ("Colt Police
        Positive (.38 Special)", ".38 Revolver"); else its own muzzle energy, on the line of its
        class. Each system rates the cartridge by its own table (one cartridge, one damage
        line), so a weapon has one line in each system wherever it came from."""
        entry = self.weapons.get(weapon.catalog) if weapon.catalog else None
        sawn_off = False
        if entry is None and not weapon.catalog:
            found, _ = self.identify_weapon(weapon.name)
            if found is not None and weapon.weapon_class in (found.weapon_class, KIND_OF.get(found.weapon_class)):
                entry = found
            elif found is None:
                entry = self.sawn_off_of(weapon)
                sawn_off = entry is not None
        if entry is not None:
            key = cartridge_of(entry.calibre)
            said = f"catalog weapon {entry.id}" + (f", {key}" if key else f", {float(entry.muzzle_energy):g} J")
            if sawn_off:
                said += " (a sawn-off shotgun of no model: the catalog's sawn-off of its gauge)"
            energy = CARTRIDGES[key][0] if key else float(entry.muzzle_energy)
            return WeaponBasis("catalog", entry, key, energy, said)
        key = cartridge_of(weapon.calibre)
        if key is not None:
            return WeaponBasis("cartridge", None, key, CARTRIDGES[key][0], f"{key}, its calibre")
        if not weapon.calibre:
            key = cartridge_in_name(weapon.name)
            if key is not None:
                return WeaponBasis("cartridge", None, key, CARTRIDGES[key][0], f"{key}, the cartridge its name states")
        energy = float(weapon.muzzle_energy)
        return WeaponBasis("class", None, None, energy,
                           f"no catalog weapon or known cartridge: a {weapon.weapon_class} of {energy:g} J")

    def sawn_off_of(self, weapon: Weapon) -> WeaponEntry | None:
        """The catalog's sawn-off for a shotgun that is one (vocab.is_sawn_off: shorter than
        0.66 m, or named so) and names no model: the one sawn-off shotgun of its gauge (its
        calibre's, else its name's, else any) that the catalog holds, whose row every weapon
        table prints (the coc-ja and 7th-edition tables' sawed-off 12-gauge, nWoD's "Shotgun,
        Sawn-off"); None where the catalog holds none or several. Assumed (catalog README): a
        "sawed-off shotgun" is the break-action double gun cut down that the tables mean, so
        that it gets the sawn-off's line in every system, not a full-length shotgun's in some."""
        if weapon.weapon_class != "shotgun":
            return None
        length = float(weapon.length) if weapon.length is not None else None
        if not is_sawn_off("shotgun", length, weapon.name):
            return None
        gauge = cartridge_of(weapon.calibre) if weapon.calibre else cartridge_in_name(weapon.name)
        hits = [e for e in self.weapons.values() if e.weapon_class == "shotgun" and e.length is not None
                and is_sawn_off("shotgun", float(e.length)) and gauge in (None, cartridge_of(e.calibre))]
        return hits[0] if len(hits) == 1 else None

    def capacity_of(self, weapon: Weapon) -> tuple[int, bool]:
        """The capacity a sheet writes for `weapon`, one answer for every system: the source's,
        else its catalog weapon's (:meth:`weapon_basis`: by id, else by what its name says), else
        its class's usual one (core.model.USUAL_CAPACITY, assumed); and whether it is that usual
        one (said: capacity_note)."""
        if weapon.capacity:
            return int(weapon.capacity), False
        entry = self.weapon_basis(weapon).entry
        if entry is not None and entry.capacity:
            return int(entry.capacity), False
        return USUAL_CAPACITY.get(weapon.weapon_class, 0), True

    def weapons_of_class(self, weapon_class: str) -> list[WeaponEntry]:
        return [w for w in self.weapons.values() if w.weapon_class == weapon_class]

    def as_plain(self) -> dict[str, Any]:
        return codec.to_builtins({
            "weapon": sorted(self.weapons.values(), key=lambda w: w.id),
            "armor": sorted(self.armor.values(), key=lambda a: a.id),
            "material": sorted(self.materials.values(), key=lambda m: m.id),
        })


# a model with a variant suffix: 'm1928a1', 'm1903a3', 'mp5a3' (not 'm1a1': too short to be one model)
_VARIANT = re.compile(r"^([a-z]*\d{3,}|[a-z]{2,}\d+)a\d+$")


# words that say what kind of thing a weapon is, not which one (vocab.CLASS_WORDS, split, and
# the usual adjectives of a stat block's line)
_GENERIC_WORDS = frozenset(w for k in CLASS_WORDS for w in k.replace("-", " ").split()) | frozenset(
    {"gun", "semi", "automatic", "auto", "bolt", "action", "lever", "pump", "double", "barrel", "barrelled",
     "hunting", "service", "sporting", "military", "heavy", "light", "old", "sawn", "off", "sawed", "short",
     "long", "the", "a", "an", "of", "with", "and", "gauge", "calibre", "caliber", "army", "police", "type"})


# the words of the class words (revolver, pistol, rifle, machine, gun ...), which a name may add to
# an alias ("Webley Mk I Revolver" is the alias "Webley Mk I")
_CLASS_TOKENS = frozenset(w for k in CLASS_WORDS for w in k.replace("-", " ").split())


# a bore as a name states it without naming one cartridge: "7.62mm" (x25, x39, x51, x54R), "7.92mm",
# ".45", ".50"; its number, compared with the start of a catalog calibre's (_calibre_number)
_BORE = re.compile(r"(?<![\w.])(\d{1,2}(?:[.,]\d{1,2})?)\s?mm\b|(?<![\w.])(\.\d{2,3})(?![\w.])", re.IGNORECASE)


def _without_bore(name: str) -> tuple[str, str] | None:
    """The name without the one bore it states (_BORE) and that bore's number ("AK-47 7.62mm" ->
    ("AK-47", "7.62"), "Colt .45" -> ("Colt", ".45")), or None: none, or more than one."""
    found = list(_BORE.finditer(name))
    if len(found) != 1 or cartridge_in_name(name) is not None:
        return None
    m = found[0]
    rest = " ".join((name[:m.start()] + " " + name[m.end():]).replace("()", " ").split()).strip(" ,-")
    return (rest, (m.group(1) or m.group(2)).replace(",", ".")) if rest else None


def _calibre_number(calibre: str) -> str:
    """A catalog calibre's leading number ("7.62x39mm" -> "7.62x39mm", ".45 ACP" -> ".45 acp"), lower
    case, for a stated bore to be the start of."""
    return calibre.strip().lower().replace(",", ".")


# makers GMs and books write by their initials ("S&W Model 10", "H&K MP5"): as the catalog's names spell them
_MAKER_NAMES = {"s&w": "smith & wesson", "h&k": "heckler & koch"}
_MAKERS = re.compile(r"(?<![a-z])(?:s\s*&\s*w|h\s*&\s*k)(?![a-z])")


@lru_cache(maxsize=4096)
def _weapon_words(name: str) -> frozenset[str]:
    """A weapon name's words, folded so that printings of one model meet: case, punctuation,
    "Model 1894" / "Mod. 1894" / "M 1894" all as "m1894", and a maker's initials as its name."""
    low = _MAKERS.sub(lambda m: _MAKER_NAMES[re.sub(r"\s", "", m.group(0))], name.lower())
    text = re.sub(r"[^0-9a-z.]+", " ", low.replace("'", "")).replace(".", " ")
    text = re.sub(r"\b(?:model|mod|m)\s+(\d)", r"m\1", text)
    return frozenset(text.split())


@lru_cache(maxsize=1024)
def _nickname(name: str) -> frozenset[str]:
    """The words of the nickname a catalog name gives in single quotes, else none."""
    m = re.search(r"'([^']+)'", name)
    return _weapon_words(m.group(1)) if m else frozenset()



def _no_catalog() -> "Catalog":
    raise RuntimeError("no catalog installed: xsys.core.registry sets xsys.core.catalog.installed")


# The process-wide catalog, for the core modules that core.registry's own imports reach (the
# declared sheet's armor lines, armorline's coverage notes): core.registry sets it to its
# registry's catalog, so those modules ask here rather than import the registry in a circle.
installed: Callable[[], "Catalog"] = _no_catalog

def says_revolver(name: str) -> bool:
    """Whether a weapon's name holds a revolver word (vocab.REVOLVER_WORDS): a word of a script
    without spaces anywhere in it, any other as a whole word ("Revolver .38", "Nagant revolver")."""
    return holds_word(name, REVOLVER_WORDS)


def says_automatic(name: str) -> bool:
    """Whether a weapon's name says it is an automatic (self-loading) pistol and not a revolver
    (vocab.AUTOMATIC_WORDS, no revolver word: a "Webley-Fosbery automatic revolver" is a revolver)."""
    return holds_word(name, AUTOMATIC_WORDS) and not says_revolver(name)


GRENADE_RULE = "xsys.grenade"


def say_grenade(col: Any, path: str, weapon: Weapon | None, rule: str = GRENADE_RULE) -> None:
    """A reader's loss line for a grenade (grenade_blast) at `path` of its source, a warning
    (``unsupported-field``: what the source states about the blast has no neutral field)."""
    said = grenade_blast(weapon) if weapon is not None else None
    if said is not None and col is not None:
        col.loss("unsupported-field", path, said, rule)


def named_grenade(name: str, weapon_class: str) -> bool:
    """Whether a thrown weapon's name says it is a grenade (vocab.GRENADE_WORDS, any language)."""
    return weapon_class == "thrown" and any(w in name.lower() for w in GRENADE_WORDS)


def grenade_blast(weapon: Weapon) -> str | None:
    """What a reader says of a grenade (a thrown weapon whose name says so: vocab.GRENADE_WORDS),
    else None: the neutral model has no blast or area effect yet, so the grenade crosses as a
    thrown weapon with its damage, one target, and its blast does not cross."""
    if not named_grenade(weapon.name, weapon.weapon_class):
        return None
    return (f"{weapon.name} is a grenade: it converts as a thrown weapon with its damage "
            f"({float(weapon.muzzle_energy):g} J) against one target; its blast (the area it hits, "
            "the others caught in it) has no place in the neutral model and did not cross")


def table_grenade_energy(name: str, weapon_class: str, damage: str, table_damage: str | None) -> float | None:
    """The neutral energy of a thrown weapon whose name says grenade and whose damage is its
    system's own grenade line (`table_damage`: CoC's 4D10), which says nothing of the weapon
    but that it is the table's grenade: vocab.GRENADE_ENERGY_J (xsys.grenade, assumed); else None."""
    if not table_damage or not named_grenade(name, weapon_class):
        return None
    if damage.split("/")[0].replace(" ", "").upper() != table_damage.replace(" ", "").upper():
        return None
    return GRENADE_ENERGY_J


def table_grenade(weapon: Weapon) -> bool:
    """Whether a neutral weapon is a grenade at a grenade's one energy (vocab.GRENADE_ENERGY_J):
    a sheet that prints its table's grenade line for it needs to state no energy of its own."""
    return grenade_blast(weapon) is not None and weapon.muzzle_energy is not None \
        and abs(float(weapon.muzzle_energy) - GRENADE_ENERGY_J) < 1e-9


def strip_entry(item: WeaponEntry | ArmorEntry) -> Weapon | Armor:
    """A catalog entry as a plain neutral Weapon/Armor that remembers its catalog id.

    Both are frozen, so the neutral form of an entry is made once and shared: every NPC
    carrying the same catalog weapon asks for it again."""
    hit = _STRIPPED.get(id(item))
    if hit is not None and hit[0] is item:
        return hit[1]
    fields = {f: getattr(item, f) for f in item.__struct_fields__ if f not in ("id", "source", "feed", "era", "aliases")}
    fields["catalog"] = item.id
    cls = Weapon if isinstance(item, Weapon) else Armor
    out = cls(**fields)
    if len(_STRIPPED) < _STRIPPED_MAX:
        _STRIPPED[id(item)] = (item, out)  # the entry is held, so its id is not reused
    return out


_STRIPPED: dict[int, tuple[Any, Weapon | Armor]] = {}
_STRIPPED_MAX = 4096

