"""Streamed rosters (conversions/stream.py): the output is byte for byte what the whole
conversion writes, for rosters made of every system's fixture NPCs and for generated
rosters; errors name the NPC; the input limit applies per NPC; nothing partial is left."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import fixture_npcs
from xsys.conversions import api, documents, stream, stream_read, stream_render

ROOT = Path(__file__).resolve().parent.parent
SYSTEMS = ["coc", "coc7", "coc-zh", "gurps", "nwod", "pl-trudnosc", "neutral"]


def _fixture_roster(system: str, fmt: str, folder: Path, npcs_last: bool = True) -> Path:
    npcs = fixture_npcs(system)
    assert npcs, system
    if npcs_last:
        doc = {"system": system, "kind": "roster", "name": f"every {system} fixture", "npcs": npcs}
    else:  # keys after the list: read in a second pass (YAML) or from the head (JSON)
        doc = {"system": system, "kind": "roster", "npcs": npcs, "name": "après", "notes": "line 1\nline 2\n"}
    p = folder / f"{system}{'' if npcs_last else '-after'}.{fmt}"
    p.write_bytes(documents.dumps(doc, fmt))
    return p


def _whole(p: Path, to: str, fmt: str, losses: str = "grouped", **kw) -> tuple[bytes, list[str]]:
    data, _ = documents.read_with_format(str(p))
    conv = api.convert(api.from_plain(data, str(p)), to, trace=False, **kw)
    return api.dump(conv, fmt, losses=losses), [x.render() for x in conv.loss_report(losses) if x.level == "warning"]


def _streamed(p: Path, to: str, **kw) -> tuple[bytes, list[str]]:
    s = stream.convert_file(str(p), to, **kw)
    assert s is not None, f"{p} was not streamed"
    try:
        return s.output.read_bytes(), list(s.warnings())
    finally:
        s.discard()


@pytest.mark.parametrize("losses", ["grouped", "full"])
@pytest.mark.parametrize("fmt", ["json", "yaml"])
@pytest.mark.parametrize("system", SYSTEMS)
def test_fixture_rosters_stream_to_the_same_bytes(tmp_path, system, fmt, losses):
    p = _fixture_roster(system, fmt, tmp_path)
    for to in SYSTEMS:
        assert _streamed(p, to, losses=losses) == _whole(p, to, fmt, losses), (system, to, fmt)


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_keys_after_the_npcs_list(tmp_path, fmt):
    p = _fixture_roster("coc", fmt, tmp_path, npcs_last=False)
    assert _streamed(p, "gurps") == _whole(p, "gurps", fmt)


def test_generated_rosters_stream_to_the_same_bytes(tmp_path):
    from xsys.devtools.bench import _generated_rosters

    rosters = _generated_rosters(120, seed=11)
    keys = sorted(rosters)
    for i, key in enumerate(keys):
        for fmt in ("json", "yaml"):
            p = tmp_path / f"{key}.{fmt}"
            p.write_bytes(documents.dumps(rosters[key], fmt))
            to = keys[(i + 1) % len(keys)]
            assert _streamed(p, to) == _whole(p, to, fmt), (key, to, fmt)
            assert _streamed(p, to, losses="full") == _whole(p, to, fmt, "full"), (key, to, fmt)
            # and written the other way round
            other = "yaml" if fmt == "json" else "json"
            assert _streamed(p, to, out_fmt=other) == _whole(p, to, other), (key, to, fmt, other)


def test_odd_values_take_the_reference_writers(tmp_path):
    # a float the fast JSON writer would write in another form, escapes and control
    # characters the fast YAML writer leaves to PyYAML's: chunk by chunk, as the whole does
    doc = {"system": "neutral", "kind": "roster", "name": "odd", "npcs": [
        {"name": "plain", "skills": {"handgun": 0.5}},
        {"name": "tab\there \"quoted\" \u2028", "skills": {"handgun": 0.00001}},
        {"name": "émile 😀", "notes": "x" * 300},
    ]}
    for fmt in ("json", "yaml"):
        p = tmp_path / f"odd.{fmt}"
        p.write_bytes(documents.dumps(doc, fmt))
        for to in ("neutral", "gurps", "coc"):
            assert _streamed(p, to) == _whole(p, to, fmt), (fmt, to)


def test_settings_are_kept(tmp_path):
    p = _fixture_roster("neutral", "yaml", tmp_path)
    data = documents.read_plain(p)
    data["settings"] = {"pl-trudnosc": {"mechanic": "per-die-d10"}}
    p.write_bytes(documents.dumps(data, "yaml"))
    assert _streamed(p, "pl-trudnosc") == _whole(p, "pl-trudnosc", "yaml")


def test_what_is_not_a_plain_roster_is_converted_whole(tmp_path):
    npc = ROOT / "fixtures" / "coc" / "npcs" / "investigator_38.yaml"
    assert stream.convert_file(str(npc), "gurps") is None
    p = _fixture_roster("coc", "yaml", tmp_path)
    out = tmp_path / "out.yaml"
    out.write_bytes(_whole(p, "gurps", "yaml")[0])
    assert stream.convert_file(str(out), "coc") is None  # it remembers its source
    empty = tmp_path / "empty.json"
    empty.write_text('{"system": "coc", "kind": "roster", "npcs": []}')
    assert stream.convert_file(str(empty), "gurps") is None


def test_strict_fails_as_the_whole_conversion_does(tmp_path):
    p = _fixture_roster("coc", "json", tmp_path)
    with pytest.raises(api.LossError) as whole:
        _whole(p, "gurps", "json", strict=True)
    with pytest.raises(api.LossError) as streamed:
        stream.convert_file(str(p), "gurps", strict=True)
    assert streamed.value.line() == whole.value.line()
    assert not [f for f in os.listdir(tmp_path) if f.startswith(".xsys-")]


# ---- stat blocks seen before ---------------------------------------------------------------

def _repeated_roster(folder: Path, fmt: str) -> tuple[Path, int]:
    """Every coc fixture NPC four times under new names, and twice under names that its output
    or its losses also say (a weapon's name, its own old name again): (the roster, how many
    of its NPCs a conversion must convert)."""
    npcs = fixture_npcs("coc")
    out = []
    for r in range(4):
        out += [{**npc, "name": f"{npc['name']} #{r}"} for npc in npcs]
    awkward = [{**npc, "name": npc["weapons"][0]["name"]} for npc in npcs if npc.get("weapons")]
    out += awkward + [{**npc, "name": "Fist/Punch"} for npc in npcs]
    p = folder / f"repeated.{fmt}"
    p.write_bytes(documents.dumps({"system": "coc", "kind": "roster", "name": "repeats", "npcs": out}, fmt))
    return p, len(npcs)


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_a_stat_block_seen_before_converts_once(tmp_path, fmt, monkeypatch):
    """A roster's NPC whose stat block came before under another name is the earlier one's
    conversion under its own name (conversions/stream_seen.py): the same bytes as converting
    each NPC, grouped and in full, into systems that name the field otherwise (Polish imię);
    an NPC whose name is also something its conversion says (its weapon, a skill) is
    converted on its own."""
    from xsys.conversions import crossing

    p, distinct = _repeated_roster(tmp_path, fmt)
    armed = sum(1 for npc in fixture_npcs("coc") if npc.get("weapons"))
    calls = []
    real = crossing.cross
    monkeypatch.setattr(crossing, "cross", lambda *a, **k: calls.append(1) or real(*a, **k))
    for to in ("gurps", "pl-trudnosc", "coc7"):
        for losses in ("grouped", "full"):
            calls.clear()
            assert _streamed(p, to, losses=losses) == _whole(p, to, fmt, losses), (to, losses)
            streamed = len(calls) - 1  # the whole conversion converts the roster in one call
            # each stat block once; each NPC named after its weapon again (its output says the name);
            # one named Fist/Punch again where its output or a loss says "Fist/Punch"; no plain repeat
            assert distinct + armed <= streamed <= distinct + armed + distinct, (to, losses, streamed)


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_systems_repeated_stat_blocks_stream_to_the_same_bytes(tmp_path, system):
    """Each system's fixture NPCs three times under new names (a Polish roster names them under
    imię): streamed, the same bytes as converted whole, grouped and in full."""
    from xsys.core.sheet import npc_name_field

    typ = documents.doc_type(system, "npc") if system != "neutral" else None
    field = (npc_name_field(typ) if typ is not None else None) or "name"
    npcs = [{**npc, field: f"{npc[field]} #{r}"} for r in range(3) for npc in fixture_npcs(system)]
    p = tmp_path / f"{system}.json"
    p.write_bytes(documents.dumps({"system": system, "kind": "roster", "name": "repeats", "npcs": npcs}, "json"))
    for to in [k for k in ("gurps", "pl-trudnosc") if k != system][:1] + ["neutral" if system != "neutral" else "coc"]:
        for losses in ("grouped", "full"):
            assert _streamed(p, to, losses=losses) == _whole(p, to, "json", losses), (system, to, losses)


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_a_stat_block_stated_again_is_not_read_again(tmp_path, fmt, monkeypatch):
    """A stat block the file states again under another name is neither read nor converted
    again, and its NPC is written as the whole conversion writes it whatever its name is: one
    with a quote, a backslash, a line break, a number-like run, non-ASCII letters; a name the
    source's stat block refuses (too long, not text) is read, and refused as the whole
    conversion refuses it."""
    base = {"STR": 9, "CON": 11, "SIZ": 10, "DEX": 12, "APP": 13, "INT": 16, "POW": 15, "EDU": 18, "HP": 11,
            "skills": {"Handgun": 45, "Dodge": 30},
            "weapons": [w for npc in fixture_npcs("coc") for w in npc.get("weapons", ())][:1]}
    names = ["cultist", "cultist 2", 'the "Doctor"', "back\\slash", "two\nlines", "1e5 of them", "Łucja Żak",
             "agent 0.00001", "ordinary"]
    npcs = [{"name": name, **base} for name in names]
    p = tmp_path / f"cult.{fmt}"
    p.write_bytes(documents.dumps({"system": "coc", "kind": "roster", "name": "cult", "npcs": npcs}, fmt))
    read = []
    real = api.from_plain
    monkeypatch.setattr(api, "from_plain", lambda *a, **k: read.append(1) or real(*a, **k))
    for losses in ("grouped", "full"):
        read.clear()
        assert _streamed(p, "gurps", losses=losses) == _whole(p, "gurps", fmt, losses), losses
        assert len(read) == 2, read  # the first NPC, and the whole conversion's one reading
    for bad in ("x" * 201, 7):
        q = tmp_path / f"bad.{fmt}"
        q.write_bytes(documents.dumps({"system": "coc", "kind": "roster", "name": "cult",
                                       "npcs": [*npcs[:3], {**base, "name": bad}]}, fmt))
        with pytest.raises(api.InputError) as whole:
            _whole(q, "gurps", fmt)
        with pytest.raises(api.InputError) as streamed:
            stream.convert_file(str(q), "gurps")
        assert streamed.value.line() == whole.value.line()
        assert "$.npcs[3].name" in streamed.value.line()


def test_a_strict_roster_of_repeats_names_the_first_loss(tmp_path):
    p, _ = _repeated_roster(tmp_path, "json")
    with pytest.raises(api.LossError) as whole:
        _whole(p, "gurps", "json", strict=True)
    with pytest.raises(api.LossError) as streamed:
        stream.convert_file(str(p), "gurps", strict=True)
    assert streamed.value.line() == whole.value.line()


# ---- through the command line -------------------------------------------------------------

def _xsys(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    exe = Path(sys.executable).with_name("xsys")
    return subprocess.run([str(exe), *map(str, args)], capture_output=True, env={**os.environ, **(env or {})})


def _big_roster(tmp_path: Path, n: int, bad: int | None = None, huge: int | None = None) -> Path:
    base = {"STR": 9, "CON": 11, "SIZ": 10, "DEX": 12, "APP": 13, "INT": 16, "POW": 15, "EDU": 18, "HP": 11}
    npcs = [{"name": f"cultist {i}", **base, "skills": {"Handgun": 30 + i % 60}} for i in range(n)]
    if bad is not None:
        npcs[bad]["DEX"] = "fast"
    if huge is not None:
        npcs[huge]["name"] = "x" * 3000
    p = tmp_path / "cult.json"
    p.write_text(json.dumps({"system": "coc", "kind": "roster", "name": "cult", "npcs": npcs}))
    return p


def test_a_roster_above_the_input_limit_is_streamed(tmp_path):
    p = _big_roster(tmp_path, 300)
    limit = {"XSYS_MAX_INPUT_BYTES": "2000"}  # the file is ~40 times that, each NPC far below it
    out = tmp_path / "out.json"
    r = _xsys("convert", p, "--to", "gurps", "-o", out, "-q", env=limit)
    assert r.returncode == 0, r.stderr.decode()
    got = json.loads(out.read_bytes())
    assert len(got["npcs"]) == 300 and got["npcs"][299]["name"] == "cultist 299"
    r = _xsys("convert", p, "--to", "gurps", "-q")  # standard output, no limit to pass
    assert r.returncode == 0 and r.stdout == out.read_bytes()


def test_the_limit_applies_per_npc_and_states_its_size(tmp_path):
    p = _big_roster(tmp_path, 300, huge=17)
    text = p.read_bytes()
    start = text.index(b'{"name": "xxx')
    size = text.index(b"}}", start) + 2 - start  # the NPC's own bytes
    out = tmp_path / "out.json"
    r = _xsys("convert", p, "--to", "gurps", "-o", out, env={"XSYS_MAX_INPUT_BYTES": "2000"})
    assert r.returncode == 2
    err = r.stderr.decode().strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith(f"{p}: $.npcs[17]: input too large (expected at most 2000 bytes")
    assert err[0].endswith(f"found {size} bytes)"), err
    assert not out.exists() and not [f for f in os.listdir(tmp_path) if f.startswith(".xsys-")]


def test_a_bad_npc_in_a_big_roster_is_one_line_naming_it(tmp_path):
    p = _big_roster(tmp_path, 300, bad=211)
    out = tmp_path / "out.json"
    r = _xsys("convert", p, "--to", "gurps", "-o", out, env={"XSYS_MAX_INPUT_BYTES": "2000"})
    assert r.returncode == 2
    err = r.stderr.decode().strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"{p}: $.npcs[211].DEX"), err
    assert not out.exists() and not [f for f in os.listdir(tmp_path) if f.startswith(".xsys-")]


def test_the_cli_writes_what_the_whole_conversion_writes(tmp_path):
    for fmt in ("json", "yaml"):
        p = _fixture_roster("gurps", fmt, tmp_path)
        out = tmp_path / f"out.{fmt}"
        r = _xsys("convert", p, "--to", "nwod", "-o", out)
        assert r.returncode == 0, r.stderr.decode()
        ref, warnings = _whole(p, "nwod", fmt)
        assert out.read_bytes() == ref
        assert r.stderr.decode().splitlines() == [f"{p}: {w}" for w in warnings]


def test_the_limit_applies_per_npc_in_yaml_too(tmp_path):
    p = _big_roster(tmp_path, 200, huge=5)
    y = tmp_path / "cult.yaml"
    y.write_bytes(documents.dumps(json.loads(p.read_text()), "yaml"))
    out = tmp_path / "out.yaml"
    limit = {"XSYS_MAX_INPUT_BYTES": "2000"}
    r = _xsys("convert", y, "--to", "gurps", "-o", out, env=limit)
    err = r.stderr.decode().strip().splitlines()
    assert r.returncode == 2 and len(err) == 1, err
    assert err[0].startswith(f"{y}: $.npcs[5]: input too large (expected at most 2000 bytes") and "characters)" in err[0]
    assert not out.exists()
    y.write_bytes(documents.dumps(json.loads(_big_roster(tmp_path, 200).read_text()), "yaml"))
    r = _xsys("convert", y, "--to", "gurps", "-o", out, "-q", env=limit)
    assert r.returncode == 0, r.stderr.decode()


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_items_rendered_together_are_the_items_rendered_one_by_one(fmt):
    # an NPC's losses are written by one call of the writer; odd values take the reference
    # writers one item at a time, as before
    odd = [
        {"kind": "rounded", "path": "$.npcs[3].STR", "message": "plain", "level": "info"},
        {"kind": "assumed", "path": "$.x", "message": "ünïcödé – 漢字 \u2028 tab\there", "n": 1.5e300},
        {"k": 0.1, "big": 12345678901234567890, "neg": -0.0, "nested": {"a": [1, 2.5, None, True]}},
        {"x" * 120: "a key longer than a hundred characters"},
        {"ctl": "bell \x07 and DEL \x7f", "empty": {}, "list": []},
        {"message": "line one\nline two", "q": "quotes \" and 'single'"},
    ]
    keys = ("xsys", "losses")
    for indent in (b"", b"    "):
        for items in ([odd[0], odd[1]], odd, [odd[0], odd[5], odd[2]], [odd[2]], odd[:1] * 3):
            one_by_one = (b",\n" if fmt == "json" else b"").join(stream_render.render(p, fmt, keys, indent) for p in items)
            assert stream_render.render_items(items, fmt, keys, indent) == one_by_one


# ---- finding the NPCs in a JSON roster ------------------------------------------------------

def _nested(depth: int) -> object:
    value: object = "deep ] } \" end"
    for i in range(depth):
        value = {"k{": [value, "[", i]} if i % 2 else [value, {"}": 1}]
    return value


@pytest.mark.parametrize("chunk", [64, 1000, stream_read.CHUNK])
def test_each_npc_is_found_whole_however_deep_and_wherever_the_buffer_ends(tmp_path, monkeypatch, chunk):
    """The NPCs of a JSON roster are found where they begin and end (stream_read.scan_json): an
    NPC whose brackets nest deeper than the whole-object matcher goes, strings that hold
    brackets and escaped quotes, an NPC cut by the end of the reading buffer; the head is the
    document without them."""
    monkeypatch.setattr(stream_read, "CHUNK", chunk)
    npcs = [{"name": f"npc {i}", "notes": 'a "quoted" {bracket} [list]\\', "deep": _nested(i)} for i in range(12)]
    doc = {"system": "neutral", "kind": "roster", "name": "nests [ {", "npcs": npcs, "notes": "after ]"}
    for text in (json.dumps(doc).encode(), json.dumps(doc, indent=3).encode()):
        p = tmp_path / "r.json"
        p.write_bytes(text)
        layout = stream_read.scan_json(str(p))
        assert [json.loads(text[a:b]) for a, b in zip(layout.starts, layout.ends)] == npcs
        assert json.loads(layout.head) == {**doc, "npcs": []}
