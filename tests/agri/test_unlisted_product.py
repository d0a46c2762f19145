"""A product the note names with a dose that the catalogue does not hold is shown on the card as written and
marked not in the catalogue, in English and Telugu; it never vanishes without a word (walk 5al step 55, issue
28: "Coragen 60 ml acre ki cheppanu" on a tenant without Coragen left no trace on the card). Product names here
are not in seeds/."""

import pytest

from bot.core.app import App
from tests.agri.conftest import say

pytestmark = pytest.mark.hindsight


@pytest.mark.parametrize(("user", "note", "marked"), [
    ("ravi", "Raju Yadav cotton pink bollworm 15 percent. Advised Tracer 70 ml per acre, also Proclaim 80 g per "
             "acre, he agreed.", "Tracer (not in the catalogue)"),
    ("ravi", "Srisailam garu patti lo rasam peelche purugu, Actara Plus 40 g acre ki cheppanu, konnaru.",
     "Actara Plus (not in the catalogue)"),
])
async def test_an_off_catalogue_product_is_shown_as_written_and_marked(agri_app: App, user: str, note: str,
                                                                        marked: str) -> None:
    [card] = [r for r in await agri_app.conversation.handle(say(user, note)) if r.card_id]
    products = next(line for line in card.text.splitlines() if line.startswith("Products"))
    assert marked in products, card.text


async def test_a_catalogue_product_is_not_marked(agri_app: App) -> None:
    [card] = [r for r in await agri_app.conversation.handle(say(
        "ravi", "Raju Yadav cotton pink bollworm, spray Proclaim 80 g per acre, he agreed.")) if r.card_id]
    assert "not in the catalogue" not in card.text
