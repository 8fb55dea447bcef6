"""Foundry VTT Call of Cthulhu 7th edition (system ``CoC7``) actor JSON.

A format plugin of the shape a third party writes (``xsys_register_formats``, entry point
``foundry-coc7``): an actor exported from Foundry (``Export Data``) is claimed by its shape,
or named with ``--input-format foundry-coc7``; ``--format foundry-coc7`` writes a coc NPC as
an actor Foundry imports (``Import Data``). See README.md.
"""

from __future__ import annotations

from xsys.core import lazy
from xsys.core.hookspecs import hookimpl


@hookimpl
def xsys_register_formats(register):
    register("foundry-coc7", ("db",),  # an actor export (.json, claimed by its shape) or a pack (.db)
             lazy.deferred(f"{__name__}.reader", "load"), lazy.deferred(f"{__name__}.writer", "dump"),
             sniff=lazy.deferred(f"{__name__}.reader", "claims"))
