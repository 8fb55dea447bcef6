"""HP/Health/HT by the physical toughness they describe: a stated HP that differs
from what its system's rule derives from the physique (CoC ceil((CON + SIZ) / 2), GURPS 3e HP = HT,
nWoD Health = Stamina + Size) is the neutral toughness (stated / derived), which a target with
hit points of its own applies to its own rule, with the rule IDs in the trace; a target without
hit points (pl-trudnosc) reports it dropped."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from xsys.conversions import api
from xsys.core import codec

ROOT = Path(__file__).resolve().parent.parent
HP_FIELD = {"coc": "HP", "coc-zh": "HP", "gurps": "HP", "nwod": "Health"}
RULE = {"coc": "coc-ja.hp", "coc-zh": "coc-ja.hp", "gurps": "gurps.derived", "nwod": "nwod.derived"}


def _plain(doc):
    p = codec.to_builtins(doc)
    p.pop("xsys", None)
    return p


def _derived(doc: dict, system: str) -> int:
    if system in ("coc", "coc-zh"):
        return -(-(doc["CON"] + doc["SIZ"]) // 2)
    if system == "gurps":
        return doc.get("HT", 10)
    return doc.get("Stamina", 2) + doc.get("Size", 5)


SOURCES = {"coc": ("coc/npcs/police_detective.yaml", 18), "coc-zh": ("coc-zh/npcs/inspector_chen.yaml", 19),
           "gurps": ("gurps/npcs/soldier.yaml", 16), "nwod": ("nwod/npcs/cross.yaml", 11)}


def _source(a: str) -> dict:
    path, hp = SOURCES[a]
    src = _plain(api.load(ROOT / "fixtures" / path).document)
    assert src.get(HP_FIELD[a], hp) != hp and _derived(src, a) != hp
    src[HP_FIELD[a]] = hp
    return src


PAIRS = [(a, b) for a in SOURCES for b in SOURCES if a != b]


@pytest.mark.parametrize("a,b", PAIRS, ids=[f"{a}->{b}" for a, b in PAIRS])
def test_a_stated_hp_crosses_as_toughness_over_the_targets_own_rule(a, b):
    src = _source(a)
    t = src[HP_FIELD[a]] / _derived(src, a)
    conv = api.convert(api.from_plain(src), b, fresh=True, trace=True)
    out = _plain(conv.document)
    expected = max(1, math.floor(_derived(out, b) * t + 0.5))
    assert out[HP_FIELD[b]] == expected, (out[HP_FIELD[b]], _derived(out, b), t)
    if {a, b} != {"coc", "coc-zh"}:
        assert out[HP_FIELD[b]] != _derived(out, b)  # tougher than the target's rule makes him
    # the trace names both rules: the source's (HP -> toughness) and the target's (toughness -> HP)
    steps = [x for x in conv.trace if "toughness" in x.render()]
    assert any(RULE[a] in x.rules and x.source == "assumed" and f"{HP_FIELD[a]} {src[HP_FIELD[a]]}" in x.render()
               for x in steps), [x.render() for x in conv.trace]
    if {a, b} != {"coc", "coc-zh"}:
        assert any(RULE[b] in x.rules and f"{HP_FIELD[b]} {expected}" in x.render() for x in steps)
    # and it comes back within the rounding of the two rules, or the report says so
    back = api.convert(api.from_plain(out), a, fresh=True, trace=False)
    got = _plain(back.document)[HP_FIELD[a]]
    if got != src[HP_FIELD[a]]:
        assert any(x.path.startswith("$.") and "toughness" in x.message for x in conv.losses + back.losses)
        assert abs(got - src[HP_FIELD[a]]) <= 2


def test_an_hp_as_derived_states_no_toughness():
    src = _plain(api.load(ROOT / "fixtures" / "coc" / "npcs" / "police_detective.yaml").document)
    neutral = _plain(api.convert(api.from_plain(src), "neutral", fresh=True, trace=False).document)
    assert "toughness" not in neutral
    gurps = _plain(api.convert(api.from_plain(src), "gurps", fresh=True, trace=False).document)
    assert gurps["HP"] == gurps["HT"]


def test_a_target_without_hit_points_reports_the_toughness_dropped():
    conv = api.convert(api.from_plain(_source("coc")), "pl-trudnosc", fresh=True, trace=False)
    (lost,) = [x for x in conv.losses if "toughness" in x.message]
    assert lost.path == "$.HP" and lost.kind == "unsupported-field" and lost.level == "warning"


def test_before_issue_20_the_stated_hp_was_lost_through_another_system():
    """Not vacuous: with the toughness taken out of the neutral NPC, the HP comes back as the
    rule's, so the tests above can fail."""
    src = _source("coc")
    mid = _plain(api.convert(api.from_plain(src), "neutral", fresh=True, trace=False).document)
    mid.pop("toughness")
    mid["native"] = {}
    gurps = _plain(api.convert(api.from_plain(mid), "gurps", fresh=True, trace=False).document)
    assert gurps["HP"] == gurps["HT"]


def test_the_toughness_loss_is_at_the_stated_hp_not_at_ht():
    """GURPS HP 15 at HT 11: the toughness (HP / HT) is what the HP field states, so a loss about
    it is reported at $.HP (HT moves constitution too; the field that moves the fewest neutral
    values is the one that states it)."""
    src = _plain(api.load(ROOT / "fixtures" / "gurps" / "npcs" / "policeman.yaml").document)
    src["HP"] = 15
    # CoC states any HP: the toughness comes back as HP 15, nothing to report
    conv = api.convert(api.from_plain(src), "coc", fresh=True, trace=False)
    assert not [x for x in conv.losses if "toughness" in x.message]
    # nWoD derives Health = Stamina + Size: the sheet says why its Health is more, at $.HP
    conv = api.convert(api.from_plain(src), "nwod", fresh=True, trace=False)
    about = [x for x in conv.losses if "toughness" in x.message]
    assert about and all(x.path == "$.HP" for x in about), [x.render() for x in about]
    assert codec.to_builtins(conv.document)["Health"] == 10
    assert [x.message for x in about] == ["Health 10 beside Stamina + Size = 7: the source's NPC is tougher than its "
                                          "build (toughness 1.36); no nWoD trait says so, so the sheet states it as "
                                          "Health 10",
                                          # and, in the source's own numbers, what the way back gives
                                          "HP 15 reads back as HP 16 from a nwod stat block (toughness 1.364 → 1.429)"]


def test_a_toughness_that_comes_back_as_another_number_says_the_source_s_hit_points():
    """The report said "toughness 1.17647 reads back as 1.22222": a GM reads hit points."""
    src = _plain(api.load(ROOT / "fixtures" / "coc" / "npcs" / "dock_brute.yaml").document)  # HP 20, rule 17
    conv = api.convert(api.from_plain(src), "gurps", fresh=True, trace=False)
    doc = codec.to_builtins(conv.document)
    assert (doc["HT"], doc["HP"]) == (14, 16)
    assert "Extra Hit Points +2" in doc["advantages"]  # gurps.derived: HP = HT, more is a trait
    said = [x.message for x in conv.losses if "toughness" in x.message]
    assert all("1.17647" not in m for m in said), said


def test_a_derived_field_at_its_rule_is_not_a_lost_value():
    """GURPS Per 10 at IQ 10 is what gurps.derived computes: CoC has no perception, and the way
    back computes Per again from IQ, so the report says so (derived, info), not "dropped". A Per
    the rule does not give (Per 13 at IQ 10) is a real loss: a warning."""
    src = _plain(api.load(ROOT / "fixtures" / "gurps" / "npcs" / "policeman.yaml").document)
    assert src["Per"] == src.get("IQ", 10) == 10
    conv = api.convert(api.from_plain(src), "coc", fresh=True, trace=False)
    per = [x for x in conv.losses if x.path == "$.Per"]
    assert [(x.kind, x.level, x.rule) for x in per] == [("derived", "info", "gurps.derived")], [x.render() for x in per]
    src["Per"] = 13
    conv = api.convert(api.from_plain(src), "coc", fresh=True, trace=False)
    per = [x for x in conv.losses if x.path == "$.Per"]
    assert per and all(x.kind == "unsupported-field" and x.level == "warning" for x in per), [x.render() for x in per]


@pytest.mark.parametrize("system, derived, toughness, written", [
    ("coc", 17, 20 / 17, 20),  # the dock brute's own HP 20 over ceil((CON + SIZ) / 2) = 17
    ("gurps", 10, 20 / 17, 12),  # 11.76 rounds half up to 12
    ("nwod", 7, 20 / 17, 8),  # 8.24
    ("nwod", 7, 19.0, 20),  # the sheet holds Health 1-20 (health_range)
    ("gurps", 10, 0.01, 1),
    ("coc", 13, None, 13),  # no toughness: the rule's own value
])
def test_one_toughness_rule_for_every_system_with_hit_points(system, derived, toughness, written):
    from xsys.core.registry import default_registry
    from xsys.core.trace import Collector

    s = default_registry().system(system)
    col = Collector(system)
    assert s.health_of(derived, toughness, col) == written
    if toughness is not None and written != derived:
        back = s.toughness_of(written, derived, col)
        assert back == pytest.approx(written / derived)
    assert s.toughness_of(derived, derived, col) is None
