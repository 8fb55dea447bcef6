"""A roster's loss report is grouped (conversions/lossgroups.py): one entry per kind of loss,
path pattern and message pattern, with its count and the first NPCs it hit, in the
document's xsys block and on the terminal; ``--losses full`` writes one loss a line as
before; a document of one NPC has its full report either way; ``--strict`` counts the same
losses."""

from __future__ import annotations

import copy
import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from helpers import fixture_npcs, run_main
from xsys.conversions import api, documents, lossgroups, stream
from xsys.conversions.lossgroups import Grouper, message_pattern, path_pattern
from xsys.core import codec
from xsys.core.trace import Loss

ROOT = Path(__file__).resolve().parent.parent
COC_NPCS = sorted((ROOT / "fixtures" / "coc" / "npcs").glob("*.yaml"))


def _variants(n: int) -> list[dict]:
    """`n` coc NPCs: the fixture NPCs in turn, each copy renamed and its skills shifted, so
    that the numbers in their losses differ from copy to copy."""
    pool = fixture_npcs("coc")
    out = []
    for i in range(n):
        npc = copy.deepcopy(pool[i % len(pool)])
        npc["name"] = f"{npc['name']} #{i}"
        npc["skills"] = {k: max(1, min(99, v + (i * 7) % 23 - 11)) for k, v in npc.get("skills", {}).items()}
        out.append(npc)
    return out


def _roster(n: int) -> dict:
    return {"system": "coc", "kind": "roster", "name": f"{n} variants", "npcs": _variants(n)}


def _key(x: Loss) -> tuple[str, ...]:
    return (x.kind, x.level, path_pattern(x.path), x.rule, x.system)


# ---- the patterns -------------------------------------------------------------------------

def test_the_path_pattern_generalises_every_index():
    assert path_pattern("$.npcs[12].skills.Dodge") == "$.npcs[*].skills.Dodge"
    assert path_pattern("$.npcs[3].weapons[1].damage") == "$.npcs[*].weapons[*].damage"
    assert path_pattern("$.name") == "$.name"


def test_the_message_pattern_generalises_numbers_dice_and_names_not_calibres():
    msg = "Vision 10 (spot competence 0.250) lies below: written at Vision 12, +1 to hit, 65%"
    assert message_pattern(msg) == "Vision <n> (spot competence <n>) lies below: written at Vision <n>, +<n> to hit, <n>%"
    assert message_pattern("damage 2d+1, then 15d and 1d10") == "damage <dice>, then <dice> and <dice>"
    # numbers inside a name or a calibre are the item's, not the NPC's
    kept = "M1903 fires 7.62x51mm, .50 BMG and .30-06; AK-47; 3e derives it"
    assert message_pattern(kept) == kept
    # a GURPS skill's level is the NPC's (the Stealth-5 of one NPC, the Stealth-10 of another: one
    # group, not a group per level that the report then cuts down to "<...>"); a default's
    # attribute and offset (DX-5) is the rule's
    assert message_pattern("Stealth-5 is on no 3e sheet: untrained it is 8 (DX-5); written Stealth-4") \
        == "Stealth-<n> is on no 3e sheet: untrained it is <n> (DX-5); written Stealth-<n>"
    assert message_pattern("Sten Mk II: line for Mickey", npc_name="Mickey", item_name="Sten Mk II") \
        == "<item>: line for <npc>"


# ---- the grouped report of a roster -------------------------------------------------------

@pytest.fixture(scope="module")
def conv40():
    return api.convert(api.from_plain(_roster(40), "<roster>"), "gurps", trace=False)


def test_the_groups_count_every_loss_of_the_full_report(conv40):
    full = conv40.losses
    groups = conv40.loss_report("grouped")
    assert conv40.loss_report("full") is full
    assert len(groups) < len(full) / 5  # grouped, not one entry a loss
    assert sum(g.count for g in groups) == len(full)
    # per kind of loss (kind, severity, path pattern, rule, system) the counts agree
    by_kind: Counter = Counter()
    for g in groups:
        by_kind[(g.kind, g.level, g.path, g.rule, g.system)] += g.count
    assert by_kind == Counter(_key(x) for x in full)
    assert {g.rule for g in groups} == {x.rule for x in full}


def _npc_index(x: Loss) -> int:
    return int(re.match(r"\$\.npcs\[(\d+)\]", x.path).group(1))


def _members(conv, g) -> list[tuple[int, Loss]]:
    """The losses of the full report (with their place) that group `g` stands for."""
    npcs = codec.to_builtins(conv.document)["npcs"]
    sources = codec.to_builtins(conv.source)["npcs"]  # a loss's path is a path into the source
    out = []
    for place, x in enumerate(conv.losses):
        if _key(x) != (g.kind, g.level, g.path, g.rule, g.system):
            continue
        npc, source = npcs[_npc_index(x)], sources[_npc_index(x)]
        if "<...>" in g.message or message_pattern(x.message, npc["name"], lossgroups._item_name(source, x.path)) \
                == g.message:
            out.append((place, x))
    return out


def test_each_group_names_the_first_npcs_it_hit(conv40):
    npcs = codec.to_builtins(conv40.document)["npcs"]
    for g in conv40.loss_report("grouped"):
        members = _members(conv40, g)
        assert len(members) == g.count
        firsts = list(dict.fromkeys(_npc_index(x) for _, x in members))[:lossgroups.FIRST_NPCS]
        assert [n.index for n in g.first_npcs] == firsts, g.render()
        assert [n.name for n in g.first_npcs] == [npcs[i]["name"] for i in firsts]


def test_groups_are_ordered_by_severity_then_first_loss(conv40):
    groups = conv40.loss_report("grouped")
    levels = [g.level for g in groups]
    assert levels[0] == "warning" and "info" in levels
    assert levels == sorted(levels, key=lambda lv: lv != "warning")
    for level in ("warning", "info"):
        places = [_members(conv40, g)[0][0] for g in groups if g.level == level]
        assert places == sorted(places)


def test_the_document_and_the_sheet_carry_the_groups(conv40):
    plain = yaml.safe_load(api.dump(conv40, "yaml"))["xsys"]["losses"]
    groups = conv40.loss_report("grouped")
    assert plain == codec.to_builtins(groups)
    assert all(set(x) >= {"kind", "path", "message", "count", "first_npcs"} for x in plain)
    sheet = api.dump(conv40, "md").decode()
    report = sheet[sheet.index("## Loss report"):].splitlines()[2:]
    assert len(report) == len(groups)


def test_full_writes_every_loss_as_before(conv40):
    for fmt in ("yaml", "json", "toml"):
        meta = documents.parse_bytes(api.dump(conv40, fmt, losses="full"), fmt, "<out>")["xsys"]
        # one entry per loss in the stable form of a loss: what xsys has always written
        assert meta["losses"] == codec.to_builtins(conv40.losses)
    sheet = api.dump(conv40, "md", losses="full").decode()
    # every loss is on the sheet at its path; one thing said at several paths is one line naming each
    from xsys.conversions.markdown import md

    report = sheet.split("## Loss report", 1)[1]
    lines = [line for line in report.splitlines() if line.startswith("- ")]
    for loss in conv40.losses:
        assert any(f"{md(loss.path)}" in line and md(loss.message) in line for line in lines), loss.render()


def test_a_kind_of_loss_with_many_messages_is_one_group_with_their_shared_words():
    grouper = Grouper()
    skills = ["handgun", "rifle", "shotgun", "smg", "machine_gun"]
    for i in range(40):
        chosen = ", ".join(skills[j] for j in range(5) if (i >> j) & 1) or "none"
        grouper.add(Loss.of("merged", f"$.npcs[{i}].skills.Firearms", f"Firearms covers {chosen}; the best is kept",
                            "nwod.pool"), {"name": f"npc {i}"})
    (g,) = grouper.result()
    assert g.count == 40 and g.message == "Firearms covers <...> the best is kept"
    assert [n.index for n in g.first_npcs] == [0, 1, 2]
    # three variants or fewer stay apart
    few = Grouper()
    for i in range(9):
        few.add(Loss.of("merged", f"$.npcs[{i}].x", f"kept {['a', 'b', 'c'][i % 3]}"), {"name": f"n{i}"})
    assert [(g.message, g.count) for g in few.result()] == [("kept a", 3), ("kept b", 3), ("kept c", 3)]


def test_a_group_of_many_messages_keeps_the_words_they_share_in_the_middle_too():
    """Four clamped skills of one nWoD Firearms: what the loss says (lies above anything ... can
    express: clamped) is in the middle of each message; the group keeps it, with "<...>" only
    where the messages differ (it read "the source's <...> (competence <n>)")."""
    grouper = Grouper()
    skills = [("handgun", "Firearms (Handgun)"), ("rifle and shotgun", "Firearms (Rifle/Shotgun)"),
              ("smg", "Firearms (Submachine Gun)"), ("machine_gun", "Firearms (Machine Gun)")]
    for i in range(8):
        key, native = skills[i % 4]
        grouper.add(Loss.of("clamped", f"$.npcs[{i}].skills.Firearms", f"the source's {key} competence 0.9{i} lies "
                            f"above anything {native} can express: clamped to its highest level, {native} 99",
                            "coc-ja.skills"), {"name": f"npc {i}"})
    (g,) = grouper.result()
    assert g.count == 8 and g.message == ("the source's <...> competence <n> lies above anything Firearms <...> can "
                                          "express: clamped to its highest level, Firearms <...> <n>"), g.message


def test_findings_of_other_words_at_one_place_are_grouped_apart():
    """One kind of loss at one place, with one rule, may say different things: a GURPS weapon
    line from many table rows, and the capacity no source states. Each kind of finding is its own
    group (by its first words that are no placeholder); they were one group reading "<item>:
    <...>", and a roster's roundings of characteristics and skills one reading "<...>"."""
    grouper = Grouper()
    rows = ["class.handgun", "class.rifle", "class.smg", "weapon.colt", "weapon.glock"]
    for i in range(20):
        npc = {"name": f"n{i}", "weapons": [{"name": "Gun"}]}
        grouper.add(Loss.of("assumed", f"$.npcs[{i}].weapons[0]", f"Gun: GURPS line (damage 2d) from {rows[i % 5]}",
                            "gurps.weapon-stats"), npc)
        if i % 4 == 0:
            grouper.add(Loss.of("assumed", f"$.npcs[{i}].weapons[0]", "Gun: the source states no capacity; written as "
                                "the usual handgun's Shots 7", "gurps.weapon-stats"), npc)
    assert [(g.message, g.count) for g in grouper.result()] == [
        ("<item>: GURPS line (damage <dice>) from <...>", 20),
        ("<item>: the source states no capacity; written as the usual handgun's Shots <n>", 5)]


def test_the_grouper_keeps_a_count_and_the_first_few_npcs_only():
    grouper = Grouper()
    for i in range(5000):
        # reading's losses (phase 0) and writing's (phase 1) come NPC by NPC, as a stream gives them
        grouper.add(Loss.of("rounded", f"$.npcs[{i}].STR", f"STR {i % 90} reads back as {i % 91}"), {"name": f"n{i}"}, 0)
        grouper.add(Loss.of("merged", f"$.npcs[{i}].skills.X", f"note {i}"), {"name": f"n{i}"}, 1)
        if i >= 10:  # losses of writing met first, of reading later: earlier in the report
            grouper.add(Loss.of("merged", f"$.npcs[{i}].skills.X", f"note {i}"), {"name": f"n{i}"}, 0)
    assert grouper.total == 5000 * 3 - 10
    for k in grouper.kinds.values():
        assert len(k.patterns) <= lossgroups.MAX_PATTERNS
        for g in [*k.patterns.values(), *([k.overflow] if k.overflow else [])]:
            assert len(g.npcs) <= lossgroups.FIRST_NPCS
    groups = grouper.result()
    assert sum(g.count for g in groups) == grouper.total
    merged = next(g for g in groups if g.kind == "merged")
    assert [n.index for n in merged.first_npcs] == [10, 11, 12]  # phase 0 comes first in the report


# ---- one NPC: nothing changes ---------------------------------------------------------------

@pytest.mark.parametrize("path", COC_NPCS, ids=lambda p: p.stem)
def test_a_single_npc_is_written_as_before(path):
    conv = api.convert(api.load(path), "gurps", trace=False)
    assert conv.loss_report("grouped") is conv.losses
    for fmt in ("yaml", "md"):
        assert api.dump(conv, fmt) == api.dump(conv, fmt, losses="full")


def test_a_roster_of_one_npc_keeps_its_full_report(tmp_path):
    doc = _roster(1)
    conv = api.convert(api.from_plain(doc, "<one>"), "gurps", trace=False)
    assert conv.losses and conv.loss_report("grouped") is conv.losses
    p = tmp_path / "one.json"
    p.write_bytes(documents.dumps(doc, "json"))
    s = stream.convert_file(str(p), "gurps")
    try:
        assert s.output.read_bytes() == api.dump(conv, "json", losses="full")
    finally:
        s.discard()


# ---- the command line -----------------------------------------------------------------------

def test_the_cli_groups_by_default_and_writes_the_full_report_on_request(tmp_path, capsys):
    src = tmp_path / "r.yaml"
    src.write_bytes(documents.dumps(_roster(30), "yaml"))
    conv = api.convert(api.from_plain(_roster(30), str(src)), "gurps", trace=False)
    code, _, err_grouped = run_main(capsys, "convert", src, "--to", "gurps", "-o", tmp_path / "g.yaml")
    assert code == 0
    code, _, err_full = run_main(capsys, "convert", src, "--to", "gurps", "-o", tmp_path / "f.yaml", "--losses", "full")
    assert code == 0
    assert (tmp_path / "f.yaml").read_bytes() == api.dump(conv, "yaml", losses="full")
    assert (tmp_path / "g.yaml").read_bytes() == api.dump(conv, "yaml")
    warnings = [x for x in conv.losses if x.level == "warning"]
    assert err_full.splitlines() == [f"{src}: {x.render()}" for x in warnings]
    lines = err_grouped.splitlines()
    assert 0 < len(lines) < len(warnings)
    assert sum(int(re.search(r"\((\d+) loss", x).group(1)) for x in lines) == len(warnings)
    code, _, err = run_main(capsys, "convert", src, "--to", "gurps", "--losses", "some")
    assert code == 2 and "--losses" in err


def test_strict_counts_the_same_losses_either_way(tmp_path, capsys):
    src = tmp_path / "r.json"
    src.write_bytes(documents.dumps(_roster(12), "json"))
    errs = []
    for mode in ("grouped", "full"):
        code, _, err = run_main(capsys, "convert", src, "--to", "gurps", "--strict", "-q", "--losses", mode)
        assert code == 1
        errs.append(err)
    assert errs[0] == errs[1] and "loss(es) under --strict" in errs[0]


def test_the_terminal_report_of_a_thousand_npcs_is_a_few_dozen_lines(tmp_path, capsys):
    src = tmp_path / "big.json"
    src.write_bytes(documents.dumps(_roster(1000), "json"))
    code, _, err = run_main(capsys, "convert", src, "--to", "gurps", "-o", tmp_path / "out.json")
    assert code == 0
    lines = err.splitlines()
    assert 0 < len(lines) <= 36, "\n".join(lines)
    written = documents.read_plain(tmp_path / "out.json")["xsys"]["losses"]
    assert len(written) <= 60
    assert sum(x["count"] for x in written if x.get("level", "warning") == "warning") \
        == sum(int(re.search(r"\(([\d,]+) loss", x).group(1).replace(",", "")) for x in lines)


# ---- the web API ------------------------------------------------------------------------------

def test_the_api_request_takes_the_same_choice():
    from xsys.conversions import serve

    text = documents.dumps(_roster(6), "yaml").decode()
    grouped = serve.do_convert(serve.ConvertRequest(document=text, to="gurps"))
    full = serve.do_convert(serve.ConvertRequest(document=text, to="gurps", losses="full"))
    assert sum(x.count for x in grouped.losses) == len(full.losses)
    assert all(x.count == 1 and not x.first_npcs for x in full.losses)
    assert any(x.first_npcs for x in grouped.losses)
    assert yaml.safe_load(full.output)["xsys"]["losses"] == [
        {k: v for k, v in {"kind": x.kind, "path": x.path, "message": x.message, "rule": x.rule,
                           "system": x.system, "level": x.level}.items()
         if v and not (k == "level" and v == "warning")} for x in full.losses]
    with pytest.raises(serve.BadRequest):
        serve.decode_request(b'{"document": "x", "to": "gurps", "losses": "some"}', serve.ConvertRequest)


def test_a_roster_named_in_its_own_words_names_its_npcs(tmp_path):
    """A Polish roster names its NPCs under imię (its declared sheet's name field): its grouped
    report names the first NPCs each group hit, converted whole and streamed alike (it named
    none: the grouper read every NPC's name under "name")."""
    conv = api.convert(_roster(12), "pl-trudnosc", trace=False)
    npcs = codec.to_builtins(conv.document)["npcs"]
    groups = conv.loss_report("grouped")
    assert groups and all(g.first_npcs for g in groups)
    for g in groups:
        assert [n.name for n in g.first_npcs] == [npcs[n.index]["imię"] for n in g.first_npcs], g.render()
    p = tmp_path / "roster.json"
    p.write_bytes(documents.dumps(_roster(12), "json"))
    s = stream.convert_file(str(p), "pl-trudnosc")
    try:
        assert s.output.read_bytes() == api.dump(api.convert(api.from_plain(documents.read_plain(p), str(p)),
                                                             "pl-trudnosc", trace=False), "json")
    finally:
        s.discard()


def test_an_item_is_named_as_the_source_states_it():
    """A loss's path points into the source roster, so the item its message names is the
    source's: a Polish roster written from coc NPCs (its weapons under broń, named by nazwa)
    has each weapon's name as a placeholder, as a gurps one has (it kept them apart)."""
    for to in ("pl-trudnosc", "gurps"):
        conv = api.convert(_roster(40), to, trace=False)
        said = [g.message for g in conv.loss_report("grouped") if g.path == "$.npcs[*].weapons[*].damage"]
        assert said and all("<item>" in m for m in said), (to, said)


def test_a_line_is_named_in_the_sources_own_words():
    """A roster read from a Polish sheet names its weapon lines under nazwa (its sheet's
    line_name): a loss about one line is placed at that line (broń[j]) and its group names the
    line as a placeholder. It read "<...>": every weapon's own GURPS line, one message each."""
    pl = codec.to_builtins(api.convert(_roster(40), "pl-trudnosc", trace=False).document)
    conv = api.convert(pl, "gurps", trace=False)
    lines = [g for g in conv.loss_report("grouped") if g.path == "$.npcs[*].broń[*]" and "GURPS line" in g.message]
    assert len(lines) == 1 and lines[0].message.startswith("<item>: GURPS line (damage <dice>"), lines
    assert lines[0].count == sum(1 for x in conv.losses if "GURPS line" in x.message and ".broń[" in x.path)
