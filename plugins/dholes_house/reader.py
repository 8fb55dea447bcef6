"""Dhole's House JSON export -> a coc NPC document (plain data).

The export is an XML document turned into JSON: every number arrives as a string ("60"), and a
list with one entry arrives as that entry itself (``"Skill": {...}`` instead of ``[{...}]``).
Both are read. Readers by the export's ``Header.Version`` (``READERS``; the versions seen so
far share one shape), so the next change upstream is one more reader.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import msgspec

from xsys.core.errors import InputError
from xsys.plugins.textblock.compose import Line, one_line, read_lines, seventh_to_coc, weapon_skill

FORMAT = "dholes-house"
CHARACTERISTICS = ("STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU")
# Characteristics the export writes that coc derives (or has no place for yet)
DERIVED = ("Move", "Luck", "Sanity", "MagicPts", "DamageBonus", "Build")


def claims(plain: Any) -> bool:
    inv = plain.get("Investigator") if isinstance(plain, dict) else None
    return isinstance(inv, dict) and isinstance(inv.get("Characteristics"), dict)


def load(data: bytes) -> dict[str, Any]:
    try:
        plain = msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        raise InputError(f"malformed Dhole's House JSON: {exc}") from None
    if not claims(plain):
        raise InputError("not a Dhole's House export", path="$.Investigator",
                         expected='{"Investigator": {"Header", "PersonalDetails", "Characteristics", "Skills", '
                                  '"Weapons"}}', found="no Investigator.Characteristics")
    inv = plain["Investigator"]
    header = inv.get("Header") if isinstance(inv.get("Header"), dict) else {}
    version = str(header.get("Version") or "")
    if version in READERS:
        return READERS[version](inv)
    doc = read_v1(inv)  # the newest reader, said
    report = doc.setdefault("xsys", {}).setdefault("read", {"format": FORMAT})
    report.setdefault("assumed", []).insert(0, f"$.Investigator.Header.Version: export version {version or '(none)'!r} "
                                            f"is not one this reader knows ({', '.join(READERS)}); read as 0.3")
    return doc


def as_list(value: Any) -> list[Any]:
    """One entry written as the entry itself, or nothing written at all: always a list."""
    if value is None or value == "":
        return []
    return value if isinstance(value, list) else [value]


def number(value: Any, path: str, lo: int = 0, hi: int = 999) -> int | None:
    """A number written as a string ("60"), or as a number; None when empty."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", value):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError("not a number", path=path, expected="a whole number (as text or number)", found=repr(value))
    if not lo <= value <= hi:
        raise InputError("out of range", path=path, expected=f"{lo} to {hi}", found=str(value))
    return value


def _obj(value: Any, path: str) -> dict[str, Any]:
    if value is None or value == "":
        return {}
    if not isinstance(value, dict):
        raise InputError("wrong type", path=path, expected="an object", found=type(value).__name__)
    return value


def read_v1(inv: dict[str, Any]) -> dict[str, Any]:
    unread: list[dict[str, str]] = []
    assumed: list[str] = []
    details = _obj(inv.get("PersonalDetails"), "$.Investigator.PersonalDetails")
    name = details.get("Name")
    if not isinstance(name, str) or not name.strip():
        raise InputError("an investigator needs a name", path="$.Investigator.PersonalDetails.Name",
                         expected="a name", found=repr(name))
    lines: list[Line] = [(name, "$.Investigator.PersonalDetails.Name")]
    cpath = "$.Investigator.Characteristics"
    ch = inv["Characteristics"]
    chars7 = {k: v for k in CHARACTERISTICS if (v := number(ch.get(k), f"{cpath}.{k}")) is not None}
    chars, note = seventh_to_coc(chars7)
    if chars:
        assumed.append(f"{cpath}: {note}")
        lines.append((" ".join(f"{k} {v}" for k, v in chars.items()), cpath))
    hp = number(ch.get("HitPtsMax") or ch.get("HitPts"), f"{cpath}.HitPtsMax")
    if hp is not None:
        lines.append((f"HP {hp}", f"{cpath}.HitPtsMax"))
    for now, full in (("HitPts", "HitPtsMax"), ("MagicPts", "MagicPtsMax")):
        # hurt or spent in play (HitPts 4 of 11): a stat block holds the full value; said, not kept
        if ch.get(now) not in (None, "") and ch.get(full) not in (None, "") and str(ch[now]).strip() != str(ch[full]).strip():
            unread.append({"path": f"{cpath}.{now}", "text": f"{now} {ch[now]} of {ch[full]} (used up in play: a stat "
                           "block holds the full value)"})
    pow7 = chars7.get("POW")
    derived = {"MagicPts": pow7 // 5 if pow7 is not None else None, "Sanity": pow7}  # 7e: MP = POW/5, SAN = POW
    recomputed = []
    for k in DERIVED:
        v = ch.get(k)
        if k == "MagicPts" and ch.get("MagicPtsMax") not in (None, ""):
            v = ch.get("MagicPtsMax")  # the NPC's own Magic Points, not what is left of them in play
        if v in (None, "", "0", 0):
            continue
        if k in ("Move", "DamageBonus", "Build"):
            recomputed.append(f"{k} {v}")
        elif k in derived and str(v).strip() == str(derived[k]):
            continue  # what the characteristics give
        elif k in ("Sanity", "MagicPts", "Luck") and number(v, f"{cpath}.{k}") is not None:
            # the investigator's own SAN / MP / Luck: what only CoC states (carried through other systems)
            own = {"Sanity": "SAN", "MagicPts": "MP", "Luck": "Luck"}[k]
            lines.append((f"{own} {number(v, f'{cpath}.{k}')}", f"{cpath}.{k}"))
        else:
            unread.append({"path": f"{cpath}.{k}", "text": f"{k} {v} (no place in a coc document)"})
    if recomputed:
        assumed.append(f"{cpath}: " + ", ".join(recomputed) + " not carried: coc derives movement and the damage "
                       "bonus from the characteristics")
    spath = "$.Investigator.Skills.Skill"
    for i, s in enumerate(as_list(_obj(inv.get("Skills"), "$.Investigator.Skills").get("Skill"))):
        s = _obj(s, f"{spath}[{i}]")
        sname = str(s.get("name") or "").strip()
        sub = str(s.get("subskill") or "").strip()
        if sub and sub.lower() != "none" and "(" not in sname:
            sname = f"{sname} ({sub})"
        value = number(s.get("value"), f"{spath}[{i}].value")
        if not sname or value is None:
            unread.append({"path": f"{spath}[{i}]", "text": repr(s)})
            continue
        lines.append((f"Skills: {sname} {value}%", f"{spath}[{i}]"))
    wpath = "$.Investigator.Weapons.weapon"
    for i, w in enumerate(as_list(_obj(inv.get("Weapons"), "$.Investigator.Weapons").get("weapon"))):
        w = _obj(w, f"{wpath}[{i}]")
        wname = str(w.get("name") or "").strip()
        rng = str(w.get("range") or "").strip()
        if wname and (not rng or rng.lower() in ("-", "touch", "n/a")):
            # a close-combat attack (issue 20): the coc document's melee line
            dmg = str(w.get("damage") or "").strip()
            lines.append((f"Melee: {wname}" + (f", damage {dmg}" if dmg else "") + ";", f"{wpath}[{i}]"))
            continue
        if not wname or not rng or rng.lower() in ("-", "touch", "n/a"):
            unread.append({"path": f"{wpath}[{i}]", "text": f"{wname or w!r} (no name or range)"})
            continue
        parts = [wname, f"damage {w.get('damage')}"]
        m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(yards?|yds?|m|ft|feet)?", rng, re.IGNORECASE)
        if m:
            unit = {"yard": "yd", "yards": "yd", "yds": "yd", "feet": "ft"}.get((m.group(2) or "yd").lower(),
                                                                              (m.group(2) or "yd").lower())
            parts.append(f"base range {m.group(1)} {unit}")
        else:
            unread.append({"path": f"{wpath}[{i}].range", "text": f"{wname}: range {rng!r}"})
        skill = str(w.get("skillname") or "").strip()
        if weapon_skill(skill, wname):
            parts.append(f"skill {weapon_skill(skill, wname)}")
        ammo = number(w.get("ammo"), f"{wpath}[{i}].ammo", 0, 10_000)
        if ammo:
            parts.append(f"capacity {ammo}")
        malf = number(w.get("malf"), f"{wpath}[{i}].malf", 0, 100)
        if malf:
            parts.append(f"malfunction {malf}")
        attacks = str(w.get("attacks") or "").strip()
        if attacks.isdigit() and int(attacks) > 1:
            parts.append(f"{attacks} shots per round")
        elif re.search(r"burst|auto", attacks, re.IGNORECASE):
            parts.append("burst")
        lines.append(("Weapons: " + ", ".join(parts), f"{wpath}[{i}]"))
    gear = [str(_obj(x, f"$.Investigator.Possessions.item[{i}]").get("description") or "").strip()
            for i, x in enumerate(as_list(_obj(inv.get("Possessions"), "$.Investigator.Possessions").get("item")))]
    if any(gear):
        assumed.append("$.Investigator.Possessions: not carried (a stat block lists combat material only): "
                       + ", ".join(g for g in gear if g))
    back = _obj(inv.get("Backstory"), "$.Investigator.Backstory").get("description")
    occupation = details.get("Occupation")
    notes = " ".join(str(x) for x in (occupation, back) if isinstance(x, str) and x.strip())
    if notes:
        lines.append((f"Notes: {one_line(notes)}", "$.Investigator.Backstory.description"))
    return read_lines(lines, FORMAT, "coc", assumed=assumed, unread=unread)


READERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {"0.3.0": read_v1, "0.3.1": read_v1}
