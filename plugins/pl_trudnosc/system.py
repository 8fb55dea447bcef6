"""pl-trudnosc: the Polish firefight rules "Walka strzelecka" (the Polish firefight text,
digest shared/rules/polish-firefight.md) as an xsys system.

The text names no game and never says which dice are rolled (``pl.resolution``), so the
resolution is a named, swappable mechanic (:data:`MECHANICS`), chosen per run through the
settings Struct :class:`PlSettings` or, when no settings are given, the environment
variable ``XSYS_PL_MECHANIC``; the default is ``exploding-2d6`` (README: why). Everything the text does not give
(light, armor, barriers, weapon damage, turn length, trait scales) is an ``assumed`` value
from tables.toml, reported in the Check's modifiers/notes and in the loss report.

The game is rules.py (:class:`PlRules`), the documents model.py, the character sheet's mapping to
the neutral model sheet.py (:class:`PlSheet`); this module is the declaration that binds them.
"""

from __future__ import annotations

import os
from typing import Any, ClassVar, Mapping, Sequence

from xsys.core import codec, dice
from xsys.core.errors import InputError
from xsys.core.formulas import Formula, RuleNote
from xsys.core.ladder import Ladder
from xsys.core.sheet import Sheet
from xsys.core.shotsheet import ShotSheet, ShotWord
from xsys.core.system import CharacteristicSpec
from xsys.core.units import Duration

# documents and the game's names that tests and tools import from this module
from .model import Broń, PlCarried, Postać, Strzał, Umiejętności
from .rules import (DEFAULT_MECHANIC, ENV_MECHANIC, KEY, MECHANICS, Mechanic, PlSettings, _characteristics,
                    _exploding_successes, _exploding_trait, _formulas, _q, aim_modifiers, all_ladders,
                    curve_markdown, grenade, movement, movement_speeds, observe, pass_chance, range_modifier,
                    suppression, suppression_difficulty, tables, turn_seconds)
from .sheet import PlSheet


class PlTrudnosc(PlSheet):
    key: ClassVar[str] = KEY
    # pl.turn: one tura is 3 s (assumed: the text gives no length)
    own_units: ClassVar[Mapping[str, tuple[type, float]]] = {"pl_tura": (Duration, 3.0)}
    name: ClassVar[str] = "Polish firefight rules — Trudność difficulty system"
    edition: ClassVar[str] = "unidentified source (Walka strzelecka)"
    dice: ClassVar[str] = MECHANICS[DEFAULT_MECHANIC].dice  # replaced per instance by the selected mechanic
    rule_prefix: ClassVar[str] = "pl."
    npc_type: ClassVar[type] = Postać
    shot_type: ClassVar[type | None] = Strzał
    settings_type: ClassVar[type | None] = PlSettings

    def __init__(self, settings: Any = None) -> None:
        if settings is None:
            name = os.environ.get(ENV_MECHANIC, "").strip() or DEFAULT_MECHANIC
            if name not in MECHANICS:
                raise InputError(f"unknown dice mechanic in {ENV_MECHANIC}",
                                 expected="one of " + ", ".join(sorted(MECHANICS)), found=repr(name))
            settings = PlSettings(mechanic=name)
        elif isinstance(settings, Mapping):
            settings = codec.convert(dict(settings), PlSettings)
        elif not isinstance(settings, PlSettings):
            raise InputError("pl-trudnosc settings must be PlSettings or a mapping", found=type(settings).__name__)
        self.settings = settings
        self.mechanic = MECHANICS[settings.mechanic]
        self.dice = self.mechanic.dice  # type: ignore[misc]

    # ---- tables --------------------------------------------------------------------
    def text_layout(self) -> Any:
        """Plain-text stat blocks: the block of this system (text.py)."""
        from .text import PlText  # the block's reader is loaded when a block is read

        return PlText(self.key)

    def ladders(self) -> dict[str, Ladder]:
        return dict(all_ladders())

    def characteristics(self) -> dict[str, CharacteristicSpec]:
        return _characteristics()

    def skills(self) -> dict[str, tuple[str, ...]]:
        return {name: tuple(spec["neutral"]) for name, spec in tables()["skills"].items()}

    # ---- skills: levels, the observation roll, the check at a level (equating: core) ----
    # The text has no health or wounds: a standard adult takes 10 damage points (assumed,
    # pl.damage: a generic pistol's 4 points are ~40% of it, a rifle's 9 nearly all, the
    # proportions Call of Cthulhu and GURPS give their standard adult; README).
    standard_health = 10.0
    health_rule = "pl.damage"

    def rule_ids(self) -> set[str]:
        ids = super().rule_ids()
        ids |= {a["id"] for a in tables()["actions"]}
        ids |= {"pl.resolution", "pl.actions", "pl.observe", "pl.shoot", "pl.suppress", "pl.grenade",
                "pl.aim", "pl.sprint", "pl.crawl", "pl.swim", "pl.difficulty.base", "pl.difficulty.range",
                "pl.difficulty.target-motion", "pl.difficulty.shooter-motion", "pl.defence.posture",
                "pl.defence.cover", "pl.traits", "pl.light", "pl.damage", "pl.armor", "pl.barrier", "pl.turn"}
        return ids

    def formulas(self) -> Sequence[Formula]:
        """``xsys rules pl-trudnosc`` formulas (formulas.py): tests, actions, movement."""
        return _formulas()

    def rule_notes(self) -> dict[str, RuleNote]:
        """The ``[[actions]]`` of tables.toml as the notes of their rules (formulas.action_notes)."""
        from .formulas import action_notes

        return action_notes(tables())

    # ---- npc conversions: the core's (xsys.core.sheet), from this declaration -------------
    # level 0 is the trait alone (pl.shoot: test trait z umiejętność): untrained, which every
    # target writes as its own untrained default (CoC's base chance, GURPS's default), so it is
    # not carried as a competence (a Polish NPC without Broń długa is not a CoC rifleman).
    # Zalety are what only these rules state (military training: pl.crawl), carried verbatim.
    sheet: ClassVar[Sheet | None] = Sheet(
        name="imię", notes="opis", skills="umiejętności", weapons="broń", armor="pancerz",
        carried=("Zalety",), carried_rule="pl.crawl", carried_type=PlCarried, unstated_level=0,
        unstated_crosses=False, levels_kept="umiejętności", foreign_native=True, line_name="nazwa")

    # ---- shot conversions: the core's (xsys.core.shotsheet), from this declaration --------
    # the motions, the posture (by silhouette height), the cover (a hidden target: none shows),
    # the aiming turns and the light are words on the tables' ladders; the aim's turn and the
    # light are assumed (pl.turn, pl.light: the text gives neither); a barrier is sheet.py's
    shot_sheet: ClassVar[ShotSheet | None] = ShotSheet(
        weapon="broń", skill="umiejętność", distance="dystans", name="nazwa", shooter="strzelec", target="cel",
        characteristics=("Motoryka",), aids="pomoce_wzroku", target_armor="pancerz_celu", skill_rules=("pl.resolution",),
        words=(ShotWord("ruch_strzelca", "shooter.speed", "shooter_motion", form="label"),
               ShotWord("ruch_celu", "target.speed", "target_motion", form="label"),
               ShotWord("postawa_celu", "target.posture", "posture", form="label"),
               ShotWord("osłona_celu", "target.cover.exposure", "cover", form="label", beyond={"ukryty": 0.0}),
               ShotWord("celowanie", "shooter.aim_time", "aim", form="native", assumed="tura = 3 s assumed",
                        assumed_rule="pl.turn", plain=0),
               ShotWord("oświetlenie", "light.illuminance", "light", form="label",
                        assumed="no light rules in the text", assumed_rule="pl.light", plain="dzień")))
    shot_rules = {"target.armor": "pl.armor", "target.cover.barrier": "pl.barrier", "weapon": "pl.damage"}
