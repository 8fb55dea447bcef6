"""Build every table a system uses (ladders, characteristic and skill ladders, the dice
distributions behind them), for the benchmark and for cache tests."""

from __future__ import annotations

from typing import Any


def build_everything(registry: Any) -> int:
    """Build every system's ladders, characteristic ladders and skill ladders (which
    compute the dice tables behind them); returns how many tables were built."""
    n = 0
    for system in registry.systems():
        n += len(system.ladders())
        n += len(system.characteristics())
        for skill in system.skills():
            system.skill_ladder(skill, None)
            n += 1
    return n
