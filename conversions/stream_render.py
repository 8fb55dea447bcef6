"""The streamed output's pieces (conversions/stream.py): an NPC, a loss or a remembered NPC
rendered at the indentation its place in the whole output's skeleton has, and the skeleton
split at its placeholders, so the pieces join to what the whole document would be."""

from __future__ import annotations

from typing import Any

import msgspec

# ---- rendering ------------------------------------------------------------------------

def render(plain: Any, fmt: str, keys: tuple[str, ...], indent: bytes) -> bytes:
    """One list item as it appears in the whole output under `keys` (JSON: at `indent`,
    without a trailing newline; YAML: with one)."""
    from . import documents

    if fmt == "json":
        text = documents._json_text(plain)
        return indent + text.rstrip(b"\n").replace(b"\n", b"\n" + indent)
    wrapped: Any = [plain]
    for k in reversed(keys):
        wrapped = {k: wrapped}
    text = documents._yaml_text(wrapped)
    cut = 0
    for _ in keys:
        cut = text.index(b"\n", cut) + 1
    return text[cut:]


def render_items(plains: list[Any], fmt: str, keys: tuple[str, ...], indent: bytes) -> bytes:
    """Consecutive list items as they appear in the whole output under `keys`, separated as
    there (JSON: ",\n"; YAML: nothing): the bytes of :func:`render` of each, joined. YAML
    writes them in one call of libyaml's writer (an NPC's losses: about a quarter faster
    for a YAML roster), unless its fast path is not certain for every item or a container
    occurs twice (an alias): then each item is rendered on its own, as JSON always is."""
    from . import documents

    if len(plains) == 1:
        return render(plains[0], fmt, keys, indent)
    if fmt == "json":  # msgspec's writer is called per item at no cost worth saving
        return b",\n".join(render(p, fmt, keys, indent) for p in plains)
    import yaml

    wrapped: Any = plains
    for k in reversed(keys):
        wrapped = {k: wrapped}
    try:  # documents._yaml_text's own test for libyaml's writer; and no container twice (an alias)
        fast = getattr(yaml, "CSafeDumper", None) is not None and not documents._YAML_DIFFERS.search(
            msgspec.json.encode(wrapped)) and not _shares_containers(plains)
    except Exception:
        fast = False
    if fast:
        text = documents._yaml_text(wrapped)
        cut = 0
        for _ in keys:
            cut = text.index(b"\n", cut) + 1
        return text[cut:]
    return b"".join(render(p, fmt, keys, indent) for p in plains)


def _shares_containers(plains: list[Any]) -> bool:
    """Whether a dict or list occurs twice in `plains` (YAML would write it as an alias)."""
    seen: set[int] = set()
    todo: list[Any] = list(plains)
    while todo:
        x = todo.pop()
        if isinstance(x, (dict, list)):
            if id(x) in seen:
                return True
            seen.add(id(x))
            todo.extend(x.values() if isinstance(x, dict) else x)
    return False


def split(skeleton: bytes, sentinel: str) -> tuple[bytes, bytes, bytes] | None:
    """(before, indentation, after) of the skeleton line holding `sentinel`."""
    mark = sentinel.encode()
    at = skeleton.find(mark)
    if at < 0:
        return None
    line_start = skeleton.rfind(b"\n", 0, at) + 1
    line_end = skeleton.find(b"\n", at)
    line = skeleton[line_start:at]
    indent = line[:len(line) - len(line.lstrip(b" "))]
    return skeleton[:line_start], indent, skeleton[line_end + 1:]


def split_value(skeleton: bytes, sentinel: str) -> tuple[bytes, bytes] | None:
    """(before, after) the scalar `sentinel` (with its quotes) in the skeleton: the packed
    source goes there, as JSON and YAML write a base64 text (JSON in double quotes; YAML
    plain: it starts with a letter and has no blanks, so a plain scalar on one line)."""
    mark = sentinel.encode()
    at = skeleton.find(mark)
    if at < 1:
        return None
    q = skeleton[at - 1:at]
    if q not in (b'"', b"'") or skeleton[at + len(mark):at + len(mark) + 1] != q:
        return None
    keep = q if q == b'"' else b""
    return skeleton[:at - 1] + keep, keep + skeleton[at + len(mark) + 1:]
