"""The loss audit's work per NPC, counted (not timed): a roster's source NPCs are read once each.

A target's own field that no neutral path names (GURPS advantages, written for a Will beside IQ)
was searched for in the source by leaving out each source field in turn and reading the NPC
again: about fourteen readings an NPC, which halved the roster rate (bench: 693 -> 351 NPC/s)."""

from __future__ import annotations

from pathlib import Path

from xsys.conversions import api
from xsys.devtools import bench
from xsys.core.registry import default_registry


def test_a_roster_reads_each_source_npc_once(tmp_path: Path, monkeypatch) -> None:
    pool = bench._pool(20)
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


def _python_lines(fn) -> int:
    """How many lines of xsys's own Python code `fn()` runs (a count of work that does not
    depend on the machine's speed or load)."""
    import sys

    root = str(Path(api.__file__).resolve().parent.parent)
    count = 0

    def local(frame, event, arg):
        nonlocal count
        if event == "line":
            count += 1
        return local

    def call(frame, event, arg):
        return local if frame.f_code.co_filename.startswith(root) else None

    sys.settrace(call)
    try:
        fn()
    finally:
        sys.settrace(None)
    return count


def _npc_with_skills(n: int, word: str = "Odd") -> dict:
    """A Call of Cthulhu NPC with `n` skills that no neutral skill holds (named "`word` Skill i"):
    each is kept verbatim for the way back and carried through GURPS."""
    return {"system": "coc", "kind": "npc", "name": "Polymath", "STR": 50, "CON": 50, "SIZ": 50, "DEX": 50,
            "APP": 50, "INT": 50, "POW": 50, "EDU": 50,
            "skills": {"Handgun": 40, **{f"{word} Skill {i}": 10 + i % 80 for i in range(n)}}}


def test_the_conversion_is_linear_in_the_number_of_skills() -> None:
    # Each carried skill was looked for in the message of every kept-verbatim loss (a substring
    # search per pair): 4k skills took 3.7 s, 16k 40 s, 50k over 200 s. Four times the skills
    # may cost about four times the work, not sixteen.
    small, large = _npc_with_skills(200), _npc_with_skills(800)
    # the systems' tables, built once, by an NPC whose skills neither measured one has: warming up
    # with `small` itself left its 200 skills' answers remembered, so only the large one paid for
    # its skills and the ratio measured the memo tables, not the conversion
    api.convert(_npc_with_skills(200, "Warm-up"), "gurps", trace=False)
    work = [_python_lines(lambda d=d: api.convert(d, "gurps", trace=False)) for d in (small, large)]
    assert work[1] / work[0] < 6, work  # (measured 3.3: the fixed work of a conversion; quadratic is 16)
    conv = api.convert(large, "gurps", trace=False)
    kept = [x for x in conv.losses if x.path == "$.skills.Odd Skill 799"]
    assert [x.kind for x in kept] == ["kept-verbatim"]
    assert kept[0].message.endswith("not expressible in gurps: carried verbatim at carried.coc.skills.Odd Skill 799")


def test_the_audit_s_work_per_npc_does_not_grow_with_the_roster(tmp_path: Path, monkeypatch) -> None:
    """Finding the audited item a loss lies in walks up the loss's path; it used to scan every
    item audited so far, so each NPC of a roster cost more than the one before (a 10,000-NPC
    roster to gurps: 20.9 s, 17.3 s after)."""
    from xsys.core import audit

    pool = bench._pool(10)
    counts = {}
    orig = audit.inside
    for n in (10, 60):
        src = tmp_path / f"roster-{n}.json"
        bench._write_roster(src, pool, n)
        calls = [0]

        def counted(path: str, prefix: str, calls=calls) -> bool:
            calls[0] += 1
            return orig(path, prefix)

        monkeypatch.setattr(audit, "inside", counted)
        api.convert(api.load(src), "gurps", trace=False)
        counts[n] = calls[0] / n
    assert counts[60] <= counts[10] * 1.1, counts
