"""Call of Cthulhu 6th and 7th edition print one weapon table: a weapon line that one edition's
document states keeps its damage, base range, malfunction number and capacity on the other
edition's sheet, where the neutral weapon holds none of them (PercentileSystem.weapon_kin,
coc7.conversion.6e). Before, a 7e Derringer's 15 ft became the handgun class's 15 m on a
6th-edition sheet, a flare pistol's 1D10+1D3 became 1d10, and every malfunction 100 became
the class's 98 or 99, with no word in the report. A value that is the stating system's own
table's (15 yd for a 7e handgun) is that edition's, not the line's: each sheet writes its own."""

from __future__ import annotations

from pathlib import Path

from xsys.conversions import api
from xsys.core import codec

ROOT = Path(__file__).resolve().parents[1]
ANNIE = ROOT / "fixtures/corpus/foundry-coc7/annie-callahan-ranges-with-units.json"


def _line(doc, name):
    return next(w for w in doc.weapons if w.name == name)


def _said(conv) -> str:
    return "\n".join(f"{x.path}: {x.message} [{x.rule}]" for x in conv.losses)


def test_a_7e_line_keeps_its_stated_values_on_a_6th_edition_sheet():
    source = api.convert(ANNIE, "coc7", fresh=True).document
    assert float(_line(source, "Derringer").base_range) == 4.572  # 15 ft as read
    conv = api.convert(ANNIE, "coc", fresh=True)
    doc = conv.document
    derringer, flare, knife = _line(doc, "Derringer"), _line(doc, "Flare pistol"), _line(doc, "Throwing knife")
    assert (derringer.damage, round(float(derringer.base_range), 1)) == ("1d6", 4.6)
    # malfunction 100 is also what a line that states none holds: the table's number stays (the
    # catalog derringer's row: 100, as the line says)
    assert derringer.malfunction == 100
    assert (flare.damage, flare.capacity, flare.shots_per_round) == ("1d10+1d3", 1, 1)
    assert (knife.damage, round(float(knife.base_range))) == ("1d4", 11)
    said = _said(conv)
    # (the catalog's .41 derringer: its row's 1d8 and 3 m, the line's own 1d6 and 15 ft kept)
    assert "Derringer: the coc7 line states damage 1d6 (not 1d8), base range 4.6 m (not 3 m): Call of Cthulhu " \
           "prints the same weapon table" in said and "[coc7.conversion.6e]" in said
    assert "Flare pistol: 1 shot(s) per round, not the handgun's usual 2: it holds 1" in said
    # coc-zh, coc's variant, reads the same table
    assert _line(api.convert(ANNIE, "coc-zh", fresh=True).document, "Flare pistol").damage == "1d10+1d3"


def test_a_6th_edition_line_keeps_its_stated_values_on_a_7e_sheet():
    coc = codec.to_builtins(api.convert(ANNIE, "coc", fresh=True).document)
    conv = api.convert(api.from_plain(coc, "<coc>"), "coc7", fresh=True)
    doc = conv.document
    assert _line(doc, "Flare pistol").damage == "1D10+1D3"
    assert round(float(_line(doc, "Derringer").base_range.to("yd"))) == 5
    assert _line(doc, "Throwing knife").damage == "1D4"
    assert "Derringer: the coc line states damage 1D6 (not 1D8), base range 5 yd (not 3 yd)" in _said(conv)


def test_a_line_from_another_system_takes_the_tables_values():
    """Only a kin document's own line crosses so: through GURPS, the neutral weapon decides (the
    Derringer is the catalog derringer of its row's 3 m again), and nothing claims a stated line."""
    gurps = codec.to_builtins(api.convert(ANNIE, "gurps", fresh=True).document)
    conv = api.convert(api.from_plain(gurps, "<gurps>"), "coc", fresh=True)
    assert float(_line(conv.document, "Derringer").base_range) == 3
    assert "prints the same weapon table" not in _said(conv)


def test_a_stated_malfunction_number_crosses_and_the_tables_values_do_not():
    src = {"system": "coc7", "kind": "npc", "name": "Gunsmith", "STR": 50, "CON": 50, "SIZ": 50, "DEX": 60,
           "APP": 50, "INT": 60, "POW": 50, "EDU": 60, "skills": {"Firearms (Handgun)": 50},
           "weapons": [{"name": "Old revolver", "skill": "Firearms (Handgun)", "damage": "1D8",
                        "base_range": "15 yd", "malfunction": 97},
                       {"name": "Service pistol", "skill": "Firearms (Handgun)", "damage": "1D10",
                        "base_range": "15 yd"}]}
    conv = api.convert(api.from_plain(src, "<gunsmith>"), "coc", fresh=True)
    old, pistol = _line(conv.document, "Old revolver"), _line(conv.document, "Service pistol")
    assert old.malfunction == 97 and float(old.base_range) == 15  # 15 yd is the 7e table's: coc's 15 m
    assert float(pistol.base_range) == 15 and pistol.malfunction < 100
    said = _said(conv)
    assert "Old revolver: the coc7 line states malfunction 97" in said and "Service pistol: the coc7 line" not in said


def test_a_grenade_is_the_tables_hand_grenade_in_both_editions():
    """One F-1 grenade, one line in the CoC family: 4d10 at the burst (tables.toml [grenade], as 7th
    edition prints it), not a bullet of 1,300 J (1d10+1d4+2 on the 6th-edition sheet beside 4D10 on
    the 7th); and the sheet's half-damage-bonus note for Throw lines leaves a grenade out."""
    kowalski = ROOT / "fixtures/pl-trudnosc/npcs/sierzant_kowalski.yaml"
    lines = {}
    for to in ("coc", "coc-zh", "coc7"):
        conv = api.convert(kowalski, to, fresh=True)
        lines[to] = _line(conv.document, "Granat obronny F-1").damage.lower()
        md = api.dump(conv, "md").decode()
        assert "a Throw line adds half the wielder's damage bonus" not in md, to
    assert lines == {"coc": "4d10", "coc-zh": "4d10", "coc7": "4d10"}


def test_a_thrown_lines_range_is_its_throwers_and_crosses_even_at_the_tables_default():
    """Rosa's 7e hatchet: 15 yd (STR 75 / 5) equals 7th edition's table default for a thrown
    weapon, but is her own: on the coc sheet it is 13.7 m, not the table's 10 m (with STR 60 her
    12 yd gave 11 m: a stronger thrower reached less)."""
    rosa = ROOT / "fixtures/corpus/dholes-house/rosa-delgado-unknown-version.json"
    conv = api.convert(rosa, "coc", fresh=True)
    assert round(float(_line(conv.document, "Thrown hatchet").base_range), 1) == 13.7
    assert "Thrown hatchet: the coc7 line states base range 13.7 m (not 10 m)" in _said(conv)


def test_a_bolt_action_kar98k_is_one_shot_every_other_round_on_a_7e_sheet():
    """coc7.weapons (assumed): the Kar98k is a bolt-action service rifle like the table's
    Springfield and Lee-Enfield rows (1/2); it was the rifle class's 1, beside GURPS's RoF 1/2."""
    kowalski = ROOT / "fixtures/pl-trudnosc/npcs/sierzant_kowalski.yaml"
    assert _line(api.convert(kowalski, "coc7", fresh=True).document, "Mauser Kar98k").uses_per_round == "1/2"
    assert _line(api.convert(kowalski, "gurps", fresh=True).document, "Mauser Kar98k").RoF == "1/2"


def test_a_thrown_weapon_on_a_7e_sheet_reaches_its_throwers_str_over_five_yards():
    """coc7.weapons (assumed): Kowalski (STR 70 on the 7e sheet) throws his F-1 14 yd, not the
    thrown class's 15 yd for every arm; Annie, through a GURPS sheet and back, 12 yd at STR 60."""
    kowalski = api.convert(ROOT / "fixtures/pl-trudnosc/npcs/sierzant_kowalski.yaml", "coc7", fresh=True).document
    assert kowalski.STR == 70 and round(float(_line(kowalski, "Granat obronny F-1").base_range.to("yd"))) == 14
    gurps = codec.to_builtins(api.convert(ANNIE, "gurps", fresh=True).document)
    back = api.convert(api.from_plain(gurps, "<gurps>"), "coc7", fresh=True).document
    assert round(float(_line(back, "Throwing knife").base_range.to("yd"))) == back.STR // 5


def test_a_6th_edition_kick_is_a_7e_brawl_attack_at_its_damage_and_that_is_said():
    """A 6th-edition Kick (1d6+db) is a Fighting (Brawl) attack on a 7th-edition sheet, rolled for
    7th edition's Brawl damage 1D3+DB (coc7.conversion.6e): the line changes its dice, and the
    report had said only that it was written 'as its own line'. A knife's line keeps its dice."""
    npc = {"system": "coc", "kind": "npc", "name": "Brawler", "STR": 14, "CON": 12, "SIZ": 13, "DEX": 12, "APP": 9,
           "INT": 10, "POW": 10, "EDU": 9, "skills": {"Fist/Punch": 70, "Kick": 60, "Knife": 50},
           "melee": [{"name": "Kick", "skill": "Kick", "damage": "1d6+db"},
                     {"name": "Switchblade", "skill": "Knife", "damage": "1d4+db"}]}
    conv = api.convert(api.from_plain(npc, "<brawler>"), "coc7", fresh=True)
    lines = {m.name: (m.skill, m.damage) for m in conv.document.melee}
    assert lines["Kick"] == ("Fighting (Brawl)", "1D3+DB")
    assert lines["Switchblade"] == ("Fighting (Brawl)", "1D4+DB")
    said = _said(conv)
    assert ("$.melee[0]: Kick: a coc Kick attack (1d6+db) is a Fighting (Brawl) attack on a coc7 sheet, at its "
            "damage 1D3+DB; the coc line is carried [coc7.conversion.6e]") in said
    assert "Switchblade: a coc" not in said
