"""The d100 roll-under family (Call of Cthulhu's editions and the other Basic Roleplaying games):
what every system of the family shares, so that one of them declares its tables and its rules and
inherits the rest, a built-in plugin or a third party's alike.

A :class:`PercentileSystem` is a :class:`xsys.core.system.System` whose

- checks roll d100 under a percentage: ``resolve(target)`` gives the chance of success and, as
  ``critical_success``, of the family's better result (an impale, an Extreme success);
  ``roll_chance`` and the equating read it;
- tables (``tables()``, one TOML's parsed data) hold ``[rule]`` (the rule register),
  ``[skills]`` (each native skill's ``neutral`` keys, ``weapon_class`` and ``base`` chance, a
  number or "DEX x2" / "DEX / 2") and ``[weapon_class]`` (each neutral weapon class's ``skill``);
- armor list is a TOML in the armor-file schema (:func:`build_armor_ladders`): worn armor by the
  joules it stops, barriers by material and thickness, anything else by the joules it stops;
- published skill tiers are ``TIERS`` rows (rank, name, lowest level, typical level);
- close combat is one d100 roll against the defender's Dodge or bare-handed parry, the weapon's
  dice plus the damage bonus (``skill_context``'s ``db``) less armor (``melee_check_at``), each
  rule it applies named in ``MELEE_RULES``;
- shot names its weapon (``weapon``, ``catalog``, ``skill``, ``damage``, ``muzzle_energy``,
  ``sights``) and states the shooter's ``skill_value`` and ``DEX``, a ``light`` word of its
  darkness table with ``light_aids``, the ``cover`` a hidden target stands behind and the
  target's armor: :data:`D100_SHOT` declares those for the core's shot conversion
  (core.shotsheet), the weapon through :meth:`PercentileSystem.shot_weapon_to_neutral` and
  ``shot_weapon_from_neutral``; a system adds its light ladder, its words and its own fields.

Nothing here names a system: the rule IDs each check cites are the subclass's declarations.
"""

from __future__ import annotations

import math
import re
import statistics
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, Mapping

import msgspec

from xsys.core import cache, carried, dice
from xsys.core.equating import Tier
from xsys.core.ladder import Ladder, Step
from xsys.core.melee import MeleeItem, add_dists, attack_check, dice_dist, reference_armor
from xsys.core.errors import InputError
from xsys.core.model import Armor, Barrier, Shot, Weapon, generic_weapon
from xsys.core.shotsheet import ShotSheet
from xsys.core.system import CharacteristicSpec, System, percentile_ladder, with_tails
from xsys.core.trace import Check, Collector, Modifier
from xsys.core.units import Energy, Length, parse
from xsys.core.vocab import CARTRIDGES, cartridge_in_name, cartridge_of, firearm_skill_for

# The vision aids a d100 shot names (``light_aids``), in its words -> the neutral aid
LIGHT_AIDS = {"flashlight": "hand-light", "weapon light": "weapon-light", "night-vision goggles": "nv-goggles",
              "thermal goggles": "thermal-goggles"}
LONG_GUNS = frozenset({"rifle", "carbine", "mg"})  # the classes of PercentileSystem.damage_ladder's long guns


def _catalog() -> Any:
    from xsys.core.registry import catalog

    return catalog()


_LINES: dict[tuple[type, str], tuple[Any, dict[tuple[str, str], list[float]]]] = {}  # (catalog, lines)


def _lines_by_class(system: Any) -> dict[tuple[str, str], list[float]]:
    """(weapon class, the first band of its damage line here, upper case) -> the energies of the
    cartridges (else their own) of the catalog weapons with that line, once per system and catalog."""
    cat = _catalog()
    known = _LINES.get((type(system), system.key))
    found = known[1] if known is not None and known[0] is cat else None
    if found is None:
        from xsys.core.catalog import strip_entry

        found = {}
        for entry in cat.weapons.values():
            cartridge = cartridge_of(entry.calibre)
            energy = CARTRIDGES[cartridge][0] if cartridge else float(entry.muzzle_energy)
            line = system.damage_of(strip_entry(entry)).split("/")[0].upper()
            found.setdefault((entry.weapon_class, line), []).append(energy)
        _LINES[(type(system), system.key)] = (cat, found)
    return found


def dice_characteristics(data: Mapping[str, Mapping[str, Any]], rule: str,
                         tail: tuple[int, int] | None = None) -> dict[str, CharacteristicSpec]:
    """Each characteristic's population ladder (a ``CharacteristicSpec``) from how ordinary
    adults roll it, as data: ``{native: {neutral, dice, sides, plus[, times]}}``: the sum of
    ``dice`` d``sides`` plus ``plus``, times ``times`` (a scale that multiplies the roll: 7th
    edition's x5; a value between two multiples shares the band of the nearer one, split
    evenly). With `tail` (lo, hi), the values in it that the dice never give (a monster's
    STR 24) share a millionth of the population at each end, taken from the end value's own
    share, so a stated one reads and writes in order without a clamp and every other value keeps
    its band exactly. Each ladder cites `rule` (assumed)."""
    out = {}
    for native, spec in data.items():
        times = int(spec.get("times", 1))
        half = times // 2
        dist: dict[int, Fraction] = {}
        for s, p in dice.sum_distribution(spec["dice"], spec["sides"]).items():
            centre = (s + spec["plus"]) * times
            for v in range(centre - half, centre + half + 1):
                dist[v] = dist.get(v, Fraction(0)) + p / times
        if tail is not None:
            dist = with_tails(dist, *tail)
        out[native] = CharacteristicSpec(spec["neutral"], percentile_ladder(
            f"characteristic.{native}", dist, rule, "assumed"))
    return out


def frac(x: Any) -> Fraction:
    """A table number ("1/2", 3, 0.5) as an exact Fraction."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, float):
        return Fraction(x).limit_denominator(10**6)
    return Fraction(x)


class LightEffect(msgspec.Struct):
    """What the light does to one d100 shot, as a system's darkness rule says: the chance
    multiplied, capped, every shot unaimed, or (``dice`` modifiers) bonus and penalty dice."""

    multiply: Fraction = Fraction(1)
    cap: int | None = None  # chance at most this many % (01% in total darkness)
    unaimed: bool = False  # careful aim (and with it location shots' range doubling) lost
    modifiers: list[Modifier] = msgspec.field(default_factory=list)
    level: str = "daylight"
    # night-vision goggles see for the shooter, but without a compatible reflex, dot or laser
    # sight they allow no aimed location shot
    no_location: bool = False


def _same_value(a: Any, b: Any) -> bool:
    """Two plain values of a weapon line alike: lengths by what they measure ("15 yd" is
    "13.716 m"), dice without case."""
    if a == b:
        return True
    if isinstance(a, str) and isinstance(b, str):
        if a.lower() == b.lower():
            return True
        from xsys.core.units import Length, parse

        try:
            return abs(float(parse(a, Length)) - float(parse(b, Length))) < 1e-6
        except Exception:  # noqa: BLE001 - not lengths
            return False
    return False


class Situation(msgspec.Struct, frozen=True):
    """Everything one d100 shot's check depends on: the neutral shot in plain numbers (metres,
    lux, seconds, metres a second, the share of the target that shows), the native skill the
    shooter rolls at its level, his DEX and, where known, his own weapon line. A system whose
    native shot states more than the neutral one (two guns, a double tap) declares a subclass as
    its ``situation_type`` and fills the fields it adds in ``situation_fields``."""

    skill: str
    skill_value: int
    weapon: Weapon
    distance: float
    native_weapon: Any = None
    DEX: int = 0
    illuminance: float = 10_000.0
    aids: tuple[str, ...] = ()
    sights: str = "iron"
    aim_time: float = 0.0
    braced: bool = False
    shooter_posture: str = "standing"
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


# Where every d100 shot keeps what the core converts (core.shotsheet): the weapon in its fields
# (PercentileSystem.shot_weapon_to_neutral), the skill value, DEX, the light aids, what a hidden
# target stands behind, its posture and armor. A system adds its light word's ladder and its words.
D100_SHOT = ShotSheet(skill="skill_value", stated_skill="skill", characteristics=("DEX",), aids="light_aids",
                      aid_words=LIGHT_AIDS, barrier="cover", target_posture="target_posture", target_armor="target_armor")


class PercentileSystem(System):
    """A d100 roll-under system: its tables, armor file, skills, tiers and close combat."""

    #: The armor list: a TOML in the armor-file schema (:func:`build_armor_ladders`), an absolute
    #: path or a name inside the package of the class that declares it.
    armor_file: ClassVar[str] = "armor.toml"
    #: The published skill tiers: (rank, name, lowest level, typical level), five rows (else the
    #: tables' ``tiers`` array of the same rows); cited under ``tier_rule`` (default: ``skill_rule``).
    TIERS: ClassVar[tuple[tuple[int, str, int, int], ...]] = ()
    tier_rule: ClassVar[str] = ""
    # ---- close combat (melee_check_at) ----
    #: A reference weapon class -> its damage dice (count, sides, plus) as the system writes it.
    MELEE_DICE: ClassVar[dict[str, tuple[int, int, int]]] = {"unarmed": (1, 3, 0), "club": (1, 6, 0)}
    #: The defending adult's Dodge and bare-handed parry (the median adult's), and the parry's name.
    MEDIAN_DODGE: ClassVar[int] = 0
    MEDIAN_PARRY: ClassVar[int] = 0
    PARRY_NAME: ClassVar[str] = "bare-handed parry"
    #: (rule, source) of each close-combat rule applied: "darkness", "dodge", "parry",
    #: "parry-weapon" (a bare-handed parry does not stop a weapon) and "armor".
    MELEE_RULES: ClassVar[dict[str, tuple[str, str]]] = {}
    #: The rule a close-combat skill's competence ladder cites, and the one a close-combat line
    #: written from its weapon's class cites (the tables' ``[melee_line.<class>]``: skill, damage).
    melee_rule: ClassVar[str] = ""
    #: The close-combat line type of the stat block (name, skill, damage), and the carried
    #: namespaces of the editions printing the same weapon table: a weapon's line one of them
    #: carried gives its dice and skill here (:meth:`melee_from_neutral`).
    melee_line_type: ClassVar[type | None] = None
    melee_kin: ClassVar[tuple[str, ...]] = ()
    #: What a close-combat line's damage may be: dice plus the wielder's damage bonus ("1d4+db").
    MELEE_DAMAGE: ClassVar[str] = r"^[0-9dD+\-/ ]*(\+ ?(1/2 ?)?[dD][bB])?$"
    #: Systems that print the same weapon table (the editions of one game: CoC 6th and 7th), by key,
    #: and the rule that says so: a weapon line such a system's own document states (its
    #: native block of the conversion under way) keeps its stated damage, base range,
    #: malfunction number and capacity here, where the neutral weapon holds none of them
    #: (:meth:`kin_weapon_line`).
    weapon_kin: ClassVar[tuple[str, ...]] = ()
    weapon_kin_rule: ClassVar[str] = ""
    #: The rule a weapon's damage line cites (default: ``<rule_prefix>damage``), and the one a
    #: line's own capacity beside its catalog weapon's cites (default: the damage rule).
    damage_rule: ClassVar[str] = ""
    capacity_rule: ClassVar[str] = ""

    def __init__(self, settings: Any = None) -> None:
        super().__init__(settings)
        self._skills: dict[str, tuple[str, ...]] | None = None
        self._armor: tuple[dict[str, Ladder], dict[str, dict[Any, dict[str, Any]]]] | None = None

    # ==== tables =======================================================================
    def tables(self) -> dict[str, Any]:
        """The system's rules data (``[rule]``, ``[skills]``, ``[weapon_class]``, ``[resolution]``,
        ...): by default the ``tables.toml`` beside the system's class, in its package, parsed once."""
        return cache.package_toml(type(self).__module__.rpartition(".")[0])

    def rule_register(self) -> Mapping[str, Mapping[str, Any]]:
        """``[rule]`` of the tables: text and source of each rule ID."""
        return self.tables()["rule"]

    # ==== armor list ===================================================================
    def armor_path(self) -> Any:
        """Where the armor TOML is: ``armor_file`` if absolute, else inside the package of the
        class that declares ``armor_file`` (the system's own package when none but this one does)."""
        p = Path(self.armor_file)
        if p.is_absolute():
            return p
        owner = next((c for c in type(self).__mro__ if "armor_file" in c.__dict__ and c is not PercentileSystem),
                     type(self))
        return resources.files(owner.__module__.rpartition(".")[0]).joinpath(self.armor_file)

    def armor_data(self) -> dict[str, Any]:
        """The parsed armor TOML (the armor-file schema, :func:`build_armor_ladders`)."""
        with resources.as_file(self.armor_path()) as path:
            return cache.load_toml(path)

    def _armor_built(self) -> tuple[dict[str, Ladder], dict[str, dict[Any, dict[str, Any]]]]:
        if self._armor is None:
            self._armor = build_armor_ladders(self.armor_data())
        return self._armor

    def armor_ladders(self) -> dict[str, Ladder]:
        """``armor.worn`` (over J), ``armor.barrier.<material>`` (over m) and
        ``armor.barrier.generic`` (over J)."""
        return dict(self._armor_built()[0])

    def armor_row(self, ladder: str, A: Any) -> dict[str, Any]:
        """B, catalog id and label of the row with armor value A of an armor ladder."""
        return self._armor_built()[1][ladder][_key(A)]

    def armor_b(self, A: int) -> float:
        """The B the armor list gives armor value `A`: its worn row's where it has one, else
        ``[armor] b_ratio`` of A (the list's rule for rows that state no B)."""
        lad = self.armor_ladders()["armor.worn"]
        if lad.has_native(A):
            return self.armor_row("armor.worn", A)["B"]
        ratio = Fraction(str(self.armor_data()["armor"].get("b_ratio", "1/2")))
        return float(A * ratio)

    def armor_value(self, armor: Armor) -> tuple[int, float, Step]:
        """A worn armor item -> (A, B, step) by the joules it stops."""
        lad = self.armor_ladders()["armor.worn"]
        step = lad.step_for(float(armor.stops))
        return step.native, self.armor_row("armor.worn", step.native)["B"], step

    def barrier_value(self, barrier: Barrier) -> tuple[int, float, Step, str]:
        """A barrier -> (A, B, step, ladder name): by material and thickness where the armor
        list has that material, else by the joules it stops (catalog stops_per_cm)."""
        lads = self.armor_ladders()
        name = f"armor.barrier.{barrier.material}"
        if name in lads:
            step = lads[name].step_for(float(barrier.thickness))
        else:
            name = "armor.barrier.generic"
            step = lads[name].step_for(_catalog().barrier_stops(barrier))
        return step.native, self.armor_row(name, step.native)["B"], step, name

    def kin_weapon_line(self, combatant: Any, index: int, weapon: Any) -> tuple[dict[str, Any], str] | None:
        """What a system of :attr:`weapon_kin` stated for `weapon` (the `index`-th of
        `combatant`), in the native block its own document left for this conversion: its
        damage (dice, in this system's case left to the caller), base range, malfunction number
        and a capacity above 0, where the line is not what that system's own table writes for
        the weapon (a table's value is each edition's own: 15 yd in 7th edition, 15 m in the
        Japanese 6th), with the key it came from; None where no such line is there. Rate of
        fire does not cross (the editions count a round's shots by other rules), nor a shotgun's
        band line (each edition measures its bands its own way)."""
        name = weapon.name
        for key in self.weapon_kin:
            block = combatant.native.get(key)
            lines = block.get("weapons") if isinstance(block, dict) else None
            if not isinstance(lines, list):
                continue
            line = lines[index] if index < len(lines) and isinstance(lines[index], dict) \
                and lines[index].get("name") == name else None
            if line is None:
                continue
            out = {k: line[k] for k in ("damage", "base_range") if line.get(k) is not None}
            if "/" in str(line.get("damage", "")):
                # a shotgun's bands: 7th edition's base range is its first band (10 yd), the
                # Japanese 6th's its last (50 m); each edition writes its own band line
                out = {}
            # a malfunction number below 100 is the line's own; 100 is also what a line that states
            # none holds (the documents' default), so it says nothing against the table's
            if isinstance(line.get("malfunction"), int) and line["malfunction"] < 100:
                out["malfunction"] = line["malfunction"]
            if isinstance(line.get("capacity"), int) and line["capacity"] > 0:
                out["capacity"] = line["capacity"]
            table = self._kin_table_line(key, weapon)
            # a thrown line's base range is its thrower's (7th edition: STR / 5 yards), never the
            # table's: kept even where it is the table's default (Rosa's 15 yd at STR 75)
            out = {k: v for k, v in out.items() if not _same_value(v, table.get(k))
                   or (k == "base_range" and weapon.weapon_class == "thrown")}
            return (out, key) if out else None
        return None

    @staticmethod
    def _kin_table_line(key: str, weapon: Any) -> dict[str, Any]:
        """What the installed system `key` writes for `weapon` from its own table (plain data;
        empty where it is not installed or writes none)."""
        import msgspec

        from xsys.core.codec import enc_hook
        from xsys.core.registry import default_registry

        try:
            kin = default_registry().system(key)
            return msgspec.to_builtins(kin.weapon_defaults(weapon), enc_hook=enc_hook)
        except Exception:  # noqa: BLE001 - no table to tell a stated value from: every value is stated
            return {}

    def with_kin_line(self, line: Any, weapon: Any, combatant: Any, index: int, col: Any, path: str,
                      damage_case: Any = str) -> Any:
        """`line` (this system's weapon line written from the neutral weapon) with what a
        :attr:`weapon_kin` system's own line stated for it (:meth:`kin_weapon_line`; its damage
        through ``damage_case``), each changed value said; `line` as it was where the stated
        values do not read as this system's line."""
        import msgspec

        from xsys.core.codec import dec_hook, enc_hook

        kin = self.kin_weapon_line(combatant, index, weapon)
        if kin is None:
            return line
        fields, key = kin
        if "damage" in fields:
            fields["damage"] = damage_case(str(fields["damage"]))
        if "base_range" in fields:  # as this sheet prints lengths, to a tenth (15 ft: 4.6 m)
            from xsys.core.units import Length, parse

            unit = self.length_unit or "m"
            try:
                fields["base_range"] = f"{round(parse(fields['base_range'], Length).to(unit), 1):g} {unit}"
            except (ValueError, TypeError, AttributeError):
                fields.pop("base_range")
        try:
            new = msgspec.convert({**msgspec.to_builtins(line, enc_hook=enc_hook), **fields}, type(line),
                                  dec_hook=dec_hook)
        except (msgspec.ValidationError, TypeError, ValueError):
            return line
        unit = self.length_unit or "m"

        def shown(v: Any) -> str:  # a length as this sheet prints it
            return f"{round(v.to(unit), 1):g} {unit}" if hasattr(v, "to") else str(v)

        said = [f"{k.replace('_', ' ')} {shown(getattr(new, k))} (not {shown(getattr(line, k))})" for k in fields
                if getattr(new, k) != getattr(line, k)]
        if said and col is not None:
            col.loss("assumed", path, f"{line.name}: the {key} line states {', '.join(said)}: {self.name} prints "
                     f"the same weapon table, so a stated value is kept where the neutral weapon holds none",
                     self.weapon_kin_rule or None)
        return new

    def worn_armor_to_neutral(self, name: str, catalog: str | None, stops: Energy | None, points: Any,
                              col: Any, path: str, *, field: str, reads: str, rule: str,
                              covers: Any = None, deflection: Any = None) -> Armor:
        """A worn armor line as what it physically is: the catalog item it names (Catalog.find_armor:
        its ``catalog`` id, an unknown one refused, else its name) with the joules the line states,
        or the joules of the points it states where they are not the item's (a stated value wins,
        said as ``assumed``), else those joules, else the joules of its row on ``armor.worn`` (the nearest row to
        ``points``, said as ``reads`` formatted with it, at ``path.field``); the coverage and
        deflection the line states, else a helmet by its name on the head
        (core.armorline.restore, cited as `rule`). Only an explicit ``catalog`` id is carried
        into the neutral item, so conversions stay stable after one round trip."""
        import msgspec

        from xsys.core import armorline
        from xsys.core.catalog import strip_entry

        entry = _catalog().find_armor(name, catalog, path=f"{path}.catalog")
        lad = self.armor_ladders()["armor.worn"]
        if entry is not None:
            out = msgspec.structs.replace(strip_entry(entry), name=name, catalog=catalog)
            item = lad.native(float(out.stops))
            if stops is not None:
                out = msgspec.structs.replace(out, stops=stops)
            elif points is not None and points != item:
                # a stated value wins over its catalog item's, said (as GURPS says a sheet's DR)
                A = points if lad.has_native(points) else lad.nearest_native(points)
                out = msgspec.structs.replace(out, stops=Energy(lad.neutral(A)))
                if col is not None:
                    col.loss("assumed", f"{path}.{field}", armorline.stated_note(
                        name, reads.format(points), entry, reads.format(item), reads.format(A), float(out.stops)),
                        lad.step_of(A).rule)
        elif stops is not None:
            out = Armor(name=name, stops=stops)
        else:
            A = points if lad.has_native(points) else lad.nearest_native(points)
            if col is not None:
                col.loss("assumed", f"{path}.{field}", armorline.points_note(
                    name, reads.format(A), lad.neutral(A), reads.format(points)), lad.step_of(A).rule)
            out = Armor(name=name, stops=Energy(lad.neutral(A)))
        return armorline.restore(out, covers, deflection, col, path, rule)

    #: The field of this system's armor line that holds its points (coc's ``A``, 7th edition's ``armor``):
    #: what a :attr:`weapon_kin` system reads from this system's own line (:meth:`kin_armor_points`).
    armor_points_field: ClassVar[str] = "A"

    def kin_armor_points(self, combatant: Any, index: int, armor: Armor, written: int, col: Any,
                         path: str) -> int:
        """The points a :attr:`weapon_kin` system's own line stated for `armor` (the `index`-th of
        `combatant`, in the native block its document left), where they are not the `written`
        points this system's table gives for what the armor stops: both editions count armor
        points alike (a 7th-edition creature's 3-point hide is a 6th-edition A 3, not the row its
        joules fall in), so the stated number passes, said (``weapon_kin_rule``); else `written`.
        Armor the catalog knows is each table's own (as a weapon's line is): a heavy Kevlar vest
        is what this system's list gives it (7th edition 12), whatever another list says (the
        Chinese rules' 8)."""
        from xsys.core import system as _system

        if armor.catalog or armor.kind not in ("other", "natural") or _catalog().find_armor(armor.name) is not None:
            return written  # an item the catalog knows (by id, name or a list's row): each table's own
        for key in self.weapon_kin:
            block = combatant.native.get(key)
            lines = block.get("armor") if isinstance(block, dict) else None
            kin = _system.installed_system(key)
            if not isinstance(lines, list) or index >= len(lines) or kin is None:
                continue
            line = lines[index]
            points = line.get(getattr(kin, "armor_points_field", "A")) if isinstance(line, dict) \
                and line.get("name") == armor.name else None
            if not isinstance(points, int) or isinstance(points, bool) or points == written:
                return written
            if col is not None:
                col.loss("assumed", f"{path}.{self.armor_points_field}",
                         f"{armor.name}: the {key} line states {points} armor points (not the {written} its "
                         f"{float(armor.stops):g} J give here): {self.key} and {key} count armor points alike, so the "
                         "stated number is kept", self.weapon_kin_rule or None)
            return points
        return written

    #: The rule its armor lines' points cite (coc's armor table, 7th edition's armor points), and
    #: how a line's points are said ("A 3", 7th edition's "3 points").
    armor_table_rule: ClassVar[str] = ""
    armor_reads: ClassVar[str] = "A {}"

    def armor_to_neutral(self, a: Any, col: Collector | None = None, path: str = "$") -> Armor:
        """Armor as what it physically is (``worn_armor_to_neutral``): the catalog item it names
        (by its ``catalog`` id, an unknown one refused, else by name), else the joules it stops, else
        those of its points' row; where it sits and its deflection as the line states them, else a
        helmet by its name on the head (core.armorline.restore). Only
        an explicit ``catalog`` id is carried into the neutral item, so conversions stay stable
        after one round trip."""
        field = self.armor_points_field
        return self.worn_armor_to_neutral(a.name, a.catalog, a.stops, getattr(a, field), col, path, field=field,
                                          reads=self.armor_reads, rule=self.armor_table_rule, covers=a.covers,
                                          deflection=a.deflection)

    def armor_lines_from_neutral(self, combatant: Any, fields: Mapping[str, Any], kept: Mapping[str, Any],
                                 col: Collector) -> list[Any]:
        """Armor by what it stops (``armor_from_neutral``). A line this sheet wrote keeps its points
        as written (a creature's 20-point hide, between the list's rows: said where its physical
        protection reads otherwise), its catalog id and any B; another takes the points a kin
        edition's line stated for it (``kin_armor_points``, with B by the table's rule), the joules
        they would not give back kept on the line (``worn_armor_line``)."""
        from xsys.core.sheet import kept_line

        field, rule, armor = self.armor_points_field, self.armor_table_rule, []
        for i, a in enumerate(combatant.armor):
            path = f"$.armor[{i}]"
            ca = self.armor_from_neutral(a, col, path)
            old = kept_line(kept, "armor", i, a.name)
            if old is not None:
                if isinstance(old.get(field), int) and old[field] != getattr(ca, field):
                    col.loss("kept-verbatim", f"{path}.{field}", f"armor {old[field]} kept as written (its physical "
                             f"protection reads {getattr(ca, field)})", rule)
                    ca = msgspec.structs.replace(ca, **{field: old[field]})
                ca = msgspec.structs.replace(ca, catalog=old.get("catalog"),
                                             **({"B": old.get("B", ca.B)} if hasattr(ca, "B") else {}))
            else:
                points = self.kin_armor_points(combatant, i, a, getattr(ca, field), col, path)
                if points != getattr(ca, field):
                    ca = self.worn_armor_line(a, msgspec.structs.replace(
                        ca, stops=None, **{field: points}, **({"B": self.armor_b(points)} if hasattr(ca, "B") else {})),
                        None, path, rule)
            armor.append(ca)
        return armor

    def worn_armor_line(self, armor: Armor, line: Any, col: Any, path: str, rule: str) -> Any:
        """A native armor `line` written from neutral `armor` by its points (and catalog id), with
        what it would not give back read alone: the joules `armor` stops where the line reads
        otherwise, and where it sits and its deflection (core.armorline.extras; a deflection kept so
        is said, ``kept-verbatim``, citing `rule`). One way for every edition's line: the fields
        ``stops``, ``covers`` and ``deflection`` of its Struct."""
        from xsys.core import armorline

        back = self.armor_to_neutral(line)
        stops = None if math.isclose(float(back.stops), float(armor.stops), rel_tol=1e-9) else armor.stops
        more = armorline.extras(armor, back)
        if "deflection" in more and col is not None:
            col.loss("kept-verbatim", f"{path}.deflection", armorline.deflection_note(armor, self.name), rule)
        return msgspec.structs.replace(line, stops=stops, **more)

    # ==== resolution ===================================================================
    def resolve(self, target: int) -> dice.Outcomes:
        """The family's plain roll: d100 <= target succeeds, and its special result (Basic
        Roleplaying's impale) on d100 <= target / ``[resolution] impale_divisor`` rounded up (default
        5), as ``critical_success``; no automatic success or failure bands. A system whose roll
        differs (bonus dice, an Extreme level) overrides it."""
        t = max(0, target)
        return dice.Outcomes(dice.d100_at_most(t), critical_success=dice.d100_at_most(self.impale_threshold(t)))

    def impale_threshold(self, target: int) -> int:
        """The highest roll that is the special result at `target` (see :meth:`resolve`)."""
        div = self.tables().get("resolution", {}).get("impale_divisor", 5)
        return math.ceil(Fraction(max(0, target), div))

    def roll_chance(self, skill: str, level: Any, context: Mapping[str, Any] | None = None) -> Fraction:
        return self.resolve(int(level)).success

    def check_at(self, shot: Shot, skill: str, level: Any, context: Mapping[str, Any] | None = None,
                 extra: Any = ()) -> Check:
        """The shot at this skill level: ``evaluate(situation_from_shot(shot, skill_value=level))``."""
        return self.evaluate(self.situation_from_shot(shot, skill_value=int(level)), extra)  # type: ignore[attr-defined]

    # ==== the situation of one shot ====================================================
    #: The situation a check reads (a subclass of :class:`Situation` with the native shot's own fields).
    situation_type: ClassVar[type] = Situation

    def situation_from_shot(self, shot: Shot, skill_value: int | None = None, DEX: int | None = None,
                            native_weapon: Any = None, skill: str | None = None) -> Situation:
        """A neutral shot as the situation ``evaluate`` reads: the shooter rolls `skill` (default:
        his weapon class's) at `skill_value` (default: the level of his competence), with `DEX`
        (default: the step of his dexterity percentile, the adult median where the shot states
        none) and his own weapon line `native_weapon` where known; ``situation_fields`` adds or
        settles what the system reads its own way."""
        w, s, t = shot.weapon, shot.shooter, shot.target
        skill = skill or self.skill_for_class(w.weapon_class)
        if skill_value is None:
            skill_value = self.level_for(skill, s.skill, {"@key": firearm_skill_for(w.weapon_class)})
        if DEX is None:
            DEX = self.characteristics()["DEX"].ladder.step_for(s.characteristics.get("dexterity", 0.5)).native
        return self.situation_type(**{
            "skill": skill, "skill_value": int(skill_value), "weapon": w, "distance": float(shot.distance),
            "native_weapon": native_weapon, "DEX": int(DEX), "illuminance": float(shot.light.illuminance),
            "aids": tuple(shot.light.aids), "sights": w.sights, "aim_time": float(s.aim_time), "braced": s.braced,
            "shooter_posture": s.posture, "shooter_speed": float(s.speed), "hands": s.hands, "off_hand": s.off_hand,
            "rounds": shot.burst, "target_posture": t.posture, "target_speed": float(t.speed),
            "exposure": float(t.cover.exposure), "barrier": t.cover.barrier, "armor": tuple(t.armor),
            "called_location": shot.called_location, **self.situation_fields(shot)})

    def situation_fields(self, shot: Shot) -> dict[str, Any]:
        """Fields of the situation this system reads its own way from a neutral shot (none)."""
        return {}

    # ==== skills =======================================================================
    def skills(self) -> dict[str, tuple[str, ...]]:
        if self._skills is None:
            self._skills = {k: tuple(v["neutral"]) for k, v in self.tables()["skills"].items() if v["neutral"]}
        return dict(self._skills)

    def skill_class(self, skill: str) -> str | None:
        return self.tables()["skills"].get(skill, {}).get("weapon_class")

    def skill_for_class(self, weapon_class: str) -> str:
        return self.tables()["weapon_class"][weapon_class]["skill"]

    def skill_floor(self, skill: str, context: Mapping[str, Any] | None = None) -> tuple[Any, str] | None:
        """A skill's base chance (its ``[skills]`` row's ``base``: a number, or a characteristic
        times or divided by a number, "DEX x2", "DEX / 2"): a character starts every skill there,
        so a stat block shows none below it."""
        row = self.tables()["skills"].get(skill)
        if row is None:
            return None
        base = row["base"]
        if isinstance(base, str):
            attr, op, n = base.replace(" x", " * ").split()
            value = (context or {}).get(attr)
            if value is None:
                return None
            base = int(value) * int(n) if op == "*" else int(value) // int(n)
        return int(base), row.get("rule", self.skill_rule or f"{self.rule_prefix}skills")

    def tiers(self, skill: str) -> tuple[Tier, ...]:
        found = self.__dict__.get("_tiers")  # one table for every skill: made once per instance
        if found is None:
            rule = self.tier_rule or self.skill_rule or f"{self.rule_prefix}skills"
            rows = self.TIERS or self.tables().get("tiers", ())
            found = self.__dict__["_tiers"] = tuple(Tier(int(r), str(n), int(lo), int(ty), rule, "assumed")
                                                    for r, n, lo, ty in rows)
        return found

    # ==== weapons =======================================================================
    def damage_ladder(self, weapon_class: str | None) -> Any:
        """The ladder of damage dice by muzzle energy for a weapon of this class: a long gun's
        (a rifle, carbine or machine gun: ``damage-long``, where the system's tables have one, as
        the d100 weapon table prints long guns apart from handguns), else ``damage``."""
        lads = self.table_ladders()  # type: ignore[attr-defined]
        return lads["damage-long"] if weapon_class in LONG_GUNS and "damage-long" in lads else lads["damage"]

    def damage_energy(self, damage: str, weapon_class: str | None = None) -> Energy | None:
        """The muzzle energy a damage line stands for (its first band): the representative of the
        row of the system's ``damage`` ladder that prints those dice; else, for dice no row prints,
        what the weapon table means by them: the median energy of the cartridges of the catalog's
        weapons of its class that have this line here (the table's 2D6 rifles fire the 5.56 mm,
        1750 J; its 2D6+1 the 7.62x39mm), else of any class (a 2D6 machine gun: the 5.56 mm),
        else the energy between the two rows whose mean damage
        brackets theirs (log-linear in the mean: a .22 rifle's 1D6+1 is 1D8's energy, not a
        generic rifle's 3300 J). None: no dice, or a thrown weapon's dice no row prints (its
        class's energy: the thrower's arm, not the line, moves it)."""
        first = damage.split("/")[0]
        steps = self.damage_ladder(weapon_class).steps
        exact = next((Energy(st.rep) for st in steps if st.label == first), None)
        if exact is not None or weapon_class == "thrown":  # a thrown weapon's dice are the thrower's arm
            return exact
        try:
            wanted = float(dice.mean(dice.roll_distribution(first.lower())))
        except ValueError:
            return None
        lines = _lines_by_class(self)
        printed = lines.get((weapon_class or "", first.upper())) or [
            e for (_, line), energies in lines.items() if line == first.upper() for e in energies]
        if printed:
            return Energy(statistics.median(printed))
        rows = []
        for st in steps:
            try:
                rows.append((float(dice.mean(dice.roll_distribution(st.label.lower()))), float(st.rep)))
            except ValueError:
                continue
        rows.sort()
        if not rows or any(rep <= 0 for _, rep in rows):
            return None
        if wanted <= rows[0][0]:
            return Energy(rows[0][1])
        if wanted >= rows[-1][0]:
            return Energy(rows[-1][1])
        (m0, e0), (m1, e1) = next((a, b) for a, b in zip(rows, rows[1:]) if a[0] <= wanted <= b[0])
        share = 0.0 if m1 == m0 else (wanted - m0) / (m1 - m0)
        return Energy(round(math.exp(math.log(e0) + share * (math.log(e1) - math.log(e0)))))

    def shot_weapon_class(self, skill: str | None, damage: str | None, word_class: str | None) -> str | None:
        """The neutral class of a native shot's weapon that is in no catalog: the class of the
        skill the shot states (it decides, as on a stat block's line), else the class word its
        name ends in."""
        return self.skill_class(skill) if skill else word_class

    def shot_weapon(self, shot: Any) -> Weapon:
        """The neutral weapon of a native shot (fields ``weapon``, ``catalog``, ``skill``,
        ``damage``, ``muzzle_energy``, ``sights``): its catalog weapon (by ``catalog`` id, else by
        what its name says: core.catalog.Catalog.shot_weapon) under the shot's name, else a weapon
        of ``shot_weapon_class`` with its muzzle energy, else the energy of its damage line, else a
        generic one's. A name that says no weapon and no class, in a shot that names no skill, is
        refused: it is not a handgun."""
        import msgspec

        w, word_class = _catalog().shot_weapon(shot.weapon, shot.catalog, shot.skill)
        if w is None:
            cls = self.shot_weapon_class(shot.skill, shot.damage, word_class)
            energy = shot.muzzle_energy
            if energy is None and shot.damage is not None and cls != "shotgun":
                energy = self.damage_energy(shot.damage, cls)
            w = msgspec.structs.replace(generic_weapon(cls), name=shot.weapon)  # type: ignore[arg-type]
            if energy is not None:
                w = msgspec.structs.replace(w, muzzle_energy=energy)
        if shot.sights is not None:
            w = msgspec.structs.replace(w, sights=shot.sights)
        return w

    def line_weapon_to_neutral(self, w: Any, col: Collector | None, path: str, weapon_class: str,
                               fire_modes: list[str], **fields: Any) -> Weapon:
        """A stat block's weapon line (fields ``name``, ``catalog``, ``skill``, ``damage``,
        ``capacity``, ``sights``, ``muzzle_energy``) as what it physically is, one answer for
        every system (core.catalog.Catalog.identify_weapon): its catalog weapon (by id, else by
        what its name says, when its skill fires that kind of gun), with the capacity the line
        states (said where it is not the catalog's) and the automatic fire it states; else a
        weapon of `weapon_class` (the plugin's reading of the line: its skill's class, the kind
        of it the name says) with the muzzle energy the line states, else the energy of its
        damage dice (a generic one's for shot dice or dice no row prints; the table's hand
        grenade's), said as assumed. A damage line that is not its weapon's (its catalog
        weapon's, or the cartridge its name states) is said as merged: a sheet written again
        rolls the weapon's dice. `fields` (a stated length) go on the weapon as they are."""
        from xsys.core.catalog import say_grenade, strip_entry, table_grenade_energy, weapon_note

        cat = _catalog()
        damage_rule = self.damage_rule or f"{self.rule_prefix}damage"
        entry = cat.weapons.get(w.catalog) if w.catalog else cat.identify_weapon(w.name)[0]
        if entry is not None and not w.catalog and self.skill_for_class(entry.weapon_class) != w.skill:
            entry = None  # 'Glock 17' fired with Rifle is not the catalog Glock
        automatic = [m for m in fire_modes if m != "semi"]
        if entry is not None:
            base = strip_entry(entry)
            if w.capacity and w.capacity != base.capacity and col is not None:
                col.loss("assumed", f"{path}.capacity", f"{w.name}: the line states capacity {w.capacity}; "
                         f"catalog weapon {entry.id} holds {base.capacity}: the stated {w.capacity} is kept",
                         self.capacity_rule or damage_rule)
            more = dict(fields)
            if automatic and not ({"auto", "burst"} & set(base.fire_modes)):
                more["fire_modes"] = list(base.fire_modes) + ["auto"]
            out = msgspec.structs.replace(base, name=w.name, capacity=w.capacity or base.capacity, sights=w.sights,
                                          **more)
            self._damage_line_loss(w, out, col, path, damage_rule)
            return out
        sights = "none" if weapon_class == "thrown" else w.sights
        if w.muzzle_energy is not None:
            out = Weapon(name=w.name, weapon_class=weapon_class, muzzle_energy=w.muzzle_energy,  # type: ignore[arg-type]
                         fire_modes=fire_modes, capacity=w.capacity, sights=sights, **fields)
            say_grenade(col, path, out)
            return out
        first = w.damage.split("/")[0]
        energy = self.damage_energy(w.damage, weapon_class)
        nade = table_grenade_energy(w.name, weapon_class, w.damage, self.tables().get("grenade", {}).get("damage"))
        if nade is not None:  # the table's hand grenade: one energy for it from every sheet
            energy, note = nade, (f"no catalog weapon {w.name!r}; {first} is the weapon table's hand grenade: "
                                  f"{nade:g} J, a grenade's energy from every sheet (xsys.grenade)")
        elif weapon_class == "shotgun" and (gauge := cartridge_in_name(w.name)) in CARTRIDGES:
            # shot's dice are by range band, no energy: the gauge its name states gives it
            energy = Energy(CARTRIDGES[gauge][0])
            note = f"no catalog weapon {w.name!r}; muzzle energy of the {gauge} its name states ({float(energy):g} J)"
        elif weapon_class == "shotgun" or energy is None:
            energy = Energy(float(generic_weapon(weapon_class).muzzle_energy))
            note = f"no catalog weapon {w.name!r}; muzzle energy of a generic {weapon_class} ({float(energy):g} J)"
        else:
            note = weapon_note(w.name, first, float(energy))
        if col is not None:
            col.loss("assumed", f"{path}.damage", note, damage_rule)
        out = Weapon(name=w.name, weapon_class=weapon_class, muzzle_energy=Energy(float(energy)),  # type: ignore[arg-type]
                     fire_modes=fire_modes, capacity=w.capacity, sights=sights, **fields)
        self._damage_line_loss(w, out, col, path, damage_rule)
        say_grenade(col, path, out)
        return out

    def _damage_line_loss(self, w: Any, out: Weapon, col: Collector | None, path: str, rule: str) -> None:
        """One weapon, one damage line: a line whose own dice are not the line of the weapon it
        is (its catalog weapon's, or the cartridge its name states) is said
        (core.catalog.damage_line_note), since a sheet written again from the neutral weapon
        rolls the weapon's dice."""
        from xsys.core.catalog import damage_line_note

        if col is None:
            return
        basis = _catalog().weapon_basis(out)
        if basis.kind == "class" or out.weapon_class == "shotgun":
            return
        line = self.damage_of(out)
        if line.lower() == w.damage.lower():
            return
        col.loss("merged", f"{path}.damage", damage_line_note(w.name, basis, line, w.damage), rule)

    # ==== the shot document: the family's sheet (core.shotsheet), the weapon in its fields ====
    def shot_weapon_to_neutral(self, shot: Any, col: Collector) -> Weapon:
        """The weapon a d100 shot names in its fields (:meth:`shot_weapon`; an unknown ``catalog``
        id is refused). What it assumes is said: the skill a shot fires a weapon of no catalog with
        where it names none, and that weapon's muzzle energy (its damage line's, else a generic
        one's of its class)."""
        if shot.catalog and self.find_weapon(shot.catalog) is None:
            raise InputError("unknown catalog weapon", path="$.catalog", expected="a weapon id from "
                             "`xsys catalog weapon`", found=repr(shot.catalog))
        from xsys.core.catalog import say_grenade

        weapon = self.shot_weapon(shot)
        say_grenade(col, "$.weapon", weapon)
        cls = weapon.weapon_class
        if weapon.catalog is None:
            if shot.skill is None:
                col.loss("assumed", "$.skill", f"{shot.weapon!r} is not a catalog weapon and the shot names no "
                         f"skill; its name says a {cls}: fired with {self.skill_for_class(cls)}",
                         self.skill_rule or f"{self.rule_prefix}skills")
            if shot.muzzle_energy is None:
                what = f"the muzzle energy of its damage {shot.damage}" if shot.damage is not None and \
                    float(weapon.muzzle_energy) != float(generic_weapon(cls).muzzle_energy) \
                    else f"the muzzle energy of a generic {cls}"
                col.loss("assumed", "$.weapon", f"{shot.weapon!r} is not a catalog weapon; {what}",
                         self.damage_rule or f"{self.rule_prefix}damage")
        return weapon

    def shot_weapon_from_neutral(self, shot: Shot, col: Collector, path: str) -> dict[str, Any]:
        """The fields a d100 shot names its weapon in: a catalog weapon by its id, under its own
        name beside it when it has one, any other by its name, skill, damage line and muzzle
        energy; sights other than its own."""
        w = shot.weapon
        entry = self.find_weapon(w.catalog) if w.catalog else None
        out: dict[str, Any] = {"weapon": w.name, "skill": self.skill_for_class(w.weapon_class), "catalog": None,
                               "damage": None, "muzzle_energy": None}
        if entry is not None:
            if w.name in (entry.name, w.catalog):
                out["weapon"] = w.catalog
            else:
                out["catalog"] = w.catalog
            if self.skill_for_class(entry.weapon_class) == out["skill"]:
                out["skill"] = None
        else:
            out["damage"], out["muzzle_energy"] = self.damage_of(w), w.muzzle_energy
        base = entry or generic_weapon(w.weapon_class)
        out["sights"] = w.sights if base.sights != w.sights and w.weapon_class != "thrown" else None
        return out

    def find_weapon(self, name: str) -> Weapon | None:
        from xsys.core.catalog import strip_entry

        entry = _catalog().find_weapon(name)
        return strip_entry(entry) if entry is not None else None

    # ==== close-combat lines ============================================================
    def melee_line(self, melee_class: str, name: str = "") -> tuple[str, str]:
        """(skill, damage) of the line the stat block writes for a weapon known only by its class
        (the tables' ``[melee_line.<class>]``, under ``melee_rule``); where the tables print the class
        in sizes (7th edition's small, medium and large knife) and its `name` says one
        (``[melee_size_words]``: "Large knife", "Bowie knife"), that size's row, ``<class>_<size>``."""
        rows = self.tables()["melee_line"]
        row = rows[melee_class]
        low = name.lower()
        for size, words in self.tables().get("melee_size_words", {}).items():
            if f"{melee_class}_{size}" in rows and any(re.search(rf"(?<![^\W\d_]){re.escape(w)}(?![^\W\d_])", low)
                                                        for w in words):
                row = rows[f"{melee_class}_{size}"]
                break
        return row["skill"], row["damage"]

    def melee_dice(self, dice: str) -> str:
        """A kin edition's close-combat dice as this stat block prints them (its letter case)."""
        return dice

    def melee_kin_skill(self, skill: str) -> str | None:
        """The skill a kin edition's close-combat line is made with, as this stat block names it
        (None: the line of the weapon's class)."""
        return skill

    def melee_from_neutral(self, combatant: Any, lines: Any, col: Collector) -> list[Any]:
        """Close-combat attacks: the carried line of each weapon this stat block wrote, else the line
        of its class (``melee_line``), with a kin edition's carried dice and skill for that weapon
        (``melee_kin``: the same weapon table); core.carried.melee_lines."""
        def of_class(m: Any) -> Any:
            # a creature's natural weapon: the tables' line for one where they have it, else its class's
            natural = getattr(m, "natural", False) and "natural" in self.tables().get("melee_line", {})
            skill, damage = self.melee_line("natural" if natural else m.melee_class, m.name)
            said = carried.kin_melee_skill(combatant, self.melee_kin, m.name)
            kin_skill = self.melee_kin_skill(said) if said else None
            # an attack of a skill this edition does not have (a 6th-edition Kick: a Brawl attack in 7th)
            # is that skill's attack here, at this edition's own dice: the kin line's dice do not cross
            kin = carried.kin_melee_damage(combatant, self.melee_kin, m.name, self.MELEE_DAMAGE)
            if said and kin_skill != said:
                if kin is not None and self.melee_dice(kin[0]) != damage:  # its dice do change: said
                    i = next((n for n, x in enumerate(combatant.melee) if x is m), 0)
                    col.loss("assumed", f"$.melee[{i}]", f"{m.name}: a {kin[1]} {said} attack ({kin[0]}) is a "
                             f"{kin_skill} attack on a {self.key} sheet, at its damage {damage}; the {kin[1]} line "
                             f"is carried", self.weapon_kin_rule or self.melee_rule)
                kin = None
            if kin is not None:
                damage = self.melee_dice(kin[0])
                col.step(f"$.melee.{m.name}", f"{m.name} ({kin[1]} line, {kin[0]})", None, f"damage {damage}",
                         rules=[self.melee_rule], source="assumed",
                         note="6th and 7th edition print the same close-combat weapon dice")
            return self.melee_line_type(name=m.name, skill=kin_skill or skill, damage=damage)  # type: ignore[misc]

        def special(m: Any) -> Any:  # a line of no damage, as the source wrote it, with its kin skill if carried
            said = carried.kin_melee_skill(combatant, self.melee_kin, m.name)
            return self.melee_line_type(name=m.name, skill=(self.melee_kin_skill(said) if said else None)  # type: ignore[misc]
                                        or self.melee_line("natural" if m.natural and "natural" in self.tables().get(
                                            "melee_line", {}) else m.melee_class)[0], damage="")

        return carried.melee_lines(combatant, lines, self.melee_line_type, self.carried_namespaces[0],  # type: ignore[arg-type]
                                   self.melee_rule, col, of_class, lambda line: f"{line.skill}, damage {line.damage}",
                                   write_special=special)

    # ==== close combat: the close-combat battery's check (core.melee) ==================
    def close_combat_skills(self) -> frozenset[str]:
        """Native skills holding a neutral close-combat skill (brawl, melee); worked out once per
        system (every skill's competence rule and context asks it)."""
        found = self.__dict__.get("_close_combat_skills")
        if found is None:
            found = self.__dict__["_close_combat_skills"] = frozenset(
                k for k, keys in self.skills().items() if set(keys) & {"brawl", "melee"})
        return found

    def competence_rule(self, skill: str) -> str:
        return self.melee_rule if skill in self.close_combat_skills() and self.melee_rule else \
            super().competence_rule(skill)

    def melee_check_at(self, item: MeleeItem, skill: str, level: Any, context: Mapping[str, Any] | None = None
                       ) -> Check:
        """One close-combat battery item: d100 <= skill, halved in moonlight and 01% in total
        darkness (``MELEE_RULES['darkness']``), landing unless the adult's Dodge or bare-handed
        parry succeeds (a bodily parry stops fists, not a club: ``MELEE_RULES['parry-weapon']``);
        damage = the weapon's dice + the damage bonus (``context['db']``) - armor."""
        ctx = context or {}
        cls = str(ctx.get("@class", "unarmed"))
        db = str(ctx.get("db", "0"))
        mods: list[Modifier] = []
        notes: list[str] = []
        target = int(level)
        rule, src = self.MELEE_RULES["darkness"]
        if item.illuminance <= 0:
            target = min(target, 1)
            mods.append(Modifier(rule=rule, kind="set", value=1, source=src, why="total darkness: 01%"))  # type: ignore[arg-type]
        elif item.illuminance < 1.0:
            target = math.ceil(Fraction(target, 2))
            mods.append(Modifier(rule=rule, kind="multiply", value="1/2", source=src, why="moonlight: x1/2"))  # type: ignore[arg-type]
        hit = self.resolve(target).success
        defence = item.defence
        if defence == "parry" and cls != "unarmed":
            rule, src = self.MELEE_RULES["parry-weapon"]
            notes.append(f"a bare-handed parry does not stop a weapon's damage, so the adult dodges [{rule}; {src}]")
            defence = "dodge"
        if defence in ("dodge", "parry"):
            value = self.MEDIAN_DODGE if defence == "dodge" else self.MEDIAN_PARRY
            rule, src = self.MELEE_RULES[defence]
            hit *= 1 - dice.d100_at_most(value)
            mods.append(Modifier(rule=rule, kind="multiply", value=f"{100 - value}/100", source=src,  # type: ignore[arg-type]
                                 why=f"the adult's {'Dodge' if defence == 'dodge' else self.PARRY_NAME} {value}%"))
        armor = 0
        if item.armor:
            armor = int(self.armor_value(reference_armor(item.armor, _catalog()))[0])
            rule, src = self.MELEE_RULES["armor"]
            notes.append(f"{item.armor}: armor {armor} [{rule}; {src}]")
        n, sides, plus = self.MELEE_DICE.get(cls, self.MELEE_DICE["club"])
        dmg = dice_dist(n, sides, plus)
        if db != "0":
            sign = -1 if db.startswith("-") else 1
            if "d" in db.lower():
                dn, ds = (int(x) for x in db.lower().lstrip("+-").split("d"))
                dmg = add_dists(dmg, dice_dist(dn, ds), sign)
            else:  # a flat bonus (7th edition's -1, -2)
                dmg = add_dists(dmg, {int(db.lstrip("+-")): Fraction(1)}, sign)
        line = f"{n}d{sides}" + (f"{db}" if db != "0" else "")
        return attack_check(self, stat=skill, base=int(level), target=target, needs=f"d100 <= {target}", hit=hit,
                            damage=dmg, armor=armor, modifiers=mods, notes=notes,
                            native=f"{skill} {target}%, damage {line}")


def _key(v: Any) -> Any:
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


def _worn_between(worn: list[Step], meta: dict[Any, dict[str, Any]], rule: str, ratio: Fraction, how: str,
                  extend_to: int | None) -> list[Step]:
    """``[armor] between``: every whole number of points between two rows of the worn list that
    are more than a point apart, as a row of its own (assumed, cited as the list's rule), and with
    ``extend_to`` the points past the last row up to it, on the last two rows' line.

    - ``"power"``: at the joules of the power law through the two rows (a straight line of log
      points against log joules). 6th edition's list rises from 1 point at 20 J to 6 at 321 J and
      keeps to about points ~ joules^0.6 above, so a 3-point hide stops about 110 J, where the
      nearest row had read it as the heavy leather jacket's 20 J, and armor that stops 120-180 J
      is 4 points, not the jacket's 1.
    - ``"linear"``: linear in joules between the rows (the Chinese rules' list).

    A row of no armor (0 points) bounds no power law."""
    rows = sorted(worn, key=lambda x: x.at)

    def at(lo: Step, hi: Step, a: int) -> float:
        if how == "power":
            return round(lo.at * (a / lo.native) ** (math.log(hi.at / lo.at) / math.log(hi.native / lo.native)), 1)
        if a > hi.native:  # beyond the last row, at its segment's slope
            return hi.at + (hi.at - lo.at) / (hi.native - lo.native) * (a - hi.native)
        return lo.at + (hi.at - lo.at) * (a - lo.native) / (hi.native - lo.native)

    def usable(lo: Step, hi: Step) -> bool:
        ints = isinstance(lo.native, int) and isinstance(hi.native, int) and hi.native > lo.native >= 0
        return ints and hi.at > lo.at and (how == "linear" or (lo.native >= 1 and lo.at > 0))

    out: list[Step] = []

    def add(a: int, joules: float, label: str) -> None:
        out.append(Step(a, joules, rule, "assumed", label))
        meta[_key(a)] = {"B": float(Fraction(a) * ratio), "catalog": None, "label": label}

    for lo, hi in zip(rows, rows[1:]):
        out.append(lo)
        if usable(lo, hi):
            for a in range(lo.native + 1, hi.native):
                add(a, at(lo, hi, a), f"{a} points (between {lo.label} and {hi.label})")
    out.append(rows[-1])
    if extend_to is not None and len(rows) >= 2 and usable(rows[-2], rows[-1]):
        for a in range(rows[-1].native + 1, int(extend_to) + 1):
            add(a, at(rows[-2], rows[-1], a), f"{a} points (beyond {rows[-1].label})")
    return out


def build_armor_ladders(data: Mapping[str, Any]) -> tuple[dict[str, Ladder], dict[str, dict[Any, dict[str, Any]]]]:
    """Ladders of an armor file: ``armor.worn`` over J, ``armor.barrier.<material>`` over
    thickness (the file's anchors, linear in between and beyond, floored to whole points on the
    grid; assumed), ``armor.barrier.generic`` over J. Returns (ladders, rows: ladder -> A ->
    {B, catalog, label}).

    The schema: ``[armor]`` with ``rule`` (cited by every row without its own), ``b_ratio`` (B
    as a fraction of A where a row states no B; default 1/2), ``between`` ("power" or
    "linear": the whole points between two worn rows as rows of their own) and ``extend_to`` (points
    past the last worn row, on its line: :func:`_worn_between`), ``grid`` (thicknesses to give a
    barrier row), and arrays ``worn`` (A, at = joules stopped, optional B, rule, source, label,
    catalog), ``generic`` (the same, for barriers of no listed material) and ``barrier``
    (material, thickness, A, optional B, rule, source, label)."""
    head = data["armor"]
    rule = head["rule"]
    ratio = frac(head.get("b_ratio", "1/2"))
    ladders: dict[str, Ladder] = {}
    info: dict[str, dict[Any, dict[str, Any]]] = {}

    def energy(x: Any) -> float:
        return float(parse(x, Energy)) if isinstance(x, str) else float(x)

    worn = []
    meta: dict[Any, dict[str, Any]] = {}
    for r in head.get("worn", []):
        worn.append(Step(r["A"], energy(r["at"]), r.get("rule", rule), r.get("source", "seed"), r.get("label", "")))
        meta[_key(r["A"])] = {"B": float(r.get("B", float(Fraction(r["A"]) * ratio))), "catalog": r.get("catalog"),
                              "label": r.get("label", "")}
    if head.get("between") in ("power", "linear") and worn:
        worn = _worn_between(worn, meta, rule, ratio, head["between"], head.get("extend_to"))
    # rows sit at real armor items' stopping energy: they represent themselves
    ladders["armor.worn"] = Ladder.build("armor.worn", "J", worn, rounding="down", represent="row")
    info["armor.worn"] = meta

    gen = list(worn)
    gmeta = dict(meta)
    for r in head.get("generic", []):
        gen.append(Step(r["A"], energy(r["at"]), r.get("rule", rule), r.get("source", "assumed"), r.get("label", "")))
        gmeta[_key(r["A"])] = {"B": float(r.get("B", float(Fraction(r["A"]) * ratio))), "catalog": None,
                               "label": r.get("label", "")}
    ladders["armor.barrier.generic"] = Ladder.build("armor.barrier.generic", "J", gen, rounding="down",
                                                    represent="row")
    info["armor.barrier.generic"] = gmeta

    grid = [float(parse(g, Length)) for g in head.get("grid", [])]
    anchors: dict[str, list[dict[str, Any]]] = {}
    for r in head.get("barrier", []):
        anchors.setdefault(r["material"], []).append(r)
    for material, rows in anchors.items():
        pts = sorted(((float(parse(r["thickness"], Length)), r) for r in rows), key=lambda x: x[0])

        def a_at(t: float, pts: list[tuple[float, dict[str, Any]]] = pts) -> float:
            t0, r0 = pts[0]
            if t <= t0:
                return r0["A"] * t / t0
            for (ta, ra), (tb, rb) in zip(pts, pts[1:]):
                if t <= tb:
                    return ra["A"] + (rb["A"] - ra["A"]) * (t - ta) / (tb - ta)
            tl, rl = pts[-1]
            return rl["A"] * t / tl

        anchor_t = {t: r for t, r in pts}
        steps = [Step(0, 0.0, rule, "assumed", "no barrier")]
        bmeta: dict[Any, dict[str, Any]] = {0: {"B": 0.0, "catalog": None, "label": "no barrier"}}
        for t in sorted(set(grid) | set(anchor_t)):
            if t in anchor_t:
                r = anchor_t[t]
                A, B, src, label = r["A"], float(r.get("B", float(Fraction(r["A"]) * ratio))), \
                    r.get("source", "seed"), r.get("label", "")
            else:
                A = math.floor(a_at(t) + 1e-9)
                B, src, label = float(Fraction(A) * ratio), "assumed", f"{t * 100:g} cm {material}"
            if A <= steps[-1].native:
                if t in anchor_t:  # an anchor never yields to a generated row
                    steps.pop()
                else:
                    continue
            steps.append(Step(A, t, r.get("rule", rule) if t in anchor_t else rule, src, label))
            bmeta[_key(A)] = {"B": B, "catalog": None, "label": label}
        name = f"armor.barrier.{material}"
        ladders[name] = Ladder.build(name, "m", steps, rounding="down")
        info[name] = bmeta
    return ladders, info


__all__ = ["PercentileSystem", "Situation", "ShotWord", "LightEffect", "build_armor_ladders", "frac"]
