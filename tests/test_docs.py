"""The user guide shows real output: regenerating it changes nothing."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_user_guide_is_up_to_date():
    r = subprocess.run([sys.executable, str(ROOT / "docs" / "make_user_guide.py"), "--check"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr + r.stdout


def test_readme_commands_name_real_files():
    text = (ROOT / "README.md").read_text()
    for path in ("fixtures/coc/scenarios/speakeasy_raid.yaml", "fixtures/neutral/shots/pistol_range_practice.yaml",
                 "docs/img/pistol-distance.png", "docs/troubleshooting.md", "docs/user-guide.md",
                 "docs/benchmarks.md", "docs/development.md"):
        assert path in text and (ROOT / path).exists(), path


# ---- the README is for users ------------------------------------------------------------------

README = ROOT / "README.md"
COMMAND_1 = ('python3 -m venv .venv && .venv/bin/pip install -q -U --upgrade-strategy eager -e ".[test,plot]" && '
             ".venv/bin/xsys convert fixtures/coc/scenarios/speakeasy_raid.yaml --to gurps --format md --explain")
COMMAND_2 = ".venv/bin/python -m pytest"


def _section(text: str, heading: str) -> str:
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    while end != -1 and text.count("```", start, end) % 2:  # a "## " inside a code block is no heading
        end = text.find("\n## ", end + 1)
    return text[start:end if end != -1 else len(text)]


def test_readme_two_commands_are_the_two_a_newcomer_runs():
    section = _section(README.read_text(), "Two commands")
    blocks = re.findall(r"```sh\n(.*?)\n```", section, flags=re.S)
    assert blocks[:2] == [COMMAND_1, COMMAND_2]  # then what else to try


def test_readme_quotes_what_command_1_prints(capsys):
    from helpers import run_main

    section = _section(README.read_text(), "Two commands")
    quote = re.search(r"```markdown\n(.*?)\n```", section, flags=re.S).group(1)
    args = COMMAND_1.rsplit("&& .venv/bin/xsys ", 1)[1].split()
    code, out, err = run_main(capsys, *args)
    assert code == 0, err
    # the quote is the output with parts left out where it says "...": every other part is there,
    # line for line, in this order
    pos = 0
    for part in re.split(r"^\.\.\.$\n?", quote + "\n", flags=re.M):
        if not part.strip():
            continue
        found = out.find(part.strip("\n"), pos)
        assert found >= 0, f"not in what command 1 prints (or not in this order):\n{part}"
        pos = found + len(part.strip("\n"))


def test_readme_carries_no_developer_notes():
    text = README.read_text()
    assert not re.search(r"\bissues? \d+|#\d{1,4}\b", text, flags=re.I)
    assert "DESIGN" not in text and "shared/" not in text and "not shipped" not in text
    assert "## Benchmarks" not in text and "xsys.devtools.bench" not in text
    # the benchmark notes and the developer notes are in docs/, linked from the README
    for doc in ("docs/benchmarks.md", "docs/development.md"):
        assert f"]({doc})" in text and (ROOT / doc).exists(), doc
    bench = (ROOT / "docs" / "benchmarks.md").read_text()
    assert "python -m xsys.devtools.bench" in bench and "serve_bench" in bench


def test_relative_links_in_the_readme_and_docs_lead_somewhere():
    for page in [README, *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text()):
            if "://" in target or target.startswith("mailto:"):
                continue
            assert (page.parent / target).exists(), f"{page.relative_to(ROOT)}: {target}"
