"""GURPS 3rd edition plugin: tables, resolution and the ranged-attack formula
(shared/rules/gurps-3e-tables.md; rule IDs cited per test)."""

from __future__ import annotations

import itertools
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from xsys.core.model import Armor, Barrier, Cover, Light, Shooter, Shot, Target, standard_shot
from xsys.core.registry import default_registry
from xsys.core.units import Energy, Length, Speed
from xsys.plugins.gurps.native import GurpsShot
from xsys.plugins.gurps.system import (
    BANDS, Gurps, dice_code, dice_text, effective_distance, lookup, rule_tables, success,
)

KMH = 1000.0 / 3600.0  # true m/s per km/h


@pytest.fixture(scope="module")
def gurps() -> Gurps:
    return default_registry().system("gurps")  # type: ignore[return-value]


# ---- closed-form 3d6 ----------------------------------------------------------------------

ROLLS = [sum(r) for r in itertools.product(range(1, 7), repeat=3)]


def brute(tn: int) -> tuple[Fraction, Fraction, Fraction]:
    """The 3e bands written out independently of the core engine (gurps.resolution)."""
    s = cs = cf = 0
    for r in ROLLS:
        ok = r <= 4 or (r <= tn and r <= 16)
        if ok:
            s += 1
            if r <= 4 or (r == 5 and tn >= 15) or (r == 6 and tn >= 16):
                cs += 1
        elif r == 18 or (r == 17 and tn < 16) or r >= tn + 10:
            cf += 1
    return Fraction(s, 216), Fraction(cs, 216), Fraction(cf, 216)


def test_half_at_ten():  # gurps.resolution: P(3d6 <= 10) = 1/2
    assert success(10) == Fraction(1, 2)
    assert success(14) == Fraction(196, 216)


@pytest.mark.parametrize("tn", range(-12, 26))
def test_critical_bands_against_closed_form(tn):  # gurps.resolution
    from xsys.core.dice import roll_under

    o = roll_under(tn, BANDS)
    assert (o.success, o.critical_success, o.critical_failure) == brute(tn)


def test_band_edges():  # 3-4 always succeed, 17-18 always fail
    assert success(-20) == Fraction(4, 216)  # only 3 and 4
    assert success(30) == Fraction(216 - 4, 216)  # 17 and 18 fail
    from xsys.core.dice import roll_under

    assert roll_under(14, BANDS).critical_success == Fraction(4, 216)  # 5 not yet critical
    assert roll_under(15, BANDS).critical_success == Fraction(10, 216)  # 5 critical at 15+
    assert roll_under(16, BANDS).critical_success == Fraction(20, 216)  # 6 critical at 16+
    assert roll_under(15, BANDS).critical_failure == Fraction(4, 216)  # 17 and 18 below 16
    assert roll_under(16, BANDS).critical_failure == Fraction(1, 216)  # only 18 at 16
    assert roll_under(5, BANDS).critical_failure == Fraction(sum(1 for r in ROLLS if r >= 15), 216)  # >= skill+10


# ---- gurps.ssr ------------------------------------------------------------------------------

# (speed/range modifier, value in metres) -- every row of the table, as printed.
SSR = [
    (15, 0.002), (14, 0.005), (13, 0.01), (12, 0.015), (11, 0.02), (10, 0.03), (9, 0.04), (8, 0.05),
    (7, 0.08), (6, 0.15), (5, 0.30), (4, 0.45), (3, 0.60), (2, 1), (1, 1.5), (0, 2), (-1, 3), (-2, 4.5),
    (-3, 7), (-4, 10), (-5, 15), (-6, 20), (-7, 30), (-8, 45), (-9, 70), (-10, 100), (-11, 150),
    (-12, 200), (-13, 300), (-14, 450), (-15, 700), (-16, 1000), (-17, 1500), (-18, 2000), (-19, 3000),
    (-20, 4500), (-21, 7000), (-22, 10000), (-23, 15000), (-24, 20000), (-25, 30000), (-31, 300000),
    (-37, 3e6), (-43, 3e7), (-49, 3e8),
]


def test_ssr_has_every_row(gurps):
    lad = gurps.ladder("ssr")
    assert [(s.native, pytest.approx(s.at)) for s in lad.steps] == [(n, pytest.approx(v)) for n, v in SSR]
    assert len(lad) == 45
    assert all(s.rule == "gurps.ssr" and s.source == "seed" for s in lad.steps)


@pytest.mark.parametrize("mod,value", SSR)
def test_ssr_row_exact_and_round_up(gurps, mod, value):  # gurps.ssr: round up to the next row
    lad = gurps.ladder("ssr")
    assert lad.native(value) == mod  # exactly on the row
    assert lad.native(value * 0.999) == mod  # just below: rounds up to this row
    i = [m for m, _ in SSR].index(mod)
    if i + 1 < len(SSR):
        assert lad.native(value * 1.001) == SSR[i + 1][0]  # just above: the next row
    # size column: the same row with the sign reversed
    assert -lad.native(value) == -mod


def test_ssr_digest_examples(gurps):
    lad = gurps.ladder("ssr")
    assert lad.native(25) == -7  # stationary target at 25 m -> 30 m row
    assert lad.native(10) == -4  # exactly 10 m
    assert -lad.native(1.8) == 0  # size 1.8 m -> 2 m row
    assert -lad.native(2.1) == 1  # size 2.1 m -> 3 m row


def _shot(**kw) -> Shot:
    base = dict(weapon=standard_shot("handgun").weapon, distance=Length(10.0))
    base.update(kw)
    return Shot(**base)


def _ssr_mod(check) -> int:
    return sum(int(m.value) for m in check.modifiers if m.rule == "gurps.ssr" and m.why.startswith("speed/range"))


def test_ssr_speed_plus_distance_with_the_texts_div3(gurps):
    # Digest: 20 m away moving at 30 km/h -> 30 / 3 = 10 -> value 30 -> -7. The neutral speed is
    # true m/s; the plugin applies the text's km/h / 3 (documented choice, README "speed").
    ch = gurps.check(_shot(distance=Length(20.0), target=Target(speed=Speed(30 * KMH))))
    assert _ssr_mod(ch) == -7
    # The sum crosses a row where distance alone does not: 18 m (-6) + 7 km/h (7/3) = 20.33 -> 30 m row.
    assert _ssr_mod(gurps.check(_shot(distance=Length(18.0)))) == -6
    assert _ssr_mod(gurps.check(_shot(distance=Length(18.0), target=Target(speed=Speed(7 * KMH))))) == -7
    # km/h / 3 rather than / 3.6: 6 km/h at 18 m: 18 + 2 = 20 -> -6 (true m/s would give 19.67, same row)
    # while 9 km/h at 17.5 m: 17.5 + 3 = 20.5 -> -7 (true m/s: 20.0 -> -6).
    assert _ssr_mod(gurps.check(_shot(distance=Length(17.5), target=Target(speed=Speed(9 * KMH))))) == -7


def test_height_changes_effective_distance():  # gurps.height shoot_down / shoot_up
    assert effective_distance(30, 4) == 28  # 2 m of distance off per 2 m higher
    assert effective_distance(30, 5) == 28  # per full 2 m
    assert effective_distance(10, 40) == 5  # never below half the distance
    assert effective_distance(30, -3) == 33  # +1 m per 1 m lower
    assert effective_distance(30, 0) == 30


def test_height_in_the_check(gurps):
    ch = gurps.check(_shot(distance=Length(31.0), elevation=Length(2.0)))  # 31 -> 30 m: -7 not -8
    assert [m.value for m in ch.modifiers if m.rule == "gurps.height.shoot_down"] == [1]
    ch = gurps.check(_shot(distance=Length(29.0), elevation=Length(-2.0)))  # 29 -> 31 m: -8
    assert [m.value for m in ch.modifiers if m.rule == "gurps.height.shoot_up"] == [-1]


# ---- the worked example -----------------------------------------------------------------------

def test_issue_example_skill14_30m_half_dim(gurps):
    """Skill 14, 30 m, half exposed, dim light -3 -> 14 - 7 - 3 - 3 = 1 -> P = 4/216 (only 3-4).
    Unaimed, 1 is below the pistol's SS 10, so the snap-shot -4 follows (gurps.ranged-modifiers):
    -3 has the same exact chance, since 3 and 4 always succeed."""
    n = GurpsShot(level=14, weapon="glock-17", distance=Length(30.0), exposure="half", light=-3)
    ch = gurps.check_native(n)
    before_snap = 14 + sum(int(m.value) for m in ch.modifiers if m.rule != "gurps.ranged-modifiers.snap_shot")
    assert before_snap == 1
    vals = {m.rule: m.value for m in ch.modifiers}
    assert vals["gurps.ssr"] in (-7, 0)
    assert vals["gurps.ranged-modifiers.tgt_half"] == -3
    assert vals["gurps.hit-modifiers.poor_light"] == -3
    assert vals["gurps.ranged-modifiers.snap_shot"] == -4
    assert ch.target == -3
    assert ch.chance == Fraction(4, 216) == success(1)
    # With one turn of aim (Acc 2, no snap shot): 14 - 13 + 2 = 3 -> still only 3-4.
    ch = gurps.check_native(GurpsShot(level=14, weapon="glock-17", distance=Length(30.0), exposure="half",
                                       light=-3, aim_turns=1))
    assert ch.target == 3 and ch.chance == Fraction(4, 216)


def test_standard_shot_pistol_14_is_half(gurps):  # 10 m -> -4; 14 - 4 = 10 = SS: no snap shot
    shot = standard_shot("handgun")
    assert gurps.check_at(shot, "Guns (Pistol)", 14).chance == Fraction(1, 2)
    assert gurps.check_at(shot, "Guns (Pistol)", 13).chance == success(13 - 4 - 4)  # 9 < SS 10: -4


def test_aim_bonus_and_cap(gurps):
    # gurps.ranged-modifiers aim_1..aim_4, brace; aim bonus <= skill (gurps.ranged-attack).
    def aim(level, turns, braced=False):
        ch = gurps.check_native(GurpsShot(level=level, weapon="remington-700-308", distance=Length(2.0),
                                          aim_turns=turns, braced=braced))
        return sum(int(m.value) for m in ch.modifiers if "aim_" in m.rule or m.rule.endswith(".brace"))

    assert aim(20, 1) == 13  # + Acc 13
    assert aim(20, 2) == 14
    assert aim(20, 3) == 15
    assert aim(20, 4) == 16 and aim(20, 9) == 16  # max +3
    assert aim(20, 3, braced=True) == 16  # braced +1
    assert aim(12, 3, braced=True) == 12  # capped at skill 12 (digest example: 12+... capped)
    assert aim(8, 3, braced=True) == 8


def test_digest_aim_example():
    # gurps.ranged-attack sketch: skill 12, Acc 7, 3 turns, braced -> 7 + 2 + 1 = 10 (not capped); skill 8 -> 8.
    from xsys.plugins.gurps.native import GurpsWeapon

    w = GurpsWeapon(name="bow-like", skill="Guns (Rifle)", damage="2d", Acc=7, SS=12)
    g = Gurps()
    for level, expect in ((12, 10), (8, 8)):
        ch = g.check_native(GurpsShot(level=level, weapon=w, distance=Length(2.0), aim_turns=3, braced=True))
        assert sum(int(m.value) for m in ch.modifiers if "aim_" in m.rule or m.rule.endswith(".brace")) == expect


def test_snap_shot_only_without_aim(gurps):
    n = GurpsShot(level=12, weapon="glock-17", distance=Length(10.0))
    assert any(m.rule.endswith("snap_shot") for m in gurps.check_native(n).modifiers)  # 8 < SS 10
    n = GurpsShot(level=12, weapon="glock-17", distance=Length(10.0), aim_turns=1)
    assert not any(m.rule.endswith("snap_shot") for m in gurps.check_native(n).modifiers)


def test_situation_rows(gurps):
    def mods(**kw):
        return {m.rule: m.value for m in gurps.check_native(GurpsShot(level=14, weapon="glock-17",
                                                                      distance=Length(2.0), **kw)).modifiers}

    assert mods(exposure="head_only")["gurps.ranged-modifiers.tgt_head_only"] == -5
    assert mods(exposure="head_shoulders")["gurps.ranged-modifiers.tgt_head_shoulders"] == -4
    assert mods(exposure="light_cover")["gurps.ranged-modifiers.tgt_light_cover"] == -2
    assert mods(exposure="hidden")["gurps.ranged-modifiers.tgt_hidden"] == -7
    assert mods(behind_characters=2)["gurps.ranged-modifiers.tgt_behind_char"] == -8
    assert mods(target_posture="kneeling")["gurps.ranged-modifiers.tgt_low"] == -2
    assert mods(target_posture="prone")["gurps.ranged-modifiers.tgt_crawl_prone"] == -4
    assert mods(shooter_posture="crouching")["gurps.posture.crouching"] == -2
    assert mods(shooter_posture="prone")["gurps.posture.prone"] == -4
    assert mods(off_hand=True)["gurps.hit-modifiers.off_hand"] == -4
    assert mods(shooter_ST=6)["gurps.hit-modifiers.low_st"] == -2  # Glock ST 8
    assert mods(light=-10)["gurps.hit-modifiers.darkness"] == -10
    assert mods(location="vitals")["gurps.hit-location.vitals"] == -3
    assert mods(location="eye")["gurps.hit-location.eye"] == -9
    assert mods(opportunity_hexes=3)["gurps.ranged-modifiers.of_3_4"] == -5
    assert mods(opportunity_hexes=12)["gurps.ranged-modifiers.of_10_plus"] == -8
    assert mods(pop_up=True)["gurps.ranged-modifiers.pop_up"] == -2
    assert mods(underwater=True)["gurps.hit-modifiers.in_water"] == -6
    assert mods(shooter_speed=Speed(5.0))["gurps.maneuvers.move"] == -4
    # blind fire: -10 and target number at most 9
    ch = gurps.check_native(GurpsShot(level=30, weapon="glock-17", distance=Length(2.0), blind_fire=True))
    assert ch.target == 9
    # nearsighted doubles the speed/range modifier
    ch = gurps.check_native(GurpsShot(level=14, weapon="glock-17", distance=Length(10.0), nearsighted=True))
    assert {m.rule: m.value for m in ch.modifiers}["gurps.ranged-modifiers.nearsighted"] == -4


def test_crawling_shooter_cannot_fire(gurps):  # gurps.posture: crawling, close combat only
    ch = gurps.check(_shot(shooter=Shooter(posture="crawling")))
    assert ch.chance == 0


def test_light_ladder_breakpoints(gurps):  # gurps.hit-modifiers, lux breakpoints assumed
    lad = gurps.ladder("light")
    assert lad.native(0.0) == -10
    assert lad.native(0.25) == -4
    assert lad.native(1.0) == -3
    assert lad.native(10.0) == -1
    assert lad.native(10_000.0) == 0
    assert lad.natives == list(range(-10, 1))


# ---- monotonicity (hypothesis) -----------------------------------------------------------------

def chance(g, **kw):
    return g.check(_shot(**kw)).chance


pair = lambda lo, hi: st.tuples(st.floats(lo, hi), st.floats(lo, hi)).map(sorted)  # noqa: E731


@settings(max_examples=60, deadline=None)
@given(pair(0, 3000), st.floats(0, 1))
def test_monotone_distance(d, skill):
    g = Gurps()
    a, b = d
    s = Shooter(skill=skill)
    assert chance(g, distance=Length(a), shooter=s) >= chance(g, distance=Length(b), shooter=s)


@settings(max_examples=60, deadline=None)
@given(pair(0, 100), pair(0, 10))
def test_monotone_speeds(v, w):
    g = Gurps()
    assert chance(g, target=Target(speed=Speed(v[0]))) >= chance(g, target=Target(speed=Speed(v[1])))
    assert chance(g, shooter=Shooter(speed=Speed(w[0]))) >= chance(g, shooter=Shooter(speed=Speed(w[1])))


@settings(max_examples=60, deadline=None)
@given(pair(0, 20000), pair(0, 1), st.floats(0, 1))
def test_monotone_light_exposure_skill(lux, ex, skill):
    g = Gurps()
    assert chance(g, light=Light(illuminance=lux[0])) <= chance(g, light=Light(illuminance=lux[1]))
    assert chance(g, target=Target(cover=Cover(exposure=ex[0]))) <= chance(g, target=Target(cover=Cover(exposure=ex[1])))
    assert chance(g, shooter=Shooter(skill=min(skill, 1.0) * 0.5)) <= chance(g, shooter=Shooter(skill=skill))


def test_monotone_target_posture(gurps):
    order = ["standing", "crouching", "kneeling", "sitting", "crawling", "prone"]
    cs = [chance(gurps, target=Target(posture=p)) for p in order]
    assert cs == sorted(cs, reverse=True)


@settings(max_examples=40, deadline=None)
@given(pair(0, 0.5), pair(0, 60000))
def test_monotone_barrier_and_armor_damage(t, stops):
    g = Gurps()

    def dmg(**kw):
        return g.check(_shot(**kw)).damage_mean

    hidden = lambda th: Target(cover=Cover(exposure=0.0, barrier=Barrier(material="brick", thickness=Length(th))))  # noqa: E731
    assert dmg(target=hidden(t[0])) >= dmg(target=hidden(t[1]))
    assert chance(g, target=hidden(t[0])) >= chance(g, target=hidden(t[1]))
    arm = lambda s: Target(armor=[Armor(name="a", stops=Energy(s))])  # noqa: E731
    assert dmg(target=arm(stops[0])) >= dmg(target=arm(stops[1]))


@settings(max_examples=60, deadline=None)
@given(pair(0, 40000))
def test_damage_and_dr_ladders_monotone(e):
    g = Gurps()
    assert g.ladder("damage").native(e[0]) <= g.ladder("damage").native(e[1])
    assert g.ladder("dr").native(e[0]) <= g.ladder("dr").native(e[1])


# ---- damage, armor -------------------------------------------------------------------------

def test_dice_codes():
    assert dice_code("2d+2") == 10 and dice_text(10) == "2d+2"
    assert dice_code("1d-3") == 1 and dice_text(1) == "1d-3"
    assert dice_code("7d") == 28 and dice_text(28) == "7d"


def test_damage_mean_past_dr(gurps):
    # glock-17: 2d+2 (weapons.toml), mean 9 per hit unarmoured; damage_mean is per shot (a miss
    # counts 0); vs a IIIA vest (1480 J -> DR 15) hardly anything.
    ch = gurps.check(Shot(weapon=_cat("glock-17"), distance=Length(10.0)))
    assert ch.damage_mean == pytest.approx(float(ch.chance) * 9.0)
    assert sum(Fraction(p) for p in ch.damage.values()) == 1
    vest = Target(armor=[Armor(name="IIIA", stops=Energy(1480.0))])
    ch = gurps.check(Shot(weapon=_cat("glock-17"), distance=Length(10.0), target=vest))
    assert gurps.ladder("dr").native(1480.0) == 15
    assert ch.damage_mean == pytest.approx(0.0)  # 2d+2 never exceeds 14
    # head: skull DR 2, x4 (gurps.hit-location.head)
    ch = gurps.check(Shot(weapon=_cat("glock-17"), distance=Length(10.0), called_location="head"))
    assert ch.damage_mean == pytest.approx(float(ch.chance) * 4 * 7.0)


def _cat(wid):
    from xsys.core.catalog import strip_entry
    from xsys.core.registry import catalog

    return strip_entry(catalog().weapons[wid])


# ---- data tables and rule IDs -------------------------------------------------------------

def test_lookup_by_roll():
    assert lookup("gurps.crit.basic", 10)["effect"] == "Normal damage"
    assert lookup("gurps.crit.head", 3)["effect"] == "Target killed outright"
    assert lookup("gurps.fumble.firearm", 18)["effect"].startswith("Gun explodes")
    assert lookup("gurps.fumble.firearm", 10) == {
        "from": 9, "to": 11,
        "effect": "Jam: Guns-4 or Armoury roll to clear; cheap guns -3 more. Grenade: ignore and reroll"}
    assert lookup("gurps.fright", 5)["effect"].startswith("Stunned 1 turn")
    assert lookup("gurps.fright", 40)["effect"].startswith("As 39")
    assert lookup("gurps.hit-location", "vitals")["modifier"] == -3
    assert lookup("gurps.maneuvers", "aim")["attack"].endswith("max +3")
    # The seed has row 18 of the sorcery fumble table (the digest says it is missing).
    assert "incapacitated" in lookup("gurps.sorcery.fumble", 18)["effect"]


@pytest.mark.parametrize("rule", ["gurps.crit.basic", "gurps.fumble.basic", "gurps.crit.head", "gurps.fumble.firearm",
                                  "gurps.hyakki.crit", "gurps.hyakki.fumble", "gurps.sorcery.fumble"])
def test_roll_tables_cover_3_to_18(rule):
    for r in range(3, 19):  # the row of each roll holds that roll and says what happens
        row = lookup(rule, r)
        assert row.get("roll") == r or row["from"] <= r <= row["to"], (rule, r, row)
        assert isinstance(row["effect"], str) and len(row["effect"]) >= 9, (rule, r, row)


def test_fright_covers_4_to_40():
    for r in range(4, 41):  # the row of each roll holds that roll and says what happens
        row = lookup("gurps.fright", r)
        assert row.get("roll") == r or row["from"] <= r <= row["to"], (r, row)
        assert isinstance(row["effect"], str) and len(row["effect"]) >= 17, (r, row)
    assert lookup("gurps.fright", 4)["effect"] == "Stunned 1 turn; recovers automatically on the 2nd turn"


def test_hit_location_rows_match_digest():
    mods = {r["key"]: r["modifier"] for r in rule_tables()["gurps.hit-location"]["rows"]}
    assert mods == {"head": -7, "face": -5, "eye": -9, "eye_helmet_gap": -7, "jaw": -6, "nose": -6, "throat": -5,
                    "arm_far": -4, "hand_random": -4, "hand_far": -8, "arm_near": -2, "torso": 0, "leg_far": -2,
                    "leg_near": -2, "foot_random": -3, "vitals": -3, "kidneys": -4, "groin": -3, "weapon": -4,
                    "disarm": -6}


DIGEST = Path(__file__).resolve().parents[2] / "shared" / "rules" / "gurps-3e-tables.md"
DIGEST_IDS = {
    "gurps.maneuvers", "gurps.hit-location", "gurps.crippling", "gurps.posture", "gurps.hit-modifiers",
    "gurps.underwater", "gurps.height", "gurps.ranged-modifiers", "gurps.ssr", "gurps.fright", "gurps.stun",
    "gurps.crit.basic", "gurps.fumble.basic", "gurps.crit.head", "gurps.fumble.firearm", "gurps.hyakki.crit",
    "gurps.hyakki.fumble", "gurps.sorcery.fumble", "gurps.ranged-attack", "gurps.hit-location.vitals",
    "gurps.maneuvers.aim", "gurps.hit-location.face", "gurps.hit-location.disarm", "gurps.ranged-modifiers.shoot_up",
    "gurps.hit-modifiers.in_water",
}


def test_every_digest_rule_id_is_implemented(gurps):
    ids = set(DIGEST_IDS)
    if DIGEST.exists():
        text = DIGEST.read_text(encoding="utf-8")
        found = {m.rstrip(".") for m in re.findall(r"`(gurps\.[a-z0-9_.\-]+)`", text)}
        ids |= found
        assert DIGEST_IDS <= found | {"gurps.hit-modifiers.in_water"}
    missing = ids - gurps.rule_ids()
    assert not missing


def test_every_modifier_cites_a_known_rule(gurps):
    ids = gurps.rule_ids()
    n = GurpsShot(level=14, weapon="glock-17", distance=Length(31.0), elevation=Length(4.0), exposure="half",
                  light=-3, target_posture="kneeling", shooter_posture="crouching", off_hand=True, shooter_ST=5,
                  location="vitals", opportunity_hexes=2, pop_up=True, one_eye=True, shock=-2, unfamiliar="unknown_weapon",
                  bad_condition=-4, nearsighted=True, behind_characters=1, target_speed=Speed(3.0))
    ch = gurps.check_native(n)
    assert len(ch.modifiers) >= 15
    for m in ch.modifiers:
        assert m.rule in ids and m.source in ("seed", "assumed")


def test_house_rule_modifiers_by_kind(gurps):
    from xsys.core.trace import Modifier

    base = gurps.check(_shot(shooter=Shooter(skill=gurps.competence("Guns (Pistol)", 14))))
    assert base.target == 10
    add = Modifier(rule="house.x", kind="add", value=2, source="assumed")
    assert gurps.check(_shot(shooter=Shooter(skill=gurps.competence("Guns (Pistol)", 14))), extra=[add]).target == 12
    diff = Modifier(rule="house.y", kind="difficulty", value=1, source="assumed")
    assert gurps.check(_shot(shooter=Shooter(skill=gurps.competence("Guns (Pistol)", 14))), extra=[diff]).target == 9 - 4  # 9 < SS 10: snap shot
    half = Modifier(rule="house.z", kind="multiply", value=0.5, source="assumed")
    assert gurps.check(_shot(shooter=Shooter(skill=gurps.competence("Guns (Pistol)", 14))), extra=[half]).target == 5 - 4


def test_huge_aim_time_is_clamped_and_reads_back(gurps):
    """A finite but huge aim time must not write an unreadable shot (aim_turns <= 100)."""
    import msgspec

    from xsys.core.units import Duration
    from xsys.plugins.gurps.native import GurpsShot as NativeShot

    shot = msgspec.structs.replace(standard_shot("handgun"), shooter=Shooter(aim_time=Duration(1e300)))
    res = gurps.shot_from_neutral(shot)
    assert res.value.aim_turns == 100
    assert any(l.kind == "clamped" and l.path == "$.shooter.aim_time" for l in res.losses)
    from xsys.core import codec

    codec.convert(codec.to_builtins(res.value), NativeShot)  # valid again


def test_the_roll_text_says_what_the_table_rolls_past_the_ends():
    """A target number below 3 is not "roll -1 or less": a 3 or 4 always hits; above 16 a 17 or
    18 still misses (gurps.resolution)."""
    from xsys.plugins.gurps.system import _roll_text

    assert _roll_text(12) == "roll 12 or less"
    assert _roll_text(-1) == "target -1: only a 3 or 4 hits (they always do)"
    assert _roll_text(3) == "target 3: only a 3 or 4 hits (they always do)"
    assert _roll_text(4) == "roll 4 or less"
    assert _roll_text(19) == "target 19: roll 16 or less (a 17 or 18 always misses)"
