"""Foundry VTT ``mta`` (Chronicles of Darkness 2nd edition) actor JSON -> an nwod NPC (plain data).

Readers by upstream data model (``READERS``): Foundry 10 and later keep the actor's data in
``system``, Foundry 9 and earlier in ``data``; the mta fields are the same in both:
``attributes_physical.strength.value``, ``skills_physical.firearms.value`` (with
``specialties``), ``health.max``, ``willpower.max``, ``derivedTraits.size/speed/defense``,
and items of type ``firearm`` (``damage``, ``ranges.short/medium/long`` in yards,
``capacity``), ``merit`` (``rating``) and ``armor`` (``rating``, ``ballistic``).
"""

from __future__ import annotations

import re
from typing import Any, Callable

import msgspec

from xsys.core.errors import InputError
from xsys.plugins.textblock.compose import Line, one_line, read_lines

FORMAT = "foundry-mta"
ATTRIBUTES = {
    "attributes_mental": ("intelligence", "wits", "resolve"),
    "attributes_physical": ("strength", "dexterity", "stamina"),
    "attributes_social": ("presence", "manipulation", "composure"),
}
SKILL_GROUPS = ("skills_mental", "skills_physical", "skills_social")
# camelCase keys of the mta system -> the skill names nWoD prints
SKILL_NAMES = {"animalKen": "Animal Ken"}

# What Chronicles of Darkness (2nd edition) does differently from the 2004 rules nwod plays:
# reported once for every actor read (the numbers are carried over as they are).
EDITION_NOTES = (
    "Chronicles of Darkness is the 2nd edition: Defense there is the lower of Wits and Dexterity plus Athletics; "
    "nwod (2004) recomputes Defense as the lower of Wits and Dexterity",
    "a 2nd-edition weapon's damage adds to the successes of a hit; in 2004 it adds dice to the pool: the rating is "
    "carried over as the 2004 dice bonus",
    "2nd-edition Integrity, Beats, Aspirations and Conditions have no place in an nwod document",
)


def data_model(plain: Any) -> str | None:
    if not isinstance(plain, dict) or not isinstance(plain.get("name"), str):
        return None
    for key, model in (("system", "v10"), ("data", "v9")):
        body = plain.get(key)
        if isinstance(body, dict) and isinstance(body.get("attributes_physical"), dict) \
                and isinstance(body.get("skills_physical"), dict):
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
        raise InputError("not a Foundry VTT mta (Chronicles of Darkness) actor", path="$",
                         expected='{"name", "system": {"attributes_physical": {...}, "skills_physical": {...}}}',
                         found="keys " + ", ".join(sorted(map(str, plain))[:8]) if isinstance(plain, dict)
                         else type(plain).__name__)
    return READERS[model](plain)


def _dots(value: Any, path: str, hi: int = 10) -> int | None:
    if isinstance(value, dict):
        value = value.get("value")
    if value is None or value == "":
        return None
    if isinstance(value, str) and re.fullmatch(r"\s*\d+\s*", value):
        value = int(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError("not a number", path=path, expected="a whole number of dots", found=repr(value))
    if not 0 <= value <= hi:
        raise InputError("out of range", path=path, expected=f"0 to {hi}", found=str(value))
    return value


def _obj(value: Any, path: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InputError("wrong type", path=path, expected="an object", found=type(value).__name__)
    return value


def read_actor(plain: dict[str, Any], key: str) -> dict[str, Any]:
    body = plain[key]
    root = f"$.{key}"
    unread: list[dict[str, str]] = []
    assumed = [f"{root}: {note}" for note in EDITION_NOTES]
    lines: list[Line] = [(plain["name"], "$.name")]
    attrs = []
    for group, names in ATTRIBUTES.items():
        g = _obj(body.get(group), f"{root}.{group}")
        for a in names:
            v = _dots(g.get(a), f"{root}.{group}.{a}.value")
            if v is not None:
                attrs.append(f"{a.capitalize()} {v}")
    if attrs:
        lines.append(("Attributes: " + ", ".join(attrs), f"{root}.attributes_*"))
    for group in SKILL_GROUPS:
        g = _obj(body.get(group), f"{root}.{group}")
        for k, entry in g.items():
            path = f"{root}.{group}.{k}"
            v = _dots(entry, f"{path}.value")
            if not v:
                continue
            name = SKILL_NAMES.get(k, k[:1].upper() + k[1:])
            spec = entry.get("specialties") if isinstance(entry, dict) else None
            specs = [one_line(s) for s in spec if isinstance(s, str) and s.strip()] if isinstance(spec, list) else []
            lines.append((f"Skills: {name}" + (f" ({', '.join(specs)})" if specs else "") + f" {v}", path))
    derived = []
    traits = _obj(body.get("derivedTraits"), f"{root}.derivedTraits")
    size = _dots(_obj(traits.get("size"), f"{root}.derivedTraits.size").get("value"), f"{root}.derivedTraits.size.value")
    if size:
        derived.append(f"Size {size}")
    health = _dots(_obj(body.get("health"), f"{root}.health").get("max"), f"{root}.health.max", 30)
    if health:
        derived.append(f"Health {health}")
    will = _dots(_obj(body.get("willpower"), f"{root}.willpower").get("max"), f"{root}.willpower.max")
    # damage and spent Willpower from play (a track below its max): a stat block holds the NPC
    # whole, so they are said, not kept
    hurt = {k: v for k, v in _obj(body.get("health"), f"{root}.health").items()
            if k in ("value", "lethal", "aggravated") and isinstance(v, int) and health and v < health}
    if hurt:
        unread.append({"path": f"{root}.health", "text": "Health damage taken in play (" + ", ".join(
            f"{ {'value': 'bashing', 'lethal': 'lethal', 'aggravated': 'aggravated'}[k]} track at {v} of {health}"
            for k, v in hurt.items()) + "): a stat block holds the NPC unhurt"})
    spent = _obj(body.get("willpower"), f"{root}.willpower").get("value")
    if isinstance(spent, int) and will and spent < will:
        unread.append({"path": f"{root}.willpower.value",
                       "text": f"Willpower {spent} of {will} (spent in play: a stat block holds the full value)"})
    if will:
        derived.append(f"Willpower {will}")
    if derived:
        lines.append((", ".join(derived), f"{root}.health"))
    items = plain.get("items") or []
    if not isinstance(items, list):
        raise InputError("wrong type", path="$.items", expected="a list of items", found=type(items).__name__)
    for i, item in enumerate(items):
        path = f"$.items[{i}]"
        if not isinstance(item, dict):
            raise InputError("wrong type", path=path, expected="an item", found=type(item).__name__)
        ib = _obj(item.get(key), f"{path}.{key}")
        kind, name = item.get("type"), one_line(item.get("name") or "")
        if kind == "firearm":
            lines.append((_firearm(name, ib, f"{path}.{key}"), path))
        elif kind == "merit":
            rating = _dots(ib.get("rating"), f"{path}.{key}.rating")
            lines.append((f"Merits: {name} {rating or 1}", path))
        elif kind == "armor":
            general = _dots(ib.get("rating"), f"{path}.{key}.rating") or 0
            ballistic = _dots(ib.get("ballistic"), f"{path}.{key}.ballistic") or 0
            lines.append((f"Armor: {name} {general}/{ballistic}", path))
        else:
            unread.append({"path": path, "text": f"{kind} {name!r} (no place in an nwod document)"})
    for field in ("integrity", "beats", "aspirations"):
        if body.get(field) not in (None, "", 0, 7 if field == "integrity" else None):
            unread.append({"path": f"{root}.{field}", "text": f"{field} {body[field]!r} (2nd edition; no place in "
                           "an nwod document)"})
    notes = " ".join(re.sub(r"<[^>]+>", " ", str(body.get(k))) for k in ("description", "notes")
                     if isinstance(body.get(k), str) and body.get(k).strip())
    if notes:
        lines.append((f"Notes: {one_line(notes)}", f"{root}.description"))
    return read_lines(lines, FORMAT, "nwod", assumed=assumed, unread=unread)


def _firearm(name: str, ib: dict[str, Any], root: str) -> str:
    parts = [f"Damage {_dots(ib.get('damage'), f'{root}.damage') or 0}"]
    rng = _obj(ib.get("ranges"), f"{root}.ranges")
    bands = [_dots(rng.get(b), f"{root}.ranges.{b}", 10_000) for b in ("short", "medium", "long")]
    if all(b for b in bands):
        parts.append("Ranges " + "/".join(str(b) for b in bands) + " yd")
    clip = _dots(ib.get("capacity"), f"{root}.capacity", 10_000)
    if clip:
        parts.append(f"Clip {clip}")
    size = _dots(ib.get("size"), f"{root}.size")
    if size:
        parts.append(f"Size {size}")
    strength = _dots(ib.get("strength"), f"{root}.strength")
    if strength:
        parts.append(f"Strength {strength}")
    return f"Weapons: {name} ({', '.join(parts)})"


READERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "v10": lambda plain: read_actor(plain, "system"),
    "v9": lambda plain: read_actor(plain, "data"),
}
