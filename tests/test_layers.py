"""The layers, read from the source: every module under core/, plugins/ and conversions/ is
parsed with ``ast`` and each ``import`` is taken where it stands (at module level, inside a
function, or under ``if TYPE_CHECKING:``), without importing anything.

- the core imports no plugin and no conversion module (not even for a type);
- nothing the user runs (core, plugins, conversions, the conformance kit) imports the developer
  tools (devtools/: benchmarks, calibration tables);
- no game system's key or fixture is named outside its plugin (and tests, fixtures, docs): the
  core, the application, the kit and the developer tools work on whatever systems are installed;
- a plugin imports the core and its own package only, but for the edges named in
  ``ALLOWED_PLUGIN_EDGES`` with their reason; the format plugins do not import each other
  but for the edges named there;
- no two modules import each other in a circle, counting imports inside functions; a cycle
  that only exists through imports under ``if TYPE_CHECKING:`` is none (they never run).

An allowed edge or cycle that no longer exists fails too: the lists only shrink.

Imports made by name at run time (core/lazy.py's package attributes, the registry's entry
points, ``default_registry().system("coc")``) are not imports in the source and are not seen
here.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"core": "xsys.core", "plugins": "xsys.plugins", "conversions": "xsys.conversions",
            "testing": "xsys.testing", "devtools": "xsys.devtools"}

FORMAT_PLUGINS = ("textblock", "coc_block", "ccfolia", "foundry_coc7", "foundry_mta", "dholes_house", "catalog")

# A format plugin for one system's documents (a Foundry CoC7 actor, a CCFOLIA character, a
# Dhole's House export, a printed Call of Cthulhu stat block are all Call of Cthulhu; a Foundry mta
# actor is nwod) may import that system: its document model and the names its sheets give its stats
# (coc's names module: skill names in every edition and language, 7th-edition characteristics on
# coc's scale; nwod's rule for a 2nd-edition weapon rating, one rule for its text blocks and actors).
# Permanent: the format names its system. It imports no other format plugin.
SYSTEM_FORMATS: dict[str, str] = {"ccfolia": "coc", "dholes_house": "coc", "foundry_coc7": "coc",
                                  "coc_block": "coc", "foundry_mta": "nwod"}

# (importing plugin, imported plugin): why it is allowed, and what must move for it to go.
ALLOWED_PLUGIN_EDGES: dict[tuple[str, str], str] = {
    # permanent: a variant is its parent system with changes
    ("coc_zh", "coc"): "coc-zh is a variant of coc (Chinese edition): its model, rules, system and text layout "
                       "extend coc's",
}

# Cycles (as sorted module lists) still allowed, with the reason and what must move.
ALLOWED_CYCLES: dict[tuple[str, ...], str] = {}


# ---- reading the imports --------------------------------------------------------------------

@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # the imported module (the nearest known one: a name imported from a package is the package)
    where: str  # "module", "function" or "type" (under if TYPE_CHECKING:)
    line: int


def _module_name(path: Path) -> tuple[str, bool]:
    """(dotted name, is a package's __init__) of a source file."""
    rel = path.relative_to(ROOT)
    parts = [PACKAGES[rel.parts[0]], *rel.with_suffix("").parts[1:]]
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def modules() -> dict[str, Path]:
    out = {}
    for top in PACKAGES:
        for path in sorted((ROOT / top).rglob("*.py")):
            if "__pycache__" not in path.relative_to(ROOT).parts:
                out[_module_name(path)[0]] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(source: str, name: str, is_package: bool, known: set[str]) -> list[Import]:
    """Every import of xsys in one module's source, resolved to known module names."""
    found: list[Import] = []

    def nearest(target: str) -> str:
        while target not in known and "." in target:
            target = target.rsplit(".", 1)[0]
        return target

    def targets(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            return [a.name for a in node.names]
        if node.level:
            base = name.split(".") if is_package else name.split(".")[:-1]
            base = base[: len(base) - (node.level - 1)]
            module = ".".join(base + ([node.module] if node.module else []))
        else:
            module = node.module or ""
        return [f"{module}.{a.name}" if f"{module}.{a.name}" in known else module for a in node.names]

    def walk(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                for t in targets(child):
                    if t == "xsys" or t.startswith("xsys."):
                        found.append(Import(name, nearest(t), where, child.lineno))
            inner = where
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for stmt in child.body:
                    walk_one(stmt, "type")
                for stmt in child.orelse:
                    walk_one(stmt, where)
                continue
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and where == "module":
                inner = "function"
            walk(child, inner)

    def walk_one(stmt: ast.AST, where: str) -> None:
        holder = ast.Module(body=[stmt], type_ignores=[])
        walk(holder, where)

    walk(ast.parse(source), "module")
    return found


def all_imports() -> list[Import]:
    mods = modules()
    known = set(mods)
    out = []
    for name, path in mods.items():
        out += imports_of(path.read_text(encoding="utf-8"), name, path.name == "__init__.py", known)
    return out


def cycles(edges: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[tuple[str, ...]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(tuple(sorted(comp)))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for v in sorted(edges):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(out)


def graph(imports: list[Import], kinds: tuple[str, ...]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for i in imports:
        if i.where in kinds and i.target != i.source:
            out.setdefault(i.source, set()).add(i.target)
    return out


def plugin_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["xsys", "plugins"] else None


def _show(imports: list[Import]) -> str:
    return "\n".join(f"  {i.source} -> {i.target} ({i.where}, line {i.line})" for i in dict.fromkeys(imports))


IMPORTS = all_imports()


# ---- the checker itself ----------------------------------------------------------------------

KNOWN = {"xsys.core", "xsys.core.a", "xsys.core.b", "xsys.plugins", "xsys.plugins.p", "xsys.plugins.p.m"}


def test_the_checker_resolves_each_kind_of_import():
    src = ("from . import a\nfrom .b import thing\nimport xsys.plugins.p.m\nfrom typing import TYPE_CHECKING\n"
           "if TYPE_CHECKING:\n    from xsys.plugins.p import m\nelse:\n    import xsys.core.b\n"
           "def f():\n    from ..plugins.p.m import g\n    class C:\n        def h(self):\n            import xsys.core.a\n"
           "import json\n")
    got = [(i.target, i.where, i.line) for i in imports_of(src, "xsys.core.a", False, KNOWN)]
    assert got == [("xsys.core.a", "module", 1), ("xsys.core.b", "module", 2), ("xsys.plugins.p.m", "module", 3),
                   ("xsys.plugins.p.m", "type", 6), ("xsys.core.b", "module", 8),
                   ("xsys.plugins.p.m", "function", 10), ("xsys.core.a", "function", 13)]


def test_the_checker_resolves_relative_imports_in_a_package():
    got = [i.target for i in imports_of("from . import m\nfrom .. import p\n", "xsys.plugins.p", True, KNOWN)]
    assert got == ["xsys.plugins.p.m", "xsys.plugins.p"]


def test_the_cycle_finder():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "e"}, "e": {"d"}, "f": {"f"}}
    assert cycles(edges) == [("a", "b", "c"), ("d", "e")]
    assert cycles({"a": {"b"}, "b": {"c"}}) == []


def test_every_module_was_read():
    names = {i.source for i in IMPORTS}
    assert {"xsys.core.system", "xsys.conversions.api", "xsys.plugins.coc.system", "xsys.plugins.textblock.reader"} <= names
    assert len(modules()) > 60


# ---- the layers ------------------------------------------------------------------------------

def test_the_core_imports_no_plugin_and_no_conversion():
    bad = [i for i in IMPORTS if i.source.startswith("xsys.core")
           and not (i.target == "xsys.core" or i.target.startswith("xsys.core."))]
    assert bad == [], "the core imports outside itself:\n" + _show(bad)


def _plugin_edges() -> dict[tuple[str, str], list[Import]]:
    edges: dict[tuple[str, str], list[Import]] = {}
    for i in IMPORTS:
        src = plugin_of(i.source)
        if src is None:
            continue
        dst = plugin_of(i.target)
        if dst == src or i.target == "xsys.core" or i.target.startswith("xsys.core."):
            continue
        edges.setdefault((src, dst or i.target), []).append(i)
    return edges


def test_plugins_import_only_the_core_and_themselves():
    edges = _plugin_edges()
    bad = [i for key, found in edges.items() if key not in ALLOWED_PLUGIN_EDGES
           and SYSTEM_FORMATS.get(key[0]) != key[1] for i in found]
    assert bad == [], ("a plugin imports something other than xsys.core and its own package (name the edge in "
                       "ALLOWED_PLUGIN_EDGES with its reason only if the restructuring removes it):\n" + _show(bad))


def test_coc7_imports_no_other_plugin():
    """coc7 is written as a third party would write it: its check, armor file, rule register,
    skills and documents are its own or the core's (core.percentile), and its printed stat block
    is the Call of Cthulhu block it names (``text_block``), which the coc_block format plugin
    registers; it imports nothing of coc or of any other plugin."""
    found = [i for (src, _), imports in _plugin_edges().items() if src == "coc7" for i in imports]
    assert found == [], _show(found)
    from xsys.core.registry import default_registry
    from xsys.core.textblock import layout_of

    registry = default_registry()
    layout = layout_of(registry.system("coc7"), registry)
    assert type(layout).__module__ == "xsys.plugins.coc_block.layout" and layout.key == "coc7"


def test_format_plugins_do_not_import_each_other():
    edges = _plugin_edges()
    bad = [i for (src, dst), found in edges.items() if src in FORMAT_PLUGINS and dst in FORMAT_PLUGINS
           and (src, dst) not in ALLOWED_PLUGIN_EDGES for i in found]
    assert bad == [], "format plugins import each other:\n" + _show(bad)


def test_the_allowed_plugin_edges_are_all_still_there():
    gone = sorted(set(ALLOWED_PLUGIN_EDGES) - set(_plugin_edges()))
    assert gone == [], f"these edges are gone: take them off ALLOWED_PLUGIN_EDGES: {gone}"


def test_no_module_level_import_cycle():
    found = cycles(graph(IMPORTS, ("module",)))
    assert found == [], f"modules importing each other at import time: {found}"


def test_no_import_cycle_counting_imports_inside_functions():
    found = cycles(graph(IMPORTS, ("module", "function")))
    bad = [c for c in found if c not in ALLOWED_CYCLES]
    detail = "\n".join(
        f"{c}:\n" + _show([i for i in IMPORTS if i.source in c and i.target in c and i.where != "type"]) for c in bad)
    assert bad == [], "modules importing each other (inside functions too):\n" + detail
    gone = sorted(set(ALLOWED_CYCLES) - set(found))
    assert gone == [], f"these cycles are gone: take them off ALLOWED_CYCLES: {gone}"


def test_nothing_the_user_runs_imports_the_developer_tools():
    bad = [i for i in IMPORTS if not i.source.startswith("xsys.devtools") and i.target.startswith("xsys.devtools")]
    assert bad == [], "the developer tools are imported by the application:\n" + _show(bad)


SYSTEM_KEYS = frozenset({"coc", "coc7", "coc-zh", "gurps", "nwod", "pl-trudnosc"})
_NAMES_A_SYSTEM = re.compile(r"^(?:coc|coc7|coc-zh|gurps|nwod|pl-trudnosc|pl)[.:_][\w-]|fixtures/(?:coc|coc7|coc_zh|gurps|nwod|"
                             r"pl_trudnosc|pl-trudnosc)/")


def system_keys_named(source: str) -> list[tuple[int, str]]:
    """String constants of a module (docstrings aside) that are a built-in system's key, start
    with one ("gurps.ssr", "coc:55", a unit of its own: "gurps_turn") or name one of its fixtures."""
    tree = ast.parse(source)
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
            and (n.value in SYSTEM_KEYS or _NAMES_A_SYSTEM.search(n.value))]


def test_the_key_finder():
    src = 'x = "gurps"\ny = "gurps.ssr"\nz = "fixtures/coc/npcs/a.yaml"\nw = "gurpsish"\nv = "nwod dots"\n' \
          'u = "pl_tura"\ndef f():\n    """coc"""\n'
    assert system_keys_named(src) == [(1, "gurps"), (2, "gurps.ssr"), (3, "fixtures/coc/npcs/a.yaml"), (6, "pl_tura")]


def test_no_system_key_outside_its_plugin():
    bad = [f"{path.relative_to(ROOT)}:{line}: {value!r}" for name, path in modules().items()
           if not name.startswith("xsys.plugins.") for line, value in system_keys_named(path.read_text(encoding="utf-8"))]
    assert bad == [], "a system is named outside its plugin (the choice belongs in a plugin, a fixture or " \
                      "fixtures/devtools/choices.toml):\n" + "\n".join(bad)
