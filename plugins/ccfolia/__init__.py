"""CCFOLIA clipboard characters (``{"kind": "character", "data": {...}}``) for Call of Cthulhu.

A format plugin of the shape a third party writes (``xsys_register_formats``, entry point
``ccfolia``): a ``.json`` file of that shape is claimed by its shape (``sniff``), or named
with ``--input-format ccfolia``; ``xsys convert NPC --to coc --format ccfolia`` writes a
character that pastes into a CCFOLIA table with its check commands. See README.md.
"""

from __future__ import annotations

from xsys.core import lazy
from xsys.core.hookspecs import hookimpl


@hookimpl
def xsys_register_formats(register):
    register("ccfolia", (),
             lazy.deferred(f"{__name__}.reader", "load"), lazy.deferred(f"{__name__}.writer", "dump"),
             sniff=lazy.deferred(f"{__name__}.reader", "claims"))
