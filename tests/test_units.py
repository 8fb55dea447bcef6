import math

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from xsys.core import codec, units
from xsys.core.errors import InputError, UnitError
from xsys.core.model import Shot
from xsys.core.units import Duration, Energy, Illuminance, Length, Mass, Speed


@pytest.mark.parametrize("text,qtype,expected", [
    ("25 m", Length, 25.0), ("82 ft", Length, 24.9936), ("3 in", Length, 0.0762), ("15 cm", Length, 0.15),
    ("0.2 lx", Illuminance, 0.2), ("1.5 kg", Mass, 1.5), ("540 J", Energy, 540.0),
    ("30 km/h", Speed, 30 / 3.6), ("3 s", Duration, 3.0),
    ("1 nautical_mile", Length, 1852.0), ("1e2 m", Length, 100.0),
])
def test_parse_good(text, qtype, expected):
    assert math.isclose(units.parse(text, qtype), expected, rel_tol=1e-12)
    assert isinstance(units.parse(text, qtype), qtype)


@pytest.mark.parametrize("text,qtype,fragment", [
    ("25 kg", Length, "wrong unit for a length"),
    ("25", Length, "not a length"),
    ("25 parsecz", Length, "unknown unit"),
    ("3 m", Illuminance, "wrong unit for an illuminance"),
    ("nan m", Length, "finite"),
    ("inf m", Length, "finite"),
    (25, Length, "must be written with its unit"),
    ("1 turn", Duration, "wrong unit"),  # pint's `turn` is an angle; ours have other names
])
def test_parse_bad(text, qtype, fragment):
    with pytest.raises(UnitError) as err:
        units.parse(text, qtype)
    assert fragment in err.value.line()


def test_fast_table_agrees_with_pint():
    reg = units.ureg()
    for qtype, table in units._FAST.items():
        for unit, factor in table.items():
            q = reg.Quantity(1.0, unit)
            assert str(q.dimensionality) == qtype.dimension, unit
            assert math.isclose(q.to(qtype.unit).magnitude, factor, rel_tol=1e-12), unit


@pytest.mark.parametrize("text,qtype,expected", [
    ("2 hex", Length, 2.0), ("1 gurps_turn", Duration, 1.0), ("1 coc_round", Duration, 3.0),
    ("1 nwod_turn", Duration, 3.0), ("1 pl_tura", Duration, 3.0), ("1 coc7_round", Duration, 6.0),
    ("6 m / pl_tura", Speed, 2.0), ("2 hex/gurps_turn", Speed, 2.0)])
def test_a_systems_own_units_are_known_once_its_plugin_is_registered(text, qtype, expected):
    """A system's turn or round (and the GURPS hex) is its plugin's (System.own_units), not the
    core's: known to parse and to pint (in a compound unit) once the plugin is registered."""
    from xsys.core.registry import default_registry

    default_registry().keys()
    assert math.isclose(units.parse(text, qtype), expected, rel_tol=1e-12)


def test_a_defined_unit_is_known_before_and_after_pint_is_built_and_cannot_be_taken_twice():
    units.define("xsys_test_beat", Duration, 0.5, "a test")
    assert units.parse("4 xsys_test_beat", Duration) == 2.0
    units.define("xsys_test_beat", Duration, 0.5, "a test")  # the same again: nothing changes
    assert units.parse("1 m / xsys_test_beat", Speed) == 2.0  # through pint
    units.reset_registry()  # a registry built afterwards knows it too
    try:
        assert units.parse("3 m / xsys_test_beat", Speed) == 6.0
    finally:
        units.reset_registry()
    with pytest.raises(ValueError, match="already 0.5 s"):
        units.define("xsys_test_beat", Duration, 0.6)
    with pytest.raises(ValueError, match="one of xsys's own units"):
        units.define("m", Length, 2.0)
    with pytest.raises(ValueError, match="not a word"):
        units.define("two words", Length, 2.0)


@pytest.mark.parametrize("cache", ["1", "0"])
def test_registry_with_cache_on_and_off(monkeypatch, cache):
    from xsys.core.registry import default_registry

    default_registry().keys()  # the plugins' own units (gurps: hex, coc: coc_round)
    monkeypatch.setenv("XSYS_PINT_CACHE", cache)
    units.reset_registry()
    try:
        reg = units.ureg()
        assert reg is units.ureg()  # built once
        assert math.isclose(reg.Quantity(1, "hex").to("m").magnitude, 1.0)
        assert math.isclose(reg.Quantity(1, "coc_round").to("s").magnitude, 3.0)
        assert str(reg.Quantity(1, "turn").dimensionality) == "dimensionless"  # pint's angle is untouched
        assert units.parse("3 yard", Length) == pytest.approx(2.7432)
    finally:
        units.reset_registry()


@given(st.floats(0, 1e6, allow_nan=False))
def test_canonical_text_round_trips(x):
    # the text keeps 12 significant digits, and reading and writing it again changes nothing
    q = Length(x)
    back = units.parse(units.to_text(q), Length)
    assert math.isclose(back, q, rel_tol=1e-11, abs_tol=1e-300)
    assert units.to_text(back) == units.to_text(q)


def test_conversion_noise_is_not_written():
    assert units.to_text(units.parse("1.5 in", Length)) == "0.0381 m"  # not 0.038099999999999995 m
    assert units.to_text(units.parse("30 yard", Length)) == "27.432 m"
    assert str(Length(0.9 * 0.001 * 10)) == "0.009 m"


def test_struct_field_error_names_path():
    data = {"weapon": {"name": "x", "weapon_class": "handgun", "muzzle_energy": "500 J"}, "distance": "25 kg"}
    with pytest.raises(InputError) as err:
        codec.convert(data, Shot, file="shot.yaml")
    line = err.value.line()
    assert line.startswith("shot.yaml: $.distance: wrong unit for a length")
    assert "found '25 kg'" in line


def test_quantities_encode_as_canonical_strings():
    data = {"weapon": {"name": "x", "weapon_class": "handgun", "muzzle_energy": "0.5 kJ"}, "distance": "82 ft"}
    shot = codec.convert(data, Shot)
    out = msgspec.json.decode(codec.json_encode(shot))
    assert out["distance"] == "24.9936 m"
    assert out["weapon"]["muzzle_energy"] == "500 J"
    assert codec.convert(out, Shot) == shot
