"""One weapon, one answer: what a weapon's name says is decided once (the catalog, else the
class word it ends in) for every system's native shot, and a name that says neither is
refused instead of being read as a handgun."""

from __future__ import annotations

import pytest

from xsys.conversions import api
from xsys.core.errors import XsysError
from xsys.core.registry import catalog


@pytest.mark.parametrize(("name", "entry", "word_class"), [
    ("glock-17", "glock-17", None),                      # an id
    ("Glock 17", "glock-17", None),                      # a name
    ("Winchester M1894", "winchester-1894", None),       # every word among the entry's ("Model 1894" = M1894)
    ("Mauser 98k", "mauser-kar98k", None),
    ("rifle", None, "rifle"),
    ("a hunting rifle", None, "rifle"),
    ("Sawn-off shotgun", None, "shotgun"),
    ("submachine gun", None, "smg"),
    ("banana", None, None),
    ("Winchester", None, None),                          # two catalog Winchesters: no single answer
    ("MP5", "mp5", None),                                # an id as a GM writes it
    ("Uzi", "uzi", None),
    ("MP5A3", "mp5", None),                              # a variant of a catalog model
    ("Thompson M1928A1", "thompson-m1928", None),        # a 4e stat block's Thompson
    ("Springfield M1903A3", "springfield-m1903", None),
    ("Colt M1911A1", "colt-m1911a1", None),              # the variant is itself in the catalog
    ("Garand M1A1", None, None),                         # 'm1a1' is too short to be a variant of 'm1'
    ("Tommy gun", "thompson-m1928", None),               # the nickname its catalog name gives in quotes
    ("a Tommy Gun", "thompson-m1928", None),
    ("Broomhandle", "mauser-c96", None),
    ("Tommy", None, None),                               # part of a nickname is not the weapon
    ("Thompson submachine gun", "thompson-m1928", None), # an alias of the entry (weapons.toml aliases)
    ("a Thompson Sub-Machine Gun", "thompson-m1928", None),
    # the one Thompson family the catalog holds (its M1928 stands for the M1 and M1A1 too): a GM's and a
    # Dhole's House export's "Thompson" is the Tommy gun (weapons.toml aliases); "Winchester" above is not
    ("Thompson", "thompson-m1928", None),
    ("Thompson Contender", None, None),                  # another maker's gun by that name: still nothing
    ("S&W M10", "sw-model-10", None),                    # a maker by its initials, as GMs write it
    ("S & W Model 10", "sw-model-10", None),
    ("H&K MP5", "mp5", None),
    ("S&W M19", None, None),                             # a model the catalog has not: nothing
    ("H&K G3", None, None),                              # a maker's model the catalog has not: not its MP5
    ("H&K G3 7.62mm", None, None),
    ("AK-47 7.62mm", "ak-47", None),                     # a bore that names no one cartridge (GURPS tables)
    ("M60 7.62mm", "m60", None),
    ("Kar98k 7.92mm", "mauser-kar98k", None),
    ("Glock 17 .45", None, None),                        # a bore the model is not
    ("Lee-Enfield No. 4 (1941)", "lee-enfield-no4", None),  # a year is no model number
    ("Lee-Enfield No. 1 Mk III", None, None),            # another model number is another rifle
    ("Browning HP 9mm", "browning-hi-power", None),
    ("Beretta M92 9mm", "beretta-92fs", None),
    ("ニューナンブM60", "new-nambu-m60", None),           # Japanese scenarios' police revolver
    ("マカロフ", "makarov-pm", None),
    ("M60", "m60", None),                                # the id stays the machine gun's
    ("Shotgun 12 gauge", None, "shotgun"),               # a class word before the calibre
    ("ショットガン12ゲージ", None, "shotgun"),
    ("ライフル(.30-06)", None, "rifle"),
    ("Pistol 9mm", None, "handgun"),
    ("三八式歩兵銃", None, "rifle"),                      # an infantry rifle (歩兵銃)
    ("格洛克 17", "glock-17", None),                      # Chinese scenarios' names (weapons.toml aliases)
    ("驳壳枪", "mauser-c96", None),
    ("湯普森衝鋒槍", "thompson-m1928", None),
    ("格洛克 23", None, None),                            # a model the catalog has not: nothing
    ("Colt .45", None, None),                            # a maker and a bore: still no one weapon
])
def test_a_weapon_name_says_a_catalog_weapon_a_class_or_nothing(name, entry, word_class):
    found, cls = catalog().identify_weapon(name)
    assert (found.id if found is not None else None, cls) == (entry, word_class)


SHOTS = {
    "coc": {"skill_value": 50, "distance": "20 m", "light": "daylight"},
    "coc7": {"skill_value": 50, "distance": "20 m"},
    "coc-zh": {"skill_value": 50, "distance": "20 m", "light": "daylight"},
    "gurps": {"level": 12, "distance": "20 m"},
    "nwod": {"Dexterity": 3, "Firearms": 2, "range": "short"},
}


def _shot(system: str, weapon: str) -> dict:
    return {"system": system, "kind": "shot", "name": "test", "weapon": weapon, **SHOTS[system]}


@pytest.mark.parametrize("system", sorted(SHOTS))
def test_an_unknown_weapon_in_a_native_shot_is_refused_not_a_handgun(system):
    with pytest.raises(XsysError) as err:
        api.convert(_shot(system, "banana"), "neutral")
    assert err.value.path == "$.weapon" and "'banana'" in str(err.value)


@pytest.mark.parametrize("system", sorted(SHOTS))
@pytest.mark.parametrize(("weapon", "weapon_class", "catalog_id"), [
    ("rifle", "rifle", None), ("Winchester M1894", "rifle", "winchester-1894"), ("Tommy gun", "smg", "thompson-m1928")])
def test_a_class_word_or_a_known_name_in_a_native_shot_is_that_weapon(system, weapon, weapon_class, catalog_id):
    shot = api.convert(_shot(system, weapon), "neutral").document
    assert shot.weapon.weapon_class == weapon_class
    assert shot.weapon.catalog == catalog_id


def test_an_unknown_catalog_id_in_a_coc7_shot_is_refused_at_its_field():
    shot = {**_shot("coc7", "Odd gun"), "catalog": "nope"}
    with pytest.raises(XsysError) as err:
        api.convert(shot, "neutral")
    assert err.value.path == "$.catalog" and "'nope'" in str(err.value)


@pytest.mark.parametrize("name, expected", [
    ("Lee-Enfield", ("lee-enfield-no4", None)),           # a maker's two words, no model number
    ("Lee Enfield rifle", ("lee-enfield-no4", None)),     # ... with a class word the entry agrees with
    ("Lee Enfield pistol", (None, "handgun")),             # a class word the entry is not: the class
    ("Colt pistol", (None, "handgun")),                    # a maker and a class: too little for one gun
    (".30-06 bolt-action rifle", (None, "rifle")),         # a calibre and an action name no model
    ("Hunting rifle", (None, "rifle")),
])
def test_a_name_of_two_proper_words_is_its_catalog_weapon(name, expected):
    """A GM's "Lee-Enfield" (a CoC 7e Foundry actor's line) is the catalog's Lee-Enfield No. 4: every
    system writes its line (GURPS 7d, RoF 1/2; Polish 9), as from the catalog id. It was a
    rifle of its own 2D6+4 (6000 J: GURPS 9d, RoF 1; Polish 10)."""
    from xsys.core.registry import catalog

    entry, cls = catalog().identify_weapon(name)
    assert ((entry.id if entry is not None else None), cls) == expected


@pytest.mark.parametrize("source", ["coc", "coc7"])
def test_an_uncatalogued_rifle_of_the_tables_rifle_dice_is_a_full_power_rifle(source):
    """A rifle line of 2d6+4 that names no catalog weapon ("Old hunting rifle") stands for the
    cartridges the weapon table prints those dice for, 3500 J (their median): GURPS 7d like the
    catalog .30-06 and the Lee-Enfield, not the 9d of the row's middle (6000 J)."""
    from xsys.conversions import api

    skill = "Rifle" if source == "coc" else "Firearms (Rifle/Shotgun)"
    chars = {c: 60 if source == "coc7" else 12 for c in ("STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU")}
    doc = {"system": source, "kind": "npc", "name": "Trapper", **chars, "skills": {skill: 60},
           "weapons": [{"name": "Old hunting rifle", "skill": skill,
                        "damage": "2d6+4" if source == "coc" else "2D6+4", "base_range": "110 m"}]}
    conv = api.convert(doc, "gurps", fresh=True)
    (w,) = conv.document.weapons
    assert w.damage == "7d"
    neutral = api.convert(doc, "neutral", fresh=True).document
    assert float(neutral.weapons[0].muzzle_energy) == 3500
    (said,) = [x for x in conv.losses if x.path == "$.weapons[0].damage"]
    assert "muzzle energy from 2" in said.message and said.rule in ("coc-ja.damage", "coc7.damage")


def test_a_revolver_named_by_its_maker_s_initials_is_that_revolver_in_every_system():
    """A Japanese text block's 'S&W M10' was a generic handgun of 405 J (its 1d10 read as energy),
    an nWoD 'Pistol, Lt.' of 17+1; it is the catalog's Model 10: a .38 Special revolver of 270 J,
    six in the cylinder, nWoD's 'Revolver, Lt.' with clip 6."""
    from pathlib import Path

    f = Path(__file__).resolve().parents[1] / "fixtures/corpus/text-coc/ja-markdown-table.txt"
    neutral = api.convert(api.load(f), "neutral", trace=False).document
    (gun,) = neutral.weapons
    assert (gun.catalog, gun.weapon_class, float(gun.muzzle_energy), gun.capacity) == ("sw-model-10", "revolver",
                                                                                       270.0, 6)
    nw = api.convert(api.load(f), "nwod", trace=False).document.weapons[0]
    assert (nw.type, nw.clip, nw.chamber) == ("Revolver, Lt.", 6, False)


def _neutral_weapon(**fields):
    from xsys.core.model import generic_weapon

    return msgspec_replace(generic_weapon("shotgun"), **fields)


def msgspec_replace(obj, **fields):
    import msgspec

    return msgspec.structs.replace(obj, **fields)


@pytest.mark.parametrize("fields", [
    {"name": "Sawed-off shotgun"},                        # named so (nWoD's chart, a Foundry mta item)
    {"name": "Sawn-off shotgun"},                         # a Foundry CoC7 item's spelling
    {"name": "Coach gun", "length": "0.5 m"},             # shorter than 0.66 m (core.vocab.is_sawn_off)
    {"name": "Sawn-off 12 gauge", "calibre": "12 gauge"},
])
def test_a_sawn_off_of_no_model_gets_the_sawn_off_line_in_every_d100_table(fields):
    """One thing, one answer: a sawn-off shotgun named by no model was the full-length double
    gun's line in coc (4d6/2d6/1d6, 50 m) and 7th edition (50 yd) while GURPS and nWoD wrote the
    sawn-off's; it is the catalog's sawn-off (Catalog.sawn_off_of), the row both tables print."""
    from xsys.core.units import Length, parse
    from xsys.core.registry import get_system

    if "length" in fields:
        fields = {**fields, "length": parse(fields["length"], Length)}
    w = _neutral_weapon(**fields)
    basis = catalog().weapon_basis(w)
    assert basis.entry is not None and basis.entry.id == "sawed-off-12ga"
    assert "sawn-off" in basis.said
    by_id = msgspec_replace(w, catalog="sawed-off-12ga")
    for key, want in (("coc", ("4d6/1d6", 10.0)), ("coc7", ("4D6/1D6", 10 * 0.9144))):
        system = get_system(key)
        line, line_by_id = system.weapon_defaults(w), system.weapon_defaults(by_id)
        assert (line.damage, round(float(line.base_range), 4)) == (want[0], round(want[1], 4))
        assert (line.damage, line.base_range) == (line_by_id.damage, line_by_id.base_range)


def test_a_sawn_off_of_another_gauge_or_a_model_is_not_the_catalog_sawn_off():
    """A sawn-off of a gauge the catalog's is not, and a named model cut down, keep their own basis."""
    assert catalog().sawn_off_of(_neutral_weapon(name="Sawn-off shotgun", calibre="20 gauge")) is None
    assert catalog().sawn_off_of(_neutral_weapon(name="Pump shotgun")) is None
    from xsys.core.model import generic_weapon

    assert catalog().sawn_off_of(msgspec_replace(generic_weapon("rifle"), name="Sawn-off rifle")) is None
    w = _neutral_weapon(name="Sawed-off Remington 870")
    assert catalog().weapon_basis(w).entry.id == "remington-870"
