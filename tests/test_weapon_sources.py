"""One weapon is the same weapon from every source: a gun read from a neutral document, from any
system's own stat block or from a pasted text block has one line in each system (its catalog
weapon, else the cartridge its name states, else its class: core.catalog.Catalog.weapon_basis);
a capacity the source states wins over the catalog's and a disagreement is said; a revolver is
a revolver; a Polish weapon written as the Polish text writes it reads; nothing silently becomes
a handgun; a GURPS sheet has a melee table; a grenade is no gun."""

from __future__ import annotations

import re

from pathlib import Path

import pytest

from xsys.conversions import api
from xsys.core import codec
from xsys.core.catalog import says_revolver
from xsys.core.registry import catalog
from xsys.plugins.textblock.reader import load as read_text

ROOT = Path(__file__).resolve().parent.parent
TARGETS = ["coc", "coc7", "coc-zh", "gurps", "nwod", "pl-trudnosc"]
DAMAGE_FIELD = {"coc": "damage", "coc7": "damage", "coc-zh": "damage", "gurps": "damage", "nwod": "damage", "pl-trudnosc": "obrażenia"}
COC7_BODY = {"STR": 55, "CON": 55, "SIZ": 60, "DEX": 60, "APP": 50, "INT": 60, "POW": 50, "EDU": 60}
COC_BODY = {"STR": 11, "CON": 11, "SIZ": 12, "DEX": 12, "APP": 10, "INT": 12, "POW": 10, "EDU": 12}
NWOD_BODY = {"Dexterity": 3, "Strength": 2, "Stamina": 2, "skills": {"Firearms": 2}}
PL_BODY = {"Motoryka": 3, "Percepcja": 3, "Atletyka": 3, "Odwaga": 3, "umiejętności": {"Broń krótka": 2}}


def _npc(system: str, weapon: dict) -> dict:
    """A stat block of `system` holding one weapon line, as that system writes it."""
    if system == "neutral":
        return {"system": "neutral", "kind": "npc", "name": "Holder", "characteristics": {"dexterity": 0.5},
                "skills": {"handgun": 0.5, "rifle": 0.5}, "weapons": [weapon]}
    if system == "coc":
        return {"system": "coc", "kind": "npc", "name": "Holder", **COC_BODY, "weapons": [weapon]}
    if system == "coc7":
        return {"system": "coc7", "kind": "npc", "name": "Holder", **COC7_BODY, "weapons": [weapon]}
    if system == "gurps":
        return {"system": "gurps", "kind": "npc", "name": "Holder", "weapons": [weapon]}
    if system == "nwod":
        return {"system": "nwod", "kind": "npc", "name": "Holder", **NWOD_BODY, "weapons": [weapon]}
    return {"system": "pl-trudnosc", "kind": "npc", "imię": "Holder", **PL_BODY, "broń": [weapon]}


def _text(lines: str) -> dict:
    doc = read_text(lines.encode())
    doc.pop("xsys", None)
    return doc


COC_TEXT = "Holder\nSTR 11 CON 11 SIZ 12 DEX 12 APP 10 INT 12 POW 10 EDU 12 HP 12\nWeapons: {}\n"
GURPS_TEXT = "Holder\nST 10, DX 12, IQ 10, HT 10\nSkills: Guns (Pistol)-12, Guns (Rifle)-12\nWeapons: {}\n"
NWOD_TEXT = ("Holder\nAttributes: Intelligence 2, Wits 2, Resolve 2, Strength 2, Dexterity 3, Stamina 2, Presence 2, "
             "Manipulation 2, Composure 2\nSkills: Firearms 2\nWeapons: {}\n")
PL_TEXT = "Holder\nMotoryka 3, Percepcja 3, Atletyka 3, Odwaga 3\nUmiejętności: Broń krótka 2\nBroń: {}\n"

# Each weapon from every source it can come from, each source writing it the way that source
# writes it (its own damage line, its own chart line). The class-only rifle states no damage:
# sources whose weapon lines always state one (a GURPS or nWoD line, a GURPS or nWoD text block)
# state their own line for it, which is their statement, so it has no row there.
M1911 = {"name": "Colt M1911A1", "weapon_class": "handgun", "muzzle_energy": "480 J"}
SOURCES: dict[str, dict[str, dict]] = {
    "catalog M1911A1 by id": {
        "neutral": _npc("neutral", {**M1911, "catalog": "colt-m1911a1"}),
        "coc": _npc("coc", {"name": "Colt M1911A1", "catalog": "colt-m1911a1", "skill": "Handgun",
                            "damage": "1d10+2", "base_range": "15 m"}),
        "coc7": _npc("coc7", {"name": "Colt M1911A1", "catalog": "colt-m1911a1", "skill": "Firearms (Handgun)",
                              "damage": "1D10+2", "base_range": "15 yd"}),
        "gurps": _npc("gurps", {"name": "Colt M1911A1", "catalog": "colt-m1911a1", "skill": "Guns (Pistol)",
                                "damage": "2d", "Acc": 2}),
        "nwod": _npc("nwod", {"name": "Colt M1911A1", "catalog": "colt-m1911a1", "type": "Pistol, Hvy.",
                              "damage": 3, "ranges": ["30 yd", "60 yd", "120 yd"]}),
        "pl-trudnosc": _npc("pl-trudnosc", {"nazwa": "Colt M1911A1", "rodzaj": "krótka", "katalog": "colt-m1911a1"}),
        "coc text": _text(COC_TEXT.format("Pistol [catalog: colt-m1911a1] 50%, damage 1D10+2")),
    },
    "catalog M1911A1 by its printed name": {
        "neutral": _npc("neutral", M1911),
        "coc": _npc("coc", {"name": "Colt M1911A1", "skill": "Handgun", "damage": "1d10+2", "base_range": "15 m"}),
        "coc7": _npc("coc7", {"name": "Colt M1911A1", "skill": "Firearms (Handgun)", "damage": "1D10+2",
                              "base_range": "15 yd"}),
        "gurps": _npc("gurps", {"name": "Colt M1911A1", "skill": "Guns (Pistol)", "damage": "2d", "Acc": 2}),
        "nwod": _npc("nwod", {"name": "Colt M1911A1", "type": "Pistol, Hvy.", "damage": 3,
                              "ranges": ["30 yd", "60 yd", "120 yd"]}),
        "pl-trudnosc": _npc("pl-trudnosc", {"nazwa": "Colt M1911A1", "rodzaj": "krótka"}),
        "coc text": _text(COC_TEXT.format("Colt M1911A1 50%, damage 1D10+2")),
        "gurps text": _text(GURPS_TEXT.format("Colt M1911A1 (2d, Acc 2, SS 10, RoF 3~, Shots 7, ST 10)")),
        "nwod text": _text(NWOD_TEXT.format("Colt M1911A1 (Damage 3, Ranges 30/60/120, Clip 7+1, Strength 3, "
                                            "Size 1)")),
        "pl text": _text(PL_TEXT.format("Colt M1911A1 (krótka)")),
    },
    "a name stating its cartridge": {
        "neutral": _npc("neutral", {"name": ".38 Revolver", "weapon_class": "revolver", "muzzle_energy": "600 J"}),
        "coc": _npc("coc", {"name": ".38 Revolver", "skill": "Handgun", "damage": "1d10", "base_range": "15 m"}),
        "coc7": _npc("coc7", {"name": ".38 Revolver", "skill": "Firearms (Handgun)", "damage": "1D10",
                              "base_range": "15 yd"}),
        "gurps": _npc("gurps", {"name": ".38 Revolver", "skill": "Guns (Pistol)", "damage": "2d-1", "Acc": 2}),
        "nwod": _npc("nwod", {"name": ".38 Revolver", "type": "Revolver, Lt.", "damage": 2,
                              "ranges": ["20 yd", "40 yd", "80 yd"], "clip": 6}),
        "pl-trudnosc": _npc("pl-trudnosc", {"nazwa": ".38 Revolver", "rodzaj": "krótka", "obrażenia": 3}),
        "coc text": _text(COC_TEXT.format(".38 Revolver 30%, damage 1D10, range 15 yd")),
        "gurps text": _text(GURPS_TEXT.format(".38 Revolver (2d-1, Acc 2, SS 10, RoF 3~, Shots 6, ST 8)")),
        "nwod text": _text(NWOD_TEXT.format(".38 Revolver (Damage 2, Ranges 20/40/80, Clip 6, Strength 2, Size 1)")),
        "pl text": _text(PL_TEXT.format(".38 Revolver (krótka, obrażenia 3)")),
    },
    "a class-only name": {
        "neutral": _npc("neutral", {"name": "Hunting rifle", "weapon_class": "rifle", "muzzle_energy": "3300 J"}),
        "coc": _npc("coc", {"name": "Hunting rifle", "skill": "Rifle", "damage": "2d6+4", "base_range": "110 m",
                            "muzzle_energy": "3300 J"}),
        "pl-trudnosc": _npc("pl-trudnosc", {"nazwa": "Hunting rifle", "rodzaj": "długa"}),
        "coc text": _text(COC_TEXT.format("Hunting rifle 50%")),
        "pl text": _text(PL_TEXT.format("Hunting rifle (długa)")),
    },
}
# what each weapon's line is in each system: the catalog M1911A1 and a named .38 Special by
# their cartridges (.45 ACP, .38 Special: coc tables.toml [cartridge], gurps weapons.toml
# [cartridge], nwod tables.toml [cartridge], the Polish points of the reference energies), the
# hunting rifle as the generic rifle's 3300 J; coc7 by the 7th-edition table's row of the
# cartridge (coc7 tables.toml [weapon.*]: the M1911's 1D10+2, the Model 10's 1D10)
LINES = {
    "catalog M1911A1 by id": {"coc": "1d10+2", "coc7": "1D10+2", "coc-zh": "1d10+2", "gurps": "2d", "nwod": 3, "pl-trudnosc": 4},
    "catalog M1911A1 by its printed name": {"coc": "1d10+2", "coc7": "1D10+2", "coc-zh": "1d10+2", "gurps": "2d", "nwod": 3,
                                            "pl-trudnosc": 4},
    "a name stating its cartridge": {"coc": "1d10", "coc7": "1D10", "coc-zh": "1d10", "gurps": "2d-1", "nwod": 2, "pl-trudnosc": 3},
    "a class-only name": {"coc": "2d6+4", "coc7": "2D6+4", "coc-zh": "2d6+4", "gurps": "7d", "nwod": 5, "pl-trudnosc": 9},
}
CASES = [(w, src) for w, paths in SOURCES.items() for src in paths]


def _line(doc: dict, to: str):
    out = codec.to_builtins(api.convert(api.from_plain(doc), to, fresh=True, trace=False).document)
    (w,) = out.get("weapons", out.get("broń"))
    return w.get(DAMAGE_FIELD[to])


@pytest.mark.parametrize("weapon,source", CASES, ids=[f"{w}|{s}" for w, s in CASES])
def test_one_weapon_has_one_line_in_each_system_from_every_source(weapon, source):
    """The M1911A1 was GURPS 2d from a coc stat block and 2d+2 from the neutral one (CoC 1d10+2
    and 1d10); a '.38 Revolver' from a text block was GURPS 2d+1, more than the catalog .38
    Special (2d-1) and the .45 (2d)."""
    doc = SOURCES[weapon][source]
    got = {to: _line(doc, to) for to in TARGETS}
    want = dict(LINES[weapon])
    if doc["system"] == "pl-trudnosc" and "obrażenia" not in doc["broń"][0]:
        want["pl-trudnosc"] = None  # a Polish stat block's own weapon comes back as it wrote it
    assert got == want


def test_the_trace_says_what_decided_the_line():
    conv = api.convert(api.from_plain(SOURCES["a name stating its cartridge"]["coc text"]), "nwod", fresh=True)
    said = [t.render() for t in conv.trace if t.path == "$.weapons[0]" and "damage" in t.render()]
    assert any("damage by .38 Special, the cartridge its name states" in x for x in said), said
    conv = api.convert(api.from_plain(SOURCES["catalog M1911A1 by its printed name"]["neutral"]), "coc", fresh=True)
    said = [t.render() for t in conv.trace if t.path == "$.weapons[0]"]
    assert any("damage by catalog weapon colt-m1911a1, .45 ACP" in x for x in said), said
    conv = api.convert(api.from_plain(SOURCES["a class-only name"]["neutral"]), "gurps", fresh=True)
    said = [x.message for x in conv.losses if x.path == "$.weapons[0]"]
    assert any("damage at its own 3300 J: no catalog weapon or cartridge says more" in x for x in said), said


def test_a_gurps_line_that_is_not_its_weapons_says_so():
    """A GURPS line whose own damage is not its catalog weapon's line is a warning (the sheet
    written again does the weapon's line)."""
    doc = _npc("gurps", {"name": "Colt M1911A1", "skill": "Guns (Pistol)", "damage": "2d+2", "Acc": 2})
    conv = api.convert(api.from_plain(doc), "coc", fresh=True, trace=False)
    said = [x for x in conv.losses if x.path == "$.weapons[0].damage" and x.kind == "merged"]
    assert said and "catalog weapon colt-m1911a1 (.45 ACP), whose damage is 2d;" in said[0].message


# ---- capacity -------------------------------------------------------------------------------

GLOCK = GURPS_TEXT.format("Glock 17 (2d+2, Acc 2, SS 10, RoF 3~, {}ST 8)")


def _capacity(doc: dict, to: str) -> int:
    out = codec.to_builtins(api.convert(api.from_plain(doc), to, trace=False).document)
    (w,) = out["weapons"]
    return {"coc": "capacity", "gurps": "Shots", "nwod": "clip"}[to], w.get(
        {"coc": "capacity", "gurps": "Shots", "nwod": "clip"}[to], 0)


@pytest.mark.parametrize("to", ["coc", "gurps", "nwod"])
def test_a_catalog_gun_from_a_text_block_has_its_catalogs_capacity(to):
    """'Glock 17 (2d+2, Acc 2 ...)' with no Shots: the GURPS sheet said Shots 0 while the CoC
    sheet from the same block said 17."""
    assert _capacity(_text(GLOCK.format("")), to)[1] == 17


@pytest.mark.parametrize("to", ["coc", "gurps", "nwod"])
def test_a_stated_capacity_wins_over_the_catalog_and_is_said(to):
    """'Shots 30' was replaced by the catalog's 17 with no loss line."""
    doc = _text(GLOCK.format("Shots 30, "))
    conv = api.convert(api.from_plain(doc), to, trace=False)
    assert _capacity(doc, to)[1] == 30
    # (the line a system writes for the gun names its table row, [weapon.glock-17]: another line)
    said = [(x.path, x.kind, x.message) for x in conv.losses if "glock-17" in x.message
            and not re.match(r"Glock 17: [\w -]*line \(", x.message)]
    assert said == [("$.weapons[0].Shots", "assumed", "Glock 17: the line states Shots 30; catalog weapon glock-17 "
                     "holds 17: the stated 30 is kept")], [x.render() for x in conv.losses]


# ---- a revolver is a revolver ----------------------------------------------------------------

@pytest.mark.parametrize("name", ["S&W M36リボルバー", ".38 Revolver", "Revolver .38", "Nagant revolver",
                                  "Rewolwer Nagant", "左輪手槍", "左轮手枪", "revólver Taurus"])
def test_a_name_with_a_revolver_word_says_revolver(name):
    assert says_revolver(name)
    assert catalog().identify_weapon(name) == (None, "revolver")


@pytest.mark.parametrize("name", ["Glock 17", "Revolverheld", "Colt", "hunting rifle"])
def test_a_name_without_one_does_not(name):
    assert not says_revolver(name)


def test_the_new_nambu_revolver_is_written_as_nwods_revolver_line():
    """'ニューナンブM60リボルバー' (a five-shot revolver) became nWoD 'Pistol, Lt.', clip 17 with a round
    in the chamber; then an uncatalogued revolver of six; it is the catalog's New Nambu M60 now,
    five rounds of .38 Special in every system."""
    doc = read_text((ROOT / "fixtures" / "text" / "tanaka-coc-ja.txt").read_bytes())
    doc.pop("xsys", None)
    (w,) = codec.to_builtins(api.convert(api.from_plain(doc), "nwod", fresh=True, trace=False).document)["weapons"]
    assert (w["type"], w["clip"], w.get("chamber", False), w["catalog"]) == ("Revolver, Lt.", 5, False, "new-nambu-m60")
    neutral = api.convert(api.from_plain(doc), "neutral", fresh=True, trace=False).document
    assert neutral.weapons[0].weapon_class == "revolver"
    coc = codec.to_builtins(api.convert(api.from_plain(doc), "coc", trace=False).document)["weapons"][0]
    assert coc["capacity"] == 5


# ---- Polish weapons ----------------------------------------------------------------------------

def test_a_polish_weapon_as_the_text_writes_it_reads_with_its_class_damage():
    """'nazwa' and 'rodzaj' only (the text gives no base damage) was refused: 'a weapon needs
    obrażenia or a catalog weapon'."""
    doc = _npc("pl-trudnosc", {"nazwa": "Karabin myśliwski", "rodzaj": "długa"})
    conv = api.convert(api.from_plain(doc), "neutral", fresh=True, trace=False)
    (w,) = conv.document.weapons
    assert (w.weapon_class, float(w.muzzle_energy)) == ("rifle", 3300.0)
    said = [x for x in conv.losses if x.path == "$.broń[0].obrażenia"]
    assert said and said[0].kind == "assumed" and "9 points" in said[0].message and said[0].rule == "pl.damage"
    # its own document comes back as it was written (no points added to it)
    back = codec.to_builtins(api.convert(api.from_plain(doc), "pl-trudnosc", fresh=True, trace=False).document)
    assert back["broń"] == [{"nazwa": "Karabin myśliwski", "rodzaj": "długa"}]


def test_catalog_weapons_on_a_polish_sheet_show_their_points():
    conv = api.convert(ROOT / "fixtures" / "gurps" / "npcs" / "investigator.yaml", "pl-trudnosc", fresh=True,
                       trace=False)
    assert codec.to_builtins(conv.document)["broń"] == [{"nazwa": "Colt M1911A1", "rodzaj": "krótka", "obrażenia": 4}]


# ---- nothing silently becomes a handgun -----------------------------------------------------------

def _warnings_at(conv, path):
    return [x for x in conv.losses if x.path == path and x.level == "warning"]


def test_a_gurps_line_with_no_skill_is_what_its_name_says_never_a_silent_pistol():
    weapons = [{"name": "Hunting rifle", "damage": "7d", "Acc": 10}, {"name": "Blaster", "damage": "3d", "Acc": 1},
               {"name": "Glock 17", "damage": "2d+2", "Acc": 2}, {"name": "Machete", "damage": "1d+2", "type": "cut"}]
    doc = {"system": "gurps", "kind": "npc", "name": "Holder", "weapons": weapons}
    conv = api.convert(api.from_plain(doc), "neutral", fresh=True, trace=False)
    n = conv.document
    assert [(w.name, w.weapon_class, w.catalog) for w in n.weapons] == [
        ("Hunting rifle", "rifle", None), ("Blaster", "handgun", None), ("Glock 17", "handgun", "glock-17")]
    assert [(m.name, m.melee_class) for m in n.melee] == [("Machete", "sword")]
    said = _warnings_at(conv, "$.weapons[1].skill")
    assert said and "'Blaster' states no skill" in said[0].message and "handgun by its Acc 1" in said[0].message
    assert not _warnings_at(conv, "$.weapons[0].skill") and not _warnings_at(conv, "$.weapons[2].skill")


def test_an_nwod_line_with_no_type_is_what_its_name_says_or_a_warning():
    weapons = [{"name": "Zip gun", "damage": 1, "ranges": ["10 yd", "20 yd", "40 yd"]},
               {"name": "Hunting rifle", "damage": 5, "ranges": ["200 yd", "400 yd", "800 yd"], "size": 3}]
    doc = {"system": "nwod", "kind": "npc", "name": "Holder", **NWOD_BODY, "weapons": weapons}
    conv = api.convert(api.from_plain(doc), "neutral", fresh=True, trace=False)
    assert [w.weapon_class for w in conv.document.weapons] == ["handgun", "rifle"]
    said = _warnings_at(conv, "$.weapons[0].type")
    assert said and "'Zip gun' names no chart line and its name says no weapon or class" in said[0].message
    assert not _warnings_at(conv, "$.weapons[1].type")


def test_a_gurps_text_block_gun_of_no_known_name_is_a_warning_not_guns_pistol():
    doc = _text(GURPS_TEXT.format("Blaster (3d, Acc 1, SS 10, RoF 3~, Shots 6)"))
    assert "skill" not in doc["weapons"][0]
    conv = api.convert(api.from_plain(doc), "coc", fresh=True, trace=False)
    assert _warnings_at(conv, "$.weapons[0].skill")


# ---- melee weapons on a GURPS sheet ---------------------------------------------------------------

def test_melee_weapons_sit_in_a_gurps_sheets_melee_table():
    """The dock brute's fists and cargo hook were GURPS weapon lines (Acc 0, RoF 1, Shots 0)."""
    conv = api.convert(ROOT / "fixtures" / "coc" / "npcs" / "dock_brute.yaml", "gurps", fresh=True, trace=False)
    doc = codec.to_builtins(conv.document)
    assert [w["name"] for w in doc["weapons"]] == ["Colt Police Positive (.38 Special)"]
    # ST 15: thrust 1d+1, swing 2d+1; Brawling 13 parries 8 (two thirds), Axe/Mace 12 parries 6 (half)
    assert doc["melee"] == [
        {"name": "Fists", "skill": "Brawling", "damage": "thr-2", "dice": "1d-1", "reach": "C", "parry": 8},
        {"name": "Cargo hook", "skill": "Axe/Mace", "damage": "sw+1", "dice": "2d+2", "reach": "1", "parry": 6}]
    from xsys.conversions.markdown import render

    text = render(conv)
    assert "| name | damage | dice | type | reach | parry | skill |" in text
    assert "| Fists | thr-2 | 1d-1 | cr | C | 8 | Brawling |" in text
    assert "*reach*: hexes the weapon reaches" in text


def test_a_gurps_stat_blocks_own_melee_table_comes_back_as_written():
    src = {"system": "gurps", "kind": "npc", "name": "Thug", "ST": 12, "skills": {"Knife": 12}, "melee": [
        {"name": "Switchblade", "skill": "Knife", "damage": "1d-2", "type": "cut", "reach": "C,1", "parry": 5}]}
    mid = codec.to_builtins(api.convert(api.from_plain(src), "coc", fresh=True, trace=False).document)
    back = codec.to_builtins(api.convert(api.from_plain(mid), "gurps", fresh=True, trace=False).document)
    assert back["melee"] == src["melee"] and not back.get("weapons")
    # a stat block that lists its knife among its weapons (older documents, text blocks) is read
    # the same way, and written in the melee table
    old = {**src, "melee": [], "weapons": [{"name": "Switchblade", "skill": "Knife", "damage": "1d-2", "type": "cut"}]}
    back = codec.to_builtins(api.convert(api.from_plain(old), "gurps", fresh=True, trace=False).document)
    assert back["melee"] == [{"name": "Switchblade", "skill": "Knife", "damage": "1d-2", "type": "cut"}]
    assert not back.get("weapons")


# ---- a grenade is not a gun ------------------------------------------------------------------------

def test_a_grenade_converts_as_a_thrown_weapon_and_its_blast_is_said():
    """The F-1 of the night assault was a CoC single-target bullet with iron sights."""
    src = ROOT / "fixtures" / "pl-trudnosc" / "scenarios" / "nocny_szturm.yaml"
    conv = api.convert(src, "coc", fresh=True, trace=False)
    doc = codec.to_builtins(conv.document)
    grenade = next(w for w in doc["scenes"][0]["combatants"][1]["weapons"] if w["name"] == "Granat obronny F-1")
    assert (grenade["skill"], grenade["ammo"], grenade["sights"], grenade["capacity"]) == ("Throw", "none", "none", 1)
    # the weapon table's hand grenade (coc tables.toml [grenade]); its 6 points are a grenade's
    # one energy (xsys.grenade), which the table line says: no energy of its own on the line
    assert grenade["damage"] == "4d10" and "muzzle_energy" not in grenade
    shot = doc["scenes"][0]["shots"][2]
    assert shot["skill"] == "Throw" and "sights" not in shot
    blast = [x for x in conv.losses if "blast" in x.message and x.rule == "pl.grenade"]
    assert {x.path for x in blast} == {"$.scenes[0].combatants[1].broń[1]", "$.scenes[0].shots[2].broń"}
    assert all(x.level == "warning" and x.rule == "pl.grenade" and "did not cross" in x.message for x in blast)
    for to, field, want in (("gurps", "skill", "Throwing"), ("nwod", "type", "Thrown")):
        out = codec.to_builtins(api.convert(src, to, fresh=True, trace=False).document)
        line = next(w for w in out["scenes"][0]["combatants"][1]["weapons"] if w["name"] == "Granat obronny F-1")
        assert line[field] == want
    back = codec.to_builtins(api.convert(api.from_plain(doc), "pl-trudnosc", fresh=True, trace=False).document)
    assert back["scenes"][0]["shots"][2]["broń"] == {"nazwa": "Granat obronny F-1", "rodzaj": "rzucana",
                                                     "obrażenia": 6}


def test_a_grenade_written_by_its_table_line_is_one_weapon_from_every_sheet(tmp_path):
    """xsys.grenade (assumed): a hand grenade a GM writes only by the CoC table's line (6th
    edition's '4D10', 7th's '4D10/3 yards') is a grenade's one energy, 1300 J, like the Polish F-1's
    6 points: GURPS 4d+1 and nWoD Damage 3 from every source. It was a thrown stone's 50 J from a
    6th-edition block (GURPS 1d-1, nWoD Damage 0), and the 7th-edition line was not read at all."""
    blocks = {
        "6e": "Private Hollis\nSTR 12 CON 13 SIZ 12 DEX 11 APP 10 INT 11 POW 10 EDU 10 HP 13\n"
              "Skills: Rifle 55%, Throw 50%, Dodge 30%\n"
              "Weapons: Hand grenade 50%, damage 4D10, base range 10 m, skill Throw\n",
        "7e": "Private Hollis\nSTR 60 CON 65 SIZ 60 DEX 55 APP 50 INT 55 POW 50 EDU 50 HP 12\n"
              "Skills: Firearms (Rifle/Shotgun) 55%, Throw 50%, Dodge 30%\n"
              "Weapons: Hand grenade 50%, damage 4D10/3 yards, base range 20 yd, skill Throw, uses per round 1/2\n",
    }
    polish = ROOT / "fixtures" / "pl-trudnosc" / "npcs" / "sierzant_kowalski.yaml"
    want = {"gurps": ("Granat obronny F-1", "damage", "4d+1"), "nwod": ("Granat obronny F-1", "damage", 3)}
    for to, (name, field, value) in want.items():
        line = next(w for w in codec.to_builtins(api.convert(polish, to, fresh=True, trace=False).document)["weapons"]
                    if w["name"] == name)
        assert line[field] == value, (to, line)
    for edition, text in blocks.items():
        path = tmp_path / f"hollis-{edition}.txt"
        path.write_text(text, encoding="utf-8")
        for to, (_, field, value) in want.items():
            conv = api.convert(path, to, fresh=True, trace=False)
            (line,) = [w for w in codec.to_builtins(conv.document)["weapons"] if w["name"] == "Hand grenade"]
            assert line[field] == value, (edition, to, line)
            assert not [x for x in conv.losses if x.rule == "text.unread"], (edition, to)
            assert any(x.rule == "xsys.grenade" and "did not cross" in x.message for x in conv.losses), (edition, to)


def test_a_thrown_line_in_a_text_block_says_what_a_gm_writes(tmp_path):
    """A thrown weapon's text line prints no 'sights none, ammo none' (the reader takes a Throw
    line as aimed by eye and firing nothing) and a table grenade no 'muzzle energy'; the 7th
    edition's prints the table's '4D10/3 yards'. Each reads back as the document it came from."""
    src = ROOT / "fixtures" / "pl-trudnosc" / "npcs" / "sierzant_kowalski.yaml"
    for to, want in (("coc", "Granat obronny F-1 72%, damage 4D10, base range 10 m, skill Throw, capacity 1, STR 5"),
                     ("coc7", "Granat obronny F-1 72%, damage 4D10/3 yards, base range 14 yd, skill Throw, "
                              "uses per round 1/2, capacity 1, malfunction 99")):
        conv = api.convert(src, to, fresh=True, trace=False)
        text = (tmp_path / f"k-{to}.txt")
        from xsys.conversions.convert import dump

        text.write_bytes(dump(conv, "text"))
        line = next(x for x in text.read_text(encoding="utf-8").splitlines() if x.startswith("Weapons:"))
        assert line.split("; ")[1] == want, line
        back = api.convert(text, to, fresh=True, trace=False).document
        nade = lambda doc: next(w for w in codec.to_builtins(doc)["weapons"] if w["name"] == "Granat obronny F-1")  # noqa: E731
        assert nade(back) == nade(conv.document)


def test_one_cartridge_one_line_in_both_call_of_cthulhu_editions():
    """Both editions print one weapon table (coc7.conversion.6e): a cartridge the 7th-edition
    table prints a line for has that line in 6th edition too. A .455 Webley was 1d10 in coc
    (its 310 J on the ladder) beside 7th edition's 1D10+2, so a 7e block's 'Webley Mk VI revolver,
    damage 1D10+2' became a coc 1d10 while Inspector Chen's coc-zh Webley kept 1d10+2 and was
    warned 'not that weapon's'; the .357 Magnum, 7.62x39 mm and .30-30 the same."""
    from xsys.core.vocab import CARTRIDGES
    from xsys.plugins.coc import rules as coc_rules
    from xsys.plugins.coc7.rules import cartridge_lines

    coc = api.system_for("coc")
    sixth = coc.tables().get("cartridge", {})
    for cartridge, line in cartridge_lines().items():
        if cartridge == "12 gauge" or cartridge not in CARTRIDGES:
            continue
        have = sixth.get(cartridge, {}).get("damage") or coc_rules._tables_ladders()["damage"].step_for(
            CARTRIDGES[cartridge][0]).label
        assert have.upper() == line.upper(), (cartridge, have, line)
    chen = api.convert(ROOT / "fixtures" / "coc-zh" / "npcs" / "inspector_chen.yaml", "coc", fresh=True, trace=False)
    assert next(w for w in chen.document.weapons if w.catalog == "webley-mk-vi").damage == "1d10+2"
    assert not [x for x in chen.losses if "not that weapon's" in x.message]
    byline = api.convert(ROOT / "fixtures" / "corpus" / "text-coc" / "en7-byline.txt", "coc", fresh=True, trace=False)
    assert next(w for w in byline.document.weapons if w.catalog == "webley-mk-vi").damage == "1d10+2"


@pytest.mark.parametrize("name, cls, chart", [(".38 Automatic", "handgun", "Pistol, Lt."),
                                              (".38 Auto pistol", "handgun", "Pistol, Lt."),
                                              (".38 Revolver", "revolver", "Revolver, Lt."),
                                              ("Colt Police Positive (.38 Special)", "revolver", "Revolver, Lt.")])
def test_a_38_automatic_is_no_revolver(name, cls, chart):
    """A bare '.38' is the revolver cartridge (.38 Special), but a '.38 Automatic' (the 7th-edition
    table's automatic pistol, the .38 ACP) is an automatic: it was every system's revolver (nWoD
    'Revolver, Lt.' with 8 in the cylinder and none chambered)."""
    from xsys.core.vocab import cartridge_in_name

    doc = {"system": "coc7", "kind": "npc", "name": "Agnes", "STR": 50, "CON": 50, "SIZ": 50, "DEX": 50, "APP": 50,
           "INT": 50, "POW": 50, "EDU": 50, "skills": {"Firearms (Handgun)": 40},
           "weapons": [{"name": name, "skill": "Firearms (Handgun)", "damage": "1D10", "base_range": "15 yd",
                        "uses_per_round": "1 (3)", "capacity": 8, "malfunction": 99}]}
    neutral = api.convert(api.from_plain(doc), "neutral", trace=False).document
    assert neutral.weapons[0].weapon_class == cls
    assert (cartridge_in_name(name) == ".38 ACP") == (cls == "handgun")
    (w,) = codec.to_builtins(api.convert(api.from_plain(doc), "nwod", fresh=True, trace=False).document)["weapons"]
    assert (w["type"], w["clip"], w.get("chamber", False)) == (chart, 8, cls == "handgun")


@pytest.mark.parametrize("name, cls", [("Automatic pistol (.38 Special)", "handgun"),
                                       ("Webley .455 automatic pistol", "handgun"),
                                       (".455 Webley Self-Loading Pistol", "handgun"),
                                       ("Coonan .357 Magnum automatic", "handgun"), (".38 Super", "handgun"),
                                       ("Webley-Fosbery automatic revolver", "revolver"),
                                       ("Police special (.38 Special)", "revolver")])
def test_a_name_that_says_automatic_is_no_revolver_whatever_it_fires(name, cls):
    """A handgun named for a revolver cartridge is a revolver unless its name says it is an
    automatic (core.vocab.AUTOMATIC_WORDS); a name with a revolver word stays a revolver. One answer
    in every system: the neutral class, and nWoD's chart line (which asked the cartridge again)."""
    assert catalog().weapon_class_named(name, "handgun") == cls
    doc = {"system": "coc", "kind": "npc", "name": "Carrier", "STR": 10, "CON": 10, "SIZ": 13, "DEX": 10, "APP": 10,
           "INT": 13, "POW": 10, "EDU": 13, "skills": {"Handgun": 40},
           "weapons": [{"name": name, "skill": "Handgun", "damage": "1d10", "base_range": "15 m"}]}
    assert api.convert(api.from_plain(doc), "neutral", trace=False).document.weapons[0].weapon_class == cls
    (w,) = codec.to_builtins(api.convert(api.from_plain(doc), "nwod", fresh=True, trace=False).document)["weapons"]
    assert w["type"].startswith("Revolver") == (cls == "revolver"), w


@pytest.mark.parametrize("name, entry", [("Colt M1911A1 (.45 ACP)", "colt-m1911a1"), ("Glock 17 (9mm)", "glock-17"),
                                         ("Glock 17 9 mm", "glock-17"), ("Thompson M1928 (.45 ACP)", "thompson-m1928"),
                                         ("Mauser Kar98k (7.92x57mm)", "mauser-kar98k")])
def test_a_model_named_with_its_cartridge_is_the_catalog_model(name, entry):
    """A GM names a gun with the cartridge it fires ("Colt M1911A1 (.45 ACP)"): it is the catalog's
    model (it was a handgun of no catalog, rated by its cartridge alone)."""
    found = catalog().identify_weapon(name)[0]
    assert found is not None and found.id == entry


@pytest.mark.parametrize("name, cls, cartridge", [("Desert Eagle .357 Magnum", "handgun", ".357 Magnum"),
                                                  ("Colt Python .38", "revolver", ".38 Special")])
def test_a_model_in_another_chambering_fires_what_its_name_says(name, cls, cartridge):
    """A cartridge the name states is the gun's (a stated value wins over a catalog one): a 'Desert
    Eagle .357 Magnum' is no catalog Desert Eagle in .50 AE (it was, at 1900 J), but a handgun of
    the model's kind firing the .357 Magnum (not a revolver for its revolver cartridge); a 'Colt
    Python .38' a revolver firing the .38 Special."""
    assert catalog().identify_weapon(name)[0] is None
    assert catalog().weapon_class_named(name, "handgun") == cls
    doc = {"system": "coc", "kind": "npc", "name": "Carrier", "STR": 10, "CON": 10, "SIZ": 13, "DEX": 10, "APP": 10,
           "INT": 13, "POW": 10, "EDU": 13, "skills": {"Handgun": 40},
           "weapons": [{"name": name, "skill": "Handgun", "damage": "1d10", "base_range": "15 m"}]}
    (w,) = api.convert(api.from_plain(doc), "neutral", trace=False).document.weapons
    assert (w.weapon_class, w.catalog) == (cls, None)
    assert catalog().weapon_basis(w).cartridge == cartridge


@pytest.mark.parametrize("name, entry, cartridge", [
    ("BAR", "bar-m1918", ".30-06 Springfield"), ("Sten gun", "sten-mk2", "9x19mm"),
    ("Springfield 1903", "springfield-m1903", ".30-06 Springfield"), ("Beretta 92F (9mm)", "beretta-92fs", "9x19mm"),
    ("Mauser C96 (7.63mm)", "mauser-c96", "7.63x25mm Mauser"), ("Colt .45 Automatic", None, ".45 ACP"),
    (".32 Automatic", None, ".32 ACP"), (".25 Automatic", None, ".25 ACP"), (".380 Auto", None, ".380 ACP")])
def test_the_names_gms_write_for_common_guns(name, entry, cartridge):
    """The names Call of Cthulhu books and GMs write for common guns read as the catalog weapon
    (its aliases: "BAR", "Sten gun", "Springfield 1903") or as the cartridge they state
    (".32 Automatic", ".25 Automatic": the automatics' cartridges, core.vocab.CARTRIDGES)."""
    found = catalog().identify_weapon(name)[0]
    assert (found.id if found is not None else None) == entry
    doc = {"system": "coc", "kind": "npc", "name": "Carrier", "STR": 10, "CON": 10, "SIZ": 13, "DEX": 10, "APP": 10,
           "INT": 13, "POW": 10, "EDU": 13, "skills": {"Handgun": 40, "Rifle": 40, "SMG": 40},
           "weapons": [{"name": name, "skill": "Handgun" if entry is None or found.weapon_class == "handgun" else
                        {"rifle": "Rifle", "smg": "SMG", "mg": "Machine Gun"}[found.weapon_class],
                        "damage": "1d10", "base_range": "15 m"}]}
    (w,) = api.convert(api.from_plain(doc), "neutral", trace=False).document.weapons
    assert catalog().weapon_basis(w).cartridge == cartridge


@pytest.mark.parametrize("name, entry", [("Model P08 Luger", "luger-p08"), ("Glock 17 9mm Auto", "glock-17"),
                                         ("Mark I Lewis Gun", "lewis-gun"),
                                         ("Browning Auto Rifle M1918", "bar-m1918"),
                                         (".357 Magnum Revolver", None), (".44 Magnum Revolver", None),
                                         (".38 Automatic", None), (".45 Martini-Henry Rifle", None)])
def test_the_7th_edition_tables_names_read_as_their_guns(name, entry):
    """The 7th-edition weapon table's names: a model with its number among words of an action
    ("Glock 17 9mm Auto", "Model P08 Luger") is the catalog model (they were guns of no catalog);
    a cartridge and a kind (".357 Magnum Revolver") is no model, not the one catalog gun that
    fires it (the Colt Python)."""
    found = catalog().identify_weapon(name)[0]
    assert (found.id if found is not None else None) == entry


# (name, catalog entry): the CoC table's ".45 Revolver", a Peacemaker by its nickname and by its
# model's name with its cartridge, and a revolver of no catalog that states the .45 Colt
FORTY_FIVE_REVOLVERS = [(".45 Revolver", None), ("Colt Peacemaker .45", "colt-saa"),
                        ("Colt Single Action Army (.45 Colt)", "colt-saa"), (".45 Long Colt revolver", None)]


@pytest.mark.parametrize("name, entry", FORTY_FIVE_REVOLVERS)
def test_a_45_revolver_fires_the_45_colt_in_every_system(name, entry):
    """A '.45 Revolver' named no cartridge, so GURPS rated the energy CoC's 1d10+2 reads as (880 J,
    3d+2, a .44 Magnum's damage), and a Colt Single Action Army (.45 Colt) was a pistol (7th
    edition's malfunction 99, nWoD's Pistol line). The bare '.45' of a revolver is the .45 Colt
    (core.vocab.REVOLVER_BARE_CALIBRES), a revolver cartridge: one line in every system."""
    found = catalog().identify_weapon(name)[0]
    assert (found.id if found is not None else None) == entry
    doc = {"system": "coc", "kind": "npc", "name": "Deputy", "STR": 12, "CON": 12, "SIZ": 13, "DEX": 11, "APP": 10,
           "INT": 11, "POW": 10, "EDU": 10, "skills": {"Handgun": 45},
           "weapons": [{"name": name, "skill": "Handgun", "damage": "1d10+2", "base_range": "15 m"}]}
    (w,) = api.convert(api.from_plain(doc), "neutral", trace=False).document.weapons
    assert (w.weapon_class, catalog().weapon_basis(w).cartridge) == ("revolver", ".45 Colt")
    lines = {key: codec.to_builtins(api.convert(api.from_plain(doc), key, fresh=True, trace=False).document)
             for key in ("coc7", "gurps", "nwod")}
    seventh = lines["coc7"]["weapons"][0]
    # the 7e table's .45 Revolver: a revolver's malfunction 100 (the default, not written; an automatic's 99 is)
    assert (seventh["damage"], seventh.get("malfunction", 100), seventh["capacity"]) == ("1D10+2", 100, 6)
    # GURPS: the ladder at the .45 Colt's 560 J, one step over the 9 mm's 2d+2 (gurps.damage)
    assert lines["gurps"]["weapons"][0]["damage"] == "3d-1"
    assert (lines["nwod"]["weapons"][0]["type"], lines["nwod"]["weapons"][0]["damage"]) == ("Revolver, Hvy.", 3)


def test_colt_45_alone_names_no_catalog_gun():
    """'Colt .45' is the Peacemaker (.45 Colt) as much as the M1911A1 (.45 ACP): it names neither,
    and no cartridge (a bare '.45' outside a revolver's name); 'Colt .45 ACP' is the M1911A1."""
    from xsys.core.vocab import cartridge_in_name

    assert catalog().identify_weapon("Colt .45") == (None, None) and cartridge_in_name("Colt .45") is None
    assert catalog().identify_weapon("Colt .45 ACP")[0].id == "colt-m1911a1"
    assert cartridge_in_name("Thompson .45") is None and cartridge_in_name("Revolver .45") == ".45 Colt"


@pytest.mark.parametrize("name, chart", [("Service automatic (.45 ACP)", "Pistol, Hvy."),
                                         ("Service automatic (9mm)", "Pistol, Lt."),
                                         ("Police revolver (.357 Magnum)", "Revolver, Hvy."),
                                         ("Police revolver (.38 Special)", "Revolver, Lt.")])
def test_nwod_chart_line_of_a_handgun_is_its_cartridges(name, chart):
    """nwod.weapon.chart: the chart's light and heavy handgun lines are calibres, so a .45 ACP pistol
    of no catalog is the M1911A1's Pistol, Hvy. (it was Lt. by its own 480 J, beside the M1911's Hvy.)."""
    doc = {"system": "neutral", "kind": "npc", "name": "Carrier",
           "weapons": [{"name": name, "weapon_class": "revolver" if "revolver" in name else "handgun",
                        "muzzle_energy": "480 J"}]}
    (w,) = codec.to_builtins(api.convert(api.from_plain(doc), "nwod", fresh=True, trace=False).document)["weapons"]
    assert w["type"] == chart


@pytest.mark.parametrize("name, coc, gurps, energy", [
    ("20-gauge Shotgun (2B)", "2d6/1d6/1d3", "3d+1", 1700.0), ("16-gauge Shotgun (2B)", "2d6+2/1d6+1/1d4", "3d+2", 2100.0),
    ("12-gauge Shotgun (2B)", "4d6/2d6/1d6", "4d", 2400.0), ("10-gauge Shotgun (2B)", "4d6+2/2d6+1/1d8", "5d-1", 3500.0)])
def test_a_shotguns_stated_gauge_is_kept(name, coc, gurps, energy):
    """Every gauge was the 12 gauge (a shotgun of no catalog fired its class's cartridge): a 7th-
    edition 20-gauge shotgun (2D6/1D6/1D3) became 4d6/2d6/1d6 in coc, GURPS 4d and 2400 J, a
    stated value lost to a default. The gauges the CoC table prints are cartridges (core.vocab);
    each system has a line for it, and a trip back to 7th edition writes the table's line."""
    line = {"name": name, "skill": "Firearms (Rifle/Shotgun)", "damage": coc.upper(), "base_range": "10 yd",
            "uses_per_round": "1 or 2", "capacity": 2}
    doc = {"system": "coc7", "kind": "npc", "name": "Farmer", "STR": 60, "CON": 60, "SIZ": 60, "DEX": 50, "APP": 50,
           "INT": 50, "POW": 50, "EDU": 50, "skills": {"Firearms (Rifle/Shotgun)": 45}, "weapons": [line]}
    (w,) = api.convert(api.from_plain(doc), "neutral", trace=False).document.weapons
    assert (w.weapon_class, float(w.muzzle_energy)) == ("shotgun", energy)
    sixth = codec.to_builtins(api.convert(api.from_plain(doc), "coc", fresh=True, trace=False).document)
    assert sixth["weapons"][0]["damage"] == coc
    sheet = codec.to_builtins(api.convert(api.from_plain(doc), "gurps", fresh=True, trace=False).document)
    assert sheet["weapons"][0]["damage"] == gurps
    back = api.convert(api.from_plain(sheet), "coc7", fresh=True, trace=False).document
    assert back.weapons[0].damage == coc.upper()


@pytest.mark.parametrize("name, entry", [("9mm Luger P08", "luger-p08"), ("AK-47 or AKM", "ak-47"),
                                         ("Garand M1, M2 Rifle", "m1-garand"), ("Glock 17 or Beretta 92F", None),
                                         (".38 or 9mm Revolver", None)])
def test_the_7th_edition_tables_grouped_names_read_as_their_gun(name, entry):
    """The 7th-edition weapon table names a gun with a cartridge that shares a word with it ("9mm
    Luger P08": the 9mm Luger cartridge) or groups guns of one line ("AK-47 or AKM", "Garand M1, M2
    Rifle"): the one catalog gun the name says, where its parts name one and no other."""
    found, named = catalog().identify_weapon(name)
    assert (found.id if found is not None else None) == entry
    assert named is None or found is None


@pytest.mark.parametrize("name, dice, skill, energy, gurps", [
    (".22 Bolt-Action Rifle", "1D6+1", "Firearms (Rifle/Shotgun)", 140.0, "1d+1"),
    ("Galil Assault Rifle", "2D6", "Firearms (Rifle/Shotgun)", 1750.0, "5d"),
    ("SKS Carbine", "2D6+1", "Firearms (Rifle/Shotgun)", 2020.0, "5d"),
    ("FN Minimi", "2D6", "Firearms (Machine Gun)", 1750.0, "5d"),
    ("Flare Gun", "1D10+1D3", "Firearms (Handgun)", 880.0, "3d+2")])
def test_dice_no_ladder_row_prints_stand_for_what_the_table_means_by_them(name, dice, skill, energy, gurps):
    """A 7th-edition line of dice the damage ladder prints no row for (the table's 2D6 rifles, a .22
    rifle's 1D6+1) was a generic rifle of 3300 J: GURPS 7d for a .22. The dice now stand for the
    cartridges of the catalog guns the table prints them for (2D6: the 5.56 mm's 1750 J), else
    for the energy between the ladder rows whose mean damage brackets theirs; a .22 rifle's 1D6+1 is
    the long guns' ladder row of the .22 LR, 140 J)."""
    doc = {"system": "coc7", "kind": "npc", "name": "Armoury", "STR": 60, "CON": 60, "SIZ": 60, "DEX": 60, "APP": 50,
           "INT": 60, "POW": 50, "EDU": 60, "skills": {skill: 50},
           "weapons": [{"name": name, "skill": skill, "damage": dice, "base_range": "50 yd", "uses_per_round": "1",
                        "capacity": 5}]}
    (w,) = api.convert(api.from_plain(doc), "neutral", trace=False).document.weapons
    assert (w.catalog, round(float(w.muzzle_energy))) == (None, energy)
    sheet = codec.to_builtins(api.convert(api.from_plain(doc), "gurps", fresh=True, trace=False).document)
    assert sheet["weapons"][0]["damage"] == gurps


@pytest.mark.parametrize("via", ["gurps", "nwod", "pl-trudnosc", "coc"])
def test_a_rifle_comes_back_with_a_rifles_dice(via):
    """The weapon table prints long guns as a family apart: a 5.56 mm rifle (1750 J) is 2D6 where
    a .44 Magnum revolver (1320 J) is 1D10+1D4+2. With one damage ladder, an uncatalogued M16A2
    sent to GURPS (5d), nWoD or the Polish sheet and back with --fresh came back 1D10+1D4+2; a
    rifle's dice now come off the long guns' ladder (coc7.damage, assumed), and a .22 rifle is the
    table's 1D6+1 beside a .22 pistol's 1D6."""
    lines = [("M16A2", "Firearms (Rifle/Shotgun)", "2D6"), ("FN Minimi", "Firearms (Machine Gun)", "2D6"),
             ("Garand M1, M2 Rifle", "Firearms (Rifle/Shotgun)", "2D6+4"), (".22 Short Automatic", "Firearms (Handgun)", "1D6"),
             (".22 Bolt-Action Rifle", "Firearms (Rifle/Shotgun)", "1D6+1"), (".44 Magnum Revolver", "Firearms (Handgun)", "1D10+1D4+2")]
    doc = {"system": "coc7", "kind": "npc", "name": "Armoury", "STR": 60, "CON": 60, "SIZ": 60, "DEX": 60, "APP": 50,
           "INT": 60, "POW": 50, "EDU": 60, "skills": {"Firearms (Handgun)": 50, "Firearms (Rifle/Shotgun)": 50},
           "weapons": [{"name": n, "skill": sk, "damage": d, "base_range": "50 yd", "uses_per_round": "1",
                        "capacity": 5} for n, sk, d in lines]}
    there = codec.to_builtins(api.convert(api.from_plain(doc), via, fresh=True, trace=False).document)
    back = codec.to_builtins(api.convert(api.from_plain(there), "coc7", fresh=True, trace=False).document)
    if via in ("pl-trudnosc", "nwod"):  # their scales hold the .22 with other small calibres
        lines = [line for line in lines if not line[0].startswith(".22")]
    got = {w["name"]: w["damage"] for w in back["weapons"]}
    assert {n: got[n] for n, _, _ in lines} == {n: d for n, _, d in lines}


@pytest.mark.parametrize("entry, seventh, sixth", [("desert-eagle-50ae", "1D10+1D6+3", "1d10+1d6+3"),
                                                   ("barrett-m82", "2D10+1D8+6", "2d10+1d8+6"),
                                                   ("aks-74u", "2D6+1", "2d6+1")])
def test_catalog_guns_have_the_lines_the_7th_edition_table_prints(entry, seventh, sixth):
    """The 7th-edition table prints the Desert Eagle 1D10+1D6+3, the Barrett 2D10+1D8+6 and the
    AK-74 2D6+1, which the damage ladder at their energies does not (1D10+1D4+2, 2D10+4): a GURPS
    sheet's Desert Eagle came to 7th edition as 1D10+1D4+2. Both editions print one table."""
    doc = {"system": "neutral", "kind": "npc", "name": "Carrier",
           "weapons": [{"name": catalog().weapons[entry].name, "catalog": entry,
                        "weapon_class": catalog().weapons[entry].weapon_class,
                        "muzzle_energy": f"{float(catalog().weapons[entry].muzzle_energy):g} J"}]}
    for system, line in (("coc7", seventh), ("coc", sixth)):
        (w,) = codec.to_builtins(api.convert(api.from_plain(doc), system, fresh=True, trace=False).document)["weapons"]
        assert w["damage"] == line, system


@pytest.mark.parametrize("name, entry, cartridge", [
    ("Uzi 9mm", "uzi", "9x19mm"), ("Remington 870 12G", "remington-870", "12 gauge"), ("Shotgun, 20G", None, "20 gauge"),
    ("M16", "m16a1", None), ("Thompson M1A1", "thompson-m1928", None), ("Colt Government .45", "colt-m1911a1", None),
    ("SMLE", "lee-enfield-no4", None), (".44 Magnum", None, ".44 Magnum"), (".50 AE", None, ".50 AE"),
    ("7.62x25mm", None, "7.62x25mm Tokarev")])
def test_the_names_gurps_and_gms_write_read_as_their_gun_or_cartridge(name, entry, cartridge):
    """GURPS writes a gauge as '12G'; GMs name an Uzi with its cartridge, an M16 without its variant,
    the M1911 as the Colt Government. A cartridge's name alone ('.44 Magnum') is no catalog gun,
    even where one catalog gun fires it (it read as the S&W Model 29)."""
    from xsys.core.vocab import cartridge_in_name

    found = catalog().identify_weapon(name)[0]
    assert (found.id if found is not None else None) == entry
    assert cartridge_in_name(name) == cartridge


@pytest.mark.parametrize("name, entry", [("TT-33", "tokarev-tt33"), ("Tokarev", "tokarev-tt33"),
                                         ("Nambu", "nambu-type-14"), ("南部十四年式拳銃", "nambu-type-14"),
                                         ("Type 14", "nambu-type-14"), ("Type 94 Nambu", None)])
def test_ww2_handguns_of_the_catalog(name, entry):
    """The Tokarev TT-33 and the Nambu Type 14 (a Japanese sheet writes it 南部十四年式拳銃: an alias as
    written, which no word match reads); a Type 94 is another Nambu pistol, not the Type 14."""
    found = catalog().identify_weapon(name)[0]
    assert (found.id if found is not None else None) == entry


@pytest.mark.parametrize("name, entry, cartridge", [
    ("コルト・ガバメント", "colt-m1911a1", None), ("グロック17", "glock-17", None), ("ベレッタM92F", "beretta-92fs", None),
    ("ルガーP08", "luger-p08", None), ("トミーガン", "thompson-m1928", None), ("ウージー", "uzi", None),
    ("レミントンM870", "remington-870", None), ("Ｍ１９１１Ａ１", "colt-m1911a1", None),
    ("38口径リボルバー", None, ".38 Special"), ("45口径オートマチック", None, ".45 ACP"), ("9mm拳銃", None, "9x19mm"),
    ("20ゲージ・ショットガン(二連式)", None, "20 gauge"),
    ("ニューナンブM60", "new-nambu-m60", None)])
def test_weapon_names_as_japanese_sheets_write_them(name, entry, cartridge):
    """A CCFOLIA palette or a Japanese scenario writes 'コルト・ガバメント' (a GURPS line of 3d+2 from the
    880 J its 1D10+2 reads as, not the M1911's 2d), 'グロック17', '45口径オートマチック': the maker or model
    in katakana, a calibre as 口径, full-width letters (core.vocab.latin_name)."""
    from xsys.core.vocab import cartridge_in_name

    found = catalog().identify_weapon(name)[0]
    assert (found.id if found is not None else None) == entry
    assert cartridge_in_name(name) == cartridge


@pytest.mark.parametrize("name, entry", [("Webley Mk I Revolver", "webley-mk-vi"), ("Webley revolver", "webley-mk-vi"),
                                         ("Colt Peacemaker revolver", "colt-saa"), ("Webley", None),
                                         ("Thompson", "thompson-m1928"),  # the catalog's one Thompson (an alias)
                                         ("Derringer", "remington-derringer"), (".41 Derringer", "remington-derringer"),
                                         (".25 Derringer", None)])  # another calibre: not that derringer
def test_an_alias_with_its_kind_is_the_gun(name, entry):
    """A Dhole's House export's 'Webley Mk I Revolver' named no gun and no cartridge: GURPS rated the
    880 J its 1D10+2 reads as (3d+2), not the .455 Webley. The marks of the service Webley are
    aliases of the catalog's Mk VI, and an alias with its kind's word ('revolver') is that gun."""
    found = catalog().identify_weapon(name)[0]
    assert (found.id if found is not None else None) == entry


def test_a_derringer_is_a_derringer_in_every_system():
    """'.41 Derringer 30% (15/6), damage 1D8' had been a generic handgun: an automatic pistol's 7
    rounds and 15 yd in coc7, 7 shots and 1/2D 150 in GURPS. It is the catalog's double derringer:
    2 rounds and point-blank range in each system's line."""
    from xsys.plugins.textblock.reader import load

    doc = load(b"Vass\nSTR 40 CON 50 SIZ 55 DEX 60 INT 85 APP 65 POW 70 EDU 90 HP 10\nCombat\n"
               b".41 Derringer 30% (15/6), damage 1D8\n")
    (w,) = doc["weapons"]
    assert (w["catalog"], w["capacity"], w["base_range"], w["damage"]) == ("remington-derringer", 2, "3 yd", "1D8")
    gurps = api.convert(api.from_plain(doc), "gurps", trace=False).document.weapons[0]
    assert (gurps.Shots, gurps.half_D, gurps.Max) == (2, 50, 650)
    coc = api.convert(api.from_plain(doc), "coc", trace=False).document.weapons[0]
    assert (coc.capacity, str(coc.base_range)) == (2, "3 m")
