"""``xsys rules`` asks every installed system for its formulas and rule notes
(``System.formulas()``, ``System.rule_notes()``, xsys.core.formulas): a third-party system
declares them as the built-in ones do, and its formulas are evaluated from the command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import msgspec
import pytest

from tests.helpers import run_main
from xsys.core.formulas import Formulas, RuleNote, option, param
from xsys.core.hookspecs import hookimpl
from xsys.core.registry import Registry, default_registry, set_default_registry
from xsys.core.system import System

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def use_registry():
    """Makes a registry with extra plugins the process default for one test."""
    old = default_registry()

    def use(*plugins):
        reg = Registry(extra_plugins=list(plugins))
        set_default_registry(reg)
        return reg

    yield use
    set_default_registry(old)


# ---- the out-of-tree example plugin --------------------------------------------------------------

@pytest.fixture
def coc7():
    return default_registry()


def test_the_coc7_plugin_formula_is_evaluated(capsys, coc7):
    code, out, err = run_main(capsys, "rules", "coc7", "coc7.bonus-penalty", "--skill", "50", "--bonus", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["arguments"] == {"skill": 50, "bonus": 1, "penalty": 0, "difficulty": "Regular"}
    # threshold 50: every units digit has 5 of 10 tens faces; one bonus die: 1 - (1/2)^2
    assert data["result"] == {"dice": 1, "threshold": 50, "chance": {"exact": "3/4", "value": 0.75}}
    # Hard (25) with 3 penalty dice and 1 bonus die: 2 penalty dice remain (coc7.bonus-penalty);
    # units 0 and 6-9 have 2 tens faces, 1-5 have 3: (5 * (2/10)^3 + 5 * (3/10)^3) / 10
    code, out, err = run_main(capsys, "rules", "coc7", "coc7.bonus-penalty", "--skill", "50", "--bonus", "1",
                              "--penalty", "3", "--difficulty", "Hard", "--json")
    assert code == 0, err
    assert json.loads(out)["result"] == {"dice": -2, "threshold": 25, "chance": {"exact": "7/400", "value": 0.0175}}


def test_the_coc7_formula_is_listed_with_its_register_title(capsys, coc7):
    code, out, err = run_main(capsys, "rules", "coc7", "--json")
    assert code == 0, err
    rules = {r["id"]: r for r in json.loads(out)["rules"]}
    r = rules["coc7.bonus-penalty"]
    assert r["formula"] == "coc7.bonus-penalty --skill N [--bonus N] [--penalty N] [--difficulty CHOICE]"
    assert r["source"] == "assumed" and r["tables"] == ["tables.toml [rule]"]
    assert [rid for rid, x in rules.items() if x["formula"]] == ["coc7.bonus-penalty"]  # none of coc's


def test_a_wrong_parameter_of_a_third_party_formula_is_one_line(capsys, coc7):
    code, out, err = run_main(capsys, "rules", "coc7", "coc7.bonus-penalty", "--skill", "50", "--difficulty", "Easy")
    assert code == 2 and out == ""
    assert err.strip() == ("xsys: error: rules coc7.bonus-penalty: --difficulty: expected one of 'Regular', 'Hard', "
                           "'Extreme', found 'Easy'")


# ---- a system written here, in a few lines --------------------------------------------------------

TINY = Formulas()


@TINY.formula("tiny.double", "twice a length, in metres", param("length", "length"), option("times", default=2))
def _(system, values):
    print("a plugin's own print")  # contained: goes to stderr, never into the JSON
    return {"metres": float(values["length"]) * values["times"]}


class TinyNpc(msgspec.Struct):
    name: str = ""


class TinySystem(System):
    key = "tiny"
    name = "Tiny"
    rule_prefix = "tiny."
    npc_type = TinyNpc

    def rule_ids(self) -> set[str]:
        return {"tiny.double", "tiny.note"}

    def formulas(self):
        return tuple(TINY)

    def rule_notes(self):
        return {"tiny.note": RuleNote(title="a rule only the data describes", source="seed", tables=("tiny.toml",),
                                      rows=({"key": "a", "value": 1},))}


class TinyPlugin:
    @hookimpl
    def xsys_register_systems(register):
        register(TinySystem)


@pytest.fixture
def tiny(use_registry):
    return use_registry(("tiny", TinyPlugin))


def test_a_system_declares_formulas_and_notes(capsys, tiny):
    code, out, err = run_main(capsys, "rules", "tiny", "tiny.double", "--length", "30cm", "--times", "3", "--json")
    assert code == 0, err
    assert json.loads(out)["result"] == {"metres": 0.9}
    assert "a plugin's own print" in err
    code, out, err = run_main(capsys, "rules", "tiny", "--json")
    assert code == 0, err
    rules = {r["id"]: r for r in json.loads(out)["rules"]}
    assert rules["tiny.double"]["formula"] == "tiny.double --length LENGTH [--times N]"
    assert rules["tiny.double"]["title"] == "twice a length, in metres"
    assert rules["tiny.note"] == {"id": "tiny.note", "title": "a rule only the data describes", "source": "seed",
                                  "tables": ["tiny.toml"], "formula": None}
    code, out, err = run_main(capsys, "rules", "tiny", "tiny.note", "--json")
    assert code == 0, err
    assert json.loads(out)["rows"] == [{"key": "a", "value": 1}]
