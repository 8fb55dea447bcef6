"""Ladders built in a process are remembered by what they were built from
(core/ladder.py): the key is computed only from the second ladder of a name and size on,
and what it remembers is what building again would give."""

from xsys.core import ladder
from xsys.core.ladder import Ladder


def _rows(n=4, first=0.0):
    return [{"native": i, "at": first + i, "rule": "t.memo"} for i in range(n)]


def test_the_same_table_is_built_once():
    ladder.clear_built()
    a = Ladder.build("memo-a", "m", _rows())
    assert not ladder._BUILT  # one ladder of the name: no key computed yet
    b = Ladder.build("memo-a", "m", _rows())
    c = Ladder.build("memo-a", "m", _rows())
    assert a is b is c
    assert Ladder.build("memo-a", "m", _rows(first=0.5)) is not a  # other values
    assert Ladder.build("memo-a", "m", _rows(5)) is not a  # other size


def test_types_and_options_stay_apart():
    ladder.clear_built()
    ints = Ladder.build("memo-b", "m", [(0, 0, "t"), (1, 1, "t")])
    floats = Ladder.build("memo-b", "m", [(0, 0.0, "t"), (1, 1.0, "t")])
    bools = Ladder.build("memo-b", "m", [(False, 0.0, "t"), (True, 1.0, "t")])
    assert floats is not ints and bools is not floats
    assert type(bools.steps[0].native) is bool and type(floats.steps[0].native) is int
    up = Ladder.build("memo-b", "m", [(0, 0.0, "t"), (1, 1.0, "t")], rounding="up")
    assert up is not floats and up.rounding == "up"


def test_rows_changed_after_the_first_build_are_not_confused():
    ladder.clear_built()
    rows = _rows()
    first = Ladder.build("memo-c", "m", rows)
    for r in rows:
        r["at"] = r["at"] * 10  # the caller reuses its dicts for another table
    second = Ladder.build("memo-c", "m", rows)
    assert second is not first and [s.at for s in second.steps] == [0.0, 10.0, 20.0, 30.0]
    assert Ladder.build("memo-c", "m", _rows()) is first
