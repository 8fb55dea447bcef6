"""Call of Cthulhu stat blocks as printed text, both editions: a format plugin that the coc,
coc-zh and coc7 systems name in their ``text_block`` (hook ``xsys_register_text_blocks``).

One printed block serves both editions: an English 5th/6th- or 7th-edition block, a Japanese
or Chinese scenario's, is read into the system it names, or, naming none, into ``coc7`` when
its values are 7th edition's and into ``coc`` otherwise (layout.py). The layout uses the names
Call of Cthulhu sheets give coc's stats (``xsys.plugins.coc.names``), shared with the other
Call of Cthulhu formats; the line machinery is the core's (xsys.core.textblock).
"""

from __future__ import annotations

from xsys.core import lazy
from xsys.core.hookspecs import hookimpl


@hookimpl
def xsys_register_text_blocks(register):
    # the layout module (and its tables of names) is imported when a block is first read
    register("call-of-cthulhu", lazy.deferred(f"{__name__}.layout", "block"))
    register("call-of-cthulhu-zh", lazy.deferred(f"{__name__}.layout", "chinese_block"))
