"""A stat block copied with the web page around it: the page's own lines are no part of the NPC.

The test documents are written here in the shape of a Call of Cthulhu creature page of the Roll20
compendium copied whole (its cookie notice, search prompt and account buttons around the block)."""

from __future__ import annotations

from xsys.conversions import api

PAGE = """Roll20 uses cookies to improve your experience on our site. Cookies make the site work and help us count visits and tailor what you see. By continuing to use our site, you consent to our use of cookies. Update your cookie preferences .
×
Create a free account

Call of Cthulhu

Compendium

Type to search for a spell, item, class — anything!

Searches must be at least 2 characters.

Advertisement Create a free account

Bog crawler

Ready to play? Build unlimited Call of Cthulhu characters Create Now

STR 70
CON 60
SIZ 80
DEX 40
INT 30
POW 45

Hitpoints: 14
Fighting: 45% damage: 1d6 + damage bonus
"""


def test_a_copied_page_s_own_lines_are_not_the_creature_s_name(tmp_path):
    path = tmp_path / "page.txt"
    path.write_text(PAGE, encoding="utf-8")
    conv = api.convert(path, "coc7")  # it had been refused: the cookie notice was taken for a name
    doc = conv.document
    assert doc.name == "Bog crawler"
    assert (doc.STR, doc.SIZ, doc.skills["Fighting"]) == (70, 80, 45)
    assert "cookies" not in (doc.notes or "")


def test_a_paragraph_or_a_mark_above_the_stats_is_no_name(tmp_path):
    path = tmp_path / "block.txt"
    path.write_text("This creature lurks in the fens and drags the unwary under the water, where it feeds "
                    "for days on what it has caught.\n×\nFen thing\nSTR 60 CON 50 SIZ 70 DEX 50 INT 20 POW 40\n",
                    encoding="utf-8")
    doc = api.convert(path, "coc7").document
    assert doc.name == "Fen thing" and "lurks in the fens" in doc.notes


def test_a_novel_s_block_each_line_in_brackets_is_read(tmp_path):
    # a web novel's creature block: each line in 【】, the fighting chance and its damage apart
    text = "\n".join(["【沼泽潜行者】", "", "【平均属性:力量60;体质55;体型70;敏捷45;智力40;意志50】", "",
                      "【平均生命值:12】", "", "【每回合攻击次数:2】", "", "【格斗成功率:50】", "",
                      "【格斗伤害:1d6+db(爪)。】", "", "【护甲:2点皮肤】"])
    path = tmp_path / "novel.txt"
    path.write_text(text, encoding="utf-8")
    conv = api.convert(path, "coc7")
    doc = conv.document
    assert (doc.name, doc.STR, doc.SIZ, doc.HP) == ("沼泽潜行者", 60, 70, 12)
    assert [(m.skill, m.damage) for m in doc.melee] == [("Fighting (Brawl)", "1D6+DB")]
    assert doc.skills["Fighting (Brawl)"] == 50
    assert [(a.name, a.armor) for a in doc.armor] == [("皮肤", 2)]
    gurps = api.convert(path, "gurps").document  # its skin: natural armor over the whole body
    assert "head" in gurps.armor[0].locations and gurps.armor[0].PD == 0


def test_a_flattened_traditional_chinese_table_s_armor_is_read(tmp_path):
    # a wiki's creature table pasted a cell a line: 裝甲 (armor) alone, its value on the next line
    text = "\n".join(["沼地食屍者", "力量", "3d6+6", "16", "體質", "3d6", "11", "體型", "2d6+6", "13", "智力", "2d6",
                      "7", "意志", "3d6", "10", "敏捷", "3d6", "11", "耐久", "12", "武器", "咬30% (1d6)", "裝甲",
                      "2(皮膚)"])
    path = tmp_path / "wiki.txt"
    path.write_text(text, encoding="utf-8")
    conv = api.convert(path, "coc-zh")
    doc = conv.document
    assert [(a.name, a.points) for a in doc.armor] == [("Armor (皮膚)", 2)]
    assert not [x for x in conv.losses if "裝甲" in x.message and "not read" in x.message]


def test_a_title_or_a_lead_in_sentence_above_the_stats_is_no_name(tmp_path):
    # a wiki's creature page titled 基礎數據 (basic data) over the creature's own name line
    page = tmp_path / "wiki.txt"
    page.write_text("基礎數據\n\n沼地食屍者,潛伏的獵食者\n力量 16 體質 11 體型 13 智力 7 意志 10 敏捷 11\n", encoding="utf-8")
    assert api.convert(page, "coc-zh").document.name == "沼地食屍者,潛伏的獵食者"
    # an article's sentence leading into the numbers: description, and the NPC unnamed (said)
    article = tmp_path / "article.txt"
    article.write_text("我们再请出老朋友。他的旧版属性值如下：\nSTR 12 DEX 10 INT 13 CON 11\nAPP 9 POW 12 SIZ 14 EDU 15\n",
                       encoding="utf-8")
    conv = api.convert(article, "coc")
    assert conv.document.name == "Unnamed NPC" and "老朋友" in conv.document.notes
    assert any("Unnamed NPC" in x.message for x in conv.losses)


def test_a_fan_wiki_s_stat_roll_average_lines_are_read(tmp_path):
    # a Japanese fan page: each characteristic with its roll and its average, "STR:(6d6+15)×5:180"
    page = tmp_path / "wiki.txt"
    page.write_text("湖の大蛇\nSTR:(5d6+12)×5:150\nCON:(4d6+8)×5:110\nSIZ:(6d6+18)×5:195\nPOW:(3d6)×5:50~55\n"
                    "DEX:(3d6)×5:50\nINT:(2d6)×5:35\n移動:8/移動14\n耐久力:30\n装甲:6ポイントの鱗\n", encoding="utf-8")
    conv = api.convert(page, "coc7")
    doc = conv.document
    assert (doc.STR, doc.CON, doc.SIZ, doc.POW, doc.DEX, doc.INT, doc.HP) == (150, 110, 195, 50, 50, 35, 30)
    # its walking Move is the block's; the other (swimming) is said, not taken silently
    assert doc.MOV == 8
    assert any("移動 14 (MOV 8 read before it is kept)" in x.message for x in conv.losses)
    assert any("~55" in x.message for x in conv.losses)  # an average printed as a range: its first number
    assert [(a.name, a.armor) for a in doc.armor] == [("鱗", 6)]


def test_a_stat_roll_average_line_with_an_impossible_value_is_said(tmp_path):
    page = tmp_path / "wiki.txt"
    page.write_text("Big\nSTR:(6d6)×5:99999\nCON:(3d6)×5:50\nSIZ:(3d6)×5:50\nDEX:(3d6)×5:50\nINT:(3d6)×5:50\n"
                    "POW:(3d6)×5:50\n", encoding="utf-8")
    conv = api.convert(page, "coc7")
    (said,) = [x for x in conv.losses if "99999" in x.message]
    assert said.level == "warning" and "1-999" in said.message and conv.document.STR == 55
