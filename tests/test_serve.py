"""Issue 21, `xsys serve`: every endpoint through Litestar's test client, the CLI's errors
and size limit, the page's safety, and 200 concurrent conversions against a real uvicorn."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path

import pytest
import yaml
from litestar.testing import TestClient

from helpers import run_main
from xsys.conversions import api, documents, serve
from xsys.conversions import curve as curves
from xsys.conversions.serve_bench import load, running
from xsys.core.registry import default_registry

ROOT = Path(__file__).resolve().parent.parent
TEXT = ROOT / "fixtures" / "text"
MALLOY = TEXT / "malloy-coc6.txt"
NPC_YAML = ROOT / "fixtures" / "coc" / "npcs" / "investigator_38.yaml"
SHOT = ROOT / "fixtures" / "neutral" / "shots" / "car_park_by_moonlight.yaml"
SCENARIO = ROOT / "fixtures" / "coc" / "scenarios" / "speakeasy_raid.yaml"
SYSTEMS = default_registry().keys()


@pytest.fixture(scope="module")
def client():
    with TestClient(serve.create_app()) as c:
        yield c


def post(client, path, body, status=200):
    r = client.post(path, json=body)
    assert r.status_code == status, r.text
    return r.json()


def cli(capsys, *args):
    return run_main(capsys, *args)


# ---- the page ----------------------------------------------------------------------------

def test_page_is_one_self_contained_html_file_with_a_strict_policy(client):
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    html = r.text
    # nothing fetched from anywhere else: no URL with a scheme or a host in the page
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", html)
    assert "http://" not in html and "https://" not in html
    csp = r.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert "connect-src 'self'" in csp and "'sha256-" in csp
    # the page puts document text in with textContent; innerHTML only for the server's escaped sheet
    assert html.count("innerHTML") == 1 and "r.sheet_html" in html
    assert r.headers["x-content-type-options"] == "nosniff"


def test_page_is_package_data():
    from importlib import resources

    assert resources.files("xsys.conversions").joinpath("web/index.html").is_file()
    py = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "web/*.html" in py["tool"]["setuptools"]["package-data"]["xsys.conversions"]


# ---- systems, schema, OpenAPI -------------------------------------------------------------

def test_systems_is_the_cli_json_plus_what_the_page_offers(client, capsys):
    got = client.get("/api/systems").json()
    code, out, _ = cli(capsys, "systems", "--json")
    assert code == 0
    want = json.loads(out)
    assert {"systems": got["systems"], "broken": got["broken"]} == want
    assert "text" in got["input_formats"] and got["output_formats"] == list(documents.output_formats())
    assert got["output_formats"][:4] == ["yaml", "json", "toml", "md"] and "text" in got["output_formats"]
    opts = got["shot_options"]
    assert "full-moon" in opts["light"] and "handgun" in opts["weapon"]
    assert set(opts["axes"]) == set(curves.AXES)


def test_schema_is_the_cli_schema(client, capsys):
    for query, args in [("?kind=npc&system=gurps", ("schema", "npc", "--system", "gurps")),
                        ("?kind=shot", ("schema", "shot")), ("", ("schema",))]:
        r = client.get("/api/schema" + query)
        assert r.status_code == 200
        code, out, _ = cli(capsys, *args)
        assert code == 0 and r.json() == json.loads(out)


def test_schema_bad_input(client):
    r = client.get("/api/schema?kind=npcs")
    assert r.status_code == 422 and "unknown document kind" in r.json()["error"]
    r = client.get("/api/schema?kind=npc&system=dnd")
    assert r.status_code == 400 and "unknown system" in r.json()["error"]


def test_openapi_documents_every_endpoint(client):
    spec = client.get("/api/openapi/openapi.json").json()
    assert spec["info"]["title"] == "xsys"
    assert {"/api/convert", "/api/odds", "/api/curve", "/api/systems", "/api/schema"} <= set(spec["paths"])
    conv = spec["paths"]["/api/convert"]["post"]
    assert {"200", "400", "413", "422"} <= set(conv["responses"])
    names = json.dumps(spec["components"]["schemas"])
    assert "ConvertRequest" in names and "ErrorResponse" in names and "ShotSpec" in names


# ---- convert ------------------------------------------------------------------------------

@pytest.mark.parametrize("to", SYSTEMS)
def test_convert_text_block_gives_the_cli_sheet(client, capsys, to):
    got = post(client, "/api/convert", {"document": MALLOY.read_text(), "to": to, "format": "md"})
    code, out, _ = cli(capsys, "convert", MALLOY, "--to", to, "--format", "md", "-q")
    assert code == 0
    assert got["sheet"] == out == got["output"]
    assert got["system"] == to and got["source_system"] == "coc" and got["kind"] == "npc"
    assert got["filename"].endswith(f".{to}.md") and got["media_type"] == "text/markdown"
    assert "<h1>" in got["sheet_html"] and "Malloy" in got["sheet_html"]
    # the trace: every number crossed with its rule IDs, as --explain prints it
    assert got["trace"] and all(re.search(r"\[[^\]]*; (seed|assumed)\]|\[(seed|assumed)\]", t) for t in got["trace"])
    conv = api.convert(api.from_plain(documents.parse_bytes(MALLOY.read_bytes(), "plugin:txt", "<pasted>"),
                                      "<pasted>"), to)
    assert [x["text"] for x in got["losses"]] == [x.render() for x in conv.losses]


@pytest.mark.parametrize("fmt", ["yaml", "json", "toml"])
def test_convert_file_formats_are_what_the_cli_writes(client, capsys, fmt):
    got = post(client, "/api/convert", {"document": NPC_YAML.read_text(), "filename": NPC_YAML.name,
                                        "to": "nwod", "format": fmt, "explain": True})
    code, out, _ = cli(capsys, "convert", NPC_YAML, "--to", "nwod", "--format", fmt, "--explain", "-q")
    assert code == 0 and got["output"] == out
    assert got["format"] == fmt and got["filename"] == f"investigator_38.nwod.{fmt}"
    parsed = {"yaml": yaml.safe_load, "json": json.loads, "toml": tomllib.loads}[fmt](got["output"])
    assert parsed["system"] == "nwod" and parsed["xsys"]["trace"]
    assert got["sheet"].startswith("# ")  # the sheet is there whatever the file's format


def test_convert_default_format_is_the_inputs(client):
    got = post(client, "/api/convert", {"document": NPC_YAML.read_text(), "to": "gurps"})
    assert got["format"] == "yaml" and yaml.safe_load(got["output"])["system"] == "gurps"
    got = post(client, "/api/convert", {"document": json.dumps(yaml.safe_load(NPC_YAML.read_text())), "to": "gurps"})
    assert got["format"] == "json"
    got = post(client, "/api/convert", {"document": MALLOY.read_text(), "to": "gurps"})  # a block gives a block
    assert got["format"] == documents.default_output_format(documents.format_for("x.txt"))


@pytest.mark.parametrize("path", sorted(p for d in ("foundry-coc7", "foundry-mta", "ccfolia", "dholes-house")
                                         for p in (ROOT / "fixtures" / d).glob("*.json")), ids=lambda p: p.name)
def test_pasted_vtt_json_reads_as_the_cli_reads_the_file(client, capsys, path):
    got = post(client, "/api/convert", {"document": path.read_text(), "to": "gurps", "format": "md"})
    code, out, _ = cli(capsys, "convert", path, "--to", "gurps", "--format", "md", "-q")
    assert code == 0 and got["sheet"] == out


def test_text_block_out_is_the_clis(client, capsys):
    got = post(client, "/api/convert", {"document": MALLOY.read_text(), "to": "nwod", "format": "text"})
    code, out, _ = cli(capsys, "convert", MALLOY, "--to", "nwod", "--format", "text", "-q")
    assert code == 0 and got["output"] == out and got["filename"].endswith(".nwod.txt")
    assert got["media_type"] == "text/plain"


def test_text_format_by_name_or_extension(client):
    for extra in ({"input_format": "text"}, {"input_format": "txt"}, {"filename": "malloy.txt"}):
        got = post(client, "/api/convert", {"document": MALLOY.read_text(), "to": "nwod", **extra})
        assert got["source_system"] == "coc"


def test_sheet_escapes_every_name_and_note(client):
    evil = {"system": "neutral", "kind": "npc", "name": "<script>alert(1)</script> [x](javascript:alert(2))",
            "notes": "<img src=x onerror=alert(3)> **bold** <!-- hide", "skills": {"handgun": 0.5}}
    for to in SYSTEMS:
        got = post(client, "/api/convert", {"document": json.dumps(evil), "to": to, "format": "md"})
        html = got["sheet_html"]
        assert "<script" not in html and "<img" not in html and "<a " not in html and "<!--" not in html
        assert "&lt;script&gt;" in html


def test_settings_and_strict(client, capsys):
    got = post(client, "/api/convert", {"document": MALLOY.read_text(), "to": "pl-trudnosc",
                                        "settings": ["pl-trudnosc.mechanic=per-die-d10"]})
    assert got["system"] == "pl-trudnosc"
    r = client.post("/api/convert", json={"document": MALLOY.read_text(), "to": "pl-trudnosc", "strict": True})
    assert r.status_code == 422 and "under --strict" in r.json()["error"]
    r = client.post("/api/convert", json={"document": MALLOY.read_text(), "to": "gurps", "settings": ["nope.x=1"]})
    assert r.status_code == 422 and r.json()["error"].startswith("--set: unknown system")


# ---- bad input: the CLI's one line, never a traceback ---------------------------------------

def test_unknown_system_is_the_cli_line(client, capsys):
    r = client.post("/api/convert", json={"document": NPC_YAML.read_text(), "to": "dnd"})
    code, _, err = cli(capsys, "convert", NPC_YAML, "--to", "dnd")
    assert code == 2 and r.status_code == 400
    assert err.strip() == "xsys: error: " + r.json()["error"]


def test_malformed_yaml_is_the_cli_line(client, capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("system: coc\nkind: npc\nname: [unclosed\n")
    r = client.post("/api/convert", json={"document": bad.read_text(), "filename": str(bad), "to": "gurps"})
    code, _, err = cli(capsys, "convert", bad, "--to", "gurps")
    assert r.status_code == 422 and code == 2
    assert err.strip() == r.json()["error"] and "malformed YAML" in r.json()["error"]
    r = client.post("/api/convert", json={"document": bad.read_text(), "to": "gurps"})  # pasted
    assert r.status_code == 422 and r.json()["error"].startswith("<pasted>: malformed YAML")


def test_wrong_unit_and_unknown_field_are_the_cli_lines(client, capsys, tmp_path):
    shot = yaml.safe_load(SHOT.read_text())
    shot["distance"] = "30 kg"
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(yaml.safe_dump(shot))
    r = client.post("/api/odds", json={"document": wrong.read_text(), "filename": str(wrong)})
    code, _, err = cli(capsys, "odds", wrong)
    assert r.status_code == 422 and code == 2
    assert err.strip() == "xsys: error: " + r.json()["error"] and "$.distance" in r.json()["error"]
    typo = tmp_path / "typo.yaml"
    typo.write_text(NPC_YAML.read_text() + "\nSTRR: 12\n")
    r = client.post("/api/convert", json={"document": typo.read_text(), "filename": str(typo), "to": "gurps"})
    code, _, err = cli(capsys, "convert", typo, "--to", "gurps")
    assert r.status_code == 422 and err.strip() == r.json()["error"] and "STRR" in r.json()["error"]
    # a typed shot: the same line as the inline option of `xsys odds`
    r = client.post("/api/odds", json={"shot": {"distance": "30kg"}})
    code, _, err = cli(capsys, "odds", "--distance", "30kg")
    assert r.status_code == 422 and err.strip() == "xsys: error: " + r.json()["error"]


def test_bad_requests_are_one_line_400s(client):
    cases = [
        ({"document": "x", "to": "gurps", "bogus": 1}, "unknown field `bogus`"),
        ({"document": "x"}, "missing required field `to`"),
        ({"document": "x", "to": 5}, "$.to"),
        ({"document": "x", "to": "gurps", "format": "docx"}, "unknown output format"),
        ({"document": "x", "to": "gurps", "input_format": "docx"}, "unknown input format"),
    ]
    for body, text in cases:
        r = client.post("/api/convert", json=body)
        assert r.status_code == 400, (body, r.text)
        line = r.json()["error"]
        assert text in line and "\n" not in line and "Traceback" not in line
    r = client.post("/api/convert", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "malformed" in r.json()["error"]
    r = client.post("/api/convert", json={"to": "gurps"})
    assert r.status_code == 422 and "no document" in r.json()["error"]


def test_unreadable_paste_says_why(client):
    r = client.post("/api/convert", json={"document": "hello there", "to": "gurps"})
    assert r.status_code == 422 and "cannot tell which system" in r.json()["error"]


# ---- size limit ---------------------------------------------------------------------------

def test_size_limit_is_the_clis(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(documents, "MAX_INPUT_BYTES", 4096)
    doc = NPC_YAML.read_text() + "\n" + "# padding\n" * 600
    big = tmp_path / "big.yaml"
    big.write_text(doc)
    with TestClient(serve.create_app()) as c:
        # a document over the limit, in a body the framework takes: the CLI's own line
        r = c.post("/api/convert", json={"document": doc, "filename": str(big), "to": "gurps"})
        code, _, err = cli(capsys, "convert", big, "--to", "gurps")
        assert r.status_code == 413 and code == 2
        assert err.strip().splitlines()[-1] == r.json()["error"] and "input too large" in err
        # a body over the request limit: refused before it is read
        r = c.post("/api/convert", json={"document": "x" * (serve.body_limit() + 10), "to": "gurps"})
        assert r.status_code == 413 and "input too large" in r.json()["error"]
        assert "4096" in r.json()["error"]
        r = c.post("/api/odds", json={"document": "y" * (serve.body_limit() + 10)})
        assert r.status_code == 413
        # a document within the limit still converts
        r = c.post("/api/convert", json={"document": NPC_YAML.read_text(), "to": "gurps"})
        assert r.status_code == 200


# ---- odds and curve -----------------------------------------------------------------------

def test_odds_of_a_shot_document_are_the_cli_json(client, capsys):
    got = post(client, "/api/odds", {"document": SHOT.read_text(), "filename": SHOT.name})
    code, out, _ = cli(capsys, "odds", SHOT, "--json")
    want = json.loads(out)
    assert code == 0 and len(got["shots"]) == 1 and got["errors"] == []
    assert got["shots"][0] == {"shot": want["shot"], "results": want["results"]}
    assert {r["system"] for r in got["shots"][0]["results"]} == set(SYSTEMS)
    mods = [m for r in got["shots"][0]["results"] for m in r["modifiers"]]
    assert mods and all(m["rule"] and m["source"] in ("seed", "assumed") for m in mods)


def test_odds_of_a_scenario_and_of_a_typed_shot(client, capsys):
    got = post(client, "/api/odds", {"document": SCENARIO.read_text(), "systems": ["coc", "gurps"]})
    code, out, _ = cli(capsys, "odds", SCENARIO, "--json", "-s", "coc", "-s", "gurps")
    assert code == 0 and len(got["shots"]) > 1
    assert [{"shot": s["shot"], "results": s["results"]} for s in got["shots"]] == json.loads(out)["shots"]
    typed = {"distance": "40m", "light": "full-moon", "exposure": 0.5, "skill": 0.7, "weapon": "rifle"}
    got = post(client, "/api/odds", {"shot": typed})
    code, out, _ = cli(capsys, "odds", "--distance", "40m", "--light", "full-moon", "--exposure", "0.5",
                       "--skill", "0.7", "--weapon", "rifle", "--json")
    assert code == 0 and got["shots"][0]["results"] == json.loads(out)["results"]


def test_odds_bad_input(client):
    r = client.post("/api/odds", json={})
    assert r.status_code == 422 and "needs a document or a typed shot" in r.json()["error"]
    r = client.post("/api/odds", json={"document": NPC_YAML.read_text()})
    assert r.status_code == 422 and "odds needs a shot or a scenario" in r.json()["error"]
    r = client.post("/api/odds", json={"shot": {}, "systems": ["dnd"]})
    assert r.status_code == 400
    r = client.post("/api/odds", json={"shot": {"skill": 2}})
    assert r.status_code == 422 and "--skill" in r.json()["error"]


def test_curve_is_the_cli_curve_and_its_svg(client, capsys, tmp_path):
    got = post(client, "/api/curve", {"document": SHOT.read_text(), "sweep": "light=100000lx..0lx", "points": 12})
    code, out, _ = cli(capsys, "curve", SHOT, "--sweep", "light=100000lx..0lx", "--points", 12, "--json")
    assert code == 0 and got["curve"] == json.loads(out) and got["shot"] == "Car park by moonlight"
    svg = tmp_path / "chart.svg"
    code, _, _ = cli(capsys, "curve", SHOT, "--sweep", "light=100000lx..0lx", "--points", 12, "-o", svg)
    assert code == 0 and got["svg"] == svg.read_text() and got["svg_error"] is None
    assert "<svg" in got["svg"] and 'id="curve-gurps"' in got["svg"]


def test_curve_typed_shot_every_axis_and_bad_input(client):
    axes = client.get("/api/systems").json()["shot_options"]["axes"]
    for axis, rng in axes.items():
        got = post(client, "/api/curve", {"shot": {"distance": "20m"}, "sweep": f"{axis}={rng['from']}..{rng['to']}",
                                          "points": 4, "svg": False})
        assert got["curve"]["axis"] == axis and len(got["curve"]["x"]) == 4 and got["svg"] is None
    r = client.post("/api/curve", json={"shot": {}, "sweep": "colour=1..2"})
    assert r.status_code == 422 and "--sweep" in r.json()["error"]
    r = client.post("/api/curve", json={"document": SHOT.read_text(), "shot_index": 3})
    assert r.status_code == 422 and "no such shot" in r.json()["error"]


def test_no_traceback_even_when_something_breaks(client, monkeypatch):
    def boom(*a, **k):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(api, "convert", boom)
    r = client.post("/api/convert", json={"document": NPC_YAML.read_text() + "\n# new\n", "to": "gurps"})
    assert r.status_code == 500 and r.json() == {"error": "internal error: RuntimeError: boom second line"}


def test_answer_cache_computes_identical_requests_once_and_keeps_no_error(monkeypatch):
    import threading
    from concurrent.futures import ThreadPoolExecutor

    calls = []
    gate = threading.Event()
    real = serve.do_convert

    def counted(req):
        calls.append(req.to)
        gate.wait(5)
        return real(req)

    monkeypatch.setattr(serve, "do_convert", counted)
    monkeypatch.setattr(serve, "_answers", serve.AnswerCache(entries=2))
    req = serve.ConvertRequest(document=MALLOY.read_text(), to="nwod", format="md")
    with ThreadPoolExecutor(8) as pool:
        futures = [pool.submit(serve.convert_cached, serve.ConvertRequest(document=MALLOY.read_text(), to="nwod",
                                                                          format="md")) for _ in range(8)]
        time.sleep(0.2)
        gate.set()
        answers = [f.result() for f in futures]
    assert calls == ["nwod"] and all(a == answers[0] for a in answers)
    assert serve.convert_cached(req) == answers[0] and calls == ["nwod"]
    bad = serve.ConvertRequest(document="system: coc\nkind: npc\nname: [x\n", to="nwod")
    for _ in range(2):
        with pytest.raises(Exception, match="malformed YAML"):
            serve.convert_cached(bad)
    assert calls == ["nwod", "nwod", "nwod"]  # an error is computed again, not kept
    for to in ("gurps", "coc"):  # two more answers push the first out (2 entries)
        serve.convert_cached(serve.ConvertRequest(document=MALLOY.read_text(), to=to))
    serve.convert_cached(req)
    assert calls.count("nwod") == 4


# ---- a real server: concurrency, `xsys serve` ---------------------------------------------

def test_200_concurrent_conversions_against_uvicorn_all_correct():
    # 200 different NPCs (each named apart: no answer comes from the cache), to every system
    docs = [MALLOY.read_text(), (TEXT / "patrol-officer-gurps.txt").read_text(), NPC_YAML.read_text()]
    jobs = []
    for i in range(200):
        d = docs[i % len(docs)]
        d = d.replace("name: ", f"name: No. {i} ", 1) if d.startswith("system:") else f"No. {i} " + d
        jobs.append((d, SYSTEMS[i % len(SYSTEMS)]))
    want = [serve.do_convert(serve.ConvertRequest(document=d, to=to, format="md")).sheet for d, to in jobs]
    assert len(set(want)) == 200
    bodies = [json.dumps({"document": d, "to": to, "format": "md"}).encode() for d, to in jobs]
    with running() as (host, port):
        out = asyncio.run(load(host, port, bodies, concurrency=200))
    assert len(out) == 200
    for (d, to), sheet, (_, status, data) in zip(jobs, want, out):
        assert status == 200, data[:300]
        got = json.loads(data)
        assert got["system"] == to and got["sheet"] == sheet


def test_concurrent_schema_and_curves_are_safe():
    bodies = [json.dumps({"shot": {"distance": f"{10 + i}m"}, "points": 3, "sweep": "skill=0.1..0.9"}).encode()
              for i in range(8)]
    with running() as (host, port):
        out = asyncio.run(load(host, port, bodies, concurrency=8, path="/api/curve"))
        for i, (_, status, data) in enumerate(out):
            got = json.loads(data)
            assert status == 200 and got["svg"].count("<svg") == 1 and f"{10 + i} m" in got["curve"]["title"]
        with urllib.request.urlopen(f"http://{host}:{port}/api/schema?kind=npc&system=coc") as r:
            assert json.load(r) == documents.schema("npc", "coc")


def test_xsys_serve_starts_says_where_and_stops_on_ctrl_c():
    xsys = Path(sys.executable).parent / "xsys"
    p = subprocess.Popen([str(xsys), "serve", "--port", "0"], stderr=subprocess.PIPE, text=True)
    try:
        line = p.stderr.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert m, line
        port = int(m.group(1))
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/systems", timeout=5) as r:
                    assert json.load(r)["systems"]
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        p.send_signal(signal.SIGINT)
        assert p.wait(30) in (0, 130)
        assert "Traceback" not in p.stderr.read()
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def _children(pid: int) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(d.name))
    return out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="counts worker processes through /proc")
def test_xsys_serve_workers_are_processes_that_all_answer_and_stop_together():
    import http.client

    xsys = Path(sys.executable).parent / "xsys"
    p = subprocess.Popen([str(xsys), "serve", "--port", "0", "--workers", "2"], stderr=subprocess.PIPE, text=True)
    try:
        line = p.stderr.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/ \(2 worker processes\)", line)
        assert m, line
        port = int(m.group(1))
        body = json.dumps({"document": (ROOT / "fixtures/coc/npcs/hunter_rifle.yaml").read_text(), "to": "gurps",
                           "format": "md"}).encode()
        want = serve.do_convert(serve.ConvertRequest(document=json.loads(body)["document"], to="gurps",
                                                     format="md")).sheet
        deadline = time.monotonic() + 60
        while True:
            try:
                req = urllib.request.Request(f"http://127.0.0.1:{port}/api/convert", data=body,
                                             headers={"Content-Type": "application/json"})
                with urllib.request.urlopen(req, timeout=10) as r:
                    assert json.load(r)["sheet"] == want
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.2)
        workers = [w for w in _children(p.pid) if b"spawn_main" in Path(f"/proc/{w}/cmdline").read_bytes()]
        assert len(workers) == 2, workers  # uvicorn's two worker processes
        # every worker process answers only this machine's names (the parent's hosts reach them)
        for _ in range(6):
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            c.request("GET", "/api/systems", headers={"Host": "evil.example"})
            assert c.getresponse().status == 400
            c.close()
        p.send_signal(signal.SIGINT)
        assert p.wait(30) in (0, 130)
        time.sleep(0.5)
        assert not [w for w in workers if Path(f"/proc/{w}").exists()
                    and "Z" not in Path(f"/proc/{w}/stat").read_text().rsplit(")", 1)[1].split()[0]]
        assert "Traceback" not in p.stderr.read()
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def test_serve_workers_out_of_range_is_one_clear_error():
    res = subprocess.run([str(Path(sys.executable).parent / "xsys"), "serve", "--workers", "0"],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 2 and "--workers" in res.stderr and "1 to 64" in res.stderr
    assert "Traceback" not in res.stderr


def test_on_loopback_only_local_host_names_are_answered():
    import http.client

    with running() as (host, port):
        pass  # a free port to reuse below
    app = serve.create_app(serve.local_hosts(port))
    with running(port=port, app=app) as (host, port):
        for name, status in ((f"127.0.0.1:{port}", 200), (f"localhost:{port}", 200), (f"evil.example:{port}", 400)):
            c = http.client.HTTPConnection(host, port, timeout=10)
            c.request("GET", "/api/systems", headers={"Host": name})
            assert c.getresponse().status == status, name
            c.close()


def test_xsys_serve_port_in_use_is_one_line(capsys):
    with running() as (_, port):
        code, _, err = cli(capsys, "serve", "--port", port)
    assert code == 2 and err.count("\n") == 1 and err.startswith("xsys: error: --host/--port: cannot listen")


def test_serve_bench_runs_and_checks_its_answers():
    from xsys.conversions import serve_bench

    r = serve_bench.bench(requests=12, concurrency=6, levels=(1,), check=3, warm=2, level_requests=4)
    assert r["wrong_answers"] == 0
    assert r["different_npcs"]["requests"] == 12 and r["same_npc"]["requests"] == 12
    assert r["levels"][1]["requests"] == 10 and r["levels"][1]["median_ms"] > 0


def test_the_listening_socket_sends_answers_at_once():
    # uvicorn's workers take the socket by descriptor and treat it as a Unix socket, so the
    # connections inherit TCP_NODELAY from it or wait for the client's delayed ACK (40 ms)
    import socket

    sock = serve._bind("127.0.0.1", 0)
    try:
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        client = socket.create_connection(sock.getsockname())
        conn, _ = sock.accept()
        try:
            assert conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        finally:
            conn.close()
            client.close()
    finally:
        sock.close()
