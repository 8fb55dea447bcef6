"""``xsys serve``: binds the socket, says where the page is, and runs the server of the chosen
design: the asyncio front with its pool of conversion processes (conversions/serve.py), or the
pre-fork processes that take connections themselves (conversions/serve_prefork.py). Apart from
both, so that neither imports the other's runner."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from xsys.core.errors import InputError

from . import documents, serve, serve_net, serve_prefork


def run(host: str, port: int, info: Callable[[str], None], workers: int = 1, limits: "serve.Limits | None" = None) -> None:
    """Serve the page and the API until interrupted (Ctrl-C) with ``workers`` conversion
    processes and one more for quick requests (a conversion holds Python's interpreter lock,
    so one process converts on one core). uvicorn in this process (the front) reads HTTP
    and passes conversions to the pool; with two workers and more, where the system forks, the
    processes take connections themselves instead (XSYS_SERVE_PREFORK=0: the front and its pool)
    (conversions/serve_prefork.py)."""

    if not 0 <= port <= 65535:
        raise InputError("out of range", path="--port", expected="0 to 65535", found=str(port))
    if not 1 <= workers <= 64:
        raise InputError("out of range", path="--workers", expected="1 to 64 processes", found=str(workers))
    limits = replace(limits or serve.Limits.from_env(), workers=workers)
    documents.max_input_bytes()  # a clear error now if XSYS_MAX_INPUT_BYTES is not a size
    sock = serve._bind(host, port)
    bound = sock.getsockname()[1]
    loopback = host in ("127.0.0.1", "localhost", "::1")
    hosts = serve.local_hosts(bound) if loopback else None
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else ("localhost" if host == "::" else host)
    shown = f"[{shown}]" if ":" in shown else shown
    # worker_argv names the pool's conversion command (the benchmark's --front replaces it):
    # a server given one keeps the pool
    prefork = serve_prefork.wanted(workers) and limits.worker_argv is None
    if prefork:
        procs = f"{workers} conversion processes and one for quick requests, each taking connections itself"
    else:
        procs = f"{workers} conversion process{'es' if workers > 1 else ''} and one for quick requests"
    info(f"serving the page at http://{shown}:{bound}/ ({procs}; its API: /api/openapi/openapi.json); Ctrl-C stops it")
    if not loopback:
        info(f"listening on {host}, not only this machine: anyone who can reach port {bound} can use the page")
    serve_net.raise_fd_limit()
    if prefork:
        try:
            serve_prefork.run(sock, limits, hosts, info)
        finally:
            sock.close()
        return
    try:
        server = serve_net.server(serve_net.server_config(serve.create_app(hosts, limits), limits))
        server.run(sockets=[sock])
    finally:
        sock.close()
