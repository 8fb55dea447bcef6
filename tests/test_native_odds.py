"""`xsys odds` on a native shot is that system's own native check (`check_native`);
every other system checks the neutral shot and its result carries the losses of the way there."""

from __future__ import annotations

import glob
import json
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

from xsys.conversions import api

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted(glob.glob(str(ROOT / "fixtures" / "*" / "scenarios" / "*.yaml")))
XSYS = Path(sys.executable).parent / "xsys"


def expected_native(system, nshot, npc):
    """The system's own check of its native shot, called directly (the contract of
    docs/hooks.md): check_native, with the shooter's stat block where the method takes one."""
    fn = getattr(system, "check_native", None)
    if fn is None:  # no native check: the neutral shot of its own document
        return system.check(system.shot_to_neutral(nshot).value)
    if npc is not None and "npc" in fn.__code__.co_varnames[:fn.__code__.co_argcount]:
        return fn(nshot, npc=npc)
    return fn(nshot)


def native_shots():
    for path in SCENARIOS:
        loaded = api.load(path)
        scenario = loaded.document
        for si, scene in enumerate(scenario.scenes):
            for i, nshot in enumerate(scene.shots):
                who = getattr(nshot, "shooter", None)
                npc = next((c for c in scene.combatants if who and c.name == who), None)
                yield pytest.param(path, si, i, nshot, npc, id=f"{Path(path).parent.parent.name}:{Path(path).stem}:"
                                                            f"{si}.{i}")


@pytest.mark.parametrize("path,si,i,nshot,npc", list(native_shots()))
def test_odds_on_every_native_fixture_shot_is_the_native_check(path, si, i, nshot, npc):
    loaded = api.load(path)
    shots, _ = api.shots_of(loaded)
    idx = sum(len(s.shots) for s in loaded.document.scenes[:si]) + i
    _, shot = shots[idx]
    key = loaded.system
    (res,) = api.odds(shot, [key])
    want = expected_native(api.system_for(key), nshot, npc)
    assert res.native is True and res.losses == []
    assert res.check.chance == want.chance
    assert res.check == want


def test_other_systems_check_the_neutral_shot_and_carry_its_losses():
    # (a GURPS target's armor PD was such a field; it crosses now, as the neutral deflection)
    loaded = api.load(ROOT / "fixtures" / "nwod" / "scenarios" / "door.yaml")
    shots, losses = api.shots_of(loaded)
    _, shot = shots[1]  # the door already took damage: nWoD's damage_taken has no neutral form
    results = {r.system: r for r in api.odds(shot, ["nwod", "coc"])}
    assert results["nwod"].native and not results["coc"].native
    assert results["coc"].check == api.system_for("coc").check(shot)
    assert results["coc"].losses and all(x.path.startswith("$.scenes[0].shots[1]") for x in results["coc"].losses)
    assert {x.path for x in results["coc"].losses} <= {x.path for x in losses}
    js = results["coc"].as_json()
    assert js["losses"][0]["path"].startswith("$.scenes[0].shots[1]") and "native_check" not in js
    assert results["nwod"].as_json()["native_check"] is True


def test_an_edited_native_shot_is_checked_as_neutral():
    import msgspec

    loaded = api.load(ROOT / "fixtures" / "coc" / "scenarios" / "speakeasy_raid.yaml")
    _, shot = api.shots_of(loaded)[0][0]
    edited = msgspec.structs.replace(shot, distance=shot.distance)
    assert api.native_source(edited) is None
    (res,) = api.odds(edited, ["coc"])
    assert not res.native and res.check == api.system_for("coc").check(edited)


def _coc_odds(**fields):
    doc = {"system": "coc", "kind": "shot", "weapon": "colt-m1911a1", "distance": "5 m", **fields}
    loaded = api.from_plain(doc, "<test>")
    (_, shot), = api.shots_of(loaded)[0]
    (res,) = api.odds(shot, ["coc"])
    assert res.native
    return res.check


def test_issue_18_coc_native_rules_reach_odds():
    # coc-ja.stance.two-guns: each gun at 1/5 of the skill (50 -> 10)
    assert _coc_odds(skill_value=50, hold="two guns").chance == F(10, 100)
    # coc-ja.mozambique: the third shot at 1/5 of 85 = 17
    assert _coc_odds(skill_value=85, fire="mozambique", DEX=12, hold="one-handed").chance == F(17, 100)
    # coc-ja.skill.off-hand-shooting: Off-hand Shooting 40 with Handgun 50 -> 40
    assert _coc_odds(skill_value=50, hold="off-hand", off_hand_skill=40).chance == F(40, 100)
    # coc-ja.aimed.keeper-double: the Keeper's x2 survives (a called, braced head shot)
    plain = _coc_odds(skill_value=30, called_location="head", support="braced", distance="20 m")
    doubled = _coc_odds(skill_value=30, called_location="head", support="braced", distance="20 m", keeper_double=True)
    assert doubled.outcomes["location"] == 2 * plain.outcomes["location"]
    # coc-ja.autofire.order: a target's SIZ survives (+5 per 10 SIZ above 30)
    assert _coc_odds(skill_value=40, target_SIZ=50).chance == F(50 + 5, 100)  # 40 + 5 two-handed + 10


def test_issue_18_gurps_nearsighted_reaches_odds():
    doc = ROOT / "fixtures" / "gurps" / "scenarios" / "alley_at_night.yaml"
    loaded = api.load(doc)
    nshot = loaded.document.scenes[0].shots[0]
    shots, _ = api.shots_of(loaded)
    (res,) = api.odds(shots[0][1], ["gurps"])
    want = expected_native(api.system_for("gurps"), nshot, None)
    assert res.check.chance == want.chance
    neutral = api.system_for("gurps").check(shots[0][1])
    if getattr(nshot, "nearsighted", False):
        assert res.check.chance != neutral.chance


def test_cli_odds_json_on_a_native_scenario_is_the_native_check():
    path = ROOT / "fixtures" / "coc" / "scenarios" / "speakeasy_raid.yaml"
    out = subprocess.run([str(XSYS), "odds", str(path), "--json", "-s", "coc", "-s", "gurps"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    loaded = api.load(path)
    coc = api.system_for("coc")
    k = 0
    for scene in loaded.document.scenes:
        for nshot in scene.shots:
            npc = next((c for c in scene.combatants if c.name == nshot.shooter), None)
            want = expected_native(coc, nshot, npc)
            got = {r["system"]: r for r in data["shots"][k]["results"]}
            assert got["coc"]["exact"] == f"{want.chance.numerator}/{want.chance.denominator}"
            assert got["coc"]["native_check"] is True and "native_check" not in got["gurps"]
            k += 1
    assert k == len(data["shots"])


def test_a_long_exact_fraction_is_left_to_json(capsys):
    """The terminal shows an exact chance as its fraction while it reads at a glance (1/54); nWoD
    through glass in the Hong Kong ambush is a chain of dice with a 200-digit fraction, which is
    left to --json (where it stays exact) instead of one line of hundreds of digits."""
    from helpers import run_main

    scenario = ROOT / "fixtures" / "coc-zh" / "scenarios" / "hong_kong_ambush.yaml"
    code, out, _ = run_main(capsys, "odds", scenario)
    assert code == 0
    assert max(len(line) for line in out.splitlines()) < 400
    assert "(exact fraction: --json)" in out
    assert any(line.split("%  (")[1].split(")")[0].replace("/", "").isdigit() for line in out.splitlines()
               if "%  (" in line)  # the short ones still show their fraction
    code, js, _ = run_main(capsys, "odds", scenario, "--json")
    assert code == 0 and max(len(str(r["exact"])) for r in _exact_rows(json.loads(js))) > 100


def _exact_rows(data):
    """Every result row with an `exact` fraction in the odds JSON, however nested."""
    if isinstance(data, dict):
        if "exact" in data:
            yield data
        for v in data.values():
            yield from _exact_rows(v)
    elif isinstance(data, list):
        for v in data:
            yield from _exact_rows(v)


def test_a_distance_given_in_yards_reads_to_three_figures_in_every_explanation():
    """A coc7 shot at 45 yd is 41.148 m: every system's check line and the odds header say
    41.1 m, as a table would (core.units.brief); the chances use the exact distance."""
    from xsys.conversions.odds import odds, shots_of
    from xsys.conversions.report import odds_text

    doc = {"system": "coc7", "kind": "shot", "name": "across the yard", "weapon": "colt-m1911a1",
           "distance": "45 yd", "skill_value": 50}
    (name, shot), = shots_of(api.from_plain(doc, file="yard.yaml"))[0]
    assert float(shot.distance) == pytest.approx(41.148)
    results = odds(shot)
    text = odds_text([(name, shot, results)])
    assert "41.148" not in text and text.startswith("== across the yard: Colt M1911A1, 41.1 m,")
    why = {r.system: " ".join(m.why for m in r.check.modifiers) for r in results}
    assert "41.1 m, base range 15 m" in why["coc"] and "41.1 m (45 yd)" in why["coc7"]
    assert "41.1 m -> 45 m row" in why["gurps"] and "range at 41.1 m" in why["nwod"]
    assert "41.1 m: +1 per started" in why["pl-trudnosc"]
    # the check itself reads the exact distance: 45 yd is beyond 2 x the Colt's 15 yd, extreme range
    assert next(r for r in results if r.system == "coc7").check.chance == F(1, 10)
