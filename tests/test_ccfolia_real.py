"""CCFOLIA clipboard characters as Japanese game masters paste them: the exports of the
character-sheet sites (iachara, Charaeno, sheet storage converters), 6th and 7th edition. One
test per class of failure the reader had: characteristic and derived rolls read as skills,
{references} left unevaluated, 7th-edition and 6th-edition Japanese skill names unknown, attack
damage commands dropped, no edition stated (and 7th-edition characteristics not on coc's scale),
gauges derived instead of read, clipboard variations."""

from __future__ import annotations

import json

from xsys.conversions import api, documents


def char(commands: list[str] | str, params: dict[str, object] | None = None,
         status: list[dict[str, object]] | None = None, **data: object) -> dict:
    return {"kind": "character", "data": {
        "name": data.pop("name", "テスト 太郎"), "memo": "", "initiative": 10, "externalUrl": "",
        "status": status if status is not None else [{"label": "HP", "value": 12, "max": 12}],
        "params": [{"label": k, "value": str(v)} for k, v in (params or {}).items()],
        "commands": commands if isinstance(commands, str) else "\n".join(commands), **data}}


SIXTH = {"STR": 13, "CON": 11, "POW": 12, "DEX": 14, "APP": 10, "SIZ": 13, "INT": 15, "EDU": 16}
SEVENTH = {"STR": 65, "CON": 55, "POW": 60, "DEX": 70, "APP": 50, "SIZ": 65, "INT": 75, "EDU": 80}


def read(piece: dict) -> dict:
    """The plain coc document the reader makes (and it is a valid document)."""
    plain = documents.parse_bytes(json.dumps(piece, ensure_ascii=False).encode(), "plugin:ccfolia", "x")
    api.from_plain(json.loads(json.dumps(plain)), "x")
    return plain


def report(doc: dict) -> dict:
    return doc.get("xsys", {}).get("read", {})


def said(doc: dict) -> str:
    rep = report(doc)
    return "\n".join([u["path"] + " " + u["text"] for u in rep.get("unread", [])] + rep.get("assumed", []))


# ---- characteristic, derived and SAN rolls are not skills --------------------------------------

def test_characteristic_rolls_in_commands_are_not_skills():
    doc = read(char(["CC<=65 【STR】", "CCB<=65 STR", "1d100<={STR}*5", "CCB<={DEX}*5 【DEX × 5】",
                     "CCB<=75 【INT×5】", "CCB<=70 【目星】"], SIXTH))
    assert doc["skills"] == {"Spot Hidden": 70}
    assert {k: doc[k] for k in SIXTH} == SIXTH  # from params, none averaged
    assert "average" not in said(doc) and "unread" not in report(doc)


def test_a_characteristic_only_in_a_roll_is_read_from_it():
    """A hand-made piece without params: the rolls state the characteristics (6th edition: the
    roll is the characteristic x5)."""
    doc = read(char(["CCB<=65 【STR×5】", "CCB<=55 【CON×5】", "CCB<=60 【POW×5】", "CCB<=70 【DEX×5】",
                     "CCB<=50 【APP×5】", "CCB<=65 【SIZ×5】", "CCB<=75 【INT×5】", "CCB<=80 【EDU×5】"]))
    assert {k: doc[k] for k in SIXTH} == {"STR": 13, "CON": 11, "POW": 12, "DEX": 14, "APP": 10, "SIZ": 13,
                                          "INT": 15, "EDU": 16}
    assert doc["skills"] == {}


def test_derived_and_sanity_rolls_are_not_skills():
    doc = read(char(["1d100<={SAN} 【正気度ロール】", "CCB<={SAN} 【SANチェック】", "SCCB<={SAN} SAN",
                     "CCB<=75 【アイデア】", "CCB<=80 【知識】", "CCB<=60 【幸運】", "CCB<=75 Idea", "CCB<=80 Know",
                     "CCB<=45 【回避】"], SIXTH,
                    [{"label": "HP", "value": 12, "max": 12}, {"label": "SAN", "value": 60, "max": 99}]))
    assert doc["skills"] == {"Dodge": 45}
    assert (doc["SAN"], doc["Luck"]) == (60, 60)
    assert "unread" not in report(doc)


def test_seventh_edition_idea_and_luck_are_the_characteristic_and_the_luck_itself():
    doc = read(char(["CC<={SAN} 正気度ロール", "CC<=55 幸運", "CC<=75 アイデア", "CC<=80 知識", "CC<=65 STR",
                     "CC<=40 回避"], SEVENTH, [{"label": "SAN", "value": 58, "max": 58}]))
    assert doc["skills"] == {"Dodge": 40}
    assert (doc["Luck"], doc["SAN"]) == (55, 58)
    assert "unread" not in report(doc)


def test_idea_and_know_before_the_characteristic_rolls_are_checked_against_them():
    """A palette that lists the characteristic checks last (an iachara export: no params, Idea
    and Know on lines 2 and 3, INT and EDU at the end) was told that INT and EDU were not on the
    sheet; they are, and Idea = INT, Know = EDU in 7th edition: nothing is said."""
    doc = read(char(["CC<={SAN} 【SAN値チェック】", "CC<=75 【アイデア】", "CC<=80 【知識】", "CC<=40 【回避】",
                     *[f"CC<={v} 【{k}】" for k, v in SEVENTH.items()]], status=[{"label": "SAN", "value": 58}]))
    assert (doc["INT"], doc["EDU"]) == (75, 80)
    assert "unread" not in report(doc), said(doc)
    wrong = read(char(["CC<=70 【アイデア】", *[f"CC<={v} 【{k}】" for k, v in SEVENTH.items()]]))
    (u,) = report(wrong)["unread"]  # a disagreeing Idea is still said, against the INT read after it
    assert "not INT x 1 = 75" in u["text"]


def test_a_derived_roll_that_disagrees_with_the_characteristics_is_said():
    doc = read(char(["CCB<=70 【アイデア】"], SIXTH))  # INT 15: Idea is 75
    (u,) = report(doc)["unread"]
    assert u["path"] == "$.data.commands line 1" and "not INT x 5 = 75" in u["text"]


def test_references_are_evaluated_against_params_and_gauges():
    params = {**SEVENTH, "射撃（拳銃）": 55, "近接戦闘（格闘）": 45, "目星": 70}
    doc = read(char(["CC<={射撃（拳銃）} 【射撃（拳銃）】", "CC<={近接戦闘（格闘）}", "CC(1)<={目星}+5 【目星】",
                     "CC<={幸運} 【幸運】"], params, [{"label": "幸運", "value": 50, "max": 50}]))
    assert doc["skills"] == {"Firearms (Handgun)": 55, "Fighting (Brawl)": 45, "Spot Hidden": 75}
    assert doc["Luck"] == 50
    assert "unread" not in report(doc)  # the skill params are read through the commands


def test_an_unresolved_reference_is_said():
    doc = read(char(["CCB<={心理学} 【心理学】"], SIXTH))
    (u,) = report(doc)["unread"]
    assert u["path"] == "$.data.commands line 1" and "{心理学} is no param or gauge" in u["text"]


# ---- Japanese skill names ------------------------------------------------------------------------

def test_seventh_edition_japanese_skill_names():
    doc = read(char(["CC<=60 近接戦闘（格闘）", "CC<=55 射撃（拳銃）", "CC<=40 射撃（ライフル／ショットガン）",
                     "CC<=35 回避", "CC<=30 隠密", "CC<=20 射撃(サブマシンガン)"], SEVENTH))
    assert doc["system"] == "coc7"  # a 7th-edition sheet: 7th edition's skills
    assert doc["skills"] == {"Fighting (Brawl)": 60, "Firearms (Handgun)": 55, "Firearms (Rifle/Shotgun)": 40,
                             "Dodge": 35, "Stealth": 30, "Firearms (Submachine Gun)": 20}


def test_sixth_edition_japanese_skill_names():
    doc = read(char(["CCB<=60 【こぶし（パンチ）】", "CCB<=45 【拳銃】", "CCB<=15 【マシンガン】", "CCB<=30 【ライフル】",
                     "CCB<=35 【ショットガン】", "CCB<=20 【サブマシンガン】", "CCB<=40 【キック】", "CCB<=30 【組み付き】",
                     "CCB<=15 【頭突き】", "CCB<=70 【目星】", "CCB<=60 【聞き耳】", "CCB<=50 【応急手当】",
                     "CCB<=25 【隠れる】", "CCB<=20 【忍び歩き】"], SIXTH))
    assert doc["skills"] == {"Fist/Punch": 60, "Handgun": 45, "Machine Gun": 15, "Rifle": 30, "Shotgun": 35,
                             "SMG": 20, "Kick": 40, "Grapple": 30, "Head Butt": 15, "Spot Hidden": 70, "Listen": 60,
                             "First Aid": 50, "Hide": 25, "Sneak": 20}


def test_every_skill_a_japanese_sheet_prints_is_written_in_english():
    """The skills no other system states were kept in Japanese beside the English of those that
    convert (a coc7 sheet of 'Medicine', '経理', 'Spot Hidden'): each is its rulebook's English
    name, and a speciality stays as printed after it (芸術(観劇): Art (観劇))."""
    doc = read(char(["CC<=30 【経理】", "CC<=10 【手さばき】", "CC<=55 【魅惑】", "CC<=20 【信用】",
                     "CC<=5 【言いくるめ】", "CC<=14 【オカルト】", "CC<=1 【クトゥルフ神話】", "CC<=35 【芸術(観劇)】",
                     "CC<=65 【母国語(日本語)】", "CC<=41 【言語(英語)】", "CC<=10 【自然】", "CC<=35 【機械修理】"],
                    SEVENTH))
    assert doc["system"] == "coc7"
    assert doc["skills"] == {"Accounting": 30, "Sleight of Hand": 10, "Charm": 55, "Credit Rating": 20,
                             "Fast Talk": 5, "Occult": 14, "Cthulhu Mythos": 1, "Art (観劇)": 35,
                             "Own Language (日本語)": 65, "Language (英語)": 41, "Natural World": 10,
                             "Mechanical Repair": 35}


# ---- attack damage commands ------------------------------------------------------------------------

def test_attack_damage_commands_are_weapons_and_melee_attacks():
    doc = read(char(["CCB<=65 【拳銃】", "1D10+2 ガバメント", "CCB<=70 【こぶし（パンチ）】", "1D3+{DB} 【こぶしダメージ】",
                     "1D3+{DB} 素手", "CCB<=50 【ナイフ】", "1D4+2+{DB} ナイフ", "CCB<=55 【試作ライフル】",
                     "2D6+1 【試作ライフルダメージ】"], {**SIXTH, "DB": "+1D4"}))
    # the Colt Government in katakana is the catalog's M1911A1, as on every other path (identify_weapon)
    assert doc["weapons"][0] | {"base_range": None} == {"name": "ガバメント", "skill": "Handgun", "damage": "1d10+2",
                                                        "base_range": None, "catalog": "colt-m1911a1"}
    assert (doc["weapons"][1]["name"], doc["weapons"][1]["skill"], doc["weapons"][1]["damage"]) == (
        "試作ライフル", "Rifle", "2d6+1")
    assert [(m["name"], m["skill"], m["damage"]) for m in doc["melee"]] == [
        ("こぶし", "Fist/Punch", "1d3+db"), ("素手", "Fist/Punch", "1d3+db"), ("ナイフ", "Knife", "1d4+2+db")]
    # the rifle's attack chance is its skill's (the sheet states no Rifle): said
    assert doc["skills"] == {"Handgun": 65, "Fist/Punch": 70, "Knife": 50, "Rifle": 55}
    assert "the sheet states no Rifle skill" in said(doc)
    assert "unread" not in report(doc)


def test_a_damage_roll_naming_nothing_follows_its_attack_or_is_said():
    doc = read(char(["CC<=45 【杖】", "1d3+1D4 【ダメージ判定】", "CCB<=50 【芸術（工作）】", "1d3-1D4 【ダメージ判定】",
                     "1d4-1D4 【ダメージ判定】", "1Dn{DB}/2 投擲ダメージ", "2D3{DB} こぶし+MAダメージ",
                     "1D3 SAN回復"], SIXTH))
    assert [(m["name"], m["skill"], m["damage"]) for m in doc["melee"]] == [("杖", "杖", "1d3+1d4")]
    assert doc["skills"] == {"杖": 45, "Art (工作)": 50}  # 芸術（工作）: Art, its speciality as printed
    unread = {u["path"]: u["text"] for u in report(doc)["unread"]}
    assert set(unread) == {f"$.data.commands line {n}" for n in (4, 5, 6, 7, 8)}
    assert "names no weapon" in unread["$.data.commands line 4"]
    assert "recovery" in unread["$.data.commands line 8"]


def test_a_damage_roll_after_a_characteristic_or_sanity_roll_is_no_attack_of_it():
    """An exporter lists the characteristic and SAN rolls after the skills and a generic damage
    roll after them: 1d3+{DB} 【ダメージ判定】 had become a close-combat line called 'STR × 5'."""
    doc = read(char(["CCB<=50 【こぶし】", "CCB<={SAN} 【正気度ロール】", "1d3+{DB} 【ダメージ判定】",
                     "CCB<=({STR}*5) 【STR × 5】", "1d6+{DB} 【ダメージ判定】"], {**SIXTH, "DB": "+1D4"}))
    assert not any(m["name"] in ("STR × 5", "正気度ロール") for m in doc.get("melee", []))
    assert doc["skills"] == {"Fist/Punch": 50}
    unread = {u["path"]: u["text"] for u in report(doc)["unread"]}
    assert "names no weapon" in unread["$.data.commands line 3"]
    assert "names no weapon" in unread["$.data.commands line 5"]


def test_a_sheet_site_palette_with_bare_labels_and_a_weapon_s_damage_section():
    """The palette a character-sheet site writes (plain labels after the command, a ▼ section of
    damage rolls, each weapon as '<dice> <name> ダメ―ジ' with a horizontal bar for the long vowel):
    its firearm is the catalog weapon its name says, fired with Handgun; its baton, which no check
    names, is fought with Club, the coc skill of a club (said)."""
    doc = read(char(["CCB<=", "CCB<={SAN} SANチェック", "CCB<=60 幸運", "", "▼戦闘技能--------", "CCB<=64 回避",
                     "CCB<=70 拳銃", "CCB<=60 こぶし", "CBRB(60,1) こぶし+MA", "▼×5--------", "CCB<=({STR}*5) STR*5",
                     "▼ダメ―ジ--------", "1D3{DB} こぶしダメージ", "2D3{DB} こぶし+MAダメージ", "1Dn{DB}/2 投擲ダメージ",
                     "1D10+2 コルトM1911 ダメ―ジ", "1D4+2{DB} 警棒 ダメ―ジ", "▼回復--------", "1D3応急手当回復"],
                    {**SIXTH, "DB": "+1D4"}))
    assert doc["skills"] == {"Dodge": 64, "Handgun": 70, "Fist/Punch": 60}
    assert [(w["name"], w["skill"], w["damage"], w.get("catalog")) for w in doc["weapons"]] == [
        ("コルトM1911", "Handgun", "1d10+2", "colt-m1911a1")]
    assert [(m["name"], m["skill"], m["damage"]) for m in doc["melee"]] == [
        ("こぶし", "Fist/Punch", "1d3+db"), ("警棒", "Club", "1d4+2+db")]
    assert "警棒: made with Club, the skill of a club (coc-ja.melee)" in said(doc)


def test_a_piece_with_no_params_states_its_characteristics_through_its_rolls_and_gauges():
    """A piece made by hand from a sheet: no params, the skills as commands, HP, MP and SAN gauges.
    Its Idea 70 and Know 85 are INT 14 and EDU 17 (6th edition: x5) and its MP 17 is POW 17, as a
    GM reads them; they had been said unread and INT, POW set to the average adult's 13 and 11."""
    doc = read(char(["CCB<={SAN} 【SAN値チェック】", "CCB<=70 【アイデア】", "CCB<=85 【幸運】", "CCB<=85 【知識】",
                     "CCB<=70 【目星】", "CCB<=55 【心理学】"], {},
                    [{"label": "HP", "value": 8, "max": 8}, {"label": "MP", "value": 17, "max": 17},
                     {"label": "SAN", "value": 85, "max": 99}]))
    assert (doc["INT"], doc["EDU"], doc["POW"], doc["MP"], doc["Luck"]) == (14, 17, 17, 17, 85)
    assert "unread" not in report(doc)
    text = said(doc)
    assert "INT 14: the sheet states no INT; its Idea 70 is INT x 5" in text
    assert "POW 17: the sheet states no POW; its MP 17 is POW (6th edition)" in text
    assert "set to the average adult" in text and "INT 13" not in text  # STR, CON, SIZ, DEX only


def test_a_7e_piece_s_skill_group_headings_and_its_damage_rolls_with_no_bonus():
    """iachara's 7th-edition palette prints each skill group bare at 0 (CC<=0 【近接戦闘】, CC<=0 【射撃】)
    and its three generic damage rolls with the damage bonus written as none (1d3なし 【ダメージ判定】).
    The group had become Fighting (Brawl) 0 beside its own 近接戦闘（格闘） 40; 'なし' had been taken for
    a weapon's name."""
    doc = read(char(["CC<=0 【近接戦闘】", "CC<=40 【近接戦闘（格闘）】", "CC<=0 【射撃】", "CC<=30 【射撃（拳銃）】",
                     "1d3なし 【ダメージ判定】", "1d4なし 【ダメージ判定】", "1d6なし 【ダメージ判定】"], SEVENTH))
    assert doc["system"] == "coc7"
    assert (doc["skills"]["Fighting (Brawl)"], doc["skills"]["Firearms (Handgun)"]) == (40, 30)
    unread = {u["path"]: u["text"] for u in report(doc)["unread"]}
    assert "the heading of a skill group at 0" in unread["$.data.commands line 1"]
    assert "the heading of a skill group at 0" in unread["$.data.commands line 3"]
    assert all("names no weapon" in unread[f"$.data.commands line {n}"] for n in (5, 6, 7))


# ---- edition -------------------------------------------------------------------------------------

def test_seventh_edition_is_decided_said_and_read_as_coc7():
    doc = read(char(["CC<=50 【目星】"], {**SEVENTH, "POW": 95}))
    assert doc["system"] == "coc7"
    assert (doc["STR"], doc["POW"], doc["INT"]) == (65, 95, 75)  # as the sheet states them
    rep = report(doc)
    assert rep["reader"].startswith("ccfolia clipboard character") and "ccfolia-coc7" in rep["reader"]
    assert rep["edition"].startswith("7th edition: characteristics 1-99 in params (STR 65")
    assert rep["edition"].endswith("(read into coc7 as written)")
    assert not any("divided by 5" in a for a in rep.get("assumed", []))


def test_sixth_edition_is_decided_and_a_monster_keeps_its_characteristics():
    monster = {"STR": 25, "CON": 16, "SIZ": 22, "INT": 13, "POW": 12, "DEX": 10}
    doc = read(char(["CCB<=25 【かぎ爪】", "1D6+{DB} 【かぎ爪ダメージ】"], monster))
    assert {k: doc[k] for k in monster} == monster
    rep = report(doc)
    assert "ccfolia-coc6" in rep["reader"] and rep["edition"].startswith("6th edition: params mix 3-18")
    assert [(m["name"], m["damage"]) for m in doc["melee"]] == [("かぎ爪", "1d6+db")] and doc["skills"] == {"かぎ爪": 25}


def test_the_edition_without_params_comes_from_the_commands_and_names():
    doc = read(char(["CC<=65 STR", "CC<=80 CON", "CC<=60 近接戦闘（格闘）"]))
    assert "7th" in report(doc)["edition"] and (doc["system"], doc["STR"], doc["CON"]) == ("coc7", 65, 80)


# ---- gauges and Luck --------------------------------------------------------------------------------

def test_hp_mp_san_and_luck_are_read_not_derived():
    status = [{"label": "HP", "value": 12, "max": 12}, {"label": "MP", "value": 12, "max": 12},
              {"label": "SAN", "value": 60, "max": 99}]
    doc = read(char(["CCB<=60 【幸運】"], SIXTH, status))  # MP = POW and SAN = POW x 5: still read
    assert (doc["HP"], doc["MP"], doc["SAN"], doc["Luck"]) == (12, 12, 60, 60)
    none = read(char(["CCB<={POW}*5 【幸運】"], SIXTH, []))  # stated nowhere: nothing made up
    assert not {"HP", "MP", "SAN", "Luck"} & set(none)


def test_seventh_edition_luck_gauge():
    doc = read(char(["CC<={幸運} 【幸運】"], SEVENTH, [{"label": "幸運", "value": 45, "max": 50}]))
    assert doc["Luck"] == 45


# ---- clipboard variations ---------------------------------------------------------------------------

def test_clipboard_variations_are_read_and_said():
    piece = char("CCB<=70 【目星】\r\nCCB<=45 【回避】\r\n", {**SIXTH, "ＳＴＲ": 13},
                 [{"label": "HP", "value": 12}, {"label": "ＭＰ", "value": 12}])
    piece["data"]["params"] = [p for p in piece["data"]["params"] if p["label"] != "STR"]
    doc = read(piece)
    assert doc["skills"] == {"Spot Hidden": 70, "Dodge": 45} and (doc["STR"], doc["HP"], doc["MP"]) == (13, 12, 12)
    assert "status gauges without max" in report(doc)["reader"] and "CRLF" in report(doc)["reader"]
    escaped = read(char("CCB<=70 【目星】\\nCCB<=45 【回避】", SIXTH))
    assert escaped["skills"] == {"Spot Hidden": 70, "Dodge": 45} and "escaped twice" in report(escaped)["reader"]


def test_palette_furniture_is_not_data_and_other_lines_are_said():
    doc = read(char(["▼戦闘技能-----", "◆能力値", "//---- 探索", "CCB<=", ":HP-1", "現在SAN値 {SAN}", "【戦闘・武器】",
                     "CCB<=50 【1D100ロール】", "CCB<=70 【目星】", "choice[右,左] 【逃走方向】",
                     "CBRB(60,10) キック+MA", "RESB({STR}-対抗値) STR対抗"], SIXTH))
    assert doc["skills"] == {"Spot Hidden": 70}
    assert {u["path"] for u in report(doc)["unread"]} == {"$.data.commands line 10", "$.data.commands line 11"}


def test_the_writers_melee_damage_bonus_reads_back():
    from xsys.plugins.ccfolia.writer import character_of

    first = read(char(["CCB<=70 【こぶし（パンチ）】", "1D3+{DB} 【こぶしダメージ】"], SIXTH))
    out = character_of(first)
    assert "1D3{DB} 【ダメージ：こぶし(パンチ)：こぶし】" in out["data"]["commands"].splitlines()
    assert {"label": "DB", "value": "+1d4"} in out["data"]["params"]  # STR 13 + SIZ 13 = 26
    again = read(out)
    assert again["melee"] == first["melee"] and again["skills"] == first["skills"]


def test_a_monster_with_no_appearance_and_no_education_has_none_and_no_know_roll():
    """A monster piece gives no APP and no EDU: it had been written APP 11 and EDU 14 (the average
    adult) with a 【知識】 roll on EDU x 5. It has neither, said; written back, no EDU parameter and
    no Know roll."""
    from xsys.plugins.ccfolia.writer import character_of

    monster = {k: v for k, v in SIXTH.items() if k not in ("APP", "EDU")}
    doc = read(char(["CCB<=40 【かぎ爪】", "1D6 【かぎ爪ダメージ】"], monster))
    assert "APP" not in doc and "EDU" not in doc and "APP, EDU: none stated, none written" in said(doc)
    out = character_of(doc)["data"]
    assert "【知識】" not in out["commands"] and not any(p["label"] in ("APP", "EDU") for p in out["params"])
    assert "CCB<={INT}*5 【アイデア】" in out["commands"].splitlines()


def test_values_coc_cannot_hold_are_said_and_the_rest_is_read():
    """A mostly readable piece converts with losses: a skill chance over 200%, an HP gauge that is
    no number and a SAN above 99 are each said at their path, not fatal."""
    doc = read(char(["CCB<=250 【目星】", "CCB<=45 【回避】"], SIXTH,
                    [{"label": "HP", "value": "たくさん", "max": ""}, {"label": "SAN", "value": 120, "max": 99}]))
    assert doc["skills"] == {"Dodge": 45} and "HP" not in doc and "SAN" not in doc
    assert {u["path"] for u in report(doc)["unread"]} == {"$.data.commands line 1", "$.data.status[0].value",
                                                          "$.data.status[1]"}


def test_idea_and_know_params_are_checked_against_int_and_edu():
    doc = read(char([], {**SIXTH, "アイデア": 75, "知識": 70}))  # INT 15 x 5 = 75; EDU 16 x 5 = 80
    (u,) = report(doc)["unread"]
    assert u["path"] == "$.data.params[9]" and "not EDU x 5 = 80" in u["text"]


def test_characteristic_rolls_written_with_x_or_times_are_not_skills():
    """'CCB<={STR}x5 【STR x5】', 'CCB<={CON}×5': the multiplication as sheets print it (the x had
    become part of a skill's name: skills 'x5 【STR x5】' = 11)."""
    doc = read(char(["CCB<={STR}x5 【STR x5】", "CCB<={CON}×5 【CON ×5】", "CCB<={DEX}*5 【DEX × 5】",
                     "CCB<=70 【目星】"], SIXTH))
    assert doc["skills"] == {"Spot Hidden": 70}
    assert "unread" not in report(doc)


def test_an_armor_gauge_is_the_armor_line():
    doc = read(char(["CC<=45 【目星】"], SEVENTH, status=[{"label": "HP", "value": 12, "max": 12},
                                                        {"label": "装甲", "value": 1, "max": 1}]))
    assert [a.get("armor") for a in doc["armor"]] == [1]


def test_a_sixth_edition_know_of_99_is_edu_20():
    """6th edition's Know is EDU x 5, at most 99: EDU 20 is Know 99, no discrepancy."""
    doc = read(char(["CCB<=99 【知識】", "CCB<=70 【目星】"], {**SIXTH, "EDU": 20, "知識": 99}))
    assert not any("知識" in u["text"] for u in report(doc).get("unread", []))
