"""Foundry VTT Call of Cthulhu 7th edition (system ``CoC7``) actor JSON.

A format plugin of the shape a third party writes (``xsys_register_formats``, entry point
``foundry-coc7``): an actor exported from Foundry (``Export Data``) is claimed by its shape,
or named with ``--input-format foundry-coc7``; ``--format foundry-coc7`` writes a coc NPC as
an actor Foundry imports (``Import Data``). See README.md.
"""

from __future__ import annotations

from xsys.core.hookspecs import hookimpl


def _load(data: bytes):
    from .reader import load

    return load(data)


def _dump(doc):
    from .writer import dump

    return dump(doc)


def _sniff(plain) -> bool:
    from .reader import claims

    return claims(plain)


@hookimpl
def xsys_register_formats(register):
    register("foundry-coc7", (), _load, _dump, sniff=_sniff)
