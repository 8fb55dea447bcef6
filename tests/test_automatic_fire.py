"""An automatic rifle stays automatic, and the nWoD chart's own 5.56 mm example is one weapon
in every system. A GM read the SWAT officer's Steyr AUG as coc7 "uses per round 1" and GURPS
"RoF 1", with a warning that 'auto' had no place on those sheets (the MP-5 beside it read "full
auto"), and as coc/coc7 2d6+4, the .30-06 line, while the M4 read 2d6: the AUG was no catalog
weapon, so it crossed as "a rifle of 2000 J"."""

from __future__ import annotations

from pathlib import Path

from xsys.conversions import api
from xsys.core.model import Weapon
from xsys.core.registry import default_registry
from xsys.core.units import Energy

ROOT = Path(__file__).resolve().parent.parent
SWAT = ROOT / "fixtures/nwod/npcs/swat-officer.yaml"


def _converted(to: str):
    return api.convert(api.load(SWAT), to, fresh=True, trace=False)


def test_the_nwod_assault_rifle_is_the_catalog_steyr_aug_in_every_system():
    lines = {}
    for to in ("coc", "coc-zh", "coc7", "gurps"):
        (aug,) = [w for w in _converted(to).document.weapons if w.name == "Steyr AUG"]
        assert aug.catalog == "steyr-aug"
        lines[to] = str(aug.damage).lower()
    # coc's 5.56x45mm line, kept by 7th edition (coc7.conversion.6e); GURPS by its energy ladder
    assert lines == {"coc": "2d6", "coc-zh": "2d6", "coc7": "2d6", "gurps": "5d"}
    m4 = api.convert(api.load(ROOT / "fixtures/coc-zh/npcs/pmc_contractor.yaml"), "coc7", fresh=True, trace=False)
    assert [(w.catalog, w.damage, w.uses_per_round) for w in m4.document.weapons] == [
        ("m4-carbine", "2D6", "1 or 3-round burst")]


def test_an_automatic_rifle_fires_full_auto_on_coc7_and_gurps_sheets():
    for to, field, want in (("coc7", "uses_per_round", "1 or full auto"), ("gurps", "RoF", "12*")):
        conv = _converted(to)
        (aug,) = [w for w in conv.document.weapons if w.name == "Steyr AUG"]
        assert getattr(aug, field) == want
        assert not [x for x in conv.losses if "fire_modes" in x.message and "auto" in x.message], to


def test_a_gun_with_no_line_of_its_own_fires_as_it_does():
    """No catalog row: the class's line, but an automatic weapon says so (coc7.weapons,
    gurps.weapon-stats: RoF = cyclic rate / 60, marked *)."""
    reg = default_registry()
    auto = Weapon(name="Some assault rifle", weapon_class="rifle", muzzle_energy=Energy(1800),
                  fire_modes=["semi", "auto"], cyclic_rate=600)
    bolt = Weapon(name="Some hunting rifle", weapon_class="rifle", muzzle_energy=Energy(3000))
    coc7, gurps = reg.system("coc7"), reg.system("gurps")
    assert (coc7.weapon_defaults(auto).uses_per_round, coc7.weapon_defaults(bolt).uses_per_round) == (
        "1 or full auto", "1")
    assert (gurps.weapon_stats(auto).RoF, gurps.weapon_stats(bolt).RoF) == ("10*", "1")
    # and read back, the coc7 line is an automatic weapon again
    line = coc7.weapon_defaults(auto)
    assert coc7.weapon_to_neutral(msgspec_replace(line, catalog=None, muzzle_energy=Energy(1800))).fire_modes == [
        "semi", "auto"]


def msgspec_replace(struct, **changes):
    import msgspec

    return msgspec.structs.replace(struct, **changes)
