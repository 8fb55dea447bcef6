"""Calling a plugin's conversion: what it returns is checked, and what goes wrong inside it is
an error naming its system and plugin, never a traceback.

The conversion (xsys.conversions) and the loss audit (:mod:`xsys.core.audit`, which reads
every written item back through its plugin) call plugins through these alike."""

from __future__ import annotations

from functools import wraps
from typing import TYPE_CHECKING, Any

from .errors import PluginError, XsysError
from .registry import PLUGIN_FAULTS, PluginHalt, describe_fault
from .trace import Loss, Result, TraceEntry

if TYPE_CHECKING:
    from .system import System


def native_fields(obj: Any, typ: type) -> Any:
    """A document Struct (npc/shot plus system and kind) as the plugin's own Struct."""
    if type(obj) is typ:
        return obj
    return typ(**{f: getattr(obj, f) for f in typ.__struct_fields__})


def blame(system: Any, message: str) -> PluginError:
    """An error about a system's plugin: ``system 'x' <message> [plugin 'x' (dist 1.0)]``,
    naming the plugin and distribution the system comes from."""
    key = getattr(system, "key", "?")
    plugin = getattr(system, "xsys_plugin", None)
    return PluginError(f"system {key!r} {message}" + (f" [{plugin}]" if plugin else ""))


def halted(system: Any, exc: PluginHalt) -> PluginError:
    """A third-party plugin call that ran past its time (its message names the plugin and the
    method) as the error of the system it belongs to."""
    return PluginError(f"system {getattr(system, 'key', '?')!r} stopped: {exc}")


def halts_are_errors(fn):
    """A plugin call that must end the work (a :class:`PluginHalt`: it ran past its time)
    gets out of the loss audit's probes, which skip a plugin's ordinary faults, and ends the
    conversion here as a PluginError naming the plugin (one document's error, not xsys's)."""
    @wraps(fn)
    def contained(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except PluginHalt as exc:
            raise PluginError(str(exc)) from None
    return contained


def call(system: System, what: str, fn, *args) -> Any:
    """Call into a plugin: a crash inside it is an error naming the system, its plugin and
    what it was doing ("failed in npc_to_neutral: ..."), never a traceback; xsys's own errors
    pass through, a call past its time ends the work (``halted``)."""
    try:
        return fn(*args)
    except XsysError:
        raise
    except PluginHalt as exc:
        raise halted(system, exc) from None
    except PLUGIN_FAULTS as exc:
        raise blame(system, f"failed {what}: {describe_fault(exc)}") from exc


def guard(system: System, what: str, fn, *args, want: type | tuple[type, ...] | None = None) -> Result[Any]:
    """Call a plugin's conversion; a crash inside it (or garbage out of it) is an error
    naming the system and its plugin, never a traceback. `want`: the type of the value."""
    res = call(system, f"in {what}", fn, *args)
    if not isinstance(res, Result):
        raise blame(system, f"returned {type(res).__name__} from {what}, not a Result")
    if want is not None and not isinstance(res.value, want):
        names = " or ".join(t.__name__ for t in (want if isinstance(want, tuple) else (want,)))
        raise blame(system, f"returned {type(res.value).__name__} from {what}, not a {names}")
    if not (isinstance(res.losses, list) and all(isinstance(x, Loss) for x in res.losses)
            and isinstance(res.trace, list) and all(isinstance(t, TraceEntry) for t in res.trace)):
        raise blame(system, f"returned losses or trace entries of the wrong type from {what}")
    return res
