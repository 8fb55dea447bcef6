"""Call of Cthulhu with the Chinese combat rules (``coc-zh``): a variant of ``coc`` written
only against public APIs (``xsys.core.*`` and the top level of ``xsys.plugins.coc``).

Public API::

    from xsys.plugins.coc_zh import CocZhSystem, CocZhNpc, CocZhShot, CocZhArmor, rules

Names are imported lazily so that registering the plugin (``xsys --help``) stays fast.
See README.md for what differs from ``coc`` and how it is built.
"""

from __future__ import annotations

from xsys.core import lazy
from xsys.core.hookspecs import hookimpl

_PUBLIC = {"CocZhSystem": "system", "CocZhNpc": "model", "CocZhShot": "model", "CocZhArmor": "model"}

__all__ = sorted(_PUBLIC) + ["rules", "xsys_register_systems"]

__getattr__ = lazy.exports(__name__, _PUBLIC, modules=("rules",))


@hookimpl
def xsys_register_systems(register):
    from .system import CocZhSystem  # lazy import keeps `xsys --help` fast

    register(CocZhSystem)
