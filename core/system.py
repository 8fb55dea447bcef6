"""The System base class: what a plugin implements to teach xsys one game system.

Subclass it, set the class attributes, implement the abstract methods, and register
the class through the ``xsys_register_systems`` hook. A *variant* (a translation, house
rules) subclasses another system's class through its public module and overrides only
what differs (sqlglot's dialects are the model).

The helpers here do the parts that are the same for every system: characteristics by
adult-population percentile, skills by equated competence (core.equating), the standard shot.
"""

from __future__ import annotations

import functools
import math
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Collection, Iterator, Mapping, Sequence

import msgspec

from . import cache, codec, equating, memo, scalelevels, skillplan
from .melee import MeleeItem, reference_class
from .dice import Dist, roll_distribution
from .formulas import Formula, RuleNote
from .ladder import TAIL_SHARE, Ladder, Source, Step, ladders_from_data, population_top
from .model import (Armor, Combatant, MeleeWeapon, SheetSkill, Shot, Weapon, melee_class_of, melee_weapon,
                    natural_attack)
from .sheet import Sheet
from . import sheet as _sheet
from .shotsheet import ShotSheet
from . import shotsheet as _shotsheet
from . import units as _units
from .trace import UNWRITTEN_AT_FLOOR, Check, Collector, Modifier, Result, and_list
from .vocab import SKILL_MEANING, SKILLS, firearm_skill_for

if TYPE_CHECKING:
    from .textblock import TextLayout


class CharacteristicSpec(msgspec.Struct, frozen=True):
    """A native characteristic: the neutral characteristic it measures and the ladder
    between its native values and the adult-population percentile."""

    neutral: str
    ladder: Ladder


# the prefix of a context key that holds a kin system's own skill context (System._scale_ladder)
OWN_CONTEXT = "@own."
# what the core remembers of every system (name, whether the value's type is part of the key)
REMEMBERED = (("skill_ladder", False), ("competence", True), ("level_for", True))


def _planned(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Every system's npc_from_neutral writes the skills the sheet had, decided here for all
    of them (core.skillplan.twins: of CoC's Hide and Sneak, those a sheet named): its
    skills_from_neutral skips the others, whatever plugin calls it (or the core, for a system
    that declares its sheet)."""
    if getattr(fn, "_xsys_sheet", False):
        return fn

    @functools.wraps(fn)
    def npc_from_neutral(self: Any, combatant: Any, *args: Any, **kw: Any) -> Any:
        omit = skillplan.twins(self, combatant) if isinstance(combatant, Combatant) else frozenset()
        with writing_for(self, combatant if isinstance(combatant, Combatant) else None), skillplan.writing(omit):
            res = fn(self, combatant, *args, **kw)
        # its losses and trace in the order of the stat block written (core.sheet.in_sheet_order)
        return _sheet.in_sheet_order(res, res.value) if isinstance(res, Result) else res

    npc_from_neutral._xsys_sheet = True  # type: ignore[attr-defined]
    return npc_from_neutral


def _sheet_ordered(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A system's own npc_to_neutral, its losses and trace in the order of the stat block read
    (core.sheet.in_sheet_order): one order for every system, declared sheet or not."""
    if getattr(fn, "_xsys_sheet", False):
        return fn

    @functools.wraps(fn)
    def npc_to_neutral(self: Any, npc: Any, *args: Any, **kw: Any) -> Any:
        res = fn(self, npc, *args, **kw)
        return _sheet.in_sheet_order(res, npc) if isinstance(res, Result) else res

    npc_to_neutral._xsys_sheet = True  # type: ignore[attr-defined]
    return npc_to_neutral


class SkillLevels(msgspec.Struct, frozen=True):
    """What a system's rules publish about skill levels, when one set holds for every skill:
    every level a stat block may write (lowest first), the untrained adult's level (None: a
    skill with no battery keeps its unmodified roll's chance) and the published tiers
    (core.equating.Tier, five, lowest first)."""

    levels: tuple[Any, ...]
    untrained: float | None = None
    tiers: tuple[equating.Tier, ...] = ()


class System:
    """Base of every game system. Class attributes describe it; methods convert."""

    key: ClassVar[str] = ""
    name: ClassVar[str] = ""
    edition: ClassVar[str] = ""
    dice: ClassVar[str] = ""  # how its checks are rolled, in words ("3d6 roll-under")
    rule_prefix: ClassVar[str] = ""  # e.g. "gurps." -- the rule IDs this system cites
    npc_type: ClassVar[type] = msgspec.Struct  # native stat block Struct
    # characteristics a creature's value beyond every ordinary adult (Combatant.beyond) does not raise,
    # its rules putting it elsewhere (GURPS 3e HT: a creature's hit points carry it, HT 16/50)
    beyond_held: ClassVar[frozenset[str]] = frozenset()
    shot_type: ClassVar[type | None] = None  # native shot/situation Struct
    settings_type: ClassVar[type | None] = None  # optional per-run settings Struct
    # The unit its rulebook prints lengths in (ranges, distances) on a sheet: "yd", "ft" ... ("":
    # metres, as the neutral model)
    length_unit: ClassVar[str] = ""
    # A variant of another system (coc-zh of coc) names its parent: the loss audit reads the
    # parent's native block as this system's too. "": none.
    parent_key: ClassVar[str] = ""
    # The namespaces of Combatant.carried that this system's sheets read and write themselves
    # (core.carried): a family of systems shares one ("coc" for coc and coc-zh). Empty: the key.
    carried_namespaces: ClassVar[tuple[str, ...]] = ()
    # Where the stat block keeps what the core converts (xsys.core.sheet.Sheet): with one, the
    # default npc_to_neutral / npc_from_neutral do the whole conversion and ask the hooks below
    # (weapon_to_neutral ... extra_from_neutral) only for what is the system's own. None: the
    # system writes both conversions itself.
    sheet: ClassVar[Sheet | None] = None
    # The same for its native shot (xsys.core.shotsheet.ShotSheet): with one, the default
    # shot_to_neutral / shot_from_neutral convert it. None: the system writes both itself.
    shot_sheet: ClassVar[ShotSheet | None] = None
    # The rules its shot writes neutral values by, for the loss audit to cite where one reads back
    # as another: a part of the neutral shot (``light.illuminance``, ``target.armor``, ``weapon``)
    # -> its rule ID; a declared word cites its ladder's rule, the shooter's level its skill's.
    shot_rules: ClassVar[Mapping[str, str]] = {}
    # Its own units (a turn, a round, the GURPS hex): name -> (quantity type of core.units, its
    # factor to that type's canonical unit), known wherever a quantity is read from the moment
    # the class is defined (core.units.define); a name pint does not know (``gurps_turn``).
    own_units: ClassVar[Mapping[str, tuple[type, float]]] = {}
    # The printed stat block its NPCs read from and write to, by the name a format plugin
    # registers it under (hook xsys_register_text_blocks): one block may serve several systems
    # (the Call of Cthulhu block, both editions). None: its own text_layout(), or no block.
    text_block: ClassVar[str | None] = None
    # A characteristic written from another system's is a multiple of this (7th-edition Call of
    # Cthulhu: 5, as its 3D6 x 5 rolls it); 1: any value of its ladder.
    characteristic_written_step: ClassVar[int] = 1
    # Native skills written only for the weapon lines that use them, never from the neutral
    # skill alone (GURPS Axe Throwing beside Throwing: both the neutral throw, and an NPC who
    # throws stones has only Throwing): skills_from_neutral leaves them out, the plugin writes
    # them beside its lines. Read, they cross as any skill.
    line_skills: ClassVar[frozenset[str]] = frozenset()
    # Neutral skills its sheet derives from the NPC's attributes alone, whatever his training
    # (nWoD Defense, the lower of Dexterity and Wits: the dodge). A source's stated line for one
    # is carried for the way back (core.skillplan), and read back it wins over the derived value.
    derived_only: ClassVar[frozenset[str]] = frozenset()
    # Set by the registry on every instance: who provides it ("xsys-coc7 1.0 (plugin coc7)"),
    # for messages that name a plugin.
    xsys_plugin: str = ""

    def markdown_npc(self, npc: Any) -> str | None:
        """This system's own Markdown for a native stat block on ``--format md`` (None: xsys
        writes the sheet from the document's fields, its derived values and legend)."""
        return None

    # The core remembers a system's answers to skill_ladder, competence and level_for per
    # instance (core.memo), for every system alike, and a streamed roster converts a stat block
    # it has seen under another name once (an NPC converts by what it states, not by its name).
    # False: this system's answers are not functions of their arguments and its settings (or of
    # a stat block without its name), and it is asked every time.
    remember: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name, typed in REMEMBERED:
            fn = cls.__dict__.get(name)
            if callable(fn):
                setattr(cls, name, memo.method(fn, typed))
        for unit, (qtype, factor) in cls.__dict__.get("own_units", {}).items():
            _units.define(unit, qtype, factor, cls.__name__)
        _sheet.check(cls)  # a sheet naming a field its stat block lacks fails here, not mid-conversion
        _shotsheet.check(cls)
        fn = cls.__dict__.get("npc_from_neutral")
        if fn is not None:
            cls.npc_from_neutral = _planned(fn)  # type: ignore[method-assign]
        fn = cls.__dict__.get("npc_to_neutral")
        if fn is not None:
            cls.npc_to_neutral = _sheet_ordered(fn)  # type: ignore[method-assign]

    def __init__(self, settings: Any = None) -> None:
        if settings is None and self.settings_type is not None:
            settings = self.settings_type()
        self.settings = settings

    # ---- description ------------------------------------------------------------------
    def describe(self) -> dict[str, Any]:
        return {"key": self.key, "name": self.name, "edition": self.edition, "dice": self.dice}

    def label(self) -> str:
        return f"{self.name} ({self.edition})" if self.edition else self.name

    # ---- plain-text stat blocks --------------------------------------------------------
    def text_layout(self) -> "TextLayout | None":
        """How this system's NPCs print as plain-text stat blocks (``.txt``), or None (the
        default): no text block reads into it or is written from it.

        A :class:`xsys.core.textblock.TextLayout` says whether a block is this system's
        (``score``: how many of its stats the block shows), reads a block's lines into the
        system's plain document with what it could not read and what it assumed (``read``),
        and prints a document as a block (``write``); the core's ``textblock`` module holds
        the shared line machinery (headings, items, stat pairs, name, description). A
        system whose block is a format plugin's names it in ``text_block`` instead."""
        return None

    # ---- tables ------------------------------------------------------------------------
    #: The package whose ``tables.toml`` holds the system's data (usually ``__package__``): with
    #: one, ``data()`` is that file, and the defaults below read it: the rule register is its
    #: ``[rule]``, the skills its ``[skills]`` (native skill = [neutral keys]), the ladders every
    #: ``[ladder.NAME]`` (built, so checked monotone) beside each characteristic's.
    data_package: ClassVar[str] = ""

    def data(self) -> Mapping[str, Any]:
        """The parsed ``tables.toml`` of ``data_package`` (once per process), else nothing."""
        return cache.package_toml(self.data_package) if self.data_package else {}

    def ladders(self) -> dict[str, Ladder]:
        """Every ladder of the system (situation tables, armor, damage ...), by name. Default:
        the data's ``[ladder.NAME]`` tables and ``characteristic.NAME`` for each characteristic."""
        if not self.data_package:
            return {}
        built = _DATA_LADDERS.get(self.data_package)
        if built is None:
            built = _DATA_LADDERS[self.data_package] = ladders_from_data(
                self.data(), f"{self.data_package}/tables.toml")
        return {**built, **{f"characteristic.{n}": s.ladder for n, s in self.characteristics().items()}}

    #: The dice every characteristic is rolled on among ordinary adults, as printed ("2D6"): with
    #: it and ``data_package``, the default ``characteristics()`` are the data's
    #: ``[characteristics]`` (native = neutral), each on the percentile ladder of that roll,
    #: cited ``<rule_prefix>characteristics``.
    characteristic_roll: ClassVar[str] = ""

    def characteristics(self) -> dict[str, CharacteristicSpec]:
        """Native characteristic name -> its neutral characteristic and percentile ladder.
        Default: the data's ``[characteristics]`` on ``characteristic_roll``, else none."""
        if not (self.data_package and self.characteristic_roll):
            return {}
        key = (self.data_package, self.characteristic_roll, self.rule_prefix)
        built = _DATA_CHARACTERISTICS.get(key)
        if built is None:
            rule = f"{self.rule_prefix}characteristics"
            dist = roll_distribution(self.characteristic_roll)
            built = _DATA_CHARACTERISTICS[key] = {
                n: CharacteristicSpec(neutral, percentile_ladder(f"characteristic.{n}", dist, rule, self.rule_source(rule)))
                for n, neutral in self.data().get("characteristics", {}).items()}
        return built

    def skills(self) -> dict[str, tuple[str, ...]]:
        """Native skill name -> the neutral skill keys it covers (vocab.SKILLS). Default: the
        data's ``[skills]``."""
        return {k: tuple(v) for k, v in self.data().get("skills", {}).items()}

    def derived_skills(self) -> dict[str, str]:
        """Neutral skill -> the native field outside the skill list that holds it (GURPS's
        Dodge, a derived value on every stat block, is the neutral ``dodge``). The plugin's
        npc conversions read and write that field; :meth:`skills_from_neutral` then does not
        report the neutral skill as one the system has no skill for."""
        return {}

    def derived_characteristics(self) -> dict[str, str]:
        """Neutral characteristic -> the native field outside :meth:`characteristics` that holds
        it (GURPS's Will, derived from IQ, is the neutral ``will``): the plugin reads and writes
        it; losses about it are found at that field."""
        return {}

    def derived_fields(self) -> dict[str, tuple[tuple[str, ...], str]]:
        """Native fields of a stat block that the system computes from others by its own rule:
        field -> (the fields it is computed from, relative to the stat block; the rule ID).
        CoC's HP is ``(("CON", "SIZ"), "coc-ja.hp")``. When one of the inputs does not cross
        to the target exactly, the loss report says at the derived field that it follows
        them (kind ``derived``): coming back it is recomputed from what did cross."""
        return {}

    def sheet_derived(self, npc: Any) -> dict[str, tuple[Any, str]]:
        """What a printed sheet of this system shows beside the stat block's own fields that its
        rules compute (CoC's damage bonus; nWoD's Defense, Speed and Initiative where the block
        leaves them out): label -> (value, rule ID). The sheet prints each with its rule; the
        document itself stays as stated. Default: nothing."""
        return {}

    def sheet_legend(self) -> dict[str, dict[str, str]]:
        """What a sheet's column headings mean where the heading alone does not say (CoC's
        armor "A" and "B"): table -> column -> one sentence, printed under that table."""
        return {}

    def sheet_notes(self, npc: Any) -> dict[str, dict[str, str]]:
        """What one stat block's lines need said beside the legend, in the legend's shape (a
        CoC sheet with a shotgun: what its 4d6/2d6/1d6 bands are; with a thrown weapon: the
        half damage bonus it adds): table -> column -> one sentence. Default: nothing."""
        return {}

    def sheet_blank(self, table: str, row: Mapping[str, Any]) -> frozenset[str]:
        """Columns of one row of a sheet's table (`row`: the line as plain data) that do not
        apply to it and are printed blank, though the document holds their values (a CoC
        thrown hatchet's malfunction and ammunition, an nWoD knife's clip and ranges): what a
        sheet of this system leaves empty in such a line. Default: none."""
        return frozenset()

    def sheet_filled(self, table: str, row: Mapping[str, Any]) -> dict[str, tuple[Any, str]]:
        """Values a sheet prints in one row of a table where the document leaves them to the
        rules or the catalog (a Polish catalog weapon's damage points): column -> (value, one
        sentence for the legend saying where it comes from). Default: none."""
        return {}

    def covered_skills(self) -> set[str]:
        """Every neutral skill this system's stat blocks hold: through a skill or a field."""
        return {k for keys in self.skills().values() for k in keys} | set(self.derived_skills())

    def _skills_once(self) -> Mapping[str, tuple[str, ...]]:
        """``skills()`` as the instance first declared it, asked once (the core's own look-ups, which
        change nothing in it: a declaration is the same every time it is asked)."""
        found = self.__dict__.get("_declared_skills")
        if found is None:
            found = self.__dict__["_declared_skills"] = self.skills()
        return found

    # ---- skills: the plugin states its levels and its check; equating is the core's ----
    standard_health: ClassVar[float] = 10.0  # health of a standard adult, in the system's points
    health_rule: ClassVar[str] = ""  # rule ID the standard health comes from
    health_source: ClassVar[Source] = "assumed"
    # The sheet's hit points: the field (CoC "HP", nWoD "Health"), the rule's formula in words
    # for the trace ("HP = ceil((CON + SIZ) / 2)"), and the values a sheet may hold. A stated
    # value beyond the rule's is the neutral toughness (stated / derived), which a target applies
    # to its own rule (``toughness_of`` and ``health_of``).
    health_field: ClassVar[str] = ""
    health_formula: ClassVar[str] = ""
    health_range: ClassVar[tuple[int, int]] = (1, 999)
    skill_rule: ClassVar[str] = ""  # rule ID of a skill's competence ladder (default: "<prefix>skills")
    skill_source: ClassVar[Source] = "assumed"
    # The scale a stat block writes its skill levels on, named: systems that name one scale
    # (Call of Cthulhu and its Chinese rules: the d100 percentage of one skill list) write one
    # skill as one number, whatever their checks do with it (``levels_on_scale``). "": none shared.
    skill_scale: ClassVar[str] = ""
    # The same for characteristics: systems naming one ``characteristic_scale`` write one value
    # as that scale's number times their ``characteristic_factor`` (Call of Cthulhu 5th/6th
    # edition 13 is 7th edition 65: Chaosium's x5), by ``characteristic_rule``
    # (``characteristics_on_scale``), instead of through the population percentiles.
    characteristic_scale: ClassVar[str] = ""
    characteristic_factor: ClassVar[int] = 1
    # A system whose skill numbers are another system's, by its own rules' word (Call of
    # Cthulhu 7th edition keeps 5th/6th edition's percentages: a skill converts unchanged),
    # names that system: its skills are equated on that system's checks, so a GURPS Guns-16
    # is one number in both editions, whichever way it comes. Its own checks still roll its
    # shots. "": equated on its own checks.
    skill_scale_checks: ClassVar[str] = ""
    skill_scale_rule: ClassVar[str] = ""  # the rule ID that says so
    characteristic_rule: ClassVar[str] = ""
    # One set of levels for every skill, declared (SkillLevels: the levels, the untrained one,
    # the published tiers): the defaults of skill_levels, untrained_level and tiers read it. None:
    # the system answers those itself (per skill).
    levels: ClassVar["SkillLevels | None"] = None

    def toughness_of(self, stated: int | None, derived: int, col: Collector) -> float | None:
        """The neutral toughness of a sheet's stated hit points (None: as the rule derives them)."""
        if stated is None or stated == derived:
            return None
        toughness = stated / max(1, derived)
        if col.tracing:
            col.step(f"$.{self.health_field}", f"{self.health_field} {stated}", f"toughness {toughness:.3f}",
                     rules=[self.health_rule], source="assumed",
                     note=f"stated {self.health_field} / the rule's {self.health_formula} = {derived}")
        return toughness

    def health_of(self, derived: int, toughness: float | None, col: Collector) -> int:
        """The hit points a sheet writes for a neutral toughness: the rule's value scaled, rounded
        half up, within ``health_range``."""
        if toughness is None:
            return derived
        low, high = self.health_range
        health = max(low, min(high, int(derived * toughness + 0.5)))
        if col.tracing and health != derived:
            col.step(f"$.{self.health_field}", None, f"toughness {toughness:.3f}", f"{self.health_field} {health}",
                     rules=[self.health_rule], source="assumed",
                     note=f"toughness x the rule's {self.health_formula} = {derived}")
        return health

    def skill_levels(self, skill: str) -> Sequence[Any]:
        """The native levels of `skill`, lowest first (every value a stat block may hold).
        Default: the declared ``levels``."""
        if self.levels is not None:
            return self.levels.levels
        raise NotImplementedError(f"{self.key}: skill_levels")

    def check_at(self, shot: Shot, skill: str, level: Any, context: Mapping[str, Any] | None = None,
                 extra: Sequence[Modifier] = ()) -> Check:
        """The system's own check of `shot` fired with `skill` at native `level` (``context``:
        native characteristics the check also uses, e.g. nWoD Dexterity)."""
        raise NotImplementedError(f"{self.key}: check_at")

    def roll_chance(self, skill: str, level: Any, context: Mapping[str, Any] | None = None) -> Fraction:
        """Chance of the system's unmodified roll of `skill` at `level` (skills with no
        battery: Spot, Dodge, Conceal ...)."""
        raise NotImplementedError(f"{self.key}: roll_chance")

    def melee_check_at(self, item: MeleeItem, skill: str, level: Any,
                       context: Mapping[str, Any] | None = None) -> Check:
        """The system's own check of one close-combat battery item (core.melee.MELEE_BATTERY)
        made with close-combat `skill` at native `level` against its standard adult: the chance
        the attack lands past the item's defence, and the distribution of its damage in the
        system's own points (``core.melee.attack_check`` builds it). ``context`` holds the
        skill's ``skill_context`` (the attacker's Strength, damage bonus ...) and ``"@class"``,
        the reference weapon's class (``"club"`` for brawl and melee alike: core.melee.MELEE_SKILLS).

        Default: not implemented, for a system with no close-combat rules of its own: its
        brawl and melee skills are then equated on the unmodified roll (``roll_chance``), as
        skills without a battery are."""
        raise NotImplementedError(f"{self.key}: melee_check_at")

    def skill_context(self, skill: str, context: Mapping[str, Any] | None) -> dict[str, Any]:
        """The part of ``context`` that `skill`'s results depend on (ladders are built once per
        distinct context): nothing by default; a pool system keeps the skill's attribute."""
        return {}

    def shot_context(self, shot: Shot) -> dict[str, Any]:
        """Native characteristics of the shooter that ``check_at`` uses: by default those a declared
        ``shot_sheet`` names, at the steps of the shooter's percentiles (the adult median where the
        shot states none), as the shot document writes them; else none."""
        names = self.shot_sheet.characteristics if self.shot_sheet is not None else ()
        specs = self.characteristics() if names else {}
        return {k: specs[k].ladder.native(shot.shooter.characteristics.get(specs[k].neutral, 0.5)) for k in names}

    def skill_for_weapon(self, weapon_class: str) -> str:
        """The native skill that fires a weapon class (first skill covering its neutral skill)."""
        key = firearm_skill_for(weapon_class)
        skills = self.skills()
        for native, keys in skills.items():
            if key in keys:
                return native
        for native, keys in skills.items():  # no skill of its own: the first firearm skill
            if any(SKILLS.get(k) for k in keys):
                return native
        raise NotImplementedError(f"{self.key}: no skill fires {weapon_class}")

    def _skill_key(self, skill: str, context: Mapping[str, Any] | None) -> str | None:
        keys = self._skills_once().get(skill) or tuple(k for k, f in self.derived_skills().items() if f == skill)
        wanted = (context or {}).get("@key")
        if wanted is None and (context or {}).get("@class"):
            wanted = firearm_skill_for(str(context["@class"]))  # type: ignore[index]
        if wanted is not None and (wanted in keys or not keys):
            return wanted
        return keys[0] if keys else None  # a neutral skill the native one does not cover: its own

    def skill_ladder(self, skill: str, context: Mapping[str, Any] | None = None) -> Ladder:
        """Native levels of `skill` -> equated competence (core.equating). For a skill that
        covers several neutral skills, ``context["@key"]`` (or ``"@class"``) names which one;
        the first is the default. Built once per (skill, neutral skill, context), cached on disk."""
        key = self._skill_key(skill, context)
        shared = self._scale_ladder(skill, key, context)
        if shared is not None:
            return shared
        # a firearm skill's class, or a close-combat skill's reference weapon (core.melee)
        weapon_class = equating.battery_class(key)
        ctx = self.skill_context(skill, {k: v for k, v in (context or {}).items() if not k.startswith("@")})
        if context and ctx:  # a kin system's own view of what the skill depends on (_scale_ladder) wins
            ctx.update({k: context[f"{OWN_CONTEXT}{k}"] for k in ctx if f"{OWN_CONTEXT}{k}" in context})
        # no battery: linked on the published scale, where each neutral skill has its own
        # untrained standing (nWoD Athletics: climb 40, swim 25), else the unmodified roll
        scale = f"standing {key}" if weapon_class is None and equating.links_on_standing(self, skill, key) else None
        memo_key = (skill, weapon_class or scale, tuple(sorted(ctx.items())))
        memo = self.__dict__.setdefault("_competence_ladders", {})
        lad = memo.get(memo_key)
        if lad is None:
            rule = self.competence_rule(skill)
            table = f"competence {skill} | {weapon_class or scale or 'roll'} | {sorted(ctx.items())}"
            scores = cache.remembered(self, table, list[float],
                                      lambda: equating.level_scores(self, skill, weapon_class, ctx, key))
            what = (f"{skill} on the {weapon_class} battery" if weapon_class else
                    f"{skill} ({key} on the published competence scale)" if scale else f"{skill} (unmodified roll)")
            lad = memo[memo_key] = equating.competence_ladder(what, list(self.skill_levels(skill)), scores, rule,
                                                              self.skill_source)
        return lad

    def scale_system(self) -> "System | None":
        """The installed system whose checks equate this one's skills (``skill_scale_checks``),
        or None: its own."""
        if not self.skill_scale_checks or self.skill_scale_checks == self.key:
            return None
        memo = self.__dict__.setdefault("_scale_system", [])
        if not memo:
            memo.append(installed_system(self.skill_scale_checks))
        return memo[0]

    def _scale_rules(self) -> list[str]:
        return [self.skill_scale_rule] if self.skill_scale_rule and self.scale_system() is not None else []

    def _scale_note(self, key: str) -> str:
        ref = self.scale_system()
        if ref is None or not any(key in ks for ks in ref.skills().values()):
            return ""
        return (f"{self.name} writes {ref.name}'s percentages ({self.skill_scale_rule or 'skill_scale_checks'}): "
                f"equated on {ref.key}'s checks; ")

    def _scale_ladder(self, skill: str, key: str | None, context: Mapping[str, Any] | None) -> Ladder | None:
        """`skill` equated on the checks of the system whose scale it writes (``scale_system``):
        that system's skill for the same neutral skill, at the same characteristics (in its
        units, where both name one ``characteristic_scale``), read at this system's levels."""
        ref = self.scale_system()
        if ref is None or key is None:
            return None
        theirs = [n for n, keys in ref.skills().items() if key in keys]
        if not theirs:
            return None
        native = min(theirs, key=lambda n: len(ref.skills()[n]))  # coc Rifle for rifle, not a broad one
        ctx = dict(context or {})
        if self.characteristic_scale and self.characteristic_scale == ref.characteristic_scale:
            ratio = self.characteristic_factor / ref.characteristic_factor
            specs = self.characteristics()
            # a whole value stands for its nearest on the other scale (coc7 59 is coc 12), as
            # characteristics_on_scale writes it
            ctx = {k: ((math.floor(v / ratio + 0.5) if isinstance(v, int) else v / ratio)
                       if k in specs and isinstance(v, (int, float)) and not isinstance(v, bool) else v)
                   for k, v in ctx.items()}
        ctx["@key"] = key
        # what this system's own rules say the skill depends on (7th edition's damage bonus of the
        # NPC's STR + SIZ, not 6th edition's table read at his STR / 5 and SIZ / 5): the checks
        # are the reference's, the NPC is this sheet's (skill_ladder puts these values in the
        # reference's context in place of its own)
        ctx.update({f"{OWN_CONTEXT}{k}": v for k, v in self.skill_context(skill, context).items()})
        # (skill_ladder's answers are remembered per instance: core.memo, REMEMBERED)
        their_ladder = ref.skill_ladder(native, ctx)
        levels = list(self.skill_levels(skill))
        return equating.competence_ladder(
            f"{skill} on {ref.name}'s checks of {native} (one skill scale: {self.skill_scale or ref.skill_scale})",
            levels, [ref.competence(native, lv, ctx) for lv in levels], ref.competence_rule(native),
            their_ladder.steps[0].source or self.skill_source)

    def skill_floor(self, skill: str, context: Mapping[str, Any] | None = None) -> tuple[Any, str] | None:
        """The lowest level of `skill` a stat block of this system may show for an NPC of the
        native characteristics in ``context`` (what he has untrained: CoC's base chance, a GURPS
        default from his own attribute), with its rule ID; None (the default): the skill's lowest
        level. A conversion that lands below it writes it, with a ``clamped`` loss."""
        return None

    def floor_unwritten(self, skill: str) -> bool:
        """True where this system's sheet lists no `skill` at its ``skill_floor`` (a 3e GURPS
        sheet writes no skill at its default: its silence says what the NPC rolls untrained).
        A conversion clamped to that floor then writes no line, with the ``clamped`` loss
        saying so. False (the default): the floor is written (a CoC base chance)."""
        return False

    def untrained_level(self, skill: str) -> float | None:
        """The level of `skill` an untrained adult of median attributes has (its default: GURPS
        Stealth DX-5 = 5, nWoD 0 dots). With the system's ``tiers`` it links a skill with no
        battery on the published competence scale (core.equating.standing_score); None (the
        default, unless ``levels`` declares one): such a skill keeps the chance of its unmodified
        roll (``roll_chance``)."""
        return self.levels.untrained if self.levels is not None else None

    def attribute_levels(self, skill: str, context: Mapping[str, Any] | None = None) -> float:
        """How many levels of `skill` the NPC's own attribute in ``context`` adds over the median
        (nWoD: a Dexterity dot above 2 is a Stealth dot). 0 where levels already include it."""
        return 0.0

    def tiers(self, skill: str) -> tuple[equating.Tier, ...]:
        """The system's published competence tiers for firearm `skill`, lowest first (empty
        when it publishes none; default: the declared ``levels``' tiers). Equated conversions
        are checked against them."""
        return self.levels.tiers if self.levels is not None else ()

    def competence_rule(self, skill: str) -> str:
        """The rule ID a skill's levels are read by (its check's rule)."""
        return self.skill_rule or f"{self.rule_prefix}skills"

    def competence(self, skill: str, level: Any, context: Mapping[str, Any] | None = None) -> float:
        """Equated competence of `skill` at native `level` (a level between two distinct
        steps reads as the lower one)."""
        lad = self.skill_ladder(skill, context)
        if lad.has_native(level):
            return lad.step_of(level).rep
        below = [st for st in lad.steps if st.native <= level]
        return (below[-1] if below else lad.steps[0]).rep

    def level_for(self, skill: str, competence: float, context: Mapping[str, Any] | None = None) -> Any:
        """The native level of `skill` whose competence is nearest `competence`."""
        return self.skill_ladder(skill, context).step_for(float(competence)).native

    def level_written(self, skill: str, key: str, competence: float, context: Mapping[str, Any] | None = None) -> Any:
        """The level this system's sheet writes for `competence` of neutral skill `key` as `skill`:
        the nearest level, or the neighbour rounded toward the tier of the source skill named by
        :meth:`writing_for` (core.tiers), at a level its rules let a sheet have (``written_level``).
        Not for overriding: what a conversion writes, asked by a reader (core.skillplan)."""
        return level_written(self, skill, key, competence, context)

    def writing_for(self, combatant: Combatant | None) -> Any:
        """A context in which this system writes `combatant`'s stat block: its levels rounded
        toward the tiers of the skills the combatant's sheet states (core.tiers). Every
        npc_from_neutral runs in one; not for overriding."""
        return writing_for(self, combatant)

    def written_level(self, skill: str, level: Any, context: Mapping[str, Any] | None = None) -> Any:
        """The level this system's sheet writes for an equated `level` of `skill`, given the NPC's
        native characteristics (`context`): one its rules let a sheet have. Default: the level
        itself (GURPS 3e has none between a skill's default and the lowest level points buy)."""
        return level

    def check(self, shot: Shot, extra: Sequence[Modifier] = ()) -> Check:
        """A neutral shot as this system's check: the shooter's competence becomes the native
        level of the skill that fires the weapon, then the system's own ``check_at``."""
        skill = self.skill_for_weapon(shot.weapon.weapon_class)
        ctx = self.shot_context(shot)
        level = self.level_for(skill, float(shot.shooter.skill),
                               {**ctx, "@key": firearm_skill_for(shot.weapon.weapon_class)})
        return self.check_at(shot, skill, level, ctx, extra)

    def rule_register(self) -> Mapping[str, Mapping[str, Any]]:
        """The system's rule register: rule ID -> ``{text, source}`` and, optionally, ``where``
        (the place in the rule text or public source that states it), typically the ``[rule]``
        table of the plugin's TOML. Default: the data's ``[rule]`` (``data_package``), else none.
        The defaults of ``rule_ids``, ``rule_notes`` and ``rule_source`` read it."""
        return self.data().get("rule", {})

    def rule_source(self, rule: str) -> str:
        """``seed`` or ``assumed``: what the register says of `rule` (not in it: ``assumed``)."""
        entry = self.rule_register().get(rule)
        return str(entry.get("source") or "assumed") if entry else "assumed"

    def rule_ids(self) -> set[str]:
        """Every rule ID the system implements (for the coverage tests and docs): its ladders'
        rules and its register's."""
        ids: set[str] = set(self.rule_register())
        for lad in self.ladders().values():
            ids |= lad.rules()
        return ids

    def formulas(self) -> Sequence[Formula]:
        """The rules of this system that compute something from values a user gives:
        ``xsys rules SYSTEM RULE-ID --NAME VALUE ...`` evaluates them. Each is a
        :class:`xsys.core.formulas.Formula` whose ``rule`` is one of :meth:`rule_ids` (or whose
        ``covers`` are); build them with :class:`xsys.core.formulas.Formulas`. Default: none."""
        return ()

    def rule_notes(self) -> Mapping[str, RuleNote]:
        """Rule ID -> what this system's data says about that rule (:class:`xsys.core.formulas.RuleNote`:
        title, text, source, the table it lives in, its rows), for ``xsys rules``. The command
        also reads every ladder step's rule and source and the rule tables of the plugin's
        README.md; this adds what only the plugin's own data holds (a rule register, a table
        of maneuvers). Default: the rule register's entries."""
        return {rid: RuleNote(text=str(e.get("text", "")) + (f" ({e['where']})" if e.get("where") else ""),
                              source=str(e.get("source") or ""), tables=("tables.toml [rule]",))
                for rid, e in self.rule_register().items() if isinstance(e, Mapping)}

    def check_native(self, shot: Any, extra: Sequence[Modifier] = ()) -> Check:
        """The system's own check of its native shot, with everything the native document says
        (docs/hooks.md). Default: the check of its neutral form; a system whose shots hold more
        than the neutral model overrides it."""
        return self.check(self.shot_to_neutral(shot).value, extra)

    # ---- conversions -------------------------------------------------------------------
    def npc_to_neutral(self, npc: Any) -> Result[Combatant]:
        """A stat block as the neutral NPC: by the declared ``sheet`` (xsys.core.sheet), else the
        system's own override."""
        if self.sheet is None:
            raise NotImplementedError(f"{self.key}: npc_to_neutral")
        return _sheet.npc_to_neutral(self, npc)

    def npc_from_neutral(self, combatant: Combatant) -> Result[Any]:
        """The neutral NPC as a stat block: by the declared ``sheet``, else the system's override."""
        if self.sheet is None:
            raise NotImplementedError(f"{self.key}: npc_from_neutral")
        return _sheet.npc_from_neutral(self, combatant)

    # ---- the sheet's hooks (xsys.core.sheet): what a declared conversion asks the system ----
    def weapon_to_neutral(self, line: Any, col: Collector, path: str) -> Weapon | MeleeWeapon | None:
        """One weapon line of the stat block: a firearm or thrown weapon as a ``Weapon``, a
        close-combat one as a ``MeleeWeapon`` (its line is then carried verbatim for the way back);
        None for a line no neutral weapon holds (a GURPS crossbow), which the system keeps for its
        own way back (its carried block, from ``extra_to_neutral``) and says in `col` itself."""
        raise NotImplementedError(f"{self.key}: weapon_to_neutral")

    def weapon_from_neutral(self, weapon: Weapon, col: Collector, path: str,
                            kept: Mapping[str, Any] | None = None) -> Any:
        """One neutral weapon as a weapon line (``kept``: this system's native block, if any)."""
        raise NotImplementedError(f"{self.key}: weapon_from_neutral")

    def armor_to_neutral(self, line: Any, col: Collector, path: str) -> Armor:
        """One armor line of the stat block as the neutral armor. Default: a declared
        ``sheet.armor_line`` (points on a ladder, core.sheet.ArmorLine)."""
        if self.sheet is not None and self.sheet.armor_line is not None:
            return _sheet.armor_line_to_neutral(self, line, col, path)
        raise NotImplementedError(f"{self.key}: armor_to_neutral")

    def armor_from_neutral(self, armor: Armor, col: Collector, path: str) -> Any:
        """One neutral armor as an armor line. Default: a declared ``sheet.armor_line``."""
        if self.sheet is not None and self.sheet.armor_line is not None:
            return _sheet.armor_line_from_neutral(self, armor, col, path)
        raise NotImplementedError(f"{self.key}: armor_from_neutral")

    def derived_values(self, npc: Any) -> dict[str, Any]:
        """The values of ``derived_fields`` the rules give this stat block (nWoD Health, Defense):
        the ``health_field`` crosses as the toughness, a field of ``derived_skills`` through
        ``derived_to_neutral``, any other stated otherwise is a ``rounded`` loss. Default: none."""
        return {}

    def derived_to_neutral(self, npc: Any, derived: Mapping[str, Any], col: Collector) -> dict[str, float]:
        """Neutral skills held by derived fields (``derived_skills``: nWoD Defense as the dodge)."""
        return {}

    def native_block(self, npc: Any, col: Collector) -> dict[str, Any]:
        """What the neutral NPC's ``native`` block remembers of this stat block for the way back
        (the whole block, or a few details, each said in `col` where no other system has it);
        kept exact levels and kept lines are added to it. Default: nothing."""
        return {}

    def melee_line_carried(self, line: Any) -> Any:
        """A close-combat line as the carried block keeps it for the way back (a weapon line
        that is a close-combat weapon, or a line of ``Sheet.melee``). Default: as written."""
        return msgspec.to_builtins(line, enc_hook=codec.enc_hook)

    def melee_line_to_neutral(self, line: Any, col: Collector, path: str) -> MeleeWeapon:
        """One line of the sheet's own close-combat list (``Sheet.melee``) as the neutral melee
        weapon: its class by what its name and skill say (core.model.melee_class_of)."""
        words = (getattr(line, "name", ""), getattr(line, "skill", None) or "")
        return melee_weapon(line.name, melee_class_of(*words), natural_attack(*words))

    def extra_to_neutral(self, npc: Any, combatant: Combatant, col: Collector) -> Combatant:
        """The last word on the way in (a trace of values only the rules use). Default: as is."""
        return combatant

    def npc_restored(self, combatant: Combatant, col: Collector) -> Any:
        """The stat block this system's native block restores verbatim, when the neutral values
        still read back to it; None (the default): it is written from the neutral values."""
        return None

    def derived_from_neutral(self, fields: Mapping[str, Any], combatant: Combatant, kept: Mapping[str, Any],
                             col: Collector) -> dict[str, Any]:
        """Fields the rules derive, written before the skills (which may depend on them: GURPS
        Per for the sense rolls), from the characteristics written (`fields`), the neutral NPC
        and this system's native block (`kept`). Default: none."""
        return {}

    def carried_missing(self, field: str, kept: Mapping[str, Any], combatant: Combatant, col: Collector) -> Any:
        """A carried ``sheet`` field the carried block does not hold: the value written (None:
        the stat block's default). Default: where this system's native block kept it before."""
        return kept.get(field)

    def melee_from_neutral(self, combatant: Combatant, lines: Mapping[str, Any], col: Collector) -> list[Any]:
        """The weapon lines of the neutral close-combat weapons (``lines``: the carried ones by
        name; xsys.core.carried.melee_lines). Default: none written."""
        return []

    def melee_skills(self, levels: dict[str, Any], melee: list[Any], carried_lines: Mapping[str, Any],
                     combatant: Combatant, context: Mapping[str, Any], col: Collector) -> dict[str, Any]:
        """The skills written beside the close-combat lines of a ``Sheet.melee`` list (``melee``,
        written; ``carried_lines``: those that were this sheet's own): the skill each is fought
        with. Default: the converted levels as they are."""
        return levels

    def carried_skills(self, levels: dict[str, Any], carried_levels: Mapping[str, Any], combatant: Combatant,
                       context: Mapping[str, Any], col: Collector) -> dict[str, Any]:
        """The sheet's skills with those its carried block kept verbatim (no neutral key holds
        them). Default: each one the converted skills do not already write."""
        levels.update({k: v for k, v in carried_levels.items() if k not in levels})
        return levels

    def kin_skill_name(self, name: str) -> str:
        """The name this sheet writes a kin system's carried skill under (``carried_kin``: a 6th-
        edition CoC sheet writes 7th edition's Language (英語) as Other Language (英語)), so the
        report says where it is. Default: its own name."""
        return name

    def weapon_lines_from_neutral(self, combatant: Combatant, fields: Mapping[str, Any], kept: Mapping[str, Any],
                                  col: Collector) -> list[Any]:
        """The sheet's weapon lines (`fields`: its characteristics and carried fields so far;
        `kept`: its native block). Default: each weapon through ``weapon_from_neutral``."""
        return _sheet.weapon_lines(self, combatant, kept, col)

    def armor_lines_from_neutral(self, combatant: Combatant, fields: Mapping[str, Any], kept: Mapping[str, Any],
                                 col: Collector) -> list[Any]:
        """The sheet's armor lines. Default: each armor through ``armor_from_neutral``."""
        return _sheet.armor_lines(self, combatant, kept, col)

    def extra_from_neutral(self, npc: Any, combatant: Combatant, col: Collector) -> Any:
        """The last word on the way out (derived values, the hit points). Default: as is."""
        return npc

    def shot_to_neutral(self, shot: Any) -> Result[Shot]:
        """A native shot as the neutral one: by the declared ``shot_sheet``, else required."""
        if self.shot_sheet is not None:
            return _shotsheet.shot_to_neutral(self, shot)
        raise NotImplementedError(f"{self.key}: shot_to_neutral")

    def shot_from_neutral(self, shot: Shot) -> Result[Any]:
        """The neutral shot as a native one: by the declared ``shot_sheet``, else required."""
        if self.shot_sheet is not None:
            return _shotsheet.shot_from_neutral(self, shot)
        raise NotImplementedError(f"{self.key}: shot_from_neutral")

    def shot_own_to_neutral(self, shot: Any, col: Collector) -> dict[str, Any]:
        """The system's own shot fields (those its ``shot_sheet`` or the d100 family's does not
        declare) as neutral values by dotted path (``shooter.hands``, ``target.cover.barrier``),
        what they assume said in `col`. Default: none."""
        return {}

    def shot_own_from_neutral(self, shot: Shot, col: Collector) -> dict[str, Any]:
        """The system's own shot fields from the neutral shot, by field name. Default: none."""
        return {}

    def shot_weapon_to_neutral(self, shot: Any, col: Collector) -> Weapon:
        """The weapon a declared shot names (its ``shot_sheet.weapon`` field), as a neutral one.
        Default: its line, through ``weapon_to_neutral``."""
        field = self.shot_sheet.weapon if self.shot_sheet is not None else "weapon"
        return self.weapon_to_neutral(getattr(shot, field), col, f"$.{field}")

    def shot_weapon_from_neutral(self, shot: Shot, col: Collector, path: str) -> Any:
        """The weapon a declared shot names, from the neutral shot (the shooter's strength is in
        it, for a thrown weapon). Default: its line, through ``weapon_from_neutral``."""
        return self.weapon_from_neutral(shot.weapon, col, path)

    # ---- shared helpers for subclasses -------------------------------------------------
    def characteristics_to_neutral(self, values: Mapping[str, Any], col: Collector, path: str = "$") -> dict[str, float]:
        out: dict[str, float] = {}
        specs = self.characteristics()
        for native, value in values.items():
            spec = specs.get(native)
            if spec is None or value is None:
                continue
            lad = spec.ladder
            if not lad.has_native(value):
                near = lad.nearest_native(value)
                top = population_top(lad)
                if isinstance(value, (int, float)) and isinstance(top, (int, float)) and 0 < top < value:
                    # a creature's: its percentile is the table's end, its size crosses as a multiple (core.beyond)
                    col.loss("assumed", f"{path}.{native}", f"{native} {value} lies beyond the table (its percentile "
                             f"is the end's, {near}'s); it crosses as {value / top:.2f} times the top of the table "
                             f"({top}), which another system writes as far as its stat block holds [core.beyond]"
                             + (f" (a {self.key} sheet keeps {value})" if self.sheet is not None else ""),
                             lad.steps[0].rule)
                else:
                    col.loss("clamped", f"{path}.{native}", f"{native} {value} lies outside the table; read as {near}"
                             + (f" (a {self.key} sheet keeps {value})" if self.sheet is not None else ""),
                             lad.steps[0].rule)
                value = near
            step = lad.step_of(value)
            out[spec.neutral] = step.rep
            if col.tracing:
                col.step(f"{path}.{native}", f"{native} {value}", f"{spec.neutral} percentile {step.rep:.3f}",
                         rules=[step.rule], source=step.source)
        return out

    def characteristics_from_neutral(self, percentiles: Mapping[str, float], col: Collector,
                                     path: str = "$", default: float | None = 0.5,
                                     unstated: Collection[str] = ()) -> dict[str, Any]:
        """Neutral percentiles -> this system's characteristics; one the source lacks is the adult
        median (`default`, said), or left out where `default` is None or it is one of `unstated`
        (this system's own sheet stated none: a creature's APP and EDU on a 7th-edition sheet)."""
        out: dict[str, Any] = {}
        for native, spec in self.characteristics().items():
            p = percentiles.get(spec.neutral)
            if p is None:
                if default is None or native in unstated:
                    continue
                p = default
                col.loss("assumed", f"{path}.{native}",
                         f"no {spec.neutral} in the source; {native} set to the adult median", spec.ladder.steps[0].rule)
            step = spec.ladder.step_for(p)
            every = self.characteristic_written_step
            if every > 1 and isinstance(step.native, int) and step.native % every:
                # the nearest value a roll of this system gives (7th edition: 3D6 x 5, a multiple
                # of five): its ladder gives the values about a multiple the band of that multiple's
                # roll, so this is the number a sheet of the x5 edition gives too (coc 12: 60)
                # (a percentile on a band's edge, to a hundred-thousandth, is the upper band's, as
                # the x5 edition's ladder reads it: the two ladders' edges differ in the last digits)
                edge = spec.ladder.step_for(min(1.0, float(p) + 1e-5))
                near = every * round((edge.native if isinstance(edge.native, int) else step.native) / every)
                step = next((st for st in spec.ladder.steps if st.native == near), step)
            out[native] = step.native
            if col.tracing:
                col.step(f"{path}.{native}", None, f"{spec.neutral} percentile {p:.3f}", f"{native} {step.native}",
                         rules=[step.rule], source=step.source)
        return out

    def skills_to_neutral(self, levels: Mapping[str, Any], col: Collector, path: str = "$",
                          context: Mapping[str, Any] | None = None) -> dict[str, float]:
        """Native skill levels -> neutral competences. A native skill covering several neutral
        skills (nWoD Firearms: handgun, rifle ...) gets each one's own battery."""
        out: dict[str, float] = {}
        src: dict[str, tuple[str, Any, float]] = {}  # neutral skill -> the native skill it came from
        spec = self.skills()
        ctx = dict(context or {})
        for native, level in levels.items():
            keys = spec.get(native)
            if not keys:
                col.loss("unsupported-field", f"{path}.{native}", f"skill {native!r} has no neutral equivalent")
                continue
            for k in keys:
                lad = self.skill_ladder(native, {**ctx, "@key": k})
                value = self.competence(native, level, {**ctx, "@key": k})
                if k in src and reference_class(k) and not (
                        value == src[k][2] and {native, src[k][0]} & self.line_skills):
                    # several native close-combat skills, one neutral skill (CoC Knife and Club,
                    # GURPS Knife and Broadsword): the best crosses, and a target writes it for
                    # the skills its weapon lines use (core.melee.melee_skills_written); a
                    # creature's attack skill at its Fighting's level loses nothing
                    o_native, o_level, o_value = src[k]
                    best = f"{native} {level}" if value > o_value else f"{o_native} {o_level}"
                    col.loss("merged", f"{path}.{native}", f"{o_native} {o_level} and {native} {level} cross as one "
                             f"neutral {k} skill: the best ({best}, competence {max(o_value, value):.3f}) is what "
                             f"another system gets; a {self.key} sheet made from this one (not afresh) gets each "
                             "back by name", lad.steps[0].rule)
                if value > out.get(k, -1.0):
                    src[k] = (native, level, value)
                out[k] = max(out.get(k, 0.0), value)
                if col.tracing:
                    col.step(f"{path}.{native}", f"{native} {level}", f"{k} competence {value:.3f}",
                             rules=[*self._scale_rules(), lad.steps[0].rule], source=lad.steps[0].source,
                             note=self._scale_note(k) + _battery_note(k))
            sheet = col.sheet.setdefault("skills", {})
            sheet[native] = SheetSkill(system=self.key, level=level, covers=list(keys))
        self._narrow_twins(levels, src, col, path)
        return out

    def _narrow_twins(self, levels: Mapping[str, Any], src: Mapping[str, tuple[str, Any, float]], col: Collector,
                      path: str) -> None:
        """Several narrow skills of one stat block that cross as one neutral skill (CoC Hide and
        Sneak are both the neutral stealth): the best crosses and is the sheet's skill for it; each
        other one is kept verbatim (``sheet["carry"]``, the source's carried block), so a stat
        block of this skill list gets it back as it was and no other system is given a second
        value for one neutral skill. Close-combat skills are not twins: the best crosses and a
        target writes it for its weapon lines (core.melee.melee_skills_written)."""
        spec = self.skills()
        sheet = col.sheet.get("skills", {})
        for native, level in levels.items():
            keys = spec.get(native) or ()
            if len(keys) != 1 or reference_class(keys[0]) or keys[0] not in src:
                continue
            best, best_level, best_value = src[keys[0]]
            if best == native or len(spec.get(best) or ()) != 1:
                continue
            if native in self.line_skills and level == self.level_for(native, best_value, {"@key": keys[0]}):
                continue  # what a sheet writes beside its line from the skill that crosses
            sheet.pop(native, None)
            from .carried import namespaces

            col.sheet.setdefault("carry", (namespaces(self)[0], {}))[1][native] = level
            col.loss("kept-verbatim", f"{path}.{native}", f"{native} {level} and {best} {best_level} are both the "
                     f"neutral {keys[0]}: {best} {best_level} crosses; {native} {level} is kept for the way back",
                     self.competence_rule(native))

    def skills_from_neutral(self, chances: Mapping[str, float], col: Collector, path: str = "$",
                            context: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Neutral competences -> native levels: for each native skill, the level nearest each
        neutral skill it covers; where they differ, the best is kept (a ``merged`` loss)."""
        out: dict[str, Any] = {}
        spec = self.skills()
        ctx = dict(context or {})
        omit = skillplan.omitted()  # twins the sheet did not name (CoC Sneak beside a stated Hide)
        for native, keys in spec.items():
            if native in omit or native in self.line_skills:
                continue
            found = []
            for k in keys:
                if k not in chances:
                    continue
                step = self.skill_ladder(native, {**ctx, "@key": k}).step_for(float(chances[k]))
                found.append((k, step))
            if not found:
                continue
            # competences of different batteries do not compare: the highest native level wins
            orders = self.__dict__.setdefault("_level_orders", {})  # the levels' order, once per skill
            order = orders.get(native)
            if order is None:
                order = orders[native] = {lv: i for i, lv in enumerate(self.skill_levels(native))}
            k_best, best = max(found, key=lambda f: (order.get(f[1].native, -1), f[0]))
            # the level written, or its neighbour toward the source skills' tiers, every one behind
            # the neutral skills this one covers counted (a broad skill written from several, CoC
            # Rifle 40 and SMG 55 as nWoD Firearms, keeps its level where rounding up for one would
            # take the other out of its tier); not where its neutral skills' nearest levels differ
            # (the best of them is kept, a merged loss says so)
            tiered = tier_steps(self, native, [k for k, _ in found], ctx, chances, k_best) \
                if len({st.native for _, st in found}) == 1 else None
            if tiered is not None:  # every neutral skill it covers is written at that level
                best = tiered[0]
                found = [(k, best if k == k_best else _step_at(self.skill_ladder(native, {**ctx, "@key": k}),
                                                                 best)) for k, _ in found]
            if len({st.native for _, st in found}) > 1:
                col.loss("merged", f"{path}.{native}",
                         f"{native} covers {', '.join(k for k, _ in found)} at levels "
                         f"{', '.join(f'{k} {st.native}' for k, st in found)}; the best ({best.native}) is kept",
                         best.rule)
            out[native] = best.native
            # one line per native skill and competence: a broad source skill clamped on every
            # battery it covers (nWoD Firearms on rifle, shotgun, smg ...) is said once
            beyond: dict[tuple[str, str, str], list[str]] = {}
            for k, v, end, rep in _beyond_ends(self, native, ctx, best.native, [k for k, _ in found], chances):
                beyond.setdefault((f"{v:.3f}", end, f"{rep:.3f}"), []).append(k)
            for (v_, end, rep_), ks in beyond.items():
                col.loss("clamped", f"{path}.{native}",
                         f"the source's {and_list(ks)} competence {v_} lies {'above' if end == 'top' else 'below'} "
                         f"anything {native} can express: clamped to its {'highest' if end == 'top' else 'lowest'} "
                         f"level, {native} {best.native} (competence {rep_})", best.rule)
            if col.tracing:
                tier_note = tiered[1] if tiered is not None and tiered[0] is best else ""
                col.step(f"{path}.{native}", None, ", ".join(f"{k} competence {chances[k]:.3f}" for k, _ in found),
                         f"{native} {best.native} (competence {best.rep:.3f})",
                         rules=[*self._scale_rules(), best.rule, *([TIER_RULE] if tier_note else [])],
                         source=best.source, note=self._scale_note(k_best) + _battery_note(k_best) + tier_note)
        covered = self.covered_skills()
        for k in chances:
            if k not in covered:
                what = f" ({SKILL_MEANING[k]})" if k in SKILL_MEANING else ""
                col.loss("unsupported-field", f"{path}.{k}", f"{self.name} has no skill for {k}{what}")
        return out

    def level_text(self, skill: str, level: Any) -> str:
        """A skill at a level as this system's sheets print it ("Handgun 45"; GURPS "Guns (Pistol)-12")."""
        return f"{skill} {level}"

    def levels_kept(self, levels: Mapping[str, Any], col: Collector, path: str = "$",
                    context: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Native levels the equating cannot tell from a lower level (the same competence on
        every battery they cover): returned to be kept in the stat block's native details, so
        a trip back into this system restores them, each with a ``rounded`` loss."""
        out: dict[str, Any] = {}
        for native, level in levels.items():
            for k in self._skills_once().get(native, ()):
                ctx = {**(context or {}), "@key": k}
                back = self.level_for(native, self.competence(native, level, ctx), ctx)
                if back != level:
                    out[native] = level
                    col.loss("rounded", f"{path}.{native}", f"{self.level_text(native, level)} has the same {k} "
                             f"competence as {self.level_text(native, back)}; the exact level is kept for {self.name}",
                             self.competence_rule(native))
                    break
            floor = self.skill_floor(native, context)
            if floor is not None and level < floor[0]:
                out[native] = level  # under what a converted sheet is floored at: the stated level comes back
        return out

    def levels_floored(self, levels: dict[str, Any], chances: Mapping[str, float], col: Collector, path: str = "$",
                       context: Mapping[str, Any] | None = None, kept: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """No skill below what this NPC has untrained (``skill_floor``: a CoC base, a GURPS default
        from his own DX or IQ): a level converted from another system that lands below it is
        written at it, with a ``clamped`` loss (the sheet cannot say worse than untrained). A
        level this system's own stat block stated (``kept``, remembered for the way back: a CoC
        7th edition Brawl 35 under the 6th edition's base 50) stays as it was."""
        ctx = dict(context or {})
        unwritten: dict[tuple[str, ...], list[tuple[str, Any, Any, str]]] = {}
        for native, level in list(levels.items()):
            floor = self.skill_floor(native, ctx)
            if floor is None or not level < floor[0] or (kept or {}).get(native) == level:
                continue
            keys = [k for k in self.skills().get(native, ()) if k in chances]
            said = ", ".join(f"{k} competence {float(chances[k]):.3f}" for k in keys)
            if self.floor_unwritten(native):
                # his sheet's silence is the untrained level: no line at it (the skills of one
                # neutral skill, GURPS Knife, Axe/Mace, Broadsword ... for the melee, said in one line)
                del levels[native]
                unwritten.setdefault(tuple(keys), []).append((native, level, floor, said))
                written = f"no {native} (untrained {floor[0]})"
            else:
                levels[native] = floor[0]
                col.loss("clamped", f"{path}.{native}", f"{native} {level} ({said}) lies below what this NPC has "
                         f"untrained in {self.key}: written at the untrained {native} {floor[0]}", floor[1])
                written = f"{native} {floor[0]}"
            if col.tracing:
                col.step(f"{path}.{native}", f"{native} {level}", written, rules=[floor[1]],
                         source="assumed", note="no skill below what the NPC has untrained")
        for group in unwritten.values():
            native, level, floor, said = group[0]
            if len(group) == 1:
                col.loss("clamped", f"{path}.{native}", f"{native} {level} ({said}) lies below what this NPC has "
                         f"untrained in {self.key} ({native} {floor[0]}); a {self.key} {UNWRITTEN_AT_FLOOR}", floor[1])
            else:
                col.loss("clamped", f"{path}.{native}", f"{and_list([f'{n} {v}' for n, v, _, _ in group])} ({said}) lie "
                         f"below what this NPC has untrained in {self.key} "
                         f"({and_list([f'{n} {f[0]}' for n, _, f, _ in group])}); a {self.key} {UNWRITTEN_AT_FLOOR}",
                         floor[1])
        return levels

    def levels_restored(self, levels: dict[str, Any], kept: Mapping[str, Any], chances: Mapping[str, float],
                        context: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Put back the kept exact levels whose competences still match the neutral values
        (an edited or foreign value is converted, not overridden)."""
        for native, level in kept.items():
            if native not in levels:
                continue
            keys = [k for k in self.skills().get(native, ()) if k in chances]
            if keys and all(abs(self.competence(native, level, {**(context or {}), "@key": k}) - chances[k]) < 1e-9
                            for k in keys):
                levels[native] = level
        return levels

    def scale_levels(self, levels: Mapping[str, Any], chances: Mapping[str, float],
                     characteristics: Mapping[str, Any] | None = None,
                     percentiles: Mapping[str, float] | None = None,
                     health: tuple[int, float | None] | None = None,
                     covers: Mapping[str, Sequence[str]] | None = None) -> dict[str, Any]:
        """What a sheet of a system with a named ``skill_scale`` (or ``characteristic_scale``)
        remembers in its neutral native block so a system of the same scale writes the same
        numbers: the scale, each mapped skill's stated level and the neutral skills it covers,
        the competences they gave (an edit of those is converted, not passed through); and the
        characteristics in the scale's units with the percentiles they gave. Empty when the
        system names no scale."""
        out: dict[str, Any] = {}
        if self.skill_scale:
            # what each stated skill covers on this sheet (`covers`: a 7e Fighting (Brawl) that is
            # also the NPC's knife skill covers brawl and melee), else by declaration
            spec = {**self.skills(), **{k: tuple(v) for k, v in (covers or {}).items() if v}}
            stated = {k: v for k, v in levels.items() if spec.get(k)}
            out.update({"name": self.skill_scale, "levels": stated,
                        "keys": {n: list(spec[n]) for n in stated},
                        "competences": {k: float(chances[k]) for n in stated for k in spec[n] if k in chances}})
        if self.characteristic_scale and characteristics:
            specs = self.characteristics()
            # a value beyond this system's own table crossed clamped (reported on reading): it
            # crosses as that, not as a number passed on
            # a value beyond this system's own table crossed clamped (reported on reading); on the
            # shared scale it is still the number the sheet states (a creature's STR 200)
            values = {specs[k].neutral: v / self.characteristic_factor for k, v in characteristics.items()
                      if k in specs and isinstance(v, (int, float)) and not isinstance(v, bool)}
            out["characteristics"] = {"name": self.characteristic_scale, "values": values,
                                      "percentiles": {k: float(v) for k, v in (percentiles or {}).items()
                                                      if k in values}}
            if health is not None and health[0] is not None:  # the stated hit points and the toughness they gave
                out["characteristics"]["health"] = {"value": health[0], "toughness": health[1]}
        return out

    def health_on_scale(self, health: int, combatant: Any, col: Collector, path: str = "$") -> int:
        """Stated hit points another system of this ``characteristic_scale`` and the same hit-point
        rule wrote pass through as the same number (coc and its variant coc-zh), while the neutral
        toughness is still what that sheet gave; else `health` as this system derives it (a coc
        HP 14 on CON 13, SIZ 14 is coc7's (65 + 70) / 10 = 13, by 7th edition's rule), and where
        that sheet stated more or less than its own rule, a note says both numbers (the dock
        brute's HP 20 over 6th edition's 17 is HP 19 over 7th edition's 16)."""
        if not (self.characteristic_scale and self.health_field):
            return health
        for key, block in combatant.native.items():
            source = installed_system(key) if key != self.key else None
            if source is None:
                continue
            chars = on_scale(block, self.characteristic_scale)
            stated = chars.get("health") if chars is not None else None
            if not isinstance(stated, dict) or stated.get("toughness") != combatant.toughness:
                continue
            value = stated.get("value")
            if source.health_formula != self.health_formula:
                # another rule (6th edition's ceil((CON + SIZ) / 2), 7th's (CON + SIZ) / 10): the
                # sheet's margin over its rule is kept on this one's, and said beside the number
                if isinstance(value, int) and value != health and combatant.toughness is not None:
                    def rule(formula: str) -> str:
                        return formula.split("=", 1)[-1].strip()

                    col.loss("assumed", f"{path}.{self.health_field}",
                             f"{self.health_field} {health}: the {key} sheet's {self.health_field} {value} is "
                             f"x{float(combatant.toughness):.2f} its rule's {rule(source.health_formula)}; this sheet "
                             f"counts {rule(self.health_formula)} and keeps that margin", self.health_rule)
                continue
            low, high = self.health_range
            if isinstance(value, int) and low <= value <= high and value != health:
                if col.tracing:
                    col.step(f"{path}.{self.health_field}", f"{self.health_field} {value} ({key})", None,
                             f"{self.health_field} {value}", rules=[self.health_rule], source="assumed",
                             note=f"{key} and {self.key} count hit points alike: the number passes through "
                                  f"(the toughness gives {health})")
                return value
        return health

    def characteristics_on_scale(self, fields: dict[str, Any], combatant: Any, col: Collector,
                                 path: str = "$") -> dict[str, Any]:
        """A characteristic another system stated on this system's ``characteristic_scale``
        passes through as that number times this system's factor (coc STR 13 is coc7 STR 65,
        and back 13), not through the population percentiles; a value the factor cannot give
        exactly is rounded (a ``rounded`` loss) and one beyond this system's table clamped. A
        neutral value edited since it was read is converted like any other."""
        if not self.characteristic_scale:
            return fields
        specs = self.characteristics()
        own = on_scale(combatant.native.get(self.key) or {}, self.characteristic_scale)
        if own is not None:
            # this system's own sheet, read unedited: each number as it stated it (a 7th-edition STR
            # 52 or a creature's STR 1, which a sheet written from another system's number would
            # round to the multiple of five its dice give: characteristic_written_step)
            values, kept = own.get("values") or {}, own.get("percentiles") or {}
            for native, spec in specs.items():
                now, was = combatant.characteristics.get(spec.neutral), kept.get(spec.neutral)
                if native in fields and spec.neutral in values and now is not None and was is not None \
                        and abs(float(now) - float(was)) <= 1e-9:
                    exact = float(values[spec.neutral]) * self.characteristic_factor
                    value = int(math.floor(exact + 0.5))
                    if abs(exact - value) <= 1e-9 and spec.ladder.has_native(value):
                        fields[native] = value
        for key, block in combatant.native.items():
            chars = on_scale(block, self.characteristic_scale) if key != self.key else None
            if chars is None:
                continue
            values = chars.get("values") or {}
            for native, spec in specs.items():
                if native not in fields or spec.neutral not in values:
                    continue
                kept = (chars.get("percentiles") or {}).get(spec.neutral)
                now = combatant.characteristics.get(spec.neutral)
                if kept is None or now is None or abs(float(now) - float(kept)) > 1e-9:
                    continue  # edited since it was read: converted like any other value
                exact = float(values[spec.neutral]) * self.characteristic_factor
                value = int(math.floor(exact + 0.5))
                rule = self.characteristic_rule or spec.ladder.steps[0].rule
                if abs(exact - value) > 1e-9:
                    source = installed_system(key)
                    factor = source.characteristic_factor if source is not None else 0
                    stated = f"{native} {float(values[spec.neutral]) * factor:g} ({key})" if factor else \
                        f"{native} {exact:g} ({key} on the {self.characteristic_scale} scale)"
                    how = (f"÷ {factor // self.characteristic_factor}" if factor > self.characteristic_factor
                           else f"× {self.characteristic_factor // max(factor, 1)}")
                    back = f", which comes back as {native} {value * factor // self.characteristic_factor}" \
                        if factor else ""
                    col.loss("rounded", f"{path}.{native}", f"{stated} is written {native} {value} ({how} = "
                             f"{exact:g}){back}", rule)
                if not spec.ladder.has_native(value):
                    near = spec.ladder.nearest_native(value)
                    lo, hi = codec.int_bounds(self.npc_type, native)
                    if lo is not None and hi is not None and lo <= value <= hi:
                        # the other sheet's number on the one scale (a 7e creature's STR 200 is a
                        # 6th-edition STR 40, as the rulebooks print them): written as it is; only
                        # its neutral value is the table's end (said when it was read)
                        col.loss("assumed", f"{path}.{native}", f"{native} {value} ({key}) lies beyond the "
                                 f"{self.key} table; written as that number on the {self.characteristic_scale} "
                                 f"scale both share, which checks and other systems count as {near}", rule)
                    else:
                        col.loss("clamped", f"{path}.{native}", f"{native} {value} ({key}) lies outside the table; "
                                 f"written {near}", rule)
                        value = near
                if col.tracing and value != fields[native]:
                    col.step(f"{path}.{native}", f"{native} {exact:g} ({key})", None, f"{native} {value}",
                             rules=[rule], source="assumed",
                             note=f"{key} and {self.key} write characteristics on one scale "
                                  f"({self.characteristic_scale}, x{self.characteristic_factor} here): the number "
                                  f"passes through (the population percentile gives {fields[native]})")
                fields[native] = value
        return fields

    def levels_on_scale(self, levels: dict[str, Any], combatant: Any, col: Collector,
                        path: str = "$", context: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """A skill another system stated on this system's ``skill_scale`` passes through as the
        number it was (coc Shotgun 40 is coc-zh Shotgun 40, not the 39 equating the two rule
        sets' checks would give), while the neutral competences are still those it gave. Not
        below what this NPC has untrained here (``skill_floor`` at `context`: a 6th-edition
        Dodge 18, DEX x 2, is 7th edition's DEX / 2 = 22 at least): the floor is written, said."""
        if not self.skill_scale:
            return levels
        start = len(col.losses)
        # a line of a sheet on this scale that a broad skill's sheet carried for the way back
        # (core.skillplan.restore: a coc-zh Rifle 60 through nWoD Firearms) is its number too,
        # while the competence it gave still stands (its owner's ladder, not this one's: 59)
        for name, said in combatant.sheet_skills.items():
            owner = installed_system(said.system) if said.system != self.key else None
            if owner is None or owner.skill_scale != self.skill_scale or name not in levels \
                    or not isinstance(said.level, int) or isinstance(said.level, bool) or levels[name] == said.level:
                continue
            try:
                gave = {k: float(owner.competence(name, said.level, {"@key": k})) for k in said.covers}
            except Exception:  # noqa: BLE001 - not a level of that sheet's: converted like any other value
                continue
            if gave and all(k in combatant.skills and abs(float(combatant.skills[k]) - v) < 1e-9
                            for k, v in gave.items()):
                if col.tracing:
                    col.step(f"{path}.{name}", f"{name} {said.level} ({said.system})", None, f"{name} {said.level}",
                             rules=[self.competence_rule(name)], source="seed",
                             note=f"{said.system} and {self.key} write skills on one scale ({self.skill_scale}): "
                                  f"the number passes through (equating their checks gives {levels[name]})")
                levels[name] = said.level
        for key, block in combatant.native.items():
            scale = block.get("scale") if isinstance(block, dict) and key != self.key else None
            if not (isinstance(scale, dict) and scale.get("name") == self.skill_scale):
                continue
            # (a skill the sheet plan left out of this target's sheet is not an edit)
            if any(k in combatant.skills and abs(float(combatant.skills[k]) - float(v)) > 1e-9
                   for k, v in (scale.get("competences") or {}).items()):
                continue  # edited since it was read: converted like any other value
            keys = scale.get("keys") or {}
            mine = self.skills()
            passed: dict[str, tuple[Any, str]] = {}
            feeders: dict[str, list[str]] = {}
            for native, level in (scale.get("levels") or {}).items():
                # the same skill by name; else this system's skills covering the same neutral
                # skills under another name (coc Shotgun, coc7 Firearms (Rifle/Shotgun)); of
                # two that become one, the better passes (both are kept in the source)
                if native in levels:
                    targets = [native]
                else:
                    covered = set(keys.get(native) or ())
                    targets = [n for n in levels if covered and covered & set(mine.get(n, ()))]
                for t in targets:
                    feeders.setdefault(t, []).append(f"{native} {level}")
                    if t not in passed or level > passed[t][0]:
                        passed[t] = (level, native)
            for t, (level, native) in passed.items():
                # two skills that became this one: the warning names the numbers written, not the
                # equated levels ("the best (59) is kept" while 65 passes through)
                for i, loss in enumerate(col.losses):
                    if loss.kind == "merged" and loss.message.startswith(f"{t} covers ") and len(feeders[t]) > 1:
                        col.losses[i] = msgspec.structs.replace(loss, message=(
                            f"{t} covers {', '.join(feeders[t])} ({key}), one skill on their shared scale "
                            f"({self.skill_scale}): the best ({level}) is written"))
                floor = self.skill_floor(t, context) if context is not None else None
                if floor is not None and level < floor[0] and _below_own_floor(key, scale, native, floor[0]):
                    if levels[t] != floor[0]:
                        col.loss("clamped", f"{path}.{t}", f"{native} {level} ({key}) lies below what this NPC has "
                                 f"untrained in {self.key}: written at the untrained {t} {floor[0]}", floor[1])
                    level = floor[0]
                if levels[t] != level:
                    if col.tracing:
                        col.step(f"{path}.{t}", f"{native} {level} ({key})", None, f"{t} {level}",
                                 rules=[self.competence_rule(t)], source="seed",
                                 note=f"{key} and {self.key} write skills on one scale ({self.skill_scale}): "
                                      f"the number passes through (equating their checks gives {levels[t]})")
                    levels[t] = level
        # a level this system's own sheet stated that the other sheet wrote as another number
        # (carried: core.scale_levels), while that sheet still says that number: its own, not
        # clamped to this sheet's base as a number from elsewhere would be
        for name, level, key, said in scalelevels.restored(self, levels, combatant):
            col.losses[start:] = [x for x in col.losses[start:]
                                  if not (x.kind == "clamped" and x.path == f"{path}.{name}")]
            if col.tracing:
                col.step(f"{path}.{name}", ", ".join(f"{n} {v} ({key})" for n, v in said.items()), None,
                         f"{name} {level}", rules=[scalelevels.RULE], source="seed",
                         note=f"the {self.key} sheet's own number, carried at carried.{scalelevels.namespaces(self)[0]}."
                              f"{scalelevels.FIELD}.{name}; the {key} sheet still writes it as it was written")
        return levels


def _below_own_floor(key: str, scale: Mapping[str, Any], native: str, floor: Any) -> bool:
    """Whether the system `key` that wrote a skill on a shared scale starts it lower than the
    `floor` of the system writing it now (6th edition's Dodge DEX x 2 against 7th edition's
    DEX / 2): then a level under that floor is its untrained level, written at the new one. Not
    where both start it alike (coc and coc-zh): a sheet's level under its own base is its own,
    and the number passes through."""
    source = installed_system(key)
    if source is None:
        return True
    ctx: dict[str, Any] = {}
    chars = scale.get("characteristics")
    values = chars.get("values") if isinstance(chars, dict) else None
    if isinstance(values, dict):
        factor = getattr(source, "characteristic_factor", 1) or 1
        for name, spec in source.characteristics().items():
            if spec.neutral in values:
                ctx[name] = round(values[spec.neutral] * factor)
    try:
        own = source.skill_floor(native, ctx)
    except Exception:  # a third party's floor that cannot read this context: the new floor holds
        return True
    return own is None or own[0] < floor


# ---- a level between two of the target's levels, rounded toward the source's tier -----------
#
# The equating gives a competence; a target writes the level nearest it. Where the competence lies
# between two of the target's levels, both are within one level of it, and the published tiers
# (core.equating.Tier) decide between them: the other level wins over the nearer where its
# competence reads back nearer the source skill's own tier and it stands no further from that
# tier's rank in the target's own tiers; else the nearer stays. So a trip A -> B -> A keeps a
# professional a professional where one of B's two neighbouring levels can say so (a CoC Handgun
# 50 does not come back as 51 through a GURPS level that reads as 51), and never by writing B a
# level of a farther tier than the nearer one (a GURPS Guns (Pistol)-13 stays nWoD Firearms 3,
# professional in both, though 3 reads back as Guns-14). Ordering holds: of two source levels,
# the higher never gets the lower of the same two target levels (both tier distances' differences
# between the upper and the lower level fall as the source's tier rises).
TIER_RULE = "core.tiers"


class TierSources:
    """The source sheet's skill behind each neutral skill a target writes (``Combatant.sheet_skills``
    of another installed system with published tiers): its system, native name, level, tier rank
    and the context its own levels are read in, found once per neutral skill when first asked."""

    def __init__(self, target: "System", combatant: Combatant) -> None:
        self.target = target
        self.combatant = combatant
        self._found: dict[str, Any] = {}
        self._contexts: dict[str, dict[str, Any]] = {}

    def _context(self, source: "System") -> dict[str, Any]:
        ctx = self._contexts.get(source.key)
        if ctx is None:
            try:
                ctx = dict(source.characteristics_from_neutral(self.combatant.characteristics, Collector(source.key),
                                                               default=None))
            except Exception:  # noqa: BLE001 - without its characteristics, its levels at the median adult
                ctx = {}
            self._contexts[source.key] = ctx
        return ctx

    def of(self, key: str) -> "tuple[System, str, Any, int, dict[str, Any]] | None":
        if key in self._found:
            return self._found[key]
        found = []
        for native, said in self.combatant.sheet_skills.items():
            if key not in said.covers or said.system == self.target.key or isinstance(said.level, bool) \
                    or not isinstance(said.level, (int, float)):
                continue
            source = installed_system(said.system)
            tiers = source.tiers(native) if source is not None else ()
            if len(tiers) < 2:
                continue
            ctx = self._context(source)
            found.append((source, native, said.level, equating.tier_of(tiers, said.level).rank, ctx))
        best = found[0] if len(found) == 1 else None
        if len(found) > 1:  # the one that crossed: the best (skills_to_neutral)
            try:
                best = max(found, key=lambda f: f[0].competence(f[1], f[2], {**f[4], "@key": key}))
            except Exception:  # noqa: BLE001 - a level its ladder has no step for: no tier to keep
                best = None
        self._found[key] = best
        return best


_TIER_SOURCES: "ContextVar[TierSources | None]" = ContextVar("xsys_tier_sources", default=None)


@contextmanager
def writing_for(system: "System", combatant: Combatant | None) -> Iterator[None]:
    """While `system` writes `combatant`'s stat block: its levels are rounded toward the tiers of
    the skills the combatant's sheet states (``tier_choice``). Every npc_from_neutral runs in it;
    a reader that asks what a writer would have written for a carried line (core.skillplan) too."""
    token = _TIER_SOURCES.set(TierSources(system, combatant) if combatant is not None else None)
    try:
        yield
    finally:
        _TIER_SOURCES.reset(token)


def level_written(system: "System", native: str, key: str, competence: float,
                  context: Mapping[str, Any] | None = None) -> Any:
    """The level `system` writes for `competence` of neutral skill `key` as `native` (its
    ``written_level`` of the nearest, or of the neighbour that keeps the tier of the source skill
    ``writing_for`` names), as skills_from_neutral writes it."""
    ctx = dict(context or {})
    tiered = tier_steps(system, native, [key], ctx, {key: competence})
    level = tiered[0].native if tiered is not None else system.level_for(native, competence, {**ctx, "@key": key})
    return system.written_level(native, level, {**ctx, "@key": key})


def _step_at(lad: Ladder, step: Step) -> Step:
    """The step of `lad` for the native level of `step` (another neutral skill's ladder of one skill)."""
    return lad.step_of(step.native) if lad.has_native(step.native) else step


def source_tier(key: str) -> "tuple[System, str, Any, int, dict[str, Any]] | None":
    """During a target's ``npc_from_neutral``: the source sheet's skill behind neutral skill `key` (its
    system, native name, level, tier rank and the context its levels are read in; TierSources), or None."""
    sources = _TIER_SOURCES.get()
    return sources.of(key) if sources is not None else None


def tier_steps(system: "System", native: str, keys: Sequence[str], context: Mapping[str, Any],
               chances: Mapping[str, float], key: str | None = None) -> tuple[Step, str, str] | None:
    """Where source skills of other systems are behind the neutral skills in `keys` that `system`
    writes as `native`, and the competence of `key` (default: the highest of them), whose step is
    written, lies between two of its levels: (the step that keeps the sources' tiers, the trace's
    note, `key`) when that is not the nearest step (see above, ``core.tiers``); else None.

    Answered once per target and everything the answer depends on (:func:`_tier_key`): the skill,
    its neutral skills' competences and the ladders they are read on, and each source skill behind
    them (its system, name, level, tier and ladder); a roster's NPCs that state the same skill at
    the same level ask it once, whatever their other characteristics."""
    sources = _TIER_SOURCES.get()
    if sources is None or not keys:
        return None
    key = key or max(keys, key=lambda k: chances[k])  # the neutral skill whose step is written
    if not getattr(system, "remember", True):
        return _tier_steps(system, native, keys, context, chances, key)
    try:
        mkey, held = _tier_key(sources, system, native, keys, context, chances, key)
        table = system.__dict__.get("_tier_steps")
        if table is None:
            table = system.__dict__["_tier_steps"] = {}
        found = table.get(mkey)
    except Exception:  # noqa: BLE001 - nothing to key on (a value no key holds, a ladder or floor a
        # plugin cannot give for a key the answer may not ask about): worked out as it is, which
        # raises only where the answer itself asks
        return _tier_steps(system, native, keys, context, chances, key)
    if found is None:
        found = (_tier_steps(system, native, keys, context, chances, key), held)
        if len(table) >= memo.LIMIT:
            table.clear()
        table[mkey] = found
    return found[0]


def _tier_key(sources: "TierSources", system: "System", native: str, keys: Sequence[str],
              context: Mapping[str, Any], chances: Mapping[str, float], key: str) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """What :func:`_tier_steps` reads, as a key, and the objects the key names by identity (held
    by the table's entry, so no other object takes their ids): `native` and `key`; each of `keys`
    with its competence and the target's ladder of `native` for it (a skill's levels and
    competences are its ladder's: ``skill_ladder`` builds one per distinct ``skill_context``);
    the source skill behind it (``TierSources.of``: its system, name, level and tier rank, its
    ladder there, and its floor where the target leaves a level out, which reads back as the
    floor); whether the sources are this target's."""
    held: list[Any] = []
    parts: list[Any] = [native, key, sources.target is system]
    unstated = None
    for k in keys:
        lad = system.skill_ladder(native, {**context, "@key": k})
        held.append(lad)
        f = sources.of(k)
        if f is None:
            parts.append((k, float(chances[k]), id(lad), None))
            continue
        source, src_native, stated, rank, src_ctx = f
        their = source.skill_ladder(src_native, {**src_ctx, "@key": k})
        held += (source, their)
        if unstated is None:
            sheet = getattr(system, "sheet", None)
            unstated = isinstance(sheet, _sheet.Sheet) and sheet.unstated_level is not None
        floor = source.skill_floor(src_native, src_ctx) if unstated else None
        parts.append((k, float(chances[k]), id(lad), id(source), src_native, stated, type(stated), rank,
                      id(their), floor))
    return tuple(parts), tuple(held)


def _tier_steps(system: "System", native: str, keys: Sequence[str], context: Mapping[str, Any],
                chances: Mapping[str, float], key: str) -> tuple[Step, str, str] | None:
    competence = float(chances[key])
    lad = system.skill_ladder(native, {**context, "@key": key})
    steps = lad.steps
    i = lad.index_for(competence)
    near = steps[i]
    j = i + 1 if near.rep < competence else i - 1 if near.rep > competence else -1
    others = [steps[j]] if 0 <= j < len(steps) else []
    if j != i + 1 and i + 1 < len(steps) and _unwritten(system, near.native):
        # the nearest is a level the sheet leaves out, which reads back as nothing (the source's
        # untrained level), not as its competence: the first level written above it is a choice too
        others.append(steps[i + 1])
    if not others:
        return None
    # about midway (the competence lies in the middle half between the two levels' competences):
    # the equating cannot tell them apart, and the target's own tier may decide too (tier_choice)
    span = abs(others[0].rep - near.rep)
    midway = span > 0 and abs(competence - near.rep) >= span / 4
    chosen = tier_choice(system, native, keys, context, (near.native, *(st.native for st in others)), near.native,
                         key, midway=midway)
    if chosen is None:
        return None
    return next(st for st in others if st.native == chosen[0]), chosen[1], key


def _unwritten(system: "System", level: Any) -> bool:
    """Whether `level` is one `system`'s sheet leaves out (nWoD and Polish 0: Sheet.unstated_level),
    which reads back as nothing."""
    sheet = getattr(system, "sheet", None)
    unstated = sheet.unstated_level if isinstance(sheet, _sheet.Sheet) else None
    try:
        return unstated is not None and level <= unstated
    except TypeError:
        return False


def tier_choice(system: "System", native: str, keys: Sequence[str], context: Mapping[str, Any],
                candidates: Sequence[Any], default: Any, key: str | None = None,
                midway: bool = False) -> tuple[Any, str] | None:
    """Of two levels `candidates` of `native` around what a conversion gives (the nearest is
    `default`), the one that keeps the tiers of the source skills behind the neutral skills in
    `keys` (skills of other installed systems with published tiers, one behind each key; see
    above), with the trace's note; None where that is `default` or a key has no such source skill.
    Where several source skills are behind a broad skill (Polish Broń krótka 5 and Broń długa 5 as
    nWoD Firearms), their distances add up. A plugin that snaps a level to one its rules allow (a
    GURPS 3e skill at its default or at a level points buy) asks it for the two it snaps between.
    Where the competence lies about `midway` between the two (the equating cannot tell them apart)
    and both read back in the sources' tiers, the one that stands in them in the target's own
    tiers too, unless only the nearer reads back as the source's very level."""
    sources = _TIER_SOURCES.get()
    if sources is None or sources.target is not system or not keys:
        return None
    by: dict[tuple[str, str], tuple[str, Any]] = {}  # (source system, its skill) -> (a key it is behind, found)
    for k in keys:
        f = sources.of(k)
        if f is None:
            return None
        by.setdefault((f[0].key, f[1]), (k, f))
    own = system.tiers(native)

    # a level the sheet leaves out (nWoD and Polish 0: Sheet.unstated_level) reads back as nothing;
    # a GURPS skill left out at its default reads back as that default (its silence says it)

    def off(level: Any) -> tuple[int, int, list[Any], int, float]:
        rb = mine = moved = 0
        far = 0.0  # how far what reads back lies from the stated level, in the source's competence
        backs = []
        for k, (source, src_native, stated, rank, src_ctx) in by.values():
            if _unwritten(system, level):  # read back as nothing: the source writes what the NPC has untrained
                base = source.skill_floor(src_native, src_ctx)
                back = base[0] if base is not None else list(source.skill_levels(src_native))[0]
                said = f"no line, {source.level_text(src_native, back)} untrained"
            else:
                back = source.level_for(src_native, system.competence(native, level, {**context, "@key": k}),
                                        {**src_ctx, "@key": k})
                said = source.level_text(src_native, back)
            apart = abs(equating.tier_of(source.tiers(src_native), back).rank - rank)
            rb += apart
            mine += abs((equating.tier_of(own, level).rank if len(own) > 1 else rank) - rank)
            moved += back != stated
            if apart:  # (only what reads back out of its tier is measured)
                at = {**src_ctx, "@key": k}
                far += abs(source.competence(src_native, back, at) - source.competence(src_native, stated, at))
            backs.append(said)
        return rb, mine, backs, moved, far

    scored = {default: off(default)}
    if scored[default][:2] == (0, 0):
        return None  # the nearer one reads back in the source's tiers and is in its own: nothing to better
    scored.update({lv: off(lv) for lv in candidates if lv != default})
    # reads back nearer the sources' tiers, and is no further from them in the target's own tiers;
    # or, where the nearer one reads back in them already, reads back in them too and is in them;
    # or, where neither reads back in them, stands nearer them in the target's own tiers and reads
    # back nearer the stated level (a Polish 0 the sheet leaves out reads back as the untrained base)
    better = [lv for lv in candidates if lv != default and (
        (scored[lv][0] < scored[default][0] and scored[lv][1] <= scored[default][1])
        or (midway and scored[default][0] == 0 and scored[lv][:2] == (0, 0) and scored[lv][3] <= scored[default][3])
        or (scored[lv][0] == scored[default][0] > 0 and scored[lv][1] < scored[default][1]
            and scored[lv][4] < scored[default][4]))]
    if not better:
        return None
    best = min(better, key=lambda lv: scored[lv][:2])  # the nearest the tiers; on a tie, the earlier
    said = " and ".join(f"{source.level_text(src_native, level)} ({source.key}) is "
                        f"{equating.TIER_NAMES[rank] if 0 <= rank < len(equating.TIER_NAMES) else rank}"
                        for _, (source, src_native, level, rank, _) in by.values())
    own = equating.tier_of(system.tiers(native), best).rank
    own_said = f"{equating.TIER_NAMES[own] if 0 <= own < len(equating.TIER_NAMES) else own} in {system.key}'s own tiers"
    was, now = system.level_text(native, default), system.level_text(native, best)
    back_was, back_now = and_list(scored[default][2]), and_list(scored[best][2])
    if scored[best][0] == scored[default][0] > 0:  # neither reads back in the tiers: its own tier decides
        how = (f"{was} would read back as {back_was}, {now} reads back as {back_now}, nearer the level stated, "
               f"and is {own_said}")
    elif scored[best][0] == scored[default][0]:  # both read back in the tiers: about midway, its own tier decides
        how = (f"about midway, {was} and {now} both read back in it (as {back_was} and as {back_now}), "
               f"and {now} is {own_said}")
    else:
        how = f"{was} would read back as {back_was}, {now} reads back as {back_now}"
    note = f"; rounded toward the source's tier: {said}; {how} [{TIER_RULE}]"
    return best, note


def _no_registry(key: str) -> "System | None":
    return None


# The installed system of a key, for a system equated on another's checks (skill_scale_checks):
# core.registry, which imports this module, sets it to its process-wide registry's look-up.
installed_system: Callable[[str], "System | None"] = _no_registry


def on_scale(block: Any, scale_name: str) -> dict[str, Any] | None:
    """The characteristics a system's native block remembers on the named
    ``characteristic_scale`` (System.scale_levels: values, percentiles, stated health), or None
    where the block names another scale or none."""
    scale = block.get("scale") if isinstance(block, dict) else None
    chars = scale.get("characteristics") if isinstance(scale, dict) else None
    return chars if isinstance(chars, dict) and scale_name and chars.get("name") == scale_name else None


def _beyond_ends(system: "System", native: str, ctx: Mapping[str, Any], written: Any, keys: Sequence[str],
                 chances: Mapping[str, float]) -> list[tuple[str, float, str, float]]:
    """The neutral skills whose competence the native skill cannot come near: the level
    `written` is its highest (lowest) one, and the competence lies beyond that level's by
    more than half the step to the next level, so no rounding explains it (a ``clamped``
    loss, not a ``rounded`` one). Returns (neutral skill, competence, "top" or "bottom", the
    competence of the level written)."""
    out: list[tuple[str, float, str, float]] = []
    for k in keys:
        steps = system.skill_ladder(native, {**ctx, "@key": k}).steps
        v = float(chances[k])
        if written == steps[-1].native:
            half = (steps[-1].rep - steps[-2].rep) / 2 if len(steps) > 1 else 0.0
            if v > steps[-1].rep + half + 1e-9:
                out.append((k, v, "top", steps[-1].rep))
        if written == steps[0].native:
            half = (steps[1].rep - steps[0].rep) / 2 if len(steps) > 1 else 0.0
            if v < steps[0].rep - half - 1e-9:
                out.append((k, v, "bottom", steps[0].rep))
    return out


def _battery_note(neutral_skill: str) -> str:
    cls = SKILLS.get(neutral_skill)
    if cls is None and reference_class(neutral_skill):
        from .melee import MELEE_ATTACKS

        return (f"equated over the close-combat battery with a {reference_class(neutral_skill)} reference weapon: "
                f"chance a standard adult is down within {MELEE_ATTACKS} blows [core.melee]")
    if cls is None:
        from .vocab import UNTRAINED

        if neutral_skill in UNTRAINED:
            return ("linked on the published competence scale (untrained, tiers) where the system states "
                    "them, else the unmodified roll [core.equating]")
        return "equated on the unmodified roll [core.equating]"
    return f"equated over the {cls} battery: chance a standard adult is down within three shots [core.equating]"


# ---- ladder builders shared by systems --------------------------------------------



def with_tails(dist: Mapping[int, Fraction], lo: int, hi: int) -> dict[int, Fraction]:
    """A population of whole values (ordinary adults) with every value of `lo`..`hi` it never
    gives (a creature's STR 24) in the outer millionth at each end (TAIL_SHARE, taken from the
    end value's share, split evenly among that end's values): a stated value reads and writes
    in order without a clamp, and every other value keeps its band exactly. A system whose table
    ends at ordinary adults meets such a value as the top of its own (the audit says so:
    clamped). Two systems' tails meet in order only, not by magnitude (their values are spread
    evenly over the millionth): tails suit systems whose numbers pass by a shared scale (the
    Call of Cthulhu editions); a GURPS ST 25 in a tail of 19-30 came to coc as STR 62."""
    out = dict(dist)
    for end, rare in ((min(out), range(lo, min(out))), (max(out), range(max(out) + 1, hi + 1))):
        if len(rare):
            out[end] -= TAIL_SHARE
            out.update({v: TAIL_SHARE / len(rare) for v in rare})
    return dict(sorted(out.items()))


def percentile_ladder(name: str, dist: Mapping[int, Fraction] | Dist, rule: str, source: Source) -> Ladder:
    """Native values distributed as `dist` among ordinary adults -> percentile ladder.
    Value v covers the percentile interval [P(X < v), P(X <= v)); its representative is
    the middle of that interval."""
    rows = []
    below = Fraction(0)
    for v in sorted(dist):
        p = Fraction(dist[v])
        if p == 0:
            continue
        rows.append(Step(v, float(below), rule, source, rep=float(below + p / 2)))
        below += p
    return Ladder.build(name, "percentile", rows, rounding="down", native_order="increasing")


_DATA_LADDERS: dict[str, dict[str, Ladder]] = {}  # data_package -> its [ladder.NAME] tables, built
# (data_package, roll, rule prefix) -> its [characteristics] on that roll's percentile ladders
_DATA_CHARACTERISTICS: dict[tuple[str, str, str], dict[str, "CharacteristicSpec"]] = {}
Converter = Callable[[Any], Result[Any]]
__all__ = [
    "System", "CharacteristicSpec", "percentile_ladder",
    "SKILLS",
]


for _name, _typed in REMEMBERED:  # the base class's own answers are remembered like a subclass's
    setattr(System, _name, memo.method(System.__dict__[_name], _typed))
System.npc_from_neutral = _planned(System.__dict__["npc_from_neutral"])  # type: ignore[method-assign]
