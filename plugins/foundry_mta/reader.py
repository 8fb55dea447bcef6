"""Foundry VTT ``mta`` (Chronicles of Darkness 2nd edition) actor JSON -> an nwod NPC (plain data).

Readers by upstream data model (``READERS``): Foundry 10 and later keep the actor's data in
``system``, Foundry 9 and earlier in ``data``; the mta fields are the same in both:
``attributes_physical.strength.value``, ``skills_physical.firearms.value`` (with
``specialties``), ``health.max``, ``willpower.max``, ``derivedTraits.size/speed/defense``,
and items of type ``firearm`` (``damage``, ``ranges.short/medium/long`` in yards,
``capacity``), ``merit`` (``rating``) and ``armor`` (``rating``, ``ballistic``).
"""

from __future__ import annotations

import html
import re
from typing import Any, Callable

import msgspec

from xsys.core.errors import InputError
from xsys.core.textblock import Line, one_line, read_lines
from xsys.plugins.nwod.text import SECOND_EDITION_STEP, second_edition_rating

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
    "a 2nd-edition weapon's damage adds to the successes of a hit; in 2004 it adds dice to the pool: each weapon is "
    "written at the 2004 chart's rating of that weapon, one more than the 2nd edition's (WEAPON_RATING_STEP)",
    "2nd-edition Integrity, Beats, Aspirations and Conditions have no place in an nwod document",
)


# What a 2nd-edition weapon rating is in the 2004 charts (assumed, README): the two editions' charts
# rate every weapon both print one apart, the 2004 chart one higher: Revolver lt 1 / 2 (SW M640),
# Revolver hvy 2 / 3, Pistol lt 1 / 2 (Glock 17), Pistol hvy 2 / 3, SMG small 1 / 2, SMG large 2 / 3,
# Rifle 4 / 5 (Remington M-700), Assault Rifle 3 / 4 (Steyr AUG), Shotgun 3 / 4, Crossbow 2 / 3;
# Sap, Brass Knuckles, Knife and Stake 0 / 1, Rapier 1 / 2, Spear 2 / 3 (a hatchet 1 is the small
# ax's 2); bare hands (a Fists item) are no weapon in either, 0. The 2004 rating of the same weapon is
# what an nwod sheet writes for it (nwod.weapon.chart); the nwod text reader reads a 2nd-edition
# block's weapons by the same rule (second_edition_rating).
WEAPON_RATING_STEP = SECOND_EDITION_STEP

# the supernatural templates of the mta system's "character" actor: the trait groups each one
# fills (template.json); an nwod document has no place for them, so they are reported
TEMPLATE_TRAITS = {
    "mage": ("mage_traits", "arcana_gross", "arcana_subtle"), "vampire": ("vampire_traits", "disciplines_common",
                                                                          "disciplines_unique", "disciplines_own"),
    "werewolf": ("werewolf_traits", "werewolf_renown"), "changeling": ("changeling_traits",),
    "demon": ("demon_traits",), "hunter": ("hunter_traits",), "sinEater": ("sineater_traits", "haunts"),
    "mummy": ("mummy_traits", "mummy_pillars"), "deviant": ("deviant_traits",), "promethean": ("promethean_traits",),
}
# the rest of each template's own fields (template.json Actor.templates: a werewolf's essence,
# auspice and tribe, a changeling's seeming, glamour, clarity and dream attributes ...): no place in an
# nwod document, said for the actor's own template only (every character actor holds every template's
# fields, most at a default: a mortal's glamour 10 is no changeling's)
TEMPLATE_FIELDS = {
    "mage": ("mana", "path", "order", "legacy", "nimbus", "obsessions", "shadowName"),
    "vampire": ("clan", "bloodline", "covenant", "vitae", "banes"),
    "changeling": ("seeming", "kith", "court", "glamour", "clarity", "attributes_physical_dream",
                   "attributes_social_dream", "attributes_mental_dream"),
    "werewolf": ("auspice", "tribe", "lodge", "essence"), "demon": ("incarnation", "agenda", "catalyst", "aether"),
    "hunter": ("cell", "compact", "conspiracy"), "sinEater": ("burden", "plasm"),
}
# the actor's characterType as the system writes it (module/config.js MTA.characterTypes: "Mage",
# "Vampire", "Sin-Eater" ...), its letters alone and lower case -> the template whose traits it has:
# a Scelesti or Proximi is a kind of mage, a Ghoul draws on a vampire's traits
CHARACTER_TYPES = {"mage": "mage", "scelesti": "mage", "proximi": "mage", "vampire": "vampire", "ghoul": "vampire",
                   "werewolf": "werewolf", "changeling": "changeling", "demon": "demon", "hunter": "hunter",
                   "sineater": "sinEater", "mummy": "mummy", "deviant": "deviant", "promethean": "promethean"}
# actor types of the mta system with no Attributes and Skills to read (template.json Actor.types):
# a spirit, ghost or angel (Rank, Power, Finesse, Resistance) and a brief nightmare (dice pools)
NO_STAT_BLOCK = {"ephemeral": "eph_physical", "brief_nightmare": "best_dice_pool"}


def data_model(plain: Any) -> str | None:
    if not isinstance(plain, dict) or not isinstance(plain.get("name"), str):
        return None
    for key, model in (("system", "v10"), ("data", "v9")):
        body = plain.get(key)
        field = NO_STAT_BLOCK.get(str(plain.get("type")))
        if field is not None and isinstance(body, dict) and field in body:
            return "none"  # an mta actor, but none this reader can hold: refused by name (_refuse)
        # a "simple_antagonist" actor (the system's quick Storyteller character) has the
        # attributes and no skills: its rolls are dice-pool items
        if isinstance(body, dict) and isinstance(body.get("attributes_physical"), dict) \
                and (isinstance(body.get("skills_physical"), dict) or plain.get("type") == "simple_antagonist"):
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
    size_entry = _obj(traits.get("size"), f"{root}.derivedTraits.size")
    size = _dots(size_entry.get("value"), f"{root}.derivedTraits.size.value")
    if not size:
        # a saved actor keeps the template's 0: the system works Size out when the actor is
        # prepared (5, plus the sheet's modifier), and so does this reader
        mod = size_entry.get("mod") if isinstance(size_entry.get("mod"), int) else 0
        if mod:
            size = 5 + mod
            assumed.append(f"{root}.derivedTraits.size: Size {size} = 5 + the sheet's modifier {mod:+d} (the mta "
                           "system's own rule)")
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
        if kind in ("firearm", "melee"):
            lines.append((_weapon(name, ib, f"{path}.{key}", kind, unread, path, assumed), path))
        elif kind == "merit":
            rating = _dots(ib.get("rating"), f"{path}.{key}.rating")
            if rating == 0:  # an entry of no dots: nothing bought (every merit has one dot or more)
                unread.append({"path": f"{path}.{key}.rating", "text": f"merit {name!r} at 0 dots (not bought: "
                               "a merit has one dot or more); not written"})
            else:  # no rating: template.json's default, 1
                lines.append((f"Merits: {name} {1 if rating is None else rating}", path))
        elif kind == "armor":
            general = _dots(ib.get("rating"), f"{path}.{key}.rating") or 0
            ballistic = _dots(ib.get("ballistic"), f"{path}.{key}.ballistic") or 0
            if ib.get("equipped") is False:  # kept in the van, not worn: no armor of his in a fight
                unread.append({"path": f"{path}.{key}.equipped", "text": f"armor {name!r} {general}/{ballistic}: not "
                               "worn (equipped: false); not written"})
                continue
            lines.append((f"Armor: {name} {general}/{ballistic}", path))
            mods = [f"{label} {v:+d}" for label, f in (("Defense", "defenseMod"), ("Speed", "speedMod"))
                    if (v := _signed(ib.get(f)))]
            if mods:
                unread.append({"path": f"{path}.{key}", "text": f"armor {name!r}: {', '.join(mods)} (no field in an "
                               "nwod armor line)"})
        elif kind in ("combat_dice_pool", "general_dice_pool"):
            pool = ib.get("value")
            dmg = f", damage {ib.get('damage')}" if kind == "combat_dice_pool" and ib.get("damage") else ""
            unread.append({"path": path, "text": f"{kind.replace('_', ' ')} {name!r}: {pool} dice{dmg} (a simple "
                           "antagonist's pool; an nwod document rolls Attribute + Skill)"})
        else:
            unread.append({"path": path, "text": f"{kind} {name!r} (no place in an nwod document)"})
    ctype = body.get("characterType")
    template = CHARACTER_TYPES.get(re.sub(r"[^a-z]", "", ctype.lower())) if isinstance(ctype, str) else None
    for group in TEMPLATE_TRAITS.get(template or "", ()):
        values = body.get(group)
        if not isinstance(values, dict):
            continue
        said = [f"{_words(k)} {v['value']}" for k, v in values.items() if isinstance(v, dict) and isinstance(v.get("value"), int)
                and not isinstance(v.get("value"), bool) and v["value"] > 0]
        if said:
            unread.append({"path": f"{root}.{group}", "text": f"{ctype} traits: " + ", ".join(said)
                           + " (a supernatural template: no place in an nwod document)"})
    fields = [f"{'Dream' if f.endswith('_dream') else _words(f)} {said}" for f in TEMPLATE_FIELDS.get(template or "", ())
              if (said := _field_text(body.get(f)))]
    if fields:
        unread.append({"path": root, "text": f"{ctype}: " + ", ".join(fields)
                       + " (a supernatural template: no place in an nwod document)"})
    for field in ("integrity", "beats", "aspirations", "virtue", "vice"):
        if body.get(field) not in (None, "", 0, 7 if field == "integrity" else None):
            unread.append({"path": f"{root}.{field}", "text": f"{field} {body[field]!r} (2nd edition; no place in "
                           "an nwod document)"})
    notes = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", str(body.get(k)))) for k in ("description", "notes")
                     if isinstance(body.get(k), str) and body.get(k).strip())
    if notes:
        lines.append((f"Notes: {one_line(notes)}", f"{root}.description"))
    doc = read_lines(lines, FORMAT, "nwod", assumed=assumed, unread=unread)
    report = doc.setdefault("xsys", {}).setdefault("read", {"format": FORMAT})
    report["reader"] = (f"foundry-mta actor ({plain.get('type') or 'character'}), Foundry "
                        + ("v10+ data model (system)" if key == "system" else "v9 data model (data)"))
    report["edition"] = ("Chronicles of Darkness 2nd edition (the mta system's rules), read into nwod (2004 rules): "
                         "the traits carry over as they are, what the editions do differently is reported")
    return doc


def _words(key: str) -> str:
    """A camelCase key of the mta system as words: bloodPotency -> Blood Potency."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", key[:1].upper() + key[1:])


def _weapon(name: str, ib: dict[str, Any], root: str, kind: str, unread: list[dict[str, str]], path: str,
            assumed: list[str]) -> str:
    """The weapon line of a firearm or melee item (template.json: damage, ranges, capacity,
    strengthReq, size, penetration, initiativeMod, damageType); a melee item has no ranges. Its
    damage is the 2004 chart's rating of the weapon (WEAPON_RATING_STEP), said in `assumed`."""
    rating = _dots(ib.get("damage"), f"{root}.damage") or 0
    now = second_edition_rating(name, rating)
    parts = [f"Damage {now}"]
    if now != rating:
        assumed.append(f"{root}.damage: {name}: 2nd-edition Damage {rating} is written as the 2004 chart's "
                       f"{now} (the charts rate each weapon both print one apart: a Glock 17 1 and 2)")
    if kind == "firearm":
        rng = _obj(ib.get("ranges"), f"{root}.ranges")
        bands = [_dots(rng.get(b), f"{root}.ranges.{b}", 10_000) for b in ("short", "medium", "long")]
        if all(b for b in bands):
            parts.append("Ranges " + "/".join(str(b) for b in bands) + " yd")
        clip = _dots(ib.get("capacity"), f"{root}.capacity", 10_000)
        if clip:
            parts.append(f"Clip {clip}")
    # a melee item's weaponType (module/config.js MTA.meleeTypes: Melee, Unarmed, Thrown): a thrown
    # one is a Thrown line (its ranges are its thrower's, nwod.range), an unarmed one fought bare-handed
    wtype = ib.get("weaponType") if kind == "melee" else None
    if wtype in ("Thrown", "Unarmed"):
        parts.append(f"Type {wtype}")
    size = _dots(ib.get("size"), f"{root}.size")
    if size:
        parts.append(f"Size {size}")
    # the mta system names the Strength requirement strengthReq; older actors wrote strength
    req = "strengthReq" if "strengthReq" in ib else "strength"
    strength = _dots(ib.get(req), f"{root}.{req}")
    if strength:
        parts.append(f"Strength {strength}")
    ap = _dots(ib.get("penetration"), f"{root}.penetration")
    if ap:
        parts.append(f"Armor piercing {ap}")
    at = f"{path}.{root.rsplit('.', 1)[-1]}"
    init = _signed(ib.get("initiativeMod"))  # (a number, or one saved as text: "-2")
    if init:
        unread.append({"path": f"{at}.initiativeMod", "text": f"{name}: Initiative {init:+d} (a 2nd-edition weapon "
                       "trait; no field in an nwod weapon)"})
    bonus = _signed(ib.get("diceBonus"))
    if bonus:
        unread.append({"path": f"{at}.diceBonus", "text": f"{name}: {bonus:+d} dice (equipment bonus; no field in an "
                       "nwod weapon)"})
    traits = [one_line(str(t)) for t in ib.get("traits") or () if one_line(str(t))] \
        if isinstance(ib.get("traits"), list) else []
    if traits:
        unread.append({"path": f"{at}.traits", "text": f"{name}: {', '.join(traits)} (no field in an nwod weapon)"})
    dtype = ib.get("damageType")
    if isinstance(dtype, str) and dtype not in ("", "lethal"):
        unread.append({"path": f"{path}.{root.rsplit('.', 1)[-1]}.damageType", "text": f"{name}: {dtype} damage "
                       "(no field in an nwod weapon)"})
    return f"Weapons: {name} ({', '.join(parts)})"


def _field_text(value: Any) -> str:
    """A template field as words: text as it is, a gauge as value/max ('8/12'), a group of
    attributes as its non-zero values ('power 3, finesse 4'); '' for an empty or zero one."""
    if isinstance(value, str):
        return one_line(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value:g}" if value else ""
    if isinstance(value, dict) and "value" in value:
        v, most = value.get("value"), value.get("max")
        return "" if not v else f"{v}/{most}" if most not in (None, "") else str(v)
    if isinstance(value, dict):
        return ", ".join(f"{k} {x['value']}" for k, x in value.items() if isinstance(x, dict) and x.get("value"))
    return ""


def _signed(value: Any) -> int | None:
    """A whole modifier as the sheet saves it, a number or its text ("-2"); None for anything else."""
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", value):
        return int(value)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _refuse(plain: dict[str, Any]) -> dict[str, Any]:
    kind = plain.get("type")
    body = plain.get("system") if isinstance(plain.get("system"), dict) else plain.get("data") or {}
    what = (f"a {body.get('ephemeralType') or 'spirit'} (Rank, Power, Finesse, Resistance, Essence)"
            if kind == "ephemeral" else "a brief nightmare (dice pools, no Attributes or Skills)")
    raise InputError(f"an mta {kind} actor is {what}: an nwod document holds a character's Attributes and Skills",
                     path="$.type", expected="a character or simple_antagonist actor", found=repr(kind))


READERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "none": _refuse,
    "v10": lambda plain: read_actor(plain, "system"),
    "v9": lambda plain: read_actor(plain, "data"),
}
