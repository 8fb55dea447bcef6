"""A native shot's way to the neutral model and back, done once from what the system declares.

A system whose shot document states the common things in the common way (a weapon line, the
shooter's level in the skill that fires it, his characteristics, a distance, and words on its
own ladders for the cover, the light, the movement, the aim and the posture) declares a
:class:`ShotSheet`: which field holds what, and which ladder reads a word (:class:`ShotWord`).
The generic :func:`shot_to_neutral` and :func:`shot_from_neutral` (the default
``System.shot_to_neutral`` / ``shot_from_neutral`` of such a system) then convert it: a word
through its ladder's representative one way and the step of the neutral value the other, so a
native shot survives native -> neutral -> native unchanged; the weapon and armor lines through
the system's own ``weapon_to_neutral`` ... hooks; the level through the equating with the
shooter's characteristics as its context; what is the system's own through its
``shot_own_to_neutral`` / ``shot_own_from_neutral`` hooks. What the shot cannot hold
(elevation, a burst, a moving shooter) and what a word rounds, the core's loss audit finds by
reading the written shot back: a plugin does not say it again.
"""

from __future__ import annotations

import functools
import re
import typing
from typing import TYPE_CHECKING, Any, Mapping

import msgspec

from .errors import InputError
from .model import Barrier, Cover, Light, MeleeWeapon, Shooter, Shot, Target
from .trace import Collector, Result
from .units import Duration, Illuminance, Length, Speed
from .vocab import POSTURE_HEIGHT, firearm_skill_for

if TYPE_CHECKING:
    from .ladder import Ladder
    from .system import System


class ShotWord(msgspec.Struct, frozen=True):
    """A field of a native shot that is a step of one of the system's ladders over one neutral
    quantity (``neutral``, one of :data:`WORD_PATHS`): read as the step's representative value,
    written as the step the neutral value falls on (a posture by its silhouette height,
    core.vocab.POSTURE_HEIGHT). ``form``: "flag" (a yes or no: the step's native number is at
    least 1), "native" (that number) or "label" (the step's label, a word of the shot document).
    ``below``: the loss (``rounded``, under ``rule``) a neutral value other than 0 that falls on
    the step of native 0 says, formatted with ``value`` (in the quantity's unit); "" says none.
    ``beyond``: native words the ladder has no row for, each with the neutral value it reads as
    (a target hidden behind cover: exposure 0); that value is written as its word.
    ``assumed``: why the word's value is an assumption (the rule text gives no such table): said
    as an ``assumed`` loss under ``assumed_rule`` wherever the field is read or written other
    than ``plain``. ``names``: the field holds a name for the row's native number (GURPS's
    exposure "half" for -3), each name with its number; a row is written as its first name."""

    field: str
    neutral: str
    ladder: str
    form: str = "flag"
    below: str = ""
    rule: str = ""
    beyond: Mapping[str, float] = msgspec.field(default_factory=dict)
    assumed: str = ""
    assumed_rule: str = ""
    plain: Any = None
    names: Mapping[str, Any] = msgspec.field(default_factory=dict)
    at: bool = False


# the neutral quantities a word may state, with their units ("posture": a posture word, by height)
WORD_UNITS: dict[str, Any] = {"shooter.aim_time": Duration, "shooter.speed": Speed, "target.speed": Speed,
                              "target.cover.exposure": float, "light.illuminance": Illuminance,
                              "target.posture": "posture", "shooter.posture": "posture", "burst": int}
WORD_PATHS = tuple(WORD_UNITS)
FORMS = ("flag", "native", "label")


class ShotSheet(msgspec.Struct, frozen=True):
    """Where a system's native shot (its ``shot_type``) keeps what the core converts: attribute
    names of the Struct's fields ("": the shot has no such field)."""

    weapon: str = "weapon"  # a weapon line (System.weapon_to_neutral / shot_weapon_from_neutral)
    skill: str = "skill"  # the shooter's level in the skill that fires the weapon
    distance: str = "distance"  # a Length ("": the system's own, as a range band by its weapon: shot_own_*)
    name: str = "name"
    shooter: str = "shooter"  # the shooter's name
    target: str = "target"  # the target's name
    # native characteristics of the shooter (System.characteristics() keys): read through their
    # ladders, and the context of the skill's level; one whose field defaults to None may be left
    # unstated both ways (else the adult median is written, said)
    characteristics: tuple[str, ...] = ()
    # aiming: (field, seconds one unit of it takes, the most units it holds), and the rule it cites
    aim: tuple[str, float, int] | None = None
    aim_rule: str = ""
    # the target's movement: (field, seconds): a Length moved in that many seconds
    target_movement: tuple[str, float] | None = None
    # words on the system's own ladders (System.ladders()): (field, ladder name); a word is its
    # step's label, read as the step's representative value (the cover: the share that shows)
    cover: tuple[str, str] | None = None
    light: tuple[str, str] | None = None
    aids: str = ""  # the vision aids (a list of vocab.VisionAid, or of the words of ``aid_words``)
    aid_words: Mapping[str, str] = msgspec.field(default_factory=dict)  # a native aid word -> its VisionAid
    # what a target in full cover is shot through: a neutral Barrier, or the shot's own Struct of
    # the same ``material`` and ``thickness``
    barrier: str = ""
    target_armor: str = ""  # a list of armor lines (System.armor_to_neutral / armor_from_neutral)
    # the target's posture: its field, and the native word a neutral posture is written as (a
    # posture not named is written as itself); a native word reads as the neutral posture of
    # the same name
    target_posture: str = ""
    posture_written: Mapping[str, str] = msgspec.field(default_factory=dict)
    # more words on the system's ladders, each over a neutral quantity (ShotWord)
    words: tuple[ShotWord, ...] = ()
    # rules the shooter's level cites beside its skill's (System.competence_rule): its check's
    skill_rules: tuple[str, ...] = ()
    # the field naming the skill the shooter uses, where the shot states one (else the weapon line's
    # ``skill``): read as the skill of the weapon's class, said merged where it is another
    stated_skill: str = ""
    # fields that hold a neutral value as it is, both ways: native field -> the neutral shot's
    # dotted path (``shooter_speed``: ``shooter.speed``)
    same: Mapping[str, str] = msgspec.field(default_factory=dict)
    # fields the neutral model has no place for, each with the rule it cites: read, one other than
    # its default is said (unsupported-field: the system's own check keeps it)
    native_only: Mapping[str, str] = msgspec.field(default_factory=dict)


def check_words(owner: str, words: tuple[ShotWord, ...], shot_type: Any, paths: tuple[str, ...] = WORD_PATHS) -> None:
    """Words naming a field the shot has not, a neutral quantity no word may state or a form
    not known: one clear error at class definition, not mid-conversion."""
    fields = set(getattr(shot_type, "__struct_fields__", ()))
    for w in words:
        wrong = ("its field" if w.field not in fields else "its neutral path" if w.neutral not in paths
                 else "its form" if w.form not in FORMS else "")
        if wrong:
            raise TypeError(f"{owner}: {w!r}: {wrong} is not one of "
                            + ", ".join(sorted(fields) if wrong == "its field" else paths
                                        if wrong == "its neutral path" else FORMS))


def check(system: type) -> None:
    """A declared shot sheet names fields its ``shot_type`` has: one clear error at class definition
    (of the class that declares the one or the other, once both are known)."""
    sheet = system.shot_sheet
    if sheet is None or system.shot_type is None or not ({"shot_sheet", "shot_type"} & set(system.__dict__)):
        return
    if not isinstance(sheet, ShotSheet):
        raise TypeError(f"{system.__name__}.shot_sheet must be an xsys.core.shotsheet.ShotSheet")
    fields = set(getattr(system.shot_type, "__struct_fields__", ()))
    named = [sheet.weapon, sheet.skill, sheet.distance, sheet.name, sheet.shooter, sheet.target, *sheet.characteristics,
             *(f[0] for f in (sheet.aim, sheet.target_movement, sheet.cover, sheet.light) if f),
             sheet.aids, sheet.barrier, sheet.target_armor, sheet.target_posture, sheet.stated_skill, *sheet.same,
             *sheet.native_only]
    missing = [f for f in named if f and f not in fields]
    if missing:
        raise TypeError(f"{system.__name__}.shot_sheet names fields its shot_type has not: {', '.join(missing)}")
    paths = {"shooter": Shooter, "target": Target, "cover": Cover, "light": Light}
    for path in sheet.same.values():
        typ: Any = Shot
        for part in path.split("."):
            if part not in getattr(typ, "__struct_fields__", ()):
                raise TypeError(f"{system.__name__}.shot_sheet.same: {path!r} is no path of the neutral shot")
            typ = paths.get(part)
    check_words(f"{system.__name__}.shot_sheet.words", sheet.words, system.shot_type)


# ---- words --------------------------------------------------------------------------------

def _nearest_posture(height: float) -> str:
    return min(POSTURE_HEIGHT, key=lambda p: abs(POSTURE_HEIGHT[p] - height))


def _shown(path: str, value: Any) -> str:
    unit = WORD_UNITS.get(path, float)
    if unit == "posture" or isinstance(value, str):
        return str(value)
    return f"{value:g}" if unit is float else str(unit(float(value)))


def words_to_neutral(words: tuple[ShotWord, ...], shot: Any, ladders: Mapping[str, "Ladder"],
                     col: Collector) -> dict[str, Any]:
    """The native shot's words as neutral values by dotted path (``target.speed``)."""
    at: dict[str, Any] = {}
    for w in words:
        value = getattr(shot, w.field)
        if w.form == "label" and value in w.beyond:
            x = float(w.beyond[value])
        else:
            lad = ladders[w.ladder]
            step = lad.step_labelled(value) if w.form == "label" else lad.step_of(w.names[value] if w.names else int(value))
            x = float(step.at if w.at else step.rep)
        unit = WORD_UNITS.get(w.neutral, float)
        at[w.neutral] = _nearest_posture(x) if unit == "posture" else unit(x)
        if w.assumed and value != w.plain:
            col.loss("assumed", f"$.{w.field}", f"{w.field} {value}: {_shown(w.neutral, at[w.neutral])} "
                     f"({w.assumed})", w.assumed_rule or w.rule)
    return at


def words_from_neutral(words: tuple[ShotWord, ...], shot: Shot, ladders: Mapping[str, "Ladder"], col: Collector,
                       shot_type: Any = None) -> dict[str, Any]:
    """The neutral shot's quantities as the native shot's words, by field; a label as the
    shot type's own string where the field is a Literal (msgspec leaves out a default only
    when it is that very object)."""
    out: dict[str, Any] = {}
    for w in words:
        value: Any = shot
        for name in w.neutral.split("."):
            value = getattr(value, name)
        x = POSTURE_HEIGHT[value] if WORD_UNITS.get(w.neutral) == "posture" else float(value)
        word = next((k for k, v in w.beyond.items() if float(v) == x), None)
        if word is None:
            step = ladders[w.ladder].step_for(x)
            if w.below and x and not step.native:
                col.loss("rounded", f"$.{w.neutral}", w.below.format(value=x), w.rule)
            word = step.label if w.form == "label" else step.native >= 1 if w.form == "flag" else \
                next(k for k, v in w.names.items() if v == step.native) if w.names else step.native
        if isinstance(word, str) and shot_type is not None:
            word = _literal_string(shot_type, w.field, word)
        out[w.field] = word
        if w.assumed and word != w.plain:
            col.loss("assumed", f"$.{w.neutral}", f"{_shown(w.neutral, value)} is written as {w.field} {word} "
                     f"({w.assumed})", w.assumed_rule or w.rule)
    return out


def shot_rule(system: "System", path: str, value: Any, shot: Any = None) -> str:
    """The rule a loss at the neutral shot's `path` (``shooter.aim_time``, ``target.armor[0].stops``)
    cites where the system wrote the neutral value `value` and it reads back as another ("": none
    known): a word's own rule, else its ladder's at the step the value falls on; else the rule the
    system's ``shot_rules`` gives the path's nearest enclosing part; the shooter's level, the rule
    its skill is read by (the skill of the shot's weapon class)."""
    sheet = system.shot_sheet
    for w in sheet.words if sheet is not None else ():
        if w.neutral != path:
            continue
        if w.rule:
            return w.rule
        lad = _ladders(system).get(w.ladder)
        if lad is None:
            return ""
        try:
            x = POSTURE_HEIGHT[value] if WORD_UNITS.get(path) == "posture" else float(value)
        except (KeyError, TypeError, ValueError):
            return lad.steps[0].rule
        return lad.step_for(x).rule
    parts = re.sub(r"\[\d+\]", "", path).split(".")
    rules = system.shot_rules
    for n in range(len(parts), 0, -1):
        rule = rules.get(".".join(parts[:n]))
        if rule:
            return rule
    if path == "shooter.skill" and shot is not None:
        return system.competence_rule(system.skill_for_weapon(shot.weapon.weapon_class))
    return ""


@functools.cache
def _defaults(shot_type: Any) -> dict[str, Any]:
    """Each field's default (a factory's value), read once per shot type (msgspec's field
    information resolves the annotations: too slow to ask per shot)."""
    return {f.name: f.default_factory() if f.default_factory is not msgspec.NODEFAULT else f.default
            for f in msgspec.structs.fields(shot_type)}


@functools.cache
def _literals(shot_type: Any) -> dict[str, tuple[Any, ...]]:
    return {f.name: _literal_values(f.type) for f in msgspec.structs.fields(shot_type)}


def _literal_string(shot_type: Any, field: str, word: str) -> str:
    return next((v for v in _literals(shot_type).get(field, ()) if v == word), word)


def _literal_values(tp: Any) -> tuple[Any, ...]:
    while typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    if typing.get_origin(tp) is typing.Literal:
        return typing.get_args(tp)
    return ()


_PARTS = {"shooter": Shooter, "target": Target, "cover": Cover, "light": Light}


def _set(tree: dict[str, Any], path: str, value: Any) -> None:
    """`value` at the dotted `path` of a tree of a shot's parts (a later value wins; a whole part
    set replaces the fields set in it before)."""
    *parents, last = path.split(".")
    for name in parents:
        sub = tree.get(name)
        if not isinstance(sub, dict):  # a whole part stated before: its fields, to set one of them
            sub = tree[name] = {f: getattr(sub, f) for f in sub.__struct_fields__} if sub is not None else {}
        tree = sub
    tree[last] = value


def _build(typ: Any, tree: dict[str, Any]) -> Any:
    """The Struct `typ` of a tree of its fields, each part built once from its own."""
    return typ(**{k: _build(_PARTS[k], v) if isinstance(v, dict) and k in _PARTS else v for k, v in tree.items()})


# ---- the shot -----------------------------------------------------------------------------

@functools.cache
def _barrier_type(shot_type: Any, field: str) -> Any:
    """The Struct a shot's barrier field holds (the neutral Barrier, or the shot's own of the same
    fields), read once per shot type."""
    tp = next(f.type for f in msgspec.structs.fields(shot_type) if f.name == field)
    return next((a for a in typing.get_args(tp) if a is not type(None)), tp)


def _ladders(system: "System") -> Mapping[str, "Ladder"]:
    """The system's ladders, gathered once per system object (a system's ladders are fixed when
    it is made; some systems build the whole set on each ``ladders()`` call)."""
    got = system.__dict__.get("_xsys_shot_ladders")
    if got is None:
        got = system.__dict__["_xsys_shot_ladders"] = system.ladders()
    return got


def _word(ladder: "Ladder", label: str, system: "System", name: str, path: str) -> float:
    for step in ladder.steps:
        if step.label == label:
            return float(step.rep)
    raise InputError(f"not a word of {system.key}'s {name} table", path=path,
                     expected=", ".join(repr(st.label) for st in ladder.steps), found=repr(label))


def _get(s: Any, name: str, default: Any = None) -> Any:
    return getattr(s, name) if name else default


def shot_to_neutral(system: "System", s: Any) -> Result[Shot]:
    """A native shot as the neutral one, by the system's ``shot_sheet``."""
    sh: ShotSheet = system.shot_sheet  # type: ignore[assignment]
    col = Collector(system.key)
    lad = _ladders(system)
    weapon = system.shot_weapon_to_neutral(s, col)
    if isinstance(weapon, MeleeWeapon):
        raise InputError("a shot needs a ranged weapon", path=f"$.{sh.weapon}", found=repr(weapon.name))
    chars = {k: v for k in sh.characteristics if (v := getattr(s, k)) is not None}
    cls = weapon.weapon_class
    skill = system.skill_for_weapon(cls)
    rule = system.competence_rule(skill)
    if sh.stated_skill:
        stated = getattr(s, sh.stated_skill) or getattr(getattr(s, sh.weapon), "skill", None)
        if stated and stated != skill:
            col.loss("merged", f"$.{sh.stated_skill}", f"{stated} with a {cls}: the neutral shot rolls {skill}", rule)
    key = firearm_skill_for(cls)
    level = getattr(s, sh.skill)
    ctx = {**chars, "@key": key}
    competence = system.competence(skill, level, ctx)
    col.step(f"$.{sh.skill}", system.level_text(skill, level), f"{key} competence {competence:.3f}",
             rules=list(dict.fromkeys([rule, *sh.skill_rules])), source="assumed",
             note="equated over the battery [core.equating]")
    back = system.level_for(skill, competence, ctx)
    if back != level:
        col.loss("rounded", f"$.{sh.skill}", f"{system.level_text(skill, level)} has the same {key} competence as "
                 f"{system.level_text(skill, back)}, which a neutral shot converts back to", rule)
    default_of = _defaults(system.shot_type)
    for f, why in sh.native_only.items():
        v = getattr(s, f)
        if v != default_of.get(f):
            col.loss("unsupported-field", f"$.{f}", f"{f} = {v!r} has no neutral equivalent (the {system.key} "
                     "check keeps it)", why)
    shooter = {"name": _get(s, sh.shooter, ""), "skill": competence,
               "characteristics": system.characteristics_to_neutral(chars, col, "$") if chars else {},
               "aim_time": Duration(getattr(s, sh.aim[0]) * sh.aim[1]) if sh.aim else Duration(0.0)}
    light = {"illuminance": Illuminance(_word(lad[sh.light[1]], getattr(s, sh.light[0]), system, sh.light[1],
                                              f"$.{sh.light[0]}")) if sh.light else Illuminance(10_000.0),
             "aids": [sh.aid_words.get(a, a) for a in _get(s, sh.aids, [])]}
    barrier = _get(s, sh.barrier)
    if barrier is not None and not isinstance(barrier, Barrier):
        barrier = Barrier(material=barrier.material, thickness=barrier.thickness)
    cover = {"exposure": _word(lad[sh.cover[1]], getattr(s, sh.cover[0]), system, sh.cover[1], f"$.{sh.cover[0]}")
             if sh.cover else 1.0, "barrier": barrier}
    armor = [system.armor_to_neutral(a, col, f"$.{sh.target_armor}[{i}]")
             for i, a in enumerate(_get(s, sh.target_armor, []))]
    move = sh.target_movement
    target = {"name": _get(s, sh.target, ""), "posture": _get(s, sh.target_posture, "standing"), "cover": cover,
              "speed": Speed(float(getattr(s, move[0])) / move[1]) if move else Speed(0.0), "armor": armor}
    tree = {"name": _get(s, sh.name, ""), "shooter": shooter, "weapon": weapon, "target": target,
            "distance": _get(s, sh.distance, Length(0.0)), "light": light}
    at = {path: getattr(s, f) for f, path in sh.same.items()}
    at.update(words_to_neutral(sh.words, s, lad, col) if sh.words else {})
    at.update(system.shot_own_to_neutral(s, col))
    for path, value in at.items():
        _set(tree, path, value)
    return col.result(_build(Shot, tree))


def shot_from_neutral(system: "System", shot: Shot) -> Result[Any]:
    """The neutral shot as a native one, by the system's ``shot_sheet``: what no field holds is
    left to the loss audit, which reads the written shot back."""
    sh: ShotSheet = system.shot_sheet  # type: ignore[assignment]
    col = Collector(system.key)
    lad = _ladders(system)
    specs = system.characteristics()
    cls = shot.weapon.weapon_class
    default_of = _defaults(system.shot_type)
    given = shot.shooter.characteristics
    stated = {specs[k].neutral: given[specs[k].neutral] for k in sh.characteristics if specs[k].neutral in given}
    chars = {k: v for k, v in system.characteristics_from_neutral(stated, col, "$", default=None).items()
             if k in sh.characteristics} if stated else {}
    for k in sh.characteristics:
        if k not in chars and default_of.get(k, 0) is not None:  # the median adult's, said
            chars.update(system.characteristics_from_neutral({}, col, "$", unstated=set(specs) - {k}))
    weapon = system.shot_weapon_from_neutral(shot, col, f"$.{sh.weapon}")
    out: dict[str, Any] = dict(chars)
    if isinstance(weapon, Mapping):  # a shot that states its weapon in several fields
        out.update(weapon)
        weapon = None
    else:
        out[sh.weapon] = weapon
    # the skill that fires it: a line's own skill that the sheet writes only beside its line (GURPS Axe
    # Throwing for a thrown hatchet), else its class's
    skill = getattr(weapon, "skill", None)
    if skill not in system.line_skills:
        skill = system.skill_for_weapon(cls)
    step = system.skill_ladder(skill, {**chars, "@key": firearm_skill_for(cls)}).step_for(float(shot.shooter.skill))
    col.step(f"$.{sh.skill}", None, f"competence {float(shot.shooter.skill):.3f}", system.level_text(skill, step.native),
             rules=[step.rule], source=step.source, note="equated over the battery [core.equating]")
    out[sh.skill] = step.native
    if sh.distance:
        out[sh.distance] = shot.distance
    barrier = shot.target.cover.barrier
    own = _barrier_type(system.shot_type, sh.barrier) if barrier is not None and sh.barrier else Barrier
    if own is not Barrier:  # the shot's own Struct of a material and a thickness
        barrier = own(material=barrier.material, thickness=barrier.thickness)
    back = {v: k for k, v in sh.aid_words.items()}
    for name, value in ((sh.name, shot.name), (sh.shooter, shot.shooter.name), (sh.target, shot.target.name),
                        (sh.aids, [back.get(a, a) for a in shot.light.aids]), (sh.barrier, barrier),
                        (sh.target_posture, sh.posture_written.get(shot.target.posture, shot.target.posture))):
        if name:
            out[name] = value
    for f, path in sh.same.items():
        value = shot
        for part in path.split("."):
            value = getattr(value, part)
        out[f] = value
    if sh.aim:
        units = float(shot.shooter.aim_time) // sh.aim[1]
        if units > sh.aim[2]:
            col.loss("clamped", "$.shooter.aim_time", f"{Duration(float(shot.shooter.aim_time))} of aim is more than "
                     f"{sh.aim[2]} {sh.aim[0]}; written as {sh.aim[2]}", sh.aim_rule)
        out[sh.aim[0]] = int(min(sh.aim[2], units))
    if sh.target_movement:
        out[sh.target_movement[0]] = Length(float(shot.target.speed) * sh.target_movement[1])
    if sh.cover:
        out[sh.cover[0]] = lad[sh.cover[1]].step_for(shot.target.cover.exposure).label
    if sh.light:
        lx = float(shot.light.illuminance)
        dark = lad[sh.light[1]].step_for(lx)
        col.step(f"$.{sh.light[0]}", f"{lx:g} lx", None, dark.label, rules=[dark.rule], source=dark.source)
        out[sh.light[0]] = dark.label
    if sh.target_armor:
        out[sh.target_armor] = [system.armor_from_neutral(a, col, f"$.target.armor[{i}]")
                                for i, a in enumerate(shot.target.armor)]
    if sh.words:
        out.update(words_from_neutral(sh.words, shot, lad, col, system.shot_type))
    out.update(system.shot_own_from_neutral(shot, col))
    return col.result(system.shot_type(**out))  # type: ignore[misc]


__all__ = ["ShotSheet", "ShotWord", "WORD_PATHS", "check", "check_words", "shot_to_neutral", "shot_from_neutral",
           "shot_rule", "words_from_neutral", "words_to_neutral"]
