"""Call of Cthulhu 7th edition as an xsys system.

A d100 system of the core's family (:class:`xsys.core.percentile.PercentileSystem`, as ``coc``
is): it inherits the armor-file machinery (``armor_file`` -> ``armor_ladders``/``armor_value``/
``barrier_value``), the rule register, the skill-table lookups (``skills``/``skill_class``/
``skill_for_class``/``skill_floor``), the published tiers, catalog lookups (``find_weapon``),
the resolution contract (``resolve`` returning success and Extreme chances) and the skill
contract (``check_at`` = ``evaluate(situation_from_shot(shot, skill_value=level))``,
``roll_chance`` = ``resolve(level)``; the core equates the levels). It states what 7th edition
does: difficulty levels and bonus/penalty dice, 1-99 characteristics, and its own stat block and
shot documents. Of the ``coc`` plugin it uses only the stat-block text layout both editions share."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar, Mapping, Sequence

import msgspec

from xsys.core import armorline, carried, dice
from xsys.core.cache import package_toml
from xsys.core.catalog import grenade_blast, strip_entry
from xsys.core.codec import dec_hook, enc_hook
from xsys.core.errors import InputError
from xsys.core.formulas import Formula
from xsys.core.ladder import Ladder, ladders_from_data
from xsys.core.melee import line_skills_untrained, melee_skills_written
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
    capacity_of,
    generic_weapon,
    melee_class_of,
)
from xsys.core.percentile import LightEffect, PercentileSystem
from xsys.core.system import CharacteristicSpec, percentile_ladder
from xsys.core.trace import Check, Collector, Modifier, Result
from xsys.core.units import Duration, Energy, Illuminance, Length, Speed, parse

from . import d100
from .convert6 import SKILL_NAMES
from .model import Coc7Armor, Coc7Barrier, Coc7Carried, Coc7Melee, Coc7Npc, Coc7Shot, Coc7Weapon, build_and_damage_bonus

HERE = Path(__file__).resolve().parent
TABLES = HERE / "tables.toml"

# Native light-aid words <-> neutral vision aids (core/vocab.py VisionAid).
LIGHT_AIDS = {"flashlight": "hand-light", "weapon light": "weapon-light",
              "night-vision goggles": "nv-goggles", "thermal goggles": "thermal-goggles"}
LIGHT_AIDS_BACK = {v: k for k, v in LIGHT_AIDS.items()}
PRONE = frozenset({"prone", "crawling"})  # coc7.prone-target: postures on the ground
FOOT = 0.3048  # metres
# coc7.damage.shotgun (assumed, the 7th-edition table's sawn-off: "4D6/1D6, 5/10 yards"): a two-band
# line's first band reaches 5 yd, its last the line's base range
SAWN_OFF_FIRST_BAND = 5 * 0.9144  # metres
# coc7.conversion.6e (assumed, the Keeper Rulebook's conversion notes): 6th-edition skills
# 7th edition does not have. Grapple is a Fighting (Brawl) manoeuvre (a fighting manoeuvre,
# rolled with Brawl); Off-hand Shooting is gone (a second gun takes a penalty die).
NOT_SEVENTH = {"Grapple": "Fighting (Brawl)", "Off-hand Shooting": None}
# coc7.melee (assumed, the 7th-edition weapons table): a close-combat weapon's class -> its line
MELEE_LINES = {"unarmed": ("Fighting (Brawl)", "1D3+DB"), "knife": ("Fighting (Brawl)", "1D4+DB"),
               "club": ("Fighting (Brawl)", "1D6+DB"), "sword": ("Fighting (Sword)", "1D8+1+DB"),
               "axe": ("Fighting (Axe)", "1D8+2+DB"), "spear": ("Fighting (Spear)", "1D8+1+DB"),
               "improvised": ("Fighting (Brawl)", "1D4+DB")}
TAIL = Fraction(1, 10**6)  # the population share of a characteristic value the dice never give


# ---- data files (loaded once) -----------------------------------------------------------

def load_tables() -> dict[str, Any]:
    """tables.toml: the rule register, the tables and the ladders' source data (parsed once)."""
    return package_toml(__package__)


@lru_cache(maxsize=None)
def load_ladders() -> dict[str, Ladder]:
    """Every ``[ladder.NAME]`` of tables.toml, built (and so checked for monotonicity)."""
    return ladders_from_data(load_tables(), str(TABLES))


def _uses_per_round(of_class: str, fire_modes: Sequence[str]) -> str:
    """coc7.weapons: a gun with no row of its own fires as its class does, and also as the
    weapon fires: a rifle that fires bursts or full auto says so ("1 or full auto", the 7e
    table's words for its automatic rifles), not the bolt-action rifle's "1"."""
    if "auto" in fire_modes and "auto" not in of_class:
        return f"{of_class} or full auto"
    if "burst" in fire_modes and "burst" not in of_class and "auto" not in of_class:
        return f"{of_class} or 3-round burst"
    return of_class


@lru_cache(maxsize=None)
def cartridge_lines() -> dict[str, str]:
    """coc7.damage: the damage line of each cartridge, from the table's rows of the catalog
    weapons that fire it (they agree; the close band of shot)."""
    from xsys.core.registry import catalog
    from xsys.core.vocab import cartridge_of

    out: dict[str, str] = {}
    for wid, row in load_tables()["weapon"].items():
        entry = catalog().weapons.get(wid)
        key = cartridge_of(entry.calibre) if entry is not None and "damage" in row else None
        if key is not None and "/" not in row["damage"]:
            out.setdefault(key, row["damage"])
    return out


@lru_cache(maxsize=None)
def characteristic_specs() -> dict[str, CharacteristicSpec]:
    """coc7.characteristics: each characteristic's percentile ladder among ordinary adults.

    7e rolls dice on the old 3-18 scale and multiplies by 5 (coc7.conversion.6e); a value v
    between multiples of five shares the percentile band of round(v / 5), split evenly, so
    every integer from 5 x min - 2 to 5 x max + 2 has a row and v = 5 x old is the middle one."""
    out = {}
    for native, spec in load_tables()["characteristics"].items():
        times = spec["times"]
        half = times // 2
        dist: dict[int, Fraction] = {}
        for s, p in dice.sum_distribution(spec["dice"], spec["sides"]).items():
            centre = (s + spec["plus"]) * times
            for v in range(centre - half, centre + half + 1):
                dist[v] = dist.get(v, Fraction(0)) + p / times
        # a sheet may state any value 1-99 (an EDU 35 clerk, a STR 99 strongman): the values the
        # dice never give share a millionth of the population at the ends (assumed, README)
        tail = {v: TAIL for v in range(1, 100) if v not in dist}
        total = sum(dist.values()) + sum(tail.values())
        dist = {v: q / total for v, q in sorted({**dist, **tail}.items())}
        out[native] = CharacteristicSpec(spec["neutral"], percentile_ladder(
            f"characteristic.{native}", dist, "coc7.characteristics", "assumed"))
    return out


@lru_cache(maxsize=256)
def damage_distribution(expr: str) -> dict[int, Fraction]:
    """The distribution of a damage roll such as '1D10+1D4+2' (exact, via xsys.core.dice)."""
    dist: dict[int, Fraction] = {0: Fraction(1)}
    for sign, term in _terms(expr):
        if "D" in term:
            n, sides = (int(x) for x in term.split("D"))
            part = dice.sum_distribution(n, sides)
        else:
            part = {int(term): Fraction(1)}
        new: dict[int, Fraction] = {}
        for a, p in dist.items():
            for b, q in part.items():
                new[a + sign * b] = new.get(a + sign * b, Fraction(0)) + p * q
        dist = new
    return dist


@lru_cache(maxsize=2048)
def mean_after_armor(expr: str, armor: int, impale: bool = False) -> Fraction:
    """Expected damage of one hit after armor. An impale (coc7.impale) is the roll's maximum
    plus a second roll; armor subtracts once; damage is never negative."""
    dist = damage_distribution(expr)
    bonus = max(dist) if impale else 0
    return sum((max(0, v + bonus - armor) * p for v, p in dist.items()), Fraction(0))


def _melee_class(m: Coc7Melee) -> str:
    """A close-combat line's weapon class: what its name says; else, as knives and clubs are
    Fighting (Brawl) in 7th edition, a Brawl attack by its damage on the weapons table (1D3 fists,
    1D4 a knife, 1D6 a club), another Fighting skill by its name (coc7.melee)."""
    named = melee_class_of(m.name)
    if named != "improvised":
        return named
    if m.skill == "Fighting (Brawl)":
        die = m.damage.upper().split("+")[0].strip()
        return {"1D3": "unarmed", "1D4": "knife", "1D6": "club"}.get(die, "improvised")
    return melee_class_of(m.name, m.skill)


@lru_cache(maxsize=4096)  # every shot with the same weapon, chances and armor asks again
def _one_shot(roll: str, impales: bool, armor: int, chance: Fraction, p_ext: Fraction) -> tuple[tuple[str, str], ...]:
    dist = damage_distribution(roll)
    out: dict[int, Fraction] = {0: 1 - chance}
    extra = max(dist) if impales else 0
    for weight, plus in ((chance - p_ext, 0), (p_ext, extra)):
        for v, p in dist.items():
            d = max(0, v + plus - armor)
            out[d] = out.get(d, Fraction(0)) + weight * p
    return tuple((str(v), f"{p.numerator}/{p.denominator}") for v, p in sorted(out.items()) if p)


def _terms(expr: str) -> list[tuple[int, str]]:
    out, sign, cur = [], 1, ""
    for ch in expr.replace(" ", "").upper():
        if ch in "+-":
            if cur:
                out.append((sign, cur))
            sign, cur = (1 if ch == "+" else -1), ""
        else:
            cur += ch
    if cur:
        out.append((sign, cur))
    return out


# ---- the situation of one shot -----------------------------------------------------------

@dataclass(frozen=True)
class Coc7Situation:
    """Everything one 7e shot depends on, read from a neutral Shot (or a native Coc7Shot via
    its neutral form) by :meth:`Coc7System.situation_from_shot`."""

    skill: str
    skill_value: int
    weapon: Weapon
    distance: float
    native_weapon: Coc7Weapon | None = None
    DEX: int = 50
    illuminance: float = 10_000.0
    aids: tuple[str, ...] = ()
    sights: str = "iron"
    aim_time: float = 0.0
    braced: bool = False
    shooter_prone: bool = False
    shooter_speed: float = 0.0
    hands: int = 2
    off_hand: bool = False
    rounds: int = 1
    target_posture: str = "standing"
    target_speed: float = 0.0
    exposure: float = 1.0
    barrier: Barrier | None = None
    armor: tuple[Armor, ...] = ()
    called_location: str | None = None


class Coc7System(PercentileSystem):
    """Call of Cthulhu 7th edition: d100 with difficulty levels and bonus/penalty dice."""

    key: ClassVar[str] = "coc7"
    name: ClassVar[str] = "Call of Cthulhu"
    edition: ClassVar[str] = "7th edition"
    dice: ClassVar[str] = "d100 roll-under; Regular/Hard/Extreme at 1, 1/2, 1/5 of the skill; bonus/penalty dice"
    rule_prefix: ClassVar[str] = "coc7."
    npc_type: ClassVar[type] = Coc7Npc
    shot_type: ClassVar[type | None] = Coc7Shot

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

    # ==== close combat ======================================================================
    # 7th edition's skills are coc's percentages and are equated on coc's checks
    # (skill_scale_checks, coc7.conversion.6e), close combat too: this check is the d100
    # family's (core.percentile) with coc's defender (Dodge 21 = DEX x 2 at the median DEX
    # 10.5, a Fist/Punch parry 50), cited as that rule; it equates no coc7 skill of its own.
    MEDIAN_DODGE: ClassVar[int] = 21
    MEDIAN_PARRY: ClassVar[int] = 50
    PARRY_NAME: ClassVar[str] = "Fist/Punch parry"
    MELEE_RULES: ClassVar[dict[str, tuple[str, str]]] = {
        "darkness": ("coc7.conversion.6e", "assumed"), "dodge": ("coc7.conversion.6e", "assumed"),
        "parry": ("coc7.conversion.6e", "assumed"), "parry-weapon": ("coc7.conversion.6e", "assumed"),
        "armor": ("coc7.armor", "assumed")}
    melee_rule: ClassVar[str] = "coc7.melee"

    def derived_fields(self) -> dict[str, tuple[tuple[str, ...], str]]:
        return {"HP": (("CON", "SIZ"), "coc7.derived")}  # HP = (CON + SIZ) / 10 rounded down

    def skill_context(self, skill: str, context: Mapping[str, Any] | None) -> dict[str, Any]:
        """A close-combat skill's results depend on the damage bonus: 7th edition's, of STR + SIZ
        on its own scale (coc7.derived), not 5th/6th edition's table."""
        if skill not in self.close_combat_skills():
            return {}
        c = context or {}
        return {"db": build_and_damage_bonus(int(c.get("STR") or 50) + int(c.get("SIZ") or 65))[1].lower()}

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

    def text_layout(self) -> Any:
        """Plain-text stat blocks: the Call of Cthulhu block of coc's layout, read as 7th edition
        (its own values) and written with 7th edition's weapon and armor fields."""
        from xsys.plugins.coc.text import CocText  # loaded when a block is read

        return CocText(self.key)

    # ==== tables ===========================================================================
    def tables(self) -> dict[str, Any]:
        """tables.toml of this plugin, in the d100 family's schema (core.percentile: [rule],
        [skills], [weapon_class], tiers)."""
        return load_tables()

    def table_ladders(self) -> dict[str, Ladder]:
        return dict(load_ladders())

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

    # ==== darkness (the family's contract) ====================================================
    def darkness_ladder(self) -> Ladder:
        """coc7.darkness: lux -> the light words of Coc7Shot.light."""
        return load_ladders()["light"]

    def light_effect(self, sit: Coc7Situation) -> LightEffect:  # type: ignore[override]
        """coc7.darkness as penalty dice (``dice`` modifiers of the returned LightEffect): a
        light on the target or a thermal imager cancels it; night vision cancels dim light
        and halves darkness to one penalty die (assumed)."""
        step = self.darkness_ladder().step_for(sit.illuminance)
        level = step.label
        n = self.tables()["darkness"][level]
        eff = LightEffect(level=level)
        if n == 0:
            return eff
        aids = set(sit.aids)
        if aids & {"hand-light", "weapon-light"}:
            why, n = f"{level}: a light on the target cancels it", 0
        elif "thermal-goggles" in aids or sit.sights == "thermal":
            why, n = f"{level}: thermal imaging ignores light", 0
        elif "nv-goggles" in aids or sit.sights == "nv-sight":
            n -= 1
            why = f"{level}: night vision" + (" cancels it" if n == 0 else ", one penalty die left")
        else:
            why = level
        eff.modifiers.append(Modifier(rule="coc7.darkness", kind="dice", value=-n, source=step.source, why=why))
        return eff

    # ==== resolution (the family's contract) ==================================================
    def resolve(self, target: int, dice: int = 0, extreme: int | None = None) -> Any:  # type: ignore[override]
        """coc7.resolution: P(success) of a d100 roll needing ``target`` with ``dice`` bonus
        (> 0) or penalty (< 0) dice, and as ``critical_success`` the chance of an Extreme
        success (<= ``extreme``, default a fifth of the target), which impales."""
        from xsys.core.dice import Outcomes

        ext = target // 5 if extreme is None else extreme
        return Outcomes(d100.chance(target, dice), critical_success=d100.chance(ext, dice))

    def impale_threshold(self, target: int) -> int:
        return d100.threshold(target, d100.EXTREME)

    # ==== characteristics and skills ========================================================
    def characteristics(self) -> dict[str, CharacteristicSpec]:
        return characteristic_specs()

    def skill_levels(self, skill: str) -> range:
        """coc7.skills: 1-99 (0 succeeds on the critical 01 only, exactly as 1 does).
        ``check_at`` and ``roll_chance`` are the d100 family's, over this class's rules."""
        return range(1, 100)

    # ==== weapons ===========================================================================
    def damage_of(self, weapon: Weapon) -> str:
        """coc7.damage (assumed, the 7th-edition weapons table): one line per cartridge, whatever
        path the weapon came by. Its catalog weapon's own [weapon.<id>] row, else the row of the
        cartridge it fires (its catalog weapon's, its calibre's, or the one its name states:
        core.catalog.Catalog.weapon_basis) as the table's weapons of that cartridge give it, else
        the damage ladder at the cartridge's (else its own) muzzle energy; shot by range band."""
        from xsys.core.registry import catalog

        if grenade_blast(weapon) is not None:  # the table's hand grenade (tables.toml [grenade])
            return self.tables()["grenade"]["damage"]
        basis = catalog().weapon_basis(weapon)
        row = self.tables()["weapon"].get(basis.entry.id if basis.entry is not None else "", {})
        if "damage" in row:
            return row["damage"]
        line = cartridge_lines().get(basis.cartridge or "")
        if line is not None:
            return line
        if weapon.weapon_class == "shotgun":
            return "4D6/2D6/1D6"
        return load_ladders()["damage"].step_for(basis.energy).label

    def weapon_defaults(self, weapon: Weapon) -> Coc7Weapon:  # type: ignore[override]
        """Native data of a neutral weapon: its [weapon.<catalog id>] row, else its class's row,
        with the damage of ``damage_of``."""
        t = self.tables()
        cls = t["weapon_class"][weapon.weapon_class]
        row = t["weapon"].get(weapon.catalog or "", {})
        if grenade_blast(weapon) is not None:
            row = {k: v for k, v in t["grenade"].items() if k in ("uses_per_round", "malfunction")}
        return Coc7Weapon(
            name=weapon.name, skill=cls["skill"], damage=self.damage_of(weapon),
            base_range=parse(row.get("base_range", cls["base_range"]), Length),
            uses_per_round=row.get("uses_per_round", _uses_per_round(cls["uses_per_round"], weapon.fire_modes)),
            capacity=capacity_of(weapon)[0],
            malfunction=row.get("malfunction", cls["malfunction"]), sights=weapon.sights, catalog=weapon.catalog,
            muzzle_energy=None if weapon.catalog else weapon.muzzle_energy,
        )

    def weapon_class_of(self, w: Coc7Weapon) -> str:
        """The neutral class of a native weapon that is not in the catalog: shot dice by range band
        fire shot; else the kind of its skill's class its name says (a "Revolver" fired with
        Handgun); else its skill's class. A 7e line does not otherwise tell a revolver from an
        automatic (the table's .45 Automatic malfunctions on 100, as its revolvers do)."""
        from xsys.core.registry import catalog

        if w.skill == "Firearms (Rifle/Shotgun)" and "/" in w.damage:
            return "shotgun"
        return catalog().weapon_class_named(w.name, self.tables()["skills"][w.skill]["weapon_class"])

    def weapon_to_neutral(self, w: Coc7Weapon, col: Collector | None = None,  # type: ignore[override]
                          path: str = "$") -> Weapon:
        """A native weapon as what it physically is (core.catalog.Catalog.identify_weapon, one
        answer for every system): its catalog entry (by id, else by what its name says, when its
        skill fires that kind of gun) with the capacity the line states, else a weapon of its
        class (``weapon_class_of``) with the muzzle energy of its damage dice."""
        from xsys.core.registry import catalog

        cat = catalog()
        entry = cat.weapons.get(w.catalog) if w.catalog else cat.identify_weapon(w.name)[0]
        if entry is not None and not w.catalog and self.skill_for_class(entry.weapon_class) != w.skill:
            entry = None  # 'Glock 17' fired with Rifle/Shotgun is not the catalog Glock
        if entry is not None:
            base = strip_entry(entry)
            if w.capacity and w.capacity != base.capacity and col is not None:
                col.loss("assumed", f"{path}.capacity", f"{w.name}: the line states capacity {w.capacity}; "
                         f"catalog weapon {entry.id} holds {base.capacity}: the stated {w.capacity} is kept",
                         "coc7.damage")
            out = msgspec.structs.replace(base, name=w.name, capacity=w.capacity or base.capacity, sights=w.sights)
            line = self.damage_of(out)
            if col is not None and out.weapon_class != "shotgun" and line.upper() != w.damage.upper():
                col.loss("merged", f"{path}.damage", f"{w.name}: it is catalog weapon {entry.id}, whose damage is "
                         f"{line}; the line's own {w.damage} is not that weapon's, and a sheet written again from "
                         f"the neutral weapon rolls {line}", "coc7.damage")
            return out
        cls = self.weapon_class_of(w)
        modes = ["semi"] + [m for m in ("burst", "auto") if m in w.uses_per_round.replace("full auto", "auto")]
        if w.muzzle_energy is not None:
            energy = float(w.muzzle_energy)
        else:
            first = w.damage.split("/")[0]
            energy = self.damage_energy(w.damage)
            if cls == "shotgun" or energy is None:
                energy = float(generic_weapon(cls).muzzle_energy)
                why = f"muzzle energy of a generic {cls}"
            else:
                why = f"muzzle energy from {first}"
            if col is not None:
                col.loss("assumed", f"{path}.damage", f"no catalog weapon {w.name!r}; {why}", "coc7.damage")
        return Weapon(name=w.name, weapon_class=cls, muzzle_energy=Energy(energy),  # type: ignore[arg-type]
                      fire_modes=modes, capacity=w.capacity, sights=w.sights)  # type: ignore[arg-type]

    def shot_weapon_class(self, skill: str | None, damage: str | None, word_class: str | None) -> str | None:
        """A shot's weapon in no catalog: shot dice by range band fired with Rifle/Shotgun fire shot;
        else the stated skill's class, else the class word its name ends in (coc7.damage)."""
        if skill == "Firearms (Rifle/Shotgun)" and "/" in (damage or ""):
            return "shotgun"
        return super().shot_weapon_class(skill, damage, word_class)

    # ==== situations ========================================================================
    def situation_from_shot(self, shot: Shot, skill_value: int | None = None,  # type: ignore[override]
                            DEX: int | None = None, native_weapon: Coc7Weapon | None = None,
                            skill: str | None = None) -> Coc7Situation:
        """A neutral shot as a situation. The shooter's competence becomes the nearest level
        (``level_for``) unless ``skill_value`` is given; DEX comes from the
        dexterity percentile (the adult median when absent) unless given."""
        w = shot.weapon
        skill = skill or self.skill_for_class(w.weapon_class)
        if skill_value is None:
            skill_value = self.level_for(skill, shot.shooter.skill, {"@class": w.weapon_class})
        if DEX is None:
            DEX = self.characteristics()["DEX"].ladder.step_for(
                shot.shooter.characteristics.get("dexterity", 0.5)).native
        s, t = shot.shooter, shot.target
        return Coc7Situation(
            skill=skill, skill_value=int(skill_value), weapon=w, distance=float(shot.distance),
            native_weapon=native_weapon, DEX=int(DEX), illuminance=float(shot.light.illuminance),
            aids=tuple(shot.light.aids), sights=w.sights, aim_time=float(s.aim_time), braced=s.braced,
            shooter_prone=s.posture == "prone", shooter_speed=float(s.speed), hands=s.hands, off_hand=s.off_hand,
            rounds=shot.burst, target_posture=t.posture, target_speed=float(t.speed),
            exposure=float(t.cover.exposure), barrier=t.cover.barrier, armor=tuple(t.armor),
            called_location=shot.called_location,
        )

    # ==== the check =========================================================================
    def check_native(self, shot: Coc7Shot, npc: Coc7Npc | None = None,  # type: ignore[override]
                     extra: Sequence[Modifier] = ()) -> Check:
        """A native shot as a Check, with the shooter's stat block when known (its DEX and
        its own weapon line)."""
        neutral = self.shot_to_neutral(shot).value
        native_w = None
        if npc is not None:
            native_w = next((w for w in npc.weapons if shot.weapon in (w.name, w.catalog)), None)
        dex = shot.DEX if shot.DEX is not None else (npc.DEX if npc is not None else None)
        sit = self.situation_from_shot(neutral, skill_value=shot.skill_value, DEX=dex, native_weapon=native_w,
                                       skill=shot.skill)
        return self.evaluate(sit, extra)

    def evaluate(self, sit: Coc7Situation, extra: Sequence[Modifier] = (),  # type: ignore[override]
                 with_damage: bool = True) -> Check:
        """The 7e check: range band -> difficulty level; every situation modifier -> bonus
        or penalty dice; bonus and penalty dice cancel and at most two remain; the chance is
        exact (xsys.plugins.coc7.d100)."""
        t = self.tables()
        lad = load_ladders()
        mods: list[Modifier] = []
        notes: list[str] = []

        def mod(rule: str, kind: str, value: Any, why: str) -> None:
            mods.append(Modifier(rule=rule, kind=kind, value=value, source=self.rule_source(rule), why=why))

        cls = sit.weapon.weapon_class
        nw = sit.native_weapon or self.weapon_defaults(sit.weapon)
        skill = sit.skill_value
        bonus = penalty = 0
        d = sit.distance

        # -- range band -> difficulty (coc7.range, .braced, .beyond) ---------------------
        base = float(nw.base_range)
        if sit.braced or sit.sights == "scope":
            base *= 2
            notes.append(f"coc7.range.braced: {'braced' if sit.braced else 'telescopic sight'}, "
                         f"base range x2 = {base:g} m")
        band = lad["range"].step_for(d / base if base > 0 else math.inf)
        level = min(band.native, d100.EXTREME)
        if level:
            mod("coc7.range", "difficulty", level,
                f"{d:g} m, base range {base:g} m: {band.label} ({d100.LEVELS[level]})")
        if band.native > d100.EXTREME:
            n = band.native - d100.EXTREME
            penalty += n
            mod("coc7.range.beyond", "dice", -n, f"{band.label}: {n} penalty {'die' if n == 1 else 'dice'}")

        # -- bonus dice ------------------------------------------------------------------
        pb = t["point_blank"]
        pb_range = sit.DEX / pb["dex_divisor"] * FOOT
        within_pb = d <= pb_range
        if within_pb and cls in pb["classes"]:
            bonus += 1
            mod("coc7.point-blank", "dice", 1, f"{d:g} m within DEX {sit.DEX} / 5 = {sit.DEX / 5:g} ft")
        if lad["aim"].native(sit.aim_time) >= 1:
            bonus += 1
            mod("coc7.aim", "dice", 1, f"aimed {sit.aim_time:g} s (one round)")
        if sit.shooter_prone:
            bonus += 1
            mod("coc7.prone-shooter", "dice", 1, "firing while prone")

        # -- penalty dice ----------------------------------------------------------------
        if lad["shooter-speed"].native(sit.shooter_speed) >= 1:
            penalty += 1
            mod("coc7.shooter-running", "dice", -1, f"firing while running ({sit.shooter_speed:g} m/s)")
        if lad["target-speed"].native(sit.target_speed) >= 1:
            penalty += 1
            mod("coc7.fast-target", "dice", -1, f"target at full speed ({sit.target_speed:g} m/s)")
        if sit.target_posture in PRONE and not within_pb:
            penalty += 1
            mod("coc7.prone-target", "dice", -1, f"target {sit.target_posture}, beyond point-blank range")
        cover = lad["cover"].step_for(sit.exposure)
        if cover.label == "partially concealed":
            penalty += 1
            mod("coc7.cover", "dice", -1, "target partially concealed")
        elif cover.label == "small part showing":
            penalty += 2
            mod("coc7.cover", "dice", -1, "target partially concealed")
            mod("coc7.small-target", "dice", -1, "only a small part of the target shows")
        elif cover.label == "hidden":
            penalty += t["cover"]["hidden"]
            mod("coc7.hidden-target", "dice", -t["cover"]["hidden"], "target unseen: shot through its cover")
        light = self.light_effect(sit)
        mods.extend(light.modifiers)
        for m in light.modifiers:
            if m.kind == "dice":
                bonus += max(0, int(m.value))
                penalty += max(0, -int(m.value))
        auto = sit.rounds > 1 and bool({"auto", "burst"} & set(sit.weapon.fire_modes))
        if sit.rounds > 1 and not auto:
            penalty += 1
            mod("coc7.multiple-shots", "dice", -1, f"{sit.rounds} shots in the round: a penalty die on each")

        # -- what 7e does not model ------------------------------------------------------
        if sit.called_location is not None:
            notes.append(f"7th edition has no called shots: the {sit.called_location} is not aimed at separately")
        if sit.hands == 1 or sit.off_hand:
            notes.append("7th edition has no one-handed or off-hand modifier; none applied")

        # -- house rules from other plugins (extra), by kind -----------------------------
        for m in extra:
            mods.append(m)
            if m.kind == "add":
                skill = max(0, skill + int(m.value))
            elif m.kind == "multiply":
                skill = max(0, math.floor(skill * Fraction(str(m.value))))
            elif m.kind == "set":
                skill = max(0, int(str(m.value).rstrip("%")))
            elif m.kind == "dice":
                v = int(m.value)
                bonus, penalty = bonus + max(0, v), penalty + max(0, -v)
            elif m.kind == "difficulty":
                level = max(d100.REGULAR, level + int(m.value))

        # -- the roll --------------------------------------------------------------------
        cap = t["resolution"]["dice_cap"]
        net = d100.net_dice(bonus, penalty, cap)
        if bonus - penalty != net:
            notes.append(f"coc7.bonus-penalty: {bonus} bonus and {penalty} penalty dice; at most {cap} remain")
        target = d100.threshold(skill, level)
        extreme = d100.threshold(skill, max(level, d100.EXTREME))
        res = self.resolve(target, net, extreme)
        chance, p_ext = res.success, res.critical_success
        outcomes: dict[str, Fraction] = {"extreme": p_ext, "critical": d100.chance(0, net)}
        hits = None
        if auto:
            hits = self.volleys(skill, sit.rounds, level, net, cap)
            chance = hits[0][1]
            outcomes["any_hit"] = 1 - math.prod((1 - p for _, p, _, _ in hits), start=Fraction(1))
            outcomes["mean_hits"] = sum((_volley_hits(b, p, e) for b, p, e, _ in hits), Fraction(0))
            outcomes["volleys"] = Fraction(len(hits))
            notes.append(f"coc7.autofire: {sit.rounds} rounds in {len(hits)} volley(s) of up to {hits[0][0]}; "
                         "chance = the first volley; each later volley has one more penalty die")
        elif sit.rounds > 1:
            outcomes["mean_hits"] = sit.rounds * chance

        level_word = d100.LEVELS[level] if level <= d100.EXTREME else "beyond Extreme (01 only)"
        dice_txt = "" if net == 0 else (f", {abs(net)} {'bonus' if net > 0 else 'penalty'} "
                                        f"{'die' if abs(net) == 1 else 'dice'}")
        needs = f"d100 <= {target} ({level_word}){dice_txt}"
        native = f"{sit.skill} {skill}%: {level_word} roll, {target:02d} or less{dice_txt}"
        damage_mean = damage = None
        if with_damage and cls != "thrown":
            damage_mean = float(self.damage_mean(sit, nw, chance, p_ext, hits, notes))
            if sit.rounds == 1:
                damage = self.damage_of_one_shot(sit, nw, chance, p_ext)
        return Check(system=self.key, stat=sit.skill, base=sit.skill_value, modifiers=mods, target=target,
                     needs=needs, chance=chance, native=native, damage_mean=damage_mean, damage=damage,
                     outcomes=outcomes, notes=notes)

    def volleys(self, skill: int, rounds: int, level: int, net: int, cap: int = 2
                ) -> list[tuple[int, Fraction, Fraction, int]]:
        """coc7.autofire: the volleys of a burst as (bullets, P(hit), P(Extreme), level).
        Volleys hold 3 bullets up to the skill's tens digit; volley k has k more penalty
        dice than the first; past ``cap`` penalty dice each further one raises the
        difficulty a level instead."""
        size = max(3, skill // 10)
        out = []
        left, k = rounds, 0
        while left > 0:
            b = min(size, left)
            dk, lk = net - k, level
            if dk < -cap:
                lk, dk = level + (-cap - dk), -cap
            tk = d100.threshold(skill, lk)
            ek = d100.threshold(skill, max(lk, d100.EXTREME))
            out.append((b, d100.chance(tk, dk), d100.chance(ek, dk), lk))
            left -= b
            k += 1
        return out

    # ==== damage ============================================================================
    def damage_roll(self, sit: Coc7Situation, nw: Coc7Weapon) -> tuple[str, bool]:  # type: ignore[override]
        """The damage dice at this distance and whether an Extreme success impales: shotgun
        shot by range band (coc7.damage.shotgun), which does not impale (coc7.impale)."""
        parts = nw.damage.split("/")
        if len(parts) == 2:  # a sawn-off's 4D6/1D6: 5 yd, then out to 10 (coc7.damage.shotgun, assumed)
            return parts[0 if float(sit.distance) <= SAWN_OFF_FIRST_BAND else 1], False
        if len(parts) > 1:
            band = load_ladders()["shotgun-band"].step_for(sit.distance).native
            return parts[min(band, len(parts) - 1)], False
        return parts[0], True

    def armor_points(self, sit: Coc7Situation) -> tuple[int, list[str]]:  # type: ignore[override]
        """Armor between the bullet and the target (coc7.armor): worn armor covering the
        torso and, for a hidden target, the barrier it is shot through."""
        total, why = 0, []
        for a in sit.armor:
            if "torso" in a.covers or "vitals" in a.covers:
                A, _, step = self.armor_value(a)
                total += A
                why.append(f"{a.name}: {A} [{step.rule}]")
        if sit.barrier is not None and load_ladders()["cover"].step_for(sit.exposure).label == "hidden":
            A, _, step, _ = self.barrier_value(sit.barrier)
            total += A
            why.append(f"{sit.barrier.thickness.to('cm'):g} cm {sit.barrier.material}: {A} [{step.rule}]")
        return total, why

    def damage_of_one_shot(self, sit: Coc7Situation, nw: Coc7Weapon, chance: Fraction,
                           p_ext: Fraction) -> dict[str, str]:
        """Exact damage of one single shot ("damage": "p/q"), misses at 0: a Regular or Hard
        success rolls the damage, an Extreme one impales where the weapon can (the roll's
        maximum plus a roll, coc7.impale), armor subtracts once (coc7.armor). The equating
        scores a shot by this distribution, as it does coc's (core.equating.damage_per_shot)."""
        return dict(_one_shot(*self.damage_roll(sit, nw), self.armor_points(sit)[0], Fraction(chance), Fraction(p_ext)))

    def damage_mean(self, sit: Coc7Situation, nw: Coc7Weapon, chance: Fraction, p_ext: Fraction,
                    hits: list | None, notes: list[str]) -> Fraction:
        """Expected damage of the shot after armor (coc7.impale, coc7.autofire)."""
        roll, impales = self.damage_roll(sit, nw)
        A, why = self.armor_points(sit)
        if why:
            notes.append("coc7.armor: " + ", ".join(why))
        e1 = mean_after_armor(roll, A)
        e2 = mean_after_armor(roll, A, impale=True) if impales else e1
        if hits is not None:
            total = Fraction(0)
            for b, p, e, _ in hits:
                reg = max(1, b // 2)
                imp = max(1, b // 2) if impales else 0
                total += (p - e) * reg * e1 + e * (imp * e2 + (b - imp) * e1)
            return total
        one = (chance - p_ext) * e1 + p_ext * e2
        return one * sit.rounds

    # ==== armor =============================================================================
    def armor_to_neutral(self, a: Coc7Armor, col: Collector | None = None,  # type: ignore[override]
                         path: str = "$") -> Armor:
        """Armor as what it physically is: the catalog item it names (Catalog.find_armor: its
        ``catalog`` id, an unknown one refused, else its name), else the joules it stops, else
        the joules of its armor row; a helmet by its name on the head (core.armorline.restore)."""
        return self.worn_armor_to_neutral(a.name, a.catalog, a.stops, a.armor, col, path, field="armor",
                                          reads="{} points", rule="coc7.armor")

    def armor_from_neutral(self, armor: Armor, col: Collector | None = None,  # type: ignore[override]
                           path: str = "$") -> Coc7Armor:
        points, _, step = self.armor_value(armor)
        if col is not None:
            col.step(path, armor.name, f"stops {float(armor.stops):g} J", f"armor {points} ({step.label})",
                     rules=[step.rule], source=step.source)
        stops = None if armor.catalog or float(armor.stops) == step.rep else armor.stops
        return Coc7Armor(name=armor.name, armor=points, catalog=armor.catalog, stops=stops)

    # ==== npc conversions ===================================================================
    def npc_to_neutral(self, npc: Coc7Npc) -> Result[Combatant]:  # type: ignore[override]
        col = Collector(self.key)
        chars = {k: getattr(npc, k) for k in self.characteristics()}
        neutral_chars = self.characteristics_to_neutral(chars, col, "$")
        mapped = self.skills()
        # a Fighting skill is equated at the NPC's own STR + SIZ (its damage bonus), as coc's is
        skills = self.skills_to_neutral({k: v for k, v in npc.skills.items() if k in mapped}, col, "$.skills",
                                        context=chars)
        native: dict[str, Any] = {}

        # what only Call of Cthulhu states (Sanity, Magic Points, Luck, skills no neutral key
        # holds) is carried verbatim through every other system (xsys.core.carried)
        own: dict[str, Any] = {}
        verbatim = {k: v for k, v in npc.skills.items() if k not in mapped}
        for k in verbatim:
            col.carried(f"$.skills.{k}", f"skill {k!r}")
        for f in ("SAN", "MP", "Luck"):
            if getattr(npc, f) is not None:
                own[f] = getattr(npc, f)
                col.carried(f"$.{f}", f, "coc7.characteristics" if f == "Luck" else "coc7.derived")
        if npc.spells:
            own["spells"] = list(npc.spells)
            col.carried("$.spells", "spells", "coc7.characteristics")
        if verbatim:
            own["skills"] = verbatim
        melee = []
        for i, m in enumerate(npc.melee):  # close combat: its class crosses, its line is carried
            cls = _melee_class(m)
            melee.append(MeleeWeapon(name=m.name, melee_class=cls, skill="brawl" if cls == "unarmed" else "melee"))
            own.setdefault("melee", {})[m.name] = msgspec.to_builtins(m)
            if col.tracing:
                col.step(f"$.melee[{i}]", f"{m.name} ({m.skill}, {m.damage})", f"melee {cls}", rules=["coc7.melee"],
                         source="assumed")
        self._brawl_weapons(npc, skills, chars, col)
        toughness = self.toughness_of(npc.HP, npc.derived_HP, col)  # stated HP beyond the rule's
        scale = self.scale_levels({k: v for k, v in npc.skills.items() if k in mapped}, skills, chars, neutral_chars,
                                  health=(npc.HP if npc.HP is not None else npc.derived_HP, toughness))
        if scale:
            native["scale"] = scale
        for f in ("HP", "MOV"):
            v = getattr(npc, f)
            if v is not None:
                native[f] = v
                if f == "HP" and toughness is not None:
                    continue  # it crosses as the toughness
                if v == getattr(npc, f"derived_{f}"):
                    continue  # the rule's own value: every system derives its own
                col.loss("kept-verbatim", f"$.{f}", f"{f} {v} has no neutral field; kept for the way back",
                         "coc7.derived")
        weapons, wnative = [], []
        for i, w in enumerate(npc.weapons):
            weapons.append(self.weapon_to_neutral(w, col, f"$.weapons[{i}]"))
            wnative.append(msgspec.to_builtins(w, enc_hook=enc_hook))
        if wnative:
            native["weapons"] = wnative
        armor, anative = [], []
        for i, a in enumerate(npc.armor):
            armor.append(self.armor_to_neutral(a, col, f"$.armor[{i}]"))
            anative.append(msgspec.to_builtins(a, enc_hook=enc_hook))
        if anative:
            native["armor"] = anative
        comb = Combatant(name=npc.name, characteristics=neutral_chars, skills=skills, weapons=weapons, armor=armor,
                         melee=melee, toughness=toughness, notes=npc.notes, native={self.key: native} if native else {},
                         carried={self.carried_namespaces[0]: own} if own else {})
        return col.result(comb)

    def npc_from_neutral(self, combatant: Combatant) -> Result[Coc7Npc]:  # type: ignore[override]
        col = Collector(self.key)
        chars = self.characteristics_from_neutral(combatant.characteristics, col, "$")
        chars = self.characteristics_on_scale(chars, combatant, col, "$")
        skills = self.skills_from_neutral(combatant.skills, col, "$.skills", context=chars)
        skills = self.levels_on_scale(skills, combatant, col, "$.skills", context=chars)
        own = combatant.native.get(self.key)
        native = own or {}
        ns = self.carried_namespaces[0]
        kept = carried.take(combatant.carried.get(ns), Coc7Carried, col, f"$.carried.{ns}", self.key)
        if ns not in combatant.carried:  # a 5th/6th-edition sheet's: the same percentages (coc7.conversion.6e)
            kept = {k: v for k, v in (combatant.carried.get("coc") or {}).items()
                    if (k in ("SAN", "MP", "Luck") and isinstance(v, int) and 0 <= v <= 99)
                    or (k == "spells" and isinstance(v, list) and all(isinstance(x, str) for x in v))
                    or (k == "skills" and isinstance(v, dict)
                        and all(isinstance(x, int) and 0 <= x <= 200 for x in v.values()))}

        pattern = r"^[0-9dD+\-/ ]*(\+ ?(1/2 ?)?[dD][bB])?$"  # Coc7Melee.damage

        def of_class(m: Any) -> Coc7Melee:
            skill, damage = MELEE_LINES[m.melee_class]
            kin = carried.kin_melee_damage(combatant, ("coc",), m.name, pattern)
            if kin is not None:  # the 6th-edition line's dice: the same weapon table (coc7.melee)
                damage = kin[0].upper()
                col.step(f"$.melee.{m.name}", f"{m.name} ({kin[1]} line, {kin[0]})", None, f"damage {damage}",
                         rules=["coc7.melee"], source="assumed",
                         note="6th and 7th edition print the same close-combat weapon dice")
            return Coc7Melee(name=m.name, skill=skill, damage=damage)

        melee = carried.melee_lines(combatant, kept.get("melee", {}), Coc7Melee, ns, "coc7.melee", col, of_class,
                                    lambda line: f"{line.skill}, damage {line.damage}")
        skills = self._melee_skills(skills, melee, combatant, col)
        # a line written from its class whose skill the source states none for: at its base chance
        skills = line_skills_untrained(self, skills, [m for m in melee if m.name not in kept.get("melee", {})],
                                       chars, col)
        skills.update(native.get("skills", {}))
        # a 5th/6th-edition skill kept verbatim takes its 7th-edition name; one that 7th edition
        # folded into a skill the sheet already writes (Sneak and Hide are Stealth) is not written
        # twice (coc7.conversion.6e), and stays carried for a trip back to coc
        for k, v in kept.get("skills", {}).items():
            sixth = ns not in combatant.carried
            if sixth and k in NOT_SEVENTH:  # no skill of 7th edition's: said, and carried for coc
                into = NOT_SEVENTH[k]
                col.loss("kept-verbatim", f"$.skills.{k}", f"{k} {v} is no 7th-edition skill: "
                         + (f"it is a {into} manoeuvre there ({into} "
                            f"{skills.get(into, 'not stated')} on this sheet)" if into else
                            "7th edition fires a second gun with a penalty die, with no skill of its own")
                         + "; not written on the coc7 sheet", "coc7.conversion.6e")
                continue
            name = SKILL_NAMES.get(k, k) if sixth else k
            if name not in skills:
                skills[name] = v
        stored_w = native.get("weapons", [])
        weapons = []
        for i, w in enumerate(combatant.weapons):
            old = stored_w[i] if i < len(stored_w) and stored_w[i].get("name") == w.name else None
            if old is not None:
                # native-only fields (damage, base range, uses per round, malfunction) come
                # back verbatim; what the neutral weapon says is re-read from it.
                cw = msgspec.convert(old, Coc7Weapon, dec_hook=dec_hook)
                cw = msgspec.structs.replace(cw, capacity=w.capacity if w.capacity else cw.capacity, sights=w.sights)
            else:
                cw = self.weapon_defaults(w)
                yards = f"{round(cw.base_range.to('yd'), 1):g} yd"  # as the 7th-edition table prints it
                col.step(f"$.weapons[{i}]", w.name, f"{w.weapon_class}, {float(w.muzzle_energy):g} J",
                         f"{cw.damage}, base range {yards}", rules=["coc7.weapons"], source="assumed")
                # what the line says beside its damage is the 7e table's, not the source's own
                # (a 6th-edition line's base range and STR do not cross): said, as every system does
                row = "[weapon.%s]" % w.catalog if w.catalog in self.tables()["weapon"] else \
                    f"[weapon_class.{w.weapon_class}]"
                if grenade_blast(w) is not None:
                    row += (f" and [grenade] (the table's hand grenade, {cw.damage}/"
                            f"{self.tables()['grenade']['blast'].replace(' yd', ' yards')}: its blast did not cross)")
                usual = f"; capacity {cw.capacity}, the usual {w.weapon_class}'s: no source states it" \
                    if capacity_of(w)[1] else ""
                col.loss("assumed", f"$.weapons[{i}]", f"{w.name}: 7th-edition line (base range {yards}, "
                         f"uses per round {cw.uses_per_round}, malfunction {cw.malfunction}) from tables.toml {row}, "
                         f"damage {cw.damage} (coc7.damage){usual}", "coc7.weapons")
            weapons.append(cw)
        stored_a = native.get("armor", [])
        armor = []
        for i, a in enumerate(combatant.armor):
            ca = self.armor_from_neutral(a, col, f"$.armor[{i}]")
            old = stored_a[i] if i < len(stored_a) and stored_a[i].get("name") == a.name else None
            if old is not None and old.get("armor") != ca.armor:
                col.loss("kept-verbatim", f"$.armor[{i}].armor", f"armor {old['armor']} kept as written "
                         f"(its physical protection reads {ca.armor})", "coc7.armor")
                ca = msgspec.structs.replace(ca, armor=old["armor"])
            armor.append(ca)
        derived: dict[str, Any] = {}
        if own is not None:  # coming back: exactly the derived values the stat block wrote
            derived = {f: native[f] for f in ("HP", "MOV") if f in native}
        else:  # from another system: derive them (coc7.derived)
            probe = Coc7Npc(name=combatant.name, **chars)
            derived = {"HP": self.health_on_scale(self.health_of(probe.derived_HP, combatant.toughness, col),
                                                  combatant, col),
                       "MP": probe.derived_MP, "MOV": probe.derived_MOV}
            col.step("$.HP", None, None, f"HP {derived['HP']}, MP {derived['MP']}, MOV {derived['MOV']}",
                     rules=["coc7.derived"], source="assumed")
        derived.update({f: kept[f] for f in ("SAN", "MP", "Luck") if f in kept})
        npc = Coc7Npc(name=combatant.name, skills=skills, weapons=weapons, melee=melee, armor=armor,
                      spells=list(kept.get("spells", [])), notes=combatant.notes, **chars, **derived)
        return col.result(npc)

    def sheet_notes(self, npc: Any) -> dict[str, dict[str, str]]:
        """A shotgun's bands (in yards) and a thrown weapon's half damage bonus ('+½DB' on the 7th-
        edition table), and what each armor piece covers (core.armorline.band_and_throw_notes)."""
        return armorline.band_and_throw_notes(npc, "yd", "coc7.damage.shotgun",
                                              "coc7.damage, assumed: the 7th-edition table's '+½DB'", "4D6/1D6", 5)

    def _brawl_weapons(self, npc: Coc7Npc, skills: dict[str, float], chars: Mapping[str, Any],
                       col: Collector) -> None:
        """A knife or a club is fought with Fighting (Brawl) in 7th edition (coc7.melee): an NPC
        whose weapon line says so wields that weapon at its Brawl, so its neutral ``melee`` (the
        competence with a weapon in hand, which every other system writes as its knife or club
        skill) is its Brawl's, where no other Fighting skill states one. Without it a 7e Brawl 50
        with a trench knife became a 6th-edition Knife at base 25 and a GURPS Knife at default."""
        if "melee" in skills:
            return
        armed = [m for m in npc.melee if m.skill == "Fighting (Brawl)" and _melee_class(m) != "unarmed"]
        level = npc.skills.get("Fighting (Brawl)")
        if not armed or level is None:
            return
        skills["melee"] = self.competence("Fighting (Brawl)", level, {**chars, "@key": "melee"})
        sheet = col.sheet.get("skills", {}).get("Fighting (Brawl)")
        if sheet is not None and "melee" not in sheet.covers:
            sheet.covers.append("melee")  # the Brawl the sheet states is also its weapon skill
        if col.tracing:
            names = ", ".join(m.name for m in armed)
            col.step("$.skills.Fighting (Brawl)", f"Fighting (Brawl) {level} ({names})",
                     f"melee competence {skills['melee']:.3f}", rules=["coc7.melee"], source="assumed",
                     note="a knife or a club is fought with Brawl in 7th edition")

    def _melee_skills(self, skills: dict[str, Any], melee: list[Coc7Melee], combatant: Combatant,
                      col: Collector) -> dict[str, Any]:
        """The Fighting skills a sheet writes for the neutral melee (coc7.melee): those its lines
        use, else the one of the weapon the source's best skill names. Knives and clubs are
        Fighting (Brawl) in 7th edition: an NPC whose close combat is such a weapon fights it with
        Brawl, written at the better of the two (a ``merged`` loss when the melee was better)."""
        kind = MELEE_LINES[combatant.melee_kind][0] if combatant.melee_kind else None
        skills = melee_skills_written(self, skills, [m.skill for m in melee], None, kind)
        covering = [k for k, keys in self.skills().items() if tuple(keys) == ("melee",)]
        if any(m.skill in covering for m in melee) or kind in covering:
            return skills
        dropped = {k: skills.pop(k) for k in covering if k in skills}
        best = max(dropped.values(), default=None)
        if best is None:
            return skills
        weapon = f"a {combatant.melee_kind}" if combatant.melee_kind else "weapons"
        brawl = skills.get("Fighting (Brawl)")
        fights_with = any(m.melee_class in ("knife", "club", "improvised") for m in combatant.melee)
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

    # ==== shot conversions ==================================================================
    def shot_to_neutral(self, shot: Coc7Shot) -> Result[Shot]:  # type: ignore[override]
        col = Collector(self.key)
        lad = load_ladders()
        if shot.catalog and self.find_weapon(shot.catalog) is None:
            raise InputError("unknown catalog weapon", path="$.catalog", expected="a catalog weapon id "
                             "(`xsys catalog weapon`)", found=repr(shot.catalog))
        weapon = self.shot_weapon(shot)
        cls_skill = self.skill_for_class(weapon.weapon_class)
        skill = shot.skill or cls_skill
        if weapon.catalog is None:
            what = f"muzzle energy {float(weapon.muzzle_energy):g} J" if shot.muzzle_energy is not None or \
                shot.damage is not None and weapon.weapon_class != "shotgun" else f"a generic {weapon.weapon_class}"
            col.loss("assumed", "$.weapon", f"{shot.weapon!r} is not a catalog weapon; {what}", "coc7.damage")
        elif shot.skill is not None and shot.skill != cls_skill:
            col.loss("merged", "$.skill", f"{shot.skill} with a {weapon.weapon_class}: the neutral shot rolls "
                     f"{cls_skill}", "coc7.skills")
        p = self.competence(cls_skill, shot.skill_value, {"@class": weapon.weapon_class})
        col.step("$.skill_value", f"{skill} {shot.skill_value}%", f"competence {p:.3f}",
                 rules=["coc7.skills"], source="assumed")
        chars: dict[str, float] = {}
        if shot.DEX is not None:
            chars = self.characteristics_to_neutral({"DEX": shot.DEX}, col, "$")
        shooter = Shooter(
            name=shot.shooter, skill=p, characteristics=chars, posture="prone" if shot.shooter_prone else "standing",
            speed=Speed(lad["shooter-speed"].neutral(int(shot.shooter_running))), braced=shot.braced,
            aim_time=Duration(lad["aim"].neutral(int(shot.aiming))),
        )
        cover_lad = lad["cover"]
        cover = Cover(exposure=cover_lad.step_labelled(shot.target_cover).rep,
                      barrier=Barrier(material=shot.cover.material, thickness=shot.cover.thickness)
                      if shot.cover else None)
        target = Target(name=shot.target, posture=shot.target_posture,
                        speed=Speed(lad["target-speed"].neutral(int(shot.target_full_speed))), cover=cover,
                        armor=[self.armor_to_neutral(a, col, f"$.target_armor[{i}]")
                               for i, a in enumerate(shot.target_armor)])
        light_lad = self.darkness_ladder()
        light = Light(illuminance=Illuminance(light_lad.step_labelled(shot.light).rep),
                      aids=[LIGHT_AIDS[a] for a in shot.light_aids])  # type: ignore[misc]
        out = Shot(name=shot.name, shooter=shooter, weapon=weapon, target=target, distance=shot.distance,
                   light=light, burst=shot.rounds)
        return col.result(out)

    def shot_from_neutral(self, shot: Shot) -> Result[Coc7Shot]:  # type: ignore[override]
        col = Collector(self.key)
        lad = load_ladders()
        w = shot.weapon
        skill = self.skill_for_class(w.weapon_class)
        step = self.skill_ladder(skill, {"@class": w.weapon_class}).step_for(shot.shooter.skill)
        col.step("$.skill_value", None, f"competence {shot.shooter.skill:.3f}", f"{skill} {step.native}%",
                 rules=[step.rule], source=step.source)
        dex = None
        if "dexterity" in shot.shooter.characteristics:
            dex = self.characteristics_from_neutral(
                {"dexterity": shot.shooter.characteristics["dexterity"]}, col, "$", default=None).get("DEX")
        known = self.find_weapon(w.catalog) if w.catalog else None
        # a catalog weapon by its name when that finds it, else its id beside the name; a weapon
        # in no catalog by its name, with its skill, its damage line and its muzzle energy
        weapon_name, by_id = w.name, False
        if known is not None:
            if w.name in (known.name, w.catalog):
                weapon_name = w.catalog
            else:
                by_id = True
        base = known or generic_weapon(w.weapon_class)
        sights = w.sights if base.sights != w.sights else None
        light = self.darkness_ladder().step_for(float(shot.light.illuminance))
        col.step("$.light", f"{float(shot.light.illuminance):g} lx", None, light.label, rules=[light.rule],
                 source=light.source)
        cover = lad["cover"].step_for(shot.target.cover.exposure)
        s, t = shot.shooter, shot.target
        if s.posture not in ("standing", "prone"):
            col.loss("unsupported-field", "$.shooter.posture", f"7th edition has no modifier for a {s.posture} "
                     "shooter; read as standing", "coc7.prone-shooter")
        if s.hands == 1 or s.off_hand:
            col.loss("unsupported-field", "$.shooter.hands", "7th edition has no one-handed or off-hand modifier",
                     "coc7.resolution")
        if shot.called_location is not None:
            col.loss("unsupported-field", "$.called_location", "7th edition has no called shots", "coc7.resolution")
        for f, rule, speed, ladder in (("shooter.speed", "coc7.shooter-running", s.speed, "shooter-speed"),
                                       ("target.speed", "coc7.fast-target", t.speed, "target-speed")):
            if float(speed) and lad[ladder].native(float(speed)) == 0:
                col.loss("rounded", f"$.{f}", f"{float(speed):g} m/s is below the 7e threshold; no modifier", rule)
        barrier = t.cover.barrier
        out = Coc7Shot(
            name=shot.name, shooter=s.name, weapon=weapon_name, distance=shot.distance, skill_value=step.native,
            skill=skill if known is None else None, catalog=w.catalog if by_id else None,
            damage=self.damage_of(w) if known is None else None,
            muzzle_energy=w.muzzle_energy if known is None else None, DEX=dex, sights=sights, light=light.label,  # type: ignore[arg-type]
            light_aids=[LIGHT_AIDS_BACK[a] for a in shot.light.aids],  # type: ignore[misc]
            aiming=lad["aim"].native(float(s.aim_time)) >= 1, braced=s.braced, shooter_prone=s.posture == "prone",
            shooter_running=lad["shooter-speed"].native(float(s.speed)) >= 1, rounds=shot.burst, target=t.name,
            target_posture=t.posture, target_full_speed=lad["target-speed"].native(float(t.speed)) >= 1,
            target_cover=cover.label,  # type: ignore[arg-type]
            cover=Coc7Barrier(material=barrier.material, thickness=barrier.thickness) if barrier else None,
            target_armor=[self.armor_from_neutral(a, col, f"$.target_armor[{i}]") for i, a in enumerate(t.armor)],
        )
        return col.result(out)


# ---- helpers --------------------------------------------------------------------------------

def _volley_hits(bullets: int, p: Fraction, p_ext: Fraction) -> Fraction:
    """coc7.autofire: a hit puts half the volley in (at least one), an Extreme success all."""
    return (p - p_ext) * max(1, bullets // 2) + p_ext * bullets


__all__ = ["Coc7System", "Coc7Situation", "load_tables", "load_ladders", "characteristic_specs",
           "damage_distribution", "mean_after_armor", "LIGHT_AIDS"]
