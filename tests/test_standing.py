"""Skills with no battery (Spot, Stealth, First Aid, Climb ...) are linked on the published
competence scale (core.equating.standing_score, docs/calibration.md): a GM of each system reads
the converted level in the tier the source's level is in."""

from __future__ import annotations

from pathlib import Path

import pytest

from xsys.conversions import api
from xsys.devtools import calibration
from xsys.core import codec, equating
from xsys.core.registry import default_registry
from xsys.core.vocab import UNTRAINED

ROOT = Path(__file__).resolve().parents[1]
REG = default_registry()


def _skills(src, to):
    doc = codec.to_builtins(api.convert(src, to, fresh=True, trace=False).document)
    return doc.get("skills") or doc.get("umiejętności") or {}


def test_the_deer_hunters_two_dots_are_not_a_coc_expert():
    """nWoD Dexterity 3, Stealth 2, Athletics 2: on the unmodified pool (5 dice, 83%) he was CoC
    Hide, Climb, Jump and Swim 83, an expert, where his two Firearms dots are CoC 53. On the
    published scale two dots at Dexterity 3 are three at the average 2: the professional's 63."""
    skills = _skills(ROOT / "fixtures" / "nwod" / "npcs" / "deer-hunter.yaml", "coc")
    for k in ("Hide", "Climb", "Jump", "Swim"):
        assert 51 <= skills[k] <= 75, (k, skills)


def test_a_coc_hide_40_is_two_nwod_dots_not_none():
    src = {"system": "coc", "kind": "npc", "name": "sneak", "STR": 10, "CON": 10, "SIZ": 13, "DEX": 10, "APP": 10,
           "INT": 13, "POW": 10, "EDU": 13, "skills": {"Hide": 40, "Spot Hidden": 60, "First Aid": 63}}
    nwod = _skills(src, "nwod")
    assert nwod["Stealth"] == 2 and nwod["Investigation"] == 3 and nwod["Medicine"] == 3, nwod
    gurps = _skills(src, "gurps")
    assert gurps["Stealth"] == 10 and gurps["First Aid"] == 12, gurps
    back = _skills(codec.to_builtins(api.convert(src, "gurps", fresh=True, trace=False).document), "coc")
    assert abs(back["Spot Hidden"] - 60) <= 5 and abs(back["Hide"] - 40) <= 5, back


def test_polish_czujnosc_4_and_5_stay_apart():
    """The Polish test at Trudność 10 passes every level from 4 up (both were CoC Spot Hidden 100);
    on the published scale level 4 is the expert's 83 and 5 the master's 95."""
    def spot(level):
        src = {"system": "pl-trudnosc", "kind": "npc", "imię": f"Czujność {level}", "Motoryka": 3, "Percepcja": 3,
               "Atletyka": 3, "Odwaga": 3, "umiejętności": {"Czujność": level}}
        return _skills(src, "coc")["Spot Hidden"]
    assert (spot(3), spot(4), spot(5)) == (63, 83, 95)


def test_gurps_vision_14_is_a_coc_expert_not_a_master():
    src = {"system": "gurps", "kind": "npc", "name": "lookout", "ST": 10, "DX": 10, "IQ": 10, "HT": 10,
           "skills": {"Vision": 14, "Stealth": 12}}
    coc = _skills(src, "coc")
    assert 76 <= coc["Spot Hidden"] <= 90 and 51 <= coc["Hide"] <= 75, coc


def test_every_standing_ladder_tells_every_level_apart():
    """Strictly increasing: no two levels of a linked skill share a standing (Czujność 4 and 5 did)."""
    seen = 0
    for key in REG.keys():
        s = REG.system(key)
        for native, keys in s.skills().items():
            for k in keys:
                if not equating.links_on_standing(s, native, k):
                    continue
                for ctx in ({}, {"@key": k}):
                    reps = [st.rep for st in s.skill_ladder(native, {**ctx, "@key": k}).steps]
                    assert all(a < b for a, b in zip(reps, reps[1:])), (key, native, k, reps)
                seen += 1
    assert seen >= 15  # gurps, nwod and pl-trudnosc skills, every neutral skill they hold


def test_untrained_anchor_is_the_skills_own_base_and_coc_reads_its_own_percentage():
    gurps, nwod, coc = REG.system("gurps"), REG.system("nwod"), REG.system("coc")
    assert gurps.skill_ladder("Stealth").neutral(5) == pytest.approx(UNTRAINED["stealth"])
    assert gurps.skill_ladder("Vision").neutral(10) == pytest.approx(UNTRAINED["spot"])
    assert nwod.skill_ladder("Athletics", {"@key": "climb"}).neutral(0) == pytest.approx(UNTRAINED["climb"])
    assert nwod.skill_ladder("Athletics", {"@key": "swim"}).neutral(0) == pytest.approx(UNTRAINED["swim"])
    assert coc.skill_ladder("Spot Hidden").neutral(60) == pytest.approx(0.60)  # no untrained level: its roll
    assert not equating.links_on_standing(coc, "Spot Hidden", "spot")


def test_the_standing_table_keeps_every_conversion_within_a_tier():
    cells = calibration.standing_table()
    assert len(cells) >= 150
    assert max(c.off_by for c in cells) <= 1
    assert sum(c.off_by == 0 for c in cells) >= 0.9 * len(cells)
