"""The public plugin API of xsys: every hook a plugin may implement.

A plugin is a module (or object) registered under the ``xsys`` entry-point group::

    [project.entry-points.xsys]
    mysystem = "my_package.xsys_plugin"

and implements any of the hooks below with ``@xsys.core.hookspecs.hookimpl``. Built-in
systems are registered through the very same entry points. An implementation whose name
matches no hook here is an error (a typo would otherwise be silently ignored).

Plugins are contained (see :mod:`xsys.core.registry`): a plugin that fails to import,
raises or calls ``sys.exit`` in a hook, returns something of the wrong type, takes longer
than ``XSYS_PLUGIN_TIMEOUT`` seconds to import or register, or claims what is already
taken (a system key, a catalog id, a file extension, a command name) is reported with its
distribution name and skipped; the built-in plugins are loaded first and keep what they
register.
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
    ``key`` (letters, digits, ``-``, ``_``; not ``neutral``) and msgspec Structs as its
    ``npc_type`` (and ``shot_type``, ``settings_type``). A key already registered by a
    built-in plugin, or by the plugin named after the key, is refused (the plugin is
    reported as broken); two other plugins claiming one key are both skipped. Called once,
    when the registry loads. Return value ignored."""


@hookspec
def xsys_register_catalog(catalog: Catalog) -> None:
    """Add weapons, armor items and barrier materials to the shared catalog with
    ``catalog.add_weapon``, ``add_armor``, ``add_material`` or ``add_toml(path)``.

    Ids must be unique across plugins: a plugin that adds an id already taken (by the
    built-in catalog or an earlier plugin) is skipped as a whole, the reason naming both
    origins. Called once, the first time the catalog is needed. Return value ignored."""


@hookspec
def xsys_register_formats(register: Callable[..., None]) -> None:
    """Register extra document formats: ``register(name, extensions, load, dump=None, *,
    sniff=None)`` where ``load(bytes) -> plain data`` (an xsys document: ``system``,
    ``kind`` and the native fields) and ``dump(plain data) -> bytes`` (a converted
    document, its ``xsys`` block included; None: the format is read only).

    The name is what ``--input-format NAME`` and ``--format NAME`` take. Extensions are
    matched case-insensitively and must not clash with another format's or a built-in one
    (yaml, yml, json, toml, md); a format may have none. ``sniff(plain JSON data) -> bool``
    claims a ``.json`` document by its shape (a Foundry VTT actor, a CCFOLIA clipboard
    character): it is asked only about JSON that is not an xsys document, in the order the
    plugins registered, and the first format that claims it reads the bytes. A reader may
    report what it could not read, or had to assume, in the document's ``xsys.read``
    block (``{"format": name, "unread": [{"line", "text"} | {"path", "text"}], "assumed":
    [text], "unknown": [{"line"|"path", "text", "closest"}]}``); a conversion reports each
    entry as a loss (``unknown``, a skill name kept as written, as a warning). An exception in ``load``,
    ``dump`` or ``sniff`` is reported as an error naming the plugin. Return value
    ignored."""


@hookspec
def xsys_register_text_blocks(register: Callable[..., None]) -> None:
    """Register plain-text stat-block layouts that systems name: ``register(name, make)``
    where ``make(system) -> TextLayout`` (:class:`xsys.core.textblock.TextLayout`) builds
    the layout a system gets when its ``text_block`` is ``name``.

    One printed block may serve several systems (the Call of Cthulhu stat block reads into
    either edition), so the block is a format of its own and each system only names it: a
    system that declares ``text_layout()`` itself needs none of this. A name is registered
    once: a second plugin registering it is skipped as a whole, the reason naming the first.
    An exception in ``make`` leaves that system without text blocks, as one in a system's own
    ``text_layout()`` does (the other systems still read theirs). Called once, the first time a
    text block is read or written. Return value ignored."""


# ---- checks -----------------------------------------------------------------------

@hookspec
def xsys_shot_modifiers(system: str, shot: Shot) -> list[Modifier] | None:
    """House rules: extra modifiers for a shot in a system the plugin need not own.

    ``system`` is the system key being checked. Return a list of
    :class:`xsys.core.trace.Modifier` (each with its own rule ID and ``source``) or None.
    Every plugin's list is applied, after the system's own modifiers, and appears in the
    trace. A plugin that raises or returns anything else is skipped from then on (every
    system still answers; the error names the plugin)."""


# ---- command line -----------------------------------------------------------------

@hookspec
def xsys_register_commands(app: Any) -> None:
    """Add commands to the ``xsys`` command line. ``app`` is the root ``typer.Typer``;
    use ``app.command(rich_help_panel="Plugins")(fn)`` or ``app.add_typer(...)``. Called
    once while the CLI is built. A command may not replace an existing one (the plugin's
    commands are then skipped); an exception in a command ends it with a one-line error
    naming the plugin. Return value ignored."""


HOOK_NAMES: tuple[str, ...] = (
    "xsys_register_systems",
    "xsys_register_catalog",
    "xsys_register_formats",
    "xsys_register_text_blocks",
    "xsys_shot_modifiers",
    "xsys_register_commands",
)
