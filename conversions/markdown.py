"""Printable Markdown: a stat block or scenario sheet in the target system's layout.

A system may provide ``markdown_npc(npc) -> str`` for its own conventional layout; the
generic layout lists characteristics first (as a one-line strip, the way most rulebooks
print them), then skills, weapons and armor as tables."""

from __future__ import annotations

from typing import Any

from xsys.core import codec

from .documents import NEUTRAL


def render(conv: Any, explain: bool = False) -> str:
    from xsys.core.registry import default_registry

    doc = conv.document
    system = None if conv.target_system == NEUTRAL else default_registry().system(conv.target_system)
    label = system.label() if system else "neutral model"
    lines: list[str] = []
    plain = codec.to_builtins(doc)
    plain.pop("system", None)
    plain.pop("kind", None)
    if conv.kind == "npc":
        lines += _npc(plain, system, doc, label)
    elif conv.kind == "roster":
        lines.append(f"# {plain.get('name') or 'Roster'} — {label}\n")
        for npc_plain, npc in zip(plain.get("npcs", []), getattr(doc, "npcs", [])):
            lines += _npc(npc_plain, system, npc, label, level=2)
    elif conv.kind == "shot":
        lines.append(f"# {plain.get('name') or 'Shot'} — {label}\n")
        lines += _fields_table(plain)
    else:
        lines.append(f"# {plain.get('name') or 'Scenario'} — {label}\n")
        if plain.get("notes"):
            lines.append(plain["notes"] + "\n")
        for scene, scene_doc in zip(plain.get("scenes", []), getattr(doc, "scenes", [])):
            lines.append(f"## {scene.get('name') or 'Scene'}\n")
            if scene.get("notes"):
                lines.append(scene["notes"] + "\n")
            for npc_plain, npc in zip(scene.get("combatants", []), getattr(scene_doc, "combatants", [])):
                lines += _npc(npc_plain, system, npc, label, level=3)
            for i, shot in enumerate(scene.get("shots", [])):
                lines.append(f"### Shot {i + 1}{': ' + shot['name'] if shot.get('name') else ''}\n")
                lines += _fields_table(shot)
    if conv.losses:
        lines.append("\n## Loss report\n")
        lines += [f"- {x.render()}" for x in conv.losses]
    if explain and conv.trace:
        lines.append("\n## Trace\n")
        lines += [f"- {t.render()}" for t in conv.trace]
    return "\n".join(lines).rstrip() + "\n"


def _npc(plain: dict[str, Any], system: Any, native: Any, label: str, level: int = 1) -> list[str]:
    custom = getattr(system, "markdown_npc", None) if system else None
    if custom is not None:
        return [custom(native)]
    h = "#" * level
    out = [f"{h} {plain.get('name', 'NPC')} — {label}\n"]
    scalars = {k: v for k, v in plain.items() if k != "name" and not isinstance(v, (dict, list))}
    if scalars:
        out.append(" · ".join(f"**{k}** {v}" for k, v in scalars.items()) + "\n")
    for k, v in plain.items():
        if isinstance(v, dict) and v:
            out.append(f"**{k}**: " + ", ".join(f"{a} {b}" for a, b in v.items()) + "\n")
    for k, v in plain.items():
        if isinstance(v, list) and v and isinstance(v[0], dict):
            cols = sorted({c for row in v for c in row}, key=lambda c: (c != "name", c))
            out.append(f"**{k}**\n")
            out.append("| " + " | ".join(cols) + " |")
            out.append("|" + "---|" * len(cols))
            for row in v:
                out.append("| " + " | ".join(_cell(row.get(c, "")) for c in cols) + " |")
            out.append("")
        elif isinstance(v, list) and v:
            out.append(f"**{k}**: " + ", ".join(map(str, v)) + "\n")
    return out


def _fields_table(plain: dict[str, Any]) -> list[str]:
    out = ["| field | value |", "|---|---|"]
    for k, v in plain.items():
        out.append(f"| {k} | {_cell(v)} |")
    out.append("")
    return out


def _cell(v: Any) -> str:
    if isinstance(v, dict):
        return ", ".join(f"{a}: {_cell(b)}" for a, b in v.items())
    if isinstance(v, list):
        return ", ".join(_cell(x) for x in v)
    return str(v).replace("|", "\\|").replace("\n", " ")
