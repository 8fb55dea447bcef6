"""The remembered source of a converted roster, packed.

A converted document remembers its source in ``xsys.origin`` (see ``api``: "lossless round
trips"). A single NPC or scenario keeps it as a readable copy::

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
is what gave the document at hand is still checked by converting it afresh (``api._restore``).

:class:`Packer` packs a roster as a stream (the NPCs one by one, the deflated bytes into a
spool file), giving the same bytes as :func:`pack` of the whole document.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import zlib
from typing import Any, BinaryIO, Callable

import msgspec

from xsys.core import codec

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
