"""Native NPC documents (plain data) -> the stat block each system's books print: the format
hook's writer, through the document's system's declared layout (``System.text_layout``;
xsys.core.textblock.text_of). Every stat is written, defaults included; a converted
document's loss report is summed up in a ``#`` comment line, which the reader skips, so what
xsys writes it reads back.
"""

from __future__ import annotations

from typing import Any

from xsys.core.textblock import text_of

__all__ = ["dump", "text_of"]


def dump(doc: Any) -> bytes:
    """The format hook's writer."""
    return text_of(doc).encode("utf-8")
