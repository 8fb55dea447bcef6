"""A system's declared text layout (System.text_layout, xsys.core.textblock.TextLayout): a
third-party system that declares one gets plain-text stat blocks read and written by the
textblock format plugin like a built-in system, told from other systems' blocks by its stats."""

from __future__ import annotations

import re
import sys
import types
from typing import Any

import msgspec
import pytest

from xsys.core import registry
from xsys.core.errors import InputError
from xsys.core.hookspecs import hookimpl
from xsys.core.system import System
from xsys.core.textblock import Read, TextLayout, Walk, name_of, sectioner, split_items, \
    stat_pairs


class TallyNpc(msgspec.Struct, kw_only=True):
    name: str = ""
    Grit: int = 2
    Aim: int = 2
    skills: dict[str, int] = {}
    notes: str = ""


class TallyText(TextLayout):
    """Blocks like "Grit 3, Aim 4" and "Skills: Shoot 2, Hide 1"."""

    stats_hint = "Grit Aim Nerve (tally)"
    stats = ("Grit", "Aim", "Nerve")  # the default score counts them

    def read(self, lines: list[str]) -> Read:
        r = Read(self.key, reader="tally block")
        doc: dict[str, Any] = {}
        skills: dict[str, int] = {}
        notes: list[str] = []

        def stats(line: str) -> str | None:
            found, rest = stat_pairs(line, self.stats)
            if not found:
                return None
            doc.update({k: int(v) for k, v in found.items() if k != "Nerve"})
            if "Nerve" in found:
                r.assumed.append(f"line {r.line}: Nerve {found['Nerve']} is derived from Grit: not carried")
            return rest

        def skill(item: str, n: int) -> bool:
            m = re.fullmatch(r"(\w+) (\d)", item)
            if m is None:
                return False
            skills[m.group(1)] = int(m.group(2))
            return True

        Walk(r, lines).run(stats, sectioner(r, notes, stats, {"skills": skill}))
        r.doc = {"name": name_of(r), **doc, "skills": skills, "notes": "\n".join(notes)}
        return r

    def write(self, doc: dict[str, Any]) -> list[str]:
        # two stats are too few to tell a block by: the written block says its system
        return [f"system: {self.key}", doc.get("name", ""), f"Grit {doc.get('Grit', 2)}, Aim {doc.get('Aim', 2)}",
                "Skills: " + ", ".join(f"{k} {v}" for k, v in (doc.get("skills") or {}).items())]


class Tally(System):
    key = "tally"
    name = "Tally"
    npc_type = TallyNpc

    def text_layout(self) -> TextLayout | None:
        return TallyText(self.key)


@hookimpl
def xsys_register_systems(register):
    register(Tally)


@pytest.fixture
def tally_registry():
    from xsys.plugins import catalog, gurps, textblock

    plugin = types.ModuleType("tally_plugin")
    plugin.xsys_register_systems = xsys_register_systems
    sys.modules["tally_plugin"] = plugin
    reg = registry.Registry(entry_points=[], extra_plugins=[("tally", plugin), ("gurps", gurps),
                                                           ("textblock", textblock), ("catalog", catalog)])
    try:
        with registry.as_default(reg):
            yield reg
    finally:
        sys.modules.pop("tally_plugin", None)


def test_a_third_party_layout_reads_its_block(tally_registry):
    text = "Old Maud\nGrit 3, Aim 4, Nerve 5\nSkills: Shoot 2, Hide 1, Bake well\nNotes: keeps a shotgun\n"
    load = tally_registry.format_specs()["text"].load
    doc = load(text.encode())
    assert {k: v for k, v in doc.items() if k != "xsys"} == {
        "system": "tally", "kind": "npc", "name": "Old Maud", "Grit": 3, "Aim": 4,
        "skills": {"Shoot": 2, "Hide": 1}, "notes": "keeps a shotgun"}
    assert doc["xsys"]["read"] == {"format": "text", "unread": [{"line": 3, "text": "Bake well"}],
                                   "assumed": ["line 2: Nerve 5 is derived from Grit: not carried"],
                                   "reader": "tally block"}


def test_a_third_party_layout_writes_its_block_and_reads_it_back(tally_registry):
    dump = tally_registry.format_specs()["text"].dump
    load = tally_registry.format_specs()["text"].load
    doc = {"system": "tally", "kind": "npc", "name": "Old Maud", "Grit": 3, "Aim": 4, "skills": {"Shoot": 2},
           "notes": "keeps a shotgun"}
    text = dump(doc).decode()
    assert text == "system: tally\nOld Maud\nGrit 3, Aim 4\nSkills: Shoot 2\nNotes: keeps a shotgun\n"
    assert load(text.encode()) == doc


def test_blocks_are_told_apart_by_each_layouts_stats(tally_registry):
    load = tally_registry.format_specs()["text"].load
    assert load(b"Gunner\nST 11, DX 13, IQ 10, HT 12\n")["system"] == "gurps"
    assert load(b"system: tally\nGunner\nST 11, DX 13, IQ 10, HT 12\n")["system"] == "tally"
    with pytest.raises(InputError) as exc:
        load(b"Gunner\nGrit 3\n")
    assert exc.value.expected == ("a 'system: KEY' line (or --from KEY), or the system's stats: ST DX IQ HT (GURPS; 体力 敏捷力 知力 生命力), "
                                  "Grit Aim Nerve (tally)")
    with pytest.raises(InputError) as exc:
        load(b"system: coc\nGunner\nGrit 3\n")
    assert exc.value.expected == "gurps, tally"


def test_a_system_without_a_layout_gets_no_text_block(tally_registry):
    from xsys.core.textblock import layouts

    assert System().text_layout() is None
    assert list(layouts(tally_registry)) == ["gurps", "tally"]


# ---- a block a format plugin registers, which systems name (System.text_block) --------------------

class TallyVariant(System):
    """A second system printed in the same block: it names the block, declares no layout."""
    key = "tally-two"
    name = "Tally, second printing"
    npc_type = TallyNpc
    text_block = "tally-block"


class Unnamed(System):
    key = "tally-three"
    name = "Tally, unprinted"
    npc_type = TallyNpc
    text_block = "no-such-block"


def _plugin(name: str, **hooks: Any) -> types.ModuleType:
    plugin = types.ModuleType(name)
    for hook, fn in hooks.items():
        setattr(plugin, hook, hookimpl(fn))
    sys.modules[name] = plugin
    return plugin


@pytest.fixture
def block_registry():
    from xsys.plugins import catalog, textblock

    systems = _plugin("tally_systems", xsys_register_systems=lambda register: [register(c) for c in (TallyVariant,
                                                                                                        Unnamed)])
    blocks = _plugin("tally_blocks", xsys_register_text_blocks=lambda register: register(
        "tally-block", lambda system: TallyText(system.key)))
    again = _plugin("tally_again", xsys_register_text_blocks=lambda register: register(
        "tally-block", lambda system: None))
    reg = registry.Registry(entry_points=[], extra_plugins=[
        ("tally-systems", systems), ("tally-blocks", blocks), ("tally-again", again), ("textblock", textblock),
        ("catalog", catalog)])
    try:
        with registry.as_default(reg):
            yield reg
    finally:
        for name in ("tally_systems", "tally_blocks", "tally_again"):
            sys.modules.pop(name, None)


def test_a_system_naming_a_registered_block_reads_and_writes_it(block_registry):
    from xsys.core.textblock import layout_of, layouts

    assert TallyVariant().text_layout() is None  # it declares no layout of its own
    layout = layout_of(block_registry.system("tally-two"), block_registry)
    assert isinstance(layout, TallyText) and layout.key == "tally-two"
    assert list(layouts(block_registry)) == ["tally-two"]  # tally-three names a block nobody registers
    spec = block_registry.format_specs()["text"]
    doc = spec.load(b"Old Maud\nGrit 3, Aim 4, Nerve 5\nSkills: Shoot 2\n")
    assert (doc["system"], doc["Grit"], doc["skills"]) == ("tally-two", 3, {"Shoot": 2})
    assert spec.dump({k: v for k, v in doc.items() if k != "xsys"}).decode().startswith("system: tally-two\nOld Maud\n")


def test_a_block_name_is_registered_once(block_registry):
    block_registry.text_blocks()
    assert [b.name for b in block_registry.broken] == ["tally-again"]
    assert "text block 'tally-block' is already registered by" in block_registry.broken[0].reason
    assert "its text blocks are skipped" in block_registry.broken[0].reason
    assert block_registry.text_blocks()["tally-block"][1] == "tally-blocks"


def test_a_text_block_that_is_not_a_name_refuses_the_system():
    from xsys.core.registry import _system_problem

    bad = type("Bad", (TallyVariant,), {"key": "tally-bad", "text_block": 3})
    assert _system_problem(bad) == "its text_block 3 is not a name (a string) or None"
    assert _system_problem(TallyVariant) == ""
