"""Where xsys keeps what it remembers across processes: ``$XDG_CACHE_HOME/xsys`` (default
``~/.cache/xsys``). A module of its own, importing nothing of xsys, so that the units module
(pint's cache folder lives here too) and the cache module (which encodes through the codec,
which knows the unit types) do not import each other."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "xsys"
