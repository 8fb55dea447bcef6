"""GURPS 3rd edition (Japanese Basic Set) system plugin: 3d6 roll-under and the situation,
critical and fumble tables of the GURPS 3e tables text."""

from xsys.core.hookspecs import hookimpl


@hookimpl
def xsys_register_systems(register):
    from .system import Gurps  # lazy import keeps `xsys --help` fast

    register(Gurps)
