"""Telugu as officers write it (walk 5al steps 12, 13, 20; issue 28): a dose in Telugu digits or number words
("ఎకరాకు యాభై ml", "నూట ఇరవై"), a number ending a product's name before "ఎకరాకు" (no count of acres: "X 30
ఎకరాకు 250 ml" is 250 ml per acre, not 250 for 30 acres), a Dose edit naming two products, and a register
crop's word with a case ending on its oblique stem (నువ్వుల లో, ఆముదానికి, nuvvulaku). Words and crops here are
not the walk's."""

import pytest

from bot.core.app import App
from handlers.agri.doses import find_doses
from handlers.agri.extract import FieldReader
from handlers.agri.models import Crop
from handlers.agri.register import FieldBook
from handlers.agri.textmatch import normalise
from tests.agri.conftest import button, say
from tests.registers import seed_book


@pytest.mark.parametrize(("note", "dose"), [
    ("Coragen ఎకరాకు యాభై ml", "50 ml/acre"),
    ("Proclaim ౯౦ గ్రాములు ఎకరానికి", "90 g/acre"),
    ("Coragen ఎకరాకు నూట ఇరవై మి.లీ", "120 ml/acre"),
    ("Confidor లీటరుకు ముప్పై ml", "30 ml/litre"),
    ("Proclaim rendu vandala grams ekaraniki", "200 g/acre"),
    ("Ulala పావు కిలో ఎకరాకు", "0.25 kg/acre"),
])
def test_telugu_number_words_and_digits_are_read_as_the_dose(note: str, dose: str) -> None:
    [advice] = FieldReader(seed_book()).advice_in(normalise(note), "cotton")
    assert advice.dose == dose, note


@pytest.mark.parametrize("said", ["Borer Guard 40 ఎకరాకు 250 ml", "Borer Guard 40 ekaraku 250 ml"])
def test_a_number_ending_a_product_name_is_no_count_of_acres(said: str) -> None:
    assert [d.text() for d in find_doses(normalise(said))] == ["250 ml/acre"]


def _book_with_crops() -> FieldBook:
    seed = seed_book()
    crops = [*seed.crops.values(), Crop(id="til", name="Sesame", name_te="నువ్వులు", aliases=["nuvvulu"]),
             Crop(id="kastor", name="Castor", name_te="ఆముదం", aliases=["amudam"]),
             Crop(id="senaga", name="Bengal gram", name_te="శనగలు", aliases=["senagalu"])]
    return FieldBook(list(seed.products.values()), seed.issue_book, list(seed.villages.values()),
                     list(seed.farmers.values()), list(seed.officers.values()), crops=crops)


@pytest.mark.parametrize(("note", "crop"), [
    ("నువ్వుల లో పురుగు ఎక్కువ", "til"), ("నువ్వులకు మందు చెప్పాను", "til"), ("ఆముదానికి మందు", "kastor"),
    ("ఆముదపు పంట బాగుంది", "kastor"), ("nuvvulaku mandu cheppanu", "til"), ("amudaniki spray", "kastor"),
    ("శనగల లో ఎండు తెగులు", "senaga"), ("senagala lo purugu", "senaga"),
])
def test_a_register_crop_with_a_case_ending_is_read(note: str, crop: str) -> None:
    reader = FieldReader(_book_with_crops())
    assert [h.key for h in reader.terms.find(normalise(note)) if h.category == "crop"] == [crop], note


@pytest.mark.hindsight
async def test_a_dose_edit_naming_two_products_gives_each_its_dose(agri_app: App) -> None:
    conv = agri_app.conversation
    [card] = [r for r in await conv.handle(say(
        "ravi", "Raju Yadav cotton pink bollworm 20 percent, Proclaim and Coragen advised, he agreed.")) if r.card_id]
    [choose] = await conv.handle(say("ravi", callback=button(card, "Edit")))
    await conv.handle(say("ravi", callback=button(choose, "Dose")))
    [shown] = await conv.handle(say("ravi", "Proclaim 90 g/acre; Coragen 50 ml per acre"))
    dose = next(line for line in shown.text.splitlines() if line.startswith("Dose"))
    assert "Proclaim: 90 g/acre" in dose and "Coragen: 50 ml/acre" in dose, shown.text
