"""`xsys convert` and `xsys odds` end to end on the test system (the built-in systems
have their own suites that run the same commands on their fixtures)."""

import json
from pathlib import Path

import pytest
import yaml

from helpers import run_main
from xsys.conversions import api

HERE = Path(__file__).parent
SCOUT = HERE / "toy" / "fixtures" / "scout.yaml"
ALLEY = HERE / "toy" / "fixtures" / "scenarios" / "alley.yaml"


def _toy_system():
    from xsys.core.registry import default_registry

    return default_registry().system("toy")


@pytest.fixture(autouse=True)
def _toy(toy_registry):
    yield


def test_same_system_is_a_normalising_no_op(capsys):
    code, out, err = run_main(capsys, "convert", SCOUT, "--to", "toy")
    assert code == 0, err
    doc = yaml.safe_load(out)
    assert doc["AGI"] == 9 and doc["skills"] == {"Gun": 55, "Look": 40}
    assert doc["xsys"]["converted_from"] == "toy" and doc["xsys"]["losses"] == []


def test_to_neutral_and_back(tmp_path, capsys):
    out = tmp_path / "scout.neutral.json"
    code, _, err = run_main(capsys, "convert", SCOUT, "--to", "neutral", "-o", out, "--format", "json")
    assert code == 0, err
    neutral = json.loads(out.read_text())
    assert neutral["system"] == "neutral" and neutral["kind"] == "npc"
    # Gun 55: the toy's true score over the handgun battery (core.equating); Look 40: its roll
    toy = _toy_system()
    assert neutral["skills"]["handgun"] == pytest.approx(toy.competence("Gun", 55, {"@key": "handgun"}))
    assert neutral["skills"]["spot"] == pytest.approx(0.40)
    back = tmp_path / "back.yaml"
    code, _, err = run_main(capsys, "convert", out, "--to", "toy", "-o", back)
    assert code == 0, err
    assert yaml.safe_load(back.read_text())["skills"] == {"Gun": 55, "Look": 40}


def test_explain_carries_rule_ids_and_sources(capsys):
    code, out, _ = run_main(capsys, "convert", SCOUT, "--to", "neutral", "--explain")
    trace = yaml.safe_load(out)["xsys"]["trace"]
    assert any("$.AGI: AGI 9 -> dexterity percentile" in t and "[toy.agi; assumed]" in t for t in trace)
    comp = _toy_system().competence("Gun", 55, {"@key": "handgun"})
    assert any(t.startswith(f"$.skills.Gun: Gun 55 -> handgun competence {comp:.3f}") for t in trace)


def test_strict_fails_on_loss_and_writes_nothing(tmp_path, capsys):
    neutral = tmp_path / "n.yaml"
    neutral.write_text("system: neutral\nkind: npc\nname: Odd\nskills: {handgun: 0.1, rifle: 0.3, swim: 0.3}\n")
    out = tmp_path / "out.yaml"
    code, _, err = run_main(capsys, "convert", neutral, "--to", "toy", "--strict", "-o", out)
    assert code == 1 and not out.exists()
    assert "under --strict" in err
    code, _, err = run_main(capsys, "convert", neutral, "--to", "toy", "-o", out)
    assert code == 0 and out.exists()
    # the path in the source; one thing said of both skills is one printed line naming both paths
    assert "warning: $.skills.handgun, $.skills.rifle: Gun covers handgun, rifle" in err
    assert "$.skills.swim: Toy has no skill for swim" in err
    code, _, err = run_main(capsys, "convert", neutral, "--to", "toy", "-o", out, "--quiet")
    assert code == 0 and err == ""


def test_directory_with_a_bad_file(tmp_path, capsys):
    src = tmp_path / "in"
    (src / "sub").mkdir(parents=True)
    (src / "good.yaml").write_text(SCOUT.read_text())
    (src / "sub" / "also.json").write_text(json.dumps(yaml.safe_load(SCOUT.read_text())))
    (src / "bad.yaml").write_text("system: toy\nkind: npc\nname: x\nAGI: 99\n")
    dest = tmp_path / "out"
    (dest).mkdir()
    (dest / "bad.yaml").write_text("an earlier good output\n")
    code, _, err = run_main(capsys, "convert", src, "--to", "neutral", "--out-dir", dest)
    assert code == 2
    assert (dest / "good.yaml").exists() and (dest / "sub" / "also.json").exists()
    assert (dest / "bad.yaml").read_text() == "an earlier good output\n"  # never truncated by a failed run
    assert f"{src / 'bad.yaml'}: $.AGI:" in err
    assert "converted 2 of 3 file(s); 1 failed" in err
    assert not [p for p in dest.rglob("*.part")]


def test_markdown_sheet(capsys):
    code, out, _ = run_main(capsys, "convert", ALLEY, "--to", "toy", "--format", "md")
    assert code == 0
    assert out.startswith("# Alley — Toy (test edition)")
    assert "### Scout — Toy" in out and "**AGI** 9" in out and "| range | 30 m |" in out


def test_scenario_to_neutral_and_odds_json(capsys):
    code, out, err = run_main(capsys, "odds", ALLEY, "--json")
    assert code == 0, err
    data = json.loads(out)
    (res,) = data["results"]
    assert res["system"] == "toy"
    # skill 55, 30 m: toy.range -10 -> d100 <= 45
    assert res["exact"] == "9/20" and res["chance"] == pytest.approx(0.45)
    assert res["modifiers"] == [{"rule": "toy.range", "kind": "add", "value": -10, "source": "seed", "why": ""}]


def test_inline_odds(capsys):
    skill = _toy_system().competence("Gun", 60, {"@key": "handgun"})  # the competence of Gun 60
    code, out, err = run_main(capsys, "odds", "--distance", "30m", "--light", "0.5lx", "--exposure", "0.5",
                              "--skill", f"{skill:.9f}", "--weapon", "handgun")
    assert code == 0, err
    # 60 - 10 (range) - 15 (light) - 20 (cover) = 15
    assert "15.00%  (3/20)" in out and "[toy.light, assumed]" in out


@pytest.mark.parametrize("args,fragment", [
    (["convert", SCOUT, "--to", "nope"], "unknown system (expected one of toy, found 'nope')"),
    (["odds", "--distance", "25kg"], "--distance: wrong unit for a length"),
    (["odds", "--distance", "25m", "--light", "bright"], "--light: not an illuminance"),
    (["odds", "--distance", "25m", "--exposure", "2"], "--exposure: out of range"),
    (["odds", "--distance", "25m", "--barrier", "cheese:1m"], "unknown barrier material"),
    (["convert", "missing.yaml", "--to", "toy"], "missing.yaml: no such file"),
    (["convert", SCOUT, "--to", "toy", "--format", "docx"], "unknown output format"),
])
def test_bad_input_one_line_exit_2(capsys, args, fragment):
    code, out, err = run_main(capsys, *args)
    assert code == 2
    assert fragment in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_unwritable_output(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = run_main(capsys, "convert", SCOUT, "--to", "toy", "-o", blocker / "out.yaml")
    assert code == 2 and "cannot write output" in err


def test_python_api():
    conv = api.convert(SCOUT, "neutral")
    assert conv.document.skills["handgun"] == pytest.approx(_toy_system().competence("Gun", 55, {"@key": "handgun"}))
    shots, _ = api.shots_of(api.load(ALLEY))
    (name, shot), = shots
    (res,) = api.odds(shot)
    assert res.check.chance == api.odds(shot, ["toy"])[0].check.chance
