"""Small helpers shared by the test modules."""

from __future__ import annotations

import pytest


def run_main(capsys, *args):
    """Run the `xsys` console entry point in-process: (exit status, stdout, stderr)."""
    from xsys.conversions.cli import main

    with pytest.raises(SystemExit) as ex:
        main([str(a) for a in args])
    out = capsys.readouterr()
    return ex.value.code, out.out, out.err


def fixture_npcs(system: str) -> list[dict]:
    """The bundled NPC fixtures of `system` as roster entries (plain, without system/kind),
    leaving out converted documents and those with settings of their own."""
    from pathlib import Path

    from xsys.conversions import documents

    npcs = []
    for f in sorted((Path(__file__).resolve().parent.parent / "fixtures" / system / "npcs").glob("*.yaml")):
        d = documents.read_plain(f)
        if not isinstance(d, dict) or d.get("xsys") or d.get("settings"):
            continue
        for k in ("system", "kind"):
            d.pop(k, None)
        npcs.append(d)
    return npcs


def live_processes(*, parent: int | None = None, session: int | None = None) -> list[int]:
    """The processes (not zombies) whose parent, or whose session, is the one given, from /proc."""
    from pathlib import Path

    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text().rsplit(")", 1)[1].split()  # state, parent, group, session
            except OSError:
                continue
            if stat[0] != "Z" and (parent is None or int(stat[1]) == parent) \
                    and (session is None or int(stat[3]) == session):
                out.append(int(d.name))
    return sorted(out)
