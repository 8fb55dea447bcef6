"""pl-trudnosc: the Polish firefight rules (the Polish firefight text, digest
shared/rules/polish-firefight.md). Hand-computed Trudność, the aiming and suppression
tables, exact chances of both mechanics against closed forms, monotonicity, round trips."""

from __future__ import annotations

import re
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xsys.conversions import documents
from xsys.core import codec
from xsys.core.errors import InputError
from xsys.core.model import Barrier, Cover, Light, Shooter, Shot, Target, generic_weapon, standard_shot
from xsys.core.registry import get_system
from xsys.core.units import Duration, Illuminance, Length, Speed
from xsys.core.vocab import GAIT
from xsys.plugins.pl_trudnosc import system as pl
from xsys.plugins.pl_trudnosc.system import MECHANICS, PlSettings, PlTrudnosc

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures" / "pl-trudnosc"
README = ROOT / "plugins" / "pl_trudnosc" / "README.md"
MECHS = sorted(MECHANICS)

# Every rule ID of the digest (shared/rules/polish-firefight.md).
DIGEST_IDS = {
    "pl.resolution", "pl.actions", "pl.observe", "pl.shoot", "pl.suppress", "pl.grenade", "pl.aim",
    "pl.sprint", "pl.crawl", "pl.swim", "pl.difficulty.base", "pl.difficulty.range",
    "pl.difficulty.target-motion", "pl.difficulty.shooter-motion", "pl.defence.posture", "pl.defence.cover",
}


@pytest.fixture(scope="module", params=MECHS)
def sys_(request) -> PlTrudnosc:
    return PlTrudnosc(PlSettings(mechanic=request.param))


SUM = PlTrudnosc(PlSettings(mechanic="sum-d6"))


def shot(cls="handgun", distance=10.0, target_speed=0.0, shooter_speed=0.0, posture="standing",
         exposure=1.0, aim=0.0, lux=10_000.0, skill=0.5, barrier=None, aids=()) -> Shot:
    return Shot(
        shooter=Shooter(skill=skill, speed=Speed(shooter_speed), aim_time=Duration(aim)),
        weapon=generic_weapon(cls),
        target=Target(posture=posture, speed=Speed(target_speed), cover=Cover(exposure=exposure, barrier=barrier)),
        distance=Length(distance),
        light=Light(illuminance=Illuminance(lux), aids=list(aids)),
    )


def trudnosc(s: Shot) -> int:
    return SUM.check(s).target


# ---- registration and settings ---------------------------------------------------------

def test_registered_with_its_name():
    s = get_system("pl-trudnosc")
    assert s.name == "Polish firefight rules — Trudność difficulty system"
    assert s.edition == "unidentified source (Walka strzelecka)"
    assert s.settings_type is PlSettings


def test_dice_text_names_the_selected_mechanic():
    assert PlTrudnosc(PlSettings(mechanic="sum-d6")).describe()["dice"].startswith("sum-d6")
    assert PlTrudnosc(PlSettings(mechanic="per-die-d10")).describe()["dice"].startswith("per-die-d10")


def test_environment_variable_is_the_fallback_default(monkeypatch):
    monkeypatch.setenv("XSYS_PL_MECHANIC", "per-die-d10")
    assert PlTrudnosc().mechanic.key == "per-die-d10"
    assert PlTrudnosc(PlSettings(mechanic="sum-d6")).mechanic.key == "sum-d6"  # settings win
    monkeypatch.delenv("XSYS_PL_MECHANIC")
    # pl.resolution: the default is exploding-2d6 (the assumed tiers read as the
    # other systems' published tiers)
    assert PlTrudnosc().mechanic.key == "exploding-2d6"
    monkeypatch.setenv("XSYS_PL_MECHANIC", "3d20")
    with pytest.raises(InputError, match="XSYS_PL_MECHANIC"):
        PlTrudnosc()


def test_settings_refuse_unknown_mechanic_and_accept_mappings():
    with pytest.raises(ValueError):
        PlSettings(mechanic="d20")
    with pytest.raises(InputError):
        PlTrudnosc({"mechanic": "d20"})
    assert PlTrudnosc({"mechanic": "per-die-d10"}).mechanic.key == "per-die-d10"


def test_third_mechanic_is_one_registry_entry(monkeypatch):
    monkeypatch.setitem(MECHANICS, "flat", pl.Mechanic("flat", "flat test", lambda t, s, e, d: {0: F(1, 2), 1: F(1, 2)},
                                                       lambda t, s, e: t + s + e, lambda n, s, t: "coin"))
    s = PlTrudnosc(PlSettings(mechanic="flat"))
    assert s.check(standard_shot("handgun")).chance == F(1, 2)


# ---- Trudność of shots, hand-computed ------------------------------------------------------

@pytest.mark.parametrize("s, expected", [
    # pl.difficulty.base: 10 at 10 m (short) and 25 m (long)
    (shot("handgun", 10), 10),
    (shot("rifle", 25), 10),
    # below the base range: no bonus (the base is the floor)
    (shot("handgun", 3), 10),
    (shot("rifle", 12), 10),
    # pl.difficulty.range, +1 per STARTED step: 11 m -> +1, 12 m -> +1, 17 m -> +4, 20 m -> +5, 30 m -> +10
    (shot("handgun", 11), 11),
    (shot("handgun", 12), 11),
    (shot("handgun", 17), 14),
    (shot("handgun", 20), 15),
    (shot("handgun", 30), 20),
    (shot("rifle", 35), 11),
    (shot("rifle", 36), 12),
    (shot("rifle", 125), 20),
    # the worked example: short weapon at 17 m, target jogging and kneeling, shooter walking
    # 10 + 4 (range) + 4 (trucht) + 5 (klęcząca) + 3 (marsz) = 26
    (shot("handgun", 17, target_speed=GAIT["jog"], posture="kneeling", shooter_speed=GAIT["walk"]), 26),
    # long weapon at 95 m: +7; prone +8; shooter running +9: 34
    (shot("rifle", 95, posture="prone", shooter_speed=GAIT["run"]), 34),
    # target walking +2, running +6 (a sprint reads as running)
    (shot("handgun", 10, target_speed=GAIT["walk"]), 12),
    (shot("handgun", 10, target_speed=GAIT["sprint"]), 16),
    # shooter jogging +6
    (shot("smg", 25, shooter_speed=GAIT["jog"]), 16),
    # firing from cover +10 replaces the posture modifier (no stacking, assumed): 10 + 10
    (shot("handgun", 10, exposure=0.2, posture="kneeling"), 20),
    (shot("handgun", 10, exposure=0.0), 20),
    # aiming 3 turns (9 s): +1 die and -2 Trudność
    (shot("handgun", 10, aim=9.0), 8),
    # light (assumed): full moon +6, darkness +15, moon with a hand light capped at +3
    (shot("handgun", 10, lux=0.25), 16),
    (shot("handgun", 10, lux=0.0), 25),
    (shot("handgun", 10, lux=0.25, aids=["hand-light"]), 13),
    # thrown (grenade): read as a short weapon (assumed)
    (shot("thrown", 15), 13),
])
def test_hand_computed_trudnosc(s, expected):
    assert trudnosc(s) == expected


def test_issue_example_modifiers_carry_rules_and_sources():
    c = SUM.check(shot("handgun", 17, target_speed=GAIT["jog"], posture="kneeling", shooter_speed=GAIT["walk"]))
    got = {(m.rule, m.value, m.source) for m in c.modifiers}
    # pl.difficulty.range: 17 m is 3.5 steps; +4 counts the started step (assumed rounding)
    assert got == {("pl.difficulty.range", 4, "assumed"), ("pl.difficulty.target-motion", 4, "seed"),
                   ("pl.defence.posture", 5, "seed"), ("pl.difficulty.shooter-motion", 3, "seed")}
    assert 10 + sum(m.value for m in c.modifiers) == c.target == 26


def test_assumed_values_appear_in_the_check():
    c = SUM.check(shot("handgun", 10, lux=0.25))
    assert any(m.rule == "pl.light" and m.source == "assumed" for m in c.modifiers)
    assert any("pl.damage" in n for n in c.notes)
    assert any("pl.resolution" in n for n in c.notes)
    brick = Barrier(material="brick", thickness=Length(0.1))
    c = SUM.check(shot("rifle", 25, exposure=0.0, barrier=brick))
    assert any("pl.barrier" in n for n in c.notes)
    assert any(m.rule == "pl.defence.cover" and m.source == "assumed" for m in c.modifiers)


def test_range_ladders_agree_with_the_formula():
    lads = SUM.ladders()
    for d in [0, 5, 10, 10.5, 11, 12, 13.9, 17, 40, 99.99, 210]:
        assert lads["range_short"].native(d) == pl.range_modifier(d, "short")
    for d in [0, 25, 25.01, 35, 36, 95, 125, 1000]:
        assert lads["range_long"].native(d) == pl.range_modifier(d, "long")


# ---- aiming and suppression tables ---------------------------------------------------------

@pytest.mark.parametrize("turns, expected", [(0, (0, 0)), (1, (1, 0)), (2, (1, -1)), (3, (1, -2)), (6, (1, -5))])
def test_aim_table(turns, expected):
    # pl.aim: the first turn gives +1 die, each further turn -1 Trudność
    assert pl.aim_modifiers(turns) == expected


@pytest.mark.parametrize("aim_s, dice, diff", [(0, 0, 0), (2.9, 0, 0), (3, 1, 0), (6, 1, -1), (9, 1, -2), (11.9, 1, -2)])
def test_aim_from_seconds(aim_s, dice, diff):
    # one tura = 3 s (assumed); only full turns of aiming count
    mods = SUM.check(shot(aim=aim_s)).modifiers
    assert sum(m.value for m in mods if m.kind == "dice") == dice
    assert sum(m.value for m in mods if m.kind == "difficulty") == diff


@pytest.mark.parametrize("rounds, expected", [((1,), 16), ((5,), 20), ((10,), 25), ((0,), 15), ((3, 4), 22), ((2, 2, 6), 25)])
def test_suppression_difficulty(rounds, expected):
    # pl.suppress: Odwaga vs 15 + rounds fired; several shooters add up
    assert pl.suppression_difficulty(*rounds) == expected


def test_suppression_chance_exact():
    # sum-d6, Odwaga 3, one round: P(3d6 >= 16) = (6 + 3 + 1) / 216
    assert pl.suppression(MECHANICS["sum-d6"], 3, 1).chance == F(10, 216)
    # per-die-d10: no die + 0 reaches 16 -- the suppressed enemy never ignores the fire
    assert pl.suppression(MECHANICS["per-die-d10"], 5, 1).chance == 0
    with pytest.raises(InputError):
        pl.suppression_difficulty(-1)


# ---- exact chances of both mechanics -------------------------------------------------------

def test_sum_d6_closed_forms():
    m = MECHANICS["sum-d6"].successes
    assert pl.pass_chance(m(2, 0, 0, 10)) == F(6, 36)
    assert pl.pass_chance(m(3, 0, 0, 10)) == F(135, 216)
    assert pl.pass_chance(m(1, 0, 0, 4)) == F(1, 2)
    # 2d6 vs 5: fail on 2-4, pass on 5-9, one additional success on 10-12 (full 5 above)
    assert m(1, 1, 0, 5) == {0: F(6, 36), 1: F(24, 36), 2: F(6, 36)}
    # 1d6 vs 1: always passes; a 6 is 5 above -> one additional success
    assert m(1, 0, 0, 1) == {1: F(5, 6), 2: F(1, 6)}
    # an extra die (aiming) is one more d6 in the sum
    assert m(1, 0, 1, 10) == m(2, 0, 0, 10)
    # no dice, no success
    assert m(1, 0, -1, 1) == {0: 1}


def test_per_die_d10_closed_forms():
    m = MECHANICS["per-die-d10"].successes
    # 2d10 +3 each vs 10: each die succeeds on 7-10, p = 4/10
    assert m(2, 3, 0, 10) == {0: F(9, 25), 1: F(12, 25), 2: F(4, 25)}
    # 3d10 +0 vs 10: 1 - (9/10)^3
    assert pl.pass_chance(m(3, 0, 0, 10)) == F(271, 1000)
    # Trudność at or below 1 + skill: every die succeeds
    assert m(2, 4, 0, 5) == {2: 1}
    # above 10 + skill: impossible
    assert m(5, 2, 0, 13) == {0: 1}
    # an extra die (aiming) is one more d10
    assert m(2, 1, 1, 9) == m(3, 1, 0, 9)


def test_standard_chances():
    s6 = PlTrudnosc(PlSettings(mechanic="sum-d6"))
    s10 = PlTrudnosc(PlSettings(mechanic="per-die-d10"))
    # the standard shot (pl.difficulty.base: Trudność 10) at a level, and the observation roll
    hg, rf = standard_shot("handgun"), standard_shot("rifle")
    assert s6.check_at(hg, "Broń krótka", 0, {"Motoryka": 3}).chance == F(5, 8)
    assert s6.check_at(rf, "Broń długa", 0, {"Motoryka": 2}).chance == F(1, 6)
    assert s6.roll_chance("Czujność", 1, {"Percepcja": 1}) == F(1, 6)
    assert s10.check_at(hg, "Broń krótka", 0, {"Motoryka": 3}).chance == F(271, 1000)
    assert s10.check_at(rf, "Broń długa", 3, {"Motoryka": 2}).chance == F(16, 25)


def test_check_damage_mean_exact():
    # standard handgun shot, Motoryka 3 + Broń krótka 0: 3d6 vs 10.
    # 500 J -> 4 points (pl.damage, assumed); +1 on 15+ (pl.shoot): (4 * 135 + 20) / 216
    c = SUM.check(standard_shot("handgun", SUM.competence("Broń krótka", 0, {"Motoryka": 3, "@key": "handgun"})))
    assert c.chance == F(135, 216)
    assert c.damage_mean == pytest.approx(560 / 216)
    # armor stopping 970 J (5 points) against 4 points: 4 + 1 additional (15-18) - 5 = 0; 20+ impossible -> 0
    from xsys.core.model import Armor
    from xsys.core.units import Energy
    vest = Armor(name="vest", stops=Energy(970))
    armored = Shot(shooter=Shooter(skill=SUM.competence("Broń krótka", 0, {"Motoryka": 3, "@key": "handgun"})), weapon=generic_weapon("handgun"), target=Target(armor=[vest]), distance=Length(10))
    assert SUM.check(armored).damage_mean == 0


# ---- monotonicity (hypothesis), per mechanic ------------------------------------------------

pairs = st.tuples(st.integers(-5, 45), st.integers(-5, 45)).map(sorted)


@pytest.mark.parametrize("mech", MECHS)
@settings(max_examples=60, deadline=None)
@given(t=pairs, trait=st.integers(1, 5), skill=st.integers(0, 5), extra=st.integers(0, 2))
def test_chance_falls_as_trudnosc_rises(mech, t, trait, skill, extra):
    m = MECHANICS[mech].successes
    assert pl.pass_chance(m(trait, skill, extra, t[0])) >= pl.pass_chance(m(trait, skill, extra, t[1]))


@pytest.mark.parametrize("mech", MECHS)
@settings(max_examples=60, deadline=None)
@given(a=st.tuples(st.integers(1, 5), st.integers(1, 5)).map(sorted),
       b=st.tuples(st.integers(0, 5), st.integers(0, 5)).map(sorted),
       e=st.tuples(st.integers(0, 2), st.integers(0, 2)).map(sorted), t=st.integers(0, 40))
def test_chance_rises_with_trait_skill_and_dice(mech, a, b, e, t):
    m = MECHANICS[mech].successes
    lo = pl.pass_chance(m(a[0], b[0], e[0], t))
    assert pl.pass_chance(m(a[1], b[0], e[0], t)) >= lo
    assert pl.pass_chance(m(a[0], b[1], e[0], t)) >= lo
    assert pl.pass_chance(m(a[0], b[0], e[1], t)) >= lo


@pytest.mark.parametrize("mech", MECHS)
@settings(max_examples=40, deadline=None)
@given(d=st.tuples(st.floats(0, 300), st.floats(0, 300)).map(sorted),
       v=st.tuples(st.floats(0, 8), st.floats(0, 8)).map(sorted),
       sk=st.tuples(st.floats(0, 1), st.floats(0, 1)).map(sorted),
       cls=st.sampled_from(["handgun", "rifle", "smg", "thrown"]))
def test_check_monotone(mech, d, v, sk, cls):
    s = PlTrudnosc(PlSettings(mechanic=mech))
    ch = lambda **kw: s.check(shot(cls, **kw)).chance  # noqa: E731
    assert ch(distance=d[0]) >= ch(distance=d[1])
    assert ch(target_speed=v[0]) >= ch(target_speed=v[1])
    assert ch(shooter_speed=v[0]) >= ch(shooter_speed=v[1])
    assert ch(skill=sk[0]) <= ch(skill=sk[1])


@pytest.mark.parametrize("mech", MECHS)
def test_check_monotone_along_category_axes(mech):
    s = PlTrudnosc(PlSettings(mechanic=mech))
    ch = lambda **kw: s.check(shot("handgun", 10, skill=0.95, **kw)).chance  # noqa: E731
    postures = ["standing", "crouching", "kneeling", "sitting", "crawling", "prone"]
    cs = [ch(posture=p) for p in postures]
    assert cs == sorted(cs, reverse=True)
    ex = [ch(exposure=e) for e in (1.0, 0.7, 0.5, 0.2, 0.1, 0.05, 0.0)]
    assert ex == sorted(ex, reverse=True)
    lx = [ch(lux=x) for x in (100_000, 10_000, 300, 10, 3, 0.25, 0.01, 0.001, 0.0001, 0)]
    assert lx == sorted(lx, reverse=True)


# ---- rules without a shot ------------------------------------------------------------------

def test_actions_are_eight_with_irregular_numbering():
    acts = pl.tables()["actions"]
    assert [a["source_number"] for a in acts] == [1, 1, 2, 3, 4, 5, 6, 7]
    assert [a["id"] for a in acts] == ["pl.observe", "pl.shoot", "pl.suppress", "pl.grenade", "pl.aim",
                                       "pl.sprint", "pl.crawl", "pl.swim"]


def test_observe_reveals_hidden_enemies_by_additional_successes():
    # sum-d6, Percepcja 2 + Czujność 0 vs 5: pass 30/36; one additional success on 10-12 (6/36)
    o = pl.observe(MECHANICS["sum-d6"], 2, 0, hidden=3, trudnosc=5)
    assert o.chance == F(30, 36)
    assert o.effect == {0: F(24, 36), 1: F(6, 36)}
    # no hidden enemy: nothing more to reveal
    assert pl.observe(MECHANICS["sum-d6"], 2, 0, hidden=0, trudnosc=5).effect == {0: F(30, 36)}
    # default Trudność of observation: 10 (assumed)
    assert pl.observe(MECHANICS["sum-d6"], 3, 0, hidden=1).trudnosc == 10


def test_grenade_targets_and_enclosed_room():
    # Motoryka 2 + Rzucanie 0 at 10 m: 2d6 vs 10 -> one enemy on 1/6; 15+ impossible
    g = pl.grenade(MECHANICS["sum-d6"], 2, 0, distance=10, in_radius=4)
    assert g.chance == F(1, 6) and g.effect == {1: F(1, 6)}
    # 1d6+... 4d6 vs 10: up to 2 extra successes (15-19, 20-24), capped by those in the radius
    g = pl.grenade(MECHANICS["sum-d6"], 3, 1, distance=10, in_radius=2)
    assert max(g.effect) == 2
    # enclosed room smaller than the blast radius: everyone in it except the additionally hidden
    g = pl.grenade(MECHANICS["sum-d6"], 1, 0, distance=30, in_radius=0, room_size=4, blast_radius=5,
                   room_occupants=5, room_hidden=1)
    assert g.chance == 1 and g.effect == {4: 1}


def test_movement_through_pint():
    doc = documents.load(FIXTURES / "npcs" / "sierzant_kowalski.yaml")
    mv = pl.movement(doc)
    assert (float(mv["sprint"]), float(mv["crawl"]), float(mv["swim"])) == (8.0, 2.0, 4.0)
    doc2 = documents.load(FIXTURES / "npcs" / "anna_nowak.yaml")
    assert float(pl.movement(doc2)["crawl"]) == 1.0  # no Przeszkolenie wojskowe
    assert float(pl.movement_speeds(doc)["sprint"]) == pytest.approx(8 / 3)


# ---- round trips ---------------------------------------------------------------------------

NPCS = sorted((FIXTURES / "npcs").glob("*.yaml"))
SCENARIOS = sorted((FIXTURES / "scenarios").glob("*.yaml"))


def test_enough_fixtures():
    assert len(NPCS) >= 4 and len(SCENARIOS) >= 2


def _plain(doc):
    return {k: v for k, v in codec.to_builtins(doc).items() if k not in ("system", "kind")}


@pytest.mark.parametrize("path", NPCS, ids=lambda p: p.stem)
def test_npc_round_trip(sys_, path):
    doc = documents.load(path)
    neutral = sys_.npc_to_neutral(doc)
    back = sys_.npc_from_neutral(neutral.value)
    assert codec.to_builtins(back.value) == _plain(doc)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_shots_round_trip(sys_, path):
    doc = documents.load(path)
    for scene in doc.scenes:
        for npc in scene.combatants:
            assert codec.to_builtins(sys_.npc_from_neutral(sys_.npc_to_neutral(npc).value).value) == \
                codec.to_builtins(npc)
        for s in scene.shots:
            neutral = sys_.shot_to_neutral(s)
            want = codec.to_builtins(s)
            # a target's catalog armor comes back with its points stated (pl.armor): a shot
            # written from another system shows them, and a shot carries no memory of its source
            for line in want.get("pancerz_celu", []):
                if "punkty" not in line:
                    line["punkty"] = {"nij-iiia-vest": 6}[line["katalog"]]  # as the NPC sheets rate it
            assert codec.to_builtins(sys_.shot_from_neutral(neutral.value).value) == want
            sys_.check(neutral.value)


def test_scenario_example_shot_is_26():
    doc = documents.load(FIXTURES / "scenarios" / "zasadzka_w_lesie.yaml")
    first = doc.scenes[0].shots[0]
    assert SUM.check(SUM.shot_to_neutral(first).value).target == 26


def test_merged_long_weapon_skills_reported():
    from xsys.core.model import Combatant
    ctx = {"Motoryka": 3}
    c = Combatant(name="x", characteristics={"dexterity": 0.5},
                  skills={"rifle": SUM.competence("Broń długa", 1, {**ctx, "@key": "rifle"}),
                          "smg": SUM.competence("Broń długa", 4, {**ctx, "@key": "smg"})})
    r = SUM.npc_from_neutral(c)
    assert any(l.kind == "merged" and "Broń długa" in l.path for l in r.losses)


def test_assumed_shot_parts_reported_in_loss():
    from xsys.conversions import api

    s = shot("rifle", 40, lux=0.25, aim=7.0)
    kinds = {(l.kind, l.rule) for l in SUM.shot_from_neutral(s).losses}
    assert {("assumed", "pl.light"), ("assumed", "pl.turn")} <= kinds  # the light and the turn: the text has neither
    # 7 s of aim is 2 whole turns (6 s): said by the loss audit, which reads the written shot back, under the
    # aim ladder's rule
    conv = api.convert({"system": "neutral", "kind": "shot", **codec.to_builtins(s)}, "pl-trudnosc", trace=False)
    assert [(l.kind, l.rule, l.message) for l in conv.losses if l.path == "$.shooter.aim_time"] == [
        ("assumed", "pl.turn", "7 s is written as celowanie 2 (tura = 3 s assumed)"),
        ("rounded", "pl.aim", "shooter.aim_time 7 s reads back as 6 s from a pl-trudnosc shot")]
    assert conv.document.celowanie == 2


# ---- coverage of rule IDs --------------------------------------------------------------------

def test_every_digest_rule_id_is_implemented():
    assert DIGEST_IDS <= SUM.rule_ids()


def test_every_rule_id_is_in_the_readme():
    text = README.read_text(encoding="utf-8")
    missing = {r for r in SUM.rule_ids() if f"`{r}`" not in text}
    assert not missing


def test_ladder_rows_carry_rules_and_sources():
    for lad in SUM.ladders().values():
        for step in lad.steps:
            assert step.rule.startswith("pl.") and step.source in ("seed", "assumed")
            assert lad.step_of(step.native).native == step.native
            assert lad.native(lad.neutral(step.native)) == step.native


def test_fixture_modifier_ids_are_known():
    ids = SUM.rule_ids()
    for path in SCENARIOS:
        doc = documents.load(path)
        for scene in doc.scenes:
            for s in scene.shots:
                c = SUM.check(SUM.shot_to_neutral(s).value)
                assert {m.rule for m in c.modifiers} <= ids
                for n in c.notes:
                    for r in re.findall(r"\[(pl\.[\w.-]+)\]", n):
                        assert r in ids



def test_catalog_armor_on_a_polish_sheet_shows_its_points():
    """A catalog armor written to a Polish sheet from another system had only nazwa and katalog:
    a GM saw no punkty. It now has the points the table reads it as, and reads back as the same
    armor with nothing said; a Polish line that left them to its catalog item comes back as
    written (its native block remembers it: punkty_implicit)."""
    from pathlib import Path

    import yaml

    from xsys.conversions import api

    root = Path(__file__).resolve().parent.parent
    conv = api.convert(api.load(root / "fixtures/coc-zh/npcs/pmc_contractor.yaml"), "pl-trudnosc", fresh=True,
                       trace=False)
    (line,) = conv.document.pancerz
    assert (line.katalog, line.punkty) == ("military-body-armor", 9)
    back = api.convert(api.from_plain(yaml.safe_load(api.dump(conv, "yaml"))), "neutral", fresh=True, trace=False)
    assert [(a.catalog, float(a.stops)) for a in back.document.armor] == [
        ("military-body-armor", float(api.default_registry().catalog().armor["military-body-armor"].stops))]
    assert not [x for x in back.losses if x.path.startswith("$.pancerz")]
    own = {"system": "pl-trudnosc", "kind": "npc", "imię": "Wartownik", "Motoryka": 3, "Percepcja": 3,
           "Atletyka": 3, "Odwaga": 3, "pancerz": [{"nazwa": "Hełm", "katalog": "m1-helmet"}]}
    same = api.convert(api.from_plain(own), "pl-trudnosc", trace=False).document
    assert [(p.katalog, p.punkty) for p in same.pancerz] == [("m1-helmet", None)]


def test_a_polish_sheet_prints_the_points_its_lines_leave_to_the_catalog():
    """A Polish stat block may name a catalog weapon or armor and leave its points out (the text
    gives no weapon's base damage); its printed sheet showed an empty obrażenia. It shows the
    points the conversion reads for the line, the same number a sheet written from another
    system states for that weapon, with a legend line saying where they come from; the document
    itself stays as written."""
    from xsys.conversions import api
    from xsys.core.catalog import strip_entry
    from xsys.core.trace import Collector

    own = {"system": "pl-trudnosc", "kind": "npc", "imię": "Wartownik", "Motoryka": 3, "Percepcja": 3,
           "Atletyka": 3, "Odwaga": 3,
           "broń": [{"nazwa": "Karabin", "rodzaj": "długa", "katalog": "mauser-kar98k"},
                    {"nazwa": "Pistolet", "rodzaj": "krótka"}],
           "pancerz": [{"nazwa": "Hełm", "katalog": "m1-helmet"}]}
    conv = api.convert(api.from_plain(own), "pl-trudnosc", trace=False)
    assert [b.obrażenia for b in conv.document.broń] == [None, None]  # as written
    sheet = api.dump(conv, "md").decode()
    # the Kar98k's points from any other source: a coc-zh guard's rifle written to a Polish sheet
    guard = api.convert(api.load(ROOT / "fixtures/coc-zh/npcs/warlord_guard.yaml"), "pl-trudnosc", fresh=True,
                        trace=False).document
    rifle = next(b.obrażenia for b in guard.broń if b.katalog == "mauser-kar98k")
    assert f"| Karabin | długa | {rifle} | mauser-kar98k |" in sheet
    pl = PlTrudnosc()
    generic = pl.weapon_from_neutral(generic_weapon("handgun"), Collector("pl-trudnosc"), "$").obrażenia
    assert f"| Pistolet | krótka | {generic} |" in sheet
    assert "*obrażenia*: a line that states none has its catalog weapon's points (pl.damage, assumed scale)" in sheet
    assert "the points of a generic weapon of its kind (the text gives no weapon's base damage; pl.damage" in sheet
    helmet = strip_entry(api.default_registry().catalog().armor["m1-helmet"])
    assert f"| Hełm | {pl.armor_from_neutral(helmet, Collector('pl-trudnosc'), '$').punkty} | m1-helmet |" in sheet


@pytest.mark.parametrize("path", sorted(p for p in (ROOT / "fixtures").glob("*/scenarios/*.yaml")
                                         if p.parent.parent.name != "pl-trudnosc"), ids=lambda p: p.stem)
def test_a_shot_written_from_another_system_states_its_target_armor_points(path):
    """A GM read 'pancerz_celu: Ballistic vest (NIJ IIIA), katalog nij-iiia-vest' with no points
    on a Polish shot converted from CoC: the NPC sheets state them."""
    from xsys.conversions import api

    conv = api.convert(path, "pl-trudnosc", fresh=True)
    lines = [a for sc in codec.to_builtins(conv.document)["scenes"] for s in sc["shots"] for a in s.get("pancerz_celu", [])]
    assert all(isinstance(a.get("punkty"), int) for a in lines), lines
    if path.stem == "dunwich_farmhouse":
        assert {a["katalog"]: a["punkty"] for a in lines if a.get("katalog")}["nij-iiia-vest"] == 6


def test_a_grenade_with_no_points_is_a_hand_grenade_not_a_thrown_stone():
    """A Polish 'Granat' (rzucana, no obrażenia: the text gives no weapon's base damage) read as
    the generic thrown weapon, 50 J and 1 point, and a CoC sheet written from it threw a stone.
    A grenade by its name is the one hand grenade of every sheet (xsys.grenade, 1300 J): the F-1's
    stated 6 points, CoC's 4d10; the Polish document comes back as written."""
    from xsys.conversions import api

    own = {"system": "pl-trudnosc", "kind": "npc", "imię": "Miotacz", "Motoryka": 3, "Percepcja": 3,
           "Atletyka": 3, "Odwaga": 3, "broń": [{"nazwa": "Granat", "rodzaj": "rzucana"}]}
    neutral = api.convert(api.from_plain(own), "neutral", trace=False)
    (nade,) = neutral.document.weapons
    assert float(nade.muzzle_energy) == 1300.0
    said = [x for x in neutral.losses if x.path == "$.broń[0].obrażenia"]
    assert said and said[0].rule == "xsys.grenade" and "6 points" in said[0].message
    stated = api.convert(api.load(FIXTURES / "npcs" / "sierzant_kowalski.yaml"), "neutral", trace=False).document
    assert float(next(w for w in stated.weapons if "F-1" in w.name).muzzle_energy) == 1300.0
    coc = api.convert(api.from_plain(own), "coc", fresh=True, trace=False).document
    assert [w.damage for w in coc.weapons] == ["4d10"]
    same = api.convert(api.from_plain(own), "pl-trudnosc", trace=False).document
    assert [(b.nazwa, b.obrażenia) for b in same.broń] == [("Granat", None)]


def test_an_armor_line_naming_a_catalog_item_is_that_item_and_its_stated_points_win():
    """A Polish armor line is its catalog item by name, as in every system (it was read by its
    points alone): at the item's own points it is the item (its kind and where it sits come
    back); at other points the sheet's points win, said as assumed (core.armorline.stated_note)."""
    from xsys.core.trace import Collector
    from xsys.plugins.pl_trudnosc.model import Pancerz

    sys_ = get_system("pl-trudnosc")
    col = Collector("pl-trudnosc")
    jacket = sys_.armor_to_neutral(Pancerz(nazwa="Heavy leather jacket", punkty=0), col, "$.pancerz[0]")
    assert (float(jacket.stops), jacket.kind, jacket.covers) == (20.0, "garment", ["torso", "arms"])
    assert not col.losses
    vest = sys_.armor_to_neutral(Pancerz(nazwa="Heavy Kevlar vest", punkty=3), col, "$.pancerz[0]")
    assert float(vest.stops) == pl.all_ladders()["armor"].neutral(3) and vest.kind == "soft-vest"
    assert [(x.kind, x.path) for x in col.losses] == [("assumed", "$.pancerz[0].punkty")]
    assert "punkty 3 is not the armor of its catalog item heavy-kevlar-vest (1480 J" in col.losses[0].message
    # written back, the jacket needs no osłania or odbicie: its catalog item gives them
    line = sys_.armor_from_neutral(jacket, Collector("pl-trudnosc"), "$.pancerz[0]")
    assert (line.punkty, line.osłania, line.odbicie) == (0, None, None)


def test_a_weapon_that_carries_energy_does_at_least_a_point():
    """pl.damage (assumed, tables.toml [points] damage_floor): a thrown small knife's 28 J is 1 point, not the 0
    of a line that cannot hurt; the 1-point row still stands for 75 J and a 0-point weapon for no energy, so
    both come back as written; armor keeps the scale (a leather jacket's 20 J stops no point)."""
    from xsys.core.model import Combatant, Weapon
    from xsys.core.units import Energy

    dmg, armor = pl.all_ladders()["damage"], pl.all_ladders()["armor"]
    assert [dmg.native(j) for j in (0.0, 0.5, 1.0, 28.1, 50.0, 99.0, 100.0)] == [0, 0, 1, 1, 1, 1, 2]
    assert (dmg.neutral(1), dmg.neutral(0)) == (75.0, 0.0)
    assert dmg.native(dmg.neutral(1)) == 1 and dmg.native(dmg.neutral(0)) == 0
    assert armor.native(20.0) == 0 and armor.native(50.0) == 1
    sheet = get_system("pl-trudnosc").npc_from_neutral(Combatant(name="k", weapons=[
        Weapon(name="Small Knife", weapon_class="thrown", muzzle_energy=Energy(28.1))])).value
    assert sheet.broń[0].obrażenia == 1
