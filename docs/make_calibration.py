"""Regenerate docs/calibration.md's measured table: python docs/make_calibration.py"""

from pathlib import Path

from xsys.devtools import calibration

HERE = Path(__file__).parent
MARK = "<!-- generated table below: python docs/make_calibration.py -->\n"

if __name__ == "__main__":
    doc = HERE / "calibration.md"
    head = doc.read_text(encoding="utf-8").split(MARK)[0]
    doc.write_text(head + MARK + "\n" + calibration.markdown(calibration.table()) + "\n### worked examples\n\n"
                   + "Each converted with `--fresh` (the remembered source ignored).\n\n"
                   + calibration.examples_markdown(calibration.examples(HERE.parent))
                   + "\n### close combat\n\n"
                   + "CoC close-combat skills converted with `--fresh` into every other system (nWoD writes no skill "
                   + "at 0 dots; the Polish rules have no close combat).\n\n"
                   + calibration.close_combat_markdown(calibration.close_combat_rows(HERE.parent))
                   + "\n### skills with no battery (the published competence scale)\n\n"
                   + "Each system's tier typical levels at median attributes, converted into every other system "
                   + "that has the skill (±: tiers away from the source's).\n\n"
                   + calibration.standing_markdown(calibration.standing_table()), encoding="utf-8")
