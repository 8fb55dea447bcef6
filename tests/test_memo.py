"""The core remembers a system's pure answers (skill_ladder, competence, level_for) for every
system alike, built-in or third-party (core.memo, System.remember): no module-name check and
no patching of instances during a run."""

from __future__ import annotations

from pathlib import Path

from xsys.core import memo
from xsys.core.registry import default_registry
from xsys.core.system import System


class Counting(System):
    key = "counting-test"
    calls: list = []

    def competence(self, skill, level, context=None):
        self.calls.append((skill, level))
        return level / 10


class Louder(Counting):
    def competence(self, skill, level, context=None):
        return super().competence(skill, level, context) * 2


class Forgetful(Counting):
    remember = False


def test_a_subclass_s_answers_are_remembered_per_instance():
    Counting.calls = []
    a, b = Counting(), Counting()
    assert a.competence("Guns", 5) == 0.5 and a.competence("Guns", 5) == 0.5
    assert Counting.calls == [("Guns", 5)]
    assert b.competence("Guns", 5) == 0.5  # another instance (other settings): asked again
    assert len(Counting.calls) == 2


def test_a_method_calling_super_has_a_table_of_its_own():
    Counting.calls = []
    s = Louder()
    assert s.competence("Guns", 4) == 0.8
    assert s.competence("Guns", 4) == 0.8
    assert Counting.calls == [("Guns", 4)]  # the subclass's answer remembered, not the parent's for it


def test_remember_false_asks_every_time():
    Counting.calls = []
    s = Forgetful()
    s.competence("Guns", 3)
    s.competence("Guns", 3)
    assert Counting.calls == [("Guns", 3), ("Guns", 3)]


def test_types_and_contexts_stay_apart():
    calls = []

    def competence(skill, level, context=None):
        calls.append(level)
        return (type(level).__name__, level)

    f = memo.remembered(competence, True)
    assert f("x", 1, {"@key": "a"}) == ("int", 1)
    assert f("x", 1.0, {"@key": "a"}) == ("float", 1.0)
    assert f("x", True, {"@key": "a"}) == ("bool", True)
    assert f("x", 1, {"@key": "a"}) == ("int", 1) and len(calls) == 3
    assert f("x", 1, {"@key": "b"}) == ("int", 1) and len(calls) == 4
    assert f("x", 1, {"@key": ["unhashable"]}) == ("int", 1) and len(calls) == 5  # asked as usual


def test_a_context_key_names_its_fields_once_and_keeps_contexts_apart():
    # a roster asks with each NPC's characteristics as the context: the names are one shared
    # tuple (a key is one tuple, not one per item: 10,000 NPCs to gurps peaked at 135 MiB, 69 now)
    a = memo._key(("Guns", 12, {"ST": 10, "DX": 12, "@key": "rifle"}), True)
    b = memo._key(("Guns", 12, {"ST": 11, "DX": 13, "@key": "rifle"}), True)
    assert a != b and a[3] is b[3] == ("ST", "DX", "@key")
    assert memo._key(("Guns", {"ST": 10, "DX": 12}), False) != memo._key(("Guns", {"DX": 10, "ST": 12}), False)
    assert memo._key(("Guns", {"ST": 10}), False) != memo._key(("Guns", {"DX": 10}), False)
    assert memo._key(("Guns", 1, {"ST": 10}), True) != memo._key(("Guns", 1, None), True)
    calls = []
    f = memo.remembered(lambda skill, level, context=None: calls.append(level) or level, True)
    f("Guns", 1, {"ST": 10, "DX": 12})
    f("Guns", 1, {"DX": 12, "ST": 10})  # another order: only another key, the same answer
    f("Guns", 1, {"ST": 10, "DX": 12})
    assert calls == [1, 1]


def test_built_in_systems_are_not_patched_during_a_run():
    from xsys.conversions import api

    gurps = default_registry().system("gurps")
    api.convert(str(Path(__file__).resolve().parent.parent / "fixtures/coc/npcs/swat_officer.yaml"), "gurps")
    assert not {"skill_ladder", "competence", "level_for"} & set(vars(gurps))
    assert getattr(type(gurps).competence, "__xsys_remembered__", False)
