"""The bundled catalog of real firearms, armor and barrier materials (see README.md in
this folder for fields, calibration and sources)."""

from __future__ import annotations

from importlib import resources

from xsys.core.hookspecs import hookimpl

FILES = ("weapons.toml", "armor.toml", "materials.toml")


@hookimpl
def xsys_register_catalog(catalog):
    base = resources.files(__name__)
    for name in FILES:
        with resources.as_file(base.joinpath(name)) as path:
            catalog.add_toml(path)
