"""GURPS 3rd edition (Japanese Basic Set) system plugin: 3d6 roll-under and the situation,
critical and fumble tables of 002_4c3cd43900644b25.txt."""

from xsys.core.hookspecs import hookimpl


@hookimpl
def xsys_register_systems(register):
    from .system import Gurps  # lazy import keeps `xsys --help` fast

    register(Gurps)
