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

    __slots__ = ("before", "after", "out", "read", "write", "groups", "text", "said", "warnings", "strict")

    def npc(self, name: str, field: str) -> tuple[bytes, dict[str, Any]]:
        """The NPC under `name`: its canonical JSON (for the digest) and its written form."""
        return self.before + codec.json_encode(name) + self.after, {**self.out, field: name}


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

    def start(self, src: Any, dst: Any) -> None:
        """Kept between the two systems (None: the neutral model) where both remember their
        answers (System.remember) and both stat blocks have a name field (core.sheet.name_field)."""
        from xsys.core.sheet import name_field

        fields = (name_field(src), name_field(dst))
        if all(s is None or s.remember for s in (src, dst)) and fields[0] and fields[1]:
            self.fields = (fields[0], fields[1])

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
             write: list[Loss], groups: list[tuple[Any, str, int | None, int]]) -> None:
        quoted = codec.json_encode(name)
        said = "\n".join(x.message + "\n" + x.path for x in (*read, *write))
        if self.fields is None or out.get(self.fields[1]) != name or npc_json.count(quoted[1:-1]) != 1 \
                or name in said or quoted[1:-1] in key:
            return  # its name is written otherwise, or said elsewhere (in the stat block too): converted each time
        at = npc_json.index(quoted)
        again = Again()
        again.before, again.after, again.out = npc_json[:at], npc_json[at + len(quoted):], out
        again.read, again.write = read, write
        again.warnings = sum(x.level == "warning" for x in (*read, *write))
        again.strict = sum(x.kind in STRICT_KINDS for x in (*read, *write))
        again.groups = groups  # (key, message pattern, index or None, phase): the index is the NPC's own
        again.text, again.said = again.before + again.after, said
        if len(self.kept) >= self.KEPT:
            del self.kept[next(iter(self.kept))]
        self.kept[key] = again
