"""A creature's characteristic beyond every ordinary adult (core.beyond): its percentile is the table's end,
so its size crosses as a multiple of the top of its source's population table, and each target writes its own
top that many times, as far as its stat block holds, said (both reviewers of real documents found a giant of
ST 60 written as a bar brawler: coc7 STR 90, nWoD Strength 5)."""

from __future__ import annotations

import pytest

from xsys.conversions import api
from xsys.core import codec
from xsys.core.ladder import population_top
from xsys.core.registry import default_registry

GIANT = {"system": "gurps", "kind": "npc", "name": "Hill Giant", "ST": 60, "DX": 12, "IQ": 8, "HT": 16, "HP": 50,
         "skills": {"Brawling": 13}}
GREAT_OLD_ONE = {"system": "coc7", "kind": "npc", "name": "Great Old One", "STR": 700, "CON": 550, "SIZ": 1050,
                 "DEX": 105, "INT": 210, "POW": 210, "skills": {"Fighting (Brawl)": 100}}


def convert(doc: dict, to: str):
    return api.convert(api.from_plain(doc, f"{doc['name']}.yaml"), to, fresh=True)


def said(conv, text: str) -> list[str]:
    return [x.message for x in conv.losses if text in x.message and x.rule == "core.beyond"]


def test_the_top_of_each_population_table():
    """The last value ordinary adults have: before a creature's tail where the table has one (CoC's STR 18, 7th
    edition's 92, the band of 3D6 x 5's 90), else the table's end (GURPS 18, nWoD 5)."""
    reg = default_registry()
    tops = {(k, c): population_top(reg.system(k).characteristics()[c].ladder)
            for k, c in (("coc", "STR"), ("coc7", "STR"), ("gurps", "ST"), ("nwod", "Strength"), ("pl-trudnosc",
                                                                                               "Atletyka"))}
    assert tops == {("coc", "STR"): 18, ("coc7", "STR"): 92, ("gurps", "ST"): 18, ("nwod", "Strength"): 5,
                    ("pl-trudnosc", "Atletyka"): 5}


def test_a_giants_strength_crosses_as_a_multiple_of_each_tables_top():
    neutral = convert(GIANT, "neutral").document
    assert neutral.beyond == {"strength": pytest.approx(60 / 18, abs=1e-4)}
    seventh = convert(GIANT, "coc7")
    assert seventh.document.STR == 307 and seventh.document.DB == "+4D6"  # 3.33 x 92; it had been STR 90, +1D4
    assert said(seventh, "STR 307: the source's strength is 3.33 times the top of its population table")
    assert convert(GIANT, "coc").document.STR == 60  # 3.33 x 18
    nwod = convert(GIANT, "nwod")
    assert nwod.document.Strength == 10  # 17 wanted: a nwod stat block holds 10 at most, said
    assert said(nwod, "(17 is beyond what a nwod stat block holds, 10)")
    polish = convert(GIANT, "pl-trudnosc")
    assert codec.to_builtins(polish.document)["Atletyka"] == 5  # the Polish traits end at 5
    assert [x for x in polish.losses if x.kind == "clamped" and "beyond what a pl-trudnosc stat block holds"
            in x.message and x.rule == "core.beyond"]


def test_a_giant_comes_home_exactly():
    seventh = convert(GIANT, "coc7").document
    back = convert(codec.to_builtins(seventh), "gurps").document
    assert (back.ST, back.HT, back.HP) == (60, 16, 50)


def test_a_great_old_one_in_gurps_keeps_its_ht_in_the_table_and_its_size_in_its_hit_points():
    """GURPS 3e writes a creature's constitution as its hit points (a giant's 'HT 16/50'), not as an HT of 108
    that would make its Basic Speed 32 and its Dodge 32; its Will beside its IQ, both beyond the table. Its SIZ
    1050 (11.4 times the top of 7th edition's table, a creature 15.8 times a man's length) is SM +7 (30 yd,
    gurps.size), whose bulk adds to its constitution in its hit points as SIZ adds to CON in 7th edition's:
    HT 18 x (5.98 + 15) / 2 = 189 (it had been HT x 5.98, 108, with no size at all)."""
    conv = convert(GREAT_OLD_ONE, "gurps")
    doc = conv.document
    assert (doc.ST, doc.IQ, doc.HT, doc.HP, doc.Will, doc.Dodge, doc.SM) == (137, 41, 18, 189, 41, 9, 7)
    assert said(conv, "HP 189: the source's constitution is 5.98 times the top of its population table; a 3e "
                      "creature's HT stays 18 and its hit points carry it")
    assert [x.kind for x in conv.losses if x.rule == "gurps.size" and x.message.startswith(
        "SM +7: the source's size is 11.41 times the top of its population table")] == ["rounded"]
    back = convert(codec.to_builtins(doc), "coc7").document
    assert (back.STR, back.INT, back.POW) == (700, 210, 210)
    assert back.SIZ == 997  # SM +7's 30 yd, 10.83 times the top: the nearest Size Modifier, said as rounded


def test_a_shared_scale_wins_over_the_multiple():
    """A 6th-edition creature's STR 24 is 7th edition's 120 by the editions' x5 (it would be 123 as 1.33 times
    92); and no percentile loss is said beside the multiple (its percentile is each table's end)."""
    sixth = {"system": "coc", "kind": "npc", "name": "Numa", "STR": 24, "CON": 15, "SIZ": 21, "DEX": 9, "INT": 8,
             "POW": 10}
    conv = convert(sixth, "coc7")
    assert (conv.document.STR, conv.document.SIZ) == (120, 105)
    assert not said(conv, "STR")
    gurps = convert(sixth, "gurps")
    assert gurps.document.ST == 24
    assert not [x for x in gurps.losses if x.path == "$.STR" and "reads back" in x.message]


def test_gurps_thrust_and_swing_past_st_20_are_the_basic_sets_table():
    """A creature's ST past 20 (more of them now that a giant's strength crosses): the Basic Set's thrust and
    swing, as a 3rd-edition bestiary prints its giant ('ST: 60 (7d-1/9d)'); it had been one more die of each
    per 4 ST, a ST 39 thrust of 7d-1 for the table's 4d+1. Past ST 100, one more die of each per 10 ST."""
    from xsys.plugins.gurps.rules import dice_text, thrust_swing

    def table(st: int) -> tuple[str, str]:
        return tuple(dice_text(code) for code in thrust_swing(st))  # type: ignore[return-value]

    assert table(20) == ("2d-1", "3d+2") and table(21) == ("2d", "4d-1")
    assert table(39) == table(40) == ("4d+1", "7d-1")
    assert table(60) == ("7d-1", "9d") and table(100) == ("11d", "13d") and table(120) == ("13d", "15d")

