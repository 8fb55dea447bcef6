"""The speed work changes no result: each fast path is checked here against the
reference it replaces (the json module and PyYAML's Python emitter for output, Fraction
arithmetic for sums, pint for unit factors, the generic canonical form, a traced run)."""

from __future__ import annotations

import glob
import json
import math
from fractions import Fraction as F
from pathlib import Path

import msgspec
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xsys.conversions import api, documents
from xsys.conversions.documents import lengths_in
from xsys.core import codec, units
from xsys.core.catalog import strip_entry
from xsys.core.registry import default_registry

ROOT = Path(__file__).resolve().parent.parent
# fixtures/plugins/ holds plugin packages, not documents; filtered on the path below the
# checkout, so a checkout inside a folder called "plugins" still runs every fixture
FIXTURES = sorted(f for f in glob.glob(str(ROOT / "fixtures" / "**" / "*.yaml"), recursive=True)
                  if Path(f).relative_to(ROOT / "fixtures").parts[0] != "plugins")
TARGETS = default_registry().keys() + ["neutral"]
SETTINGS = settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))


# ---- writers ---------------------------------------------------------------------------

def json_reference(obj) -> bytes:
    return json.dumps(codec.to_builtins(obj), indent=2, ensure_ascii=False).encode("utf-8") + b"\n"


def yaml_reference(obj) -> bytes:
    return yaml.safe_dump(codec.to_builtins(obj), sort_keys=False, allow_unicode=True, width=100).encode("utf-8")


def _same(fast, reference, value):
    """Both give the same bytes, or both refuse the value with the same kind of error."""
    try:
        expected = reference(value)
    except Exception as exc:
        with pytest.raises(type(exc)):
            fast(value)
        return
    assert fast(value) == expected


scalars = (st.none() | st.booleans() | st.integers() | st.integers(min_value=-2**70, max_value=2**70)
           | st.floats() | st.sampled_from([1e16, 1e-5, 1e-7, 0.0001, -0.0, 1e15, 5e-324, math.inf, math.nan])
           | st.text() | st.text(alphabet=" \t\n-:#&*!|>'\"%@`{}[],?abc"))
keys = st.text(max_size=130) | st.sampled_from(["", "a" * 99, "a" * 100, "b" * 140, "on", "null"]) | st.integers()
plain = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
                     max_leaves=25)


@SETTINGS
@given(st.dictionaries(st.text(max_size=20), plain, max_size=6))
def test_json_writer_is_the_json_module(doc):
    _same(lambda v: documents.dumps(v, "json"), json_reference, doc)


@SETTINGS
@given(st.dictionaries(st.text(max_size=20), plain, max_size=6))
def test_yaml_writer_is_pyyaml_safe_dump(doc):
    _same(lambda v: documents.dumps(v, "yaml"), yaml_reference, doc)


@pytest.mark.parametrize("text", ["zażółć gęślą jaźń", "漢字 and kana かな", "emoji 🎲", "nel\x85", "bom\ufeff",
                                  "ls\u2028ps\u2029", "del\x7f", "tab\tnl\n", "a" * 300, "x: y # z", "",
                                  'a "quoted" name', 'back\\slash "and\\" quote', '"' * 120, 'k"' * 60])
def test_writers_on_awkward_text(text):
    doc = {"name": text, "notes": [text, {text[:120] or "k": text}], "n": 1.5e-7}
    _same(lambda v: documents.dumps(v, "json"), json_reference, doc)
    _same(lambda v: documents.dumps(v, "yaml"), yaml_reference, doc)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: str(Path(p).relative_to(ROOT)))
def test_every_fixture_converts_to_the_reference_bytes(path):
    for to in TARGETS:
        conv = api.convert(path, to)
        for explain in (False, True):
            plain = codec.to_builtins(conv.document)
            meta = conv.meta(explain)
            meta["digest"] = api.digest(conv.document)
            unit = api.default_registry().system(to).length_unit if to != "neutral" else ""
            if unit:  # lengths as the target's rulebook prints them (documents.lengths_in)
                plain = lengths_in(conv.document, plain, unit)
            head = {k: plain.pop(k) for k in ("system", "kind", "name") if k in plain}
            plain = {**head, **plain, "xsys": meta}
            assert api.dump(conv, "json", explain) == json_reference(plain)
            assert api.dump(conv, "yaml", explain) == yaml_reference(plain)


# ---- conversions without a trace -----------------------------------------------------------

@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: str(Path(p).relative_to(ROOT)))
def test_untraced_conversion_is_the_traced_one(path):
    for to in TARGETS:
        traced = api.convert(path, to)
        quiet = api.convert(path, to, trace=False)
        assert quiet.trace == []
        assert quiet.losses == traced.losses
        assert api.dump(quiet, "yaml") == api.dump(traced, "yaml")
        assert api.dump(quiet, "json") == api.dump(traced, "json")


def test_cli_without_explain_writes_what_the_traced_api_writes(tmp_path, capsys):
    from helpers import run_main

    src = ROOT / "fixtures" / "coc" / "npcs" / "investigator_38.yaml"
    out = tmp_path / "out.yaml"
    code, _, err = run_main(capsys, "convert", src, "--to", "gurps", "-o", out)
    assert code == 0, err
    assert out.read_bytes() == api.dump(api.convert(src, "gurps"), "yaml")
    code, _, err = run_main(capsys, "convert", src, "--to", "gurps", "-o", out, "--explain")
    assert code == 0, err
    assert out.read_bytes() == api.dump(api.convert(src, "gurps"), "yaml", explain=True)
    assert b"trace:" in out.read_bytes()


# ---- the canonical form ------------------------------------------------------------------

def canonical_reference(obj):
    """codec.canonical as it was written first: every field of every Struct looked at."""
    if isinstance(obj, msgspec.Struct):
        changes = {}
        for f in msgspec.structs.fields(type(obj)):
            if f.default is msgspec.NODEFAULT:
                continue
            value = getattr(obj, f.name)
            if value is not f.default and type(value) is type(f.default) and value == f.default:
                changes[f.name] = f.default
        for name in obj.__struct_fields__:
            if name in changes:
                continue
            value = getattr(obj, name)
            if isinstance(value, (msgspec.Struct, list, dict)):
                new = canonical_reference(value)
                if new is not value:
                    changes[name] = new
        return msgspec.structs.replace(obj, **changes) if changes else obj
    if isinstance(obj, list):
        new_list = [canonical_reference(v) for v in obj]
        return new_list if any(a is not b for a, b in zip(new_list, obj)) else obj
    if isinstance(obj, dict):
        new_dict = {k: canonical_reference(v) for k, v in obj.items()}
        return new_dict if any(new_dict[k] is not v for k, v in obj.items()) else obj
    return obj


def _identical(a, b) -> bool:
    """Equal, holding the very same objects where msgspec's omit_defaults looks at identity."""
    if isinstance(a, msgspec.Struct):
        return type(a) is type(b) and all(
            _identical(getattr(a, f), getattr(b, f)) for f in a.__struct_fields__)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_identical(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return isinstance(b, dict) and list(a) == list(b) and all(_identical(a[k], b[k]) for k in a)
    return a is b or (type(a) is type(b) and a == b and not isinstance(a, (str, int, float)))


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: str(Path(p).relative_to(ROOT)))
def test_canonical_form_is_the_reference_one(path):
    loaded = api.load(path)
    docs = [loaded.document]
    for to in TARGETS:
        try:
            docs.append(api.convert(loaded, to).document)
        except Exception:
            continue
    for doc in docs:
        fast, ref = codec.canonical(doc), canonical_reference(doc)
        assert codec.to_builtins(fast) == codec.to_builtins(ref)
        assert _identical(fast, ref)


# ---- exact arithmetic and units --------------------------------------------------------

def barrier_damage_reference(first, durability, armor, again=10, tail=None):
    from xsys.plugins.nwod import rules as nw

    tail = nw.TAIL if tail is None else tail
    out: dict[int, F] = {}
    left = F(1)
    for s, p in sorted(first.items()):
        if left < tail:
            out[-1] = out.get(-1, F(0)) + p
            continue
        left -= p
        if s > durability:
            for k, q in nw.successes(s - durability - armor, again).items():
                out[k] = out.get(k, F(0)) + p * q
        else:
            out[0] = out.get(0, F(0)) + p
    return {k: v for k, v in sorted(out.items()) if v}


@pytest.mark.parametrize("pool, durability, armor, again", [
    (0, 0, 0, 10), (1, 0, 0, 10), (3, 1, 0, 10), (5, 2, 1, 9), (7, 1, 2, 10), (9, 3, 0, 8), (4, 6, 0, 10),
])
def test_barrier_damage_is_the_fraction_sum(pool, durability, armor, again):
    from xsys.plugins.nwod import system as nw

    first = nw.successes(pool, again)
    for tail in (None, F(1, 1000)):
        got = nw.barrier_damage(first, durability, armor, again, *([tail] if tail else []))
        expected = barrier_damage_reference(first, durability, armor, again, tail)
        assert got == expected and list(got) == list(expected)


def movement_through_pint(npc):
    """pl_trudnosc.movement and movement_speeds as first written, through pint."""
    from xsys.plugins.pl_trudnosc import system as pl

    mv = pl.tables()["movement"]
    reg = units.ureg()
    unit = mv["length_unit"]
    trained = mv["military_training"] in npc.Zalety
    sprint = reg.Quantity(mv["sprint_per_motoryka"] * npc.Motoryka, unit)
    crawl = reg.Quantity(*pl._q(mv["crawl_trained"] if trained else mv["crawl"]))
    swim = reg.Quantity(mv["swim_per_atletyka"] * npc.Atletyka, unit)
    distances = {k: units.Length(float(q.to("m").magnitude)) for k, q in
                 (("sprint", sprint), ("crawl", crawl), ("swim", swim))}
    speeds = {k: units.Speed(float(reg.Quantity(float(d), "m / pl_tura").to("m/s").magnitude))
              for k, d in distances.items()}
    return distances, speeds


def test_polish_movement_is_what_pint_gives():
    from xsys.plugins.pl_trudnosc import system as pl

    reg = units.ureg()
    assert pl.turn_seconds() == float(reg.Quantity(1, "pl_tura").to("s").magnitude)
    for motoryka in range(1, 6):
        for atletyka in range(1, 6):
            for zalety in ([], [pl.tables()["movement"]["military_training"]]):
                npc = pl.Postać(imię="x", Motoryka=motoryka, Atletyka=atletyka, Zalety=zalety)
                distances, speeds = movement_through_pint(npc)
                assert pl.movement(npc) == distances and pl.movement_speeds(npc) == speeds
                assert {k: repr(v) for k, v in pl.movement_speeds(npc).items()} == {
                    k: repr(v) for k, v in speeds.items()}


def test_memoised_parsing_and_writing_of_quantities():
    a = units.parse("82 ft", units.Length)
    assert a == units.parse("82 ft", units.Length) and a == 82 * 0.3048
    with pytest.raises(units.UnitError):
        units.parse("82 kg", units.Length)
    with pytest.raises(units.UnitError):  # errors are not remembered as values
        units.parse("82 kg", units.Length)
    # equal magnitudes of different dimensions keep their own units
    assert units.to_text(units.Length(1.0)) == "1 m" and units.to_text(units.Mass(1.0)) == "1 kg"
    assert units.to_text(units.Energy(540.0)) == "540 J"


def test_stripped_catalog_entries_are_made_once_and_equal_fresh_ones():
    cat = default_registry().catalog()
    for entry in list(cat.weapons.values()) + list(cat.armor.values()):
        first = strip_entry(entry)
        assert strip_entry(entry) is first
        fields = {f: getattr(entry, f) for f in entry.__struct_fields__ if f not in ("id", "source", "feed", "era", "aliases")}
        assert first == type(first)(**{**fields, "catalog": entry.id})
