"""pl-trudnosc: the Polish firefight rules "Walka strzelecka" (Trudność difficulty system),
with a named, swappable dice mechanic (see README.md in this folder)."""

from xsys.core.hookspecs import hookimpl


@hookimpl
def xsys_register_systems(register):
    from .system import PlTrudnosc  # lazy import keeps `xsys --help` fast

    register(PlTrudnosc)
