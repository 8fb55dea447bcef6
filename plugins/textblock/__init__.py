"""Plain-text stat blocks (``.txt``): the one NPC format every ecosystem shares.

Registered through ``xsys_register_formats`` like any third-party format plugin: ``load``
reads a block for any built-in system (reader.py), ``dump`` prints a native document as that
system's books do (writer.py). See README.md in this folder.
"""

from __future__ import annotations

from xsys.core.hookspecs import hookimpl


def _load(data: bytes):
    from .reader import load

    return load(data)


def _dump(doc):
    from .writer import dump

    return dump(doc)


@hookimpl
def xsys_register_formats(register):
    register("text", ("txt",), _load, _dump)
