"""``xsys odds --skill`` in a GM's numbers: a system's own skill level (``coc:55``,
``gurps:14``, ``nwod:3,Dexterity=3``) is equated to the neutral competence as converting a
shot of that system equates it, is shown as such, and comes back as that very level in the
system's own check. A plain competence keeps working; a bad one is one clear error."""

from __future__ import annotations

import json

import pytest

from helpers import run_main
from xsys.conversions import api
from xsys.conversions.inline import inline_skill

# A shot document of each system with the skill a GM would read off the sheet: converting it
# to a neutral shot is the reference the inline --skill must agree with.
NATIVE_SHOTS = {
    "coc:55": {"system": "coc", "kind": "shot", "weapon": "pistol", "skill": "Handgun", "distance": "10 m",
               "skill_value": 55},
    "coc-zh:55": {"system": "coc-zh", "kind": "shot", "weapon": "pistol", "skill": "Handgun", "distance": "10 m",
                  "skill_value": 55},
    "gurps:14": {"system": "gurps", "kind": "shot", "weapon": "glock-17", "skill": "Guns (Pistol)",
                 "distance": "10 m", "level": 14},
    "nwod:3,Dexterity=3": {"system": "nwod", "kind": "shot", "Dexterity": 3, "Firearms": 3},
    "nwod:3": {"system": "nwod", "kind": "shot", "Dexterity": 2, "Firearms": 3},
    "pl-trudnosc:3,Motoryka=4": {"system": "pl-trudnosc", "kind": "shot", "dystans": "10 m", "umiejętność": 3,
                                 "Motoryka": 4, "broń": {"nazwa": "Glock", "katalog": "glock-17", "rodzaj": "krótka"}},
}
# what the system's own check shows when it fires at that level
OWN_CHECK = {
    "coc:55": ("coc", "Handgun 55%"),
    "coc-zh:55": ("coc-zh", "Handgun 55%"),
    "gurps:14": ("gurps", "Guns (Pistol)-14 "),
    "nwod:3,Dexterity=3": ("nwod", "Dexterity + Firearms (3 + 3)"),
    "nwod:3": ("nwod", "Dexterity + Firearms (2 + 3)"),
    "pl-trudnosc:3,Motoryka=4": ("pl-trudnosc", "z Bronią krótką (4+3)"),
}


def odds_json(capsys, *args) -> dict:
    code, out, err = run_main(capsys, "odds", "--distance", "10m", *args, "--json")
    assert code == 0, err
    return json.loads(out)


def neutral_shooter(doc: dict):
    (_, shot), = api.shots_of(api.from_plain(doc, "shot.yaml", None))[0]
    return shot.shooter


@pytest.mark.parametrize("spec", sorted(NATIVE_SHOTS))
def test_a_native_level_is_the_competence_converting_that_systems_shot_gives(capsys, spec):
    data = odds_json(capsys, "--skill", spec)
    shooter = neutral_shooter(NATIVE_SHOTS[spec])
    assert data["skill"]["competence"] == pytest.approx(shooter.skill, abs=1e-9)
    system, shown = OWN_CHECK[spec]
    own = next(r for r in data["results"] if r["system"] == system)
    assert shown in own["check"]["native"]  # the system checks the shot at the level the GM gave
    # a pool's attribute is the shooter's own, for every system's check, as in the converted shot
    given = inline_skill(spec, "handgun")
    assert given.characteristics == ({"dexterity": shooter.characteristics["dexterity"]} if "=" in spec else {})


def test_the_equating_is_shown_with_its_rule(capsys):
    code, out, err = run_main(capsys, "odds", "--distance", "10m", "--skill", "coc:55")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == ("skill: coc Handgun 55 = competence 0.479 [coc-ja.skills; assumed] "
                        "(equated over the battery [core.equating])")
    assert lines[1].endswith("skill 0.48")
    code, out, err = run_main(capsys, "odds", "--distance", "10m", "--skill", "nwod:3,dexterity=3")
    assert out.splitlines()[0].startswith("skill: nwod Firearms 3 (Dexterity 3) = competence 0.647 [nwod.pool; ")
    data = odds_json(capsys, "--skill", "gurps:14", "--weapon", "rifle")
    assert {k: data["skill"][k] for k in ("system", "skill", "level", "rule", "source")} == {
        "system": "gurps", "skill": "Guns (Rifle)", "level": 14, "rule": "gurps.ranged-attack", "source": "assumed"}


def test_a_plain_competence_keeps_working(capsys):
    data = odds_json(capsys, "--skill", "0.6")
    assert "skill" not in data and set(data) == {"shot", "results"}
    code, out, _ = run_main(capsys, "odds", "--distance", "10m", "--skill", "0.6")
    assert code == 0 and out.startswith("== inline shot: generic handgun, 10 m, 10000 lx, exposure 1, skill 0.60\n")


@pytest.mark.parametrize("spec,line", [
    ("dnd:5", "--skill: unknown system (expected one of coc, coc-zh, coc7, gurps, nwod, pl-trudnosc, found 'dnd')"),
    ("coc:101", "--skill: out of range (expected a coc Handgun level from 0 to 100, found '101')"),
    ("gurps:14.5", "--skill: not a skill level (expected a gurps Guns (Pistol) level from 0 to 40, found '14.5')"),
    ("55", "--skill: out of range (expected a competence from 0 to 1, or SYSTEM:LEVEL (coc:55, gurps:14, "
           "nwod:3,Dexterity=3), found '55')"),
    ("abc", "--skill: not a skill (expected a competence from 0 to 1, or SYSTEM:LEVEL (coc:55, gurps:14, "
            "nwod:3,Dexterity=3), found 'abc')"),
    ("nwod:3,Wits=3", "--skill: unknown attribute (expected Dexterity=N (the attribute nwod Firearms is rolled "
                      "with), found 'Wits=3')"),
    ("nwod:3,Dexterity=9", "--skill: out of range (expected Dexterity from 1 to 5, found 'Dexterity=9')"),
    ("gurps:14,DX=12", "--skill: unknown attribute (expected nothing after the level (gurps Guns (Pistol) levels "
                       "include the attribute), found 'DX=12')"),
])
def test_a_bad_skill_is_one_clear_error(capsys, spec, line):
    code, out, err = run_main(capsys, "odds", "--distance", "10m", "--skill", spec)
    assert (code, out, err) == (2, "", f"xsys: error: {line}\n")


def test_curve_takes_a_native_level_too(capsys):
    args = ("curve", "--sweep", "distance=5m..50m", "--points", "3", "--json", "-s", "gurps")
    code, native, err = run_main(capsys, *args, "--skill", "gurps:14")
    assert code == 0, err
    skill = neutral_shooter(NATIVE_SHOTS["gurps:14"]).skill
    code, plain, err = run_main(capsys, *args, "--skill", repr(skill))
    assert code == 0 and json.loads(native) == json.loads(plain)
