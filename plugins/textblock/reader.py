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
    # which reader read the block and which edition it took it to be, and why (the read
    # report's "reader" and "edition"; set by the GURPS and nWoD readers)
    reader: str = ""
    edition: str = ""


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


def heading_of(line: str, extra: dict[str, str] | None = None) -> tuple[str, str] | None:
    # `extra`: headings one system's reader adds (names.GURPS_HEADINGS, NWOD_HEADINGS); they
    # win over the shared ones for that reader only
    table = {**N.HEADINGS, **extra} if extra else N.HEADINGS
    if fold(line).rstrip(":") in table:  # a heading on a line of its own
        return table[fold(line).rstrip(":")], ""
    m = _HEADING.match(line)
    if m and fold(m.group(1)) in table:
        return table[fold(m.group(1))], m.group(2)
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

    def __init__(self, r: Read, lines: list[str], headings: dict[str, str] | None = None) -> None:
        self.r = r
        self.lines = lines
        self.headings = headings  # a system's own headings (GURPS "Gear:", nWoD "Weapons/Attacks:")

    def run(self, stats: Callable[[str], str | None], section: Callable[[str, str, int], None]) -> None:
        current: str | None = None
        seen_stats = False
        name_set = False
        description: list[str] = []
        for n, raw in enumerate(self.lines, 1):
            line = normalize(raw)
            if not line or line.startswith("#") or re.match(r"^system\s*[:=]", line, re.IGNORECASE):
                continue
            head = heading_of(line, self.headings)
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


def _coc_class_line(weapon_class: str, name: str) -> dict[str, Any]:
    """The coc plugin's weapon line for a weapon known only by its class (a "Hunting rifle 50%"
    that states no damage): the class's generic weapon (core.model.generic_weapon), the one
    line every system writes for it (core.catalog.Catalog.weapon_basis)."""
    from xsys.core import codec
    from xsys.core.model import generic_weapon

    import msgspec

    return codec.to_builtins(_coc().weapon_defaults(msgspec.structs.replace(generic_weapon(weapon_class), name=name)))


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
            if line is None:  # a weapon known by its class only: the class's assumed weapon (its energy)
                line = _coc_class_line(_COC_CLASS[skill], name)
                w["muzzle_energy"] = line["muzzle_energy"]
                where = f"the generic {_COC_CLASS[skill]}'s ({line['muzzle_energy']})"
            else:
                where = f"the coc line of catalog weapon {entry.id}"
            w["damage"] = line["damage"]
            r.assumed.append(f"line {n}: {name}: no damage in the block; {line['damage']}, {where}")
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


# ---- GURPS (3rd edition; 4th-edition blocks converted) -------------------------------------

_GURPS_SKILL = re.compile(r"^(?P<name>.+?)\s*(?:[-–]\s*|\s+)(?P<val>\d{1,2})$")
_COST = re.compile(r"\[\s*[+-]?\d+(?:\.\d+)?\s*\]")
# a damage part of a weapon line: '2d+1 cut', 'Dam 2d+', 'Cr. 2d-1', '1d-1 cut/imp', '3d(2) pi+',
# 'sw+2 cut', 'thr+1 imp' (relative to the wielder's ST: Basic Set thrust/swing)
_GURPS_TYPES = r"cr|cut|imp|pi\+\+|pi\+|pi-|pi|burn|tbb|tox|cor|fat|aff|spec"
_GURPS_DAMAGE = re.compile(
    rf"^(?:dam(?:age)?\.?\s*:?\s*)?(?:(?P<pre>cr|cut|imp)\.?\s+)?"
    rf"(?P<dice>\d+d(?:[+-]\d+)?|(?:sw|thr)(?:\s*[+-]\s*\d+)?)(?P<bare>\+(?!\s*\d))?"
    rf"\s*(?:\((?P<div>[\d.]+)\))?\s*(?P<type>{_GURPS_TYPES})?\.?(?:\s*(?:/|or)\s*(?P<type2>{_GURPS_TYPES}))?$",
    re.IGNORECASE)
# weapon stats a GURPS weapon line (GurpsWeapon) has no field for: said, not carried
_GURPS_NOFIELD = ("1/2d", "1/2dam", "½d", "max", "range", "rcl", "malf", "bulk", "wt", "weight", "cost", "reach",
                  "parry", "lc", "hold", "notes")
_GURPS_KEY = re.compile(r"^(acc|ss|rof|shots|st|skill|type|1/2\s*d(?:am)?\.?|½\s*d|max|range|rcl|malf\.?|bulk|wt\.?|"
                        r"weight|cost|reach|parry|lc|hold)\s*[:.]?\s*(.+)$", re.IGNORECASE)
# which Basic Set skill wields a close-combat weapon of each class (gurps.melee)
_GURPS_MELEE_SKILL = {"unarmed": "Brawling", "knife": "Knife", "club": "Axe/Mace", "sword": "Broadsword",
                      "axe": "Axe/Mace", "spear": "Spear", "improvised": "Axe/Mace"}
_SHORTSWORD = ("shortsword", "short sword", "baton", "nightstick", "truncheon", "machete")


def _gurps_weapon_like(text: str) -> bool:
    """'Name (details)' whose details hold damage dice or weapon stats: a weapon, wherever it is
    written (its 'ST 11' is the weapon's minimum strength, never the NPC's ST)."""
    nd = named(text)
    if nd is None:
        return False
    details = nd[1]
    return any(_GURPS_DAMAGE.match(p.strip()) or re.match(r"^(acc|ss|shots|rof|dam)\b", p.strip(), re.IGNORECASE)
               for p in split_items(details))


def _gurps_melee_skill(name: str) -> str:
    low = fold(name)
    if any(w in low for w in _SHORTSWORD):
        return "Shortsword"
    if "staff" in low:
        return "Staff"
    return _GURPS_MELEE_SKILL[melee_class_of(name)]


def read_gurps(lines: list[str], system: str) -> Read:
    r = Read(system, reader="text stat block, GURPS layout (ST DX IQ HT)")
    doc: dict[str, Any] = {}
    skills: dict[str, int] = {}
    weapons: list[dict[str, Any]] = []
    armor: list[dict[str, Any]] = []
    lists: dict[str, list[str]] = {"advantages": [], "disadvantages": []}
    notes: list[str] = []
    gear: list[str] = []
    other: dict[str, tuple[str, int]] = {}  # stats a gurps document has no field for: key -> (value, line)
    costs: dict[str, tuple[int, int]] = {}  # attribute -> (value, its bracketed point cost)
    said_costs: list[int] = []  # lines whose point costs were left out
    relative: list[tuple[dict[str, Any], str, int]] = []  # weapons whose damage is thr/sw + add, read at the end
    unskilled: list[tuple[dict[str, Any], int]] = []  # guns whose name says no skill, read at the end
    melee_lines: list[dict[str, Any]] = []  # close-combat weapons: the melee table
    marks: dict[str, str] = {}  # 4th-edition markers: what -> as written

    def stats(line: str) -> str | None:
        if _gurps_weapon_like(line):  # a gear line outside any heading: a weapon, not stats
            weapon_item(line, r.line)
            return ""
        # 'Parry 9 (Brawling)': the skill it parries with, said in the Parry loss line
        text = re.sub(r"\b(Parry|Block)(\s*:?\s*\d+)\s*\(([^()]*)\)", r"\1\2", line)
        for m in re.finditer(rf"\b({'|'.join(N.GURPS_ATTRIBUTES)})\s*[:=]?\s*(\d+)\s*\[\s*([+-]?\d+)\s*\]", text):
            costs[m.group(1)] = (int(m.group(2)), int(m.group(3)))
        if _COST.search(text):
            text = _COST.sub(" ", text)
            said_costs.append(r.line)
        found, rest = stat_pairs(text, N.GURPS_ATTRIBUTES + N.GURPS_DERIVED + N.GURPS_IGNORED, r"[+-]?\d+(?:\.\d+)?")
        if not found:
            return None
        for k, v in found.items():
            if k in N.GURPS_ATTRIBUTES or k in N.GURPS_DERIVED:
                doc[k] = int(float(v))
            elif k == "Basic Move":  # 4e's name for Move (Basic Speed rounded down)
                doc["Move"] = int(float(v))
                marks.setdefault("Basic Move", f"Basic Move {v}")
            else:
                other[k] = (v, r.line)
                if k in ("FP", "SM", "Basic Speed"):
                    marks.setdefault(k, f"{k} {v}")
        return re.sub(r"^[.\s]+$", "", rest)  # a sourcebook's 'ST 10, DX 12, IQ 11, HT 10.': the full stop

    def skill_item(item: str, n: int) -> bool:
        if _COST.search(item):
            said_costs.append(n)
        if re.search(r"\((?:ST|DX|IQ|HT|Will|Per)/(?:E|A|H|VH)\)", item):
            marks.setdefault("skill notation", re.search(r"\((?:ST|DX|IQ|HT|Will|Per)/(?:E|A|H|VH)\)", item).group(0))
        clean = _COST.sub("", item)
        clean = re.sub(r"\((?:ST|DX|IQ|HT|Will|Per|[PM])/[EAHV]{1,2}\)", "", clean)
        clean = re.sub(r"/TL\d+", "", clean)
        # the relative level ('DX+1') is written without spaces; 'DX [2]-11' is DX itself, then the level
        clean = re.sub(r"\b(?:ST|DX|IQ|HT|Will|Per)[+-]\d+\b|\b(?:ST|DX|IQ|HT|Will|Per)\b(?=\s*[-–]?\s*\d+$)",
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
        details = re.sub(r"(?<=\d),(?=\d{3}\b)", "", details)  # 'Max 1,850': a thousands separator
        w: dict[str, Any] = {"name": name}
        left: list[str] = []
        nofield: list[str] = []
        extra_attacks: list[str] = []
        ranged = False
        for p in split_items(details):
            p = p.strip()
            d = _GURPS_DAMAGE.match(p)
            if d:
                if "damage" in w or any(x[0] is w for x in relative):
                    extra_attacks.append(p)  # 'Broadsword (2d+1 cut, 1d+2 imp)': swing and thrust
                    continue
                dice = re.sub(r"\s+", "", d.group("dice")).lower()
                kind = (d.group("type") or d.group("pre") or "").lower()
                if dice.startswith(("sw", "thr")):
                    relative.append((w, dice, n))
                else:
                    w["damage"] = dice
                if d.group("bare"):
                    r.unread.append((n, f"{name}: damage '{p}' has a '+' with no number after it: read as {dice}"))
                if d.group("div"):
                    r.unread.append((n, f"{name}: armor divisor ({d.group('div')}) (4th edition; no field in a "
                                        "gurps weapon line)"))
                if kind.startswith("pi"):
                    marks.setdefault("damage type", kind)
                    r.assumed.append(f"line {n}: {name}: '{kind}' is 4th-edition piercing; GURPS 3e firearms are "
                                     "crushing")
                elif kind in ("cr", "cut", "imp"):
                    w["type"] = kind
                elif kind:
                    r.unread.append((n, f"{name}: damage type '{kind}' (a gurps weapon line is cr, cut or imp)"))
                if d.group("type2"):
                    extra_attacks.append(f"{dice} {d.group('type2').lower()}")
                continue
            kv = _GURPS_KEY.match(p)
            if not kv:
                left.append(p)
                continue
            key = re.sub(r"[\s.]", "", kv.group(1).lower())
            val = kv.group(2).strip()
            num = re.match(r"[+-]?\d+", val)
            if key in ("acc", "ss", "st", "shots"):
                if not num or int(num.group(0)) < 0:
                    left.append(p)
                    continue
                w[{"acc": "Acc", "ss": "SS", "st": "ST", "shots": "Shots"}[key]] = int(num.group(0))
                ranged = ranged or key != "st"
                rest = val[num.end():].strip()
                if rest:  # 'Shots 17+1(3)': the chambered round and reload time (4th edition)
                    nofield.append(f"{kv.group(1)} {val}")
            elif key == "rof":
                w["RoF"] = val
                ranged = True
            elif key == "skill":
                w["skill"] = val
            elif key == "type":
                t = fold(val).rstrip(".")
                if t in ("cr", "cut", "imp"):
                    w["type"] = t
                else:
                    left.append(p)
            else:
                nofield.append(f"{kv.group(1)} {val}")
                if key in ("range", "bulk"):
                    marks.setdefault(f"weapon {key}", p)
                if key in ("1/2d", "1/2dam", "½d", "max", "range", "rcl", "malf"):
                    ranged = True
        entry = weapon_entry(cid, name)
        if entry is not None:
            w["catalog"] = entry.id
        melee = not ranged and entry is None and w.get("type") in ("cut", "imp") or (
            not ranged and entry is None and melee_class_of(name) != "improvised")
        if "skill" not in w:
            if melee:
                w["skill"] = _gurps_melee_skill(name)
            else:
                coc_skill = _skill_of_class(entry.weapon_class) if entry is not None else skill_by_keyword(name)
                # a name that says no gun: the block's only gun skill, read at the end; else no
                # skill, and the gurps plugin says in a warning what it reads it as (never a
                # silent pistol)
                if coc_skill is not None:
                    w["skill"] = {"Handgun": "Guns (Pistol)", "Rifle": "Guns (Rifle)", "Shotgun": "Guns (Shotgun)",
                                  "SMG": "Guns (SMG)", "Machine Gun": "Guns (Machine Gun)",
                                  "Throw": "Throwing"}[coc_skill]
                else:
                    unskilled.append((w, n))
        if "damage" not in w and not any(x[0] is w for x in relative):
            r.unread.append((n, f"{item} (no damage dice)"))
            return
        for a in extra_attacks:
            r.unread.append((n, f"{name}: second attack '{a}' (a gurps weapon line holds one attack: the first, "
                                f"{details.split(',')[0].strip()}, is read)"))
        skill = str(w.get("skill") or "")
        if skill and not any(k in skill.lower() for k in ("gun", "throw", "grenade")):
            # a close-combat weapon: the sheet's melee table (gurps.melee), which has no ranged stats
            nofield += [f"{k} {w.pop(k)}" for k in ("Acc", "SS", "RoF", "Shots", "ST") if k in w]
            w.pop("catalog", None)
            melee_lines.append(w)
        else:
            weapons.append(w)
        if nofield:
            r.unread.append((n, f"{name}: " + ", ".join(nofield) + " (no field in a gurps weapon line: not carried)"))
        if left:
            r.unread.append((n, f"{name}: " + ", ".join(left)))

    def gear_item(item: str, n: int) -> None:
        """An item of a 'Gear:' line: a weapon when it has weapon stats, armor when it has DR,
        else kept in the notes (gear the document has no list for)."""
        if _gurps_weapon_like(item):
            weapon_item(item, n)
        elif re.search(r"\bDR\s*\d", item) and named(item):
            armor_item(item, n)
        else:
            gear.append(item)

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

    def trait_item(kind: str) -> Callable[[str, int], None]:
        def add(item: str, n: int) -> None:
            if _COST.search(item):
                said_costs.append(n)
            lists[kind].append(re.sub(r"\s+", " ", _COST.sub("", item)).strip())
        return add

    def mixed_traits(item: str, n: int) -> None:
        """A 4th-edition 'Traits:' line lists advantages and disadvantages together: kept as
        advantages (both lists are carried verbatim), and said once."""
        if not any("'Traits:'" in a for a in r.assumed):
            r.assumed.append(f"line {n}: 'Traits:' lists advantages and disadvantages together: kept as advantages")
        trait_item("advantages")(item, n)

    section = sectioner(r, notes, stats, {
        "skills": skill_item, "maneuvers": skill_item, "weapons": weapon_item, "melee": weapon_item,
        "gear": gear_item, "armor": armor_item,
        "advantages": trait_item("advantages"), "disadvantages": trait_item("disadvantages"),
        "traits": mixed_traits})

    Walk(r, lines, N.GURPS_HEADINGS).run(stats, section)
    guns = [k for k in skills if k.startswith(("Guns", "Throwing"))]
    for w, n in unskilled if len(guns) == 1 else ():  # the one gun skill the block states fires it
        w["skill"] = guns[0]
        r.assumed.append(f"line {n}: {w['name']}: which Guns skill fires it is not said; {guns[0]}, the block's only "
                         "gun skill")
    if "ST" not in doc and relative:
        r.assumed.append("no ST in the block: thrust and swing damage read at ST 10")
    if relative:
        from xsys.plugins.gurps.system import dice_text, thrust_swing

        thr, sw = thrust_swing(doc.get("ST", 10))
        for w, rel, n in relative:
            m = re.match(r"^(sw|thr)([+-]\d+)?$", rel)
            w["damage"] = dice_text((sw if m.group(1) == "sw" else thr) + int(m.group(2) or 0))
            r.assumed.append(f"line {n}: {w['name']}: {rel} at ST {doc.get('ST', 10)} is {w['damage']} (Basic Set "
                             "thrust/swing table, gurps.melee)")
    if said_costs:
        r.assumed.append(f"line {said_costs[0]}: character-point costs in brackets are what the build paid, not a "
                         "game statistic: not carried")
    edition = _gurps_edition(r, doc, skills, other, costs, marks)
    _gurps_other_stats(r, doc, other, fourth=edition == 4)
    out: dict[str, Any] = {"name": _name(r)}
    out.update({k: doc[k] for k in N.GURPS_ATTRIBUTES + N.GURPS_DERIVED if k in doc})
    out["skills"] = skills
    out.update({k: v for k, v in lists.items() if v})
    out["weapons"] = weapons
    if melee_lines:
        out["melee"] = melee_lines
    out["armor"] = armor
    if gear:
        notes.append("Gear: " + ", ".join(gear))
    out["notes"] = _notes(r, notes)
    r.doc = out
    return r


def _gurps_edition(r: Read, doc: dict[str, Any], skills: dict[str, int], other: dict[str, tuple[str, int]],
                   costs: dict[str, tuple[int, int]], marks: dict[str, str]) -> int:
    """Which edition a GURPS block is, from the whole block: 4th when at least two different
    4th-edition markers show (FP, SM, Basic Speed/Move, (DX/A) skill notation, piercing damage
    types, Range/Bulk weapon stats, Dodge = Basic Speed + 3, Parry = skill/2 + 3, attribute costs
    of 4e prices); one marker alone is not enough (a 3e writer may print FP). A 4th-edition block
    is read into the 3rd-edition document by the 3e rules, each difference a warning (README)."""
    speed = float(other["Basic Speed"][0]) if "Basic Speed" in other else (
        float(other["Speed"][0]) if "Speed" in other else None)
    if "Dodge" in doc:
        base = int(speed) if speed is not None else doc.get("Move")
        if base is not None and doc["Dodge"] >= base + 3:
            marks.setdefault("Dodge", f"Dodge {doc['Dodge']} with {'Basic Speed' if speed is not None else 'Move'} "
                                      f"{base}: Basic Speed + 3")
    if "Parry" in other and skills:
        parry = int(float(other["Parry"][0]))
        if any(parry == s // 2 + 3 != s // 2 and parry != (2 * s) // 3 for s in skills.values()):
            marks.setdefault("Parry", f"Parry {parry} = skill/2 + 3")
    for k, (v, cost) in costs.items():
        c3 = N.GURPS3_ATTRIBUTE_COST.get(v)
        if cost == (v - 10) * N.GURPS4_ATTRIBUTE_STEP[k] and cost != c3 and v != 10:
            marks.setdefault("attribute cost", f"{k} {v} [{cost}]")
    if len(marks) < 2:
        r.edition = "3rd edition (Basic Set 3e: HP = HT, Dodge = Move)" + (
            f"; one 4th-edition marker ({next(iter(marks.values()))}) is not enough to read it as 4th" if marks
            else "")
        return 3
    said = ", ".join(marks.values())
    r.edition = (f"4th edition ({said}): read into the 3rd-edition document by the 3e rules (HP from HT, "
                 "Dodge = Move); each difference is a warning")
    line = min((v[1] for v in other.values()), default=1)
    r.unread.append((line, f"a GURPS 4th-edition block ({said}) read as 3rd edition: the numbers below are "
                           "converted by the 3e rules"))
    st, ht = doc.get("ST", 10), doc.get("HT", 10)
    if "HP" in doc:
        hp4 = doc["HP"]
        doc["HP"] = max(0, ht + (hp4 - st))
        r.unread.append((line, f"HP {hp4}: 4th-edition HP come from ST ({st}{f' + {hp4 - st}' if hp4 != st else ''}); "
                               f"3rd-edition HP = HT: read as {doc['HP']}"))
    if "Dodge" in doc:
        dodge4 = doc["Dodge"]
        dx = doc.get("DX", 10)
        base4 = int(speed) if speed is not None else doc.get("Move", (dx + ht) // 4)
        move3 = doc.get("Move", (dx + ht) // 4)
        doc["Dodge"] = max(0, move3 + dodge4 - (base4 + 3))
        r.unread.append((line, f"Dodge {dodge4}: 4th-edition Dodge = Basic Speed + 3 ({base4} + 3"
                               f"{f' + {dodge4 - base4 - 3}' if dodge4 != base4 + 3 else ''}); 3rd-edition Dodge = "
                               f"Move: read as {doc['Dodge']}"))
    if skills:
        r.assumed.append("4th-edition skill levels read as 3rd-edition levels: both roll 3d6 under the level, "
                         "and a skill's level against its attribute is mostly the same in both")
    return 4


def _gurps_other_stats(r: Read, doc: dict[str, Any], other: dict[str, tuple[str, int]], fourth: bool) -> None:
    """Stats a block prints that a gurps document has no field for: what the document derives
    the same way is said as assumed; the rest is a loss line naming it."""
    dx, ht, st = doc.get("DX", 10), doc.get("HT", 10), doc.get("ST", 10)
    for k, (v, n) in other.items():
        num = float(v)
        if k in ("Speed", "Basic Speed"):
            if num == (dx + ht) / 4:
                continue  # what the document derives from DX and HT: nothing lost
            r.unread.append((n, f"{k} {v} (the document derives Speed = (DX + HT) / 4 = {(dx + ht) / 4:g}; "
                                "no field for another)"))
        elif k == "FP":
            if not fourth and int(num) == st:
                continue  # 3e fatigue is ST
            r.unread.append((n, f"FP {v} ({'4th-edition Fatigue Points = HT; ' if fourth else ''}3rd-edition fatigue "
                                "is ST, and a gurps document has no field for it: not carried)"))
        elif k in ("SM", "Size") and num == 0:
            continue  # a human's size: nothing to carry
        elif k in ("DR", "PD") and num == 0:
            continue  # no armor
        elif k in ("Parry", "Block"):
            r.unread.append((n, f"{k} {v} (no {k} field in a gurps document; "
                                + ("4th-edition Parry = skill/2 + 3, 3rd-edition Parry = skill/2" if fourth and
                                   k == "Parry" else "worked out from the skill in play") + ")"))
        else:
            r.unread.append((n, f"{k} {v} (no field in a gurps document; armor belongs on the Armor line)"
                             if k in ("DR", "PD") else f"{k} {v} (no field in a gurps document)"))


# ---- new World of Darkness ---------------------------------------------------------------

# 'Drive (Pursuit) 2' and the rulebook's 'Firearms 3 (Pistol)': the specialty before or after
_NWOD_SKILL = re.compile(r"^(?P<name>[^\d(•●]+?)\s*(?:\((?P<spec>[^)]*)\))?\s*(?P<val>\d|[•●]{1,5})"
                         r"\s*(?:\((?P<spec2>[^)]*)\))?$")
# 'Glock 17 (Pistol, Lt.) damage 2, ranges 20/40/80, clip 17+1, dice pool 7': a weapon line
# written inline (its chart type in brackets, then its traits), wherever it stands
_NWOD_INLINE = re.compile(r"^(?P<name>[^()]+?)\s*(?:\((?P<type>[^()]*)\))?\s*[,:]?\s+(?P<rest>(?:damage|dmg)\s*:?\s*\d.*)$",
                          re.IGNORECASE)
# the columns of a 'Weapons/Attacks:' table header and the pattern of each column's cell
_NWOD_COLUMNS = (("dice pool", "pool", r"\d+"), ("pool", "pool", r"\d+"), ("damage", "damage", None),
                 ("dmg", "damage", None), ("ranges", "range", None), ("range", "range", None),
                 ("clip", "clip", r"\d+(?:\s*\+\s*1)?|[—–-]|n/a"), ("capacity", "clip", r"\d+(?:\s*\+\s*1)?|[—–-]|n/a"),
                 ("initiative", "init", r"[+-]?\d+|[—–-]|n/a"), ("strength", "strength", r"\d|[—–-]|n/a"),
                 ("str", "strength", r"\d|[—–-]|n/a"), ("size", "size", r"\d\*?|[—–-]|n/a"),
                 ("cost", "cost", r"[•●]+|n/a|[—–-]"), ("availability", "cost", r"[•●]+|n/a|[—–-]"),
                 ("special", "special", None), ("notes", "special", None),
                 ("type", "name", None), ("weapon", "name", None), ("attack", "name", None),
                 ("weapons/attacks", "name", None))
_NWOD_DAMAGE_CELL = r"[+-]?\d+\s*(?:\(\s*[BLA]\s*\))?(?:\s*\(?9[- ]again\)?)?"
_NWOD_RANGE_CELL = r"\d+\s*/\s*\d+\s*/\s*\d+(?:\s*(?:yd|yds|yards|m))?|[—–-]|n/a|melee|touch|thrown"
_NO_VALUE = ("—", "–", "-", "n/a", "")


def _dots(text: str) -> int:
    return len(text) if text[0] in "•●" else int(text)


def _nwod_header(item: str) -> list[str] | None:
    """The columns of a weapons table header row ('Type Damage Range Dice Pool Special'), or None."""
    text, cols = fold(item), []
    while text:
        for word, col, _ in _NWOD_COLUMNS:
            if text == word or text.startswith(word + " "):
                cols.append(col)
                text = text[len(word):].strip()
                break
        else:
            return None
    return cols if cols and cols[0] == "name" and "damage" in cols else None


def _nwod_row(cols: list[str], item: str) -> dict[str, str] | None:
    """A row of a weapons table, cell by column (the name may hold numbers: 'Glock 17 2 20/40/80 7')."""
    pats = {"damage": _NWOD_DAMAGE_CELL, "range": _NWOD_RANGE_CELL,
            **{col: pat for _, col, pat in _NWOD_COLUMNS if pat}}
    parts = [r"^(?P<name>.+?)"]
    for i, col in enumerate(cols[1:], 1):
        if col == "special" and i == len(cols) - 1:
            parts.append(r"(?:\s+(?P<special>.*))?")
        else:
            cell = pats.get(col, r"\S+")
            parts.append(rf"\s+(?P<{col}>{cell})")
    m = re.match("".join(parts) + r"\s*$", item, re.IGNORECASE)
    return {k: (v or "").strip() for k, v in m.groupdict().items()} if m else None


def read_nwod(lines: list[str], system: str) -> Read:
    r = Read(system, reader="text stat block, World of Darkness layout (the nine attributes)")
    doc: dict[str, Any] = {}
    skills: dict[str, int] = {}
    specialties: dict[str, list[str]] = {}
    merits: dict[str, int] = {}
    weapons: list[dict[str, Any]] = []
    armor: list[dict[str, Any]] = []
    notes: list[str] = []
    equipment: list[str] = []
    pools: list[tuple[dict[str, Any], int, int, str]] = []  # (weapon, stated dice pool, line, its special)
    table: dict[str, list[str]] = {}  # the weapons table's columns, once its header row is read

    def stats(line: str) -> str | None:
        if _NWOD_INLINE.match(line):  # a weapon line outside any heading: its 'strength 2' is the gun's
            weapon_item(line, r.line)
            return ""
        found, rest = stat_pairs(line, N.NWOD_ATTRIBUTES + N.NWOD_DERIVED + N.NWOD_IGNORED, r"\d+|[•●]{1,5}")
        if not found:
            return None
        for k, v in found.items():
            if k not in N.NWOD_IGNORED:
                doc[k] = _dots(v)
            else:
                r.unread.append((r.line, f"{k} {v} (no {k} field in an nwod document)"))
        return rest

    def skill_item(item: str, into: dict[str, int], n: int) -> bool:
        m = _NWOD_SKILL.match(item)
        if not m:
            return False
        name = m.group("name").strip()
        into[name] = _dots(m.group("val"))
        spec = ", ".join(s for s in (m.group("spec"), m.group("spec2")) if s)
        if spec and into is skills:
            specialties[name] = [s.strip() for s in re.split(r"[,/]", spec) if s.strip()]
        elif spec:  # a merit's detail ('Status (Police) 1'): part of its name
            into[f"{name} ({spec})"] = into.pop(name)
        return True

    def traits(w: dict[str, Any], parts: list[str], left: list[str], nofield: list[str], n: int) -> int | None:
        """The traits of a weapon (Damage 2, Ranges 20/40/80, Clip 17+1 ...) into `w`; the stated
        dice pool, if any, is returned (checked against the rules after the block is read)."""
        pool = None
        for p in parts:
            flag = fold(p)
            if flag in ("autofire", "auto", "full auto"):
                w["autofire"] = True
                continue
            if flag in ("9-again", "9 again", "nine again"):
                w["again"] = 9
                continue
            ap = re.match(r"^armor piercing\s*:?\s*(\d)$", flag)
            if ap:
                w["armor_piercing"] = int(ap.group(1))
                continue
            dp = re.match(r"^(?:dice\s*)?pool\s*:?\s*(\d+)$", flag)
            if dp:
                pool = int(dp.group(1))
                continue
            kv = re.match(r"^(damage|dmg|ranges?|clip|capacity|strength|str|size|type|initiative|init)\s*:?\s*(.+)$",
                          p, re.IGNORECASE)
            if not kv:
                left.append(p)
                continue
            key, val = kv.group(1).lower(), kv.group(2).strip()
            if key in ("damage", "dmg"):
                num = re.match(r"[+-]?\d+", val)
                if num and int(num.group(0)) >= 0:
                    w["damage"] = int(num.group(0))
                    if re.search(r"9[- ]again", val, re.IGNORECASE):
                        w["again"] = 9
                    kind = re.search(r"\(\s*([BA])\s*\)", val)
                    if kind:
                        nofield.append(f"{'bashing' if kind.group(1) == 'B' else 'aggravated'} damage ({kind.group(1)})")
                else:
                    left.append(p)
            elif key.startswith("range"):
                rg = re.match(r"^(\d+)\s*/\s*(\d+)\s*/\s*(\d+)\s*(yd|yds|yards|m)?$", val)
                if rg:
                    unit = "m" if rg.group(4) == "m" else "yd"
                    w["ranges"] = [f"{rg.group(i)} {unit}" for i in (1, 2, 3)]
                elif fold(val) not in _NO_VALUE + ("melee", "touch"):
                    left.append(p)
            elif key in ("clip", "capacity"):
                cl = re.match(r"^(\d+)\s*(\+\s*1)?$", val)
                if cl:
                    w["clip"] = int(cl.group(1))
                    if cl.group(2):
                        w["chamber"] = True
                elif fold(val) not in _NO_VALUE:
                    left.append(p)
            elif key in ("strength", "str"):
                if val.isdigit():
                    w["strength"] = int(val)
                elif fold(val) not in _NO_VALUE:
                    left.append(p)
            elif key == "size":
                num = re.match(r"\d+", val)
                if num:
                    w["size"] = int(num.group(0))
                    if "*" in val:
                        w["two_handed"] = True
                elif fold(val) not in _NO_VALUE:
                    left.append(p)
            elif key == "type":
                w["type"] = val[1:-1] if val.startswith("[") and val.endswith("]") else val
            elif key in ("initiative", "init") and fold(val) not in _NO_VALUE + ("0", "+0"):
                nofield.append(f"Initiative {val} (2nd-edition weapon trait)")
        return pool

    def finish(w: dict[str, Any], item: str, cid: str | None, left: list[str], nofield: list[str], pool: int | None,
               n: int, special: str = "") -> None:
        entry = weapon_entry(cid, w["name"])
        if entry is not None:
            w["catalog"] = entry.id
        if "damage" not in w and entry is None:
            r.unread.append((n, f"{item} (no damage rating and not a catalog weapon)"))
            return
        if nofield:
            r.unread.append((n, f"{w['name']}: " + ", ".join(nofield) + " (no field in an nwod weapon: not carried)"))
        if left:
            r.unread.append((n, f"{w['name']}: " + ", ".join(left)))
        if pool is not None:
            pools.append((w, pool, n, special))
        weapons.append(w)

    def weapon_item(item: str, n: int) -> None:
        clean, cid = catalog_tag(item)
        cols = _nwod_header(clean)
        if cols is not None:  # 'Type Damage Range Dice Pool Special': the rows follow
            table["cols"] = cols
            return
        if table and named(clean) is None or (table and not clean.rstrip().endswith(")")):
            row = _nwod_row(table["cols"], clean)
            if row is not None:
                w: dict[str, Any] = {"name": row["name"]}
                left: list[str] = []
                nofield: list[str] = []
                parts = [f"{label} {row[col]}" for col, label in (("damage", "Damage"), ("range", "Ranges"),
                                                                  ("clip", "Clip"), ("strength", "Strength"),
                                                                  ("size", "Size"), ("init", "Initiative"))
                         if fold(row.get(col, "")) not in _NO_VALUE]
                special = row.get("special", "")
                extra = [s for s in split_items(special) if fold(s) not in _NO_VALUE]
                pool = traits(w, parts, left, nofield, n)
                left_special: list[str] = []
                traits(w, extra, left_special, nofield, n)
                # 'Brawl' in the Special column says which skill the pool uses (checked below)
                left_special = [x for x in left_special if fold(x) != "brawl"]
                if left_special:
                    nofield.append("special: " + ", ".join(left_special))
                if row.get("cost"):
                    pass  # the Resources dots to buy it: not a combat trait
                finish(w, item, cid, left, nofield, int(row["pool"]) if row.get("pool") else pool, n, special)
                return
        m = _NWOD_INLINE.match(clean)
        if m and not (named(clean) and re.search(r"\b(damage|dmg)\b", named(clean)[1], re.IGNORECASE)):
            w = {"name": m.group("name").strip()}
            if m.group("type"):
                w["type"] = m.group("type").strip()
            left, nofield = [], []
            pool = traits(w, split_items(m.group("rest")), left, nofield, n)
            finish(w, item, cid, left, nofield, pool, n)
            return
        found = named_item(r, item, n)
        if found is None:
            return
        name, details, cid = found
        w = {"name": name}
        left, nofield = [], []
        pool = traits(w, split_items(details), left, nofield, n)
        finish(w, item, cid, left, nofield, pool, n)

    def equipment_item(item: str, n: int) -> None:
        if _NWOD_INLINE.match(item) or re.search(r"\(\s*(?:damage|dmg)\b", item, re.IGNORECASE):
            weapon_item(item, n)
        else:
            equipment.append(item)

    def armor_item(item: str, n: int) -> None:
        item, cid = catalog_tag(item)
        if fold(item) in ("none", "—", "–", "-", "n/a"):
            return  # 'Armor: none': nothing to carry
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

    def said(kind: str, why: str) -> Callable[[str, int], None]:
        def add(item: str, n: int) -> None:
            r.unread.append((n, f"{kind} {item} ({why})"))
        return add

    section = sectioner(r, notes, stats, {
        "skills": lambda item, n: skill_item(item, skills, n), "merits": lambda item, n: skill_item(item, merits, n),
        "weapons": weapon_item, "armor": armor_item, "equipment": equipment_item,
        "virtue": said("Virtue", "no place in an nwod document"), "vice": said("Vice", "no place in an nwod document"),
        "powers": said("power or trait", "supernatural or 2nd-edition: no place in an nwod document")},
        # a weapons table row has no commas; a weapon line runs on with commas, one weapon a line
        lambda kind, text: [text.strip()] if kind == "weapons" and (
            _NWOD_INLINE.match(text.strip()) or table or _nwod_header(text.strip())) else (
            weapon_items(text) if kind in ("weapons", "armor") else split_items(text)))

    Walk(r, lines, N.NWOD_HEADINGS).run(stats, section)
    second = _nwod_pools(r, doc, skills, specialties, pools)
    r.edition = "2004 rules (World of Darkness Rulebook: weapon damage adds dice to the pool)" + (
        "; the stated dice pools leave the damage out, as Chronicles of Darkness (2nd edition) does: read with "
        "the 2004 rules" if second else "")
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
    if equipment:
        notes.append("Equipment: " + ", ".join(equipment))
    out["notes"] = _notes(r, notes)
    r.doc = out
    return r


def _nwod_pools(r: Read, doc: dict[str, Any], skills: dict[str, int], specialties: dict[str, list[str]],
                pools: list[tuple[dict[str, Any], int, int, str]]) -> bool:
    """Checks each stated dice pool against the pool the rules give (nwod.firearms.pool:
    Dexterity + Firearms + damage; close combat nwod.pool: Strength + Weaponry, or Brawl for a
    bare-handed or Brawl weapon, + damage; an untrained physical skill -1) and says what it
    found: a match (or one more, a specialty) is assumed info, the 2nd-edition pool (damage left
    out) and any other number a warning. The pool is the rules' to work out, so the stated
    number itself is never carried. True when a stated pool is the 2nd edition's."""
    second = False
    for w, stated, n, special in pools:
        ranged = "ranges" in w
        brawl = not ranged and (melee_class_of(w["name"]) == "unarmed" or "brawl" in fold(special)
                                or fold(w["name"]) in ("bite", "claw", "claws", "teeth"))
        attr = "Dexterity" if ranged else "Strength"
        skill = "Firearms" if ranged else ("Brawl" if brawl else "Weaponry")
        rule = "nwod.firearms.pool" if ranged else "nwod.pool"
        if attr not in doc:
            r.unread.append((n, f"{w['name']}: dice pool {stated} stated; not checked: the block gives no {attr}"))
            continue
        dots = skills.get(skill, 0)
        trained = dots if dots > 0 else -1  # untrained physical skill: -1 (nwod.untrained)
        damage = int(w.get("damage", 0))
        pool, base = doc[attr] + trained + damage, doc[attr] + trained
        how = f"{attr} {doc[attr]} + {skill} {dots if dots else '0 (untrained -1)'} + damage {damage}"
        spec = bool(specialties.get(skill))
        if stated == pool or (spec and stated == pool + 1):
            r.assumed.append(f"line {n}: {w['name']}: stated dice pool {stated} = {how}"
                             f"{' + 1 (specialty)' if stated == pool + 1 else ''} ({rule})")
        elif damage and (stated == base or (spec and stated == base + 1)):
            second = True
            r.unread.append((n, f"{w['name']}: stated dice pool {stated} leaves the weapon's damage {damage} out, as "
                                f"Chronicles of Darkness (2nd edition) does (damage adds to the successes); nwod "
                                f"(2004) rolls {how} = {pool} ({rule})"))
        else:
            r.unread.append((n, f"{w['name']}: stated dice pool {stated} disagrees with the rules: {how} = {pool} "
                                f"({rule}); the stated pool is not carried (a power or merit the block does not show "
                                "may add dice)"))
    return second


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
        # the reader and edition go with a report that says something else too: a block that
        # reads clean (every block xsys writes) stays a document with no xsys block
        report.update({k: v for k, v in (("reader", r.reader), ("edition", r.edition)) if v})
        doc["xsys"] = {"read": report}
    return doc
