"""Call of Cthulhu (d100) with the Japanese firearms house rules, as an xsys system.

Public API (for variants such as ``coc-zh`` and for scenario tools)::

    from xsys.plugins.coc import CocSystem, CocNpc, CocShot, CocWeapon, CocArmor, CocBarrier
    from xsys.plugins.coc import Situation, LightEffect, build_armor_ladders, rules
    from xsys.plugins.coc import formulas, names   # its `xsys rules` formulas, the names sheets give its stats

Names are imported lazily so that registering the plugin (``xsys --help``) stays fast.
See README.md, "Public API for variants".
"""

from __future__ import annotations

from xsys.core import lazy
from xsys.core.hookspecs import hookimpl

_PUBLIC = {
    "CocSystem": "system", "Situation": "system", "LightEffect": "system", "build_armor_ladders": "system",
    "FIREARM_SKILLS": "system",
    "CocNpc": "model", "CocShot": "model", "CocWeapon": "model", "CocArmor": "model", "CocBarrier": "model",
}

__all__ = sorted(_PUBLIC) + ["formulas", "names", "rules", "xsys_register_systems"]

__getattr__ = lazy.exports(__name__, _PUBLIC, modules=("formulas", "names", "rules"))


@hookimpl
def xsys_register_systems(register):
    from .system import CocSystem  # lazy import keeps `xsys --help` fast

    register(CocSystem)
