"""Plain-text stat blocks -> native NPC documents (plain data), for every built-in system.

A stat block is read line by line. A line is a heading with its items (``Skills: Handgun
55%, Dodge 30%``; the items may run on over the next lines), a line of stat pairs (``STR 12
CON 11 ...``, ``ST 11, DX 12, IQ 10, HT 11``), the NPC's name (the first line that is none of
these) or its description (prose between the name and the first stats). Anything else is
*unread*: it is reported, never skipped in silence. Lines starting with ``#`` are comments.

What the block leaves out and the document needs (a CoC weapon's base range, a 7th-edition
characteristic on the 3-18 scale) is filled in and reported as *assumed*. The reports travel
in the document's ``xsys.read`` block (``unread``: line and text; ``assumed``: what was set
and why) and become losses when the document is converted or validated.

Which system a block is for: a ``system: KEY`` line, else the stat names it uses (STR/CON/SIZ
for Call of Cthulhu, ST/DX/IQ/HT for GURPS, the nine nWoD attributes, the Polish traits); a
CoC block in Chinese (Han characters, no kana) is ``coc-zh``.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Callable

from xsys.core.errors import InputError
from xsys.core.model import melee_class_of

from . import names as N
from .names import fold

SYSTEMS = ("coc", "coc-zh", "gurps", "nwod", "pl-trudnosc")


@dataclass
class Read:
    """What a reader made of a block."""

    system: str
    doc: dict[str, Any] = field(default_factory=dict)
    unread: list[tuple[int, str]] = field(default_factory=list)
    assumed: list[str] = field(default_factory=list)
    line: int = 0  # the line being read (for a reader that reports after the walk)
    unknown: list[tuple[int, str, str]] = field(default_factory=list)  # (line, skill name, closest known name)


# ---- lines and items --------------------------------------------------------------------

def normalize(line: str) -> str:
    text = unicodedata.normalize("NFKC", line).replace("\t", " ")
    text = text.replace("・", ", ").replace("、", ", ").replace("；", ";")
    return re.sub(r"[ \u3000]+", " ", text).strip()


def split_items(text: str, seps: str = ",;") -> list[str]:
    """Comma/semicolon separated items, not splitting inside brackets."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        if ch in seps and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    return [i.strip().rstrip(".").strip() for i in out if i.strip().rstrip(".").strip()]


_HEADING = re.compile(r"^([^:]{1,40}?)\s*:\s*(.*)$")


def heading_of(line: str) -> tuple[str, str] | None:
    if fold(line).rstrip(":") in N.HEADINGS:  # a heading on a line of its own
        return N.HEADINGS[fold(line).rstrip(":")], ""
    m = _HEADING.match(line)
    if m and fold(m.group(1)) in N.HEADINGS:
        return N.HEADINGS[fold(m.group(1))], m.group(2)
    return None


def stat_pairs(line: str, keys: tuple[str, ...], value: str = r"[+-]?\d+") -> tuple[dict[str, str], str]:
    """``KEY value`` pairs of `keys` found in `line` (a colon or equals sign may sit between)
    and what is left of the line once they and their separators are taken out."""
    alt = "|".join(re.escape(k) for k in sorted(keys, key=len, reverse=True))
    pat = re.compile(rf"(?<![\w])({alt})\s*[:=]?\s*({value})(?![\w])", re.IGNORECASE)
    found: dict[str, str] = {}
    canon = {k.lower(): k for k in keys}

    def take(m: re.Match[str]) -> str:
        found[canon[m.group(1).lower()]] = m.group(2)
        return " "

    rest = pat.sub(take, line)
    rest = re.sub(r"[\s,;/|()\[\]]+", " ", rest).strip()
    return found, rest


# "Name (details)" with the details in the last bracket pair (the name may hold brackets of
# its own: "Smith & Wesson Model 10 (.38 Special) (2d-1, Acc 2)"), or "Name: details"
def named(item: str) -> tuple[str, str] | None:
    """'Name (details)', the details in the last top-level bracket pair (names and details may
    hold brackets of their own: 'Smith & Wesson Model 10 (.38 Special) (2d-1, Skill Guns
    (Pistol))'), or 'Name: details'."""
    text = item.strip()
    if text.endswith(")"):
        depth = 0
        for i in range(len(text) - 1, -1, -1):
            if text[i] == ")":
                depth += 1
            elif text[i] == "(":
                depth -= 1
                if depth == 0:
                    name = text[:i].strip()
                    if name:
                        return name, text[i + 1:-1]
                    break
    m = re.match(r"^([^:]+?)\s*:\s*(.+)$", text)
    return (m.group(1).strip(), m.group(2)) if m else None


def weapon_items(text: str) -> list[str]:
    """Weapons of a line: apart by semicolons where the line has any (names may hold commas),
    else by commas outside brackets."""
    return split_items(text, ";" if ";" in text else ",;")


def _dice(text: str) -> str:
    return re.sub(r"\s+", "", text).replace("D", "d")


# ---- which system ------------------------------------------------------------------------

_KANA = re.compile(r"[\u3040-\u30ff]")
_HAN = re.compile(r"[\u4e00-\u9fff]")


def detect(lines: list[str]) -> str:
    for line in lines:
        m = re.match(r"^\s*system\s*[:=]\s*([\w-]+)\s*$", line, re.IGNORECASE)
        if m:
            key = m.group(1).lower()
            if key not in SYSTEMS:
                raise InputError("unknown system in the stat block", path="system:",
                                 expected=", ".join(SYSTEMS), found=repr(m.group(1)))
            return key
    text = "\n".join(lines)
    scores = {
        "coc": _count(text, N.COC_CHARACTERISTICS),
        "gurps": _count(text, N.GURPS_ATTRIBUTES),
        "nwod": _count(text, N.NWOD_ATTRIBUTES),
        "pl-trudnosc": _count(text, N.PL_TRAITS),
    }
    best = max(scores, key=lambda k: scores[k])
    if scores[best] < 3:
        raise InputError("cannot tell which system this stat block is for", expected=(
            "a 'system: KEY' line, or the system's stats: STR CON SIZ ... (Call of Cthulhu), ST DX IQ HT (GURPS), "
            "Intelligence Wits ... (nWoD) or Motoryka Percepcja Atletyka Odwaga (pl-trudnosc)"),
            found=f"{scores[best]} of them")
    if best == "coc" and _HAN.search(text) and not _KANA.search(text):
        return "coc-zh"
    return best


def _count(text: str, keys: tuple[str, ...]) -> int:
    return sum(bool(re.search(rf"(?<![\w]){re.escape(k)}\s*[:=]?\s*[+-]?\d", text)) for k in keys)


# ---- the shared walk ---------------------------------------------------------------------

class Walk:
    """Goes through the lines once; the system's reader says what each line is."""

    def __init__(self, r: Read, lines: list[str]) -> None:
        self.r = r
        self.lines = lines

    def run(self, stats: Callable[[str], str | None], section: Callable[[str, str, int], None]) -> None:
        current: str | None = None
        seen_stats = False
        name_set = False
        description: list[str] = []
        for n, raw in enumerate(self.lines, 1):
            line = normalize(raw)
            if not line or line.startswith("#") or re.match(r"^system\s*[:=]", line, re.IGNORECASE):
                continue
            head = heading_of(line)
            if head is not None:
                current, rest = head
                if current == "notes":  # prose keeps its own punctuation (full-width included)
                    parts = re.split(r"[:：]", raw, maxsplit=1)
                    rest = parts[1].strip() if len(parts) == 2 else ""
                if rest:
                    section(current, rest, n)
                continue
            self.r.line = n
            left = stats(line)
            if left is not None:
                seen_stats = True
                current = None
                if left:
                    self.r.unread.append((n, f"{raw.strip()} (not read: {left})"))
                continue
            if current is not None:
                section(current, raw.strip() if current == "notes" else line, n)
                continue
            if not name_set:
                self.r.doc["@name"] = raw.strip()
                name_set = True
            elif not seen_stats:
                description.append(raw.strip())
            else:
                self.r.unread.append((n, raw.strip()))
        if description:
            self.r.doc["@description"] = "\n".join(description)


def sectioner(r: Read, notes: list[str], stats: Callable[[str], str | None],
              handlers: dict[str, Callable[[str, int], Any]],
              split: Callable[[str, str], list[str]] | None = None) -> Callable[[str, str, int], None]:
    """The reader of a block's sections: notes are kept as written, an attributes/derived item
    is read as stats, other items go to their kind's handler. An item of no known kind, or one
    its handler returns False for, is unread (a handler that reports on its own returns None)."""
    def stat_item(item: str, n: int) -> bool:
        r.line = n
        left = stats(item)
        return left is not None and not left

    table = {"attributes": stat_item, "derived": stat_item, **handlers}

    def section(kind: str, text: str, n: int) -> None:
        if kind == "notes":
            notes.append(text)
            return
        items = split(kind, text) if split else (
            weapon_items(text) if kind in ("weapons", "armor") else split_items(text))
        for item in items:
            handler = table.get(kind)
            if handler is None or handler(item, n) is False:
                r.unread.append((n, item))

    return section


# ---- Call of Cthulhu ---------------------------------------------------------------------

_PCT = re.compile(r"^(?P<name>.+?)\s*(?P<val>\d{1,3})\s*%?\s*(?:\((?:\d+\s*/\s*\d+)\))?$")
_KEYWORDS = (
    ("Machine Gun", ("machine gun", "mg ", "browning m1919", "bar ", "機関銃", "マシンガン", "机枪")),
    ("SMG", ("smg", "submachine", "sub-machine", "tommy", "thompson", "mp5", "uzi", "mac-10", "サブマシンガン",
             "冲锋枪")),
    ("Shotgun", ("shotgun", "12 gauge", "12-gauge", "12ga", "sawed-off", "sawn-off", "ショットガン", "散弾", "霰弹")),
    ("Rifle", ("rifle", "carbine", "winchester", "springfield", "mauser", "lee-enfield", "ak-47", "m16", "ライフル",
               "步枪")),
    ("Throw", ("grenade", "knife (thrown)", "dynamite", "molotov", "手榴弾", "手榴弹")),
    ("Handgun", ("revolver", "pistol", "handgun", ".38", ".45", ".32", "9mm", "9 mm", "luger", "colt", "glock",
                 "derringer", "拳銃", "リボルバー", "手枪")),
)
_COC_CLASS = {"Handgun": "handgun", "Rifle": "rifle", "Shotgun": "shotgun", "SMG": "smg", "Machine Gun": "mg",
              "Throw": "thrown"}


def catalog_match(name: str) -> Any:
    """The catalog weapon a printed name is (by id or by name, folded), or None."""
    from xsys.core.registry import catalog

    key = fold(name)
    for entry in catalog().weapons.values():
        if fold(entry.id) == key or fold(entry.name) == key:
            return entry
    for entry in catalog().weapons.values():  # "Colt M1911A1 (.45 ACP)" printed as "Colt M1911A1"
        base = fold(entry.name).split(" (")[0]
        if base and (key == base or key.startswith(base + " ")):
            return entry
    return None


def skill_by_keyword(name: str) -> str | None:
    low = " " + fold(name) + " "
    for skill, words in _KEYWORDS:
        if any(w in low for w in words):
            return skill
    return None


def _coc() -> Any:
    from xsys.core.registry import default_registry

    return default_registry().system("coc")


def _coc_line(entry: Any) -> dict[str, Any]:
    """The coc plugin's own weapon line for a catalog weapon (coc tables.toml)."""
    from xsys.core.catalog import strip_entry

    from xsys.core import codec

    return codec.to_builtins(_coc().weapon_defaults(strip_entry(entry)))


_COC_ATTRS: tuple[tuple[str, str, Callable[[re.Match[str]], Any]], ...] = (
    ("damage", r"^(?:damage|dmg|ダメージ|伤害)\s*:?\s*([0-9dD+\-/ ]+?(?:\+\s*(?:1/2\s*)?DB)?)$",
     lambda m: m.group(1).strip()),
    ("base_range", r"^(?:base range|range|射程|基本射程)\s*:?\s*(\d+(?:\.\d+)?)\s*(m|yd|yds|yards|ft|feet|metres|meters)$",
     lambda m: f"{m.group(1)} " + {"yds": "yd", "yards": "yd", "feet": "ft", "metres": "m", "meters": "m"}.get(
         m.group(2).lower(), m.group(2).lower())),
    ("skill", r"^skill\s*:?\s*(.+)$", lambda m: m.group(1).strip()),
    ("shots_per_round", r"^(\d+)\s*(?:shots? per round|/round|attacks? per round)$", lambda m: int(m.group(1))),
    ("burst", r"^(?:burst|1 or burst|full auto)$", lambda m: True),
    ("capacity", r"^(?:capacity|shots|装弾数)\s*:?\s*(\d+)$", lambda m: int(m.group(1))),
    ("malfunction", r"^(?:malfunction|mal|故障)\s*:?\s*(\d+)$", lambda m: int(m.group(1))),
    ("STR", r"^STR\s*:?\s*(\d+)$", lambda m: int(m.group(1))),
    ("sights", r"^sights?\s*:?\s*(iron|tritium|laser|red-dot|reflex|scope|nv-sight|thermal)$", lambda m: m.group(1)),
    ("carry", r"^carry\s*:?\s*(.+)$", lambda m: m.group(1).strip()),
    ("ammo", r"^ammo\s*:?\s*(bullet|shot|slug)$", lambda m: m.group(1)),
    ("length", r"^length\s*:?\s*(\d+(?:\.\d+)?\s*(?:m|cm|in|ft))$", lambda m: m.group(1)),
    ("muzzle_energy", r"^muzzle energy\s*:?\s*(\d+(?:\.\d+)?\s*J)$", lambda m: m.group(1)),
)


def _coc_attr(part: str) -> tuple[str, Any] | None:
    for key, pat, val in _COC_ATTRS:
        m = re.match(pat, part.strip(), re.IGNORECASE)
        if m:
            return key, val(m)
    return None


def coc_weapon_parts(item: str) -> tuple[str, int | None, dict[str, Any], list[str]] | None:
    """A CoC weapon item: (name, attack %, attributes, parts not understood), or None. The name
    may hold commas ("Hunting rifle, .30-06"); it ends where the first attribute starts."""
    parts = split_items(item, ",")
    first = next((i for i, p in enumerate(parts) if _coc_attr(p)), len(parts))
    head = ", ".join(parts[:first])
    attrs: dict[str, Any] = {}
    m = re.match(r"^(.*?)\s+(?:damage|dmg|ダメージ|伤害)\s*:?\s*([0-9dD+\-/ ]+?(?:\+\s*(?:1/2\s*)?DB)?)$", head,
                 re.IGNORECASE)
    if m:  # "Revolver 60% ダメージ 1D10": the damage on the same part
        head, attrs["damage"] = m.group(1), m.group(2).strip()
    pm = re.match(r"^(.*?)\s*(\d{1,3})\s*%\s*(?:\(\s*\d+\s*/\s*\d+\s*\))?$", head)
    pct = None
    if pm:
        head, pct = pm.group(1), int(pm.group(2))
    name = head.strip().rstrip(":").strip()
    if not name:
        return None
    left = []
    for p in parts[first:]:
        found = _coc_attr(p)
        if found:
            attrs.setdefault(found[0], found[1])
        else:
            left.append(p)
    if pct is None and "damage" not in attrs:
        return None
    return name, pct, attrs, left


def catalog_tag(item: str) -> tuple[str, str | None]:
    """An item's ' [catalog: id]' tag (what xsys writes when a name does not say it) and the rest."""
    m = re.search(r"\s*\[catalog:\s*([\w.-]+)\]", item)
    if not m:
        return item, None
    return (item[:m.start()] + item[m.end():]).strip(), m.group(1)


def _catalog() -> Any:
    from xsys.core.registry import catalog

    return catalog()


def weapon_entry(cid: str | None, name: str) -> Any:
    """The catalog weapon an item names: by its ``[catalog: id]`` tag, else by its printed name."""
    return _catalog().weapons.get(cid) if cid else catalog_match(name)


def armor_entry(cid: str | None, name: str) -> Any:
    """The catalog armor an item names: by its ``[catalog: id]`` tag, else by its printed name."""
    return _catalog().armor.get(cid) if cid else armor_match(name)


def named_item(r: Read, item: str, n: int) -> tuple[str, str, str | None] | None:
    """A 'Name (details)' weapon item: (name, details, catalog tag), or None (reported unread)."""
    item, cid = catalog_tag(item)
    nd = named(item)
    if nd is None:
        r.unread.append((n, item))
        return None
    return nd[0], nd[1], cid


def armor_match(name: str) -> Any:
    key = fold(name)
    for entry in _catalog().armor.values():
        if fold(entry.id) == key or fold(entry.name) == key:
            return entry
    return None


def read_coc(lines: list[str], system: str) -> Read:
    r = Read(system)
    chars: dict[str, int] = {}
    skills: dict[str, int] = {}
    weapons: list[dict[str, Any]] = []
    armor: list[dict[str, Any]] = []
    notes: list[str] = []
    spells: list[str] = []
    melee: list[dict[str, Any]] = []
    extra: dict[str, Any] = {}
    extra_line: dict[str, int] = {}

    def stats(line: str) -> str | None:
        found, rest = stat_pairs(line, N.COC_CHARACTERISTICS + tuple(k for k in N.COC_DERIVED if k != "DB"))
        db, rest2 = stat_pairs(rest, ("DB", "Damage Bonus", "ダメージ・ボーナス", "ダメージボーナス"),
                               r"[+-]?\d*[dD]\d+|[+-]?\d+|none")
        if not found and not db:
            return None
        for k, v in found.items():
            if k in N.COC_CHARACTERISTICS:
                chars[k] = int(v)
            else:
                extra[k] = int(v)
                extra_line[k] = r.line
        extra.update(db)
        extra_line.update({k: r.line for k in db})
        return rest2

    def skill_item(item: str, n: int) -> bool:
        m = _PCT.match(item)
        if not m:
            return False
        natives = N.COC_SKILLS.get(fold(m.group("name")))
        if not natives:
            close = N.closest_coc_skill(m.group("name"))
            if close is not None:
                r.unknown.append((n, m.group("name").strip(), close))
        for native in natives or (m.group("name").strip(),):
            skills[native] = int(m.group("val"))
        return True

    def weapon_item(item: str, n: int) -> None:
        item, cid = catalog_tag(item)
        parsed = coc_weapon_parts(item)
        if parsed is None:
            r.unread.append((n, item))
            return
        name, pct, attrs, left = parsed
        natives = N.COC_SKILLS.get(fold(name))
        if natives and "damage" not in attrs:  # "Handgun 55%" under Combat is a skill line
            for native in natives:
                skills[native] = pct if pct is not None else skills.get(native, 0)
            return
        said = attrs.get("skill")
        if natives and set(natives) <= {"Fist/Punch"} or fold(name) in ("kick", "grapple", "head butt", "knife",
                                                                        "club", "fighting (brawl)") \
                or (said and said not in _COC_CLASS and melee_class_of(str(said)) != "improvised"):
            melee_attack(name, pct, attrs, left, natives, n)
            return
        entry = weapon_entry(cid, name)
        skill = attrs.get("skill") or (natives[0] if natives else None) or (
            _skill_of_class(entry.weapon_class) if entry is not None else skill_by_keyword(name))
        if skill not in _COC_CLASS:
            r.unread.append((n, f"{item} (which firearm skill fires it is not said)"))
            return
        w: dict[str, Any] = {"name": name, "skill": skill}
        if entry is not None:
            w["catalog"] = entry.id
        if "damage" in attrs:
            dmg = _dice(attrs["damage"])
            if re.search(r"\+(1/2)?db$", dmg, re.IGNORECASE):
                dmg = re.sub(r"\+(1/2)?db$", "", dmg, flags=re.IGNORECASE)
                r.assumed.append(f"line {n}: {name}: the damage bonus in '{attrs['damage']}' is the wielder's, "
                                 "not the weapon's; left out")
            w["damage"] = dmg
        for key in ("base_range", "shots_per_round", "burst", "capacity", "malfunction", "STR", "sights", "carry",
                    "ammo", "length", "muzzle_energy"):
            if key in attrs:
                w[key] = attrs[key]
        line = _coc_line(entry) if entry is not None else None
        if "base_range" not in w:
            if line is not None:
                w["base_range"] = line["base_range"]
                where = f"the coc line of catalog weapon {entry.id}"
            else:
                w["base_range"] = _coc().tables()["weapon_class"][_COC_CLASS[skill]]["base_range"]
                where = f"the {_COC_CLASS[skill]} default (coc tables.toml [weapon_class])"
            r.assumed.append(f"line {n}: {name}: no base range in the block; {w['base_range']}, {where}")
        if "damage" not in w:
            if line is None:
                r.unread.append((n, f"{item} (no damage and not a catalog weapon)"))
                return
            w["damage"] = line["damage"]
            r.assumed.append(f"line {n}: {name}: no damage in the block; {line['damage']}, the coc line of "
                             f"catalog weapon {entry.id}")
        if pct is not None and skill not in skills:
            skills[skill] = pct
        if left:
            r.unread.append((n, f"{name}: " + ", ".join(left)))
        weapons.append(w)

    def melee_attack(name: str, pct: int | None, attrs: dict[str, Any], left: list[str],
                     natives: tuple[str, ...] | None, n: int) -> None:
        """A close-combat attack (issue 20): the document's melee line; its % is the skill's."""
        skill = str(attrs.get("skill") or (natives[0] if natives else name))
        if pct is not None:
            skills[skill] = pct
        damage = _dice(str(attrs.get("damage", ""))).lower()
        melee.append({"name": name, "skill": skill, "damage": damage})
        if left:
            r.unread.append((n, f"{name}: " + ", ".join(left)))

    def melee_item(item: str, n: int) -> bool:
        parsed = coc_weapon_parts(item)
        if parsed is None:
            m = _PCT.match(item)  # "Grapple 40%": an attack without damage
            if not m:
                return False
            name = m.group("name").strip()
            parsed = (name, int(m.group("val")), {}, [])
        name, pct, attrs, left = parsed
        melee_attack(name, pct, attrs, left, N.COC_SKILLS.get(fold(name)), n)
        return True

    def spell_item(item: str, n: int) -> bool:
        name = item.strip().rstrip(".")
        if not name:
            return False
        spells.append(name)
        return True

    def armor_item(item: str, n: int) -> None:
        item, cid = catalog_tag(item)
        parts = split_items(item, ",")
        extra = {}
        for p in parts[1:]:
            st = re.match(r"^stops\s*:?\s*(\d+(?:\.\d+)?\s*J)$", p.strip(), re.IGNORECASE)
            if not st:
                r.unread.append((n, item))
                return
            extra["stops"] = st.group(1)
        head = parts[0] if parts else ""
        if system == "coc-zh":
            m = re.match(r"^(?P<name>.+?)\s*\(?\s*(?P<p>\d+)\s*(?:points?|点)?\s*\)?$", head)
            if not m:
                r.unread.append((n, item))
                return
            a: dict[str, Any] = {"name": m.group("name").strip().rstrip(":"), "points": int(m.group("p"))}
        else:
            m = re.match(r"^(?P<name>.+?)\s*\(?\s*(?P<a>\d+)\s*/\s*(?P<b>\d+(?:\.\d+)?)\s*\)?$", head)
            if not m:
                r.unread.append((n, item))
                return
            b = float(m.group("b"))
            a = {"name": m.group("name").strip().rstrip(":"), "A": int(m.group("a")), "B": int(b) if b.is_integer() else b}
        entry = armor_entry(cid, a["name"])
        if entry is not None:
            a["catalog"] = entry.id
        a.update(extra)
        armor.append(a)

    # a CoC weapon line runs on with commas ("55%, damage 1D10, base range 15 m"): weapons
    # are one per line or apart by semicolons
    section = sectioner(r, notes, stats, {"skills": skill_item, "weapons": weapon_item, "armor": armor_item,
                                          "spells": spell_item, "melee": melee_item},
                        lambda kind, text: split_items(text, ";" if kind in ("weapons", "armor", "melee") else ",;"))

    Walk(r, lines).run(stats, section)
    raw = dict(chars)
    _coc_characteristics(r, chars)
    own = _coc_derived(r, raw, extra, extra_line)
    doc: dict[str, Any] = {"name": _name(r)}
    doc.update({k: chars[k] for k in N.COC_CHARACTERISTICS if k in chars})
    if "HP" in extra:
        doc["HP"] = extra["HP"]
    doc.update(own)
    if spells:
        doc["spells"] = spells
    doc["skills"] = skills
    doc["weapons"] = weapons
    if melee:
        doc["melee"] = melee
    doc["armor"] = armor
    doc["notes"] = _notes(r, notes)
    r.doc = doc
    return r


def _skill_of_class(weapon_class: str) -> str:
    return {"handgun": "Handgun", "revolver": "Handgun", "smg": "SMG", "carbine": "Rifle", "rifle": "Rifle",
            "shotgun": "Shotgun", "mg": "Machine Gun", "thrown": "Throw"}[weapon_class]


def _coc_characteristics(r: Read, chars: dict[str, int]) -> None:
    """A 7th-edition block writes characteristics 1-99 (five times the 3-18 of earlier
    editions, which `coc` uses): any value above 18 marks one, and all are divided by 5."""
    if any(v > 18 for v in chars.values()):
        for k, v in list(chars.items()):
            new = max(1, round(v / 5))
            chars[k] = new
        r.assumed.append("a 7th-edition block (characteristics above 18): every characteristic divided by 5 "
                         "and rounded (" + ", ".join(f"{k} {v}" for k, v in chars.items()) + ")")
    missing = [k for k in N.COC_CHARACTERISTICS if k not in chars]
    if missing:
        for k in missing:
            chars[k] = 11 if k != "SIZ" and k != "INT" and k != "EDU" else {"SIZ": 13, "INT": 13, "EDU": 14}[k]
        r.assumed.append("not in the block, set to the average adult (3d6 -> 10.5, 2d6+6 -> 13, 3d6+3 -> 13.5): "
                         + ", ".join(f"{k} {chars[k]}" for k in missing))


def _coc_derived(r: Read, raw: dict[str, int], extra: dict[str, Any], where: dict[str, int]) -> dict[str, int]:
    """The derived values a CoC block prints beside the characteristics. Those the block's
    characteristics give (6th edition: MP = POW, SAN = Luck = POW x 5, Idea = INT x 5, Know =
    EDU x 5; 7th: MP = POW / 5, SAN = POW) are read as derived; other values of SAN, MP and Luck
    are the document's own ``SAN``/``MP``/``Luck`` (returned: what only CoC states, carried
    through every other system); other values of Idea and Know (rolls, INT and EDU x 5) are
    unread; the damage bonus, Build and movement, which coc derives itself, are not carried
    (assumed)."""
    own: dict[str, int] = {}
    fields = {"SAN": ("SAN", 99), "Sanity": ("SAN", 99), "MP": ("MP", 999), "Magic Points": ("MP", 999),
              "Luck": ("Luck", 99)}
    seventh = any(v > 18 for v in raw.values())
    pow_, int_, edu = raw.get("POW"), raw.get("INT"), raw.get("EDU")

    def times(v: int | None, k: int) -> int | None:
        return v * k if v is not None else None

    expected = ({"MP": pow_ // 5 if pow_ is not None else None, "SAN": pow_, "Sanity": pow_,
                 "Magic Points": pow_ // 5 if pow_ is not None else None} if seventh else
                {"MP": pow_, "Magic Points": pow_, "SAN": times(pow_, 5), "Sanity": times(pow_, 5),
                 "Luck": times(pow_, 5), "Idea": times(int_, 5), "Know": times(edu, 5)})
    recomputed = []
    for k, v in extra.items():
        if k == "HP":
            continue
        if k in ("DB", "Damage Bonus", "ダメージ・ボーナス", "ダメージボーナス", "Build", "MOV", "Move"):
            recomputed.append(f"{k} {v}")
        elif expected.get(k) is None or expected[k] != v:
            if k in fields and 0 <= int(v) <= fields[k][1]:
                own[fields[k][0]] = int(v)
            else:
                r.unread.append((where.get(k, 0), f"{k} {v} (no place in a coc document)"))
    if recomputed:
        r.assumed.append(", ".join(recomputed) + " not carried: coc derives the damage bonus and movement from the "
                         "characteristics")
    return own


def _name(r: Read) -> str:
    name = r.doc.get("@name")
    if not name:
        r.assumed.append("no name line: named 'Unnamed NPC'")
        return "Unnamed NPC"
    return str(name)


def _notes(r: Read, notes: list[str]) -> str:
    parts = [p for p in (r.doc.get("@description"), *notes) if p]
    return "\n".join(parts)


# ---- GURPS 3e ----------------------------------------------------------------------------

_GURPS_SKILL = re.compile(r"^(?P<name>.+?)\s*(?:[-–]\s*|\s+)(?P<val>\d{1,2})$")


def read_gurps(lines: list[str], system: str) -> Read:
    r = Read(system)
    doc: dict[str, Any] = {}
    skills: dict[str, int] = {}
    weapons: list[dict[str, Any]] = []
    armor: list[dict[str, Any]] = []
    lists: dict[str, list[str]] = {"advantages": [], "disadvantages": []}
    notes: list[str] = []

    def stats(line: str) -> str | None:
        found, rest = stat_pairs(line, N.GURPS_ATTRIBUTES + N.GURPS_DERIVED + N.GURPS_IGNORED,
                                 r"[+-]?\d+(?:\.\d+)?")
        if not found:
            return None
        for k, v in found.items():
            if k in N.GURPS_ATTRIBUTES or k in N.GURPS_DERIVED:
                doc[k] = int(float(v))
        return rest

    def skill_item(item: str) -> bool:
        clean = re.sub(r"\[\s*\d+\s*\]", "", item)
        clean = re.sub(r"\((?:ST|DX|IQ|HT|Will|Per)/[EAHV]{1,2}\)", "", clean)
        clean = re.sub(r"/TL\d+", "", clean)
        clean = re.sub(r"\b(?:ST|DX|IQ|HT|Will|Per)\s*[+-]\s*\d+\b|\b(?:ST|DX|IQ|HT|Will|Per)\b(?=\s*[-–]?\s*\d+$)",
                       "", clean).strip()
        m = _GURPS_SKILL.match(clean)
        if not m:
            return False
        skills[re.sub(r"\s+", " ", m.group("name").strip().rstrip(":"))] = int(m.group("val"))
        return True

    def weapon_item(item: str, n: int) -> None:
        found = named_item(r, item, n)
        if found is None:
            return
        name, details, cid = found
        parts = split_items(details)
        w: dict[str, Any] = {"name": name}
        left = []
        for p in parts:
            d = re.match(r"^(\d+d(?:[+-]\d+)?)\s*(cr|cut|imp|pi\+*|pi-)?$", p.replace("D", "d"))
            if d:
                w["damage"] = d.group(1)
                t = d.group(2)
                if t and t.startswith("pi"):
                    r.assumed.append(f"line {n}: {name}: '{t}' is 4th-edition piercing; GURPS 3e firearms are crushing")
                elif t:
                    w["type"] = t
                continue
            kv = re.match(r"^(Acc|SS|RoF|Shots|ST|Skill)\s*:?\s*(.+)$", p, re.IGNORECASE)
            if kv:
                key = {"acc": "Acc", "ss": "SS", "rof": "RoF", "shots": "Shots", "st": "ST", "skill": "skill"}[
                    kv.group(1).lower()]
                val = kv.group(2).strip()
                if key in ("Acc", "SS", "ST"):
                    num = re.match(r"\d+", val)
                    if not num:
                        left.append(p)
                        continue
                    w[key] = int(num.group(0))
                elif key == "Shots":
                    num = re.match(r"\d+", val)
                    if not num:
                        left.append(p)
                        continue
                    w[key] = int(num.group(0))
                else:
                    w[key] = val
                continue
            left.append(p)
        entry = weapon_entry(cid, name)
        if entry is not None:
            w["catalog"] = entry.id
        if "skill" not in w:
            coc_skill = _skill_of_class(entry.weapon_class) if entry is not None else skill_by_keyword(name)
            w["skill"] = {"Handgun": "Guns (Pistol)", "Rifle": "Guns (Rifle)", "Shotgun": "Guns (Shotgun)",
                          "SMG": "Guns (SMG)", "Machine Gun": "Guns (Machine Gun)", "Throw": "Throwing",
                          None: "Guns (Pistol)"}[coc_skill]
            if coc_skill is None:
                r.assumed.append(f"line {n}: {name}: which Guns skill fires it is not said; Guns (Pistol)")
        if "damage" not in w:
            r.unread.append((n, f"{item} (no damage dice)"))
            return
        if left:
            r.unread.append((n, f"{name}: " + ", ".join(left)))
        weapons.append(w)

    def armor_item(item: str, n: int) -> None:
        item, cid = catalog_tag(item)
        nd = named(item)
        found, rest = stat_pairs(nd[1] if nd else "", ("PD", "DR"))
        if not nd or "DR" not in found:
            r.unread.append((n, item))
            return
        a: dict[str, Any] = {"name": nd[0], "DR": int(found["DR"])}
        entry = armor_entry(cid, nd[0])
        if entry is not None:
            a["catalog"] = entry.id
        if "PD" in found:
            a["PD"] = int(found["PD"])
        locs = [w for w in rest.split() if w in ("head", "face", "neck", "torso", "vitals", "groin", "arms", "hands",
                                                 "legs", "feet")]
        if locs:
            a["locations"] = locs
        armor.append(a)

    section = sectioner(r, notes, stats, {
        "skills": lambda item, n: skill_item(item), "weapons": weapon_item, "armor": armor_item,
        "advantages": lambda item, n: lists["advantages"].append(item),
        "disadvantages": lambda item, n: lists["disadvantages"].append(item)})

    Walk(r, lines).run(stats, section)
    out: dict[str, Any] = {"name": _name(r)}
    out.update({k: doc[k] for k in N.GURPS_ATTRIBUTES + N.GURPS_DERIVED if k in doc})
    out["skills"] = skills
    out.update({k: v for k, v in lists.items() if v})
    out["weapons"] = weapons
    out["armor"] = armor
    out["notes"] = _notes(r, notes)
    r.doc = out
    return r


# ---- new World of Darkness ---------------------------------------------------------------

_NWOD_SKILL = re.compile(r"^(?P<name>[^\d(•●]+?)\s*(?:\((?P<spec>[^)]*)\))?\s*(?P<val>\d|[•●]{1,5})$")


def _dots(text: str) -> int:
    return len(text) if text[0] in "•●" else int(text)


def read_nwod(lines: list[str], system: str) -> Read:
    r = Read(system)
    doc: dict[str, Any] = {}
    skills: dict[str, int] = {}
    specialties: dict[str, list[str]] = {}
    merits: dict[str, int] = {}
    weapons: list[dict[str, Any]] = []
    armor: list[dict[str, Any]] = []
    notes: list[str] = []

    def stats(line: str) -> str | None:
        found, rest = stat_pairs(line, N.NWOD_ATTRIBUTES + N.NWOD_DERIVED + N.NWOD_IGNORED, r"\d+|[•●]{1,5}")
        if not found:
            return None
        for k, v in found.items():
            if k not in N.NWOD_IGNORED:
                doc[k] = _dots(v)
        return rest

    def skill_item(item: str, into: dict[str, int], n: int) -> bool:
        m = _NWOD_SKILL.match(item)
        if not m:
            return False
        name = m.group("name").strip()
        into[name] = _dots(m.group("val"))
        if m.group("spec") and into is skills:
            specialties[name] = [s.strip() for s in re.split(r"[,/]", m.group("spec")) if s.strip()]
        return True

    def weapon_item(item: str, n: int) -> None:
        found = named_item(r, item, n)
        if found is None:
            return
        name, details, cid = found
        w: dict[str, Any] = {"name": name}
        left = []
        for p in split_items(details):
            flag = fold(p)
            if flag in ("autofire", "auto", "full auto"):
                w["autofire"] = True
                continue
            ap = re.match(r"^armor piercing\s*:?\s*(\d)$", flag)
            if ap:
                w["armor_piercing"] = int(ap.group(1))
                continue
            kv = re.match(r"^(damage|dmg|ranges?|clip|capacity|strength|str|size|type)\s*:?\s*(.+)$", p, re.IGNORECASE)
            if not kv:
                left.append(p)
                continue
            key, val = kv.group(1).lower(), kv.group(2).strip()
            if key in ("damage", "dmg"):
                num = re.match(r"\d+", val)
                if num:
                    w["damage"] = int(num.group(0))
                    if re.search(r"\(?9-again\)?", val, re.IGNORECASE):
                        w["again"] = 9
                else:
                    left.append(p)
            elif key.startswith("range"):
                rg = re.match(r"^(\d+)\s*/\s*(\d+)\s*/\s*(\d+)\s*(yd|yds|yards|m)?$", val)
                if rg:
                    unit = "m" if rg.group(4) == "m" else "yd"
                    w["ranges"] = [f"{rg.group(i)} {unit}" for i in (1, 2, 3)]
                else:
                    left.append(p)
            elif key in ("clip", "capacity"):
                cl = re.match(r"^(\d+)\s*(\+\s*1)?$", val)
                if cl:
                    w["clip"] = int(cl.group(1))
                    if cl.group(2):
                        w["chamber"] = True
                else:
                    left.append(p)
            elif key in ("strength", "str"):
                w["strength"] = int(val) if val.isdigit() else 1
            elif key == "size":
                num = re.match(r"\d+", val)
                if num:
                    w["size"] = int(num.group(0))
                    if "*" in val:
                        w["two_handed"] = True
            elif key == "type":
                w["type"] = val[1:-1] if val.startswith("[") and val.endswith("]") else val
        entry = weapon_entry(cid, name)
        if entry is not None:
            w["catalog"] = entry.id
        if "damage" not in w and entry is None:
            r.unread.append((n, f"{item} (no damage rating and not a catalog weapon)"))
            return
        if left:
            r.unread.append((n, f"{name}: " + ", ".join(left)))
        weapons.append(w)

    def armor_item(item: str, n: int) -> None:
        item, cid = catalog_tag(item)
        m = re.match(r"^(?P<name>.+?)\s*\(?\s*(?P<g>\d+)\s*/\s*(?P<b>\d+)\s*\)?$", item)
        if not m:
            r.unread.append((n, item))
            return
        a: dict[str, Any] = {"name": m.group("name").strip().rstrip(":"), "general": int(m.group("g")),
                             "ballistic": int(m.group("b"))}
        entry = armor_entry(cid, a["name"])
        if entry is not None:
            a["catalog"] = entry.id
        armor.append(a)

    section = sectioner(r, notes, stats, {
        "skills": lambda item, n: skill_item(item, skills, n), "merits": lambda item, n: skill_item(item, merits, n),
        "weapons": weapon_item, "armor": armor_item})

    Walk(r, lines).run(stats, section)
    out: dict[str, Any] = {"name": _name(r)}
    out.update({k: doc[k] for k in N.NWOD_ATTRIBUTES if k in doc})
    out["skills"] = skills
    if specialties:
        out["specialties"] = specialties
    if merits:
        out["merits"] = merits
    out.update({k: doc[k] for k in N.NWOD_DERIVED if k in doc})
    out["weapons"] = weapons
    out["armor"] = armor
    out["notes"] = _notes(r, notes)
    r.doc = out
    return r


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
        found, rest = stat_pairs(line, N.PL_TRAITS)
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
            cls = entry.weapon_class if entry is not None else None
            kind = {"handgun": "krótka", "revolver": "krótka", "thrown": "rzucana"}.get(cls or "", "długa" if cls else None)
            if kind is None:
                r.unread.append((n, f"{item} (rodzaj not given: krótka, długa or rzucana)"))
                return
            w["rodzaj"] = kind
        if left:
            r.unread.append((n, f"{name}: " + ", ".join(left)))
        weapons.append(w)

    def skill_item(item: str, n: int) -> bool:
        m = re.match(r"^(?P<name>.+?)\s+(?P<val>\d)$", item)
        native = next((x for x in N.PL_SKILLS if m and fold(x) == fold(m.group("name"))), None)
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
    out.update({k: doc[k] for k in N.PL_TRAITS if k in doc})
    out["umiejętności"] = skills
    if zalety:
        out["Zalety"] = zalety
    out["broń"] = weapons
    out["pancerz"] = armor
    out["opis"] = _notes(r, notes)
    r.doc = out
    return r


READERS: dict[str, Callable[[list[str], str], Read]] = {
    "coc": read_coc, "coc-zh": read_coc, "gurps": read_gurps, "nwod": read_nwod, "pl-trudnosc": read_pl,
}


def read(text: str) -> Read:
    lines = text.splitlines()
    lines, carried, bad = _carried_lines(lines)
    system = detect([normalize(x) for x in lines])
    r = READERS[system](lines, system)
    r.unread += bad
    if carried:
        r.doc["carried"] = carried
    return r


def _carried_lines(lines: list[str]) -> tuple[list[str], dict[str, Any], list[tuple[int, str]]]:
    """The ``Carried: {...}`` lines the writer prints (other systems' system-only data,
    xsys.core.carried, as JSON), taken out of the block (blanked, so line numbers stay) and
    read; a line that is not a JSON mapping of namespaces is unread."""
    carried: dict[str, Any] = {}
    bad: list[tuple[int, str]] = []
    out = []
    for n, line in enumerate(lines, 1):
        if not line.strip().lower().startswith("carried:"):
            out.append(line)
            continue
        out.append("")
        text = line.strip()[len("carried:"):].strip()
        try:
            value = json.loads(text)
        except ValueError:
            value = None
        if isinstance(value, dict) and all(isinstance(v, dict) for v in value.values()):
            for ns, block in value.items():
                carried.setdefault(str(ns), {}).update(block)
        else:
            bad.append((n, f"{line.strip()} (not a JSON mapping of namespaces)"))
    return out, carried, bad


def load(data: bytes) -> dict[str, Any]:
    """The format hook's reader: bytes of a stat block -> a native NPC document."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError("a text stat block must be UTF-8", expected="UTF-8 text",
                         found=f"byte {data[exc.start]:#04x} at offset {exc.start}") from None
    r = read(text)
    doc = {"system": r.system, "kind": "npc", **r.doc}
    report: dict[str, Any] = {"format": "text"}
    if r.unread:
        report["unread"] = [{"line": n, "text": t} for n, t in sorted(r.unread, key=lambda x: x[0])]
    if r.assumed:
        report["assumed"] = list(r.assumed)
    if r.unknown:
        report["unknown"] = [{"line": n, "text": name, "closest": close} for n, name, close in r.unknown]
    if len(report) > 1:
        doc["xsys"] = {"read": report}
    return doc
