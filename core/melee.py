"""The close-combat battery (the method of the firearm equating, core.equating): a brawl or
melee skill is equated over reference close-combat situations, not matched on one unmodified roll.

A close-combat skill has a physical task, so one point of a system's roll curve cannot say what
its levels achieve: nWoD puts Strength in the pool (Strength 5 already succeeds 76% with no
Brawl dots), CoC adds a damage bonus from STR + SIZ outside the roll, GURPS gives the strong
man more damage dice by ST. So, as for firearms, every system answers the same reference
situations (:data:`MELEE_BATTERY`) with its own check (``System.melee_check_at``): its own hit
roll, its own defence rules (a dodge, a parry, nWoD's Defense taken from the pool), its own
light and posture modifiers, its own armor value for the reference jacket and its own damage
(CoC's weapon dice + damage bonus, GURPS thrust/swing by ST, nWoD successes). The measure is the
firearm one (``equating.shot_effect``): the chance that the system's standard adult is down
within three attacks, so a strong man's damage counts the same way in every system. A level's
competence is the mean over the battery, at the NPC's own characteristics (the skill's
``skill_context``: CoC's damage bonus, GURPS ST, nWoD Strength).

Every close-combat skill is measured with one reference weapon, the same in every system: a club
(a cosh, a baton, a cargo hook swung like one). A system's close-combat skills share one number
scale (CoC Fist/Punch 55, Knife 55 and Club 55 are the same hand), so each is measured with the
same club, as every firearm skill is measured on every gun (:data:`MELEE_SKILLS` says why fists
are not the reference for brawl).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, Iterable, Literal, Mapping, Sequence

import msgspec

from .trace import UNWRITTEN_AT_FLOOR

if TYPE_CHECKING:  # pragma: no cover
    from .catalog import Catalog
    from .model import Armor
    from .system import System
    from .trace import Check, Modifier

Defence = Literal["none", "dodge", "parry"]


class MeleeItem(msgspec.Struct, frozen=True):
    """One reference close-combat situation against the system's standard adult.

    ``defence``: what the adult does about the attack: nothing (surprised, unresisting), a
    dodge, or a bare-handed parry, each at a median adult's value in the system's own terms.
    ``illuminance`` is the light on the fight (lx, the shared presets); ``armor`` a catalog
    armor id the adult wears; postures are the shared vocabulary's."""

    name: str
    defence: Defence = "none"
    illuminance: float = 10_000.0
    armor: str | None = None
    attacker_posture: str = "standing"
    target_posture: str = "standing"


# Ten items, easy to hard. Light items are taken against a surprised adult, so that they
# measure the attacker's penalty only (whether a defender in the dark defends worse is a rule
# few systems state). Every item is measured over three attacks in the same situation, so "a
# second attack after a miss" is inside each item.
MELEE_BATTERY: tuple[MeleeItem, ...] = (
    MeleeItem("unresisting (surprised) adult"),
    MeleeItem("adult who dodges", defence="dodge"),
    MeleeItem("adult who parries bare-handed", defence="parry"),
    MeleeItem("full moonlight, surprised adult", illuminance=0.25),
    MeleeItem("total darkness, surprised adult", illuminance=0.0),
    MeleeItem("heavy leather jacket, surprised adult", armor="heavy-leather-jacket"),
    MeleeItem("heavy leather jacket, adult who dodges", defence="dodge", armor="heavy-leather-jacket"),
    MeleeItem("adult on the ground (prone), who dodges", defence="dodge", target_posture="prone"),
    MeleeItem("attacker on the ground (prone), adult who dodges", defence="dodge", attacker_posture="prone"),
    MeleeItem("full moonlight, adult who dodges", defence="dodge", illuminance=0.25),
)

# The exchange an item is measured over. Three blows (the firearm measure's three shots) put
# nobody down with fists in any system (CoC 1d3 against 12 HP, GURPS thrust-2 against 10 HP),
# so every level tied at 0 and only the tie-break told them apart; a fight of MELEE_ATTACKS
# blows in the same situation lets fists and a club reach the standard adult in every system.
MELEE_ATTACKS = 8
# The standard adult goes down to this many landed blows of the reference club by a median
# attacker, in every system (core.equating.close_combat_health): CoC's own ratio, 12 HP of 1d6.
BLOWS_TO_DOWN = 3.5

# Neutral close-combat skill -> the class of its reference weapon (core.model.MeleeClass). One
# close-combat scale, as one scale for every gun (core.equating.firearm_score): brawl is measured
# with the same club as melee. How hard a bare fist hits is each system's weapon rules, converted
# with the weapon line, not the fighter: a CoC fist does 1d3 of 12 HP, a GURPS 3e punch at ST 10
# thrust-2 (1d-4, half a point on average) of 10 HP, an nWoD fist its successes of 7 Health; with
# fists as the reference no GURPS Brawling level could put the adult down in eight blows (every
# level tied), and a CoC Fist/Punch 70 measured past GURPS's best. Strength still counts: the
# club's damage is the attacker's (CoC damage bonus, GURPS swing by ST, nWoD Strength in the pool).
MELEE_SKILLS: dict[str, str] = {"brawl": "club", "melee": "club"}
MELEE_CLASSES = frozenset(MELEE_SKILLS.values())


def reference_class(neutral_skill: str | None) -> str | None:
    """The reference weapon class of a neutral close-combat skill (None: not one)."""
    return MELEE_SKILLS.get(neutral_skill or "")


def reference_armor(catalog_id: str, catalog: "Catalog") -> "Armor":
    """The catalog armor an item's adult wears, as a neutral Armor (every system rates the same
    physical jacket with its own armor table). The caller passes the catalog it converts
    with: the model code does not reach into the plugin registry (that would make the core's
    modules import each other in a circle: system -> melee -> registry -> system). The
    stripped entry is made once per catalog entry (catalog.strip_entry)."""
    from .catalog import strip_entry

    return strip_entry(catalog.armor[catalog_id])  # type: ignore[return-value]


# ---- building a check from a hit chance and a damage distribution ------------------------

def add_dists(a: Mapping[int, Fraction], b: Mapping[int, Fraction], sign: int = 1) -> dict[int, Fraction]:
    """Distribution of a + sign x b."""
    out: dict[int, Fraction] = {}
    for x, p in a.items():
        for y, q in b.items():
            v = x + sign * y
            out[v] = out.get(v, Fraction(0)) + p * q
    return out


def dice_dist(n: int, sides: int, plus: int = 0) -> dict[int, Fraction]:
    """NdS + plus."""
    from .dice import sum_distribution

    return {v + plus: Fraction(p) for v, p in sum_distribution(n, sides).items()}


def attack_check(system: "System", *, stat: str, base: Any, target: Any, needs: str, hit: Fraction,
                 damage: Mapping[int, Fraction], armor: int = 0, modifiers: Sequence["Modifier"] = (),
                 notes: Sequence[str] = (), native: str = "") -> "Check":
    """A close-combat attack as a Check: ``hit`` is the chance the attack lands (after the
    defence), ``damage`` the distribution of one landed attack's damage before ``armor``
    (points subtracted, never below 0). The Check's damage distribution holds misses at 0."""
    from .trace import Check, fraction_text

    dist: dict[int, Fraction] = {0: 1 - hit}
    for v, p in damage.items():
        d = max(0, v - armor)
        dist[d] = dist.get(d, Fraction(0)) + hit * p
    mean = float(sum(k * p for k, p in dist.items()))
    return Check(system=system.key, stat=stat, base=base, modifiers=list(modifiers), target=target, needs=needs,
                 chance=hit, damage_mean=mean,
                 damage={str(k): fraction_text(p) for k, p in sorted(dist.items()) if p},
                 notes=list(notes), native=native)


# ---- which native melee skills a stat block writes --------------------------------------

def skills_only_for(system: "System", neutral: str) -> tuple[str, ...]:
    """`system`'s skills that cover neutral skill `neutral` and nothing else (its melee or brawl
    skills), in its order; found once per system instance (its declared skills do not change)."""
    made = system.__dict__.setdefault("_skills_only_for", {})
    found = made.get(neutral)
    if found is None:
        found = made[neutral] = tuple(k for k, keys in system.skills().items() if tuple(keys) == (neutral,))
    return found


def melee_kind(system: "System", levels: Mapping[str, Any], classes: Mapping[str, str] | None = None) -> str | None:
    """The weapon class the best of a stat block's close-combat skills names (CoC Club 60 and Knife
    40: "club"; GURPS Broadsword-13: "sword"), which crosses as ``Combatant.melee_kind``; None when
    it names none (nWoD Weaponry) or there is none. A system's melee skills share one number scale,
    so the best is the highest level (the first listed on a tie). ``classes``: the system's own
    reading of a skill whose name says two weapons (GURPS Axe/Mace: a mace is a club)."""
    from .model import melee_class_of

    present = [k for k in skills_only_for(system, "melee") if k in levels]
    if not present:
        return None
    best = max(present, key=lambda k: levels[k])
    cls = (classes or {}).get(best) or melee_class_of(best)
    return None if cls in ("improvised", "unarmed") else cls


def melee_skills_written(system: "System", levels: Mapping[str, Any], used: Iterable[str],
                         remembered: Mapping[str, Any] | None = None, kind_skill: str | None = None,
                         neutral: str = "melee", col: Any = None, path: str = "$.skills") -> dict[str, Any]:
    """See _melee_skills_written; with `col`, the losses and trace steps that told how a skill left
    out here was written (a GURPS "written Broadsword-12", "Knife-11 is on no 3e sheet ...", a coc7
    Sword "written at the untrained 20", beside the one Spear the sheet writes) are taken back: the
    sheet does not write it."""
    out = _melee_skills_written(system, levels, used, remembered, kind_skill, neutral)
    taken_back(col, [k for k in levels if k not in out], path)
    return out


def taken_back(col: Any, skills: Iterable[str], path: str = "$.skills") -> None:
    """The losses and trace steps a collector holds of `skills` (at ``path.<skill>``), taken back
    where a sheet in the end does not write them: no loss of a skill the output has not (a
    "written at the untrained Fist/Punch 50" beside a dog that bites and writes no punch)."""
    gone = {f"{path}.{k}" for k in skills}
    if col is not None and gone:
        col.losses[:] = [x for x in col.losses if x.path not in gone]
        col.trace[:] = [x for x in col.trace if x.path not in gone]


def _melee_skills_written(system: "System", levels: Mapping[str, Any], used: Iterable[str],
                          remembered: Mapping[str, Any] | None = None, kind_skill: str | None = None,
                          neutral: str = "melee") -> dict[str, Any]:
    """Native skill levels with the close-combat skills a target writes for the neutral
    ``melee``: those its melee weapon lines use (``used``: the lines' skill names) and the one
    for the weapon the source's best skill names (``kind_skill``: the target's skill for
    ``Combatant.melee_kind``, a CoC Club 60 becomes GURPS Axe/Mace), else the first the system
    lists. Every native melee skill covers the one neutral ``melee`` (the best of a source's melee
    skills, the others reported ``merged``), so without this every target would write all of its
    melee skills at that level (Knife, Club, Sword, Axe and Spear 55). With `neutral` "brawl", the
    same for the skills that hold the brawl competence (a 7th-edition creature's Fighting, Bite,
    Claws beside Fighting (Brawl))."""
    covering = skills_only_for(system, neutral)
    present = [k for k in covering if k in levels]
    if remembered and present:
        # the NPC's own melee skills, remembered from this system (not with --fresh): given back
        # exactly while the neutral melee still is their best, else under their names
        best = max(remembered.values())
        if levels[present[0]] in (best, _on_ladder(system, present[0], best)):
            # (a level past the top of the skill's levels, a creature's Fighting 100, is written as
            # the top, 99: still its best, given back as it was)
            return {**{k: v for k, v in levels.items() if k not in present}, **remembered}
        used = [*used, *remembered]
    if len(present) <= 1:
        return dict(levels)
    used = [*used, kind_skill or ""]
    # "Axe/Mace (improvised)" uses Axe/Mace; a name of the system's own ("Fighting (Sword)") is itself
    used = {u if u in covering else u.split(" (")[0].strip() for u in used if u}
    keep = {k for k in present if k in used} or {present[0]}
    return {k: v for k, v in levels.items() if k not in present or k in keep}


def _on_ladder(system: "System", skill: str, level: Any) -> Any:
    """`level` of `skill` within the levels a sheet of `system` writes for it (clamped to them)."""
    try:
        levels = system.skill_levels(skill)
        return min(max(level, levels[0]), levels[-1])
    except (TypeError, IndexError, KeyError, ValueError):
        return level


def line_skills_untrained(system: "System", skills: Mapping[str, Any], lines: Iterable[Any],
                          context: Mapping[str, Any] | None, col: Any, path: str = "$.skills") -> dict[str, Any]:
    """Native skill levels with every skill a close-combat line is rolled with (``lines``: the
    sheet's lines, each with ``name`` and ``skill``): one the sheet does not state is written at
    what the NPC rolls untrained (``System.skill_floor``: CoC's base chance, GURPS's default from
    DX), reported ``assumed`` under the floor's rule. A nightstick whose source states no skill
    for it (nWoD Weaponry 0) becomes CoC Club 25 and GURPS Axe/Mace 5, the numbers the GM would
    look up, not a line naming a skill the sheet never gives."""
    out = dict(skills)
    for line in lines:
        skill = getattr(line, "skill", None)
        if not skill or skill in out:
            continue
        floor = system.skill_floor(skill, context)
        if floor is None:
            continue
        out[skill], rule = floor
        # a skill the floor left unwritten (System.floor_unwritten) that a line is rolled with:
        # the clamp's report says it is written after all, at that floor, for this line
        said = f"untrained in {system.key} ({skill} {floor[0]}); a {system.key} {UNWRITTEN_AT_FLOOR}"
        at = [i for i, x in enumerate(col.losses) if x.kind == "clamped" and x.message.endswith(said)]
        if at:
            x = col.losses[at[0]]
            col.losses[at[0]] = msgspec.structs.replace(x, message=x.message.replace(
                said, f"untrained in {system.key}: written at the untrained {skill} {floor[0]}, the {line.name} "
                      "line being rolled with it"))
            continue
        col.loss("assumed", f"{path}.{skill}", f"{skill}: the skill the {line.name} line is rolled with; the source "
                 f"states none for it: written at what the NPC rolls untrained, {out[skill]}", rule)
    return out


def line_skill_levels(system: "System", skills: Mapping[str, Any], lines: Iterable[Any], combatant: Any,
                      context: Mapping[str, Any] | None, col: Any, path: str = "$.skills") -> dict[str, Any]:
    """Native skill levels with the skill of each close-combat line (``lines``: the sheet's lines,
    written from their class or carried, each with ``name`` and ``skill``) whose source fought that
    weapon with a skill of its own (``MeleeWeapon.competence``: a viking's Spear 45 beside his Sword
    85) at that competence, not at the NPC's best: where every line of that skill has one and
    another skill of the sheet holds the best (a skill one of the NPC's best lines uses, or the only
    one of its kind, GURPS Brawling for a bite and claws, stays as written), never under what the
    NPC rolls untrained. A spear had been written at the sword's level (GURPS Spear-14, CoC Spear 86)."""
    out = dict(skills)
    by_name = {m.name: m for m in combatant.melee}
    uses: dict[str, list[Any]] = {}
    for line in lines:
        skill = getattr(line, "skill", None)
        m = by_name.get(getattr(line, "name", None))
        if skill and m is not None:
            uses.setdefault(skill, []).append(m)
    own = {s for s, ms in uses.items() if ms and all(m.competence is not None for m in ms)}
    spec = system.skills() if own else {}
    for skill, ms in uses.items():
        if skill not in own or skill not in out:
            continue
        keys = tuple(spec.get(skill) or ())
        if not any(k in out and k not in own and tuple(v or ()) == keys for k, v in spec.items()):
            continue  # the one skill of the sheet that holds the NPC's best (GURPS Brawling for a bite and claws)
        best = max(ms, key=lambda m: m.competence)
        ctx = {**(context or {}), "@key": best.skill}
        level = system.level_for(skill, best.competence, ctx)
        floor = system.skill_floor(skill, context)
        if floor is not None and _below(level, floor[0]):
            level = floor[0]
        out[skill] = level
        if getattr(col, "tracing", False):
            col.step(f"{path}.{skill}", None, f"{best.skill} competence {best.competence:.3f} ({best.name})",
                     f"{skill} {level}", rules=[system.competence_rule(skill)],
                     note="the source's own skill for this weapon, not the NPC's best")
    return out


def _below(level: Any, floor: Any) -> bool:
    try:
        return level < floor
    except TypeError:
        return False


def melee_skills_of(system: "System", levels: Mapping[str, Any], neutral: str = "melee") -> dict[str, Any]:
    """The native melee (or `neutral` "brawl") skills of a stat block worth remembering by name for
    the way back (not with --fresh): all of them, unless it has only the system's first such
    skill, which a conversion writes anyway."""
    covering = skills_only_for(system, neutral)
    mine = {k: v for k, v in levels.items() if k in covering}
    return {} if list(mine) in ([], list(covering[:1])) else mine


def describe_battery() -> list[dict[str, Any]]:
    """The close-combat battery as plain rows (docs)."""
    return [{"item": it.name, "defence": it.defence, "light": f"{it.illuminance:g} lx",
             "armor": it.armor or "none", "attacker": it.attacker_posture, "target": it.target_posture}
            for it in MELEE_BATTERY]


__all__ = ["taken_back", "MeleeItem", "MELEE_BATTERY", "MELEE_ATTACKS", "BLOWS_TO_DOWN", "MELEE_SKILLS", "MELEE_CLASSES", "reference_class", "reference_armor",
           "attack_check", "add_dists", "dice_dist", "melee_kind", "melee_skills_written", "melee_skills_of", "skills_only_for",
           "describe_battery",
           "line_skills_untrained", "line_skill_levels"]
