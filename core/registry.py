"""The plugin manager: finds plugins through the ``xsys`` entry-point group, collects
their systems, catalog entries and formats, and contains their faults.

Environment:
- ``XSYS_PLUGINS=a,b``: load only these entry points (by entry-point name);
- ``XSYS_DISABLE_PLUGINS=a,b``: skip these.

A plugin that fails to import or raises inside a registration hook is recorded as
broken with the reason (``xsys systems`` shows it); the others keep working.

A command pays only for the systems it touches: :meth:`Registry.system` asks the plugin
whose entry-point name is the system key first (the built-in plugins are named so), and
collects every plugin's systems only when that plugin does not register the key. Listing
the systems (:meth:`Registry.keys`, :meth:`Registry.load`) collects them all, and so
checks that no key is claimed twice.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any, Callable, Iterable

import pluggy

from . import hookspecs
from .catalog import Catalog
from .errors import PluginError, UnknownSystemError
from .system import System

GROUP = "xsys"


@dataclass
class SystemEntry:
    cls: type[System]
    plugin: str
    distribution: str
    version: str


@dataclass
class BrokenPlugin:
    name: str
    distribution: str
    reason: str


@dataclass
class Registry:
    """Loads plugins once and answers which systems, catalog and formats exist."""

    entry_points: Iterable[metadata.EntryPoint] | None = None
    only: set[str] | None = None
    disabled: set[str] = field(default_factory=set)
    extra_plugins: list[tuple[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.pm = pluggy.PluginManager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        self._plugins_loaded = False
        self._loaded = False
        self._systems: dict[str, SystemEntry] = {}
        self._first: dict[str, SystemEntry] = {}  # systems found before all were collected
        self._instances: dict[tuple[str, Any], System] = {}
        self._catalog: Catalog | None = None
        self._formats: dict[str, Any] | None = None
        self.broken: list[BrokenPlugin] = []
        self.plugin_dist: dict[str, tuple[str, str]] = {}
        self._lock = threading.RLock()

    # ---- loading -------------------------------------------------------------------
    def load(self) -> "Registry":
        """Import every plugin and collect every system (PluginError if a key is claimed twice)."""
        with self._lock:
            if self._loaded:
                return self
            self._load_plugins()
            self._collect_systems()
            self._loaded = True
            return self

    def _load_plugins(self) -> None:
        """Import every plugin and register its hooks; no hook is called yet."""
        with self._lock:
            if self._plugins_loaded:
                return
            eps = list(self.entry_points) if self.entry_points is not None else list(
                metadata.entry_points(group=GROUP))
            eps.sort(key=lambda e: e.name)
            for ep in eps:
                if self.only is not None and ep.name not in self.only:
                    continue
                if ep.name in self.disabled:
                    continue
                dist = getattr(ep, "dist", None)
                dname = dist.name if dist is not None else "?"
                dver = dist.version if dist is not None else "?"
                try:
                    obj = ep.load()
                except Exception as exc:  # contained: a third-party import error
                    self.broken.append(BrokenPlugin(ep.name, dname, f"import failed: {type(exc).__name__}: {exc}"))
                    continue
                self._register_plugin(ep.name, obj, dname, dver)
            for name, obj in self.extra_plugins:
                self._register_plugin(name, obj, name, "local")
            self._plugins_loaded = True

    def _register_plugin(self, name: str, obj: Any, dname: str, dver: str) -> None:
        if self.pm.has_plugin(name) or self.pm.is_registered(obj):
            raise PluginError(f"plugin {name!r} ({dname}) is registered twice")
        try:
            self.pm.register(obj, name=name)
            self.pm.check_pending()
        except pluggy.PluginValidationError as exc:
            self._unregister(name)
            self.broken.append(BrokenPlugin(name, dname, f"invalid hook implementation: {exc}"))
            return
        self.plugin_dist[name] = (dname, dver)

    def _unregister(self, name: str) -> None:
        try:
            self.pm.unregister(name=name)
        except Exception:
            pass

    def _collect_systems(self) -> None:
        for impl in self.pm.hook.xsys_register_systems.get_hookimpls():
            name = impl.plugin_name
            found: list[type[System]] = []

            def register(cls: type[System], _found=found) -> None:
                _found.append(cls)

            try:
                impl.function(register=register)
                for cls in found:
                    if not (isinstance(cls, type) and issubclass(cls, System)) or not cls.key:
                        raise TypeError(f"registered {cls!r}, which is not a System subclass with a key")
            except Exception as exc:
                self.broken.append(BrokenPlugin(name, self.plugin_dist.get(name, ("?",))[0],
                                                f"xsys_register_systems raised {type(exc).__name__}: {exc}"))
                continue
            dname, dver = self.plugin_dist.get(name, (name, "?"))
            for cls in found:
                prev = self._systems.get(cls.key)
                if prev is not None:
                    raise PluginError(
                        f"system key {cls.key!r} is claimed by two plugins: {prev.plugin!r} ({prev.distribution}) "
                        f"and {name!r} ({dname})"
                    )
                self._systems[cls.key] = SystemEntry(cls, name, dname, dver)

    # ---- systems -------------------------------------------------------------------
    def keys(self) -> list[str]:
        self.load()
        return sorted(self._systems)

    def entry(self, key: str) -> SystemEntry:
        if not self._loaded:
            found = self._first.get(key) or self._from_own_plugin(key)
            if found is not None:
                return found
        self.load()
        try:
            return self._systems[key]
        except KeyError:
            raise UnknownSystemError(
                "unknown system", expected="one of " + ", ".join(sorted(self._systems)) if self._systems
                else "an installed system (none is installed)", found=repr(key),
            ) from None

    def _from_own_plugin(self, key: str) -> SystemEntry | None:
        """System `key` from the plugin of the same name alone, or None (then every plugin
        is asked, which also records any fault)."""
        with self._lock:
            self._load_plugins()
            for impl in self.pm.hook.xsys_register_systems.get_hookimpls():
                if impl.plugin_name != key:
                    continue
                found: list[Any] = []
                try:
                    impl.function(register=found.append)
                except Exception:
                    return None
                for cls in found:
                    if isinstance(cls, type) and issubclass(cls, System) and cls.key == key:
                        dname, dver = self.plugin_dist.get(key, (key, "?"))
                        entry = self._first[key] = SystemEntry(cls, key, dname, dver)
                        return entry
            return None

    def system(self, key: str, settings: Any = None) -> System:
        """A (cached) instance of system `key` with `settings` (None: its defaults)."""
        cache_key = (key, _freeze(settings))
        inst = self._instances.get(cache_key)
        if inst is None:
            entry = self.entry(key)
            try:
                inst = entry.cls(settings)
            except Exception as exc:
                from .errors import XsysError

                if isinstance(exc, XsysError):
                    raise
                raise PluginError(f"system {key!r} from plugin {entry.plugin!r} failed to start: "
                                  f"{type(exc).__name__}: {exc}") from exc
            self._instances[cache_key] = inst
        return inst

    def systems(self) -> list[System]:
        return [self.system(k) for k in self.keys()]

    # ---- catalog and formats ---------------------------------------------------------
    def catalog(self) -> Catalog:
        if self._catalog is None:
            with self._lock:
                if self._catalog is None:
                    self._load_plugins()
                    cat = Catalog()
                    for impl in self.pm.hook.xsys_register_catalog.get_hookimpls():
                        try:
                            impl.function(catalog=cat)
                        except Exception as exc:
                            from .errors import XsysError

                            if isinstance(exc, XsysError):
                                raise
                            self.broken.append(BrokenPlugin(impl.plugin_name, "?",
                                                            f"xsys_register_catalog raised {type(exc).__name__}: {exc}"))
                    for path in _split(os.environ.get("XSYS_CATALOG", "")):
                        cat.add_toml(path)
                    self._catalog = cat
        return self._catalog

    def shot_modifiers(self, system: str, shot: Any) -> list[Any]:
        self._load_plugins()
        out: list[Any] = []
        for impl in self.pm.hook.xsys_shot_modifiers.get_hookimpls():
            try:
                res = impl.function(system=system, shot=shot)
            except Exception as exc:
                raise PluginError(f"plugin {impl.plugin_name!r} raised in xsys_shot_modifiers: "
                                  f"{type(exc).__name__}: {exc}") from exc
            if res:
                out.extend(res)
        return out

    def register_commands(self, app: Any) -> None:
        self._load_plugins()
        for impl in self.pm.hook.xsys_register_commands.get_hookimpls():
            try:
                impl.function(app=app)
            except Exception as exc:
                self.broken.append(BrokenPlugin(impl.plugin_name, "?",
                                                f"xsys_register_commands raised {type(exc).__name__}: {exc}"))

    def formats(self) -> dict[str, Any]:
        if self._formats is None:
            self._load_plugins()
            found: dict[str, Any] = {}

            def register(name: str, extensions: Iterable[str], load: Callable, dump: Callable) -> None:
                for ext in extensions:
                    e = ext.lower().lstrip(".")
                    if e in found:
                        raise PluginError(f"format extension .{e} registered twice ({found[e][0]!r} and {name!r})")
                    found[e] = (name, load, dump)

            for impl in self.pm.hook.xsys_register_formats.get_hookimpls():
                impl.function(register=register)
            self._formats = found
        return self._formats


def _split(text: str) -> list[str]:
    return [t.strip() for t in text.replace(os.pathsep, ",").split(",") if t.strip()]


def _freeze(obj: Any) -> Any:
    if obj is None:
        return None
    try:
        hash(obj)
        return obj
    except TypeError:
        return repr(obj)


_default: Registry | None = None
_default_lock = threading.Lock()


def default_registry() -> Registry:
    """The process-wide registry, configured from the environment."""
    global _default
    if _default is None:
        with _default_lock:
            if _default is None:
                only = os.environ.get("XSYS_PLUGINS")
                _default = Registry(
                    only=set(_split(only)) if only else None,
                    disabled=set(_split(os.environ.get("XSYS_DISABLE_PLUGINS", ""))),
                )
    return _default


def set_default_registry(reg: Registry | None) -> None:
    """Replace the process-wide registry (tests, embedding applications)."""
    global _default
    _default = reg


def get_system(key: str, settings: Any = None) -> System:
    return default_registry().system(key, settings)


def catalog() -> Catalog:
    return default_registry().catalog()
