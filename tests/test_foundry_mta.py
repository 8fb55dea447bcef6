"""The Foundry VTT mta (Chronicles of Darkness) actor reader on actors in the shape the system
saves them (template.json, module/config.js of the mta system): its characterType words, its
melee items' weaponType, merits, descriptions, and the actor types that hold no stat block."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from helpers import run_main
from xsys.conversions import api, documents
from xsys.core import codec


def _actor(character_type: str = "Mortal", items: list[dict[str, Any]] | None = None, **more: Any) -> dict[str, Any]:
    def dots(**kw: int) -> dict[str, Any]:
        return {k: {"value": v} for k, v in kw.items()}

    system = {
        "characterType": character_type,
        "attributes_mental": dots(intelligence=2, wits=3, resolve=2),
        "attributes_physical": dots(strength=3, dexterity=3, stamina=2),
        "attributes_social": dots(presence=2, manipulation=2, composure=2),
        "skills_mental": dots(occult=1),
        "skills_physical": dots(athletics=3, brawl=2, weaponry=2, firearms=0),
        "skills_social": dots(intimidation=1),
        "health": {"max": 7, "value": 7, "lethal": 7, "aggravated": 7},
        "willpower": {"max": 4, "value": 4},
        "derivedTraits": {"size": {"value": 0, "mod": 0}},
        **more,
    }
    return {"name": "Test Subject", "type": "character", "system": system, "items": items or []}


def _item(kind: str, name: str, **system: Any) -> dict[str, Any]:
    return {"name": name, "type": kind, "system": system}


def _read(tmp_path: Path, actor: dict[str, Any]) -> dict[str, Any]:
    path = tmp_path / "actor.json"
    path.write_text(json.dumps(actor), encoding="utf-8")
    plain, fmt = documents.read_with_format(path)
    assert fmt.removeprefix("plugin:") == "foundry-mta"
    return plain


def _unread(plain: dict[str, Any]) -> list[str]:
    return [x["text"] for x in plain["xsys"]["read"].get("unread", [])]


@pytest.mark.parametrize("ctype,groups,said", [
    ("Vampire", {"vampire_traits": {"bloodPotency": {"value": 2}},
                 "disciplines_common": {"celerity": {"value": 1}}},
     ["Vampire traits: Blood Potency 2", "Vampire traits: Celerity 1"]),
    ("Ghoul", {"disciplines_common": {"vigor": {"value": 1}}}, ["Ghoul traits: Vigor 1"]),
    ("Scelesti", {"mage_traits": {"gnosis": {"value": 2}}}, ["Scelesti traits: Gnosis 2"]),
    ("Sin-Eater", {"sineater_traits": {"synergy": {"value": 3}}}, ["Sin-Eater traits: Synergy 3"]),
])
def test_a_supernatural_template_as_the_system_names_it_is_said(tmp_path, ctype, groups, said):
    unread = _unread(_read(tmp_path, _actor(ctype, **groups)))
    for text in said:
        assert any(u.startswith(text) for u in unread), (text, unread)


def test_a_mortal_says_no_template_traits_it_does_not_use(tmp_path):
    # every character actor carries every template's groups (template.json); a Mortal uses none
    unread = _unread(_read(tmp_path, _actor("Mortal", vampire_traits={"bloodPotency": {"value": 1}})))
    assert not any("traits:" in u for u in unread), unread


def test_a_thrown_melee_item_is_a_thrown_weapon_and_an_unarmed_one_is_fought_bare_handed(tmp_path):
    actor = _actor(items=[_item("melee", "Throwing knives", damage=0, weaponType="Thrown", size=1),
                          _item("melee", "Elbow strike", damage=0, weaponType="Unarmed", size=1),
                          _item("melee", "Baton", damage=1, weaponType="Melee", size=2)])
    plain = _read(tmp_path, actor)
    lines = {w["name"]: w for w in plain["weapons"]}
    assert lines["Throwing knives"]["type"] == "Thrown" and lines["Elbow strike"]["type"] == "Unarmed"
    assert "type" not in lines["Baton"]
    neutral = codec.to_builtins(api.convert(api.from_plain(plain, "actor.json"), "neutral", trace=False).document)
    assert [(w["name"], w["weapon_class"]) for w in neutral["weapons"]] == [("Throwing knives", "thrown")]
    assert {m["name"]: m["melee_class"] for m in neutral["melee"]} == {"Elbow strike": "unarmed", "Baton": "club"}
    coc7 = codec.to_builtins(api.convert(api.from_plain(plain, "actor.json"), "coc7", trace=False).document)
    knives = next(w for w in coc7["weapons"] if w["name"] == "Throwing knives")
    assert knives["skill"] == "Throw"


def test_a_merit_of_no_dots_is_said_not_written_and_one_with_no_rating_has_one(tmp_path):
    plain = _read(tmp_path, _actor(items=[_item("merit", "Fast Reflexes", rating=0), _item("merit", "Danger Sense")]))
    assert plain["merits"] == {"Danger Sense": 1}
    assert any("merit 'Fast Reflexes' at 0 dots" in u for u in _unread(plain))


def test_html_in_the_description_is_text(tmp_path):
    plain = _read(tmp_path, _actor(description="<p>Duellist &amp; scholar &mdash; tall.</p>"))
    assert "Duellist & scholar — tall." in plain["notes"]


@pytest.mark.parametrize("kind,body,words", [
    ("ephemeral", {"ephemeralType": "Spirit", "eph_physical": {"power": {"value": 4}}}, "a Spirit (Rank, Power"),
    ("brief_nightmare", {"best_dice_pool": {"value": 5}}, "a brief nightmare"),
])
def test_an_actor_with_no_stat_block_is_refused_by_name(tmp_path, capsys, kind, body, words):
    path = tmp_path / "spirit.json"
    path.write_text(json.dumps({"name": "Hollow Wind", "type": kind, "system": body}), encoding="utf-8")
    code, out, err = run_main(capsys, "convert", path, "--to", "gurps", "-o", tmp_path / "out.yaml")
    assert code == 2 and "Traceback" not in err and out == ""
    assert f"$.type: an mta {kind} actor is {words}" in err, err
    assert not (tmp_path / "out.yaml").exists()


def test_an_nwod_thrown_line_states_no_ranges_its_throwers_are_used(tmp_path):
    # nwod.range: a thrown object's ranges are Strength + Dexterity + Athletics - Size (WoD p. 162)
    path = tmp_path / "thrower.txt"
    path.write_text("Knife Thrower\nAttributes: Intelligence 2, Wits 3, Resolve 2, Strength 3, Dexterity 3, "
                    "Stamina 2, Presence 2, Manipulation 2, Composure 2\nSkills: Athletics 3, Weaponry 2\n"
                    "Weapons: Throwing knives (Damage 1, Type Thrown, Size 1)\n", encoding="utf-8")
    neutral = codec.to_builtins(api.convert(api.load(path), "neutral", trace=False).document)
    assert [(w["name"], w["weapon_class"]) for w in neutral["weapons"]] == [("Throwing knives", "thrown")]
    assert not neutral.get("melee")
