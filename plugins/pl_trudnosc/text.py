"""Stat blocks of the Polish system as printed text: the pl-trudnosc system's declared text
layout (``PlTrudnoscSystem.text_layout``): four traits, skills 0-5, weapons by kind, armor
points. The shared line machinery is the core's (xsys.core.textblock).
"""

from __future__ import annotations

import re
from typing import Any

from xsys.core.textblock import (Read, TextLayout, Walk, armor_entry, catalog_label, catalog_tag, fold,
                                 name_of as _name, named, notes_of as _notes, sectioner, split_items, stat_pairs,
                                 weapon_class_by_name, weapon_entry, weapons_line)

PL_TRAITS = ("Motoryka", "Percepcja", "Atletyka", "Odwaga")
PL_SKILLS = ("Broń krótka", "Broń długa", "Rzucanie", "Czujność")


# ---- the Polish system -------------------------------------------------------------------

def read_pl(lines: list[str], system: str) -> Read:
    r = Read(system)
    doc: dict[str, Any] = {}
    skills: dict[str, int] = {}
    zalety: list[str] = []
    weapons: list[dict[str, Any]] = []
    armor: list[dict[str, Any]] = []
    notes: list[str] = []

    def stats(line: str) -> str | None:
        found, rest = stat_pairs(line, PL_TRAITS)
        if not found:
            return None
        doc.update({k: int(v) for k, v in found.items()})
        return rest

    def weapon_item(item: str, n: int) -> None:
        item, cid = catalog_tag(item)
        name, details = named(item) or (item.strip(), "")
        w: dict[str, Any] = {"nazwa": name}
        left = []
        for p in split_items(details):
            if fold(p) in ("krótka", "krotka", "długa", "dluga", "rzucana"):
                w["rodzaj"] = {"krotka": "krótka", "dluga": "długa"}.get(fold(p), fold(p))
                continue
            ob = re.match(r"^obrażenia\s*:?\s*(\d+)$", p, re.IGNORECASE)
            if ob:
                w["obrażenia"] = int(ob.group(1))
                continue
            left.append(p)
        entry = weapon_entry(cid, name)
        if entry is not None:
            w["katalog"] = entry.id
        if "rodzaj" not in w:
            cls = entry.weapon_class if entry is not None else weapon_class_by_name(name)
            kind = {"handgun": "krótka", "revolver": "krótka", "thrown": "rzucana"}.get(cls or "", "długa" if cls else None)
            if kind is None:
                r.unread.append((n, f"{item} (rodzaj not given: krótka, długa or rzucana)"))
                return
            w["rodzaj"] = kind
            if entry is None:  # (a catalog weapon's kind is the catalog's: nothing assumed)
                r.assumed.append(f"line {n}: {name}: rodzaj not given; {kind}, as its name says (a {cls})")
        if left:
            r.unread.append((n, f"{name}: " + ", ".join(left)))
        weapons.append(w)

    def skill_item(item: str, n: int) -> bool:
        m = re.match(r"^(?P<name>.+?)\s+(?P<val>\d)$", item)
        native = next((x for x in PL_SKILLS if m and fold(x) == fold(m.group("name"))), None)
        if native is None or m is None:
            return False
        skills[native] = int(m.group("val"))
        return True

    def armor_item(item: str, n: int) -> bool:
        item, cid = catalog_tag(item)
        m = re.match(r"^(?P<name>[^(]+?)\s*(?:\(\s*(?:punkty\s*:?\s*)?(?P<p>\d+)\s*\))?$", item)
        if not m:
            return False
        a: dict[str, Any] = {"nazwa": m.group("name").strip()}
        if m.group("p"):
            a["punkty"] = int(m.group("p"))
        entry = armor_entry(cid, a["nazwa"])
        if entry is not None:
            a["katalog"] = entry.id
        armor.append(a)
        return True

    section = sectioner(r, notes, stats, {
        "skills": skill_item, "zalety": lambda item, n: zalety.append(item),
        "advantages": lambda item, n: zalety.append(item), "weapons": weapon_item, "armor": armor_item})

    Walk(r, lines).run(stats, section)
    out: dict[str, Any] = {"imię": _name(r)}
    out.update({k: doc[k] for k in PL_TRAITS if k in doc})
    out["umiejętności"] = skills
    if zalety:
        out["Zalety"] = zalety
    out["broń"] = weapons
    out["pancerz"] = armor
    out["opis"] = _notes(r, notes)
    r.doc = out
    return r



# ---- writing --------------------------------------------------------------------------------

def write_pl(d: dict[str, Any]) -> list[str]:
    out = [str(d.get("imię", ""))]
    out.append(", ".join(f"{k} {d.get(k, 3)}" for k in PL_TRAITS))
    skills = {k: v for k, v in (d.get("umiejętności") or {}).items() if v}
    if skills:
        out.append("Umiejętności: " + ", ".join(f"{k} {v}" for k, v in skills.items()))
    if d.get("Zalety"):
        out.append("Zalety: " + ", ".join(d["Zalety"]))
    if d.get("broń"):
        out.append(weapons_line("Broń", [
            f"{w['nazwa']}{catalog_label(w, 'katalog', 'weapon', 'nazwa')} ({w['rodzaj']}"
            + (f", obrażenia {w['obrażenia']}" if w.get("obrażenia") is not None else "") + ")" for w in d["broń"]],
            [w["nazwa"] for w in d["broń"]]))
    if d.get("pancerz"):
        out.append("Pancerz: " + "; ".join(
            f"{a['nazwa']}{catalog_label(a, 'katalog', 'armor', 'nazwa')}"
            + (f" (punkty {a['punkty']})" if a.get("punkty") is not None else "") for a in d["pancerz"]))
    return out




# ---- the declared layout -----------------------------------------------------------------------

class PlText(TextLayout):
    """The pl-trudnosc system's text stat block (``PlTrudnoscSystem.text_layout``); its notes
    are the document's ``opis`` under an ``Opis:`` heading."""

    stats_hint = "Motoryka Percepcja Atletyka Odwaga (pl-trudnosc)"
    notes_field = "opis"
    notes_label = "Opis"
    stats = PL_TRAITS

    def read(self, lines: list[str]) -> Read:
        return read_pl(lines, self.key)

    def write(self, doc: dict[str, Any]) -> list[str]:
        return write_pl(doc)
