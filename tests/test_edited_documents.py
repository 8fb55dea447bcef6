"""A converted document edited by hand, converted back ("Edited documents"):
only what the edit changed is converted afresh, everything else comes back from the
remembered source, and a warning names the edited and the reconverted fields. ``--fresh``
still ignores the remembered source altogether."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from xsys.conversions import api
from xsys.core import codec
from xsys.core.registry import default_registry

ROOT = Path(__file__).resolve().parent.parent
XSYS = Path(sys.executable).with_name("xsys")
GANGSTER = ROOT / "fixtures" / "coc" / "npcs" / "gangster_tommy_gun.yaml"
SOURCE = yaml.safe_load(GANGSTER.read_text())
OTHERS = ["gurps", "nwod", "coc-zh", "pl-trudnosc"]
RULE = "xsys.origin.edited"


def _plain(doc):
    out = json.loads(codec.json_encode(doc))
    out.pop("xsys", None)
    return out


def _written(src, to):
    """What a user has on disk after `xsys convert src --to to -o file`."""
    return yaml.safe_load(api.dump(api.convert(src, to), "yaml"))


def _notes_field(doc, text):
    return next(k for k, v in doc.items() if v == text)


def _stats(doc):
    return {k: v for k, v in doc.items() if k not in ("notes", "weapons", "xsys")}


@pytest.mark.parametrize("to", OTHERS)
def test_an_edit_to_the_notes_keeps_every_skill_and_characteristic(to):
    there = _written(GANGSTER, to)
    there[_notes_field(there, SOURCE["notes"])] = "Met him at the docks; he owes us."
    back = api.convert(api.from_plain(there, "<edited>"), "coc")
    doc = _plain(back.document)
    # the worked example: Dodge 30 and Sneak 20 stay, Handgun stays 35, EDU stays 8
    assert doc["skills"] == SOURCE["skills"]
    assert doc["skills"]["Dodge"] == 30 and doc["skills"]["Sneak"] == 20 and doc["skills"]["Handgun"] == 35
    assert _stats(doc) == {k: v for k, v in _stats(SOURCE).items()}
    assert doc["EDU"] == 8
    assert doc["notes"] == "Met him at the docks; he owes us."
    assert [w["name"] for w in doc["weapons"]] == [w["name"] for w in SOURCE["weapons"]]
    (warning,) = [x for x in back.losses if x.rule == RULE]
    assert warning.level == "warning" and "$.notes" in warning.message and "reconverted $.notes;" in warning.message
    assert not back.strict_losses  # nothing was lost: the edit is taken, the rest restored


def test_an_edit_to_one_skill_reconverts_that_skill_only():
    there = _written(GANGSTER, "gurps")
    there["skills"]["Guns (Pistol)"] += 5
    edited = api.from_plain(there, "<edited>")
    back = api.convert(edited, "coc")
    fresh = api.convert(edited, "coc", fresh=True)
    doc = _plain(back.document)
    assert doc["skills"]["Handgun"] == fresh.document.skills["Handgun"] != SOURCE["skills"]["Handgun"]
    assert doc["skills"]["Handgun"] > SOURCE["skills"]["Handgun"]  # a better shot stays better
    assert {k: v for k, v in doc["skills"].items() if k != "Handgun"} == \
        {k: v for k, v in SOURCE["skills"].items() if k != "Handgun"}
    assert _stats({**doc, "skills": {}}) == _stats({**SOURCE, "skills": {}})
    (warning,) = [x for x in back.losses if x.rule == RULE]
    assert "$.skills.Guns (Pistol)" in warning.message and "reconverted $.skills.Handgun;" in warning.message
    assert warning.level == "warning"
    # --explain shows how the edited skill crossed: read from GURPS, written for CoC
    paths = [t.path for t in back.trace]
    assert paths[0] == "$" and RULE in back.trace[0].rules
    assert "$.skills.Guns (Pistol)" in paths and "$.skills.Handgun" in paths and "$.skills.SMG" not in paths


def test_an_edit_to_a_characteristic_reconverts_what_depends_on_it():
    there = _written(GANGSTER, "gurps")
    there["HT"] += 4  # HT reads back as CON (and HP follows it in GURPS)
    back = api.convert(api.from_plain(there, "<edited>"), "coc")
    doc = _plain(back.document)
    assert doc["CON"] > SOURCE["CON"]
    assert doc["skills"] == SOURCE["skills"] and doc["EDU"] == SOURCE["EDU"] and doc["POW"] == SOURCE["POW"]
    (warning,) = [x for x in back.losses if x.rule == RULE]
    assert "$.HT" in warning.message and "$.CON" in warning.message


def test_fresh_ignores_the_remembered_source_of_an_edited_document():
    there = _written(GANGSTER, "gurps")
    there["notes"] = "edited"
    edited = api.from_plain(there, "<edited>")
    fresh = api.convert(edited, "coc", fresh=True)
    stripped = api.convert(api.from_plain({k: v for k, v in there.items() if k != "xsys"}), "coc")
    assert _plain(fresh.document) == _plain(stripped.document)
    assert not any(x.rule == RULE for x in fresh.losses)
    assert not any(RULE in t.rules for t in fresh.trace)
    # the remembered Dodge 30 is not used: GURPS's own Dodge 5 comes back as 26 (gurps.dodge)
    assert there["Dodge"] == 5 and fresh.document.skills["Dodge"] == 26


def test_an_edit_travels_down_a_chain_of_conversions():
    gurps = _written(GANGSTER, "gurps")
    nwod = _written(api.from_plain(gurps, "<g>"), "nwod")
    nwod["notes"] = "two conversions later"
    back = api.convert(api.from_plain(nwod, "<edited>"), "coc")
    doc = _plain(back.document)
    assert doc["skills"] == SOURCE["skills"] and _stats(doc) == _stats(SOURCE)
    assert doc["notes"] == "two conversions later"
    first, second = [x for x in back.losses if x.rule == RULE]
    assert first.message.startswith("edited by hand since it was converted from gurps (changed: $.notes)")
    assert second.message.startswith("the edit carried into the remembered gurps document (changed: $.notes)")


def test_a_forged_source_with_an_edit_is_ignored():
    there = _written(GANGSTER, "gurps")
    there["notes"] = "edited"
    there["xsys"]["origin"]["document"]["skills"]["Handgun"] = 90  # not what gave this document
    back = api.convert(api.from_plain(there, "<forged>"), "coc")
    assert back.document.skills["Handgun"] != 90
    assert any(x.path == "$.xsys.origin" and "ignored" in x.message for x in back.losses)
    assert not any(x.rule == RULE for x in back.losses)


def test_cli_shows_the_warning_of_a_hand_edited_round_trip(tmp_path):
    g = tmp_path / "tommy.gurps.yaml"
    out = tmp_path / "tommy.coc.yaml"
    run = lambda *a: subprocess.run([str(XSYS), *map(str, a)], capture_output=True, text=True,  # noqa: E731
                                    env={**os.environ})
    assert run("convert", GANGSTER, "--to", "gurps", "-q", "-o", g).returncode == 0
    text = g.read_text().replace("Carries the Thompson in a violin case.", "Now carries it in a golf bag.", 1)  # not in xsys.origin
    g.write_text(text)
    r = run("convert", g, "--to", "coc", "--strict", "-o", out)
    assert r.returncode == 0, r.stderr
    assert "warning: $: edited by hand since it was converted from coc (changed: $.notes); reconverted $.notes;" \
        in r.stderr
    doc = yaml.safe_load(out.read_text())
    assert doc["skills"] == SOURCE["skills"] and doc["notes"].endswith("golf bag.")


def test_an_edited_shot_in_a_scenario_changes_that_shot_only():
    src = ROOT / "fixtures" / "coc" / "scenarios" / "speakeasy_raid.yaml"
    original = _plain(api.load(src).document)
    there = _written(src, "gurps")
    there["scenes"][0]["shots"][2]["distance"] = "40 m"
    back = api.convert(api.from_plain(there, "<edited>"), "coc")
    doc = _plain(back.document)
    assert doc["scenes"][0]["shots"][2]["distance"] == "40 m"
    doc["scenes"][0]["shots"][2]["distance"] = original["scenes"][0]["shots"][2]["distance"]
    assert doc == original
    (warning,) = [x for x in back.losses if x.rule == RULE]
    assert "$.scenes[0].shots[2].distance" in warning.message


def test_a_weapon_added_by_hand_is_converted_and_the_others_kept():
    there = _written(GANGSTER, "gurps")
    extra = {k: v for k, v in there["weapons"][1].items() if k != "catalog"}
    there["weapons"].append({**extra, "name": "Derringer"})
    back = api.convert(api.from_plain(there, "<edited>"), "coc")
    doc = _plain(back.document)
    # the two CoC weapon lines come back as they were (GURPS has no place for how they are carried)
    assert [w.get("carry") for w in doc["weapons"][:2]] == ["violin case", "shoulder holster"]
    assert [w["name"] for w in doc["weapons"]] == ["Thompson M1928", "Colt M1911A1", "Derringer"]
    assert doc["skills"] == SOURCE["skills"]
    (warning,) = [x for x in back.losses if x.rule == RULE]
    assert "reconverted $.weapons[2];" in warning.message


FIXTURES = sorted(p for p in (ROOT / "fixtures").rglob("*.yaml") if "plugins" not in p.parts
                  and p.parent.parent.name != "neutral")


@pytest.mark.parametrize("fixture", FIXTURES, ids=[f"{p.parent.parent.name}/{p.name}" for p in FIXTURES])
def test_renaming_a_converted_document_changes_nothing_else(fixture):
    loaded = api.load(fixture)
    original = _plain(loaded.document)
    name_field = "imię" if "imię" in original else "name"
    if name_field not in original:
        pytest.skip("no name")
    for to in default_registry().keys():
        if to == loaded.system:
            continue
        there = _written(loaded, to)
        their_name = next(k for k, v in there.items() if v == original[name_field] and k not in ("system", "kind"))
        there[their_name] = "Renamed by hand"
        back = api.convert(api.from_plain(there, "<edited>"), loaded.system)
        assert _plain(back.document) == {**original, name_field: "Renamed by hand"}, f"{loaded.system}->{to}->back"
        (warning,) = [x for x in back.losses if x.rule == RULE]
        assert f"reconverted $.{name_field};" in warning.message, warning.message


def test_an_edit_finer_than_the_sources_step_restores_the_source_and_says_why():
    cop = ROOT / "fixtures" / "gurps" / "npcs" / "policeman.yaml"
    there = _written(cop, "coc")
    edited = dict(there, skills=dict(there["skills"]))
    edited["skills"]["Handgun"] += 1  # still Guns (Pistol)-13
    back = api.convert(api.from_plain(edited, "<edited>"), "gurps")
    assert _plain(back.document) == _plain(api.load(cop).document)
    (warning,) = [x for x in back.losses if x.rule == RULE]
    assert "(changed: $.skills.Handgun); reconverted nothing: the edited document converts back to the same gurps" \
        in warning.message
