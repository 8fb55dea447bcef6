"""coc (5th/6th edition, Japanese house rules) <-> coc7 (7th edition) as a published rule
(coc7.conversion.6e): characteristics by Chaosium's x5 and /5 back, skills at the same
percentage (both write d100 skills: the number passes through, to the skill of the other
edition's name that covers the same neutral skills), the equating over the battery reported
where the two editions' rules make one number a different chance. Every conversion here is
afresh (``fresh=True``): the second system's own document is read, nothing remembered."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from xsys.conversions import api
from xsys.core import codec

ROOT = Path(__file__).resolve().parent.parent
CHARS = ("STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU")
COC = sorted((ROOT / "fixtures" / "coc" / "npcs").glob("*.yaml"))
COC7 = sorted((ROOT / "fixtures" / "coc7" / "npcs").glob("*.yaml"))


def _plain(doc):
    return msgspec.to_builtins(doc, enc_hook=codec.enc_hook)


def _there_and_back(path: Path, there: str, back: str):
    src = api.load(path)
    mid = api.convert(src, there)
    home = api.convert(api.from_plain(_plain(mid.document)), back, fresh=True)
    return _plain(src.document), _plain(mid.document), _plain(home.document), mid


@pytest.mark.parametrize("path", COC, ids=lambda p: p.name)
def test_coc_to_coc7_and_back_keeps_every_characteristic_and_skill(path):
    src, mid, home, conv = _there_and_back(path, "coc7", "coc")
    for c in CHARS:
        assert mid[c] == min(99, src[c] * 5) or any(l.path == f"$.{c}" for l in conv.losses), c  # coc7.conversion.6e
        assert home[c] == src[c], c
        if mid[c] == src[c] * 5:  # × 5 comes back ÷ 5: no line may say it reads back as another number
            assert not [l.message for l in conv.losses if l.path == f"$.{c}"], c
    # every skill comes back as the 6th-edition sheet wrote it. Where
    # 7th edition cannot write the number (under its base, Dodge DEX / 2; Club folded into
    # Fighting (Brawl); Rifle and Shotgun one skill) the 7e sheet says so and carries it
    assert home["skills"] == src["skills"]
    carried = mid.get("carried", {}).get("coc", {}).get("scale_levels", {})
    for skill, level in src["skills"].items():
        if skill in carried:
            entry = carried[skill]
            assert entry["level"] == level and all(v != level for v in entry["coc7"].values()), entry
            (said,) = [l for l in conv.losses if l.rule == "core.scale_levels" and l.message.startswith(f"{skill} ")]
            assert f"carried at carried.coc.scale_levels.{skill}" in said.message and said.level == "info"


@pytest.mark.parametrize("path", COC7, ids=lambda p: p.name)
def test_coc7_to_coc_and_back_keeps_every_characteristic_and_skill(path):
    src, mid, home, conv = _there_and_back(path, "coc", "coc7")
    for c in CHARS:
        assert home[c] == src[c], c
        if src[c] % 5:  # not a multiple of five: coc writes the nearest, reported as rounded
            assert any(l.kind == "rounded" and l.path == f"$.{c}" for l in conv.losses), c
        else:
            assert mid[c] == src[c] // 5 or not 3 <= src[c] // 5 <= 18, c
    assert home["skills"] == src["skills"]
    for f in ("SAN", "Luck"):
        assert home.get(f) == src.get(f), f


def test_the_number_passes_through_and_the_trace_says_why():
    src = api.load(ROOT / "fixtures" / "coc7" / "npcs" / "silas_crane.yaml")
    conv = api.convert(src, "coc")
    skills = _plain(conv.document)["skills"]
    assert skills["SMG"] == 55 and skills["Shotgun"] == 40  # Firearms (Submachine Gun) 55, (Rifle/Shotgun) 40
    assert _plain(conv.document)["STR"] == 14  # STR 70 / 5
    # the editions write one percentage (coc7.conversion.6e): coc7's skills are equated on coc's
    # checks, so the number needs no passing through, and the trace of the source says why
    read = [t for t in conv.trace if t.path == "$.skills.Firearms (Submachine Gun)"]
    assert read and "coc7.conversion.6e" in read[0].rules and "equated on coc's checks" in (read[0].note or "")
    assert not [t for t in conv.trace if t.path == "$.skills.SMG" and "equating their checks gives" in (t.note or "")]
    # a 7th-edition value that is not a multiple of five: the nearest, reported as rounded
    doc = _plain(src.document)
    doc.update(system="coc7", kind="npc", STR=52)
    conv52 = api.convert(api.from_plain(doc), "coc")
    assert _plain(conv52.document)["STR"] == 10
    assert [(l.kind, l.rule) for l in conv52.losses if l.path == "$.STR"] == [("rounded", "coc-ja.characteristics")]
    assert [l.message for l in conv52.losses if l.path == "$.STR"] == [
        "STR 52 (coc7) is written STR 10 (÷ 5 = 10.4), which comes back as STR 50"]
    # one number, one competence in both editions: nothing reads back differently
    assert not any(l.path == "$.skills.Firearms (Submachine Gun)" and "reads back as" in l.message for l in conv.losses)


def test_an_edited_neutral_value_is_converted_not_passed_through():
    src = api.load(ROOT / "fixtures" / "coc" / "npcs" / "police_detective.yaml")
    neutral = _plain(api.convert(src, "neutral").document)
    neutral["characteristics"]["strength"] = 0.99
    neutral["skills"]["handgun"] = 0.05
    out = _plain(api.convert(api.from_plain(neutral), "coc7").document)
    assert out["STR"] != src.document.STR * 5 and out["STR"] > 80
    assert out["skills"]["Firearms (Handgun)"] < src.document.skills["Handgun"]


def test_two_skills_that_become_one_are_said_with_the_numbers_written():
    """coc Rifle 65 and Shotgun 45 become coc7 Firearms (Rifle/Shotgun) 65: the warning said
    "the best (59) is kept" (the equated levels) while the sheet wrote 65."""
    src = {"system": "coc", "kind": "npc", "name": "Two guns", "STR": 13, "CON": 12, "SIZ": 13, "DEX": 14,
           "APP": 10, "INT": 12, "POW": 11, "EDU": 12, "skills": {"Rifle": 65, "Shotgun": 45}}
    conv = api.convert(api.from_plain(src), "coc7", fresh=True)
    assert _plain(conv.document)["skills"]["Firearms (Rifle/Shotgun)"] == 65
    said = [l.message for l in conv.losses if l.kind == "merged" and l.path in ("$.skills.Rifle", "$.skills.Shotgun")]
    assert said and all("Rifle 65, Shotgun 45" in m and "the best (65) is written" in m for m in said), said


def test_a_carried_skill_the_other_edition_writes_is_not_said_to_be_inexpressible():
    """coc writes coc7's Library Use 70 on its sheet (and carries it for the way back); the report
    said "not expressible in coc"."""
    src = api.load(ROOT / "fixtures" / "coc7" / "npcs" / "agnes_whitcombe.yaml")
    doc = _plain(src.document)
    doc["skills"]["Cthulhu Mythos"] = 5  # no neutral skill: carried, and the coc sheet writes it as it is
    conv = api.convert(api.from_plain(doc), "coc", fresh=True)
    assert _plain(conv.document)["skills"]["Cthulhu Mythos"] == 5
    (said,) = [l.message for l in conv.losses if l.path == "$.skills.Cthulhu Mythos"]
    assert "written on the coc sheet as it is" in said and "not expressible" not in said
    (said,) = [l.message for l in api.convert(api.from_plain(doc), "gurps", fresh=True).losses
               if l.path == "$.skills.Cthulhu Mythos"]
    assert "not expressible in gurps" in said


@pytest.mark.parametrize(("source", "skill", "level", "target", "counterpart"), [
    ("silas_crane.yaml", "Intimidate", 50, "coc", "Intimidate"),      # the number passes through: one scale
    ("silas_crane.yaml", "Intimidate", 50, "gurps", "Intimidation"),
    ("silas_crane.yaml", "Intimidate", 50, "nwod", "Intimidation"),
    ("agnes_whitcombe.yaml", "Library Use", 70, "gurps", "Research"),
    ("agnes_whitcombe.yaml", "Library Use", 70, "nwod", "Academics"),
    ("agnes_whitcombe.yaml", "Psychology", 45, "gurps", "Psychology"),
    ("agnes_whitcombe.yaml", "Psychology", 45, "nwod", "Empathy"),
])
def test_a_skill_the_target_has_a_counterpart_for_converts_to_it_and_back(source, skill, level, target, counterpart):
    """A GM read Library Use 70 and Intimidate 50 carried verbatim on GURPS and nWoD sheets that
    have Research, Empathy and Intimidation lines."""
    src = api.load(ROOT / "fixtures" / "coc7" / "npcs" / source)
    conv = api.convert(src, target, fresh=True)
    doc = _plain(conv.document)
    assert doc["skills"].get(counterpart), (counterpart, doc["skills"])
    assert skill not in (doc.get("carried", {}).get("coc7", {}).get("skills") or {})
    if target == "coc":
        assert doc["skills"][counterpart] == level
    # read afresh (nothing remembered), it comes back within the chart band it was in
    back = _plain(api.convert(api.from_plain(doc), "coc7", fresh=True).document)
    assert abs(back["skills"][skill] - level) <= 10, (skill, back["skills"][skill])


def test_a_fighting_skill_is_one_number_in_both_editions_at_the_npcs_own_strength():
    """A GURPS street thug (ST 12, Brawling-12): coc Fist/Punch 58, but coc7 Fighting (Brawl) 91:
    coc7 equated its Fighting skills at a median STR + SIZ, coc at the NPC's own."""
    src = api.load(ROOT / "fixtures" / "gurps" / "npcs" / "street_thug.yaml")
    coc = _plain(api.convert(src, "coc", fresh=True).document)
    coc7 = _plain(api.convert(src, "coc7", fresh=True).document)
    assert (coc["STR"] * 5, coc["SIZ"] * 5) == (coc7["STR"], coc7["SIZ"])
    assert coc["skills"]["Fist/Punch"] == coc7["skills"]["Fighting (Brawl)"] == 58


def test_a_6th_edition_skill_7th_edition_folded_away_is_not_written_on_a_7e_sheet():
    """coc Hide 35 and Sneak 30 are 7e Stealth: the coc7 sheet wrote Stealth 35 and Sneak 30
    (Sneak kept verbatim from coc); 7e has no Sneak. It stays carried for the trip back."""
    src = api.load(ROOT / "fixtures" / "coc" / "npcs" / "cultist_shotgun.yaml")
    conv = api.convert(src, "coc7", fresh=True)
    skills = _plain(conv.document)["skills"]
    assert skills["Stealth"] == 35 and "Sneak" not in skills and "Hide" not in skills
    back = _plain(api.convert(api.from_plain(_plain(conv.document)), "coc", fresh=True).document)["skills"]
    assert (back["Hide"], back["Sneak"]) == (35, 30)


def test_coc7_skill_bases_include_dodge_at_half_dex():
    """coc7's [skills] Dodge base is "DEX / 2" (7th edition); coc's reading of a base only knew
    "DEX x2", so coc7 had no Dodge floor at all: a converted NPC could show Dodge below it."""
    from xsys.core.registry import default_registry

    coc7, coc = default_registry().system("coc7"), default_registry().system("coc")
    assert coc7.skill_floor("Dodge", {"DEX": 50}) == (25, "coc7.skills")
    assert coc7.skill_floor("Fighting (Brawl)", {}) == (25, "coc7.skills")
    assert coc.skill_floor("Dodge", {"DEX": 10}) == (20, "coc-ja.skills")


def test_a_6th_edition_skill_below_7th_editions_base_is_written_at_the_base():
    # the dock brute's Dodge 18 is his 6th-edition base (DEX 9 x 2); 7th edition's is DEX / 2 = 22:
    # a 7th-edition sheet shows no Dodge below it, and says so
    conv = api.convert(ROOT / "fixtures" / "coc" / "npcs" / "dock_brute.yaml", "coc7", fresh=True)
    assert conv.document.DEX == 45 and conv.document.skills["Dodge"] == 22
    (said,) = [l for l in conv.losses if l.path == "$.skills.Dodge" and l.kind == "clamped"]
    assert said.kind == "clamped" and said.rule == "coc7.skills" and "Dodge 18 (coc)" in said.message
    # every converted coc NPC: no skill under its 7th-edition base
    coc7 = api.system_for("coc7")
    for path in COC:
        doc = api.convert(path, "coc7", fresh=True, trace=False).document
        chars = {c: getattr(doc, c) for c in CHARS}
        for skill, level in doc.skills.items():
            floor = coc7.skill_floor(skill, chars)
            assert floor is None or level >= floor[0], (path.name, skill, level, floor)


def test_from_6th_edition_gives_the_numbers_a_conversion_gives():
    """One answer: the plugin's 6th-edition helper and ``xsys convert --to coc7`` agree on every
    characteristic, hit points, skill and weapon line."""
    from xsys.plugins.coc import CocNpc
    from xsys.plugins.coc7.convert6 import from_6th_edition

    for path in COC:
        loaded = api.load(path)
        doc = loaded.document
        helper = from_6th_edition(CocNpc(**{f: getattr(doc, f) for f in CocNpc.__struct_fields__})).value
        conv = api.convert(loaded, "coc7", fresh=True, trace=False).document
        for c in (*CHARS, "HP", "MOV"):
            assert getattr(helper, c) == getattr(conv, c), (path.name, c)
        assert helper.skills == conv.skills, path.name
        assert [(w.name, w.damage, w.base_range) for w in helper.weapons] == \
            [(w.name, w.damage, w.base_range) for w in conv.weapons], path.name


@pytest.mark.parametrize(("source", "target", "hp"), [
    ("coc/npcs/gangster_tommy_gun.yaml", "coc7", 13),  # CON 65, SIZ 70: (65 + 70) / 10, not 6th edition's 14
    ("coc/npcs/police_detective.yaml", "coc7", 12),
    ("text/walters-coc7.txt", "coc", 11),              # CON 9, SIZ 12: ceil(21 / 2), not 7th edition's 10
    ("coc/npcs/dock_brute.yaml", "coc7", 19),          # HP 20 over the rule's 17 stays as far over 7e's 16
])
def test_hit_points_follow_each_edition_s_own_rule(source, target, hp):
    """A Keeper read coc7 HP 14 on CON 65, SIZ 70: the editions count hit points by different rules
    (coc-ja.derived, coc7.derived), so the number is not passed through."""
    conv = api.convert(ROOT / "fixtures" / source, target, fresh=True)
    assert _plain(conv.document)["HP"] == hp


def test_a_6th_edition_sheet_derives_luck_from_pow():
    """7th edition rolls Luck (3D6 x 5); 6th edition's is POW x 5 (coc-ja.derived): a coc sheet from
    Walters (POW 14, Luck 45) shows Luck 70 by its rule and carries the 45 for the way back."""
    conv = api.convert(ROOT / "fixtures" / "text" / "walters-coc7.txt", "coc", fresh=True)
    doc = _plain(conv.document)
    assert "Luck" not in doc and doc["carried"]["coc7"]["Luck"] == 45
    assert api.system_for("coc").sheet_derived(conv.document)["Luck"] == (70, "coc-ja.derived")
    back = _plain(api.convert(api.from_plain(doc), "coc7", fresh=True).document)
    assert back["Luck"] == 45


def test_a_7th_edition_shot_that_says_no_movement_stands_still():
    """Kingsport's shots said nothing of movement and read as a 1.35 m/s walking shooter and a
    2.5 m/s target: GURPS took 'moving while firing' and a snap shot off an aimed shot (1.9%)."""
    doc = api.convert(ROOT / "fixtures" / "coc7" / "scenarios" / "kingsport_docks.yaml", "neutral", fresh=True).document
    still = [s for sc in doc.scenes for s in sc.shots if s.name == "Point-blank on the gangway"]
    assert still and float(still[0].shooter.speed) == 0.0 and float(still[0].target.speed) == 0.0
    running = [s for sc in doc.scenes for s in sc.shots if s.name == "Crane sprays the jetty"]  # target_full_speed
    assert float(running[0].target.speed) >= 5.0


def test_a_japanese_sheet_s_library_use_and_psychology_are_those_skills():
    """iachara's 図書館 70 and 心理学 41 were kept verbatim ('no neutral equivalent') on every sheet."""
    src = api.load(ROOT / "fixtures" / "corpus" / "ccfolia" / "iachara-6e-minase.json")
    assert {"Library Use", "Psychology"} <= set(_plain(src.document)["skills"])
    gurps = _plain(api.convert(src, "gurps", fresh=True).document)
    assert gurps["skills"]["Research"] == 13 and gurps["skills"]["Psychology"] == 10


def test_a_stated_hp_beyond_the_6th_edition_rule_says_both_numbers_on_a_7e_sheet():
    """Each edition counts hit points by its own rule; the dock brute's HP 20 (6th edition's rule
    gives 17) keeps its margin on 7th edition's 16: HP 19, and the report says so (it said
    nothing, and the README claimed the number passed through)."""
    from pathlib import Path

    from xsys.conversions import api

    conv = api.convert(Path(__file__).resolve().parents[1] / "fixtures/coc/npcs/dock_brute.yaml", "coc7", fresh=True)
    assert conv.document.HP == 19
    said = [x for x in conv.losses if x.path == "$.HP" and x.rule == "coc7.derived"]
    assert said and "HP 19: the coc sheet's HP 20 is x1.18 its rule's ceil((CON + SIZ) / 2); this sheet counts " \
                    "(CON + SIZ) / 10 and keeps that margin" in said[0].message


def test_a_7e_sheet_from_another_system_has_the_6th_edition_sheets_characteristics_times_five():
    """coc7.characteristics: 7th edition rolls 3D6 x 5 and (2D6 + 6) x 5, so a characteristic
    written from another system's is a multiple of five (System.characteristic_written_step), the
    nearest, so it is the x5 of what the coc sheet writes: the GURPS soldier's ST 11 is coc STR 12
    and coc7 STR 60 (it was 59, damage bonus 0 beside the coc sheet's +1d4). EDU is rolled
    otherwise in each edition (README) and is left out."""
    from pathlib import Path

    from xsys.conversions import api

    root = Path(__file__).resolve().parents[1]
    files = sorted((root / "fixtures/gurps/npcs").glob("*.yaml")) + sorted((root / "fixtures/nwod/npcs").glob("*.yaml"))
    assert len(files) >= 8
    for f in files:
        c7 = api.convert(f, "coc7", fresh=True).document
        c6 = api.convert(f, "coc", fresh=True).document
        for ch in ("STR", "CON", "SIZ", "DEX", "APP", "INT", "POW"):
            assert getattr(c7, ch) % 5 == 0 and getattr(c7, ch) == 5 * getattr(c6, ch), (f.name, ch)
    soldier = api.convert(root / "fixtures/gurps/npcs/soldier.yaml", "coc7", fresh=True).document
    assert soldier.STR == 60 and soldier.DB == "+1D4"


def test_a_7e_sheet_floors_dodge_at_its_base_and_says_so_at_the_source_s_own_field():
    """coc7.skills: no skill under what the NPC has untrained (Dodge DEX / 2). A GURPS
    investigator's Dodge 5 equates to 26 at DEX 60, under the base 30: written 30, and the
    clamped warning names the GURPS sheet's own Dodge field, not its whole skill list."""
    conv = api.convert(ROOT / "fixtures" / "gurps" / "npcs" / "investigator.yaml", "coc7", fresh=True)
    assert conv.document.DEX == 60 and conv.document.skills["Dodge"] == 30
    (said,) = [l for l in conv.losses if l.kind == "clamped" and "Dodge" in l.message]
    assert said.path == "$.Dodge" and said.rule == "coc7.skills" and said.level == "warning"
    assert "written at the untrained Dodge 30" in said.message
