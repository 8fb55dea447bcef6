"""``xsys.conversions.api`` is the public facade of the conversions: the work lives in one
module per job (loading, crossing, carrying, origin, odds, convert; the loss audit in
xsys.core.audit), and every name that the code, the tests and the docs call through ``api``
is still there."""

from __future__ import annotations

import re
from pathlib import Path

from xsys.conversions import api
from xsys.core import audit

ROOT = Path(__file__).resolve().parent.parent
USED = re.compile(r"(?<![\w.])api\.([A-Za-z_]\w*)")


def _names_used_through_api() -> dict[str, str]:
    out: dict[str, str] = {}
    for top in ("conversions", "core", "plugins", "testing", "tests", "docs"):
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix not in (".py", ".md") or "golden" in path.parts:
                continue
            for name in USED.findall(path.read_text(encoding="utf-8")):
                if name not in ("py", "__file__"):  # "api.py" in prose; the module's own file
                    out.setdefault(name, str(path.relative_to(ROOT)))
    return out


def test_every_name_called_through_api_is_there():
    used = _names_used_through_api()
    assert {"convert", "dump", "load", "from_plain", "odds", "shots_of", "system_for", "Loaded"} <= set(used)
    missing = {name: where for name, where in used.items() if not hasattr(api, name)}
    assert missing == {}


def test_the_written_memo_switch_lives_with_the_audit_only():
    # a copy of the switch in api would be a second switch that the audit never reads
    assert audit.WRITTEN_MEMO is True
    assert not hasattr(api, "WRITTEN_MEMO") and not hasattr(api, "_written_memo")
