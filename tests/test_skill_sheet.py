"""A broad skill fills a narrow sheet honestly, and a sheet keeps the skills it had
(core.skillplan): nWoD Firearms 2 on a cultist with an SMG is CoC SMG, not five gun lines; the
rest of Firearms is carried and comes home as Firearms 2; CoC Sneak is the neutral stealth, a
CoC sheet without Sneak does not gain one, and GURPS Stealth 14 is a CoC Sneak."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from xsys.conversions import api
from xsys.core import codec

ROOT = Path(__file__).resolve().parent.parent
GUNS = {"Handgun", "Rifle", "Shotgun", "SMG", "Machine Gun"}


def _plain(doc):
    p = codec.to_builtins(doc)
    p.pop("xsys", None)
    return p


def _go(src, to):
    return api.convert(api.from_plain(src), to, fresh=True, trace=False)


def _load(rel):
    return _plain(api.load(ROOT / "fixtures" / rel).document)


def test_nwod_firearms_becomes_the_weapons_skill_only_and_the_rest_is_carried():
    conv = _go(_load("nwod/npcs/gang-enforcer.yaml"), "coc")  # Firearms 2, Larceny 1, an Ingram MAC-10
    doc = _plain(conv.document)
    assert GUNS & set(doc["skills"]) == {"SMG"}
    assert doc["skills"]["SMG"] == 65
    # Larceny is no gun: a Keeper writes what it stands for (concealment, lock picking)
    assert doc["skills"]["Conceal"] == 40 and doc["skills"]["Locksmith"] == 40
    assert doc["carried"]["nwod"]["sheet_skills"] == {"Firearms": 2}
    (line,) = [x for x in conv.losses if x.path == "$.skills.Firearms" and x.rule == "core.skillplan"]
    assert line.kind == "kept-verbatim" and line.level == "info"
    assert "Firearms 2 (nwod) stands for Call of Cthulhu Handgun, Rifle, Shotgun, SMG, Machine Gun" in line.message
    assert "written: SMG (the NPC's weapon)" in line.message
    assert "Handgun 65, Rifle 65, Shotgun 65, Machine Gun 65" in line.message


def test_nwod_to_coc_to_nwod_restores_the_skills():
    src = _load("nwod/npcs/gang-enforcer.yaml")
    back = _plain(_go(_plain(_go(src, "coc").document), "nwod").document)
    assert back["skills"] == src["skills"]
    assert "nwod" not in back.get("carried", {})


def test_coc_to_nwod_to_coc_writes_only_the_lines_the_sheet_had():
    src = _load("coc/npcs/cultist_shotgun.yaml")  # Shotgun 40, Hide 35, Sneak 30, no other gun
    mid = _plain(_go(src, "nwod").document)
    assert mid["skills"]["Firearms"] == 1 and mid["skills"]["Stealth"] == 2
    back = _plain(_go(mid, "coc").document)
    # every line as it was (no Handgun, Rifle, SMG or Machine Gun line; the twin Sneak 30 kept
    # beside the better Hide 35), but Spot Hidden 25, which nWoD writes as Investigation 0 and so
    # leaves out (reported), and Dodge, which nWoD derives from Dexterity, as before this change
    theirs = {k: v for k, v in src["skills"].items() if k not in ("Spot Hidden", "Dodge")}
    back["skills"].pop("Dodge", None)
    assert back["skills"] == theirs


def test_a_narrow_line_under_a_broad_skill_comes_back_as_it_was():
    """nWoD Firearms is written at the best of the guns it covers; a lower line it stands over
    comes back as its sheet had it, not raised to the broad level: the Polish marksman's Broń
    krótka 1 beside Broń długa 5 was Broń krótka 5 after a trip through nWoD, the CoC hunter's
    Shotgun 50 beside Rifle 65 was Shotgun 68, the coc-zh sergeant's Handgun 50 was 67."""
    for rel, skills, low in (("pl-trudnosc/npcs/strzelec_wyborowy.yaml", "umiejętności", {"Broń krótka": 1}),
                             ("pl-trudnosc/npcs/sierzant_kowalski.yaml", "umiejętności", {"Broń krótka": 2}),
                             ("coc/npcs/hunter_rifle.yaml", "skills", {"Shotgun": 50}),
                             ("coc-zh/npcs/pmc_contractor.yaml", "skills", {"Handgun": 50})):
        src = _load(rel)
        mid = _go(src, "nwod")
        back = _plain(_go(_plain(mid.document), src["system"]).document)
        for name, level in low.items():
            assert src[skills][name] == level and back[skills][name] == level, (rel, name, back[skills])
    # the broad skill edited since: converted, like any edited value (every line it stands for)
    src = _load("coc/npcs/hunter_rifle.yaml")
    mid = _plain(_go(src, "nwod").document)
    mid["skills"]["Firearms"] += 1
    back = _plain(_go(mid, "coc").document)
    assert back["skills"]["Rifle"] > src["skills"]["Rifle"] and back["skills"]["Shotgun"] > src["skills"]["Shotgun"]


def test_a_coc_zh_line_carried_through_a_broad_skill_passes_back_as_its_number():
    """coc-zh and coc share a skill scale, and a coc-zh sheet's lines are carried under the
    family's namespace (coc): through nWoD and back, the US adviser's Rifle 60 and Handgun 40 are
    60 and 40 again, not 59 and 39 (coc's competence for 60 written on coc-zh's own ladder)."""
    src = _load("coc-zh/npcs/us_adviser.yaml")
    back = _plain(_go(_plain(_go(src, "nwod").document), "coc-zh").document)
    assert (back["skills"]["Rifle"], back["skills"]["Handgun"]) == (60, 40) == (src["skills"]["Rifle"],
                                                                               src["skills"]["Handgun"])


def test_a_coc_sheet_without_sneak_gains_none_and_one_with_only_sneak_keeps_it():
    hide = _load("coc/npcs/police_detective.yaml")  # Hide 15, no Sneak
    for via in ("gurps", "nwod"):
        back = _plain(_go(_plain(_go(hide, via).document), "coc").document)
        assert "Hide" in back["skills"] and "Sneak" not in back["skills"], via
    sneak = _load("coc/npcs/gangster_tommy_gun.yaml")  # Sneak 20, no Hide
    mid = _plain(_go(sneak, "gurps").document)
    # Sneak 20 equates to Stealth-7, which no 3e sheet has at DX 11 (default 6, half a point
    # buys 9: gurps.skill-cost): his default
    assert mid["skills"]["Stealth"] == 6 and mid["DX"] == 11
    assert mid["carried"]["coc"]["sheet_skills"]["Sneak"] == 20
    back = _plain(_go(mid, "coc").document)
    assert back["skills"]["Sneak"] == 20 and "Hide" not in back["skills"]


def test_gurps_stealth_14_is_a_coc_sneak_at_the_equated_value():
    doc = _plain(_go(_load("gurps/npcs/sniper.yaml"), "coc").document)  # Stealth 14
    assert doc["skills"]["Sneak"] == doc["skills"]["Hide"] == 83
    assert "carried" not in doc or "Stealth" not in str(doc["carried"].get("gurps", {}))


def test_narrow_to_broad_stays_the_best_of_the_narrow_skills():
    src = _load("coc/npcs/swat_officer.yaml")  # SMG 65, Handgun 70
    doc = _plain(_go(src, "nwod").document)
    assert doc["skills"]["Firearms"] == 2
    # the narrow lines ride along, so the way home writes them and no others
    # (and Dodge 45: nWoD derives Defense from his attributes, whatever his dodge)
    assert doc["carried"]["coc"]["sheet_skills"] == {"Dodge": 45, "Handgun": 70, "SMG": 65, "Rifle": 50,
                                                     "Locksmith": 25}
    back = _plain(_go(doc, "coc").document)
    assert GUNS & set(back["skills"]) == {"Handgun", "SMG", "Rifle"}
    # each as the sheet had it: Firearms 2 is what the best line (Handgun 70) gives, so the lines
    # under it are unedited (Rifle 50 was Rifle 68, the broad level, before)
    assert (back["skills"]["Handgun"], back["skills"]["SMG"], back["skills"]["Rifle"]) == (70, 65, 50)


def test_the_carried_sheet_skills_and_their_lines_keep_the_sheet_order_in_every_process():
    # GURPS Guns (Pistol) 13, Lockpicking 12 and Holdout 12 are each written under a broad nWoD
    # skill and carried; the carried block and the report lines follow the sheet, whatever the
    # process's string hashing (a set's order once made the CLI's output differ from the API's)
    code = ("from pathlib import Path; from xsys.conversions import api; from xsys.core import codec; "
            f"d = codec.to_builtins(api.load(Path({str(ROOT / 'fixtures/gurps/npcs/investigator.yaml')!r})).document); "
            "d.pop('xsys', None); c = api.convert(api.from_plain(d), 'nwod', fresh=True, trace=False); "
            "print(list(c.document.carried['gurps']['sheet_skills'])); "
            "print([x.path for x in c.losses if x.rule == 'core.skillplan'])")
    want = ("['Guns (Pistol)', 'Lockpicking', 'Holdout']\n"
            "['$.skills.Guns (Pistol)', '$.skills.Lockpicking', '$.skills.Holdout']\n")
    for seed in ("0", "1", "2", "3"):
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}, timeout=60)
        assert r.stdout == want, (seed, r.stdout, r.stderr[-2000:])


def test_a_carried_polish_skill_is_reported_at_its_own_line():
    # the Polish sheet keeps its skills under umiejętności: the report line about Broń długa 4
    # (written as CoC Rifle for the Mauser, the rest carried) names that line, not the whole NPC
    conv = _go(_load("pl-trudnosc/npcs/sierzant_kowalski.yaml"), "coc")
    (line,) = [x for x in conv.losses if x.rule == "core.skillplan"]
    assert line.path == "$.umiejętności.Broń długa"
    assert line.message.startswith("Broń długa 4 (pl-trudnosc) stands for Call of Cthulhu Rifle, Shotgun, SMG, "
                                   "Machine Gun; written: Rifle (the NPC's weapon)")


def test_a_broad_gun_skill_with_no_weapon_is_written_as_its_first_gun():
    """A sheet with no weapon lines says nothing about which gun: the broad skill is written as
    its first gun (nWoD Firearms as CoC Handgun, Polish Broń długa as Rifle), the rest carried,
    so the NPC's competence is on the sheet."""
    nwod = {"system": "nwod", "kind": "npc", "name": "Firearms 2", "Dexterity": 2, "skills": {"Firearms": 2}}
    conv = _go(nwod, "coc")
    doc = _plain(conv.document)
    assert GUNS & set(doc["skills"]) == {"Handgun"}
    (line,) = [x for x in conv.losses if x.rule == "core.skillplan"]
    assert "written: Handgun (no weapon says which gun: the skill's first)" in line.message
    pl = {"system": "pl-trudnosc", "kind": "npc", "imię": "Broń długa 4", "umiejętności": {"Broń długa": 4}}
    doc = _plain(_go(pl, "coc").document)
    assert GUNS & set(doc["skills"]) == {"Rifle"}
    assert _plain(_go(pl, "gurps").document)["skills"].keys() >= {"Guns (Rifle)"}


def test_nwod_athletics_writes_climb_jump_swim_and_throw():
    conv = _go(_load("nwod/npcs/deer-hunter.yaml"), "coc")  # Athletics 2, no thrown weapon
    doc = _plain(conv.document)
    assert {"Climb", "Jump", "Swim", "Throw"} <= set(doc["skills"])
    assert doc["skills"]["Climb"] == doc["skills"]["Jump"] == doc["skills"]["Swim"] == 63



def test_a_sheet_that_prints_every_skill_writes_each_at_its_equated_level():
    """The Polish sheet prints Broń krótka whatever its value: an nWoD SWAT officer (Dexterity 4,
    Firearms 4) with only a rifle read 'Broń krótka 0', an untrained pistol."""
    doc = _plain(_go(_load("nwod/npcs/swat-officer.yaml"), "pl-trudnosc").document)
    assert doc["umiejętności"]["Broń krótka"] == doc["umiejętności"]["Broń długa"] == 5


def test_a_coc_zh_line_carried_under_a_broad_skill_comes_back_on_coc_zh_ladders():
    """coc-zh writes the coc family's carried namespace: a coc-zh Handgun 100 under nWoD Firearms 5
    (unedited) comes back at coc-zh's own competence, which is coc's for Handgun 100: both write
    one Call of Cthulhu percentage, equated on coc's checks (coc-zh.skills.scale; equated on its
    own checks it had been 0.731 against coc's 0.727)."""
    import pytest

    from xsys.core.registry import default_registry

    zh = default_registry().system("coc-zh")
    npc = {"system": "coc-zh", "kind": "npc", "name": "Marksman", "STR": 11, "CON": 11, "SIZ": 13, "DEX": 11,
           "APP": 11, "INT": 13, "POW": 11, "EDU": 14, "skills": {"Handgun": 100}}
    mine = zh.competence("Handgun", 100, {"@key": "handgun"})
    nw = api.convert(api.from_plain(npc), "nwod", fresh=True)
    plain = codec.to_builtins(nw.document)
    assert plain["skills"]["Firearms"] == 5 and plain["carried"]["coc"]["sheet_skills"] == {"Handgun": 100}
    plain.pop("xsys", None)
    back = codec.to_builtins(api.convert(api.from_plain(plain), "neutral").document)
    assert back["skills"]["handgun"] == pytest.approx(mine, abs=1e-9)
    assert mine == pytest.approx(default_registry().system("coc").competence("Handgun", 100, {"@key": "handgun"}),
                                 abs=1e-12)
