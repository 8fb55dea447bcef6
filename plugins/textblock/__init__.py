"""Plain-text stat blocks (``.txt``): the one NPC format every ecosystem shares.

Registered through ``xsys_register_formats`` like any third-party format plugin: ``load``
reads a block for any installed system that declares a text layout (``System.text_layout``:
the built-in systems and any third party's alike), ``dump`` prints a native document as that
system's layout does. The line machinery is the core's (xsys.core.textblock); each system's
layout is in its own plugin. See README.md in this folder.
"""

from __future__ import annotations

from xsys.core import lazy
from xsys.core.hookspecs import hookimpl


@hookimpl
def xsys_register_formats(register):
    register("text", ("txt",),
             lazy.deferred(f"{__name__}.reader", "load"), lazy.deferred(f"{__name__}.writer", "dump"))
