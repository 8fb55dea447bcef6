"""A roster's NPCs read one at a time (conversions/stream.py): JSON by a tokenizer over the
file in chunks that finds the ``npcs`` array and each NPC's bytes, YAML by libyaml's parser
composing one NPC node at a time with xsys's safe loader rules and limits."""

from __future__ import annotations

import gc
import re
from array import array
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from xsys.core.errors import InputError, XsysError

CHUNK = 1 << 20


class NotStreamable(Exception):
    """This document is converted whole (the reason is the message)."""


def at_npc(exc: XsysError, i: int) -> XsysError:
    """An error about NPC `i`'s own text (its paths start at the NPC) placed in the roster."""
    p = exc.path
    exc.path = f"$.npcs[{i}]" if not p else (f"$.npcs[{i}]" + p[1:] if p.startswith("$") else p)
    return exc


# ---- reading JSON ---------------------------------------------------------------------

_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|"|[\[\]{}]')
# inside an NPC only brackets count: the text up to the next bracket (or a string the buffer
# cuts), strings whole, in one step of the C matcher rather than a token at a time
_SKIP = re.compile(rb'(?:[^"\[\]{}]++|"[^"\\]*+(?:\\.[^"\\]*+)*+")*+')


def _balanced(depth: int) -> re.Pattern[bytes]:
    """An object whose brackets nest at most `depth` deep inside it, matched whole by the C
    matcher (strings whole, each bracket closed by its own kind); deeper, or cut by the end of
    the buffer, it does not match and the tokenizer counts its brackets."""
    string = rb'"[^"\\]*+(?:\\.[^"\\]*+)*+"'
    inner = rb'(?:[^"\[\]{}]++|' + string + rb')*+'
    for _ in range(depth):
        inner = rb'(?:[^"\[\]{}]++|' + string + rb'|\{' + inner + rb'\}|\[' + inner + rb'\])*+'
    return re.compile(rb'\{' + inner + rb'\}')


_NPC = _balanced(5)  # an NPC: its weapons' lines, their fields' lists
_COLON = re.compile(rb"[ \t\r\n]*:[ \t\r\n]*")
_BLANK_END = re.compile(rb"[ \t\r\n]*\Z")
FIRST_GAP = re.compile(rb"\[[ \t\r\n]*\Z")
GAP = re.compile(rb"[ \t\r\n]*,[ \t\r\n]*\Z")
LAST_GAP = re.compile(rb"[ \t\r\n]*\]\Z")
_BOM = b"\xef\xbb\xbf"


@dataclass
class _JsonLayout:
    head: bytes  # the document with an empty npcs list
    arr_start: int  # offset of the npcs list's "["
    arr_end: int  # just after its "]"
    starts: array  # offsets of each NPC's "{"
    ends: array  # just after each NPC's "}"


def scan_json(path: str) -> _JsonLayout:
    """Where the top-level ``npcs`` array and each of its objects are in a JSON file (one
    pass in chunks; strings skipped whole, brackets counted). What lies between the
    objects is checked when they are read."""
    depth = 0
    pos = 0  # file offset of buf[0]
    buf = b""
    npcs_key = False  # the last top-level key was "npcs"
    arr_start = arr_end = elem_start = -1
    starts, ends = array("q"), array("q")
    with open(path, "rb") as fh:
        eof = False
        while not eof:
            chunk = fh.read(CHUNK)
            eof = not chunk
            buf = buf + chunk if buf else chunk
            keep = len(buf)
            at = 0
            while True:
                if depth >= 3:
                    at = _SKIP.match(buf, at).end()
                m = _TOKEN.search(buf, at)
                if m is None:
                    break
                at = m.end()
                tok = m.group()
                c = tok[0]
                if c == 0x22:  # a string, or a lone quote: a string the buffer cuts
                    if len(tok) == 1:
                        if eof:
                            raise NotStreamable("malformed JSON")
                        keep = m.start()
                        break
                    if depth == 1:
                        cm = _COLON.match(buf, m.end())
                        if cm is None:
                            if not eof and _BLANK_END.match(buf, m.end()):
                                keep = m.start()  # its colon may be in the next chunk
                                break
                            continue  # a value
                        if tok == b'"npcs"':
                            if arr_start >= 0:
                                raise NotStreamable("two npcs keys")
                            npcs_key = True
                        elif tok == b'"xsys"':
                            raise NotStreamable("it remembers its source")
                        else:
                            npcs_key = False
                    continue
                if c == 0x7B or c == 0x5B:  # { [
                    if depth == 1 and npcs_key:
                        if c != 0x5B:
                            raise NotStreamable("npcs is not a list")
                        arr_start = pos + m.start()
                        npcs_key = False
                    elif depth == 2 and arr_start >= 0 and arr_end < 0:
                        if c != 0x7B:
                            raise NotStreamable("an NPC that is not a mapping")
                        whole = _NPC.match(buf, m.start())
                        if whole is not None:  # the NPC at once
                            starts.append(pos + m.start())
                            ends.append(pos + whole.end())
                            at = whole.end()
                            continue
                        elem_start = pos + m.start()
                    depth += 1
                    continue
                depth -= 1
                if depth < 0:
                    raise NotStreamable("malformed JSON")
                if depth == 2 and elem_start >= 0:
                    if c != 0x7D:
                        raise NotStreamable("malformed JSON")
                    starts.append(elem_start)
                    ends.append(pos + m.end())
                    elem_start = -1
                elif depth == 1 and arr_start >= 0 and arr_end < 0:
                    if c != 0x5D:
                        raise NotStreamable("malformed JSON")
                    arr_end = pos + m.end()
            pos += keep
            buf = buf[keep:]
        if depth != 0 or buf.strip() or arr_start < 0 or arr_end < 0:
            raise NotStreamable("no npcs list")
        head = _read_at(fh, 0, arr_start) + b"[]" + _read_at(fh, arr_end, None)
    return _JsonLayout(head, arr_start, arr_end, starts, ends)


def _read_at(fh: Any, offset: int, n: int | None) -> bytes:
    fh.seek(offset)
    return fh.read() if n is None else fh.read(n)


# ---- reading YAML ---------------------------------------------------------------------

_YAML_MARK = re.compile(rb"(?m)^xsys:[ \t]*(?:#.*)?\r?$")


def yaml_remembers(path: str) -> bool:
    """Whether a YAML file has a top-level ``xsys:`` block (a conversion xsys wrote, which
    the whole conversion restores): read in chunks, so that memory stays flat."""
    tail = b""
    with open(path, "rb") as fh:
        while True:
            chunk = fh.read(CHUNK)
            if not chunk:
                return bool(_YAML_MARK.search(tail))
            buf = tail + chunk
            cut = buf.rfind(b"\n")
            if cut < 0:
                tail = buf
                continue
            if _YAML_MARK.search(buf, 0, cut):
                return True
            tail = buf[cut + 1:]


def yaml_npcs(path: str, file: str, on_head: Callable[[dict[str, Any]], None],
               known_after: dict[str, Any] | None) -> Iterator[tuple[Any, int]]:
    """(plain NPC, offset reached) for each NPC of a YAML roster; `on_head` gets the
    document without its NPCs before the first one. Keys after the npcs list (not known
    before it) raise NotStreamable with them in ``exc.args[1]`` unless given as
    `known_after`."""
    import yaml

    from . import safe_yaml
    from .safe_yaml import measure

    with open(path, "rb") as fh:
        if fh.read(3) != _BOM:
            fh.seek(0)
        loader = _stream_loader()(fh)
        try:
            loader.get_event()  # stream start
            if not loader.check_event(yaml.DocumentStartEvent):
                raise NotStreamable("empty")
            loader.get_event()
            if not loader.check_event(yaml.MappingStartEvent):
                raise NotStreamable("not a mapping")
            ev = loader.get_event()
            if ev.anchor is not None:
                raise NotStreamable("an anchored document")
            pairs: list[tuple[Any, Any]] = []
            seen_npcs = False
            head_done = False
            after: list[tuple[Any, Any]] = []
            while not loader.check_event(yaml.MappingEndEvent):
                key = loader.compose_node(None, None)
                if (isinstance(key, yaml.ScalarNode) and key.value == "npcs" and key.tag.endswith(":str")
                        and loader.check_event(yaml.SequenceStartEvent)):
                    if seen_npcs:
                        raise NotStreamable("two npcs keys")
                    seen_npcs = True
                    start = loader.get_event()
                    if start.anchor is not None:
                        raise NotStreamable("an anchored npcs list")
                    head = _yaml_head(loader, pairs, measure, file)
                    if known_after:
                        head.update(known_after)
                    on_head(head)
                    head_done = True
                    i = 0
                    while not loader.check_event(yaml.SequenceEndEvent):
                        node = loader.compose_node(None, None)
                        _check_size(node, i, file)
                        try:
                            measure(node)
                        except InputError as exc:
                            raise at_npc(exc, i).with_file(file) from None
                        if not isinstance(node, yaml.MappingNode):
                            raise NotStreamable("an NPC that is not a mapping")
                        gc_was = gc.isenabled()
                        gc.disable()
                        try:
                            plain = loader.construct_document(node)
                        except InputError as exc:
                            raise at_npc(exc, i).with_file(file) from None
                        finally:
                            if gc_was:
                                gc.enable()
                        yield plain, node.end_mark.index
                        i += 1
                    loader.get_event()
                    continue
                value = loader.compose_node(None, None)
                (after if head_done else pairs).append((key, value))
            if not seen_npcs:
                raise NotStreamable("no npcs list")
            if after:
                extra = _yaml_head(loader, after, measure, file)
                if known_after is None or extra != known_after:
                    raise NotStreamable("keys after the npcs list", extra)
            loader.get_event()
            if not loader.check_event(yaml.DocumentEndEvent):
                raise NotStreamable("malformed")
            loader.get_event()
            if not loader.check_event(yaml.StreamEndEvent):
                raise NotStreamable("several documents")
        except yaml.YAMLError as exc:
            msg = str(exc).replace("\n", " ")
            raise InputError(f"malformed YAML: {msg}", file=file) from None
        except RecursionError:
            raise InputError("YAML nested too deeply", file=file,
                             expected=f"at most {safe_yaml.MAX_DEPTH} levels", found="more") from None
        finally:
            loader.dispose()


def _check_size(node: Any, i: int, file: str) -> None:
    """The input limit, for one NPC of a YAML roster (libyaml counts its text in characters)."""
    from . import documents

    limit = documents.max_input_bytes()
    size = node.end_mark.index - node.start_mark.index
    if size > limit:
        raise InputError("input too large", file=file, path=f"$.npcs[{i}]",
                         expected=f"at most {limit} bytes, the XSYS_MAX_INPUT_BYTES limit",
                         found=f"{size} characters")


_LOADER: list[type] = []


def _stream_loader() -> type:
    """xsys's safe loader (libyaml's parser where PyYAML has it) that also composes one
    node at a time: PyYAML's composer over the parser's events."""
    if not _LOADER:
        import yaml.composer

        from .safe_yaml import _Loader

        class _StreamLoader(_Loader, yaml.composer.Composer):  # type: ignore[misc, valid-type]
            def __init__(self, stream: Any) -> None:
                _Loader.__init__(self, stream)
                self.anchors = {}

        _LOADER.append(_StreamLoader)
    return _LOADER[0]


def _yaml_head(loader: Any, pairs: list[tuple[Any, Any]], measure: Callable[[Any], None], file: str) -> dict:
    import yaml

    node = yaml.MappingNode("tag:yaml.org,2002:map", list(pairs))
    try:
        measure(node)
        return loader.construct_document(node)
    except InputError as exc:
        raise exc.with_file(file) from None
