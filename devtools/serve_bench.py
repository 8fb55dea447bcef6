"""What `xsys serve` delivers under load, beside what the machine can: one-NPC conversions
against a real server on 127.0.0.1, and the same conversions in one process.

    python -m xsys.devtools.serve_bench [--workers 1] [--requests 600] [--concurrency 200] [--rounds 5]
                                        [--per-client 1] [--json]

It measures, in one run (the machine may be shared, so the ratio of two numbers measured
together means more than either alone):

* in process: conversions per second of `serve.do_convert` in this process, one after
  another (what one core does with no server at all);
* in process, together: conversions per second of `workers` processes converting in process
  at once (no server): what the machine delivers with every worker busy. A 2-core virtual
  machine shared with others runs two at 1.4-2.3 times one's rate, not twice: the served
  rate is also given over this floor, measured in the same round;
* the ratio served / (in process x workers), in `rounds` rounds of `in_process`
  conversions in process (one process, then `workers` at once) then `concurrency` x
  `per_client` served ones (`concurrency` pooled clients at once): the median
  of the rounds' ratios (a load that comes and goes on a shared machine weighs on both
  halves of a round); and the same in CPU time (the CPU a conversion takes in process over
  the CPU a served one takes, front and conversion process), which another process's load
  changes less;
* served, three client patterns, each `requests` different NPCs `concurrency` at a time,
  every answer checked: pooled keep-alive connections (one per concurrent client, reused);
  a new connection per request; pooled clients while `slow` other connections send half a
  request and wait (a slow client is answered 408 at the request timeout and is not one of
  the errors counted: a failed or wrong answer to a pooled client is);
* fairness: the latency of one-NPC conversions sent while long requests (rosters) keep the
  server's general processes busy;
* memory: the resident size of the server (its front and its conversion processes) before
  and after, and each process's peak; and the CPU time a request cost the front (HTTP,
  JSON, the queue) and the conversion processes.

The server runs in a process of its own (`serve_main.run`, as `xsys serve --workers N`); the
client is raw HTTP/1.1 on asyncio (no extra dependency), bounded in connections and time.
Under a closed loop of C concurrent clients the median latency is about C divided by the
throughput (Little's law): a conversion that costs t seconds of one core's time cannot have
a median under C * t / cores, whatever the framework."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import threading
import time
from pathlib import Path
from typing import Any, Iterator

from xsys.devtools.config import section

SERVE = section("serve_bench")
DEFAULT_NPC: str = SERVE["npc"]  # fixtures/devtools/choices.toml [serve_bench]


@contextlib.contextmanager
def running(host: str = "127.0.0.1", port: int = 0, app: Any = None,
            limits: Any = None) -> Iterator[tuple[str, int]]:
    """A real uvicorn serving the app in a background thread, configured as `xsys serve`
    configures it (serve_net: timeouts, connection limit); yields (host, port) once the
    app's conversion processes are ready."""
    from xsys.conversions import serve, serve_net

    limits = limits or serve.Limits()
    app = app if app is not None else serve.create_app(limits=limits)
    sock = serve._bind(host, port)
    server = serve_net.server(serve_net.server_config(app, limits, log_config=None))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="xsys-serve", daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        rt = getattr(app.state, "xsys", None)
        while not server.started or (rt is not None and (rt.pool is None or rt.pool.state()["ready"]
                                                          < rt.pool.state()["processes"])):
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.01)
        yield host, sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()


# ---- the client --------------------------------------------------------------------------------

async def _request(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str, port: int,
                   path: str, body: bytes, close: bool = False) -> tuple[int, bytes]:
    extra = "Connection: close\r\n" if close else ""
    writer.write(f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n{extra}"
                 f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:] if x)}
    if "content-length" in headers:
        data = await reader.readexactly(int(headers["content-length"]))
    else:  # chunked
        parts = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).strip(), 16)
            chunk = await reader.readexactly(size + 2)
            if size == 0:
                break
            parts.append(chunk[:-2])
        data = b"".join(parts)
    return status, data


async def load(host: str, port: int, bodies: list[bytes], concurrency: int, path: str = "/api/convert",
               new_connection: bool = False, errors: list[str] | None = None) -> list[tuple[float, int, bytes]]:
    """Send every body, `concurrency` at a time: each concurrent client on one keep-alive
    connection it reuses, or (`new_connection`) on a new connection per request. For each
    request (in order): its latency in seconds, status and answer. With `errors`, a request
    that fails on the network is noted there (status 0) and its client connects again;
    without, the error is raised."""
    results: list[Any] = [None] * len(bodies)
    queue: asyncio.Queue[int] = asyncio.Queue()
    for i in range(len(bodies)):
        queue.put_nowait(i)

    async def worker() -> None:
        conn = None
        try:
            while True:
                try:
                    i = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                t0 = time.perf_counter()
                try:
                    if conn is None:
                        conn = await asyncio.open_connection(host, port)
                    status, data = await _request(*conn, host, port, path, bodies[i], close=new_connection)
                except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
                    if errors is None:
                        raise
                    errors.append(f"{type(exc).__name__}: {exc}")
                    status, data = 0, b""
                    if conn is not None:
                        conn[1].close()
                    conn = None
                results[i] = (time.perf_counter() - t0, status, data)
                if new_connection and conn is not None:
                    conn[1].close()
                    conn = None
        finally:
            if conn is not None:
                conn[1].close()

    await asyncio.gather(*(worker() for _ in range(min(concurrency, len(bodies)))))
    return results


async def _slow_clients(host: str, port: int, n: int, stop: asyncio.Event) -> dict[str, int]:
    """`n` connections that each send half a request head, then one byte a second, until
    `stop`; a connection the server closes is opened again. How they were answered."""
    seen: dict[str, int] = {}

    async def one() -> None:
        while not stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(host, port)
            except OSError:
                seen["connect error"] = seen.get("connect error", 0) + 1
                await asyncio.sleep(0.5)
                continue
            writer.write(f"POST /api/convert HTTP/1.1\r\nHost: {host}:{port}\r\nX-Slow: ".encode())
            try:
                while not stop.is_set():
                    try:
                        data = await asyncio.wait_for(reader.read(64), 1.0)
                    except asyncio.TimeoutError:
                        writer.write(b"x")
                        continue
                    key = data.split(b"\r\n")[0].decode("latin-1")[9:12] if data else "closed"
                    seen[key] = seen.get(key, 0) + 1
                    break
            except OSError:
                seen["reset"] = seen.get("reset", 0) + 1
            finally:
                writer.close()

    tasks = [asyncio.ensure_future(one()) for _ in range(n)]
    await stop.wait()
    await asyncio.gather(*tasks, return_exceptions=True)
    return seen


# ---- what is measured ------------------------------------------------------------------------

def expected_sheet(document: str, to: str) -> str:
    """The sheet the server must answer, computed directly."""
    from xsys.conversions import serve

    return serve.do_convert(serve.ConvertRequest(document=document, to=to, format="md")).sheet


def _named(document: str, i: int) -> str:
    """The NPC, named apart (so no answer can come from the server's cache)."""
    return f"No. {i} {document}"


def in_process_rate(count: int, to: str, document: str = DEFAULT_NPC, start: int = -2000) -> tuple[float, float]:
    """Conversions per second of serve.do_convert in this process, one after another (after
    a warm-up), of NPCs named as the served ones are; and the CPU milliseconds each took."""
    from xsys.conversions import serve

    for i in range(10):
        serve.do_convert(serve.ConvertRequest(document=_named(document, start + 1000 - i), to=to, format="md"))
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(count):
        serve.do_convert(serve.ConvertRequest(document=_named(document, start - i), to=to, format="md"))
    return count / (time.perf_counter() - t0), (time.process_time() - c0) * 1000 / count


def _parallel_child(count: int, to: str, document: str, start: int, ready: Any, out: Any) -> None:
    from xsys.conversions import serve

    for i in range(5):  # its caches as the parent left them, its interpreter warm
        serve.do_convert(serve.ConvertRequest(document=_named(document, start + 1000 - i), to=to, format="md"))
    ready.wait()
    t0 = time.monotonic()
    for i in range(count):
        serve.do_convert(serve.ConvertRequest(document=_named(document, start - i), to=to, format="md"))
    out.put((t0, time.monotonic()))


def parallel_rate(count: int, to: str, workers: int, document: str = DEFAULT_NPC, start: int = -3000) -> float:
    """Conversions per second of `workers` processes converting in process at once (forked from
    this one, warm, started together): what the machine delivers with every worker busy and no
    server, the floor `in_process_rate` x `workers` assumes. On a shared or throttled machine
    two processes rarely run at twice one's rate; this measures how far they do."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    ready, out = ctx.Barrier(workers), ctx.Queue()
    procs = [ctx.Process(target=_parallel_child, args=(count, to, document, start - 10_000 * k, ready, out))
             for k in range(workers)]
    for p in procs:
        p.start()
    spans = [out.get(timeout=600) for _ in procs]
    for p in procs:
        p.join()
    return count * workers / (max(t1 for _, t1 in spans) - min(t0 for t0, _ in spans))


@contextlib.contextmanager
def server_process(workers: int = 1, limits_code: str = "") -> Iterator[tuple[str, int, int]]:
    """`serve_main.run` in a process of its own (so the client does not share its interpreter
    lock), as `xsys serve --workers N` runs; yields (host, port, pid) once it answers."""
    import re
    import subprocess
    import sys
    import urllib.request

    code = ("import sys; from xsys.conversions import serve, serve_main\n"
            "try:\n"
            f"    serve_main.run('127.0.0.1', 0, lambda t: print(t, file=sys.stderr, flush=True), {int(workers)}"
            f"{', serve.Limits(' + limits_code + ')' if limits_code else ''})\n"
            "except KeyboardInterrupt:\n    pass\n")
    p = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE, text=True)
    try:
        assert p.stderr is not None
        line = p.stderr.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            raise RuntimeError(f"xsys serve did not start: {line}{p.stderr.read()}")
        port = int(m.group(1))
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/systems", timeout=5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        yield "127.0.0.1", port, p.pid
    finally:
        p.terminate()
        try:
            p.wait(30)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def _memory(pid: int) -> dict[str, Any]:
    """Resident size (MB) of a process and its children (Linux /proc; empty elsewhere)."""
    def status(p: int) -> dict[str, int]:
        try:
            text = Path(f"/proc/{p}/status").read_text()
        except OSError:
            return {}
        return {k: int(v.split()[0]) for k, _, v in (line.partition(":") for line in text.splitlines())
                if k in ("VmRSS", "VmHWM")}

    if not Path("/proc").is_dir():
        return {}
    kids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if int((d / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    kids.append(int(d.name))
            except (OSError, ValueError, IndexError):
                pass
    procs = {p: status(p) for p in [pid, *kids]}
    return {"rss_mb": round(sum(s.get("VmRSS", 0) for s in procs.values()) / 1024, 1),
            "peak_mb": {("front" if p == pid else f"worker {p}"): round(s.get("VmHWM", 0) / 1024, 1)
                        for p, s in procs.items()}}


def _cpu(pid: int) -> dict[str, float]:
    """CPU seconds (user + system) of a process and of its children, from /proc."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

    def ticks(p: int) -> tuple[int, int]:
        fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[1]), int(fields[11]) + int(fields[12])

    out = {"front": 0.0, "workers": 0.0}
    if not Path("/proc").is_dir():
        return out
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                parent, t = ticks(int(d.name))
            except (OSError, ValueError, IndexError):
                continue
            if int(d.name) == pid:
                out["front"] += t / tick
            elif parent == pid:
                out["workers"] += t / tick
    return out


def _numbers(out: list[tuple[float, int, bytes]], wall: float) -> dict[str, Any]:
    lat = sorted(x[0] * 1000 for x in out)
    return {"requests": len(out), "per_s": round(len(out) / wall, 1), "median_ms": round(statistics.median(lat), 1),
            "p90_ms": round(lat[max(int(len(lat) * 0.9) - 1, 0)], 1),
            "p99_ms": round(lat[max(int(len(lat) * 0.99) - 1, 0)], 1), "max_ms": round(lat[-1], 1)}


def _roster(n: int, k: int) -> str:
    """A roster of `n` NPCs (a long request), each a little different, and different from
    those of another `k` (none is converted from what an earlier one taught the process):
    fixtures/devtools/choices.toml [serve_bench.long_request]."""
    spec = SERVE["long_request"]

    def varied(ranges: dict[str, list[int]], i: int) -> dict[str, int]:
        return {f: lo + (i * (j + 1) + k * (2 * j + 1)) % (hi - lo + 1)
                for j, (f, (lo, hi)) in enumerate(ranges.items())}

    npcs = [{"name": f"{spec['system']} {k}.{i}", **spec["npc"], **varied(spec.get("varied", {}), i),
             "skills": {**spec.get("skills", {}), **varied(spec.get("varied_skills", {}), 7 * i)}} for i in range(n)]
    return json.dumps({"system": spec["system"], "kind": "roster", "name": f"long request {k}", "npcs": npcs})


def bench(requests: int = 600, concurrency: int = 200, to: str = SERVE["target"], document: str = DEFAULT_NPC,
          workers: int = 1, slow: int = 100, in_process: int = 50, check: int = 50, fair: int = 20,
          levels: tuple[int, ...] = (1,), rounds: int = 5, per_client: int = 1) -> dict[str, Any]:
    """Everything the module's docstring lists, in one run; `wrong_answers` counts answers
    that are not the conversion (and failed requests of the counted patterns)."""
    from xsys.core.registry import default_registry

    def body(doc: str, key: str = to) -> bytes:
        return json.dumps({"document": doc, "to": key, "format": "md"}).encode()

    n = 0
    wrong = 0

    def pattern(count: int, c: int, **kw: Any) -> dict[str, Any]:
        nonlocal n, wrong
        docs = [_named(document, n + i) for i in range(count)]
        n += count
        errors: list[str] = []
        cpu0, mine = _cpu(pid), time.process_time()
        t0 = time.perf_counter()
        out = asyncio.run(load(host, port, [body(d) for d in docs], c, errors=errors, **kw))
        numbers = _numbers(out, time.perf_counter() - t0)
        cpu1, mine = _cpu(pid), time.process_time() - mine
        numbers["cpu_ms_per_request"] = {k: round((cpu1[k] - cpu0[k]) * 1000 / count, 2) for k in cpu0}
        numbers["cpu_ms_per_request"]["client"] = round(mine * 1000 / count, 2)
        failed = sum(1 for _, status, _ in out if status != 200)
        bad = sum(1 for d, (_, status, data) in zip(docs, out)
                  if status == 200 and d.split("\n")[0] not in json.loads(data)["sheet"].split("\n")[0])
        step = max(len(docs) // check, 1)
        bad += sum(1 for i in range(0, len(docs), step)
                   if out[i][1] == 200 and json.loads(out[i][2])["sheet"] != expected_sheet(docs[i], to))
        wrong += failed + bad
        numbers.update(errors=failed, wrong=bad, error_kinds=sorted(set(errors))[:5])
        return numbers

    results: dict[str, Any] = {"to": to, "concurrency": concurrency, "workers": workers, "cores": os.cpu_count()}
    with server_process(workers) as (host, port, pid):
        warm = [body(_named(document, -1 - i), k) for i, k in enumerate(default_registry().keys())]
        asyncio.run(load(host, port, warm + [body(_named(document, -100 - i)) for i in range(50)], concurrency))
        results["memory_before"] = _memory(pid)

        # the ratio, in rounds: `in_process` conversions here, then `concurrency` served ones
        # (pooled), `concurrency` at a time; the ratio of each round, and their median (a
        # shared machine's load comes and goes: it weighs on both halves of a round)
        per_round = []
        for r in range(rounds):
            rate, cpu_here = in_process_rate(in_process, to, document, start=-20000 - 1000 * r)
            together = parallel_rate(in_process, to, workers, document, start=-100000 - 100000 * r) \
                if workers > 1 else rate
            served = pattern(concurrency * per_client, concurrency)
            cpu = served["cpu_ms_per_request"]
            per_round.append({"in_process_per_s": round(rate, 1), "served_per_s": served["per_s"],
                              "ratio": round(served["per_s"] / (rate * workers), 2),
                              "parallel_per_s": round(together, 1),
                              "parallel_ratio": round(served["per_s"] / together, 2),
                              "capacity": round(together / rate, 2),
                              "in_process_cpu_ms": round(cpu_here, 2),
                              "served_cpu_ms": round(cpu["front"] + cpu["workers"], 2),
                              "cpu_ratio": round(cpu_here / (cpu["front"] + cpu["workers"]), 2)})
        results["rounds"] = per_round
        results["ratio"] = statistics.median(x["ratio"] for x in per_round)
        results["cpu_ratio"] = statistics.median(x["cpu_ratio"] for x in per_round)
        results["parallel_ratio"] = round(statistics.median(x["parallel_ratio"] for x in per_round), 3)
        results["capacity"] = round(statistics.median(x["capacity"] for x in per_round), 3)
        results["ratio_range"] = [min(x["ratio"] for x in per_round), max(x["ratio"] for x in per_round)]
        results["cpu_ratio_range"] = [min(x["cpu_ratio"] for x in per_round), max(x["cpu_ratio"] for x in per_round)]

        results["pooled"] = pattern(requests, concurrency)
        results["new_connection"] = pattern(requests, concurrency, new_connection=True)

        async def alongside() -> tuple[dict[str, Any], dict[str, int]]:
            stop = asyncio.Event()
            slow_task = asyncio.ensure_future(_slow_clients(host, port, slow, stop))
            await asyncio.sleep(0.5)
            numbers = await asyncio.get_running_loop().run_in_executor(None, pattern, requests, concurrency)
            stop.set()
            return numbers, await slow_task

        numbers, seen = asyncio.run(alongside())
        numbers["slow_clients"] = slow
        numbers["slow_answers"] = seen
        results["pooled_with_slow_clients"] = numbers
        results["levels"] = {c: pattern(max(10 * c, 50), c) for c in levels}

        # fairness: long requests (rosters of 100 NPCs, 17 KB) keep the general processes busy;
        # one-NPC conversions sent meanwhile, one at a time
        async def fairness() -> dict[str, Any]:
            longs = [asyncio.ensure_future(load(host, port, [json.dumps(
                {"document": _roster(100, i), "to": to, "format": "json"}).encode()], 1))
                for i in range(workers * 3)]
            await asyncio.sleep(0.5)
            lat = []
            for i in range(fair):
                (t, status, _), = await load(host, port, [body(_named(document, -5000 - i))], 1)
                lat.append(t * 1000)
            busy = sum(not t.done() for t in longs)
            outs = await asyncio.gather(*longs)
            return {"long_requests": len(longs), "long_still_running_after": busy,
                    "long_ok": sum(o[0][1] == 200 for o in outs), "quick_requests": fair,
                    "quick_median_ms": round(statistics.median(lat), 1), "quick_max_ms": round(max(lat), 1)}

        results["fairness"] = asyncio.run(fairness())
        results["memory_after"] = _memory(pid)
    results["wrong_answers"] = wrong
    return results


# a conversion process that converts nothing: after `delay` seconds of sleep (not CPU) it
# answers every conversion with a sheet of the size a one-NPC answer has (about 15 KB)
IDLE_WORKER = """from xsys.conversions import serve
import time
def convert(req):
    time.sleep({delay!r})
    return {{'system': req.to, 'sheet': req.document[:40] + ' ' * 15000}}
serve.KINDS[b'c'] = (serve.ConvertRequest, convert)
serve._warm_caches = lambda: None
serve.worker_main()
"""


def front_cost(requests: int = 600, concurrency: int = 200, workers: int = 2, delay: float = 0.012,
               rounds: int = 3) -> dict[str, Any]:
    """The CPU the server spends on a request besides converting it: the server's conversion
    processes replaced by ones that sleep `delay` seconds a request (the rate of real
    one-NPC conversions) and answer a fixed sheet. The front's CPU (user and system) and the
    conversion processes' per request, in `rounds` rounds of `requests`, and the rate."""
    import sys

    code = f"worker_argv=({sys.executable!r}, '-c', {IDLE_WORKER.format(delay=delay)!r})"
    out = []
    with server_process(workers, code) as (host, port, pid):
        def times() -> tuple[float, float, float]:
            tick = os.sysconf("SC_CLK_TCK")
            f = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            return int(f[11]) / tick, int(f[12]) / tick, _cpu(pid)["workers"]

        for r in range(rounds):
            bodies = [json.dumps({"document": _named(DEFAULT_NPC, 100000 * (r + 1) + i), "to": SERVE["target"]}).encode()
                      for i in range(requests)]
            u0, s0, w0 = times()
            t0 = time.perf_counter()
            answers = asyncio.run(load(host, port, bodies, concurrency))
            wall = time.perf_counter() - t0
            u1, s1, w1 = times()
            out.append({"per_s": round(requests / wall, 1), "errors": sum(a[1] != 200 for a in answers),
                        "front_user_ms": round((u1 - u0) * 1000 / requests, 3),
                        "front_system_ms": round((s1 - s0) * 1000 / requests, 3),
                        "workers_ms": round((w1 - w0) * 1000 / requests, 3)})
    return {"rounds": out, "front_ms": statistics.median(x["front_user_ms"] + x["front_system_ms"] for x in out)}


def _bare_connection(conn: Any) -> None:
    """One connection of `ceiling`'s bare server: HTTP/1.1 requests read with h11, each
    converted at once and answered, until the client closes."""
    import h11
    import msgspec

    from xsys.conversions import serve

    c = h11.Connection(h11.SERVER)
    body: list[bytes] = []
    while True:
        event = c.next_event()
        if event is h11.NEED_DATA:
            data = conn.recv(65536)
            c.receive_data(data)
            if not data:
                return
        elif isinstance(event, h11.Request):
            body = []
        elif isinstance(event, h11.Data):
            body.append(event.data)
        elif isinstance(event, h11.EndOfMessage):
            req = serve.decode_request(b"".join(body), serve.ConvertRequest)
            status, answer = serve.work(b"c", msgspec.msgpack.encode(req))
            head = [(b"content-type", b"application/json"), (b"content-length", str(len(answer)).encode())]
            conn.sendall(c.send(h11.Response(status_code=status, headers=head)) + c.send(h11.Data(data=answer))
                         + c.send(h11.EndOfMessage()))
            c.start_next_cycle()
        elif isinstance(event, h11.ConnectionClosed):
            return


def ceiling(rounds: int = 5, concurrency: int = 200, workers: int = 2, in_process: int = 50,
            to: str = SERVE["target"]) -> dict[str, Any]:
    """What serving costs at the least: the ratio of `bench`'s rounds against a bare server,
    `workers` forked processes that accept on one socket, read HTTP with h11 and convert each
    request at once (no front, no pipes, and none of the limits, timeouts and checks of
    `xsys serve`: a measure of the headroom, not a server). Linux (fork, /proc)."""
    import signal
    import socket

    from xsys.conversions import serve

    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(2048)
    port = sock.getsockname()[1]
    for i in range(20):  # the caches filled before the processes part
        serve.do_convert(serve.ConvertRequest(document=_named(DEFAULT_NPC, -500 - i), to=to, format="md"))
    pids = []
    try:
        for _ in range(workers):
            pid = os.fork()
            if pid == 0:  # a bare server process: until the benchmark ends it
                try:
                    signal.signal(signal.SIGTERM, signal.SIG_DFL)
                    while True:
                        conn, _ = sock.accept()
                        try:
                            _bare_connection(conn)
                        except Exception:  # a broken request ends its connection, not the process
                            pass
                        finally:
                            conn.close()
                finally:
                    os._exit(0)
            pids.append(pid)

        def cpu() -> float:
            tick = os.sysconf("SC_CLK_TCK")
            total = 0
            for p in pids:
                f = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
                total += int(f[11]) + int(f[12])
            return total / tick

        out = []
        for r in range(rounds):
            rate, cpu_here = in_process_rate(in_process, to, start=-20000 - 1000 * r)
            bodies = [json.dumps({"document": _named(DEFAULT_NPC, 200000 + 1000 * r + i), "to": to,
                                  "format": "md"}).encode() for i in range(concurrency)]
            c0, t0 = cpu(), time.perf_counter()
            answers = asyncio.run(load("127.0.0.1", port, bodies, concurrency))
            wall, used = time.perf_counter() - t0, (cpu() - c0) * 1000 / len(bodies)
            served = len(bodies) / wall
            out.append({"in_process_per_s": round(rate, 1), "served_per_s": round(served, 1),
                        "ratio": round(served / (rate * workers), 2), "in_process_cpu_ms": round(cpu_here, 2),
                        "served_cpu_ms": round(used, 2), "cpu_ratio": round(cpu_here / used, 2) if used else None,
                        "errors": sum(a[1] != 200 for a in answers)})
    finally:
        for p in pids:
            os.kill(p, signal.SIGTERM)
        for p in pids:
            os.waitpid(p, 0)
        sock.close()
    return {"rounds": out, "ratio": statistics.median(x["ratio"] for x in out),
            "cpu_ratio": statistics.median(x["cpu_ratio"] or 0 for x in out)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m xsys.devtools.serve_bench", description=__doc__.split("\n")[0])
    p.add_argument("--requests", type=int, default=600, help="requests per client pattern")
    p.add_argument("--concurrency", type=int, default=200)
    p.add_argument("--workers", type=int, default=1, help="conversion processes (xsys serve --workers)")
    p.add_argument("--slow", type=int, default=100, help="slow clients alongside the third pattern")
    p.add_argument("--to", default=SERVE["target"])
    p.add_argument("--levels", default="1", help="lower concurrency levels to measure, comma-separated")
    p.add_argument("--rounds", type=int, default=5, help="rounds of the in-process / served ratio")
    p.add_argument("--per-client", type=int, default=1, help="requests of each pooled client in a round of the ratio")
    p.add_argument("--json", action="store_true", help="print the numbers as JSON")
    p.add_argument("--front", action="store_true",
                   help="only the server's own CPU a request (conversion processes that convert nothing)")
    p.add_argument("--ceiling", action="store_true",
                   help="the ratio against a bare pre-fork server (h11, no front, no limits): the headroom")
    args = p.parse_args(argv)
    if args.ceiling:
        c = ceiling(args.rounds, args.concurrency, args.workers)
        if args.json:
            print(json.dumps(c, indent=2))
        else:
            print(f"a bare pre-fork server, --workers {args.workers}: served / (in process x {args.workers}) median "
                  f"{c['ratio']}; in CPU time {c['cpu_ratio']}")
            for x in c["rounds"]:
                print(f"    round: in process {x['in_process_per_s']}/s {x['in_process_cpu_ms']} ms, served "
                      f"{x['served_per_s']}/s {x['served_cpu_ms']} ms: {x['ratio']}, CPU {x['cpu_ratio']}; "
                      f"errors {x['errors']}")
        return 1 if any(x["errors"] for x in c["rounds"]) else 0
    if args.front:
        f = front_cost(args.requests, args.concurrency, args.workers, rounds=args.rounds)
        if args.json:
            print(json.dumps(f, indent=2))
        else:
            print(f"the front's CPU a request, conversions that cost nothing (12 ms of sleep), --workers {args.workers}, "
                  f"{args.concurrency} concurrent: median {f['front_ms']:.3f} ms")
            for x in f["rounds"]:
                print(f"    round: {x['per_s']}/s, front {x['front_user_ms']} ms user + {x['front_system_ms']} ms system, "
                      f"conversion processes {x['workers_ms']} ms, errors {x['errors']}")
        return 1 if any(x["errors"] for x in f["rounds"]) else 0
    levels = tuple(int(x) for x in args.levels.split(",") if x.strip())
    r = bench(args.requests, args.concurrency, args.to, workers=args.workers, slow=args.slow, levels=levels,
              rounds=args.rounds, per_client=args.per_client)
    if args.json:
        print(json.dumps(r, indent=2))
        return 1 if r["wrong_answers"] else 0
    w = r["workers"]
    print(f"one-NPC conversions to {r['to']} against xsys serve --workers {w} on 127.0.0.1 ({r['cores']} cores):")
    print(f"  served / (in process x {w} worker{'s' if w > 1 else ''}), pooled keep-alive, {r['concurrency']} "
          f"concurrent: median {r['ratio']} ({r['ratio_range'][0]}-{r['ratio_range'][1]}) over {len(r['rounds'])} rounds; "
          f"in CPU time: median {r['cpu_ratio']} ({r['cpu_ratio_range'][0]}-{r['cpu_ratio_range'][1]})")
    if w > 1:
        print(f"  served / {w} processes converting in process at once (no server): median {r['parallel_ratio']}; "
              f"the machine ran {w} at {r['capacity']} times one's rate")
    for x in r["rounds"]:
        print(f"    round: in process {x['in_process_per_s']}/s ({w} at once {x['parallel_per_s']}/s), served "
              f"{x['served_per_s']}/s: {x['ratio']} ({x['parallel_ratio']} of {w} at once);  CPU a "
              f"conversion {x['in_process_cpu_ms']} ms in process, {x['served_cpu_ms']} ms served: {x['cpu_ratio']}")
    rows = [("pooled keep-alive", r["pooled"]), ("new connection per request", r["new_connection"]),
            (f"pooled, {r['pooled_with_slow_clients']['slow_clients']} slow clients alongside",
             r["pooled_with_slow_clients"])]
    rows += [(f"pooled, {c} concurrent", x) for c, x in r["levels"].items()]
    for what, x in rows:
        print(f"  {what:<40} {x['per_s']:>7}/s  median {x['median_ms']:>7} ms  p99 {x['p99_ms']:>7} ms  "
              f"max {x['max_ms']:>7} ms  errors {x['errors']}  wrong {x['wrong']}  ({x['requests']} requests; "
              f"CPU ms a request: front {x['cpu_ms_per_request']['front']}, "
              f"conversion processes {x['cpu_ms_per_request']['workers']}, client {x['cpu_ms_per_request']['client']})"
              + (f"  {x['error_kinds']}" if x["error_kinds"] else ""))
    print(f"  slow clients were answered: {r['pooled_with_slow_clients']['slow_answers']}")
    f = r["fairness"]
    print(f"  fairness: {f['quick_requests']} one-NPC requests while {f['long_requests']} rosters of 100 NPCs ran: "
          f"median {f['quick_median_ms']} ms, max {f['quick_max_ms']} ms ({f['long_still_running_after']} rosters "
          f"still running after them, {f['long_ok']} answered 200)")
    print(f"  server memory: {r['memory_before'].get('rss_mb')} MB before, {r['memory_after'].get('rss_mb')} MB after; "
          f"peaks {r['memory_after'].get('peak_mb')}")
    print(f"  wrong answers or errors: {r['wrong_answers']}")
    return 1 if r["wrong_answers"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
