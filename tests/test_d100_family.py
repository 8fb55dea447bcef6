"""What the d100 family's systems state alike converts one way in coc, coc-zh and coc7
(core.percentile.PercentileSystem): a shot's named weapon, skill value, DEX, light word and aids,
cover and target armor (shot_parts_to_neutral / shot_parts_from_neutral), and a stat block's weapon
line (line_weapon_to_neutral). The same shot or line says the same things in each edition, and
each system converts only its own fields."""

from __future__ import annotations

import pytest

from xsys.conversions import api
from xsys.core import codec
from xsys.core.errors import InputError

D100 = ("coc", "coc-zh", "coc7")
SKILL = {"coc": "Handgun", "coc-zh": "Handgun", "coc7": "Firearms (Handgun)"}
RIFLE = {"coc": "Rifle", "coc-zh": "Rifle", "coc7": "Firearms (Rifle/Shotgun)"}
DEX = {"coc": 14, "coc-zh": 14, "coc7": 70}


def _shot(system: str, **fields) -> api.Loaded:
    doc = {"system": system, "kind": "shot", "name": "test", "distance": "10 m", "skill_value": 50, **fields}
    return api.from_plain(doc, file="shot.yaml")


def _kinds(conv, path: str) -> list[str]:
    return sorted(x.kind for x in conv.losses if x.path == path)


@pytest.mark.parametrize("system", D100)
def test_an_unknown_catalog_id_is_refused_in_every_d100_shot(system):
    with pytest.raises(InputError) as exc:
        api.convert(_shot(system, weapon="my gun", catalog="no-such-gun"), "neutral")
    assert exc.value.path == "$.catalog" and exc.value.found == "'no-such-gun'"


@pytest.mark.parametrize("system", D100)
def test_a_weapon_of_no_catalog_says_what_it_assumed_alike(system):
    conv = api.convert(_shot(system, weapon="Grandpa's revolver"), "neutral")
    said = {x.path: (x.kind, x.message) for x in conv.losses}
    assert said["$.skill"] == ("assumed", "\"Grandpa's revolver\" is not a catalog weapon and the shot names no "
                                          f"skill; its name says a revolver: fired with {SKILL[system]}")
    assert said["$.weapon"] == ("assumed", "\"Grandpa's revolver\" is not a catalog weapon; the muzzle energy of "
                                           "a generic revolver")
    assert conv.document.weapon.weapon_class == "revolver"


@pytest.mark.parametrize("system", D100)
def test_a_stated_skill_other_than_the_weapons_is_merged(system):
    conv = api.convert(_shot(system, weapon="colt-m1911a1", skill=RIFLE[system]), "neutral")
    assert _kinds(conv, "$.skill") == ["merged"]
    assert f"{RIFLE[system]} with a handgun: the neutral shot rolls {SKILL[system]}" in \
        [x.message for x in conv.losses if x.path == "$.skill"][0]


@pytest.mark.parametrize("system", D100)
def test_dex_light_and_skill_are_traced_alike(system):
    conv = api.convert(_shot(system, weapon="colt-m1911a1", DEX=DEX[system]), "neutral", trace=True)
    paths = [t.path for t in conv.trace]
    assert "$.DEX" in paths and "$.skill_value" in paths
    dex = conv.document.shooter.characteristics["dexterity"]
    assert 0.8 < dex < 0.95  # DEX 14 (70 in 7th edition): well above the median adult


@pytest.mark.parametrize("system", D100)
def test_a_shot_round_trips_through_neutral(system):
    loaded = _shot(system, weapon="colt-m1911a1", DEX=DEX[system], light_aids=["flashlight"],
                   cover={"material": "hard-wood", "thickness": "5 cm"})
    there = api.convert(loaded, "neutral")
    back = api.convert(api.from_plain({"system": "neutral", "kind": "shot",
                                       **codec.to_builtins(there.document)}), system, fresh=True)
    doc = back.document
    assert (doc.weapon, doc.skill_value, doc.DEX, doc.light_aids) == ("colt-m1911a1", 50, DEX[system], ["flashlight"])
    assert doc.cover is not None and doc.cover.material == "hard-wood" and doc.sights is None


# ---- a stat block's weapon line (PercentileSystem.line_weapon_to_neutral) -------------------------

C6 = {"STR": 12, "CON": 12, "SIZ": 13, "DEX": 12, "APP": 10, "INT": 13, "POW": 11, "EDU": 14}
LINES = {
    "coc": ({"name": "Police .38 revolver", "skill": "Handgun", "damage": "1d10+2", "base_range": "15 yd"},
            {"name": "M1 Garand", "skill": "Rifle", "damage": "2d6+4", "base_range": "110 yd", "burst": True}),
    "coc7": ({"name": "Police .38 revolver", "skill": "Firearms (Handgun)", "damage": "1D10+2", "base_range": "15 yd"},
             {"name": "M1 Garand", "skill": "Firearms (Rifle/Shotgun)", "damage": "2D6+4", "base_range": "110 yd",
              "uses_per_round": "1 or full auto"}),
}


def _npc_weapons(system: str):
    chars = C6 if system == "coc" else {k: v * 5 for k, v in C6.items()}
    doc = {"system": system, "kind": "npc", "name": "x", **chars, "weapons": list(LINES[system])}
    return api.convert(api.from_plain(doc), "neutral")


@pytest.mark.parametrize("system", ("coc", "coc7"))
def test_a_weapon_line_reads_as_the_same_weapon_in_either_edition(system):
    conv = _npc_weapons(system)
    revolver, garand = conv.document.weapons
    # a name that states its cartridge: a revolver of the energy its dice stand for, and the
    # dice that are not .38 Special's are said (a sheet written again rolls the cartridge's)
    assert (revolver.catalog, revolver.weapon_class, float(revolver.muzzle_energy)) == (None, "revolver", 880.0)
    said = [(x.kind, x.message) for x in conv.losses if x.path == "$.weapons[0].damage"]
    assert [k for k, _ in said] == ["assumed", "merged"]
    assert "its name states .38 Special, whose damage is 1" in said[1][1]
    # the catalog M1 Garand, with the automatic fire the line states
    assert (garand.catalog, garand.fire_modes) == ("m1-garand", ["semi", "auto"])
