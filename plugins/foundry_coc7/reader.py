"""Foundry VTT CoC7 actor JSON -> a coc NPC document (plain data).

Readers by upstream data model (``MODELS``, ``READERS``); each names itself in the report's
``reader`` key:

- ``v9``: Foundry core 9 and earlier (CoC7 system 0.x): the actor's data in ``data``, each
  item's in ``item.data``;
- ``v10``: Foundry core 10 to 13 (CoC7 system 0.9 to 7.x): the same fields in ``system``;
- ``coc7-8``: the CoC7 system's data models (system 8 and later): a skill keeps no stored
  ``value``; what the sheet shows is the sum of its ``adjustments`` (``base``, ``personal``,
  ``occupation``, ``archetype``, ``experiencePackage``, ``experience``) for every actor type;
  a weapon's range is a formula without ``units``; its skill may be named by CoC ID
  (``i.skill.firearms-handgun``) or linked only by the skill item's ``_id``.

The next upstream change is one more entry in MODELS. Only the fields read are looked at;
everything else in an actor is left alone (an investigator's ``biography`` is a list of
sections, an NPC's an object: both are read for the notes, neither is required). What cannot
be read is a loss line naming its JSON path; the rest of the actor is read.

Which number the sheet shows is the number read: an investigator's skill is its base (a
formula like ``@EDU`` or ``1/2*@DEX`` evaluated on the actor's own characteristics, as the
system does, ``Math.floor`` of the total) plus its adjustments; an NPC's or a creature's is its
stored value (a formula there too is evaluated); HP, MP with ``auto`` on are what the sheet
computes from the characteristics.
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass
from typing import Any, Callable

import msgspec

from xsys.core.errors import InputError
from xsys.core.textblock import DISTANCE_UNITS, Line, distance, fold, item_text, one_line, read_lines
from xsys.plugins.coc.names import (SEVENTH_AVERAGE_ADULT, SEVENTH_KEY, UNSTATED_CHARACTERISTICS, coc_damage, coc_skill,
                                    translated_skill, weapon_skill)

from .formula import FormulaError, evaluate

FORMAT = "foundry-coc7"
ACTOR_TYPES = ("character", "npc", "creature")
CHARACTERISTICS = ("str", "con", "siz", "dex", "app", "int", "pow", "edu")
# Item types that are equipment or character-building data, not combat material: said, not lost
GEAR = ("item", "book", "setup", "occupation", "archetype", "status", "chase", "experiencePackage")
UNITS = {"": "yd", **DISTANCE_UNITS}
AVERAGE = SEVENTH_AVERAGE_ADULT  # an empty characteristic, on the 7th-edition scale
# coc's close-combat skills: a weapon fired with one of these is a melee attack
MELEE_SKILLS = ("Fist/Punch", "Knife", "Club", "Sword", "Axe", "Spear")


@dataclass(frozen=True)
class Model:
    key: str
    body: str  # where the actor's and its items' data live: 'data' or 'system'
    summed: bool  # a skill's value is the sum of its adjustments for every actor type
    label: str


MODELS = {
    "v9": Model("v9", "data", False, "foundry-coc7 actor, Foundry 9 and earlier data model (data; CoC7 system 0.x)"),
    "v10": Model("v10", "system", False, "foundry-coc7 actor, Foundry v10+ data model (system; CoC7 system "
                                         "0.9-7.x: an NPC's skill value stored, an investigator's base + "
                                         "adjustments)"),
    "coc7-8": Model("coc7-8", "system", True, "foundry-coc7 actor, CoC7 system 8+ data model (system; a skill's "
                                              "value is the sum of its adjustments)"),
}


# ---- which actor, which reader ------------------------------------------------------------

def _system_id(plain: dict[str, Any]) -> str | None:
    stats = plain.get("_stats")
    if isinstance(stats, dict) and isinstance(stats.get("systemId"), str):
        return stats["systemId"]
    flags = plain.get("flags")
    source = flags.get("exportSource") if isinstance(flags, dict) else None
    if isinstance(source, dict) and isinstance(source.get("system"), str):
        return source["system"]
    return None


def _system_version(plain: dict[str, Any]) -> int | None:
    """The major version of the CoC7 system that saved the actor (``_stats.systemVersion`` or
    the export's ``flags.exportSource.systemVersion``), or None."""
    for holder in (plain.get("_stats"), (plain.get("flags") or {}).get("exportSource")
                   if isinstance(plain.get("flags"), dict) else None):
        if isinstance(holder, dict):
            m = re.match(r"^\s*(\d+)\.", str(holder.get("systemVersion") or ""))
            if m:
                return int(m.group(1))
    return None


def _body_key(plain: dict[str, Any]) -> str | None:
    for key in ("system", "data"):
        if isinstance(plain.get(key), dict):
            return key
    return None


def data_model(plain: Any) -> str | None:
    """Which reader an actor needs ('v9', 'v10', 'coc7-8'), or None when it is not a CoC7
    actor: a character, npc or creature with a ``system`` (or ``data``) object, saved by the
    CoC7 system (``_stats.systemId``) or holding its ``characteristics`` / ``attribs``."""
    if not isinstance(plain, dict) or plain.get("type") not in ACTOR_TYPES:
        return None
    key = _body_key(plain)
    if key is None:
        return None
    body = plain[key]
    sid = _system_id(plain)
    if sid is not None and sid != "CoC7":
        return None
    if sid is None and not (isinstance(body.get("characteristics"), dict) or isinstance(body.get("attribs"), dict)):
        return None
    if key == "data":
        return "v9"
    version = _system_version(plain)
    if version is not None and version >= 8:
        return "coc7-8"
    if version is None:
        for item in plain.get("items") or ():
            ib = item.get("system") if isinstance(item, dict) and item.get("type") == "skill" else None
            if isinstance(ib, dict) and isinstance(ib.get("adjustments"), dict) and "base" in ib["adjustments"] \
                    and "value" not in ib:
                return "coc7-8"  # saved by the data models: adjustments.base, no stored value
    return "v10"


def claims(plain: Any) -> bool:
    return data_model(plain) is not None


def load(data: bytes) -> dict[str, Any]:
    try:
        plain = msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        entries = pack_entries(data)
        if entries is None:
            raise InputError(f"malformed Foundry actor JSON: {exc}") from None
        return read_pack(entries)
    model = data_model(plain)
    if model is None:
        raise InputError("not a Foundry VTT CoC7 actor", path="$",
                         expected='an actor: {"name", "type": "npc"|"character"|"creature", "system": '
                                  '{"characteristics": {...}, "attribs": {...}}, "items": [...]}',
                         found=_missing(plain))
    return READERS[model](plain)


def pack_entries(data: bytes) -> list[tuple[int, dict[str, Any]]] | None:
    """A compendium pack as Foundry 9-10 store it (a NeDB ``.db`` file: one JSON document a
    line, a later line with the same ``_id`` replacing an earlier one, ``$$deleted`` removing it):
    (line number, document) of each document left, in the order first written; None where a
    line is no JSON object (then the file is no pack)."""
    found: dict[Any, tuple[int, dict[str, Any]]] = {}
    for n, line in enumerate(data.splitlines(), 1):
        if not line.strip():
            continue
        try:
            doc = msgspec.json.decode(line)
        except msgspec.DecodeError:
            return None
        if not isinstance(doc, dict):
            return None
        key = doc.get("_id", ("line", n))
        if doc.get("$$deleted"):
            found.pop(key, None)
        else:
            found[key] = (found[key][0] if key in found else n, doc)
    return list(found.values()) if found else None


def read_pack(entries: list[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
    """A compendium pack's actors as a roster: each actor read as one (its read report's entries
    named by the pack's line); what is no actor (an item, a container, a journal entry) said."""
    npcs: list[dict[str, Any]] = []
    report: dict[str, Any] = {"format": FORMAT, "unread": [], "assumed": []}
    skipped: list[str] = []
    for n, plain in entries:
        model = data_model(plain)
        if model is None:
            skipped.append(f"line {n} {plain.get('type')!r} {plain.get('name')!r}")
            continue
        doc = READERS[model](plain)
        read = doc.pop("xsys", {}).get("read", {})
        for k in ("system", "kind"):
            doc.pop(k, None)
        npcs.append(doc)
        who = f"line {n} ({doc.get('name')})"
        for k in ("reader", "edition"):
            report.setdefault(k, read.get(k))
        report["unread"] += [{**u, "path": f"{who} {u.get('path', '$')}"} for u in read.get("unread", ())]
        report["assumed"] += [f"{who}: {a}" for a in read.get("assumed", ())]
    if not npcs:
        raise InputError("a Foundry compendium pack with no CoC7 actor", path="$",
                         expected="a pack of actors (type npc, character or creature)",
                         found=f"{len(entries)} documents: " + ", ".join(skipped[:5]) + (" ..." if len(skipped) > 5 else ""))
    if skipped:
        report["unread"].append({"path": "pack", "text": f"{len(skipped)} document(s) that are no actor of a "
                                 "person or a creature: " + ", ".join(skipped)})
    report["reader"] = f"{report.get('reader')}; a compendium pack of {len(npcs)} actor(s), read as a roster"
    report = {k: v for k, v in report.items() if v}
    return {"system": SEVENTH_KEY, "kind": "roster", "name": f"Foundry compendium pack ({len(npcs)} actors)",
            "npcs": npcs, "xsys": {"read": report}}


def _missing(plain: Any) -> str:
    """What keeps `plain` from being a CoC7 actor, and what it has."""
    if not isinstance(plain, dict):
        return f"a JSON {type(plain).__name__}"
    problems = []
    t = plain.get("type")
    if t is None:
        problems.append("no type")
    elif t not in ACTOR_TYPES:
        problems.append(f"type {t!r} (a {t} holds no person)" if t in ("container", "vehicle") else f"type {t!r}")
    key = _body_key(plain)
    if key is None:
        problems.append("no system object (Foundry 10+) or data object (Foundry 9)")
    else:
        sid = _system_id(plain)
        if sid is not None and sid != "CoC7":
            problems.append(f"an actor of the {sid!r} system")
        elif not any(isinstance(plain[key].get(k), dict) for k in ("characteristics", "attribs")):
            problems.append(f"no {key}.characteristics or {key}.attribs")
    if not isinstance(plain.get("name"), str):
        problems.append("no name")
    keys = sorted(map(str, plain))
    more = f" and {len(keys) - 30} more" if len(keys) > 30 else ""
    return "; ".join(problems) + f" (keys: {', '.join(keys[:30])}{more})"


# ---- reading numbers ----------------------------------------------------------------------

# a module's flags that hold a stat block's pieces as printed (module_flags): the block line each is
_MODULE_BLOCK = {"attacks": "Attacks", "skills": "Skills", "armorValue": "Armor", "armor": "Armor"}
_MODULE_METADATA = {"source", "sourceId", "id", "version"}  # where the copy came from: nothing of the NPC


def _printed_pieces(text: str) -> list[str]:
    """A module's entry copied from a page with its line breaks ("DB\\nFighting, Tail 35% — …", a
    sentence over three lines, then "Fighting (as Human) 50% — …"): each line with a chance is an
    entry of its own, the lines between them one run of words (one_line)."""
    out: list[str] = []
    words: list[str] = []
    for line in text.splitlines():
        if re.search(r"\d\s*%", line):
            if words:
                out.append(one_line(" ".join(words)))
                words = []
            out.append(one_line(line))
        elif line.strip():
            words.append(line.strip())
    if words:
        out.append(one_line(" ".join(words)))
    return out


class Unreadable(ValueError):
    """A value this reader cannot read (the message says why)."""


def number(value: Any) -> float | None:
    """A number as a sheet stores it (42, 42.0, "42", " 42 ", "42%"), or None when empty."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise Unreadable(f"{value!r} is not a number")
    if isinstance(value, (int, float)):
        if not math.isfinite(value):
            raise Unreadable(f"{value!r} is not a number")
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+(?:\.\d+)?\s*%?\s*", value):  # "45", "45%"
        text = value.strip().rstrip("%")
        return float(text) if "." in text else int(text)
    raise Unreadable(f"{value!r} is not a number")


def formula_or_number(value: Any, values: dict[str, Any]) -> int | None:
    """A number, or a formula over the actor's values (``@EDU``, ``1/2*@DEX``), ``Math.floor``
    of it as the system keeps it; None when empty."""
    try:
        n = number(value)
    except Unreadable:
        if not isinstance(value, str):
            raise
        try:
            return evaluate(value, values)
        except FormulaError as exc:
            raise Unreadable(f"formula {value!r}: {exc}") from None
    return None if n is None else math.floor(n)


def _dict(obj: Any) -> dict[str, Any]:
    return obj if isinstance(obj, dict) else {}


def _text(value: Any) -> str:
    """HTML as a sheet stores it -> one line of plain text."""
    if not isinstance(value, str):
        return ""
    text = re.sub(r"<[^>]+>", " ", value)
    return one_line(re.sub(r"\s+", " ", html.unescape(text)))


# ---- the actor ----------------------------------------------------------------------------

class _Actor:
    """One reading: the report's entries and the composed lines, gathered field by field."""

    def __init__(self, plain: dict[str, Any], model: Model) -> None:
        self.plain = plain
        self.model = model
        self.key = model.body
        self.root = f"$.{model.body}"
        self.body = _dict(plain.get(model.body))
        self.type = str(plain.get("type"))
        self.unread: list[dict[str, str]] = []
        self.assumed: list[str] = []
        self.lines: list[Line] = []
        self.chars7: dict[str, int] = {}  # as stated, 7th-edition scale
        self.stated: dict[str, int] = {}  # a characteristic beyond 9999 as stated (its HP is from it)
        self.values: dict[str, Any] = {}  # what @KEY formulas look up
        self.skills: list[dict[str, Any]] = []  # resolved skill items, for the weapons' links

    def lose(self, path: str, text: str) -> None:
        self.unread.append({"path": path, "text": text})

    # ---- characteristics ------------------------------------------------------------------
    def characteristics(self) -> dict[str, int]:
        cpath = f"{self.root}.characteristics"
        block = self.body.get("characteristics")
        if block is not None and not isinstance(block, dict):
            self.lose(cpath, f"characteristics are a {type(block).__name__}, not an object")
        block = _dict(block)
        empty: list[str] = []
        averaged: list[str] = []
        for c in CHARACTERISTICS:
            path = f"{cpath}.{c}"
            entry = block.get(c)
            if entry is not None and not isinstance(entry, dict):
                self.lose(path, f"{c.upper()} {entry!r} (expected {{\"value\": ...}})")
                empty.append(c.upper())
                continue
            entry = _dict(entry)
            try:
                v = number(entry.get("value"))
            except Unreadable as exc:
                self.lose(f"{path}.value", f"{c.upper()}: {exc}")
                v = None
            rolled = None  # the roll formula a value came from
            if v is None or (v == 0 and c.upper() not in UNSTATED_CHARACTERISTICS):
                # (no value, or 0 beside a roll formula: a sheet never rolled, as the system's creature example)
                formula = entry.get("formula")
                if isinstance(formula, str) and formula.strip():
                    try:  # the sheet's own "average characteristics" of its roll formula
                        v = evaluate(formula, {}, dice=True)
                        rolled = formula
                        if v:
                            averaged.append(f"{c.upper()} {v} (formula {formula!r})")
                    except FormulaError:
                        pass
            if c.upper() in UNSTATED_CHARACTERISTICS and not v:  # a creature's APP or EDU: none (0, or no value)
                continue
            if v is None:
                empty.append(c.upper())
                continue
            if v < 0:
                self.lose(f"{path}.value", f"{c.upper()} {v} (a characteristic is not negative)")
                empty.append(c.upper())
                continue
            if v == 0:  # a creature's "none" (no APP, no EDU): coc7 holds 1-9999
                self.lose(f"{path}.formula" if rolled else f"{path}.value",
                          f"{c.upper()} 0" + (f" (its roll formula {rolled!r}, no value)" if rolled else "")
                          + " (none: a creature without it; a coc7 characteristic is 1-9999)")
                empty.append(c.upper())
                continue
            if v > 9_999:  # beyond even a Great Old One's SIZ 1050
                self.lose(f"{path}.value", f"{c.upper()} {v} (a coc7 characteristic is 1-9999): read as 9999")
                self.stated[c.upper()] = v  # what the sheet computes its HP from
                v = 9_999
            self.chars7[c.upper()] = v
        if averaged:
            self.assumed.append(f"{cpath}: no value, read as the average of the roll formula (the sheet's own "
                                "average roll: NdM counts N x (M + 1) / 2, rounded down): " + ", ".join(averaged))
        self.values.update({k.lower(): v for k, v in self.chars7.items()})
        # a 7th-edition sheet reads as coc7, its values as written (read_lines sets them)
        out = dict(self.chars7)
        if empty:
            for k in empty:
                out[k] = SEVENTH_AVERAGE_ADULT[k]
            self.assumed.append(f"{cpath}: " + ", ".join(empty) + " none on the sheet (0, or no value and no roll "
                                "formula); set to the average 7th-edition adult ("
                                + ", ".join(f"{k} {out[k]}" for k in empty) + ")")
        return {k: out.get(k) for k in AVERAGE}  # (None: unstated, no value written)

    # ---- a module's own copy of the stat block ---------------------------------------------
    def module_flags(self, flags: Any, item_types: set[str]) -> None:
        """A module that keeps a creature's stat block as printed text under its own flags (a
        bestiary module: ``flags.<module>.attacks`` "Bite 55% — 1D8+DB", ``skills`` "Spot Hidden
        45%", ``armorValue`` "3 (immune to non-silver)"), the actor holding no items for them: those
        pieces are read as the block's lines (what the text reader cannot read is said, line by
        line), where the actor has no weapon or skill items of its own; the namespace's other data
        is said as not read. The system's and Foundry's own flags are not a module's."""
        if not isinstance(flags, dict):
            return
        for ns, data in flags.items():
            if ns in ("CoC7", "core", "exportSource") or not isinstance(data, dict) \
                    or not any(k in data for k in _MODULE_BLOCK):
                continue
            read: list[str] = []
            for k, v in data.items():
                path = f"$.flags.{ns}.{k}"
                values = v if isinstance(v, list) else [] if v in (None, "") else [v]
                heading = _MODULE_BLOCK.get(k)
                owned = heading == "Attacks" and "weapon" in item_types or heading == "Skills" and "skill" in item_types
                if heading and not owned:
                    for j, x in enumerate(values):
                        at = f"{path}[{j}]" if isinstance(v, list) else path
                        if isinstance(x, (str, int, float)) and not isinstance(x, bool) and str(x).strip():
                            for piece in _printed_pieces(str(x)):
                                self.lines.append((f"{heading}: {piece}", at))
                            read.append(k)
                        elif x not in (None, ""):  # an entry that is no text (a module's object): said, not dropped
                            self.lose(at, f"{k} {one_line(x)} (no text of a stat block line)")
                elif values and k not in _MODULE_METADATA:
                    self.lose(path, f"{k} {one_line(v)} (the {ns} module's own data: no place in a coc7 document)")
            if read:
                self.assumed.append(f"$.flags.{ns}: the module's copy of the stat block ("
                                    + ", ".join(dict.fromkeys(read)) + ") read as the block's lines")

    # ---- hit points, magic points, sanity, luck -------------------------------------------
    def attribs(self) -> dict[str, int | None]:
        apath = f"{self.root}.attribs"
        attribs = self.body.get("attribs")
        if attribs is not None and not isinstance(attribs, dict):
            self.lose(apath, f"attribs are a {type(attribs).__name__}, not an object")
        attribs = _dict(attribs)
        stated: dict[str, dict[str, Any]] = {}
        for a in ("hp", "mp", "san", "lck", "mov", "db", "build", "armor"):
            entry = attribs.get(a)
            if entry is not None and not isinstance(entry, dict):
                self.lose(f"{apath}.{a}", f"{a} {entry!r} (expected {{\"value\": ...}})")
            stated[a] = _dict(entry)

        def num(a: str, field: str) -> float | None:
            try:
                v = number(stated[a].get(field))
            except Unreadable as exc:
                self.lose(f"{apath}.{a}.{field}", f"{a}.{field}: {exc}")
                return None
            return None if v is None or v == 0 else v  # 0 is an unset gauge on a new sheet

        out: dict[str, int | None] = {"HP": self._hp(apath, stated["hp"], num)}
        pow7 = self.chars7.get("POW")
        # MP: with auto on, the sheet computes POW / 5 (what coc derives too): nothing of its own
        mp = num("mp", "max") or num("mp", "value")
        own_mp = None
        if mp is not None and (stated["mp"].get("auto") is False or pow7 is None) and \
                (pow7 is None or math.floor(mp) != pow7 // 5):
            own_mp = math.floor(mp)
        for a, what in (("san", "SAN (from POW, as coc7 derives it)"), ("lck", "Luck (not carried)")):
            v = stated[a].get("value")
            if v is not None and not isinstance(v, bool) and str(v).strip() in ("0", "0.0"):
                # an empty gauge of a new sheet and a character at 0 look alike: read as not set, said
                self.assumed.append(f"{apath}.{a}.value: {a} 0 read as not set (a new sheet's empty gauge): {what}")
        san = num("san", "value")  # current Sanity; starting SAN is POW
        own_san = math.floor(san) if san is not None and (pow7 is None or math.floor(san) != pow7) else None
        luck = num("lck", "value")
        own_luck = math.floor(luck) if luck is not None else None
        for field, value, hi, path in (("SAN", own_san, 99, "san"), ("MP", own_mp, 999, "mp"),
                                       ("Luck", own_luck, 99, "lck")):
            if value is not None and not 0 <= value <= hi:
                self.lose(f"{apath}.{path}", f"{field} {value} (coc7 holds 0-{hi})")
                value = None
            out[field] = value
        for k, v in (("hp", out["HP"]), ("mp", mp), ("san", san), ("lck", luck)):
            if v is not None:
                self.values[k] = v
        raw_mov = stated["mov"].get("value")
        # a creature's "8/9 fly" as its book prints it, or with the modes in brackets and another language's
        # words ("6 / 20 (volant)", "16 (marchant) / 14 (nageant) / 12 (volant)"): the first, the walking MOV,
        # and the others said
        both = re.fullmatch(r"\s*(\d{1,3})\s*(?:\(\s*[^\W\d_][^()]*\))?\s*/\s*(\d{1,3}.*?)\s*", raw_mov) \
            if isinstance(raw_mov, str) else None
        if both:
            stated["mov"] = {**stated["mov"], "value": both.group(1)}
            self.lose(f"{apath}.mov.value", f"MOV {both.group(2)} (from '{raw_mov.strip()}': a coc7 "
                      f"document holds one MOV, the walking one, {both.group(1)})")
        mov = num("mov", "value")
        if mov is not None and 0 <= mov <= 100:
            out["MOV"] = math.floor(mov)  # a coc7 stat block's own movement rate
        recomputed = []
        # what the rules give (coc7.derived), to say where a Keeper's stated value differs: the coc7
        # sheet's own DB and Build of these characteristics, its system asked by name
        str7, siz7 = self.chars7.get("STR"), self.chars7.get("SIZ")
        try:
            from xsys.core.registry import get_system

            sheet = msgspec.convert({"name": "-", **self.chars7}, get_system(SEVENTH_KEY).npc_type)
            ruled = {"db": str(sheet.DB), "build": str(sheet.Build)}
        except (LookupError, AttributeError, TypeError, ValueError, msgspec.ValidationError):
            ruled = None
        for a in ("db", "build"):
            v = stated[a].get("value")
            if v not in (None, "", 0, "0"):
                given = ruled.get(a) if ruled else None
                differs = given is not None and str(v).replace(" ", "").upper().lstrip("+") != given.upper().lstrip("+")
                recomputed.append(f"{a.upper()} {v}" + (f" (the rules give {given} from STR {str7} and SIZ {siz7})"
                                                         if differs else ""))
        if recomputed:
            self.assumed.append(f"{apath}: " + ", ".join(recomputed) + " not carried: coc7 derives the damage bonus "
                                "and Build from STR and SIZ")
        armor = stated["armor"].get("value")
        if armor not in (None, "", 0, "0"):
            words = ""
            try:
                points = number(armor)
            except Unreadable:
                # its points, then what they are ("2 (hide)", "4 points, thick skin"): the points, the words said
                lead = re.fullmatch(r"\s*(\d{1,4})\s*(?:points?|pts?\.?)?\s*[,(（:：-]?\s*([^\d]*?)[)）]?\s*", str(armor))
                points, words = (int(lead.group(1)), lead.group(2).strip()) if lead else (None, "")
            if words:
                self.assumed.append(f"{apath}.armor: armor {armor!r}: {points} points; '{words}' kept in no field")
            if points is not None and float(points).is_integer() and 0 < points <= 1000:
                # the sheet's armor points (a creature's hide, coc7.armor): a line of its own; a
                # creature actor's is its body's own (natural armor over the whole of it)
                self.lines.append((f"Armor: {int(points)}" + (" points of natural armor" if self.type == "creature" else ""),
                                   f"{apath}.armor"))
            else:
                self.lose(f"{apath}.armor", f"armor {armor!r} (coc7 holds armor as whole points: a roll or a "
                          "word has no place in a coc7 document)")
        return out

    def _hp(self, apath: str, hp: dict[str, Any], num: Callable[[str, str], float | None]) -> int | None:
        """The sheet's hit points: with ``auto`` on (the default) what it computes from CON and
        SIZ (7th edition: (CON + SIZ) / 10 rounded down, on the 7th-edition values), else the
        stored maximum; an unset HP (null, or 0 of 0) is derived and said."""
        path = f"{apath}.hp"
        now, full = num("hp", "value"), num("hp", "max")
        stated = full if full is not None else now
        # (a SIZ beyond 9999, read as 9999: the sheet's HP is from the SIZ it states)
        con, siz = (self.stated.get(k, self.chars7.get(k)) for k in ("CON", "SIZ"))
        computed = math.floor((con + siz) / 10) if con is not None and siz is not None else None
        rule = f"(CON {con} + SIZ {siz}) / 10 rounded down"
        auto = hp.get("auto", True) is not False
        if stated is not None and computed is not None and self.type == "character" and stated == 2 * computed:
            hp_v = math.floor(stated)  # Pulp Cthulhu's double health: (CON + SIZ) / 5
            self.assumed.append(f"{path}: HP {hp_v} = (CON + SIZ) / 5, Pulp Cthulhu's double hit points, as stated")
        elif auto and computed is not None:
            hp_v = computed
            if stated is None:
                self.assumed.append(f"{path}: HP not set on the sheet; HP {hp_v} = {rule}, as the sheet computes it "
                                    "(hp.auto)")
            elif math.floor(stated) != computed:
                self.assumed.append(f"{path}: HP {hp_v} = {rule}, as the sheet computes it (hp.auto); the stored "
                                    f"{stated} is what the sheet replaces")
        elif stated is not None:
            hp_v = math.floor(stated)
        elif computed is not None:
            hp_v = computed
            self.assumed.append(f"{path}: HP not set on the sheet; HP {hp_v} = {rule} (the 7th-edition rule)")
        else:
            self.assumed.append(f"{path}: HP not set and no CON and SIZ to derive it from: coc7 derives it from the "
                                "characteristics set for the document")
            return None
        if not 0 <= hp_v <= 999:
            self.lose(path, f"HP {hp_v} (coc7 holds 0-999)")
            return None
        if now is not None and full is not None and now < full:
            # the actor is wounded: a stat block holds the NPC whole, so the wounds are said, not kept
            self.lose(f"{path}.value", f"HP {now:g} of {full:g} (wounds taken in play: a stat block holds the NPC "
                      "unhurt)")
        return hp_v

    # ---- skills -------------------------------------------------------------------------------
    def skill_items(self, items: list[Any]) -> None:
        for i, item in enumerate(items):
            if not isinstance(item, dict) or item.get("type") != "skill":
                continue
            path = f"$.items[{i}]"
            ib = _dict(item.get(self.key))
            name = _skill_name(item, ib)
            cocid = _dict(_dict(_dict(item.get("flags")).get("CoC7")).get("cocidFlag")).get("id")
            by_id = _by_cocid(name, cocid)
            english = by_id or translated_skill(name, str(ib.get("skillName") or item.get("name") or ""))
            if english and english != name:
                # a translated sheet ('Lutar (Briga)', 'Combat rapproché'): the skill its CoC ID (or its name in
                # one of the system's translations) says, under its English name as coc7 writes it
                self.assumed.append(f"{path}: {name!r} read as {english}"
                                    + (f" (its CoC ID {cocid})" if by_id else
                                       " (its name in the Foundry CoC7 system's translations, foundry_names.toml)"))
                name = english
            own = re.fullmatch(r"\s*Language\s*\((.+)\)\s*", name or "")
            if cocid == "i.skill.language-own" and own and own.group(1).strip().casefold() not in ("own", "other", "any"):
                # the system's id of the own language ('Language (English)', base EDU): Language (Own), not another
                name = f"Own Language ({own.group(1)})"
            record = {"name": name, "id": item.get("_id"), "skillName": str(ib.get("skillName") or ""),
                      "specialization": str(ib.get("specialization") or ""), "cocid": cocid,
                      "properties": _dict(ib.get("properties"))}
            self.skills.append(record)
            if not name:
                self.lose(path, "a skill with no name")
                continue
            try:
                value = self._skill_value(ib, path, name)
            except Unreadable as exc:
                self.lose(f"{path}.{self.key}", f"skill {name!r}: {exc} (the skill is not read)")
                continue
            if not 0 <= value <= 200:
                self.lose(f"{path}.{self.key}", f"skill {name!r} {value}% (coc7 holds 0-200%)")
                continue
            self.lines.append((f"Skills: {name} {value}%", path))

    def _skill_value(self, ib: dict[str, Any], path: str, name: str) -> int:
        adj = ib.get("adjustments")
        if adj is not None and not isinstance(adj, dict):
            raise Unreadable(f"adjustments {adj!r} (expected an object)")
        adj = _dict(adj)

        def adjustments(skip: tuple[str, ...] = ()) -> int:
            total = 0
            for k, v in adj.items():
                if k in skip:
                    continue
                try:
                    n = number(v)
                except Unreadable as exc:
                    raise Unreadable(f"adjustments.{k}: {exc}") from None
                total += math.floor(n or 0)
            return total

        if self.model.summed or ("base" in adj and "value" not in ib):
            # the data models: the sheet shows the sum of the adjustments; adjustments.base is the
            # evaluated base (the system evaluates `base` into it when the skill is added)
            if adj.get("base") in (None, ""):
                base = formula_or_number(ib.get("base"), self.values) or 0
                return base + adjustments(("base",))
            return adjustments()
        if self.type == "character":
            # an investigator's skill: base (a formula evaluated on the characteristics) plus the
            # points spent on it (personal, occupation, archetype, experience package, experience)
            base = formula_or_number(ib.get("base"), self.values) or 0
            if number(adj.get("archetype")) not in (None, 0):
                self.assumed.append(f"{path}: {name}: archetype points counted (they count under Pulp Cthulhu's "
                                    "archetype rule, which an archetype adjustment implies)")
            return base + adjustments()
        value = ib.get("value")
        if value in (None, "", -1, "-1"):
            # a skill never set on the NPC's sheet: the system sets an NPC's new skill to its base
            base = formula_or_number(ib.get("base"), self.values) or 0
            return base + adjustments()
        return formula_or_number(value, self.values) or 0

    # ---- weapons ------------------------------------------------------------------------------
    def link(self, ib: dict[str, Any]) -> tuple[str, dict[str, Any] | None]:
        """The skill a weapon is used with: (its name, the actor's skill item or None). The
        system links by the skill item's ``_id``; a name may be the full name, the skill name
        alone (``Rifle/Shotgun`` for ``Firearms (Rifle/Shotgun)``) or a CoC ID."""
        main = _dict(_dict(ib.get("skill")).get("main"))
        sid, sname = str(main.get("id") or ""), str(main.get("name") or "").strip()
        if sid:
            for s in self.skills:
                if s["id"] == sid:
                    return s["name"], s
        if not sname:
            return "", None
        if sname.startswith("i.skill."):
            tail = sname[len("i.skill."):]
            for s in self.skills:
                if s["cocid"] == sname or _kebab(s["name"]) == tail:
                    return s["name"], s
            return _from_kebab(tail), None
        key = fold(sname)
        for field in ("name", "skillName"):
            for s in self.skills:
                if s[field] and fold(s[field]) == key:
                    return s["name"], s
        for spec in ("Firearms", "Fighting"):
            if coc_skill(f"{spec} ({sname})") and not coc_skill(sname):
                return f"{spec} ({sname})", None
        return sname, None

    def weapon(self, item: dict[str, Any], path: str) -> None:
        ib = _dict(item.get(self.key))
        root = f"{path}.{self.key}"
        name = one_line(item.get("name") or "").replace(";", ",")
        if not name:
            self.lose(path, "a weapon with no name")
            return
        props = _dict(ib.get("properties"))
        label, linked = self.link(ib)
        natives = coc_skill(label) if label else ()
        spec = (linked or {}).get("specialization") or (label.split(" (")[0] if " (" in label else "")
        lprops = (linked or {}).get("properties") or {}
        rng = _dict(_dict(ib.get("range")).get("normal"))
        dist = self._range(rng, f"{root}.range.normal", name)
        if natives[:1] == ("Throw",):
            melee = False
        elif lprops.get("fighting") or fold(spec) == "fighting" or (natives and natives[0] in MELEE_SKILLS):
            melee = True
        elif lprops.get("firearm") or lprops.get("ranged") or fold(spec) in ("firearms", "ranged"):
            melee = False
        elif "rngd" in props or "melee" in props:
            melee = not props.get("rngd") or bool(props.get("melee"))
        else:  # a hand-made item without the flags: a range makes it a ranged weapon
            melee = not (dist and dist[0]) and not any(props.get(k) for k in ("shotgun", "brst", "auto"))
        if melee:
            self._melee(name, ib, props, rng, label, natives, path, root)
        else:
            self._ranged(name, ib, props, rng, dist, label, natives, path, root)

    def _range(self, rng: dict[str, Any], path: str, name: str) -> tuple[int | float, str] | None:
        """A weapon's base range: a number, a number with its unit ("15ft", "20 yards",
        "100m"), or a formula (``@STR/5``, yards); unreadable ones are a loss line."""
        raw = rng.get("value")
        if raw in (None, "", 0, "0"):
            return None
        if isinstance(raw, str) and "@" in raw:
            try:
                return evaluate(raw, self.values), "yd"
            except FormulaError as exc:
                self.lose(f"{path}.value", f"{name}: range {raw!r}: {exc}")
                return None
        found = distance(raw)
        if found is None:
            self.lose(f"{path}.value", f"{name}: range {raw!r} is not a distance")
            return None
        value, unit = found
        if unit is None:
            units = str(rng.get("units") or "").strip().lower()
            if units not in UNITS:
                self.lose(f"{path}.units", f"{name}: range unit {rng.get('units')!r} is not one of yards, metres, feet")
                return None
            unit = UNITS[units]
        return value, unit

    def _melee(self, name: str, ib: dict[str, Any], props: dict[str, Any], rng: dict[str, Any], label: str,
               natives: tuple[str, ...], path: str, root: str) -> None:
        parts = [name]
        raw = str(rng.get("damage") or "").strip()
        damage = re.sub(r"\s+", "", raw).replace("½", "1/2")
        damage = re.sub(r"(?i)\+?half\s*db$", "+1/2db", damage)
        effect = re.fullmatch(r"(.+?)\+((?!(?:1/2)?db$)[^\W\d_].*)", damage, re.IGNORECASE) if damage else None
        if effect and coc_damage(effect.group(1), melee=True) is not None:
            # "1D6 + grab", a bestiary's "1D8+poison": the dice, and the effect in words said
            self.lose(f"{root}.range.normal.damage", f"{name}: '+{effect.group(2)}' after its damage {effect.group(1)} "
                      "(an effect in words: no field in a coc melee line)")
            damage = effect.group(1)
        if damage and not re.search(r"(?i)db$", damage):
            if props.get("addb"):
                damage += "+db"  # the weapon adds the wielder's damage bonus (the sheet's 'addb')
            elif props.get("ahdb"):
                damage += "+1/2db"
        if damage and coc_damage(damage, melee=True) is None:
            self.lose(f"{root}.range.normal.damage", f"{name}: damage {raw!r} (not dice a coc melee line holds)")
            damage = ""
        if damage:
            parts.append(f"damage {damage}")
        if label:
            parts.append(f"skill {natives[0] if natives else item_text(label)}")
        else:
            self.lose(f"{root}.skill", f"{name}: no skill linked (skill.main is empty): the attack is filed under "
                      "its own name, with no %")
        self._properties_unsaid(name, ib, props, root)
        per_round = self._count(_dict(ib.get("usesPerRound")).get("normal"), f"{root}.usesPerRound.normal", name, 100)
        if per_round and per_round > 1:  # a creature's Talons twice a round
            self.lose(f"{root}.usesPerRound.normal", f"{name}: {per_round} attacks a round (a coc close-combat line "
                      "has no field for it)")
        reach = rng.get("value")
        if reach not in (None, "", 0, "0"):  # a whip's 10 ft
            self.lose(f"{root}.range.normal.value", f"{name}: reach {reach} (a coc close-combat line has no range)")
        self.lines.append(("Melee: " + ", ".join(parts) + ";", path))

    def _properties_unsaid(self, name: str, ib: dict[str, Any], props: dict[str, Any], root: str) -> None:
        """The properties no coc weapon line holds, said (an impaling weapon, 'impl', is the coc7
        rules' own: coc7.impale): a stun weapon, a mounted one, a fighting manoeuvre's weapon and a
        special one with what its description says of it."""
        words = {"stun": "stun (the attack stuns, no damage)", "mont": "mounted",
                 "mnvr": "a fighting manoeuvre weapon", "spcl": "special"}
        said = [words[k] for k in words if props.get(k)]
        special = _text(_dict(ib.get("description")).get("special"))
        if special:
            said.append(f"'{special}'")
        if said:
            self.lose(f"{root}.properties", f"{name}: " + ", ".join(said) + " (no field in a coc weapon line)")

    def _ranged(self, name: str, ib: dict[str, Any], props: dict[str, Any], rng: dict[str, Any],
                dist: tuple[int | float, str] | None, label: str, natives: tuple[str, ...], path: str,
                root: str) -> None:
        parts = [name]
        rngs = _dict(ib.get("range"))
        damage = re.sub(r"\s+", "", str(rng.get("damage") or ""))
        bands = [re.sub(r"\s+", "", str(_dict(rngs.get(b)).get("damage") or "")) for b in ("long", "extreme")]
        if damage and any(b and b.upper() != damage.upper() for b in bands):  # a shotgun: damage by range band
            damage = "/".join([damage] + [b for b in bands if b])

        def reach(band: str) -> tuple[float, str] | None:  # ('15ft', or 15 with units 'yards')
            b = _dict(rngs.get(band))
            m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*", str(b.get("value") or ""), re.IGNORECASE)
            return (float(m.group(1)), (m.group(2) or str(b.get("units") or "")).lower()) if m else None

        base = reach("normal")
        far = [f"{b} {_dict(rngs.get(b)).get('value')}" for b in ("long", "extreme")
               if _dict(rngs.get(b)).get("value") not in (None, "", 0, "0")]
        yards = ("yards", "yard", "yd", "yds")
        if far and base and reach("long") in (None, (base[0] * 2, base[1])) and (
                reach("extreme") in (None, (base[0] * 4, base[1]))
                or ("/" in damage and base[0] == 10 and base[1] in yards)):
            # the rules' own bands: twice and four times the base range, a shotgun's shot at 10 and 20 yards
            # and out to its reach (coc7.damage.shotgun): nothing the line loses
            far = []
        if far:  # ('15ft' / '25ft' / '35ft' by band: the two far distances had gone without a word)
            self.lose(f"{root}.range", f"{name}: range bands {', '.join(far)} (a coc7 line holds its base range; "
                      "the rules work the farther bands out from it)")
        if damage and coc_damage(damage) is None:
            self.lose(f"{root}.range.normal.damage", f"{name}: damage {damage!r} (not dice a coc weapon line holds)")
            damage = ""
        radius = None
        if props.get("blst"):
            try:
                radius = number(ib.get("blastRadius"))
            except Unreadable:
                radius = None
        if damage and props.get("blst"):
            if radius:  # a blast weapon: its damage within the radius, as the rulebook prints "4D10/3 yards"
                damage = f"{damage}/{radius:g} yards"
            else:
                self.lose(f"{root}.properties.blst", f"{name}: a blast weapon with no blastRadius: read as its damage "
                          "alone")
        if damage:
            parts.append(f"damage {damage}")
        self._properties_unsaid(name, ib, props, root)
        other = _dict(_dict(ib.get("skill")).get("alternativ"))
        if other.get("name") or other.get("id"):
            known = next((x["name"] for x in self.skills if other.get("id") and x["id"] == other.get("id")), None)
            self.lose(f"{root}.skill.alternativ", f"{name}: its second skill ({known or other.get('name') or other.get('id')}) "
                      "has no place: a coc7 weapon line fires with one skill, skill.main")
        if dist is not None:
            parts.append(f"base range {dist[0]} {dist[1]}")
        skill = weapon_skill(label, name) if label else None
        if skill is not None and props.get("shotgun") and "Shotgun" in natives:
            skill = "Shotgun"  # Firearms (Rifle/Shotgun) on a weapon the sheet marks a shotgun
        if label and skill is None:
            self.lose(path, f"{name}: its skill {label!r} is no firearm skill of a coc7 sheet (Firearms (Handgun), "
                      "Firearms (Rifle/Shotgun), Firearms (Submachine Gun), Firearms (Machine Gun), Throw): which "
                      "weapon it is is not said")
            return
        if skill is None:
            guess = "Shotgun" if props.get("shotgun") else "Throw" if props.get("thrown") else None
            if guess:
                skill = guess
                self.assumed.append(f"{root}.skill: {name}: no skill linked; {guess}, from its "
                                    f"{'shotgun' if guess == 'Shotgun' else 'thrown'} property")
            else:
                self.assumed.append(f"{root}.skill: {name}: no skill linked; the skill is the one its name or "
                                    "catalog entry says")
        if skill:
            parts.append(f"skill {skill}")
        uses = _dict(ib.get("usesPerRound"))
        per_round = self._count(uses.get("normal"), f"{root}.usesPerRound.normal", name, 100)
        most = self._count(uses.get("max"), f"{root}.usesPerRound.max", name, 100)
        if most and most > max(per_round or 1, 1):  # 7th edition's "1 (3)": the normal rate and the most
            parts.append(f"uses per round {per_round or 1} ({most})")
        elif per_round and per_round > 1:
            parts.append(f"{per_round} shots per round")
        if uses.get("burst") not in (None, "", 0, "0") or props.get("auto") or props.get("brst"):
            parts.append("burst")
            size = self._count(uses.get("burst"), f"{root}.usesPerRound.burst", name, 1000)
            if size and size > 1:  # how many rounds a burst is: the coc7 rules' volley (coc7.auto) decides it
                self.lose(f"{root}.usesPerRound.burst", f"{name}: bursts of {size} rounds (a coc weapon line says it "
                          "fires bursts, not their size: the rules' volleys decide it)")
        bullets = self._count(ib.get("bullets"), f"{root}.bullets", name, 10_000)
        if bullets:
            parts.append(f"capacity {bullets}")
        malf = self._count(ib.get("malfunction"), f"{root}.malfunction", name, 100)
        if malf:
            parts.append(f"malfunction {malf}")
        self.lines.append(("Weapons: " + ", ".join(parts), path))

    def _count(self, value: Any, path: str, name: str, most: int) -> int | None:
        """A whole count of 0 to `most` ("1", "1(3)", 6), None when empty; anything else is said."""
        m = re.match(r"^\s*(\d+)\s*(?:\(\s*\d+\s*\))?\s*$", value) if isinstance(value, str) else None
        try:
            n = int(m.group(1)) if m else number(value)
        except Unreadable as exc:
            self.lose(path, f"{name}: {exc}")
            return None
        if n is not None and not 0 <= n <= most:
            self.lose(path, f"{name}: {n} (expected 0 to {most})")
            return None
        return None if n is None else math.floor(n)

    # ---- the rest ---------------------------------------------------------------------------
    def special(self) -> None:
        """A creature's ``special`` block: the Sanity its sight costs (``sanLoss``: on a passed
        check / on a failed one) and its attacks a round, as a block prints them (the text
        reader keeps both in the notes: no coc document has a field for them)."""
        special = _dict(self.body.get("special"))
        san = _dict(special.get("sanLoss"))
        passed, failed = _text(san.get("checkPassed")), _text(san.get("checkFailled") or san.get("checkFailed"))
        if (passed or failed) and {passed, failed} - {"", "0"}:  # (0/0: seeing it costs nothing)
            self.lines.append((f"Sanity Loss: {passed or '0'}/{failed or '0'}", f"{self.root}.special.sanLoss"))
        moves = special.get("movement")
        if isinstance(moves, list):  # 8.x: [{type: walk, value: 7}, {type: fly, value: 9}]: one MOV in coc7
            more = [f"{_text(m.get('type'))} {m.get('value')}" for m in moves if isinstance(m, dict)
                    and _text(m.get("type")).lower() not in ("", "walk") and m.get("value") not in (None, "", 0)]
            if more:
                self.lose(f"{self.root}.special.movement", ", ".join(more) + " (a coc7 document holds one MOV, the "
                          "walking one)")
        apr = special.get("attacksPerRound")
        if isinstance(apr, (int, float, str)) and not isinstance(apr, bool) and str(apr).strip() not in ("", "0", "1"):
            self.lines.append((f"Attacks per round: {str(apr).strip()}", f"{self.root}.special.attacksPerRound"))

    def description(self, weapons: bool) -> list[str]:
        """A module's actor with its stat block written in a description the system's sheet has no field
        for (its skills and attacks as text, no items): its skills and attacks are read from it where
        the actor has none of its own; its prose is returned for the notes (it had all gone without a word)."""
        parts: list[str] = []
        value = _dict(self.body.get("description")).get("value")
        if isinstance(value, str) and value.strip():
            path = f"{self.root}.description.value"
            blocks = []
            for raw in re.split(r"</?(?:p|li|ul|ol|table|hr|h\d)\b[^>]*>", value):
                rows = [[_text(c) for c in re.findall(r"<t[hd]\b[^>]*>(.*?)</t[hd]>", row, re.S)]
                        for row in re.findall(r"<tr\b[^>]*>(.*?)</tr>", raw, re.S)]
                head = [c.lower() for c in rows[0]] if rows else []
                if len(head) >= 3 and head[0] in ("attack", "attacks", "weapon", "name") and "damage" in head:
                    # an attacks table ('Attack | Skill | Damage', 'Bite and nails | 60% | 2D6+DB'): a line each
                    at = head.index("damage")
                    blocks += [f"Attacks: {r[0]} {r[1]}, damage {r[at]}" for r in rows[1:] if len(r) == len(head)]
                elif rows and all(re.fullmatch(r"[A-Z]{2,4}\s*(?:\d{1,3}|—|-)", c) for r in rows for c in r):
                    continue  # the characteristics' table ('STR 95 | CON 65'): the actor's own fields say them
                elif _text(raw).lower() not in ("characteristics", "attacks", "skills", "combat"):  # (a bare heading)
                    blocks.append(_text(raw))
            for b in filter(None, blocks):
                head = re.match(r"(skills|attacks?|weapons?|combat|armou?r)\s*:", b, re.IGNORECASE)
                listed = re.match(r"[^:]{1,40}:\s*\d{1,3}\s*%?\s*[—–-]", b)  # 'Attack: 65 — 1D8+3'
                if head and head.group(1).lower() == "skills" and not self.skills:
                    self.lines.append((b, path))
                    self.assumed.append(f"{path}: the actor has no skill items; its description's skills are read")
                elif (head or listed) and not weapons and (head is None or head.group(1).lower() != "skills"):
                    self.lines.append((b, path))
                elif head or listed or re.fullmatch(r"(?:(?:STR|CON|SIZ|DEX|INT|POW|APP|EDU|HP|SAN|MP|Luck|MOV|Move|"
                                                    r"Build|DB)\s*:?\s*[-+\dD]+\s*\|?\s*)+", b, re.IGNORECASE):
                    continue  # what the actor's own fields say (its skills, weapons, characteristics)
                else:
                    parts.append(b)
        return parts

    def notes(self, weapons: bool) -> None:
        parts = [_text(_dict(self.body.get("description")).get("keeper"))]
        infos = _dict(self.body.get("infos"))  # an NPC's occupation, age, sex; a creature's type
        said = [f"{k.capitalize()}: {_text(v) if isinstance(v, str) else v}" for k, v in infos.items()
                if isinstance(v, (str, int, float)) and not isinstance(v, bool) and str(v).strip()]
        if said:  # (they had gone without a word)
            parts.append("; ".join(said) + ".")
        parts += self.description(weapons)
        bio = self.body.get("biography")
        if isinstance(bio, dict):  # an NPC's or creature's: its personal description
            parts.append(_text(_dict(bio.get("personalDescription")).get("value")))
        elif isinstance(bio, list):  # an investigator's: titled sections
            for section in bio:
                if isinstance(section, dict) and _text(section.get("value")):
                    title = _text(section.get("title"))
                    parts.append(f"{title}: {_text(section['value'])}" if title else _text(section["value"]))
        parts.append(_text(self.body.get("backstory")))
        notes = [p for p in parts if p]
        # a text the actor holds twice (a module's keeper note that its description says again: "Role:
        # antagonist/neutral" in both) is said once, where it says the most
        notes = [p for i, p in enumerate(notes) if not any(p in q and (len(q) > len(p) or j < i)
                                                            for j, q in enumerate(notes) if j != i)]
        if notes:
            self.lines.append(("Notes: " + one_line(" ".join(notes)), f"{self.root}.description"))


# a skill's speciality left to choose (the Japanese module's templates: "（専門分野を選ぶ）", "ほかの（専門分野
# を選ぶ）" under 言語): the system's English compendium's "Any"
_CHOOSE = re.compile(r"\s*(?:ほかの)?\s*[（(]?\s*専門分野を選ぶ\s*[)）]?\s*")


def _skill_name(item: dict[str, Any], ib: dict[str, Any]) -> str:
    name = one_line(item.get("name") or ib.get("skillName") or "")
    spec = ib.get("specialization")
    if isinstance(spec, str) and spec and _CHOOSE.fullmatch(name):
        name = "Any"
    if isinstance(spec, str) and spec and "(" not in name and name.casefold() != spec.strip().casefold():
        # ('Fighting' of speciality Fighting, a creature's own Fighting skill: as named, not 'Fighting (Fighting)')
        name = f"{spec} ({ib.get('skillName') or name})"
    return item_text(name)


def _kebab(name: str) -> str:
    """A skill name as the CoC7 system's CoC IDs spell it ('Firearms (Rifle/Shotgun)' ->
    'firearms-rifle-shotgun')."""
    return "-".join(re.findall(r"[a-z]+[0-9]*|[0-9]+", name.lower()))


def _by_cocid(name: str, cocid: Any) -> str | None:
    """The English name of a skill whose name is another language's, by its CoC ID: 'Lutar (Briga)' of
    ``i.skill.fighting-brawl`` is Fighting (Brawl), 'Outra Língua (Inglês)' of ``i.skill.language-own`` Own
    Language (Inglês). None where the name is the ID's own English or one of its words leads it (a
    renamed 'Fighting (Claws)' keeps its name)."""
    if not isinstance(cocid, str) or not cocid.startswith("i.skill.") or not name:
        return None
    tail = cocid[len("i.skill."):]
    first = (re.findall(r"[a-z]+", name.lower()) or [""])[0]
    if first in tail.split("-") or coc_skill(name):
        return None
    if tail in ("language-own", "language-other", "language"):
        spec = re.search(r"\(([^()]+)\)\s*$", name)
        if spec is None:
            return None
        return f"{'Own Language' if tail == 'language-own' else 'Language'} ({spec.group(1).strip()})"
    english = _from_kebab(tail)
    return english if coc_skill(english) or english.startswith(("Fighting (", "Firearms (")) or tail in _ENGLISH_7E \
        else None


# 7th-edition skills of no 6th-edition name (coc_skill knows the others): their CoC IDs' tails
_ENGLISH_7E = frozenset({"stealth", "fighting", "firearms", "charm", "intimidate", "animal-handling", "natural-world"})


def _from_kebab(tail: str) -> str:
    """A CoC ID's skill, named: a name the coc tables know whose CoC ID it is, else the words
    of the ID ('fighting-bite' -> 'Fighting (Bite)')."""
    from xsys.plugins.coc.names import COC_SKILLS

    for alias in COC_SKILLS:
        if _kebab(alias) == tail:
            return alias.title()
    head, _, rest = tail.partition("-")
    words = " ".join(w.capitalize() for w in rest.split("-"))
    return f"{head.capitalize()} ({words})" if head in ("fighting", "firearms") and rest else \
        " ".join(w.capitalize() for w in tail.split("-"))


def read_actor(plain: dict[str, Any], model: Model) -> dict[str, Any]:
    a = _Actor(plain, model)
    name = plain.get("name")
    if not isinstance(name, str) or not one_line(name):
        a.assumed.append("$.name: the actor has no name; named 'Unnamed NPC'")
        name = "Unnamed NPC"
    a.lines.append((one_line(name), "$.name"))
    stats: dict[str, int | None] = dict(a.characteristics())
    stats.update(a.attribs())
    items = plain.get("items")
    if items is not None and not isinstance(items, list):
        a.lose("$.items", f"items are a {type(items).__name__}, not a list")
    items = items if isinstance(items, list) else []
    a.skill_items(items)
    gear: list[str] = []
    for i, item in enumerate(items):
        path = f"$.items[{i}]"
        if not isinstance(item, dict):
            a.lose(path, f"an item that is a {type(item).__name__}")
            continue
        kind = item.get("type")
        if kind == "skill":
            continue
        if kind in GEAR:
            gear.append(f"{path} {item.get('name')!r}")
        elif kind == "spell" and one_line(item.get("name") or ""):
            a.lines.append((f"Spells: {item_text(item['name'])}", path))
        elif kind == "weapon":
            a.weapon(item, path)
        else:
            a.lose(path, f"{kind} {item.get('name')!r} (no place in a coc7 document)")
    if gear:
        a.assumed.append("equipment not carried (a stat block lists combat material only): " + ", ".join(gear))
    a.module_flags(plain.get("flags"), {str(i.get("type")) for i in items if isinstance(i, dict)})
    effects = plain.get("effects")
    if isinstance(effects, list) and effects:
        a.assumed.append(f"$.effects: {len(effects)} active effect(s) not applied: the sheet's own values are read")
    a.special()
    a.notes(any(isinstance(i, dict) and i.get("type") == "weapon" for i in items))
    shown = ", ".join(f"{k} {v}" for k, v in list(a.chars7.items())[:3])
    edition = ("7th edition: the CoC7 system holds 7th-edition actors, characteristics on the 1-99 scale"
               + (f" ({shown} ...)" if shown else "") + ", read into coc7 as written")
    return read_lines(a.lines, FORMAT, SEVENTH_KEY, assumed=a.assumed, unread=a.unread, stats=stats,
                      about={"reader": model.label, "edition": edition})


READERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    key: (lambda plain, m=model: read_actor(plain, m)) for key, model in MODELS.items()
}
