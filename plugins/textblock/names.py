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
    "Handgun": ("handgun", "handguns", "pistol", "firearms (handgun)", "firearms (handguns)", "拳銃", "手枪"),
    "Rifle": ("rifle", "firearms (rifle)", "ライフル", "步枪", "firearms (rifle/shotgun)"),
    "Shotgun": ("shotgun", "firearms (shotgun)", "ショットガン", "散弾銃", "霰弹枪", "firearms (rifle/shotgun)"),
    "SMG": ("smg", "submachine gun", "sub-machine gun", "firearms (smg)", "firearms (submachine gun)",
            "サブマシンガン", "冲锋枪"),
    "Machine Gun": ("machine gun", "firearms (mg)", "firearms (machine gun)", "マシンガン", "機関銃", "机枪"),
    "Throw": ("throw", "throwing", "fighting (throw)", "投擲", "投掷"),
    "Dodge": ("dodge", "回避", "闪避"),
    "Spot Hidden": ("spot hidden", "目星", "侦查", "侦察"),
    "Conceal": ("conceal", "隠す", "隐藏"),
    "Hide": ("hide", "隠れる", "躲藏"),
    "Locksmith": ("locksmith", "鍵開け", "锁匠", "开锁"),
    "Climb": ("climb", "登攀", "攀爬"),
    "Jump": ("jump", "跳躍", "跳跃"),
    "Swim": ("swim", "水泳", "游泳"),
    "First Aid": ("first aid", "応急手当", "急救"),
    "Drive Auto": ("drive auto", "drive", "drive (auto)", "運転(自動車)", "運転", "汽车驾驶", "驾驶"),
    "Fist/Punch": ("fist/punch", "fist", "punch", "brawl", "fighting (brawl)", "こぶし(パンチ)", "こぶし", "拳击", "斗殴"),
    # close-combat weapon skills (6e names; 7e's Fighting specialities; the Japanese and Chinese
    # names): each holds the neutral melee (issue 20)
    "Knife": ("knife", "ナイフ", "匕首", "小刀"),
    "Club": ("club", "こん棒", "棍棒", "警棍"),
    "Sword": ("sword", "fighting (sword)", "剣", "刀剑"),
    "Axe": ("axe", "fighting (axe)", "斧"),
    "Spear": ("spear", "fighting (spear)", "槍", "矛"),
    "Track": ("track", "追跡", "追踪"),
    "Listen": ("listen", "聞き耳", "聆听"),
    "Sneak": ("sneak", "忍び歩き", "潜行"),
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
