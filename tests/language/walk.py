"""What the Telugu walks share: the notes the officer says, collecting every text a reply shows, and the
memories Save left in Hindsight."""

from bot.core.messages import Reply
from memory import MemoryClient, Recalled, RecallRequest

OFFICER = "lakshmi"
"""A seeded officer whose language setting is Telugu (Chevella, Vikarabad, Tandur)."""
TELEGRAM_ID = 1002
VISIT_TE = "రమేష్ గౌడ్ మిరప తోటలో ఆకు ఎండు తెగులు 40 శాతం. బ్లైటాక్స్ సరే అన్నాడు."
ANSWER_TE = "బ్లైటాక్స్ రెండు సార్లు కొట్టాడు, తెగులు తగ్గింది."
VISIT_EN = "Visited Ramesh Goud, chilli leaf blight about 20 percent, Blitox accepted."
TRANSLITERATED = "Ramesh mirapa tegulu ekkuva, Blitox ok annadu"
OWN_WORDS = [VISIT_TE, ANSWER_TE, VISIT_EN, TRANSLITERATED]


def shown(replies: list[Reply]) -> list[str]:
    """Every text a list of replies puts in front of the user: message bodies and button labels."""
    return [r.text for r in replies] + [b.label for r in replies for b in r.flat_buttons()]


async def saved(memory: MemoryClient, bank: str, kind: str, query: str) -> list[Recalled]:
    """Recall what Save retained of one kind (visit or outcome) from the real local Hindsight."""
    return await memory.recall(bank, RecallRequest(query=query, tags=[f"kind:{kind}"], tags_match="all_strict"))
