"""What a system states for ``xsys rules``: its formulas and what it knows about its rules.

A *formula* is a rule that computes something from values a user gives on the command line
(``xsys rules coc coc-ja.conceal --length 21cm``). A system states its formulas through
:meth:`xsys.core.system.System.formulas` (a sequence of :class:`Formula`) and, beyond what its
ladders and README already say, its rules' titles, texts and table rows through
:meth:`xsys.core.system.System.rule_notes` (rule ID -> :class:`RuleNote`). The command
(``conversions/rules_cmd.py``) asks every installed system alike; a third-party system states
them the same way a built-in one does.

Building formulas::

    from xsys.core.formulas import Formulas, option, param

    FORMULAS = Formulas()

    @FORMULAS.formula("coc7.bonus-dice", "chance of a d100 roll with bonus or penalty dice",
                      param("skill", help="skill %"), option("bonus", default=0))
    def _(system, values):
        return {"chance": ...}

``run(system, values)`` gets the system instance and the parsed values (every parameter by
name: a missing optional one has its default) and returns ``{name: value}``. Parameters are
given as ``--name value`` or ``--name=value``; quantities are read with :mod:`xsys.core.units`
(``21cm``, ``12 kg``), counts as whole numbers. A wrong, unknown or missing parameter is one
:class:`FormulaError` (one line, exit 2), as is any error a formula raises with
:func:`formula_error`.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Mapping, Sequence

import msgspec

from .errors import XsysError

#: the default of a parameter that must be given
REQUIRED: Any = object()

#: the value kinds a parameter may have; the quantities are read with xsys.core.units
KINDS = ("int", "ints", "text", "choice", "flag", "length", "mass", "energy", "speed", "lux")


class FormulaError(XsysError):
    """A user error of a formula: rendered ``rules <id>: --name: expected ..., found ...``."""


def formula_error(rule: str, where: str | None, text: str) -> FormulaError:
    """The error of formula `rule` at parameter `where` (``"--length"``; None: the formula)."""
    path = f"rules {rule}" + (f": {where}" if where else "")
    return FormulaError(text, path=path)


def _quantity(kind: str):
    from . import units

    return {"length": (units.Length, "a length", "21 cm"), "mass": (units.Mass, "a mass", "12 kg"),
            "energy": (units.Energy, "an energy", "540 J"), "speed": (units.Speed, "a speed", "1.4 m/s"),
            "lux": (units.Illuminance, "an illuminance", "0.2 lx")}[kind]


class Param(msgspec.Struct, frozen=True):
    """One ``--name value`` of a formula. kind: one of :data:`KINDS` (``ints``: comma-separated
    whole numbers; ``choice``: one of ``choices()``; ``flag``: given or not, or ``=true/false``)."""

    name: str
    kind: str
    help: str = ""
    default: Any = REQUIRED
    choices: Callable[[], Sequence[str]] | None = None
    # a quantity is a size (a length, a mass ...) and never negative, unless this says it is
    # an offset (gurps.height's elevation: the shooter below the target is negative)
    signed: bool = False

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def usage(self) -> str:
        if self.kind == "flag":
            return f"[--{self.name}]"
        what = {"int": "N", "ints": "N,N...", "text": "TEXT", "choice": "CHOICE"}.get(self.kind, self.kind.upper())
        s = f"--{self.name} {what}"
        return s if self.required else f"[{s}]"

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "required": self.required, "help": self.help}
        if not self.required and self.default is not None:
            out["default"] = self.default
        if self.choices is not None:
            out["choices"] = list(self.choices())
        return out

    def parse(self, rule: str, text: str) -> Any:
        where = f"--{self.name}"
        if self.kind == "int":
            try:
                return int(text.strip())
            except ValueError:
                raise formula_error(rule, where, f"expected a whole number (e.g. '15'), found {text!r}") from None
        if self.kind == "ints":
            try:
                return [int(x) for x in text.split(",") if x.strip()]
            except ValueError:
                raise formula_error(rule, where, f"expected whole numbers separated by commas (e.g. '10,5'), "
                                                 f"found {text!r}") from None
        if self.kind == "text":
            return text
        if self.kind == "choice":
            options = list(self.choices()) if self.choices else []
            if text not in options:
                raise formula_error(rule, where, f"expected one of {', '.join(map(repr, options))}, found {text!r}")
            return text
        qtype, what, example = _quantity(self.kind)
        from . import units

        try:
            value = units.parse(text, qtype)
        except XsysError:
            raise formula_error(rule, where, f"expected {what} (e.g. '{example}'), found {text!r}") from None
        if value < 0 and not self.signed:
            raise formula_error(rule, where, f"must not be negative (expected {what} of 0 or more, found {text!r})")
        return value


def param(name: str, kind: str = "int", help: str = "", default: Any = REQUIRED,
          choices: Callable[[], Sequence[str]] | None = None, signed: bool = False) -> Param:
    """A parameter; required unless a `default` is given."""
    return Param(name, kind, help, default, choices, signed)


def option(name: str, kind: str = "int", help: str = "", default: Any = None,
           choices: Callable[[], Sequence[str]] | None = None) -> Param:
    """An optional parameter (default None: the formula tells "not given" apart)."""
    return Param(name, kind, help, default, choices)


class Formula(msgspec.Struct, frozen=True):
    """A rule that computes something: ``run(system, values) -> {name: value}``.

    ``covers``: for a formula ID that is no rule ID of its own, the rule IDs it evaluates
    together (its source and tables are theirs in the listing)."""

    rule: str
    summary: str
    params: tuple[Param, ...]
    run: Callable[[Any, dict[str, Any]], Mapping[str, Any]]
    covers: tuple[str, ...] = ()

    def usage(self) -> str:
        return " ".join([self.rule] + [p.usage() for p in self.params])

    def parse_args(self, args: Sequence[str]) -> dict[str, Any]:
        """``--name value`` / ``--name=value`` / ``--flag`` -> {name: value}, every parameter
        present (a missing optional one as its default); a bad one is a FormulaError."""
        by_name = {p.name: p for p in self.params}
        values: dict[str, Any] = {}
        i = 0
        while i < len(args):
            tok = args[i]
            i += 1
            if not tok.startswith("--") or tok == "--":
                raise formula_error(self.rule, None, f"unexpected argument {tok!r} (expected --NAME VALUE: "
                                                     f"{self.usage()})")
            name, eq, value = tok[2:].partition("=")
            p = by_name.get(name) or by_name.get(name.replace("_", "-"))
            if p is None:
                known = ", ".join(f"--{n}" for n in by_name) or "none"
                raise formula_error(self.rule, f"--{name}", f"unknown parameter (expected one of {known})")
            if p.name in values:
                raise formula_error(self.rule, f"--{p.name}", "given twice")
            if p.kind == "flag":
                if eq:
                    if value.lower() not in ("true", "false", "yes", "no", "1", "0"):
                        raise formula_error(self.rule, f"--{p.name}", f"expected true or false, found {value!r}")
                    values[p.name] = value.lower() in ("true", "yes", "1")
                else:
                    values[p.name] = True
                continue
            if not eq:
                if i >= len(args):
                    raise formula_error(self.rule, f"--{p.name}", "expected a value after it, found nothing")
                value = args[i]
                i += 1
            values[p.name] = p.parse(self.rule, value)
        missing = [p for p in self.params if p.required and p.name not in values]
        if missing:
            raise formula_error(self.rule, f"--{missing[0].name}",
                                f"missing ({missing[0].help or missing[0].kind}; usage: {self.usage()})")
        for p in self.params:
            if p.name not in values:
                values[p.name] = False if p.kind == "flag" and p.default is REQUIRED else p.default
        return values

    def describe(self) -> dict[str, Any]:
        return {"summary": self.summary, "usage": self.usage(), "parameters": [p.describe() for p in self.params]}


class Formulas:
    """An ordered list of formulas a plugin builds at import (``@FORMULAS.formula(...)``) and
    its system returns from ``formulas()``."""

    def __init__(self, items: Sequence[Formula] = ()) -> None:
        self._items: list[Formula] = list(items)

    def formula(self, rule: str, summary: str, *params: Param, covers: Sequence[str] = ()):
        """A decorator: the function ``run(system, values)`` is the formula of `rule`."""
        def deco(fn: Callable[[Any, dict[str, Any]], Mapping[str, Any]]):
            self.add(Formula(rule, summary, tuple(params), fn, tuple(covers)))
            return fn

        return deco

    def add(self, f: Formula) -> Formula:
        self._items.append(f)
        return f

    def alias(self, rule: str, of: str) -> Formula:
        """`rule` is evaluated by the formula of `of` (one function serving several rule IDs)."""
        f = self.get(of)
        if f is None:
            raise KeyError(of)
        return self.add(Formula(rule, f.summary, f.params, f.run))

    def get(self, rule: str) -> Formula | None:
        return next((f for f in self._items if f.rule == rule), None)

    def __iter__(self) -> Iterator[Formula]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)


class RuleNote(msgspec.Struct, frozen=True):
    """What a system's data says about one of its rules, beyond its ladders and its README:
    ``title`` (a few words), ``text`` (its description), ``source`` (``seed`` / ``assumed`` /
    ""), ``tables`` (where it lives, e.g. ``tables.toml [rule]``) and ``rows`` (its table rows,
    each a mapping of column -> value, shown by ``xsys rules SYSTEM RULE-ID``)."""

    title: str = ""
    text: str = ""
    source: str = ""
    tables: tuple[str, ...] = ()
    rows: tuple[Mapping[str, Any], ...] = ()
