"""`xsys skills SYSTEM`: the skill names a system recognises, what each covers in the neutral
model, and the other names printed stat blocks give it (7th-edition, Japanese and Chinese names,
from the system's declared text layout)."""

from __future__ import annotations

from typing import Any, Callable


def rows(system_key: str) -> list[dict[str, Any]]:
    from xsys.core.registry import default_registry

    from xsys.core.textblock import layout_of

    registry = default_registry()
    system = registry.system(system_key)
    layout = layout_of(system, registry)  # the names printed blocks give its skills, where it has a layout
    aliases = layout.skill_aliases() if layout is not None else {}
    out = []
    for native, neutral in system.skills().items():
        out.append({"skill": native, "covers": list(neutral), "aliases": aliases.get(native, [])})
    known = {r["skill"] for r in out}
    for native, names in aliases.items():  # a name blocks print that the system keeps verbatim
        if native not in known:
            out.append({"skill": native, "covers": [], "aliases": names})
    return out


def run(system_key: str, as_json: bool, emit: Callable[[str], None], emit_json: Callable[[Any], None]) -> None:
    table = rows(system_key)
    if as_json:
        emit_json({"system": system_key, "skills": table})
        return
    width = max((len(r["skill"]) for r in table), default=5)
    for r in table:
        covers = ", ".join(r["covers"]) if r["covers"] else "(kept verbatim: no neutral skill)"
        line = f"{r['skill']:<{width}}  {covers}"
        if r["aliases"]:
            line += "  aka " + ", ".join(r["aliases"])
        emit(line)
