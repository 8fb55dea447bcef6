"""A thrown blade on a GURPS sheet, as a GURPS GM writes it: a hatchet, a knife or a spear is
thrown with its own skill (Axe, Knife, Spear Throwing), does the thrower's swing or thrust
plus the weapon's add, and reaches multiples of his ST (weapons.toml [thrown.*], assumed); it
is not a bullet of its muzzle energy ("Thrown hatchet 1d+1 cr, Throwing, SS blank" before).
Read back, the blade crosses as its class's thrown blade (core.model.THROWN_BLADE_ENERGY), so
a hatchet that passes a GURPS sheet is the same hatchet in CoC after it."""

from __future__ import annotations

from pathlib import Path

import pytest

from xsys.conversions import api
from xsys.core import codec
from xsys.core.model import Shooter, Weapon, standard_shot
from xsys.core.registry import default_registry
from xsys.core.units import Energy
from xsys.plugins.gurps.rules import thrust_swing, dice_text

ROOT = Path(__file__).resolve().parents[1]
ROSA = ROOT / "fixtures/corpus/dholes-house/rosa-delgado-unknown-version.json"
ANNIE = ROOT / "fixtures/corpus/foundry-coc7/annie-callahan-ranges-with-units.json"


def _line(doc, name):
    return next(w for w in doc.weapons if w.name == name)


def _messages(conv) -> list[str]:
    return [f"{loss.path}: {loss.message} [{loss.rule}]" for loss in conv.losses]


def test_a_thrown_hatchet_is_thrown_with_axe_throwing_at_the_throwers_swing():
    conv = api.convert(ROSA, "gurps", fresh=True)
    doc = conv.document
    line = _line(doc, "Thrown hatchet")
    assert doc.ST == 13
    _, sw = thrust_swing(13)
    assert (line.skill, line.damage, line.type) == ("Axe Throwing", dice_text(sw), "cut") == \
        ("Axe Throwing", "2d-1", "cut")
    assert (line.Acc, line.SS, line.half_D, line.Max, line.Shots) == (2, 10, 20, 33, 1)  # ST x1.5, x2.5
    # the skill beside the line: her one throw competence, as her Throwing
    assert doc.skills["Axe Throwing"] == doc.skills["Throwing"] == 10
    said = "\n".join(_messages(conv))
    assert "a thrown axe is thrown with Axe Throwing, its damage the thrower's" in said
    assert "Axe Throwing 10 for the Thrown hatchet line: the NPC's throw competence 0.400" in said
    # no reading back of a muzzle energy the line never had
    assert "muzzle_energy" not in said


def test_a_throwing_knife_is_thrust_impaling_with_knife_throwing():
    doc = api.convert(ANNIE, "gurps", fresh=True).document
    line = _line(doc, "Throwing knife")
    thr, _ = thrust_swing(doc.ST)
    assert (line.skill, line.damage, line.type, line.Acc, line.SS) == ("Knife Throwing", dice_text(thr), "imp", 0, 12)
    assert line.half_D is None and line.Max == doc.ST + 5
    assert doc.skills["Knife Throwing"] == doc.skills["Throwing"]


def test_an_npc_who_throws_only_stones_has_no_blade_throwing_skill():
    neutral = {"system": "neutral", "kind": "npc", "name": "Stone thrower",
               "skills": {"throw": 0.6}, "weapons": [{"name": "Rock", "weapon_class": "thrown",
                                                     "muzzle_energy": "60 J", "sights": "none"}]}
    doc = api.convert(api.from_plain(neutral, "<stone>"), "gurps", fresh=True).document
    assert "Throwing" in doc.skills
    assert not {"Axe Throwing", "Knife Throwing", "Spear Throwing"} & set(doc.skills)
    assert _line(doc, "Rock").skill == "Throwing"


def _gurps_thrower(axe: int | None, throwing: int | None = 10, damage: str = "2d-1") -> dict:
    skills = {k: v for k, v in (("Throwing", throwing), ("Axe Throwing", axe)) if v is not None}
    return {"system": "gurps", "kind": "npc", "name": "Axeman", "ST": 13, "DX": 12, "IQ": 10, "HT": 11,
            "skills": skills,
            "weapons": [{"name": "Throwing axe", "skill": "Axe Throwing", "damage": damage, "type": "cut",
                         "Acc": 2, "SS": 10, "1/2D": 20, "Max": 33, "Shots": 1}]}


def test_a_gurps_thrown_axe_is_the_same_hatchet_in_coc():
    """2d-1 is this thrower's swing: the weapon crosses as the class's thrown axe (130 J), the
    CoC hatchet's 1d6 (1D6 in 7th edition), not a 210 J bullet (1d8)."""
    src = api.from_plain(_gurps_thrower(axe=10), "<axeman>")
    for to, dice in (("coc", "1d6"), ("coc7", "1D6")):
        conv = api.convert(src, to, fresh=True)
        assert _line(conv.document, "Throwing axe").damage == dice, to
        assert any("a thrown axe's damage is the thrower's (2d-1 at ST 13): the weapon crosses with its class's "
                   "(a thrown axe: 130 J)" in m for m in _messages(conv))
    # a line above its row hits harder: 2d+1 at ST 13 is two above the swing
    hard = api.convert(api.from_plain(_gurps_thrower(axe=10, damage="2d+1"), "<axeman>"), "neutral", fresh=True)
    assert float(_line(hard.document, "Throwing axe").muzzle_energy) > 130


def test_a_better_axe_throwing_than_throwing_crosses_and_throwing_comes_home():
    src = api.from_plain(_gurps_thrower(axe=14, throwing=10), "<axeman>")
    conv = api.convert(src, "coc", fresh=True)
    said = "\n".join(_messages(conv))
    assert "Throwing 10 and Axe Throwing 14 are both the neutral throw: Axe Throwing 14 crosses; Throwing 10 is " \
           "kept for the way back" in said
    home = api.convert(api.from_plain(codec.to_builtins(conv.document), "<coc>"), "gurps", fresh=True).document
    assert home.skills["Throwing"] == 10 and home.skills["Axe Throwing"] == 14
    assert _line(home, "Throwing axe").skill == "Axe Throwing"


def test_the_same_levels_need_no_carried_line():
    """Axe Throwing at the level its sheet writes from Throwing's competence is not carried:
    the sheet writes it again beside its line."""
    conv = api.convert(api.from_plain(_gurps_thrower(axe=10, throwing=10), "<axeman>"), "nwod", fresh=True)
    said = "\n".join(_messages(conv))
    assert "Axe Throwing" not in said.replace("Throwing axe", "")
    home = api.convert(api.from_plain(codec.to_builtins(conv.document), "<nwod>"), "gurps", fresh=True).document
    assert home.skills.get("Axe Throwing") == home.skills["Throwing"]
    assert not {"Knife Throwing", "Spear Throwing"} & set(home.skills)


def test_a_shot_with_a_thrown_blade_is_thrown_at_the_shooters_st():
    gurps = default_registry().system("gurps")
    hatchet = Weapon(name="Hatchet", weapon_class="thrown", muzzle_energy=Energy(130.0), sights="none")
    base = standard_shot("thrown", 0.5, weapon=hatchet)
    strong = base.__class__(**{**{f: getattr(base, f) for f in base.__struct_fields__},
                               "shooter": Shooter(skill=0.5, characteristics={"strength": 0.95})})
    shot = gurps.shot_from_neutral(strong).value
    _, sw = thrust_swing(shot.shooter_ST)
    assert shot.shooter_ST > 10 and shot.weapon.skill == "Axe Throwing" and shot.weapon.damage == dice_text(sw)
    assert shot.skill in (None, "Axe Throwing")
    plain = gurps.shot_from_neutral(base)
    assert plain.value.weapon.damage == dice_text(thrust_swing(10)[1])
    assert any("no thrower's ST is known, ST 10" in loss.message for loss in plain.losses)
    # its check is the same chance as the neutral shot's
    assert gurps.check_native(shot).chance == pytest.approx(float(gurps.check(strong).chance), abs=0.02)


def _row(md: str, name: str) -> dict[str, str]:
    lines = md.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"| {name} |"))
    head = next(lines[i] for i in range(at, -1, -1) if lines[i].startswith("| name |"))
    return dict(zip([c.strip() for c in head.strip("|").split("|")], [c.strip() for c in lines[at].strip("|").split("|")]))


def test_a_thrown_or_close_combat_row_prints_no_gun_columns():
    """System.sheet_blank: a CoC thrown hatchet has no burst, shots in the gun, malfunction,
    sights or ammunition on the sheet; an nWoD knife and hatchet no clip, chamber or autofire.
    The document keeps the values (a sheet is what the GM reads)."""
    for to, gone, kept in (("coc", ("burst", "capacity", "malfunction", "sights", "ammo"), ("damage", "base\\_range")),
                           ("coc7", ("capacity", "malfunction", "sights"), ("damage", "uses\\_per\\_round")),
                           ("nwod", ("clip", "chamber", "autofire"), ("damage", "ranges"))):
        conv = api.convert(ROSA, to, fresh=True)
        md = api.dump(conv, "md").decode()
        row = _row(md, "Thrown hatchet")
        assert all(row[c] == "" for c in gone) and all(row[c] for c in kept), (to, row)
        gun = _row(md, "Thompson M1928")
        assert all(gun[c] for c in gone if c != "chamber"), (to, gun)  # a gun's row keeps them
        assert _line(conv.document, "Thrown hatchet") is not None
    knife = _row(api.dump(api.convert(ROSA, "nwod", fresh=True), "md").decode(), "Trench knife")
    assert knife["clip"] == knife["chamber"] == knife["autofire"] == "" and knife["damage"] == "1"
    coc = api.convert(ROSA, "coc", fresh=True).document
    assert _line(coc, "Thrown hatchet").malfunction == 100  # still in the document


def test_an_nwod_thrown_blade_does_its_melee_chart_damage():
    """nwod.melee: a thrown knife is a Knife (damage 1), a hatchet a Hatchet (2), as in the hand;
    the knife was damage 0, a bullet of its 50 J. Read back, it is its class's blade again."""
    annie = api.convert(ANNIE, "nwod", fresh=True)
    assert _line(annie.document, "Throwing knife").damage == 1
    assert any("a thrown knife does the chart's Knife damage 1, not 0" in m for m in _messages(annie))
    rosa = api.convert(ROSA, "nwod", fresh=True)
    assert _line(rosa.document, "Thrown hatchet").damage == 2
    assert not any("muzzle_energy" in m for m in _messages(rosa))
    back = api.convert(api.from_plain(codec.to_builtins(rosa.document), "<nwod>"), "coc7", fresh=True).document
    assert _line(back, "Thrown hatchet").damage == "1D6"


def test_a_gun_fires_no_more_a_turn_than_it_holds_and_a_thrown_row_has_no_shots():
    """GURPS: Annie's two-barrelled Derringer is RoF 2 and her one-shot flare pistol RoF 1, not a
    pistol's 3~; a thrown line prints no Shots (the weapon is the one in the hand)."""
    conv = api.convert(ANNIE, "gurps", fresh=True)
    assert (_line(conv.document, "Derringer").RoF, _line(conv.document, "Flare pistol").RoF) == ("2", "1")
    assert any("Flare pistol: RoF 1, not the handgun's usual 3~: it holds 1" in m for m in _messages(conv))
    row = _row(api.dump(conv, "md").decode(), "Throwing knife")
    assert row["Shots"] == "" and row["skill"] == "Knife Throwing"


def test_a_melee_line_the_target_keeps_among_its_weapons_is_said_written():
    """An nWoD sheet keeps its close-combat lines among its weapons: the dock brute's Fists and
    Cargo hook are 'written on the nwod sheet as its own line', and the nWoD patrol officer's
    Nightstick on a GURPS sheet the same, not 'not expressible' beside a printed line."""
    brute = api.convert(ROOT / "fixtures/coc/npcs/dock_brute.yaml", "nwod", fresh=True)
    said = [m for m in _messages(brute) if "Fists" in m or "Cargo hook" in m]
    assert said and all("written on the nwod sheet as its own line" in m and "not expressible" not in m for m in said)
    patrol = api.convert(ROOT / "fixtures/nwod/npcs/patrol-officer.yaml", "gurps", fresh=True)
    night = [m for m in _messages(patrol) if "Nightstick" in m and "carried" in m]
    assert night and all("written on the gurps sheet as its own line" in m for m in night)


def test_a_smaller_thrown_blade_crosses_with_less_energy_on_the_ladder_s_law(tmp_path: Path):
    """A line whose dice are below its class's row at the thrower's ST (a small knife's 1d-2 where the row
    throws 1d-1 at ST 11) crosses with the class's energy scaled by the square of the two means, each
    counting a cut or a thrust as at least 1 (the damage ladder's energies rise as the mean damage squared):
    28.1 J, not the 3.8 J the ladder's two lowest steps gave, nor the class's 50 J."""
    src = tmp_path / "knife-man.txt"
    src.write_text("Knife man\nST 11 DX 12 IQ 10 HT 10\nSkills: Knife Throwing-12\n"
                   "Weapons: Small Knife (1d-2 imp, Acc 0, 1/2D 5, Max 16)\n", encoding="utf-8")
    conv = api.convert(src, "neutral", fresh=True)
    knife = conv.document.weapons[0]
    assert knife.weapon_class == "thrown" and float(knife.muzzle_energy) == 28.1
    said = "\n".join(_messages(conv))
    assert "28.1 J: its class's 50 J by 1d-2 against the row's 1d-1 (mean 2.00 against 2.67, squared)" in said


def test_a_thrown_knife_in_7th_edition_is_its_knife_s_row_by_size(tmp_path: Path):
    """7th edition's table prints knives in sizes (small 1D4, large 1D8): a thrown knife from another system
    is written at its size's row, half the DB added as on every Throw line (coc7.damage, assumed), not at the
    1D3 its 50 J would give as a thrown stone; the same knife in hand is that row with the full DB."""
    src = tmp_path / "knife-thrower.txt"
    src.write_text("Knife thrower\nST 11 DX 13 IQ 10 HT 11\nSkills: Knife-13; Knife Throwing-13\n"
                   "Weapons: Large Knife (1d-1 imp, Acc 0, 1/2D 8, Max 16); Small Knife (1d-2 imp, Acc 0, 1/2D 5, Max 16)\n",
                   encoding="utf-8")
    conv = api.convert(src, "coc7", fresh=True)
    lines = {w.name: (w.skill, w.damage) for w in conv.document.weapons}
    assert lines == {"Large Knife": ("Throw", "1D8"), "Small Knife": ("Throw", "1D4")}
    said = "\n".join(_messages(conv))
    assert "damage 1D8 (the knife's row, thrown: coc7.damage, coc7.melee) [coc7.weapons]" in said
