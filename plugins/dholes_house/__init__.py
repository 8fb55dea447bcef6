"""Dhole's House character exports (JSON, Call of Cthulhu 7th edition): import only.

A format plugin of the shape a third party writes (``xsys_register_formats``, entry point
``dholes-house``): an export (``{"Investigator": {"Header": ..., "Characteristics": ...}}``) is
claimed by its shape, or named with ``--input-format dholes-house``. See README.md.
"""

from __future__ import annotations

from xsys.core import lazy
from xsys.core.hookspecs import hookimpl


@hookimpl
def xsys_register_formats(register):
    register("dholes-house", (),
             lazy.deferred(f"{__name__}.reader", "load"), None,
             sniff=lazy.deferred(f"{__name__}.reader", "claims"))
