"""new World of Darkness (2004 World of Darkness Rulebook): d10 pools, 8+ succeeds,
10-again; cover and barrier rules of the nWoD cover and barrier text (README.md)."""

from xsys.core.hookspecs import hookimpl


@hookimpl
def xsys_register_systems(register):
    from .system import NwodSystem  # lazy: `xsys --help` does not pay for the tables

    register(NwodSystem)
