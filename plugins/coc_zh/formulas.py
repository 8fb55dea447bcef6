"""The formulas of coc-zh's own rules (coc-zh.*) for ``xsys rules coc-zh RULE-ID --NAME VALUE``.

coc-zh keeps coc's firearms rules and their formulas (``xsys.plugins.coc.formulas``, which
:meth:`CocZhSystem.formulas` adds these to); its armor table is its own rule, coc-zh.armor.table.
"""

from __future__ import annotations

from xsys.core.formulas import Formulas, formula_error, option, param
from xsys.plugins.coc import formulas as coc_formulas

from . import rules

FORMULAS = Formulas()
FORMULAS.add(coc_formulas.armor_table("coc-zh.armor.table"))


@FORMULAS.formula("coc-zh.resistance", "resistance table: chance of the active side", param("active"), param("passive"))
def _(s, v):
    return {"chance": rules.resistance(v["active"], v["passive"])}


@FORMULAS.formula("coc-zh.armor.reduction", "damage taken through armor", param("damage"), param("armor"))
def _(s, v):
    return {"damage_taken": rules.damage_after_armor(v["damage"], v["armor"])}


@FORMULAS.formula("coc-zh.impale", "highest d100 roll that impales", param("chance", help="attack chance %"))
def _(s, v):
    return {"impale_on_or_below": rules.impale_threshold(v["chance"])}


@FORMULAS.formula("coc-zh.impale.damage", "damage roll of impales", param("damage", "text", "e.g. 1d6"),
                  option("hits", default=1), option("immune", "flag", default=False))
def _(s, v):
    return {"roll": rules.impale_roll(v["damage"], v["hits"], v["immune"])}


@FORMULAS.formula("coc-zh.impale.stuck", "chance to pull a stuck weapon out", param("skill", help="weapon skill %"))
def _(s, v):
    return {"chance": rules.pull_out_chance(v["skill"])}


@FORMULAS.formula("coc-zh.dodge", "chance to dodge", param("dodge", help="Dodge %"), option("pow", help="POW"),
                  option("extreme-danger", "flag", default=False))
def _(s, v):
    return {"chance": rules.dodge_chance(v["dodge"], v["pow"], v["extreme-danger"])}


@FORMULAS.formula("coc-zh.darkness", "skill chance in poor light", param("chance", help="chance %"), param("light", "lux"))
def _(s, v):
    return {"chance": rules.darkness_chance(v["chance"], float(v["light"])),
            "visibility": rules.darkness_level(float(v["light"]))}


@FORMULAS.formula("coc-zh.knockout", "knockout: chance of unconsciousness and mean damage taken",
                  param("damage", "text", "damage roll, e.g. 1d6+1d4, or a number"), param("hp", help="target's HP"),
                  option("armor", default=0))
def _(s, v):
    r = rules  # the rules module, as `r` for short
    dmg = v["damage"].strip()
    if dmg.isdigit():
        d = r.damage_after_armor(int(dmg), v["armor"])
        k = r.knockout_chance(d, v["hp"])
        return {"knockout": k, "damage_if_knocked_out": r.knockout_damage(d), "damage_otherwise": d}
    try:
        return dict(r.knockout_outcome(dmg, v["hp"], v["armor"]))
    except (ValueError, KeyError) as exc:
        raise formula_error("coc-zh.knockout", "--damage",
                            f"expected dice such as '1d6+1d4' or a number, found {dmg!r}") from exc


@FORMULAS.formula("coc-zh.knockout.recovery", "chance to wake a victim",
                  option("first-aid", help="First Aid %"), option("medicine", help="Medicine %"))
def _(s, v):
    return {"chance": rules.wake_chance(v["first-aid"], v["medicine"])}


@FORMULAS.formula("coc-zh.partial-concealment", "chance to pinpoint a hard-to-find target",
                  param("spot-hidden"), param("int", help="INT"))
def _(s, v):
    return {"chance": rules.find_chance(v["spot-hidden"], v["int"])}


@FORMULAS.formula("coc-zh.surprise", "a surprised defender's DEX", param("dex", help="DEX"))
def _(s, v):
    return {"dex": rules.surprised_DEX(v["dex"])}


@FORMULAS.formula("coc-zh.parry.basics", "parry chance", param("skill", help="skill with the parrying object %"))
def _(s, v):
    return {"chance": rules.parry_chance(v["skill"])}


@FORMULAS.formula("coc-zh.parry.grapple", "chance to parry by grappling", param("grapple", help="Grapple %"))
def _(s, v):
    return {"chance": rules.grapple_parry_chance(v["grapple"])}


@FORMULAS.formula("coc-zh.parry.object-damage", "damage to the parrying object and the defender",
                  param("damage"), param("object-hp"), option("firearm", "flag", default=False))
def _(s, v):
    return {"outcome": rules.parry_damage(v["damage"], v["object-hp"], v["firearm"])}


@FORMULAS.formula("coc-zh.thrown", "damage of a thrown object (half damage bonus)",
                  param("damage", "text", "e.g. 1d6"), option("damage-bonus", "text", default="0", help="e.g. 1d4"))
def _(s, v):
    return {"damage": rules.thrown_damage_distribution(v["damage"], v["damage-bonus"])}
