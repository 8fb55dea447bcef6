"""A streamed roster converted with helper processes (conversions/stream_ahead.py): the same
bytes and the same warnings as in one process, whatever the helpers do (convert, fail, die);
an error is the one process's error; no helper outlives the conversion; the command takes
its number of processes from the cores and XSYS_JOBS."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import fixture_npcs, live_processes
from test_stream import _streamed
from xsys.conversions import documents, stream, stream_ahead

ROOT = Path(__file__).resolve().parent.parent
XSYS = str(Path(sys.executable).with_name("xsys"))


@pytest.fixture
def eager(monkeypatch):
    """Helpers for a roster of any size, reading a few NPCs ahead: the dealing's every turn.
    Counts the conversions the helpers gave (a test of the same bytes must have had some)."""
    monkeypatch.setattr(stream_ahead, "MIN_NPCS", 2)
    monkeypatch.setattr(stream_ahead, "WINDOW", 5)
    answered = []
    answer = stream_ahead.Helper.answer

    def counted(self, i):
        piece = answer(self, i)
        if piece is not None:
            answered.append(i)
        return piece

    monkeypatch.setattr(stream_ahead.Helper, "answer", counted)
    return answered


def _mixed_roster(system: str, fmt: str, folder: Path) -> Path:
    """Every fixture NPC of `system`, then each again under another name (a roster's repeated
    stat blocks), then the first ones once more."""
    npcs = fixture_npcs(system)
    name = "imię" if system == "pl-trudnosc" else "name"
    again = [{**n, name: f"{n.get(name, 'npc')} the second"} for n in npcs]
    doc = {"system": system, "kind": "roster", "name": f"mixed {system}", "npcs": npcs + again + npcs[:3]}
    p = folder / f"{system}.{fmt}"
    p.write_bytes(documents.dumps(doc, fmt))
    return p


@pytest.mark.parametrize("fmt", ["json", "yaml"])
@pytest.mark.parametrize("system", ["coc", "coc7", "gurps", "nwod", "pl-trudnosc"])
def test_fixture_rosters_with_helpers_are_the_same_bytes(tmp_path, eager, system, fmt):
    p = _mixed_roster(system, fmt, tmp_path)
    for to in ("gurps", "coc7", "nwod"):
        if to == system:
            continue
        alone = _streamed(p, to)
        assert _streamed(p, to, helpers=1) == alone, (system, to)
        assert _streamed(p, to, helpers=2, losses="full") == _streamed(p, to, losses="full"), (system, to)
    assert eager, "the helpers converted nothing"


def test_generated_rosters_with_helpers_are_the_same_bytes(tmp_path, eager):
    from xsys.devtools.bench import _generated_rosters

    rosters = _generated_rosters(60, seed=5)
    keys = sorted(rosters)
    for i, key in enumerate(keys):
        p = tmp_path / f"{key}.json"
        p.write_bytes(documents.dumps(rosters[key], "json"))
        to = keys[(i + 2) % len(keys)]
        assert _streamed(p, to, helpers=1) == _streamed(p, to), (key, to)
        assert _streamed(p, to, helpers=1, out_fmt="yaml", losses="full") == \
            _streamed(p, to, out_fmt="yaml", losses="full"), (key, to)
    assert len(eager) >= 40, "the helpers converted nothing"


def _roster(folder: Path, n: int, bad_at: int | None = None) -> Path:
    npcs = [{"name": f"cultist {i}", "STR": 9 + i % 7, "CON": 11, "SIZ": 10, "DEX": 8 + i % 9, "APP": 13,
             "INT": 16, "POW": 15, "EDU": 18, "HP": 11, "skills": {"Handgun": 20 + i % 70, "Dodge": 30 + i % 11}}
            for i in range(n)]
    if bad_at is not None:
        npcs[bad_at]["DEX"] = "quick"
    p = folder / "cult.json"
    p.write_text(json.dumps({"system": "coc", "kind": "roster", "name": "cult", "npcs": npcs}))
    return p


def test_an_error_is_the_one_process_error(tmp_path, eager):
    p = _roster(tmp_path, 40, bad_at=23)
    errors = []
    for helpers in (0, 1, 2):
        with pytest.raises(documents.XsysError) as exc:
            stream.convert_file(str(p), "gurps", helpers=helpers)
        errors.append(exc.value.line())
    assert errors[0] == errors[1] == errors[2]
    assert "$.npcs[23].DEX" in errors[0]


def test_a_helper_that_fails_or_dies_changes_nothing(tmp_path, eager, monkeypatch):
    p = _roster(tmp_path, 60)
    alone = _streamed(p, "nwod")
    serve = stream_ahead._serve

    def faulty(req, ans, convert):  # every conversion faults in the helper: the writer converts each
        def broken(plain, i):
            raise RuntimeError("a fault in the helper")
        serve(req, ans, broken)

    monkeypatch.setattr(stream_ahead, "_serve", faulty)
    assert _streamed(p, "nwod", helpers=1) == alone
    assert eager == []

    def converts(n, then):  # a helper that converts n NPCs, then does `then` (at its next one)
        def helper(req, ans, convert):
            count = [0]

            def nth(plain, i):
                count[0] += 1
                if count[0] > n:
                    then()
                return convert(plain, i)
            serve(req, ans, nth)
        return helper

    monkeypatch.setattr(stream_ahead, "_serve", converts(3, lambda: os._exit(9)))  # then it is gone
    assert _streamed(p, "nwod", helpers=2) == alone
    assert 1 <= len(eager) <= 6  # three from each helper at most

    # then it hangs (a plugin call that never returns): the writer waits half a second, ends it and
    # converts the rest
    monkeypatch.setattr(stream_ahead, "_serve", converts(2, lambda: time.sleep(3600)))
    monkeypatch.setattr(stream_ahead, "PATIENCE", 0.5)
    before = len(eager)
    assert _streamed(p, "nwod", helpers=1) == alone
    assert 1 <= len(eager) - before <= 2


def test_no_helper_outlives_the_conversion(tmp_path, eager, monkeypatch):
    pids = []
    init = stream_ahead.Helper.__init__

    def noting(self, convert):
        init(self, convert)
        pids.append(self.pid)

    monkeypatch.setattr(stream_ahead.Helper, "__init__", noting)
    p = _roster(tmp_path, 30)
    _streamed(p, "gurps", helpers=2)
    with pytest.raises(documents.XsysError):
        stream.convert_file(str(_roster(tmp_path, 30, bad_at=12)), "gurps", helpers=2)
    assert len(pids) == 4
    for pid in pids:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # reaped, not a child any more


def test_helpers_are_dealt_new_stat_blocks_only(tmp_path, eager, monkeypatch):
    sent = []
    send = stream_ahead.Helper.send

    def noting(self, i, plain):
        sent.append(i)
        return send(self, i, plain)

    monkeypatch.setattr(stream_ahead.Helper, "send", noting)
    npcs = [{"name": f"twin {i}", "STR": 10, "CON": 11, "SIZ": 10, "DEX": 12, "APP": 13, "INT": 16, "POW": 15,
             "EDU": 18, "HP": 11, "skills": {"Handgun": 40 + i % 3}} for i in range(30)]
    p = tmp_path / "twins.json"
    p.write_text(json.dumps({"system": "coc", "kind": "roster", "name": "twins", "npcs": npcs}))
    _streamed(p, "gurps", helpers=1)
    # three stat blocks in all (Handgun 40, 41, 42): the first is the writer's own, the next two
    # are dealt (one to the helper at most, the writer's share beside it); every later NPC is a
    # stat block seen before
    assert len(sent) <= 2 and all(i < 3 for i in sent)


def _cli(*args, env=None):
    return subprocess.run([XSYS, *map(str, args)], capture_output=True, env={**os.environ, **(env or {})})


def test_the_command_gives_the_same_bytes_with_any_number_of_processes(tmp_path):
    p = _roster(tmp_path, 120)
    outs = []
    for jobs in ("1", "2", "3"):
        out = tmp_path / f"out{jobs}.json"
        r = _cli("convert", p, "--to", "coc7", "-o", out, env={"XSYS_JOBS": jobs})
        assert r.returncode == 0, r.stderr.decode()
        outs.append((out.read_bytes(), r.stderr))
    assert outs[0] == outs[1] == outs[2]


@pytest.mark.parametrize("jobs", ["many", "0", "-2"])
def test_a_bad_xsys_jobs_is_one_clear_error(tmp_path, jobs):
    p = _roster(tmp_path, 60)
    out = tmp_path / "out.json"
    r = _cli("convert", p, "--to", "gurps", "-o", out, env={"XSYS_JOBS": jobs})
    assert (r.returncode, r.stderr.decode()) == (2, f"{p}: XSYS_JOBS is not a number of processes (expected a whole "
                                                    f"number above 0 (1: convert in one process), found '{jobs}')\n")
    assert not out.exists()


def _session_processes(sid: int) -> list[int]:
    return live_processes(session=sid)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_ctrl_c_stops_the_writer_and_its_helpers(tmp_path):
    p = _roster(tmp_path, 3000)
    out = tmp_path / "out.json"
    proc = subprocess.Popen([XSYS, "convert", str(p), "--to", "gurps", "-q", "-o", str(out)],
                            stderr=subprocess.PIPE, start_new_session=True, env={**os.environ, "XSYS_JOBS": "2"})
    deadline = time.time() + 60
    while time.time() < deadline and len(_session_processes(proc.pid)) < 2 and proc.poll() is None:
        time.sleep(0.01)
    assert proc.poll() is None and len(_session_processes(proc.pid)) == 2, "no helper was started"
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal sends it: to the whole foreground group
    _, err = proc.communicate(timeout=60)
    assert (proc.returncode, err.decode()) == (130, "xsys: interrupted\n")
    assert not out.exists() and [x for x in tmp_path.iterdir() if x.name.startswith(".xsys-")] == []
    deadline = time.time() + 10
    while time.time() < deadline and _session_processes(proc.pid):
        time.sleep(0.01)
    assert _session_processes(proc.pid) == []
