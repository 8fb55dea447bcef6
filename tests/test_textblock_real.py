"""Call of Cthulhu stat blocks as other people print them (published and fan scenarios, in
English, Japanese and Chinese): the text reader tells the edition from the whole block, splits
the name from an age or byline, reads every attack line and every language's names, keeps SAN,
MP and Luck, and reports what it cannot read as a loss naming the line. The corpus documents
(fixtures/corpus/text-coc) are checked whole at the end."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xsys.conversions import api
from xsys.conversions.readreport import read_losses
from xsys.core import codec
from xsys.core.errors import InputError
from xsys.plugins.textblock.reader import load

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "fixtures" / "corpus" / "text-coc"


def read(text: str) -> dict:
    return load(text.encode("utf-8"))


def report(doc: dict) -> dict:
    return doc.get("xsys", {}).get("read", {})


def unread(doc: dict) -> list[tuple[int, str]]:
    return [(u["line"], u["text"]) for u in report(doc).get("unread", [])]


def losses_of(doc: dict) -> list[str]:
    return [x.message for x in read_losses(doc.get("xsys"), doc["system"])]


# ---- the edition, from the whole block ---------------------------------------------------

SIXTH_OLD = """Professor Elias Crane, age 67
STR 16 CON 14 SIZ 19 DEX 8 APP 11 INT 17 POW 14 EDU 20 HP 17
Damage Bonus: +1D4
Weapons: .38 Revolver 25%, damage 1D10
Skills: Dodge 16%, Library Use 85%
"""


def test_a_sixth_edition_block_with_edu_20_is_read_as_written():
    """EDU 20 (6th edition rolls EDU 3D6+3, and older characters go higher) and SIZ 19 are no
    reason to take the block for 7th edition: its other characteristics are 3-18 values that are
    not multiples of 5, and HP 17 is (CON+SIZ)/2."""
    doc = read(SIXTH_OLD)
    assert [doc[k] for k in ("STR", "CON", "SIZ", "DEX", "EDU", "HP")] == [16, 14, 19, 8, 20, 17]
    edition = report(doc)["edition"]
    assert edition.startswith("5th/6th edition") and "HP 17 = (CON+SIZ)/2" in edition
    assert not any("divided by 5" in a for a in report(doc)["assumed"])


def test_a_seventh_edition_block_reads_as_coc7_and_the_report_says_why():
    doc = read("Frank Lecroix\nSTR 70 CON 65 SIZ 75 DEX 55 INT 50\nAPP 45 POW 40 EDU 35 SAN 40 HP 14\n"
               "DB: +1D4 Build: 1 Move: 7 MP: 8 Luck: 35\nCombat\nBrawl 60% (30/12), damage 1D3+1D4\n")
    assert doc["system"] == "coc7"
    assert [doc[k] for k in ("STR", "CON", "SIZ", "DEX", "INT", "APP", "POW", "EDU")] == [70, 65, 75, 55, 50, 45, 40, 35]
    assert (doc["HP"], doc["MP"], doc["SAN"], doc["Luck"], doc["MOV"]) == (14, 8, 40, 35, 7)
    edition = report(doc)["edition"]
    assert edition.startswith("7th edition: characteristics 1-99")
    for why in ("8 of 8 characteristics above 21", "HP 14 = (CON+SIZ)/10", "MP 8 = POW/5", "Build",
                "half/fifth values (60: 30/12)"):
        assert why in edition, why
    assert not any("divided by 5" in a for a in report(doc).get("assumed", []))


def test_the_evidence_of_the_whole_block_outweighs_one_value():
    """One characteristic above 21 in a 6th-edition creature (STR 44, SIZ 44 of a 6th-edition
    monster) does not make the block 7th edition; one 3-18 value in a 7th-edition block (a frail
    STR 15) does not make it 6th."""
    six = read("Dark Young\nSTR 44 CON 16 SIZ 44 INT 14 POW 16 DEX 16 HP 30\n")
    assert (six["STR"], six["CON"], six["HP"]) == (44, 16, 30)
    assert report(six)["edition"].startswith("5th/6th edition")
    seven = read("Old Man Whateley\nSTR 15 CON 30 SIZ 55 DEX 35 APP 20 INT 75 POW 90 EDU 70 HP 8\n")
    assert (seven["system"], seven["STR"], seven["POW"], seven["HP"]) == ("coc7", 15, 90, 8)
    assert report(seven)["edition"].startswith("7th edition")


def test_an_edition_line_decides():
    forced = read("edition: 7e\nGrandmother Mold\nSTR 15 CON 15 SIZ 10 DEX 20 APP 15 INT 45 POW 60 EDU 40\n")
    assert (forced["system"], forced["STR"], forced["POW"], forced["EDU"]) == ("coc7", 15, 60, 40)
    assert report(forced)["edition"] == "7th edition, as the block's 'edition:' line says"
    kept = read("edition: 6e\nThe Colossus\nSTR 45 CON 30 SIZ 60 DEX 5 APP 5 INT 10 POW 25 EDU 5\n")
    assert (kept["STR"], kept["SIZ"]) == (45, 60)
    assert report(kept)["edition"] == "6th edition, as the block's 'edition:' line says"
    with pytest.raises(InputError) as exc:
        read("edition: 8th\nNobody\nSTR 50 CON 50 SIZ 50 DEX 50 APP 50 INT 50 POW 50 EDU 50\n")
    assert "edition" in str(exc.value) and "'8th'" in str(exc.value)


# ---- the name alone ----------------------------------------------------------------------

@pytest.mark.parametrize("line,name,note", [
    ("Example Character, age 27", "Example Character", "age 27"),
    ("Indiana Jones for Call of Cthulhu By A. Fan", "Indiana Jones", "for Call of Cthulhu By A. Fan"),
    ("サンプル 太郎、27歳、記者", "サンプル 太郎", "27歳"),
    ("示範角色, 年齡 27", "示範角色", "年齡 27"),
    ("■佐伯 健吾（42歳、刑事）", "佐伯 健吾", "42歳、刑事"),
])
def test_an_age_or_a_byline_is_split_off_the_name_into_the_notes(line, name, note):
    doc = read(f"{line}\nSTR 12 CON 11 SIZ 13 DEX 10 APP 9 INT 14 POW 12 EDU 15\n")
    assert doc["name"] == name
    assert note in doc["notes"].split("\n")
    assert any("kept in the notes, not the name" in a for a in report(doc)["assumed"])


# ---- attack lines ------------------------------------------------------------------------

def test_japanese_attack_lines_and_names_with_a_middle_dot():
    """The attack lines of Japanese blocks: 6th-edition scenarios' "NAME NN% DICE" (a katakana
    name joined by ・), 7th-edition "NAME NN% (h/f)、ダメージ DICE" with デリンジャー, 格闘 and a
    natural attack (噛みつき)."""
    doc = read("佐伯 健吾\nSTR 14 CON 13 POW 11 DEX 12 APP 10 SIZ 15 INT 13 EDU 15\n"
               "武器：コルト・ガバメント 55％ 1D10+2、こぶし 70％ 1D3+DB\n")
    assert [(w["name"], w["skill"], w["damage"]) for w in doc["weapons"]] == [("コルト・ガバメント", "Handgun", "1d10+2")]
    assert doc["melee"] == [{"name": "こぶし", "skill": "Fist/Punch", "damage": "1d3+db"}]
    assert (doc["skills"]["Handgun"], doc["skills"]["Fist/Punch"]) == (55, 70)
    seven = read("サンプル 太郎\nSTR 75 CON 60 SIZ 80 DEX 70 APP 60 INT 80\nPOW 50 EDU 85\n戦闘\n"
                 "噛みつき 50% (25/10)、ダメージ 1D6\n格闘 30% (15/6)、ダメージ 1D3+DB\n"
                 "デリンジャー 40% (20/8)、ダメージ 1D8+1\n回避 50% (25/10)\n")
    assert seven["system"] == "coc7"  # a 7th-edition block: its own names
    assert [(w["name"], w["skill"], w["damage"]) for w in seven["weapons"]] == [
        ("デリンジャー", "Firearms (Handgun)", "1D8+1")]
    assert seven["melee"] == [{"name": "噛みつき", "skill": "噛みつき", "damage": "1D6"},
                              {"name": "格闘", "skill": "Fighting (Brawl)", "damage": "1D3+DB"}]
    assert {k: seven["skills"][k] for k in ("噛みつき", "Fighting (Brawl)", "Firearms (Handgun)", "Dodge")} == \
        {"噛みつき": 50, "Fighting (Brawl)": 30, "Firearms (Handgun)": 40, "Dodge": 50}
    assert not unread(doc) and not unread(seven)


def test_natural_attacks_and_run_on_weapon_lines():
    """A creature's Bite and Claw are close-combat attacks; a 6th-edition weapons line runs two
    attacks on with commas; a name may hold a comma."""
    doc = read("Deep One\nSTR 16 CON 14 SIZ 15 INT 12 POW 11 DEX 10 HP 15\n"
               "Weapons: Claw 35%, damage 1D6 + db, Bite 50%, damage 1D6\n"
               "Weapons: Hunting rifle, .30-06 40%, damage 2D6+4, Fist/Punch 60%, damage 1D3\n")
    assert doc["melee"] == [{"name": "Claw", "skill": "Claw", "damage": "1d6+db"},
                            {"name": "Bite", "skill": "Bite", "damage": "1d6"},
                            {"name": "Fist/Punch", "skill": "Fist/Punch", "damage": "1d3"}]
    assert [(w["name"], w["skill"], w["damage"]) for w in doc["weapons"]] == \
        [("Hunting rifle, .30-06", "Rifle", "2d6+4")]
    assert {k: doc["skills"][k] for k in ("Claw", "Bite", "Rifle", "Fist/Punch")} == \
        {"Claw": 35, "Bite": 50, "Rifle": 40, "Fist/Punch": 60}
    assert not unread(doc)


# ---- layouts and languages ---------------------------------------------------------------

def test_a_traditional_chinese_block_is_read_not_refused():
    """A Chinese 7th-edition block reads into coc7 with its own values, like an English or a
    Japanese one (not divided by 5 into coc-zh, whose rules are the earlier editions')."""
    doc = read("林志明, 年齡 52\n力量 45 體質 50 體型 60 敏捷 55 外貌 60 智力 75\n"
               "意志 70 教育 80 理智 62 生命值 11 DB: 0\n體格: 0 MOV: 7 魔法值: 14 幸運: 55\n"
               "戰鬥列表\n鬥毆 30% (15/6), 傷害 1D3+DB\n手槍 35% (17/7), 傷害 1D8\n閃避 40% (20/8)\n")
    assert doc["system"] == "coc7" and doc["name"] == "林志明"
    assert [doc[k] for k in ("STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU", "HP", "MOV")] == \
        [45, 50, 60, 55, 60, 75, 70, 80, 11, 7]
    assert (doc["SAN"], doc["MP"], doc["Luck"]) == (62, 14, 55)
    assert [(w["name"], w["skill"], w["damage"]) for w in doc["weapons"]] == [("手槍", "Firearms (Handgun)", "1D8")]
    assert doc["melee"] == [{"name": "鬥毆", "skill": "Fighting (Brawl)", "damage": "1D3+DB"}]
    assert (doc["skills"]["Dodge"], doc["skills"]["Firearms (Handgun)"], doc["skills"]["Fighting (Brawl)"]) == \
        (40, 35, 30)
    assert not unread(doc)
    # its movement rate is on the sheet: not said to be dropped
    assert not [x for x in losses_of(doc) if "not carried" in x and "MOV" in x]


def test_a_chinese_sixth_edition_block_still_reads_into_coc_zh():
    doc = read("王大力\n力量 14 體質 12 體型 13 敏捷 11 外貌 9 智力 10\n意志 12 教育 9 理智 60 生命值 13\n"
               "技能：拳擊 60%，踢擊 30%，擒抱 25%，手槍 40%，閃避 30%\n")
    assert (doc["system"], doc["STR"], doc["HP"], doc["SAN"]) == ("coc-zh", 14, 13, 60)
    assert {k: doc["skills"][k] for k in ("Fist/Punch", "Kick", "Grapple", "Handgun", "Dodge")} == \
        {"Fist/Punch": 60, "Kick": 30, "Grapple": 25, "Handgun": 40, "Dodge": 30}


def test_a_simplified_chinese_block_without_a_combat_heading():
    doc = read("赵铁柱\n力量 70 体质 65 体型 75 敏捷 50 外貌 40 智力 55\n意志 45 教育 40 理智 45 生命值 14\n"
               "移动 7\n手枪 40%（20/8），伤害 1D10\n闪避 35%（17/7）\n")
    assert (doc["system"], doc["STR"], doc["HP"], doc["SAN"], doc["MOV"]) == ("coc7", 70, 14, 45, 7)
    assert [(w["name"], w["skill"]) for w in doc["weapons"]] == [("手枪", "Firearms (Handgun)")]
    assert doc["skills"]["Dodge"] == 35 and not unread(doc)
    assert not [x for x in losses_of(doc) if "not carried" in x and "移动" in x]


def test_a_weapon_named_in_brackets_after_the_firearms_word_is_that_weapon():
    """"Firearms (.30-06 bolt-action rifle) 35%" and 射击（.30-06 栓动式步枪）: the weapon in the
    brackets, fired with the Firearms skill its name tells; a bracket that names no firearm is
    said, not made a close-combat attack."""
    en = read("Alistair Rosen\nSTR 50 CON 60 SIZ 65 DEX 65 APP 60 INT 65 POW 70 EDU 70 SAN 70 HP 12\n"
              "Firearms (.30-06 bolt-action rifle) 35% (17/7), damage 2D6+4\nFirearms (Handgun) 40% (20/8)\n")
    assert [(w["name"], w["skill"], w["damage"]) for w in en["weapons"]] == \
        [(".30-06 bolt-action rifle", "Firearms (Rifle/Shotgun)", "2D6+4")]
    assert (en["skills"]["Firearms (Rifle/Shotgun)"], en["skills"]["Firearms (Handgun)"]) == (35, 40)
    zh = read("罗森\n力量50 CON60 体型65 敏捷65 智力65\n外貌60 POW70 教育70 SAN70 HP12\n"
              "射击（.30-06 栓动式步枪）35%（17/7）伤害 2D6+4\n射击（不明之物）30%，伤害 1D10\n")
    assert [(w["name"], w["skill"]) for w in zh["weapons"]] == [(".30-06 栓动式步枪", "Firearms (Rifle/Shotgun)")]
    assert not zh.get("melee") and [t for _, t in unread(zh)] == \
        ["射击(不明之物)30%, 伤害 1D10 (which firearm skill fires it is not said)"]


def test_a_creature_table_pasted_a_cell_a_line_is_read():
    """A rulebook creature's characteristic / roll / average table pasted from a web page a cell a
    line (column heads 能力值 擲骰 平均值), then 移動 / 9 and 耐久 (HP) / 13 a line each, and
    '平均傷害加權' (the average damage bonus): the averages are the creature's values. A range
    average ('16~17') reads its first number and says the rest."""
    doc = read("食屍鬼\n能力值\n擲骰\n平均值\n力量\n3d6+6\n16~17\n體質\n2d6+6\n13\n體型\n2d6+6\n13\n"
               "智力\n2d6+6\n13\n意志\n2d6+6\n13\n敏捷\n(2D6+6)×5\n13\n移動\n9\n耐久\n13\n平均傷害加權\n+1d4\n"
               "武器\n鉤爪30% (1d6+傷害加權)\n")
    assert (doc["system"], doc["STR"], doc["CON"], doc["SIZ"], doc["INT"], doc["POW"], doc["DEX"], doc["HP"]) == \
        ("coc-zh", 16, 13, 13, 13, 13, 13, 13)
    assert doc["melee"] == [{"name": "鉤爪", "skill": "鉤爪", "damage": "1d6+db"}]
    assert unread(doc) == [(5, "力量 16~17 (not read: ~17)")]


def test_attack_lines_of_rulebook_creatures_and_chinese_scenarios():
    """'Claws 30% (1D6+db)': the damage in brackets after the chance; '斗殴 80% 伤害 1d3+1d4，使用砍刀时
    伤害为 1d6+1d6': the brawl, and the other weapon's damage said in words not read (it had made
    one attack named with the whole run, fought with Sword, and Brawl 80 was lost with no word); a
    note after the damage ('（投掷时伤害加值为 1d2）'); '技能攀爬 40%' (the heading run on into its
    first skill); '技能：无'; '每轮攻击次数：1'."""
    en = read("Ghoul\nSTR 16 CON 13 SIZ 13 INT 13 POW 13 DEX 13 HP 13\nWeapons: Claws 30% (1D6+db)\n")
    assert en["melee"] == [{"name": "Claws", "skill": "Claws", "damage": "1d6+db"}] and not unread(en)
    zh = read("维京海盗\nSTR90 CON95 SIZ90 DEX65 INT55\nAPP40 POW85 EDU45 SAN33 HP18\n战斗\n每轮攻击次数：1\n"
              "斗殴 80% 伤害 1d3+1d4，使用砍刀时伤害为 1d6+1d6\n矛 45% 伤害 1d6+1d4（投掷时伤害加值为 1d2）\n"
              "技能攀爬 40%，急救 30%，追踪 45%。\n")
    assert zh["system"] == "coc7"
    assert [(m["name"], m["skill"], m["damage"]) for m in zh["melee"]] == [
        ("斗殴", "Fighting (Brawl)", "1D3+1D4"), ("矛", "Fighting (Spear)", "1D6+1D4")]
    assert {k: zh["skills"].get(k) for k in ("Fighting (Brawl)", "Fighting (Spear)", "Climb", "First Aid", "Track")} \
        == {"Fighting (Brawl)": 80, "Fighting (Spear)": 45, "Climb": 40, "First Aid": 30, "Track": 45}
    assert [t for _, t in unread(zh)] == ["斗殴: 使用砍刀时伤害为 1d6+1d6"]
    # the spear's note after its damage (when it is thrown) is a condition of the attack: kept in the notes
    assert "矛: 1d6+1d4 (投掷时伤害加值为 1d2)" in zh["notes"]
    none = read("普通喽啰\nSTR 40 CON 50 SIZ 50 DEX 45 INT 30\nAPP 30 POW 30 EDU 40 SAN 30 HP 10\n技能：无\n")
    assert none["skills"] == {} and not unread(none)
    # a note in brackets after a skill's chance: the skill, and the note said
    noted = read("徐述\n力量50 體質85 體型65 敏捷80 外貌55 智力50 意志65 教育60\n技能：會計40%，信用評級40%(食尸鬼社會45%)\n")
    assert noted["skills"] == {"Accounting": 40, "Credit Rating": 40}
    assert unread(noted) == [(3, "信用評級40%: (食尸鬼社會45%)")]
    # the same on a line of skills with no heading (it had been unread whole, Credit Rating lost);
    # an attack's damage in brackets stays the attack's
    loose = read("徐述\n力量50;體質85;體型65;敏捷80;外貌55;智力50;意志65;教育60\n"
                 "會計40%;信用評級40%(食尸鬼社會45%);克蘇魯神話10%\n噬咬30% (1d6+DB)\n")
    assert loose["skills"] == {"Accounting": 40, "Credit Rating": 40, "Cthulhu Mythos": 10, "噬咬": 30}
    assert unread(loose) == [(3, "信用評級40%: (食尸鬼社會45%)")]


def test_a_chinese_seventh_edition_sheet_of_a_rulebook_npc():
    """Run-on labels ('SAN：48HP：12', '体格：0MOV：9'), a footnote mark after a value ('STR 45*')
    and the footnote itself (its '(DB+1D4)' is no damage bonus of the sheet's: a note), skills of
    one speciality after another ('科学（密码学）30%，（工程学）60%'), short and specialised Chinese
    names (图书馆, 计算机, 估价（书籍）, 英语（母语）, 法语), and a damage before its word
    ('1D8+1+DB 伤害') under '武器：'."""
    doc = read("NPC：舒，36 岁\nSTR 45* CON 80 SIZ 40\nDEX 60 INT 75 APP 55\nPOW 85 EDU 75\nSAN：48HP：12 DB：0\n"
               "体格：0MOV：9 MP：17*\n* 一种罕见的法术可以使他的 STR 暂时增加到 85（DB+1D4）。\n"
               "技能：图书馆 80%，计算机 20%，估价（书籍）45%，科学（密码学）30%，（工程学）60%，英语（母语）60%，法语 20%\n"
               "武器：短弯刀 75%（37/15），1D8+1+DB 伤害\n燧发手枪 45%（22/9），1D8+1 伤害\n")
    assert (doc["system"], doc["name"], doc["STR"], doc["SAN"], doc["HP"], doc["MP"], doc["MOV"]) == \
        ("coc7", "舒", 45, 48, 12, 17, 9)
    assert doc["skills"] == {"Library Use": 80, "Computer Use": 20, "Appraise (书籍)": 45, "Science (密码学)": 30,
                             "Science (工程学)": 60, "Own Language (英语)": 60, "Language (法语)": 20,
                             "Fighting (Sword)": 75, "Firearms (Handgun)": 45}
    assert [(m["name"], m["damage"]) for m in doc["melee"]] == [("短弯刀", "1D8+1+DB")]
    assert [(w["name"], w["damage"]) for w in doc["weapons"]] == [("燧发手枪", "1D8+1")]
    assert "一种罕见的法术" in doc["notes"] and not unread(doc)
    assert not [x for x in losses_of(doc) if "DB +1D4" in x]


def test_a_japanese_fan_scenario_creature_in_key_value_sections():
    """'近接戦闘: 60% ダメージ: 1D4+DB' under 技能 (the heading's word with a chance is an attack,
    not a heading), a sentence among the skills (notes), armor as '1 ポイントの菌類の腫瘍。…'
    (1 point of 菌類の腫瘍, the rest in the notes), a Sanity loss under its own heading (it had
    become an attack named '1 /'), a skill whose name holds a characteristic's name (夢の知識 21 had
    been read as Know), ほかの言語（英語）."""
    doc = read("### 枯死したもの\n#### ステータス\nSTR: 120 CON: 75 POW: 25 DEX: 80 SIZ: 55\nHP: 12 MP: 5 DB: +1D6\n"
               "#### 技能\n近接戦闘: 60% ダメージ: 1D4+DB\n回避: 60%\n夢の知識 21、ほかの言語（英語）: 35%\n"
               "胞子のキスを受けた探索者は、ハードの CON ロールを行う。失敗した場合、感染する。\n"
               "#### 装甲\n1 ポイントの菌類の腫瘍。火器などの貫通武器は 1 ポイントのダメージしか与えない。\n"
               "#### 正気度喪失\n1 ／ 1D6\n")
    assert (doc["system"], doc["STR"], doc["HP"], doc["MP"]) == ("coc7", 120, 12, 5)
    assert doc["melee"] == [{"name": "近接戦闘", "skill": "Fighting (Brawl)", "damage": "1D4+DB"}]
    assert doc["skills"] == {"Fighting (Brawl)": 60, "Dodge": 60, "夢の知識": 21, "Language (英語)": 35}
    assert doc["armor"] == [{"name": "菌類の腫瘍", "armor": 1}]
    assert "感染する" in doc["notes"] and "貫通武器" in doc["notes"] and "1 ／ 1D6" in doc["notes"]
    assert not unread(doc)


def test_a_value_printed_again_further_down_does_not_replace_the_blocks_own():
    """A spell's cost 'MP: 4' below the stats had replaced the NPC's MP 13 with no word (the last
    one won): the first is the block's, the other is said. Spells listed as '- 《name》' with an
    indented description are the names; a sentence under the heading is a note."""
    doc = read("倪 爺賦\nSTR: 40 CON: 45 POW: 65 DEX: 50 APP: 45 SIZ: 65 INT: 80 EDU: 93\nHP: 11 マジック・ポイント: 13\n"
               "#### 呪文\nGM が必要と思えば、爺賦は任意の呪文を習得していてよい。以下は一例である。\n"
               "- 《アザトースの呪詛》\n  消費 MP: 4。正気度喪失：1D6。\n- 《視覚を奪う》\n  消費 MP: 8。\n")
    assert doc["MP"] == 13 and doc["spells"] == ["アザトースの呪詛", "視覚を奪う"]
    assert "以下は一例である" in doc["notes"] and "消費 MP: 4" in doc["notes"] and not unread(doc)
    twice = read("Cultist\nSTR 50 CON 50 SIZ 50 DEX 50 INT 50 APP 50 POW 50 EDU 50 HP 10 MP 10\n"
                 "Notes: a spell raises his MP 14 for a day\nMP: 14\n")
    assert twice["MP"] == 10 and unread(twice) == [(4, "MP 14 (MP 10 read on line 2 is kept)")]


def test_english_compendium_creature_lines():
    """'Armor: 9-point skin' printed twice on a page is one armor (it had been two layers), and
    'damage: 1d3 + damage bonus or weapon damage' is the attack's damage with the other kept in the
    notes and said (the attack had been dropped; then the other was said unread)."""
    doc = read("Hunting Horror\nSTR 145\nCON 50\nSIZ 205\nDEX 65\nINT 75\nPOW 105\nHitpoints: 25\n"
               "Armor: 9-point skin\nAttacks\nFighting: 45% damage: 1d3 + damage bonus or weapon damage\n"
               "Armor: 9-point skin\n")
    assert doc["armor"] == [{"name": "Skin", "armor": 9}]
    assert doc["melee"] == [{"name": "Fighting", "skill": "Fighting", "damage": "1D3+DB"}]
    assert not unread(doc) and "Fighting: or weapon damage" in doc["notes"]
    assert any("or weapon damage kept in the notes" in m for m in losses_of(doc))
    zh = read("哈克\nSTR 60 SIZ 70 CON 45 DEX 45\nAPP 50 INT 90 POW 65 EDU 85\n格斗（斗殴）25%，伤害1D3+1D4或其他武器\n"
              "语言：英语（母语）85%，法语20%。\n背景：\n人物描述：中等个头，秃顶，身材魁梧。\n")
    assert zh["melee"] == [{"name": "格斗(斗殴)", "skill": "Fighting (Brawl)", "damage": "1D3+1D4"}]
    assert zh["skills"] == {"Fighting (Brawl)": 25, "Own Language (英语)": 85, "Language (法语)": 20}
    assert not unread(zh) and "格斗(斗殴): 或其他武器" in zh["notes"] and "身材魁梧" in zh["notes"]


def test_a_skill_whose_damage_is_the_weapon_s_is_the_skill():
    """'Firearms (Handgun) 40%, damage by weapon type' and 射击（手枪）40%，伤害依武器 (also run on
    with the next one, a copied page's lost line break) are the NPC's firearm skills: both had been
    left unread, the skills lost."""
    en = read("Harold Vance\nSTR 50 CON 60 SIZ 65 DEX 55 INT 70 POW 50 APP 50 EDU 60\nHP: 12\nCombat\n"
              "Firearms (Handgun) 40%, damage by weapon\nFirearms (Rifle/Shotgun) 70%, damage by weapon type\n"
              "Dodge 30%\n")
    assert en["skills"] == {"Firearms (Handgun)": 40, "Firearms (Rifle/Shotgun)": 70, "Dodge": 30}
    assert not unread(en) and not en.get("weapons")
    zh = read("万斯\n力量 50 体质 60 体型 65 敏捷 55 智力 70 意志 50 外貌 50 教育 60\n生命值 12\n"
              "射击（手枪）40%，伤害依武器射击（步霰）70%，伤害依武器\n闪避 30%\n")
    assert zh["skills"] == en["skills"] and not unread(zh)


def test_a_creature_s_attack_whose_damage_is_no_roll_of_hit_points_keeps_its_chance():
    """'噛みつき: 50% ダメージ: 毎ラウンド 1D4' (each round) is the bite's damage, 'each round' a note; '舌:
    60% ダメージ: POW 1D10' (a characteristic drained) is a note, its attack and chance kept: both
    had been unread (then said unread, now kept in the notes)."""
    ja = read("沼の潜むもの\nSTR: 85 CON: 70 POW: 50 DEX: 60 SIZ: 75 INT: 40\nHP: 14\n技能\n"
              "噛みつき: 50% ダメージ: 毎ラウンド 1D4\n舌: 60% ダメージ: POW 1D10\n")
    assert {k: ja["skills"][k] for k in ("噛みつき", "舌")} == {"噛みつき": 50, "舌": 60}
    assert {m["name"]: m["damage"] for m in ja["melee"]} == {"噛みつき": "1D4", "舌": ""}
    assert not unread(ja) and "噛みつき: 1D4 毎ラウンド" in ja["notes"] and "舌: ダメージ: POW 1D10" in ja["notes"]
    # the damage in brackets after the chance, with what is added said in words: the dice, and it said
    zh = read("食屍鬼\n力量 16 體質 13 體型 13 智力 10 意志 11 敏捷 13\n生命值 13\n武器：噬咬30% (1d6+牙齒的附加傷害)\n")
    assert zh["skills"]["噬咬"] == 30 and [(m["name"], m["damage"]) for m in zh["melee"]] == [("噬咬", "1d6")]
    assert [t for _, t in unread(zh)] == ["噬咬: +牙齒的附加傷害"]


def test_a_bestiary_s_attack_told_elsewhere_keeps_its_chance_and_a_damage_or_another_is_the_damage():
    """A bestiary's 'Sting 40%, damage: POW 1D10' had become a close-combat line named 'Sting 40%,
    damage: POW' doing 1D10; 'Claw 45% — See Full Entry' (a Cthulhu Invictus module's attacks) and
    'Fists 50%, damage special' had been unread, their chances lost. Each keeps its chance, what it
    says of its damage said; a 'Breath Weapon 25% — Special' is no close combat by its name: unread,
    said why. '斗殴 60% (30/12), 伤害 1D3+DB / 武器伤害' (or a weapon's) is the brawl's 1D3+DB, the
    other said (it had been unread); 'Shotgun 50% - Damage 4D6' is a shotgun (it had been named
    'Shotgun 50% -')."""
    en = read("Manticore\nSTR 95 CON 65 SIZ 80 DEX 95 INT 65 POW 65\nHP 14\nAttacks: Sting 40%, damage: POW 1D10\n"
              "Attacks: Claw 45% — See Full Entry\nAttacks: Breath Weapon 25% — Special\nAttacks: Bite 55% — 1D8+DB\n"
              "Shotgun 50% - Damage 4D6\n")
    assert {m["name"]: m["damage"] for m in en["melee"]} == {"Sting": "", "Claw": "", "Bite": "1D8+DB"}
    assert {k: en["skills"][k] for k in ("Sting", "Claw", "Bite")} == {"Sting": 40, "Claw": 45, "Bite": 55}
    assert [(w["name"], w["damage"]) for w in en["weapons"]] == [("Shotgun", "4D6")]
    assert [t for _, t in unread(en)] == [
        "Claw: damage 'See Full Entry' (no dice: the line has no damage)",
        "Breath Weapon 25% — Special (an attack whose damage is not stated, and no close combat by its name)"]
    assert "Sting: damage: POW 1D10" in en["notes"]  # a characteristic drained: a note (it had been said unread)
    zh = read("达米安\n力量 50 体质 60 体型 65 敏捷 55 智力 70 意志 50 外貌 50 教育 60\n生命值 12\n"
              "斗殴 60% (30/12), 伤害 1D3+DB / 武器伤害\nFighting (Brawl) 60%, damage special\n")
    assert [(m["name"], m["skill"], m["damage"]) for m in zh["melee"]] == [("斗殴", "Fighting (Brawl)", "1D3+DB")]
    assert zh["skills"] == {"Fighting (Brawl)": 60}
    # a skill of the sheet's own with its damage said in words: the skill, the words said (not dropped)
    assert [t for _, t in unread(zh)] == ["斗殴: / 武器伤害", "Fighting (Brawl): damage special"]


def test_a_bestiary_s_attacks_made_with_fighting_its_armor_with_words_after_and_a_bracketed_skill():
    """A Cthulhu Invictus-style bestiary block: 'Fighting, Claws 35%' had become a skill named
    'Fighting, Claws'; 'Bite 50% — 1D8+poison' had been unread (its only attack lost); '6 points of
    thick hide, but …' (armor with what it says of itself after a comma or full stop) had been
    unread (no armor); 'Track (50%, human flesh by scent)' unread; a sentence about its attacks
    unread. The Claws is made with Fighting (a second chance of Fighting is the Tail's own skill);
    the Bite is 1D8, '+poison' said; the armor is 6 points, the rest a note; Track 50, its bracket
    said; the sentence a note."""
    doc = read("Cave Beast\nSTR 110 CON 130 SIZ 100 DEX 70 INT 50 POW 60\nHP 23 MOV 10\n"
               "Attacks: Fighting, Claws 35% — See Full Entry\nAttacks: Fighting, Tail 45% — 1D6+DB\n"
               "Attacks: Bite 50% — 1D8+poison\n"
               "Attacks: It tramples anyone who stands in its way when it charges\n"
               "Armor: 6 points of thick hide, but fire harms it normally\n"
               "Skills: Track (50%, human flesh by scent), Listen 60%\n")
    assert [(m["name"], m["skill"], m["damage"]) for m in doc["melee"]] == [
        ("Claws", "Fighting", ""), ("Tail", "Tail", "1D6+DB"), ("Bite", "Bite", "1D8")]
    assert doc["skills"] == {"Fighting": 35, "Tail": 45, "Bite": 50, "Track": 50, "Listen": 60}
    assert doc["armor"] == [{"name": "Thick hide", "armor": 6}]
    assert "but fire harms it normally" in doc["notes"]
    assert "It tramples anyone who stands in its way when it charges" in doc["notes"]
    assert sorted(t for _, t in unread(doc)) == ["Bite: +poison", "Claws: damage 'See Full Entry' (no dice: the line has no damage)",
                                                 "Track: human flesh by scent"]
    # the same block converts: the Claws and the Tail are the creature's attacks in coc7
    out = api.convert(api.from_plain(doc, "beast.txt"), "coc7", fresh=True, trace=False).document
    assert {m.name: m.skill for m in out.melee} == {"Claws": "Fighting", "Tail": "Tail", "Bite": "Bite"}


def test_a_shapechanger_s_attacks_in_its_forms_are_made_with_its_fighting():
    """A bestiary's werehyena prints 'Fighting (as Human) 50%' and 'Fighting (as Hyena) 50%': two
    skills that no system knew, so it crossed with no close-combat skill at all (GURPS wrote no
    Brawling). Each is an attack of that form, made with the creature's Fighting."""
    doc = read("Werehyena\nSTR 50 CON 60 SIZ 55 DEX 70 INT 60 POW 70\nHP 11\n"
               "Attacks: Fighting (as Human) 50% — See Full Entry\nAttacks: Fighting (as Hyena) 50% — 1D8+DB\n")
    assert doc["skills"] == {"Fighting": 50}
    assert [(m["name"], m["skill"], m["damage"]) for m in doc["melee"]] == [
        ("Fighting (as Human)", "Fighting", ""), ("Fighting (as Hyena)", "Fighting", "1D8+DB")]
    nwod = api.convert(api.from_plain(doc, "werehyena.txt"), "nwod", fresh=True, trace=False).document
    assert nwod.skills.get("Brawl") == 1  # an amateur's brawl (it had been no Brawl at all)


OFFICIAL_SHEET = """Mara Quill Birthplace Pronoun
Age 41
Journalist
Occupation Residence

STR 45 22 9 SIZ 60 30 12 Hit Points 11 11

CON 55 27 11 POW 65 32 13 Magic Points 13 13

DEX 70 35 14 APP 60 30 12 Luck 50

INT 80 40 16 EDU 85 42 17 Sanity 65 65

Max Sanity 99 Temporary Insanity Indefinite Insanity Major Wound Unconscious Dying

Accounting (05%) 5 2 1 Firearms 40 20 8 Persuade (10%) 45 22 9

(Handgun) (20%)
Art / Craft
Charm (15%) 15 7 3 None (01%) 1 0 0 Psychology (10%) 60 30 12
Cthulhu Mythos (00%) 0 0 0 English (EDU) 85 42 17 Spot Hidden (25%) 55 27 11
Language (Own)
Dodge (half DEX) 35 17 7 Library Use (20%) 70 35 14 Elec. Repair (10%) 10 5 2
Firearms 30 15 6 None 1 0 0
(Rifle/Shotgun) (25%) 45 22 9 Occult (05%)
"""


def test_the_official_seventh_edition_sheet_copied_as_text():
    """The official investigator sheet as a PDF's text gives: its skills three a row, each 'Name
    (base%) value half fifth'. Its skills had all been unread (the NPC had none), and its name
    line's field labels taken for part of the name."""
    doc = read(OFFICIAL_SHEET)
    assert (doc["system"], doc["name"], doc["STR"], doc["EDU"], doc["DEX"]) == ("coc7", "Mara Quill", 45, 85, 70)
    assert doc["skills"] == {"Accounting": 5, "Firearms (Handgun)": 40, "Persuade": 45, "Charm": 15,
                             "Psychology": 60, "Cthulhu Mythos": 0, "Own Language (English)": 85, "Spot Hidden": 55,
                             "Dodge": 35, "Library Use": 70, "Electrical Repair": 10, "Firearms (Rifle/Shotgun)": 45}
    # a speciality alone on the line below its skill's row is that skill's; one printed with values
    # beside it ("(Rifle/Shotgun) (25%) 45 22 9", before the next column's label on that line) has
    # those values, a PDF's text of a two-line cell (the skill had been said unread); the values left
    # beside the head on its line and a label with none beside it are another column's: said, not guessed
    assert [t for _, t in unread(doc) if not t.startswith("INT")] == [
        "30 15 6 (a value with no skill beside it on its line)", "Occult (05%) (no value beside it on its line)"]
    # its 'Hit Points 11 11' and 'Magic Points 13 13' (the maximum and current boxes, the same) are
    # the HP and MP (each second number had been said unread)
    assert (doc["HP"], doc["MP"]) == (11, 13)
    # (the sheet's labels of no value are no unread lines: 'Art / Craft', 'Language (Own)', 'Major Wound')
    # a characteristic's half and fifth are the sheet's own ('DEX 70 35 14'): read with it, unsaid;
    # two numbers that are not are said
    assert not [t for _, t in unread(doc) if t.startswith("DEX")]
    wrong = read(OFFICIAL_SHEET.replace("DEX 70 35 14", "DEX 70 30 14"))
    assert wrong["DEX"] == 70 and any("not the half and fifth of 70" in t for _, t in unread(wrong))
    # a row whose halves are not its values' is no sheet row: left as it was (unread)
    odd = read(OFFICIAL_SHEET.replace("Psychology (10%) 60 30 12", "Psychology (10%) 60 31 12"))
    assert "Psychology" not in odd["skills"] and "Charm" not in odd["skills"]


def test_the_official_sheet_under_its_printed_skills_heading_with_ticks_and_filled_in_words():
    """The same sheet with the SKILLS heading its PDF's text prints among the rows: every row under
    it had been unread (a heading's items are split at commas, and a row has none), so the NPC kept
    a handful of skills. Under it a row is still the sheet's row; the tick a player sets beside a
    skill used in play (✔) is no part of its name; a cell whose name the text set on another line
    ('(01%) 1 0 0'), a skill with no value before the next cell ('Cthulhu Mythos (00%) English
    (EDU) 85 42 17') and words written into a cell before its skill ('knows the town Psychology
    (10%)') are said, the rest read."""
    sheet = OFFICIAL_SHEET.replace("Art / Craft\n", "Art / Craft\nSKILLS\n").replace(
        "Charm (15%) 15 7 3 None (01%) 1 0 0 Psychology (10%) 60 30 12",
        "✔ Charm (15%) 15 7 3 (01%) 1 0 0 knows the town Psychology (10%) 60 30 12").replace(
        "Cthulhu Mythos (00%) 0 0 0 English (EDU)", "Cthulhu Mythos (00%) English (EDU)").replace(
        "Dodge (half DEX) 35 17 7 Library Use", "✔ Dodge (half DEX) 35 17 7 ✔ Library Use")
    doc = read(sheet)
    assert doc["skills"] == {"Accounting": 5, "Firearms (Handgun)": 40, "Persuade": 45, "Charm": 15,
                             "Psychology": 60, "Own Language (English)": 85, "Spot Hidden": 55,
                             "Dodge": 35, "Library Use": 70, "Electrical Repair": 10, "Firearms (Rifle/Shotgun)": 45}
    said = [t for _, t in unread(doc) if not t.startswith("INT")]
    for text in ("(01%) 1 0 0 (a value with no skill beside it on its line)",
                 "knows the town (written before Psychology)", "Cthulhu Mythos (00%) (no value beside it on its line)"):
        assert text in said, said


BLOG_PAGE = """---
title: "探索者：早瀬 澪"
layout: single
permalink: /coc/characters/hayase/
sidebar:
  - title: "早瀬 澪"
    text: "<strong>職業:</strong> 記者<br><strong>年齢:</strong> 29"
---

## 探索者のステータス

**HP**: 12, **MP**: 14, **正気度**: 70

**STR**: 10, **CON**: 12, **POW**: 14, **DEX**: 15, **APP**: 13, **SIZ**: 11, **INT**: 16, **EDU**: 17

## 探索者の技能

<div class="grid">
  <h3>戦闘技能</h3>
  <table class="skill-table">
    <tr><td class="skill-key">回避</td><td class="skill-value">40</td></tr>
    <tr><td class="skill-key">拳銃</td><td class="skill-value">45</td></tr>
  </table>
  <h3>探索技能</h3>
  <table class="skill-table">
    <tr><td class="skill-key">目星</td><td class="skill-value">65</td></tr>
  </table>
</div>
"""

HTML_CREATURE = """<H3>灰鬃，林中的影子</H3>
<TABLE border=1>
<TR><TD>属性</TD><TD>骰点</TD><TD>均值</TD></TR>
<TR><TD>STR</TD><TD>(3D6+6)*5</TD><TD>80</TD></TR>
<TR><TD>CON</TD><TD>(2D6+6)*5</TD><TD>65</TD></TR>
<TR><TD>SIZ</TD><TD>(3D6+2)*5</TD><TD>60</TD></TR>
<TR><TD>DEX</TD><TD>(2D6+6)*5</TD><TD>65</TD></TR>
<TR><TD>INT</TD><TD>4D6*5</TD><TD>70</TD></TR>
<TR><TD>POW</TD><TD>3D6*5</TD><TD>50</TD></TR></TABLE>
<P><B>平均生命值：</B>12
<BR>格斗 50%（25/10）伤害 1D6+DB
<P><B>法术：</B>约有三成的概率知晓 1D2 个法术。
<BR><B>理智损失：</B>目睹它变形造成 0/1D4 点理智损失
"""


def test_a_page_s_source_is_read_without_its_tags():
    """A blog page's Markdown source (its front matter, HTML tables of skills under the Japanese
    sheet's skill groups) and a wiki page's HTML (a creature's table of stat, roll and average):
    the first had its skills unread and the page's title for a name, the second was refused."""
    blog = read(BLOG_PAGE)
    assert (blog["system"], blog["name"], blog["STR"], blog["EDU"]) == ("coc", "早瀬 澪", 10, 17)
    assert blog["skills"] == {"Dodge": 40, "Handgun": 45, "Spot Hidden": 65} and not unread(blog)
    assert "職業: 記者" in blog["notes"] and "layout" not in blog["notes"] and "<" not in blog["notes"]
    creature = read(HTML_CREATURE)
    assert (creature["system"], creature["name"]) == ("coc7", "灰鬃，林中的影子")
    assert {k: creature[k] for k in ("STR", "CON", "SIZ", "DEX", "INT", "POW")} == {
        "STR": 80, "CON": 65, "SIZ": 60, "DEX": 65, "INT": 70, "POW": 50}
    assert creature["skills"] == {"Fighting (Brawl)": 50} and not creature.get("spells")  # the Sanity loss: no spell
    assert "0/1D4" in creature["notes"] and "骰点" not in creature["notes"]  # (the table's head: no note)


def test_a_list_wrapped_between_a_skill_and_its_chance_and_a_skill_with_no_weapon_carried():
    """A scanned book's skill list wraps where a name and its chance part ('..., Chemistry' /
    '55%, Credit Rating 95%'): both lines had been read apart, the skill and the chance each unread.
    'Rifle 60%, none carried' is the Rifle skill (it had been unread, the skill lost)."""
    doc = read("Dr. Ilse Brandt\nSTR 9 CON 11 SIZ 10 INT 17 POW 15 DEX 12 APP 10 EDU 20 SAN 70 HP 11\n"
               "Weapons: Rifle 60%, none carried\n"
               "Skills: Accounting 40%, Astronomy 55%, Chemistry\n55%, Credit Rating 60%, Occult 45%.\n")
    assert doc["skills"] == {"Rifle": 60, "Accounting": 40, "Astronomy": 55, "Chemistry": 55, "Credit Rating": 60,
                             "Occult": 45}
    assert not unread(doc) and not doc.get("weapons")


def test_markdown_and_pipe_tables_with_half_and_fifth_values():
    """A Markdown table whose value cells carry their half and fifth ('55 (27/11)'), a '**Combat**'
    bold heading with no colon, and a pipe table of a stat a row ('STR | 60 | 30 | 12 |' under
    'Attribute | Base | Half | Fifth |'): all three had been refused."""
    md = read("Owen Hale\n| STR | CON | SIZ | DEX | INT | POW |\n|---|---|---|---|---|---|\n"
              "| 55 (27/11) | 60 (30/12) | 65 (32/13) | 50 (25/10) | 75 (37/15) | 80 (40/16) |\n"
              "**HP** 12 **MP** 16\n**Combat** Fighting (Brawl) 45% (22/9), damage 1D3 + DB\n"
              "**Skills** Spot Hidden 55%, Persuade 50%\n")
    assert (md["system"], md["STR"], md["POW"], md["HP"], md["MP"]) == ("coc7", 55, 80, 12, 16)
    assert md["skills"] == {"Fighting (Brawl)": 45, "Spot Hidden": 55, "Persuade": 50} and not unread(md)
    rows = read("Antique dealer\nAttribute | Base | Half | Fifth |\nSTR | 60 | 30 | 12 |\nCON | 60 | 30 | 12 |\n"
                "SIZ | 60 | 30 | 12 |\nDEX | 40 | 20 | 8 |\nAPP | 55 | 27 | 11 |\nINT | 85 | 42 | 17 |\n"
                "POW | 45 | 22 | 9 |\nEDU | 48 | 24 | 9 |\nLuck | 45 | 22 | 9 |\nHit Points: 12\n")
    assert [rows[k] for k in ("STR", "DEX", "INT", "EDU", "Luck", "HP")] == [60, 40, 85, 48, 45, 12]
    assert rows["system"] == "coc7" and not unread(rows)


def test_a_name_labelled_on_the_stats_line():
    """'姓名:徐述;年齡:48;… HP15/15;MP12/13' (a novel's block, fields apart by semicolons): the
    name is 徐述 (it had been 'Unnamed NPC'), the stats on the line are read; the age and occupation
    labelled there are notes (they had been said unread, the name read with them)."""
    doc = read("姓名:徐述;年齡:48;職業:店老板 HP15/15;MP12/13\n力量50;體質85;體型65;敏捷80;外貌55;智力50;意志65;教育60\n")
    assert (doc["name"], doc["HP"], doc["MP"], doc["CON"]) == ("徐述", 15, 12, 85)
    assert doc["notes"] == "年齡:48 職業:店老板" and not unread(doc)


def test_a_dice_bots_character_string():
    """The '.st' string Chinese groups keep their characters in for their QQ dice bots, names run
    on into their values ('力量60str60体质45con45…理智40san40体力11hp11…侦查25射击手枪20cm0'),
    with colons and spaces, or with '|' (all had been refused): the stats (an alias repeating one
    is left out; 灵感 and 知识 are INT and EDU again; 体力 is the HP), then every skill."""
    run = read(".st力量60str60体质45con45体型65siz65敏捷70dex70外貌50app50智力75int75灵感75意志40pow40"
               "教育65edu65知识65幸运55luck55理智40san40体力11hp11魔法8mp8侦查25闪避35斗殴25射击手枪20cm0\n")
    assert [run[k] for k in ("STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU", "HP", "MP", "SAN", "Luck")] == \
        [60, 45, 65, 70, 50, 75, 40, 65, 11, 8, 40, 55]
    assert (run["system"], run["name"]) == ("coc7", "Unnamed NPC")
    assert run["skills"] == {"Spot Hidden": 25, "Dodge": 35, "Fighting (Brawl)": 25, "Firearms (Handgun)": 20,
                             "Cthulhu Mythos": 0}
    assert not unread(run)
    spaced = read(".st力量:50 体质:55 体型:65 敏捷:45 外貌:70 智力:75 意志:35 教育:65 幸运:75\n")
    assert (spaced["STR"], spaced["EDU"], spaced["Luck"]) == (50, 65, 75)
    piped = read(".st力量90|外貌5|智力50|体质50|体型60|敏捷50|意志40|教育60|侦察30\n")
    assert (piped["STR"], piped["APP"], piped["skills"]) == (90, 5, {"Spot Hidden": 30})


def test_a_language_under_languages_is_an_other_language():
    """'Languages: English 80%, Latin 40%' are 7th edition's Language (English) and (Latin), as 言語（英語）
    is (they had been skills named 'English' and 'Latin'); a name that says its skill stays."""
    doc = read("Prof\nSTR 50 CON 50 SIZ 50 DEX 50 INT 80 APP 50 POW 60 EDU 85 HP 10\nSkills: Library Use 70%\n"
               "Languages: English 80%, Latin 40%, Language (Own) 85%\n")
    assert doc["skills"] == {"Library Use": 70, "Language (English)": 80, "Language (Latin)": 40,
                             "Language (Own)": 85}
    # the 7th-edition sheet's heading before the language it names ('Language (Other) Latin'): it had
    # been a skill of that whole name, said as unknown
    named = read("Prof\nSTR 50 CON 50 SIZ 50 DEX 50 INT 80 APP 50 POW 60 EDU 85 HP 10\n"
                 "Skills: Language (Other) Latin 45%, Language (Own) English 85%\n")
    assert named["skills"] == {"Language (Latin)": 45, "Own Language (English)": 85}
    assert not named["xsys"]["read"].get("unknown")


def test_a_seventh_edition_characteristic_beyond_the_sheet_is_said_with_its_printed_number():
    """A Great Old One's SIZ 1050 is a coc7 value (it had been beyond the sheet's 1-999); a SIZ 10500 is beyond
    a coc7 sheet (1-9999): said with the number printed and what is written instead (it had been called 'not
    in the block'); a dice bot's STR 999999 is said as 999999, not as the 200000 coc's scale would make of it."""
    doc = read("Great One\nSTR 700 CON 550 SIZ 1050 DEX 105 INT 210 POW 210 HP 160\n")
    assert (doc["STR"], doc["SIZ"]) == (700, 1050) and not unread(doc)
    doc = read("Greater One\nSTR 700 CON 550 SIZ 10500 DEX 105 INT 210 POW 210 HP 160\n")
    assert (doc["STR"], doc["SIZ"]) == (700, 65)
    assert unread(doc) == [(2, "SIZ 10500 (a coc7 characteristic is 1-9999): written as the average adult's 65")]
    bot = read(".st力量999999体质50体型60敏捷50外貌50智力60意志50教育60\n")
    assert [t for _, t in unread(bot)] == ["STR 999999 (a coc7 characteristic is 1-9999): written as the average "
                                          "adult's 55"]


def test_the_roll20_compendium_attributes_view():
    """The Roll20 compendium's attributes view of a creature: each key alone on a line, its value on
    the next, the lists as JSON (it had been refused); a sentence about spells is a note."""
    doc = read("Night Flyer\nAttributes\narmor\n2 points of leathery hide.\nattacks_per_round\n1\n"
               "characteristics_average\n{\"strength\":\"80\",\"constitution\":\"60\",\"size\":\"75\","
               "\"dexterity\":\"65\",\"intelligence\":\"40\",\"power\":\"55\"}\n"
               "combat_attacks\n[{\"name\":\"Fighting\",\"target\":\"45\",\"damage\":\"1D6\",\"damage_bonus\":\"full\"}]\n"
               "dodge\n30\nhitpoints\n13\nmagicpoints\n11\nskills\nListen 40, Spot Hidden 45\n"
               "spells_known\nNight flyers have a 20% chance of knowing 1D3 spells.\n")
    assert [doc[k] for k in ("STR", "CON", "SIZ", "DEX", "INT", "POW", "HP", "MP")] == [80, 60, 75, 65, 40, 55, 13, 11]
    assert doc["skills"] == {"Dodge": 30, "Listen": 40, "Spot Hidden": 45, "Fighting": 45}
    assert doc["melee"] == [{"name": "Fighting", "skill": "Fighting", "damage": "1D6+DB"}]
    assert doc["armor"] == [{"name": "Leathery hide", "armor": 2}] and "spells" not in doc
    assert "20% chance of knowing" in doc["notes"]
    assert not unread(doc)


def test_japanese_tables_and_one_stat_a_line():
    """A Markdown table of names over values, a plain table, one stat a line in full-width
    letters with full-width colons, 【STR】 brackets: read as "STR 11 CON 13 ..."."""
    md = read("神父 ベネディクト\n| STR | CON | POW | DEX | APP | SIZ | INT | EDU |\n"
              "|:---:|:---:|:---:|:---:|:---:|:---:|:---:|:---:|\n| 11 | 13 | 16 | 10 | 12 | 12 | 15 | 17 |\n"
              "| HP | MP | SAN |\n|---|---|---|\n| 13 | 16 | 48 |\n")
    assert [md[k] for k in ("STR", "CON", "POW", "DEX", "APP", "SIZ", "INT", "EDU", "HP", "MP", "SAN")] == \
        [11, 13, 16, 10, 12, 12, 15, 17, 13, 16, 48]
    plain = read("刑事 さえき\nSTR CON POW DEX APP SIZ INT EDU\n14  13  11  12  10  15  13  15\n")
    assert (plain["STR"], plain["EDU"]) == (14, 15)
    lines = read("水無瀬 あかり\nＳＴＲ：９\nＣＯＮ：１２\n【ＰＯＷ】１６\n【ＤＥＸ】１４\nＡＰＰ：１５\nＳＩＺ：１０\n"
                 "ＩＮＴ：１３\nＥＤＵ：１４\nＨＰ：１１\n")
    assert [lines[k] for k in ("STR", "CON", "POW", "DEX", "APP", "SIZ", "INT", "EDU", "HP")] == \
        [9, 12, 16, 14, 15, 10, 13, 14, 11]
    for doc in (md, plain, lines):
        assert doc["system"] == "coc" and not unread(doc)


def test_a_japanese_block_with_no_kana_is_not_taken_for_chinese():
    doc = read("佐伯健吾\nSTR 14 CON 13 POW 11 DEX 12 APP 10 SIZ 15 INT 13 EDU 15\n技能：拳銃60、目星55、回避40\n")
    assert doc["system"] == "coc" and doc["skills"] == {"Handgun": 60, "Spot Hidden": 55, "Dodge": 40}


def test_sanity_magic_points_and_luck_in_every_language_are_kept():
    """SAN, MP and Luck the block states are the document's own fields (carried through every
    other system), the values the characteristics would give included."""
    en = read("Walter\nSTR 12 CON 11 SIZ 13 DEX 10 APP 9 INT 14 POW 14 EDU 15\nSAN 70 MP 14 Luck 45\n")
    assert (en["SAN"], en["MP"], en["Luck"]) == (70, 14, 45)
    ja = read("久遠寺\nSTR 40 CON 55 SIZ 50 DEX 65 APP 70 INT 80\nPOW 75 EDU 85 正気度 60 耐久力 10\n"
              "マジック・ポイント：15 幸運：50\n")
    assert (ja["SAN"], ja["MP"], ja["Luck"], ja["HP"]) == (60, 15, 50, 10)
    zh = read("赵\n力量 70 体质 65 体型 75 敏捷 50 外貌 40 智力 55\n意志 45 教育 40 理智 45 魔法值 9 幸运 35\n")
    assert (zh["SAN"], zh["MP"], zh["Luck"]) == (45, 9, 35)
    gurps = api.convert(api.from_plain(ja, "ja.txt"), "gurps", fresh=True, trace=False).document
    # a 7th-edition block is coc7's: its own values carried under its namespace
    assert ja["system"] == "coc7"
    assert {k: gurps.carried["coc7"][k] for k in ("SAN", "MP", "Luck")} == {"SAN": 60, "MP": 15, "Luck": 50}


# ---- what cannot be read -----------------------------------------------------------------

def test_a_chance_out_of_range_is_a_loss_for_that_skill_not_a_mangled_name():
    doc = read("Jonas Pike\nSTR 12 CON 14 SIZ 13 DEX 9 APP 7 INT 12 POW 11 EDU 10\n"
               "Skills: Dodge 1000%, Swim 50%\nCombat\nDodge 1000%\n")
    assert doc["skills"] == {"Swim": 50} and "Dodge 1" not in doc["skills"]
    assert unread(doc) == [(3, "Dodge 1000% (1000% is no skill chance: 0-200%)"),
                           (5, "Dodge 1000% (1000% is no skill chance: 0-200%)")]


def test_a_mostly_readable_block_converts_with_losses_naming_each_line(tmp_path):
    """A Traditional Chinese block (refused whole before: "cannot tell which system") with lines
    no coc document has a place for converts; each of those lines is a loss naming it."""
    src = tmp_path / "lin.txt"
    src.write_text("林志明, 年齡 52\n力量 45 體質 50 體型 60 敏捷 55 外貌 60 智力 75\n"
                   "意志 70 教育 80 理智 62 生命值 11\n脾氣: 暴躁\n戰鬥列表\n攻擊次數: 2\n"
                   "鬥毆 30% (15/6), 傷害 1D3+DB\n彈弓, 射程 20 m\n理智喪失: 0/1D3\n", encoding="utf-8")
    conv = api.convert(api.load(src), "gurps", trace=False)
    lost = sorted((x.path, x.message.split(": ", 1)[1]) for x in conv.losses if x.rule == "text.unread")
    assert lost == [("line 4", "脾氣: 暴躁"), ("line 8", "彈弓, 射程 20 m")]
    # the Sanity loss the NPC causes and its attacks a round are the Keeper's to know: kept in the
    # notes, said
    assert any(x.path == "line 9" and "理智喪失: 0/1D3 kept in the notes" in x.message for x in conv.losses)
    assert any(x.path == "line 6" and "攻擊次數: 2 kept in the notes" in x.message for x in conv.losses)
    assert "攻擊次數: 2" in conv.document.notes
    assert conv.document.name == "林志明"


def test_a_characteristic_no_coc_document_holds_is_a_loss_not_a_failed_block():
    doc = read("Big Thing\nSTR 1000 CON 12 SIZ 13 DEX 10 APP 9 INT 14 POW 12 EDU 15 HP 1200\n")
    assert "STR" in doc and doc["STR"] == 11 and "HP" not in doc  # the average adult, said so
    assert unread(doc) == [(2, "STR 1000 (a coc characteristic is 1-999)"), (2, "HP 1200 (outside 0-999)")]
    api.from_plain(doc, "big.txt")


_TOKENS = ["STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU", "HP", "MP", "SAN", "Luck", "DB", "Build", "Move",
           "力量", "體質", "體型", "外貌", "理智", "生命值", "魔法值", "幸運", "正気度", "耐久力", "【STR】", "ＳＴＲ", "|", "|---|",
           "12", "55", "1000", "(25/10)", "%", "damage", "1D10+2", "1D3+DB", ",", "、", "・", "：", "Combat", "Skills:",
           "武器：", "Bite", "コルト・ガバメント", "手槍", "Dodge", "age 27", "By X", "(3D6)×5", "Attacks per round: 2",
           "Sanity Loss: 0/1D6", "edition: 7e", "①", "**", "###", "-", "none", "\n"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(_TOKENS), max_size=50).map(" ".join))
def test_any_block_of_coc_words_reads_as_a_valid_document_or_one_clear_error(text):
    try:
        doc = read(text)
    except InputError as exc:
        assert "stat block" in str(exc)
        return
    api.from_plain(doc, "fuzz.txt")  # a valid document: whatever was out of range is a loss


# ---- the corpus: each document against its expectation -----------------------------------

def _corpus():
    return sorted(CORPUS.glob("*.txt"))


def _expected_chars(doc: dict, exp: dict) -> dict:
    """The document's characteristics in the document's own scale as the expectation compares
    them: a 7th-edition document read into coc-zh (the Chinese rules) is read as value / 5
    rounded half up; into coc7 as written."""
    if exp.get("scale") == "7e" and exp.get("system") != "coc7":
        return {k: max(1, (2 * v + 5) // 10) for k, v in exp.get("characteristics", {}).items()}
    return dict(exp.get("characteristics", {}))


@pytest.mark.parametrize("path", _corpus(), ids=lambda p: p.name)
def test_a_corpus_document_reads_as_its_expectation(path):
    exp = tomllib.loads(path.with_suffix(".expect.toml").read_text(encoding="utf-8"))
    doc = load(path.read_bytes())
    assert (exp["format"], doc["system"], doc["name"]) == ("text", exp["system"], exp["name"])
    assert {k: doc[k] for k in exp.get("characteristics", {})} == _expected_chars(doc, exp)
    assert {k: doc.get(k) for k in exp.get("derived", {})} == exp.get("derived", {})
    assert {k: doc["skills"].get(k) for k in exp.get("skills", {})} == exp.get("skills", {})
    for key, got in (("weapons", doc["weapons"]), ("melee", doc.get("melee", []))):
        want = exp.get(key, [])
        def same(x: dict) -> dict:  # damage dice are read in either case (coc7 writes 1D10, coc 1d10)
            return {k: str(v).lower() if k == "damage" else v for k, v in x.items()}

        assert [same({k: g.get(k) for k in w}) for g, w in zip(got, want)] == [same(w) for w in want] \
            and len(got) == len(want), key
    rep = report(doc)
    said = exp.get("read", {})
    assert said.get("reader", "") in rep.get("reader", "") and said.get("edition", "") in rep.get("edition", "")
    losses = read_losses(doc.get("xsys"), doc["system"])
    lines = [f"{x.path}: {x.message}" for x in losses]
    for loss in said.get("losses", []):
        assert any(loss in x for x in lines), loss
    for x in losses:  # nothing is lost that the expectation does not name
        if x.kind == "dropped-item":
            assert any(loss in f"{x.path}: {x.message}" for loss in said.get("losses", [])), x.message


def test_a_line_run_on_into_the_next_section_s_heading():
    """A page whose line breaks were lost runs the attacks into the skills: 'Fist/Punch 70%, damage
    1D3+1D4 Kick 40%, damage 1D6+1D4 Skills: Haggle 45%, Drive Auto 35%, ...'. The Kick and the
    skills the reader does not know by name had been unread (lost); the skills go on under their
    heading. A notes line is prose: a 'Skills:' in it starts no section."""
    doc = read("Vinnie Rocco\nSTR 14 CON 13 DEX 12 APP 9 SIZ 14\nINT 10 POW 9 EDU 8 SAN 45 HP 14\n"
               "Weapons: .38 Revolver 55%, damage 1D10\n"
               "Fist/Punch 70%, damage 1D3+1D4 Kick 40%, damage 1D6+1D4 Skills: Haggle 45%, Drive Auto 35%, "
               "Sneak 60%.\nNotes: talks big. Skills: none worth naming.\n")
    assert [(m["name"], m["damage"]) for m in doc["melee"]] == [("Fist/Punch", "1d3+1d4"), ("Kick", "1d6+1d4")]
    assert {k: doc["skills"].get(k) for k in ("Fist/Punch", "Kick", "Haggle", "Drive Auto", "Sneak")} == {
        "Fist/Punch": 70, "Kick": 40, "Haggle": 45, "Drive Auto": 35, "Sneak": 60}
    assert not unread(doc) and "Skills: none worth naming" in doc["notes"]


def test_a_seventh_edition_creature_has_no_appearance_and_no_education():
    """A 7th-edition creature block prints no APP and no EDU: the coc7 sheet had been given the
    average adult's APP 55 and EDU 70, and the 'EDU 70' carried through every other system as the
    creature's education. It has none, said; the neutral NPC has none, a trip back to coc7 writes
    none, and so does the 6th-edition sheet (the editions' characteristics are one); GURPS, which
    needs no APP, carries none, and a system whose sheet needs them (nWoD Presence) assumes the
    adult median, said by that conversion. A block that states them keeps them."""
    doc = read("Moor Hound\nSTR 85 CON 70 SIZ 90 DEX 75 INT 40 POW 50\nHP 16\nBite 50%, damage 1D8+DB\n")
    assert doc["system"] == "coc7" and doc.get("APP") is None and doc.get("EDU") is None
    assert any(a.startswith("APP, EDU: none stated, none written") for a in report(doc)["assumed"])
    src = api.from_plain(doc, "hound.txt")
    neutral = api.convert(src, "neutral", trace=False).document
    assert not {"appearance", "education"} & set(neutral.characteristics)
    assert "EDU" not in api.convert(src, "gurps", trace=False).document.carried.get("coc7", {})
    back = api.convert(codec.to_builtins(neutral), "coc7", fresh=True, trace=False).document
    assert (back.APP, back.EDU, back.STR, back.SIZ) == (None, None, 85, 90)
    sixth = api.convert(src, "coc", trace=False)
    assert (sixth.document.APP, sixth.document.EDU, sixth.document.STR) == (None, None, 17)
    nwod = api.convert(src, "nwod", trace=False)
    assert any(x.message == "no appearance in the source; Presence set to the adult median" for x in nwod.losses)
    human = read("Ada Holt\nSTR 50 CON 60 SIZ 55 DEX 60 APP 65 INT 70 POW 55 EDU 80\nHP 11\n")
    assert (human["APP"], human["EDU"]) == (65, 80)


def test_a_stat_named_and_abbreviated_is_one_label():
    """'伤害加值(DB): +1D4' and 'Damage Bonus (DB) +1D4' name the damage bonus twice: the label had
    been half read ('伤害加值' said unread beside the value)."""
    zh = read("布达\n力量 80 体质 60 体型 65 敏捷 70 外貌 50 智力 60 意志 55 教育 50\n生命值 12\n伤害加值(DB): +1D4\n")
    en = read("Buda\nSTR 80 CON 60 SIZ 65 DEX 70 APP 50 INT 60 POW 55 EDU 50\nHP 12\nDamage Bonus (DB) +1D4\n")
    assert not unread(zh) and not unread(en) and zh["STR"] == en["STR"] == 80


def test_a_creature_s_second_way_of_moving_is_kept_in_the_notes():
    """'Move: 5/16 flying' (a Byakhee's walk and flight) is MOV 5, the line kept in the notes: the
    flight had been said unread ('not read: flying')."""
    doc = read("Byakhee\nSTR 90 CON 50 SIZ 90 DEX 65 INT 50 POW 50\nHP 14\nMove: 5/16 flying\n")
    assert doc["MOV"] == 5 and "Move: 5/16 flying" in doc["notes"] and not unread(doc)
    assert any("Move: 5/16 flying kept in the notes" in a for a in report(doc)["assumed"])


def test_a_creature_with_magic_points_and_no_pow_has_the_pow_they_give():
    """A table that prints MP 14 and no POW (a Chinese creature page whose POW row was misprinted
    as a second STR) had POW 55, the average adult's, beside MP 14: the sheet contradicted
    itself. 7th edition's MP = POW / 5 gives POW 70; 5th/6th edition's MP = POW gives POW 12."""
    seventh = read("布达\nSTR 80 CON 65 SIZ 60 DEX 65 INT 70 APP 50\n生命值: 12\n魔法值: 14\n")
    assert seventh["system"] == "coc7" and seventh["POW"] == 70 and seventh["MP"] == 14
    assert any("its MP 14 gives POW 70 (7th edition: MP = POW / 5, coc7.derived)" in m for m in losses_of(seventh))
    sixth = read("Ghoul\nSTR 16 CON 13 SIZ 13 DEX 13 INT 13 HP 13 MP 12\n")
    assert sixth["POW"] == 12 and any("its MP 12 gives POW 12 (5th/6th edition: MP = POW)" in m
                                      for m in losses_of(sixth))
    stated = read("Ghoul\nSTR 16 CON 13 SIZ 13 DEX 13 INT 13 POW 10 HP 13 MP 12\n")
    assert stated["POW"] == 10 and not any("gives POW" in m for m in losses_of(stated))


def test_a_stat_label_with_its_average_word_and_abbreviation_and_a_move_in_another_form():
    """'平均伤害加值（DB）：+1D4' (an average's label with its abbreviation) is the damage bonus, not
    a line with an unread '伤害加值'; '移动力：9/20 鬣狗形态' is MOV 9, its hyena form's 20 kept in
    the notes, as 'Move: 5/16 flying' is."""
    doc = read("布达\nSTR 80 CON 65 SIZ 60 DEX 65 INT 70 POW 70\n平均伤害加值（DB）：+1D4\n移动力： 9/20 鬣狗形态\n")
    assert not unread(doc) and doc["MOV"] == 9 and "9/20 鬣狗形态" in doc["notes"]
    assert any("DB +1D4 not carried" in m for m in losses_of(doc))


def test_a_roll20_page_names_its_creature_once_and_its_tagline_and_abilities_are_notes():
    """A Roll20 compendium page prints the name as its title and again over the entry, a tagline
    under it and an 'Abilities' heading: the name once, the tagline and abilities in the notes
    (each had been said unread). An attack's 'or, weapon damage + DB' after a lone '或' is one note."""
    doc = read("Grave Walker\n\nReady to play? Build unlimited Call of Cthulhu characters Create Now\n\nAttributes\n\n"
               "Grave Walker\n\nThe restless dead\n\nSTR 50\nCON 50\nSIZ 65\nDEX 50\nINT 50\nPOW 25\n\nAbilities\n\n"
               "Brittle: a heavy blow may shatter it.\n\nAttacks\n\nFighting: 45% damage: 1d3 + damage bonus\n")
    assert doc["name"] == "Grave Walker" and not unread(doc)
    assert doc["notes"].startswith("The restless dead") and "Brittle: a heavy blow may shatter it." in doc["notes"]
    zh = read("布达\nSTR 80 CON 65 SIZ 60 DEX 65 INT 70 POW 70\n攻击\n格斗（人类形态）50%（25/10）伤害 1D3+DB，或，武器伤害+DB。\n")
    assert not unread(zh) and "格斗(人类形态): 或, 武器伤害+DB。" in zh["notes"]
    assert zh["melee"] == [{"name": "格斗(人类形态)", "skill": "格斗(人类形态)", "damage": "1D3+DB"}]


def test_armor_in_words_is_a_note_not_an_unread_line():
    """'Armor: Resistant to harm (see special powers)' and a creature's armor in one of its forms
    ('在鬣狗形态下，肌肉和硬皮会提供 3 点护甲。': 3 points in its hyena form only) state no rating the
    sheet can hold for the NPC as it stands: kept in the notes (they had been said unread), once
    however often a page prints them; a rating is still read as one."""
    en = read("Skeleton\nSTR 50 CON 50 SIZ 65 DEX 50 INT 50 POW 5\nArmor: Resistant to harm (see special powers)\n"
              "Attacks\nFighting 45%, damage 1D6\nArmor: Resistant to harm (see special powers)\n")
    assert not unread(en) and en["notes"].count("Resistant to harm (see special powers)") == 1 and not en["armor"]
    zh = read("布达\nSTR 80 CON 65 SIZ 60 DEX 65 INT 70 POW 70\n护甲：在鬣狗形态下，肌肉和硬皮会提供 3 点护甲。\n")
    assert not unread(zh) and "会提供 3 点护甲" in zh["notes"] and not zh["armor"]
    rated = read("Ghoul\nSTR 80 CON 65 SIZ 65 DEX 65 INT 65 POW 65\nArmor: 2-point hide\n")
    assert rated["armor"] == [{"name": "Hide", "armor": 2}]


OFFICIAL_WEAPONS = OFFICIAL_SHEET + """
Weapon Skill Damage # of Attacks Range Ammo Malf. Move 8

Brawl 30 15 6 1D3 + DB 1 - - - Build 0

40 20 8 1D10
.38 revolver 1 (3) 15 yards 6 100
Knife, medium (kitchen)
30 15 6 1D4+2+DB 1 Touch - -
Dodge 35 17 7
Damage Bonus None
© 2021 Chaosium Inc. Permission is granted to copy for personal, non-commercial use only.
"""


def test_the_official_sheet_s_weapons_table_copied_as_text():
    """The sheet's weapons table as a PDF's text gives it: each weapon's name with its cells (the
    skill's value, half and fifth, damage, attacks, range, ammo, malfunction) on its line, or its
    name on a line of its own with the cells on the line before or after (each had been said
    unread, and the NPC had no weapon). The boxes beside the table (Move 8, Build 0) stay read as
    they were, the Dodge box below it too, and the sheet's footer is no text of the NPC."""
    doc = read(OFFICIAL_WEAPONS)
    assert doc["melee"] == [{"name": "Brawl", "skill": "Fighting (Brawl)", "damage": "1D3+DB"},
                            {"name": "Knife, medium (kitchen)", "skill": "Fighting (Brawl)", "damage": "1D4+2+DB"}]
    gun = doc["weapons"][0]
    assert (gun["name"], gun["skill"], gun["damage"], gun["base_range"], gun["uses_per_round"], gun["capacity"]) == \
        (".38 revolver", "Firearms (Handgun)", "1D10", "15 yd", "1 (3)", 6)
    assert doc["MOV"] == 8 and doc["skills"]["Dodge"] == 35 and doc["skills"]["Fighting (Brawl)"] == 30
    assert not [t for _, t in unread(doc) if re.search(r"Weapon|Brawl|revolver|Knife|Chaosium|Dodge", t)]
    # a row whose half and fifth are not its value's is no row of the table: left as it was
    odd = read(OFFICIAL_WEAPONS.replace("Brawl 30 15 6 1D3", "Brawl 30 14 6 1D3"))
    assert [m["name"] for m in odd["melee"]] == ["Knife, medium (kitchen)"]


def test_what_an_attack_adds_drains_or_repeats_is_a_note_with_its_name():
    """A creature's attacks beside their damage: 'さらに青い膿' (and blue pus) after the attack on its
    line, a bite's damage 'every round', a tongue that drains characteristics ('ダメージ: POW 1D10、
    CON 3D10', no hit points: a line of no damage) are kept in the notes under the attack's name
    (each had been said unread)."""
    doc = read("### 交雑種\nSTR: 100 CON: 100 POW: 100 DEX: 90 SIZ: 80 INT: 80\nHP: 18 MP: 20\n#### 技能\n"
               "近接戦闘: 50% ダメージ: 1D4+DB、さらに青い膿\n噛みつき: 45% ダメージ: 毎ラウンド 1D4\n"
               "舌: 60% ダメージ: POW 1D10、CON 3D10\n回避: 40%\n")
    assert not unread(doc)
    for note in ("近接戦闘: さらに青い膿", "噛みつき: 1D4 毎ラウンド", "舌: ダメージ: POW 1D10", "舌: CON 3D10"):
        assert note in doc["notes"], note
    assert {m["name"]: m["damage"] for m in doc["melee"]} == {"近接戦闘": "1D4+DB", "噛みつき": "1D4", "舌": ""}


@pytest.mark.parametrize("said", ["Keeper's discretion", "none", "At the Keeper's discretion."])
def test_a_spells_line_that_names_no_spell_is_notes(said):
    doc = load(f"Ghoul\nSTR 85 CON 65 SIZ 65 DEX 65 INT 65 APP 30 POW 65 EDU 50 HP 13\nSpells: {said}\n".encode())
    assert not doc.get("spells")
    assert f"Spells: {said.rstrip('.')}" in doc["notes"]


def test_seventh_edition_combat_lines_printed_without_percent_signs():
    """A block that prints its combat lines as 'Brawl 60 (30/12), damage 1D3+1D4' (no % sign):
    the half and fifth prove the 60 a chance, so each line is its skill and its weapon (the value
    had ended in the weapon's name, the skill lost with no word, and Dodge was said unread); a
    characteristic with its half and fifth ('STR 70 (35/14)') stays a characteristic."""
    doc = read("Dario, gunman\nSTR 70 (35/14) CON 65 SIZ 60 DEX 65 INT 50 APP 45 POW 40 EDU 35 SAN 40 HP 12\n"
               "Combat\nBrawl 60 (30/12), damage 1D3+1D4\n.45 Automatic 55 (27/11), damage 1D10+2\n"
               "Thompson submachine gun 45 (22/9), damage 1D10+2, burst\nDodge 35 (17/7)\n")
    assert doc["system"] == "coc7" and doc["STR"] == 70 and not unread(doc)
    assert {k: doc["skills"][k] for k in ("Fighting (Brawl)", "Firearms (Handgun)", "Firearms (Submachine Gun)",
                                          "Dodge")} == {"Fighting (Brawl)": 60, "Firearms (Handgun)": 55,
                                                        "Firearms (Submachine Gun)": 45, "Dodge": 35}
    assert [w["name"] for w in doc["weapons"]] == [".45 Automatic", "Thompson submachine gun"]
    assert doc["weapons"][1]["catalog"] == "thompson-m1928"  # the name, no longer ending in its chance, is known
    assert doc["melee"] == [{"name": "Brawl", "skill": "Fighting (Brawl)", "damage": "1D3+1D4"}]


def test_a_blog_stat_line_between_middle_dots_reads_whole():
    """'**HP:** 10 · **DB:** -1 · **Build:** -1 · **Move:** 6': the middle dots are separators, not
    text left unread (which made --strict fail on a block that lost nothing)."""
    doc = read("Agathe\nSTR 35 CON 45 SIZ 55 DEX 60 INT 80 APP 60 POW 85 EDU 75\n"
               "**HP:** 10 · **DB:** -1 · **Build:** -1 · **Move:** 6 · **MP:** 17 · **SAN:** 62\n"
               "Fighting (Brawl) 30% (15/6), damage 1D3-1\n")
    assert (doc["HP"], doc["MP"], doc["SAN"], doc["MOV"]) == (10, 17, 62, 6) and not unread(doc)


def test_a_condition_after_an_attacks_damage_is_a_note_not_its_weapon():
    """'Maw 40% (20/8), damage 2D6 (only against a seized victim)': the bracket says when the attack
    applies (kept in the notes); it had become the attack's name. A weapon in the bracket ('damage
    1D6+DB (club)') still names the attack."""
    doc = read("Cistern thing\nSTR 90 CON 80 SIZ 90 DEX 40 INT 30 POW 50 HP 17\nCombat\n"
               "Maw 40% (20/8), damage 2D6 (only against a seized victim)\n"
               "Fighting 45% (22/9), damage 1D6+DB (club)\n")
    assert [(m["name"], m["damage"]) for m in doc["melee"]] == [("Maw", "2D6"), ("club", "1D6+DB")]
    assert "Maw: 2D6 (only against a seized victim)" in doc["notes"] and not unread(doc)


def test_a_firearm_line_that_says_burst_and_a_second_chance_of_one_skill():
    """'Mauser C96 carbine 60% (30/12), damage 1D10, burst' beside 'Luger pistol 80%': the line's
    burst is written as 7th edition's full auto beside the table row's rate (it had been dropped),
    and its 60%, a second chance of the Handgun skill the Luger states as 80%, is said, not lost."""
    doc = read("Ahlfeld\nSTR 55 CON 60 SIZ 65 DEX 75 INT 70 APP 50 POW 60 EDU 80 HP 12\nCombat\n"
               "Luger pistol 80% (40/16), damage 1D10\nMauser C96 carbine 60% (30/12), damage 1D10, burst\n")
    assert doc["skills"]["Firearms (Handgun)"] == 80
    mauser = doc["weapons"][1]
    assert (mauser["catalog"], mauser["uses_per_round"]) == ("mauser-c96", "1 (3) or full auto")
    assert unread(doc) == [(5, "Mauser C96 carbine 60% (its Handgun is 80%, as an earlier line states: one skill "
                               "has one chance)")]


def test_a_japanese_language_list_reads_as_7th_edition_languages_and_6th_edition_names_elsewhere():
    """'言語：英語 40%、ラテン語 35%' on a 7th-edition block: Language (英語) and Language (ラテン語), as
    the Foundry CoC7 system names a language (ラテン語 had been a skill of its own name); the same
    block as a 6th-edition sheet writes Other Language (英語) and (ラテン語) (coc7.conversion.6e)."""
    path = "fixtures/corpus/text-coc/ja7-shinkuto-kosho.txt"
    seventh = codec.to_builtins(api.convert(path, "coc7").document)
    assert {k: v for k, v in seventh["skills"].items() if "Language" in k} == {"Language (英語)": 40,
                                                                              "Language (ラテン語)": 35}
    sixth = codec.to_builtins(api.convert(path, "coc").document)
    assert {k: v for k, v in sixth["skills"].items() if "Language" in k} == {"Other Language (英語)": 40,
                                                                             "Other Language (ラテン語)": 35}
    # and a 6th-edition sheet's language comes to 7th edition under 7th edition's name, and home again
    home = codec.to_builtins(api.convert(api.from_plain({k: v for k, v in sixth.items() if k != "xsys"}),
                                         "coc7", fresh=True).document)
    assert {k: v for k, v in home["skills"].items() if "Language" in k} == {"Language (英語)": 40,
                                                                            "Language (ラテン語)": 35}
    own = {"system": "coc", "kind": "npc", "name": "Student", "STR": 10, "CON": 10, "SIZ": 10, "DEX": 10, "APP": 10,
           "INT": 14, "POW": 10, "EDU": 16, "skills": {"Other Language (英語)": 30, "Own Language": 80}}
    from_sixth = codec.to_builtins(api.convert(api.from_plain(own), "coc7", fresh=True).document)
    assert {k: v for k, v in from_sixth["skills"].items() if "Language" in k} == {"Language (英語)": 30,
                                                                                  "Language (Own)": 80}


def test_a_japanese_sheet_s_skill_point_budgets_are_no_skills_and_an_angle_bracketed_speciality_is_one():
    """A blog's 6th-edition sheet lists the points it spent before each group of skills: '技能(趣味) :
    120' had become a skill of 120 (carried onto every other system's sheet); it is said, no skill.
    'ほかの言語<ドイツ語>(1%) : 61%' is the Other Language (German) (the brackets had been dropped,
    leaving a skill no system knew)."""
    doc = read("医者の探索者\nSTR : 12\nCON : 11\nPOW : 14\nDEX : 14\nAPP : 12\nSIZ : 14\nINT : 12\nEDU : 14\n"
               "耐久力 : 13\n技能値 : 280\n 医学(5%) : 80%\n技能(趣味) : 120\n キック(25%) : 65%\n"
               " ほかの言語<ドイツ語>(1%) : 61%\n")
    assert doc["skills"] == {"Medicine": 80, "Kick": 65, "Other Language (ドイツ語)": 61}
    assert any("技能(趣味) : 120 (the skill points the sheet had to spend, no skill)" in t for _, t in unread(doc))


def test_traditional_chinese_computer_use_and_charm_are_the_skills():
    """A Traditional-Chinese 7th-edition card's '計算機使用35%' and '魅力36%' (Computer Use and Charm, as
    fan cards write them) had been skills no system knew, carried as they were."""
    doc = read("陳先生\n力量65;體質50;體型65;敏捷70;外貌65\n智力75;意志80;教育70\n技能:\n"
               "會計65%;魅力36%;計算機使用35%;\n圖書館使用51%;聆聽70%\n")
    assert {k: doc["skills"][k] for k in ("Charm", "Computer Use", "Library Use")} == \
        {"Charm": 36, "Computer Use": 35, "Library Use": 51}


def test_a_labelled_name_run_on_into_the_age_on_the_stats_line():
    """'姓名:陳強年齡:47 種族:人類;職業:守秘人 生命值:11/11 ...': the name's label runs on into the age's
    with no separator; the name is 陳強 (the NPC had been 'Unnamed NPC'), its labelled words notes."""
    doc = read("姓名:陳強年齡:47 種族:人類;職業:守秘人 生命值:11/11 魔法值:14/14 幸運:50/99 理智值:30/44\n"
               "力量65;體質50;體型65;敏捷70;外貌65\n智力75;意志80;教育70\n技能:\n信用評級98%;聆聽70%\n")
    assert doc["name"] == "陳強" and (doc["HP"], doc["STR"]) == (11, 65)
    assert "年齡:47" in doc["notes"] and "陳強年齡" not in doc["notes"]


def test_a_language_named_bare_on_a_skill_list_is_an_other_language():
    """'Latin 40%, French 30%' on a scholar's list (and the official sheet's 'Latin (01%) 90' under its
    Language (Other) label) are Other Languages; they had been skills no system knew, carried as they
    were. 'English 80%' stays as written: it may be his own language or another."""
    doc = read("Prof Nob, age 60\nSTR 50 CON 55 SIZ 60 DEX 50 APP 45 INT 80 POW 60 EDU 85 HP 11\n"
               "Skills: Latin 40%, English 80%, French 30%, Spot Hidden 50%\n")
    assert doc["skills"] == {"Language (Latin)": 40, "English": 80, "Language (French)": 30, "Spot Hidden": 50}


def test_fist_brawl_and_firearms_pistol_are_the_skills_they_name():
    """A scenario's 'Fist/Brawl 85%' is Fist/Punch (7th edition: Fighting (Brawl)); a 7th-edition blog's
    'Firearms (Pistol) 20%' is Firearms (Handgun): both had been skills no system knew."""
    doc = read("Bugs Moran, gunsel\nSTR 13 CON 12 SIZ 11 INT 10 POW 9 DEX 14 APP 10 EDU 8 HP 12\n"
               "Skills: Fist/Brawl 85%, Stealth 75%\n")
    assert doc["skills"]["Fist/Punch"] == 85 and "Fist/Brawl" not in doc["skills"]
    seven = read("Jerome, clerk\nSTR 50 CON 55 SIZ 60 DEX 45 APP 50 INT 70 POW 55 EDU 75 HP 11\n"
                 "Skills: Firearms (Pistol) 20%, Library Use 70%\n")
    assert seven["skills"]["Firearms (Handgun)"] == 20


def test_an_armor_line_wrapped_mid_sentence_is_one_armor_and_its_words_are_notes():
    """A scanned scenario's 'Armor: 9-point bulletproof vest. Worn at all times by Hale' wrapped over three
    lines: the armor is 'Bulletproof vest', 9 points (it had been named with the whole sentence), and its
    wrapped words ('... has a 50%' / 'chance of stopping any damage.') are notes (the second line had been
    read as an attack by its 50%)."""
    doc = read("RUPERT HALE, age 52, antiquarian\nSTR 12 CON 13 SIZ 14 INT 17 POW 15\nDEX 11 APP 10 EDU 19 HP 14\n"
               "Armor: 9-point bulletproof vest. Worn at all times by Hale\nin public. Only covers his torso, and so has "
               "a 50%\nchance of stopping any damage.\nSkills: Library Use 80%, Occult 60%\n")
    assert [(a["name"], a["A"]) for a in doc["armor"]] == [("Bulletproof vest", 9)]
    assert "Only covers his torso, and so has a 50% chance of stopping any damage" in doc["notes"]
    assert not unread(doc) and not doc.get("weapons") and not doc.get("melee")


def test_a_japanese_list_of_spells_and_chinese_seventh_edition_names():
    """'呪文：NPCの召喚、NPCの退散。' is two spells (it had gone to the notes without its label, read as a sentence
    for its closing 。); a sentence under the heading stays prose. The Traditional-Chinese 7th edition's 取悅 is
    Charm and 動物馴養 (Japanese 動物使い) Animal Handling."""
    doc = read("サンプル 太郎\nSTR 75 CON 60 SIZ 80 DEX 70 APP 60 INT 80\nPOW 50 EDU 85 耐久力 14\n"
               "技能\n動物使い 55%、魅惑 30%。\n呪文：NPCの召喚、NPCの退散。\n")
    assert doc["spells"] == ["NPCの召喚", "NPCの退散"] and "NPCの退散" not in doc.get("notes", "")
    assert doc["skills"]["Animal Handling"] == 55 and doc["skills"]["Charm"] == 30
    prose = read("サンプル 太郎\nSTR 75 CON 60 SIZ 80 DEX 70 APP 60 INT 80\nPOW 50 EDU 85 耐久力 14\n"
                 "呪文：GM が必要と思えば、いくつか習得していてよい。\n")
    assert not prose.get("spells") and "習得していてよい" in prose["notes"]
    zh = read("示範角色\nSTR 75 CON 60 SIZ 80 DEX 70 APP 60 INT 80\nPOW 50 EDU 85 HP 14\n技能\n動物馴養 55%, 取悅 30%\n")
    assert zh["skills"]["Animal Handling"] == 55 and zh["skills"]["Charm"] == 30


EUROPEAN = {
    "pl": ("Jan Kowalski, 41 lat\nStróż nocny\nS 60 KON 55 BC 70 ZR 45 WYG 40 INT 50\nMOC 45 WYK 40 P 45 PW 12 MO: +1K4\n"
           "Krzepa: 1 Ruch: 7 PM: 9 Szczęście: 35 Pancerz: brak\nWalka\nBijatyka 55% (27/11), obrażenia 1K3+MO\n"
           "Rewolwer .38 35% (17/7), obrażenia 1K10\nUnik 30% (15/6)\nUmiejętności\n"
           "Nasłuchiwanie 45%, Spostrzegawczość 50%, Ukrywanie 25%\n"),
    "fr": ("Marcel Dubois, 52 ans\nFOR 65 CON 70 TAI 75 DEX 50 APP 45 INT 60\nPOU 55 ÉDU 70 SAN 55 PV 14 BD: +1D4\n"
           "Carrure: 1 Mvt: 7 PM: 11 Chance: 40 Armure: 1\nAttaques\nCorps à corps 60% (30/12), dommage 1D3+BD\n"
           "Revolver .38 35% (17/7), dommage 1D10\nEsquiver 30% (15/6)\nCompétences\n"
           "Écouter 45%, Trouver Objet Caché 50%, Discrétion 25%\n"),
    "es": ("Rosa Ibáñez, 41 años\nFUE 60 CON 55 TAM 70 DES 45 APA 40 INT 50\nPOD 45 EDU 40 COR 45 PV 12 BD: +1D4\n"
           "Corpulencia: 1 Movimiento: 7 PM: 9 Suerte: 35 Armadura: ninguna\nCombate\nPelea 55% (27/11), daño 1D3+BD\n"
           "Revólver .38 35% (17/7), daño 1D10\nEsquivar 30% (15/6)\nHabilidades\nEscuchar 45%, Descubrir 50%, Sigilo 25%\n"),
    "de": ("Karl Becker\nAlter: 41\nST 60\nKO 55\nGR 70\nGE 45\nER 40\nIN 50\nMA 45\nBI 40\nTrefferpunkte: 12\n"
           "Geistige Stabilität: 45\nSchadensbonus: +1W4\nStatur: 1\nBewegungsweite: 7\n\nKampf\n"
           "Handgemenge 55% (27/11), Schaden 1W3+Sb\nRevolver .38 35% (17/7), Schaden 1W10\nAusweichen 30% (15/6)\n\n"
           "Fertigkeiten: Horchen 45%, Verborgenes erkennen 50%, Verborgen bleiben 25%\n"),
}


@pytest.mark.parametrize("lang", sorted(EUROPEAN))
def test_a_seventh_edition_block_in_a_european_language_reads_as_the_english_one(lang):
    """A 7th-edition block with the labels of the Foundry CoC7 importer's German, Polish, French or Spanish
    (plugins/coc_block/languages.toml: 'S 60 KON 55 BC 70', 'FOR 65 ... TAI 75', '1K3', 'obrażenia') is read as the
    English block its labels stand for, its skills by the system's names in that language; it had been refused
    (no system told), or read with every characteristic at the average."""
    doc = read(EUROPEAN[lang])
    assert doc["system"] == "coc7"
    assert [doc[k] for k in ("STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU")] == \
        ([65, 70, 75, 50, 45, 60, 55, 70] if lang == "fr" else [60, 55, 70, 45, 40, 50, 45, 40])
    assert doc["skills"]["Fighting (Brawl)"] == (60 if lang == "fr" else 55)
    assert doc["skills"]["Dodge"] == 30 and doc["skills"]["Firearms (Handgun)"] == 35
    assert doc["skills"]["Listen"] == 45 and doc["skills"]["Spot Hidden"] == 50 and doc["skills"]["Stealth"] == 25
    (gun,) = doc["weapons"]
    assert gun["damage"] == "1D10" and gun["skill"] == "Firearms (Handgun)" and gun["name"].startswith(("Rewolwer", "Rev"))
    (fist,) = doc["melee"]
    assert fist["damage"] == "1D3+DB" and fist["skill"] == "Fighting (Brawl)"


def test_an_english_block_is_no_european_one():
    """The English labels a French or Spanish block shares (CON, DEX, APP, INT, EDU) tell no other language."""
    from xsys.plugins.coc_block.layout import block_language

    assert block_language(["STR 60 CON 55 SIZ 70 DEX 45 APP 40 INT 50 POW 45 EDU 40"]) is None
    assert block_language(["ST 12 DX 11 IQ 10 HT 12 HP 12"]) is None


def test_a_european_blocks_age_is_the_one_by_its_name():
    """'41 lat' by the name is the age; '10 lat' in a sentence below the characteristics stays as written."""
    doc = read(EUROPEAN["pl"] + "Opis: Pracuje od 10 lat w magazynie.\n")
    assert "age 41" in doc["notes"] and "Pracuje od 10 lat w magazynie" in doc["notes"]


def test_a_sheet_forms_title_over_an_empty_name_is_no_name():
    """A printed 7th-edition investigator sheet whose name field is empty: its title, '1920S ERA INVESTIGATOR',
    had become the NPC's name; it is 'Unnamed NPC', said."""
    doc = read("1920S ERA INVESTIGATOR\nName\nOccupation\nSTR 55 27 11 SIZ 35 17 7 Hit Points 7\n"
               "CON 35 17 7 Magic Points 9 POW 45 22 9\nDEX 55 27 11 APP 35 17 7 Luck 40\n"
               "INT 60 30 12 EDU 50 25 10\nDodge 30 15 6\n")
    assert doc["name"] == "Unnamed NPC"
    assert any("'1920S ERA INVESTIGATOR' is the sheet form's title" in a for a in doc["xsys"]["read"]["assumed"])
