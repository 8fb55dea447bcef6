"""New World of Darkness stat blocks as printed text: the nwod system's declared text layout
(``NwodSystem.text_layout``): the World of Darkness Rulebook's block (attributes, skills with
specialties, merits, the Weapons/Attacks table with its dice pools). The shared line machinery
is the core's (xsys.core.textblock).
"""

from __future__ import annotations

import re
from typing import Any

from xsys.core.model import melee_class_of
from xsys.core.textblock import (Read, TextLayout, Walk, armor_entry, catalog_label, catalog_tag, fold, heading_of,
                                 name_of as _name, named, named_item, notes_of as _notes, num, sectioner, split_items,
                                 stat_pairs, weapon_class_by_name, weapon_entry, weapon_items, weapons_line)

NWOD_ATTRIBUTES = ("Intelligence", "Wits", "Resolve", "Strength", "Dexterity", "Stamina", "Presence",
                   "Manipulation", "Composure")
NWOD_DERIVED = ("Size", "Health", "Willpower", "Defense", "Speed", "Initiative")
NWOD_IGNORED = ("Morality", "Virtue", "Vice", "Armor")
# the 2004 rulebook's skills (a block may list them one a line, with no Skills heading: "Academics: 3")
NWOD_SKILLS = ("Academics", "Computer", "Crafts", "Investigation", "Medicine", "Occult", "Politics", "Science",
               "Athletics", "Brawl", "Drive", "Firearms", "Larceny", "Stealth", "Survival", "Weaponry",
               "Animal Ken", "Empathy", "Expression", "Intimidation", "Persuasion", "Socialize", "Streetwise",
               "Subterfuge")
# (a sheet's mark before it, '2 Stealth ●●●', and its specialty in words after its name, 'Academics religion ●●',
# said and read)
_SKILL_LINE = re.compile(r"^(?:(?P<mark>\d)\s+)?(?P<name>" + "|".join(NWOD_SKILLS) + r"|Socialise)"
                         r"(?:\s+(?P<words>[^\W\d][^\d:()•●]*?))?(?:\s*\((?P<before>[^()]+)\))?\s*:?\s*(?P<val>\d|[•●]{1,5})"
                         r"(?P<spec>(?:\s*,?\s*\([^()]*\))*)\s*$", re.IGNORECASE)
_SKILL_FOLDS = frozenset(fold(k) for k in NWOD_SKILLS)
# the attributes as players abbreviate them ("Int 2, Wits 3, Res 2 / Str 2, Dex 4, Sta 2 / Pre 2,
# Man 2, Com 3"), written with their capital only (a CoC block's STR 60 is no nWoD Strength)
NWOD_SHORT = {"Int": "Intelligence", "Wit": "Wits", "Res": "Resolve", "Str": "Strength", "Dex": "Dexterity",
              "Sta": "Stamina", "Stam": "Stamina", "Pre": "Presence", "Pres": "Presence", "Man": "Manipulation",
              "Manip": "Manipulation", "Com": "Composure", "Comp": "Composure"}

# a sheet template's attributes in capitals, their dots after a colon ('POW STR: ●●●○○ INT: ●○○○○ PRE: ●●●○○'): only
# with dots, which no Call of Cthulhu block prints (its STR 60, INT 70 are numbers)
_CAPITALS = {"STR": "Strength", "DEX": "Dexterity", "STA": "Stamina", "INT": "Intelligence", "WIT": "Wits",
             "WITS": "Wits", "RSV": "Resolve", "RES": "Resolve", "PRE": "Presence", "MAN": "Manipulation",
             "CMP": "Composure", "COM": "Composure"}
_DOTTED_CAPITAL = re.compile(r"(?<![\w])(" + "|".join(sorted(_CAPITALS, key=len, reverse=True))
                             + r")\s*:\s*([•●]*[○◯]*)(?=\s|$)")
# the same template's skills, four letters each, in a grid ('Acad: 0 Athl: 2 AnKn: 1'): in such a grid 'Comp' is
# Computer (the abbreviations players write for attributes, NWOD_SHORT, have it as Composure)
_SKILL_ABBREVIATIONS = {"Acad": "Academics", "Comp": "Computer", "Crft": "Crafts", "Invs": "Investigation",
                        "Medc": "Medicine", "Occl": "Occult", "Poli": "Politics", "Scnc": "Science",
                        "Athl": "Athletics", "Brwl": "Brawl", "Drve": "Drive", "Fire": "Firearms", "Larc": "Larceny",
                        "Stlt": "Stealth", "Surv": "Survival", "Weap": "Weaponry", "AnKn": "Animal Ken",
                        "Empt": "Empathy", "Expr": "Expression", "Intm": "Intimidation", "Pers": "Persuasion",
                        "Socl": "Socialize", "Stws": "Streetwise", "Subt": "Subterfuge"}
_ABBREVIATED_SKILL = re.compile(r"(?<![\w])(" + "|".join(_SKILL_ABBREVIATIONS) + r")\s*:\s*(\d)(?![\w])")


def _capitals(line: str) -> str:
    """A template's dotted capitals as the attributes they stand for ('STR: ●●●○○' -> 'Strength 3')."""
    return _DOTTED_CAPITAL.sub(lambda m: f"{_CAPITALS[m.group(1)]} {sum(c in '•●' for c in m.group(2))}", line)


# The World of Darkness Rulebook's "Weapons/Attacks:" table, Virtue and Vice lines, and the powers
# of supernatural templates, which an nwod document has no place for: headings only nWoD blocks print.
NWOD_HEADINGS: dict[str, str] = {
    **{fold(h): "weapons" for h in ("weapons/attacks", "weapons / attacks", "attacks", "combat")},
    **{fold(h): "equipment" for h in ("equipment", "gear", "possessions")},
    "virtue": "virtue", "vice": "vice",
    # the rulebooks (and Chronicles of Darkness) list traits by category: "Mental Skills: Academics 3, ..."
    **{fold(f"{c} {t}"): kind for c in ("mental", "physical", "social")
       for t, kind in (("skills", "skills"), ("attributes", "attributes"))},
    **{fold(h): "powers" for h in ("disciplines", "discipline", "powers", "dread powers", "numina", "influences",
                                   "arcana", "rotes", "gifts", "rites", "devotions", "contracts", "manifestations",
                                   "banes", "bans", "aspirations", "conditions")},
}


# What a Chronicles of Darkness (2nd edition) weapon rating is in the 2004 charts nwod plays
# (assumed, README): the two editions' charts rate every weapon both print one apart, the 2004 one
# higher (a light pistol 1 / 2, a rifle 4 / 5, a knife 0 / 1); bare hands are no weapon in either (0)
SECOND_EDITION_STEP = 1
_BARE_HANDS = re.compile(r"^(?:fists?|punch(?:es)?|kicks?|unarmed(?: strike)?|brawl(?:ing)?|head ?butt)$", re.IGNORECASE)
# what only a 2nd-edition block prints: its morality is Integrity, and Aspirations, Conditions and Beats
_SECOND_EDITION_LINE = re.compile(r"^\W*(?:integrity|aspirations?|conditions?|beats)\W*\s*[:：]", re.IGNORECASE)


def second_edition_rating(name: str, rating: int) -> int:
    """A 2nd-edition weapon's damage rating as the 2004 chart rates that weapon."""
    return rating if rating == 0 and _BARE_HANDS.match(name.strip()) else rating + SECOND_EDITION_STEP


# 'Drive (Pursuit) 2' and the rulebook's 'Firearms 3 (Pistol)': the specialty before or after
_NWOD_SKILL = re.compile(r"^(?P<name>[^\d(•●]+?)\s*(?:\((?P<spec>[^)]*)\))?\s*(?P<val>\d|[•●]{1,5})"
                         r"\s*(?:\((?P<spec2>[^)]*)\))?$")
# 'Glock 17 (Pistol, Lt.) damage 2, ranges 20/40/80, clip 17+1, dice pool 7': a weapon line
# written inline (its chart type in brackets, then its traits), wherever it stands
# an attack whose traits start with its damage and type: Chronicles of Darkness books' 'Knife 1L, 7 dice',
# a forum's 'Sawed-off: 4L, 20/40/80, clip 2, 7 dice'
_NWOD_LISTED = re.compile(r"(?P<name>[^:();,]+?(?:\s*\([^()]*\))?)\s*(?::\s*|\s+)(?P<rest>\d+\s*[LBA]\b[^;]*)")
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


# a heading or a derived trait's label inside a line (a block copied without its line breaks)
_RUN_ON = re.compile(r"(?<![\w(/-])(?:Virtue|Vice|(?:Mental|Physical|Social) (?:Attributes|Skills)|Merits|Flaws|Health|"
                     r"Willpower|Morality|Integrity|Size|Speed|Defense|Initiative|Armor|Weapons\s*/\s*Attacks|"
                     r"Equipment|Conditions|Aspirations)\s*:", re.IGNORECASE)


def _comment(spec: str) -> bool:
    """A skill's bracket that is a remark, not a specialty: a sentence (five words or more, a '?', '!' or an
    ellipsis) or a pointer ('see above', 'as above'); specialties are a word or a few ('Research', 'Auto
    Repair', 'Pistols, Rifles')."""
    t = spec.strip()
    return bool(re.search(r"[?!]|\.\.|…", t) or re.match(r"(?i)(?:see|as)\s+(?:above|below|\w+)\b", t)
                or any(len(part.split()) >= 5 for part in re.split(r"[,/]", t)))


def _dots(text: str) -> int:
    return len(text) if text[0] in "•●" else int(text)


# a sheet's boxes, filled then empty, a track of ten in two fives ('Health ●●●●● . ●●○○○', 'Crafts ○○○○○')
_BOXES = re.compile(r"(?<![•●○◯])(?:[•●]*[○◯]+|[•●]+(?=\s*\.\s*[•●○◯]))(?:\s*\.\s*[•●]*[○◯]*)?(?![•●○◯])"
                    r"(?!\s*\(\d+\))")  # (not a forum's 'Health ○○○○○○○○○○ (10)': its boxes, then their count)


def _boxes(line: str) -> str:
    """A sheet's line with its boxes as the number of those filled ('Health ●●●●● . ●●○○○' -> 'Health 7'); a
    line of empty boxes alone (the Health track's damage row) is no text."""
    if re.fullmatch(r"[\s○◯.]*[○◯][\s○◯.]*", line):
        return ""
    return _BOXES.sub(lambda m: str(sum(m.group(0).count(c) for c in "•●")), line)


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


# weapon traits GMs write without their label: damage with its type ('2L'; bashing and
# aggravated are said), the three ranges, the clip and one chambered
_BARE_TRAITS = ((re.compile(r"^(\d+)\s*([LBA])$", re.IGNORECASE), "damage"),
                (re.compile(r"^\d+\s*/\s*\d+\s*/\s*\d+\s*(?:yd|yds|yards|m)?$", re.IGNORECASE), "ranges"),
                (re.compile(r"^\d+\s*\+\s*1$"), "clip"))

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
        grid = _ABBREVIATED_SKILL.findall(line)
        if len(grid) >= 2 and not _ABBREVIATED_SKILL.sub("", line).strip(" ,;|"):
            # a template's skill grid in four-letter abbreviations ('Comp: 0 Brwl: 4 Empt: 1'): each skill at its
            # dots, a 0 untrained (as every skill the block leaves out)
            for abbreviation, value in grid:
                if int(value):
                    skill_item(f"{_SKILL_ABBREVIATIONS[abbreviation]} {value}", skills, r.line)
            return ""
        parts = [x.strip() for x in re.split(r"[,;]\s+(?![^()]*\))", line.strip()) if x.strip()]
        rated = [x for x in parts if _SKILL_LINE.match(x)]
        if len(parts) >= 2 and rated and (len(rated) >= 2 or all(x in rated or fold(x) in _SKILL_FOLDS for x in parts)):
            # a wiki table's row of skills, no Skills heading ('Athletics ●●, Animal Ken ●'): each read as a line of
            # its own; a skill named with no dots is untrained (0, as every skill the block leaves out)
            for x in parts:
                if x in rated:
                    stats(x)
                elif fold(x) not in _SKILL_FOLDS:
                    r.unread.append((r.line, x))
            return ""
        one = _SKILL_LINE.match(line.strip())
        if one:  # 'Academics: 3 (Psychoanalysis), (Psychology)': a skill a line, no Skills heading
            name = next(k for k in NWOD_SKILLS if fold(k) == fold(one["name"]).replace("socialise", "socialize"))
            before = (one["before"] or "").strip()
            if re.fullmatch(r"[A-Z]", before):  # a sheet's mark ('Larceny (A)': a werewolf's asset skill)
                r.unread.append((r.line, f"({before}) (a mark after {name})"))
                before = ""
            specs = ", ".join([*([one["words"].strip()] if one["words"] else []),
                               *([before] if before else []),
                               *(x.strip() for x in re.findall(r"\(([^()]*)\)", one["spec"]) if x.strip())])
            if one["mark"]:
                r.unread.append((r.line, f"{one['mark']} (a mark before {name})"))
            if _dots(one["val"]):  # (0: untrained, as every skill the block leaves out)
                skill_item(f"{name}" + (f" ({specs})" if specs else "") + f" {one['val']}", skills, r.line)
            return ""
        if _NWOD_INLINE.match(line):  # a weapon line outside any heading: its 'strength 2' is the gun's
            weapon_item(line, r.line)
            return ""
        # an item's traits in brackets ('Tire iron (1L, Str 2, Size 2)' on a line of no heading) are the
        # item's, not the character's Strength and Size
        line = re.sub(r"\([^()]*,[^()]*\)", " ", line)
        # a forum's 'Health ○○○○○○○○○○ (10)' (its boxes, then their count) and 'Def 2 Init 4' (abbreviated)
        line = re.sub(r"\b(Health|Willpower)\s*[○◯□☐●•]+\s*\((\d+)\)", r"\1 \2", line)
        # a blog's derived trait with its formula in brackets ('Initiative (Dex + Comp) : 4'): the trait's value
        # (the formula's Comp had become Composure 4)
        line = re.sub(r"\b(Health|Willpower|Speed|Initiative|Defense|Size)\s*\([^()]*\)(?=\s*:?\s*\d)", r"\1", line)
        # a wiki sheet's trait worked out ('Health: 2[Sta] + 5 = 7', 'Defense: 3[Wits]'): its total, not its first term
        line = re.sub(r"\b(Health|Willpower|Speed|Initiative|Defense|Size)(\s*:?\s*)\d+\s*\[[A-Za-z]+\][\d\s\[\]A-Za-z+]*?="
                      r"\s*(\d+)", r"\1\2\3", line)
        line = re.sub(r"\b(Health|Willpower|Speed|Initiative|Defense|Size)(\s*:?\s*\d+)\s*\[[A-Za-z]+\](?!\s*[+=])",
                      r"\1\2", line)
        line = re.sub(r"\bDef\b(?=\s*:?\s*\d)", "Defense", line)
        line = re.sub(r"\bInit\b(?=\s*:?\s*[+-]?\d)", "Initiative", line)
        # (Willpower and Health in dots run past five: 'Willpower ●●●●●●●')
        found, rest = stat_pairs(line, NWOD_ATTRIBUTES + NWOD_DERIVED + NWOD_IGNORED, r"\d+|[•●]{1,10}")
        short = [k for k in NWOD_SHORT if re.search(rf"(?<!\w){k}\s*:?\s*(?:\d|[•●])", rest)]
        if short:  # case-sensitive: only the abbreviation as players write it
            more, rest = stat_pairs(rest, tuple(short), r"\d|[•●]{1,5}")
            found.update({NWOD_SHORT[k]: v for k, v in more.items()})
        if not found:
            return None
        for k, v in found.items():
            if k not in NWOD_IGNORED:
                doc[k] = _dots(v)
            else:
                r.unread.append((r.line, f"{k} {v} (no {k} field in an nwod document)"))
        # a list's mark and the attributes' category before them ('- Physical: Strength 2, ...'): no value
        return re.sub(r"^[-*•]?\s*(?:mental|physical|social)(?:\s+attributes)?\s*:\s*", "", rest, flags=re.IGNORECASE)

    def skill_item(item: str, into: dict[str, int], n: int) -> bool:
        starred = re.fullmatch(r"(.+?)\s*\(([*•●]{1,5})\)", item.strip()) if into is merits else None
        if starred:  # 'Resources (***)': a merit's dots as stars in brackets
            item = f"{starred.group(1)} {len(starred.group(2))}"
        m = _NWOD_SKILL.match(item)
        if not m and into is merits and re.fullmatch(r"[A-Za-z][\w' -]*(?:\s*\([^()]+\))?", item.strip()):
            # a merit with no dots stated ('Quick Draw (Pistols)', as books print the one-dot ones)
            into[item.strip()] = 1
            r.assumed.append(f"line {n}: merit {item.strip()}: no dots stated, read as 1")
            return True
        if not m and into is skills:
            mark = re.fullmatch(r"(\d)\s+([A-Z][^\d•●]*?)\s*(\d|[•●]{1,5})", item.strip())
            if mark:  # a sheet's mark before a skill ('1 Occult rituals ●●●●●'): said, the skill read
                r.unread.append((n, f"{mark.group(1)} (a mark before {mark.group(2).strip()})"))
                m = _NWOD_SKILL.match(f"{mark.group(2).strip()} {mark.group(3)}")
        if not m:
            return False
        name = m.group("name").strip()
        words = re.fullmatch(rf"({'|'.join(NWOD_SKILLS)})\s+([^\W\d][^()]*)", name, re.IGNORECASE) \
            if into is skills and name not in NWOD_SKILLS else None
        if words:  # a sheet's specialty written after its skill's name ('Academics religion ●●○○○')
            name = next(k for k in NWOD_SKILLS if fold(k) == fold(words.group(1)))
        into[name] = _dots(m.group("val"))
        spec = ", ".join(s for s in (m.group("spec"), m.group("spec2"), words.group(2) if words else None) if s)
        if spec and into is skills and _comment(spec):
            # a player's remark in brackets after the dots ('Academics 3 (eh....duh?)', 'Stealth 2 (life on the
            # streets makes you good at staying out of sight ...)'): no specialty, said
            r.unread.append((n, f"{name} ({spec.strip()}): a remark, not a specialty"))
        elif spec and into is skills:
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
                # unlabelled, as GMs write a weapon: '2L' (damage, lethal), '20/40/80' (ranges), '17+1' (clip)
                bare = next(((m, field) for pat, field in _BARE_TRAITS for m in [pat.match(p)]
                             if m and field not in w), None)
                if bare:
                    m, field = bare
                    said = p if field != "damage" else m.group(1) + (
                        "" if m.group(2).upper() == "L" else f" ({m.group(2).upper()})")
                    traits(w, [f"{field} {said}"], left, nofield, n)
                    continue
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
            if "ranges" not in w and entry.weapon_class != "thrown":
                # a catalog gun whose line states no ranges is still a gun (an nWoD weapon with no
                # ranges is a close-combat one): its chart line's, said
                from xsys.core.catalog import strip_entry

                from .rules import CHART, chart_type_for

                line = chart_type_for(strip_entry(entry))
                if line in CHART and CHART[line].get("ranges"):
                    w["ranges"] = [f"{x} yd" for x in CHART[line]["ranges"]]
                    r.assumed.append(f"line {n}: {w['name']}: no ranges in the block; catalog weapon {entry.id} "
                                     f"fires as the chart's {line}: {'/'.join(str(x) for x in CHART[line]['ranges'])} "
                                     "yd (nwod.range)")
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
        listed = _NWOD_LISTED.fullmatch(clean.strip().rstrip("."))
        if listed:  # 'Knife 1L, 7 dice', 'Sawed-off: 4L, 20/40/80, clip 2, 7 dice': the weapon and its traits
            rest = re.sub(r"\b(\d+)\s*dice\b", r"Dice Pool \1", listed["rest"], flags=re.IGNORECASE)
            clean = item = f"{listed['name'].strip()} ({rest})"
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
        remark = re.fullmatch(r"(?:none|no armou?r)\s*[(,;:—–-]\s*(.+?)\)?", item.strip(), re.IGNORECASE)
        if remark:  # 'none (just a grimy raincoat)': no armor, and what the block says of it, a note
            notes.append(f"Armor: {item.strip()}")
            return
        m = re.match(r"^(?P<name>.+?)\s*\(?\s*(?P<g>\d+)\s*/\s*(?P<b>\d+)\s*\)?$", item) \
            or re.match(r"^(?P<g>\d+)\s*/\s*(?P<b>\d+)\s*\((?P<name>[^()]+)\)$", item)  # '1/3 (Kevlar vest, thin)'
        if not m:
            r.unread.append((n, item))
            return
        a: dict[str, Any] = {"name": m.group("name").strip().rstrip(":"), "general": int(m.group("g")),
                             "ballistic": int(m.group("b"))}
        entry = armor_entry(cid, a["name"])
        if entry is not None:
            a["catalog"] = entry.id
        armor.append(a)

    def said(kind: str, why: str, one: bool = False) -> Callable[[str, int], None]:
        first: list[int] = []

        def add(item: str, n: int) -> None:
            if fold(item.strip(" .")) in _NO_VALUE or fold(item.strip(" .")) == "none":  # 'Conditions: none'
                return
            if one and (re.match(r"^[^:]{2,30}:", item) or (first and n != first[0])):
                # a Virtue or Vice is one word: a labelled line or another line after it is the sheet's
                # next field ('Seeming: Darkling', 'Vital Characteristics'), said as written, not as a Vice
                r.unread.append((n, item))
                return
            first.append(n)
            r.unread.append((n, f"{kind} {item} ({why})"))
        return add

    personal = "a trait of the character's that changes no roll in a fight: no field for it in an nwod document"

    section = sectioner(r, notes, stats, {
        "skills": lambda item, n: skill_item(item, skills, n), "merits": lambda item, n: skill_item(item, merits, n),
        "weapons": weapon_item, "armor": armor_item, "equipment": equipment_item,
        "virtue": said("Virtue", personal, one=True), "vice": said("Vice", personal, one=True),
        "powers": said("power or trait", "supernatural or 2nd-edition: no place in an nwod document")},
        # a weapons table row has no commas; a weapon line runs on with commas, one weapon a line
        lambda kind, text: [text.strip()] if kind == "weapons" and (
            _NWOD_INLINE.match(text.strip()) or _NWOD_LISTED.fullmatch(text.strip().rstrip(".")) or table
            or _nwod_header(text.strip())) else (
            weapon_items(text) if kind in ("weapons", "armor") else split_items(text)))

    def run_on(kind: str, text: str, n: int) -> None:
        """A section whose line runs on into the next ones (a block copied without its line breaks:
        'Virtue: Hopeful Vice: Obsessive Mental Attributes: Intelligence 3, ... Merits: ... Health: 6
        Willpower: 5'): each part read under its own heading, a derived trait's as stats."""
        m = _RUN_ON.search(text, 1)
        if m is None:
            section(kind, text, n)
            return
        if text[:m.start()].strip(" ,;."):
            section(kind, text[:m.start()].strip(" ,;"), n)
        rest = text[m.start():]
        head = heading_of(rest, NWOD_HEADINGS)
        if head is not None:
            run_on(head[0], head[1], n)
            return
        nxt = _RUN_ON.search(rest, m.end() - m.start())
        part, after = (rest[:nxt.start()], rest[nxt.start():]) if nxt else (rest, "")
        r.line = n
        left = stats(part)
        if left is None or left.strip(" ,;."):
            r.unread.append((n, part.strip() if left is None else f"{part.strip()} (not read: {left.strip()})"))
        if after:
            head = heading_of(after, NWOD_HEADINGS)
            if head is not None:
                run_on(head[0], head[1], n)
            else:
                run_on("derived", after, n)

    walked = [_boxes(_capitals(x)) for x in lines]
    for i, x in enumerate(walked):
        at = _RUN_ON.search(x)
        head = re.search(r"(?:Mental|Physical|Social) (?:Attributes|Skills)\s*:", x, re.IGNORECASE)
        if at is not None and head is not None and at.start() > 0 and re.search(r"[.!?]\s*$", x[:at.start()]):
            # a book's block whose line breaks were lost, after a sentence ('Sarah appears in the Tale: ... (p. 205).
            # Virtue: Hopeful Vice: ... Mental Attributes: ...'): the sentence is notes, the rest the block (its
            # skills and merits had all been unread)
            notes.append(x[:at.start()].strip())
            walked[i] = x[at.start():]
    Walk(r, walked, NWOD_HEADINGS).run(stats, run_on)
    if re.fullmatch(r"(?i)(?:mental|physical|social)(?:\s+(?:mental|physical|social)){1,2}", r.doc.get("@name", "")):
        # the attribute grid's header row ('Mental Physical Social') above it: no name
        r.unread.append((r.doc.pop("@name_line", 1), f"{r.doc.pop('@name')} (the attributes' categories: no name)"))
    marked = next((n for n, x in enumerate(lines, 1) if _SECOND_EDITION_LINE.match(x)), None)
    second = _nwod_pools(r, doc, skills, specialties, pools)
    if second or marked is not None:
        # a 2nd-edition block's weapons at the 2004 chart's rating of each (as the Foundry mta reader
        # writes them: one weapon, one damage line whatever the path)
        for w in weapons:
            if "damage" in w and (now := second_edition_rating(w["name"], int(w["damage"]))) != w["damage"]:
                r.assumed.append(f"{w['name']}: 2nd-edition Damage {w['damage']} is written as the 2004 chart's {now} "
                                 "(the charts rate each weapon both print one apart: a light pistol 1 and 2)")
                w["damage"] = now
    # a Defense by 2nd edition's rule (Athletics added to the lower of Wits and Dexterity; the 2004 rules add
    # nothing, nwod.derived): the stated Defense is the NPC's dodge, so it is read as the 2004 rules give it
    wits, dex, athletics = doc.get("Wits"), doc.get("Dexterity"), skills.get("Athletics", 0)
    if isinstance(wits, int) and isinstance(dex, int) and isinstance(athletics, int) and athletics > 0 \
            and doc.get("Defense") == min(wits, dex) + athletics:
        r.assumed.append(f"Defense {doc['Defense']} is 2nd edition's (the lower of Wits {wits} and Dexterity {dex}, "
                         f"+ Athletics {athletics}); the 2004 rules give {min(wits, dex)}: read as {min(wits, dex)}")
        doc["Defense"] = min(wits, dex)
    r.edition = "2004 rules (World of Darkness Rulebook: weapon damage adds dice to the pool)" + (
        "; the stated dice pools leave the damage out, as Chronicles of Darkness (2nd edition) does: read with "
        "the 2004 rules" if second else f"; line {marked} is 2nd edition's (Chronicles of Darkness): read with the "
        "2004 rules" if marked is not None else "")
    out: dict[str, Any] = {"name": _name(r)}
    out.update({k: doc[k] for k in NWOD_ATTRIBUTES if k in doc})
    out["skills"] = skills
    if specialties:
        out["specialties"] = specialties
    if merits:
        out["merits"] = merits
    out.update({k: doc[k] for k in NWOD_DERIVED if k in doc})
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
        # a thrown weapon (its type, or its name: 'Molotov cocktail (thrown)'): Dexterity + Athletics, as a shot with it
        thrown = fold(str(w.get("type", ""))) == "thrown" or weapon_class_by_name(w["name"]) == "thrown"
        attr = "Dexterity" if ranged or thrown else "Strength"
        skill = "Athletics" if thrown else "Firearms" if ranged else ("Brawl" if brawl else "Weaponry")
        rule = "nwod.firearms.pool" if ranged or thrown else "nwod.pool"
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
            now = second_edition_rating(w["name"], damage)  # the 2004 chart's rating of the weapon
            r.unread.append((n, f"{w['name']}: stated dice pool {stated} leaves the weapon's damage {damage} out, as "
                                f"Chronicles of Darkness (2nd edition) does (damage adds to the successes); nwod "
                                f"(2004) rolls {how.rsplit(' + damage', 1)[0]} + damage {now} (the 2004 chart's) = "
                                f"{base + now} ({rule})"))
        else:
            r.unread.append((n, f"{w['name']}: stated dice pool {stated} disagrees with the rules: {how} = {pool} "
                                f"({rule}); the stated pool is not carried (a power or merit the block does not show "
                                "may add dice)"))
    return second



# ---- writing --------------------------------------------------------------------------------

def _yards(ranges: list[Any]) -> str:
    """nWoD ranges, printed in yards as short/medium/long."""
    from xsys.core.units import Length, parse

    vals = [parse(x, Length) if isinstance(x, str) else x for x in ranges]
    return "/".join(num(round(float(v.to("yd")))) for v in vals) + " yd"


def write_nwod(d: dict[str, Any]) -> list[str]:
    out = [str(d.get("name", ""))]
    out.append("Attributes: " + ", ".join(f"{k} {d.get(k, 2)}" for k in NWOD_ATTRIBUTES))
    if d.get("skills"):
        spec = d.get("specialties") or {}
        out.append("Skills: " + ", ".join(
            f"{k}" + (f" ({', '.join(spec[k])})" if spec.get(k) else "") + f" {v}" for k, v in d["skills"].items()))
    if d.get("merits"):
        out.append("Merits: " + ", ".join(f"{k} {v}" for k, v in d["merits"].items()))
    out.append(", ".join(f"{k} {d[k]}" for k in NWOD_DERIVED if d.get(k) is not None) or f"Size {d.get('Size', 5)}")
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
            items.append(f"{w['name']}{catalog_label(w, 'catalog', 'weapon')} ({', '.join(parts)})")
        out.append(weapons_line("Weapons", items, [w["name"] for w in d["weapons"]]))
    if d.get("armor"):
        out.append("Armor: " + "; ".join(f"{a['name']}{catalog_label(a, 'catalog', 'armor')} "
                                         f"{a.get('general', 0)}/{a.get('ballistic', 0)}" for a in d["armor"]))
    return out




# ---- the declared layout -----------------------------------------------------------------------

class NwodText(TextLayout):
    """The nwod system's text stat block (``NwodSystem.text_layout``)."""

    stats_hint = "Intelligence Wits ... (nWoD)"
    stats = NWOD_ATTRIBUTES + tuple(k for k in NWOD_SHORT if k != "Wit")

    def score(self, lines: list[str]) -> int:
        """Its stats as the base layout counts them, and a template's attributes in capitals with their dots
        ('STR: ●●●○○'), which a Call of Cthulhu block's 'STR 60' does not have."""
        return super().score(lines) + sum(len(_DOTTED_CAPITAL.findall(x)) for x in lines)

    def read(self, lines: list[str]) -> Read:
        return read_nwod(lines, self.key)

    def write(self, doc: dict[str, Any]) -> list[str]:
        return write_nwod(doc)
