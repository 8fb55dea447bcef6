"""coc-zh rule defects, each test citing its rule ID."""

from __future__ import annotations

import re
from fractions import Fraction as F

import msgspec

from xsys.core.model import Cover, Light, Target, standard_shot
from xsys.core.units import Illuminance
from xsys.plugins.coc_zh import CocZhSystem, rules

SYS = CocZhSystem()


def _lit(lux: float, skill: float = 0.6, weapon: str = "handgun"):
    s = standard_shot(weapon, skill)
    return msgspec.structs.replace(s, light=Light(illuminance=Illuminance(lux)), target=Target(cover=Cover()))


def test_coc_zh_darkness_at_least_halves_rounds_down():
    """coc-zh.darkness: poor visibility "at least halves" every skill chance: 45% -> 22%."""
    assert rules.darkness_chance(45, 0.25) == 22
    assert rules.darkness_chance(44, 0.25) == 22 and rules.darkness_chance(1, 0.25) == 0
    assert rules.darkness_chance(45, 0.0) == 1 and rules.darkness_chance(45, 10_000) == 45


def test_coc_zh_darkness_shot_check_rounds_down():
    """coc-zh.darkness on a shot: the whole-percent chance in daylight, halved down."""
    for skill in (0.3, 0.45, 0.6, 0.75):
        day = SYS.check(_lit(10_000, skill))
        moon = SYS.check(_lit(0.25, skill))
        assert moon.target == day.target // 2, (skill, day.target, moon.target)
        assert moon.chance == F(day.target // 2, 100)
        assert "coc-zh.darkness" in moon.rules()
    odd = next(s for s in (0.3, 0.45, 0.6, 0.75, 0.5, 0.55) if SYS.check(_lit(10_000, s)).target % 2)
    day, moon = SYS.check(_lit(10_000, odd)), SYS.check(_lit(0.25, odd))
    assert moon.target == (day.target - 1) // 2  # an odd chance loses the half point


def test_coc_zh_impale_note_of_a_burst_names_the_right_chance():
    """coc-zh.impale: the burst's impale is 1/5 of the one-hit chance, not of the floor."""
    shot = msgspec.structs.replace(standard_shot("smg", 0.5), burst=30)
    c = SYS.check(shot)
    note = next(n for n in c.notes if n.startswith("coc-zh.impale"))
    m = re.search(r"01-(\d+) impales \(1/5 of (\d+)%", note)
    assert m, note
    thr, base = int(m.group(1)), int(m.group(2))
    assert thr == base // 5 == int(c.outcomes["impale"] * 100)
    assert base > c.target  # the floor target (5-6%) is not what is divided by five
