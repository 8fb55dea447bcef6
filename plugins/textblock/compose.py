"""A block composed line by line from another format's fields, read as a text stat block.

The public helper other format plugins build on (Foundry VTT, CCFOLIA, Dhole's House): they
turn each field of their input into the line a printed block would have (``STR 12 CON 11``,
``Skills: Spot Hidden 55%``, ``Weapons: .38 Revolver, damage 1D10, base range 15 yd``), each
with the path it came from, and this module reads the block with the text reader. So every
format shares one set of skill names (7th-edition, Japanese and Chinese names included), one
catalog lookup and one set of assumed values, and a report entry names the source's own path
(``$.items[3]``), not a line of a block the user never saw.
"""

from __future__ import annotations

import re
from typing import Any

from . import names as N
from .names import fold
from .reader import read

Line = tuple[str, str]  # (the line of the block, where in the source it comes from)


def one_line(text: Any) -> str:
    """A source value as text that cannot break the block into lines."""
    return re.sub(r"[\r\n\u2028\u2029]+", " ", str(text)).strip()


def read_lines(lines: list[Line], fmt: str, system: str, assumed: list[str] | None = None,
               unread: list[dict[str, str]] | None = None) -> dict[str, Any]:
    """Read the composed `lines` as a `system` block: a native NPC document (plain data) whose
    ``xsys.read`` report names source paths. `assumed` / `unread`: what the format's own
    reader already reports (its entries come first)."""
    text_lines = [f"system: {system}"] + [one_line(t) for t, _ in lines]
    origin = {i + 2: path for i, (_, path) in enumerate(lines)}
    r = read("\n".join(text_lines))
    report_unread = list(unread or [])
    for n, text in r.unread:
        report_unread.append({"path": origin.get(n, "$"), "text": text})
    report_assumed = list(assumed or [])
    for text in r.assumed:
        if text.startswith("edition: "):  # the CoC reader's word on a block's edition: the format
            continue                      # reader knows its own (a Foundry actor's are already /5)
        m = re.match(r"^line (\d+): (.*)$", text, re.S)
        report_assumed.append(f"{origin.get(int(m.group(1)), '$')}: {m.group(2)}" if m else text)
    doc: dict[str, Any] = {"system": r.system, "kind": "npc", **r.doc}
    report: dict[str, Any] = {"format": fmt}
    if report_unread:
        report["unread"] = report_unread
    if report_assumed:
        report["assumed"] = report_assumed
    if r.unknown:
        report["unknown"] = [{"path": origin.get(n, "$"), "text": name, "closest": close}
                             for n, name, close in r.unknown]
    if len(report) > 1:
        doc["xsys"] = {"read": report}
    return doc


def coc_skill(name: str) -> tuple[str, ...]:
    """The coc skills a printed name files under (7e, Japanese, Chinese names), or ()."""
    return N.COC_SKILLS.get(fold(name), ())


def weapon_skill(skill_name: str, weapon_name: str) -> str | None:
    """The coc skill a weapon's printed skill fires it with; a skill that files under two
    (7e 'Firearms (Rifle/Shotgun)') is told apart by the weapon's name."""
    from .reader import skill_by_keyword

    natives = coc_skill(skill_name)
    if len(natives) > 1:
        by_name = skill_by_keyword(weapon_name)
        return by_name if by_name in natives else natives[0]
    return natives[0] if natives else None


def seventh_to_coc(chars: dict[str, int]) -> tuple[dict[str, int], str]:
    """7th-edition characteristics (1-99) on coc's 3-18 scale, and the assumed entry saying so."""
    from .reader import seventh_to_sixth

    out = {k: seventh_to_sixth(v) for k, v in chars.items()}
    return out, ("7th-edition characteristics (1-99) divided by 5 and rounded for coc's 3-18 scale ("
                 + ", ".join(f"{k} {chars[k]} -> {v}" for k, v in out.items()) + ")")


def weapon_tag(name: str, catalog_id: str | None) -> str:
    """' [catalog: id]' after a weapon's name when the name alone does not find that catalog
    weapon (what the text reader reads back), else ''."""
    if not catalog_id:
        return ""
    from .reader import catalog_match

    found = catalog_match(name)
    return "" if found is not None and found.id == catalog_id else f" [catalog: {catalog_id}]"
