"""The formulas of nwod's rules for ``xsys rules nwod RULE-ID --NAME VALUE``.

:func:`build` is given the module that holds the rule functions (``xsys.plugins.nwod.system``,
by :meth:`NwodSystem.formulas`) rather than importing it: the system module asks this one for
its formulas, and neither imports the other in a circle.
"""

from __future__ import annotations

from typing import Any

from xsys.core.errors import XsysError
from xsys.core.formulas import Formulas, formula_error, option, param


def build(rules: Any) -> Formulas:
    """nwod's formulas over `rules` (the module of its rule functions: penetration, successes,
    cover_penalty ...)."""
    formulas = Formulas()

    @formulas.formula("nwod.barrier.penetration", "shooting through a barrier",
                      param("durability"), option("successes", help="successes of the attack roll"),
                      option("pool", help="attack pool (instead of --successes: exact odds)"), option("armor", default=0),
                      option("structure"), option("damage-taken", default=0), option("armor-piercing", default=0))
    def _(s, v):
        if (v["successes"] is None) == (v["pool"] is None):
            raise formula_error("nwod.barrier.penetration", None, "expected one of --successes N or --pool N")
        if v["successes"] is not None:
            p = rules.penetration(v["successes"], v["durability"], v["armor"], v["structure"], v["damage-taken"],
                              v["armor-piercing"])
            return {"penetrates": p.penetrates, "excess": p.excess, "structure": p.structure,
                    "structure_damage": p.structure_damage, "structure_left": p.structure_left,
                    "destroyed": p.destroyed, "damage_pool": p.damage_pool, "chance_die": p.chance_die}
        first = rules.successes(v["pool"])
        armor = max(0, v["armor"] - v["armor-piercing"])
        return {"hit_chance": rules.barrier_hit(first, v["durability"], armor),
                "mean_damage": rules.barrier_damage_mean(first, v["durability"], armor),
                "damage": rules.barrier_damage(first, v["durability"], armor)}

    @formulas.formula("nwod.cover.both", "both sides in cover",
                      param("attacker-cover", "choice", choices=lambda: list(rules.CONCEALMENT)),
                      param("target-cover", "choice", choices=lambda: list(rules.CONCEALMENT)))
    def _(s, v):
        t, f, total = rules.cover_penalty(v["attacker-cover"], v["target-cover"])
        return {"target_cover": t, "firing_from": f, "total": total}

    @formulas.formula("nwod.cover.firing-from", "penalty when firing from cover", param("rating", help="cover rating, e.g. -3"))
    def _(s, v):
        return {"penalty": rules.firing_from(v["rating"])}

    @formulas.formula("nwod.pool", "successes of a dice pool", param("dice"), option("again", default=10))
    def _(s, v):
        return {"chance": rules.p_hit(v["dice"], v["again"]), "successes": rules.successes(v["dice"], v["again"])}

    @formulas.formula("nwod.barrier.durability", "Durability, Size and Structure of a barrier",
                      param("material", "text", "barrier material (catalog)"), param("thickness", "length"))
    def _(s, v):
        from xsys.core.model import Barrier

        try:
            stops = rules.barrier_stops(Barrier(material=v["material"], thickness=v["thickness"]))
        except XsysError as exc:
            raise formula_error("nwod.barrier.durability", "--material", exc.line()) from None
        lads = s.ladders()
        d = int(lads["barrier_durability"].step_for(stops).native)
        size = int(lads["barrier_size"].step_for(stops).native)
        return {"stops_J": stops, "durability": d, "size": size, "structure": d + size}

    formulas.alias("nwod.barrier.size", "nwod.barrier.durability")
    formulas.alias("nwod.object.structure", "nwod.barrier.durability")
    return formulas
