"""The rules of Call of Cthulhu 7th edition that xsys plays, readable beside their rule IDs
(tables.toml [rule], README "Rule IDs"): the population of characteristics, the weapons table,
one shot's check (range bands as difficulty levels, bonus and penalty dice, autofire volleys,
impales, armor) and its exact damage. :class:`Coc7Rules` is the game on the core's d100 family
(:class:`xsys.core.percentile.PercentileSystem`); ``sheet.py`` maps the 7th-edition stat block
and shot to the neutral model, ``system.py`` binds the two with the system's declaration.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar, Mapping, Sequence

from xsys.core import dice
from xsys.core.cache import package_toml
from xsys.core.catalog import grenade_blast, table_grenade
from xsys.core.ladder import Ladder, ladders_from_data
from xsys.core.model import Weapon
from xsys.core.percentile import LightEffect, PercentileSystem, Situation, dice_characteristics
from xsys.core.system import CharacteristicSpec
from xsys.core.trace import Check, Modifier
from xsys.core.units import Length, brief, parse

from . import d100
from .model import Coc7Npc, Coc7Shot, Coc7Weapon, build_and_damage_bonus

HERE = Path(__file__).resolve().parent
TABLES = HERE / "tables.toml"

PRONE = frozenset({"prone", "crawling"})  # coc7.prone-target: postures on the ground
FOOT = 0.3048  # metres
# coc7.damage.shotgun (assumed, the 7th-edition table's sawn-off: "4D6/1D6, 5/10 yards"): a two-band
# line's first band reaches 5 yd, its last the line's base range
SAWN_OFF_FIRST_BAND = 5 * 0.9144  # metres


# ---- data files (loaded once) -----------------------------------------------------------

def load_tables() -> dict[str, Any]:
    """tables.toml: the rule register, the tables and the ladders' source data (parsed once)."""
    return package_toml(__package__)


@lru_cache(maxsize=None)
def _line_skills() -> frozenset[str]:
    return frozenset(k for k, row in load_tables()["skills"].items() if row.get("line"))


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
    every integer from 5 x min - 2 to 5 x max + 2 has a row and v = 5 x old is the middle one.
    A sheet may state any value 1-99 (an EDU 35 clerk, a STR 99 strongman): the values the dice
    never give share a millionth of the population at the ends (assumed, README;
    core.percentile.dice_characteristics)."""
    return dice_characteristics(load_tables()["characteristics"], "coc7.characteristics", tail=(1, 99))


def damage_distribution(expr: str) -> dict[int, Fraction]:
    """The distribution of a damage roll such as '1D10+1D4+2' (exact: core.dice.roll_distribution)."""
    return dice.roll_distribution(expr)


@lru_cache(maxsize=2048)
def mean_after_armor(expr: str, armor: int, impale: bool = False) -> Fraction:
    """Expected damage of one hit after armor. An impale (coc7.impale) is the roll's maximum
    plus a second roll; armor subtracts once; damage is never negative."""
    dist = damage_distribution(expr)
    bonus = max(dist) if impale else 0
    return sum((max(0, v + bonus - armor) * p for v, p in dist.items()), Fraction(0))


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


def _yd(metres: float) -> str:
    """A length in yards as the 7th-edition table gives ranges ("15 yd"), to a tenth ("16.4 yd")."""
    y = metres / (3 * FOOT)
    return f"{round(y):g} yd" if abs(y - round(y)) < 1e-6 else f"{y:.1f} yd"


def _volley_hits(bullets: int, p: Fraction, p_ext: Fraction) -> Fraction:
    """coc7.autofire: a hit puts half the volley in (at least one), an Extreme success all."""
    return (p - p_ext) * max(1, bullets // 2) + p_ext * bullets


class Coc7Rules(PercentileSystem):
    """The 7th-edition game: d100 with difficulty levels and bonus/penalty dice."""

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

    @property
    def line_skills(self) -> frozenset[str]:  # type: ignore[override]
        """A creature's own attack skills (Fighting, Bite, Claws: tables.toml rows marked ``line``):
        each holds the brawl competence, and is written only beside the attack that uses it."""
        return _line_skills()

    def derived_fields(self) -> dict[str, tuple[tuple[str, ...], str]]:
        return {"HP": (("CON", "SIZ"), "coc7.derived")}  # HP = (CON + SIZ) / 10 rounded down

    def skill_context(self, skill: str, context: Mapping[str, Any] | None) -> dict[str, Any]:
        """A close-combat skill's results depend on the damage bonus: 7th edition's, of STR + SIZ
        on its own scale (coc7.derived), not 5th/6th edition's table."""
        if skill not in self.close_combat_skills():
            return {}
        c = context or {}
        return {"db": build_and_damage_bonus(int(c.get("STR") or 50) + int(c.get("SIZ") or 65))[1].lower()}

    # ==== tables ===========================================================================
    def tables(self) -> dict[str, Any]:
        """tables.toml of this plugin, in the d100 family's schema (core.percentile: [rule],
        [skills], [weapon_class], tiers)."""
        return load_tables()

    def table_ladders(self) -> dict[str, Ladder]:
        return dict(load_ladders())

    # ==== darkness (the family's contract) ====================================================
    def darkness_ladder(self) -> Ladder:
        """coc7.darkness: lux -> the light words of Coc7Shot.light."""
        return load_ladders()["light"]

    def light_effect(self, sit: Situation) -> LightEffect:  # type: ignore[override]
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
        the damage ladder at the cartridge's (else its own) muzzle energy (a long gun's ladder for a
        rifle, carbine or machine gun: ``damage_ladder``); shot by range band."""
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
        if weapon.weapon_class == "shotgun":  # its gauge's line, else the 12 gauge's (coc7.damage.shotgun)
            gauges = self.tables()["shotgun_gauge"]
            return gauges.get(basis.cartridge or "", gauges["12 gauge"])
        return self.damage_ladder(weapon.weapon_class).step_for(basis.energy).label

    def weapon_defaults(self, weapon: Weapon) -> Coc7Weapon:  # type: ignore[override]
        """Native data of a neutral weapon: the [weapon.<id>] row of its catalog weapon (by id, else
        by what its name says: Catalog.weapon_basis), else its class's row, with the damage of
        ``damage_of``."""
        from xsys.core.registry import catalog

        t = self.tables()
        cls = t["weapon_class"][weapon.weapon_class]
        entry = catalog().weapon_basis(weapon).entry  # by id, else by what its name says (a sawn-off)
        row = t["weapon"].get(entry.id if entry is not None else "", {})

        if grenade_blast(weapon) is not None:
            row = {k: v for k, v in t["grenade"].items() if k in ("uses_per_round", "malfunction")}
        return Coc7Weapon(
            name=weapon.name, skill=cls["skill"], damage=self.damage_of(weapon),
            base_range=parse(row.get("base_range", cls["base_range"]), Length),
            uses_per_round=row.get("uses_per_round", _uses_per_round(cls["uses_per_round"], weapon.fire_modes)),
            capacity=catalog().capacity_of(weapon)[0],
            malfunction=row.get("malfunction", cls["malfunction"]), sights=weapon.sights, catalog=weapon.catalog,
            # the table's hand grenade at a grenade's one energy says it by its line (xsys.grenade)
            muzzle_energy=None if weapon.catalog or table_grenade(weapon) else weapon.muzzle_energy,
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

    def evaluate(self, sit: Situation, extra: Sequence[Modifier] = (),  # type: ignore[override]
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
                         f"base range x2 = {_yd(base)}")
        band = lad["range"].step_for(d / base if base > 0 else math.inf)
        level = min(band.native, d100.EXTREME)
        if level:
            mod("coc7.range", "difficulty", level,
                f"{brief(d, 'm')} ({_yd(d)}), base range {_yd(base)}: {band.label} ({d100.LEVELS[level]})")
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
            mod("coc7.point-blank", "dice", 1, f"{brief(d, 'm')} within DEX {sit.DEX} / 5 = {sit.DEX / 5:g} ft")
        if lad["aim"].native(sit.aim_time) >= 1:
            bonus += 1
            mod("coc7.aim", "dice", 1, f"aimed {sit.aim_time:g} s (one round)")
        if sit.shooter_posture == "prone":
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
    def damage_roll(self, sit: Situation, nw: Coc7Weapon) -> tuple[str, bool]:  # type: ignore[override]
        """The damage dice at this distance and whether an Extreme success impales: shotgun
        shot by range band (coc7.damage.shotgun), which does not impale (coc7.impale)."""
        parts = nw.damage.split("/")
        if len(parts) == 2:  # a sawn-off's 4D6/1D6: 5 yd, then out to 10 (coc7.damage.shotgun, assumed)
            return parts[0 if float(sit.distance) <= SAWN_OFF_FIRST_BAND else 1], False
        if len(parts) > 1:
            band = load_ladders()["shotgun-band"].step_for(sit.distance).native
            return parts[min(band, len(parts) - 1)], False
        return parts[0], True

    def armor_points(self, sit: Situation) -> tuple[int, list[str]]:  # type: ignore[override]
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

    def damage_of_one_shot(self, sit: Situation, nw: Coc7Weapon, chance: Fraction,
                           p_ext: Fraction) -> dict[str, str]:
        """Exact damage of one single shot ("damage": "p/q"), misses at 0: a Regular or Hard
        success rolls the damage, an Extreme one impales where the weapon can (the roll's
        maximum plus a roll, coc7.impale), armor subtracts once (coc7.armor). The equating
        scores a shot by this distribution, as it does coc's (core.equating.damage_per_shot)."""
        return dict(_one_shot(*self.damage_roll(sit, nw), self.armor_points(sit)[0], Fraction(chance), Fraction(p_ext)))

    def damage_mean(self, sit: Situation, nw: Coc7Weapon, chance: Fraction, p_ext: Fraction,
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


__all__ = ["Coc7Rules", "load_tables", "load_ladders", "characteristic_specs",
           "damage_distribution", "mean_after_armor", "cartridge_lines"]
