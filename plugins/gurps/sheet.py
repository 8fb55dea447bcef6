"""The GURPS character sheet and shot as xsys's neutral model, and back: attributes and skills
(equated), Will, Perception, Hit Points and their traits, weapons (damage, SS, Acc, ranges, RoF,
Shots from the weapon table), armor (PD and DR by location), close-combat lines, and what only GURPS
states, carried. :class:`GurpsSheet` adds these conversions to the game (rules.py).
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable, Mapping, Sequence

import msgspec

from xsys.core import armorline, carried
from xsys.core.catalog import capacity_note, damage_line_note, say_grenade, strip_entry, weapon_note
from xsys.core.errors import InputError
from xsys.core.melee import line_skill_levels, line_skills_untrained, melee_kind, melee_skills_of, melee_skills_written
from xsys.core.model import (THROWN_BLADE_ENERGY, Armor, Combatant, Cover, MeleeWeapon, Shot, Weapon,
                             bow_of, generic_weapon, melee_class_of, melee_class_words, melee_weapon, natural_attack)
from xsys.core.sheet import Sheet
from xsys.core.ladder import TAIL_SHARE, population_top
from xsys.core.system import source_tier, tier_steps
from xsys.core.trace import Collector
from xsys.core.units import Energy, Illuminance

from .native import GurpsArmor, GurpsCarried, GurpsMelee, GurpsNpc, GurpsShot, GurpsWeapon
from .rules import (ATTRIBUTES, CLASS_SKILL, DEFAULT_OF, GurpsRules, LIGHT_AIDS, LOCATION_TO_NATIVE,
                    LOCATION_TO_NEUTRAL, MELEE_LINES, MELEE_REACH, MELEE_WIELDED_WITH, MINDS, natural_type, NV_AIDS,
                    NV_SIGHTS, RETREAT, SKILLS, SKILL_CLASS,
                    STEP_SPEED, _basis, armor_covers, behind_see_through, damage_distribution, dice_code, dice_text, exact,
                    melee_damage, MAN_OF_TOP, passive_defense, size_gain, size_ratio, sm_of, thrown_blade)


def _shots(weapon: Weapon) -> tuple[int, bool]:
    """The Shots a GURPS line writes, as every system writes a capacity (core.catalog.Catalog.
    capacity_of): the source's, else its catalog weapon's, else the usual one of its class
    (assumed: a revolver 6, never 0); and whether it is that usual one."""
    from xsys.core.registry import catalog

    return catalog().capacity_of(weapon)


MAX_AIM_TURNS = 100  # GurpsShot.aim_turns' upper bound
TURN_SECONDS = 1.0  # assumed: a GURPS turn is one second (the plugin's unit gurps_turn, system.py)
DERIVED = ("HP", "Will", "Per", "Move", "Dodge")


def melee_parry(skill: str, level: int) -> int:
    """gurps.melee (assumed; 3e, not in the seed): the parry a close-combat skill gives, half the
    skill rounded down; Brawling's bare-handed parry two thirds of it (as gurps.dodge reads the
    median adult's, MEDIAN_PARRY); a knife, a poor parrying weapon, one less than half."""
    if skill in ("Brawling", "Karate", "Boxing"):
        return (2 * level) // 3
    return level // 2 - (1 if skill == "Knife" else 0)


def _melee_dicts(lines: Any) -> dict[str, Any]:
    """Carried close-combat lines as melee-table lines: a line carried before melee had a table of
    its own is a weapon line (Acc, RoF, Shots ...): its melee fields are kept, the rest dropped."""
    if not isinstance(lines, dict):
        return {}
    keep = ("name", "skill", "damage", "dice", "type", "reach", "parry")
    return {k: {f: v for f, v in line.items() if f in keep} if isinstance(line, dict) else line
            for k, line in lines.items()}


CARRIED = ("Will", "Per", "Dodge", "HP")
# Close combat (core.melee): the skills, the median adult's defences (gurps.dodge:
# Dodge = Move = (HT + DX) / 4 = 5; a bare-handed parry 2/3 of an untrained DX 10, rounded
# down, assumed) and 3e thrust/swing damage by ST (Basic Set table, not in the seed; assumed),
# as dice codes (4 x dice + adds).
# gurps.melee: the weapon a close-combat skill wields when no line says (Axe/Mace names two:
# the club, a modern NPC's baton, cosh or cargo hook, is taken; assumed)
SKILL_MELEE_CLASS = {"Axe/Mace": "club", "Staff": "club"}


def _melee_class(w: GurpsWeapon | GurpsMelee) -> str:
    """A close-combat weapon's class by its name, else its skill; Axe/Mace by its damage type."""
    cls = melee_class_of(w.name, w.skill or "")
    if cls in ("axe", "club") and "axe/mace" in (w.skill or "").lower() and melee_class_of(w.name) == "improvised":
        return "axe" if w.type == "cut" else "club"
    return cls  # HP as the neutral toughness (HP / HT)


def derive(ST: int, DX: int, IQ: int, HT: int, offsets: Mapping[str, int] | None = None,
           SM: int | None = None) -> dict[str, int]:
    """gurps.derived (3e): HP = HT, Will = IQ, Per = IQ, Move = (HT + DX) / 4 rounded down,
    Dodge = Move; `offsets` are a stat block's own differences (advantages); a creature larger than
    a man has HT x its bulk's gain in hit points (gurps.size, assumed: ``size_gain``)."""
    o = offsets or {}
    move = (HT + DX) // 4 + o.get("Move", 0)
    return {"HP": int(HT * size_gain(SM) + 0.5) + o.get("HP", 0), "Will": IQ + o.get("Will", 0),
            "Per": IQ + o.get("Per", 0), "Move": move, "Dodge": move + o.get("Dodge", 0)}


# Words of a ranged-weapon skill this plugin does not list ("Guns (Light Auto)", "Guns/TL7
# (Sniper Rifle)"), first match wins (assumed, README): the class it fires.
SKILL_WORDS = (("launcher", "rifle"), ("machine", "mg"), ("light auto", "smg"), ("smg", "smg"), ("submachine", "smg"),
               ("shotgun", "shotgun"), ("carbine", "carbine"), ("rifle", "rifle"), ("musket", "rifle"),
               ("revolver", "revolver"), ("pistol", "handgun"), ("handgun", "handgun"), ("grenade", "thrown"),
               ("throw", "thrown"))


def class_of_skill(skill: str, acc: int = 0) -> str | None:
    """The weapon class a Guns or Throwing skill not in SKILL_CLASS fires (None: not a
    ranged weapon): the class its words name, else a pistol's Accuracy (up to 3) a handgun
    and any other a rifle (gurps.weapon-stats, assumed)."""
    low = skill.lower()
    if "gun" not in low and "throw" not in low and "grenade" not in low:
        return None
    for word, cls in SKILL_WORDS:
        if word in low:
            return cls
    return "handgun" if acc <= 3 else "rifle"


LOSSY_LOCATIONS = {"eye_helmet_gap", "arm_far", "hand_far", "leg_far", "kidneys", "disarm"}
ARMOR_LOCATIONS = {"head": "head", "skull": "head", "face": "face", "eye": "face", "neck": "neck",
                   "throat": "neck", "torso": "torso", "vitals": "vitals", "groin": "groin",
                   "arm": "arms", "arms": "arms", "hand": "hands", "hands": "hands", "leg": "legs",
                   "legs": "legs", "foot": "feet", "feet": "feet"}

# gurps.derived: a Strong Will / Weak Will entry of a stat block and its level ("Strong Will +2",
# "Weak Will -1", "Strong Will 3"; no number: 1)
WILL_TRAIT = re.compile(r"^(strong|weak) will(?:\s*([+-]?\d+))?$", re.IGNORECASE)
HP_TRAIT = re.compile(r"^(extra|reduced) hit points(?:\s*([+-]?\d+))?$", re.IGNORECASE)
DODGE_TRAIT = re.compile(r"^(combat reflexes|enhanced dodge)(?:\s*([+-]?\d+))?$", re.IGNORECASE)


def _plus_minus(plus: str, minus: str) -> Callable[[int], tuple[list[str], list[str]]]:
    """The trait of a derived value `diff` levels off its rule: "plus +N" an advantage, "minus -N"
    a disadvantage, nothing at 0."""
    return lambda diff: ([f"{plus} +{diff}"], []) if diff > 0 else ([], [f"{minus} {diff}"]) if diff < 0 else ([], [])


def _signed_level(pattern: re.Pattern[str], minus: str) -> Callable[[str], int | None]:
    """The levels a trait entry matching `pattern` (group 1 its word, group 2 its level) adds:
    negative where the word is `minus` ("Weak Will -2"); None for another entry."""
    def level_of(entry: str) -> int | None:
        m = pattern.match(entry.strip())
        if not m:
            return None
        n = int(m.group(2) or 1)
        return -abs(n) if m.group(1).lower() == minus else abs(n)
    return level_of


def _offset_traits(said: str, diff: int, traits: Callable[[int], tuple[list[str], list[str]]],
                   level_of: Callable[[str], int | None], names: str, advantages: list[str],
                   disadvantages: list[str], col: Collector, verbatim: bool,
                   path: str | None = None) -> tuple[list[str], list[str]]:
    """The advantages and disadvantages that account for a derived value `diff` levels off the
    3e rule (`said` says which): entries `level_of` reads (the traits of this kind) are replaced
    by ``traits(diff)``, in an ``assumed`` loss; a sheet whose entries already add up to `diff`
    is left as it is. `verbatim`: the lists are a GURPS stat block's own, carried back
    (xsys.core.carried), and stay as they were; what they do not account for is said. `path`:
    where the loss is (the neutral value the trait stands for), else the trait lists."""
    found = [(lst, i) for lst in (advantages, disadvantages) for i, e in enumerate(lst) if level_of(e) is not None]
    if sum(level_of(lst[i]) or 0 for lst, i in found) == diff:
        return advantages, disadvantages  # already says it
    stale = [lst[i] for lst, i in found]
    if verbatim:
        col.loss("assumed", path or "$.advantages", f"{said}, but the carried GURPS traits say "
                 f"{', '.join(stale) if stale else 'neither'}; they are written as carried", "gurps.derived")
        return advantages, disadvantages
    add, drop = traits(diff)
    adv = [e for e in advantages if level_of(e) is None] + add
    dis = [e for e in disadvantages if level_of(e) is None] + drop
    want = ", ".join(add + drop)
    what = f"the sheet says {want}" if want else f"the sheet has no {names}"
    col.loss("assumed", path or ("$.disadvantages" if drop and not add else "$.advantages"),
             f"{said}, so {what}" + (f" (in place of {', '.join(stale)})" if stale else ""), "gurps.derived")
    return adv, dis


POP_UP_EXPOSURE = 0.5  # a shooter popping out of cover shows about half of himself (assumed)


class GurpsSheet(GurpsRules):
    """The conversions of :class:`Gurps`'s documents to and from the neutral model."""

    def sheet_derived(self, npc: Any) -> dict[str, tuple[Any, str]]:
        """HP, Will, Per, Move and Dodge by gurps.derived where the block leaves them out (a
        fan-site 3e block often prints attributes only): a GURPS sheet always shows them; and
        Basic Speed, which no block field holds. The
        traits that change them (the 3e names the writer itself uses: Extra Hit Points, Strong
        or Weak Will, Alertness, Combat Reflexes, Enhanced Dodge) are counted."""
        if not all(isinstance(getattr(npc, a, None), int) for a in ("ST", "DX", "IQ", "HT")):
            return {}
        offsets: dict[str, int] = {}
        for trait in [*getattr(npc, "advantages", []), *getattr(npc, "disadvantages", [])]:
            m = re.fullmatch(r"\s*(Extra Hit Points|Hit Points|Strong Will|Weak Will|Alertness|Enhanced Dodge)"
                             r"\s*([+-]?\d+)\s*", str(trait))
            if m:
                field = {"Extra Hit Points": "HP", "Hit Points": "HP", "Strong Will": "Will", "Weak Will": "Will",
                         "Alertness": "Per", "Enhanced Dodge": "Dodge"}[m.group(1)]
                n = int(m.group(2))
                n = -abs(n) if m.group(1) == "Weak Will" or (m.group(1) == "Hit Points" and n < 0) else abs(n)
                offsets[field] = offsets.get(field, 0) + n
            elif str(trait).strip().lower() == "combat reflexes":
                offsets["Dodge"] = offsets.get("Dodge", 0) + 1
        values = derive(npc.ST, npc.DX, npc.IQ, npc.HT, offsets, getattr(npc, "SM", None))
        out = {k: (v, "gurps.size" if k == "HP" and getattr(npc, "SM", None) else "gurps.derived")
               for k, v in values.items() if getattr(npc, k, None) is None}
        # Basic Speed, (HT + DX) / 4 unrounded: what Move rounds down, and what breaks a tie in
        # who acts first; a 3e sheet prints it beside Move
        out["Basic Speed"] = (f"{(npc.HT + npc.DX) / 4:g}", "gurps.derived")
        return out

    def sheet_blank(self, table: str, row: Mapping[str, Any]) -> frozenset[str]:
        """A thrown line prints no Shots: a thrown weapon is the one in the hand (3e's weapon table
        gives thrown weapons none)."""
        if table == "weapons" and (row.get("skill") in SKILL_CLASS and SKILL_CLASS[row["skill"]] == "thrown"):
            return frozenset({"Shots"})
        return frozenset()

    def sheet_legend(self) -> dict[str, dict[str, str]]:
        return {"melee": {
            "damage": "thr or sw: the thrust or swing damage of the wielder's ST, plus the weapon's add (gurps.melee)",
            "dice": "what that damage rolls at this wielder's ST (gurps.melee)",
            "reach": "hexes the weapon reaches: C only the wielder's own hex, 1 the next (gurps.melee)",
            "parry": "the parry the wielder's skill gives: half the skill, Brawling two thirds, a knife one less, "
                     "+1 with Combat Reflexes (gurps.melee, assumed)"},
            "armor": {
                "DR_at": "a lower DR on those locations (a full kit's helmet, its limb shells); DR everywhere else it "
                         "covers (gurps.armor)"},
            "weapons": {
                "1/2D": "metres (the Japanese Basic Set's unit) from which the damage is halved (gurps.weapon-stats, "
                        "assumed magnitudes; not part of the hit chances)",
                "Max": "metres: the farthest the weapon reaches (gurps.weapon-stats, assumed magnitudes)"}}

    def derived_fields(self) -> dict[str, tuple[tuple[str, ...], str]]:
        # gurps.derived (3e): HP = HT, Will = Per = IQ, Move = (HT + DX) / 4, Dodge = Move
        return {"HP": (("HT",), "gurps.derived"), "Will": (("IQ",), "gurps.derived"),
                "Per": (("IQ",), "gurps.derived"), "Move": (("HT", "DX"), "gurps.derived"),
                "Dodge": (("HT", "DX"), "gurps.derived")}

    # ---- stat blocks -------------------------------------------------------------------
    # The core reads the stat block (xsys.core.sheet) by this declaration and the hooks below:
    # skills equated at the NPC's own ST, levels kept at his attributes and Per (gurps.defaults);
    # what no neutral key holds carried; the melee table a list of its own.
    npc_type = GurpsNpc
    beyond_held = frozenset({"HT"})  # a creature's constitution beyond the table is its hit points (HT 16/50)
    sheet = Sheet(context=("ST", "DX", "IQ", "HT", "Per"), carried=("skills", "advantages", "disadvantages"),
                  carried_type=GurpsCarried, melee="melee", levels_kept="skill_levels", floored=True,
                  line_skills_carried=False)

    @staticmethod
    def _offsets(npc: GurpsNpc, col: Collector | None = None) -> tuple[dict[str, int], list[str]]:
        """gurps.derived: a stated Move beside the rule's (the difference kept for GURPS, said in
        `col`; Will, Per, Dodge and HP cross as what they measure), and what the block leaves out."""
        base = derive(npc.ST, npc.DX, npc.IQ, npc.HT, SM=npc.SM)
        offsets: dict[str, int] = {}
        omitted: list[str] = []
        for f in DERIVED:
            v = getattr(npc, f)
            if v is None:
                omitted.append(f)
                continue
            expect = derive(npc.ST, npc.DX, npc.IQ, npc.HT, offsets, npc.SM)[f]
            if v != expect and f not in CARRIED:
                offsets[f] = v - expect
                if col is not None:
                    col.loss("kept-verbatim", f"$.{f}", f"{f} {v} differs from the rule's {base[f]}; the difference "
                             f"{v - expect:+d} is kept for GURPS", "gurps.derived")
        return offsets, omitted

    def _dodge(self, npc: GurpsNpc, offsets: Mapping[str, int]) -> tuple[int, int, int]:
        """The Dodge (stated, else the rule's), the Dodge its competence reads back as, the Move."""
        derived = derive(npc.ST, npc.DX, npc.IQ, npc.HT, offsets)
        dodge = npc.Dodge if npc.Dodge is not None else derived["Dodge"]
        return dodge, self.level_for("Dodge", self.competence("Dodge", dodge)), derived["Move"]

    def derived_values(self, npc: GurpsNpc) -> dict[str, Any]:
        # gurps.derived: HP = HT (a creature's bulk added: gurps.size); stated HP cross as the toughness
        return {"HP": int(npc.HT * size_gain(npc.SM) + 0.5)}

    def derived_to_neutral(self, npc: GurpsNpc, derived: Mapping[str, Any], col: Collector) -> dict[str, float]:
        """The Dodge as the neutral dodge (gurps.dodge), kept exact where another shares its
        competence; a stated Move beside the rule's is said (``_offsets``)."""
        dodge, back, _ = self._dodge(npc, self._offsets(npc, col)[0])
        value = self.competence("Dodge", dodge)
        if col.tracing:
            col.step("$.Dodge", f"Dodge {dodge}", f"dodge competence {value:.3f}", rules=["gurps.dodge"],
                     source="assumed", note=f"3d6 <= Dodge + {RETREAT} (stepping back)")
        if back != dodge:
            col.loss("rounded", "$.Dodge", f"Dodge {dodge} has the same dodge competence as Dodge {back}; the exact "
                     "value is kept for GURPS", "gurps.dodge")
        return {"dodge": value}

    def native_block(self, npc: GurpsNpc, col: Collector) -> dict[str, Any]:
        """For a GURPS sheet's way back: derived values beside the rule's or left out, melee skills
        by name, a Dodge the competence cannot tell apart or below Move, a Will beside IQ (no Strong
        or Weak Will is written for it), weapon and armor lines by name."""
        blob: dict[str, Any] = {}
        offsets, omitted = self._offsets(npc)
        if offsets:
            blob["derived_offsets"] = offsets
        if omitted:
            blob["omitted"] = omitted
        names = melee_skills_of(self, {k: v for k, v in npc.skills.items() if k in SKILLS})
        if names:
            blob["melee_skills"] = names  # their names, for the way back
        dodge, back, move = self._dodge(npc, offsets)
        if back != dodge or dodge < move:
            blob["dodge"] = dodge
        if npc.Will is not None and npc.Will != npc.IQ:
            blob["will"] = npc.Will
        if npc.SM:
            blob["SM"] = npc.SM
        for w in npc.weapons:
            if not self._close_combat_line(w):
                blob.setdefault("weapons", {})[w.name] = msgspec.to_builtins(w)
        for a in npc.armor:
            blob.setdefault("armor", {})[a.name] = msgspec.to_builtins(a)
        return blob

    def extra_to_neutral(self, npc: GurpsNpc, combatant: Combatant, col: Collector) -> Combatant:
        """Will and Per (stated, else IQ: gurps.derived) as the neutral will and perception; the
        weapon the best close-combat skill is for: as 3e reads a skill of two weapons (Axe/Mace: a
        club), else the line made with it (Shortsword for a nightstick: a club), else its name's."""
        derived = derive(npc.ST, npc.DX, npc.IQ, npc.HT, self._offsets(npc)[0], npc.SM)
        stated = {f: getattr(npc, f) if getattr(npc, f) is not None else derived[f] for f in MINDS}
        minds = self._minds_to_neutral(stated, col)
        line_class: dict[str, str] = {}  # a melee skill -> the class of the first line made with it
        for m in [self._as_melee(w) for w in npc.weapons if self._close_combat_line(w)] + list(npc.melee):
            if m.skill:
                line_class.setdefault(m.skill, _melee_class(m))
        known = {k: v for k, v in npc.skills.items() if k in SKILLS}
        # a creature's Will or Per beyond IQ's table (Will 41): its multiple of the table's top, as its IQ's
        top = population_top(self.characteristics()["IQ"].ladder)
        beyond = {MINDS[f]: round(v / top, 4) for f, v in stated.items() if isinstance(v, int) and v > top}
        bows = {w.name: msgspec.to_builtins(w) for w in npc.weapons if self._bow(w) is not None}
        if bows:  # (weapon_to_neutral said each)
            block = dict(combatant.carried.get(self.key) or {})
            block["weapons"] = {**block.get("weapons", {}), **bows}
            combatant = msgspec.structs.replace(combatant, carried={**combatant.carried, self.key: block})
        size = self._size_to_neutral(npc.SM, col)
        if size is not None:
            minds["size"] = size[0]
            if size[1] is not None:
                beyond["size"] = size[1]
        return msgspec.structs.replace(combatant, characteristics={**combatant.characteristics, **minds},
                                       beyond={**combatant.beyond, **beyond},
                                       melee_kind=melee_kind(self, known, {**line_class, **SKILL_MELEE_CLASS}))

    def _size_to_neutral(self, sm: int | None, col: Collector) -> tuple[float, float | None] | None:
        """gurps.size (assumed): a creature's Size Modifier as the neutral size, the percentile and the multiple
        of the top of every size table (core.beyond). Larger than a man (SM +1 and up): the top of ordinary
        adults, its length in a man's (SM +2: 5 yd, 2.5) times a man's size against that top (the d100 rules'
        SIZ 13 of 18); smaller (SM -1 and below): the smallest ordinary adult's, clamped. None for a man."""
        if not sm:
            return None
        lad = self.characteristics()["ST"].ladder  # the attributes' population (gurps.population)
        plain = [st for st in lad.steps if TAIL_SHARE < float(st.rep) < 1 - float(TAIL_SHARE)]
        if sm < 0:
            col.loss("clamped", "$.SM", f"SM {sm}: a creature smaller than a man; its size crosses as the smallest "
                     "ordinary adult's (no size table goes below them)", "gurps.size")
            return float(plain[0].rep), None
        ratio = round(size_ratio(sm) * MAN_OF_TOP, 4)
        yards = size_ratio(sm) * 2
        if col.tracing:
            col.step("$.SM", f"SM {sm:+d}", f"size {ratio:.2f} times the top of its table", rules=["gurps.size",
                     "core.beyond"], source="assumed", note=f"{yards:g} yd, {size_ratio(sm):g} times a man's 2 yd, "
                     f"x {MAN_OF_TOP:.3f} (a man's size of the top)")
        col.loss("assumed", "$.SM", f"SM {sm:+d}: a creature {yards:g} yd long, {size_ratio(sm):g} times a man's "
                 f"length; its size crosses as {ratio:.2f} times the top of every size table (a man's is "
                 f"{MAN_OF_TOP:.2f} of it: the d100 rules' SIZ 13 of 18) [core.beyond]", "gurps.size")
        return float(plain[-1].rep), ratio

    def _sm_from_neutral(self, combatant: Combatant, kept: Mapping[str, Any], col: Collector) -> int | None:
        """gurps.size (assumed): the Size Modifier of a creature larger than every ordinary adult (its size a
        multiple of the top of its table: core.beyond), the one whose length is nearest; a GURPS block's own
        SM as it was."""
        if kept:
            return kept.get("SM")
        ratio = combatant.beyond.get("size")
        if ratio is None:
            return None
        sm = sm_of(ratio / MAN_OF_TOP)
        if sm <= 0:
            return None
        back = round(size_ratio(sm) * MAN_OF_TOP, 4)
        said = (f"SM {sm:+d}: the source's size is {ratio:.2f} times the top of its population table, a creature "
                f"{ratio / MAN_OF_TOP:.2f} times a man's length; SM {sm:+d} is {size_ratio(sm) * 2:g} yd, "
                f"{size_ratio(sm):g} times a man's")
        if abs(back - ratio) > 1e-3:
            col.loss("rounded", "$.characteristics.size", f"{said} (the nearest Size Modifier; read back, "
                     f"{back:.2f} times the top)", "gurps.size")
        else:
            col.loss("assumed", "$.characteristics.size", said, "gurps.size")
        if col.tracing:
            col.step("$.SM", None, f"size {ratio:.2f} times the top of its table", f"SM {sm:+d}",
                     rules=["gurps.size", "core.beyond"], source="assumed")
        return sm

    @staticmethod
    def _as_melee(w: GurpsWeapon) -> GurpsMelee:
        """A close-combat weapon among the weapons (a text block writes them there) as a melee line."""
        return GurpsMelee(name=w.name, skill=w.skill or MELEE_WIELDED_WITH[melee_class_of(w.name)], damage=w.damage,
                          type=w.type)

    def _close_combat(self, line: GurpsMelee, col: Collector, path: str) -> MeleeWeapon:
        """A close-combat weapon: its class crosses, its line is carried (gurps.melee)."""
        m = melee_weapon(line.name, _melee_class(line), natural_attack(line.name))
        if col.tracing:
            col.step(path, f"{line.name} ({line.skill}, {line.damage} {line.type})",
                     f"melee {m.melee_class}" + (" (natural)" if m.natural else ""), rules=["gurps.melee"],
                     source="assumed")
        return m

    def weapon_to_neutral(self, line: GurpsWeapon, col: Collector, path: str,  # type: ignore[override]
                          context: Mapping[str, Any] | None = None) -> Weapon | MeleeWeapon | None:
        """A weapon line as what it is; a bow or a crossbow (no neutral class holds one) None: its line
        rides in the carried block for a GURPS sheet (``extra_to_neutral``), said here, never read as a gun."""
        bow = self._bow(line)
        if bow is not None:
            col.loss("kept-verbatim", path, f"{line.name} ({line.skill or 'no skill'}): a {bow}, which no neutral "
                     f"weapon class holds (the rule texts are firearms rules): not read as a gun; its GURPS line is "
                     f"kept (carried.gurps.weapons.{line.name})", "gurps.weapon-stats")
            return None
        nw = self._weapon_to_neutral(line, col, path, (context or {}).get("ST"))
        return nw if nw is not None else self._close_combat(self._as_melee(line), col, path)

    def _bow(self, line: GurpsWeapon) -> str | None:
        """"bow" or "crossbow" for a line of no catalog weapon whose skill says one (Crossbow-13), or whose name
        does where its skill is no gun's (a "bow-like" weapon fired with Guns (Rifle) is a rifle)."""
        if self._line_entry(line)[0] is not None or (line.skill and line.skill in SKILL_CLASS):
            return None
        return bow_of(line.skill or "", line.name)

    def melee_line_carried(self, line: GurpsWeapon | GurpsMelee) -> Any:
        return msgspec.to_builtins(self._as_melee(line) if isinstance(line, GurpsWeapon) else line)

    def melee_line_to_neutral(self, m: GurpsMelee, col: Collector, path: str) -> MeleeWeapon:
        col.loss("kept-verbatim", path, f"{m.name} ({m.skill}) crosses as "
                 f"{melee_class_words('natural' if natural_attack(m.name) else _melee_class(m))}; its "
                 f"GURPS line is kept (carried.gurps.melee.{m.name})", "gurps.melee")
        return self._close_combat(m, col, path)

    # The core writes the stat block (xsys.core.sheet) by the same declaration and these hooks:
    # the derived values before the skills (Per floors the sense rolls), the skills at levels
    # points buy, kept weapon and armor lines by name, melee lines at the wielder's ST, and the
    # last word: the skills the lines use, parries and the traits a derived value needs.
    def derived_from_neutral(self, fields: Mapping[str, Any], combatant: Combatant, kept: Mapping[str, Any],
                             col: Collector) -> dict[str, Any]:
        """gurps.derived: HP, Will, Per, Move and Dodge by the rule from the attributes written (a
        GURPS block's own offsets kept); Will and Per from the neutral will and perception on IQ's
        ladder, the Dodge from the neutral dodge, the HP from the toughness; none for what a GURPS
        block left out. A GURPS block's own Dodge and Will are written as they were."""
        from_sheet = bool(kept)
        sm = self._sm_from_neutral(combatant, kept, col)
        derived = derive(fields["ST"], fields["DX"], fields["IQ"], fields["HT"], kept.get("derived_offsets"), sm)
        bulk = size_gain(sm)
        for f, neutral in MINDS.items():
            p = combatant.characteristics.get(neutral)
            if p is not None:
                step = self.characteristics()["IQ"].ladder.step_for(p)
                derived[f] = int(step.native)
                ratio = combatant.beyond.get(neutral)
                if ratio is not None and round(int(step.native) * ratio) > derived[f]:
                    # a creature's will beyond every ordinary adult (Cthulhu's POW 210): the top of IQ's table that
                    # many times, as its IQ (core.beyond)
                    derived[f] = min(999, round(int(step.native) * ratio))
                    if col.tracing:
                        col.step(f"$.{f}", None, f"{neutral} {ratio:.2f} times the top of its table", f"{f} {derived[f]}",
                                 rules=["core.beyond"], source="assumed", note=f"{ratio:.2f} x IQ's top, {int(step.native)}")
                    col.loss("assumed", f"$.characteristics.{neutral}", f"{f} {derived[f]}: the source's {neutral} is "
                             f"{ratio:.2f} times the top of its population table, written as {ratio:.2f} times IQ's "
                             f"top, {int(step.native)}", "core.beyond")
                if col.tracing:
                    col.step(f"$.{f}", None, f"{neutral} percentile {p:.3f}", f"{f} {derived[f]}",
                             rules=["gurps.derived", step.rule], source=step.source,
                             note=f"{f} on IQ's population ladder")
        dodge = combatant.skills.get("dodge")
        if dodge is not None:
            level = self.level_for("Dodge", dodge)
            own = kept.get("dodge")
            if own is not None and self.level_for("Dodge", self.competence("Dodge", own)) == level:
                level = own
            if col.tracing:
                col.step("$.Dodge", None, f"dodge competence {dodge:.3f}", f"Dodge {level}", rules=["gurps.dodge"],
                         source="assumed", note=f"3d6 <= Dodge + {RETREAT} (stepping back)")
            if level < derived["Move"] and not from_sheet:
                # gurps.derived (3e): Dodge = Move, and only a better dodge (Combat Reflexes) is
                # written above it; a source's untrained or poor dodge that equates below Move is
                # written as the rule's value (a GURPS stat block's own lower Dodge is kept)
                col.loss("clamped", "$.Dodge", f"the source's dodge (competence {dodge:.3f}) equates to Dodge "
                         f"{level}, below Move {derived['Move']}; 3e derives Dodge = Move, so Dodge "
                         f"{derived['Move']} is written (read back, a better dodge than the source's)",
                         "gurps.derived")
                level = derived["Move"]
            said = source_tier("dodge") if level > derived["Move"] and not from_sheet else None
            if said is not None and said[3] == 0:
                # a source's dodge in its untrained tier (a CoC Dodge 22 below the DEX / 2 its sheet starts at)
                # is no trained dodge: 3e's untrained Dodge is Move, and Combat Reflexes or Enhanced Dodge would
                # say the NPC dodges better than the body gives (core.tiers)
                source, native, stated = said[0], said[1], said[2]
                col.loss("rounded", "$.Dodge", f"the source's {source.level_text(native, stated)} is in {source.key}'s "
                         f"untrained tier (dodge competence {dodge:.3f}, Dodge {level} here): 3e gives an untrained "
                         f"dodge Dodge = Move, so Dodge {derived['Move']} is written and no Combat Reflexes or "
                         "Enhanced Dodge", "gurps.derived")
                level = derived["Move"]
            derived["Dodge"] = level
        t = combatant.toughness
        con = combatant.beyond.get("constitution")
        if con is not None and "HP" not in kept.get("derived_offsets", {}):
            # a creature's constitution beyond every ordinary adult: its HT stays the table's and its hit points
            # carry the rest, as 3e writes a giant's 'HT 16/50' (core.beyond, assumed)
            # (a creature of a size beyond a man's too: its constitution and its bulk add, as CON and SIZ in the d100
            # rules' HP = (CON + SIZ) / 2, gurps.size: Cthulhu's 5.98 and 15 make HT 18 x 10.5)
            gain = (con + size_ratio(sm)) / 2 if sm and sm > 0 else con
            derived["HP"] = self.health_of(round(fields["HT"] * gain), t, col)
            if col.tracing:
                col.step("$.HP", None, f"constitution {con:.2f} times the top of its table", f"HP {derived['HP']}",
                         rules=["core.beyond", "gurps.derived"] + (["gurps.size"] if sm and sm > 0 else []),
                         source="assumed",
                         note=f"HT {fields['HT']} x {gain:.2f}")
            col.loss("assumed", "$.HP", f"HP {derived['HP']}: the source's constitution is {con:.2f} times the top "
                     f"of its population table; a 3e creature's HT stays {fields['HT']} and its hit points carry it "
                     f"(HT {fields['HT']}/{derived['HP']}: HT x "
                     + (f"({con:.2f} + its length, {size_ratio(sm):g} times a man's) / 2 (gurps.size)"
                        if sm and sm > 0 else f"{con:.2f}")
                     + (f", x its toughness {t:.3f}" if t is not None and abs(t - 1) > 1e-9 else "") + ")",
                     "core.beyond")
        elif t is not None and "HP" not in kept.get("derived_offsets", {}):
            derived["HP"] = self.health_of(int(fields["HT"] * bulk + 0.5), t, col)
        for f in kept.get("omitted", []):
            derived.pop(f, None)
        if col.tracing:
            col.step("$.HP", None, None, ", ".join(f"{k} {v}" for k, v in derived.items()), rules=["gurps.derived"])
        return {**derived, "SM": sm} if sm else derived

    def carried_skills(self, levels: dict[str, Any], carried_levels: Mapping[str, Any], combatant: Combatant,
                       context: Mapping[str, Any], col: Collector) -> dict[str, Any]:
        """None at a level points cannot buy (gurps.skill-cost; what a GURPS sheet itself states
        stays: a GM writes an NPC's levels as he likes), then the skills kept verbatim."""
        blob = combatant.native.get(self.key, {})
        stated = {n: s.level for n, s in combatant.sheet_skills.items() if s.system == self.key}
        levels = self.levels_bought(levels, {k: context[k] for k in ATTRIBUTES}, col, "$.skills",
                                    {**stated, **blob.get("skill_levels", {})})
        levels.update(blob.get("skills", {}))
        levels.update(carried_levels)
        return levels

    def weapon_lines_from_neutral(self, combatant: Combatant, fields: Mapping[str, Any], kept: Mapping[str, Any],
                                  col: Collector) -> list[GurpsWeapon]:
        """A GURPS block's own lines by name (with its catalog weapon's Shots where it stated none),
        else each weapon's line at the NPC's ST."""
        weapons: list[GurpsWeapon] = []
        for i, w in enumerate(combatant.weapons):
            line = kept.get("weapons", {}).get(w.name)
            if line is None:
                weapons.append(self.weapon_from_neutral(w, col, f"$.weapons[{i}]", st=fields["ST"]))
                continue
            line = msgspec.convert(line, GurpsWeapon)
            shots, usual = _shots(w)
            weapons.append(msgspec.structs.replace(line, Shots=shots) if not line.Shots and shots and not usual
                           else line)
        return weapons + [msgspec.convert(e, GurpsWeapon) for e in kept.get("extra_weapons", [])]

    def melee_from_neutral(self, combatant: Combatant, lines: Mapping[str, Any], col: Collector,
                           fields: Mapping[str, Any] | None = None) -> list[GurpsMelee]:
        st = (fields or {}).get("ST", 10)
        return carried.melee_lines(combatant, _melee_dicts(lines), GurpsMelee, "gurps", "gurps.melee", col,
                                   lambda m: self._melee_line(m, st), lambda m: f"{m.skill}, {m.damage} {m.type} "
                                   f"({m.dice}) at ST {st}, reach {m.reach}")

    def armor_lines_from_neutral(self, combatant: Combatant, fields: Mapping[str, Any], kept: Mapping[str, Any],
                                 col: Collector) -> list[GurpsArmor]:
        return [msgspec.convert(kept["armor"][a.name], GurpsArmor) if a.name in kept.get("armor", {})
                else self.armor_from_neutral(a, col, f"$.armor[{i}]") for i, a in enumerate(combatant.armor)]

    def extra_from_neutral(self, npc: GurpsNpc, combatant: Combatant, col: Collector) -> GurpsNpc:
        """The skills the weapon lines use (gurps.melee: a club line is Axe/Mace), a line's own skill at
        its competence, a line written from its class at the skill's default where the source has
        none, a thrown blade's skill; the parry the wielder's skill gives on the lines written from a
        class; the traits a Will, HP or Dodge beside the rule's needs (gurps.derived)."""
        blob = combatant.native.get(self.key, {})
        from_sheet = bool(blob)
        block = combatant.carried.get(self.key)
        carried_lines = _melee_dicts(block.get("melee", {})) if isinstance(block, dict) else {}

        def carried_line(name: str) -> bool:  # the line its own stat block carried (carried.melee_lines)
            try:
                return isinstance(carried_lines.get(name), dict) and bool(msgspec.convert(carried_lines[name], GurpsMelee))
            except (msgspec.ValidationError, TypeError):
                return False

        class_lines = {m.name for m in combatant.melee if not carried_line(m.name)}
        written = [m for m in npc.melee if m.name in class_lines]  # lines written from a weapon's class
        attrs = {k: getattr(npc, k) for k in ATTRIBUTES}
        st_ctx = {"ST": npc.ST}  # close combat is equated at the NPC's own ST
        skills = dict(npc.skills)
        # the neutral melee is written for the skills the weapon lines use (a club line: Axe/Mace),
        # not for every melee skill at once (core.melee.melee_skills_written)
        kind = MELEE_LINES[combatant.melee_kind][0] if combatant.melee_kind else None  # gurps.melee: a club is Axe/Mace
        skills = melee_skills_written(self, skills, [w.skill or "" for w in npc.weapons] + [m.skill for m in npc.melee],
                                      blob.get("melee_skills"), kind, col=col)
        # a line of a weapon its source fought with a skill of its own: at that skill's competence
        skills = line_skill_levels(self, skills, npc.melee, combatant, st_ctx, col)
        # a line written from its class whose skill the source states none for: at its default
        skills = line_skills_untrained(self, skills, written, attrs, col)
        skills = self._thrown_blade_skills(skills, npc.weapons, combatant, attrs, col)
        # the parry the wielder's own skill gives, on the lines written from a class (gurps.melee)
        melee = [msgspec.structs.replace(m, parry=melee_parry(m.skill, skills[m.skill]))
                 if m.name in class_lines and m.skill in skills else m for m in npc.melee]
        advantages, disadvantages = list(npc.advantages), list(npc.disadvantages)
        taken = carried.take(block, GurpsCarried, Collector(self.key), "$", self.key)
        verbatim = bool(taken)
        # a bow or a crossbow the neutral NPC could not hold: its GURPS line as it was (weapon_to_neutral)
        have = {w.name for w in npc.weapons}
        bows = [msgspec.convert(line, GurpsWeapon) for name, line in taken.get("weapons", {}).items()
                if name not in have]
        derived = {f: getattr(npc, f) for f in DERIVED if getattr(npc, f) is not None}
        if npc.Will is not None and not from_sheet:
            advantages, disadvantages = self._will_traits(npc.Will, npc.IQ, advantages, disadvantages, col,
                                                          verbatim=verbatim)
        if not from_sheet:
            advantages, disadvantages = self._body_traits(derived, npc.HT, advantages, disadvantages, col,
                                                          verbatim=verbatim, sm=npc.SM)
        if "Combat Reflexes" in advantages:  # 3e: +1 to every active defense, a parry as the dodge
            melee = [msgspec.structs.replace(m, parry=m.parry + 1) if m.name in class_lines
                     and m.parry is not None else m for m in melee]
        return msgspec.structs.replace(npc, skills=skills, melee=melee, advantages=advantages,
                                       disadvantages=disadvantages, weapons=[*npc.weapons, *bows])

    @staticmethod
    def _will_traits(will: int, iq: int, advantages: list[str], disadvantages: list[str], col: Collector,
                     verbatim: bool = False) -> tuple[list[str], list[str]]:
        """gurps.derived (3e): Will rolls are made against IQ, plus Strong Will or minus Weak Will
        levels; a written Will that differs from IQ names the trait that makes it so (Will 13 on
        IQ 6: Strong Will +7), replacing a Strong / Weak Will entry of another level. No cap: the
        text gives none (assumed, README). `verbatim`: the lists are a GURPS stat block's own,
        carried back through another system (xsys.core.carried), and stay as they were; a Will
        they do not account for is said in a loss."""
        return _offset_traits(f"Will {will} beside IQ {iq}: 3e makes Will rolls against IQ plus Strong Will "
                              "(or minus Weak Will) levels", will - iq, _plus_minus("Strong Will", "Weak Will"),
                              _signed_level(WILL_TRAIT, "weak"), "Strong or Weak Will",
                              advantages, disadvantages, col, verbatim, "$.characteristics.will")

    @staticmethod
    def _body_traits(derived: Mapping[str, int], ht: int, advantages: list[str], disadvantages: list[str],
                     col: Collector, verbatim: bool = False, sm: int | None = None) -> tuple[list[str], list[str]]:
        """gurps.derived (3e): HP = HT and Dodge = Move; a written HP or Dodge that differs (the
        source's toughness gave more hit points, its dodge a better one than Move) names the
        trait a GURPS sheet would show for it (assumed, README): Extra Hit Points +N or Reduced
        Hit Points -N; Combat Reflexes for Dodge Move + 1, and Enhanced Dodge for more."""
        def dodge_traits(diff: int) -> tuple[list[str], list[str]]:
            return (["Combat Reflexes"] + ([f"Enhanced Dodge +{diff - 1}"] if diff > 1 else []), []) if diff > 0 \
                else ([], [])

        def dodge_level(entry: str) -> int | None:
            m = DODGE_TRAIT.match(entry.strip())
            if not m:
                return None
            return 1 if m.group(1).lower().startswith("combat") else int(m.group(2) or 1)

        if "HP" in derived:
            base = int(ht * size_gain(sm) + 0.5)  # a creature's bulk (gurps.size) is its SM's, no trait
            advantages, disadvantages = _offset_traits(
                f"HP {derived['HP']} beside HT {ht}: 3e gives HP = HT" + (f", x {size_gain(sm):g} for the bulk of "
                                                                          f"SM {sm:+d} (gurps.size): {base}"
                                                                          if sm and sm > 0 else ""),
                derived["HP"] - base,
                _plus_minus("Extra Hit Points", "Reduced Hit Points"), _signed_level(HP_TRAIT, "reduced"),
                "Extra or Reduced Hit Points", advantages, disadvantages, col, verbatim, "$.toughness")
        if "Dodge" in derived and "Move" in derived and derived["Dodge"] >= derived["Move"]:
            advantages, disadvantages = _offset_traits(
                f"Dodge {derived['Dodge']} beside Move {derived['Move']}: 3e gives Dodge = Move, +1 with Combat "
                "Reflexes", derived["Dodge"] - derived["Move"], dodge_traits, dodge_level,
                "Combat Reflexes or Enhanced Dodge", advantages, disadvantages, col, verbatim, "$.skills.dodge")
        return advantages, disadvantages

    def _melee_line(self, m: MeleeWeapon, st: int = 10) -> GurpsMelee:
        """gurps.melee (assumed): the melee-table line of a close-combat weapon known only by its
        class: thrust or swing plus the class's add ("sw+1"), what that rolls at the wielder's
        ST (a brute's punch is not an average man's), its type and reach."""
        cls = "natural" if m.natural else m.melee_class  # a creature's bite or claws: a line of its own
        skill, base, add, dtype = MELEE_LINES[cls]
        if m.natural:  # a tail strikes, a horn impales, teeth and claws cut
            dtype = natural_type(m.name)
        return GurpsMelee(name=m.name, skill=skill, damage=f"{base}{add:+d}" if add else base,
                          dice=melee_damage(cls, st), type=dtype, reach=MELEE_REACH[m.melee_class])

    def _minds_to_neutral(self, values: Mapping[str, int], col: Collector) -> dict[str, float]:
        """gurps.derived: Will and Per start at IQ and measure the same kind of thing, so each is
        read on IQ's population ladder as the neutral will and perception (a stat block's
        Will 14 beside IQ 12, Strong Will, is a strong will elsewhere too)."""
        lad = self.characteristics()["IQ"].ladder
        out: dict[str, float] = {}
        for f, value in values.items():
            if not lad.has_native(value):
                near = lad.nearest_native(value)
                if value > near:  # a creature's: its multiple of the table's top crosses (core.beyond; extra_to_neutral)
                    col.loss("assumed", f"$.{f}", f"{f} {value} lies beyond IQ's population table (its percentile is "
                             f"the end's, {near}'s); it crosses as {value / near:.2f} times the top of the table, which "
                             "another system writes as far as its stat block holds [core.beyond]", "gurps.population")
                else:
                    col.loss("clamped", f"$.{f}", f"{f} {value} lies outside IQ's population table; read as {near}",
                             "gurps.population")
                value = near
            step = lad.step_of(value)
            out[MINDS[f]] = step.rep
            if col.tracing:
                col.step(f"$.{f}", f"{f} {value}", f"{MINDS[f]} percentile {step.rep:.3f}",
                         rules=["gurps.derived", step.rule], source=step.source, note=f"{f} on IQ's population ladder")
        return out

    @staticmethod
    def _line_entry(w: GurpsWeapon) -> tuple[Any, str | None]:
        """A weapon line's catalog weapon (its ``catalog`` id, else what its name says, when its
        skill fires that kind of gun) and the class its name says."""
        from xsys.core.registry import catalog

        cat = catalog()
        entry, word_class = (cat.weapons.get(w.catalog), None) if w.catalog else cat.identify_weapon(w.name)
        if entry is not None and w.skill and CLASS_SKILL[entry.weapon_class] != w.skill and \
                (SKILL_CLASS.get(w.skill) or class_of_skill(w.skill, w.Acc)) != entry.weapon_class:
            entry = None  # 'Glock 17' fired with Guns (Rifle) or Knife is not the catalog Glock
        return entry, word_class

    def _close_combat_line(self, w: GurpsWeapon) -> bool:
        """Whether ``_weapon_to_neutral`` reads a weapon line as close combat (None): no catalog
        weapon, and a skill that fires no gun, or none and a melee word (not "spear gun") in its name."""
        entry, word_class = self._line_entry(w)
        if entry is not None:
            return False
        if not w.skill:
            return not word_class and melee_class_of(w.name) != "improvised" and "gun" not in w.name.lower()
        return SKILL_CLASS.get(w.skill) is None and class_of_skill(w.skill, w.Acc) is None

    def _weapon_to_neutral(self, w: GurpsWeapon, col: Collector, path: str, st: int | None = None) -> Weapon | None:
        """A weapon line as what it is (core.catalog.Catalog.identify_weapon, one answer for every
        system): its catalog weapon (its ``catalog`` id, else what its name says, when its skill
        fires that kind of gun), with the line's own Shots where it states them; else a weapon of
        the class its skill fires (the kind of it the name says: a revolver), else of the class
        its name says, else (no skill, a name that says nothing) read by its Accuracy and said in
        a warning: never a silent pistol. A close-combat line is None (it crosses as melee). A
        thrown blade's damage is its thrower's (ST `st`, 10 where none is known): the weapon
        crosses as what it does at ST 10."""
        from xsys.core.registry import catalog

        cat = catalog()
        entry, word_class = self._line_entry(w)
        if entry is not None:
            nw = msgspec.structs.replace(strip_entry(entry), name=w.name)
            if col.tracing:
                col.step(path, w.name, f"catalog {entry.id}", rules=["gurps.weapon-stats"], source="assumed")
            if w.Shots and w.Shots != entry.capacity:
                col.loss("assumed", f"{path}.Shots", f"{w.name}: the line states Shots {w.Shots}; catalog "
                         f"weapon {entry.id} holds {entry.capacity}: the stated {w.Shots} is kept", "gurps.weapon-stats")
                nw = msgspec.structs.replace(nw, capacity=w.Shots)
            self._damage_line_loss(w, nw, col, path)
            return nw  # type: ignore[return-value]
        if not w.skill:  # a melee word makes a close-combat weapon, unless the name says gun ("spear gun")
            close = melee_class_of(w.name) != "improvised" and "gun" not in w.name.lower()
            cls = word_class or ("" if close else None)
            if cls == "":
                col.loss("kept-verbatim", path, f"{w.name} (no skill; its name says a {melee_class_of(w.name)}) is a "
                         f"close-combat weapon: it crosses as one; its GURPS line is kept "
                         f"(carried.gurps.melee.{w.name})", "gurps.melee")
                return None
            if cls is None:
                cls = "handgun" if w.Acc <= 3 else "rifle"
                col.loss("unsupported-field", f"{path}.skill", f"{w.name!r} states no skill and its name says no weapon "
                         f"or class; read as a {cls} by its Acc {w.Acc} (up to 3 a pistol's): say its skill "
                         f"({', '.join(SKILL_CLASS)})", "gurps.weapon-stats")
        else:
            cls = SKILL_CLASS.get(w.skill)
        if cls is None:
            cls = class_of_skill(w.skill, w.Acc)
            if cls is None:
                col.loss("kept-verbatim", path, f"{w.name} ({w.skill}) is a close-combat weapon: it crosses as "
                         f"{melee_class_words('natural' if natural_attack(w.name) else _melee_class(w))}; its GURPS line is kept (carried.gurps.melee.{w.name})",
                         "gurps.melee")
                return None
            # never a silent handgun: a Guns specialisation this plugin does not
            # list is read by its words, else by its Accuracy, and said so
            col.loss("unsupported-field", f"{path}.skill", f"{w.skill!r} is not one of "
                     + ", ".join(SKILL_CLASS) + f"; {w.name!r} is read as a {cls}", "gurps.weapon-stats")
        cls = cat.weapon_class_named(w.name, cls)  # a 'Revolver' fired with Guns (Pistol) is a revolver
        code = dice_code(w.damage)
        probe = Weapon(name=w.name, weapon_class=cls, muzzle_energy=Energy(0.0))  # type: ignore[arg-type]
        blade = thrown_blade(probe)
        if blade is not None:
            return self._thrown_blade_to_neutral(w, probe, blade, code, st, col, path)
        lad = self._lad["damage"]
        if not lad.has_native(code):
            near = lad.nearest_native(code)
            col.loss("rounded", f"{path}.damage", f"{w.damage} read as {dice_text(near)}", "gurps.damage")
            code = near
        energy = lad.neutral(code)
        col.loss("assumed", f"{path}.damage", weapon_note(w.name, w.damage, energy), "gurps.damage")
        modes = ["semi", "auto"] if "*" in w.RoF else ["semi"]
        nw = Weapon(name=w.name, weapon_class=cls, muzzle_energy=Energy(energy),  # type: ignore[arg-type]
                    fire_modes=modes, capacity=w.Shots,  # type: ignore[arg-type]
                    sights="none" if cls == "thrown" else "iron")
        self._damage_line_loss(w, nw, col, path)
        say_grenade(col, path, nw)
        return nw

    def _thrown_blade_to_neutral(self, w: GurpsWeapon, probe: Weapon, blade: str, code: int, st: int | None,
                                 col: Collector, path: str) -> Weapon:
        """A thrown blade's line: its damage is the thrower's (his thrust or swing at ST `st`, 10
        where none is known), so the weapon crosses as its class's thrown blade
        (core.model.THROWN_BLADE_ENERGY), scaled by what the line adds beyond its class's row."""
        at = 10 if st is None else st
        row = self.weapon_stats(probe, at).damage
        lad = self._lad["damage"]
        energy = THROWN_BLADE_ENERGY[blade]
        how = f"its class's (a thrown {blade}: {energy:g} J)"
        if code != row:
            # the line's dice against its row's at the thrower's ST, each mean counting a cut or a thrust
            # as at least 1, on the ladder's law (its energies rise as the mean damage squared:
            # gurps.damage): a small knife's 1d-2 against the row's 1d-1 is (2.00/2.67)^2 of the class's 50 J,
            # 28 J (the ladder's own steps at ST 10, 1d-3 against 1d-2, had given 3.8 J)
            means = [float(sum(max(1, v) * p for v, p in damage_distribution(c).items())) for c in (code, row)]
            energy = round(energy * (means[0] / means[1]) ** 2, 1)
            how = f"{energy:g} J: its class's {THROWN_BLADE_ENERGY[blade]:g} J by {w.damage} against the row's " \
                  f"{dice_text(row)} (mean {means[0]:.2f} against {means[1]:.2f}, squared)"
        col.loss("assumed", f"{path}.damage", f"{w.name}: a thrown {blade}'s damage is the thrower's ({w.damage} at ST "
                 f"{at}{'' if st is not None else ', none known'}): the weapon crosses with {how}",
                 "gurps.weapon-stats")
        return Weapon(name=w.name, weapon_class="thrown", muzzle_energy=Energy(energy),  # type: ignore[arg-type]
                      capacity=w.Shots, sights="none")

    def _damage_line_loss(self, w: GurpsWeapon, nw: Weapon, col: Collector, path: str) -> None:
        """One weapon, one damage line (gurps.damage): a line whose own damage is not the line of
        the weapon it is (its catalog weapon's, or the cartridge its name states) is said, since a
        sheet written again from the neutral weapon does the weapon's line."""
        basis = _basis(nw)
        if basis.kind == "class":
            return
        line = self.damage_code(nw)
        if line == dice_code(w.damage):
            return
        col.loss("merged", f"{path}.damage", damage_line_note(w.name, basis, dice_text(line), w.damage), "gurps.damage")

    def weapon_from_neutral(self, w: Weapon, col: Collector, path: str,  # type: ignore[override]
                            kept: Mapping[str, Any] | None = None, st: int | None = None) -> GurpsWeapon:
        """A neutral weapon's GURPS line (weapon_stats); a thrown blade at the thrower's ST `st`
        (None: no thrower known, ST 10, said)."""
        s = self.weapon_stats(w, st)
        shots, usual = _shots(w)
        blade = thrown_blade(w)
        if blade is not None:
            shots, usual = 1, False  # one blade in the hand; a sheet lists more as more lines
        reach = (f", 1/2D {s.half_D} m" if s.half_D is not None else "") + \
            (f", Max {s.Max:,} m" if s.Max is not None else "") + \
            (f" ({s.reach_origin})" if s.half_D is not None or s.Max is not None else "")
        stats = ", ".join([f"damage {dice_text(s.damage)}" + (f" {s.type}" if s.type != "cr" else ""), f"Acc {s.Acc}"]
                          + [f"{k} {v}" for k, v in (("SS", s.SS), ("ST", s.ST)) if v is not None])
        col.loss("assumed", path, f"{w.name}: GURPS line ({stats}{reach}) from {s.origin}"
                 + (f"; a thrown {blade} is thrown with {s.skill}, its damage the thrower's, not its muzzle energy's"
                    + ("" if st is not None else ": no thrower's ST is known, ST 10") if blade else ""),
                 "gurps.weapon-stats")
        if usual and w.weapon_class != "thrown":  # a thrown weapon is one object: nothing assumed
            col.loss("assumed", path, capacity_note(w.name, f"the usual {w.weapon_class}'s Shots {shots}"),
                     "gurps.weapon-stats")
        rof = s.RoF
        m = re.match(r"(\d+)", rof)
        if m and shots and "*" not in rof and int(m.group(1)) > shots:  # a derringer: its two barrels; a flare pistol once
            rof = str(shots)
            col.loss("assumed", f"{path}.RoF", f"{w.name}: RoF {rof}, not the {w.weapon_class}'s usual {s.RoF}: it holds "
                     f"{shots}", "gurps.weapon-stats")
        return GurpsWeapon(name=w.name, skill=s.skill, damage=dice_text(s.damage), type=s.type,  # type: ignore[arg-type]
                           Acc=s.Acc, SS=s.SS, RoF=rof, Shots=shots, ST=s.ST, catalog=w.catalog, half_D=s.half_D,
                           Max=s.Max)

    def _thrown_blade_skills(self, skills: dict[str, Any], weapons: Sequence[GurpsWeapon], combatant: Combatant,
                             attrs: Mapping[str, int], col: Collector) -> dict[str, Any]:
        """The skill of each thrown blade's line (Axe Throwing ...: LINE_SKILLS), which the
        neutral skills alone never write: at the level the NPC's throw competence gives it (one
        competence for whatever he throws), else at its default from DX (gurps.defaults), each
        said as assumed."""
        throw = combatant.skills.get("throw")
        own = {n: sk for n, sk in combatant.sheet_skills.items() if sk.system == self.key and n in self.line_skills}
        for name, sk in own.items():
            # a GURPS sheet's own Knife Throwing-12 (no knife on its lines) is its throwing: written under
            # its own name, not as the Throwing the neutral throw writes (the same level, read back)
            general = [n for n, keys in self.skills().items() if n not in self.line_skills and list(keys) == sk.covers]
            if name not in skills and any(skills.get(n) == sk.level for n in general):
                for n in general:
                    if skills.get(n) == sk.level and n not in combatant.sheet_skills:
                        del skills[n]
                skills[name] = sk.level
        for i, w in enumerate(weapons):
            if w.skill not in self.line_skills or w.skill in skills:
                continue
            if throw is not None:
                ctx = {"ST": attrs["ST"]}
                # as the sheet's Throwing is written from it: rounded toward the source's tier (core.tiers)
                tiered = tier_steps(self, w.skill, ["throw"], ctx, {"throw": throw})
                skills[w.skill] = tiered[0].native if tiered is not None else \
                    self.level_for(w.skill, throw, {**ctx, "@key": "throw"})
                why = f"the NPC's throw competence {throw:.3f}, as his Throwing"
                rule = self.competence_rule(w.skill)
            else:
                attr, off = DEFAULT_OF[w.skill]
                skills[w.skill] = max(0, attrs[attr] + off)
                why = f"its default, {attr}{off:+d}: the source states no throwing"
                rule = "gurps.defaults"
            # (said at the line: a note at the skill's path would stand for the audit's own line there)
            col.loss("assumed", f"$.weapons[{i}].skill", f"{w.skill} {skills[w.skill]} for the {w.name} line: {why}",
                     rule)
        return skills

    def armor_to_neutral(self, a: GurpsArmor, col: Collector, path: str) -> Armor:
        from xsys.core.registry import catalog

        entry = catalog().find_armor(a.name, a.catalog, path=f"{path}.catalog")
        lad = self._lad["dr"]
        if entry is not None:
            # the catalog item, with what the sheet states of it: its PD (the neutral deflection,
            # gurps.pd), where it sits and, where the sheet's DR is not the item's, its DR
            out = msgspec.structs.replace(strip_entry(entry), name=a.name, deflection=a.PD)
            if a.locations != self._armor_locations(out.covers):
                out = msgspec.structs.replace(out, covers=list(a.locations))
            out = self._dr_at_to_neutral(a, out, entry, col, path)
            item_dr = int(lad.native(float(entry.stops)))
            if a.DR != item_dr:
                dr = a.DR if lad.has_native(a.DR) else lad.nearest_native(a.DR)
                out = msgspec.structs.replace(out, stops=Energy(lad.neutral(dr)))
                col.loss("assumed", f"{path}.DR", armorline.stated_note(a.name, f"DR {a.DR}", entry, f"DR {item_dr}",
                                                                       f"DR {dr}", float(out.stops), "DR"), "gurps.armor")
            return out  # type: ignore[return-value]
        dr = a.DR if lad.has_native(a.DR) else lad.nearest_native(a.DR)
        if dr != a.DR:
            col.loss("rounded", f"{path}.DR", f"DR {a.DR} read as DR {dr}", "gurps.armor")
        # the joules of a DR on the assumed gurps.armor scale: said, as every system says an armor
        # line of no catalog item read from its points
        col.loss("assumed", f"{path}.DR", armorline.points_note(a.name, f"DR {dr}", lad.neutral(dr)), "gurps.armor")
        plain = Armor(name=a.name, covers=list(a.locations), stops=Energy(lad.neutral(dr)),  # type: ignore[arg-type]
                      deflection=a.PD)
        return self._dr_at_to_neutral(a, plain, None, col, path)

    def _dr_at_to_neutral(self, a: GurpsArmor, out: Armor, entry: Any, col: Collector, path: str) -> Armor:
        """A line's lower DR at some locations (``DR_at``) as what the armor stops there: its
        catalog item's figures where they give that DR (a round trip is exact), else the DR's."""
        if not a.DR_at and not (entry is not None and out.stops_at):
            return out
        lad = self._lad["dr"]
        at: dict[str, Energy] = {}
        for c in out.covers:
            n = ARMOR_LOCATIONS.get(c)
            dr = a.DR_at.get(n) if n is not None else None  # type: ignore[call-overload]
            if dr is None:
                continue
            mine = out.stops_at.get(c) if entry is not None else None
            if mine is not None and int(lad.native(float(mine))) == dr:
                at[c] = mine
            else:
                dr = dr if lad.has_native(dr) else lad.nearest_native(dr)
                at[c] = Energy(min(lad.neutral(dr), float(out.stops)))
        if entry is not None and at != dict(out.stops_at):
            col.loss("assumed", f"{path}.DR_at", f"{a.name}: the sheet's DR by location "
                     f"({', '.join(f'{k} {v}' for k, v in a.DR_at.items()) or 'none'}) is not its catalog item's; "
                     "the sheet's is kept", "gurps.armor")
        return msgspec.structs.replace(out, stops_at=at)

    @staticmethod
    def _armor_locations(covers: Sequence[str]) -> list[str]:
        """The GURPS locations of neutral `covers` (gurps.hit-location), in order, once each."""
        out: list[str] = []
        for c in covers:
            n = ARMOR_LOCATIONS.get(c)
            if n is not None and n not in out:
                out.append(n)
        return out

    def armor_from_neutral(self, a: Armor, col: Collector, path: str) -> GurpsArmor:  # type: ignore[override]
        dr = int(self._lad["dr"].native(float(a.stops)))
        locs: list[str] = []
        covers, helmet = armor_covers(a)
        if helmet:
            col.loss("assumed", f"{path}.covers", f"{a.name}: a helmet on the torso alone (what a source that "
                     "names no location leaves) is written as covering the head", "gurps.hit-location")
        elif a.catalog is None and a.kind == "other" and covers == ["torso"]:
            col.loss("assumed", f"{path}.covers", f"{a.name}: no catalog entry and no kind; it covers the torso, "
                     "the neutral default when a source names no location", "gurps.hit-location")
        for c in covers:
            n = ARMOR_LOCATIONS.get(c)
            if n is None:
                col.loss("unsupported-field", f"{path}.covers", f"{c} is no GURPS armor location")
            elif n not in locs:
                locs.append(n)
        pd, why = passive_defense(a)
        if why is not None:
            col.loss("assumed", f"{path}.PD", f"{a.name}: no passive defense stated; PD {pd} assumed ({why})",
                     "gurps.pd")
        if col.tracing:
            col.step(path, a.name, f"stops {float(a.stops):g} J", f"DR {dr}", rules=["gurps.armor"], source="assumed")
            col.step(f"{path}.PD", a.name, f"deflection {a.deflection}" if why is None else None, f"PD {pd}",
                     rules=["gurps.pd"], source="assumed")
        lower: dict[str, int] = {}  # a part that stops less (gurps.armor): its DR, the least of what maps there
        for c, e in a.stops_at.items():
            n = ARMOR_LOCATIONS.get(c)
            part = int(self._lad["dr"].native(float(e)))
            if n is not None and n in locs and part != dr:
                lower[n] = min(part, lower.get(n, part))
        if lower and col.tracing:
            col.step(f"{path}.DR_at", a.name, ", ".join(f"{c} {float(e):g} J" for c, e in a.stops_at.items()),
                     ", ".join(f"{n} DR {v}" for n, v in lower.items()), rules=["gurps.armor"], source="assumed")
        return GurpsArmor(name=a.name, PD=pd, DR=dr, locations=locs or ["torso"], DR_at=lower,  # type: ignore[arg-type]
                          catalog=a.catalog)

    # ---- shots: the core's (xsys.core.shotsheet), from the declaration in system.py, and these ----
    def shot_weapon_to_neutral(self, n: GurpsShot, col: Collector) -> Weapon:  # type: ignore[override]
        """A shot's weapon: a catalog weapon (or a class word) by name, else its line at the
        shooter's ST; a bow or a line no Guns or Throwing skill fires is refused."""
        from xsys.core.registry import catalog

        if isinstance(n.weapon, str):
            entry, word_class = catalog().identify_weapon(n.weapon)  # one answer for every system
            if entry is not None:
                weapon = strip_entry(entry)
            elif word_class is not None:
                weapon = msgspec.structs.replace(generic_weapon(word_class), name=n.weapon)
                col.loss("assumed", "$.weapon", f"{n.weapon!r} is no catalog weapon; its name says a {word_class}: "
                         f"the generic {word_class}'s muzzle energy and size", "gurps.damage")
            else:
                raise InputError("unknown weapon", path="$.weapon",
                                 expected="a catalog weapon (see `xsys catalog weapon`), a weapon class (pistol, "
                                          "revolver, smg, carbine, rifle, shotgun, machine gun) or a weapon line",
                                 found=repr(n.weapon))
            say_grenade(col, "$.weapon", weapon)
            return weapon
        if self._bow(n.weapon) is not None:
            raise InputError("a bow or a crossbow: no neutral weapon class holds one (the rule texts are firearms "
                             "rules)", path="$.weapon", expected="a firearm or a thrown weapon",
                             found=repr(n.weapon.name))
        line = self._weapon_to_neutral(n.weapon, col, "$.weapon", n.shooter_ST)
        if line is None:
            raise InputError("not a ranged weapon", path="$.weapon.skill",
                             expected="a Guns or Throwing skill", found=repr(n.weapon.skill))
        if line.catalog is None:
            back = self.weapon_from_neutral(line, Collector(self.key), "$.weapon", st=n.shooter_ST)
            for f in ("Acc", "SS", "RoF", "ST", "half_D", "Max"):
                if getattr(n.weapon, f) is not None and getattr(back, f) != getattr(n.weapon, f):
                    said = "1/2D" if f == "half_D" else f
                    col.loss("unsupported-field", f"$.weapon.{said}", f"{said} {getattr(n.weapon, f)} has no "
                             f"neutral field; it reads as {getattr(back, f)} on the way back", "gurps.weapon-stats")
        return line

    def shot_weapon_from_neutral(self, shot: Shot, col: Collector, path: str) -> str | GurpsWeapon:
        """A catalog weapon by its id; any other (a thrown blade at the shooter's ST) by its line,
        which keeps its own name beside its catalog id."""
        from xsys.core.registry import catalog

        w = shot.weapon
        entry = catalog().weapons.get(w.catalog) if w.catalog else None
        if entry is not None and w.name in (entry.name, entry.id):
            return w.catalog  # type: ignore[return-value]
        return self.weapon_from_neutral(w, col, path, st=self._shooter_st(shot))

    def shot_own_to_neutral(self, n: GurpsShot, col: Collector) -> dict[str, Any]:
        """The shooter's ST, the hit location, the light modifier, a pop-up attack and blind fire."""
        out: dict[str, Any] = {"light.illuminance": Illuminance(self._lad["light"].neutral(n.light))}
        if n.shooter_ST is not None:
            out["shooter.characteristics"] = {"strength": self._attr.neutral(n.shooter_ST)}
        if n.location is not None:
            out["called_location"] = LOCATION_TO_NEUTRAL[n.location]
            if n.location in LOSSY_LOCATIONS:
                col.loss("merged", "$.location", f"{n.location} is read as {out['called_location']}",
                         f"gurps.hit-location.{n.location}")
        # blind fire (gurps.ranged-modifiers.blind_fire) at a hidden target or in total darkness is
        # the neutral "cannot be seen at all": nothing shows, or 0 lx with no aid
        blind_neutral = n.blind_fire and (n.exposure == "hidden" or n.light == -10)
        if n.blind_fire and not blind_neutral:
            col.loss("unsupported-field", "$.blind_fire", "blind_fire = True has no neutral equivalent (the gurps "
                     "check keeps it)", "gurps.ranged-modifiers.blind_fire")
        if blind_neutral and n.exposure == "hidden":
            out["target.cover.exposure"] = 0.0
        # pop-up attack (gurps.ranged-modifiers.pop_up): the shooter fires from cover; half of him
        # shows while he pops out (assumed)
        if n.pop_up:
            out["shooter.cover"] = Cover(exposure=POP_UP_EXPOSURE)
        return out

    def _shooter_st(self, shot: Shot) -> int | None:
        """The shooter's ST from his strength, where the shot states it."""
        if "strength" not in shot.shooter.characteristics:
            return None
        return int(self._attr.step_for(float(shot.shooter.characteristics["strength"])).native)

    def shot_own_from_neutral(self, shot: Shot, col: Collector) -> dict[str, Any]:
        """The light modifier after a vision aid's cap (the text has no aids), a pop-up attack from
        the shooter's own cover, blind fire at what cannot be seen, his ST and the hit location."""
        w = shot.weapon
        lx = self._lad["light"].step_for(float(shot.light.illuminance))
        # The text has no vision aids: the shot is written with the light modifier after the
        # aid's assumed cap (light_modifier), the modifier the check of the neutral shot applies.
        light_mod, _, light_why = self.light_modifier(shot)
        aid_words = list(shot.light.aids) + ([f"the weapon's {w.sights}"] if w.sights in NV_SIGHTS else [])
        if light_mod != int(lx.native):
            col.loss("merged", "$.light.aids", f"{', '.join(aid_words)}: the GURPS text has no vision aids; the shot "
                     f"is written with light {light_mod} ({light_why}) instead of {int(lx.native)} ({lx.label}); "
                     "read back, it is that light without the aid", "gurps.hit-modifiers")
        elif shot.light.aids:
            col.loss("unsupported-field", "$.light.aids", f"{', '.join(shot.light.aids)}: the GURPS text has no "
                     f"vision aids; here the aid changes no light modifier (light {light_mod}: {light_why})",
                     "gurps.hit-modifiers")
        turns = math.floor(float(shot.shooter.aim_time) / TURN_SECONDS + 1e-9)
        aims = turns > 0 and not exact(float(shot.shooter.speed)) > STEP_SPEED
        own = float(shot.shooter.cover.exposure)
        pop_up = own < 1 and not aims  # a pop-up shot is unaimed (the check)
        if pop_up and abs(own - POP_UP_EXPOSURE) > 1e-9:
            col.loss("merged", "$.shooter.cover", f"the shooter's cover (visible fraction {own:g}) is read as a "
                     "pop-up attack", "gurps.ranged-modifiers.pop_up")
        elif own < 1 and aims:
            col.loss("unsupported-field", "$.shooter.cover", f"the shooter's cover (visible fraction {own:g}): he "
                     "aims from it, so no pop-up attack; the text has no modifier for a shooter's own cover",
                     "gurps.ranged-modifiers.pop_up")
        ex = self._lad["exposure"].step_for(float(shot.target.cover.exposure))
        exposure0 = float(shot.target.cover.exposure) == 0 and not behind_see_through(shot.target.cover.barrier,
                                                                                     ex.native)
        dark = float(shot.light.illuminance) == 0 and not (set(shot.light.aids) & (NV_AIDS | LIGHT_AIDS)
                                                           or w.sights in NV_SIGHTS)
        return {"light": light_mod, "pop_up": pop_up, "blind_fire": exposure0 or dark, "shooter_ST": self._shooter_st(shot),
                "location": LOCATION_TO_NATIVE[shot.called_location] if shot.called_location else None}
