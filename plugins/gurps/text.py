"""GURPS stat blocks as printed text: the gurps system's declared text layout
(``GurpsSystem.text_layout``). Reads 3rd-edition blocks and converts 4th-edition ones (told
from the block: point costs, Per/Will, the damage types), writes the Basic Set's block. The
shared line machinery is the core's (xsys.core.textblock).
"""

from __future__ import annotations

import re
from typing import Any, Callable

from xsys.core.model import melee_class_of
from xsys.core.textblock import (Read, TextLayout, Walk, armor_entry, catalog_label, catalog_tag, fold, heading_of,
                                 name_of as _name, named, named_item, normalize, notes_of as _notes, sectioner, split_items,
                                 stat_pairs, weapon_class_by_name, weapon_entry, weapon_items, weapons_line)

from .rules import MELEE_WIELDED_WITH, SKILLS as _SKILLS, size_gain  # the skills a gurps document maps
_SKILLS_FOLDED = {k.lower(): k for k in _SKILLS}  # a skill's name as written in lower case -> its name
from .rules import _toml

GURPS_ATTRIBUTES = ("ST", "DX", "IQ", "HT")
GURPS_DERIVED = ("HP", "Will", "Per", "Move", "Dodge")
GURPS_IGNORED = ("FP", "Speed", "Basic Speed", "Basic Move", "Parry", "Block", "SM", "DR", "PD", "Size",
                 "Size Modifier", "Technology Level", "TL", "Points Total", "Point Total", "Total")

# Headings only GURPS and nWoD blocks print (read by those readers alone, so a CoC block's
# "Gear:" line stays what it always was): the fan-site "Gear:" line that holds the weapons
# with their Basic Set stats, 3e "Maneuvers:" (skill-like, Kicking-13), "Quirks:" (-1 point
# disadvantages); the World of Darkness Rulebook's "Weapons/Attacks:" table, Virtue and Vice
# lines, and the powers of supernatural templates, which an nwod document has no place for.
GURPS_HEADINGS: dict[str, str] = {
    **{fold(h): "gear" for h in ("gear", "equipment", "possessions", "weapons and gear", "weapons & gear")},
    **{fold(h): "maneuvers" for h in ("maneuvers", "techniques", "maneuvers/techniques")},
    **{fold(h): "disadvantages" for h in ("quirks",)},
    # as players abbreviate them ('Adv: combat reflexes ...', 'Disad: stubborn ...')
    **{fold(h): "advantages" for h in ("adv", "advs", "advantages and perks")},
    **{fold(h): "disadvantages" for h in ("disad", "disads", "disadv", "disadvs", "disadvantages and quirks")},
    # 4th-edition sheets' social traits, no combat statistic: 'Languages: Goebleen (Native)', 'Wealth: Average'
    **{fold(h): "social" for h in ("languages", "language", "wealth", "status", "cultural familiarity",
                                   "cultural familiarities", "reputation")},
    # 4th-edition books: 'Traits: Combat Reflexes; Bad Temper'; a forum post's 'Advantages & Disadvantages' heading
    **{fold(h): "traits" for h in ("traits", "advantages & disadvantages", "advantages and disadvantages",
                                   "advantages/disadvantages")},  # (each trait told apart as under 'Traits')
    **{fold(h): "weapons" for h in ("weapons/attacks", "weapon", "attacks", "ranged weapons", "ranged attacks")},
    # a 3rd-edition bestiary's attacks by their damage ('Damage: 3 clubs (9d+1), bite (3d)')
    "damage": "weapons",
    **{fold(h): "melee" for h in ("melee", "melee attacks", "melee weapons")},
    # a bestiary's creature class, type and habitat ('Class: Dire Animal.', 'Creature Type: Animal.'): no combat
    # statistic, the notes, under their label
    **{fold(h): f"note:{h}" for h in ("Class", "Habitat", "Creature Type")},
    **{fold(h): "advantages" for h in ("perks", "perk")},  # 4th-edition perks: advantages of one point
}
# GURPS 3rd-edition attribute costs (Basic Set: the same table for ST, DX, IQ and HT) and the
# 4th edition's per-level prices (ST and HT 10, DX and IQ 20 a level): a bracketed cost after
# an attribute says which edition priced it.
GURPS3_ATTRIBUTE_COST = {1: -80, 2: -70, 3: -60, 4: -50, 5: -40, 6: -30, 7: -20, 8: -15, 9: -10, 10: 0, 11: 10, 12: 20, 13: 30,
                         14: 45, 15: 60, 16: 80, 17: 100, 18: 125, 19: 150, 20: 175}
GURPS4_ATTRIBUTE_STEP = {"ST": 10, "DX": 20, "IQ": 20, "HT": 10}

# ---- GURPS (3rd edition; 4th-edition blocks converted) -------------------------------------

# 4th-edition skill names of 3rd-edition skills (the 4e Basic Set folds each thrown weapon into
# one Thrown Weapon skill by its speciality)
FOURTH_SKILL_NAMES = {"Thrown Weapon (Knife)": "Knife Throwing", "Thrown Weapon (Axe/Mace)": "Axe Throwing",
                      "Thrown Weapon (Spear)": "Spear Throwing"}
_THROWN_OF = {"Knife": "Knife Throwing", "Axe/Mace": "Axe Throwing", "Spear": "Spear Throwing"}  # 3e's skills
_GURPS_SKILL = re.compile(r"^(?P<name>.+?)\s*(?:[-–]\s*|\s+)(?P<val>\d{1,2})$")
_COST = re.compile(r"\[\s*[+-]?\d+(?:\.\d+)?\s*\]")
# an attribute with its cost after it and no brackets: 'ST 9 -10', 'HT 12 :20CP'
_UNBRACKETED_COST = re.compile(r"\b(ST|DX|IQ|HT)\s*[:=]?\s*(\d+)\s+(?:[:：]\s*)?([+-]?\d+)\s*(CP)?(?=\s|$|[,;])",
                               re.IGNORECASE)
# a damage part of a weapon line: '2d+1 cut', 'Dam 2d+', 'Cr. 2d-1', '1d-1 cut/imp', '3d(2) pi+',
# 'sw+2 cut', 'thr+1 imp' (relative to the wielder's ST: Basic Set thrust/swing)
_GURPS_TYPES = r"cr|cut|imp|pi\+\+|pi\+|pi-|pi|burn|tbb|tox|cor|fat|aff|spec"
_GURPS_DAMAGE = re.compile(
    rf"^(?:(?:dam(?:age)?|dmg)\.?\s*:?\s*)?(?:(?P<pre>cr|cut|imp)\.?\s+)?"
    rf"(?P<dice>\d+d(?:[+-]\d+)?|(?:sw|thr)(?:\s*[+-]\s*\d+)?)(?P<bare>\+(?!\s*\d))?"
    rf"\s*(?:\((?P<div>[\d.]+)\))?\s*(?P<type>{_GURPS_TYPES})?\.?(?:\s*(?:/|or)\s*(?P<type2>{_GURPS_TYPES}))?$",
    re.IGNORECASE)
_JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")  # kana or kanji
# damage as the Basic Set's prose writes it ('2 dice cutting', '1 die impaling', '2d+2 crushing', 'small
# piercing'): the dice and the damage type as a weapon table abbreviates them (2d cut, 1d imp, 2d+2 cr, pi-)
_LONG_TYPES = {"cutting": "cut", "crushing": "cr", "impaling": "imp", "small piercing": "pi-", "large piercing": "pi+",
               "huge piercing": "pi++", "piercing": "pi", "burning": "burn", "corrosion": "cor", "toxic": "tox"}
_LONG_TYPE = re.compile(r"(?<=[\d\s)])(" + "|".join(sorted(_LONG_TYPES, key=len, reverse=True)) + r")\.?$", re.IGNORECASE)
_DICE_WORDS = re.compile(r"^(\d+)\s+di(?:c)?e\b", re.IGNORECASE)


def _short_damage(text: str) -> str:
    """A weapon's damage in the Basic Set's prose ('2 dice cutting') as its tables write it ('2d cut');
    anything else as it is."""
    short = _DICE_WORDS.sub(lambda m: f"{m.group(1)}d", text)
    short = _LONG_TYPE.sub(lambda m: _LONG_TYPES[m.group(1).lower()], short)
    return short if _GURPS_DAMAGE.match(short) else text
_RANGE_PAIR = re.compile(r"([\d,]+)\s*(m|yds?|yards?)?\.?\s*/\s*([\d,]+)\s*(m|yds?|yards?)?\.?", re.IGNORECASE)
_REACH = re.compile(r"([\d,]+)\s*(m|yds?|yards?)?\.?", re.IGNORECASE)  # a 1/2D or Max: '160', '150 m', '160 yd'
_GURPS_KEY = re.compile(r"^(acc|ss|rof|shots|st|skill|type|1/2\s*d(?:am)?\.?|½\s*d|max|range|rcl|malf\.?|bulk|wt\.?|"
                        r"weight|cost|reach|parry|lc|hold)\s*[:.]?\s*(.+)$", re.IGNORECASE)
# which Basic Set skill wields a close-combat weapon of each class when its line names none (gurps.melee,
# tables.toml [melee])
_GURPS_MELEE_SKILL = MELEE_WIELDED_WITH
_SHORTSWORD = ("shortsword", "short sword", "baton", "nightstick", "truncheon", "machete")


# The gun skill that fires a neutral weapon class (the catalog's, or what the name says)
_GUN_SKILL = {"handgun": "Guns (Pistol)", "revolver": "Guns (Pistol)", "smg": "Guns (SMG)", "carbine": "Guns (Rifle)",
              "rifle": "Guns (Rifle)", "shotgun": "Guns (Shotgun)", "mg": "Guns (Machine Gun)", "thrown": "Throwing"}


# disadvantages of the Basic Set (both editions) that a 4th-edition 'Traits:' line names without a cost or a
# self-control number ('Bully; Code of Honor (Soldier's); Sense of Duty (Companions)'): disadvantages by name
_DISADVANTAGES = frozenset(x.casefold() for x in (
    "Addiction", "Alcoholism", "Bad Temper", "Berserk", "Bloodlust", "Bully", "Callous", "Chummy", "Code of Honor",
    "Compulsive Behavior", "Cowardice", "Curious", "Delusion", "Duty", "Enemy", "Fanaticism", "Greed", "Gregarious",
    "Honesty", "Impulsiveness", "Intolerance", "Jealousy", "Laziness", "Lecherousness", "Loner", "Miserliness",
    "Obsession", "Odious Personal Habit", "Overconfidence", "Pacifism", "Paranoia", "Phobia", "Sadism",
    "Secret", "Sense of Duty", "Social Stigma", "Stubbornness", "Truthfulness", "Vow", "Bad Sight", "Hard of Hearing",
    "Lame", "One Eye", "One Hand", "Post-Combat Shakes", "Post Combat Shakes", "Unluckiness", "Weak Will", "Ugly",
    "Hideous", "Monstrous", "Struggling", "Poor", "Dead Broke", "Illiteracy", "Low Pain Threshold"))


def _gurps_weapon_like(text: str) -> bool:
    """'Name (details)' whose details hold damage dice or weapon stats: a weapon, wherever it is
    written (its 'ST 11' is the weapon's minimum strength, never the NPC's ST)."""
    nd = named(text)
    # (a name is no sentence: a paragraph's "ST 12, DX 13 ... Skills: ...; Weapons: Colt .45: Dmg 2d+1"
    # is the stats, its weapons under their heading)
    if nd is None or re.search(r"[.;]\s|\b(?:ST|DX|IQ|HT)\s*\d", nd[0]) or re.fullmatch(
            r"(?:secondary\s+)?(?:characteristics|attributes|stats)", nd[0].strip(), re.IGNORECASE):
        return False  # (nor a sheet's label: 'Secondary Characteristics: Dmg 1d-1/1d+2; BL 29 lb; HP 12')
    details = nd[1]
    return any(_GURPS_DAMAGE.match(p.strip()) or re.match(r"^(acc|ss|shots|rof|dam|dmg)\b", p.strip(), re.IGNORECASE)
               for p in split_items(details))


def _gurps_melee_skill(name: str) -> str:
    low = fold(name)
    if any(w in low for w in _SHORTSWORD):
        return "Shortsword"
    if "staff" in low:
        return "Staff"
    return _GURPS_MELEE_SKILL[melee_class_of(name)]


# ---- Japanese sheets ------------------------------------------------------------------------

JAPANESE_ATTRIBUTES = ("体力", "敏捷力", "敏捷", "知力", "生命力", "生命")  # ST DX IQ HT (japanese.toml)


def _ja() -> dict[str, dict[str, str]]:
    return _toml("japanese.toml")


def japanese_score(text: str) -> int:
    """How many of ST, DX, IQ and HT a block shows by their Japanese names with a number after
    them ("60/体力:15", "敏捷15"). 体力 alone is a Call of Cthulhu sheet's CON too: the other
    three tell the blocks apart."""
    found = {_ja()["stats"][k] for k in JAPANESE_ATTRIBUTES
             if re.search(rf"(?<![\w]){k}\s*[:：]?\s*\d", text) and not re.search(rf"{k}[性値]", text)}
    return len(found)


# the boxes of a Japanese 3rd-edition character sheet copied as text, each alone on its line: basic
# damage, movement, encumbrance (and its columns), defense, passive and active defense (and its
# columns: dodge, parry, block), DR; their values are on other lines (read there) or worked out
_JA_SHEET_LABELS = frozenset({"基本致傷力", "基本致傷", "移動", "荷重", "無荷 軽荷 並荷 重荷 超重荷", "防御", "受動防御",
                              "能動防御", "よけ 受け 止め", "防護力", "防護点"})


def japanese_lines(lines: list[str]) -> tuple[list[str], list[str]]:
    """A Japanese sheet's lines in the English block's words (japanese.toml), one for one, and
    what was assumed doing it: a section mark ("―技能―", "■特徴と癖 小計:") is its heading, a
    point cost written first ("60/体力:15", "1/格闘15", "-5/高慢") is the bracketed cost after
    it, "生命力:13/93" is HT and HP, "能動防御:9/11/-" is Dodge, Parry and Block, a skill's level
    follows its name with a hyphen, and a skill or trait the tables name is written in English."""
    ja = _ja()
    stats, heads, skills, traits = ja["stats"], ja["headings"], ja["skills"], ja["traits"]
    words = "|".join(re.escape(k) for k in sorted(stats, key=len, reverse=True))
    out, said, section = [], [], ""
    for n, raw in enumerate(lines, 1):
        text = raw.strip()
        mark = re.fullmatch(r"[―─━\-=■□◆◇●○【\[]*\s*([^\s―─━\-=】\]:：]+)\s*[―─━\-=】\]]*\s*(?:小計.*)?", text)
        if mark and mark.group(1) in heads:
            section = heads[mark.group(1)]
            out.append(f"{section}:" if section else "")
            continue
        if re.match(r"^(?:合計|CP\s*総計|総計)", text):  # "合計193CP": a point total
            total = re.search(r"[+-]?\d+(?:\.\d+)?", text)
            out.append(f"Point Total: {total.group(0)}" if total else "")
            continue
        label = re.fullmatch(r"(?:人間名|キャラクター名|名前|氏名)\s*[:：]\s*(\S.*)", text)
        if label:  # "人間名:鬼塚美紀": the name without its label
            text = label.group(1).strip()
        cost = ""
        cm = re.match(r"^([+-]?\d+(?:\.\d+)?)\s*/\s*(?=[^\d\s/])(.+)$", text)
        if cm:  # the point cost first
            cost, text = f" [{cm.group(1)}]", cm.group(2).strip()
        if text in _JA_SHEET_LABELS:  # a character sheet's own labels (its boxes' names), no value
            out.append("")
            if text in ("防護力", "防護点"):  # the DR box: the armor worn follows it, "魔女の装束 5"
                section = "DR"
            continue
        if section == "DR":
            worn = re.fullmatch(r"(\D\S*(?:\s+\D\S*)*?)\s+(\d{1,2})", text)
            if worn:
                out.append(f"Armor: {worn.group(1)} (DR {worn.group(2)})")
                continue
            if re.fullmatch(r"\d{1,2}", text):  # the box's total, the armor above it
                said.append(f"line {n}: {text}, the DR box's total: the armor above it")
                out.append("")
                continue
            section = ""
        other_move = re.fullmatch(r"移動力\s*[(（]([^)）]+)[)）]\s*[:：]?\s*(\d+(?:\.\d+)?)", text)
        if other_move:  # "移動力(飛行時) 8": a second way of moving (flying), kept in the notes
            out.append(f"Notes: {text}")
            said.append(f"line {n}: {text} kept in the notes (a gurps document has one Move)")
            continue
        dr = re.fullmatch(r"(防護点|防護力)\s*[:：/]?\s*(\d+)\s*(?:レベル)?", text)
        if dr:  # DR bought as an advantage ("28/防護点7"): the body's own armor, everywhere
            out.append(f"Armor: {dr.group(1)} (DR {dr.group(2)} head face neck torso vitals groin arms hands legs feet)")
            continue
        hp = re.match(r"^(生命力|生命|HT)\s*[:：]?\s*(\d+)\s*/\s*(\d+)(.*)$", text)
        if hp:  # HT and HP ("生命力:13/93", a 妖怪's HP with its Extra Hit Points)
            text = f"HT {hp.group(2)} HP {hp.group(3)}{hp.group(4)}"
        act = re.match(r"^能動防御\s*[:：]?\s*(.+)$", text)
        if act:  # よけ / 受け / 止め in that order; "-" none, a bracket what it is with
            parts = [re.sub(r"\([^)]*\)", "", p).split("・")[0].strip() for p in act.group(1).split("/")]
            text = " ".join(f"{k} {v}" for k, v in zip(("Dodge", "Parry", "Block"), parts) if re.fullmatch(r"\d+", v))
        mv = re.match(r"^移動力\s*[:：]?\s*(\d+(?:\.\d+)?)\s*\+\s*(\d+(?:\.\d+)?)(.*)$", text)
        if mv:  # "移動力:7+1.25": Basic Speed and the Running bonus, the Move their sum rounded down
            move = int(float(mv.group(1)) + float(mv.group(2)))
            said.append(f"line {n}: 移動力 {mv.group(1)}+{mv.group(2)} read as Move {move} (the sum, rounded down)"
                        + (f"; '{mv.group(3).strip()}' not read" if mv.group(3).strip() else ""))
            text = f"Move {move}"
        text = re.sub(rf"(?<![\w])({words})\s*[:：]?\s*(?=[+-]?\d)", lambda m: f"{stats[m.group(1)]} ", text)
        if re.match(r"^(?:ST|DX|IQ|HT|HP|Move|Dodge|Parry|Block|PD|DR|Will|Per|FP|Speed)\b", text) or not text:
            out.append(text + cost)  # a stats line
            continue
        bd = re.fullmatch(r"(突き|振り)\s*[:：]?\s*(\d+[dD](?:[+-]\d+)?)", text)
        if bd:  # the basic damage: the gurps sheet derives it from ST (gurps.melee)
            said.append(f"line {n}: {text}: the basic damage ({'thrust' if bd.group(1) == '突き' else 'swing'}), "
                        "which a gurps sheet works out from ST: not read")
            out.append("")
            continue
        if re.fullmatch(r"(?:技能名|特徴)\s+消費CP.*", text):  # a table's column heads
            out.append("")
            continue
        row = re.fullmatch(r"(\S+?)\s+(\d+(?:\.\d+)?)\s+(\d{1,2})(?:\s+(\d{1,2}))?(?:\s+(.*))?", text)
        if section == "Skills" and row:  # a sheet's table: name, points, level (and its level in another form)
            text, cost = f"{row.group(1)}{row.group(3)}", f" [{row.group(2)}]"
            if row.group(4) or row.group(5):
                said.append(f"line {n}: {row.group(1)}: " + " ".join(x for x in (row.group(4), row.group(5)) if x)
                            + " (another level, a note) not read")
        cp = re.fullmatch(r"(.+?)\s+([+-]?\d+)\s*CP", text, re.IGNORECASE)
        if cp and not cost:  # "階級 4LV(丙丁) 20CP": the points after it
            text, cost = cp.group(1), f" [{cp.group(2)}]"
        trow = re.fullmatch(r"(\S+?)\s+([+-]?\d+(?:\+\d+)?)(?:\s+(.*))?", text)
        if section in ("Traits", "Advantages", "Disadvantages", "Quirks") and trow and not cost:
            # a sheet's table: the trait, its points (a sum "25+7"), a note
            points = sum(int(x) for x in re.findall(r"[+-]?\d+", trow.group(2)))
            text, cost = trow.group(1) + (f" ({trow.group(3).strip()})" if trow.group(3) else ""), f" [{points}]"
        if section == "Skills":
            sk = re.fullmatch(r"[〈<《]?(\D+?)[〉>》]?\s*[-–]?\s*(\d{1,2})(?:\s*[(（]([^)）]*)[)）])?", text)
            if sk:  # "格闘15", "運転/乗用車13", "忍び13(22)": the level after the name, a note in brackets
                name = re.sub(r"^[-–]\s*/", "", sk.group(1).strip())  # "-/英語14": the language, no prefix
                head, _, spec = name.partition("/")
                english = skills.get(name) or skills.get(head)
                if english and spec and name not in skills:
                    english = f"{english} ({spec})"
                text = f"{english or name}-{sk.group(2)}"
                if sk.group(3):
                    said.append(f"line {n}: {name}{sk.group(2)}: '({sk.group(3)})' (a level in a special case, or a "
                                "note) not read")
        elif section == "Quirks" and "。" not in text:
            out.append("Quirks: " + ", ".join(x.strip() for x in re.split(r"[、,]", text) if x.strip()))
            continue  # "油揚げが苦手、口元を皮肉そうに歪める": one quirk each
        elif section in ("Traits", "Advantages", "Disadvantages", "Quirks") and not cost and (
                "。" in text or len(text) > 40 or text.startswith(("・", "(", "（", "「"))
                or re.search(r"[(（][+\-±]?\d+%[)）]", text)):  # a description, or the trait's modifiers (-30%)
            out.append(f"Notes: {text}")  # a trait's description under it, no trait
            continue
        elif section in ("Traits", "Advantages", "Disadvantages", "Quirks"):
            sw = re.fullmatch(r"(意志の強さ)\s*(\d+)\s*レベル", text)
            text = f"{traits[sw.group(1)]} +{sw.group(2)}" if sw else traits.get(text, text)
        # a line of a section says so itself: the reader's stats never take a trait's "Strong Will +3"
        out.append(f"{section}: {text}{cost}" if section else text + cost)
    return out, said


# a run-on block: a name, then the stats from its first attribute ('Ankheg ST: 21 HP: 24 ...'); an
# attack at its level inside it ('... DR: 3 Bite (12): 2d+1 pi+ Spit Acid (12): ...')
_RUN_ON_STATS = re.compile(r"(?P<name>[^\W\d][^\d:;()]{0,60}?)\s+(?P<body>(?:ST|DX|IQ|HT)\s*:\s*\d.{150,})")
# a compressed statline's attack and skill ('Bite-15 2d cutting', 'Claws(x2)-15 2d+1 cutting', 'Stealth-15')
_STATLINE_ATTACK = re.compile(r"(?<![\w-])(?P<name>[A-Z][a-z]+(?: [A-Z][a-z]+)?)(?P<times>\(x\d+\))?-(?P<level>\d{1,2})\s+"
                              r"(?P<dice>\d+d(?:[+-]\d+)?)\s+(?P<type>cutting|crushing|impaling|piercing|burning|cut|cr|"
                              r"imp|pi\+\+|pi\+|pi-|pi)(?![\w+-])")
_STATLINE_SKILL = re.compile(r"(?<![\w-])(?P<name>[A-Z][a-z]+(?: [A-Z][a-z]+)?)-(?P<level>\d{1,2})(?![\w.])")
_ATTACK_START = re.compile(r"(?<=\s)[A-Z][\w'-]*(?: [\w'-]+){0,4} \(\d{1,2}\):")


def _tab_tables(lines: list[str]) -> list[str]:
    """A character sheet's tab-separated weapons table ('Weapon<TAB>Lvl<TAB>Damage<TAB>Acc ...'),
    from its header row to its last row, in pipes, as a pasted table prints it (the walk reads each
    line with its tabs as spaces)."""
    out, on = [], False
    for x in lines:
        cells = [c.strip() for c in x.split("\t")]
        low = [c.lower().rstrip(".") for c in cells]
        if x.count("\t") >= 2 and (on or (low[0] in ("weapon", "weapons", "name")
                                          and bool({"dam", "damage", "dmg"} & set(low)))):
            on = True
            out.append("| " + " | ".join(cells) + " |")
        else:
            on = False
            out.append(x)
    return out


def read_gurps(lines: list[str], system: str, thrust_swing: Callable[[int], tuple[int, int]],
               dice_text: Callable[[int], str]) -> Read:
    """`thrust_swing` and `dice_text`: the gurps system's damage table (ST -> thrust and swing
    as dice codes) and how a dice code prints, for a weapon whose damage is "sw+2"."""
    r = Read(system, reader="text stat block, GURPS layout (ST DX IQ HT)")
    japanese: list[str] = []
    if japanese_score("\n".join(lines)) >= 2 or (_JAPANESE.search("\n".join(lines)) and any(
            re.match(r"^\s*[―■]", x) for x in lines)):
        lines, japanese = japanese_lines(lines)
        r.reader = "text stat block, GURPS layout (ST DX IQ HT; a Japanese sheet's words read as the Basic Set's)"
    doc: dict[str, Any] = {}
    skills: dict[str, int] = {}
    weapons: list[dict[str, Any]] = []
    armor: list[dict[str, Any]] = []
    lists: dict[str, list[str]] = {"advantages": [], "disadvantages": []}
    notes: list[str] = []
    gear: list[str] = []
    other: dict[str, tuple[str, int]] = {}  # stats a gurps document has no field for: key -> (value, line)
    stat_lines: dict[str, int] = {}  # an attribute or derived stat read -> the line it was read on (the first)
    costs: dict[str, tuple[int, int]] = {}  # attribute -> (value, its bracketed point cost)
    said_costs: list[int] = []  # lines whose point costs were left out
    relative: list[tuple[dict[str, Any], str, int]] = []  # weapons whose damage is thr/sw + add, read at the end
    unskilled: list[tuple[dict[str, Any], int]] = []  # guns whose name says no skill, read at the end
    melee_lines: list[dict[str, Any]] = []  # close-combat weapons: the melee table
    attack_levels: dict[str, tuple[int, int]] = {}  # an attack line's weapon name -> (its level, line)
    marks: dict[str, str] = {}  # 4th-edition markers: what -> as written

    table: dict[str, list[str]] = {}  # a weapons table's columns, once its header row is read

    def table_row(line: str) -> bool:
        """A row of a weapons table in pipes ('Weapon | Malf | Dam | SS | Acc | 1/2D | Max | ...', a
        sourcebook's table pasted, or a character sheet's tab-separated one: _tab_tables): the header
        row sets the columns, each row is a weapon line of that name (its first row: a second row of
        one weapon is its second attack, said)."""
        if line.count("|") < 2:
            table.clear()
            return False
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        low = [c.lower().rstrip(".") for c in cells]
        if low[0] in ("weapon", "weapons", "name") and {"dam", "damage", "dmg"} & set(low):
            table["cols"] = low
            return True
        cols = table.get("cols")
        if cols is None or len(cells) != len(cols):
            return False
        row = dict(zip(cols, cells))
        name = cells[0]
        if name == table.get("last", [""])[0]:
            r.unread.append((r.line, f"{name}: " + ", ".join(f"{c} {v}" for c, v in row.items() if c != cols[0])
                             + " (a gurps weapon line holds its first attack)"))
            return True
        table["last"] = [name]
        labels = {"dam": "", "damage": "", "dmg": "", "ss": "SS", "acc": "Acc", "1/2d": "1/2D", "max": "Max",
                  "range": "Range", "rof": "RoF", "shots": "Shots", "st": "ST", "rcl": "Rcl", "bulk": "Bulk",
                  "malf": "Malf", "reach": "Reach"}
        parts, skipped = [], []
        for col, value in row.items():
            if col == cols[0] or value in ("", "-", "—", "–"):
                continue
            if col in labels:  # (a reach 'C, 1' is one cell: C to 1)
                parts.append(f"{labels[col]} {value.replace(', ', '-') if col == 'reach' else value}".strip())
            elif col not in ("lvl", "level", "parry", "usage"):  # (a level and parry come from the skills)
                skipped.append(f"{col} {value}")
        weapon_item(f"{name} ({', '.join(parts)})", r.line)
        if skipped:
            r.unread.append((r.line, f"{name}: {', '.join(skipped)} (not a weapon trait a gurps line holds)"))
        return True

    def stats(line: str) -> str | None:
        if table_row(line):
            return ""
        run_on = _RUN_ON_STATS.match(line.strip())
        if run_on and sum(bool(re.search(rf"\b{a}\s*:\s*\d", line)) for a in GURPS_ATTRIBUTES) >= 3:
            # a bestiary's whole block as one line, as a PDF's text gives it ('Arrowhawk, Adult ST: 14 HP: 14 ...
            # DR: 2 Bite (18): 1d pi+ Electricity Ray (18): Ranged attack ...'): the name before the stats, the
            # stats, then each attack at its level (the headings after them, 'Traits:', are the walk's)
            name, body = run_on.group("name").strip(" ,"), run_on.group("body")
            if "@name" not in r.doc and re.search(r"[^\W\d]", name):
                r.doc["@name"], r.doc["@name_line"] = name, r.line
            cuts = [m.start() for m in _ATTACK_START.finditer(body)]
            if cuts:
                for a, b in zip(cuts, cuts[1:] + [len(body)]):
                    part = body[a:b].strip()
                    if not attack_line(part, r.line):
                        r.unread.append((r.line, part))
                body = body[:cuts[0]]
            left = stats(body)
            return "" if left is None else left
        relative = re.findall(r"(?:ST|DX|IQ|HT|Will|Per)[+-]\d+\s*\[\s*\d+\s*\]\s*-\s*\d{1,2}\b", line)
        if relative:
            # a character sheet's skills wrapped onto the next line ('Swimming HT+0 [1]-10; Jumping DX+0 [1]-14;'):
            # skills, each its relative level, cost and level (its 'DX+0' had been read as DX 0)
            items = [x for x in re.split(r"[;,]\s*", line.strip().rstrip(";,.")) if x.strip()]
            bad = [x for x in items if not skill_item(x, r.line)]
            for x in bad:
                r.unread.append((r.line, x))
            return ""
        quick = re.fullmatch(r"(?P<name>[^\W\d][\w' -]*?)\s+(?P<level>\d{1,2})\s+[–—]\s+(?P<rest>.*\d.*?)\.?", line.strip())
        if quick and not set(quick.group("name").split()) & set(GURPS_ATTRIBUTES + GURPS_DERIVED + GURPS_IGNORED):
            # a quick 4th-edition block's weapon at its level, then its attacks ('Long Knife 15 – Thrust 1d-1 imp,
            # Swing 1d+1 cut, Parry 10'): the skill at that level, and the weapon line (its first attack)
            skill_item(f"{quick.group('name')}-{quick.group('level')}", r.line)
            attacks = re.sub(r"\b(?:thrust|swing)\s+", "", quick.group("rest"), flags=re.IGNORECASE)
            weapon_item(f"{quick.group('name')} ({attacks})", r.line)
            return ""
        if attack_line(line.strip(), r.line):  # 'Dagger throw (11): thrust 1d-2 impaling, Acc 0, ...'
            return ""
        if _gurps_weapon_like(line):  # a gear line outside any heading: a weapon, not stats
            weapon_item(line, r.line)
            return ""
        worn_on = re.fullmatch(r"(?P<name>[^\W\d][\w' -]*?)\s+(?P<dr>DR\s*\d+)\s+on\s+(?P<where>[A-Za-z][A-Za-z ,&]*?)"
                               r"(?:\.\s*(?P<rest>\S.*?))?\.?", line.strip())
        if worn_on and not set(worn_on.group("name").split()) & set(GURPS_ATTRIBUTES + GURPS_DERIVED + GURPS_IGNORED):
            # a quick block's armor and where it is worn ('Cloth Armor DR 1 on Face and Torso. DR 3 Skull'): the
            # piece on its locations; a DR on a location after it is said (a 4th-edition skull's DR 3 holds its
            # own DR 2, which is no armor), not read as the piece's
            armor_item(f"{worn_on.group('name').strip()} ({worn_on.group('dr')}, "
                       f"{worn_on.group('where').replace(' and ', ', ')})", r.line)
            rest = worn_on.group("rest")
            if rest and re.fullmatch(r"DR\s*\d+\s+(?:on\s+)?[A-Za-z ]+", rest):
                r.unread.append((r.line, f"{rest} (a DR of its own on a location, not the armor's: not read)"))
            elif rest:
                left = stats(rest)
                if left is None or left.strip(" .;,"):
                    r.unread.append((r.line, rest if left is None else left))
            return ""
        worn = re.fullmatch(r"(?P<name>[^\W\d][\w' -]*?)\s+(?P<stats>(?:PD\s*\d+[,;]?\s*)?DR\s*\d+)\.?", line.strip())
        if worn and not re.search(r"\d", worn.group("name")) and not (
                set(worn.group("name").split()) & set(GURPS_ATTRIBUTES + GURPS_DERIVED + GURPS_IGNORED)):
            # a compact block's armor line ('Mail DR 4'), with no Armor heading
            armor_item(f"{worn.group('name').strip()} ({worn.group('stats')})", r.line)
            return ""
        # (its stats may hold brackets of their own: 'Trolls (ST 20 ... Parry 11(x2) DR 0 ... IT(NB,NV) ...)')
        bracketed = re.fullmatch(r"(?P<name>[^()]*?[^\W\d][^()]*?)\s*\((?P<stats>(?:[^()]|\([^()]*\))*)\)\.?",
                                 line.strip())
        if bracketed and sum(bool(re.search(rf"\b{a}\s*:?\s*\d", bracketed.group("stats")))
                             for a in GURPS_ATTRIBUTES) >= 3 and not re.search(
                                 rf"\b(?:{'|'.join(GURPS_ATTRIBUTES)})\s*:?\s*\d", bracketed.group("name")):
            # a forum's statline in brackets after the name ('Bridge Ogre (ST 19 DX 11 IQ 8 HT 13 ...)'):
            # the name, then its stats
            if "@name" not in r.doc:
                r.doc["@name"], r.doc["@name_line"] = bracketed.group("name").strip(), r.line
            body = bracketed.group("stats")
            # its attacks and skills written short ('Bite-15 2d cutting C', 'Claws(x2)-15 2d+1 cutting C-2',
            # 'Stealth-15'): each attack a line fought at its level, each skill of the document's at its level;
            # what is left (a reach, 'grapple on SM+0', the traits) is said with the stats
            read_attacks = [m for m in _STATLINE_ATTACK.finditer(body)
                            if attack_line(f"{m['name']} ({m['level']}): {m['dice']} {m['type']}", r.line)]
            for m in read_attacks:
                if m["times"]:
                    r.unread.append((r.line, f"{m['name']}{m['times']}: attacks a turn (a gurps line holds one)"))
            for m in reversed(read_attacks):
                body = body[:m.start()] + " " + body[m.end():]
            for m in reversed(list(_STATLINE_SKILL.finditer(body))):
                name, start = m["name"], m.start()
                if name not in _SKILLS and name.split()[-1] in _SKILLS:  # 'Dark Vision Stealth-15': Stealth
                    name, start = name.split()[-1], m.start() + m["name"].rindex(" ") + 1
                if name in _SKILLS and skill_item(f"{name}-{m['level']}", r.line) is not False:
                    body = body[:start] + " " + body[m.end():]
            return stats(body)
        row = re.fullmatch(r"(?P<name>[^\W\d][^\t\[\]\d]*?)\s+(?:ST|DX|IQ|HT|Will|Per)(?:[+-]\d+)?\s+(?P<level>\d{1,2})"
                           r"(?:\s*\[\s*\d+\s*\])?", line.strip())
        if row and row.group("name").strip() not in GURPS_ATTRIBUTES + GURPS_DERIVED + GURPS_IGNORED:
            # a character sheet's skill row, the attribute it is bought on before its level ('Lockpicking
            # IQ+1 12 [4]', 'Stealth DX 12 [2]'): a skill, not IQ 1 or DX 12
            return "" if skill_item(f"{row.group('name').strip()}-{row.group('level')}", r.line) else None
        # 'Parry 9 (Brawling)': the skill it parries with, said in the Parry loss line
        for shield in re.finditer(r"\bBlock\s*:?\s*(\d+)\s*\(([^()]*\bshield\b[^()]*)\)", line, re.IGNORECASE):
            # 'Block 10 (Small Shield)': the shield he blocks with, which no field of a gurps document holds
            r.unread.append((r.line, f"{shield.group(2).strip()} (the shield of Block {shield.group(1)}: no shield "
                                     "field in a gurps document)"))
        text = re.sub(r"\b(Parry|Block)(\s*:?\s*\d+)\s*\(([^()]*)\)", r"\1\2", line)
        # a 3rd-edition bestiary's grid: two stats under one label ('Move/Dodge: 8/6', 'PD/DR: 1/2'), each
        # its own; a creature's range ('ST: 15-18', 'HT: 13/18-22'): the low end, the range said
        text = re.sub(r"\b(Move|Dodge|PD|DR|HT|HP)\s*/\s*(Move|Dodge|PD|DR|HT|HP)\s*[:=]?\s*(\d+)\s*/\s*(\d+)\b",
                      r"\1 \3 \2 \4", text)

        def low_end(m: re.Match[str]) -> str:
            r.assumed.append(f"line {r.line}: {m.group(1)} {m.group(2)}-{m.group(3)}: a range of the kind, read as its "
                             f"low end, {m.group(2)}")
            return f"{m.group(1)} {m.group(2)}"

        text = re.sub(r"\bHT(\s*[:=]?\s*\d+)\s*/\s*(\d+\s*-\s*\d+)", r"HT\1 HP \2", text)
        text = re.sub(r"\b(ST|HT|HP|Move)\s*[:=]?\s*(\d+)\s*-\s*(\d+)\b(?!\s*(?:lbs?|kg))", low_end, text)
        # a 3rd-edition sourcebook's 'HT 11/14': HT, then hit points
        text = re.sub(r"\bHT(\s*[:=]?\s*\d+)\s*/\s*(\d+)\b", r"HT\1 HP \2", text)
        worn_dr = re.search(r"\b(?:PD\s*[:=]?\s*(?P<pd>\d+)\s*[,;]?\s*)?DR\s*[:=]?\s*(?P<dr>\d+)\s*\((?P<what>[^()]+)\)", text)
        if worn_dr:  # 'DR 12 (vest, torso)' among the stats: the item worn, where it covers
            what = [x.strip() for x in worn_dr.group("what").split(",") if x.strip()]
            named_item = what[0] if what and not re.fullmatch(r"(?:head|face|neck|torso|vitals|groin|arms?|hands?|legs?|"
                                                              r"feet|body|chest|skull)(?:\s*&.*)?", what[0].lower()) else "Armor"
            where = what[1:] if named_item != "Armor" else what
            if not where and re.search(r"(?i)\b(?:skin|hide|fur|scales?|shell|carapace|chitin|natural)\b", named_item):
                # a creature's 'DR: 2 (tough skin)': its body's own, all over (it had been the torso's alone)
                where = ["head", "face", "neck", "torso", "vitals", "groin", "arms", "hands", "legs", "feet"]
                r.assumed.append(f"line {r.line}: DR {worn_dr.group('dr')} ({named_item}): the creature's own, all over")
            pd = f"PD {worn_dr.group('pd')}, " if worn_dr.group("pd") else ""
            armor_item(f"{named_item} ({pd}DR {worn_dr.group('dr')}{', ' + ', '.join(where) if where else ''})", r.line)
            text = text[:worn_dr.start()] + " " + text[worn_dr.end():]
            if not text.strip(" .;,"):  # ('PD/DR:6/4 (Chainmail)' alone on its line: read, nothing left unread)
                return ""
        for m in re.finditer(rf"\b({'|'.join(GURPS_ATTRIBUTES)})\s*[:=]?\s*(\d+)\s*\[\s*([+-]?\d+)\s*\]", text):
            costs[m.group(1)] = (int(m.group(2)), int(m.group(3)))
        if _COST.search(text):
            text = _COST.sub(" ", text)
            said_costs.append(r.line)

        def unbracketed(m: re.Match[str]) -> str:
            # 'ST 9 -10', 'HT 12 :20CP' (a Japanese sheet's cost column): the attribute's price in the 3rd
            # edition's table or the 4th's, or marked CP, is its cost, not a number of the block
            k, v, cost = m.group(1), int(m.group(2)), int(m.group(3))
            if m.group(4) or cost in (GURPS3_ATTRIBUTE_COST.get(v), (v - 10) * GURPS4_ATTRIBUTE_STEP[k]):
                costs.setdefault(k, (v, cost))
                said_costs.append(r.line)
                return f"{k} {v} "
            return m.group(0)

        text = _UNBRACKETED_COST.sub(unbracketed, text)
        # what ST gives in a 4th-edition block ('Damage 1d-2/1d', 'BL 20 lbs.'): derived again, not carried
        by_st = []
        for pat in (r"\b(?:Damage|Dmg)\s*:?\s*(?:thr\s*)?\d+d(?:[+-]\d+)?\s*/\s*(?:sw\s*)?\d+d(?:[+-]\d+)?",
                    r"\bBL\s*:?\s*\d+(?:\.\d+)?\s*(?:lbs?\.?|kg)?"):
            m = re.search(pat, text, re.IGNORECASE)
            if m:
                by_st.append(m.group(0).strip())
                text = text[:m.start()] + " " + text[m.end():]
        # a score is no signed number ("Enhanced Defenses: Dodge +1" is an advantage's modifier, not Dodge 1)
        text = re.sub(rf"^[^:\d]{{2,40}}:\s*(?:{'|'.join(GURPS_ATTRIBUTES + GURPS_DERIVED)})\s*\+\d+.*$", "", text)
        # nor is a 4th-edition advantage's ('Lifting ST +4', 'Striking ST +2' among a creature's traits: its ST
        # had become 4); said
        for m in re.finditer(r"\b(?:Lifting|Striking|Arm)\s+ST\s*[+-]\d+", text):
            r.unread.append((r.line, f"{m.group(0)} (a 4th-edition advantage: no field in a gurps document)"))
        text = re.sub(r"\b(?:Lifting|Striking|Arm)\s+ST\s*[+-]\d+", " ", text)
        # nor is an advantage's level ('Enhanced Move 1 (Ground Move 10)' among a creature's traits: its
        # stated Move 5 had become 1): the traits list keeps it
        text = re.sub(r"\bEnhanced\s+Move\s*\d+(?:\.\d+)?(?:\s*\([^()]*\))?", " ", text)
        found, rest = stat_pairs(text, GURPS_ATTRIBUTES + GURPS_DERIVED + GURPS_IGNORED, r"[+-]?\d+(?:\.\d+)?")
        outside, _ = stat_pairs(re.sub(r"\([^()]*\)", " ", text), GURPS_ATTRIBUTES + GURPS_DERIVED + GURPS_IGNORED,
                                r"[+-]?\d+(?:\.\d+)?")
        if not found or not outside:
            # (an equipment line's "Leather Jacket (DR 1, arms & torso)": its item's DR, no stat of the NPC)
            return None
        words = len(re.findall(r"\b[a-z]{3,}\b", text))
        if words >= 8 and words > 2 * len(found):
            # a sentence that names a stat ("A lurcher swims at Move 10 and can stay under ..."): prose, not the
            # block's stats (its Move 8 had become the swimming 10)
            return None
        if by_st:
            r.assumed.append(f"line {r.line}: {' and '.join(by_st)}: what ST gives (thrust/swing damage, basic lift), "
                             "worked out again from ST: not carried")
        for k, v in found.items():
            if k in GURPS_ATTRIBUTES or k in GURPS_DERIVED:
                value, first = int(float(v)), stat_lines.get(k)
                if first is not None and doc.get(k) != value:
                    # the block's own stat is the first (a later 'DX 10' had replaced DX 13 with no word), the
                    # later one said, as the CoC reader does
                    r.unread.append((r.line, f"{k} {v} ({k} {doc[k]} read on line {first} is kept)"))
                    continue
                doc[k] = value
                stat_lines.setdefault(k, r.line)
            elif k == "Basic Move":  # 4e's name for Move (Basic Speed rounded down)
                doc["Move"] = int(float(v))
                marks.setdefault("Basic Move", f"Basic Move {v}")
            elif k in other and other[k][0] != v:  # a DR in an attack's text ('Metallic armor counts as DR 1')
                # after the block's own 'DR: 2': the block's is the first, the later one said
                r.unread.append((r.line, f"{k} {v} (not the block's: its {k} {other[k][0]} is on line {other[k][1]})"))
            else:
                other.setdefault(k, (v, r.line))
                if k in ("FP", "SM", "Basic Speed"):
                    marks.setdefault(k, f"{k} {v}")
        # a sourcebook's 'ST 10, DX 12, IQ 11, HT 10.': the full stop; a sheet's label before its stats
        rest = re.sub(r"(?i)^\s*(?:secondary\s+)?(?:characteristics|attributes)\s*:", "", rest)
        return re.sub(r"^[.;,\s]+$", "", rest)

    def skill_item(item: str, n: int) -> bool:
        several = re.findall(r"([^\W\d][^\d,;]*?)\s*[-–]?\s*(\d{1,2})(?=\s|$)", item.strip())
        if len(several) > 1 and re.fullmatch(r"(?:[^\W\d][^\d,;]*?\s*[-–]?\s*\d{1,2}\s*)+", item.strip()):
            # a list written without commas ('Shortsword 17 spear 15 knife 15'): a skill each
            return all([skill_item(f"{name.strip()}-{val}", n) for name, val in several])
        if _COST.search(item):
            said_costs.append(n)
        if re.search(r"\((?:ST|DX|IQ|HT|Will|Per)/(?:E|A|H|VH)\)", item):
            marks.setdefault("skill notation", re.search(r"\((?:ST|DX|IQ|HT|Will|Per)/(?:E|A|H|VH)\)", item).group(0))
        clean = _COST.sub("", item)
        clean = re.sub(r"\((?:ST|DX|IQ|HT|Will|Per|[PM])/[EAHV]{1,2}\)", "", clean)
        tl = re.search(r"/TL\d+", clean)
        if tl and not any("tech level" in a for a in r.assumed):
            r.assumed.append(f"line {n}: a skill's tech level ('{tl.group(0)}') left out: a gurps document's skills hold "
                             "none (the setting's TL is the game's)")
        clean = re.sub(r"/TL\d+", "", clean)
        # a 4th-edition book's bare difficulty ('Guns/TL8 (Pistol) (E) DX+2 [4]-15') and a footnote's mark ('-14*')
        clean = re.sub(r"\s*\((?:E|A|H|VH)\)", "", clean)
        clean = re.sub(r"\s*[*†‡]+$", "", clean.strip())
        # the relative level ('DX+1') is written without spaces; 'DX [2]-11' is DX itself, then the level
        clean = re.sub(r"\b(?:ST|DX|IQ|HT|Will|Per)[+-]\d+\b|\b(?:ST|DX|IQ|HT|Will|Per)\b(?=\s*[-–]\s*\d+$)",
                       "", clean).strip()
        m = _GURPS_SKILL.match(clean)
        if m and set(m.group("name").split()[-1:]) & set(GURPS_ATTRIBUTES + GURPS_DERIVED + GURPS_IGNORED):
            # an attribute or a derived stat, no skill ('Dodge 8', 'Per 10', a footnote's '... the golem has DX 10')
            return False
        used = re.fullmatch(r"(?P<skill>.+?[-–]\s*\d{1,2})\s*\((?P<with>[^()]+)\)", clean) if not m else None
        if used:  # 'Guns (Pistol)-15 (Colt .45 automatic)': the skill, and the weapon it is used with, said
            m = _GURPS_SKILL.match(used.group("skill"))
            if m:
                r.assumed.append(f"line {n}: {used.group('skill').strip()}: used with {used.group('with').strip()} "
                                 "(the weapon line says which skill fires it)")
        if not m:
            return False
        name = re.sub(r"\s+", " ", m.group("name").strip().rstrip(":"))
        if name not in _SKILLS:  # written in lower case ('brawling 15', 'guns (pistol)-12'): the skill's own name
            name = _SKILLS_FOLDED.get(name.lower(), name)
        if name in FOURTH_SKILL_NAMES:  # a 4th-edition block's name for a 3e skill: the 3e name, said
            r.assumed.append(f"line {n}: {name}-{m.group('val')} is the 3rd edition's {FOURTH_SKILL_NAMES[name]}")
            name = FOURTH_SKILL_NAMES[name]
        words = name.split()
        # (a weapon in a specialty's brackets, 'Fast Draw (Knife)', is another skill's specialty)
        weapon_skill = _gurps_melee_skill(name) if name not in _SKILLS and len(words) > 1 and not words[-1].startswith(
            "(") and melee_class_of(name) == melee_class_of(words[-1]) in ("knife", "sword", "axe", "spear", "club") \
            else None
        if weapon_skill in _THROWN_OF and re.search(r"\bthrow", name, re.IGNORECASE):
            weapon_skill = _THROWN_OF[weapon_skill]  # 'Throwing Knife-12': the skill it is thrown with
        if weapon_skill in _SKILLS and weapon_skill != name:
            # a quick block's weapon with its level ('Thrusting Broadsword-11'): the skill it is fought with, said
            r.assumed.append(f"line {n}: {name}-{m.group('val')} is a weapon at its level: {weapon_skill}-{m.group('val')}")
            name = weapon_skill
        colon = re.fullmatch(r"([^:()]+?):\s*([^:()]+)", name)
        if colon and f"{colon.group(1)} ({colon.group(2)})" in _SKILLS:
            name = f"{colon.group(1)} ({colon.group(2)})"  # a character sheet's 'Guns: Pistol' is Guns (Pistol)
        spec = re.fullmatch(r"(.+?) \((.+)\)", name)
        if spec and name not in _SKILLS and spec.group(1) in _SKILLS:
            # 'Driving (Automobile)': the document's skill is Driving; the specialty is said
            r.assumed.append(f"line {n}: {name}-{m.group('val')} read as {spec.group(1)}-{m.group('val')}: a gurps "
                             f"document holds {spec.group(1)} without its specialty")
            name = spec.group(1)
        skills[name] = int(m.group("val"))
        return True

    def weapon_item(item: str, n: int) -> None:
        bare = re.fullmatch(r"(?P<name>[^,():]+?),\s*(?P<rest>(?:\d+d|sw|thr)\b.*)", item.strip())
        if bare and not item.strip().endswith(")"):
            # a sourcebook's line with no brackets: 'S&W Model 13 .357 Magnum, 3d-1 cr, SS 10, Acc 2, ...'
            item = f"{bare.group('name').strip()} ({bare.group('rest').strip()})"
        found = named_item(r, item, n)
        if found is None:
            return
        name, details, cid = found
        modes = [x.strip() for x in re.split(r"\s+/\s+", details) if x.strip()]
        far = [x for x in modes if re.search(r"\b(?:Acc|Range|1/2D|Max)\b", x)]
        near = [x for x in modes if x not in far and any(_GURPS_DAMAGE.match(y) for y in split_items(x))]
        if len(modes) > 1 and far and near:
            # a 4th-edition line of attack modes ('Large Knife (Reach C, 1d-1 imp / Reach C,1, 1d-1 cut /
            # Acc 0, Range 8/16, 1d-1 imp)'): the first close-combat mode is its melee line, the first
            # ranged one its thrown line; the other modes are said
            weapon_item(f"{name} ({near[0]})", n)
            weapon_item(f"{name} ({far[0]})", n)
            for x in (*near[1:], *far[1:]):
                r.unread.append((n, f"{name}: another attack mode '{x}' (a gurps line holds one attack: its first "
                                    "close-combat and its first ranged mode are read)"))
            return
        if len(modes) > 1 and len(near) == len(modes):
            # close-combat modes only ('Small Knife (Reach C, 1d-2 imp / Reach C,1, 1d-2 cut)'): the first is the
            # line (its damage had been the last mode's, its first said unread), the others said
            weapon_item(f"{name} ({near[0]})", n)
            for x in near[1:]:
                r.unread.append((n, f"{name}: another attack mode '{x}' (a gurps line holds one attack: its first "
                                    "close-combat mode is read)"))
            return
        details = re.sub(r"(?<=\d),(?=\d{3}\b)", "", details)  # 'Max 1,850': a thousands separator
        w: dict[str, Any] = {"name": name}
        left: list[str] = []
        nofield: list[str] = []
        extra_attacks: list[str] = []
        reach_said: list[str] = []  # 1/2D and Max with no unit: the book's unit, said
        yards: list[str] = []  # 1/2D and Max in yards, in metres
        ranged = False
        for p in split_items(details):
            p = _short_damage(p.strip())
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
                # a bare skill name ('Combat knife (1d-1 cut, Knife)'): the skill it is used with
                known = {fold(k): k for k in (*skills, "Staff", "Shortsword", *_GURPS_MELEE_SKILL.values(),
                                              *_GUN_SKILL.values())}
                if "skill" not in w and fold(p) in known:
                    w["skill"] = known[fold(p)]
                else:
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
            elif key in ("1/2d", "1/2dam", "½d", "max") and (reach := _REACH.fullmatch(val)) and \
                    int(reach.group(1).replace(",", "")) <= 100_000:
                # 1/2D and Max (gurps.weapon-stats), in metres as the Japanese Basic Set measures;
                # yards are converted; a bare number is read as metres, said (an English-language
                # book's are yards); a 4th-edition "x10" by ST is no number and not read
                value, unit = int(reach.group(1).replace(",", "")), (reach.group(2) or "").lower()
                stated = f"{kv.group(1)} {val}"
                if not unit:  # the book's unit: a Japanese line's metres, an English-language book's yards
                    unit = "m" if _JAPANESE.search(item) else "yd"
                    reach_said.append(stated)
                if unit.startswith("y"):
                    value = round(value * 0.9144)
                    yards.append(f"{stated.rstrip('ydsar ')} yd = {value} m")
                w["1/2D" if key != "max" else "Max"] = value
                ranged = True
            elif key == "range" and (pair := _RANGE_PAIR.fullmatch(val)) and \
                    max(int(x.replace(",", "")) for x in pair.group(1, 3)) <= 100_000:
                # a 4th-edition 'Range 150/1900' is 1/2D and Max in the book's yards
                # (gurps.weapon-stats); 'Range x2/x3' (by ST, thrown) has no number and stays unread
                unit = (pair.group(2) or pair.group(4) or "").lower()
                stated = f"{kv.group(1)} {val}"
                marks.setdefault("weapon range", p)  # 3rd edition writes 1/2D and Max apart
                for label, raw in (("1/2D", pair.group(1)), ("Max", pair.group(3))):
                    value = int(raw.replace(",", ""))
                    w[label] = value if unit.startswith("m") else round(value * 0.9144)
                if not unit.startswith("m"):
                    yards.append(f"{stated} (1/2D/Max) yd = {w['1/2D']}/{w['Max']} m")
                    if not unit:
                        reach_said.append(stated)
                ranged = True
            elif key == "rof":
                w["RoF"] = val
                ranged = True
            elif key == "skill":
                w["skill"] = val
            elif key == "reach" and (span := re.fullmatch(r"(C|\d)(?:\s*[,-]\s*(\d))?\s*\*?", val, re.IGNORECASE)):
                # a close-combat weapon's reach (C: close combat; 1, 2: yards), a column of the melee table
                w["reach"] = span.group(1).upper() + (f",{span.group(2)}" if span.group(2) else "")
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
        if reach_said or yards:
            how = ("; ".join(yards) if yards else "metres")
            r.assumed.append(f"line {n}: {name}: " + (f"{', '.join(reach_said)} read in the book's unit, "
                             f"{'yards (an English-language line)' if yards else 'metres (a Japanese line)'}: "
                             if reach_said else "") + how)
        entry = weapon_entry(cid, name)
        if entry is not None:
            w["catalog"] = entry.id
        melee = not ranged and entry is None and w.get("type") in ("cut", "imp") or (
            not ranged and entry is None and melee_class_of(name) != "improvised") or (not ranged and "reach" in w)
        if "skill" not in w and ranged and _THROWN_OF.get(_gurps_melee_skill(name)) and \
                melee_class_of(name) in ("knife", "axe", "spear"):
            w["skill"] = _gurps_melee_skill(name)  # a blade with ranged stats: thrown (below)
        if "skill" not in w:
            if melee:
                w["skill"] = _gurps_melee_skill(name)
            else:
                cls = entry.weapon_class if entry is not None else weapon_class_by_name(name)
                # a name that says no gun: the block's only gun skill, read at the end; else no
                # skill, and the gurps plugin says in a warning what it reads it as (never a
                # silent pistol)
                if cls is not None:
                    w["skill"] = _GUN_SKILL[cls]
                else:
                    unskilled.append((w, n))
        if "damage" not in w and not any(x[0] is w for x in relative):
            r.unread.append((n, f"{item} (no damage dice)"))
            return
        for a in extra_attacks:
            r.unread.append((n, f"{name}: second attack '{a}' (a gurps weapon line holds one attack: the first, "
                                f"{details.split(',')[0].strip()}, is read)"))
        skill = str(w.get("skill") or "")
        if ranged and skill in _THROWN_OF and (re.search(r"\bthrow", name, re.IGNORECASE) or _THROWN_OF[skill] in skills):
            # 'Dagger throw (11): thrust 1d-2 imp, Acc 0, ...': a blade with ranged stats, thrown, is
            # thrown with its own skill (3e Knife Throwing), not fought with Knife; said
            r.assumed.append(f"line {n}: {name}: ranged stats on a {skill} weapon: thrown, with {_THROWN_OF[skill]}")
            w["skill"] = skill = _THROWN_OF[skill]
        if skill and not any(k in skill.lower() for k in ("gun", "throw", "grenade")):
            # a close-combat weapon: the sheet's melee table (gurps.melee), which has no ranged stats
            nofield += [f"{k} {w.pop(k)}" for k in ("Acc", "SS", "1/2D", "Max", "RoF", "Shots", "ST") if k in w]
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
        tail = re.fullmatch(r"(.*\))\.\s+([^()]+)", item.strip())
        if tail:  # 'Leather Jacket (DR 1, arms & torso). No encumbrance.': the item, then a remark (kept)
            item = tail.group(1)
            gear.append(tail.group(2).strip())
        if _gurps_weapon_like(item):
            weapon_item(item, n)
        elif re.search(r"\bDR\s*\d", item) and named(item):
            armor_item(item, n)
        else:
            gear.append(item)

    def armor_item(item: str, n: int) -> None:
        item, cid = catalog_tag(item)
        # a 3rd-edition line's grid ('chainmail armor (PD/DR 3/4)'): PD 3, DR 4 (the DR had been read as 3)
        item = re.sub(r"\b(PD|DR)\s*/\s*(PD|DR)\s*:?\s*(\d+)\s*/\s*(\d+)", r"\1 \3, \2 \4", item)
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
        # its locations, as written ('arm/leg': one arm and one leg are still the arms and legs it covers)
        words = re.findall(r"[a-z]+", rest.lower())
        locs = list(dict.fromkeys(_ONE_LOCATION.get(w, w) for w in words if _ONE_LOCATION.get(w, w) in (
            "head", "face", "neck", "torso", "vitals", "groin", "arms", "hands", "legs", "feet")))
        if locs:
            a["locations"] = locs
        elif words:  # words that name no location: the piece is read as a gurps line's default (torso), said
            r.unread.append((n, f"{nd[0]}: {' '.join(words)} (no location a gurps armor line names: read as "
                                "covering the torso)"))
        armor.append(a)

    def trait_item(kind: str) -> Callable[[str, int], None]:
        def add(item: str, n: int) -> None:
            if _COST.search(item):
                said_costs.append(n)
            text = re.sub(r"\s+", " ", _COST.sub("", item)).strip()
            if re.fullmatch(r"[+-]?\d+", text):  # "Disadvantages: -62": the list's point total, no trait
                r.assumed.append(f"line {n}: {kind} {text}: a point total, not carried")
                return
            if text.casefold().rstrip(".") in ("none", "-", "—", "n/a"):  # "Advantages: None": no trait named None
                return
            lists[kind].append(text)
        return add

    def mixed_traits(item: str, n: int) -> None:
        """A 4th-edition 'Traits:' line lists advantages and disadvantages together: a trait with a
        self-control number ('Bully (12)': the 6, 9, 12 or 15 the 4th-edition Basic Set gives only
        mental disadvantages) or a negative cost is a disadvantage; the others are kept as
        advantages (both lists are carried verbatim), said once. A trait the block's own advantages or
        disadvantages already list (a bestiary prints its template's costed lists and the typical
        creature's 'Traits:' line) is not listed twice."""
        key = fold(re.sub(r"\s*\([^()]*\)|\s*\[[^\]]*\]", "", item)).rstrip(".")
        if any(fold(re.sub(r"\s*\([^()]*\)", "", t)) == key for t in lists["advantages"] + lists["disadvantages"]):
            return
        if re.search(r"\((?:6|9|12|15)\)", item) or re.search(r"\[\s*-\d+\s*\]", item) \
                or re.sub(r"\s*[(\[].*$", "", item.strip()).casefold() in _DISADVANTAGES:
            trait_item("disadvantages")(item, n)
            return
        if not any("'Traits:'" in a for a in r.assumed):
            r.assumed.append(f"line {n}: 'Traits:' lists advantages and disadvantages together: a trait with a "
                             "self-control number, a negative cost or the name of a Basic Set disadvantage is a "
                             "disadvantage, the others are kept as advantages")
        trait_item("advantages")(item, n)

    def split(kind: str, text: str) -> list[str]:
        """4th-edition blocks write a weapon 'Glock 17 (9mm): 2d+2 pi, Acc 2, Range 150/1,900 ...':
        its stats after a colon, by commas; such a line holds one weapon (or several apart by
        semicolons), its closing full stop no stat. Other lines: the core's split."""
        if kind in ("weapons", "melee") and re.match(r"^[^,;:]+:\s", text):
            # (a sourcebook's paragraph runs them on in sentences: "Colt .45: Dmg 2d+ Cr, SS 10 ...
            # Thompson M1928: Dmg 2d+1 Cr ... Knife: thr-1 imp": a full stop before the next name's colon)
            parts = [y for x in text.split(";") for y in re.split(r"(?<=[^\s.])\.\s+(?=[^\W\d_][^,;:.]{0,40}:\s)", x)]
            return [x.strip().rstrip(".") for x in parts if x.strip().rstrip(".")]
        if kind.startswith("note:"):
            return [text.strip().rstrip(".")]
        return weapon_items(text) if kind in ("weapons", "armor") else split_items(text)

    social_seen: set[int] = set()

    def social_item(item: str, n: int) -> bool:
        """A 4th-edition sheet's social trait line ('Languages: Goebleen (Native), Malstern
        (Accented) [4]', 'Wealth: Average', 'Status: 1'): no combat statistic and no 3rd-edition
        field, so the line is kept in the notes, said once; another line under such a heading (it
        lasts to the next one) is read as a line with no heading."""
        walked = walk.lines  # (the block's lines as the walk reads them: a wrapped line joined)
        raw = normalize(walked[n - 1]) if 0 < n <= len(walked) else item
        head = heading_of(raw, GURPS_HEADINGS)
        if head is not None and head[0] == "social":
            if n not in social_seen:
                social_seen.add(n)
                notes.append(raw)
                r.assumed.append(f"line {n}: {raw} kept in the notes (a social trait: no combat statistic)")
            return True
        return loose(item, n)

    section = sectioner(r, notes, stats, {
        "skills": skill_item, "maneuvers": skill_item, "weapons": weapon_item, "melee": weapon_item,
        "gear": gear_item, "armor": armor_item,
        "advantages": trait_item("advantages"), "disadvantages": trait_item("disadvantages"),
        "traits": mixed_traits, "social": social_item,
        **{f"note:{h}": (lambda item, n, h=h: notes.append(f"{h}: {item}")) for h in ("Class", "Habitat", "Creature Type")}},
        split)

    def attack_line(text: str, n: int) -> bool:
        """A 4th-edition book's attack line ('Broadsword (11): swing 2d cutting, Reach 1; or thrust
        ...'), wherever it stands (after a Skills line too: stats() asks it first, as every line is
        asked before its section's handler): its first attack is the weapon line."""
        attack = re.fullmatch(r"(?P<name>[^\W\d][^():]*?)\s*\((?P<level>\d{1,2})\):\s*(?:(?:swing|thrust|sw|thr)\s+)?"
                              r"(?P<dice>\d+d(?:[+-]\d+)?)\s+(?P<type>cutting|crushing|impaling|piercing|burning|"
                              r"cut|cr|imp|pi\+\+|pi\+|pi-|pi)(?![\w+-])(?P<rest>.*)", text, re.IGNORECASE)
        if attack:  # a 4th-edition book's attack line: 'Broadsword (11): swing 2d cutting, Reach 1; or thrust ...'
            kind = {"cutting": "cut", "crushing": "cr", "impaling": "imp", "piercing": "pi", "burning": "burn"}.get(
                attack.group("type").lower(), attack.group("type").lower())
            rest = attack.group("rest").strip(" .;,")
            acc = re.search(r"\bAcc\s*(\d+)", rest)
            reach = re.search(r"\((\d+)\s*/\s*(\d+)\)", rest)
            if acc and re.search(r"\b(?:Range|RoF|Shots)\b", rest):
                # a ranged attack: 'Glock 17 (15): 2d+2 pi, Acc 2, Range 150/1,900, RoF 3, Shots 17+1(3), ST 9,
                # Bulk -2, Rcl 2': its traits are a weapon line's (what no field holds is said there)
                weapon_item(f"{attack.group('name').strip()} ({attack.group('dice')} {kind}, {rest})", n)
                rest = ""
            elif acc and reach:  # a thrown attack: 'Acc 0, x0.5/x1 (6/12)', its ranges in yards at the thrower's ST
                weapon_item(f"{attack.group('name').strip()} ({attack.group('dice')} {kind}, Acc {acc.group(1)}, "
                            f"1/2D {reach.group(1)}, Max {reach.group(2)})", n)
                rest = rest[:acc.start()].strip(" .;,")  # what it says before its Acc and range (a house rule)
            else:  # (with its reach, where the first attack states one: a close-combat line)
                first = re.match(r"Reach\s+(C|\d)(\s*,\s*\d)?\*?\s*(?:[;,.]\s*|$)", rest, re.IGNORECASE)
                reach = f", Reach {first.group(1)}{(first.group(2) or '').replace(' ', '').replace(',', '-')}" \
                    if first else ""
                rest = rest[first.end():].strip(" .;,") if first else rest
                weapon_item(f"{attack.group('name').strip()} ({attack.group('dice')} {kind}{reach})", n)
            attack_levels.setdefault(attack.group("name").strip(), (int(attack.group("level")), n))
            if rest:  # its reach, its second mode, a house rule's damage: the line holds one attack
                r.unread.append((n, f"{attack.group('name').strip()}: {rest} (a gurps weapon line holds its first "
                                    "attack)"))
            return True
        return False

    def loose(line: str, n: int) -> bool:
        """A compact block's lines with no heading: 'Mace damage 2d+2 cr' (a weapon), 'Axe/Mace-13' (a skill)."""
        m = re.fullmatch(r"(?P<name>[^\W\d][\w' /-]*?)\s+(?:damage|dmg\.?)\s+(?P<rest>.+?)\.?", line.strip(),
                         re.IGNORECASE)
        if m:
            weapon_item(f"{m.group('name').strip()} ({m.group('rest').replace(';', ',')})", n)
            return True
        text = line.strip()
        costed = re.fullmatch(r"(?P<body>.+?)\s*\[\s*(?P<cost>[+-]?\d+)\s*\]", text)
        if costed:  # a character sheet's lines, each with its cost: 'Acrobatics - 15 [8]', 'Skinny [-5]'
            body = re.sub(r"\s*[\^*]$", "", costed.group("body").strip())  # a sheet's marks ('- 22^', '- 17*')
            if re.search(r"[-–]\s*\d{1,2}\s*$", body):
                said_costs.append(n)
                return skill_item(body, n) is not False
            said_costs.append(n)
            # a trait: an advantage by a cost above 0, a disadvantage (or a quirk) by one below
            trait_item("advantages" if int(costed.group("cost")) > 0 else "disadvantages")(body, n)
            return True
        several = [x.strip() for x in re.split(r"\s*;\s*", text.rstrip(".;")) if x.strip()]
        if len(several) > 1 and all(re.search(r"[-–]\s*\d{1,2}$", x) for x in several):
            # a bestiary's skills on a line of their own with no heading ('Brawling-11; Survival (Jungle)-10.')
            for x in several:
                if skill_item(x, n) is False:
                    r.unread.append((n, x))
            return True
        return bool(re.search(r"-\s*\d+$", text)) and skill_item(text, n)

    walk = Walk(r, _tab_tables(lines), GURPS_HEADINGS)
    walk.run(stats, section, loose)
    r.assumed.extend(japanese)
    # a close-combat attack's level ('Bite (15): 2d cutting') where the block states no level of the skill it is
    # fought with (a creature's Brawling): the skill at the best such level, said
    fought: dict[str, list[tuple[int, int, str]]] = {}
    for m in melee_lines:
        if m.get("name") in attack_levels and m.get("skill") and m["skill"] not in skills:
            fought.setdefault(m["skill"], []).append((*attack_levels[m["name"]], m["name"]))
    for skill, levels in fought.items():
        level, n, name = max(levels, key=lambda x: x[0])  # (the first at the best level)
        skills[skill] = level
        r.assumed.append(f"line {n}: {skill}-{level}: the level of its {name} attack (the block states no "
                         f"{skill})")
    guns = [k for k in skills if k.startswith(("Guns", "Throwing"))]
    for w, n in unskilled if len(guns) == 1 else ():  # the one gun skill the block states fires it
        w["skill"] = guns[0]
        r.assumed.append(f"line {n}: {w['name']}: which Guns skill fires it is not said; {guns[0]}, the block's only "
                         "gun skill")
    if "ST" not in doc and relative:
        r.assumed.append("no ST in the block: thrust and swing damage read at ST 10")
    if relative:
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
    if not armor and "DR" in other and float(other["DR"][0]) > 0:
        # PD and DR among the stats with no armor line (a bestiary's creature, its hide; an NPC's totals):
        # its armor, all over, as the stats say
        pd = other.pop("PD", ("0", 0))[0]
        dr, n = other.pop("DR")
        where = _dr_locations(r, n)  # 'DR: 3* on torso (1 vs crushing)': where the line says it is
        armor.append({"name": "Natural armor" if not lists.get("advantages") and not where else "Armor",
                      "DR": int(float(dr)), **({"PD": int(float(pd))} if float(pd) else {}),
                      "locations": where or ["head", "face", "neck", "torso", "vitals", "groin", "arms", "hands", "legs",
                                             "feet"]})
        r.assumed.append(f"line {n}: {f'PD {pd}, ' if float(pd) else ''}DR {dr} among the stats, no armor line: the "
                         + (f"NPC's armor, on the {', '.join(where)} as the line says" if where else
                            "NPC's own armor, all over"))
    _gurps_other_stats(r, doc, other, fourth=edition == 4)
    out: dict[str, Any] = {"name": _name(r)}
    out.update({k: doc[k] for k in GURPS_ATTRIBUTES + GURPS_DERIVED + ("SM",) if k in doc})
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


# a location as an armor line names it ('arm/leg', 'chest') -> a gurps armor line's location
_ONE_LOCATION = {"arm": "arms", "hand": "hands", "leg": "legs", "foot": "feet", "body": "torso", "chest": "torso"}
_ON_LOCATIONS = re.compile(r"\bon\s+(?:the\s+)?((?:head|face|neck|torso|vitals|groin|arms?|hands?|legs?|feet|"
                           r"body|chest)(?:\s*(?:,|&|and)\s*(?:head|face|neck|torso|vitals|groin|arms?|hands?|legs?|"
                           r"feet|body|chest))*)\b", re.IGNORECASE)


def _dr_locations(r: Read, n: int) -> list[str]:
    """The locations a stat line's DR says it is on ('DR: 3* on torso (1 vs crushing)', a 4th-
    edition block's): read from what the stats left unread on line `n`, which then says only the
    rest; none: the DR is all over."""
    for i, (line, said) in enumerate(r.unread):
        at = said.find("(not read: ") if line == n else -1
        m = _ON_LOCATIONS.search(said, at) if at >= 0 else None
        if m is None:
            continue
        words = re.findall(r"[a-z]+", m.group(1).lower())
        found = list(dict.fromkeys(_ONE_LOCATION.get(w, w) for w in words if w != "and"))
        r.unread[i] = (line, re.sub(r"\s{2,}", " ", said[:m.start()] + said[m.end():]).replace("( ", "("))
        return found
    return []


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
        # (neither Speed nor Move stated: the speed DX and HT give, (DX + HT) / 4, as both editions work it out)
        given = "Basic Speed" if speed is not None else "Move" if "Move" in doc else \
            f"(DX {doc.get('DX', 10)} + HT {doc.get('HT', 10)}) / 4 ="
        base = int(speed) if speed is not None else doc.get("Move", (doc.get("DX", 10) + doc.get("HT", 10)) // 4)
        if doc["Dodge"] >= base + 3:
            marks.setdefault("Dodge", f"Dodge {doc['Dodge']} with {given} {base}: Basic Speed + 3")
    if "Parry" in other and skills:
        parry = int(float(other["Parry"][0]))
        # with a shield ('Block 10 (Small Shield)'), 4e's Parry adds the shield's Defense Bonus (1 or 2)
        bonus = (0, 1, 2) if "Block" in other else (0,)
        found = next((b for b in bonus for s in skills.values()
                      if parry == s // 2 + 3 + b != s // 2 and parry != (2 * s) // 3), None)
        if found is not None:
            marks.setdefault("Parry", f"Parry {parry} = skill/2 + 3" + (f" + the shield's DB {found}" if found else ""))
    for k, (v, cost) in costs.items():
        c3 = GURPS3_ATTRIBUTE_COST.get(v)
        if cost == (v - 10) * GURPS4_ATTRIBUTE_STEP[k] and cost != c3 and v != 10:
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
        sm = doc.get("SM")
        if sm is None and "SM" in other and re.fullmatch(r"[+-]?\d+", other["SM"][0].strip()):
            sm = int(other["SM"][0])
        doc["HP"] = max(0, int(ht * size_gain(sm) + 0.5) + (hp4 - st))
        bulk = f" x {size_gain(sm):g} for the bulk of SM {sm:+d} (gurps.size)" if sm and sm > 0 else ""
        r.unread.append((line, f"HP {hp4}: 4th-edition HP come from ST ({st}{f' + {hp4 - st}' if hp4 != st else ''}); "
                               f"3rd-edition HP = HT{bulk}: read as {doc['HP']}"))
    if "Dodge" in doc:
        dodge4 = doc["Dodge"]
        dx = doc.get("DX", 10)
        base4 = int(speed) if speed is not None else doc.get("Move", (dx + ht) // 4)
        move3 = doc.get("Move", (dx + ht) // 4)
        # an encumbered block's Move and Dodge are both lower by its encumbrance level ('Speed 5.75, Move 4,
        # Dodge 7'): the stated Move holds it already, so it is not taken off a second time (it had been Dodge 3)
        enc = max(0, base4 - move3) if speed is not None and "Move" in doc and dodge4 < base4 + 3 else 0
        # a ground Move below Basic Speed with no encumbrance in the Dodge ('Move: 0 (Air Move 13)' of a legless
        # flyer, Speed 6.50, Dodge 10) is not an encumbrance: 3e's Dodge is the unencumbered Move, Basic Speed's
        # (it had been Dodge 1)
        legless = speed is not None and "Move" in doc and move3 < base4 <= dodge4 - 3
        doc["Dodge"] = max(0, (base4 if legless else move3) + dodge4 - (base4 + 3)
                           + (min(enc, base4 + 3 - dodge4) if enc else 0))
        r.unread.append((line, f"Dodge {dodge4}: 4th-edition Dodge = Basic Speed + 3 ({base4} + 3"
                               f"{f' + {dodge4 - base4 - 3}' if dodge4 != base4 + 3 else ''}); 3rd-edition Dodge = "
                               f"Move: read as {doc['Dodge']}"
                               + (f" (the encumbrance in both: Move {move3} of Basic Speed {base4})" if enc else "")
                               + (f" (Move {move3} is no encumbrance, the Dodge shows none: the Move of Basic Speed "
                                  f"{base4})" if legless else "")))
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
        elif k in ("SM", "Size", "Size Modifier") and num == 0:
            continue  # a human's size: nothing to carry
        elif k in ("SM", "Size Modifier") and num == int(num) and -15 <= num <= 30:
            doc["SM"] = int(num)  # 4th edition's Size Modifier (gurps.size)
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

# ---- writing --------------------------------------------------------------------------------

def write_gurps(d: dict[str, Any]) -> list[str]:
    out = [str(d.get("name", ""))]
    out.append(", ".join(f"{k} {d.get(k, 10)}" for k in GURPS_ATTRIBUTES))
    derived = [f"{k} {d[k]}" for k in GURPS_DERIVED if d.get(k) is not None]
    if d.get("SM"):
        derived.append(f"SM {d['SM']:+d}")
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
            if w.get("1/2D") is not None:
                parts.append(f"1/2D {w['1/2D']} m")
            if w.get("Max") is not None:
                parts.append(f"Max {w['Max']} m")
            parts.append(f"RoF {w.get('RoF', '1')}")
            if w.get("Shots"):
                parts.append(f"Shots {w['Shots']}")
            if w.get("ST") is not None:
                parts.append(f"ST {w['ST']}")
            if w.get("skill"):
                parts.append(f"Skill {w['skill']}")
            items.append(f"{w['name']}{catalog_label(w, 'catalog', 'weapon')} ({', '.join(parts)})")
        out.append(weapons_line("Weapons", items, [w["name"] for w in d["weapons"]]))
    if d.get("melee"):  # the melee table: what it rolls at the wielder's ST, its type, its skill
        items = [f"{m['name']} ({m.get('dice') or m['damage']} {m.get('type', 'cr')}, Skill {m['skill']})"
                 for m in d["melee"]]
        out.append(weapons_line("Melee", items, [m["name"] for m in d["melee"]]))
    if d.get("armor"):
        out.append("Armor: " + "; ".join(
            f"{a['name']}{catalog_label(a, 'catalog', 'armor')} (PD {a.get('PD', 0)}, DR {a['DR']}, "
            f"{' '.join(a.get('locations', ['torso']))})" for a in d["armor"]))
    return out




# ---- the declared layout -----------------------------------------------------------------------

class GurpsText(TextLayout):
    """The gurps system's text stat block (``GurpsSystem.text_layout``)."""

    stats_hint = "ST DX IQ HT (GURPS; 体力 敏捷力 知力 生命力)"
    stats = GURPS_ATTRIBUTES

    def score(self, lines: list[str]) -> int:
        return max(super().score(lines), japanese_score("\n".join(lines)))

    def __init__(self, key: str, thrust_swing: Callable[[int], tuple[int, int]], dice_text: Callable[[int], str]) -> None:
        super().__init__(key)
        self.thrust_swing, self.dice_text = thrust_swing, dice_text  # the system's own (system.py)

    def read(self, lines: list[str]) -> Read:
        return read_gurps(lines, self.key, self.thrust_swing, self.dice_text)

    def write(self, doc: dict[str, Any]) -> list[str]:
        return write_gurps(doc)
