"""What a GURPS GM checks in `xsys odds`: every penalty once, by the 3e tables of the seed
(shared/rules/gurps-3e-tables.md), and a shot on the 3-or-4 floor that says why."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from xsys.conversions import api
from xsys.core.registry import default_registry

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "fixtures").glob("*/scenarios/*.yaml"))
FLOOR = Fraction(4, 216)  # a 3 or 4 always hits (gurps.resolution)


@pytest.fixture(scope="module")
def gurps():
    return default_registry().system("gurps")


def _shot(path: str, name: str):
    shots, _ = api.shots_of(api.load(ROOT / "fixtures" / path))
    return next(s for n, s in shots if n == name or s.name == name)


def _odds(path: str, name: str):
    (res,) = api.odds(_shot(path, name), ["gurps"])
    return res.check


def _mods(check) -> dict[str, object]:
    return {m.rule: m.value for m in check.modifiers}


SHANGHAI = "coc-zh/scenarios/shanghai_warehouse_1927.yaml"
HONG_KONG = "coc-zh/scenarios/hong_kong_ambush.yaml"
DUNWICH = "coc/scenarios/dunwich_farmhouse.yaml"
SPEAKEASY = "coc/scenarios/speakeasy_raid.yaml"
ALLEY = "gurps/scenarios/alley_at_night.yaml"
DOOR = "nwod/scenarios/door.yaml"
GARAGE = "nwod/scenarios/parking-garage.yaml"


# ---- light on a target that cannot be seen at all ------------------------------------------

def test_light_is_not_counted_again_on_a_target_nobody_sees():
    """Chen at the guard wholly behind a 6-inch concrete pillar, by full moonlight: firing blind
    (-10, gurps.ranged-modifiers.blind_fire) took the full moon's -4 on top; a target that is not
    seen at all is not seen worse in poor light. 13 - 5 - 10 - 4 (snap shot) = -6 (was -10)."""
    check = _odds(SHANGHAI, "陳探長射擊躲在 6 英吋混凝土柱後的衛兵")
    mods = _mods(check)
    assert mods["gurps.ranged-modifiers.blind_fire"] == -10 and "gurps.hit-modifiers.poor_light" not in mods
    assert check.target == -6
    assert any("not added, the target cannot be seen at all" in n for n in check.notes)


def test_the_aimed_rifle_through_the_wall_leaves_the_floor():
    """Pickett, Guns (Rifle)-14, 3 turns aimed and braced at the cultist behind the wall at 200 m
    in full moonlight: 14 - 12 - 10 + 13 + 1 = 6, 20/216 (the moonlight's -4 left 2, the floor)."""
    check = _odds(DUNWICH, "Pickett at the cultist behind the wall")
    assert check.target == 6 and check.chance == Fraction(20, 216)


# ---- a target behind glass is seen ----------------------------------------------------------

def test_a_target_behind_bulletproof_glass_is_seen_and_shot_through(gurps):
    """The contractor's M4 at the bodyguard behind 1.5 in of bullet-resistant glass, 40 m: he was
    fired at blind (-10, at most 9). He is seen through the glass: 15 - 8 = 7, below SS 11: -4 -> 3;
    the glass still stops what it stops (its DR is in the damage)."""
    check = _odds(HONG_KONG, "傭兵射擊車內的保鑣 (M4 at the bodyguard behind 1.5 in bulletproof glass)")
    mods = _mods(check)
    assert "gurps.ranged-modifiers.blind_fire" not in mods and "gurps.ranged-modifiers.tgt_hidden" not in mods
    assert check.target == 3
    assert any(n.startswith("shot through bulletproof-glass") for n in check.notes)


def test_a_target_behind_a_car_window_is_seen():
    """Drake at Cross through the car's side window, 45 m, street light: 16 - 8 - 1 = 7 < SS 10:
    -4 -> 3 (it was blind fire, -7)."""
    check = _odds(DOOR, "Drake shoots at Cross through the side window")
    assert "gurps.ranged-modifiers.blind_fire" not in _mods(check) and check.target == 3


def test_a_written_shot_at_a_target_behind_glass_is_not_blind_fire(gurps):
    shot = _shot(HONG_KONG, "傭兵射擊車內的保鑣 (M4 at the bodyguard behind 1.5 in bulletproof glass)")
    written = gurps.shot_from_neutral(shot).value
    assert not written.blind_fire and written.exposure == "hidden"
    assert gurps.check_native(written).target == gurps.check(shot).target == 3


# ---- one penalty for the head that shows --------------------------------------------------

def test_a_head_shot_at_a_head_that_shows_is_one_penalty():
    """Pickett's head shot at the cultist who looks over the wall (only the head shows): the seed's
    row says 「頭しか見えない -5(頭狙いと同じ)」, the same as aiming at the head, and the head's own
    -7 was added to it. 14 - 12 - 4 - 7 + 13 + 1 = 5: 10/216 (was 0, the floor)."""
    check = _odds(DUNWICH, "Pickett takes the head shot when the cultist looks over the wall")
    mods = _mods(check)
    assert mods["gurps.hit-location.head"] == -7 and "gurps.ranged-modifiers.tgt_head_only" not in mods
    assert check.target == 5 and check.chance == Fraction(10, 216)


# ---- cover and posture: one row of the target-posture group -------------------------------

def test_a_crouching_target_behind_cover_takes_the_cover_row_alone():
    """The officer pops up at the thug crouching behind a car, head and shoulders showing: -4 for
    head and shoulders and -2 for crouching were both added; the group's rows describe how the
    target presents ("lying behind cover, head down" is one row, -7), so the harder one counts."""
    check = _odds(ALLEY, "Officer, out of cover, pop-up shot")
    mods = _mods(check)
    assert mods["gurps.ranged-modifiers.tgt_head_shoulders"] == -4 and "gurps.ranged-modifiers.tgt_low" not in mods
    assert check.target == -3


# ---- a shooter who aims from cover is not popping up --------------------------------------

def test_an_aimed_shot_from_cover_takes_no_pop_up(gurps):
    """SWAT aims two nWoD turns (6 s: 4 GURPS turns) from behind his cover: a pop-up attack is
    unaimed (the row: "the snap-shot -4 is separate"), so its -2 is gone: 18 - 9 - 4 - 8 + 14 = 11,
    5/8 (was 9, 3/8)."""
    name = "The enforcer goes prone; SWAT aims two turns"
    check = _odds(GARAGE, name)
    assert "gurps.ranged-modifiers.pop_up" not in _mods(check)
    assert check.target == 11 and check.chance == Fraction(5, 8)
    written = gurps.shot_from_neutral(_shot(GARAGE, name))
    assert not written.value.pop_up and gurps.check_native(written.value).target == 11
    assert [x.kind for x in written.losses if x.path == "$.shooter.cover"] == ["unsupported-field"]


def test_an_unaimed_shot_from_cover_is_still_a_pop_up():
    check = _odds(GARAGE, "SWAT fires a short burst at the enforcer behind the car")
    assert _mods(check)["gurps.ranged-modifiers.pop_up"] == -2


# ---- the floor says why --------------------------------------------------------------------

def test_scarpas_burst_says_why_only_a_3_or_4_hits():
    check = _odds(SPEAKEASY, "Scarpa sprays the cellar")
    assert check.native == ("Guns (SMG)-11 at -12: needs 3 or 4 (they always hit): -4 for range (8 m), "
                            "-4 for poor light and -4 for the snap shot (unaimed, below SS 10) leave an "
                            "effective skill of -1 (the first round of a burst of 10: the seed has no "
                            "rapid-fire rule)")


def test_a_floor_with_an_aim_bonus_names_it_too():
    check = _odds(SHANGHAI, "陳探長瞄準衛兵的鋼盔 (Chen aims at the helmeted head)")
    assert check.native.endswith("-4 for range (8 m), -4 for poor light, -7 for aiming at the head, +4 for "
                                 "aiming and +1 for bracing leave an effective skill of 3")


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.stem)
def test_every_shot_on_the_floor_says_why(scenario):
    shots, _ = api.shots_of(api.load(scenario))
    for name, shot in shots:
        (res,) = api.odds(shot, ["gurps"])
        c = res.check
        if c.chance == FLOOR:
            assert "needs 3 or 4 (they always hit): " in c.native and "effective skill of" in c.native, (name, c.native)
            assert f"effective skill of {c.target}" in c.native
