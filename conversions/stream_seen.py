"""The stat blocks a streamed roster has converted (conversions/stream.py), by what they state
without the NPC's name: a roster repeats stat blocks (twelve cultists, a squad of troopers),
and an NPC whose stat block came before is the earlier one's conversion under its own name."""

from __future__ import annotations

from typing import Any

from xsys.core import codec
from xsys.core.trace import STRICT_KINDS, Loss


class Again:
    """A converted NPC kept for the NPCs after it with the same stat block under another name:
    its canonical JSON around its name, its written form, its losses (paths at ``$.npcs[0]``)
    and how the loss report groups them."""

    __slots__ = ("before", "after", "out", "read", "write", "groups", "text", "said", "warnings", "strict",
                 "source", "counted", "counted_only", "chunk")

    def npc(self, name: str, field: str) -> tuple[bytes, dict[str, Any]]:
        """The NPC under `name`: its canonical JSON (for the digest) and its written form."""
        return self.before + codec.json_encode(name) + self.after, {**self.out, field: name}

    def source_json(self, name: str) -> bytes | None:
        """The NPC as read (its canonical JSON, as the remembered source keeps it) under `name`;
        None where its name is not in it once, as its name."""
        if self.source is None:
            return None
        before, after = self.source
        return before + codec.json_encode(name) + after


class Seen:
    """The NPCs of a roster converted so far, by their stat block without their name (a
    roster repeats stat blocks: twelve cultists, a squad of troopers). A conversion depends
    on what a stat block states, not on what the NPC is called (the conformance kit checks
    every system for it: xsys.testing.conformance), so an NPC whose stat block came before
    is the earlier one's output under its own name, with the earlier one's losses at its
    own index: the same bytes as converting it again. An NPC is kept only where its name is
    in its output once, as its name (nowhere in a loss, a note or another field of the stat
    block or of its output), and taken again only by a name that is in none of those either;
    the last :data:`KEPT` are kept."""

    KEPT = 2048

    def __init__(self) -> None:
        self.kept: dict[bytes, Again] = {}
        self.fields: tuple[str, str] | None = None  # the key of the name in the source's NPC, the target's
        # an NPC as the file states it (before it is read into the source's document), without its
        # name -> the key of its stat block: a stat block seen before is not read again
        self.raw: dict[bytes, bytes] = {}
        self.name_type: Any = None  # the type of the source's name field, checked on every name

    def start(self, src: Any, dst: Any, npc_type: Any = None) -> None:
        """Kept between the two systems (None: the neutral model) where both remember their
        answers (System.remember) and both stat blocks have a name field (core.sheet.name_field).
        `npc_type`: the source's NPC Struct, whose name field's type every name is checked
        against where an NPC's stat block is not read again."""
        import msgspec

        from xsys.core.sheet import name_field

        fields = (name_field(src), name_field(dst))
        if all(s is None or s.remember for s in (src, dst)) and fields[0] and fields[1]:
            self.fields = (fields[0], fields[1])
            if npc_type is not None:
                self.name_type = next((f.type for f in msgspec.structs.fields(npc_type)
                                       if f.encode_name == fields[0]), None)

    def raw_key(self, plain: Any) -> bytes | None:
        """The key of an NPC as the file states it, without its name (None: it has no key)."""
        if self.fields is None or self.name_type is None or not isinstance(plain, dict):
            return None
        field = self.fields[0]
        try:
            return codec.json_encode({k: v for k, v in plain.items() if k != field})
        except (TypeError, ValueError, OverflowError):
            return None

    def get_raw(self, raw_key: bytes, name: Any) -> Again | None:
        """The NPC converted before whose stat block the file states as `raw_key` (an NPC as
        read is a function of what the file states: the same statement reads alike), if `name`
        is a name the source's stat block accepts (else the NPC is read as usual, which says
        why not) and :meth:`get` takes it again under that name."""
        import msgspec

        key = self.raw.get(raw_key)
        if key is None or not isinstance(name, str) or not name:
            return None
        try:
            msgspec.convert(name, self.name_type)
        except (msgspec.ValidationError, TypeError):
            return None
        found = self.get(key, name)
        return found if found is not None and found.source is not None else None

    def key(self, src_npc: dict[str, Any]) -> bytes:
        field = self.fields[0] if self.fields is not None else None
        return codec.json_encode({k: v for k, v in src_npc.items() if k != field})

    def get(self, key: bytes, name: str) -> Again | None:
        found = self.kept.get(key)
        if found is None or name in found.said:
            return None
        inner = codec.json_encode(name)[1:-1]  # as JSON writes it, without its quotes
        return None if inner in found.text or inner in key else found

    def keep(self, key: bytes, name: str, npc_json: bytes, out: dict[str, Any], read: list[Loss],
             write: list[Loss], groups: list[tuple[Any, str, int | None, int]], raw_key: bytes | None = None,
             source_json: bytes | None = None) -> Again | None:
        quoted = codec.json_encode(name)
        said = "\n".join(x.message + "\n" + x.path for x in (*read, *write))
        if self.fields is None or out.get(self.fields[1]) != name or npc_json.count(quoted[1:-1]) != 1 \
                or name in said or quoted[1:-1] in key:
            return None  # its name is written otherwise, or said elsewhere (in the stat block too): converted each time
        at = npc_json.index(quoted)
        again = Again()
        again.before, again.after, again.out = npc_json[:at], npc_json[at + len(quoted):], out
        again.read, again.write = read, write
        again.warnings = sum(x.level == "warning" for x in (*read, *write))
        again.strict = sum(x.kind in STRICT_KINDS for x in (*read, *write))
        again.groups = groups  # (key, message pattern, index or None, phase): the index is the NPC's own
        again.text, again.said = again.before + again.after, said
        again.source = None
        again.counted = None  # the loss groups its losses count in (lossgroups.Grouper.add_again)
        again.counted_only = None  # (reading, writing) losses, once they only count (Grouper.count_again)
        again.chunk = None  # its written form, rendered, around its name (JSON)
        if raw_key is not None and source_json is not None and source_json.count(quoted[1:-1]) == 1 \
                and quoted in source_json:
            s_at = source_json.index(quoted)
            again.source = (source_json[:s_at], source_json[s_at + len(quoted):])
            if len(self.raw) >= self.KEPT:
                del self.raw[next(iter(self.raw))]
            self.raw[raw_key] = key
        if len(self.kept) >= self.KEPT:
            del self.kept[next(iter(self.kept))]
        self.kept[key] = again
        return again


def _plain_name(quoted: bytes) -> bool:
    """Whether a name, as JSON writes it, is written alike by both of xsys's JSON writers and
    makes neither choose the other (documents._json_text): no escape, no number-like run."""
    from .documents import _JSON_CLASSES, _JSON_DIFFERS

    return b"\\" not in quoted and not _JSON_DIFFERS.search(quoted.translate(_JSON_CLASSES))


def split_at_name(chunk: bytes, name: Any) -> tuple[bytes, bytes] | bool:
    """A rendered NPC (JSON) around its name, where its name is in it once and plain
    (:func:`_plain_name`); False otherwise (rendered for each NPC)."""
    if not isinstance(name, str):
        return False
    quoted = codec.json_encode(name)
    if not _plain_name(quoted) or chunk.count(quoted[1:-1]) != 1 or quoted not in chunk:
        return False
    at = chunk.index(quoted)
    return chunk[:at], chunk[at + len(quoted):]


def again_chunk(again: Again, name: Any) -> bytes | None:
    """The NPC `again` stands for, rendered (JSON) under `name`; None: render it."""
    parts = again.chunk
    if not parts or not isinstance(name, str):
        return None
    quoted = codec.json_encode(name)
    if not _plain_name(quoted):
        return None
    return parts[0] + quoted + parts[1]
