"""A document of a system whose rulebook prints lengths in yards (nWoD, coc7) writes them in
yards where the length is a whole number of them: a GM read "base_range: 45.72 m" in the YAML
where the Markdown sheet said 50 yd. The same length either way: it reads back exactly, and the
document's digest (of the lengths in metres) still says it is unedited."""

from __future__ import annotations

from pathlib import Path

import yaml

from xsys.conversions import api
from xsys.conversions.documents import lengths_in as _lengths_in
from xsys.core.units import Length

ROOT = Path(__file__).resolve().parent.parent


def test_nwod_and_coc7_documents_write_yards():
    nwod = yaml.safe_load(api.dump(api.convert(api.load(ROOT / "fixtures/gurps/npcs/soldier.yaml"), "nwod",
                                               fresh=True, trace=False), "yaml"))
    assert [w["ranges"] for w in nwod["weapons"]][0] == ["150 yd", "300 yd", "600 yd"]
    coc7 = yaml.safe_load(api.dump(api.convert(api.load(ROOT / "fixtures/coc/npcs/hunter_rifle.yaml"), "coc7",
                                               fresh=True, trace=False), "yaml"))
    assert coc7["weapons"][0]["base_range"] == "110 yd"
    # a system that prints metres keeps metres
    coc = yaml.safe_load(api.dump(api.convert(api.load(ROOT / "fixtures/coc/npcs/hunter_rifle.yaml"), "coc",
                                              trace=False), "yaml"))
    assert coc["weapons"][0]["base_range"].endswith(" m")


def test_the_written_document_reads_back_as_the_same_document():
    conv = api.convert(api.load(ROOT / "fixtures/gurps/npcs/soldier.yaml"), "nwod", fresh=True, trace=False)
    first = yaml.safe_load(api.dump(conv, "yaml"))
    again = api.convert(api.from_plain(first), "nwod", trace=False)
    assert again.document == conv.document  # 150 yd is the 137.16 m it was
    second = yaml.safe_load(api.dump(again, "yaml"))
    assert {k: v for k, v in second.items() if k != "xsys"} == {k: v for k, v in first.items() if k != "xsys"}
    assert second["xsys"]["digest"] == first["xsys"]["digest"]


def test_only_a_whole_number_of_yards_is_written_in_yards():
    assert _lengths_in(Length(45.72), "45.72 m", "yd") == "50 yd"
    assert _lengths_in(Length(10.0), "10 m", "yd") == "10 m"  # 10.936 yd: exact in metres
