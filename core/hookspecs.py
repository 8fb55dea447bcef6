"""The public plugin API of xsys: every hook a plugin may implement.

A plugin is a module (or object) registered under the ``xsys`` entry-point group::

    [project.entry-points.xsys]
    mysystem = "my_package.xsys_plugin"

and implements any of the hooks below with ``@xsys.core.hookspecs.hookimpl``. Built-in
systems are registered through the very same entry points. An implementation whose name
matches no hook here is an error (a typo would otherwise be silently ignored).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import pluggy

if TYPE_CHECKING:  # pragma: no cover
    from .catalog import Catalog
    from .model import Shot
    from .system import System
    from .trace import Modifier

PROJECT = "xsys"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


# ---- registration -----------------------------------------------------------------

@hookspec
def xsys_register_systems(register: Callable[[type[System]], None]) -> None:
    """Register game systems by calling ``register(SystemClass)`` once per system.

    ``SystemClass`` is a subclass of :class:`xsys.core.system.System` with a unique
    ``key``. Two plugins registering one key is an error naming both. Called once, when
    the registry loads. Return value ignored."""


@hookspec
def xsys_register_catalog(catalog: Catalog) -> None:
    """Add weapons, armor items and barrier materials to the shared catalog with
    ``catalog.add_weapon``, ``add_armor``, ``add_material`` or ``add_toml(path)``.

    Ids must be unique across plugins (a clash is an error naming both origins). Called
    once, the first time the catalog is needed. Return value ignored."""


@hookspec
def xsys_register_formats(register: Callable[..., None]) -> None:
    """Register extra document formats: ``register(name, extensions, load, dump)`` where
    ``load(bytes) -> plain data`` and ``dump(plain data) -> bytes``. Extensions are
    matched case-insensitively and must not clash with another format's. Return value
    ignored."""


# ---- checks -----------------------------------------------------------------------

@hookspec
def xsys_shot_modifiers(system: str, shot: Shot) -> list[Modifier] | None:
    """House rules: extra modifiers for a shot in a system the plugin need not own.

    ``system`` is the system key being checked. Return a list of
    :class:`xsys.core.trace.Modifier` (each with its own rule ID and ``source``) or None.
    Every plugin's list is applied, after the system's own modifiers, and appears in the
    trace."""


# ---- command line -----------------------------------------------------------------

@hookspec
def xsys_register_commands(app: Any) -> None:
    """Add commands to the ``xsys`` command line. ``app`` is the root ``typer.Typer``;
    use ``app.command(rich_help_panel="Plugins")(fn)`` or ``app.add_typer(...)``. Called
    once while the CLI is built. Return value ignored."""


HOOK_NAMES: tuple[str, ...] = (
    "xsys_register_systems",
    "xsys_register_catalog",
    "xsys_register_formats",
    "xsys_shot_modifiers",
    "xsys_register_commands",
)
