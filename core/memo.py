"""Answers a system gives again and again, remembered: the ladder of a skill in a context,
the competence of a level, the level nearest a competence. A roster asks them for every NPC
with a Handgun of 40 and again when the loss audit reads each NPC back.

Every system gets this alike, built-in or third-party: :class:`xsys.core.system.System`
wraps these methods of every subclass when the class is defined. A system whose answers are
not functions of their arguments (and of its settings, fixed per instance) sets
``System.remember = False`` and is asked every time."""

from __future__ import annotations

import functools
from typing import Any, Callable

LIMIT = 50_000  # answers per method and system instance: memory stays flat however long the roster
_MISSING = object()


_NAMES: dict[tuple[Any, ...], tuple[Any, ...]] = {}  # each context's names, one tuple for all alike


def _key(args: tuple[Any, ...], typed: bool) -> Any:
    """`(skill, [value,] context=None)` as a key: the context's names (in their order: another
    order is only another key) and its values, `value` with its type when `typed` (1, 1.0 and
    True stay apart). The names are one shared tuple for every context that has them, so a
    key costs a tuple, not a tuple per context item (a roster's keys held 40 MiB that way)."""
    n = 3 if typed else 2
    if not 1 <= len(args) <= n:
        return None
    context = args[-1] if len(args) == n else None
    key = (args[0], type(args[1]), args[1]) if typed else (args[0],)
    if context:
        names = tuple(context)
        shared = _NAMES.get(names)
        if shared is None:
            if len(_NAMES) >= LIMIT:
                _NAMES.clear()
            shared = _NAMES[names] = names
        key += (shared, *context.values())
    return key


def remembered(fn: Callable[..., Any], typed: bool) -> Callable[..., Any]:
    """`fn(skill, [value,] context=None)` remembered in a table of its own; keyword calls and
    arguments that cannot be a key are asked as usual."""
    table: dict[Any, Any] = {}

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        if kwargs:
            return fn(*args, **kwargs)
        try:
            key = _key(args, typed)
            found = _MISSING if key is None else table.get(key, _MISSING)
        except (TypeError, AttributeError):
            return fn(*args)
        if found is not _MISSING:
            return found
        value = fn(*args)
        if key is not None:
            if len(table) >= LIMIT:
                table.clear()
            table[key] = value
        return value

    return call


def method(fn: Callable[..., Any], typed: bool) -> Callable[..., Any]:
    """A system method remembered per instance (each instance has its settings), in a table
    per function (a subclass's method that calls ``super()`` answers differently from it)."""
    if getattr(fn, "__xsys_remembered__", False):
        return fn

    @functools.wraps(fn)
    def call(self: Any, *args: Any, **kwargs: Any) -> Any:
        if kwargs or not getattr(self, "remember", True):
            return fn(self, *args, **kwargs)
        tables = self.__dict__.get("_remembered")
        if tables is None:
            tables = self.__dict__["_remembered"] = {}
        try:
            key = _key(args, typed)
            table = tables.get(call)
            if table is None:
                table = tables[call] = {}
            found = _MISSING if key is None else table.get(key, _MISSING)
        except (TypeError, AttributeError):
            return fn(self, *args)
        if found is not _MISSING:
            return found
        value = fn(self, *args)
        if key is not None:
            if len(table) >= LIMIT:
                table.clear()
            table[key] = value
        return value

    call.__xsys_remembered__ = True  # type: ignore[attr-defined]
    return call
