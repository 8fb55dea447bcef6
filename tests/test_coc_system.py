"""The coc system: checks, ladders, conversions, monotonicity, the variant API."""

from __future__ import annotations

import glob
from fractions import Fraction as F
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xsys.core import codec
from xsys.core.model import Armor, Barrier, Cover, Light, Shooter, Target, standard_shot
from xsys.core.registry import catalog
from xsys.core.units import Duration, Energy, Illuminance, Length, Speed
from xsys.core.vocab import POSTURES
from xsys.plugins.coc import CocArmor, CocBarrier, CocNpc, CocShot, CocSystem

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures" / "coc"
SYS = CocSystem()

DIGEST_IDS = """coc-ja.aimed.careful-aim coc-ja.aimed.effects coc-ja.aimed.keeper-double coc-ja.aimed.location
coc-ja.armor.shock coc-ja.armor.shotgun-pellets coc-ja.armor.table coc-ja.autofire.dodge-penalty coc-ja.autofire.hits
coc-ja.autofire.optional coc-ja.autofire.order coc-ja.autofire.penalty coc-ja.autofire.suppression
coc-ja.autofire.sweep coc-ja.autofire.untrained coc-ja.close-range coc-ja.conceal.clothing coc-ja.conceal.example
coc-ja.conceal.holster coc-ja.conceal.roll coc-ja.conceal.size coc-ja.darkness.matrix coc-ja.darkness
coc-ja.dodge.count coc-ja.dodge.firearms coc-ja.dodge.sniper coc-ja.door-breach coc-ja.double-tap
coc-ja.encumbrance coc-ja.light.dazzle coc-ja.light.exposure coc-ja.light.flashlight coc-ja.light.technique
coc-ja.mozambique coc-ja.quickdraw.carry coc-ja.quickdraw.grip coc-ja.quickdraw.holster coc-ja.quickdraw.ready
coc-ja.quickdraw.sights coc-ja.quickdraw.single-action coc-ja.quickdraw.skill-bonus coc-ja.quickdraw.str
coc-ja.quickdraw.total coc-ja.reload.belt coc-ja.reload.limits coc-ja.reload.loose-rounds coc-ja.reload.magazine
coc-ja.resistance coc-ja.sight.luminous coc-ja.sight.night-vision coc-ja.sight.nvg coc-ja.sight.thermal
coc-ja.skill.off-hand-shooting coc-ja.stance.braced coc-ja.stance.long-arm-one-hand coc-ja.stance.off-hand
coc-ja.stance.two-guns coc-ja.stance.two-hand""".split()


def native(**kw) -> CocShot:
    kw.setdefault("weapon", "colt-m1911a1")
    kw.setdefault("distance", Length(10))
    kw.setdefault("skill_value", 50)
    return CocShot(**kw)


def pct(check) -> int:
    return int(check.chance * 100)


# ---- registration, description, rule IDs ---------------------------------------------

def test_registered_and_described():
    from xsys.core.registry import get_system

    s = get_system("coc")
    assert isinstance(s, CocSystem)
    assert (s.key, s.name, s.dice) == ("coc", "Call of Cthulhu", "d100 roll-under")


def test_every_digest_rule_id_is_implemented():
    ids = SYS.rule_ids()
    assert set(DIGEST_IDS) <= ids
    digest = Path(__file__).resolve().parents[2] / "shared" / "rules" / "coc-ja-firearms.md"
    if digest.exists():
        import re

        assert set(re.findall(r"`(coc-ja\.[a-z0-9.-]+)`", digest.read_text())) <= ids


def test_every_rule_has_a_source():
    for rid, entry in SYS.tables()["rule"].items():
        assert entry["source"] in ("seed", "assumed"), rid
    for name, lad in SYS.ladders().items():
        for s in lad.steps:
            assert s.rule and s.source in ("seed", "assumed"), name


# ---- resolution ---------------------------------------------------------------------------

@pytest.mark.parametrize("target,success,impale", [(50, 50, 10), (52, 52, 11), (3, 3, 1), (0, 0, 0), (130, 100, 26)])
def test_resolution_d100_and_impale(target, success, impale):
    # coc-ja.resolution: impale on <= ceil(chance / 5)
    out = SYS.resolve(target)
    assert out.success == F(success, 100) and out.critical_success == F(impale, 100)


# ---- the standard shot and skills -------------------------------------------------------------

@pytest.mark.parametrize("skill,level,chance", [("Handgun", 45, 50), ("Rifle", 50, 50), ("Shotgun", 40, 40),
                                                ("SMG", 65, 65), ("Machine Gun", 30, 30), ("Dodge", 34, 34),
                                                ("Handgun", 97, 100)])
def test_standard_shot_at_a_level(skill, level, chance):
    # the handgun standard shot is two-handed: +5 (coc-ja.stance.two-hand)
    cls = SYS.skill_class(skill)
    if cls is None:
        assert SYS.roll_chance(skill, level) == F(chance, 100)
    else:
        assert SYS.check_at(standard_shot(cls), skill, level).chance == F(chance, 100)


def test_skill_conversion_round_trip():
    for skill in ("Handgun", "Rifle", "SMG", "Spot Hidden"):
        lad = SYS.skill_ladder(skill)
        for s in lad.steps:
            assert lad.native(s.rep) == s.native


# ---- worked examples through the check ----------------------------------------------------------

def test_off_hand_example_in_a_check():
    c = SYS.check_native(native(skill_value=50, hold="off-hand", off_hand_skill=40))
    assert pct(c) == 40 and "coc-ja.skill.off-hand-shooting" in c.rules()
    c = SYS.check_native(native(skill_value=50, hold="off-hand"))
    assert pct(c) == 25 and "coc-ja.stance.off-hand" in c.rules()


def test_two_gun_examples_in_a_check():
    assert pct(SYS.check_native(native(skill_value=50, hold="two guns"))) == 10
    assert pct(SYS.check_native(native(skill_value=60, hold="two guns", sights="laser"))) == 60
    assert pct(SYS.check_native(native(skill_value=59, hold="two guns", sights="laser"))) == 12  # ceil(11.8)
    assert pct(SYS.check_native(native(skill_value=50, hold="two guns", off_hand_skill=40))) == 20


def test_shotgun_against_armor_8_takes_no_damage():
    # coc-ja.armor.shotgun-pellets: NIJ IIA (armor 8, coc-ja.armor.table) against 12-gauge shot at
    # 6 m (4d6): no d6 exceeds 8, so the expected damage is exactly 0.
    vest = CocArmor(name="vest", A=8, B=4, catalog="nij-iia-vest")
    c = SYS.check_native(native(weapon="remington-870", skill_value=60, distance=Length(6), target_armor=[vest]))
    assert c.chance == F(60, 100) and c.damage_mean == 0
    bare = SYS.check_native(native(weapon="remington-870", skill_value=60, distance=Length(6)))
    assert bare.damage_mean == pytest.approx(0.6 * 14)


def test_stances_and_range():
    assert pct(SYS.check_native(native(hold="one-handed"))) == 50                      # loses the +5 only
    assert pct(SYS.check_native(native(weapon="mp5", skill_value=60, hold="one-handed"))) == 30
    assert pct(SYS.check_native(native(distance=Length(30)))) == 28                    # coc-ja.range x1/2
    assert pct(SYS.check_native(native(distance=Length(60)))) == 14                    # x1/4 (13.75 up)
    assert pct(SYS.check_native(native(distance=Length(3), DEX=12))) == 100            # point-blank x2
    # braced doubles base range (coc-ja.stance.braced): 30 m is within 2 x 15 m
    assert pct(SYS.check_native(native(distance=Length(30), support="braced"))) == 55


def test_careful_aim_and_location():
    rifle = dict(weapon="winchester-70-30-06", skill_value=60)
    assert pct(SYS.check_native(native(distance=Length(200), **rifle))) == 30
    assert pct(SYS.check_native(native(distance=Length(200), careful_aim=True, **rifle))) == 60  # scope: x2 range
    # coc-ja.aimed.location: <= 1/5 of the chance hits the head; any other success still hits
    c = SYS.check_native(native(distance=Length(50), called_location="head", **rifle))
    assert pct(c) == 60 and "coc-ja.aimed.location" in c.rules()
    assert c.outcomes["location"] == c.outcomes["impale"] == F(12, 100)
    c = SYS.check_native(native(distance=Length(50), called_location="head", keeper_double=True, **rifle))
    assert pct(c) == 100 and c.outcomes["location"] == F(24, 100) and "coc-ja.aimed.keeper-double" in c.rules()


@pytest.mark.parametrize("light,sights,aids,expected", [
    ("daylight", None, [], 55),
    ("dim light", None, [], 28),                     # x1/2 (27.5 up)
    ("starlight", None, [], 11),                     # x1/5
    ("total darkness", None, [], 1),                 # 01%
    ("dim light", "tritium", [], 42),                # x3/4 (41.25 up)
    ("starlight", "tritium", [], 28),                # x1/2
    ("starlight", "nv-sight", [], 55),
    ("total darkness", "nv-sight", [], 1),           # night vision does not cancel total darkness
    ("total darkness", "thermal", [], 55),
    ("starlight", None, ["night-vision goggles"], 55),
    ("total darkness", None, ["flashlight"], 55),
])
def test_darkness_matrix(light, sights, aids, expected):
    c = SYS.check_native(native(light=light, sights=sights, light_aids=aids))
    assert pct(c) == expected


def test_autofire_check():
    c = SYS.check_native(native(weapon="thompson-m1928", skill_value=60, fire="full auto", rounds=10))
    assert c.target == 33 and c.chance == F(60, 100)
    assert c.outcomes["mean_hits"] == sum(h * p for h, p in
                                          __import__("xsys.plugins.coc.rules", fromlist=["x"])
                                          .autofire_hit_distribution(33, 60, 10).items())
    mounted = SYS.check_native(native(weapon="browning-m1919a4", skill="Machine Gun", skill_value=60,
                                      distance=Length(50), fire="full auto", rounds=10, support="mounted"))
    assert mounted.target == 51


def test_a_burst_says_both_numbers_its_roll_is_read_against():
    """coc-ja.autofire.hits: one d100 read against the unmodified chance (one hit) and the
    burst's modified one (a hit plus one per 5 under it). The line said 'roll d100 <= 33' beside a
    60% chance, which no Keeper could square."""
    c = SYS.check_native(native(weapon="thompson-m1928", skill_value=60, fire="full auto", rounds=10))
    assert c.native.endswith("roll d100 <= 60: 1 hit; <= 33: 1 hit + 1 per 5 under 33, at most 10")


def test_double_tap_and_mozambique():
    c = SYS.check_native(native(weapon="glock-17", skill_value=80, DEX=14, distance=Length(5), fire="double tap"))
    assert pct(c) == 85 and not c.notes
    c = SYS.check_native(native(weapon="glock-17", skill_value=80, DEX=14, distance=Length(5), fire="mozambique"))
    assert pct(c) == 17 and "coc-ja.mozambique" in c.rules()
    c = SYS.check_native(native(weapon="glock-17", skill_value=70, DEX=14, distance=Length(20), fire="double tap"))
    assert c.notes and "not allowed" in c.notes[0]


def test_large_target():
    c = SYS.check_native(native(skill_value=50, target_SIZ=45))
    assert pct(c) == 60 and "coc-ja.autofire.order" in c.rules()


def test_every_modifier_has_rule_and_source():
    for f in sorted(glob.glob(str(FIXTURES / "scenarios" / "*.yaml"))):
        from xsys.conversions import documents

        for scene in documents.load(f).scenes:
            for shot in scene.shots:
                for m in SYS.check_native(shot).modifiers:
                    assert m.rule.startswith("coc-ja.") and m.source in ("seed", "assumed")


# ---- armor table ------------------------------------------------------------------------------

@pytest.mark.parametrize("item,A,B", [("heavy-leather-jacket", 1, 1), ("nij-i-vest", 6, 3), ("nij-iia-vest", 8, 4),
                                      ("nij-ii-vest", 12, 6), ("nij-iiia-vest", 14, 7), ("nij-iii-plate", 24, 12),
                                      ("nij-iv-plate", 40, 20), ("winter-coat", 0, 0)])
def test_catalog_armor_lands_on_its_row(item, A, B):
    from xsys.core.catalog import strip_entry

    assert SYS.armor_value(strip_entry(catalog().armor[item]))[:2] == (A, B)


@pytest.mark.parametrize("material,thickness,A,B", [
    ("soft-wood", "3 cm", 1, 0.5), ("hard-wood", "3 cm", 2, 1), ("sand", "30 cm", 30, 15),
    ("armor-steel", "1 cm", 32, 16), ("armor-steel", "5 cm", 160, 80), ("bulletproof-glass", "1 cm", 12, 6),
    ("concrete", "15 cm", 40, 20), ("brick", "20 cm", 46, 23),
    ("armor-steel", "2 in", 160, 80), ("concrete", "6 in", 40, 20), ("concrete", "14 cm", 32, 16),
    ("concrete", "0 cm", 0, 0),
])
def test_barrier_table(material, thickness, A, B):
    from xsys.core.units import parse

    got = SYS.barrier_value(Barrier(material=material, thickness=parse(thickness, Length)))
    assert got[:2] == (A, B)
    if (material, thickness) in {("concrete", "15 cm"), ("brick", "20 cm"), ("sand", "30 cm")}:
        assert got[2].source == "seed" and got[2].rule == "coc-ja.armor.table"


def test_barrier_without_anchor_uses_joules():
    A, _, step, name = SYS.barrier_value(Barrier(material="car-door", thickness=Length(0.1)))
    assert name == "armor.barrier.generic" and A == 6  # 400 J -> NIJ I row


def test_damage_behind_concrete_wall():
    shot = native(weapon="winchester-70-30-06", skill_value=60, distance=Length(50), target_exposure="none",
                  cover=CocBarrier(material="concrete", thickness=Length(0.15)))
    assert SYS.check_native(shot).damage_mean == 0  # 2d6+4 (max 16, impale 32) never beats 40
    thin = msgspec.structs.replace(shot, cover=CocBarrier(material="soft-wood", thickness=Length(0.03)))
    assert SYS.check_native(thin).damage_mean > 0


# ---- conversions -----------------------------------------------------------------------------------

def _npc(path: str) -> CocNpc:
    data = __import__("xsys.conversions.documents", fromlist=["x"]).read_plain(path)
    data.pop("system"), data.pop("kind")
    return codec.convert(data, CocNpc)


NPC_FILES = sorted(glob.glob(str(FIXTURES / "npcs" / "*.yaml")))


def test_six_fixtures():
    assert len(NPC_FILES) >= 6 and len(glob.glob(str(FIXTURES / "scenarios" / "*.yaml"))) >= 2


@pytest.mark.parametrize("path", NPC_FILES, ids=lambda p: Path(p).stem)
def test_npc_round_trip(path):
    npc = _npc(path)
    there = SYS.npc_to_neutral(npc)
    back = SYS.npc_from_neutral(there.value)
    assert back.value == npc
    assert not [l for l in there.losses if l.kind in ("clamped", "dropped-item")]


def test_npc_neutral_content():
    swat = SYS.npc_to_neutral(_npc(str(FIXTURES / "npcs" / "swat_officer.yaml"))).value
    assert swat.armor[0].catalog == "nij-iiia-vest" and float(swat.armor[0].stops) == 1480
    # SMG 65 and Handgun 70 as their battery true scores (core.equating)
    assert swat.skills["smg"] == pytest.approx(SYS.competence("SMG", 65, {"@key": "smg"}))
    assert swat.skills["handgun"] == pytest.approx(SYS.competence("Handgun", 70, {"@key": "handgun"}))
    assert swat.carried["coc"]["skills"] == {"Off-hand Shooting": 35}
    assert {w.catalog for w in swat.weapons} == {"mp5", "glock-17"}


def test_npc_from_foreign_combatant_derives_everything():
    from xsys.core.catalog import strip_entry
    from xsys.core.model import Combatant

    c = Combatant(name="thug", characteristics={"strength": 0.9},
                  skills={"handgun": SYS.competence("Handgun", 45), "brawl": 0.4},
                  weapons=[strip_entry(catalog().weapons["colt-python"])],
                  armor=[strip_entry(catalog().armor["nij-iiia-vest"])])
    r = SYS.npc_from_neutral(c)
    npc = r.value
    assert npc.skills["Handgun"] == 45 and npc.armor[0].A == 14 and npc.armor[0].B == 7
    # a .357 Magnum: the weapon table's 1d8+1d4 (coc-ja.damage, [cartridge.".357 Magnum"]), as 7th
    # edition prints it, not the 1d10+2 the ladder gives its 800 J
    assert npc.weapons[0].damage == "1d8+1d4" and npc.weapons[0].skill == "Handgun"
    assert npc.HP == -(-(npc.CON + npc.SIZ) // 2) and npc.STR > 10
    # CoC has Fist/Punch: brawl is written, not reported missing
    # (brawl 0.4 is a close-combat competence, equated at his own STR and SIZ)
    at = {"STR": npc.STR, "SIZ": npc.SIZ, "@key": "brawl"}
    # (below the Fist/Punch base 50, coc-ja.skills: written at the base, which a CoC sheet starts at)
    assert SYS.level_for("Fist/Punch", 0.4, at) < 50
    assert npc.skills["Fist/Punch"] == 50
    assert [l.kind for l in r.losses if "brawl" in l.message] == ["clamped"]  # said, never "no skill for"


def test_physical_values_survive_coarse_rows():
    # a 250 J helmet is armor 5 (the row of 5 points at 242 J, on the power law between the leather
    # jacket and NIJ I: [armor] between) but stays 250 J through CoC
    helmet = SYS.armor_from_neutral(Armor(name="helmet", stops=Energy(250)))
    assert (helmet.A, helmet.B, float(helmet.stops)) == (5, 2.5, 250)
    assert float(SYS.armor_to_neutral(helmet).stops) == 250
    vest = SYS.armor_from_neutral(Armor(name="vest", stops=Energy(1480)))
    assert vest.A == 14 and vest.stops is None  # the row's own value
    from xsys.core.model import Weapon

    from xsys.core.model import Combatant

    # a thrown object of 1,100 J: the damage row of its energy, the energy kept
    stone = SYS.npc_from_neutral(Combatant(
        name="g", weapons=[Weapon(name="heavy stone", weapon_class="thrown", muzzle_energy=Energy(1100))])).value
    assert stone.weapons[0].damage == "1d10+2" and float(stone.weapons[0].muzzle_energy) == 1100
    assert float(SYS.npc_to_neutral(stone).value.weapons[0].muzzle_energy) == 1100
    # a grenade is the table's hand grenade (4d10), its energy kept all the same
    grenade = SYS.npc_from_neutral(Combatant(
        name="g", weapons=[Weapon(name="grenade", weapon_class="thrown", muzzle_energy=Energy(1100))])).value
    assert grenade.weapons[0].damage == "4d10" and float(grenade.weapons[0].muzzle_energy) == 1100
    assert float(SYS.npc_to_neutral(grenade).value.weapons[0].muzzle_energy) == 1100


def test_characteristics_percentile():
    """The dice's values (SIZ 2d6+6: 8-18, EDU 3d6+3: 6-21) hold the population but its outer
    millionth at each end, where a stated value the dice never give sits (a creature's STR 24, a
    professor's EDU 22: every value of 1-99 has a place, in order)."""
    chars = SYS.characteristics()
    assert chars["SIZ"].ladder.step_for(1e-5).native == 8 and chars["EDU"].ladder.step_for(1 - 1e-5).native == 21
    assert chars["SIZ"].ladder.natives[0] == 1 and chars["EDU"].ladder.natives[-1] == 99
    strength = chars["STR"].ladder
    assert strength.step_for(0.5).native in (10, 11)
    assert [strength.step_for(strength.neutral(v)).native for v in (18, 19, 24, 99)] == [18, 19, 24, 99]
    assert strength.neutral(18) < strength.neutral(19) < strength.neutral(24) < strength.neutral(99)


def _scenario_shots():
    from xsys.conversions import documents

    for f in sorted(glob.glob(str(FIXTURES / "scenarios" / "*.yaml"))):
        for scene in documents.load(f).scenes:
            yield from scene.shots


@pytest.mark.parametrize("shot", list(_scenario_shots()), ids=lambda s: s.name[:30])
def test_shot_round_trip_and_same_chance(shot):
    n = SYS.shot_to_neutral(shot)
    back = SYS.shot_from_neutral(n.value).value
    assert back == shot
    assert SYS.check(n.value).chance == SYS.check_native(shot).chance


def test_native_situation_words():
    shot = native(light="dim light", target_exposure="head only", distance=Length(25),
                  cover=CocBarrier(material="concrete", thickness=Length(0.15)), fire="full auto", rounds=10,
                  weapon="thompson-m1928")
    n = SYS.shot_to_neutral(shot).value
    assert 0.01 <= float(n.light.illuminance) < 5 and n.target.cover.exposure == 0.1
    assert n.burst == 10 and float(n.distance) == 25 and n.target.cover.barrier.material == "concrete"
    lossy = SYS.shot_to_neutral(native(hold="two guns", keeper_double=True))
    assert {l.path for l in lossy.losses} >= {"$.hold", "$.keeper_double"}


# ---- monotonicity (hypothesis) ------------------------------------------------------------------------

CLASSES = ["handgun", "revolver", "smg", "carbine", "rifle", "shotgun", "mg"]


def _shot(cls, skill=0.5, distance=10.0, lux=10000.0, exposure=1.0, thickness=0.0, tspeed=0.0, sspeed=0.0,
          posture="standing", stops=None, burst=1, aim=0.0, braced=False, dex=0.5):
    base = standard_shot(cls, skill)
    barrier = Barrier(material="concrete", thickness=Length(thickness)) if thickness else None
    armor = [Armor(name="vest", stops=Energy(stops))] if stops is not None else []
    return msgspec.structs.replace(
        base, distance=Length(distance), light=Light(illuminance=Illuminance(lux)), burst=burst,
        shooter=Shooter(skill=skill, speed=Speed(sspeed), aim_time=Duration(aim), braced=braced,
                        characteristics={"dexterity": dex}),
        target=Target(speed=Speed(tspeed), posture=posture, cover=Cover(exposure=exposure, barrier=barrier),
                      armor=armor))


common = dict(cls=st.sampled_from(CLASSES), skill=st.floats(0, 1), burst=st.sampled_from([1, 1, 5]),
              aim=st.sampled_from([0.0, 2.0]), braced=st.booleans(), dex=st.floats(0, 1))


def _pair(strategy):
    return st.lists(strategy, min_size=2, max_size=2).map(sorted)


@settings(max_examples=60, deadline=None)
@given(d=_pair(st.floats(0, 3000)), **common)
def test_monotone_distance(d, cls, skill, burst, aim, braced, dex):
    near, far = (SYS.check(_shot(cls, skill, distance=x, burst=burst, aim=aim, braced=braced, dex=dex)) for x in d)
    assert near.chance >= far.chance


@settings(max_examples=60, deadline=None)
@given(lux=_pair(st.one_of(st.just(0.0), st.floats(0, 100_000))), **common)
def test_monotone_light(lux, cls, skill, burst, aim, braced, dex):
    dark, bright = (SYS.check(_shot(cls, skill, lux=x, burst=burst, aim=aim, braced=braced, dex=dex)) for x in lux)
    assert dark.chance <= bright.chance


@settings(max_examples=60, deadline=None)
@given(e=_pair(st.floats(0, 1)), **common)
def test_monotone_exposure(e, cls, skill, burst, aim, braced, dex):
    hidden, shown = (SYS.check(_shot(cls, skill, exposure=x, burst=burst, aim=aim, braced=braced, dex=dex)) for x in e)
    assert hidden.chance <= shown.chance


@settings(max_examples=60, deadline=None)
@given(s=_pair(st.floats(0, 1)), d=st.floats(0, 500), lux=st.floats(0, 1000), cls=st.sampled_from(CLASSES),
       burst=st.sampled_from([1, 10]))
def test_monotone_skill(s, d, lux, cls, burst):
    lo, hi = (SYS.check(_shot(cls, x, distance=d, lux=lux, burst=burst)) for x in s)
    assert lo.chance <= hi.chance


@settings(max_examples=40, deadline=None)
@given(t=_pair(st.floats(0, 1)), cls=st.sampled_from(CLASSES), skill=st.floats(0, 1),
       speeds=_pair(st.floats(0, 10)), posture=st.sampled_from(POSTURES))
def test_monotone_barrier_speed_posture(t, cls, skill, speeds, posture):
    thin, thick = (SYS.check(_shot(cls, skill, exposure=0.0, thickness=x)) for x in t)
    assert thin.chance >= thick.chance and thin.damage_mean >= thick.damage_mean
    slow, fast = (SYS.check(_shot(cls, skill, tspeed=x, sspeed=x)) for x in speeds)
    assert slow.chance >= fast.chance
    order = list(POSTURES)
    chances = [SYS.check(_shot(cls, skill, posture=p)).chance for p in order]
    assert chances == sorted(chances, reverse=True)


@settings(max_examples=40, deadline=None)
@given(j=_pair(st.floats(0, 30000)), cls=st.sampled_from(CLASSES), skill=st.floats(0.05, 1),
       d=st.floats(0, 60), burst=st.sampled_from([1, 8]))
def test_monotone_damage_with_armor(j, cls, skill, d, burst):
    light, heavy = (SYS.check(_shot(cls, skill, distance=d, stops=x, burst=burst)) for x in j)
    assert light.damage_mean >= heavy.damage_mean


# ---- the variant API ------------------------------------------------------------------------------------

def test_variant_can_swap_armor_darkness_and_resolution(tmp_path):
    from xsys.core.dice import Outcomes
    from xsys.core.ladder import Ladder
    from xsys.plugins.coc import LightEffect

    armor = tmp_path / "armor.toml"
    armor.write_text('[armor]\nrule = "x.armor"\n[[armor.worn]]\nlabel = "none"\nat = "0 J"\nA = 0\n'
                     '[[armor.worn]]\nlabel = "vest"\nat = "1000 J"\nA = 8\n'
                     '[[armor.barrier]]\nlabel = "6 in concrete"\nmaterial = "concrete"\nthickness = "6 in"\nA = 9\n')

    class Variant(CocSystem):
        key = "coc-test"
        armor_file = str(armor)

        def darkness_ladder(self) -> Ladder:
            return Ladder.build("dark", "lx", [(0, 0.0, "x.dark", "assumed", "total darkness"),
                                               (1, 1.0, "x.dark", "assumed", "daylight")])

        def light_effect(self, sit):
            if self.darkness_ladder().native(sit.illuminance) == 0:
                return LightEffect(cap=1)
            return LightEffect()

        def resolve(self, target):
            return Outcomes(F(min(100, target), 100), critical_success=F(target // 5, 100))

    v = Variant()
    assert v.barrier_value(Barrier(material="concrete", thickness=Length(0.1524)))[0] == 9
    assert v.armor_value(Armor(name="x", stops=Energy(1480)))[:2] == (8, 4.0)
    assert "x.armor" in v.rule_ids() and "coc-ja.stance.two-hand" in v.rule_ids()
    h45 = v.competence("Handgun", 45)  # Handgun 45, two-handed +5: 50
    assert pct(v.check(_shot("handgun", h45, lux=2.0))) == 50
    assert pct(v.check(_shot("handgun", h45, lux=0.0))) == 1
    assert v.resolve(52).critical_success == F(10, 100)


@pytest.mark.parametrize("metres,dice", [(4, "4d6"), (8, "1d6"), (15, "1d6"), (30, "1d6")])
def test_a_sawn_off_hits_with_its_own_bands(metres, dice):
    """coc-ja.damage.shotgun (assumed: the CoC table's sawn-off, "4D6/1D6, 5/10"): the sawn-off's
    line is 4d6/1d6 (tables.toml [weapon.sawed-off-12ga]), its first band up to 5 m and its last
    beyond; at 8 m the engine rolled 4d6 and at 15 m the full shotgun's 2d6, which the sheet's
    4d6/1d6 never says. A full-length shotgun keeps 4d6/2d6/1d6. coc7 reads it the same, in yards."""
    sit = SYS.situation_from_native(native(weapon="sawed-off-12ga", skill="Shotgun", distance=Length(metres)))
    assert SYS.damage_roll(sit, sit.native_weapon or SYS.weapon_defaults(sit.weapon))[0] == dice
    full = SYS.situation_from_native(native(weapon="remington-870", skill="Shotgun", distance=Length(15)))
    assert SYS.damage_roll(full, full.native_weapon or SYS.weapon_defaults(full.weapon))[0] == "2d6"
    from types import SimpleNamespace

    from xsys.core.registry import get_system

    yards = SimpleNamespace(distance=Length(metres * 0.9144))  # the same numbers in yards on a coc7 line
    assert get_system("coc7").damage_roll(yards, SimpleNamespace(damage="4D6/1D6"))[0] == dice.upper()


def test_a_sheet_says_what_its_shotgun_bands_and_thrown_lines_mean_only_where_it_has_them():
    from xsys.conversions import api

    bandit = api.convert(api.load(ROOT / "fixtures" / "pl-trudnosc" / "npcs" / "bandyta.yaml"), "coc", fresh=True,
                         trace=False)
    text = api.dump(bandit, "md").decode()
    assert "*damage*: a/b/c is shot by distance: the first up to 10 m" in text
    assert "Throw line" not in text
    rosa = api.convert(api.load(ROOT / "fixtures" / "corpus" / "dholes-house" / "rosa-delgado-unknown-version.json"),
                       "coc7", fresh=True, trace=False)
    text = api.dump(rosa, "md").decode()
    assert "a Throw line adds half the wielder's damage bonus" in text and "a/b/c" not in text
    plain = api.convert(api.load(ROOT / "fixtures" / "coc" / "npcs" / "investigator_38.yaml"), "coc", trace=False)
    assert "*damage*" not in api.dump(plain, "md").decode()


@pytest.mark.parametrize("to,table,col", [("coc", "armor", "name"), ("coc7", "armor", "name"), ("nwod", "armor", "name"),
                                          ("pl-trudnosc", "pancerz", "nazwa")])
def test_a_sheet_with_a_helmet_and_body_armor_says_what_each_covers(to, table, col):
    """core.armorline.coverage_note: the GURPS soldier's helmet (head) and body armor (torso,
    vitals, neck) printed as two bare rows (CoC 6 and 24) read as if they added up to 30."""
    from xsys.conversions import api

    conv = api.convert(api.load(ROOT / "fixtures" / "gurps" / "npcs" / "soldier.yaml"), to, fresh=True, trace=False)
    text = api.dump(conv, "md").decode()
    assert f"*{col}*: what each piece covers: PASGT helmet the head; Military body armor the torso, vitals, neck; " \
        in text and "(the rows do not add up)" in text
    if to == "nwod":  # nWoD rolls no hit location: an aimed attack meets the part's armor
        assert "an ordinary attack meets the body's armor, one aimed at the head the helmet's" in text
    plain = api.convert(api.load(ROOT / "fixtures" / "coc-zh" / "npcs" / "hk_bodyguard.yaml"), to, fresh=True,  # a vest
                        trace=False)
    assert plain.document is not None and "what each piece covers" not in api.dump(plain, "md").decode()


def test_a_sheet_from_a_system_with_no_sanity_shows_the_starting_san():
    """coc-ja.derived (POW x 5, the 5th/6th-edition convention) and coc7.derived (SAN = POW): the GURPS
    soldier's CoC sheet printed no SAN, which every Keeper pencils in; it is shown with its rule,
    and the document stays as converted (no SAN field invented)."""
    from xsys.conversions import api

    coc = api.convert(api.load(ROOT / "fixtures" / "gurps" / "npcs" / "soldier.yaml"), "coc", fresh=True, trace=False)
    assert coc.document.SAN is None
    assert f"**SAN** {coc.document.POW * 5} (coc-ja.derived)" in api.dump(coc, "md").decode()
    c7 = api.convert(api.load(ROOT / "fixtures" / "gurps" / "npcs" / "soldier.yaml"), "coc7", fresh=True, trace=False)
    assert f"**SAN** {c7.document.POW} (coc7.derived)" in api.dump(c7, "md").decode()
    own = api.convert(api.load(ROOT / "fixtures" / "coc" / "npcs" / "dock_brute.yaml"), "coc", trace=False)
    md = api.dump(own, "md").decode()  # its own SAN, as stated: no rule beside it
    assert "**SAN** 38 · " in md and "**SAN** 38 (" not in md and own.document.SAN == 38
