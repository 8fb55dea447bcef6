"""Japanese GURPS sheets (the Japanese Basic Set, 3rd edition), in the shapes real ones take:
a 妖魔夜行-style sheet with the point cost first ("60/体力:15") and ―section― marks, and a
table sheet ("ST 9 -10", "name points level"). The documents are made up in those shapes;
the words are the Japanese Basic Set's (plugins/gurps/japanese.toml)."""

from __future__ import annotations

from xsys.conversions import api
from xsys.conversions.readreport import read_losses
from xsys.plugins.textblock.reader import load

COST_FIRST = """山田太郎(やまだ・たろう)/河童(350CP)

30/体力:13
60/敏捷力:15
45/知力:12
30/生命力:14/54
移動力:7+1.25
能動防御:9/8(素手)/-
合計165CP

―特徴―
15/戦闘即応
8/意志の強さ2レベル
-10/強欲
-5/高慢

―癖―
きゅうりが好き、水が好き

―技能―
2/格闘15
0.5/ランニング10
1/忍び14(20)
0.5/運転/乗用車13
1/地域知識/東京12

―妖力―
40/追加HP40
20/水中呼吸
"""


def read(text: str) -> dict:
    return load(text.encode("utf-8"))


def test_a_cost_first_sheet_is_a_gurps_block_in_english_words():
    doc = read(COST_FIRST)
    assert doc["system"] == "gurps" and doc["name"] == "山田太郎(やまだ・たろう)/河童(350CP)"
    # 体力 is ST here (a CoC sheet's 体力 is CON): 敏捷力, 知力 and 生命力 say it is GURPS
    assert [doc[k] for k in ("ST", "DX", "IQ", "HT", "HP", "Move", "Dodge")] == [13, 15, 12, 14, 54, 8, 9]
    assert doc["skills"] == {"Brawling": 15, "Running": 10, "Stealth": 14, "Driving": 13, "Area Knowledge (東京)": 12}
    assert doc["advantages"] == ["Combat Reflexes", "Strong Will +2"]
    # a quirk a line, or several apart by 、 (each one quirk)
    assert doc["disadvantages"] == ["強欲", "高慢", "きゅうりが好き", "水が好き"]
    # 妖魔夜行's powers have no Basic Set trait: the notes, as printed
    assert "追加HP40" in doc["notes"] and "水中呼吸" in doc["notes"]
    said = [x.message for x in read_losses(doc.get("xsys"), "gurps")]
    assert any("移動力 7+1.25 read as Move 8" in x for x in said)
    assert any("忍び14" in x and "(20)" in x for x in said)  # the bracketed level is said, not read


def test_a_japanese_gurps_sheet_converts_and_keeps_a_creatures_hit_points():
    doc = read(COST_FIRST)
    back = api.convert(api.from_plain(doc), "gurps", trace=False).document
    assert (back.ST, back.HP) == (13, 54)  # HT 14 and Extra Hit Points 40: above 60, kept
    coc = api.convert(api.from_plain(doc), "coc7", fresh=True, trace=False).document
    assert coc.skills["Fighting (Brawl)"] > 50 and coc.HP > 20


def test_a_table_sheet_with_basic_damage_and_trait_and_skill_rows():
    doc = read("人間名:鈴木花子\nST 9 -10\nDX 12 20\nIQ 13 30\nHT 10/30\n基本致傷力\n突き 1d-2\n振り 1d-1\n"
               "■特徴と癖 小計:\n特徴 消費CP 備考\n有利な特徴\n魔法の素質 25+7 人間時2Lv\n不利な特徴\n悪夢 -5\n"
               "■技能 小計:12.5\n技能名 消費CP 技能Lv 妖怪時技能Lv 備考\n格闘 1 12 15\n神秘学 0.5 10 13\n")
    assert doc["system"] == "gurps" and doc["name"] == "鈴木花子"
    assert [doc[k] for k in ("ST", "DX", "IQ", "HT", "HP")] == [9, 12, 13, 10, 30]
    assert doc["skills"] == {"Brawling": 12, "Occultism": 10}
    assert doc["advantages"] == ["魔法の素質 (人間時2Lv)"] and doc["disadvantages"] == ["悪夢"]
    said = [x.message for x in read_losses(doc.get("xsys"), "gurps")]
    assert any("突き 1d-2: the basic damage" in x for x in said)


def test_a_japanese_call_of_cthulhu_sheet_is_not_taken_for_gurps():
    """体力 is CoC's CON in Japanese: a CoC sheet (筋力 体力 精神力 敏捷性 外見 体格 知性 教育) stays CoC."""
    doc = read("刑事 さえき\n筋力 14 体力 13 精神力 11 敏捷性 12 外見 10 体格 15 知性 13 教育 15\n")
    assert doc["system"] == "coc" and (doc["STR"], doc["CON"]) == (14, 13)


def test_trait_descriptions_modifiers_and_points_after_the_name():
    """Under 有利な特徴, a trait's description (a sentence) and its modifiers ('妖怪時のみ(-30%)')
    are notes, not traits; 'name 20CP' is the trait at 20 points."""
    doc = read("剣士 たろう\n体力13 :30CP\n敏捷15 :60CP\n知力12 :20CP\n生命12 :20CP\n有利な特徴\n階級 4LV 20CP\n"
               "隊士としての特徴。厳しい訓練を受けていることを示す。\n28/防護点7\n 妖怪時のみ(-30%)\n")
    assert doc["system"] == "gurps" and (doc["ST"], doc["DX"]) == (13, 15)
    assert doc["advantages"] == ["階級 4LV"]
    assert "厳しい訓練" in doc["notes"] and "妖怪時のみ(-30%)" in doc["notes"]
    # DR bought as an advantage: the body's armor, all over it
    assert [(a["name"], a["DR"], len(a["locations"])) for a in doc["armor"]] == [("防護点", 7, 10)]


def test_an_attribute_s_cost_column_without_brackets_is_its_cost():
    """A Japanese sheet's cost column after the attribute, unbracketed ('ST 9 -10', 'DX 8 -15': the
    3rd edition's prices of 9 and 8) or marked ('HT 12 :20CP'): each had been said unread beside its
    attribute. A number that is no price of its level ('IQ 13 7') is still said."""
    doc = read("鬼塚美紀\nST 9 -10\nDX 8 -15\nHT 12 :20CP\nIQ 13 7\n")
    assert [doc[k] for k in ("ST", "DX", "IQ", "HT")] == [9, 8, 13, 12]
    unread = [u["text"] for u in doc["xsys"]["read"].get("unread", [])]
    assert unread == ["IQ 13 7 (not read: 7)"]
    assert any("character-point costs" in a for a in doc["xsys"]["read"]["assumed"])


def test_a_character_sheet_s_boxes_are_labels_and_its_dr_box_holds_the_armor():
    """A Japanese 3rd-edition sheet copied as text prints its boxes' names alone on their lines
    (移動, 荷重 and its columns, 防御, 受動防御, 能動防御 and its columns よけ 受け 止め, 防護力): labels,
    not text of the NPC (each had been said unread). Under 防護力, 'name N' is the armor worn at DR
    N (the witch's garb had been lost) and a lone number the box's total; '移動力(飛行時) 8', a
    second way of moving, is kept in the notes."""
    doc = read("人間名:鈴木花子\nST 9 -10\nDX 12 20\nIQ 13 30\nHT 10/30\n\n移動\n\n基本移動力 5.5\n移動力 5\n"
               "移動力(飛行時) 8\n\n荷重\n無荷 軽荷 並荷 重荷 超重荷\n\n防御\n\n受動防御\n\n能動防御\nよけ 受け 止め\n\n"
               "防護力\n魔女の装束 5\n5\n\n■技能 小計:1\n格闘 1 12\n")
    assert doc["system"] == "gurps" and doc["Move"] == 5 and doc["skills"] == {"Brawling": 12}
    assert [(a["name"], a["DR"]) for a in doc["armor"]] == [("魔女の装束", 5)]
    assert "移動力(飛行時) 8" in doc["notes"]
    assert not doc["xsys"]["read"].get("unread")
    said = [x.message for x in read_losses(doc.get("xsys"), "gurps")]
    assert any("5, the DR box's total" in x for x in said)
