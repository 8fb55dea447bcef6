"""The real-input corpus: documents in the shapes game masters really hold (Foundry VTT CoC7
actors, CCFOLIA clipboard characters, Dhole's House exports, stat blocks as published), each
read through the same input path as ``xsys convert FILE`` and compared with the reading its
``.expect.toml`` states.

The expectations are written from the documents themselves (what the sheet says), never from
what xsys prints. A 7th-edition document states characteristics 1-99; read into ``coc`` (the
6th-edition scale) they are Chaosium's published conversion, the 7th-edition value divided by
5 and rounded half up, which this test computes from the stated value. Skills and HP are the
numbers the document states.
"""

from __future__ import annotations

import tomllib
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest

from xsys.conversions import api, documents
from xsys.conversions.readreport import read_losses

CORPUS = Path(__file__).resolve().parent.parent / "fixtures" / "corpus"
EXPECTATIONS = sorted(CORPUS.glob("*/*.expect.toml"))

# keys a coc document states beside its characteristics
COC_DERIVED = ("HP", "SAN", "MP", "Luck")


def _document_of(expect: Path) -> Path:
    stem = expect.name[: -len(".expect.toml")]
    found = [p for p in expect.parent.iterdir() if p.name != expect.name and p.stem == stem]
    assert len(found) == 1, f"{expect}: expected exactly one document named {stem}.*, found {found}"
    return found[0]


def _sixth(value: int) -> int:
    """Chaosium's 7th -> 6th edition characteristic: divided by 5, rounded half up."""
    return int((Decimal(value) / 5).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def _damage(text: Any) -> str:
    return str(text).replace(" ", "").lower()


def _read(expect: dict[str, Any], path: Path) -> tuple[dict[str, Any], str]:
    plain, fmt = documents.read_with_format(path, expect.get("input_format"))
    assert isinstance(plain, dict), f"{path}: the reader gave {type(plain).__name__}, not a document"
    return plain, fmt


def test_the_corpus_is_there() -> None:
    formats = {p.parent.name for p in EXPECTATIONS}
    assert len(EXPECTATIONS) >= 40, f"the corpus holds {len(EXPECTATIONS)} documents, fewer than 40"
    assert {"foundry-coc7", "ccfolia", "dholes-house"} <= formats, formats


@pytest.mark.parametrize("expect_path", EXPECTATIONS, ids=lambda p: f"{p.parent.name}/{p.name[:-12]}")
def test_corpus_document_reads_as_it_states(expect_path: Path) -> None:
    expect = tomllib.loads(expect_path.read_text(encoding="utf-8"))
    path = _document_of(expect_path)
    plain, fmt = _read(expect, path)
    where = f"{path.relative_to(CORPUS)}"

    fmt = fmt.removeprefix("plugin:")
    assert fmt == expect["format"], f"{where}: read by {fmt!r}, expected the {expect['format']!r} reader"
    assert plain.get("system") == expect["system"], f"{where}: read into {plain.get('system')!r}"
    assert plain.get("name") == expect["name"], f"{where}: name {plain.get('name')!r}"

    scale = expect.get("scale", "native")
    for key, stated in expect.get("characteristics", {}).items():
        want = _sixth(stated) if scale == "7e" and expect["system"] in ("coc", "coc-zh") else stated
        got = plain.get(key, (plain.get("attributes") or {}).get(key) if isinstance(plain.get("attributes"), dict) else None)
        assert got == want, f"{where}: {key} read as {got!r}; the document states {stated} ({scale}) -> {want}"

    for key in expect.get("unstated", []):  # a characteristic the sheet has none of (a creature's APP)
        assert plain.get(key) is None, f"{where}: {key} read as {plain.get(key)!r}; the document states none"

    for key, stated in expect.get("derived", {}).items():
        assert plain.get(key) == stated, f"{where}: {key} read as {plain.get(key)!r}; the document states {stated}"

    skills = plain.get("skills") or {}
    for name, stated in expect.get("skills", {}).items():
        assert skills.get(name) == stated, (
            f"{where}: skill {name!r} read as {skills.get(name)!r}; the document states {stated} "
            f"(read skills: {sorted(skills)})")

    for table in ("weapons", "melee"):
        stated_items = expect.get(table, [])
        read_items = [w for w in (plain.get(table) or []) if isinstance(w, dict)]
        if table == "melee" and expect["system"] not in ("coc", "coc-zh"):
            read_items += [w for w in (plain.get("weapons") or []) if isinstance(w, dict)]
        by_name = {str(w.get("name")): w for w in read_items}
        for item in stated_items:
            got = by_name.get(item["name"])
            assert got is not None, f"{where}: {table[:-1] if table == 'weapons' else table} {item['name']!r} " \
                                    f"not read (read: {sorted(by_name)})"
            if "damage" in item:
                assert _damage(got.get("damage")) == _damage(item["damage"]), \
                    f"{where}: {item['name']!r} damage {got.get('damage')!r}, the document states {item['damage']!r}"
            if "skill" in item:
                assert got.get("skill") == item["skill"], \
                    f"{where}: {item['name']!r} uses {got.get('skill')!r}, expected {item['skill']!r}"

    armor = {str(a.get("name")): a for a in (plain.get("armor") or []) if isinstance(a, dict)}
    for item in expect.get("armor", []):
        got = armor.get(item["name"])
        assert got is not None, f"{where}: armor {item['name']!r} not read (read: {sorted(armor)})"
        points = got.get("armor", got.get("points", got.get("A", got.get("general", got.get("DR")))))  # nwod general/ballistic, gurps DR
        assert points == item["points"], f"{where}: armor {item['name']!r} {points!r}, the document states " \
                                         f"{item['points']}"

    # what the reader says about itself, and what it could not read
    meta = plain.get("xsys") if isinstance(plain.get("xsys"), dict) else {}
    report = meta.get("read") if isinstance(meta.get("read"), dict) else {}
    checks = expect.get("read", {})
    for key in ("reader", "edition"):
        if key in checks:
            assert checks[key] in str(report.get(key, "")), \
                f"{where}: the reader states {key} {report.get(key)!r}, expected it to say {checks[key]!r}"

    # a document that reads converts: into its own system (validated as that system's document)
    # and into another family, with the reader's report among the losses
    loaded = api.from_plain(plain, str(path), expect.get("from_system"))
    lines = [f"{x.path}: {x.message}" for x in read_losses(loaded.meta, loaded.system)]
    for want in checks.get("losses", []):
        assert any(want in line for line in lines), f"{where}: no loss line says {want!r}; lines: {lines}"
    other = "gurps" if expect["system"] != "gurps" else "coc"
    conv = api.convert(loaded, other, trace=False)
    # the converted document's own name (msgspec.to_builtins cannot encode a coc weapon's Length)
    assert conv.document.name == expect["name"]


def test_the_reader_and_edition_a_reader_states_are_one_line_of_the_report() -> None:
    meta = {"read": {"format": "text", "reader": "text stat block, Call of Cthulhu layout",
                     "edition": "6th edition: characteristics 3-21 (EDU 20 is within 6th-edition range)",
                     "unread": [{"line": 7, "text": "Spells: none"}]}}
    losses = read_losses(meta, "coc")
    assert [(x.kind, x.level, x.path, x.rule) for x in losses] == [
        ("assumed", "info", "text", "text.reader"), ("dropped-item", "warning", "line 7", "text.unread")]
    assert losses[0].message == ("read by the text stat block, Call of Cthulhu layout; edition: 6th edition: "
                                 "characteristics 3-21 (EDU 20 is within 6th-edition range)")
    # a block with neither says nothing of them
    assert read_losses({"read": {"format": "text"}}, "coc") == []
