"""The ``xsys`` command line (typer). Every user error prints one line to stderr and
exits 2; nothing here prints a traceback for bad input.

Exit status: 0 success, 1 ``--strict`` losses, 2 a usage or input error (also ``xsys``
with no arguments: the help on stderr), 129 SIGHUP, 130 Ctrl-C (SIGINT), 143 SIGTERM (each
after removing its temporary files), 141 standard output closed by its reader (a broken
pipe, as a shell reports a program ended by SIGPIPE)."""

from __future__ import annotations

import signal
import sys


def _interrupted_while_starting(signum, frame):  # pragma: no cover - timing dependent
    if sys.stderr is not None:
        sys.stderr.write("xsys: interrupted\n")
    raise SystemExit(130)


# Ctrl-C while the modules below load (a good part of a second on a slow machine) ends
# with one line, not a traceback from deep inside an import. The handler is put back at
# the end of this module; main() installs its own for the run.
_sigint_before = None
try:
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        _sigint_before = signal.signal(signal.SIGINT, _interrupted_while_starting)
except ValueError:  # not the main thread: signals are not ours to handle
    pass

import errno  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import stat  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Annotated, Any, Optional  # noqa: E402

import typer  # noqa: E402
from typer.core import TyperCommand, TyperGroup  # noqa: E402

from xsys.core import __version__  # noqa: E402
from xsys.core.containment import PluginHalt  # noqa: E402
from xsys.core.errors import InputError, XsysError  # noqa: E402
from xsys.core.registry import default_registry  # noqa: E402
from xsys.core.trace import printable, report_lines  # noqa: E402

from . import documents  # noqa: E402

# ---- help screens ---------------------------------------------------------------------

def _unwrapped(text: str | None) -> str | None:
    """A docstring's paragraphs each on one line: typer's rich help keeps a docstring's
    single line breaks, so a sentence wrapped in the source broke mid-sentence on screen."""
    if not text:
        return text
    import inspect

    return "\n\n".join(" ".join(p.split()) for p in inspect.cleandoc(text).split("\n\n"))


# In the help of an option or argument that takes a system key: the installed systems. They
# are looked up when a help screen is shown, never otherwise (that loads every plugin).
SYSTEMS = "{installed systems}"


def _installed_systems() -> str:
    try:
        keys = default_registry().keys()
    except XsysError:
        keys = []
    return ", ".join(keys) if keys else "none installed"


def _for_the_screen(cmd: Any, ctx: Any) -> None:
    """A command as its help screen shows it: a flag without a value type (typer 0.29 shows
    ``--json <bool>``, its own ``--help`` too, as though they took a value), the installed
    systems where a help says {installed systems}, and square brackets in help texts as
    written (rich markup reads ``xsys[plot]`` as a style)."""
    rich = getattr(cmd, "rich_markup_mode", None) == "rich"
    if rich:
        from rich.markup import escape
    for p in cmd.get_params(ctx):
        if getattr(p, "is_flag", False) and getattr(p, "metavar", None) is None:
            p.metavar = ""
        if getattr(p, "help", None) and SYSTEMS in p.help:
            p.help = p.help.replace(SYSTEMS, _installed_systems())
        if rich and getattr(p, "help", None):
            p.help = escape(p.help)
    if rich and cmd.help:
        cmd.help = escape(cmd.help)


class _Command(TyperCommand):
    """A built-in command: its help reads as written (see :func:`_for_the_screen`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help = _unwrapped(self.help)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _for_the_screen(self, ctx)
        super().format_help(ctx, formatter)


class _Group(TyperGroup):
    """The root: its own options, and the first paragraph of each built-in command's help in
    the list of commands, as written."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _for_the_screen(self, ctx)
        if getattr(self, "rich_markup_mode", None) == "rich":
            from rich.markup import escape

            for cmd in self.commands.values():
                if isinstance(cmd, _Command) and cmd.help:
                    cmd.help = escape(cmd.help)
        super().format_help(ctx, formatter)


app = typer.Typer(
    name="xsys",
    help="Convert tabletop-RPG combat material between game systems through a neutral physical model.",
    cls=_Group,
    add_completion=False,
    pretty_exceptions_enable=False,
    no_args_is_help=True,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"xsys {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[Optional[bool], typer.Option("--version", callback=_version, is_eager=True,
                                                    help="Print the version and exit.")] = None,
) -> None:
    """xsys: NPCs, weapons, armor and firefight scenarios from one game system to another."""


# ---- standard streams ----------------------------------------------------------------

class _Stop(BaseException):
    """Ends the run at once with one line on stderr and an exit status: Ctrl-C, or a
    standard output that cannot be written. A BaseException, so that neither typer nor a
    command's ``except Exception`` turns it into something else."""

    def __init__(self, code: int, line: str, signalled: bool = False) -> None:
        super().__init__(line)
        self.code = code
        self.line = line
        self.signalled = signalled


def _output_failed(exc: OSError) -> _Stop:
    if exc.errno == errno.EPIPE:
        return _Stop(141, "xsys: stopped: standard output was closed by its reader (broken pipe)")
    return _Stop(2, f"xsys: error: cannot write to standard output: {exc.strerror or exc}")


def _unencodable(exc: UnicodeEncodeError) -> _Stop:
    bad = exc.object[exc.start:exc.end] if isinstance(exc.object, str) else "?"
    return _Stop(2, f"xsys: error: standard output cannot show {ascii(bad)} in its encoding {exc.encoding} "
                    "(expected a UTF-8 terminal: set PYTHONIOENCODING=utf-8, or write to a file with -o)")


def _emit(text: str) -> None:
    """Human-readable text to stdout, in the terminal's encoding."""
    try:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    except OSError as exc:
        raise _output_failed(exc) from None
    except UnicodeEncodeError as exc:
        raise _unencodable(exc) from None


def _write_text(text: str) -> None:
    """A piece of human-readable text to stdout as it is (no newline added)."""
    try:
        sys.stdout.write(text)
    except OSError as exc:
        raise _output_failed(exc) from None
    except UnicodeEncodeError as exc:
        raise _unencodable(exc) from None


def _emit_bytes(data: bytes) -> None:
    """A document or JSON to stdout: UTF-8 whatever the terminal's encoding, as files are."""
    out = sys.stdout
    try:
        buf = getattr(out, "buffer", None)
        if buf is None:
            out.write(data.decode("utf-8"))
        else:
            out.flush()
            buf.write(data)
            buf.flush()
    except OSError as exc:
        raise _output_failed(exc) from None
    except UnicodeEncodeError as exc:
        raise _unencodable(exc) from None


def _emit_json(obj: Any) -> None:
    _emit_bytes(json.dumps(obj, indent=2, ensure_ascii=False).encode("utf-8") + b"\n")


class _ClosedStream(io.RawIOBase):
    """Stands in for a standard stream the process was started without (``<&-``, ``>&-``):
    using it is an OSError that the usual handlers report, not an AttributeError on None."""

    def __init__(self, which: str) -> None:
        super().__init__()
        self.which = which
        self.silent = False

    def readable(self) -> bool:
        return True

    def writable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        raise OSError(errno.EBADF, f"standard {self.which} is closed")

    def write(self, b: Any) -> int:
        if self.silent:
            return len(b)
        raise OSError(errno.EBADF, f"standard {self.which} is closed")


def _stand_in_for_closed_streams() -> None:
    if sys.stdin is None:
        sys.stdin = io.TextIOWrapper(io.BufferedReader(_ClosedStream("input")), encoding="utf-8")
    if sys.stdout is None:
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(_ClosedStream("output")), encoding="utf-8")


def _silence_stdout() -> None:
    """After stdout failed: send what is still buffered nowhere, so that the interpreter's
    final flush does not fail a second time with a message of its own."""
    out = sys.stdout
    raw = getattr(getattr(out, "buffer", None), "raw", None)
    if isinstance(raw, _ClosedStream):
        raw.silent = True
        return
    try:
        fd = out.fileno()
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, fd)
        finally:
            os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def _flush_stdout() -> None:
    try:
        sys.stdout.flush()
    except OSError as exc:
        raise _output_failed(exc) from None


@app.command(cls=_Command)
def systems(
    as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False,
) -> None:
    """List the installed game systems (and any plugin that failed to load)."""
    reg = default_registry().load()
    rows = []
    for key in reg.keys():
        e = reg.entry(key)
        cls = e.cls
        rows.append({"key": key, "name": cls.name, "edition": cls.edition, "dice": cls.dice,
                     "plugin": e.plugin, "distribution": e.distribution, "version": e.version})
    broken = [{"plugin": b.name, "distribution": b.distribution, "reason": b.reason} for b in reg.broken]
    if as_json:
        _emit_json({"systems": rows, "broken": broken})
        return
    if not rows:
        _emit("no systems installed")
    width = max((len(r["key"]) for r in rows), default=4)
    for r in rows:
        _emit(f"{r['key']:<{width}}  {r['name']} — {r['edition']}  [{r['distribution']} {r['version']}]")
    for b in broken:
        typer.echo(f"broken plugin {b['plugin']} ({b['distribution']}): {b['reason']}", err=True)


@app.command(cls=_Command)
def schema(
    kind: Annotated[Optional[str], typer.Argument(help="npc, roster, scenario or shot (all when omitted).")] = None,
    system: Annotated[str, typer.Option("--system", "-s", metavar="KEY", help=f"A system key ({SYSTEMS}), or neutral.")] = "neutral",
) -> None:
    """Print the JSON Schema of the input documents (from msgspec)."""
    kinds = [kind] if kind else list(documents.KINDS)
    out = {k: documents.schema(k, system) for k in kinds}
    _emit_bytes(json.dumps(out[kind] if kind else out, indent=2, ensure_ascii=False, sort_keys=True).encode("utf-8")
                + b"\n")


@app.command(cls=_Command)
def validate(
    files: Annotated[list[Path], typer.Argument(help="Documents or folders to check (YAML, JSON or TOML).")],
    input_format: Annotated[Optional[str], typer.Option("--input-format", help="yaml, json, toml or a format plugin's "
                                                        "(text, foundry-coc7 ...).")] = None,
    system: Annotated[Optional[str], typer.Option("--from", metavar="KEY", help=f"System of files that do not say: {SYSTEMS}.")] = None,
) -> None:
    """Check documents without converting them; reports every file.

    In a folder, files that are not xsys documents (no system: or kind: key) and special
    files are skipped."""
    from . import api
    from .readreport import read_losses

    bad = 0
    for f, folder in _expand([str(x) for x in files]):
        try:
            data = documents.read_plain(f, input_format)
            if folder is not None and not _is_document(data):
                _info(f"skipped {f}: not an xsys document (it has no system: or kind: key)")
                continue
            loaded = api.from_plain(data, str(f), system)
            for key, raw in loaded.settings.items():
                api.system_for(key, {key: raw})  # settings are checked too
            _emit(f"ok: {printable(f)} ({loaded.system} {loaded.kind})")
            for loss in read_losses(loaded.meta, loaded.system):  # what a format plugin could not read
                typer.echo(f"{printable(str(f))}: {loss.render()}", err=True)
        except XsysError as exc:
            bad += 1
            typer.echo(exc.with_file(str(f)).line(), err=True)
    if bad:
        typer.echo(f"{bad} file(s) invalid", err=True)
        raise typer.Exit(2)


DOC_SUFFIXES = (".yaml", ".yml", ".json", ".toml")


def _info(text: str) -> None:
    typer.echo(printable(f"xsys: info: {text}"), err=True)


_told: set[str] = set()  # plugin faults a command already said as errors (odds: failing house rules)


def _says_skipped(command: Any) -> Any:
    """A command that ends (however it ends) with one line on stderr for each installed plugin
    it skipped, naming the plugin and saying why: a plugin that hangs at import costs the
    time limit once (then it is remembered and skipped at once), and either way the user
    learns which plugin it was and why it is missing."""
    import functools

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        _told.clear()
        try:
            return command(*args, **kwargs)
        finally:
            for b in default_registry().broken:
                if b.reason not in _told:
                    typer.echo(f"xsys: warning: {printable(b.line())}", err=True)
    return run


def _is_document(data: Any) -> bool:
    """Whether plain data means to be an xsys document: a mapping with a ``system`` or a
    ``kind`` key. One with a typo in either still names the other and is reported."""
    return isinstance(data, dict) and ("system" in data or "kind" in data)


def _expand(inputs: list[str], skip_under: Path | None = None) -> list[tuple[str, str | None]]:
    """Every file to read, with the folder it was found in (None for a file named as it
    is; one found in a folder is skipped when it is not a document). A folder gives its regular .yaml/.yml/.json/.toml files, in
    order, except those under ``skip_under`` (an output folder inside it); a folder with
    none is an error. A named file is read as it is, even a pipe (``<(...)``)."""
    out: list[tuple[str, str | None]] = []
    skip = skip_under.resolve() if skip_under is not None else None
    for raw in inputs:
        p = Path(raw)
        if raw == "-" or not p.is_dir():
            out.append((raw, None))
            continue
        root = p.resolve()
        # an output folder inside this one holds what an earlier run wrote: not input
        skip_here = skip if skip is not None and skip != root and skip.is_relative_to(root) else None
        found = []
        for q in sorted(p.rglob("*")):
            if q.suffix.lower() not in DOC_SUFFIXES:
                continue
            if skip_here is not None and q.resolve().is_relative_to(skip_here):
                continue
            if not q.is_file():
                if not q.is_dir():
                    _info(f"skipped {q}: not a regular file")
                continue
            found.append((str(q), raw))
        if not found:
            raise InputError("no documents in this folder", file=raw,
                             expected="files ending in .yaml, .yml, .json or .toml", found="none")
        out.extend(found)
    return out


@app.command("catalog", cls=_Command)
def catalog_cmd(
    section: Annotated[Optional[str], typer.Argument(help="weapon, armor or material (all when omitted).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False,
) -> None:
    """List the catalog of real weapons, armor and barrier materials."""
    cat = default_registry().catalog()
    plain = cat.as_plain()
    if section is not None and section not in plain:
        raise XsysError("unknown catalog section", expected="weapon, armor or material", found=repr(section))
    if as_json:
        _emit_json(plain[section] if section else plain)
        return
    for sec in [section] if section else list(plain):
        _emit(f"# {sec}")
        for item in plain[sec]:
            if sec == "material":
                extra = f"stops {item['stops_per_cm']} per cm"
            elif sec == "armor":
                extra = f"{item.get('kind', '')}, stops {item['stops']}"
            else:
                extra = f"{item['weapon_class']}, {item['muzzle_energy']}"
            _emit(f"{item['id']:<28} {item['name']}  ({extra})")



def _settings(pairs: list[str]) -> dict[str, dict[str, Any]]:
    """``--set`` options, each checked against its system now: an unknown system or field
    is an error even when the conversion would not use that system."""
    from . import api

    try:
        settings = api.parse_settings(pairs)
    except XsysError as exc:
        exc.path = exc.path or "--set"
        raise
    for key, raw in settings.items():
        try:
            api.system_for(key, {key: raw})
        except XsysError as exc:
            sub = exc.path or ""
            field = sub[1:] if sub.startswith("$.") and not sub.startswith("$.settings") else ""
            exc.path = f"--set {key}{field}"
            raise
    return settings


@app.command(cls=_Command)
@_says_skipped
def convert(
    inputs: Annotated[list[str], typer.Argument(help="Document files, folders, or - for standard input.")],
    to: Annotated[str, typer.Option("--to", "-t", metavar="KEY", help=f"Target system: {SYSTEMS}, or neutral.")],
    from_: Annotated[Optional[str], typer.Option("--from", "-f", metavar="KEY", help=f"Source system, for files that do not say: {SYSTEMS}.")] = None,
    output: Annotated[Optional[str], typer.Option("--output", "-o", help="Write to this file (one input); - for standard output.")] = None,
    out_dir: Annotated[Optional[Path], typer.Option("--out-dir", help="Write each output here, mirroring input names.")] = None,
    fmt: Annotated[Optional[str], typer.Option("--format", help="yaml, json, toml, md or a format plugin's: text, ccfolia, "
                                               "foundry-coc7 ... (default: the -o file's extension, else the input's, "
                                               "else yaml).")] = None,
    input_format: Annotated[Optional[str], typer.Option("--input-format", help="yaml, json, toml or a format plugin's "
                                                        "(text, foundry-coc7 ...) for - or odd names.")] = None,
    explain: Annotated[bool, typer.Option("--explain", help="Add the trace: rule IDs, seed/assumed, the neutral value between.")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Fail (exit 1) when anything is lost.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Do not print the loss report.")] = False,
    set_: Annotated[list[str], typer.Option("--set", metavar="SYSTEM.FIELD=VALUE", help="A system setting (repeatable).")] = [],
    fresh: Annotated[bool, typer.Option("--fresh", help="Ignore the source a converted document remembers: "
                                        "show the conversion for what it is.")] = False,
    losses: Annotated[str, typer.Option("--losses", metavar="grouped|full",
                                        help="A roster's loss report: grouped (one entry per kind of loss, with "
                                        "its count and first NPCs) or full (one per loss).")] = "grouped",
) -> None:
    """Convert NPCs, rosters, scenarios and shots to another system (A -> neutral -> B).

    Files in a folder that are not xsys documents are skipped (said on stderr)."""
    if fmt is not None:
        fmt = documents.output_format(fmt)
    elif output not in (None, "-"):  # -o npc.yaml writes YAML whatever the input was
        fmt = documents.output_format_of_path(output)
    if output is not None and out_dir is not None:
        raise XsysError("give -o or --out-dir, not both")
    from .lossgroups import check_mode

    check_mode(losses)
    settings = _settings(set_)
    default_registry().entry(to) if to != "neutral" else None
    jobs = _jobs(inputs, out_dir)
    if len(jobs) > 1 and out_dir is None:
        raise XsysError("several inputs need --out-dir", expected="--out-dir DIR", found=f"{len(jobs)} inputs")
    if output is not None and output != "-":
        _refuse_replacing_an_input(jobs, output)
    # standard input is read first: its format, sniffed, names its output in --out-dir
    stdin: tuple[Any, str] | XsysError | None = None
    if any(src == "-" for src, _, _ in jobs):
        try:
            stdin = documents.read_with_format("-", input_format)
        except XsysError as exc:
            stdin = exc
    stdin_fmt = stdin[1] if isinstance(stdin, tuple) else None
    dests = _destinations(jobs, out_dir, fmt, input_format, stdin_fmt) if out_dir is not None else {}
    to_stdout = output is None or output == "-"
    failed = strict_failed = skipped = 0
    bar = _Progress.start(len(jobs))
    try:
        failed, strict_failed, skipped = _convert_jobs(
            jobs, bar, stdin, dests, to, from_, output, out_dir, to_stdout, fmt, input_format, explain, strict,
            quiet, settings, fresh, losses)
    finally:
        bar.stop()
    done = len(jobs) - failed - strict_failed - skipped
    if len(jobs) > 1:
        typer.echo(f"converted {done} of {len(jobs) - skipped} file(s)"
                   + (f"; {failed + strict_failed} failed" if failed + strict_failed else "")
                   + (f"; {skipped} skipped" if skipped else ""), err=True)
    if failed:
        raise typer.Exit(2)
    if strict_failed:
        raise typer.Exit(1)
    if done == 0:
        raise InputError("nothing converted", file=", ".join(inputs), expected="at least one xsys document",
                         found=f"{skipped} file(s) that are not xsys documents")


class _Progress:
    """A progress bar on stderr (rich: rate and time left) for a folder's files and for
    the NPCs of a streamed roster; nothing at all when stderr is not a terminal."""

    def __init__(self, files: int) -> None:
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn,
                                   TimeRemainingColumn)
        from rich.text import Text

        class Rate(ProgressColumn):
            def render(self, task: Any) -> Text:
                n = task.fields.get("npcs")
                elapsed = task.elapsed or 0.0
                if n is not None and elapsed > 0:
                    return Text(f"{n / elapsed:,.0f} NPC/s")
                speed = task.speed
                return Text(f"{speed:,.1f} files/s" if speed else "")

        self.progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), Rate(),
                                 TimeRemainingColumn(), console=Console(file=sys.stderr), transient=True,
                                 redirect_stdout=False, redirect_stderr=True)
        self.files = self.progress.add_task("files", total=files, visible=files > 1) if files > 1 else None
        self.roster: Any = None
        self.progress.start()

    @classmethod
    def start(cls, files: int) -> "_Progress | _NoProgress":
        try:
            tty = sys.stderr is not None and sys.stderr.isatty()
        except (ValueError, OSError):
            tty = False
        if not tty:
            return _NoProgress()
        try:
            return cls(files)
        except ImportError:  # pragma: no cover - rich comes with typer
            return _NoProgress()

    def file(self, rel: str) -> None:
        if self.files is not None:
            self.progress.update(self.files, description=printable(rel)[-40:])

    def file_done(self) -> None:
        if self.files is not None:
            self.progress.advance(self.files)
        if self.roster is not None:
            self.progress.remove_task(self.roster)
            self.roster = None

    def npcs(self, name: str) -> Any:
        def update(done: int, total: int | None, reached: int) -> None:
            if self.roster is None:
                self.roster = self.progress.add_task(printable(name)[-40:], total=total or None, npcs=0)
            if total is not None:
                self.progress.update(self.roster, completed=done, npcs=done)
            else:  # a YAML roster: how far into the file, in bytes
                self.progress.update(self.roster, completed=reached, total=self._size, npcs=done,
                                     description=f"{printable(name)[-30:]} ({done:,} NPCs)")

        try:
            self._size = os.path.getsize(name)
        except OSError:
            self._size = None
        return update

    def stop(self) -> None:
        self.progress.stop()


class _NoProgress:
    def file(self, rel: str) -> None:
        pass

    def file_done(self) -> None:
        pass

    def npcs(self, name: str) -> None:
        return None

    def stop(self) -> None:
        pass


def _convert_jobs(jobs: list[tuple[str, str, bool]], bar: Any, stdin: Any, dests: dict[str, Path], to: str,
                  from_: str | None, output: str | None, out_dir: Path | None, to_stdout: bool, fmt: str | None,
                  input_format: str | None, explain: bool, strict: bool, quiet: bool, settings: Any,
                  fresh: bool, losses: str = "grouped") -> tuple[int, int, int]:
    from . import api
    from .output import write_atomic

    failed = strict_failed = skipped = 0
    for n, (src, rel, in_folder) in enumerate(jobs):
        if n:
            bar.file_done()
        bar.file(rel)
        name = "<stdin>" if src == "-" else src
        try:
            dest = dests.get(src) if out_dir is not None else (None if to_stdout else output)
            if (src != "-" and not explain and (out_dir is None or dest is not None)
                    and _streamed(src, to, from_, dest, fmt, input_format, strict, quiet, settings, fresh,
                                  in_folder, bar, losses)):
                continue
            if src == "-":
                if isinstance(stdin, XsysError):
                    raise stdin
                assert stdin is not None
                data, in_fmt = stdin
            else:
                data, in_fmt = documents.read_with_format(src, input_format)
            if in_folder and not _is_document(data):
                skipped += 1
                _info(f"skipped {src}: not an xsys document (it has no system: or kind: key)")
                continue
            conv = api.convert(api.from_plain(data, name, from_), to, default_system=from_, settings=settings,
                               strict=strict, trace=explain, fresh=fresh)
            out_fmt = fmt or documents.default_output_format(in_fmt)  # the input's (sniffed for standard input)
            out = api.dump(conv, out_fmt, explain, losses)
            report = conv.loss_report(losses)  # a roster's grouped, as the document carries it
            shown = [loss for loss in report if loss.level == "warning" or explain] if not quiet else []
            seen = to_stdout and out_dir is None and _report_seen_in(out_fmt)
            lines = report_lines(shown)  # one line for one thing said at several paths
            for _, text, _ in [] if seen else lines:
                typer.echo(f"{printable(src)}: {text}", err=True)
            if out_dir is not None:
                write_atomic(dests[src], out)
            elif not to_stdout:
                write_atomic(output, out)
            else:
                _emit_bytes(out)
            if seen and shown:
                _loss_summary(src, [level for level, _, n in lines for _ in range(n)], out_fmt)
        except XsysError as exc:
            typer.echo(exc.with_file(name).line(), err=True)
            if exc.exit_code == 1:
                strict_failed += 1
            else:
                failed += 1
    bar.file_done()
    return failed, strict_failed, skipped


def _may_be_roster(src: str) -> bool:
    """Whether a regular file holds the word ``npcs`` (found by the C search of a mapped
    file, from its start: a roster says it early): else it is converted whole, without
    loading the streaming reader."""
    import mmap

    try:
        # only a regular file, asked before it is opened: opening a FIFO would wait for its
        # writer and closing it unread would throw the writer's data away
        st = os.stat(src)
        if not stat.S_ISREG(st.st_mode) or st.st_size == 0:
            return False
        with open(src, "rb", opener=_no_block) as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode) or os.fstat(fh.fileno()).st_size == 0:
                return False  # replaced by something else meanwhile
            with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
                return mm.find(b"npcs") >= 0
    except (OSError, ValueError):
        return False


def _no_block(path: str, flags: int) -> int:
    return os.open(path, flags | getattr(os, "O_NONBLOCK", 0))


def _streamed(src: str, to: str, from_: str | None, dest: Any, fmt: str | None, input_format: str | None,
              strict: bool, quiet: bool, settings: Any, fresh: bool, in_folder: bool, bar: Any,
              losses: str = "grouped") -> bool:
    """Convert `src` as a stream if it is a JSON or YAML roster (conversions/stream.py),
    writing where the whole conversion would; False: convert it whole. An error in a file
    the whole conversion can read is reported as the whole conversion reports it."""
    try:
        in_fmt = documents.format_for(src, input_format)
    except XsysError:
        return False
    if in_fmt not in ("json", "yaml") or (fmt or in_fmt) not in ("json", "yaml"):
        return False
    if not _may_be_roster(src):
        return False
    from . import stream

    if in_fmt not in stream.STREAM_FORMATS or (fmt or in_fmt) not in stream.STREAM_FORMATS:
        return False
    try:
        done = stream.convert_file(src, to, input_format=input_format, out_fmt=fmt, default_system=from_,
                                   settings=settings, strict=strict, fresh=fresh, dest=dest,
                                   progress=bar.npcs(src), in_folder=in_folder, losses=losses)
    except XsysError as exc:
        if exc.exit_code == 1:
            raise
        try:
            small = os.path.getsize(src) <= documents.max_input_bytes()
        except (OSError, XsysError):
            small = True
        if small:
            return False  # the whole conversion says what is wrong, as it always did
        raise
    if done is None:
        return False
    try:
        lines = done.warnings() if not quiet else iter(())
        seen = dest is None and _report_seen_in(fmt or in_fmt)
        for line in [] if seen else lines:
            typer.echo(f"{printable(src)}: {line}", err=True)
        if dest is not None:
            done.install(dest)
        else:
            done.copy_to(_emit_bytes)
        if seen and not quiet and done.warning_losses:
            _loss_summary(src, ["warning"] * done.warning_losses, fmt or in_fmt)
    finally:
        done.discard()
    return True


# Output formats whose document carries the loss report (the Markdown sheet's "Loss report",
# the xsys: losses: block of a YAML, JSON or TOML document); a format plugin's may not.
REPORT_IN = {"md": "## Loss report", "yaml": "xsys.losses", "json": "xsys.losses", "toml": "xsys.losses"}


def _same_terminal() -> bool:
    """Whether standard output and standard error are one terminal (a GM at a shell)."""
    try:
        if not (sys.stdout.isatty() and sys.stderr.isatty()):
            return False
        return os.path.samestat(os.fstat(sys.stdout.fileno()), os.fstat(sys.stderr.fileno()))
    except (OSError, ValueError, AttributeError):
        return False


def _report_seen_in(out_fmt: str | None) -> bool:
    """Whether the loss report is already on the screen: the document written to standard
    output carries it, and standard error is the same terminal. Printed again on stderr it
    stood twice on the screen, one copy after the other; anywhere else (a pipe, a file, a
    log) stderr keeps the whole report."""
    return out_fmt in REPORT_IN and _same_terminal()


def _loss_summary(src: str, levels: list[str], out_fmt: str) -> None:
    """One line on stderr for a loss report that is on the screen already."""
    n_warn, n_info = levels.count("warning"), levels.count("info")
    counts = ([f"{n_warn} warning{'s' if n_warn != 1 else ''}"] if n_warn else []) + (
        [f"{n_info} info line{'s' if n_info != 1 else ''}"] if n_info else [])
    typer.echo(f"{printable(src)}: {' and '.join(counts)} in the loss report above ({REPORT_IN[out_fmt]})",
               err=True)


def _jobs(inputs: list[str], out_dir: Path | None = None) -> list[tuple[str, str, bool]]:
    """(input path, output name relative to --out-dir, found in a folder) for every input
    file: a named file keeps its name, a folder's files their path inside it."""
    jobs: list[tuple[str, str, bool]] = []
    for src, folder in _expand(inputs, out_dir):
        if src == "-":
            jobs.append(("-", "stdin.yaml", False))
        elif folder is not None:
            jobs.append((src, str(Path(src).relative_to(folder)), True))
        else:
            jobs.append((src, Path(src).name, False))
    return jobs


def _file_id(path: str) -> tuple[int, int] | None:
    """(device, inode) of the regular file `path` is (links followed; ``-``: what standard
    input reads, when that is a file); None for anything else or nothing."""
    try:
        st = os.fstat(sys.stdin.fileno()) if path == "-" else os.stat(path)
    except (OSError, ValueError, AttributeError):
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISREG(st.st_mode) else None


def _refuse_replacing_an_input(jobs: list[tuple[str, str, bool]], output: str) -> None:
    """`-o` naming an input (itself, a symbolic link to it, another hard link of it): refused
    before anything is read or written, as ``--out-dir`` refuses it."""
    out_id = _file_id(output)
    if out_id is None:
        return
    for src, _, _ in jobs:
        if _file_id(src) == out_id:
            raise InputError("the output would replace an input", file=output, path="-o",
                             expected="an output file other than the input", found="<stdin>" if src == "-" else src)


def _destinations(jobs: list[tuple[str, str, bool]], out_dir: Path, fmt: str | None,
                  input_format: str | None, stdin_fmt: str | None = None) -> dict[str, Path]:
    """Where each input goes in --out-dir; two inputs that would write the same file (even
    differing only in case), or an output that would replace an input, are refused before
    anything is written."""
    dests: dict[str, Path] = {}
    taken: dict[str, str] = {}
    sources = {Path(src).resolve(): src for src, _, _ in jobs if src != "-"}
    ids = {i: src for src, _, _ in jobs if (i := _file_id(src)) is not None}
    for src, rel, _ in jobs:
        try:
            out_fmt = fmt or documents.default_output_format(
                documents.format_for(src, input_format) if src != "-" else stdin_fmt or "yaml")
        except XsysError:
            continue  # reported when this file's turn comes
        ext = documents.output_extension(out_fmt)
        if ext is None:
            continue  # reported when this file's turn comes
        dest = out_dir / Path(rel).with_suffix(ext)
        key = os.path.normpath(str(dest)).casefold()
        if key in taken:
            raise InputError("two inputs would write the same output file", file=str(dest), path="--out-dir",
                             expected="inputs with different names (or convert their folder, which keeps "
                             "sub-folders apart)", found=f"{taken[key]} and {src}")
        same = sources.get(dest.resolve()) or ids.get(_file_id(str(dest)) or (-1, -1))
        if same is not None:  # the input itself, or another link to the same file
            raise InputError("the output would replace an input", file=str(dest), path="--out-dir",
                             expected="an output folder other than the input's, or another --format",
                             found=same)
        taken[key] = src
        dests[src] = dest
    return dests


@app.command(cls=_Command)
@_says_skipped
def odds(
    file: Annotated[Optional[Path], typer.Argument(help="A shot or scenario document (or use the inline options).")] = None,
    system: Annotated[list[str], typer.Option("--system", "-s", metavar="KEY", help=f"Only this system (repeatable): {SYSTEMS}.")] = [],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for other tools.")] = False,
    from_: Annotated[Optional[str], typer.Option("--from", "-f", metavar="KEY", help=f"System of a file that does not say: {SYSTEMS}.")] = None,
    input_format: Annotated[Optional[str], typer.Option("--input-format", help="yaml, json or toml.")] = None,
    set_: Annotated[list[str], typer.Option("--set", metavar="SYSTEM.FIELD=VALUE", help="A system setting (repeatable).")] = [],
    distance: Annotated[Optional[str], typer.Option("--distance", help="Inline shot: distance, e.g. 30m.")] = None,
    light: Annotated[str, typer.Option("--light", help="Illuminance (0.2lx) or a preset (full-moon, daylight ...).")] = "daylight",
    exposure: Annotated[float, typer.Option("--exposure", help="Visible fraction of the target, 0-1.")] = 1.0,
    skill: Annotated[str, typer.Option("--skill", metavar="COMPETENCE|SYSTEM:LEVEL",
                                       help="The shooter's skill: a competence from 0 to 1, or a system's own level, "
                                       "equated as converting it would (coc:55, coc-zh:55, gurps:14, pl-trudnosc:3; "
                                       "a pool's attribute after a comma: nwod:3,Dexterity=3). See "
                                       "docs/calibration.md.")] = "0.5",
    weapon: Annotated[str, typer.Option("--weapon", help="Weapon class or catalog id (handgun, rifle, glock-17 ...).")] = "handgun",
    target_speed: Annotated[str, typer.Option("--target-speed", help="Target speed (2.7m/s) or gait (walk, run ...).")] = "still",
    shooter_speed: Annotated[str, typer.Option("--shooter-speed", help="Shooter speed or gait.")] = "still",
    posture: Annotated[str, typer.Option("--posture", help="Target posture.")] = "standing",
    shooter_posture: Annotated[str, typer.Option("--shooter-posture", help="Shooter posture.")] = "standing",
    barrier: Annotated[Optional[str], typer.Option("--barrier", help="MATERIAL:THICKNESS, e.g. concrete:15cm.")] = None,
    aim: Annotated[str, typer.Option("--aim", help="Time spent aiming, e.g. 2s.")] = "0 s",
    burst: Annotated[int, typer.Option("--burst", help="Rounds fired at the target.")] = 1,
) -> None:
    """One shot in every installed system side by side.

    Each system's own check, its modifiers with their rule IDs, and the exact chance. The
    shot is a document's, or typed in with --distance and the other inline options; --skill
    takes a competence from 0 to 1 or a system's own skill level (coc:55, gurps:14,
    nwod:3,Dexterity=3)."""
    from . import api
    from .inline import inline_shot, inline_skill

    settings = _settings(set_)
    native = None
    if file is not None:
        loaded = api.load(file, input_format, from_)
        shots, _ = api.shots_of(loaded, settings=settings)
        settings = api._merge_settings(loaded.settings, settings)
    elif distance is not None:
        given = inline_skill(skill, weapon)
        native = given.native
        shots = [("inline shot", inline_shot(distance=distance, light=light, exposure=exposure,
                                             skill=given.competence, characteristics=given.characteristics,
                                             weapon=weapon, target_speed=target_speed, shooter_speed=shooter_speed,
                                             posture=posture, shooter_posture=shooter_posture, barrier=barrier,
                                             aim=aim, burst=burst))]
    else:
        raise XsysError("odds needs a FILE or an inline shot", expected="a shot/scenario file or --distance ...")
    keys = system or None
    failures: list = []
    from .report import odds_json_chunks, odds_text_chunks

    # one shot at a time: its checks are computed, written and dropped before the next (a
    # 60,000-shot scenario kept 4.3 GB of checks when the report was built whole)
    results = ((name, shot, api.odds(shot, keys, settings=settings, failures=failures)) for name, shot in shots)
    if as_json:
        extra = {"skill": native.as_json()} if native is not None else None
        for chunk in odds_json_chunks(results, single=len(shots) == 1, failures=failures, extra=extra):
            _emit_bytes(chunk.encode("utf-8"))
        _emit_bytes(b"\n")
    else:
        last = ""
        if native is not None:
            _write_text(native.line() + "\n")
        for chunk in odds_text_chunks(results):
            if chunk:
                _write_text(chunk)
                last = chunk
        if not last.endswith("\n"):
            _write_text("\n")
    failed = {f.line(): f for f in failures}  # one message per failing system, however many shots
    for line in failed:
        typer.echo(f"xsys: error: {line}", err=True)
        _told.add(failed[line].message)
    if failed:
        raise typer.Exit(2)


@app.command(cls=_Command)
def curve(
    file: Annotated[Optional[Path], typer.Argument(help="A shot document (or use the inline options).")] = None,
    sweep: Annotated[str, typer.Option("--sweep", help="AXIS=FROM..TO: distance=2m..200m, light=100000lx..0lx, "
                                       "exposure=1..0, skill=0.05..0.95, armor=0J..4000J, target-speed=0m/s..8m/s, "
                                       "barrier=0cm..40cm.")] = "distance=2m..200m",
    points: Annotated[int, typer.Option("--points", help="Sampled points.")] = 60,
    output: Annotated[Optional[str], typer.Option("--output", "-o", help="Write the chart to chart.png or chart.svg "
                                                  '(drawing it needs the plot extra: pip install "xsys[plot]").')] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the sampled points as JSON.")] = False,
    system: Annotated[list[str], typer.Option("--system", "-s", metavar="KEY", help=f"Only this system (repeatable): {SYSTEMS}.")] = [],
    shot_index: Annotated[int, typer.Option("--shot", help="Which shot of a scenario (1-based).")] = 1,
    from_: Annotated[Optional[str], typer.Option("--from", "-f", metavar="KEY", help=f"System of a file that does not say: {SYSTEMS}.")] = None,
    set_: Annotated[list[str], typer.Option("--set", metavar="SYSTEM.FIELD=VALUE", help="A system setting (repeatable).")] = [],
    distance: Annotated[str, typer.Option("--distance", help="Inline shot: distance.")] = "25m",
    light: Annotated[str, typer.Option("--light", help="Inline shot: illuminance or preset.")] = "daylight",
    exposure: Annotated[float, typer.Option("--exposure", help="Inline shot: visible fraction.")] = 1.0,
    skill: Annotated[str, typer.Option("--skill", metavar="COMPETENCE|SYSTEM:LEVEL",
                                       help="Inline shot: a competence from 0 to 1, or a system's own level "
                                       "(coc:55, gurps:14, nwod:3,Dexterity=3).")] = "0.5",
    weapon: Annotated[str, typer.Option("--weapon", help="Inline shot: weapon class or catalog id.")] = "handgun",
) -> None:
    """How the chance to hit falls along one axis, in every system, as a chart."""
    from . import api
    from . import curve as curves
    from .inline import inline_shot, inline_skill

    settings = _settings(set_)
    axis, lo, hi = curves.parse_sweep(sweep)
    if file is not None:
        loaded = api.load(file, None, from_)
        shots, _ = api.shots_of(loaded, settings=settings)
        settings = api._merge_settings(loaded.settings, settings)
        if not 1 <= shot_index <= len(shots):
            raise XsysError("no such shot", path="--shot", expected=f"1 to {len(shots)}", found=str(shot_index))
        name, shot = shots[shot_index - 1]
    else:
        given = inline_skill(skill, weapon)
        shot = inline_shot(distance=distance, light=light, exposure=exposure, skill=given.competence,
                           characteristics=given.characteristics, weapon=weapon)
        if given.native is not None and not as_json:
            _info(given.native.line())
    data = curves.sweep(shot, axis, lo, hi, points, system or None, settings)
    if output:
        curves.plot(data, output)
    if as_json:
        _emit_json(data.as_json())
    elif not output:
        _emit(curves.terminal_chart(data))
        _emit("")
        _emit(curves.table(data))
    else:
        _emit(f"wrote {printable(output)}")


@app.command(cls=_Command)
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on (localhost only by default).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port.")] = 8000,
    workers: Annotated[int, typer.Option("--workers", help="Processes converting at once (one core each).")] = 1,
) -> None:
    """A local web page (and its JSON API): paste a stat block, see it in every system."""
    from . import serve_main

    serve_main.run(host, port, _info, workers)


@app.command("rules", cls=_Command, context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def rules_cmd(
    ctx: typer.Context,
    system: Annotated[Optional[str], typer.Argument(metavar="SYSTEM", help=f"A system key: {SYSTEMS} (all when omitted).")] = None,
    rule: Annotated[Optional[str], typer.Argument(metavar="RULE-ID",
                                                help="A rule ID of SYSTEM; a formula takes --NAME VALUE after it.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for other tools.")] = False,
    only: Annotated[list[str], typer.Option("--system", "-s", metavar="KEY",
                                            help=f"Only this system's rules (repeatable): {SYSTEMS}.")] = [],
) -> None:
    """Every rule of every system, one rule in full, or a formula evaluated.

    Without arguments: each system's rules with their titles and where each comes from
    (seed: the rule text states it; assumed: xsys's own choice). With SYSTEM (or --system):
    that system's. With SYSTEM RULE-ID: the rule's description and its table rows, with
    units. A formula takes its parameters after the rule ID, e.g. xsys rules coc
    coc-ja.conceal --length 21cm."""
    from . import rules_cmd as rules_

    args = list(ctx.args)
    if only and system is not None:  # xsys rules -s coc coc-ja.conceal ...: the first argument is the rule
        if len(only) > 1:
            raise XsysError("a rule ID after several systems", path="rules", expected="xsys rules SYSTEM RULE-ID",
                            found=f"--system {' --system '.join(only)} {system}")
        args = ([rule] if rule is not None else []) + args
        system, rule, only = only[0], system, []
    if len(only) == 1:
        system, only = only[0], []
    rules_.run(system, rule, args, as_json, _emit, _emit_json, systems=only)


@app.command("skills", cls=_Command)
def skills_cmd(
    system: Annotated[str, typer.Argument(metavar="SYSTEM", help=f"A system key: {SYSTEMS}.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for other tools.")] = False,
) -> None:
    """The skill names SYSTEM recognises.

    What each covers in the neutral model, and the other names stat blocks print for it
    (7th-edition, Japanese, Chinese)."""
    from . import skills_cmd as skills_

    skills_.run(system, as_json, _emit, _emit_json)


_commands_added = False


def build_app() -> typer.Typer:
    """The root app with plugin-provided commands added (once)."""
    global _commands_added
    if not _commands_added:
        _commands_added = True
        try:
            default_registry().register_commands(app)
        except XsysError:
            pass
    return app


def app_for(args: list[str]) -> typer.Typer:
    """The app to run `args` with: for a built-in command, an app holding only that command
    (typer builds, and reads the annotations of, only what it holds, and no plugin is asked
    for commands); for anything else (a plugin's command, --help, a typo), every command."""
    from xsys.core.registry import _command_name

    name = next((a for a in args if not a.startswith("-")), None)
    if name is None or args[0].startswith("-"):
        return build_app()
    mine = [c for c in app.registered_commands if _command_name(c) == name]
    if len(mine) != 1:
        return build_app()
    one = typer.Typer(name="xsys", help=app.info.help, cls=_Group, add_completion=False,
                      pretty_exceptions_enable=False, no_args_is_help=True)
    one.registered_callback = app.registered_callback
    one.registered_commands = mine
    return one


def _usage_error_type() -> type | None:
    """The base class of typer's usage errors (click's ClickException): typer >= 0.26
    bundles its own click, older versions use click itself. Found through what typer
    exports in every version, never by importing click or typer's private modules."""
    for cls in typer.BadParameter.__mro__:
        if cls.__name__ == "ClickException":
            return cls
    return None


def _is_usage_error(exc: BaseException) -> bool:
    base = _usage_error_type()
    if base is not None:
        return isinstance(exc, base)
    return callable(getattr(exc, "show", None)) and isinstance(getattr(exc, "exit_code", None), int)


# A signal that asks xsys to stop (Ctrl-C, `kill`, a closed terminal) ends the run as an
# error does: the exception unwinds, every temporary file is removed on the way, and the
# exit status is the shell's for that signal (128 + its number). A second such signal
# while the first is being handled ends the process at once (the default action); what
# it leaves is only inside xsys's own temporary folders, which the next run removes.
_STOP_SIGNALS = {name: word for name, word in (("SIGINT", "interrupted"), ("SIGTERM", "terminated"),
                                               ("SIGHUP", "hung up")) if hasattr(signal, name)}


def _on_signal(signum: int, frame: Any) -> None:
    word = _STOP_SIGNALS.get(signal.Signals(signum).name, "stopped")
    plugin = None
    if signal.Signals(signum).name == "SIGINT":
        from xsys.core.containment import note_sigint, running

        note_sigint()  # a plugin that swallows the stop below is still stopped when its call ends
        plugin = running()  # Ctrl-C while a third-party plugin ran: say which, and what it was doing
    if plugin is None:
        # a second stop signal while this one unwinds ends the process at once (the default);
        # during a plugin call the handler stays, so the call's end can stop the run with it
        for name in _STOP_SIGNALS:
            try:
                signal.signal(getattr(signal, name), signal.SIG_DFL)
            except (ValueError, OSError):
                pass
    raise _Stop(128 + signum, f"xsys: {word}" + (f" while {plugin[0]} was running its {plugin[1]}" if plugin else ""),
                signalled=True)


def _install_signal_handlers() -> dict[int, Any]:
    """Handle the stop signals whose action is still the default (a SIGHUP that `nohup`
    ignores stays ignored); the handlers to put back."""
    from xsys.core.containment import default_int_twin

    saved: dict[int, Any] = {}
    for name in _STOP_SIGNALS:
        sig = getattr(signal, name)
        try:
            current = signal.getsignal(sig)
            # (SIGINT: the default handler, or its twin that counts Ctrl-C for plugin calls in this process)
            default = (signal.default_int_handler, default_int_twin, _interrupted_while_starting) \
                if name == "SIGINT" else (signal.SIG_DFL,)
            if current in default:
                signal.signal(sig, _on_signal)
                saved[sig] = signal.default_int_handler if name == "SIGINT" else signal.SIG_DFL
        except (ValueError, OSError):  # not the main thread
            pass
    return saved


def _err(line: str) -> None:
    """One line to stderr, control characters (of a file name, say) shown escaped."""
    if sys.stderr is not None:
        try:
            sys.stderr.write(printable(line) + "\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass


def _dispatch(args: list[str]) -> int:
    """Run the app on `args`; user errors become one line on stderr. The exit status."""
    app_ = app_for(args)
    if not args:
        # no command: the help, on stderr as for any other usage error, and exit 2
        saved, sys.stdout = sys.stdout, sys.stderr
        try:
            app_(args=["--help"], prog_name="xsys", standalone_mode=False)
        except Exception as exc:  # typer.Exit from --help, in the versions that raise it
            if not isinstance(exc, typer.Exit) and not _is_usage_error(exc):
                raise
        finally:
            sys.stdout = saved
        return 2
    try:
        rv = app_(args=args, prog_name="xsys", standalone_mode=False)
    except XsysError as exc:
        _flush_stdout()
        _err(f"xsys: error: {exc.line()}")
        return exc.exit_code
    except typer.Exit as exc:
        return exc.exit_code
    except PluginHalt as exc:  # a plugin ran past its time where no caller made it an error
        _flush_stdout()
        _err(f"xsys: error: {exc}")
        return 2
    except typer.Abort:
        _err("xsys: aborted")
        return 1
    except UnicodeEncodeError as exc:
        raise _unencodable(exc) from None
    except OSError as exc:  # a plugin's command writing to stdout, say
        raise _output_failed(exc) if exc.errno == errno.EPIPE else _Stop(
            2, f"xsys: error: {exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else "")) from None
    except Exception as exc:
        if _is_usage_error(exc):
            exc.show()  # typer's own message: usage, a hint, and what was wrong
            return exc.exit_code
        raise
    # not standalone, a typer.Exit inside a command is returned, not raised
    return rv if isinstance(rv, int) else 0


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the app; every user error, Ctrl-C, and a standard output
    that cannot be written end with one line on stderr and the exit status documented at
    the top of this module, never a traceback."""
    args = list(sys.argv[1:] if argv is None else argv)
    saved: dict[int, Any] = {}
    try:
        saved = _install_signal_handlers()
        _stand_in_for_closed_streams()
        code = _dispatch(args)
        _flush_stdout()
    except _Stop as stop:
        code = stop.code
        if not stop.signalled:
            _silence_stdout()
        _err(stop.line)
    except KeyboardInterrupt:
        code = 130
        _err("xsys: interrupted")
    finally:
        for sig, handler in saved.items():
            try:
                signal.signal(sig, handler)
            except (ValueError, OSError):
                pass
    sys.exit(code)


# Started: Ctrl-C from now on is main()'s to report.
try:
    if _sigint_before is not None and signal.getsignal(signal.SIGINT) is _interrupted_while_starting:
        signal.signal(signal.SIGINT, _sigint_before)
except ValueError:
    pass
