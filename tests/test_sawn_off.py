"""A sawn-off shotgun is no full shotgun, and a GURPS weapon line has the columns a 3e weapon
table has: a shotgun under 0.66 m overall (core.vocab.is_sawn_off) gets nWoD's Shotgun,
Sawn-off line (half the Shotgun line's ranges) and GURPS's sawn-off line (Acc 3, SS 10, 1/2D
10, Max 100); every GURPS gun line states 1/2D and Max, printed in the table's own order."""

from __future__ import annotations

from pathlib import Path

import pytest

from xsys.conversions import api
from xsys.core.vocab import is_sawn_off

ROOT = Path(__file__).resolve().parent.parent


def _neutral(weapon: dict) -> dict:
    return {"system": "neutral", "kind": "npc", "name": "Holder", "characteristics": {"dexterity": 0.5},
            "skills": {"shotgun": 0.5}, "weapons": [weapon]}


SHORT = {"name": "Cut-down 12-gauge", "weapon_class": "shotgun", "length": "0.5 m", "calibre": "12 gauge",
         "muzzle_energy": "2000 J", "capacity": 2}
LONG = {**SHORT, "name": "Field 12-gauge", "length": "1.1 m"}


def test_the_line_between_a_shotgun_and_a_sawn_off():
    assert is_sawn_off("shotgun", 0.5) and not is_sawn_off("shotgun", 1.1)
    assert is_sawn_off("shotgun", None, "Sawed-off shotgun") and is_sawn_off("shotgun", None, "sawn off 12g")
    assert not is_sawn_off("shotgun", None, "Remington 870") and not is_sawn_off("rifle", 0.5)


def test_a_sawn_off_is_its_own_line_in_nwod():
    short = api.convert(_neutral(SHORT), "nwod").document.weapons[0]
    full = api.convert(_neutral(LONG), "nwod").document.weapons[0]
    assert (short.type, full.type) == ("Shotgun, Sawn-off", "Shotgun")
    assert [float(r.to("yd")) for r in short.ranges] == pytest.approx([10, 20, 40])
    assert [float(r.to("yd")) for r in full.ranges] == pytest.approx([20, 40, 80])
    assert short.damage == full.damage == 4  # the same shells: the damage is kept


def test_a_sawn_off_is_its_own_line_in_gurps():
    short = api.convert(_neutral(SHORT), "gurps").document.weapons[0]
    full = api.convert(_neutral(LONG), "gurps").document.weapons[0]
    assert (short.Acc, short.SS, short.half_D, short.Max) == (3, 10, 10, 100)
    assert (full.Acc, full.SS, full.half_D, full.Max) == (5, 12, 25, 150)
    assert short.damage == full.damage == "4d"


@pytest.mark.parametrize("to", ["gurps", "nwod"])
def test_the_catalog_sawn_off_from_a_polish_sheet(to):
    conv = api.convert(ROOT / "fixtures/pl-trudnosc/npcs/bandyta.yaml", to, fresh=True)
    line = conv.document.weapons[0]
    if to == "nwod":
        assert line.type == "Shotgun, Sawn-off" and line.clip == 2
    else:
        assert (line.Acc, line.half_D, line.Max) == (3, 10, 100)
        said = [x.message for x in conv.losses if x.rule == "gurps.weapon-stats"]
        assert any("1/2D 10 m, Max 100 m (weapons.toml [class.sawn-off])" in m for m in said), said


def test_every_gun_on_a_gurps_sheet_has_its_reach():
    seen = 0
    for path in sorted((ROOT / "fixtures").glob("*/npcs/*.yaml")):
        for w in api.convert(path, "gurps", fresh=True, trace=False).document.weapons:
            if w.skill and w.skill.startswith("Guns"):
                seen += 1
                assert w.half_D and w.Max and w.half_D < w.Max, (path.name, w.name)
    assert seen >= 20


def test_a_gurps_weapon_table_reads_in_a_3e_tables_order():
    text = api.dump(api.convert(ROOT / "fixtures/coc/npcs/gangster_tommy_gun.yaml", "gurps", fresh=True), "md")
    header = next(line for line in text.decode().splitlines() if line.startswith("| name | damage"))
    assert header.startswith("| name | damage | type | SS | Acc | 1/2D | Max | RoF | Shots | ST |")
    assert "*1/2D*: metres" in text.decode()


def test_a_stated_reach_on_a_gurps_line_is_kept():
    line = {"name": "Custom carbine", "skill": "Guns (Rifle)", "damage": "4d", "Acc": 8, "1/2D": 250, "Max": 1800}
    npc = {"system": "gurps", "kind": "npc", "name": "Holder", "weapons": [line]}
    conv = api.convert(npc, "gurps")
    w = conv.document.weapons[0]
    assert (w.half_D, w.Max) == (250, 1800)


def test_a_text_blocks_reach_in_yards_or_metres():
    from xsys.plugins.textblock.reader import load as read_text

    doc = read_text("Joe\nST 10, DX 12, IQ 10, HT 10\n"
                    "Weapons: Webley .455 revolver (2d, Acc 2, 1/2D 160 yd, Max 1,800 yds, Shots 6)\n".encode())
    (w,) = doc["weapons"]
    assert (w["1/2D"], w["Max"]) == (146, 1646)  # yards are 0.9144 m
    said = doc["xsys"]["read"]["assumed"]
    assert any("1/2D 160 yd = 146 m" in a for a in said), said
    # the sheet's own writing states metres and reads back without a word
    conv = api.convert(ROOT / "fixtures/gurps/npcs/policeman.yaml", "gurps", fmt=None)
    text = api.dump(conv, "txt").decode()
    assert "1/2D 150 m, Max 1850 m" in text
