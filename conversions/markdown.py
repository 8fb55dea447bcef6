"""Printable Markdown: a stat block or scenario sheet in the target system's layout.

A system may provide ``markdown_npc(npc) -> str`` for its own conventional layout; the
generic layout lists characteristics first (as a one-line strip, the way most rulebooks
print them), then skills, weapons and armor as tables.

Everything a document says (names, notes, skill names, loss messages) is written as
text, never as Markdown or HTML: HTML is escaped (no ``<script>``, no ``<!--`` that would
hide the rest, such as the loss report), newlines and control characters cannot start a
heading or a list, and Markdown's own punctuation is backslash-escaped (no links, so no
``javascript:`` link, no emphasis, no table cells broken by ``|``)."""

from __future__ import annotations

from functools import lru_cache

import re
from typing import Any

import msgspec

from xsys.core import codec
from xsys.core.textblock import paragraph
from xsys.core.trace import report_lines

from .documents import NEUTRAL


def render(conv: Any, explain: bool = False, checks: Any = None, losses: str = "grouped") -> str:
    """The sheet of a conversion. `checks`: each shot's check in the target system, or the
    error that stopped it, in order (api.shot_checks; api.dump passes them); without them a
    shot or scenario sheet has no roll lines. `losses`: a roster's loss report grouped or
    full (lossgroups)."""
    from xsys.core.registry import default_registry

    doc = conv.document
    system = None if conv.target_system == NEUTRAL else default_registry().system(conv.target_system)
    label = system.label() if system else "neutral model"
    lines: list[str] = []
    plain = sheet_data(doc, (system.length_unit or None) if system is not None else None)
    plain.pop("system", None)
    plain.pop("kind", None)
    if conv.kind == "npc":
        lines += _npc(plain, system, doc, label)
    elif conv.kind == "roster":
        lines.append(f"# {md(plain.get(_name_key(doc)) or 'Roster')} — {md(label)}\n")
        for npc_plain, npc in zip(plain.get("npcs", []), getattr(doc, "npcs", [])):
            lines += _npc(npc_plain, system, npc, label, level=2)
    elif conv.kind == "shot":
        lines.append(f"# {md(plain.get(_name_key(doc, system, 'shot')) or 'Shot')} — {md(label)}\n")
        rolls = _rolls(conv, checks)
        if rolls:
            lines.append(rolls[0] + "\n")
        lines += _fields_table(plain)
    else:
        lines.append(f"# {md(plain.get(_name_key(doc)) or 'Scenario')} — {md(label)}\n")
        rolls_iter = iter(_rolls(conv, checks))
        if plain.get("notes"):
            lines.append(md(plain["notes"], block=True) + "\n")
        for scene, scene_doc in zip(plain.get("scenes", []), getattr(doc, "scenes", [])):
            lines.append(f"## {md(scene.get(_name_key(scene_doc)) or 'Scene')}\n")
            if scene.get("notes"):
                lines.append(md(scene["notes"], block=True) + "\n")
            for npc_plain, npc in zip(scene.get("combatants", []), getattr(scene_doc, "combatants", [])):
                lines += _npc(npc_plain, system, npc, label, level=3)
            for i, (shot, shot_doc) in enumerate(zip(scene.get("shots", []), getattr(scene_doc, "shots", []))):
                title = shot.get(_name_key(shot_doc, system, "shot"))
                lines.append(f"### Shot {i + 1}{': ' + md(title) if title else ''}{_who(shot)}\n")
                roll = next(rolls_iter, None) if rolls_iter is not None else None
                if roll:
                    lines.append(roll + "\n")
                lines += _fields_table(shot)
    if conv.losses:
        lines.append("\n## Loss report\n")
        lines += [f"- {md(text)}" for _, text, _ in report_lines(conv.loss_report(losses))]
    if explain and conv.trace:
        lines.append("\n## Trace\n")
        lines += [f"- {md(t.render())}" for t in conv.trace]
    return "\n".join(lines).rstrip() + "\n"


# ---- what a sheet shows -------------------------------------------------------------------
#
# A sheet shows every stat, those at their default too (an nWoD sheet without Dexterity, or a
# GURPS "average trained shooter" without ST, reads as "missing", not "average"); numbers as
# a table prints them (no float noise such as 0.20400000000000001 m), lengths in the unit the
# system's rulebook prints ranges in, a list of lengths as its bands (20/40/80 yd), and yes/no
# rather than True/False.


def number_text(value: float) -> str:
    """A number as a sheet prints it: at most three decimals, no trailing zeros."""
    r = round(float(value), 3)
    return str(int(r)) if r.is_integer() else f"{r:g}" if abs(r) < 1e6 else f"{r:.0f}"


def quantity_text(q: Any, unit: str | None = None) -> str:
    """A quantity in its canonical unit, rounded as a sheet prints it. A length on the sheet of a
    system whose rulebook prints another unit (`unit`: yards) is in that unit as a table reads it:
    whole ("15 yd"), else to a tenth, with the exact metres beside a tenth that rounds ("8.7 yd
    (8 m)"; "98.4 yd" as it is); one under a yard (a door's thickness) stays metric ("3.81 cm"),
    as no rulebook gives it in yards."""
    from xsys.core.units import Length

    if unit is not None and isinstance(q, Length):
        n = float(q.to(unit))
        if abs(n - round(n)) < 1e-6 and round(n) > 0:
            return f"{round(n)} {unit}"
        if n >= 1:  # to a tenth; the exact metres beside it unless that tenth is exact
            exact = abs(n * 10 - round(n * 10)) < 1e-6
            return f"{n:.1f} {unit}" + ("" if exact else f" ({number_text(float(q))} m)")
        if 0 < float(q) < 1:
            return f"{number_text(float(q.to('cm')))} cm"
    return f"{number_text(float(q))} {q.unit}"


def sheet_data(obj: Any, length_unit: str | None = None) -> Any:
    """A document as a sheet shows it: every field (defaults included, nothing that is None)."""
    import msgspec

    from xsys.core.units import _Quantity

    if isinstance(obj, msgspec.Struct):
        out = {}
        for f in _fields_of(type(obj)):
            v = getattr(obj, f.name)
            if v is None or (isinstance(v, str) and not v):  # nothing to show (a 0 is shown)
                continue
            out[f.encode_name] = sheet_data(v, length_unit)
        return out
    if isinstance(obj, dict):
        return {k: sheet_data(v, length_unit) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        items = [sheet_data(v, length_unit) for v in obj]
        if items and all(isinstance(v, _Quantity) for v in obj):  # bands: 20/40/80 yd
            unit = items[0].rsplit(" ", 1)[-1]
            if all(x.endswith(" " + unit) for x in items):
                return "/".join(x.rsplit(" ", 1)[0] for x in items) + " " + unit
        return items
    if isinstance(obj, _Quantity):
        return quantity_text(obj, length_unit)
    if isinstance(obj, bool):
        return "yes" if obj else "no"
    if isinstance(obj, float):
        return number_text(obj)
    return codec.to_builtins(obj)


@lru_cache(maxsize=512)
def _fields_of(cls: type) -> tuple[Any, ...]:
    """A Struct class's fields (msgspec builds them anew on each call: 12% of a served sheet)."""
    import msgspec

    return codec.struct_fields(cls)


def _name_key(obj: Any, system: Any = None, what: str = "npc", neutral: str = "name") -> str:
    """The key a document's name is written under: ``name``, or the field its plugin reads
    the neutral name from (``imię`` in a Polish stat block, ``nazwa`` on a Polish shot); with
    ``neutral="notes"``, the same for the notes (``opis``)."""
    import msgspec

    if not isinstance(obj, msgspec.Struct):
        return neutral
    fields = _fields_of(type(obj))
    if any(f.name == neutral for f in fields):
        return next(f.encode_name for f in fields if f.name == neutral)
    read = getattr(system, f"{what}_to_neutral", None) if what in ("npc", "shot") else None
    if read is not None:
        from xsys.core.trace import tracing

        try:
            with tracing(False):
                value = getattr(read(obj).value, neutral, None)
        except Exception:  # a sheet is rendered even where the plugin cannot read its item back
            value = None
        for f in fields:
            if value and getattr(obj, f.name) == value:
                return f.encode_name
    return neutral


def _who(shot: dict[str, Any]) -> str:
    """' (Shooter at Target)' for a shot heading, from the fields a system's shot names them in."""
    shooter = shot.get("shooter") or shot.get("strzelec")
    target = shot.get("target") or shot.get("cel")
    if isinstance(shooter, str) and isinstance(target, str):
        return f" ({md(shooter)} at {md(target)})"
    return f" ({md(shooter)})" if isinstance(shooter, str) else ""


def _rolls(conv: Any, checks: Any) -> list[str]:
    """For each shot of a converted shot or scenario, in order: the number the table rolls
    against, as the target system's own check says it (the nWoD dice pool, the Polish
    Trudność, the GURPS final modified skill, the CoC percentage), with its chance. `checks`
    holds each shot's check, or the error that stopped it (api.shot_checks): the sheet is
    given them rather than asking the API, which renders sheets through this module. Empty
    for the neutral model; a shot the system cannot check says so."""
    if conv.target_system == NEUTRAL or conv.kind not in ("shot", "scenario"):
        return []
    from xsys.core.errors import XsysError

    out = []
    for check in checks or ():
        if isinstance(check, XsysError):
            out.append(f"**Roll**: not checked ({md(check.message)})")
            continue
        said = check.native or f"{check.stat} {check.target}: {check.needs}"
        out.append(f"**Roll**: {md(said)} — {float(check.chance) * 100:.1f}% chance")
    return out


def _npc(plain: dict[str, Any], system: Any, native: Any, label: str, level: int = 1) -> list[str]:
    custom = system.markdown_npc(native) if system is not None and hasattr(system, "markdown_npc") else None
    if custom is not None:
        return [_plugin_markdown(custom)]
    h = "#" * level
    key = _name_key(native, system)
    out = [f"{h} {md(plain.get(key, 'NPC'))} — {md(label)}\n"]
    notes = _name_key(native, system, neutral="notes") if plain.get("notes") is None else "notes"
    scalars = {k: v for k, v in plain.items() if k not in (key, notes) and not isinstance(v, (dict, list))}
    # what the system's rules compute for the sheet, each with its rule (System.sheet_derived)
    derived = system.sheet_derived(native) if system is not None and hasattr(system, "sheet_derived") else {}
    shown = [f"**{md(k)}** {md(v)}" for k, v in scalars.items()]
    shown += [f"**{md(k)}** {md(v)} ({md(rule)})" for k, (v, rule) in derived.items() if k not in scalars]
    if shown:
        out.append(" · ".join(shown) + "\n")
    legend = system.sheet_legend() if system is not None and hasattr(system, "sheet_legend") else {}
    if system is not None and hasattr(system, "sheet_notes"):  # what this block's own lines need said
        for table, cols in system.sheet_notes(native).items():
            legend = {**legend, table: {**legend.get(table, {}), **cols}}
    for k, v in plain.items():
        if k == "carried" and isinstance(v, dict) and v:
            out += _carried(v, plain, system)
        elif isinstance(v, dict) and v:
            out.append(f"**{md(k)}**: " + ", ".join(f"{md(a)} {_cell(b)}" for a, b in v.items()) + "\n")
    for k, v in plain.items():
        if isinstance(v, list) and v and isinstance(v[0], dict):
            # the columns in the order the system's document declares its fields (GURPS's weapon
            # table reads name, damage, type, SS, Acc, 1/2D, Max, RoF, Shots, ST), the name first
            # a column with nothing in any row (an empty DR_at on every line) is not printed
            # values the rules or the catalog give where a row leaves them out (System.sheet_filled)
            fills = [system.sheet_filled(k, row) if system is not None and hasattr(system, "sheet_filled") else {}
                     for row in v]
            seen = list(dict.fromkeys([c for row in v for c in row if row[c] not in (None, "", {}, [])]
                                      + [c for fill in fills for c in fill]))
            # nor a yes/no column that is its field's default "no" on every row (the neutral melee
            # table's natural and special), as the YAML leaves such defaults out
            off = _false_by_default(native, k)
            seen = [c for c in seen if c not in off or any(row.get(c) not in (False, "no") for row in v)]
            rank = {c: i for i, c in enumerate(_field_order(native, k))}
            cols = sorted(seen, key=lambda c: (c != "name", rank.get(c, len(rank) + seen.index(c))))
            out.append(f"**{md(k)}**\n")
            out.append("| " + " | ".join(md(c) for c in cols) + " |")
            out.append("|" + "---|" * len(cols))
            filled: dict[str, list[str]] = {}
            for row, fill in zip(v, fills):
                # a column that does not apply to this row is blank (System.sheet_blank)
                blank = system.sheet_blank(k, row) if system is not None and hasattr(system, "sheet_blank") \
                    else frozenset()
                cells = []
                for c in cols:
                    if c in blank:
                        cells.append("")
                    elif row.get(c) in (None, "") and c in fill:
                        cells.append(_cell(fill[c][0]))
                        if fill[c][1] not in filled.setdefault(c, []):
                            filled[c].append(fill[c][1])
                    else:
                        cells.append(_cell(row.get(c, "")))
                out.append("| " + " | ".join(cells) + " |")
            out.append("")
            said = [f"*{md(c)}*: {md(text)}" for c, text in legend.get(k, {}).items() if c in cols]
            said += [f"*{md(c)}*: {md('; '.join(texts))}" for c, texts in filled.items()]
            if said:
                out.append("; ".join(said) + "\n")
        elif isinstance(v, list) and v:
            out.append(f"**{md(k)}**: " + ", ".join(_cell(x) for x in v) + "\n")
    if plain.get(notes):
        out.append(f"**{md(notes)}**: {md(paragraph(plain[notes]))}\n")
    return out


def _false_by_default(native: Any, key: str) -> set[str]:
    """The yes/no fields (default False) of the items of a native document's list `key`."""
    items = getattr(native, key, None) if isinstance(native, msgspec.Struct) else None
    if isinstance(items, list) and items and isinstance(items[0], msgspec.Struct):
        return {f.encode_name for f in codec.struct_fields(type(items[0])) if f.default is False}
    return set()


def _field_order(native: Any, key: str) -> list[str]:
    """The fields of the items of a native document's list `key`, as their type declares them."""
    items = getattr(native, key, None) if isinstance(native, msgspec.Struct) else None
    if isinstance(items, list) and items and isinstance(items[0], msgspec.Struct):
        return [f.encode_name for f in codec.struct_fields(type(items[0]))]
    return []


def _on_sheet(plain: dict[str, Any], field: str, key: str | None, value: Any, system: Any = None) -> bool:
    """Whether the sheet itself shows a carried value: a field of the same name and value
    (a coc7 SAN 60 on a coc sheet), a skill of its table at the same number (under the name the
    sheet writes a kin system's skill under: System.kin_skill_name), a line of its list of that
    name with the same entries."""
    here = plain.get(field)
    if key is None:
        return here == value
    if isinstance(here, dict):
        if field == "skills" and system is not None and hasattr(system, "kin_skill_name"):
            key = system.kin_skill_name(key) if system.kin_skill_name(key) in here else key
        return key in here and here[key] == value
    if isinstance(here, list) and isinstance(value, dict):
        return any(isinstance(row, dict) and row.get("name") == key
                   and all(row.get(k) == v for k, v in value.items() if k in row and k != "name") for row in here)
    return False


def _carried(block: dict[str, Any], plain: dict[str, Any] | None = None, system: Any = None) -> list[str]:
    """The carried block (xsys.core.carried): one line per system family, each value as that
    system writes it; a close-combat line as "Fists (Fist/Punch, 1d3+db)". What the sheet
    itself shows alike (a coc7 SAN and Library Use on a coc sheet) is not printed twice: the
    document keeps it for the way back, the sheet shows it once."""
    plain = plain or {}
    lines = []
    for ns, entries in block.items():
        if not isinstance(entries, dict):
            lines.append(f"- {md(ns)}: {_cell(entries)}")
            continue
        entries = {a: ({x: y for x, y in b.items() if not _on_sheet(plain, a, x, y, system)} if isinstance(b, dict) else b)
                   for a, b in entries.items() if isinstance(b, dict) or not _on_sheet(plain, a, None, b)}
        entries = {a: b for a, b in entries.items() if not (isinstance(b, dict) and not b)}
        if not entries:
            continue
        parts = []
        for a, b in entries.items():
            if isinstance(b, dict) and b and all(isinstance(x, dict) for x in b.values()):
                parts.append(f"{md(a)}: " + "; ".join(
                    f"{md(n)} ({', '.join(md(x) if y == 'yes' else _cell(y) for x, y in line.items() if x != 'name')})"
                    for n, line in b.items()))  # a flag set shows as its name ("unstated"), not "yes"
            elif isinstance(b, dict):
                parts.append(f"{md(a)}: " + ", ".join(f"{md(x)} {_cell(y)}" for x, y in b.items()))
            elif isinstance(b, list):
                parts.append(f"{md(a)}: " + (", ".join(_cell(x) for x in b) or "none"))
            else:
                parts.append(f"{md(a)} {_cell(b)}")
        lines.append(f"- {md(ns)}: " + " · ".join(parts))
    if not lines:
        return []
    return ["**carried** (what this system cannot express, kept as its own system writes it)\n", *lines, ""]


def _fields_table(plain: dict[str, Any]) -> list[str]:
    out = ["| field | value |", "|---|---|"]
    for k, v in plain.items():
        out.append(f"| {md(k)} | {_cell(v)} |")
    out.append("")
    return out


def _cell(v: Any) -> str:
    if isinstance(v, dict):
        return ", ".join(f"{md(a)}: {_cell(b)}" for a, b in v.items())
    if isinstance(v, list):
        return ", ".join(_cell(x) for x in v)
    return md(v)


# ---- text as Markdown -------------------------------------------------------------------

# The Markdown punctuation that acts inside a line (CommonMark lets any ASCII punctuation
# be backslash-escaped): code, emphasis, links and images (no "[", no link), headings,
# table cells, strike-through. What acts only at the start of a line is handled there.
_SPECIAL = re.compile(r"([\\`*_\[\]#|~])")
_SPACE = re.compile(r"[\s\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]+")
# (a double quote means nothing outside an HTML attribute, and a sheet has none: Mickey "the
# Crane" Doyle reads as written, in a terminal too). An ampersand is escaped only where a
# renderer would read a character reference ("&lt;", "&#60;"): "Smith & Wesson" reads as written.
_HTML = {"<": "&lt;", ">": "&gt;"}
_ENTITY = re.compile(r"&(?=#?[0-9A-Za-z]+;)")


def md(value: Any, block: bool = False) -> str:
    """`value` as inline Markdown text that shows exactly what it says: on one line
    (newlines and control characters become spaces), HTML escaped, Markdown punctuation
    backslash-escaped. With ``block`` (text that starts a line of its own) nothing at its
    start can open a block either (a list, a quote, a rule, an indented code block)."""
    text = _SPACE.sub(" ", str(value)).strip()
    text = _ENTITY.sub("&amp;", text)
    text = "".join(_HTML.get(c, c) for c in text)
    text = _SPECIAL.sub(r"\\\1", text)
    text = re.sub(r"(?i)(javascript|vbscript|data)(\s*):", r"\1\2&#58;", text)
    if block:
        if re.match(r"^\d+[.)]", text):
            text = re.sub(r"^(\d+)([.)])", r"\1\\\2", text)
        elif text[:1] in ("-", "+", "=", "."):
            text = "\\" + text
    return text


def _plugin_markdown(text: Any) -> str:
    """A system's own Markdown layout: kept as Markdown, but no raw HTML (which could hide
    the loss report) and no control characters."""
    text = str(text)
    text = re.sub(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", "", text)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
