"""The arithmetic of the CoC7 system's formulas, without eval().

The CoC7 system lets a keeper write a number as a formula over the actor's own values: a
skill's base (``@EDU`` for Language (Own), ``1/2*@DEX`` for Dodge), an NPC's skill value
(``@DEX*2``), a thrown weapon's range (``@STR/5``), a characteristic's roll formula
(``(3D6)*5``). The system rolls them with Foundry's dice parser and keeps ``Math.floor`` of
the total. This module reads the same small language: numbers, ``+ - * /``, parentheses,
``@KEY`` references (characteristics ``@STR`` ... ``@EDU`` and the attribs ``@HP``, ``@MP``,
``@SAN``, ``@LCK``, ...; any case, as the system matches them) and, only where the caller asks
for it, dice ``NdM`` read as the sheet's own "average characteristics" does (CoC7AverageRoll:
``floor(N * (M + 1) / 2)``). Anything else is a FormulaError naming what stopped it.
"""

from __future__ import annotations

import math
import re
from typing import Mapping

_TOKEN = re.compile(r"\s*(?:(?P<dice>\d*[dD]\d+)|(?P<num>\d+(?:\.\d+)?|\.\d+)"
                    r"|(?P<ref>@[A-Za-z_]\w*(?:\.[\w-]+)*)|(?P<op>[-+*/()]))")


class FormulaError(ValueError):
    """A formula this reader cannot evaluate (the message says why)."""


def _tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise FormulaError(f"cannot read {text[pos:].strip()[:20]!r}")
        kind = m.lastgroup or "op"
        out.append((kind, m.group(kind)))
        pos = m.end()
    return out


def evaluate(text: str, values: Mapping[str, float | int | None], dice: bool = False) -> int:
    """``Math.floor`` of the formula `text` with ``@KEY`` looked up in `values` (keys lower case).
    `dice`: read ``NdM`` as its average (the CoC7 sheet's average roll); else a die is an error
    (a formula that would be rolled has no one value)."""
    if not isinstance(text, str) or not text.strip():
        raise FormulaError("empty formula")
    tokens = _tokens(text)
    pos = 0

    def peek() -> tuple[str, str] | None:
        return tokens[pos] if pos < len(tokens) else None

    def take() -> tuple[str, str]:
        nonlocal pos
        if pos >= len(tokens):
            raise FormulaError("formula ends too soon")
        pos += 1
        return tokens[pos - 1]

    def expr() -> float:
        value = term()
        while (t := peek()) in (("op", "+"), ("op", "-")):
            take()
            value = value + term() if t[1] == "+" else value - term()
        return value

    def term() -> float:
        value = unary()
        while (t := peek()) in (("op", "*"), ("op", "/")):
            take()
            right = unary()
            if t[1] == "*":
                value *= right
            elif right == 0:
                raise FormulaError("division by zero")
            else:
                value /= right
        return value

    def unary() -> float:
        t = peek()
        if t in (("op", "-"), ("op", "+")):
            take()
            inner = unary()
            return -inner if t[1] == "-" else inner
        return atom()

    def atom() -> float:
        kind, tok = take()
        if kind == "num":
            return float(tok)
        if kind == "dice":
            if not dice:
                raise FormulaError(f"a die roll ({tok}) has no single value")
            count, faces = tok.lower().split("d")
            return math.floor((int(faces) + 1) / 2 * (int(count) if count else 1))
        if kind == "ref":
            key = tok[1:].lower()
            value = values.get(key)
            if value is None or isinstance(value, bool):
                raise FormulaError(f"{tok} has no value on this actor")
            return float(value)
        if tok == "(":
            value = expr()
            if take() != ("op", ")"):
                raise FormulaError("unbalanced parentheses")
            return value
        raise FormulaError(f"unexpected {tok!r}")

    result = expr()
    if pos != len(tokens):
        raise FormulaError(f"unexpected {tokens[pos][1]!r}")
    if not math.isfinite(result):
        raise FormulaError("not a finite number")
    return math.floor(result)
