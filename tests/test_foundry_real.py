"""Foundry VTT CoC7 actors and Dhole's House exports as game masters really hold them.

Each test writes a small document in the shape the CoC7 system (0.8 to 8.x) or Dhole's House
exports, and reads it through the input path of ``xsys convert``. The classes of failure seen
on real files: investigators refused for their biography list, skill formulas (@EDU, 1/2*@DEX)
stopping the whole actor, characteristics divided by 5 twice, empty characteristics refused,
an unset HP read as 0, ranges with their unit in the value, the sheet's number for a skill,
creatures' non-human scales, weapons whose skill link differs or is missing, the data models
of each upstream version.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from xsys.conversions import api, documents
from xsys.core.errors import InputError

# ---- documents in the CoC7 system's shapes ------------------------------------------------

CHARS = {"str": 50, "con": 60, "siz": 55, "dex": 60, "app": 50, "int": 70, "pow": 55, "edu": 80}


def characteristics(values: dict[str, Any], formulas: dict[str, str] | None = None) -> dict[str, Any]:
    return {k: {"value": values.get(k), "tempValue": None, "short": f"CHARAC.{k.upper()}", "formula": (formulas or {}).get(k),
                "bonusDice": 0} for k in ("str", "con", "siz", "dex", "app", "int", "pow", "edu")}


def skill(name: str, body: str = "system", _id: str | None = None, **fields: Any) -> dict[str, Any]:
    spec, _, rest = name.partition(" (")
    data = {"skillName": rest.rstrip(")") if rest else name, "specialization": spec if rest else "",
            "base": 0, "adjustments": {"personal": None, "occupation": None, "archetype": None, "experience": None},
            "value": -1, "properties": {"special": bool(rest), "fighting": spec == "Fighting" and bool(rest),
                                        "firearm": spec == "Firearms" and bool(rest)}}
    data.update(fields)
    return {"_id": _id or name.lower().replace(" ", "")[:16], "name": name, "type": "skill", body: data}


def weapon(name: str, body: str = "system", skill_name: str = "", skill_id: str = "", damage: str = "",
           rng: Any = 0, units: str = "", props: dict[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    data = {"skill": {"main": {"name": skill_name, "id": skill_id}, "alternativ": {"name": "", "id": ""}},
            "range": {"normal": {"value": rng, "units": units, "damage": damage},
                      "long": {"value": 0, "units": "", "damage": ""}, "extreme": {"value": 0, "units": "", "damage": ""}},
            "usesPerRound": {"normal": 1, "max": None, "burst": None}, "bullets": None, "ammo": 0, "malfunction": None,
            "properties": props if props is not None else {"rngd": True}}
    data.update(fields)
    return {"_id": name.lower().replace(" ", "")[:16], "name": name, "type": "weapon", body: data}


def actor(kind: str = "npc", body: str = "system", chars: dict[str, Any] | None = None,
          attribs: dict[str, Any] | None = None, items: list[Any] | None = None, version: str = "0.10.7",
          **extra: Any) -> dict[str, Any]:
    system = {"characteristics": characteristics(CHARS if chars is None else chars),
              "attribs": attribs if attribs is not None else {
                  "hp": {"value": 11, "max": 11, "auto": True}, "mp": {"value": 11, "max": 11, "auto": True},
                  "lck": {"value": 50}, "san": {"value": 55, "max": 99}},
              "description": {"keeper": ""}}
    system.update(extra)
    out = {"name": "Test Actor", "type": kind, body: system, "items": items or [], "effects": [], "flags": {}}
    if body == "system":
        out["_stats"] = {"systemId": "CoC7", "systemVersion": version, "coreVersion": "11.315"}
    else:
        out["flags"] = {"exportSource": {"world": "w", "system": "CoC7", "coreVersion": "9.280", "systemVersion": version}}
    return out


def read(tmp_path: Path, plain: Any, name: str = "actor.json", fmt: str | None = None) -> dict[str, Any]:
    """The document as `xsys convert FILE` reads it (format sniffed unless `fmt`)."""
    f = tmp_path / name
    f.write_text(json.dumps(plain), encoding="utf-8")
    doc, _ = documents.read_with_format(f, fmt)
    api.from_plain(copy.deepcopy(doc), str(f))  # and it is a valid coc document
    return doc


def report(doc: dict[str, Any]) -> dict[str, Any]:
    return doc.get("xsys", {}).get("read", {})


def unread(doc: dict[str, Any]) -> dict[str, str]:
    return {u["path"]: u["text"] for u in report(doc).get("unread", [])}


def assumed(doc: dict[str, Any]) -> list[str]:
    return report(doc).get("assumed", [])


# ---- investigators: the biography is a list of sections ----------------------------------

@pytest.mark.parametrize("body", ["system", "data"])
def test_an_investigator_with_a_biography_list_is_read(tmp_path, body):
    plain = actor("character", body=body, biography=[
        {"title": "Personal Description", "value": "<p>Ink on every finger.</p>"},
        {"title": "Traits", "value": None}], backstory="<p>Raised in Kingsport.</p>",
        items=[skill("Spot Hidden", body=body, base="25", adjustments={"personal": 10, "occupation": 20})])
    doc = read(tmp_path, plain)
    assert doc["name"] == "Test Actor" and doc["skills"]["Spot Hidden"] == 55
    assert doc["notes"] == "Personal Description: Ink on every finger. Raised in Kingsport."


# ---- skill formulas -----------------------------------------------------------------------

def test_npc_skill_values_written_as_formulas_are_evaluated_on_its_characteristics(tmp_path):
    plain = actor(items=[skill("Language (Own)", value="@EDU"), skill("Climb", value="@DEX*2"),
                         skill("Dodge", value="(@DEX/2)"), skill("Jump", value="1/2*@STR"),
                         skill("Persuade", value="45")],
                  chars={**CHARS, "dex": 55, "str": 45})
    doc = read(tmp_path, plain)
    assert doc["skills"] == {"Language (Own)": 80, "Climb": 110, "Dodge": 27, "Jump": 22, "Persuade": 45}


def test_an_investigators_base_formula_is_evaluated_then_the_adjustments_added(tmp_path):
    plain = actor("character", items=[
        skill("Language (Own)", base="@EDU"),
        skill("Dodge", base="1/2*@DEX", adjustments={"personal": 10, "occupation": None, "experience": 3}),
        skill("Credit Rating", base="0", adjustments={"occupation": 40}),
        skill("Own Trade", base="@EDU*4", adjustments={})])
    doc = read(tmp_path, plain, name="inv.json")
    assert doc["skills"]["Language (Own)"] == 80
    assert doc["skills"]["Dodge"] == 30 + 10 + 3
    assert doc["skills"]["Credit Rating"] == 40
    assert "Own Trade" not in doc["skills"]  # 320%: beyond coc's 0-200, said
    assert unread(doc)["$.items[3].system"] == "skill 'Own Trade' 320% (coc7 holds 0-200%)"


def test_a_formula_that_cannot_be_evaluated_loses_that_skill_only(tmp_path):
    plain = actor(items=[skill("Library Use", value="@LORE+5"), skill("Dodge", value="@DEX/2"),
                         skill("Occult", value="1d6*10")])
    doc = read(tmp_path, plain)
    assert doc["skills"] == {"Dodge": 30}
    lost = unread(doc)
    assert "@LORE has no value" in lost["$.items[0].system"] and "Library Use" in lost["$.items[0].system"]
    assert "die roll" in lost["$.items[2].system"]


def test_the_formula_reader_is_arithmetic_only():
    from xsys.plugins.foundry_coc7.formula import FormulaError, evaluate

    values = {"dex": 55, "edu": 80, "str": 45}
    assert evaluate("@DEX/2", values) == 27  # Math.floor, as the system keeps a formula's total
    assert evaluate("1/2*@DEX", values) == 27
    assert evaluate("(@str + @DEX) * 2 - 10", values) == 190
    assert evaluate("-7/2", values) == -4
    assert evaluate("(3D6)*5", {}, dice=True) == 50  # the sheet's average roll: 3d6 counts floor(3 x 3.5)
    for bad in ("__import__('os').system('true')", "@DEX**2", "2 +", "(1", "@SAN", "1d6", "", "1/0", "9e999"):
        with pytest.raises(FormulaError):
            evaluate(bad, values)


# ---- characteristics: a 7th-edition actor reads as coc7, its values as written ---------------

def test_high_seventh_edition_values_are_read_as_written(tmp_path):
    plain = actor(chars={"str": 55, "con": 115, "siz": 65, "dex": 80, "app": 25, "int": 40, "pow": 60, "edu": 20},
                  attribs={"hp": {"value": 18, "max": 18, "auto": True}})
    doc = read(tmp_path, plain)
    assert doc["system"] == "coc7"
    assert (doc["STR"], doc["CON"], doc["SIZ"], doc["DEX"], doc["HP"]) == (55, 115, 65, 80, 18)
    # --to coc: the 6th-edition sheet by the editions' rule (/5): CON 115 is coc's 23; beyond the coc7 table, said
    conv = api.convert(api.from_plain(doc), "coc", trace=False)
    assert (conv.document.STR, conv.document.DEX, conv.document.CON) == (11, 16, 23)
    assert any(l.path == "$.CON" and l.kind == "assumed" and l.message.startswith("CON 115 lies beyond the table")
               for l in conv.losses)


def test_the_one_place_that_divides_seventh_edition_values():
    from xsys.plugins.coc.names import SEVENTH_EDITION_FACTOR, seventh_to_coc

    assert SEVENTH_EDITION_FACTOR == 5
    clamped: dict = {}
    chars, note = seventh_to_coc({"STR": 0, "CON": 115, "SIZ": 1050, "DEX": 62}, clamped)
    # coc holds 1-999 (a Great Old One's SIZ 210 on the 3-18 scale); a 0 is no coc value
    assert chars == {"STR": 1, "CON": 23, "SIZ": 210, "DEX": 12}
    assert clamped == {"STR": (0, 1)}
    assert seventh_to_coc({"SIZ": 5050}, clamped)[0] == {"SIZ": 999} and clamped["SIZ"] == (1010, 999)
    assert "CON 115 -> 23" in note
    assert seventh_to_coc({"SIZ": 1050, "STR": 0})[0] == {"SIZ": 210, "STR": 1}  # without: as it always read


# ---- empty characteristics, and what is not an actor ---------------------------------------

def test_an_actor_whose_characteristics_are_all_empty_is_read_with_losses(tmp_path):
    plain = actor(chars={}, attribs={"hp": {"value": None, "max": None, "auto": True}},
                  items=[skill("Dodge", value=30)])
    doc = read(tmp_path, plain)  # claimed by its shape, not refused as '$.system: wrong type'
    assert doc["skills"] == {"Dodge": 30} and doc["STR"] == 55 and doc["SIZ"] == 65  # the 7th-edition average
    said = " ".join(assumed(doc))
    assert "STR, CON, SIZ, DEX, INT, POW none on the sheet" in said
    assert "APP, EDU: none stated, none written" in said and "APP" not in doc and "EDU" not in doc
    assert "HP not set and no CON and SIZ" in said and "HP" not in doc


def test_characteristics_with_only_a_roll_formula_take_the_sheets_average(tmp_path):
    plain = actor(chars={}, attribs={})
    for k, f in {"str": "(3D6)*5", "siz": "(2D6+6)*5", "con": "(3D6)*5"}.items():
        plain["system"]["characteristics"][k]["formula"] = f
    doc = read(tmp_path, plain)
    assert (doc["STR"], doc["SIZ"], doc["CON"], doc["HP"]) == (50, 65, 50, 11)  # HP (50 + 65) / 10
    assert any("STR 50 (formula '(3D6)*5')" in a for a in assumed(doc))


def test_not_an_actor_says_what_it_lacks_by_name(tmp_path):
    keys = {k: None for k in ("_id", "_stats", "effects", "flags", "folder", "img", "items", "ownership", "sort")}
    with pytest.raises(InputError) as err:
        read(tmp_path, {**keys, "name": "X"}, fmt="foundry-coc7")
    line = err.value.line()
    assert "no type" in line and "no system object" in line and "name" in line.split("keys:")[1]
    with pytest.raises(InputError) as err:
        read(tmp_path, {"name": "Box", "type": "container", "system": {}}, fmt="foundry-coc7")
    assert "type 'container'" in err.value.line()
    other = actor()
    other["_stats"]["systemId"] = "dnd5e"  # another system's actor is not claimed, and refused by name
    with pytest.raises(InputError) as err:
        read(tmp_path, other, fmt="foundry-coc7")
    assert "'dnd5e' system" in err.value.line()


# ---- hit points ---------------------------------------------------------------------------

@pytest.mark.parametrize("hp", [{"value": 0, "max": 0}, {"value": None, "max": None}, None,
                                {"value": 0, "max": 0, "auto": False}])
def test_an_unset_hp_is_the_rule_and_said(tmp_path, hp):
    attribs = {} if hp is None else {"hp": hp}
    doc = read(tmp_path, actor(attribs=attribs))
    assert doc["HP"] == (60 + 55) // 10  # 7th edition: (CON + SIZ) / 10 rounded down, on the 7th-edition values
    assert any(a.startswith("$.system.attribs.hp: HP not set") and "HP 11 = (CON 60 + SIZ 55) / 10" in a
               for a in assumed(doc))


def test_a_stated_hp_is_kept_and_an_auto_hp_is_what_the_sheet_computes(tmp_path):
    doc = read(tmp_path, actor(attribs={"hp": {"value": 14, "max": 14, "auto": False}}))
    assert doc["HP"] == 14 and not any("attribs.hp" in a for a in assumed(doc))
    doc = read(tmp_path, actor(attribs={"hp": {"value": 14, "max": 14, "auto": True}}))
    assert doc["HP"] == 11 and any("the stored 14" in a for a in assumed(doc))


# ---- ranges ---------------------------------------------------------------------------------

def test_ranges_with_their_unit_in_the_value_are_read(tmp_path):
    items = [skill("Firearms (Handgun)", _id="hg", value=50),
             weapon("Derringer", skill_id="hg", damage="1D6", rng="15ft"),
             weapon("Webley", skill_id="hg", damage="1D10", rng="20 yards"),
             weapon("Mauser", skill_id="hg", damage="1D10", rng="100m"),
             weapon("Colt", skill_id="hg", damage="1D10", rng=15, units="yards"),
             weapon("Throwing knife", skill_name="Throw", damage="1D4", rng="@STR/5", props={"rngd": True, "thrown": True}),
             weapon("Flare gun", skill_id="hg", damage="1D10", rng="a long way")]
    doc = read(tmp_path, actor(items=items))
    ranges = {w["name"]: w["base_range"] for w in doc["weapons"]}
    assert ranges["Derringer"] == "15 ft" and ranges["Webley"] == "20 yd" and ranges["Mauser"] == "100 m"
    assert ranges["Colt"] == "15 yd" and ranges["Throwing knife"] == "10 yd"  # STR 50 / 5
    # an unreadable range is a loss line, and the default that stands in for it is said
    assert "range 'a long way' is not a distance" in unread(doc)["$.items[6].system.range.normal.value"]
    assert any(a.startswith("$.items[6]: Flare gun: not stated, as 7th edition's table gives it (the handgun row; "
                            "coc7.weapons): base range 15 yd") for a in assumed(doc))


# ---- which number the sheet shows ----------------------------------------------------------

def test_an_investigators_skill_is_base_plus_adjustments_an_npcs_its_stored_value(tmp_path):
    adj = {"personal": 10, "occupation": 20, "archetype": None, "experiencePackage": 5, "experience": 4}
    spot = skill("Spot Hidden", base=25, adjustments=adj, value=99)
    inv = read(tmp_path, actor("character", items=[spot]), name="inv.json")
    assert inv["skills"]["Spot Hidden"] == 25 + 10 + 20 + 5 + 4  # the sheet computes it; value is not used
    npc = read(tmp_path, actor("npc", items=[spot]), name="npc.json")
    assert npc["skills"]["Spot Hidden"] == 99  # an NPC's sheet shows its stored value
    creature = read(tmp_path, actor("creature", items=[skill("Dodge", base=30, value=-1)]), name="c.json")
    assert creature["skills"]["Dodge"] == 30  # never set: the base, as the system sets a new NPC skill


def test_the_coc7_8_data_model_sums_the_adjustments_for_every_actor(tmp_path):
    for kind in ("npc", "character"):
        sk = {"_id": "s1", "name": "Firearms (Handgun)", "type": "skill",
              "system": {"skillName": "Handgun", "specialization": "Firearms", "base": "20",
                         "adjustments": {"base": 20, "personal": 0, "occupation": 15, "archetype": 0,
                                         "experiencePackage": 0, "experience": 10}}}
        plain = actor(kind, items=[sk], version="8.3")
        doc = read(tmp_path, plain, name=f"{kind}.json")
        assert doc["skills"]["Firearms (Handgun)"] == 45
        assert "CoC7 system 8+" in report(doc)["reader"]


# ---- creatures' scales ----------------------------------------------------------------------

def test_creature_scales_are_read_as_written_and_a_clamp_is_a_loss_line(tmp_path):
    plain = actor("creature", chars={"str": 1, "con": 10, "siz": 250, "dex": 10, "app": 0, "int": 20, "pow": 0,
                                     "edu": 0}, attribs={"hp": {"value": 26, "max": 26}})
    doc = read(tmp_path, plain)
    # into coc7 as written; a creature's 0 for POW (which every creature has) is the average adult's,
    # said; its APP and EDU of 0 are none (it has neither), said once
    assert (doc["STR"], doc["CON"], doc["SIZ"], doc["DEX"], doc["POW"], doc["HP"]) == (1, 10, 250, 10, 55, 26)
    assert "APP" not in doc and "EDU" not in doc
    lost = unread(doc)
    assert "$.system.characteristics.str.value" not in lost and "$.system.characteristics.siz.value" not in lost
    assert "POW 0" in lost["$.system.characteristics.pow.value"]
    assert not any(".app" in p or ".edu" in p for p in lost)
    big = actor("creature", chars={**CHARS, "siz": 1050, "str": 50000})
    doc = read(tmp_path, big, name="big.json")
    assert (doc["SIZ"], doc["STR"]) == (1050, 9999)  # the rulebook's Cthulhu's SIZ 1050 is a coc7 value
    lost = unread(doc)
    assert "$.system.characteristics.siz.value" not in lost
    assert "STR 50000 (a coc7 characteristic is 1-9999): read as 9999" in lost["$.system.characteristics.str.value"]


# ---- weapons and their skills -------------------------------------------------------------

def test_a_weapon_names_its_skill_by_skill_name_id_or_coc_id(tmp_path):
    items = [skill("Firearms (Rifle/Shotgun)", _id="rs", value=55), skill("Firearms (Submachine Gun)", value=45),
             skill("Fighting (Brawl)", _id="fb", value=60),
             weapon("Winchester", skill_name="Rifle/Shotgun", damage="2D6+4", rng=110, units="yards"),
             weapon("Coach gun", skill_name="Rifle/Shotgun", damage="4D6", rng=10, props={"rngd": True, "shotgun": True}),
             weapon("Tommy gun", skill_name="i.skill.firearms-submachine-gun", damage="1D10+2", rng=20),
             weapon("Sap", skill_id="fb", damage="1D6", props={"rngd": False, "addb": True})]
    doc = read(tmp_path, actor(items=items))
    skills = {w["name"]: w["skill"] for w in doc["weapons"]}
    assert skills == {"Winchester": "Firearms (Rifle/Shotgun)", "Coach gun": "Firearms (Rifle/Shotgun)",
                      "Tommy gun": "Firearms (Submachine Gun)"}
    assert doc["melee"] == [{"name": "Sap", "skill": "Fighting (Brawl)", "damage": "1D6+DB"}]
    assert doc["skills"]["Firearms (Submachine Gun)"] == 45 and doc["skills"]["Fighting (Brawl)"] == 60


def test_natural_attacks_are_melee_attacks_with_their_skill(tmp_path):
    items = [skill("Fighting (Bite)", _id="bite", value=50), skill("Fighting (Claw)", value=40),
             weapon("Bite", skill_id="bite", damage="1D6", props={"rngd": False}),
             weapon("Claw", skill_name="Claw", damage="1D4", props={"rngd": False, "addb": True}),
             weapon("Beak", skill_name="i.skill.fighting-brawl", damage="1D8", props={"ahdb": True}),
             weapon("Tentacle", skill_name="Fighting (Tentacle)", damage="1D6+DB", props={})]
    doc = read(tmp_path, actor("creature", items=items))
    assert doc["melee"] == [{"name": "Bite", "skill": "Fighting (Bite)", "damage": "1D6"},
                            {"name": "Claw", "skill": "Fighting (Claw)", "damage": "1D4+DB"},
                            {"name": "Beak", "skill": "Fighting (Brawl)", "damage": "1D8+1/2DB"},
                            {"name": "Tentacle", "skill": "Fighting (Tentacle)", "damage": "1D6+DB"}]
    assert doc["skills"]["Fighting (Bite)"] == 50 and doc.get("weapons", []) == []
    # a creature's own Fighting speciality is no misspelt 'Fighting (Axe)': no closest-match warning
    assert "unknown" not in report(doc)


def test_a_weapon_with_no_skill_link_is_read_or_said_never_dropped(tmp_path):
    items = [weapon("Double-barreled shotgun", damage="4D6", rng=10, units="yards", props={"rngd": True, "shotgun": True}),
             weapon("Colt M1911A1", damage="1D10+2", rng=15, units="yards"),
             weapon("Cleaver", damage="1D6", props={"rngd": False, "addb": True}),
             weapon("Odd device", damage="2D6", rng=5, units="yards")]
    doc = read(tmp_path, actor(items=items))
    assert {w["name"]: w["skill"] for w in doc["weapons"]} == {"Double-barreled shotgun": "Firearms (Rifle/Shotgun)",
                                                               "Colt M1911A1": "Firearms (Handgun)"}
    assert doc["melee"] == [{"name": "Cleaver", "skill": "Cleaver", "damage": "1D6+DB"}]
    lost = unread(doc)
    assert "Cleaver: no skill linked" in lost["$.items[2].system.skill"]
    assert "Odd device" in lost["$.items[3]"]
    assert any("Double-barreled shotgun: no skill linked; Shotgun, from its shotgun property" in a
               for a in assumed(doc))


# ---- readers by upstream data model ------------------------------------------------------

def test_each_data_model_has_its_reader_and_says_so(tmp_path):
    from xsys.plugins.foundry_coc7.reader import data_model

    v9, v10, v13 = actor(body="data", version="0.8.2"), actor(), actor(version="8.1")
    assert [data_model(a) for a in (v9, v10, v13)] == ["v9", "v10", "coc7-8"]
    unstamped = actor(items=[{"name": "Dodge", "type": "skill", "system": {"base": "1/2*@DEX",
                                                                          "adjustments": {"base": 30}}}])
    del unstamped["_stats"]
    assert data_model(unstamped) == "coc7-8"  # adjustments.base and no stored value: the data models
    doc = read(tmp_path, v9)
    assert report(doc)["reader"].startswith("foundry-coc7 actor, Foundry 9 and earlier data model")
    assert report(doc)["edition"].startswith("7th edition") and "STR 50" in report(doc)["edition"]


# ---- Dhole's House --------------------------------------------------------------------------

def dhole(**chars: str) -> dict[str, Any]:
    base = {"STR": "50", "DEX": "60", "INT": "70", "CON": "60", "APP": "50", "POW": "55", "SIZ": "55", "EDU": "80",
            "Move": "8", "Luck": "50", "Sanity": "50", "MagicPts": "11", "MagicPtsMax": "11", "HitPts": "11",
            "HitPtsMax": "11", "DamageBonus": "0", "Build": "0"}
    base.update(chars)
    return {"Investigator": {"Header": {"GameVersion": "7th Edition", "Version": "0.3.1"},
                             "PersonalDetails": {"Name": "Test Investigator", "Occupation": "Clerk"},
                             "Characteristics": base, "Skills": {"Skill": []}, "Weapons": {"weapon": []}}}


def test_dholes_house_reads_its_dashes_slots_and_weapon_lines(tmp_path):
    plain = dhole()
    inv = plain["Investigator"]
    inv["Skills"]["Skill"] = [
        {"name": "Fighting", "subskill": "Brawl", "value": "45"}, {"name": "Firearms", "subskill": "Handgun", "value": "40"},
        {"name": "Science", "subskill": "None", "value": "1"}, {"name": "Language (Own)", "subskill": "English",
                                                                "value": "80"},
        {"name": "Throw", "value": "35"}]
    inv["Weapons"]["weapon"] = [
        {"name": "Unarmed", "skillname": "(Brawl)", "damage": "1D3+DB", "range": "-", "attacks": "1", "ammo": "-",
         "malf": "-"},
        {"name": ".38 Revolver", "skillname": "Handgun", "damage": "1D10", "range": "15 yards", "attacks": "1 (3)",
         "ammo": "6", "malf": "100"},
        {"name": "Sawed-off", "skillname": "Rifle/Shotgun", "damage": "4D6/1D6", "range": "10/20 yards",
         "attacks": "1 or 2", "ammo": "2", "malf": "100"},
        {"name": "Thrown rock", "skillname": "Throw", "damage": "1D4+half DB", "range": "STR/5 yards",
         "attacks": "1", "ammo": "-", "malf": "-"},
        {"name": "Sling", "skillname": "Throw", "damage": "1D4", "range": "a stone's throw", "attacks": "1"}]
    doc = read(tmp_path, plain, name="dh.json")
    assert doc["system"] == "coc7"
    assert doc["skills"] == {"Fighting (Brawl)": 45, "Firearms (Handgun)": 40, "Language (English)": 80, "Throw": 35}
    assert doc["melee"] == [{"name": "Unarmed", "skill": "Fighting (Brawl)", "damage": "1D3+DB"}]
    weapons = {w["name"]: w for w in doc["weapons"]}
    assert weapons[".38 Revolver"]["base_range"] == "15 yd" and weapons[".38 Revolver"]["capacity"] == 6
    assert (weapons["Sawed-off"]["skill"], weapons["Sawed-off"]["damage"], weapons["Sawed-off"]["base_range"]) == \
        ("Firearms (Rifle/Shotgun)", "4D6/1D6", "10 yd")
    assert weapons["Thrown rock"]["base_range"] == "10 yd"  # STR 50 / 5
    assert "range \"a stone's throw\" is not a distance" in unread(doc)["$.Investigator.Weapons.weapon[4].range"]
    assert any("subskill 'None'" in a and "'Science'" in a for a in assumed(doc))
    assert "0.3.1" in report(doc)["reader"] and report(doc)["edition"].startswith("7th edition")


def test_dholes_house_unreadable_values_are_losses_and_an_empty_hp_is_the_rule(tmp_path):
    doc = read(tmp_path, dhole(STR="strong", HitPts="", HitPtsMax=""), name="dh.json")
    assert doc["STR"] == 55  # the average 7th-edition adult, said
    assert "'strong' is not a number" in unread(doc)["$.Investigator.Characteristics.STR"]
    assert doc["HP"] == (60 + 55) // 10
    assert any(a.startswith("$.Investigator.Characteristics.HitPtsMax: no hit points in the export; HP 11")
               for a in assumed(doc))
    big = read(tmp_path, dhole(CON="115", STR="55", DEX="80", HitPtsMax="17"), name="big.json")
    assert (big["STR"], big["CON"], big["DEX"], big["HP"]) == (55, 115, 80, 17)  # as written


def test_a_weapon_value_coc_cannot_hold_is_a_loss_not_a_refusal(tmp_path):
    items = [skill("Firearms (Handgun)", _id="hg", value=50),
             weapon("Colt M1911A1", skill_id="hg", damage="see notes", rng=15, units="yards", bullets=10**9),
             weapon("Hook", skill_name="Fighting (Brawl)", damage="1D6 + grab", props={"rngd": False, "addb": True})]
    doc = read(tmp_path, actor(items=items))  # read, not refused
    lost = unread(doc)
    assert "damage 'seenotes' (not dice" in lost["$.items[1].system.range.normal.damage"]
    assert lost["$.items[1].system.bullets"] == "Colt M1911A1: 1000000000 (expected 0 to 10000)"
    assert "Colt M1911A1" in lost["$.items[1]"] and doc["weapons"] == []  # no damage: the weapon line is said
    # a damage with an effect in words after it: the dice, the words said (it had been a line without damage)
    assert "'+grab' after its damage 1D6" in lost["$.items[2].system.range.normal.damage"]
    # (and the wielder's damage bonus its 'addb' adds, after the dice)
    assert [(m["name"], m["skill"], m["damage"]) for m in doc["melee"]] == [("Hook", "Fighting (Brawl)", "1D6+DB")]


# ---- creatures: armor points, and a bestiary module's copy of the block --------------------------

def test_a_creature_s_armor_attribute_is_its_armor_line(tmp_path):
    """attribs.armor.value is a CoC7 creature's armor points (a 4-point hide): it was said to have
    no place in the document, which coc7 holds as whole points; a roll there is said. A creature's
    is its body's own: natural armor (an NPC's stays a worn 'Armor')."""
    attribs = {"hp": {"value": 20, "max": 20}, "armor": {"value": "4"}}
    doc = read(tmp_path, actor("creature", attribs=attribs))
    assert doc["armor"] == [{"name": "Natural armor", "armor": 4}]
    assert read(tmp_path, actor("npc", attribs=attribs))["armor"] == [{"name": "Armor", "armor": 4}]
    rolled = read(tmp_path, actor("creature", attribs={**attribs, "armor": {"value": "1D6"}}))
    assert "armor" not in rolled or not rolled["armor"]
    assert "1D6" in unread(rolled)["$.system.attribs.armor"]


def test_a_bestiary_module_s_copy_of_the_block_in_its_flags_is_read_and_the_rest_said(tmp_path):
    """A bestiary module that keeps a creature's attacks, skills and armor as printed text under
    its own flags, with no items: they were dropped without a word. They read as the block's lines;
    what the text reader cannot read, and the module's other data, are said."""
    creature = actor("creature", items=[])
    creature["flags"] = {"core": {"sourceId": "Actor.x"}, "some-bestiary": {
        "source": "bestiary", "attacks": ["Gore 45% — 1D8+DB", "Trample 25% — See the full entry"],
        "skills": ["Listen 60%", "Track 35%"], "armorValue": "2 (thick pelt)", "specialAbilities": ["Charges"]}}
    doc = read(tmp_path, creature)
    # the attack told elsewhere ("See the full entry") keeps its chance, its damage said
    assert [(m["name"], m["damage"]) for m in doc["melee"]] == [("Gore", "1D8+DB"), ("Trample", "")]
    assert (doc["skills"]["Gore"], doc["skills"]["Trample"], doc["skills"]["Listen"], doc["skills"]["Track"]) \
        == (45, 25, 60, 35)
    assert doc["armor"] == [{"name": "Armor (thick pelt)", "armor": 2}]
    lost = unread(doc)
    assert "See the full entry" in lost["$.flags.some-bestiary.attacks[1]"]
    assert "Charges" in lost["$.flags.some-bestiary.specialAbilities"]
    assert not any("source" in p or "core" in p for p in lost)
    assert any("module's copy of the stat block" in a for a in assumed(doc))
    # an actor with its own skill items keeps them: the module's copy is not read twice
    with_items = actor("creature", items=[skill("Listen", value=70)])
    with_items["flags"] = {"some-bestiary": {"skills": ["Listen 60%"]}}
    assert read(tmp_path, with_items)["skills"]["Listen"] == 70


def test_a_bestiary_module_s_entries_copied_with_their_line_breaks_read_line_by_line(tmp_path):
    """A bestiary module that copied its book's pages into its flags (as the Cthulhu Invictus
    module does: "DB\\nFighting, Tail 35% — …", a sentence over lines before "Fighting (as Human)
    50%", "non\\x02magical", MOV "8/9 fly") had a skill named "DB Fighting, Tail", a sentence as a
    skill's name, a control character in the notes and no MOV. Each line with a chance is an
    attack of its own; "Fighting, Claws" is the Claws made with Fighting; the words are notes; the
    walking MOV is read and the flying one said."""
    creature = actor("creature", items=[], attribs={"hp": {"value": 12, "max": 12}, "mov": {"value": "8/9 fly"}})
    creature["flags"] = {"a-bestiary": {
        "attacks": ["Fighting, Claws 35% — See Full Entry", "DB\nFighting, Tail 35% — See Full Entry",
                    "These beasts claw and lash with their\ntails, and may bite when cornered\nBite 40% — 1D6+poison"],
        "skills": ["Track (50%", "Listen 60%"],
        "armorValue": "3 points of matted fur. In addition, non\x02magical weapons do half damage"}}
    doc = read(tmp_path, creature)
    assert [(m["name"], m["skill"], m["damage"]) for m in doc["melee"]] == [
        ("Claws", "Fighting", ""), ("Tail", "Fighting", ""), ("Bite", "Bite", "1D6")]
    assert doc["skills"] == {"Fighting": 35, "Bite": 40, "Track": 50, "Listen": 60}
    assert doc["armor"] == [{"name": "Matted fur", "armor": 3}]
    assert doc["MOV"] == 8
    assert "These beasts claw and lash with their tails, and may bite when cornered" in doc["notes"]
    assert "In addition, nonmagical weapons do half damage" in doc["notes"] and "\x02" not in doc["notes"]
    lost = unread(doc)
    assert "MOV 9 fly" in lost["$.system.attribs.mov.value"] and "+poison" in lost["$.flags.a-bestiary.attacks[2]"]
    # an entry that is no text: said (it had been dropped without a word)
    odd = actor("creature", items=[])
    odd["flags"] = {"a-bestiary": {"attacks": [{"roll": "1D6"}, "Bite 40% — 1D6"]}}
    assert "roll" in unread(read(tmp_path, odd))["$.flags.a-bestiary.attacks[0]"]
    # the broken-off end of another line: said
    assert "DB" in [u["text"] for u in report(doc)["unread"] if u["path"] == "$.flags.a-bestiary.attacks[1]"]


def test_the_japanese_module_s_templates_read_as_their_skills(tmp_path):
    """The Japanese CoC7 module's templates (a Foundry 9 pack written by others): its brawl is the
    skill 格闘 under the speciality 近接格闘 (it had been an unknown skill, '近接格闘 (格闘)'), its own
    language is 母国語 under 言語 (it had been 'Other Language (母国語)'), a speciality left to choose
    is '（専門分野を選ぶ）' (now 'Any', as the system's English compendium prints it), and a creature's
    tail with its skill and no damage had been unread: a line of no damage, made with that skill."""
    def ja(name: str, spec: str, value: int, _id: str) -> dict[str, Any]:
        return skill(name, _id=_id, skillName=None, specialization=spec, value=value,
                     properties={"special": True, "fighting": spec == "近接格闘"})

    npc = actor("npc", items=[ja("格闘", "近接格闘", 45, "brawlja"), ja("母国語", "言語", 60, "ownja"),
                              ja("（専門分野を選ぶ）", "サバイバル", 10, "survja"),
                              weapon("こぶし", skill_name="格闘", skill_id="brawlja", damage="1D3", props={"addb": True})])
    doc = read(tmp_path, npc)
    assert doc["skills"] == {"Fighting (Brawl)": 45, "Language (Own)": 60, "Survival (Any)": 10}
    assert [(m["name"], m["skill"]) for m in doc["melee"]] == [("こぶし", "Fighting (Brawl)")]
    creature = actor("creature", items=[ja("格闘", "近接格闘", 50, "brawlja"),
                                        weapon("鋭い尾", skill_name="格闘", skill_id="brawlja", damage="",
                                               props={"melee": True})])
    doc = read(tmp_path, creature)
    assert [(m["name"], m["skill"], m["damage"]) for m in doc["melee"]] == [("鋭い尾", "Fighting (Brawl)", "")]
    assert not any("鋭い尾" in t for t in unread(doc).values())


def test_a_creature_s_appearance_and_education_of_0_are_none(tmp_path):
    """The CoC7 system stores a creature's absent APP and EDU as 0: each had been a loss ('not
    read') and then the average adult's 55 and 70 on the coc7 sheet. They are none, said once; a
    characteristic every creature has (STR 0) is still a loss and the average."""
    creature = actor("creature", chars={**CHARS, "app": 0, "edu": None, "str": 0})
    doc = read(tmp_path, creature)
    assert "APP" not in doc and "EDU" not in doc and doc["STR"] == 55
    lost = unread(doc)
    assert not any(".app" in p or ".edu" in p for p in lost) and any(".str" in p for p in lost)
    assert sum("APP, EDU: none stated, none written" in a for a in assumed(doc)) == 1


def test_a_compendium_pack_is_a_roster_of_its_actors(tmp_path):
    """A Foundry 9-10 compendium pack (a .db file: one JSON document a line, a later line with the
    same _id replacing an earlier one) was refused ("cannot tell the format from the file name");
    its actors read as a roster, each actor's report named by its line, what is no actor said."""
    first, second = actor(), actor("creature", chars={**CHARS, "str": 90})
    first["_id"], second["_id"] = "a1", "b2"
    first["name"], second["name"] = "Doorman", "Hound"
    renamed = {**first, "name": "Doorman (revised)"}
    lines = [first, second, {"_id": "c3", "name": "Cupboard", "type": "container", "system": {}}, renamed,
             {"_id": "d4", "name": "Gone", "type": "npc", "$$deleted": True}]
    pack = tmp_path / "monsters.db"
    pack.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    doc, fmt = documents.read_with_format(pack, None)
    assert (doc["system"], doc["kind"], fmt) == ("coc7", "roster", "plugin:foundry-coc7")
    assert [(n["name"], n["STR"]) for n in doc["npcs"]] == [("Doorman (revised)", 50), ("Hound", 90)]
    said = doc["xsys"]["read"]
    assert "compendium pack of 2 actor(s)" in said["reader"]
    assert any("'container' 'Cupboard'" in u["text"] for u in said["unread"])
    converted = api.convert(api.from_plain(copy.deepcopy(doc), str(pack)), "gurps", trace=False)
    assert [n.name for n in converted.document.npcs] == ["Doorman (revised)", "Hound"]
    bad = tmp_path / "notes.db"
    bad.write_text("not json\n", encoding="utf-8")
    with pytest.raises(InputError, match="malformed Foundry actor JSON"):
        documents.read_with_format(bad, None)


def test_a_weapon_with_a_stated_rate_that_fires_bursts_keeps_both(tmp_path):
    """A Thompson stating usesPerRound 1 (max 2) with its brst/auto properties and a burst size:
    7th edition's table writes '1 or full auto'; the stated rate had replaced the burst, and the gun
    crossed to every system as single shots only."""
    items = [skill("Firearms (Submachine Gun)", _id="smg", value=45),
             weapon("Thompson M1921", skill_id="smg", damage="1D10+2", rng=20, units="yards",
                    usesPerRound={"normal": 1, "max": 2, "burst": 5},
                    props={"rngd": True, "brst": True, "auto": True}, bullets=30)]
    doc = read(tmp_path, actor(items=items))
    assert doc["weapons"][0]["uses_per_round"] == "1 (2) or full auto"
    neutral = api.convert(api.from_plain(copy.deepcopy(doc), "x.json"), "neutral", trace=False).document
    assert "auto" in neutral.weapons[0].fire_modes


def test_a_japanese_skill_joined_with_a_space_is_the_sheet_s_skill(tmp_path):
    """The CoC7 system names a skill specialization + ' (' + skill + ')': '射撃 (拳銃)' is the Japanese
    sheet's 射撃(拳銃), Firearms (Handgun), not an unknown skill (its pistol had been dropped)."""
    items = [skill("射撃 (拳銃)", _id="hg", value=55, specialization="射撃", skillName="拳銃"),
             skill("近接戦闘 (格闘)", _id="br", value=60, specialization="近接戦闘", skillName="格闘"),
             weapon("ブローニング M1910", skill_id="hg", damage="1D8", rng=15, units="m")]
    doc = read(tmp_path, actor(items=items))
    assert doc["skills"]["Firearms (Handgun)"] == 55 and doc["skills"]["Fighting (Brawl)"] == 60
    assert [(w["name"], w["skill"]) for w in doc["weapons"]] == [("ブローニング M1910", "Firearms (Handgun)")]


def test_a_creature_s_armor_with_words_after_its_points_is_those_points(tmp_path):
    doc = read(tmp_path, actor(kind="creature", attribs={"hp": {"value": 11, "max": 11}, "armor": {"value": "2 (hide)"}}))
    assert [a["armor"] for a in doc["armor"]] == [2]
    assert any("armor '2 (hide)': 2 points; 'hide'" in x for x in assumed(doc))


def test_what_a_coc_line_cannot_hold_is_said_not_dropped(tmp_path):
    """A grenade's blast radius is read with its damage ('4D10/3 yards'); a second skill
    (skill.alternativ), a stun property, a fly speed (8.x special.movement) and a 0 gauge read as
    unset are each said (they had gone without a word)."""
    items = [skill("Throw", _id="th", value=50), skill("Firearms (Rifle/Shotgun)", _id="rs", value=55),
             skill("Firearms (Machine Gun)", _id="mg", value=40),
             weapon("Mills bomb", skill_id="th", damage="4D10", rng=14, units="yards",
                    props={"rngd": True, "blst": True, "thrown": True}, blastRadius=3),
             weapon("BAR", skill_id="rs", damage="2D6+4", rng=90, units="yards", props={"rngd": True, "brst": True},
                    skill={"main": {"name": "", "id": "rs"}, "alternativ": {"name": "", "id": "mg"}}),
             weapon("Taser", skill_id="rs", damage="1D3", rng=5, units="yards", props={"rngd": True, "stun": True})]
    doc = read(tmp_path, actor(kind="creature", items=items, special={"movement": [{"type": "walk", "value": 7},
                                                                                 {"type": "fly", "value": 9}]},
                               attribs={"hp": {"value": 11, "max": 11}, "san": {"value": 0}}))
    bomb = next(w for w in doc["weapons"] if w["name"] == "Mills bomb")
    assert bomb["damage"].upper() == "4D10"  # its blast: the text reader's grenade reading, said
    texts = "\n".join(unread(doc).values()) + "\n" + "\n".join(assumed(doc))
    assert "blast radius 3" in texts
    assert "BAR: its second skill (Firearms (Machine Gun)) has no place" in texts
    assert "Taser: stun (the attack stuns, no damage) (no field in a coc weapon line)" in texts
    assert "fly 9 (a coc7 document holds one MOV, the walking one)" in texts
    assert "san 0 read as not set" in texts


def test_a_close_combat_weapons_properties_rate_and_reach_are_said(tmp_path):
    """A blackjack's stun, a bullwhip's manoeuvre and special property with its description and its
    10 ft reach, talons used twice a round, a BAR's bursts of 3: none has a field in a coc line, and
    each had gone without a word (only a ranged weapon's stun was said)."""
    items = [skill("Fighting (Brawl)", _id="fb", value=60), skill("Fighting (Whip)", _id="fw", value=40),
             skill("Firearms (Rifle/Shotgun)", _id="rs", value=50),
             weapon("Blackjack", skill_id="fb", damage="1D8", props={"melee": True, "stun": True}),
             weapon("Bullwhip", skill_id="fw", damage="1D3", rng="10ft", props={"melee": True, "mnvr": True, "spcl": True},
                    description={"value": "", "special": "<p>Can disarm or entangle.</p>"}),
             weapon("Talons", skill_id="fb", damage="1D6", props={"melee": True, "addb": True},
                    usesPerRound={"normal": "2", "max": None, "burst": None}),
             weapon("BAR", skill_id="rs", damage="2D6+4", rng=90, units="yards", props={"rngd": True, "brst": True},
                    usesPerRound={"normal": 1, "max": 2, "burst": 3})]
    doc = read(tmp_path, actor(items=items))
    texts = unread(doc)
    assert texts["$.items[3].system.properties"] == "Blackjack: stun (the attack stuns, no damage) (no field in a coc " \
                                                    "weapon line)"
    assert texts["$.items[4].system.properties"] == "Bullwhip: a fighting manoeuvre weapon, special, 'Can disarm or " \
                                                    "entangle.' (no field in a coc weapon line)"
    assert texts["$.items[4].system.range.normal.value"] == "Bullwhip: reach 10ft (a coc close-combat line has no range)"
    assert texts["$.items[5].system.usesPerRound.normal"] == "Talons: 2 attacks a round (a coc close-combat line has " \
                                                             "no field for it)"
    assert texts["$.items[6].system.usesPerRound.burst"].startswith("BAR: bursts of 3 rounds")
    assert [m["name"] for m in doc["melee"]] == ["Blackjack", "Bullwhip", "Talons"]  # each still read


def test_a_stated_damage_bonus_other_than_the_rules_is_said_with_the_rules_value(tmp_path):
    """A Keeper's DB +1D4 and Build 1 (auto off) on an NPC whose STR 50 and SIZ 65 give 0 and 0:
    coc7 derives both, and the report says what the rules give beside what the sheet states."""
    plain = actor(chars={**CHARS, "str": 50, "siz": 65}, attribs={
        "hp": {"value": 11, "max": 11, "auto": True}, "db": {"value": "+1D4", "auto": False},
        "build": {"value": 1, "auto": False}})
    doc = read(tmp_path, plain)
    (line,) = [a for a in assumed(doc) if "not carried" in a]
    assert "DB +1D4 (the rules give 0 from STR 50 and SIZ 65), BUILD 1 (the rules give 0 from STR 50 and SIZ 65) " \
           "not carried" in line


def test_a_dholes_house_investigators_details_and_backstory_are_in_the_notes(tmp_path):
    """Age, gender, birthplace and the sheet's backstory boxes (its 'injurues' spelling too) had
    gone without a word: the notes say them under the sheet's labels; cash is said not carried."""
    plain = dhole()
    inv = plain["Investigator"]
    inv["PersonalDetails"].update({"Age": "41", "Gender": "Male", "Birthplace": "Boston", "Residence": "", "Archetype": None})
    inv["Backstory"] = {"description": "Broad-shouldered.", "traits": "Stubborn.", "injurues": "Old knee injury",
                        "phobias": "", "people": "His sister Maeve"}
    inv["Cash"] = {"spending": "$10", "cash": "$40", "assets": ""}
    doc = read(tmp_path, plain)
    assert doc["notes"] == ("Clerk. Broad-shouldered. Age: 41. Gender: Male. Birthplace: Boston. Significant People: His "
                            "sister Maeve. Traits: Stubborn. Injuries & Scars: Old knee injury")
    assert "$.Investigator.Cash: not carried (a stat block lists combat material only): spending $10, cash $40" \
        in assumed(doc)


def test_a_dholes_house_hp_with_a_blank_maximum_is_said_beside_the_rule(tmp_path):
    """HitPts 9 with HitPtsMax blank, where (CON + SIZ) / 10 gives 11: read as the full HP (stated),
    and said with the rule's 11 (the 9 may be what is left in play); it had gone without a word."""
    doc = read(tmp_path, dhole(CON="60", SIZ="55", HitPts="9", HitPtsMax=""))
    assert doc["HP"] == 9
    assert any("HP 9 with HitPtsMax blank, read as the full HP; the rule gives 11" in a for a in assumed(doc))


def test_a_module_actor_whose_stat_block_is_its_description_is_read_from_it(tmp_path):
    """A module's actor with no items and its stat block written as HTML in description.value (a field
    the CoC7 sheet has none for): its skills, its attacks table and its prose had all gone without a
    word. The skills and each row of the attacks table are read (said), an attack with no name is said
    unread, the prose is notes, and the characteristics' table is the actor's own fields."""
    html = ("<p><em>A grey hound of the moors, bigger than most.</em></p><hr/><h3>Characteristics</h3>"
            "<table><tr><td><strong>STR</strong><br/>80</td><td><strong>INT</strong><br/>—</td></tr></table>"
            "<h3>Attacks</h3><table><tr><th>Attack</th><th>Skill</th><th>Damage</th></tr>"
            "<tr><td>Savage bite</td><td>55%</td><td>1D8+DB</td></tr></table>"
            "<ul><li>Attack: 40 — 1D4</li></ul>"
            "<p><strong>Skills:</strong> Listen 60%, Track by Scent 75%, Language (Other: Latin) 20%</p>"
            "<p><strong>Habitat:</strong> open moorland</p>")
    plain = actor("creature", description={"keeper": "", "value": html})
    doc = read(tmp_path, plain)
    assert doc["skills"]["Listen"] == 60 and doc["skills"]["Track by Scent"] == 75
    assert doc["skills"]["Language (Latin)"] == 20
    assert [(m["name"], m["damage"]) for m in doc["melee"]] == [("Savage bite", "1D8+DB")]
    assert doc["skills"]["Savage bite"] == 55
    assert "A grey hound of the moors" in doc["notes"] and "Habitat: open moorland" in doc["notes"]
    assert "STR" not in doc["notes"]
    assert any("40 — 1D4" in t for t in unread(doc).values())
    assert any("description's skills are read" in a for a in assumed(doc))


def test_the_systems_own_language_id_makes_a_language_ones_own(tmp_path):
    """'Language (English)' with the CoC7 system's id of the own language (cocidFlag
    i.skill.language-own, base EDU) is the investigator's Own Language; it had been read as another
    language (6th edition: Other Language (English))."""
    own = skill("Language (English)", value=65)
    own["flags"] = {"CoC7": {"cocidFlag": {"id": "i.skill.language-own", "lang": "en"}}}
    other = skill("Language (Latin)", value=30)
    doc = read(tmp_path, actor(items=[own, other]))
    assert doc["skills"]["Own Language (English)"] == 65 and doc["skills"]["Language (Latin)"] == 30


def test_a_characteristic_of_0_beside_its_roll_formula_is_the_formulas_average(tmp_path):
    """The system's creature example: STR value 0 with formula '1d6' (never rolled): the formula's
    average, STR 3, said (it had become the average adult's STR 55, with a message that said there
    was no formula, and the creature's damage bonus of -2 with it)."""
    plain = actor("creature", chars={**CHARS, "str": 0})
    plain["system"]["characteristics"]["str"]["formula"] = "1d6"
    doc = read(tmp_path, plain)
    assert doc["STR"] == 3
    assert any("STR 3 (formula '1d6')" in a for a in assumed(doc))
    assert not any("STR" in a and "average 7th-edition adult" in a for a in assumed(doc))


def test_a_skill_named_as_its_speciality_is_that_skill_not_twice():
    """A creature's skill item 'Fighting' of speciality 'Fighting' is Fighting, not 'Fighting (Fighting)'."""
    from xsys.plugins.foundry_coc7.reader import _skill_name

    assert _skill_name({"name": "Fighting"}, {"specialization": "Fighting"}) == "Fighting"
    assert _skill_name({"name": "Bite"}, {"specialization": "Fighting", "skillName": "Bite"}) == "Fighting (Bite)"


def test_an_npcs_occupation_age_and_a_creatures_type_are_notes(tmp_path):
    """infos (an NPC's occupation and age, a creature's type) had gone without a word."""
    doc = read(tmp_path, actor(infos={"occupation": "Night watchman", "age": "52", "sex": ""}))
    assert "Occupation: Night watchman; Age: 52." in doc["notes"]
    beast = read(tmp_path, actor("creature", infos={"type": "Ghoul"}))
    assert "Type: Ghoul" in beast["notes"]


def test_a_weapons_far_range_bands_are_said(tmp_path):
    """A 2020 actor's shotgun with a distance for each band ('15ft', '25ft', '35ft') and damage by band: the
    damage bands are read, and the two far distances, which a coc7 line does not hold, are said (they had
    gone without a word)."""
    gun = weapon("Sawn-off", skill_name="Firearms (Rifle/Shotgun)", damage="4D6")
    gun["system"]["range"] = {"normal": {"value": "15ft", "units": "", "damage": "4D6"},
                              "long": {"value": "25ft", "units": "", "damage": "2D6"},
                              "extreme": {"value": "35ft", "units": "", "damage": "1D6"}}
    doc = read(tmp_path, actor(items=[skill("Firearms (Rifle/Shotgun)", value=40), gun]))
    assert doc["weapons"][0]["damage"] == "4D6/2D6/1D6"
    assert any("range bands long 25ft, extreme 35ft" in t for t in unread(doc).values())


def test_a_translated_actors_skills_are_read_by_their_coc_ids(tmp_path):
    """A 2026 pt-BR example NPC names its skills in Portuguese ('Lutar (Briga)', 'Armas de Fogo (Rifles/Escopetas)',
    'Esquivar') beside the system's CoC IDs: each is the skill its ID says, and the shotgun linked to the
    firearms item is a weapon line (it had been dropped as 'no coc firearm skill', and the brawl and dodge
    lost in every other system). A renamed English skill keeps its own name."""
    def with_id(item: dict[str, Any], cocid: str) -> dict[str, Any]:
        return {**item, "flags": {"CoC7": {"cocidFlag": {"id": cocid}}}}

    items = [with_id(skill("Lutar (Briga)", _id="br", value=45), "i.skill.fighting-brawl"),
             with_id(skill("Esquivar", _id="do", value=32), "i.skill.dodge"),
             with_id(skill("Armas de Fogo (Rifles/Escopetas)", _id="rs", value=35), "i.skill.firearms-rifle-shotgun"),
             with_id(skill("Fighting (Claws)", _id="cl", value=50), "i.skill.fighting-brawl"),
             weapon("Escopeta", skill_id="rs", damage="4D6", rng=10, units="yards")]
    doc = read(tmp_path, actor(items=items))
    assert doc["skills"]["Fighting (Brawl)"] == 45 and doc["skills"]["Dodge"] == 32
    assert doc["skills"]["Firearms (Rifle/Shotgun)"] == 35 and doc["skills"]["Fighting (Claws)"] == 50
    assert [(w["name"], w["skill"]) for w in doc["weapons"]] == [("Escopeta", "Firearms (Rifle/Shotgun)")]
    assert any("'Lutar (Briga)' read as Fighting (Brawl) (its CoC ID i.skill.fighting-brawl)" in a for a in assumed(doc))
    # an escopeta is a shotgun (Portuguese and Spanish; core.vocab.CLASS_WORDS): GURPS fires it with Guns (Shotgun)
    gurps = api.convert(api.from_plain(copy.deepcopy(doc), "capanga.json"), "gurps", fresh=True, trace=False).document
    assert [(w.name, w.skill) for w in gurps.weapons] == [("Escopeta", "Guns (Shotgun)")]


def test_a_french_actors_skills_are_read_by_their_names(tmp_path):
    """A 2021 French creature pack's actors have no CoC IDs: 'Combat rapproché' 90 (the claws' and bite's skill),
    'Esquive' under the speciality 'Combat rapproché', 'Trouver Objet Caché', 'Pister (odorat)' are Fighting,
    Dodge, Spot Hidden and Track (odorat); the Fighting 90 had been an unknown skill, and a GURPS sheet's
    Axe/Mace 7 the claws' skill."""
    claws = skill("Combat rapproché", _id="cr", value=90)
    claws["system"].update(skillName="", specialization="Combat rapproché")
    dodge = skill("Esquive", _id="es", value=26)
    dodge["system"].update(skillName="", specialization="Combat rapproché")
    items = [claws, dodge, skill("Trouver Objet Caché", value=60), skill("Pister (odorat)", value=90),
             weapon("Coup de patte", skill_id="cr", damage="3D6+DB", props={"melee": True, "addb": True})]
    doc = read(tmp_path, actor("creature", items=items))
    assert doc["skills"] == {"Fighting": 90, "Dodge": 26, "Spot Hidden": 60, "Track (odorat)": 90}
    assert doc["melee"][0]["skill"] == "Fighting"
    gurps = api.convert(api.from_plain(copy.deepcopy(doc), "hound.json"), "gurps", fresh=True, trace=False).document
    assert gurps.skills.get("Brawling", 0) >= 13 and "Axe/Mace" not in gurps.skills


def test_a_great_old_ones_hp_is_from_its_stated_size(tmp_path):
    """Cthulhu's sheet (CON 550, SIZ 1050, HP 160 computed by the sheet): read as written (SIZ had been read as
    999, the most a coc7 document held, and its HP kept apart from it)."""
    doc = read(tmp_path, actor("creature", chars={**CHARS, "con": 550, "siz": 1050},
                               attribs={"hp": {"value": 160, "max": 160, "auto": True}}))
    assert doc["SIZ"] == 1050 and doc["HP"] == 160


@pytest.mark.parametrize("mov, walking, other", [("6 / 20 (volant)", 6, "MOV 20 (volant)"),
                                                 ("8/8 (nageant)", 8, "MOV 8 (nageant)"),
                                                 ("16 (marchant) / 14 (nageant) / 12 (volant)", 16,
                                                  "MOV 14 (nageant) / 12 (volant)")])
def test_a_movement_with_its_modes_in_brackets_is_the_walking_one(tmp_path, mov, walking, other):
    """A French creature's MOV '6 / 20 (volant)' (flying) had been no MOV at all ('not a number')."""
    doc = read(tmp_path, actor("creature", attribs={"hp": {"value": 11, "max": 11}, "mov": {"value": mov}}))
    assert doc["MOV"] == walking and any(other in t for t in unread(doc).values())


def test_an_actor_in_german_or_spanish_is_read_by_the_translation_modules_names(tmp_path):
    """The Foundry CoC7 system's translation modules name the skills in their languages (foundry_names.toml, each
    name with its source): a German actor's 'Nahkampf (Handgemenge)', 'Ausweichen', 'Fernkampf (Faustfeuerwaffe)'
    and a Spanish one's 'Esquivar', 'Descubrir' are the skills they stand for; 'Überreden', which one German
    module gives Persuade and another Fast Talk, is neither, kept by its own name."""
    german = [skill("Nahkampf (Handgemenge)", value=45), skill("Ausweichen", value=30),
              skill("Fernkampf (Faustfeuerwaffe)", value=40), skill("Überreden", value=25)]
    doc = read(tmp_path, actor(items=german))
    assert doc["skills"] == {"Fighting (Brawl)": 45, "Dodge": 30, "Firearms (Handgun)": 40, "Überreden": 25}
    spanish = read(tmp_path, actor(items=[skill("Esquivar", value=35), skill("Descubrir", value=55)]))
    assert spanish["skills"] == {"Dodge": 35, "Spot Hidden": 55}


def test_every_foreign_skill_name_reads_as_a_skill_the_coc7_sheet_writes():
    """Each English name in foundry_names.toml is a 7th-edition skill xsys writes (a typo there would make a
    translated skill an unknown one)."""
    import tomllib
    from importlib import resources

    from xsys.plugins.coc.names import coc_skill

    data = tomllib.loads(resources.files("xsys.plugins.coc").joinpath("foundry_names.toml").read_text("utf-8"))
    seventh_only = {"Stealth", "Fighting", "Firearms", "Charm", "Intimidate", "Science", "Language (Own)"}
    for source in data["source"]:
        assert source["language"] and source["source"]
        for english in source["names"]:
            assert english in seventh_only or coc_skill(english), (source["language"], english)


def test_a_note_the_actor_holds_twice_is_said_once(tmp_path):
    """A module's actor with its keeper note ('Role: informant') said again in its description's last
    paragraph: the notes say it once, where it says the most (it had led the notes and come again)."""
    html = ("<p><em>A harbour clerk who sells rumours.</em></p>"
            "<p><strong>Role:</strong> informant | <strong>Occupation:</strong> clerk</p>")
    plain = actor("npc", description={"keeper": "<p><strong>Role:</strong> informant</p>", "value": html})
    notes = read(tmp_path, plain)["notes"]
    assert notes.count("Role: informant") == 1 and "Occupation: clerk" in notes
    assert notes.startswith("A harbour clerk")
