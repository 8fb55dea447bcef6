"""The declared sheet (xsys.core.sheet): a system names where its stat block keeps what the core
converts, and the core does the NPC conversions. pl-trudnosc and nWoD are written this way."""

from __future__ import annotations

import msgspec
import pytest

from xsys.core.model import Combatant
from xsys.core.sheet import Sheet
from xsys.core.system import System
from xsys.plugins.nwod.system import NwodArmor, NwodNpc, NwodSystem, NwodWeapon
from xsys.plugins.pl_trudnosc.system import Broń, PlTrudnosc, Postać, Umiejętności


class _Block(msgspec.Struct, kw_only=True):
    name: str = ""
    notes: str = ""
    skills: dict[str, int] = msgspec.field(default_factory=dict)
    weapons: list[str] = msgspec.field(default_factory=list)
    armor: list[str] = msgspec.field(default_factory=list)
    Sanity: int = 50


class _Carried(msgspec.Struct, kw_only=True):
    Sanity: int | None = None


def test_a_sheet_naming_a_field_the_stat_block_lacks_is_refused_when_the_class_is_defined():
    with pytest.raises(TypeError, match=r"Toy\.sheet names fields its npc_type _Block does not have: Luck"):
        class Toy(System):  # noqa: F841
            key = "toy"
            npc_type = _Block
            sheet = Sheet(carried=("Sanity", "Luck"), carried_type=_Carried)


class _Shot(msgspec.Struct, kw_only=True):
    weapon: str = ""
    skill: int = 0
    distance: float = 0.0
    cover: str = "none"


def test_a_shot_sheet_naming_a_field_the_shot_lacks_is_refused_when_the_class_is_defined():
    from xsys.core.shotsheet import ShotSheet

    with pytest.raises(TypeError, match=r"Toy\.shot_sheet names fields its shot_type has not: name, shooter, "
                                        r"target, light"):
        class Toy(System):  # noqa: F841
            key = "toy"
            shot_type = _Shot
            shot_sheet = ShotSheet(cover=("cover", "cover"), light=("light", "light"))

    class Fine(System):
        key = "fine"
        shot_type = _Shot
        shot_sheet = ShotSheet(name="", shooter="", target="", cover=("cover", "cover"))

    assert Fine.shot_sheet.cover == ("cover", "cover")


def test_carried_fields_need_the_struct_they_are_taken_back_through():
    with pytest.raises(TypeError, match="carries Sanity but names no carried_type"):
        class Toy(System):  # noqa: F841
            key = "toy"
            npc_type = _Block
            sheet = Sheet(carried=("Sanity",))


def test_a_sheet_of_existing_fields_is_accepted_and_a_system_without_one_still_says_what_it_lacks():
    class Toy(System):
        key = "toy"
        npc_type = _Block
        sheet = Sheet(carried=("Sanity",), carried_type=_Carried)

    class Bare(System):
        key = "bare"

    assert Toy.sheet.carried == ("Sanity",)
    with pytest.raises(NotImplementedError, match="bare: npc_to_neutral"):
        Bare().npc_to_neutral(_Block())


@pytest.mark.parametrize("cls", [PlTrudnosc, NwodSystem])
def test_pl_trudnosc_and_nwod_leave_both_npc_conversions_to_the_core(cls):
    assert isinstance(cls.sheet, Sheet)
    assert "npc_to_neutral" not in cls.__dict__ and "npc_from_neutral" not in cls.__dict__


def test_pl_zalety_are_carried_level_0_does_not_cross_and_the_block_comes_back():
    pl = PlTrudnosc({"mechanic": "exploding-2d6"})
    npc = Postać(imię="Kapral", Motoryka=4, umiejętności=Umiejętności(Broń_krótka=2),
                 Zalety=["Przeszkolenie wojskowe"], broń=[Broń(nazwa="Pistolet", rodzaj="krótka")], opis="x")
    res = pl.npc_to_neutral(npc)
    comb = res.value
    assert set(comb.skills) == {"handgun"}  # Broń długa, Rzucanie, Czujność at 0: untrained, not crossed
    assert comb.carried == {"pl-trudnosc": {"Zalety": ["Przeszkolenie wojskowe"]}}
    assert comb.native == {"pl-trudnosc": {"obrażenia_implicit": ["Pistolet"]}}
    kept = [(l.kind, l.path, l.rule) for l in res.losses if l.path == "$.Zalety"]
    assert kept == [("kept-verbatim", "$.Zalety", "pl.crawl")]
    assert pl.npc_from_neutral(comb).value == npc


def test_nwod_carried_block_order_melee_line_and_resolve_from_the_carried_block():
    nwod = NwodSystem()
    npc = NwodNpc(name="Bouncer", Resolve=3, Strength=3, skills={"Brawl": 2, "Intimidation": 2},
                  specialties={"Brawl": ["Grappling"]}, merits={"Iron Stamina": 1},
                  weapons=[NwodWeapon(name="Knife", type="Knife", damage=1)],
                  armor=[NwodArmor(name="Leather jacket", general=1)])
    comb = nwod.npc_to_neutral(npc).value
    own = comb.carried["nwod"]
    # Intimidation is the neutral intimidate (plugins/nwod/README.md), not a carried skill
    assert list(own) == ["Resolve", "specialties", "merits", "melee"]
    assert "skills" not in own and own["Resolve"] == 3 and "intimidate" in comb.skills
    assert [(m.name, m.melee_class, m.skill) for m in comb.melee] == [("Knife", "knife", "melee")]
    assert comb.weapons == []
    # without the kept stat block: written from the neutral values and the carried block
    back = nwod.npc_from_neutral(msgspec.structs.replace(comb, native={})).value
    assert back.Resolve == 3 and back.skills["Intimidation"] == 2
    assert back.specialties == {"Brawl": ["Grappling"]} and back.merits == {"Iron Stamina": 1}
    assert [(w.name, w.type, w.damage) for w in back.weapons] == [("Knife", "Knife", 1)]


def test_nwod_resolve_from_another_system_is_read_from_will_with_an_assumed_loss():
    nwod = NwodSystem()
    res = nwod.npc_from_neutral(Combatant(name="Someone", characteristics={"will": 0.5}))
    assert res.value.Resolve == res.value.Composure
    assert [(l.kind, l.rule) for l in res.losses if l.path == "$.Resolve"] == [("assumed", "nwod.attributes")]
