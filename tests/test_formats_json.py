"""Format plugins for the JSON where game masters keep NPCs: CCFOLIA clipboard
characters (import and export), Foundry VTT CoC7 actors (import and export, data models of
Foundry 9 and 10+), Dhole's House exports and Foundry VTT mta (Chronicles of Darkness) actors
(import). Each .json is claimed by its shape; JSON nobody claims keeps its old errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from xsys.conversions import api, documents
from xsys.core import codec
from xsys.core.errors import InputError, XsysError

ROOT = Path(__file__).resolve().parents[1]
FIX = ROOT / "fixtures"
XSYS = str(Path(sys.executable).parent / "xsys")
CCFOLIA = FIX / "ccfolia" / "sato-detective.json"
COC7_V11 = FIX / "foundry-coc7" / "harvey-walters-v11.json"
COC7_V9 = FIX / "foundry-coc7" / "cultist-v9.json"
DHOLE = FIX / "dholes-house" / "agnes-porter.json"
MTA = FIX / "foundry-mta" / "officer-reyes.json"


def report(loaded) -> dict:
    return (loaded.meta or {}).get("read", {})


# ---- claimed by shape --------------------------------------------------------------------

@pytest.mark.parametrize("path, fmt, system", [
    (CCFOLIA, "plugin:ccfolia", "coc"), (COC7_V11, "plugin:foundry-coc7", "coc7"),
    (COC7_V9, "plugin:foundry-coc7", "coc7"), (DHOLE, "plugin:dholes-house", "coc7"),
    (MTA, "plugin:foundry-mta", "nwod")])
def test_each_json_is_claimed_by_its_shape(path, fmt, system):
    plain, read_as = documents.read_with_format(path)
    assert read_as == fmt and plain["system"] == system and plain["kind"] == "npc"
    # and by name, whatever the file is called
    assert documents.read_with_format(path, fmt[len("plugin:"):])[0] == plain


def test_unknown_json_keeps_the_clear_error(tmp_path):
    odd = tmp_path / "odd.json"
    odd.write_text('{"kind": "character", "name": "no data block"}')
    with pytest.raises(InputError) as err:
        api.load(odd)
    assert "does not say its system" in err.value.line() and "$.system" in err.value.line()
    r = subprocess.run([XSYS, "convert", str(odd), "--to", "gurps"], capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr and "odd.json" in r.stderr


def test_an_xsys_json_document_is_never_claimed(tmp_path):
    doc = tmp_path / "npc.json"
    doc.write_text(json.dumps({"system": "coc", "kind": "npc", "name": "X", "STR": 10, "CON": 10, "SIZ": 10,
                               "DEX": 10, "APP": 10, "INT": 10, "POW": 10, "EDU": 10}))
    assert documents.read_with_format(doc)[1] == "json"


@pytest.mark.parametrize("fmt, text, where", [
    ("ccfolia", '{"kind": "character", "data": {"name": "A", "params": [{"label": "STR", "value": "lots"}]}}',
     "$.data.params[0].value"),
    # a value a reader cannot read is a loss line (tests/test_foundry_real.py); what is refused is
    # a document that is not one of the format's at all, named by what it lacks
    ("foundry-coc7", '{"name": "A", "system": {"characteristics": {"str": {"value": 50}}}}', "no type"),
    ("dholes-house", '{"Investigator": {"PersonalDetails": {"Name": "A"}, "Characteristics": "STR 55"}}',
     "$.Investigator.Characteristics"),
    ("foundry-mta", '{"name": "A", "system": {"attributes_physical": {"strength": {"value": "x"}}, '
     '"skills_physical": {}}}', "$.system.attributes_physical.strength.value"),
    ("foundry-coc7", '{"name": "A", "type": "npc"', None),
])
def test_bad_values_are_one_line_naming_file_path_expected_found(tmp_path, fmt, text, where):
    f = tmp_path / "bad.json"
    f.write_text(text)
    r = subprocess.run([XSYS, "convert", str(f), "--to", "coc", "--input-format", fmt], capture_output=True,
                       text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    line = r.stderr.strip().splitlines()[-1]
    assert "bad.json" in line
    if where:
        assert where in line and "expected" in line and "found" in line


# ---- CCFOLIA ------------------------------------------------------------------------------

def test_ccfolia_reads_params_commands_and_japanese_skill_names():
    loaded = api.load(CCFOLIA)
    d = loaded.document
    assert (d.STR, d.CON, d.POW, d.SIZ, d.EDU, d.HP) == (12, 11, 11, 13, 15, 12)  # params arrive as strings
    assert d.skills == {"Handgun": 60, "Dodge": 45, "Spot Hidden": 70, "Listen": 50, "Fist/Punch": 65}
    (w,) = d.weapons
    assert (w.name, w.skill, w.damage) == ("ニューナンブM60", "Handgun", "1d10")
    rep = report(loaded)
    paths = {u["path"] for u in rep["unread"]}
    # SAN 55 = POW x 5 and MP = POW are what coc derives: not reported; a dice choice is; the punch
    # is the document's melee attack
    assert paths == {"$.data.commands line 11"}
    (m,) = d.melee
    assert (m.name, m.skill, m.damage) == ("こぶし", "Fist/Punch", "1d3+1d4")


def test_a_converted_npc_pastes_into_ccfolia_with_its_check_commands():
    conv = api.convert(api.load(FIX / "gurps" / "npcs" / "policeman.yaml"), "coc", trace=False)
    out = json.loads(api.dump(conv, "ccfolia"))
    assert out["kind"] == "character" and set(out["data"]) >= {"name", "status", "params", "commands", "memo"}
    cmds = out["data"]["commands"].splitlines()
    assert "CCB<={SAN} 【正気度ロール】" in cmds
    assert any(c.startswith("CCB<=") and c.endswith(" 【拳銃】") for c in cmds)  # Handgun, by its Japanese name
    assert "1D10 【ダメージ：拳銃：Glock 17】" in cmds  # the weapon: its damage, skill and name
    assert "[xsys]" in out["data"]["memo"]  # what a CCFOLIA character has no place for is said
    assert [p["label"] for p in out["data"]["params"]] == ["STR", "CON", "POW", "DEX", "APP", "SIZ", "INT", "EDU"]
    assert all(isinstance(p["value"], str) for p in out["data"]["params"])


def test_ccfolia_import_export_import_keeps_every_number():
    first = api.load(CCFOLIA)
    conv = api.convert(first, "coc", trace=False)
    text = api.dump(conv, "ccfolia")
    second = api.from_plain(documents.parse_bytes(text, "plugin:ccfolia", "x"), "x")
    a, b = codec.to_builtins(first.document), codec.to_builtins(second.document)
    assert a == b
    # the writer's own memo line is not read back into the notes
    assert "[xsys]" not in (second.document.notes or "")


def test_ccfolia_refuses_what_is_not_a_coc_npc():
    conv = api.convert(api.load(CCFOLIA), "gurps", trace=False)
    with pytest.raises(XsysError) as err:
        api.dump(conv, "ccfolia")
    assert "Call of Cthulhu" in err.value.line() and "--to coc" in err.value.line()


# ---- Foundry VTT CoC7 --------------------------------------------------------------------

def test_foundry_coc7_reads_as_coc7_with_its_own_values():
    loaded = api.load(COC7_V11)
    assert loaded.system == "coc7"
    d = loaded.document
    assert (d.STR, d.INT, d.EDU, d.HP) == (50, 85, 90, 10)
    assert d.skills["Firearms (Handgun)"] == 30 and d.skills["Fighting (Brawl)"] == 35
    assert d.skills["Library Use"] == 80
    assert d.skills["Dodge"] == 27 and d.skills["Spot Hidden"] == 60  # value -1: base + adjustments
    (w,) = d.weapons
    assert (w.name, w.skill, w.damage, w.capacity) == (".38 Revolver", "Firearms (Handgun)", "1D10", 6)
    rep = report(loaded)
    assert not any("divided by 5" in a for a in rep["assumed"])
    assert rep["edition"].endswith("read into coc7 as written")
    assert "unread" not in rep  # the unarmed attack is the document's melee attack
    (m,) = d.melee
    assert (m.name, m.skill, m.damage) == ("Unarmed", "Fighting (Brawl)", "1D3+DB")
    assert d.Luck == 45 and d.SAN is None  # a 7e Luck is rolled: the NPC's own (SAN 70 = POW 70: derived)
    assert any("equipment not carried" in a and "Notebook" in a for a in rep["assumed"])
    conv = api.convert(loaded, "gurps", trace=False)
    assert conv.document.melee[-1].name == "Unarmed" and conv.document.melee[-1].skill == "Brawling"  # melee table


def test_foundry_9_actors_are_read_by_their_own_reader():
    from xsys.plugins.foundry_coc7.reader import READERS, data_model

    assert set(READERS) == {"v9", "v10", "coc7-8"}
    plain = json.loads(COC7_V9.read_text())
    assert data_model(plain) == "v9"
    d = api.load(COC7_V9).document
    (w,) = d.weapons
    assert (w.skill, w.damage, w.uses_per_round) == ("Firearms (Rifle/Shotgun)", "4D6/2D6", "2")  # by range band
    assert d.skills["Firearms (Rifle/Shotgun)"] == 50


def test_foundry_coc7_export_reads_back_as_the_same_npc():
    """A coc NPC exported to Foundry (x5) reads back as a 7th-edition actor (coc7) and, converted
    to coc by the editions' rule, is the same NPC."""
    for src in sorted((FIX / "coc" / "npcs").glob("*.yaml")):
        loaded = api.load(src)
        conv = api.convert(loaded, "coc", trace=False)
        actor = json.loads(api.dump(conv, "foundry-coc7"))
        assert actor["system"]["characteristics"]["str"]["value"] == loaded.document.STR * 5
        read = api.from_plain(documents.parse_bytes(json.dumps(actor).encode(), "plugin:foundry-coc7", "x"), "x")
        assert read.system == "coc7" and read.document.STR == loaded.document.STR * 5
        back = api.convert(read, "coc", trace=False)
        a = codec.to_builtins(codec.canonical(loaded.document))
        b = codec.to_builtins(codec.canonical(back.document))
        # a Foundry weapon has no place for these (and a malfunction the coc line left unstated is
        # empty in the actor: coc writes its class's number back)
        for w in a.get("weapons", []) + b.get("weapons", []):
            for k in ("length", "STR", "carry", "sights", "ammo", "muzzle_energy", "malfunction"):
                w.pop(k, None)
        a.pop("armor", None)
        b.pop("carried", None)  # the 7th-edition names the coc sheet did not write, kept for the way back
        # the actor's Luck is 7th edition's (rolled, 3D6 x 5): coc derives its own, POW x 5 (coc-ja.derived),
        # and carries the actor's
        if "Luck" in a:
            assert "Luck" not in b and a.pop("Luck") == actor["system"]["attribs"]["lck"]["value"]
        # 7th edition has one Stealth (and one Firearms (Rifle/Shotgun)): of two 6th-edition skills at
        # two levels the better is kept, and the reading says so
        said = " ".join((read.meta or {}).get("read", {}).get("assumed", []))
        for one, other in (("Hide", "Sneak"), ("Rifle", "Shotgun")):
            if one in a["skills"] and other in a["skills"] and a["skills"][one] != a["skills"][other]:
                assert f"{one} {a['skills'][one]}" in said and f"{other} {a['skills'][other]}" in said, said
                a["skills"][one] = a["skills"][other] = max(a["skills"][one], a["skills"][other])
        # 7th edition's one long-gun skill: with no long gun on the sheet, coc writes it as its first
        # (Rifle), whichever of the two the coc sheet had (core.skillplan)
        long_a = {k: a["skills"].pop(k) for k in ("Rifle", "Shotgun") if k in a["skills"]}
        long_b = {k: b["skills"].pop(k) for k in ("Rifle", "Shotgun") if k in b["skills"]}
        assert max(long_a.values(), default=None) == max(long_b.values(), default=None), (long_a, long_b)
        for one, other in (("Hide", "Sneak"), ("Sneak", "Hide")):  # 7th edition's Stealth is both: coc writes both
            if one in a["skills"] and other not in a["skills"] and b["skills"].get(other) == a["skills"][one]:
                del b["skills"][other]
        for weapon in ("Knife", "Club"):  # Fighting (Brawl) in 7th edition: the better of the two is kept,
            # and a knife or club line fought with it comes back as that weapon's skill at that level
            # (coc7.melee): the cargo hook's Club is the 7e Brawl 70, not the 6th-edition Club 55
            if weapon in a["skills"] and "Fist/Punch" in a["skills"] \
                    and a["skills"][weapon] != a["skills"]["Fist/Punch"]:
                assert f"Fist/Punch {a['skills']['Fist/Punch']} and {weapon} {a['skills'][weapon]}" in said, said
                a["skills"][weapon] = a["skills"]["Fist/Punch"] = max(a["skills"][weapon], a["skills"]["Fist/Punch"])
        assert a == b, src.name


# ---- Dhole's House -----------------------------------------------------------------------

def test_dholes_house_numbers_as_strings_and_single_items_as_objects():
    loaded = api.load(DHOLE)
    d = loaded.document
    assert (d.STR, d.DEX, d.EDU, d.HP) == (55, 70, 70, 11)  # a 7th-edition investigator: coc7, as written
    assert d.skills["Firearms (Handgun)"] == 55 and d.skills["Fighting (Brawl)"] == 50
    (w,) = d.weapons  # "weapon": {...}, one weapon written as the object itself
    assert (w.name, w.skill, w.capacity, w.malfunction) == (".38 Automatic", "Firearms (Handgun)", 8, 99)
    rep = report(loaded)
    assert "unread" not in rep
    assert d.Luck == 60 and d.SAN is None  # Luck is rolled in 7e: the investigator's own; SAN 55 = POW


def test_dholes_house_is_import_only():
    from xsys.conversions.documents import output_format

    with pytest.raises(InputError) as err:
        output_format("dholes-house")
    assert "read only" in err.value.line()


# ---- Foundry VTT mta (Chronicles of Darkness 2e) -----------------------------------------

def test_foundry_mta_reads_as_nwod_and_reports_what_the_second_edition_does_differently():
    loaded = api.load(MTA)
    d = loaded.document
    assert (d.Dexterity, d.Composure, d.Health, d.Willpower) == (3, 3, 7, 5)
    assert d.skills["Firearms"] == 3 and d.specialties["Firearms"] == ["Pistol"]
    (w,) = d.weapons
    assert (w.name, w.damage, w.clip) == ("Glock 17", 2, 17)
    assert "Glock 17 [catalog: glock-17] (Damage 2, Ranges 20/40/80 yd" in api.dump(api.convert(loaded, "nwod"), "text") \
        .decode() or "Glock 17 (Damage 2, Ranges 20/40/80 yd" in api.dump(api.convert(loaded, "nwod"), "text").decode()
    rep = report(loaded)
    assert any("Defense" in a and "Athletics" in a for a in rep["assumed"])
    assert any("damage" in a and "successes" in a for a in rep["assumed"])
    assert {u["path"] for u in rep["unread"]} == {"$.items[3]", "$.system.beats"}


@pytest.mark.parametrize("path", [CCFOLIA, COC7_V11, DHOLE, MTA], ids=lambda p: p.parent.name)
@pytest.mark.parametrize("target", ["coc", "gurps", "nwod", "pl-trudnosc"])
def test_every_format_converts_to_every_system(path, target):
    conv = api.convert(api.load(path), target, trace=False)
    assert codec.to_builtins(conv.document)
    assert api.dump(conv, "yaml")


def test_a_claimed_json_converts_to_an_xsys_json_document_by_default():
    """Without --format, a Foundry actor or CCFOLIA character converted to another system comes
    out as the xsys JSON document (those formats hold one system's NPC), not an error."""
    for src, to in ((CCFOLIA, "gurps"), (COC7_V11, "nwod"), (MTA, "gurps"), (DHOLE, "coc")):
        r = subprocess.run([XSYS, "convert", str(src), "--to", to, "-q"], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        out = json.loads(r.stdout)
        assert out["system"] == to and out["kind"] == "npc"
    assert documents.default_output_format("plugin:text") == "text"


# ---- xsys skills --------------------------------------------------------------------------

def test_skills_lists_names_what_they_cover_and_their_aliases():
    r = subprocess.run([XSYS, "skills", "coc", "--json"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    table = {row["skill"]: row for row in json.loads(r.stdout)["skills"]}
    assert table["Handgun"]["covers"] == ["handgun"]
    assert "firearms (handgun)" in table["Handgun"]["aliases"] and "拳銃" in table["Handgun"]["aliases"]
    assert "fighting (brawl)" in table["Fist/Punch"]["aliases"]
    r = subprocess.run([XSYS, "skills", "gurps"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.startswith("Guns (Pistol)")
    r = subprocess.run([XSYS, "skills", "no-such-system"], capture_output=True, text=True)
    assert r.returncode == 2 and "unknown system" in r.stderr and "Traceback" not in r.stderr


# ---- hostile input: one clear error, never a traceback ------------------------------------

def _leaves(obj, path=()):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _leaves(v, path + (i,))
    yield path


def _replace(obj, path, value):
    if not path:
        return value
    obj = json.loads(json.dumps(obj))
    cur = obj
    for p in path[:-1]:
        cur = cur[p]
    cur[path[-1]] = value
    return obj


ODD_VALUES = [None, "", "x", -1, 10**9, 1.5, True, [], {}, [1, "a"], {"value": "x"}, "12"]


@pytest.mark.parametrize("src, fmt", [(CCFOLIA, "ccfolia"), (COC7_V11, "foundry-coc7"), (COC7_V9, "foundry-coc7"),
                                      (DHOLE, "dholes-house"), (MTA, "foundry-mta")], ids=lambda x: str(x)[-24:])
def test_every_field_replaced_by_an_odd_value_is_read_or_refused_clearly(src, fmt):
    """Each field of each fixture, replaced by each odd value: the document is read (and decodes
    into a valid document or a clear error), or refused with an XsysError; nothing else escapes."""
    from xsys.core.registry import default_registry

    load = default_registry().format_named(fmt).load
    base = json.loads(src.read_text(encoding="utf-8"))
    for path in _leaves(base):
        for value in ODD_VALUES:
            data = json.dumps(_replace(base, path, value), ensure_ascii=False).encode()
            try:
                doc = load(data)
                api.from_plain(doc, "x")
            except XsysError as exc:
                from xsys.core.errors import PluginError

                assert not isinstance(exc, PluginError), (path, value, exc.line())  # a crash inside the reader
                assert exc.line(), (path, value)


def test_an_unknown_dholes_house_version_is_read_by_the_newest_reader_and_said():
    plain = json.loads(DHOLE.read_text())
    plain["Investigator"]["Header"]["Version"] = "9.9"
    doc = documents.parse_bytes(json.dumps(plain).encode(), "plugin:dholes-house", "x")
    assert doc["name"] == "Agnes Porter"
    first = doc["xsys"]["read"]["assumed"][0]
    assert first.startswith("$.Investigator.Header.Version") and "'9.9'" in first
    conv = api.convert(api.from_plain(doc, "x"), "coc", trace=False)
    assert any(x.path == "dholes-house $.Investigator.Header.Version" for x in conv.losses)


@pytest.mark.parametrize("src", [COC7_V11, COC7_V9], ids=lambda p: p.name)
def test_foundry_import_export_import_loses_only_what_the_report_names(src):
    first = api.load(src)  # a 7th-edition actor: coc7, written back natively
    actor = api.dump(api.convert(first, "coc7", trace=False), "foundry-coc7")
    second = api.from_plain(documents.parse_bytes(actor, "plugin:foundry-coc7", "x"), "x")
    assert codec.to_builtins(codec.canonical(second.document)) == codec.to_builtins(codec.canonical(first.document))
    # what the second reading reports is what the export had no place for: nothing unread
    assert "unread" not in (second.meta or {}).get("read", {})


def test_foundry_coc7_wounds_are_said_not_silently_dropped(tmp_path):
    """An actor saved mid-session (HP 4 of 10): the stat block holds the NPC unhurt (HP 10), and
    the report names the wounds at their path, so nothing is lost in silence."""
    plain = json.loads(COC7_V11.read_text())
    plain["system"]["attribs"]["hp"]["value"] = 4
    f = tmp_path / "wounded.json"
    f.write_text(json.dumps(plain))
    loaded = api.load(f)
    assert loaded.document.HP == 10
    rep = report(loaded)
    assert any(u["path"] == "$.system.attribs.hp.value" and "HP 4 of 10" in u["text"] for u in rep["unread"]), rep
    assert "unread" not in report(api.load(COC7_V11))  # unhurt: nothing to say


def test_ccfolia_gauges_used_up_in_play_are_said(tmp_path):
    """A CCFOLIA character copied mid-session (HP 5 of 12, MP 9 of 11): the stat block takes the
    full gauges, and the report names what was used up, at its path."""
    plain = json.loads(CCFOLIA.read_text())
    plain["data"]["status"][0]["value"] = 5
    plain["data"]["status"][1]["value"] = 9
    f = tmp_path / "hurt.json"
    f.write_text(json.dumps(plain, ensure_ascii=False))
    loaded = api.load(f)
    assert loaded.document.HP == 12
    said = {u["path"]: u["text"] for u in report(loaded).get("unread", [])}
    assert said.get("$.data.status[0].value", "").startswith("HP 5 of 12"), said
    assert said.get("$.data.status[1].value", "").startswith("MP 9 of 11"), said
    assert not any(p.startswith("$.data.status") for p in
                   {u["path"] for u in report(api.load(CCFOLIA)).get("unread", [])})


def test_foundry_mta_damage_and_spent_willpower_are_said(tmp_path):
    """Officer Reyes saved after a fight (two lethal boxes filled, Willpower 3 of 5): the stat
    block holds him unhurt (Health 7, Willpower 5), and the report names the damage and the
    spent Willpower at their paths."""
    plain = json.loads(MTA.read_text())
    plain["system"]["health"].update({"lethal": 5, "value": 5})
    plain["system"]["willpower"]["value"] = 3
    f = tmp_path / "hurt.json"
    f.write_text(json.dumps(plain))
    loaded = api.load(f)
    said = {u["path"]: u["text"] for u in report(loaded).get("unread", [])}
    assert "lethal track at 5 of 7" in said.get("$.system.health", ""), said
    assert said.get("$.system.willpower.value", "").startswith("Willpower 3 of 5"), said
    assert not any(p in ("$.system.health", "$.system.willpower.value")
                   for p in {u["path"] for u in report(api.load(MTA)).get("unread", [])})


def test_dholes_house_hit_and_magic_points_used_up_are_said(tmp_path):
    """Dhole's House keeps current and maximum HitPts and MagicPts: the stat block takes the
    maximum (the NPC's own), and a current value below it is named in the report."""
    plain = json.loads(DHOLE.read_text())
    ch = plain["Investigator"]["Characteristics"]
    full_hp, full_mp = ch["HitPtsMax"], ch["MagicPtsMax"]
    ch["HitPts"], ch["MagicPts"] = "3", "2"
    f = tmp_path / "hurt.json"
    f.write_text(json.dumps(plain))
    loaded = api.load(f)
    assert str(loaded.document.HP) == full_hp
    said = {u["path"]: u["text"] for u in report(loaded).get("unread", [])}
    assert said.get("$.Investigator.Characteristics.HitPts", "").startswith(f"HitPts 3 of {full_hp}"), said
    assert said.get("$.Investigator.Characteristics.MagicPts", "").startswith(f"MagicPts 2 of {full_mp}"), said
    assert loaded.document.MP in (None, int(full_mp))  # never the 2 left after play
