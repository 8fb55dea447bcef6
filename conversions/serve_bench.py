"""Latency of `xsys serve` under load: N concurrent one-NPC conversions against a real
uvicorn on 127.0.0.1 (issue 21: the median under 200 concurrent requests, warm, < 20 ms).

    python -m xsys.conversions.serve_bench [--requests 1000] [--concurrency 200] [--to gurps] [--json]

The server runs in a process of its own (`serve.run`); the client is a bounded pool of raw
HTTP/1.1 keep-alive connections on asyncio (one per concurrent request, no extra
dependency). Latency is per request, from sending it to the last byte of the answer; a
warm-up round (every target system) runs first and is not counted. Answers are checked:
each sheet names its NPC, a sample equals the conversion computed directly, and every
answer for the same NPC equals it.

Under a closed loop of C concurrent clients the median latency is about C divided by the
throughput (Little's law): a conversion that costs t seconds of one core's time cannot
have a median under C * t / cores, whatever the framework."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import threading
import time
from typing import Any, Iterator

DEFAULT_NPC = """Detective Sergeant Frank Malloy
Arkham police, plain clothes. Service revolver in a belt holster under the coat.
STR 12 CON 12 SIZ 13 DEX 11 APP 11 INT 13 POW 12 EDU 12 HP 13
Damage Bonus: +1D4
Skills: Dodge 30%, Spot Hidden 60%, Locksmith 20%, Hide 15%, Shotgun 40%
Weapons: Smith & Wesson Model 10 (.38 Special) 55%, damage 1D10, base range 15 m, capacity 6
"""


@contextlib.contextmanager
def running(host: str = "127.0.0.1", port: int = 0, app: Any = None,
            limits: Any = None) -> Iterator[tuple[str, int]]:
    """A real uvicorn serving the app in a background thread, configured as `xsys serve`
    configures it (serve_net: timeouts, connection limit); yields (host, port) once the
    app's conversion processes are ready."""
    from . import serve, serve_net

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


async def _request(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str, port: int,
                   path: str, body: bytes) -> tuple[int, bytes]:
    writer.write(f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
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


async def load(host: str, port: int, bodies: list[bytes], concurrency: int,
               path: str = "/api/convert") -> list[tuple[float, int, bytes]]:
    """Send every body, `concurrency` at a time (one keep-alive connection each); for each
    request (in order): its latency in seconds, status and answer."""
    results: list[Any] = [None] * len(bodies)
    queue: asyncio.Queue[int] = asyncio.Queue()
    for i in range(len(bodies)):
        queue.put_nowait(i)

    async def worker() -> None:
        reader, writer = await asyncio.open_connection(host, port)
        try:
            while True:
                try:
                    i = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                t0 = time.perf_counter()
                status, data = await _request(reader, writer, host, port, path, bodies[i])
                results[i] = (time.perf_counter() - t0, status, data)
        finally:
            writer.close()

    await asyncio.gather(*(worker() for _ in range(min(concurrency, len(bodies)))))
    return results


def expected_sheet(document: str, to: str) -> str:
    """The sheet the server must answer, computed directly."""
    from . import serve

    return serve.do_convert(serve.ConvertRequest(document=document, to=to, format="md")).sheet


@contextlib.contextmanager
def server_process(workers: int = 1) -> Iterator[tuple[str, int]]:
    """`serve.run` in a process of its own (so the client does not share its interpreter
    lock), with `workers` uvicorn worker processes; yields (host, port) once it answers."""
    import re
    import subprocess
    import sys
    import urllib.request

    code = ("import sys; from xsys.conversions import serve; "
            f"serve.run('127.0.0.1', 0, lambda t: print(t, file=sys.stderr, flush=True), {int(workers)})")
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
        yield "127.0.0.1", port
    finally:
        p.terminate()
        p.wait(30)


def _numbers(out: list[tuple[float, int, bytes]], wall: float) -> dict[str, Any]:
    lat = sorted(x[0] * 1000 for x in out)
    return {"requests": len(out), "median_ms": round(statistics.median(lat), 2),
            "p90_ms": round(lat[max(int(len(lat) * 0.9) - 1, 0)], 2),
            "p99_ms": round(lat[max(int(len(lat) * 0.99) - 1, 0)], 2), "max_ms": round(lat[-1], 2),
            "per_s": round(len(out) / wall, 1)}


def _named(document: str, i: int) -> str:
    """The NPC, named apart (so no answer can come from the server's cache)."""
    return f"No. {i} {document}"


def bench(requests: int = 1000, concurrency: int = 200, to: str = "gurps", document: str = DEFAULT_NPC,
          levels: tuple[int, ...] = (1, 2, 4, 8, 32), check: int = 50, warm: int = 100,
          level_requests: int = 100, workers: int = 1) -> dict[str, Any]:
    """Against one server process, after a warm-up: `requests` different NPCs `concurrency`
    at a time (every one computed), the same NPC `requests` times `concurrency` at a time
    (the answer cache), and different NPCs at each of the lower `levels` of concurrency."""
    from xsys.core.registry import default_registry

    def body(doc: str, key: str = to) -> bytes:
        return json.dumps({"document": doc, "to": key, "format": "md"}).encode()

    wrong = 0
    n = 0

    def different(count: int, c: int) -> dict[str, Any]:
        nonlocal wrong, n
        docs = [_named(document, n + i) for i in range(count)]
        n += count
        t0 = time.perf_counter()
        out = asyncio.run(load(host, port, [body(d) for d in docs], c))
        numbers = _numbers(out, time.perf_counter() - t0)
        wrong += sum(1 for d, (_, status, data) in zip(docs, out)
                     if status != 200 or d.split("\n")[0] not in json.loads(data)["sheet"].split("\n")[0])
        step = max(len(docs) // check, 1)
        wrong += sum(1 for i in range(0, len(docs), step)
                     if json.loads(out[i][2])["sheet"] != expected_sheet(docs[i], to))
        return numbers

    results: dict[str, Any] = {"to": to, "concurrency": concurrency, "workers": workers}
    with server_process(workers) as (host, port):
        warm_up = [body(_named(document, -1 - i), k) for i, k in enumerate(default_registry().keys())]
        asyncio.run(load(host, port, warm_up + [body(_named(document, -100 - i)) for i in range(warm)], concurrency))

        results["different_npcs"] = different(requests, concurrency)
        want = expected_sheet(document, to)
        t0 = time.perf_counter()
        out = asyncio.run(load(host, port, [body(document)] * requests, concurrency))
        results["same_npc"] = _numbers(out, time.perf_counter() - t0)
        wrong += sum(1 for _, status, data in out if status != 200 or json.loads(data)["sheet"] != want)
        results["levels"] = {c: different(max(level_requests, 10 * c), c) for c in levels}
    results["wrong_answers"] = wrong
    return results


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m xsys.conversions.serve_bench", description=__doc__.split("\n")[0])
    p.add_argument("--requests", type=int, default=1000)
    p.add_argument("--concurrency", type=int, default=200)
    p.add_argument("--to", default="gurps")
    p.add_argument("--levels", default="1,2,4,8,32", help="lower concurrency levels to measure, comma-separated")
    p.add_argument("--workers", type=int, default=1, help="server worker processes (xsys serve --workers)")
    p.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = p.parse_args(argv)
    levels = tuple(int(x) for x in args.levels.split(",") if x.strip())
    r = bench(args.requests, args.concurrency, args.to, levels=levels, workers=args.workers)
    if args.json:
        print(json.dumps(r, indent=2))
        return 1 if r["wrong_answers"] else 0
    print(f"one-NPC conversions to {r['to']} against xsys serve on 127.0.0.1 (server in its own process, "
          f"{r['workers']} worker process{'es' if r['workers'] > 1 else ''}):")
    rows = [(f"different NPCs, {r['concurrency']} concurrent", r["different_npcs"]),
            (f"the same NPC, {r['concurrency']} concurrent (answer cache)", r["same_npc"])]
    rows += [(f"different NPCs, {c} concurrent", x) for c, x in r["levels"].items()]
    for what, x in rows:
        print(f"  {what:<48} median {x['median_ms']:>8} ms  p90 {x['p90_ms']:>8} ms  p99 {x['p99_ms']:>8} ms"
              f"  max {x['max_ms']:>8} ms  {x['per_s']:>7}/s  ({x['requests']} requests)")
    print(f"  wrong answers: {r['wrong_answers']}")
    return 1 if r["wrong_answers"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
