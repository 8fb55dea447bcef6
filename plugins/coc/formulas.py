"""The formulas of coc's rules (coc-ja.*) for ``xsys rules coc RULE-ID --NAME VALUE`` (what the
rule register of tables.toml says about each rule is the core's: ``System.rule_register``).

:data:`FORMULAS` holds the formulas of the rules a variant keeps with coc's tables (coc-zh does):
:func:`formulas_of` gives a system those of them whose rules it has (:meth:`CocSystem.rule_ids`),
so a system built on :class:`CocSystem` with rules of its own (7th edition, say) inherits none it
does not implement. The armor table's formula is built per rule ID (:func:`armor_table`): a
variant's armor list is its own rule.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from xsys.core.formulas import Formula, Formulas, formula_error, option, param

from . import rules

FORMULAS = Formulas()


def _coc_choices(*path: str) -> Callable[[], list[str]]:
    def get() -> list[str]:
        t: Any = rules.tables()
        for p in path:
            t = t[p]
        return list(t)

    return get


@FORMULAS.formula("coc-ja.resistance", "resistance table: chance of the active side",
                  param("active", help="active characteristic"), param("passive", help="passive characteristic"))
def _(s, v):
    return {"chance": rules.resistance(v["active"], v["passive"])}


@FORMULAS.formula("coc-ja.conceal", "concealed carry: size multiplier, modified Conceal, chance of being found",
                  param("length", "length", "overall weapon length"),
                  option("conceal", help="Conceal skill (gives the modified Conceal)"),
                  option("clothing", "choice", default="street clothes", choices=_coc_choices("conceal", "clothing")),
                  option("carry", "choice", default="holster", choices=_coc_choices("conceal", "carry")),
                  option("spot-hidden", help="searcher's Spot Hidden (gives the detection chance)"),
                  covers=("coc-ja.conceal.size", "coc-ja.conceal.clothing", "coc-ja.conceal.holster",
                          "coc-ja.conceal.roll"))
def _(s, v):
    r = rules  # the rules module, as `r` for short
    length = float(v["length"])
    out: dict[str, Any] = {"size_multiplier": r.conceal_size_multiplier(length)}
    if v["conceal"] is not None:
        try:
            mod = r.conceal_value(v["conceal"], length, v["clothing"], v["carry"])
        except ValueError as exc:
            raise formula_error("coc-ja.conceal", None, str(exc)) from None
        out["modified_conceal"] = mod
        if v["spot-hidden"] is not None:
            out["detection_chance"] = r.detection_chance(v["spot-hidden"], mod)
    return out


@FORMULAS.formula("coc-ja.conceal.size", "Conceal multiplier by weapon length", param("length", "length", "overall weapon length"))
def _(s, v):
    return {"size_multiplier": rules.conceal_size_multiplier(float(v["length"]))}


@FORMULAS.formula("coc-ja.conceal.roll", "chance that a concealed weapon is found",
                  param("spot-hidden", help="searcher's Spot Hidden"), param("conceal", help="modified Conceal"))
def _(s, v):
    return {"detection_chance": rules.detection_chance(v["spot-hidden"], v["conceal"])}


@FORMULAS.formula("coc-ja.quickdraw.skill-bonus", "skill bonus to action-order DEX",
                  param("skill", "text", "Handgun, Rifle, Shotgun, SMG or Machine Gun"), param("value", help="skill %"))
def _(s, v):
    return {"dex_bonus": rules.quickdraw_skill_bonus(v["skill"], v["value"])}


@FORMULAS.formula("coc-ja.quickdraw.total", "action-order DEX",
                  param("dex", help="DEX"), option("skill", "text", default=""), option("skill-value", default=0),
                  option("sights", "text", "comma-separated: laser, red-dot, reflex", default=""),
                  option("grip", "choice", choices=_coc_choices("quickdraw", "grip")),
                  option("carry", "choice", default="in hand", choices=_coc_choices("quickdraw", "carry")))
def _(s, v):
    sights = [x.strip() for x in v["sights"].split(",") if x.strip()]
    return {"action_dex": rules.action_dex(v["dex"], v["skill"], v["skill-value"], sights, v["grip"], v["carry"])}


@FORMULAS.formula("coc-ja.reload.magazine", "combat rounds to reload",
                  option("feed", "choice", default="magazine", choices=lambda: ["magazine", "loose", "belt"]),
                  option("rounds", default=0, help="rounds to load (loose)"), option("skill-success", "flag", default=False))
def _(s, v):
    return {"combat_rounds": rules.reload_rounds(v["feed"], v["rounds"], v["skill-success"])}


FORMULAS.alias("coc-ja.reload.loose-rounds", "coc-ja.reload.magazine")
FORMULAS.alias("coc-ja.reload.belt", "coc-ja.reload.magazine")


@FORMULAS.formula("coc-ja.stance.off-hand", "chance with the non-dominant hand",
                  param("skill", help="firearm skill %"), option("off-hand-skill", help="Off-hand Shooting %"))
def _(s, v):
    return {"chance": rules.off_hand_chance(v["skill"], v["off-hand-skill"])}


FORMULAS.alias("coc-ja.skill.off-hand-shooting", "coc-ja.stance.off-hand")


@FORMULAS.formula("coc-ja.stance.two-guns", "chance with a gun in each hand",
                  param("skill", help="firearm skill %"), option("skill-name", "text", default="Handgun"),
                  option("laser", "flag", default=False), option("off-hand-skill", help="Off-hand Shooting %"))
def _(s, v):
    return {"chance": rules.two_guns_chance(v["skill"], v["skill-name"], v["laser"], v["off-hand-skill"])}


@FORMULAS.formula("coc-ja.autofire.penalty", "chance after the per-round burst penalty",
                  param("chance", help="chance %"), param("rounds"),
                  option("mount", "choice", default="hand-held", choices=lambda: list(rules.tables()["autofire"]["per_round"])))
def _(s, v):
    return {"modified_chance": rules.autofire_modified(v["chance"], v["rounds"], v["mount"])}


@FORMULAS.formula("coc-ja.autofire.order", "large-target bonus", param("siz", help="target SIZ"))
def _(s, v):
    return {"bonus": rules.large_target_bonus(v["siz"])}


@FORMULAS.formula("coc-ja.autofire.hits", "distribution of hits of a burst",
                  param("modified", help="modified chance %"), param("unmodified", help="unmodified chance %"), param("rounds"))
def _(s, v):
    return {"hits": rules.autofire_hit_distribution(v["modified"], v["unmodified"], v["rounds"])}


@FORMULAS.formula("coc-ja.autofire.untrained", "fewest rounds an untrained shooter fires",
                  param("skill", "text", "skill name"), param("value", help="skill %"), param("rof", help="rate of fire"))
def _(s, v):
    return {"min_rounds": rules.untrained_min_rounds(v["skill"], v["value"], v["rof"])}


@FORMULAS.formula("coc-ja.autofire.sweep", "rounds per target of a sweep", param("rounds"), param("targets"))
def _(s, v):
    return {"rounds_per_target": rules.sweep_rounds(v["rounds"], v["targets"])}


@FORMULAS.formula("coc-ja.autofire.dodge-penalty", "target's Dodge against a burst", param("dodge", help="Dodge %"), param("rounds"))
def _(s, v):
    return {"dodge": rules.burst_dodge(v["dodge"], v["rounds"])}


@FORMULAS.formula("coc-ja.autofire.suppression", "chance of being suppressed (rounds vs POW)",
                  param("rounds", help="rounds fired"), param("pow", help="target's POW"))
def _(s, v):
    return {"chance": rules.suppression_chance(v["rounds"], v["pow"])}


@FORMULAS.formula("coc-ja.close-range", "close range in metres", param("dex", help="DEX"))
def _(s, v):
    return {"metres": rules.close_range(v["dex"])}


@FORMULAS.formula("coc-ja.range.point-blank", "point-blank range in metres", param("dex", help="DEX"),
                  option("careful-aim", "flag", default=False))
def _(s, v):
    return {"metres": rules.point_blank(v["dex"], v["careful-aim"])}


@FORMULAS.formula("coc-ja.double-tap", "why a double tap is not allowed (empty: allowed)",
                  param("skill", help="skill %"), param("rof", help="rate of fire"), param("distance", "length"), param("dex", help="DEX"))
def _(s, v):
    why = rules.double_tap_allowed(v["skill"], v["rof"], float(v["distance"]), v["dex"])
    return {"allowed": not why, "reasons": why}


@FORMULAS.formula("coc-ja.mozambique", "why a Mozambique drill is not allowed (empty: allowed)",
                  param("skill", help="skill %"), param("rof", help="rate of fire"), param("distance", "length"), param("dex", help="DEX"))
def _(s, v):
    why = rules.mozambique_allowed(v["skill"], v["rof"], float(v["distance"]), v["dex"])
    return {"allowed": not why, "reasons": why}


@FORMULAS.formula("coc-ja.dodge.count", "dodges per round", param("dodge", help="Dodge %"))
def _(s, v):
    return {"dodges": rules.dodges_per_round(v["dodge"])}


@FORMULAS.formula("coc-ja.dodge.sniper", "chance to notice a sniper", param("spot-hidden"), param("hide", help="sniper's Hide"))
def _(s, v):
    return {"chance": rules.sniper_notice_chance(v["spot-hidden"], v["hide"])}


@FORMULAS.formula("coc-ja.encumbrance", "load state for a character",
                  param("str", help="STR"), param("siz", help="SIZ"), param("load", "mass", "carried load"))
def _(s, v):
    r = rules  # the rules module, as `r` for short
    out = dict(r.encumbrance(v["str"], v["siz"], float(v["load"])))
    out["thresholds_kg"] = {st.label: st.at for st in r.encumbrance_ladder(v["str"], v["siz"]).steps}
    return out


@FORMULAS.formula("coc-ja.light.dazzle", "chance to dazzle with a light", param("dex", help="DEX"),
                  param("pow", help="opponent's POW"))
def _(s, v):
    return {"chance": rules.dazzle_chance(v["dex"], v["pow"])}


@FORMULAS.formula("coc-ja.armor.shock", "chance to keep acting when hit in armor without damage",
                  param("pow", help="POW"), option("combat-skill", default=0, help="highest combat skill %"))
def _(s, v):
    return {"chance": rules.armor_shock_chance(v["pow"], v["combat-skill"])}


@FORMULAS.formula("coc-ja.door-breach", "chance to breach a door with a shot",
                  param("malfunction"), param("locksmith"), param("int", help="INT"), param("damage", "text", "damage dice, e.g. 1d10"),
                  param("door-strength"))
def _(s, v):
    return {"chance": rules.door_breach_chance(malfunction=v["malfunction"], locksmith=v["locksmith"], INT=v["int"],
                                                damage=v["damage"], door_strength=v["door-strength"])}


def _armor_values(s, v, rule: str) -> dict[str, Any]:
    from xsys.core.model import Barrier

    out: dict[str, Any] = {}
    if v["material"] is not None:
        if v["thickness"] is None:
            raise formula_error(rule, "--thickness", "missing (a barrier needs --material and --thickness)")
        A, B, step, table = s.barrier_value(Barrier(material=v["material"], thickness=v["thickness"]))
        out["barrier"] = {"A": A, "B": B, "table": table, "row": step.label, "source": step.source}
    if v["armor"] is not None:
        from xsys.core.catalog import strip_entry
        from xsys.core.registry import catalog

        items = catalog().armor
        if v["armor"] not in items:
            raise formula_error(rule, "--armor", f"expected a catalog armor id (one of {', '.join(sorted(items))}), "
                                                 f"found {v['armor']!r}")
        A, B, step = s.armor_value(strip_entry(items[v["armor"]]))
        out["armor"] = {"A": A, "B": B, "row": step.label, "source": step.source}
    if not out:
        raise formula_error(rule, None, "expected --material M --thickness T (a barrier) or --armor CATALOG-ID")
    return out


_ARMOR_PARAMS = (option("material", "text", "barrier material (catalog)"), option("thickness", "length"),
                 option("armor", "text", "catalog armor id"))


def armor_table(rule: str) -> Formula:
    """The formula of an armor table (coc-ja.armor.table; a variant's own, e.g.
    coc-zh.armor.table): the system's armor value of a barrier or a catalog armor item."""
    return Formula(rule, "armor value of a barrier or a worn item", _ARMOR_PARAMS,
                   lambda s, v: _armor_values(s, v, rule))


@FORMULAS.formula("coc-ja.quickdraw.ready", "can the gun fire in the first DEX cycle?",
                  param("str", help="STR"), option("required-str", help="the gun's required STR"),
                  option("single-action", "flag", default=False), option("cocked", "flag", default=False),
                  option("empty-chamber", "flag", default=False))
def _(s, v):
    return {"ready": rules.ready_first_cycle(STR=v["str"], required_STR=v["required-str"],
                                              single_action=v["single-action"], cocked=v["cocked"],
                                              chambered=not v["empty-chamber"])}


@FORMULAS.formula("coc-ja.armor.shotgun-pellets", "mean damage of shot through armor (armor against each die)",
                  param("damage", "text", "damage dice, e.g. 4d6"), param("armor"))
def _(s, v):
    try:
        return {"mean_damage": rules.mean_pellets_after_armor(v["damage"], v["armor"])}
    except (ValueError, KeyError):
        raise formula_error("coc-ja.armor.shotgun-pellets", "--damage",
                            f"expected dice such as '4d6', found {v['damage']!r}") from None


def formulas_of(system: Any, extra: Sequence[Formula] = ()) -> tuple[Formula, ...]:
    """:data:`FORMULAS` and `extra`, each kept when `system` has its rule (or the rules it
    covers): coc's formulas of coc-ja.* rules for coc and for a variant that keeps them."""
    ids = system.rule_ids()
    return tuple(f for f in (*FORMULAS, *extra) if f.rule in ids or (f.covers and set(f.covers) <= ids))
