"""A coc7 (or coc) NPC document -> a Foundry VTT CoC7 actor (data model v10: ``system``), for
Foundry's ``Import Data``. A coc7 document is written as it is (its own values and names); a coc
one on the 7th-edition scale (x 5, the official conversion of earlier editions) with its skills
under their 7th-edition names. Weapons are embedded items with their skill, base range, damage,
uses per round, capacity and malfunction."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from xsys.core.errors import InputError
from xsys.core.textblock import weapon_tag

from .reader import CHARACTERISTICS

# coc skill -> the 7th-edition skill name Foundry's CoC7 system uses
SEVENTH = {"Handgun": "Firearms (Handgun)", "Rifle": "Firearms (Rifle)", "Shotgun": "Firearms (Shotgun)",
           "SMG": "Firearms (Submachine Gun)", "Machine Gun": "Firearms (Machine Gun)",
           "Fist/Punch": "Fighting (Brawl)", "Drive Auto": "Drive Auto"}


def actor_of(doc: dict[str, Any]) -> dict[str, Any]:
    if doc.get("kind") != "npc" or doc.get("system") not in ("coc7", "coc", "coc-zh"):
        raise InputError("a Foundry CoC7 actor holds one Call of Cthulhu NPC", path="$.kind",
                         expected="an npc of coc7 (convert with --to coc7)",
                         found=f"{doc.get('kind')} of {doc.get('system')}")
    factor = 1 if doc.get("system") == "coc7" else 5  # coc's 3-18 scale: the official x5
    chars = {c: {"value": int(doc[c.upper()]) * factor} for c in CHARACTERISTICS if doc.get(c.upper()) is not None}
    hp = doc.get("HP")
    if factor == 5 and hp is not None and doc.get("CON") and doc.get("SIZ"):
        # 7th edition's HP = (CON + SIZ) / 10 (coc7.derived), not 6th edition's ceil((CON + SIZ) / 2):
        # a stated HP keeps its distance from its own rule (the toughness: xsys.core.system.health_of)
        sixth, seventh = math.ceil((doc["CON"] + doc["SIZ"]) / 2), (doc["CON"] + doc["SIZ"]) * 5 // 10
        hp = max(1, math.floor(seventh * hp / sixth + 0.5))
    attribs: dict[str, Any] = {}
    if hp is not None:
        attribs["hp"] = {"value": hp, "max": hp, "auto": False}
    if doc.get("MOV") is not None:  # a coc7 sheet's movement rate
        attribs["mov"] = {"value": doc["MOV"]}
    for key, field in (("san", "SAN"), ("mp", "MP"), ("lck", "Luck")):  # stated: what only CoC states
        if doc.get(field) is not None:
            attribs[key] = {"value": doc[field], "max": doc[field]} if key == "mp" else {"value": doc[field]}
    items: list[dict[str, Any]] = []
    skills: dict[str, int] = doc.get("skills") or {}
    for name, value in skills.items():
        full = SEVENTH.get(name, name)
        spec, _, base = full.partition(" (")
        body: dict[str, Any] = {"skillName": base.rstrip(")") if base else full, "value": value,
                                "base": 0, "properties": {}}
        if base:
            body["specialization"] = spec
            body["properties"] = {"special": True, "firearm": spec == "Firearms", "fighting": spec == "Fighting",
                                  "combat": spec in ("Firearms", "Fighting")}
        items.append({"name": full, "type": "skill", "system": body})
    for w in doc.get("weapons") or []:
        value, _, unit = str(w.get("base_range", "")).partition(" ")
        try:
            dist: Any = float(value)
            dist = int(dist) if dist.is_integer() else dist
        except ValueError:
            dist = value
        body = {"skill": {"main": {"name": SEVENTH.get(w["skill"], w["skill"]), "id": ""}},
                "range": {"normal": {"value": dist, "units": unit or "m", "damage": str(w["damage"]).upper()}},
                "usesPerRound": _uses(w),
                "bullets": w.get("capacity") or None, "malfunction": w.get("malfunction") or None,
                "properties": {"rngd": True}}
        name = w["name"] + weapon_tag(w["name"], w.get("catalog"))
        items.append({"name": name, "type": "weapon", "system": body})
    for m in doc.get("melee") or []:  # close combat: a melee weapon item with its skill
        body = {"skill": {"main": {"name": SEVENTH.get(m["skill"], m["skill"]), "id": ""}},
                "range": {"normal": {"value": 0, "units": "", "damage": str(m.get("damage") or "").upper()}},
                "usesPerRound": {"normal": 1}, "properties": {"melee": True, "rngd": False}}
        items.append({"name": m["name"], "type": "weapon", "system": body})
    for spell in doc.get("spells") or []:
        items.append({"name": spell, "type": "spell", "system": {}})
    system: dict[str, Any] = {"characteristics": chars, "attribs": attribs}
    if doc.get("notes"):
        system["description"] = {"keeper": str(doc["notes"])}
    return {"name": doc.get("name", ""), "type": "npc", "system": system, "items": items,
            "_stats": {"systemId": "CoC7"}}


def _uses(w: dict[str, Any]) -> dict[str, Any]:
    """A weapon line's uses per round: coc7's as printed ("1 (3)", "1 or full auto"), coc's shots."""
    uses = w.get("uses_per_round")
    if uses is not None:
        m = re.match(r"\d+", str(uses))
        auto = bool(re.search(r"full auto|burst", str(uses), re.IGNORECASE))
        return {"normal": int(m.group(0)) if m else 1, "burst": 1 if auto else None}
    return {"normal": w.get("shots_per_round", 1), "burst": 1 if w.get("burst") else None}


def dump(doc: Any) -> bytes:
    return (json.dumps(actor_of(doc), ensure_ascii=False, indent=2) + "\n").encode("utf-8")
