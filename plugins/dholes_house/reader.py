"""Dhole's House JSON export -> a coc NPC document (plain data).

The export is an XML document turned into JSON: every number arrives as a string ("60"), an
empty field as "" or "-", and a list with one entry arrives as that entry itself
(``"Skill": {...}`` instead of ``[{...}]``). All are read. Readers by the export's
``Header.Version`` (``READERS``; the versions seen so far share one shape), so the next change
upstream is one more reader; each names itself in the report's ``reader`` key.

The shape read (the fields the CoC7 Foundry system's own Dhole's House importer reads):
``PersonalDetails.Name``, ``Characteristics`` (STR ... EDU on the 7th-edition scale, HitPts /
HitPtsMax, MagicPts / MagicPtsMax, Sanity, Luck, Move, DamageBonus, Build), ``Skills.Skill[]``
(``name``, ``subskill``, ``value``: the total the sheet shows), ``Weapons.weapon[]`` (``name``,
``skillname``, ``damage`` "1D3+DB", ``range`` "15 yards" or "-" / "Touch" for close combat,
``attacks`` "1 (3)", "1 or burst", ``ammo``, ``malf``), ``Possessions.item[]``,
``Backstory.description``. Only these are looked at; what cannot be read is a loss line
naming its path, and the rest of the export is read.
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable

import msgspec

from xsys.core.errors import InputError
from xsys.core.textblock import Line, distance, fold, item_text, one_line, read_lines
from xsys.plugins.coc.names import SEVENTH_AVERAGE_ADULT, SEVENTH_KEY, coc_damage, coc_skill, weapon_skill

FORMAT = "dholes-house"
CHARACTERISTICS = ("STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU")
_CLOSE = ("", "-", "—", "touch", "n/a", "na")  # a weapon's range that says close combat
MELEE_SKILLS = ("Fist/Punch", "Knife", "Club", "Sword", "Axe", "Spear")
# Skill names the export spells its own way -> the 7th-edition names the tables know
RENAMED = {"operate heavy machine": "Operate Heavy Machinery"}


def claims(plain: Any) -> bool:
    inv = plain.get("Investigator") if isinstance(plain, dict) else None
    return isinstance(inv, dict) and isinstance(inv.get("Characteristics"), dict)


def load(data: bytes) -> dict[str, Any]:
    try:
        plain = msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        raise InputError(f"malformed Dhole's House JSON: {exc}") from None
    if not claims(plain):
        inv = plain.get("Investigator") if isinstance(plain, dict) else None
        if not isinstance(inv, dict):
            where, found = "$.Investigator", ("no Investigator object (keys: " + ", ".join(sorted(map(str, plain)))
                                              + ")" if isinstance(plain, dict) else f"a JSON {type(plain).__name__}")
        else:
            where, found = "$.Investigator.Characteristics", (
                "no Characteristics object (Investigator keys: " + ", ".join(sorted(map(str, inv))) + ")")
        raise InputError("not a Dhole's House export", path=where,
                         expected='{"Investigator": {"Header", "PersonalDetails", "Characteristics", "Skills", '
                                  '"Weapons"}}', found=found)
    inv = plain["Investigator"]
    header = inv.get("Header") if isinstance(inv.get("Header"), dict) else {}
    version = str(header.get("Version") or "")
    if version in READERS:
        return READERS[version](inv)
    doc = read_v1(inv, version or "(none)")  # the newest reader, said
    report = doc.setdefault("xsys", {}).setdefault("read", {"format": FORMAT})
    report.setdefault("assumed", []).insert(0, f"$.Investigator.Header.Version: export version {version or '(none)'!r} "
                                            f"is not one this reader knows ({', '.join(READERS)}); read as 0.3")
    return doc


def as_list(value: Any) -> list[Any]:
    """One entry written as the entry itself, or nothing written at all: always a list."""
    if value is None or value == "":
        return []
    return value if isinstance(value, list) else [value]


class Unreadable(ValueError):
    """A value this reader cannot read (the message says why)."""


def number(value: Any) -> int | None:
    """A number written as a string ("60", " 60 ", "60%") or as a number; None when empty
    ("", "-")."""
    if value is None or (isinstance(value, str) and value.strip() in ("", "-", "—")):
        return None
    if isinstance(value, bool):
        raise Unreadable(f"{value!r} is not a number")
    if isinstance(value, float) and math.isfinite(value):
        return math.floor(value)
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*%?\s*", value):
        return int(value.strip().rstrip("%"))
    raise Unreadable(f"{value!r} is not a number")


def leading(value: Any) -> int | None:
    """The first whole number of a field that may hold more ("30/20", "1 (3)", "98-00")."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return math.floor(value)
    m = re.match(r"^\s*(\d+)", str(value or ""))
    return int(m.group(1)) if m else None


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


class _Export:
    def __init__(self, inv: dict[str, Any], version: str) -> None:
        self.inv = inv
        self.version = version
        self.unread: list[dict[str, str]] = []
        self.assumed: list[str] = []
        self.lines: list[Line] = []
        self.chars7: dict[str, int] = {}
        self.skills: dict[str, str] = {}  # folded subskill or name -> the skill's full name

    def lose(self, path: str, text: str) -> None:
        self.unread.append({"path": path, "text": text})

    def block(self, key: str) -> dict[str, Any]:
        value = self.inv.get(key)
        if value not in (None, "") and not isinstance(value, dict):
            self.lose(f"$.Investigator.{key}", f"{key} is a {type(value).__name__}, not an object")
        return _obj(value)

    def num(self, value: Any, path: str, what: str) -> int | None:
        try:
            return number(value)
        except Unreadable as exc:
            self.lose(path, f"{what}: {exc}")
            return None

    # ---- characteristics and the values derived from them ----------------------------------
    def characteristics(self) -> dict[str, int | None]:
        cpath = "$.Investigator.Characteristics"
        ch = self.inv["Characteristics"]
        empty = []
        for k in CHARACTERISTICS:
            v = self.num(ch.get(k), f"{cpath}.{k}", k)
            if v is None or v < 0:
                if v is not None:
                    self.lose(f"{cpath}.{k}", f"{k} {v} (a characteristic is not negative)")
                empty.append(k)
                continue
            self.chars7[k] = v
        # a 7th-edition investigator reads as coc7, its values as written (read_lines sets them)
        out: dict[str, int] = dict(self.chars7)
        if empty:
            for k in empty:
                out[k] = SEVENTH_AVERAGE_ADULT[k]
            self.assumed.append(f"{cpath}: " + ", ".join(empty) + " empty in the export; set to the average "
                                "7th-edition adult (" + ", ".join(f"{k} {out[k]}" for k in empty) + ")")
        stats: dict[str, int | None] = {k: out[k] for k in CHARACTERISTICS}
        stats.update(self.derived(ch, cpath))
        return stats

    def derived(self, ch: dict[str, Any], cpath: str) -> dict[str, int | None]:
        def val(k: str) -> int | None:
            v = self.num(ch.get(k), f"{cpath}.{k}", k)
            return None if v is None or v == 0 else v

        out: dict[str, int | None] = {}
        hp_max, hp_now = val("HitPtsMax"), val("HitPts")
        stated = hp_max if hp_max is not None else hp_now
        con, siz = self.chars7.get("CON"), self.chars7.get("SIZ")
        if stated is not None:
            out["HP"] = stated
            ruled = math.floor((con + siz) / 10) if con is not None and siz is not None else None
            if hp_max is None and ruled is not None and hp_now != ruled:
                # (a blank HitPtsMax beside HitPts 9 where the rule gives 11: the 9 may be what is left in play)
                self.assumed.append(f"{cpath}.HitPts: HP {hp_now} with HitPtsMax blank, read as the full HP; the rule "
                                    f"gives {ruled} from CON {con} and SIZ {siz}, so {hp_now} may be what is left in play")
        elif con is not None and siz is not None:
            out["HP"] = math.floor((con + siz) / 10)  # 7th edition: (CON + SIZ) / 10 rounded down
            self.assumed.append(f"{cpath}.HitPtsMax: no hit points in the export; HP {out['HP']} = (CON {con} + SIZ "
                                f"{siz}) / 10 rounded down (the 7th-edition rule)")
        if out.get("HP") is not None and not 0 <= out["HP"] <= 999:
            self.lose(f"{cpath}.HitPtsMax", f"HP {out['HP']} (coc7 holds 0-999)")
            out["HP"] = None
        for now, full in (("HitPts", "HitPtsMax"), ("MagicPts", "MagicPtsMax")):
            # hurt or spent in play (HitPts 4 of 11): a stat block holds the full value; said, not kept
            a, b = val(now), val(full)
            if a is not None and b is not None and a < b:
                self.lose(f"{cpath}.{now}", f"{now} {ch[now]} of {ch[full]} (used up in play: a stat block holds the "
                          "full value)")
        pow7 = self.chars7.get("POW")
        mp = val("MagicPtsMax") or val("MagicPts")  # the investigator's own, not what is left in play
        san, luck = val("Sanity"), val("Luck")
        own = {"MP": mp if mp is not None and (pow7 is None or mp != pow7 // 5) else None,  # 7e: MP = POW / 5
               "SAN": san if san is not None and san != pow7 else None,  # starting SAN = POW
               "Luck": luck}
        for field, key, hi in (("SAN", "Sanity", 99), ("MP", "MagicPtsMax", 999), ("Luck", "Luck", 99)):
            v = own[field]
            if v is not None and not 0 <= v <= hi:
                self.lose(f"{cpath}.{key}", f"{field} {v} (coc7 holds 0-{hi})")
                v = None
            out[field] = v
        move = val("Move")
        if move is not None and 0 <= move <= 100:
            out["MOV"] = move  # a coc7 stat block's own movement rate
        recomputed = [f"{k} {ch[k]}" for k in ("DamageBonus", "Build")
                      if str(ch.get(k) or "").strip() not in ("", "0", "-")]
        if recomputed:
            self.assumed.append(f"{cpath}: " + ", ".join(recomputed) + " not carried: coc7 derives the damage bonus "
                                "and Build from STR and SIZ")
        return out

    # ---- skills -----------------------------------------------------------------------------
    def skill_list(self) -> None:
        spath = "$.Investigator.Skills.Skill"
        slots = []
        entries = as_list(self.block("Skills").get("Skill"))
        for i, s in enumerate(entries):
            path = f"{spath}[{i}]"
            if not isinstance(s, dict):
                self.lose(path, f"a skill that is a {type(s).__name__}")
                continue
            base = one_line(s.get("name") or "")
            sub = one_line(s.get("subskill") or "")
            if sub.lower() == "none":
                slots.append(f"{path} {base!r}")  # an unfilled specialty slot ("Art/Craft", subskill None)
                continue
            name = RENAMED.get(fold(base), base)
            if fold(name) in ("language (own)", "language (other)"):
                name = "Language"
            if sub and "(" not in name:
                name = f"{name} ({sub})"
            value = self.num(s.get("value"), f"{path}.value", name or "skill")
            if not name or value is None:
                self.lose(path, f"skill {name or '(no name)'!r} with no value")
                continue
            if not 0 <= value <= 200:
                self.lose(f"{path}.value", f"skill {name!r} {value}% (coc7 holds 0-200%)")
                continue
            name = item_text(name)
            self.skills[fold(name)] = name
            if sub:
                self.skills.setdefault(fold(sub), name)
            self.lines.append((f"Skills: {name} {value}%", path))
        if slots:
            self.assumed.append("unfilled specialty slots (subskill 'None') not carried: " + ", ".join(slots))
        if "dodge" not in self.skills:
            dodge = self.num(_obj(self.block("Combat").get("Dodge")).get("value"), "$.Investigator.Combat.Dodge.value",
                             "Dodge")
            if dodge is not None and 0 <= dodge <= 200:
                self.lines.append((f"Skills: Dodge {dodge}%", "$.Investigator.Combat.Dodge"))

    # ---- weapons ------------------------------------------------------------------------------
    def skill_of(self, skillname: str) -> str:
        """The skill a weapon's ``skillname`` names: as the export writes it ("Handgun",
        "(Brawl)", "Firearms (Rifle/Shotgun)"), found among the investigator's skills or the
        7th-edition names."""
        s = skillname.strip()
        m = re.fullmatch(r"\((.+)\)", s)
        if m:
            s = m.group(1).strip()
        if fold(s) in self.skills:
            return self.skills[fold(s)]
        if coc_skill(s):
            return s
        for spec in ("Firearms", "Fighting"):
            if coc_skill(f"{spec} ({s})"):
                return f"{spec} ({s})"
        return s

    def weapons(self) -> None:
        wpath = "$.Investigator.Weapons.weapon"
        for i, w in enumerate(as_list(self.block("Weapons").get("weapon"))):
            path = f"{wpath}[{i}]"
            if not isinstance(w, dict):
                self.lose(path, f"a weapon that is a {type(w).__name__}")
                continue
            name = one_line(w.get("name") or "").replace(";", ",")
            if not name:
                self.lose(path, f"a weapon with no name: {w!r}")
                continue
            label = self.skill_of(str(w.get("skillname") or "")) if str(w.get("skillname") or "").strip() else ""
            natives = coc_skill(label) if label else ()
            rng = one_line(w.get("range") or "")
            close = rng.lower() in _CLOSE
            if natives[:1] != ("Throw",) and (close or fold(label).startswith("fighting")
                                              or (natives and natives[0] in MELEE_SKILLS)):
                self.melee(name, w, label, natives, path)
            else:
                self.ranged(name, w, rng, label, path)

    def melee(self, name: str, w: dict[str, Any], label: str, natives: tuple[str, ...], path: str) -> None:
        parts = [name]
        raw = one_line(w.get("damage") or "")
        damage = re.sub(r"\s+", "", raw).replace("½", "1/2")
        damage = re.sub(r"(?i)\+?half\s*db$", "+1/2db", damage)
        if damage and coc_damage(damage, melee=True) is None:
            self.lose(f"{path}.damage", f"{name}: damage {raw!r} (not dice a coc melee line holds)")
            damage = ""
        if damage:
            parts.append(f"damage {damage}")
        if label:
            parts.append(f"skill {natives[0] if natives else item_text(label)}")
        else:
            self.lose(f"{path}.skillname", f"{name}: no skill named: the attack is filed under its own name, with no %")
        self.lines.append(("Melee: " + ", ".join(parts) + ";", path))

    def ranged(self, name: str, w: dict[str, Any], rng: str, label: str, path: str) -> None:
        parts = [name]
        damage = re.sub(r"\s+", "", one_line(w.get("damage") or "")).replace("½", "1/2")
        damage = re.sub(r"(?i)\+?half\s*db$", "+1/2db", damage)
        if re.search(r"(?i)\+burn$", damage):  # the 7th-edition Molotov's "2D6+burn": the dice, and the fire said
            damage = re.sub(r"(?i)\+burn$", "", damage)
            self.lose(f"{path}.damage", f"{name}: '+burn' (the target catches fire and burns on: no field in a coc "
                      "weapon line); its damage read as {damage}".replace("{damage}", damage))
        if damage and coc_damage(damage) is None:
            self.lose(f"{path}.damage", f"{name}: damage {w.get('damage')!r} (not dice a coc weapon line holds)")
            damage = ""
        if damage:
            parts.append(f"damage {damage}")
        found = distance(rng) or self.thrown_range(rng)
        if found is None:
            self.lose(f"{path}.range", f"{name}: range {rng!r} is not a distance")
        else:
            parts.append(f"base range {found[0]} {found[1] or 'yd'}")  # no unit: yards, the 7th-edition rulebook's
        skill = weapon_skill(label, name) if label else None
        if label and skill is None:
            self.lose(path, f"{name}: its skill {label!r} is no coc firearm skill (Handgun, Rifle, Shotgun, SMG, "
                      "Machine Gun, Throw)")
            return
        if skill:
            parts.append(f"skill {skill}")
        else:
            self.assumed.append(f"{path}.skillname: {name}: no skill named; the skill is the one its name or catalog "
                                "entry says")
        ammo = self.bounded(leading(w.get("ammo")), f"{path}.ammo", name, 10_000)
        if ammo:
            parts.append(f"capacity {ammo}")
        malf = self.bounded(leading(w.get("malf")), f"{path}.malf", name, 100)
        if malf:
            parts.append(f"malfunction {malf}")
        attacks = one_line(w.get("attacks") or "")
        per_round = self.bounded(leading(attacks), f"{path}.attacks", name, 100)
        if per_round:  # 7th edition's uses per round as the export writes it ("1", "1 (3)", "1 or burst"):
            # a stated value wins over the 7th-edition table's (a bolt-action's 1/2), said where they differ
            parts.append(f"uses per round {attacks.replace(',', ' ')}")
        self.lines.append(("Weapons: " + ", ".join(parts), path))


    def bounded(self, n: int | None, path: str, name: str, most: int) -> int | None:
        if n is not None and n > most:
            self.lose(path, f"{name}: {n} (expected 0 to {most})")
            return None
        return n

    def thrown_range(self, rng: str) -> tuple[int, str] | None:
        """A range the rulebook writes from a characteristic ("STR/5 yards" for a thrown
        weapon), on the investigator's own 7th-edition value, rounded down."""
        m = re.fullmatch(r"\s*(STR|CON|SIZ|DEX|APP|INT|POW|EDU)\s*(?:([*/x])\s*(\d+))?\s*([A-Za-z.']*)\s*", rng, re.I)
        if m is None or m.group(1).upper() not in self.chars7:
            return None
        found = distance(f"1 {m.group(4)}")
        if found is None:
            return None
        value, factor = self.chars7[m.group(1).upper()], int(m.group(3) or 1)
        if m.group(2) == "/" and factor == 0:
            return None
        value = value // factor if m.group(2) == "/" else value * factor
        return value, found[1] or "yd"


# PersonalDetails and Backstory fields said in the notes, with the sheet's own labels (the export
# spells the injuries box "injurues"; "injuries" is read too)
_PERSONAL = (("Archetype", "Archetype"), ("Age", "Age"), ("Gender", "Gender"), ("Birthplace", "Birthplace"),
             ("Residence", "Residence"))
_BACKSTORY = (("ideology", "Ideology/Beliefs"), ("people", "Significant People"), ("locations", "Meaningful Locations"),
              ("possessions", "Treasured Possessions"), ("traits", "Traits"), ("injuries", "Injuries & Scars"),
              ("phobias", "Phobias & Manias"), ("tomes", "Arcane Tomes, Spells & Artifacts"),
              ("encounters", "Encounters with Strange Entities"))


def read_v1(inv: dict[str, Any], version: str = "0.3") -> dict[str, Any]:
    x = _Export(inv, version)
    details = x.block("PersonalDetails")
    name = details.get("Name")
    if not isinstance(name, str) or not one_line(name):
        x.assumed.append("$.Investigator.PersonalDetails.Name: the export has no name; named 'Unnamed investigator'")
        name = "Unnamed investigator"
    x.lines.append((one_line(name), "$.Investigator.PersonalDetails.Name"))
    stats = x.characteristics()
    x.skill_list()
    x.weapons()
    gear = [one_line(_obj(g).get("description") or "") for g in as_list(x.block("Possessions").get("item"))]
    if any(gear):
        x.assumed.append("$.Investigator.Possessions: not carried (a stat block lists combat material only): "
                         + ", ".join(g for g in gear if g))
    story = _obj(inv.get("Backstory"))
    back = story.get("description")
    occupation = details.get("Occupation")
    said = [one_line(v) for v in (occupation, back) if isinstance(v, str) and v.strip()]
    # who the investigator is and the sheet's backstory boxes: no stat block has fields for them,
    # so the notes say them (they had gone without a word)
    for label, value in [(lab, details.get(k)) for k, lab in _PERSONAL] + \
            [(lab, story.get(k) if k != "injuries" else story.get("injuries") or story.get("injurues"))
             for k, lab in _BACKSTORY]:
        if isinstance(value, (str, int)) and not isinstance(value, bool) and one_line(str(value)):
            said.append(f"{label}: {one_line(str(value))}")
    cash = _obj(inv.get("Cash"))
    money = [f"{k} {one_line(str(v))}" for k, v in cash.items() if isinstance(v, (str, int)) and one_line(str(v))]
    if money:
        x.assumed.append("$.Investigator.Cash: not carried (a stat block lists combat material only): " + ", ".join(money))
    notes = ". ".join([p.rstrip(".") for p in said[:-1]] + said[-1:])
    if notes:
        x.lines.append((f"Notes: {one_line(re.sub(r'<[^>]+>', ' ', notes))}", "$.Investigator.Backstory.description"))
    game = one_line(_obj(inv.get("Header")).get("GameVersion") or "")
    shown = ", ".join(f"{k} {v}" for k, v in list(x.chars7.items())[:3])
    edition = ("7th edition: Dhole's House builds 7th-edition investigators"
               + (f" (GameVersion {game!r})" if game else "") + ", characteristics on the 1-99 scale"
               + (f" ({shown} ...)" if shown else "") + ", read into coc7 as written")
    reader = (f"dholes-house export, reader for Header.Version 0.3.x (this export: {version}): "
              "Investigator.Characteristics, Skills.Skill, Weapons.weapon")
    return read_lines(x.lines, FORMAT, SEVENTH_KEY, assumed=x.assumed, unread=x.unread, stats=stats,
                      about={"reader": reader, "edition": edition})


READERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "0.3.0": lambda inv: read_v1(inv, "0.3.0"), "0.3.1": lambda inv: read_v1(inv, "0.3.1")}
