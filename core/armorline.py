"""What a system's armor line states beyond its own rating, so that a neutral armor piece comes
back whole: the body parts it covers and its deflection.

Every system rates armor by what it stops (CoC A/B, nWoD general/ballistic, the Polish points,
GURPS DR), but only GURPS writes where a piece sits and how readily it turns a blow aside (PD).
Where a line's catalog item (or the neutral default, the torso and no deflection) would give
other ones back, the line carries them in two optional fields of its own, and reading the line
puts them back: a helmet stays on the head, full riot gear on every limb, and a GURPS PD 2 comes
back PD 2 after a trip through a system that has no such number. Each system asks
:func:`extras` with what its line reads back as without them, and :func:`restore` on reading.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping, Sequence

import msgspec

from . import catalog as _catalog
from .catalog import strip_entry
from .errors import InputError
from .model import Armor
from .units import Energy


def extras(armor: Armor, back: Armor) -> dict[str, Any]:
    """`armor`'s ``covers`` and ``deflection`` where `back` (what the system's line reads back
    as without them) says otherwise: the fields the line must carry."""
    out: dict[str, Any] = {}
    if list(armor.covers) != list(back.covers):
        out["covers"] = list(armor.covers)
    if armor.deflection is not None and armor.deflection != back.deflection:
        out["deflection"] = armor.deflection
    return out


# Armor whose name says it is a helmet covers the head (assumed): a line that names no location
# and no catalog item would otherwise be read as the neutral default, the torso, and a helmet there
# stops bullets to the chest. English, Polish (hełm, kask), German (Helm, Stahlhelm), French
# (casque), Spanish/Italian (casco), Portuguese (capacete), Russian (шлем), Japanese (ヘルメット,
# 鉄帽, 鉄兜), Chinese (头盔/頭盔, 钢盔/鋼盔, 钢帽/鋼帽).
HELMET_WORDS = re.compile(r"helmet|helm\b|hełm|\bkask(?:i|u|iem|ów|ach)?\b|casque|\bcasco\b|capacete|шлем|ヘルメット|"
                          r"鉄帽|鉄兜|"
                          r"头盔|頭盔|钢盔|鋼盔|钢帽|鋼帽", re.IGNORECASE)


def says_helmet(name: str) -> bool:
    """Whether an armor's name says it is a helmet (HELMET_WORDS)."""
    return bool(HELMET_WORDS.search(name))


# a creature's own armor: its skin, hide, scales, carapace (a 7th-edition block's "9-point skin")
# (not what is worn: scale mail, a hide coat, a fur jacket)
HIDE_WORDS = re.compile(r"\b(?:skin|hide|scales|carapace|chitin|exoskeleton|natural armou?r)\b|皮膚|皮肤|鱗|鳞|甲殻|甲壳|外骨格", re.IGNORECASE)
WORN_WORDS = re.compile(r"armou?r|mail|jacket|coat|vest|suit|cloak|shirt|helm|ジャケット|コート|ベスト|鎧|甲冑|衣|服",
                        re.IGNORECASE)
WHOLE_BODY = ["head", "face", "neck", "torso", "vitals", "groin", "arms", "hands", "legs", "feet"]


def restore(armor: Armor, covers: Sequence[str] | None, deflection: int | None, col: Any = None, path: str = "",
            rule: str = "") -> Armor:
    """`armor` (as a line's rating and catalog item give it) with what the line states of its
    coverage and deflection; a line that states no coverage, of no catalog item, whose name
    says it is a helmet, covers the head (HELMET_WORDS; said to `col`, ``assumed``, when given); one
    whose name says a creature's own skin, hide or scales is natural armor over the whole body
    (HIDE_WORDS, said alike)."""
    changes: dict[str, Any] = {}
    if covers is not None and list(covers) != list(armor.covers):
        changes["covers"] = list(covers)
    elif covers is None and armor.catalog is None and list(armor.covers) == ["torso"] and says_helmet(armor.name):
        changes["covers"] = ["head"]
        if col is not None:
            col.loss("assumed", f"{path}.covers", f"{armor.name}: its name says a helmet, and the line names no "
                     "location: it covers the head", rule)
    elif covers is None and armor.catalog is None and list(armor.covers) == ["torso"] and HIDE_WORDS.search(armor.name) \
            and not WORN_WORDS.search(re.sub(r"natural armou?r", "", armor.name, flags=re.IGNORECASE)):
        changes.update(covers=list(WHOLE_BODY), kind="natural")
        if col is not None:
            col.loss("assumed", f"{path}.covers", f"{armor.name}: its name says the creature's own skin or hide, and "
                     "the line names no location: natural armor over the whole body", rule)
    if deflection is not None and deflection != armor.deflection:
        changes["deflection"] = deflection
    return msgspec.structs.replace(armor, **changes) if changes else armor


def read(cat: Any, name: str, catalog_id: str | None, points: int | None, ladder: Any, rule: str, col: Any,
         path: str, covers: Sequence[str] | None = None, deflection: int | None = None,
         field: str = "rating") -> Armor:
    """An armor line that rates a piece by points on the system's armor ladder and may name a
    catalog item, as the neutral armor, one way for every system: the catalog item (its
    ``catalog_id``, an unknown one refused; else the item its name is), stopping what stated
    points other than the item's stand for (the sheet's value wins, reported as ``assumed``:
    :func:`stated_note`); else the joules its points stand
    for on `ladder`, reported as ``assumed``; a line with neither is refused. With what the line
    states of where the piece sits and its deflection (:func:`restore`)."""
    entry = cat.find_armor(name, catalog_id, path=f"{path}.catalog")
    if entry is not None:
        arm: Armor = msgspec.structs.replace(strip_entry(entry), name=name)  # type: ignore[assignment]
        derived = ladder.native(float(arm.stops))
        if points is not None and points != derived:  # the sheet's value wins over its item's, said
            kept = points if ladder.has_native(points) else ladder.nearest_native(points)
            arm = msgspec.structs.replace(arm, stops=Energy(ladder.neutral(kept)))
            col.loss("assumed", f"{path}.{field}", stated_note(name, f"{field} {points}", entry, f"{field} {derived}",
                                                               f"{field} {kept}", float(arm.stops)), rule)
    elif points is None:
        raise InputError(f"armor needs a {field} or a catalog item", path=path,
                         expected=f"{field}: <points> or catalog: <id>", found=repr(name))
    else:
        row = ladder.nearest_native(points)
        arm = Armor(name=name, stops=Energy(ladder.step_of(row).rep))
        col.loss("assumed", f"{path}.{field}", points_note(name, f"{field} {row}", float(arm.stops), f"{field} {points}"),
                 rule)
    return restore(arm, covers, deflection, col, path, rule)


def points_note(name: str, read: str, stops: float, stated: str | None = None) -> str:
    """The one line every system says when it reads an armor line of no catalog item from its points
    (`read`: "A 3", "DR 12", "punkty 2"; `stated`, where the points are not a row of the system's
    table: what the sheet wrote, read as its nearest row): the joules that stands for."""
    nearest = f", the armor table's nearest row to the stated {stated}" if stated is not None and stated != read else ""
    return f"armor {name!r} not in the catalog; stops read from {read}{nearest} ({float(stops):g} J)"


def stated_note(name: str, stated: str, entry: Any, item: str, kept: str, stops: float, noun: str = "armor") -> str:
    """The one line every system says when a sheet rates a catalog item otherwise than the item
    rates on its table: the sheet's value wins (`kept`: the row it is read as, `stops` its joules)."""
    how = "is kept" if kept == stated else f"is read as the nearest row, {kept}"
    return (f"{name}: {stated} is not the {noun} of its catalog item {entry.id} ({float(entry.stops):g} J: {item}); "
            f"the sheet's {stated} {how} (it stops {float(stops):g} J)")


def write(cat: Any, armor: Armor, ladder: Any, rule: str, col: Any, path: str, system: str) -> dict[str, Any]:
    """What a points-rated armor line (as :func:`read` reads it) writes for neutral `armor`:
    ``points`` by `ladder`, its ``catalog`` id, and ``covers`` / ``deflection`` only where the
    line would not give them back without them (:func:`extras`; a deflection kept so is
    reported, ``kept-verbatim``: no such armor value here)."""
    entry = cat.armor.get(armor.catalog) if armor.catalog else None
    out: dict[str, Any] = {"points": ladder.native(float(armor.stops)), "catalog": entry.id if entry else None}
    out.update(extras(armor, read(cat, armor.name, out["catalog"], out["points"], ladder, rule, _Quiet(), path)))
    if "deflection" in out:
        col.loss("kept-verbatim", f"{path}.deflection", deflection_note(armor, system), rule)
    return out


class _Quiet:
    """A collector for reading a line back only to compare it: what it reports is not this
    conversion's."""

    def loss(self, *args: Any, **kwargs: Any) -> None:
        pass


def deflection_note(armor: Armor, system: str) -> str:
    """The loss line of a system that has no deflection and carries it on the line."""
    return (f"{armor.name}: deflection {armor.deflection} (how readily it turns a blow aside; GURPS 3e PD) is "
            f"no {system} armor value; kept on the armor line for the way back")


def coverage_note(rows: Sequence[Any], name: str = "name", catalog_field: str = "catalog",
                  covers_field: str = "covers",
                  tail: str = "a hit meets only the armor where it lands (the rows do not add up)") -> str | None:
    """What each armor row of a sheet covers, where the rows do not all cover the torso alone (a
    helmet beside body armor): "what each piece covers: PASGT helmet the head; Military body armor
    the torso, vitals, neck; a hit meets only the armor where it lands (the rows do not add up)". The row's own locations, else
    its catalog item's, else the head for a helmet by its name, else the torso (the neutral
    default). None when there is nothing a GM could misread (no row, or every row the torso)."""
    cat = _catalog.installed()
    said = []
    for row in rows:
        label = getattr(row, name, None)
        covers = getattr(row, covers_field, None)
        entry = cat.armor.get(getattr(row, catalog_field, None) or "") if not covers else None
        if not covers:
            covers = list(entry.covers) if entry is not None else (["head"] if says_helmet(str(label)) else ["torso"])
        said.append((str(label), list(covers)))
    if not said or all(c == ["torso"] for _, c in said):
        return None
    return "what each piece covers: " + "; ".join(f"{label} the {', '.join(c)}" for label, c in said) + (
        f"; {tail}" if len(said) > 1 else "")


__all__ = ["extras", "restore", "read", "write", "deflection_note", "says_helmet", "HELMET_WORDS", "coverage_note",
           "line_notes", "band_and_throw_notes"]


def line_notes(npc: Any, weapons: Mapping[str, tuple[Callable[[Any], bool], str]] | None = None,
               weapons_field: str = "weapons", damage_field: str = "damage", armor_field: str = "armor",
               **armor_names: str) -> dict[str, dict[str, str]]:
    """A sheet's notes on its own lines (System.sheet_notes) in one shape for every system: under
    the weapons table, each of ``weapons`` (a key -> (whether a line needs it, what to say)) that
    some weapon line needs (a shotgun's bands, a thrown weapon's half damage bonus), said at the
    ``damage_field`` column; under the armor table, what each piece covers (coverage_note, its
    field names in ``armor_names``: name, catalog_field, covers_field; and its closing sentence, tail)."""
    out: dict[str, dict[str, str]] = {}
    lines = getattr(npc, weapons_field, None) or []
    said = [text for needs, text in (weapons or {}).values() if any(needs(w) for w in lines)]
    if said:
        out[weapons_field] = {damage_field: "; ".join(said)}
    where = coverage_note(getattr(npc, armor_field, None) or [], **armor_names)  # type: ignore[arg-type]
    if where:
        out[armor_field] = {armor_names.get("name", "name"): where}
    return out


def band_and_throw_notes(npc: Any, unit: str, bands_rule: str, thrown_rule: str,
                         sawn_off: str, sawn_off_band: int) -> dict[str, dict[str, str]]:
    """line_notes for a d100 family sheet (CoC 6th and 7th edition): a shotgun's a/b/c bands by
    distance in ``unit`` (the first up to 10, the second up to 20, the last beyond, under
    ``bands_rule``; ``sawn_off`` how the sheet writes a two-band line, whose first band reaches
    ``sawn_off_band``), a Throw line's half damage
    bonus (``thrown_rule``), and what each armor piece covers."""
    return line_notes(npc, {
        "bands": (lambda w: "/" in str(getattr(w, "damage", "")),
                  f"a/b/c is shot by distance: the first up to 10 {unit}, the second up to 20 {unit}, the last "
                  f"beyond ({bands_rule}, assumed); a two-part line (a sawn-off's {sawn_off}) is its first up to "
                  f"{sawn_off_band} {unit} and its last beyond, to its base range"),
        # (not a grenade's: its burst owes nothing to the thrower's strength)
        "thrown": (lambda w: getattr(w, "skill", "") == "Throw" and not says_grenade(str(getattr(w, "name", ""))),
                   f"a Throw line adds half the wielder's damage bonus ({thrown_rule})")})


def says_grenade(name: str) -> bool:
    """Whether a weapon's name says grenade (core.vocab.GRENADE_WORDS)."""
    from .vocab import GRENADE_WORDS

    low = name.lower()
    return any(w in low for w in GRENADE_WORDS)
