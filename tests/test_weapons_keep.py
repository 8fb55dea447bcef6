"""Weapons keep what they are: a converted weapon keeps its class, its name and
its catalog item wherever the target system can say them, and one cartridge has one damage
line in each system.

Every round trip here is converted afresh (``fresh=True``): the source a converted document
remembers (``xsys.origin``) would hand the original back and hide what the systems lose."""

from __future__ import annotations

import os
from collections import defaultdict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xsys.conversions import api
from xsys.conversions.documents import read_plain
from xsys.core import codec
from xsys.core.catalog import strip_entry
from xsys.core.percentile import LONG_GUNS
from xsys.core.registry import catalog
from xsys.core.trace import STRICT_KINDS
from xsys.core.vocab import (CARTRIDGES, CLASS_WORDS as WEAPON_CLASSES_WORDS, WEAPON_CLASSES, cartridge_in_name,
                             cartridge_of, holds_word)

SYSTEMS = ["coc", "coc7", "coc-zh", "gurps", "nwod", "pl-trudnosc"]
PAIRS = [(a, b) for a in SYSTEMS for b in SYSTEMS if a != b]
EXAMPLES = int(os.environ.get("XSYS_PROPERTY_EXAMPLES", 10))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))

# What each system's own weapon line holds of a weapon that is not in the catalog: the
# class it reads back as (a catalog weapon keeps its class everywhere). CoC and GURPS fire
# revolvers with the pistol skill and carbines with the rifle skill (coc-ja.skills, gurps
# skill list); nWoD has revolver lines but no carbine line (WoD p. 170); the Polish text has
# short, long and thrown weapons only (pl.shoot, pl.grenade).
MERGES = {
    "coc": {"revolver": "handgun", "carbine": "rifle"},
    "coc7": {"revolver": "handgun", "carbine": "rifle"},
    "coc-zh": {"revolver": "handgun", "carbine": "rifle"},
    "gurps": {"revolver": "handgun", "carbine": "rifle"},
    "nwod": {"carbine": "rifle"},
    "pl-trudnosc": {"revolver": "handgun", "smg": "rifle", "carbine": "rifle", "shotgun": "rifle", "mg": "rifle"},
}
ENERGY = {"handgun": (150, 1200), "revolver": (200, 1500), "smg": (300, 900), "carbine": (900, 2200),
          "rifle": (1500, 6000), "shotgun": (1800, 3200), "mg": (2500, 5000), "thrown": (20, 100)}


# Names that do not say the long gun they are: a Polish sheet keeps the kind a long weapon's name
# says ("Test smg" comes back an SMG through its broń długa: pl.shoot), as every system keeps a
# revolver its name says; these test what a system holds by its lines alone.
UNSAID = {"smg": "Test chopper", "carbine": "Test saddle piece", "shotgun": "Test boomstick", "mg": "Test gimpy"}


def held(system: str, cls: str) -> str:
    return MERGES[system].get(cls, cls)


def fresh(plain, to):
    """A document converted afresh, as plain data (what a file holds, without `xsys`)."""
    conv = api.convert(api.from_plain(plain), to, fresh=True, trace=False)
    return codec.to_builtins(conv.document), conv.losses


def weapons_of(plain):
    """(name, class, catalog) of every combatant's and every shot's weapon, in the neutral model."""
    doc = api.convert(api.from_plain(plain), "neutral", fresh=True, trace=False).document
    out = []
    for sc in doc.scenes:
        out += [("npc", w.name, w.weapon_class, w.catalog) for c in sc.combatants for w in c.weapons]
        out += [("shot", s.weapon.name, s.weapon.weapon_class, s.weapon.catalog) for s in sc.shots]
    return out


def scenario(weapons):
    return {"system": "neutral", "kind": "scenario", "name": "Armoury", "scenes": [{
        "name": "range",
        "combatants": [{"name": "Shooter", "characteristics": {"dexterity": 0.5, "strength": 0.5},
                        "skills": {"handgun": 0.5, "rifle": 0.5}, "weapons": weapons}],
        "shots": [{"name": f"shot {i}", "shooter": {"name": "Shooter", "skill": 0.5,
                                                    "characteristics": {"dexterity": 0.5, "strength": 0.5}},
                   "weapon": w, "distance": "20 m"} for i, w in enumerate(weapons)]}]}


def _plain_weapon(entry, name=None):
    w = codec.to_builtins(strip_entry(entry))  # the entry as a neutral weapon, with its catalog id
    if name:
        w["name"] = name
    return w


CATALOG_IDS = sorted(catalog().weapons)
# names that say no kind of gun (no class word: "Smg #6" on a machine gun would come back the SMG
# its name says from a Polish sheet, pl.shoot): these test what a system holds by its lines alone
KIND_WORDS = {w for k in WEAPON_CLASSES_WORDS for w in k.replace("-", " ").split()}
NAME = st.from_regex(r"[A-Z][a-z0-9]{1,7}( [A-Za-z0-9\-]{1,7}){0,2}", fullmatch=True).filter(
    lambda n: not KIND_WORDS & set(n.lower().replace("-", " ").split())
    # a kind's word as the readers find it ("Smg0": a word may run into a number, vocab.holds_word)
    and not holds_word(n, tuple(KIND_WORDS))
    and not (cartridge_in_name(n) or "").endswith(" gauge"))  # nor a shotgun's gauge ("12g")


@st.composite
def armouries(draw):
    """A weapon of every class that is in no catalog, with a name and energy of its own, and
    two catalog weapons, one under a name of its own."""
    out = []
    for i, cls in enumerate(WEAPON_CLASSES):
        lo, hi = ENERGY[cls]
        out.append({"name": f"{draw(NAME)} #{i}", "weapon_class": cls,
                    "muzzle_energy": f"{draw(st.integers(lo, hi))} J"})
    ids = draw(st.lists(st.sampled_from(CATALOG_IDS), min_size=2, max_size=2, unique=True))
    out.append(_plain_weapon(catalog().weapons[ids[0]]))
    out.append(_plain_weapon(catalog().weapons[ids[1]], f"{draw(NAME)} (a {ids[1]})"))
    return out


@pytest.mark.parametrize("a,b", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
@SETTINGS
@given(weapons=armouries())
def test_weapons_survive_a_fresh_round_trip(a, b, weapons):
    """A -> B -> A afresh: every weapon keeps its name and catalog item, and its class
    wherever B holds what A holds; a catalog weapon keeps its class everywhere."""
    doc = scenario(weapons)
    there, _ = fresh(doc, a)
    base = weapons_of(there)
    # A itself keeps every name and catalog item, and the class its lines hold
    want = [(k, w["name"], w["weapon_class"] if w.get("catalog") else held(a, w["weapon_class"]), w.get("catalog"))
            for k in ("npc", "shot") for w in weapons]
    assert sorted(base) == sorted(want)
    mid, _ = fresh(there, b)
    back, _ = fresh(mid, a)
    got = weapons_of(back)
    assert len(got) == len(base)
    for (kind, name, cls, cat), (kind2, name2, cls2, cat2) in zip(base, got):
        assert (kind2, name2, cat2) == (kind, name, cat), f"{a}->{b}->{a}: {kind} weapon {name!r}"
        expect = cls if cat else held(a, held(b, cls))
        assert cls2 == expect, f"{a}->{b}->{a}: {kind} weapon {name!r} was a {cls}, came back a {cls2}"
        if held(b, cls) == cls:
            assert cls2 == cls
        assert not (cls2 == "handgun" and cls not in ("handgun", "revolver")), "a long arm became a handgun"


@pytest.mark.parametrize("a,b", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_npc_weapons_survive_a_fresh_round_trip(a, b):
    """The same for a stat block on its own (kind npc), every class once."""
    weapons = [{"name": UNSAID.get(cls, f"Test {cls}"), "weapon_class": cls, "muzzle_energy": f"{sum(ENERGY[cls]) // 2} J"}
               for cls in WEAPON_CLASSES]
    weapons.append(_plain_weapon(catalog().weapons["thompson-m1928"], "Grandpa's Tommy gun"))
    npc = {"system": "neutral", "kind": "npc", "name": "Collector", "characteristics": {"dexterity": 0.5},
           "skills": {"handgun": 0.5}, "weapons": weapons}
    there, _ = fresh(npc, a)
    back, _ = fresh(fresh(there, b)[0], a)
    n0 = api.convert(api.from_plain(there), "neutral", fresh=True, trace=False).document
    n2 = api.convert(api.from_plain(back), "neutral", fresh=True, trace=False).document
    assert [w.name for w in n2.weapons] == [w.name for w in n0.weapons]
    assert [w.catalog for w in n2.weapons] == [w.catalog for w in n0.weapons]
    # a name that says revolver is a revolver wherever it is read (core.catalog.Catalog.
    # weapon_class_named), so "Test revolver" comes back a revolver even through a system that
    # fires it with its pistol skill
    for w2, w in zip(n2.weapons, n0.weapons):
        expect = w.weapon_class if w.catalog or w.name == "Test revolver" else held(a, held(b, w.weapon_class))
        assert w2.weapon_class == expect, (w.name, w2.weapon_class, expect)


# ---- worked examples -----------------------------------------------------------------------

SNIPER = {"system": "pl-trudnosc", "kind": "scenario", "name": "Sniper", "scenes": [{"name": "s", "shots": [{
    "nazwa": "strzał", "Motoryka": 5, "umiejętność": 5, "dystans": "95 m",
    "broń": {"nazwa": "Karabin wyborowy", "rodzaj": "długa", "obrażenia": 9}}]}]}


def _check(plain, system):
    (_, shot), = api.shots_of(api.from_plain(plain))[0]
    (res,) = api.odds(shot, [system])
    return res.check


def test_polish_sniper_rifle_is_a_rifle_in_coc_and_back():
    """A Polish sniper rifle at 95 m was checked in CoC as a handgun and came back
    as `rodzaj: krótka` at Trudność 67 (a long weapon at 95 m is Trudność 17)."""
    coc, _ = fresh(SNIPER, "coc")
    shot = coc["scenes"][0]["shots"][0]
    assert shot["weapon"] == "Karabin wyborowy" and shot["skill"] == "Rifle"
    assert _check(coc, "coc").stat == "Rifle"
    back, _ = fresh(coc, "pl-trudnosc")
    bron = back["scenes"][0]["shots"][0]["broń"]
    assert bron["nazwa"] == "Karabin wyborowy" and bron["rodzaj"] == "długa"
    assert bron["obrażenia"] == 9  # the energy crossed too, not a generic handgun's
    assert _check(back, "pl-trudnosc").target == _check(SNIPER, "pl-trudnosc").target == 17


def test_grenade_stays_thrown_through_coc():
    doc = {"system": "pl-trudnosc", "kind": "scenario", "name": "Granat", "scenes": [{"name": "s", "shots": [{
        "nazwa": "rzut", "umiejętność": 2, "dystans": "15 m",
        "broń": {"nazwa": "Granat F-1", "rodzaj": "rzucana", "obrażenia": 2}}]}]}
    coc, _ = fresh(doc, "coc")
    assert coc["scenes"][0]["shots"][0]["skill"] == "Throw"
    back, _ = fresh(coc, "pl-trudnosc")
    assert back["scenes"][0]["shots"][0]["broń"]["rodzaj"] == "rzucana"
    assert back["scenes"][0]["shots"][0]["broń"]["nazwa"] == "Granat F-1"


def test_ingram_mac10_keeps_its_name():
    """"Ingram MAC-10" stays "Ingram MAC-10", not "SMG, Small"."""
    for to in ("coc", "gurps", "pl-trudnosc", "neutral"):
        there = api.convert(api.load("fixtures/nwod/npcs/gang-enforcer.yaml"), to, fresh=True).document
        plain = codec.to_builtins(there)
        names = [w.get("name", w.get("nazwa")) for w in plain.get("weapons", plain.get("broń", []))]
        assert names == ["Ingram MAC-10"], to
        if to != "neutral":
            back, _ = fresh(plain, "nwod")
            assert [w["name"] for w in back["weapons"]] == ["Ingram MAC-10"]
            if held(to, "smg") == "smg":  # the Polish text has long weapons, not SMGs
                assert [w["type"] for w in back["weapons"]] == ["SMG, Small"]


def test_a_named_weapon_in_an_nwod_shot_keeps_its_name():
    """A shot with a weapon that is neither a chart line nor a catalog weapon writes a weapon
    line of its own (it was written as its chart line, its name lost)."""
    mac = {"name": "Ingram MAC-10", "weapon_class": "smg", "muzzle_energy": "500 J", "fire_modes": ["semi", "auto"]}
    shot = {"system": "neutral", "kind": "shot", "name": "spray", "weapon": mac, "distance": "20 m"}
    nw, _ = fresh(shot, "nwod")
    assert nw["weapon"]["name"] == "Ingram MAC-10" and nw["weapon"]["type"] == "SMG, Small"
    n = api.convert(api.from_plain(nw), "neutral", fresh=True).document
    assert (n.weapon.name, n.weapon.weapon_class) == ("Ingram MAC-10", "smg")
    # a chart line stays a chart line, a catalog weapon its catalog id
    garage = api.convert(api.load("fixtures/nwod/scenarios/parking-garage.yaml"), "coc", fresh=True)
    back, _ = fresh(codec.to_builtins(garage.document), "nwod")
    assert [s["weapon"] for s in back["scenes"][0]["shots"]] == ["Assault Rifle", "SMG, Small"] * 2


@pytest.mark.parametrize("to", ["coc", "gurps", "nwod", "pl-trudnosc"])
def test_a_catalog_weapon_under_its_own_name_keeps_both_in_a_shot(to):
    tommy = _plain_weapon(catalog().weapons["thompson-m1928"], "Grandpa's Tommy gun")
    shot = {"system": "neutral", "kind": "shot", "name": "burst", "weapon": tommy, "distance": "15 m"}
    there, _ = fresh(shot, to)
    n = api.convert(api.from_plain(there), "neutral", fresh=True).document
    assert (n.weapon.name, n.weapon.catalog, n.weapon.weapon_class) == ("Grandpa's Tommy gun", "thompson-m1928", "smg")


@pytest.mark.parametrize("wtype,cls", [("Sniper Rifle", "rifle"), ("Hunting Shotgun", "shotgun"),
                                       ("Blaster", "rifle"), ("Zip gun", "handgun")])
def test_an_unknown_nwod_type_is_a_warning_never_a_silent_handgun(wtype, cls):
    npc = {"system": "nwod", "kind": "npc", "name": "Odd", "weapons": [
        {"name": "Odd gun", "type": wtype, "damage": 4 if cls != "handgun" else 1,
         "ranges": ["100 yd", "200 yd", "400 yd"], "size": 3 if cls != "handgun" else 1}]}
    conv = api.convert(api.from_plain(npc), "neutral", fresh=True)
    assert conv.document.weapons[0].weapon_class == cls
    warn = [x for x in conv.losses if x.path == "$.weapons[0].type"]
    assert warn and warn[0].level == "warning" and repr(wtype) in warn[0].message
    assert cls in warn[0].message
    with pytest.raises(api.LossError):
        api.convert(api.from_plain(npc), "coc", fresh=True, strict=True)


# ---- one cartridge, one damage line --------------------------------------------------------

# a gun whose line the system's book prints with a rating of its own, not its cartridge's:
# nWoD's chart gives its example HK MP-5 (9 mm) 3, every other 9 mm gun 2 (WoD p. 170)
PRINTED = {"nwod": {"mp5"}}


def _damage_lines(system):
    """Every catalog weapon as its own stat-block line in `system` (the catalog weapon, and
    a copy of it that is in no catalog but says its calibre): {cartridge: {damage lines}}; a
    long gun's cartridge as "<cartridge> (long gun)" in the d100 systems, whose weapon table
    prints a .22 rifle 1D6+1 beside the .22 pistol's 1D6 (the long guns' damage ladder)."""
    weapons = []
    for e in catalog().weapons.values():
        if e.id in PRINTED.get(system, ()):
            continue
        weapons.append(_plain_weapon(e))
        copy = _plain_weapon(e, f"Copy of {e.name}")
        del copy["catalog"]
        weapons.append(copy)
    npc = {"system": "neutral", "kind": "npc", "name": "Armoury", "weapons": weapons}
    doc, _ = fresh(npc, system)
    lines = doc.get("weapons", doc.get("broń"))
    out = defaultdict(set)
    for w, line in zip(weapons, lines):
        dmg = line.get("damage", line.get("obrażenia"))
        if dmg is None:  # a Polish catalog weapon: its points come from the same rule as the copy's
            continue
        if isinstance(dmg, str):
            dmg = dmg.split("/")[0]  # shotgun dice by range band: the close band
        family = " (long gun)" if system.startswith("coc") and w["weapon_class"] in LONG_GUNS else ""
        out[cartridge_of(w["calibre"]) + family].add(dmg)
    return out


@pytest.mark.parametrize("system", SYSTEMS)
def test_one_cartridge_one_damage_line(system):
    lines = _damage_lines(system)
    assert {k.removesuffix(" (long gun)") for k in lines} == {cartridge_of(e.calibre) for e in catalog().weapons.values()}
    assert {k: v for k, v in lines.items() if len(v) != 1} == {}
    if system.startswith("coc"):  # the one cartridge both families fire: the table's two lines
        assert (lines[".22 LR"], lines[".22 LR (long gun)"]) in (({"1d6"}, {"1d6+1"}), ({"1D6"}, {"1D6+1"}))


def test_thompson_and_m1911_share_the_45_acp_damage():
    """GURPS gave the Thompson 3d and the M1911 2d, nWoD 2 and 3."""
    def line(system, wid):
        doc, _ = fresh({"system": "neutral", "kind": "npc", "name": "x",
                        "weapons": [_plain_weapon(catalog().weapons[wid])]}, system)
        return doc["weapons"][0]["damage"]

    assert line("gurps", "thompson-m1928") == line("gurps", "colt-m1911a1") == "2d"
    assert line("nwod", "thompson-m1928") == line("nwod", "colt-m1911a1") == 3
    assert line("coc", "thompson-m1928") == line("coc", "colt-m1911a1") == "1d10+2"
    assert line("gurps", "mp5") == line("gurps", "glock-17") == "2d+2"
    assert line("nwod", "uzi") == line("nwod", "glock-17") == 2
    assert line("nwod", "mp5") == 3  # the chart's own example gun: SMG Large, Damage 3 as printed


def test_nwod_mp5_has_the_chart_s_printed_damage_from_every_source():
    """A GM reading the nWoD sheet of the SWAT officer saw the MP5 at Damage 2; WoD p. 170 prints 3."""
    from pathlib import Path
    for f in ("coc/npcs/swat_officer.yaml", "pl-trudnosc/npcs/plywak.yaml"):
        doc, _ = fresh(read_plain(Path(__file__).parent.parent / "fixtures" / f), "nwod")
        mp5 = [w for w in doc["weapons"] if w["catalog"] == "mp5"]
        assert [(w["type"], w["damage"]) for w in mp5] == [("SMG, Large", 3)], f


def test_every_catalog_calibre_is_a_known_cartridge():
    for e in catalog().weapons.values():
        assert cartridge_of(e.calibre) in CARTRIDGES, e.calibre


@pytest.mark.parametrize("skill,acc,cls", [("Guns (Light Auto)", 6, "smg"), ("Guns/TL7 (Sniper Rifle)", 13, "rifle"),
                                           ("Guns (Grenade Launcher)", 4, "rifle"), ("Throwing (Grenade)", 0, "thrown"), ("Guns (Flamer)", 8, "rifle")])
def test_an_unknown_gurps_guns_skill_is_a_warning_not_a_lost_weapon(skill, acc, cls):
    """A Guns specialisation the plugin does not list was dropped from the neutral weapons (kept
    for GURPS only): converted to any other system the weapon vanished."""
    npc = {"system": "gurps", "kind": "npc", "name": "Odd",
           "weapons": [{"name": "Odd gun", "skill": skill, "damage": "3d", "Acc": acc}]}
    conv = api.convert(api.from_plain(npc), "neutral", fresh=True)
    assert [(w.name, w.weapon_class) for w in conv.document.weapons] == [("Odd gun", cls)]
    warn = [x for x in conv.losses if x.path == "$.weapons[0].skill"]
    assert warn and warn[0].level == "warning" and repr(skill) in warn[0].message


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_class_the_system_cannot_hold_is_a_warning_and_only_then(system):
    """What a system merges (a revolver fired with the pistol skill, an SMG as a Polish long
    weapon) is a warning at that weapon; a class it holds is reported nowhere. (The revolver is
    named "Test six-gun": a name that says revolver keeps it a revolver in every system.)"""
    weapons = [{"name": UNSAID.get(cls, f"Test {cls}") if cls != "revolver" else "Test six-gun", "weapon_class": cls,
                "muzzle_energy": f"{sum(ENERGY[cls]) // 2} J"} for cls in WEAPON_CLASSES]
    conv = api.convert(api.from_plain(scenario(weapons)), system, fresh=True, trace=False)
    for i, cls in enumerate(WEAPON_CLASSES):
        for where in (f"$.scenes[0].combatants[0].weapons[{i}]", f"$.scenes[0].shots[{i}].weapon"):
            about = [x for x in conv.losses if x.path == f"{where}.weapon_class"]
            if held(system, cls) == cls:
                assert about == [], f"{system}: a {cls} is held, yet {about}"
            else:
                assert any(x.level == "warning" and x.kind in STRICT_KINDS for x in about), \
                    f"{system}: a {cls} becomes a {held(system, cls)} without a warning at {where}"


def test_nwod_writes_the_guns_own_capacity_not_its_chart_lines():
    """A six-shot .38 Special revolver known to no catalog became nWoD's "Pistol, Lt." line, whose
    chart clip is 17 + 1; it is now the "Revolver, Lt." line (its cartridge says revolver,
    nwod.weapon.clip) with the gun's own six rounds and no chambered extra, and the loss report
    has nothing to say about the capacity."""
    from pathlib import Path

    conv = api.convert(Path(__file__).resolve().parent.parent / "fixtures/coc/npcs/dock_brute.yaml", "nwod",
                       fresh=True, trace=False)
    gun = codec.to_builtins(conv.document)["weapons"][0]
    assert gun["type"] == "Revolver, Lt." and gun["clip"] == 6 and not gun.get("chamber"), gun
    assert not any("capacity" in x.message for x in conv.losses), [x.render() for x in conv.losses]


def test_a_gun_with_no_stated_capacity_is_written_with_its_class_usual_one():
    """The Polish sniper's 'Karabin wyborowy' states no capacity: CoC wrote capacity 0, a gun that
    cannot fire. It is now the usual rifle's 5 (coc-ja.reload.magazine, assumed) with an `assumed`
    loss; a stated capacity (the Glock's catalog 17) is kept, and a grenade is one object, said nowhere."""
    from xsys.conversions import api
    from xsys.core import codec

    from pathlib import Path

    src = Path(__file__).resolve().parents[1] / "fixtures" / "pl-trudnosc" / "npcs"
    conv = api.convert(api.load(src / "strzelec_wyborowy.yaml"), "coc", fresh=True)
    weapons = {w["name"]: w for w in codec.to_builtins(conv.document)["weapons"]}
    assert weapons["Karabin wyborowy"]["capacity"] == 5
    assert weapons["Glock 17"]["capacity"] == 17
    said = [x for x in conv.losses if "states no capacity" in x.message]
    assert len(said) == 1 and "Karabin wyborowy" in said[0].message and said[0].rule == "coc-ja.reload.magazine"
    conv = api.convert(api.load(src / "sierzant_kowalski.yaml"), "coc", fresh=True)
    grenade = [w for w in codec.to_builtins(conv.document)["weapons"] if "Granat" in w["name"]][0]
    assert grenade["capacity"] == 1
    assert not [x for x in conv.losses if "states no capacity" in x.message and "Granat" in x.message]


@pytest.mark.parametrize("target,field", [("coc", "capacity"), ("coc7", "capacity"), ("gurps", "Shots"),
                                          ("nwod", "clip")])
def test_a_revolver_no_source_gives_a_capacity_holds_six_rounds_in_every_system(target, field, tmp_path):
    """'S&W M36リボルバー 60% ダメージ 1D10' (a text block, no capacity, no catalog weapon; the
    tanaka-coc-ja.txt fixture's New Nambu M60 was one, until the catalog held it): coc and nWoD
    wrote 6, the coc7 sheet capacity 0 and the GURPS sheet Shots 0, a gun that cannot fire. Every
    system now writes the usual revolver's 6 (core.model.USUAL_CAPACITY, assumed), and the systems
    that write it from that table say so."""
    from pathlib import Path

    from xsys.conversions import api
    from xsys.core import codec

    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "text" / "tanaka-coc-ja.txt"
    text = tmp_path / "detective.txt"
    text.write_text(fixture.read_text(encoding="utf-8").replace("ニューナンブM60", "S&W M36"), encoding="utf-8")
    conv = api.convert(api.load(text), target, fresh=True)
    gun = [w for w in codec.to_builtins(conv.document)["weapons"] if "M36" in w["name"]][0]
    assert gun[field] == 6, gun
    if target in ("coc7", "gurps"):
        assert [x for x in conv.losses if "the usual revolver's" in x.message and x.kind == "assumed"], \
            [x.render() for x in conv.losses]


@pytest.mark.parametrize("name, cls", [("Strzelba myśliwska", "shotgun"), ("Pistolet maszynowy PM-84", "smg"),
                                       ("Ręczny karabin maszynowy", "mg"), ("Karabinek AK", "carbine"),
                                       ("20-gauge Shotgun (2B)", "shotgun"), ("Karabin wyborowy", "rifle")])
def test_a_polish_long_weapon_is_the_long_gun_its_name_says(name, cls):
    """pl.shoot has only short and long weapons: a strzelba was a rifle everywhere (CoC's Rifle
    skill and 2d6+4 for a hunting shotgun). A broń długa of no catalog whose name says which long
    gun it is (Polish or English words, a shotgun gauge) is that one, and comes back so."""
    npc = {"system": "pl-trudnosc", "kind": "npc", "imię": "Myśliwy", "Motoryka": 3, "Percepcja": 3,
           "umiejętności": {"Broń długa": 2}, "broń": [{"nazwa": name, "rodzaj": "długa"}]}
    (w,) = api.convert(api.from_plain(npc), "neutral", trace=False).document.weapons
    assert w.weapon_class == cls
    there = codec.to_builtins(api.convert(api.from_plain(npc), "coc", fresh=True, trace=False).document)
    back, _ = fresh(there, "pl-trudnosc")
    (again,) = api.convert(api.from_plain(back), "neutral", trace=False).document.weapons
    assert again.weapon_class == cls
