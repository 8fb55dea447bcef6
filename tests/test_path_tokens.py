"""Paths of the loss report and the trace read as tokens (core.trace.path_tokens): an item of a
document's list at the head (``$.npcs[2]``) is read apart from the rest of the path, answers are
remembered, and either way the answer is the general reading's (``.name`` or ``[index]`` tokens
after ``$``)."""

from hypothesis import given, strategies as st

from xsys.core import trace
from xsys.core.trace import path_text, path_tokens

# the general reading (every token by the grammar, nothing remembered), which the short way for a
# roster NPC's head and the memo must agree with
_general = trace._path_tokens.__wrapped__


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
    assert path_tokens(path) == _general(path)
    assert path_tokens(path) == _general(path)  # asked again: the remembered answer is the same


@given(st.lists(st.one_of(st.from_regex(r"[A-Za-z_ ]{1,8}", fullmatch=True), st.integers(0, 999)), max_size=6))
def test_path_text_and_path_tokens_are_inverse(tokens):
    assert path_tokens(path_text(tokens)) == tuple(tokens)


@given(st.lists(st.one_of(_names, st.integers(0, 300)), max_size=5))
def test_tokens_given_with_a_path_are_the_ones_it_reads_as(tokens):
    # the loss audit hands a path's tokens along where it built the path from them (core.audit._as_tokens)
    from xsys.core.audit import _as_tokens

    given_ = _as_tokens(tokens)
    assert given_ is None or given_ == path_tokens(path_text(tokens))
    if all(isinstance(t, int) or (t and not set(t) & set(".[]")) for t in tokens):
        assert given_ == tuple(tokens)
