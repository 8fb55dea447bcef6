"""What a format plugin's reader could not read, or had to assume, as loss report entries.

A reader of a foreign format (a text stat block, a Foundry VTT actor, a CCFOLIA character)
says what it made of its input in the document's ``xsys.read`` block::

    {"format": "text",
     "unread": [{"line": 6, "text": "Fighting (Brawl) 70%, damage 1D3+DB"},
                {"path": "$.items[3]", "text": "a spell"}],
     "assumed": ["line 4: .38 Revolver: no base range in the block; 15 yd, ..."],
     "reader": "text stat block, Call of Cthulhu layout",
     "edition": "7th edition: percentile characteristics (STR 55, CON 60, ...)"}

Each unread entry becomes a ``dropped-item`` loss (a warning; ``--strict`` fails on it) whose
path names where it was in the source (``line 6``, or the format and the source's own JSON
path, ``foundry-coc7 $.items[3]``); each assumed value an ``assumed`` loss (info); each
``unknown`` skill name (``{"line"|"path", "text", "closest"}``: a name no table knows, close to
one that is known) a ``kept-verbatim`` warning naming the closest match (not a loss: the skill
is kept by its own name, so ``--strict`` does not fail on it). Entries
``reader`` and ``edition`` (which reader read the input, and which edition or scale it took the
input to be, and why) become one ``assumed`` info line at the format, first in the report, so
``--explain`` and the page say how the input was read. Entries
of another shape are not the reader's report and are left alone: the block is metadata, and
a document written by hand may carry anything there.
"""

from __future__ import annotations

import re
from typing import Any

from xsys.core.trace import Loss


def read_losses(meta: Any, system: str = "") -> list[Loss]:
    """The losses of the ``read`` report in a document's ``xsys`` block (empty if none)."""
    report = meta.get("read") if isinstance(meta, dict) else None
    if not isinstance(report, dict):
        return []
    fmt = report.get("format") if isinstance(report.get("format"), str) else "input"
    out: list[Loss] = []
    said = [f"{label} {report[key].strip()}" for key, label in (("reader", "read by the"), ("edition", "edition:"))
            if isinstance(report.get(key), str) and report[key].strip()]
    if said:
        out.append(Loss.of("assumed", fmt, "; ".join(said), rule=f"{fmt}.reader", system=system))
    for item in report.get("unread") or ():
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            continue
        line, path = item.get("line"), item.get("path")
        if isinstance(line, int) and not isinstance(line, bool):
            where = f"line {line}"
        elif isinstance(path, str):
            where = f"{fmt} {path}"
        else:
            where = fmt
        out.append(Loss.of("dropped-item", where, f"not read from the {fmt} input: {item['text']}",
                           rule=f"{fmt}.unread", system=system))
    for item in report.get("unknown") or ():  # a skill name no table knows, close to one that is known
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            continue
        line, path = item.get("line"), item.get("path")
        where = f"line {line}" if isinstance(line, int) and not isinstance(line, bool) else (
            f"{fmt} {path}" if isinstance(path, str) else fmt)
        closest = f" (closest: {item['closest']})" if isinstance(item.get("closest"), str) else ""
        out.append(Loss(kind="kept-verbatim", level="warning", path=where, rule=f"{fmt}.unknown-skill", system=system,
                        message=f"skill {item['text']!r} is no name the {fmt} reader knows; kept by its own "
                                f"name{closest}"))
    for text in report.get("assumed") or ():
        if isinstance(text, str):
            where, what = _where(text, fmt)
            out.append(Loss.of("assumed", where, f"assumed while reading the {fmt} input: {what}",
                               rule=f"{fmt}.assumed", system=system))
    return out


_LINE = re.compile(r"^line (\d+): (.*)$", re.S)
_PATH = re.compile(r"^(\$[^\s:]*(?: line \d+)?): (.*)$", re.S)


def _where(text: str, fmt: str) -> tuple[str, str]:
    """An assumed entry that starts with where it was read ('line 4: ...', '$.items[3]: ...')
    as (path, the rest); else (the format, the text)."""
    m = _LINE.match(text)
    if m:
        return f"line {m.group(1)}", m.group(2)
    m = _PATH.match(text)
    if m:
        return f"{fmt} {m.group(1)}", m.group(2)
    return fmt, text
