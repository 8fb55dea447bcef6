"""Robust input and output: `-o` writes through what is not a regular file,
hostile inputs (TOML dotted-key bombs, numbers that overflow through a unit, duplicate
JSON keys, big rosters) end in one clear line and exit 2, and what xsys writes it reads
back. CLI cases run the real `xsys` in a subprocess; the rest use the Python API."""

from __future__ import annotations

import contextlib
import json
import io
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xsys.conversions import api, documents, output, safe_yaml
from xsys.core import codec, units
from xsys.core.errors import InputError, UnitError, XsysError

ROOT = Path(__file__).resolve().parent.parent
XSYS = str(Path(sys.executable).with_name("xsys"))
NPC = ROOT / "fixtures" / "coc" / "npcs" / "investigator_38.yaml"
WEAPON = {"name": "Glock 17", "weapon_class": "handgun", "muzzle_energy": "540 J"}


def run(*args, env=None, stdin=None, cwd=None, umask=None, timeout=60):
    full_env = {**os.environ, **(env or {})}
    pre = (lambda: os.umask(umask)) if umask is not None else None
    return subprocess.run([XSYS, *map(str, args)], capture_output=True, env=full_env, input=stdin, cwd=cwd,
                          preexec_fn=pre, timeout=timeout)


def clean_error(r, *parts):
    """Exit 2, one line on stderr holding every part, no traceback; the line."""
    err = r.stderr.decode("utf-8", "replace")
    assert r.returncode == 2, err
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for part in parts:
        assert str(part) in lines[0], err
    return lines[0]


def convert_to(tmp_path, src, *extra, env=None):
    out = tmp_path / ("out" + Path(src).suffix)
    r = run("convert", src, "--to", "gurps", "-q", "-o", out, *extra, env=env)
    return r, out


def neutral_shot(**fields):
    return {"system": "neutral", "kind": "shot", "weapon": WEAPON, "distance": "10 m", **fields}


def write_yaml(path: Path, data) -> Path:
    import yaml

    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


# ---- -o: what is not a regular file is written through ------------------------------

def test_output_to_a_character_device_writes_through(tmp_path):
    dev = tmp_path / "fakenull"
    try:
        os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, OSError):
        pytest.skip("creating a device node needs root")
    r = run("convert", NPC, "--to", "gurps", "-q", "-o", dev)
    assert r.returncode == 0, r.stderr.decode()
    assert stat.S_ISCHR(os.lstat(dev).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fakenull"]


def test_output_to_a_fifo_writes_through(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    r = run("convert", NPC, "--to", "gurps", "-q", "-o", fifo)
    reader.join(30)
    assert r.returncode == 0, r.stderr.decode()
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got and got[0].startswith(b"system: gurps\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_output_through_a_symlink_replaces_its_target_and_keeps_modes(tmp_path):
    target = tmp_path / "real.yaml"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.yaml"
    link.symlink_to("real.yaml")
    dangling = tmp_path / "dangling.yaml"
    dangling.symlink_to("created.yaml")
    for dest in (link, dangling):
        r = run("convert", NPC, "--to", "gurps", "-q", "-o", dest, umask=0o027)
        assert r.returncode == 0, r.stderr.decode()
    assert link.is_symlink() and dangling.is_symlink()
    assert target.read_text().startswith("system: gurps\n")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the replaced file's mode
    created = tmp_path / "created.yaml"
    assert created.read_text().startswith("system: gurps\n")
    assert stat.S_IMODE(created.stat().st_mode) == 0o640  # 0666 & ~umask 027, not mkstemp's 0600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["created.yaml", "dangling.yaml", "link.yaml", "real.yaml"]


def test_output_name_at_the_file_name_limit(tmp_path):
    long = tmp_path / ("n" * 250 + ".yaml")  # 255 bytes: NAME_MAX
    r = run("convert", NPC, "--to", "gurps", "-q", "-o", long)
    assert r.returncode == 0, r.stderr.decode()
    assert long.read_text().startswith("system: gurps\n")
    r = run("convert", NPC, "--to", "gurps", "-q", "-o", long)  # replacing it too
    assert r.returncode == 0, r.stderr.decode()
    assert [p.name for p in tmp_path.iterdir()] == [long.name]


@pytest.mark.parametrize("tmpfile", [True, False], ids=["O_TMPFILE", "named-temp"])
def test_write_atomic_modes_and_no_leftovers(tmp_path, monkeypatch, tmpfile):
    if not tmpfile:
        monkeypatch.delattr(os, "O_TMPFILE", raising=False)
    old = os.umask(0o022)
    try:
        new = tmp_path / "new.yaml"
        output.write_atomic(new, b"a: 1\n")
        assert stat.S_IMODE(new.stat().st_mode) == 0o644
        kept = tmp_path / "kept.yaml"
        kept.write_text("x")
        kept.chmod(0o604)
        output.write_atomic(kept, b"b: 2\n")
        assert kept.read_bytes() == b"b: 2\n" and stat.S_IMODE(kept.stat().st_mode) == 0o604
    finally:
        os.umask(old)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.yaml", "new.yaml"]


def test_leftover_temporary_files_are_removed_at_the_next_start(tmp_path):
    # a run killed while its temporary folder held a half-written output
    code = ("import os, signal, sys\nfrom pathlib import Path\nfrom xsys.conversions.output import TempFolder\n"
            "t = TempFolder(Path(sys.argv[1]))\nt.file('out').write_bytes(b'partial')\n"
            "os.kill(os.getpid(), signal.SIGKILL)\n")
    killed = subprocess.run([sys.executable, "-c", code, str(tmp_path)])
    assert killed.returncode == -signal.SIGKILL
    [left] = tmp_path.iterdir()
    assert sorted(p.name for p in left.iterdir()) == ["out.part", "owner"]
    # names earlier versions used carry no proof that xsys made them: never removed
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    dead = gone.pid
    unproven = [f".xsys-{dead}-0123abcd.tmp", f".out.yaml.{dead}.7f3a.complete", ".out.yaml.abcd1234.part"]
    hour_ago = time.time() - 3600
    for n in unproven:
        (tmp_path / n).write_text("partial")
        os.utime(tmp_path / n, (hour_ago, hour_ago))
    r = run("convert", NPC, "--to", "gurps", "-q", "-o", tmp_path / "out.yaml")
    assert r.returncode == 0, r.stderr.decode()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(unproven + ["out.yaml"])


def test_output_errors_are_one_line(tmp_path):
    full = tmp_path / "full"
    try:  # a private /dev/full: an xsys that replaced it would not break the machine's
        os.mknod(full, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    except (PermissionError, OSError):
        full = Path("/dev/full")  # only root could replace it
    if not full.exists():
        pytest.skip("no /dev/full")
    clean_error(run("convert", NPC, "--to", "gurps", "-q", "-o", full),
                full, "cannot write output: No space left on device")
    assert stat.S_ISCHR(os.lstat(full).st_mode)
    clean_error(run("convert", NPC, "--to", "gurps", "-q", "-o", tmp_path), tmp_path, "cannot write output: it is a folder")


# ---- TOML dotted-key bombs ----------------------------------------------------------

@contextlib.contextmanager
def deadline(seconds: float):
    """Fail (instead of hanging) if the block runs longer than `seconds`."""
    def expired(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@pytest.mark.parametrize("text", [
    "system = 'neutral'\nkind = 'npc'\nname = 'x'\n" + "a" + ".a" * 50_000 + " = 1\n",
    "system = 'neutral'\nkind = 'npc'\nname = 'x'\n[" + "a" + ".a" * 500_000 + "]\n",
    "system = 'neutral'\nkind = 'npc'\n'a'" + '."a"' * 70 + " = 1\n",
], ids=["dotted-key", "table-header", "quoted-parts"])
def test_toml_dotted_key_bomb_is_refused_fast(tmp_path, text):
    f = tmp_path / "bomb.toml"
    f.write_text(text)
    t = time.perf_counter()
    with deadline(10), pytest.raises(XsysError) as err:
        documents.read_plain(f)
    assert time.perf_counter() - t < 1.0
    line = err.value.line()
    assert line.startswith(f"{f}: TOML key has too many dotted parts (expected at most 64 parts, found ")
    assert " parts at line " in line


def test_toml_dotted_key_bomb_cli(tmp_path):
    f = tmp_path / "bomb.toml"
    f.write_text("system = 'neutral'\nkind = 'npc'\nname = 'x'\n" + "a" + ".a" * 50_000 + " = 1\n")
    r, out = convert_to(tmp_path, f)
    clean_error(r, f, "TOML key has too many dotted parts", "expected at most 64 parts", "found 50001 parts at line 4")
    assert not out.exists()
    # the same guard protects the catalog
    r = run("catalog", "material", env={"XSYS_CATALOG": str(f)}, timeout=20)
    clean_error(r, f, "TOML key has too many dotted parts")


def test_toml_keys_that_are_not_bombs_pass():
    codec.check_toml_keys("a" + ".a" * 63 + " = 1\n")  # 64 parts
    codec.check_toml_keys('x = "' + "a." * 1000 + '"\n# ' + "b." * 1000 + "\ny = [" + "1.5, " * 1000 + "]\n")
    codec.check_toml_keys("x = '''\n" + "c." * 1000 + "'''\n")
    with pytest.raises(InputError):
        codec.check_toml_keys("a" + ".a" * 64 + " = 1\n")


# ---- numbers that overflow through a unit ---------------------------------------------

def test_units_refuse_values_that_overflow_when_converted():
    with pytest.raises(UnitError) as err:
        units.parse("1e308 km", units.Length)
    assert err.value.line() == ("a length too large (expected a size of at most 1.798e+308 m, "
                                "found '1e308 km')")
    with pytest.raises(UnitError):
        units.parse("-1e308 km", units.Length)
    with pytest.raises(UnitError):
        units.parse("1e308 h", units.Duration)
    assert float(units.parse("1e300 m", units.Length)) == 1e300


@pytest.mark.parametrize("fields, path, what", [
    ({"distance": "1e308 km"}, "$.distance", "a length too large"),
    ({"shooter": {"aim_time": "1e308 h"}}, "$.shooter.aim_time", "a time too large"),
], ids=["distance", "aim_time"])
def test_unit_overflow_is_a_clear_error(tmp_path, fields, path, what):
    f = write_yaml(tmp_path / "shot.yaml", neutral_shot(**fields))
    r, out = convert_to(tmp_path, f)
    clean_error(r, f, f"{path}: {what}", "expected a size of at most 1.798e+308", "found '1e308")
    assert not out.exists()


# ---- JSON and TOML: duplicate keys, byte order marks, standard input ------------------

def test_duplicate_json_keys_are_refused(tmp_path):
    dup = tmp_path / "dup.json"
    dup.write_text('{"system": "neutral", "kind": "npc", "name": "x",\n'
                   ' "skills": {"Handgun": 0.5, "Dodge": 0.2, "Handgun": 0.9}}')
    top = tmp_path / "top.json"
    top.write_text('{"system": "neutral", "kind": "npc", "name": "x", "name": "y"}')
    fine = tmp_path / "fine.json"  # the same text inside strings is no key
    fine.write_text('{"system": "neutral", "kind": "npc", "name": "x", "notes": "\\"name\\": 1, \\"name\\": 2"}')
    r, out = convert_to(tmp_path, dup)
    clean_error(r, dup, "$.skills.Handgun: duplicate key", "found 'Handgun' twice")
    assert not out.exists()
    with pytest.raises(InputError) as err:
        documents.read_plain(top)
    assert err.value.line() == f"{top}: $.name: duplicate key (expected each key once in an object, found 'name' twice)"
    assert documents.read_plain(fine)["notes"] == '"name": 1, "name": 2'


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=12)


def _keys_in(value) -> int:
    if isinstance(value, dict):
        return len(value) + sum(_keys_in(v) for v in value.values())
    if isinstance(value, list):
        return sum(_keys_in(v) for v in value)
    return 0


_WRITERS = [msgspec.json.encode, lambda v: msgspec.json.format(msgspec.json.encode(v), indent=2),
            lambda v: json.dumps(v, separators=(", ", " :\n "), ensure_ascii=False).encode()]


@settings(max_examples=300, deadline=None)
@given(_JSON_VALUES, st.sampled_from(range(len(_WRITERS))))
def test_json_keys_are_counted_with_and_without_escapes(value, writer):
    """The duplicate-key check counts an object's keys in the text (documents._json_keys; a
    text with no escape is counted without taking its strings out first): the count is the
    number of keys the value has, whatever its strings hold (quotes, colons, backslashes) and
    however the text is laid out (blanks before a colon)."""
    assert documents._json_keys(_WRITERS[writer](value)) == _keys_in(value)


def _object_text(pairs, layout: int) -> str:
    """A JSON object written from (key, value) pairs as given, repeated keys included: compact,
    indented, or with blanks before each colon."""
    c, sep = [(":", ","), (": ", ",\n  "), (" :\n ", ", ")][layout]
    return "{" + sep.join(json.dumps(k, ensure_ascii=False) + c + json.dumps(v, ensure_ascii=False)
                          for k, v in pairs) + "}"


_KEY_TEXT = st.sampled_from(["a", ":", ":a", "a:", '"', "\\", " ", "é"]) | st.text(max_size=3)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(_KEY_TEXT, _JSON_VALUES | _KEY_TEXT), max_size=5), st.sampled_from(range(3)))
def test_a_dropped_key_is_found_however_the_text_is_written(pairs, layout):
    """The duplicate-key check (documents._same_keys) says a decoded object kept every key
    exactly when no key repeats, on texts with and without escapes, blanks before colons and
    strings that open with a colon."""
    text = _object_text(pairs, layout).encode()
    value = msgspec.json.decode(text)
    repeated = len({k for k, _ in pairs}) != len(pairs)
    assert documents._same_keys(text, value) is (not repeated)


@pytest.mark.parametrize("text, kept", [
    (rb'{"x": "\u0022:", "x": "\u0022:"}', False),  # written back, the escape becomes a '":' of its own
    (rb'{"x" : 1, "x": 2}', False),  # a blank before a colon
    (rb'{":x": ":", ":x": 1}', False),  # strings that open with a colon
    (rb'{"x": "\u0022:", "y": 1}', True),
    (rb'{"x": ":", "y": {"x": ":"}}', True),  # the same key in two objects
])
def test_a_dropped_key_is_found_in_awkward_texts(text, kept):
    assert documents._same_keys(text, msgspec.json.decode(text)) is kept


@pytest.mark.parametrize("fmt, text", [
    ("json", '{"system": "neutral", "kind": "npc", "name": "x"}'),
    ("toml", 'system = "neutral"\nkind = "npc"\nname = "x"\n'),
    ("yaml", "system: neutral\nkind: npc\nname: x\n"),
])
def test_a_utf8_byte_order_mark_is_accepted(tmp_path, fmt, text):
    f = tmp_path / f"bom.{fmt}"
    f.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert api.load(f).document.name == "x"


def test_utf16_is_named(tmp_path):
    f = tmp_path / "wide.json"
    f.write_bytes('{"system": "neutral"}'.encode("utf-16"))
    with pytest.raises(InputError) as err:
        documents.read_plain(f)
    assert "not valid UTF-8 (expected UTF-8 text, found byte 0xff at offset 0 (a UTF-16 byte order mark))" in str(err.value)


@pytest.mark.parametrize("text, fmt", [
    ('{"system": "neutral", "kind": "npc", "name": "x"}', "json"),
    ('\n  {"system": "neutral", "kind": "npc", "name": "x"}', "json"),
    ('# made by hand\nsystem = "neutral"\nkind = "npc"\nname = "x"\n', "toml"),
    ('[xsys]\nconverted_from = "coc"\n[npc]\nname = "x"\n', "toml"),
    ("system: neutral\nkind: npc\nname: x\n", "yaml"),
    ("{system: neutral, kind: npc, name: x}", "yaml"),  # a YAML flow mapping: not JSON
    ("---\nsystem: neutral\n", "yaml"),
])
def test_standard_input_format_is_sniffed(monkeypatch, text, fmt):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xef\xbb\xbf" + text.encode())))
    data, got = documents.read_with_format("-", None)
    assert got == fmt
    assert data.get("system") == "neutral" or data.get("npc", {}).get("name") == "x"


def test_standard_input_that_is_no_format_reports_the_sniffed_one(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'{"system": "neutral", "kind": ]')))
    with pytest.raises(InputError) as err:
        documents.read_plain("-", None)
    assert err.value.line().startswith("<stdin>: malformed JSON")


# ---- size and memory ----------------------------------------------------------------

def test_a_big_document_without_aliases_is_no_alias_bomb(monkeypatch):
    # 6,000 nodes against a limit of 1,000: nothing is reached through an alias
    monkeypatch.setattr(safe_yaml, "MAX_NODES", 1000, raising=False)  # the old, node-counting limit
    monkeypatch.setattr(safe_yaml, "MAX_ALIAS_NODES", 1000, raising=False)
    text = "npcs:\n" + "".join(f"  - {{name: n{i}, STR: 9, DEX: 12}}\n" for i in range(1000))
    assert len(safe_yaml.load_yaml(text, "roster.yaml")["npcs"]) == 1000
    bomb = "a: &a [" + ", ".join(["x"] * 100) + "]\nb: [" + ", ".join(["*a"] * 11) + "]\n"
    with pytest.raises(InputError) as err:
        safe_yaml.load_yaml(bomb, "bomb.yaml")
    assert err.value.line() == ("bomb.yaml: $.b[9]: YAML aliases expand the document too far (expected at most "
                                "1000 nodes reached through aliases, found more, at line 1)")


def test_merge_keys_are_accepted(tmp_path):
    f = tmp_path / "roster.yaml"
    base = "STR: 9, CON: 11, SIZ: 10, DEX: 12, APP: 13, INT: 16, POW: 15, EDU: 18, HP: 11"
    f.write_text("system: coc\nkind: roster\nname: cult\nnpcs:\n"
                 f"  - &base {{name: Cultist 0, {base}}}\n"
                 + "".join(f"  - {{<<: *base, name: Cultist {i}}}\n" for i in range(1, 150)))
    r, out = convert_to(tmp_path, f)
    assert r.returncode == 0, r.stderr.decode()
    npcs = api.load(out).document.npcs
    assert len(npcs) == 150 and npcs[149].name == "Cultist 149"


def test_recursive_and_duplicate_yaml_keys_name_their_path():
    with pytest.raises(InputError) as err:
        safe_yaml.load_yaml("a: 1\nb:\n  c: 1\n  c: 2\n", "f.yaml")
    assert err.value.line() == "f.yaml: $.b.c: duplicate key (found 'c' at line 4)"
    with pytest.raises(InputError) as err:
        safe_yaml.load_yaml("a: &a [1, *a]\n", "f.yaml")
    assert "$.a[1]: recursive YAML alias" in err.value.line()


def test_input_too_large_reports_the_real_size(tmp_path):
    f = tmp_path / "big.yaml"
    f.write_text("system: neutral\nkind: npc\nname: '" + "x" * 4970 + "'\n")
    size = f.stat().st_size
    env = {"XSYS_MAX_INPUT_BYTES": "1000"}
    r, out = convert_to(tmp_path, f, env=env)
    clean_error(r, f, f"input too large (expected at most 1000 bytes, the XSYS_MAX_INPUT_BYTES limit, found {size} bytes)")
    assert not out.exists()
    r = run("convert", "-", "--to", "neutral", "--input-format", "yaml", env=env, stdin=f.read_bytes())
    clean_error(r, "<stdin>", f"found {size} bytes")


def test_a_bad_input_limit_is_a_clear_error(tmp_path):
    r, out = convert_to(tmp_path, NPC, env={"XSYS_MAX_INPUT_BYTES": "abc"})
    clean_error(r, "XSYS_MAX_INPUT_BYTES is not a size in bytes", "found 'abc'")
    assert not out.exists()


def test_what_xsys_writes_it_reads_back(tmp_path):
    # the source fits the limit; its conversion (document, loss report, origin) does not
    limit = NPC.stat().st_size + 100
    env = {"XSYS_MAX_INPUT_BYTES": str(limit)}
    r, out = convert_to(tmp_path, NPC, env=env)
    assert r.returncode == 0, r.stderr.decode()
    assert limit < out.stat().st_size <= 8 * limit
    r = run("validate", out, env=env)
    assert r.returncode == 0, r.stderr.decode()
    # a conversion that could not be read back is not written: here 14 times its source
    src = ROOT / "fixtures" / "pl-trudnosc" / "npcs" / "bandyta.yaml"
    env = {"XSYS_MAX_INPUT_BYTES": str(src.stat().st_size + 10)}
    out = tmp_path / "nwod.yaml"
    r = run("convert", src, "--to", "nwod", "-q", "-o", out, env=env)
    clean_error(r, src, "output too large for xsys to read back", "x XSYS_MAX_INPUT_BYTES (raise it)")
    assert not out.exists()


# ---- the catalog, paths, barrier materials --------------------------------------------

def test_a_catalog_that_is_not_utf8(tmp_path):
    bad = tmp_path / "mine.toml"
    bad.write_bytes(b"[[material]]\nid = \"caf\xe9\"\n")
    clean_error(run("catalog", "material", env={"XSYS_CATALOG": str(bad)}), bad,
                "catalog file is not valid UTF-8 (expected UTF-8 text, found byte 0xe9 at offset 22)")
    named = tmp_path / os.fsdecode(b"caf\xe9.toml")  # a file name that is not UTF-8
    named.write_text('[[material]]\nid = "my-brick"\nname = "Brick"\nstops_per_cm = "120 J"\n')
    r = run("catalog", "material", env={"XSYS_CATALOG": str(named)})
    assert r.returncode == 0 and b"my-brick" in r.stdout, r.stderr.decode()


def test_mapping_keys_are_named_in_paths(tmp_path):
    neutral = write_yaml(tmp_path / "n.yaml", {"system": "neutral", "kind": "npc", "name": "x",
                                               "skills": {"handgun": 0.5, "Spot Hidden": 4}})
    coc = tmp_path / "c.yaml"
    coc.write_text(NPC.read_text().replace("Handgun: 40", "Handgun: 400"))
    r = run("validate", neutral, coc)
    err = r.stderr.decode()
    assert r.returncode == 2 and "Traceback" not in err and "[...]" not in err
    # out of range: what the field takes (both ends), and what was found
    assert f'{neutral}: $.skills["Spot Hidden"]: out of range (expected a number from 0.0 to 1.0, found 4)' in err
    assert f"{coc}: $.skills.Handgun: out of range (expected a whole number from 0 to 200, found 400)" in err


def test_key_path():
    assert codec.key_path("$.skills", "Handgun") == "$.skills.Handgun"
    assert codec.key_path("$.skills", "Spot Hidden") == '$.skills["Spot Hidden"]'
    assert codec.key_path("$.native", "coc-zh") == "$.native.coc-zh"
    assert codec.key_path("$", 3) == "$[3]"


def test_unknown_barrier_material_is_refused_with_its_path(tmp_path):
    partial = write_yaml(tmp_path / "shot.yaml", neutral_shot(
        target={"cover": {"exposure": 0.5, "barrier": {"material": "unobtainium", "thickness": "10 cm"}}}))
    r, out = convert_to(tmp_path, partial)
    clean_error(r, partial, "$.target.cover.barrier.material: unknown barrier material",
                "expected one of aluminium, armor-steel, brick", "found 'unobtainium'")
    assert not out.exists()
    scen = tmp_path / "scen.yaml"
    scen.write_text((ROOT / "fixtures/coc/scenarios/dunwich_farmhouse.yaml").read_text()
                    .replace("material: concrete", "material: unobtainium", 1))
    with pytest.raises(InputError) as err:
        api.load(scen)
    assert "$.scenes[0].shots[0].cover.material: unknown barrier material" in err.value.line()


@pytest.mark.parametrize("doc,path,allowed", [
    ("system: neutral\nkind: npc\nname: x\nmelee_kind: banana\n", "$.melee_kind", "club"),
    ("system: neutral\nkind: npc\nname: x\nmelee:\n  - name: a\n    melee_class: banana\n", "$.melee[0].melee_class",
     "knife"),
    ("system: coc\nkind: npc\nname: x\nweapons:\n  - name: g\n    damage: 1d6\n    sights: banana\n",
     "$.weapons[0].sights", "scope"),
])
def test_a_value_outside_a_fields_choices_says_what_the_field_takes(tmp_path, capsys, doc, path, allowed):
    """'Invalid enum value' named the path and the value but not what was expected: the error now
    lists the field's allowed values, and no output file is written."""
    from helpers import run_main

    src = tmp_path / "bad.yaml"
    src.write_text(doc)
    out = tmp_path / "out.yaml"
    code, _, err = run_main(capsys, "convert", src, "--to", "gurps", "-o", out)
    assert code != 0 and not out.exists()
    line, = [x for x in err.splitlines() if x.strip()]
    assert str(src) in line and path in line and "found 'banana'" in line and allowed in line
    assert "expected one of" in line and "Traceback" not in err
