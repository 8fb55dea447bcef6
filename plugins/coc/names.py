"""The names Call of Cthulhu sheets give what coc holds: its skills as English 5th/6th- and
7th-edition, Japanese and Chinese sheets print them (:data:`COC_SKILLS`, :func:`coc_skill`,
:func:`weapon_skill`), its characteristics, the damage a weapon line holds (:func:`coc_damage`)
and Chaosium's conversion between the editions' characteristic scales (:func:`seventh_to_coc`).

Shared by every reader of Call of Cthulhu material: the stat-block layout (the ``coc_block``
format plugin) and the Foundry CoC7, CCFOLIA and Dhole's House formats, which each name coc as
their system.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

from xsys.core.textblock import fold, weapon_class_by_name


# Call of Cthulhu (coc and coc-zh write the same names): English 5th/6th edition, 7th edition
# ("Firearms (Handgun)", "Fighting (Brawl)"), the Japanese and Chinese names scenarios print.
# A 7th-edition "Firearms (Rifle/Shotgun)" is one skill for both guns: it fills both.
PRINTED_NAMES: dict[str, tuple[str, ...]] = {
    "Handgun": ("handgun", "handguns", "pistol", "firearms (handgun)", "firearms (handguns)", "firearms (pistol)",
                "firearms (pistols)", "拳銃", "手枪", "手槍",
                "射击(手枪)", "射擊(手槍)", "射击手枪", "射擊手槍"),  # (the dice bots' run-on names too)
    "Rifle": ("rifle", "firearms (rifle)", "ライフル", "步枪", "步槍", "firearms (rifle/shotgun)",
              "射击(步枪/霰弹枪)", "射擊(步槍/霰彈槍)", "步枪/霰弹枪", "步槍/霰彈槍", "射击步霰", "射击步枪", "步霰"),
    "Shotgun": ("shotgun", "firearms (shotgun)", "ショットガン", "散弾銃", "霰弹枪", "霰彈槍", "firearms (rifle/shotgun)",
                "射击(步枪/霰弹枪)", "射擊(步槍/霰彈槍)", "步枪/霰弹枪", "步槍/霰彈槍", "射击步霰", "射击霰弹枪", "步霰"),
    "SMG": ("smg", "submachine gun", "sub-machine gun", "firearms (smg)", "firearms (submachine gun)",
            "サブマシンガン", "冲锋枪", "衝鋒槍", "射击(冲锋枪)", "射擊(衝鋒槍)", "射击冲锋枪"),
    "Machine Gun": ("machine gun", "firearms (mg)", "firearms (machine gun)", "マシンガン", "機関銃",
                    "机枪", "機槍", "射击(机枪)", "射擊(機槍)"),
    "Throw": ("throw", "throwing", "fighting (throw)", "投擲", "投掷"),
    "Dodge": ("dodge", "回避", "闪避", "閃避"),
    "Spot Hidden": ("spot hidden", "目星", "侦查", "侦察", "偵查", "偵察"),
    "Conceal": ("conceal", "隠す", "隐藏"),
    "Hide": ("hide", "隠れる", "躲藏"),
    "Locksmith": ("locksmith", "鍵開け", "锁匠", "开锁", "鎖匠", "開鎖"),
    "Climb": ("climb", "登攀", "攀爬"),
    "Jump": ("jump", "跳躍", "跳跃"),
    "Swim": ("swim", "水泳", "游泳"),
    "First Aid": ("first aid", "応急手当", "急救"),
    "Drive Auto": ("drive auto", "drive", "drive (auto)", "運転(自動車)", "運転", "汽车驾驶", "驾驶", "汽車駕駛", "駕駛"),
    # the unarmed attack: 6e Fist/Punch, 7e Fighting (Brawl); Japanese 6e こぶし (7e 近接戦闘(格闘) and 格闘:
    # the sheet names below); Chinese 7e 格斗(斗殴) / 格鬥(鬥毆) and the attack line's 斗殴 / 鬥毆 / 空手 ("bare-handed")
    "Fist/Punch": ("fist/punch", "fist/brawl", "fist", "punch", "brawl", "fighting (brawl)", "unarmed", "こぶし(パンチ)",
                   "こぶし", "拳击",
                   "斗殴", "鬥毆", "格斗(斗殴)", "格鬥(鬥毆)", "格斗", "格鬥", "空手",
                   "拳擊", "拳擊/廝打", "廝打", "厮打"),  # the Chinese rules' own words (coc-zh glossary)
    # close-combat weapon skills (6e names; 7e's Fighting specialities; the Japanese and Chinese
    # names): each holds the neutral melee
    "Knife": ("knife", "ナイフ", "匕首", "小刀"),
    "Club": ("club", "こん棒", "棍棒", "警棍"),
    "Sword": ("sword", "fighting (sword)", "剣", "刀剑", "刀劍"),
    "Axe": ("axe", "fighting (axe)", "斧"),
    "Spear": ("spear", "fighting (spear)", "槍", "矛"),
    "Track": ("track", "追跡", "追踪", "追蹤"),
    "Listen": ("listen", "聞き耳", "聆听", "聆聽"),
    "Sneak": ("sneak", "忍び歩き", "潜行", "潛行"),
    # the skills with a counterpart in other systems (the neutral research, psychology, persuade,
    # intimidate): a Japanese sheet's 図書館 and 心理学 were kept verbatim as unknown skills
    "Library Use": ("library use", "図書館", "図書館使用", "图书馆使用", "圖書館使用", "图书馆", "圖書館"),
    "Psychology": ("psychology", "心理学", "心理學"),
    "Persuade": ("persuade", "説得", "说服", "說服"),
    "Intimidate": ("intimidate", "威圧", "恐吓", "恐嚇"),
    # the skills no other system states (carried as they are): under their English names, as the
    # Japanese (6th and 7th edition) and Chinese (7th edition) rulebooks print them, so that a
    # Japanese or Chinese sheet's skill list is one list in one language; the 6th-edition names,
    # which 7th edition renames (coc7.conversion.6e: SEVENTH_RENAMES), where both have the skill
    "Accounting": ("accounting", "経理", "会计", "會計"),
    "Anthropology": ("anthropology", "人類学", "人类学", "人類學"),
    "Appraise": ("appraise", "鑑定", "估价", "估價"),
    "Archaeology": ("archaeology", "考古学", "考古學"),
    "Art": ("art", "芸術"),
    "Astronomy": ("astronomy", "天文学", "天文學"),
    "Bargain": ("bargain", "値切り"),
    "Biology": ("biology", "生物学", "生物學"),
    "Charm": ("charm", "魅惑", "魅力", "取悦", "取悅"),
    "Animal Handling": ("animal handling", "動物使い", "动物驯养", "動物馴養"),  # a 7th-edition skill
    "Chemistry": ("chemistry", "化学", "化學"),
    "Computer Use": ("computer use", "コンピューター", "コンピュータ", "计算机使用", "計算機使用", "電腦使用", "计算机", "電腦"),
    "Craft": ("craft", "製作"),
    "Credit Rating": ("credit rating", "信用", "信用评级", "信用評級"),
    "Cthulhu Mythos": ("cthulhu mythos", "クトゥルフ神話", "克苏鲁神话", "克蘇魯神話", "cm"),  # cm: the dice bots' alias
    "Disguise": ("disguise", "変装", "乔装", "喬裝"),
    # (the official 7th-edition sheet prints three abbreviated: Elec. Repair, Mech. Repair, Op. Hv. Machine)
    "Electrical Repair": ("electrical repair", "elec. repair", "電気修理", "电气维修", "電氣維修", "电器维修", "電器維修"),
    "Electronics": ("electronics", "電子工学", "电子学", "電子學"),
    "Fast Talk": ("fast talk", "言いくるめ", "话术", "話術"),
    "Geology": ("geology", "地質学", "地质学", "地質學"),
    "History": ("history", "歴史", "历史", "歷史"),
    "Law": ("law", "法律"),
    "Mechanical Repair": ("mechanical repair", "mech. repair", "機械修理", "机械维修", "機械維修"),
    "Medicine": ("medicine", "医学", "醫學"),
    "Natural History": ("natural history", "natural world", "博物学", "自然", "博物學"),
    "Navigate": ("navigate", "ナビゲート", "导航", "導航"),
    "Occult": ("occult", "オカルト", "神秘学", "神秘學"),
    "Operate Heavy Machinery": ("operate heavy machinery", "operate heavy machine", "op. hv. machine", "重機械操作", "操作重型机械",
                                "操作重型機械"),
    "Own Language": ("own language", "language (own)", "母国語", "母语", "母語"),
    "Other Language": ("other language", "language (other)", "他の言語", "外语", "外語"),
    "Pharmacy": ("pharmacy", "薬学", "药学", "藥學"),
    "Photography": ("photography", "写真術", "摄影", "攝影"),
    "Physics": ("physics", "物理学", "物理學"),
    "Pilot": ("pilot", "操縦"),
    "Psychoanalysis": ("psychoanalysis", "精神分析"),
    "Ride": ("ride", "乗馬", "骑术", "騎術"),
    "Science": ("science", "科学", "科學"),
    "Sleight of Hand": ("sleight of hand", "手さばき", "妙手"),
    "Survival": ("survival", "サバイバル", "生存"),
}


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
    from xsys.core.cache import package_toml

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


# Skills printed with a speciality ("芸術(観劇)", "言語(英語)"): the skill's English name with the
# speciality as printed ("Art (観劇)"), the one part of the name no table translates
SPECIALISED: dict[str, str] = {
    "芸術": "Art", "製作": "Craft", "芸術/製作": "Art/Craft", "技艺": "Art/Craft", "技藝": "Art/Craft",
    "言語": "Other Language", "他の言語": "Other Language", "ほかの言語": "Other Language", "外语": "Other Language",
    "外語": "Other Language",
    "母国語": "Own Language", "母语": "Own Language", "母語": "Own Language", "操縦": "Pilot", "運転": "Drive",
    "科学": "Science", "科學": "Science", "サバイバル": "Survival", "生存": "Survival",
    # the Chinese 7th edition's: 艺术/手艺（表演）, 估价（书籍）, 驾驶（船只） (驾驶 alone is the car's: Drive Auto)
    "艺术": "Art", "藝術": "Art", "手艺": "Craft", "手藝": "Craft", "艺术/手艺": "Art/Craft", "藝術/手藝": "Art/Craft",
    "估价": "Appraise", "估價": "Appraise", "语言": "Other Language", "語言": "Other Language",
    "驾驶": "Pilot", "駕駛": "Pilot",
}
_OWN = {"母语", "母語", "母国語"}  # 英语（母语）: the language the speciality says is one's own


# Japanese character-sheet names (the CCFOLIA reader's block): what the sites that export
# CCFOLIA characters print (iachara, Charaeno, character-sheet storage sites), 6th edition
# (キック, 組み付き, 頭突き, マーシャルアーツ) and 7th edition (近接戦闘（格闘）, 射撃（拳銃）,
# 射撃（ライフル／ショットガン） and its abbreviations, 隠密 for both Hide and Sneak). Keys are folded
# like every alias (full-width brackets and slashes read as ASCII ones). Kick, Grapple, Head Butt and
# Martial Arts are the 6th-edition sheet's own skills: coc keeps them by those names.
_COC_JA_SHEETS: dict[str, tuple[str, ...]] = {
    # (近接格闘 (近接戦闘) and 近接格闘 (格闘): the brawl of the Japanese CoC7 Foundry module's creature and
    # NPC templates, its skill named 近接戦闘 or 格闘 under the speciality 近接格闘)
    "Fist/Punch": ("近接戦闘(格闘)", "近接戦闘:格闘", "近接戦闘", "格闘", "近接格闘(近接戦闘)", "近接格闘 (近接戦闘)", "近接格闘",
                   "近接格闘(格闘)", "近接格闘 (格闘)",
                   "こぶし/パンチ", "こぶし:パンチ", "パンチ"),
    "Kick": ("kick", "キック", "踢擊", "踢击"),  # Chinese: the coc-zh rules' attack skills (coc-zh glossary)
    "Grapple": ("grapple", "組み付き", "組みつき", "擒抱"),
    "Head Butt": ("head butt", "headbutt", "頭突き", "頭頂", "头顶"),
    "Martial Arts": ("martial arts", "マーシャルアーツ"),
    "Handgun": ("射撃(拳銃)", "射撃:拳銃", "射撃/拳銃", "射撃(ハンドガン)"),
    "Rifle": ("射撃(ライフル/ショットガン)", "射撃(ライフル/散弾銃)", "射撃(ライフル・ショットガン)", "射撃(r/sg)",
              "射撃(r / sg)", "射撃:ライフル/ショットガン", "射撃(ライフル)"),
    "Shotgun": ("射撃(ライフル/ショットガン)", "射撃(ライフル/散弾銃)", "射撃(ライフル・ショットガン)", "射撃(r/sg)",
                "射撃(r / sg)", "射撃:ライフル/ショットガン", "射撃(ショットガン)"),
    "SMG": ("射撃(サブマシンガン)", "射撃:サブマシンガン", "射撃(smg)"),
    "Machine Gun": ("射撃(マシンガン)", "射撃:マシンガン", "射撃(機関銃)"),
    "Knife": ("近接戦闘(ナイフ)",),
    "Sword": ("近接戦闘(刀剣)", "近接戦闘:刀剣", "近接戦闘(剣)"),
    "Axe": ("近接戦闘(斧)", "近接戦闘:斧"),
    "Spear": ("近接戦闘(槍)", "近接戦闘:槍"),
    "Hide": ("隠密",),
    "Sneak": ("隠密",),
    "Drive Auto": ("運転:自動車", "運転(車)"),
}


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
