"""A small d100 system used to test the core, the registry, the CLI and the conformance
kit without depending on any built-in game system. Its rules are made up for tests and
cite the test-only rule IDs ``toy.*``."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Annotated, Any

import msgspec

from xsys.core import dice
from xsys.core.hookspecs import hookimpl
from xsys.core.ladder import Ladder
from xsys.core.model import Combatant, Shot
from xsys.core.system import CharacteristicSpec, System, percentile_ladder
from xsys.core.trace import Check, Collector, Modifier, Result
from xsys.core.units import Length
from xsys.core.vocab import POSTURE_HEIGHT


class ToyNpc(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    name: str
    AGI: Annotated[int, msgspec.Meta(ge=2, le=12)] = 7
    skills: dict[str, Annotated[int, msgspec.Meta(ge=0, le=100)]] = {}


class ToyShot(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    skill: Annotated[int, msgspec.Meta(ge=0, le=100)]
    range: Length


_RANGE = Ladder.build("range", "m", [(0, 10.0, "toy.range"), (-10, 30.0, "toy.range"), (-20, 100.0, "toy.range"),
                                     (-40, 1000.0, "toy.range")], rounding="up", native_order="decreasing")
_LIGHT = Ladder.build("light", "lx", [(-30, 0.0, "toy.light", "assumed"), (-15, 0.1, "toy.light", "assumed"),
                                      (0, 10.0, "toy.light", "assumed")], rounding="down")


class Toy(System):
    key = "toy"
    name = "Toy"
    edition = "test edition"
    dice = "d100 roll-under"
    npc_type = ToyNpc
    shot_type = ToyShot

    def ladders(self) -> dict[str, Ladder]:
        return {"range": _RANGE, "light": _LIGHT}

    def characteristics(self) -> dict[str, CharacteristicSpec]:
        return {"AGI": CharacteristicSpec("dexterity", _agi())}

    def skills(self) -> dict[str, tuple[str, ...]]:
        return {"Gun": ("handgun", "rifle"), "Look": ("spot",)}

    standard_health = 10.0
    skill_rule = "toy.skill"
    skill_source = "seed"

    def skill_levels(self, skill: str) -> range:
        return range(0, 101)

    def roll_chance(self, skill: str, level: Any, context: Any = None) -> Fraction:
        return dice.d100(level)

    def check_at(self, shot: Shot, skill: str, level: Any, context: Any = None, extra=()) -> Check:
        mods = []
        r = _RANGE.step_for(float(shot.distance) + float(shot.target.speed) + float(shot.shooter.speed))
        if r.native:
            mods.append(Modifier(rule=r.rule, kind="add", value=r.native, source=r.source))
        li = _LIGHT.step_for(float(shot.light.illuminance))
        if li.native:
            mods.append(Modifier(rule=li.rule, kind="add", value=li.native, source=li.source))
        cover = -int(round((1 - shot.target.cover.exposure) * 40))
        if cover:
            mods.append(Modifier(rule="toy.cover", kind="add", value=cover, source="assumed"))
        post = -int(round((1 - POSTURE_HEIGHT[shot.target.posture] / 1.75) * 20))
        if post:
            mods.append(Modifier(rule="toy.posture", kind="add", value=post, source="assumed"))
        mods.extend(extra)
        target = level + sum(int(m.value) for m in mods if m.kind == "add")
        return Check(system=self.key, stat="Gun", base=level, modifiers=mods, target=target,
                     needs=f"d100 <= {target}", chance=dice.d100(target))

    def npc_to_neutral(self, npc: ToyNpc) -> Result[Combatant]:
        col = Collector(self.key)
        chars = self.characteristics_to_neutral({"AGI": npc.AGI}, col)
        skills = self.skills_to_neutral(npc.skills, col, "$.skills")
        return col.result(Combatant(name=npc.name, characteristics=chars, skills=skills))

    def npc_from_neutral(self, c: Combatant) -> Result[ToyNpc]:
        col = Collector(self.key)
        chars = self.characteristics_from_neutral(c.characteristics, col)
        skills = self.skills_from_neutral(c.skills, col, "$.skills")
        return col.result(ToyNpc(name=c.name, skills=skills, **chars))


    def shot_to_neutral(self, shot: ToyShot) -> Result[Shot]:
        from xsys.core.model import Shooter, generic_weapon

        col = Collector(self.key)
        chance = self.competence("Gun", shot.skill)
        col.step("$.skill", f"Gun {shot.skill}", f"competence {chance:.2f}", rules=["toy.skill"])
        return col.result(Shot(shooter=Shooter(skill=chance), weapon=generic_weapon("handgun"),
                               distance=shot.range))

    def shot_from_neutral(self, shot: Shot) -> Result[ToyShot]:
        col = Collector(self.key)
        if shot.light.illuminance < 10:
            col.loss("unsupported-field", "$.light", "toy shots carry no light", "toy.light")
        level = self.level_for("Gun", shot.shooter.skill)
        return col.result(ToyShot(skill=level, range=shot.distance))


@lru_cache(maxsize=None)
def _agi() -> Ladder:
    return percentile_ladder("AGI", dice.sum_distribution(2, 6), "toy.agi", "assumed")


@hookimpl
def xsys_register_systems(register):
    register(Toy)
