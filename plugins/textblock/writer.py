"""Native NPC documents (plain data) -> the stat block each system's books print.

Every stat is written, defaults included (an average GURPS shooter shows ST 10, DX 10, IQ 10,
HT 10 rather than nothing). A converted document's ``xsys`` block (its loss report and the
source it remembers) has no place in a printed block: it is summed up in a ``#`` comment line,
which the reader skips, so what xsys writes it reads back.
"""

from __future__ import annotations

import json
from typing import Any

from xsys.core.errors import InputError

from . import names as N


CARRIED = "Carried: "  # the line of other systems' system-only data


def _num(v: Any) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _length(v: Any) -> str:
    """'15.0 m' / '15 m' as printed: '15 m'."""
    text = str(v)
    parts = text.split()
    if len(parts) == 2:
        try:
            return f"{_num(float(parts[0]))} {parts[1]}"
        except ValueError:
            return text
    return text


def _comment(meta: Any) -> list[str]:
    if not isinstance(meta, dict):
        return []
    losses = meta.get("losses") or []
    warn = sum(1 for x in losses if isinstance(x, dict) and x.get("level", "warning") == "warning")
    src = meta.get("converted_from")
    if not src and not losses:
        return []
    head = f"# converted from {src} by xsys" if src else "# written by xsys"
    return [head + f": {len(losses)} loss(es), {warn} warning(s); the YAML or JSON output carries the report"]


def _catalog_tag(item: dict[str, Any], key: str, kind: str) -> str:
    """' [catalog: id]' when the printed name does not say which catalog item it is."""
    cid = item.get(key)
    if not cid:
        return ""
    from .reader import armor_match, catalog_match

    name = item.get("name") or item.get("nazwa") or ""
    found = catalog_match(name) if kind == "weapon" else armor_match(name)
    return "" if found is not None and found.id == cid else f" [catalog: {cid}]"


def _weapons_line(label: str, items: list[str], names: list[str]) -> str:
    """Weapons apart by semicolons; a lone weapon whose name holds a comma ends with one, so
    the reader does not split its name."""
    tail = ";" if len(items) == 1 and any("," in x for x in names) else ""
    return f"{label}: " + "; ".join(items) + tail


def write_coc(d: dict[str, Any]) -> list[str]:
    out = [str(d.get("name", ""))]
    out.append(" ".join(f"{k} {d[k]}" for k in N.COC_CHARACTERISTICS if k in d)
               + (f" HP {d['HP']}" if d.get("HP") is not None else ""))
    own = [f"{k} {d[k]}" for k in ("SAN", "MP", "Luck") if d.get(k) is not None]
    if own:
        out.append(" ".join(own))
    if d.get("spells"):
        out.append("Spells: " + ", ".join(d["spells"]))
    if d.get("skills"):
        out.append("Skills: " + ", ".join(f"{k} {v}%" for k, v in d["skills"].items()))
    if d.get("weapons"):
        items = []
        for w in d["weapons"]:
            pct = (d.get("skills") or {}).get(w.get("skill"))
            parts = [f"{w['name']}{_catalog_tag(w, 'catalog', 'weapon')}" + (f" {pct}%" if pct is not None else ""),
                     f"damage {str(w['damage']).upper()}", f"base range {_length(w['base_range'])}",
                     f"skill {w['skill']}"]
            if w.get("shots_per_round", 1) != 1:
                parts.append(f"{w['shots_per_round']} shots per round")
            if w.get("burst"):
                parts.append("burst")
            if w.get("capacity"):
                parts.append(f"capacity {w['capacity']}")
            if w.get("malfunction", 100) != 100:
                parts.append(f"malfunction {w['malfunction']}")
            for key, label in (("STR", "STR"), ("sights", "sights"), ("carry", "carry"), ("ammo", "ammo"),
                               ("length", "length"), ("muzzle_energy", "muzzle energy")):
                if w.get(key) is not None and not (key == "sights" and w[key] == "iron") \
                        and not (key == "ammo" and w[key] == "bullet"):
                    parts.append(f"{label} {_length(w[key]) if key in ('length', 'muzzle_energy') else w[key]}")
            items.append(", ".join(parts))
        out.append(_weapons_line("Weapons", items, [w["name"] for w in d["weapons"]]))
    if d.get("melee"):
        items = []
        for m in d["melee"]:
            pct = (d.get("skills") or {}).get(m.get("skill"))
            parts = [f"{m['name']}" + (f" {pct}%" if pct is not None else "")]
            if m.get("damage"):
                parts.append(f"damage {str(m['damage']).upper()}")
            parts.append(f"skill {m['skill']}")
            items.append(", ".join(parts))
        out.append(_weapons_line("Melee", items, [m["name"] for m in d["melee"]]))
    if d.get("armor"):
        if d.get("system") == "coc-zh":
            out.append("Armor: " + "; ".join(f"{a['name']}{_catalog_tag(a, 'catalog', 'armor')} {a['points']}"
                                             + (f", stops {a['stops']}" if a.get("stops") else "") for a in d["armor"]))
        else:
            out.append("Armor: " + "; ".join(f"{a['name']}{_catalog_tag(a, 'catalog', 'armor')} {a['A']}/{_num(a['B'])}"
                                             + (f", stops {a['stops']}" if a.get("stops") else "") for a in d["armor"]))
    return out


def write_gurps(d: dict[str, Any]) -> list[str]:
    out = [str(d.get("name", ""))]
    out.append(", ".join(f"{k} {d.get(k, 10)}" for k in N.GURPS_ATTRIBUTES))
    derived = [f"{k} {d[k]}" for k in N.GURPS_DERIVED if d.get(k) is not None]
    if derived:
        out.append(", ".join(derived))
    if d.get("advantages"):
        out.append("Advantages: " + ", ".join(d["advantages"]))
    if d.get("disadvantages"):
        out.append("Disadvantages: " + ", ".join(d["disadvantages"]))
    if d.get("skills"):
        out.append("Skills: " + ", ".join(f"{k}-{v}" for k, v in d["skills"].items()))
    if d.get("weapons"):
        items = []
        for w in d["weapons"]:
            parts = [f"{w['damage']}" + (f" {w['type']}" if w.get("type", "cr") != "cr" else ""),
                     f"Acc {w.get('Acc', 0)}"]
            if w.get("SS") is not None:
                parts.append(f"SS {w['SS']}")
            parts.append(f"RoF {w.get('RoF', '1')}")
            if w.get("Shots"):
                parts.append(f"Shots {w['Shots']}")
            if w.get("ST") is not None:
                parts.append(f"ST {w['ST']}")
            if w.get("skill"):
                parts.append(f"Skill {w['skill']}")
            items.append(f"{w['name']}{_catalog_tag(w, 'catalog', 'weapon')} ({', '.join(parts)})")
        out.append(_weapons_line("Weapons", items, [w["name"] for w in d["weapons"]]))
    if d.get("melee"):  # the melee table: what it rolls at the wielder's ST, its type, its skill
        items = [f"{m['name']} ({m.get('dice') or m['damage']} {m.get('type', 'cr')}, Skill {m['skill']})"
                 for m in d["melee"]]
        out.append(_weapons_line("Melee", items, [m["name"] for m in d["melee"]]))
    if d.get("armor"):
        out.append("Armor: " + "; ".join(
            f"{a['name']}{_catalog_tag(a, 'catalog', 'armor')} (PD {a.get('PD', 0)}, DR {a['DR']}, "
            f"{' '.join(a.get('locations', ['torso']))})" for a in d["armor"]))
    return out


def _yards(ranges: list[Any]) -> str:
    """nWoD ranges, printed in yards as short/medium/long."""
    from xsys.core.units import Length, parse

    vals = [parse(x, Length) if isinstance(x, str) else x for x in ranges]
    return "/".join(_num(round(float(v.to("yd")))) for v in vals) + " yd"


def write_nwod(d: dict[str, Any]) -> list[str]:
    out = [str(d.get("name", ""))]
    out.append("Attributes: " + ", ".join(f"{k} {d.get(k, 2)}" for k in N.NWOD_ATTRIBUTES))
    if d.get("skills"):
        spec = d.get("specialties") or {}
        out.append("Skills: " + ", ".join(
            f"{k}" + (f" ({', '.join(spec[k])})" if spec.get(k) else "") + f" {v}" for k, v in d["skills"].items()))
    if d.get("merits"):
        out.append("Merits: " + ", ".join(f"{k} {v}" for k, v in d["merits"].items()))
    out.append(", ".join(f"{k} {d[k]}" for k in N.NWOD_DERIVED if d.get(k) is not None) or f"Size {d.get('Size', 5)}")
    if d.get("weapons"):
        items = []
        for w in d["weapons"]:
            parts = [f"Damage {w.get('damage', 0)}" + (" (9-again)" if w.get("again") == 9 else "")]
            if w.get("ranges"):
                parts.append(f"Ranges {_yards(w['ranges'])}")
            if w.get("clip"):
                parts.append(f"Clip {w['clip']}" + ("+1" if w.get("chamber") else ""))
            parts.append(f"Strength {w.get('strength', 1)}")
            parts.append(f"Size {w.get('size', 1)}" + ("*" if w.get("two_handed") else ""))
            if w.get("autofire"):
                parts.append("Autofire")
            if w.get("armor_piercing"):
                parts.append(f"Armor Piercing {w['armor_piercing']}")
            if w.get("type"):
                parts.append(f"Type [{w['type']}]" if "," in w["type"] else f"Type {w['type']}")
            items.append(f"{w['name']}{_catalog_tag(w, 'catalog', 'weapon')} ({', '.join(parts)})")
        out.append(_weapons_line("Weapons", items, [w["name"] for w in d["weapons"]]))
    if d.get("armor"):
        out.append("Armor: " + "; ".join(f"{a['name']}{_catalog_tag(a, 'catalog', 'armor')} "
                                         f"{a.get('general', 0)}/{a.get('ballistic', 0)}" for a in d["armor"]))
    return out


def write_pl(d: dict[str, Any]) -> list[str]:
    out = [str(d.get("imię", ""))]
    out.append(", ".join(f"{k} {d.get(k, 3)}" for k in N.PL_TRAITS))
    skills = {k: v for k, v in (d.get("umiejętności") or {}).items() if v}
    if skills:
        out.append("Umiejętności: " + ", ".join(f"{k} {v}" for k, v in skills.items()))
    if d.get("Zalety"):
        out.append("Zalety: " + ", ".join(d["Zalety"]))
    if d.get("broń"):
        out.append(_weapons_line("Broń", [
            f"{w['nazwa']}{_catalog_tag(w, 'katalog', 'weapon')} ({w['rodzaj']}"
            + (f", obrażenia {w['obrażenia']}" if w.get("obrażenia") is not None else "") + ")" for w in d["broń"]],
            [w["nazwa"] for w in d["broń"]]))
    if d.get("pancerz"):
        out.append("Pancerz: " + "; ".join(
            f"{a['nazwa']}{_catalog_tag(a, 'katalog', 'armor')}"
            + (f" (punkty {a['punkty']})" if a.get("punkty") is not None else "") for a in d["pancerz"]))
    return out


WRITERS = {"coc": write_coc, "coc-zh": write_coc, "gurps": write_gurps, "nwod": write_nwod, "pl-trudnosc": write_pl}
NOTES = {"pl-trudnosc": ("opis", "Opis"), "gurps": ("notes", "Notes"), "nwod": ("notes", "Notes"),
         "coc": ("notes", "Notes"), "coc-zh": ("notes", "Notes")}


def text_of(doc: dict[str, Any]) -> str:
    system, kind = doc.get("system"), doc.get("kind")
    if kind != "npc" or system not in WRITERS:
        raise InputError("a text stat block holds one NPC of a built-in system", path="$.kind",
                         expected="an npc of " + ", ".join(WRITERS), found=f"{kind} of {system}")
    lines = _comment(doc.get("xsys"))
    if system == "coc-zh":
        lines.append("system: coc-zh")  # its stats read like coc's: say which
    lines += [x for x in WRITERS[system](doc) if x]
    if doc.get("carried"):
        # other systems' system-only data (xsys.core.carried), verbatim: one JSON line the reader takes back
        lines.append(CARRIED + json.dumps(doc["carried"], ensure_ascii=False, separators=(", ", ": ")))
    key, label = NOTES[system]
    if doc.get(key):
        text = str(doc[key]).replace("\n", " ")
        lines.append(f"{label}: {text}")
    return "\n".join(lines) + "\n"


def dump(doc: Any) -> bytes:
    """The format hook's writer."""
    return text_of(doc).encode("utf-8")
