"""One source line, one report line: losses that say the same thing of several parts of one
source line (nWoD Athletics has no Polish skill for athletics, climb, swim or jump; one armor's
two lower DRs have no place in a Polish sheet; Firearms clamped on every battery it covers) are
reported once, naming every part (core.audit.merge_alike, core.system.skills_from_neutral)."""

from __future__ import annotations

from pathlib import Path

from xsys.conversions import api, documents
from xsys.core.audit import merge_alike
from xsys.core.trace import Loss

ROOT = Path(__file__).resolve().parent.parent


def _losses(path: str, to: str) -> list[Loss]:
    f = ROOT / path
    return list(api.convert(api.from_plain(documents.read_plain(f), str(f)), to, trace=False, fresh=True).losses)


def _at(losses: list[Loss], path: str, kind: str) -> list[Loss]:
    return [x for x in losses if x.path == path and x.kind == kind]


def test_a_broad_nwod_skill_is_one_line_on_a_polish_sheet():
    losses = _losses("fixtures/nwod/npcs/swat-officer.yaml", "pl-trudnosc")
    athletics = _at(losses, "$.skills.Athletics", "unsupported-field")
    assert len(athletics) == 1, [x.message for x in athletics]
    assert "no skill for athletics" in athletics[0].message
    assert athletics[0].message.endswith(", climb, swim and jump")
    # the Polish sheet prints both gun skills: each is written (Broń krótka was 0, an untrained
    # pistol for a SWAT officer), each clamped at its top level in one line
    clamped = sorted(_at(losses, "$.skills.Firearms", "clamped"), key=lambda x: x.message)
    assert len(clamped) == 2, [x.message for x in clamped]
    assert "the source's handgun competence 0.805 lies above" in clamped[0].message
    assert "Broń krótka 5 (competence 0.760)" in clamped[0].message
    assert "the source's rifle, shotgun, smg and machine_gun competence 0.805 lies above" in clamped[1].message
    assert "Broń długa 5 (competence 0.760)" in clamped[1].message
    assert {x.rule for x in clamped} == {"pl.shoot"}


def test_one_armor_fields_that_have_no_place_are_one_line():
    """A GURPS line's lower DR on the head and on the arms has no place on a Polish sheet: one line
    for the line's two parts. (The SWAT officer's full riot gear, a catalog item, has none: the
    Polish line is that item by name, and every field of it comes back.)"""
    import yaml

    doc = yaml.safe_load((ROOT / "fixtures/gurps/npcs/street_thug.yaml").read_text(encoding="utf-8"))
    doc["armor"] = [{"name": "Scrap mail", "PD": 2, "DR": 6, "locations": ["torso", "head", "arms"],
                     "DR_at": {"head": 3, "arms": 2}}]
    losses = api.convert(api.from_plain(doc, "thug.yaml"), "pl-trudnosc", trace=False, fresh=True).losses
    armor = [x for x in losses if x.path == "$.armor[0]" and x.kind == "unsupported-field"]
    assert [x.message for x in armor] == [
        "armor[0].stops_at.head 72.5 and arms 37.5 J: no place for them in a pl-trudnosc stat block; dropped"]
    riot = _losses("fixtures/nwod/npcs/swat-officer.yaml", "pl-trudnosc")
    assert not [x for x in riot if x.path.startswith("$.armor") and x.kind == "unsupported-field"]


def test_the_sheets_a_chinese_npc_remembers_are_one_line():
    losses = _losses("fixtures/coc-zh/npcs/inspector_chen.yaml", "pl-trudnosc")
    kept = [x for x in losses if "kept for an exact trip back" in x.message]
    assert len(kept) == 1, [x.message for x in kept]
    assert kept[0].message.startswith("the coc-zh and coc sheets as they were, kept for an exact trip back, have no "
                                      "place in a pl-trudnosc sheet")


def _loss(path: str, message: str, kind: str = "unsupported-field") -> Loss:
    return Loss.of(kind, path, message, "x.rule")


def test_merging_needs_one_path_one_kind_and_a_shared_frame():
    lines = [
        _loss("$.skills.A", "P has no skill for climb"),
        _loss("$.skills.B", "P has no skill for swim"),  # another path: apart
        _loss("$.skills.A", "P has no skill for swim"),
        _loss("$.skills.A", "P has no skill for jump", kind="clamped"),  # another kind: apart
        _loss("$.skills.A", "a different sentence altogether about the same skill"),  # no frame: apart
    ]
    out = merge_alike(lines)  # A's three lines share no frame: nothing merges, nothing moves
    assert out == lines
    together = merge_alike([lines[0], lines[1], lines[2], lines[3], _loss("$.skills.A", "P has no skill for jump")])
    assert [(x.path, x.message) for x in together] == [
        ("$.skills.A", "P has no skill for climb, swim and jump"), ("$.skills.B", "P has no skill for swim"),
        ("$.skills.A", "P has no skill for jump")]  # in place of the group's first line; the clamped one apart


def test_a_frame_must_be_most_of_the_line_and_cut_at_a_word():
    short = [_loss("$.a", "Rifle 100 written"), _loss("$.a", "Range 50 dropped")]
    assert merge_alike(short) == short  # "R" is no frame
    fields = merge_alike([_loss("$.a", "a[0].kind 'x': no place for it in Y; dropped"),
                          _loss("$.a", "a[0].mass 13 kg: no place for it in Y; dropped")])
    assert [x.message for x in fields] == ["a[0].kind 'x' and mass 13 kg: no place for them in Y; dropped"]


def test_a_number_keeps_its_unit():
    out = merge_alike([_loss("$.w", "weapons[0].energy 880 J reads back as 911 J from a pl-trudnosc stat block"),
                       _loss("$.w", "weapons[1].energy 405 J reads back as 400 J from a pl-trudnosc stat block")])
    assert [x.message for x in out] == ["weapons[0].energy 880 J reads back as 911 J and weapons[1].energy 405 J "
                                        "reads back as 400 J from a pl-trudnosc stat block"]



# ---- a GM's numbers: the source's own, not the neutral model's ---------------------------

def test_a_value_that_reads_back_as_another_is_said_in_the_source_s_numbers():
    losses = _losses("fixtures/coc/npcs/cultist_shotgun.yaml", "gurps")
    shotgun = _at(losses, "$.skills.Shotgun", "rounded")
    assert len(shotgun) == 1 and shotgun[0].message.startswith("Shotgun 40 reads back as Shotgun 4"), shotgun
    assert "shotgun competence 0.358 → 0.38" in shotgun[0].message  # the neutral numbers after the GM's
    # a characteristic GURPS has no field for is named as the source writes it
    (siz,) = [x for x in losses if x.path == "$.SIZ"]
    assert siz.kind == "kept-verbatim" and siz.message.startswith("SIZ 15 (coc, the neutral size)"), siz
    # nothing in the report is a bare neutral number of the source's fields
    import re
    assert not [x for x in losses if re.search(r"\b0\.\d{5,}", x.message)], [x.render() for x in losses]


def test_no_line_for_a_value_that_comes_back_as_it_was():
    # STR 13 is ST 12 and comes back as STR 13: the neutral numbers differ, the GM's does not
    src = ROOT / "fixtures/coc/npcs/cultist_shotgun.yaml"
    conv = api.convert(api.from_plain(documents.read_plain(src), str(src)), "gurps", trace=False, fresh=True)
    # (the note of the Strong Will a GURPS sheet writes for the will stands at POW: no number of it moves)
    assert not [x for x in conv.losses if x.path in ("$.STR", "$.CON", "$.POW") and x.kind != "assumed"], \
        [x.render() for x in conv.losses]
    written = documents.parse_bytes(api.dump(conv, "yaml"), "yaml", "<gurps>")
    back = api.convert(api.from_plain(written, "<gurps>"), "coc", trace=False, fresh=True).document
    assert (back.STR, back.CON, back.POW) == (13, 14, 14)
    # and where it does not, the line says both numbers, which the trip back bears out
    dex = [x for x in conv.losses if x.path == "$.DEX"]
    assert len(dex) == 1 and dex[0].message.startswith(f"DEX 10 reads back as DEX {back.DEX} "), dex


def test_one_thing_said_at_several_paths_is_one_printed_line():
    # the CoC SWAT officer's Handgun 70, Rifle 50 and SMG 65 all become nWoD Firearms: one merged
    # loss, reported at each source path whose number it moves (the document's report: Handgun
    # and Rifle; SMG 65 reads back as it was), printed once naming every path
    src = ROOT / "fixtures/coc/npcs/swat_officer.yaml"
    conv = api.convert(api.from_plain(documents.read_plain(src), str(src)), "nwod", trace=False, fresh=True)
    merged = [x for x in conv.losses if x.message.startswith("Firearms covers")]
    paths = sorted(x.path for x in merged)
    assert paths == ["$.skills.Handgun", "$.skills.Rifle"]
    assert "handgun, rifle, smg at levels" in merged[0].message
    sheet = api.dump(conv, "md").decode()
    printed = [line for line in sheet.splitlines() if "Firearms covers" in line]
    assert len(printed) == 1 and all(p in printed[0] for p in ("Handgun", "Rifle")), printed
    assert api.dump(conv, "yaml").decode().count("Firearms covers") == len(paths)


def test_a_broad_skill_read_back_is_said_in_the_source_s_own_numbers():
    """A Polish skill that covers several neutral skills (Rzucanie: throw; Broń długa: every long
    arm) holds no one of them at its path, so its read-back was a raw line of neutral numbers
    ("skills.handgun 0.490437 reads back as 0.664923, rifle ..., throw 0.718889 reads back as
    0.63 ..."). It is said as the sheet's own skill at its own line, and not at all where the
    level comes back the same (a bandit's Broń długa 1 written as CoC Shotgun 30)."""
    losses = _losses("fixtures/pl-trudnosc/npcs/sierzant_kowalski.yaml", "nwod")
    (throw,) = _at(losses, "$.umiejętności.Rzucanie", "rounded")
    assert throw.message.startswith("Rzucanie 3 reads back as Rzucanie 2 from a nwod stat block (throw competence")
    assert not [x for x in losses if x.message.startswith("skills.")]
    bandit = _losses("fixtures/pl-trudnosc/npcs/bandyta.yaml", "coc")
    assert not [x for x in bandit if x.kind == "rounded" and "reads back" in x.message and "Broń" not in x.message]
    assert not [x for x in bandit if x.message.startswith("skills.")]


def test_a_neutral_skill_no_stated_skill_names_is_said_as_its_competence():
    """A CoC 6th-edition sheet's brawl comes from its Kick (no Fist/Punch stated): no skill of
    the sheet holds it, so its read-back is said as the neutral brawl's competence."""
    losses = _losses("fixtures/corpus/ccfolia/vampireblood-6e-kanzaki.json", "gurps")
    (brawl,) = [x for x in losses if "brawl" in x.message and x.kind == "rounded"]
    assert brawl.message.startswith("the neutral brawl (competence 0.775) reads back as 0.7")
    assert brawl.message.endswith("from a gurps stat block")


def test_a_line_s_number_that_moves_is_said_beside_a_loss_about_the_line():
    """A Polish grenade's blast has no place in the neutral model (a warning at its line); that
    says nothing of its energy, which nWoD's damage line reads back as less: both are said, at
    the line. A GURPS armor line's PD kept for the way back does not hide that nWoD's armor
    reads back as stopping more. A line that already says the value stays the only one."""
    losses = _losses("fixtures/pl-trudnosc/npcs/sierzant_kowalski.yaml", "nwod")
    at_line = {x.kind: x.message for x in losses if x.path == "$.broń[1]"}
    assert "its blast" in at_line["unsupported-field"]
    assert at_line["rounded"] == "weapons[1].muzzle_energy 1300 J reads back as 1000 J from a nwod stat block"
    f = "fixtures/corpus/text-gurps/customs-inspector-sourcebook-3e.txt"
    armor = [x for x in api.convert(api.load(ROOT / f), "nwod", trace=False, fresh=True).losses
             if x.path == "$.armor[0]"]
    assert {x.kind for x in armor} == {"kept-verbatim", "rounded"}, [x.message for x in armor]
    assert "armor[0].stops 119.5 J reads back as 150 J" in next(x.message for x in armor if x.kind == "rounded")


def test_a_loss_about_the_target_s_own_skill_is_at_the_source_s_line_of_it():
    """GURPS's note that a level is on no 3e sheet names its own skill (Guns (Pistol)); it is placed at
    the source's line of the skill it stands for (coc Handgun, not the whole skills block), and the
    number the source's Handgun comes back as, which the note does not say, is said beside it. A loss
    there about another skill (7th edition's Brawl holding a club skill's level) is not moved."""
    npc = {"system": "coc", "kind": "npc", "name": "Clerk", "STR": 10, "CON": 10, "SIZ": 12, "DEX": 10, "APP": 10,
           "INT": 12, "POW": 10, "EDU": 14, "skills": {"Handgun": 20, "Shotgun": 30}}
    at = {}
    for x in api.convert(api.from_plain(npc), "gurps", trace=False).losses:
        at.setdefault(x.path, []).append(x.message)
    assert "$.skills" not in at, at["$.skills"]
    assert [m.split(" is on ")[0] for m in at["$.skills.Handgun"]][0] == "Guns (Pistol)-8"
    assert any(m.startswith("Handgun 20 reads back as Handgun 25 ") for m in at["$.skills.Handgun"])
    # a Polish source keeps its skills under umiejętności: Broń krótka is Guns (Pistol)'s line
    pl = _losses("fixtures/pl-trudnosc/npcs/strzelec_wyborowy.yaml", "gurps")
    assert [x.path for x in pl if x.message.startswith("Guns (Pistol)-11 is on no 3e sheet")] == \
        ["$.umiejętności.Broń krótka"]
    chen = _losses("fixtures/coc-zh/npcs/inspector_chen.yaml", "coc7")
    club = [x for x in chen if "close combat with a club" in x.message]
    assert club and all(x.path == "$.skills" for x in club), [x.path for x in club]


def test_gurps_will_traits_are_said_at_the_source_s_will():
    """GURPS writes Weak or Strong Will where Will differs from IQ; the note stands at the source's
    field behind the neutral will (coc7 POW, nWoD Composure, the Polish Odwaga), as the HP and Dodge
    traits' notes stand at the toughness and the dodge, not at the whole NPC."""
    for f, field in (("fixtures/coc7/npcs/agnes_whitcombe.yaml", "$.POW"),
                     ("fixtures/pl-trudnosc/npcs/strzelec_wyborowy.yaml", "$.Odwaga")):
        said = [x.path for x in _losses(f, "gurps") if " beside IQ " in x.message]
        assert said == [field], (f, said)


def test_a_loss_about_a_line_of_the_target_s_own_list_is_at_the_source_s_line():
    """The Polish sheet calls its armor pancerz: its note on a line's points stands at the source's
    armor line, not at the whole NPC (where every Polish weapon and armor note had stood), and does
    not hide the audit's finding there. A catalog jacket under the scale's first point is said to
    stop no point here, and its points have a trace step with their rule."""
    npc = {"system": "coc", "kind": "npc", "name": "Guard", "STR": 12, "CON": 12, "SIZ": 12, "DEX": 12, "APP": 10,
           "INT": 12, "POW": 10, "EDU": 12, "skills": {"Handgun": 40},
           "armor": [{"name": "Thick hide coat", "A": 2, "B": 2},
                     {"name": "Heavy leather jacket", "catalog": "heavy-leather-jacket", "A": 1, "B": 1}]}
    conv = api.convert(api.from_plain(npc), "pl-trudnosc")
    at = {}
    for x in conv.losses:
        at.setdefault(x.path, []).append(x.message)
    assert "stops 58.5 J read as 1 armor points (assumed scale)" in at["$.armor[0]"]
    assert any(m.startswith("armor[0].stops 58.5 J reads back as 75 J") for m in at["$.armor[0]"])
    assert any(m.startswith("Heavy leather jacket stops 20 J, under the 50 J of 1 armor point") for m in at["$.armor[1]"])
    assert not any("armor points" in m or "armor point " in m for m in at.get("$", []))
    steps = {(e.path, str(e.target_value)): e.rules for e in conv.trace if e.path.startswith("$.pancerz")}
    assert steps == {("$.pancerz[0]", "punkty 1"): ["pl.armor"], ("$.pancerz[1]", "punkty 0"): ["pl.armor"]}


def test_a_close_combat_class_is_said_with_its_article():
    """'crosses as a improvised' and 'as a unarmed' read wrong: a class is said as words
    ("an improvised weapon", "an unarmed attack", "an axe", "a knife")."""
    from xsys.core.model import melee_class_words

    assert [melee_class_words(c) for c in ("improvised", "unarmed", "axe", "knife", "club")] == [
        "an improvised weapon", "an unarmed attack", "an axe", "a knife", "a club"]
    doc = {"system": "nwod", "kind": "npc", "name": "Opener", "Strength": 2, "Dexterity": 2, "Stamina": 2,
           "weapons": [{"name": "Silver letter opener", "damage": 0, "size": 1}]}
    said = [x.message for x in api.convert(api.from_plain(doc), "coc", trace=False).losses if "crosses as" in x.message]
    assert said and "crosses as an improvised weapon;" in said[0], said


def test_a_loss_about_one_value_is_not_copied_to_a_field_that_states_another():
    """Two source fields that state one neutral value alike share its losses (a CoC shot's fire
    and rounds, its burst); a loss about another value at one of them stays there alone: the
    Polish Percepcja and umiejętności both state the neutral spot, but a perception with no place
    in a 7th-edition sheet is no loss at umiejętności (it was, as a warning); a GURPS ST that
    reads back as another is no loss at skills; a CoC size no Polish field holds is no loss at STR."""
    for path, to, at in (("fixtures/pl-trudnosc/npcs/anna_nowak.yaml", "coc7", "$.umiejętności"),
                         ("fixtures/pl-trudnosc/npcs/anna_nowak.yaml", "coc", "$.umiejętności"),
                         ("fixtures/text/street-thug-mook.txt", "nwod", "$.skills"),
                         ("fixtures/coc-zh/npcs/harvey_walters.yaml", "pl-trudnosc", "$.STR")):
        losses = _losses(path, to)
        wrong = [x.message for x in losses if x.path == at and ("characteristics." in x.message or " ST " in
                                                                 f" {x.message}" or "size" in x.message)]
        assert not wrong, (path, to, wrong)
    losses = _losses("fixtures/pl-trudnosc/npcs/anna_nowak.yaml", "coc7")
    perception = [x for x in losses if "perception" in x.message]
    assert [(x.kind, x.path) for x in perception] == [("kept-verbatim", "$.Percepcja")], \
        [(x.kind, x.path, x.message) for x in perception]


def test_words_in_brackets_merge_inside_their_brackets():
    """Two lines that differ in a bracketed word ('(rifle competence' / '(shotgun competence'; 'Fighting
    (Sword) 15' / 'Fighting (Spear) 15'): one list inside the brackets (it had read '(rifle and
    (shotgun', 'Fighting (Sword and (Spear)'); parts that would leave a bracket open stay apart."""
    guns = merge_alike([_loss("$.s", "Rifle 60 reads back as Rifle 55 (rifle competence 0.514 → 0.482)", "rounded"),
                        _loss("$.s", "Rifle 60 reads back as Rifle 55 (shotgun competence 0.514 → 0.482)", "rounded")])
    assert [x.message for x in guns] == ["Rifle 60 reads back as Rifle 55 (rifle and shotgun competence 0.514 → 0.482)"]
    blades = merge_alike([_loss("$.s", "Fighting (Sword) 15 lies below: written at Fighting (Sword) 20", "clamped"),
                          _loss("$.s", "Fighting (Spear) 15 lies below: written at Fighting (Spear) 20", "clamped")])
    assert [x.message for x in blades] == ["Fighting (Sword and Spear) 15 lies below: written at Fighting (Sword and "
                                           "Spear) 20"]
    nested = [_loss("$.s", "Knife 6 (melee 0.01) lies below it (Knife 9); none written", "clamped"),
              _loss("$.s", "Axe 6 (melee 0.01) lies below it (Axe 8); none written", "clamped")]
    assert all("(" in x.message for x in merge_alike(nested))
    assert not any(x.message.count("(") != x.message.count(")") for x in merge_alike(nested))
