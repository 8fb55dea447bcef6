"""The developer tools' choices of systems and documents (fixtures/devtools/choices.toml)."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FILE = ROOT / "fixtures" / "devtools" / "choices.toml"


@cache
def config() -> dict[str, Any]:
    with FILE.open("rb") as fh:
        return tomllib.load(fh)


def section(name: str) -> dict[str, Any]:
    return config()[name]
