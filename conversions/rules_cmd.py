"""``xsys rules [SYSTEM] [RULE-ID] [--NAME VALUE ...]``: every rule ID of every installed
system with its title, source (seed / assumed) and the table it lives in, and the rules
that are formulas evaluated from the command line.

Where the information comes from (all of it installed with the plugins, nothing read from
the shared rule digests at run time), asked of every system alike:

* ``System.rule_ids()``: which IDs exist;
* ``System.rule_notes()``: what the plugin's own data says of a rule (a rule register, a
  table of maneuvers or actions: :class:`xsys.core.formulas.RuleNote`);
* the ladders (``System.ladders()``): steps carry their rule ID and source;
* the plugin's README.md rule tables (``| `id` | text |`` rows and ``- `id` — text``
  bullets), for IDs nothing else describes;
* ``System.formulas()``: the rules that compute something (:class:`xsys.core.formulas.Formula`).

What is known of each rule is gathered in conversions/rules_info.py; this module runs the
command and writes what a reader sees.

Parameters are given after the rule ID as ``--name value`` (or ``--name=value``) and read by
the formula (:mod:`xsys.core.formulas`); a wrong, unknown or missing parameter is one error
line (exit 2).
"""

from __future__ import annotations

import re
import sys
from fractions import Fraction
from typing import Any, Mapping, Sequence

from xsys.core.errors import XsysError
from xsys.core.formulas import FormulaError, formula_error

from .rules_info import _formulas, _registry, formula_for, formula_ids, rule_infos  # noqa: F401 (rule_infos: public)

# the error of a formula or of the command: ``rules <id>: --name: expected ..., found ...``
RulesError = FormulaError
_error = formula_error


def __getattr__(name: str) -> Any:
    """``FORMULAS`` and ``COVERS`` of the installed systems (conversions/rules_info.py)."""
    from . import rules_info

    return getattr(rules_info, name)


# ---- JSON-able values and text -------------------------------------------------------------

def plain(x: Any) -> Any:
    if isinstance(x, bool) or x is None or isinstance(x, (int, str)):
        return x
    if isinstance(x, Fraction):
        return int(x) if x.denominator == 1 else {"exact": f"{x.numerator}/{x.denominator}", "value": float(x)}
    if isinstance(x, float):
        if getattr(x, "unit", None):
            from xsys.core import units

            return units.to_text(x)
        return round(x, 9)
    if isinstance(x, Mapping):
        return {str(k): plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple, set)):
        return [plain(v) for v in x]
    names = _record_fields(x)
    if names is not None:
        return {k: plain(getattr(x, k)) for k in names}
    return str(x)


def _record_fields(x: Any) -> Sequence[str] | None:
    """The field names of a record a formula returns (a msgspec Struct or a dataclass), else None."""
    return getattr(type(x), "__struct_fields__", None) or (list(x.__dataclass_fields__)
                                                           if hasattr(x, "__dataclass_fields__") else None)


def text_value(x: Any, key: str = "") -> str:
    if isinstance(x, Fraction):
        if x.denominator == 1:
            return str(x.numerator)
        pct = "chance" in key or key in ("knockout",)
        approx = f"{float(x) * 100:.4g}%" if pct else f"{float(x):.6g}"
        if x.denominator >= 10**9:  # too long to read: --json keeps it exact
            return f"≈ {approx}"
        return f"{x.numerator}/{x.denominator} (≈ {approx})"
    if isinstance(x, float):
        return plain(x) if getattr(x, "unit", None) else f"{x:g}"
    if isinstance(x, Mapping):
        if x and all(isinstance(k, int) for k in x) and all(isinstance(v, Fraction) for v in x.values()):
            items = list(x.items())
            shown = ", ".join(f"{k}: {float(v):.4g}" for k, v in items[:12])
            return "{" + shown + (", …" if len(items) > 12 else "") + "}"
        return "{" + ", ".join(f"{k}: {text_value(v, str(k))}" for k, v in x.items()) + "}"
    if isinstance(x, (list, tuple)):
        return "[" + ", ".join(text_value(v) for v in x) + "]"
    names = _record_fields(x)
    if names is not None:
        return text_value({k: getattr(x, k) for k in names})
    return str(x)


# ---- the command ---------------------------------------------------------------------------


def listing(keys: Sequence[str] | None = None) -> dict[str, Any]:
    reg = _registry()
    out: dict[str, Any] = {"systems": []}
    for k in (keys if keys else reg.keys()):
        try:
            s = reg.system(k)
            infos = rule_infos(s)
        except XsysError:
            raise
        except Exception as exc:  # a third-party system that cannot list its rules
            if keys:
                raise RulesError(f"system {k!r} cannot list its rules: {type(exc).__name__}: {exc}",
                                 path=f"rules {k}") from None
            out.setdefault("errors", []).append(f"rules {k}: cannot list its rules: {type(exc).__name__}: {exc}")
            continue
        rules = []
        for rid, i in infos.items():
            f = _formulas(s).get(rid)
            rules.append({"id": rid, "title": i.title, "source": i.source, "tables": i.tables,
                          "formula": f.usage() if f else None})
        out["systems"].append({"system": k, "name": getattr(s, "name", k), "rules": rules})
    return out


def describe(system_key: str, rule: str) -> dict[str, Any]:
    s = _registry().system(system_key)
    infos = rule_infos(s)
    f = _formulas(s).get(rule)
    if rule not in infos:
        near = sorted(r for r in infos if r.startswith(rule + ".") or rule.startswith(r + "."))
        hint = f"; related: {', '.join(near[:6])}" if near else ""
        raise RulesError("unknown rule", path=f"rules {system_key}",
                         expected=f"a rule ID of {system_key} ('xsys rules {system_key}' lists them){hint}",
                         found=repr(rule))
    i = infos[rule]
    out: dict[str, Any] = {"system": system_key, "id": rule, "title": i.title, "description": i.text,
                           "source": i.source, "tables": i.tables, "rows": plain(i.rows)}
    if f is not None:
        out["formula"] = _registry().call_for(system_key, f"formula {rule}", f.describe)
    return out


def evaluate(system_key: str, rule: str, args: Sequence[str]) -> dict[str, Any]:
    s = _registry().system(system_key)
    f = _formulas(s).get(rule)
    if f is None:
        if rule not in rule_infos(s):
            describe(system_key, rule)  # raises: unknown rule
        raise _error(rule, None, f"not a formula: it takes no parameters (formulas of {system_key}: "
                                 f"{', '.join(formula_ids(system_key))})")
    reg = _registry()
    values = reg.call_for(system_key, f"formula {rule}", f.parse_args, args)
    try:
        result = reg.call_for(system_key, f"formula {rule}", f.run, s, values)
    except RulesError as exc:  # a formula serving several rule IDs speaks of the one asked for
        if exc.path:
            exc.path = re.sub(r"^rules [^:]+", f"rules {rule}", exc.path)
        raise
    except XsysError:
        raise
    except (ValueError, KeyError, ZeroDivisionError) as exc:
        raise _error(rule, None, f"cannot evaluate: {exc}") from None
    return {"system": system_key, "id": rule, "arguments": plain(values), "result": dict(result)}


def run(system: str | None, rule: str | None, args: Sequence[str], as_json: bool, emit, emit_json,
        systems: Sequence[str] = ()) -> None:
    """The body of ``xsys rules``; `emit` writes a line of text, `emit_json` an object;
    `systems` (``--system``, repeatable) lists only those systems."""
    if system is None:
        if args:
            raise RulesError("unexpected arguments", path="rules", expected="xsys rules [SYSTEM] [RULE-ID] "
                             "[--NAME VALUE ...]", found=" ".join(args))
        data = listing(systems or None)
        if as_json:
            emit_json(data)
            return
        _emit_legend(emit)
        for sysd in data["systems"]:
            _emit_listing(sysd, emit)
        for line in data.get("errors", []):
            sys.stderr.write(f"xsys: error: {line}\n")
        return
    reg = _registry()
    if "." in system and system not in reg.keys():  # a rule ID given without its system
        owners = []
        for k in reg.keys():
            try:
                if system in rule_infos(reg.system(k)):
                    owners.append(k)
            except Exception:
                continue
        if owners:
            raise RulesError("a rule ID where the system goes", path="rules",
                             expected=f"the system first: xsys rules {owners[0]} {system}", found=repr(system))
    reg.entry(system)  # an unknown system: one line, exit 2
    if rule is None:
        if args:
            raise RulesError("unexpected arguments", path=f"rules {system}", expected="a RULE-ID before parameters",
                             found=" ".join(args))
        data = listing([system])
        if as_json:
            emit_json(data["systems"][0])
        else:
            _emit_legend(emit)
            _emit_listing(data["systems"][0], emit)
        return
    desc = describe(system, rule) if rule in rule_infos(_registry().system(system)) else None
    if desc is None and formula_for(system, rule) is None:
        describe(system, rule)  # raises
    f = formula_for(system, rule)
    if args:
        ev = evaluate(system, rule, args)
        if as_json:
            emit_json({**(desc or {"system": system, "id": rule}), "arguments": ev["arguments"],
                       "result": plain(ev["result"])})
            return
        emit(f"{system} {rule}: {desc['title'] if desc else f.summary}")
        for k, v in ev["result"].items():
            emit(f"  {k}: {text_value(v, k)}")
        return
    if desc is None:
        desc = {"system": system, "id": rule, "title": f.summary, "description": f.summary, "source": "",
                "tables": [], "rows": [], "formula": reg.call_for(system, f"formula {rule}", f.describe)}
    if as_json:
        emit_json(desc)
        return
    _emit_description(desc, emit)


# ---- the text a reader sees ---------------------------------------------------------------
#
# The listing is for someone who has never seen the code: rules grouped by system, each title
# whole (wrapped to the terminal, never cut), where each rule comes from in one word, and a
# legend saying what those words mean. One rule's table rows say what each number is and in
# which unit: a ladder row is "the system's value, from this neutral value (with its unit)".

SOURCE_WORD = {"seed": "seed", "assumed": "assumed", "seed/assumed": "mixed", "": "?"}


def _width() -> int:
    import shutil

    return max(60, shutil.get_terminal_size((100, 24)).columns)


def _wrapped(text: str, width: int, first: str, rest: str) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width=width, initial_indent=first, subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=False) or [first.rstrip()]


LEGEND = (
    ("", "Rules of the installed game systems, by system. After each rule ID, where it comes from:"),
    ("seed", "the rule text states it"),
    ("assumed", "the rule text is silent: xsys's own choice, explained in the system's README"),
    ("mixed", "some of its values are stated, some assumed"),
    ("ƒ", "a formula: xsys rules SYSTEM RULE-ID shows its parameters and evaluates it with them"),
    ("", "One rule in full, with its table rows and their units: xsys rules SYSTEM RULE-ID"),
)


def _emit_legend(emit) -> None:
    width = _width()
    for word, text in LEGEND:
        head = f"  {word:<7}  " if word else ""
        for line in _wrapped(text, width, head, " " * len(head)):
            emit(line)
    emit("")


def _emit_listing(sysd: Mapping[str, Any], emit) -> None:
    rules = sysd["rules"]
    counts = {w: sum(1 for r in rules if SOURCE_WORD.get(r["source"], r["source"]) == w)
              for w in ("seed", "assumed", "mixed")}
    formulas = sum(1 for r in rules if r["formula"])
    emit(f"{sysd['system']} — {sysd['name']}: {len(rules)} rules ({counts['seed']} seed, {counts['assumed']} "
         f"assumed, {counts['mixed']} mixed; {formulas} formulas)")
    width = _width()
    id_w = min(max((len(r["id"]) for r in rules), default=4), 32)
    lead = 2 + id_w + 2 + 7 + 2 + 2  # id, source word, formula mark
    for r in rules:
        src = SOURCE_WORD.get(r["source"], r["source"])
        mark = "ƒ" if r["formula"] else " "
        head = f"  {r['id']:<{id_w}}  {src:<7}  {mark} "
        if len(r["id"]) > id_w:  # a long ID on a line of its own, its title below in the column
            emit(f"  {r['id']}")
            head = f"  {'':<{id_w}}  {src:<7}  {mark} "
        for line in _wrapped(r["title"] or "(no description)", width, head, " " * lead):
            emit(line)
    emit("")


# how a neutral value between two ladder rows is read: the word before each row's value
_BETWEEN = {"down": ("from", "a value takes the row at or below it"),
            "up": ("up to", "a value takes the first row at or above it"),
            "nearest": ("around", "a value takes the nearest row")}
_UNITS = ("m", "lx", "J", "s", "m/s", "kg")
_SHARES = ("percentile", "fraction", "visible_fraction", "exposure", "probability")  # shown in %
_AXIS = {"m": "distance or length", "lx": "illuminance", "J": "energy", "s": "time", "m/s": "speed", "kg": "mass",
         "percentile": "percentile among adults", "fraction": "share", "visible_fraction": "visible share of the target",
         "exposure": "visible share of the target", "probability": "chance", "base ranges": "distance",
         "rounds": "rounds fired"}


def axis_value(at: Any, axis: str) -> str:
    """A neutral value on a ladder's axis, with its unit: ``30 m``, ``0.25 lx``, ``50%``."""
    try:
        x = float(at)
    except (TypeError, ValueError):
        return str(at)
    if x == float("inf"):
        return "any"
    if axis in _SHARES:
        return f"{x * 100:.4g}%"
    if axis == "base ranges":
        return f"{x:g} x base range"
    return f"{x:g} {axis}"


def _emit_ladder_rows(rows: Sequence[Mapping[str, Any]], system: str, rule_source: str, emit) -> None:
    by_ladder: dict[str, list[Mapping[str, Any]]] = {}
    for r in rows:
        by_ladder.setdefault(str(r.get("ladder", "")), []).append(r)
    for name, lrows in by_ladder.items():
        axis = str(lrows[0].get("axis", ""))
        word, how = _BETWEEN.get(str(lrows[0].get("rounding", "down")), _BETWEEN["down"])
        unit = f" in {axis}" if axis in _UNITS else " in %" if axis in _SHARES else ""
        for line in _wrapped(f"ladder {name}: the {system} value by {_AXIS.get(axis, axis)}{unit}; {how}:",
                             _width(), "  ", "    "):
            emit(line)
        natives = [text_value(r.get("native")) for r in lrows]
        ats = [f"{word} {axis_value(r.get('at'), axis)}" for r in lrows]
        for i in range(1, len(lrows)):  # the last row of a table without an upper end
            if axis_value(lrows[i].get("at"), axis) == "any":
                ats[i] = f"beyond {axis_value(lrows[i - 1].get('at'), axis)}"
        nw, aw = max(map(len, natives)), max(map(len, ats))
        mixed = len({r.get("source") for r in lrows}) > 1 or rule_source not in ("seed", "assumed")
        for r, n, a in zip(lrows, natives, ats):
            label = str(r.get("label") or "")
            src = f"  ({r['source']})" if mixed and r.get("source") else ""
            emit(f"    {n:>{nw}}  {a:<{aw}}  {label}{src}".rstrip())


def _row_text(r: Mapping[str, Any]) -> str:
    """A table row that is no ladder row (a GURPS table, a Polish action) in words: what it is
    keyed by first, then each column by its name, the description last."""
    r = {k: v for k, v in r.items() if v not in ("", None) and k not in ("rule", "rep")}
    if "from" in r and "to" in r:
        head = f"roll {r.pop('from')}-{r.pop('to')}"
    elif "roll" in r:
        head = f"roll {r.pop('roll')}"
    elif "key" in r:
        head = str(r.pop("key")).replace("_", " ")
    elif "number" in r:
        head = f"action {r.pop('number')}"
    else:
        head = ""
    text = str(r.pop("effect", "") or r.pop("english", "") or "")
    cols = [f"{k.replace('_', ' ')} {text_value(v, k)}" for k, v in r.items()]
    return ": ".join(x for x in (head, "; ".join(cols + ([text] if text else []))) if x)


def _emit_description(d: Mapping[str, Any], emit) -> None:
    width = _width()
    for line in _wrapped(f"{d['system']} {d['id']}: {d['title']}", width, "", "  "):
        emit(line)
    if d.get("description") and d["description"] != d["title"]:
        for line in _wrapped(d["description"].replace("**", ""), width, "  ", "  "):
            emit(line)
    src = d["source"] or ""
    meaning = {"seed": "the rule text states it", "assumed": "the rule text is silent: xsys's own choice",
               "seed/assumed": "some values stated by the rule text, some xsys's own choice"}.get(src, "")
    emit(f"  source: {src or 'not stated'}" + (f" ({meaning})" if meaning else ""))
    if d.get("tables"):
        for line in _wrapped(f"tables: {', '.join(d['tables'])}", width, "  ", "    "):
            emit(line)
    rows = d.get("rows") or []
    shown = rows[:60]
    ladder = [r for r in shown if "ladder" in r and "at" in r]
    other = [r for r in shown if not ("ladder" in r and "at" in r)]
    if ladder:
        _emit_ladder_rows(ladder, d["system"], src, emit)
    if other:
        emit("  rows:")
        for r in other:
            for line in _wrapped(_row_text(r), width, "    ", "      "):
                emit(line)
    if len(rows) > 60:
        emit(f"    … {len(rows) - 60} more (--json shows all)")
    f = d.get("formula")
    if f:
        emit(f"  formula: {f['summary']}")
        emit(f"  evaluate: xsys rules {d['system']} {f['usage']}")
        for p in f["parameters"]:
            extra = f" (one of: {', '.join(p['choices'])})" if p.get("choices") else ""
            default = f" [default {p['default']}]" if "default" in p else ""
            emit(f"    --{p['name']}: {p['kind']}{' ' + p['help'] if p['help'] else ''}{default}{extra}")
