"""Paths of the loss report and the trace read as tokens (core.trace.path_tokens): an item of a
document's list at the head (``$.npcs[2]``) is read apart from the rest of the path, and the
answer is the one the path's grammar gives (``.name`` or ``[index]`` tokens after ``$``)."""

import re

from hypothesis import given, strategies as st

from xsys.core.trace import path_text, path_tokens

_TOKEN = re.compile(r"\.([^.\[\]]+)|\[(\d+)\]")


def _by_grammar(path: str):
    """The tokens of `path` read one by one from its grammar, or None."""
    if not path.startswith("$"):
        return None
    out, pos = [], 1
    for m in _TOKEN.finditer(path, 1):
        if m.start() != pos:
            return None
        out.append(m.group(1) if m.group(1) is not None else int(m.group(2)))
        pos = m.end()
    return tuple(out) if pos == len(path) else None


def test_a_roster_npc_s_path():
    assert path_tokens("$.npcs[12].skills.Machine Gun") == ("npcs", 12, "skills", "Machine Gun")
    assert path_tokens("$.scenes[0].shots[2].shooter.aim_time") == ("scenes", 0, "shots", 2, "shooter", "aim_time")
    assert path_tokens("$.npcs[3]") == ("npcs", 3)
    assert path_tokens("$") == ()


def test_what_is_no_path_is_none():
    for bad in ("npcs[1].a", "$.npcs[1]x", "$.npcs[x].a", "$.npcs[1]..a", "$.npcs[²].a", "$npcs"):
        assert path_tokens(bad) is None, bad


_names = st.text(st.sampled_from("ab _-.[]1²xé"), min_size=0, max_size=6)


@given(st.lists(st.one_of(_names, st.integers(0, 300)), max_size=5), st.text(st.sampled_from(".[]1a"), max_size=3))
def test_every_path_reads_as_its_grammar_says(tokens, tail):
    path = "$" + "".join(f"[{t}]" if isinstance(t, int) else f".{t}" for t in tokens) + tail
    assert path_tokens(path) == _by_grammar(path)
    assert path_tokens(path) == _by_grammar(path)  # asked again: the remembered answer is the same


@given(st.lists(st.one_of(st.from_regex(r"[A-Za-z_ ]{1,8}", fullmatch=True), st.integers(0, 999)), max_size=6))
def test_path_text_and_path_tokens_are_inverse(tokens):
    assert path_tokens(path_text(tokens)) == tuple(tokens)
