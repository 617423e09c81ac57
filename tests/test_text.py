"""Normalization: the ASCII fast path and the general path agree."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st

from skillstudio.core.model.text import _NON_WORD, normalize, sanitize_name, words_of


@given(st.text(alphabet=string.printable, max_size=40))
def test_ascii_fast_path_matches_the_regex_rule(text: str) -> None:
    assert normalize(text) == " ".join(_NON_WORD.sub(" ", text.lower()).split())


@given(st.text(max_size=60) | st.text(alphabet=string.printable, max_size=60))
def test_words_of_are_the_normalized_words(text: str) -> None:
    assert words_of(text) == normalize(text).split()


def test_normalize_examples() -> None:
    assert normalize("Review THIS!!  (now)_ok") == "review this now ok"
    assert normalize("Café — naïve résumé") == "café naïve résumé"
    assert sanitize_name("  Repo Survey!! ") == "repo-survey"
