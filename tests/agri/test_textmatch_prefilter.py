"""The term matcher skips a term's pattern when the text lacks the term's first word, and keeps compiled patterns
across readers: neither may change what is found. Checked against every pattern run over the text."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from handlers.agri.textmatch import TermMatcher, _pattern, normalise

WORDS = ["chilli", "mirchi", "thrips", "pink", "bollworm", "పత్తి", "మిరప", "తామర", "blitox", "50", "gf/0012",
         "kv-ins-01", "ramulu", "garu", "lo", "ki", "ledu", "sprayed", "\u200c"]
SUFFIXES = ["", "s", "ed", "lo", "ki", "కి", "లో"]

terms = st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join), min_size=1, max_size=12)
texts = st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(SUFFIXES)), max_size=14).map(
    lambda parts: " ".join(w + s for w, s in parts))


def _every_pattern(named: list[str], text: str) -> set[tuple[str, int, int]]:
    return {(term, m.start(), m.end()) for term in named if normalise(term)
            for m in re.finditer(_pattern(term), text)}


@settings(max_examples=300, deadline=None)
@given(terms, texts)
def test_the_first_word_filter_finds_what_every_pattern_finds(named: list[str], raw: str) -> None:
    matcher = TermMatcher(fuzzy=frozenset())
    for i, term in enumerate(named):
        matcher.add("crop", f"k{i}", [term])
    text = normalise(raw)
    found = {(h.start, h.end) for h in matcher.find(text)}
    brute = _every_pattern(named, text)
    # Overlaps resolve to the longest, so the matcher's spans are a subset of the raw matches; and every raw
    # match is either kept or covered by a kept longer one.
    assert found <= {(s, e) for _, s, e in brute}
    for _, start, end in brute:
        assert any(s <= start and end <= e or (s < end and start < e) for s, e in found)
