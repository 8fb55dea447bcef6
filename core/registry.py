"""The plugin manager: finds plugins through the ``xsys`` entry-point group, collects
their systems, catalog entries and formats, and contains their faults.

Environment:
- ``XSYS_PLUGINS=a,b``: load only these entry points (by entry-point name);
- ``XSYS_DISABLE_PLUGINS=a,b``: skip these;
- ``XSYS_PLUGIN_TIMEOUT=S``: seconds a third-party plugin call may take: its import, a
  hook, a format's reader or writer, a method of its system (default 30; 0: no limit).
  See :mod:`xsys.core.containment` for what can and cannot be stopped.

A plugin is contained: one that fails to import, raises (or calls ``sys.exit``) in any
hook, returns something of the wrong type, takes too long to import, or claims what is
already someone else's (a system key, an entry-point name, a catalog id, a file
extension, a command name) is recorded as broken with its distribution and the reason
(``xsys systems`` lists them) and skipped; every other plugin keeps working. The
built-in plugins (distribution ``xsys``) are loaded first and keep what they register:
a third-party plugin's garbage is never blamed on them. Every call into a third-party
plugin's code goes through :func:`xsys.core.containment.run` (a time limit, its standard
output sent to stderr, ``os._exit`` and its own KeyboardInterrupt caught, the plugin named
on every failure); the built-in plugins' code is called directly, at no cost.

A command pays only for the systems it touches: :meth:`Registry.system` asks the plugin
whose entry-point name is the system key first (the built-in plugins are named so), and
collects every plugin's systems only when that plugin does not register the key. Listing
the systems (:meth:`Registry.keys`, :meth:`Registry.load`) collects them all. A key is
given to a built-in plugin, else to the plugin named after it; when neither claims it,
two plugins claiming it are both skipped (the lazy and the full look-up agree).
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import re
import threading
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

import msgspec
import pluggy

from . import hookspecs
from .containment import (DEFAULT_TIMEOUT, PluginExit, PluginHalt, PluginKeyboardInterrupt,  # noqa: F401
                          PluginTimeout, plugin_timeout, run)
from .errors import InputError, PluginError, UnknownSystemError, XsysError
from . import catalog as _catalog_module
from . import system as _system_module
from .system import System

if TYPE_CHECKING:  # imported when first used: a command that needs no catalog does not load it
    from importlib import metadata

    from .catalog import Catalog

GROUP = "xsys"
BUILTIN_DISTRIBUTION = "xsys"
RESERVED_KEYS = frozenset({"neutral"})  # the neutral model is no plugin's system
BUILTIN_FORMATS = frozenset({"yaml", "yml", "json", "toml", "md"})
# What a plugin may raise: any exception, and SystemExit (a plugin calling sys.exit() must
# not end xsys). KeyboardInterrupt still stops everything, as the user asked.
PLUGIN_FAULTS: tuple[type[BaseException], ...] = (Exception, SystemExit)
_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")


class SystemEntry(msgspec.Struct):
    cls: type[System]
    plugin: str
    distribution: str
    version: str

    @property
    def builtin(self) -> bool:
        return self.distribution == BUILTIN_DISTRIBUTION


class FormatSpec(msgspec.Struct, frozen=True):
    """A document format a plugin registered: its name, file extensions, reader, writer
    (None: read only) and the test by which it claims a JSON document of its own shape."""

    name: str
    extensions: tuple[str, ...]
    load: Callable[[bytes], Any]
    dump: Callable[[Any], bytes] | None
    sniff: Callable[[Any], bool] | None
    plugin: str


class BrokenPlugin(msgspec.Struct):
    name: str
    distribution: str
    reason: str
    version: str = "?"

    def line(self) -> str:
        """``plugin 'evil' (xsys-evil 1.0) skipped: <reason>``: how a command says it."""
        dist = self.distribution if self.version == "?" else f"{self.distribution} {self.version}"
        return f"plugin {self.name!r} ({dist}) skipped: {self.reason}"


def _fault(hook: str, exc: BaseException) -> str:
    """``xsys_register_systems raised ValueError: boom``, ``... called sys.exit(3)``."""
    if isinstance(exc, PluginHalt):  # it names the plugin and the hook itself
        return str(exc)
    return f"{hook} {'raised ' if isinstance(exc, Exception) else ''}{describe_fault(exc)}"


def describe_fault(exc: BaseException) -> str:
    """A plugin's fault in a few words: ``ValueError: boom``, ``called sys.exit(3)``."""
    if isinstance(exc, PluginExit):
        return f"called os._exit({exc.code!r})"
    if isinstance(exc, SystemExit):
        return f"called sys.exit({exc.code!r})"
    if isinstance(exc, (PluginHalt, PluginKeyboardInterrupt)):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"


class Registry:
    """Loads plugins once and answers which systems, catalog and formats exist."""

    def __init__(self, entry_points: Iterable[metadata.EntryPoint] | None = None, only: set[str] | None = None,
                 disabled: set[str] | None = None, extra_plugins: list[tuple[str, Any]] | None = None) -> None:
        self.entry_points = entry_points
        self.only = only
        self.disabled: set[str] = set() if disabled is None else disabled
        self.extra_plugins: list[tuple[str, Any]] = [] if extra_plugins is None else extra_plugins
        self.pm = pluggy.PluginManager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        self._plugins_loaded = False
        self._loaded = False
        self._systems: dict[str, SystemEntry] = {}
        self._first: dict[str, SystemEntry] = {}  # systems found before all were collected
        self._instances: dict[tuple[str, Any], System] = {}
        self._catalog: Catalog | None = None
        self._formats: dict[str, Any] | None = None
        self._text_blocks: dict[str, tuple[Callable[[Any], Any], str]] | None = None
        self._format_specs: dict[str, FormatSpec] = {}
        self.broken: list[BrokenPlugin] = []
        self.plugin_dist: dict[str, tuple[str, str]] = {}
        self._skip: set[str] = set()  # plugins whose hooks failed at run time
        self._hangs: _Hangs | None = None
        self._timed_out: dict[str, str] = {}  # plugin (who) -> why: it ran past its time and is not run again
        self._versions: dict[str, str] = {}  # entry-point name -> its distribution's version, as found
        self._lock = threading.RLock()

    # ---- who is who ----------------------------------------------------------------
    def distribution(self, plugin: str) -> tuple[str, str]:
        return self.plugin_dist.get(plugin, (plugin, "?"))

    def is_builtin(self, plugin: str) -> bool:
        return self.distribution(plugin)[0] == BUILTIN_DISTRIBUTION

    def who(self, plugin: str) -> str:
        """``plugin 'evil' (xsys-evil 1.0)``: how errors name a plugin."""
        dname, dver = self.distribution(plugin)
        return f"plugin {plugin!r} ({dname} {dver})"

    def _broken(self, plugin: str, reason: str, dname: str | None = None, dver: str | None = None) -> None:
        dist = dname if dname is not None else self.distribution(plugin)[0]
        version = dver or self._versions.get(plugin) or self.distribution(plugin)[1]
        if not any(b.name == plugin and b.reason == reason for b in self.broken):
            self.broken.append(BrokenPlugin(plugin, dist, reason, version))

    def _call(self, plugin: str, what: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``fn(*args, **kwargs)``, code of `plugin` doing `what`: a built-in plugin's as it is,
        a third-party one's contained (:func:`xsys.core.containment.run`: a time limit, its
        standard output sent to stderr, ``os._exit`` and its own KeyboardInterrupt caught)."""
        if self.is_builtin(plugin):
            return fn(*args, **kwargs)
        return run(self.who(plugin), what, None, fn, args, kwargs, self._timed_out)

    # ---- loading -------------------------------------------------------------------
    def load(self) -> "Registry":
        """Import every plugin and collect every system (faults are recorded, not raised)."""
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
            eps = list(self.entry_points) if self.entry_points is not None else installed_entry_points()
            eps.sort(key=lambda e: (not _ep_builtin(e), e.name))  # the built-in plugins first
            for ep in eps:
                if self.only is not None and ep.name not in self.only:
                    continue
                if ep.name in self.disabled:
                    continue
                dist = getattr(ep, "dist", None)
                dname = _text(getattr(dist, "name", None)) if dist is not None else "?"
                dver = _text(getattr(dist, "version", None)) if dist is not None else "?"
                if self.pm.has_plugin(ep.name):
                    owner = self.who(ep.name)
                    self._broken(ep.name, f"entry-point name {ep.name!r} is already taken by {owner}; skipped",
                                 dname, dver)
                    continue
                self._versions[ep.name] = dver
                if dname == BUILTIN_DISTRIBUTION:
                    obj = ep.load()  # our own: a fault here is xsys's, and shows as one
                else:
                    obj = self._import(ep, dname, dver)
                    if obj is _SKIPPED:
                        continue
                self._register_plugin(ep.name, obj, dname, dver)
            for name, obj in self.extra_plugins:
                if self.pm.has_plugin(name):
                    self._broken(name, f"entry-point name {name!r} is already taken by {self.who(name)}; skipped",
                                 name)
                    continue
                self._register_plugin(name, obj, _extra_distribution(obj, name), "local")
            self._plugins_loaded = True

    def _import(self, ep: Any, dname: str, dver: str) -> Any:
        """A third-party entry point's object, imported under containment; :data:`_SKIPPED`
        when it fails (recorded as broken). One whose import ran past the time limit is
        remembered across processes (:class:`_Hangs`) and skipped without waiting again
        until it changes."""
        limit = plugin_timeout()
        who = f"plugin {ep.name!r} ({dname} {dver})"
        hangs = self._hangs if self._hangs is not None else _Hangs()
        self._hangs = hangs
        known = hangs.known(ep, dname, dver, limit)
        if known is not None:
            self._broken(ep.name, f"import took longer than {known:g} s (XSYS_PLUGIN_TIMEOUT) when last tried; "
                         f"not tried again until the plugin changes ({hangs.where()})", dname)
            return _SKIPPED
        try:
            obj = run(who, "import", limit, ep.load)
        except PluginTimeout:
            hangs.remember(ep, dname, dver, limit)
            self._broken(ep.name, f"import took longer than {limit:g} s (XSYS_PLUGIN_TIMEOUT); skipped", dname)
            return _SKIPPED
        except (*PLUGIN_FAULTS, PluginHalt) as exc:  # contained: a third-party import fault
            self._broken(ep.name, f"import failed: {describe_fault(exc)}", dname)
            return _SKIPPED
        hangs.forget(ep, dname)
        return obj

    def _register_plugin(self, name: str, obj: Any, dname: str, dver: str) -> None:
        if self.pm.is_registered(obj):
            self._broken(name, f"the same plugin object is already registered as {self.pm.get_name(obj)!r}; "
                         "skipped", dname)
            return
        try:
            self.pm.register(obj, name=name)
            self.pm.check_pending()
        except pluggy.PluginValidationError as exc:
            self._unregister(name)
            self._broken(name, f"invalid hook implementation: {exc}", dname)
            return
        except PLUGIN_FAULTS as exc:
            self._unregister(name)
            self._broken(name, f"cannot be registered: {describe_fault(exc)}", dname)
            return
        self.plugin_dist[name] = (dname, dver)

    def _unregister(self, name: str) -> None:
        try:
            self.pm.unregister(name=name)
        except Exception:
            pass

    def _impls(self, hook: str) -> list[Any]:
        """The implementations of `hook`: built-in plugins first, then the others by name,
        leaving out those found faulty at run time."""
        impls = getattr(self.pm.hook, hook).get_hookimpls()
        order = {n: i for i, n in enumerate(self.plugin_dist)}
        impls = [i for i in impls if i.plugin_name not in self._skip]
        return sorted(impls, key=lambda i: (not self.is_builtin(i.plugin_name), order.get(i.plugin_name, 1 << 30)))

    def _systems_of(self, impl: Any) -> list[type[System]]:
        """Call one plugin's xsys_register_systems; what it registers, checked (raises the
        plugin's fault as a PluginError with the reason)."""
        found: list[Any] = []
        name = impl.plugin_name
        try:
            self._call(name, "xsys_register_systems", impl.function, register=found.append)
        except (*PLUGIN_FAULTS, PluginHalt) as exc:
            raise PluginError(_fault("xsys_register_systems", exc)) from exc
        for cls in found:
            problem = _system_problem(cls)
            if problem:
                raise PluginError(f"registered {cls!r}, which is not a usable system: {problem}")
        return found

    def _collect_systems(self) -> None:
        claims: dict[str, list[tuple[str, type[System]]]] = {}
        for impl in self._impls("xsys_register_systems"):
            name = impl.plugin_name
            try:
                found = self._systems_of(impl)
            except PluginError as exc:
                self._broken(name, exc.message)
                continue
            for cls in found:
                claims.setdefault(cls.key, []).append((name, cls))
        for key, who in claims.items():
            winner = self._owner(key, who)
            if winner is None:
                names = ", ".join(self.who(n) for n, _ in who)
                for n, _ in who:
                    self._broken(n, f"system key {key!r} is claimed by several plugins ({names}), none of them "
                                 "built in or named after it; skipped")
                continue
            wname, wcls = winner
            dname, dver = self.distribution(wname)
            self._systems[key] = SystemEntry(wcls, wname, dname, dver)
            for n, _ in who:
                if n != wname:
                    self._broken(n, f"system key {key!r} is already registered by {self.who(wname)}; skipped")

    def _owner(self, key: str, who: list[tuple[str, type[System]]]) -> tuple[str, type[System]] | None:
        builtin = [w for w in who if self.is_builtin(w[0])]
        if len(builtin) > 1:  # our own packaging error, not a user's plugin
            raise PluginError(f"system key {key!r} is claimed by two built-in plugins: "
                              + " and ".join(repr(n) for n, _ in builtin))
        if builtin:
            return builtin[0]
        named = [w for w in who if w[0] == key]
        if named:
            return named[0]
        return who[0] if len(who) == 1 else None

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
            for impl in self._impls("xsys_register_systems"):
                if impl.plugin_name != key:
                    continue
                try:
                    found = self._systems_of(impl)
                except PluginError:
                    return None
                for cls in found:
                    if cls.key == key:
                        dname, dver = self.distribution(key)
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
                inst = self._call(entry.plugin, "start", entry.cls, settings)
            except XsysError:
                raise
            except (*PLUGIN_FAULTS, PluginHalt) as exc:
                raise PluginError(f"system {key!r} from {self.who(entry.plugin)} failed to start: "
                                  f"{describe_fault(exc)}") from exc
            if not entry.builtin:
                _contain_methods(inst, self.who(entry.plugin), self._timed_out)
            try:  # errors about this instance name its plugin and distribution
                inst.xsys_plugin = self.who(entry.plugin)  # type: ignore[attr-defined]
            except Exception:
                pass
            self._instances[cache_key] = inst
        return inst

    def systems(self) -> list[System]:
        return [self.system(k) for k in self.keys()]

    def build_tables(self, strict: bool = True) -> int:
        """Build every system's ladders, characteristic ladders and skill ladders (each skill at
        its default context, which computes the dice tables behind them); how many were built.
        A long-lived process (``xsys serve``) does it once before it forks its workers, so that
        none of them pays the seconds a table costs the first time in a request. With `strict`
        False a system whose tables fail is passed over (it shows itself when asked for)."""
        n = 0
        for system in self.systems():
            try:
                n += len(system.ladders())
                n += len(system.characteristics())
                for skill in system.skills():
                    system.skill_ladder(skill, None)
                    n += 1
            except Exception:
                if strict:
                    raise
        return n

    def call_for(self, key: str, what: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``fn(*args, **kwargs)``: code that system `key`'s plugin handed over (a formula it
        declared, core.formulas), contained as that system's own methods are."""
        return self._call(self.entry(key).plugin, what, fn, *args, **kwargs)

    # ---- catalog and formats ---------------------------------------------------------
    def catalog(self) -> Catalog:
        """The catalog: the built-in plugin's entries, then each other plugin's (a plugin
        whose hook fails, or that reuses an id already taken, is skipped as a whole), then
        the user's files in ``XSYS_CATALOG`` (a clash there is the user's error)."""
        if self._catalog is None:
            with self._lock:
                if self._catalog is None:
                    self._load_plugins()
                    from .catalog import Catalog

                    cat = Catalog()
                    for impl in self._impls("xsys_register_catalog"):
                        name = impl.plugin_name
                        stage = Catalog()
                        try:
                            self._call(name, "xsys_register_catalog", impl.function, catalog=stage)
                            _merge_catalog(cat, stage)
                        except (*PLUGIN_FAULTS, PluginHalt) as exc:
                            if self.is_builtin(name) and isinstance(exc, XsysError):
                                raise
                            text = exc.line() if isinstance(exc, XsysError) else _fault("xsys_register_catalog", exc)
                            self._broken(name, f"{text}; its entries are skipped")
                    for path in _split(os.environ.get("XSYS_CATALOG", "")):
                        cat.add_toml(path)
                    self._catalog = cat
        return self._catalog

    def shot_modifiers(self, system: str, shot: Any, faults: list[PluginError] | None = None) -> list[Any]:
        """Every plugin's house-rule modifiers for `shot` in `system`. A plugin that raises
        or returns anything but a list of Modifiers is skipped from now on (recorded as
        broken; its PluginError is appended to `faults`, or raised when `faults` is None)."""
        from .trace import Modifier

        self._load_plugins()
        out: list[Any] = []
        for impl in self._impls("xsys_shot_modifiers"):
            name = impl.plugin_name
            try:
                res = self._call(name, "xsys_shot_modifiers", impl.function, system=system, shot=shot)
                if res is None:
                    continue
                if not isinstance(res, (list, tuple)):
                    raise TypeError(f"returned {type(res).__name__}, not a list of Modifiers")
                for m in res:
                    problem = _modifier_problem(m, Modifier)
                    if problem:
                        raise TypeError(f"returned {problem}")
            except (*PLUGIN_FAULTS, PluginHalt) as exc:
                err = PluginError(f"{self.who(name)} failed in xsys_shot_modifiers ({describe_fault(exc)}); its "
                                  "house rules are skipped")
                self._skip.add(name)
                self._broken(name, err.message)
                if faults is None:
                    raise err from exc
                faults.append(err)
                continue
            out.extend(res)
        return out

    def register_commands(self, app: Any) -> None:
        """Each plugin's commands, added to `app`: a command that would replace an existing
        one is refused, and a plugin command that fails ends as a one-line error naming the
        plugin, never a traceback."""
        self._load_plugins()
        for impl in self._impls("xsys_register_commands"):
            name = impl.plugin_name
            before_cmds = list(getattr(app, "registered_commands", []))
            before_groups = list(getattr(app, "registered_groups", []))
            taken = {_command_name(c) for c in before_cmds} | {_group_name(g) for g in before_groups}
            try:
                self._call(name, "xsys_register_commands", impl.function, app=app)
            except (*PLUGIN_FAULTS, PluginHalt) as exc:
                _restore_list(app, "registered_commands", before_cmds)
                _restore_list(app, "registered_groups", before_groups)
                self._broken(name, f"{_fault('xsys_register_commands', exc)}; its commands are skipped")
                continue
            new_cmds = [c for c in getattr(app, "registered_commands", []) if not any(c is b for b in before_cmds)]
            new_groups = [g for g in getattr(app, "registered_groups", []) if not any(g is b for b in before_groups)]
            clash = sorted({_command_name(c) for c in new_cmds} & taken | {_group_name(g) for g in new_groups} & taken)
            if clash:
                _restore_list(app, "registered_commands", before_cmds)
                _restore_list(app, "registered_groups", before_groups)
                self._broken(name, "xsys_register_commands: command name(s) " + ", ".join(map(repr, clash))
                             + " already taken; its commands are skipped")
                continue
            for c in new_cmds:
                _guard_command(c, self.who(name))
            for g in new_groups:
                for c in _group_commands(g):
                    _guard_command(c, self.who(name))

    def formats(self) -> dict[str, Any]:
        """Extra document formats: extension -> (name, load, dump). A plugin that raises,
        registers a built-in extension or one another plugin has, is skipped; its load and
        dump are guarded (a fault in them is an error naming the plugin)."""
        if self._formats is None:
            with self._lock:
                if self._formats is None:
                    self._load_plugins()
                    found: dict[str, Any] = {}
                    owner: dict[str, str] = {}

                    def staging(name: str) -> tuple[Callable[..., None], tuple[dict[str, Any], dict[str, FormatSpec]]]:
                        stage: dict[str, Any] = {}
                        stage_specs: dict[str, FormatSpec] = {}

                        def register(fmt_name: Any, extensions: Iterable[str], load: Callable,
                                     dump: Callable | None = None, *, sniff: Callable | None = None,
                                     _stage=stage, _specs=stage_specs, _who=self.who(name),
                                     _plugin=name) -> None:
                            if not isinstance(fmt_name, str) or not fmt_name:
                                raise TypeError(f"format name {fmt_name!r} is not a string")
                            if isinstance(extensions, str) or not all(isinstance(e, str) for e in extensions):
                                raise TypeError(f"extensions {extensions!r} are not a list of strings")
                            if not callable(load) or not (dump is None or callable(dump)):
                                raise TypeError("load and dump must be callables")
                            if sniff is not None and not callable(sniff):
                                raise TypeError("sniff must be a callable")
                            key = fmt_name.lower()
                            if key in BUILTIN_FORMATS or key in self._format_specs or key in _specs:
                                other = self._format_specs[key].plugin if key in self._format_specs else None
                                raise PluginError(f"format name {fmt_name!r} is "
                                                  + ("built in" if key in BUILTIN_FORMATS else
                                                     f"already registered by {self.who(other) if other else _who}"))
                            g_load = self._guard_io(load, fmt_name, "read", _plugin)
                            g_dump = self._guard_io(dump, fmt_name, "write", _plugin) if dump is not None else None
                            g_sniff = self._guard_io(sniff, fmt_name, "read", _plugin) if sniff is not None else None
                            exts = []
                            for ext in extensions:
                                e = ext.lower().lstrip(".")
                                if e in BUILTIN_FORMATS:
                                    raise PluginError(f"format extension .{e} is built in")
                                if e in found or e in _stage:
                                    other = owner.get(e, _who)
                                    raise PluginError(f"format extension .{e} is already registered by {other}")
                                _stage[e] = (fmt_name, g_load, g_dump)
                                exts.append(e)
                            _specs[key] = FormatSpec(fmt_name, tuple(exts), g_load, g_dump, g_sniff, _plugin)

                        return register, (stage, stage_specs)

                    for name, (stage, stage_specs) in self._staged("xsys_register_formats", "formats", staging):
                        found.update(stage)
                        owner.update({e: self.who(name) for e in stage})
                        self._format_specs.update(stage_specs)
                    self._formats = found
        return self._formats

    def _staged(self, hook: str, what: str, staging: Callable[[str], tuple[Callable[..., None], Any]]
                ) -> Iterator[tuple[str, Any]]:
        """Each plugin implementing `hook` (a registration hook), called with the register
        function ``staging(plugin)`` gives beside the stage it fills; yields (plugin, stage) for
        each whose hook returned. One that raises (a register refusing what it is given raises
        too) is reported broken and its `what` skipped as a whole."""
        for impl in self._impls(hook):
            name = impl.plugin_name
            register, stage = staging(name)
            try:
                self._call(name, hook, impl.function, register=register)
            except (*PLUGIN_FAULTS, PluginHalt) as exc:
                text = exc.message if isinstance(exc, XsysError) else _fault(hook, exc)
                self._broken(name, f"{text}; its {what} are skipped")
                continue
            yield name, stage

    def text_blocks(self) -> dict[str, tuple[Callable[[Any], Any], str]]:
        """The stat-block layouts format plugins register (hook xsys_register_text_blocks):
        name -> (make, plugin). A plugin that raises, or registers a name already taken, is
        skipped as a whole."""
        if self._text_blocks is None:
            with self._lock:
                if self._text_blocks is None:
                    self._load_plugins()
                    found: dict[str, tuple[Callable[[Any], Any], str]] = {}

                    def staging(name: str) -> tuple[Callable[..., None], dict[str, tuple[Callable[[Any], Any], str]]]:
                        stage: dict[str, tuple[Callable[[Any], Any], str]] = {}

                        def register(block: Any, make: Callable[[Any], Any], _stage=stage, _plugin=name) -> None:
                            if not isinstance(block, str) or not block:
                                raise TypeError(f"text block name {block!r} is not a string")
                            if not callable(make):
                                raise TypeError("make must be a callable (system -> TextLayout)")
                            if block in found or block in _stage:
                                other = found[block][1] if block in found else _plugin
                                raise PluginError(f"text block {block!r} is already registered by {self.who(other)}")
                            _stage[block] = (make, _plugin)

                        return register, stage

                    for _name, stage in self._staged("xsys_register_text_blocks", "text blocks", staging):
                        found.update(stage)
                    self._text_blocks = found
        return self._text_blocks

    def _guard_io(self, fn: Callable, fmt_name: str, what: str, plugin: str) -> Callable:
        """A format plugin's reader or writer: a fault in it is an error naming the plugin."""
        who = self.who(plugin)
        builtin = self.is_builtin(plugin)

        @functools.wraps(fn)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            try:
                if builtin:
                    return fn(*args, **kwargs)
                return run(who, f"format {fmt_name!r} {what}", None, fn, args, kwargs, self._timed_out)
            except XsysError:
                raise
            except (*PLUGIN_FAULTS, PluginHalt) as exc:
                raise PluginError(f"format {fmt_name!r} of {who} failed to {what}: {describe_fault(exc)}") from exc
        return guarded

    def format_specs(self) -> dict[str, FormatSpec]:
        """Every plugin format by its name (lower case), in the order plugins registered them."""
        self.formats()
        return self._format_specs

    def format_named(self, key: str) -> FormatSpec | None:
        """The plugin format called `key`, or whose file extension `key` is (any case)."""
        k = key.lower().lstrip(".")
        specs = self.format_specs()
        if k in specs:
            return specs[k]
        found = self.formats().get(k)
        return specs.get(found[0].lower()) if found is not None else None


# ---- checks on what plugins hand over ------------------------------------------------

# ---- the installed entry points, remembered --------------------------------------------
#
# Finding the plugins through importlib.metadata costs a cold start more than anything else
# xsys itself imports (the module and the scan of every installed distribution). What it
# found is kept in the on-disk cache (core/cache.py) under a fingerprint of what it reads:
# every folder and archive on sys.path, the names of the distributions there (a new
# version is a new name) and the size and time of each one's entry_points.txt. While the
# fingerprint holds, the entry points are taken from the cache and importlib.metadata is not
# imported at all.

_EP_VALUE = re.compile(r"^(?P<module>[\w.]+)\s*(?::\s*(?P<attr>[\w.]+)\s*)?(?:\[.*\]\s*)?$")


class _Dist:
    __slots__ = ("name", "version")

    def __init__(self, name: str, version: str) -> None:
        self.name = name
        self.version = version


class CachedEntryPoint:
    """An entry point as importlib.metadata gives it (name, value, group, dist, load)."""

    __slots__ = ("name", "value", "group", "dist")

    def __init__(self, name: str, value: str, dist_name: str, dist_version: str) -> None:
        self.name = name
        self.value = value
        self.group = GROUP
        self.dist = _Dist(dist_name, dist_version)

    def load(self) -> Any:
        import importlib

        m = _EP_VALUE.match(self.value)
        if m is None:
            raise ValueError(f"malformed entry point {self.value!r}")
        obj = importlib.import_module(m.group("module"))
        for part in (m.group("attr") or "").split("."):
            if part:
                obj = getattr(obj, part)
        return obj

    def __repr__(self) -> str:
        return f"CachedEntryPoint(name={self.name!r}, value={self.value!r}, group={self.group!r})"


def _distributions_fingerprint() -> str:
    import hashlib
    import sys

    h = hashlib.sha256(f"{GROUP}\0{sys.version}\0".encode())
    for entry in sys.path:
        where = entry or "."
        h.update(b"\1" + os.fsencode(where))
        try:
            st = os.stat(where)
        except OSError:
            continue
        if not os.path.isdir(where):
            h.update(f"{st.st_mtime_ns} {st.st_size}".encode())
            continue
        found = []
        try:
            with os.scandir(where) as it:
                for d in it:
                    if d.name.endswith((".dist-info", ".egg-info", ".egg-link", ".pth")):
                        found.append(d.name)
        except OSError:
            continue
        for name in sorted(found):
            h.update(b"\2" + os.fsencode(name))
            for inner in ("entry_points.txt", ""):
                try:
                    st = os.stat(os.path.join(where, name, inner) if inner else os.path.join(where, name))
                except OSError:
                    continue
                h.update(f" {inner} {st.st_mtime_ns} {st.st_size}".encode())
    return h.hexdigest()


def installed_entry_points() -> list[Any]:
    """The entry points of group ``xsys`` of every installed distribution."""
    from . import cache

    fingerprint = _distributions_fingerprint() if cache.enabled() else None
    if fingerprint is not None:
        rows = cache.recall("entry-points", fingerprint)
        if isinstance(rows, list) and all(isinstance(r, list) and len(r) == 4 and all(isinstance(x, str) for x in r)
                                          for r in rows):
            return [CachedEntryPoint(*r) for r in rows]
    from importlib import metadata

    eps = list(metadata.entry_points(group=GROUP))
    if fingerprint is not None:
        rows = []
        for ep in eps:
            dist = getattr(ep, "dist", None)
            row = [ep.name, ep.value, getattr(dist, "name", None), getattr(dist, "version", None)]
            if not all(isinstance(x, str) for x in row):
                return eps  # nothing to remember exactly
            rows.append(row)
        cache.keep("entry-points", fingerprint, rows)
    return eps


# ---- plugins whose import hung, remembered ----------------------------------------------
#
# A plugin that hangs at import costs every command the whole time limit (30 s by default)
# before it is skipped. So one that ran past the limit is remembered in the cache (core/cache.py)
# with a fingerprint of what was imported: the distribution's name and version, the entry
# point, and the size and time of each file of the module it names (found without importing
# it). While the fingerprint holds and the limit is no longer than the one it ran past, the
# plugin is skipped at once, said as broken; a changed plugin, or a longer limit, is tried again.

_SKIPPED = object()
_HANGS = "plugin-hangs"
_HANGS_VERSION = "1"
_MAX_HANGS = 64


class _Hangs:
    def __init__(self) -> None:
        self._data: dict[str, list[Any]] | None = None

    def _load(self) -> dict[str, list[Any]]:
        if self._data is None:
            from . import cache

            data = cache.recall(_HANGS, _HANGS_VERSION) if cache.enabled() else None
            ok = isinstance(data, dict) and all(
                isinstance(k, str) and isinstance(v, list) and len(v) == 2 and isinstance(v[0], str)
                and isinstance(v[1], (int, float)) and not isinstance(v[1], bool) for k, v in data.items())
            self._data = dict(data) if ok else {}
        return self._data

    def where(self) -> str:
        from . import cache

        return f"remembered in {cache.cache_dir() / (_HANGS + '.msgpack')}"

    def known(self, ep: Any, dname: str, dver: str, limit: float) -> float | None:
        """The limit this plugin's import ran past, if it is the same plugin and the limit now
        is no longer (0, no limit, always tries)."""
        data = self._load()
        slot = _hang_slot(ep, dname)
        if slot not in data or limit <= 0:
            return None
        fingerprint, seconds = data[slot]
        if seconds < limit or fingerprint != _hang_fingerprint(ep, dname, dver):
            return None
        return float(seconds)

    def remember(self, ep: Any, dname: str, dver: str, limit: float) -> None:
        from . import cache

        if not cache.enabled():
            return
        data = self._load()
        data.pop(_hang_slot(ep, dname), None)
        data[_hang_slot(ep, dname)] = [_hang_fingerprint(ep, dname, dver), limit]
        while len(data) > _MAX_HANGS:
            data.pop(next(iter(data)))
        cache.keep(_HANGS, _HANGS_VERSION, data)

    def forget(self, ep: Any, dname: str) -> None:
        data = self._load()
        if data.pop(_hang_slot(ep, dname), None) is not None:
            from . import cache

            cache.keep(_HANGS, _HANGS_VERSION, data)


def _hang_slot(ep: Any, dname: str) -> str:
    return f"{dname}\0{ep.name}"


def _hang_fingerprint(ep: Any, dname: str, dver: str) -> str:
    import hashlib

    value = str(getattr(ep, "value", ""))
    h = hashlib.sha256(f"{dname}\0{dver}\0{ep.name}\0{value}".encode())
    m = _EP_VALUE.match(value)
    for path in _module_files(m.group("module")) if m else []:
        try:
            st = os.stat(path)
        except OSError:
            continue
        h.update(f"\1{path}\0{st.st_mtime_ns}\0{st.st_size}".encode())
    return h.hexdigest()


def _module_files(module: str) -> list[str]:
    """The files of `module` and of each package it is in, found on sys.path without
    importing any of them (importing is what hangs)."""
    from importlib.machinery import PathFinder

    out: list[str] = []
    path = None
    parts = module.split(".")
    for i in range(len(parts)):
        try:
            spec = PathFinder.find_spec(".".join(parts[:i + 1]), path)
        except (ImportError, ValueError, OSError):
            break
        if spec is None:
            break
        if spec.origin and spec.has_location:
            out.append(spec.origin)
        path = spec.submodule_search_locations
        if path is None:
            break
    return out


# ---- a third-party system's methods, contained ----------------------------------------

_OURS = ("xsys.", "builtins", "abc", "typing")


def _contain_methods(inst: Any, who: str, timed_out: dict[str, str]) -> None:
    """Every method a third-party system defines itself (in a class outside xsys), on this
    instance, run through :func:`xsys.core.containment.run`: xsys calls them (``check``,
    ``npc_from_neutral`` ...) and the base class calls them (``check_at`` ...) under the time
    limit, with their standard output sent to stderr. Methods it inherits from xsys run as
    they are; properties are not wrapped."""
    import inspect

    seen: set[str] = set()
    for klass in type(inst).__mro__:
        module = str(getattr(klass, "__module__", "") or "")
        ours = module == "xsys" or module.startswith(_OURS)
        for name, attr in list(vars(klass).items()):
            if name in seen:
                continue
            seen.add(name)
            if ours or name.startswith("__") or not (
                    inspect.isfunction(attr) or isinstance(attr, (staticmethod, classmethod))):
                continue
            try:
                bound = getattr(inst, name)
                setattr(inst, name, _contained(bound, who, name, timed_out))
            except (AttributeError, TypeError):
                continue  # __slots__, or a read-only attribute: runs as it is


def _contained(bound: Callable[..., Any], who: str, what: str, timed_out: dict[str, str]) -> Callable[..., Any]:
    @functools.wraps(bound)
    def call(*args: Any, **kwargs: Any) -> Any:
        return run(who, what, None, bound, args, kwargs, timed_out)
    call._xsys_contained = True  # type: ignore[attr-defined]
    return call


def _ep_builtin(ep: Any) -> bool:
    dist = getattr(ep, "dist", None)
    return getattr(dist, "name", None) == BUILTIN_DISTRIBUTION


def _extra_distribution(obj: Any, name: str) -> str:
    """Plugins passed in code (tests, embedding): ours count as built in."""
    module = getattr(obj, "__name__", None) or getattr(obj, "__module__", "") or ""
    return BUILTIN_DISTRIBUTION if str(module).startswith("xsys.plugins") else name


def _text(x: Any) -> str:
    return x if isinstance(x, str) else "?"


def _system_problem(cls: Any) -> str:
    """Why `cls` cannot be a system ('' if it can)."""
    if not (isinstance(cls, type) and issubclass(cls, System)):
        return "not a subclass of xsys.core.system.System"
    key = getattr(cls, "key", None)
    if not isinstance(key, str) or not _KEY.match(key):
        return f"its key {key!r} is not a short name (letters, digits, '-', '_')"
    if key in RESERVED_KEYS:
        return f"its key {key!r} is reserved"
    for attr in ("name", "edition", "dice"):
        if not isinstance(getattr(cls, attr, ""), str):
            return f"its {attr} is not a string"
    npc_type = getattr(cls, "npc_type", None)
    if not (isinstance(npc_type, type) and issubclass(npc_type, msgspec.Struct)) or npc_type is msgspec.Struct:
        return "its npc_type is not a msgspec Struct of its own"
    block = getattr(cls, "text_block", None)
    if block is not None and (not isinstance(block, str) or not block):
        return f"its text_block {block!r} is not a name (a string) or None"
    for attr in ("shot_type", "settings_type"):
        t = getattr(cls, attr, None)
        if t is not None and not (isinstance(t, type) and issubclass(t, msgspec.Struct)):
            return f"its {attr} is not a msgspec Struct"
    return ""


def _modifier_problem(m: Any, modifier_type: type) -> str:
    if not isinstance(m, modifier_type):
        return f"{type(m).__name__} {m!r:.60}, not a Modifier"
    v = m.value
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        return f"a modifier whose value is {type(v).__name__}"
    if isinstance(v, float) and not math.isfinite(v):
        return f"a modifier whose value is {v!r}"
    if not (isinstance(m.rule, str) and m.rule and m.kind in ("add", "multiply", "set", "dice", "difficulty")
            and m.source in ("seed", "assumed") and isinstance(m.why, str)):
        return "a modifier without a rule ID, a known kind and a source"
    return ""


def _merge_catalog(cat: Catalog, stage: Catalog) -> None:
    """Add a plugin's entries as a whole, or none if one of its ids is taken."""
    for kind, mine, theirs in (("weapon", cat.weapons, stage.weapons), ("armor", cat.armor, stage.armor),
                               ("material", cat.materials, stage.materials)):
        for item_id in theirs:
            if item_id in mine:
                raise InputError(f"catalog {kind} id {item_id!r} is defined twice",
                                 file=stage.origin.get((kind, item_id), "<plugin>"),
                                 found=f"also in {cat.origin.get((kind, item_id), '<code>')}")
    for item in stage.weapons.values():
        cat.add_weapon(item, stage.origin.get(("weapon", item.id), "<plugin>"))
    for item in stage.armor.values():
        cat.add_armor(item, stage.origin.get(("armor", item.id), "<plugin>"))
    for item in stage.materials.values():
        cat.add_material(item, stage.origin.get(("material", item.id), "<plugin>"))


def _command_name(info: Any) -> str:
    name = getattr(info, "name", None)
    if not name:
        cb = getattr(info, "callback", None)
        name = getattr(cb, "__name__", "")
    return str(name).lower().replace("_", "-")


def _group_name(info: Any) -> str:
    name = getattr(info, "name", None)
    if not name:
        sub = getattr(info, "typer_instance", None)
        name = getattr(getattr(sub, "info", None), "name", None) or ""
    return str(name).lower().replace("_", "-")


def _group_commands(info: Any) -> list[Any]:
    sub = getattr(info, "typer_instance", None)
    out = list(getattr(sub, "registered_commands", []) or [])
    for g in getattr(sub, "registered_groups", []) or []:
        out += _group_commands(g)
    return out


def _restore_list(app: Any, attr: str, items: list[Any]) -> None:
    current = getattr(app, attr, None)
    if isinstance(current, list):
        current[:] = items


def _guard_command(info: Any, who: str) -> None:
    cb = getattr(info, "callback", None)
    if cb is None or getattr(cb, "_xsys_guarded", False):
        return

    @functools.wraps(cb)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        try:
            return cb(*args, **kwargs)
        except XsysError:
            raise
        except Exception as exc:
            if type(exc).__module__.split(".")[0] in ("click", "typer"):
                raise  # typer.Exit, usage errors: the command line's own way out
            raise PluginError(f"command of {who} failed: {describe_fault(exc)}") from exc
        except SystemExit as exc:
            if exc.code in (None, 0):
                raise
            raise PluginError(f"command of {who} {describe_fault(exc)}") from exc

    guarded._xsys_guarded = True  # type: ignore[attr-defined]
    info.callback = guarded


def check_chance(value: Any) -> Fraction | None:
    """`value` as an exact chance in [0, 1] (a Fraction, an int, or a finite float), or None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, Fraction):
        chance = value
    elif isinstance(value, int):
        chance = Fraction(value)
    elif isinstance(value, float) and math.isfinite(value):
        chance = Fraction(value)
    else:
        return None
    return chance if 0 <= chance <= 1 else None


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


def _installed(key: str) -> System | None:
    """The process-wide registry's system of `key`, or None where none is installed."""
    try:  # (only that plugin is loaded)
        return default_registry().system(key)
    except UnknownSystemError:
        return None


_system_module.installed_system = _installed  # the look-up core.system asks (skill_scale_checks)


def set_default_registry(reg: Registry | None) -> None:
    """Replace the process-wide registry (tests, embedding applications)."""
    global _default
    _default = reg


@contextlib.contextmanager
def as_default(reg: Registry) -> Iterator[Registry]:
    """`reg` as the process-wide registry for the ``with`` block, the previous one after it
    (tests, an application embedding a registry of its own plugins)."""
    old = _default
    set_default_registry(reg)
    try:
        yield reg
    finally:
        set_default_registry(old)


def get_system(key: str, settings: Any = None) -> System:
    return default_registry().system(key, settings)


def catalog() -> Catalog:
    return default_registry().catalog()


_catalog_module.installed = catalog  # the look-up the declared sheet and armorline ask
