"""Every built-in system's stat block goes through the core (xsys.core.sheet): each declares its
sheet, and none writes its own NPC conversions but for the wrappers named here with their reason
(the list only shrinks); and the losses and trace of a conversion come in the order of the stat
block, whatever order its steps took (core.sheet.in_sheet_order)."""

from __future__ import annotations

import msgspec

from xsys.conversions import api
from xsys.core.sheet import Sheet, in_sheet_order, sheet_position
from xsys.core.system import System
from xsys.core.trace import Loss, Result

# system key -> why its class still defines an NPC conversion of its own (around the core's)
OWN_CONVERSIONS = {
    "coc-zh": "wraps its parent coc's declared conversion: keeps coc's view of the shared skills, "
              "weapon lines and HP beside its own, and reads coc's where its own is absent",
}


def _builtins() -> dict[str, System]:
    reg = api.default_registry()
    return {k: reg.system(k) for k in reg.keys() if type(reg.system(k)).__module__.startswith("xsys.plugins.")}


def test_every_built_in_system_declares_its_sheet():
    systems = _builtins()
    assert {"coc", "coc7", "coc-zh", "gurps", "nwod", "pl-trudnosc"} <= set(systems)
    for key, system in systems.items():
        assert isinstance(system.sheet, Sheet), key


def test_no_built_in_system_writes_its_own_npc_conversions_but_the_named_wrappers():
    own = set()
    for key, system in _builtins().items():
        for cls in type(system).__mro__:
            if cls is System:
                break
            if {"npc_to_neutral", "npc_from_neutral"} & set(cls.__dict__) and cls.__module__.startswith(
                    f"xsys.plugins.{key.replace('-', '_')}."):
                own.add(key)
    assert own == set(OWN_CONVERSIONS), own


class _Doc(msgspec.Struct):
    name: str
    ST: int
    skills: dict[str, int]
    weapons: list[dict]


def _loss(path: str) -> Loss:
    return Loss.of("rounded", path, path)


def test_losses_come_in_the_order_of_the_stat_block():
    doc = _Doc(name="Joe", ST=12, skills={"Guns (Pistol)": 12, "Brawling": 11}, weapons=[{"name": "a"}, {"name": "b"}])
    said = ["$.weapons[1].damage", "$.skills.Brawling", "$.carried.coc.SIZ", "$.skills.Guns (Pistol)", "$",
            "$.ST, $.skills.Brawling", "$.weapons[0]", "$.skills.Brawling"]
    res = in_sheet_order(Result(None, [_loss(p) for p in said]), doc)
    assert [x.path for x in res.losses] == [
        "$", "$.ST, $.skills.Brawling", "$.skills.Guns (Pistol)", "$.skills.Brawling", "$.skills.Brawling",
        "$.weapons[0]", "$.weapons[1].damage", "$.carried.coc.SIZ"]
    # paths the block has no place for (skills not written) come last, each kept together
    res = in_sheet_order(Result(None, [_loss(p) for p in ["$.skills.Holdout", "$.skills.Lockpicking", "$.ST",
                                                            "$.skills.Holdout"]]), doc)
    assert [x.path for x in res.losses] == ["$.ST", "$.skills.Holdout", "$.skills.Holdout", "$.skills.Lockpicking"]
    # what the block has no place for comes after every place it has
    assert sheet_position(doc, "$.skills.Stealth") > sheet_position(doc, "$.skills.Brawling")
    assert sheet_position(doc, "$.weapons[5]") > sheet_position(doc, "$.weapons[1].damage")


def test_a_gurps_stat_block_read_by_the_core_says_its_losses_in_sheet_order():
    doc = api.from_plain({"system": "gurps", "kind": "npc", "name": "Ogre", "ST": 25, "DX": 10, "IQ": 8, "HT": 12,
                          "Move": 7, "Dodge": 4, "skills": {"Brawling": 12, "Soldier": 12},
                          "advantages": ["Combat Reflexes"]}, "ogre.yaml")
    res = api.default_registry().system("gurps").npc_to_neutral(doc.document)
    paths = [x.path for x in res.losses]
    assert paths == sorted(paths, key=lambda p: sheet_position(doc.document, p))
    by_path = {x.path: x for x in res.losses}
    # ST 25 beyond the table: its percentile the table's end, its size 1.39 times the top (core.beyond), said
    assert by_path["$.ST"].kind == "assumed" and "1.39 times the top of the table" in by_path["$.ST"].message
    assert res.value.beyond == {"strength": 1.3889}
    assert "the rule's 5; the difference +2 is kept for GURPS" in by_path["$.Move"].message  # (HT + DX) / 4 = 5
    assert by_path["$.advantages"].message.startswith("advantages Combat Reflexes: no neutral equivalent")
    assert paths.index("$.ST") < paths.index("$.Move") < paths.index("$.skills.Soldier") < paths.index("$.advantages")
    # the stated ST comes back on a GURPS sheet written from the neutral NPC
    back = api.default_registry().system("gurps").npc_from_neutral(res.value).value
    assert back.ST == 25 and back.Move == 7
