"""Benchmarks: ``python -m xsys.devtools.bench [--quick] [--json-out FILE] [--record]``.

The run fails (exit 1, "REGRESSED" and each figure) when a gated figure (the paired ratios,
peak memory, the CPU time of warm odds) is more than 20% worse than the one recorded in the
repository for its mode (docs/bench-recorded.json, full and --quick apart); ``--record``
writes this run's figures there, to be committed with the change that made them.

Every speed goal is measured in one run and printed with "met" or "not met":

1. ``xsys convert`` of a 10,000-NPC JSON coc roster to gurps vs msgspec decode + encode of
   the same file, whole processes, each xsys run paired with a floor run (interleaved,
   the order alternating); the figure is the median of the pairs' ratios (goal <= 5x);
2. peak memory (the child's ``ru_maxrss``) of ``xsys convert`` of the roster to neutral
   for 10,000 and for 100,000 NPCs (goal: the 100,000-NPC peak at most twice the 10,000-NPC
   one). The target is neutral so that 100,000 NPCs fit in the five minutes (converting to
   gurps runs at a few hundred NPCs per second, most of it the loss audit); the 10,000-NPC
   gurps runs of 1. report their peak too;
3. whether a roster far above the input limit converts (it is streamed), and whether an
   over-limit document's error states its real size;
4. YAML reading: which parser reads (libyaml or PyYAML's pure Python one), the rate, and
   that both read the same data;
5. cold ``xsys convert`` of one NPC vs a minimal typer app that parses the same
   arguments and reads and writes the same file (paired ratios; goal <= 1.2x), and cold
   ``xsys odds`` against the same floor; and where a cold conversion's time goes (the
   interpreter, typer, xsys's modules, the plugins, reading, converting, writing);
6. warm odds of every fixture shot in every installed system (goal: each <= 1 ms; the
   median wall time of a call, with its CPU time beside it, since on a shared machine the
   wall time includes waiting for a core);
7. the progress bar: shown on a terminal (rate and time left), silent otherwise;
   (and the warm conversion of one NPC: each NPC fixture to each other system by
   ``api.convert``, the file read included; goal: median <= 0.3 ms of CPU);
8. the remembered source of the converted roster of 1. (goal: a digest and what restores
   it, not a full copy), with the output's size over the input's, part by part;
9. the one-time cost of building every table, with and without the on-disk cache.
10. `xsys serve --workers 2` against one-NPC conversions without a server, measured together
    in paired rounds (devtools/serve_bench.py with fewer requests): served conversions a second
    over what two processes converting in process at once deliver (goal >= 0.8, with no error or
    wrong answer in any client pattern), and over one process's rate x 2 beside it (a shared
    2-CPU machine runs two processes at 1.4-2.3x one's rate, not 2x). Not gated: the ratio
    moves between rounds (docs/benchmarks.md).

The rosters are made of generated coc NPCs (random neutral NPCs with skills, weapons and
armor converted to coc; 1,000 of them, repeated under new names up to the roster size). A
streamed roster converts a stat block it has seen once (conversions/stream.py), so 1. also
converts the 1,000 NPCs once each, every one of them converted, and prints that rate beside it.
``--quick`` (a smoke test, under a minute) converts 200 NPCs in 1., uses 1,000 and 10,000
NPCs in 2., and fewer pairs; its figures are not the goals' own.

Cold runs are new processes, as a user starts them, after one unmeasured run (the file
cache, bytecode and xsys's own cache are as on the second run of the day;
``PYTHONDONTWRITEBYTECODE`` is left out of the measured commands' environment).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from xsys.devtools.config import ROOT, section

BENCH = section("bench")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _xsys_exe() -> str:
    exe = Path(sys.executable).with_name("xsys")
    return str(exe) if exe.exists() else "xsys"


def _run(cmd: list[str], env: dict[str, str]) -> tuple[float, int]:
    """Wall time and peak resident memory (KiB, the child's own ``ru_maxrss``) of a command."""
    with tempfile.TemporaryFile() as err:
        t = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, env=env)
        _, status, usage = os.wait4(p.pid, 0)
        took = time.perf_counter() - t
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            err.seek(0)
            raise SystemExit(f"benchmark command failed: {' '.join(cmd)}\n{err.read().decode()[-2000:]}")
    return took, usage.ru_maxrss


def _tree_peak(cmd: list[str], env: dict[str, str]) -> dict[str, Any]:
    """The most memory a command and its helper processes held at once, sampled every 10 ms:
    the sum of their proportional set sizes (``Pss`` of /proc/PID/smaps_rollup: a page the
    forked helpers share with the writer is counted once between them). Empty without /proc."""
    if not Path("/proc/self/smaps_rollup").exists():
        return {}

    def pss(pid: int) -> int:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as fh:
                for line in fh:
                    if line.startswith("Pss:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return 0

    def children(pid: int) -> list[int]:
        try:
            with open(f"/proc/{pid}/task/{pid}/children") as fh:
                return [int(x) for x in fh.read().split()]
        except OSError:
            return []

    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    peak, most = 0, 1
    while p.poll() is None:
        tree = [p.pid, *children(p.pid)]
        total = sum(pss(x) for x in tree)
        if total > peak:
            peak, most = total, len(tree)
        time.sleep(0.01)
    if p.returncode != 0:
        raise SystemExit(f"benchmark command failed: {' '.join(cmd)}")
    return {"pss_kib": peak, "processes": most}


# A child's ru_maxrss is no measure of its own memory once the benchmark process has grown:
# Linux keeps, across the child's exec, the high-water mark of the address space it was
# spawned in (the parent's, with vfork), so after reading a big output (output_parts) every
# later child reported the parent's 370 MiB. The peak memory runs are measured from inside
# instead: the same `xsys` main, in a process that writes its own VmHWM (the exec'd address
# space only) at exit; where there is no /proc, ru_maxrss as before.
_HWM_MAIN = """import atexit, sys
out = sys.argv[1]
def _hwm():
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    with open(out, "w") as o:
                        o.write(line.split()[1])
    except OSError:
        pass
atexit.register(_hwm)
sys.argv = ["xsys"] + sys.argv[2:]
from xsys.conversions.cli import main
sys.exit(main())
"""


def _run_own_peak(args: list[str], env: dict[str, str]) -> tuple[float, int]:
    """Wall time and peak resident memory (KiB) of ``xsys ARGS``, the memory its own."""
    fd, hwm = tempfile.mkstemp(prefix="xsys-bench-hwm-")
    os.close(fd)
    try:
        took, maxrss = _run([sys.executable, "-c", _HWM_MAIN, hwm, *args], env)
        text = Path(hwm).read_text().strip()
        return took, int(text) if text.isdigit() else maxrss
    finally:
        os.unlink(hwm)


def paired(cmd: list[str], floor: list[str], pairs: int, env: dict[str, str], warm: bool = True) -> dict[str, Any]:
    """Median of the ratios of `pairs` pairs (cmd, floor), run one after the other with the
    order alternating, so that a load that comes and goes weighs on both alike."""
    if warm:
        _run(floor, env)
        _run(cmd, env)
    ratios, times, floors, peaks = [], [], [], []
    for i in range(pairs):
        if i % 2:
            f, _ = _run(floor, env)
            t, peak = _run(cmd, env)
        else:
            t, peak = _run(cmd, env)
            f, _ = _run(floor, env)
        ratios.append(t / f)
        times.append(t)
        floors.append(f)
        peaks.append(peak)
    return {"ratio": statistics.median(ratios), "ratios": ratios, "seconds": statistics.median(times),
            "floor_seconds": statistics.median(floors), "pairs": pairs, "peak_kib": max(peaks)}


# ---- inputs -------------------------------------------------------------------------------

def _pool(n: int, seed: int = 7) -> list[dict[str, Any]]:
    """`n` generated NPCs of the roster system (fixtures/devtools/choices.toml [bench], plain data):
    random neutral NPCs converted to it."""
    from xsys.conversions import api
    from xsys.core import codec
    from xsys.core.catalog import strip_entry
    from xsys.core.model import Combatant
    from xsys.core.registry import default_registry
    from xsys.core.vocab import CHARACTERISTICS

    rng = random.Random(seed)
    cat = default_registry().catalog()
    weapons = [strip_entry(w) for w in sorted(cat.weapons.values(), key=lambda w: w.id)]
    armor = [strip_entry(a) for a in sorted(cat.armor.values(), key=lambda a: a.id)]
    skills = ["handgun", "rifle", "shotgun", "smg", "machine_gun", "dodge", "spot", "stealth", "throw", "athletics"]
    npcs = [Combatant(name=f"npc {i}", characteristics={c: rng.uniform(0.02, 0.98) for c in CHARACTERISTICS},
                      skills={s: rng.uniform(0.05, 0.95) for s in rng.sample(skills, 5)},
                      weapons=rng.sample(weapons, 2), armor=rng.sample(armor, 1)) for i in range(n)]
    neutral = {"system": "neutral", "kind": "roster", "name": "pool", "npcs": codec.to_builtins(npcs)}
    conv = api.convert(neutral, BENCH["roster_system"], trace=False)
    return codec.to_builtins(conv.document)["npcs"]


def _generated_rosters(total: int, seed: int = 7) -> dict[str, dict[str, Any]]:
    """Native rosters, one per installed system, of random neutral NPCs (for tests)."""
    from xsys.conversions import api
    from xsys.core import codec
    from xsys.core.catalog import strip_entry
    from xsys.core.model import Combatant
    from xsys.core.registry import default_registry
    from xsys.core.vocab import CHARACTERISTICS

    rng = random.Random(seed)
    reg = default_registry()
    cat = reg.catalog()
    weapons = [strip_entry(w) for w in sorted(cat.weapons.values(), key=lambda w: w.id)]
    armor = [strip_entry(a) for a in sorted(cat.armor.values(), key=lambda a: a.id)]
    skills = ["handgun", "rifle", "shotgun", "smg", "machine_gun", "dodge", "spot", "stealth", "throw", "athletics"]
    rosters = {}
    for key in reg.keys():
        npcs = [Combatant(name=f"npc {key} {i}", characteristics={c: rng.uniform(0.02, 0.98) for c in CHARACTERISTICS},
                          skills={s: rng.uniform(0.05, 0.95) for s in rng.sample(skills, 5)},
                          weapons=rng.sample(weapons, 2), armor=rng.sample(armor, 1))
                for i in range(total // len(reg.keys()))]
        neutral = {"system": "neutral", "kind": "roster", "name": f"generated {key}", "npcs": codec.to_builtins(npcs)}
        rosters[key] = codec.to_builtins(api.convert(neutral, key, trace=False).document)
    return rosters


def _write_roster(path: Path, pool: list[dict[str, Any]], n: int, fmt: str = "json") -> int:
    """A roster of `n` NPCs of the roster system, the pool's repeated under new names, written piece by
    piece (a 100,000-NPC roster is never held whole). Returns its size in bytes."""
    from xsys.conversions import documents

    head = {"system": BENCH["roster_system"], "kind": "roster", "name": f"{n} generated NPCs", "npcs": ["@@NPCS@@"]}
    text = documents.dumps(head, fmt)
    mark = b'"@@NPCS@@"' if fmt == "json" else b"'@@NPCS@@'"
    at = text.index(mark)
    line = text.rfind(b"\n", 0, at) + 1
    with open(path, "wb") as fh:
        fh.write(text[:line])
        for i in range(n):
            npc = dict(pool[i % len(pool)])
            npc["name"] = f"npc {i}"
            if fmt == "json":
                fh.write((b",\n" if i else b"") + b"    " + documents.dumps(npc, "json").rstrip(b"\n")
                         .replace(b"\n", b"\n    "))
            else:
                chunk = documents.dumps({"npcs": [npc]}, "yaml")
                fh.write(chunk[chunk.index(b"\n") + 1:])
        end = text.find(b"\n", at) + 1
        fh.write((b"\n" if fmt == "json" else b"") + text[end:])
    return path.stat().st_size


# ---- the goals -----------------------------------------------------------------------------

def batch(pool: list[dict[str, Any]], n: int, pairs: int, tmp: Path) -> dict[str, Any]:
    src = tmp / f"roster-{n}.json"
    size = _write_roster(src, pool, n)
    out = tmp / f"roster-{n}-gurps.json"
    floor_out = tmp / f"roster-{n}-floor.json"
    floor = [sys.executable, "-c", "import msgspec, sys\n"
             "data = open(sys.argv[1], 'rb').read()\n"
             "open(sys.argv[2], 'wb').write(msgspec.json.encode(msgspec.json.decode(data)))\n",
             str(src), str(floor_out)]
    cmd = [_xsys_exe(), "convert", str(src), "--to", BENCH["target"], "-o", str(out), "-q"]
    r = paired(cmd, floor, pairs, _env(), warm=False)
    r.update({"npcs": n, "input_bytes": size, "output_bytes": out.stat().st_size, "to": BENCH["target"],
              "npcs_per_second": n / r["seconds"], "goal_ratio": 5.0, "output_parts": output_parts(out)})
    # the same roster in one process (no helpers: conversions/stream_ahead.py), and the memory of
    # the writer and its helpers together
    r["one_process_seconds"] = _run(cmd, {**_env(), "XSYS_JOBS": "1"})[0]
    r["processes"] = _tree_peak(cmd, _env())
    # the roster above repeats the pool's stat blocks under new names, which a streamed roster
    # converts once each (conversions/stream.py): the pool's NPCs once each, every one converted
    once = tmp / "roster-distinct.json"
    _write_roster(once, pool, len(pool))
    d = paired([_xsys_exe(), "convert", str(once), "--to", BENCH["target"], "-o", str(out), "-q"],
               [*floor[:-2], str(once), str(floor_out)], pairs, _env(), warm=False)
    r["distinct"] = {"npcs": len(pool), "seconds": d["seconds"], "ratio": d["ratio"],
                     "npcs_per_second": len(pool) / d["seconds"]}
    return r


def output_parts(path: Path) -> dict[str, Any]:
    """Bytes of a converted roster's parts as written (JSON, indented as in the file): the
    converted NPCs, the loss report, the remembered source, and whether that is packed."""
    from xsys.conversions import documents

    data = documents.read_plain(path) if path.stat().st_size <= 16 * 2**20 else json.loads(path.read_bytes())
    meta = data.get("xsys") or {}

    def size(x: Any) -> int:
        return len(json.dumps(x, indent=2, ensure_ascii=False).encode())

    origin = meta.get("origin")
    return {"npcs": size(data.get("npcs", [])), "losses": size(meta.get("losses", [])),
            "origin": size(origin) if origin is not None else 0,
            "origin_packed": isinstance(origin, dict) and "packed" in origin}


def peak_memory(pool: list[dict[str, Any]], sizes: tuple[int, int], to: str, tmp: Path) -> dict[str, Any]:
    """Peak resident memory (the child's ``ru_maxrss``) of ``xsys convert`` of two roster
    sizes to system `to`."""
    out: dict[str, Any] = {}
    for n in sizes:
        src = tmp / f"roster-{n}.json"
        if not src.exists():
            _write_roster(src, pool, n)
        dest = tmp / f"roster-{n}-mem.json"
        try:
            took, peak = _run_own_peak(["convert", str(src), "--to", to, "-o", str(dest), "-q"], _env())
        except SystemExit as exc:
            out[str(n)] = {"error": str(exc)[-500:]}
            continue
        out[str(n)] = {"peak_kib": peak, "seconds": took, "input_bytes": src.stat().st_size,
                       "output_bytes": dest.stat().st_size}
        dest.unlink()
    small, big = (out[str(n)] for n in sizes)
    ok = "peak_kib" in small and "peak_kib" in big
    return {"sizes": list(sizes), "to": to, "runs": out,
            "ratio": big["peak_kib"] / small["peak_kib"] if ok else None, "goal_ratio": 2.0,
            "converted_above_limit": "peak_kib" in big}


def limits(tmp: Path) -> dict[str, Any]:
    """An over-limit document's error states its real size."""
    f = tmp / "big-npc.yaml"
    f.write_text("system: neutral\nkind: npc\nname: '" + "x" * 4970 + "'\n")
    size = f.stat().st_size
    r = subprocess.run([_xsys_exe(), "convert", str(f), "--to", BENCH["target"], "-o", str(tmp / "big-out.yaml")],
                       capture_output=True, text=True, env={**_env(), "XSYS_MAX_INPUT_BYTES": "1000"})
    return {"real_size_stated": r.returncode == 2 and f"found {size} bytes" in r.stderr, "error": r.stderr.strip()}


def yaml_reading(pool: list[dict[str, Any]], n: int, tmp: Path) -> dict[str, Any]:
    import yaml

    from xsys.conversions import documents, safe_yaml

    src = tmp / f"roster-{n}.yaml"
    _write_roster(src, pool, n, "yaml")
    t = time.perf_counter()
    data = documents.read_plain(src)
    took = time.perf_counter() - t
    small = tmp / "roster-200.yaml"
    _write_roster(small, pool, 200, "yaml")
    same = documents.read_plain(small) == yaml.load(small.read_text(), Loader=yaml.SafeLoader)
    parser = "libyaml" if "CParser" in [c.__name__ for c in safe_yaml._Loader.__mro__] else "pure Python"
    return {"npcs": len(data["npcs"]), "seconds": took, "npcs_per_second": len(data["npcs"]) / took,
            "parser": parser, "same_data_as_pure_python": same}


_FLOOR_APP = '''
from pathlib import Path
from typing import Annotated, Optional

import typer
import yaml

app = typer.Typer(add_completion=False, no_args_is_help=True)


@app.command()
def convert(
    inputs: Annotated[list[str], typer.Argument(help="Document files.")],
    to: Annotated[str, typer.Option("--to", "-t", help="Target system.")],
    output: Annotated[Optional[str], typer.Option("--output", "-o", help="Output file.")] = None,
) -> None:
    """Read the document and write it back (the floor of a conversion)."""
    data = yaml.load(Path(inputs[0]).read_bytes(), Loader=yaml.CSafeLoader)
    Path(output).write_text(yaml.dump(data, Dumper=yaml.CSafeDumper, sort_keys=False))


@app.command()
def odds(file: Annotated[Optional[Path], typer.Argument()] = None) -> None:
    """A second command, so that typer builds a group as xsys's does."""
    yaml.load(Path(file).read_bytes(), Loader=yaml.CSafeLoader)


app()
'''


def cold_start(pairs: int, tmp: Path) -> dict[str, Any]:
    npc = ROOT / BENCH["cold_npc"]
    scenario = ROOT / BENCH["cold_scenario"]
    floor_py = tmp / "floor_app.py"
    floor_py.write_text(_FLOOR_APP)
    env = _env()
    floor = [sys.executable, str(floor_py), "convert", str(npc), "--to", BENCH["target"], "-o", str(tmp / "floor.yaml")]
    conv = paired([_xsys_exe(), "convert", str(npc), "--to", BENCH["target"], "-o", str(tmp / "out.yaml")], floor, pairs, env)
    odds_floor = [sys.executable, str(floor_py), "odds", str(scenario)]
    odds = paired([_xsys_exe(), "odds", str(scenario)], odds_floor, pairs, env)
    conv["goal_ratio"] = 1.2
    odds["goal_ratio"] = 1.2
    return {"cold_convert": conv, "cold_odds": odds}


# One cold conversion's phases, each timed as the command runs them (the interpreter's start
# is a run of `python -c pass`): the launcher (xsys.conversions.entry: a plain `xsys convert`
# loads no typer, which the floor pays, about 90 ms with pydantic), xsys's own modules, the two
# plugins (found, imported, registered), reading the file, converting (the tables read from
# xsys's disk cache, the loss audit), writing.
_PHASES = r"""
import sys, time
T = time.perf_counter
t0 = T()
from xsys.conversions import entry
t1 = T()
from xsys.conversions import api, documents, output, run
t2 = T()
from xsys.core.registry import default_registry
src, to, dest = sys.argv[1:4]
reg = default_registry()
data, fmt = documents.read_with_format(src, None)
t3 = T()
reg.entry(data["system"]); reg.entry(to)
t4 = T()
loaded = api.from_plain(data, src, None)
t5 = T()
conv = api.convert(loaded, to, trace=False)
t6 = T()
output.write_atomic(dest, api.dump(conv, documents.default_output_format(fmt), False, "grouped"))
t7 = T()
ms = [(b - a) * 1000 for a, b in ((t0, t1), (t1, t2), (t3, t4), (t2, t3), (t4, t5), (t5, t6), (t6, t7))]
print(ms[0], ms[1], ms[2], ms[3] + ms[4], ms[5], ms[6])
"""
PHASES = ("the launcher", "xsys modules", "the two plugins", "reading", "converting", "writing")


def cold_phases(runs: int, tmp: Path) -> dict[str, Any]:
    """Where a cold conversion of the cold-start NPC spends its time (medians of `runs` new
    processes after one unmeasured), with the interpreter's own start beside it."""
    npc = ROOT / BENCH["cold_npc"]
    script = tmp / "phases.py"
    script.write_text(_PHASES)
    env = _env()
    cmd = [sys.executable, str(script), str(npc), BENCH["target"], str(tmp / "phases-out.yaml")]
    bare = [sys.executable, "-c", "pass"]
    subprocess.run(cmd, env=env, check=True, capture_output=True)
    rows, starts = [], []
    for _ in range(runs):
        starts.append(_run(bare, env)[0] * 1000)
        out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout.split()
        rows.append([float(x) for x in out])
    phases = {name: statistics.median(r[i] for r in rows) for i, name in enumerate(PHASES)}
    return {"interpreter_ms": statistics.median(starts), "phases_ms": phases, "runs": runs}


def warm_odds(calls: int) -> dict[str, Any]:
    """Each fixture shot in every installed system: the median time of a call, warm."""
    from xsys.conversions import api

    shots = []
    for f in sorted(ROOT.glob("fixtures/*/scenarios/*.yaml")) + sorted(ROOT.glob("fixtures/neutral/shots/*.yaml")):
        loaded = api.load(f)
        for name, shot in api.shots_of(loaded, settings=loaded.settings)[0]:
            shots.append((f"{f.parent.parent.name}/{f.stem}: {name}", shot, loaded.settings))
    per: list[tuple[float, str]] = []
    cpu: list[float] = []
    for name, shot, settings in shots:
        api.odds(shot, settings=settings)  # its tables
        times, cpu_times = [], []
        for _ in range(calls):
            c = time.thread_time()
            t = time.perf_counter()
            api.odds(shot, settings=settings)
            times.append(time.perf_counter() - t)
            cpu_times.append(time.thread_time() - c)
        per.append((statistics.median(times), name))
        cpu.append(statistics.median(cpu_times))
    # the CPU time of the call (time.thread_time) as well: on a shared machine the wall time
    # includes waiting for a core; the goal is judged on the wall time all the same
    order = sorted(range(len(per)), key=lambda i: per[i], reverse=True)
    per = [per[i] for i in order]
    cpu = [cpu[i] for i in order]
    return {"shots": len(per), "systems": len(api.default_registry().keys()), "slowest_seconds": per[0][0],
            "slowest": per[0][1], "median_seconds": statistics.median(t for t, _ in per),
            "slowest_cpu_seconds": max(cpu), "median_cpu_seconds": statistics.median(cpu),
            "over_goal": [n for t, n in per if t > 0.001], "goal_seconds": 0.001}


def warm_convert(calls: int) -> dict[str, Any]:
    """Each NPC fixture of every installed system converted to every other one, warm, as
    `api.convert(path, to)` does it (the file read included; no trace, as `xsys convert`
    without --explain): the median CPU time of a call over `calls` calls, per pair of fixture
    and target; the median of those and the slowest."""
    from xsys.conversions import api

    keys = api.default_registry().keys()
    per: list[tuple[float, str]] = []
    for f in sorted(ROOT.glob("fixtures/*/npcs/*.yaml")):
        source = f.parent.parent.name
        if source not in keys:
            continue
        for to in keys:
            if to == source:
                continue
            api.convert(f, to, trace=False)  # its tables
            cpu = []
            for _ in range(calls):
                c = time.thread_time()
                api.convert(f, to, trace=False)
                cpu.append(time.thread_time() - c)
            per.append((statistics.median(cpu), f"{source}/{f.stem} -> {to}"))
    per.sort(reverse=True)
    return {"conversions": len(per), "median_cpu_seconds": statistics.median(t for t, _ in per),
            "slowest_cpu_seconds": per[0][0], "slowest": per[0][1], "fastest_cpu_seconds": per[-1][0],
            "goal_seconds": 0.0003}


def progress_bar(pool: list[dict[str, Any]], tmp: Path, n: int = 300) -> dict[str, Any]:
    """The roster converted with stderr on a pseudo-terminal (a bar with a rate) and on a
    pipe (nothing)."""
    import pty

    src = tmp / "roster-progress.json"
    _write_roster(src, pool, n)
    cmd = [_xsys_exe(), "convert", str(src), "--to", BENCH["target"], "-o", str(tmp / "progress-out.json"), "-q"]
    master, slave = pty.openpty()
    try:
        p = subprocess.Popen(cmd, stderr=slave, stdout=subprocess.DEVNULL, env=_env())
        os.close(slave)
        seen = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        p.wait()
    finally:
        os.close(master)
    piped = subprocess.run(cmd, capture_output=True, env=_env())
    return {"terminal_shows_rate": b"NPC/s" in seen, "terminal_shows_count": f"/{n}".encode() in seen,
            "silent_when_not_a_terminal": piped.returncode == 0 and piped.stderr == b""}


def build_tables(runs: int, uncached: bool = True) -> dict[str, Any]:
    """In new processes: every table built once (timed), then asked for again (timed)."""
    code = ("import time, sys\n"
            "from xsys.core.registry import default_registry\n"
            "reg = default_registry(); reg.load(); reg.catalog()\n"
            "from xsys.testing.build import build_everything\n"
            "t = time.perf_counter()\n"
            "n = build_everything(reg)\n"
            "t1 = time.perf_counter()\n"
            "build_everything(reg)\n"
            "print(t1 - t, time.perf_counter() - t1, n)\n")

    def measure(env: dict[str, str], runs: int = runs, warm: bool = True) -> tuple[float, float, int]:
        first, again, counts = [], [], []
        for i in range(runs + 1 if warm else runs):
            if not warm:
                i += 1
            r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
            if r.returncode != 0:
                raise SystemExit(r.stderr[-2000:])
            t, t2, n = r.stdout.split()
            if i:  # the first run fills the cache (and writes bytecode)
                first.append(float(t))
                again.append(float(t2))
                counts.append(int(n))
        return statistics.median(first), statistics.median(again), counts[0]

    env = _env()
    cached, again, n = measure(env)
    # without the cache every run computes everything (seconds): one run says it
    computed = measure({**env, "XSYS_CACHE": "0"}, 1, warm=False)[0] if uncached else None
    return {"seconds": cached, "seconds_without_disk_cache": computed, "seconds_again_in_process": again,
            "tables": n, "goal_seconds": 0.2}


# ---- the run -------------------------------------------------------------------------------

def serve_throughput(quick: bool) -> dict[str, Any]:
    """`xsys serve --workers 2` (the pre-fork server where the system forks) against one-NPC
    conversions in one process, measured together (devtools/serve_bench.py, fewer requests:
    docs/benchmarks.md has the full runs): the median ratio served / (in process x 2) over
    rounds, in wall and CPU time, and the errors and wrong answers of every client pattern."""
    from xsys.devtools import serve_bench

    r = serve_bench.bench(requests=100 if quick else 400, concurrency=100 if quick else 200, workers=2,
                          slow=20 if quick else 100, in_process=20 if quick else 50, fair=5 if quick else 20,
                          rounds=3 if quick else 5, per_client=3)
    patterns = {k: r[k] for k in ("pooled", "new_connection", "pooled_with_slow_clients")}
    return {"workers": 2, "ratio": r["ratio"], "ratio_range": r["ratio_range"], "cpu_ratio": r["cpu_ratio"],
            "parallel_ratio": r["parallel_ratio"], "capacity": r["capacity"],
            "parallel_range": [min(x["parallel_ratio"] for x in r["rounds"]),
                               max(x["parallel_ratio"] for x in r["rounds"])],
            "errors": sum(int(p.get("errors", 0)) for p in patterns.values()), "wrong_answers": r["wrong_answers"],
            "per_s": {k: p.get("per_s") for k, p in patterns.items()},
            "fairness_max_ms": r["fairness"]["quick_max_ms"]}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m xsys.devtools.bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="smaller rosters, fewer pairs: a smoke test (< 1 minute)")
    ap.add_argument("--json-out", default="bench-results.json", help="where to write the figures")
    ap.add_argument("--recorded", default=str(RECORDED),
                    help="the figures last recorded in the repository, which this run must not regress by more "
                         f"than {REGRESSION * 100:.0f}%% (default: docs/bench-recorded.json)")
    ap.add_argument("--record", action="store_true",
                    help="record this run's figures there (after reviewing them), for its mode (full or --quick)")
    args = ap.parse_args(argv)
    quick = args.quick
    started = time.perf_counter()
    small, big = (1_000, 10_000) if quick else (10_000, 100_000)
    results: dict[str, Any] = {
        "python": sys.version.split()[0], "cpus": os.cpu_count(), "quick": quick, "machine": platform.machine(),
        "load_average_before": list(os.getloadavg()), "sizes": [small, big]}
    with tempfile.TemporaryDirectory(prefix="xsys-bench-") as tmp_name:
        tmp = Path(tmp_name)
        steps: list[tuple[str, Callable[[], Any]]] = []
        pool: list[dict[str, Any]] = []
        steps.append(("pool", lambda: pool.extend(_pool(200 if quick else 1000))))
        steps.append(("batch_json", lambda: batch(pool, 200 if quick else small, 3, tmp)))
        steps.append(("peak_memory", lambda: peak_memory(pool, (small, big), "neutral", tmp)))
        steps.append(("limits", lambda: limits(tmp)))
        steps.append(("yaml_reading", lambda: yaml_reading(pool, 1_000 if quick else 10_000, tmp)))
        steps.append(("cold", lambda: cold_start(3 if quick else 9, tmp)))
        steps.append(("cold_phases", lambda: cold_phases(3 if quick else 7, tmp)))
        steps.append(("warm_odds", lambda: warm_odds(5 if quick else 30)))
        steps.append(("warm_convert", lambda: warm_convert(3 if quick else 11)))
        steps.append(("progress", lambda: progress_bar(pool, tmp, 150 if quick else 300)))
        steps.append(("build_tables", lambda: build_tables(1 if quick else 3, uncached=not quick)))
        steps.append(("serve", lambda: serve_throughput(quick)))
        for name, step in steps:
            t = time.perf_counter()
            value = step()
            if name == "cold":
                results.update(value)
            elif name != "pool":
                results[name] = value
            print(f"  {name}: {time.perf_counter() - t:.1f} s", file=sys.stderr, flush=True)
    results["load_average_after"] = list(os.getloadavg())
    results["seconds"] = time.perf_counter() - started
    results["goals"] = goals(results)
    print(report(results))
    Path(args.json_out).write_text(json.dumps(results, indent=2) + "\n")
    print(f"\nfigures written to {args.json_out}")
    sys.exit(gate(results, Path(args.recorded), args.record))


# ---- the regression gate ------------------------------------------------------------------------

RECORDED = Path(__file__).resolve().parent.parent / "docs" / "bench-recorded.json"
REGRESSION = 0.20  # a figure more than 20% worse than the recorded one fails the run
# the figures the gate compares, each lower-is-better: the paired ratios (a load that comes and
# goes weighs on both sides of a pair), memory, and CPU time (not wall time, which waits for a
# core on a shared machine)
GATED: dict[str, tuple[str, Callable[[dict[str, Any]], Any]]] = {
    "batch_ratio": ("roster vs msgspec floor (ratio)", lambda r: r["batch_json"]["ratio"]),
    "batch_distinct_ratio": ("roster of distinct stat blocks vs msgspec floor (ratio)",
                             lambda r: r["batch_json"]["distinct"]["ratio"]),
    "batch_peak_mib": ("peak memory of the roster to gurps (MiB)", lambda r: r["batch_json"]["peak_kib"] / 1024),
    "memory_ratio": ("peak memory, big roster vs small (ratio)", lambda r: r["peak_memory"]["ratio"]),
    "cold_convert_ratio": ("cold convert vs typer floor (ratio)", lambda r: r["cold_convert"]["ratio"]),
    "cold_odds_ratio": ("cold odds vs typer floor (ratio)", lambda r: r["cold_odds"]["ratio"]),
    "warm_odds_median_cpu_ms": ("warm odds, median CPU per call (ms)",
                                lambda r: r["warm_odds"]["median_cpu_seconds"] * 1000),
    "warm_odds_slowest_cpu_ms": ("warm odds, slowest shot's CPU per call (ms)",
                                 lambda r: r["warm_odds"]["slowest_cpu_seconds"] * 1000),
    "warm_convert_median_cpu_ms": ("warm conversion of one NPC fixture, median CPU (ms)",
                                   lambda r: r["warm_convert"]["median_cpu_seconds"] * 1000),
}


def figures(results: dict[str, Any]) -> dict[str, float]:
    """The gated figures of a run (a figure the run could not measure is left out)."""
    out = {}
    for key, (_, get) in GATED.items():
        try:
            value = get(results)
        except (KeyError, TypeError):
            continue
        if isinstance(value, (int, float)):
            out[key] = round(float(value), 4)
    return out


def regressions(now: dict[str, float], recorded: dict[str, float], limit: float = REGRESSION) -> list[str]:
    """Every figure more than `limit` worse (higher) than its recorded value, said in a line."""
    out = []
    for key, value in now.items():
        was = recorded.get(key)
        if was is not None and was > 0 and value > was * (1 + limit):
            out.append(f"{GATED[key][0] if key in GATED else key}: {value:g}, recorded {was:g} "
                       f"(+{value / was - 1:.0%}, more than +{limit:.0%})")
    return out


def gate(results: dict[str, Any], recorded_path: Path, record: bool) -> int:
    """Compare this run's figures with the recorded ones of its mode; print the verdict; with
    `record`, write this run's figures as the new record. 1 when a figure regressed."""
    mode = "quick" if results.get("quick") else "full"
    try:
        book = json.loads(recorded_path.read_text())
    except FileNotFoundError:
        book = {}
    except (OSError, ValueError) as e:
        print(f"{recorded_path}: cannot read the recorded figures ({e})", file=sys.stderr)
        return 2
    now = figures(results)
    was = book.get(mode, {}).get("figures", {})
    bad = regressions(now, was) if was else []
    if not was:
        print(f"\nno recorded {mode} figures in {recorded_path}: nothing to compare (--record records this run's)")
    elif bad:
        print(f"\nREGRESSED against the figures recorded in {recorded_path} ({book[mode].get('commit', '?')}):")
        for line in bad:
            print(f"  {line}")
    else:
        print(f"\nno figure regressed by more than {REGRESSION:.0%} against {recorded_path} "
              f"({book[mode].get('commit', '?')})")
    if record:
        book[mode] = {"commit": _commit(), "python": results.get("python"), "cpus": results.get("cpus"),
                      "load_average_before": results.get("load_average_before"), "figures": now}
        tmp = recorded_path.with_name(f".{recorded_path.name}.tmp")
        tmp.write_text(json.dumps(book, indent=2, sort_keys=True) + "\n")
        tmp.replace(recorded_path)
        print(f"recorded this run's {mode} figures in {recorded_path}")
    return 1 if bad else 0


def _commit() -> str:
    try:
        r = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                           cwd=Path(__file__).resolve().parent, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return "?"
    return r.stdout.strip() or "?"


def goals(r: dict[str, Any]) -> list[dict[str, Any]]:
    """The goals' table, each goal with what was measured and whether it is met."""
    small, big = r["sizes"]
    b, m, c = r["batch_json"], r["peak_memory"], r["cold_convert"]
    y, w, p, lim = r["yaml_reading"], r["warm_odds"], r["progress"], r["limits"]
    mem_ratio = m["ratio"]
    parts = b.get("output_parts") or {}
    origin_share = parts.get("origin", 0) / b["input_bytes"] if b["input_bytes"] else 0.0
    rows = [
        (f"xsys convert of a {b['npcs']:,}-NPC JSON roster to gurps vs msgspec decode+encode (paired)",
         f"{b['ratio']:.1f}x ({b['npcs_per_second']:,.0f} NPC/s"
         + (f"; {b['distinct']['npcs']:,} distinct stat blocks, each converted: {b['distinct']['ratio']:.1f}x, "
            f"{b['distinct']['npcs_per_second']:,.0f} NPC/s)" if "distinct" in b else ")"), "<= 5x", b["ratio"] <= 5.0),
        (f"peak memory, {big:,}-NPC roster vs {small:,} (to {m['to']})",
         (f"{m['runs'][str(big)]['peak_kib'] / 1024:,.0f} MiB vs {m['runs'][str(small)]['peak_kib'] / 1024:,.0f} MiB"
          f" = {mem_ratio:.2f}x") if mem_ratio else "failed: " + str(m["runs"][str(big)].get("error")),
         "<= 2x", mem_ratio is not None and mem_ratio <= 2.0),
        ("roster size accepted; errors state the real size",
         f"{big:,} NPCs ({m['runs'][str(big)].get('input_bytes', 0) / 2**20:,.0f} MiB) "
         f"{'converted' if m['converted_above_limit'] else 'refused'}; real size "
         f"{'stated' if lim['real_size_stated'] else 'NOT stated'}",
         "any size, streamed", m["converted_above_limit"] and lim["real_size_stated"]),
        ("YAML reading", f"{y['parser']}, {y['npcs_per_second']:,.0f} NPC/s, "
         f"{'same' if y['same_data_as_pure_python'] else 'DIFFERENT'} data as PyYAML's pure Python loader",
         "libyaml, identical results", y["parser"] == "libyaml" and y["same_data_as_pure_python"]),
        ("cold xsys convert of one NPC vs a minimal typer app (paired)",
         f"{c['ratio']:.2f}x ({c['seconds'] * 1000:.0f} ms vs {c['floor_seconds'] * 1000:.0f} ms)", "<= 1.2x",
         c["ratio"] <= 1.2),
        ("warm odds of every fixture shot in all systems",
         f"slowest {w['slowest_seconds'] * 1000:.2f} ms ({w['slowest']}); {len(w['over_goal'])} of {w['shots']} "
         "over 1 ms", "each <= 1 ms", not w["over_goal"]),
        ("warm conversion of one NPC in process (api.convert of each NPC fixture to each other system, the file "
         "read included), CPU",
         f"median {r['warm_convert']['median_cpu_seconds'] * 1000:.2f} ms, slowest "
         f"{r['warm_convert']['slowest_cpu_seconds'] * 1000:.2f} ms ({r['warm_convert']['slowest']}) of "
         f"{r['warm_convert']['conversions']}" if "warm_convert" in r else "not measured", "<= 0.3 ms",
         "warm_convert" in r and r["warm_convert"]["median_cpu_seconds"] <= 0.0003),
        ("xsys serve --workers 2: served conversions a second / 2 processes converting in process at once, "
         "paired rounds",
         f"{r['serve']['parallel_ratio']:.2f} (rounds {r['serve']['parallel_range'][0]:.2f}-"
         f"{r['serve']['parallel_range'][1]:.2f}); / (one in process x 2): {r['serve']['ratio']:.2f} (rounds "
         f"{r['serve']['ratio_range'][0]:.2f}-{r['serve']['ratio_range'][1]:.2f}; CPU {r['serve']['cpu_ratio']:.2f}), "
         f"the machine ran 2 at {r['serve']['capacity']:.2f}x one; errors {r['serve']['errors']}, wrong answers "
         f"{r['serve']['wrong_answers']}; a one-NPC request beside rosters at most {r['serve']['fairness_max_ms']:.0f} ms"
         if "serve" in r else "not measured", ">= 0.8, no errors",
         "serve" in r and r["serve"]["parallel_ratio"] >= 0.8 and not r["serve"]["errors"]
         and not r["serve"]["wrong_answers"]),
        ("a long batch on a terminal",
         f"rate {'shown' if p['terminal_shows_rate'] else 'NOT shown'} on a terminal; "
         f"{'silent' if p['silent_when_not_a_terminal'] else 'NOT silent'} otherwise",
         "rich bar with rate and ETA; silent when not a terminal",
         p["terminal_shows_rate"] and p["silent_when_not_a_terminal"]),
        ("remembered source of a converted roster (the streamed output)",
         (f"{'packed' if parts.get('origin_packed') else 'FULL COPY'}: {origin_share:.2f}x the input; whole output "
          f"{b['output_bytes'] / b['input_bytes']:.2f}x the input") if parts else "not measured",
         "a digest and what restores it, not a full copy", bool(parts.get("origin_packed")) and origin_share < 0.25),
    ]
    return [{"what": a, "measured": b_, "goal": g, "met": bool(ok)} for a, b_, g, ok in rows]


def report(r: dict[str, Any]) -> str:
    lines = [f"xsys benchmarks (Python {r['python']}, {r['cpus']} CPUs, {r['machine']}"
             f"{', QUICK: smaller rosters, not the goals own sizes' if r['quick'] else ''}; load average "
             f"{r['load_average_before'][0]:.2f} before, {r['load_average_after'][0]:.2f} after; "
             f"{r['seconds']:.0f} s)", ""]
    for g in r["goals"]:
        lines.append(f"[{'met' if g['met'] else 'not met'}] {g['what']}: {g['measured']} (goal {g['goal']})")
    lines.append("")
    if "cold_phases" in r:
        ph = r["cold_phases"]
        lines.append(f"cold xsys convert, where the time goes (medians of {ph['runs']} runs): the interpreter "
                     f"{ph['interpreter_ms']:.0f} ms, " + ", ".join(f"{k} {v:.0f} ms" for k, v in ph["phases_ms"].items()))
    x = r["cold_odds"]
    lines.append(f"cold xsys odds of one scenario vs the typer floor: {x['ratio']:.2f}x "
                 f"({x['seconds'] * 1000:.0f} ms vs {x['floor_seconds'] * 1000:.0f} ms)")
    b = r["batch_json"]
    lines.append(f"batch: {b['seconds']:.2f} s vs floor {b['floor_seconds']:.2f} s per process; input "
                 f"{b['input_bytes'] / 2**20:.1f} MiB, output {b['output_bytes'] / 2**20:.1f} MiB; pair ratios "
                 + ", ".join(f"{x:.1f}" for x in b["ratios"]))
    parts = b.get("output_parts")
    if parts:
        inp = b["input_bytes"]
        lines.append(f"streamed output / input: {b['output_bytes'] / inp:.2f}x = converted NPCs "
                     f"{parts['npcs'] / inp:.2f}x + loss report {parts['losses'] / inp:.2f}x + remembered source "
                     f"{parts['origin'] / inp:.2f}x ({'packed' if parts['origin_packed'] else 'full copy'})")
    w = r["warm_odds"]
    if "slowest_cpu_seconds" in w:
        lines.append(f"warm odds: median {w['median_seconds'] * 1000:.2f} ms wall, "
                     f"{w['median_cpu_seconds'] * 1000:.2f} ms CPU; slowest {w['slowest_seconds'] * 1000:.2f} ms wall, "
                     f"{w['slowest_cpu_seconds'] * 1000:.2f} ms CPU (of {w['shots']} shots x {w['systems']} systems)")
    for n, run in r["peak_memory"]["runs"].items():
        if "peak_kib" in run:
            lines.append(f"peak memory {int(n):,} NPCs to {r['peak_memory']['to']}: {run['peak_kib'] / 1024:,.0f} MiB "
                         f"in {run['seconds']:.1f} s ({int(n) / run['seconds']:,.0f} NPC/s)")
    lines.append(f"peak memory {b['npcs']:,} NPCs to gurps (the batch runs): {b['peak_kib'] / 1024:,.0f} MiB")
    tree = b.get("processes") or {}
    if "one_process_seconds" in b:
        lines.append(f"batch in one process (XSYS_JOBS=1): {b['one_process_seconds']:.2f} s"
                     + (f"; with its helpers, all {tree['processes']} processes held at most {tree['pss_kib'] / 1024:,.0f}"
                        " MiB together (proportional set size)" if tree else ""))
    x = r["build_tables"]
    without = x["seconds_without_disk_cache"]
    lines.append(f"build tables: {x['seconds'] * 1000:.1f} ms for {x['tables']} ladders and dice tables with the "
                 f"disk cache, {'%.1f ms' % (without * 1000) if without else 'not measured'} without (XSYS_CACHE=0), "
                 f"{x['seconds_again_in_process'] * 1000:.3f} ms asked again in the process")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
