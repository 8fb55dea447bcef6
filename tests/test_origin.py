"""A converted roster remembers its source packed (conversions/origin.py): a
digest and the deflated source instead of a full copy; unpacked it is exactly the copy a
whole conversion wrote before, so round trips restore the source, rosters written by the
previous version (a full copy) still restore, and a damaged packed block is ignored."""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path

import pytest

from helpers import fixture_npcs
from xsys.conversions import api, documents, origin, stream
from xsys.core import codec

ROOT = Path(__file__).resolve().parent.parent


def _roster(system: str = "coc", copies: int = 3) -> dict:
    npcs = fixture_npcs(system)
    npcs = [dict(d, name=f"{d.get('name', 'npc')} {i}") if "name" in d else d for i in range(copies) for d in npcs]
    return {"system": system, "kind": "roster", "name": f"every {system} fixture", "npcs": npcs}


def _plain(doc):
    out = json.loads(codec.json_encode(doc))
    out.pop("xsys", None)
    return out


def _written(src, to, fmt="yaml"):
    return documents.parse_bytes(api.dump(api.convert(src, to, trace=False), fmt), fmt, "<written>")


def test_a_roster_remembers_its_source_packed_and_smaller():
    src = _roster()
    there = _written(src, "gurps", "json")
    block = there["xsys"]["origin"]
    assert set(block) == {"system", "packing", "digest", "packed"} and block["packing"] == origin.PACKING
    full = api._origin_of(api.from_plain(src, "<src>"))  # what is packed
    unpacked = origin.unpack(block)
    assert unpacked == {"system": "coc", "document": json.loads(codec.json_encode(
        codec.to_builtins(api.from_plain(src, "<src>").document)))}
    assert full["packed"] == block["packed"]
    full_copy = len(codec.json_encode(unpacked))
    assert len(codec.json_encode(block)) * 3 < full_copy, "packed is not much smaller than the full copy"


def test_a_single_npc_keeps_a_readable_copy():
    there = _written(ROOT / "fixtures" / "coc" / "npcs" / "gangster_tommy_gun.yaml", "gurps")
    assert set(there["xsys"]["origin"]) == {"system", "document"}


@pytest.mark.parametrize("fmt", ["json", "yaml"])
@pytest.mark.parametrize("to", ["gurps", "nwod", "coc-zh", "pl-trudnosc", "neutral"])
def test_a_packed_roster_converts_back_to_its_source(fmt, to):
    src = _roster(copies=1)
    there = _written(src, to, fmt)
    back = api.convert(api.from_plain(there, "<there>"), "coc")
    assert any(t.rules == ["xsys.origin"] for t in back.trace), [x.message for x in back.losses]
    assert _plain(back.document) == _plain(api.from_plain(src, "<src>").document)


def test_a_chain_of_rosters_returns_to_the_first():
    src = _roster(copies=1)
    b = _written(src, "gurps")
    c = _written(api.from_plain(b, "<b>"), "nwod")
    assert origin.unpack(c["xsys"]["origin"])["document"]["xsys"]["origin"]["system"] == "coc"
    back = api.convert(api.from_plain(c, "<c>"), "coc")
    assert any(t.rules == ["xsys.origin"] for t in back.trace)
    assert _plain(back.document) == _plain(api.from_plain(src, "<src>").document)
    # restored: it remembers its own source (none here) and the middle one re-packs
    mid = api.convert(api.from_plain(c, "<c>"), "gurps")
    assert any(t.rules == ["xsys.origin"] for t in mid.trace) and origin.is_packed(mid.origin)


def test_a_roster_written_with_a_full_copy_still_converts_back():
    src = _roster(copies=1)
    there = _written(src, "gurps")
    there["xsys"]["origin"] = origin.unpack(there["xsys"]["origin"])  # as the previous version wrote it
    back = api.convert(api.from_plain(there, "<old>"), "coc")
    assert any(t.rules == ["xsys.origin"] for t in back.trace)
    assert _plain(back.document) == _plain(api.from_plain(src, "<src>").document)


def _damaged(block, how):
    b = dict(block)
    if how == "digest":
        b["digest"] = "0" * 64
    elif how == "base64":
        b["packed"] = b["packed"][:-5] + "!!!!="
    elif how == "truncated":
        b["packed"] = b["packed"][: len(b["packed"]) // 2 // 4 * 4]
    elif how == "packing":
        b["packing"] = "json+lzma+base64"
    elif how == "other source":  # a valid packing of a source that did not give this document
        doc = origin.unpack(block)["document"]
        doc["npcs"][0]["skills"] = dict(doc["npcs"][0]["skills"], Handgun=90)
        b = origin.pack({"system": block["system"], "document": doc})
    return b


@pytest.mark.parametrize("how", ["digest", "base64", "truncated", "packing", "other source"])
def test_a_damaged_or_forged_packed_source_is_not_restored(how):
    src = _roster(copies=1)
    there = _written(src, "gurps")
    there["xsys"]["origin"] = _damaged(there["xsys"]["origin"], how)
    back = api.convert(api.from_plain(there, "<damaged>"), "coc")
    assert not any(t.rules == ["xsys.origin"] for t in back.trace)
    if how == "other source":
        assert any(x.path == "$.xsys.origin" and "ignored" in x.message for x in back.losses)


def test_unpacking_is_bounded_by_the_input_limit(monkeypatch):
    raw = b'{"npcs":[' + b'{},' * 200_000 + b'{}]}'
    block = {"system": "coc", "packing": origin.PACKING, "digest": __import__("hashlib").sha256(raw).hexdigest(),
             "packed": base64.b64encode(zlib.compress(raw, 9)).decode()}
    assert origin.unpack(block) == {"system": "coc", "document": {"npcs": [{}] * 200_001}}
    monkeypatch.setattr(documents, "MAX_INPUT_BYTES", 100_000)
    assert origin.unpack(block) is None


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_a_streamed_roster_packs_what_the_whole_conversion_packs_and_converts_back(tmp_path, fmt):
    src = _roster(copies=4)
    p = tmp_path / f"roster.{fmt}"
    p.write_bytes(documents.dumps(src, fmt))
    s = stream.convert_file(str(p), "gurps")
    assert s is not None
    try:
        streamed = s.output.read_bytes()
    finally:
        s.discard()
    data, _ = documents.read_with_format(str(p))
    assert streamed == api.dump(api.convert(api.from_plain(data, str(p)), "gurps", trace=False), fmt)
    there = documents.parse_bytes(streamed, fmt, "<streamed>")
    back = api.convert(api.from_plain(there, "<streamed>"), "coc")
    assert any(t.rules == ["xsys.origin"] for t in back.trace)
    assert _plain(back.document) == _plain(api.from_plain(src, "<src>").document)


def test_the_packer_gives_the_bytes_of_pack(tmp_path):
    doc = {"a": 1, "npcs": [{"x": i, "y": "z" * (i % 7)} for i in range(5000)], "b": "tail"}
    whole = origin.pack({"system": "s", "document": doc})
    j = codec.json_encode(dict(doc, npcs=["@@"]))
    at = j.index(b'"@@"')
    spool = tmp_path / "spool"
    with open(spool, "wb") as fh:
        pk = origin.Packer(fh)
        pk.feed(j[:at])
        for i, npc in enumerate(doc["npcs"]):
            pk.feed((b"," if i else b"") + codec.json_encode(npc))
        pk.feed(j[at + 4:])
        digest = pk.finish()
    out = tmp_path / "out"
    with open(out, "wb") as fh:
        origin.Packer.write_base64(spool, fh)
    assert digest == whole["digest"] and out.read_bytes().decode() == whole["packed"]
