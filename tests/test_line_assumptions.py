"""One line for each assumption a system makes reading a weapon or armor line, the same in every
system: an armor line of no catalog item (core.armorline.points_note), a weapon of no catalog
item (core.catalog.weapon_note), a line naming a catalog weapon at another damage
(core.catalog.damage_line_note), and nWoD's clip where no source states a capacity. Each case
writes the same line in each system's own fields."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from xsys.conversions import api

ROOT = Path(__file__).resolve().parents[1]


def _read(path: str, field: str, line: dict) -> api.Conversion:
    doc = yaml.safe_load((ROOT / path).read_text(encoding="utf-8"))
    doc[field] = [line]
    return api.convert(api.from_plain(doc, path), "neutral", trace=False)


# one armor line of no catalog item, written in each system's own fields
_UNLISTED = {
    "coc": ("fixtures/coc/npcs/dock_brute.yaml", "armor", {"name": "Quilted coat", "A": 1, "B": 1}, "A 1"),
    "coc7": ("fixtures/coc7/npcs/silas_crane.yaml", "armor", {"name": "Quilted coat", "armor": 2}, "2 points"),
    "coc-zh": ("fixtures/coc-zh/npcs/inspector_chen.yaml", "armor", {"name": "Quilted coat", "points": 2}, "armor 2"),
    "gurps": ("fixtures/gurps/npcs/street_thug.yaml", "armor", {"name": "Quilted coat", "PD": 1, "DR": 2}, "DR 2"),
    "nwod": ("fixtures/nwod/npcs/gang-enforcer.yaml", "armor", {"name": "Quilted coat", "general": 1, "ballistic": 0},
             "general 1"),
    "pl-trudnosc": ("fixtures/pl-trudnosc/npcs/bandyta.yaml", "pancerz", {"nazwa": "Quilted coat", "punkty": 2},
                    "punkty 2"),
}


@pytest.mark.parametrize("system", sorted(_UNLISTED))
def test_every_system_says_an_armor_line_of_no_catalog_item_in_one_line(system):
    """What a sheet's armor of no catalog item stops is read from its points on the system's
    assumed scale, and every system says so in the same words (core.armorline.points_note)."""
    path, field, line, read = _UNLISTED[system]
    conv = _read(path, field, line)
    said = [x for x in conv.losses if x.kind == "assumed" and "not in the catalog" in x.message]
    assert len(said) == 1 and said[0].system == system, [x.message for x in conv.losses]
    assert re.fullmatch(rf"armor 'Quilted coat' not in the catalog; stops read from {re.escape(read)} "
                        r"\(\d+(\.\d+)? J\)(, a garment by its ballistic rating)?", said[0].message), said[0].message


_UNKNOWN_GUN = {
    "coc": ("fixtures/coc/npcs/dock_brute.yaml", "weapons",
            {"name": "Odd pistol", "skill": "Handgun", "damage": "1d8", "base_range": "15 m"}, "1d8"),
    "coc7": ("fixtures/coc7/npcs/silas_crane.yaml", "weapons",
             {"name": "Odd pistol", "skill": "Firearms (Handgun)", "damage": "1D8", "base_range": "15 yd",
              "uses_per_round": "1", "capacity": 6, "malfunction": 100}, "1D8"),
    "coc-zh": ("fixtures/coc-zh/npcs/inspector_chen.yaml", "weapons",
               {"name": "Odd pistol", "skill": "Handgun", "damage": "1d8", "base_range": "15 m"}, "1d8"),
    "gurps": ("fixtures/gurps/npcs/street_thug.yaml", "weapons",
              {"name": "Odd pistol", "damage": "2d", "skill": "Guns (Pistol)"}, "2d"),
    "nwod": ("fixtures/nwod/npcs/gang-enforcer.yaml", "weapons",
             {"name": "Odd pistol", "damage": 2, "ranges": ["20 yd", "40 yd", "80 yd"], "clip": 6, "strength": 2,
              "size": 1}, "damage 2"),
    "pl-trudnosc": ("fixtures/pl-trudnosc/npcs/bandyta.yaml", "broń",
                    {"nazwa": "Odd pistol", "rodzaj": "krótka", "obrażenia": 3}, "obrażenia 3"),
}


@pytest.mark.parametrize("system", sorted(_UNKNOWN_GUN))
def test_every_system_says_a_weapon_of_no_catalog_item_in_one_line(system):
    """A gun no catalog names is read from its damage as a muzzle energy (an assumption), and every
    system says so in the same words with the joules (core.catalog.weapon_note): nWoD said nothing
    of it, GURPS said it its own way, coc and Polish sheets without or with other words."""
    path, field, line, read = _UNKNOWN_GUN[system]
    conv = _read(path, field, line)
    said = [x.message for x in conv.losses if x.kind == "assumed" and x.message.startswith("no catalog weapon")]
    assert len(said) == 1, [x.message for x in conv.losses]
    assert re.fullmatch(rf"no catalog weapon 'Odd pistol'; muzzle energy from {re.escape(read)} \(\d+(\.\d+)? J\)",
                        said[0]), said[0]


_COLT_AT_ANOTHER_DAMAGE = {
    "coc": ("fixtures/coc/npcs/dock_brute.yaml", "weapons", {"name": "Colt", "catalog": "colt-m1911a1",
                                                              "skill": "Handgun", "damage": "1d6", "base_range": "15 m"},
            "$.weapons[0].damage", "1d10+2", "1d6"),
    "coc7": ("fixtures/coc7/npcs/silas_crane.yaml", "weapons",
             {"name": "Colt", "catalog": "colt-m1911a1", "skill": "Firearms (Handgun)", "damage": "1D6",
              "base_range": "15 yd", "uses_per_round": "1", "capacity": 7, "malfunction": 100},
             "$.weapons[0].damage", "1D10+2", "1D6"),
    "gurps": ("fixtures/gurps/npcs/street_thug.yaml", "weapons",
              {"name": "Colt", "catalog": "colt-m1911a1", "damage": "1d", "skill": "Guns (Pistol)"},
              "$.weapons[0].damage", "2d", "1d"),
    "nwod": ("fixtures/nwod/npcs/gang-enforcer.yaml", "weapons",
             {"name": "Colt", "catalog": "colt-m1911a1", "damage": 1, "ranges": ["20 yd", "40 yd", "80 yd"], "clip": 7,
              "strength": 2, "size": 1}, "$.weapons[0].damage", "3", "1"),
    "pl-trudnosc": ("fixtures/pl-trudnosc/npcs/bandyta.yaml", "broń",
                    {"nazwa": "Colt", "katalog": "colt-m1911a1", "rodzaj": "krótka", "obrażenia": 1},
                    "$.broń[0].obrażenia", "4", "1"),
}


@pytest.mark.parametrize("system", sorted(_COLT_AT_ANOTHER_DAMAGE))
def test_a_catalog_weapon_at_another_damage_is_said_in_one_line(system):
    """A line that names the Colt M1911A1 but states another damage is the Colt (one weapon, one
    damage line): every system says that the line's own damage is not the weapon's, in the same
    words (core.catalog.damage_line_note). nWoD said nothing: the stated 1 vanished."""
    path, field, line, at, weapons, own = _COLT_AT_ANOTHER_DAMAGE[system]
    conv = _read(path, field, line)
    assert float(conv.document.weapons[0].muzzle_energy) == 480.0  # the Colt's .45 ACP
    said = [(x.kind, x.message) for x in conv.losses if x.path == at]
    assert said == [("merged", f"Colt: it is catalog weapon colt-m1911a1 (.45 ACP), whose damage is {weapons}; the "
                               f"line's own {own} is not that weapon's, and a sheet written again from the neutral "
                               f"weapon writes {weapons} (one weapon, one damage line)")], said


def test_an_nwod_clip_no_source_states_is_said():
    """A GURPS pistol of no catalog weapon that states no Shots is written on the 'Pistol, Lt.'
    line with that line's clip: an assumption, said as coc, coc7 and GURPS say theirs (it was
    written without a word); a catalog gun's own magazine says nothing."""
    doc = {"system": "gurps", "kind": "npc", "name": "Courier", "ST": 10, "DX": 11, "IQ": 10, "HT": 11,
           "skills": {"Guns (Pistol)": 12},
           "weapons": [{"name": "Odd pistol", "damage": "2d", "skill": "Guns (Pistol)"},
                       {"name": "Colt", "catalog": "colt-m1911a1", "damage": "2d", "skill": "Guns (Pistol)"}]}
    conv = api.convert(api.from_plain(doc), "nwod", fresh=True, trace=False)
    odd, colt = conv.document.weapons
    assert (odd.type, odd.clip, colt.clip) == ("Pistol, Lt.", 17, 7)
    said = [(x.kind, x.path, x.message) for x in conv.losses if x.rule == "nwod.weapon.clip"]
    assert said == [("assumed", "$.weapons[0]", "Odd pistol: the source states no capacity; written as the "
                                                "'Pistol, Lt.' line's clip 17")], said


@pytest.mark.parametrize("target, written", [
    ("coc", "the usual handgun's 7"), ("coc7", "the usual handgun's 7"), ("gurps", "the usual handgun's Shots 7"),
    ("nwod", "the 'Pistol, Lt.' line's clip 17")])
def test_every_system_says_a_capacity_no_source_states_in_one_line(target, written):
    """A pistol whose source states no capacity is written with the capacity its sheet takes for
    it, and every system says so in the same words (core.catalog.capacity_note); coc7 and GURPS
    said it inside their weapon line's note, in words of their own."""
    source = {"system": "gurps", "kind": "npc", "name": "Courier", "ST": 10, "DX": 11, "IQ": 10, "HT": 11,
              "weapons": [{"name": "Odd pistol", "damage": "2d", "skill": "Guns (Pistol)"}]}
    if target == "gurps":
        source = _plain(api.convert(api.from_plain(source), "coc", trace=False).document)
        source["weapons"][0].pop("capacity", None)
    conv = api.convert(api.from_plain(source), target, fresh=True, trace=False)
    said = [x.message for x in conv.losses if "states no capacity" in x.message]
    assert said == [f"Odd pistol: the source states no capacity; written as {written}"], said


def _plain(doc):
    import msgspec

    from xsys.core import codec

    plain = msgspec.to_builtins(doc, enc_hook=codec.enc_hook)
    plain.pop("xsys", None)
    return plain


@pytest.mark.parametrize("target, field", [("coc", "capacity"), ("coc7", "capacity"), ("coc-zh", "capacity"),
                                           ("gurps", "Shots"), ("nwod", "clip")])
def test_a_catalog_gun_of_no_stated_capacity_holds_its_catalog_magazine_in_every_system(target, field):
    """A catalog weapon whose source states no capacity is written with its catalog weapon's
    magazine in every system (core.catalog.Catalog.capacity_of), and nothing is said: a Glock 17
    holds 17 (7th edition wrote the usual handgun's 7, and said so), a Colt M1911A1 7."""
    doc = {"system": "neutral", "kind": "npc", "name": "Carrier",
           "weapons": [{"name": "Glock 17", "catalog": "glock-17", "weapon_class": "handgun", "muzzle_energy": "500 J"},
                       {"name": "Colt M1911A1", "catalog": "colt-m1911a1", "weapon_class": "handgun",
                        "muzzle_energy": "480 J"}]}
    conv = api.convert(api.from_plain(doc), target, trace=False)
    assert [getattr(w, field) for w in conv.document.weapons] == [17, 7]
    assert not [x.message for x in conv.losses if "capacity" in x.message], [x.message for x in conv.losses]


@pytest.mark.parametrize("target, line", [
    ("coc", r"\.38 Revolver: 6th-edition line \(base range 15 m, 2 shots a round, malfunction 100, STR 7\) from "
            r"tables\.toml \[weapon_class\.revolver\], damage 1d10 \(coc-ja\.damage\)"),
    ("coc-zh", r"\.38 Revolver: 6th-edition line \(base range 15 m, 2 shots a round, malfunction 100, STR 7\) from "
               r"tables\.toml \[weapon_class\.revolver\], damage 1d10 \(coc-ja\.damage\)"),
    ("coc7", r"\.38 Revolver: 7th-edition line \(base range 15 yd, uses per round 1 \(3\), malfunction 100\) from "
             r"tables\.toml \[weapon_class\.revolver\], damage 1D10 \(coc7\.damage\)"),
    ("gurps", r"\.38 Revolver: GURPS line \(damage 2d-1, Acc 2, .*\) from weapons\.toml \[class\.revolver\].*"),
    ("nwod", r"\.38 Revolver: Ranged Weapons Chart line 'Revolver, Lt\.' \(ranges 20/40/80 yd, Strength 2, Size 1\) "
             r"for a revolver of 405 J, damage 2 \(nwod\.weapon\.damage\)")])
def test_every_system_says_the_line_it_writes_for_a_weapon(target, line):
    """A weapon line written from what the weapon is (a revolver of no catalog, 405 J) takes what it
    says beside its damage from the system's own table, and every system says so in one assumed
    line at the weapon, naming the table row (coc and nWoD wrote theirs without a word)."""
    doc = {"system": "neutral", "kind": "npc", "name": "Reporter",
           "weapons": [{"name": ".38 Revolver", "weapon_class": "revolver", "muzzle_energy": "405 J", "capacity": 6}]}
    conv = api.convert(api.from_plain(doc), target, trace=False)
    said = [x for x in conv.losses if x.kind == "assumed" and x.path == "$.weapons[0]" and " line " in x.message]
    assert len(said) == 1 and said[0].system == target, [x.message for x in conv.losses]
    assert re.fullmatch(line, said[0].message), said[0].message
