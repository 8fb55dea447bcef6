"""Foundry VTT Chronicles of Darkness (system ``mta``) actor JSON, read as nWoD: import only.

A format plugin of the shape a third party writes (``xsys_register_formats``, entry point
``foundry-mta``): an exported actor is claimed by its shape, or named with ``--input-format
foundry-mta``. The ``mta`` system plays Chronicles of Darkness (2nd edition); ``nwod`` is the
2004 World of Darkness Rulebook, so what the editions do differently is reported. See
README.md.
"""

from __future__ import annotations

from xsys.core import lazy
from xsys.core.hookspecs import hookimpl


@hookimpl
def xsys_register_formats(register):
    register("foundry-mta", (),
             lazy.deferred(f"{__name__}.reader", "load"), None,
             sniff=lazy.deferred(f"{__name__}.reader", "claims"))
