"""Provenance and loss: modifiers with rule IDs, native checks with their
exact chance, conversion trace entries, and typed loss messages with a stable JSON form
(pandoc's Logging is the model: a closed set of kinds, each with a level and a text)."""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction
from functools import lru_cache
from typing import Any, Generic, Iterable, Iterator, Literal, Sequence, TypeVar

import msgspec

# printable() lives with the errors, whose one-line rendering uses it too
from .errors import printable  # noqa: F401 - part of this module's interface

_PATH_TOKEN = re.compile(r"\.([^.\[\]]+)|\[(\d+)\]")


def path_tokens(path: str) -> tuple[str | int, ...] | None:
    """``$.npcs[2].skills.spot`` -> ``("npcs", 2, "skills", "spot")``; None for what is no such path.

    An item of a document's list at the head (``$.npcs[2]``, ``$.scenes[0]``) is read apart, so
    that the rest (``.skills.spot``), the same in every NPC of a roster, is parsed once."""
    try:
        return _PATHS[path]
    except KeyError:
        pass
    b = path.find("[", 2)
    e = path.find("]", b + 1) if b > 2 else -1
    index = path[b + 1:e] if e > 0 else ""
    if e == len(path) - 1 or not (path.startswith("$.") and index.isdigit() and index.isascii()
                                  and path.find(".", 2, b) < 0):
        found = _path_tokens(path)
    else:
        rest = _path_tokens("$" + path[e + 1:])
        found = None if rest is None else (path[2:b], int(index), *rest)
    if len(_PATHS) >= 16384:
        _PATHS.clear()
    _PATHS[path] = found
    return found


_PATHS: dict[str, tuple[str | int, ...] | None] = {}  # the paths read lately (a roster's NPC's, every item's own)


@lru_cache(maxsize=8192)
def _path_tokens(path: str) -> tuple[str | int, ...] | None:
    if not path.startswith("$"):
        return None
    out: list[str | int] = []
    pos = 1
    for m in _PATH_TOKEN.finditer(path, 1):
        if m.start() != pos:
            return None
        out.append(m.group(1) if m.group(1) is not None else int(m.group(2)))
        pos = m.end()
    return tuple(out) if pos == len(path) else None


def path_text(tokens: Iterable[str | int]) -> str:
    """The path of `tokens` (the reverse of :func:`path_tokens`)."""
    return "$" + "".join(f"[{t}]" if isinstance(t, int) else f".{t}" for t in tokens)


Source = Literal["seed", "assumed"]


ModifierKind = Literal["add", "multiply", "set", "dice", "difficulty"]


class Modifier(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One modifier of a native check.

    kind: ``add`` (GURPS -3), ``multiply`` (CoC x1/2), ``set`` (CoC 01%), ``dice`` (nWoD
    -2 dice, Polish +1 die), ``difficulty`` (Polish +4)."""

    rule: str
    kind: ModifierKind
    value: int | float | str
    source: Source
    why: str = ""

    def render(self) -> str:
        v = self.value
        if self.kind == "multiply":
            txt = f"x{v}"
        elif self.kind == "set":
            txt = f"= {v}"
        elif self.kind == "dice":
            txt = f"{_signed(v)} dice"
        elif self.kind == "difficulty":
            txt = f"{_signed(v)} difficulty"
        else:
            txt = _signed(v)
        why = f" {self.why}" if self.why else ""
        return printable(f"{txt}{why} [{self.rule}, {self.source}]")


def _signed(v: Any) -> str:
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return f"{v:+g}"
    return str(v)


class Check(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A neutral shot as one system's check: what is rolled, against what, and the
    exact chance of the result the shot needs."""

    system: str
    stat: str  # the skill or characteristic rolled, in the system's own words
    base: int | float | str  # its value before modifiers
    modifiers: list[Modifier] = []
    target: int | float | str  # what the dice need: effective skill, %, pool size, difficulty
    needs: str  # how to read `target` ("3d6 <= 11", "d100 <= 27", "pool 5, 1+ success at 8")
    chance: Fraction  # exact probability of the needed result
    native: str = ""  # the check as players write it ("Guns (Pistol)-14 at -7: roll 7 or less")
    # expected damage of the shot in native points, a miss counting 0 (where the system
    # computes damage), and its distribution (value -> 'p/q')
    damage_mean: float | None = None
    damage: dict[str, str] | None = None  # distribution of damage (value -> 'p/q'), if known
    outcomes: dict[str, Fraction] = {}  # critical success/failure etc.
    notes: list[str] = []

    @property
    def percent(self) -> float:
        return float(self.chance) * 100.0

    def rules(self) -> list[str]:
        return [m.rule for m in self.modifiers]


class TraceEntry(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """How one number crossed: native in A -> neutral value -> native in B."""

    path: str  # where in the document ("$.skills.Handgun")
    source_value: Any = None  # the native value read ("45%")
    neutral: Any = None  # the neutral value in between ("handgun competence 0.333")
    target_value: Any = None  # the native value written ("Guns (Pistol)-14 (P = 0.50)")
    rules: list[str] = []
    source: Source = "seed"
    note: str = ""

    def render(self) -> str:
        parts = [str(x) for x in (self.source_value, self.neutral, self.target_value) if x is not None]
        rules = f" [{', '.join(self.rules)}; {self.source}]" if self.rules else f" [{self.source}]"
        note = f" ({self.note})" if self.note else ""
        return printable(f"{self.path}: {' -> '.join(parts)}{rules}{note}")


# the end of a ``clamped`` loss whose skill a target writes no line for, at what the NPC has
# untrained there (System.floor_unwritten): core.melee writes it after all for a weapon line,
# and the conversion carries the source's line for the way back (conversions.carrying)
UNWRITTEN_AT_FLOOR = "sheet lists no skill at that level, so none is written"
# ... and of one it writes at that level instead (a GURPS Vision at the NPC's Per, a CoC base)
WRITTEN_AT_FLOOR = ": written at the untrained "

LossKind = Literal[
    "unsupported-field",  # the target system has no place for this field
    "merged",  # several source values collapse into one target value
    "clamped",  # the value lies beyond what the target can express
    "rounded",  # the target's step is coarser than the source's value
    "assumed",  # the conversion relied on an assumed (not seed) rule
    "dropped-item",  # an item the target cannot represent at all
    "kept-verbatim",  # kept as a note because the target cannot express it
    "derived",  # the source computes it from other fields by its rule, and one of those was lost
]
LossLevel = Literal["info", "warning"]

LOSS_LEVELS: dict[str, LossLevel] = {
    "unsupported-field": "warning",
    "merged": "warning",
    "clamped": "warning",
    "rounded": "info",
    "assumed": "info",
    "dropped-item": "warning",
    "kept-verbatim": "info",
    "derived": "info",
}


class Loss(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What a conversion could not carry over exactly. Stable JSON form:
    ``{"kind", "level", "path", "message", "rule", "system"}``."""

    kind: LossKind
    path: str
    message: str
    rule: str = ""
    system: str = ""
    level: LossLevel = "warning"

    @classmethod
    def of(cls, kind: LossKind, path: str, message: str, rule: str = "", system: str = "") -> "Loss":
        return cls(kind=kind, path=path, message=message, rule=rule, system=system, level=LOSS_LEVELS[kind])

    def render(self) -> str:
        """One line for a terminal or a log (control characters shown as escapes)."""
        rule = f" [{self.rule}]" if self.rule else ""
        return printable(f"{self.level}: {self.path}: {self.message}{rule}")


# Kinds that make --strict fail: real information loss (not mere provenance notes).
STRICT_KINDS = frozenset({"unsupported-field", "merged", "clamped", "dropped-item"})

T = TypeVar("T")


class Result(Generic[T]):
    """A converted value with its loss report and trace."""

    __slots__ = ("value", "losses", "trace", "sheet")

    def __init__(self, value: T, losses: list[Loss] | None = None, trace: list[TraceEntry] | None = None,
                 sheet: dict[str, Any] | None = None):
        self.value = value
        self.losses = losses if losses is not None else []
        self.trace = trace if trace is not None else []
        # what System.skills_to_neutral saw of the stat block's skills (core.skillplan): native
        # name -> SheetSkill, and "@carry" -> the skills kept verbatim beside a better one
        self.sheet = sheet if sheet is not None else {}

    def __repr__(self) -> str:
        return f"Result({self.value!r}, losses={len(self.losses)}, trace={len(self.trace)})"


# Whether Collectors made in this context record trace entries. A conversion whose trace
# nobody reads (the CLI without --explain) turns it off; losses are always recorded.
_TRACING: ContextVar[bool] = ContextVar("xsys_tracing", default=True)


@contextmanager
def tracing(on: bool) -> Iterator[None]:
    """Record trace entries in Collectors created inside the block only when ``on``."""
    token = _TRACING.set(on)
    try:
        yield
    finally:
        _TRACING.reset(token)


class Collector:
    """Accumulates losses and trace entries while a conversion runs. ``tracing`` is False
    when nobody will read the trace: :meth:`step` then records nothing, and callers may
    skip building the texts they would pass to it."""

    __slots__ = ("losses", "trace", "system", "tracing", "sheet")

    def __init__(self, system: str = ""):
        self.sheet: dict[str, Any] = {}
        self.losses: list[Loss] = []
        self.trace: list[TraceEntry] = []
        self.system = system
        self.tracing = _TRACING.get()

    def loss(self, kind: LossKind, path: str, message: str, rule: str = "") -> None:
        self.losses.append(Loss.of(kind, path, message, rule, self.system))

    def carried(self, path: str, what: str, rule: str = "") -> None:
        """One wording, in every system, for what a sheet states that no neutral field holds
        (a skill no neutral skill means, Sanity, advantages): it is carried verbatim
        (xsys.core.carried), comes back in its own system and is reported by every other."""
        self.loss("kept-verbatim", path, f"{what}: no neutral equivalent; kept for {self.system}", rule)

    def step(self, path: str, source_value: Any = None, neutral: Any = None, target_value: Any = None,
             rules: list[str] | None = None, source: Source = "seed", note: str = "") -> None:
        if not self.tracing:
            return
        self.trace.append(TraceEntry(path=path, source_value=source_value, neutral=neutral,
                                     target_value=target_value, rules=rules or [], source=source, note=note))

    def result(self, value: T) -> Result[T]:
        if self.sheet and not getattr(value, "sheet_skills", True):
            value = _with_sheet(value, self.sheet)
        return Result(value, self.losses, self.trace, self.sheet)


def _with_sheet(combatant: Any, sheet: dict[str, Any]) -> Any:
    """A neutral NPC with what System.skills_to_neutral saw of its stat block's skills
    (core.skillplan): their names (``sheet_skills``), and a narrow skill kept beside a better
    twin (CoC Sneak 30 beside Hide 35) in its system's carried block, where that system's own
    stat blocks take it back verbatim."""
    from .model import Combatant

    if type(combatant) is not Combatant:
        return combatant
    fields: dict[str, Any] = {}
    if sheet.get("skills"):
        fields["sheet_skills"] = dict(sheet["skills"])
    if sheet.get("carry"):
        ns, carry = sheet["carry"]
        blocks = {k: dict(v) for k, v in combatant.carried.items()}
        block = blocks.setdefault(ns, {})
        block["skills"] = {**carry, **(block.get("skills") or {})}
        fields["carried"] = blocks
    return msgspec.structs.replace(combatant, **fields) if fields else combatant


def report_lines(report: Sequence[Any]) -> list[tuple[str, str, int]]:
    """A loss report as printed, one line per thing said: losses that say the same (kind,
    level, message, rule, system) at several source paths (nWoD Firearms "covers handgun,
    rifle ... the best is kept" at $.skills.Handgun and at $.skills.Rifle) are one line naming
    every path; the report itself (JSON, YAML) keeps one entry per path. Returns (level, the
    line, what it counts for in a summary: 1, or a roster's grouped entry its count); a
    roster's grouped entries pass as they are."""
    rows: list[list[Any]] = []
    index: dict[tuple[str, ...], int] = {}
    for x in report:
        if isinstance(x, Loss):
            key = (x.kind, x.level, x.message, x.rule, x.system)
            if key in index:
                rows[index[key]][1].append(x.path)
                continue
            index[key] = len(rows)
            rows.append([x, [x.path]])
        else:
            rows.append([x, None])
    out: list[tuple[str, str, int]] = []
    for x, paths in rows:
        if paths is None:
            out.append((x.level, x.render(), getattr(x, "count", 1)))
        else:
            shown = x if len(paths) == 1 else msgspec.structs.replace(x, path=", ".join(paths))
            out.append((x.level, shown.render(), 1))
    return out


def and_list(words: Sequence[str]) -> str:
    """Words as a reader lists them: ``a``, ``a and b``, ``a, b and c``."""
    words = list(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def fraction_text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"
