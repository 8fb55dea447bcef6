"""Plain-text stat blocks -> native NPC documents (plain data): the format hook's reader.

The block's system is the one its ``system: KEY`` line names, else the installed system whose
declared layout (``System.text_layout``) finds the most of its stats in it; that layout reads
the lines. The shared line machinery and the ``xsys.read`` report (what was not read, what was
assumed) are the core's (xsys.core.textblock); this plugin names no system.
"""

from __future__ import annotations

from typing import Any

from xsys.core.errors import InputError
from xsys.core.textblock import document, group_document, read


def load(data: bytes) -> dict[str, Any]:
    """The format hook's reader: bytes of a stat block -> a native NPC document."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError("a text stat block must be UTF-8", expected="UTF-8 text",
                         found=f"byte {data[exc.start]:#04x} at offset {exc.start}") from None
    # a table of several NPCs' stats (a family, a gang): a roster, each row an NPC
    return group_document(text) or document(read(text))
