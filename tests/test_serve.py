"""`xsys serve`: every endpoint through Litestar's test client, the CLI's errors
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
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import yaml
from litestar.testing import TestClient

from helpers import run_main
from xsys.conversions import api, documents, serve
from xsys.conversions import curve as curves
from xsys.devtools.serve_bench import load, running
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
    # the sweep and the points are options of the request: a bad one is a bad request (400)
    r = client.post("/api/curve", json={"shot": {}, "sweep": "colour=1..2"})
    assert r.status_code == 400 and r.json()["error"].startswith("$.sweep: unknown sweep axis")
    r = client.post("/api/curve", json={"shot": {}, "points": 1})
    assert r.status_code == 400 and r.json()["error"] == "$.points: out of range (expected 2 to 10,000 points, found 1)"
    r = client.post("/api/curve", json={"document": SHOT.read_text(), "shot_index": 3})
    assert r.status_code == 422 and "no such shot" in r.json()["error"]


def _worker_code(body: str) -> tuple[str, ...]:
    """The command of a conversion process whose convert is replaced by `body` (a function
    `convert(req)`; `real` is the true one)."""
    code = ("import os\nfrom xsys.conversions import serve\nreal = serve.KINDS[b'c'][1]\n" + body
            + "\nserve.KINDS[b'c'] = (serve.ConvertRequest, convert)\nserve.worker_main()\n")
    return (sys.executable, "-c", code)


def test_no_traceback_even_when_something_breaks(capfd):
    # a conversion that raises: one line to the client, the traceback to the server's terminal
    boom = "def convert(req):\n    raise RuntimeError('boom\\nsecond line')"
    with TestClient(serve.create_app(limits=serve.Limits(worker_argv=_worker_code(boom)))) as c:
        r = c.post("/api/convert", json={"document": NPC_YAML.read_text() + "\n# new\n", "to": "gurps"})
    assert r.status_code == 500 and r.json() == {"error": "internal error: RuntimeError: boom second line"}
    err = capfd.readouterr().err
    assert "Traceback" in err and "RuntimeError: boom" in err


def test_a_conversion_process_that_dies_is_one_line_and_is_replaced(caplog):
    die = "def convert(req):\n    if req.to == 'gurps':\n        os._exit(3)\n    return real(req)"
    with TestClient(serve.create_app(limits=serve.Limits(worker_argv=_worker_code(die)))) as c:
        pool = c.app.state.xsys.pool
        r = c.post("/api/convert", json={"document": MALLOY.read_text(), "to": "gurps"})
        assert r.status_code == 500
        assert r.json() == {"error": "internal error: the conversion process stopped (exit code 3) while "
                                     "converting this request"}
        deadline = time.monotonic() + 60
        while pool.state()["ready"] < 2:  # a new process takes its place
            assert time.monotonic() < deadline
            time.sleep(0.05)
        r = c.post("/api/convert", json={"document": MALLOY.read_text(), "to": "nwod", "format": "md"})
        assert r.status_code == 200 and r.json()["system"] == "nwod"
    assert "a conversion process stopped (exit code 3)" in caplog.text


def test_a_conversion_process_killed_while_idle_is_replaced(caplog):
    with TestClient(serve.create_app()) as c:
        pool = c.app.state.xsys.pool
        deadline = time.monotonic() + 60
        while pool.state()["ready"] < 2:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        victim = pool.state()["pids"][0]
        os.kill(victim, signal.SIGKILL)
        while victim in pool.state()["pids"] or pool.state()["ready"] < 2:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        r = c.post("/api/convert", json={"document": MALLOY.read_text(), "to": "coc-zh", "format": "md"})
        assert r.status_code == 200 and r.json()["system"] == "coc-zh"
    assert "a conversion process stopped (exit code -9) while idle" in caplog.text


def test_answer_cache_computes_identical_requests_once_and_keeps_no_error():
    async def main():
        cache = serve.AnswerCache(entries=2)
        calls = []
        gate = asyncio.Event()

        def compute(tag, status=200):
            async def run():
                calls.append(tag)
                await gate.wait()
                return status, f"answer {tag}".encode(), {}
            return run

        def key(tag):
            return cache.key(b"c", tag.encode())

        waiting = [asyncio.ensure_future(cache.answer(key("a"), compute("a"))) for _ in range(8)]
        await asyncio.sleep(0.05)
        waiting[0].cancel()  # a client that goes away does not stop the answer the others wait for
        gate.set()
        answers = await asyncio.gather(*waiting[1:])
        assert calls == ["a"] and answers == [(200, b"answer a", {})] * 7
        assert await cache.answer(key("a"), compute("a")) == (200, b"answer a", {}) and calls == ["a"]
        for _ in range(2):  # an error is not kept: computed again
            assert await cache.answer(key("bad"), compute("bad", 422)) == (422, b"answer bad", {})
        assert calls == ["a", "bad", "bad"]
        for tag in ("b", "c"):  # two more answers push the first out (2 entries)
            await cache.answer(key(tag), compute(tag))
        await cache.answer(key("a"), compute("a"))
        assert calls.count("a") == 2

    asyncio.run(main())


# ---- who may ask: the page itself (or a program), in JSON ---------------------------------

def _convert_body() -> str:
    return json.dumps({"document": "No. 7 " + MALLOY.read_text(), "to": "gurps", "format": "md"})


@pytest.mark.parametrize("headers, status", [
    # what any web page the user visits can make the browser send, without asking
    ({"Origin": "http://evil.example", "Content-Type": "text/plain"}, 403),
    ({"Origin": "http://evil.example", "Content-Type": "application/x-www-form-urlencoded"}, 403),
    ({"Origin": "http://evil.example", "Content-Type": "multipart/form-data; boundary=x"}, 403),
    ({"Origin": "http://evil.example", "Content-Type": "application/json"}, 403),
    ({"Origin": "null", "Content-Type": "application/json"}, 403),
    ({"Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"}, 403),
    # another page of this machine (another port) is another origin
    ({"Origin": "http://testserver.local:3000", "Sec-Fetch-Site": "same-site", "Content-Type": "application/json"}, 403),
    # not JSON, from a program
    ({"Content-Type": "text/plain"}, 415),
    ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
    ({}, 415),
    # behind a reverse proxy: the page's origin is the name the proxy passes on, not another
    ({"Origin": "https://xsys.example", "X-Forwarded-Host": "dm.example", "Content-Type": "application/json"}, 403),
    # the page's own request (as a browser sends it), also behind a proxy, and a program's
    ({"Origin": "http://testserver.local", "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json"}, 200),
    ({"Origin": "https://xsys.example", "X-Forwarded-Host": "xsys.example", "Sec-Fetch-Site": "same-origin",
      "Content-Type": "application/json"}, 200),
    ({"Content-Type": "application/json; charset=utf-8"}, 200),
], ids=lambda x: repr(x) if isinstance(x, dict) else str(x))
def test_only_the_page_itself_may_post_and_only_json(client, headers, status):
    pool = client.app.state.xsys.pool
    before = pool.seq
    r = client.post("/api/convert", content=_convert_body().encode(), headers=headers)
    assert r.status_code == status, r.text
    if status == 200:
        assert r.json()["system"] == "gurps"
        return
    line = r.json()["error"]
    if status == 403:
        assert line.startswith("request: refused: sent by another web site (expected a request from this "
                               "server's own page, or from a program that sends no Origin, found ")
    else:
        assert line.startswith("request: Content-Type: not JSON (expected application/json, found ")
    assert r.headers["connection"] == "close"
    assert pool.seq == before  # nothing was converted


def test_a_link_from_another_site_still_opens_the_page(client):
    r = client.get("/", headers={"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"})
    assert r.status_code == 200 and "<title>xsys" in r.text


# ---- costly requests: size, depth, time, fairness -------------------------------------------

def _asgi_post(app, headers, chunks):
    """POST /api/convert straight to the ASGI app; the body from `chunks` (an iterator of
    bytes). The answer's status and body, and the bytes the app read."""
    read = [0]

    async def receive():
        chunk = next(chunks, None)
        if chunk is None:
            return {"type": "http.request", "body": b"", "more_body": False}
        read[0] += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": True}

    sent = []

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": "/api/convert", "raw_path": b"/api/convert",
             "query_string": b"", "root_path": "", "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000),
             "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()], "state": {}}
    asyncio.run(app(scope, receive, send))
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return sent[0]["status"], json.loads(body), read[0]


def test_a_body_over_the_limit_is_refused_while_it_is_read_with_flat_memory():
    import tracemalloc

    app = serve.create_app()
    limit = serve.body_limit()
    mib = 1 << 20

    def body(total):  # a 250 MB body, each MiB a new bytes object (as a socket delivers it)
        return (b"x" * mib for _ in range(total // mib))

    # its length told: refused before a byte is read
    status, answer, read = _asgi_post(app, {"Content-Type": "application/json", "Content-Length": "250000000"},
                                      body(250_000_000))
    assert status == 413 and read == 0
    assert answer["error"] == serve.too_large_line(limit) and "input too large" in answer["error"]
    # its length not told (sent in chunks): read up to the limit, not further
    tracemalloc.start()
    try:
        status, answer, read = _asgi_post(app, {"Content-Type": "application/json"}, body(250_000_000))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert status == 413 and answer["error"] == serve.too_large_line(limit)
    assert limit < read <= limit + mib and limit < 18 * mib  # at most the 16 MiB limit and a little
    assert peak < 2.5 * limit  # the body read, and no more


def test_a_250_mb_body_is_refused_at_once_on_a_real_socket():
    import socket

    with running() as (host, port):
        s = socket.create_connection((host, port), timeout=10)
        s.sendall(f"POST /api/convert HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
                  f"Content-Length: 250000000\r\n\r\n".encode())
        t0 = time.monotonic()
        data = _read_all(s)
        assert time.monotonic() - t0 < 5
    assert data.startswith(b"HTTP/1.1 413 ") and b"input too large" in data


def test_bodies_in_memory_at_once_are_bounded(client):
    rt = client.app.state.xsys
    memory = 8 * serve.body_limit()
    rt.body_bytes = memory - 100  # as if eight bodies of the largest size were being handled
    try:
        r = client.post("/api/convert", content=_convert_body().encode(), headers={"Content-Type": "application/json"})
    finally:
        rt.body_bytes = 0
    assert r.status_code == 503 and r.headers["retry-after"] == "1"
    assert r.json()["error"].startswith(f"request: server busy (expected request bodies of at most {memory} bytes")
    r = client.post("/api/convert", content=_convert_body().encode(), headers={"Content-Type": "application/json"})
    assert r.status_code == 200


def test_a_deeply_nested_body_is_a_400(client):
    deep = b'{"document": "x", "to": "gurps", "settings": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    r = client.post("/api/convert", content=deep, headers={"Content-Type": "application/json"})
    assert r.status_code == 400
    assert r.json()["error"] == ("request body: nested too deeply (expected JSON of ordinary depth, found more "
                                 "levels of nesting than the decoder follows)")


def test_a_long_value_is_cut_in_the_error_line(client):
    known = ", ".join(SYSTEMS)
    r = client.post("/api/convert", json={"document": "x", "to": "a" * 10_000})
    assert r.status_code == 400
    assert r.json()["error"] == (f"unknown system (expected one of {known}, found "
                                 f"'{'a' * 59}…' (10,000 characters))")
    for body in ({"shot": {}, "systems": ["b" * 10_000]}, {"document": "x", "to": "gurps", "settings": ["c" * 10_000 + ".x=1"]},
                 {"document": "x", "to": "gurps", "b" * 10_000: 1}):
        path = "/api/odds" if "shot" in body else "/api/convert"
        r = client.post(path, json=body)
        assert r.status_code in (400, 422) and len(r.json()["error"]) < 500, r.json()["error"][:300]
        assert "(10,0" in r.json()["error"]  # the length of what was cut
    r = client.get("/api/schema?system=" + "d" * 10_000)
    assert r.status_code == 400 and len(r.json()["error"]) < 300


def test_a_sweep_out_of_range_is_a_400_naming_the_field_and_the_range(client):
    r = client.post("/api/curve", json={"shot": {}, "sweep": "distance=1m..1e308km", "points": 4, "svg": False})
    assert r.status_code == 400
    assert r.json()["error"] == ("$.sweep: out of range (expected FROM and TO each 0 m or more, finite for distance, "
                                 "e.g. distance=2m..200m, found '1e308km')")
    r = client.post("/api/curve", json={"shot": {}, "sweep": "skill=0.1..2", "points": 4, "svg": False})
    assert r.status_code == 400
    assert r.json()["error"] == "$.sweep: out of range (expected FROM and TO each 0 to 1 for skill, e.g. skill=0.05..0.95, found 2)"


def _curve(points, distance="20m"):
    return json.dumps({"shot": {"distance": distance}, "points": points, "svg": False}).encode()


def _idle(pid: int, quiet: float = 0.3, limit: float = 30.0) -> None:
    """Until process `pid` has used no CPU for `quiet` seconds (at most `limit` seconds)."""
    def cpu() -> int:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return -1
        return int(fields[11]) + int(fields[12])  # utime + stime, in clock ticks

    deadline, last = time.monotonic() + limit, cpu()
    while time.monotonic() < deadline:
        time.sleep(quiet)
        now = cpu()
        if now == last:
            return
        last = now


def test_the_time_budget_ends_a_long_conversion_and_its_process_is_replaced():
    # every system's tables, built once into the cache the conversion processes read at their start
    # (serve._warm_caches): on a cold cache (this code's first run) a process rebuilding them takes
    # seconds, and the replacement's first answer waited behind that over the 1 s budget
    serve._warm_caches()
    limits = serve.Limits(time_limit=1.0)
    app = serve.create_app(limits=limits)
    with running(app=app, limits=limits) as (host, port):
        pool = app.state.xsys.pool
        pids = set(pool.state()["pids"])
        t0 = time.monotonic()
        (_, status, data), = asyncio.run(load(host, port, [_curve(10_000)], 1, path="/api/curve"))
        took = time.monotonic() - t0
        assert status == 503 and took < 3, (status, took)
        m = re.fullmatch(r"request: over the time budget \(expected an answer within 1 s, the limit of this "
                         r"server \(XSYS_SERVE_TIME_LIMIT; the CLI has none\), found (\d+\.\d) s waiting for a "
                         r"conversion process, then (\d+\.\d) s converting\)", json.loads(data)["error"])
        assert m and 0.9 <= float(m.group(1)) + float(m.group(2)) < 3, json.loads(data)["error"]
        deadline = time.monotonic() + 60
        while pool.state()["ready"] < 2:  # the killed process is replaced
            assert time.monotonic() < deadline
            time.sleep(0.05)
        new = set(pool.state()["pids"])
        assert len(new - pids) == 1 and len(new & pids) == 1
        # the new process takes requests at once and fills its caches in the background (serve._warm_caches):
        # on a loaded 2-core machine a request in that second shares it, over the 1 s budget; wait until the
        # process is idle, its warm-up done
        _idle(next(iter(new - pids)))
        (_, status, data), = asyncio.run(load(host, port, [_curve(4)], 1, path="/api/curve"))
        assert status == 200 and len(json.loads(data)["curve"]["x"]) == 4, data


def _roster(n, k):
    """A coc roster of `n` NPCs (the investigator's, each a little different, and different
    from those of another `k`: none is answered from what converting an earlier one learnt)."""
    base = {k: v for k, v in yaml.safe_load(NPC_YAML.read_text()).items() if k not in ("system", "kind")}
    npcs = []
    for i in range(n):
        npc = json.loads(json.dumps(base))
        npc.update(name=f"cultist {k}.{i}", STR=3 + i % 16, DEX=3 + (i // 16) % 16, CON=3 + k % 16)
        npc["skills"]["Handgun"] = 5 + (7 * i) % 90
        npcs.append(npc)
    return json.dumps({"system": "coc", "kind": "roster", "name": f"cult {k}", "npcs": npcs})


def test_a_quick_request_does_not_wait_behind_long_ones():
    limits = serve.Limits(workers=1)
    quick = json.dumps({"document": "No. 1 " + MALLOY.read_text(), "to": "gurps", "format": "md"}).encode()
    rosters = [json.dumps({"document": _roster(60, k), "to": "gurps", "format": "json"}).encode() for k in range(6)]
    assert all(len(r) > limits.heavy_bytes for r in rosters)

    async def main(host, port):
        # both processes convert an NPC first (a new process's first conversion fills caches)
        await load(host, port, [quick.replace(b"No. 1 ", b"No. %d " % i) for i in (2, 3)], 2)
        # six rosters of 60 NPCs (about a second of one core each), then one NPC
        long = [asyncio.ensure_future(load(host, port, [r], 1)) for r in rosters]
        await asyncio.sleep(0.5)
        t0 = time.perf_counter()
        (_, status, data), = await load(host, port, [quick], 1)
        took = time.perf_counter() - t0
        busy = sum(not t.done() for t in long)
        for t in long:
            t.cancel()
        return status, data, took, busy

    with running(limits=limits) as (host, port):
        status, data, took, busy = asyncio.run(main(host, port))
    assert status == 200 and "Malloy" in json.loads(data)["sheet"]
    # the long ones still at work; the quick one answered (behind them it would wait seconds)
    assert busy >= 3 and took < 2.5, (busy, took)


def _wait_ready(pool, seconds=60):
    deadline = time.monotonic() + seconds
    while pool.state()["ready"] < pool.state()["processes"]:
        assert time.monotonic() < deadline
        time.sleep(0.05)


def _malloy(i, **extra):
    return json.dumps({"document": f"No. {i} " + MALLOY.read_text(), "to": "gurps", "format": "md", **extra}).encode()


def test_a_quick_request_in_the_pipe_of_a_stuck_process_is_answered_by_another_and_the_stuck_one_ends_at_the_budget():
    # the general process takes a quick request that then hangs; the next quick request is
    # put in its pipe behind it (ConversionPool.DEPTH). Once the first has run SLOW seconds
    # the second goes back to the queue and the quick process answers it; the first ends
    # with the time-budget line, its process is replaced, and the next request is served
    hang = ("def convert(req):\n    import time\n    if req.filename == 'hang.txt':\n        time.sleep(60)\n"
            "    if req.filename == 'nap.txt':\n        time.sleep(1.5)\n    return real(req)")
    limits = serve.Limits(workers=1, time_limit=8.0, worker_argv=_worker_code(hang))
    app = serve.create_app(limits=limits)

    async def warm(host, port):
        # a new process's first conversion fills its caches (seconds on a loaded machine):
        # the quick process converts one first, while the general one naps past SLOW
        nap = asyncio.ensure_future(load(host, port, [_malloy(-1, filename="nap.txt")], 1))
        await asyncio.sleep(0.2)
        await load(host, port, [_malloy(-2)], 1)
        await nap

    async def main(host, port):
        stuck = asyncio.ensure_future(load(host, port, [_malloy(1, filename="hang.txt")], 1))
        await asyncio.sleep(0.3)
        t0 = time.perf_counter()
        (_, status, data), = await load(host, port, [_malloy(2)], 1)
        took = time.perf_counter() - t0
        still = not stuck.done()
        (_, stuck_status, stuck_data), = await stuck
        return status, data, took, still, stuck_status, stuck_data

    with running(app=app, limits=limits) as (host, port):
        pool = app.state.xsys.pool
        _wait_ready(pool)
        pids = set(pool.state()["pids"])
        asyncio.run(warm(host, port))
        status, data, took, still, stuck_status, stuck_data = asyncio.run(main(host, port))
        assert status == 200 and json.loads(data)["sheet"] == serve.do_convert(
            serve.ConvertRequest(document="No. 2 " + MALLOY.read_text(), to="gurps", format="md")).sheet
        # answered once the hung one had run SLOW (1 s; it began 0.3 s before this one was
        # sent), long before the hung one ends at 8 s
        assert still and 0.6 < took < 4.0, (still, took)
        assert stuck_status == 503
        assert json.loads(stuck_data)["error"].startswith("request: over the time budget (expected an answer "
                                                          "within 8 s")
        _wait_ready(pool)
        assert len(set(pool.state()["pids"]) - pids) == 1  # the hung process was replaced
        (_, status, data), = asyncio.run(load(host, port, [_malloy(3)], 1))
        assert status == 200 and "No. 3" in json.loads(data)["sheet"]


def test_a_request_in_the_pipe_of_a_process_that_dies_is_converted_by_another():
    die = ("def convert(req):\n    if req.filename == 'die.txt':\n        import time; time.sleep(0.4); os._exit(3)\n"
           "    return real(req)")
    limits = serve.Limits(workers=1, worker_argv=_worker_code(die))
    app = serve.create_app(limits=limits)

    async def main(host, port):
        first = asyncio.ensure_future(load(host, port, [_malloy(1, filename="die.txt")], 1))
        await asyncio.sleep(0.1)
        second = await load(host, port, [_malloy(2)], 1)  # waits in the dying process's pipe
        return await first, second

    with running(app=app, limits=limits) as (host, port):
        pool = app.state.xsys.pool
        _wait_ready(pool)
        ((_, s1, d1),), ((_, s2, d2),) = asyncio.run(main(host, port))
    assert s1 == 500 and json.loads(d1)["error"] == ("internal error: the conversion process stopped (exit code 3) "
                                                     "while converting this request")
    assert s2 == 200 and json.loads(d2)["sheet"] == serve.do_convert(
        serve.ConvertRequest(document="No. 2 " + MALLOY.read_text(), to="gurps", format="md")).sheet


def test_the_conversion_endpoints_check_the_host_before_anything_is_converted():
    import http.client

    free = serve._bind("127.0.0.1", 0)
    port = free.getsockname()[1]
    free.close()
    app = serve.create_app(serve.local_hosts(port))
    with running(port=port, app=app) as (host, port):
        pool = app.state.xsys.pool
        for name, status in ((f"evil.example:{port}", 400), (f"localhost:{port}", 200)):
            before = pool.seq
            c = http.client.HTTPConnection(host, port, timeout=30)
            c.request("POST", "/api/convert", body=_malloy(5), headers={"Host": name, "Content-Type": "application/json"})
            r = c.getresponse()
            answer = json.loads(r.read())
            c.close()
            assert r.status == status, (name, answer)
            if status == 400:
                assert answer["error"] == ("request: Host: not this server's name (expected a name of this "
                                           "machine's loopback (127.0.0.1 or localhost, and the port), found "
                                           f"'evil.example:{port}')")
                assert pool.seq == before
            else:
                assert "No. 5" in answer["sheet"] and pool.seq == before + 1


def test_request_bodies_are_read_as_the_framework_read_them():
    # the conversion endpoints decode bodies themselves: each error line is the one the
    # framework's handlers gave (an empty body, which the framework answered "request:
    # 'data'", now says what it is)
    cases = [(b"", serve.ConvertRequest, "request body: Input data was truncated"),
             (b"{not json", serve.ConvertRequest, "request body: JSON is malformed: object keys must be strings (byte 1)"),
             (b'{"document": "x", "to": 5}', serve.ConvertRequest, "request: $.to: Expected `str`, got `int`"),
             (b'{"shot": {"bogus": 1}}', serve.CurveRequest, "request: $.shot: Object contains unknown field `bogus`"),
             (b"[" * 100_000 + b"]" * 100_000, serve.OddsRequest,
              "request body: nested too deeply (expected JSON of ordinary depth, found more levels of nesting than "
              "the decoder follows)")]
    for body, typ, line in cases:
        with pytest.raises(serve.BadRequest) as err:
            serve.decode_request(body, typ)
        assert err.value.line() == line
    req = serve.decode_request(b'{"document": "x", "to": "gurps", "from": "coc"}', serve.ConvertRequest)
    assert (req.document, req.to, req.from_) == ("x", "gurps", "coc")


# ---- slow clients and many connections ----------------------------------------------------

def _read_all(sock, limit=10.0):
    """Everything the server sends until it closes (or `limit` seconds pass)."""
    sock.settimeout(limit)
    chunks = []
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                break
            chunks.append(data)
    except (TimeoutError, OSError):
        pass
    return b"".join(chunks)


def test_half_sent_requests_are_answered_408_and_closed_at_the_request_timeout():
    import socket

    limits = serve.Limits(request_timeout=1.0)
    with running(limits=limits) as (host, port):
        socks = []
        for i in range(50):
            s = socket.create_connection((host, port), timeout=10)
            if i % 2:  # half a head
                s.sendall(f"POST /api/convert HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Ty".encode())
            else:  # a head and half of its body
                s.sendall(f"POST /api/convert HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
                          f"Content-Length: 1000\r\n\r\n{{\"document\": \"".encode())
            socks.append(s)
        t0 = time.monotonic()
        answers = [_read_all(s, 5.0) for s in socks]
        took = time.monotonic() - t0
        for s in socks:
            s.close()
        with urllib.request.urlopen(f"http://{host}:{port}/api/systems", timeout=10) as r:
            assert r.status == 200  # and the server still answers
    assert took < 4, took
    want = b'{"error": "request: not received in time (expected the whole request within 1 s of its first byte)"}'
    assert all(a.startswith(b"HTTP/1.1 408 ") and a.endswith(want) for a in answers), answers[:2]


FLOODED = """
import resource, sys
resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))
from xsys.conversions import serve, serve_main
try:
    serve_main.run("127.0.0.1", 0, lambda t: print(t, file=sys.stderr, flush=True), 1, serve.Limits(request_timeout=2.0))
except KeyboardInterrupt:
    pass
"""


def _get_retrying(url, seconds=5.0):
    """GET url, again while the answer is 503 (busy) for up to `seconds`: its status."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as r:
                return r.status
        except urllib.error.HTTPError as exc:
            if exc.code != 503 or time.monotonic() > deadline:
                return exc.code
        time.sleep(0.2)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="sets the server's descriptor limit")
def test_a_flood_of_connections_is_refused_not_fatal_and_told_once():
    import socket

    p = subprocess.Popen([sys.executable, "-c", FLOODED], stderr=subprocess.PIPE, text=True)
    socks = []
    try:
        line = p.stderr.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert m, line
        port = int(m.group(1))
        url = f"http://127.0.0.1:{port}/api/systems"
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url, timeout=5):
                    break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        # 400 idle connections, more than the 256 descriptors the server has: those over the
        # limit are refused, and once the others have been idle a moment they are closed to
        # make room for a new one: the server answers again within a second
        socks += [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(400)]
        t0 = time.monotonic()
        assert _get_retrying(url) == 200 and time.monotonic() - t0 < 5
        # 200 half-sent requests: the server holds what its descriptors allow and refuses the
        # rest at once (503); those it holds are answered 408 at the request timeout
        half = []
        for _ in range(200):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(b"GET /api/systems HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            half.append(s)
        socks += half
        answers = [_read_all(s, 6.0)[:12] for s in half]
        assert answers.count(b"HTTP/1.1 503") >= 200 - 128 and answers.count(b"HTTP/1.1 408") >= 50, answers
        assert set(answers) <= {b"HTTP/1.1 503", b"HTTP/1.1 408"}
        assert _get_retrying(url) == 200
        # 50 requests that are not HTTP, and 50 that ask for a WebSocket: each answered, none
        # a line of its own on the terminal
        for i in range(100):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(b"NOT HTTP AT ALL\r\n\r\n" if i % 2 else
                      b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n")
            socks.append(s)
            assert _read_all(s, 5.0)[:12] in (b"HTTP/1.1 400", b"HTTP/1.1 200"), i
    finally:
        for s in socks:
            s.close()
        p.send_signal(signal.SIGINT)
        try:
            p.wait(30)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    err = [x for x in p.stderr.read().splitlines() if x.strip()]
    assert len(err) <= 3, err[:10]  # told once, not once per connection
    assert all("overloaded" in x for x in err), err


def test_keep_alive_outlasts_the_idle_time_of_client_pools():
    from xsys.conversions import serve_net

    # a client that reuses a pooled connection the server is closing at that moment gets a
    # network error: the server keeps an idle connection longer than common pools do
    # (httpx 5 s, aiohttp 15 s, Go 90 s, Firefox 115 s)
    config = serve_net.server_config(serve.create_app(), serve.Limits())
    assert config.timeout_keep_alive == 130


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
                    assert [s["key"] for s in json.load(r)["systems"]] == SYSTEMS
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


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="counts conversion processes through /proc")
def test_xsys_serve_workers_are_conversion_processes_that_all_answer_and_stop_together():
    import http.client

    xsys = Path(sys.executable).parent / "xsys"
    # the front and its pool (with two workers and more the default is the pre-fork server,
    # tests/test_serve_prefork.py)
    p = subprocess.Popen([str(xsys), "serve", "--port", "0", "--workers", "2"], stderr=subprocess.PIPE, text=True,
                         env={**os.environ, "XSYS_SERVE_PREFORK": "0"})
    try:
        line = p.stderr.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/ \(2 conversion processes and one for quick requests;", line)
        assert m, line
        port = int(m.group(1))
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/systems", timeout=10) as r:
                    assert [s["key"] for s in json.load(r)["systems"]] == SYSTEMS
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.2)
        workers = [w for w in _children(p.pid) if b"worker_main" in Path(f"/proc/{w}/cmdline").read_bytes()]
        assert len(workers) == 3, workers  # two for any request, one for quick ones
        before = {w: _cpu_ticks(w) for w in workers}
        # 60 different NPCs, 12 at a time (the two general processes convert them), then two
        # long rosters (one for each) with 20 NPCs sent meanwhile (the third converts those):
        # every answer is right, and every process converted some
        docs = [f"No. {i} " + MALLOY.read_text() for i in range(80)]
        bodies = [json.dumps({"document": d, "to": "gurps", "format": "md"}).encode() for d in docs]
        rosters = [json.dumps({"document": _roster(60, k), "to": "gurps", "format": "json"}).encode() for k in (7, 8)]

        async def main():
            out = await load("127.0.0.1", port, bodies[:60], concurrency=12)
            long = asyncio.ensure_future(load("127.0.0.1", port, rosters, concurrency=2))
            await asyncio.sleep(0.3)
            out += await load("127.0.0.1", port, bodies[60:], concurrency=1)
            return out, await long

        out, long = asyncio.run(main())
        for d, (_, status, data) in zip(docs, out):
            assert status == 200 and json.loads(data)["sheet"] == serve.do_convert(
                serve.ConvertRequest(document=d, to="gurps", format="md")).sheet
        assert [status for _, status, _ in long] == [200, 200]
        assert all(_cpu_ticks(w) > before[w] for w in workers), (before, {w: _cpu_ticks(w) for w in workers})
        # the front answers only this machine's names
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

    free = serve._bind("127.0.0.1", 0)
    port = free.getsockname()[1]  # a free port to name in the hosts below
    free.close()
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
    from xsys.devtools import serve_bench

    r = serve_bench.bench(requests=12, concurrency=6, slow=3, in_process=5, check=3, fair=2, levels=(1,), rounds=2)
    assert r["wrong_answers"] == 0 and len(r["rounds"]) == 2 and r["ratio"] > 0 and r["cpu_ratio"] > 0
    assert all(x["in_process_per_s"] > 0 and x["served_per_s"] > 0 for x in r["rounds"])
    for pattern in ("pooled", "new_connection", "pooled_with_slow_clients"):
        assert r[pattern]["requests"] == 12 and r[pattern]["errors"] == 0 and r[pattern]["wrong"] == 0
    assert r["levels"][1]["requests"] == 50 and r["levels"][1]["median_ms"] > 0
    assert r["fairness"]["long_ok"] == 3 and r["fairness"]["quick_requests"] == 2
    assert r["memory_after"]["rss_mb"] > 0


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


def test_serve_bench_measures_the_fronts_own_cost():
    from xsys.devtools import serve_bench

    # conversion processes that convert nothing answer every request through the real front
    r = serve_bench.front_cost(requests=20, concurrency=5, workers=1, delay=0.001, rounds=2)
    assert [x["errors"] for x in r["rounds"]] == [0, 0]
    assert set(r["rounds"][0]) == {"per_s", "errors", "front_user_ms", "front_system_ms", "workers_ms"}


@pytest.mark.skipif(not hasattr(os, "fork") or not Path("/proc/self/stat").exists(), reason="forks, reads /proc")
def test_serve_bench_ceiling_serves_every_request_from_bare_processes():
    from xsys.devtools import serve_bench

    r = serve_bench.ceiling(rounds=1, concurrency=6, workers=2, in_process=3)
    assert len(r["rounds"]) == 1 and r["rounds"][0]["errors"] == 0
    assert r["rounds"][0]["served_per_s"] > 0 and r["rounds"][0]["in_process_per_s"] > 0
