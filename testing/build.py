"""Build every table a system uses (ladders, characteristic and skill ladders, the dice
distributions behind them), for the benchmark and for cache tests: the registry's own
``build_tables``, which ``xsys serve`` runs before it forks its workers."""

from __future__ import annotations

from typing import Any


def build_everything(registry: Any) -> int:
    """Every system's tables built; how many (``Registry.build_tables``)."""
    return int(registry.build_tables())
