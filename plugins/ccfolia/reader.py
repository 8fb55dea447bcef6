"""CCFOLIA clipboard character JSON -> a coc NPC document (plain data).

The clipboard format has one data model so far (``kind: "character"``, the fields of
``data`` below); ``READERS`` is keyed by it, so a change upstream is one more reader.
``params`` are the characteristics (values as strings or numbers), ``status`` the gauges
(HP, MP, SAN), ``commands`` one chat command a line: ``CCB<=60 【目星】`` is a skill,
``1d10 【ダメージ：拳銃：NAME】`` a weapon's damage (the form the writer uses), a command
with ``{STR}``-style references a roll derived from the characteristics.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import msgspec

from xsys.core.errors import InputError
from xsys.plugins.textblock.compose import Line, coc_skill, one_line, read_lines

FORMAT = "ccfolia"
MARK = "[xsys] "  # the memo line the writer adds: what the character has no place for
CHARACTERISTICS = ("STR", "CON", "POW", "DEX", "APP", "SIZ", "INT", "EDU")
# params a sheet writes that the characteristics determine (coc recomputes them)
DERIVED_PARAMS = {"db", "ダメージボーナス", "mov", "移動", "アイデア", "幸運", "知識", "idea", "luck", "know"}
_CHECK = re.compile(r"^(?:CCB|CC|CBRB|CBR|1d100)\s*<=\s*(?P<val>\d{1,3})\s*(?:【(?P<label>[^】]*)】|(?P<plain>\S.*))?$",
                    re.IGNORECASE)
_DERIVED = re.compile(r"\{[^}]+\}")
_DAMAGE = re.compile(r"^(?P<dice>\d+[dD]\d+(?:[+-]\d+(?:[dD]\d+)?)*)\s*【\s*(?:ダメージ判定|ダメージ|damage)"
                     r"\s*(?:[:：]\s*(?P<rest>[^】]*))?】$", re.IGNORECASE)


def claims(plain: Any) -> bool:
    return (isinstance(plain, dict) and plain.get("kind") == "character" and isinstance(plain.get("data"), dict))


def load(data: bytes) -> dict[str, Any]:
    try:
        plain = msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        raise InputError(f"malformed CCFOLIA JSON: {exc}") from None
    if not claims(plain):
        raise InputError("not a CCFOLIA clipboard character", path="$.kind",
                         expected='{"kind": "character", "data": {...}}',
                         found=repr(plain.get("kind")) if isinstance(plain, dict) else type(plain).__name__)
    return READERS["character"](plain["data"])


def _int(value: Any, path: str) -> int:
    if isinstance(value, bool):
        raise InputError("wrong type", path=path, expected="a whole number", found=repr(value))
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", value):
        return int(value)
    raise InputError("not a number", path=path, expected="a whole number (or its digits as text)", found=repr(value))


def _list(data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise InputError("wrong type", path=f"$.data.{key}", expected="a list", found=type(value).__name__)
    return value


def read_character(data: dict[str, Any]) -> dict[str, Any]:
    unread: list[dict[str, str]] = []
    lines: list[Line] = []
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InputError("a character needs a name", path="$.data.name", expected="a name", found=repr(name))
    lines.append((name, "$.data.name"))
    chars: dict[str, int] = {}
    for i, p in enumerate(_list(data, "params")):
        path = f"$.data.params[{i}]"
        if not isinstance(p, dict) or not isinstance(p.get("label"), str):
            raise InputError("wrong type", path=path, expected="{label, value}", found=repr(p))
        label = p["label"].strip()
        if label.upper() in CHARACTERISTICS:
            chars[label.upper()] = _int(p.get("value"), f"{path}.value")
        elif label.lower() not in DERIVED_PARAMS:
            unread.append({"path": path, "text": f"{label} {p.get('value')} (no place in a coc document)"})
    if chars:
        lines.append((" ".join(f"{k} {v}" for k, v in chars.items()), "$.data.params"))
    pow_ = chars.get("POW")
    for i, st in enumerate(_list(data, "status")):
        path = f"$.data.status[{i}]"
        if not isinstance(st, dict) or not isinstance(st.get("label"), str):
            raise InputError("wrong type", path=path, expected="{label, value, max}", found=repr(st))
        label = st["label"].strip().upper()
        if label in ("SAN", "正気度"):  # its max is 99 minus Cthulhu Mythos, not the NPC's sanity
            value = _int(st.get("value"), f"{path}.value")
        else:  # a gauge's full value
            full = st.get("max") if st.get("max") not in (None, 0, "") else st.get("value")
            value = _int(full, f"{path}.max")
            now = st.get("value")
            if full is st.get("max") and now not in (None, "") and str(now) != str(full):
                # spent or hurt in play (HP 4 of 11): a stat block holds the NPC whole; said, not kept
                unread.append({"path": f"{path}.value", "text": f"{st['label']} {now} of {value} (used up in play: "
                               "a stat block holds the full value)"})
        if label in ("HP", "耐久力"):
            lines.append((f"HP {value}", path))
        elif label in ("MP", "マジック・ポイント") and pow_ is not None and value == pow_:
            continue  # what POW gives: recomputed
        elif label in ("SAN", "正気度") and pow_ is not None and value == pow_ * 5:
            continue
        elif label in ("MP", "マジック・ポイント", "SAN", "正気度", "幸運", "LUCK"):  # the NPC's own: carried
            own = {"MP": "MP", "マジック・ポイント": "MP", "SAN": "SAN", "正気度": "SAN"}.get(label, "Luck")
            lines.append((f"{own} {value}", path))
        else:
            unread.append({"path": path, "text": f"{st['label']} {value} (no place in a coc document)"})
    commands = data.get("commands") or ""
    if not isinstance(commands, str):
        raise InputError("wrong type", path="$.data.commands", expected="text, one command a line",
                         found=type(commands).__name__)
    for n, raw in enumerate(commands.splitlines(), 1):
        path = f"$.data.commands line {n}"
        cmd = raw.strip()
        if not cmd:
            continue
        m = _CHECK.match(cmd)
        if m and (m.group("label") or m.group("plain")):
            label = (m.group("label") or m.group("plain")).strip()
            lines.append((f"Skills: {label} {m.group('val')}%", path))
            continue
        if _DERIVED.search(cmd):
            continue  # e.g. CCB<={SAN}, CCB<={INT}*5: rolls the characteristics give
        d = _DAMAGE.match(cmd)
        if d:
            weapon = _weapon_line(d.group("dice"), d.group("rest") or "")
            if weapon is not None:
                lines.append((weapon, path))
                continue
        unread.append({"path": path, "text": cmd})
    memo = data.get("memo")
    if isinstance(memo, str):
        memo = "\n".join(x for x in memo.splitlines() if not x.startswith(MARK))
        if memo.strip():
            lines.append((f"Notes: {one_line(memo)}", "$.data.memo"))
    return read_lines(lines, FORMAT, "coc", unread=unread)


def _weapon_line(dice: str, rest: str) -> str | None:
    """'ダメージ：拳銃：NAME' (as the writer puts it), 'ダメージ：NAME' or 'ダメージ：拳銃'."""
    parts = [x.strip() for x in re.split(r"[：]", rest, maxsplit=1)] if rest else []
    skill = None
    name = None
    if parts and coc_skill(parts[0]):
        skill = coc_skill(parts[0])[0]
        name = parts[1] if len(parts) > 1 and parts[1] else parts[0]
    elif parts:
        name = "：".join(parts)
    if not name:
        return None
    return f"Weapons: {name}, damage {dice}" + (f", skill {skill}" if skill else "")


READERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {"character": read_character}
