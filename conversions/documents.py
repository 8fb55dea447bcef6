"""Documents: the files users write and read (npc, roster, scenario, shot), in YAML,
JSON or TOML, each saying its ``system`` (a system key or ``neutral``) and ``kind``.

A document decodes straight into a typed Struct built per (system, kind), so every error
keeps msgspec's ``$.path`` and gains the file name.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
import tomllib
import types
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import msgspec

from xsys.core import carried, codec
from xsys.core.errors import InputError, XsysError
from xsys.core.model import Combatant, Name, Scenario, Shot, Text
from xsys.core.registry import Registry, default_registry

KINDS = ("npc", "roster", "scenario", "shot")
NEUTRAL = "neutral"
FORMATS = {"yaml": ("yaml", "yml"), "json": ("json",), "toml": ("toml",)}


def format_for(path: str | Path, explicit: str | None = None) -> str:
    """The format a file is read as: ``yaml``/``json``/``toml``, or ``plugin:NAME`` for a
    format a plugin registered (by ``--input-format`` name or extension, or the file's
    extension)."""
    if explicit:
        if explicit in FORMATS:
            return explicit
        spec = default_registry().format_named(explicit)
        if spec is not None:
            return "plugin:" + spec.name.lower()
        raise InputError("unknown input format", file=str(path), expected=_input_formats(), found=repr(explicit))
    ext = Path(str(path)).suffix.lower().lstrip(".")
    for name, exts in FORMATS.items():
        if ext in exts:
            return name
    spec = default_registry().format_named(ext) if ext else None
    if spec is not None and ext in spec.extensions:
        return "plugin:" + spec.name.lower()
    raise InputError("cannot tell the format from the file name", file=str(path),
                     expected="a .yaml, .yml, .json or .toml file (or --input-format)", found=repr("." + ext if ext else ""))


def _input_formats() -> str:
    names = ["yaml", "json", "toml"] + sorted(default_registry().format_specs())
    return ", ".join(names)


BUILTIN_OUTPUT = {"yaml": ".yaml", "json": ".json", "toml": ".toml", "md": ".md"}


def output_extension(fmt: str) -> str | None:
    """The file extension of output in format `fmt` (None: not an output format); the plugins
    are asked only for a format that is not built in."""
    return BUILTIN_OUTPUT.get(fmt) or output_formats().get(fmt)


def output_formats() -> dict[str, str]:
    """Every format `xsys convert --format` writes -> the file extension of its output."""
    out = dict(BUILTIN_OUTPUT)
    for key, spec in default_registry().format_specs().items():
        if spec.dump is not None:
            out.setdefault(key, "." + (spec.extensions[0] if spec.extensions else key))
    return out


def output_format(fmt: str) -> str:
    """An output format as given (``text``, ``TXT``, ``plugin:text``) -> its key in
    output_formats(), or a clear error listing them."""
    key = fmt[len("plugin:"):] if fmt.startswith("plugin:") else fmt
    if key in BUILTIN_OUTPUT:
        return key
    outs = output_formats()
    if key in outs:
        return key
    spec = default_registry().format_named(key)
    if spec is not None and spec.dump is not None:
        return spec.name.lower()
    found = repr(fmt)
    if spec is not None:
        found += f" (the {spec.name} format is read only)"
    raise InputError("unknown output format", expected=", ".join(outs), found=found)


def output_format_of_path(path: str | Path) -> str | None:
    """The output format a file name asks for by its extension (``npc.yaml``: yaml, ``npc.md``:
    md, ``npc.txt``: a plugin format written with that extension), or None (no extension, or
    one no writable format has): the default applies."""
    ext = Path(str(path)).suffix.lower().lstrip(".")
    if not ext:
        return None
    for name, exts in {**FORMATS, "md": ("md",)}.items():
        if ext in exts:
            return name
    spec = default_registry().format_named(ext)
    return spec.name.lower() if spec is not None and spec.dump is not None and ext in spec.extensions else None


def default_output_format(in_fmt: str) -> str:
    """What a conversion is written as when --format is not given: the input's format; for a
    plugin format, JSON when it is a JSON shape claimed by sniffing (a Foundry actor or a CCFOLIA
    character holds one system's NPC; the xsys document holds any), else its own when it has a
    file extension of its own (a ``.txt`` block gives a block), else YAML."""
    if in_fmt.startswith("plugin:"):
        spec = default_registry().format_named(in_fmt[len("plugin:"):])
        if spec is not None and spec.sniff is not None:
            # a JSON shape claimed by sniffing (also read from a file of its own extension: a Foundry
            # compendium pack, .db): its documents hold one system's NPCs, the xsys JSON document any
            return "json"
        if spec is not None and spec.dump is not None and spec.extensions:
            return spec.name.lower()
        return "yaml"
    return in_fmt


def parse_bytes(data: bytes, fmt: str, file: str) -> Any:
    """Bytes -> plain data (dicts, lists, scalars), with clear errors."""
    try:
        return _parse_bytes(data, fmt, file)
    except RecursionError:
        raise InputError("nested too deeply", file=file, expected="a document of ordinary depth",
                         found="more levels of nesting than the parser can follow") from None


# ---- size limits ------------------------------------------------------------------
#
# XSYS_MAX_INPUT_BYTES (default 16 MiB) bounds a document given to xsys. What `xsys
# convert` writes carries the converted document, the loss report (and with --explain the
# trace) and the source it came from, so it is often many times its source: measured, one
# NPC comes out 6 to 14x larger, a roster of 100,000 small coc NPCs converted to gurps 14x
# (the loss report is most of it), a pl-trudnosc roster converted to nwod 22x, 45x with
# --explain. A file that carries the `xsys:` block convert writes may therefore be up to
# OUTPUT_FACTOR times the limit, and convert refuses to write a conversion larger than
# that, before writing anything, naming the variable to raise. So whatever xsys writes,
# xsys reads back. Reading such a file costs about what converting a source at the limit
# costs (a 12.8 MB roster takes 5 GB to convert; the 18 MB output of a tenth of it is read back
# in 0.75 GB).

DEFAULT_MAX_INPUT_BYTES = 16 * 1024 * 1024
OUTPUT_FACTOR = 8
_ENV = "XSYS_MAX_INPUT_BYTES"


# A limit above this is read as this (2**50 bytes, a PiB: more than any document, and small
# enough that the limit times OUTPUT_FACTOR, times two for the web server's bodies, is still
# a size every buffer and decompressor takes).
LARGEST_LIMIT = 1 << 50


def _limit_from_env() -> int | None:
    raw = os.environ.get(_ENV)
    if raw is None or not raw.strip():
        return DEFAULT_MAX_INPUT_BYTES
    text = raw.strip()
    if not text.isdigit() or not text.isascii():  # no sign, no '1e9', no '16_777_216'
        return None
    if len(text) > 20:  # sure to be above LARGEST_LIMIT (and no 100,000-digit int() to parse)
        return LARGEST_LIMIT
    value = int(text)
    return min(value, LARGEST_LIMIT) if value > 0 else None


MAX_INPUT_BYTES: int | None = _limit_from_env()  # None: the variable is set but is not a size


def max_input_bytes() -> int:
    """The input limit in bytes; a clear error if XSYS_MAX_INPUT_BYTES is not a size."""
    if MAX_INPUT_BYTES is None:
        raw = os.environ.get(_ENV) or ""
        raise InputError(f"{_ENV} is not a size in bytes", expected="a whole number above 0, e.g. 16777216",
                         found=repr(raw) if len(raw) <= 60 else repr(raw[:60]) + f"... ({len(raw)} characters)")
    return MAX_INPUT_BYTES


# a top-level `xsys` key: the block `xsys convert` writes
_OUTPUT_MARK = {
    "yaml": re.compile(rb"(?m)^xsys:[ \t]*(?:#.*)?\r?$"),
    "json": re.compile(rb'"xsys"[ \t\r\n]*:[ \t\r\n]*\{'),
    "toml": re.compile(rb"(?m)^[ \t]*\[+[ \t]*xsys[ \t]*[.\]]"),
}


def _too_large(data: bytes, fmt: str, file: str, rest: Any = None, size: int | None = None) -> None:
    """Refuse `data` (the first bytes of a file or stream) if it is over the limit,
    reporting the real size: `size` if known, else `rest` (a stream) is counted."""
    limit = max_input_bytes()
    if len(data) <= limit:
        return
    mark = _OUTPUT_MARK.get(fmt)
    if len(data) <= limit * OUTPUT_FACTOR and mark is not None and mark.search(data):
        return
    found = f"{size} bytes" if size is not None else None
    if size is None:  # a stream: count what is left (up to a point)
        cap = max(limit * 64, 1 << 30)
        size = len(data) + (_count(rest, cap - len(data)) if rest is not None else 0)
        found = f"{size} bytes" if size < cap else f"more than {size} bytes"
    if mark is not None and mark.search(data):
        expected = f"at most {limit * OUTPUT_FACTOR} bytes for a file xsys wrote, {OUTPUT_FACTOR} x {_ENV}"
    else:
        expected = f"at most {limit} bytes, the {_ENV} limit"
    raise InputError("input too large", file=file, expected=expected, found=found)


READ_CHUNK = 1 << 20


def read_upto(stream: Any, cap: int, size: int | None = None) -> bytes:
    """At most `cap` bytes of `stream`, read in chunks of a MiB (nothing is allocated for
    the cap itself, which may be far larger than memory); `size`, a regular file's size,
    lets a file that fits be read in one call."""
    first = min(cap, size + 1 if size is not None else READ_CHUNK)
    data = stream.read(first)
    if len(data) < first and size is not None or not data:
        return data  # the whole file (or stream) in one read
    parts = [data]
    got = len(data)
    while got < cap:
        chunk = stream.read(min(READ_CHUNK, cap - got))
        if not chunk:
            break
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def _count(stream: Any, cap: int) -> int:
    """Bytes left in `stream`, read and dropped, up to about `cap`."""
    n = 0
    try:
        while n < cap:
            chunk = stream.read(1 << 20)
            if not chunk:
                break
            n += len(chunk)
    except OSError:
        pass
    return n


def check_output_size(data: bytes) -> None:
    """Refuse to write a conversion that xsys could not read back."""
    limit = MAX_INPUT_BYTES or DEFAULT_MAX_INPUT_BYTES
    if len(data) > limit * OUTPUT_FACTOR:
        raise InputError("output too large for xsys to read back",
                         expected=f"at most {limit * OUTPUT_FACTOR} bytes, {OUTPUT_FACTOR} x {_ENV} (raise it)",
                         found=f"{len(data)} bytes")


_BOM = b"\xef\xbb\xbf"


def _parse_bytes(data: bytes, fmt: str, file: str) -> Any:
    _too_large(data, fmt, file)
    if fmt.startswith("plugin:"):
        spec = default_registry().format_named(fmt[len("plugin:"):])
        assert spec is not None
        name, loader = spec.name, spec.load
        try:
            return loader(data)
        except XsysError as exc:
            raise exc.with_file(file)
        except Exception as exc:
            raise InputError(f"malformed {name} document: {type(exc).__name__}: {exc}", file=file) from None
    if data.startswith(_BOM):  # a UTF-8 byte order mark, as some editors write: not part of the text
        data = data[len(_BOM):]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        found = f"byte 0x{data[exc.start]:02x} at offset {exc.start}"
        if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
            found += " (a UTF-16 byte order mark)"
        raise InputError("not valid UTF-8", file=file, expected="UTF-8 text", found=found) from None
    if fmt == "json":
        return _load_json(data, text, file)
    if fmt == "toml":
        try:
            codec.check_toml_keys(text)
            return tomllib.loads(text)
        except InputError as exc:
            raise exc.with_file(file)
        except tomllib.TOMLDecodeError as exc:
            raise InputError(f"malformed TOML: {exc}", file=file) from None
    from .safe_yaml import load_yaml

    return load_yaml(text, file)


# ---- JSON: duplicate keys ---------------------------------------------------------
#
# msgspec keeps the last of two equal keys without a word. A valid JSON text has one key
# for each string followed by ':'; the decoded data, written back, has one for each entry
# it kept. Both are counted with regular expressions (C speed); only when they differ is
# the text read again, slowly, to name the key and where it is.

_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_JSON_KEY = re.compile(rb'"[ \t\r\n]*:')
# a string that opens with a colon (a quote after '{', '[', ',' or ':' and then ':'): its
# opening quote would be counted as a key's end
_OPENS_WITH_COLON = re.compile(rb'[{\[,:][ \t\r\n]*"[ \t\r\n]*:')


def _json_keys(raw: bytes) -> int:
    if b"\\" not in raw and not _OPENS_WITH_COLON.search(raw):
        # no escape: no string holds a quote, so a quote followed by ':' ends a key (a string
        # value is followed by ',', '}' or ']'), and the strings need not be taken out first
        return len(_JSON_KEY.findall(raw))
    return len(_JSON_KEY.findall(_JSON_STRING.sub(b'"', raw)))


_BLANK_COLONS = (b" :", b"\t:", b"\n:", b"\r:")


def _same_keys(data: bytes, value: Any) -> bool:
    """Whether the decoded `value` kept every key the text `data` states. A text with no escape
    and no blank before any colon counts its '":' pairs against those of the value written back
    (bytes.count: no regular expression): each key gives one, and so does each string that opens
    with a colon, in both; a dropped key drops itself and its value, so the counts are equal only
    when no key was dropped. Any other text is counted token by token (``_json_keys``)."""
    written = msgspec.json.encode(value)
    pairs = data.count(b'":')
    # (every colon right after a quote: no blank before one, without searching for each blank)
    if b"\\" not in data and (data.count(b":") == pairs or not any(b in data for b in _BLANK_COLONS)):
        return pairs == written.count(b'":')
    return _json_keys(data) == _json_keys(written)


def _load_json(data: bytes, text: str, file: str) -> Any:
    try:
        value = msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        raise InputError(f"malformed JSON: {exc}", file=file) from None
    if b":" not in data:
        return value
    try:
        same = _same_keys(data, value)
    except (TypeError, ValueError, OverflowError):  # e.g. an integer msgspec will not write back
        same = False
    if not same:
        _find_duplicate_json_key(text, file)
    return value


class _Dup(dict):
    """An object of the slow second reading that repeats a key."""

    repeated: Any = None


def _find_duplicate_json_key(text: str, file: str) -> None:
    def pairs(items: list[tuple[str, Any]]) -> dict:
        out: dict = {}
        for k, v in items:
            if k in out and not isinstance(out, _Dup):
                out = _Dup(out)
                out.repeated = k
            out[k] = v
        return out

    try:
        root = json.loads(text, object_pairs_hook=pairs)
    except (ValueError, RecursionError):
        return
    stack: list[tuple[Any, str]] = [(root, "$")]
    while stack:  # depth first, in document order
        node, path = stack.pop()
        if isinstance(node, _Dup):
            raise InputError("duplicate key", file=file, path=codec.key_path(path, node.repeated),
                             expected="each key once in an object", found=f"{node.repeated!r} twice")
        if isinstance(node, dict):
            stack.extend((v, codec.key_path(path, k)) for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((v, f"{path}[{i}]") for i, v in reversed(list(enumerate(node))))


# ---- reading files and standard input ---------------------------------------------

def sniff_format(data: bytes) -> str:
    """The format of a document whose name does not say it (standard input): "json" for
    a text starting with `{` or `[` (unless that is a TOML table header), "toml" for a
    first line `key = value` or `[table]`, else "yaml"."""
    head = data[:65536]
    if head.startswith(_BOM):
        head = head[len(_BOM):]
    text = head.decode("utf-8", errors="replace")
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if _TOML_TABLE.match(stripped) or _TOML_PAIR.match(stripped):
            return "toml"
        if stripped[0] in "{[":
            return "json"
        return "yaml"
    return "yaml"


_TOML_BARE = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')"""
_TOML_KEY = rf"{_TOML_BARE}(?:[ \t]*\.[ \t]*{_TOML_BARE})*"
_TOML_TABLE = re.compile(rf"^\[\[?[ \t]*{_TOML_KEY}[ \t]*\]\]?[ \t]*(?:#.*)?$")
_TOML_PAIR = re.compile(rf"^{_TOML_KEY}[ \t]*=")


def read_with_format(path: str | Path, fmt: str | None = None) -> tuple[Any, str]:
    """Read one document to plain data; also say the format it was read as. For standard
    input ("-") without a format, the format is sniffed (sniff_format); a text that looks
    like JSON but is not, and is valid YAML (a flow mapping), is read as YAML."""
    p = str(path)
    stdin = p == "-"
    name = "<stdin>" if stdin else p
    sniffed = stdin and fmt is None
    if not sniffed:
        fmt = format_for(p, fmt)
    limit = max_input_bytes()
    try:
        if stdin:
            stream = sys.stdin.buffer
            data = read_upto(stream, limit * OUTPUT_FACTOR + 1)
            if fmt is None:
                fmt = sniff_format(data)
            _too_large(data, fmt, name, rest=stream)
        else:
            # opened once and read once: a FIFO or a process substitution (<(...)) has no
            # second reading
            with open(p, "rb") as fh:
                st = os.fstat(fh.fileno())
                size = st.st_size if stat.S_ISREG(st.st_mode) else None
                data = read_upto(fh, limit * OUTPUT_FACTOR + 1, size)
                _too_large(data, fmt, name, rest=fh, size=size)
    except FileNotFoundError:
        raise InputError("no such file", file=name) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", file=name) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", file=name) from None
    if sniffed and fmt == "json":
        try:
            plain = parse_bytes(data, "json", name)
        except InputError as json_error:
            try:
                return parse_bytes(data, "yaml", name), "yaml"
            except InputError:
                raise json_error from None
        return claim_json(plain, data, name, "json")
    plain = parse_bytes(data, fmt, name)
    if fmt == "json":
        return claim_json(plain, data, name, fmt)
    return plain, fmt


def is_xsys_document(plain: Any) -> bool:
    return isinstance(plain, dict) and plain.get("kind") in KINDS


def claim_json(plain: Any, data: bytes, file: str, fmt: str) -> tuple[Any, str]:
    """JSON that is not an xsys document, claimed by a format plugin by its shape (a
    Foundry VTT actor, a CCFOLIA character), read by that plugin; else as it is."""
    if is_xsys_document(plain):
        return plain, fmt
    for spec in default_registry().format_specs().values():
        if spec.sniff is None:
            continue
        try:
            claimed = spec.sniff(plain)
        except XsysError as exc:
            raise exc.with_file(file)
        if claimed:
            return parse_bytes(data, "plugin:" + spec.name.lower(), file), "plugin:" + spec.name.lower()
    return plain, fmt


def read_plain(path: str | Path, fmt: str | None = None) -> Any:
    """Read one document to plain data (see read_with_format)."""
    return read_with_format(path, fmt)[0]


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
def carrier_type(npc_type: type) -> type:
    """A system's stat block as its documents hold it: the plugin's own Struct plus the
    ``carried:`` block of other systems' system-only data (xsys.core.carried), which every
    system's documents have without their plugin declaring it."""
    if carried.FIELD in npc_type.__struct_fields__:
        return npc_type
    return msgspec.defstruct(npc_type.__name__, [(carried.FIELD, dict[str, dict[str, Any]],
                                                  msgspec.field(default_factory=dict))],
                             bases=(npc_type,), module=npc_type.__module__, kw_only=True, forbid_unknown_fields=True,
                             frozen=True, omit_defaults=True)


@lru_cache(maxsize=None)
def _doc_type(system: str, kind: str, npc_type: type, shot_type: type | None) -> type:
    base_fields = [("system", Literal[system]), ("kind", Literal[kind])]  # type: ignore[valid-type]
    tag = "".join(part.capitalize() for part in system.replace("-", "_").split("_"))
    opts = dict(kw_only=True, forbid_unknown_fields=True, frozen=True, omit_defaults=True)
    npc_type = carrier_type(npc_type)
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
    doc = codec.convert(data, typ, file=file)
    if _holders(typ):
        check_barriers(doc, file, registry)
    return doc


# ---- barrier materials ------------------------------------------------------------
#
# A barrier names a catalog material; the systems look it up only when a shot goes through
# it (full cover), so an unknown material would pass unnoticed in a shot with partial
# cover, or fail later without a path. Every barrier of a document is checked when it is
# read: the neutral Barrier, and a system's own barrier Struct (a Struct named *Barrier with
# a `material` field).

def _is_barrier(cls: type) -> bool:
    from xsys.core.model import Barrier

    return issubclass(cls, Barrier) or (cls.__name__.endswith("Barrier") and "material" in cls.__struct_fields__)


_HOLDERS: dict[type, tuple[tuple[str, str], ...]] = {}


def _holders(cls: type) -> tuple[tuple[str, str], ...]:
    """(attribute, name in the document) of the fields of Struct `cls` that may hold a barrier."""
    found = _HOLDERS.get(cls)
    if found is None:
        _HOLDERS[cls] = ()  # a Struct that contains itself: no barrier through that path
        found = _HOLDERS[cls] = tuple((f.name, f.encode_name) for f in msgspec.structs.fields(cls)
                                      if _may_hold(f.type))
    return found


def _may_hold(t: Any) -> bool:
    origin = get_origin(t)
    if origin is Annotated:
        return _may_hold(get_args(t)[0])
    if origin is Union or origin is types.UnionType:
        return any(_may_hold(a) for a in get_args(t))
    if origin in (list, tuple, set, frozenset):
        return any(_may_hold(a) for a in get_args(t) if a is not Ellipsis)
    if origin is dict:
        args = get_args(t)
        return bool(args) and _may_hold(args[-1])
    if isinstance(t, type) and issubclass(t, msgspec.Struct):
        return _is_barrier(t) or bool(_holders(t))
    return False


def check_barriers(doc: Any, file: str | None = None, registry: Registry | None = None) -> None:
    """Refuse a barrier whose material is not in the catalog, naming its path."""
    known = None
    stack: list[tuple[Any, str]] = [(doc, "$")]
    while stack:
        obj, path = stack.pop()
        if isinstance(obj, msgspec.Struct):
            cls = type(obj)
            if _is_barrier(cls):
                if known is None:
                    known = (registry or default_registry()).catalog().materials
                material = getattr(obj, "material", None)
                if material not in known:
                    raise InputError("unknown barrier material", file=file, path=f"{path}.material",
                                     expected=("one of " + ", ".join(sorted(known))) if known
                                     else "a catalog material (no catalog is installed)",
                                     found=repr(material))
            stack.extend((getattr(obj, attr), f"{path}.{name}") for attr, name in reversed(_holders(cls)))
        elif isinstance(obj, (list, tuple)):
            stack.extend((v, f"{path}[{i}]") for i, v in reversed(list(enumerate(obj))))
        elif isinstance(obj, dict):
            stack.extend((v, codec.key_path(path, k)) for k, v in reversed(list(obj.items())))


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
    """A document (Struct or plain data) -> bytes in yaml/json/toml, deterministic. A
    conversion (a mapping with the `xsys` block) that xsys could not read back is refused."""
    out = _dumps(obj, fmt)
    if isinstance(obj, dict) and "xsys" in obj:
        check_output_size(out)
    return out


def _dumps(obj: Any, fmt: str) -> bytes:
    if fmt == "json":
        return _json_text(obj)
    plain = codec.to_builtins(obj)
    if fmt == "toml":
        import tomli_w

        return tomli_w.dumps(_toml_safe(plain)).encode("utf-8")
    if fmt == "yaml":
        return _yaml_text(plain)
    spec = default_registry().format_named(output_format(fmt))
    assert spec is not None and spec.dump is not None
    out = spec.dump(plain)
    if not isinstance(out, (bytes, bytearray)):
        from xsys.core.errors import PluginError

        raise PluginError(f"format {spec.name!r} of {default_registry().who(spec.plugin)} wrote "
                          f"{type(out).__name__}, not bytes")
    return bytes(out)


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
    rb'\\[^"\\]'  # an escape in the JSON of a control character or a line break (a quote or a
    # backslash, escaped, is written alike by both: checked over the goldens and random strings)
    rb"|\x7f|\xc2[\x80-\x9f]|\xef\xbb\xbf|\xef\xbf[\xbe\xbf]|[\xf0-\xf4]"  # DEL, C1, BOM, non-characters, beyond the BMP
    rb'|"":|"(?:[^"\\]|\\.){100,}":'  # empty or long keys (PyYAML writes them as "? " complex keys)
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


def lengths_in(obj: Any, plain: Any, unit: str) -> Any:
    """A document's lengths in the unit its system's rulebook prints them in (nWoD and coc7:
    yards), where the length is a whole number of them: "150 yd", not "137.16 m". The same
    length either way (it reads back exactly); one that is no whole number of them stays in
    metres, exact."""
    import msgspec

    from xsys.core.units import Length, SignedLength

    if isinstance(obj, msgspec.Struct) and isinstance(plain, dict):
        for f in codec.struct_fields(type(obj)):
            if f.encode_name in plain:
                plain[f.encode_name] = lengths_in(getattr(obj, f.name), plain[f.encode_name], unit)
        return plain
    if isinstance(obj, (list, tuple)) and isinstance(plain, (list, tuple)) and len(obj) == len(plain):
        return [lengths_in(o, p, unit) for o, p in zip(obj, plain)]
    if isinstance(obj, Length) and not isinstance(obj, SignedLength):
        n = obj.to(unit)
        if n > 0 and abs(n - round(n)) < 1e-6:
            return f"{round(n)} {unit}"
    return plain
