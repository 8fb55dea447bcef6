"""Plain-text stat blocks: the textblock format plugin reads the blocks printed in
scenarios for every built-in system, reports every line it could not read, and writes each
system's own block; a native document survives text and back."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from xsys.conversions import api
from xsys.core import codec
from xsys.core.errors import InputError
from xsys.core.textblock import layout_of
from xsys.plugins.textblock.reader import load
from xsys.plugins.textblock.writer import text_of

ROOT = Path(__file__).resolve().parents[1]
TEXT = ROOT / "fixtures" / "text"
XSYS = str(Path(sys.executable).parent / "xsys")


def read(name: str) -> dict:
    return load((TEXT / name).read_bytes())


def test_a_coc_block_reads_like_its_yaml_fixture():
    doc = read("malloy-coc6.txt")
    assert doc["system"] == "coc" and doc["name"] == "Detective Sergeant Frank Malloy"
    assert [doc[k] for k in ("STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU", "HP")] == \
        [12, 12, 13, 11, 11, 13, 12, 12, 13]
    assert doc["skills"] == {"Dodge": 30, "Spot Hidden": 60, "Locksmith": 20, "Hide": 15, "Shotgun": 40,
                             "Handgun": 55}
    (w,) = doc["weapons"]
    assert (w["skill"], w["damage"], w["base_range"], w["capacity"], w["catalog"]) == \
        ("Handgun", "1d10", "15 m", 6, "sw-model-10")
    assert doc["notes"].startswith("Arkham police")
    # every line read; the damage bonus is coc's to derive, which is said (info, not a loss); the
    # report says which reader read it and which edition it took the block for, and why
    report = dict(doc["xsys"]["read"])
    assert report.pop("reader").startswith("textblock: Call of Cthulhu stat block")
    assert report.pop("edition").startswith("5th/6th edition: characteristics on the 3-18 scale, read as written")
    assert report == {"format": "text", "assumed": [
        "Damage Bonus +1D4 not carried: coc derives the damage bonus and movement from the characteristics"]}


def test_a_seventh_edition_block_reads_as_coc7_with_its_own_values():
    doc = read("walters-coc7.txt")
    assert doc["system"] == "coc7"  # 7th-edition material reads as 7th edition
    assert (doc["STR"], doc["INT"], doc["EDU"]) == (50, 85, 90)  # as printed, not divided by 5
    assert doc["skills"]["Firearms (Handgun)"] == 30 and doc["skills"]["Fighting (Brawl)"] == 35
    assert doc["skills"]["Dodge"] == 27
    assert doc["skills"]["Library Use"] == 80  # a skill coc7 has no table for is kept by its name
    (w,) = doc["weapons"]
    assert (w["name"], w["skill"], w["damage"], w["base_range"]) == (".38 Revolver", "Firearms (Handgun)", "1D10",
                                                                     "15 yd")
    report = doc["xsys"]["read"]
    assert not any("divided by 5" in a for a in report.get("assumed", []))
    # the brawl line is a close-combat attack with its 7th-edition skill; the SAN, MP and Luck the
    # block states are the document's own, MP 14 and SAN 70 included although POW 70 gives them;
    # its movement rate is a coc7 field. Nothing is left unread.
    assert doc["melee"] == [{"name": "Brawl", "skill": "Fighting (Brawl)", "damage": "1D3"}]
    assert "unread" not in report
    assert (doc["Luck"], doc["SAN"], doc["MP"], doc["MOV"]) == (45, 70, 14, 7)
    assert report["edition"].startswith("7th edition: characteristics 1-99")
    # --to coc gives the 6th-edition sheet through the editions' rule (x5 / 5): STR 50 is coc 10
    conv = api.convert(api.from_plain(doc), "coc", trace=False)
    coc = conv.document
    assert (coc.STR, coc.INT, coc.EDU, coc.skills["Handgun"]) == (10, 17, 18, 30)
    # Fighting (Brawl) 35 lies below coc's untrained Fist/Punch 50: written 50, and said
    assert coc.skills["Fist/Punch"] == 50
    assert any("untrained Fist/Punch 50" in x.message for x in conv.losses)


@pytest.mark.parametrize("line, said", [
    ("Damage Bonus and Build: 0, 0", "Build 0, Damage Bonus 0 not carried"),
    ("Damage bonus & Build: +1D4 / 1", "Build 1, Damage bonus +1D4 not carried"),
])
def test_two_stats_named_together_are_each_read(line, said):
    """A block that names two stats on one label ("Damage Bonus and Build: 0, 0") states each in
    turn: both are read (and, coc7 deriving them, said not carried), no part of the line unread."""
    block = ("Harold Finch, bookseller\nSTR 50 CON 60 SIZ 55 DEX 45 INT 80 APP 50 POW 65 EDU 85\n"
             f"SAN 60 HP 11 MP 13\n{line}\nFighting (Brawl) 30% (15/6), damage 1D3\n")
    doc = load(block.encode())
    report = doc["xsys"]["read"]
    assert doc["system"] == "coc7" and "unread" not in report
    assert any(a.startswith(said) for a in report["assumed"])


def _with_unread_line(tmp_path):
    """walters-coc7.txt with a combat line no reader takes ("Sling, range 20 yd": no % and no
    damage) as line 7."""
    lines = (TEXT / "walters-coc7.txt").read_text(encoding="utf-8").splitlines()
    path = tmp_path / "walters-sling.txt"
    path.write_text("\n".join(lines[:6] + ["Sling, range 20 yd"] + lines[6:]) + "\n", encoding="utf-8")
    return path


def test_a_japanese_block_reads_full_width_digits_and_japanese_skill_names():
    doc = read("tanaka-coc-ja.txt")
    assert doc["system"] == "coc" and doc["STR"] == 12 and doc["SIZ"] == 14
    assert doc["skills"] == {"Handgun": 60, "Dodge": 40, "Spot Hidden": 55, "Listen": 45, "Fist/Punch": 60}
    (w,) = doc["weapons"]
    assert (w["skill"], w["damage"]) == ("Handgun", "1d10")
    assert any("no base range" in a for a in doc["xsys"]["read"]["assumed"])


def test_gurps_book_and_mook_blocks():
    doc = read("patrol-officer-gurps.txt")
    fixture = codec.to_builtins(api.load(ROOT / "fixtures/gurps/npcs/policeman.yaml").document)
    got = codec.to_builtins(api.from_plain(doc, "x").document)
    for a in fixture["armor"]:
        a.pop("catalog")  # "Kevlar vest" does not name a catalog item: the YAML says nij-iia-vest
    assert got == fixture
    # the Mook's columns are a 4th-edition block (FP, SM, (DX/E) skills, Dodge 8 = Basic Speed 5
    # + 3): read into the 3rd-edition document by the 3e rules, HP = HT 10 and Dodge = Move 5
    # (tests/test_textblock_gurps_nwod.py checks the warnings that say so)
    mook = read("street-thug-mook.txt")
    assert (mook["ST"], mook["DX"], mook["IQ"], mook["HT"], mook["HP"], mook["Dodge"]) == (11, 11, 9, 10, 10, 5)
    assert mook["skills"] == {"Guns (Pistol)": 12, "Brawling": 12, "Streetwise": 10}


def test_nwod_and_polish_blocks():
    doc = read("patrol-officer-nwod.txt")
    fixture = api.load(ROOT / "fixtures/nwod/npcs/patrol-officer.yaml").document
    got = api.from_plain(doc, "x").document
    for k in ("Intelligence", "Dexterity", "Composure", "skills", "specialties", "Health", "Defense"):
        assert getattr(got, k) == getattr(fixture, k), k
    glock = got.weapons[0]
    assert (glock.damage, glock.clip, glock.chamber, glock.catalog) == (2, 17, True, "glock-17")
    pl = read("anna-nowak-pl.txt")
    assert pl["system"] == "pl-trudnosc" and pl["umiejętności"] == {"Broń krótka": 3, "Czujność": 4}
    assert pl["broń"] == [{"nazwa": "Walther PPK (7.65 mm)", "rodzaj": "krótka", "katalog": "walther-ppk"}]


def test_every_line_not_read_is_reported_with_its_number():
    text = ("Bob the bouncer\nSTR 14 CON 13 SIZ 15 DEX 10 APP 8 INT 9 POW 10 EDU 8 Sneer 3\n"
            "Skills: Dodge 30%, Fist/Punch 70%, Looming menacingly\nHe likes cats.\n")
    doc = load(text.encode())
    unread = doc["xsys"]["read"]["unread"]
    assert {u["line"] for u in unread} == {2, 3, 4}
    assert any("Sneer 3" in u["text"] for u in unread) and any("Looming" in u["text"] for u in unread)
    assert doc["skills"] == {"Dodge": 30, "Fist/Punch": 70}


def test_a_block_of_no_known_system_is_one_clear_error(tmp_path):
    with pytest.raises(InputError) as exc:
        load(b"Just some prose\nwith no stats at all\n")
    assert "cannot tell which system" in str(exc.value)
    # each layout's stats named once (coc and coc7 share one: it had been listed twice)
    hints = str(exc.value).split("the system's stats: ", 1)[1]
    assert hints.count("(Call of Cthulhu)") == 1 and "ST DX IQ HT (GURPS" in hints
    bad = tmp_path / "prose.txt"
    bad.write_text("Just some prose\n", encoding="utf-8")
    r = subprocess.run([XSYS, "convert", str(bad), "--to", "gurps", "--format", "yaml"], capture_output=True,
                       text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "prose.txt" in r.stderr and "cannot tell which system" in r.stderr
    with pytest.raises(InputError):
        load(b"system: dnd5e\nSTR 10\n")


def _native_fixtures():
    from xsys.core.registry import default_registry

    reg = default_registry()
    for f in sorted((ROOT / "fixtures").glob("*/npcs/*.yaml")):
        key = f.parent.parent.name
        if key != "neutral" and layout_of(reg.system(key), reg) is not None:  # a system with text blocks
            yield f


@pytest.mark.parametrize("path", list(_native_fixtures()), ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_every_fixture_npc_survives_text_and_back(path):
    """A native document printed as its system's block and read back is the same document;
    a name that is a catalog item may gain its catalog id, never lose one."""
    loaded = api.load(path)
    plain = {"system": loaded.system, "kind": "npc", **codec.to_builtins(loaded.document)}
    text = text_of(plain)
    back = load(text.encode())
    assert "xsys" not in back, back.get("xsys")
    a = codec.to_builtins(loaded.document)
    b = codec.to_builtins(api.from_plain(back, "x").document)
    for key in ("weapons", "armor", "broń", "pancerz"):
        for x, y in zip(a.get(key) or [], b.get(key) or []):
            for cat in ("catalog", "katalog"):
                if cat not in x and cat in y:
                    y.pop(cat)  # gained by name
    assert a == b


def test_the_writer_prints_every_stat_even_at_its_default():
    text = text_of({"system": "gurps", "kind": "npc", "name": "Average shooter", "skills": {"Guns (Pistol)": 12}})
    assert "ST 10, DX 10, IQ 10, HT 10" in text
    nwod = text_of({"system": "nwod", "kind": "npc", "name": "Joe"})
    assert "Dexterity 2" in nwod and "Wits 2" in nwod and "Composure 2" in nwod


def test_nwod_ranges_print_in_yards():
    doc = api.load(ROOT / "fixtures/nwod/npcs/patrol-officer.yaml")
    text = text_of({"system": "nwod", "kind": "npc", **codec.to_builtins(doc.document)})
    assert "Ranges 20/40/80 yd" in text and "18.288" not in text


def test_a_converted_document_prints_with_its_report_summed_up_in_a_comment():
    conv = api.convert(ROOT / "fixtures/coc/npcs/police_detective.yaml", "gurps", fresh=True)
    plain = {"system": "gurps", "kind": "npc", **codec.to_builtins(conv.document), "xsys": conv.meta()}
    text = text_of(plain)
    assert text.startswith("# converted from coc by xsys:")
    back = load(text.encode())
    assert back["name"] == "Detective Sergeant Frank Malloy" and "xsys" not in back


@pytest.mark.parametrize("target", ["coc", "coc7", "coc-zh", "gurps", "nwod", "pl-trudnosc"])
def test_a_pasted_block_converts_to_every_system(target):
    r = subprocess.run([XSYS, "convert", str(TEXT / "patrol-officer-gurps.txt"), "--to", target, "--format", "yaml",
                        "--fresh", "-q"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "Patrol officer" in r.stdout


def test_chinese_blocks_are_coc_zh():
    text = "陳探長\nSTR 13 CON 12 SIZ 14 DEX 12 APP 10 INT 14 POW 11 EDU 13\n技能：手枪 60%、闪避 40%\n"
    doc = load(text.encode())
    assert doc["system"] == "coc-zh" and doc["skills"] == {"Handgun": 60, "Dodge": 40}


# ---- --format text: plugin output formats through xsys_register_formats ------------------

@pytest.mark.parametrize("target", ["coc", "coc7", "gurps", "nwod", "pl-trudnosc"])
def test_convert_to_text_reads_back_as_the_same_numbers(target):
    """convert -> the target's text block -> read back: the very document the conversion made."""
    conv = api.convert(api.load(TEXT / "malloy-coc6.txt"), target, trace=False)
    out = api.dump(conv, "text")
    back = load(out)
    assert "xsys" not in back  # the writer prints what the reader reads, nothing assumed
    assert codec.to_builtins(codec.canonical(api.from_plain(back, "x").document)) == \
        codec.to_builtins(conv.document)


def test_format_text_on_the_command_line_writes_a_stat_block(tmp_path):
    r = subprocess.run([XSYS, "convert", str(TEXT / "malloy-coc6.txt"), "--to", "gurps", "--format", "text", "-q"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "ST 11, DX 10, IQ 10, HT 11" in r.stdout and r.stdout.startswith("# converted from coc")
    # the default output of a text input is text; --out-dir names it .txt
    r = subprocess.run([XSYS, "convert", str(TEXT / "malloy-coc6.txt"), "--to", "nwod", "--out-dir", str(tmp_path),
                        "-q"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "malloy-coc6.txt").read_text(encoding="utf-8").splitlines()[1] == \
        "Detective Sergeant Frank Malloy"


def test_unknown_output_format_lists_the_plugin_formats():
    r = subprocess.run([XSYS, "convert", str(TEXT / "malloy-coc6.txt"), "--to", "gurps", "--format", "docx"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "unknown output format" in r.stderr and "text" in r.stderr and "'docx'" in r.stderr


def test_a_text_block_holds_one_npc_only():
    scenario = ROOT / "fixtures" / "gurps" / "scenarios"
    src = sorted(scenario.glob("*.yaml"))[0]
    conv = api.convert(api.load(src), "gurps", trace=False)
    with pytest.raises(InputError) as err:
        api.dump(conv, "text")
    assert "one NPC" in err.value.line()


def test_a_third_party_format_writes_through_the_same_hook(toy_registry, tmp_path):
    """No special case for `text`: any registered format with a dump is an output format."""
    from xsys.conversions import documents
    from xsys.core import registry
    from xsys.core.hookspecs import hookimpl
    from xsys.plugins import catalog
    from toy import toy_system

    class Kv:
        @hookimpl
        def xsys_register_formats(register):
            register("kv", ["kv"], lambda data: {},
                     lambda plain: "".join(f"{k}={v}\n" for k, v in plain.items() if k != "xsys").encode())

    reg = registry.Registry(entry_points=[], extra_plugins=[("toy", toy_system), ("catalog", catalog), ("kv", Kv)])
    registry.set_default_registry(reg)
    assert documents.output_formats()["kv"] == ".kv"
    conv = api.convert({"system": "toy", "kind": "npc", "name": "Scout", "AGI": 9}, "toy", registry=reg)
    assert b"AGI=9\n" in api.dump(conv, "kv")


# ---- the read report becomes the conversion's losses -------------------------------------

def test_unread_lines_are_losses_naming_the_line_and_strict_counts_them(tmp_path):
    src = _with_unread_line(tmp_path)
    conv = api.convert(api.load(src), "gurps", trace=False)
    unread = [x for x in conv.losses if x.rule == "text.unread"]
    assert [x.path for x in unread] == ["line 7"] and unread[0].kind == "dropped-item"
    assert "Sling" in unread[0].message and unread[0].level == "warning"
    assumed = [x for x in conv.losses if x.rule == "text.assumed"]
    assert any("coc7 derives the damage bonus" in x.message for x in assumed) and all(x.level == "info" for x in assumed)
    r = subprocess.run([XSYS, "convert", str(src), "--to", "gurps", "--format", "yaml",
                        "--strict"], capture_output=True, text=True)
    assert r.returncode == 1 and "first: line 7: not read from the text input: Sling" in r.stderr
    # a block read whole has no read losses
    clean = api.convert(api.load(TEXT / "malloy-coc6.txt"), "gurps", trace=False)
    assert not [x for x in clean.losses if x.rule == "text.unread"]


def test_the_read_report_survives_into_the_written_loss_report(tmp_path):
    import yaml

    conv = api.convert(api.load(_with_unread_line(tmp_path)), "coc", trace=False)
    written = yaml.safe_load(api.dump(conv, "yaml"))
    assert any(x["path"] == "line 7" and x["kind"] == "dropped-item" for x in written["xsys"]["losses"])


def test_validate_reports_what_a_text_block_left_unread(tmp_path):
    r = subprocess.run([XSYS, "validate", str(_with_unread_line(tmp_path))], capture_output=True, text=True)
    assert r.returncode == 0 and "ok: " in r.stdout
    assert "warning: line 7: not read from the text input" in r.stderr and "[text.assumed]" in r.stderr


def test_an_unknown_skill_name_is_a_warning_naming_the_closest_match():
    block = b"Kid Typo\nSTR 10 CON 10 SIZ 10 DEX 10 APP 10 INT 10 POW 10 EDU 10\n" \
            b"Skills: Spot Hiden 50%, Library Use 30%\n"
    doc = load(block)
    assert doc["skills"]["Spot Hiden"] == 50  # kept by its own name
    assert doc["xsys"]["read"]["unknown"] == [{"line": 3, "text": "Spot Hiden", "closest": "Spot Hidden"}]
    conv = api.convert(api.from_plain(doc, "typo.txt"), "coc", trace=False)
    (w,) = [x for x in conv.losses if x.rule == "text.unknown-skill"]
    assert (w.level, w.path) == ("warning", "line 3") and "closest: Spot Hidden" in w.message
    assert w not in conv.strict_losses  # kept, not lost: --strict does not fail on it


def test_close_combat_skill_names_in_every_convention():
    """6e English, 7e "Fighting (...)" and the Japanese names of the close-combat skills are
    read as coc's Knife, Club, Sword, Axe and Spear, not left unread or carried as
    unknown skills; `xsys skills coc` lists them as aliases."""
    from xsys.core.registry import default_registry
    from xsys.plugins.textblock.reader import load

    en = load("Thug\nSTR 14 CON 12 SIZ 14 DEX 11 APP 8 INT 9 POW 9 EDU 8 HP 13\n"
              "Skills: Knife 45%, Club 50%, Fighting (Sword) 30%, Fighting (Axe) 20%, Dodge 22%\n".encode())
    assert {k: en["skills"][k] for k in ("Knife", "Club", "Sword", "Axe")} == {"Knife": 45, "Club": 50, "Sword": 30,
                                                                               "Axe": 20}
    ja = load("チンピラ\nＳＴＲ １４　ＣＯＮ １２　ＳＩＺ １４　ＤＥＸ １１　ＡＰＰ ８　ＩＮＴ ９　ＰＯＷ ９　ＥＤＵ ８\n"
              "技能：ナイフ 45％、こん棒 50％、回避 22％\n".encode())
    assert (ja["skills"]["Knife"], ja["skills"]["Club"]) == (45, 50)
    assert not ja.get("xsys", {}).get("read", {}).get("unread")
    aliases = layout_of(default_registry().system("coc")).skill_aliases()
    assert "fighting (sword)" in aliases["Sword"] and "こん棒" in aliases["Club"]


def test_a_coc7_block_prints_ranges_in_yards_as_the_7th_edition_table_does():
    """'base range 100.584 m' is 110 yards to a 7th-edition Keeper; read back, the same length."""
    conv = api.convert(api.load(ROOT / "fixtures" / "gurps" / "npcs" / "soldier.yaml"), "coc7", fresh=True, trace=False)
    out = api.dump(conv, "text")
    text = out.decode() if isinstance(out, bytes) else out
    assert "base range 110 yd" in text and "100.584" not in text
    back = load(text.encode())
    assert back["weapons"][0]["base_range"] == "110 yd"
    assert codec.to_builtins(api.from_plain(back, "x").document)["weapons"][0]["base_range"] == \
        codec.to_builtins(conv.document)["weapons"][0]["base_range"]


def test_a_coc_block_with_the_characteristics_named_in_full_is_coc():
    """A 7th-edition character written up as 'Strength: 60 / Con: 60 / Size: 60 ...' (as
    people write them in blog posts) was read as nWoD ('Intelligence 85' over 5 dots): Con,
    Size, Power and Education tell it CoC's, and its Strength, Dexterity and Intelligence are read."""
    text = ("Bookbinder\nStrength: 45\nCon: 55\nSize: 70\nDexterity: 65\nAppearance: 40\nIntelligence: 75\n"
            "Power: 50\nEducation: 62\nLuck: 35\nHit Points: 12\nMove: 7\n")
    doc = load(text.encode())
    assert doc["system"] == "coc7"
    assert {k: doc[k] for k in ("STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU")} == \
        {"STR": 45, "CON": 55, "SIZ": 70, "DEX": 65, "APP": 40, "INT": 75, "POW": 50, "EDU": 62}
    assert doc["Luck"] == 35 and doc["HP"] == 12 and doc["MOV"] == 7


@pytest.mark.parametrize(("path", "line"), [
    # '.38 Revolver 30% (15/6), damage 1D10, range 15 yd': a revolver's row, capacity 0 before
    ("text/walters-coc7.txt", {"base_range": "13.716 m", "uses_per_round": "1 (3)", "capacity": 6}),
    # '.45 Automatic 45% (22/9), damage 1D10+2' states no range: 7th edition's 15 yd (13.716 m), not 6th's 15 m
    ("corpus/text-coc/en7-chaosium-bootlegger.txt", {"base_range": "13.716 m", "uses_per_round": "1 (3)", "capacity": 7}),
])
def test_a_7th_edition_block_s_gun_line_is_completed_from_7th_edition_s_table(path, line):
    doc = api.load(ROOT / "fixtures" / path)
    assert doc.system == "coc7"
    gun = codec.to_builtins(doc.document)["weapons"][0]
    assert {k: str(gun.get(k)) for k in line} == {k: str(v) for k, v in line.items()}


def test_notes_kept_line_by_line_print_as_one_paragraph_that_does_not_run_together():
    """A GM read 'age 38 bootlegger A broad-shouldered ...' on the sheet of 'Frank Lecroix, age 38,
    bootlegger' and his description line."""
    from xsys.core.textblock import paragraph

    assert paragraph("age 38\nbootlegger\nA broad-shouldered rum runner.") == \
        "age 38; bootlegger; A broad-shouldered rum runner."
    assert paragraph("Keeps a .38.\nFights dirty") == "Keeps a .38. Fights dirty"
    conv = api.convert(ROOT / "fixtures" / "corpus" / "text-coc" / "en7-chaosium-bootlegger.txt", "coc7", fresh=True)
    assert "age 38; bootlegger; A broad-shouldered" in api.dump(conv, "md").decode()


@pytest.mark.parametrize("target, line", [
    ("coc", "# derived: DB +1d6 (coc-ja.damage-bonus)"),           # STR 17 + SIZ 17
    ("coc-zh", "# derived: DB +1d6 (coc-ja.damage-bonus)"),
    ("coc7", "# derived: DB +1D6, Build 2 (coc7.derived)"),       # STR 85 + SIZ 85
])
def test_a_coc_block_states_the_damage_bonus_its_melee_lines_add(tmp_path, target, line):
    """A written CoC block's melee lines say '1D3+DB': the block states the DB (and 7th edition's
    Build) the rules give, on a comment line the reader skips, so the block still reads clean."""
    conv = api.convert(ROOT / "fixtures" / "coc" / "npcs" / "dock_brute.yaml", target, fresh=True)
    text = api.dump(conv, "text").decode("utf-8")
    assert line in text.splitlines()
    path = tmp_path / "brute.txt"
    path.write_text(text, encoding="utf-8")
    back = codec.to_builtins(api.load(path).document)
    assert "xsys" not in back and back["STR"] == conv.document.STR


def test_a_7e_weapon_line_in_the_official_sheet_s_column_words_reads_whole(tmp_path):
    """The 7th-edition character sheet heads its weapon columns "# of Attacks" and "Ammo" (a
    number of rounds): a block copied from such a sheet ("attacks 1 (3), ammo 8") reads them as
    uses per round and capacity, with no line left unread."""
    block = ("Detective Hale\nSTR 50 CON 50 SIZ 50 DEX 80 APP 50 INT 60 POW 50 EDU 73\nHP 10 MP 10 Luck 65 SAN 50\n"
             "Skills: Firearms (Handgun) 50%, Dodge 50%, Fighting (Brawl) 25%\n"
             "Weapons: 9mm semi-automatic 50%, damage 1D10, base range 15 yards, attacks 1 (3), ammo 8, "
             "malfunction 100\n")
    path = tmp_path / "hale.txt"
    path.write_text(block, encoding="utf-8")
    doc = codec.to_builtins(api.load(path).document)
    assert doc["system"] == "coc7"
    (w,) = doc["weapons"]
    assert (w["uses_per_round"], w["capacity"]) == ("1 (3)", 8)
    assert "unread" not in (doc.get("xsys") or {}).get("read", {})


def test_the_output_files_extension_names_its_format(tmp_path, capsys):
    """`-o npc.yaml` writes YAML and `-o npc.txt` a stat block whatever the input was; an
    extension no format writes leaves the input's format; --format still decides."""
    from helpers import run_main

    block, doc = ROOT / "fixtures" / "text" / "walters-coc7.txt", ROOT / "fixtures" / "coc" / "npcs" / "police_detective.yaml"
    for src, name, starts in ((block, "a.yaml", "system: gurps\nkind: npc\n"), (doc, "b.txt", "# converted from coc"),
                              (doc, "c.md", "# "), (block, "d.out", "# converted from coc7"),
                              (doc, "e.txt", "{")):
        extra = ["--format", "json"] if name == "e.txt" else []
        code, _, err = run_main(capsys, "convert", src, "--to", "gurps", "-q", "-o", tmp_path / name, *extra)
        assert code == 0, err
        assert (tmp_path / name).read_text(encoding="utf-8").startswith(starts), name
    assert "ST 11, DX 10, IQ 10, HT 11" in (tmp_path / "b.txt").read_text(encoding="utf-8")


def test_a_7th_edition_block_says_its_own_assumptions_only():
    """Read as 7th edition: a knife attack at its own level is said as 7th edition's rule (a
    knife is fought with Fighting (Brawl)) under the names the block printed, not coc's
    Fist/Punch; a weapon with no base range gets 7th edition's, said once (not also the 5th/
    6th-edition default the line was first read with)."""
    doc = load(b"Mickey Doyle\nSTR 75 CON 70 SIZ 70 DEX 60 INT 45 APP 40 POW 40 EDU 35 HP 14\n"
               b"Combat\nBrawl 60% (30/12), damage 1D3+DB\nSwitchblade 45% (22/9), damage 1D4+DB\n"
               b".38 Revolver 40% (20/8), damage 1D10\nDodge 30% (15/6)\n")
    assert doc["system"] == "coc7" and doc["skills"]["Fighting (Brawl)"] == 60
    assumed = doc["xsys"]["read"]["assumed"]
    assert ("Switchblade 45: made with Fighting (Brawl) in 7th edition (a knife or a club is fought with Brawl), "
            "which the block gives as Fighting (Brawl) 60: Fighting (Brawl) 60, the better, is kept (coc7.melee)"
            ) in assumed
    assert not any("Fist/Punch" in a for a in assumed)
    ranges = [a for a in assumed if ".38 Revolver" in a and "base range" in a]
    assert len(ranges) == 1 and "base range 15 yd" in ranges[0] and "coc7.weapons" in ranges[0]


def test_a_gurps_weapon_line_may_name_its_skill_bare():
    """'Combat knife (1d-1 cut, Knife)': the bare skill name is the skill it is used with, not
    an unread part of the line."""
    doc = load(b"Sergeant Vance\nST 12, DX 13, IQ 10, HT 12\nSkills: Knife-12, Brawling-13\n"
               b"Weapons: Combat knife (1d-1 cut, Knife); Sap (1d cr, Axe/Mace)\n")
    assert [(m["name"], m["skill"]) for m in doc["melee"]] == [("Combat knife", "Knife"), ("Sap", "Axe/Mace")]
    assert not doc.get("xsys", {}).get("read", {}).get("unread")


def test_a_derived_characteristic_is_said_under_its_own_name():
    """GURPS Will and Per follow IQ where the block states none (gurps.derived): what a target
    does with them is said as Will and Per at the level the rule gives, not as raw neutral
    numbers; a Will that comes back at the same level is no loss."""
    src = api.from_plain(load(b"Sergeant Vance\nST 12, DX 13, IQ 10, HT 12\nSkills: Guns (Rifle)-15\n"))
    conv = api.convert(src, "coc7", fresh=True)
    said = [x.message for x in conv.losses]
    assert "Per 10 (perception percentile 0.500; not stated: the rule's, from IQ): no place for it in a coc7 stat " \
           "block; dropped" in said
    assert not any(m.startswith("characteristics.") for m in said), said


def test_an_nwod_weapon_written_as_gms_write_it():
    """'Glock 17 (2L, 20/40/80, 17+1)': damage 2 lethal, the three ranges, clip 17 plus one
    chambered; a catalog gun whose line states no ranges is still a gun, at its chart line's
    ranges (said), where an nWoD weapon with no ranges would be a close-combat one; a knife stays
    one; a merit printed without dots is one dot (said)."""
    doc = load(b"Detective Okafor\nAttributes: Intelligence 3, Wits 3, Resolve 3, Strength 2, Dexterity 3, "
               b"Stamina 2, Presence 2, Manipulation 3, Composure 3\nSkills: Firearms 2, Brawl 1, Weaponry 1\n"
               b"Merits: Contacts 2, Quick Draw (Pistols)\n"
               b"Weapons: Glock 17 (2L, 20/40/80, 17+1); Beretta 92FS (2L); Knife (1L)\n")
    glock, beretta, knife = doc["weapons"]
    assert (glock["damage"], glock["ranges"], glock["clip"], glock.get("chamber")) == (
        2, ["20 yd", "40 yd", "80 yd"], 17, True)
    assert beretta["catalog"] == "beretta-92fs" and beretta["ranges"] == ["20 yd", "40 yd", "80 yd"]
    assert knife["damage"] == 1 and "ranges" not in knife
    assert doc["merits"] == {"Contacts": 2, "Quick Draw (Pistols)": 1}
    said = doc["xsys"]["read"]["assumed"]
    assert any("Beretta 92FS: no ranges in the block; catalog weapon beretta-92fs fires as the chart's "
               "Pistol, Lt.: 20/40/80 yd (nwod.range)" in a for a in said), said
    assert any("merit Quick Draw (Pistols): no dots stated, read as 1" in a for a in said)
    assert not doc["xsys"]["read"].get("unread")


def test_a_polish_weapon_line_takes_its_kind_from_its_name():
    """'Kbk AKM (obrażenia 8)' is a long arm and 'pistolet P-64' a short one, as their names
    say (said as assumed); a name that says nothing is still not read (never a silent pistol);
    a pistolet maszynowy is a submachine gun, not a pistol."""
    from xsys.core.textblock import weapon_class_by_name

    doc = load("Kapral Wiśniewski\nMotoryka 4, Percepcja 3, Atletyka 3, Odwaga 4\n"
               "Broń: Kbk AKM (obrażenia 8), pistolet P-64 (obrażenia 5), Coś ciężkiego (obrażenia 3)\n".encode())
    assert [(w["nazwa"], w["rodzaj"]) for w in doc["broń"]] == [("Kbk AKM", "długa"), ("pistolet P-64", "krótka")]
    said = doc["xsys"]["read"]["assumed"]
    assert any("Kbk AKM: rodzaj not given; długa, as its name says (a rifle)" in a for a in said)
    assert any("Coś ciężkiego" in u["text"] and "rodzaj not given" in u["text"] for u in doc["xsys"]["read"]["unread"])
    assert (weapon_class_by_name("pistolet maszynowy PM-84"), weapon_class_by_name("karabin maszynowy RKM"),
            weapon_class_by_name("strzelba myśliwska")) == ("smg", "mg", "shotgun")


def test_a_stat_lines_closing_full_stop_is_not_unread():
    """Chaosium's blocks end their stat lines with a full stop ('Damage Bonus: +1D4.'): nothing
    of the line is left unread for it."""
    doc = load(b"Big Johnny Morelli\nSTR 14 CON 12 SIZ 13 INT 11 POW 10\nDEX 12 APP 9 EDU 8 SAN 45 HP 13.\n"
               b"Damage Bonus: +1D4.\nSkills: Dodge 30%, Spot Hidden 45%.\n")
    assert doc["SAN"] == 45 and doc["skills"]["Spot Hidden"] == 45
    assert not doc.get("xsys", {}).get("read", {}).get("unread"), doc["xsys"]["read"]


def test_a_gurps_4th_edition_weapon_line_with_its_stats_after_a_colon():
    """'Glock 17 (9mm): 2d+2 pi, Acc 2, Range 150/1,900, RoF 3, Shots 17+1(3), ST 9, Bulk -2.':
    one weapon (not eight unread pieces), its range read in yards; 'Damage 1d-2/1d; BL 20 lbs.'
    is what ST gives, said, not unread."""
    doc = load(b"Officer Dana Kim\nST 10 [0]; DX 12 [40]; IQ 11 [20]; HT 11 [10].\n"
               b"Damage 1d-2/1d; BL 20 lbs.; HP 10 [0]; Will 12 [5]; Per 12 [5]; FP 11 [0].\n"
               b"Skills: Guns/TL8 (Pistol)-14 [2].\n"
               b"Weapons: Glock 17 (9mm): 2d+2 pi, Acc 2, Range 150/1,900, RoF 3, Shots 17+1(3), ST 9, Bulk -2.\n")
    [w] = doc["weapons"]
    assert (w["name"], w["damage"], w["Acc"], w["1/2D"], w["Max"], w["Shots"], w["catalog"]) == (
        "Glock 17 (9mm)", "2d+2", 2, 137, 1737, 17, "glock-17")
    unread = [u["text"] for u in doc["xsys"]["read"]["unread"]]
    assert not any(t.startswith(("Acc", "900", "RoF", "Damage 1d-2")) or "not read: Damage" in t for t in unread), unread
    assert any("Damage 1d-2/1d and BL 20 lbs.: what ST gives" in a for a in doc["xsys"]["read"]["assumed"])


def test_a_gurps_skill_with_a_specialty_is_the_documents_skill():
    """'Driving (Car)-11' is the gurps document's Driving (so a CoC sheet gets its Drive Auto), the
    specialty said; a specialty of a skill the document has as such (Guns (Pistol)) stays itself."""
    doc = load(b"Inspector Voss\nST 10, DX 12, IQ 13, HT 11.\nSkills: Driving (Car)-11; Guns (Pistol)-14; "
               b"Beam Weapons (Pistol)-12.\n")
    assert doc["skills"] == {"Driving": 11, "Guns (Pistol)": 14, "Beam Weapons (Pistol)": 12}
    assert any("Driving (Car)-11 read as Driving-11" in a for a in doc["xsys"]["read"]["assumed"])
    conv = api.convert(api.from_plain(doc), "coc", fresh=True)
    assert conv.document.skills["Drive Auto"] > 20  # above the base: the Driving crossed


def test_a_compact_gurps_block_with_no_headings():
    """The compact blocks GM blogs print, a line each: 'Mace damage 2d+2 cr' is a weapon, 'Mail
    DR 4' armor and 'Axe/Mace-13' a skill, none of them unread."""
    doc = load(b"Gate guard\nST 13; DX 11; IQ 10; HT 12\nMace damage 2d+2 cr\nMail DR 4\n"
               b"Speed 5.75, Dodge 6, Move 3\nAxe/Mace-13\n")
    assert doc["skills"] == {"Axe/Mace": 13}
    assert [(m["name"], m["damage"], m["skill"]) for m in doc["melee"]] == [("Mace", "2d+2", "Axe/Mace")]
    assert [(a["name"], a["DR"]) for a in doc["armor"]] == [("Mail", 4)]
    assert not doc.get("xsys", {}).get("read", {}).get("unread"), doc.get("xsys")


def test_a_bestiary_block_s_attacks_after_a_dash_and_armor_by_its_points_first():
    """A creature block as bestiaries print it: "Bite 55% — 1D8+DB" (the damage after a dash; it
    was read as an attack named "Bite 55% —") and "Armor: 3 (immune to non-silver)" / "1-point
    skin" (the points first; it was not read at all)."""
    block = ("Werewolf\nSTR 100 CON 80 SIZ 85 DEX 75 INT 40 POW 60 APP 10\nHP 16\n"
             "Attacks: Bite 55% — 1D8+DB\nAttacks: Claws 50% – 1D6+DB\n"
             "Armor: 3 (immune to non-silver)\nSkills: Spot Hidden 45%, Track 40%\n")
    doc = load(block.encode())
    assert doc["system"] == "coc7"
    assert [(m["name"], m["damage"]) for m in doc["melee"]] == [("Bite", "1D8+DB"), ("Claws", "1D6+DB")]
    assert (doc["skills"]["Bite"], doc["skills"]["Claws"]) == (55, 50)
    assert [(a["name"], a["armor"]) for a in doc["armor"]] == [("Armor (immune to non-silver)", 3)]
    assert "unread" not in doc["xsys"]["read"]
    assert any("read as 3 points" in a for a in doc["xsys"]["read"]["assumed"])
    skin = load(b"Ghoul\nSTR 80 CON 65 SIZ 65 DEX 65 INT 65 POW 65\nHP 13\nArmor: 1-point skin\n")
    assert [(a["name"], a["armor"]) for a in skin["armor"]] == [("Skin", 1)]
    six = load(b"Hound\nSTR 12 CON 11 SIZ 10 DEX 14 INT 4 POW 9\nHP 11\nArmor: 2 points of hide\n")
    assert six["system"] == "coc"
    assert [(a["name"], a["A"], a["B"]) for a in six["armor"]] == [("Hide", 2, 1)]


def test_an_older_scenario_s_creature_and_its_full_stops():
    """A 6th-edition creature as older scenarios print it (made up here in their shape): huge
    characteristics with HP = (CON + SIZ) / 2 (it was taken for 7th edition by the characteristics'
    size and every one divided by 5), a natural attack that names no firearm and no damage bonus
    (it was dropped: 'which firearm skill fires it is not said'), full stops between a list's
    entries (skills merged into one name), and a 20-point hide between the armor list's rows."""
    block = ("THE COLOSSUS OF THE MARSH\nSTR 180 CON 90 SIZ 400 INT 3 POW 45\nDEX 15 Move 10 HP 245\n"
             "Weapons: Crush 45%. damage 10D6; Rapier 70%. damage 1D6+1+1D4\n"
             "Armor: 20-point hide.\n"
             "Skills: Listen 60%. Track 40%. Archaeology 15%.\n")
    doc = load(block.encode())
    assert doc["system"] == "coc"
    assert (doc["STR"], doc["CON"], doc["SIZ"], doc["HP"]) == (180, 90, 400, 245)
    assert [(m["name"], m["damage"]) for m in doc["melee"]] == [("Crush", "10d6"), ("Rapier", "1d6+1+1d4")]
    # a rapier is fought with Sword (coc-ja.melee), said; a creature's Crush is an attack of its own
    assert {k: doc["skills"][k] for k in ("Crush", "Sword", "Listen", "Track", "Archaeology")} == \
        {"Crush": 45, "Sword": 70, "Listen": 60, "Track": 40, "Archaeology": 15}
    assert [m["skill"] for m in doc["melee"]] == ["Crush", "Sword"]
    assert any("Rapier 70%: made with Sword, the skill of a sword (coc-ja.melee)" in a
               for a in doc["xsys"]["read"]["assumed"])
    assert [(a["name"], a["A"]) for a in doc["armor"]] == [("Hide", 20)]
    report = doc["xsys"]["read"]
    assert "unread" not in report, report.get("unread")
    assert "HP 245 = (CON+SIZ)/2" in report["edition"]
    # converted to its own system it keeps all of it: the numbers beyond the population table, and
    # the hide between the armor list's rows, as written (said)
    conv = api.convert(api.from_plain(doc), "coc", trace=False)
    plain = codec.to_builtins(conv.document)
    assert (plain["STR"], plain["SIZ"], plain["armor"][0]["A"]) == (180, 400, 20)
    # a gun stays a gun: a line with what only a gun states is no close-combat attack
    gun = load(b"Sniper\nSTR 11 CON 12 SIZ 13 DEX 14 APP 10 INT 13 POW 11 EDU 14\nHP 13\n"
               b"Weapons: Elephant gun 60%, damage 3D6+4, base range 100 m\n")
    assert "melee" not in gun or not gun["melee"]


def test_a_compendium_s_creature_layout_and_an_investigator_sheet_s_maximum_sanity():
    """A web compendium's 7th-edition creature: "Hitpoints: 13", and after a one-line "Armor:"
    its attacks as "Name: value" ("Dodge: 40", "Fighting: 40% damage: 1d6 + damage bonus"), which
    were read as armor lines and dropped; and a sheet's "Max Sanity 99", which was read as SAN."""
    block = ("Marsh Ghoul\nSTR 80\nCON 65\nSIZ 65\nDEX 65\nINT 65\nPOW 65\nHitpoints: 13\nMagicpoints: 13\n"
             "Move: 9\nAttacks\nArmor: Firearms do half damage.\nDodge: 40\n"
             "Fighting: 40% damage: 1d6 + damage bonus\n")
    doc = load(block.encode())
    assert doc["system"] == "coc7" and (doc["HP"], doc["MP"]) == (13, 13)
    assert (doc["skills"]["Dodge"], doc["skills"]["Fighting"]) == (40, 40)
    assert doc["melee"] == [{"name": "Fighting", "skill": "Fighting", "damage": "1D6+DB"}]
    sheet = load(b"Ada Byrne\nSTR 50 CON 60 SIZ 55 DEX 70 APP 60 INT 75 POW 55 EDU 80\nSanity 55 Luck 40\n"
                 b"Max Sanity 99\nHit Points 11 Magic Points 11\n")
    assert sheet["SAN"] == 55
    assert any("maximum Sanity" in a for a in sheet["xsys"]["read"]["assumed"])


def test_the_sanity_loss_a_creature_causes_is_kept_in_its_notes():
    """'Sanity Loss: 0/1D6 Sanity points to see a ghoul' was a loss line (no field for it): it is
    the Keeper's to know, kept in the notes and said."""
    doc = load(b"Ghoul\nSTR 80 CON 65 SIZ 65 DEX 65 INT 65 POW 65\nHP 13\n"
               b"Sanity Loss: 0/1D6 Sanity points to see a ghoul.\n")
    assert "Sanity Loss: 0/1D6 Sanity points to see a ghoul." in doc["notes"]
    assert "unread" not in doc["xsys"]["read"]
    assert any("kept in the notes" in a for a in doc["xsys"]["read"]["assumed"])


def test_a_run_together_line_and_a_damage_bonus_worked_into_the_dice():
    """A page run together: the weapons after the damage bonus on one line (the line was dropped
    whole), an attack's damage with the next attack's name after it and no comma between; and an
    older book's habit of printing the wielder's damage bonus worked into a close-combat line
    ("1D6+1D4" beside "Damage Bonus: +1D4"), which is the line's dice plus db."""
    doc = load(b"ASYLUM ORDERLY\nSTR 15 CON 14 SIZ 13 INT 9 POW 11\nDEX 13 APP 9 EDU 10 SAN 55 HP 14\n"
               b"Damage Bonus: +1D4. Weapons: Cosh 50%, damage 1D6+1D4 Fist/Punch 65%, damage 1D3+1D4\n"
               b"Skills: Listen 45%, Spot Hidden 55%.\n")
    assert doc["system"] == "coc"
    # a cosh is fought with Club (coc-ja.melee), said
    assert doc["melee"] == [{"name": "Cosh", "skill": "Club", "damage": "1d6+db"},
                            {"name": "Fist/Punch", "skill": "Fist/Punch", "damage": "1d3+db"}]
    assert (doc["skills"]["Club"], doc["skills"]["Fist/Punch"], doc["skills"]["Listen"]) == (50, 65, 45)
    assert "unread" not in doc["xsys"]["read"]
    assert any("damage bonus +1D4: written 1d6+db" in a for a in doc["xsys"]["read"]["assumed"])


def test_chinese_and_japanese_blocks_as_websites_and_rulebooks_print_them():
    """Found in real Chinese and Japanese material (these blocks are made up in its shape): skills
    run together without commas (read as one skill named with the whole run, without a word), an
    attack line's attacks apart by ' / ' under 攻击, a 战斗数据 list with ranges in 码, natural armor
    among the stats (护甲 1（皮肤）), name, chance and damage with no space between, a description's
    'SAN 损失 0/1D6' (read as a skill of 6), and the 7th-edition rulebook's attack of a weapon in
    brackets after its damage."""
    zh = load("码头混混\nSTR 65 CON 70 SIZ 65 DEX 55 INT 45 APP 45 POW 45 EDU 40\nHP 13 MP 9 幸运 45\n"
              "DB +1D4 体格 1 护甲 1（皮肤）\n技能：斗殴 55% 恐吓 50% 闪避 27% 潜行 40%\n"
              "攻击：斗殴 1D3+DB / 匕首 55% 1D4+DB\n战斗数据：\n  M1911 手枪 45% (22/9)，伤害 1D10+2，射程 15 码\n"
              "  射击(霰弹枪)35%(17/7)伤害4D6/2D6/1D6\n描述：信仰大衮。SAN 损失 0/1D6。\n".encode())
    assert zh["system"] == "coc7"  # 7th-edition material: read as 7th edition, with its own values
    assert zh["skills"] == {"Fighting (Brawl)": 55, "Intimidate": 50, "Dodge": 27, "Stealth": 40,
                            "Firearms (Handgun)": 45, "Firearms (Rifle/Shotgun)": 35}
    # a knife is fought with Brawl in 7th edition (coc7.melee)
    assert [(m["name"], m["skill"], m["damage"]) for m in zh["melee"]] == [
        ("斗殴", "Fighting (Brawl)", "1D3+DB"), ("匕首", "Fighting (Brawl)", "1D4+DB")]
    # the shotgun fired with Rifle/Shotgun is 7th edition's shotgun (50 yd, 2 shells), not its rifle
    assert [(w["name"], w["damage"], w["base_range"], w.get("capacity")) for w in zh["weapons"]] == [
        ("M1911 手枪", "1D10+2", "15 yd", 7), ("霰弹枪", "4D6/2D6/1D6", "50 yd", 2)]
    assert [(a["name"], a["armor"]) for a in zh["armor"]] == [("皮肤", 1)]
    assert "信仰大衮" in zh["notes"] and "unread" not in zh["xsys"]["read"], zh["xsys"]["read"].get("unread")
    ja = load("カルト信者\nSTR 60 CON 70 SIZ 60 DEX 60 INT 50\nAPP 35 POW 50 EDU 60 耐久力 13\n"
              "1ラウンドの戦闘回数：1\n近接戦闘（格闘）60%（30/12）、ダメージ 1D4+DB（ナイフ）\n回避 30%（15/6）\n".encode())
    assert ja["system"] == "coc7" and ja["skills"] == {"Fighting (Brawl)": 60, "Dodge": 30}
    assert ja["melee"] == [{"name": "ナイフ", "skill": "Fighting (Brawl)", "damage": "1D4+DB"}]
    assert "unread" not in ja["xsys"]["read"], ja["xsys"]["read"].get("unread")


def test_a_chinese_seventh_edition_block_keeps_its_hit_points_on_the_way_to_coc7():
    """A Chinese 7th-edition block reads into coc7 as written: its HP 13, 7th edition's
    (CON 70 + SIZ 65) / 10, stays 13 (it had gone through coc-zh's 3-18 scale and come back 12)."""
    block = "码头混混\nSTR 65 CON 70 SIZ 65 DEX 55 INT 45 APP 45 POW 45 EDU 40\nHP 13 MP 9\n技能：斗殴 55%\n"
    doc = load(block.encode())
    assert (doc["system"], doc["CON"], doc["SIZ"], doc["HP"]) == ("coc7", 70, 65, 13)
    seventh = api.convert(api.from_plain(doc), "coc7", trace=False).document
    assert (seventh.CON, seventh.SIZ, seventh.HP, seventh.skills["Fighting (Brawl)"]) == (70, 65, 13, 55)
    zh = api.convert(api.from_plain(doc), "coc-zh", trace=False).document
    assert (zh.CON, zh.SIZ, zh.HP) == (14, 13, 14)  # coc-zh's own rule on its own scale: ceil((14 + 13) / 2)


@pytest.mark.parametrize("line, name, count", [
    ("Thugs (3): STR 13, CON 12, SIZ 14, DEX 11, POW 10, HP 13. Weapons: .38 Revolver 45%, damage 1D10; "
     "Fist/Punch 60%, damage 1D3+1D4.", "Thugs", "3"),
    ("Harbour Watchman: STR 12 CON 13 SIZ 14 DEX 10 INT 11 POW 9 HP 14. Skills: Spot Hidden 50%", "Harbour Watchman",
     None),
])
def test_a_scenario_s_one_line_npc_is_named_by_what_stands_before_its_colon(line, name, count):
    """A published scenario's minor NPC on one line, its name before a colon ('Thugs (3): STR 13 ...'): it had
    been an Unnamed NPC, the name said unread; a count of them is kept in the notes."""
    doc = load(line.encode())
    assert doc["name"] == name and doc["STR"] in (12, 13)
    report = doc["xsys"]["read"]
    assert not any(name in u for u in report.get("unread", []))
    if count:
        assert doc["notes"] == f"{count} of them (the block's '({count})')"
        assert any(f"{name} ({count}): one stat block for {count} of them" in a for a in report["assumed"])
    # a heading before its colon is no name
    assert load(b"Skills: STR 13 CON 12 SIZ 14 DEX 11 POW 10\n")["name"] != "Skills"


def test_an_attack_whose_bracket_names_a_cartridge_is_a_firearm():
    """'Guns 65%, Dmg 1d10 (.38 special)': no CoC skill and no firearm by its name, so it had been a close-combat
    attack named Guns; its cartridge says a firearm, of the class the catalog's weapons that fire it are (a .38
    Special a revolver), fired with that class's skill, the line named with its cartridge."""
    from xsys.core.registry import catalog

    assert catalog().class_of_cartridge(".38 Special") == "revolver"
    assert catalog().class_of_cartridge("no such cartridge") is None
    doc = load(b"Gangster\nSTR 13 CON 12 SIZ 14 DEX 12 INT 10 POW 10\n"
               b"Weapons: Guns 65%, Dmg 1d10 (.38 special), Fist/Punch 75%, Dmg 1d3\n")
    (w,) = doc["weapons"]
    assert (w["name"], w["skill"], w["damage"]) == ("Guns (.38 special)", "Handgun", "1d10")
    assert doc["skills"]["Handgun"] == 65 and "Guns" not in doc["skills"]
    assert [m["name"] for m in doc["melee"]] == ["Fist/Punch"]
    assert any("its bracket names the .38 Special cartridge: a revolver, fired with Handgun" in a
               for a in doc["xsys"]["read"]["assumed"])
