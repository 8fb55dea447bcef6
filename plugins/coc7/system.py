"""Call of Cthulhu 7th edition as an xsys system: the declaration that binds the game (rules.py,
:class:`Coc7Rules` on the core's d100 family, :class:`xsys.core.percentile.PercentileSystem`) and
the stat block's mapping (sheet.py, :class:`Coc7Sheet`).

From the d100 family it inherits the armor-file machinery (``armor_file`` -> ``armor_ladders``/
``armor_value``/``barrier_value``), the rule register, the skill-table lookups (``skills``/
``skill_class``/``skill_for_class``/``skill_floor``), the published tiers, catalog lookups
(``find_weapon``), the resolution contract (``resolve`` returning success and Extreme chances)
and the skill contract (``check_at`` = ``evaluate(situation_from_shot(shot, skill_value=level))``,
``roll_chance`` = ``resolve(level)``; the core equates the levels). Of the ``coc`` plugin it uses
only the stat-block text layout both editions share.
"""

from __future__ import annotations

from typing import ClassVar, Mapping, Sequence

from xsys.core.formulas import Formula
from xsys.core.ladder import Ladder
from xsys.core.sheet import Sheet
from xsys.core.units import Duration

from .model import Coc7Carried, Coc7Npc, Coc7Shot
from .rules import (HERE, characteristic_specs, damage_distribution, load_ladders, load_tables,
                    mean_after_armor)
from xsys.core.percentile import LIGHT_AIDS

from .sheet import Coc7Sheet


class Coc7System(Coc7Sheet):
    """Call of Cthulhu 7th edition: d100 with difficulty levels and bonus/penalty dice."""

    key: ClassVar[str] = "coc7"
    # coc7.round: a combat round has no fixed length; read as 6 s (assumed)
    own_units: ClassVar[Mapping[str, tuple[type, float]]] = {"coc7_round": (Duration, 6.0)}
    name: ClassVar[str] = "Call of Cthulhu"
    edition: ClassVar[str] = "7th edition"
    dice: ClassVar[str] = "d100 roll-under; Regular/Hard/Extreme at 1, 1/2, 1/5 of the skill; bonus/penalty dice"
    rule_prefix: ClassVar[str] = "coc7."
    npc_type: ClassVar[type] = Coc7Npc
    # The stat block as the core converts it (xsys.core.sheet): a skill is equated at the NPC's
    # own characteristics (a Fighting skill at its STR + SIZ, as coc's); Sanity, Magic Points,
    # Luck, spells and skills no neutral key holds are carried (a 6th-edition sheet's are the
    # same numbers, coc7.conversion.6e); close combat is a list of its own; the weapon and armor
    # lines as written come back (base range, malfunction); no skill under its untrained base,
    # but a level its own sheet states (a Dodge 30 under DEX / 2) comes back as it was.
    sheet: ClassVar[Sheet | None] = Sheet(
        context=("STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU"),
        carried=("SAN", "MP", "Luck", "spells", "skills"), carried_type=Coc7Carried,
        carried_rule="coc7.derived", carried_rules={"Luck": "coc7.characteristics", "spells": "coc7.characteristics"},
        carried_kin={"coc": ("SAN", "MP", "Luck", "spells", "skills")},
        melee="melee", lines_kept=True, floored=True, levels_kept="levels")
    shot_type: ClassVar[type | None] = Coc7Shot
    # one weapon table in both editions: a 6th-edition line's own damage, base range and
    # malfunction stay on this sheet (core.percentile.PercentileSystem.kin_weapon_line)
    weapon_kin: ClassVar[tuple[str, ...]] = ("coc", "coc-zh")
    # a characteristic written from another system's is a multiple of five, as 3D6 x 5 and
    # (2D6 + 6) x 5 roll them (coc7.characteristics): the x5 of what a coc sheet writes for it
    characteristic_written_step: ClassVar[int] = 5
    weapon_kin_rule: ClassVar[str] = "coc7.conversion.6e"
    armor_points_field: ClassVar[str] = "armor"  # Coc7Armor.armor (coc7.armor)
    armor_table_rule: ClassVar[str] = "coc7.armor"
    armor_reads: ClassVar[str] = "{} points"

    #: The armor list, in the public armor-file schema of ``coc`` (an absolute path).
    armor_file: ClassVar[str] = str(HERE / "armor.toml")

    #: coc7.derived: HP = (CON + SIZ) / 10 rounded down averages 11.5 over adults rolled by
    #: coc7.characteristics (CON 3D6 x 5, SIZ (2D6 + 6) x 5); assumed, see the README.
    standard_health: ClassVar[float] = 11.5
    health_rule: ClassVar[str] = "coc7.derived"
    health_formula: ClassVar[str] = "(CON + SIZ) / 10"
    # the 7th-edition rulebook gives ranges and movement in yards: its sheets show lengths so
    length_unit: ClassVar[str] = "yd"
    skill_rule: ClassVar[str] = "coc7.skills"
    # coc7.conversion.6e: earlier editions' characteristics x5 (Chaosium); skills keep their %
    characteristic_scale: ClassVar[str] = "call-of-cthulhu"
    characteristic_factor: ClassVar[int] = 5
    characteristic_rule: ClassVar[str] = "coc7.conversion.6e"
    # ... and for that reason its skills are equated on coc's checks: a GURPS Guns-16 is the
    # same percentage in both editions, direct or through coc (its own checks still roll shots)
    skill_scale_checks: ClassVar[str] = "coc"
    skill_scale_rule: ClassVar[str] = "coc7.conversion.6e"
    # its own carried block: a coc7 sheet skill carried through another system is read back on
    # coc7's ladders, not on coc's (whose namespace the parent class names)
    carried_namespaces: ClassVar[tuple[str, ...]] = ("coc7",)
    # one skill list as d100 percentages, the one coc writes (coc7.conversion.6e)
    skill_scale: ClassVar[str] = "call-of-cthulhu-percent"
    health_field: ClassVar[str] = "HP"
    #: coc7.skills: the Keeper Rulebook's skill chart, the one coc states (tables.toml [tiers])
    tier_rule: ClassVar[str] = "coc7.skills"

    #: Plain-text stat blocks: the Call of Cthulhu block (the coc_block format plugin), read as
    #: 7th edition (its own values) and written with 7th edition's weapon and armor fields
    text_block: ClassVar[str | None] = "call-of-cthulhu"

    def formulas(self) -> Sequence[Formula]:
        """What ``xsys rules coc7 RULE-ID --NAME VALUE`` evaluates (formulas.py). The rule
        register's notes (``rule_notes``) are inherited: they read this plugin's [rule]."""
        from .formulas import FORMULAS

        return tuple(FORMULAS)

    def ladders(self) -> dict[str, Ladder]:
        """Every ladder the checks and conversions use (the conformance kit checks each)."""
        out = self.table_ladders()
        out.update(self.armor_ladders())
        for native, spec in self.characteristics().items():
            out[f"characteristic.{native}"] = spec.ladder
        return out


__all__ = ["Coc7System", "load_tables", "load_ladders", "characteristic_specs",
           "damage_distribution", "mean_after_armor", "LIGHT_AIDS"]
