"""What a GM reviewing converted GURPS material checks: a converted sheet says what `xsys odds`
says for the same shot (light aids), helmets on the head, derived stats by 3e's rules, one
cartridge one damage line."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import msgspec
import pytest

from xsys.conversions import api
from xsys.core.model import Light, Shooter
from xsys.core.model import standard_shot
from xsys.core.registry import default_registry
from xsys.core.units import Duration, Length
from xsys.plugins.gurps.system import Gurps, success

ROOT = Path(__file__).resolve().parents[1]
SPEAKEASY = ROOT / "fixtures/coc/scenarios/speakeasy_raid.yaml"
SHANGHAI = ROOT / "fixtures/coc-zh/scenarios/shanghai_warehouse_1927.yaml"


@pytest.fixture(scope="module")
def gurps() -> Gurps:
    return default_registry().system("gurps")  # type: ignore[return-value]


def _mods(check) -> list[tuple[str, object]]:
    return sorted((m.rule, m.value) for m in check.modifiers)


# ---- 1. a light aid is folded into the written light modifier ----------------------------

@pytest.mark.parametrize("path", [SPEAKEASY, SHANGHAI], ids=lambda p: p.stem)
def test_written_shots_check_as_the_odds_of_their_neutral_shots(gurps, path):
    """Every shot of the scenario: the GURPS shot the converter writes, checked natively, has
    the modifiers, target number and chance that `xsys odds` gives for the neutral shot."""
    neutral = api.convert(path, "neutral", fresh=True).document
    written = api.convert(path, "gurps", fresh=True).document
    pairs = [(a, b) for sn, sg in zip(neutral.scenes, written.scenes) for a, b in zip(sn.shots, sg.shots)]
    assert len(pairs) >= 3
    for a, b in pairs:
        odds, sheet = gurps.check(a), gurps.check_native(b)
        assert (sheet.target, sheet.chance) == (odds.target, odds.chance), a.name
        assert _mods(sheet) == _mods(odds), a.name


def _shot(path, name):
    conv = api.convert(path, "gurps", fresh=True)
    shots = [s for sc in conv.document.scenes for s in sc.shots]
    return next(s for s in shots if s.name == name), conv.losses


def test_flashlight_shot_in_the_dark_warehouse_is_written_at_light_minus_1(gurps):
    """Harvey, Guns (Pistol)-8, .22 at 6 m in total darkness with a flashlight: odds give
    -3 (6 m -> 7 m row) -1 (lit by a light within 25 m) -4 (snap shot, 4 below SS 10) = 0;
    the sheet was light -10 (blind), the 'fires blind' shot's value."""
    shot, losses = _shot(SHANGHAI, "哈維打開手電筒 (with a flashlight)")
    assert shot.light == -1 and not shot.blind_fire
    check = gurps.check_native(shot)
    assert check.target == 0 and dict((m.rule, m.value) for m in check.modifiers)[
        "gurps.hit-modifiers.poor_light"] == -1
    blind, _ = _shot(SHANGHAI, "哈維在黑暗中開槍 (Harvey fires blind)")
    assert blind.light == -10 and blind.blind_fire
    folded = [x for x in losses if x.path.endswith("shots[1].light_aids")]
    assert len(folded) == 1 and folded[0].kind == "merged" and folded[0].rule == "gurps.hit-modifiers"
    assert "written with light -1" in folded[0].message and "instead of -10" in folded[0].message


def test_malloy_by_the_flashlight_is_written_at_light_minus_1(gurps):
    """Malloy (CoC Handgun 55: Guns (Pistol)-13), full moon (-4) but his flashlight at 8 m: -1;
    head and shoulders -4, 8 m -4: 13 - 4 - 4 - 1 = 4, below SS 10: -4 -> 0 (the sheet said
    light -4, total -16 against -13)."""
    shot, losses = _shot(SPEAKEASY, "Malloy fires back by the flashlight")
    assert shot.level == 13 and shot.light == -1
    check = gurps.check_native(shot)
    assert check.target == 0
    assert any(x.kind == "merged" and "instead of -4" in x.message for x in losses)
    assert not any("check() applies an assumed cap" in x.message for x in losses)


def test_folded_light_keeps_a_chance_above_the_floor(gurps):
    """Skill 14, 10 m, 1 s aim (generic pistol Acc 2), 0 lx with a hand light: 14 - 4 + 2 - 1 =
    11 -> P = 0.625 both in the check of the neutral shot and in the written GURPS shot's; the
    same shot without the light is blind fire (-10, at most 9): 14 - 4 - 10 + 2 = 2 -> 3-4 only."""
    base = standard_shot("handgun")
    lit = msgspec.structs.replace(
        base, light=Light(illuminance=0.0, aids=["hand-light"]),  # type: ignore[arg-type]
        shooter=msgspec.structs.replace(base.shooter, skill=gurps.competence("Guns (Pistol)", 14),
                                        aim_time=Duration(1.0)))
    res = gurps.shot_from_neutral(lit)
    written = res.value
    assert written.level == 14 and written.light == -1 and not written.blind_fire
    assert [x.kind for x in res.losses if x.path == "$.light.aids"] == ["merged"]
    assert gurps.check(lit).target == gurps.check_native(written).target == 11
    assert gurps.check(lit).chance == gurps.check_native(written).chance == success(11) == Fraction(5, 8)
    dark = msgspec.structs.replace(lit, light=Light(illuminance=0.0))  # type: ignore[arg-type]
    assert gurps.check(dark).target == gurps.check_native(gurps.shot_from_neutral(dark).value).target == 2


def test_a_light_beyond_its_reach_changes_no_modifier_but_the_target_is_seen(gurps):
    """Beyond 50 m a hand light caps nothing (assumed reach): light -10, the darkness row, not
    blind fire; said as an unsupported field, not as a folded light."""
    base = standard_shot("rifle")
    far = msgspec.structs.replace(base, distance=Length(60.0),
                                  light=Light(illuminance=0.0, aids=["hand-light"]))  # type: ignore[arg-type]
    res = gurps.shot_from_neutral(far)
    assert res.value.light == -10 and not res.value.blind_fire
    assert [x.kind for x in res.losses if x.path == "$.light.aids"] == ["unsupported-field"]
    assert _mods(gurps.check(far)) == _mods(gurps.check_native(res.value))


# ---- 2. helmets on the head --------------------------------------------------------------

KOWALSKI = ROOT / "fixtures/pl-trudnosc/npcs/sierzant_kowalski.yaml"


def test_polish_helmet_is_written_on_the_head():
    """Hełm wz. 31 (pl-trudnosc, 3 points -> 350 J -> DR 7) was written on the torso. The Polish
    line is now read as covering the head (its name says a helmet: core.armorline.says_helmet),
    said once where it is read, so GURPS writes the head with nothing more to say."""
    conv = api.convert(KOWALSKI, "gurps", fresh=True)
    (helmet,) = conv.document.armor
    assert (helmet.name, helmet.DR, helmet.PD, helmet.locations) == ("Hełm wz. 31", 7, 3, ["head"])
    said = [x for x in conv.losses if "covers the head" in x.message]
    assert len(said) == 1 and said[0].kind == "assumed" and said[0].rule == "pl.armor"
    assert not [x for x in conv.losses if x.rule == "gurps.hit-location"]


@pytest.mark.parametrize("name", ["Steel helmet", "Hełm wz. 31", "kask policyjny", "Stahlhelm M35", "casque Adrian",
                                  "鉄帽", "ヘルメット", "頭盔", "头盔", "一戰鋼盔", "钢盔", "шлем СШ-40"])
def test_helmet_words(gurps, name):
    from xsys.core.model import Armor
    from xsys.core.units import Energy
    from xsys.core.trace import Collector

    a = Armor(name=name, stops=Energy(350.0))  # covers: the neutral default, torso
    assert gurps.armor_from_neutral(a, Collector("gurps"), "$").locations == ["head"]


@pytest.mark.parametrize("name", ["Leather jacket", "Full riot gear", "Helmut's coat", "kaskada"])
def test_other_unknown_armor_stays_on_the_torso_and_says_so(gurps, name):
    from xsys.core.model import Armor
    from xsys.core.units import Energy
    from xsys.core.trace import Collector

    col = Collector("gurps")
    written = gurps.armor_from_neutral(Armor(name=name, stops=Energy(350.0)), col, "$")
    assert written.locations == ["torso"]
    res = col.result(None)
    # and its PD, which nothing states: a piece of no kind that stops a bullet (350 J) is body armor
    assert [(x.kind, x.rule) for x in res.losses] == [("assumed", "gurps.hit-location"), ("assumed", "gurps.pd")]
    assert "the neutral default" in res.losses[0].message
    assert written.PD == 2 and "PD 2 assumed" in res.losses[1].message


def test_a_helmet_left_on_the_torso_does_not_stop_a_chest_shot(gurps):
    """A neutral target wearing an uncatalogued 'Hełm' (350 J -> DR 7) on the default torso: a
    torso hit of the generic pistol (500 J -> 3d-1, mean 9.5) takes no DR; a head shot takes DR
    7 + skull 2. The written GURPS shot agrees (the helmet is written on the head)."""
    from xsys.core.model import Armor
    from xsys.core.units import Energy

    base = standard_shot("handgun")
    helmet = Armor(name="Hełm wz. 31", stops=Energy(350.0))
    shot = msgspec.structs.replace(base, target=msgspec.structs.replace(base.target, armor=[helmet]))
    chest = gurps.check(shot)
    assert any(n.startswith("damage 3d-1 cr vs DR 0") for n in chest.notes)
    head = gurps.check(msgspec.structs.replace(shot, called_location="head"))
    assert any(n.startswith("damage 3d-1 cr vs DR 9") for n in head.notes)
    written = gurps.shot_from_neutral(shot).value
    assert written.target_armor[0].locations == ["head"]
    assert gurps.check_native(written).damage_mean == chest.damage_mean


# ---- 3. derived stats by 3e's derivation -------------------------------------------------

COC = ROOT / "fixtures/coc/npcs"


def _sheet(path):
    conv = api.convert(path, "gurps", fresh=True, trace=False)
    return conv.document, conv.losses


def test_cultist_dodge_is_move_and_will_names_its_strong_will():
    """CoC cultist: DEX 10, CON 14 -> DX 10, HT 13: Move (13 + 10) / 4 = 5. His Dodge 20 (DEX x 2,
    the untrained base) equates to Dodge 4: written 5 (3e Dodge = Move). POW 14 beside INT 9:
    Will 13 on IQ 6, so the sheet says Strong Will +7."""
    npc, losses = _sheet(COC / "cultist_shotgun.yaml")
    assert (npc.DX, npc.IQ, npc.HT, npc.Will, npc.Move, npc.Dodge) == (10, 6, 13, 13, 5, 5)
    assert npc.advantages == ["Strong Will +7"] and npc.disadvantages == []
    clamp = [x for x in losses if x.kind == "clamped" and x.rule == "gurps.derived"]
    assert len(clamp) == 1 and "equates to Dodge 4, below Move 5" in clamp[0].message
    assert any(x.rule == "gurps.derived" and "Will 13 beside IQ 6" in x.message and "Strong Will +7" in x.message
               for x in losses)


@pytest.mark.parametrize("path,move", [(COC / "dock_brute.yaml", 5),
                                       (ROOT / "fixtures/coc-zh/npcs/harvey_walters.yaml", 5),
                                       (ROOT / "fixtures/nwod/npcs/gang-enforcer.yaml", 6)],
                         ids=lambda p: getattr(p, "stem", str(p)))
def test_untrained_dodge_is_written_at_move(path, move):
    npc, _ = _sheet(path)
    assert npc.Move == move and npc.Dodge == move


def test_a_trained_dodge_above_move_is_kept():
    """CoC SWAT officer: Dodge 7 on Move 6 (a better dodge, as Combat Reflexes gives)."""
    npc, losses = _sheet(COC / "swat_officer.yaml")
    assert (npc.Move, npc.Dodge) == (6, 7)
    assert not [x for x in losses if x.kind == "clamped" and x.path.endswith("Dodge")]


def test_weak_will_is_written_below_iq():
    """nWoD door scenario, the second combatant: Will 10 on IQ 12 -> Weak Will -2."""
    conv = api.convert(ROOT / "fixtures/nwod/scenarios/door.yaml", "gurps", fresh=True, trace=False)
    npc = conv.document.scenes[0].combatants[1]
    assert (npc.IQ, npc.Will, npc.disadvantages) == (12, 10, ["Weak Will -2"])


def test_the_cultist_sheet_crosses_back_and_again_without_a_second_strong_will():
    """GURPS cultist -> CoC (fresh): POW 14 and INT 9 come back, the dodge comes back as the
    written Dodge 5's (CoC 26: the clamp said so), Strong Will +7 is carried; -> GURPS (fresh)
    again: the same sheet, one Strong Will."""
    from xsys.core import codec

    first = api.convert(COC / "cultist_shotgun.yaml", "gurps", fresh=True, trace=False).document
    coc = api.convert(codec.to_builtins(first), "coc", fresh=True, trace=False).document
    assert (coc.POW, coc.INT, coc.skills["Dodge"]) == (14, 9, 26)
    assert coc.carried["gurps"]["advantages"] == ["Strong Will +7"]
    again = api.convert(codec.to_builtins(coc), "gurps", fresh=True, trace=False).document
    assert again.advantages == ["Strong Will +7"] and (again.Will, again.IQ, again.Dodge) == (13, 6, 5)


def test_a_gurps_sheets_own_low_dodge_and_will_round_trip(gurps):
    """A GURPS stat block's Dodge below Move (encumbered) and Will beside IQ with no trait listed
    are its author's: neutral and back, they are written as they were."""
    from xsys.plugins.gurps.native import GurpsNpc

    npc = GurpsNpc(name="Laden porter", DX=10, IQ=10, HT=10, Will=12, Move=5, Dodge=3)
    back = gurps.npc_from_neutral(gurps.npc_to_neutral(npc).value).value
    assert (back.Will, back.Move, back.Dodge, back.advantages) == (12, 5, 3, [])


def test_a_level_the_equating_cannot_tell_apart_is_said_in_3e_notation_and_comes_back(gurps):
    """Guns (Pistol)-30 has the competence of -28 (the skill ladder ends below it) and Stealth-3 is
    under the DX-5 default: both are kept (core levels_kept) and written again as stated; the
    loss line prints the skills as a 3e sheet does."""
    from xsys.plugins.gurps.native import GurpsNpc

    npc = GurpsNpc(name="Marksman", DX=10, IQ=10, HT=10, skills={"Guns (Pistol)": 30, "Stealth": 3})
    read = gurps.npc_to_neutral(npc)
    said = [x for x in read.losses if x.path == "$.skills.Guns (Pistol)"]
    assert [(x.kind, x.message, x.rule) for x in said] == [
        ("rounded", "Guns (Pistol)-30 has the same handgun competence as Guns (Pistol)-28; the exact level is "
                    "kept for GURPS", "gurps.ranged-attack")]
    assert read.value.native["gurps"]["skill_levels"] == {"Guns (Pistol)": 30, "Stealth": 3}
    back = gurps.npc_from_neutral(read.value).value
    assert (back.skills["Guns (Pistol)"], back.skills["Stealth"]) == (30, 3)


# ---- 4. one cartridge, one damage line, also when only the name states it ----------------

def test_a_weapon_whose_name_states_its_cartridge_does_that_cartridges_damage():
    """CoC dock brute's 'Colt Police Positive (.38 Special)' (no catalog weapon, 405 J from CoC
    1d10) was 2d+1 by its energy; the catalog S&W Model 10 (.38 Special) is 2d-1: now both 2d-1."""
    npc, losses = _sheet(COC / "dock_brute.yaml")
    colt = next(w for w in npc.weapons if w.name == "Colt Police Positive (.38 Special)")
    assert colt.damage == "2d-1"
    said = [x for x in losses if "Colt Police Positive" in x.message and "gurps.damage" in x.message]
    assert said and "damage of .38 Special, the cartridge its name states (gurps.damage)" in said[0].message
    detective, _ = _sheet(COC / "police_detective.yaml")
    assert [w.damage for w in detective.weapons if "Model 10" in w.name] == ["2d-1"]


@pytest.mark.parametrize("name,cartridge", [
    ("Colt Police Positive (.38 Special)", ".38 Special"), ("Walther PPK (7.65 mm)", ".32 ACP"),
    ("Makarov PM (9 mm Makarov)", "9x18mm Makarov"), ("Glock 17 9mm", "9x19mm"),
    ("Model 19 (.357 Magnum)", ".357 Magnum"), ("Ruger (.22 LR)", ".22 LR"), ("Savage 12 gauge", "12 gauge"),
    ("S&W M640", None), ("Ingram MAC-10", None), ("19 mm cannon", None), ("Colt .45", None)])
def test_cartridge_in_name(name, cartridge):
    from xsys.plugins.gurps.system import cartridge_in_name

    assert cartridge_in_name(name) == cartridge


def test_name_stated_cartridge_lines(gurps):
    """The damage of a calibre-less weapon by the cartridge its name states: 9 mm 2d+2 and .45 ACP
    2d (weapons.toml), .32 ACP by the ladder at 180 J; a name stating none keeps its energy."""
    from xsys.core.model import Weapon
    from xsys.core.units import Energy
    from xsys.plugins.gurps.system import dice_text

    def dmg(name, joules=900.0):
        return dice_text(gurps.damage_code(Weapon(name=name, weapon_class="handgun", muzzle_energy=Energy(joules))))

    assert dmg("Browning Hi-Power (9 mm)") == "2d+2" == dmg("Glock 17 (9x19mm)")
    assert dmg("Star Model PD (.45 ACP)") == "2d"
    assert dmg("Walther PPK (7.65 mm)") == dmg("any", 180.0)
    assert dmg("Zip gun", 900.0) == dmg("any", 900.0) != dmg("Browning Hi-Power (9 mm)")


def test_a_gurps_line_off_its_named_cartridge_says_so(gurps):
    """A GURPS weapon line 'Colt Police Positive (.38 Special)' at 2d+1 (not the cartridge's 2d-1)
    crosses by its energy and says that a sheet written again writes 2d-1."""
    from xsys.plugins.gurps.native import GurpsNpc, GurpsWeapon

    npc = GurpsNpc(name="x", weapons=[GurpsWeapon(name="Colt Police Positive (.38 Special)", damage="2d+1",
                                                  Acc=2, SS=10)])
    res = gurps.npc_to_neutral(npc)
    said = [x for x in res.losses if x.kind == "merged" and x.rule == "gurps.damage"]
    assert len(said) == 1 and "whose damage is 2d-1;" in said[0].message
    assert gurps.npc_from_neutral(res.value).value.weapons[0].damage == "2d+1"  # remembered: as written


def test_a_sheet_of_a_block_that_prints_attributes_only_shows_the_derived_values():
    """gurps.derived: Colonel Ashby's fan-site 3e block gives ST 10, DX 11, IQ 12, HT 9 and no HP,
    Move or Dodge; the Markdown sheet shows HP 9, Will 12, Per 12, Move 5 ((9 + 11) / 4),
    Dodge 5 and Basic Speed 5, each marked with the rule, and leaves the document as stated. Traits count: Combat
    Reflexes is Dodge + 1, Strong Will +2 Will + 2."""
    from xsys.plugins.gurps.native import GurpsNpc

    loaded = api.load(ROOT / "fixtures/corpus/text-gurps/colonel-ashby-fansite-3e.txt")
    conv = api.convert(loaded, "gurps", trace=False)
    assert conv.document.HP is None and conv.document.Move is None
    text = api.dump(conv, "md").decode()
    assert ("**HP** 9 (gurps.derived) · **Will** 12 (gurps.derived) · **Per** 12 (gurps.derived) · "
            "**Move** 5 (gurps.derived) · **Dodge** 5 (gurps.derived) · **Basic Speed** 5 (gurps.derived)") in text
    g = default_registry().system("gurps")
    npc = GurpsNpc(name="x", ST=10, DX=12, IQ=11, HT=12, advantages=["Combat Reflexes", "Strong Will +2"], Per=13)
    assert g.sheet_derived(npc) == {"HP": (12, "gurps.derived"), "Will": (13, "gurps.derived"),
                                    "Move": (6, "gurps.derived"), "Dodge": (7, "gurps.derived"),
                                    "Basic Speed": ("6", "gurps.derived")}
    # Basic Speed is (HT + DX) / 4 unrounded, shown on every sheet: what Move rounds down
    odd = GurpsNpc(name="y", ST=10, DX=13, IQ=10, HT=10)
    assert g.sheet_derived(odd)["Basic Speed"] == ("5.75", "gurps.derived") and g.sheet_derived(odd)["Move"][0] == 5


def test_a_rifle_worked_by_hand_fires_every_other_turn_like_the_remington_row():
    """gurps.weapon-stats (assumed): the Remington 700's row says RoF 1/2; a bolt-action rifle
    with no row of its own (the Springfield M1903, catalog fire mode 'single') had the rifle
    class's RoF 1. A semi-automatic rifle (the M1 Garand) keeps the class's 1."""
    from xsys.core.registry import catalog
    from xsys.core.catalog import strip_entry
    from xsys.plugins.gurps.system import _rof

    cat = catalog()
    assert _rof("1", strip_entry(cat.weapons["springfield-m1903"])) == "1/2"
    assert _rof("1", strip_entry(cat.weapons["mauser-kar98k"])) == "1/2"
    garand = strip_entry(cat.weapons["m1-garand"])
    assert list(garand.fire_modes) == ["semi"] and _rof("1", garand) == "1"
    rosa = api.convert(api.load(ROOT / "fixtures/corpus/dholes-house/rosa-delgado-unknown-version.json"), "gurps",
                       fresh=True, trace=False)
    assert next(w for w in rosa.document.weapons if w.name == "Springfield M1903").RoF == "1/2"


def test_a_converted_skill_is_at_a_level_a_3e_sheet_can_have():
    """Between a skill's default and the lowest level half a point buys there is no 3e level
    (gurps.skill-cost): an nWoD patrol officer's Climbing equates to 7 at DX 10 (default 5, half
    a point buys 8) and is written 8; a GURPS sheet's own stated level stays as it was."""
    from pathlib import Path

    from xsys.conversions import api

    root = Path(__file__).resolve().parents[1] / "fixtures"
    conv = api.convert(root / "nwod" / "npcs" / "patrol-officer.yaml", "gurps", fresh=True)
    doc = conv.document
    assert doc.DX == 10 and doc.skills["Climbing"] == 8
    (said,) = [x for x in conv.losses if x.rule == "gurps.skill-cost" and "Climbing-7" in x.message]
    assert said.kind == "rounded" and "untrained it is 5 (DX-5), half a point buys 8 (DX-2)" in said.message
    g = api.system_for("gurps")
    for skill, level in doc.skills.items():
        assert g.written_level(skill, level, {"ST": doc.ST, "DX": doc.DX, "IQ": doc.IQ, "HT": doc.HT}) == level, skill
    # the fixture investigator's First Aid 11 at IQ 13 (no 3e level) is his GM's: it stays
    own = api.convert(root / "gurps" / "npcs" / "investigator.yaml", "gurps", fresh=True).document
    assert own.skills["First Aid"] == 11


def _agnes(**skills) -> dict:
    src = msgspec.yaml.decode((ROOT / "fixtures/coc7/npcs/agnes_whitcombe.yaml").read_bytes())
    return {**src, "skills": {**src["skills"], **skills}}


def test_a_skill_clamped_to_its_default_is_not_written_on_a_3e_sheet():
    """gurps.defaults: a 3e sheet lists the skills points were spent on; a converted skill that
    equates below the NPC's default is what he rolls untrained, so no line is written (a 7e
    reporter's untrained Brawl 25 is not a GURPS Brawling-13 that reads back as Brawl 62). The
    sense rolls are shown at Per whatever his training; a GURPS sheet's own stated level stays."""
    conv = api.convert(api.from_plain(_agnes(**{"Fighting (Brawl)": 25})), "gurps", fresh=True, trace=False)
    doc = conv.document
    assert doc.DX == 13 and "Brawling" not in doc.skills and "Lockpicking" not in doc.skills
    (said,) = [x for x in conv.losses if x.path == "$.skills.Fighting (Brawl)"]
    assert said.kind == "clamped" and said.rule == "gurps.defaults"
    assert "(Brawling 13); a gurps sheet lists no skill at that level, so none is written; Fighting (Brawl) 25 " \
           "is carried at carried.coc7.sheet_skills.Fighting (Brawl) for the way back" in said.message
    assert doc.skills["Vision"] == doc.Per == 13  # Spot Hidden 65 under Per 13: the sense roll is shown
    back = api.convert(api.from_plain(msgspec.to_builtins(doc)), "coc7", fresh=True, trace=False).document
    assert back.skills["Fighting (Brawl)"] == 25  # the carried line: untrained again, not a trained 62
    # a trained brawler above his default keeps his line
    trained = api.convert(api.from_plain(_agnes(**{"Fighting (Brawl)": 75})), "gurps", fresh=True, trace=False)
    assert trained.document.skills["Brawling"] > 13
    # a GURPS sheet's own Brawling at DX is its GM's and stays
    own = msgspec.yaml.decode((ROOT / "fixtures/gurps/npcs/policeman.yaml").read_bytes())
    kept = api.convert(api.from_plain({**own, "skills": {**own["skills"], "Brawling": own["DX"]}}), "gurps",
                       fresh=True, trace=False).document
    assert kept.skills["Brawling"] == own["DX"]


def test_a_default_level_skill_a_melee_line_is_rolled_with_is_written_and_the_clamp_says_so():
    """A converted punch line is rolled with Brawling: the skill is written at the default (the
    number the GM looks up), and the clamp's loss line says written, not 'none is written'."""
    conv = api.convert(ROOT / "fixtures/text/walters-coc7.txt", "gurps", fresh=True, trace=False)
    assert conv.document.skills["Brawling"] == conv.document.DX == 10
    (said,) = [x for x in conv.losses if x.path == "$.skills.Fighting (Brawl)"]
    assert "written at the untrained Brawling 10, the Brawl line being rolled with it; Fighting (Brawl) 35 is " \
           "carried at carried.coc7.sheet_skills.Fighting (Brawl) for the way back" in said.message
    assert not [x for x in conv.losses if "Brawling: the skill the Brawl line is rolled with" in x.message]


def test_a_skill_under_the_gurps_default_comes_home_as_its_sheet_had_it():
    """The CoC investigator's Conceal 25 and Locksmith 15 lie under GURPS's Holdout and
    Lockpicking defaults (IQ-5 = 8): the 3e sheet writes neither, and carries the CoC lines
    (carried.coc.sheet_skills), so his sheet home afresh has Conceal 25 and Locksmith 15 again
    (they came back as the bases 15 and 1, and before the default rule as 30 and 24)."""
    src = ROOT / "fixtures" / "coc" / "npcs" / "investigator_38.yaml"
    conv = api.convert(src, "gurps", fresh=True, trace=False)
    doc = msgspec.to_builtins(conv.document)
    assert "Holdout" not in doc["skills"] and "Lockpicking" not in doc["skills"]
    # (and Spot Hidden 55, written at his Per 13 as Vision: the sense roll is shown, the line carried)
    assert doc["carried"]["coc"]["sheet_skills"] == {"Spot Hidden": 55, "Conceal": 25, "Locksmith": 15}
    back = api.convert(api.from_plain(doc), "coc", fresh=True, trace=False).document
    assert (back.skills["Conceal"], back.skills["Locksmith"], back.skills["Spot Hidden"]) == (25, 15, 55)


def test_a_shotgun_of_no_stated_gauge_does_the_12_gauge(gurps):
    """A CCFOLIA 6th-edition ショットガン (no catalog weapon, a generic shotgun's 3000 J) was GURPS 6d
    by the damage ladder, a catalog Remington 870 4d: a shotgun whose gauge no source states fires
    its class's cartridge, the 12 gauge (weapons.toml [class.shotgun]), and the line says so."""
    from xsys.core.model import generic_weapon
    from xsys.plugins.gurps.system import dice_text

    assert dice_text(gurps.damage_code(generic_weapon("shotgun"))) == "4d"
    remington = default_registry().catalog().weapons["remington-870"]
    assert dice_text(gurps.damage_code(remington)) == "4d"
    npc, losses = _sheet(ROOT / "fixtures/corpus/ccfolia/vampireblood-6e-kanzaki.json")
    (gun,) = [w for w in npc.weapons if w.name == "ショットガン"]
    assert gun.damage == "4d"
    said = [x for x in losses if x.message.startswith("ショットガン: GURPS line")]
    assert said and "damage of 12 gauge, the cartridge of a shotgun whose own no source states" in said[0].message


def test_an_untrained_dodge_gets_no_combat_reflexes():
    """A 7th-edition keeper's Dodge 22 or 25 (the untrained tier: below the DEX / 2 = 25 his sheet starts at, or
    at it) is no trained dodge: 3e's Dodge = Move 4, said, with no Combat Reflexes (it had been Dodge 5 with
    Combat Reflexes); Dodge 26, amateur, is a dodge better than the body gives, and says so."""
    from xsys.conversions import api

    def gurps(dodge: int):
        npc = {"system": "coc7", "kind": "npc", "name": "Keeper", "STR": 50, "CON": 35, "SIZ": 55, "DEX": 50,
               "APP": 40, "INT": 45, "POW": 50, "EDU": 40, "skills": {"Dodge": dodge}}
        return api.convert(api.from_plain(npc, "keeper.yaml"), "gurps", fresh=True)

    for dodge in (22, 25):
        conv = gurps(dodge)
        assert (conv.document.Move, conv.document.Dodge) == (4, 4)
        assert "Combat Reflexes" not in conv.document.advantages
        assert any(x.kind == "rounded" and f"Dodge {dodge} is in coc7's untrained tier" in x.message
                   and "Dodge 4 is written and no Combat Reflexes" in x.message for x in conv.losses)
    trained = gurps(26).document
    assert trained.Dodge == 5 and "Combat Reflexes" in trained.advantages
