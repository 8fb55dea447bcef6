"""What the d100 family's systems state alike converts one way in coc, coc-zh and coc7
(core.percentile.PercentileSystem): a shot's named weapon, skill value, DEX, light word and aids,
cover and target armor (core.percentile.D100_SHOT, converted by core.shotsheet), and a stat block's weapon
line (line_weapon_to_neutral). The same shot or line says the same things in each edition, and
each system converts only its own fields."""

from __future__ import annotations

import msgspec
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


# ---- the declared shot words (each system's shot_sheet.words, core.shotsheet) ----------------

WORDS = {  # each system's declared words, a value other than its default, and the neutral value it reads as
    "coc": [("careful_aim", True, "shooter.aim_time"), ("target_exposure", "half", "target.cover.exposure")],
    "coc7": [("aiming", True, "shooter.aim_time"), ("shooter_running", True, "shooter.speed"),
             ("target_full_speed", True, "target.speed"), ("target_cover", "partially concealed",
                                                          "target.cover.exposure")],
}


def _at(doc, path):
    for name in path.split("."):
        doc = getattr(doc, name)
    return float(doc)


@pytest.mark.parametrize("system,field,value,path", [(s, *w) for s, ws in WORDS.items() for w in ws])
def test_a_declared_shot_word_reads_as_its_rows_value_and_comes_back(system, field, value, path):
    from xsys.core.registry import default_registry

    sys_ = default_registry().system(system)
    word = next(w for w in sys_.shot_sheet.words if w.field == field)
    ladder = sys_.ladders()[word.ladder]
    step = ladder.step_labelled(value) if word.form == "label" else ladder.step_of(int(value))
    neutral = api.convert(_shot(system, weapon="colt-m1911a1", **{field: value}), "neutral").document
    default = 1.0 if path.endswith("exposure") else 0.0  # in the open, not aiming, not moving
    assert _at(neutral, path) == pytest.approx(float(step.rep)) != default
    back = api.convert(api.from_plain({"system": "neutral", "kind": "shot", **codec.to_builtins(neutral)}), system)
    assert getattr(back.document, field) == value


def test_a_speed_below_the_7e_threshold_is_said_as_no_modifier():
    doc = {"system": "neutral", "kind": "shot", "name": "jog", "distance": "10 m",
           "shooter": {"skill": 0.5, "speed": "2 m/s"}, "target": {"speed": "3 m/s"},
           "weapon": {"name": "Colt", "catalog": "colt-m1911a1", "weapon_class": "handgun", "muzzle_energy": "400 J"}}
    conv = api.convert(api.from_plain(doc, file="shot.yaml"), "coc7")
    said = {x.path: (x.kind, x.message, x.rule) for x in conv.losses}
    assert said["$.shooter.speed"] == ("rounded", "2 m/s is below the 7e threshold; no modifier", "coc7.shooter-running")
    assert said["$.target.speed"] == ("rounded", "3 m/s is below the 7e threshold; no modifier", "coc7.fast-target")
    assert conv.document.shooter_running is False and conv.document.target_full_speed is False


def test_a_shot_word_naming_no_field_of_the_shot_is_refused_when_the_class_is_defined():
    from xsys.core.shotsheet import ShotWord
    from xsys.plugins.coc7 import Coc7System

    sheet = Coc7System.shot_sheet
    with pytest.raises(TypeError, match="its field is not one of"):
        type("Broken", (Coc7System,), {"shot_sheet": msgspec.structs.replace(
            sheet, words=(ShotWord("aim", "shooter.aim_time", "aim"),))})
    with pytest.raises(TypeError, match="its neutral path is not one of"):
        type("Broken", (Coc7System,), {"shot_sheet": msgspec.structs.replace(
            sheet, words=(ShotWord("aiming", "shooter.aim", "aim"),))})


# ---- a stated armor value wins over its catalog item's (one answer in every d100 system) ----

# (coc-zh's armor list is its rule text's: an item it names is its row, stated otherwise or not,
# said as assumed: tests/test_coc_zh*.py)
ARMOR_NPC = {"coc": "fixtures/coc/npcs/investigator_38.yaml", "coc7": "fixtures/coc7/npcs/silas_crane.yaml"}
ARMOR_LINE = {  # the catalog's Heavy Kevlar vest (1480 J), stated at another value: (line, points field)
    "coc": ({"name": "Heavy Kevlar vest", "A": 12, "B": 0}, "A"),
    "coc7": ({"name": "Heavy Kevlar vest", "armor": 10}, "armor"),
}


@pytest.mark.parametrize("system", sorted(ARMOR_LINE))
def test_a_sheets_armor_value_wins_over_its_catalog_items_and_is_said(system):
    import yaml

    from xsys.core.registry import default_registry

    line, field = ARMOR_LINE[system]
    doc = {**yaml.safe_load(open(ARMOR_NPC[system], encoding="utf-8")), "armor": [line]}
    sys_ = default_registry().system(system)
    row = sys_.armor_ladders()["armor.worn"]
    conv = api.convert(api.from_plain(doc, file="npc.yaml"), "neutral")
    (vest,) = conv.document.armor
    assert float(vest.stops) == row.neutral(line[field]) != 1480.0  # the sheet's value, not the item's
    assert vest.kind == "soft-vest"  # still the catalog item in what it is
    said = [x for x in conv.losses if x.path == f"$.armor[0].{field}"]
    assert len(said) == 1 and said[0].kind == "assumed"
    assert "is not the armor of its catalog item heavy-kevlar-vest (1480 J" in said[0].message
    assert "is kept" in said[0].message
    back = api.convert(codec.to_builtins(conv.document), system, fresh=True).document
    assert getattr(back.armor[0], field) == line[field]  # written again from what it stops


@pytest.mark.parametrize("system", sorted(ARMOR_LINE))
def test_a_sheets_armor_value_that_is_its_catalog_items_says_nothing(system):
    import yaml

    from xsys.core.registry import default_registry

    line, field = ARMOR_LINE[system]
    item = default_registry().system(system).armor_ladders()["armor.worn"].native(1480.0)
    doc = {**yaml.safe_load(open(ARMOR_NPC[system], encoding="utf-8")), "armor": [{**line, field: item}]}
    conv = api.convert(api.from_plain(doc, file="npc.yaml"), "neutral")
    assert float(conv.document.armor[0].stops) == 1480.0
    assert not [x for x in conv.losses if x.path.startswith("$.armor[0]")]
