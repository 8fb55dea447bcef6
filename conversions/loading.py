"""Reading a document for conversion: a file or plain data as its typed document
(:class:`Loaded`, with the settings and the ``xsys`` block it holds), and the systems it
names with their settings (``--set``, a document's ``settings:``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterable, Mapping

import msgspec

from xsys.core import codec
from xsys.core.errors import InputError, XsysError
from xsys.core.registry import Registry, default_registry
from xsys.core.system import System

from . import documents


Settings = Mapping[str, Mapping[str, Any]]


# ---- systems with settings ------------------------------------------------------

def system_for(key: str, settings: Settings | None = None, registry: Registry | None = None) -> System:
    reg = registry or default_registry()
    raw = (settings or {}).get(key)
    entry = reg.entry(key)
    if raw is None:
        return reg.system(key)
    stype = entry.cls.settings_type
    if stype is None:
        raise InputError(f"system {key!r} takes no settings", path=f"$.settings.{key}", found=repr(dict(raw)))
    parsed = codec.convert(dict(raw), stype)
    return reg.system(key, parsed)


def parse_settings(pairs: Iterable[str], registry: Registry | None = None) -> dict[str, dict[str, Any]]:
    """``["pl-trudnosc.mechanic=per-die-d10"]`` -> ``{"pl-trudnosc": {"mechanic": "per-die-d10"}}``.

    The system must be installed and take a setting of that name (an error names
    ``--set``, what is expected and what was found); the value is checked when the
    system starts."""
    out: dict[str, dict[str, Any]] = {}
    for pair in pairs:
        m = re.match(r"^([A-Za-z0-9_-]+)\.([A-Za-z0-9_]+)=(.*)$", pair)
        if not m:
            raise InputError("bad --set", path="--set",
                             expected="SYSTEM.FIELD=VALUE, e.g. pl-trudnosc.mechanic=per-die-d10", found=repr(pair))
        key, name = m.group(1), m.group(2)
        _check_setting(key, name, pair, registry or default_registry())
        value: Any = m.group(3)
        if value.lower() in ("true", "false"):
            value = value.lower() == "true"
        else:
            try:
                value = int(value)
            except ValueError:
                pass
        out.setdefault(key, {})[name] = value
    return out


def _check_setting(key: str, name: str, pair: str, reg: Registry) -> None:
    try:
        entry = reg.entry(key)
    except XsysError as exc:
        if not isinstance(exc, InputError):
            raise
        raise InputError(f"unknown system in --set {pair!r}", path="--set",
                         expected=exc.expected or "an installed system", found=repr(key)) from None
    stype = entry.cls.settings_type
    fields = list(getattr(stype, "__struct_fields__", ())) if stype is not None else []
    if not fields:
        raise InputError(f"system {key!r} takes no settings (--set {pair!r})", path="--set",
                         expected=f"no --set for {key}", found=repr(name))
    if name not in fields:
        raise InputError(f"unknown setting of system {key!r} in --set {pair!r}", path="--set",
                         expected="one of " + ", ".join(f"{key}.{f}" for f in fields), found=repr(name))


def _merge_settings(doc_settings: Any, cli: Settings | None) -> dict[str, dict[str, Any]]:
    merged: dict[str, dict[str, Any]] = {}
    if doc_settings:
        for k, v in dict(doc_settings).items():
            merged[k] = dict(v)
    for k, v in (cli or {}).items():
        merged.setdefault(k, {}).update(v)
    return merged


# ---- loading --------------------------------------------------------------------

class Loaded(msgspec.Struct):
    document: Any
    system: str
    kind: str
    file: str
    settings: dict[str, dict[str, Any]]
    meta: Any = None  # the `xsys:` block a previous conversion wrote, if any


def load(path: str | Path, fmt: str | None = None, default_system: str | None = None,
         registry: Registry | None = None) -> Loaded:
    from xsys.core.textblock import system_hint

    with system_hint(default_system):  # a text block with no system line is the --from system's
        data = documents.read_plain(path, fmt)
    return from_plain(data, str(path), default_system, registry)


def from_plain(data: Any, file: str = "<data>", default_system: str | None = None,
               registry: Registry | None = None) -> Loaded:
    meta = None
    if isinstance(data, dict):
        data = dict(data)
        meta = data.pop("xsys", None)  # metadata written by a previous conversion
        settings = data.pop("settings", None)
        if settings is not None and not (isinstance(settings, dict)
                                         and all(isinstance(v, dict) for v in settings.values())):
            raise InputError("settings must map system keys to their settings", file=file, path="$.settings",
                             expected="e.g. {pl-trudnosc: {mechanic: per-die-d10}}", found=repr(settings))
    else:
        settings = None
    doc = documents.decode(data, file, registry, default_system)
    return Loaded(doc, doc.system, doc.kind, file, dict(settings or {}), meta)
