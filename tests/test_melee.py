"""Melee attacks convert like firearms where feasible: a close-combat weapon crosses
as what it is (its class: fists, knife, club, sword, axe, spear, improvised) with the neutral skill
it is wielded with (brawl / melee), each system writes its own line for the class (rule IDs
coc-ja.melee, gurps.melee, nwod.melee, assumed, in the trace), and the source's exact line rides
in the carried block, so A -> B -> A gives it back with nothing remembered."""

from __future__ import annotations

from pathlib import Path

import pytest

from xsys.conversions import api
from xsys.core import codec
from xsys.core.model import melee_class_of

ROOT = Path(__file__).resolve().parent.parent


def _plain(doc):
    p = codec.to_builtins(doc)
    p.pop("xsys", None)
    return p


def _thug() -> dict:
    src = _plain(api.load(ROOT / "fixtures" / "gurps" / "npcs" / "street_thug.yaml").document)
    src["melee"].append({"name": "Fire axe", "skill": "Axe/Mace", "damage": "2d+1", "type": "cut"})
    return src


@pytest.mark.parametrize("words,cls", [
    (("Switchblade", "Knife"), "knife"), (("Nightstick", ""), "club"), (("Brawl", "Fist/Punch"), "unarmed"),
    (("Fire axe", "Axe/Mace"), "axe"), (("Persuader", "Club"), "club"), (("Bottle", ""), "improvised"),
    (("こぶし", ""), "unarmed"), (("Katana", "Sword"), "sword"), (("Bottle", "Axe/Mace (improvised)"), "improvised"),
])
def test_melee_class_of_reads_the_name_then_the_skill(words, cls):
    assert melee_class_of(*words) == cls


def test_a_gurps_knife_and_axe_cross_to_coc_and_nwod_as_their_class():
    src = _thug()
    neutral = _plain(api.convert(api.from_plain(src), "neutral", fresh=True, trace=False).document)
    assert neutral["melee"] == [{"name": "Switchblade", "melee_class": "knife"},
                                {"name": "Fire axe", "melee_class": "axe"}]
    coc = api.convert(api.from_plain(src), "coc", fresh=True, trace=True)
    doc = _plain(coc.document)
    assert doc["melee"] == [{"name": "Switchblade", "skill": "Knife", "damage": "1d4+db"},
                            {"name": "Fire axe", "skill": "Axe", "damage": "1d8+2+db"}]
    assert any("coc-ja.melee" in t.rules and t.source == "assumed" and "Fire axe" in t.render() for t in coc.trace)
    assert any("gurps.melee" in t.rules for t in coc.trace)
    nwod = _plain(api.convert(api.from_plain(src), "nwod", fresh=True, trace=False).document)
    close = [w for w in nwod["weapons"] if "ranges" not in w]
    assert [(w["name"], w["type"], w["damage"]) for w in close] == [("Switchblade", "Knife", 1), ("Fire axe", "Hatchet", 2)]


@pytest.mark.parametrize("b", ["coc", "coc-zh", "nwod", "pl-trudnosc"])
def test_the_gurps_line_comes_back_exactly_with_nothing_remembered(b):
    src = _thug()
    there = api.convert(api.from_plain(src), b, fresh=True, trace=False)
    mid = _plain(there.document)
    assert mid["carried"]["gurps"]["melee"]["Fire axe"] == {"name": "Fire axe", "skill": "Axe/Mace", "damage": "2d+1",
                                                             "type": "cut"}
    back = _plain(api.convert(api.from_plain(mid), "gurps", fresh=True, trace=False).document)
    assert back["melee"] == src["melee"]
    said = [x for x in there.losses if x.path == "$.melee[1]" and x.rule == "gurps.melee"]
    assert said and all("dropped" not in x.message for x in said)
    if b == "pl-trudnosc":  # no close combat in the Polish rules: the class and skill are lost there, and said
        assert any("melee" in x.message and x.level == "warning" for x in there.losses)


def test_nwod_nightstick_stays_a_club_everywhere():
    src = _plain(api.load(ROOT / "fixtures" / "nwod" / "npcs" / "patrol-officer.yaml").document)
    for b in ("coc", "gurps"):
        conv = api.convert(api.from_plain(src), b, fresh=True, trace=False)
        assert not [x for x in conv.losses if "melee_class" in x.message], [x.render() for x in conv.losses]
        out = _plain(conv.document)
        back = _plain(api.convert(api.from_plain(out), "neutral", fresh=True, trace=False).document)
        assert back["melee"][0] == {"name": "Nightstick", "melee_class": "club"}


def test_a_coc_text_block_brawl_becomes_a_gurps_brawling_line():
    from xsys.plugins.textblock.reader import load

    doc = load((ROOT / "fixtures" / "text" / "walters-coc7.txt").read_bytes())
    doc.pop("xsys", None)
    out = _plain(api.convert(api.from_plain(doc), "gurps", fresh=True, trace=False).document)
    # 3e's punch is thrust-2: 1d-4 at Walters's ST 10 (gurps.melee), in the melee table, not
    # among the guns (it was a weapon line with Acc 0, RoF 1, Shots 0)
    assert out["melee"] == [{"name": "Brawl", "skill": "Brawling", "damage": "thr-2", "dice": "1d-4", "reach": "C",
                             "parry": 2 * out["skills"]["Brawling"] // 3}]
    assert [w["name"] for w in out["weapons"]] == [".38 Revolver"]
    assert out["skills"].get("Brawling")  # the skill's level crosses as the neutral brawl


def test_without_the_carried_line_the_class_line_is_written():
    """Not vacuous: with the carried block taken out on the way, the axe comes back as GURPS's
    axe line (swing+2 cut: 2d at the thug's ST 12), not the source's 2d+1."""
    mid = _plain(api.convert(api.from_plain(_thug()), "coc", fresh=True, trace=False).document)
    mid.pop("carried")
    back = _plain(api.convert(api.from_plain(mid), "gurps", fresh=True, trace=False).document)
    axe = next(w for w in back["melee"] if w["name"] == "Fire axe")
    assert (axe["skill"], axe["damage"], axe["dice"], axe["type"], axe["reach"]) == ("Axe/Mace", "sw+2", "2d", "cut",
                                                                                     "1")


@pytest.mark.parametrize("st,punch,club", [(8, "1d-5", "1d-1"), (10, "1d-4", "1d+1"), (15, "1d-1", "2d+2"),
                                           (20, "1d+1", "4d-1")])
def test_a_gurps_class_line_hits_as_hard_as_its_wielders_st(st, punch, club):
    """gurps.melee: a class line is thrust or swing plus the weapon's add, at the wielder's own
    ST (3e's thrust/swing table): a ST 15 brute's punch (thrust-2) is 1d-1, his club (swing+1)
    2d+2, where an average man's are 1d-4 and 1d+1."""
    from xsys.plugins.gurps.system import melee_damage

    assert (melee_damage("unarmed", st), melee_damage("club", st)) == (punch, club)
