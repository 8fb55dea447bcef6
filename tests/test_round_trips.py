"""Round trips tested for what they are: a document converted A -> B -> A with
the remembered source stripped at every step (``fresh=True`` and no ``xsys`` block) comes
back with every stated value it had, or the difference is in a loss report: the A -> B
report at the value's own path (or a part of it), or the B -> A report of the same shot or
combatant (where a value rounded on the way back is reported at B's own field name).

Restoring the original from memory would prove nothing; here nothing is remembered. The
documents are every bundled fixture and generated scenarios (hypothesis) of shots with any
weapon class, name, catalog item, posture, cover, light and aim."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xsys.conversions import api
from xsys.core import codec
from xsys.core.catalog import strip_entry
from xsys.core.registry import catalog

ROOT = Path(__file__).resolve().parent.parent
SYSTEMS = ["coc", "coc7", "coc-zh", "gurps", "nwod", "pl-trudnosc"]
PAIRS = [(a, b) for a in SYSTEMS for b in SYSTEMS if a != b]
EXAMPLES = int(os.environ.get("XSYS_PROPERTY_EXAMPLES", 10))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))

# Values a system derives from others by its rule (CoC HP, nWoD Willpower ...) are not
# exempt: where one changes because an input did not cross, the A -> B report says so at the
# derived field itself (kind "derived", System.derived_fields).
_ITEM = re.compile(r"^\$(\.npcs\[\d+\]|\.scenes\[\d+\]\.(combatants|shots)\[\d+\])")


def _plain(doc):
    p = codec.to_builtins(doc)
    p.pop("xsys", None)
    return p


def _differences(a, b, path="$", out=None):
    """Every value `a` states (not None) that `b` does not hold the same, as (path, a, b)."""
    out = [] if out is None else out
    if isinstance(a, dict):
        theirs = b if isinstance(b, dict) else {}
        for k, v in a.items():
            _differences(v, theirs.get(k), f"{path}.{k}", out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            _differences(x, y, f"{path}[{i}]", out)
    elif a is not None and a != b:
        if isinstance(a, float) and isinstance(b, float) and abs(a - b) <= 1e-9 * max(1.0, abs(a)):
            return out
        out.append((path, a, b))
    return out


def _related(p: str, q: str) -> bool:
    """One path is the other or a part of it."""
    return p == q or any(p.startswith(q + c) or q.startswith(p + c) for c in ".[")


def unexplained(source: dict, a: str, b: str) -> list[str]:
    """What an A -> B -> A trip of `source` (a plain A document) changed with no loss saying so."""
    there = api.convert(api.from_plain(source), b, fresh=True, trace=False)
    mid = _plain(there.document)
    back = api.convert(api.from_plain(mid), a, fresh=True, trace=False)
    out = []
    for path, x, y in _differences(source, _plain(back.document)):
        if path.startswith("$.xsys"):
            continue
        if any(_related(path, loss.path) for loss in there.losses):
            continue
        m = _ITEM.match(path)
        if m and any(loss.path.startswith(m.group(0)) and loss.kind != "assumed" for loss in back.losses):
            continue
        out.append(f"{a} -> {b} -> {a}: {path}: {x!r} came back as {y!r}, and no loss says so")
    return out


FIXTURES = sorted(p for s in SYSTEMS for p in (ROOT / "fixtures" / s).glob("*/*.yaml"))


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_every_fixture_comes_back_or_says_what_it_lost(path):
    a = path.parent.parent.name
    source = _plain(api.load(path).document)
    problems = [line for b in SYSTEMS if b != a for line in unexplained(source, a, b)]
    assert not problems, "\n".join(problems)


# ---- system-only data ---------------------------------------------------------
#
# What only one system states (CoC Sanity, GURPS advantages, nWoD merits, Polish Zalety) rides
# through every other system in its `carried:` block: a trip with nothing remembered gives it
# back exactly, not merely reported.

SYSTEM_ONLY = {"coc": {"SAN": 41, "MP": 13, "Luck": 62, "spells": ["Contact Ghoul"]},
               "coc7": {"SAN": 55, "MP": 11, "Luck": 45, "spells": ["Shrivelling"]},
               "coc-zh": {"SAN": 33, "Luck": 58, "spells": ["Elder Sign"]},
               "gurps": {"advantages": ["Combat Reflexes"], "disadvantages": ["Bad Temper"]},
               "nwod": {"merits": {"Danger Sense": 2}, "specialties": {"Firearms": ["Pistols"]}},
               "pl-trudnosc": {"Zalety": ["Zimna krew"]}}
NPC_SOURCES = sorted(p for s in SYSTEMS for p in (ROOT / "fixtures" / s).glob("npcs/*.yaml")) + \
    [ROOT / "fixtures" / s / "scenarios" / f for s, f in (("coc", "speakeasy_raid.yaml"),
                                                           ("gurps", "alley_at_night.yaml"))]


def _npcs_of(doc: dict) -> list[dict]:
    if doc["kind"] == "npc":
        return [doc]
    if doc["kind"] == "roster":
        return doc["npcs"]
    return [c for scene in doc.get("scenes", []) for c in scene.get("combatants", [])]


@pytest.mark.parametrize("path", NPC_SOURCES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_system_only_data_comes_back_exactly_with_nothing_remembered(path):
    a = path.parent.parent.name
    source = _plain(api.load(path).document)
    for npc in _npcs_of(source):
        npc.update(SYSTEM_ONLY[a])
    for b in SYSTEMS:
        if b == a:
            continue
        assert not unexplained(source, a, b)
        mid = _plain(api.convert(api.from_plain(source), b, fresh=True, trace=False).document)
        if {a, b} != {"coc", "coc-zh"}:  # they share the namespace: coc-zh's SAN is coc's SAN
            ns = "coc" if a == "coc-zh" else a
            assert all(n.get("carried", {}).get(ns) for n in _npcs_of(mid)), f"{b} carries nothing for {a}"
        back = _plain(api.convert(api.from_plain(mid), a, fresh=True, trace=False).document)
        for npc in _npcs_of(back):
            got = {k: npc.get(k) for k in SYSTEM_ONLY[a]}
            assert got == SYSTEM_ONLY[a], f"{a} -> {b} -> {a}: {got}"


# ---- generated scenarios ----------------------------------------------------------------

POSTURES = ["standing", "crouching", "kneeling", "sitting", "prone"]
CLASSES = ["handgun", "revolver", "smg", "carbine", "rifle", "shotgun", "mg"]
ENERGY = {"handgun": (150, 1200), "revolver": (200, 1500), "smg": (300, 900), "carbine": (900, 2200),
          "rifle": (1500, 6000), "shotgun": (1800, 3200), "mg": (2500, 5000)}
CATALOG = sorted(i for i, w in catalog().weapons.items() if w.weapon_class != "thrown")
NAME = st.from_regex(r"[A-Z][a-z]{2,7}( [A-Z][a-z]{2,7})?", fullmatch=True)


@st.composite
def weapons(draw):
    if draw(st.booleans()):
        entry = catalog().weapons[draw(st.sampled_from(CATALOG))]
        return codec.to_builtins(strip_entry(entry))  # the entry as a neutral weapon, with its catalog id
    cls = draw(st.sampled_from(CLASSES))
    lo, hi = ENERGY[cls]
    return {"name": f"{draw(NAME)} gun", "weapon_class": cls, "muzzle_energy": f"{draw(st.integers(lo, hi))} J"}


@st.composite
def shots(draw, i):
    cover = {"exposure": draw(st.sampled_from([1.0, 0.75, 0.5, 0.2, 0.0]))}
    if draw(st.booleans()):
        cover["barrier"] = {"material": draw(st.sampled_from(["soft-wood", "brick", "concrete"])),
                            "thickness": f"{draw(st.integers(2, 30))} cm"}
    return {"name": f"shot {i}", "distance": f"{draw(st.integers(2, 150))} m",
            "shooter": {"name": f"Shooter {i}", "skill": draw(st.sampled_from([0.2, 0.4, 0.6, 0.8])),
                        "characteristics": {"dexterity": 0.5, "strength": 0.5},
                        "aim_time": f"{draw(st.sampled_from([0, 3, 6]))} s"},
            "weapon": draw(weapons()),
            "target": {"name": f"Target {i}", "posture": draw(st.sampled_from(POSTURES)), "cover": cover},
            "light": {"illuminance": f"{draw(st.sampled_from([10000, 50, 3, 0.25, 0.001]))} lx"}}


@st.composite
def scenarios(draw):
    return {"system": "neutral", "kind": "scenario", "name": "Generated",
            "scenes": [{"name": "scene", "shots": [draw(shots(i)) for i in range(draw(st.integers(1, 3)))]}]}


@pytest.mark.parametrize("a", SYSTEMS)
@SETTINGS
@given(scenario=scenarios())
def test_generated_scenarios_come_back_or_say_what_they_lost(a, scenario):
    source = _plain(api.convert(api.from_plain(scenario), a, fresh=True, trace=False).document)
    problems = [line for b in SYSTEMS if b != a for line in unexplained(source, a, b)]
    assert not problems, "\n".join(problems)


def test_the_check_catches_a_silent_loss(monkeypatch):
    """The check is not vacuous: with the loss reports emptied, the aim and the pop-up shot a
    GURPS scenario loses in Call of Cthulhu are caught."""
    source = _plain(api.load(ROOT / "fixtures" / "gurps" / "scenarios" / "alley_at_night.yaml").document)
    assert not unexplained(source, "gurps", "coc")
    real = api.convert

    def silent(*args, **kwargs):
        conv = real(*args, **kwargs)
        conv.losses = []
        return conv

    monkeypatch.setattr(api, "convert", silent)
    problems = "\n".join(unexplained(source, "gurps", "coc"))
    assert "$.scenes[0].shots[2].aim_turns" in problems and "$.scenes[1].shots[0].pop_up" in problems


# ---- derived values ---------------------------------------------------------------------

def _derived(conv):
    return {loss.path: loss for loss in conv.losses if loss.kind == "derived"}


def test_a_derived_value_says_it_follows_an_input_that_did_not_cross():
    # CoC HP = (CON + SIZ) / 2 (coc-ja.hp); GURPS's HT holds CON on a coarser scale, while SIZ
    # (no field in a GURPS stat block) is carried exactly (carried.coc.SIZ), so only CON is named
    # (the hunter's CON 15 is HT 13, which reads back as CON 14)
    conv = api.convert(ROOT / "fixtures/coc/npcs/hunter_rifle.yaml", "gurps", fresh=True, trace=False)
    hp = _derived(conv)["$.HP"]
    assert hp.level == "info" and hp.rule == "coc-ja.hp" and hp.system == "coc"
    said = hp.message.split(";", 1)[1]
    assert "CON" in said and "SIZ" not in said and "HP 14" in hp.message
    assert any(loss.path == "$.CON" and loss.kind == "rounded" for loss in conv.losses)
    assert [loss.kind for loss in conv.losses if loss.path == "$.SIZ"] == ["kept-verbatim"]
    # inside a scenario, at the combatant's own field
    conv = api.convert(ROOT / "fixtures/coc/scenarios/speakeasy_raid.yaml", "nwod", fresh=True, trace=False)
    assert "$.scenes[0].combatants[0].HP" in _derived(conv)


def test_nothing_is_said_of_a_derived_value_whose_inputs_cross_exactly():
    # coc -> coc-zh keeps CON and SIZ; nwod -> nwod keeps everything (Resolve is kept verbatim)
    assert not _derived(api.convert(ROOT / "fixtures/coc/npcs/cultist_shotgun.yaml", "coc-zh", fresh=True,
                                    trace=False))
    assert not _derived(api.convert(ROOT / "fixtures/nwod/npcs/cross.yaml", "nwod", fresh=True, trace=False))


def test_a_derived_value_with_a_loss_of_its_own_is_not_reported_twice():
    # GURPS Will is the neutral will (it crosses itself); its loss is at $.Will, once
    conv = api.convert(ROOT / "fixtures/gurps/npcs/sniper.yaml", "nwod", fresh=True, trace=False)
    assert [loss.kind for loss in conv.losses if loss.path == "$.Will"] == ["rounded"]
    assert len([loss for loss in conv.losses if loss.path == "$.HP"]) == 1
