"""The conversion as the CLI and the API offer it: :func:`convert` (a document to another
system: restored from its remembered source where that checks out, else converted afresh,
with the losses its reader reported first) and :func:`dump` (a conversion as file content)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from xsys.core import codec
from xsys.core.errors import LossError, XsysError
from xsys.core.guard import halts_are_errors as _halts_are_errors
from xsys.core.registry import Registry, default_registry
from xsys.core.trace import Loss

from . import documents
from .crossing import Conversion, _convert_afresh
from .documents import NEUTRAL, lengths_in as _lengths_in
from .loading import Loaded, Settings, from_plain, load, _merge_settings
from .odds import shot_checks
from .origin import digest, _digest_of_plain, _origin_of, _restore


@_halts_are_errors
def convert(source: Any, to: str, *, default_system: str | None = None, settings: Settings | None = None,
            strict: bool = False, registry: Registry | None = None, fmt: str | None = None,
            trace: bool = True, fresh: bool = False) -> Conversion:
    """Convert a document (a :class:`Loaded`, plain data, or a path) to system `to`.

    Returns a :class:`Conversion`; with ``strict=True`` raises :class:`LossError` when
    anything is lost. ``trace=False`` skips recording how every number crossed (the
    conversion's ``trace`` stays empty; the loss report is complete either way).
    ``fresh=True`` ignores the source a converted document remembers (``xsys.origin``):
    the document is converted as it reads, and the output remembers only it."""
    if isinstance(source, Loaded):
        loaded = source
    elif isinstance(source, (str, Path)):
        loaded = load(source, fmt, default_system, registry)
    else:
        loaded = from_plain(source, "<data>", default_system, registry)
    merged = _merge_settings(loaded.settings, settings)
    reg = registry or default_registry()
    if to != NEUTRAL:
        reg.entry(to)  # unknown target system: one clear error before any work
    notes: list[Loss] = []
    restored, carry = (None, False) if fresh else _restore(loaded, to, settings, reg, notes, convert)
    if restored is not None:
        conv = restored
        if not trace:
            conv.trace = []
    else:
        conv = _convert_afresh(loaded, to, merged, reg, trace)
        if loaded.system != to:
            conv.origin = _origin_of(loaded, carry=carry)
    from .readreport import read_losses  # what a format plugin's reader could not read or assumed

    conv.losses[:0] = read_losses(loaded.meta, loaded.system) + notes
    if strict and conv.strict_losses:
        first = conv.strict_losses[0]
        raise LossError(f"{len(conv.strict_losses)} loss(es) under --strict; first: {first.path}: {first.message}",
                        file=loaded.file)
    return conv


def dump(conv: Conversion, fmt: str, explain: bool = False, losses: str = "grouped") -> bytes:
    """A conversion as file content: the document plus an ``xsys`` block with the loss
    report (and the trace with ``explain``). ``losses``: a roster's report ``"grouped"``
    (one entry per kind of loss) or ``"full"`` (one per loss; lossgroups)."""
    if fmt == "md":
        from .markdown import render

        return render(conv, explain, shot_checks(conv), losses).encode("utf-8")
    plain = codec.to_builtins(conv.document)
    meta = conv.meta(explain, losses)
    # a canonical document is its own canonical form: its plain data is what digest() hashes
    meta["digest"] = _digest_of_plain(plain) if conv.canonical else digest(conv.document)
    try:
        system = default_registry().entry(conv.document.system).cls
    except XsysError:  # the neutral model's, or a system no longer installed: metres
        system = None
    if system is not None and system.length_unit:  # (the digest is of the same lengths, in metres)
        plain = _lengths_in(conv.document, plain, system.length_unit)
    # what the document is comes first, then its fields, then what xsys adds
    head = {k: plain.pop(k) for k in ("system", "kind", "name") if k in plain}
    return documents.dumps({**head, **plain, "xsys": meta}, fmt)

