"""Call of Cthulhu with the Japanese firearms house rules (the Japanese CoC firearms text,
digest shared/rules/coc-ja-firearms.md) as an xsys system.

Replaceable parts for variants (README, "Public API for variants"):
- the armor list: ``armor_file`` / ``armor_path()`` / ``armor_data()`` (a TOML in the
  schema of armor.toml) -> ``armor_ladders()``, ``armor_value()``, ``barrier_value()``;
- the darkness rule: ``darkness_ladder()`` and ``light_effect(situation)``;
- the resolution: ``resolve(target)`` (success and impale chances of a d100 roll).

What every d100 roll-under system shares (the armor-file machinery, the rule register, the skill
tables and base chances, the tiers, the close-combat check) is the core's
:class:`xsys.core.percentile.PercentileSystem`, which this class declares its rules on. The game is
rules.py (:class:`CocRules`: one shot's check and the formulas), the stat block's mapping to the
neutral model sheet.py (:class:`CocSheet`); this module is the declaration that binds them.
"""

from __future__ import annotations

from typing import ClassVar, Mapping, Sequence

from xsys.core import dice
from xsys.core.formulas import Formula
from xsys.core.ladder import Ladder
from xsys.core.percentile import LightEffect, build_armor_ladders  # noqa: F401 (public: xsys.plugins.coc)
from xsys.core.sheet import Sheet
from xsys.core.units import Duration

from . import rules
from .model import CocCarried, CocNpc, CocShot
from .rules import COC_TIERS, FIREARM_SKILLS, Situation, damage_bonus  # noqa: F401 (public: xsys.plugins.coc)
from .sheet import CocSheet


class CocSystem(CocSheet):
    """Call of Cthulhu (d100, BRP family) with the Japanese firearms rules."""

    key: ClassVar[str] = "coc"
    # coc-ja.round: a combat round is 3 s (seed)
    own_units: ClassVar[Mapping[str, tuple[type, float]]] = {"coc_round": (Duration, 3.0)}
    name: ClassVar[str] = "Call of Cthulhu"
    edition: ClassVar[str] = "5th/6th edition framework, Japanese firearms house rules"
    dice: ClassVar[str] = "d100 roll-under"
    # one skill list as d100 percentages, shared with the Chinese rules (coc-zh glossary: the same skills)
    skill_scale: ClassVar[str] = "call-of-cthulhu-percent"
    # 5th/6th-edition characteristics are the 3d6 scale 7th edition writes x5 (coc7.conversion.6e)
    characteristic_scale: ClassVar[str] = "call-of-cthulhu"
    characteristic_rule: ClassVar[str] = "coc-ja.characteristics"
    rule_prefix: ClassVar[str] = "coc-ja."
    npc_type: ClassVar[type] = CocNpc
    # The stat block as the core converts it (xsys.core.sheet): skills equated at the NPC's own
    # characteristics, exact levels kept for the way back ("levels"); Sanity, Magic Points, Luck,
    # spells and skills no neutral key holds carried (a 7th-edition sheet's Sanity, Magic Points,
    # spells and skills are the same numbers, coc7.conversion.6e; not its rolled Luck, which this
    # edition derives); close combat as a list of its own; weapon and armor lines kept; no skill
    # under its base chance.
    sheet: ClassVar[Sheet | None] = Sheet(
        context=("STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU"),
        carried=("SAN", "MP", "Luck", "spells", "skills"), carried_type=CocCarried,
        carried_rule="coc-ja.derived", carried_rules={"spells": "xsys.carried"},
        carried_kin={"coc7": ("SAN", "MP", "spells", "skills")},
        melee="melee", lines_kept=True, floored=True, levels_kept="levels")
    shot_type: ClassVar[type | None] = CocShot
    #: The namespace of the neutral NPC's carried block (xsys.core.carried) that a coc stat
    #: block reads and writes: SAN, MP, Luck, spells and skills no neutral key holds. A variant
    #: (coc-zh) shares it, so Sanity crosses between them and through every other system.
    carried_namespaces: ClassVar[tuple[str, ...]] = ("coc",)
    # 6th and 7th edition print one weapon table: a 7e line's own damage, base range and
    # malfunction stay on this sheet (core.percentile.PercentileSystem.kin_weapon_line)
    weapon_kin: ClassVar[tuple[str, ...]] = ("coc7",)
    weapon_kin_rule: ClassVar[str] = "coc7.conversion.6e"

    #: The armor list (coc-ja.armor.table). A variant points this at its own file (an
    #: absolute path) or overrides armor_path()/armor_data().
    armor_file: ClassVar[str] = "armor.toml"
    armor_table_rule: ClassVar[str] = "coc-ja.armor.table"  # an armor line's points (A and B)

    #: Plain-text stat blocks: the Call of Cthulhu block (the coc_block format plugin): English,
    #: Japanese and Chinese, 5th/6th and 7th edition.
    text_block: ClassVar[str | None] = "call-of-cthulhu"

    def ladders(self) -> dict[str, Ladder]:
        out = self.table_ladders()
        out["darkness"] = self.darkness_ladder()
        out.update(self.armor_ladders())
        for native, spec in self.characteristics().items():
            out[f"characteristic.{native}"] = spec.ladder
        out["encumbrance.example"] = rules.encumbrance_ladder(11, 13)
        return out

    def formulas(self) -> Sequence[Formula]:
        """``xsys rules`` formulas of the coc-ja.* rules (formulas.py), those of them whose rules
        this system has: a variant keeping coc's tables keeps them, a system built on this class
        with rules of its own inherits none it does not implement."""
        from .formulas import armor_table, formulas_of

        return formulas_of(self, (armor_table("coc-ja.armor.table"),))

    # the standard adult: HP = (CON + SIZ) / 2 rounded up with CON 3d6 (mean 10.5) and SIZ
    # 2d6+6 (mean 13) gives 12 (coc-ja.hp; the population is assumed)
    standard_health = 12.0
    health_rule = "coc-ja.hp"
    health_field = "HP"
    health_formula = "HP = ceil((CON + SIZ) / 2)"
    skill_rule = "coc-ja.skills"
    damage_rule = "coc-ja.damage"  # coc-zh cites it too: its firearms are coc's
    capacity_rule = "coc-ja.reload.magazine"

    # ==== close combat: the close-combat battery's check (core.melee) ==========
    # The reference weapons' dice as the coc-ja.melee lines write them (Fist/Punch 1d3+db,
    # Club 1d6+db); the defender's median Dodge is DEX x 2 at the median DEX 10.5 (the
    # [skills] Dodge base), his bare-handed parry the Fist/Punch base 50 (README, close combat).
    MELEE_DICE: ClassVar[dict[str, tuple[int, int, int]]] = {"unarmed": (1, 3, 0), "club": (1, 6, 0)}
    MEDIAN_DODGE: ClassVar[int] = 21
    MEDIAN_PARRY: ClassVar[int] = 50
    PARRY_NAME: ClassVar[str] = "Fist/Punch parry"
    TIERS: ClassVar[tuple[tuple[int, str, int, int], ...]] = COC_TIERS
    melee_rule: ClassVar[str] = "coc-ja.melee"
    # (rule, source) of each close-combat rule this system applies; coc-zh's text states them
    MELEE_RULES: ClassVar[dict[str, tuple[str, str]]] = {
        "darkness": ("coc-ja.darkness", "assumed"),  # the firearm darkness rule read for close combat
        "dodge": ("coc-ja.melee", "assumed"),
        "parry": ("coc-ja.melee", "assumed"),
        "parry-weapon": ("coc-ja.melee", "assumed"),
        "armor": ("coc-ja.armor.table", "seed"),
    }




__all__ = ["CocSystem", "Situation", "LightEffect", "build_armor_ladders", "FIREARM_SKILLS"]
