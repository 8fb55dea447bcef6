"""Shared vocabulary: the presets and names every plugin maps its categories onto, so that
plugins written months apart agree on what "moonlight" or "jogging" is. Values are physical facts; see docs/neutral-model.md."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Literal

# Illuminance on the target, lux.
ILLUMINANCE: dict[str, float] = {
    "direct-sun": 100_000.0,
    "daylight": 10_000.0,
    "overcast-day": 1_000.0,
    "indoor": 300.0,
    "street-light": 10.0,
    "twilight": 3.0,
    "full-moon": 0.25,
    "quarter-moon": 0.01,
    "starlight": 0.001,
    "overcast-night": 0.0001,
    "darkness": 0.0,
}

# Gaits, metres per second.
GAIT: dict[str, float] = {"still": 0.0, "walk": 1.4, "jog": 2.7, "run": 5.0, "sprint": 7.0}

# Visible fraction of the target.
EXPOSURE: dict[str, float] = {
    "full": 1.0,
    "half": 0.5,
    "head-and-shoulders": 0.2,
    "head-only": 0.1,
    "barely": 0.05,
    "none": 0.0,
}

Posture = Literal["standing", "crouching", "kneeling", "sitting", "crawling", "prone"]
# Silhouette height of an adult in each posture, metres (ordered: lower is harder to hit).
POSTURE_HEIGHT: dict[str, float] = {
    "standing": 1.75,
    "crouching": 1.2,
    "kneeling": 1.15,
    "sitting": 1.0,
    "crawling": 0.6,
    "prone": 0.35,
}
POSTURES: tuple[str, ...] = tuple(POSTURE_HEIGHT)

WeaponClass = Literal["handgun", "revolver", "smg", "carbine", "rifle", "shotgun", "mg", "thrown"]
WEAPON_CLASSES: tuple[str, ...] = ("handgun", "revolver", "smg", "carbine", "rifle", "shotgun", "mg", "thrown")
# A weapon named only by its class, as people write it ("rifle", "a hunting rifle", "sawn-off
# shotgun"): the class word the name ends with (core.catalog.Catalog.identify_weapon). A name
# that is a catalog weapon is that weapon; one that ends in none of these words is unknown.
CLASS_WORDS: dict[str, str] = {
    "handgun": "handgun", "pistol": "handgun", "automatic pistol": "handgun", "revolver": "revolver",
    "smg": "smg", "submachine gun": "smg", "sub-machine gun": "smg", "machine pistol": "smg",
    "carbine": "carbine", "rifle": "rifle", "shotgun": "shotgun", "scattergun": "shotgun",
    # a sawn-off is a shotgun cut down, named for the cut alone ("Sawed-off: 4L, 20/40/80, clip 2")
    "sawed-off": "shotgun", "sawn-off": "shotgun", "sawed off": "shotgun", "sawn off": "shotgun",
    "mg": "mg", "machine gun": "mg", "machinegun": "mg", "light machine gun": "mg",
    "thrown": "thrown", "grenade": "thrown", "hand grenade": "thrown",
    # the names Spanish and Portuguese sheets give the common guns (a Foundry actor's 'Escopeta')
    "escopeta": "shotgun", "espingarda": "shotgun", "pistola": "handgun",
}
# A revolver says so in its name in any language a stat block is written in, wherever the word
# stands ("Revolver .38", "ニューナンブM60リボルバー", "左輪手槍"): a handgun whose name holds one of
# these is a revolver (Catalog.identify_weapon, Catalog.weapon_class_named). Words of a script
# without spaces are found inside the name; the others as whole words.
REVOLVER_WORDS: tuple[str, ...] = ("revolver", "rewolwer", "revólver", "リボルバー", "回転式拳銃", "左輪", "左轮")
# An automatic (self-loading) pistol says so in its name ("Automatic pistol (.38 Special)",
# "Webley .455 automatic pistol", "オートマチック", "自動拳銃"): a handgun whose name holds one of these
# and no revolver word is no revolver, whatever revolver cartridge it fires (Catalog.
# weapon_class_named, core.catalog.says_automatic). Words of a script without spaces are found
# inside the name; the others as whole words.
AUTOMATIC_WORDS: tuple[str, ...] = ("automatic", "auto", "semi-automatic", "semi-auto", "semiautomatic",
                                    "self-loading", "self-loader", "autoloading", "automatique", "automática",
                                    "automatica", "selbstlade", "selbstladepistole", "samopowtarzalny",
                                    "オートマチック", "オートマティック", "自動拳銃", "自动手枪", "自動手槍")
# Cartridges (CARTRIDGES keys) that handguns fire from a cylinder: a handgun of no catalog entry
# whose name or calibre states one ("Colt Police Positive (.38 Special)") is a revolver, in every
# system alike (Catalog.weapon_class_named); the nWoD chart, the coc7 table and GURPS each have a
# revolver line a Keeper expects for it (malfunction 100, not an automatic's 99).
REVOLVER_CARTRIDGES: tuple[str, ...] = (".38 Special", ".357 Magnum", ".44 Magnum", ".45 Colt", ".455 Webley")
# A bare calibre that names a cartridge only in a revolver's name: "a .45 revolver" (CoC's .45
# Revolver line, a Colt Single Action Army) fires the .45 Colt, while a bare ".45" elsewhere (a
# ".45 pistol" of the 1920s is an M1911's .45 ACP, a "Thompson .45" too) names no cartridge of its
# own: its catalog model, or the energy its line states, says what it fires.
REVOLVER_BARE_CALIBRES: dict[str, str] = {".45": ".45 Colt"}
# A grenade says so in its name ("Hand grenade", "Granat obronny F-1", "手榴弾"): a thrown weapon
# whose blast (an area effect) the neutral model has no field for yet, so it converts as a thrown
# weapon with its damage, and its blast is said not to cross (core.catalog.grenade_blast). Found inside
# the name (Polish and German inflect the word: "granatem", "Handgranate").
GRENADE_WORDS: tuple[str, ...] = ("grenade", "granat", "granada", "手榴弾", "手榴彈", "手榴弹", "手雷", "グレネード")
# xsys.grenade (assumed): the one energy of a hand grenade that a sheet states only by its
# system's own grenade line (the CoC weapon table's 4D10 at the burst, in both editions), so a
# grenade is one weapon from every sheet: 1300 J, where a sheet that rates damage in points puts a
# hand grenade (the Polish F-1's 6, the 1100-1500 J row of its assumed points scale), and which
# GURPS writes 4d+1 and nWoD Damage 3. Without it such a grenade read as a thrown stone (50 J,
# GURPS 1d-1, nWoD Damage 0). A grenade whose sheet states its energy keeps it.
GRENADE_ENERGY_J = 1300.0
# Short arms take the standard shot at 10 m, long arms at 25 m.
SHORT_ARMS = frozenset({"handgun", "revolver", "thrown"})

# A shotgun this short overall is a sawn-off (barrels and stock cut down): the US National
# Firearms Act's line for a short-barrelled shotgun, 26 in (0.66 m) overall. Its shot spreads
# sooner, so it reaches less far; a system with a line of its own for it (nWoD's chart, GURPS's
# weapons.toml) writes that line. A shotgun of no stated length is one by its name.
SAWN_OFF_LENGTH_M = 0.66
_SAWN_OFF_WORDS = re.compile(r"\b(sawn|sawed)[- ]?off\b|\bobrzyn", re.IGNORECASE)


def is_sawn_off(weapon_class: str, length_m: float | None, name: str = "") -> bool:
    """Whether a shotgun is a sawn-off: shorter than :data:`SAWN_OFF_LENGTH_M`, or (no length
    stated) named so."""
    if weapon_class != "shotgun":
        return False
    if length_m is not None:
        return length_m < SAWN_OFF_LENGTH_M
    return bool(_SAWN_OFF_WORDS.search(name))

# "none": a thrown weapon (a grenade, a knife) is aimed by eye, with no sights at all
Sight = Literal["iron", "tritium", "laser", "red-dot", "reflex", "scope", "nv-sight", "thermal", "none"]
VisionAid = Literal["weapon-light", "hand-light", "nv-goggles", "thermal-goggles"]
FireMode = Literal["single", "semi", "burst", "auto"]
Location = Literal[
    "head", "skull", "eye", "face", "jaw", "nose", "neck", "throat", "torso", "vitals", "groin",
    "arm", "arms", "hand", "hands", "weapon", "leg", "legs", "foot", "feet",
]
ArmorKind = Literal["soft-vest", "plate", "plate-carrier", "helmet", "garment", "natural", "other"]

# Neutral characteristics: each is a percentile among ordinary adults (0-1).
CHARACTERISTICS: dict[str, str] = {
    "strength": "muscle power",
    "constitution": "health, stamina, toughness",
    "size": "body mass and height",
    "dexterity": "agility, coordination, motor skill",
    "appearance": "looks and presence",
    "intelligence": "reasoning and memory",
    "perception": "wits, alertness and the senses",
    "will": "willpower, courage, composure",
    "education": "schooling and knowledge",
    "charisma": "persuasion and manipulation",
}

# Neutral skills: each is an equated competence (core.equating): for a firearm skill its true
# score over the weapon class's battery of reference shots, for the others the unmodified roll.
# A skill with a weapon class takes the standard shot with that class; the
# others take the unmodified roll.
SKILLS: dict[str, str | None] = {
    "handgun": "handgun",
    "rifle": "rifle",
    "shotgun": "shotgun",
    "smg": "smg",
    "machine_gun": "mg",
    "throw": "thrown",
    "dodge": None,
    "spot": None,
    "listen": None,
    "stealth": None,
    "conceal": None,
    "locksmith": None,
    "brawl": None,
    "melee": None,
    "athletics": None,
    "first_aid": None,
    "drive": None,
    "climb": None,
    "swim": None,
    "jump": None,
    "track": None,
    # what an NPC does with words and books: each system has its counterpart skill (CoC
    # Library Use / Psychology / Persuade / 7e Intimidate, GURPS Research / Psychology /
    # Diplomacy / Intimidation, nWoD Academics / Empathy / Persuasion / Intimidation)
    "research": None,
    "psychology": None,
    "persuade": None,
    "intimidate": None,
}


# A weapon class that is a kind of another (a revolver is a handgun): a system that reads a
# handgun back as the revolver it is (nWoD writes a .38 Special as its revolver line) has said
# more, not lost anything.
KIND_OF: dict[str, str] = {"revolver": "handgun"}


# What a neutral skill covers where a source's broad skill also holds others (nWoD Athletics is
# climb, jump, swim and throw as well): a loss names what did not cross, not the broad skill.
SKILL_MEANING: dict[str, str] = {"athletics": "running and general fitness; climbing, jumping, swimming and "
                                               "throwing are skills of their own"}


# Skills with no battery (no physical reference task every system states) are linked on the
# published competence scale (core.equating.standing_score): an untrained adult's standing in
# each, as a share of the skill chart. The chart is Call of Cthulhu's (the Keeper Rulebook's
# skill chart, which every system's published tiers are read on), so an untrained standing is
# the CoC 6th edition base chance of the skill (assumed: the CoC sheet is the one that states a
# base for all of them; athletics, running and general fitness, has no CoC skill: the median
# base, 25).
UNTRAINED: dict[str, float] = {
    "spot": 0.25, "listen": 0.25, "stealth": 0.10, "conceal": 0.15, "locksmith": 0.01, "first_aid": 0.30,
    "drive": 0.20, "climb": 0.40, "swim": 0.25, "jump": 0.25, "track": 0.10, "athletics": 0.25,
    "throw": 0.25,
    # Library Use 25, Psychology 5, Persuade 15 (6th edition); 6th edition has no Intimidate:
    # 7th edition's base, 15
    "research": 0.25, "psychology": 0.05, "persuade": 0.15, "intimidate": 0.15,
}


def firearm_skill_for(weapon_class: str) -> str:
    """The neutral skill that fires a weapon class."""
    return {
        "handgun": "handgun", "revolver": "handgun", "smg": "smg", "carbine": "rifle",
        "rifle": "rifle", "shotgun": "shotgun", "mg": "machine_gun", "thrown": "throw",
    }[weapon_class]


# Cartridges (one gun, one damage line). Game systems rate a firearm's damage by
# the cartridge it fires, not by its barrel: a Thompson and an M1911 both fire .45 ACP, so
# every system gives them one damage line. Each cartridge has a reference muzzle energy
# (joules; its service or factory load from the barrel the cartridge was made for, physical
# facts to about 10 %) that a plugin rates instead of a weapon's own muzzle energy, and the
# names it goes by. A calibre not listed here is rated by the weapon's own muzzle energy.
CARTRIDGES: dict[str, tuple[float, tuple[str, ...]]] = {
    ".22 LR": (140.0, (".22 long rifle", ".22 lr", "22 lr")),
    ".25 ACP": (90.0, (".25 acp", ".25 auto", ".25 automatic", "6.35x15mm browning", "6.35mm browning", "6.35mm")),
    # the derringer's rimfire (Remington Model 95), 130 gr at about 130 m/s; no bare ".41" (a .41 Magnum is not it)
    ".41 Short": (70.0, (".41 short (rimfire)", ".41 short", ".41 rimfire", ".41 rf")),
    ".32 ACP": (180.0, (".32 acp", "7.65x17mm browning", "7.65 mm browning", "7.65mm", ".32 auto", ".32 automatic")),
    ".380 ACP": (270.0, (".380 acp", ".380 auto", ".380 automatic", "9x17mm", "9mm kurz", "9mm short",
                         "9mm browning short")),
    # a bare ".38" is the .38 Special: the revolver cartridge that "a .38" means in the
    # 20th-century settings game tables write ("a .38 revolver", CoC's .38 Revolver line)
    ".38 Special": (270.0, (".38 special", ".38 spl", ".38")),
    # the automatic pistol's .38 (the Colt M1900's): "a .38 Automatic" is no revolver
    ".38 ACP": (430.0, (".38 acp", ".38 auto", ".38 automatic", ".38 colt automatic")),
    # its hotter loading for the same pistols (Colt Super .38, 1929)
    ".38 Super": (630.0, (".38 super", ".38 super auto", ".38 super automatic", "9x23mmsr")),
    ".357 Magnum": (800.0, (".357 magnum", ".357")),
    ".44 Magnum": (1320.0, (".44 magnum",)),
    # the revolver cartridge of 1873 (Colt Single Action Army), 250 gr at about 260 m/s
    ".45 Colt": (560.0, (".45 colt", ".45 long colt", ".45 lc", "45 colt", "45 long colt", "11.43x33mmr")),
    ".45 ACP": (480.0, (".45 acp", "45 acp", ".45 auto", ".45 automatic", ".45 colt automatic", "11.43x23mm")),
    ".455 Webley": (310.0, (".455 webley", ".455")),
    ".50 AE": (1900.0, (".50 action express", ".50 ae")),
    "8x22mm Nambu": (300.0, ("8x22mm nambu", "8x22mm", "8mm nambu", "8 mm nambu")),
    "9x18mm Makarov": (300.0, ("9x18mm makarov", "9x18mm", "9 mm makarov")),
    "9x19mm": (520.0, ("9x19mm parabellum", "9x19mm", "9mm parabellum", "9 mm parabellum", "9mm luger",
                       "9mm", "9 mm", "9mm nato")),
    "7.62x25mm Tokarev": (500.0, ("7.62x25mm tokarev", "7.62x25mm", "7.62 mm tokarev")),
    "7.63x25mm Mauser": (500.0, ("7.63x25mm mauser", "7.63x25mm", ".30 mauser", "7.63mm mauser", "7.63mm")),
    ".30 Carbine": (1300.0, (".30 carbine", "7.62x33mm")),
    "5.45x39mm": (1390.0, ("5.45x39mm",)),
    "5.56x45mm": (1750.0, ("5.56x45mm nato", "5.56x45mm", "5.56x45mm (m193)", "5.56 mm", "5.56mm", ".223 remington",
                           ".223")),
    "7.62x39mm": (2020.0, ("7.62x39mm", "7.62 mm m43")),
    ".30-30 Winchester": (2390.0, (".30-30 winchester", ".30-30")),
    ".303 British": (3130.0, (".303 british", ".303")),
    "7.62x51mm": (3400.0, ("7.62x51mm nato", "7.62x51mm", ".308 winchester", ".308 winchester (7.62x51mm)", ".308")),
    ".30-06 Springfield": (3500.0, (".30-06 springfield", ".30-06", "30.06", "30-06", "7.62x63mm")),
    "7.62x54mmR": (3600.0, ("7.62x54mmr", "7.62x54r", "7.62x54mm")),
    "7.92x57mm Mauser": (3700.0, ("7.92x57mm mauser", "7.92x57mm", "8mm mauser", "8x57mm")),
    ".50 BMG": (15500.0, (".50 bmg", ".50 bmg (12.7x99mm)", "12.7x99mm", ".50 browning")),
    "12 gauge": (2400.0, ("12 gauge", "12-gauge", "12 ga", "12ga", "12 bore", "12g")),
    # the other shotgun gauges of the game tables (CoC prints 10, 16 and 20 gauge lines): a
    # buckshot load's energy (20 gauge #3 buck, 16 gauge #1 buck, 10 gauge 00 buck, 3.5 in), so
    # a 20-gauge shotgun is no 12 gauge by default (the class's cartridge, model.generic_weapon)
    "20 gauge": (1700.0, ("20 gauge", "20-gauge", "20 ga", "20ga", "20 bore", "20g")),
    "16 gauge": (2100.0, ("16 gauge", "16-gauge", "16 ga", "16ga", "16 bore", "16g")),
    "10 gauge": (3500.0, ("10 gauge", "10-gauge", "10 ga", "10ga", "10 bore", "10g")),
}


def _calibre_words(text: str) -> str:
    return " ".join(text.strip().lower().replace("×", "x").split())


_CARTRIDGE_ALIASES: dict[str, str] = {_calibre_words(a): key for key, (_, names) in CARTRIDGES.items()
                                      for a in (key, *names)}


def cartridge_of(calibre: str) -> str | None:
    """The cartridge (a CARTRIDGES key) a calibre text names, or None: the text as written,
    then without, then inside, a parenthesis (".308 Winchester (7.62x51mm)")."""
    words = _calibre_words(calibre or "")
    if not words:
        return None
    tries = [words]
    if "(" in words:
        head, _, rest = words.partition("(")
        tries += [head.strip(), rest.rstrip(")").strip()]
    for t in tries:
        if t in _CARTRIDGE_ALIASES:
            return _CARTRIDGE_ALIASES[t]
    return None


def cartridge_energy(calibre: str) -> float | None:
    """The reference muzzle energy (J) of the cartridge a calibre names, or None."""
    key = cartridge_of(calibre)
    return None if key is None else CARTRIDGES[key][0]


def _cartridge_words(text: str) -> str:
    """Lower case, one space, x for ×, and "9 mm" as "9mm", for finding a cartridge in a name."""
    t = " ".join(text.lower().replace("×", "x").split())
    return re.sub(r"(\d) mm\b", r"\1mm", t)


@lru_cache(maxsize=1)
def _name_aliases() -> tuple[tuple[str, str], ...]:
    """(words, cartridge) for every name of every CARTRIDGES entry, longest first, so "9mm
    makarov" wins over "9mm" and ".357 magnum" over ".357"."""
    pairs = {(_cartridge_words(a), key) for key, (_, names) in CARTRIDGES.items() for a in (key, *names)}
    return tuple(sorted(pairs, key=lambda p: (-len(p[0]), p[0])))


def _standing_at(words: str, alias: str) -> int:
    """Where `alias` stands on its own in `words` (not inside a longer number or word), or -1."""
    at = words.find(alias)
    while at >= 0:
        before = words[at - 1] if at > 0 else " "
        after = words[at + len(alias)] if at + len(alias) < len(words) else " "
        if not (before.isalnum() or before == ".") and not (after.isalnum() or (after == "." and alias[-1].isdigit())):
            return at
        at = words.find(alias, at + 1)
    return -1


# Weapon names as Japanese sheets write them (CCFOLIA palettes, Japanese scenario books): a maker,
# a model or a kind in katakana, a calibre as "45口径". latin_name writes them in the Latin words
# the catalog and the cartridge names use, so that "コルト・ガバメント" is the Colt Government (the
# M1911A1) and "45口径オートマチック" the .45 ACP, as "Colt Government" and ".45 Automatic" are. The
# longest first ("ニューナンブ" before "ナンブ", "自動拳銃" before "拳銃").
KATAKANA_WEAPON_WORDS: dict[str, str] = {
    "コルト": "colt", "ガバメント": "government", "パイソン": "python", "ピースメーカー": "peacemaker",
    "シングルアクションアーミー": "single action army", "スミス&ウェッソン": "smith & wesson",
    "スミスアンドウェッソン": "smith & wesson", "グロック": "glock", "ベレッタ": "beretta", "ワルサー": "walther",
    "ルガー": "luger", "モーゼル": "mauser", "ブローニング": "browning", "ハイパワー": "hi-power",
    "トンプソン": "thompson", "トミーガン": "tommy gun", "ウージー": "uzi", "ウジ": "uzi", "レミントン": "remington",
    "ウィンチェスター": "winchester", "マカロフ": "makarov", "トカレフ": "tokarev", "ニューナンブ": "new nambu",
    "南部": "nambu", "ナンブ": "nambu", "デザートイーグル": "desert eagle", "デザート": "desert", "イーグル": "eagle",
    "カラシニコフ": "kalashnikov", "ガーランド": "garand", "スプリングフィールド": "springfield",
    "リー・エンフィールド": "lee-enfield", "リーエンフィールド": "lee-enfield", "エンフィールド": "enfield",
    "ステン": "sten", "ルイス": "lewis", "モシン・ナガン": "mosin-nagant", "モシンナガン": "mosin-nagant",
    "ヘッケラー&コッホ": "heckler & koch", "ステアー": "steyr", "バレット": "barrett", "マグナム": "magnum",
    "リボルバー": "revolver", "回転式拳銃": "revolver", "オートマチック": "automatic", "オートマティック": "automatic",
    "自動拳銃": "automatic pistol", "拳銃": "pistol", "ピストル": "pistol", "ライフル": "rifle", "小銃": "rifle",
    "カービン": "carbine", "ショットガン": "shotgun", "散弾銃": "shotgun", "二連式": "double-barrelled",
    "ソードオフ": "sawn-off", "ゲージ": "gauge", "サブマシンガン": "submachine gun", "短機関銃": "submachine gun",
    "機関短銃": "submachine gun", "マシンガン": "machine gun", "機関銃": "machine gun",
    "歩兵銃": "rifle", "騎兵銃": "carbine", "ボルトアクション": "bolt-action",
    "レバーアクション": "lever-action", "ポンプアクション": "pump-action", "セミオート": "semi-automatic",
    "デリンジャー": "derringer",
}
_KATAKANA_ORDER = tuple(sorted(KATAKANA_WEAPON_WORDS.items(), key=lambda kv: -len(kv[0])))
_CALIBRE_JA = re.compile(r"(\d{2,3})\s*口径")


@lru_cache(maxsize=4096)
def latin_name(name: str) -> str:
    """A weapon's name in the Latin words the catalog and the cartridge names use (full-width
    letters and digits as ASCII, KATAKANA_WEAPON_WORDS, "45口径" as ".45"); a name in Latin letters
    as it is."""
    if name.isascii():
        return name
    out = unicodedata.normalize("NFKC", name)
    if out.isascii():
        return out
    out = _CALIBRE_JA.sub(lambda m: f" .{m.group(1)} ", out)
    for ja, latin in _KATAKANA_ORDER:
        if ja in out:
            out = out.replace(ja, f" {latin} ")
    return " ".join(out.replace("・", " ").split())


@lru_cache(maxsize=4096)
def _cartridge_at(name: str) -> tuple[str, str, int, int] | None:
    """Where a weapon's name states a cartridge: (its CARTRIDGES key, the name as
    _cartridge_words writes it, where the cartridge's words start and end in it), or None. A
    cartridge name counts standing on its own (not inside a longer number or word), the longest
    first ("9mm makarov" before "9mm"); a bare calibre of REVOLVER_BARE_CALIBRES only in the name
    of a revolver (".45 Revolver": the .45 Colt)."""
    words = _cartridge_words(latin_name(name))
    for alias, key in _name_aliases():
        at = _standing_at(words, alias)
        if at >= 0:
            return key, words, at, at + len(alias)
    if holds_word(name, REVOLVER_WORDS):
        for bare, key in REVOLVER_BARE_CALIBRES.items():
            at = _standing_at(words, bare)
            if at >= 0:
                return key, words, at, at + len(bare)
    return None


def holds_word(name: str, words: tuple[str, ...]) -> bool:
    """Whether `name` holds one of `words`: a word of a script without spaces anywhere in it, any
    other as a whole word ("Revolver .38", "Nagant revolver", "ニューナンブM60リボルバー")."""
    low = name.lower()
    for word in words:
        if word.isascii() or word.isalpha() and all(ord(c) < 0x3000 for c in word):
            if re.search(rf"(?<![^\W\d_]){re.escape(word)}(?![^\W\d_])", low):
                return True
        elif word in low:
            return True
    return False


def without_cartridge(name: str) -> str | None:
    """`name` without the cartridge it states (:func:`cartridge_in_name`; lower case, as
    _cartridge_words writes it), or None where it states none: "Colt M1911A1 (.45 ACP)" ->
    "colt m1911a1 ()"."""
    found = _cartridge_at(name)
    return None if found is None else found[1][:found[2]] + found[1][found[3]:]


def cartridge_in_name(name: str) -> str | None:
    """The cartridge a weapon's name states, as a CARTRIDGES key, or None: a cartridge name standing
    on its own in the name (not inside a longer number or word): "Colt Police Positive (.38
    Special)" -> ".38 Special", "Walther PPK (7.65 mm)" -> ".32 ACP", ".38 Revolver" -> ".38
    Special"; "S&W M640" -> None."""
    found = _cartridge_at(name)
    return None if found is None else found[0]
