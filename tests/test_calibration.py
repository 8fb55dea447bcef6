"""Calibration: competence is equated over the battery; converted NPCs land where a
player of the target system would put them; the published tiers check the equating."""

from pathlib import Path

import pytest

from xsys.conversions import api
from xsys.devtools import calibration
from xsys.core import codec, equating
from xsys.core.model import Combatant
from xsys.core.registry import default_registry

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
REG = default_registry()


@pytest.fixture(scope="module")
def cells():
    return calibration.table()


def test_the_battery_spans_easy_to_hard():
    shots = equating.battery("handgun")
    assert len(shots) >= 8
    coc = REG.system("coc")
    chances = [float(coc.check_at(s, "Handgun", 50).chance) for s in shots]
    assert max(chances) >= 0.9 and min(chances) <= 0.15  # point-blank aimed vs long, dark, covered


def test_measure_is_the_adult_down_within_three_shots():
    from fractions import Fraction

    from xsys.core.trace import Check

    def check(damage, chance):
        return Check(system="t", stat="x", base=0, target=0, needs="", chance=Fraction(chance), damage=damage)

    w = equating.TIE_WEIGHT

    def measure(down, share):
        return (down + w * share) / (1 + w)

    # half the shots take all 10 health: down unless all three miss
    assert equating.shot_effect(check({"0": "1/2", "10": "1/2"}, "1/2"), 10) == pytest.approx(measure(7 / 8, 1 / 2))
    # every shot hits for 4 of 10: down on the third
    assert equating.shot_effect(check({"4": "1"}, 1), 10) == pytest.approx(measure(1.0, 0.4))
    # hits of 3 of 10: three hits are not enough; only the tie-breaking share remains
    assert equating.shot_effect(check({"3": "1"}, 1), 10) == pytest.approx(measure(0.0, 0.3))
    # no distribution: a shot takes the whole adult with its expected share, min(1/2, 12/10)
    bare = Check(system="t", stat="x", base=0, target=0, needs="", chance=Fraction(1, 2), damage_mean=12.0)
    assert equating.shot_effect(bare, 10) == pytest.approx(measure(7 / 8, 1 / 2))
    # ... and a weaker mean: share 3/10 -> down within three shots 1 - 0.7^3
    weak = Check(system="t", stat="x", base=0, target=0, needs="", chance=Fraction(1, 2), damage_mean=3.0)
    assert equating.shot_effect(weak, 10) == pytest.approx(measure(1 - 0.7 ** 3, 0.3))


def test_hit_chance_alone_does_not_decide():
    # nWoD untrained rifle: pool Dex 2 - 1 + 4 damage dice hits ~85% of the time, but for about a
    # quarter of a standard adult's 7 Health: competence stays with CoC's untrained rifleman
    nwod = REG.system("nwod")
    comp = nwod.competence("Firearms", 0, {"Dexterity": 2, "@key": "rifle"})
    assert 0.1 < comp < 0.3
    coc_level = REG.system("coc").level_for("Rifle", comp)
    assert 10 <= coc_level <= 30  # CoC's untrained rifleman has his base 25%


def test_competence_is_the_true_score():
    g = REG.system("gurps")
    assert g.competence("Guns (Pistol)", 13) == pytest.approx(equating.firearm_score(g, 13))
    # throwing is linked on the published tiers (on a thrown battery Polish Rzucanie 3 was
    # nWoD Athletics 5, CoC Throw 86, GURPS Throwing 16): GURPS's untrained DX-3 and its
    # 10/12/14/16 stand where the chart's untrained adult and its tiers stand
    assert [g.competence("Throwing", lv) for lv in (7, 10, 12, 14, 16)] == \
        pytest.approx([0.25, equating.STANDING[1], equating.STANDING[2], equating.STANDING[3], equating.STANDING[4]])
    assert g.competence("Throwing", 13) == pytest.approx(equating.standing_score(g, "Throwing", 13, "throw"))


@pytest.mark.parametrize("level,tier", [(25, 0), (40, 1), (63, 2), (83, 3)])
def test_a_thrower_lands_in_the_same_tier_in_every_system(level, tier):
    """coc Throw 25 (the base) was GURPS Throwing 12 and nWoD Athletics 2; 63 was GURPS 15 and
    nWoD 5: on the thrown battery the systems' throwing rules, not the thrower, decided."""
    src = {"system": "coc", "kind": "npc", "name": "T", "STR": 11, "CON": 11, "SIZ": 12, "DEX": 12, "APP": 10,
           "INT": 12, "POW": 10, "EDU": 12, "skills": {"Throw": level}}
    for to, skill in (("gurps", "Throwing"), ("nwod", "Athletics"), ("pl-trudnosc", "Rzucanie"), ("coc7", "Throw")):
        doc = codec.to_builtins(api.convert(api.from_plain(src), to, fresh=True, trace=False).document)
        got = (doc.get("skills") or doc.get("umiejętności") or {}).get(skill, 0)
        system = REG.system(to)
        assert abs(equating.tier_of(system.tiers(skill), got).rank - tier) == 0, (to, got)


@pytest.mark.parametrize("src,path,skill,target,tskill,lo,hi", [
    # the calibration table: a GURPS patrol officer with Guns (Pistol)-13 was CoC Handgun 0
    ("gurps", FIXTURES / "gurps/npcs/policeman.yaml", "Guns (Pistol)", "coc", "Handgun", 26, 75),
    # the CoC detective, Handgun 55, was nWoD Firearms 0 and nothing in the Polish system
    ("coc", FIXTURES / "coc/npcs/police_detective.yaml", "Handgun", "nwod", "Firearms", 2, 4),
    ("coc", FIXTURES / "coc/npcs/police_detective.yaml", "Handgun", "pl-trudnosc", "Broń krótka", 1, 3),
])
def test_fixture_cops_convert_to_believable_levels(src, path, skill, target, tskill, lo, hi):
    doc = api.convert(path, target, fresh=True).document
    skills = doc.skills if hasattr(doc, "skills") and isinstance(doc.skills, dict) else doc.umiejętności.as_dict()
    assert lo <= skills[tskill] <= hi, skills


def test_issue_examples():
    coc, gurps, nwod = REG.system("coc"), REG.system("gurps"), REG.system("nwod")
    # CoC Rifle 20 was Guns (Rifle)-18: now an untrained-to-amateur rifleman
    assert gurps.level_for("Guns (Rifle)", coc.competence("Rifle", 20, {"@key": "rifle"})) <= 11
    # nWoD Dexterity 2, Firearms 2 was CoC Handgun 87 and GURPS Guns-26
    comp = nwod.competence("Firearms", 2, {"Dexterity": 2, "@key": "handgun"})
    assert 26 <= coc.level_for("Handgun", comp) <= 60
    assert 11 <= gurps.level_for("Guns (Pistol)", comp) <= 14


# Known ties, each with its measured levels (untrained .. master): the list only shrinks (a
# tie that no longer happens fails the test, so it is taken off). coc7's expert and master were
# both Polish 5 while coc7 was equated on its own, easier checks; on coc's (skill_scale_checks)
# no tie is left.
KNOWN_TIES: dict[tuple[str, str, str], list[int]] = {}


def test_tiers_stay_strictly_ordered(cells):
    """A higher tier converts to a strictly higher level in every target (every target has the
    resolution: at least five levels between its untrained and master shooters), but for the
    known ties, which are still what they were."""
    by = {}
    for c in cells:
        by.setdefault((c.weapon_class, c.source, c.target), []).append((c.rank, c.level))
    for key, rows in by.items():
        levels = [lv for _, lv in sorted(rows)]
        if key in KNOWN_TIES:
            assert levels == KNOWN_TIES[key], (key, levels)
            assert all(a <= b for a, b in zip(levels, levels[1:])), (key, levels)
            continue
        assert all(a < b for a, b in zip(levels, levels[1:])), (key, levels)


def test_tiers_agree_within_one_tier_among_coc_gurps_nwod(cells):
    core = {"coc", "coc-zh", "gurps", "nwod"}
    off = [c for c in cells if c.source in core and c.target in core and c.off_by > 1]
    assert not off, off


def test_most_conversions_land_in_the_target_tier_or_next(cells):
    """The measured state (docs/calibration.md): every one of the 300 within one tier, 236 in the
    target's own (six systems with coc7; of five, 162 of 200, and 108 before the Polish mechanic
    exploding-2d6)."""
    assert len(cells) == 300
    assert all(c.off_by <= 1 for c in cells), [c for c in cells if c.off_by > 1]
    exact = sum(c.off_by == 0 for c in cells)
    assert exact >= 234, f"{exact} of {len(cells)}"


def test_the_polish_tier_shooters_land_in_the_target_tier_but_for_gurps_edges(cells):
    """The Polish assumed tiers read as the others' published tiers: every conversion to or from
    pl-trudnosc lands in the target's own tier except at GURPS's tier edges (its professional 12
    and expert 14, which are one tier off from CoC and nWoD as well)."""
    pl = [c for c in cells if "pl-trudnosc" in (c.source, c.target)]
    off = {(c.source, c.source_level, c.target, c.level) for c in pl if c.off_by}
    # and coc7's, whose 7th-edition checks read one number as stronger: its expert 83 as the Polish
    # master, the Polish expert and master as coc7 71 and 84 (test_tiers_stay_strictly_ordered)
    assert off <= {("gurps", 12, "pl-trudnosc", 2), ("gurps", 14, "pl-trudnosc", 3), ("pl-trudnosc", 3, "gurps", 14),
                   ("coc7", 83, "pl-trudnosc", 5), ("pl-trudnosc", 4, "coc7", 71), ("pl-trudnosc", 5, "coc7", 84)}, off


def test_none_stays_none():
    pl = REG.system("pl-trudnosc")
    lads = pl.ladders()
    assert lads["aim"].neutral(0) == 0.0 and lads["light"].neutral(15) == 0.0
    assert REG.system("gurps").ladders()["aim_turns"].neutral(0) == 0.0
    assert REG.system("coc").ladders()["careful-aim"].neutral(0) == 0.0


def test_fresh_round_trip_returns_to_own_tier():
    """CoC professional (Handgun 63) -> every system -> back, the remembered source ignored."""
    coc = REG.system("coc")
    comp = coc.competence("Handgun", 63)
    c = Combatant(name="pro", skills={"handgun": comp})
    for key in ("gurps", "nwod"):
        other = REG.system(key)
        there = other.npc_from_neutral(c).value
        back = coc.npc_from_neutral(other.npc_to_neutral(there).value).value
        assert 51 <= back.skills["Handgun"] <= 75, (key, back.skills)


def test_calibration_doc_is_up_to_date():
    doc = (ROOT / "docs" / "calibration.md").read_text(encoding="utf-8")
    assert calibration.markdown(calibration.table()) in doc, "run python docs/make_calibration.py"
    assert calibration.examples_markdown(calibration.examples(ROOT)) in doc, "run python docs/make_calibration.py"


def test_the_issue_examples_give_plausible_values():
    """The calibration table, converted as a user would (--fresh): none at a floor or a ceiling (the
    Polish Broń długa 4 was CoC 100 in every long-arm skill: now a CoC expert)."""
    rows = {(what, t): skills for what, t, skills in calibration.examples(ROOT)}
    assert 45 <= rows[("GURPS patrol officer, Guns (Pistol)-13", "coc")]["Handgun"] <= 65
    assert rows[("GURPS sniper, Guns (Rifle)-16", "coc")]["Rifle"] >= 76
    assert rows[("GURPS sniper, Guns (Rifle)-16", "nwod")]["Firearms"] >= 3
    assert 2 <= rows[("CoC detective, Handgun 55", "nwod")]["Firearms"] <= 3
    assert rows[("CoC detective, Handgun 55", "pl-trudnosc")]["Broń krótka"] >= 1
    assert 6 <= rows[("CoC Rifle 20", "gurps")]["Guns (Rifle)"] <= 10
    coc = rows[("nWoD Dexterity 2, Firearms 2", "coc")]
    assert set(coc) == {"Handgun"} and 26 <= coc["Handgun"] <= 60
    gurps = rows[("nWoD Dexterity 2, Firearms 2", "gurps")]
    assert set(gurps) == {"Guns (Pistol)"} and 10 <= gurps["Guns (Pistol)"] <= 13
    polish = rows[("Polish Broń długa 4", "coc")]
    # no weapon says which long arm: the broad skill is written as its first (core.skillplan)
    assert set(polish) == {"Rifle"}
    assert 76 <= polish["Rifle"] <= 90, polish  # CoC's expert, as level 4 is the Polish expert


def test_cli_fresh_ignores_the_remembered_source(tmp_path):
    """--fresh converts a converted document for what it is: GURPS Guns (Pistol)-13 -> coc ->
    gurps with --fresh is read from the CoC numbers (a believable level), not restored."""
    import subprocess
    import sys

    xsys = str(Path(sys.executable).parent / "xsys")
    there = tmp_path / "coc.yaml"
    subprocess.run([xsys, "convert", str(FIXTURES / "gurps/npcs/policeman.yaml"), "--to", "coc", "-q", "-o",
                    str(there)], check=True)
    out = subprocess.run([xsys, "convert", str(there), "--to", "gurps", "-q", "--fresh"], capture_output=True,
                         text=True, check=True).stdout
    import yaml

    level = yaml.safe_load(out)["skills"]["Guns (Pistol)"]
    assert 11 <= level <= 15


def _fixture_misses():
    """Every fixture NPC's firearm skill, converted to every other system (remembered source
    ignored): (file, neutral skill, target, native level, what is wrong) where it lands on the
    target's lowest or highest level while the source is not in its own lowest or highest tier,
    or lands more than one tier away from the source's tier."""
    from xsys.core.equating import tier_of
    from xsys.core.vocab import SKILLS

    out = set()
    for sysdir in sorted(FIXTURES.iterdir()):
        if not (sysdir / "npcs").is_dir() or sysdir.name == "neutral":
            continue
        for f in sorted((sysdir / "npcs").glob("*.yaml")):
            loaded = api.load(f)
            src = REG.system(loaded.system)
            comb = src.npc_to_neutral(loaded.document).value
            for k, comp in comb.skills.items():
                if SKILLS.get(k) in (None, "thrown"):
                    continue
                src_native = [n for n, ks in src.skills().items() if k in ks][0]
                rank = tier_of(src.tiers(src_native), src.level_for(src_native, comp, {"@key": k})).rank
                for t in REG.keys():
                    if t == loaded.system:
                        continue
                    target = REG.system(t)
                    native = [n for n, ks in target.skills().items() if k in ks]
                    if not native or not target.tiers(native[0]):
                        continue
                    lad = target.skill_ladder(native[0], {"@key": k})
                    st = lad.step_for(comp)
                    if st is lad.steps[0] and rank != 0:
                        out.add((f.name, k, t, st.native, "floor"))
                    if st is lad.steps[-1] and rank != 4:
                        out.add((f.name, k, t, st.native, "ceiling"))
                    trank = tier_of(target.tiers(native[0]), st.native).rank
                    if abs(trank - rank) > 1:
                        out.add((f.name, k, t, st.native, f"{abs(trank - rank)} tiers off"))
    return out


def test_no_fixture_skill_falls_to_a_floor_or_ceiling_or_two_tiers_off():
    """No fixture NPC's firearm skill converts to the target's floor or ceiling unless
    the source is in its own lowest or highest tier, and none lands two tiers away. (Under the
    Polish exploding-trait mechanic there were 23, all to or from the Polish system.)"""
    assert _fixture_misses() == set()


def test_a_broad_skill_converts_to_one_level_in_every_narrow_skill():
    """nWoD Firearms 2 is one competence: CoC gets one percentage for all its firearm skills,
    GURPS one level for all its Guns specialisations (it was Handgun 58, Rifle 81, Shotgun 100,
    SMG 51, Machine Gun 68). The sheet writes the gun of the NPC's weapon (his MAC-10: SMG); the
    report line gives the equated value of each other gun, the same number."""
    import re

    conv = api.convert(FIXTURES / "nwod/npcs/gang-enforcer.yaml", "coc", fresh=True)
    firearms = {k: v for k, v in conv.document.skills.items()
                if k in ("Handgun", "Rifle", "Shotgun", "SMG", "Machine Gun")}
    assert set(firearms) == {"SMG"}, firearms
    (line,) = [x.message for x in conv.losses if x.path == "$.skills.Firearms" and x.rule == "core.skillplan"]
    rest = dict((k, int(v)) for k, v in re.findall(r"(Handgun|Rifle|Shotgun|Machine Gun) (\d+)", line.split("equated")[1]))
    assert set(rest) == {"Handgun", "Rifle", "Shotgun", "Machine Gun"} and set(rest.values()) == {firearms["SMG"]}
    assert 40 <= firearms["SMG"] <= 75, firearms  # Firearms 2 at Dexterity 3: amateur to professional
    gurps = api.convert(FIXTURES / "nwod/npcs/gang-enforcer.yaml", "gurps", fresh=True)
    guns = {k: v for k, v in gurps.document.skills.items() if k.startswith("Guns")}
    assert set(guns) == {"Guns (SMG)"} and 11 <= guns["Guns (SMG)"] <= 14, guns
    (line,) = [x.message for x in gurps.losses if x.path == "$.skills.Firearms" and x.rule == "core.skillplan"]
    assert set(re.findall(r"Guns \([A-Za-z ]+\) (\d+)", line.split("equated")[1])) == {str(guns["Guns (SMG)"])}


def test_a_firearm_level_means_the_same_for_every_gun():
    """Every system's tiers read a level the same for a pistol and a rifle, so a level's
    competence is its true score over every firearm class's battery: CoC Handgun 40 and Rifle
    40 are one competence, as are GURPS Guns (Pistol)-12 and Guns (Rifle)-12."""
    coc, gurps = REG.system("coc"), REG.system("gurps")
    assert coc.competence("Handgun", 40) == coc.competence("Rifle", 40) == coc.competence("Shotgun", 40)
    assert gurps.competence("Guns (Pistol)", 12) == gurps.competence("Guns (Rifle)", 12)
    # ... the mean over the five classes' batteries, each with the class's own skill
    by_class = [equating.true_score(coc, coc.skill_for_weapon(c), 40, c) for c in equating.FIREARM_CLASSES]
    assert coc.competence("Rifle", 40) == pytest.approx(sum(by_class) / 5)
    assert len(equating.FIREARM_CLASSES) * min(len(equating.items(c)) for c in equating.FIREARM_CLASSES) >= 40


def test_coc_and_its_chinese_variant_keep_a_percentage_within_two_points():
    """The two share the percentile skill: only coc-zh's shotgun impale and darkness rounding
    differ, which moves a converted percentage by a point or two, never more."""
    coc, zh = REG.system("coc"), REG.system("coc-zh")
    for level in range(5, 100, 5):
        there = zh.level_for("Handgun", coc.competence("Handgun", level))
        assert abs(there - level) <= 2, (level, there)


def test_a_shotgun_is_measured_at_handgun_distances():
    """CoC's shotgun does 4d6/2d6/1d6 at 10/20/50 yards: on the long battery most items fell
    where it no longer hurts, and CoC Shotgun 60 equated to nWoD's untrained."""
    assert equating.items("shotgun") == equating.BATTERY_SHORT
    assert max(it.distance for it in equating.items("shotgun")) <= 45


def _round_trip(a, b, level, cls="handgun"):
    """`level` of system a's skill for `cls` -> system b -> back into a, through competences
    alone (no remembered source)."""
    A, B = REG.system(a), REG.system(b)
    sa, sb = A.skill_for_weapon(cls), B.skill_for_weapon(cls)
    there = B.level_for(sb, A.competence(sa, level))
    return there, A.level_for(sa, B.competence(sb, there))


PAIRS = [(a, b) for a in sorted(REG.keys()) for b in sorted(REG.keys()) if a != b]


# coc7's master (95) read as a 0.76 competence on coc7's own checks, beyond the top of coc,
# coc-zh, GURPS and the Polish 5. Its skills are now equated on coc's checks (one percentage in
# both editions: coc7.conversion.6e, System.skill_scale_checks), and no pair is a known failure.
COC7_MASTER_BEYOND: set[tuple[str, str]] = set()


def _known(a: str, b: str) -> list:
    return [pytest.mark.xfail(strict=True, reason="coc7's master lies beyond the target's top level")] \
        if (a, b) in COC7_MASTER_BEYOND else []


@pytest.mark.parametrize("a,b", [pytest.param(a, b, marks=_known(a, b)) for a, b in PAIRS])
@pytest.mark.parametrize("cls", ["handgun", "rifle"])
def test_tier_shooters_come_back_into_their_own_tier(a, b, cls):
    """A tier NPC converts to b and back (remembered source stripped) into its own tier
    (the Polish untrained and master shooters missed by a tier under exploding-trait)."""
    A = REG.system(a)
    skill = A.skill_for_weapon(cls)
    for tier in A.tiers(skill):
        there, back = _round_trip(a, b, tier.typical, cls)
        got = equating.tier_of(A.tiers(skill), back).rank
        assert got == tier.rank, (tier.name, tier.typical, there, back)


def _polish_npc_round_trip(target, motoryka, level):
    """A Polish NPC with `motoryka` and both firearm skills at `level` -> target -> back, through
    the neutral model with only skills and characteristics kept (nothing remembered)."""
    pl, T = REG.system("pl-trudnosc"), REG.system(target)
    doc = api.from_plain({"system": "pl-trudnosc", "kind": "npc", "imię": "x", "Motoryka": motoryka,
                          "umiejętności": {"Broń krótka": level, "Broń długa": level}}).document
    n = pl.npc_to_neutral(doc).value
    res = T.npc_from_neutral(Combatant(name="x", skills=n.skills, characteristics=n.characteristics))
    there = res.value
    n2 = T.npc_to_neutral(there).value
    back = pl.npc_from_neutral(Combatant(name="x", skills=n2.skills, characteristics=n2.characteristics)).value
    _polish_npc_round_trip.floored = {x.path.rsplit(".", 1)[-1] for x in res.losses  # type: ignore[attr-defined]
                                      if x.kind == "clamped" and "untrained" in x.message}
    return there, back.umiejętności.as_dict()


@pytest.mark.parametrize("target", ["coc", "coc-zh", "gurps", "nwod"])
@pytest.mark.parametrize("motoryka", [1, 2, 3, 4, 5])
def test_a_polish_shooter_comes_back_at_his_level_whatever_his_motoryka(target, motoryka):
    """Motoryka 5 + Broń długa 5 went to CoC 100 and came back (fresh) at level 0: a
    Motoryka point was a whole die (two skill levels), so at Motoryka 5 level 0 already matched
    CoC 100. Now every level comes back within one level, never lower for a higher level, and
    from CoC and coc-zh exactly but at their ceiling (Motoryka 5 level 5 is past CoC 100). GURPS
    reads two Polish levels as one of its levels here and there (17), and nWoD reads Motoryka 2
    back as 3. A shooter below what a CoC character has untrained (Motoryka 1, level 0 or 1: under
    the Handgun base 20 and the Rifle base 25) is written at that base with a `clamped` loss, and
    comes back from it: the two bases differ, so his two skills may differ by a level there."""
    backs = []
    for level in range(6):
        there, back = _polish_npc_round_trip(target, motoryka, level)
        floored = _polish_npc_round_trip.floored  # type: ignore[attr-defined]
        got = back["Broń długa"]
        assert abs(got - level) <= 1 and abs(back["Broń krótka"] - level) <= 1, (level, there, back)
        if not floored:
            assert back["Broń krótka"] == got, (level, there, back)
        if target in ("coc", "coc-zh") and not (motoryka == 5 and level == 5) and not floored:
            assert got == level, (level, there, back)
        backs.append(got)
    assert backs == sorted(backs), backs


@pytest.mark.parametrize("a,b", PAIRS)
def test_every_level_comes_back_within_one_tier_and_in_order(a, b):
    A = REG.system(a)
    skill = A.skill_for_weapon("rifle")
    backs = []
    for level in A.skill_levels(skill):
        _, back = _round_trip(a, b, level, "rifle")
        assert abs(equating.tier_of(A.tiers(skill), back).rank - equating.tier_of(A.tiers(skill), level).rank) <= 1
        backs.append(back)
    assert backs == sorted(backs)  # a better shooter never comes back worse


from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PAIRS), st.data())
def test_generated_npcs_convert_in_order_without_their_source(pair, data):
    """Two generated NPCs with different firearm levels, converted A -> B -> A with every native
    block stripped: the better shooter stays at least as good in B and back in A."""
    a, b = pair
    A, B = REG.system(a), REG.system(b)
    cls = data.draw(st.sampled_from(("handgun", "rifle", "shotgun", "smg")))
    skill = A.skill_for_weapon(cls)
    levels = list(A.skill_levels(skill))
    lo, hi = sorted(data.draw(st.lists(st.sampled_from(levels), min_size=2, max_size=2)))
    key = [k for k in A.skills()[skill]][0]
    outs = []
    for level in (lo, hi):
        c = Combatant(name="npc", skills={key: A.competence(skill, level, {"@key": key})})
        there = B.npc_from_neutral(c).value
        neutral = B.npc_to_neutral(there).value
        neutral = Combatant(name=neutral.name, skills=neutral.skills)  # nothing remembered
        back = A.npc_from_neutral(neutral).value
        outs.append((neutral.skills.get(key, 0.0), A.npc_to_neutral(back).value.skills.get(key, 0.0)))
    assert outs[0][0] <= outs[1][0]  # in B
    assert outs[0][1] <= outs[1][1]  # back in A


@pytest.mark.parametrize("key", sorted(REG.keys()))
def test_total_darkness_stays_zero_lux_through_every_system(key):
    """Situations that mean none stay none: a shot in total darkness (0 lx) reads
    back from each system as 0 lx, not as its darkest step's middle (GURPS read 5e-06 lx)."""
    from xsys.conversions import api
    from xsys.core import codec
    from xsys.core.model import Shot

    path = sorted((ROOT / "fixtures" / "neutral" / "shots").glob("*.yaml"))[0]
    plain = codec.to_builtins(api.load(path).document)
    plain.pop("system", None), plain.pop("kind", None)
    plain["light"] = {**plain.get("light", {}), "illuminance": "0 lx", "aids": []}
    shot = codec.convert(plain, Shot)
    system = REG.system(key)
    back = system.shot_to_neutral(system.shot_from_neutral(shot).value).value
    assert float(back.light.illuminance) == 0.0, (key, back.light)
