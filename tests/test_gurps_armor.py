"""What a GURPS GM checks on converted armor: passive defense (PD) crosses as the neutral
deflection and comes back exactly through every system, and counts in the close-combat defence;
armor keeps every location it covers in every system's document."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from xsys.conversions import api
from xsys.core import codec
from xsys.core.melee import MELEE_BATTERY
from xsys.core.model import Armor
from xsys.core.registry import default_registry
from xsys.core.trace import Collector
from xsys.core.units import Energy
from xsys.plugins.gurps.system import success

ROOT = Path(__file__).resolve().parents[1]
SOLDIER = ROOT / "fixtures/gurps/npcs/soldier.yaml"
THUG = ROOT / "fixtures/gurps/npcs/street_thug.yaml"
OTHERS = ("coc", "coc-zh", "nwod", "pl-trudnosc")


@pytest.fixture(scope="module")
def gurps():
    return default_registry().system("gurps")


def _plain(doc) -> dict:
    p = codec.to_builtins(doc)
    p.pop("xsys", None)
    return p


def _there_and_back(source, via: str):
    """A GURPS document through `via` and back with nothing remembered: (the trip out, the sheet back)."""
    there = api.convert(source, via, fresh=True, trace=False)
    back = api.convert(api.from_plain(_plain(there.document)), "gurps", fresh=True, trace=False)
    return there, back.document


def _armor(npc) -> list[tuple[str, int, int, list[str]]]:
    return [(a.name, a.PD, a.DR, list(a.locations)) for a in npc.armor]


# ---- 1. PD crosses -------------------------------------------------------------------------

@pytest.mark.parametrize("via", OTHERS)
def test_soldier_pd_comes_back_through_every_system(via):
    """The soldier's PASGT helmet (PD 3, DR 10, head) and military body armor (PD 2, DR 24) came
    back PD 0 from a trip through nWoD with nothing remembered, and no loss said so."""
    _, back = _there_and_back(SOLDIER, via)
    assert _armor(back) == [("PASGT helmet", 3, 10, ["head"]),
                            ("Military body armor", 2, 24, ["torso", "vitals", "neck"])]


VAULT_GUARD = {
    "system": "gurps", "kind": "npc", "name": "Vault guard", "ST": 11, "DX": 11, "IQ": 10, "HT": 11,
    "armor": [{"name": "Light body armor", "PD": 2, "DR": 4, "locations": ["torso", "vitals"]},
              {"name": "Old steel pot", "PD": 3, "DR": 4, "locations": ["head"]}],
}


@pytest.mark.parametrize("via", OTHERS)
def test_uncatalogued_pd_is_kept_on_the_armor_line_and_said(via):
    """Armor no catalog item stands for: the line of a system that has no PD carries the
    deflection, an info loss at each armor line says so, and PD and locations come back exactly."""
    there, back = _there_and_back(api.from_plain(VAULT_GUARD), via)
    said = [x for x in there.losses if "GURPS 3e PD" in x.message]
    assert all((x.kind, x.level) == ("kept-verbatim", "info") for x in said)
    # each armor's at its own line (the Polish sheet's too, though its list is pancerz: it had been
    # said of the whole sheet, both armors in one line)
    assert [x.path for x in said] == ["$.armor[0]", "$.armor[1]"]
    assert said[0].message.startswith("Light body armor: deflection 2 (")
    assert said[1].message.startswith("Old steel pot: deflection 3 (")
    assert [(a.name, a.PD, a.locations) for a in back.armor] == [("Light body armor", 2, ["torso", "vitals"]),
                                                                ("Old steel pot", 3, ["head"])]


def test_gurps_sheet_pd_is_the_neutral_deflection(gurps):
    neutral = api.convert(THUG, "neutral", fresh=True, trace=False).document
    (jacket,) = neutral.armor
    assert (jacket.deflection, jacket.catalog, jacket.covers) == (1, "heavy-leather-jacket", ["torso", "arms"])


def test_sheet_dr_is_kept_where_it_is_not_the_catalog_items():
    """The thug's jacket says DR 2, its catalog item stops 20 J (DR 1): the sheet's DR is kept
    (said, assumed) and comes back DR 2 from CoC with nothing remembered (it came back DR 1)."""
    there, back = _there_and_back(THUG, "coc")
    assert _armor(back) == [("Heavy leather jacket", 1, 2, ["torso", "arms"])]
    assert any(x.rule == "gurps.armor" and "DR 2 is not the DR of its catalog item" in x.message
               for x in there.losses)


def test_coc_heavy_leather_jacket_gets_the_catalog_pd():
    """CoC's heavy leather jacket became GURPS DR 1 / PD 0; the catalog item's deflection (3e's
    leather jacket, PD 1) now gives PD 1."""
    npc = api.convert(ROOT / "fixtures/coc/npcs/hunter_rifle.yaml", "gurps", fresh=True, trace=False).document
    assert _armor(npc) == [("Heavy leather jacket", 1, 1, ["torso", "arms"])]


def test_every_catalog_armor_states_its_deflection():
    cat = default_registry().catalog().armor
    assert all(a.deflection is not None for a in cat.values()), [a.id for a in cat.values() if a.deflection is None]
    assert {k: cat[k].deflection for k in ("elephant-hide", "winter-coat", "heavy-leather-jacket", "nij-iiia-vest",
                                           "military-body-armor", "pasgt-helmet", "chain-mail", "full-riot-gear")} == {
        "elephant-hide": 0, "winter-coat": 0, "heavy-leather-jacket": 1, "nij-iiia-vest": 2,
        "military-body-armor": 2, "pasgt-helmet": 3, "chain-mail": 3, "full-riot-gear": 3}


@pytest.mark.parametrize("armor, pd", [
    (Armor(name="Kevlar vest", kind="soft-vest", stops=Energy(970.0)), 2),
    (Armor(name="Steel helmet", stops=Energy(350.0)), 3),  # a helmet by its name
    (Armor(name="Leather coat", kind="garment", stops=Energy(20.0)), 1),
    (Armor(name="Mystery vest", stops=Energy(1480.0)), 2),  # no kind, but it stops a bullet
    (Armor(name="Scarf", stops=Energy(5.0)), 0),
])
def test_pd_of_armor_nothing_rates_is_assumed_by_kind(gurps, armor, pd):
    col = Collector("gurps")
    assert gurps.armor_from_neutral(armor, col, "$.armor[0]").PD == pd
    said = [x for x in col.losses if x.rule == "gurps.pd"]
    assert len(said) == 1 and said[0].kind == "assumed" and f"PD {pd} assumed" in said[0].message


def test_a_stated_deflection_is_written_as_pd_with_nothing_assumed(gurps):
    col = Collector("gurps")
    a = Armor(name="Scale vest", kind="garment", stops=Energy(100.0), deflection=3)
    assert gurps.armor_from_neutral(a, col, "$.armor[0]").PD == 3
    assert not [x for x in col.losses if x.rule == "gurps.pd"]


def test_shot_target_armor_pd_crosses(gurps):
    """A GURPS shot's target armor (Kevlar vest PD 2) lost its PD ("no neutral equivalent")."""
    loaded = api.load(ROOT / "fixtures/gurps/scenarios/alley_at_night.yaml")
    native = loaded.document.scenes[0].shots[1]
    res = gurps.shot_to_neutral(native)
    assert res.value.target.armor[0].deflection == 2
    assert not [x for x in res.losses if "PD" in x.path]
    assert gurps.shot_from_neutral(res.value).value.target_armor[0].PD == 2


# ---- 1b. PD in the close-combat defence (core.melee, Gurps.melee_check_at) -----------------

def _item(name: str):
    return next(it for it in MELEE_BATTERY if it.name == name)


def test_pd_adds_to_the_dodge(gurps):
    """Axe/Mace-12 at ST 10 against the adult in the heavy leather jacket (PD 1) who dodges: the
    dodge is 5 + 3 stepping back + PD 1 = 9 (37.5%), not 8 (25.9%). A hit: a critical (3-4) or a
    success (12 or less) he fails to dodge: 4/216 + 156/216 x 5/8 = 203/432."""
    check = gurps.melee_check_at(_item("heavy leather jacket, adult who dodges"), "Axe/Mace", 12,
                                 {"ST": 10, "@class": "club"})
    assert success(9) == Fraction(3, 8)
    assert check.chance == Fraction(203, 432)
    assert any("+ PD 1 of the armor: 37.5%" in n for n in check.notes)


def test_pd_alone_defends_the_surprised_adult(gurps):
    """No active defence: the jacket's PD 1 alone (a 3 or 4 always succeeds, 4/216) still turns a
    blow: 4/216 + 156/216 x 212/216."""
    check = gurps.melee_check_at(_item("heavy leather jacket, surprised adult"), "Axe/Mace", 12,
                                 {"ST": 10, "@class": "club"})
    assert check.chance == Fraction(4, 216) + Fraction(156, 216) * Fraction(212, 216)
    assert any("only the armor's PD 1" in n for n in check.notes)


def test_no_armor_no_pd(gurps):
    check = gurps.melee_check_at(_item("adult who dodges"), "Axe/Mace", 12, {"ST": 10, "@class": "club"})
    assert check.chance == Fraction(4, 216) + Fraction(156, 216) * (1 - success(8))


# ---- 2. coverage --------------------------------------------------------------------------

def test_full_riot_gear_covers_head_to_foot():
    """The nWoD SWAT officer's full riot gear was written on the torso alone."""
    npc = api.convert(ROOT / "fixtures/nwod/npcs/swat-officer.yaml", "gurps", fresh=True, trace=False).document
    (gear,) = npc.armor
    assert (gear.name, gear.PD, gear.DR) == ("Full riot gear", 3, 24)
    assert gear.locations == ["head", "face", "neck", "torso", "vitals", "arms", "legs"]


def test_nwod_armor_found_by_name_keeps_its_coverage():
    """The gang enforcer's heavy leather jacket (no catalog id) covers torso and arms, PD 1."""
    npc = api.convert(ROOT / "fixtures/nwod/npcs/gang-enforcer.yaml", "gurps", fresh=True, trace=False).document
    assert _armor(npc) == [("Heavy leather jacket", 1, 1, ["torso", "arms"])]


def test_an_nwod_armor_line_of_no_catalog_item_says_what_it_assumed():
    """A Kevlar vest (thin) 1/2 names no catalog item: its ballistic 2 is read on the assumed
    joules scale and the piece as a soft vest by that rating. Both are said, as every system
    says a line read from its points; before, the kind appeared only as a coc sheet's
    'kind 'soft-vest': no place for it ... dropped', a value the sheet never stated."""
    conv = api.convert(ROOT / "fixtures/nwod/npcs/patrol-officer.yaml", "coc", fresh=True, trace=False)
    said = [x for x in conv.losses if x.path == "$.armor[0].ballistic"]
    assert [(x.kind, x.rule, x.system) for x in said] == [("assumed", "nwod.armor", "nwod")], said
    assert "'Kevlar vest (thin)' not in the catalog; stops read from ballistic 2" in said[0].message
    assert said[0].message.endswith("a soft-vest by its ballistic rating")
    # a catalog item by its name says nothing of the kind: the catalog states it
    riot = api.convert(SWAT, "coc", fresh=True, trace=False).losses
    assert not [x for x in riot if "not in the catalog" in x.message]


@pytest.mark.parametrize("via", OTHERS)
def test_riot_gear_keeps_every_location_through_every_system(via):
    source = {"system": "gurps", "kind": "npc", "name": "SWAT", "armor": [
        {"name": "Riot suit", "PD": 3, "DR": 24, "locations": ["head", "torso", "arms", "legs"]}]}
    _, back = _there_and_back(api.from_plain(source), via)
    assert back.armor[0].locations == ["head", "torso", "arms", "legs"] and back.armor[0].PD == 3


def test_polish_sheet_states_what_its_armor_covers():
    """pl-trudnosc said 'armor points carry no coverage; torso assumed' and dropped it."""
    conv = api.convert(api.from_plain(VAULT_GUARD), "pl-trudnosc", fresh=True, trace=False)
    pancerz = conv.document.pancerz
    assert [(p.nazwa, p.osłania, p.odbicie) for p in pancerz] == [("Light body armor", ["torso", "vitals"], 2),
                                                                  ("Old steel pot", ["head"], 3)]
    assert not [x for x in conv.losses if x.path.endswith("covers")]


# ---- a full kit is not its plates everywhere ----------------------------------------------

SWAT = ROOT / "fixtures/nwod/npcs/swat-officer.yaml"


def test_full_riot_gear_has_its_plates_on_the_torso_only(gurps):
    # the catalog's full riot gear: NIJ III plates (3440 J), a IIIA helmet (1480 J), limb shells
    # (100 J); one DR 24 everywhere put rifle plates on the arms
    conv = api.convert(SWAT, "gurps", fresh=True)
    (gear,) = [a for a in conv.document.armor if a.name == "Full riot gear"]
    lad = gurps.ladders()["dr"]
    assert gear.DR == int(lad.native(3440.0))
    assert gear.DR_at == {"head": int(lad.native(1480.0)), "face": int(lad.native(1480.0)),
                          "neck": int(lad.native(1480.0)), "arms": int(lad.native(100.0)),
                          "legs": int(lad.native(100.0))}
    assert gear.DR_at["arms"] < gear.DR_at["head"] < gear.DR
    assert "*DR\\_at*: a lower DR" in api.dump(conv, "md").decode()


@pytest.mark.parametrize("via", ["gurps", "coc", "nwod"])
def test_the_kits_parts_come_back_from_every_system(via):
    there = api.convert(SWAT, via, fresh=True)
    back = api.convert(api.from_plain(codec.to_builtins(there.document), "x", via), "neutral", fresh=True)
    (gear,) = [a for a in back.document.armor if a.name == "Full riot gear"]
    assert float(gear.stops_on("arms")) == 100 and float(gear.stops_on("head")) == 1480
    assert float(gear.stops_on("torso")) == 3440


def test_a_gurps_lines_own_lower_dr_is_read_and_written_back(gurps):
    line = {"name": "Home-made kit", "PD": 2, "DR": 12, "locations": ["head", "torso", "arms"],
            "DR_at": {"head": 4, "arms": 2}}
    npc = {"system": "gurps", "kind": "npc", "name": "Holder", "armor": [line]}
    neutral = api.convert(npc, "neutral").document.armor[0]
    assert float(neutral.stops_on("arms")) < float(neutral.stops_on("head")) < float(neutral.stops)
    back = api.convert(npc, "gurps", fresh=True).document.armor[0]
    assert (back.DR, back.DR_at) == (12, {"head": 4, "arms": 2})


def test_a_part_stopping_more_than_the_piece_is_one_clear_error():
    from xsys.core.errors import InputError

    npc = {"system": "neutral", "kind": "npc", "name": "Bad",
           "armor": [{"name": "Kit", "stops": "100 J", "covers": ["torso", "arms"], "stops_at": {"arms": "500 J"}}]}
    with pytest.raises(InputError) as err:
        api.convert(npc, "coc")
    assert err.value.path == "$.armor[0].stops_at.arms" and "found 500 J" in str(err.value)


def test_a_gurps_armor_line_of_no_catalog_item_says_what_it_assumed():
    """A vest of no catalog item at DR 12 stops what DR 12 stands for on the assumed gurps.armor
    scale: said, as every system says it (it was not: only a DR off the scale was)."""
    doc = {"system": "gurps", "kind": "npc", "name": "Courier", "ST": 10, "DX": 11, "IQ": 10, "HT": 11,
           "armor": [{"name": "Tactical vest", "PD": 2, "DR": 12}]}
    conv = api.convert(api.from_plain(doc), "coc", fresh=True, trace=False)
    said = [(x.kind, x.message, x.rule) for x in conv.losses if x.path == "$.armor[0].DR"]
    assert said == [("assumed", "armor 'Tactical vest' not in the catalog; stops read from DR 12 (912 J)",
                     "gurps.armor")]
