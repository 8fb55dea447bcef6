"""`xsys serve`: the local web page and its JSON API, a Litestar app run by uvicorn.

Every endpoint calls what the CLI calls (api.convert / api.dump, api.shots_of / api.odds,
curve.sweep / curve.plot, documents.schema, the registry), so the page and the API show the
numbers `xsys convert`, `xsys odds` and `xsys curve` print. A user error is the CLI's one
line, as ``{"error": line}`` with status 400 (a bad request: unknown system or format,
malformed request, an option out of range), 403 (a request from another web site), 408 (not
received in time), 413 (too large), 415 (not JSON), 422 (a document or shot xsys cannot
take) or 503 (over the time budget, or the server is busy); never a traceback. Values taken
from the request are cut to a few dozen characters in these lines.

How the server spends its time (the process that runs uvicorn is the *front*):

* Conversions (convert, odds, curve) run in a small pool of conversion processes, each a
  Python of its own started by the front, so a conversion never holds the front's
  interpreter lock and the pool converts on as many cores as it has processes. ``workers``
  processes take any request; one more takes quick ones (a document under ``heavy_bytes``,
  a curve of at most ``heavy_points`` points) while all the others are busy with long ones,
  so a quick request never waits behind someone's long conversion. Requests wait in
  arrival order. A general process converting a quick request has the next quick one
  waiting in its pipe already, so it never idles while the front hears its answer and
  writes the next request (ConversionPool.DEPTH); one left there behind a request that
  turns long is given back to the queue.
* The conversion endpoints are answered by ApiFront before the Litestar app: the checks
  below, the body read within the limit, decoded by msgspec, sent to the pool, its JSON
  answered as it is. The page, /api/systems, /api/schema and the OpenAPI document are
  Litestar's.
* Every conversion request has a time budget (``time_limit``, from the moment its body is
  read: waiting for a process and converting). When it runs out the answer is 503 with one
  line, and a conversion still running is stopped by killing its process (a fresh one
  starts): Python cannot stop a thread that is running Python code, and a check of the
  deadline inside the conversion would bound only the code that checks it.
* Request bodies are read by the front within the size limit (refused at once when the
  Content-Length is over it, and stopped at the limit when it is not told); the bodies held
  at once are bounded too (``body_memory``), so memory stays flat however many are sent.
* The connection layer (conversions/serve_net.py) bounds slow clients and open connections.
* Answers are kept by the request's content (AnswerCache): a conversion is a pure function
  of its request, and the page asks for the same one again and again.

Only the page itself may POST: a request whose Origin or Sec-Fetch-Site says another web
site sent it is refused (a page the user visits elsewhere could otherwise make the browser
spend this machine's CPU), and the API takes only JSON (a form or text/plain body, which a
browser sends cross-site without asking, is 415)."""

from __future__ import annotations

import asyncio
import base64
import copy
import hashlib
import logging
import os
import re
import signal
import struct
import sys
import tempfile
import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Awaitable, Callable, Literal

import msgspec

from xsys.core import __version__
from xsys.core.errors import InputError, PluginError, UnknownSystemError, XsysError
from xsys.core.registry import default_registry

from . import documents

log = logging.getLogger("xsys.serve")

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
    #: a roster's loss report: "grouped" (one entry per kind of loss) or "full" (`--losses`)
    losses: Literal["grouped", "full"] = "grouped"


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


class NpcOut(msgspec.Struct, kw_only=True, omit_defaults=True):
    index: int
    name: str | None = None


class LossOut(msgspec.Struct, kw_only=True, omit_defaults=True):
    level: str
    kind: str
    path: str
    message: str
    rule: str
    system: str
    text: str  # the line the CLI prints
    #: a grouped roster report's entry: how many losses it stands for, and the first NPCs hit
    count: int = 1
    first_npcs: list[NpcOut] = []


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


# ---- limits ---------------------------------------------------------------------------------

TIME_LIMIT_ENV = "XSYS_SERVE_TIME_LIMIT"


@dataclass(frozen=True)
class Limits:
    """What one request may cost the server, and how many the server takes at once."""

    #: conversion processes that take any request (`xsys serve --workers`); one more takes
    #: quick requests while these are all busy with long ones
    workers: int = 1
    #: seconds a conversion request may take, waiting for a process and converting
    time_limit: float = 60.0
    #: a document longer than this (characters) is a long request: only the `workers`
    #: processes take it. A one-NPC block is 0.5-2 KB and converts in about 10 ms; a roster
    #: of 16 KB (about 100 NPCs) in about 0.2 s
    heavy_bytes: int = 16 * 1024
    #: a curve of more points than this is a long request (1,000 points: about 0.5 s)
    heavy_points: int = 250
    #: request bodies held at once, in bytes (None: 8 bodies of the largest size)
    body_memory: int | None = None
    #: connection layer (conversions/serve_net.py): seconds an idle keep-alive connection is
    #: kept; seconds a request's head and body may take to arrive; open connections at most
    keep_alive: float = 130.0
    request_timeout: float = 30.0
    max_connections: int = 1000
    #: the command that starts a conversion process (None: this Python, worker_main)
    worker_argv: tuple[str, ...] | None = None

    @classmethod
    def from_env(cls, **kw: Any) -> "Limits":
        raw = os.environ.get(TIME_LIMIT_ENV)
        if raw is not None:
            try:
                t = float(raw)
                if not 0 < t < 1e6:
                    raise ValueError
            except ValueError:
                raise InputError(f"{TIME_LIMIT_ENV} is not a number of seconds", expected="a number above 0, e.g. 60",
                                 found=repr(raw)) from None
            kw.setdefault("time_limit", t)
        return cls(**kw)


class BadRequest(InputError):
    """An option of the request itself is wrong (not the document): status 400."""


# ---- error lines for a client --------------------------------------------------------------

CUT = 60  # characters of a value from the request that an error line repeats
RUN = 200  # the longest unbroken run of characters an error line keeps (a file path fits)
LINE = 2000  # the longest error line


def _cut(text: str, n: int = CUT) -> str:
    if len(text) <= n:
        return text
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":  # a repr: keep its quotes
        return f"{text[:n]}…{text[0]} ({len(text) - 2:,} characters)"
    return f"{text[:n]}… ({len(text):,} characters)"


def short_line(line: str) -> str:
    """An error line with every long run of characters cut (a 10,000-character key that a
    message repeats comes back as its first characters and its length)."""
    line = re.sub(r"\S{%d,}" % (RUN + 1), lambda m: _cut(m.group(0), RUN), line)
    return _cut(line, LINE) if len(line) > LINE else line


def client_line(exc: XsysError) -> str:
    """The CLI's one line for an error, with what it repeats of the request cut short."""
    if exc.found is not None and len(str(exc.found)) > CUT:
        exc = copy.copy(exc)
        exc.found = _cut(str(exc.found))
    return short_line(exc.line())


def status_of(exc: XsysError) -> int:
    if isinstance(exc, BadRequest):
        return 400
    if exc.message.startswith(("input too large", "output too large")):  # documents' size limits
        return 413
    if isinstance(exc, UnknownSystemError) or exc.message in ("unknown input format", "unknown output format"):
        return 400
    if isinstance(exc, PluginError):
        return 500
    return 422


def error_body(line: str) -> bytes:
    return msgspec.json.encode(ErrorResponse(error=line))


def internal_line(exc: BaseException) -> str:
    return short_line(f"internal error: {type(exc).__name__}: {exc}".replace("\n", " "))
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
        out = api.dump(conv, fmt, req.explain, req.losses)
        sheet = out if fmt == "md" and not req.explain else api.dump(conv, "md", False, req.losses)
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
                        text=x.render(), count=getattr(x, "count", 1),
                        first_npcs=[NpcOut(index=n.index, name=n.name) for n in getattr(x, "first_npcs", ())])
                for x in conv.loss_report(req.losses)],
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


def parse_sweep(spec: str) -> tuple[str, float, float]:
    """`sweep` as `xsys curve --sweep` reads it; an error names the field and the range its
    axis takes (a number too large for a float is out of that range: a bad request, not a
    document too large)."""
    from . import curve as curves

    try:
        return curves.parse_sweep(spec)
    except InputError as exc:
        m = re.match(r"^\s*([a-z-]+)\s*=", spec)
        axis = m.group(1) if m else None
        expected = exc.expected
        message = exc.message
        if axis in curves.AXES:
            qtype, unit = curves.AXES[axis][0], curves.AXES[axis][1]
            span = "0 to 1" if qtype is None else f"0 {unit} or more, finite"
            example = f"{axis}={SWEEPS[axis][0]}..{SWEEPS[axis][1]}" if axis in SWEEPS else None
            if "too large" in message or message == "out of range":
                message = "out of range"
                expected = f"FROM and TO each {span} for {axis}" + (f", e.g. {example}" if example else "")
        raise BadRequest(message, path="$.sweep", expected=expected, found=exc.found) from None


_plot_lock = threading.Lock()


def do_curve(req: CurveRequest) -> CurveResponse:
    from . import curve as curves

    axis, lo, hi = parse_sweep(req.sweep)
    if not 2 <= req.points <= curves.MAX_POINTS:
        raise BadRequest("out of range", path="$.points", expected=f"2 to {curves.MAX_POINTS:,} points",
                         found=f"{req.points:,}")
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


# ---- a conversion process ---------------------------------------------------------------------
#
# The front writes a request as a frame: 4 bytes of length (big-endian), one byte saying
# which endpoint, the request as msgpack. The process answers with 4 bytes of length, 2 of
# HTTP status and the JSON body. A first answer of status 0 says the process is ready.

KINDS: dict[bytes, tuple[type, Callable[[Any], Any]]] = {
    b"c": (ConvertRequest, do_convert), b"o": (OddsRequest, do_odds), b"u": (CurveRequest, do_curve)}


def _frame(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", len(payload) + 1) + kind + payload


def work(kind: bytes, payload: bytes) -> tuple[int, bytes]:
    """One request, as a conversion process runs it: the status and the JSON answer."""
    try:
        typ, fn = KINDS[kind]
        return 200, msgspec.json.encode(fn(msgspec.msgpack.decode(payload, type=typ)))
    except XsysError as exc:
        return status_of(exc), error_body(client_line(exc))
    except Exception as exc:  # the traceback to the server's terminal, one line to the client
        log.error("internal error", exc_info=exc)
        return 500, error_body(internal_line(exc))


def worker_main() -> None:
    """A conversion process: frames in on stdin, answers out on stdout, until stdin ends."""
    # Ctrl-C in the terminal reaches every process of the group: the front stops the pool
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a stray print goes to the terminal, not into the answers
    sys.stdout = sys.stderr
    inp = sys.stdin.buffer
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    default_registry().load()
    # ready now; the dice tables and equating caches fill in the background (the first
    # conversion asked for does not wait for every system's, and a process that replaces a
    # killed one is taking requests within a second)
    threading.Thread(target=_warm_caches, name="xsys-serve-warm", daemon=True).start()
    out.write(struct.pack(">IH", 2, 0))
    out.flush()
    while True:
        head = inp.read(4)
        if len(head) < 4:
            return
        (n,) = struct.unpack(">I", head)
        body = inp.read(n)
        if len(body) < n:
            return
        status, answer = work(body[:1], body[1:])
        try:
            out.write(struct.pack(">IH", len(answer) + 2, status) + answer)
            out.flush()
            save_learnt()
        except BrokenPipeError:  # the front is gone: stop quietly (what is unwritten goes nowhere)
            os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())
            return


# ---- the pool -----------------------------------------------------------------------------------

Answer = tuple[int, bytes, dict[str, str]]  # status, JSON body, extra headers


class _Job:
    __slots__ = ("seq", "frame", "heavy", "future", "t0", "started", "timer", "worker", "expired")

    def __init__(self, seq: int, frame: bytes, heavy: bool, future: asyncio.Future) -> None:
        self.seq, self.frame, self.heavy, self.future = seq, frame, heavy, future
        self.t0 = time.monotonic()
        self.started: float | None = None  # when its process began converting it
        self.timer: asyncio.TimerHandle | None = None
        self.worker: _Worker | None = None  # the process that took it last (None: waiting in a queue)
        self.expired = False

    @property
    def done(self) -> bool:
        return self.future.done()

    def finish(self, answer: Answer) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if not self.future.done():
            self.future.set_result(answer)


class _Worker:
    def __init__(self, quick: bool) -> None:
        self.quick = quick  # takes only quick requests
        self.proc: asyncio.subprocess.Process | None = None
        self.ready = False
        #: the requests written to its pipe, in order: the first is being converted, the
        #: others wait in the pipe (see ConversionPool.DEPTH)
        self.jobs: deque[_Job] = deque()
        self.failures = 0


async def _read_answer(proc: asyncio.subprocess.Process) -> tuple[int, bytes]:
    assert proc.stdout is not None
    (n,) = struct.unpack(">I", await proc.stdout.readexactly(4))
    data = await proc.stdout.readexactly(n)
    return struct.unpack(">H", data[:2])[0], data[2:]


class ConversionPool:
    """``limits.workers`` conversion processes for any request, and one that takes quick
    requests while every other one is busy with a long one; one queue in arrival order (a
    long request skips ahead of nothing; a quick one waits only for quick ones); a deadline
    per request that kills the process past it.

    A general process converting a quick request is given the next quick one at once
    (DEPTH requests in its pipe): it starts on it the moment it answers, instead of waiting
    for the front to hear the answer and write the next request (on a machine whose cores
    are all busy that wait was a tenth of the served conversions' time). A request waiting
    in a pipe behind one that runs over SLOW seconds is put back at the head of the queue
    for any other process to take; whichever answer comes first is the answer (a
    conversion is a pure function of its request), so no quick request waits behind a
    long one in a pipe either."""

    STARTUP = 120.0  # seconds a new process may take to start
    GRACE = 2.0  # seconds a process may take to stop when the server stops
    SLOW = 1.0  # seconds after which a quick request counts as a long one
    DEPTH = 2  # quick requests in a general process's pipe at once (the one converting included)

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.workers = [_Worker(False) for _ in range(limits.workers)] + [_Worker(True)]
        self.light: deque[_Job] = deque()
        self.heavy: deque[_Job] = deque()
        self.seq = 0
        self.closed = False
        self.tasks: set[asyncio.Task] = set()
        self.argv = list(limits.worker_argv or (sys.executable, "-c",
                                                "from xsys.conversions.serve import worker_main; worker_main()"))
        env = dict(os.environ)
        if documents.MAX_INPUT_BYTES is not None:  # the front's input limit, in every process
            env[documents._ENV] = str(documents.MAX_INPUT_BYTES)
        self.env = env
        self._recheck: asyncio.TimerHandle | None = None

    # -- processes
    def start(self) -> None:
        for w in self.workers:
            self._spawn(w)

    def _bg(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _spawn(self, w: _Worker, delay: float = 0.0) -> None:
        w.ready = False
        self._bg(self._start(w, delay))

    async def _start(self, w: _Worker, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        if self.closed:
            return
        try:
            proc = await asyncio.create_subprocess_exec(*self.argv, stdin=asyncio.subprocess.PIPE,
                                                        stdout=asyncio.subprocess.PIPE, env=self.env)
        except OSError as exc:
            self._failed(w, f"cannot start: {exc}")
            return
        w.proc = proc
        try:
            status, _ = await asyncio.wait_for(_read_answer(proc), self.STARTUP)
            if status != 0:
                raise ValueError(f"status {status}")
        except (asyncio.TimeoutError, asyncio.IncompleteReadError, ConnectionError, ValueError) as exc:
            _kill(proc)
            self._bg(proc.wait())
            w.proc = None
            code = proc.returncode
            self._failed(w, f"exited with code {code} before it was ready" if code is not None else f"not ready: {exc!r}")
            return
        if self.closed:
            _kill(proc)
            return
        w.ready, w.failures = True, 0
        self._bg(self._watch(w, proc))
        self._bg(self._answers(w, proc))
        self._dispatch()

    async def _watch(self, w: _Worker, proc: asyncio.subprocess.Process) -> None:
        """A process that ends while it waits for work (killed from outside, out of memory)
        is replaced at once; one that ends while converting is _answers's to replace."""
        code = await proc.wait()
        if not self.closed and w.proc is proc and not w.jobs:
            log.warning("xsys serve: a conversion process stopped (exit code %s) while idle; a new one is starting", code)
            self._replace(w)

    def _failed(self, w: _Worker, why: str) -> None:
        w.failures += 1
        delay = min(30.0, 0.5 * 2 ** w.failures)
        log.warning("xsys serve: a conversion process %s; trying again in %g s", why, delay)
        self._spawn(w, delay)

    def _replace(self, w: _Worker) -> None:
        proc = w.proc
        w.proc, w.ready = None, False
        self._requeue(w)
        if proc is not None:
            _kill(proc)
            self._bg(proc.wait())
        self._spawn(w)

    def _requeue(self, w: _Worker) -> None:
        """The requests in a stopped process's pipe that it had not begun: back to the head
        of their queue, in their order (one another process has taken since stays there)."""
        for job in reversed(w.jobs):
            if not job.done and job.worker is w:
                job.worker, job.started = None, None
                (self.heavy if job.heavy else self.light).appendleft(job)
        w.jobs.clear()

    async def close(self) -> None:
        self.closed = True
        stopping: Answer = (503, error_body("request: the server is stopping"), {})
        for q in (self.light, self.heavy):
            while q:
                q.popleft().finish(stopping)
        procs = [w.proc for w in self.workers if w.proc is not None]
        for t in list(self.tasks):
            t.cancel()
        # the end of its input stops an idle process, and it saves what it learnt (the
        # on-disk cache, at exit); a busy one is killed (as is one that is slow to stop)
        for w in self.workers:
            if w.proc is not None and w.jobs:
                _kill(w.proc)
            for job in w.jobs:
                job.finish(stopping)
            w.jobs.clear()
        for p in procs:
            if p.stdin is not None:
                p.stdin.close()
        for p in procs:
            try:
                await asyncio.wait_for(p.wait(), self.GRACE)
            except asyncio.TimeoutError:
                _kill(p)
                await p.wait()

    # -- requests
    def submit(self, kind: bytes, payload: bytes, heavy: bool) -> asyncio.Future:
        """Queue a request; the future gives its Answer."""
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        if self.closed:
            fut.set_result((503, error_body("request: the server is stopping"), {}))
            return fut
        self.seq += 1
        job = _Job(self.seq, _frame(kind, payload), heavy, fut)
        job.timer = loop.call_at(loop.time() + self.limits.time_limit, self._expire, job)
        (self.heavy if heavy else self.light).append(job)
        self._dispatch()
        return fut

    def _next(self, quick_only: bool) -> _Job | None:
        for q in (self.light, self.heavy):
            while q and q[0].done:  # answered meanwhile by a process it was put back from
                q.popleft()
        light = self.light[0] if self.light else None
        if quick_only:
            return self.light.popleft() if light else None
        heavy = self.heavy[0] if self.heavy else None
        if light is not None and (heavy is None or light.seq < heavy.seq):
            return self.light.popleft()
        return self.heavy.popleft() if heavy is not None else None

    def _long(self, w: _Worker, now: float) -> bool:
        """Busy with a long request, or with a quick one that has run over SLOW seconds."""
        head = w.jobs[0] if w.jobs else None
        return head is not None and (head.heavy or now - (head.started or now) > self.SLOW)

    def _held(self, w: _Worker, now: float) -> bool:
        """A general process that will not take a quick request soon: starting, or busy with
        a long request (or with one that has run over SLOW seconds)."""
        return not w.ready or w.proc is None or self._long(w, now)

    def _dispatch(self) -> None:
        now = time.monotonic()
        for w in self.workers:
            if not w.quick and len(w.jobs) > 1 and self._long(w, now):
                self._take_back(w)
        out: dict[int, list[_Job]] = {}
        # first a request for every free process, then one more in the pipe of each general
        # process converting a quick one (not yet long), the queue's oldest if it is quick
        for pipe in range(self.DEPTH):
            for i, w in enumerate(self.workers):
                if not (self.light or self.heavy):
                    break
                if not (w.ready and w.proc is not None) or len(w.jobs) != pipe:
                    continue
                if pipe == 0:
                    # the quick process converts only while every general one is held: under
                    # quick requests alone, `workers` processes convert (one core each), not one more
                    if w.quick and not all(self._held(g, now) for g in self.workers if not g.quick):
                        continue
                    job = self._next(w.quick)
                else:
                    if w.quick or w.jobs[-1].heavy or self._long(w, now):
                        continue
                    job = self._next(False)
                    if job is not None and job.heavy:  # the oldest waiting is long: it waits for a free process
                        self.heavy.appendleft(job)
                        continue
                if job is None:
                    continue
                job.worker = w
                if not w.jobs:
                    job.started = now
                w.jobs.append(job)
                out.setdefault(i, []).append(job)
        for i, jobs in out.items():
            self._write(self.workers[i], b"".join(j.frame for j in jobs))
        self._arm(now)

    def _arm(self, now: float) -> None:
        """Look again when the quick request a general process converts turns long (the quick
        process may step in, and what waits in its pipe goes back to the queue)."""
        due = [w.jobs[0].started + self.SLOW for w in self.workers
               if not w.quick and w.jobs and not w.jobs[0].heavy and w.jobs[0].started is not None
               and w.jobs[0].started + self.SLOW > now]
        if not due or self.closed:
            return
        loop = asyncio.get_running_loop()
        at = loop.time() + (min(due) - now) + 0.001
        if self._recheck is not None and self._recheck.when() <= at:
            return
        if self._recheck is not None:
            self._recheck.cancel()
        self._recheck = loop.call_at(at, self._recheck_now)

    def _recheck_now(self) -> None:
        self._recheck = None
        self._dispatch()

    def _take_back(self, w: _Worker) -> None:
        """The requests waiting in the pipe of a process whose current one has turned long:
        back to the head of the queue, for any process (they stay in the pipe too)."""
        for job in reversed(list(w.jobs)[1:]):
            if not job.done and job.worker is w:
                job.worker = None
                (self.heavy if job.heavy else self.light).appendleft(job)

    def _write(self, w: _Worker, data: bytes) -> None:
        proc = w.proc
        assert proc is not None and proc.stdin is not None
        try:
            proc.stdin.write(data)
        except (ConnectionError, OSError, RuntimeError):
            pass  # the process is gone: _answers sees its output end and answers for it
        else:
            if proc.stdin.transport.get_write_buffer_size():  # a large document: wait for the pipe
                self._bg(self._drain(proc))

    @staticmethod
    async def _drain(proc: asyncio.subprocess.Process) -> None:
        try:
            assert proc.stdin is not None
            await proc.stdin.drain()
        except (ConnectionError, OSError):
            pass

    async def _answers(self, w: _Worker, proc: asyncio.subprocess.Process) -> None:
        """The answers of a process, in the order of its requests, until its output ends."""
        while True:
            try:
                status, body = await _read_answer(proc)
            except (asyncio.IncompleteReadError, ConnectionError, OSError) as exc:
                if w.proc is proc and w.jobs and not self.closed:
                    await self._stopped(w, proc, exc)
                return
            if w.proc is not proc or not w.jobs:  # replaced meanwhile (nothing to answer)
                return
            w.jobs.popleft().finish((status, body, {}))
            if w.jobs:
                w.jobs[0].started = time.monotonic()
            self._dispatch()

    async def _stopped(self, w: _Worker, proc: asyncio.subprocess.Process, exc: BaseException) -> None:
        """A process that ended while converting: the request it converted answered (over the
        time budget, or the process's end), those waiting in its pipe put back, a new one started."""
        w.ready = False  # nothing more is written to it
        job = w.jobs[0]
        if job.expired:
            job.finish(self._over_budget(job))
        else:
            try:  # its exit code, for the line
                await asyncio.wait_for(proc.wait(), 2.0)
            except asyncio.TimeoutError:
                pass
            code = proc.returncode
            log.error("xsys serve: a conversion process stopped (%s) while converting; a new one is starting",
                      f"exit code {code}" if code is not None else type(exc).__name__)
            job.finish((500, error_body(f"internal error: the conversion process stopped "
                                        f"({f'exit code {code}' if code is not None else type(exc).__name__})"
                                        f" while converting this request"), {}))
        w.jobs.popleft()
        if w.proc is proc:
            self._replace(w)
        else:
            self._requeue(w)
        self._dispatch()

    def _expire(self, job: _Job) -> None:
        job.timer = None
        if job.done:
            return
        job.expired = True
        w = job.worker
        if w is None or not w.jobs or w.jobs[0] is not job:
            # still waiting: in a queue, or in a pipe behind another request
            if w is None:
                q = self.heavy if job.heavy else self.light
                if job in q:
                    q.remove(job)
            job.finish(self._over_budget(job))
        elif w.proc is not None:
            from . import serve_net

            serve_net.NOTICES.note("budget", time_limit=self.limits.time_limit)
            _kill(w.proc)  # _answers sees the end of its output and answers

    def _over_budget(self, job: _Job) -> Answer:
        now = time.monotonic()
        waited = (job.started or now) - job.t0
        if job.started is None:
            found = f"{waited:.1f} s waiting for a conversion process (the server is busy)"
            headers = {"Retry-After": "5"}
        else:
            found = f"{waited:.1f} s waiting for a conversion process, then {now - job.started:.1f} s converting"
            headers = {}
        line = InputError("over the time budget", file="request",
                          expected=f"an answer within {self.limits.time_limit:g} s, the limit of this server "
                                   f"({TIME_LIMIT_ENV}; the CLI has none)", found=found).line()
        return 503, error_body(line), headers

    def state(self) -> dict[str, Any]:
        return {"processes": len(self.workers), "ready": sum(w.ready for w in self.workers),
                "busy": sum(bool(w.jobs) for w in self.workers),
                "waiting": len(self.light) + len(self.heavy),
                "pids": [w.proc.pid for w in self.workers if w.proc is not None]}


def _kill(proc: asyncio.subprocess.Process) -> None:
    if proc.returncode is None:
        try:
            proc.kill()
        except ProcessLookupError:
            pass


# ---- answers kept --------------------------------------------------------------------------------

class AnswerCache:
    """Answers of recent requests, by the request's content: a conversion is a pure function
    of its request (the registry is fixed while the server runs), and the page asks for the
    same one again and again (each view, each format). Identical requests that arrive
    together are computed once: the others wait for that answer (single flight). Only
    answers with status 200 are kept. Bounded by entries and by the size of what they hold."""

    def __init__(self, entries: int = 256, max_bytes: int = 64 * 1024 * 1024) -> None:
        self.entries, self.max_bytes = entries, max_bytes
        self._done: OrderedDict[bytes, bytes] = OrderedDict()
        self._running: dict[bytes, asyncio.Future] = {}
        self._bytes = 0

    @staticmethod
    def key(kind: bytes, payload: bytes) -> bytes:
        """The request's endpoint and content (as msgpack), and the input limit: a document
        over the limit must not be answered from before."""
        return hashlib.sha256(msgspec.msgpack.encode([documents.MAX_INPUT_BYTES, kind]) + payload).digest()

    def peek(self, key: bytes) -> bytes | None:
        hit = self._done.get(key)
        if hit is not None:
            self._done.move_to_end(key)
        return hit

    def keep(self, key: bytes, value: bytes) -> None:
        if len(value) > self.max_bytes // 16 or key in self._done:
            return
        self._done[key] = value
        self._bytes += len(value)
        while len(self._done) > self.entries or self._bytes > self.max_bytes:
            _, gone = self._done.popitem(last=False)
            self._bytes -= len(gone)

    async def answer(self, key: bytes, compute: Callable[[], Awaitable[Answer]]) -> Answer:
        hit = self.peek(key)
        if hit is not None:
            return 200, hit, {}
        fut = self._running.get(key)
        if fut is None:
            # the pool's future itself when compute gives one (no task of its own: a task is
            # a turn of the event loop more for every request)
            fut = self._running[key] = asyncio.ensure_future(compute())
            fut.add_done_callback(lambda f: self._computed(key, f))
        # shielded: a client that goes away does not stop the answer the others wait for
        return await asyncio.shield(fut)

    def _computed(self, key: bytes, fut: asyncio.Future) -> None:
        if self._running.get(key) is fut:
            del self._running[key]
        if not fut.cancelled() and fut.exception() is None and fut.result()[0] == 200:
            self.keep(key, fut.result()[1])


class Runtime:
    """What one app holds while it runs: its pool, its kept answers, the bodies in memory."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.pool: ConversionPool | None = None
        self.answers = AnswerCache()
        self.body_bytes = 0  # bytes of the request bodies being handled now

    def start(self) -> None:
        self.pool = ConversionPool(self.limits)
        self.pool.start()

    async def close(self) -> None:
        if self.pool is not None:
            await self.pool.close()

    def heavy(self, req: Request_) -> bool:
        long_doc = req.document is not None and len(req.document) > self.limits.heavy_bytes
        return long_doc or (isinstance(req, CurveRequest) and req.points > self.limits.heavy_points)

    async def answer(self, kind: bytes, req: Request_) -> Answer:
        assert self.pool is not None, "the app has not started"
        pool = self.pool
        payload = msgspec.msgpack.encode(req)
        heavy = self.heavy(req)
        return await self.answers.answer(self.answers.key(kind, payload), lambda: pool.submit(kind, payload, heavy))

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
    """The largest request body read: the input limit (XSYS_MAX_INPUT_BYTES, the CLI's),
    and a sixteenth more for the JSON escapes of the document (a newline is two bytes in a
    JSON string: a YAML file grows by about 3%) and 64 KiB for the other fields. The document
    itself is then held to the CLI's own limit. (A file xsys wrote may be up to OUTPUT_FACTOR
    times the limit for the CLI; the server does not read bodies that large.)"""
    limit = documents.max_input_bytes()
    return limit + limit // 16 + 65536


def _query(name: str, description: str) -> Any:
    try:
        from litestar.params import QueryParameter
    except ImportError:  # litestar before 2.25: the then-current way
        from litestar.params import Parameter

        return Parameter(query=name, description=description)
    return QueryParameter(name=name, description=description)



def _validation_line(exc: Any) -> str:
    """The framework's complaint about a request body, as one line in the CLI's form
    (``request: $.field: what is wrong``)."""
    return short_line(_validation_error(exc).line())


def _validation_error(exc: Any) -> BadRequest:
    """A decoder's complaint (msgspec's, or Litestar's carrying it) as a bad request naming
    the field's path."""
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
    return BadRequest(msg or "malformed request", file="request", path=path)


def too_large_line(limit: int) -> str:
    return InputError("input too large", file="request body",
                      expected=f"at most {limit} bytes (room for a document within the "
                               f"{documents._ENV} limit, {documents.max_input_bytes()} bytes)").line()


# ---- who may ask, and for how much --------------------------------------------------------

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def _same_origin(origin: bytes, host: bytes | None) -> bool:
    """The Origin a browser sends with the page's own requests: this server's scheme and
    the Host the request names (a default port may be left out of either)."""
    scheme, sep, rest = origin.lower().partition(b"://")
    if not sep or scheme not in (b"http", b"https") or host is None:
        return False
    default = b":80" if scheme == b"http" else b":443"
    strip = (lambda h: h[:-len(default)] if h.endswith(default) else h)
    return strip(rest) == strip(host.lower())


Refusal = tuple[int, str, dict[bytes, bytes]]  # status, error line, extra headers


def refusal(headers: dict[bytes, bytes], limit: int, rt: "Runtime", memory: int) -> tuple[Refusal | None, int]:
    """Why a state-changing or costly request (any method but GET/HEAD/OPTIONS) is refused
    before a byte of its body is read, if it is: sent by another web site (403), not JSON
    (415), a bad or too large Content-Length (400, 413), or more request bodies in memory
    than ``memory`` bytes (503, with Retry-After). Else None and the bytes to reserve for
    its body (its Content-Length, or the limit when the body comes in chunks)."""
    site, origin = headers.get(b"sec-fetch-site"), headers.get(b"origin")
    # behind a reverse proxy the page's origin is the name the proxy was reached by, which
    # it passes on as X-Forwarded-Host (a page elsewhere cannot add that header to a request
    # without the browser asking this server first, which it does not answer)
    own = (headers.get(b"host"), headers.get(b"x-forwarded-host"))
    if site not in (None, b"same-origin", b"none") or (
            origin is not None and not any(_same_origin(origin, h) for h in own)):
        who = (origin or b"").decode("latin-1") or f"Sec-Fetch-Site: {site.decode('latin-1')}"  # type: ignore[union-attr]
        return (403, InputError(
            "refused: sent by another web site", file="request",
            expected="a request from this server's own page, or from a program that sends no Origin",
            found=_cut(who)).line(), {}), 0
    ctype = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
    if ctype != b"application/json":
        return (415, InputError(
            "not JSON", file="request", path="Content-Type", expected="application/json",
            found=_cut(repr(ctype.decode("latin-1"))) if ctype else "none").line(), {}), 0
    raw = headers.get(b"content-length")
    size = None
    if raw is not None:
        try:
            size = int(raw)
        except ValueError:
            size = -1
        if size < 0:
            return (400, InputError("bad Content-Length", file="request", expected="a whole number of bytes",
                                    found=_cut(repr(raw))).line(), {}), 0
        if size > limit:
            return (413, too_large_line(limit), {}), 0
    need = limit if size is None else size  # a body sent in chunks may grow to the limit
    if rt.body_bytes and rt.body_bytes + need > memory:
        return (503, InputError(
            "server busy", file="request",
            expected=f"request bodies of at most {memory} bytes at once (try again in a moment)",
            found=f"{rt.body_bytes} bytes being handled, and {need} more").line(), {b"retry-after": b"1"}), 0
    return None, need


def _first_headers(scope: Any) -> dict[bytes, bytes]:
    headers: dict[bytes, bytes] = {}
    for k, v in scope["headers"]:
        headers.setdefault(k, v)
    return headers


class Guard:
    """ASGI middleware in front of every Litestar route: a state-changing or costly request
    (any method but GET/HEAD/OPTIONS) that `refusal` refuses is answered before a byte of
    its body is read; the bodies handled at once are held to ``runtime.limits.body_memory``
    bytes. (The conversion endpoints do not reach it: ApiFront answers them first, with the
    same checks.)"""

    def __init__(self, app: Any, runtime: Runtime, limit: int) -> None:
        self.app, self.runtime, self.limit = app, runtime, limit
        self.memory = runtime.limits.body_memory or 8 * limit

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        refused, need = refusal(_first_headers(scope), self.limit, self.runtime, self.memory)
        if refused is not None:
            await _refuse(send, *refused)
            return
        rt = self.runtime
        rt.body_bytes += need
        try:
            await self.app(scope, receive, send)
        finally:
            rt.body_bytes -= need


API_KINDS = {"/api/convert": (b"c", ConvertRequest), "/api/odds": (b"o", OddsRequest), "/api/curve": (b"u", CurveRequest)}


class ApiFront:
    """The conversion endpoints (POST /api/convert, /api/odds, /api/curve), answered before
    the Litestar app: the checks of `refusal` (and the Host check a loopback server makes),
    the body read within the size limit, decoded by msgspec into the request's Struct, sent
    to the pool, and the pool's JSON answered as it is. Litestar's routing, dependency and
    response layers cost about half a millisecond of the front's CPU a request (measured
    with devtools/serve_bench.py), a tenth of a conversion; what they would do here is
    only this. The error lines are those the Litestar handlers gave (_validation_line and
    the malformed-JSON and nesting lines), so the routes' OpenAPI description still holds."""

    def __init__(self, runtime: "Runtime", limit: int, allowed_hosts: list[str] | None) -> None:
        self.runtime, self.limit = runtime, limit
        self.memory = runtime.limits.body_memory or 8 * limit
        self.hosts = frozenset(h.lower().encode("latin-1") for h in allowed_hosts) if allowed_hosts else None

    def takes(self, scope: Any) -> bool:
        return scope["type"] == "http" and scope["method"] == "POST" and scope["path"] in API_KINDS

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await self._answer(scope, receive, send)
        except _Gone:
            return
        except Exception as exc:  # the traceback to the server's terminal, one line to the client
            log.error("internal error", exc_info=exc)
            await _send_json(send, 500, error_body(internal_line(exc)), {})

    async def _answer(self, scope: Any, receive: Any, send: Any) -> None:
        headers = _first_headers(scope)
        if self.hosts is not None and (headers.get(b"host") or b"").lower() not in self.hosts:
            found = (headers.get(b"host") or b"").decode("latin-1")
            await _refuse(send, 400, InputError(
                "not this server's name", file="request", path="Host",
                expected="a name of this machine's loopback (127.0.0.1 or localhost, and the port)",
                found=_cut(repr(found)) if found else "none").line())
            return
        refused, need = refusal(headers, self.limit, self.runtime, self.memory)
        if refused is not None:
            await _refuse(send, *refused)
            return
        rt = self.runtime
        rt.body_bytes += need
        try:
            body = await self._body(receive)
            if body is None:
                await _refuse(send, 413, too_large_line(self.limit))
                return
            kind, typ = API_KINDS[scope["path"]]
            try:
                req = decode_request(body, typ)
            except XsysError as exc:
                await _send_json(send, 400, error_body(short_line(exc.line())), {})
                return
            del body
            status, answer, extra = await rt.answer(kind, req)
        finally:
            rt.body_bytes -= need
        await _send_json(send, status, answer, {k.lower().encode(): v.encode() for k, v in extra.items()})

    async def _body(self, receive: Any) -> bytes | None:
        """The request's body, or None once it grows over the limit (the rest is not read)."""
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise _Gone
            chunk = message.get("body", b"")
            if chunk:
                size += len(chunk)
                if size > self.limit:
                    return None
                chunks.append(chunk)
            if not message.get("more_body", False):
                return chunks[0] if len(chunks) == 1 else b"".join(chunks)


class _Gone(Exception):
    """The client went away before its body came."""


def decode_request(body: bytes, typ: type) -> Any:
    """A request body as its Struct, or the one line (BadRequest) of what is wrong with it:
    malformed JSON and too deep a nesting name the request body, a field of the wrong type
    or one not known names its path."""
    try:
        plain = msgspec.json.decode(body)
    except msgspec.DecodeError as exc:
        raise BadRequest(str(exc), file="request body") from None
    except RecursionError:
        raise BadRequest("nested too deeply", file="request body", expected="JSON of ordinary depth",
                         found="more levels of nesting than the decoder follows") from None
    try:
        return msgspec.convert(plain, type=typ)
    except msgspec.ValidationError as exc:
        raise _validation_error(exc) from None


async def _send_json(send: Any, status: int, body: bytes, extra: dict[bytes, bytes]) -> None:
    hs = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *_SECURITY_RAW,
          *extra.items()]
    await send({"type": "http.response.start", "status": status, "headers": hs})
    await send({"type": "http.response.body", "body": body, "more_body": False})


SECURITY = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}
_SECURITY_RAW = [(k.lower().encode(), v.encode()) for k, v in SECURITY.items()]


async def _refuse(send: Any, status: int, line: str, headers: dict[bytes, bytes] | None = None) -> None:
    """An answer given before the body is read: the connection is closed after it (the rest
    of the body is not read)."""
    body = error_body(line)
    hs = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
          (b"connection", b"close")] + [(k.lower().encode(), v.encode()) for k, v in SECURITY.items()]
    hs += list((headers or {}).items())
    await send({"type": "http.response.start", "status": status, "headers": hs})
    await send({"type": "http.response.body", "body": body, "more_body": False})


def local_hosts(port: int) -> list[str]:
    """The Host headers a page served on this machine's loopback is reached by: a request
    naming any other host (a site that points its own name at 127.0.0.1, DNS rebinding)
    is refused."""
    return [f"{h}:{port}" for h in ("127.0.0.1", "localhost", r"[::1]")] + ["127.0.0.1", "localhost"]


def create_app(allowed_hosts: list[str] | None = None, limits: Limits | None = None) -> Any:
    """The ASGI application (a Litestar app); with `allowed_hosts`, only requests naming one
    of them. Its conversion processes start with the app (its lifespan) and stop with it."""
    from litestar import Litestar, MediaType, Response, get, post
    from litestar.config.allowed_hosts import AllowedHostsConfig
    from litestar.exceptions import HTTPException, ValidationException
    from litestar.middleware import DefineMiddleware
    from litestar.openapi import OpenAPIConfig
    from litestar.openapi.plugins import JsonRenderPlugin
    from litestar.params import Body

    limits = limits or Limits.from_env()
    html, csp = _page()
    limit = body_limit()
    rt = Runtime(limits)
    errors = {400: ErrorResponse, 403: ErrorResponse, 413: ErrorResponse, 415: ErrorResponse,
              422: ErrorResponse, 503: ErrorResponse}

    def reply(answer: Answer) -> Any:
        status, body, extra = answer
        return Response(body, status_code=status, media_type=MediaType.JSON, headers={**SECURITY, **extra})

    @get("/", media_type=MediaType.HTML, include_in_schema=False, sync_to_thread=False)
    def index() -> Response[bytes]:
        return Response(html, media_type=MediaType.HTML,
                        headers={"Content-Security-Policy": csp, "Cache-Control": "no-cache", **SECURITY})

    @get("/api/systems", sync_to_thread=False, summary="Installed systems (`xsys systems --json`)")
    def systems() -> dict[str, Any]:
        return systems_json()

    @get("/api/schema", sync_to_thread=True, summary="JSON Schema of the input documents (`xsys schema`)",
         media_type=MediaType.JSON)
    def schema(system: Annotated[str, _query("system", "a system key, or neutral")] = "neutral",
               kind: Annotated[str | None, _query("kind", "npc, roster, scenario or shot; all when omitted")] = None,
               ) -> Response[bytes]:
        return Response(schema_json(kind, system), media_type=MediaType.JSON)

    # conversions run in the pool (see the module's docstring); the answer is its JSON as is
    @post("/api/convert", status_code=200, request_max_body_size=limit,
          summary="Convert a document to another system (`xsys convert`)")
    async def convert(data: Annotated[ConvertRequest, Body()]) -> Response[ConvertResponse]:
        return reply(await rt.answer(b"c", data))

    @post("/api/odds", status_code=200, request_max_body_size=limit,
          summary="A shot in every system: native check, modifiers with rule IDs, exact chance (`xsys odds`)")
    async def odds(data: Annotated[OddsRequest, Body()]) -> Response[OddsResponse]:
        return reply(await rt.answer(b"o", data))

    @post("/api/curve", status_code=200, request_max_body_size=limit,
          summary="The chance along one axis in every system, with the SVG chart (`xsys curve`)")
    async def curve(data: Annotated[CurveRequest, Body()]) -> Response[CurveResponse]:
        return reply(await rt.answer(b"u", data))

    def on_xsys_error(_: Any, exc: XsysError) -> Response[ErrorResponse]:
        return Response(ErrorResponse(error=client_line(exc)), status_code=status_of(exc), headers=SECURITY)

    def on_http_error(request: Any, exc: HTTPException) -> Response[ErrorResponse]:
        headers = dict(SECURITY)
        if exc.status_code == 413:
            line = too_large_line(limit)
            headers["Connection"] = "close"  # the rest of the body is not read
        elif isinstance(exc, ValidationException):
            line = _validation_line(exc)
        elif exc.status_code == 400:
            line = short_line(InputError(str(exc.detail), file="request body").line())
        else:
            line = short_line(InputError(str(exc.detail), file="request", path=request.url.path).line())
        return Response(ErrorResponse(error=line), status_code=exc.status_code, headers=headers)

    def on_too_deep(_: Any, exc: RecursionError) -> Response[ErrorResponse]:
        # only the JSON decoder recurses in the front (conversions run in their own processes)
        line = InputError("nested too deeply", file="request body",
                          expected="JSON of ordinary depth", found="more levels of nesting than the decoder follows").line()
        return Response(ErrorResponse(error=line), status_code=400, headers=SECURITY)

    def on_crash(_: Any, exc: Exception) -> Response[ErrorResponse]:
        # the traceback goes to the terminal that runs the server, one line to the client
        log.error("internal error", exc_info=exc)
        return Response(ErrorResponse(error=internal_line(exc)), status_code=500, headers=SECURITY)

    for handler in (convert, odds, curve, schema):
        handler.responses = {code: _response_spec(code, cls) for code, cls in errors.items()}

    def start() -> None:
        default_registry().load()
        rt.start()

    front = ApiFront(rt, limit, allowed_hosts)

    class App(Litestar):
        async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
            if front.takes(scope):
                await front(scope, receive, send)
                return
            await super().__call__(scope, receive, send)

    app = App(
        route_handlers=[index, systems, schema, convert, odds, curve],
        exception_handlers={XsysError: on_xsys_error, HTTPException: on_http_error, RecursionError: on_too_deep,
                            Exception: on_crash},
        openapi_config=OpenAPIConfig(title="xsys", version=__version__, path="/api/openapi",
                                     render_plugins=[JsonRenderPlugin()],
                                     description="The JSON API of `xsys serve`: what the page calls."),
        middleware=[DefineMiddleware(Guard, runtime=rt, limit=limit)],
        # the handlers' annotations are strings (future annotations) naming these local imports
        signature_namespace={"Response": Response, "Body": Body},
        on_startup=[start],
        on_shutdown=[rt.close],
        request_max_body_size=limit,
        allowed_hosts=AllowedHostsConfig(allowed_hosts=allowed_hosts) if allowed_hosts else None,
        logging_config=None,  # the process's logging is the caller's (no INFO lines from the app)
        debug=False,
    )
    app.state.xsys = rt  # the tests and the benchmark look at the pool through it
    return app
WARM_NPC = {"system": "neutral", "kind": "npc", "name": "warm-up", "skills": {"handgun": 0.5}}


def _warm_caches() -> None:
    """Every system's tables, and a conversion into each: from the on-disk cache in a fraction
    of a second, else computed once here (seconds, on a new install) rather than in the first
    request that needs one, and written to the cache for the other processes."""
    from ..core import cache
    from . import api

    for key in default_registry().keys():
        try:
            api.convert(WARM_NPC, key, trace=True)
        except Exception:  # a broken plugin shows itself when asked for; warming is best effort
            pass
    default_registry().build_tables(strict=False)
    cache.save_all()


def save_learnt() -> None:
    """After a request: write the tables it computed (a context no table had yet), so the
    server's other processes, and the ones that replace them, read them instead."""
    from ..core import cache

    if cache.learnt():
        cache.save_all()


def _response_spec(code: int, cls: type) -> Any:
    from litestar.openapi.datastructures import ResponseSpec

    return ResponseSpec(data_container=cls, description={
        400: "a bad request (unknown system or format, an option out of range, malformed JSON)",
        403: "sent by another web site (its Origin or Sec-Fetch-Site)", 413: "too large",
        415: "not application/json", 422: "a document xsys cannot take",
        503: "over the time budget, or the server is busy (then with Retry-After)"}[code])


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
