"""The benchmark's own machinery (devtools/bench.py): paired ratios, the rosters it
writes piece by piece, and the goal table (the figures themselves are for the README)."""

from __future__ import annotations

import json
import sys

from xsys.conversions import documents
from xsys.devtools import bench


def test_paired_ratios_are_medians_of_pairs():
    quick = [sys.executable, "-c", "pass"]
    slow = [sys.executable, "-c", "import time; time.sleep(0.15)"]
    r = bench.paired(slow, quick, 3, bench._env(), warm=False)
    assert len(r["ratios"]) == 3 and r["pairs"] == 3
    assert r["ratio"] == sorted(r["ratios"])[1]
    assert r["ratio"] > 1 and r["seconds"] >= 0.15 and r["peak_kib"] > 0


def test_rosters_are_written_whole_and_valid(tmp_path):
    pool = [{"name": "a", "STR": 9, "CON": 11, "SIZ": 10, "DEX": 12, "APP": 13, "INT": 16, "POW": 15, "EDU": 18,
             "HP": 11, "skills": {"Handgun": 40}}]
    for fmt in ("json", "yaml"):
        p = tmp_path / f"r.{fmt}"
        bench._write_roster(p, pool, 25, fmt)
        data = documents.read_plain(p)
        assert data["kind"] == "roster" and len(data["npcs"]) == 25
        assert [n["name"] for n in data["npcs"]] == [f"npc {i}" for i in range(25)]
        assert p.read_bytes() == documents.dumps(data, fmt)  # as xsys itself writes it


def _results(**over):
    r = {"python": "3.11", "cpus": 2, "machine": "x86_64", "quick": False, "load_average_before": [1, 1, 1],
         "load_average_after": [1, 1, 1], "seconds": 100.0, "sizes": [10_000, 100_000],
         "batch_json": {"ratio": 4.0, "ratios": [4.0], "npcs": 10_000, "npcs_per_second": 9000.0, "seconds": 1.0,
                        "floor_seconds": 0.25, "input_bytes": 100, "output_bytes": 300, "peak_kib": 40_000,
                        "output_parts": {"npcs": 80, "losses": 200, "origin": 12, "origin_packed": True}},
         "peak_memory": {"to": "neutral", "ratio": 1.1, "converted_above_limit": True,
                         "runs": {"10000": {"peak_kib": 40_000, "seconds": 1.0, "input_bytes": 1},
                                  "100000": {"peak_kib": 44_000, "seconds": 9.0, "input_bytes": 2**24}}},
         "limits": {"real_size_stated": True},
         "yaml_reading": {"parser": "libyaml", "npcs_per_second": 3000.0, "same_data_as_pure_python": True},
         "cold_convert": {"ratio": 1.1, "seconds": 0.3, "floor_seconds": 0.28},
         "cold_odds": {"ratio": 1.3, "seconds": 0.3, "floor_seconds": 0.28},
         "warm_odds": {"slowest_seconds": 0.0009, "slowest": "x", "over_goal": [], "shots": 38},
         "warm_convert": {"conversions": 160, "median_cpu_seconds": 0.00025, "slowest_cpu_seconds": 0.0009,
                          "slowest": "nwod/a -> gurps"},
         "progress": {"terminal_shows_rate": True, "silent_when_not_a_terminal": True},
         "build_tables": {"seconds": 0.05, "tables": 203, "seconds_without_disk_cache": None,
                          "seconds_again_in_process": 0.0005},
         "serve": {"workers": 2, "ratio": 0.74, "ratio_range": [0.7, 0.78], "cpu_ratio": 0.97, "errors": 0,
                   "parallel_ratio": 0.86, "parallel_range": [0.8, 0.92], "capacity": 1.72,
                   "wrong_answers": 0, "per_s": {"pooled": 165.0}, "fairness_max_ms": 20.0}}
    r.update(over)
    return r


def test_every_goal_of_the_issue_is_judged():
    r = _results()
    g = bench.goals(r)
    assert len(g) == 10 and all(x["met"] for x in g)
    r = _results(cold_convert={"ratio": 1.6, "seconds": 0.5, "floor_seconds": 0.3})
    r["goals"] = bench.goals(r)
    text = bench.report(r)
    assert "[not met] cold xsys convert" in text and text.count("[met]") == 9
    assert "[met] warm conversion of one NPC in process (api.convert of each NPC fixture to each other system, " \
           "the file read included), CPU: median 0.25 ms, slowest 0.90 ms (nwod/a -> gurps) of 160" in text
    slow = _results(warm_convert={**_results()["warm_convert"], "median_cpu_seconds": 0.0024})
    assert not [x for x in bench.goals(slow) if x["what"].startswith("warm conversion")][0]["met"]
    # judged on what two processes converting at once deliver, measured in the same rounds; the
    # rate of one process x 2 is printed beside it, with how far the machine ran two at once
    assert "[met] xsys serve --workers 2: served conversions a second / 2 processes converting in process at " \
           "once, paired rounds: 0.86 (rounds 0.80-0.92); / (one in process x 2): 0.74 (rounds 0.70-0.78; CPU 0.97), " \
           "the machine ran 2 at 1.72x one; errors 0, wrong answers 0" in text
    for bad in ({"parallel_ratio": 0.7}, {"errors": 3}, {"wrong_answers": 1}):
        r = _results(serve={**_results()["serve"], **bad})
        assert not [x for x in bench.goals(r) if x["what"].startswith("xsys serve")][0]["met"], bad
    assert "streamed output / input: 3.00x = converted NPCs 0.80x + loss report 2.00x + remembered source 0.12x" \
        in text


def test_peak_memory_is_the_childs_own_not_a_big_parents(tmp_path):
    # a child spawned by a big process inherits its high-water mark in ru_maxrss (Linux); the
    # peak memory runs report the memory of xsys's own address space
    import resource
    from pathlib import Path

    import pytest

    if not Path("/proc/self/status").exists():
        pytest.skip("no /proc: ru_maxrss is all there is")
    ballast = bytearray(160 * 2**20)
    for i in range(0, len(ballast), 4096):
        ballast[i] = 1
    parent = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    took, peak = bench._run_own_peak(["--version"], bench._env())
    assert took > 0 and 0 < peak < parent - 100 * 1024, (peak, parent)
    del ballast


def test_the_gate_fails_a_figure_more_than_20_percent_worse_and_only_then(tmp_path, capsys):
    recorded = {"batch_ratio": 80.0, "cold_convert_ratio": 1.3, "warm_odds_median_cpu_ms": 0.5}
    assert bench.regressions({"batch_ratio": 95.0, "cold_convert_ratio": 1.3, "warm_odds_median_cpu_ms": 0.4},
                             recorded) == []  # +19%, the same, better
    bad = bench.regressions({"batch_ratio": 97.0, "cold_convert_ratio": 1.0, "memory_ratio": 9.0}, recorded)
    assert len(bad) == 1 and bad[0].startswith("roster vs msgspec floor (ratio): 97, recorded 80 (+21%")
    # the whole gate: the recorded figures of the run's own mode, exit 1 on a regression
    book = tmp_path / "recorded.json"
    book.write_text(json.dumps({"full": {"commit": "abc", "figures": recorded},
                                "quick": {"commit": "abc", "figures": {"batch_ratio": 10.0}}}))
    run = {"quick": False, "batch_json": {"ratio": 120.0, "peak_kib": 50_000}, "cold_convert": {"ratio": 1.25}}
    assert bench.gate(run, book, record=False) == 1
    assert "REGRESSED" in capsys.readouterr().out
    assert bench.gate({**run, "batch_json": {"ratio": 81.0, "peak_kib": 50_000}}, book, record=False) == 0
    # --record keeps the other mode's figures and writes this run's
    assert bench.gate({**run, "batch_json": {"ratio": 81.0, "peak_kib": 51_200}}, book, record=True) == 0
    kept = json.loads(book.read_text())
    assert kept["quick"]["figures"] == {"batch_ratio": 10.0}
    assert kept["full"]["figures"] == {"batch_ratio": 81.0, "batch_peak_mib": 50.0, "cold_convert_ratio": 1.25}
    # no recorded figures: nothing to compare, not a failure
    assert bench.gate(run, tmp_path / "none.json", record=False) == 0


def test_the_recorded_figures_in_the_repository_are_readable_and_gated():
    book = json.loads(bench.RECORDED.read_text())
    assert set(book) <= {"full", "quick"} and "full" in book
    for mode in book.values():
        assert mode["figures"] and set(mode["figures"]) <= set(bench.GATED)


def test_both_benchmarks_print_their_help():
    """`--help` of the documented benchmark commands prints the usage (a '%' in a help text
    made argparse fail with a traceback)."""
    import subprocess
    import sys

    for mod in ("xsys.devtools.bench", "xsys.devtools.serve_bench"):
        r = subprocess.run([sys.executable, "-m", mod, "--help"], capture_output=True, text=True, timeout=60)
        assert r.returncode == 0 and "usage:" in r.stdout and not r.stderr, (mod, r.stderr[-500:])
