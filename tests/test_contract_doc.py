"""docs/hooks.md states the whole System contract a plugin author meets: every public member
of xsys.core.system.System (class attribute or method) is named in its System section."""

from __future__ import annotations

import re
from pathlib import Path

from xsys.core.system import System

DOC = Path(__file__).resolve().parent.parent / "docs" / "hooks.md"


def test_every_public_member_of_system_is_in_the_contract():
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## The System contract"):]
    named = set(re.findall(r"`([a-z_]+)(?:\(|`)", section))
    public = {n for n in dir(System) if not n.startswith("_")}
    missing = sorted(public - named)
    assert not missing, f"System members not in docs/hooks.md's contract: {missing}"
    assert "key" in public and "npc_from_neutral" in public  # the check reads the real class
