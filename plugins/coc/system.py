"""Call of Cthulhu with the Japanese firearms house rules (the Japanese CoC firearms text,
digest shared/rules/coc-ja-firearms.md) as an xsys system.

Replaceable parts for variants (README, "Public API for variants"):
- the armor list: ``armor_file`` / ``armor_path()`` / ``armor_data()`` (a TOML in the
  schema of armor.toml) -> ``armor_ladders()``, ``armor_value()``, ``barrier_value()``;
- the darkness rule: ``darkness_ladder()`` and ``light_effect(situation)``;
- the resolution: ``resolve(target)`` (success and impale chances of a d100 roll).

What every d100 roll-under system shares (the armor-file machinery, the rule register, the skill
tables and base chances, the tiers, the close-combat check) is the core's
:class:`xsys.core.percentile.PercentileSystem`, which this class declares its rules on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, ClassVar, Mapping, Sequence

import msgspec

from xsys.core import armorline, carried, dice
from xsys.core.catalog import say_grenade, strip_entry
from xsys.core.codec import dec_hook, enc_hook
from xsys.core.formulas import Formula
from xsys.core.ladder import Ladder
from xsys.core.model import (
    Armor,
    Barrier,
    Combatant,
    Cover,
    Light,
    MeleeWeapon,
    Shooter,
    Shot,
    Target,
    Weapon,
    generic_weapon,
    melee_class_of,
)
from xsys.core.melee import line_skills_untrained, melee_kind, melee_skills_of, melee_skills_written
from xsys.core.percentile import LightEffect, PercentileSystem, build_armor_ladders
from xsys.core.system import CharacteristicSpec, percentile_ladder
from xsys.core.trace import Check, Collector, Modifier, Result
from xsys.core.units import Duration, Energy, Illuminance, Length, brief, parse
from xsys.core.vocab import SHORT_ARMS, firearm_skill_for

from . import rules
from .model import CocArmor, CocBarrier, CocCarried, CocMelee, CocNpc, CocShot, CocWeapon

FIREARM_SKILLS = ("Handgun", "Rifle", "Shotgun", "SMG", "Machine Gun", "Throw")
HEAD = frozenset({"head", "skull", "eye", "face", "jaw", "nose"})

LIGHT_AIDS = {"flashlight": "hand-light", "weapon light": "weapon-light",
              "night-vision goggles": "nv-goggles", "thermal goggles": "thermal-goggles"}
LIGHT_AIDS_BACK = {v: k for k, v in LIGHT_AIDS.items()}


def _tables_ladders() -> dict[str, Ladder]:
    return rules.table_ladders()


def _catalog():
    from xsys.core.registry import catalog

    return catalog()


@dataclass(frozen=True)
class Situation:
    """Everything one CoC shot depends on, native and neutral parts together. Built from a
    neutral Shot by :meth:`CocSystem.situation_from_shot` or from a native CocShot by
    :meth:`CocSystem.situation_from_native`; evaluated by :meth:`CocSystem.evaluate`."""

    skill: str
    skill_value: int
    weapon: Weapon
    distance: float
    native_weapon: CocWeapon | None = None
    DEX: int = 10
    illuminance: float = 10_000.0
    aids: tuple[str, ...] = ()
    sights: str = "iron"
    hands: int = 2
    off_hand: bool = False
    two_guns: bool = False
    off_hand_skill: int | None = None
    braced: bool = False
    mounted: bool = False
    careful_aim: bool = False
    called_location: str | None = None
    keeper_double: bool = False
    fire: str = "single"
    rounds: int = 1
    exposure: float = 1.0
    barrier: Barrier | None = None
    armor: tuple[Armor, ...] = ()
    target_SIZ: int | None = None


# The Keeper Rulebook's skill chart (not in the seed text, so assumed): novice up to 5%,
# neophyte 6-25% (a firearm's untrained base chance lies here), amateur 26-50%, professional
# 51-75%, expert 76-90%, master 91%+. (rank, name, lowest level, typical level)
COC_TIERS = ((0, "novice/neophyte (base chance)", 0, 20), (1, "amateur", 26, 40), (2, "professional", 51, 63),
             (3, "expert", 76, 83), (4, "master", 91, 95))


# coc-ja.melee (assumed): a close-combat attack known only by its weapon's class, as the CoC 6th
# edition weapon table writes the like of it: skill, damage (db: the wielder's damage bonus)
MELEE_LINES = {"unarmed": ("Fist/Punch", "1d3+db"), "knife": ("Knife", "1d4+db"), "club": ("Club", "1d6+db"),
               "sword": ("Sword", "1d8+1+db"), "axe": ("Axe", "1d8+2+db"), "spear": ("Spear", "1d8+1+db"),
               "improvised": ("Club (improvised)", "1d4+db")}


# coc-ja.damage-bonus (assumed: the CoC 5th/6th edition table, not in the text): STR + SIZ ->
# the dice added to a close-combat attack's damage (and half of it to a thrown one, coc-zh.thrown)
DAMAGE_BONUS = ((12, "-1d6"), (16, "-1d4"), (24, "0"), (32, "+1d4"), (40, "+1d6"), (56, "+2d6"), (72, "+3d6"),
                (88, "+4d6"))


def damage_bonus(STR: int, SIZ: int) -> str:
    """The damage bonus of STR + SIZ (coc-ja.damage-bonus, assumed)."""
    total = STR + SIZ
    for top, db in DAMAGE_BONUS:
        if total <= top:
            return db
    return f"+{4 + (total - 73) // 16}d6"


class CocSystem(PercentileSystem):
    """Call of Cthulhu (d100, BRP family) with the Japanese firearms rules."""

    key: ClassVar[str] = "coc"
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
    shot_type: ClassVar[type | None] = CocShot
    #: The namespace of the neutral NPC's carried block (xsys.core.carried) that a coc stat
    #: block reads and writes: SAN, MP, Luck, spells and skills no neutral key holds. A variant
    #: (coc-zh) shares it, so Sanity crosses between them and through every other system.
    carried_namespaces: ClassVar[tuple[str, ...]] = ("coc",)

    #: The armor list (coc-ja.armor.table). A variant points this at its own file (an
    #: absolute path) or overrides armor_path()/armor_data().
    armor_file: ClassVar[str] = "armor.toml"

    # ==== tables ========================================================================
    def tables(self) -> dict[str, Any]:
        """tables.toml (rules data) of this plugin."""
        return rules.tables()

    def table_ladders(self) -> dict[str, Ladder]:
        """The ladders of tables.toml."""
        return dict(_tables_ladders())

    def text_layout(self) -> Any:
        """Plain-text stat blocks: the Call of Cthulhu block (text.py): English, Japanese and Chinese, 5th/6th and 7th edition."""
        from .text import CocText  # the block's reader is loaded when a block is read

        return CocText(self.key)

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

    # ==== darkness (replaceable) =======================================================
    def darkness_ladder(self) -> Ladder:
        """Visibility level over lux (coc-ja.darkness; breakpoints assumed)."""
        return _tables_ladders()["darkness"]

    def light_effect(self, sit: Situation) -> LightEffect:
        """coc-ja.darkness with coc-ja.darkness.matrix: lights cancel it
        (coc-ja.light.flashlight), thermal ignores it (coc-ja.sight.thermal), night vision
        cancels all but total darkness (coc-ja.sight.night-vision / .nvg), tritium gives
        x3/4 and x1/2 (coc-ja.sight.luminous)."""
        step = self.darkness_ladder().step_for(sit.illuminance)
        level = step.label
        eff = LightEffect(level=level)
        if level == "daylight":
            return eff
        t = self.tables()
        sights = t["sights"]
        aids = set(sit.aids)
        if aids & {"hand-light", "weapon-light"}:
            eff.modifiers.append(Modifier(rule="coc-ja.light.flashlight", kind="multiply", value=1, source="seed",
                                          why=f"{level}: a light cancels the darkness penalty"))
            return eff
        if sit.sights in sights["thermal"] or "thermal-goggles" in aids:
            src = "seed" if sit.sights in sights["thermal"] else "assumed"
            eff.modifiers.append(Modifier(rule="coc-ja.sight.thermal", kind="multiply", value=1, source=src,
                                          why=f"{level}: thermal imaging ignores light"))
            return eff
        if sit.sights in sights["night_vision"] or "nv-goggles" in aids:
            kind, rule = "night-vision", ("coc-ja.sight.night-vision" if sit.sights in sights["night_vision"]
                                          else "coc-ja.sight.nvg")
            if rule == "coc-ja.sight.nvg" and sit.sights not in sights.get("nvg_location", ("laser", "red-dot",
                                                                                             "reflex")):
                eff.no_location = True
        elif sit.sights in sights["luminous"]:
            kind, rule = "tritium", "coc-ja.sight.luminous"
        else:
            kind, rule = "plain", "coc-ja.darkness"
        cell = t["darkness"][kind].get(level)
        if cell is None:  # night vision in dim light / starlight: cancelled
            eff.modifiers.append(Modifier(rule=rule, kind="multiply", value=1, source="seed",
                                          why=f"{level}: night vision cancels the penalty"))
            return eff
        rule = cell.get("rule", rule)
        # the effects are seed (cells the text is silent on say "assumed"); the lux
        # breakpoints are the darkness ladder's own (assumed) rows
        src = cell.get("source", "seed")
        if "cap" in cell:
            eff.cap = int(cell["cap"])
            eff.modifiers.append(Modifier(rule=rule, kind="set", value=f"{eff.cap:02d}%", source=src,
                                          why=f"{level} (at most 01%)"))
        else:
            eff.multiply = rules.frac(cell["multiply"])
            eff.modifiers.append(Modifier(rule=rule, kind="multiply", value=_ftext(eff.multiply), source=src,
                                          why=f"{level}" + (" (tritium sights)" if kind == "tritium" else "")))
        eff.unaimed = bool(cell.get("unaimed", False))
        if eff.unaimed:
            eff.modifiers.append(Modifier(rule=rule, kind="multiply", value=1, source=src,
                                          why="every shot counts as unaimed: no careful aim"))
        return eff

    # ==== resolution (replaceable) =====================================================
    def resolve(self, target: int) -> dice.Outcomes:
        """coc-ja.resolution: d100 <= target succeeds; an impale (BRP 'special') on
        <= ceil(target / 5). No automatic success or failure bands (the text states none)."""
        div = self.tables()["resolution"]["impale_divisor"]
        t = max(0, target)
        return dice.Outcomes(dice.d100_at_most(t), critical_success=dice.d100_at_most(rules.ceil(Fraction(t, div))))

    def impale_threshold(self, target: int) -> int:
        return rules.ceil(Fraction(max(0, target), self.tables()["resolution"]["impale_divisor"]))

    # ==== characteristics and skills ===================================================
    def derived_fields(self) -> dict[str, tuple[tuple[str, ...], str]]:
        return {"HP": (("CON", "SIZ"), "coc-ja.hp")}  # HP = ceil((CON + SIZ) / 2)

    def characteristics(self) -> dict[str, CharacteristicSpec]:
        return _characteristics()

    def sheet_derived(self, npc: CocNpc) -> dict[str, tuple[Any, str]]:
        """The damage bonus a melee line's '+db' adds, by STR + SIZ (coc-ja.damage-bonus), and
        HP, starting SAN and Luck (both POW x 5) by the rule where the block states none (coc-ja.hp)."""
        out: dict[str, tuple[Any, str]] = {"DB": (damage_bonus(npc.STR, npc.SIZ), "coc-ja.damage-bonus")}
        if npc.HP is None:
            out["HP"] = (npc.derived_HP, "coc-ja.hp")
        if npc.SAN is None:  # an NPC from a system with no Sanity: its starting SAN, POW x 5
            out["SAN"] = (npc.POW * 5, "coc-ja.hp")
        if npc.Luck is None:
            out["Luck"] = (npc.luck_roll, "coc-ja.hp")
        return out

    def sheet_legend(self) -> dict[str, dict[str, str]]:
        return {"armor": {
            "A": "the armor value: points of damage it stops (coc-ja.armor.table)",
            "B": "the table's second number, which the rule text never explains; it is half of A in every "
                 "row but the heavy leather jacket (coc-ja.armor.table)"}}

    def sheet_notes(self, npc: Any) -> dict[str, dict[str, str]]:
        """A shotgun's bands and a thrown weapon's half damage bonus, where the sheet has them, and
        what each armor piece covers (core.armorline.band_and_throw_notes)."""
        thrown = "coc-zh.thrown" if self.key == "coc-zh" else \
            "coc-ja.damage-bonus, assumed: the 6th-edition weapon table's '+1/2db'"
        return armorline.band_and_throw_notes(npc, "m", "coc-ja.damage.shotgun", thrown, "4d6/1d6", 5)

    # the standard adult: HP = (CON + SIZ) / 2 rounded up with CON 3d6 (mean 10.5) and SIZ
    # 2d6+6 (mean 13) gives 12 (coc-ja.hp; the population is assumed)
    standard_health = 12.0
    health_rule = "coc-ja.hp"
    health_field = "HP"
    health_formula = "HP = ceil((CON + SIZ) / 2)"
    skill_rule = "coc-ja.skills"

    def skill_levels(self, skill: str) -> Sequence[int]:
        return range(0, 101)

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

    def skill_context(self, skill: str, context: Mapping[str, Any] | None) -> dict[str, Any]:
        """A close-combat skill's results depend on the damage bonus (STR + SIZ, coc-ja.damage-bonus)."""
        if skill not in self.close_combat_skills():
            return {}
        c = context or {}
        return {"db": damage_bonus(int(c.get("STR") or 10), int(c.get("SIZ") or 13))}

    # ==== weapons ======================================================================
    def weapon_defaults(self, weapon: Weapon) -> CocWeapon:
        """Native data of a neutral weapon: its [weapon.<catalog id>] row, else the class
        defaults with damage from muzzle energy (coc-ja.damage, assumed)."""
        t = self.tables()
        cls = t["weapon_class"][weapon.weapon_class]
        entry = _catalog().weapon_basis(weapon).entry  # by id, else by what its name says
        row = t["weapon"].get(entry.id if entry is not None else "", {})
        damage = row["damage"] if "damage" in row else self.damage_of(weapon)
        auto = "auto" in weapon.fire_modes or "burst" in weapon.fire_modes
        thrown = weapon.weapon_class == "thrown"
        return CocWeapon(
            name=weapon.name, skill=cls["skill"], damage=damage,
            base_range=parse(row.get("base_range", cls["base_range"]), Length),
            shots_per_round=row.get("shots_per_round", cls["shots_per_round"]),
            burst=row.get("burst", auto), capacity=weapon.capacity or (entry.capacity if entry is not None else 0),
            malfunction=row.get("malfunction", cls["malfunction"]), length=weapon.length,
            STR=row.get("STR", cls["STR"]), sights="none" if thrown else weapon.sights,
            # a thrown weapon (a grenade) is no firearm: it fires nothing and is aimed by eye
            ammo="shot" if weapon.weapon_class == "shotgun" else "none" if thrown else "bullet", catalog=weapon.catalog,
            muzzle_energy=None if weapon.catalog else weapon.muzzle_energy,
        )

    def damage_of(self, weapon: Weapon) -> str:
        """The damage dice of a neutral weapon (coc-ja.damage, assumed): one line per
        cartridge ([cartridge.*] of tables.toml, else the damage ladder at the cartridge's
        reference muzzle energy, core.vocab.CARTRIDGES), else the ladder at the weapon's
        own muzzle energy; 12-gauge shot by range band (coc-ja.damage.shotgun)."""
        basis = _catalog().weapon_basis(weapon)  # its catalog weapon, else the cartridge its calibre or name states
        row = self.tables().get("cartridge", {}).get(basis.cartridge or "", {})
        if "damage" in row:
            return row["damage"]
        if weapon.weapon_class == "shotgun":
            return "4d6/2d6/1d6"
        return _tables_ladders()["damage"].step_for(basis.energy).label

    def weapon_to_neutral(self, w: CocWeapon, col: Collector | None = None, path: str = "$") -> Weapon:
        """A native weapon as what it physically is (core.catalog.Catalog.identify_weapon, one
        answer for every system): its catalog entry (by id, else by what its name says, when its
        skill fires that kind of gun) with the capacity the line states where it states one,
        else a weapon of its skill's class (the kind of it the name says: a revolver) with the
        muzzle energy of its damage."""
        cat = _catalog()
        skill_cls = self.tables()["skills"][w.skill]["weapon_class"]
        entry = cat.weapons.get(w.catalog) if w.catalog else cat.identify_weapon(w.name)[0]
        if entry is not None and not w.catalog and self.skill_for_class(entry.weapon_class) != w.skill:
            entry = None  # 'Glock 17' fired with Rifle is not the catalog Glock
        if entry is not None:
            base = strip_entry(entry)
            fields: dict[str, Any] = {"name": w.name, "capacity": w.capacity or base.capacity, "sights": w.sights}
            if w.capacity and w.capacity != base.capacity and col is not None:
                col.loss("assumed", f"{path}.capacity", f"{w.name}: the line states capacity {w.capacity}; "
                         f"catalog weapon {entry.id} holds {base.capacity}: the stated {w.capacity} is kept",
                         "coc-ja.reload.magazine")
            if w.length is not None:
                fields["length"] = w.length
            if w.burst and not ({"auto", "burst"} & set(base.fire_modes)):
                fields["fire_modes"] = list(base.fire_modes) + ["auto"]
            out = msgspec.structs.replace(base, **fields)
            self._damage_line_loss(w, out, col, path)
            return out
        cls = cat.weapon_class_named(w.name, skill_cls)  # a 'Revolver' fired with Handgun is a revolver
        if w.muzzle_energy is not None:
            out = Weapon(name=w.name, weapon_class=cls, length=w.length, muzzle_energy=w.muzzle_energy,
                         fire_modes=["semi", "auto"] if w.burst else ["semi"], capacity=w.capacity,
                         sights="none" if cls == "thrown" else w.sights)
            say_grenade(col, path, out)
            return out
        first = w.damage.split("/")[0]
        energy = self.damage_energy(w.damage)
        if cls == "shotgun" or energy is None:
            energy = float(generic_weapon(cls).muzzle_energy)
            if col is not None:
                col.loss("assumed", f"{path}.damage", f"no catalog weapon {w.name!r}; muzzle energy of a generic {cls}",
                         "coc-ja.damage")
        elif col is not None:
            col.loss("assumed", f"{path}.damage", f"no catalog weapon {w.name!r}; muzzle energy from {first}",
                     "coc-ja.damage")
        out = Weapon(name=w.name, weapon_class=cls, length=w.length, muzzle_energy=Energy(energy),
                     fire_modes=["semi", "auto"] if w.burst else ["semi"], capacity=w.capacity,
                     sights="none" if cls == "thrown" else w.sights)
        self._damage_line_loss(w, out, col, path)
        say_grenade(col, path, out)
        return out

    def _damage_line_loss(self, w: CocWeapon, out: Weapon, col: Collector | None, path: str) -> None:
        """One weapon, one damage line (coc-ja.damage): a line whose own dice are not the line of
        the weapon it is (its catalog weapon's, or the cartridge its name states) is said, since a
        sheet written again from the neutral weapon rolls the weapon's dice."""
        if col is None:
            return
        basis = _catalog().weapon_basis(out)
        if basis.kind == "class" or out.weapon_class == "shotgun":
            return
        line = self.weapon_defaults(out).damage
        if line.lower() == w.damage.lower():
            return
        what = (f"it is catalog weapon {basis.entry.id}" + (f" ({basis.cartridge})" if basis.cartridge else "")
                if basis.entry is not None else f"its name states {basis.cartridge}")
        col.loss("merged", f"{path}.damage", f"{w.name}: {what}, whose damage is {line}; the line's own {w.damage} "
                 f"is not that {'weapon' if basis.entry is not None else 'cartridge'}'s, and a sheet written again "
                 f"from the neutral weapon rolls {line}", "coc-ja.damage")

    # ==== situations ===================================================================
    def situation_from_shot(self, shot: Shot, skill_value: int | None = None) -> Situation:
        """A neutral shot as a Situation; the shooter's skill goes through the skill ladder
        unless ``skill_value`` is given."""
        w = shot.weapon
        skill = self.skill_for_class(w.weapon_class)
        if skill_value is None:
            skill_value = self.level_for(skill, shot.shooter.skill, {"@key": firearm_skill_for(w.weapon_class)})
        dex = self.characteristics()["DEX"].ladder.step_for(shot.shooter.characteristics.get("dexterity", 0.5)).native
        careful = _tables_ladders()["careful-aim"].native(float(shot.shooter.aim_time)) >= 1
        return Situation(
            skill=skill, skill_value=int(skill_value), weapon=w, distance=float(shot.distance),
            native_weapon=None, DEX=int(dex), illuminance=float(shot.light.illuminance), aids=tuple(shot.light.aids),
            sights=w.sights, hands=shot.shooter.hands, off_hand=shot.shooter.off_hand,
            braced=shot.shooter.braced or shot.shooter.posture == "prone", careful_aim=careful,
            called_location=shot.called_location, fire="full auto" if shot.burst > 1 else "single",
            rounds=shot.burst, exposure=float(shot.target.cover.exposure), barrier=shot.target.cover.barrier,
            armor=tuple(shot.target.armor),
        )

    def situation_from_native(self, shot: CocShot, npc: CocNpc | None = None) -> Situation:
        """A native CocShot as a Situation, keeping what the neutral model cannot say (two
        guns, Off-hand Shooting, Keeper doubling, double tap, mounted weapons, SIZ)."""
        weapon = self.shot_weapon(shot)
        native_w = None
        if npc is not None:
            for nw in npc.weapons:
                if nw.name == shot.weapon or nw.catalog == shot.weapon:
                    native_w = nw
        if native_w is None:
            native_w = self.weapon_defaults(weapon)
        skill = shot.skill or self.skill_for_class(weapon.weapon_class)
        ohs = shot.off_hand_skill
        if ohs is None and npc is not None:
            ohs = npc.skills.get("Off-hand Shooting")
        dex = shot.DEX if shot.DEX is not None else (npc.DEX if npc is not None else 10)
        exp = _tables_ladders()["exposure"]
        return Situation(
            skill=skill, skill_value=shot.skill_value, weapon=weapon, distance=float(shot.distance),
            native_weapon=native_w, DEX=dex, illuminance=self._light_rep(shot.light),
            aids=tuple(LIGHT_AIDS[a] for a in shot.light_aids), sights=weapon.sights,
            hands=2 if shot.hold == "two-handed" else 1, off_hand=shot.hold == "off-hand",
            two_guns=shot.hold == "two guns", off_hand_skill=ohs,
            braced=shot.support != "hand-held", mounted=shot.support == "mounted",
            careful_aim=shot.careful_aim, called_location=shot.called_location, keeper_double=shot.keeper_double,
            fire=shot.fire, rounds=shot.rounds if shot.fire == "full auto" else (2 if shot.fire == "double tap" else 1),
            exposure=exp.step_labelled(shot.target_exposure).rep,
            barrier=Barrier(material=shot.cover.material, thickness=shot.cover.thickness) if shot.cover else None,
            armor=tuple(self.armor_to_neutral(a) for a in shot.target_armor), target_SIZ=shot.target_SIZ,
        )

    def _light_rep(self, word: str) -> float:
        lad = self.darkness_ladder()
        return lad.step_labelled(word).rep

    # ==== the check ====================================================================
    def check_native(self, shot: CocShot, npc: CocNpc | None = None, extra: Sequence[Modifier] = ()) -> Check:
        """A native shot (with everything the neutral model cannot hold) as a Check."""
        return self.evaluate(self.situation_from_native(shot, npc), extra)

    def evaluate(self, sit: Situation, extra: Sequence[Modifier] = (), with_damage: bool = True) -> Check:
        t = self.tables()
        st, aimed = t["stance"], t["aimed"]
        mods: list[Modifier] = []
        notes: list[str] = []

        def mod(rule: str, kind: str, value: Any, why: str, source: str | None = None) -> None:
            mods.append(Modifier(rule=rule, kind=kind, value=value, source=source or self.rule_source(rule), why=why))

        cls = sit.weapon.weapon_class
        short = cls in SHORT_ARMS
        handgun = cls in ("handgun", "revolver")
        nw = sit.native_weapon or self.weapon_defaults(sit.weapon)
        skill = Fraction(sit.skill_value)

        # -- the base chance: two guns / off hand replace it ---------------------------
        value = skill
        if sit.two_guns:
            value = rules.two_guns_chance(sit.skill_value, sit.skill, sit.sights == "laser", sit.off_hand_skill)
            if value == skill:
                mod("coc-ja.stance.two-guns", "multiply", 1, "two guns, Handgun >= 60% with a laser: normal chance")
            elif sit.off_hand_skill is not None and value == Fraction(sit.off_hand_skill) * rules.frac(
                    st["two_guns_off_hand_skill"]) and value > skill * rules.frac(st["two_guns"]):
                mod("coc-ja.skill.off-hand-shooting", "set", _ftext(value),
                    f"two guns: Off-hand Shooting {sit.off_hand_skill}% x1/2")
            else:
                mod("coc-ja.stance.two-guns", "multiply", st["two_guns"], "two guns, no sights: x1/5 each")
        elif sit.off_hand:
            value = rules.off_hand_chance(sit.skill_value, sit.off_hand_skill)
            if sit.off_hand_skill is not None and value > skill * rules.frac(st["off_hand"]):
                mod("coc-ja.skill.off-hand-shooting", "set", _ftext(value),
                    f"off hand: Off-hand Shooting {sit.off_hand_skill}% (at most the {sit.skill} skill)")
            else:
                mod("coc-ja.stance.off-hand", "multiply", st["off_hand"], "off hand")

        # -- additions to the base chance ----------------------------------------------
        if handgun and sit.hands == 2 and not sit.two_guns:
            value += st["two_hand_bonus"]
            mod("coc-ja.stance.two-hand", "add", st["two_hand_bonus"], "handgun held two-handed")
        big = rules.large_target_bonus(sit.target_SIZ)  # added after range and the burst reduction, below

        # -- multipliers ---------------------------------------------------------------
        mult = Fraction(1)
        if not short and (sit.hands == 1 or sit.two_guns) and not sit.off_hand:
            # coc-ja.stance.off-hand: any gun in the off hand is halved once (the SMG example:
            # Off-hand Shooting 40, SMG 35 -> 35), not halved again as a one-handed long arm
            mult *= rules.frac(st["long_arm_one_hand"])
            mod("coc-ja.stance.long-arm-one-hand", "multiply", st["long_arm_one_hand"], "long arm fired one-handed")

        light = self.light_effect(sit)
        called = sit.called_location
        if called is not None and light.no_location:
            notes.append(f"coc-ja.sight.nvg: night-vision goggles without a reflex, dot or laser sight allow no "
                         f"aimed location shot; the shot at the {called} is an ordinary shot")
            called = None
        aim_sight = sit.sights in t["sights"]["careful_aim"]
        braced = sit.braced or sit.mounted
        wants_aim = sit.careful_aim or sit.called_location is not None
        careful = wants_aim and (braced or aim_sight) and not light.unaimed and not sit.two_guns
        if wants_aim and not careful:
            notes.append("coc-ja.aimed.careful-aim: careful aim needs a brace or a laser/scope, usable sights and "
                         "aimed fire; not possible here")

        base_range = float(nw.base_range)
        if braced or careful:
            base_range *= st["braced_range"]
            rule = "coc-ja.stance.braced" if braced else "coc-ja.aimed.careful-aim"
            notes.append(f"{rule}: base range x2 = {base_range:g} m")
        pb = rules.point_blank(sit.DEX, careful)
        if sit.distance <= pb:
            m2 = t["point_blank"]["multiplier"]
            mult *= m2
            mod("coc-ja.range.point-blank", "multiply", m2, f"point-blank: {brief(sit.distance, 'm')} <= {brief(pb, 'm')}")
        else:
            step = _tables_ladders()["range"].step_for(sit.distance / base_range if base_range > 0 else math.inf)
            if step.native != 1:
                mult *= Fraction(1, step.native)
                mod(step.rule, "multiply", f"1/{step.native}", f"{sit.distance:g} m, base range {base_range:g} m: "
                    + step.label, step.source)

        mult *= light.multiply
        mods.extend(light.modifiers)

        exp_step = _tables_ladders()["exposure"].step_for(sit.exposure)
        # a called location already is a location shot (coc-ja.aimed.location below)
        low_exposure = exp_step.native < t["exposure"]["location_below"]
        if low_exposure and called is None:
            div = t["exposure"]["location_divisor"]
            mult *= Fraction(1, div)
            mod(exp_step.rule, "multiply", f"1/{div}", f"target shows {exp_step.label}: only a location can be hit",
                exp_step.source)

        if called is not None and sit.keeper_double:
            mult *= aimed["keeper_double"]
            mod("coc-ja.aimed.keeper-double", "multiply", aimed["keeper_double"], "the Keeper doubles the aimed shot")

        S = max(0, rules.ceil(value * mult))
        autofire = sit.fire == "full auto" and sit.rounds > 1
        if big and not autofire:  # after range and the other multipliers, as the order rule puts it
            S += big
            mod("coc-ja.autofire.order", "add", big, f"large target (SIZ {sit.target_SIZ}), after the multipliers")

        # -- house-rule modifiers from other plugins ------------------------------------
        for m in extra:
            mods.append(m)
            if m.kind == "add":
                S = max(0, S + int(m.value))
            elif m.kind == "multiply":
                S = max(0, rules.ceil(S * rules.frac(m.value)))
            elif m.kind == "set":
                S = max(0, int(str(m.value).rstrip("%")))
            else:
                notes.append(f"{m.rule}: a {m.kind} modifier has no meaning on d100; ignored")

        # -- location, autofire, darkness cap -------------------------------------------
        # coc-ja.aimed.location: a roll <= 1/5 of the chance hits the called location (the
        # impale threshold); any other success still hits. A target showing less than half
        # of itself can be hit only there.
        T = S
        L: int | None = None  # the called location's threshold
        if called is not None and not autofire and sit.fire != "mozambique":
            L = rules.ceil(Fraction(S, aimed["location_divisor"]))
            if low_exposure:
                T = L
                mod("coc-ja.aimed.location", "set", T, f"target shows {exp_step.label}: only the {called} can be "
                    f"hit, on <= 1/5 of {S}%")
            else:
                mod("coc-ja.aimed.location", "multiply", 1, f"{called} hit on d100 <= {L:02d} (1/5 of {S}%, "
                    "outcomes 'location'); any other success hits as an ordinary shot")
        if sit.fire == "mozambique":
            T = L = rules.ceil(Fraction(S, t["mozambique"]["divisor"]))
            mod("coc-ja.mozambique", "set", T, f"third shot at 1/5 of {S}%: every success is a location hit and "
                "an impale")
            notes.append("coc-ja.mozambique: cost: no shot at the next DEX rank and no Dodge for the rest of the round")
        M = T
        if autofire:
            mount = "mounted" if sit.mounted else ("braced" if sit.braced else "hand-held")
            M = rules.autofire_modified(T, sit.rounds, mount)
            mod("coc-ja.autofire.penalty", "add", M - T,
                f"{sit.rounds} rounds {mount}: -{t['autofire']['per_round'][mount]} per round after the first "
                f"(floor {t['autofire']['floor']}%)")
            if big:  # after the reduction, with the equipment bonuses (coc-ja.autofire.order)
                M, T = M + big, T + big
                mod("coc-ja.autofire.order", "add", big, f"large target (SIZ {sit.target_SIZ}), after the burst "
                    "reduction")
        if light.cap is not None:
            T, M, S = min(T, light.cap), min(M, light.cap), min(S, light.cap)
            if L is not None:
                L = min(L, T)
        if sit.fire in ("double tap", "mozambique"):
            fn = rules.double_tap_allowed if sit.fire == "double tap" else rules.mozambique_allowed
            why = fn(sit.skill_value, nw.shots_per_round, sit.distance, sit.DEX)
            if why:
                notes.append(f"coc-ja.{sit.fire.replace(' ', '-')}: not allowed ({'; '.join(why)})")

        # -- the roll ------------------------------------------------------------------
        outcomes: dict[str, Fraction] = {}
        if autofire:
            hits = rules.autofire_hit_distribution(M, T, sit.rounds)
            chance = 1 - hits.get(0, Fraction(0))
            imp = self.resolve(T).critical_success
            outcomes["impale"] = imp
            outcomes["mean_hits"] = sum((h * p for h, p in hits.items()), Fraction(0))
            needs = f"d100 <= {M} (1 hit up to {T}; +1 hit per 5 under {M}; max {sit.rounds})"
            target: int = M
        else:
            res = self.resolve(T)
            chance = res.success
            # the impale threshold is 1/5 of the chance S (of the burst's unmodified chance),
            # not 1/5 of a location or Mozambique target already cut to 1/5
            if sit.fire == "mozambique":
                outcomes["impale"] = chance  # every success impales (coc-ja.mozambique)
            elif T != S:
                outcomes["impale"] = min(chance, self.resolve(S).critical_success)
            elif low_exposure and called is None:
                # only a location can be hit, on <= 1/5 of the unreduced chance: the impale
                # threshold itself, so every hit impales (as a called shot at such a target)
                outcomes["impale"] = chance
            else:
                outcomes["impale"] = res.critical_success
            if L is not None:
                outcomes["location"] = min(chance, dice.d100_at_most(L))
            needs = f"d100 <= {T}" + (", twice (double tap)" if sit.fire == "double tap" else "")
            target = T

        damage_mean = None
        damage = None
        if with_damage and cls != "thrown":
            damage_mean = float(self._damage_mean(sit, nw, T, M, chance, outcomes, hits if autofire else None))
            if not autofire and sit.fire == "single":
                damage = self._damage_distribution(sit, nw, chance, outcomes)

        mods_txt = " ".join(m.render().split(" [")[0] for m in mods)
        roll = f"roll d100 <= {target:02d}"
        if autofire:  # coc-ja.autofire.hits: one roll read against both numbers
            more = f"1 hit + 1 per 5 under {M:02d}, at most {sit.rounds}"
            roll = f"roll d100 <= {T:02d}: 1 hit; <= {M:02d}: {more}" if M < T else f"roll d100 <= {M:02d}: {more}"
        native = f"{sit.skill} {sit.skill_value}%" + (f" {mods_txt}" if mods_txt else "") + f": {roll}"
        return Check(system=self.key, stat=sit.skill, base=sit.skill_value, modifiers=mods, target=target,
                     needs=needs, chance=chance, native=native, damage_mean=damage_mean, damage=damage,
                     outcomes=outcomes, notes=notes)

    # ==== damage =======================================================================
    def damage_roll(self, sit: Situation, nw: CocWeapon) -> tuple[str, bool]:
        """The damage dice at this distance and whether armor applies per die
        (coc-ja.armor.shotgun-pellets)."""
        if sit.weapon.weapon_class == "shotgun" and nw.ammo != "slug":
            band = _tables_ladders()["shotgun.damage"].step_for(sit.distance)
            parts = nw.damage.split("/")
            if len(parts) == 2:  # a sawn-off's 4d6/1d6: its first to 5 m, its last beyond (coc-ja.damage.shotgun)
                return parts[0 if float(sit.distance) <= 5.0 else 1], nw.ammo == "shot"
            if len(parts) > 1:  # the line's own bands
                index = [st.native for st in _tables_ladders()["shotgun.damage"].steps].index(band.native)
                return parts[min(index, len(parts) - 1)], nw.ammo == "shot"
            return band.label, nw.ammo == "shot"
        return nw.damage.split("/")[0], False

    def armor_points(self, sit: Situation, location: str | None = None) -> tuple[int, list[str]]:
        """Armor A between the bullet and the target: worn armor covering the hit location
        (``location``, else the called one, else the torso) and, for a hidden target, the barrier."""
        loc = location or sit.called_location or "torso"
        total, why = 0, []
        for a in sit.armor:
            if loc in a.covers or (loc == "torso" and "vitals" in a.covers):
                A, _, step = self.armor_value(a)
                total += A
                why.append(f"{a.name}: {A} [{step.rule}]")
        if sit.barrier is not None and _tables_ladders()["exposure"].step_for(sit.exposure).native == 0:
            A, _, step, _ = self.barrier_value(sit.barrier)
            total += A
            why.append(f"{sit.barrier.thickness.to('cm'):g} cm {sit.barrier.material}: {A} [{step.rule}]")
        return total, why

    def hit_parts(self, sit: Situation, chance: Fraction, outcomes: Mapping[str, Fraction],
                  pellets: bool) -> list[tuple[Fraction, str, bool]]:
        """A single shot's hits as (probability, location, damage rolled twice): a called
        location's hits (roll <= 1/5: they are the impales, and a head shot's x2 is that
        same doubling, coc-ja.aimed.effects), impales elsewhere, ordinary hits on the torso.
        Shot pellets do not impale (assumed)."""
        loc = sit.called_location or "torso"
        if sit.fire == "mozambique":
            return [(chance, loc, not pellets)]
        imp = Fraction(0) if pellets else outcomes.get("impale", Fraction(0))
        p_loc = outcomes.get("location", Fraction(0))
        imp_rest = max(Fraction(0), imp - p_loc)
        parts = [(p_loc, loc, not pellets), (imp_rest, "torso", True), (chance - p_loc - imp_rest, "torso", False)]
        return [p for p in parts if p[0] > 0]

    def _damage_distribution(self, sit: Situation, nw: CocWeapon, chance: Fraction,
                             outcomes: Mapping[str, Fraction]) -> dict[str, str] | None:
        """Exact damage of one single shot, misses at 0: a hit rolls the damage, an impale (and
        a called location's hit) rolls it twice (coc-ja.aimed.effects); armor A of the
        location hit subtracts once. Shot pellets against armor (armor per die) have only
        their mean."""
        roll, pellets = self.damage_roll(sit, nw)
        parts = self.hit_parts(sit, chance, outcomes, pellets)
        armor = {loc: self.armor_points(sit, loc)[0] for _, loc, _ in parts}
        if pellets and any(armor.values()):
            return None
        # exact, computed once per (roll, chance, hits after armor): rules.shot_damage_distribution
        return rules.shot_damage_distribution(roll, chance, [(w, armor[loc], doubled) for w, loc, doubled in parts])

    def _damage_mean(self, sit, nw, T, M, chance, outcomes, hits) -> Fraction:
        roll, pellets = self.damage_roll(sit, nw)
        if hits is not None:
            A, _ = self.armor_points(sit)
            if pellets:
                e1 = e2 = rules.mean_pellets_after_armor(roll, A)  # shot does not impale (assumed)
            else:
                e1 = rules.mean_after_armor(roll, A)
                e2 = rules.mean_after_armor(roll, A, impale=True)
            imp = outcomes["impale"] if not pellets else Fraction(0)
            mean_hits = sum((h * p for h, p in hits.items()), Fraction(0))
            return mean_hits * e1 + imp * (e2 - e1)
        one = Fraction(0)
        for weight, loc, doubled in self.hit_parts(sit, chance, outcomes, pellets):
            A, _ = self.armor_points(sit, loc)
            e = rules.mean_pellets_after_armor(roll, A) if pellets else rules.mean_after_armor(roll, A, impale=doubled)
            one += weight * e
        return 2 * one if sit.fire == "double tap" else one

    # ==== npc conversions ==============================================================
    def armor_to_neutral(self, a: CocArmor, col: Collector | None = None, path: str = "$") -> Armor:
        """Armor as what it physically is: the catalog item it names (by ``catalog`` id or
        by name), else the joules of its armor-table row. Only an explicit ``catalog`` id is
        carried into the neutral item, so conversions stay stable after one round trip."""
        return self.worn_armor_to_neutral(a.name, a.catalog, a.stops, a.A, col, path, field="A", reads="A {}",
                                          rule="coc-ja.armor.table", covers=a.covers, deflection=a.deflection)

    def armor_from_neutral(self, armor: Armor, col: Collector | None = None, path: str = "$") -> CocArmor:
        A, B, step = self.armor_value(armor)
        if col is not None and col.tracing:
            col.step(path, armor.name, f"stops {float(armor.stops):g} J", f"armor {A}/{_num(B)} ({step.label})",
                     rules=[step.rule], source=step.source)
        line = CocArmor(name=armor.name, A=A, B=B, catalog=armor.catalog)
        # keep the physical value, the coverage and the deflection unless the catalog item or the
        # row itself gives them back (xsys.core.armorline)
        back = self.armor_to_neutral(line)
        stops = None if math.isclose(float(back.stops), float(armor.stops), rel_tol=1e-9) else armor.stops
        more = armorline.extras(armor, back)
        if "deflection" in more and col is not None:
            col.loss("kept-verbatim", f"{path}.deflection", armorline.deflection_note(armor, "Call of Cthulhu"),
                     step.rule)
        return msgspec.structs.replace(line, stops=stops, **more)

    def npc_to_neutral(self, npc: CocNpc) -> Result[Combatant]:
        col = Collector(self.key)
        chars = {k: getattr(npc, k) for k in self.characteristics()}
        neutral_chars = self.characteristics_to_neutral(chars, col, "$")
        mapped = self.skills()
        skills = self.skills_to_neutral({k: v for k, v in npc.skills.items() if k in mapped}, col, "$.skills",
                                        context=chars)
        native: dict[str, Any] = {}
        # levels the equating cannot tell from a lower one (Handgun 97 = 96: +5 two-handed
        # takes both past 100) are kept exactly, with a "rounded" loss, for the way back
        exact = self.levels_kept({k: v for k, v in npc.skills.items() if k in mapped}, col, "$.skills",
                                 context=chars)
        if melee_skills_of(self, npc.skills):
            native["melee_skills"] = melee_skills_of(self, npc.skills)  # their names, for the way back
        if exact:
            native["levels"] = exact
        scale_args = ({k: v for k, v in npc.skills.items() if k in mapped}, skills, chars, neutral_chars)
        verbatim = {k: v for k, v in npc.skills.items() if k not in mapped}
        for k in verbatim:
            col.carried(f"$.skills.{k}", f"skill {k!r}")
        # what only CoC states (Sanity, Magic Points, Luck, spells, skills no neutral key holds):
        # carried verbatim through every other system (xsys.core.carried)
        own: dict[str, Any] = {f: getattr(npc, f) for f in ("SAN", "MP", "Luck") if getattr(npc, f) is not None}
        if npc.spells:
            own["spells"] = list(npc.spells)
        if verbatim:
            own["skills"] = verbatim
        toughness = self.toughness_of(npc.HP, npc.derived_HP, col)
        if toughness is not None:
            native["HP"] = npc.HP  # this sheet's own HP, for the way back
        scale = self.scale_levels(*scale_args, health=(npc.HP if npc.HP is not None else npc.derived_HP, toughness))
        if scale:
            native["scale"] = scale
        weapons, wnative = [], []
        for i, w in enumerate(npc.weapons):
            nw = self.weapon_to_neutral(w, col, f"$.weapons[{i}]")
            weapons.append(nw)
            wnative.append(msgspec.to_builtins(w, enc_hook=enc_hook))
            if w.carry:
                own.setdefault("carry", {})[w.name] = w.carry  # how it is carried: CoC's quick-draw rules only
                col.loss("kept-verbatim", f"$.weapons[{i}].carry", f"{w.name} carried in a {w.carry}: the neutral "
                         f"model has no way of carrying a weapon; kept (carried.coc.carry.{w.name})",
                         "coc-ja.quickdraw.carry")
        if wnative:
            native["weapons"] = wnative
        armor, anative = [], []
        for i, a in enumerate(npc.armor):
            na = self.armor_to_neutral(a, col, f"$.armor[{i}]")
            armor.append(na)
            anative.append(msgspec.to_builtins(a, enc_hook=enc_hook))
        if anative:
            native["armor"] = anative
        melee = []
        for i, m in enumerate(npc.melee):  # close combat: its class crosses, its line is carried
            cls = melee_class_of(m.name, m.skill)
            melee.append(MeleeWeapon(name=m.name, melee_class=cls, skill="brawl" if cls == "unarmed" else "melee"))
            own.setdefault("melee", {})[m.name] = msgspec.to_builtins(m)
            if col.tracing:
                col.step(f"$.melee[{i}]", f"{m.name} ({m.skill}, {m.damage})", f"melee {cls}", rules=["coc-ja.melee"],
                         source="assumed")
        comb = Combatant(name=npc.name, characteristics=neutral_chars, skills=skills, weapons=weapons, melee=melee,
                         melee_kind=melee_kind(self, npc.skills),  # Club 60, no club line: GURPS writes Axe/Mace
                         armor=armor, toughness=toughness, notes=npc.notes, native={self.key: native} if native else {},
                         carried={self.carried_namespaces[0]: own} if own else {})
        return col.result(comb)

    def npc_from_neutral(self, combatant: Combatant) -> Result[CocNpc]:
        col = Collector(self.key)
        chars = self.characteristics_from_neutral(combatant.characteristics, col, "$")
        chars = self.characteristics_on_scale(chars, combatant, col, "$")
        skills = self.skills_from_neutral(combatant.skills, col, "$.skills", context=chars)
        native = combatant.native.get(self.key, {})
        ns = self.carried_namespaces[0]
        own = carried.take(combatant.carried.get(ns), CocCarried, col, f"$.carried.{ns}", self.key)
        if ns not in combatant.carried and isinstance(combatant.carried.get("coc7"), dict):
            # a 7th-edition sheet's Sanity, Magic Points and spells: the same numbers in both
            # editions (coc7.conversion.6e), written on this sheet; not its Luck, which 7th edition
            # rolls (3D6 x 5) and this one derives, POW x 5 (coc-ja.hp): carried for the way back
            own = {k: v for k, v in combatant.carried["coc7"].items()
                   if (k in ("SAN", "MP") and isinstance(v, int) and 0 <= v <= 99)
                   or (k == "spells" and isinstance(v, list) and all(isinstance(x, str) for x in v))
                   or (k == "skills" and isinstance(v, dict)
                       and all(isinstance(x, int) and 0 <= x <= 200 for x in v.values()))}
        skills = self.levels_restored(skills, native.get("levels", {}), combatant.skills, context=chars)
        skills = self.levels_on_scale(skills, combatant, col, "$.skills", context=chars)
        skills = self.levels_floored(skills, combatant.skills, col, "$.skills", chars, native.get("levels", {}))
        skills.update(native.get("skills", {}))
        skills.update(own.get("skills", {}))
        stored_w = native.get("weapons", [])
        weapons = []
        for i, w in enumerate(combatant.weapons):
            old = stored_w[i] if i < len(stored_w) and stored_w[i].get("name") == w.name else None
            if old is not None:
                # native-only fields (damage, base range, ROF, malfunction, STR, carry, ammo)
                # come back verbatim; what the neutral weapon says is re-read from it.
                keep = {k: v for k, v in old.items() if k not in ("capacity", "length", "sights")}
                cw = msgspec.convert(keep, CocWeapon, dec_hook=dec_hook)
                fields = {"capacity": w.capacity if w.capacity else cw.capacity, "sights": w.sights}
                if "length" in old or w.catalog is None:
                    fields["length"] = w.length
                cw = msgspec.structs.replace(cw, **fields)
            else:
                cw = self.weapon_defaults(w)
            if not cw.capacity:  # unstated (0); a gun of 0 rounds cannot fire: the class's usual one
                typical = self.tables()["weapon_class"][w.weapon_class]["capacity"]
                cw = msgspec.structs.replace(cw, capacity=typical)
                if w.weapon_class != "thrown":  # a thrown weapon is one object: nothing assumed
                    col.loss("assumed", f"$.weapons[{i}]", f"{w.name}: the source states no capacity; written "
                             f"as the usual {w.weapon_class}'s {typical}", "coc-ja.reload.magazine")
            if old is None:
                carry = own.get("carry", {}).get(w.name)
                if isinstance(carry, str):
                    cw = msgspec.structs.replace(cw, carry=carry)
                if col.tracing:
                    col.step(f"$.weapons[{i}]", w.name, f"{w.weapon_class}, {float(w.muzzle_energy):g} J",
                             f"{cw.damage}, base range {cw.base_range}", rules=["coc-ja.damage"], source="assumed",
                             note=f"damage by {_catalog().weapon_basis(w).said}")
            weapons.append(cw)
        stored_a = native.get("armor", [])
        armor = []
        for i, a in enumerate(combatant.armor):
            ca = self.armor_from_neutral(a, col, f"$.armor[{i}]")
            old = stored_a[i] if i < len(stored_a) and stored_a[i].get("name") == a.name else None
            if old is not None:
                ca = msgspec.structs.replace(ca, B=old.get("B", ca.B), catalog=old.get("catalog"))
            armor.append(ca)
        npc_chars = {k: chars[k] for k in chars}
        derived_hp = -(-(npc_chars["CON"] + npc_chars["SIZ"]) // 2)
        hp = derived_hp
        t = combatant.toughness
        if t is not None:
            kept = native.get("HP")
            if kept is not None and abs(kept / max(1, derived_hp) - t) < 1e-9:
                hp = kept  # this stat block's own HP, remembered
            else:
                hp = self.health_of(derived_hp, t, col)
        hp = self.health_on_scale(hp, combatant, col)
        melee = self._melee_from_neutral(combatant, own.get("melee", {}), col)
        # the neutral melee is written for the skill the melee lines use (a club line: Club), not
        # for every CoC weapon skill at once (core.melee.melee_skills_written)
        # remembered names: this system's, else a sibling's that shares its skills (coc-zh <-> coc)
        names = native.get("melee_skills") or next(
            (n["melee_skills"] for n in combatant.native.values() if isinstance(n, dict) and n.get("melee_skills")
             and set(n["melee_skills"]) <= set(self.skills())), None)
        kind = MELEE_LINES[combatant.melee_kind][0] if combatant.melee_kind else None  # coc-ja.melee
        skills = melee_skills_written(self, skills, [m.skill for m in melee], names, kind)
        # a line written from its class whose skill the source states none for: at its base chance
        skills = line_skills_untrained(self, skills, [m for m in melee if m.name not in own.get("melee", {})],
                                       npc_chars, col)
        npc = CocNpc(name=combatant.name, HP=hp, SAN=own.get("SAN"), MP=own.get("MP"), Luck=own.get("Luck"),
                     spells=list(own.get("spells", [])), skills=skills, weapons=weapons, melee=melee, armor=armor,
                     notes=combatant.notes, **npc_chars)
        return col.result(npc)

    def _melee_from_neutral(self, combatant: Combatant, lines: Any, col: Collector) -> list[CocMelee]:
        """Close-combat attacks: the line of each weapon's class (coc-ja.melee, assumed),
        or the carried coc line of that weapon (core.carried.melee_lines)."""
        pattern = r"^[0-9dD+\-/ ]*(\+ ?(1/2 ?)?[dD][bB])?$"  # CocMelee.damage

        def of_class(m: Any) -> CocMelee:
            skill, damage = MELEE_LINES[m.melee_class]
            kin = carried.kin_melee_damage(combatant, ("coc7",), m.name, pattern)
            if kin is not None:  # the 7th-edition line's dice: the same weapon table (coc-ja.melee)
                damage = kin[0].lower()
                col.step(f"$.melee.{m.name}", f"{m.name} ({kin[1]} line, {kin[0]})", None, f"damage {damage}",
                         rules=["coc-ja.melee"], source="assumed",
                         note="6th and 7th edition print the same close-combat weapon dice")
            return CocMelee(name=m.name, skill=skill, damage=damage)

        return carried.melee_lines(combatant, lines, CocMelee, "coc", "coc-ja.melee", col, of_class,
                                   lambda line: f"{line.skill}, damage {line.damage}")

    # ==== shot conversions =============================================================
    def shot_to_neutral(self, shot: CocShot) -> Result[Shot]:
        col = Collector(self.key)
        weapon = self.shot_weapon(shot)
        say_grenade(col, "$.weapon", weapon)
        skill = shot.skill or self.skill_for_class(weapon.weapon_class)
        if shot.catalog and self.find_weapon(shot.catalog) is None:
            col.loss("unsupported-field", "$.catalog", f"{shot.catalog!r} is no catalog weapon; {shot.weapon!r} "
                     "is read by its skill", "coc-ja.damage")
        if weapon.catalog is None:
            if shot.skill is None:
                col.loss("assumed", "$.skill", f"{shot.weapon!r} is not a catalog weapon and the shot names no "
                         f"skill; its name says a {weapon.weapon_class}: fired with {skill}", "coc-ja.skills")
            if shot.muzzle_energy is None:
                what = f"the muzzle energy of its damage {shot.damage}" if shot.damage is not None and \
                    float(weapon.muzzle_energy) != float(generic_weapon(weapon.weapon_class).muzzle_energy) \
                    else f"the muzzle energy of a generic {weapon.weapon_class}"
                col.loss("assumed", "$.weapon", f"{shot.weapon!r} is not a catalog weapon; {what}",
                         "coc-ja.damage")
        key = firearm_skill_for(weapon.weapon_class)
        p = self.competence(skill, shot.skill_value, {"@key": key})
        col.step("$.skill_value", f"{skill} {shot.skill_value}%", f"{key} competence {p:.3f}",
                 rules=["coc-ja.skills"], source="assumed", note="equated over the battery [core.equating]")
        back = self.level_for(skill, p, {"@key": key})
        if back != shot.skill_value:
            col.loss("rounded", "$.skill_value", f"{skill} {shot.skill_value}% has the same {key} competence as "
                     f"{skill} {back}%; a neutral shot converts back as {back}%", "coc-ja.skills")
        chars = {}
        if shot.DEX is not None:
            chars["dexterity"] = self.characteristics()["DEX"].ladder.neutral(shot.DEX)
        aim = _tables_ladders()["careful-aim"]
        hands = 2 if shot.hold == "two-handed" else 1
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
        shooter = Shooter(name=shot.shooter, skill=p, characteristics=chars, hands=hands,
                          off_hand=shot.hold == "off-hand", braced=shot.support != "hand-held",
                          aim_time=Duration(aim.neutral(1 if shot.careful_aim else 0)))
        exp = _tables_ladders()["exposure"]
        cover = Cover(exposure=exp.step_labelled(shot.target_exposure).rep,
                      barrier=Barrier(material=shot.cover.material, thickness=shot.cover.thickness)
                      if shot.cover else None)
        target = Target(name=shot.target, posture=shot.target_posture, cover=cover,
                        armor=[self.armor_to_neutral(a, col, f"$.target_armor[{i}]")
                               for i, a in enumerate(shot.target_armor)])
        light = Light(illuminance=Illuminance(self._light_rep(shot.light)),
                      aids=[LIGHT_AIDS[a] for a in shot.light_aids])
        out = Shot(name=shot.name, shooter=shooter, weapon=weapon, target=target, distance=shot.distance,
                   light=light, called_location=shot.called_location,
                   burst=shot.rounds if shot.fire == "full auto" else 1)
        return col.result(out)

    def shot_from_neutral(self, shot: Shot) -> Result[CocShot]:
        col = Collector(self.key)
        w = shot.weapon
        skill = self.skill_for_class(w.weapon_class)
        lad = self.skill_ladder(skill, {"@key": firearm_skill_for(w.weapon_class)})
        step = lad.step_for(shot.shooter.skill)
        col.step("$.skill_value", None, f"competence {shot.shooter.skill:.3f}", f"{skill} {step.native}%",
                 rules=[step.rule], source=step.source, note="equated over the battery [core.equating]")
        dex = None
        if "dexterity" in shot.shooter.characteristics:
            dex = self.characteristics()["DEX"].ladder.step_for(shot.shooter.characteristics["dexterity"]).native
        # the weapon keeps what it is: a catalog weapon its catalog id (and a name
        # of its own beside it), any other its name, skill (so its class), damage and energy
        entry = self.find_weapon(w.catalog) if w.catalog else None
        weapon_name, catalog_id, damage, energy = w.name, None, None, None
        if entry is not None:
            if w.name in (entry.name, w.catalog):
                weapon_name = w.catalog
            else:
                catalog_id = w.catalog
            shot_skill = None if self.skill_for_class(entry.weapon_class) == skill else skill
        else:
            shot_skill = skill
            damage, energy = self.damage_of(w), w.muzzle_energy
        base = entry
        sights = w.sights if (base is None or base.sights != w.sights) and w.weapon_class != "thrown" else None
        dark = self.darkness_ladder().step_for(float(shot.light.illuminance))
        col.step("$.light", f"{float(shot.light.illuminance):g} lx", None, dark.label, rules=[dark.rule],
                 source=dark.source)
        exp = _tables_ladders()["exposure"].step_for(shot.target.cover.exposure)
        aim = _tables_ladders()["careful-aim"].native(float(shot.shooter.aim_time)) >= 1
        hold = "two-handed" if shot.shooter.hands == 2 else ("off-hand" if shot.shooter.off_hand else "one-handed")
        if shot.shooter.hands == 2 and shot.shooter.off_hand:
            hold = "off-hand"
            col.loss("merged", "$.hold", "two-handed off-hand hold read as off-hand (one hand)", "coc-ja.stance.off-hand")
        barrier = shot.target.cover.barrier
        for f, rule in (("speed", "coc-ja.range"),):
            if float(shot.target.speed) or float(shot.shooter.speed):
                col.loss("unsupported-field", f"$.{f}", "CoC has no movement modifier to hit; speed dropped", rule)
        out = CocShot(
            name=shot.name, shooter=shot.shooter.name, weapon=weapon_name, distance=shot.distance,
            skill_value=step.native, skill=shot_skill, catalog=catalog_id, damage=damage, muzzle_energy=energy,
            DEX=dex, sights=sights, light=dark.label,
            light_aids=[LIGHT_AIDS_BACK[a] for a in shot.light.aids],
            hold=hold, support="braced" if shot.shooter.braced else "hand-held", careful_aim=aim,
            called_location=shot.called_location, fire="full auto" if shot.burst > 1 else "single",
            rounds=shot.burst, target=shot.target.name, target_posture=shot.target.posture,
            target_exposure=exp.label,
            cover=CocBarrier(material=barrier.material, thickness=barrier.thickness) if barrier else None,
            target_armor=[self.armor_from_neutral(a, col, f"$.target_armor[{i}]")
                          for i, a in enumerate(shot.target.armor)],
        )
        return col.result(out)


# ---- helpers ------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _characteristics() -> dict[str, CharacteristicSpec]:
    out = {}
    for native, spec in rules.tables()["characteristics"].items():
        dist = {v + spec["plus"]: p for v, p in dice.sum_distribution(spec["dice"], spec["sides"]).items()}
        out[native] = CharacteristicSpec(spec["neutral"],
                                         percentile_ladder(f"characteristic.{native}", dist,
                                                           "coc-ja.characteristics", "assumed"))
    return out


def _num(x: float) -> str:
    return f"{x:g}"


def _ftext(x: Fraction | int) -> str | int:
    x = Fraction(x)
    return int(x) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


__all__ = ["CocSystem", "Situation", "LightEffect", "build_armor_ladders", "FIREARM_SKILLS"]
