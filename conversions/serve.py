"""`xsys serve`: the local web page and its JSON API (issue 21), a Litestar app run by uvicorn.

Every endpoint calls what the CLI calls (api.convert / api.dump, api.shots_of / api.odds,
curve.sweep / curve.plot, documents.schema, the registry), so the page and the API show the
numbers `xsys convert`, `xsys odds` and `xsys curve` print. A user error is the CLI's one
line, as ``{"error": line}`` with status 400 (a bad request: unknown system or format,
malformed request), 413 (too large) or 422 (a document or shot xsys cannot take); never a
traceback.

Concurrency: the handlers are synchronous, CPU-bound code and run in the framework's worker
threads (``sync_to_thread``). They share the registry and the caches (lru_cache, the
registry's own locks) read-only; the trace switch is a ContextVar. Two shared things are
not thread-safe and are serialised here: ``documents.schema`` (it swaps a msgspec
function while it runs, so its results are computed once under a lock and kept) and
matplotlib's pyplot (one chart drawn at a time)."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import logging
import os
import re
import tempfile
import threading
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Callable

import msgspec
from litestar import Litestar, MediaType, Response, get, post
from litestar.config.allowed_hosts import AllowedHostsConfig
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi import OpenAPIConfig
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.plugins import JsonRenderPlugin
from litestar.params import Body, Parameter

try:
    from litestar.params import QueryParameter
except ImportError:  # litestar before 2.25: the then-current way
    QueryParameter = None

from xsys.core import __version__
from xsys.core.errors import InputError, PluginError, UnknownSystemError, XsysError
from xsys.core.registry import default_registry

from . import documents

MEDIA = {".yaml": "application/yaml", ".json": "application/json", ".toml": "application/toml",
         ".md": "text/markdown"}
PASTED = "<pasted>"


# ---- requests and answers (msgspec Structs: the OpenAPI schema is generated from them) ----

class Request_(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Where a document comes from: its text, and what tells its format."""

    document: str | None = None
    #: the file's name (a dropped file): its extension tells the format, and errors name it
    filename: str | None = None
    #: yaml, json, toml, or a format plugin's name or extension (text: a plain-text stat block); none:
    #: the file name's extension, else sniffed (a text that is no YAML/JSON/TOML mapping is
    #: read as a plain-text stat block)
    input_format: str | None = None
    #: the source system of a document that does not say (`--from`)
    from_: str | None = msgspec.field(default=None, name="from")
    #: system settings SYSTEM.FIELD=VALUE (`--set`)
    settings: list[str] = []


class ConvertRequest(Request_, kw_only=True, forbid_unknown_fields=True):
    #: the target system key, or "neutral" (`--to`)
    to: str
    #: yaml, json, toml, md or a format plugin's, e.g. text (`--format`); none: as `xsys convert`
    #: chooses (the input's format)
    format: str | None = None
    #: put the trace in the converted file too (`--explain`; the answer always has it)
    explain: bool = False
    strict: bool = False
    fresh: bool = False


class ShotSpec(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A shot typed in: the inline options of `xsys odds` / `xsys curve`."""

    distance: str = "25m"
    light: str = "daylight"
    exposure: float = 1.0
    skill: float = 0.5
    weapon: str = "handgun"
    target_speed: str = "still"
    shooter_speed: str = "still"
    posture: str = "standing"
    shooter_posture: str = "standing"
    barrier: str | None = None
    aim: str = "0 s"
    burst: int = 1


class OddsRequest(Request_, kw_only=True, forbid_unknown_fields=True):
    """A shot or scenario `document`, or a typed `shot` (one of the two)."""

    shot: ShotSpec | None = None
    #: only these systems (`--system`); none: every installed system
    systems: list[str] = []


class CurveRequest(OddsRequest, kw_only=True, forbid_unknown_fields=True):
    #: AXIS=FROM..TO (`--sweep`): distance, light, exposure, skill, armor, target-speed, barrier
    sweep: str = "distance=2m..200m"
    points: int = 60
    #: which shot of a scenario, 1-based (`--shot`)
    shot_index: int = 1
    #: also draw the chart as SVG (needs matplotlib, the `plot` extra)
    svg: bool = True


class LossOut(msgspec.Struct, kw_only=True):
    level: str
    kind: str
    path: str
    message: str
    rule: str
    system: str
    text: str  # the line the CLI prints


class ConvertResponse(msgspec.Struct, kw_only=True):
    system: str
    source_system: str
    kind: str
    #: the converted file, as `xsys convert --format FORMAT` writes it
    output: str
    format: str
    filename: str
    media_type: str
    #: the Markdown sheet (`--format md`) and the same rendered as HTML, every text escaped
    sheet: str
    sheet_html: str
    losses: list[LossOut]
    #: how every number crossed, with rule IDs (`--explain`)
    trace: list[str]


class Shot_(msgspec.Struct, kw_only=True):
    shot: str
    results: list[dict[str, Any]]  # as `xsys odds --json`


class OddsResponse(msgspec.Struct, kw_only=True):
    shots: list[Shot_]
    errors: list[str] = []  # one line per system whose plugin failed


class CurveResponse(msgspec.Struct, kw_only=True):
    shot: str
    curve: dict[str, Any]  # as `xsys curve --json`
    svg: str | None = None  # as `xsys curve -o chart.svg`
    svg_error: str | None = None


class ErrorResponse(msgspec.Struct, kw_only=True):
    error: str  # the one line the CLI prints after "xsys: error: "


# ---- reading a posted document -----------------------------------------------------

_XSYS_KEY = re.compile(r"(?m)^kind[ \t]*:")


def _text_format() -> str | None:
    """The format a `.txt` file is read as (the plain-text stat block plugin), if any."""
    try:
        return documents.format_for("block.txt")
    except XsysError:
        return None


def _parse(data: bytes, fmt: str, name: str) -> tuple[Any, str]:
    """As documents.read_with_format reads a file: JSON that is no xsys document may be a
    format a plugin claims by its shape (a Foundry actor, a CCFOLIA character)."""
    plain = documents.parse_bytes(data, fmt, name)
    return documents.claim_json(plain, data, name, fmt) if fmt == "json" else (plain, fmt)


def read_document(req: Request_) -> tuple[Any, str, str]:
    """The posted document as plain data, its format and the name errors give it. The format:
    `input_format`, else the file name's extension, else sniffed as `xsys convert -` sniffs
    standard input; a pasted text that is no YAML/JSON/TOML mapping is read as a plain-text
    stat block."""
    if req.document is None:
        raise InputError("no document", path="$.document", expected="the document's text", found="none")
    name = req.filename or PASTED
    data = req.document.encode("utf-8")
    if req.input_format or req.filename:
        plain, fmt = _parse(data, documents.format_for(name, req.input_format), name)
        return plain, fmt, name
    fmt = documents.sniff_format(data)
    plain, sniffed_error = None, None
    try:
        try:
            plain, fmt = _parse(data, fmt, name)
        except InputError as first:
            if fmt != "json" or "too large" in first.message:
                raise
            try:  # a YAML flow mapping looks like JSON
                plain, fmt = documents.parse_bytes(data, "yaml", name), "yaml"
            except InputError:
                raise first from None
    except XsysError as exc:
        if "too large" in exc.message:
            raise
        sniffed_error = exc
    if isinstance(plain, dict):
        return plain, fmt, name
    # a JSON or TOML text, or a YAML one with the `kind:` key of an xsys document, with an
    # error in it: the error, not a stat block read from what it has
    if sniffed_error is not None and (fmt != "yaml" or _XSYS_KEY.search(req.document)):
        raise sniffed_error
    text = _text_format()
    if text is not None:
        try:
            return documents.parse_bytes(data, text, name), text, name
        except XsysError:
            if sniffed_error is None:
                raise
    if sniffed_error is not None:
        raise sniffed_error
    return plain, fmt, name


def _settings(pairs: list[str]) -> dict[str, dict[str, Any]]:
    """`--set` pairs, each checked against its system (as the CLI checks them)."""
    from . import api

    settings = api.parse_settings(pairs)
    for key, raw in settings.items():
        try:
            api.system_for(key, {key: raw})
        except XsysError as exc:
            exc.path = f"$.settings {key}{exc.path[1:] if exc.path and exc.path.startswith('$.') else ''}"
            raise
    return settings


# ---- the Markdown sheet as HTML -----------------------------------------------------

_md_parsers = threading.local()


def sheet_html(markdown: str) -> str:
    """The sheet's Markdown as HTML. markdown.render has escaped every name and note; raw
    HTML is off besides (it is shown as text), and links are not made."""
    md = getattr(_md_parsers, "md", None)
    if md is None:
        from markdown_it import MarkdownIt

        md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
        md.enable("table").disable(["link", "image", "autolink"])
        md.validateLink = lambda url: False
        _md_parsers.md = md
    return md.render(markdown)


# ---- the work of each endpoint (plain functions: the tests and the benchmark call them too) --

class AnswerCache:
    """Answers of recent requests, by the request's content: a conversion is a pure function
    of its request (the registry is fixed while the server runs), and the page asks for the
    same one again and again (each view, each format). Identical requests that arrive
    together are computed once: the others wait for that answer (single flight). Errors are
    not kept. Bounded by entries and by the size of what they hold."""

    def __init__(self, entries: int = 256, max_bytes: int = 64 * 1024 * 1024) -> None:
        self.entries, self.max_bytes = entries, max_bytes
        self._done: OrderedDict[bytes, tuple[Any, int]] = OrderedDict()
        self._running: dict[bytes, Future] = {}
        self._bytes = 0
        self._lock = threading.Lock()

    @staticmethod
    def key(request: Any) -> bytes:
        # the input limit too: a document over it must not be answered from before
        return hashlib.sha256(msgspec.msgpack.encode([documents.MAX_INPUT_BYTES, request])).digest()

    def peek(self, request: Any) -> Any:
        """The kept answer, or None (quick: fit to call from the event loop)."""
        key = self.key(request)
        with self._lock:
            hit = self._done.get(key)
            if hit is None:
                return None
            self._done.move_to_end(key)
            return hit[0]

    def get(self, request: Any, compute: Callable[[], Any], size: Callable[[Any], int]) -> Any:
        key = self.key(request)
        with self._lock:
            hit = self._done.get(key)
            if hit is not None:
                self._done.move_to_end(key)
                return hit[0]
            fut = self._running.get(key)
            mine = fut is None
            if mine:
                fut = self._running[key] = Future()
        if not mine:
            return fut.result()
        try:
            value = compute()
        except BaseException as exc:
            with self._lock:
                del self._running[key]
            fut.set_exception(exc)
            raise
        n = size(value)
        with self._lock:
            del self._running[key]
            if n <= self.max_bytes // 16:
                self._done[key] = (value, n)
                self._bytes += n
                while len(self._done) > self.entries or self._bytes > self.max_bytes:
                    _, (_, gone) = self._done.popitem(last=False)
                    self._bytes -= gone
        fut.set_result(value)
        return value


_answers = AnswerCache()
_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _workers() -> ThreadPoolExecutor:
    """The conversion threads: a few (the work holds the interpreter lock; more threads
    than cores only take turns), shared by every request."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=(os.cpu_count() or 1) + 2, thread_name_prefix="xsys-convert")
        return _pool


def _answer_size(r: "ConvertResponse") -> int:
    return len(r.output) + len(r.sheet) + len(r.sheet_html) + sum(len(t) for t in r.trace) + 200 * len(r.losses)


def convert_cached(req: ConvertRequest) -> ConvertResponse:
    """do_convert, through the answer cache."""
    return _answers.get(req, lambda: do_convert(req), _answer_size)


def do_convert(req: ConvertRequest) -> ConvertResponse:
    from . import api

    out_fmt = documents.output_format(req.format) if req.format is not None else None
    settings = _settings(req.settings)
    if req.to != documents.NEUTRAL:
        default_registry().entry(req.to)
    plain, in_fmt, name = read_document(req)
    try:
        loaded = api.from_plain(plain, name, req.from_)
        conv = api.convert(loaded, req.to, default_system=req.from_,
                           settings=settings, strict=req.strict, trace=True, fresh=req.fresh)
        fmt = out_fmt or documents.default_output_format(in_fmt)
        out = api.dump(conv, fmt, req.explain)
        sheet = out if fmt == "md" and not req.explain else api.dump(conv, "md", False)
    except XsysError as exc:
        raise exc.with_file(name)
    stem = Path(req.filename).stem if req.filename else (getattr(loaded.document, "name", None)
                                                        or getattr(conv.document, "name", None) or "converted")
    stem = re.sub(r"[^\w.-]+", "-", str(stem)).strip("-.") or "converted"
    sheet_text = sheet.decode("utf-8")
    ext = documents.output_formats().get(fmt, "." + fmt)
    return ConvertResponse(
        system=conv.target_system, source_system=conv.source_system, kind=conv.kind,
        output=out.decode("utf-8", errors="replace"), format=fmt, filename=f"{stem}.{req.to}{ext}",
        media_type=MEDIA.get(ext, "text/plain"),
        sheet=sheet_text, sheet_html=sheet_html(sheet_text),
        losses=[LossOut(level=x.level, kind=x.kind, path=x.path, message=x.message, rule=x.rule, system=x.system,
                        text=x.render()) for x in conv.losses],
        trace=[t.render() for t in conv.trace])


def _shots(req: OddsRequest) -> tuple[list[tuple[str, Any]], dict[str, dict[str, Any]], str]:
    """The shots of the request (its document's, or the typed one) and the settings."""
    from . import api
    from .inline import inline_shot

    settings = _settings(req.settings)
    for key in req.systems:
        default_registry().entry(key)
    if req.document is not None:
        plain, _, name = read_document(req)
        try:
            loaded = api.from_plain(plain, name, req.from_)
            shots, _ = api.shots_of(loaded, settings=settings)
        except XsysError as exc:
            raise exc.with_file(name)
        return shots, api._merge_settings(loaded.settings, settings), name
    if req.shot is not None:
        s = req.shot
        return [("inline shot", inline_shot(
            distance=s.distance, light=s.light, exposure=s.exposure, skill=s.skill, weapon=s.weapon,
            target_speed=s.target_speed, shooter_speed=s.shooter_speed, posture=s.posture,
            shooter_posture=s.shooter_posture, barrier=s.barrier, aim=s.aim, burst=s.burst))], settings, "inline shot"
    raise InputError("odds needs a document or a typed shot", path="$", expected="document (a shot or scenario) or shot")


def do_odds(req: OddsRequest) -> OddsResponse:
    from . import api

    shots, settings, _ = _shots(req)
    failures: list[PluginError] = []
    out = [Shot_(shot=name, results=[r.as_json() for r in api.odds(shot, req.systems or None, settings=settings,
                                                                   failures=failures)])
           for name, shot in shots]
    return OddsResponse(shots=out, errors=list({f.line(): None for f in failures}))


_plot_lock = threading.Lock()


def do_curve(req: CurveRequest) -> CurveResponse:
    from . import curve as curves

    axis, lo, hi = curves.parse_sweep(req.sweep)
    shots, settings, _ = _shots(req)
    if not 1 <= req.shot_index <= len(shots):
        raise InputError("no such shot", path="$.shot_index", expected=f"1 to {len(shots)}", found=str(req.shot_index))
    name, shot = shots[req.shot_index - 1]
    data = curves.sweep(shot, axis, lo, hi, req.points, req.systems or None, settings)
    svg = svg_error = None
    if req.svg:
        try:
            svg = chart_svg(data)
        except XsysError as exc:
            svg_error = exc.line()
    return CurveResponse(shot=name, curve=data.as_json(), svg=svg, svg_error=svg_error)


def chart_svg(data: Any) -> str:
    """The chart `xsys curve -o chart.svg` writes (curve.plot), as text. pyplot keeps global
    state, so one chart is drawn at a time."""
    from . import curve as curves

    with _plot_lock, tempfile.TemporaryDirectory(prefix="xsys-serve-") as tmp:
        path = str(Path(tmp) / "chart.svg")
        curves.plot(data, path)
        return Path(path).read_text(encoding="utf-8")


def systems_json() -> dict[str, Any]:
    """`xsys systems --json`, and the document formats the page offers."""
    reg = default_registry().load()
    rows = []
    for key in reg.keys():
        e = reg.entry(key)
        rows.append({"key": key, "name": e.cls.name, "edition": e.cls.edition, "dice": e.cls.dice,
                     "plugin": e.plugin, "distribution": e.distribution, "version": e.version})
    broken = [{"plugin": b.name, "distribution": b.distribution, "reason": b.reason} for b in reg.broken]
    inputs = list(documents.FORMATS) + list(reg.format_specs())
    return {"systems": rows, "broken": broken, "input_formats": inputs, "output_formats": list(documents.output_formats()),
            "shot_options": shot_options()}


def shot_options() -> dict[str, Any]:
    """What a typed shot and a curve take: the presets of the shared vocabulary and each
    curve axis with the range `xsys curve --sweep` documents."""
    from xsys.core.vocab import GAIT, ILLUMINANCE, POSTURES, WEAPON_CLASSES

    from .curve import AXES

    return {"light": list(ILLUMINANCE), "gait": list(GAIT), "posture": list(POSTURES),
            "weapon": list(WEAPON_CLASSES),
            "axes": {a: {"from": SWEEPS[a][0], "to": SWEEPS[a][1], "unit": AXES[a][1]} for a in AXES if a in SWEEPS}}


# the sweeps `xsys curve --help` offers, one per axis
SWEEPS = {"distance": ("2m", "200m"), "light": ("100000lx", "0lx"), "exposure": ("1", "0"),
          "skill": ("0.05", "0.95"), "armor": ("0J", "4000J"), "target-speed": ("0m/s", "8m/s"),
          "barrier": ("0cm", "40cm")}


_schema_lock = threading.Lock()


@lru_cache(maxsize=256)
def _schema_cached(kind: str, system: str) -> bytes:
    with _schema_lock:  # documents.schema swaps a msgspec function while it runs
        return msgspec.json.encode(documents.schema(kind, system))


def schema_json(kind: str | None, system: str) -> bytes:
    """`xsys schema [KIND] --system SYSTEM` (as JSON bytes)."""
    if kind is not None and kind not in documents.KINDS:
        raise InputError("unknown document kind", path="kind", expected=", ".join(documents.KINDS), found=repr(kind))
    if system != documents.NEUTRAL:
        default_registry().entry(system)
    if kind:
        return _schema_cached(kind, system)
    return b"{" + b",".join(msgspec.json.encode(k) + b":" + _schema_cached(k, system) for k in documents.KINDS) + b"}"


# ---- errors as one line --------------------------------------------------------------

def status_of(exc: XsysError) -> int:
    if "too large" in exc.message:
        return 413
    if isinstance(exc, UnknownSystemError) or exc.message in ("unknown input format", "unknown output format"):
        return 400
    if isinstance(exc, PluginError):
        return 500
    return 422


def _validation_line(exc: Any) -> str:
    """The framework's complaint about a request body, as one line in the CLI's form
    (``request: $.field: what is wrong``)."""
    details = [d for d in (getattr(exc, "extra", None) or []) if isinstance(d, dict)]
    msg, path = str(getattr(exc, "detail", "") or exc), None
    if details:
        msg = str(details[0].get("message") or msg)
        key = details[0].get("key")
        if key and key != "data":
            path = f"$.{key}"
    msg = re.sub(r"\s+", " ", msg).strip()
    m = re.search(r" - at `([^`]*)`$", msg)
    if m:
        msg, path = msg[:m.start()], m.group(1)
    return InputError(msg or "malformed request", file="request", path=path).line()


# ---- the page ------------------------------------------------------------------------

def _page() -> tuple[bytes, str]:
    """index.html and its Content-Security-Policy: scripts only the page's own (by hash),
    nothing loaded from anywhere else."""
    html = resources.files("xsys.conversions").joinpath("web/index.html").read_bytes()
    hashes = [base64.b64encode(hashlib.sha256(m.group(1)).digest()).decode()
              for m in re.finditer(rb"<script>(.*?)</script>", html, re.S)]
    styles = [base64.b64encode(hashlib.sha256(m.group(1)).digest()).decode()
              for m in re.finditer(rb"<style>(.*?)</style>", html, re.S)]
    csp = ("default-src 'none'; connect-src 'self'; img-src 'self' blob: data:; "
           + "script-src " + " ".join(f"'sha256-{h}'" for h in hashes) + "; "
           + "style-src " + " ".join(f"'sha256-{h}'" for h in styles) + "; "
           + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
    return html, csp


def body_limit() -> int:
    """The largest request body taken: room for the largest document the CLI reads (a
    file xsys wrote may be OUTPUT_FACTOR times the input limit) written as a JSON string
    (escapes may double it). The document itself is then held to the CLI's own limit."""
    return documents.max_input_bytes() * documents.OUTPUT_FACTOR * 2 + 65536


def _query(name: str, description: str) -> Any:
    if QueryParameter is not None:
        return QueryParameter(name=name, description=description)
    return Parameter(query=name, description=description)


def local_hosts(port: int) -> list[str]:
    """The Host headers a page served on this machine's loopback is reached by: a request
    naming any other host (a site that points its own name at 127.0.0.1, DNS rebinding)
    is refused."""
    return [f"{h}:{port}" for h in ("127.0.0.1", "localhost", r"[::1]")] + ["127.0.0.1", "localhost"]


def create_app(allowed_hosts: list[str] | None = None) -> Litestar:
    """The ASGI application; with `allowed_hosts`, only requests naming one of them."""
    html, csp = _page()
    limit = body_limit()
    security = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}
    errors = {400: ErrorResponse, 413: ErrorResponse, 422: ErrorResponse}

    @get("/", media_type=MediaType.HTML, include_in_schema=False, sync_to_thread=False)
    def index() -> Response[bytes]:
        return Response(html, media_type=MediaType.HTML,
                        headers={"Content-Security-Policy": csp, "Cache-Control": "no-cache", **security})

    @get("/api/systems", sync_to_thread=False, summary="Installed systems (`xsys systems --json`)")
    def systems() -> dict[str, Any]:
        return systems_json()

    @get("/api/schema", sync_to_thread=True, summary="JSON Schema of the input documents (`xsys schema`)",
         media_type=MediaType.JSON)
    def schema(system: Annotated[str, _query("system", "a system key, or neutral")] = "neutral",
               kind: Annotated[str | None, _query("kind", "npc, roster, scenario or shot; all when omitted")] = None,
               ) -> Response[bytes]:
        return Response(schema_json(kind, system), media_type=MediaType.JSON)

    @post("/api/convert", status_code=200, request_max_body_size=limit,
          summary="Convert a document to another system (`xsys convert`)")
    async def convert(data: Annotated[ConvertRequest, Body()]) -> ConvertResponse:
        # an answer kept from before is given at once; a conversion (CPU-bound) runs in a
        # small pool of threads, so the event loop keeps taking requests meanwhile
        hit = _answers.peek(data)
        if hit is not None:
            return hit
        return await asyncio.get_running_loop().run_in_executor(_workers(), convert_cached, data)

    @post("/api/odds", sync_to_thread=True, status_code=200, request_max_body_size=limit,
          summary="A shot in every system: native check, modifiers with rule IDs, exact chance (`xsys odds`)")
    def odds(data: Annotated[OddsRequest, Body()]) -> OddsResponse:
        return do_odds(data)

    @post("/api/curve", sync_to_thread=True, status_code=200, request_max_body_size=limit,
          summary="The chance along one axis in every system, with the SVG chart (`xsys curve`)")
    def curve(data: Annotated[CurveRequest, Body()]) -> CurveResponse:
        return do_curve(data)

    def on_xsys_error(_: Any, exc: XsysError) -> Response[ErrorResponse]:
        return Response(ErrorResponse(error=exc.line()), status_code=status_of(exc), headers=security)

    def on_http_error(request: Any, exc: HTTPException) -> Response[ErrorResponse]:
        if exc.status_code == 413:
            line = InputError("input too large", file="request body",
                              expected=f"at most {limit} bytes (room for a document within the "
                                       f"{documents._ENV} limit, {documents.max_input_bytes()} bytes)").line()
        elif isinstance(exc, ValidationException):
            line = _validation_line(exc)
        elif exc.status_code == 400:
            line = InputError(str(exc.detail), file="request body").line()
        else:
            line = InputError(str(exc.detail), file="request", path=request.url.path).line()
        return Response(ErrorResponse(error=line), status_code=exc.status_code, headers=security)

    def on_crash(_: Any, exc: Exception) -> Response[ErrorResponse]:
        # the traceback goes to the terminal that runs the server, one line to the client
        logging.getLogger("xsys.serve").error("internal error", exc_info=exc)
        line = f"internal error: {type(exc).__name__}: {exc}".replace("\n", " ")
        return Response(ErrorResponse(error=line), status_code=500, headers=security)

    for handler in (convert, odds, curve, schema):
        handler.responses = {code: _response_spec(code, cls) for code, cls in errors.items()}

    def warm() -> None:
        # the registry now; the dice tables and equating caches in the background, so the
        # first conversion a user asks for does not pay for them
        default_registry().load()
        threading.Thread(target=_warm_caches, name="xsys-serve-warm", daemon=True).start()

    return Litestar(
        route_handlers=[index, systems, schema, convert, odds, curve],
        exception_handlers={XsysError: on_xsys_error, HTTPException: on_http_error, Exception: on_crash},
        openapi_config=OpenAPIConfig(title="xsys", version=__version__, path="/api/openapi",
                                     render_plugins=[JsonRenderPlugin()],
                                     description="The JSON API of `xsys serve`: what the page calls."),
        on_startup=[warm],
        request_max_body_size=limit,
        allowed_hosts=AllowedHostsConfig(allowed_hosts=allowed_hosts) if allowed_hosts else None,
        logging_config=None,  # the process's logging is the caller's (no INFO lines from the app)
        debug=False,
    )


WARM_NPC = {"system": "neutral", "kind": "npc", "name": "warm-up", "skills": {"handgun": 0.5}}


def _warm_caches() -> None:
    from . import api

    for key in default_registry().keys():
        try:
            api.convert(WARM_NPC, key, trace=True)
        except Exception:  # a broken plugin shows itself when asked for; warming is best effort
            pass


def _response_spec(code: int, cls: type) -> Any:
    return ResponseSpec(data_container=cls, description={400: "a bad request (unknown system or format)",
                                                         413: "too large", 422: "a document xsys cannot take"}[code])


def _bind(host: str, port: int) -> Any:
    """A listening socket on host:port, or the CLI's one-line error."""
    import socket

    try:
        family, kind, proto, _, addr = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                          flags=socket.AI_PASSIVE)[0]
        sock = socket.socket(family, kind, proto)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            # answers go out at once: uvicorn's workers take this socket by its descriptor, as if it
            # were a Unix socket, and then never set TCP_NODELAY on the connections themselves (a
            # reply in two writes waited for the client's delayed ACK: 14 ms became 56 ms). On
            # Linux an accepted connection inherits the option from the listening socket.
            if family in (socket.AF_INET, socket.AF_INET6):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.bind(addr)
            sock.listen(2048)
        except OSError:
            sock.close()
            raise
    except (OSError, UnicodeError) as exc:
        raise XsysError(f"cannot listen on {host} port {port}: {getattr(exc, 'strerror', None) or exc}",
                        path="--host/--port", expected="an address of this machine and a free port") from None
    return sock


HOSTS_ENV = "XSYS_SERVE_HOSTS"  # how `run` tells worker processes which Host headers to answer


def worker_app() -> Litestar:
    """The application of one worker process of ``xsys serve --workers N`` (an app factory that
    uvicorn imports in each process): the hosts it answers come from the parent's environment."""
    hosts = os.environ.get(HOSTS_ENV, "")
    return create_app(msgspec.json.decode(hosts) if hosts else None)


def run(host: str, port: int, info: Callable[[str], None], workers: int = 1) -> None:
    """Serve the page and the API with uvicorn until interrupted (Ctrl-C). With ``workers`` > 1,
    uvicorn runs that many processes on the one listening socket: a conversion holds Python's
    interpreter lock, so one process converts on one core at a time."""
    import uvicorn

    if not 0 <= port <= 65535:
        raise InputError("out of range", path="--port", expected="0 to 65535", found=str(port))
    if not 1 <= workers <= 64:
        raise InputError("out of range", path="--workers", expected="1 to 64 processes", found=str(workers))
    sock = _bind(host, port)
    bound = sock.getsockname()[1]
    loopback = host in ("127.0.0.1", "localhost", "::1")
    hosts = local_hosts(bound) if loopback else None
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else ("localhost" if host == "::" else host)
    shown = f"[{shown}]" if ":" in shown else shown
    procs = f" ({workers} worker processes)" if workers > 1 else ""
    info(f"serving the page at http://{shown}:{bound}/{procs} (its API: /api/openapi/openapi.json); Ctrl-C stops it")
    if not loopback:
        info(f"listening on {host}, not only this machine: anyone who can reach port {bound} can use the page")
    try:
        if workers > 1:
            # uvicorn's own process manager over the socket bound above (public API: an import
            # string, a factory, the socket's descriptor)
            os.environ[HOSTS_ENV] = msgspec.json.encode(hosts).decode() if hosts else ""
            uvicorn.run("xsys.conversions.serve:worker_app", factory=True, fd=sock.fileno(), workers=workers,
                        log_level="warning", access_log=False)
        else:
            server = uvicorn.Server(uvicorn.Config(create_app(hosts), log_level="warning", access_log=False))
            server.run(sockets=[sock])
    finally:
        sock.close()
