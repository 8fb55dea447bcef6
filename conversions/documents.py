"""Documents: the files users write and read (npc, roster, scenario, shot), in YAML,
JSON or TOML, each saying its ``system`` (a system key or ``neutral``) and ``kind``.

A document decodes straight into a typed Struct built per (system, kind), so every error
keeps msgspec's ``$.path`` and gains the file name.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import msgspec

from xsys.core import codec
from xsys.core.errors import InputError, XsysError
from xsys.core.model import Combatant, Name, Scenario, Shot, Text
from xsys.core.registry import Registry, default_registry

KINDS = ("npc", "roster", "scenario", "shot")
NEUTRAL = "neutral"
FORMATS = {"yaml": ("yaml", "yml"), "json": ("json",), "toml": ("toml",)}
MAX_INPUT_BYTES = int(os.environ.get("XSYS_MAX_INPUT_BYTES", str(16 * 1024 * 1024)))


def format_for(path: str | Path, explicit: str | None = None) -> str:
    if explicit:
        if explicit not in FORMATS and explicit.lower() in default_registry().formats():
            return "plugin:" + explicit.lower()
        if explicit not in FORMATS:
            raise InputError("unknown input format", file=str(path), expected="yaml, json or toml", found=repr(explicit))
        return explicit
    ext = Path(str(path)).suffix.lower().lstrip(".")
    for name, exts in FORMATS.items():
        if ext in exts:
            return name
    if ext and ext in default_registry().formats():
        return "plugin:" + ext
    raise InputError("cannot tell the format from the file name", file=str(path),
                     expected="a .yaml, .yml, .json or .toml file (or --input-format)", found=repr("." + ext if ext else ""))


def parse_bytes(data: bytes, fmt: str, file: str) -> Any:
    """Bytes -> plain data (dicts, lists, scalars), with clear errors."""
    try:
        return _parse_bytes(data, fmt, file)
    except RecursionError:
        raise InputError("nested too deeply", file=file, expected="a document of ordinary depth",
                         found="more levels of nesting than the parser can follow") from None


def _parse_bytes(data: bytes, fmt: str, file: str) -> Any:
    if len(data) > MAX_INPUT_BYTES:
        raise InputError("input too large", file=file, expected=f"at most {MAX_INPUT_BYTES} bytes",
                         found=f"{len(data)} bytes")
    if fmt.startswith("plugin:"):
        name, loader, _ = default_registry().formats()[fmt[len("plugin:"):]]
        try:
            return loader(data)
        except XsysError as exc:
            raise exc.with_file(file)
        except Exception as exc:
            raise InputError(f"malformed {name} document: {type(exc).__name__}: {exc}", file=file) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError("not valid UTF-8", file=file, expected="UTF-8 text",
                         found=f"byte 0x{data[exc.start]:02x} at offset {exc.start}") from None
    if fmt == "json":
        try:
            return msgspec.json.decode(data)
        except msgspec.DecodeError as exc:
            raise InputError(f"malformed JSON: {exc}", file=file) from None
    if fmt == "toml":
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise InputError(f"malformed TOML: {exc}", file=file) from None
    from .safe_yaml import load_yaml

    return load_yaml(text, file)


def read_plain(path: str | Path, fmt: str | None = None) -> Any:
    p = str(path)
    fmt = format_for(p, fmt)
    try:
        if p == "-":
            import sys

            data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        else:
            with open(p, "rb") as fh:
                data = fh.read(MAX_INPUT_BYTES + 1)
    except FileNotFoundError:
        raise InputError("no such file", file=p) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", file=p) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", file=p) from None
    return parse_bytes(data, fmt, p)


# ---- typed document Structs -------------------------------------------------------

class Envelope(msgspec.Struct, kw_only=True):
    """Only what tells a document's type; everything else is checked by the typed pass."""

    system: str | None = None
    kind: str | None = None


def envelope(data: Any, file: str, default_system: str | None = None) -> tuple[str, str]:
    if not isinstance(data, dict):
        raise InputError("a document must be a mapping", file=file, path="$",
                         expected="a mapping with system: and kind:", found=type(data).__name__)
    system = data.get("system", default_system)
    kind = data.get("kind")
    if system is None:
        raise InputError("the document does not say its system", file=file, path="$.system",
                         expected="system: <key> (or --from)", found="nothing")
    if not isinstance(system, str):
        raise InputError("wrong type", file=file, path="$.system", expected="a system key", found=repr(system))
    if kind not in KINDS:
        raise InputError("unknown document kind", file=file, path="$.kind",
                         expected="one of " + ", ".join(KINDS), found=repr(kind))
    return system, kind


@lru_cache(maxsize=None)
def _doc_type(system: str, kind: str, npc_type: type, shot_type: type | None) -> type:
    base_fields = [("system", Literal[system]), ("kind", Literal[kind])]  # type: ignore[valid-type]
    tag = "".join(part.capitalize() for part in system.replace("-", "_").split("_"))
    opts = dict(kw_only=True, forbid_unknown_fields=True, frozen=True, omit_defaults=True)
    if kind == "npc":
        return msgspec.defstruct(f"{tag}NpcDocument", base_fields, bases=(npc_type,), **opts)
    if kind == "roster":
        return msgspec.defstruct(f"{tag}RosterDocument", base_fields + [
            ("name", Name, ""), ("notes", Text, ""), ("npcs", list[npc_type], msgspec.field(default_factory=list))],
            **opts)
    if shot_type is None:
        raise InputError(f"system {system!r} has no native {kind} documents")
    if kind == "shot":
        return msgspec.defstruct(f"{tag}ShotDocument", base_fields, bases=(shot_type,), **opts)
    scene = msgspec.defstruct(f"{tag}Scene", [
        ("name", Name, ""), ("notes", Text, ""),
        ("combatants", list[npc_type], msgspec.field(default_factory=list)),
        ("shots", list[shot_type], msgspec.field(default_factory=list))], **opts)
    return msgspec.defstruct(f"{tag}ScenarioDocument", base_fields + [
        ("name", Name, ""), ("notes", Text, ""), ("scenes", list[scene], msgspec.field(default_factory=list))],
        **opts)


@lru_cache(maxsize=None)
def _neutral_doc_type(kind: str) -> type:
    base_fields = [("system", Literal["neutral"]), ("kind", Literal[kind])]
    opts = dict(kw_only=True, forbid_unknown_fields=True, frozen=True, omit_defaults=True)
    if kind == "npc":
        return msgspec.defstruct("NeutralNpcDocument", base_fields, bases=(Combatant,), **opts)
    if kind == "roster":
        return msgspec.defstruct("NeutralRosterDocument", base_fields + [
            ("name", Name, ""), ("notes", Text, ""), ("npcs", list[Combatant], msgspec.field(default_factory=list))],
            **opts)
    if kind == "shot":
        return msgspec.defstruct("NeutralShotDocument", base_fields, bases=(Shot,), **opts)
    return msgspec.defstruct("NeutralScenarioDocument", base_fields, bases=(Scenario,), **opts)


def doc_type(system: str, kind: str, registry: Registry | None = None) -> type:
    if kind not in KINDS:
        raise InputError("unknown document kind", expected="one of " + ", ".join(KINDS), found=repr(kind))
    if system == NEUTRAL:
        return _neutral_doc_type(kind)
    reg = registry or default_registry()
    sys_ = reg.system(system)
    return _doc_type(system, kind, sys_.npc_type, sys_.shot_type)


def decode(data: Any, file: str, registry: Registry | None = None, default_system: str | None = None) -> Any:
    """Plain data -> the typed document it says it is."""
    system, kind = envelope(data, file, default_system)
    if "system" not in data:
        data = {"system": system, **data}
    try:
        typ = doc_type(system, kind, registry)
    except XsysError as exc:
        if exc.path is None:
            exc.path = "$.system"
        raise exc.with_file(file)
    return codec.convert(data, typ, file=file)


def load(path: str | Path, fmt: str | None = None, registry: Registry | None = None,
         default_system: str | None = None) -> Any:
    """Read and decode one document file."""
    return decode(read_plain(path, fmt), str(path), registry, default_system)


def schema(kind: str, system: str = NEUTRAL, registry: Registry | None = None) -> dict[str, Any]:
    typ = doc_type(system, kind, registry)
    # msgspec renders field defaults with to_builtins() and no enc_hook, which cannot
    # encode a quantity default such as `Illuminance(10000)`; give it ours while the
    # schema is generated.
    from msgspec import _json_schema

    plain = _json_schema.to_builtins

    def with_hook(obj: Any, **kw: Any) -> Any:
        return plain(obj, enc_hook=codec.enc_hook, **kw)

    _json_schema.to_builtins = with_hook
    try:
        out = msgspec.json.schema(typ, schema_hook=codec.schema_hook)
    finally:
        _json_schema.to_builtins = plain
    # Two optional top-level blocks are read outside the typed pass (api.from_plain).
    props = out["$defs"][typ.__name__]["properties"]
    props["settings"] = {"type": "object", "description": "per-system settings: system key -> its settings, "
                         "e.g. {pl-trudnosc: {mechanic: per-die-d10}}",
                         "additionalProperties": {"type": "object"}}
    props["xsys"] = {"type": "object", "description": "metadata written by xsys convert (ignored on input)"}
    return out


def dumps(obj: Any, fmt: str) -> bytes:
    """A document (Struct or plain data) -> bytes in yaml/json/toml, deterministic."""
    if fmt == "json":
        return _json_text(obj)
    plain = codec.to_builtins(obj)
    if fmt == "toml":
        import tomli_w

        return tomli_w.dumps(_toml_safe(plain)).encode("utf-8")
    if fmt == "yaml":
        return _yaml_text(plain)
    raise InputError("unknown output format", expected="yaml, json, toml or md", found=repr(fmt))


# The text xsys writes is that of the json module (indent 2, UTF-8 as is) and of PyYAML's
# safe_dump (width 100, Unicode as is). msgspec's JSON encoder and libyaml's emitter write
# the same bytes many times faster, except for the forms below (the tests compare both
# writers): there the reference writer is used.
#
# JSON: msgspec writes floats below 1e-4 or from 1e16 on in another form (0.00001, 1e16
# where the json module writes 1e-05, 1e+16) and NaN or infinities as null. In compact
# JSON a number follows ":", "," or "["; the table folds separators to ":", 0 to "z",
# the other digits to "0" and the letters of null to "n", so that one pass finds them all
# (a match inside a string only costs the slower writer).
_JSON_CLASSES = bytes.maketrans(b":,[0123456789nul", b":::z000000000nnn")
_JSON_DIFFERS = re.compile(rb":(?:-?[z0.]+e|-?z\.zzzz|nnnn)")
_YAML_DIFFERS = re.compile(
    rb"\\"  # any escape in the JSON: control characters, quotes, backslashes, line breaks
    rb"|\x7f|\xc2[\x80-\x9f]|\xef\xbb\xbf|\xef\xbf[\xbe\xbf]|[\xf0-\xf4]"  # DEL, C1, BOM, non-characters, beyond the BMP
    rb'|"":|"[^"]{100,}":'  # empty or long keys (PyYAML writes them as "? " complex keys)
)


def _json_text(obj: Any) -> bytes:
    try:
        # the same order as codec.to_builtins: Struct fields as defined, dict keys as built
        text = msgspec.json.encode(obj, enc_hook=codec.enc_hook)
    except Exception:  # whatever msgspec cannot write, the reference writer writes (or refuses) as before
        text = None
    if text is None or text[:1] not in b"{[" or _JSON_DIFFERS.search(text.translate(_JSON_CLASSES)):
        return json.dumps(codec.to_builtins(obj), indent=2, ensure_ascii=False).encode("utf-8") + b"\n"
    return msgspec.json.format(text, indent=2) + b"\n"


def _yaml_text(plain: Any) -> bytes:
    import yaml

    dumper = getattr(yaml, "CSafeDumper", None)
    if dumper is not None:
        try:
            fast = not _YAML_DIFFERS.search(msgspec.json.encode(plain))
        except Exception:  # not JSON-able: the reference writer writes (or refuses) it as before
            fast = False
        if fast:
            return yaml.dump(plain, Dumper=dumper, sort_keys=False, allow_unicode=True, width=100).encode("utf-8")
    return yaml.safe_dump(plain, sort_keys=False, allow_unicode=True, width=100).encode("utf-8")


def _toml_safe(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _toml_safe(v) for k, v in obj.items() if v is not None}
    if isinstance(obj, list):
        return [_toml_safe(v) for v in obj if v is not None]
    return obj
