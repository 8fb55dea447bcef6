"""Golden outputs: every input document the repository ships, converted to every bundled
system and to neutral, as YAML and as a Markdown sheet (and with --explain for scenarios
and shots), byte for byte as `xsys convert FILE --to X --fresh --format F [--explain]`
writes it, run from the root of the checkout.

A refused conversion is golden too: its one-line message, as the CLI prints it.

The expected bytes live under tests/golden/<input path below fixtures/>/, one file per case:
``<target>.<format>`` (``<target>.explain.<format>`` with the trace) holds the output;
``<target>.<format>.refused`` the refusal line instead; ``refused.txt`` alone means the input
itself cannot be read, whatever the target. After a change that is meant to change outputs,
regenerate them and review the diff:

    XSYS_GOLDEN_UPDATE=1 .venv/bin/python -m pytest tests/test_golden.py -p no:randomly

(only one input: add ``-k coc/npcs/dock_brute``). The update writes every case of the inputs
it runs and removes case files no longer produced.
"""

from __future__ import annotations

import difflib
import os
import shutil
from pathlib import Path

import pytest

from xsys.conversions import api, documents
from xsys.core import registry as registry_mod
from xsys.core.errors import XsysError

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
UPDATE = os.environ.get("XSYS_GOLDEN_UPDATE") == "1"

SUFFIXES = (".yaml", ".yml", ".json", ".toml", ".txt")
FORMATS = ("yaml", "md")
EXPLAINED_KINDS = ("scenario", "shot")


def _inputs() -> list[str]:
    """Every document below fixtures/, as paths relative to the checkout (never the absolute
    path: a checkout under a folder called "plugins" must not lose any). fixtures/plugins/ holds
    out-of-tree plugin packages and fixtures/devtools/ what the developer tools convert, not
    documents. The corpus's *.expect.toml files are its tests'
    expectations; they are kept, as inputs xsys refuses (no kind), since the CLI refuses them
    with one line that is worth keeping stable."""
    out = []
    for p in (ROOT / "fixtures").rglob("*"):
        rel = p.relative_to(ROOT).as_posix()
        if p.is_file() and p.suffix in SUFFIXES and not rel.startswith(("fixtures/plugins/", "fixtures/devtools/")):
            out.append(rel)
    return sorted(out)


INPUTS = _inputs()


def _bundled_registry() -> registry_mod.Registry:
    """The plugins that ship with xsys, and only those: an out-of-tree plugin installed in
    the same environment (fixtures/plugins/xsys-coc7, say) adds systems and may change what
    the bundled ones write, which is not what these outputs pin down."""
    eps = [ep for ep in registry_mod.installed_entry_points() if ep.value.startswith("xsys.plugins.")]
    return registry_mod.Registry(entry_points=eps)


def _refusal(exc: XsysError, rel: str) -> bytes:
    return (exc.with_file(rel).line() + "\n").encode("utf-8")


def _convert(rel: str, to: str, explain: bool) -> dict[str, bytes]:
    """What the CLI's convert writes for one file named on the command line (not streamed:
    no input is a roster), with --fresh, in each format. One conversion serves both formats
    (dumping does not change it; the outputs were first made with one conversion per format
    and are the same). XsysError propagates as the CLI's refusal."""
    data, _ = documents.read_with_format(rel, None)
    loaded = api.from_plain(data, rel, None)
    conv = api.convert(loaded, to, default_system=None, settings={}, strict=False, trace=explain, fresh=True)
    return {fmt: api.dump(conv, fmt, explain) for fmt in FORMATS}


def outputs(rel: str, targets: list[str]) -> dict[str, bytes]:
    """Every case of one input: case file name -> bytes. Run with the checkout as the
    working directory, as the paths in messages are the ones given on the command line."""
    try:
        data, _ = documents.read_with_format(rel, None)
        kind = api.from_plain(data, rel, None).kind
    except XsysError as exc:
        return {"refused.txt": _refusal(exc, rel)}
    cases: dict[str, bytes] = {}
    for to in targets:
        for explain in (False, True) if kind in EXPLAINED_KINDS else (False,):
            stem = f"{to}.explain" if explain else to
            try:
                done = _convert(rel, to, explain)
            except XsysError as exc:
                # the refusal comes before any output is written, whatever the format
                for fmt in FORMATS:
                    cases[f"{stem}.{fmt}.refused"] = _refusal(exc, rel)
                continue
            for fmt, out in done.items():
                cases[f"{stem}.{fmt}"] = out
    return cases


@pytest.fixture(scope="module")
def bundled(tmp_path_factory):
    reg = _bundled_registry()
    old = registry_mod._default
    registry_mod.set_default_registry(reg)
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        yield reg.keys() + ["neutral"]
    finally:
        os.chdir(here)
        registry_mod.set_default_registry(old)


def _first_difference(name: str, expected: bytes, got: bytes, context: int = 12) -> str:
    exp = expected.decode("utf-8", "replace").splitlines()
    new = got.decode("utf-8", "replace").splitlines()
    diff = list(difflib.unified_diff(exp, new, f"golden/{name}", "now", n=2, lineterm=""))
    if not diff and expected != got:  # the same lines: a line ending or the final newline
        diff = [f"same lines, different bytes: {expected[-40:]!r} -> {got[-40:]!r}"]
    return "\n".join(diff[: context + 3])


def _golden_dir(rel: str) -> Path:
    return GOLDEN / rel.removeprefix("fixtures/")


@pytest.mark.parametrize("rel", INPUTS, ids=lambda r: r.removeprefix("fixtures/"))
def test_golden_outputs(rel, bundled):
    got = outputs(rel, bundled)
    folder = _golden_dir(rel)
    if UPDATE:
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        for name, data in got.items():
            (folder / name).write_bytes(data)
        return
    stored = {p.name: p.read_bytes() for p in folder.iterdir()} if folder.is_dir() else {}
    missing = sorted(set(stored) - set(got))
    extra = sorted(set(got) - set(stored))
    changed = sorted(n for n in set(got) & set(stored) if got[n] != stored[n])
    problems = []
    if missing or extra:
        problems.append(f"{rel}: cases stored but not produced now: {missing}; produced but not stored: {extra}")
        if extra:  # an output become a refusal (or the other way): what it says now
            problems.append(f"{extra[0]} now begins:\n" + "\n".join(
                got[extra[0]].decode("utf-8", "replace").splitlines()[:12]))
    for n in changed:
        problems.append(f"{rel} -> {n} differs ({len(changed)} case(s) in all):\n"
                        + _first_difference(f"{folder.relative_to(GOLDEN).as_posix()}/{n}", stored[n], got[n]))
        break
    assert not problems, "\n".join(problems) + (
        "\nIf the change is meant: XSYS_GOLDEN_UPDATE=1 .venv/bin/python -m pytest tests/test_golden.py"
        " -p no:randomly, then review git diff tests/golden")


def test_every_input_has_golden_outputs():
    """No stored case is left over for an input that is gone (renamed or removed)."""
    if UPDATE:
        for d in sorted(GOLDEN.rglob("*"), reverse=True):
            if d.is_dir() and not any(d.iterdir()):
                d.rmdir()
    wanted = {_golden_dir(rel) for rel in INPUTS}
    leaves = {p.parent for p in GOLDEN.rglob("*") if p.is_file() and not p.name.startswith(".")}
    orphans = sorted(p.relative_to(GOLDEN).as_posix() for p in leaves - wanted)
    if UPDATE:
        for p in orphans:
            shutil.rmtree(GOLDEN / p)
        return
    assert orphans == [], f"golden outputs of inputs that no longer exist: {orphans}"
    assert len(wanted) == len(INPUTS) > 150
