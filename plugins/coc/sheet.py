"""The Call of Cthulhu stat block and shot as xsys's neutral model, and back: characteristics and
skills (equated, exact levels kept for the way back), hit points, weapons and armor by what they
physically are with the line written from the weapon table, close-combat lines, and what only CoC
states (Sanity, Magic Points, Luck, spells), carried. :class:`CocSheet` adds these conversions to
the game (rules.py).
"""

from __future__ import annotations

from typing import Any, ClassVar, Mapping

import msgspec

from xsys.core import armorline
from xsys.core.catalog import capacity_note, grenade_blast
from xsys.core.codec import dec_hook
from xsys.core.sheet import kept_line
from xsys.core.melee import (line_skill_levels, line_skills_untrained, melee_kind, melee_skills_of, melee_skills_written,
                             taken_back)
from xsys.core.model import Armor, Combatant, MeleeWeapon, Shot, Weapon, melee_class_of, melee_weapon, natural_attack
from xsys.core.percentile import D100_SHOT
from xsys.core.shotsheet import ShotSheet, ShotWord
from xsys.core.trace import Collector

from .model import CocArmor, CocMelee, CocNpc, CocShot, CocWeapon
from .names import sixth_name
from .rules import CocRules, _catalog, damage_bonus




def _num(x: float) -> str:
    return f"{x:g}"


# the 6th-edition sheet's unarmed attacks beside Fist/Punch (coc-ja.melee; coc-zh-combat names
# them attack skills): no neutral skill of their own, but the best may be the NPC's brawl, as a
# creature's natural attack with a chance of its own (Bite 40%: _unarmed_attack) may
UNARMED_ATTACKS = ("Kick", "Head Butt")


def _unarmed_attack(skill: str) -> bool:
    """A skill that is an unarmed attack of its own: a Kick, a Head Butt, a creature's natural
    weapon in any language its name says (Bite, 噬咬, 鉤爪, かぎ爪)."""
    return skill in UNARMED_ATTACKS or natural_attack(skill)


class CocSheet(CocRules):
    """The conversions of :class:`CocSystem`'s documents to and from the neutral model."""

    # close-combat lines (PercentileSystem.melee_from_neutral: tables.toml [melee_line],
    # coc-ja.melee); a 7th-edition line carried for a weapon gives its dice and skill
    melee_line_type: ClassVar[type] = CocMelee
    melee_kin: ClassVar[tuple[str, ...]] = ("coc7",)

    def melee_dice(self, dice: str) -> str:
        return dice.lower()  # the 6th-edition table's "1d4+db"

    # ==== characteristics and skills ===================================================
    def derived_fields(self) -> dict[str, tuple[tuple[str, ...], str]]:
        return {"HP": (("CON", "SIZ"), "coc-ja.hp")}  # HP = ceil((CON + SIZ) / 2)

    def sheet_derived(self, npc: CocNpc) -> dict[str, tuple[Any, str]]:
        """The damage bonus a melee line's '+db' adds, by STR + SIZ (coc-ja.damage-bonus), and
        HP (coc-ja.hp), starting SAN and Luck (both POW x 5: coc-ja.derived) by the rule where the block states
        none."""
        out: dict[str, tuple[Any, str]] = {"DB": (damage_bonus(npc.STR, npc.SIZ), "coc-ja.damage-bonus")}
        if npc.HP is None:
            out["HP"] = (npc.derived_HP, "coc-ja.hp")
        if npc.SAN is None:  # an NPC from a system with no Sanity: its starting SAN, POW x 5
            out["SAN"] = (npc.POW * 5, "coc-ja.derived")
        if npc.Luck is None:
            out["Luck"] = (npc.luck_roll, "coc-ja.derived")
        return out

    def sheet_legend(self) -> dict[str, dict[str, str]]:
        return {"armor": {
            "A": "the armor value: points of damage it stops (coc-ja.armor.table)",
            "B": "the table's second number, which the rule text never explains; it is half of A in every "
                 "row but the heavy leather jacket (coc-ja.armor.table)"}}

    def sheet_blank(self, table: str, row: Mapping[str, Any]) -> frozenset[str]:
        """A thrown line (Throw) prints no gun columns: the weapon table gives a thrown weapon no
        burst, shots in the gun, malfunction number, sights or ammunition."""
        if table == "weapons" and (row.get("skill") == "Throw" or row.get("ammo") == "none"):
            return frozenset({"burst", "capacity", "malfunction", "sights", "ammo"})
        return frozenset()

    def sheet_notes(self, npc: Any) -> dict[str, dict[str, str]]:
        """A shotgun's bands and a thrown weapon's half damage bonus, where the sheet has them, and
        what each armor piece covers (core.armorline.band_and_throw_notes)."""
        thrown = "coc-zh.thrown" if self.key == "coc-zh" else \
            "coc-ja.damage-bonus, assumed: the 6th-edition weapon table's '+1/2db'"
        return armorline.band_and_throw_notes(npc, "m", "coc-ja.damage.shotgun", thrown, "4d6/1d6", 5)

    def weapon_to_neutral(self, w: CocWeapon, col: Collector | None = None, path: str = "$") -> Weapon:
        """A weapon line as what it physically is (PercentileSystem.line_weapon_to_neutral): a
        weapon in no catalog is of its skill's class, the kind of it its name says (a 'Revolver'
        fired with Handgun); '1 or burst' is automatic fire; a stated length goes with it."""
        cls = _catalog().weapon_class_named(w.name, self.tables()["skills"][w.skill]["weapon_class"])
        return self.line_weapon_to_neutral(w, col, path, cls, ["semi", "auto"] if w.burst else ["semi"],
                                           **({"length": w.length} if w.length is not None else {}))

    # ==== npc conversions ==============================================================
    def armor_from_neutral(self, armor: Armor, col: Collector | None = None, path: str = "$") -> CocArmor:
        A, B, step = self.armor_value(armor)
        if col is not None and col.tracing:
            col.step(path, armor.name, f"stops {float(armor.stops):g} J", f"armor {A}/{_num(B)} ({step.label})",
                     rules=[step.rule], source=step.source)
        # the physical value, the coverage and the deflection unless the catalog item or the row
        # itself gives them back (PercentileSystem.worn_armor_line)
        return self.worn_armor_line(armor, CocArmor(name=armor.name, A=A, B=B, catalog=armor.catalog), col, path,
                                    step.rule)

    # ==== npc conversions: the core's (xsys.core.sheet), from the declaration in system.py ====
    def derived_values(self, npc: CocNpc) -> dict[str, Any]:
        """The hit points by the rule (coc-ja.hp): stated ones beyond it cross as the toughness."""
        return {"HP": npc.derived_HP}

    def derived_to_neutral(self, npc: CocNpc, derived: Mapping[str, Any], col: Collector) -> dict[str, float]:
        """coc-ja.melee: Kick and Head Butt are unarmed attacks beside Fist/Punch (the Chinese
        rules' attack skills, coc-zh-combat). They hold no neutral skill of their own and are
        carried as they are; but on a sheet that states no Fist/Punch, one better than the punch's
        base is his unarmed competence, so the neutral brawl crosses at it: a kicker's Kick 70 with
        no punch stated is a GURPS Brawling and an nWoD Brawl, not untrained. (A stated punch is
        his brawl, and a better kick beside it is carried: a trip through a system with one
        unarmed skill would otherwise bring the punch home at the kick's level.) A creature's own
        natural attack (Bite 40, 噬咬 40) is its brawl at any level: a creature that bites does not
        punch, so no punch's base stands above it."""
        punch, levels = "Fist/Punch", npc.skills
        if punch not in self.skills() or levels.get(punch) is not None:
            return {}  # a stated punch is his brawl (a better kick beside it stays carried as it is)
        chars = {k: getattr(npc, k) for k in self.characteristics()}
        floor = self.skill_floor(punch, chars)
        against = floor[0] if floor is not None else None
        attacks = [(lv, k) for k, lv in levels.items() if _unarmed_attack(k) and not self.skills().get(k)
                   and isinstance(lv, int) and not isinstance(lv, bool)]
        natural = [(lv, k) for lv, k in attacks if k not in UNARMED_ATTACKS]
        if against is None or not (natural or (attacks and max(attacks)[0] > against)):
            return {}
        level, name = max(natural if natural and max(attacks)[0] <= against else attacks)
        try:
            value = float(self.competence(punch, level, {**chars, "@key": "brawl"}))
        except (KeyError, ValueError):  # a level off the punch's ladder: it stays carried only
            return {}
        if level > against or name in UNARMED_ATTACKS:
            said = f"{name} {level} is an unarmed attack like Fist/Punch (not stated: base {against}): the better"
        else:
            said = f"{name} {level} is the creature's own attack, fought bare-handed (no Fist/Punch stated): it"
        col.loss("assumed", f"$.skills.{name}", f"{said} crosses as the neutral brawl (competence {value:.3f}); {name} "
                 "itself is carried as it is", "coc-ja.melee")
        if col.tracing:
            col.step(f"$.skills.{name}", f"{name} {level}", f"brawl competence {value:.3f}", rules=["coc-ja.melee"],
                     source="assumed", note="the NPC's best unarmed attack, on Fist/Punch's ladder")
        return {"brawl": value}

    def melee_line_to_neutral(self, m: CocMelee, col: Collector, path: str) -> MeleeWeapon:
        cls = melee_class_of(m.name, m.skill)
        natural = natural_attack(m.name, m.skill)
        special = not m.damage.strip()  # a line that states no damage: no line of its class elsewhere
        if col.tracing:
            col.step(path, f"{m.name} ({m.skill}, {m.damage})", f"melee {cls}" + (" (natural)" if natural else "")
                     + (" (no damage stated)" if special else ""), rules=["coc-ja.melee"], source="assumed")
        return melee_weapon(m.name, cls, natural, special)

    def native_block(self, npc: CocNpc, col: Collector) -> dict[str, Any]:
        """The names of its close-combat skills and its own stated HP, for the way back."""
        out: dict[str, Any] = {}
        names = melee_skills_of(self, npc.skills)
        if names:
            out["melee_skills"] = names
        if npc.HP is not None and npc.HP != npc.derived_HP:
            out["HP"] = npc.HP  # this sheet's own HP (the toughness it gave), for the way back
        return out

    def extra_to_neutral(self, npc: CocNpc, combatant: Combatant, col: Collector) -> Combatant:
        """How each weapon is carried (CoC's quick-draw rules only: carried.coc.carry), and the
        weapon its best melee skill names (Club 60 with no club line: GURPS writes Axe/Mace)."""
        carry: dict[str, str] = {}
        for i, w in enumerate(npc.weapons):
            if w.carry:
                carry[w.name] = w.carry
                col.loss("kept-verbatim", f"$.weapons[{i}].carry", f"{w.name} carried in a {w.carry}: the neutral "
                         f"model has no way of carrying a weapon; kept (carried.coc.carry.{w.name})",
                         "coc-ja.quickdraw.carry")
        more: dict[str, Any] = {"melee_kind": melee_kind(self, npc.skills)}
        if carry:
            ns = self.carried_namespaces[0]
            more["carried"] = {**combatant.carried, ns: {**combatant.carried.get(ns, {}), "carry": carry}}
        return msgspec.structs.replace(combatant, **more)

    def _own_skills(self, combatant: Combatant) -> Mapping[str, Any]:
        block = combatant.carried.get(self.carried_namespaces[0])
        skills = block.get("skills") if isinstance(block, Mapping) else None
        return skills if isinstance(skills, Mapping) else {}

    def melee_skills(self, levels: dict[str, Any], melee: list[Any], carried_lines: Mapping[str, Any],
                     combatant: Combatant, context: Mapping[str, Any], col: Collector) -> dict[str, Any]:
        """No punch where the brawl was a carried kick; the neutral melee written for the skill
        the melee lines use (a club line: Club), not for every CoC weapon skill at once
        (core.melee.melee_skills_written); a line written from its class whose skill the source
        states none for, at its base chance."""
        skills = self._punch_of_a_kick(levels, combatant, self._own_skills(combatant), context)
        if "Fist/Punch" in levels and "Fist/Punch" not in skills:
            taken_back(col, ["Fist/Punch"])  # (how it was written, floored at its base: no punch is written)
        native = combatant.native.get(self.key, {})
        # remembered names: this system's, else a sibling's that shares its skills (coc-zh <-> coc)
        names = native.get("melee_skills") or next(
            (n["melee_skills"] for n in combatant.native.values() if isinstance(n, dict) and n.get("melee_skills")
             and set(n["melee_skills"]) <= set(self.skills())), None)
        kind = self.melee_line(combatant.melee_kind)[0] if combatant.melee_kind else None  # coc-ja.melee
        skills = melee_skills_written(self, skills, [m.skill for m in melee], names, kind, col=col)
        skills = line_skill_levels(self, skills, melee, combatant, context, col)
        return line_skills_untrained(self, skills, [m for m in melee if m.name not in carried_lines], context, col)

    def carried_skills(self, levels: dict[str, Any], carried_levels: Mapping[str, Any], combatant: Combatant,
                       context: Mapping[str, Any], col: Collector) -> dict[str, Any]:
        """The skills no neutral key holds: its own native block's (a variant's, coc-zh's, kept
        for coc) and the carried ones; a 7th-edition sheet's under their 6th-edition names
        (coc7.conversion.6e: its Language (英語) is Other Language (英語) here)."""
        levels.update(combatant.native.get(self.key, {}).get("skills", {}))
        kin = self.carried_namespaces[0] not in combatant.carried
        levels.update({self.kin_skill_name(k) if kin else k: v for k, v in carried_levels.items()})
        return levels

    def kin_skill_name(self, name: str) -> str:
        return sixth_name(name)  # coc7.conversion.6e: 7th edition's Language (英語) is Other Language (英語)

    def _punch_of_a_kick(self, skills: dict[str, Any], combatant: Combatant, own_skills: Mapping[str, Any],
                         chars: Mapping[str, Any]) -> dict[str, Any]:
        """No Fist/Punch where the neutral brawl is the NPC's carried Kick or Head Butt (its own
        sheet stated no punch: ``derived_to_neutral``) and no sheet since stated a skill for it."""
        brawl = combatant.skills.get("brawl")
        if "Fist/Punch" not in skills or brawl is None \
                or any("brawl" in s.covers for s in combatant.sheet_skills.values()):
            return skills
        for name, level in own_skills.items():
            if _unarmed_attack(name) and isinstance(level, int) and not isinstance(level, bool):
                try:
                    gave = float(self.competence("Fist/Punch", level, {**chars, "@key": "brawl"}))
                except (KeyError, ValueError):
                    continue
                if abs(gave - float(brawl)) < 1e-9:
                    return {k: v for k, v in skills.items() if k != "Fist/Punch"}
        return skills

    def weapon_lines_from_neutral(self, combatant: Combatant, fields: Mapping[str, Any], kept: Mapping[str, Any],
                                  col: Collector) -> list[CocWeapon]:
        """A weapon line this sheet wrote comes back as written, with what the neutral weapon
        says now; another is written from the weapon table (coc-ja.damage)."""
        block = combatant.carried.get(self.carried_namespaces[0])
        carries = block.get("carry") if isinstance(block, Mapping) else None
        carries = carries if isinstance(carries, Mapping) else {}
        weapons = []
        for i, w in enumerate(combatant.weapons):
            old = kept_line(kept, "weapons", i, w.name)
            if old is not None:
                # native-only fields (damage, base range, ROF, malfunction, STR, carry, ammo)
                # come back verbatim; what the neutral weapon says is re-read from it.
                keep = {k: v for k, v in old.items() if k not in ("capacity", "length", "sights")}
                cw = msgspec.convert(keep, CocWeapon, dec_hook=dec_hook)
                fields_ = {"capacity": w.capacity if w.capacity else cw.capacity, "sights": w.sights}
                if "length" in old or w.catalog is None:
                    fields_["length"] = w.length
                cw = msgspec.structs.replace(cw, **fields_)
            else:
                cw = self.weapon_defaults(w)
                if grenade_blast(w) is not None and "grenade" in self.tables():
                    col.loss("assumed", f"$.weapons[{i}]", f"{w.name}: the weapon table's hand grenade, {cw.damage} at "
                             "the burst (tables.toml [grenade]), not the damage of a bullet of its energy; its blast "
                             "did not cross", "coc-ja.damage")
                else:
                    # what the line says beside its damage is the weapon table's, not the source's
                    # own (a 7th-edition line's uses per round, a GURPS line's Acc do not cross):
                    # said, as every system says its line
                    entry = _catalog().weapon_basis(w).entry
                    row = f"[weapon.{entry.id}]" if entry is not None and entry.id in self.tables()["weapon"] \
                        else f"[weapon_class.{w.weapon_class}]"
                    shots = f"{cw.shots_per_round} shot{'' if cw.shots_per_round == 1 else 's'} a round"
                    col.loss("assumed", f"$.weapons[{i}]", f"{w.name}: 6th-edition line (base range {cw.base_range}, "
                             f"{shots}, malfunction {cw.malfunction}, STR {cw.STR}) from tables.toml {row}, damage "
                             f"{cw.damage} (coc-ja.damage)", "coc-ja.weapons")
                # a 7th-edition line's own damage, base range, malfunction and capacity (one table)
                cw = self.with_kin_line(cw, w, combatant, i, col, f"$.weapons[{i}]", str.lower)
                if cw.capacity and cw.shots_per_round > cw.capacity:  # a one-shot flare pistol fires once
                    col.loss("assumed", f"$.weapons[{i}]", f"{w.name}: {cw.capacity} shot(s) per round, not the "
                             f"{w.weapon_class}'s usual {cw.shots_per_round}: it holds {cw.capacity}",
                             "coc-ja.reload.magazine")
                    cw = msgspec.structs.replace(cw, shots_per_round=cw.capacity)
            if not cw.capacity:  # unstated (0); a gun of 0 rounds cannot fire: the class's usual one
                typical = self.tables()["weapon_class"][w.weapon_class]["capacity"]
                cw = msgspec.structs.replace(cw, capacity=typical)
                if w.weapon_class != "thrown":  # a thrown weapon is one object: nothing assumed
                    col.loss("assumed", f"$.weapons[{i}]", capacity_note(w.name, f"the usual {w.weapon_class}'s {typical}"),
                             "coc-ja.reload.magazine")
            if old is None:
                carry = carries.get(w.name)
                if isinstance(carry, str):
                    cw = msgspec.structs.replace(cw, carry=carry)
                if col.tracing:
                    col.step(f"$.weapons[{i}]", w.name, f"{w.weapon_class}, {float(w.muzzle_energy):g} J",
                             f"{cw.damage}, base range {cw.base_range}", rules=["coc-ja.damage"], source="assumed",
                             note=f"damage by {_catalog().weapon_basis(w).said}")
            weapons.append(cw)
        return weapons

    def extra_from_neutral(self, npc: CocNpc, combatant: Combatant, col: Collector) -> CocNpc:
        """The hit points: this stat block's own, remembered, while the toughness is still what
        they gave; else the rule's at the neutral toughness (coc-ja.hp)."""
        derived_hp = npc.derived_HP
        hp = derived_hp
        t = combatant.toughness
        if t is not None:
            kept = combatant.native.get(self.key, {}).get("HP")
            if kept is not None and abs(kept / max(1, derived_hp) - t) < 1e-9:
                hp = kept  # this stat block's own HP, remembered
            else:
                hp = self.health_of(derived_hp, t, col)
        return msgspec.structs.replace(npc, HP=self.health_on_scale(hp, combatant, col))

    # ==== shot conversions: the d100 family's (core.percentile), with these words and fields ====
    shot_rules: ClassVar[Mapping[str, str]] = {"light.illuminance": "coc-ja.darkness", "target.armor": "coc-ja.armor.table",
                                               "weapon": "coc-ja.damage"}
    shot_sheet: ClassVar[ShotSheet | None] = msgspec.structs.replace(D100_SHOT, light=("light", "darkness"), words=(
        ShotWord("careful_aim", "shooter.aim_time", "careful-aim"),
        ShotWord("target_exposure", "target.cover.exposure", "exposure", form="label")))

    def shot_own_to_neutral(self, shot: CocShot, col: Collector) -> dict[str, Any]:
        """Its hold, support and rate of fire; two guns, Off-hand Shooting, Keeper doubling, the
        target's SIZ, a double tap and a mounted weapon have no neutral form (said)."""
        if shot.hold == "two guns":
            col.loss("unsupported-field", "$.hold", "two guns at once has no neutral form; one gun one-handed",
                     "coc-ja.stance.two-guns")
        for f, rule in (("off_hand_skill", "coc-ja.skill.off-hand-shooting"),
                        ("keeper_double", "coc-ja.aimed.keeper-double"),
                        ("target_SIZ", "coc-ja.autofire.order")):
            if getattr(shot, f) not in (None, False):
                col.loss("unsupported-field", f"$.{f}", f"{f} has no neutral form", rule)
        if shot.fire in ("double tap", "mozambique"):
            col.loss("unsupported-field", "$.fire", f"{shot.fire} has no neutral form; one shot",
                     f"coc-ja.{shot.fire.replace(' ', '-')}")
        if shot.support == "mounted":
            col.loss("merged", "$.support", "a mounted weapon is only 'braced' in the neutral model",
                     "coc-ja.autofire.penalty")
        return {"shooter.hands": 2 if shot.hold == "two-handed" else 1, "shooter.off_hand": shot.hold == "off-hand",
                "shooter.braced": shot.support != "hand-held", "called_location": shot.called_location,
                "burst": shot.rounds if shot.fire == "full auto" else 1}

    def shot_own_from_neutral(self, shot: Shot, col: Collector) -> dict[str, Any]:
        hold = "two-handed" if shot.shooter.hands == 2 else ("off-hand" if shot.shooter.off_hand else "one-handed")
        if shot.shooter.hands == 2 and shot.shooter.off_hand:
            hold = "off-hand"
            col.loss("merged", "$.hold", "two-handed off-hand hold read as off-hand (one hand)", "coc-ja.stance.off-hand")
        if float(shot.target.speed) or float(shot.shooter.speed):
            col.loss("unsupported-field", "$.speed", "CoC has no movement modifier to hit; speed dropped", "coc-ja.range")
        return {"hold": hold, "support": "braced" if shot.shooter.braced else "hand-held",
                "called_location": shot.called_location, "fire": "full auto" if shot.burst > 1 else "single",
                "rounds": shot.burst}
