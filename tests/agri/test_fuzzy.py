"""Names a speech model mishears are still found: a product or farmer's full name with a letter dropped, added
or doubled is matched to the register (and shown on the card for the officer to confirm); an exact term always
wins, and short words are never stretched to a name."""

from hypothesis import given, settings
from hypothesis import strategies as st

from handlers.agri.extract import FieldReader
from handlers.agri.fuzzy import MIN_CHARS
from tests.registers import seed_book
from handlers.agri.textmatch import TermMatcher, normalise

BOOK = seed_book()
READER = FieldReader(BOOK)
NAMES = sorted({(p.id, normalise(p.name)) for p in BOOK.products.values()
                if len(normalise(p.name).split()[0]) >= 6 and normalise(p.name).isascii()})


def _products(text: str) -> set[str]:
    return {h.key for h in READER.terms.find(normalise(text)) if h.category == "product"}


def test_misheard_product_and_farmer_names_in_new_phrasings_are_matched() -> None:
    assert _products("suggested litox 50 for the leaf spot") == {"P001"}
    assert _products("he took proclaimm for the borer") == {"P007"}
    assert _products("gave her confidr samples") == {"P005"}
    farmers = {h.key for h in READER.terms.find(normalise("met Seilaja Reddy near the tank")) if h.category == "farmer"}
    assert farmers == {"F005"}


def test_unrelated_words_are_not_stretched_to_names() -> None:
    assert _products("recent rain, native seed, confident farmer, the crop looks good") == set()
    assert _products("trap") == {"P009"} and _products("tarp") == set()  # short words match exactly or not at all


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(NAMES), st.data())
def test_a_product_name_with_one_letter_dropped_is_still_that_product(name: tuple[str, str], data: st.DataObject) -> None:
    product_id, text = name
    first = text.split()[0]
    cut = data.draw(st.integers(min_value=0, max_value=len(first) - 1))
    misheard = first[:cut] + first[cut + 1:] + text[len(first):]
    assert product_id in _products(f"advised {misheard} today"), misheard


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(NAMES), st.text(alphabet="abcdefghijklmnopqrstuvwxyz ", max_size=30))
def test_an_exact_name_always_wins_over_a_near_one(name: tuple[str, str], noise: str) -> None:
    product_id, text = name
    assert product_id in _products(f"{noise} {text} {noise}")


def test_fuzzy_matching_is_off_for_categories_not_asked_for() -> None:
    plain = TermMatcher(fuzzy=frozenset())
    plain.add("product", "P001", ["Blitox 50"])
    assert plain.find("litox 50") == []
    assert MIN_CHARS >= 5
