import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xsys.core.ladder import Ladder, LadderError, Step, ladders_from_data


def ssr():
    rows = [(0, 2.0), (-1, 3.0), (-2, 4.5), (-3, 7.0), (-4, 10.0), (-5, 15.0), (-6, 20.0), (-7, 30.0)]
    return Ladder.build("ssr", "m", [(n, a, "test.ssr") for n, a in rows], rounding="up", native_order="decreasing")


@pytest.mark.parametrize("x,native", [(0.1, 0), (2.0, 0), (2.01, -1), (10.0, -4), (25.0, -7), (30.0, -7),
                                      (31.0, -7)])
def test_round_up_to_next_row(x, native):
    assert ssr().native(x) == native


def test_round_down_and_nearest():
    down = Ladder.build("d", "lx", [(-3, 0.0, "t"), (-2, 1.0, "t"), (0, 100.0, "t")], rounding="down")
    assert [down.native(x) for x in (0.0, 0.5, 1.0, 99.0, 1e5)] == [-3, -3, -2, -2, 0]
    near = Ladder.build("n", "probability", [(1, 0.1, "t"), (2, 0.3, "t"), (3, 0.9, "t")], rounding="nearest")
    assert [near.native(x) for x in (0.0, 0.19, 0.21, 0.59, 0.61, 1.0)] == [1, 1, 2, 2, 3, 3]
    log = Ladder.build("l", "lx", [(0, 0.0, "t"), (1, 0.01, "t"), (2, 1.0, "t")], rounding="nearest", scale="log")
    assert log.native(0.09) == 1 and log.native(0.11) == 2 and log.native(0.0009) == 0


def test_refuses_non_monotone():
    with pytest.raises(LadderError, match="not monotone"):
        Ladder.build("bad", "m", [(0, 1.0, "t"), (2, 2.0, "t"), (1, 3.0, "t")])
    with pytest.raises(LadderError, match="strictly increase"):
        Ladder.build("bad", "m", [(0, 1.0, "t"), (1, 1.0, "t")])
    with pytest.raises(LadderError, match="rule ID"):
        Ladder.build("bad", "m", [(0, 1.0, "")])
    with pytest.raises(LadderError, match="outside its step"):
        Ladder.build("bad", "m", [Step(0, 1.0, "t", "seed", rep=5.0), Step(1, 2.0, "t", "seed")], rounding="down")


def test_beyond_table_policies():
    lad = Ladder.build("e", "m", [(0, 1.0, "t"), (1, 2.0, "t")], rounding="up", above="error")
    with pytest.raises(LadderError, match="beyond the table"):
        lad.native(3.0)


def test_from_toml_data_with_units():
    data = {"ladder": {"range": {"axis": "m", "rounding": "up", "native_order": "decreasing", "rule": "x.range",
                                 "source": "seed", "rows": [{"at": "1 m", "native": 0},
                                                            {"at": "10 ft", "native": -1, "source": "assumed"},
                                                            {"at": "100 cm", "native": -5}]}}}
    with pytest.raises(LadderError) as err:
        ladders_from_data(data, "t.toml")
    assert "t.toml" in err.value.line()
    data["ladder"]["range"]["rows"][2]["at"] = "0.01 km"
    lad = ladders_from_data(data)["range"]
    assert lad.native(3.0) == -1 and lad.step_for(3.0).source == "assumed"
    assert lad.native(3.1) == -5 and lad.step_for(9.0).rule == "x.range"


@st.composite
def ladders(draw):
    n = draw(st.integers(1, 12))
    ats = sorted(set(draw(st.lists(st.floats(-1e4, 1e4), min_size=n, max_size=n))))
    natives = sorted(set(draw(st.lists(st.integers(-50, 50), min_size=len(ats), max_size=len(ats)))))
    ats = ats[:len(natives)]
    natives = natives[:len(ats)]
    rounding = draw(st.sampled_from(["up", "down", "nearest"]))
    return Ladder.build("h", "m", [(nv, a, "h.rule") for nv, a in zip(natives, ats)], rounding=rounding)


@given(ladders(), st.floats(-2e4, 2e4), st.floats(-2e4, 2e4))
def test_monotone(lad, a, b):
    lo, hi = sorted((a, b))
    assert lad.native(lo) <= lad.native(hi)


@given(ladders())
def test_native_neutral_native_identity(lad):
    for s in lad.steps:
        assert lad.native(lad.neutral(s.native)) == s.native
        assert math.isfinite(lad.neutral(s.native))
