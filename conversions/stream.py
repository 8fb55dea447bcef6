"""Rosters converted as a stream: read NPC by NPC, converted one at a time through the
public conversion functions, written incrementally, so that memory stays flat however
many NPCs a roster holds.

The output is byte for byte what :func:`api.convert` and :func:`api.dump` write for the
whole roster (tests/test_stream.py compares them). How:

- Reading. JSON: one pass over the file in chunks with a tokenizer that skips strings and
  counts brackets finds the ``npcs`` array and where each NPC is; everything else (the
  "head": system, kind, name, notes, settings) is read as a document without its NPCs;
  then each NPC's bytes are read and parsed on their own (msgspec, with the usual checks:
  UTF-8, duplicate keys, the input-size limit, which thus applies per NPC). YAML: libyaml's
  parser (PyYAML's ``CSafeLoader``, with xsys's own safe loader rules) composes one NPC
  node at a time; the nesting and alias limits are checked on each NPC's node tree.
- Converting. Each NPC is converted as a roster of one NPC, exactly as
  :func:`api.convert` converts a roster (``crossing.cross``: ``to_neutral``, the loss
  audit, ``from_neutral``), and its paths ``$.npcs[0]`` renamed to its own index; a
  system's per-value answers (a skill's ladder, a level's competence, the level nearest a
  competence, each in its context) are remembered by the core (core/memo.py), and whether
  a system writes a field at all by the loss audit (core/audit.py), for a stream as for
  any conversion. A stat block the roster had before under another name (twelve cultists
  alike) is not converted again: the earlier NPC's output and losses under its own name and
  index (conversions/stream_seen.py). A roster's loss report lists the losses of reading every NPC first, then
  those of writing them: the two halves go to two spool files. Grouped (the default for
  a roster of more than one NPC, conversions/lossgroups.py), only a count and the first
  NPCs of each group are kept as the NPCs pass, and the groups are written at the end.
- Writing. The whole output's skeleton is rendered once with placeholders for the NPC
  list, the loss list and the remembered source's NPC list; each NPC is rendered at the
  indentation its place in the skeleton has (JSON: msgspec's writer, indented; YAML:
  nested under the same keys, so that line widths wrap alike). The converted NPCs go
  straight into a temporary file beside the destination, the loss report and the
  remembered source into spool files appended at the end; the digest is hashed as the
  NPCs pass. Only a complete output is renamed into place (nothing partial on failure).
  The temporary files live in xsys's own temporary folders (output.TempFolder), one
  beside the destination and one in the system's temporary folder (TMPDIR), removed on
  any failure or signal, and by the next run after a kill. A write that fails (a full
  disk, a file size limit) is one error naming the destination, or TMPDIR for a spool.

The reading is conversions/stream_read.py, the rendering of the pieces
conversions/stream_render.py, the stat blocks seen before conversions/stream_seen.py; this
module converts and writes.

A roster that is not streamed (an input that remembers its source in an ``xsys:`` block,
TOML or Markdown, ``--explain``, an empty roster, keys this reader does not expect) returns
``None``: the caller converts it whole, as before.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import msgspec

from xsys.core import codec
from xsys.core.errors import InputError, LossError, XsysError
from xsys.core.registry import Registry, default_registry
from xsys.core.sheet import line_name_field, name_field
from xsys.core.trace import STRICT_KINDS, Loss, tracing

from .stream_ahead import UNKNOWN, Ahead, settled
from .stream_read import (CHUNK, FIRST_GAP, GAP, LAST_GAP, NotStreamable, at_npc, scan_json, yaml_npcs,
                          yaml_remembers)
from .stream_render import render, render_items, split, split_value
from .stream_seen import Seen, again_chunk, split_at_name

STREAM_FORMATS = ("json", "yaml")

_S_NPCS = "@@xsys-stream:npcs@@"
_S_LOSSES = "@@xsys-stream:losses@@"
_S_ORIGIN = "@@xsys-stream:origin@@"


# ---- errors and paths -------------------------------------------------------------------

def _in_roster(exc: XsysError, i: int) -> XsysError:
    """An error about a roster of one NPC, NPC `i`: its paths ``$.npcs[0]`` renamed."""
    p = exc.path
    if p is not None and p.startswith("$.npcs[0]"):
        exc.path = f"$.npcs[{i}]" + p[len("$.npcs[0]"):]
    return exc


def _renamed(losses: list[Loss], i: int) -> list[Loss]:
    if i == 0:
        return losses
    new = f"$.npcs[{i}]"
    out = []
    for x in losses:
        p = x.path
        if p.startswith("$.npcs[0]"):
            x = msgspec.structs.replace(x, path=new + p[9:])
        out.append(x)
    return out


# ---- the streamed conversion ---------------------------------------------------------------

@dataclass
class Streamed:
    """A streamed conversion: the output (in a temporary file until :meth:`install`) and
    the warnings of its loss report, in the order the whole conversion lists them. The
    temporary files live in xsys's own temporary folders (output.TempFolder), removed by
    :meth:`discard` (or, after a kill, by the next run)."""

    output: Path
    warnings_path: Path
    npcs: int
    size: int
    warning_losses: int = 0  # how many losses are warnings (grouped, a line stands for several)
    _temps: list[Any] = field(default_factory=list)

    def warnings(self) -> Iterator[str]:
        with open(self.warnings_path, encoding="utf-8") as fh:
            for line in fh:
                yield line.rstrip("\n")

    def install(self, dest: str | Path) -> None:
        """Put the output at `dest` as the CLI's atomic writer does: a regular file (or a
        new path) is replaced by a rename, anything else is written through."""
        from . import output as out

        p = Path(dest)
        name = str(p)
        try:
            st = os.stat(p)
        except FileNotFoundError:
            st = None
        except OSError as exc:
            raise InputError(f"cannot write output: {exc.strerror}", file=name) from None
        if st is not None and stat.S_ISDIR(st.st_mode):
            raise InputError("cannot write output: it is a folder", file=name)
        target, magic = out.final_target(p, name)
        if (st is not None and not stat.S_ISREG(st.st_mode)) or magic or target.parent != self.output.parent.parent:
            temps = None
            try:
                flags = os.O_WRONLY | getattr(os, "O_CLOEXEC", 0)
                if st is None:
                    flags |= os.O_CREAT | os.O_EXCL
                elif magic:
                    flags |= os.O_APPEND
                if st is not None and stat.S_ISREG(st.st_mode) and not magic:
                    # another filesystem: copy beside it, then rename
                    temps = out.temp_folder(target.parent, name)
                    tmp = temps.file("out")
                    with open(self.output, "rb") as src, open(tmp, "xb") as dst:
                        shutil.copyfileobj(src, dst, CHUNK)
                        dst.flush()
                        os.fsync(dst.fileno())
                        out.keep_mode(dst.fileno(), st)
                    out.raise_pending_stop()
                    os.replace(tmp, target)
                else:
                    fd = os.open(p, flags, 0o666)
                    with open(fd, "wb") as dst, open(self.output, "rb") as src:
                        shutil.copyfileobj(src, dst, CHUNK)
            except OSError as exc:
                raise InputError(f"cannot write output: {exc.strerror}", file=name) from None
            finally:
                if temps is not None:
                    temps.remove()
            self.discard()
            return
        try:
            with open(self.output, "rb+") as fh:
                os.fsync(fh.fileno())
                if st is not None:
                    out.keep_mode(fh.fileno(), st)
                else:
                    os.fchmod(fh.fileno(), 0o666 & ~_umask())
            out.raise_pending_stop()
            os.replace(self.output, target)
        except OSError as exc:
            raise InputError(f"cannot write output: {exc.strerror}", file=name) from None
        self.discard()

    def copy_to(self, write: Callable[[bytes], None]) -> None:
        with open(self.output, "rb") as fh:
            while True:
                chunk = fh.read(CHUNK)
                if not chunk:
                    break
                write(chunk)

    def discard(self) -> None:
        for temps in self._temps:
            temps.remove()
        self._temps.clear()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def convert_file(src: str, to: str, *, input_format: str | None = None, out_fmt: str | None = None,
                 default_system: str | None = None, settings: Any = None, strict: bool = False,
                 fresh: bool = False, dest: str | Path | None = None, registry: Registry | None = None,
                 progress: Callable[[int, int | None, int], None] | None = None,
                 in_folder: bool = False, losses: str = "grouped", helpers: int = 0) -> Streamed | None:
    """Convert the roster in file `src` to system `to` as a stream; None when the file is
    not a roster this path converts (the caller converts it whole). The output goes to a
    temporary file in `dest`'s folder (the system's temporary folder for standard output):
    :meth:`Streamed.install` or :meth:`Streamed.copy_to` it, or :meth:`Streamed.discard`.
    `progress(done, total or None, bytes reached)` is called as NPCs are converted.
    `losses`: the loss report grouped or full (conversions/lossgroups.py). `helpers`: how many
    helper processes convert NPCs ahead (conversions/stream_ahead.py; the command gives one
    per further core: stream_ahead.helpers_wanted)."""
    from . import documents
    from .lossgroups import check_mode

    check_mode(losses)

    if src == "-":
        return None
    in_fmt = documents.format_for(src, input_format)
    out_fmt = out_fmt or in_fmt
    if in_fmt not in STREAM_FORMATS or out_fmt not in STREAM_FORMATS:
        return None
    try:
        st = os.stat(src)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    reg = registry or default_registry()
    folder = Path(tempfile.gettempdir())
    if dest is not None:
        from . import output as out

        try:
            target, magic = out.final_target(Path(dest), str(dest))
            if not magic:
                folder = target.parent
                folder.mkdir(parents=True, exist_ok=True)
                out.sweep(folder)
        except (XsysError, OSError):
            folder = Path(tempfile.gettempdir())
    if in_fmt == "yaml" and yaml_remembers(src):
        return None
    job = _Job(src, to, in_fmt, out_fmt, default_system, settings, strict, fresh, reg, folder, progress,
               in_folder, st.st_size, dest=dest, losses=losses, helpers=helpers)
    try:
        return job.run()
    except NotStreamable as exc:
        if in_fmt == "yaml" and len(exc.args) > 1:  # keys after the npcs list: once more, knowing them
            job = _Job(src, to, in_fmt, out_fmt, default_system, settings, strict, fresh, reg, folder, progress,
                       in_folder, st.st_size, known_after=exc.args[1], dest=dest, losses=losses, helpers=helpers)
            try:
                return job.run()
            except NotStreamable:
                return None
        return None


class _Job:
    def __init__(self, src: str, to: str, in_fmt: str, out_fmt: str, default_system: str | None, settings: Any,
                 strict: bool, fresh: bool, reg: Registry, folder: Path,
                 progress: Callable[[int, int | None, int], None] | None, in_folder: bool, size: int,
                 known_after: dict[str, Any] | None = None, dest: str | Path | None = None,
                 losses: str = "grouped", helpers: int = 0) -> None:
        self.src, self.to, self.in_fmt, self.fmt = src, to, in_fmt, out_fmt
        self.default_system, self.settings, self.strict, self.fresh = default_system, settings, strict, fresh
        self.reg, self.folder, self.progress, self.in_folder, self.size = reg, folder, progress, in_folder, size
        self.known_after = known_after
        self.losses = losses
        self.helpers = helpers
        self.ahead: Ahead | None = None
        self.dest_name = str(dest) if dest is not None else "<stdout>"
        self.temps: dict[Path, Any] = {}  # folder -> the output.TempFolder there
        self.spool_folder = Path(tempfile.gettempdir())

    def _temp(self, folder: Path, stem: str) -> tuple[Path, "_Sink"]:
        """A new temporary file `stem` in xsys's own temporary folder in `folder`: the
        output (in the destination's folder) or a spool (in the system's temporary folder),
        whose failed writes are reported as such."""
        from . import output as out

        output = stem == "out"
        label = self.dest_name if output else str(self.spool_folder)
        temps = self.temps.get(folder)
        try:
            if temps is None:
                out.sweep(folder)
                temps = self.temps[folder] = out.TempFolder(folder)
            p = temps.file(stem)
            fd = os.open(p, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600)
        except OSError as exc:
            raise _write_error(exc, label, output) from None
        return p, _Sink(open(fd, "wb"), label, output)

    def run(self) -> Streamed:
        from . import output as out

        handles: list[_Sink] = []
        try:
            try:
                result = self._run(handles)
            finally:
                if self.ahead is not None:
                    self.ahead.close()
            for h in handles:
                h.close()  # may fail (a full disk): then as any failure below
        except BaseException:
            with out.signals_held():
                for h in handles:
                    h.discard()
                for temps in self.temps.values():
                    temps.remove()
            raise
        result._temps.extend(self.temps.values())
        return result

    # the NPCs of the file, with the head given to start() before the first
    def _npcs(self, start: Callable[[dict[str, Any]], None]) -> Iterator[tuple[Any, int, int | None]]:
        from . import documents

        if self.in_fmt == "json":
            layout = scan_json(self.src)
            head = documents.parse_bytes(layout.head, "json", self.src)
            if not isinstance(head, dict):
                raise NotStreamable("not a mapping")
            start(head)
            total = len(layout.starts)
            prev = layout.arr_start
            with open(self.src, "rb") as fh:
                fh.seek(prev)
                for i in range(total):
                    a, b = layout.starts[i], layout.ends[i]
                    gap = fh.read(a - prev)  # "[" or "," and blanks
                    if not (GAP if i else FIRST_GAP).match(gap):
                        raise NotStreamable("something between NPCs")
                    raw = fh.read(b - a)
                    prev = b
                    try:
                        plain = documents.parse_bytes(raw, "json", self.src)
                    except XsysError as exc:
                        raise at_npc(exc, i) from None
                    yield plain, b, total
                if not LAST_GAP.match(fh.read(layout.arr_end - prev)):
                    raise NotStreamable("something after the last NPC")
            return
        for plain, reached in yaml_npcs(self.src, self.src, start, self.known_after):
            yield plain, reached, None

    def _run(self, handles: list[Any]) -> Streamed:
        from . import api, documents
        from . import output as out
        from .crossing import cross
        from .lossgroups import Grouper

        state: dict[str, Any] = {}

        def start(head: dict[str, Any]) -> None:
            if "xsys" in head:
                raise NotStreamable("it remembers its source")
            if self.in_folder and not ("system" in head or "kind" in head):
                raise NotStreamable("not a document")
            if head.get("kind") != "roster" or head.get("npcs") not in (None, []):
                raise NotStreamable("not a roster")
            head.pop("npcs", None)
            state["head"] = head

        npcs = self._npcs(start)
        try:
            first = next(npcs)
        except StopIteration:
            raise NotStreamable("an empty roster") from None

        head = state["head"]
        file = self.src
        out_path, out_fh = self._temp(self.folder, "out")
        handles.append(out_fh)
        spool_dir = self.spool_folder
        w_path, w_fh = self._temp(spool_dir, "warnings")  # warnings: reading, then writing
        handles.append(w_fh)
        w2_path, w2_fh = self._temp(spool_dir, "warnings-written")
        handles.append(w2_fh)
        r_path, r_fh = self._temp(spool_dir, "losses-read")  # rendered losses of reading
        handles.append(r_fh)
        l_path, l_fh = self._temp(spool_dir, "losses-written")  # rendered losses of writing
        handles.append(l_fh)
        o_path, o_fh = self._temp(spool_dir, "origin")  # the remembered source, deflated (origin.Packer)
        handles.append(o_fh)

        fmt = self.fmt
        json_out = fmt == "json"
        to = self.to
        reg = self.reg
        sep = b",\n" if json_out else b""
        digest = hashlib.sha256()
        n = 0
        counts = {"r": 0, "l": 0}
        strict_count = 0
        warning_losses = 0
        # grouped: the groups as the NPCs pass, and the first NPC's losses (a roster of one
        # NPC has the full report)
        grouper = Grouper() if self.losses == "grouped" else None
        held: tuple[list[Loss], list[Loss]] | None = None
        first_strict_read: Loss | None = None
        first_strict_write: Loss | None = None
        merged: dict[str, dict[str, Any]] | None = None
        systems: tuple[Any, Any] | None = None
        skeleton: dict[str, Any] | None = None
        layout: dict[str, Any] = {}
        origin_system: str | None = None
        packer: Any = None
        bytes_out = 0
        renders: dict[str, tuple[tuple[str, ...], bytes]] = {}
        seen = Seen()

        def chunk_for(kind: str, plain: Any) -> bytes:
            keys, indent = renders[kind]
            return render(plain, fmt, keys, indent)

        def spool(read: list[Loss], write: list[Loss]) -> None:
            """One NPC's losses in the full report: rendered together, and its warnings."""
            for spool_fh, key, part, warn in ((r_fh, "r", read, w_fh), (l_fh, "l", write, w2_fh)):
                if part:  # the NPC's losses of reading (writing), rendered together
                    keys_, indent_ = renders["losses"]
                    c = render_items([codec.to_builtins(loss) for loss in part], fmt, keys_, indent_)
                    if counts[key]:
                        spool_fh.write(sep)
                    spool_fh.write(c)
                    counts[key] += len(part)
                for loss in part:
                    if loss.level == "warning":
                        warn.write((loss.render() + "\n").encode("utf-8"))

        def load(plain_npc: Any, i: int) -> Any:
            data = dict(head)
            data["npcs"] = [plain_npc]
            try:
                return api.from_plain(data, file, self.default_system, reg)
            except XsysError as exc:
                raise _in_roster(exc, i) from None

        def convert(loaded: Any, src_npc: dict[str, Any], i: int) -> tuple[Any, ...]:
            """NPC `i`, read as `loaded`, converted: a function of its stat block once the first
            NPC has set the conversion up (a helper process runs it too: conversions/stream_ahead.py)."""
            src_sys, dst_sys = systems  # type: ignore[misc]
            losses: list[Loss] = []
            entries: list[Any] = []
            try:
                with tracing(False):
                    conv_doc, n_read = cross(loaded, to, src_sys, dst_sys, reg, losses, entries)
            except XsysError as exc:
                raise _in_roster(exc, i) from None
            conv_plain = codec.to_builtins(codec.canonical(conv_doc))
            npc_out = conv_plain["npcs"][0]
            npc_json = codec.json_encode(npc_out)
            read, write = _renamed(losses[:n_read], i), _renamed(losses[n_read:], i)
            if dst_sys is not None and dst_sys.length_unit:  # written in the unit its rulebook prints (yd)
                from .documents import lengths_in

                npc_out = lengths_in(conv_doc.npcs[0], npc_out, dst_sys.length_unit)
            groups = [(*grouper.prepare(loss, npc_out, src_npc), phase)
                      for phase, part in enumerate((read, write)) for loss in part] if grouper is not None else []
            return conv_plain, npc_out, npc_json, losses, n_read, read, write, groups

        def converted_ahead(plain_npc: Any, i: int) -> tuple[Any, ...]:
            """What a helper process sends back of NPC `i`: as the writer converts it, rendered."""
            loaded = load(plain_npc, i)
            src_npc = codec.to_builtins(loaded.document)["npcs"][0]
            _, npc_out, npc_json, losses, n_read, _, _, groups = convert(loaded, src_npc, i)
            return src_npc, npc_out, npc_json, losses, n_read, groups, chunk_for("npcs", npc_out)

        def may_help() -> bool:
            return systems is not None and all(x is None or x.remember for x in systems)

        jobs = Ahead(_chain(first, npcs), self.helpers, converted_ahead, seen.raw_key, seen.raw.__contains__,
                     may_help)
        self.ahead = jobs
        for i, (plain_npc, reached, total), helper, made, raw_key in jobs:
            out.raise_pending_stop()  # a stop whose exception C code dropped (conversions/output.py)
            # a stat block the file stated before under another name is not read again: an NPC as
            # read is a function of what the file states (conversions/stream_seen.py)
            if raw_key is UNKNOWN:
                raw_key = seen.raw_key(plain_npc) if n else None
            name = plain_npc.get(seen.fields[0]) if raw_key is not None else None  # type: ignore[index]
            again = seen.get_raw(raw_key, name) if raw_key is not None else None
            src_json = again.source_json(name) if again is not None else None
            piece = None
            if again is None:
                piece = made if made is not None else helper.answer(i) if helper is not None else None
                if piece is None:
                    loaded = load(plain_npc, i)
                    if merged is None:
                        merged = api._merge_settings(loaded.settings, self.settings)
                        src_sys = None if loaded.system == documents.NEUTRAL \
                            else api.system_for(loaded.system, merged, reg)
                        dst_sys = None if to == documents.NEUTRAL else api.system_for(to, merged, reg)
                        systems = (src_sys, dst_sys)
                        seen.start(src_sys, dst_sys, type(loaded.document.npcs[0]))
                        if grouper is not None:
                            grouper.name_field = name_field(dst_sys) or "name"
                            grouper.line_field = line_name_field(type(loaded.document.npcs[0]))
                        self.source_system = loaded.system
                        origin_system = loaded.system if loaded.system != to else None
                    doc = loaded.document
                    src_npc = codec.to_builtins(doc)["npcs"][0]
                else:
                    src_npc = piece[0]
                name = src_npc.get(seen.fields[0]) if seen.fields is not None else None
                seen_key = seen.key(src_npc) if isinstance(name, str) and name else None
                again = seen.get(seen_key, name) if seen_key is not None else None
            if again is not None:  # the same stat block as an NPC before, under another name
                npc_json, npc_out = again.npc(name, seen.fields[1])  # type: ignore[index]
                read, write = again.read, again.write  # at $.npcs[0]: renamed where a path is written
                if grouper is None:
                    read, write = _renamed(read, i), _renamed(write, i)
            else:
                kept = None
                if piece is None:
                    conv_plain, npc_out, npc_json, losses, n_read, read, write, groups = convert(loaded, src_npc, i)
                else:
                    _, npc_out, npc_json, losses, n_read, groups, _ = piece
                    losses, groups = settled(losses, groups)
                    read, write = _renamed(losses[:n_read], i), _renamed(losses[n_read:], i)
                if seen_key is not None:
                    src_json = codec.json_encode(src_npc)
                    raw_key = seen.raw_key(plain_npc) if isinstance(plain_npc, dict) \
                        and plain_npc.get(seen.fields[0]) == name else None  # type: ignore[index]
                    kept = seen.keep(seen_key, name, npc_json, npc_out, losses[:n_read], losses[n_read:], groups,
                                     raw_key, src_json)

            if skeleton is None:
                # the output with placeholders, from the first NPC's conversion
                conv_plain["npcs"] = [_S_NPCS]
                skeleton = conv_plain
                origin_plain = None
                if origin_system is not None:
                    # the remembered source, packed (conversions/origin.py): its JSON is
                    # deflated as the NPCs pass, the base64 written at the end
                    from .origin import Packer

                    origin_plain = codec.to_builtins(doc)
                    origin_plain["npcs"] = [_S_ORIGIN]
                    if loaded.settings:
                        origin_plain["settings"] = loaded.settings
                    o_json = codec.json_encode(origin_plain)
                    o_mark = b'"' + _S_ORIGIN.encode() + b'"'
                    o_at = o_json.index(o_mark)
                    layout["origin_tail"] = o_json[o_at + len(o_mark):]
                    packer = Packer(o_fh)
                    packer.feed(o_json[:o_at])
                layout["origin"] = origin_plain is not None
                pre, _ = self._skeleton(skeleton, layout["origin"], True, "0" * 64, "0" * 64)
                parts = split(pre, _S_NPCS)
                if parts is None:
                    raise NotStreamable("no place for the NPCs")
                layout["prefix"] = parts[0]
                renders["npcs"] = (("npcs",), parts[1])
                lp = split(pre, _S_LOSSES)
                renders["losses"] = (("xsys", "losses"), lp[1] if lp else b"")
                if origin_plain is not None and split_value(pre, _S_ORIGIN) is None:
                    raise NotStreamable("no place for the remembered source")
                out_fh.write(parts[0])
                bytes_out += len(parts[0])
                # the digest: the canonical document's deterministic JSON, NPCs hashed as they pass
                head_json = codec.json_encode(conv_plain)
                mark = b'"' + _S_NPCS.encode() + b'"'
                at = head_json.index(mark)
                layout["digest_tail"] = head_json[at + len(mark):]
                digest.update(head_json[:at])

            if n:
                digest.update(b",")
            digest.update(npc_json)  # the canonical NPC (lengths in metres)
            c = again_chunk(again, name) if again is not None and json_out else None
            if c is None:
                c = piece[6] if piece is not None and again is None else chunk_for("npcs", npc_out)
                if again is not None and json_out and again.chunk is None:
                    again.chunk = split_at_name(c, name)
            if n:
                out_fh.write(sep)
                bytes_out += len(sep)
            out_fh.write(c)
            bytes_out += len(c)
            if packer is not None:
                packer.feed((b"," if n else b"") + (src_json if src_json is not None else codec.json_encode(src_npc)))
            if grouper is None:
                spool(read, write)
            else:
                if n == 0:
                    held = (read, write)
                said_name = npc_out.get(grouper.name_field)  # as Grouper.add
                said_name = said_name if isinstance(said_name, str) else None
                if again is not None and again.counted_only is not None:
                    grouper.count_again(again.counted_only, again.counted)  # type: ignore[arg-type]
                elif again is not None and again.counted is not None:
                    if grouper.add_again(again.groups, again.counted, i, said_name):
                        again.counted_only = (sum(p == 0 for *_, p in again.groups),
                                              sum(p == 1 for *_, p in again.groups))
                else:
                    counted = [grouper.add_prepared(key, message, None if at is None else i,
                                                    None if at is None else said_name, phase)
                               for key, message, at, phase in (again.groups if again is not None else groups)]
                    if again is None and kept is not None:
                        kept.counted = counted
            if again is not None:
                warning_losses += again.warnings
                strict_count += again.strict
            for key, part in () if again is not None and again.strict == 0 else (("r", read), ("l", write)):
                for loss in part:
                    if again is None and loss.level == "warning":
                        warning_losses += 1
                    if loss.kind in STRICT_KINDS:
                        strict_count += again is None
                        if key == "r" and first_strict_read is None:
                            first_strict_read = _renamed([loss], i)[0]
                        if key == "l" and first_strict_write is None:
                            first_strict_write = _renamed([loss], i)[0]
            n += 1
            if self.progress is not None:
                self.progress(n, total, reached)

        assert skeleton is not None
        if grouper is not None:
            if n == 1:  # one NPC: its report in full, as the whole conversion writes it
                assert held is not None
                spool(*held)
            elif grouper.total:  # the groups in place of the reading half; no writing half
                result = grouper.result()
                keys_, indent_ = renders["losses"]
                r_fh.write(render_items([codec.to_builtins(g) for g in result], fmt, keys_, indent_))
                counts["r"] = len(result)
                for g in result:
                    if g.level == "warning":
                        w_fh.write((g.render() + "\n").encode("utf-8"))
        if self.strict and strict_count:
            first_loss = first_strict_read or first_strict_write
            assert first_loss is not None
            raise LossError(f"{strict_count} loss(es) under --strict; first: {first_loss.path}: {first_loss.message}",
                            file=file)
        digest.update(layout["digest_tail"])
        origin_digest = "0" * 64
        if packer is not None:
            packer.feed(layout["origin_tail"])
            origin_digest = packer.finish()
        any_losses = bool(counts["r"] or counts["l"])
        whole, _ = self._skeleton(skeleton, layout["origin"], any_losses, digest.hexdigest(), origin_digest)
        parts = split(whole, _S_NPCS)
        assert parts is not None
        if parts[0] != layout["prefix"]:
            raise NotStreamable("the skeleton moved")
        rest = parts[2]
        if json_out:
            out_fh.write(b"\n")
            bytes_out += 1
        for h in (r_fh, l_fh, o_fh, w_fh, w2_fh):
            h.flush()
        # the loss list: reading's losses, then writing's; then the remembered source
        if any_losses:
            lp = split(rest, _S_LOSSES)
            assert lp is not None
            out_fh.write(lp[0])
            bytes_out += len(lp[0])
            bytes_out += _append(out_fh, r_path)
            if counts["r"] and counts["l"] and json_out:
                out_fh.write(sep)
                bytes_out += len(sep)
            bytes_out += _append(out_fh, l_path)
            if json_out:
                out_fh.write(b"\n")
                bytes_out += 1
            rest = lp[2]
        if layout["origin"]:
            from .origin import Packer

            op = split_value(rest, _S_ORIGIN)
            assert op is not None
            out_fh.write(op[0])
            bytes_out += len(op[0])
            bytes_out += Packer.write_base64(o_path, out_fh)
            rest = op[1]
        out_fh.write(rest)
        bytes_out += len(rest)
        out_fh.flush()
        # what a whole conversion refuses to write (xsys could not read it back) is refused
        # for a file the whole conversion could have read
        limit = documents.MAX_INPUT_BYTES or documents.DEFAULT_MAX_INPUT_BYTES
        if self.size <= limit:
            documents.check_output_size(_Sized(bytes_out))
        # the warnings in the order of the loss report
        w_fh.flush()
        _append(w_fh, w2_path)
        w_fh.flush()
        for h in handles:
            h.close()
        handles.clear()
        for p in (r_path, l_path, o_path, w2_path):  # the warnings and the output are kept
            try:
                os.unlink(p)
            except OSError:
                pass
        return Streamed(out_path, w_path, n, bytes_out, warning_losses)

    def _skeleton(self, conv_plain: dict[str, Any], origin: bool, losses: bool,
                  digest_hex: str, origin_digest: str) -> tuple[bytes, dict[str, Any]]:
        from . import documents
        from .origin import PACKING

        plain = dict(conv_plain)
        meta: dict[str, Any] = {"converted_from": self.source_system, "losses": [_S_LOSSES] if losses else []}
        if origin:  # as origin.pack() writes it, the packed text in place of the sentinel
            meta["origin"] = {"system": self.source_system, "packing": PACKING, "digest": origin_digest,
                              "packed": _S_ORIGIN}
        meta["digest"] = digest_hex
        head = {k: plain.pop(k) for k in ("system", "kind", "name") if k in plain}
        return documents._dumps({**head, **plain, "xsys": meta}, self.fmt), meta



class _Sink:
    """A temporary file being written: a write that fails (a full disk, a file size
    limit) is one error naming what could not be written, the output (`label` its
    destination) or a spool (`label` the temporary folder)."""

    __slots__ = ("fh", "label", "output")

    def __init__(self, fh: Any, label: str, output: bool) -> None:
        self.fh, self.label, self.output = fh, label, output

    def write(self, data: bytes) -> int:
        try:
            return self.fh.write(data)
        except OSError as exc:
            raise _write_error(exc, self.label, self.output) from None

    def flush(self) -> None:
        try:
            self.fh.flush()
        except OSError as exc:
            raise _write_error(exc, self.label, self.output) from None

    def close(self) -> None:
        try:
            self.fh.close()  # writes what is buffered
        except OSError as exc:
            raise _write_error(exc, self.label, self.output) from None

    def discard(self) -> None:
        """Close after a failure (the file is removed next): a write of what is still
        buffered that fails again is of no matter; the descriptor is closed anyway."""
        try:
            self.fh.close()
        except (OSError, ValueError):
            pass


def _write_error(exc: OSError, label: str, output: bool) -> InputError:
    what = exc.strerror or str(exc)
    if output:
        return InputError(f"cannot write output: {what}", file=label)
    return InputError(f"cannot write a temporary file: {what}", file=label,
                      expected="room in the temporary folder (TMPDIR sets another)")


class _Sized:
    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n


def _append(dst: Any, path: Path) -> int:
    from .origin import copy_file

    return copy_file(path, dst, CHUNK)


def _chain(first: Any, rest: Iterator[Any]) -> Iterator[Any]:
    yield first
    yield from rest
