"""A coc NPC document -> a CCFOLIA clipboard character (JSON), with its check commands.

Skills become ``CCB<=V 【名前】`` commands under the Japanese names Japanese CoC 6e sheets
print (the coc plugin's text.py; a skill with no Japanese name keeps its own), each weapon a damage
command ``1D10 【ダメージ：拳銃：NAME】`` that the reader reads back (a close-combat attack's
``1D3{DB} 【ダメージ：こぶし(パンチ)：NAME】``, with a ``DB`` param CCFOLIA puts in), and the rolls a sheet
derives from characteristics (SAN, アイデア, 幸運, 知識) the ``{STR}``-style commands CCFOLIA
computes itself. What a CCFOLIA character has no place for (a weapon's base range, capacity,
armor) is written in the memo, and the YAML or JSON output keeps it whole.
"""

from __future__ import annotations

import json
import re
from typing import Any

from xsys.core.errors import InputError
from xsys.core.textblock import weapon_tag
from xsys.plugins.coc.names import japanese_name

from .reader import CHARACTERISTICS, MARK


def _length(v: Any) -> str:
    parts = str(v).split()
    try:
        num = float(parts[0])
        return (f"{num:g} " + " ".join(parts[1:])).strip()
    except (ValueError, IndexError):
        return str(v)


def character_of(doc: dict[str, Any]) -> dict[str, Any]:
    if doc.get("kind") != "npc" or doc.get("system") not in ("coc", "coc-zh"):
        raise InputError("a CCFOLIA character holds one Call of Cthulhu NPC", path="$.kind",
                         expected="an npc of coc (convert with --to coc)",
                         found=f"{doc.get('kind')} of {doc.get('system')}")
    chars = {k: int(doc[k]) for k in CHARACTERISTICS if doc.get(k) is not None}
    hp = doc.get("HP")
    if hp is None and "CON" in chars and "SIZ" in chars:
        hp = -(-(chars["CON"] + chars["SIZ"]) // 2)
    status = [{"label": "HP", "value": hp, "max": hp}] if hp is not None else []
    if "POW" in chars or doc.get("MP") is not None or doc.get("SAN") is not None:
        mp = doc.get("MP") if doc.get("MP") is not None else chars.get("POW")
        san = doc.get("SAN") if doc.get("SAN") is not None else chars["POW"] * 5 if "POW" in chars else None
        status += [x for x in ({"label": "MP", "value": mp, "max": mp}, {"label": "SAN", "value": san, "max": 99})
                   if x["value"] is not None]
    if doc.get("Luck") is not None:  # stated: else the 【幸運】 roll is POW x 5
        status.append({"label": "幸運", "value": doc["Luck"], "max": doc["Luck"]})
    params = [{"label": k, "value": str(v)} for k, v in chars.items()]
    skills: dict[str, int] = doc.get("skills") or {}
    commands = ["CCB<={SAN} 【正気度ロール】", "CCB<={INT}*5 【アイデア】",
                "CCB<={幸運} 【幸運】" if doc.get("Luck") is not None else "CCB<={POW}*5 【幸運】"]
    commands += ["CCB<={EDU}*5 【知識】"] if "EDU" in chars else []  # (a creature has no EDU: no Know roll)
    commands += [f"CCB<={v} 【{japanese_name(k) or k}】" for k, v in skills.items()]
    memo = [str(doc.get("notes") or "")] if doc.get("notes") else []
    left: list[str] = []  # what a CCFOLIA character has no place for
    for w in doc.get("weapons") or []:
        skill = w.get("skill")
        label = japanese_name(skill) or skill
        name = w["name"] + weapon_tag(w["name"], w.get("catalog"))
        commands.append(f"{str(w['damage']).upper()} 【ダメージ：{label}：{name}】")
        extra = [f"基本射程 {_length(w['base_range'])}"] if w.get("base_range") else []
        if w.get("capacity"):
            extra.append(f"装弾数 {w['capacity']}")
        if w.get("shots_per_round", 1) != 1:
            extra.append(f"攻撃回数 {w['shots_per_round']}")
        if extra:
            left.append(f"{w['name']} ({', '.join(extra)})")
    with_db = False
    for m in doc.get("melee") or []:  # close combat: its damage roll, named by its skill
        if m.get("damage"):
            label = japanese_name(m.get("skill")) or m.get("skill")
            dice, db = re.subn(r"\+\s*db$", "", str(m["damage"]), flags=re.IGNORECASE)
            with_db = with_db or bool(db)
            # {DB}: CCFOLIA puts the DB param in (signed: '+1D4', '+0'), as the sheet sites write it
            commands.append(f"{dice.upper()}{'{DB}' if db else ''} 【ダメージ：{label}：{m['name']}】")
    if with_db and "STR" in chars and "SIZ" in chars:
        from xsys.plugins.coc.system import damage_bonus

        # the wielder's damage bonus (coc-ja.damage-bonus, assumed: the 6th-edition table)
        db_value = damage_bonus(chars["STR"], chars["SIZ"])
        params.append({"label": "DB", "value": db_value if db_value[0] in "+-" else f"+{db_value}"})
    for a in doc.get("armor") or []:
        left.append(f"防具 {a.get('name')}")
    meta = doc.get("xsys")
    if isinstance(meta, dict) and meta.get("losses"):
        left.append(f"converted from {meta.get('converted_from')}, {len(meta['losses'])} loss(es)")
    if left:  # one marked line, which the reader leaves out of the notes
        memo.append(MARK + "; ".join(left) + "; the YAML or JSON output keeps them")
    dex = chars.get("DEX", 0)
    return {"kind": "character", "data": {
        "name": doc.get("name", ""), "memo": "\n".join(m for m in memo if m), "initiative": dex,
        "externalUrl": "", "status": status, "params": params, "commands": "\n".join(commands)}}


def dump(doc: Any) -> bytes:
    """The character as JSON a person can read: one line per field, per gauge and per param."""
    char = character_of(doc)
    out = ["{", '  "kind": "character",', '  "data": {']
    items = list(char["data"].items())
    for i, (k, v) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if isinstance(v, list) and v:
            rows = [f"      {json.dumps(x, ensure_ascii=False)}" for x in v]
            out.append(f"    {json.dumps(k)}: [\n" + ",\n".join(rows) + f"\n    ]{comma}")
        else:
            out.append(f"    {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}{comma}")
    out += ["  }", "}"]
    return ("\n".join(out) + "\n").encode("utf-8")
