"""A creature's Size Modifier (gurps.size, assumed: the 4th-edition Basic Set's Size and Speed/Range Table; the
3rd-edition rule text has none): read from a block, crossing as the neutral size, a multiple of the top of every
size table (core.beyond: a man's size is 13/18 of that top, the d100 rules' SIZ), written back as the nearest
SM, and the bulk it gives counted in the hit points as the d100 rules count SIZ beside CON."""

from __future__ import annotations

from pathlib import Path

from xsys.conversions import api
from xsys.core import codec
from xsys.plugins.gurps.rules import MAN_OF_TOP, size_gain, size_ratio, sm_of


def _text(tmp_path: Path, name: str, body: str):
    src = tmp_path / f"{name}.txt"
    src.write_text(body, encoding="utf-8")
    return src


def _losses(conv, rule: str) -> list[tuple[str, str]]:
    return [(x.kind, x.message) for x in conv.losses if x.rule == rule]


def test_the_size_table():
    # 4e Basic Set: SM 0 2 yd, +1 3 yd, +2 5 yd, +3 7 yd, +4 10 yd, +5 15 yd, +6 20 yd, then tenfold every six steps
    assert [size_ratio(n) * 2 for n in range(0, 9)] == [2, 3, 5, 7, 10, 15, 20, 30, 50]
    assert size_ratio(-2) == 1.0 and size_gain(None) == 1.0 and size_gain(2) == 1.75
    assert [sm_of(size_ratio(n)) for n in range(0, 13)] == list(range(0, 13))
    assert sm_of(3.46) == 3 and sm_of(1.2) == 0 and sm_of(1.3) == 1


def test_a_block_s_sm_is_read_and_crosses_as_a_size_beyond_every_adult(tmp_path: Path):
    src = _text(tmp_path, "hill-troll", "Hill troll\nST 24 DX 10 IQ 7 HT 14\nSM +2\nSkills: Brawling-13\n")
    gurps = api.convert(src, "gurps", fresh=True)
    assert gurps.document.SM == 2 and not any("SM +2 (no field" in x.message for x in gurps.losses)
    coc = api.convert(src, "coc", fresh=True)
    assert coc.document.SIZ == 33  # 18 x 2.5 x 13/18: a 5 yd creature, 2.5 times a man's 13
    assert ("assumed", "SM +2: a creature 5 yd long, 2.5 times a man's length; its size crosses as 1.81 times the "
            "top of every size table (a man's is 0.72 of it: the d100 rules' SIZ 13 of 18) [core.beyond]") \
        in _losses(coc, "gurps.size")
    assert not any("no size" in x.message for x in coc.losses)
    seventh = api.convert(src, "coc7", fresh=True).document
    assert seventh.SIZ == round(92 * 2.5 * MAN_OF_TOP)
    # its hit points: HT 14 x (1 + 2.5) / 2 = 24.5, half up 25, the rule's with its bulk (no toughness of its own)
    assert (gurps.document.HT, seventh.HP) == (14, (seventh.CON + seventh.SIZ) // 10)
    back = api.convert(api.from_plain(codec.to_builtins(seventh), "troll.yaml"), "gurps", fresh=True).document
    assert (back.SM, back.ST, back.HT) == (2, 24, 14)
    assert "SM +2" in api.dump(gurps, "text").decode()


def test_a_d100_creature_s_size_is_the_nearest_sm_and_its_bulk_is_in_its_hit_points():
    beast = {"system": "coc", "kind": "npc", "name": "Cave bear", "STR": 30, "CON": 18, "SIZ": 45, "DEX": 10,
             "INT": 4, "POW": 10}
    conv = api.convert(api.from_plain(beast, "bear.yaml"), "gurps", fresh=True)
    doc = conv.document
    # SIZ 45 is 2.5 times coc's top, a creature 3.46 times a man's length: SM +3 (7 yd), said as rounded
    assert doc.SM == 3
    assert [k for k, m in _losses(conv, "gurps.size") if m.startswith("SM +3: the source's size is 2.50 times")] \
        == ["rounded"]
    assert doc.HP == int(doc.HT * size_gain(3) + 0.5)  # HT x (1 + 3.5) / 2: no Extra Hit Points for its bulk
    assert not any("Extra Hit Points" in a for a in doc.advantages)
    # the d100 number itself rides in the carried block and wins over the coarser SM on the way back
    assert codec.to_builtins(doc)["carried"]["coc"]["SIZ"] == 45
    plain = codec.to_builtins(doc)
    assert api.convert(api.from_plain(plain, "bear-gurps.yaml"), "coc", fresh=True).document.SIZ == 45
    # and in 7th edition it is 2.5 times the top of the table (92): the carried SIZ's multiple, not SM +3's 2.53
    assert api.convert(api.from_plain(plain, "bear-gurps.yaml"), "coc7", fresh=True).document.SIZ == 230


def test_4th_edition_hit_points_count_the_bulk_when_read_as_3rd(tmp_path: Path):
    """4e HP come from ST; read into a 3e document they are HT plus the 4e extra, and HT for a creature of SM +2
    is HT x 1.75 (its bulk): a 4e ankheg-like bug's HP 24 (ST 21 + 3) is 13 x 1.75 + 3 = 26, not 16."""
    src = _text(tmp_path, "tunnel-bug", "Tunnel bug\nST: 21 HP: 24 Speed: 5.75 DX: 10 Will: 11 Move: 5 IQ: 2 "
                                        "Per: 11 HT: 13 FP: 13 SM: +2 Dodge: 8\n")
    conv = api.convert(src, "gurps", fresh=True)
    assert (conv.document.HP, conv.document.SM) == (26, 2)
    assert any("3rd-edition HP = HT x 1.75 for the bulk of SM +2 (gurps.size): read as 26" in x.message
               for x in conv.losses)


def test_a_small_creature_is_the_smallest_adult_said_as_clamped(tmp_path: Path):
    src = _text(tmp_path, "imp", "Imp\nST 6 DX 14 IQ 10 HT 11\nSM -2\n")
    conv = api.convert(src, "coc", fresh=True)
    assert conv.document.SIZ == 8  # 2D6+6: the smallest ordinary adult
    assert any(k == "clamped" and m.startswith("SM -2: a creature smaller than a man")
               for k, m in _losses(conv, "gurps.size"))
    assert api.convert(src, "gurps", fresh=True).document.SM == -2
