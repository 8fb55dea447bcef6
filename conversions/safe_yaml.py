"""YAML read with PyYAML's safe loader only: no tags that construct objects, and limits
on alias expansion and nesting so that an "alias bomb" is refused instead of eating the
machine's memory. Limits (docs/troubleshooting.md): at most MAX_ALIASES alias uses,
MAX_DEPTH levels of nesting, and MAX_NODES nodes once every alias is expanded."""

from __future__ import annotations

from typing import Any

import yaml

from xsys.core.errors import InputError

MAX_ALIASES = 100
MAX_DEPTH = 64
MAX_NODES = 1_000_000  # nodes of the document with every alias expanded

_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _LimitedLoader(yaml.SafeLoader):
    """SafeLoader that counts alias uses and nesting depth while composing."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._aliases = 0
        self._depth = 0

    def compose_node(self, parent, index):  # type: ignore[override]
        if self.check_event(yaml.AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_ALIASES:
                mark = self.peek_event().start_mark
                raise InputError("too many YAML aliases", expected=f"at most {MAX_ALIASES}",
                                 found=f"more, at line {mark.line + 1}")
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                mark = self.peek_event().start_mark
                raise InputError("YAML nested too deeply", expected=f"at most {MAX_DEPTH} levels",
                                 found=f"more, at line {mark.line + 1}")
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_mapping(self, node, deep=False):  # type: ignore[override]
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                hashable = key in seen
            except TypeError:
                raise InputError("a mapping key must be a plain value",
                                 found=f"a {type(key).__name__} at line {key_node.start_mark.line + 1}") from None
            if hashable:
                raise InputError("duplicate key", found=f"{key!r} at line {key_node.start_mark.line + 1}")
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def _expanded_size(node: yaml.Node, memo: dict[int, int]) -> int:
    """Nodes of `node` with aliases expanded; shared (aliased) nodes are counted once per
    use but measured once, so a billion-node bomb is measured in microseconds."""
    key = id(node)
    if key in memo:
        return memo[key]
    memo[key] = 1  # a cycle counts once instead of recursing forever
    if isinstance(node, yaml.SequenceNode):
        size = 1 + sum(_expanded_size(n, memo) for n in node.value)
    elif isinstance(node, yaml.MappingNode):
        size = 1 + sum(_expanded_size(k, memo) + _expanded_size(v, memo) for k, v in node.value)
    else:
        size = 1
    memo[key] = size
    return size


def load_yaml(text: str, file: str) -> Any:
    try:
        loader = _LimitedLoader(text)
        try:
            node = loader.get_single_node()
            if node is None:
                return None
            size = _expanded_size(node, {})
            if size > MAX_NODES:
                raise InputError("YAML aliases expand the document too far",
                                 expected=f"at most {MAX_NODES} nodes", found=f"{size} nodes")
            return loader.construct_document(node)
        finally:
            loader.dispose()
    except InputError as exc:
        raise exc.with_file(file)
    except yaml.YAMLError as exc:
        msg = str(exc).replace("\n", " ")
        raise InputError(f"malformed YAML: {msg}", file=file) from None
    except RecursionError:
        raise InputError("YAML nested too deeply", file=file) from None
