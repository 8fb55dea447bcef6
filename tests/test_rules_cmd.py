"""``xsys rules`` ("Every seed rule answerable from the command line"): every rule
ID of every digest is listed with title, source and table, and the rules that are formulas
are evaluated from the command line with their parameters as options."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from tests.helpers import run_main
from xsys.conversions import rules_cmd
from xsys.core.registry import default_registry

ROOT = Path(__file__).resolve().parent.parent
DIGESTS = ROOT.parent / "shared" / "rules"
XSYS = shutil.which("xsys", path=str(Path(sys.executable).parent)) or shutil.which("xsys")
ENV = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "200"}
ENV.pop("XSYS_CATALOG", None)

# digest file -> (system key, the rule-ID pattern of that digest)
DIGEST_SYSTEMS = {
    "coc-ja-firearms.md": ("coc", r"coc-ja\.[a-z0-9.-]+"),
    "coc-zh-combat.md": ("coc-zh", r"coc-zh\.[a-z0-9.-]+"),
    "gurps-3e-tables.md": ("gurps", r"gurps\.[a-z0-9_.-]+"),
    "nwod-cover.md": ("nwod", r"nwod\.[a-z0-9_.-]+"),
    "polish-firefight.md": ("pl-trudnosc", r"pl\.[a-z0-9_.-]+"),
}

# a rule each digest defines in a heading
HEADED_EXAMPLE = {"coc-ja-firearms.md": "coc-ja.autofire.hits", "coc-zh-combat.md": "coc-zh.armor.reduction",
                  "gurps-3e-tables.md": "gurps.crit.basic", "nwod-cover.md": "nwod.barrier.penetration",
                  "polish-firefight.md": "pl.shoot"}


def digest_ids(name: str) -> tuple[set[str], set[str]]:
    """(every rule ID the digest mentions in backticks, the IDs its headings define)."""
    _, pattern = DIGEST_SYSTEMS[name]
    text = (DIGESTS / name).read_text(encoding="utf-8")
    every = {m.rstrip(".") for m in re.findall(rf"`({pattern})`", text)}
    headed = {m.rstrip(".") for m in re.findall(rf"^##.*?`({pattern})`", text, flags=re.M)}
    return every, headed


def rules_json(capsys, *args) -> dict:
    code, out, err = run_main(capsys, "rules", *args, "--json")
    assert code == 0, err
    return json.loads(out)


def ev(system: str, rule: str, *args: str) -> dict:
    return rules_cmd.evaluate(system, rule, [str(a) for a in args])["result"]


def error_line(capsys, *args) -> str:
    code, out, err = run_main(capsys, "rules", *args)
    assert code == 2, (code, out, err)
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


# ---- listing: every rule ID of every digest ---------------------------------------------------

@pytest.mark.parametrize("digest", sorted(DIGEST_SYSTEMS))
def test_every_digest_rule_id_is_listed(capsys, digest):
    if not (DIGESTS / digest).exists():
        pytest.skip(f"the shared rule digests are not beside this checkout ({DIGESTS / digest} absent)")
    system, _ = DIGEST_SYSTEMS[digest]
    every, headed = digest_ids(digest)
    assert HEADED_EXAMPLE[digest] in headed  # the headings are read
    data = rules_json(capsys, system)
    assert data["system"] == system
    listed = {r["id"]: r for r in data["rules"]}
    assert every - set(listed) == set()
    for rid in headed:  # each rule a heading defines carries what the plugins know of it
        r = listed[rid]
        assert r["title"], rid
        assert set(r["source"].split("/")) <= {"seed", "assumed"} and r["source"], rid


def test_listing_without_arguments_covers_every_installed_system(capsys):
    data = rules_json(capsys)
    keys = [s["system"] for s in data["systems"]]
    assert keys == default_registry().keys()
    assert {"coc", "coc-zh", "gurps", "nwod", "pl-trudnosc"} <= set(keys)
    reg = default_registry()
    for s in data["systems"]:
        listed = {r["id"] for r in s["rules"]}
        assert reg.system(s["system"]).rule_ids() <= listed, s["system"]
        for r in s["rules"]:
            assert set(r) == {"id", "title", "source", "tables", "formula"}


def test_listing_names_the_table_of_a_rule(capsys):
    coc = {r["id"]: r for r in rules_json(capsys, "coc")["rules"]}
    assert "ladder conceal.size" in coc["coc-ja.conceal.size"]["tables"]
    assert coc["coc-ja.conceal.size"]["source"] == "seed"
    assert coc["coc-ja.resistance"]["source"] == "assumed"
    assert coc["coc-ja.conceal"]["formula"].startswith("coc-ja.conceal --length LENGTH")
    gurps = {r["id"]: r for r in rules_json(capsys, "gurps")["rules"]}
    assert gurps["gurps.crit.basic"]["title"] == "Basic critical hit table"
    assert gurps["gurps.crit.basic"]["tables"] == ['rules.toml [table."gurps.crit.basic"]']


def test_one_rule_shows_description_source_and_rows(capsys):
    d = rules_json(capsys, "coc", "coc-ja.conceal.size")
    assert d["source"] == "seed" and d["description"]
    assert [r["native"] for r in d["rows"]] == [3, 2, 1, 0.5, 0]
    assert d["formula"]["parameters"][0]["name"] == "length"
    g = rules_json(capsys, "gurps", "gurps.fright")
    assert g["source"] == "seed" and len(g["rows"]) > 5
    code, out, _ = run_main(capsys, "rules", "nwod", "nwod.barrier.penetration")
    assert code == 0 and "S > D" in out and "evaluate: xsys rules nwod nwod.barrier.penetration" in out


# ---- evaluation -------------------------------------------------------------------------------

def test_coc_conceal():
    from xsys.plugins.coc import rules

    assert ev("coc", "coc-ja.conceal", "--length", "21cm") == {"size_multiplier": 2}
    out = ev("coc", "coc-ja.conceal", "--length=110 cm", "--conceal", "60", "--clothing", "winter long coat",
             "--spot-hidden", "50")
    assert out["size_multiplier"] == Fraction(1, 2)
    assert out["modified_conceal"] == rules.conceal_value(60, 1.1, "winter long coat") == 60
    assert out["detection_chance"] == rules.detection_chance(50, 60)
    assert ev("coc", "coc-ja.conceal.size", "--length", "7 in") == {"size_multiplier": 3}


def test_coc_resistance_encumbrance_suppression():
    assert ev("coc", "coc-ja.resistance", "--active", "12", "--passive", "10") == {"chance": Fraction(3, 5)}
    assert ev("coc-zh", "coc-zh.resistance", "--active", "5", "--passive", "20") == {"chance": 0}
    enc = ev("coc", "coc-ja.encumbrance", "--str", "11", "--siz", "13", "--load", "30kg")
    assert (enc["state"], enc["active_skills"]) == ("light", -5)  # L = 17.5: light from 26.25 kg
    from xsys.plugins.coc import rules

    assert ev("coc", "coc-ja.autofire.suppression", "--rounds", "10", "--pow", "12") == {
        "chance": rules.suppression_chance(10, 12)}


def test_coc_zh_barrier_and_armor_values():
    from xsys.core.catalog import strip_entry
    from xsys.core.model import Barrier
    from xsys.core.registry import catalog
    from xsys.core.units import Length
    from xsys.plugins.coc_zh import CocZhSystem

    zh = CocZhSystem()
    out = ev("coc-zh", "coc-zh.armor.table", "--material", "concrete", "--thickness", "15cm")
    A, B, step, table = zh.barrier_value(Barrier(material="concrete", thickness=Length(0.15)))
    assert out["barrier"]["A"] == A and out["barrier"]["table"] == table and out["barrier"]["source"] == step.source
    worn = ev("coc-zh", "coc-zh.armor.table", "--armor", "heavy-kevlar-vest")["armor"]
    assert worn["A"] == zh.armor_value(strip_entry(catalog().armor["heavy-kevlar-vest"]))[0] == 8
    ko = ev("coc-zh", "coc-zh.knockout", "--damage", "1d6", "--hp", "12")
    from xsys.plugins.coc_zh import rules

    assert ko == rules.knockout_outcome("1d6", 12)


def test_nwod_barrier_penetration_door_example():
    # nwod.barrier.example: 5 successes against Durability 1 leave 4 dice, armor 2 cuts them to 2;
    # the door (Structure 6) drops to 2
    out = ev("nwod", "nwod.barrier.penetration", "--successes", "5", "--durability", "1", "--armor", "2",
             "--structure", "6")
    assert (out["penetrates"], out["excess"], out["damage_pool"], out["structure_left"]) == (True, 4, 2, 2)
    from xsys.plugins.nwod import system as nw

    odds = ev("nwod", "nwod.barrier.penetration", "--pool", "6", "--durability", "1")
    assert odds["hit_chance"] == nw.barrier_hit(nw.successes(6), 1, 0)


def test_pl_suppression():
    from xsys.plugins.pl_trudnosc import system as pl

    sysobj = default_registry().system("pl-trudnosc")
    out = ev("pl-trudnosc", "pl.suppress", "--odwaga", "3", "--rounds", "5,2")
    assert out["trudnosc"] == 22
    assert out["chance"] == pl.suppression(sysobj.mechanic, 3, 5, 2).chance
    for mech in sorted(pl.MECHANICS):
        o = ev("pl-trudnosc", "pl.suppress", "--odwaga", "4", "--rounds", "3", "--mechanic", mech)
        assert o["chance"] == pl.suppression(pl.MECHANICS[mech], 4, 3).chance
    assert ev("pl-trudnosc", "pl.difficulty.range", "--distance", "17m") == {"modifier": 4}


def test_gurps_lookup_tables():
    assert ev("gurps", "gurps.crit.basic", "--roll", "10")["row"]["effect"] == "Normal damage"
    from xsys.plugins.gurps import system as gs

    assert ev("gurps", "gurps.fright", "--roll", "10", "--margin", "3")["row"] == gs.lookup("gurps.fright", 13)
    assert ev("gurps", "gurps.hit-location", "--key", "eye")["row"]["modifier"] == -9
    assert ev("gurps", "gurps.resolution", "--skill", "10") == {"chance": Fraction(1, 2)}


def test_more_formulas():
    # gurps.ssr: 30 m is the 30 m row (-7); a 1.8 m target is size 0 (2 m row, rounded up)
    assert ev("gurps", "gurps.ssr", "--distance", "30m", "--size", "1.8m") == {"speed_range": -7, "row_m": 30,
                                                                               "size": 0}
    brick = ev("nwod", "nwod.barrier.size", "--material", "brick", "--thickness", "23cm")
    assert brick["structure"] == brick["durability"] + brick["size"] and brick["durability"] >= 1
    from xsys.plugins.pl_trudnosc import system as pl

    m = pl.MECHANICS["sum-d6"]
    out = ev("pl-trudnosc", "pl.resolution", "--trait", "3", "--skill", "2", "--trudnosc", "15", "--mechanic", "sum-d6")
    assert out["chance"] == pl.pass_chance(m.successes(3, 2, 0, 15))
    assert ev("coc", "coc-ja.quickdraw.ready", "--str", "8", "--required-str", "10") == {"ready": False}
    assert ev("coc", "coc-ja.quickdraw.ready", "--str", "12", "--single-action", "--cocked") == {"ready": True}


def test_an_alias_reports_the_rule_asked_for(capsys):
    line = error_line(capsys, "nwod", "nwod.barrier.size", "--material", "cheese", "--thickness", "2cm")
    assert line.startswith("xsys: error: rules nwod.barrier.size: --material: ")


def test_every_formula_names_a_rule_of_its_systems():
    reg = default_registry()
    for rule, formulas in rules_cmd.FORMULAS.items():
        for f in formulas:
            for key in f.systems:
                ids = reg.system(key).rule_ids()
                assert rule in ids or set(rules_cmd.COVERS.get(rule, ())) <= ids, (key, rule)


# ---- errors: one line, exit 2 -------------------------------------------------------------------

def test_errors_are_one_line(capsys):
    assert error_line(capsys, "coc", "coc-ja.conceal", "--length", "heavy") == (
        "xsys: error: rules coc-ja.conceal: --length: expected a length (e.g. '21 cm'), found 'heavy'")
    assert error_line(capsys, "coc", "coc-ja.conceal", "--length", "2 kg").startswith(
        "xsys: error: rules coc-ja.conceal: --length: expected a length")
    assert "--bogus: unknown parameter" in error_line(capsys, "coc", "coc-ja.conceal", "--length", "2m", "--bogus", "1")
    assert "--length: missing" in error_line(capsys, "coc", "coc-ja.conceal", "--conceal", "50")
    assert "--active: expected a whole number" in error_line(capsys, "coc", "coc-ja.resistance", "--active", "x",
                                                             "--passive", "3")
    assert "not a formula" in error_line(capsys, "coc", "coc-ja.round", "--x", "1")
    assert "unknown system" in error_line(capsys, "dnd")
    assert "xsys rules coc coc-ja.conceal.size" in error_line(capsys, "coc-ja.conceal.size")
    assert "unknown rule" in error_line(capsys, "coc", "coc-ja.nope")
    assert "expected one of 'short', 'long'" in error_line(capsys, "pl-trudnosc", "pl.difficulty.range",
                                                             "--distance", "3m", "--weapon", "medium")


# ---- the installed console script ----------------------------------------------------------------

@pytest.mark.skipif(XSYS is None, reason="the xsys console script is not installed")
def test_console_script():
    r = subprocess.run([XSYS, "rules", "coc", "coc-ja.conceal", "--length", "21cm", "--json"], capture_output=True,
                       text=True, env=ENV, timeout=60)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["result"] == {"size_multiplier": 2} and data["arguments"]["length"] == "0.21 m"
    r = subprocess.run([XSYS, "rules", "coc", "coc-ja.conceal", "--length", "abc"], capture_output=True, text=True,
                       env=ENV, timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == "xsys: error: rules coc-ja.conceal: --length: expected a length (e.g. '21 cm'), found 'abc'\n"
    r = subprocess.run([XSYS, "rules", "nosuch"], capture_output=True, text=True, env=ENV, timeout=60)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1 and "unknown system" in r.stderr
    r = subprocess.run([XSYS, "rules"], capture_output=True, text=True, env=ENV, timeout=60)
    assert r.returncode == 0 and "pl.suppress" in r.stdout and "gurps.crit.basic" in r.stdout


def test_polish_movement_rules_evaluate():
    """pl.sprint (2 x Motoryka), pl.crawl (1 m, 2 m trained), pl.swim (Atletyka), per tura."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    xsys = str(Path(sys.executable).parent / "xsys")

    def run(*args):
        out = subprocess.run([xsys, "rules", "pl-trudnosc", *args, "--json"], capture_output=True, text=True, check=True)
        return json.loads(out.stdout)["result"]["per_tura"]

    assert run("pl.sprint", "--motoryka", "3") == "6 m"
    assert run("pl.crawl", "--trained", "no") == "1 m" and run("pl.crawl", "--trained", "yes") == "2 m"
    assert run("pl.swim", "--atletyka", "2") == "2 m"
