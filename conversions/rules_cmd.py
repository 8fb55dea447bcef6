"""``xsys rules [SYSTEM] [RULE-ID] [--NAME VALUE ...]``: every rule ID of every installed
system with its title, source (seed / assumed) and the table it lives in, and the rules
that are formulas evaluated from the command line.

Where the information comes from (all of it installed with the plugins, nothing read from
the shared rule digests at run time):

* ``System.rule_ids()``: which IDs exist;
* a rule register (``tables()["rule"]``: coc, coc-zh) with ``text`` and ``source``;
* GURPS ``rules.toml`` tables (``title``, ``source``, ``rows``; ``<id>.<key>`` rows);
* the ladders (``System.ladders()``): steps carry their rule ID and source;
* the pl-trudnosc ``[[actions]]`` list;
* the plugin's README.md rule tables (``| `id` | text |`` rows and ``- `id` — text``
  bullets), for IDs nothing else describes.

Formulas are a small registry here (:data:`FORMULAS`): rule ID -> callable with a
parameter spec. Parameters are given after the rule ID as ``--name value`` (or
``--name=value``); quantities are read with :mod:`xsys.core.units` (``21cm``, ``12 kg``),
counts as whole numbers. A wrong, unknown or missing parameter is one error line (exit 2).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

from xsys.core.errors import XsysError

REQUIRED = object()


class RulesError(XsysError):
    """A user error of ``xsys rules``: rendered ``rules <id>: --name: expected ..., found ...``."""


def _error(rule: str, where: str | None, text: str) -> RulesError:
    path = f"rules {rule}" + (f": {where}" if where else "")
    return RulesError(text, path=path)


# ---- parameters -------------------------------------------------------------------------

def _quantity(kind: str):
    from xsys.core import units

    return {"length": (units.Length, "a length", "21 cm"), "mass": (units.Mass, "a mass", "12 kg"),
            "energy": (units.Energy, "an energy", "540 J"), "speed": (units.Speed, "a speed", "1.4 m/s"), "lux": (units.Illuminance, "an illuminance", "0.2 lx")
            }[kind]


@dataclass(frozen=True)
class Param:
    """One ``--name value`` of a formula. kind: int, ints (comma-separated), text, choice,
    flag, length, mass, energy, lux."""

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
                raise _error(rule, where, f"expected a whole number (e.g. '15'), found {text!r}") from None
        if self.kind == "ints":
            try:
                return [int(x) for x in text.split(",") if x.strip()]
            except ValueError:
                raise _error(rule, where, f"expected whole numbers separated by commas (e.g. '10,5'), "
                                          f"found {text!r}") from None
        if self.kind == "text":
            return text
        if self.kind == "choice":
            options = list(self.choices()) if self.choices else []
            if text not in options:
                raise _error(rule, where, f"expected one of {', '.join(map(repr, options))}, found {text!r}")
            return text
        qtype, what, example = _quantity(self.kind)
        from xsys.core import units

        try:
            value = units.parse(text, qtype)
        except XsysError:
            raise _error(rule, where, f"expected {what} (e.g. '{example}'), found {text!r}") from None
        if value < 0 and not self.signed:
            raise _error(rule, where, f"must not be negative (expected {what} of 0 or more, found {text!r})")
        return value


@dataclass(frozen=True)
class Formula:
    """A rule that computes something: ``run(system, values) -> {name: value}``."""

    rule: str
    systems: tuple[str, ...]
    summary: str
    params: tuple[Param, ...]
    run: Callable[[Any, dict[str, Any]], Mapping[str, Any]]

    def usage(self) -> str:
        return " ".join([self.rule] + [p.usage() for p in self.params])

    def parse_args(self, args: Sequence[str]) -> dict[str, Any]:
        by_name = {p.name: p for p in self.params}
        values: dict[str, Any] = {}
        i = 0
        while i < len(args):
            tok = args[i]
            i += 1
            if not tok.startswith("--") or tok == "--":
                raise _error(self.rule, None, f"unexpected argument {tok!r} (expected --NAME VALUE: "
                                              f"{self.usage()})")
            name, eq, value = tok[2:].partition("=")
            p = by_name.get(name) or by_name.get(name.replace("_", "-"))
            if p is None:
                known = ", ".join(f"--{n}" for n in by_name) or "none"
                raise _error(self.rule, f"--{name}", f"unknown parameter (expected one of {known})")
            if p.name in values:
                raise _error(self.rule, f"--{p.name}", "given twice")
            if p.kind == "flag":
                if eq:
                    if value.lower() not in ("true", "false", "yes", "no", "1", "0"):
                        raise _error(self.rule, f"--{p.name}", f"expected true or false, found {value!r}")
                    values[p.name] = value.lower() in ("true", "yes", "1")
                else:
                    values[p.name] = True
                continue
            if not eq:
                if i >= len(args):
                    raise _error(self.rule, f"--{p.name}", "expected a value after it, found nothing")
                value = args[i]
                i += 1
            values[p.name] = p.parse(self.rule, value)
        missing = [p for p in self.params if p.required and p.name not in values]
        if missing:
            raise _error(self.rule, f"--{missing[0].name}",
                         f"missing ({missing[0].help or missing[0].kind}; usage: {self.usage()})")
        for p in self.params:
            if p.name not in values:
                values[p.name] = False if p.kind == "flag" and p.default is REQUIRED else p.default
        return values

    def describe(self) -> dict[str, Any]:
        return {"summary": self.summary, "usage": self.usage(), "parameters": [p.describe() for p in self.params]}


FORMULAS: dict[str, list[Formula]] = {}
# Formula IDs that are no rule ID of their own: the rules they evaluate together.
COVERS: dict[str, tuple[str, ...]] = {
    "coc-ja.conceal": ("coc-ja.conceal.size", "coc-ja.conceal.clothing", "coc-ja.conceal.holster",
                       "coc-ja.conceal.roll"),
}


def formula(rule: str, systems: str | Sequence[str], summary: str, *params: Param):
    keys = (systems,) if isinstance(systems, str) else tuple(systems)

    def deco(fn: Callable[[Any, dict[str, Any]], Mapping[str, Any]]):
        FORMULAS.setdefault(rule, []).append(Formula(rule, keys, summary, tuple(params), fn))
        return fn

    return deco


def formula_for(system_key: str, rule: str) -> Formula | None:
    for f in FORMULAS.get(rule, []):
        if system_key in f.systems:
            return f
    if system_key == "gurps" and rule in _gurps_tables():
        return _gurps_lookup_formula(rule)
    return None


def formula_ids(system_key: str) -> list[str]:
    ids = [r for r, fs in FORMULAS.items() if any(system_key in f.systems for f in fs)]
    if system_key == "gurps":
        ids += list(_gurps_tables())
    return sorted(set(ids))


def alias(rule: str, of: str) -> None:
    """`rule` is evaluated by the formula of `of` (one function serving several rule IDs)."""
    FORMULAS[rule] = [Formula(rule, f.systems, f.summary, f.params, f.run) for f in FORMULAS[of]]


def P(name: str, kind: str = "int", help: str = "", default: Any = REQUIRED, choices=None,
      signed: bool = False) -> Param:
    return Param(name, kind, help, default, choices, signed)


def _opt(name: str, kind: str = "int", help: str = "", default: Any = None, choices=None) -> Param:
    return Param(name, kind, help, default, choices)


# ---- the registry: coc (coc-ja.*), shared with coc-zh which inherits those rules ------------

COC = ("coc", "coc-zh")


def _coc():
    from xsys.plugins.coc import rules

    return rules


def _coc_choices(*path: str) -> Callable[[], list[str]]:
    def get() -> list[str]:
        t: Any = _coc().tables()
        for p in path:
            t = t[p]
        return list(t)

    return get


@formula("coc-ja.resistance", COC, "resistance table: chance of the active side",
         P("active", help="active characteristic"), P("passive", help="passive characteristic"))
def _(s, v):
    return {"chance": _coc().resistance(v["active"], v["passive"])}


@formula("coc-ja.conceal", COC, "concealed carry: size multiplier, modified Conceal, chance of being found",
         P("length", "length", "overall weapon length"),
         _opt("conceal", help="Conceal skill (gives the modified Conceal)"),
         _opt("clothing", "choice", default="street clothes", choices=_coc_choices("conceal", "clothing")),
         _opt("carry", "choice", default="holster", choices=_coc_choices("conceal", "carry")),
         _opt("spot-hidden", help="searcher's Spot Hidden (gives the detection chance)"))
def _(s, v):
    r = _coc()
    length = float(v["length"])
    out: dict[str, Any] = {"size_multiplier": r.conceal_size_multiplier(length)}
    if v["conceal"] is not None:
        try:
            mod = r.conceal_value(v["conceal"], length, v["clothing"], v["carry"])
        except ValueError as exc:
            raise _error("coc-ja.conceal", None, str(exc)) from None
        out["modified_conceal"] = mod
        if v["spot-hidden"] is not None:
            out["detection_chance"] = r.detection_chance(v["spot-hidden"], mod)
    return out


@formula("coc-ja.conceal.size", COC, "Conceal multiplier by weapon length", P("length", "length", "overall weapon length"))
def _(s, v):
    return {"size_multiplier": _coc().conceal_size_multiplier(float(v["length"]))}


@formula("coc-ja.conceal.roll", COC, "chance that a concealed weapon is found",
         P("spot-hidden", help="searcher's Spot Hidden"), P("conceal", help="modified Conceal"))
def _(s, v):
    return {"detection_chance": _coc().detection_chance(v["spot-hidden"], v["conceal"])}


@formula("coc-ja.quickdraw.skill-bonus", COC, "skill bonus to action-order DEX",
         P("skill", "text", "Handgun, Rifle, Shotgun, SMG or Machine Gun"), P("value", help="skill %"))
def _(s, v):
    return {"dex_bonus": _coc().quickdraw_skill_bonus(v["skill"], v["value"])}


@formula("coc-ja.quickdraw.total", COC, "action-order DEX",
         P("dex", help="DEX"), _opt("skill", "text", default=""), _opt("skill-value", default=0),
         _opt("sights", "text", "comma-separated: laser, red-dot, reflex", default=""),
         _opt("grip", "choice", choices=_coc_choices("quickdraw", "grip")),
         _opt("carry", "choice", default="in hand", choices=_coc_choices("quickdraw", "carry")))
def _(s, v):
    sights = [x.strip() for x in v["sights"].split(",") if x.strip()]
    return {"action_dex": _coc().action_dex(v["dex"], v["skill"], v["skill-value"], sights, v["grip"], v["carry"])}


@formula("coc-ja.reload.magazine", COC, "combat rounds to reload",
         _opt("feed", "choice", default="magazine", choices=lambda: ["magazine", "loose", "belt"]),
         _opt("rounds", default=0, help="rounds to load (loose)"), _opt("skill-success", "flag", default=False))
def _(s, v):
    return {"combat_rounds": _coc().reload_rounds(v["feed"], v["rounds"], v["skill-success"])}


alias("coc-ja.reload.loose-rounds", "coc-ja.reload.magazine")
alias("coc-ja.reload.belt", "coc-ja.reload.magazine")


@formula("coc-ja.stance.off-hand", COC, "chance with the non-dominant hand",
         P("skill", help="firearm skill %"), _opt("off-hand-skill", help="Off-hand Shooting %"))
def _(s, v):
    return {"chance": _coc().off_hand_chance(v["skill"], v["off-hand-skill"])}


alias("coc-ja.skill.off-hand-shooting", "coc-ja.stance.off-hand")


@formula("coc-ja.stance.two-guns", COC, "chance with a gun in each hand",
         P("skill", help="firearm skill %"), _opt("skill-name", "text", default="Handgun"),
         _opt("laser", "flag", default=False), _opt("off-hand-skill", help="Off-hand Shooting %"))
def _(s, v):
    return {"chance": _coc().two_guns_chance(v["skill"], v["skill-name"], v["laser"], v["off-hand-skill"])}


@formula("coc-ja.autofire.penalty", COC, "chance after the per-round burst penalty",
         P("chance", help="chance %"), P("rounds"),
         _opt("mount", "choice", default="hand-held", choices=lambda: list(_coc().tables()["autofire"]["per_round"])))
def _(s, v):
    return {"modified_chance": _coc().autofire_modified(v["chance"], v["rounds"], v["mount"])}


@formula("coc-ja.autofire.order", COC, "large-target bonus", P("siz", help="target SIZ"))
def _(s, v):
    return {"bonus": _coc().large_target_bonus(v["siz"])}


@formula("coc-ja.autofire.hits", COC, "distribution of hits of a burst",
         P("modified", help="modified chance %"), P("unmodified", help="unmodified chance %"), P("rounds"))
def _(s, v):
    return {"hits": _coc().autofire_hit_distribution(v["modified"], v["unmodified"], v["rounds"])}


@formula("coc-ja.autofire.untrained", COC, "fewest rounds an untrained shooter fires",
         P("skill", "text", "skill name"), P("value", help="skill %"), P("rof", help="rate of fire"))
def _(s, v):
    return {"min_rounds": _coc().untrained_min_rounds(v["skill"], v["value"], v["rof"])}


@formula("coc-ja.autofire.sweep", COC, "rounds per target of a sweep", P("rounds"), P("targets"))
def _(s, v):
    return {"rounds_per_target": _coc().sweep_rounds(v["rounds"], v["targets"])}


@formula("coc-ja.autofire.dodge-penalty", COC, "target's Dodge against a burst", P("dodge", help="Dodge %"), P("rounds"))
def _(s, v):
    return {"dodge": _coc().burst_dodge(v["dodge"], v["rounds"])}


@formula("coc-ja.autofire.suppression", COC, "chance of being suppressed (rounds vs POW)",
         P("rounds", help="rounds fired"), P("pow", help="target's POW"))
def _(s, v):
    return {"chance": _coc().suppression_chance(v["rounds"], v["pow"])}


@formula("coc-ja.close-range", COC, "close range in metres", P("dex", help="DEX"))
def _(s, v):
    return {"metres": _coc().close_range(v["dex"])}


@formula("coc-ja.range.point-blank", COC, "point-blank range in metres", P("dex", help="DEX"),
         _opt("careful-aim", "flag", default=False))
def _(s, v):
    return {"metres": _coc().point_blank(v["dex"], v["careful-aim"])}


@formula("coc-ja.double-tap", COC, "why a double tap is not allowed (empty: allowed)",
         P("skill", help="skill %"), P("rof", help="rate of fire"), P("distance", "length"), P("dex", help="DEX"))
def _(s, v):
    why = _coc().double_tap_allowed(v["skill"], v["rof"], float(v["distance"]), v["dex"])
    return {"allowed": not why, "reasons": why}


@formula("coc-ja.mozambique", COC, "why a Mozambique drill is not allowed (empty: allowed)",
         P("skill", help="skill %"), P("rof", help="rate of fire"), P("distance", "length"), P("dex", help="DEX"))
def _(s, v):
    why = _coc().mozambique_allowed(v["skill"], v["rof"], float(v["distance"]), v["dex"])
    return {"allowed": not why, "reasons": why}


@formula("coc-ja.dodge.count", COC, "dodges per round", P("dodge", help="Dodge %"))
def _(s, v):
    return {"dodges": _coc().dodges_per_round(v["dodge"])}


@formula("coc-ja.dodge.sniper", COC, "chance to notice a sniper", P("spot-hidden"), P("hide", help="sniper's Hide"))
def _(s, v):
    return {"chance": _coc().sniper_notice_chance(v["spot-hidden"], v["hide"])}


@formula("coc-ja.encumbrance", COC, "load state for a character",
         P("str", help="STR"), P("siz", help="SIZ"), P("load", "mass", "carried load"))
def _(s, v):
    r = _coc()
    out = dict(r.encumbrance(v["str"], v["siz"], float(v["load"])))
    out["thresholds_kg"] = {st.label: st.at for st in r.encumbrance_ladder(v["str"], v["siz"]).steps}
    return out


@formula("coc-ja.light.dazzle", COC, "chance to dazzle with a light", P("dex", help="DEX"),
         P("pow", help="opponent's POW"))
def _(s, v):
    return {"chance": _coc().dazzle_chance(v["dex"], v["pow"])}


@formula("coc-ja.armor.shock", COC, "chance to keep acting when hit in armor without damage",
         P("pow", help="POW"), _opt("combat-skill", default=0, help="highest combat skill %"))
def _(s, v):
    return {"chance": _coc().armor_shock_chance(v["pow"], v["combat-skill"])}


@formula("coc-ja.door-breach", COC, "chance to breach a door with a shot",
         P("malfunction"), P("locksmith"), P("int", help="INT"), P("damage", "text", "damage dice, e.g. 1d10"),
         P("door-strength"))
def _(s, v):
    return {"chance": _coc().door_breach_chance(malfunction=v["malfunction"], locksmith=v["locksmith"], INT=v["int"],
                                                damage=v["damage"], door_strength=v["door-strength"])}


def _armor_values(s, v, rule: str) -> dict[str, Any]:
    from xsys.core.model import Barrier

    out: dict[str, Any] = {}
    if v["material"] is not None:
        if v["thickness"] is None:
            raise _error(rule, "--thickness", "missing (a barrier needs --material and --thickness)")
        A, B, step, table = s.barrier_value(Barrier(material=v["material"], thickness=v["thickness"]))
        out["barrier"] = {"A": A, "B": B, "table": table, "row": step.label, "source": step.source}
    if v["armor"] is not None:
        from xsys.core.catalog import strip_entry
        from xsys.core.registry import catalog

        items = catalog().armor
        if v["armor"] not in items:
            raise _error(rule, "--armor", f"expected a catalog armor id (one of {', '.join(sorted(items))}), "
                                          f"found {v['armor']!r}")
        A, B, step = s.armor_value(strip_entry(items[v["armor"]]))
        out["armor"] = {"A": A, "B": B, "row": step.label, "source": step.source}
    if not out:
        raise _error(rule, None, "expected --material M --thickness T (a barrier) or --armor CATALOG-ID")
    return out


_ARMOR_PARAMS = (_opt("material", "text", "barrier material (catalog)"), _opt("thickness", "length"),
                 _opt("armor", "text", "catalog armor id"))


@formula("coc-ja.armor.table", "coc", "armor value of a barrier or a worn item", *_ARMOR_PARAMS)
def _(s, v):
    return _armor_values(s, v, "coc-ja.armor.table")


@formula("coc-zh.armor.table", "coc-zh", "armor value of a barrier or a worn item", *_ARMOR_PARAMS)
def _(s, v):
    return _armor_values(s, v, "coc-zh.armor.table")


@formula("coc-ja.quickdraw.ready", COC, "can the gun fire in the first DEX cycle?",
         P("str", help="STR"), _opt("required-str", help="the gun's required STR"),
         _opt("single-action", "flag", default=False), _opt("cocked", "flag", default=False),
         _opt("empty-chamber", "flag", default=False))
def _(s, v):
    return {"ready": _coc().ready_first_cycle(STR=v["str"], required_STR=v["required-str"],
                                              single_action=v["single-action"], cocked=v["cocked"],
                                              chambered=not v["empty-chamber"])}


@formula("coc-ja.armor.shotgun-pellets", COC, "mean damage of shot through armor (armor against each die)",
         P("damage", "text", "damage dice, e.g. 4d6"), P("armor"))
def _(s, v):
    try:
        return {"mean_damage": _coc().mean_pellets_after_armor(v["damage"], v["armor"])}
    except (ValueError, KeyError):
        raise _error("coc-ja.armor.shotgun-pellets", "--damage", f"expected dice such as '4d6', found {v['damage']!r}"
                     ) from None


# ---- coc-zh ---------------------------------------------------------------------------------

def _zh():
    from xsys.plugins.coc_zh import rules

    return rules


@formula("coc-zh.resistance", "coc-zh", "resistance table: chance of the active side", P("active"), P("passive"))
def _(s, v):
    return {"chance": _zh().resistance(v["active"], v["passive"])}


@formula("coc-zh.armor.reduction", "coc-zh", "damage taken through armor", P("damage"), P("armor"))
def _(s, v):
    return {"damage_taken": _zh().damage_after_armor(v["damage"], v["armor"])}


@formula("coc-zh.impale", "coc-zh", "highest d100 roll that impales", P("chance", help="attack chance %"))
def _(s, v):
    return {"impale_on_or_below": _zh().impale_threshold(v["chance"])}


@formula("coc-zh.impale.damage", "coc-zh", "damage roll of impales", P("damage", "text", "e.g. 1d6"),
         _opt("hits", default=1), _opt("immune", "flag", default=False))
def _(s, v):
    return {"roll": _zh().impale_roll(v["damage"], v["hits"], v["immune"])}


@formula("coc-zh.impale.stuck", "coc-zh", "chance to pull a stuck weapon out", P("skill", help="weapon skill %"))
def _(s, v):
    return {"chance": _zh().pull_out_chance(v["skill"])}


@formula("coc-zh.dodge", "coc-zh", "chance to dodge", P("dodge", help="Dodge %"), _opt("pow", help="POW"),
         _opt("extreme-danger", "flag", default=False))
def _(s, v):
    return {"chance": _zh().dodge_chance(v["dodge"], v["pow"], v["extreme-danger"])}


@formula("coc-zh.darkness", "coc-zh", "skill chance in poor light", P("chance", help="chance %"), P("light", "lux"))
def _(s, v):
    return {"chance": _zh().darkness_chance(v["chance"], float(v["light"])),
            "visibility": _zh().darkness_level(float(v["light"]))}


@formula("coc-zh.knockout", "coc-zh", "knockout: chance of unconsciousness and mean damage taken",
         P("damage", "text", "damage roll, e.g. 1d6+1d4, or a number"), P("hp", help="target's HP"),
         _opt("armor", default=0))
def _(s, v):
    r = _zh()
    dmg = v["damage"].strip()
    if dmg.isdigit():
        d = r.damage_after_armor(int(dmg), v["armor"])
        k = r.knockout_chance(d, v["hp"])
        return {"knockout": k, "damage_if_knocked_out": r.knockout_damage(d), "damage_otherwise": d}
    try:
        return dict(r.knockout_outcome(dmg, v["hp"], v["armor"]))
    except (ValueError, KeyError) as exc:
        raise _error("coc-zh.knockout", "--damage", f"expected dice such as '1d6+1d4' or a number, found {dmg!r}"
                     ) from exc


@formula("coc-zh.knockout.recovery", "coc-zh", "chance to wake a victim",
         _opt("first-aid", help="First Aid %"), _opt("medicine", help="Medicine %"))
def _(s, v):
    return {"chance": _zh().wake_chance(v["first-aid"], v["medicine"])}


@formula("coc-zh.partial-concealment", "coc-zh", "chance to pinpoint a hard-to-find target",
         P("spot-hidden"), P("int", help="INT"))
def _(s, v):
    return {"chance": _zh().find_chance(v["spot-hidden"], v["int"])}


@formula("coc-zh.surprise", "coc-zh", "a surprised defender's DEX", P("dex", help="DEX"))
def _(s, v):
    return {"dex": _zh().surprised_DEX(v["dex"])}


@formula("coc-zh.parry.basics", "coc-zh", "parry chance", P("skill", help="skill with the parrying object %"))
def _(s, v):
    return {"chance": _zh().parry_chance(v["skill"])}


@formula("coc-zh.parry.grapple", "coc-zh", "chance to parry by grappling", P("grapple", help="Grapple %"))
def _(s, v):
    return {"chance": _zh().grapple_parry_chance(v["grapple"])}


@formula("coc-zh.parry.object-damage", "coc-zh", "damage to the parrying object and the defender",
         P("damage"), P("object-hp"), _opt("firearm", "flag", default=False))
def _(s, v):
    return {"outcome": _zh().parry_damage(v["damage"], v["object-hp"], v["firearm"])}


@formula("coc-zh.thrown", "coc-zh", "damage of a thrown object (half damage bonus)",
         P("damage", "text", "e.g. 1d6"), _opt("damage-bonus", "text", default="0", help="e.g. 1d4"))
def _(s, v):
    return {"damage": _zh().thrown_damage_distribution(v["damage"], v["damage-bonus"])}


# ---- nwod -----------------------------------------------------------------------------------

def _nwod():
    from xsys.plugins.nwod import system

    return system


@formula("nwod.barrier.penetration", "nwod", "shooting through a barrier",
         P("durability"), _opt("successes", help="successes of the attack roll"),
         _opt("pool", help="attack pool (instead of --successes: exact odds)"), _opt("armor", default=0),
         _opt("structure"), _opt("damage-taken", default=0), _opt("armor-piercing", default=0))
def _(s, v):
    n = _nwod()
    if (v["successes"] is None) == (v["pool"] is None):
        raise _error("nwod.barrier.penetration", None, "expected one of --successes N or --pool N")
    if v["successes"] is not None:
        p = n.penetration(v["successes"], v["durability"], v["armor"], v["structure"], v["damage-taken"],
                          v["armor-piercing"])
        return {"penetrates": p.penetrates, "excess": p.excess, "structure": p.structure,
                "structure_damage": p.structure_damage, "structure_left": p.structure_left,
                "destroyed": p.destroyed, "damage_pool": p.damage_pool, "chance_die": p.chance_die}
    first = n.successes(v["pool"])
    armor = max(0, v["armor"] - v["armor-piercing"])
    return {"hit_chance": n.barrier_hit(first, v["durability"], armor),
            "mean_damage": n.barrier_damage_mean(first, v["durability"], armor),
            "damage": n.barrier_damage(first, v["durability"], armor)}


@formula("nwod.cover.both", "nwod", "both sides in cover",
         P("attacker-cover", "choice", choices=lambda: list(_nwod().CONCEALMENT)),
         P("target-cover", "choice", choices=lambda: list(_nwod().CONCEALMENT)))
def _(s, v):
    t, f, total = _nwod().cover_penalty(v["attacker-cover"], v["target-cover"])
    return {"target_cover": t, "firing_from": f, "total": total}


@formula("nwod.cover.firing-from", "nwod", "penalty when firing from cover", P("rating", help="cover rating, e.g. -3"))
def _(s, v):
    return {"penalty": _nwod().firing_from(v["rating"])}


@formula("nwod.pool", "nwod", "successes of a dice pool", P("dice"), _opt("again", default=10))
def _(s, v):
    n = _nwod()
    return {"chance": n.p_hit(v["dice"], v["again"]), "successes": n.successes(v["dice"], v["again"])}


@formula("nwod.barrier.durability", "nwod", "Durability, Size and Structure of a barrier",
         P("material", "text", "barrier material (catalog)"), P("thickness", "length"))
def _(s, v):
    from xsys.core.model import Barrier

    try:
        stops = _nwod().barrier_stops(Barrier(material=v["material"], thickness=v["thickness"]))
    except XsysError as exc:
        raise _error("nwod.barrier.durability", "--material", exc.line()) from None
    lads = s.ladders()
    d = int(lads["barrier_durability"].step_for(stops).native)
    size = int(lads["barrier_size"].step_for(stops).native)
    return {"stops_J": stops, "durability": d, "size": size, "structure": d + size}


alias("nwod.barrier.size", "nwod.barrier.durability")
alias("nwod.object.structure", "nwod.barrier.durability")


# ---- pl-trudnosc ----------------------------------------------------------------------------

def _pl():
    from xsys.plugins.pl_trudnosc import system

    return system


def _mechanic(s, v):
    if v.get("mechanic"):
        return _pl().MECHANICS[v["mechanic"]]
    return s.mechanic


def _mech_param() -> Param:
    return _opt("mechanic", "choice", "dice mechanic (default: the system's)", choices=lambda: sorted(_pl().MECHANICS))


def _outcome(o) -> dict[str, Any]:
    out: dict[str, Any] = {"chance": o.chance, "trudnosc": o.trudnosc, "pool": o.pool}
    if o.effect:
        out["effect"] = o.effect
    return out


@formula("pl.suppress", "pl-trudnosc", "chance the target ignores suppressive fire (Odwaga vs 15 + rounds)",
         P("odwaga", help="target's Odwaga"), P("rounds", "ints", "rounds fired (comma-separated per shooter)"),
         _mech_param())
def _(s, v):
    try:
        return _outcome(_pl().suppression(_mechanic(s, v), v["odwaga"], *v["rounds"]))
    except XsysError as exc:
        raise _error("pl.suppress", "--rounds", exc.line()) from None


@formula("pl.observe", "pl-trudnosc", "observe the battlefield", P("percepcja"), P("czujnosc"),
         _opt("hidden", default=0), _opt("trudnosc"), _mech_param())
def _(s, v):
    return _outcome(_pl().observe(_mechanic(s, v), v["percepcja"], v["czujnosc"], v["hidden"], v["trudnosc"]))


@formula("pl.grenade", "pl-trudnosc", "throw a grenade", P("motoryka"), P("rzucanie"), P("distance", "length"),
         _opt("in-radius", default=1), _opt("room-size", "length"), _opt("blast-radius", "length"),
         _opt("room-occupants", default=0), _opt("room-hidden", default=0), _mech_param())
def _(s, v):
    f = (lambda x: None if x is None else float(x))
    return _outcome(_pl().grenade(_mechanic(s, v), v["motoryka"], v["rzucanie"], distance=float(v["distance"]),
                                  in_radius=v["in-radius"], room_size=f(v["room-size"]),
                                  blast_radius=f(v["blast-radius"]), room_occupants=v["room-occupants"],
                                  room_hidden=v["room-hidden"]))


@formula("pl.aim", "pl-trudnosc", "extra dice and Trudność change after aiming turns", P("turns"))
def _(s, v):
    dice, diff = _pl().aim_modifiers(v["turns"])
    return {"extra_dice": dice, "trudnosc_change": diff}


@formula("pl.difficulty.range", "pl-trudnosc", "Trudność for range", P("distance", "length"),
         _opt("weapon", "choice", default="short", choices=lambda: ["short", "long"]))
def _(s, v):
    return {"modifier": _pl().range_modifier(float(v["distance"]), v["weapon"])}


def _pl_move(kind: str):
    def run(s, v):
        sysm = _pl()
        dist, speed = sysm._movement(v.get("motoryka") or 1, v.get("atletyka") or 1, bool(v.get("trained")))
        return {"per_tura": f"{float(dist[kind]):g} m", "speed": f"{float(speed[kind]):.3g} m/s (tura = 3 s, assumed)"}
    return run


formula("pl.sprint", "pl-trudnosc", "sprint distance per tura: 2 x Motoryka (metres assumed)",
        P("motoryka"))(_pl_move("sprint"))
formula("pl.crawl", "pl-trudnosc", "crawl distance per tura: 1 m, 2 m with military training",
        _opt("trained", "choice", default="no", choices=lambda: ["no", "yes"]))(
    lambda s, v: _pl_move("crawl")(s, {**v, "trained": v["trained"] == "yes"}))
formula("pl.swim", "pl-trudnosc", "swim distance per tura: Atletyka (metres assumed)", P("atletyka"))(_pl_move("swim"))


@formula("pl.resolution", "pl-trudnosc", "chance to pass a test \"trait with skill\" against Trudność",
         P("trait"), P("skill"), P("trudnosc"), _opt("extra-dice", default=0), _mech_param())
def _(s, v):
    m = _mechanic(s, v)
    dist = m.successes(v["trait"], v["skill"], v["extra-dice"], v["trudnosc"])
    return {"chance": _pl().pass_chance(dist), "pool": m.pool(v["trait"], v["skill"], v["extra-dice"]),
            "successes": dist}


# ---- gurps ----------------------------------------------------------------------------------

def _gurps():
    from xsys.plugins.gurps import system

    return system


def _gurps_tables() -> dict[str, Any]:
    try:
        return _gurps().rule_tables()
    except ImportError:  # pragma: no cover - gurps not installed
        return {}


def _gurps_lookup_formula(rule: str) -> Formula:
    def run(s, v):
        key: Any
        if v["roll"] is not None:
            key = v["roll"] + v["margin"]
        elif v["key"] is not None:
            key = v["key"]
        else:
            raise _error(rule, None, "expected --roll N (3d6 roll) or --key KEY")
        try:
            return {"row": dict(_gurps().lookup(rule, key))}
        except XsysError as exc:
            raise _error(rule, "--roll" if v["roll"] is not None else "--key", exc.line()) from None

    return Formula(rule, ("gurps",), "a row of the table, by 3d6 roll or by key",
                   (_opt("roll", help="3d6 roll"), _opt("margin", default=0, help="margin of failure (gurps.fright)"),
                    _opt("key", "text", "row key")), run)


@formula("gurps.ssr", "gurps", "speed/range and size modifiers", P("distance", "length"),
         _opt("speed", "speed", "target speed", default=None), _opt("size", "length", "target height"))
def _(s, v):
    g = _gurps()
    lad = s.ladders()["ssr"]
    sv = g.speed_value(float(v["speed"])) if v["speed"] is not None else Fraction(0)
    row = lad.steps[g.ssr_index(lad, g.exact(float(v["distance"])) + sv)]
    out: dict[str, Any] = {"speed_range": row.native, "row_m": row.at}
    if v["size"] is not None:
        srow = lad.steps[g.ssr_index(lad, g.exact(float(v["size"])))]
        out["size"] = -srow.native
    return out


@formula("gurps.height", "gurps", "effective distance shooting up or down", P("distance", "length"),
         P("elevation", "length", "shooter above target (negative: below)", signed=True))
def _(s, v):
    return {"effective_distance_m": _gurps().effective_distance(float(v["distance"]), float(v["elevation"]))}


@formula("gurps.resolution", "gurps", "chance of 3d6 <= effective skill", P("skill", help="effective skill"))
def _(s, v):
    return {"chance": _gurps().success(v["skill"])}


@formula("gurps.derived", "gurps", "derived characteristics", P("st"), P("dx"), P("iq"), P("ht"))
def _(s, v):
    return dict(_gurps().derive(v["st"], v["dx"], v["iq"], v["ht"]))


# ---- what the plugins say about each rule -------------------------------------------------

@dataclass
class RuleInfo:
    id: str
    title: str = ""
    text: str = ""
    sources: set[str] = field(default_factory=set)
    tables: list[str] = field(default_factory=list)
    rows: list[dict[str, Any]] = field(default_factory=list)

    def add_table(self, name: str) -> None:
        if name not in self.tables:
            self.tables.append(name)

    @property
    def source(self) -> str:
        if not self.sources:
            return ""
        if len(self.sources) == 1:
            return next(iter(self.sources))
        return "/".join(sorted(self.sources, key=lambda s: (s != "seed", s)))


_README_ID = re.compile(r"^`([a-z][a-z0-9_-]*\.[a-z0-9_.-]+)`")
_README_BULLET = re.compile(r"`([a-z][a-z0-9_-]*\.[a-z0-9_.-]+)`\s*[—–]\s*([^;`]+(?:`[^`]*`[^;`]*)*)")


def _readme_rules(system: Any) -> dict[str, tuple[str, str]]:
    """{rule ID: (text, source or '')} from the system's package README.md."""
    from importlib import resources

    pkg = type(system).__module__.rpartition(".")[0]
    try:
        text = resources.files(pkg).joinpath("README.md").read_text(encoding="utf-8")
    except (OSError, ModuleNotFoundError, TypeError, ValueError):
        return {}
    lines: list[str] = []
    for line in text.splitlines():  # a bullet's continuation lines are part of it
        if lines and line.startswith("  ") and line.strip() and lines[-1].lstrip().startswith("- "):
            lines[-1] += " " + line.strip()
        else:
            lines.append(line)
    out: dict[str, tuple[str, str]] = {}
    mode = ""
    for line in lines:
        low = line.lower()
        if not line.startswith("|") and not line.lstrip().startswith("- "):
            # the heading or paragraph before a rule table says where its rules come from
            if any(k in low for k in ("from the digest", "from the text", "from the seed", 'source = "seed"',
                                      "(`seed`)")):
                mode = "seed"
            elif any(k in low for k in ("`assumed`", 'source = "assumed"', "assumed rules", "our own choices")):
                mode = "assumed"
            elif line.startswith("#"):
                mode = ""
            continue
        found: list[tuple[str, str]] = []
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            m = _README_ID.match(cells[0]) if cells else None
            if m and len(cells) > 1:
                desc = cells[1]
                if len(cells) > 2 and (desc.startswith("`") or desc.startswith("ladder ")) and len(desc) < 60:
                    desc = cells[2]  # a "where" column (`Gurps._evaluate`): the next one says what
                found.append((m.group(1), desc))
        else:
            for bm in _README_BULLET.finditer(line):
                found.append((bm.group(1), bm.group(2)))
        for rid, desc in found:
            desc = desc.strip().rstrip(";").strip()
            if rid not in out and desc:
                out[rid] = (desc, mode)
    return out


def _short(text: str) -> str:
    """A description's first sentence, whole: the listing wraps a long title, it never cuts one."""
    text = re.sub(r"\s+", " ", text.replace("**", "")).strip()
    return re.split(r"(?<=[a-z0-9)%][.])\s", text, maxsplit=1)[0].rstrip(".;")


def _row_title(row: Mapping[str, Any]) -> str:
    for k in ("name", "effect", "label", "text"):
        if row.get(k):
            return str(row[k])
    rest = [f"{k} {v}" for k, v in row.items() if k != "key" and v not in ("", None)]
    return f"{str(row.get('key', '')).replace('_', ' ')}: " + ", ".join(rest)


def rule_infos(system: Any) -> dict[str, RuleInfo]:
    """Everything the installed plugin carries about each of its rule IDs."""
    key = system.key
    ids = set(system.rule_ids())
    infos: dict[str, RuleInfo] = {}

    def info(rid: str) -> RuleInfo:
        if rid not in infos:
            infos[rid] = RuleInfo(rid)
        return infos[rid]

    # a rule register: tables()["rule"] = {id: {text, source}}
    tables: Any = {}
    for owner in (system, sys.modules.get(type(system).__module__)):
        get = getattr(owner, "tables", None)
        if callable(get):
            try:
                tables = get()
                break
            except Exception:  # a tables() that wants arguments: not a register
                continue
    register = tables.get("rule") if isinstance(tables, Mapping) else None
    if isinstance(register, Mapping):
        for rid, entry in register.items():
            if isinstance(entry, Mapping):
                i = info(rid)
                i.text = str(entry.get("text", "")) or i.text
                if entry.get("source"):
                    i.sources.add(str(entry["source"]))
                i.add_table("tables.toml [rule]")
    if isinstance(tables, Mapping):
        for a in tables.get("actions", []) or []:
            if isinstance(a, Mapping) and a.get("id"):
                i = info(a["id"])
                i.title = i.title or str(a.get("english") or a.get("polish") or "")
                i.add_table("tables.toml [[actions]]")
                i.rows.append({k: a[k] for k in a if k != "id"})
    # GURPS data tables
    if key == "gurps":
        for rid, t in _gurps_tables().items():
            i = info(rid)
            i.title = str(t.get("title", ""))
            i.text = i.text or " ".join(x for x in (str(t.get("title", "")), f"({t['page']})" if t.get("page") else "",
                                                  str(t.get("note", ""))) if x)
            if t.get("source"):
                i.sources.add(str(t["source"]))
            i.add_table(f'rules.toml [table."{rid}"]')
            i.rows.extend(dict(r) for r in t.get("rows", []))
            for r in t.get("rows", []):
                if "key" in r:
                    ri = info(f"{rid}.{r['key']}")
                    ri.title = _row_title(r)
                    if t.get("source"):
                        ri.sources.add(str(t["source"]))
                    ri.add_table(f'rules.toml [table."{rid}"]')
                    ri.rows.append(dict(r))
    # ladders: every step names its rule and source
    try:
        ladders = system.ladders()
    except Exception:
        ladders = {}
    for name, lad in ladders.items():
        for st in lad.steps:
            if not st.rule:
                continue
            i = info(st.rule)
            i.sources.add(st.source)
            i.add_table(f"ladder {name}")
            row = st.as_dict()
            row["ladder"] = name
            row["axis"] = lad.axis
            row["rounding"] = lad.rounding  # which row a value between two rows takes
            i.rows.append(row)
    # README rule tables, for what nothing else describes
    for rid, (desc, mode) in _readme_rules(system).items():
        if rid not in ids and rid not in infos:
            continue
        i = info(rid)
        if not i.text:
            i.text = desc
        if mode and not i.sources:
            i.sources.add(mode)
        if not i.tables:
            i.add_table("README.md")
    for rid in ids:
        info(rid)
    for rid in formula_ids(key):
        i = info(rid)
        f = formula_for(key, rid)
        if f is not None and not i.text:
            i.text = f.summary
        covered = [infos[c] for c in COVERS.get(rid, ()) if c in infos]
        if covered and not i.sources:
            i.text += " (evaluates " + ", ".join(c.id for c in covered) + ")"
            for c in covered:
                i.sources |= c.sources
                for t in c.tables:
                    i.add_table(t)
    for i in infos.values():
        if not i.title and i.text:
            i.title = _short(i.text)
        elif not i.title and i.rows:  # a ladder nothing describes: its rows in brief
            labels = [str(r.get("label") or r.get("native")) for r in i.rows[:6]]
            i.title = _short(f"{i.tables[0]}: " + ", ".join(labels))
    return {rid: infos[rid] for rid in sorted(infos)}


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
    if hasattr(x, "__dataclass_fields__"):
        return {k: plain(getattr(x, k)) for k in x.__dataclass_fields__}
    return str(x)


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
    if hasattr(x, "__dataclass_fields__"):
        return text_value({k: getattr(x, k) for k in x.__dataclass_fields__})
    return str(x)


# ---- the command ---------------------------------------------------------------------------

def _registry():
    from xsys.core.registry import default_registry

    return default_registry()


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
            f = formula_for(s.key, rid)
            rules.append({"id": rid, "title": i.title, "source": i.source, "tables": i.tables,
                          "formula": f.usage() if f else None})
        out["systems"].append({"system": k, "name": getattr(s, "name", k), "rules": rules})
    return out


def describe(system_key: str, rule: str) -> dict[str, Any]:
    s = _registry().system(system_key)
    infos = rule_infos(s)
    f = formula_for(s.key, rule)
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
        out["formula"] = f.describe()
    return out


def evaluate(system_key: str, rule: str, args: Sequence[str]) -> dict[str, Any]:
    s = _registry().system(system_key)
    f = formula_for(s.key, rule)
    if f is None:
        if rule not in rule_infos(s):
            describe(system_key, rule)  # raises: unknown rule
        raise _error(rule, None, f"not a formula: it takes no parameters (formulas of {system_key}: "
                                 f"{', '.join(formula_ids(system_key))})")
    values = f.parse_args(args)
    try:
        result = f.run(s, values)
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
                "tables": [], "rows": [], "formula": f.describe()}
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
