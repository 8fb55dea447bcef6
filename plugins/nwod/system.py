"""new World of Darkness (2004 World of Darkness Rulebook) as an xsys system.

A dice pool, not a number to roll under: pool = attribute + skill + weapon damage +/-
modifiers, each d10 succeeds on 8+, 10s roll again, a pool of 0 or less is one chance
die (success only on 10, dramatic failure on 1). Successes are damage. The cover and
barrier rules are the seed's (shared/rules/nwod-cover.md, nwod.*); everything else a
shot needs is the standard rules, marked ``assumed`` with its page in README.md.

The game is rules.py (:class:`NwodRules`), the documents model.py, the character sheet's mapping
to the neutral model sheet.py (:class:`NwodSheet`); this module is the declaration that binds them.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cached_property
from typing import Any, Sequence

from xsys.core import dice
from xsys.core.formulas import Formula
from xsys.core.ladder import Ladder
from xsys.core.sheet import Sheet
from xsys.core.shotsheet import ShotSheet, ShotWord
from xsys.core.system import CharacteristicSpec, percentile_ladder
from xsys.core.units import Duration

# documents and the game's names that tests and tools import from this module
from .model import NwodArmor, NwodBarrier, NwodCarried, NwodNpc, NwodSettings, NwodShot, NwodWeapon
from .rules import (RANGE_LADDERS, TABLES, WINDOW, _LADDERS, _formulas, barrier_applies, barrier_damage,
                    barrier_damage_mean, barrier_hit, cover_penalty, firing_from, p_hit, penetration, successes)
from .sheet import NwodSheet


class NwodSystem(NwodSheet):
    key = "nwod"
    # nwod.aim: one turn is 3 s (assumed: the core rulebook's convention)
    own_units = {"nwod_turn": (Duration, 3.0)}
    name = "new World of Darkness"
    edition = "2004 rules (World of Darkness Rulebook)"
    dice = "d10 pool, 8+ succeeds, 10-again"
    rule_prefix = "nwod."
    npc_type = NwodNpc
    shot_type = NwodShot
    settings_type = NwodSettings
    # shots: the core's (xsys.core.shotsheet), from this declaration; the range band, the light,
    # the cover, the barrier, the armor rating and a prone target are sheet.py's
    shot_sheet = ShotSheet(
        skill="Firearms", distance="", characteristics=("Dexterity", "Strength"), skill_rules=("nwod.pool",),
        same={"specified_target": "called_location"},
        native_only={"specialty": "nwod.specialty", "armor_piercing": "nwod.armor-piercing",
                     "aimed_at_glass": "nwod.window"},
        words=(ShotWord("aiming", "shooter.aim_time", "aim", form="native", at=True),
               ShotWord("autofire", "burst", "autofire", form="native", at=True,
                        names={"single": 0, "short": 1, "medium": 2, "long": 3})))
    shot_rules = {"distance": "nwod.range", "light.illuminance": "nwod.darkness", "target.armor": "nwod.armor",
                  "target.cover.exposure": "nwod.cover.partial", "target.cover.barrier": "nwod.barrier",
                  "shooter.cover": "nwod.cover.firing-from", "target.posture": "nwod.prone", "weapon": "nwod.weapon.damage"}
    # nwod.derived: Defense is the lower of Dexterity and Wits, whatever the NPC's training, so a
    # source's stated dodge has no place on the sheet (carried for the way back)
    derived_only = frozenset({"dodge"})

    ATTRIBUTES = ("Intelligence", "Wits", "Resolve", "Strength", "Dexterity", "Stamina",
                  "Presence", "Manipulation", "Composure")
    # native attribute -> neutral characteristic (Resolve has no neutral key of its own:
    # it is kept verbatim and, from other systems, read from "will"; README)
    NEUTRAL_ATTR = {"Intelligence": "intelligence", "Wits": "perception", "Strength": "strength",
                    "Dexterity": "dexterity", "Stamina": "constitution", "Presence": "appearance",
                    "Manipulation": "charisma", "Composure": "will", "Size": "size"}
    MENTAL = ("Academics", "Computer", "Crafts", "Investigation", "Medicine", "Occult", "Politics", "Science")
    # native skill -> (attribute of its standard pool, neutral skill keys)
    SKILLS = {
        "Firearms": ("Dexterity", ("handgun", "rifle", "shotgun", "smg", "machine_gun")),
        "Athletics": ("Dexterity", ("throw", "athletics", "climb", "swim", "jump")),
        "Brawl": ("Strength", ("brawl",)),
        "Weaponry": ("Strength", ("melee",)),
        "Stealth": ("Dexterity", ("stealth",)),
        "Larceny": ("Dexterity", ("locksmith", "conceal")),
        "Investigation": ("Wits", ("spot",)),
        "Survival": ("Wits", ("track",)),
        "Medicine": ("Intelligence", ("first_aid",)),
        "Drive": ("Dexterity", ("drive",)),
        # nwod.pool: Intelligence + Academics to research, Wits + Empathy to read a person,
        # Manipulation + Persuasion, Presence + Intimidation (WoD pp. 57, 79-83; assumed pools)
        "Academics": ("Intelligence", ("research",)),
        "Empathy": ("Wits", ("psychology",)),
        "Persuasion": ("Manipulation", ("persuade",)),
        "Intimidation": ("Presence", ("intimidate",)),
    }
    PERCEPTION = ("Wits", "Composure")  # Wits + Composure: perception with no skill (listen)
    FIREARM_CLASS = {"handgun": "handgun", "rifle": "rifle", "shotgun": "shotgun", "smg": "smg",
                     "machine_gun": "mg", "throw": "thrown"}
    # The stat block as the core converts it (xsys.core.sheet): a skill's pool takes any of the
    # nine attributes; Resolve (no neutral characteristic measures it), specialties and merits
    # are what only nWoD states, carried verbatim; a skill of 0 dots is not written.
    sheet = Sheet(context=ATTRIBUTES, carried=("Resolve", "skills", "specialties", "merits"),
                  carried_type=NwodCarried, unstated_level=0)

    def __init__(self, settings: Any = None) -> None:
        super().__init__(settings)
        self._rolls: dict[tuple, Any] = {}  # (table, arguments) -> outcomes (_outcomes)

    # ------------------------------------------------------------------ tables
    def text_layout(self) -> Any:
        """Plain-text stat blocks: the World of Darkness Rulebook block (text.py)."""
        from .text import NwodText  # the block's reader is loaded when a block is read

        return NwodText(self.key)

    def ladders(self) -> dict[str, Ladder]:
        out = dict(_LADDERS)
        out.update({lad.name: lad for lad in RANGE_LADDERS.values()})
        for native, spec in self.characteristics().items():
            out[f"attribute.{native}"] = spec.ladder
        return out

    @cached_property
    def _characteristics(self) -> dict[str, CharacteristicSpec]:
        attr = {int(k): Fraction(v) for k, v in TABLES["attribute_distribution"].items() if k != "rule"}
        size = {int(k): Fraction(v) for k, v in TABLES["size_distribution"].items() if k != "rule"}
        out = {}
        for a in self.ATTRIBUTES:
            if a in self.NEUTRAL_ATTR:
                out[a] = CharacteristicSpec(self.NEUTRAL_ATTR[a],
                                            percentile_ladder(a, attr, "nwod.attributes", "assumed"))
        out["Size"] = CharacteristicSpec("size", percentile_ladder("Size", size, "nwod.size", "assumed"))
        return out

    def characteristics(self) -> dict[str, CharacteristicSpec]:
        return self._characteristics

    def skills(self) -> dict[str, tuple[str, ...]]:
        return {k: v[1] for k, v in self.SKILLS.items()}

    def rule_ids(self) -> set[str]:
        return super().rule_ids() | {
            "nwod.barrier", "nwod.barrier.penetration", "nwod.barrier.example", "nwod.window",
            "nwod.cover.partial", "nwod.cover.firing-from", "nwod.cover.both", "nwod.cover.full",
            "nwod.pool", "nwod.chance-die", "nwod.firearms.pool", "nwod.untrained", "nwod.specialty",
            "nwod.armor", "nwod.armor-piercing", "nwod.weapon.strength", "nwod.offhand",
            "nwod.defense", "nwod.specified-target", "nwod.derived", "nwod.object.structure",
            "nwod.range", "nwod.hidden", "nwod.melee", "nwod.weapon.clip", "nwod.weapon.chart",
        }

    def formulas(self) -> Sequence[Formula]:
        """``xsys rules nwod`` formulas (formulas.py): barriers, cover, dice pools."""
        return _formulas()

    # ------------------------------------------------------------------ skills
    def _attr_of(self, skill: str) -> str:
        return self.SKILLS.get(skill, ("Dexterity",))[0]

    def _untrained(self, skill: str) -> int:
        return -3 if skill in self.MENTAL else -1  # nwod.untrained (WoD p. 55)

    # the standard adult: Health = Stamina + Size (nwod.derived) with Stamina 2 and Size 5
    standard_health = 7.0
    health_rule = "nwod.derived"
    length_unit = "yd"  # the rulebook prints ranges in yards (nwod.weapon.ranges)
    health_field = "Health"
    health_formula = "Health = Stamina + Size"
    health_range = (1, 20)
    skill_rule = "nwod.pool"

    # nwod.defense (WoD p. 155-156): Defense, the lower of Dexterity and Wits (nwod.derived),
    # is taken from the dice of a close or thrown attack on its owner. Its neutral dodge is the
    # share of an attack's hits it takes away (assumed, README). A dodge roll (CoC, GURPS) takes
    # the same share of any attack's hits, but Defense takes dice, so its share depends on the
    # attack: it is the mean over a battery of attacks, 3 to 7 dice around the standard 5 (an
    # average adult's Strength 2, a practised brawler's Brawl 2 and a knife, +1): an untrained
    # weakling's to a strong, skilled, armed attacker's.
    STANDARD_ATTACK = 5
    DEFENSE_ATTACKS = (3, 4, 5, 6, 7)

    def derived_skills(self) -> dict[str, str]:
        return {"dodge": "Defense"}

    # ---- close combat: the close-combat battery's check (core.melee) -----------
    # The median adult's Defense is the lower of Dexterity 2 and Wits 2 (nwod.derived); a dodge
    # doubles it (WoD p. 156, not in the seed: assumed). Prone: close attacks on a prone target
    # +2 dice, attacking from prone -2 (WoD p. 164 as this plugin reads it: assumed).
    MEDIAN_DEFENSE = 2
