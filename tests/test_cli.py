"""The command line through typer's CliRunner, and once as a real subprocess."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers import run_main
from xsys.conversions.cli import app

HERE = Path(__file__).parent
runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args), catch_exceptions=False, env={"TERMINAL_WIDTH": "200"})


@pytest.fixture(autouse=True)
def _toy(toy_registry):
    yield


def test_version_and_help():
    r = run("--version")
    assert r.exit_code == 0 and r.stdout.strip() == "xsys 0.1.0"
    r = run("--help")
    assert r.exit_code == 0 and "systems" in r.stdout and "validate" in r.stdout and "schema" in r.stdout


def test_systems_table_and_json():
    r = run("systems")
    assert r.exit_code == 0 and r.stdout.startswith("toy") and "test edition" in r.stdout
    r = run("systems", "--json")
    data = json.loads(r.stdout)
    assert data["systems"][0]["key"] == "toy" and data["broken"] == []


def test_schema_from_msgspec():
    r = run("schema", "npc")
    s = json.loads(r.stdout)
    assert "$defs" in s and "NeutralNpcDocument" in json.dumps(s)
    r = run("schema", "npc", "--system", "toy")
    s = json.loads(r.stdout)
    props = s["$defs"]["ToyNpcDocument"]["properties"]
    assert {"system", "kind", "AGI", "skills"} <= set(props)
    r = run("schema")
    assert set(json.loads(r.stdout)) == {"npc", "roster", "scenario", "shot"}


def test_validate_reports_every_file(tmp_path, capsys):
    good = HERE / "toy" / "fixtures" / "scout.yaml"
    bad_unit = tmp_path / "bad_unit.yaml"
    bad_unit.write_text("system: toy\nkind: shot\nskill: 50\nrange: 25 kg\n")
    unknown = tmp_path / "unknown.json"
    unknown.write_text('{"system": "toy", "kind": "npc", "name": "x", "AGGI": 3}')
    broken = tmp_path / "broken.yaml"
    broken.write_text("system: toy\nkind: [npc\n")
    code, out, err = run_main(capsys, "validate", str(good), str(bad_unit), str(unknown), str(broken))
    assert code == 2
    assert f"ok: {good}" in out
    lines = err.strip().splitlines()
    assert lines[0] == f"{bad_unit}: $.range: wrong unit for a length (expected a length (e.g. '25 m'), found '25 kg')"
    # the fields the place has, and the nearest one to the misspelt name
    assert lines[1] == (f"{unknown}: $.AGGI: unknown field (did you mean 'AGI'?) (expected one of name, AGI, skills, "
                        "carried, system, kind, found 'AGGI')")
    assert lines[2].startswith(f"{broken}: malformed YAML")
    assert lines[3] == "3 file(s) invalid"
    assert "Traceback" not in err


@pytest.mark.parametrize("content,fragment", [
    ("system: nope\nkind: npc\nname: x\n", "$.system: unknown system (expected one of toy, found 'nope')"),
    ("system: toy\nkind: npc\nname: x\nAGI: 40\n", "$.AGI: out of range (expected a whole number from 2 to 12, found 40)"),
    ("system: toy\nkind: beast\n", "$.kind: unknown document kind"),
    ("- just\n- a list\n", "$: a document must be a mapping"),
    ("kind: npc\nname: x\n", "$.system: the document does not say its system"),
    ("system: toy\nkind: npc\nname: x\nname: y\n", "duplicate key"),
])
def test_bad_documents_one_line_exit_2(tmp_path, capsys, content, fragment):
    f = tmp_path / "doc.yaml"
    f.write_text(content)
    code, out, err = run_main(capsys, "validate", str(f))
    assert code == 2
    assert fragment in err.splitlines()[0] and str(f) in err.splitlines()[0]
    assert "Traceback" not in err


def test_missing_file_and_bad_extension(tmp_path, capsys):
    code, _, err = run_main(capsys, "validate", str(tmp_path / "nothere.yaml"))
    assert code == 2 and "nothere.yaml: no such file" in err
    odd = tmp_path / "doc.txt"
    odd.write_text("x")
    code, _, err = run_main(capsys, "validate", str(odd))
    assert code == 2 and "cannot tell the format" in err


def test_catalog_command():
    r = run("catalog", "material")
    assert r.exit_code == 0 and "concrete" in r.stdout
    data = json.loads(run("catalog", "weapon", "--json").stdout)
    assert any(w["id"] == "glock-17" for w in data)


def test_real_subprocess(tmp_path):
    """The installed console script, as a user runs it: errors are one line, exit 2."""
    env = {**os.environ, "XSYS_PLUGINS": "catalog"}
    exe = Path(sys.executable).with_name("xsys")
    r = subprocess.run([str(exe), "--version"], capture_output=True, text=True, env=env)
    assert r.returncode == 0 and r.stdout.strip() == "xsys 0.1.0"
    f = tmp_path / "x.yaml"
    f.write_text("system: gurps\nkind: npc\nname: x\n")
    r = subprocess.run([str(exe), "validate", str(f)], capture_output=True, text=True, env=env)
    assert r.returncode == 2
    assert r.stderr.splitlines()[0].startswith(f"{f}: $.system: unknown system")
    assert "Traceback" not in r.stderr


def test_an_unknown_field_names_the_fields_of_its_place(tmp_path, capsys):
    """A misspelt field inside a list item says that item's fields, not the document's."""
    doc = tmp_path / "typo.yaml"
    doc.write_text("system: neutral\nkind: shot\nname: x\ndistance: 10 m\n"
                   "weapon: {name: pistol, weapon_class: handgun, muzzle_energy: 500 J, calibar: 9mm}\n")
    code, _, err = run_main(capsys, "validate", str(doc))
    assert code == 2
    line = err.strip().splitlines()[0]
    assert line.startswith(f"{doc}: $.weapon.calibar: unknown field (did you mean 'calibre'?) (expected one of ")
    assert "muzzle_energy" in line and "found 'calibar')" in line
