"""coc-zh is our proof that a third party can extend a system without touching our code:
every .py file under plugins/coc_zh/ may import only

- the standard library and msgspec (no ``_private`` names),
- public names of ``xsys.core.<module>`` (no ``_private`` module or name),
- names exported by ``xsys.plugins.coc`` (its ``__all__``), never a submodule such as
  ``xsys.plugins.coc.system`` and never a ``_private`` name,
- its own package (relative imports that stay inside it),

and may not reach private members of those packages or of coc's classes either
(``coc_rules._DICE``, ``self._light_rep(...)``). The checker is tested on bad snippets
first, so that a pass means something."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "plugins" / "coc_zh"
COC = "xsys.plugins.coc"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def coc_exports() -> set[str]:
    import xsys.plugins.coc as coc

    return set(coc.__all__)


def coc_private_members() -> set[str]:
    """Private attributes and methods of coc's public classes (reachable through self or
    super() from a subclass)."""
    import xsys.plugins.coc as coc

    names: set[str] = set()
    for exported in coc.__all__:
        obj = getattr(coc, exported)
        if isinstance(obj, type):
            names |= {n for n in dir(obj) if _private(n)}
            for klass in obj.__mro__:
                names |= {n for n in getattr(klass, "__annotations__", {}) if _private(n)}
    names |= {n for n in vars(coc.CocSystem()) if _private(n)}
    return names


def _module_ok(name: str) -> str | None:
    """Why ``import name`` is not allowed (None: allowed)."""
    parts = name.split(".")
    if any(_private(p) for p in parts):
        return f"private module {name}"
    if parts[0] in sys.stdlib_module_names or parts[0] == "msgspec":
        return None
    if parts[:2] == ["xsys", "core"] and len(parts) <= 3:
        return None
    if name == COC:
        return None
    return f"non-public module of another package: {name}"


def violations(source: str, filename: str = "<snippet>") -> list[str]:
    """Every import of a private name or of a non-public module of another package, and
    every use of a private member of another package, in ``source``."""
    tree = ast.parse(source, filename)
    exports = coc_exports()
    coc_private = coc_private_members()
    bad: list[str] = []
    foreign: set[str] = set()  # local names bound to other packages' modules/objects

    def add(node: ast.AST, why: str) -> None:
        bad.append(f"{filename}:{getattr(node, 'lineno', '?')}: {why}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                why = _module_ok(alias.name)
                if why:
                    add(node, why)
                foreign.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                if node.level > 1:
                    add(node, "relative import leaves the coc_zh package")
                continue
            mod = node.module or ""
            names = [a.name for a in node.names]
            foreign |= {a.asname or a.name for a in node.names}
            if "*" in names:
                add(node, f"star import from {mod}")
                continue
            top = mod.split(".")[0]
            if mod == COC:
                for n in names:
                    if n not in exports:
                        add(node, f"{n} is not exported by {COC}")
            elif mod == "xsys.core" or (mod.startswith("xsys.core.") and _module_ok(mod) is None):
                for n in names:
                    if _private(n):
                        add(node, f"private name {n} from {mod}")
            elif top in sys.stdlib_module_names or top == "msgspec":
                for n in names:
                    if _private(n):
                        add(node, f"private name {n} from {mod}")
            else:
                add(node, _module_ok(mod) or f"non-public module of another package: {mod}")
        elif isinstance(node, ast.Call):
            fn = node.func
            fname = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
            if fname in ("import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant):
                target = node.args[0].value
                if isinstance(target, str) and not target.startswith("."):
                    why = _module_ok(target)
                    if why:
                        add(node, why)
                elif isinstance(target, str) and target.startswith(".."):
                    add(node, "dynamic import leaves the coc_zh package")
        elif isinstance(node, ast.Attribute) and _private(node.attr):
            if isinstance(node.value, ast.Name) and node.value.id in foreign:
                add(node, f"private member {node.value.id}.{node.attr}")
            elif node.attr in coc_private:
                add(node, f"private member of coc's classes: {node.attr}")
    return bad


# ---- the checker catches what it must -------------------------------------------------------------

BAD = [
    "from xsys.plugins.coc.system import CocSystem",
    "import xsys.plugins.coc.system",
    "import xsys.plugins.coc.rules",
    "from xsys.plugins.coc import system",
    "from xsys.plugins.coc import _PUBLIC",
    "from xsys.plugins.coc import *",
    "from xsys.core.ladder import _edges_for",
    "from xsys.core._secret import thing",
    "from xsys.conversions import api",
    "from xsys.testing import conformance_suite",
    "from xsys.plugins.gurps import GurpsSystem",
    "import yaml",
    "from msgspec import _json_schema",
    "from .. import coc",
    "from xsys.plugins.coc import rules as r\nr._DICE",
    "from xsys.core import dice\ndice._icepool()",
    "class S:\n    def f(self):\n        return self._light_rep('daylight')",
    "class S:\n    def f(self):\n        return super()._damage_mean(1, 2, 3, 4, 5, 6, 7)",
    "import importlib\nimportlib.import_module('xsys.plugins.coc.system')",
]

GOOD = [
    "from xsys.plugins.coc import CocSystem, LightEffect, Situation, rules",
    "from xsys.plugins.coc import rules as coc_rules\ncoc_rules.parse_dice('1d6')",
    "from xsys.core import dice\nfrom xsys.core.ladder import Ladder, Step",
    "import msgspec\nfrom msgspec import Meta",
    "from __future__ import annotations\nimport math, tomllib\nfrom fractions import Fraction",
    "from . import rules\nfrom .model import CocZhNpc",
    "class S:\n    def __init__(self):\n        self._zh_cache = None",
]


@pytest.mark.parametrize("source", BAD)
def test_checker_rejects(source):
    assert violations(source), f"not caught: {source!r}"


@pytest.mark.parametrize("source", GOOD)
def test_checker_accepts(source):
    assert violations(source) == []


# ---- the plugin itself ------------------------------------------------------------------------------

FILES = sorted(PACKAGE.rglob("*.py"))


def test_the_package_is_there():
    names = {f.name for f in FILES}
    assert {"__init__.py", "system.py", "model.py", "rules.py"} <= names


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_imports_only_public_names(path):
    assert violations(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT))) == []
