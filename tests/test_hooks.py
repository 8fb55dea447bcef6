"""Every hook has a test, and every hook is documented with its exact signature."""

import inspect
import re
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from xsys.core import hookspecs
from xsys.core.hookspecs import hookimpl
from xsys.core.registry import Registry
from xsys.core.trace import Modifier

DOCS = Path(__file__).resolve().parent.parent / "docs" / "hooks.md"


def _sig(fn) -> str:
    sig = inspect.signature(fn)
    params = ", ".join(f"{p.name}: {p.annotation}" for p in sig.parameters.values())
    return f"def {fn.__name__}({params}) -> {sig.return_annotation}"


def test_every_hook_is_documented_with_its_signature():
    text = DOCS.read_text()
    sections = dict(re.findall(r"^## (\w+)\n\n```python\n(.*?)\n```", text, re.S | re.M))
    specs = [n for n, f in vars(hookspecs).items() if n.startswith("xsys_") and callable(f)]
    assert sorted(specs) == sorted(hookspecs.HOOK_NAMES)
    for name in specs:
        assert name in sections, f"hook {name} is not documented in docs/hooks.md"
        assert sections[name].strip() == _sig(getattr(hookspecs, name)), f"docs/hooks.md: {name} drifted"
    assert set(sections) == set(specs), "docs/hooks.md documents a hook that does not exist"


def _registry_with(toy_registry, *plugins):
    from toy import toy_system

    from xsys.core import registry
    from xsys.plugins import catalog

    reg = Registry(entry_points=[], extra_plugins=[("toy", toy_system), ("catalog", catalog), *plugins])
    registry.set_default_registry(reg)
    return reg


class HouseRules:
    @hookimpl
    def xsys_shot_modifiers(system, shot):
        if system == "toy" and shot.light.illuminance < 1:
            return [Modifier(rule="house.night", kind="add", value=-5, source="assumed", why="house rule")]
        return None


class Formats:
    @hookimpl
    def xsys_register_formats(register):
        def load(data: bytes):
            # "key=value" lines
            out = {}
            for line in data.decode().splitlines():
                k, _, v = line.partition("=")
                out[k.strip()] = int(v) if v.strip().isdigit() else v.strip()
            return out

        register("kv", ["kv"], load, lambda plain: b"")


class Commands:
    @hookimpl
    def xsys_register_commands(app):
        @app.command("hello", rich_help_panel="Plugins")
        def hello() -> None:
            """Say hello from a plugin."""
            print("hello from a plugin")


def test_shot_modifier_hook_changes_the_chance(toy_registry):
    from xsys.conversions import api
    from xsys.conversions.inline import inline_shot

    shot = inline_shot(distance="10m", light="0.5lx", skill=0.5)
    before = api.odds(shot)[0].check
    reg = _registry_with(toy_registry, ("house", HouseRules))
    after = api.odds(shot, registry=reg)[0].check
    assert after.chance == before.chance - Fraction(5, 100)
    assert after.modifiers[-1].rule == "house.night"


def test_format_hook_reads_a_new_format(toy_registry, tmp_path):
    _registry_with(toy_registry, ("kv", Formats))
    from xsys.conversions import api

    f = tmp_path / "scout.kv"
    f.write_text("system=toy\nkind=npc\nname=Scout\nAGI=9\n")
    loaded = api.load(f)
    assert loaded.document.AGI == 9


def test_command_hook_adds_a_command(toy_registry):
    import typer

    reg = _registry_with(toy_registry, ("cmd", Commands))
    app = typer.Typer()

    @app.command()
    def base() -> None:
        pass

    reg.register_commands(app)
    r = CliRunner().invoke(app, ["hello"])
    assert r.exit_code == 0 and "hello from a plugin" in r.stdout


def test_catalog_hook_clash_names_both(toy_registry):
    # a plugin re-adding ids that are taken is skipped as a whole, the reason naming both files
    class Dup:
        @hookimpl
        def xsys_register_catalog(catalog):
            from importlib import resources
            with resources.as_file(resources.files("xsys.plugins.catalog").joinpath("materials.toml")) as p:
                catalog.add_toml(p)

    reg = _registry_with(toy_registry, ("dup", Dup))
    cat = reg.catalog()
    assert "concrete" in cat.materials and "materials.toml" in cat.origin[("material", "concrete")]
    (dup,) = [b for b in reg.broken if b.name == "dup"]
    assert "defined twice" in dup.reason and dup.reason.count("materials.toml") == 2
