"""The work of the ``xsys`` commands without the command-line framework: the standard
streams and exit statuses, the stop signals, and the whole of ``xsys convert``. The typer
app (xsys.conversions.cli) and the launcher (xsys.conversions.entry, which runs a plain
``xsys convert`` without building that app: a cold command loads only what it uses) both
run on it, so a conversion behaves the same whichever way it was started."""

from __future__ import annotations

import errno
import io
import json
import os
import signal
import stat
import sys
from pathlib import Path
from typing import Any, Callable

from xsys.core.containment import PluginHalt
from xsys.core.errors import InputError, XsysError
from xsys.core.registry import default_registry
from xsys.core.trace import printable, report_lines

from . import documents
from .starting import interrupted_while_starting


def echo_err(text: str) -> None:
    """One line of text to stderr (a stderr that cannot show a character shows a stand-in)."""
    err = sys.stderr
    if err is None:
        return
    line = text + "\n"
    try:
        err.write(line)
    except UnicodeEncodeError:
        enc = getattr(err, "encoding", None) or "ascii"
        err.write(line.encode(enc, "replace").decode(enc))
    err.flush()


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


DOC_SUFFIXES = (".yaml", ".yml", ".json", ".toml")


def _info(text: str) -> None:
    echo_err(printable(f"xsys: info: {text}"))


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
                    echo_err(f"xsys: warning: {printable(b.line())}")
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


def convert_files(inputs: list[str], to: str, from_: str | None = None, output: str | None = None,
                  out_dir: Path | None = None, fmt: str | None = None, input_format: str | None = None,
                  explain: bool = False, strict: bool = False, quiet: bool = False, set_: list[str] | None = None,
                  fresh: bool = False, losses: str = "grouped") -> int:
    """``xsys convert``: convert NPCs, rosters, scenarios and shots to another system (A ->
    neutral -> B), each input to its output; the exit status (2 a file failed, 1 ``--strict``
    losses). Files in a folder that are not xsys documents are skipped (said on stderr)."""
    set_ = list(set_ or [])
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
        from xsys.core.textblock import system_hint

        try:
            with system_hint(from_):  # a text block with no system line is the --from system's
                stdin = documents.read_with_format("-", input_format)
        except XsysError as exc:
            stdin = exc
    stdin_fmt = stdin[1] if isinstance(stdin, tuple) else None
    dests = _destinations(jobs, out_dir, fmt, input_format, stdin_fmt) if out_dir is not None else {}
    to_stdout = output is None or output == "-"
    failed = strict_failed = skipped = 0
    from xsys.core.textblock import system_hint

    bar = _Progress.start(len(jobs))
    try:
        with system_hint(from_):  # a text block with no system line is the --from system's
            failed, strict_failed, skipped = _convert_jobs(
                jobs, bar, stdin, dests, to, from_, output, out_dir, to_stdout, fmt, input_format, explain, strict,
                quiet, settings, fresh, losses)
    finally:
        bar.stop()
    done = len(jobs) - failed - strict_failed - skipped
    if len(jobs) > 1:
        echo_err(f"converted {done} of {len(jobs) - skipped} file(s)"
                   + (f"; {failed + strict_failed} failed" if failed + strict_failed else "")
                   + (f"; {skipped} skipped" if skipped else ""))
    if failed:
        return 2
    if strict_failed:
        return 1
    if done == 0:
        raise InputError("nothing converted", file=", ".join(inputs), expected="at least one xsys document",
                         found=f"{skipped} file(s) that are not xsys documents")
    return 0


def odds_shots(file: Path | None = None, system: list[str] | None = None, as_json: bool = False,
               from_: str | None = None, input_format: str | None = None, set_: list[str] | None = None,
               distance: str | None = None, light: str = "daylight", exposure: float = 1.0, skill: str = "0.5",
               weapon: str = "handgun", target_speed: str = "still", shooter_speed: str = "still",
               posture: str = "standing", shooter_posture: str = "standing", barrier: str | None = None,
               aim: str = "0 s", burst: int = 1) -> int:
    """``xsys odds``: one shot (a document's, or typed in) in every installed system side by
    side, each system's check written as it is computed; the exit status (2: a system failed)."""
    set_ = list(set_ or [])
    system = list(system or [])
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
        echo_err(f"xsys: error: {line}")
        _told.add(failed[line].message)
    if failed:
        return 2
    return 0



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
                echo_err(f"{printable(src)}: {text}")
            if out_dir is not None:
                write_atomic(dests[src], out)
            elif not to_stdout:
                write_atomic(output, out)
            else:
                _emit_bytes(out)
            if seen and shown:
                _loss_summary(src, [level for level, _, n in lines for _ in range(n)], out_fmt)
        except XsysError as exc:
            echo_err(exc.with_file(name).line())
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
    from .stream_ahead import helpers_wanted

    if in_fmt not in stream.STREAM_FORMATS or (fmt or in_fmt) not in stream.STREAM_FORMATS:
        return False
    helpers = helpers_wanted()  # (a bad XSYS_JOBS is its own error, not the file's)
    try:
        done = stream.convert_file(src, to, input_format=input_format, out_fmt=fmt, default_system=from_,
                                   settings=settings, strict=strict, fresh=fresh, dest=dest,
                                   progress=bar.npcs(src), in_folder=in_folder, losses=losses, helpers=helpers)
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
            echo_err(f"{printable(src)}: {line}")
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
    echo_err(f"{printable(src)}: {' and '.join(counts)} in the loss report above ({REPORT_IN[out_fmt]})")


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
    from .output import stop_requested

    stop = _Stop(128 + signum, f"xsys: {word}" + (f" while {plugin[0]} was running its {plugin[1]}" if plugin else ""),
                 signalled=True)
    stop_requested(stop)  # kept, should C code drop the exception (conversions/output.py)
    raise stop


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
            default = (signal.default_int_handler, default_int_twin, interrupted_while_starting) \
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


def run_command(call: Callable[[], Any], other: Callable[[Exception], int | None] | None = None) -> int:
    """Run one command; a user error becomes one line on stderr (`other` says the exit status
    of an exception only its caller knows: typer's usage errors). The exit status."""
    try:
        rv = call()
    except XsysError as exc:
        _flush_stdout()
        _err(f"xsys: error: {exc.line()}")
        return exc.exit_code
    except PluginHalt as exc:  # a plugin ran past its time where no caller made it an error
        _flush_stdout()
        _err(f"xsys: error: {exc}")
        return 2
    except UnicodeEncodeError as exc:
        raise _unencodable(exc) from None
    except OSError as exc:  # a plugin's command writing to stdout, say
        raise _output_failed(exc) if exc.errno == errno.EPIPE else _Stop(
            2, f"xsys: error: {exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else "")) from None
    except Exception as exc:
        code = other(exc) if other is not None else None
        if code is None:
            raise
        return code
    return rv if isinstance(rv, int) else 0


def main_with(dispatch: Callable[[list[str]], int], argv: list[str] | None = None) -> None:
    """Console entry point: `dispatch` the arguments; every user error, Ctrl-C, and a standard
    output that cannot be written end with one line on stderr and the exit status documented
    in xsys.conversions.cli, never a traceback."""
    args = list(sys.argv[1:] if argv is None else argv)
    saved: dict[int, Any] = {}
    try:
        saved = _install_signal_handlers()
        _stand_in_for_closed_streams()
        code = dispatch(args)
        _pending_stop("raise_pending_stop")  # a stop asked for whose exception C code dropped: still a stop
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
        _pending_stop("clear_pending_stop")  # (a process that goes on after this command starts afresh)
    sys.exit(code)


def _pending_stop(action: str) -> None:
    """Raise or forget the stop a signal asked for (conversions.output), where one could have
    been (its module, loaded by the handler, is there): no import for a command never stopped."""
    output = sys.modules.get(f"{__package__}.output")
    if output is not None:
        getattr(output, action)()
