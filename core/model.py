"""The neutral model: the physical situation in SI magnitudes, competence as
probabilities. Frozen, keyword-only msgspec Structs that refuse unknown fields."""

from __future__ import annotations

import functools
import math
import re
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from .units import Duration, Energy, Illuminance, Length, Mass, SignedLength, Speed
from .vocab import (
    POSTURE_HEIGHT,
    SHORT_ARMS,
    ArmorKind,
    FireMode,
    Location,
    Posture,
    Sight,
    VisionAid,
    WeaponClass,
)

Probability = Annotated[float, Meta(ge=0.0, le=1.0, description="a probability, 0 to 1")]
Percentile = Annotated[float, Meta(ge=0.0, le=1.0, description="a percentile among ordinary adults, 0 to 1")]
Exposure = Annotated[float, Meta(ge=0.0, le=1.0, description="visible fraction of the target, 0 to 1")]
Count = Annotated[int, Meta(ge=0, le=100_000)]
Name = Annotated[str, Meta(max_length=200)]
Text = Annotated[str, Meta(max_length=20_000)]


class Base(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """Common settings of every neutral Struct."""


def field_error(field: str, message: str) -> ValueError:
    """An error raised in __post_init__ that names its field (codec adds it to the path)."""
    return ValueError(f"@{field}: {message}")


def _quantity_fields(obj: Any, *fields: str, non_negative: bool = True) -> None:
    """Hold each quantity field in its own type (a plugin may pass a bare float in the
    canonical unit), and refuse negative values where the field cannot be negative."""
    hints = _QUANTITY_HINTS.get(type(obj))
    if hints is None:
        hints = _QUANTITY_HINTS[type(obj)] = _quantity_hints(type(obj))
    for f in fields:
        v = getattr(obj, f)
        if v is None:
            continue
        qtype = hints.get(f)
        if qtype is not None and type(v) is not qtype:
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise field_error(f, f"expected {qtype.what}, found {v!r}")
            v = qtype(v)
            msgspec.structs.force_setattr(obj, f, v)
        if non_negative and not (v >= 0):
            raise field_error(f, f"must not be negative (found {v})")


_QUANTITY_HINTS: dict[type, dict[str, type]] = {}


def _quantity_hints(cls: type) -> dict[str, type]:
    from .units import QUANTITY_TYPES

    out = {}
    for f in msgspec.structs.fields(cls):
        t = f.type
        for arg in getattr(t, "__args__", None) or (t,):
            if isinstance(arg, type) and arg in QUANTITY_TYPES:
                out[f.name] = arg
    return out


def _non_negative(obj: Any, *fields: str) -> None:
    _quantity_fields(obj, *fields)


class Weapon(Base, kw_only=True):
    """A weapon by what it physically is."""

    name: Name
    weapon_class: WeaponClass
    catalog: str | None = None
    length: Length | None = None
    mass: Mass | None = None
    calibre: Name = ""
    muzzle_energy: Energy
    fire_modes: list[FireMode] = msgspec.field(default_factory=lambda: ["semi"])
    cyclic_rate: Annotated[float, Meta(ge=0, le=10_000, description="rounds per minute")] = 0.0
    capacity: Count = 0
    sights: Sight = "iron"
    note: Text = ""

    def __post_init__(self) -> None:
        _non_negative(self, "length", "mass", "muzzle_energy")

    @property
    def short_arm(self) -> bool:
        return self.weapon_class in SHORT_ARMS


class Armor(Base, kw_only=True):
    """Armor by what it physically is, and what it covers."""

    name: Name
    kind: ArmorKind = "other"
    catalog: str | None = None
    nij_level: Annotated[str, Meta(pattern=r"^(I|IIA|II|IIIA|III|IV)$")] | None = None
    material: Name = ""
    thickness: Length | None = None
    mass: Mass | None = None
    covers: list[Location] = msgspec.field(default_factory=lambda: ["torso"])
    stops: Energy
    # where a part of it stops less than `stops` (a full kit's helmet, its limb shells): covered
    # location -> what it stops there; every other covered location takes `stops`
    stops_at: dict[Location, Energy] = msgspec.field(default_factory=dict)
    # How readily a blow glances off the armour instead of biting in: hard, smooth or sloped
    # surfaces turn blows aside (metal, plastic, hardened leather), soft ones do not. A
    # physical property apart from what the armour stops, on the one scale a game states for
    # it, GURPS 3rd edition's passive defense (PD): 0 (cloth, hide) to about 4 (plate); it adds
    # to a defence roll and is a defence of its own when no active one is possible. None: not
    # stated (a system that rates it takes its catalog item's, else assumes one by kind).
    deflection: Annotated[int, Meta(ge=0, le=10, description="passive deflection, 0-10 (GURPS 3e PD)")] | None = None
    note: Text = ""

    def __post_init__(self) -> None:
        _non_negative(self, "thickness", "mass", "stops")
        for where, e in self.stops_at.items():
            if float(e) < 0 or float(e) > float(self.stops):
                raise field_error(f"stops_at.{where}", f"expected 0 J to `stops` ({float(self.stops):g} J, "
                                  f"the armor's best), found {float(e):g} J")

    def stops_on(self, location: str) -> Energy:
        """What it stops at one covered location."""
        return self.stops_at.get(location, self.stops)  # type: ignore[call-overload]


class Barrier(Base, kw_only=True):
    """Something solid between shooter and target: a material and its thickness."""

    material: Name
    thickness: Length
    name: Name = ""

    def __post_init__(self) -> None:
        _non_negative(self, "thickness")


class Light(Base, kw_only=True):
    """Light on the target and the aids that help see it."""

    illuminance: Illuminance = Illuminance(10_000.0)
    aids: list[VisionAid] = msgspec.field(default_factory=list)

    def __post_init__(self) -> None:
        _non_negative(self, "illuminance")


class Cover(Base, kw_only=True):
    """How much of someone shows, and what (if anything) stands in front of the rest."""

    exposure: Exposure = 1.0
    barrier: Barrier | None = None


MeleeClass = Literal["unarmed", "knife", "club", "sword", "axe", "spear", "improvised"]
MeleeSkill = Literal["brawl", "melee"]


def melee_class_words(cls: str) -> str:
    """A close-combat class as a report says it: "a knife", "an axe", "an unarmed attack", "an
    improvised weapon"."""
    noun = {"unarmed": "unarmed attack", "improvised": "improvised weapon", "natural": "natural attack"}.get(cls, cls)
    return ("an " if noun[:1] in "aeiou" else "a ") + noun

# a creature's natural weapons; and "Fighting" alone, the attack a 7th-edition monster's block
# prints (not "Fighting (Whip)", a weapon's skill)
_NATURAL_WORDS = ("bite", "claw", "talon", "tentacle", "tendril", "pseudopod", "teeth", "jaws", "fang", "gore", "horn",
                  "hoof", "hooves", "sting", "pincer", "beak", "trample", "tongue", "proboscis", "tail", "tusk",
                  "antler", "mandible", "nipper", "feeler", "constrict", "crush", "peck", "scratch", "gnaw", "噛みつき", "噛み付き",
                  "咬みつき", "かみつき", "爪", "触手", "咬", "噬", "抓", "觸手", "舌", "尾", "牙", "蹄", "嘴", "喙",
                  # as the Foundry CoC7 system's French, Portuguese, Spanish, German, Italian and Polish
                  # compendia and sheets name them
                  "morsure", "griffe", "tentacule", "crocs", "bec", "queue", "dard", "corne", "sabot", "serres",
                  "mordida", "mordedura", "mordisco", "garra", "tentáculo", "bico", "presas", "cauda", "ferrão",
                  "chifre", "pico", "colmillo", "cola", "aguijón", "cuerno", "biss", "klaue", "kralle", "tentakel",
                  "schnabel", "stachel", "morso", "artiglio", "artigli", "tentacolo", "becco", "zanne", "coda",
                  "pungiglione", "ugryzienie", "pazur", "szpony", "macka", "macki", "dziób", "kły", "ogon", "żądło")


def _fighting(low: str) -> bool:
    return low.strip() == "fighting"

# words that name a close-combat weapon's class, in the order they are tried (a knife's 短刀 before
# a sword's 刀); Japanese as sheets and the Japanese rulebook's weapon table write them: 素手 bare
# hands, メリケンサック brass knuckles, ドス and 包丁 blades, 鉈 a chopper, バット and 鉄パイプ a bat and a
# pipe, フェンシング・フォイル, レイピア and 仕込み杖 (a sword cane) swords
_MELEE_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("improvised", ("improvised", "makeshift")),
    # a polearm named with a sword's character (薙刀, the naginata: 刀 is "blade") is a spear
    # and a bayonet fixed on its rifle, thrust as a spear is (a GURPS block's "Bayonet (fixed): Spear skill")
    ("spear", ("naginata", "薙刀", "なぎなた", "ナギナタ", "fixed bayonet", "bayonet (fixed)")),
    ("unarmed", ("fist", "punch", "kick", "brawl", "grapple", "head butt", "headbutt", "unarmed", "knuckle",
                 "martial", "karate", "judo", "拳", "こぶし", "パンチ", "キック", "組み付き", "头槌", "拳击", "踢",
                 "素手", "メリケンサック", "ナックル",
                 "poing", "coup de pied", "bagarre", "corps à corps", "lutte", "soco", "punho", "chute", "briga",
                 "puño", "puñetazo", "patada", "pelea", "faust", "tritt", "handgemenge", "pugno", "calcio", "rissa",
                 "pięść", "kopnięcie", "bijatyka", "walka wręcz")),
    ("knife", ("knife", "knives", "dagger", "scalpel", "switchblade", "stiletto", "bayonet", "razor", "shiv", "ナイフ", "短剣", "匕首",
               "刀子", "短刀", "小刀", "ドス", "包丁", "ダガー", "銃剣",
               "couteau", "poignard", "dague", "faca", "punhal", "adaga", "cuchillo", "navaja", "daga", "puñal",
               "messer", "dolch", "coltello", "pugnale", "nóż", "noż", "sztylet")),
    ("axe", ("axe", "hatchet", "tomahawk", "斧", "鉈", "ナタ", "トマホーク",
             "hache", "machado", "hacha", "axt", "beil", "ascia", "topór", "siekiera")),
    ("sword", ("sword", "sabre", "saber", "machete", "katana", "cutlass", "rapier", "broadsword", "shortsword",
               "剣", "刀", "剑", "マチェット", "マチェーテ", "サーベル", "レイピア", "フォイル", "エペ", "仕込み杖",
               "épée", "espada", "schwert", "säbel", "spada", "miecz", "szabla")),
    ("spear", ("spear", "javelin", "pike", "lance", "polearm", "trident", "槍", "矛",
               "lança", "lanza", "speer", "lanze", "lancia", "włócznia")),
    ("club", ("club", "baton", "nightstick", "truncheon", "cosh", "blackjack", "sap", "bat", "mace", "hammer",
              "crowbar", "staff", "cudgel", "tonfa", "棍", "棒", "警棒", "こん棒", "バット", "パイプ", "トンファー",
              "ハンマー", "金槌", "バール", "ブラックジャック", "メイス",
              "matraque", "gourdin", "massue", "bâton", "clava", "porrete", "cassetete", "bastão", "taco", "garrote",
              "porra", "bate", "maza", "keule", "knüppel", "schlagstock", "mazza", "manganello", "pałka", "maczuga",
              "kij")),
    # a creature's natural attacks, tried last (a claw hammer is a club): fought bare-handed, with
    # the brawl skill (GURPS Brawling, nWoD Brawl, 7th edition's Fighting (Brawl); assumed, README)
    ("unarmed", _NATURAL_WORDS),
)


# words found only as whole words (a plural or an inflection after them allowed): "bat" is no club
# in "Engineer (Combat)" or "Acrobatics", "sting" no natural attack in "Resting", "bec" none in
# "Québec"; every other word is found inside a longer one too ("Battleaxe", "Greatsword", "Claws")
_WHOLE_WORDS = frozenset({
    "bat", "sap", "pike", "lance", "mace", "shiv", "sting", "horn", "gore", "tail", "peck", "fang", "tusk",
    "bec", "queue", "dard", "corne", "sabot", "serres", "crocs", "griffe", "bico", "presas", "cauda", "pico", "cola",
    "garra", "coda", "morso", "zanne", "ogon", "macka", "macki", "kły", "pazur", "biss", "lutte", "soco", "chute",
    "briga", "pelea", "calcio", "rissa", "daga", "dague", "adaga", "ascia", "lanza",
    "lança", "lanze", "lancia", "taco", "porra", "bate", "maza", "mazza", "kij", "clava", "faca", "punho"})
_LETTER = r"[^\W\d_]"


def _pattern(keys: tuple[str, ...]) -> re.Pattern[str]:
    parts = [rf"(?<!{_LETTER}){re.escape(k)}(?:e?s|e?d|er|ing|i|y|n)?(?!{_LETTER})" if k in _WHOLE_WORDS else re.escape(k)
             for k in keys]
    return re.compile("|".join(parts))


_MELEE_PATTERNS = tuple((cls, keys is _NATURAL_WORDS, _pattern(keys)) for cls, keys in _MELEE_WORDS)


@functools.lru_cache(maxsize=4096)  # (a name is asked again for every NPC of a roster and its read-back)
def natural_attack(*words: str) -> bool:
    """Whether the first of `words` that names a close-combat class names a creature's natural
    weapon (a Bite, Claws, a Tentacle: fought bare-handed, but no fist)."""
    for text in words:
        low = (text or "").lower()
        for _cls, natural, pattern in _MELEE_PATTERNS:
            if pattern.search(low):
                return natural
        if _fighting(low):
            return True
    return False


def melee_weapon(name: str, melee_class: MeleeClass, natural: bool = False, special: bool = False) -> "MeleeWeapon":
    """A close-combat weapon of its class, wielded with ``brawl`` bare-handed (a natural attack
    too: `natural`), else with ``melee``; `special`: the source states no damage for it."""
    return MeleeWeapon(name=name, melee_class=melee_class, skill="brawl" if melee_class == "unarmed" else "melee",
                       natural=natural and melee_class == "unarmed", special=special)


@functools.lru_cache(maxsize=4096)
def melee_class_of(*words: str) -> MeleeClass:
    """The class of a close-combat weapon from its name or its skill's name, tried in that order
    ("Switchblade", "Knife", "Nightstick", "Fighting (Brawl)"); 'improvised' when no word says."""
    for text in words:
        low = (text or "").lower()
        for cls, _natural, pattern in _MELEE_PATTERNS:
            if pattern.search(low):
                return cls  # type: ignore[return-value]
        if _fighting(low):
            return "unarmed"
    return "improvised"


class MeleeWeapon(Base, kw_only=True):
    """A close-combat weapon: what it is by its class (a knife, a club, fists),
    and the neutral skill it is wielded with (``brawl`` bare-handed, ``melee`` otherwise, whose
    level is the combatant's ``skills``). Each system writes its own line for the class; the
    source's exact line rides in the combatant's ``carried`` block."""

    name: Name
    melee_class: MeleeClass
    skill: MeleeSkill = "melee"
    note: Text = ""
    # a creature's natural weapon (a bite, claws): unarmed, but a system with a line of its own for
    # one writes that (its damage), else its fists' line
    natural: bool = False
    # the competence of the source's own skill for this weapon where it is not the NPC's ``skill``
    # competence (a viking's Spear 45 beside his Sword 85, which is his ``melee``): a target that
    # writes the line from its class writes the line's skill at this (core.melee.line_skill_levels)
    competence: Probability | None = None
    # an attack the source gives no damage of its own (a manoeuvre, a creature's spore kiss or
    # draining tongue, a bestiary's "damage special", "see full entry"): a target writes no line
    # of its class for it, whose damage the source never stated (core.carried.melee_lines)
    special: bool = False


class SheetSkill(Base, kw_only=True):
    """One skill as the source stat block states it, kept beside the neutral competences so a
    target can tell a skill the sheet STATED (a native skill covering one neutral skill: CoC
    Handgun, GURPS Stealth) from one it only IMPLIED through a broad skill (nWoD Firearms covers
    every gun: its rifle, shotgun ... are implied), and write the skills the sheet had
    (core.skillplan)."""

    system: Name  # the key of the system whose stat block states it
    level: int | float | str  # as that stat block writes it
    covers: list[str]  # the neutral skills the native skill covers (several: a broad skill)


class Combatant(Base, kw_only=True):
    """A person in the neutral model."""

    name: Name
    characteristics: dict[str, Percentile] = msgspec.field(default_factory=dict)
    skills: dict[str, Probability] = msgspec.field(default_factory=dict)
    weapons: list[Weapon] = msgspec.field(default_factory=list)
    melee: list[MeleeWeapon] = msgspec.field(default_factory=list)  # close-combat weapons
    # The weapon its best close-combat skill names (CoC Club 60, GURPS Broadsword-13: "club",
    # "sword"), so that a target writes the neutral melee under its own skill for that weapon
    # (GURPS Axe/Mace, CoC Sword) where no melee line names one. None: the source's skill names
    # no weapon (nWoD Weaponry) or it has none.
    melee_kind: MeleeClass | None = None
    armor: list[Armor] = msgspec.field(default_factory=list)
    # Physical toughness beyond the physique: the NPC's stated hit points (CoC HP, GURPS HP,
    # nWoD Health) as a multiple of what its system's own rule derives from its physique
    # (CoC (CON + SIZ) / 2, GURPS 3e HT, nWoD Stamina + Size). None: as the rule derives
    # (a target then derives its own from the characteristics that crossed).
    toughness: Annotated[float, Meta(gt=0.0, le=20.0, description="stated HP / derived HP")] | None = None
    # A characteristic stated beyond every ordinary adult (a creature's STR 700, a giant's ST 60), which
    # its percentile cannot say (it is the table's end): how many times the top of its source's
    # population table it is. A target writes its own table's top that many times (core.beyond,
    # core.sheet), as far as its sheet holds; a target's own tail (CoC's STR 19-99) is read first.
    beyond: dict[str, Annotated[float, Meta(gt=1.0, le=10_000.0)]] = msgspec.field(default_factory=dict)
    notes: Text = ""
    # The source stat block's skills by their native names (SheetSkill): which neutral skills
    # were stated and which only implied by a broad skill, and the names a target of the same
    # skill list writes (a CoC sheet with Hide and no Sneak does not gain a Sneak line).
    sheet_skills: dict[str, SheetSkill] = msgspec.field(default_factory=dict)
    # Native details no neutral field holds, kept verbatim per system key so that a round
    # trip through another system gives them back and nothing is dropped silently. A
    # plugin's own memory (exact levels, its weapon lines): never written into another
    # system's document, so it survives a round trip only through the remembered source.
    native: dict[str, dict[str, Any]] = msgspec.field(default_factory=dict)
    # System-only data (CoC Sanity, Luck, Magic Points, spells; GURPS advantages; nWoD
    # merits; skills no neutral key holds): what a system states that no other system can
    # express, verbatim, by namespace (the system family that states it: "coc" for coc and
    # coc-zh). Unlike `native`, it is written into every other system's document as its
    # `carried:` block (xsys.core.carried), so A -> B -> A keeps it with nothing remembered.
    carried: dict[str, dict[str, Any]] = msgspec.field(default_factory=dict)


class Shooter(Base, kw_only=True):
    name: Name = ""
    skill: Probability = 0.5
    characteristics: dict[str, Percentile] = msgspec.field(default_factory=dict)
    posture: Posture = "standing"
    speed: Speed = Speed(0.0)
    hands: Annotated[int, Meta(ge=1, le=2)] = 2
    off_hand: bool = False
    braced: bool = False
    aim_time: Duration = Duration(0.0)
    cover: Cover = msgspec.field(default_factory=Cover)

    def __post_init__(self) -> None:
        _non_negative(self, "speed", "aim_time")


class Target(Base, kw_only=True):
    name: Name = ""
    posture: Posture = "standing"
    speed: Speed = Speed(0.0)
    height: Length = Length(1.75)
    cover: Cover = msgspec.field(default_factory=Cover)
    armor: list[Armor] = msgspec.field(default_factory=list)

    def __post_init__(self) -> None:
        _non_negative(self, "speed", "height")

    @property
    def silhouette(self) -> float:
        """Visible height in metres for the posture (standing height scaled)."""
        return float(self.height) * POSTURE_HEIGHT[self.posture] / POSTURE_HEIGHT["standing"]


class Shot(Base, kw_only=True):
    """One shot: who fires what at whom, how far, in what light, through what cover."""

    name: Name = ""
    shooter: Shooter = msgspec.field(default_factory=Shooter)
    weapon: Weapon
    target: Target = msgspec.field(default_factory=Target)
    distance: Length
    # The shooter's height above the target (negative: the shooter is below it).
    elevation: SignedLength = SignedLength(0.0)
    light: Light = msgspec.field(default_factory=Light)
    called_location: Location | None = None
    burst: Annotated[int, Meta(ge=1, le=1000)] = 1
    underwater: bool = False

    def __post_init__(self) -> None:
        _non_negative(self, "distance")
        _quantity_fields(self, "elevation", non_negative=False)
        if not math.isfinite(self.elevation):
            raise field_error("elevation", "must be finite")


class Scene(Base, kw_only=True):
    name: Name = ""
    light: Light = msgspec.field(default_factory=Light)
    barriers: list[Barrier] = msgspec.field(default_factory=list)
    combatants: list[Combatant] = msgspec.field(default_factory=list)
    shots: list[Shot] = msgspec.field(default_factory=list)
    notes: Text = ""


class Scenario(Base, kw_only=True):
    name: Name
    scenes: list[Scene] = msgspec.field(default_factory=list)
    notes: Text = ""


# --- the standard task -------------------------------------------------

STANDARD_DISTANCE_SHORT = Length(10.0)
STANDARD_DISTANCE_LONG = Length(25.0)

# The generic weapon of each class (assumed). The shotgun is the common 12 gauge at its reference
# energy (vocab.CARTRIDGES), so that a shotgun no source names is the catalog's 12-gauge guns in
# every system (nWoD 4, Polish 8, GURPS 4d), not a heavier one of its own
_GENERIC_ENERGY = {
    "handgun": 500.0, "revolver": 500.0, "smg": 600.0, "carbine": 1800.0, "rifle": 3300.0,
    "shotgun": 2400.0, "mg": 3300.0, "thrown": 50.0,
}


# The rounds a gun of a class usually holds, for a sheet that must write a capacity where no
# source states one and no catalog weapon gives it (assumed: the CoC 6th-edition table's usual
# gun of each class, the values coc's [weapon_class] table writes): one answer for every system
# (core.catalog.Catalog.capacity_of)
USUAL_CAPACITY = {"handgun": 7, "revolver": 6, "smg": 30, "carbine": 15, "rifle": 5, "shotgun": 2, "mg": 50,
                  "thrown": 1}


# The energy of a thrown blade known by its class (assumed: the CoC 6th-edition weapon table's
# thrown hatchet 1D6, knife 1D4 and spear 1D8 on the d100 damage ladder, 1D4 read as its 1D3
# row), for a system whose line gives the thrower's damage, not the weapon's (a GURPS thrown
# axe: his swing): one answer for every system, so a hatchet that crosses such a sheet is the
# same hatchet after it
THROWN_BLADE_ENERGY = {"axe": 130.0, "knife": 50.0, "spear": 205.0}


def thrown_blade(weapon_class: str, name: str) -> str | None:
    """The class of a thrown weapon whose name says a blade (a hatchet or axe, a knife, a spear:
    THROWN_BLADE_ENERGY), else None (a grenade, a stone)."""
    if weapon_class != "thrown":
        return None
    cls = melee_class_of(name)
    return cls if cls in THROWN_BLADE_ENERGY else None


# A bow or a crossbow, as a weapon line or a skill names it (English, and the words of the Foundry CoC7
# sheets' languages): no neutral weapon class holds one (the rule texts are firearms rules), so a system
# that states one keeps its line for its own way back and says so, rather than reading it as a gun
_BOW = re.compile(r"(?<![^\W\d_])(?:(?P<cross>cross\s*bows?|arbalests?|armbrust|arbal[eè]tes?|ballestas?|balestras?|"
                  r"kusz[ae]?)|(?:long|short|composite|compound|hunting)?\s*bows?|langbogen|bogen)(?![^\W\d_])"
                  r"|(?P<crossja>クロスボウ|弩)|弓", re.IGNORECASE)


def bow_of(*words: str) -> str | None:
    """"crossbow" or "bow" where a weapon line's name or skill says one, else None (a Bowie knife is none)."""
    for w in words:
        m = _BOW.search(w or "")
        if m:
            return "crossbow" if m.group("cross") or m.group("crossja") else "bow"
    return None


def generic_weapon(weapon_class: str) -> Weapon:
    """A representative weapon of a class, for the standard shot and inline odds."""
    return Weapon(
        name=f"generic {weapon_class}",
        weapon_class=weapon_class,  # type: ignore[arg-type]
        muzzle_energy=Energy(_GENERIC_ENERGY[weapon_class]),
        sights="none" if weapon_class == "thrown" else "iron",  # a thrown weapon is aimed by eye
    )


def standard_distance(weapon_class: str) -> Length:
    return STANDARD_DISTANCE_SHORT if weapon_class in SHORT_ARMS else STANDARD_DISTANCE_LONG


def standard_shot(weapon_class: str, skill: float = 0.5, weapon: Weapon | None = None) -> Shot:
    """The standard shot: a stationary, standing, unarmoured adult in daylight,
    no cover; the shooter stationary, standing, two-handed, not aiming; 10 m for a short
    arm, 25 m for a long arm."""
    return Shot(
        name=f"standard shot ({weapon_class})",
        shooter=Shooter(skill=skill),
        weapon=weapon or generic_weapon(weapon_class),
        distance=standard_distance(weapon_class),
    )
