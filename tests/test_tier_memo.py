"""A skill's tier-keeping level (core.system.tier_steps, core.tiers) is remembered per target by
what it depends on (the skill, its neutral skills' competences and ladders, the source skills
behind them): remembered or worked out every time, every fixture and generated rosters of every
system convert to the same bytes, their traces included."""

from __future__ import annotations

from pathlib import Path

import pytest

from xsys.conversions import api
from xsys.core import system as system_mod
from xsys.core.registry import default_registry
from xsys.devtools import bench

ROOT = Path(__file__).resolve().parent.parent
TARGETS = default_registry().keys()
NPC_FIXTURES = sorted(p for key in TARGETS for p in (ROOT / "fixtures" / key / "npcs").glob("*.yaml"))


def _forget_tiers() -> None:
    for key in TARGETS:
        default_registry().system(key).__dict__.pop("_tier_steps", None)


@pytest.fixture
def remembered(monkeypatch):
    """Remember the answers (True) or work each out (False: no key is made); either way from empty."""

    def switch(on: bool) -> None:
        _forget_tiers()
        if not on:
            def no_key(*args, **kwargs):
                raise RuntimeError("not remembered in this run")
            monkeypatch.setattr(system_mod, "_tier_key", no_key)
        else:
            monkeypatch.undo()

    yield switch
    _forget_tiers()


def _outputs(docs: list[tuple[str, api.Loaded]]) -> dict[tuple[str, str], bytes]:
    return {(name, to): api.dump(api.convert(loaded, to, trace=True), "json", explain=True)
            for name, loaded in docs for to in TARGETS if to != loaded.system}


def test_fixtures_and_generated_rosters_are_the_same_bytes_remembered(remembered, tmp_path):
    assert len(NPC_FIXTURES) >= 20
    docs = [(str(p), api.load(p)) for p in NPC_FIXTURES]
    for key, doc in bench._generated_rosters(48, seed=13).items():
        docs.append((f"generated {key}", api.from_plain(doc, str(tmp_path / f"{key}.json"))))
    remembered(False)
    worked_out = _outputs(docs)
    assert not any(default_registry().system(k).__dict__.get("_tier_steps") for k in TARGETS)
    remembered(True)
    for _ in range(2):  # the second time every answer is a remembered one
        assert _outputs(docs) == worked_out
    asked = {k: len(default_registry().system(k).__dict__.get("_tier_steps") or ()) for k in TARGETS}
    assert sum(asked.values()) > 100, asked  # the answers were remembered, not worked out again
