"""The user guide shows real output: regenerating it changes nothing."""

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
                 "docs/img/pistol-distance.png", "docs/troubleshooting.md", "docs/user-guide.md"):
        assert path in text and (ROOT / path).exists(), path
