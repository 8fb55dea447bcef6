"""Ladders: the one mechanism for step tables.

A ladder is an ordered list of steps over one neutral axis (metres, lux, m/s, joules,
probability ...). Each step holds the native value a system gives that part of the axis,
the rule ID it comes from and whether the value is from the seed text or assumed.

- neutral -> native (:meth:`Ladder.step_for`): which step a magnitude falls in, with the
  table's own rounding: ``up`` ("round up to the next row": the first row whose value is
  >= x), ``down`` (the last row whose value is <= x), or ``nearest`` (midpoints, linear or
  geometric for log axes such as illuminance).
- native -> neutral (:meth:`Ladder.neutral`): a representative magnitude inside the step,
  chosen so that neutral(native) maps back to the same native (checked at build time): by
  default the middle of the step (geometric on a log axis), so that trips through other
  systems' tables are not biased towards one end; ``represent = "row"`` uses each row's
  own value instead (tables whose rows are real items or shared presets), and a row may
  give its own ``rep``.

Lookups compare plain floats with :mod:`bisect`; no pint in the inner loop. A ladder
whose native values are not strictly monotone along the axis refuses to build.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterable, Literal, Mapping, Sequence

import msgspec

from .errors import XsysError

TAIL_SHARE = Fraction(1, 10**6)  # the population beyond each end of what ordinary adults roll (core.system.with_tails)

Source = Literal["seed", "assumed"]
Rounding = Literal["up", "down", "nearest"]
SOURCES = ("seed", "assumed")


class LadderError(XsysError):
    """A table that cannot be a ladder (not monotone, a bad row, a duplicate native)."""


class Step(msgspec.Struct, frozen=True):
    native: Any
    at: float
    rule: str
    source: Source
    label: str = ""
    rep: float = math.nan  # representative neutral value; filled at build time

    def as_dict(self) -> dict[str, Any]:
        return {"native": self.native, "at": self.at, "rule": self.rule, "source": self.source,
                "label": self.label, "rep": self.rep}


# Axis units a ladder can carry, with the quantity type that parses rows written with units.
def _axis_type(unit: str):
    from . import units

    return {
        "m": units.Length, "m/s": units.Speed, "s": units.Duration, "lx": units.Illuminance,
        "kg": units.Mass, "J": units.Energy,
    }.get(unit)


class Ladder(msgspec.Struct, frozen=True):
    """An ordered step table over one neutral axis."""

    name: str
    axis: str  # canonical unit ("m", "lx", "m/s", "J", "s", "kg") or "probability"/"percentile"/a plain name
    steps: tuple[Step, ...]
    rounding: Rounding = "down"
    scale: Literal["linear", "log"] = "linear"
    native_order: Literal["increasing", "decreasing", "none"] = "increasing"
    # What to do outside the table: "clamp" to the end row, or "error".
    above: Literal["clamp", "error"] = "clamp"
    below: Literal["clamp", "error"] = "clamp"
    represent: Literal["middle", "row"] = "middle"
    _ats: tuple[float, ...] = ()
    _edges: tuple[float, ...] = ()
    _by_native: Mapping[Any, Step] = msgspec.field(default_factory=dict)

    def __hash__(self) -> int:  # by what the table says: its look-up fields follow from its steps
        return hash((self.name, self.axis, self.steps, self.rounding, self.scale, self.native_order, self.above,
                     self.below, self.represent))

    # ---- construction -------------------------------------------------------------
    @classmethod
    def build(
        cls,
        name: str,
        axis: str,
        rows: Iterable[Step | tuple | Mapping[str, Any]],
        *,
        rounding: Rounding = "down",
        scale: Literal["linear", "log"] = "linear",
        native_order: Literal["increasing", "decreasing", "none"] = "increasing",
        rule: str | None = None,
        source: Source | None = None,
        above: Literal["clamp", "error"] = "clamp",
        below: Literal["clamp", "error"] = "clamp",
        represent: Literal["middle", "row"] = "middle",
    ) -> "Ladder":
        rows = list(rows)
        options = (rounding, scale, native_order, rule, source, above, below, represent)
        key = None
        first = (name, axis, len(rows))
        if type(name) is str and type(axis) is str and first in _FIRST:
            # another ladder of this name and size was built: now the full keys are worth it
            earlier = _FIRST[first]
            if earlier is not None:
                _FIRST[first] = None
                e_rows, e_options, e_lad = earlier
                e_key = _memo_key(name, axis, e_rows, e_options)
                if e_key is not None and len(_BUILT) < 4096:
                    _BUILT.setdefault(e_key, e_lad)
            key = _memo_key(name, axis, rows, options)
            if key is not None:
                built = _BUILT.get(key)
                if built is not None and type(built) is cls:
                    return built
        lad = cls._build(name, axis, rows, rounding=rounding, scale=scale, native_order=native_order, rule=rule,
                         source=source, above=above, below=below, represent=represent)
        if key is not None and len(_BUILT) < 4096:
            _BUILT[key] = lad
        elif type(name) is str and type(axis) is str and first not in _FIRST and len(_FIRST) < 4096:
            # the rows as they are now (a caller may change its own dicts afterwards)
            _FIRST[first] = ([dict(r) if type(r) is dict else r for r in rows], options, lad)
        return lad

    @classmethod
    def _build(cls, name: str, axis: str, rows: list[Any], *, rounding: Rounding, scale: Literal["linear", "log"],
               native_order: Literal["increasing", "decreasing", "none"], rule: str | None, source: Source | None,
               above: Literal["clamp", "error"], below: Literal["clamp", "error"],
               represent: Literal["middle", "row"]) -> "Ladder":
        steps = [_coerce_step(name, axis, r, rule, source) for r in rows]
        if not steps:
            raise LadderError(f"ladder {name!r} has no rows")
        ats = [s.at for s in steps]
        for i in range(1, len(ats)):
            if not ats[i] > ats[i - 1]:
                raise LadderError(
                    f"ladder {name!r}: axis values must strictly increase",
                    path=f"rows[{i}]", expected=f"> {ats[i - 1]}", found=str(ats[i]),
                )
        _check_native_order(name, steps, native_order)
        edges = _edges_for(ats, rounding, scale)
        # Representatives: the middle of each step (geometric on a log axis), unless the row
        # gives one; a step's lower edge would bias every trip through another system's
        # table downwards, one row at a time. Checked below to lie inside the step.
        final: list[Step] = []
        for i, s in enumerate(steps):
            if not math.isnan(s.rep):
                rep = s.rep
            elif represent == "row":
                rep = s.at
            else:
                rep = _middle(ats, i, rounding, scale)
            final.append(Step(s.native, s.at, s.rule, s.source, s.label, rep))
        by_native: dict[Any, Step] = {}
        for s in final:
            key = _native_key(s.native)
            if key in by_native:
                raise LadderError(f"ladder {name!r}: native value {s.native!r} appears twice")
            by_native[key] = s
        if represent not in ("middle", "row"):
            raise LadderError(f"ladder {name!r}: represent must be 'middle' or 'row'", found=repr(represent))
        lad = cls(name, axis, tuple(final), rounding, scale, native_order, above, below, represent,
                  tuple(ats), tuple(edges), by_native)
        for i, s in enumerate(final):
            if lad.index_for(s.rep) != i:
                raise LadderError(
                    f"ladder {name!r}: representative of row {i} lies outside its step",
                    path=f"rows[{i}].rep", found=str(s.rep),
                )
        return lad

    @classmethod
    def from_table(cls, name: str, table: Mapping[str, Any]) -> "Ladder":
        """Build from a TOML table: ``axis``, ``rounding``, ``scale``, ``native_order``,
        ``rule``, ``source``, ``above``, ``below`` and ``rows`` (each ``at``, ``native``
        and optionally ``rule``, ``source``, ``label``, ``rep``; ``at``/``rep`` may carry
        units, e.g. ``"30 m"``)."""
        known = {"axis", "rounding", "scale", "native_order", "rule", "source", "above", "below", "rows", "note",
                 "represent"}
        unknown = set(table) - known
        if unknown:
            raise LadderError(f"ladder {name!r}: unknown keys {sorted(unknown)}")
        try:
            return cls.build(
                name, table["axis"], table["rows"],
                rounding=table.get("rounding", "down"), scale=table.get("scale", "linear"),
                native_order=table.get("native_order", "increasing"), rule=table.get("rule"),
                source=table.get("source"), above=table.get("above", "clamp"),
                below=table.get("below", "clamp"), represent=table.get("represent", "middle"),
            )
        except KeyError as exc:
            raise LadderError(f"ladder {name!r}: missing key {exc.args[0]!r}") from None

    # ---- neutral -> native ----------------------------------------------------------
    def index_for(self, x: float) -> int:
        x = float(x)
        if math.isnan(x):
            raise LadderError(f"ladder {self.name!r}: NaN is not on the axis")
        ats = self._ats
        if self.rounding == "up":
            i = bisect_left(ats, x)
            if i == len(ats):
                if self.above == "error":
                    raise LadderError(f"{self.name}: {x:g} {self.axis} is beyond the table",
                                      expected=f"<= {ats[-1]:g} {self.axis}", found=f"{x:g} {self.axis}")
                i = len(ats) - 1
            return i
        if self.rounding == "down":
            i = bisect_right(ats, x) - 1
            if i < 0:
                if self.below == "error":
                    raise LadderError(f"{self.name}: {x:g} {self.axis} is below the table",
                                      expected=f">= {ats[0]:g} {self.axis}", found=f"{x:g} {self.axis}")
                i = 0
            return i
        return bisect_left(self._edges, x)

    def step_for(self, x: float) -> Step:
        return self.steps[self.index_for(x)]

    def native(self, x: float) -> Any:
        return self.steps[self.index_for(x)].native

    # ---- native -> neutral ----------------------------------------------------------
    def step_of(self, native: Any) -> Step:
        try:
            return self._by_native[_native_key(native)]
        except KeyError:
            raise LadderError(
                f"{self.name}: no row for native value {native!r}",
                expected="one of " + ", ".join(repr(s.native) for s in self.steps[:12])
                + (" ..." if len(self.steps) > 12 else ""),
                found=repr(native),
            ) from None

    def neutral(self, native: Any) -> float:
        return self.step_of(native).rep

    def step_labelled(self, label: str) -> Step:
        """The row a native word names (a light word, a cover word: the row's label)."""
        for s in self.steps:
            if s.label == label:
                return s
        raise LadderError(f"{self.name}: no row {label!r}",
                          expected="one of " + ", ".join(repr(s.label) for s in self.steps), found=repr(label))

    def has_native(self, native: Any) -> bool:
        return _native_key(native) in self._by_native

    # ---- helpers --------------------------------------------------------------------
    @property
    def natives(self) -> list[Any]:
        return [s.native for s in self.steps]

    def nearest_native(self, native: float) -> Any:
        """The table's native value closest to a number not in the table (ties: lower)."""
        return min(self.natives, key=lambda n: (abs(n - native), n))

    def rules(self) -> set[str]:
        return {s.rule for s in self.steps}

    def __len__(self) -> int:
        return len(self.steps)


def _native_key(native: Any) -> Any:
    if isinstance(native, float) and native.is_integer():
        return int(native)
    if isinstance(native, list):
        return tuple(native)
    return native


# Ladders built in this process, by what they were built from: a table that two systems
# share (coc and coc-zh armor) or that a system asks for again is built and checked once. A
# ladder is immutable, so one object serves every asker. Only rows of plain values (numbers,
# strings, booleans, None; as tables, tuples or Steps) are remembered, keyed by their types
# and values (so 1, 1.0 and True stay apart).
#
# Computing that key costs more than building most ladders, and a cold start builds each of
# its ladders once: the key is only computed from the second ladder of the same name and
# number of rows on (for it and for the first, whose rows are kept until then).
_BUILT: dict[tuple, "Ladder"] = {}
_FIRST: dict[tuple[str, str, int], tuple[list[Any], tuple, "Ladder"] | None] = {}
_PLAIN = (str, int, float, bool, type(None))


def _plain_key(value: Any) -> Any:
    t = type(value)
    if t in _PLAIN:
        return (t.__name__, value)
    if t is tuple or t is list:
        parts = tuple(_plain_key(v) for v in value)
        return None if None in parts else (t.__name__, parts)
    return None


def _memo_key(name: str, axis: str, rows: list[Any], options: tuple) -> tuple | None:
    out = []
    for row in rows:
        if isinstance(row, Step):
            items: Any = tuple((f, getattr(row, f)) for f in ("native", "at", "rule", "source", "label", "rep"))
        elif type(row) is dict:
            items = tuple(row.items())
        elif type(row) is tuple:
            items = row
        else:
            return None
        key = _plain_key(tuple(items) if type(items) is not tuple else items)
        if key is None:
            return None
        out.append((type(row).__name__, key))
    opts = _plain_key(options)
    if opts is None or type(name) is not str or type(axis) is not str:
        return None
    return (name, axis, tuple(out), opts)


def clear_built() -> None:
    """Forget the ladders built so far (tests)."""
    _BUILT.clear()
    _FIRST.clear()


def _coerce_step(name: str, axis: str, row: Any, rule: str | None, source: Source | None) -> Step:
    if isinstance(row, Step):
        step = row
    elif isinstance(row, tuple):
        native, at = row[0], row[1]
        step = Step(native, _axis_value(name, axis, at), row[2] if len(row) > 2 else rule or "",
                    row[3] if len(row) > 3 else source or "seed",  # type: ignore[arg-type]
                    row[4] if len(row) > 4 else "")
    elif isinstance(row, Mapping):
        extra = set(row) - {"at", "native", "rule", "source", "label", "rep", "note"}
        if extra:
            raise LadderError(f"ladder {name!r}: unknown row keys {sorted(extra)}")
        try:
            native, at = row["native"], row["at"]
        except KeyError as exc:
            raise LadderError(f"ladder {name!r}: a row lacks {exc.args[0]!r}") from None
        rep = row.get("rep")
        step = Step(native, _axis_value(name, axis, at), row.get("rule", rule or ""),
                    row.get("source", source or "seed"), row.get("label", ""),
                    math.nan if rep is None else _axis_value(name, axis, rep))
    else:
        raise LadderError(f"ladder {name!r}: a row must be a table or tuple, found {row!r}")
    if not step.rule:
        raise LadderError(f"ladder {name!r}: every row needs a rule ID", found=repr(row))
    if step.source not in SOURCES:
        raise LadderError(f"ladder {name!r}: source must be seed or assumed", found=repr(step.source))
    if math.isnan(step.at):
        raise LadderError(f"ladder {name!r}: NaN axis value")
    return step


def _axis_value(name: str, axis: str, value: Any) -> float:
    if isinstance(value, bool):
        raise LadderError(f"ladder {name!r}: axis value must be a number", found=repr(value))
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        if value.strip().lower() in ("inf", "+inf", "infinity"):
            return math.inf
        qtype = _axis_type(axis)
        if qtype is None:
            try:
                return float(value)
            except ValueError:
                raise LadderError(f"ladder {name!r}: {value!r} is not a number on axis {axis}") from None
        from .units import parse

        try:
            return float(parse(value, qtype))
        except XsysError as exc:
            raise LadderError(f"ladder {name!r}: {exc.message}", expected=exc.expected, found=exc.found) from None
    raise LadderError(f"ladder {name!r}: bad axis value {value!r}")


def _check_native_order(name: str, steps: Sequence[Step], order: str) -> None:
    if order == "none":
        return
    for i in range(1, len(steps)):
        a, b = steps[i - 1].native, steps[i].native
        try:
            ok = b > a if order == "increasing" else b < a
        except TypeError:
            raise LadderError(f"ladder {name!r}: native values {a!r} and {b!r} cannot be ordered") from None
        if not ok:
            raise LadderError(
                f"ladder {name!r} is not monotone: native values must be strictly {order} along the axis",
                path=f"rows[{i}]", expected=f"{'>' if order == 'increasing' else '<'} {a!r}", found=repr(b),
            )


def _mid(a: float, b: float, scale: str) -> float:
    if scale == "log" and a > 0 and b > 0:
        return math.sqrt(a * b)
    if scale == "log" and a <= 0 < b:
        return b / 10.0  # between nothing and the first lit row: a decade below it
    return (a + b) / 2.0


def _middle(ats: Sequence[float], i: int, rounding: str, scale: str) -> float:
    """A representative inside step i: the row's own value for points (`nearest`), else
    the middle of the step's interval; an open end step takes its row's value."""
    n = len(ats)
    if rounding == "nearest" or n == 1:
        return ats[i]
    if rounding == "down":  # step i is [ats[i], ats[i+1])
        if i + 1 < n and math.isfinite(ats[i + 1]) and math.isfinite(ats[i]):
            return _mid(ats[i], ats[i + 1], scale)
        return ats[i]
    # up: step i is (ats[i-1], ats[i]]
    if i > 0 and math.isfinite(ats[i]) and math.isfinite(ats[i - 1]):
        return _mid(ats[i - 1], ats[i], scale)
    return ats[i]


def _edges_for(ats: Sequence[float], rounding: str, scale: str) -> list[float]:
    if rounding != "nearest":
        return []
    edges = []
    for a, b in zip(ats, ats[1:]):
        if scale == "log" and a > 0 and math.isfinite(b):
            edges.append(math.sqrt(a * b))
        elif scale == "log" and a <= 0:
            edges.append(b / 10.0)  # between nothing and the first lit row: a decade below it
        elif not math.isfinite(b):
            edges.append(a * 2 if a > 0 else a + 1)
        else:
            edges.append((a + b) / 2.0)
    return edges


def load_ladders(path: str | Path) -> dict[str, Ladder]:
    """Every ``[ladder.NAME]`` table of a TOML file, built (and so checked)."""
    from .cache import load_toml

    p = Path(path)
    return ladders_from_data(load_toml(p), str(p))


def ladders_from_data(data: Mapping[str, Any], where: str = "<data>") -> dict[str, Ladder]:
    out: dict[str, Ladder] = {}
    for name, table in data.get("ladder", {}).items():
        try:
            out[name] = Ladder.from_table(name, table)
        except LadderError as exc:
            raise exc.with_file(where)
    return out


def population_top(ladder: Ladder) -> Any:
    """The highest value ordinary adults have on a characteristic's ladder: its last before the
    creatures' tail (TAIL_SHARE; CoC's STR 18, 7th edition's 92, the band of its 90), else its last."""
    known = _TOPS.get(id(ladder))
    if known is not None and known[0] is ladder:  # (asked for every characteristic of every NPC)
        return known[1]
    plain = [st.native for st in ladder.steps if float(st.rep) < 1 - float(TAIL_SHARE)]
    top = plain[-1] if plain else ladder.steps[-1].native
    if len(_TOPS) > 4096:
        _TOPS.clear()
    _TOPS[id(ladder)] = (ladder, top)
    return top


_TOPS: dict[int, tuple[Ladder, Any]] = {}  # a ladder's id -> (the ladder, its population top)
