"""The formulas of pl-trudnosc's rules for ``xsys rules pl-trudnosc RULE-ID --NAME VALUE``, and
what the ``[[actions]]`` list of tables.toml says about each rule.

:func:`build` is given the module that holds the rule functions (``xsys.plugins.pl_trudnosc.system``,
by :meth:`PlTrudnosc.formulas`) rather than importing it: the system module asks this one for
its formulas, and neither imports the other in a circle.
"""

from __future__ import annotations

from typing import Any, Mapping

from xsys.core.errors import XsysError
from xsys.core.formulas import Formulas, Param, RuleNote, formula_error, option, param


def action_notes(tables: Mapping[str, Any]) -> dict[str, RuleNote]:
    """The ``[[actions]]`` of tables.toml as rule notes: each action's English (else Polish) name
    as its rule's title, the action as a row of its rule."""
    out: dict[str, RuleNote] = {}
    for a in tables.get("actions", []) or []:
        if isinstance(a, Mapping) and a.get("id"):
            old = out.get(a["id"], RuleNote(tables=("tables.toml [[actions]]",)))
            out[a["id"]] = RuleNote(title=old.title or str(a.get("english") or a.get("polish") or ""),
                                    tables=old.tables, rows=(*old.rows, {k: a[k] for k in a if k != "id"}))
    return out


def build(rules: Any) -> Formulas:
    """pl-trudnosc's formulas over `rules` (the module of its rule functions and MECHANICS)."""
    formulas = Formulas()

    def _mechanic(s, v):
        if v.get("mechanic"):
            return rules.MECHANICS[v["mechanic"]]
        return s.mechanic

    def _mech_param() -> Param:
        return option("mechanic", "choice", "dice mechanic (default: the system's)", choices=lambda: sorted(rules.MECHANICS))

    def _outcome(o) -> dict[str, Any]:
        out: dict[str, Any] = {"chance": o.chance, "trudnosc": o.trudnosc, "pool": o.pool}
        if o.effect:
            out["effect"] = o.effect
        return out

    @formulas.formula("pl.suppress", "chance the target ignores suppressive fire (Odwaga vs 15 + rounds)",
                      param("odwaga", help="target's Odwaga"), param("rounds", "ints", "rounds fired (comma-separated per shooter)"),
                      _mech_param())
    def _(s, v):
        try:
            return _outcome(rules.suppression(_mechanic(s, v), v["odwaga"], *v["rounds"]))
        except XsysError as exc:
            raise formula_error("pl.suppress", "--rounds", exc.line()) from None

    @formulas.formula("pl.observe", "observe the battlefield", param("percepcja"), param("czujnosc"),
                      option("hidden", default=0), option("trudnosc"), _mech_param())
    def _(s, v):
        return _outcome(rules.observe(_mechanic(s, v), v["percepcja"], v["czujnosc"], v["hidden"], v["trudnosc"]))

    @formulas.formula("pl.grenade", "throw a grenade", param("motoryka"), param("rzucanie"), param("distance", "length"),
                      option("in-radius", default=1), option("room-size", "length"), option("blast-radius", "length"),
                      option("room-occupants", default=0), option("room-hidden", default=0), _mech_param())
    def _(s, v):
        f = (lambda x: None if x is None else float(x))
        return _outcome(rules.grenade(_mechanic(s, v), v["motoryka"], v["rzucanie"], distance=float(v["distance"]),
                                      in_radius=v["in-radius"], room_size=f(v["room-size"]),
                                      blast_radius=f(v["blast-radius"]), room_occupants=v["room-occupants"],
                                      room_hidden=v["room-hidden"]))

    @formulas.formula("pl.aim", "extra dice and Trudność change after aiming turns", param("turns"))
    def _(s, v):
        dice, diff = rules.aim_modifiers(v["turns"])
        return {"extra_dice": dice, "trudnosc_change": diff}

    @formulas.formula("pl.difficulty.range", "Trudność for range", param("distance", "length"),
                      option("weapon", "choice", default="short", choices=lambda: ["short", "long"]))
    def _(s, v):
        return {"modifier": rules.range_modifier(float(v["distance"]), v["weapon"])}

    def _pl_move(kind: str):
        def run(s, v):
            sysm = rules
            dist, speed = sysm._movement(v.get("motoryka") or 1, v.get("atletyka") or 1, bool(v.get("trained")))
            return {"per_tura": f"{float(dist[kind]):g} m", "speed": f"{float(speed[kind]):.3g} m/s (tura = 3 s, assumed)"}
        return run

    formulas.formula("pl.sprint", "sprint distance per tura: 2 x Motoryka (metres assumed)",
                     param("motoryka"))(_pl_move("sprint"))
    formulas.formula("pl.crawl", "crawl distance per tura: 1 m, 2 m with military training",
                     option("trained", "choice", default="no", choices=lambda: ["no", "yes"]))(
        lambda s, v: _pl_move("crawl")(s, {**v, "trained": v["trained"] == "yes"}))
    formulas.formula("pl.swim", "swim distance per tura: Atletyka (metres assumed)", param("atletyka"))(_pl_move("swim"))

    @formulas.formula("pl.resolution", "chance to pass a test \"trait with skill\" against Trudność",
                      param("trait"), param("skill"), param("trudnosc"), option("extra-dice", default=0), _mech_param())
    def _(s, v):
        m = _mechanic(s, v)
        dist = m.successes(v["trait"], v["skill"], v["extra-dice"], v["trudnosc"])
        return {"chance": rules.pass_chance(dist), "pool": m.pool(v["trait"], v["skill"], v["extra-dice"]),
                "successes": dist}
    return formulas
