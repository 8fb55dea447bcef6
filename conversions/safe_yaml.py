"""YAML read with PyYAML's safe loader only: no tags that construct objects, and limits
on nesting and on alias expansion so that an "alias bomb" is refused instead of eating the
machine's memory. Limits (docs/troubleshooting.md): MAX_DEPTH levels of nesting, at most
MAX_ALIASES alias uses (``*name``, merge keys ``<<: *name`` included), and at most
MAX_ALIAS_NODES nodes reached through aliases (each use counts the whole subtree it stands
for, its own aliases expanded). A document without aliases is never refused as a bomb,
however many nodes it has: its size is bounded by the input-size limit.

The document is composed by libyaml when PyYAML has it (pure Python otherwise), measured
on the composed node graph, where an alias is a node reached a second time, and only then
constructed."""

from __future__ import annotations

import gc
from typing import Any

import yaml

from xsys.core.codec import key_path
from xsys.core.errors import InputError

MAX_DEPTH = 64
MAX_ALIASES = 100_000  # alias uses per document
MAX_ALIAS_NODES = 2_000_000  # nodes reached through aliases, every alias expanded

_MERGE = "tag:yaml.org,2002:merge"
_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_RESOLVED: dict[str, str] = {}  # plain scalar -> its implicit tag (the safe loader has no path resolvers)


class _Loader(_Base):  # type: ignore[misc, valid-type]
    """The safe loader, refusing duplicate and unhashable keys while constructing."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._merged: dict[int, int] = {}  # id of a flattened mapping -> pairs merged in front

    def resolve(self, kind, value, implicit):  # type: ignore[override]
        # libyaml calls back here for every scalar; plain scalars repeat ("name", "40")
        if kind is yaml.ScalarNode and implicit[0] and not self.yaml_path_resolvers:
            tag = _RESOLVED.get(value)
            if tag is None:
                tag = super().resolve(kind, value, implicit)
                if len(_RESOLVED) < 65_536 and len(value) < 64:
                    _RESOLVED[value] = tag
            return tag
        return super().resolve(kind, value, implicit)

    def flatten_mapping(self, node):  # type: ignore[override]
        if id(node) in self._merged:
            return
        own = sum(1 for k, _ in node.value if k.tag != _MERGE)
        super().flatten_mapping(node)
        # merged pairs come first; a mapping's own key overrides a merged one (the merge-key
        # rule), so only its own keys must be distinct
        self._merged[id(node)] = len(node.value) - own

    def construct_mapping(self, node, deep=False):  # type: ignore[override]
        if not isinstance(node, yaml.MappingNode):
            return super().construct_mapping(node, deep=deep)  # PyYAML's error
        if any(k.tag == _MERGE for k, _ in node.value):
            self.flatten_mapping(node)
        merged = self._merged.get(id(node), 0)
        mapping: dict[Any, Any] = {}
        own: set[Any] = set()
        for i, (key_node, value_node) in enumerate(node.value):
            key = self.construct_object(key_node, deep=deep)
            try:
                repeated = key in own
            except TypeError:
                raise InputError("a mapping key must be a plain value",
                                 found=f"a {type(key).__name__} at line {key_node.start_mark.line + 1}") from None
            if repeated:
                raise InputError("duplicate key", found=f"{key!r} at line {key_node.start_mark.line + 1}")
            if i >= merged:
                own.add(key)
            mapping[key] = self.construct_object(value_node, deep=deep)
        return mapping


def _line(node: yaml.Node) -> int:
    mark = getattr(node, "start_mark", None)
    return mark.line + 1 if mark is not None else 0


def _path(trail: list[Any]) -> str:
    path = "$"
    for key in trail:
        path = f"{path}[{key}]" if isinstance(key, int) else key_path(path, key)
    return path


def measure(root: yaml.Node) -> None:
    """Check the composed graph: nesting depth (aliases expanded), alias uses, nodes
    reached through aliases, recursive aliases, duplicate plain keys (with their path).
    One visit per distinct collection node: a collection met again is an alias use.
    (An alias to a scalar is one node wherever it is used, so scalars are not tracked.)
    Recursion stops at MAX_DEPTH levels, so it stays far from Python's limit."""
    done: dict[int, tuple[int, int]] = {}  # id -> (expanded size, expanded height)
    active: set[int] = set()
    trail: list[Any] = []
    count = [0, 0]  # alias uses, nodes reached through aliases
    Scalar, Sequence = yaml.ScalarNode, yaml.SequenceNode

    def too_deep(node: yaml.Node, found: str = "") -> InputError:
        return InputError("YAML nested too deeply", path=_path(trail), expected=f"at most {MAX_DEPTH} levels",
                          found=found or f"more, at line {_line(node)}")

    def alias(node: yaml.Node, known: tuple[int, int], depth: int) -> None:
        count[0] += 1
        if count[0] > MAX_ALIASES:
            raise InputError("too many YAML aliases", path=_path(trail), expected=f"at most {MAX_ALIASES}",
                             found=f"more, at line {_line(node)}")
        count[1] += known[0]
        if count[1] > MAX_ALIAS_NODES:
            raise InputError("YAML aliases expand the document too far", path=_path(trail),
                             expected=f"at most {MAX_ALIAS_NODES} nodes reached through aliases",
                             found=f"more, at line {_line(node)}")
        if depth + known[1] - 1 > MAX_DEPTH:
            raise too_deep(node, f"more once the alias at line {_line(node)} is expanded")

    def visit(node: yaml.Node, depth: int) -> tuple[int, int]:
        ident = id(node)
        if depth > MAX_DEPTH:
            raise too_deep(node)
        active.add(ident)
        size, height = 1, 1
        if node.__class__ is Sequence:
            pairs: Any = enumerate(node.value)
        else:
            pairs = []
            seen: set[tuple[str, str]] = set()
            for k, v in node.value:
                if k.__class__ is Scalar:
                    if k.tag != _MERGE:
                        ident_k = (k.tag, k.value)
                        if ident_k in seen:
                            trail.append(k.value)
                            raise InputError("duplicate key", path=_path(trail), found=f"{k.value!r} at line {_line(k)}")
                        seen.add(ident_k)
                    pairs.append((k.value, v))
                else:
                    pairs.append(("?", k))
                    pairs.append(("?", v))
        for key, child in pairs:
            if child.__class__ is Scalar:
                size += 1
                if depth + 1 > MAX_DEPTH:
                    trail.append(key)
                    raise too_deep(child)
                if height < 2:
                    height = 2
                continue
            trail.append(key)
            cid = id(child)
            known = done.get(cid)
            if known is not None:
                alias(child, known, depth + 1)
            elif cid in active:
                raise InputError("recursive YAML alias", path=_path(trail),
                                 expected="an alias to a node defined before it, outside it",
                                 found=f"an alias to an enclosing node at line {_line(child)}")
            else:
                known = visit(child, depth + 1)
            trail.pop()
            size += known[0]
            if known[1] + 1 > height:
                height = known[1] + 1
        active.discard(ident)
        done[ident] = result = (size, height)
        return result

    if root.__class__ is not Scalar:
        visit(root, 1)


def load_yaml(text: str, file: str) -> Any:
    collecting = gc.isenabled()
    try:
        # a document is millions of new objects and no garbage: the cycle collector, run
        # again and again over them, would double the time
        gc.disable()
        loader = _Loader(text)
        try:
            node = loader.get_single_node()
            if node is None:
                return None
            measure(node)
            return loader.construct_document(node)
        finally:
            loader.dispose()
            if collecting:
                gc.enable()
    except InputError as exc:
        raise exc.with_file(file)
    except yaml.YAMLError as exc:
        msg = str(exc).replace("\n", " ")
        if "maximum nesting depth" in msg:  # libyaml's own bound (1000 levels)
            raise InputError("YAML nested too deeply", file=file, expected=f"at most {MAX_DEPTH} levels",
                             found="more") from None
        raise InputError(f"malformed YAML: {msg}", file=file) from None
    except RecursionError:
        raise InputError("YAML nested too deeply", file=file, expected=f"at most {MAX_DEPTH} levels",
                         found="more") from None
