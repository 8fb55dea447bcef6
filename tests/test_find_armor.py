"""One answer for which catalog armor a sheet's line is, in every system and in the text
blocks (core.catalog.Catalog.find_armor): an id the catalog does not hold is refused with its
path (it once fell through to the name in coc and gurps, to the points in nWoD, silently), and
a name finds its item however the sheet writes it (case, full-width letters, spaces)."""

from __future__ import annotations

import pytest

from xsys.conversions import api
from xsys.core.errors import XsysError
from xsys.core.registry import catalog

SHEETS = {
    "coc": ({"system": "coc", "kind": "npc", "name": "Guard", "STR": 12, "CON": 12, "SIZ": 12, "DEX": 12, "APP": 10, "INT": 12,
             "POW": 10, "EDU": 12, "skills": {"Handgun": 40},
             "armor": [{"name": "Vest", "A": 8, "B": 4, "catalog": "no-such-vest"}]}, "$.armor[0].catalog"),
    "coc-zh": ({"system": "coc-zh", "kind": "npc", "name": "Guard", "STR": 12, "CON": 12, "SIZ": 12, "DEX": 12, "APP": 10,
                "INT": 12, "POW": 10, "EDU": 12, "skills": {"Handgun": 40},
                "armor": [{"name": "Vest", "points": 8, "catalog": "no-such-vest"}]}, "$.armor[0].catalog"),
    "gurps": ({"system": "gurps", "kind": "npc", "name": "Guard", "ST": 10, "DX": 11, "IQ": 10, "HT": 10, "skills": {"Guns": 12},
               "armor": [{"name": "Vest", "PD": 2, "DR": 11, "catalog": "no-such-vest"}]}, "$.armor[0].catalog"),
    "nwod": ({"system": "nwod", "kind": "npc", "name": "Guard", "Dexterity": 3, "skills": {"Firearms": 2},
              "armor": [{"name": "Vest", "general": 1, "ballistic": 2, "catalog": "no-such-vest"}]},
             "$.armor[0].catalog"),
    "pl-trudnosc": ({"system": "pl-trudnosc", "kind": "npc", "imię": "Strażnik",
                     "pancerz": [{"nazwa": "Kamizelka", "punkty": 3, "katalog": "no-such-vest"}]},
                    "$.pancerz[0].katalog"),
    "coc7": ({"system": "coc7", "kind": "npc", "name": "Guard", "STR": 60, "CON": 60, "SIZ": 60, "DEX": 60, "APP": 50,
              "INT": 60, "POW": 50, "EDU": 60, "skills": {"Firearms (Handgun)": 40},
              "armor": [{"name": "Vest", "armor": 8, "catalog": "no-such-vest"}]}, "$.armor[0].catalog"),
}


@pytest.mark.parametrize("system", sorted(SHEETS))
def test_an_unknown_catalog_armor_id_is_refused_with_its_path(system):
    doc, path = SHEETS[system]
    with pytest.raises(XsysError) as err:
        api.convert(doc, "neutral")
    assert err.value.path == path
    assert "no-such-vest" in str(err.value.found)
    assert "unknown catalog armor" in str(err.value)


@pytest.mark.parametrize("written", ["Heavy Kevlar vest", "heavy kevlar VEST", "  Heavy   Kevlar vest ",
                                     "Ｈｅａｖｙ Ｋｅｖｌａｒ ｖｅｓｔ", "heavy-kevlar-vest"])
def test_a_name_finds_its_item_however_it_is_written(written):
    assert catalog().find_armor(written).id == "heavy-kevlar-vest"


@pytest.mark.parametrize("written, item", [("Chain mail", "chain-mail"), ("M1 helmet", "m1-helmet"),
                                           ("Brodie helmet", "brodie-helmet"), ("PASGT helmet", "pasgt-helmet"),
                                           ("motorcycle leathers", "motorcycle-leathers")])
def test_an_id_written_with_spaces_for_its_hyphens_finds_its_item(written, item):
    """A GM writes 'Chain mail' or 'M1 helmet' where the catalog's id is chain-mail or m1-helmet
    (and its name 'Riveted chain mail hauberk over padded gambeson', 'M1 steel helmet'): the item,
    not a line of no catalog item read from its points alone."""
    assert catalog().find_armor(written).id == item


def test_a_name_that_is_no_item_is_none_and_an_empty_name_too():
    assert catalog().find_armor("Grandmother's shawl") is None
    assert catalog().find_armor("  ") is None


def test_the_id_wins_over_the_name():
    assert catalog().find_armor("Heavy Kevlar vest", "full-riot-gear").id == "full-riot-gear"


def test_nwod_sheet_names_its_item_in_any_case():
    doc = {"system": "nwod", "kind": "npc", "name": "Cop", "Dexterity": 3, "skills": {"Firearms": 2},
           "armor": [{"name": "HEAVY KEVLAR VEST", "general": 1, "ballistic": 3}]}
    armor = api.convert(doc, "neutral").document.armor[0]
    assert float(armor.stops) == 1480.0  # the catalog item's, not the chart rating's joules


HELMETS = {
    "coc": {"system": "coc", "kind": "npc", "name": "Guard", "STR": 12, "CON": 12, "SIZ": 12, "DEX": 12, "APP": 10,
            "INT": 12, "POW": 10, "EDU": 12, "skills": {"Handgun": 40}, "armor": [{"name": "Steel helmet", "A": 5, "B": 2}]},
    "coc-zh": {"system": "coc-zh", "kind": "npc", "name": "Guard", "STR": 12, "CON": 12, "SIZ": 12, "DEX": 12, "APP": 10,
               "INT": 12, "POW": 10, "EDU": 12, "skills": {"Handgun": 40}, "armor": [{"name": "钢盔", "points": 5}]},
    "coc7": {"system": "coc7", "kind": "npc", "name": "Guard", "STR": 60, "CON": 60, "SIZ": 60, "DEX": 60, "APP": 50,
             "INT": 60, "POW": 50, "EDU": 60, "skills": {"Firearms (Handgun)": 40},
             "armor": [{"name": "Doughboy's helmet", "armor": 4}]},  # ("Brodie helmet" is the catalog's brodie-helmet)
    "nwod": {"system": "nwod", "kind": "npc", "name": "Guard", "Dexterity": 3, "skills": {"Firearms": 2},
             "armor": [{"name": "Kevlar helmet", "general": 1, "ballistic": 2}]},
    "pl-trudnosc": {"system": "pl-trudnosc", "kind": "npc", "imię": "Strażnik",
                    "pancerz": [{"nazwa": "Hełm wz. 31", "punkty": 3}]},
}


@pytest.mark.parametrize("system", sorted(HELMETS))
def test_a_helmet_line_that_names_no_location_covers_the_head_in_every_system(system):
    """A line named a helmet ('Hełm wz. 31', '钢盔', 'Steel helmet') with no catalog item and no
    location was read as the neutral default, the torso: it stopped bullets to the chest and a
    GURPS sheet reported its torso coverage dropped. One reading for every system
    (core.armorline.says_helmet): it covers the head, said as assumed."""
    conv = api.convert(HELMETS[system], "neutral", fresh=True)
    (armor,) = conv.document.armor
    assert list(armor.covers) == ["head"], armor
    assert [x for x in conv.losses if x.kind == "assumed" and "covers the head" in x.message]
    there = api.convert(HELMETS[system], "gurps", fresh=True)
    assert not [x for x in there.losses if "covers" in x.path and "dropped" in x.message], \
        [x.render() for x in there.losses]
    back = api.convert(_plain(there.document), system, fresh=True)
    assert list(api.convert(_plain(back.document), "neutral", fresh=True).document.armor[0].covers) == ["head"]


def _plain(doc):
    from xsys.core import codec

    p = codec.to_builtins(doc)
    p.pop("xsys", None)
    return api.from_plain(p)


def test_a_body_armor_line_stays_on_the_torso():
    conv = api.convert({"system": "pl-trudnosc", "kind": "npc", "imię": "Strażnik",
                        "pancerz": [{"nazwa": "Kamizelka", "punkty": 3}]}, "neutral", fresh=True)
    assert list(conv.document.armor[0].covers) == ["torso"]
