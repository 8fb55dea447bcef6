"""The loss audit remembers whether a built-in system writes a field at all
(core/audit.py, ``WRITTEN_MEMO``): with it on or off, every fixture converted to every
system, and generated rosters converted whole and streamed, are the same bytes."""

from __future__ import annotations

from pathlib import Path

import pytest

from xsys.conversions import api, documents, stream
from xsys.devtools import bench
from xsys.core import audit as loss_audit
from xsys.core.registry import default_registry

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = sorted(p for p in (ROOT / "fixtures").rglob("*")
                  if p.is_file() and "plugins" not in p.parts and "devtools" not in p.parts and p.suffix in (".yaml", ".json", ".txt", ".toml"))
TARGETS = default_registry().keys() + ["neutral"]


@pytest.fixture
def memo(monkeypatch):
    """Set the memo on or off; it starts empty either way."""

    def switch(on: bool) -> None:
        monkeypatch.setattr(loss_audit, "WRITTEN_MEMO", on)
        loss_audit._written_memo.clear()

    yield switch
    loss_audit._written_memo.clear()


def _written(loaded: api.Loaded) -> dict[str, bytes]:
    out = {}
    for to in TARGETS:
        conv = api.convert(loaded, to)
        out[to] = api.dump(conv, "json", explain=True)
    return out


def test_fixtures_are_the_same_bytes_with_the_memo(memo):
    loaded = []
    for f in FIXTURES:
        try:
            loaded.append((f, api.load(f)))
        except Exception:  # not a document (a rules table, a fragment): nothing to convert
            continue
    assert len(loaded) >= 40
    memo(False)
    off = {f: _written(d) for f, d in loaded}
    assert not loss_audit._written_memo
    memo(True)
    # twice: the second pass answers from the memo for every item the first one asked about
    for _ in range(2):
        on = {f: _written(d) for f, d in loaded}
        assert on == off
    assert sorted(system.key for system in loss_audit._written_memo) == default_registry().keys()  # one memo a system


def test_generated_rosters_are_the_same_bytes_with_the_memo(memo, tmp_path):
    rosters = bench._generated_rosters(60, seed=11)
    outputs = {}
    for on in (False, True):
        memo(on)
        for key, doc in rosters.items():
            p = tmp_path / f"{key}.json"
            p.write_bytes(documents.dumps(doc, "json"))
            for to in TARGETS:
                whole = api.dump(api.convert(api.from_plain(doc, str(p)), to, trace=False), "json")
                s = stream.convert_file(str(p), to)
                assert s is not None
                try:
                    streamed = s.output.read_bytes()
                finally:
                    s.discard()
                assert streamed == whole, (key, to, on)
                outputs.setdefault((key, to), []).append(whole)
    assert all(a == b for a, b in outputs.values())


def test_the_key_holds_the_shape_not_the_fractions(memo):
    # NPCs alike but for fractional values and their names share an answer; one with another
    # characteristic or another block of the system's own is asked again
    from xsys.core.model import Combatant

    memo(True)
    system = default_registry().system("pl-trudnosc")
    audit = loss_audit.LossAudit(Combatant(name="x"), "neutral", "pl-trudnosc", None)
    d = loss_audit._Diff("$.skills.spot", 0.4, loss_audit.MISSING, None)
    npcs = [Combatant(name="a", characteristics={"intelligence": 0.5}, skills={"spot": 0.4}),
            Combatant(name="b", characteristics={"intelligence": 0.7}, skills={"spot": 0.3}),
            Combatant(name="c", characteristics={"intelligence": 0.5, "perception": 0.6}, skills={"spot": 0.4}),
            Combatant(name="d", characteristics={"intelligence": 0.5}, skills={"spot": 0.4},
                      native={"pl-trudnosc": {"x": 40}}),
            Combatant(name="e", characteristics={"intelligence": 0.5}, skills={"spot": 0.4},
                      native={"pl-trudnosc": {"x": 41}}),
            # another system's block: pl-trudnosc does not read it
            Combatant(name="f", characteristics={"intelligence": 0.5}, skills={"spot": 0.4}, native={"coc": {"x": 1}}),
            Combatant(name="g", characteristics={"intelligence": 0.5}, skills={"spot": 0.4}, native={"coc": {"x": 2}})]
    sizes = []
    for n in npcs:
        audit._written_at_all(system, "npc", n, d)
        sizes.append(len(loss_audit._written_memo[system]))
    assert sizes == [1, 1, 2, 3, 4, 4, 4]
    # coc-zh reads coc's block (its parent's): there it is part of the key
    zh = default_registry().system("coc-zh")
    for n in npcs[-2:]:
        audit._written_at_all(zh, "npc", n, d)
    assert len(loss_audit._written_memo[zh]) == 2
    # a system from elsewhere is remembered like a built-in one; one that says its answers are
    # not functions of what it is given (System.remember = False) is asked every time
    loss_audit._written_memo.clear()

    class Elsewhere(type(system)):
        pass

    Elsewhere.__module__ = "someone.else"
    other = object.__new__(Elsewhere)
    other.__dict__.update(vars(system))
    audit._written_at_all(other, "npc", npcs[0], d)
    assert len(loss_audit._written_memo[other]) == 1

    class Forgetful(type(system)):
        remember = False

    forgetful = object.__new__(Forgetful)
    forgetful.__dict__.update(vars(system))
    audit._written_at_all(forgetful, "npc", npcs[0], d)
    assert forgetful not in loss_audit._written_memo


def test_keys_keep_types_and_signs_apart():
    from xsys.core.model import Combatant, Shooter
    from xsys.core.units import Duration, Length

    enc = loss_audit._KEY_ENCODER.encode
    assert len({enc([1]), enc([1.0]), enc([True]), enc([0.0]), enc([-0.0]), enc([loss_audit.MISSING]), enc([None])}) == 7
    assert len({enc([Length(2.0)]), enc([Duration(2.0)]), enc([2.0])}) == 3
    with pytest.raises(TypeError):
        enc([object()])

    def shape(**kw):
        return loss_audit._shape(Combatant(name="x", **kw), ("coc",))

    assert shape(skills={"spot": 0.5}) == shape(skills={"spot": 0.25}) != shape(skills={"spot": 0.25, "dodge": 0.5})
    assert shape(native={"coc": {"a": 1}}) != shape(native={"coc": {"a": 1.0}}) != shape(native={"coc": {"a": True}})
    assert shape(native={"coc": {"a": 0.0}}) != shape(native={"coc": {"a": -0.0}})
    assert shape(native={"gurps": {"a": 1}}) == shape(native={"gurps": {"a": 2}}) == shape()
    assert shape(skills={"spot": 0.5}) != shape(characteristics={"spot": 0.5})
    assert loss_audit._shape(Shooter(aim_time=Duration(1.0)), ()) == loss_audit._shape(Shooter(aim_time=Duration(2.0)), ())
    assert loss_audit._shape(Shooter(aim_time=Duration(1.0)), ()) != loss_audit._shape(Shooter(aim_time=Duration(1.0), hands=1), ())
