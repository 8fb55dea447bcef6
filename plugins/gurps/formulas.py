"""The formulas of gurps's rules for ``xsys rules gurps RULE-ID --NAME VALUE``, and what the
tables of rules.toml say about each rule.

Every table of rules.toml (``[table."<rule ID>"]``, :func:`xsys.plugins.gurps.system.rule_tables`)
is a formula of its own: a row looked up by 3d6 roll or by key. Each row with a key is a rule
too (``<rule ID>.<key>``: ``gurps.hit-location.head``).

:func:`build` is given the module that holds the rule functions (``xsys.plugins.gurps.system``,
by :meth:`Gurps.formulas`) rather than importing it: the system module asks this one for its
formulas, and neither imports the other in a circle.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

from xsys.core.errors import XsysError
from xsys.core.formulas import Formula, Formulas, RuleNote, formula_error, option, param


def lookup_formula(rule: str, rules: Any) -> Formula:
    """The formula of the rules.toml table `rule`: its row by ``--roll`` (plus ``--margin``) or ``--key``."""
    def run(s, v):
        key: Any
        if v["roll"] is not None:
            key = v["roll"] + v["margin"]
        elif v["key"] is not None:
            key = v["key"]
        else:
            raise formula_error(rule, None, "expected --roll N (3d6 roll) or --key KEY")
        try:
            return {"row": dict(rules.lookup(rule, key))}
        except XsysError as exc:
            raise formula_error(rule, "--roll" if v["roll"] is not None else "--key", exc.line()) from None

    return Formula(rule, "a row of the table, by 3d6 roll or by key",
                   (option("roll", help="3d6 roll"), option("margin", default=0, help="margin of failure (gurps.fright)"),
                    option("key", "text", "row key")), run)


def _row_title(row: Mapping[str, Any]) -> str:
    for k in ("name", "effect", "label", "text"):
        if row.get(k):
            return str(row[k])
    rest = [f"{k} {v}" for k, v in row.items() if k != "key" and v not in ("", None)]
    return f"{str(row.get('key', '')).replace('_', ' ')}: " + ", ".join(rest)


def table_notes(tables: Mapping[str, Mapping[str, Any]]) -> dict[str, RuleNote]:
    """Each rules.toml table as the note of its rule (title, page and note as its text, its
    rows), and each keyed row as the note of ``<rule ID>.<key>``."""
    out: dict[str, RuleNote] = {}
    for rid, t in tables.items():
        title = str(t.get("title", ""))
        where = (f'rules.toml [table."{rid}"]',)
        source = str(t.get("source") or "")
        text = " ".join(x for x in (title, f"({t['page']})" if t.get("page") else "", str(t.get("note", ""))) if x)
        rows = tuple(dict(r) for r in t.get("rows", []))
        out[rid] = RuleNote(title=title, text=text, source=source, tables=where, rows=rows)
        for r in rows:
            if "key" in r:
                out[f"{rid}.{r['key']}"] = RuleNote(title=_row_title(r), source=source, tables=where, rows=(dict(r),))
    return out


def build(rules: Any) -> Formulas:
    """gurps's formulas over `rules` (the module of its rule functions and tables)."""
    formulas = Formulas()

    @formulas.formula("gurps.ssr", "speed/range and size modifiers", param("distance", "length"),
                      option("speed", "speed", "target speed", default=None), option("size", "length", "target height"))
    def _(s, v):
        lad = s.ladders()["ssr"]
        sv = rules.speed_value(float(v["speed"])) if v["speed"] is not None else Fraction(0)
        row = lad.steps[rules.ssr_index(lad, rules.exact(float(v["distance"])) + sv)]
        out: dict[str, Any] = {"speed_range": row.native, "row_m": row.at}
        if v["size"] is not None:
            srow = lad.steps[rules.ssr_index(lad, rules.exact(float(v["size"])))]
            out["size"] = -srow.native
        return out

    @formulas.formula("gurps.height", "effective distance shooting up or down", param("distance", "length"),
                      param("elevation", "length", "shooter above target (negative: below)", signed=True))
    def _(s, v):
        return {"effective_distance_m": rules.effective_distance(float(v["distance"]), float(v["elevation"]))}

    @formulas.formula("gurps.resolution", "chance of 3d6 <= effective skill", param("skill", help="effective skill"))
    def _(s, v):
        return {"chance": rules.success(v["skill"])}

    @formulas.formula("gurps.derived", "derived characteristics", param("st"), param("dx"), param("iq"), param("ht"))
    def _(s, v):
        return dict(rules.derive(v["st"], v["dx"], v["iq"], v["ht"]))

    for rid in rules.rule_tables():
        if formulas.get(rid) is None:  # gurps.height is a table and a formula: the formula computes it
            formulas.add(lookup_formula(rid, rules))
    return formulas
