"""Reliability: malformed documents of every kind end in a clean error (exit 2, one line
naming the file, and a field path where there is one) or a valid conversion; never a
traceback, a hang or a memory blow-up. Depth follows XSYS_HYPOTHESIS_PROFILE."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xsys.conversions import api
from xsys.core.errors import XsysError

PROFILE = os.environ.get("XSYS_HYPOTHESIS_PROFILE", "default")
N = {"deep": 10_000}.get(PROFILE, 150)

TOY_NPC = {"system": "toy", "kind": "npc", "name": "Scout", "AGI": 9, "skills": {"Gun": 55, "Look": 40}}
NEUTRAL_SHOT = {
    "system": "neutral", "kind": "shot", "name": "s",
    "shooter": {"skill": 0.6, "posture": "kneeling", "speed": "1.4 m/s", "aim_time": "2 s"},
    "weapon": {"name": "Glock 17", "weapon_class": "handgun", "muzzle_energy": "540 J", "length": "204 mm"},
    "target": {"posture": "prone", "speed": "2 m/s",
               "cover": {"exposure": 0.5, "barrier": {"material": "concrete", "thickness": "15 cm"}},
               "armor": [{"name": "vest", "stops": "1480 J"}]},
    "distance": "30 m", "light": {"illuminance": "0.25 lx", "aids": ["weapon-light"]},
}
NEUTRAL_NPC = {"system": "neutral", "kind": "npc", "name": "N", "characteristics": {"dexterity": 0.6},
               "skills": {"handgun": 0.5}, "weapons": [NEUTRAL_SHOT["weapon"]],
               "armor": [{"name": "vest", "stops": "1480 J", "nij_level": "IIIA"}]}
TOY_SCENARIO = {"system": "toy", "kind": "scenario", "name": "A",
                "scenes": [{"name": "s", "combatants": [TOY_NPC | {"system": None}], "shots": [{"skill": 50, "range": "30 m"}]}]}
del TOY_SCENARIO["scenes"][0]["combatants"][0]["system"]
del TOY_SCENARIO["scenes"][0]["combatants"][0]["kind"]
SEEDS = [TOY_NPC, NEUTRAL_SHOT, NEUTRAL_NPC, TOY_SCENARIO]

BAD_SCALARS = st.sampled_from([
    None, True, -1, 0, 10**30, -1e308, 1e308, math.nan, math.inf, -math.inf, "", "x" * 300,
    "25 kg", "-3 m", "nan m", "inf lx", "1e999 m", "3 furlongz", "m", "25", "0.2 lx", "1.4 m/s",
    [], {}, [1, 2], {"a": 1}, "neutral", "gurps", "nope", "npc", "prone", "sideways",
]) | st.text(max_size=20) | st.integers() | st.floats()


def _paths(obj, prefix=()):
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, prefix + (i,))


def _set(obj, path, value):
    import copy

    obj = copy.deepcopy(obj)
    if not path:
        return value
    cur = obj
    for p in path[:-1]:
        cur = cur[p]
    cur[path[-1]] = value
    return obj


def _delete(obj, path):
    import copy

    obj = copy.deepcopy(obj)
    cur = obj
    for p in path[:-1]:
        cur = cur[p]
    if isinstance(cur, dict):
        cur.pop(path[-1], None)
    elif isinstance(cur, list) and cur:
        cur.pop(path[-1])
    return obj


@st.composite
def mutated(draw):
    doc = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(doc))
        path = draw(st.sampled_from(paths))
        action = draw(st.sampled_from(["set", "delete", "unknown", "nest"]))
        if action == "set":
            doc = _set(doc, path, draw(BAD_SCALARS))
        elif action == "delete" and path:
            doc = _delete(doc, path)
        elif action == "unknown":
            target = doc
            for p in path:
                target = target[p]
            if isinstance(target, dict):
                doc = _set(doc, path + ("bogus_field",), 1)
        else:
            deep = "x"
            for _ in range(draw(st.integers(10, 200))):
                deep = [deep]
            doc = _set(doc, path, deep)
    return doc


def _encode(doc, fmt):
    if fmt == "json":
        return json.dumps(doc, allow_nan=True).encode()
    if fmt == "yaml":
        return yaml.safe_dump(doc, allow_unicode=True).encode()
    import tomli_w

    try:
        return tomli_w.dumps(doc).encode()
    except Exception:
        return b"= not toml ["


RAW = st.sampled_from([
    b"", b"\xff\xfe\x00garbage", b"system: toy\nkind: npc\nname: \xc3\x28\n", b"{", b"[1, 2", b"key: [unclosed",
    b"!!python/object/apply:os.system ['echo pwned']", b"system: !!python/name:os.system toy\n",
    b"a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
    b"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n",
    b"system: toy\nsystem: toy\nkind: npc\nname: x\n", b"[" * 20000, b"{\"a\":" * 20000, b"a = [" * 5000,
    b"system = 'toy'\nkind = 'npc'\nname = 'x'\nAGI = nan\n", b"- - - - - - - -\n" * 10,
    b"system: toy\nkind: npc\nname: x\nAGI: .nan\n", b"system: neutral\nkind: shot\ndistance: .inf\n",
])


def _check(path: Path, to: str, capsys) -> None:
    # the Python API
    try:
        api.convert(path, to)
    except XsysError as exc:
        line = exc.line()
        assert "\n" not in line and str(path) in line
    # the command line
    from xsys.conversions.cli import main

    out = path.with_suffix(".out" + path.suffix)
    with pytest.raises(SystemExit) as ex:
        main(["convert", str(path), "--to", to, "-o", str(out)])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    if ex.value.code == 0:
        assert out.exists()
        api.load(out)  # a valid conversion is a valid document
    else:
        assert ex.value.code == 2, captured.err
        lines = captured.err.strip().splitlines()
        assert len(lines) == 1 and str(path) in lines[0], captured.err
        assert not out.exists()


@settings(max_examples=N, deadline=None, suppress_health_check=list(HealthCheck))
@given(doc=mutated(), fmt=st.sampled_from(["json", "yaml", "toml"]), to=st.sampled_from(["toy", "neutral"]))
def test_mutated_documents(doc, fmt, to, tmp_path_factory, capsys, toy_registry):
    path = tmp_path_factory.mktemp("fuzz") / f"doc.{fmt}"
    path.write_bytes(_encode(doc, fmt))
    _check(path, to, capsys)


@settings(max_examples=min(N, 60), deadline=None, suppress_health_check=list(HealthCheck))
@given(raw=RAW | st.binary(max_size=200), fmt=st.sampled_from(["json", "yaml", "toml"]))
def test_raw_bytes(raw, fmt, tmp_path_factory, capsys, toy_registry):
    path = tmp_path_factory.mktemp("raw") / f"doc.{fmt}"
    path.write_bytes(raw)
    _check(path, "toy", capsys)


def test_yaml_tags_never_construct_objects(tmp_path, toy_registry):
    f = tmp_path / "evil.yaml"
    f.write_text("system: toy\nkind: npc\nname: !!python/object/apply:os.system ['touch pwned']\n")
    with pytest.raises(XsysError) as err:
        api.load(f)
    assert "malformed YAML" in err.value.line()
    assert not Path("pwned").exists()


def test_alias_bomb_is_refused_quickly(tmp_path, toy_registry):
    import time

    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, 10):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i-1}"] * 10) + "]")
    f = tmp_path / "bomb.yaml"
    f.write_text("\n".join(lines) + "\n")
    t = time.perf_counter()
    with pytest.raises(XsysError) as err:
        api.load(f)
    assert time.perf_counter() - t < 2
    assert "YAML aliases expand the document too far" in err.value.line() and str(f) in err.value.line()


def test_input_size_limit(tmp_path, monkeypatch, toy_registry):
    from xsys.conversions import documents

    monkeypatch.setattr(documents, "MAX_INPUT_BYTES", 1000)
    f = tmp_path / "big.yaml"
    f.write_text("system: toy\nkind: npc\nname: '" + "x" * 2000 + "'\n")
    with pytest.raises(XsysError) as err:
        api.load(f)
    assert "input too large (expected at most 1000 bytes" in err.value.line()


def test_alias_count_limit(tmp_path, monkeypatch, toy_registry):
    from xsys.conversions import safe_yaml

    monkeypatch.setattr(safe_yaml, "MAX_ALIASES", 100)
    f = tmp_path / "many.yaml"
    f.write_text("a: &a [x]\nb: [" + ", ".join(["*a"] * 150) + "]\n")
    with pytest.raises(XsysError) as err:
        api.load(f)
    assert "$.b[100]: too many YAML aliases (expected at most 100" in err.value.line()
    # an alias to a scalar is one node wherever it is used: any number of them is fine
    assert safe_yaml.load_yaml("a: &a x\nb: [" + ", ".join(["*a"] * 150) + "]\n", "f")["b"][149] == "x"


def test_deep_json_is_a_clean_error(tmp_path, toy_registry):
    f = tmp_path / "deep.json"
    f.write_text("[" * 100000)
    with pytest.raises(XsysError) as err:
        api.load(f)
    assert str(f) in err.value.line()


# ---- attack families: dotted keys, unit overflow, special files at -o ----

def _toml_key_part(draw_part: str, style: int) -> str:
    return [draw_part, f'"{draw_part}"', f"'{draw_part}'"][style]


@st.composite
def dotted_toml(draw):
    """A toy NPC in TOML with one long dotted key or table header (quoted parts, blanks
    around the dots), sometimes hidden in a string or a comment."""
    parts = draw(st.integers(1, 100_000))
    styles = draw(st.lists(st.integers(0, 2), min_size=1, max_size=3))
    sep = draw(st.sampled_from([".", " . ", "\t.", "."]))
    key = sep.join(_toml_key_part("k", styles[i % len(styles)]) for i in range(parts))
    head = "system = 'toy'\nkind = 'npc'\nname = 'x'\n"
    where = draw(st.sampled_from(["key", "header", "array-header", "string", "comment", "inline"]))
    body = {"key": f"{key} = 1\n", "header": f"[{key}]\n", "array-header": f"[[{key}]]\n",
            "string": f"notes = \"{key.replace(chr(34), '')}\"\n", "comment": f"# {key}\n",
            "inline": f"t = {{ {key} = 1 }}\n"}[where]
    return head + body


@settings(max_examples=min(N, 40), deadline=None, suppress_health_check=list(HealthCheck))
@given(text=dotted_toml())
def test_dotted_toml_keys_are_refused_fast(text, tmp_path_factory, capsys, toy_registry):
    import time

    path = tmp_path_factory.mktemp("dotted") / "doc.toml"
    path.write_text(text)
    t = time.perf_counter()
    try:
        api.load(path)
    except XsysError as exc:
        assert str(path) in exc.line() and "\n" not in exc.line()
    assert time.perf_counter() - t < 2.0  # tomllib alone takes minutes on 100,000 parts
    _check(path, "toy", capsys)


HUGE = st.sampled_from(["1e308", "1.7976931348623157e308", "9e307", "-1e308", "1e300", "3.4e38", "1e200"])
UNITS = {("distance",): ["km", "mi", "yd", "m"], ("elevation",): ["km", "mi", "ft"],
         ("shooter", "aim_time"): ["h", "min", "s", "coc_round"], ("shooter", "speed"): ["km/h", "mph", "m/s"],
         ("target", "height"): ["km", "in"], ("light", "illuminance"): ["klx", "lx"],
         ("weapon", "muzzle_energy"): ["kJ", "J"], ("weapon", "mass"): ["t", "lb"]}


@settings(max_examples=min(N, 40), deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), fmt=st.sampled_from(["json", "yaml", "toml"]), to=st.sampled_from(["toy", "neutral"]))
def test_numbers_that_overflow_through_a_unit(data, fmt, to, tmp_path_factory, capsys, toy_registry):
    import copy

    doc = copy.deepcopy(NEUTRAL_SHOT)
    for field in data.draw(st.lists(st.sampled_from(sorted(UNITS)), min_size=1, max_size=3, unique=True)):
        value = f"{data.draw(HUGE)} {data.draw(st.sampled_from(UNITS[field]))}"
        cur = doc
        for p in field[:-1]:
            cur = cur.setdefault(p, {})
        cur[field[-1]] = value
    path = tmp_path_factory.mktemp("overflow") / f"doc.{fmt}"
    path.write_bytes(_encode(doc, fmt))
    _check(path, to, capsys)  # a clean error, or an output that reads back


def _special(kind: str, where: Path) -> Path:
    import stat as st_

    target = where / "out.yaml"
    if kind == "char-device":
        os.mknod(target, 0o666 | st_.S_IFCHR, os.makedev(1, 3))
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "symlink":
        (where / "real.yaml").write_text("old\n")
        target.symlink_to("real.yaml")
    elif kind == "dangling-symlink":
        target.symlink_to("nothing-yet.yaml")
    elif kind == "symlink-to-device":
        try:  # a private /dev/null: an xsys that replaced it would not break the machine's
            os.mknod(where / "null", 0o666 | st_.S_IFCHR, os.makedev(1, 3))
            target.symlink_to("null")
        except PermissionError:
            target.symlink_to("/dev/null")  # only root could replace it
    elif kind == "symlink-loop":
        target.symlink_to("out.yaml")
    elif kind == "folder":
        target.mkdir()
    elif kind == "under-a-file":
        (where / "file").write_text("x")
        target = where / "file" / "out.yaml"
    elif kind == "read-only-file":
        target.write_text("old\n")
        target.chmod(0o444)
    return target


SPECIAL = ["char-device", "fifo", "symlink", "dangling-symlink", "symlink-to-device", "symlink-loop", "folder",
           "under-a-file", "read-only-file"]


@pytest.mark.parametrize("kind", SPECIAL)
def test_special_files_at_output(kind, tmp_path, capsys, toy_registry):
    """Whatever is at -o: a regular file (or a new one) is replaced whole, anything else is
    written through (never replaced), or a one-line error; no temporary file is left."""
    import stat as st_
    import threading

    from xsys.conversions.cli import main

    src = tmp_path / "npc.yaml"
    src.write_text(yaml.safe_dump(TOY_NPC))
    where = tmp_path / "o"
    where.mkdir()
    try:
        target = _special(kind, where)
    except PermissionError:
        pytest.skip("needs root")
    before = {p.name: os.lstat(p).st_mode for p in where.iterdir()}
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(target.read_bytes()), daemon=True)
    if kind == "fifo":
        reader.start()
    with pytest.raises(SystemExit) as ex:
        main(["convert", str(src), "--to", "toy", "-q", "-o", str(target)])
    if kind == "fifo":
        reader.join(30)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    if ex.value.code:
        assert ex.value.code == 2 and len(err.strip().splitlines()) == 1 and str(target) in err, err
    after = {p.name: os.lstat(p).st_mode for p in where.iterdir()}
    for name, mode in before.items():  # nothing was turned into something else
        if not st_.S_ISREG(mode):
            assert after.get(name) == mode, (name, oct(mode), after)
    assert not [n for n in after if n.startswith(".")], after
    if kind == "fifo":
        assert ex.value.code == 0 and got and got[0].startswith(b"system: toy\n")
    if kind in ("symlink", "dangling-symlink"):
        assert ex.value.code == 0
        real = where / ("real.yaml" if kind == "symlink" else "nothing-yet.yaml")
        assert real.read_text().startswith("system: toy\n")
