"""Plain-text stat blocks (``.txt``): the one NPC format every ecosystem shares.

Registered through ``xsys_register_formats`` like any third-party format plugin: ``load``
reads a block for any built-in system (reader.py), ``dump`` prints a native document as that
system's books do (writer.py). See README.md in this folder.
"""

from __future__ import annotations

from xsys.core import lazy
from xsys.core.hookspecs import hookimpl


@hookimpl
def xsys_register_formats(register):
    register("text", ("txt",),
             lazy.deferred(f"{__name__}.reader", "load"), lazy.deferred(f"{__name__}.writer", "dump"))
