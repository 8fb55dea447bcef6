"""The page of `xsys serve` in a real headless Chromium (Debian's chromium and
chromium-driver, driven by selenium): paste a text stat block, convert it to every system
and read the same numbers as `xsys convert --format md`; the odds view and its chart; an
error shown as the CLI's line. Screenshots go to the test's tmp dir (and to
$XSYS_SCREENSHOT_DIR when set: that is how docs/img/serve*.png are made)."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from helpers import run_main
from xsys.conversions import api
from xsys.conversions.inline import inline_shot
from xsys.devtools.serve_bench import running
from xsys.core.registry import default_registry

ROOT = Path(__file__).resolve().parent.parent
MALLOY = ROOT / "fixtures" / "text" / "malloy-coc6.txt"
NPC_YAML = ROOT / "fixtures" / "coc" / "npcs" / "investigator_38.yaml"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")

pytestmark = pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None,
                                reason="Debian's chromium and chromium-driver are not installed "
                                       "(apt-get install chromium chromium-driver; .ci/run installs them)")


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000", "--disable-extensions", "--no-first-run"):
        opts.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=opts)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def page(browser):
    with running() as (host, port):
        browser.get(f"http://{host}:{port}/")
        wait(browser, lambda d: d.execute_script("return document.getElementById('to').options.length") > 0)
        yield browser


def wait(driver, cond, timeout=60):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(cond)


def shots(driver, tmp_path, name):
    driver.save_screenshot(str(tmp_path / f"{name}.png"))
    out = os.environ.get("XSYS_SCREENSHOT_DIR")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        shutil.copy(tmp_path / f"{name}.png", Path(out) / f"{name}.png")


def numbers(text: str) -> list[str]:
    return re.findall(r"\d+(?:\.\d+)?", text)


def md_numbers(markdown: str) -> list[str]:
    """The numbers a reader sees in the Markdown sheet (character references are not text)."""
    return numbers(re.sub(r"&#\d+;", "", markdown))


def paste(driver, text):
    from selenium.webdriver.common.by import By

    area = driver.find_element(By.ID, "document")
    area.clear()
    area.send_keys(text)
    assert area.get_attribute("value").strip() == text.strip()


def choose(driver, select_id, value):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element(By.ID, select_id)).select_by_value(value)


def convert(driver):
    from selenium.webdriver.common.by import By

    driver.execute_script("document.getElementById('convert-result').dataset.system = ''")
    driver.find_element(By.ID, "convert").click()
    wait(driver, lambda d: d.execute_script(
        "const r = document.getElementById('convert-result'), e = document.getElementById('convert-error');"
        "return (!r.classList.contains('hidden') && r.dataset.system) || !e.classList.contains('hidden')"))


def test_paste_a_text_block_and_convert_to_every_system(page, capsys, tmp_path):
    from selenium.webdriver.common.by import By

    page.find_element(By.ID, "tab-convert").click()
    paste(page, MALLOY.read_text())
    choose(page, "format", "md")
    for key in default_registry().keys():
        choose(page, "to", key)
        convert(page)
        assert page.find_element(By.ID, "convert-error").get_attribute("class").split().count("hidden") == 1
        assert page.find_element(By.ID, "convert-result").get_attribute("data-system") == key
        code, out, _ = run_main(capsys, "convert", MALLOY, "--to", key, "--format", "md", "-q")
        assert code == 0
        sheet = page.find_element(By.ID, "sheet")
        assert sheet.find_element(By.TAG_NAME, "h1").text == out.splitlines()[0][2:].replace("\\", "")
        assert "Detective Sergeant Frank Malloy" in sheet.text
        # the sheet as the page shows it: the CLI's sheet, number for number
        assert numbers(sheet.text) == md_numbers(out), key
        assert "&amp;" not in sheet.text and "\\" not in sheet.text
        losses = page.find_elements(By.CSS_SELECTOR, "#losses li")
        assert losses and losses[0].text
        download = page.find_element(By.ID, "download")
        assert download.get_attribute("download") == f"Detective-Sergeant-Frank-Malloy.{key}.md"
        assert download.get_attribute("href").startswith("blob:")
        if key == "gurps":
            shots(page, tmp_path, "serve-convert")


def test_a_dropped_file_converts_to_yaml(page, tmp_path):
    from selenium.webdriver.common.by import By

    page.find_element(By.ID, "tab-convert").click()
    page.find_element(By.ID, "file").send_keys(str(NPC_YAML))
    wait(page, lambda d: d.find_element(By.ID, "filename").text == f"file: {NPC_YAML.name}")
    choose(page, "to", "nwod")
    choose(page, "format", "yaml")
    convert(page)
    assert page.find_element(By.ID, "download").get_attribute("download") == "investigator_38.nwod.yaml"
    out = page.execute_script("return document.getElementById('output').textContent")
    assert out.startswith("system: nwod\nkind: npc\n")


def test_odds_view_and_chart(page, tmp_path):
    from selenium.webdriver.common.by import By

    page.find_element(By.ID, "tab-odds").click()
    assert page.find_element(By.ID, "view-odds").is_displayed()
    assert not page.find_element(By.ID, "view-convert").is_displayed()
    for field, value in (("distance", "30m"), ("light", "full-moon"), ("skill", "0.6")):
        box = page.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    page.find_element(By.ID, "odds").click()
    keys = default_registry().keys()
    wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#odds-table tbody tr")) == len(keys))
    want = {r.system: r for r in api.odds(inline_shot(distance="30m", light="full-moon", skill=0.6))}
    for row in page.find_elements(By.CSS_SELECTOR, "#odds-table tbody tr"):
        r = want[row.get_attribute("data-system")]
        assert row.find_element(By.CSS_SELECTOR, ".chance").text.startswith(f"{float(r.check.chance) * 100:.2f}%")
        mods = row.find_elements(By.CSS_SELECTOR, "ul.mods li")
        for m in r.check.modifiers:
            assert any(f"[{m.rule}; {m.source}]" in li.text for li in mods)
    # the chart: the SVG of `xsys curve`, drawn
    wait(page, lambda d: d.execute_script(
        "const i = document.getElementById('chart-img'); return i && i.complete && i.naturalWidth > 0"))
    assert "vs distance" in page.find_element(By.ID, "chart-img").get_attribute("alt")
    choose(page, "axis", "light")
    assert page.find_element(By.ID, "sweep-from").get_attribute("value") == "100000lx"
    page.execute_script("document.getElementById('chart').replaceChildren()")
    page.find_element(By.ID, "chart-go").click()
    wait(page, lambda d: d.execute_script(
        "const i = document.getElementById('chart-img'); return i && i.complete && i.naturalWidth > 0"))
    assert "vs light" in page.find_element(By.ID, "chart-img").get_attribute("alt")
    size = page.get_window_size()
    page.set_window_size(1400, 1900)  # the table and the chart in one picture
    page.execute_script("window.scrollTo(0, 0)")
    shots(page, tmp_path, "serve-odds")
    page.set_window_size(size["width"], size["height"])
    assert (tmp_path / "serve-odds.png").stat().st_size > 10_000
    # (an answer with an error status is logged as a "network" entry: test_bad_input made one)
    logs = [e for e in page.get_log("browser") if e.get("level") == "SEVERE" and e.get("source") != "network"]
    assert not logs, logs  # no script error, no content-security-policy violation


def test_bad_input_shows_the_cli_line(page, capsys, tmp_path):
    from selenium.webdriver.common.by import By

    page.find_element(By.ID, "tab-convert").click()
    paste(page, "system: coc\nkind: npc\nname: [unclosed\n")
    choose(page, "to", "gurps")
    convert(page)
    err = page.find_element(By.ID, "convert-error")
    assert err.is_displayed() and err.text.startswith("<pasted>: malformed YAML")
    assert not page.find_element(By.ID, "convert-result").is_displayed()


def test_a_call_that_fails_on_the_network_or_finds_the_server_busy_is_sent_once_more(page):
    from selenium.webdriver.common.by import By

    # the browser's fetch fails once on the network (a kept-alive connection closed as it was
    # reused), then the server answers 503 with Retry-After once: the page asks again each time
    page.execute_script("""
        window.realFetch = window.fetch; window.calls = [];
        window.fetch = function (path, init) {
          window.calls.push(path);
          if (window.calls.length === 1) return Promise.reject(new TypeError("Failed to fetch"));
          if (window.calls.length === 2)
            return Promise.resolve(new Response('{"error": "request: server busy"}',
                                   {status: 503, headers: {"Retry-After": "1", "Content-Type": "application/json"}}));
          return window.realFetch.call(this, path, init);
        };""")
    try:
        page.find_element(By.ID, "tab-convert").click()
        paste(page, MALLOY.read_text())
        choose(page, "to", "nwod")
        choose(page, "format", "md")
        page.execute_script("document.getElementById('convert-error').classList.add('hidden')")
        convert(page)
        assert page.find_element(By.ID, "convert-result").get_attribute("data-system") == "nwod"
        assert not page.find_element(By.ID, "convert-error").is_displayed()
        assert page.execute_script("return window.calls") == ["/api/convert"] * 3
        # an answer that says the request itself took too long (503 without Retry-After) is not
        # asked again: it is shown
        page.execute_script("""
            window.calls = [];
            window.fetch = function (path, init) {
              window.calls.push(path);
              return Promise.resolve(new Response('{"error": "request: over the time budget"}',
                                     {status: 503, headers: {"Content-Type": "application/json"}}));
            };""")
        page.execute_script("document.getElementById('convert-error').classList.add('hidden')")
        convert(page)
        assert page.find_element(By.ID, "convert-error").text == "request: over the time budget"
        assert page.execute_script("return window.calls") == ["/api/convert"]
    finally:
        page.execute_script("window.fetch = window.realFetch")
