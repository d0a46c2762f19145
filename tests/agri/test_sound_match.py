"""Voice (issue 28 B): products and problems matched by sound as well as spelling, in both scripts, and a dose
bound to the product it follows; names that only look alike are not matched."""

from datetime import date

import pytest

from handlers.agri.extract import FieldReader
from handlers.agri.fuzzy import same_sound
from tests.registers import seed_book

READER = FieldReader(seed_book())
TODAY = date(2026, 12, 5)


@pytest.mark.parametrize("note", [
    "Raju Yadav cotton pink ballworm, Praclaine suggested, he agreed",
    "Raju Yadav cotton pink boll worm, Proclame accepted",
    "రాజు యాదవ్ పత్తి పింక్ బాల్వార్మ్, ప్రాక్లైన్ సరే అన్నాడు",
])
def test_misheard_products_and_problems_are_matched_by_sound(note: str) -> None:
    visit = READER.read_visit(note, "O01", TODAY)
    assert (visit.farmer_id, visit.problems) == ("F011", ["pink-bollworm"]), note
    assert [(a.product_id, a.reaction) for a in visit.products] == [("P007", "accepted")], note


def test_a_dose_is_bound_to_the_product_it_follows() -> None:
    visit = READER.read_visit("Raju Yadav cotton pink boll worm, Proclame 80 grams per acre, Confider 40 ml per acre",
                              "O01", TODAY)
    assert {a.product_id: a.dose for a in visit.products} == {"P007": "80 g/acre", "P005": "40 ml/acre"}


def test_only_names_that_sound_the_same_match() -> None:
    assert same_sound("praclaine", "proclaim") and same_sound("confider", "confidor")
    assert not same_sound("regent", "nativo") and not same_sound("delegate", "delta") and not same_sound("tilt", "til")
