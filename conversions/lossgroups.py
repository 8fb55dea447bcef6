"""The grouped loss report of a roster: one entry per kind of loss (its kind, severity,
rule, its path with every index as ``[*]`` and its message with what differs from NPC to
NPC as a placeholder), with how many losses it stands for and the first NPCs it hit.

A roster of 10,000 NPCs loses much the same things in every NPC; listed one loss a line,
its report was three times the size of the roster itself. Grouped, it is a few dozen
entries. ``--losses full`` keeps the report one loss a line; a document of one NPC (and
any document that is not a roster) always has it so.

:class:`Grouper` takes the losses one at a time and keeps only a count and the first few
NPCs per group, so a streamed roster groups its report in flat memory."""

from __future__ import annotations

import difflib
import re
from typing import Any, Iterable, Literal

import msgspec

from xsys.core.errors import XsysError
from xsys.core.trace import Loss, printable

LossesMode = Literal["grouped", "full"]
LOSSES_MODES: tuple[str, ...] = ("grouped", "full")

# how many of the NPCs a group hit it names (the first, in the order of the full report)
FIRST_NPCS = 3

_INDEX = re.compile(r"\[\d+\]")
_NPC = re.compile(r"\$\.npcs\[(\d+)\]")
_ITEM = re.compile(r"\$\.npcs\[\d+\]\.(\w+)\[(\d+)\]")
# a number standing on its own ("Vision 10", "0.25", "+1" (its sign kept), "65%", a GURPS level
# "Stealth-5"), not one inside a name or a calibre ("M1903", "7.62x51mm", "AK-47", ".50 BMG",
# "3e", "DX-4": after a capital); dice ("2d+1", "15d", "1d10"). Each starts with its first digit,
# what stands before it looked at after (a pattern that starts with a digit is searched for fast:
# a loss of a 10,000-NPC roster costs ~5 us)
_BEFORE = r"(?<![\w./]\d)(?<![A-Z0-9_]-\d)"
_NUMBER_OR_DICE = re.compile(r"\d" + _BEFORE + r"\d*(?:(d)\d*(?:[+-]\d+)?(?![\w\-/])|(?:\.\d+)?(?![\w\-/]|\.\d))")


def _placeholder(m: re.Match[str]) -> str:
    return "<dice>" if m.group(1) else "<n>"
# a name shorter than this is not taken out of a message (it could be part of any word)
_SHORTEST_NAME = 3


def check_mode(mode: str) -> LossesMode:
    if mode not in LOSSES_MODES:
        raise XsysError("unknown loss report form", path="--losses", expected=" or ".join(LOSSES_MODES),
                        found=repr(mode))
    return mode  # type: ignore[return-value]


def grouped(kind: str, npcs: int, mode: str) -> bool:
    """Whether a document's report is grouped: a roster of more than one NPC, unless the
    full report is asked for."""
    return mode == "grouped" and kind == "roster" and npcs > 1


class NpcRef(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """An NPC of the roster, by its place in the ``npcs`` list and its name."""

    index: int
    name: str | None = None


class LossGroup(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Losses alike in a roster. Stable JSON form: a loss's ``{"kind", "path", "message",
    "rule", "system", "level"}`` (path and message as patterns) with ``"count"`` (how many
    losses) and ``"first_npcs"`` (the first NPCs hit, ``{"index", "name"}``)."""

    kind: str
    path: str
    message: str
    rule: str = ""
    system: str = ""
    level: str = "warning"
    count: int
    first_npcs: list[NpcRef] = []

    def render(self) -> str:
        """One line for a terminal or a log (control characters shown as escapes)."""
        rule = f" [{self.rule}]" if self.rule else ""
        who = ", ".join(f"{n.name} (#{n.index})" if n.name is not None else f"#{n.index}" for n in self.first_npcs)
        more = ", ..." if who and self.count > len(self.first_npcs) else ""
        hit = f"; first in {who}{more}" if who else ""
        times = "1 loss" if self.count == 1 else f"{self.count:,} losses"
        return printable(f"{self.level}: {self.path}: {self.message}{rule} ({times}{hit})")


def path_pattern(path: str) -> str:
    return _INDEX.sub("[*]", path) if "[" in path else path


def message_pattern(message: str, npc_name: str | None = None, item_name: str | None = None) -> str:
    """`message` with what is particular to one NPC as placeholders: the name of the item the
    loss is about (``<item>``), the NPC's name (``<npc>``), dice (``<dice>``) and numbers
    (``<n>``)."""
    if item_name and len(item_name) >= _SHORTEST_NAME:
        message = message.replace(item_name, "<item>")
    if npc_name and len(npc_name) >= _SHORTEST_NAME:
        message = message.replace(npc_name, "<npc>")
    return _NUMBER_OR_DICE.sub(_placeholder, message)


def _name(x: Any, field: str = "name") -> str | None:
    name = x.get(field) if isinstance(x, dict) else None
    return name if isinstance(name, str) else None


def _item_name(npc: Any, path: str, field: str = "name") -> str | None:
    m = _ITEM.match(path)
    if m is None or not isinstance(npc, dict):
        return None
    items = npc.get(m.group(1))
    j = int(m.group(2))
    return _name(items[j], field) if isinstance(items, list) and j < len(items) else None


class _Group:
    __slots__ = ("first", "count", "npcs")

    def __init__(self, first: tuple[int, int]) -> None:
        self.first = first  # (phase, place in the phase) of its first loss
        self.count = 0
        self.npcs: list[tuple[tuple[int, int], int, str | None]] = []  # (place, index, name), the first few

    def hit(self, place: tuple[int, int], index: int | None, name: str | None, most: int) -> None:
        self.count += 1
        npcs = self.npcs
        if index is None or (len(npcs) >= most and place >= npcs[-1][0]):
            return  # a loss after those of the NPCs named
        for _, i, _ in npcs:
            if i == index:
                return  # an NPC comes first with its earliest loss: its losses of reading precede its writing's
        if len(npcs) < most:
            self.npcs.append((place, index, name))
        elif place < self.npcs[-1][0]:  # a loss of reading after those of writing: earlier in the report
            self.npcs[-1] = (place, index, name)
        else:
            return
        self.npcs.sort(key=lambda t: t[0])


class _Kind:
    """The losses of one kind, severity, rule, system and path pattern, by message pattern;
    the words every message pattern starts and ends with."""

    __slots__ = ("first", "patterns", "overflow", "head", "tail", "shortest")

    def __init__(self, first: tuple[int, int], words: list[str]) -> None:
        self.first = first
        self.patterns: dict[str, _Group] = {}
        self.overflow: _Group | None = None  # the patterns past MAX_PATTERNS, together
        self.head, self.tail, self.shortest = list(words), list(words), len(words)

    def common(self, words: list[str]) -> None:
        n = 0
        while n < min(len(self.head), len(words)) and self.head[n] == words[n]:
            n += 1
        del self.head[n:]
        n = 0
        while n < min(len(self.tail), len(words)) and self.tail[-1 - n] == words[-1 - n]:
            n += 1
        self.tail = self.tail[len(self.tail) - n:]
        self.shortest = min(self.shortest, len(words))

    def template(self) -> str:
        """The words all its messages share at their start and end, "<...>" between (for a kind
        whose messages are not all kept: ``_template`` aligns those that are)."""
        head = self.head[:self.shortest]
        tail = self.tail[len(self.tail) - min(len(self.tail), self.shortest - len(head)):] if self.tail else []
        return " ".join([*head, "<...>", *tail])


def _family(message: str) -> str:
    """What a message pattern says, by its first two words that are no placeholder ("<item>: GURPS
    line (damage <dice> ..." -> "GURPS line"): the messages of one kind of loss at one place that
    say other things (a weapon's line, its capacity) are grouped apart."""
    return " ".join([w.translate(_DIGITS) for w in message.split(" ") if "<" not in w][:2])


_DIGITS = str.maketrans("", "", "0123456789")  # "Stealth-7 is ..." and "Stealth-6 is ...": one family


def _template(messages: list[str]) -> str:
    """The words all `messages` share, in their order, "<...>" where they differ: "the source's <...>
    competence <n> lies above anything <...> can express: clamped ..." (the words in the middle
    say what the loss is; the start and end alone had left "the source's <...> (competence <n>)")."""
    words = messages[0].split(" ")
    for m in messages[1:]:
        other = m.split(" ")
        kept: list[str] = []
        a = b = 0
        for i, j, n in difflib.SequenceMatcher(a=words, b=other, autojunk=False).get_matching_blocks():
            if (i > a or j > b) and (not kept or kept[-1] != _GAP):
                kept.append(_GAP)
            kept.extend(words[i:i + n])
            a, b = i + n, j + n
        words = [w for k, w in enumerate(kept) if w != _GAP or k == 0 or kept[k - 1] != _GAP]
    return " ".join(words)


_GAP = "<...>"


# A kind of loss whose messages differ in more ways than this (an nWoD pool merging a
# different set of skills for each NPC, a GURPS weapon line from a different table row for
# each weapon) is one group whose message keeps the words they share.
MAX_VARIANTS = 3
# At most this many message patterns are told apart per kind of loss (memory stays flat
# whatever the messages say); the rest are counted together.
MAX_PATTERNS = 256


class Grouper:
    """Groups a roster's losses as they come. Each loss comes with the index of the NPC
    its path is in and that NPC's plain (converted) data, for its names. A loss's place
    in the full report is (phase, how many losses of that phase came before it): a
    streamed roster gives the losses of reading (phase 0) and of writing (phase 1) NPC by
    NPC, and the full report lists all of phase 0 first."""

    def __init__(self, first_npcs: int = FIRST_NPCS, name_field: str = "name", line_field: str = "name") -> None:
        self.kinds: dict[tuple[str, ...], _Kind] = {}
        self.seen = [0, 0]
        self.total = 0
        self.first_npcs = first_npcs
        self.name_field = name_field  # the key of an NPC's name (core.sheet.npc_name_field: Polish imię)
        self.line_field = line_field  # the key naming a line of the source's (core.sheet.line_name_field)

    def add(self, loss: Loss, npc: Any = None, phase: int = 0, source: Any = None) -> None:
        key, message, index = self.prepare(loss, npc, source)
        self.add_prepared(key, message, index, _name(npc, self.name_field) if index is not None else None, phase)

    def prepare(self, loss: Loss, npc: Any = None, source: Any = None) -> tuple[tuple[str, ...], str, int | None]:
        """What :meth:`add` groups a loss by: (its key, its message pattern, the index of the
        NPC its path is in). `npc` is the NPC as written (its name), `source` as it was read:
        a loss's path is a path into the source, so the item it names is the source's (the
        written NPC's where no source is given). An NPC converted again under another name (a
        roster's repeated stat block, conversions/stream.py) has the same key and pattern where
        its name is not in its losses' messages."""
        path = loss.path
        m = _NPC.match(path)
        index = int(m.group(1)) if m is not None else None
        npc_name = _name(npc, self.name_field) if index is not None else None
        item = (_item_name(npc, path) if source is None else _item_name(source, path, self.line_field)) \
            if index is not None else None
        message = message_pattern(loss.message, npc_name, item)
        return (loss.kind, loss.level, path_pattern(path), loss.rule, loss.system), message, index

    def add_prepared(self, key: tuple[str, ...], message: str, index: int | None, npc_name: str | None,
                     phase: int = 0) -> "_Group":
        """Add a loss :meth:`prepare` prepared; returns the group it counts in (its group for
        good: :meth:`add_again`)."""
        place = (phase, self.seen[phase])
        self.seen[phase] += 1
        self.total += 1
        k = self.kinds.get(key)
        if k is None:
            k = self.kinds[key] = _Kind(place, message.split(" "))
        g = k.patterns.get(message)
        if g is None:
            k.common(message.split(" "))
            if len(k.patterns) < MAX_PATTERNS:
                g = k.patterns[message] = _Group(place)
            else:
                g = k.overflow = k.overflow or _Group(place)
        g.hit(place, index, npc_name, self.first_npcs)
        return g

    def add_again(self, prepared: list[tuple[Any, str, int | None, int]], groups: list["_Group"], index: int,
                  npc_name: str | None) -> bool:
        """The losses of an NPC whose stat block came before (conversions/stream_seen.py), NPC
        `index` called `npc_name`: as :meth:`add_prepared` each, in the `groups` the earlier
        NPC's losses counted in (a loss's group is its group for good). True when each of them
        only counted (no group names the NPC): so it is for every later NPC of that stat block,
        as places only grow, and :meth:`count_again` adds them."""
        seen, most = self.seen, self.first_npcs
        named = False
        for (_, _, at, phase), g in zip(prepared, groups):
            place = (phase, seen[phase])
            seen[phase] += 1
            if at is None:
                g.count += 1
                continue
            npcs = g.npcs
            if len(npcs) >= most and place >= npcs[-1][0]:
                g.count += 1  # as _Group.hit: a loss after those of the NPCs named
                continue
            named = True
            g.hit(place, index, npc_name, most)
        self.total += len(prepared)
        return not named

    def count_again(self, phases: tuple[int, int], groups: list["_Group"]) -> None:
        """:meth:`add_again` for a stat block whose losses only count now: `phases` is how many
        of them are of reading and of writing."""
        for g in groups:
            g.count += 1
        self.seen[0] += phases[0]
        self.seen[1] += phases[1]
        self.total += len(groups)

    def result(self) -> list[LossGroup]:
        """The groups, warnings first, then in the order of their first loss."""
        out: list[tuple[tuple[bool, tuple[int, int]], LossGroup]] = []
        for (kind, level, path, rule, system), k in self.kinds.items():
            if len(k.patterns) <= MAX_VARIANTS and k.overflow is None:
                parts = [(message, [g]) for message, g in k.patterns.items()]
            else:
                families: dict[str, list[str]] = {}
                for message in k.patterns:
                    families.setdefault(_family(message), []).append(message)
                if len(families) == 1 or k.overflow is not None:
                    # (past MAX_PATTERNS the messages are not all kept: the words at both ends that
                    # every one of them had)
                    parts = [(k.template() if k.overflow is not None else _template(list(k.patterns)),
                              [*k.patterns.values(), *([k.overflow] if k.overflow else [])])]
                else:  # findings of different words at one place (a weapon's line, its capacity): apart
                    parts = []
                    for messages in families.values():
                        if len(messages) <= MAX_VARIANTS:
                            parts += [(m, [k.patterns[m]]) for m in messages]
                        else:
                            parts.append((_template(messages), [k.patterns[m] for m in messages]))
            for message, groups in parts:
                first = min(g.first for g in groups)
                npcs: dict[int, tuple[tuple[int, int], str | None]] = {}
                for g in groups:
                    for place, i, name in g.npcs:
                        if i not in npcs or place < npcs[i][0]:
                            npcs[i] = (place, name)
                firsts = sorted(npcs.items(), key=lambda kv: kv[1][0])[:self.first_npcs]
                group = LossGroup(kind=kind, level=level, path=path, message=message, rule=rule, system=system,
                                  count=sum(g.count for g in groups),
                                  first_npcs=[NpcRef(index=i, name=name) for i, (_, name) in firsts])
                out.append(((level != "warning", first), group))
        out.sort(key=lambda t: t[0])
        return [g for _, g in out]


def group(losses: Iterable[Loss], npcs: list[Any], name_field: str = "name",
          sources: list[Any] | None = None, line_field: str = "name") -> list[LossGroup]:
    """The groups of a whole roster's losses (`npcs`: its NPCs as plain data, each named by
    `name_field`; `sources`: the same NPCs as the source stated them, where the losses' paths
    point, its lines named by `line_field`)."""
    grouper = Grouper(name_field=name_field, line_field=line_field)
    for loss in losses:
        m = _NPC.match(loss.path)
        i = int(m.group(1)) if m is not None else -1
        grouper.add(loss, npcs[i] if 0 <= i < len(npcs) else None, 0,
                    sources[i] if sources is not None and 0 <= i < len(sources) else None)
    return grouper.result()
