"""One note about two farmers is two visits: a card for each farmer with that farmer's crop, problem and
products, never one visit holding both (walk 5al step 87, issue 28: "Narsaiah garu ... Rajavva akka ..." became
one card asking which farmer, both problems and products merged). Names here are the seed register's Moinabad
farmers, not the walk's."""

import pytest

from bot.core.app import App
from tests.agri.conftest import say

pytestmark = pytest.mark.hindsight


@pytest.mark.parametrize("note", [
    "Moinabad round today: Srisailam cotton sucking pests 20 percent, Confidor advised, he agreed. "
    "Bhaskar Rao maize fall armyworm, Coragen 60 ml per acre, he will think about it.",
    "met Srisailam garu, patti lo rasam peelche purugu, Confidor cheppanu, konnaru. tarvata Bhaskar Rao garu "
    "mokkajonna lo kattera purugu, Coragen cheppanu.",
])
async def test_a_note_about_two_farmers_gives_a_card_for_each(agri_app: App, note: str) -> None:
    cards = [r for r in await agri_app.conversation.handle(say("ravi", note)) if r.card_id]
    assert len(cards) == 2, [c.text for c in cards]
    first, second = (c.text for c in cards)
    assert "Srisailam" in first and "Bhaskar" not in first and "Confidor" in first and "Coragen" not in first
    assert "Bhaskar Rao" in second and "Srisailam" not in second and "Coragen" in second
    assert "Confidor" not in second


async def test_a_neighbour_named_in_a_note_starts_no_second_card(agri_app: App) -> None:
    replies = await agri_app.conversation.handle(say(
        "ravi", "Srisailam cotton sucking pests. Showed him neighbour Bhaskar Rao's plot result. Confidor accepted."))
    cards = [r for r in replies if r.card_id]
    assert len(cards) == 1 and "Srisailam" in cards[0].text
