"""Plain-text stat blocks: the line machinery every system's text layout shares.

A stat block is read line by line. A line is a heading with its items (``Skills: Handgun
55%, Dodge 30%``; the items may run on over the next lines), a line of stat pairs (``STR 12
CON 11 ...``, ``ST 11, DX 12, IQ 10, HT 11``), the NPC's name (the first line that is none of
these) or its description (prose between the name and the first stats). Anything else is
*unread*: it is reported, never skipped in silence. Lines starting with ``#`` are comments.

What a block is and how its items read is the system's own: a system declares a
:class:`TextLayout` (``System.text_layout``) that scores a block as its own, reads its lines
into the system's plain document and writes a document as a block. This module holds what
every layout shares (normalising, headings, items, stat pairs, the :class:`Read` record with
its unread and assumed reports, the name and the description, the catalog lookups) and the
dispatch: which installed system's layout a block is for (a ``system: KEY`` line, else the
layout that finds three or more of its stats and more than any other), the ``Carried:`` line
of other systems' data, the ``xsys.read`` report, and a block composed line by line from
another format's fields (:func:`read_lines`).

The core names no system here: every system, built-in or third-party, is asked alike.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import math
import html
import re
import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator

from .errors import InputError

if TYPE_CHECKING:
    from .registry import Registry


def fold(name: str) -> str:
    text = unicodedata.normalize("NFKC", name).lower().strip()
    text = re.sub(r"\s+", " ", text)
    return text.replace("( ", "(").replace(" )", ")")



# Section headings: what the rest of the line (and the lines after it, up to the next
# heading) holds. Shared by every layout (a layout adds its own: TextLayout.headings).
HEADINGS: dict[str, str] = {
    **{fold(h): "skills" for h in ("skills", "skill", "技能", "umiejętności", "umiejetnosci")},
    # CoC blocks: languages are skills ("Languages: English 80%"); the Chinese 7e "skill list",
    # "combat list", "spells" headings (技能列表, 戰鬥列表, 咒文), the Japanese 攻撃 (attacks)
    **{fold(h): "skills" for h in ("languages", "language", "言語", "語言", "语言", "技能列表", "技能值", "技能値")},
    # the Japanese 6th-edition sheets' skill groups (探索者の技能: the investigator's skills; combat,
    # exploration, action, negotiation and knowledge skills), each a table of skills and values
    **{fold(h): "skills" for h in ("探索者の技能", "技能一覧", "戦闘技能", "探索技能", "行動技能", "交渉技能", "知識技能")},
    **{fold(h): "weapons" for h in ("戰鬥", "戰鬥列表", "战斗列表", "戰鬥技能", "攻撃", "攻撃手段", "weapons & attacks",
                                    "攻击", "攻擊", "战斗数据", "戰鬥數據")},
    **{fold(h): "spells" for h in ("咒文", "咒文列表", "法術")},
    **{fold(h): "attributes" for h in ("attributes", "characteristics", "能力値", "属性", "cechy")},
    **{fold(h): "weapons" for h in ("weapons", "weapon", "combat", "attacks", "attack", "武器", "戦闘", "战斗",
                                    "broń", "bron")},
    **{fold(h): "armor" for h in ("armor", "armour", "防具", "护甲", "護甲", "装甲", "裝甲", "pancerz")},
    **{fold(h): "notes" for h in ("notes", "note", "description", "備考", "メモ", "说明", "备注", "opis", "描述", "說明",
                                  "備註", "背景")},
    **{fold(h): "advantages" for h in ("advantages",)},
    **{fold(h): "disadvantages" for h in ("disadvantages",)},
    **{fold(h): "merits" for h in ("merits",)},
    **{fold(h): "derived" for h in ("derived", "derived traits")},
    **{fold(h): "zalety" for h in ("zalety",)},
    **{fold(h): "spells" for h in ("spells", "spell", "呪文", "法术", "咒语")},
    **{fold(h): "melee" for h in ("melee", "close combat", "近接戦闘", "格闘", "近战")},
}


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
    # (a PDF's minus sign, U+2212, as Steve Jackson Games' books print 'Brawling−14' and '1d−2': a minus)
    text = unicodedata.normalize("NFKC", line).replace("\t", " ").replace("\u2212", "-")
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


# Headings only on a line of their own: the Sanity a CoC creature costs to see, its value on the
# lines below (kept in the notes); with its value on the line it is a stat the reader keeps itself
HEADINGS_ALONE: dict[str, str] = {fold(h): "notes" for h in ("sanity loss", "san loss", "正気度喪失", "理智损失",
                                                              "理智損失", "理智值丧失", "理智值喪失", "理智丧失", "理智喪失")}


def heading_of(line: str, extra: dict[str, str] | None = None) -> tuple[str, str] | None:
    # `extra`: headings one system's layout adds (TextLayout.headings: GURPS's "Gear:", nWoD's
    # "Virtue:"); they win over the shared ones for that layout only
    table = {**HEADINGS, **extra} if extra else HEADINGS
    alone = fold(line).rstrip(":：").strip()
    if alone in table or alone in HEADINGS_ALONE:  # a heading on a line of its own
        return table.get(alone) or HEADINGS_ALONE[alone], ""
    m = _HEADING.match(line)
    if m and fold(m.group(1)) in table and not re.match(r"\d+\s*[%％]", m.group(2)):
        # (a heading's word with a chance after it is an attack of that name: "近接戦闘: 60% ダメージ: 1D4+DB")
        return table[fold(m.group(1))], m.group(2)
    return None


def stat_pairs(line: str, keys: tuple[str, ...], value: str = r"[+-]?\d+") -> tuple[dict[str, str], str]:
    """``KEY value`` pairs of `keys` found in `line` (a colon or equals sign may sit between)
    and what is left of the line once they and their separators are taken out. A key's first
    pair is its value: a second one stays in what is left (a run-on block's "Per: 11 ... usable
    once per 6 hours", "DR: 2 ... metallic armor counts as DR 1", "Move: 5 (Tunneling Move 4)":
    the stat is the first, the later words are prose or another kind of the stat, said unread)."""
    alt = "|".join(re.escape(k) for k in sorted(keys, key=len, reverse=True))
    pat = re.compile(rf"(?<![\w])({alt})\s*[:=]?\s*({value})(?![\w])", re.IGNORECASE)
    found: dict[str, str] = {}
    canon = {k.lower(): k for k in keys}

    def take(m: re.Match[str]) -> str:
        key = canon[m.group(1).lower()]
        if key in found:
            return m.group(0)
        found[key] = m.group(2)
        return " "

    rest = pat.sub(take, line)
    # (a blog's stats between middle dots: "HP: 10 · DB: -1 · Build: -1"; a bullet • stays: an nWoD
    # block's dots, "Str ••••", are values)
    rest = re.sub(r"[\s,;/|()\[\]·]+", " ", rest).strip()
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


def dice_text(text: str) -> str:
    """Dice as printed ('1 D 10') in one spelling ('1d10')."""
    return re.sub(r"\s+", "", text).replace("D", "d")


def count_stats(text: str, keys: tuple[str, ...]) -> int:
    """How many of `keys` the text shows with a number after them, or dots ('Wits ●●●', as the
    World of Darkness books print them): a layout's score."""
    return sum(bool(re.search(rf"(?<![\w]){re.escape(k)}\s*[:=]?\s*(?:[+-]?\d|[•●])", text)) for k in keys)


# ---- the shared walk ---------------------------------------------------------------------

_LABEL_ALONE = re.compile(r"[A-Za-z][A-Za-z .'/()-]{0,20}:")  # "ST:" on a line of its own
_TOKEN_ALONE = re.compile(r"[A-Z][A-Za-z]{1,4}")  # "SM" on a line of its own


def joined_labels(lines: list[str]) -> list[str]:
    """A block laid out a label a line and its value on the next ("ST:" then "12", as blogs and
    pasted tables print them): each label with its value on the label's line, the value's line
    left empty, so that every other line keeps its number in a report. A label is a short word or
    words and a colon, or a short stat token ("SM") before a bare number."""
    out = list(lines)
    i = 0
    while i < len(out) - 1:
        label, value = out[i].strip(), out[i + 1].strip()
        if (_LABEL_ALONE.fullmatch(label) and re.match(r"[+-]?\d", value)) or \
                (_TOKEN_ALONE.fullmatch(label) and re.fullmatch(r"[+-]?\d+", value)):
            out[i], out[i + 1] = f"{label} {value}", ""
            i += 2
            continue
        i += 1
    return out


_LIST_KINDS = frozenset(("skills", "weapons", "melee", "advantages", "disadvantages", "traits", "merits", "zalety",
                         "spells", "social", "maneuvers", "gear", "attributes", "derived"))
_POINT_COST = re.compile(r"\[\s*[+-]?\d+(?:\.\d+)?\s*\]")  # a 4th-edition trait's or skill's cost: "[20]"
_TECH_LEVEL = re.compile(r"/\s*TL\s*\d+", re.IGNORECASE)  # "Guns/TL8": a tech level, no skill level
_STAT_PAIR = re.compile(r"(?<![\w])[A-Za-z][A-Za-z.]{0,14}\s*:?\s*[+-]?\d")  # "BL 34", "ST: 13"
_LABEL_END = re.compile(r"(?<![\w])[A-Za-z][A-Za-z.]{0,14}$")  # a stat's label with its value to come
# what a skill's level (or its difficulty and relative level) starts with: "(A) Per+3 [12]-16", "60%", "DX+2 [8]-16"
_LEVEL_START = re.compile(r"\(|\[|[+-]?\d|[%●•]|(?:ST|DX|IQ|HT|Will|Per)\b")
_CONNECTOR_END = re.compile(r"(?<![\w])(?:and|or|of|the|a|an|to|with|for|in|on|at|by|from|as|per)$", re.IGNORECASE)


_WHOLE_END = re.compile(r"[\d%●•\])]\s*\*?$")  # an item that ends in its level, dots, cost or brackets
_TRAIT_KINDS = frozenset(("advantages", "disadvantages", "traits", "merits", "zalety", "social", "spells", "gear"))


def _depth(text: str) -> int:
    """Brackets left open at the end of `text` (a trait's "(Tough Skin," wrapped before its ")")."""
    depth = 0
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
    return depth


def _section_after(line: str, headings: dict[str, str] | None, current: str | None) -> str | None:
    """The section a line leaves the block in: its own heading's, or the last heading run on
    after a value in it ("... Move 6. Skills: ..."), else the one it was in."""
    head = heading_of(line, headings)
    if head is not None:
        current = head[0]
    table = {**HEADINGS, **headings} if headings else HEADINGS
    for m in _INLINE_HEADING.finditer(line):
        if fold(m.group(1)) in table:
            current = table[fold(m.group(1))]
    return current


def _wrapped(prev: str, line: str, section: str | None, headings: dict[str, str] | None = None) -> str | None:
    """How `line` goes on from `prev` where the text was broken at a page's width in the middle of
    an item (a PDF's or a book's copied text): "" (joined as one word: "Climbing-" / "13",
    "Shandassa-" / "Native"), " " (joined by a space), or None (a line of its own)."""
    end = prev.rstrip()
    if not end or not line or section == "notes":
        return None
    head = heading_of(end, headings)
    if head is not None and not head[1]:
        return None  # a heading on a line of its own ("Attacks" over "Fighting: 45% ...")
    if re.search(r"[^\W\d_]-$", end) and re.match(r"[^\W_]", line):
        return ""  # a word or a skill broken at its hyphen ("Climbing-" over "13")
    if _depth(end) > 0:
        return " "  # an item whose bracket the line break left open ("(Tough Skin," over "-40%) [3];")
    if end[-1] in ",;:.。、":
        return None  # the item ended where the line did
    if _POINT_COST.match(line) and not _POINT_COST.sub("", line[:line.find("]") + 1]).strip():
        return " "  # its point cost on the next line ("HT 12" over "[20]")
    if _CONNECTOR_END.search(end) and section in _LIST_KINDS:
        return " "  # a phrase cut after its "of" or "and"
    items = split_items(end)
    tail = items[-1] if items else ""
    levelled = bool(re.search(r"\d|[●•○◦]", _TECH_LEVEL.sub("", tail)))
    if section == "skills" and not levelled and _LEVEL_START.match(line):
        return " "  # a skill's name with its level on the next line ("Desert Survival" over "(A) Per+3 [12]-16")
    if section in _TRAIT_KINDS and len(items) > 1 and not _WHOLE_END.search(tail):
        return " "  # a list of traits apart by semicolons or commas whose last one the line break cut
    if section in ("weapons", "melee") and not levelled and 0 < len(tail.split()) <= 2 \
            and re.match(r"[^\W\d][\w' .-]{0,30}:\s", line):
        return " "  # a weapon's name broken before its stats ("... crushing; Large" over "Knife: 2d-3 cutting")
    if line.startswith("(") and section in _LIST_KINDS and not levelled and section != "weapons":
        return " "  # a trait's details ("Sense of Duty" over "(Halmaro and Guild) [-10]")
    if re.match(r"[+-]?\d", line) and _LABEL_END.search(end) and _STAT_PAIR.search(end):
        return " "  # a stat's label at the end of a line of stats, its value on the next ("BL 34, HP" over "13")
    return None


def unwrapped(lines: list[str], headings: dict[str, str] | None = None) -> list[str]:
    """The block with each item broken across lines by the page's width put back on one line
    (:func:`_wrapped`: "Skills: Broadsword (A) DX+2 [8]-16; Desert Survival" over "(A) Per+3
    [12]-16; ..." is one list, as the book means it); a line joined to the one above is left
    empty, so that every other line keeps its number in a report. Lines are joined only within
    a section of items, a stat line, or where a bracket or a hyphen is left open; never across
    an empty line, a heading or a section of prose."""
    out = list(lines)
    section: str | None = None
    last = -1  # the line the next one may go on from (-1: none)
    for i, raw in enumerate(lines):
        line = normalize(raw)
        if not line:
            last = -1
            continue
        if last >= 0 and heading_of(line, headings) is None:
            glue = _wrapped(normalize(out[last]), line, section, headings)
            if glue is not None:
                out[last] = out[last].rstrip() + glue + raw.strip()
                out[i] = ""
                section = _section_after(line, headings, section)
                continue
        section = _section_after(line, headings, section)
        last = i
    return out


_PROSE_WORD = re.compile(r"\b[^\W\d_]*[a-z][^\W\d_]*\b")  # a word in lower case: prose, not a stat's label


class Walk:
    """Goes through the lines once; the system's reader says what each line is."""

    def __init__(self, r: Read, lines: list[str], headings: dict[str, str] | None = None) -> None:
        self.r = r
        self.lines = unwrapped(joined_labels(lines), headings)
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
            # a list's bullet before a line ("• ST 11 DX 12", "● Dodge 8", Markdown's "- Brawl 45% ..."): the
            # line itself
            raw = re.sub(r"^\s*(?:[•●▪◦‣·]|[-*](?=\s+[^\d\s]))\s+", "", raw)
            if "**" in raw or "__" in raw:  # Markdown bold, as forums print a block: "**Skills:** ..."
                # (a marker beside a word; a merit's dots as stars, "Resources (***)", stay)
                raw = re.sub(r"(\*\*|__)(?=[^\s*_)])|(?<=[^\s*_(])(\*\*|__)", "", raw)
            line = normalize(raw)
            if not line or line.startswith("#") or re.match(r"^system\s*[:=]", line, re.IGNORECASE) \
                    or re.fullmatch(r"[-=_*~]{3,}", line):  # a rule or a page's front-matter fence ("---")
                continue
            head = heading_of(line, self.headings)
            if head is not None and head[0] == "attributes" and not head[1] and not seen_stats and not name_set:
                continue  # a page's title over the block ("Attributes" above the name and its stats: Roll20's)
            if head is not None:
                current, rest = head
                if current == "notes":  # prose keeps its own punctuation (full-width included)
                    parts = re.split(r"[:：]", raw, maxsplit=1)
                    rest = parts[1].strip() if len(parts) == 2 else ""
                for current, rest in self._run_on(current, rest):
                    section(current, rest, n)
                continue
            if current == "spells" and re.match(r"^\s{2,}\S", raw):
                section("notes", raw.strip(), n)  # a spell's description, indented under its name
                continue
            self.r.line = n
            if current == "notes" and seen_stats and len(_PROSE_WORD.findall(line)) >= 5:
                # a sentence under a Notes heading after the stats is prose, whatever numbers it mentions ("A
                # nonwarrior would have ST 10 (and lower damage), DX 10, HP"): no stats of the NPC's (they had
                # replaced the block's own); a line of stats there ("MP: 14") is read, and said, as before
                section("notes", raw.strip(), n)
                continue
            cut = self._first_heading(line)
            if cut is not None:  # "ST 12, DX 13 ... Skills: Brawling-14. Weapons: Colt .45: Dmg 2d+1, ST 10": the
                # stats before the first heading run on after them (a sourcebook's box as one paragraph), the
                # sections after it, so that no weapon's ST is read as the NPC's
                left = stats(line[:cut].rstrip())
                if left is not None:
                    seen_stats, current = True, None
                    if left and left.strip(" .;,。、·•"):
                        self.r.unread.append((n, f"{line[:cut].strip()} (not read: {left})"))
                    head = heading_of(line[cut:].strip(), self.headings)
                    for current, rest in self._run_on(*head) if head is not None else ():
                        section(current, rest, n)
                    continue
            left = stats(line)
            if left is not None:
                seen_stats = True
                current = None
                label = re.match(r"[^\W\d][^:：]{0,30}[:：]", left.strip(" .;,。、")) if left else None
                at = line.find(label.group(0)) if label else -1
                after = heading_of(line[at:], self.headings) if at >= 0 else None
                if after is not None:  # "Damage Bonus: +1D4. Weapons: Night-stick 50%, ...": a section on
                    current, rest = after  # the stats' line (a page run together), read from its own text,
                    for current, rest in self._run_on(current, rest):  # with the sections run on after it
                        section(current, rest, n)
                    continue
                # (a stat line's closing full stop is no stat, nor are the middle dots between its stats)
                if left and left.strip(" .;,。、·•"):
                    self.r.unread.append((n, f"{raw.strip()} (not read: {left})"))
                continue
            if current is not None:
                if current == "armor" and loose is not None and seen_stats and loose(line, n):
                    continue  # an attack line after a one-line "Armor: ..." (a compendium's Attacks list)
                for current, rest in self._run_on(current, raw.strip() if current == "notes" else line):
                    section(current, rest, n)
                continue
            if not name_set and not seen_stats and _name_like(raw):  # a name stands above the stats: a line below them is no name
                # ("NAME: The Archivist", a form's label before it, is the name without its label)
                self.r.doc["@name"] = re.sub(r"^(?:name|npc|character)\s*[:：]\s*", "", raw.strip(), flags=re.IGNORECASE)
                self.r.doc["@name_line"] = n
                name_set = True
            elif not seen_stats:
                description.append(raw.strip())
            elif loose is None or not loose(line, n):
                self.r.unread.append((n, raw.strip()))
        if description:
            self.r.doc["@description"] = "\n".join(description)


    def _first_heading(self, line: str) -> int | None:
        """Where the first heading run on after a value starts in `line` ("... Move 6. Skills: ..."),
        else None."""
        table = {**HEADINGS, **self.headings} if self.headings else HEADINGS
        m = next((m for m in _INLINE_HEADING.finditer(line) if fold(m.group(1)) in table), None)
        return m.start(1) if m is not None else None

    def _run_on(self, current: str, text: str) -> list[tuple[str, str]]:
        """A section's text as (section, text) pieces: a line run on into the next section's heading
        after a value ('Head Butt 55%, damage 1D4+1D4 Skills: Bargain 50%, ...', a page whose line
        breaks were lost) goes on under that heading; prose (notes) is not cut."""
        table = {**HEADINGS, **self.headings} if self.headings else HEADINGS
        out: list[tuple[str, str]] = []
        while current != "notes":
            m = next((m for m in _INLINE_HEADING.finditer(text) if fold(m.group(1)) in table), None)
            if m is None:
                break
            out.append((current, text[:m.start()].strip()))
            current, text = table[fold(m.group(1))], text[m.end():].strip()
        out.append((current, text))
        return [(c, t) for c, t in out if t]


# a heading run on after a value ("… 1D4+1D4 Skills: Bargain 50%"), not a heading's word with a
# chance after it (an attack of that name: "Combat: 60%")
_INLINE_HEADING = re.compile(r"(?<=[.%\d)])\s+([^\W\d_][^\W\d_]*(?: [^\W\d_]+)?)\s*:\s*(?!\d+\s*%)(?=\S)")


def _name_like(raw: str) -> bool:
    """Whether a line above the stats can be the NPC's name: it has a letter and is no paragraph
    (a web page's cookie notice before the block, its '×' close mark, is description), no title
    over the stats, and no sentence leading into them ("…。他的旧版属性值如下：")."""
    text = raw.strip()
    return len(text) <= NAME_LINE_MAX and bool(re.search(r"[^\W\d_]", text)) \
        and fold(text.rstrip(":：")) not in _TITLES and not re.search(r"。.", text) \
        and not re.match(r"(?:re|fwd?|aw)\s*:", text, re.IGNORECASE) \
        and not (len(text.split()) >= 6 and re.search(r"[.!?]$", text))
    # (a forum post's subject, "Re: [nWoD] Need stats for ...", and a sentence ending in a full stop are
    # no name: the name is the line after them)


NAME_LINE_MAX = 100  # characters: a longer line above the stats is a sentence, not a name
# a page's title over the stats, no name ("基礎數據", basic data, on a wiki's creature page)
_TITLES = {fold(t) for t in ("基礎數據", "基础数据", "基本數據", "基本数据", "數據", "数据", "能力值", "能力値", "ステータス",
                             "statistics", "stats", "attributes", "characteristics")}


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




# ---- the catalog ---------------------------------------------------------------------------

def _catalog() -> Any:
    from .registry import catalog

    return catalog()


def catalog_match(name: str) -> Any:
    """The catalog weapon a printed name is (by id or by name, folded), else the one a stat
    block's line of that name would be (core.catalog.Catalog.identify_weapon: one answer for
    every reader and system; "HK MP-5", "Remington M870"), or None."""
    key = fold(name)
    for entry in _catalog().weapons.values():
        if fold(entry.id) == key or fold(entry.name) == key:
            return entry
    for entry in _catalog().weapons.values():  # "Colt M1911A1 (.45 ACP)" printed as "Colt M1911A1"
        base = fold(entry.name).split(" (")[0]
        if base and (key == base or key.startswith(base + " ")):
            return entry
    return _catalog().identify_weapon(name)[0]


def catalog_tag(item: str) -> tuple[str, str | None]:
    """An item's ' [catalog: id]' tag (what xsys writes when a name does not say it) and the rest."""
    m = re.search(r"\s*\[catalog:\s*([\w.-]+)\]", item)
    if not m:
        return item, None
    return (item[:m.start()] + item[m.end():]).strip(), m.group(1)


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


def catalog_label(item: dict[str, Any], key: str, kind: str, name_key: str = "name") -> str:
    """' [catalog: id]' after an item's printed name when the name alone does not find the
    catalog item its `key` field names (what :func:`catalog_tag` reads back), else ''."""
    cid = item.get(key)
    if not cid:
        return ""
    name = item.get(name_key) or ""
    found = catalog_match(name) if kind == "weapon" else armor_match(name)
    return "" if found is not None and found.id == cid else f" [catalog: {cid}]"


def weapon_tag(name: str, catalog_id: str | None) -> str:
    """' [catalog: id]' after a weapon's name when the name alone does not find that catalog
    weapon (what the text reader reads back), else ''."""
    return catalog_label({"name": name, "catalog": catalog_id}, "catalog", "weapon")


# A gun's class from its printed name, where the block names no skill and the catalog does not
# know it: words of weapon names in English, Japanese and Chinese scenarios, by the neutral weapon
# class (core.model) they say. Looked for in this order (a "Thompson SMG" is no rifle).
WEAPON_CLASS_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # Polish names too (a pistolet maszynowy is a submachine gun, a karabin maszynowy a machine gun:
    # the longer words are looked for first), and the names French, Spanish and Portuguese sheets give
    # the common guns (a Foundry actor's 'Escopeta', 'Fusil à pompe')
    ("mg", ("machine gun", " mg ", "browning m1919", " bar ", "機関銃", "マシンガン", "机枪", "機槍", "ブローニング",
            "karabin maszynowy", " rkm ", " ckm ")),
    ("smg", ("smg", "submachine", "sub-machine", "tommy", "thompson", "mp5", "uzi", "mac-10", "サブマシンガン",
             "トンプソン", "トミーガン", "冲锋枪", "衝鋒槍", "汤普森", "湯普森", "pistolet maszynowy", "ppsh", "pps-43",
             "pm-63", "pm-84", " sten ", "mp 40", "mp40")),
    ("shotgun", ("shotgun", "12 gauge", "12-gauge", "12ga", "sawed-off", "sawn-off", "ショットガン", "散弾", "霰弹", "霰彈",
                 "散彈", "strzelba", "dubeltówka", "escopeta", "espingarda", "fusil à pompe", "fusil de chasse")),
    ("rifle", ("rifle", "carbine", "winchester", "springfield", "mauser", "lee-enfield", "ak-47", "m16", "ライフル",
               "カービン", "步枪", "步槍", "卡宾枪", "卡賓槍", "karabin", " kbk ", " kbs ", "sztucer", " akm ", "fusil")),
    ("thrown", ("grenade", "knife (thrown)", "dynamite", "molotov", "手榴弾", "手榴弹", "手榴彈", "ダイナマイト")),
    ("handgun", ("revolver", "pistol", "handgun", ".38", ".45", ".32", "9mm", "9 mm", "luger", "colt", "glock",
                 "derringer", "拳銃", "リボルバー", "ピストル", "デリンジャー", "オートマチック", "ガバメント", "コルト", "ルガー",
                 "ベレッタ", "ワルサー", "ニューナンブ", "s&w", "smith & wesson", "webley", "nambu", "南部", "手枪", "手槍",
                 "左轮", "左輪", "德林加", "pistolet", "rewolwer", "p-64", "p-83", " vis ", "pistola", "revólver")),
)


def weapon_class_by_name(name: str) -> str | None:
    """The neutral weapon class a printed weapon name says (WEAPON_CLASS_WORDS), or None."""
    low = " " + fold(name) + " "
    for cls, words in WEAPON_CLASS_WORDS:
        if any(w in low for w in words):
            return cls
    return None


# ---- the name and the description ------------------------------------------------------------

def name_of(r: Read) -> str:
    """The block's name line, or 'Unnamed NPC' (said: assumed)."""
    name = r.doc.get("@name")
    if not name:
        r.assumed.append("no name line: named 'Unnamed NPC'")
        return "Unnamed NPC"
    if _FORM_TITLE.fullmatch(str(name).strip()):
        # a printed sheet's title over an empty name field ('1920s Era Investigator'): no name
        r.assumed.append(f"{name!r} is the sheet form's title, and its name field is empty: named 'Unnamed NPC'")
        return "Unnamed NPC"
    return str(name)


_FORM_TITLE = re.compile(r"(?:[\w ]+ )?era investigator|(?:investigator|character) sheet", re.IGNORECASE)


def notes_of(r: Read, notes: list[str]) -> str:
    """The description (prose before the stats) and the notes, one text."""
    parts = [p for p in (r.doc.get("@description"), *notes) if p]
    return "\n".join(parts)


# ---- a system's declared layout ----------------------------------------------------------------

class TextLayout:
    """What a system declares (``System.text_layout``) for plain-text stat blocks of its NPCs:
    whether a block is its own (:meth:`score`), how the block's lines read into its plain
    document (:meth:`read`) and how a document prints as a block (:meth:`write`).

    ``key`` is the system's key (the document's ``system``). A layout built on this module's
    machinery reads with :class:`Walk` and :func:`sectioner` and reports what it could not read
    (``Read.unread``) and what it filled in (``Read.assumed``); the core adds the ``system``
    and ``kind`` keys, the ``Carried:`` line, the notes line and the ``xsys.read`` report."""

    # in the message for a block no layout claims: the stats that make a block this system's
    # ("ST DX IQ HT (GURPS)"); "" leaves the layout out of it (a variant read like its parent)
    stats_hint: str = ""
    # the stats that make a block this system's (its characteristics as printed): the default
    # score counts how many of them the block shows
    stats: tuple[str, ...] = ()
    # the document's field its notes go to, and the heading a written block prints them under
    notes_field: str = "notes"
    notes_label: str = "Notes"
    # the fields of System.sheet_derived a written block states beside the stat block's own (a
    # CoC block's damage bonus, which its '+DB' lines add): text_of prints them on a comment
    # line, which a reader skips (the rules derive them again), so a block xsys writes reads clean
    derived_fields: tuple[str, ...] = ()

    def __init__(self, key: str) -> None:
        self.key = key

    def score(self, lines: list[str]) -> int:
        """How many of this system's own stats the block's raw lines show (``count_stats``):
        the layout with the highest score, three at least, reads a block that has no
        ``system:`` line. Default: how many of ``stats`` the block shows (none declared: 0, and
        only a ``system:`` line picks this layout)."""
        return count_stats("\n".join(normalize(x) for x in lines), self.stats) if self.stats else 0

    def read(self, lines: list[str]) -> Read:
        """The block's raw lines (numbered from 1; ``system:``, comment and ``Carried:`` lines
        are blank or skipped by the :class:`Walk`) -> a :class:`Read` of ``Read(self.key)``
        whose ``doc`` is the document without ``system`` and ``kind``."""
        raise NotImplementedError(f"{self.key}: text layout read")

    def write(self, doc: dict[str, Any]) -> list[str]:
        """A plain document -> the block's lines (the name first), without the notes, which
        the core writes from ``notes_field`` (empty lines are dropped)."""
        raise NotImplementedError(f"{self.key}: text layout write")

    def stand_in(self, stats: dict[str, int]) -> str | None:
        """For :func:`read_lines`: a line of stats the reader reads as these values, already on
        the document's scale, where the format's own reader has them (None: no line)."""
        return None

    def skill_aliases(self) -> dict[str, list[str]]:
        """The other names a printed block may give each native skill (other editions,
        languages): native skill -> aliases as printed. Default: none."""
        return {}


def layouts(registry: Registry | None = None) -> dict[str, TextLayout]:
    """Every installed system's declared layout, by key (a system declaring none is left out;
    so is one whose declaration fails: its blocks cannot be told, which the ``system:`` line's
    message then lists without it)."""
    if registry is None:
        from .registry import default_registry

        registry = default_registry()
    out: dict[str, TextLayout] = {}
    for key in registry.keys():
        try:
            layout = layout_of(registry.system(key), registry)
        except Exception:  # a plugin's failure is its own: the other systems still read
            continue
        if layout is not None:
            out[key] = layout
    return out


def layout_of(system: Any, registry: Registry | None = None) -> TextLayout | None:
    """A system's text layout: its own ``text_layout()``, else the block a format plugin
    registered under the name its ``text_block`` gives (None: neither, or a name no installed
    plugin registers)."""
    own = system.text_layout()
    if own is not None or not system.text_block:
        return own
    if registry is None:
        from .registry import default_registry

        registry = default_registry()
    found = registry.text_blocks().get(system.text_block)
    return found[0](system) if found is not None else None


_SYSTEM_LINE = re.compile(r"^\s*system\s*[:=]\s*([\w-]+)\s*$", re.IGNORECASE)

# the system the user names for files that do not say (``xsys convert --from KEY``), while a file is read
SYSTEM_HINT: "contextvars.ContextVar[str | None]" = contextvars.ContextVar("xsys_text_system_hint", default=None)


@contextlib.contextmanager
def system_hint(key: str | None) -> Iterator[None]:
    """While a file is read: a text block with no ``system:`` line whose stats do not tell its
    system (fewer than three of any layout's) is read as `key`'s, where `key` has a text layout; a
    block whose stats tell is its stats' system (a Call of Cthulhu block tells its edition itself)."""
    token = SYSTEM_HINT.set(key)
    try:
        yield
    finally:
        SYSTEM_HINT.reset(token)


def detect(lines: list[str], found: dict[str, TextLayout]) -> str:
    """Which system a block (raw lines) is for: its ``system:`` line, else the layout that
    scores highest (three stats at least; a tie goes to the first key)."""
    for line in lines:
        m = _SYSTEM_LINE.match(normalize(line))
        if m:
            key = m.group(1).lower()
            if key not in found:
                raise InputError("unknown system in the stat block", path="system:",
                                 expected=", ".join(found), found=repr(m.group(1)))
            return key
    scores = {key: layout.score(lines) for key, layout in found.items()}
    best = max(scores, key=lambda k: scores[k]) if scores else None
    hint = SYSTEM_HINT.get()
    if (best is None or scores[best] < 3) and hint in found:
        return hint  # type: ignore[return-value]  # its stats do not tell, and the user said (--from)
    if best is None or scores[best] < 3:
        # one hint a layout (two systems that share one, coc and coc7, name it once)
        hints = ", ".join(dict.fromkeys(x.stats_hint for x in found.values() if x.stats_hint))
        raise InputError("cannot tell which system this stat block is for", expected=(
            "a 'system: KEY' line (or --from KEY), or the system's stats: " + (hints or "none: no installed system reads text blocks")),
            found=f"{scores[best] if best else 0} of them")
    return best


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


# A page's source pasted or saved as it is (a blog's Markdown with HTML tables, a sheet site's
# HTML): the tags are no text of the block. A table row is its cells apart by spaces, a line
# break is a line; a line of tags alone is none.
_HTML_TAG = re.compile(r"</?(?:div|table|thead|tbody|tr|td|th|h[1-6]|p|br|strong|b|em|i|span|ul|ol|li|a|img|hr)\b[^>]*>",
                       re.IGNORECASE)
# a page's front matter (Jekyll, Hugo): its keys that say nothing of the NPC
_PAGE_KEYS = {"layout", "permalink", "sidebar", "image", "image_alt", "date", "categories", "tags", "excerpt",
              "toc", "author", "header", "classes", "lang", "slug", "draft", "weight", "url", "aliases"}


_DOT_CELL = re.compile(r"^[●•○◯]+\s*(?:\([^()]*\))?\s*(?:[+-]\d+)?$")


def _dot_table_lines(lines: list[str]) -> list[str]:
    """A wiki's dot sheet flattened into pipe-separated cells ('Power | Intelligence | ●●● | Strength |',
    its next line '●●●● | Manipulation |'): each line's cells as items of one line ('Intelligence ●●●,
    Strength ●●●●'), a cell of dots after the name it rates, a label ending in ':' ('Name: |') with the
    value on the next line; lines kept one for one (a line left empty where its cells moved up), so a line
    number in the report is the file's. Only a page with five or more cells of dots is read so; a pipe
    table of anything else (a weapons table) is left as it is."""
    rows = [[c.strip() for c in x.split("|")] if "|" in x else None for x in lines]
    if sum(1 for r in rows if r for c in r if _DOT_CELL.match(c)) < 5:
        return lines
    out: list[list[str]] = []
    for x, cells in zip(lines, rows):
        out.append([])
        for c in (cells if cells is not None else [x.strip()]):
            if not c:
                continue
            # where the cell goes: after the name it rates, or the value of a label before it
            at = out[-1] if out[-1] else next((o for o in reversed(out[:-1]) if o), None)
            if at is not None and (_DOT_CELL.match(c) or at[-1].endswith(":")):
                at[-1] = f"{at[-1]} {c}"
            else:
                out[-1].append(c)
    return [", ".join(o) for o in out]


_BREWERY = re.compile(r"^\s*(?:\{\{[\w-]*(?:[,:][^{}]*)?|\}\}|:{1,3}|\\(?:page|column)(?:break)?)\s*$")


def _page_lines(lines: list[str]) -> list[str]:
    """The block's lines without a page's furniture: a front matter's title as the name line (its
    other keys that describe the NPC as lines of their own, the page's own settings dropped) and
    HTML tags taken out (a table's cells apart by spaces, ``<br>`` a new line). Lines are kept one
    for one where nothing is taken out, so that a line number in the report is the file's."""
    out = list(lines)
    if out and out[0].strip() == "---":
        end = next((k for k in range(1, min(len(out), 80)) if out[k].strip() == "---"), None)
        if end is not None and all(re.match(r"^\s*(?:-\s+)?[\w-]+\s*:|^\s*$|^\s+\S", x) for x in out[1:end]):
            kept: list[str] = []
            titled = False
            for x in out[1:end]:
                m = re.match(r"^\s*(?:-\s+)?([\w-]+)\s*:\s*(.*)$", x)
                if not m or m.group(1).lower() in _PAGE_KEYS or not m.group(2).strip():
                    continue
                value = m.group(2).strip()
                if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                    value = value[1:-1]
                if m.group(1).lower() == "title" and not x[:1].isspace() and not x.lstrip().startswith("-") \
                        and not titled:
                    kept.insert(0, value)  # the page's own title (a sidebar's is a line like the others)
                    titled = True
                else:
                    kept.append(value)
            out = [*kept, *([""] * (end + 1 - len(kept))), *out[end + 1:]] if len(kept) <= end + 1 \
                else [*kept, *out[end + 1:]]
    if any(_BREWERY.match(x) for x in out):
        # a Homebrewery page's markup (the naturalcrit editor many homebrew documents are written in):
        # its blocks' '{{cocStatsBlock' and '}}', a ':' of vertical space, '\\page' and '\\column' are no text
        out = ["" if _BREWERY.match(x) else x for x in out]
    if not any(_HTML_TAG.search(x) for x in out):
        return out
    result: list[str] = []
    for x in out:
        if not _HTML_TAG.search(x):
            result.append(x)
            continue
        x = re.sub(r"</t[dh]>\s*<t[dh]\b[^>]*>", " ", x, flags=re.IGNORECASE)
        parts = re.split(r"<br\s*/?>", x, flags=re.IGNORECASE)
        texts = [html.unescape(_HTML_TAG.sub(" ", p)).strip() for p in parts]
        texts = [re.sub(r"[ \t]+", " ", t) for t in texts if t]
        result.extend(texts or [""])
    return result


def read(text: str, registry: Registry | None = None) -> Read:
    """A block's text -> what its system's layout read (``Read.system``: which system)."""
    lines = _dot_table_lines(_page_lines(text.splitlines()))
    lines, carried, bad = _carried_lines(lines)
    found = layouts(registry)
    system = detect(lines, found)
    r = found[system].read(lines)
    r.unread += bad
    if carried:
        r.doc["carried"] = carried
    return r


# a row of a table of several NPCs' stats: a name, then one number a column ("ZEKE    14  15  11 ...")
_TABLE_ROW = re.compile(r"^\s*\|?\s*(?P<name>[^\W\d_][^\d|]*?)\s*\|?\s+(?P<nums>[+-]?\d+(?:\s*\|?\s*[+-]?\d+)*)\s*\|?\s*$")


def group_table(lines: list[str], found: dict[str, TextLayout]) -> tuple[int, list[str], list[tuple[int, str, list[str]]]] | None:
    """A table of several NPCs' stats, as scenarios print a family or a gang: a header line of stat
    names (three of a layout's stats at least, ``STR CON SIZ POW DEX HP``) and two rows or more below
    it, each a name and one number a column (``ZEKE 14 15 11 12 17 13``). (header line index, its
    names, rows as (line index, name, values)); None where the block has no such table."""
    for h, raw in enumerate(lines):
        names = [t for t in re.split(r"[\s|]+", normalize(raw)) if t]
        if len(names) < 3 or not all(re.fullmatch(r"[^\W\d_]{1,5}", t) for t in names) \
                or max((layout.score([" ".join(f"{t} 10" for t in names)]) for layout in found.values()), default=0) < 3:
            continue  # (the header's names as a layout's stats: a line of them, each with a number, scores 3)
        rows: list[tuple[int, str, list[str]]] = []
        for k in range(h + 1, len(lines)):
            m = _TABLE_ROW.match(normalize(lines[k]))
            values = re.findall(r"[+-]?\d+", m.group("nums")) if m else []
            if m is None or len(values) != len(names):
                break
            rows.append((k, m.group("name").strip(), values))
        if len(rows) >= 2:
            return h, names, rows
    return None


def group_document(text: str, registry: Registry | None = None, fmt: str = "text") -> dict[str, Any] | None:
    """A block whose stats are a table of several NPCs (:func:`group_table`) as a roster: each row
    read as the block with that row's stats as its stat line, its name as the name and the lines
    around the table (the group's title, its weapons and skills) as they are; one read report, each
    line said once (a row's own line with its NPC's name). None where the block has no such table."""
    lines = text.splitlines()
    table = group_table(lines, layouts(registry))
    if table is None:
        return None
    h, names, rows = table
    title = next((i for i in range(h) if lines[i].strip()), None)
    npcs: list[dict[str, Any]] = []
    report: dict[str, Any] = {"format": fmt, "unread": [], "assumed": [
        f"lines {h + 1}-{rows[-1][0] + 1}: a table of {len(rows)} NPCs' stats ({' '.join(names)}): each row an NPC "
        "of this roster, the lines around the table (the title, weapons, skills ...) each one's"]}
    said: set[tuple[Any, ...]] = set()
    assumed: dict[str, list[str]] = {}  # what reading assumed -> the NPCs it was assumed for
    system = None
    for k, name, values in rows:
        own = list(lines)
        for j, _, _ in rows:
            own[j] = ""
        own[k] = " ".join(f"{n} {v}" for n, v in zip(names, values))
        own[h] = name if title is None else lines[title].strip()  # (the group's title: a line under the name)
        if title is not None:
            own[title] = name
        doc = document(read("\n".join(own), registry), fmt)
        got = doc.pop("system")
        if system is not None and got != system:
            return None  # (rows read as different systems: no table of one game's NPCs)
        system = got
        doc.pop("kind", None)
        read_report = doc.pop("xsys", {}).get("read", {})
        for u in read_report.get("unread", ()):
            text_ = f"{name}: {u['text']}" if u.get("line") in (k + 1, h + 1) else u["text"]
            if (u.get("line"), text_) not in said:
                said.add((u.get("line"), text_))
                report["unread"].append({**u, "text": text_})
        for a in read_report.get("assumed", ()):
            assumed.setdefault(a, []).append(name)
        for key in ("reader", "edition"):
            if read_report.get(key):
                report.setdefault(key, read_report[key])
        npcs.append(doc)
    # (said once where it holds for every row, else with the names of the rows it holds for)
    report["assumed"] += [a if len(who) == len(rows) else f"{', '.join(who)}: {a}" for a, who in assumed.items()]
    report = {k: v for k, v in report.items() if v}
    group = lines[title].strip() if title is not None else f"{len(npcs)} NPCs"
    return {"system": system, "kind": "roster", "name": group, "npcs": npcs, "xsys": {"read": report}}


def document(r: Read, fmt: str = "text") -> dict[str, Any]:
    """The native NPC document of a read block, with its ``xsys.read`` report when the reading
    says something (a block that reads clean, as every block xsys writes, has none)."""
    doc = {"system": r.system, "kind": "npc", **r.doc}
    report: dict[str, Any] = {"format": fmt}
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


# ---- writing ---------------------------------------------------------------------------------

CARRIED = "Carried: "  # the line of other systems' system-only data


def num(v: Any) -> str:
    """A number as printed: 15.0 -> '15'."""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def length(v: Any) -> str:
    """'15.0 m' / '15 m' as printed: '15 m'."""
    text = str(v)
    parts = text.split()
    if len(parts) == 2:
        try:
            return f"{num(float(parts[0]))} {parts[1]}"
        except ValueError:
            return text
    return text


def weapons_line(label: str, items: list[str], names: list[str]) -> str:
    """Weapons apart by semicolons; a lone weapon whose name holds a comma ends with one, so
    the reader does not split its name."""
    tail = ";" if len(items) == 1 and any("," in x for x in names) else ""
    return f"{label}: " + "; ".join(items) + tail


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


def _derived(doc: dict[str, Any], key: str, fields: tuple[str, ...],
             registry: Registry | None) -> dict[str, tuple[Any, str]]:
    """The values of `fields` that system `key`'s sheet prints beside the document's own, each
    with its rule (``System.sheet_derived``); {} where the plugin cannot say."""
    import msgspec

    from .codec import dec_hook
    from .registry import default_registry

    try:
        system = (registry or default_registry()).system(key)
        typ = system.npc_type
        own = {k: v for k, v in doc.items() if k in typ.__struct_fields__}
        npc = msgspec.convert(own, typ, dec_hook=dec_hook)
        return {k: v for k, v in system.sheet_derived(npc).items() if k in fields and v[0] is not None}
    except Exception:  # noqa: BLE001 - a plugin that cannot say: the block prints its own fields
        return {}


def text_of(doc: dict[str, Any], registry: Registry | None = None) -> str:
    """A native NPC document (plain data) -> the stat block its system's layout prints.

    A converted document's ``xsys`` block (its loss report and the source it remembers) has
    no place in a printed block: it is summed up in a ``#`` comment line, which the reader
    skips, so what xsys writes it reads back."""
    system, kind = doc.get("system"), doc.get("kind")
    found = layouts(registry) if kind == "npc" else {}
    if kind != "npc" or system not in found:
        raise InputError("a text stat block holds one NPC of a system that declares a text layout"
                         + ("; write a roster as YAML, JSON or TOML (--format yaml, or -o NAME.yaml)" if kind == "roster"
                            else ""), path="$.kind",
                         expected="an npc of " + ", ".join(found or layouts(registry)), found=f"{kind} of {system}")
    layout = found[str(system)]
    lines = _comment(doc.get("xsys"))
    lines += [x for x in layout.write(doc) if x]
    derived = _derived(doc, str(system), layout.derived_fields, registry) if layout.derived_fields else {}
    if derived:
        rules = sorted({rule for _, rule in derived.values()})
        lines.append("# derived: " + ", ".join(f"{k} {v}" for k, (v, _) in derived.items())
                     + f" ({', '.join(rules)})")
    if doc.get("carried"):
        # other systems' system-only data (xsys.core.carried), verbatim: one JSON line the reader takes back
        lines.append(CARRIED + json.dumps(doc["carried"], ensure_ascii=False, separators=(", ", ": ")))
    if doc.get(layout.notes_field):
        text = paragraph(doc[layout.notes_field])
        lines.append(f"{layout.notes_label}: {text}")
    return "\n".join(lines) + "\n"


# ---- a block composed from another format's fields ----------------------------------------------
#
# The helper other format plugins build on (Foundry VTT, CCFOLIA, Dhole's House): they turn each
# field of their input into the line a printed block would have (``STR 12 CON 11``, ``Skills:
# Spot Hidden 55%``, ``Weapons: .38 Revolver, damage 1D10, base range 15 yd``), each with the path
# it came from, and the block is read by the system's layout. So every format shares one set of
# skill names, one catalog lookup and one set of assumed values, and a report entry names the
# source's own path (``$.items[3]``), not a line of a block the user never saw.

Line = tuple[str, str]  # (the line of the block, where in the source it comes from)


def one_line(text: Any) -> str:
    """A source value as text that cannot break the block into lines, with no control characters
    (a page copied from a PDF marks its broken words with one: "non\\x02magical")."""
    return _CONTROL.sub("", re.sub(r"[\r\n\u2028\u2029]+", " ", str(text))).strip()


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def item_text(text: Any) -> str:
    """A name as one item of a composed line (``Skills: A, B``): a comma or semicolon outside
    brackets would split it in two, so it becomes a space."""
    out, depth = [], 0
    for ch in one_line(text):
        depth += ch in "([{"
        depth -= ch in ")]}" and depth > 0
        out.append(" " if ch in ",;" and depth == 0 else ch)
    return re.sub(r"\s+", " ", "".join(out)).strip()


def paragraph(text: Any) -> str:
    """Notes kept line by line (a block's 'age 38' / 'bootlegger' / 'A broad-shouldered ...') as
    one printed paragraph: a line that ends without a stop is followed by '; ', so the lines do
    not run together ('age 38; bootlegger; A broad-shouldered ...')."""
    parts = [p.strip() for p in re.split(r"[\r\n\u2028\u2029]+", str(text)) if p.strip()]
    out = ""
    for part in parts:
        out += part if not out else (" " if out[-1] in ".!?:;,。！？：；、)" else "; ") + part
    return out


def read_lines(lines: list[Line], fmt: str, system: str, assumed: list[str] | None = None,
               unread: list[dict[str, str]] | None = None, stats: dict[str, int] | None = None,
               about: dict[str, str] | None = None, registry: Registry | None = None) -> dict[str, Any]:
    """Read the composed `lines` as a `system` block: a native NPC document (plain data) whose
    ``xsys.read`` report names source paths. `assumed` / `unread`: what the format's own
    reader already reports (its entries come first).

    `stats`: values the format's reader has already read on the document's own scale, set on
    the document as they are: a source that says its own scale is read once, by its own
    reader. The layout's reader is given them only as its :meth:`TextLayout.stand_in` line.
    `about`: keys added to the report as they are (``reader``: which reader and data model
    read it; ``edition``: the edition and why)."""
    stats = dict(stats or {})
    if stats:
        found = layouts(registry)
        stand_in = found[system].stand_in(stats) if system in found else None
        if stand_in:
            lines = [lines[0], (stand_in, "$"), *lines[1:]] if lines else [(stand_in, "$")]
    text_lines = [f"system: {system}"] + [one_line(t) for t, _ in lines]
    origin = {i + 2: path for i, (_, path) in enumerate(lines)}
    r = read("\n".join(text_lines), registry)
    report_unread = list(unread or [])
    for n, text in r.unread:
        report_unread.append({"path": origin.get(n, "$"), "text": text})
    report_assumed = list(assumed or [])
    for text in r.assumed:
        if text.startswith("edition: "):  # a layout's word on a block's edition: the format
            continue                      # reader knows its own (a Foundry actor's are already /5)
        m = re.match(r"^line (\d+): (.*)$", text, re.S)
        report_assumed.append(f"{origin.get(int(m.group(1)), '$')}: {m.group(2)}" if m else text)
    doc: dict[str, Any] = {"system": r.system, "kind": "npc", **r.doc}
    for k, v in stats.items():
        if v is None:
            doc.pop(k, None)
        else:
            doc[k] = v
    report: dict[str, Any] = {"format": fmt, **(about or {})}
    if report_unread:
        report["unread"] = report_unread
    if report_assumed:
        report["assumed"] = report_assumed
    if r.unknown:
        report["unknown"] = [{"path": origin.get(n, "$"), "text": name, "closest": close}
                             for n, name, close in r.unknown]
    if len(report) > 1:
        doc["xsys"] = {"read": report}
    return doc


# A distance as sheets write it: "15", "15ft", "20 yards", "100m", "10/20/50 yards" (a
# shotgun's bands: the first is the base range)
_DISTANCE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?:/\s*\d+(?:\.\d+)?\s*)*([^\d\s/][^\d/]*)?\s*$")
DISTANCE_UNITS = {"yd": "yd", "yds": "yd", "yard": "yd", "yards": "yd", "y": "yd", "m": "m", "metre": "m",
                  "metres": "m", "meter": "m", "meters": "m", "ft": "ft", "feet": "ft", "foot": "ft", "'": "ft"}


def distance(value: Any) -> tuple[int | float, str | None] | None:
    """A range as a sheet writes it -> (number, unit: 'yd' | 'm' | 'ft', or None when the text
    names no unit); None when it is not a distance ('STR/5 yards', 'touch')."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        number: float = float(value)
        unit = None
    else:
        m = _DISTANCE.match(str(value))
        if m is None:
            return None
        number = float(m.group(1))
        word = (m.group(2) or "").strip().lower().rstrip(".")
        if word and word not in DISTANCE_UNITS:
            return None
        unit = DISTANCE_UNITS.get(word)
    if not math.isfinite(number) or number < 0:
        return None
    return (int(number) if number.is_integer() else number), unit
