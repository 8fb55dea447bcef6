"""The names Call of Cthulhu sheets give what coc holds: its skills as English 5th/6th- and
7th-edition, Japanese and Chinese sheets print them (:data:`COC_SKILLS`, :func:`coc_skill`,
:func:`weapon_skill`), its characteristics, the damage a weapon line holds (:func:`coc_damage`)
and Chaosium's conversion between the editions' characteristic scales (:func:`seventh_to_coc`).
The names themselves are data: names.toml (the sheets' names) and foundry_names.toml (the
Foundry CoC7 system's other languages), each read once.

Shared by every reader of Call of Cthulhu material: the stat-block layout (the ``coc_block``
format plugin) and the Foundry CoC7, CCFOLIA and Dhole's House formats, which each name coc as
their system.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

from xsys.core.cache import package_toml
from xsys.core.textblock import fold, weapon_class_by_name


# Every name a sheet prints for a skill coc writes (names.toml [printed], with the Japanese
# character-sheet names of [japanese_sheets] added after each skill's own), the speciality names
# ([specialised]): data, read once.
_NAMES = package_toml(__package__, "names.toml")
PRINTED_NAMES: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in _NAMES["printed"].items()}


# 6th-edition names 7th edition prints otherwise (coc7.conversion.6e, assumed names): a 7th-edition
# sheet read under the 6th-edition name gets its own name back
SEVENTH_RENAMES = {"Own Language": "Language (Own)", "Other Language": "Language (Other)",
                   "Natural History": "Natural World"}
_LANGUAGE = re.compile(r"Other Language \((.+)\)")


def seventh_name(name: str) -> str:
    """A skill's 7th-edition name (coc7.conversion.6e, assumed names): SEVENTH_RENAMES, and a
    language with its speciality as 7th-edition sheets print it (the Foundry CoC7 system's
    "Language (English)"): "Other Language (英語)" is "Language (英語)". (An own language with
    its name, "Own Language (英语)", keeps both: "Language (Own)" would drop which it is.)"""
    m = _LANGUAGE.fullmatch(name)
    return f"Language ({m.group(1)})" if m else SEVENTH_RENAMES.get(name, name)


@lru_cache(maxsize=1)
def foreign_names() -> dict[str, str]:
    """A skill's name in another language of the Foundry CoC7 system and its translation modules
    (foundry_names.toml: French, German, Spanish, Italian, Polish, Portuguese, Swedish, Korean,
    Russian, Czech, Ukrainian, each name with its source), folded, -> its English 7th-edition name.
    A name the sources give two skills is neither's."""
    found: dict[str, set[str]] = {}
    bare: dict[str, set[str]] = {}
    for source in package_toml(__package__, "foundry_names.toml")["source"]:
        for english, native in source["names"].items():
            found.setdefault(fold(native), set()).add(english)
            spec = re.fullmatch(r"[^()]+\(([^()]+)\)", native.strip())
            if spec and english.startswith(("Fighting (", "Firearms (")):
                # a block's attack named by its speciality alone ('Bijatyka 55%', 'Handgemenge 30%': the brawl)
                bare.setdefault(fold(spec.group(1)), set()).add(english)
    for k, v in bare.items():
        found.setdefault(k, set()).update(v)
    return {k: next(iter(v)) for k, v in found.items() if len(v) == 1}


def translated_skill(name: str, skill_name: str = "") -> str | None:
    """A skill's English 7th-edition name where a Foundry actor names it in another language
    (foreign_names: 'Trouver Objet Caché' is Spot Hidden, 'Lutar (Briga)' Fighting (Brawl); 'Pister
    (odeur du sang)' is Track (odeur du sang), its speciality as written), or where its skill name
    alone is one ('Esquive' under the speciality 'Combat rapproché': Dodge); else None."""
    names = foreign_names()
    found = names.get(fold(name))
    if found is not None:
        return found
    own = names.get(fold(skill_name)) if skill_name else None
    spec = re.fullmatch(r"(.+?)\s*\(([^()]+)\)", name.strip())
    family = names.get(fold(spec.group(1))) if spec else None
    if own is not None and (("(" not in own and own != "Fighting") or (family and own.startswith(f"{family} ("))):
        return own  # ('Armes de poing' under the speciality 'Combat à distance': Firearms (Handgun))
    if spec and family and "(" not in family:
        return f"{family} ({spec.group(2).strip()})"
    return None


_SIXTH_RENAMES = {v: k for k, v in SEVENTH_RENAMES.items()}
_SEVENTH_LANGUAGE = re.compile(r"Language \((.+)\)")


def sixth_name(name: str) -> str:
    """A 7th-edition skill's name on a 6th-edition sheet (seventh_name, the other way): "Language
    (Own)" is "Own Language", "Language (英語)" is "Other Language (英語)"."""
    if name in _SIXTH_RENAMES:
        return _SIXTH_RENAMES[name]
    m = _SEVENTH_LANGUAGE.fullmatch(name)
    return f"Other Language ({m.group(1)})" if m else name


SPECIALISED: dict[str, str] = dict(_NAMES["specialised"])  # "芸術(観劇)" is Art (観劇)
_OWN = {"母语", "母語", "母国語"}  # 英语（母语）: the language the speciality says is one's own


_COC_JA_SHEETS: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in _NAMES["japanese_sheets"].items()}


for _native, _aliases in _COC_JA_SHEETS.items():
    PRINTED_NAMES[_native] = PRINTED_NAMES.get(_native, ()) + tuple(a for a in _aliases if a not in PRINTED_NAMES.get(_native, ()))


COC_SKILLS: dict[str, tuple[str, ...]] = {}


for _native, _aliases in PRINTED_NAMES.items():
    for _a in _aliases:
        COC_SKILLS.setdefault(fold(_a), ())
        COC_SKILLS[fold(_a)] += (_native,)


_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def japanese_name(native: str) -> str | None:
    """The name Japanese CoC 6e sheets print for a coc skill (the first CJK alias above: the
    Japanese names are listed before the Chinese ones), or None."""
    return next((a for a in PRINTED_NAMES.get(native, ()) if _CJK.search(a)), None)


def closest_coc_skill(name: str) -> str | None:
    """The coc skill a name no table knows most likely means (a misspelling: 'Spot Hiden'), or
    None when nothing is close."""
    import difflib

    key = fold(name)
    found = difflib.get_close_matches(key, list(COC_SKILLS), n=1, cutoff=0.8)
    if not found:
        return None
    # 'Fighting (Bite)' is not a misspelt 'Fighting (Axe)': two specialities of one skill are
    # close as wholes, so the specialities themselves must be close
    mine, theirs = re.fullmatch(r"(.+?) ?\((.+)\)", key), re.fullmatch(r"(.+?) ?\((.+)\)", found[0])
    if mine and theirs and mine.group(1) == theirs.group(1) and \
            difflib.SequenceMatcher(None, mine.group(2), theirs.group(2)).ratio() < 0.8:
        return None
    return COC_SKILLS[found[0]][0]


COC_CHARACTERISTICS = ("STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU")


# The coc skill that fires each neutral weapon class a printed name says (core.textblock's words)
_CLASS_SKILL = {"mg": "Machine Gun", "smg": "SMG", "shotgun": "Shotgun", "rifle": "Rifle", "thrown": "Throw",
                "handgun": "Handgun"}


def skill_by_keyword(name: str) -> str | None:
    """The coc firearm skill a printed weapon name says (a revolver: Handgun), or None."""
    cls = weapon_class_by_name(name)
    return _CLASS_SKILL[cls] if cls else None


# The 7th-edition system's key, and its names of what the reader took as coc's skills (the
# block printed the 7th-edition name; coc_skill read it as coc's): a 7th-edition block is
# written as a coc7 document by these, every other name as the block printed it.
SEVENTH_KEY = "coc7"


# the average adult of 7th edition: coc's (COC_AVERAGE_ADULT) x 5
SEVENTH_AVERAGE_ADULT = {"STR": 55, "CON": 55, "SIZ": 65, "DEX": 55, "APP": 55, "INT": 65, "POW": 55, "EDU": 70}
# what a Call of Cthulhu sheet (either edition) may leave unstated: a creature has no appearance and
# no education (its block prints neither); a reader writes none for them rather than an average adult's
UNSTATED_CHARACTERISTICS = ("APP", "EDU")


def unstated_note(keys: list[str]) -> str:
    """The reader's word on the characteristics a sheet leaves out and keeps out."""
    return (f"{', '.join(keys)}: none stated, none written (a creature has neither appearance nor education, and a "
            "sheet may leave them out; a system that needs them assumes the adult median, and says so)")


# coc-ja.melee: the 5th/6th-edition skill a close-combat weapon of a class is fought with (the lines
# of tables.toml [melee_line]); a weapon named for itself ("Switchblade 65%", 警棒) is fought with it
MELEE_CLASS_SKILL = {"knife": "Knife", "club": "Club", "sword": "Sword", "axe": "Axe", "spear": "Spear"}


def skill_of_class(weapon_class: str) -> str:
    return {"handgun": "Handgun", "revolver": "Handgun", "smg": "SMG", "carbine": "Rifle", "rifle": "Rifle",
            "shotgun": "Shotgun", "mg": "Machine Gun", "thrown": "Throw"}[weapon_class]


@lru_cache(maxsize=4096)  # (asked for every skill of every NPC, and again as it is read back)
def coc_skill(name: str) -> tuple[str, ...]:
    """The coc skills a printed name files under (7e, Japanese, Chinese names), or ()."""
    found = COC_SKILLS.get(fold(name), ())
    if not found and not name.isascii() and re.search(r"[\u3040-\u30ff\u4e00-\u9fff]\s+[(（]", name):
        # a Japanese or Chinese name with a space before its speciality (the Foundry CoC7 system's
        # "射撃 (拳銃)", its specialization, a space, then the skill in brackets): as printed without it
        found = COC_SKILLS.get(fold(re.sub(r"(?<=[\u3040-\u30ff\u4e00-\u9fff])\s+(?=[(（])", "", name)), ())
    return found


# languages a skill list names bare ("Latin 40%", "French 30%"): each an Other Language. English is not
# among them: an English-speaking NPC's "English 80%" is as likely his own language as another
_LANGUAGE_NAMES = frozenset(fold(x) for x in (
    "Latin", "Greek", "Ancient Greek", "French", "German", "Spanish", "Italian", "Portuguese", "Russian", "Arabic",
    "Hebrew", "Aramaic", "Chinese", "Mandarin", "Cantonese", "Japanese", "Korean", "Egyptian", "Coptic", "Sanskrit",
    "Hindi", "Persian", "Farsi", "Turkish", "Dutch", "Polish", "Czech", "Hungarian", "Swahili", "Welsh", "Gaelic",
    "Old Norse", "Sumerian", "Akkadian", "Aklo", "Yithian"))


def english_name(name: str) -> str | None:
    """A skill printed with a speciality whose skill the tables name in Japanese or Chinese
    (SPECIALISED): its English name with the speciality as printed ("芸術(観劇)" -> "Art (観劇)",
    "言語:英語" -> "Other Language (英語)"); None for any other name."""
    kind = re.fullmatch(r"\s*language\s*\(\s*(other|own)\s*\)\s+([^\d()]+?)\s*", name, re.IGNORECASE) or \
        re.fullmatch(r"\s*language\s*\(\s*(other|own)\s*[:：]\s*([^\d()]+?)\s*\)\s*", name, re.IGNORECASE)
    if kind:  # "Language (Other) Latin", "Language (Other: Latin)": the sheet's heading, then the language it names
        return f"{kind.group(1).capitalize()} Language ({kind.group(2)})"
    m = re.fullmatch(r"\s*([^()（）:：]+?)\s*(?:[(（]\s*(.+?)\s*[)）]|[:：]\s*(.+?))\s*", name)
    if not m:
        # a language by its Chinese or Japanese name alone (法语, 拉丁语, ラテン語, 中国語): the Other
        # Language it is, as printed
        bare = name.strip()
        if fold(bare) in _LANGUAGE_NAMES:  # "Latin 40%" on a scholar's skill list: the Other Language it is
            return f"Other Language ({bare})"
        return f"Other Language ({bare})" if re.fullmatch(r"[\u30a0-\u30ff\u4e00-\u9fff]{1,8}[语語]", bare) \
            and bare not in _OWN else None
    head = SPECIALISED.get(fold(m.group(1)).replace(" ", ""))
    if head is None and (m.group(2) or "").strip() in _OWN and re.fullmatch(r"[\u4e00-\u9fff]{1,5}[语語]", m.group(1)):
        return f"Own Language ({m.group(1)})"  # 英语（母语）
    if head in ("Other Language", "Own Language") and (m.group(2) or m.group(3) or "").strip() in _OWN:
        return "Own Language"  # 言語(母国語): the language skill whose speciality says it is one's own
    return f"{head} ({m.group(2) or m.group(3)})" if head else None


def weapon_skill(skill_name: str, weapon_name: str) -> str | None:
    """The coc skill a weapon's printed skill fires it with; a skill that files under two
    (7e 'Firearms (Rifle/Shotgun)') is told apart by the weapon's name."""
    natives = coc_skill(skill_name)
    if len(natives) > 1:
        by_name = skill_by_keyword(weapon_name)
        return by_name if by_name in natives else natives[0]
    return natives[0] if natives else None


# Chaosium's conversion between the editions: a 7th-edition characteristic (1-99 for people)
# is five times the 3-18 of the 5th/6th edition that `coc` holds. Every reader of 7th-edition
# material (Foundry CoC7 actors, Dhole's House exports) divides here and nowhere else, so a
# reader into a 7th-edition system changes this one place.
SEVENTH_EDITION_FACTOR = 5


COC_CHARACTERISTIC_RANGE = (1, 999)  # coc's Characteristic type (3-18 for most humans; creatures beyond)


# A characteristic a source leaves empty, on coc's scale: the average adult, as the text reader
# fills a block that leaves one out (3d6 -> 10.5, 2d6+6 -> 13, 3d6+3 -> 13.5)
COC_AVERAGE_ADULT = {"STR": 11, "CON": 11, "SIZ": 13, "DEX": 11, "APP": 11, "INT": 13, "POW": 11, "EDU": 14}


def seventh_to_coc(chars: dict[str, int],
                   clamped: dict[str, tuple[int, int]] | None = None) -> tuple[dict[str, int], str]:
    """7th-edition characteristics on coc's scale, value / 5 rounded half up, and the assumed
    entry saying so. A value below coc's 1 is kept at 1. With `clamped` (a dict the caller
    reports from), every value coc's 1-99 cannot hold (a creature's STR 0, a Great Old One's
    SIZ 1050) is kept at the nearest end and recorded there as ``{key: (value / 5 rounded,
    kept)}``, for the caller to say at its own path."""
    lo, hi = COC_CHARACTERISTIC_RANGE
    out: dict[str, int] = {}
    for k, v in chars.items():
        exact = math.floor(v / SEVENTH_EDITION_FACTOR + 0.5)
        out[k] = max(exact, lo) if clamped is None else min(max(exact, lo), hi)
        if clamped is not None and out[k] != exact:
            clamped[k] = (exact, out[k])
    return out, ("7th-edition characteristics (1-99) divided by 5 and rounded for coc's 3-18 scale ("
                 + ", ".join(f"{k} {chars[k]} -> {v}" for k, v in out.items()) + ")")


def coc_damage(text: Any, melee: bool = False) -> str | None:
    """A damage as a coc weapon line (`melee` False: dice, a shotgun's bands '4d6/2d6/1d6', a
    trailing '+db' the text reader takes off and says) or melee line ('1d4+db', '1d3+1/2db')
    holds it, lower case without spaces; None when coc's document cannot hold it."""
    from typing import get_args, get_type_hints

    from .model import CocMelee, DamageRoll

    dmg = re.sub(r"\s+", "", str(text or "")).lower().replace("½", "1/2")
    dmg = re.sub(r"\+?halfdb$", "+1/2db", dmg)
    if melee:
        pattern = get_args(get_type_hints(CocMelee, include_extras=True)["damage"])[1].pattern
        return dmg if re.match(pattern, dmg) else None
    bare = re.sub(r"\+(1/2)?db$", "", dmg)
    return dmg if re.match(get_args(DamageRoll)[1].pattern, bare) else None
