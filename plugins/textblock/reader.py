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
    # report's "reader" and "edition"; set by the CoC, GURPS and nWoD readers; "" says nothing)
    reader: str = ""
    edition: str = ""


# ---- lines and items --------------------------------------------------------------------

# A Japanese middle dot between katakana joins the words of one name (コルト・ガバメント, マジック・
# ポイント, ダメージ・ボーナス); elsewhere it separates list items (拳銃・回避), like 、.
_SEP_DOT = re.compile(r"(?<![\u30a1-\u30fa\u30fc])・|・(?![\u30a1-\u30fa\u30fc])")


def normalize(line: str) -> str:
    text = unicodedata.normalize("NFKC", line).replace("\t", " ")
    text = re.sub(r"^\s*・\s*", "", text)  # a leading ・ is a bullet
    text = _SEP_DOT.sub(", ", text).replace("、", ", ").replace("；", ";")
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
# Words only Japanese CoC blocks write (a Japanese block may have no kana at all: "技能：拳銃60、
# 目星55、回避40"); Chinese writes 手枪/手槍, 侦查/偵查, 闪避/閃避, 生命值, 理智, 年龄/年齡
_JA_ONLY = re.compile(r"拳銃|目星|回避|耐久力|正気度|年齢|能力値|技能値|聞耳")
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
        "coc": sum(_count(text, names) > 0 for names in N.COC_CHARACTERISTIC_NAMES.values()),  # 力量, 體質 ... too
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
    if best == "coc" and _HAN.search(text) and not _KANA.search(text) and not _JA_ONLY.search(text):
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

    def run(self, stats: Callable[[str], str | None], section: Callable[[str, str, int], None],
            loose: Callable[[str, int], bool] | None = None) -> None:
        """`loose(line, n)`: a line after the stats and outside any section that the system's
        reader takes anyway (True), e.g. a CoC attack line printed without its Combat heading."""
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
                self.r.doc["@name_line"] = n
                name_set = True
            elif not seen_stats:
                description.append(raw.strip())
            elif loose is None or not loose(line, n):
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

# A skill item: "Spot Hidden 55%", "目星60％", "Dodge 30% (15/6)" (7th edition's half and fifth
# values), "目星(25%) : 85%" (Japanese 6th-edition sheets print the base chance first). The
# name ends before the whole run of digits, so "Dodge 1000%" is Dodge at 1000 (out of range),
# never a skill named "Dodge 1".
_PCT = re.compile(r"^(?P<name>.*?[^\d\s:])\s*(?:\(\s*\d{1,3}\s*%?\s*\)\s*)?:?\s*(?P<val>\d+)\s*%?"
                  r"\s*(?:\(\s*(?P<half>\d+)\s*/\s*(?P<fifth>\d+)\s*\))?\.?$")
SKILL_MAX = 200  # the largest chance a coc document holds (coc model: Percent)
_KEYWORDS = (
    ("Machine Gun", ("machine gun", " mg ", "browning m1919", " bar ", "機関銃", "マシンガン", "机枪", "機槍", "ブローニング")),
    ("SMG", ("smg", "submachine", "sub-machine", "tommy", "thompson", "mp5", "uzi", "mac-10", "サブマシンガン",
             "トンプソン", "トミーガン", "冲锋枪", "衝鋒槍", "汤普森", "湯普森")),
    ("Shotgun", ("shotgun", "12 gauge", "12-gauge", "12ga", "sawed-off", "sawn-off", "ショットガン", "散弾", "霰弹", "霰彈",
                 "散彈")),
    ("Rifle", ("rifle", "carbine", "winchester", "springfield", "mauser", "lee-enfield", "ak-47", "m16", "ライフル",
               "カービン", "步枪", "步槍", "卡宾枪", "卡賓槍")),
    ("Throw", ("grenade", "knife (thrown)", "dynamite", "molotov", "手榴弾", "手榴弹", "手榴彈", "ダイナマイト")),
    ("Handgun", ("revolver", "pistol", "handgun", ".38", ".45", ".32", "9mm", "9 mm", "luger", "colt", "glock",
                 "derringer", "拳銃", "リボルバー", "ピストル", "デリンジャー", "オートマチック", "ガバメント", "コルト", "ルガー",
                 "ベレッタ", "ワルサー", "ニューナンブ", "s&w", "smith & wesson", "webley", "nambu", "南部", "手枪", "手槍",
                 "左轮", "左輪", "德林加")),
)
_COC_CLASS = {"Handgun": "handgun", "Rifle": "rifle", "Shotgun": "shotgun", "SMG": "smg", "Machine Gun": "mg",
              "Throw": "thrown"}
# coc's close-combat skills: an attack made with one is a melee line
_MELEE_SKILLS = frozenset({"Fist/Punch", "Knife", "Club", "Sword", "Axe", "Spear"})
# Words that make an attack a close-combat one when its name is no skill: natural attacks (a
# creature's Bite, Claw, Tentacle; 噛みつき, 爪, 触手; 咬, 抓, 觸手) and hand weapons. Looked for
# only after the firearm words (手槍, a Chinese handgun, holds 槍, a Japanese spear).
_CLOSE_COMBAT_WORDS = (
    "bite", "claw", "talon", "tentacle", "tendril", "pseudopod", "kick", "head butt", "headbutt", "grapple", "gore",
    "horn", "hoof", "sting", "tail", "trample", "crush", "slam", "engulf", "touch", "fist", "punch", "brawl",
    "fighting", "knife", "dagger", "club", "axe", "sword", "spear", "machete", "bat", "cane", "staff", "whip",
    "sickle", "scythe", "razor", "bayonet", "knuckle", "blackjack", "nightstick", "truncheon", "crowbar", "hammer",
    "噛みつき", "噛み付き", "咬みつき", "かみつき", "爪", "触手", "キック", "組み付き", "組みつき", "頭突き", "体当たり",
    "こぶし", "パンチ", "格闘", "ナイフ", "刀", "剣", "斧", "棍棒", "こん棒", "警棒", "バット", "鉈", "包丁", "杖", "鎌", "槍",
    "咬", "抓", "撕", "觸手", "踢", "擒抱", "頭錘", "头锤", "撞", "鬥毆", "斗殴", "空手", "拳", "匕首", "劍", "剑", "棍",
    "棒", "矛",
)


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


def _close_combat_name(name: str) -> bool:
    low = fold(name)
    return any(w in low for w in _CLOSE_COMBAT_WORDS)


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


# Damage as blocks print it: "1D10", "1D8+1", "1D3+DB", "1D6 + 1D4", "1D4+½DB" (NFKC: "1⁄2DB"),
# "1D3+db", "4D6/2D6/1D6" (a shotgun's range bands)
_DICE = r"\d*[dD]\d+(?:\s*[+\-]\s*(?:\d*[dD]\d+|\d+))*(?:\s*/\s*\d*[dD]\d+(?:\s*[+\-]\s*(?:\d*[dD]\d+|\d+))*)*" \
        r"(?:\s*[+\-]\s*(?:(?:1\s*[/\u2044]\s*2|half)\s*)?(?:DB|db|damage bonus))?"
_DAMAGE_WORD = r"(?:damage|dmg|dam|ダメージ|伤害|傷害)"
_COC_ATTRS: tuple[tuple[str, str, Callable[[re.Match[str]], Any]], ...] = (
    ("damage", rf"^{_DAMAGE_WORD}\s*:?\s*({_DICE})$", lambda m: m.group(1).strip()),
    ("base_range", r"^(?:base range|range|射程|基本射程)\s*:?\s*(\d+(?:\.\d+)?)\s*(m|yd|yds|yards|ft|feet|metres|meters)$",
     lambda m: f"{m.group(1)} " + {"yds": "yd", "yards": "yd", "feet": "ft", "metres": "m", "meters": "m"}.get(
         m.group(2).lower(), m.group(2).lower())),
    ("skill", r"^skill\s*:?\s*(.+)$", lambda m: m.group(1).strip()),
    ("shots_per_round", r"^(\d+)\s*(?:shots? per round|/round|attacks? per round)$", lambda m: int(m.group(1))),
    ("burst", r"^(?:burst|1 or burst|full auto)$", lambda m: True),
    ("capacity", r"^(?:capacity|shots|装弾数)\s*:?\s*(\d+)$", lambda m: int(m.group(1))),
    ("malfunction", r"^(?:malfunction|mal|故障)\s*:?\s*(\d+)$", lambda m: int(m.group(1))),
    ("STR", r"^STR\s*:?\s*(\d+)$", lambda m: int(m.group(1))),
    ("sights", r"^sights?\s*:?\s*(iron|tritium|laser|red-dot|reflex|scope|nv-sight|thermal|none)$", lambda m: m.group(1)),
    ("carry", r"^carry\s*:?\s*(.+)$", lambda m: m.group(1).strip()),
    ("ammo", r"^ammo\s*:?\s*(bullet|shot|slug|none)$", lambda m: m.group(1)),
    ("length", r"^length\s*:?\s*(\d+(?:\.\d+)?\s*(?:m|cm|in|ft))$", lambda m: m.group(1)),
    ("muzzle_energy", r"^muzzle energy\s*:?\s*(\d+(?:\.\d+)?\s*J)$", lambda m: m.group(1)),
)


def _coc_attr(part: str) -> tuple[str, Any] | None:
    for key, pat, val in _COC_ATTRS:
        m = re.match(pat, part.strip(), re.IGNORECASE)
        if m:
            return key, val(m)
    return None


_HALF_FIFTH = r"(?:\(\s*\d+\s*/\s*\d+\s*\))?"


def coc_weapon_parts(item: str) -> tuple[str, int | None, dict[str, Any], list[str]] | None:
    """A CoC weapon item: (name, attack %, attributes, parts not understood), or None. The name
    may hold commas ("Hunting rifle, .30-06"); it ends where the first attribute starts. The
    chance and the damage may share the name's part: "Revolver 60% ダメージ 1D10", Japanese
    scenarios' "コルト・ガバメント 55% 1D10+2", "こぶし 1D3"."""
    parts = split_items(item, ",")
    first = next((i for i, p in enumerate(parts) if _coc_attr(p)), len(parts))
    head = ", ".join(parts[:first])
    attrs: dict[str, Any] = {}
    m = re.match(rf"^(.*?)\s+{_DAMAGE_WORD}\s*:?\s*({_DICE})$", head, re.IGNORECASE)
    if m:  # "Revolver 60% ダメージ 1D10": the damage on the same part
        head, attrs["damage"] = m.group(1), m.group(2).strip()
    else:
        m = re.match(rf"^(.*?(?<!\d)\d+\s*%\s*{_HALF_FIFTH})\s*:?\s*({_DICE})$", head, re.IGNORECASE)
        if m:  # "コルト・ガバメント 55% 1D10+2"
            head, attrs["damage"] = m.group(1), m.group(2).strip()
    pm = re.match(rf"^(.*?)\s*(?<!\d)(\d+)\s*%\s*{_HALF_FIFTH}$", head)
    pct = None
    if pm:
        head, pct = pm.group(1), int(pm.group(2))
    elif "damage" not in attrs:
        dm = re.match(rf"^(.*?[^\d\s])\s+({_DICE})$", head)
        if dm:  # "こぶし 1D3": an attack with no chance printed
            head, attrs["damage"] = dm.group(1), dm.group(2).strip()
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


def _attack_starts(part: str) -> bool:
    """Whether a comma-separated part begins a new attack: a name with its % ("Fist/Punch 60%")."""
    return _coc_attr(part) is None and re.match(r"^\S.*?(?<!\d)\d+\s*%", part) is not None


def coc_weapon_items(text: str) -> list[str]:
    """The attacks of a weapons line: apart by semicolons where the line has any; else a new
    attack starts at each "Name NN%" part once the one before has its % or damage (6th-edition
    books run them on with commas: ".38 Revolver 45%, damage 1D10, Fist/Punch 60%, damage 1D3");
    a name may hold commas ("Hunting rifle, .30-06 50%")."""
    if ";" in text:
        return split_items(text, ";")
    items: list[list[str]] = []
    for part in split_items(text, ","):
        if items and _attack_starts(part) and any(
                _coc_attr(p) is not None and _coc_attr(p)[0] == "damage" or re.search(r"(?<!\d)\d+\s*%", p)
                for p in items[-1]):
            items.append([part])
        elif items:
            items[-1].append(part)
        else:
            items.append([part])
    return [", ".join(i) for i in items]


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
    return _catalog().find_armor(name, cid)


def named_item(r: Read, item: str, n: int) -> tuple[str, str, str | None] | None:
    """A 'Name (details)' weapon item: (name, details, catalog tag), or None (reported unread)."""
    item, cid = catalog_tag(item)
    nd = named(item)
    if nd is None:
        r.unread.append((n, item))
        return None
    return nd[0], nd[1], cid


def armor_match(name: str) -> Any:
    return _catalog().find_armor(name)


# ---- Call of Cthulhu: printed layouts ----------------------------------------------------
#
# Scenario writers print a CoC stat block in many shapes besides "STR 12 CON 11 ...": Markdown
# tables (a row of names over a row of values, or one "| STR | 13 |" row each), plain tables
# (a line of names over a line of values), bracketed names (【STR】13, 〈STR〉13), list numbers
# (①STR : 12), bullets and bold. coc_layout rewrites those lines as the plain lines the reader
# reads (same number of lines, so a report still names the line the user wrote); every other
# line is left exactly as written.

_ALL_STAT_NAMES = {fold(k): k for k in {**N.coc_stat_names("ja"), **N.coc_stat_names("zh")}}
_TABLE_LABELS = {fold(x) for x in (
    "stats", "stat", "value", "values", "characteristic", "characteristics", "char.", "char", "averages", "average",
    "rolls", "roll", "能力値", "能力", "値", "数値", "項目", "技能値", "数值", "属性", "屬性", "名称", "名稱", "name",
    "percent", "%", "damage", "ダメージ", "伤害", "傷害", "成功率")}
_BRACKETS = "【】〔〕[]〈〉《》<>«»"
_CIRCLED = re.compile(r"^\s*[\u2460-\u2473\u24ea\u2776-\u277f\u3251-\u325f]\s*")
_LIST_MARK = re.compile(r"^\s*(?:[\u2460-\u2473\u24ea\u2776-\u277f]|[■□●○◆◇▼▽▲△★☆※•]|[-*+](?=\s))\s*")
_INFO_LABEL = re.compile(r"^\s*(?:【\s*)?(?:age|occupation|sex|gender|birthplace|年齢|年令|職業|性別|出身|年齡|年龄|职业|"
                         r"性别|出生地)\s*(?:】\s*[:：]?|[:：])", re.IGNORECASE)
_NAME_LABEL = re.compile(r"^\s*(?:【\s*(?:name|名前|氏名|姓名|名字)\s*】\s*[:：]?|(?:name|名前|氏名|姓名|名字)\s*[:：])\s*",
                         re.IGNORECASE)
_VALUE_CELL = re.compile(rf"^(?:[+-]?\d+(?:\.\d+)?\s*%?(?:\s*/\s*\d+)?|[+-]?{_DICE}|\(\s*\d+\s*/\s*\d+\s*\)|-|—|"
                         r"none|なし|無|无)$", re.IGNORECASE)


def _stat_cell(cell: str) -> str | None:
    """The CoC stat a table cell names (as printed), or None."""
    text = cell.strip().strip(_BRACKETS).strip()
    return text if fold(text) in _ALL_STAT_NAMES else None


def _cells(text: str) -> list[str]:
    inner = text.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return [c.strip() for c in inner.split("|")]


def _is_rule_row(cells: list[str]) -> bool:
    return all(re.fullmatch(r":?-{2,}:?|", c) for c in cells) and any(cells)


def _join_cells(cells: list[str]) -> str:
    """A table row as a line: a value cell follows its name ("STR 13", "目星 60%",
    "コルト・ガバメント 55% 1D10+2"); other cells are items apart by commas."""
    out = ""
    for c in cells:
        if not c:
            continue
        out += (" " if out and _VALUE_CELL.match(c) else ", " if out else "") + c
    return out


def _heading_cell(cells: list[str]) -> str | None:
    """A table's header row of labels ("| 武器 | 技能値 | ダメージ |") as its section heading, or None."""
    words = [c for c in cells if c]
    if words and fold(words[0]) in N.HEADINGS and all(fold(c) in _TABLE_LABELS or fold(c) in N.HEADINGS
                                                      for c in words[1:]):
        return words[0] + ":"
    return None


def coc_layout(lines: list[str]) -> list[str]:
    """The lines of a CoC block with its tables, brackets and list marks rewritten as plain
    stat lines (see above); the same number of lines, other lines as they are."""
    out = list(lines)
    nf = [unicodedata.normalize("NFKC", x).strip() for x in lines]
    for k, raw in enumerate(lines):  # ①STR : 12 (NFKC would make the list number a digit: "1STR")
        if _CIRCLED.match(raw):
            out[k] = nf[k] = unicodedata.normalize("NFKC", _CIRCLED.sub("", raw, count=1)).strip()
    i = 0
    while i < len(out):
        text = nf[i]
        if re.match(r"^#{2,6}\s+\S", text):  # a Markdown heading ("### 技能"); one "#" is a comment
            out[i] = nf[i] = text.lstrip("#").strip()
            text = nf[i]
        if "**" in text or "__" in text:  # Markdown bold: "**Hit Points** ::: 130"
            text = text.replace("**", "").replace("__", "")
            out[i] = nf[i] = re.sub(r":{2,}", ":", text)
        if text.startswith("|") and text.count("|") >= 2:
            i = _table(out, nf, i)
            continue
        names = text.split()
        if len(names) >= 3 and all(_stat_cell(x) for x in names):  # a plain table: names over values
            j = next((k for k in range(i + 1, len(nf)) if nf[k]), None)
            if j is not None and len(nf[j].split()) == len(names) and all(_VALUE_CELL.match(v) for v in nf[j].split()):
                out[i] = " ".join(f"{a} {b}" for a, b in zip(names, nf[j].split()))
                out[j] = ""
                i = j + 1
                continue
        if _INFO_LABEL.match(text):
            out[i] = "Notes: " + lines[i].strip()
        elif _NAME_LABEL.match(text):
            out[i] = _NAME_LABEL.sub("", text, count=1)
        elif len(text.split()) >= 2 and all(fold(w) in _TABLE_LABELS for w in text.split()):
            out[i] = ""  # a creature table's header: "char. averages rolls"
        else:
            # list marks and "Average " before stats ("①STR : 12", "Average Hit Points: 13"), names in
            # brackets (【STR】13, 〈POW〉50)
            marked = _LIST_MARK.sub("", re.sub(r"^(?:average|av\.)\s+", "", text, flags=re.IGNORECASE), count=1)
            bracketed = re.sub(r"[【〔\[〈《<«]\s*([^】〕\]〉》>»]{1,12}?)\s*[】〕\]〉》>»]",
                               lambda m: (m.group(1) + " ") if _stat_cell(m.group(1)) else m.group(0), marked)
            if bracketed != marked or (marked != text and _stats_in(marked)):
                out[i] = re.sub(r"\s+([:：])", r"\1", bracketed).strip()
            head = re.match(r"^【\s*([^】]+?)\s*】\s*(.*)$", text)  # 【技能】目星60%
            if head and fold(head.group(1)) in N.HEADINGS:
                out[i] = f"{head.group(1)}: {head.group(2)}"
        i += 1
    return out


def _stats_in(text: str) -> bool:
    return any(re.match(rf"^{re.escape(k)}\s*[:=]?\s*[+-]?\d", text, re.IGNORECASE) for k in _ALL_STAT_NAMES.values())


def _table(out: list[str], nf: list[str], i: int) -> int:
    """Rewrites the Markdown table row at `i` (and the value row under a row of names); returns
    the next line to look at."""
    cells = _cells(nf[i])
    if _is_rule_row(cells):
        out[i] = ""
        return i + 1
    named = [_stat_cell(c) for c in cells]
    if sum(x is not None for x in named) >= 2 and all(x is not None or not c or fold(c) in _TABLE_LABELS
                                                      for x, c in zip(named, cells)):
        j = i + 1
        while j < len(nf) and nf[j].startswith("|") and _is_rule_row(_cells(nf[j])):
            j += 1
        if j < len(nf) and nf[j].startswith("|"):
            values = _cells(nf[j])
            if sum(bool(v) and _VALUE_CELL.match(v) is not None for v in values) >= 2:
                pairs = [f"{x} {v}" for x, v in zip(named, values) if x is not None and v]
                out[i] = " ".join(pairs)
                for k in range(i + 1, j + 1):
                    out[k] = ""
                return j + 1
    heading = _heading_cell(cells)
    if heading is not None:
        out[i] = heading
    elif all(not c or fold(c) in _TABLE_LABELS for c in cells):
        out[i] = ""  # a header of labels ("| Stats | Value |")
    else:
        out[i] = _join_cells([c.strip(_BRACKETS) if _stat_cell(c) else c for c in cells])
    return i + 1


# ---- Call of Cthulhu: the name line ------------------------------------------------------

_AGE = (r"(?:age|aged|年齢|年齡|年龄)\s*[:：]?\s*(\d{1,3})", r"(\d{1,3})\s*(?:歳|才|岁|歲|years old|yrs\.?)")
_BYLINE = re.compile(r"\s+(?:(?:(?:stats|statistics|adapted|converted)\s+)?for\s+(?:Call of Cthulhu|CoC|Cthulhu)\b.*"
                     r"|By\s+\S.*|[-–—]+\s*by\s+\S.*)$")


def coc_name(raw: str) -> tuple[str, list[str]]:
    """The name alone from a CoC block's name line, and what else the line says, for the notes:
    an age ("Example Character, age 27", "サンプル 太郎、27歳、記者", "示範角色, 年齡 27",
    "田中 一郎（42歳・刑事）"), what follows the age (an occupation), a byline ("Indiana Jones for
    Call of Cthulhu By ..."). A line with no age and no byline is the name as written."""
    plain = _LIST_MARK.sub("", raw.replace("**", "").strip(), count=1).strip()
    text = _LIST_MARK.sub("", unicodedata.normalize("NFKC", raw).replace("**", "").strip(), count=1)
    text = _NAME_LABEL.sub("", text, count=1)
    notes: list[str] = []
    by = _BYLINE.search(text)
    if by:
        notes.append(by.group(0).strip())
        text = text[:by.start()].strip()
    paren = re.match(r"^(.+?)\s*\(([^()]*)\)$", text)
    if paren and any(re.search(a, paren.group(2), re.IGNORECASE) for a in _AGE):
        notes.insert(0, paren.group(2).strip())
        return paren.group(1).strip().rstrip(",、"), notes
    parts = [p.strip() for p in re.split(r"[,、]", text)]
    at = next((k for k, p in enumerate(parts) if k and any(re.fullmatch(a, p, re.IGNORECASE) for a in _AGE)), None)
    if at is not None:
        notes[:0] = parts[at:]
        return ", ".join(parts[:at]), notes
    return (text if notes or text != unicodedata.normalize("NFKC", plain) else plain), notes


# ---- Call of Cthulhu: which edition ------------------------------------------------------

_EDITION_WORDS = (
    (7, re.compile(r"7th[- ]edition|\b7th ed\b|\b7e\b|\bcoc ?7|第?7版|第七版|新クトゥルフ|7th", re.IGNORECASE)),
    (6, re.compile(r"[56]th[- ]edition|\b[56]th ed\b|\b[56]e\b|\bcoc ?6|第?6版|第六版|[56]th", re.IGNORECASE)),
)


def coc_edition(chars: dict[str, int], derived: dict[str, Any], skills: dict[str, int], printed: list[str],
                text: str, said: str | None) -> tuple[bool, str, bool]:
    """Whether a CoC block is 7th edition (characteristics 1-99), and why, from the whole block,
    never from one value: the characteristics (7th: most above 21 and multiples of 5; 5th/6th:
    3-18, EDU to 21 and more with age), the derived values (HP (CON+SIZ)/2 in 6th, /10 in 7th;
    MP = POW or POW/5; SAN = POW x 5 or POW; Dodge = DEX x 2 or DEX/2), what only one edition
    prints (7th: half/fifth values "(25/10)", Build, MOV, Luck of its own; 6th: the Idea and
    Know rolls), the skill names (7th: Fighting (Brawl), Firearms (...); 6th: Fist/Punch,
    Kick, Sneak) and an edition the text names. A block with no characteristic above 21 (EDU
    26) is never divided by 5. `said`: the block's own ``edition:`` line (6 or 7), which decides.
    Returns (7th edition?, why, whether the other edition had signs too)."""
    if said is not None:
        return said == "7", f"{said}th edition, as the block's 'edition:' line says", True
    votes: dict[int, list[tuple[int, str]]] = {6: [], 7: []}
    limit = {k: (26 if k == "EDU" else 21) for k in chars}
    small = [k for k, v in chars.items() if v <= 18 + (8 if k == "EDU" else 0) and v % 5]
    big = [k for k, v in chars.items() if v > limit[k]]
    if small:
        votes[6].append((len(small), ", ".join(f"{k} {chars[k]}" for k in small)
                         + " on the 3-18 scale (EDU to 26), not multiples of 5"))
    if big:
        fives = all(chars[k] % 5 == 0 for k in big)
        votes[7].append((len(big) + (len(big) >= 4 and fives), f"{len(big)} of {len(chars)} characteristics above 21"
                         + (", multiples of 5" if fives else "")))
    con, siz, pow_, dex = chars.get("CON"), chars.get("SIZ"), chars.get("POW"), chars.get("DEX")

    def check(key: str, value: Any, six: int | None, seven: int | None, weight: int, how: tuple[str, str]) -> None:
        if not isinstance(value, int) or six == seven:
            return
        if value == six:
            votes[6].append((weight, f"{key} {value} = {how[0]}"))
        elif value == seven:
            votes[7].append((weight, f"{key} {value} = {how[1]}"))

    if con is not None and siz is not None:
        check("HP", derived.get("HP"), -(-(con + siz) // 2), (con + siz) // 10, 2, ("(CON+SIZ)/2", "(CON+SIZ)/10"))
    if pow_ is not None:
        check("MP", derived.get("MP"), pow_, pow_ // 5, 1, ("POW", "POW/5"))
        check("SAN", derived.get("SAN"), pow_ * 5, pow_, 1, ("POW x 5", "POW"))
        luck = derived.get("Luck")
        if isinstance(luck, int):
            if luck == pow_ * 5:
                votes[6].append((1, f"Luck {luck} = POW x 5"))
            elif pow_ > 21:
                votes[7].append((1, f"Luck {luck}, rolled on its own"))
    if dex is not None:
        check("Dodge", skills.get("Dodge"), dex * 2, dex // 2, 1, ("DEX x 2", "DEX/2"))
    if "Build" in derived:
        votes[7].append((2, "Build"))
    if "MOV" in derived:
        votes[7].append((1, "MOV"))
    for k in ("Idea", "Know"):
        if k in derived:
            votes[6].append((2, f"{k} (a 6th-edition roll)"))
    pairs = [(int(a), int(b), int(c)) for a, b, c in
             re.findall(r"(?<!\d)(\d+)\s*%?\s*\(\s*(\d+)\s*/\s*(\d+)\s*\)", text)]
    halves = [p for p in pairs if p[1] == p[0] // 2 and p[2] == p[0] // 5]
    if halves:
        a, b, c = halves[0]
        votes[7].append((3, f"half/fifth values ({a}: {b}/{c})"))
    if re.search(r"\(\s*\d*D\d+(?:\s*[+-]\s*\d+)?\s*\)\s*[×x*]\s*5", text, re.IGNORECASE):
        votes[7].append((3, "characteristic rolls x 5"))
    folded = [fold(p) for p in printed]
    seven = sorted({p for p in folded if any(p == w or (w.endswith("(") and p.startswith(w)) or
                                             (len(w) > 2 and not w.endswith("(") and p.startswith(w + " (")) for w in
                                             N.COC7_SKILL_WORDS)})
    six = sorted({p for p in folded if p in N.COC6_SKILL_WORDS})
    if seven:
        votes[7].append((min(2, len(seven)), "7th-edition skill names (" + ", ".join(seven[:3]) + ")"))
    if six:
        votes[6].append((min(2, len(six)), "6th-edition skill names (" + ", ".join(six[:3]) + ")"))
    for ed, pat in _EDITION_WORDS:
        m = pat.search(text)
        if m:
            votes[ed].append((3, f"the text says '{m.group(0)}'"))
            break
    s6, s7 = sum(w for w, _ in votes[6]), sum(w for w, _ in votes[7])
    why7 = "; ".join(t for _, t in votes[7])
    why6 = "; ".join(t for _, t in votes[6])
    if not big:
        return (False, ("5th/6th edition: characteristics on the 3-18 scale, read as written"
                       + (f" ({why6})" if why6 else "")
                       + (f"; 7th-edition signs ({why7}) outweighed: no characteristic above 21" if why7 else "")),
                bool(why7))
    if s7 > s6 or (s7 == s6 and len(big) * 2 >= len(chars)):
        return True, (f"7th edition: characteristics 1-99 ({why7})" + (f"; against: {why6}" if why6 else "")
                      + "; read into coc's 3-18 scale by dividing by 5"), bool(why6)
    return False, (f"5th/6th edition: characteristics read as written ({why6})"
                   + (f"; against: {why7}" if why7 else "")), True


# ---- Call of Cthulhu: the reader ---------------------------------------------------------

# Lines a CoC block prints beside its stats that a coc document has no place for, or that are
# what coc assumes anyway: attacks per round, the Sanity loss to see a creature, natural armor.
_APR = re.compile(r"(?:attacks per round|# attacks|1ラウンドの攻撃回数|攻撃回数|攻擊次數|攻击次数)\s*:?\s*"
                  r"(?P<v>\d+|none|なし|无|無)(?:\s*\([^)]*\))?", re.IGNORECASE)
_SAN_LOSS = re.compile(r"(?:sanity loss|san loss|正気度喪失|正気度ロール|SAN値チェック|理智喪失|理智损失|SAN值損失|SAN值损失)\s*:?\s*"
                       r"(?P<v>\d*D?\d+(?:[+-]\d+)?\s*/\s*\d*D?\d+(?:[+-]\d+)?|none|なし|无|無)"
                       r"(?:\s+sanity points?(?:\s+to see [^,;]*)?)?", re.IGNORECASE)
_NATURAL_ARMOR = re.compile(r"(?:armou?r|装甲|護甲|护甲)\s*:?\s*(?P<v>\d+|none|なし|无|無)(?:\s*(?:points?|点|點))?"
                            r"(?=\s|$|,)", re.IGNORECASE)
_NONE = {"none", "なし", "无", "無", "0", "-", "—"}
_EDITION_LINE = re.compile(r"^\s*edition\s*[:=]\s*(\S+)\s*$", re.IGNORECASE)
_EDITIONS = {"5": "6", "5e": "6", "5th": "6", "6": "6", "6e": "6", "6th": "6", "7": "7", "7e": "7", "7th": "7",
             "coc6": "6", "coc7": "7"}


def _coc_pairs(line: str, keys: tuple[str, ...], value: str) -> tuple[list[tuple[str, str]], str]:
    """``NAME value`` pairs of `keys` in a CoC stats line, as stat_pairs finds them, but with
    only ASCII letters and digits as word edges: Chinese and Japanese blocks run a name on from
    the value before it ("力量60體質55")."""
    alt = "|".join(re.escape(k) for k in sorted(keys, key=len, reverse=True))
    pat = re.compile(rf"(?<![A-Za-z0-9])({alt})\s*[:=]?\s*({value})(?![A-Za-z0-9])", re.IGNORECASE)
    found: list[tuple[str, str]] = []

    def take(m: re.Match[str]) -> str:
        found.append((m.group(1), m.group(2)))
        return " "

    rest = pat.sub(take, line)
    return found, re.sub(r"[\s,;/|()\[\]]+", " ", rest).strip()


def read_coc(lines: list[str], system: str) -> Read:
    r = Read(system, reader="textblock: Call of Cthulhu stat block (English, Japanese, Chinese; "
                            "5th/6th and 7th edition, told from the whole block)")
    lines = coc_layout(lines)
    said = None
    for k, line in enumerate(lines):  # "edition: 6e" / "edition: 7e": the block says which (README)
        m = _EDITION_LINE.match(unicodedata.normalize("NFKC", line))
        if m:
            said = _EDITIONS.get(m.group(1).lower())
            if said is None:
                raise InputError("unknown edition in the stat block", path=f"line {k + 1}",
                                 expected="edition: 6e or edition: 7e (5e reads as 6e)", found=repr(m.group(1)))
            lines[k] = ""
    folded_text = normalize("\n".join(lines))
    lang = "ja" if _KANA.search(folded_text) else "zh" if _HAN.search(folded_text) else "en"
    names = N.coc_stat_names(lang)
    db_names = tuple(n for n, k in names.items() if k == "DB")
    pair_names = tuple(n for n, k in names.items() if k != "DB")
    chars: dict[str, int] = {}
    skills: dict[str, int] = {}
    printed: list[str] = []  # skill and attack names as printed (which edition: coc_edition)
    weapons: list[dict[str, Any]] = []
    armor: list[dict[str, Any]] = []
    notes: list[str] = []
    spells: list[str] = []
    melee: list[dict[str, Any]] = []
    extra: dict[str, Any] = {}
    extra_line: dict[str, int] = {}
    extra_name: dict[str, str] = {}  # derived key -> the name the block prints it by
    char_line: dict[str, int] = {}

    def specials(line: str) -> tuple[str, bool]:
        """Attacks per round, Sanity loss and natural armor taken out of a stats line (each
        reported here), and whether there was any."""
        found = False
        for pat, what in ((_APR, "apr"), (_SAN_LOSS, "san loss"), (_NATURAL_ARMOR, "armor")):
            for m in list(pat.finditer(line)):
                found = True
                v = m.group("v").lower()
                if what == "apr" and v == "1":
                    r.assumed.append(f"line {r.line}: {m.group(0).strip()} not carried: a coc document makes one "
                                     "attack a round")
                elif v not in _NONE:
                    r.unread.append((r.line, f"{m.group(0).strip()} (no place in a coc document)"))
            line = pat.sub(" ", line)
        return line, found

    def stats(line: str) -> str | None:
        line, special = specials(line)
        # a value, its current/max ("HP 11/11"), its half/fifth ("STR 50 (25/10)"), the roll a creature
        # table prints beside it ("STR 80 (3D6+6)×5")
        found, rest = _coc_pairs(line, pair_names, r"[+-]?\d+(?:\s*/\s*\d+(?!\s*\)))?(?:\s*\(\s*\d+\s*/\s*\d+\s*\))?"
                                 r"(?:\s*\(\s*\d*D\d+(?:\s*[+-]\s*\d+)?\s*\)\s*[×x*]\s*5)?")
        db, rest2 = _coc_pairs(rest, db_names, rf"[+-]?\s*{_DICE}|[+±-]?\d+|none|なし|无|無|-")
        if not found and not db:
            return rest2 if special else None
        lower = {n.lower(): k for n, k in names.items()}
        for printed_name, v in found:
            key = lower[printed_name.lower()]
            value = int(re.match(r"[+-]?\d+", v).group(0))
            if key in N.COC_CHARACTERISTICS:
                chars[key] = value
                char_line[key] = r.line
            else:
                extra[key] = value
                extra_line[key] = r.line
                extra_name[key] = printed_name
        for printed_name, v in db:
            extra["DB"] = re.sub(r"\s+", "", v)
            extra_line["DB"] = r.line
            extra_name["DB"] = printed_name
        return rest2

    def skill_item(item: str, n: int) -> bool:
        text = re.sub(r"[《》〈〉<>«»]", "", item).strip().rstrip("。.").strip()
        m = _PCT.match(text)
        if not m:
            run = list(re.finditer(r"\s*(?P<name>[^\s\d][^\d%]*?)\s*(?P<val>\d+)\s*%(?:\s*\(\s*\d+\s*/\s*\d+\s*\))?",
                                   text))
            if len(run) > 1 and "".join(x.group(0) for x in run).strip() == text:  # "目星60% 聞き耳50%"
                return all([skill_item(x.group(0).strip(), n) for x in run])
            return False
        name, value = m.group("name").strip(), int(m.group("val"))
        if value > SKILL_MAX:
            r.unread.append((n, f"{item} ({value}% is no skill chance: 0-{SKILL_MAX}%)"))
            return True
        printed.append(name)
        natives = N.COC_SKILLS.get(fold(name))
        if not natives:
            close = N.closest_coc_skill(name)
            if close is not None:
                r.unknown.append((n, name, close))
        for native in natives or (name,):
            skills[native] = value
        return True

    def weapon_item(item: str, n: int) -> None:
        item, cid = catalog_tag(item)
        parsed = coc_weapon_parts(item)
        if parsed is None:
            if _label_prose(item):  # "Fighting attacks: the creature lashes out ..." (creature blocks)
                notes.append(item)
                return
            if re.fullmatch(r"(?:attacks?|combat|weapons?)?\s*:?\s*(?:none|なし|无|無|-)", item.strip(), re.IGNORECASE):
                return
            r.unread.append((n, item))
            return
        name, pct, attrs, left = parsed
        if pct is not None and pct > SKILL_MAX:
            r.unread.append((n, f"{item} ({pct}% is no skill chance: 0-{SKILL_MAX}%)"))
            return
        printed.append(name)
        natives = N.COC_SKILLS.get(fold(name))
        if natives and "damage" not in attrs:  # "Handgun 55%" under Combat is a skill line
            for native in natives:
                skills[native] = pct if pct is not None else skills.get(native, 0)
            return
        said_skill = attrs.get("skill")
        if natives and set(natives) <= _MELEE_SKILLS or fold(name) in ("kick", "grapple", "head butt", "knife", "club",
                                                                        "fighting (brawl)") \
                or (said_skill and said_skill not in _COC_CLASS and melee_class_of(str(said_skill)) != "improvised"):
            melee_attack(name, pct, attrs, left, natives, n)
            return
        entry = weapon_entry(cid, name)
        skill = said_skill or (natives[0] if natives else None) or (
            _skill_of_class(entry.weapon_class) if entry is not None else skill_by_keyword(name))
        if skill not in _COC_CLASS:
            damage = str(attrs.get("damage", ""))
            if not said_skill and (_close_combat_name(name) or re.search(r"db|damage bonus", damage, re.IGNORECASE)):
                melee_attack(name, pct, attrs, left, natives, n)  # a Bite, a Claw, a machete: close combat
                return
            r.unread.append((n, f"{item} (which firearm skill fires it is not said)"))
            return
        w: dict[str, Any] = {"name": name, "skill": skill}
        if entry is not None:
            w["catalog"] = entry.id
        if "damage" in attrs:
            dmg = _dice(attrs["damage"])
            if re.search(r"\+((1[/\u2044]2|half)?db|damagebonus)$", dmg, re.IGNORECASE):
                dmg = re.sub(r"\+((1[/\u2044]2|half)?db|damagebonus)$", "", dmg, flags=re.IGNORECASE)
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
        damage = _dice(str(attrs.get("damage", ""))).lower().replace("\u2044", "/").replace("damagebonus", "db")
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
        printed.append(name)
        melee_attack(name, pct, attrs, left, N.COC_SKILLS.get(fold(name)), n)
        return True

    def spell_item(item: str, n: int) -> bool:
        name = item.strip().rstrip(".。")
        if not name:
            return False
        spells.append(name)
        return True

    def armor_item(item: str, n: int) -> None:
        item, cid = catalog_tag(item)
        if item.strip().lower().rstrip(".") in _NONE:
            return
        parts = split_items(item, ",")
        extra_a = {}
        for p in parts[1:]:
            st = re.match(r"^stops\s*:?\s*(\d+(?:\.\d+)?\s*J)$", p.strip(), re.IGNORECASE)
            if not st:
                r.unread.append((n, item))
                return
            extra_a["stops"] = st.group(1)
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
        a.update(extra_a)
        armor.append(a)

    def loose(line: str, n: int) -> bool:
        """An attack line after the stats with no Combat heading ("手槍 45% (22/9), 傷害 1D10",
        "Dodge 30% (15/6)"): read as the Combat section would."""
        if _label_prose(line):  # "Fighting attacks: ..." after "Attacks per round: 3"
            notes.append(line)
            return True
        parsed = coc_weapon_parts(line)
        dodge = _PCT.match(line)
        if parsed is None and not (dodge and N.COC_SKILLS.get(fold(dodge.group("name"))) == ("Dodge",)):
            return False
        for item in coc_weapon_items(line):
            weapon_item(item, n)
        return True

    # a CoC weapon line runs on with commas ("55%, damage 1D10, base range 15 m"): its attacks
    # are told apart by coc_weapon_items
    section = sectioner(r, notes, stats, {"skills": skill_item, "weapons": weapon_item, "armor": armor_item,
                                          "spells": spell_item, "melee": melee_item},
                        lambda kind, text: coc_weapon_items(text) if kind in ("weapons", "melee") else
                        split_items(text, ";" if kind == "armor" else ",;"))

    Walk(r, lines).run(stats, section, loose)
    name_notes: list[str] = []
    if r.doc.get("@name"):
        name, name_notes = coc_name(str(r.doc["@name"]))
        if name_notes:
            r.assumed.append(f"line {r.doc.get('@name_line', 1)}: the name line's "
                             + "; ".join(repr(x) for x in name_notes) + " kept in the notes, not the name")
        r.doc["@name"] = name
    seventh, why, contested = coc_edition(chars, extra, skills, printed, folded_text, said)
    r.edition = why
    if not seventh and contested:
        # read as written although the block shows signs of 7th edition (or its line says so):
        # said in the report even when nothing else is (a 7th-edition block always is: /5)
        r.assumed.append(f"edition: {why}")
    raw = dict(chars)
    _coc_characteristics(r, chars, seventh, char_line)
    own = _coc_derived(r, raw, extra, extra_line, seventh, extra_name)
    doc: dict[str, Any] = {"name": _name(r)}
    doc.update({k: chars[k] for k in N.COC_CHARACTERISTICS if k in chars})
    if "HP" in extra and 0 <= extra["HP"] <= 999:
        doc["HP"] = extra["HP"]
    elif "HP" in extra:
        r.unread.append((extra_line.get("HP", 0), f"{extra_name.get('HP', 'HP')} {extra['HP']} (outside 0-999)"))
    doc.update(own)
    if spells:
        doc["spells"] = spells
    doc["skills"] = skills
    doc["weapons"] = weapons
    if melee:
        doc["melee"] = melee
    doc["armor"] = armor
    doc["notes"] = "\n".join(p for p in (*name_notes, r.doc.get("@description"), *notes) if p)
    r.doc = doc
    return r


def _label_prose(item: str) -> bool:
    """A labelled sentence in a creature's Combat section ("Fighting attacks: it lashes out with
    ...", "Special: ..."): no chance and no damage dice, several words after the label."""
    m = re.match(r"^[^:]{2,40}:\s*(.+)$", item)
    return m is not None and len(m.group(1).split()) >= 4 and not re.search(r"\d+\s*%", item)


def _skill_of_class(weapon_class: str) -> str:
    return {"handgun": "Handgun", "revolver": "Handgun", "smg": "SMG", "carbine": "Rifle", "rifle": "Rifle",
            "shotgun": "Shotgun", "mg": "Machine Gun", "thrown": "Throw"}[weapon_class]


def _coc_characteristics(r: Read, chars: dict[str, int], seventh: bool, where: dict[str, int]) -> None:
    """A 7th-edition block's characteristics (1-99) on coc's 3-18 scale (compose.seventh_to_coc); one
    outside what a coc document holds (1-99) is unread, not a failed block; a characteristic the
    block leaves out: the average adult, said so."""
    if seventh and chars:
        from .compose import seventh_to_coc  # the one 7th -> coc conversion, shared with Foundry, Dhole's House

        converted, note = seventh_to_coc(chars)
        chars.update(converted)
        r.assumed.append(note)
    for k, v in list(chars.items()):
        if not 1 <= v <= 99:
            r.unread.append((where.get(k, 0), f"{k} {v} (a coc characteristic is 1-99)"))
            del chars[k]
    missing = [k for k in N.COC_CHARACTERISTICS if k not in chars]
    if missing:
        for k in missing:
            chars[k] = 11 if k != "SIZ" and k != "INT" and k != "EDU" else {"SIZ": 13, "INT": 13, "EDU": 14}[k]
        r.assumed.append("not in the block, set to the average adult (3d6 -> 10.5, 2d6+6 -> 13, 3d6+3 -> 13.5): "
                         + ", ".join(f"{k} {chars[k]}" for k in missing))


def _coc_derived(r: Read, raw: dict[str, int], extra: dict[str, Any], where: dict[str, int],
                 seventh: bool, printed: dict[str, str]) -> dict[str, int]:
    """The derived values a CoC block prints beside the characteristics. SAN, MP and Luck are
    the document's own ``SAN``/``MP``/``Luck`` whenever the block states them (what only CoC
    states, carried through every other system; the same on both scales: 7th-edition MP is
    POW/5, which is coc's POW); the Idea and Know rolls the characteristics give (6th edition:
    INT x 5, EDU x 5; 7th: INT, EDU) are read as derived, other values unread; the damage bonus,
    Build and movement, which coc derives itself, are not carried (assumed)."""
    own: dict[str, int] = {}
    fields = {"SAN": 99, "MP": 999, "Luck": 99}
    int_, edu = raw.get("INT"), raw.get("EDU")
    expected = {"Idea": int_ if seventh else (int_ * 5 if int_ is not None else None),
                "Know": edu if seventh else (edu * 5 if edu is not None else None)}
    recomputed = []
    for k, v in extra.items():
        if k == "HP":
            continue
        if k in ("DB", "Build", "MOV"):
            recomputed.append(f"{printed.get(k, k)} {v}")
        elif k in fields:
            if 0 <= int(v) <= fields[k]:
                own[k] = int(v)
            else:
                r.unread.append((where.get(k, 0), f"{printed.get(k, k)} {v} (outside 0-{fields[k]})"))
        elif expected.get(k) is None or expected[k] != v:
            r.unread.append((where.get(k, 0), f"{printed.get(k, k)} {v} (no place in a coc document)"))
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
    # CoC blocks print their characteristics in tables and brackets too (| STR | CON |, 【STR】):
    # detection sees them as the CoC reader will (coc_layout changes no other system's lines)
    system = detect([normalize(x) for x in coc_layout(lines)])
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
