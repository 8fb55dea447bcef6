"""Call of Cthulhu stat blocks as printed text: the layout the coc, coc-zh and coc7 systems name
(``text_block``), registered by this format plugin (:func:`block`, :func:`chinese_block`).

What it reads: English 5th/6th- and 7th-edition blocks, Japanese and Chinese scenario blocks
(tables, brackets, list marks: :func:`coc_layout`), their skill names (coc's names module) and
weapon lines. A block that names no system is read as 7th edition, into coc7 with its own values,
when its values or skill names are 7th edition's (:func:`coc_edition`), else into coc; a 7th-
edition block read into coc by name is put on coc's 3-18 scale (``seventh_to_coc``). The shared
line machinery is the core's (xsys.core.textblock).
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any, Callable

from xsys.core.errors import InputError
from xsys.core.model import melee_class_of
from xsys.core.textblock import (HEADINGS, Read, TextLayout, Walk, armor_entry, catalog_label, catalog_tag,
                                 count_stats, dice_text, fold, heading_of, length, name_of as _name, normalize, num,
                                 sectioner, split_items, weapon_class_by_name, weapon_entry, weapons_line)
from xsys.plugins.coc.names import (COC_CHARACTERISTIC_RANGE, COC_CHARACTERISTICS, COC_SKILLS, MELEE_CLASS_SKILL,
                                    PRINTED_NAMES, SEVENTH_AVERAGE_ADULT, SEVENTH_KEY, SEVENTH_RENAMES, seventh_name,
                                    UNSTATED_CHARACTERISTICS, closest_coc_skill, coc_skill, english_name,
                                    seventh_to_coc, skill_by_keyword, skill_of_class, translated_skill, unstated_note,
                                    weapon_skill)


# ---- names ------------------------------------------------------------------------------

COC_DERIVED = ("HP", "MP", "SAN", "Luck", "DB", "Build", "MOV", "Move", "Idea", "Know", "Sanity", "Magic Points")

# The names CoC blocks print for the characteristics and derived values, by the key a coc
# document files them under. English blocks use the capital abbreviations or the long words
# ("Con", "Size", "Power": "Strength", "Dexterity" and "Intelligence", nWoD attributes too,
# only where the others told the block CoC's, _COC_STATS_EN_SHARED); Japanese
# blocks (6th edition: クトゥルフ神話TRPG, 7th: 新クトゥルフ神話TRPG) and Chinese blocks (7th edition,
# Simplified and Traditional) their own words. Read after NFKC, so ＳＴＲ is STR and ／ is /.
_COC_STATS_ANY: dict[str, tuple[str, ...]] = {
    "STR": ("STR",), "CON": ("CON", "Con", "Constitution"), "SIZ": ("SIZ", "Size"), "DEX": ("DEX", "敏捷"),
    "APP": ("APP", "Appearance"), "INT": ("INT",), "POW": ("POW", "Power"), "EDU": ("EDU", "Education", "教育"),
    "HP": ("HP", "Hit Points", "Hit Point", "Hitpoints"), "MP": ("MP", "Magic Points", "Magic Point", "Magicpoints"),
    "SAN": ("SAN", "Sanity", "SAN値", "SAN值"), "Luck": ("Luck", "LUCK"),
    "DB": ("DB", "Damage Bonus"), "Build": ("Build",), "MOV": ("MOV", "Move", "Movement Rate"),
    "Idea": ("Idea",), "Know": ("Know", "Knowledge"),
}
_COC_STATS_JA: dict[str, tuple[str, ...]] = {
    "STR": ("筋力",), "CON": ("体力",), "SIZ": ("体格",), "DEX": ("敏捷性",), "APP": ("外見",), "INT": ("知性",),
    "POW": ("精神力",), "HP": ("耐久力",), "MP": ("マジック・ポイント", "マジックポイント"),
    "SAN": ("正気度", "正気度ポイント"), "Luck": ("幸運",), "DB": ("ダメージ・ボーナス", "ダメージボーナス"),
    "Build": ("ビルド",), "MOV": ("移動率", "移動"), "Idea": ("アイデア",), "Know": ("知識",),
}
_COC_STATS_ZH: dict[str, tuple[str, ...]] = {
    "STR": ("力量",), "CON": ("體質", "体质"), "SIZ": ("體型", "体型"), "APP": ("外貌", "外貎"), "INT": ("智力",),
    "POW": ("意志",), "HP": ("生命值", "生命", "耐久"), "MP": ("魔法值", "魔法"), "SAN": ("理智", "理智值"),
    "Luck": ("幸運", "幸运"), "DB": ("傷害加值", "伤害加值", "傷害加權", "伤害加权"), "Build": ("體格", "体格"),
    "MOV": ("移動力", "移动力", "移動", "移动"), "Idea": ("靈感", "灵感"), "Know": ("知識", "知识"),
}


# The long English words nWoD also prints: read in a block already told to be CoC's (by its
# other names: "Con", "Size", "Power", "Education" ...), never counted to tell it.
_COC_STATS_EN_SHARED: dict[str, tuple[str, ...]] = {
    "STR": ("Strength",), "DEX": ("Dexterity",), "INT": ("Intelligence",)}


def coc_stat_names(lang: str) -> dict[str, str]:
    """Printed name (as written) -> the coc key, for a block in `lang` ("en", "ja" or "zh"):
    Japanese 体格 is SIZ where Chinese 体格 is Build, so the language decides."""
    out: dict[str, str] = {}
    lang_table = {"ja": _COC_STATS_JA, "zh": _COC_STATS_ZH, "en": _COC_STATS_EN_SHARED}.get(lang, {})
    for table in (_COC_STATS_ANY, lang_table):
        for key, names in table.items():
            for name in names:
                out[name] = key
    return out


# Every name any block gives a characteristic (which system a block is for is told before its
# language is): characteristic -> names.
COC_CHARACTERISTIC_NAMES: dict[str, tuple[str, ...]] = {
    k: _COC_STATS_ANY[k] + _COC_STATS_JA.get(k, ()) + _COC_STATS_ZH.get(k, ()) for k in COC_CHARACTERISTICS}

# Every name a block gives its movement rate, in any language (Move, MOV, 移動, 移动力 ...)
MOV_NAMES = frozenset(n for t in (_COC_STATS_ANY, _COC_STATS_JA, _COC_STATS_ZH) for n in t.get("MOV", ()))

# Which edition a CoC block is (see reader.coc_edition): words only one edition's blocks use.
# 7th: the Fighting/Firearms skill families, Stealth, Charm, Intimidate and their Japanese and
# Chinese names; 6th (and 5th): the separate unarmed attacks, Sneak/Hide/Conceal, and the Idea,
# Know rolls (7e dropped them).
COC7_SKILL_WORDS = ("fighting (", "firearms (", "stealth", "charm", "intimidate", "language (own)", "近接戦闘",
                    "射撃(", "隠密", "魅惑", "威圧", "格斗", "格鬥", "斗殴", "鬥毆", "射击(", "射擊(", "潜行", "潛行")
COC6_SKILL_WORDS = ("fist/punch", "fist", "kick", "grapple", "head butt", "sneak", "hide", "conceal", "martial arts",
                    "こぶし", "キック", "組み付き", "頭突き", "マーシャルアーツ", "忍び歩き", "隠れる", "隠す")


# ---- which blocks are coc's --------------------------------------------------------------

_KANA = re.compile(r"[\u3040-\u30ff]")
# Words only Japanese CoC blocks write (a Japanese block may have no kana at all: "技能：拳銃60、
# 目星55、回避40"); Chinese writes 手枪/手槍, 侦查/偵查, 闪避/閃避, 生命值, 理智, 年龄/年齡
_JA_ONLY = re.compile(r"拳銃|目星|回避|耐久力|正気度|年齢|能力値|技能値|聞耳")
_HAN = re.compile(r"[\u4e00-\u9fff]")


def is_chinese(text: str) -> bool:
    """A CoC block in Chinese: Han characters, no kana and no word only Japanese blocks write."""
    return bool(_HAN.search(text)) and not _KANA.search(text) and not _JA_ONLY.search(text)


# ---- Call of Cthulhu ---------------------------------------------------------------------

# A skill item: "Spot Hidden 55%", "目星60％", "Dodge 30% (15/6)" (7th edition's half and fifth
# values), "目星(25%) : 85%" (Japanese 6th-edition sheets print the base chance first). The
# name ends before the whole run of digits, so "Dodge 1000%" is Dodge at 1000 (out of range),
# never a skill named "Dodge 1".
_PCT = re.compile(r"^(?P<name>.*?[^\d\s:])\s*(?:\(\s*\d{1,3}\s*%?\s*\)\s*)?:?\s*(?P<val>\d+)\s*%?"
                  r"\s*(?:\(\s*(?P<half>\d+)\s*/\s*(?P<fifth>\d+)\s*\))?\.?$")
SKILL_MAX = 200  # the largest chance a coc document holds (coc model: Percent)
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


def _compendium(item: str) -> str:
    """An attack as a compendium prints it, "Name: value" ("Fighting: 40% damage: 1d6 + damage
    bonus", "Dodge: 40"), as the reader reads an attack ("Fighting 40% damage 1d6+db")."""
    item = re.sub(r"^([^:\d%]{1,40}?)\s*:\s*(?=\d)", r"\1 ", item.strip())
    return re.sub(r"\+\s*(?:the\s+)?damage\s+bonus\b", "+db", item, flags=re.IGNORECASE)


def _pct_stop(text: str) -> str:
    """A full stop after a chance read as the comma it stands for ("Archaeology 85%. Astronomy 95%",
    "Paw x2 50%. damage 12D6": older scenarios' lists, typeset or scanned so)."""
    return re.sub(r"(\d\s*%(?:\s*\(\s*\d+\s*/\s*\d+\s*\))?)\s*\.(?=\s+\S)", r"\1,", text)


# what only a gun's line states: an attack that names no firearm and states none of these is close combat
_RANGED_ATTRS = frozenset({"base_range", "shots_per_round", "burst", "capacity", "malfunction", "ammo", "sights",
                           "muzzle_energy", "uses_per_round", "blast"})


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
# a damage that is the weapon's, whichever it is ("Firearms (Handgun) 40%, damage by weapon type",
# 伤害依武器, ダメージ: 武器による): the skill's line, no weapon of its own
_BY_WEAPON = r"(?:(?:by|per|as)\s+weapon(?:\s+type)?|依武器(?:而定)?|视武器(?:而定)?|視武器(?:而定)?|武器による|武器依存)"
_EACH_ROUND = r"(?:毎ラウンド|1\s*ラウンドごとに|每轮|每輪|每回合|(?:each|every|per)\s+round)"  # a damage dealt each round
_DB_WORD = re.compile(r"\s*\+\s*(?:伤害加值|傷害加值|傷害加權|伤害加权|ダメージ・?ボーナス)")
_LENGTH_UNITS = {"yds": "yd", "yards": "yd", "yard": "yd", "feet": "ft", "metres": "m", "meters": "m"}
_COC_ATTRS: tuple[tuple[str, str, Callable[[re.Match[str]], Any]], ...] = (
    ("damage", rf"^{_DAMAGE_WORD}\s*:?\s*({_DICE})$", lambda m: m.group(1).strip()),
    ("by_weapon", rf"^{_DAMAGE_WORD}\s*:?\s*{_BY_WEAPON}$", lambda m: True),
    # an explosive as 7th edition's table prints it: "4D10/3 yards", the damage at the burst and
    # the blast's radius (which the neutral model has no place for: said when read)
    ("damage_blast", rf"^{_DAMAGE_WORD}\s*:?\s*({_DICE})\s*/\s*(\d+(?:\.\d+)?)\s*(yards?|yds?|m|metres|meters|ft|feet)$",
     lambda m: (m.group(1).strip(), f"{m.group(2)} {_LENGTH_UNITS.get(m.group(3).lower(), m.group(3).lower())}")),
    ("base_range", r"^(?:base range|range|射程|基本射程)\s*:?\s*(\d+(?:\.\d+)?)\s*"
                   r"(m|yd|yds|yards|ft|feet|metres|meters|码|碼|米|公尺|ヤード|メートル)$",
     lambda m: f"{m.group(1)} " + {"yds": "yd", "yards": "yd", "feet": "ft", "metres": "m", "meters": "m", "码": "yd",
                                   "碼": "yd", "米": "m", "公尺": "m", "ヤード": "yd", "メートル": "m"}.get(
         m.group(2).lower(), m.group(2).lower())),
    ("skill", r"^skill\s*:?\s*(.+)$", lambda m: m.group(1).strip()),
    ("shots_per_round", r"^(\d+)\s*(?:shots? per round|/round|attacks? per round)$", lambda m: int(m.group(1))),
    ("burst", r"^(?:burst|1 or burst|full auto)$", lambda m: True),
    # 7th edition's "uses per round": "1", "1 (3)", "1 or full auto" (coc7's weapon line keeps it)
    # (the official 7th-edition sheet's weapon columns are "# of Attacks" and "Ammo": a number of
    # rounds there, not a kind of ammunition)
    ("uses_per_round", r"^(?:uses per round|(?:# of |number of )?attacks)\s*:?\s*(\d+[^,;]*)$",
     lambda m: m.group(1).strip()),
    ("capacity", r"^(?:capacity|shots|ammo|装弾数|弾数)\s*[:：]?\s*(\d+)\s*発?$", lambda m: int(m.group(1))),
    ("malfunction", r"^(?:malfunction|mal|故障ナンバー|故障)\s*[:：]?\s*(\d+)$", lambda m: int(m.group(1))),
    ("shots_per_round", r"^攻撃回数\s*[:：]?\s*(\d+)\s*回?$", lambda m: int(m.group(1))),
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
_NONE_CARRIED = re.compile(r"(?:none|not|no weapon|nothing)\s+carried|none\s+on\s+(?:him|her|them)", re.IGNORECASE)


_JA_LABELLED = re.compile(r"\s+(?=(?:基本射程|射程|装弾数|弾数|故障ナンバー|故障|攻撃回数)\s*[:：]?\s*\d)")


def coc_weapon_parts(item: str) -> tuple[str, int | None, dict[str, Any], list[str]] | None:
    """A CoC weapon item: (name, attack %, attributes, parts not understood), or None. The name
    may hold commas ("Hunting rifle, .30-06"); it ends where the first attribute starts. The
    chance and the damage may share the name's part: "Revolver 60% ダメージ 1D10", Japanese
    scenarios' "コルト・ガバメント 55% 1D10+2", "こぶし 1D3"."""
    item = _DB_WORD.sub("+DB", item)  # 1d6+傷害加權: the damage bonus in the block's own words
    parts = split_items(item.replace("、", ","), ",")
    # a Japanese scenario's line runs on with spaces, its attributes by their labels: "トカレフ 40% 1D10
    # 基本射程15m 装弾数8 故障99": each labelled attribute a part of its own
    parts = [x for p in parts for x in _JA_LABELLED.split(p)]
    weapon = None
    said_after: list[str] = []
    if len(parts) > 1 and _NONE_CARRIED.fullmatch(parts[-1].strip().rstrip(".")):
        said_after.append(parts.pop().strip())  # "Rifle 60%, none carried": the skill, and that no gun is, said
    for i, p in enumerate(list(parts)):
        alt = re.match(rf"^(.*?(?:{_DAMAGE_WORD}\s*:?|(?<!\d)\d+\s*%\s*{_HALF_FIFTH}\s*[—–])\s*{_DICE})\s*"
                       r"((?:(?<=\s)or\s+|或|/\s*(?=[^\W\d_]))\S.*|\+\s*(?!(?:DB|damage bonus)\b)[^\W\d_].*)$",
                       p.strip(), re.IGNORECASE)
        if alt:  # "damage: 1d3 + damage bonus or weapon damage", "伤害1D3+1D4或其他武器", "伤害 1D3+DB / 武器伤害":
            # its own damage; the other, said;
            # a ghoul's "damage 1D6 + worrying", a bestiary's "Bite 50% — 1D8+poison": the dice, and the
            # effect in words, said
            parts[i] = p = alt.group(1)
            said_after.append(alt.group(2))
        bm = re.match(rf"^(.*?(?<!\d)\d+\s*%)\s*[(（]\s*({_DICE})\s*(\+\s*[^\W\d_][^()（）]*)?[)）]$", p.strip(),
                      re.IGNORECASE)
        if bm:  # "Claws 30% (1D6+db)", 鉤爪30% (1d6+傷害加權): the damage in brackets after the chance;
            # 噬咬30% (1d6+牙齒的附加傷害): the dice, and what is added in words, said
            parts[i] = f"{bm.group(1)} damage {bm.group(2)}"
            if bm.group(3):
                said_after.append(bm.group(3).strip())
        am = re.fullmatch(rf"\s*({_DICE})\s*点?\s*(?:伤害|傷害)\s*", parts[i], re.IGNORECASE)
        if am:  # "1D8+1+DB 伤害": the damage before its word, as Chinese puts it
            parts[i] = f"damage {am.group(1)}"
    for i, p in enumerate(parts):
        # the 7th-edition rulebook's "Fighting (Brawl) 60% (30/12), damage 1D3+1+DB (knife)": the damage
        # of the weapon in brackets after it, fought with that skill
        wm = re.match(rf"^({_DAMAGE_WORD}\s*:?\s*{_DICE})\s*\(([^()]{{1,30}})\)$", p.strip(), re.IGNORECASE)
        if wm and _CONDITION.search(wm.group(2)):  # "damage 2D6 (only against a seized victim)": a note
            parts[i] = wm.group(1)
            said_after.append(f"({wm.group(2).strip()})")
        elif wm:
            parts[i], weapon = wm.group(1), wm.group(2).strip()
    first = next((i for i, p in enumerate(parts) if _coc_attr(p)), len(parts))
    # the name ends at its chance: what follows before any attribute ("斗殴 80% 伤害 1d3+1d4, 使用砍刀时
    # 伤害为 1d6+1d6", another weapon's damage said in words) is not read, not part of the name
    chance_at = next((i for i, p in enumerate(parts[:first]) if re.search(r"(?<!\d)\d+\s*%\s*\S", p)
                      and re.search(_DICE, p.split("%", 1)[1])), None)
    if chance_at is not None and chance_at + 1 < first:
        said_after, parts = parts[chance_at + 1:first] + said_after, parts[:chance_at + 1] + parts[first:]
        first = chance_at + 1
    head = ", ".join(parts[:first])
    nm = re.match(rf"^(.*{_DICE})\s*[(（]([^()（）]{{1,60}})[)）]$", head, re.IGNORECASE)
    if nm and _CONDITION.search(nm.group(2)):
        head = nm.group(1)  # "矛 45% 伤害 1d6+1d4（投掷时伤害加值为 1d2）": a note after the damage, said
        said_after.insert(0, f"({nm.group(2).strip()})")
    attrs: dict[str, Any] = {}
    tm = re.match(rf"^(.*?{_DAMAGE_WORD}\s*:?\s*)({_EACH_ROUND})\s*({_DICE})$", head, re.IGNORECASE)
    if tm:  # "噛みつき: 50% ダメージ: 毎ラウンド 1D4": the dice are its damage; that it repeats, said
        head = tm.group(1) + tm.group(3)
        said_after.insert(0, tm.group(2))
    m = re.match(rf"^(.*?)(?:\s+|(?<=[%)）]))(?:{_DAMAGE_WORD})\s*:?\s*({_DICE})$", head, re.IGNORECASE)
    if m:  # "Revolver 60% ダメージ 1D10", "Shotgun 50% - Damage 4D6": the damage on the same part
        head, attrs["damage"] = re.sub(r"(?<=%)\s*[—–-]$", "", m.group(1)), m.group(2).strip()
    else:
        each = re.match(rf"^(.*{_DICE})\s+(each|apiece)$", head, re.IGNORECASE)
        if each:  # "Claws (x2) 55%, 1D6+1D6 each": the dice of one; that each attack rolls them, said
            head = each.group(1)
            said_after.insert(0, each.group(2))
        m = re.match(rf"^(.*?(?<!\d)\d+\s*%\s*{_HALF_FIFTH})\s*(?::|[—–,-])?\s*({_DICE})$", head, re.IGNORECASE)
        if m:  # "コルト・ガバメント 55% 1D10+2", a bestiary's "Bite 55% — 1D8+DB", an older scenario's "Bite 35%, 1D10+1D6"
            head, attrs["damage"] = m.group(1), m.group(2).strip()
    if "damage" not in attrs:
        om = re.match(rf"^(.*?(?<!\d)\d+\s*%\s*{_HALF_FIFTH})\s*(?:[,，、;]\s*)?({_DAMAGE_WORD}\s*:?\s*\S.*)$", head,
                      re.IGNORECASE) or \
            re.match(rf"^(.*?(?<!\d)\d+\s*%\s*{_HALF_FIFTH})\s*[—–-]\s*([^\W\d_].*)$", head, re.IGNORECASE)
        if om:  # "舌: 60% ダメージ: POW 1D10", "Sting 40%, damage: POW 1D10", "胞子のキス: 30% ダメージ: 特殊", a
            # bestiary's "Fighting 50% — See Full Entry": the attack and its chance; a damage that is no roll
            # of hit points (a characteristic drained, "special", told elsewhere), said
            head = om.group(1)
            said_after.insert(0, ("" if re.match(_DAMAGE_WORD, om.group(2), re.IGNORECASE) else "— ")
                              + om.group(2).strip())
    pm = re.match(rf"^(.*?)\s*(?<!\d)(\d+)\s*%\s*{_HALF_FIFTH}$", head)
    pct = None
    if pm:
        head, pct = pm.group(1), int(pm.group(2))
    elif "damage" not in attrs and not re.search(rf"(?<!\d)\d+\s*%|{_DAMAGE_WORD}", head, re.IGNORECASE):
        dm = re.match(rf"^(.*?[^\d\s])\s+({_DICE})$", head)
        if dm:  # "こぶし 1D3": an attack with no chance printed (a chance or a damage word before the
            # dice is no name: "Sting 40%, damage: POW 1D10" had been a line of that name)
            head, attrs["damage"] = dm.group(1), dm.group(2).strip()
    name = head.strip().rstrip(":").strip()
    if not re.search(r"[^\W\d_]", name):  # "1 ／ 1D6" (a Sanity loss): no attack has a name without a letter
        return None
    left = list(said_after)
    for p in parts[first:]:
        found = _coc_attr(p)
        if found and found[0] == "damage_blast":
            attrs.setdefault("damage", found[1][0])
            attrs.setdefault("blast", found[1][1])
        elif found:
            attrs.setdefault(found[0], found[1])
        else:
            left.append(p)
    if pct is None and "damage" not in attrs:
        return None
    if weapon is not None:
        attrs["weapon"] = weapon
    return name, pct, attrs, left


# a bestiary's attack named after the skill it is made with ("Fighting, Claws 35%", "Fighting, bite"):
# the skill, and the attack's own name
_ATTACK_OF_FIGHTING = re.compile(r"(Fighting|Brawl)\s*,\s*([^\W\d_][^,%]*)", re.IGNORECASE)
# a shapechanger's attack in one of its forms ("Fighting (as Human)", "Fighting (in wolf form)"): its Fighting
_FIGHTING_IN_FORM = re.compile(r"(Fighting|Brawl)\s*\(\s*(?:as|in)\s+[^()]+\)", re.IGNORECASE)


# a bracket after an attack's damage that says when it applies, not the weapon it is made with
_CONDITION = re.compile(r"\b(?:when|if|only|against|unless|while|after|each|per|vs|once|victim|target|round|turn|"
                        r"at a time|both|two|three)\b|\d|时|時", re.IGNORECASE)


# a CoC block's 'Languages:' heading: its skills are languages (the shared heading reads them as skills);
# a creature's 'Abilities' / 'Special Powers' (the Roll20 compendium's, a bestiary's): its text is notes
_LANGUAGES = {**{fold(h): "languages" for h in ("languages", "language", "言語", "語言", "语言")},
              **{fold(h): "notes" for h in ("abilities", "special abilities", "special powers")}}


def _prose_line(text: str, spells: bool = False) -> bool:
    """A sentence under a spells or skills heading ("the Keeper may give him any spell.", a
    Japanese one with its 。 inside), not a list (a list of skills has its %; a sentence about
    spells may: "a 40% chance of knowing 1D4 spells")."""
    t = text.strip()
    parts = [x.strip() for x in re.split(r"[、,，]", t.rstrip("。."))]
    if spells and len(parts) >= 2 and all(0 < len(x) <= 20 for x in parts) \
            and re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", t) and not re.search(r"[\u3040-\u309f]$", parts[-1]):
        # a Japanese list of spells ('NPCの召喚、NPCの退散。'): names apart by 、, the last a name, not a verb's
        # ending in kana, as a sentence's ('…習得していてよい。')
        return False
    return not re.search(r"[《「『〈]" if spells else r"[《「『〈%％]", t) and (
        bool(re.search(r"。.", t)) or (t.endswith("。") and len(t) > 12)
        or (len(t.split()) >= 10 and bool(re.search(r"\b(?:the|may|any|is|are|has|have|can|knows?|chance)\b", t, re.IGNORECASE))))


# a weapon named in brackets after the Firearms skill's word, in English, Chinese and Japanese
_FIRED_WITH = re.compile(r"(?:firearms?|射击|射擊|射撃)\s*\((.{1,60})\)", re.IGNORECASE)


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
    if re.search(r"\s/\s", text) and all(re.search(r"\d*[dD]\d", p) for p in re.split(r"\s/\s", text)):
        # attacks apart by a spaced slash, each with its damage ("斗殴 1D3+DB / 匕首 55% 1D4+DB")
        return [p.strip() for p in re.split(r"\s/\s", text) if p.strip()]
    items: list[list[str]] = []
    parts: list[str] = []
    for part in split_items(text, ","):
        # "damage 1D3+1D4 Head Butt 55%": a line run on without its comma (a flattened page): the
        # damage, and the next attack
        run = re.match(rf"^({_DAMAGE_WORD}\s*:?\s*(?:{_DICE}(?=\s)|{_BY_WEAPON}))\s*([^\d\s,:][^:]*?(?<!\d)\d+\s*%.*)$",
                       part, re.IGNORECASE)
        parts += [run.group(1), run.group(2)] if run else [part]
    for part in parts:
        if items and _attack_starts(part) and any(
                _coc_attr(p) is not None and _coc_attr(p)[0] == "damage" or re.search(r"(?<!\d)\d+\s*%", p)
                for p in items[-1]):
            items.append([part])
        elif items:
            items[-1].append(part)
        else:
            items.append([part])
    return [", ".join(i) for i in items]


# ---- Call of Cthulhu: printed layouts ----------------------------------------------------
#
# Scenario writers print a CoC stat block in many shapes besides "STR 12 CON 11 ...": Markdown
# tables (a row of names over a row of values, or one "| STR | 13 |" row each), plain tables
# (a line of names over a line of values), bracketed names (【STR】13, 〈STR〉13), list numbers
# (①STR : 12), bullets and bold. coc_layout rewrites those lines as the plain lines the reader
# reads (same number of lines, so a report still names the line the user wrote); every other
# line is left exactly as written.

_ALL_STAT_NAMES = {fold(k): k for k in {**coc_stat_names("ja"), **coc_stat_names("zh")}}
_TABLE_LABELS = {fold(x) for x in (
    "stats", "stat", "value", "values", "characteristic", "characteristics", "char.", "char", "averages", "average",
    "rolls", "roll", "能力値", "能力", "値", "数値", "項目", "技能値", "数值", "属性", "屬性", "名称", "名稱", "name",
    "percent", "%", "damage", "ダメージ", "伤害", "傷害", "成功率", "骰点", "骰點", "掷骰", "擲骰", "均值", "平均值")}
_BRACKETS = "【】〔〕[]〈〉《》<>«»"
_CIRCLED = re.compile(r"^\s*[\u2460-\u2473\u24ea\u2776-\u277f\u3251-\u325f]\s*")
_LIST_MARK = re.compile(r"^\s*(?:[\u2460-\u2473\u24ea\u2776-\u277f]|[■□●○◆◇▼▽▲△★☆※•]|[-*+](?=\s))\s*")
_INFO_LABEL = re.compile(r"^\s*(?:【\s*)?(?:age|occupation|sex|gender|birthplace|年齢|年令|職業|性別|出身|年齡|年龄|职业|"
                         r"性别|出生地)\s*(?:】\s*[:：]?|[:：])", re.IGNORECASE)
# a label before the name ("名前：", a page title's "探索者：" (investigator), "角色：" (character))
_NAME_LABEL = re.compile(r"^\s*(?:【\s*(?:name|名前|氏名|姓名|名字)\s*】\s*[:：]?|(?:name|名前|氏名|姓名|名字|探索者|調査員|"
                         r"调查员|調查員|角色|キャラクター|investigator|character)\s*[:：])\s*", re.IGNORECASE)
_VALUE_CELL = re.compile(rf"^(?:[+-]?\d+(?:\.\d+)?\s*%?(?:\s*/\s*\d+)?(?:\s*\(\s*\d+\s*/\s*\d+\s*\))?|[+-]?{_DICE}|\(\s*\d+\s*/\s*\d+\s*\)|-|—|"
                         r"none|なし|無|无)$", re.IGNORECASE)


_TABLE_HEAD = re.compile(r"char(?:acteristics?|\.)|rolls?|averages?|能力值|属性|屬性|擲骰|掷骰|骰点|骰點|平均值|均值",
                         re.IGNORECASE)
_AVERAGE = re.compile(r"平均|average\s+|avg\.?\s+|av\.\s+", re.IGNORECASE)
_ROLL_CELL = re.compile(r"^\(?\s*\d*D\d+(?:\s*[+-]\s*\d+)?\s*\)?(?:\s*[x×*]\s*5)?$", re.IGNORECASE)  # (3D6+6)×5


_R20_CHARACTERISTICS = {"strength": "STR", "constitution": "CON", "size": "SIZ", "dexterity": "DEX",
                        "appearance": "APP", "intelligence": "INT", "power": "POW", "education": "EDU"}
_R20_LINES = {"hitpoints": "HP {}", "magicpoints": "MP {}", "build": "Build: {}", "damage_bonus": "Damage Bonus: {}",
              "move": "Move: {}", "dodge": "Skills: Dodge {}%", "skills": "Skills: {}", "armor": "Armor: {}",
              "sanity_loss": "Sanity Loss: {}", "attacks_per_round": "Attacks per round: {}",
              "spells_known": "Spells: {}", "short_description": "Notes: {}", "type": "Notes: {}",
              "sanity": "SAN {}", "luck": "Luck {}"}


def _roll20_attribute(key: str, value: str) -> str | None:
    """A line of the Roll20 compendium's attributes view of a Call of Cthulhu creature (its key,
    "characteristics_average", "combat_attacks", "hitpoints" ..., alone on a line, its value on
    the next, a JSON one for the lists) as the block's own line; None for any other key."""
    if key in ("characteristics_average", "characteristics", "combat_attacks", "combat_abilities",
               "special_abilities"):
        try:
            data = json.loads(value)
        except ValueError:
            return None
        if key.startswith("characteristics") and isinstance(data, dict):
            return " ".join(f"{_R20_CHARACTERISTICS[k]} {v}" for k, v in data.items()
                            if k in _R20_CHARACTERISTICS and re.fullmatch(r"\d{1,4}", str(v)))
        if not isinstance(data, list):
            return None
        items = [x for x in data if isinstance(x, dict) and x.get("name")]
        if key == "combat_attacks":  # "Fighting 55%, damage 1D6+DB"; one with no chance keeps its damage alone
            return "Combat: " + "; ".join(
                f"{x['name']}{' ' + str(x['target']) + '%' if x.get('target') else ''}"
                + (f", damage {x['damage']}{'+DB' if x.get('damage_bonus') == 'full' else ''}" if x.get("damage") else "")
                for x in items)
        return "Notes: " + " ".join(f"{x['name']}: {x.get('description', '')}".strip() for x in items)
    form = _R20_LINES.get(key)
    if form is None:
        return None
    if key == "damage_bonus" and re.fullmatch(r"\d*d\d+.*", value, re.IGNORECASE):
        value = "+" + value
    return form.format(value.strip().rstrip("."))


# the names a dice bot's character string gives the stats besides the block's own: English
# aliases in lower case ("力量60str60"), 7th edition's Idea and Know aliases of INT and EDU
_BOT_ALIASES = {"str": "STR", "con": "CON", "siz": "SIZ", "dex": "DEX", "app": "APP", "int": "INT", "pow": "POW",
                "edu": "EDU", "luck": "Luck", "san": "SAN", "san值": "SAN", "hp": "HP", "mp": "MP", "mov": "MOV",
                "db": "DB", "灵感": "INT", "靈感": "INT", "知识": "EDU", "知識": "EDU", "理智值": "SAN", "体力": "HP"}


def _dice_bot_line(text: str) -> str | None:
    """A dice bot's character string (the ".st" command of the QQ dice bots Chinese groups play
    with: ".st力量60str60体质70con70…理智60san60侦查60聆听50"), names run on into their values
    with no separator: the line as the block's own stats ("STR 60 CON 70 …") and a skills
    section ("技能: 侦查 60%, …"); an alias that repeats a stat with its value is left out.
    None for any other line."""
    body = re.sub(r"^[.。]\s*st\s*", "", text, flags=re.IGNORECASE)
    if body == text and not re.fullmatch(r"(?:[^\d\s:：]+[:：]?\d+){8,}", text):
        return None
    pairs = re.findall(r"([^\d\s:：=,，;；|]+)\s*[:：=]?\s*(\d+)", body)
    if len(pairs) < 5 or "".join(f"{a}{b}" for a, b in pairs) != re.sub(r"[\s:：=,，;；|]", "", body):
        return None
    names = {**{n: k for lang in ("en", "zh") for n, k in coc_stat_names(lang).items()}, **_BOT_ALIASES}
    stats: dict[str, str] = {}
    skills: list[str] = []
    for name, value in pairs:
        key = names.get(name) or names.get(name.lower())
        if key in ("Idea", "Know"):
            continue  # 6th edition's rolls: INT x 5 and EDU x 5, not the sheet's own
        if key is not None:
            stats.setdefault(key, value)
        else:
            skills.append(f"{name} {value}%")
    if len(stats) < 5:
        return None
    return " ".join(f"{k} {v}" for k, v in stats.items()) + (f" 技能: {', '.join(skills)}" if skills else "")


def _flat_row(nf: list[str], i: int) -> int | None:
    """Where the value of a characteristic stands when a creature's table (characteristic, roll,
    average) is pasted a cell a line: "STR" / "(3D6+6)×5" / "80", or the line after the name
    when the roll is not printed. The line of the value (a whole number; "16~17" reads 16 and
    says the rest is not read), or None."""
    if _stat_cell(nf[i]) is None or " " in nf[i].strip():
        return None
    nxt = [k for k in range(i + 1, min(len(nf), i + 4)) if nf[k]]
    if len(nxt) >= 2 and _ROLL_CELL.match(nf[nxt[0]]) and re.fullmatch(r"\d{1,3}(?:\s*[~～]\s*\d{1,3})?", nf[nxt[1]]):
        return nxt[1]
    if nxt and re.fullmatch(r"[+-]?\d{1,3}|[+-]\d*D\d+", nf[nxt[0]], re.IGNORECASE):  # "移動" / "9", "DB" / "+1D4"
        return nxt[0]
    return None


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
    if words and fold(words[0]) in HEADINGS and all(fold(c) in _TABLE_LABELS or fold(c) in HEADINGS
                                                      for c in words[1:]):
        return words[0] + ":"
    return None


# the Roll20 compendium page around a creature's block, as a copied page holds it: its cookie
# notice, close mark, account and search prompts, section tabs and advertisement lines (none is
# the creature's: a page copied whole had the cookie notice as the creature's name)
_PAGE_FURNITURE = re.compile(r"^(?:Roll20 uses cookies\b.*|×|\*|Create a free account|Compendium|Advertisement\b.*|"
                             r"Type to search for a spell, item, class\b.*|Searches must be at least \d+ characters\.|"
                             r"Ready to play\? Build unlimited .*|Create Now|Call of Cthulhu)$")


_SAN_LOSS_LABEL = re.compile(r"^\s*(?:sanity loss|san loss|正気度喪失|理智损失|理智損失|理智值丧失|理智值喪失)", re.IGNORECASE)


# a stat's every printed name, any language -> the stat; and a name with its abbreviation in brackets
_STAT_OF = {fold(n): k for table in (_COC_STATS_ANY, _COC_STATS_JA, _COC_STATS_ZH) for k, ns in table.items()
            for n in ns}
_TWO_STATS = re.compile(r"([^\W\d_]+(?: [^\W\d_]+)?)\s+(?:and|&)\s+([^\W\d_]+(?: [^\W\d_]+)?)\s*[:：]\s*([+\-]?[\w+\-]+)\s*[,/;]\s*"
                        r"([+\-]?[\w+\-]+)", re.IGNORECASE)
# a value followed by its half and fifth ("60 (30/12)"), the word before it
_VALUE_HALF_FIFTH = re.compile(r"(?P<word>[^\W\d_][\w.)\]'’-]*)?(?P<gap>\s+)(?P<v>\d{1,3})(?P<h>\s*\(\s*(?P<half>\d{1,2})\s*/\s*"
                         r"(?P<fifth>\d{1,2})\s*\))")


def _with_percent(m: re.Match[str]) -> str:
    """A skill's value printed with its half and fifth but no % ("Brawl 60 (30/12)") with its %:
    7th edition's half and fifth (floored) prove it a percentage; a characteristic ("STR 60
    (30/12)") stays as it is."""
    v, word = int(m["v"]), m["word"] or ""
    if int(m["half"]) != v // 2 or int(m["fifth"]) != v // 5 or not word or _STAT_OF.get(fold(word)):
        return m.group(0)
    return f"{word}{m['gap']}{v}%{m['h']}"


_NAMED_TWICE = re.compile(r"([^\W\d_][^\W\d_ ]*(?: [^\W\d_]+)?)\s*\(\s*([A-Za-z]{2,5})\s*\)")


def _armor_prose(item: str) -> bool:
    """An armor entry that is words, not a rating: no number at all ("Resistant to harm (see
    special powers)", "可以穿着任何盔甲"), or a sentence about it ("在鬣狗形态下，肌肉和硬皮会提供 3 点护甲。":
    3 points in its hyena form only)."""
    text = item.strip()
    return not re.search(r"\d", text) or (len(text) >= 15 and text.endswith(("。", ".")) and " " not in text[:12])


# what is left of an attack after its damage when it offers another ("or weapon damage", 或其他武器,
# "或, 武器伤害+DB", または武器) or adds an effect to it ("さらに青い膿": and blue pus; "plus poison")
_OR_OTHER = re.compile(r"^\s*(?:or\b|或者?|または|又は|さらに|更に|plus\b|并且|並且)", re.IGNORECASE)


# the official 7th-edition sheet's weapons table as a PDF's text gives it: its heading row (the
# sheet's Move box may follow it), then each weapon's name and its cells (the skill's value, half
# and fifth, damage, attacks, range, ammo, malfunction), the name on the line of its cells or on
# the line before or after them
_SHEET_WEAPONS = re.compile(r"^\s*Weapon\s+Skill\s+Damage\s+#\s*of\s+Attacks\s+Range\s+Ammo\s+Malf\.?\s*(?P<rest>.*)$",
                            re.IGNORECASE)
_SHEET_DICE = r"\d*D\d+(?:\s*[+-]\s*(?:\d*D\d+|\d+|½\s*DB|1/2\s*DB|DB))*"
_SHEET_VALUES = re.compile(rf"^(?P<v>\d{{1,3}})\s+(?P<h>\d{{1,2}})\s+(?P<f>\d{{1,2}})\s+(?P<dmg>{_SHEET_DICE})(?:\s+(?P<tail>.*))?$",
                           re.IGNORECASE)
# (a range with no unit is in the sheet's yards, said by the reader of the line; ammunition "1+7": the
# loaded and the spare, the loaded read)
_SHEET_TAIL = r"(?:\d+(?:\s*\(\d+\))?|-)\s+(?:\d+(?:\.\d+)?\s*(?:yards?|yds?|ft|feet|m)?|Touch|-)\s+(?:\d+(?:\+\d+)?|-)\s+(?:\d+|-)"
_SHEET_TAIL_PARTS = re.compile(r"^(?P<att>\d+(?:\s*\(\d+\))?|-)\s+(?P<rng>\d+(?:\.\d+)?\s*(?:yards?|yds?|ft|feet|m)?|Touch|-)"
                               r"\s+(?P<ammo>\d+(?:\+\d+)?|-)\s+(?P<malf>\d+|-)\s*(?P<rest>.*)$", re.IGNORECASE)
_SHEET_NAMED = re.compile(rf"^(?P<name>\D.*?|\d+\s*mm\b.*?)\s+(?P<values>\d{{1,3}}\s+\d{{1,2}}\s+\d{{1,2}}\s+{_SHEET_DICE}.*)$",
                          re.IGNORECASE)
_SHEET_NAME_TAIL = re.compile(rf"^(?P<name>.+?)\s+(?P<tail>{_SHEET_TAIL}.*)$", re.IGNORECASE)
_SHEET_TABLE_END = re.compile(r"^(?:Dodge|Damage Bonus|MY STORY|BACKSTORY|GEAR|Personal Description)\b", re.IGNORECASE)


def _sheet_weapon(name: str, values: re.Match[str], tail: str) -> tuple[str, str] | None:
    """One row of the sheet's weapons table as the reader's weapon line ("9mm semi-automatic 50%
    (25/10), damage 1D10, attacks 1 (3), base range 15 yards, ammo 8, malfunction 100") and what
    followed it on its line (another box's: "Build 0"); None where the half and fifth are not the
    value's (no row of the table)."""
    v, h, f = int(values["v"]), int(values["h"]), int(values["f"])
    parts = _SHEET_TAIL_PARTS.match(tail.strip()) if tail.strip() else None
    if h != v // 2 or f != v // 5 or (tail.strip() and parts is None):
        return None
    damage = re.sub(r"\s+", "", values["dmg"])
    line = f"{name.strip()} {v}% ({h}/{f}), damage {damage}"
    if parts is not None:
        rng = parts["rng"]
        line += "".join(x for x in (
            f", attacks {parts['att']}" if parts["att"] != "-" else "",
            f", base range {rng}" if re.match(r"\d", rng) else "",
            f", ammo {parts['ammo']}" if parts["ammo"] != "-" else "",
            f", malfunction {parts['malf']}" if parts["malf"] != "-" else ""))
    return line, (parts["rest"].strip() if parts is not None else "")


def _sheet_weapons(out: list[str], nf: list[str]) -> None:
    """The official sheet's weapons table (see above) rewritten as the attack lines the reader
    reads after the stats ("9mm semi-automatic 50% (25/10), damage 1D10, ..."), each on its name's
    line (the line of cells it took is left blank); the boxes printed beside the table (Move 8,
    Build 0) stay on the table's heading line, read as they were."""
    head = next((k for k, x in enumerate(nf) if _SHEET_WEAPONS.match(x)), None)
    if head is None:
        return
    boxes = [_SHEET_WEAPONS.match(nf[head])["rest"].strip()]
    rows = []
    for j in range(head + 1, min(len(nf), head + 30)):
        if nf[j] and _SHEET_TABLE_END.match(nf[j]):
            break
        if nf[j]:
            rows.append(j)
    pending: int | None = None  # a line of cells whose name is on the next line
    done: set[int] = set()
    for i, j in enumerate(rows):
        x = nf[j]
        cells = _SHEET_VALUES.match(x)
        if cells:
            pending = j if not cells["tail"] else None
            continue
        named = _SHEET_NAMED.match(x)
        with_tail = _SHEET_NAME_TAIL.match(x)
        found = None
        if named:  # the name and its cells on one line ("Brawl 25 12 5 1D3 + DB 1 - - -")
            m = _SHEET_VALUES.match(named["values"])
            found = _sheet_weapon(named["name"], m, m["tail"] or "") if m else None
        elif with_tail and pending is not None:  # the cells on the line before ("50 25 10 1D10")
            found = _sheet_weapon(with_tail["name"], _SHEET_VALUES.match(nf[pending]), with_tail["tail"])
            if found:
                done.add(pending)
        elif not with_tail and i + 1 < len(rows) and _SHEET_VALUES.match(nf[rows[i + 1]]):
            nxt = rows[i + 1]  # the cells on the line after ("25 12 5 1D4+DB 1 Touch - -")
            m = _SHEET_VALUES.match(nf[nxt])
            found = _sheet_weapon(x, m, m["tail"] or "")
            if found:
                done.add(nxt)
        pending = None
        if found:
            out[j] = nf[j] = found[0]
            boxes.append(found[1])
    if len(boxes) > 1 or done:
        for j in done:
            out[j] = nf[j] = ""
        out[head] = nf[head] = " ".join(b for b in boxes if b)


# an attack's "damage" that drains a characteristic ("POW 1D10", "ダメージ: CON 3D10"), not hit points
_DRAIN = re.compile(r"^\s*(?:(?:damage|ダメージ|伤害|傷害)\s*[:：]?\s*)?(?:STR|CON|SIZ|DEX|APP|INT|POW|EDU)\s*"
                    r"\d*D\d+(?:\s*[+-]\s*\d+)?\s*$", re.IGNORECASE)
# a close-combat attack's damage that comes again every round (a bite that holds on)
_PER_ROUND = re.compile(r"^\s*(?:毎ラウンド|每轮|每輪|每回合|each round|every round|per round)\s*$", re.IGNORECASE)


def _roll20_title(out: list[str], nf: list[str]) -> None:
    """A Roll20 page prints the creature's name twice (the page's title, then its entry's) and a
    tagline under the second ("Great viperine flyers"): the name once, the tagline a note."""
    filled = [k for k, x in enumerate(nf) if x]
    if not filled:
        return
    title = nf[filled[0]]
    again = next((k for k in filled[1:8] if nf[k] == title), None)
    if again is None:
        return
    out[again] = nf[again] = ""
    tag = next((k for k in filled if k > again), None)
    if tag is not None and len(nf[tag]) <= 60 and not re.search(r"[\d:：%]", nf[tag]) \
            and heading_of(nf[tag]) is None:
        out[tag] = nf[tag] = f"Notes: {nf[tag]}"


# ---- a block in another European language ----------------------------------------------------

_ENGLISH_LABELS = ("STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU")


def _languages() -> dict[str, dict[str, Any]]:
    """languages.toml: the labels of a 7th-edition block in German, Polish, French and Spanish."""
    from xsys.core.cache import package_toml

    return package_toml(__package__, "languages.toml")["language"]


def _labels_before_numbers(text: str, labels: Any) -> int:
    return sum(bool(re.search(rf"(?<![\w]){re.escape(x)}\s*:?\s*\d", text)) for x in labels)


def block_language(lines: list[str]) -> str | None:
    """The language of a block whose characteristics carry another language's labels (at least five of
    the eight before a number, more than English ones: 'S 75 KON 60 BC 80 ZR 70'), else None."""
    text = "\n".join(lines)
    english = _labels_before_numbers(text, _ENGLISH_LABELS)
    found = {k: _labels_before_numbers(text, v["characteristics"].values()) for k, v in _languages().items()}
    best = max(found, key=lambda k: found[k])
    return best if found[best] >= 5 and found[best] > english else None


def localized(lines: list[str]) -> list[str]:
    """A block in German, Polish, French or Spanish as the English block its labels stand for
    (languages.toml, the Foundry CoC7 importer's labels): its characteristics, derived values,
    sections, damage words, dice letters ('1K6' is 1D6) and age, and its skills by the Foundry
    CoC7 system's names in that language (foundry_names.toml); the same number of lines."""
    lang = block_language(lines)
    if lang is None:
        return lines
    table = _languages()[lang]
    labels = [(x, k) for k, x in table["characteristics"].items()] + \
        [(x, k) for k, xs in table["derived"].items() for x in xs]
    labels.sort(key=lambda p: len(p[0]), reverse=True)
    label_re = re.compile(r"(?<![\w])(" + "|".join(re.escape(x) for x, _ in labels) + r")(?=\s*:?\s*(?:[+-]?\d|-(?!\w)|"
                          + "|".join(re.escape(w) for w in table["none"]) + r"))")
    english = dict(labels)
    sections = {fold(x): k for k, xs in table["sections"].items() for x in xs}
    damage = re.compile(r"(?<![\w])(?:" + "|".join(re.escape(w) for w in table["damage"]) + r")(?=\s*:?\s*\d)",
                        re.IGNORECASE)
    db = [x for x in table["derived"]["DB"]]
    out = []
    # (the age stands with the name, above the characteristics: '27 lat' in a sentence below is no age)
    first_stats = next((k for k, x in enumerate(lines) if len(label_re.findall(x)) >= 2), len(lines))
    for k, line in enumerate(lines):
        head = re.fullmatch(r"\s*([^\d:%]+?)\s*(:\s*(.*))?", line)
        if head and fold(head.group(1).rstrip(":")) in sections and (head.group(2) or line.strip() == head.group(1)):
            line = sections[fold(head.group(1).rstrip(":"))] + (f": {head.group(3)}" if head.group(2) else "")
        if len(label_re.findall(line)) >= 2 or any(len(x) > 3 and x in line for x, _ in labels) \
                or re.fullmatch(r"\s*(?:" + "|".join(re.escape(x) for x in table["characteristics"].values())
                                + r")\s*:?\s*\d+\s*", line):  # (a label a line: 'ST 70' of a German block)
            line = label_re.sub(lambda m: english[m.group(1)], line)
        line = damage.sub("damage", line)
        if table["dice"]:
            line = re.sub(rf"(\d*)[{table['dice']}](\d+)", r"\1D\2", line)
        line = re.sub(r"\+\s*(?:" + "|".join(re.escape(x) for x in db) + r")(?![\w])", "+DB", line)
        if k < first_stats or k == 0:
            line = re.sub(table["age"], r"age \1", line)
        line = re.sub(r"(:\s*)(?:" + "|".join(re.escape(w) for w in table["none"]) + r")(?![\w])", r"\1none", line)
        # its skills by their names in that language ('Unik 50% (25/10)', 'Urok Osobisty 30%'), item by item; an
        # attack with its damage is renamed only where it is named by its close-combat skill ('Pelea 40%, daño
        # 1D3': the brawl), a weapon keeps its name ('Pistola 50%, daño 1D10')
        parts = re.split(r"([,;、]\s*)", line)
        attack = bool(re.search(r"(?<![\w])damage\b", line))
        for i, part in enumerate(parts):
            m = re.match(r"^(\s*(?:[^\W\d][^:]*?:\s*)?)([^\W\d][^%:]*?)(\s+\(?\d+\s*%.*)$", part)
            if m:
                named = table.get("skills", {}).get(m.group(2).strip()) or translated_skill(m.group(2).strip())
                if named and not (attack and not named.startswith("Fighting")):
                    parts[i] = m.group(1) + named + m.group(3)
        out.append("".join(parts))
    return out


def coc_layout(lines: list[str]) -> list[str]:
    """The lines of a CoC block with its tables, brackets and list marks rewritten as plain
    stat lines (see above), a block in another European language as the English one
    (:func:`localized`); the same number of lines, other lines as they are."""
    lines = localized(lines)
    out = list(lines)
    nf = [unicodedata.normalize("NFKC", x).strip() for x in lines]
    for k, raw in enumerate(lines):  # ①STR : 12 (NFKC would make the list number a digit: "1STR")
        if _CIRCLED.match(raw):
            out[k] = nf[k] = unicodedata.normalize("NFKC", _CIRCLED.sub("", raw, count=1)).strip()
    for k, x in enumerate(nf):  # the official sheet's "Hit Points 10 10" (its maximum and current boxes, the same)
        y = re.sub(r"\b(Hit Points|Magic Points)\s+(\d{1,3})\s+\2\b", r"\1 \2", x)
        if y != x:
            out[k] = nf[k] = y
    for k, x in enumerate(nf):  # "伤害加值(DB): +1D4", "Damage Bonus (DB)": a stat's name and its abbreviation, one label
        if "(" in x and _NAMED_TWICE.search(x):
            # (an average's: "平均伤害加值(DB)", the average being the value, as below)
            y = _NAMED_TWICE.sub(lambda m: m.group(2) if _STAT_OF.get(fold(_AVERAGE.sub("", m.group(1), count=1))) == \
                _STAT_OF.get(fold(m.group(2))) is not None else m.group(0), x)
            if y != x:
                out[k] = nf[k] = y
    for k, x in enumerate(nf):  # "Damage Bonus and Build: 0, 0": two stats named together, their values in turn
        pair = _TWO_STATS.fullmatch(x)
        if pair and all(_STAT_OF.get(fold(pair.group(i))) for i in (1, 2)):
            out[k] = nf[k] = f"{pair.group(1)}: {pair.group(3)}, {pair.group(2)}: {pair.group(4)}"
    for k, x in enumerate(nf):  # "Brawl 60 (30/12), damage 1D3": a skill's value by its half and fifth, with no %
        y = _VALUE_HALF_FIFTH.sub(_with_percent, x)
        if y != x:
            out[k] = nf[k] = y
    _sheet_weapons(out, nf)  # the official 7th-edition sheet's weapons table, copied from its PDF
    if any(_PAGE_FURNITURE.match(x) for x in nf[:12]):  # a Roll20 compendium page copied whole
        for k, x in enumerate(nf):
            if _PAGE_FURNITURE.match(x):
                out[k] = nf[k] = ""
        _roll20_title(out, nf)
    for k, x in enumerate(nf):
        whole = re.fullmatch(r"【([^【】]+)】", x)
        # a novel's block, each line in 【】: "【平均属性:力量70;体质50】", "【护甲:1点皮肤和鳞】" (a Sanity
        # loss stays bracketed: one of no 'x/y', "【理智损失:01d6】", would read as an attack)
        if whole and not _SAN_LOSS_LABEL.match(whole.group(1)):
            out[k] = nf[k] = re.sub(r"^(?:平均)?(?:属性|屬性)\s*[:：]\s*", "", whole.group(1).strip())
    for k, x in enumerate(nf):
        chance = re.fullmatch(r"(\S{1,12}?)(?:成功率|技能值|技能)\s*[:：]\s*(\d{1,3})\s*[%％]?", x)
        nxt = next((j for j in range(k + 1, min(len(nf), k + 3)) if nf[j]), None)
        hurt = re.fullmatch(rf"{re.escape(chance.group(1))}(?:伤害|傷害)\s*[:：]\s*(.+?)[。.]?", nf[nxt]) \
            if chance and nxt is not None else None
        if hurt:  # "格斗成功率:45" and "格斗伤害:1d8+db(矛)" on the next line: one attack
            out[k] = nf[k] = f"{chance.group(1)} {chance.group(2)}%, 伤害 {hurt.group(1)}"
            out[nxt] = nf[nxt] = ""
    if sum(len(re.findall(r"\(\d{2}%\)\s+\d{1,3}\s+\d{1,2}\s+\d{1,2}(?=\s|$)", x)) >= 2 for x in nf) >= 3:
        # the official sheet (rows of skills with their bases, values, halves and fifths): its
        # labels of no value are no text of the NPC ("Temporary Insanity", "Major Wound", a
        # speciality's heading "Art / Craft", "Language (Own)" over its rows)
        for k, x in enumerate(nf):
            left = _SHEET_LABEL_WORDS.sub(" ", x).strip()
            if left != x.strip() and (not left or re.fullmatch(r"max(?:imum)?\.?\s+(?:sanity|san)\s*:?\s*\d+", left,
                                                               re.IGNORECASE)):
                out[k] = nf[k] = left  # labels alone, or beside the sheet's "Max Sanity 99"
            elif re.match(r"^©\s*\d{4}\s+Chaosium Inc\.", x):  # the sheet's footer: its publisher's notice
                out[k] = nf[k] = ""
    for k, x in enumerate(nf):
        below = next((j for j in range(k + 1, min(len(nf), k + 3)) if nf[j]), None)
        heads = list(_SHEET_HEAD_CELL.finditer(x)) if below is not None else []
        specs = re.findall(r"\(([^()\d]{2,40})\)\s*\(\d{1,2}\s*%\)", nf[below]) if heads else []
        if specs and len(specs) == len(heads) \
                and re.fullmatch(r"(?:\s*\([^()\d]{2,40}\)\s*\(\d{1,2}\s*%\))+\s*", nf[below]):
            # the official sheet's row whose skills' specialities are the next line alone ("Firearms
            # 25 12 5" over "(Rifle/Shotgun) (25%)"): each in its place, in order (the line left blank)
            for m, spec in zip(reversed(heads), reversed(specs)):
                x = f"{x[:m.end('head')]} ({spec.strip()}){x[m.end('head'):]}"
            out[k] = nf[k] = x
            out[below] = nf[below] = ""
            continue
        own = _SPEC_WITH_VALUE.match(nf[below]) if len(heads) == 1 else None
        if own and int(own["h"]) == int(own["v"]) // 2 and int(own["f"]) == int(own["v"]) // 5:
            # its speciality on the next line with the values beside it ("Firearms 30 15 6" over
            # "(Handgun) (20%) 50 25 10": a PDF's text of a two-line cell): the skill is the next line's
            # whole cell; the number left beside the head on this line is another column's, said
            head = heads[0]
            out[below] = nf[below] = f"{head['head']} {nf[below].lstrip()}"
            out[k] = nf[k] = (x[:head.start('head')] + x[head.end('head'):]).strip()
    for k, x in enumerate(nf):
        if re.match(r"(?:armou?r|装甲|护甲|護甲)\s*[:：]", x, re.IGNORECASE):
            # an armor line wrapped mid-sentence ("Armor: 9-point bulletproof vest. Worn at all times by Chandler" /
            # "in public. Only covers Chandler's torso, and so has a 50%" / "chance of stopping any damage."): one
            # line (its second had been read as an attack, by its 50%)
            j = k + 1
            while j < len(nf) and nf[j] and re.match(r"[a-z]", nf[j]):
                out[k] = nf[k] = f"{nf[k]} {nf[j]}"
                out[j] = nf[j] = ""
                j += 1
    for k in range(len(nf)):
        nxt = k + 1
        while nxt < len(nf) and re.search(r"(?<!\d)\d{1,3}\s*%", nf[k]) \
                and re.search(r"[,.，、]\s*[^\W\d_][^,.%\d]{0,40}$", nf[k]) and re.match(r"\d{1,3}\s*%\s*(?:[,.，、]|$)", nf[nxt]):
            # a list wrapped where a skill's name and its chance part ("..., Chemistry" / "55%, Credit
            # Rating 95%, ..."): the two lines are one (the second left blank, the line numbers kept), and
            # so on where the joined line is broken again ("..., Psychology" / "50%.")
            out[k] = nf[k] = f"{nf[k]} {nf[nxt]}"
            out[nxt] = nf[nxt] = ""
            nxt += 1
    i = 0
    while i < len(out):
        text = nf[i]
        if re.match(r"^#{2,6}\s+\S", text):  # a Markdown heading ("### 技能"); one "#" is a comment
            out[i] = nf[i] = text.lstrip("#").strip()
            text = nf[i]
        bold_head = re.match(r"^\*\*([^*]{1,30}?)\*\*\s*(?![:：])(\S.*)$", text)
        if bold_head and fold(bold_head.group(1)) in HEADINGS:  # "**Combat** Fighting (Brawl) 45%": a heading
            out[i] = nf[i] = text = f"{bold_head.group(1)}: {bold_head.group(2)}"
        if "**" in text or "__" in text:  # Markdown bold: "**Hit Points** ::: 130"
            text = text.replace("**", "").replace("__", "")
            out[i] = nf[i] = re.sub(r":{2,}", ":", text)
        if text.count("|") >= 2 and (cols := _weapon_columns(_cells(text))) is not None:
            i = _weapons_table(out, nf, i, cols, _cells(text))
            continue
        spaced = re.split(r"\s{2,}|\t", out[i].strip())
        if len(spaced) >= 3 and "|" not in text and (cols := _weapon_columns(spaced)) is not None:
            # the table laid out with spaces, as a PDF's text gives it: its rows in pipes, a row broken
            # after the weapon's first word ("Sacrificial" over "  Dagger  65%  1D4+2+db ...") joined
            j = i + 1
            while j < len(out) and out[j].strip():
                cells = re.split(r"\s{2,}|\t", out[j].strip())
                if len(cells) == 1 and j + 1 < len(out) and \
                        len(re.split(r"\s{2,}|\t", out[j + 1].strip())) == len(cols):
                    nxt = re.split(r"\s{2,}|\t", out[j + 1].strip())
                    nf[j + 1] = " | ".join([f"{cells[0]} {nxt[0]}", *nxt[1:]])
                    out[j] = nf[j] = ""
                    j += 2
                    continue
                if len(cells) != len(cols):
                    break
                nf[j] = " | ".join(cells)
                j += 1
            i = _weapons_table(out, nf, i, cols, spaced)
            continue
        if text.startswith("|") and text.count("|") >= 2:
            i = _table(out, nf, i)
            continue
        if re.match(r"^\*(?!\*)\s*\S", text) and len(text) > 20 and re.search(r"[。.！!]$", text):
            out[i] = nf[i] = text = "Notes: " + text.lstrip("* ")  # a footnote ("* a rare spell raises his STR ...")
        elif "*" in text:  # "STR 45*", "MP：17*": the mark of a footnote, not part of the value
            out[i] = nf[i] = text = re.sub(r"(?<=\d)\*+(?=\s|$|[,，;；])", "", text)
        if re.search(r"\d(?:HP|MP|MOV|DB|SAN|STR|CON|SIZ|DEX|APP|INT|POW|EDU)\s*[:：]", text):
            # "SAN：48HP：12", "体格：0MOV：9": a label run on from the value before it
            out[i] = nf[i] = text = re.sub(r"(?<=\d)(?=(?:HP|MP|MOV|DB|SAN|STR|CON|SIZ|DEX|APP|INT|POW|EDU)\s*[:：])",
                                           " ", text)
        glued = re.match(r"^(技能|スキル)(?![列值値:：\s])(?=\S+?\s*\d+\s*[%％])", text)
        if glued:  # "技能攀爬 40%，急救 30%": the heading run on into its first skill
            out[i] = nf[i] = text = f"{glued.group(1)}：{text[glued.end():]}"
        if _TABLE_HEAD.fullmatch(text):  # a creature table's column heads: characteristic, roll, average
            out[i] = nf[i] = ""
            i += 1
            continue
        avg = _AVERAGE.match(text)
        if avg and _stat_cell(re.split(r"[\s:：(（]", text[avg.end():], maxsplit=1)[0]):
            out[i] = nf[i] = text = text[avg.end():]  # "平均生命值：12", "Average Hit Points: 12": the average is the value
        row = re.fullmatch(r"\s*([^|\s][^|]*?)\s*\|\s*(\d{1,3})\s*(?:\|\s*\d{1,3}\s*){0,2}\|?\s*", text)
        if row and _stat_cell(row.group(1)):  # "STR | 60 | 30 | 12 |": a stat's row of value, half and fifth
            out[i] = nf[i] = f"{row.group(1)} {row.group(2)}"
            i += 1
            continue
        if re.fullmatch(r"\s*(?:attribute|characteristic|stat)s?\s*\|\s*(?:base|value)\s*(?:\|\s*\w+\s*)*\|?\s*", text,
                        re.IGNORECASE):
            out[i] = nf[i] = ""  # that table's head ("Attribute | Base | Half | Fifth |")
            i += 1
            continue
        key = re.fullmatch(r"[a-z_]{3,30}", text)
        nxt = next((k for k in range(i + 1, min(len(nf), i + 3)) if nf[k]), None)
        r20 = _roll20_attribute(text, nf[nxt]) if key and nxt is not None else None
        if r20 is not None:  # the Roll20 compendium's attributes view: a key, its value on the next line
            out[i] = nf[i] = r20
            for k in range(i + 1, nxt + 1):
                out[k] = nf[k] = ""
            i = nxt + 1
            continue
        bot = _dice_bot_line(text)
        if bot is not None:  # a dice bot's ".st力量60str60体质70…侦查60": stats, then the skills
            out[i] = nf[i] = bot
            i += 1
            continue
        rolled = re.fullmatch(r"(\S{1,12}?)(?:\s*[:：]\s*|\s+)(\(?\s*\d*D\d+(?:\s*[+-]\s*\d+)?\s*\)?(?:\s*[x×*]\s*5)?)"
                              r"(?:\s*[:：]\s*|\s+)(\d{1,7}(?:\s*[~～]\s*\d{1,7})?)", text, re.IGNORECASE)
        if rolled and _stat_cell(rolled.group(1)):  # "STR:(6d6+15)×5:180", a table row's "STR (3D6+6)*5 80":
            # the stat, its roll, its average
            out[i] = nf[i] = text = f"{rolled.group(1)} {rolled.group(3)}"
        rows = _flat_row(nf, i)
        if rows is not None:  # a rulebook's characteristic / roll / average table pasted a cell a line
            out[i], value_line = f"{text} {nf[rows]}", rows
            for k in range(i + 1, value_line + 1):
                out[k] = nf[k] = ""
            i = value_line + 1
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
            # 【技能】目星60%, ＜技能＞ こぶし 75% (＜＞ read as <>), 《武器》, 〈装甲〉, [技能]: a heading in brackets
            head = re.match(r"^[【〔\[〈《<«≪]\s*([^】〕\]〉》>»≫]+?)\s*[】〕\]〉》>»≫]\s*(.*)$", text)
            if head and fold(head.group(1)) in HEADINGS:
                out[i] = f"{head.group(1)}: {head.group(2)}"
        i += 1
    return out


def _stats_in(text: str) -> bool:
    return any(re.match(rf"^{re.escape(k)}\s*[:=]?\s*[+-]?\d", text, re.IGNORECASE) for k in _ALL_STAT_NAMES.values())


# a weapons table's columns, by the words of its header row (the 7th-edition sheet's "Weapon | Skill |
# Damage | Base range | Uses/round | Bullets | Malf", a scenario's "Attack | % | Damage | Range ...")
_WEAPON_COLUMN_WORDS = (("name", ("weapon", "weapons", "name", "attack", "attacks")),
                        ("skill", ("skill", "skill %", "%", "chance", "regular", "skill/%")),
                        ("damage", ("damage", "dmg", "dam")),
                        ("range", ("base range", "range", "rng")),
                        ("uses", ("uses/round", "uses per round", "attacks", "# att", "att/round", "attacks/round",
                                  "rof", "attks", "atts", "att", "# of attacks")),
                        ("capacity", ("bullets", "ammo", "capacity", "shots", "bullets in gun", "cap")),
                        ("malfunction", ("malf", "malfunction", "mal")))


def _weapon_columns(cells: list[str]) -> list[str | None] | None:
    """The columns of a weapons table's header row (None for a column of no known word), or None
    when the row is no such header (its first cell names the weapon, and one cell is its damage)."""
    cols: list[str | None] = []
    for k, c in enumerate(cells):
        word = fold(c).rstrip(".:")
        col = next((key for key, words in _WEAPON_COLUMN_WORDS if word in words and (key != "uses" or k > 0)), None)
        cols.append(col)
    return cols if cols and cols[0] == "name" and "damage" in cols else None


def _weapons_table(out: list[str], nf: list[str], i: int, cols: list[str | None], heads: list[str]) -> int:
    """A weapons table (its header at `i`; rows with as many cells below it, pipes or not) as the
    attack lines a block prints ('Combat: .45 Revolver 50% (25/10), damage 1D10+2, base range 15
    yards, uses per round 1 (3), capacity 6, malfunction 100'); a cell no column names is left on
    the line for the reader to say. Returns the next line to look at."""
    out[i] = ""
    j = i + 1
    while j < len(nf) and (nf[j].count("|") >= 2 or (not nf[j] and not out[j])):
        if not nf[j]:  # a broken row's first part, joined to the next
            j += 1
            continue
        cells = _cells(nf[j])
        if _is_rule_row(cells):
            out[j] = ""
            j += 1
            continue
        if len(cells) != len(cols) or not cells[0]:
            break
        row = {c: v for c, v in zip(cols, cells) if c is not None and v and v not in ("—", "–", "-", "n/a", "N/A")
               and not (c == "range" and fold(v) in ("touch", "melee"))}
        skill = row.get("skill", "")
        chance = re.search(r"\d{1,3}\s*%?(?:\s*\(\d{1,3}\s*/\s*\d{1,3}\))?", skill)
        named = re.sub(r"\d{1,3}\s*%?(?:\s*\(\d{1,3}\s*/\s*\d{1,3}\))?", "", skill).strip(" ,")
        line = f"{cells[0]} " + (f"{chance.group(0).strip()}{'' if '%' in chance.group(0) else '%'}" if chance else "")
        parts = [line.strip()]
        if "damage" in row:
            parts.append(f"damage {row['damage']}")
        if named:
            parts.append(f"skill {named}")
        for col, label in (("range", "base range"), ("uses", "uses per round"), ("capacity", "capacity"),
                           ("malfunction", "malfunction")):
            if col in row:
                parts.append(f"{label} {row[col]}")
        parts += [f"{h} {v}" for c, h, v in zip(cols, heads, cells) if c is None and v and v not in ("—", "–", "-")]
        out[j] = nf[j] = "Combat: " + ", ".join(parts)
        j += 1
    return j


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


# a sheet's budget of skill points ("技能(趣味) : 120", "職業技能ポイント 280", "Personal interest points: 120")
_POINTS_BUDGET = re.compile(r"(?:技能\s*[(（]\s*(?:趣味|興味|職業)\s*[)）]|(?:職業|趣味|興味)技能(?:ポイント|値|点)?|"
                            r"技能ポイント|(?:occupation(?:al)?|personal interest|hobby)(?: skill)? points|skill points)"
                            r"\s*[:：]?\s*\d+\s*$", re.IGNORECASE)
# the marks a player ticks beside a skill used in play, printed in a PDF's text before its name
_SHEET_TICKS = re.compile(r"[✔✓☑✅☐□]")
# a cell of the official 7th-edition sheet's skills: the name (its base in brackets), the value,
# its half and its fifth
_SHEET_CELL = re.compile(r"\s*(?P<label>[^\W\d_](?:[^\d]|\(\d{1,2}\s*%\))*?)\s+(?P<v>\d{1,3})\s+(?P<h>\d{1,2})\s+(?P<f>\d{1,2})"
                         r"(?=\s|$)")
# the sheet's skills whose speciality is printed on a line of its own (a pattern each), and its
# language headings over their rows
_SHEET_SPECIALISED = (r"Firearms", r"Art\s*/\s*Craft", r"Science", r"Pilot", r"Survival")
_SHEET_LANGUAGES = r"Language \((?:Own|Other)\)"
_SHEET_HEADS = {fold(x) for x in ("Firearms", "Art / Craft", "Art/Craft", "Science", "Pilot", "Survival",
                                  "Language (Other)", "Language (Own)", "Fighting")}
# such a skill's cell on its row, its speciality on the line below ("Firearms 25 12 5")
_SHEET_HEAD_CELL = re.compile(rf"(?:^|(?<=\s))(?P<head>{'|'.join(_SHEET_SPECIALISED)}|Fighting)"
                              r"\s+\d{1,3}\s+\d{1,2}\s+\d{1,2}(?=\s|$)")
# a specialised skill's second line with its values ("(Handgun) (20%) 50 25 10 ...")
_SPEC_WITH_VALUE = re.compile(r"\s*\((?P<spec>[^()\d]{2,40})\)\s*\(\d{1,2}\s*%\)\s+(?P<v>\d{1,3})\s+(?P<h>\d{1,2})\s+"
                              r"(?P<f>\d{1,2})(?=\s|$)")
# the official sheet's labels that hold no value of the NPC's
_SHEET_LABEL_WORDS = re.compile(rf"(?<![\w(])(?:Temporary Insanity|Indefinite Insanity|Major Wound|Unconscious|Dying|"
                                rf"{_SHEET_LANGUAGES}|{'|'.join(_SHEET_SPECIALISED)})(?![\w)])")
# the official sheet's labels printed after the name on its line ("Trevor Hox Birthplace Pronoun")
_SHEET_LABELS = re.compile(r"(?:\s+(?:Birthplace|Pronoun|Residence|Occupation|Sex|Age)\b){2,}\s*$")


def coc_name(raw: str) -> tuple[str, list[str]]:
    """The name alone from a CoC block's name line, and what else the line says, for the notes:
    an age ("Example Character, age 27", "サンプル 太郎、27歳、記者", "示範角色, 年齡 27",
    "田中 一郎（42歳・刑事）"), what follows the age (an occupation), a byline ("Indiana Jones for
    Call of Cthulhu By ..."). A line with no age and no byline is the name as written."""
    plain = _LIST_MARK.sub("", raw.replace("**", "").strip(), count=1).strip()
    text = _LIST_MARK.sub("", unicodedata.normalize("NFKC", raw).replace("**", "").strip(), count=1)
    text = _NAME_LABEL.sub("", text, count=1)
    labels = _SHEET_LABELS.search(text)
    notes: list[str] = []
    if labels and labels.start() > 0:  # the official sheet's field labels after the name: no part of it
        text = plain = text[:labels.start()].strip()
    filled = list(re.finditer(r"\s+(?:Birthplace|Pronoun|Residence|Occupation|Sex|Age)\b", text))
    if len(filled) >= 2 and filled[0].start() > 0:
        # the sheet's fields with their values after the name ("Wilhelmina Strand Birthplace Boston
        # Pronoun she"): the name, and the fields for the notes
        notes.append(text[filled[0].start():].strip())
        text = plain = text[:filled[0].start()].strip()
    dash = re.match(r"^(.+?)\s+[—–]\s+(\S.*)$", text)
    if dash:  # "Dr. Miriam Okafor — ship's surgeon (NPC, Call of Cthulhu 7e)": the name, then what she is
        notes.append(dash.group(2).strip())
        text = plain = dash.group(1).strip()
    by = _BYLINE.search(text)
    if by:
        notes.append(by.group(0).strip())
        text = text[:by.start()].strip()
    kana = re.match(r"^(.+?)\s*\(([\u3041-\u30ff][\u3041-\u30ff\s・=]*)\)\s*(.*)$", text)
    if kana:  # "黒川 誠(くろかわ まこと) 暴力団員": the name's reading in kana, then what he is
        notes[:0] = [kana.group(2).strip()] + ([kana.group(3).strip()] if kana.group(3).strip() else [])
        return kana.group(1).strip(), notes
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
        # an HP that is one edition's formula exactly outweighs the characteristics' size: a 6th-edition
        # creature's STR 200, SIZ 500 and HP 300 = (CON 100 + SIZ 500) / 2 is no 7th-edition block
        check("HP", derived.get("HP"), -(-(con + siz) // 2), (con + siz) // 10, max(2, len(big) + 1),
              ("(CON+SIZ)/2", "(CON+SIZ)/10"))
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
    if "MOV" in derived and re.search(r"\bMOV\b|\bmove(?:ment)? rate\b", text, re.IGNORECASE):
        # 7th edition's MOV or Move Rate (6th-edition blocks print "Move 8")
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
                                             COC7_SKILL_WORDS)})
    six = sorted({p for p in folded if p in COC6_SKILL_WORDS})
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
                      + DIVIDED), bool(why6)
    return False, (f"5th/6th edition: characteristics read as written ({why6})"
                   + (f"; against: {why7}" if why7 else "")), True


# ---- Call of Cthulhu: the reader ---------------------------------------------------------

# Lines a CoC block prints beside its stats that a coc document has no place for, or that are
# what coc assumes anyway: attacks per round, the Sanity loss to see a creature, natural armor.
_APR = re.compile(r"(?:attacks per round|# attacks|1ラウンドの攻撃回数|1ラウンドの戦闘回数|攻撃回数|戦闘回数|每輪攻擊次數|每轮攻击次数|每回合攻擊次數|每回合攻击次数|攻擊次數|攻击次数)\s*:?\s*"
                  r"(?P<v>\d+|none|なし|无|無)(?:\s*\([^)]*\))?", re.IGNORECASE)
_SAN_LOSS = re.compile(r"(?:sanity loss|san loss|正気度喪失|正気度ロール|SAN値チェック|理智喪失|理智损失|SAN值損失|SAN值损失)\s*:?\s*"
                       r"(?P<v>\d*D?\d+(?:[+-]\d+)?\s*/\s*\d*D?\d+(?:[+-]\d+)?|none|なし|无|無)"
                       r"(?:\s+sanity points?(?:\s+to see [^,;]*)?)?", re.IGNORECASE)
_NATURAL_ARMOR = re.compile(r"(?:armou?r|装甲|護甲|护甲)\s*:?\s*(?P<v>\d+|none|なし|无|無)(?:\s*(?:points?|点|點))?"
                            r"(?:\s*[(（](?P<what>[^()（）]{1,20})[)）])?(?=\s|$|,)", re.IGNORECASE)
_NONE = {"none", "なし", "无", "無", "0", "-", "—"}
_EDITION_LINE = re.compile(r"^\s*edition\s*[:=]\s*(\S+)\s*$", re.IGNORECASE)
_EDITIONS = {"5": "6", "5e": "6", "5th": "6", "6": "6", "6e": "6", "6th": "6", "7": "7", "7e": "7", "7th": "7",
             "coc6": "6", "coc7": "7"}


def _coc_pairs(line: str, keys: tuple[str, ...], value: str) -> tuple[list[tuple[str, str]], str]:
    """``NAME value`` pairs of `keys` in a CoC stats line, as stat_pairs finds them, but with
    only ASCII letters and digits as word edges: Chinese and Japanese blocks run a name on from
    the value before it ("力量60體質55")."""
    alt = "|".join(re.escape(k) for k in sorted(keys, key=len, reverse=True))
    pat = re.compile(rf"(?<![A-Za-z0-9\u3040-\u30ff])({alt})\s*[:=]?\s*({value})(?![A-Za-z0-9])", re.IGNORECASE)
    found: list[tuple[str, str]] = []

    def take(m: re.Match[str]) -> str:
        found.append((m.group(1), m.group(2)))
        return " "

    rest = pat.sub(take, line)
    return found, re.sub(r"[\s,;/|()\[\]]+", " ", rest).strip()


def _cartridge_note(notes: list[str]) -> tuple[str, str, str] | None:
    """(the note as written, its cartridge, the class the catalog's weapons that fire it are) of the first of an
    attack's bracketed notes that names a cartridge whose class a CoC skill fires ("(.38 special)": a revolver)."""
    from xsys.core.registry import catalog
    from xsys.core.vocab import cartridge_of

    for x in notes:
        note = x.strip(" ()")
        cartridge = cartridge_of(note)
        cls = catalog().class_of_cartridge(cartridge) if cartridge else None
        if cls is not None and skill_of_class(cls) in _COC_CLASS:
            return note, cartridge, cls
    return None


# a scenario's one-line NPC: its name (and how many), a colon, its stats ("Thugs (3): STR 13, CON 12 ...")
_ONE_LINE_NPC = re.compile(r"^\s*(?P<name>[^\W\d][\w'’.\- ]{0,40}?)\s*(?:\((?P<count>\d{1,3})\))?\s*[:：]\s*(?P<rest>.*\d.*)$")


def read_coc(lines: list[str], system: str, points: bool = False) -> Read:
    """`points`: armor is one number of points (coc-zh's document), not coc's A/B pair."""
    r = Read(system, reader="textblock: Call of Cthulhu stat block (English, Japanese, Chinese; "
                            "5th/6th and 7th edition, told from the whole block)")
    named_on_stats = None  # "姓名:徐述;年齡:48;… HP15/15;MP12/13": the name labelled on the stats' line
    named_count = None  # "Thugs (3): STR 13 ...": how many of them the one line stands for
    seen_text = False
    for k, line in enumerate(lines[:3]):
        # (or run on into the next label, "姓名:陳強年齡:47 種族:人類")
        m = re.match(r"^\s*(?:姓名|名前|氏名|名字|name)\s*[:：]\s*([^;；,，\s]+?)\s*(?:[;；]\s*|(?=(?:年齡|年龄|年齢|職業|职业|"
                     r"種族|种族|性別|性别)\s*[:：]))(.*\d.*)$", line, re.IGNORECASE)
        if m:
            named_on_stats = (m.group(1), k + 1)  # (the line itself is read as it is: its stats)
            break
        # a scenario's one-line NPC, its name before a colon and its stats after ("Thugs (3): STR 13, CON 12,
        # ... HP 13. Weapons: ...", "Gangster: STR 13 ...; Handgun 65%"): the name (a count of them is said in
        # the notes), the line read as it is
        one = None if seen_text else _ONE_LINE_NPC.match(line)
        if one and fold(one.group("name")) not in HEADINGS and not _STAT_OF.get(fold(one.group("name"))) \
                and sum(count_stats(one.group("rest"), names) > 0 for names in COC_CHARACTERISTIC_NAMES.values()) >= 3:
            named_on_stats = (one.group("name").strip(), k + 1)
            if one.group("count"):
                named_count = one.group("count")
            break
        seen_text = seen_text or bool(line.strip())
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
    names = coc_stat_names(lang)
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
    attack_on: dict[int, str] = {}  # a line -> the name of the last close-combat attack read on it
    uses: dict[str, str] = {}  # weapon name -> 7th edition's uses per round as printed
    stated: dict[str, set[str]] = {}  # weapon name -> the fields its line states (the rest are defaults)
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
                elif what == "san loss" and v not in _NONE:
                    # what seeing it costs: the Keeper's to know, no characteristic of the NPC: its notes
                    notes.append(m.group(0).strip().rstrip(".") + ".")
                    r.assumed.append(f"line {r.line}: {m.group(0).strip()} kept in the notes (a coc document has "
                                     "no field for the Sanity loss a creature causes)")
                elif what == "armor" and v not in _NONE:
                    # a creature's armor among its stats ("护甲 1（皮肤）", "Armor 2"): an armor line of its points
                    label = (m.groupdict().get("what") or "").strip() or "Armor"
                    r.assumed.append(f"line {r.line}: {m.group(0).strip()}: an armor line '{label}' of {v} "
                                     f"point{'' if v == '1' else 's'}")
                    armor.append({"name": label, "points": int(v)} if points else
                                 {"name": label, "A": int(v), "B": int(v) / 2 if int(v) % 2 else int(v) // 2})
                elif what == "apr" and v not in _NONE:
                    # a creature's several attacks a round: the Keeper's to know, as its Sanity loss: its notes
                    notes.append(m.group(0).strip().rstrip(".") + ".")
                    r.assumed.append(f"line {r.line}: {m.group(0).strip()} kept in the notes (a coc document has "
                                     "no field for the attacks a creature makes a round)")
                elif v not in _NONE:
                    r.unread.append((r.line, f"{m.group(0).strip()} (no place in a coc document)"))
            line = pat.sub(" ", line)
        return line, found

    def stats(line: str) -> str | None:
        line, special = specials(line)
        top = re.search(r"\bmax(?:imum)?\.?\s+(?:sanity|san)\s*:?\s*\d+", line, re.IGNORECASE)
        if top:  # an investigator sheet's "Max Sanity 99" (99 - Cthulhu Mythos) is no Sanity the NPC has now
            r.assumed.append(f"line {r.line}: '{top.group(0)}' is the sheet's maximum Sanity, not its Sanity: not read")
            line = (line[:top.start()] + line[top.end():]).strip()
        # a value, its current/max ("HP 11/11"), its half/fifth ("STR 50 (25/10)"), the roll a creature
        # table prints beside it ("STR 80 (3D6+6)×5")
        # (and the official sheet's half and fifth after it, bare: "STR 50 25 10", checked below)
        found, rest = _coc_pairs(line, pair_names, r"[+-]?\d+(?:\s*/\s*\d+(?!\s*\)))?"
                                 r"(?:\s*\(\s*\d+\s*/\s*\d+\s*\)|\s+\d{1,2}\s+\d{1,2}(?=\s|$|[,;]))?"
                                 r"(?:\s*\(\s*\d*D\d+(?:\s*[+-]\s*\d+)?\s*\)\s*[×x*]\s*5)?")
        db, rest2 = _coc_pairs(rest, db_names, rf"[+-]?\s*{_DICE}|[+±-]?\d+|none|なし|无|無|-")
        if not found and not db:
            return rest2 if special or top else None  # (a sheet's "Max Sanity 99" alone: said above)
        lower = {n.lower(): k for n, k in names.items()}
        for printed_name, v in found:
            key = lower[printed_name.lower()]
            value = int(re.match(r"[+-]?\d+", v).group(0))
            bare = re.fullmatch(r"[+-]?\d+\s+(\d+)\s+(\d+)", v.strip())
            if bare and (int(bare.group(1)), int(bare.group(2))) != (value // 2, value // 5):
                # two numbers after the value that are not its half and fifth: not read, said
                r.unread.append((r.line, f"{printed_name} {v} (not read: {bare.group(1)} {bare.group(2)}, not "
                                         f"the half and fifth of {value})"))
            held, held_line = (chars, char_line) if key in COC_CHARACTERISTICS else (extra, extra_line)
            if key in held and held[key] != value:
                # printed again further down (a spell's cost "MP: 4", a footnote's raised STR), or
                # beside it ("移動:7/移動12", walking and swimming): the block's own value is the
                # first, and the other is said
                where = "before it" if held_line.get(key) == r.line else f"on line {held_line[key]}"
                r.unread.append((r.line, f"{printed_name} {v} ({key} {held[key]} read {where} is kept)"))
                continue
            if key in COC_CHARACTERISTICS:
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

    last_special: list[str] = []  # the skill of the last speciality read ("科学" of 科学（密码学）)

    def attack_aside(item: str, n: int) -> bool:
        """What the attack before it on its line offers instead or adds ("近接戦闘: 50% ダメージ:
        1D4+DB、さらに青い膿": and blue pus), an item of its own: kept in the notes with the attack's name."""
        if not ((_OR_OTHER.match(item) or _DRAIN.match(item)) and n in attack_on):
            return False
        name = attack_on[n]
        notes.append(f"{name}: {item.strip()}")
        r.assumed.append(f"line {n}: {name}: {item.strip()} kept in the notes (another damage than the line's, "
                         "or an effect beside it)")
        return True

    def skill_item(item: str, n: int) -> bool:
        if attack_aside(item, n):
            return True
        # "ほかの言語<ドイツ語>": a speciality in angle brackets after its skill is its speciality in brackets
        text = re.sub(r"(?<=[^\s《〈<«])[《〈<«]([^《》〈〉<>«»]+)[》〉>»]", r"(\1)", item)
        text = re.sub(r"[《》〈〉<>«»]", "", text).strip().rstrip("。.").strip()
        if text.lower() in _NONE:  # "技能：无", "Skills: none": no skills, nothing unread
            return True
        budget = _POINTS_BUDGET.match(text)
        if budget:  # "技能(趣味) : 120": the points a sheet spends on hobby skills, no skill of the NPC's
            r.unread.append((n, f"{text} (the skill points the sheet had to spend, no skill)"))
            return None
        if _prose_line(item):  # a sentence among the skills (what an attack does): kept in the notes
            notes.append(item.strip())
            return True
        if re.search(rf"\d\s*%.*?{_DAMAGE_WORD}\s*[:：]?\s*(?:{_EACH_ROUND}\s*)?{_DICE}", text, re.IGNORECASE) \
                or re.search(rf"^[^\d%]+\d+\s*%\s*[,、]?\s*{_DAMAGE_WORD}\s*[:：]", text, re.IGNORECASE):
            weapon_item(item, n)  # an attack among the skills ("近接戦闘: 60% ダメージ: 1D4+DB"): read as one
            return True
        inside = re.fullmatch(r"(?P<name>[^\d()（）%:：]*[^\W\d_])\s*[(（]\s*(?P<val>\d{1,3})\s*%\s*"
                              r"(?:[,，;]\s*(?P<note>[^()（）]*?))?\s*[)）]?", text)
        if inside:  # a bestiary's "Track (50%, human flesh by scent)", its bracket cut ("Track (50%"): the
            # skill at that chance, what the bracket says of it said
            text = f"{inside.group('name')} {inside.group('val')}%"
            if inside.group("note"):
                r.unread.append((n, f"{inside.group('name')}: {inside.group('note').strip()}"))
        m = _PCT.match(text)
        if m and len(re.findall(r"(?<!\d)\d+\s*%", m.group("name"))) > 0:
            m = None  # "斗殴 55% 恐吓 50% 闪避 27% 潜行 40%": a run of skills with no commas, not one skill
        aside = None if m else re.fullmatch(r"(.*?\d+\s*%)\s*[(（]([^()（）]*\D[^()（）]*)[)）]", text)
        if aside and not re.fullmatch(r"\s*\d+\s*/\s*\d+\s*", aside.group(2)):
            # "信用評級40%(食尸鬼社會45%)": the skill, and a note on it that no field holds (said)
            m = _PCT.match(aside.group(1))
            if m:
                r.unread.append((n, f"{aside.group(1)}: ({aside.group(2).strip()})"))
        if m and (re.fullmatch(rf"{_DAMAGE_WORD}\s*\d*[dD]?", m.group("name").strip(), re.IGNORECASE)
                  or re.search(r"\d[dD]$|[。！？]", m.group("name").strip())):
            return False  # "伤害 2D6", "… SAN 损失 0/1D6" (a roll, a sentence): no skill
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
        bare = re.sub(r"\s*[(（]\s*[)）]\s*$", "", name)
        if bare != name and bare:  # a sheet's specialty slot left blank: 母国語（） is 母国語
            r.assumed.append(f"line {n}: {name} {value}: its specialty is left blank on the sheet; read as {bare}")
            name = bare
        alone = re.fullmatch(r"[(（]\s*([^()（）]+?)\s*[)）]", name)
        if alone and last_special:  # "科学（密码学）30%，（工程学）60%": another speciality of the same skill
            name = f"{last_special[-1]}({alone.group(1)})"
        head = re.fullmatch(r"([^()（）]+?)\s*[(（][^()（）]+[)）]", name)
        last_special[:] = [head.group(1)] if head else []
        printed.append(name)
        natives = coc_skill(name)
        if not natives and english_name(name) is not None:  # 芸術(観劇): Art (観劇)
            natives = (english_name(name),)
        if not natives:
            close = closest_coc_skill(name)
            if close is not None:
                r.unknown.append((n, name, close))
        for native in natives or (name,):
            skills[native] = value
        return True

    def weapon_item(item: str, n: int) -> None:
        if attack_aside(item, n):
            return
        aside = re.fullmatch(r"(?P<skill>.*?\d+\s*%)\s*[(（](?P<note>[^()（）]*\D[^()（）]*)[)）]", item.strip())
        known = _PCT.match(aside.group("skill")) if aside and not re.search(
            rf"{_DICE}|{_DAMAGE_WORD}|^\s*\d+\s*/\s*\d+\s*$", aside.group("note"), re.IGNORECASE) else None
        if known and COC_SKILLS.get(fold(known.group("name"))):  # "信用評級40%(食尸鬼社會45%)" on a line of
            skill_item(item, n)  # skills with no heading: the skill, and its note said
            return
        item, cid = catalog_tag(item)
        item = _compendium(item)
        parsed = coc_weapon_parts(item)
        bare = re.fullmatch(r"(?P<name>[^\d%:]+?)\s+(?P<val>\d{1,3})", item.strip()) if parsed is None else None
        if bare and COC_SKILLS.get(fold(bare.group("name"))):  # "Dodge 40" among the attacks: the skill
            printed.append(bare.group("name"))
            for native in COC_SKILLS[fold(bare.group("name"))]:
                skills[native] = int(bare.group("val"))
            return
        if parsed is None:
            if _label_prose(item):  # "Fighting attacks: the creature lashes out ..." (creature blocks)
                notes.append(item)
                return
            if not re.search(r"\d", item) and len(item.split()) >= 5:
                # "Bouda have the usual range of unarmed attacks open to humanoids …": words about its
                # attacks, no chance and no damage: the notes
                notes.append(item.strip())
                r.assumed.append(f"line {n}: '{item.strip()}' (words about its attacks, with no chance or damage) "
                                 "kept in the notes")
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
        with_fighting = _ATTACK_OF_FIGHTING.fullmatch(name) if "skill" not in attrs else None
        in_form = _FIGHTING_IN_FORM.fullmatch(name) if "skill" not in attrs and not with_fighting else None
        if with_fighting or in_form:  # a bestiary's "Fighting, Claws 35%": the Claws, made with the creature's
            # Fighting; a shapechanger's "Fighting (as Hyena) 50%": the attack of that form, made with its Fighting
            attack, skill = (with_fighting.group(2).strip(), with_fighting.group(1)) if with_fighting \
                else (name, in_form.group(1))
            if pct is not None and skills.get(skill, pct) != pct:  # one skill, one chance: this attack's own
                r.assumed.append(f"line {n}: {name} {pct}%: the {skill} of an earlier line is {skills[skill]}%; "
                                 f"this attack's chance is its own skill's, {attack}")
                skill = attack
            melee_attack(attack, pct, {**attrs, "skill": skill}, left, None, n)
            return
        natives = COC_SKILLS.get(fold(name))
        fired = None if natives else _FIRED_WITH.fullmatch(name)
        if fired:  # "Firearms (.30-06 bolt-action rifle) 35%", 射击（.30-06 栓动式步枪）: the weapon, shot with a Firearms skill
            name = fired.group(1).strip()
            natives = COC_SKILLS.get(fold(name))
        if natives and "damage" not in attrs:  # "Handgun 55%" under Combat is a skill line
            for native in natives:
                skills[native] = pct if pct is not None else skills.get(native, 0)
            said = [x for x in left if not _NONE_CARRIED.fullmatch(x.strip().rstrip("."))]  # (no weapon carried: none written)
            if said:  # what its line says beside the chance ("damage special"), said
                r.unread.append((n, f"{name}: " + ", ".join(said)))
            return
        said_skill = attrs.get("skill")
        if said_skill and said_skill not in _COC_CLASS and coc_skill(said_skill):
            said_skill = weapon_skill(said_skill, name) or said_skill  # "skill Firearms (Submachine Gun)": SMG
        if natives and set(natives) <= _MELEE_SKILLS or fold(name) in ("kick", "grapple", "head butt", "knife", "club",
                                                                        "fighting (brawl)") \
                or (said_skill and said_skill not in _COC_CLASS and melee_class_of(str(said_skill)) != "improvised"):
            melee_attack(name, pct, attrs, left, natives, n)
            return
        entry = weapon_entry(cid, name)
        skill = said_skill or (natives[0] if natives else None) or (
            skill_of_class(entry.weapon_class) if entry is not None else skill_by_keyword(name))
        if skill not in _COC_CLASS:
            damage = str(attrs.get("damage", ""))
            if not said_skill and not fired and (_close_combat_name(name)
                                                 or re.search(r"db|damage bonus", damage, re.IGNORECASE)):
                melee_attack(name, pct, attrs, left, natives, n)  # a Bite, a Claw, a machete: close combat
                return
            said_damage = any(re.match(_DAMAGE_WORD, x, re.IGNORECASE) for x in left)
            fires = _cartridge_note(left) if not said_skill and not fired and entry is None else None
            if fires is not None:
                # "Guns 65%, Dmg 1d10 (.38 special)": the cartridge in its bracket says a firearm, of the class the
                # catalog's weapons that fire it are (a revolver), fired with that class's skill; the line is named
                # with its cartridge, so every system reads the same gun from it
                note, cartridge, cls = fires
                skill = skill_of_class(cls)
                r.assumed.append(f"line {n}: {name} ({note}): its bracket names the {cartridge} cartridge: a {cls}, "
                                 f"fired with {skill}")
                name, left = f"{name} ({note})", [x for x in left if x.strip(" ()") != note]
            else:
                if not said_skill and not fired and entry is None and ("damage" in attrs or said_damage) \
                        and not (set(attrs) & _RANGED_ATTRS) and not weapon_class_by_name(name):
                    # a damage (or one said, no roll of hit points: "POW 1D10"), no firearm named, nothing
                    # only a gun states (range, shots, ammunition): a creature's Paw, a Rapier, a Tentacle,
                    # fought with a skill of its own name
                    r.assumed.append(f"line {n}: {name}: no firearm named and no range: a close-combat attack")
                    melee_attack(name, pct, attrs, left, natives, n)
                    return
                r.unread.append((n, f"{item} (" + ("an attack whose damage is not stated, and no close combat by its "
                                                   "name" if any(x.startswith("— ") for x in left) else
                                                   "which firearm skill fires it is not said") + ")"))
                return
        w: dict[str, Any] = {"name": name, "skill": skill}
        before = stated.get(name)  # the weapon stated on an earlier line too (an attack line, then a table)
        stated[name] = set(attrs)
        if entry is not None:
            w["catalog"] = entry.id
        if "damage" in attrs:
            dmg = dice_text(attrs["damage"])
            if re.search(r"\+((1[/\u2044]2|half)?db|damagebonus)$", dmg, re.IGNORECASE):
                dmg = re.sub(r"\+((1[/\u2044]2|half)?db|damagebonus)$", "", dmg, flags=re.IGNORECASE)
                r.assumed.append(f"line {n}: {name}: the damage bonus in '{attrs['damage']}' is the wielder's, "
                                 "not the weapon's: the line keeps the weapon's dice"
                                 + ("; the sheet's note under its weapons says a Throw line adds half the damage "
                                    "bonus" if skill == "Throw" else ""))
            w["damage"] = dmg
        for key in ("base_range", "shots_per_round", "burst", "capacity", "malfunction", "STR", "sights", "carry",
                    "ammo", "length", "muzzle_energy"):
            if key in attrs:
                w[key] = attrs[key]
        if skill == "Throw":  # a thrown weapon is aimed by eye and fires nothing (core.vocab: "none")
            w.setdefault("sights", "none")
            w.setdefault("ammo", "none")
        if "blast" in attrs:
            r.assumed.append(f"line {n}: {name}: damage {attrs['damage']} at the burst, blast radius {attrs['blast']}: "
                             "the neutral model has no area effect, so the damage is read as one target's")
        if "uses_per_round" in attrs:  # 7th edition's: kept as printed for coc7, as shots and burst for coc
            uses[name] = attrs["uses_per_round"]
            w.setdefault("shots_per_round", int(re.match(r"\d+", uses[name]).group(0)))
            if re.search(r"full auto|burst", uses[name], re.IGNORECASE):
                w["burst"] = True
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
        elif pct is not None and skills[skill] != pct:  # one skill, one chance: the first line's, the other said
            r.unread.append((n, f"{name} {pct}% (its {skill} is {skills[skill]}%, as an earlier line states: one "
                                f"skill has one chance)"))
        if left:
            r.unread.append((n, f"{name}: " + ", ".join(left)))
        prior = next((x for x in weapons if x["name"] == name), None) if before is not None else None
        if prior is not None:
            # one weapon, one line: what this line states wins over what the earlier one left to defaults,
            # what the earlier one stated stays; a default it said is taken back where this line states it
            for key, value in w.items():
                if key in attrs or key not in prior:
                    prior[key] = value
            for key, words in (("base_range", "no base range in the block"), ("damage", "no damage in the block")):
                if key in attrs:
                    r.assumed[:] = [x for x in r.assumed if f": {name}: {words};" not in x]
            stated[name] = before | set(attrs)
            return
        weapons.append(w)

    def melee_attack(name: str, pct: int | None, attrs: dict[str, Any], left: list[str],
                     natives: tuple[str, ...] | None, n: int) -> None:
        """A close-combat attack: the document's melee line; its % is the skill's."""
        skill = str(attrs.get("skill") or (natives[0] if natives else name))
        if pct is not None:
            skills[skill] = pct
        if attrs.get("weapon"):  # "近接戦闘（格闘）60%、ダメージ 1D3+1+DB（ナイフ）": the knife, fought with Brawl
            r.assumed.append(f"line {n}: {name} {pct}%: the attack of its bracketed weapon, {attrs['weapon']}")
            name = str(attrs["weapon"])
        damage = dice_text(str(attrs.get("damage", ""))).lower().replace("\u2044", "/").replace("damagebonus", "db")
        db = str(extra.get("DB", "")).lower().lstrip("+")
        if re.fullmatch(r"\d*d\d+", db) and damage.endswith(f"+{db}") and damage != f"+{db}":
            # older books print the wielder's damage bonus worked in ("Night-stick, damage 1D6+1D4" beside
            # "Damage Bonus: +1D4"): the line's own dice and the bonus, as every coc line writes it
            r.assumed.append(f"line {n}: {name}: damage {attrs['damage']} is {damage[:-len(db) - 1]} and the "
                             f"block's damage bonus +{db.upper()}: written {damage[:-len(db) - 1]}+db")
            damage = damage[:-len(db) - 1] + "+db"
        same = next((m for m in melee if m["name"] == name), None)
        if same is not None:  # stated again (an attack line, then a weapons table): one line, its damage kept
            if damage and not same.get("damage"):
                same["damage"] = damage
        else:
            melee.append({"name": name, "skill": skill, "damage": damage})
        attack_on[n] = name
        drain = [x for x in left if _DRAIN.match(x)]
        if drain:  # "舌: ダメージ: POW 1D10、CON 3D10": characteristics drained, no hit points: a note
            notes.append(f"{name}: {', '.join(x.strip() for x in drain)}")
            r.assumed.append(f"line {n}: {name}: {', '.join(x.strip() for x in drain)} (characteristics drained, "
                             "not hit points) kept in the notes")
            left = [x for x in left if x not in drain]
        each = [x for x in left if _PER_ROUND.match(x)]
        if each:  # "噛みつき: ダメージ: 毎ラウンド 1D4": the damage, and that it comes again every round, a note
            notes.append(f"{name}: {attrs.get('damage', '')} {each[0].strip()}".replace("  ", " "))
            r.assumed.append(f"line {n}: {name}: '{each[0].strip()}' (its damage every round) kept in the notes")
            left = [x for x in left if x not in each]
        when = [x for x in left if x.startswith("(") and x.endswith(")") and _CONDITION.search(x)]
        if when:  # "damage 2D6 (only against a seized victim)": when the attack applies, a note
            notes.append(f"{name}: {attrs.get('damage', '')} {' '.join(when)}".replace("  ", " "))
            r.assumed.append(f"line {n}: {name}: {' '.join(when)} (when the attack applies) kept in the notes")
            left = [x for x in left if x not in when]
        at = next((i for i, x in enumerate(left) if _OR_OTHER.match(x)), None)
        other = left[at:] if at is not None else []  # (what follows a lone "或," belongs to it)
        if other:  # "1d3 + damage bonus or weapon damage", "1D3+DB 或其他武器": another way to fight, a note
            notes.append(f"{name}: {', '.join(other)}")
            r.assumed.append(f"line {n}: {name}: {', '.join(other)} kept in the notes (another damage than the "
                             "line's, or an effect beside it)")
            left = left[:at]
        if left:  # a damage that is no roll ("— See Full Entry", "— Special"): said as the line's damage
            r.unread.append((n, f"{name}: " + ", ".join(
                f"damage '{x[2:].strip()}' (no dice: the line has no damage)" if x.startswith("— ") else x for x in left)))

    def melee_item(item: str, n: int) -> bool:
        parsed = coc_weapon_parts(item)
        bare = re.fullmatch(r"\s*([^,]*[^\W\d_][^,]*?)\s*,\s*skill\s+([^,]+?)\s*", item) if parsed is None else None
        if bare:  # a Foundry weapon item with its skill and no damage (a creature's tail, "special"): a line of no damage
            r.assumed.append(f"line {n}: {bare.group(1)}: no damage stated; a line of no damage, made with "
                             f"{bare.group(2)}")
            parsed = (bare.group(1), None, {"skill": bare.group(2)}, [])
        if parsed is None:
            m = _PCT.match(item)  # "Grapple 40%": an attack without damage
            if not m:
                return False
            name = m.group("name").strip()
            parsed = (name, int(m.group("val")), {}, [])
        name, pct, attrs, left = parsed
        printed.append(name)
        melee_attack(name, pct, attrs, left, COC_SKILLS.get(fold(name)), n)
        return True

    def spell_item(item: str, n: int) -> bool:
        if _prose_line(item, spells=True) or _SAN_LOSS_LABEL.match(item):
            # "GM が必要と思えば、…習得していてよい。": about the spells; the Sanity loss under them
            # ("理智损失：目睹布达…造成 0/1D4 点理智损失"): no spell, the notes
            notes.append(item.strip())
            return True
        name = re.sub(r"^[-*]\s+", "", item.strip()).rstrip(".。").strip()
        if re.fullmatch(r"(?i)(?:none|nil|n/a|[-—–]|(?:at |any )?(?:the )?keeper'?s'? (?:discretion|choice)|"
                        r"as (?:the )?keeper (?:wishes|sees fit))", name):
            # "Spells: none", "Spells: Keeper's discretion": no spell, what the block says of them
            notes.append(f"Spells: {name}")
            return True
        bracketed = re.fullmatch(r"[《「『〈<]\s*(.+?)\s*[》」』〉>]", name)  # 《アザトースの呪詛》
        name = bracketed.group(1) if bracketed else name
        if not name:
            return False
        spells.append(name)
        return True

    def armor_item(item: str, n: int) -> None:
        item, cid = catalog_tag(item)
        if item.strip().lower().rstrip(".") in _NONE:
            return
        jp = re.match(r"^(\d+)\s*(?:ポイント|点|點)\s*(?:の|的)?\s*([^。.,、，]+)[。.]?\s*(.*)$", item.strip())
        if jp and jp.group(3):  # "1 ポイントの菌類の腫瘍。火器などの…": the armor, then what it says of itself
            notes.append(jp.group(3).strip())
            r.assumed.append(f"line {n}: what follows the armor '{jp.group(1)} {jp.group(2).strip()}' is kept in "
                             "the notes")
            item = f"{jp.group(1)} points of {jp.group(2).strip()}"
        elif jp:
            item = f"{jp.group(1)} points of {jp.group(2).strip()}"  # 9 ポイントの皮膚: 9 points of 皮膚
        en = None if jp else re.match(r"^(\d+)\s*-?\s*points?\s+of\s+([^.,;:()]+?)\s*[.,;]\s*(\S.*)$", item.strip(),
                                      re.IGNORECASE)
        pointed = None if jp or en else re.match(r"^(\d+)\s*-\s*points?\s+([^.,;:()]+?)\s*\.\s+(\S.*)$", item.strip(),
                                                 re.IGNORECASE)
        if pointed:  # "9-point bulletproof vest. Worn at all times by ...": the armor, then what it says of itself
            en = pointed
        if en and not re.match(r"stops\b", en.group(3), re.IGNORECASE):
            # a bestiary's "6 points of thick hide and muscle. In addition, …", "1 point of hide, but may be
            # enhanced": the armor, then what it says of itself (the notes)
            notes.append(en.group(3).strip())
            r.assumed.append(f"line {n}: what follows the armor '{en.group(1)} points of {en.group(2).strip()}' is "
                             "kept in the notes")
            item = f"{en.group(1)} points of {en.group(2).strip()}"
        if not jp and _armor_prose(item) and not re.match(r"^\s*\d", item):
            # words, not a rating ("Resistant to harm (see special powers)", "在鬣狗形态下…3 点护甲。")
            if item.strip() not in notes:  # (a page that prints it twice: one note)
                notes.append(item.strip())
                r.assumed.append(f"line {n}: armor '{item.strip()}' states no points of its own: kept in the notes")
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
        lead = re.match(r"^(?P<p>\d+)\s*(?:-\s*points?\b|points?\b|点)?\s*(?:of\s+)?(?P<rest>.*)$", head.strip(),
                        re.IGNORECASE)
        if lead and not re.match(r"^\s*/", lead.group("rest")):
            # a bestiary's armor by its points first: "3 (immune to non-silver)", "1-point skin",
            # "2 points of hide": the points, and what it is (or what it says of itself) as its name
            rest, n_points = lead.group("rest").strip().rstrip("."), int(lead.group("p"))
            name = ("Armor " + rest) if rest.startswith(("(", "（")) else (rest[:1].upper() + rest[1:] if rest else "Armor")
            r.assumed.append(f"line {n}: armor '{item.strip()}' read as {n_points} point{'' if n_points == 1 else 's'}, "
                             f"named '{name}'"
                             + ("" if points else f" (A {n_points}; B, which the armor table gives as half of A in "
                                                  "all rows but one, as half)"))
            a: dict[str, Any] = {"name": name, "points": n_points} if points else \
                {"name": name, "A": n_points, "B": n_points / 2 if n_points % 2 else n_points // 2}
            entry = armor_entry(cid, a["name"])
            if entry is not None:
                a["catalog"] = entry.id
            a.update(extra_a)
            armor.append(a)
            return
        if points:
            m = re.match(r"^(?P<name>.+?)\s*\(?\s*(?P<p>\d+)\s*(?:points?|点)?\s*\)?$", head)
            if not m:
                r.unread.append((n, item))
                return
            a = {"name": m.group("name").strip().rstrip(":"), "points": int(m.group("p"))}
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

    def sheet_row(line: str, n: int) -> bool:
        """A row of the official 7th-edition investigator sheet copied as text (a PDF's): skills
        side by side, each its name, its base and its value, half and fifth ('Spot Hidden (25%)
        75 37 15 Listen (20%) 75 37 15'; 'English (EDU) 70 35 14' the own language; 'None 1 0 0' a
        blank slot). Taken only whole and where every half and fifth is its value's."""
        rows, pos, first = [], 0, ""
        line = _SHEET_TICKS.sub(" ", line)  # the ticks of skills used in play (✔): no part of a name
        lead = re.match(r"\s*(?:\(\d{1,2}\s*%\)\s+)?(\d{1,3})\s+(\d{1,2})\s+(\d{1,2})\s+(?=[^\W\d_])", line)
        if lead and int(lead[2]) == int(lead[1]) // 2 and int(lead[3]) == int(lead[1]) // 5:
            # a value first whose skill a PDF's text set on another line ('(05%) 5 2 1 Intimidate ...', the
            # Art / Craft row's): said, the rest read
            pos, first = lead.end(), lead.group(0).strip()
        for m in _SHEET_CELL.finditer(line, pos):
            gap = line[pos:m.start()].strip()
            nameless = re.fullmatch(r"\(\d{1,2}\s*%\)\s+(\d{1,3})\s+(\d{1,2})\s+(\d{1,2})", gap)
            if gap and not nameless:
                return False
            if nameless:  # a cell whose skill's name a PDF's text set on another line ('(01%) 1 0 0')
                r.unread.append((n, f"{gap} (a value with no skill beside it on its line)"))
            rows.append(m)
            pos = m.end()
        tail = line[pos:].strip()
        nameless = re.fullmatch(r"(?:\(\d{1,2}\s*%\)\s+)?(\d{1,3})\s+(\d{1,2})\s+(\d{1,2})", tail)
        if rows and nameless and int(nameless[2]) == int(nameless[1]) // 2 and int(nameless[3]) == int(nameless[1]) // 5:
            r.unread.append((n, f"{tail} (a value with no skill beside it on its line)"))
            tail = ""
        # a last skill with no values on its line (a PDF's text set them on another), or the base of one
        # whose name is on another ('(10%)'): said, the rest read
        alone = re.fullmatch(r"(?:[^\W\d_][^\d()]*)?\(\d{1,2}\s*%\)", tail)
        if not rows or (tail and not alone):
            return False
        if any(int(m["h"]) != int(m["v"]) // 2 or int(m["f"]) != int(m["v"]) // 5 for m in rows):
            return False
        if alone:
            r.unread.append((n, f"{tail} (no value beside it on its line)"))
        if first:
            r.unread.append((n, f"{first} (a value with no skill beside it on its line)"))
        for m in rows:
            label = re.sub(r"\s+", " ", m["label"]).strip()
            inner = re.fullmatch(r"(.+?\(\d{1,2}\s*%\))\s+(\S.*)", label)
            if inner:  # 'Cthulhu Mythos (00%) English (EDU) 90 45 18': a skill with no value on its line, then the cell's
                r.unread.append((n, f"{inner[1]} (no value beside it on its line)"))
                label = inner[2]
            base = re.search(r"\s*\((\d{1,2}\s*%|EDU|half DEX)\)$", label, re.IGNORECASE)
            name = label[:base.start()].strip() if base else label
            words = name.split()
            known = next((k for k in range(1, len(words)) if COC_SKILLS.get(fold(" ".join(words[k:])))), None) \
                if base and not COC_SKILLS.get(fold(name)) else None
            if known is not None:  # 'used too dead people Sleight of Hand (10%)': words written into the cell, then its skill
                r.unread.append((n, f"{' '.join(words[:known])} (written before {' '.join(words[known:])})"))
                name = " ".join(words[known:])
            if fold(name) == "none":
                continue  # a blank slot of the sheet
            if fold(name) in _SHEET_HEADS:  # its speciality printed on another line: which one is not said
                r.unread.append((n, f"{label} {m['v']} (the speciality is on another line)"))
                continue
            own = base is not None and base.group(1).upper() == "EDU"
            if not skill_item(f"Own Language ({name}) {m['v']}%" if own else f"{name} {m['v']}%", n):
                r.unread.append((n, f"{label} {m['v']}"))
        return True

    def loose(line: str, n: int) -> bool:
        """An attack line after the stats with no Combat heading ("手槍 45% (22/9), 傷害 1D10",
        "Dodge 30% (15/6)"): read as the Combat section would; a row of the official sheet's skills."""
        if sheet_row(line, n):
            return True
        if _label_prose(line):  # "Fighting attacks: ..." after "Attacks per round: 3"
            notes.append(line)
            return True
        parsed = coc_weapon_parts(_compendium(line))
        dodge = _PCT.match(line) or re.fullmatch(r"(?P<name>[^\d%:]+?)\s*:?\s*(?P<val>\d{1,3})", line.strip())
        if parsed is None and not (dodge and COC_SKILLS.get(fold(dodge.group("name"))) == ("Dodge",)):
            return False
        for item in coc_weapon_items(line):
            weapon_item(item, n)
        return True

    # a CoC weapon line runs on with commas ("55%, damage 1D10, base range 15 m"): its attacks
    # are told apart by coc_weapon_items
    def language_item(item: str, n: int) -> bool:
        """A skill under 'Languages:' ('English 80%', 'Latin 40%'): the Other Language it is,
        unless its name says a skill itself ('Language (Own)', 'Own Language (English)')."""
        m = _PCT.match(re.sub(r"[《》〈〉<>«»]", "", item).strip().rstrip("。.").strip())
        if m and not COC_SKILLS.get(fold(m.group("name"))) and english_name(m.group("name")) is None \
                and not re.search(r"language|語|语|言", m.group("name"), re.IGNORECASE):
            # "Hungarian (own) 90": the language marked as one's own
            own = re.fullmatch(r"(.+?)\s*\(\s*(?:own|native|mother tongue)\s*\)", m.group("name").strip(), re.IGNORECASE)
            item = f"Own Language ({own.group(1)}) {m.group('val')}%" if own else \
                f"Other Language ({m.group('name').strip()}) {m.group('val')}%"
        return skill_item(item, n)

    def skills_item(item: str, n: int) -> bool | None:
        """An item under a skills heading; the official sheet's row of skills under its SKILLS
        heading ('Appraise (05%) 5 2 1 First Aid (30%) 85 42 17') is read as one."""
        return True if sheet_row(item, n) else skill_item(item, n)

    section = sectioner(r, notes, stats, {"skills": skills_item, "weapons": weapon_item, "armor": armor_item,
                                          "spells": spell_item, "melee": melee_item, "languages": language_item},
                        lambda kind, text: coc_weapon_items(_pct_stop(text)) if kind in ("weapons", "melee") else
                        [text] if kind in ("spells", "skills", "languages") and _prose_line(text, kind == "spells") else
                        split_items(_pct_stop(text) if kind in ("skills", "languages") else text,
                                    ";" if kind == "armor" else ",;"))

    Walk(r, lines, _LANGUAGES).run(stats, section, loose)
    if named_on_stats and not r.doc.get("@name"):
        r.doc["@name"], r.doc["@name_line"] = named_on_stats
        if named_count:  # "Thugs (3)": the one line stands for that many
            notes.append(f"{named_count} of them (the block's '({named_count})')")
            r.assumed.append(f"line {named_on_stats[1]}: {named_on_stats[0]} ({named_count}): one stat block for "
                             f"{named_count} of them, kept in the notes")
    for i, (n, text) in enumerate(r.unread):  # "Move: 5/16 flying": MOV 5, and the line kept in the notes
        mv = _OTHER_MOVE.fullmatch(text)
        if mv:
            notes.append(mv.group(1))
            r.assumed.append(f"line {n}: {mv.group(1)} kept in the notes (a coc document has one MOV: the first)")
            r.unread[i] = (n, "")
    r.unread[:] = [(n, t) for n, t in r.unread if t]
    if named_on_stats:  # that line's name is read, and its labelled words (年齡:48 職業:店老板) are notes
        for i, (n, text) in enumerate(r.unread):
            lm = re.fullmatch(r"(.*) \(not read: (.*)\)", text, re.S)
            if n != named_on_stats[1] or not lm:
                continue
            left = [t.removeprefix(named_on_stats[0]) if t.startswith(named_on_stats[0]) and t != named_on_stats[0]
                    and re.match(r"[^\W\d_][^:：\s]{0,10}[:：]", t.removeprefix(named_on_stats[0])) else t
                    for t in lm.group(2).split() if t != named_on_stats[0]]  # ('陳強年齡:47': the name run on)
            labelled = [t for t in left if re.fullmatch(r"[^\W\d_][^:：\s]{0,10}[:：]\S+", t)]
            if labelled:
                notes.append(" ".join(labelled))
                r.assumed.append(f"line {n}: {' '.join(labelled)} kept in the notes")
            rest = " ".join(t for t in left if t not in labelled and t != named_count and not re.fullmatch(r"[\W_]+", t))
            r.unread[i] = (n, f"{lm.group(1)} (not read: {rest})" if rest else "")
        r.unread[:] = [(n, t) for n, t in r.unread if t]
    name_notes: list[str] = []
    if r.doc.get("@name"):
        name, name_notes = coc_name(str(r.doc["@name"]))
        if name_notes:
            r.assumed.append(f"line {r.doc.get('@name_line', 1)}: the name line's "
                             + "; ".join(repr(x) for x in name_notes) + " kept in the notes, not the name")
        r.doc["@name"] = name
    seventh, why, contested = coc_edition(chars, extra, skills, printed, folded_text, said)
    if system == SEVENTH_KEY and not seventh:  # a block read as coc7 by name: 7th edition, as it says
        seventh, why, contested = True, "7th edition: read as coc7 (the block's system)", False
    r.edition = why
    if not seventh and contested:
        # read as written although the block shows signs of 7th edition (or its line says so):
        # said in the report even when nothing else is (a 7th-edition block always is: /5)
        r.assumed.append(f"edition: {why}")
    _pow_of_magic_points(r, chars, extra, seventh)
    raw = dict(chars)
    _coc_characteristics(r, chars, seventh, char_line)
    own = _coc_derived(r, raw, extra, extra_line, seventh, extra_name)
    doc: dict[str, Any] = {"name": _name(r)}
    doc.update({k: chars[k] for k in COC_CHARACTERISTICS if k in chars})
    if "HP" in extra and 0 <= extra["HP"] <= 999:
        doc["HP"] = extra["HP"]
    elif "HP" in extra:
        r.unread.append((extra_line.get("HP", 0), f"{extra_name.get('HP', 'HP')} {extra['HP']} (outside 0-999)"))
    doc.update(own)
    if spells:
        doc["spells"] = spells
    if not seventh:  # (7th edition's: a knife or a club with Fighting (Brawl), _as_seventh)
        _class_skills(r, skills, melee, attack_on)
    doc["skills"] = skills
    doc["weapons"] = weapons
    if melee:
        doc["melee"] = melee
    once: list[dict[str, Any]] = []
    for a in armor:  # a page that prints its one "Armor: 9-point skin" twice has one armor, not two layers
        if a in once:
            r.assumed.append(f"armor '{a['name']}' is printed more than once, the same: one armor")
        else:
            once.append(a)
    doc["armor"] = once
    doc["notes"] = "\n".join(p for p in (*name_notes, r.doc.get("@description"), *notes) if p)
    r.doc = doc
    if seventh:  # whichever CoC layout claimed it (coc, or coc-zh for a block in Chinese)
        if system != SEVENTH_KEY:  # told from the block, not named by it: said in the report
            r.assumed.append(f"edition: {why.replace(DIVIDED, '')}; read as coc7 (Call of Cthulhu 7th edition), "
                             "its values as printed")
        _as_seventh(r, raw, uses, extra, stated, char_line)  # 7th-edition material reads as 7th edition (coc7), with its own values
    return r


DIVIDED = "; read into coc's 3-18 scale by dividing by 5"  # how coc (and coc-zh) read a 7th-edition block
SEVENTH_NAMES = {"Handgun": "Firearms (Handgun)", "Rifle": "Firearms (Rifle/Shotgun)",
                 "Shotgun": "Firearms (Rifle/Shotgun)", "SMG": "Firearms (Submachine Gun)",
                 "Machine Gun": "Firearms (Machine Gun)", "Hide": "Stealth", "Sneak": "Stealth",
                 "Conceal": "Sleight of Hand", "Fist/Punch": "Fighting (Brawl)", "Knife": "Fighting (Brawl)",
                 "Club": "Fighting (Brawl)", "Sword": "Fighting (Sword)", "Axe": "Fighting (Axe)",
                 "Spear": "Fighting (Spear)", **SEVENTH_RENAMES}


# what a coc7 weapon line holds for a field it does not state (plugins/coc7/model.py Coc7Weapon)
_SEVENTH_LINE_DEFAULTS = {"uses_per_round": "1", "capacity": 0, "malfunction": 100}


def _seventh_defaults(r: Read, line: dict[str, Any], w: dict[str, Any], said: set[str]) -> None:
    """What a 7th-edition block's weapon line leaves unsaid (base range, uses per round, capacity,
    malfunction) as 7th edition's own table gives it (coc7.weapons: the catalog weapon's row,
    else its class's), not 6th edition's defaults: '.38 Revolver 30%, damage 1D10' is 15 yd,
    1 (3), 6 rounds, 100, where it read 15 m and capacity 0."""
    import msgspec

    from xsys.core.catalog import says_revolver, strip_entry
    from xsys.core.model import generic_weapon
    from xsys.core.registry import catalog, get_system

    # the class the coc reading told (its Shotgun, where 7th edition's skill is Rifle/Shotgun), else the skill's
    cls = _COC_CLASS.get(w.get("skill", "")) \
        or _COC_CLASS.get(next((k for k, v in SEVENTH_NAMES.items() if v == line["skill"]), ""), None)
    entry = catalog().weapons.get(w.get("catalog") or "")
    if entry is None and cls is None:
        return
    if entry is not None:
        neutral = strip_entry(entry)
    else:
        kind = "revolver" if cls == "handgun" and says_revolver(line["name"]) else cls
        neutral = msgspec.structs.replace(generic_weapon(kind), name=line["name"])
    own = get_system(SEVENTH_KEY).weapon_defaults(neutral)
    filled, where = [], ""
    for key, said_as in (("base_range", "base_range"), ("uses_per_round", "uses_per_round"),
                         ("capacity", "capacity"), ("malfunction", "malfunction")):
        value = getattr(own, key)
        if said_as in said or (key == "uses_per_round" and key in line and "shots_per_round" in said):
            if entry is not None and key in ("uses_per_round", "malfunction") and key in line \
                    and str(line[key]) != str(value):  # the block's own value is kept, and the table's said
                r.assumed.append(f"{line['name']}: {key.replace('_', ' ')} {line[key]} as the block states it; "
                                 f"7th edition's table gives catalog weapon {entry.id} {value} (coc7.weapons)")
            continue
        if key != "base_range" and value == _SEVENTH_LINE_DEFAULTS[key]:
            continue  # what the document holds when the line is silent: nothing to fill
        line[key] = f"{round(value.to('yd'), 1):g} yd" if key == "base_range" else value
        filled.append(f"{key.replace('_', ' ')} {line[key]}")
        if key == "base_range":  # 7th edition's, not the 5th/6th-edition default the block was read with
            stale = re.compile(rf"^(line \d+: ){re.escape(line['name'])}: no base range in the block; ")
            where = next((m.group(1) for a in r.assumed for m in [stale.match(a)] if m), "")  # its line, kept
            r.assumed[:] = [a for a in r.assumed if not stale.match(a)]
    if filled:
        r.assumed.append(f"{where}{line['name']}: not stated, as 7th edition's table gives it "
                         f"({'catalog weapon ' + entry.id if entry is not None else 'the ' + neutral.weapon_class + ' row'}"
                         f"; coc7.weapons): {', '.join(filled)}")


def _as_seventh(r: Read, raw: dict[str, int], uses: dict[str, str], extra: dict[str, Any],
                stated: dict[str, set[str]] | None = None, lines_of: dict[str, int] | None = None) -> None:
    """`r`, read as a coc document, as the coc7 document of the same block: the characteristics
    as the block printed them (1-99 scale), the skills, weapons, close-combat lines and armor
    under 7th edition's names, what only coc holds reported where it cannot go."""
    doc = r.doc
    r.system = SEVENTH_KEY
    r.edition = r.edition.replace(DIVIDED, "; read into coc7 as written")
    r.assumed = [a for a in r.assumed if not a.startswith("7th-edition characteristics (1-99) divided by 5")
                 and not a.startswith("not in the block, set to the average adult")
                 and ": none stated, none written" not in a]  # (said again below, as coc7 reads it)
    out: dict[str, Any] = {"name": doc["name"]}
    missing, absent = [], []
    for k in COC_CHARACTERISTICS:
        if k in raw and 1 <= raw[k] <= 9_999:
            out[k] = raw[k]
            continue
        if k in UNSTATED_CHARACTERISTICS and not raw.get(k):  # a creature's (none printed, or 0): a coc7 sheet has none
            absent.append(k)
            continue
        out[k] = SEVENTH_AVERAGE_ADULT[k]
        if k not in raw:
            missing.append(f"{k} {out[k]}")
            continue
        # printed, but beyond what a coc7 sheet holds: said as such, not as a characteristic the block leaves out
        r.unread.append(((lines_of or {}).get(k, 0), f"{k} {raw[k]} (a coc7 characteristic is 1-9999): written as "
                                                     f"the average adult's {out[k]}"))
    if missing:
        r.assumed.append("not in the block, set to the average adult of 7th edition (3D6 x 5 -> 52.5, (2D6 + 6) x 5 "
                         "-> 65, EDU 70): " + ", ".join(missing))
    if absent:
        r.assumed.append(unstated_note(absent))
    for k in ("HP", "MP", "SAN", "Luck"):
        if k in doc:
            out[k] = doc[k]
    if isinstance(extra.get("MOV"), int) and 0 <= extra["MOV"] <= 100:
        out["MOV"] = extra["MOV"]  # a coc7 stat block states its movement rate
    said = []
    for a in r.assumed:
        if "not carried" in a and "MOV" in out:  # the movement rate is on the sheet: not said as lost
            head, tail = a.split(" not carried", 1)
            rest = [x for x in head.split(", ") if x not in {f"{w} {out['MOV']}" for w in MOV_NAMES}]
            if rest:
                said.append(", ".join(rest) + " not carried" + tail.replace(
                    "coc derives the damage bonus and movement from the characteristics",
                    "coc7 derives the damage bonus and Build from STR and SIZ (coc7.derived)"))
        else:
            said.append(a.replace("coc derives the damage bonus and movement",
                                  "coc7 derives the damage bonus, Build and movement"))
    r.assumed = said
    skills: dict[str, int] = {}
    sources: dict[str, list[str]] = {}
    # a 7e attack named for its weapon ("Kitchen knife 30% (15/6), damage 1D4") is made with a
    # Fighting skill (coc7.melee: a knife or a club with Brawl), not a skill of its own name
    fighting = {m["name"]: _seventh_fighting(m["name"]) for m in doc.get("melee", [])
                if m.get("skill") == m["name"] and m["name"] not in SEVENTH_NAMES and _seventh_fighting(m["name"])}
    attacks: dict[str, list[str]] = {}
    for name, value in doc.get("skills", {}).items():
        new = SEVENTH_NAMES.get(name) or fighting.get(name) or seventh_name(name)
        skills[new] = max(value, skills.get(new, value))
        if name in fighting:
            attacks.setdefault(new, []).append(f"{name} {value}")
        else:
            sources.setdefault(new, []).append(f"{name} {value}")
    for new, names in sources.items():
        if len({n.rsplit(' ', 1)[1] for n in names}) > 1:  # two 6th-edition skills at two levels, one 7th-edition
            r.assumed.append(f"{' and '.join(names)} are one 7th-edition skill, {new}: the better ({skills[new]}) "
                             "is kept (coc7.conversion.6e)")
    for new, names in attacks.items():
        # the skill lines by their 7th-edition names (the block's "Brawl 60%" was read as coc's Fist/Punch)
        own = [f"{new} {n.rsplit(' ', 1)[1]}" for n in sources.get(new, [])]
        if len({n.rsplit(' ', 1)[1] for n in names + own}) > 1:  # an attack at a level of its own
            r.assumed.append(f"{' and '.join(names)}: made with {new} in 7th edition (a knife or a club is fought "
                             f"with Brawl), "
                             + (f"which the block gives as {' and '.join(own)}" if own else "stated by no other line")
                             + f": {new} {skills[new]}, the better, is kept (coc7.melee)")
    out["skills"] = skills
    weapons = []
    for w in doc.get("weapons", []):
        line: dict[str, Any] = {"name": w["name"], "skill": SEVENTH_NAMES.get(w.get("skill", ""), w.get("skill")),
                                "damage": str(w.get("damage", "")).upper()}
        for k in ("base_range", "capacity", "malfunction", "sights", "catalog", "muzzle_energy"):
            if w.get(k) is not None:
                line[k] = w[k]
        if line["skill"] == "Throw" and "sights" not in line:
            line["sights"] = "none"  # a thrown weapon is aimed by eye (core.vocab: sights "none")
        if w["name"] in uses:
            line["uses_per_round"] = uses[w["name"]]
            if w.get("burst") and not re.search(r"full auto|burst", uses[w["name"]], re.IGNORECASE):
                # a stated rate and a weapon that also fires bursts (a Foundry Thompson's "1 (2)" and its
                # brst/auto properties): both, as 7th edition's table writes them ("1 or full auto")
                line["uses_per_round"] += " or full auto"
        elif w.get("shots_per_round") is not None:
            line["uses_per_round"] = str(w["shots_per_round"]) + (" or full auto" if w.get("burst") else "")
        if stated is not None:
            _seventh_defaults(r, line, w, stated.get(w["name"], set()))
        if w.get("burst") and not re.search(r"full auto|burst", line.get("uses_per_round", ""), re.IGNORECASE):
            # "Mauser C96 carbine 60%, damage 1D10, burst": the line says it fires bursts, whatever its
            # table's row gives: the row's rate, or full auto (7th edition's words for it)
            line["uses_per_round"] = f"{line.get('uses_per_round') or '1'} or full auto"
        weapons.append(line)
    out["weapons"] = weapons
    if doc.get("melee"):
        out["melee"] = [{"name": m["name"], "skill": SEVENTH_NAMES.get(m.get("skill", ""),
                                                                  fighting.get(m.get("skill", ""), m.get("skill", ""))),
                         "damage": str(m.get("damage", "")).upper()} for m in doc["melee"]]
    out["armor"] = [{"name": a["name"], "armor": a.get("points", a.get("A", 0)),
                     **{k: a[k] for k in ("catalog", "stops") if a.get(k) is not None}} for a in doc.get("armor", [])]
    if doc.get("spells"):
        out["spells"] = list(doc["spells"])
    out["notes"] = doc.get("notes", "")
    r.doc = out


def _class_skills(r: Read, skills: dict[str, int], melee: list[dict[str, Any]], attack_on: dict[int, str]) -> None:
    """A 5th/6th-edition attack named for its weapon ("Switchblade 65%, damage 1D4+db", "日本刀 60%") is
    made with the skill of its weapon's class (coc-ja.melee: a knife with Knife, a sword with Sword),
    not a skill of its own name that no other system knows: its % is that skill's, said. A block that
    also states that skill at another level keeps the line's own name (its attack at its own level)."""
    line_of = {name: n for n, name in attack_on.items()}
    for m in melee:
        name = m["name"]
        skill = MELEE_CLASS_SKILL.get(melee_class_of(name))
        if m.get("skill") != name or skill is None or COC_SKILLS.get(fold(name)):
            continue
        value = skills.get(name)
        if value is not None and skills.get(skill, value) != value:
            continue  # "Knife 40%" beside "Switchblade 65%": two levels, each kept where it is written
        m["skill"] = skill
        if value is not None:
            del skills[name]
            skills[skill] = value
        where = f"line {line_of[name]}: " if name in line_of else ""
        r.assumed.append(f"{where}{name}" + (f" {value}%" if value is not None else "")
                         + f": made with {skill}, the skill of a {melee_class_of(name)} (coc-ja.melee)")


def _seventh_fighting(name: str) -> str | None:
    """The 7th-edition Fighting skill an attack named for its weapon is made with (coc7.melee,
    assumed: the 7th-edition weapons table; knives and clubs are Brawl), None for a name that
    says no weapon class (a creature's Bite or Claw is its own skill)."""
    cls = melee_class_of(name)
    if cls in ("improvised", "unarmed"):
        return None
    return {"knife": "Fighting (Brawl)", "club": "Fighting (Brawl)", "sword": "Fighting (Sword)",
            "axe": "Fighting (Axe)", "spear": "Fighting (Spear)"}.get(cls)


# a creature's second way of moving after its MOV, left over from its stats line ("Move: 5/16 flying",
# "移动力: 9/20 鬣狗形态": 20 in its hyena form): the words after the second number, whatever they are
_OTHER_MOVE = re.compile(r"((?:move|mov|movement(?: rate)?|移动力|移動力|移动|移動)\s*[:：]?\s*\d+\s*/\s*\d+\s*"
                         r"([^\d()/:：]{1,24}?)\.?) \(not read: \2\.?\)", re.IGNORECASE)


def _label_prose(item: str) -> bool:
    """A labelled sentence in a creature's Combat section ("Fighting attacks: it lashes out with
    ...", "Special: ..."): no chance and no damage dice, several words after the label."""
    m = re.match(r"^[^:：]{2,40}[:：]\s*(.+)$", item)
    if m is None or re.search(r"\d+\s*%", item):
        return False
    rest = m.group(1)  # several words; or, in Chinese or Japanese, a sentence (no dice, a comma or a full stop)
    return len(rest.split()) >= 4 or (len(rest) >= 12 and bool(_HAN.search(rest)) and bool(re.search(r"[。，,、]", rest))
                                       and not re.search(_DICE, rest))


def _pow_of_magic_points(r: Read, chars: dict[str, int], extra: dict[str, Any], seventh: bool) -> None:
    """A block that prints Magic Points but no POW states its POW through them: 7th edition's
    MP = POW / 5 (coc7.derived), 5th/6th edition's MP = POW (the coc plugin's rule, README).
    Read so, said; not the average adult's POW beside MP that contradict it."""
    mp = extra.get("MP")
    if "POW" in chars or not isinstance(mp, int) or isinstance(mp, bool) or mp <= 0:
        return
    chars["POW"] = mp * 5 if seventh else mp
    r.assumed.append(f"POW not in the block: its MP {mp} gives POW {chars['POW']} "
                     + ("(7th edition: MP = POW / 5, coc7.derived)" if seventh else "(5th/6th edition: MP = POW)"))


def _coc_characteristics(r: Read, chars: dict[str, int], seventh: bool, where: dict[str, int]) -> None:
    """A 7th-edition block's characteristics (1-99) on coc's 3-18 scale (seventh_to_coc); one
    outside what a coc document holds (1-999: a creature's STR 200) is unread, not a failed block; a characteristic the
    block leaves out: the average adult, said so (APP and EDU: none, said: a creature has neither)."""
    if seventh and chars:
        converted, note = seventh_to_coc(chars)
        chars.update(converted)
        r.assumed.append(note)
    lo, hi = COC_CHARACTERISTIC_RANGE
    for k, v in list(chars.items()):
        if not lo <= v <= hi:
            if not seventh:  # a 7th-edition block's is said against coc7's own range, as it reads (_as_seventh)
                r.unread.append((where.get(k, 0), f"{k} {v} (a coc characteristic is {lo}-{hi})"))
            del chars[k]
    absent = [k for k in UNSTATED_CHARACTERISTICS if not chars.get(k)]
    if absent:  # a creature's (none printed, or 0): a coc sheet has none either
        r.assumed.append(unstated_note(absent))
    missing = [k for k in COC_CHARACTERISTICS if k not in chars and k not in absent]
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


# ---- for other formats' readers of coc documents ------------------------------------------


# ---- writing --------------------------------------------------------------------------------

def write_coc7(d: dict[str, Any]) -> list[str]:
    """A coc7 document as a 7th-edition block: coc's lines with 7th edition's weapon and armor
    fields (uses per round, armor points); `read_coc` reads it back as coc7."""
    weapons = []
    for w in d.get("weapons") or []:
        line = {k: v for k, v in w.items() if k != "uses_per_round"}
        line["base_range"] = _in_yards(line.get("base_range"))
        weapons.append(line)
    out = write_coc({**d, "weapons": weapons, "armor": [{**a, "points": a.get("armor", 0)} for a in d.get("armor") or []]},
                    points=True, uses={w["name"]: str(w.get("uses_per_round", "1")) for w in d.get("weapons") or []},
                    blasts=_grenade_blasts(weapons))
    return [f"system: {SEVENTH_KEY}", *out]


def _grenade_blasts(weapons: list[dict[str, Any]]) -> dict[str, str]:
    """The 7th-edition table's blast radius ('3 yards') of each line that is its hand grenade (a
    Throw line whose name says grenade, at the table's damage, stating no energy of its own)."""
    from xsys.core.registry import get_system
    from xsys.core.vocab import GRENADE_WORDS

    try:
        row = get_system(SEVENTH_KEY).tables().get("grenade", {})
    except Exception:  # noqa: BLE001 - no 7th-edition table installed: no blast to print
        return {}
    if "blast" not in row:
        return {}
    size, unit = str(row["blast"]).split()
    words = {"yd": "yards", "m": "m", "ft": "feet"}.get(unit, unit)
    return {w["name"]: f"{size} {words}" for w in weapons
            if w.get("skill") == "Throw" and any(g in str(w["name"]).lower() for g in GRENADE_WORDS)
            and str(w.get("damage", "")).upper() == str(row.get("damage", "")).upper() and w.get("muzzle_energy") is None}


def _in_yards(value: Any) -> Any:
    """A 7th-edition range as its table prints it, in whole yards ('100.584 m' -> '110 yd'),
    where it is a whole number of yards, or to a tenth of a yard where it was kept so (a
    6th-edition line's 10 m is 10.9 yd); else as it is."""
    parts = str(value).split()
    if len(parts) == 2 and parts[1] == "m":
        try:
            yards = float(parts[0]) / 0.9144
        except ValueError:
            return value
        if yards >= 1 and abs(yards - round(yards)) < 1e-6:
            return f"{round(yards)} yd"
        if yards >= 1 and abs(yards * 10 - round(yards * 10)) < 1e-6:  # a tenth: a 6th-edition 10 m
            return f"{round(yards, 1):g} yd"
    return value


def write_coc(d: dict[str, Any], points: bool = False, uses: dict[str, str] | None = None,
              blasts: dict[str, str] | None = None) -> list[str]:
    """`points`: the armor holds one number of points (coc-zh's), not coc's A/B pair; `blasts`:
    a weapon's blast radius, printed after its damage as 7th edition's table does ('4D10/3 yards')."""
    out = [str(d.get("name", ""))]
    out.append(" ".join(f"{k} {d[k]}" for k in COC_CHARACTERISTICS if k in d)
               + (f" HP {d['HP']}" if d.get("HP") is not None else ""))
    own = [f"{k} {d[k]}" for k in ("SAN", "MP", "Luck", "MOV") if d.get(k) is not None]
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
            blast = f"/{(blasts or {})[w['name']]}" if w["name"] in (blasts or {}) else ""
            parts = [f"{w['name']}{catalog_label(w, 'catalog', 'weapon')}" + (f" {pct}%" if pct is not None else ""),
                     f"damage {str(w['damage']).upper()}{blast}", f"base range {length(w['base_range'])}",
                     f"skill {w['skill']}"]
            if uses is not None:
                if uses.get(w["name"], "1") != "1":
                    parts.append(f"uses per round {uses[w['name']]}")
            elif w.get("shots_per_round", 1) != 1:
                parts.append(f"{w['shots_per_round']} shots per round")
            if w.get("burst"):
                parts.append("burst")
            if w.get("capacity"):
                parts.append(f"capacity {w['capacity']}")
            if w.get("malfunction", 100) != 100:
                parts.append(f"malfunction {w['malfunction']}")
            thrown = w.get("skill") == "Throw"  # aimed by eye, firing nothing: what the reader assumes
            for key, label in (("STR", "STR"), ("sights", "sights"), ("carry", "carry"), ("ammo", "ammo"),
                               ("length", "length"), ("muzzle_energy", "muzzle energy")):
                if key in ("sights", "ammo") and w.get(key, "none" if thrown else None) == "none" and thrown:
                    continue
                if w.get(key) is not None and not (key == "sights" and w[key] == "iron" and not thrown) \
                        and not (key == "ammo" and w[key] == "bullet" and not thrown):
                    parts.append(f"{label} {length(w[key]) if key in ('length', 'muzzle_energy') else w[key]}")
            items.append(", ".join(parts))
        out.append(weapons_line("Weapons", items, [w["name"] for w in d["weapons"]]))
    if d.get("melee"):
        items = []
        for m in d["melee"]:
            pct = (d.get("skills") or {}).get(m.get("skill"))
            parts = [f"{m['name']}" + (f" {pct}%" if pct is not None else "")]
            if m.get("damage"):
                parts.append(f"damage {str(m['damage']).upper()}")
            parts.append(f"skill {m['skill']}")
            items.append(", ".join(parts))
        out.append(weapons_line("Melee", items, [m["name"] for m in d["melee"]]))
    if d.get("armor"):
        if points:
            out.append("Armor: " + "; ".join(f"{a['name']}{catalog_label(a, 'catalog', 'armor')} {a['points']}"
                                             + (f", stops {a['stops']}" if a.get("stops") else "") for a in d["armor"]))
        else:
            out.append("Armor: " + "; ".join(f"{a['name']}{catalog_label(a, 'catalog', 'armor')} {a['A']}/{num(a['B'])}"
                                             + (f", stops {a['stops']}" if a.get("stops") else "") for a in d["armor"]))
    return out


# ---- the declared layout -----------------------------------------------------------------------

class CocText(TextLayout):
    """The Call of Cthulhu text stat block of one system (the layout its ``text_block`` names).
    A variant reads the same block: `chinese` (coc-zh) claims the blocks written in Chinese,
    which the parent then leaves, writes a ``system:`` line (its stats read like the parent's)
    and its armor as points."""

    derived_fields = ("DB", "Build")  # the damage bonus its melee lines' '+DB' adds; 7e's Build

    def __init__(self, key: str, chinese: bool = False) -> None:
        super().__init__(key)
        self.chinese = chinese
        self.stats_hint = "" if chinese else "STR CON SIZ ... (Call of Cthulhu)"

    def score(self, lines: list[str]) -> int:
        if self.key == SEVENTH_KEY:
            return 0  # a block that names no system is coc's to read: coc reads a 7th-edition one as coc7
        # tables and brackets (| STR | CON |, 【STR】) are seen as the reader will see them
        text = "\n".join(normalize(x) for x in coc_layout(lines))
        if is_chinese(text) != self.chinese:
            return 0
        return sum(count_stats(text, names) > 0 for names in COC_CHARACTERISTIC_NAMES.values())  # 力量, 體質 ... too

    def read(self, lines: list[str]) -> Read:
        return read_coc(lines, self.key, points=self.chinese or self.key == SEVENTH_KEY)

    def write(self, doc: dict[str, Any]) -> list[str]:
        if self.key == SEVENTH_KEY:
            return write_coc7(doc)
        head = [f"system: {self.key}"] if self.chinese else []
        return head + write_coc(doc, points=self.chinese)

    def stand_in(self, stats: dict[str, int]) -> str | None:
        if self.key == SEVENTH_KEY:  # read as 7th edition whatever they are (read_coc)
            return " ".join(f"{k} {int(stats[k])}" for k in COC_CHARACTERISTICS if stats.get(k) is not None) or None
        # the characteristics as a line the reader cannot mistake for a 7th-edition one
        # (a value above 18 would mark the block 7th edition and divide every one by 5)
        return " ".join(f"{k} {min(max(int(stats[k]), 1), 18)}" for k in COC_CHARACTERISTICS
                        if stats.get(k) is not None) or None

    def skill_aliases(self) -> dict[str, list[str]]:
        return {native: [a for a in aliases if fold(a) != fold(native)] for native, aliases in PRINTED_NAMES.items()}


def block(system: Any) -> CocText:
    """The layout a system naming ``call-of-cthulhu`` gets (coc; coc7, which reads a block as
    7th edition): the hook's ``make``."""
    return CocText(system.key)


def chinese_block(system: Any) -> CocText:
    """The layout a system naming ``call-of-cthulhu-zh`` gets (coc-zh): the same block, claiming
    those written in Chinese, its armor as points."""
    return CocText(system.key, chinese=True)
