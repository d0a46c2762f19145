""""Did you mean O.S. 231/2024?": a card proposing a new case whose number is one keystroke from a registered one
asks before Save, with a button for each answer: file under the registered case, or keep the new number."""

from bot.core.cards import card_buttons
from bot.core.messages import Button, Reply
from bot.core.pack import Turn
from handlers.legal.cards import HearingCard, asks_did_you_mean, settle_did_you_mean
from handlers.legal.models import CaseRecord

PREFIX = "legal:dym:"


def question(turn: Turn, card_id: str, typed: str, near: CaseRecord) -> Reply:
    number = ", ".join(near.numbers)
    return Reply(text=turn.t("legal.did_you_mean", typed=typed, number=number, case=near.label),
                 buttons=[[Button(label=turn.t("legal.button_meant", number=number), data=f"{PREFIX}{card_id}:y"),
                           Button(label=turn.t("legal.button_new_case", number=typed), data=f"{PREFIX}{card_id}:n")]])


async def answer(turn: Turn, spec: HearingCard, data: str) -> Reply:
    """Settle the question on the card and show the card again, ready to save."""
    card_id, _, said = data[len(PREFIX):].partition(":")
    card = turn.services.state.card(card_id)
    if card is None or card.status != "open" or not asks_did_you_mean(card.payload):
        return Reply(text=turn.t("core.card_gone"))
    if card.user_id != turn.user.user_id:
        return Reply(text=turn.t("core.card_not_yours"))
    payload = settle_did_you_mean(card.payload, meant=said == "y")
    turn.services.state.update_payload(card_id, payload)
    return Reply(text=spec.render(turn.lang, payload), buttons=card_buttons(turn, card_id), card_id=card_id,
                 replaces_card=True)

