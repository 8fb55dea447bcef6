"""Foundry VTT CoC7 actor JSON -> a coc NPC document (plain data).

Readers by upstream data model (``READERS``): Foundry core 10 and later keep an actor's data
in ``system`` and its items' in ``item.system``; Foundry 9 and earlier in ``data``. The CoC7
system's own fields are the same in both: ``characteristics.str.value`` (7th edition, 1-99),
``attribs.hp/mp/san/lck/mov/db/build``, skills and weapons as embedded ``items`` of type
``skill`` / ``weapon``. The next upstream change is one more entry in READERS.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import msgspec

from xsys.core.errors import InputError
from xsys.plugins.textblock.compose import Line, coc_skill, one_line, read_lines, seventh_to_coc, weapon_skill

FORMAT = "foundry-coc7"
ACTOR_TYPES = ("character", "npc", "creature")
CHARACTERISTICS = ("str", "con", "siz", "dex", "app", "int", "pow", "edu")
# Item types that are equipment, not combat material or system-only data: said, not lost
GEAR = ("item", "book", "setup", "occupation", "archetype", "status", "chase")
UNITS = {"": "yd", "yd": "yd", "yds": "yd", "yards": "yd", "yard": "yd", "m": "m", "metres": "m", "meters": "m",
         "ft": "ft", "feet": "ft"}


def data_model(plain: Any) -> str | None:
    """Which reader an actor needs: 'v10' (``system``), 'v9' (``data``), or None (not ours)."""
    if not isinstance(plain, dict) or plain.get("type") not in ACTOR_TYPES or not isinstance(plain.get("name"), str):
        return None
    for key, model in (("system", "v10"), ("data", "v9")):
        body = plain.get(key)
        if isinstance(body, dict) and isinstance(body.get("characteristics"), dict) \
                and "str" in body["characteristics"] and isinstance(body.get("attribs"), dict):
            return model
    return None


def claims(plain: Any) -> bool:
    return data_model(plain) is not None


def load(data: bytes) -> dict[str, Any]:
    try:
        plain = msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        raise InputError(f"malformed Foundry actor JSON: {exc}") from None
    model = data_model(plain)
    if model is None:
        raise InputError("not a Foundry VTT CoC7 actor", path="$",
                         expected='{"name", "type": "npc"|"character"|"creature", "system": {"characteristics": '
                                  '{"str": {"value"}, ...}, "attribs": {...}}, "items": [...]}',
                         found=_describe(plain))
    return READERS[model](plain)


def _describe(plain: Any) -> str:
    if not isinstance(plain, dict):
        return type(plain).__name__
    return "keys " + ", ".join(sorted(map(str, plain))[:8])


def _num(value: Any, path: str, lo: int, hi: int) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", value):
        value = int(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError("not a number", path=path, expected="a whole number", found=repr(value))
    if not lo <= value <= hi:
        raise InputError("out of range", path=path, expected=f"{lo} to {hi}", found=str(value))
    return value


def _dict(obj: Any, path: str) -> dict[str, Any]:
    if obj is None:
        return {}
    if not isinstance(obj, dict):
        raise InputError("wrong type", path=path, expected="an object", found=type(obj).__name__)
    return obj


def read_actor(plain: dict[str, Any], key: str) -> dict[str, Any]:
    """One reader for both data models: `key` is where the data lives ('system' or 'data')."""
    body = plain[key]
    root = f"$.{key}"
    unread: list[dict[str, str]] = []
    assumed: list[str] = []
    lines: list[Line] = [(plain["name"], "$.name")]
    chars7: dict[str, int] = {}
    cpath = f"{root}.characteristics"
    for c in CHARACTERISTICS:
        v = _num(_dict(body["characteristics"].get(c), f"{cpath}.{c}").get("value"), f"{cpath}.{c}.value", 0, 999)
        if v is not None:
            chars7[c.upper()] = v
    chars, note = seventh_to_coc(chars7)
    if chars:
        assumed.append(f"{cpath}: {note}")
        lines.append((" ".join(f"{k} {v}" for k, v in chars.items()), cpath))
    attribs = body["attribs"]
    hp = _dict(attribs.get("hp"), f"{root}.attribs.hp")
    hp_v = _num(hp.get("max") if hp.get("max") not in (None, "") else hp.get("value"), f"{root}.attribs.hp.max", 0, 999)
    if hp_v is not None:
        lines.append((f"HP {hp_v}", f"{root}.attribs.hp"))  # 7e (CON+SIZ)/10 is coc's (CON+SIZ)/2
        now = hp.get("value")
        if now not in (None, "") and hp.get("max") not in (None, "") and str(now) != str(hp.get("max")):
            # the actor is wounded: a stat block holds the NPC whole, so the wounds are said, not kept
            unread.append({"path": f"{root}.attribs.hp.value",
                           "text": f"HP {now} of {hp_v} (wounds taken in play: a stat block holds the NPC unhurt)"})
    pow7 = chars7.get("POW")
    derived = {"mp": pow7 // 5 if pow7 is not None else None, "san": pow7}  # 7e: MP = POW/5, starting SAN = POW
    recomputed = []
    for a in ("mp", "san", "lck", "mov", "db", "build"):
        v = _dict(attribs.get(a), f"{root}.attribs.{a}").get("value")
        if v in (None, "", 0, "0"):
            continue
        if a in ("mov", "db", "build"):
            recomputed.append(f"{a.upper()} {v}")
        elif a in derived and str(v) == str(derived[a]):
            continue  # what the characteristics give
        else:  # the NPC's own SAN / MP / Luck: what only CoC states (carried through other systems)
            lines.append((f"{ {'mp': 'MP', 'san': 'SAN', 'lck': 'Luck'}[a]} {v}", f"{root}.attribs.{a}"))
    if recomputed:
        assumed.append(f"{root}.attribs: " + ", ".join(recomputed) + " not carried: coc derives movement and the "
                       "damage bonus from the characteristics")
    items = plain.get("items") or []
    if not isinstance(items, list):
        raise InputError("wrong type", path="$.items", expected="a list of items", found=type(items).__name__)
    skills: dict[str, int] = {}
    gear: list[str] = []
    armor = _dict(attribs.get("armor"), f"{root}.attribs.armor").get("value")
    if armor not in (None, "", 0, "0"):
        unread.append({"path": f"{root}.attribs.armor", "text": f"armor {armor} (a coc armor is an item with its "
                       "A/B values: name the armor in the notes or add it to the converted document)"})
    for i, item in enumerate(items):
        path = f"$.items[{i}]"
        if not isinstance(item, dict) or item.get("type") != "skill":
            continue
        ib = _dict(item.get(key), f"{path}.{key}")
        name = _skill_name(item, ib)
        value = _num(ib.get("value"), f"{path}.{key}.value", -1, 999)
        if value is None or value < 0:  # "value": -1 means "computed": base + adjustments
            value = (_num(ib.get("base"), f"{path}.{key}.base", 0, 999) or 0) + sum(
                _num(v, f"{path}.{key}.adjustments.{k}", -999, 999) or 0
                for k, v in _dict(ib.get("adjustments"), f"{path}.{key}.adjustments").items())
        skills[name] = value
        lines.append((f"Skills: {name} {value}%", path))
    for i, item in enumerate(items):
        path = f"$.items[{i}]"
        if not isinstance(item, dict) or item.get("type") == "skill":
            continue
        if item.get("type") in GEAR:
            gear.append(f"{path} {item.get('name')!r}")
            continue
        if item.get("type") == "spell" and str(item.get("name") or "").strip():
            lines.append((f"Spells: {one_line(item['name'])}", path))
            continue
        if item.get("type") != "weapon":
            unread.append({"path": path, "text": f"{item.get('type')} {item.get('name')!r} (no place in a coc "
                           "document)"})
            continue
        line = _weapon(item, _dict(item.get(key), f"{path}.{key}"), f"{path}.{key}", skills, unread, path)
        if line is not None:
            lines.append((line, path))
    if gear:
        assumed.append("equipment not carried (a stat block lists combat material only): " + ", ".join(gear))
    desc = body.get("description")
    text = desc.get("keeper") if isinstance(desc, dict) else None
    bio = _dict(body.get("biography"), f"{root}.biography").get("personalDescription")
    notes = [t for t in (text, bio.get("value") if isinstance(bio, dict) else None) if isinstance(t, str) and t.strip()]
    if notes:
        lines.append(("Notes: " + one_line(" ".join(re.sub(r"<[^>]+>", " ", t) for t in notes)), f"{root}.description"))
    return read_lines(lines, FORMAT, "coc", assumed=assumed, unread=unread)


def _skill_name(item: dict[str, Any], ib: dict[str, Any]) -> str:
    name = str(item.get("name") or ib.get("skillName") or "")
    spec = ib.get("specialization")
    if isinstance(spec, str) and spec and "(" not in name:
        name = f"{spec} ({ib.get('skillName') or name})"
    return name


def _weapon(item: dict[str, Any], ib: dict[str, Any], root: str, skills: dict[str, int],
            unread: list[dict[str, str]], path: str) -> str | None:
    name = str(item.get("name") or "")
    props = _dict(ib.get("properties"), f"{root}.properties")
    skill_name = str(_dict(_dict(ib.get("skill"), f"{root}.skill").get("main"), f"{root}.skill.main").get("name") or "")
    natives = coc_skill(skill_name)
    skill = weapon_skill(skill_name, name)
    rng = _dict(_dict(ib.get("range"), f"{root}.range").get("normal"), f"{root}.range.normal")
    if props.get("melee") or not props.get("rngd", True) or (natives and natives[0] == "Fist/Punch"):
        # a close-combat attack (issue 20): the coc document's melee line
        parts = [name]
        if str(rng.get("damage") or "").strip():
            parts.append(f"damage {str(rng['damage']).strip()}")
        parts.append(f"skill {natives[0] if natives else (skill_name or name)}")
        return "Melee: " + ", ".join(parts) + ";"
    parts = [name]
    damage = str(rng.get("damage") or "").strip()
    bands = [str(_dict(_dict(ib.get("range"), f"{root}.range").get(b), f"{root}.range.{b}").get("damage") or "").strip()
             for b in ("long", "extreme")]
    if damage and any(b and b.upper() != damage.upper() for b in bands):  # a shotgun: damage by range band
        damage = "/".join([damage] + [b for b in bands if b])
    if damage:
        parts.append(f"damage {damage}")
    dist = rng.get("value")
    if dist not in (None, "", 0, "0"):
        unit = UNITS.get(str(rng.get("units") or "").strip().lower())
        if unit is None:
            raise InputError("unknown range unit", path=f"{root}.range.normal.units", expected=", ".join(UNITS),
                             found=repr(rng.get("units")))
        parts.append(f"base range {dist} {unit}")
    if skill:
        parts.append(f"skill {skill}")
    uses = _dict(ib.get("usesPerRound"), f"{root}.usesPerRound")
    per_round = _num(uses.get("normal"), f"{root}.usesPerRound.normal", 0, 100)
    if per_round and per_round > 1:
        parts.append(f"{per_round} shots per round")
    if uses.get("burst") not in (None, "", 0) or props.get("auto") or props.get("brst"):
        parts.append("burst")
    bullets = _num(ib.get("bullets"), f"{root}.bullets", 0, 10_000)
    if bullets:
        parts.append(f"capacity {bullets}")
    malf = _num(ib.get("malfunction"), f"{root}.malfunction", 0, 100)
    if malf:
        parts.append(f"malfunction {malf}")
    return "Weapons: " + ", ".join(parts)


READERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "v10": lambda plain: read_actor(plain, "system"),
    "v9": lambda plain: read_actor(plain, "data"),
}
