"""Call of Cthulhu with the Chinese core combat rules (the Chinese CoC combat text, digest
shared/rules/coc-zh-combat.md) as a variant of ``coc``.

Built as an outside author would build it: only public names of ``xsys.core.*`` and of
``xsys.plugins.coc``; :class:`CocZhSystem` subclasses ``CocSystem`` and overrides only
what this text says differently (README.md, "How coc-zh builds on coc"):

- the armor list (``coc-zh.armor.table``): ``armor_path()`` / ``armor_data()`` (armor.toml),
  ``armor_ladders()`` (nominal sizes), ``armor_value()`` (the list's items by identity);
- darkness (``coc-zh.darkness``): ``darkness_ladder()`` and ``light_effect()`` (also: a
  partly concealed target is no harder to hit, ``coc-zh.partial-concealment``);
- impales (``coc-zh.impale``): ``resolve()`` (d100 <= chance / 5) and ``evaluate()`` (all
  firearms impale, shot included);
- one armor value per item: the native Structs and their conversions;
- the rule register and the few tables that differ: ``tables()`` merges tables.toml over
  coc's.

Everything else (firearms, range, stances, autofire, characteristics, skills, weapons)
is coc's. The overrides of the game are rules.py (:class:`CocZhRules`), those of the conversions
sheet.py (:class:`CocZhSheet`); this module is the declaration that binds them.
"""

from __future__ import annotations

from typing import Any, ClassVar, Sequence

from xsys.core import dice
from xsys.core.formulas import Formula
from xsys.core.ladder import Ladder
from xsys.plugins.coc import CocSystem

from .model import CocZhNpc, CocZhShot
from .rules import merged_tables, parent
from .sheet import CocZhSheet


class CocZhSystem(CocZhSheet):
    """Call of Cthulhu (d100, BRP family) with the Chinese core combat rules, over coc's
    firearms rules."""

    key: ClassVar[str] = "coc-zh"
    name: ClassVar[str] = "Call of Cthulhu (Chinese combat rules)"
    edition: ClassVar[str] = "5th/6th edition framework, Chinese core combat rules over coc's firearms rules"
    dice: ClassVar[str] = "d100 roll-under"
    rule_prefix: ClassVar[str] = "coc-zh."
    npc_type: ClassVar[type] = CocZhNpc
    shot_type: ClassVar[type | None] = CocZhShot
    #: the system this one varies; its native data in Combatant.native is read and written
    #: for what both stat blocks share (skills without a neutral key, weapon lines, HP).
    parent_key: ClassVar[str] = CocSystem.key
    armor_points_field: ClassVar[str] = "points"  # CocZhArmor.points (coc-zh.armor.table)
    # coc-zh.skills.scale: a skill's percentage is coc's (one Call of Cthulhu stat block): equated
    # on coc's checks, so a skill converts unchanged between the two and to coc-zh as to coc; its
    # own checks (darkness, parry) still roll its shots
    skill_scale_checks: ClassVar[str] = CocSystem.key
    skill_scale_rule: ClassVar[str] = "coc-zh.skills.scale"

    def __init__(self, settings: Any = None) -> None:
        super().__init__(settings)
        self._zh_armor_ladders: dict[str, Ladder] | None = None
        self._zh_identity: dict[str, dict[str, Any]] | None = None

    # close combat (core.melee): this text states the darkness, dodge, parry and armor
    # rules coc reads for close combat (coc's melee_check_at, with these rule IDs)
    MELEE_RULES: ClassVar[dict[str, tuple[str, str]]] = {
        "darkness": ("coc-zh.darkness", "seed"),  # moonlight: at least halved; darkness: 01%
        "dodge": ("coc-zh.dodge", "assumed"),  # everyone has Dodge (seed); a success avoids the blow (assumed)
        "parry": ("coc-zh.parry.bodily", "seed"),  # bodily attacks parry one another
        "parry-weapon": ("coc-zh.parry.vs-weapons", "seed"),  # a bodily parry of a weapon takes the damage
        "armor": ("coc-zh.armor.table", "seed"),  # heavy leather jacket 1
    }

    # ==== tables =======================================================================
    #: the Call of Cthulhu block (the coc_block format plugin) as Chinese scenarios print it:
    #: it claims the blocks written in Chinese; its armor is one number of points
    text_block: ClassVar[str | None] = "call-of-cthulhu-zh"

    def tables(self) -> dict[str, Any]:
        """coc's tables.toml with coc-zh's over it (rule register, darkness matrix,
        exposure, skills, and coc-zh's own rule tables)."""
        return merged_tables()

    def formulas(self) -> Sequence[Formula]:
        """coc's formulas of the coc-ja.* rules coc-zh keeps, and coc-zh's own (formulas.py)."""
        from .formulas import FORMULAS

        return (*super().formulas(), *FORMULAS)




__all__ = ["CocZhSystem", "merged_tables", "parent"]
