"""nWoD rule defects (shared/rules/nwod-cover.md; the nWoD cover and barrier text),
each test citing its rule ID."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import msgspec
import pytest

from xsys.conversions import documents
from xsys.core import dice
from xsys.core.model import Cover, Shooter, Target, standard_shot
from xsys.core.registry import get_system
from xsys.plugins.nwod.system import NwodBarrier, NwodShot, successes

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "nwod"
SYS = get_system("nwod")


def _door_shots() -> list[NwodShot]:
    doc = documents.load(FIXTURES / "scenarios" / "door.yaml")
    return [msgspec.convert(msgspec.to_builtins(s), NwodShot) for s in doc.scenes[0].shots]


def test_nwod_barrier_penetration_damage_carries_across_shots():
    """nwod.barrier.penetration / nwod.barrier.example: «ещё два очка повреждений разрушат
    дверь целиком» -- the second shot starts from the Structure the first left (2 of 6), so
    3 successes (Durability 1 + 2) destroy the door: 58.9%, not 2.56%."""
    first, second = _door_shots()
    assert second.barrier.damage_taken == 4
    c1, c2 = SYS.check_native(first), SYS.check_native(second)
    pool = successes(9)  # Dexterity 3 + Firearms 3 + Pistol, Hvy. 3
    assert c1.outcomes["barrier_destroyed"] == dice.at_least(pool, 1 + 6)
    assert c2.outcomes["barrier_destroyed"] == dice.at_least(pool, 1 + 2)
    assert round(float(c2.outcomes["barrier_destroyed"]), 3) == 0.589
    assert round(float(c1.outcomes["barrier_destroyed"]), 4) == 0.0256
    assert any("4 already lost, 2 left" in m.why for m in c2.modifiers)


def test_nwod_barrier_penetration_damage_taken_is_reported_by_shot_to_neutral():
    """nwod.barrier.penetration: the neutral model has no field for Structure already lost;
    shot_to_neutral reports it (check_native keeps it)."""
    _, second = _door_shots()
    res = SYS.shot_to_neutral(second)
    lost = [l for l in res.losses if l.path == "$.barrier.damage_taken"]
    assert lost and lost[0].rule == "nwod.barrier.penetration" and "check_native keeps it" in lost[0].message


def test_nwod_window_size_4_has_structure_5():
    """nwod.window: 「Размером 3 или 4 и Структурой 4-5」: Structure = Durability + Size."""
    b = NwodBarrier(window=True, Durability=1, Size=4)
    assert b.Structure == 5
    ns = NwodShot(Dexterity=3, Strength=3, Firearms=3, weapon="Pistol, Hvy.", barrier=b, armor=2)
    c = SYS.check_native(ns)
    assert "Structure 5" in next(m.why for m in c.modifiers if m.rule == "nwod.barrier.penetration")
    assert c.outcomes["barrier_destroyed"] == dice.at_least(successes(9), 1 + 5)
    c3 = SYS.check_native(msgspec.structs.replace(ns, barrier=NwodBarrier(window=True, Durability=1, Size=3)))
    assert c3.outcomes["barrier_destroyed"] == dice.at_least(successes(9), 1 + 4)


def test_nwod_armor_piercing_applies_behind_a_barrier():
    """nwod.barrier.penetration + nwod.armor-piercing: the target's armor takes dice off the
    roll behind the barrier; armor piercing ignores that much of it there too."""
    first, _ = _door_shots()
    plain = SYS.check_native(first)
    ap = SYS.check_native(msgspec.structs.replace(first, armor_piercing=2))
    unarmored = SYS.check_native(msgspec.structs.replace(first, armor=0))
    assert ap.chance > plain.chance
    assert ap.chance == unarmored.chance and ap.damage_mean == unarmored.damage_mean
    assert "nwod.armor-piercing" in ap.rules()
    half = SYS.check_native(msgspec.structs.replace(first, armor_piercing=1))
    assert plain.chance < half.chance < ap.chance


def test_nwod_cover_labels_derived_not_seed():
    """nwod.cover.partial / nwod.cover.full: the penalties are the seed's; reading a visible
    fraction as a degree, and the leaning-out shooter's own -2, are derived: not `seed`."""
    s = standard_shot("handgun", 0.5)
    part = SYS.check(msgspec.structs.replace(s, target=Target(cover=Cover(exposure=0.8))))
    m = next(m for m in part.modifiers if m.rule == "nwod.cover.partial")
    assert m.source == "assumed" and "derived" in m.why
    assert "barelyly" not in m.why and "barely concealed" in m.why
    lean = SYS.check(msgspec.structs.replace(s, shooter=Shooter(skill=0.5, cover=Cover(exposure=0.0))))
    m = next(m for m in lean.modifiers if m.rule == "nwod.cover.full")
    assert m.value == -2 and m.source == "assumed" and "derived" in m.why
    # a native shot states the degree: the seed's penalty as written
    n = SYS.check_native(NwodShot(Dexterity=3, Firearms=3, concealment="partial"))
    m = next(m for m in n.modifiers if m.rule == "nwod.cover.partial")
    assert m.value == -2 and m.source == "seed"
    for deg in ("barely", "partial", "substantial"):
        c = SYS.check_native(NwodShot(Dexterity=3, Firearms=3, concealment=deg))
        assert all("lyly" not in m.why for m in c.modifiers)
