"""The loss audit's work per NPC, counted (not timed): a roster's source NPCs are read once each.

A target's own field that no neutral path names (GURPS advantages, written for a Will beside IQ)
was searched for in the source by leaving out each source field in turn and reading the NPC
again: about fourteen readings an NPC, which halved the roster rate (bench: 693 -> 351 NPC/s)."""

from __future__ import annotations

from pathlib import Path

from xsys.conversions import api, bench
from xsys.core.registry import default_registry


def test_a_roster_reads_each_source_npc_once(tmp_path: Path, monkeypatch) -> None:
    pool = bench._coc_pool(20)
    src = tmp_path / "roster.json"
    bench._write_roster(src, pool, 20)
    coc = type(default_registry().system("coc"))
    reads = []
    orig = coc.npc_to_neutral
    monkeypatch.setattr(coc, "npc_to_neutral", lambda self, npc: reads.append(1) or orig(self, npc))
    conv = api.convert(api.load(src), "gurps", trace=False)
    assert len(reads) == 20
    # and the Will-trait losses that used to set it off are still said, at the NPC
    said = [x for x in conv.losses if "Strong Will" in x.message or "Weak Will" in x.message]
    assert said and all(x.path.startswith("$.npcs[") for x in said)
