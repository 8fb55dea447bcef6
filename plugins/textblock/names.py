"""Skill and stat names as printed stat blocks write them, per system: the native name a
reader files them under. Keys are folded with :func:`fold` (NFKC, lower case, spaces
collapsed), so full-width Japanese digits and brackets read like ASCII ones."""

from __future__ import annotations

import re
import unicodedata


def fold(name: str) -> str:
    text = unicodedata.normalize("NFKC", name).lower().strip()
    text = re.sub(r"\s+", " ", text)
    return text.replace("( ", "(").replace(" )", ")")


# Call of Cthulhu (coc and coc-zh write the same names): English 5th/6th edition, 7th edition
# ("Firearms (Handgun)", "Fighting (Brawl)"), the Japanese and Chinese names scenarios print.
# A 7th-edition "Firearms (Rifle/Shotgun)" is one skill for both guns: it fills both.
_COC: dict[str, tuple[str, ...]] = {
    "Handgun": ("handgun", "handguns", "pistol", "firearms (handgun)", "firearms (handguns)", "拳銃", "手枪", "手槍",
                "射击(手枪)", "射擊(手槍)"),
    "Rifle": ("rifle", "firearms (rifle)", "ライフル", "步枪", "步槍", "firearms (rifle/shotgun)",
              "射击(步枪/霰弹枪)", "射擊(步槍/霰彈槍)", "步枪/霰弹枪", "步槍/霰彈槍"),
    "Shotgun": ("shotgun", "firearms (shotgun)", "ショットガン", "散弾銃", "霰弹枪", "霰彈槍", "firearms (rifle/shotgun)",
                "射击(步枪/霰弹枪)", "射擊(步槍/霰彈槍)", "步枪/霰弹枪", "步槍/霰彈槍"),
    "SMG": ("smg", "submachine gun", "sub-machine gun", "firearms (smg)", "firearms (submachine gun)",
            "サブマシンガン", "冲锋枪", "衝鋒槍", "射击(冲锋枪)", "射擊(衝鋒槍)"),
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
    "Fist/Punch": ("fist/punch", "fist", "punch", "brawl", "fighting (brawl)", "こぶし(パンチ)", "こぶし", "拳击",
                   "斗殴", "鬥毆", "格斗(斗殴)", "格鬥(鬥毆)", "格斗", "格鬥", "空手"),
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
}
# Japanese character-sheet names (the CCFOLIA reader's block): what the sites that export
# CCFOLIA characters print (iachara, Charaeno, character-sheet storage sites), 6th edition
# (キック, 組み付き, 頭突き, マーシャルアーツ) and 7th edition (近接戦闘（格闘）, 射撃（拳銃）,
# 射撃（ライフル／ショットガン） and its abbreviations, 隠密 for both Hide and Sneak). Keys are folded
# like every alias (full-width brackets and slashes read as ASCII ones). Kick, Grapple, Head Butt and
# Martial Arts are the 6th-edition sheet's own skills: coc keeps them by those names.
_COC_JA_SHEETS: dict[str, tuple[str, ...]] = {
    "Fist/Punch": ("近接戦闘(格闘)", "近接戦闘:格闘", "近接戦闘", "格闘", "こぶし/パンチ", "こぶし:パンチ", "パンチ"),
    "Kick": ("kick", "キック"),
    "Grapple": ("grapple", "組み付き", "組みつき"),
    "Head Butt": ("head butt", "headbutt", "頭突き"),
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
    _COC[_native] = _COC.get(_native, ()) + tuple(a for a in _aliases if a not in _COC.get(_native, ()))

COC_SKILLS: dict[str, tuple[str, ...]] = {}
for _native, _aliases in _COC.items():
    for _a in _aliases:
        COC_SKILLS.setdefault(fold(_a), ())
        COC_SKILLS[fold(_a)] += (_native,)

_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def japanese_name(native: str) -> str | None:
    """The name Japanese CoC 6e sheets print for a coc skill (the first CJK alias above: the
    Japanese names are listed before the Chinese ones), or None."""
    return next((a for a in _COC.get(native, ()) if _CJK.search(a)), None)


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


def skill_aliases(system: str) -> dict[str, list[str]]:
    """The other names a printed block may give each native skill of `system` (7th-edition,
    Japanese and Chinese names for coc and coc-zh): native skill -> aliases as printed."""
    if system not in ("coc", "coc-zh"):
        return {}
    return {native: [a for a in aliases if fold(a) != fold(native)] for native, aliases in _COC.items()}


COC_CHARACTERISTICS = ("STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU")
COC_DERIVED = ("HP", "MP", "SAN", "Luck", "DB", "Build", "MOV", "Move", "Idea", "Know", "Sanity", "Magic Points")

# The names CoC blocks print for the characteristics and derived values, by the key a coc
# document files them under. English blocks use the capital abbreviations (the long English
# words are left out: "Strength", "Dexterity" and "Intelligence" are nWoD attributes); Japanese
# blocks (6th edition: クトゥルフ神話TRPG, 7th: 新クトゥルフ神話TRPG) and Chinese blocks (7th edition,
# Simplified and Traditional) their own words. Read after NFKC, so ＳＴＲ is STR and ／ is /.
_COC_STATS_ANY: dict[str, tuple[str, ...]] = {
    "STR": ("STR",), "CON": ("CON",), "SIZ": ("SIZ",), "DEX": ("DEX", "敏捷"), "APP": ("APP",),
    "INT": ("INT",), "POW": ("POW",), "EDU": ("EDU", "教育"),
    "HP": ("HP", "Hit Points", "Hit Point"), "MP": ("MP", "Magic Points", "Magic Point"),
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
    "POW": ("意志",), "HP": ("生命值", "生命"), "MP": ("魔法值", "魔法"), "SAN": ("理智", "理智值"),
    "Luck": ("幸運", "幸运"), "DB": ("傷害加值", "伤害加值"), "Build": ("體格", "体格"),
    "MOV": ("移動力", "移动力", "移動", "移动"), "Idea": ("靈感", "灵感"), "Know": ("知識", "知识"),
}


def coc_stat_names(lang: str) -> dict[str, str]:
    """Printed name (as written) -> the coc key, for a block in `lang` ("en", "ja" or "zh"):
    Japanese 体格 is SIZ where Chinese 体格 is Build, so the language decides."""
    out: dict[str, str] = {}
    for table in (_COC_STATS_ANY, {"ja": _COC_STATS_JA, "zh": _COC_STATS_ZH}.get(lang, {})):
        for key, names in table.items():
            for name in names:
                out[name] = key
    return out


# Every name any block gives a characteristic (which system a block is for is told before its
# language is): characteristic -> names.
COC_CHARACTERISTIC_NAMES: dict[str, tuple[str, ...]] = {
    k: _COC_STATS_ANY[k] + _COC_STATS_JA.get(k, ()) + _COC_STATS_ZH.get(k, ()) for k in COC_CHARACTERISTICS}

# Which edition a CoC block is (see reader.coc_edition): words only one edition's blocks use.
# 7th: the Fighting/Firearms skill families, Stealth, Charm, Intimidate and their Japanese and
# Chinese names; 6th (and 5th): the separate unarmed attacks, Sneak/Hide/Conceal, and the Idea,
# Know rolls (7e dropped them).
COC7_SKILL_WORDS = ("fighting (", "firearms (", "stealth", "charm", "intimidate", "language (own)", "近接戦闘",
                    "射撃(", "隠密", "魅惑", "威圧", "格斗", "格鬥", "斗殴", "鬥毆", "射击(", "射擊(", "潜行", "潛行")
COC6_SKILL_WORDS = ("fist/punch", "fist", "kick", "grapple", "head butt", "sneak", "hide", "conceal", "martial arts",
                    "こぶし", "キック", "組み付き", "頭突き", "マーシャルアーツ", "忍び歩き", "隠れる", "隠す")

GURPS_ATTRIBUTES = ("ST", "DX", "IQ", "HT")
GURPS_DERIVED = ("HP", "Will", "Per", "Move", "Dodge")
GURPS_IGNORED = ("FP", "Speed", "Basic Speed", "Basic Move", "Parry", "Block", "SM", "DR", "PD", "Size")

NWOD_ATTRIBUTES = ("Intelligence", "Wits", "Resolve", "Strength", "Dexterity", "Stamina", "Presence",
                   "Manipulation", "Composure")
NWOD_DERIVED = ("Size", "Health", "Willpower", "Defense", "Speed", "Initiative")
NWOD_IGNORED = ("Morality", "Virtue", "Vice", "Armor")

PL_TRAITS = ("Motoryka", "Percepcja", "Atletyka", "Odwaga")
PL_SKILLS = ("Broń krótka", "Broń długa", "Rzucanie", "Czujność")

# Section headings: what the rest of the line (and the lines after it, up to the next
# heading) holds.
HEADINGS: dict[str, str] = {
    **{fold(h): "skills" for h in ("skills", "skill", "技能", "umiejętności", "umiejetnosci")},
    # CoC blocks: languages are skills ("Languages: English 80%"); the Chinese 7e "skill list",
    # "combat list", "spells" headings (技能列表, 戰鬥列表, 咒文), the Japanese 攻撃 (attacks)
    **{fold(h): "skills" for h in ("languages", "language", "言語", "語言", "语言", "技能列表", "技能值", "技能値")},
    **{fold(h): "weapons" for h in ("戰鬥", "戰鬥列表", "战斗列表", "戰鬥技能", "攻撃", "攻撃手段", "weapons & attacks")},
    **{fold(h): "spells" for h in ("咒文", "咒文列表", "法術")},
    **{fold(h): "attributes" for h in ("attributes", "characteristics", "能力値", "属性", "cechy")},
    **{fold(h): "weapons" for h in ("weapons", "weapon", "combat", "attacks", "attack", "武器", "戦闘", "战斗",
                                    "broń", "bron")},
    **{fold(h): "armor" for h in ("armor", "armour", "防具", "护甲", "装甲", "pancerz")},
    **{fold(h): "notes" for h in ("notes", "note", "description", "備考", "メモ", "说明", "备注", "opis")},
    **{fold(h): "advantages" for h in ("advantages",)},
    **{fold(h): "disadvantages" for h in ("disadvantages",)},
    **{fold(h): "merits" for h in ("merits",)},
    **{fold(h): "derived" for h in ("derived", "derived traits")},
    **{fold(h): "zalety" for h in ("zalety",)},
    **{fold(h): "spells" for h in ("spells", "spell", "呪文", "法术", "咒语")},
    **{fold(h): "melee" for h in ("melee", "close combat", "近接戦闘", "格闘", "近战")},
}

# Headings only GURPS and nWoD blocks print (read by those readers alone, so a CoC block's
# "Gear:" line stays what it always was): the fan-site "Gear:" line that holds the weapons
# with their Basic Set stats, 3e "Maneuvers:" (skill-like, Kicking-13), "Quirks:" (-1 point
# disadvantages); the World of Darkness Rulebook's "Weapons/Attacks:" table, Virtue and Vice
# lines, and the powers of supernatural templates, which an nwod document has no place for.
GURPS_HEADINGS: dict[str, str] = {
    **{fold(h): "gear" for h in ("gear", "equipment", "possessions", "weapons and gear", "weapons & gear")},
    **{fold(h): "maneuvers" for h in ("maneuvers", "techniques", "maneuvers/techniques")},
    **{fold(h): "disadvantages" for h in ("quirks",)},
    **{fold(h): "traits" for h in ("traits",)},  # 4th-edition books: 'Traits: Combat Reflexes; Bad Temper
    **{fold(h): "weapons" for h in ("weapons/attacks", "weapon", "attacks")},
    **{fold(h): "melee" for h in ("melee", "melee attacks")},
}
NWOD_HEADINGS: dict[str, str] = {
    **{fold(h): "weapons" for h in ("weapons/attacks", "weapons / attacks", "attacks", "combat")},
    **{fold(h): "equipment" for h in ("equipment", "gear", "possessions")},
    "virtue": "virtue", "vice": "vice",
    **{fold(h): "powers" for h in ("disciplines", "discipline", "powers", "dread powers", "numina", "influences",
                                   "arcana", "rotes", "gifts", "rites", "devotions", "contracts", "manifestations",
                                   "banes", "bans", "aspirations", "conditions")},
}
# GURPS 3rd-edition attribute costs (Basic Set: the same table for ST, DX, IQ and HT) and the
# 4th edition's per-level prices (ST and HT 10, DX and IQ 20 a level): a bracketed cost after
# an attribute says which edition priced it.
GURPS3_ATTRIBUTE_COST = {1: -80, 2: -70, 3: -60, 4: -50, 5: -40, 6: -30, 7: -20, 8: -15, 9: -10, 10: 0, 11: 10, 12: 20, 13: 30,
                         14: 45, 15: 60, 16: 80, 17: 100, 18: 125, 19: 150, 20: 175}
GURPS4_ATTRIBUTE_STEP = {"ST": 10, "DX": 20, "IQ": 20, "HT": 10}
