"""The 7th-edition stat block and shot as xsys's neutral model, and back: characteristics and
skills through the core (equated on coc's checks), Sanity, Magic Points, Luck, spells and skills no
neutral key holds carried, close-combat lines by their weapon's class (coc7.melee), weapons and
armor by what they physically are, with the 7th-edition line written from the weapons table
(rules.py). :class:`Coc7Sheet` adds these conversions to the game (:class:`Coc7Rules`).
"""

from __future__ import annotations

from typing import Any, ClassVar, Mapping

import msgspec

from xsys.core import armorline
from xsys.core.catalog import capacity_note, grenade_blast
from xsys.core.codec import dec_hook
from xsys.core.sheet import kept_line
from xsys.core.melee import (line_skill_levels, line_skills_untrained, melee_kind, melee_skills_of, melee_skills_written,
                             skills_only_for)
from xsys.core.model import (Armor, Combatant, MeleeWeapon, Shot, Weapon, melee_class_of, melee_weapon, natural_attack,
                             thrown_blade)
from xsys.core.percentile import D100_SHOT
from xsys.core.shotsheet import ShotSheet, ShotWord
from xsys.core.trace import Collector
from xsys.core.units import Length

from .convert6 import seventh_name
from .model import Coc7Armor, Coc7Melee, Coc7Npc, Coc7Shot, Coc7Weapon, build_and_damage_bonus
from .rules import Coc7Rules

# coc7.conversion.6e (assumed, the Keeper Rulebook's conversion notes): 6th-edition skills
# 7th edition does not have. Grapple, Kick and Head Butt are Fighting (Brawl) attacks there (a
# kick, a head butt or a fighting manoeuvre, rolled with Brawl); Off-hand Shooting is gone (a
# second gun takes a penalty die).
BELOW = "{value:g} m/s is below the 7e threshold; no modifier"  # a speed no 7e modifier counts
NOT_SEVENTH = {"Grapple": "Fighting (Brawl)", "Kick": "Fighting (Brawl)", "Head Butt": "Fighting (Brawl)",
               "Off-hand Shooting": None}


def _melee_class(m: Coc7Melee, brawl: frozenset[str] = frozenset()) -> str:
    """A close-combat line's weapon class: what its name says; else, as knives and clubs are
    Fighting (Brawl) in 7th edition, a Brawl attack by its damage on the weapons table (1D3 fists,
    1D4 a knife, 1D6 a club); a creature's attack made with another skill that holds the brawl
    competence (`brawl`: its plain Fighting, its Bite) is a natural one, fought bare-handed;
    another Fighting skill by its name (coc7.melee)."""
    named = melee_class_of(m.name)
    if named != "improvised":
        return named
    if m.skill == "Fighting (Brawl)":
        die = m.damage.upper().split("+")[0].strip()
        return {"1D3": "unarmed", "1D4": "knife", "1D6": "club"}.get(die, "improvised")
    if m.skill in brawl:
        return "unarmed"
    return melee_class_of(m.name, m.skill)


class Coc7Sheet(Coc7Rules):
    """The 7th-edition documents' conversions to and from the neutral model."""

    # close-combat lines (PercentileSystem.melee_from_neutral: tables.toml [melee_line],
    # coc7.melee); a 6th-edition line carried for a weapon gives its dice and skill
    melee_line_type: ClassVar[type] = Coc7Melee
    melee_kin: ClassVar[tuple[str, ...]] = ("coc",)

    # ==== what the sheet prints beside its fields ===========================================
    def sheet_derived(self, npc: Coc7Npc) -> dict[str, tuple[Any, str]]:
        """What a 7th-edition sheet prints beside its fields: the damage bonus a '+DB' line adds
        and Build, by STR + SIZ on 7th edition's own table (coc7.derived; coc's 3-18 table would
        read STR 52 + SIZ 65 as +6D6), and HP, MP, MOV and starting SAN (= POW) by the rule where the
        sheet states none."""
        build, db = build_and_damage_bonus(npc.STR + npc.SIZ)
        out: dict[str, tuple[Any, str]] = {"DB": (db, "coc7.derived"), "Build": (build, "coc7.derived")}
        for field, derived in (("HP", npc.derived_HP), ("MP", npc.derived_MP), ("MOV", npc.derived_MOV)):
            if getattr(npc, field) is None:
                out[field] = (derived, "coc7.derived")
        if npc.SAN is None:  # an NPC from a system with no Sanity: 7th edition's starting SAN is POW
            out["SAN"] = (npc.POW, "coc7.derived")
        return out

    def sheet_blank(self, table: str, row: Mapping[str, Any]) -> frozenset[str]:
        """A Throw line prints no gun columns (the 7th-edition table's thrown rows: no bullets in
        the gun, no malfunction number), nor the sights xsys keeps for the way back."""
        if table == "weapons" and row.get("skill") == "Throw":
            return frozenset({"capacity", "malfunction", "sights"})
        return frozenset()

    def sheet_notes(self, npc: Any) -> dict[str, dict[str, str]]:
        """A shotgun's bands (in yards) and a thrown weapon's half damage bonus ('+½DB' on the 7th-
        edition table), and what each armor piece covers (core.armorline.band_and_throw_notes)."""
        return armorline.band_and_throw_notes(npc, "yd", "coc7.damage.shotgun",
                                              "coc7.damage, assumed: the 7th-edition table's '+½DB'", "4D6/1D6", 5)

    # ==== weapons ===========================================================================
    def weapon_class_of(self, w: Coc7Weapon) -> str:
        """The neutral class of a native weapon that is not in the catalog: shot dice by range band
        fire shot; else the kind of its skill's class its name says (a "Revolver" fired with
        Handgun); else its skill's class. A 7e line does not otherwise tell a revolver from an
        automatic (the table's .45 Automatic malfunctions on 100, as its revolvers do)."""
        from xsys.core.registry import catalog

        if w.skill == "Firearms (Rifle/Shotgun)" and ("/" in w.damage or catalog().identify_weapon(w.name)[1] == "shotgun"):
            return "shotgun"  # (the one skill fires both: a line named "Shotgun" is one, whatever its dice)
        return catalog().weapon_class_named(w.name, self.tables()["skills"][w.skill]["weapon_class"])

    def weapon_to_neutral(self, w: Coc7Weapon, col: Collector | None = None,  # type: ignore[override]
                          path: str = "$") -> Weapon:
        """A weapon line as what it physically is (PercentileSystem.line_weapon_to_neutral): a
        weapon in no catalog is of ``weapon_class_of``; the uses per round say its automatic fire."""
        modes = ["semi"] + [m for m in ("burst", "auto") if m in w.uses_per_round.replace("full auto", "auto")]
        return self.line_weapon_to_neutral(w, col, path, self.weapon_class_of(w), modes)

    def shot_weapon_class(self, skill: str | None, damage: str | None, word_class: str | None) -> str | None:
        """A shot's weapon in no catalog: shot dice by range band fired with Rifle/Shotgun fire shot;
        else the stated skill's class, else the class word its name ends in (coc7.damage)."""
        if skill == "Firearms (Rifle/Shotgun)" and "/" in (damage or ""):
            return "shotgun"
        return super().shot_weapon_class(skill, damage, word_class)

    # ==== armor =============================================================================
    def armor_from_neutral(self, armor: Armor, col: Collector | None = None,  # type: ignore[override]
                           path: str = "$") -> Coc7Armor:
        """Armor points by what it stops; the joules, coverage and deflection the points and the
        catalog item would not give back, kept on the line as 6th edition's (worn_armor_line)."""
        points, _, step = self.armor_value(armor)
        if col is not None:
            col.step(path, armor.name, f"stops {float(armor.stops):g} J", f"armor {points} ({step.label})",
                     rules=[step.rule], source=step.source)
        return self.worn_armor_line(armor, Coc7Armor(name=armor.name, armor=points, catalog=armor.catalog), col,
                                    path, step.rule)

    # ==== npc conversions: the core's (xsys.core.sheet), from the declaration in system.py ====
    def derived_values(self, npc: Coc7Npc) -> dict[str, Any]:
        """The hit points by the rule (coc7.derived): stated ones beyond it cross as the toughness."""
        return {"HP": npc.derived_HP}

    def derived_to_neutral(self, npc: Coc7Npc, derived: Mapping[str, Any], col: Collector) -> dict[str, float]:
        """A knife or a club is fought with Fighting (Brawl) in 7th edition (coc7.melee): an NPC
        whose weapon line says so wields that weapon at its Brawl, so its neutral ``melee`` (the
        competence with a weapon in hand, which every other system writes as its knife or club
        skill) is its Brawl's, where no other Fighting skill states one. Without it a 7e Brawl 50
        with a trench knife became a 6th-edition Knife at base 25 and a GURPS Knife at default."""
        if any("melee" in self.skills().get(k, ()) for k in npc.skills):
            return {}
        armed = [m for m in npc.melee if m.skill == "Fighting (Brawl)" and _melee_class(m) != "unarmed"]
        level = npc.skills.get("Fighting (Brawl)")
        if not armed or level is None:
            return {}
        chars = {k: getattr(npc, k) for k in self.characteristics()}
        melee = self.competence("Fighting (Brawl)", level, {**chars, "@key": "melee"})
        sheet = col.sheet.get("skills", {}).get("Fighting (Brawl)")
        if sheet is not None and "melee" not in sheet.covers:
            sheet.covers.append("melee")  # the Brawl the sheet states is also its weapon skill
        if col.tracing:
            names = ", ".join(m.name for m in armed)
            col.step("$.skills.Fighting (Brawl)", f"Fighting (Brawl) {level} ({names})",
                     f"melee competence {melee:.3f}", rules=["coc7.melee"], source="assumed",
                     note="a knife or a club is fought with Brawl in 7th edition")
        return {"melee": melee}

    def melee_line_to_neutral(self, m: Coc7Melee, col: Collector, path: str) -> MeleeWeapon:
        cls = _melee_class(m, self.line_skills)
        natural = cls == "unarmed" and (natural_attack(m.name) or m.skill in self.line_skills)
        special = not m.damage.strip()  # a line that states no damage: no line of its class elsewhere
        if col.tracing:
            col.step(path, f"{m.name} ({m.skill}, {m.damage})", f"melee {cls}" + (" (natural)" if natural else "")
                     + (" (no damage stated)" if special else ""), rules=["coc7.melee"], source="assumed")
        return melee_weapon(m.name, cls, natural, special)

    def native_block(self, npc: Coc7Npc, col: Collector) -> dict[str, Any]:
        """The HP and MOV the sheet states and its Fighting skills by name, for the way back; a MOV
        other than the rule's is said (stated HP cross as the toughness)."""
        out: dict[str, Any] = {}
        names = melee_skills_of(self, npc.skills)
        if names:  # its Fighting skills by name (Sword 85, Spear 45): one neutral melee holds only the best
            out["melee_skills"] = names
        brawl = melee_skills_of(self, npc.skills, "brawl")
        if brawl:  # a creature's Fighting, Bite, Claws by name: one neutral brawl holds only the best
            out["brawl_skills"] = brawl
        for f in ("HP", "MOV"):
            v = getattr(npc, f)
            if v is not None:
                out[f] = v
                if f == "HP" or v == getattr(npc, f"derived_{f}"):
                    continue  # the toughness, or the rule's own value: every system derives its own
                col.loss("kept-verbatim", f"$.{f}", f"{f} {v} has no neutral field; kept for the way back",
                         "coc7.derived")
        return out

    def extra_to_neutral(self, npc: Coc7Npc, combatant: Combatant, col: Collector) -> Combatant:
        """The weapon its best Fighting skill names (Fighting (Sword) 60 with no sword line): it
        crosses as the NPC's close-combat weapon, so a sheet writes that skill (coc7.melee); the
        sword skill had become Brawl's, and been lost, on the way to coc7 itself."""
        kind = melee_kind(self, npc.skills)
        return combatant if kind is None else msgspec.structs.replace(combatant, melee_kind=kind)

    def melee_dice(self, dice: str) -> str:
        return dice.upper()  # the 7th-edition table's "1D4+DB"

    def melee_kin_skill(self, skill: str) -> str | None:
        """A 6th-edition Kick line is rolled with Fighting (Brawl) in 7th (coc7.conversion.6e)."""
        return NOT_SEVENTH.get(skill, skill)

    def melee_skills(self, levels: dict[str, Any], melee: list[Any], carried_lines: Mapping[str, Any],
                     combatant: Combatant, context: Mapping[str, Any], col: Collector) -> dict[str, Any]:
        skills = self._melee_skills(levels, melee, combatant, col)
        # a line written from its class whose skill the source states none for: at its base chance
        # (a 6th-edition creature's attack skill, its かぎ爪 40, is stated: carried_skills writes it)
        kin = {k for ns in self.melee_kin for k in (combatant.carried.get(ns) or {}).get("skills", {})}
        skills = line_skill_levels(self, skills, melee, combatant, context, col)
        skills = self._knife_lines(skills, melee, combatant, context, col)
        return line_skills_untrained(self, skills, [m for m in melee if m.name not in carried_lines
                                                    and m.skill not in kin], context, col)

    def _knife_lines(self, skills: dict[str, Any], melee: list[Any], combatant: Combatant,
                     context: Mapping[str, Any], col: Collector) -> dict[str, Any]:
        """A knife or club line the source fought at a level of its own (GURPS Knife-13 beside a better
        Shortsword-14, ``MeleeWeapon.competence``): 7th edition rolls it with Fighting (Brawl)
        (coc7.melee), which holds that level where it is above the NPC's brawl (it had been written at
        his brawl, the untrained 25, and the knife with it)."""
        brawl = "Fighting (Brawl)"
        on_brawl = {m.name for m in melee if getattr(m, "skill", None) == brawl}
        own = [m for m in combatant.melee if m.name in on_brawl and m.competence is not None
               and m.melee_class in ("knife", "club")]
        if not own:
            return skills
        best = max(own, key=lambda m: m.competence)
        level = self.level_for(brawl, best.competence, {**context, "@key": best.skill, "@class": best.melee_class})
        now = skills.get(brawl)
        if now is not None and level <= now:
            return skills
        col.loss("merged", f"$.skills.{brawl}", f"the {best.name} line, fought at its own level in the source "
                 f"({best.skill} competence {best.competence:.3f}), is rolled with {brawl} in 7th edition: written "
                 f"{brawl} {level} (the NPC's brawl was {now if now is not None else 'not stated'})", "coc7.melee")
        return {**skills, brawl: level}

    def carried_skills(self, levels: dict[str, Any], carried_levels: Mapping[str, Any], combatant: Combatant,
                       context: Mapping[str, Any], col: Collector) -> dict[str, Any]:
        """A 5th/6th-edition skill kept verbatim takes its 7th-edition name; one that 7th edition
        folded into a skill the sheet already writes (Sneak and Hide are Stealth) is not written
        twice (coc7.conversion.6e), and stays carried for a trip back to coc."""
        skills = levels
        sixth = self.carried_namespaces[0] not in combatant.carried
        for k, v in carried_levels.items():
            if sixth and k in NOT_SEVENTH:  # no skill of 7th edition's: said, and carried for coc
                into = NOT_SEVENTH[k]
                what = "manoeuvre" if k == "Grapple" else "attack"
                floor = self.skill_floor(into, context) if into else None
                if into and isinstance(v, int) and v > skills.get(into, floor[0] if floor else -1):
                    # a better Kick, Head Butt or Grapple than the NPC's punch is his Brawl in 7th edition,
                    # where one skill rolls them all: the better passes, as when two skills of the
                    # shared scale become one (a GM would not write a 6e kicker's 70 as Brawl 25)
                    was = skills.get(into)
                    filled = [x for x in col.losses if x.kind == "assumed" and x.message.startswith(f"{into}: the skill")]
                    if filled:  # written at the untrained level only for a line: not the NPC's
                        col.losses[:] = [x for x in col.losses if x not in filled]
                        was = None
                    skills[into] = v
                    col.loss("merged", f"$.skills.{k}", f"{k} {v} is no 7th-edition skill: it is a {into} {what} "
                             f"there, and better than the NPC's {into} "
                             + (f"{was}" if was is not None else f"(not stated; untrained {floor[0] if floor else '-'})")
                             + f": {into} {v} is written",
                             "coc7.conversion.6e")
                    continue
                col.loss("kept-verbatim", f"$.skills.{k}", f"{k} {v} is no 7th-edition skill: "
                         + (f"it is a {into} {what} there ({into} "
                            f"{skills.get(into, 'not stated')} on this sheet)" if into else
                            "7th edition fires a second gun with a penalty die, with no skill of its own")
                         + "; not written on the coc7 sheet", "coc7.conversion.6e")
                continue
            name = seventh_name(k) if sixth else k
            if name not in skills:
                skills[name] = v
        return skills

    def weapon_lines_from_neutral(self, combatant: Combatant, fields: Mapping[str, Any], kept: Mapping[str, Any],
                                  col: Collector) -> list[Coc7Weapon]:
        """A weapon line this sheet wrote comes back as written, with the capacity and sights the
        neutral weapon says now; another is written from the 7th-edition table (coc7.weapons)."""
        weapons = []
        for i, w in enumerate(combatant.weapons):
            old = kept_line(kept, "weapons", i, w.name)
            if old is not None:
                # native-only fields (damage, base range, uses per round, malfunction) come
                # back verbatim; what the neutral weapon says is re-read from it.
                cw = msgspec.convert(old, Coc7Weapon, dec_hook=dec_hook)
                cw = msgspec.structs.replace(cw, capacity=w.capacity if w.capacity else cw.capacity, sights=w.sights)
            else:
                cw = self.weapon_defaults(w)
                dice_from = "coc7.damage"
                if thrown_blade(w.weapon_class, w.name) == "knife":
                    # coc7.damage (assumed): a thrown knife is its knife's row of the table by the size its name
                    # says (a large knife 1D8), half the DB added as on every Throw line; not the dice of its
                    # energy (a knife's 50 J is the 1D3 of a thrown stone)
                    cw = msgspec.structs.replace(cw, damage=self.melee_line("knife", w.name)[1].replace("+DB", ""))
                    dice_from = "the knife's row, thrown: coc7.damage, coc7.melee"
                if w.weapon_class == "thrown" and isinstance(fields.get("STR"), int):
                    # coc7.weapons (assumed): a thrown weapon's base range is its thrower's, STR / 5
                    # yards (Rosa's 15 yd at STR 75), not one range for every arm
                    cw = msgspec.structs.replace(cw, base_range=Length(max(1, fields["STR"] // 5) * 0.9144))
                yards = f"{round(cw.base_range.to('yd'), 1):g} yd"  # as the 7th-edition table prints it
                col.step(f"$.weapons[{i}]", w.name, f"{w.weapon_class}, {float(w.muzzle_energy):g} J",
                         f"{cw.damage}, base range {yards}", rules=["coc7.weapons"], source="assumed")
                # what the line says beside its damage is the 7e table's, not the source's own
                # (a 6th-edition line's base range and STR do not cross): said, as every system does
                from xsys.core.registry import catalog

                entry = catalog().weapon_basis(w).entry  # the row weapon_defaults wrote it from
                row = f"[weapon.{entry.id}]" if entry is not None and entry.id in self.tables()["weapon"] else \
                    f"[weapon_class.{w.weapon_class}]"
                if grenade_blast(w) is not None:
                    row += (f" and [grenade] (the table's hand grenade, {cw.damage}/"
                            f"{self.tables()['grenade']['blast'].replace(' yd', ' yards')}: its blast did not cross)")
                col.loss("assumed", f"$.weapons[{i}]", f"{w.name}: 7th-edition line (base range {yards}, "
                         f"uses per round {cw.uses_per_round}, malfunction {cw.malfunction}) from tables.toml {row}, "
                         f"damage {cw.damage} ({dice_from})", "coc7.weapons")
                if catalog().capacity_of(w)[1] and w.weapon_class != "thrown":
                    col.loss("assumed", f"$.weapons[{i}]",
                             capacity_note(w.name, f"the usual {w.weapon_class}'s {cw.capacity}"), "coc7.weapons")
                # a 6th-edition line's own damage, base range, malfunction and capacity (one table)
                cw = self.with_kin_line(cw, w, combatant, i, col, f"$.weapons[{i}]", str.upper)
            weapons.append(cw)
        return weapons

    def extra_from_neutral(self, npc: Coc7Npc, combatant: Combatant, col: Collector) -> Coc7Npc:
        """Coming back: exactly the HP and MOV the stat block wrote; from another system, HP, MP
        and MOV by the rules (coc7.derived), the hit points at the neutral toughness."""
        if combatant.native.get(self.key) is not None:
            native = combatant.native[self.key]
            return msgspec.structs.replace(npc, **{f: native[f] for f in ("HP", "MOV") if f in native})
        derived = {"HP": self.health_on_scale(self.health_of(npc.derived_HP, combatant.toughness, col), combatant, col),
                   "MP": npc.derived_MP, "MOV": npc.derived_MOV}
        col.step("$.HP", None, None, f"HP {derived['HP']}, MP {derived['MP']}, MOV {derived['MOV']}",
                 rules=["coc7.derived"], source="assumed")
        if npc.MP is not None:
            del derived["MP"]  # a Call of Cthulhu sheet's own Magic Points, carried
        return msgspec.structs.replace(npc, **derived)

    def _melee_skills(self, skills: dict[str, Any], melee: list[Coc7Melee], combatant: Combatant,
                      col: Collector) -> dict[str, Any]:
        """The Fighting skills a sheet writes for the neutral melee (coc7.melee): those its lines
        use, else the one of the weapon the source's best skill names. Knives and clubs are
        Fighting (Brawl) in 7th edition: an NPC whose close combat is such a weapon fights it with
        Brawl, written at the better of the two (a ``merged`` loss when the melee was better)."""
        kind = self.melee_line(combatant.melee_kind)[0] if combatant.melee_kind else None
        mine = combatant.native.get(self.key, {})
        skills = melee_skills_written(self, skills, [m.skill for m in melee], mine.get("melee_skills"), kind, col=col)
        # a creature's own attack skills (its Bite 55 and Claws 50, carried by name, with --fresh too):
        # while the neutral brawl is still exactly their best, they are its skills, not a Fighting (Brawl)
        # 55 beside them (core.melee.melee_skills_written)
        kept = (combatant.carried.get(self.carried_namespaces[0]) or {}).get("skills") or {}
        lines = {k: v for k, v in kept.items() if k in self.line_skills and any(m.skill == k for m in melee)
                 and isinstance(v, int) and not isinstance(v, bool)}
        skills = melee_skills_written(self, skills, [m.skill for m in melee], mine.get("brawl_skills") or lines or None,
                                      neutral="brawl", col=col)
        standard = [k for k, keys in self.skills().items() if tuple(keys) == ("brawl",) and k not in self.line_skills]
        written = [k for k in standard if k in skills]
        if lines and written and not mine.get("brawl_skills") and not any(m.skill in standard for m in melee):
            # the brawl came back at another level (a Cyclops's Fighting 50 through GURPS Brawling-12 is
            # 61): no line of its sheet is fought with Fighting (Brawl), so its best attack skill holds
            # the brawl and takes that level; the others keep theirs (a Fighting (Brawl) 61 had been
            # written beside the Fighting 50 its attack is rolled with)
            best = max(lines, key=lambda k: lines[k])
            level = skills[written[0]]
            skills = {k: v for k, v in skills.items() if k not in standard}
            skills[best] = level
            if col.tracing:
                col.step(f"$.skills.{best}", f"{written[0]} {level}", f"{best} {level}", rules=["coc7.melee"],
                         source="assumed", note=f"the creature's own attack skill holds its brawl (its {best} "
                                                f"{lines[best]} before)")
        covering = skills_only_for(self, "melee")
        own = set(mine.get("melee_skills") or ()) & set(skills)  # its own sheet's, given back (a Fighting (Whip) 45)
        if any(m.skill in covering for m in melee) or kind in covering or own:
            return skills
        dropped = {k: skills.pop(k) for k in covering if k in skills}
        best = max(dropped.values(), default=None)
        if best is None:
            return skills
        weapon = f"a {combatant.melee_kind}" if combatant.melee_kind else "weapons"
        brawl = skills.get("Fighting (Brawl)")
        fights_with = any(m.melee_class in ("knife", "club", "improvised") for m in combatant.melee) or (
            not combatant.melee and combatant.melee_kind in ("knife", "club", "improvised"))  # Knife 14, no line
        if fights_with and (brawl is None or best > brawl):  # its knife or club attack is made with Brawl
            col.loss("merged", "$.skills.Fighting (Brawl)", f"the NPC's close combat with {weapon} ({best}%) is "
                     f"Fighting (Brawl) in 7th edition: written Fighting (Brawl) {best} (its brawl was "
                     f"{brawl if brawl is not None else 'not stated'})", "coc7.melee")
            skills["Fighting (Brawl)"] = best
        elif brawl is None or best != brawl:  # the same number: nothing is lost
            col.loss("merged", "$.skills.Fighting (Brawl)", f"the NPC's close combat with {weapon} ({best}%) is "
                     f"Fighting (Brawl) in 7th edition, which it has at {brawl if brawl is not None else 'none'}: "
                     f"the {best} is not written", "coc7.melee")
        return skills

    # ==== shot conversions: the d100 family's (core.percentile), with these words and fields ====
    shot_rules: ClassVar[Mapping[str, str]] = {"light.illuminance": "coc7.darkness", "target.armor": "coc7.armor",
                                               "weapon": "coc7.damage"}
    shot_sheet: ClassVar[ShotSheet | None] = msgspec.structs.replace(D100_SHOT, light=("light", "light"), words=(
        ShotWord("aiming", "shooter.aim_time", "aim"),
        ShotWord("shooter_running", "shooter.speed", "shooter-speed", below=BELOW, rule="coc7.shooter-running"),
        ShotWord("target_full_speed", "target.speed", "target-speed", below=BELOW, rule="coc7.fast-target"),
        ShotWord("target_cover", "target.cover.exposure", "cover", form="label")))

    def shot_own_to_neutral(self, shot: Coc7Shot, col: Collector) -> dict[str, Any]:
        return {"shooter.posture": "prone" if shot.shooter_prone else "standing", "shooter.braced": shot.braced,
                "burst": shot.rounds}

    def shot_own_from_neutral(self, shot: Shot, col: Collector) -> dict[str, Any]:
        s = shot.shooter
        if s.posture not in ("standing", "prone"):
            col.loss("unsupported-field", "$.shooter.posture", f"7th edition has no modifier for a {s.posture} "
                     "shooter; read as standing", "coc7.prone-shooter")
        if s.hands == 1 or s.off_hand:
            col.loss("unsupported-field", "$.shooter.hands", "7th edition has no one-handed or off-hand modifier",
                     "coc7.resolution")
        if shot.called_location is not None:
            col.loss("unsupported-field", "$.called_location", "7th edition has no called shots", "coc7.resolution")
        return {"braced": s.braced, "shooter_prone": s.posture == "prone", "rounds": shot.burst}


__all__ = ["Coc7Sheet", "NOT_SEVENTH"]
