"""The declared shot (xsys.core.shotsheet): a system names where its shot keeps what the core
converts, which fields are words on its ladders (ShotWord), which hold a neutral value as it is,
which the neutral model has no place for; the core does both conversions and asks the system's
own hooks for the rest. GURPS, nWoD and the Polish system declare their shots this way."""

from __future__ import annotations

import msgspec
import pytest

from xsys.core.model import Cover, Light, Shooter, Shot, Target, generic_weapon
from xsys.core.registry import get_system
from xsys.core.shotsheet import ShotSheet, ShotWord
from xsys.core.system import System
from xsys.core.units import Duration, Illuminance, Length, Speed
from xsys.plugins.gurps.native import GurpsShot
from xsys.plugins.nwod.model import NwodShot
from xsys.plugins.pl_trudnosc.model import Broń, Strzał

GURPS, NWOD, PL = get_system("gurps"), get_system("nwod"), get_system("pl-trudnosc")


def neutral(**over) -> Shot:
    base = Shot(shooter=Shooter(skill=0.5), weapon=generic_weapon("handgun"), target=Target(), distance=Length(10.0),
                light=Light(illuminance=Illuminance(10_000.0)))
    return msgspec.structs.replace(base, **over)


# ---- declarations checked when the class is defined --------------------------------------

class _Shot(msgspec.Struct, kw_only=True):
    weapon: str = ""
    skill: int = 0
    distance: float = 0.0
    speed: float = 0.0


def test_a_same_field_naming_no_path_of_the_neutral_shot_is_refused_when_the_class_is_defined():
    with pytest.raises(TypeError, match=r"Toy\.shot_sheet\.same: 'target\.velocity' is no path of the neutral shot"):
        class Toy(System):  # noqa: F841
            key = "toy"
            shot_type = _Shot
            shot_sheet = ShotSheet(name="", shooter="", target="", same={"speed": "target.velocity"})


def test_a_word_over_no_neutral_quantity_is_refused_when_the_class_is_defined():
    with pytest.raises(TypeError, match=r"its neutral path is not one of"):
        class Toy(System):  # noqa: F841
            key = "toy"
            shot_type = _Shot
            shot_sheet = ShotSheet(name="", shooter="", target="", words=(ShotWord("speed", "target.mood", "x"),))


# ---- words --------------------------------------------------------------------------------

def test_a_named_row_reads_as_its_ladder_row_and_is_written_by_its_name():
    """GURPS's exposure words name the rows of its exposure ladder by their modifier (half: -3)."""
    lad = GURPS.ladders()["exposure"]
    shot = GurpsShot(level=12, weapon="glock-17", distance=Length(10.0), exposure="half")
    read = GURPS.shot_to_neutral(shot).value
    assert float(read.target.cover.exposure) == pytest.approx(float(lad.step_of(-3).rep))
    assert GURPS.shot_from_neutral(read).value.exposure == "half"
    assert GURPS.shot_from_neutral(neutral(target=Target(cover=Cover(exposure=0.2)))).value.exposure == "head_shoulders"


def test_a_row_read_where_it_starts():
    """nWoD's aiming turns and autofire read as where their rows start (2 turns: 6 s; a short
    burst: 3 rounds), and come back as the same words."""
    shot = NwodShot(aiming=2, autofire="short")
    read = NWOD.shot_to_neutral(shot).value
    assert float(read.shooter.aim_time) == 6.0 and read.burst == 3
    back = NWOD.shot_from_neutral(read).value
    assert (back.aiming, back.autofire) == (2, "short")


def test_a_word_off_the_ladder_and_an_assumed_word():
    """The Polish hidden target ("ukryty") is no row of the cover ladder: it reads as nothing
    showing and is written from it; the aiming turn's length is assumed, said both ways (pl.turn)
    unless the shot does not aim."""
    shot = Strzał(broń=Broń(nazwa="pistolet", rodzaj="krótka"), dystans=Length(10.0), osłona_celu="ukryty",
                  celowanie=2)
    res = PL.shot_to_neutral(shot)
    assert float(res.value.target.cover.exposure) == 0.0 and float(res.value.shooter.aim_time) == 6.0
    assert [(x.kind, x.path, x.rule) for x in res.losses if x.rule == "pl.turn"] == [("assumed", "$.celowanie", "pl.turn")]
    back = PL.shot_from_neutral(res.value)
    assert (back.value.osłona_celu, back.value.celowanie) == ("ukryty", 2)
    assert [x.message for x in back.losses if x.rule == "pl.turn"] == ["6 s is written as celowanie 2 (tura = 3 s assumed)"]
    still = PL.shot_from_neutral(neutral())
    assert not [x for x in still.losses if x.rule == "pl.turn"]  # no aim: nothing assumed


def test_a_posture_word_goes_by_silhouette_height():
    """A Polish target posture is a row of its posture ladder: a crouching man is written kneeling
    (the nearest height), which reads back as kneeling."""
    back = PL.shot_from_neutral(neutral(target=Target(posture="crouching"))).value
    assert back.postawa_celu == "klęcząca"
    assert PL.shot_to_neutral(back).value.target.posture == "kneeling"


# ---- fields as they are, fields with no place, the stated skill, the aim's cap ------------

def test_same_fields_pass_through_both_ways():
    shot = neutral(shooter=Shooter(skill=0.5, speed=Speed(1.5), braced=True, posture="kneeling"),
                   target=Target(speed=Speed(3.0), height=Length(1.2)), elevation=Length(4.0), underwater=True)
    gurps = GURPS.shot_from_neutral(shot).value
    assert (float(gurps.shooter_speed), gurps.braced, gurps.shooter_posture) == (1.5, True, "kneeling")
    assert (float(gurps.target_speed), float(gurps.target_height), float(gurps.elevation), gurps.underwater) == \
        (3.0, 1.2, 4.0, True)
    read = GURPS.shot_to_neutral(gurps).value
    assert (read.shooter.speed, read.target.speed, read.target.height, read.elevation) == \
        (shot.shooter.speed, shot.target.speed, shot.target.height, shot.elevation)
    nwod = NWOD.shot_from_neutral(neutral(called_location="head")).value
    assert nwod.specified_target == "head" and NWOD.shot_to_neutral(nwod).value.called_location == "head"


def test_a_field_the_neutral_model_has_no_place_for_is_said_with_its_rule():
    res = GURPS.shot_to_neutral(GurpsShot(level=12, weapon="glock-17", distance=Length(10.0), one_eye=True))
    assert [(x.kind, x.path, x.rule) for x in res.losses] == [
        ("unsupported-field", "$.one_eye", "gurps.hit-modifiers.one_eye")]
    res = NWOD.shot_to_neutral(NwodShot(specialty=True))
    assert ("unsupported-field", "$.specialty", "nwod.specialty") in [(x.kind, x.path, x.rule) for x in res.losses]


def test_a_stated_skill_other_than_its_weapon_class_s_is_said_merged():
    res = GURPS.shot_to_neutral(GurpsShot(skill="Guns (Rifle)", level=12, weapon="glock-17", distance=Length(10.0)))
    assert [(x.kind, x.path, x.message) for x in res.losses if x.kind == "merged"] == [
        ("merged", "$.skill", "Guns (Rifle) with a handgun: the neutral shot rolls Guns (Pistol)")]


def test_a_level_that_reads_back_as_another_says_so():
    """GURPS Guns-1 has the competence of Guns-3 (below its default a level equates as the default):
    the shot's level is said rounded, in GURPS's own words; Guns-12 is not."""
    low = GURPS.shot_to_neutral(GurpsShot(level=1, weapon="glock-17", distance=Length(10.0)))
    back = GURPS.level_for("Guns (Pistol)", low.value.shooter.skill)
    assert back != 1
    assert [(x.kind, x.path, x.message) for x in low.losses] == [
        ("rounded", "$.level", f"Guns (Pistol)-1 has the same handgun competence as Guns (Pistol)-{back}, which a "
                               "neutral shot converts back to")]
    assert not GURPS.shot_to_neutral(GurpsShot(level=12, weapon="glock-17", distance=Length(10.0))).losses


def test_aim_past_what_the_shot_holds_is_clamped_under_its_rule():
    res = GURPS.shot_from_neutral(neutral(shooter=Shooter(skill=0.5, aim_time=Duration(250.0))))
    assert res.value.aim_turns == 100
    assert [(x.kind, x.rule) for x in res.losses if x.path == "$.shooter.aim_time"] == [("clamped", "gurps.maneuvers.aim")]


def test_a_shot_with_no_distance_field_takes_it_from_the_system_s_own_hook():
    """An nWoD shot states a range band on its weapon's chart line: the distance is its own."""
    read = NWOD.shot_to_neutral(NwodShot(range="long")).value
    back = NWOD.shot_from_neutral(read).value
    assert back.range == "long" and float(read.distance) > 0


@pytest.mark.parametrize("system, shot", [
    (GURPS, GurpsShot(level=13, weapon="glock-17", distance=Length(25.0), exposure="half", aim_turns=2, braced=True,
                      target_posture="kneeling", light=-3, location="head")),
    (NWOD, NwodShot(Dexterity=3, Firearms=2, range="medium", lighting="dim", concealment="partial", aiming=1,
                    autofire="medium", prone=True, specified_target="head")),
    (PL, Strzał(Motoryka=4, umiejętność=3, broń=Broń(nazwa="pistolet", rodzaj="krótka"), dystans=Length(20.0),
                ruch_celu="marsz", postawa_celu="leżąca", osłona_celu="zza osłony", celowanie=1, oświetlenie="zmierzch")),
])
def test_a_declared_native_shot_survives_native_neutral_native(system, shot):
    assert system.shot_from_neutral(system.shot_to_neutral(shot).value).value == shot


def test_the_audit_cites_the_rule_the_target_writes_a_value_by():
    """A value a shot writes that reads back as another cites the target's rule for it: a declared
    word its ladder's, any other part of the shot its ``shot_rules`` entry, the level its skill's."""
    from xsys.conversions import api
    from xsys.core import codec

    shot = neutral(distance=Length(8.0), light=Light(illuminance=Illuminance(6.5)),
                   shooter=Shooter(skill=0.6, aim_time=Duration(1.5)))
    conv = api.convert({"system": "neutral", "kind": "shot", **codec.to_builtins(shot)}, "nwod", trace=False)
    cited = {x.path: x.rule for x in conv.losses if x.kind == "rounded"}
    assert cited["$.distance"] == "nwod.range"
    assert cited["$.light.illuminance"] == "nwod.darkness"
    assert cited["$.shooter.aim_time"] == "nwod.aim"  # a word: its ladder's rule
    assert cited["$.shooter.skill"] == "nwod.pool"
    assert all(x.rule for x in conv.losses if x.kind in ("rounded", "clamped", "merged"))


def test_an_unknown_barrier_material_names_the_field():
    from xsys.core.errors import InputError
    from xsys.plugins.pl_trudnosc.model import Przeszkoda

    shot = Strzał(broń=Broń(nazwa="pistolet", rodzaj="krótka"), dystans=Length(10.0),
                  przeszkoda=Przeszkoda(materiał="cheese", grubość=Length(0.03)))
    with pytest.raises(InputError) as err:
        PL.shot_to_neutral(shot)
    assert err.value.path == "$.przeszkoda.materiał" and "'cheese'" in str(err.value)


def test_a_shot_that_does_not_aim_spends_no_time_aiming():
    """A 7th-edition shot that does not aim is 0 s of aim, not half a round: it had become a
    careful aim in 6th edition and a turn of Aim in GURPS (coc7.aim)."""
    from pathlib import Path

    from xsys.conversions import api

    c7 = get_system("coc7")
    doc = api.load(Path(__file__).resolve().parent.parent / "fixtures" / "coc7" / "scenarios" / "kingsport_docks.yaml")
    shots = [s for scene in doc.document.scenes for s in scene.shots]
    assert {s.aiming for s in shots} == {True, False}
    for s in shots:
        aim = float(c7.shot_to_neutral(s).value.shooter.aim_time)
        assert aim == (6.0 if s.aiming else 0.0)
        assert GURPS.shot_from_neutral(c7.shot_to_neutral(s).value).value.aim_turns == (6 if s.aiming else 0)


# ---- the d100 family's sheet (core.percentile.D100_SHOT) on the same path ------------------

COC, COC7 = get_system("coc"), get_system("coc7")


def test_a_characteristic_that_may_be_unstated_stays_unstated_both_ways_and_a_required_one_is_the_median_said():
    """A d100 shot's DEX defaults to None: a shot stating none gives the neutral shooter no
    dexterity, and a neutral shooter with none writes no DEX and says nothing; nWoD's Dexterity
    must be written, so it is the adult median's, said as assumed."""
    from xsys.plugins.coc7 import Coc7Shot

    there = COC7.shot_to_neutral(Coc7Shot(weapon="colt-m1911a1", distance=Length(10.0), skill_value=50))
    assert there.value.shooter.characteristics == {}
    back = COC7.shot_from_neutral(neutral())
    assert back.value.DEX is None and not [x for x in back.losses if x.path == "$.DEX"]
    nwod = NWOD.shot_from_neutral(neutral())
    assert nwod.value.Dexterity == 2  # the median adult's two dots
    assert ("assumed", "$.Dexterity") in [(x.kind, x.path) for x in nwod.losses]
    stated = COC7.shot_from_neutral(neutral(shooter=Shooter(skill=0.5, characteristics={"dexterity": 0.9})))
    assert stated.value.DEX is not None and stated.value.DEX % 5 == 0  # 7th edition writes multiples of five


def test_aids_in_the_shot_s_own_words_and_a_barrier_in_its_own_struct_cross_both_ways():
    from xsys.core.model import Barrier

    shot = neutral(light=Light(illuminance=Illuminance(0.0), aids=["hand-light"]),
                   target=Target(cover=Cover(exposure=0.0, barrier=Barrier(material="brick", thickness=Length(0.1)))))
    res = COC.shot_from_neutral(shot)
    assert res.value.light_aids == ["flashlight"] and type(res.value.cover).__name__ == "CocBarrier"
    assert (res.value.cover.material, float(res.value.cover.thickness)) == ("brick", 0.1)
    assert [(t.target_value, t.rules) for t in res.trace if t.path == "$.light"] == [(res.value.light, ["coc-ja.darkness"])]
    again = COC.shot_to_neutral(res.value).value
    assert again.light.aids == ["hand-light"] and isinstance(again.target.cover.barrier, Barrier)


def test_a_shot_armor_loss_is_placed_at_the_source_s_armor_line():
    """A loss about one armor item of a shot (target.armor[0] in the neutral shot) is placed at
    the source's own line of it (target_armor[0]), not at the whole list."""
    from xsys.conversions import api

    doc = {"system": "gurps", "kind": "shot", "level": 12, "weapon": "glock-17", "distance": "10 m",
           "target_armor": [{"name": "Kevlar vest", "PD": 2, "DR": 12}]}
    conv = api.convert(api.from_plain(doc, file="shot.yaml"), "nwod")
    armor = [x.path for x in conv.losses if "armor" in x.path]
    assert armor and all(p.startswith("$.target_armor[0]") for p in armor), armor
