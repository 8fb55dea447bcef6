"""The declared sheet (xsys.core.sheet): a system names where its stat block keeps what the core
converts, and the core does the NPC conversions. pl-trudnosc and nWoD are written this way."""

from __future__ import annotations

import msgspec
import pytest

from xsys.core.model import Combatant
from xsys.core.sheet import Sheet
from xsys.core.system import System
from xsys.plugins.coc.system import CocSystem
from xsys.plugins.coc7.system import Coc7System
from xsys.plugins.coc_zh.system import CocZhSystem
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


class _Plate(msgspec.Struct, kw_only=True):
    name: str
    points: int | None = None
    catalog: str | None = None
    covers: list[str] | None = None
    deflection: int | None = None


class _Armoured(_Block, kw_only=True):  # the toy stat block, its armor lines points-rated
    armor: list[_Plate] = msgspec.field(default_factory=list)


def test_a_declared_armor_line_reads_and_writes_points_on_the_ladder():
    """Sheet.armor_line: the armor hooks of a points-rated line, declared (core.sheet.ArmorLine):
    its fields are checked with the sheet; a catalog item by name, a line of no item read from its
    points on the ladder (said, assumed), and written back as the same line."""
    from xsys.core.ladder import Ladder, Step
    from xsys.core.sheet import ArmorLine
    from xsys.core.trace import Collector

    with pytest.raises(TypeError, match=r"armor_line names fields its armor line _Plate does not have: rating"):
        class Wrong(System):  # noqa: F841
            key = "wrong"
            npc_type = _Armoured
            sheet = Sheet(armor_line=ArmorLine(rule="toy.armor"))

    rows = [Step(0, 100.0, "toy.armor", "assumed", "none", 0.0), Step(1, 600.0, "toy.armor", "assumed", "light", 350.0),
            Step(2, float("inf"), "toy.armor", "assumed", "heavy", 1200.0)]
    armor_ladder = Ladder.build("armor", "J", rows, rounding="up")

    class Toy(System):
        key = "toy"
        npc_type = _Armoured
        sheet = Sheet(armor_line=ArmorLine(rule="toy.armor", points="points"))

        def ladders(self):
            return {"armor": armor_ladder}

    toy, col = Toy(), Collector("toy")
    vest = toy.armor_to_neutral(_Plate(name="Scrap plates", points=2), col, "$.armor[0]")
    assert float(vest.stops) == 1200.0 and vest.catalog is None
    assert [(x.kind, x.rule) for x in col.result(None).losses] == [("assumed", "toy.armor")]
    assert toy.armor_from_neutral(vest, col, "$.armor[0]") == _Plate(name="Scrap plates", points=2)
    helmet = toy.armor_to_neutral(_Plate(name="M1 helmet"), Collector("toy"), "$.armor[1]")
    assert (helmet.catalog, list(helmet.covers)) == ("m1-helmet", ["head"])
    assert toy.armor_from_neutral(helmet, Collector("toy"), "$.armor[1]").catalog == "m1-helmet"


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


def test_carried_fields_are_taken_back_through_the_stat_block_s_own_types_unless_a_struct_is_named():
    class Toy(System):
        key = "toy"
        npc_type = _Block
        sheet = Sheet(carried=("Sanity",))

    typ = Toy.sheet.carried_type  # derived from _Block when the class is defined
    assert typ.__name__ == "_BlockCarried"
    assert msgspec.convert({"Sanity": 40, "skills": {"Pilot": 2}, "melee": {"Knife": {"x": 1}}}, typ).Sanity == 40
    assert msgspec.convert({}, typ).Sanity is None  # every carried field optional
    for bad in ({"Sanity": "high"}, {"skills": {"Pilot": "two"}}, {"melee": []}):
        with pytest.raises(msgspec.ValidationError):
            msgspec.convert(bad, typ)

    class Named(System):
        key = "named"
        npc_type = _Block
        sheet = Sheet(carried=("Sanity",), carried_type=_Carried)

    assert Named.sheet.carried_type is _Carried

    class _Bigger(_Block, kw_only=True):
        Sanity: int = 50
        Luck: int = 50

    class Variant(Toy):  # a stat block of its own, the sheet inherited: its own carried Struct
        key = "variant"
        npc_type = _Bigger

    assert Variant.sheet.carried_type.__name__ == "_BiggerCarried" and Toy.sheet.carried_type is typ

    class NamedVariant(Named):  # a named Struct stays whatever the stat block
        key = "named-variant"
        npc_type = _Bigger

    assert NamedVariant.sheet.carried_type is _Carried


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


@pytest.mark.parametrize("cls", [PlTrudnosc, NwodSystem, CocSystem, CocZhSystem, Coc7System])
def test_every_built_in_but_gurps_leaves_both_npc_conversions_to_the_core(cls):
    assert isinstance(cls.sheet, Sheet)
    for c in cls.__mro__:
        if c is System:
            break
        assert "npc_to_neutral" not in c.__dict__ or c is CocZhSystem.__mro__[1], c  # coc-zh adds its parent's view
        assert "npc_from_neutral" not in c.__dict__ or c is CocZhSystem.__mro__[1], c


def _neutral(**carried) -> Combatant:
    return Combatant(name="Kin", characteristics={}, skills={}, carried=carried)


def test_a_kin_edition_s_carried_values_are_taken_where_they_are_valid_values_of_this_sheet():
    """Sheet.carried_kin: a 6th-edition sheet's Sanity, Luck and spells mean the same in 7th
    edition; a value the 7th-edition sheet cannot hold (SAN 150) stays with its owner. A 6th-
    edition sheet takes 7th edition's Sanity but not its rolled Luck (it derives Luck from POW)."""
    seventh = Coc7System().npc_from_neutral(_neutral(coc={"SAN": 150, "Luck": 40, "spells": ["Shrivelling"],
                                                        "skills": {"Occult": 35}})).value
    assert (seventh.SAN, seventh.Luck, seventh.spells, seventh.skills.get("Occult")) == (None, 40, ["Shrivelling"], 35)
    sixth = CocSystem().npc_from_neutral(_neutral(coc7={"SAN": 45, "Luck": 70})).value
    assert (sixth.SAN, sixth.Luck) == (45, None)
    own = Coc7System().npc_from_neutral(_neutral(coc7={"SAN": 20}, coc={"SAN": 60})).value
    assert own.SAN == 20  # its own block, when there is one, wins over the kin's


def test_a_melee_list_of_its_own_is_read_and_carried_and_lines_are_kept():
    """Sheet.melee and Sheet.lines_kept (the CoC sheets): each close-combat line crosses as its
    weapon's class and is carried verbatim; the weapon lines as written are kept in the native
    block; carried fields are said with their values, under their own rules (carried_rules)."""
    from xsys.core.codec import dec_hook

    npc = msgspec.convert({"name": "M", "STR": 70, "CON": 60, "SIZ": 65, "DEX": 55, "APP": 50, "INT": 60, "POW": 50,
                           "EDU": 60, "Luck": 45, "spells": ["Wither Limb"], "skills": {"Fighting (Brawl)": 55},
                           "melee": [{"name": "Trench knife", "skill": "Fighting (Brawl)", "damage": "1D4+DB"}],
                           "weapons": [{"name": "Webley", "skill": "Firearms (Handgun)", "damage": "1D10",
                                        "base_range": "15 yd"}]}, Coc7System.npc_type, dec_hook=dec_hook)
    res = Coc7System().npc_to_neutral(npc)
    comb = res.value
    assert [(m.name, m.melee_class) for m in comb.melee] == [("Trench knife", "knife")]
    assert comb.carried["coc7"]["melee"]["Trench knife"]["damage"] == "1D4+DB"
    assert [w["name"] for w in comb.native["coc7"]["weapons"]] == ["Webley"]
    said = {x.path: x for x in res.losses if x.kind == "kept-verbatim"}
    assert said["$.Luck"].message == "Luck 45: no neutral equivalent; kept for coc7"
    assert said["$.Luck"].rule == "coc7.characteristics"
    assert said["$.spells"].message == "spells Wither Limb: no neutral equivalent; kept for coc7"


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


def test_a_native_block_hook_written_before_it_took_the_collector_still_works():
    """native_block(npc) of a plugin written before the hook took the collector is called as it
    was: its block is kept, nothing breaks."""

    class Old(PlTrudnosc):
        key = "old-pl"

        def native_block(self, npc):  # type: ignore[override]
            return {"seen": npc.imię}

    npc = Postać(imię="Stary", Motoryka=3, Percepcja=3, Atletyka=3, Odwaga=3)
    comb = Old().npc_to_neutral(npc).value
    assert comb.native["old-pl"]["seen"] == "Stary"
