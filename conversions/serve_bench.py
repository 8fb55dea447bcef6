"""Latency of `xsys serve` under load: N concurrent one-NPC conversions against a real
uvicorn on 127.0.0.1 (issue 21: the median under 200 concurrent requests, warm, < 20 ms).

    python -m xsys.conversions.serve_bench [--requests 2000] [--concurrency 200] [--to gurps]

The server runs in this process (a thread), the client is a bounded pool of raw HTTP/1.1
keep-alive connections on asyncio (one per concurrent request, no extra dependency); each
answer is checked against the conversion computed directly. Latency is per request, from
sending it to the last byte of the answer; a warm-up round (every target system) runs
first and is not counted."""

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
def running(host: str = "127.0.0.1", port: int = 0, app: Any = None) -> Iterator[tuple[str, int]]:
    """A real uvicorn serving the app in a background thread; yields (host, port)."""
    import uvicorn

    from . import serve

    app = app if app is not None else serve.create_app()
    sock = serve._bind(host, port)
    server = uvicorn.Server(uvicorn.Config(app, log_config=None, log_level="warning", access_log=False))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="xsys-serve", daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
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


def bench(requests: int = 2000, concurrency: int = 200, to: str = "gurps", document: str = DEFAULT_NPC,
          warm: int = 200) -> dict[str, Any]:
    from xsys.core.registry import default_registry

    body = json.dumps({"document": document, "to": to, "format": "md"}).encode()
    want = expected_sheet(document, to)
    with running() as (host, port):
        warm_bodies = [json.dumps({"document": document, "to": k, "format": "md"}).encode()
                       for k in default_registry().keys()] + [body] * warm
        asyncio.run(load(host, port, warm_bodies, concurrency))
        t0 = time.perf_counter()
        out = asyncio.run(load(host, port, [body] * requests, concurrency))
        wall = time.perf_counter() - t0
    bad = sum(1 for _, status, data in out if status != 200 or json.loads(data)["sheet"] != want)
    lat = sorted(x[0] * 1000 for x in out)
    return {
        "requests": requests, "concurrency": concurrency, "to": to, "wrong_answers": bad,
        "median_ms": round(statistics.median(lat), 2),
        "p90_ms": round(lat[int(len(lat) * 0.9) - 1], 2), "p99_ms": round(lat[int(len(lat) * 0.99) - 1], 2),
        "max_ms": round(lat[-1], 2), "throughput_per_s": round(requests / wall, 1),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m xsys.conversions.serve_bench", description=__doc__.split("\n")[0])
    p.add_argument("--requests", type=int, default=2000)
    p.add_argument("--concurrency", type=int, default=200)
    p.add_argument("--to", default="gurps")
    p.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = p.parse_args(argv)
    r = bench(args.requests, args.concurrency, args.to)
    if args.json:
        print(json.dumps(r, indent=2))
    else:
        print(f"{r['requests']} one-NPC conversions to {r['to']}, {r['concurrency']} concurrent, 127.0.0.1: "
              f"median {r['median_ms']} ms, p90 {r['p90_ms']} ms, p99 {r['p99_ms']} ms, max {r['max_ms']} ms; "
              f"{r['throughput_per_s']} conversions/s; wrong answers: {r['wrong_answers']}")
    return 1 if r["wrong_answers"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
