"""The out-of-tree Cepheus Engine plugin (fixtures/plugins/xsys-cepheus), the tutorial's example.

Two parts:

- it installs for real: pip builds and installs the plugin from its own folder into a
  temporary directory, and fresh `xsys` processes with only that directory added to their path
  find it through the `xsys` entry point (`xsys systems --json`), pass its one-line conformance
  test file, and convert its NPC fixtures to every built-in system and back (`--fresh`), each
  firearm and close-combat skill landing within one published tier of where it came from;
- its mechanic, imported from the source folder, against worked numbers: the exact chance of
  2D6 + DM >= 8, the characteristic DMs, the range table as the check applies it, damage with
  the Effect and armor.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import msgspec
import pytest

ROOT = Path(__file__).resolve().parent.parent
PLUGIN = ROOT / "fixtures" / "plugins" / "xsys-cepheus"
XSYS = Path(sys.executable).with_name("xsys")
BUILT_IN = ("coc", "coc-zh", "gurps", "nwod", "pl-trudnosc")

sys.path.insert(0, str(PLUGIN))  # the unit tests import the plugin from its source folder

from xsys_cepheus import system as cep  # noqa: E402
from xsys_cepheus.model import CepheusArmor  # noqa: E402
from xsys_cepheus.system import Cepheus  # noqa: E402

from xsys.conversions import documents  # noqa: E402
from xsys.core.equating import tier_of  # noqa: E402
from xsys.core.model import Armor, Cover, Light, standard_shot  # noqa: E402
from xsys.core.registry import default_registry  # noqa: E402
from xsys.core.units import Duration, Energy, Illuminance, Length, Speed  # noqa: E402

SYS = Cepheus()


# =========================================================================================
# 1. A real install through the entry point, in separate processes
# =========================================================================================

def _run(args: list[str], env: dict[str, str], cwd: Path, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """pip-installs the plugin from (a copy of) its folder into a target directory; returns
    (target directory, the copied plugin folder, environment for subprocesses)."""
    tmp = tmp_path_factory.mktemp("cepheus")
    src = tmp / "xsys-cepheus"  # a copy: pip builds in-tree and would leave build/ behind
    shutil.copytree(PLUGIN, src, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", ".*"))
    target = tmp / "site"
    base = [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--disable-pip-version-check",
            "--target", str(target), str(src)]
    # Build isolation fetches setuptools from PyPI; without a network, fall back to the
    # environment's own build backend.
    r = _run(base, dict(os.environ), tmp)
    if r.returncode != 0:
        r = _run(base[:4] + ["--no-build-isolation"] + base[4:], dict(os.environ), tmp)
    assert r.returncode == 0, f"pip could not install the plugin:\n{r.stdout[-2000:]}\n{r.stderr[-3000:]}"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "XSYS_PLUGINS", "XSYS_DISABLE_PLUGINS")}
    env["PYTHONPATH"] = str(target)
    return target, src, env


@pytest.mark.slow
def test_xsys_systems_lists_the_installed_plugin(installed):
    target, _, env = installed
    assert (target / "xsys_cepheus" / "tables.toml").is_file()  # the data ships as package data
    r = _run([str(XSYS), "systems", "--json"], env, target.parent)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    (entry,) = [s for s in data["systems"] if s["key"] == "cepheus"]
    assert entry == {"key": "cepheus", "name": "Cepheus Engine", "edition": "System Reference Document (2016)",
                     "dice": SYS.dice, "plugin": "cepheus", "distribution": "xsys-cepheus", "version": "0.1.0"}
    assert not [b for b in data["broken"] if b["plugin"] == "cepheus" or b["distribution"] == "xsys-cepheus"]
    bare = {k: v for k, v in env.items() if k != "PYTHONPATH"}  # without the install: unknown
    r = _run([str(XSYS), "systems", "--json"], bare, target.parent)
    assert "cepheus" not in {s["key"] for s in json.loads(r.stdout)["systems"]}


@pytest.mark.slow
def test_installed_plugin_validates_its_fixtures_and_checks_shots(installed):
    _, src, env = installed
    r = _run([str(XSYS), "validate", "fixtures/cepheus/"], env, src)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count("ok: ") == 7  # six NPCs, one scenario
    r = _run([str(XSYS), "odds", "--system", "cepheus", "fixtures/cepheus/scenarios/cargo_bay_ambush.yaml"], env, src)
    assert r.returncode == 0, r.stderr
    # Brandt: Slug Rifle-2, DEX 10 (+1), low light (-1), one aim action (+1): 2D6 + 3 >= 8 is 30/36
    assert "83.33%  (5/6)  Slug Rifle-2: 2D6 +3, 8+" in r.stdout


@pytest.mark.slow
def test_its_conformance_test_file_passes(installed):
    """The plugin's own one-line test file, run from its folder as its author would."""
    _, src, env = installed
    r = _run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_conformance.py"], env, src,
             timeout=600)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    assert "20 passed" in r.stdout, r.stdout[-2000:]


# The firearm and close-combat skills of the NPC fixtures and the neutral skill each holds.
FIGHTING = {"Slug Pistol": "handgun", "Slug Rifle": "rifle", "Shotgun": "shotgun", "Natural Weapons": "brawl",
            "Melee Combat": "melee"}


@pytest.fixture(scope="module")
def registry():
    """The built-in systems plus this plugin from its source folder, to read what the installed
    plugin's conversions wrote."""
    import xsys_cepheus

    from xsys.core.registry import Registry

    return Registry(extra_plugins=[("cepheus", xsys_cepheus)])


def _rank(registry, path: Path, key: str) -> int | None:
    """The published tier a document's skill for neutral `key` stands in, read as the system reads
    it (its own characteristics count: a Cepheus DEX 10 is a level's worth) and placed on the
    system's tiers at median characteristics (tests/test_calibration.py reads fixtures so);
    not stated: untrained; None where the system has no skill for it."""
    from xsys.conversions import api

    loaded = api.load(path, registry=registry)
    s = registry.system(loaded.system)
    npc = s.npc_type(**{n: getattr(loaded.document, n) for n in s.npc_type.__struct_fields__})
    comp = s.npc_to_neutral(npc).value.skills.get(key)
    native = next((n for n, keys in s.skills().items() if key in keys), None)
    if native is None or comp is None:
        return None if native is None else 0
    return tier_of(s.tiers(native), s.level_for(native, comp, {"@key": key})).rank


@pytest.mark.slow
@pytest.mark.parametrize("to", BUILT_IN)
def test_npcs_convert_to_every_built_in_system_and_back_within_one_tier(installed, registry, tmp_path, to):
    """Each NPC fixture to `to` and back (`--fresh`: from what the target wrote, not from the
    remembered source), by the installed plugin in fresh `xsys` processes: every firearm and
    close-combat skill lands in its source's tier or the next, both ways."""
    _, src, env = installed
    there, back = tmp_path / to, tmp_path / "back"
    r = _run([str(XSYS), "convert", "fixtures/cepheus/npcs/", "--to", to, "--out-dir", str(there), "-q"], env, src)
    assert r.returncode == 0, r.stderr[-3000:]
    r = _run([str(XSYS), "convert", str(there), "--to", "cepheus", "--fresh", "--out-dir", str(back), "-q"], env, src)
    assert r.returncode == 0, r.stderr[-3000:]
    checked = 0
    for f in sorted((src / "fixtures" / "cepheus" / "npcs").glob("*.yaml")):
        for skill, key in FIGHTING.items():
            if skill not in documents.read_plain(f)["skills"]:
                continue
            source, landed, returned = (_rank(registry, p, key) for p in (f, there / f.name, back / f.name))
            if landed is None:
                continue  # the target has no skill for it (pl-trudnosc: no close combat): carried
            assert abs(landed - source) <= 1, f"{f.name} {skill}: cepheus tier {source} -> {to} tier {landed}"
            assert abs(returned - landed) <= 1, f"{f.name} {skill}: {to} tier {landed} -> cepheus tier {returned}"
            checked += 1
    assert checked >= 8  # eight firearm skills; five close-combat ones where the target has such skills


# =========================================================================================
# 2. The mechanic, with worked numbers
# =========================================================================================

def test_task_throw_is_exact():
    # cepheus.task: 2D6 >= 8 in 15 of 36 throws; +1 DM (>= 7) 21/36; the untrained -3 (>= 11) 3/36
    assert cep.chance(0) == Fraction(15, 36)
    assert cep.chance(1) == Fraction(21, 36)
    assert cep.chance(-3) == Fraction(3, 36)
    assert cep.chance(6) == 1 and cep.chance(-5) == 0 and cep.chance(-4) == Fraction(1, 36)
    brute = {dm: Fraction(sum(1 for a, b in itertools.product(range(1, 7), repeat=2) if a + b + dm >= 8), 36)
             for dm in range(-8, 9)}
    assert all(cep.chance(dm) == p for dm, p in brute.items())


def test_characteristic_dms():
    # cepheus.characteristic-dm: 0 -3, 1-2 -2, 3-5 -1, 6-8 0, 9-11 +1, 12-14 +2, 15 +3
    assert [cep.dm(v) for v in range(16)] == [-3, -2, -2, -1, -1, -1, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3]


def test_range_table_as_the_check_applies_it():
    # cepheus.range: a pistol at Short range (3-12 m) is Average, Medium Difficult, Long Very
    # Difficult; empty cells 2 harder than the band before (cepheus.range.beyond); a rifle's and a
    # pistol's Personal/Close penalties give way to the farther band's (cepheus.range.close-in)
    assert [v for v, _ in cep.range_dms("pistol")] == [0, 0, 0, -2, -4, -6, -8]
    assert [v for v, _ in cep.range_dms("rifle")] == [0, 0, 0, 0, 0, -2, -4]
    assert [r for _, r in cep.range_dms("rifle")][:2] == ["cepheus.range.close-in"] * 2
    assert [v for v, _ in cep.range_dms("thrown")] == [0, 0, -2, -2, -4, -6, -8]
    for cat in ("thrown", "pistol", "rifle", "shotgun", "assault weapon"):
        row = [v for v, _ in cep.range_dms(cat)]
        assert row == sorted(row, reverse=True)  # never easier farther away


def _shot(cls="handgun", distance=10.0, **changes):
    shot = standard_shot(cls)
    return msgspec.structs.replace(shot, distance=Length(distance), **changes)


def test_check_of_a_shot_with_worked_numbers():
    # a Glock-class pistol at 10 m by a Slug Pistol-1 shooter of DEX 7: 2D6 + 1 >= 8 (21/36)
    c = SYS.check_at(_shot(), "Slug Pistol", 1, {"DEX": 7})
    assert c.chance == Fraction(21, 36) and c.modifiers == []
    # DEX 9 (+1), 30 m (Medium, Difficult -2), full moon (low light -1), 4 s of aim (two minor
    # actions, +2), half behind cover (-1): 2D6 + 1 + 1 - 2 - 1 + 2 - 1 = 2D6 + 0 -> 15/36
    shot = _shot(distance=30.0, light=Light(illuminance=Illuminance(0.25)))
    shot = msgspec.structs.replace(shot, shooter=msgspec.structs.replace(shot.shooter, aim_time=Duration(4.0)),
                                   target=msgspec.structs.replace(shot.target, cover=Cover(exposure=0.5)))
    c = SYS.check_at(shot, "Slug Pistol", 1, {"DEX": 9})
    assert c.chance == Fraction(15, 36)
    assert sorted((m.rule, m.value) for m in c.modifiers) == [
        ("cepheus.aim", 2), ("cepheus.characteristic-dm", 1), ("cepheus.cover", -1), ("cepheus.darkness", -1),
        ("cepheus.range", -2)]
    assert all(m.source == "assumed" for m in c.modifiers)
    # night-vision goggles negate the darkness (cepheus.darkness): back to 2D6 + 1
    goggles = msgspec.structs.replace(shot, light=Light(illuminance=Illuminance(0.25), aids=["nv-goggles"]))
    assert SYS.check_at(goggles, "Slug Pistol", 1, {"DEX": 9}).chance == Fraction(21, 36)
    # a target running 5 m/s covers 30 m a round: -3 (cepheus.movement)
    running = msgspec.structs.replace(_shot(), target=msgspec.structs.replace(_shot().target, speed=Speed(5.0)))
    assert SYS.check_at(running, "Slug Pistol", 1, {"DEX": 7}).chance == Fraction(6, 36)


def test_damage_adds_the_effect_and_armor_takes_its_points():
    # 2D6 + 6 >= 8 always hits; Effect = throw - 2 (0..10). A 1D6 weapon against armor 3:
    # throw 2 (Effect 0) with a 1 on the die does max(1 - 3, 0) = 0; Effect 6+ always at least 1
    dist = cep.damage_dist(6, 1, 3)
    assert sum(dist.values()) == 1
    assert dist[0] == Fraction(1, 36) * Fraction(3, 6) + Fraction(2, 36) * Fraction(2, 6) \
        + Fraction(3, 36) * Fraction(1, 6)
    assert min(k for k in dist) == 0 and max(k for k in dist) == 6 + 10 - 3
    # a miss is 0: 2D6 - 5 hits only on 13+, never
    assert cep.damage_dist(-5, 3, 0) == {0: Fraction(1)}
    # the check carries the distribution: a rifle (3D6) vs NIJ III plate (combat armor, 11)
    shot = _shot("rifle", 25.0)
    plate = Armor(name="plate", stops=Energy(3440.0))
    hit = SYS.check_at(shot, "Slug Rifle", 2, {"DEX": 7})
    armored = SYS.check_at(msgspec.structs.replace(shot, target=msgspec.structs.replace(shot.target, armor=[plate])),
                           "Slug Rifle", 2, {"DEX": 7})
    assert hit.chance == armored.chance == Fraction(26, 36)
    assert armored.damage_mean < hit.damage_mean
    assert SYS.weapon_dice(shot.weapon) == "3D6" and SYS.weapon_dice(_shot("shotgun").weapon) == "4D6"


def test_tiers_and_the_standard_adult():
    tiers = SYS.tiers("Slug Pistol")
    assert [(t.rank, t.lowest, t.typical) for t in tiers] == [(0, -3, -3), (1, 0, 0), (2, 1, 1), (3, 2, 2), (4, 3, 3)]
    assert all(t.rule == "cepheus.tiers" and t.source == "assumed" for t in tiers)
    assert SYS.standard_health == 14.0  # END 7 + STR or DEX 7 (cepheus.health)
    comps = [SYS.competence("Slug Pistol", lv, {"@key": "handgun"}) for lv in SYS.skill_levels("Slug Pistol")]
    assert comps == sorted(comps) and len(set(comps)) == len(comps)


def test_every_rule_is_assumed_with_its_srd_section():
    rules = cep.tables()["rule"]
    assert SYS.rule_ids() == set(rules)
    assert all(r["source"] == "assumed" and r["where"] and r["text"] for r in rules.values())
    readme = (PLUGIN / "README.md").read_text()
    assert all(f"`{k}`" in readme or k.removeprefix("cepheus") in readme for k in rules)


def test_the_core_reads_the_register_skills_and_ladders_from_the_declared_data():
    # data_package = __package__: no rule_register, skills or ladders written out
    for name in ("rule_register", "skills", "ladders", "characteristics"):
        assert name not in Cepheus.__dict__, name
    from xsys.core.system import percentile_ladder

    assert set(SYS.characteristics()) == set(cep.tables()["characteristics"]) == {"STR", "DEX", "END", "INT", "EDU"}
    for n, spec in SYS.characteristics().items():  # characteristic_roll = "2D6": each on 2D6
        rolled = percentile_ladder(f"characteristic.{n}", cep.TWO_D6, "cepheus.characteristics", "assumed")
        assert spec.neutral == cep.tables()["characteristics"][n] and spec.ladder.steps == rolled.steps
    assert SYS.rule_register() == cep.tables()["rule"]
    assert SYS.skills()["Slug Pistol"] == tuple(cep.tables()["skills"]["Slug Pistol"])
    lads = SYS.ladders()
    assert set(lads) == set(cep.ladders()) | {f"characteristic.{n}" for n in SYS.characteristics()}
    assert lads["range"].steps == cep.ladders()["range"].steps


def test_the_plugin_imports_only_the_public_contract():
    for f in (PLUGIN / "xsys_cepheus").glob("*.py"):
        text = f.read_text()
        assert "xsys.plugins" not in text and "xsys.conversions" not in text, f.name


# =========================================================================================
# 3. The tutorial (docs/writing-a-plugin.md) quotes the plugin faithfully
# =========================================================================================

def test_tutorial_snippets_are_real_code_from_the_plugin():
    import re

    text = (ROOT / "docs" / "writing-a-plugin.md").read_text()
    snippets = re.findall(r"<!-- from: (\S+) -->\n```\w*\n(.*?)\n```", text, re.S)
    assert len(snippets) >= 20
    for path, body in snippets:
        source = {line.strip() for line in (PLUGIN / path).read_text().splitlines()}
        for line in body.splitlines():
            if line.strip() in ("", "..."):
                continue
            assert line.strip() in source, f"docs/writing-a-plugin.md quotes {path} wrongly: {line.strip()!r}"
    assert "fixtures/plugins/xsys-cepheus" in (ROOT / "README.md").read_text()


def test_a_rating_other_than_its_catalog_items_wins_and_is_said():
    """core.armorline.read, the tutorial's armor line: a line naming a catalog item (the Heavy
    Kevlar vest, 1480 J) at another rating is the sheet's rating, said once as assumed; at the
    item's own rating it is the item, said nothing."""
    from xsys.core.trace import Collector

    lad = cep.ladders()["armor"]
    item = lad.native(1480.0)
    col = Collector("cepheus")
    vest = SYS.armor_to_neutral(CepheusArmor(name="Heavy Kevlar vest", rating=5), col, "$.armor[0]")
    assert item == 9 and float(vest.stops) == lad.neutral(5) == 440.0 and vest.kind == "soft-vest"
    assert [(x.kind, x.path, x.message) for x in col.losses] == [
        ("assumed", "$.armor[0].rating", "Heavy Kevlar vest: rating 5 is not the armor of its catalog item "
                                         "heavy-kevlar-vest (1480 J: rating 9); the sheet's rating 5 is kept (it stops 440 J)")]
    # a rating that is no row of the table: its nearest row, said so
    col = Collector("cepheus")
    near = SYS.armor_to_neutral(CepheusArmor(name="Heavy Kevlar vest", rating=4), col, "$.armor[0]")
    assert float(near.stops) == lad.neutral(lad.nearest_native(4))
    assert f"the sheet's rating 4 is read as the nearest row, rating {lad.nearest_native(4)}" in col.losses[0].message
    quiet = Collector("cepheus")
    same = SYS.armor_to_neutral(CepheusArmor(name="Heavy Kevlar vest", rating=item), quiet, "$.armor[0]")
    assert float(same.stops) == 1480.0 and not quiet.losses


def test_a_shots_context_is_the_characteristics_its_shot_sheet_names():
    """The core's default shot_context (the tutorial declares none): the characteristics the shot
    sheet names, at the steps of the shooter's percentiles; the median adult where the shot
    states none. It sets the DEX DM of a neutral shot's check."""
    dex = SYS.characteristics()["DEX"]
    assert SYS.shot_context(_shot()) == {"DEX": dex.ladder.native(0.5)} == {"DEX": 7}
    quick = _shot()
    quick = msgspec.structs.replace(quick, shooter=msgspec.structs.replace(quick.shooter,
                                                                           characteristics={"dexterity": 0.99}))
    high = SYS.shot_context(quick)["DEX"]
    assert high == dex.ladder.native(0.99) > 7
    assert SYS.check(quick).chance > SYS.check(_shot()).chance  # a better DEX DM
