"""GURPS 3rd edition (Japanese Basic Set) as an xsys system: 3d6 roll-under, the situation tables
of the GURPS 3e tables text (digest: shared/rules/gurps-3e-tables.md).

Tables are data (tables.toml: ladders; rules.toml: crit/fumble/fright/maneuver tables;
weapons.toml: assumed weapon lines). The game is rules.py (:class:`GurpsRules`: the formulas of
`gurps.ranged-attack`, damage, close combat, tiers), the character sheet's mapping to the neutral
model is sheet.py (:class:`GurpsSheet`), and this module is the declaration that binds them.
"""

from __future__ import annotations

from typing import Any, Sequence

from xsys.core import dice
from xsys.core.dice import roll_under  # noqa: F401 (importable from here, as before)
from xsys.core.formulas import Formula, RuleNote
from xsys.core.ladder import Ladder
from xsys.core.shotsheet import ShotSheet, ShotWord
from xsys.core.system import CharacteristicSpec, percentile_ladder
from xsys.core.units import Duration, Length
from xsys.core.vocab import cartridge_in_name  # noqa: F401 (importable from here, as before)

from .native import NATIVE_ONLY, GurpsNpc, GurpsShot
from .rules import (ATTRIBUTES, BANDS, EXPOSURE_MOD, LINE_SKILLS, MINDS, SKILLS, _formulas, _rof, _roll_text, attribute_distribution,
                    dice_code, dice_text, effective_distance, lookup, melee_damage, rule_tables, success,
                    table_ladders, thrust_swing)
from .sheet import MAX_AIM_TURNS, TURN_SECONDS, GurpsSheet


class Gurps(GurpsSheet):
    key = "gurps"
    # gurps.maneuvers: a turn is one second; a hex is one metre (this edition's tables are metric:
    # assumed, gurps.ssr reads distances in metres)
    own_units = {"gurps_turn": (Duration, TURN_SECONDS), "hex": (Length, 1.0)}
    name = "GURPS"
    edition = "3rd edition (Japanese Basic Set)"
    dice = "3d6 roll-under"
    rule_prefix = "gurps."
    npc_type = GurpsNpc
    shot_type = GurpsShot
    line_skills = LINE_SKILLS  # Axe, Knife and Spear Throwing: written beside a thrown blade's line
    # shots: the core's (xsys.core.shotsheet), from this declaration; the weapon, the light, the
    # shooter's ST, the hit location, a pop-up attack and blind fire are sheet.py's
    shot_sheet = ShotSheet(
        skill="level", stated_skill="skill", aim=("aim_turns", TURN_SECONDS, MAX_AIM_TURNS), aim_rule="gurps.maneuvers.aim",
        barrier="barrier", target_armor="target_armor", target_posture="target_posture",
        same={"target_speed": "target.speed", "target_height": "target.height", "braced": "shooter.braced",
              "shooter_posture": "shooter.posture", "shooter_speed": "shooter.speed", "off_hand": "shooter.off_hand",
              "elevation": "elevation", "underwater": "underwater"},
        native_only={f: rule for f, rule in NATIVE_ONLY.items() if f != "blind_fire"},
        words=(ShotWord("exposure", "target.cover.exposure", "exposure", form="native", names=EXPOSURE_MOD),))
    shot_rules = {"light.illuminance": "gurps.hit-modifiers", "target.armor": "gurps.armor", "weapon": "gurps.weapon-stats",
                  "shooter.aim_time": "gurps.maneuvers.aim"}

    def __init__(self, settings: Any = None) -> None:
        super().__init__(settings)
        self._lad = table_ladders()
        self._attr = percentile_ladder("attribute", attribute_distribution(), "gurps.population", "assumed")

    # ---- tables ------------------------------------------------------------------------
    def text_layout(self) -> Any:
        """Plain-text stat blocks: the GURPS block (text.py)."""
        from .text import GurpsText  # the block's reader is loaded when a block is read

        return GurpsText(self.key, thrust_swing, dice_text)

    def ladders(self) -> dict[str, Ladder]:
        return {**self._lad, "attribute": self._attr}

    def ladder(self, name: str) -> Ladder:
        return self.ladders()[name]

    def characteristics(self) -> dict[str, CharacteristicSpec]:
        specs = self.__dict__.get("_specs")  # made once per instance; each caller gets its own dict
        if specs is None:
            specs = self.__dict__["_specs"] = {k: CharacteristicSpec(v, self._attr) for k, v in ATTRIBUTES.items()}
        return dict(specs)

    def skills(self) -> dict[str, tuple[str, ...]]:
        return dict(SKILLS)

    # ---- skills: levels, the unmodified roll, the check at a level (equating: core) ----
    standard_health = 10.0  # HP = HT, and HT 10 is the average adult (gurps.derived, gurps.population)
    health_rule = "gurps.derived"
    health_field = "HP"
    health_formula = "HP = HT (x a creature's bulk: gurps.size)"
    health_range = (1, 999)  # a creature's (a 妖怪's HP 93: HT 13 and Extra Hit Points 80)
    # The levels' results come from the check, whose modifiers are the seed's, but whose
    # critical bands (gurps.resolution: 3-4 / 17-18 ...) and battery weapons are assumed.
    skill_source = "assumed"

    def derived_characteristics(self) -> dict[str, str]:
        return {neutral: f for f, neutral in MINDS.items()}  # gurps.derived: Will and Per

    def derived_skills(self) -> dict[str, str]:
        return {"dodge": "Dodge"}  # gurps.derived: Dodge is on every stat block, not a skill

    def rule_ids(self) -> set[str]:
        ids = super().rule_ids()
        for rid, table in rule_tables().items():
            ids.add(rid)
            ids |= {f"{rid}.{row['key']}" for row in table["rows"] if "key" in row}
        ids |= {"gurps.ranged-attack", "gurps.resolution", "gurps.population", "gurps.derived", "gurps.dodge",
                "gurps.weapon-stats", "gurps.damage", "gurps.armor", "gurps.pd", "gurps.melee", "gurps.defaults",
                "gurps.skill-cost", "gurps.size"}
        return ids

    def formulas(self) -> Sequence[Formula]:
        """``xsys rules gurps`` formulas (formulas.py): SSR, height, resolution, derived
        characteristics, and a row of each rules.toml table by roll or key."""
        return _formulas()

    def rule_notes(self) -> dict[str, RuleNote]:
        """Each rules.toml table and keyed row as the note of its rule (formulas.table_notes)."""
        from .formulas import table_notes

        return table_notes(rule_tables())




__all__ = ["Gurps", "BANDS", "success", "lookup", "rule_tables", "effective_distance", "dice_code", "dice_text"]
