"""The remembered source of a converted roster, packed.

A converted document remembers its source in ``xsys.origin`` (see "lossless round trips"
below). A single NPC or scenario keeps it as a readable copy::

    origin: {system: coc, document: {...the source document...}}

A roster keeps it packed: the same source document, as the JSON that ``codec.json_encode``
writes of it, deflated (zlib) and written in base64, with the SHA-256 of that JSON::

    origin: {system: coc, packing: json+zlib+base64, digest: <sha256 hex of the JSON>, packed: eJz...}

Unpacked (and checked against its digest) it is exactly the copy a whole conversion wrote
before, so converting back restores the source byte for byte, an edited roster still has
its whole source for merging the edits back, and a roster written by the previous
version (a full copy) still reads. Why packing and not "what the reverse conversion would
not reproduce": that needs a conversion back of every NPC when the roster is written
(doubling the time of a conversion) and is relative to the document at hand, so a hand
edit would lose the source of what it touched; a deflated copy needs neither, and NPCs of
a roster repeat the same keys, skills, weapons and armor, which deflate well (about 8x on
the benchmark's coc rosters).

The trust model does not change: the digest only shows that the packed bytes are the ones
written (a damaged block is ignored, as a malformed one always was); whether the source
is what gave the document at hand is still checked by converting it afresh (:func:`_restore`).

:class:`Packer` packs a roster as a stream (the NPCs one by one, the deflated bytes into a
spool file), giving the same bytes as :func:`pack` of the whole document.

Restoring and merging: :func:`_restore` gives back the remembered source of an unedited
conversion, :func:`_merge_edited` merges a hand edit back into it (both below).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import zlib
from typing import Any, BinaryIO, Callable

import msgspec

from xsys.core import codec
from xsys.core.audit import MISSING, inside, path_text, path_tokens
from xsys.core.errors import XsysError
from xsys.core.registry import Registry
from xsys.core.trace import Loss, TraceEntry

from .crossing import Conversion
from .loading import Loaded, Settings, from_plain

PACKING = "json+zlib+base64"
LEVEL = 6  # zlib's default: ~60 MB/s here, and a third smaller than level 1
B64_CHUNK = 3 * (1 << 18)  # a multiple of 3: base64 of consecutive chunks is the base64 of the whole


def packs(kind: str) -> bool:
    """Whether the remembered source of a document of this kind is packed (rosters)."""
    return kind == "roster"


def pack(block: dict[str, Any]) -> dict[str, Any]:
    """A full ``{"system", "document"}`` origin block, packed."""
    raw = codec.json_encode(block["document"])
    return {"system": block["system"], "packing": PACKING, "digest": hashlib.sha256(raw).hexdigest(),
            "packed": base64.b64encode(zlib.compress(raw, LEVEL)).decode("ascii")}


def is_packed(block: Any) -> bool:
    return isinstance(block, dict) and "packed" in block


def _limit() -> int:
    from . import documents

    return documents.MAX_INPUT_BYTES or documents.DEFAULT_MAX_INPUT_BYTES


def unpack(block: dict[str, Any]) -> dict[str, Any] | None:
    """A packed origin block as the full ``{"system", "document"}`` one; None if it is not a
    well-formed packed block of this version's packing, does not unpack, unpacks to more
    than the input limit (a document xsys would not read), or does not match its digest."""
    system, packed, want = block.get("system"), block.get("packed"), block.get("digest")
    if not (isinstance(system, str) and isinstance(packed, str) and isinstance(want, str)
            and block.get("packing") == PACKING):
        return None
    try:
        deflated = base64.b64decode(packed.encode("ascii"), validate=True)
        d = zlib.decompressobj()
        limit = _limit()
        raw = d.decompress(deflated, limit + 1)
        if len(raw) > limit or not d.eof or d.unused_data:
            return None
    except (ValueError, UnicodeEncodeError, binascii.Error, zlib.error):
        return None
    if hashlib.sha256(raw).hexdigest() != want:
        return None
    try:
        document = msgspec.json.decode(raw)
    except msgspec.DecodeError:
        return None
    if not isinstance(document, dict):
        return None
    return {"system": system, "document": document}


class Packer:
    """The packed form of a document fed as JSON pieces (the head up to its NPCs, each NPC
    with the commas between them, the rest): the deflated bytes go to ``spool``."""

    def __init__(self, spool: BinaryIO) -> None:
        self.spool = spool
        self._z = zlib.compressobj(LEVEL)
        self._sha = hashlib.sha256()

    def feed(self, raw: bytes) -> None:
        self._sha.update(raw)
        out = self._z.compress(raw)
        if out:
            self.spool.write(out)

    def finish(self) -> str:
        """Flush the deflated stream; the digest (hex) of everything fed."""
        self.spool.write(self._z.flush())
        self.spool.flush()
        return self._sha.hexdigest()

    @staticmethod
    def write_base64(spool_path: Any, dst: BinaryIO) -> int:
        """The spool's bytes in base64 into `dst`; the number of bytes written."""
        return copy_file(spool_path, dst, B64_CHUNK, base64.b64encode)


def copy_file(path: Any, dst: BinaryIO, chunk_size: int = 1 << 20,
              transform: Callable[[bytes], bytes] | None = None) -> int:
    """The file at `path` into `dst` chunk by chunk (each through `transform`); the number of
    bytes written."""
    n = 0
    with open(path, "rb") as src:
        while True:
            chunk = src.read(chunk_size)
            if not chunk:
                return n
            out = transform(chunk) if transform is not None else chunk
            dst.write(out)
            n += len(out)


# ---- lossless round trips ----------------------------------------------------------
#
# A conversion that rounds to the nearest native value cannot in general be both
# faithful (within half a step of the source) and stable after one round trip: with
# A = {-0.09, 0.1} and B = {-0.15, 0}, nearest rounding takes 0.1 -> 0 -> -0.09 -> -0.15.
# So every converted document remembers its source (`xsys.origin`, with a digest of the
# document as written). Converting an unedited document back to a system in its chain
# of origins returns that original; an edited one is converted afresh.
#
# The memory is not trusted for being there: anyone can write an `xsys.origin` block and
# its (unkeyed) digest. A remembered source is used only if it reads as a valid document
# and, converted afresh, gives exactly the document at hand (each hop of the chain to the
# one restored); the document at hand is then a function of the source, so restoring the
# source loses nothing of it. Otherwise the memory is ignored with a warning in the loss
# report and the document is converted as it reads. A restored document remembers only
# what its own source remembered: converting it on to another system is a fresh
# conversion with its own loss report.

ORIGIN_DEPTH = 3
ORIGIN_RULE = "xsys.origin"


def digest(document: Any) -> str:
    plain = codec.to_builtins(codec.canonical(document))
    plain.pop("xsys", None)
    return _digest_of_plain(plain)


def _digest_of_plain(plain: Any) -> str:
    return hashlib.sha256(codec.json_encode(plain)).hexdigest()


def _origin_of(loaded: Loaded, depth: int = ORIGIN_DEPTH, carry: bool = True) -> dict[str, Any]:
    """The `xsys.origin` block of a conversion of `loaded`: the document itself and (with
    ``carry``) what it remembers in turn, up to `depth` documents."""
    plain = codec.to_builtins(loaded.document)
    if loaded.settings:
        plain["settings"] = loaded.settings
    inner = _origin_block(loaded.meta) if carry else None
    if inner is not None and depth > 1:
        plain["xsys"] = {"origin": _trim(inner, depth - 1)}
    return _kept({"system": loaded.system, "document": plain}, loaded.kind)


def _kept(block: dict[str, Any], kind: str) -> dict[str, Any]:
    """An origin block as a document of this kind keeps it: a roster's packed (:func:`pack`), any
    other's a readable copy."""
    return pack(block) if packs(kind) else block


def _trim(origin: dict[str, Any], depth: int) -> dict[str, Any]:
    doc = dict(origin["document"])
    inner = _origin_block(doc.get("xsys"))
    if inner is not None and depth > 1:
        doc["xsys"] = {"origin": _trim(inner, depth - 1)}
    else:
        doc.pop("xsys", None)
    return {"system": origin["system"], "document": doc}


def _origin_block(meta: Any) -> dict[str, Any] | None:
    """The remembered source of a document's ``xsys`` block as ``{"system", "document"}``
    (a packed one unpacked and checked against its digest); None if there is none or it is
    malformed or damaged."""
    if not isinstance(meta, dict):
        return None
    origin = meta.get("origin")
    if isinstance(origin, dict) and "packed" in origin:
        origin = unpack(origin)
    if not (isinstance(origin, dict) and isinstance(origin.get("system"), str)
            and isinstance(origin.get("document"), dict)):
        return None
    return origin


def _origin_ignored(why: str) -> Loss:
    """A warning (not a loss: --strict judges the fresh conversion's own report)."""
    return Loss(kind="assumed", level="warning", path="$.xsys.origin", rule=ORIGIN_RULE,
                message=f"the remembered source is ignored: {why}; converted as the document reads")


def _restore(loaded: Loaded, to: str, settings: Settings | None, reg: Registry,
             notes: list[Loss], convert: Callable[..., Conversion]) -> tuple[Conversion | None, bool]:
    """(the original `to` document, if `loaded` is an unedited conversion whose chain of
    remembered sources reaches `to` and checks out; whether the chain may be carried on
    into the output's memory). `convert` is the whole conversion
    (xsys.conversions.convert.convert), which checks each remembered source afresh."""
    origin = _origin_block(loaded.meta)
    if origin is None:
        return None, True
    chain: list[Loaded] = []
    while origin is not None and len(chain) < ORIGIN_DEPTH:
        try:  # validated like any input
            source = from_plain(origin["document"], f"{loaded.file} (xsys.origin)", None, reg)
        except XsysError as exc:
            notes.append(_origin_ignored(f"it does not read ({exc.line()})"))
            return None, False
        chain.append(source)
        if source.system == to:
            break
        origin = _origin_block(source.meta)
    if not chain or chain[-1].system != to:
        return None, True  # not needed here; carried on unchecked (checked where it is used)
    wanted = chain[-1]
    if wanted.kind != loaded.kind:
        notes.append(_origin_ignored(f"it is a {wanted.kind}, not a {loaded.kind}"))
        return None, False
    if not isinstance(loaded.meta, dict) or loaded.meta.get("digest") != digest(loaded.document):
        if isinstance(loaded.meta, dict) and isinstance(loaded.meta.get("digest"), str):
            return _merge_edited(loaded, chain[0], to, settings, reg, notes, convert), False
        notes.append(_origin_ignored("the document was edited after it was converted (it holds no digest)"))
        return None, False
    here, here_system = loaded.document, loaded.system
    for source in chain:
        try:
            again = convert(source, here_system, settings=settings, registry=reg, trace=False, fresh=True)
        except XsysError as exc:
            notes.append(_origin_ignored(f"it does not convert to {here_system} ({exc.line()})"))
            return None, False
        if digest(again.document) != digest(here):
            notes.append(_origin_ignored(
                f"converted afresh it is not this {here_system} document (forged, edited, or converted with other "
                "settings or plugin versions)"))
            return None, False
        here, here_system = source.document, source.system
    conv = Conversion(wanted.document, loaded.system, to, loaded.kind, [], [TraceEntry(
        path="$", source_value=f"{loaded.system} document (unedited)",
        neutral=f"original {to} document", rules=[ORIGIN_RULE], source="seed",
        note=f"restored from the document this {loaded.system} document was converted from")])
    inner = _origin_block(wanted.meta)
    conv.origin = None if inner is None else _kept(_trim(inner, ORIGIN_DEPTH), loaded.kind)
    return conv, True


# ---- hand-edited documents -----------------------------------------------------------
#
# A converted document edited by hand no longer matches its digest. Converting it back is
# then neither a restoration (the edit would be lost) nor a fresh conversion (everything the
# target could not hold would be lost, though the user changed one field). Instead the
# remembered source is checked (converted afresh it must give the document as it was
# written: the recorded digest), the edited document is compared with that document, and
# both are converted back: a field of the source whose two conversions back agree was not
# touched by the edit and is restored from the source; a field where they differ is taken
# from the conversion of the edited document, and a warning names both sets of fields.

EDIT_RULE = "xsys.origin.edited"


def _plain(doc: Any) -> Any:
    plain = codec.to_builtins(codec.canonical(doc))
    plain = msgspec.json.decode(codec.json_encode(plain))  # tuples as lists, as in a file
    if isinstance(plain, dict):
        plain.pop("xsys", None)
    return plain


def _changed_paths(a: Any, b: Any, path: str, out: list[str]) -> None:
    """Where plain documents `a` and `b` differ, as paths (a whole list where lengths differ)."""
    if a == b:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            _changed_paths(a.get(k, MISSING), b.get(k, MISSING), path_text([*(path_tokens(path) or ()), k]), out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            _changed_paths(x, y, f"{path}[{i}]", out)
    else:
        out.append(path)


def _merge_back(src: Any, before: Any, after: Any, path: str, changed: list[str]) -> Any:
    """The source's value where the edit did not change its conversion back (`before` ==
    `after`), the conversion of the edited document where it did (`changed` records where)."""
    if before == after:
        return src
    if isinstance(before, dict) and isinstance(after, dict) and isinstance(src, dict):
        out = {}
        for k in list(src) + [k for k in after if k not in src] + [k for k in before if k not in src and k not in after]:
            v = _merge_back(src.get(k, MISSING), before.get(k, MISSING), after.get(k, MISSING),
                            path_text([*(path_tokens(path) or ()), k]), changed)
            if v is not MISSING:
                out[k] = v
        return out
    if isinstance(before, list) and isinstance(after, list) and isinstance(src, list) and len(before) == len(src):
        if len(before) == len(after):
            return [_merge_back(s, b, a, f"{path}[{i}]", changed)
                    for i, (s, b, a) in enumerate(zip(src, before, after))]
        # items added or removed (a weapon more): an item whose conversion back is unchanged
        # is the source's item; the others are new
        out, used = [], set()
        for i, a in enumerate(after):
            j = next((j for j, b in enumerate(before) if j not in used and b == a), None)
            if j is None:
                changed.append(f"{path}[{i}]")
                out.append(a)
            else:
                used.add(j)
                out.append(src[j])
        changed.extend(f"{path}[{j}] (removed)" for j in range(len(before)) if j not in used)
        return out
    changed.append(path)
    return after


def _merge_edited(loaded: Loaded, source: Loaded, to: str, settings: Settings | None, reg: Registry,
                  notes: list[Loss], convert: Callable[..., Conversion]) -> Conversion | None:
    """`loaded`, a hand-edited conversion of `source`, back in `source`'s system: the fields
    the edit changed converted afresh, the rest restored from `source` (see above); then, if
    `source` is itself a conversion of a document in system `to`, on down the chain. None
    (with a note) when the remembered source does not check out."""
    here = loaded.system
    try:
        expected = convert(source, here, settings=settings, registry=reg, trace=False, fresh=True)
    except XsysError as exc:
        notes.append(_origin_ignored(f"it does not convert to {here} ({exc.line()})"))
        return None
    if digest(expected.document) != loaded.meta.get("digest"):
        notes.append(_origin_ignored(
            f"converted afresh it is not the {here} document that was written (forged, or converted with other "
            "settings or plugin versions)"))
        return None
    edited: list[str] = []
    _changed_paths(_plain(expected.document), _plain(loaded.document), "$", edited)
    try:
        unedited = Loaded(expected.document, here, loaded.kind, loaded.file, loaded.settings)
        before = convert(unedited, source.system, settings=settings, registry=reg, trace=False, fresh=True)
        after = convert(Loaded(loaded.document, here, loaded.kind, loaded.file, loaded.settings),
                        source.system, settings=settings, registry=reg, fresh=True)
    except XsysError as exc:
        notes.append(_origin_ignored(f"the edited document does not convert back ({exc.line()})"))
        return None
    changed: list[str] = []
    src = msgspec.json.decode(codec.json_encode(codec.to_builtins(source.document)))  # in the source's own order
    merged = _merge_back(src, _plain(before.document), _plain(after.document), "$", changed)
    if source.settings:
        merged["settings"] = source.settings
    try:
        result = from_plain(merged, f"{loaded.file} (edited)", None, reg)
    except XsysError as exc:
        notes.append(_origin_ignored(f"the edited fields do not fit the remembered source ({exc.line()})"))
        return None
    what = ", ".join(edited) or "nothing"
    redone = ", ".join(changed) or "nothing"
    if loaded.meta.get("carried"):  # a later hop of a chain: the edit came from the document converted
        head = f"the edit carried into the remembered {here} document (changed: {what}); "
    else:
        head = f"edited by hand since it was converted from {source.system} (changed: {what}); "
    if changed:
        tail = f"reconverted {redone}; everything else restored from the remembered {source.system} source"
    else:
        tail = (f"reconverted nothing: the edited document converts back to the same {source.system} document as "
                f"before the edit (the edit is finer than a {source.system} step, or in a field {source.system} has "
                "no place for), so the remembered source is restored")
    notes.append(Loss(kind="assumed", level="warning", path="$", rule=EDIT_RULE, system=source.system,
                      message=head + tail))
    losses = [x for x in after.losses if any(inside(x.path, p) for p in edited)]
    trace = [TraceEntry(path="$", source_value=f"{here} document (edited: {what})",
                        neutral=f"{source.system} document", rules=[EDIT_RULE], source="seed",
                        note=f"reconverted {redone}; the rest restored from the remembered source")]
    # how the edited fields were read (paths in the edited document) and written (paths in the output)
    trace += [t for t in after.trace if any(inside(t.path, p) for p in edited)
              or any(inside(t.path, p.split(" ")[0]) for p in changed)]
    if source.system != to:  # further down the chain: the merged document, edited against its own source
        inner = _origin_block(source.meta)
        if inner is None:
            return None
        onward = Loaded(result.document, source.system, source.kind, loaded.file, source.settings,
                        {"origin": inner, "digest": digest(source.document), "carried": True})
        conv, _ = _restore(onward, to, settings, reg, notes, convert)
        if conv is None:
            return None
        conv.losses[:0] = losses
        conv.trace[:0] = trace
        return conv
    return Conversion(result.document, here, to, loaded.kind, losses, trace)
