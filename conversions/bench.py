"""Benchmarks: ``python -m xsys.conversions.bench [--quick] [--json-out FILE]``.

Each figure is the median of several runs, printed with its floor measured in the same
run and the ratio, and written as JSON so runs can be compared:

1. cold ``xsys convert`` of one NPC file (a new process) vs ``python -c "import pint,
   msgspec, typer"``;
2. cold ``xsys odds`` of one scenario vs the same floor;
3. batch conversion of generated rosters (10,000 NPCs over every system, with skills,
   weapons and armor) JSON -> JSON in NPCs per second, vs msgspec decode + encode of the
   same files; the same for YAML;
4. warm ``odds`` of one shot in every installed system, per call;
5. the one-time cost of building every system's dice tables and ladders, with the tables
   xsys keeps across processes (core/cache.py) and without them (``XSYS_CACHE=0``), and
   the cost of asking again in the same process.

Cold runs are new processes, as a user starts them: after one unmeasured run, so that the
operating system's file cache, Python's bytecode files (an installed package has them; a
checkout gets them on first import unless ``PYTHONDONTWRITEBYTECODE`` is set, which is
therefore left out of the environment of the measured commands) and xsys's own cache are
as they are on the second run of the day. Batch conversion runs as ``xsys convert``
without ``--explain`` does: without recording the trace.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent


def _median_time(fn: Callable[[], Any], runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def _interleaved(cmds: dict[str, list[str]], runs: int, env: dict[str, str]) -> dict[str, float]:
    """Median wall time of each command, runs interleaved so load affects all alike."""
    times: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(runs):
        for name, cmd in cmds.items():
            t = time.perf_counter()
            r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
            times[name].append(time.perf_counter() - t)
            if r.returncode != 0:
                raise SystemExit(f"benchmark command failed: {' '.join(cmd)}\n{r.stderr.decode()[-2000:]}")
    return {k: statistics.median(v) for k, v in times.items()}


def _xsys_exe() -> str:
    exe = Path(sys.executable).with_name("xsys")
    return str(exe) if exe.exists() else "xsys"


def cold_start(runs: int) -> dict[str, Any]:
    npc = ROOT / "fixtures" / "coc" / "npcs" / "investigator_38.yaml"
    scenario = ROOT / "fixtures" / "nwod" / "scenarios" / "door.yaml"
    out = Path(tempfile.mkdtemp()) / "out.yaml"
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cmds = {
        "floor": [sys.executable, "-c", "import pint, msgspec, typer"],
        "convert": [_xsys_exe(), "convert", str(npc), "--to", "gurps", "-o", str(out)],
        "odds": [_xsys_exe(), "odds", str(scenario)],
    }
    _interleaved(cmds, 1, env)  # warm the OS file cache and any on-disk caches once
    med = _interleaved(cmds, runs, env)
    return {
        "cold_convert": {"seconds": med["convert"], "floor_seconds": med["floor"],
                         "ratio": med["convert"] / med["floor"], "target_ratio": 1.3},
        "cold_odds": {"seconds": med["odds"], "floor_seconds": med["floor"],
                      "ratio": med["odds"] / med["floor"], "target_ratio": 1.3},
    }


def _generated_rosters(total: int, seed: int = 7) -> dict[str, dict[str, Any]]:
    """Native rosters, one per system, made from random neutral NPCs (not timed)."""
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
    keys = reg.keys()
    per = total // len(keys)
    rosters = {}
    for key in keys:
        npcs = []
        for i in range(per):
            npcs.append(Combatant(
                name=f"npc {key} {i}",
                characteristics={c: rng.uniform(0.02, 0.98) for c in CHARACTERISTICS},
                skills={s: rng.uniform(0.05, 0.95) for s in rng.sample(skills, 5)},
                weapons=rng.sample(weapons, 2), armor=rng.sample(armor, 1)))
        neutral = {"system": "neutral", "kind": "roster", "name": f"generated {key}",
                   "npcs": codec.to_builtins(npcs)}
        conv = api.convert(neutral, key)
        plain = codec.to_builtins(conv.document)
        rosters[key] = plain
    return rosters


def batch(total: int, runs: int) -> dict[str, Any]:
    import msgspec

    from xsys.conversions import api, documents

    rosters = _generated_rosters(total)
    keys = sorted(rosters)
    tmp = Path(tempfile.mkdtemp())
    out: dict[str, Any] = {}
    for fmt in ("json", "yaml"):
        files = []
        for i, key in enumerate(keys):
            p = tmp / f"{key}.{fmt}"
            p.write_bytes(documents.dumps(rosters[key], fmt))
            files.append((p, keys[(i + 1) % len(keys)]))
        n = sum(len(rosters[k]["npcs"]) for k in keys)

        def convert_all() -> None:
            for p, to in files:
                conv = api.convert(p, to, trace=False)
                api.dump(conv, fmt)

        if fmt == "json":
            def floor() -> None:
                for p, _ in files:
                    msgspec.json.encode(msgspec.json.decode(p.read_bytes()))
        else:
            def floor() -> None:
                for p, _ in files:
                    msgspec.yaml.encode(msgspec.yaml.decode(p.read_bytes()))

        t = _median_time(convert_all, runs)
        f = _median_time(floor, runs)
        out[f"batch_{fmt}"] = {"npcs": n, "seconds": t, "npcs_per_second": n / t, "floor_seconds": f,
                               "floor_npcs_per_second": n / f, "ratio": t / f,
                               "target_npcs_per_second": 50_000 if fmt == "json" else None,
                               "target_ratio": 100 if fmt == "json" else None}
    return out


def warm_odds(calls: int) -> dict[str, Any]:
    from xsys.conversions import api
    from xsys.conversions.inline import inline_shot

    shot = inline_shot(distance="30m", light="full-moon", exposure=0.5, skill=0.6, weapon="handgun",
                       target_speed="jog")
    api.odds(shot)  # warm
    rng = random.Random(3)
    shots = [inline_shot(distance=f"{rng.randint(2, 200)}m", light=str(rng.choice(["daylight", "full-moon",
                         "starlight", "indoor"])), exposure=rng.choice([1.0, 0.5, 0.2]), skill=rng.uniform(0.1, 0.9),
                         weapon=rng.choice(["handgun", "rifle", "shotgun", "smg"])) for _ in range(50)]
    for s in shots:
        api.odds(s)  # tables for these shots
    t = time.perf_counter()
    for i in range(calls):
        api.odds(shots[i % len(shots)])
    per = (time.perf_counter() - t) / calls
    return {"warm_odds": {"seconds_per_call": per, "systems": len(api.default_registry().keys()),
                          "target_seconds": 0.001}}


def build_tables(runs: int = 3) -> dict[str, Any]:
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

    def measure(env: dict[str, str]) -> tuple[float, float, int]:
        first, again, counts = [], [], []
        for i in range(runs + 1):
            r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
            if r.returncode != 0:
                raise SystemExit(r.stderr[-2000:])
            t, t2, n = r.stdout.split()
            if i:  # the first run fills the cache (and writes bytecode)
                first.append(float(t))
                again.append(float(t2))
                counts.append(int(n))
        return statistics.median(first), statistics.median(again), counts[0]

    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cached, again, n = measure(env)
    computed, _, _ = measure({**env, "XSYS_CACHE": "0"})
    return {"build_tables": {"seconds": cached, "seconds_without_disk_cache": computed,
                             "seconds_again_in_process": again, "tables": n, "target_seconds": 0.2}}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m xsys.conversions.bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer runs and a smaller roster (a smoke test)")
    ap.add_argument("--json-out", default="bench-results.json", help="where to write the figures")
    args = ap.parse_args(argv)
    runs = 3 if args.quick else 9
    total = 1000 if args.quick else 10_000
    results: dict[str, Any] = {"python": sys.version.split()[0], "cpus": os.cpu_count(), "quick": args.quick}
    results.update(build_tables())
    results.update(cold_start(runs))
    results.update(warm_odds(200 if args.quick else 2000))
    results.update(batch(total, 3 if args.quick else 5))
    print(report(results))
    Path(args.json_out).write_text(json.dumps(results, indent=2) + "\n")
    print(f"\nfigures written to {args.json_out}")


def report(r: dict[str, Any]) -> str:
    lines = [f"xsys benchmarks (Python {r['python']}, {r['cpus']} CPUs{', quick' if r['quick'] else ''})", ""]
    for k in ("cold_convert", "cold_odds"):
        x = r[k]
        lines.append(f"{k:<14} {x['seconds'] * 1000:8.1f} ms   floor {x['floor_seconds'] * 1000:7.1f} ms   "
                     f"ratio {x['ratio']:.2f} (target <= {x['target_ratio']})")
    for k in ("batch_json", "batch_yaml"):
        x = r[k]
        target = f" (target >= {x['target_npcs_per_second']:,}/s, ratio <= {x['target_ratio']})" \
            if x["target_npcs_per_second"] else ""
        lines.append(f"{k:<14} {x['npcs_per_second']:10,.0f} NPCs/s   floor {x['floor_npcs_per_second']:12,.0f} NPCs/s"
                     f"   ratio {x['ratio']:.1f}{target}")
    x = r["warm_odds"]
    lines.append(f"{'warm_odds':<14} {x['seconds_per_call'] * 1000:8.3f} ms per call over {x['systems']} systems "
                 f"(target <= 1 ms)")
    x = r["build_tables"]
    lines.append(f"{'build_tables':<14} {x['seconds'] * 1000:8.1f} ms for {x['tables']} ladders and dice tables "
                 f"(target <= 200 ms); {x['seconds_without_disk_cache'] * 1000:.1f} ms with XSYS_CACHE=0; "
                 f"{x['seconds_again_in_process'] * 1000:.3f} ms asked again in the process")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
