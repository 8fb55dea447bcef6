"""A bow or a crossbow on a GURPS sheet: no neutral weapon class holds one (the five rule texts are firearms
rules), so its line rides in the carried block for a GURPS sheet and is said, never read as a gun (a crossbow
with Acc 4 had become a five-shot rifle, fired at an untrained 25% in CoC)."""

from __future__ import annotations

from pathlib import Path

import pytest

from xsys.conversions import api
from xsys.core import codec
from xsys.core.errors import InputError
from xsys.core.model import bow_of

JOE = ("Joe the Crossbowman\nST: 11 [10]; DX: 13 [30]; IQ: 10 [0]; HT: 11 [10]\n"
       "Skills: Crossbow-13 [1]; Knife-13 [1]; Shortsword-14 [4]\n"
       "Gear: crossbow (1d+3 imp, SS 12, Acc 4), large knife (1d-1 imp)\n")


def test_the_words_of_a_bow():
    assert [bow_of(w) for w in ("Crossbow", "heavy crossbow", "Longbow", "Composite Bow", "Armbrust", "クロスボウ",
                                "弓", "Bowie knife", "elbow", "Guns (Rifle)")] == \
        ["crossbow", "crossbow", "bow", "bow", "crossbow", "crossbow", "bow", None, None, None]


def test_a_crossbow_is_kept_for_gurps_and_said_not_read_as_a_rifle(tmp_path: Path):
    src = tmp_path / "joe.txt"
    src.write_text(JOE, encoding="utf-8")
    conv = api.convert(src, "coc", fresh=True)
    assert [w.name for w in conv.document.weapons] == []  # no five-shot rifle
    said = [(x.kind, x.rule) for x in conv.losses if x.message.startswith(
        "crossbow (no skill): a crossbow, which no neutral weapon class holds")]
    assert said == [("kept-verbatim", "gurps.weapon-stats")]
    assert not any("read as a rifle" in x.message for x in conv.losses)
    plain = codec.to_builtins(conv.document)
    assert plain["carried"]["gurps"]["weapons"]["crossbow"]["damage"] == "1d+3"
    home = api.convert(api.from_plain(plain, "joe-coc.yaml"), "gurps", fresh=True).document
    line = next(w for w in home.weapons if w.name == "crossbow")
    assert (line.damage, line.type, line.SS, line.Acc) == ("1d+3", "imp", 12, 4)
    assert home.skills["Crossbow"] == 13


def test_a_shot_with_a_crossbow_is_refused_with_a_clear_message():
    shot = {"system": "gurps", "kind": "shot", "level": 13, "distance": "20 m",
            "weapon": {"name": "Heavy crossbow", "skill": "Crossbow", "damage": "1d+3", "type": "imp", "Acc": 4}}
    with pytest.raises(InputError) as err:
        api.convert(api.from_plain(shot, "shot.yaml"), "coc")
    assert "a bow or a crossbow" in str(err.value) and "$.weapon" in str(err.value)


def test_a_line_fired_with_a_gun_skill_is_a_gun_whatever_its_name():
    from xsys.plugins.gurps.native import GurpsWeapon
    from xsys.plugins.gurps.system import Gurps

    g = Gurps()
    assert g._bow(GurpsWeapon(name="bow-like", skill="Guns (Rifle)", damage="2d", Acc=7, SS=12)) is None
    assert g._bow(GurpsWeapon(name="Old Betsy", skill="Crossbow", damage="1d+3", Acc=4)) == "crossbow"
    assert g._bow(GurpsWeapon(name="longbow", damage="1d+2", Acc=3)) == "bow"
