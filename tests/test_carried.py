"""System-only data is carried through verbatim in a namespaced block: what one
system states and no other can express (CoC Sanity, Luck, Magic Points, spells; GURPS
advantages; nWoD Resolve, merits, specialties; Polish Zalety; skills no neutral key holds)
crosses A -> B -> A with nothing remembered (``fresh=True`` and the ``xsys`` block removed),
B's document shows it under ``carried: {<namespace>: ...}``, and the A -> B loss report says
at each value's own path that B cannot express it (``kept-verbatim``, info: nothing is lost,
so ``--strict`` passes)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from xsys.conversions import api
from xsys.core import carried, skillplan, codec
from xsys.core.errors import LossError

ROOT = Path(__file__).resolve().parent.parent
SYSTEMS = ["coc", "coc7", "coc-zh", "gurps", "nwod", "pl-trudnosc"]

# system -> (a fixture, what only that system states added to it, its namespace, the values
# the namespace holds afterwards)
CASES = {
    "coc": ("coc/npcs/gangster_tommy_gun.yaml",
            {"SAN": 35, "MP": 8, "Luck": 50, "spells": ["Contact Ghoul", "Shrivelling"]}, "coc",
            {"SAN": 35, "MP": 8, "Luck": 50, "spells": ["Contact Ghoul", "Shrivelling"], "sheet_skills": {"Sneak": 20}}),
    "coc7": ("coc7/npcs/silas_crane.yaml", {"SAN": 45, "MP": 12, "Luck": 40, "spells": ["Dominate"]}, "coc7",
             {"SAN": 45, "MP": 12, "Luck": 40, "spells": ["Dominate"]}),
    "coc-zh": ("coc-zh/npcs/warlord_guard.yaml", {"SAN": 20, "Luck": 30}, "coc", None),
    "gurps": ("gurps/npcs/investigator.yaml", {}, "gurps",
              {"skills": {"Criminology": 13}, "advantages": ["Alertness +1"], "disadvantages": ["Curious"]}),
    "nwod": ("nwod/npcs/cross.yaml", {"merits": {"Danger Sense": 2}}, "nwod",
             {"Resolve": 3, "specialties": {"Stealth": ["Hiding"]}, "merits": {"Danger Sense": 2}}),
    "pl-trudnosc": ("pl-trudnosc/npcs/anna_nowak.yaml", {"Zalety": ["Wyszkolenie wojskowe"]}, "pl-trudnosc",
                    {"Zalety": ["Wyszkolenie wojskowe"]}),
}
# the fields of each system's document the block comes back into
FIELDS = {"coc": ("SAN", "MP", "Luck", "spells", "skills"), "coc7": ("SAN", "MP", "Luck", "spells", "skills"),
          "coc-zh": ("SAN", "Luck", "skills"),
          "gurps": ("skills", "advantages", "disadvantages"), "nwod": ("Resolve", "specialties", "merits"),
          "pl-trudnosc": ("Zalety",)}
PAIRS = [(a, b) for a in SYSTEMS for b in SYSTEMS if a != b]


def _plain(doc):
    p = codec.to_builtins(doc)
    p.pop("xsys", None)  # nothing remembered
    return p


def _source(a: str) -> dict:
    path, extra, _, _ = CASES[a]
    src = _plain(api.load(ROOT / "fixtures" / path).document)
    src.update(copy.deepcopy(extra))
    return src


def _same_system_family(a: str, b: str) -> bool:
    # one family: coc-zh's SAN is coc's SAN, and coc and coc7 write each other's on their sheets
    return {a, b} in ({"coc", "coc-zh"}, {"coc", "coc7"})


@pytest.mark.parametrize("a,b", PAIRS, ids=[f"{a}->{b}" for a, b in PAIRS])
def test_system_only_data_crosses_a_to_b_to_a_with_nothing_remembered(a, b):
    src = _source(a)
    there = api.convert(api.from_plain(src), b, fresh=True, trace=False)
    mid = _plain(there.document)
    ns = CASES[a][2]
    if not _same_system_family(a, b):
        block = mid.get("carried", {}).get(ns)
        assert block, f"{b}'s document carries nothing for {ns}: {sorted(mid)}"
        expected = CASES[a][3]
        if expected is not None:
            for k, v in expected.items():
                if k == "sheet_skills":  # beside the skills the target has no place for
                    assert {n: block.get(k, {}).get(n) for n in v} == v, (k, block)
                    continue
                assert block.get(k) == v, (k, block)
    back = _plain(api.convert(api.from_plain(mid), a, fresh=True, trace=False).document)
    for f in FIELDS[a]:
        if f == "skills":  # the skills no neutral key holds come back exactly
            # (and a skill whose name the sheet keeps: coc Sneak, not Hide, is its stealth)
            kept = {**(CASES[a][3] or {}).get("skills", {}), **(CASES[a][3] or {}).get("sheet_skills", {})}
            own = {k: v for k, v in src.get("skills", {}).items() if k in kept}
            assert {k: back["skills"].get(k) for k in own} == own
        else:
            assert back.get(f) == src.get(f), (f, back.get(f), src.get(f))


@pytest.mark.parametrize("a,b", [p for p in PAIRS if not _same_system_family(*p)],
                         ids=[f"{a}->{b}" for a, b in PAIRS if not _same_system_family(a, b)])
def test_each_carried_value_is_reported_as_not_expressible_at_its_own_path(a, b):
    src = _source(a)
    conv = api.convert(api.from_plain(src), b, fresh=True, trace=False)
    ns = CASES[a][2]
    block = _plain(conv.document)["carried"][ns]
    for key, _ in carried.leaves(block):
        top = key.split(".", 1)[0]
        # at the value's own path, or at the field that holds it, naming where it is carried
        # ($.weapons[0].carry: "... (carried.coc.carry.Thompson M1928)")
        here = [x for x in conv.losses if x.path in (f"$.{key}", f"$.{top}") or f"carried.{ns}.{key}" in x.message]
        # (or, where the target's sheet writes it too, that it is written there and carried: coc7's
        # Intimidate on a coc sheet)
        said = [x for x in here if f"not expressible in {b}" in x.message or f"written on the {b} sheet" in x.message]
        assert said, f"nothing says {key} is carried: {[x.render() for x in conv.losses]}"
        # info, but for a skill the target has no skill for at all: a warning (the NPC cannot use it
        # at that table), carried all the same
        assert all((x.kind == "kept-verbatim" and x.level == "info")
                   or (x.kind == "unsupported-field" and x.level == "warning" and "has no skill for" in x.message)
                   for x in said), [x.render() for x in said]
        assert not [x for x in here if "dropped" in x.message]  # and no loss claims it was dropped


def test_strict_passes_when_only_carried_data_cannot_be_expressed():
    src = {"system": "neutral", "kind": "npc", "name": "Sister Agatha",
           "characteristics": {"dexterity": 0.5}, "skills": {"handgun": 0.5},
           "carried": {"coc": {"SAN": 55, "spells": ["Elder Sign"]}}}
    conv = api.convert(api.from_plain(src), "gurps", strict=True, trace=False)
    assert _plain(conv.document)["carried"] == {"coc": {"SAN": 55, "spells": ["Elder Sign"]}}
    assert {x.path for x in conv.losses if x.kind == "kept-verbatim"} >= {"$.carried.coc.SAN", "$.carried.coc.spells"}


def test_a_chain_keeps_it_and_reports_it_inside_the_carried_block():
    """coc -> gurps -> nwod -> coc, nothing remembered: Sanity rides through two systems that
    cannot express it; the gurps -> nwod report finds it in gurps's carried block."""
    src = _source("coc")
    gurps = _plain(api.convert(api.from_plain(src), "gurps", fresh=True, trace=False).document)
    to_nwod = api.convert(api.from_plain(gurps), "nwod", fresh=True, trace=False)
    nwod = _plain(to_nwod.document)
    assert nwod["carried"]["coc"]["SAN"] == 35
    assert any(x.path == "$.carried.coc.SAN" and "not expressible in nwod" in x.message for x in to_nwod.losses)
    back = _plain(api.convert(api.from_plain(nwod), "coc", fresh=True, trace=False).document)
    assert (back["SAN"], back["MP"], back["Luck"], back["spells"]) == (35, 8, 50, ["Contact Ghoul", "Shrivelling"])


def test_the_target_reads_its_own_namespace_and_does_not_carry_it():
    """A coc document reads carried.coc into its own fields (coc-zh shares the namespace)."""
    gurps = _plain(api.convert(api.from_plain(_source("coc")), "gurps", fresh=True, trace=False).document)
    gurps["advantages"] = ["Combat Reflexes"]
    for b in ("coc", "coc-zh"):
        out = _plain(api.convert(api.from_plain(gurps), b, fresh=True, trace=False).document)
        assert "coc" not in out.get("carried", {}) and out["SAN"] == 35
        assert out["carried"] == {"gurps": {"advantages": ["Combat Reflexes"]}}  # gurps's own rides on


def test_a_hand_edited_block_of_the_wrong_type_is_a_loss_not_an_error():
    gurps = _plain(api.convert(api.from_plain(_source("coc")), "gurps", fresh=True, trace=False).document)
    gurps["carried"]["coc"]["SAN"] = "plenty"
    gurps["carried"]["coc"]["Cthulhu Mythos"] = 5
    conv = api.convert(api.from_plain(gurps), "coc", fresh=True, trace=False)
    out = _plain(conv.document)
    assert "SAN" not in out and out["MP"] == 8
    bad = {x.path: x for x in conv.losses if x.kind == "unsupported-field" and "carried" in x.message}
    assert set(bad) == {"$.carried.coc.SAN", "$.carried.coc.Cthulhu Mythos"}, [x.render() for x in conv.losses]
    with pytest.raises(LossError):
        api.convert(api.from_plain(gurps), "coc", fresh=True, strict=True, trace=False)


def test_rosters_and_scenarios_carry_it_for_each_npc():
    npc = _source("coc")
    npc.pop("system"), npc.pop("kind")
    roster = {"system": "coc", "kind": "roster", "name": "Gang", "npcs": [npc, {**npc, "name": "Second", "SAN": 10}]}
    mid = _plain(api.convert(api.from_plain(roster), "nwod", fresh=True, trace=False).document)
    assert [n["carried"]["coc"]["SAN"] for n in mid["npcs"]] == [35, 10]
    back = _plain(api.convert(api.from_plain(mid), "coc", fresh=True, trace=False).document)
    assert [n["SAN"] for n in back["npcs"]] == [35, 10]
    scen = _plain(api.load(ROOT / "fixtures" / "coc" / "scenarios" / "speakeasy_raid.yaml").document)
    scen["scenes"][0]["combatants"][0]["SAN"] = 41
    mid = _plain(api.convert(api.from_plain(scen), "gurps", fresh=True, trace=False).document)
    assert mid["scenes"][0]["combatants"][0]["carried"]["coc"]["SAN"] == 41
    back = _plain(api.convert(api.from_plain(mid), "coc", fresh=True, trace=False).document)
    assert back["scenes"][0]["combatants"][0]["SAN"] == 41


def test_a_third_party_system_carries_it_for_free():
    """The test system `toy` (tests/toy) knows nothing of carried data; its documents hold
    coc's Sanity and give it back: the machinery is the document layer's, not the plugin's."""
    from toy import toy_system
    from xsys.core import registry
    from xsys.plugins import catalog, coc

    reg = registry.Registry(entry_points=[], extra_plugins=[("toy", toy_system), ("coc", coc), ("catalog", catalog)])
    old = registry._default
    registry.set_default_registry(reg)
    try:
        conv = api.convert(api.from_plain(_source("coc")), "toy", fresh=True, trace=False, registry=reg)
        mid = _plain(conv.document)
        assert mid["carried"]["coc"]["SAN"] == 35 and mid["carried"]["coc"]["sheet_skills"]["Sneak"] == 20
        assert any(x.path == "$.SAN" and "not expressible in toy" in x.message for x in conv.losses)
        back = _plain(api.convert(api.from_plain(mid), "coc", fresh=True, trace=False, registry=reg).document)
        assert back["SAN"] == 35 and back["spells"] == ["Contact Ghoul", "Shrivelling"]
        assert back["skills"]["Sneak"] == 20
    finally:
        registry.set_default_registry(old)


def test_the_check_is_not_vacuous(monkeypatch):
    """Without the document layer's carrying, the same trip loses Sanity (so the tests above
    can fail)."""
    monkeypatch.setattr(carried, "detach", lambda system, combatant: {})
    monkeypatch.setattr(carried, "characteristics_out", lambda target, values, owners, beyond=None: [])
    monkeypatch.setattr(skillplan, "plan", lambda target, combatant, system_of: skillplan.Plan(combatant=combatant))
    mid = _plain(api.convert(api.from_plain(_source("coc")), "gurps", fresh=True, trace=False).document)
    assert "carried" not in mid
    back = _plain(api.convert(api.from_plain(mid), "coc", fresh=True, trace=False).document)
    assert "SAN" not in back


def test_a_text_stat_block_prints_it_and_reads_it_back(tmp_path):
    """--format text: the target's block has a `Carried: {...}` line (JSON), which the text
    reader takes back; a coc block prints SAN/MP/Luck and Spells in its own words."""
    from xsys.plugins.textblock.reader import load
    from xsys.plugins.textblock.writer import text_of

    gurps = _plain(api.convert(api.from_plain(_source("coc")), "gurps", fresh=True, trace=False).document)
    text = text_of(gurps)
    assert 'Carried: {"coc": {"SAN": 35, "MP": 8, "Luck": 50' in text
    doc = load(text.encode())
    assert doc["carried"] == gurps["carried"] and not doc.get("xsys", {}).get("read", {}).get("unread")
    coc_text = text_of(_source("coc"))
    assert "SAN 35 MP 8 Luck 50" in coc_text and "Spells: Contact Ghoul, Shrivelling" in coc_text
    back = load(coc_text.encode())
    assert (back["SAN"], back["MP"], back["Luck"], back["spells"]) == (35, 8, 50, ["Contact Ghoul", "Shrivelling"])
    bad = load(text.replace('Carried: {"coc"', 'Carried: ["coc"').encode())
    assert "carried" not in bad and any("Carried" in u["text"] for u in bad["xsys"]["read"]["unread"])


def test_vtt_formats_read_and_write_what_only_coc_states():
    """Foundry CoC7 (attribs san/mp/lck, spell items), CCFOLIA (SAN/MP/幸運 gauges) and Dhole's
    House (Sanity/MagicPts/Luck) put the NPC's own values in the coc7 document (a 7th-edition
    sheet reads as coc7), from which they ride through GURPS and back out to the format."""
    import json

    from xsys.plugins.ccfolia.reader import load as ccfolia_load
    from xsys.plugins.ccfolia.writer import character_of
    from xsys.plugins.foundry_coc7.reader import load as foundry_load
    from xsys.plugins.foundry_coc7.writer import actor_of

    actor = json.loads((ROOT / "fixtures" / "foundry-coc7" / "cultist-v9.json").read_text())
    actor["data"]["attribs"]["san"] = {"value": 23}
    actor["data"]["attribs"]["lck"] = {"value": 35}
    doc = foundry_load(json.dumps(actor).encode())
    assert doc["system"] == "coc7"
    assert (doc["SAN"], doc["Luck"], doc["spells"]) == (23, 35, ["Dagger of Yig"])
    assert not any("spell" in u["text"] for u in doc.get("xsys", {}).get("read", {}).get("unread", []))
    doc.pop("xsys", None)
    gurps = _plain(api.convert(api.from_plain(doc), "gurps", fresh=True, trace=False).document)
    # Sanity, Luck and spells, and the characteristics GURPS has no field for (SIZ, APP, EDU)
    kept = gurps["carried"]["coc7"]  # (and the sheet skill GURPS writes as another: sheet_skills)
    assert {k: kept[k] for k in ("SAN", "Luck", "spells", "SIZ", "APP", "EDU")} == \
        {"SAN": 23, "Luck": 35, "spells": ["Dagger of Yig"], **{k: doc[k] for k in ("SIZ", "APP", "EDU")}}
    back = _plain(api.convert(api.from_plain(gurps), "coc7", fresh=True, trace=False).document)
    assert {k: back[k] for k in ("SIZ", "APP", "EDU")} == {k: doc[k] for k in ("SIZ", "APP", "EDU")}
    out = actor_of(back)  # written natively from coc7: its own values, no x5
    assert {c: out["system"]["characteristics"][c]["value"] for c in ("siz", "app", "edu")} == \
        {c: doc[c.upper()] for c in ("siz", "app", "edu")}
    assert out["system"]["attribs"]["san"]["value"] == 23 and out["system"]["attribs"]["lck"]["value"] == 35
    assert [i["name"] for i in out["items"] if i["type"] == "spell"] == ["Dagger of Yig"]
    again = foundry_load(json.dumps(out).encode())
    assert (again["SAN"], again["Luck"], again["spells"]) == (23, 35, ["Dagger of Yig"])
    assert {k: again[k] for k in ("SIZ", "APP", "EDU")} == {k: doc[k] for k in ("SIZ", "APP", "EDU")}

    back = _plain(api.convert(api.from_plain(gurps), "coc", fresh=True, trace=False).document)
    char = character_of(back)
    gauges = {s["label"]: s["value"] for s in char["data"]["status"]}
    # a coc (6th-edition) sheet's Luck is POW x 5 (coc-ja.derived), not 7th edition's rolled 35, which
    # stays carried for the way back: the CCFOLIA character rolls 【幸運】 on POW x 5
    assert back["carried"]["coc7"]["Luck"] == 35 and "Luck" not in back
    assert gauges["SAN"] == 23 and "幸運" not in gauges and "CCB<={POW}*5 【幸運】" in char["data"]["commands"]
    read = ccfolia_load(json.dumps(char, ensure_ascii=False).encode())
    assert read["SAN"] == 23 and read.get("Luck") is None

    dh = api.load(ROOT / "fixtures" / "dholes-house" / "agnes-porter.json").document
    assert dh.Luck == 60


def test_a_plugin_whose_stat_block_has_its_own_carried_field_keeps_both():
    """A third-party stat block that already declares `carried` (its own use of it) gets the
    others' namespaces merged in, not an error."""
    import msgspec

    from xsys.core.model import Combatant
    from xsys.core.trace import Collector

    class OwnNpc(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
        name: str
        carried: dict[str, dict] = {}

    class Own:
        key = "own"

        def npc_from_neutral(self, c):
            return Collector("own").result(OwnNpc(name=c.name, carried={"own": {"mana": 3}}))

    losses: list = []
    neutral = Combatant(name="X", carried={"coc": {"SAN": 40}, "own": {"mana": 3}})
    out = api._carry(Own(), neutral, Own().npc_from_neutral(neutral).value, "$", losses, None)
    assert type(out) is OwnNpc and out.carried == {"own": {"mana": 3}, "coc": {"SAN": 40}}
    assert [x.path for x in losses] == ["$.SAN"]


# ---- neutral characteristics the target has no field for (SIZ, APP, EDU through GURPS) ------

def _coc_npc(**chars):
    base = {"STR": 12, "CON": 12, "SIZ": 16, "DEX": 11, "APP": 7, "INT": 13, "POW": 12, "EDU": 17}
    base.update(chars)
    return {"system": "coc", "kind": "npc", "name": "Big Ugly Scholar", **base, "skills": {"Handgun": 40}}


@pytest.mark.parametrize("via", ["gurps", "pl-trudnosc"])
def test_characteristics_the_target_lacks_come_back_exactly(via):
    """CoC SIZ 16, APP 7 and EDU 17 have no field in a GURPS (or Polish) stat block: the written
    document carries them as CoC writes them, each reported kept-verbatim (not dropped), and a
    fresh trip back gives them exactly (not the adult median 13/11/14)."""
    src = _coc_npc()
    conv = api.convert(api.from_plain(src), via, fresh=True, trace=False)
    mid = _plain(conv.document)
    block = mid["carried"]["coc"]
    lacks = [k for k in ("SIZ", "APP", "EDU") if k not in mid]
    assert lacks and all(block[k] == src[k] for k in lacks), block
    for k in lacks:
        said = [x for x in conv.losses if x.path == f"$.{k}"]
        assert said and all(x.kind == "kept-verbatim" and f"carried.coc.{k}" in x.message for x in said), said
        assert not any(x.kind == "unsupported-field" and x.path == f"$.{k}" for x in conv.losses)
    back = _plain(api.convert(api.from_plain(mid), "coc", fresh=True, trace=False).document)
    assert {k: back[k] for k in ("SIZ", "APP", "EDU")} == {k: src[k] for k in ("SIZ", "APP", "EDU")}
    assert "carried" not in back or "coc" not in back["carried"]
    # HP follows CON and SIZ by the rule: with SIZ back, it is the source's again
    assert back["HP"] == -(-(src["CON"] + src["SIZ"]) // 2)


def test_characteristics_ride_through_a_chain_and_land_where_there_is_a_field():
    """coc -> gurps -> pl-trudnosc -> coc-zh: SIZ rides through two systems without it and
    lands in coc-zh's own SIZ; the carried entry is gone once a system has the field."""
    src = _coc_npc(SIZ=17)
    doc = src
    for target in ("gurps", "pl-trudnosc"):
        doc = _plain(api.convert(api.from_plain(doc), target, fresh=True, trace=False).document)
        assert doc["carried"]["coc"]["SIZ"] == 17, (target, doc.get("carried"))
    zh = _plain(api.convert(api.from_plain(doc), "coc-zh", fresh=True, trace=False).document)
    assert zh["SIZ"] == 17
    assert "SIZ" not in zh.get("carried", {}).get("coc", {})


def test_a_hand_edited_carried_characteristic_is_read_and_a_bad_one_stays_carried():
    """The carried value is data: edit it and the trip back follows; a value outside CoC's
    table stays in the carried block (and is reported there), never a crash."""
    mid = _plain(api.convert(api.from_plain(_coc_npc()), "gurps", fresh=True, trace=False).document)
    mid.pop("xsys", None)
    mid["carried"]["coc"]["SIZ"] = 9
    assert _plain(api.convert(api.from_plain(mid), "coc", fresh=True, trace=False).document)["SIZ"] == 9
    mid["carried"]["coc"]["SIZ"] = "huge"
    conv = api.convert(api.from_plain(mid), "coc", fresh=True, trace=False)
    assert _plain(conv.document)["SIZ"] == 13  # the adult median, as for a stat block without SIZ
    assert any("SIZ" in x.path and x.kind == "unsupported-field" for x in conv.losses), \
        [x.render() for x in conv.losses]


def test_a_carried_value_the_target_sheet_writes_is_not_said_to_be_inexpressible():
    """Rosa's 7e SAN 44 is written on her coc sheet (the same percentage in both editions) and
    carried for the way back; the loss line said 'not expressible in coc' beside a sheet showing
    SAN 44. Her 7e Luck, which coc derives afresh (POW x 5), still is not written, and says so."""
    from xsys.conversions import api as xapi

    conv = xapi.convert(xapi.load(ROOT / "fixtures" / "corpus" / "dholes-house" / "rosa-delgado-unknown-version.json"),
                        "coc", fresh=True, trace=False)
    assert conv.document.SAN == 44
    said = {x.path: x.message for x in conv.losses}
    assert "written on the coc sheet as it is" in said["$.SAN"] and "not expressible" not in said["$.SAN"]
    assert conv.document.Luck is None and "not expressible in coc" in said["$.Luck"]


def test_a_carried_close_combat_line_the_target_writes_its_own_way_is_said_so():
    """Rosa's 7e Trench knife (Fighting (Brawl), 1D4+2+DB) is carried for the way back; the coc
    sheet writes its own line for it (Knife, 1d4+2+db), so the report no longer calls it not
    expressible in coc beside a sheet that shows it."""
    from pathlib import Path

    from xsys.conversions import api

    rosa = Path(__file__).resolve().parents[1] / "fixtures/corpus/dholes-house/rosa-delgado-unknown-version.json"
    conv = api.convert(rosa, "coc", fresh=True)
    assert [m.name for m in conv.document.melee] == ["Trench knife"]
    said = [x.message for x in conv.losses if x.path == "$.melee.Trench knife"]
    assert said and "written on the coc sheet as its own line, and carried verbatim at carried.coc7.melee.Trench " \
                    "knife for the way back" in said[0] and "not expressible" not in said[0]


def test_a_skill_the_target_writes_no_line_for_is_carried_home():
    """7th edition fights a knife or club with Fighting (Brawl) and writes no level of its own
    for an nWoD Weaponry below the NPC's Brawl: the audit's "dropped" line becomes one carried
    line in the source's words, and the trip home (--fresh) writes Weaponry 2 again."""
    loaded = api.load(ROOT / "fixtures" / "nwod" / "npcs" / "gang-enforcer.yaml")
    there = api.convert(loaded, "coc7", fresh=True)
    said = [x for x in there.losses if x.path == "$.skills.Weaponry"]
    assert [(x.kind, x.rule) for x in said] == [("kept-verbatim", "xsys.carried")]
    assert said[0].message.startswith("Weaponry 2 (nwod, melee competence 0.560): no line for it in a coc7 stat "
                                      "block; carried verbatim at carried.nwod.sheet_skills.Weaponry")
    plain = codec.to_builtins(there.document)
    assert plain["carried"]["nwod"]["sheet_skills"]["Weaponry"] == 2
    home = api.convert(api.from_plain({k: v for k, v in plain.items() if k != "xsys"}), "nwod", fresh=True)
    assert home.document.skills["Weaponry"] == 2


def test_a_line_of_two_guns_under_a_broad_skill_comes_home_as_it_was():
    """A 7th-edition Firearms (Rifle/Shotgun) 45 beside Firearms (Handgun) 65 is written as nWoD
    Firearms 3, the handgun's level: the rifle line is carried like the handgun line (it had
    come home at the handgun's 65) and, Firearms unedited, comes home 45; an edited Firearms is
    converted (core.skillplan)."""
    npc = {"system": "coc7", "kind": "npc", "name": "Poacher", "STR": 60, "CON": 60, "SIZ": 60, "DEX": 60,
           "APP": 50, "INT": 60, "POW": 50, "EDU": 60,
           "skills": {"Firearms (Handgun)": 65, "Firearms (Rifle/Shotgun)": 45}}
    there = api.convert(api.from_plain(npc), "nwod", fresh=True)
    plain = codec.to_builtins(there.document)
    assert plain["skills"]["Firearms"] == 3
    assert plain["carried"]["coc7"]["sheet_skills"] == {"Firearms (Handgun)": 65, "Firearms (Rifle/Shotgun)": 45}
    assert any(x.rule == "core.skillplan" and "Firearms (Rifle/Shotgun) 45 (coc7) is written as Firearms"
               in x.message for x in there.losses)
    plain.pop("xsys", None)  # nothing remembered but the carried block
    home = codec.to_builtins(api.convert(api.from_plain(plain), "coc7", fresh=True).document)
    assert home["skills"]["Firearms (Rifle/Shotgun)"] == 45 and home["skills"]["Firearms (Handgun)"] == 65
    plain["skills"]["Firearms"] = 1  # edited: both lines are the new level's
    edited = codec.to_builtins(api.convert(api.from_plain(plain), "coc7", fresh=True).document)
    assert edited["skills"]["Firearms (Rifle/Shotgun)"] < 45 and edited["skills"]["Firearms (Handgun)"] < 65
