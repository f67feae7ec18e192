"""The log's word wrap: every row fits, no word is broken that fits a row, nothing is lost."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from prompt_toolkit.utils import get_cwidth

from client.terminal.wrap import fragment_text, wrap_fragments

words = st.text(alphabet="ab♣漢(", min_size=1, max_size=14)
styles = st.sampled_from(["", "class:log.seat", "class:score"])


@given(
    fragments=st.lists(
        st.tuples(styles, st.lists(words, min_size=1, max_size=6).map(" ".join)), max_size=8
    ),
    width=st.integers(8, 60),
)
def test_rows_fit_and_words_stay_whole(fragments: list[tuple[str, str]], width: int) -> None:
    rows = wrap_fragments(fragments, width)
    texts = [fragment_text(row) for row in rows]
    assert all(get_cwidth(t) <= width for t in texts), texts
    source = fragment_text(fragments)
    assert "".join(t.strip() for t in texts).replace(" ", "") == source.replace(" ", "")
    for word in source.split():
        if get_cwidth(word) <= width - 2:  # it fits a continued row: it is never broken
            assert any(word in t.split() or word in t for t in texts), (word, texts)
