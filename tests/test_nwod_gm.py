"""What a GM review of converted fixtures found wrong on nWoD sheets, with worked numbers:
a Defense that contradicts Dexterity and Wits (nwod.derived), weapon lines with the chart
line's clip and chamber instead of the gun's, a flashlight lost from a converted shot
(nwod.darkness), and roll text without the attribute and skill numbers."""

from __future__ import annotations

from pathlib import Path

import pytest

from xsys.conversions import api
from xsys.core import codec
from xsys.core.registry import get_system

ROOT = Path(__file__).resolve().parent.parent
FOREIGN_NPCS = sorted(p for s in ("coc", "coc-zh", "gurps", "pl-trudnosc") for p in (ROOT / "fixtures" / s).glob("npcs/*.yaml"))


def nwod():
    return get_system("nwod")


def to_nwod(path: Path):
    """The nWoD document (an NwodNpc or a scenario) and the loss report of a fresh conversion."""
    conv = api.convert(path, "nwod", fresh=True, trace=False)
    return conv.document, conv.losses


# ---- 1. Defense is derived: the lower of Dexterity and Wits --------------------------------

@pytest.mark.parametrize("path", FOREIGN_NPCS, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_a_written_defense_is_the_lower_of_dexterity_and_wits(path):
    doc, _ = to_nwod(path)
    assert doc.Defense == min(doc.Dexterity, doc.Wits), doc


def test_the_dock_brutes_poor_dodge_is_reported_not_written():
    # CoC Dodge 18 would be Defense 1 (nwod.defense: 10.8% of the hits of 3- to 7-die attacks);
    # the sheet has Dexterity 2 and Wits 2, so Defense 2 (26%), and the report says so
    doc, losses = to_nwod(ROOT / "fixtures/coc/npcs/dock_brute.yaml")
    assert (doc.Dexterity, doc.Wits, doc.Defense) == (2, 2, 2)
    said = [x for x in losses if x.rule == "nwod.derived" and "dodge" in x.message]
    assert len(said) == 1 and said[0].kind == "derived", [x.render() for x in losses]
    assert "dodge 18% would be Defense 1" in said[0].message and "Defense 2 (26%)" in said[0].message
    assert said[0].path == "$.skills.Dodge"


def test_a_good_dodge_above_wits_is_reported_too():
    # the SWAT officer's Dodge reads as Defense 3, but Wits is 2: Defense 2
    doc, losses = to_nwod(ROOT / "fixtures/coc/npcs/swat_officer.yaml")
    assert (doc.Dexterity, doc.Wits, doc.Defense) == (3, 2, 2)
    assert any(x.kind == "derived" and "would be Defense 3" in x.message for x in losses)


def test_a_dodge_that_matches_the_derived_defense_says_nothing():
    # the GURPS sniper: Dodge 6 is Defense 3, and Dexterity 3, Wits 3 give 3
    doc, losses = to_nwod(ROOT / "fixtures/gurps/npcs/sniper.yaml")
    assert doc.Defense == 3
    assert not any("would be Defense" in x.message for x in losses)


def test_a_stated_defense_is_still_read_as_stated():
    # an nWoD sheet's own Defense 4 (above min(Dex 2, Wits 2)) crosses as Defense 4's dodge, 61.2%
    n = api.convert(api.from_plain({"system": "nwod", "kind": "npc", "name": "Brawler", "Defense": 4}), "neutral",
                    fresh=True, trace=False)
    assert n.document.skills["dodge"] == pytest.approx(float(nwod().competence("Defense", 4)))
    assert round(n.document.skills["dodge"], 3) == 0.612


def test_coc_to_nwod_to_coc_keeps_a_sane_dodge():
    # Dodge 18 -> Defense 2 (derived) -> CoC Dodge 26 (Defense 2 takes 26.3% of the hits)
    doc, _ = to_nwod(ROOT / "fixtures/coc/npcs/dock_brute.yaml")
    back = api.convert(api.from_plain({"system": "nwod", "kind": "npc", **codec.to_builtins(doc)}), "coc", fresh=True, trace=False)
    assert back.document.skills["Dodge"] == 26
