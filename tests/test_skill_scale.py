"""Systems of one family keep the number: coc and coc-zh write skills as d100 percentages of one
skill list (System.skill_scale), so a skill crosses between them as the number it was, while a
system of another scale equates it through the checks."""

from __future__ import annotations

from pathlib import Path

from xsys.core.codec import to_builtins
import pytest

from xsys.conversions import api

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _skills(doc) -> dict:
    return dict(to_builtins(doc)["skills"])


@pytest.mark.parametrize(("source", "to"), [
    ("coc/npcs/cultist_shotgun.yaml", "coc-zh"),   # Shotgun 40 was written 39
    ("coc/npcs/police_detective.yaml", "coc-zh"),
    ("coc/npcs/swat_officer.yaml", "coc-zh"),
    ("coc-zh/npcs/harvey_walters.yaml", "coc"),
    ("coc-zh/npcs/inspector_chen.yaml", "coc"),
])
def test_a_skill_crosses_between_systems_of_one_scale_as_its_number(source, to):
    loaded = api.load(FIXTURES / source)
    stated = _skills(loaded.document)
    written = _skills(api.convert(loaded, to, fresh=True).document)
    assert {k: written.get(k) for k in stated} == stated


def test_an_edited_neutral_value_is_converted_not_passed_through():
    neutral = api.convert(api.load(FIXTURES / "coc/npcs/cultist_shotgun.yaml"), "neutral", fresh=True).document
    plain = to_builtins(neutral)
    plain["skills"]["shotgun"] = 0.9  # the GM made him a far better shot in the neutral file
    written = _skills(api.convert(plain, "coc-zh", fresh=True).document)
    assert written["Shotgun"] > 70


def test_a_system_of_another_scale_still_equates():
    written = _skills(api.convert(api.load(FIXTURES / "coc/npcs/cultist_shotgun.yaml"), "gurps", fresh=True).document)
    assert "Guns (Shotgun)" in written and written["Guns (Shotgun)"] != 40


def test_coc_listen_converts_to_the_gurps_hearing_it_is():
    """Listen was carried verbatim into GURPS although GURPS Hearing is listening."""
    doc = api.convert(api.load(FIXTURES / "coc/npcs/dock_brute.yaml"), "gurps", fresh=True).document
    skills = _skills(doc)
    assert "Hearing" in skills and "Listen" not in (to_builtins(doc).get("carried") or {}).get("coc", {}).get("skills", {})
    back = _skills(api.convert(to_builtins(doc), "coc", fresh=True).document)
    # the dock brute's Listen 30 (amateur) comes back within one GURPS Hearing level, an amateur:
    # Hearing-10 is nearer but reads back as Listen 25, the untrained base; Hearing-11 as 44 (core.tiers)
    assert 26 <= back["Listen"] <= 50 and _skills(doc)["Hearing"] == 11
