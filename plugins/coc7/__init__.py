"""coc7: Call of Cthulhu 7th edition, a built-in xsys game system.

The entry point ``coc7 = "xsys.plugins.coc7"`` (group ``xsys``, see xsys's pyproject.toml) names this
module; xsys calls its hook implementations. Public names are imported lazily, so that
registering the plugin (every ``xsys`` command) stays fast::

    from xsys.plugins.coc7 import Coc7System, Coc7Npc, Coc7Shot, Coc7Weapon, Coc7Armor, d100
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from xsys.core.hookspecs import hookimpl

_PUBLIC = {
    "Coc7System": "system",
    "Coc7Npc": "model", "Coc7Shot": "model", "Coc7Weapon": "model", "Coc7Armor": "model",
    "from_6th_edition": "convert6",
}

__all__ = sorted(_PUBLIC) + ["d100", "xsys_register_systems"]


def __getattr__(name: str) -> Any:
    if name in _PUBLIC:
        return getattr(import_module(f".{_PUBLIC[name]}", __name__), name)
    if name == "d100":
        return import_module(".d100", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@hookimpl
def xsys_register_systems(register):
    from .system import Coc7System  # lazy import keeps `xsys --help` fast

    register(Coc7System)
