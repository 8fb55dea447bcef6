"""Plain-text reports for the terminal (stable, no colour codes, so they read the same
in a pipe, a file or CI)."""

from __future__ import annotations

import json
from typing import Any, Iterable, Iterator

from xsys.core.trace import printable
from xsys.core.units import brief


# An exact chance is shown as its fraction while that reads at a glance (1/54, 83193/100000); a
# fraction of a long dice chain (nWoD through glass: a 200-digit numerator) is left to --json.
EXACT_DIGITS = 12


def _exact(p: Any) -> str:
    if len(str(p.denominator)) <= EXACT_DIGITS:
        return f"{p.numerator}/{p.denominator}"
    return "exact fraction: --json"


def odds_text(all_results: list[tuple[str, Any, list[Any]]]) -> str:
    out: list[str] = []
    for name, shot, results in all_results:
        out.append(printable(f"== {name}: {shot.weapon.name}, {brief(shot.distance)}, {shot.light.illuminance}, "
                             f"exposure {shot.target.cover.exposure:g}, skill {shot.shooter.skill:.2f}"))
        width = max((len(r.system) for r in results), default=10)
        for r in results:
            c = r.check
            dmg = f"  mean damage {c.damage_mean:.2f}" if c.damage_mean is not None else ""
            own = "  (native check)" if getattr(r, "native", False) else ""
            out.append(printable(f"  {r.system:<{width}}  {float(c.chance) * 100:6.2f}%  ({_exact(c.chance)})  "
                                 f"{c.native or c.needs}{dmg}{own}"))
            for m in c.modifiers:
                out.append(f"  {'':<{width}}    {m.render()}")
            for loss in getattr(r, "losses", ()):  # what of the native shot did not reach this check
                out.append(f"  {'':<{width}}    not carried over: {loss.render()}")
        out.append("")
    return "\n".join(out)


# ---- many shots, one at a time ----------------------------------------------------------
#
# `xsys odds` over a scenario of many shots writes its report shot by shot: each shot's
# checks (exact fractions, damage distributions, modifiers) are computed, written and
# dropped before the next, so memory stays that of one shot (plus the input), not of the
# whole report (a 60,000-shot scenario needed 4.3 GB when the report was built whole).


def odds_text_chunks(all_results: Iterable[tuple[str, Any, list[Any]]]) -> Iterator[str]:
    """:func:`odds_text` piece by piece (their concatenation is its text)."""
    first = True
    for item in all_results:
        text = odds_text([item])
        yield text if first else "\n" + text
        first = False
    if first:
        yield ""


def odds_json_chunks(all_results: Iterable[tuple[str, Any, list[Any]]], single: bool,
                     failures: list[Any] | None = None, extra: dict[str, Any] | None = None) -> Iterator[str]:
    """The JSON of ``xsys odds --json`` piece by piece: the very text of
    ``json.dumps(payload, indent=2, ensure_ascii=False)`` for ``{"shot", "results"}`` (one
    shot, ``single``; ``extra`` keys after ``"shot"``: how an inline shot's native skill was
    equated) or ``{"shots": [...]}``, with ``"errors"`` (one line per failing system, from
    ``failures`` as it stands once every shot is done) when there are any."""
    if single:
        payload: dict[str, Any] = {}
        for name, _, results in all_results:
            payload = {"shot": name, **(extra or {}), "results": [r.as_json() for r in results]}
        errors = _error_lines(failures)
        if errors:
            payload["errors"] = errors
        yield json.dumps(payload, indent=2, ensure_ascii=False)
        return
    yield '{\n  "shots": ['
    count = 0
    for name, _, results in all_results:
        item = {"shot": name, "results": [r.as_json() for r in results]}
        yield ("\n" if count == 0 else ",\n") + "    " + _indented(json.dumps(item, indent=2, ensure_ascii=False), 4)
        count += 1
    yield "\n  ]" if count else "]"
    errors = _error_lines(failures)
    if errors:
        yield ',\n  "errors": ' + _indented(json.dumps(errors, indent=2, ensure_ascii=False), 2)
    yield "\n}"


def _error_lines(failures: list[Any] | None) -> list[str]:
    return list({f.line(): None for f in failures or []})  # one line per failing system, in order


def _indented(text: str, by: int) -> str:
    """A JSON text nested `by` spaces deeper (its first line stays where it is)."""
    return text.replace("\n", "\n" + " " * by)
