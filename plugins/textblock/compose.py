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

import math
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
               unread: list[dict[str, str]] | None = None, stats: dict[str, int] | None = None,
               about: dict[str, str] | None = None) -> dict[str, Any]:
    """Read the composed `lines` as a `system` block: a native NPC document (plain data) whose
    ``xsys.read`` report names source paths. `assumed` / `unread`: what the format's own
    reader already reports (its entries come first).

    `stats`: values the format's reader has already read on the document's own scale (coc:
    all eight characteristics, and HP, SAN, MP, Luck where it has them), set on the document
    as they are. They do not go through the text reader's own rules for a printed block (a
    value above 18 marks a 7th-edition block and divides every characteristic by 5; SAN and
    Luck equal to POW x 5 are derived): a source that says its own scale is read once, by its
    own reader. The text reader is given the characteristics only as a stand-in line it
    cannot mistake for a 7th-edition one. `about`: keys added to the report as they are
    (``reader``: which reader and data model read it; ``edition``: the edition and why)."""
    stats = dict(stats or {})
    if stats and system in ("coc", "coc-zh"):
        stand_in = " ".join(f"{k} {min(max(int(stats[k]), 1), 18)}" for k in N.COC_CHARACTERISTICS if k in stats)
        lines = [lines[0], (stand_in, "$"), *lines[1:]] if lines else [(stand_in, "$")]
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
    for k, v in stats.items():
        if v is None:
            doc.pop(k, None)
        else:
            doc[k] = v
    report: dict[str, Any] = {"format": fmt, **(about or {})}
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


# Chaosium's conversion between the editions: a 7th-edition characteristic (1-99 for people)
# is five times the 3-18 of the 5th/6th edition that `coc` holds. Every reader of 7th-edition
# material (Foundry CoC7 actors, Dhole's House exports) divides here and nowhere else, so a
# reader into a 7th-edition system changes this one place.
SEVENTH_EDITION_FACTOR = 5
COC_CHARACTERISTIC_RANGE = (1, 99)  # coc's Characteristic type (3-18 for most humans)
# A characteristic a source leaves empty, on coc's scale: the average adult, as the text reader
# fills a block that leaves one out (3d6 -> 10.5, 2d6+6 -> 13, 3d6+3 -> 13.5)
COC_AVERAGE_ADULT = {"STR": 11, "CON": 11, "SIZ": 13, "DEX": 11, "APP": 11, "INT": 13, "POW": 11, "EDU": 14}


def seventh_to_coc(chars: dict[str, int],
                   clamped: dict[str, tuple[int, int]] | None = None) -> tuple[dict[str, int], str]:
    """7th-edition characteristics on coc's scale, value / 5 rounded half up, and the assumed
    entry saying so. A value below coc's 1 is kept at 1. With `clamped` (a dict the caller
    reports from), every value coc's 1-99 cannot hold (a creature's STR 0, a Great Old One's
    SIZ 1050) is kept at the nearest end and recorded there as ``{key: (value / 5 rounded,
    kept)}``, for the caller to say at its own path."""
    lo, hi = COC_CHARACTERISTIC_RANGE
    out: dict[str, int] = {}
    for k, v in chars.items():
        exact = math.floor(v / SEVENTH_EDITION_FACTOR + 0.5)
        out[k] = max(exact, lo) if clamped is None else min(max(exact, lo), hi)
        if clamped is not None and out[k] != exact:
            clamped[k] = (exact, out[k])
    return out, ("7th-edition characteristics (1-99) divided by 5 and rounded for coc's 3-18 scale ("
                 + ", ".join(f"{k} {chars[k]} -> {v}" for k, v in out.items()) + ")")


def seventh_onto_coc_sheet(chars7: dict[str, int], empty: list[str], cpath: str, path_of: Any, why_empty: str,
                           lose: Any, assumed: list[str]) -> dict[str, int]:
    """A 7th-edition sheet's characteristics on coc's scale, said as a reader says it: the
    division (``seventh_to_coc``) as an assumed entry at `cpath`, each value coc's 1-99 cannot
    hold as a loss at ``path_of(key)``, and each `empty` one as the average adult with an
    assumed entry giving `why_empty` (shared by the Foundry CoC7 and Dhole's House readers)."""
    clamped: dict[str, tuple[int, int]] = {}
    coc, note = seventh_to_coc(chars7, clamped)
    if chars7:
        assumed.append(f"{cpath}: {note}")
    for k, (exact, kept) in clamped.items():
        lose(path_of(k), f"{k} {chars7[k]} is {exact} on coc's scale, outside coc's 1-99: read as {kept}")
    if empty:
        for k in empty:
            coc[k] = COC_AVERAGE_ADULT[k]
        assumed.append(f"{cpath}: " + ", ".join(empty) + f" {why_empty}; set to the average adult on coc's scale ("
                       + ", ".join(f"{k} {coc[k]}" for k in empty) + ")")
    return coc


def coc_damage(text: Any, melee: bool = False) -> str | None:
    """A damage as a coc weapon line (`melee` False: dice, a shotgun's bands '4d6/2d6/1d6', a
    trailing '+db' the text reader takes off and says) or melee line ('1d4+db', '1d3+1/2db')
    holds it, lower case without spaces; None when coc's document cannot hold it."""
    from typing import get_args, get_type_hints

    from xsys.plugins.coc.model import CocMelee, DamageRoll

    dmg = re.sub(r"\s+", "", str(text or "")).lower().replace("½", "1/2")
    dmg = re.sub(r"\+?halfdb$", "+1/2db", dmg)
    if melee:
        pattern = get_args(get_type_hints(CocMelee, include_extras=True)["damage"])[1].pattern
        return dmg if re.match(pattern, dmg) else None
    bare = re.sub(r"\+(1/2)?db$", "", dmg)
    return dmg if re.match(get_args(DamageRoll)[1].pattern, bare) else None


# A distance as sheets write it: "15", "15ft", "20 yards", "100m", "10/20/50 yards" (a
# shotgun's bands: the first is the base range)
_DISTANCE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?:/\s*\d+(?:\.\d+)?\s*)*([^\d\s/][^\d/]*)?\s*$")
DISTANCE_UNITS = {"yd": "yd", "yds": "yd", "yard": "yd", "yards": "yd", "y": "yd", "m": "m", "metre": "m",
                  "metres": "m", "meter": "m", "meters": "m", "ft": "ft", "feet": "ft", "foot": "ft", "'": "ft"}


def distance(value: Any) -> tuple[int | float, str | None] | None:
    """A range as a sheet writes it -> (number, unit: 'yd' | 'm' | 'ft', or None when the text
    names no unit); None when it is not a distance ('STR/5 yards', 'touch')."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        number: float = float(value)
        unit = None
    else:
        m = _DISTANCE.match(str(value))
        if m is None:
            return None
        number = float(m.group(1))
        word = (m.group(2) or "").strip().lower().rstrip(".")
        if word and word not in DISTANCE_UNITS:
            return None
        unit = DISTANCE_UNITS.get(word)
    if not math.isfinite(number) or number < 0:
        return None
    return (int(number) if number.is_integer() else number), unit


def weapon_tag(name: str, catalog_id: str | None) -> str:
    """' [catalog: id]' after a weapon's name when the name alone does not find that catalog
    weapon (what the text reader reads back), else ''."""
    if not catalog_id:
        return ""
    from .reader import catalog_match

    found = catalog_match(name)
    return "" if found is not None and found.id == catalog_id else f" [catalog: {catalog_id}]"
