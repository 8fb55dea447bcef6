"""`xsys serve --workers 2` as a pre-fork server, the default where the system forks
(conversions/serve_prefork.py; XSYS_SERVE_PREFORK=0 turns it off): the time
budget ends a stuck request with its clear error and the worker is replaced; a worker busy
with a long request delays no one else's quick request."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from helpers import live_processes
from xsys.conversions import serve, serve_prefork
from xsys.devtools.serve_bench import _request, load

pytestmark = pytest.mark.skipif(not serve_prefork.available() or not Path("/proc/self/stat").exists(),
                                reason="forks, reads /proc")

ROOT = Path(__file__).resolve().parent.parent
MALLOY = ROOT / "fixtures" / "text" / "malloy-coc6.txt"

# a server whose curve of 7 points hangs: sleeping (the watchdog can act) or in a regular
# expression that backtracks for hours holding the interpreter lock (it cannot)
SERVER = """
import re, sys, time
from xsys.conversions import serve, serve_main
real = serve.KINDS[b"u"][1]
def curve(req):
    if req.points in (7, 300):  # 300 points: a long request (serve.Limits.heavy_points)
        time.sleep({sleep})
    if req.points == 9:
        re.match(r"(a+)+$", "a" * 60 + "b")
    return real(req)
serve.KINDS[b"u"] = (serve.CurveRequest, curve)
try:
    serve_main.run("127.0.0.1", 0, lambda t: print(t, file=sys.stderr, flush=True), 2, serve.Limits(time_limit={limit}))
except KeyboardInterrupt:
    pass
"""


def _children(pid):
    return live_processes(parent=pid)


def _start(sleep=60.0, limit=2.0):
    p = subprocess.Popen([sys.executable, "-c", SERVER.format(sleep=sleep, limit=limit)],
                         stderr=subprocess.PIPE, text=True, env={**os.environ, "XSYS_SERVE_PREFORK": "1"})
    line = p.stderr.readline()
    m = re.search(r"http://127\.0\.0\.1:(\d+)/ \(2 conversion processes and one for quick requests, each taking connections itself;", line)
    assert m, line + (p.stderr.read() if p.poll() is not None else "")
    port = int(m.group(1))
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/systems", timeout=5):
                break
        except OSError:
            assert time.monotonic() < deadline
            time.sleep(0.1)
    return p, port


def _stop(p):
    p.send_signal(signal.SIGINT)
    try:
        assert p.wait(20) in (0, 130)
        assert "Traceback" not in p.stderr.read()
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def _curve(points):
    return json.dumps({"shot": {"distance": "20m"}, "points": points, "svg": False}).encode()


def _npc(i):
    return json.dumps({"document": f"No. {i} " + MALLOY.read_text(), "to": "gurps", "format": "md"}).encode()


def test_a_stuck_request_gets_the_time_limit_error_its_worker_is_replaced_and_the_next_is_served():
    p, port = _start(limit=2.0)
    try:
        workers = _children(p.pid)
        assert len(workers) == 3
        t0 = time.monotonic()
        (_, status, data), = asyncio.run(load("127.0.0.1", port, [_curve(7)], 1, path="/api/curve"))
        took = time.monotonic() - t0
        assert status == 503 and 1.9 < took < 4, (status, took)
        assert re.fullmatch(r"request: over the time budget \(expected an answer within 2 s, the limit of this "
                            r"server \(XSYS_SERVE_TIME_LIMIT; the CLI has none\), found 2\.\d s converting\)",
                            json.loads(data)["error"]), data
        deadline = time.monotonic() + 10
        while True:  # the ended worker is replaced by a new process
            now = _children(p.pid)
            if len(now) == 3 and len(set(now) - set(workers)) == 1:
                break
            assert time.monotonic() < deadline, (workers, now)
            time.sleep(0.05)
        out = asyncio.run(load("127.0.0.1", port, [_curve(4), _npc(1), _npc(2)], 3, path="/api/curve"))
        assert out[0][1] == 200 and len(json.loads(out[0][2])["curve"]["x"]) == 4
    finally:
        _stop(p)


def test_a_worker_whose_watchdog_cannot_run_is_killed_by_the_supervisor_and_replaced():
    p, port = _start(limit=1.0)
    try:
        workers = _children(p.pid)
        t0 = time.monotonic()
        out = asyncio.run(load("127.0.0.1", port, [_curve(9)], 1, path="/api/curve", errors=[]))
        took = time.monotonic() - t0
        # the conversion held the interpreter lock: no answer could be written, the
        # connection ends when the supervisor kills the process, 2 s past the 1 s budget
        assert out[0][1] == 0 and 2.5 < took < 6, (out, took)
        deadline = time.monotonic() + 10
        while len(set(_children(p.pid)) - set(workers)) != 1:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        (_, status, data), = asyncio.run(load("127.0.0.1", port, [_curve(4)], 1, path="/api/curve"))
        assert status == 200
    finally:
        _stop(p)


def test_a_busy_worker_delays_neither_new_connections_nor_its_own_idle_keep_alive_ones():
    p, port = _start(sleep=4.0, limit=30.0)
    try:
        async def main():
            # eight keep-alive connections, each used once (the two workers share them)
            conns = [await asyncio.open_connection("127.0.0.1", port) for _ in range(8)]
            for i, (r, w) in enumerate(conns):
                assert (await _request(r, w, "127.0.0.1", port, "/api/convert", _npc(i)))[0] == 200
            slow = asyncio.ensure_future(load("127.0.0.1", port, [_curve(7)], 1, path="/api/curve"))
            await asyncio.sleep(0.3)  # one worker now sleeps 4 s in the conversion
            t0 = time.monotonic()
            fresh = await load("127.0.0.1", port, [_npc(100)], 1)
            fresh_took = time.monotonic() - t0
            # a request on each kept connection: those of the busy worker were handed to
            # the free one after 1 s, so none waits for the 4 s conversion
            t0 = time.monotonic()
            again = await asyncio.gather(*(_request(r, w, "127.0.0.1", port, "/api/convert", _npc(10 + i))
                                           for i, (r, w) in enumerate(conns)))
            again_took = time.monotonic() - t0
            slow_out = await slow
            for _, w in conns:
                w.close()
            return fresh, fresh_took, again, again_took, slow_out

        fresh, fresh_took, again, again_took, slow_out = asyncio.run(main())
        assert fresh[0][1] == 200 and fresh_took < 2.0, fresh_took  # the busy one sleeps 4 s
        assert [s for s, _ in again] == [200] * 8 and again_took < 3.5, again_took
        assert slow_out[0][1] == 200
        sheets = [json.loads(d)["sheet"] for _, d in again]
        assert sheets[3] == serve.do_convert(serve.ConvertRequest(
            document="No. 13 " + MALLOY.read_text(), to="gurps", format="md")).sheet
    finally:
        _stop(p)


def test_long_requests_take_at_most_workers_processes_at_once_and_quick_ones_are_answered():
    # The quick ones took 2-7 s in a third of the runs while a worker computed in the request
    # a table the warm-up had not built (and never wrote it for the others), and while the
    # process holding the quick ones' connection started the long request it had set aside.
    p, port = _start(sleep=2.0, limit=30.0)
    try:
        async def main():
            t0 = time.monotonic()

            async def long():
                (_, status, _), = await load("127.0.0.1", port, [_curve(300)], 1, path="/api/curve")
                return status, time.monotonic() - t0

            longs = [asyncio.ensure_future(long()) for _ in range(3)]
            await asyncio.sleep(0.3)  # two convert, the third waits for one of them
            t1 = time.monotonic()
            quick = await load("127.0.0.1", port, [_npc(1), _npc(2)], 1)
            return quick, time.monotonic() - t1, await asyncio.gather(*longs)

        quick, quick_took, done = asyncio.run(main())
        assert [s for _, s, _ in quick] == [200, 200]
        # two one-NPC conversions: milliseconds each, not the 2 s of a long one nor the 1 s
        # after which a busy process hands its idle connections on
        assert quick_took < 0.9, quick_took
        assert [s for s, _ in done] == [200] * 3
        took = sorted(t for _, t in done)
        # each sleeps 2 s then computes its curve: the third starts only once one of the
        # others has ended
        assert took[2] >= took[0] + 1.9, took
    finally:
        _stop(p)


def test_two_workers_and_more_are_the_pre_fork_server_unless_it_is_turned_off(monkeypatch):
    monkeypatch.delenv(serve_prefork.PREFORK_ENV, raising=False)
    assert serve_prefork.wanted(2) and serve_prefork.wanted(8) and not serve_prefork.wanted(1)
    monkeypatch.setenv(serve_prefork.PREFORK_ENV, "0")
    assert not serve_prefork.wanted(2)
    monkeypatch.setenv(serve_prefork.PREFORK_ENV, "1")
    assert serve_prefork.wanted(2)


def test_a_malformed_body_is_a_one_line_json_400_with_its_length():
    p, port = _start()
    try:
        async def main():
            r, w = await asyncio.open_connection("127.0.0.1", port)
            deep = b"[" * 100_000 + b"]" * 100_000
            w.write(f"POST /api/convert HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                    f"Content-Length: {len(deep)}\r\n\r\n".encode() + deep)
            head = (await r.readuntil(b"\r\n\r\n")).decode().lower()
            w.close()
            return head

        head = asyncio.run(main())
        assert head.startswith("http/1.1 400 ") and "content-type: application/json" in head
        assert "content-length: 132" in head and "transfer-encoding" not in head
    finally:
        _stop(p)
