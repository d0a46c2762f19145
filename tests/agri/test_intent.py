"""Intent before extraction (issue 28): a question about the past is answered from memory and never carded as a
visit, in English, Latin-letter Telugu and Telugu script; a farmer's question reported inside a note stays a
note; a message naming nothing is asked about, not filed. Phrasings here are written for this test."""

import pytest

from bot.core.app import App
from handlers.agri.intent import is_question, read_intent
from tests.agri.conftest import say

QUESTIONS = [
    "what did we recommend to Banoth Lachya last time?",
    "Lachya ki last time em cheppamu?",
    "Lachya ki last time em cheppamu",
    "ఏమి చెప్పాము",
    "లచ్యా కి పోయిన సారి ఏ మందు ఇచ్చాము?",
    "did Ramulamma buy the Actara",
    "Did Ramulamma buy Actara?",
    "when did we visit Erra Ramulamma?",
    "Ramulamma patti - is the bollworm gone now?",
    "Anjaiah garu Coragen konnara?",
    "Anjaiah mirchi lo thrips taggindaa?",
    "Sattemma vari ki em vadaru?",
    "రాములమ్మ పత్తి ఎలా ఉంది?",
    "How did the Blitox work for Mallesh?",
]
NOTES = [
    "Ramulamma garu patti lo pink bollworm 10%, Actara cheppanu. He asked will it work?",
    "Visited Lachya, paddy blast 20%, advised Blitox 2 g/litre, accepted.",
    "లచ్యా వరి పొలంలో అగ్గి తెగులు, బ్లైటాక్స్ చెప్పాను, తీసుకుంటా అన్నాడు.",
    "Anjaiah garu mirchi thota lo thrips ekkuva, last time Actara vaadaru, ippudu Coragen cheppanu.",
    "Sattemma asked what dose to use? Told 2 ml per litre of Actara, she agreed.",
]


def test_questions_about_the_past_are_questions_in_every_script() -> None:
    for question in QUESTIONS:
        assert is_question(question), question
        assert read_intent(question, awaiting_answer=True).intent == "question", question


def test_notes_stay_notes_even_with_a_reported_question_or_last_time() -> None:
    for note in NOTES:
        assert not is_question(note), note
        assert read_intent(note).intent == "note", note
        assert read_intent(note, awaiting_answer=True).intent == "outcome", note
    assert read_intent("ok thanks", placed=False).intent == "unclear"


@pytest.mark.hindsight
async def test_a_question_is_answered_from_memory_and_never_carded(agri_app: App) -> None:
    conv = agri_app.conversation
    [card] = await conv.handle(say("ravi", "Visited Ramesh Goud, chilli leaf curl 30%, Blitox 50 advised, accepted."))
    save = next(b.data for b in card.flat_buttons() if b.label == "Save")
    await conv.handle(say("ravi", callback=save))
    for question in ("what did we recommend to Ramesh Goud last time?", "Ramesh ki last time em cheppamu?",
                     "రమేష్ గౌడ్ కి పోయిన సారి ఏమి చెప్పాము?"):
        replies = await conv.handle(say("ravi", question))
        assert not any(b.label == "Save" for r in replies for b in r.flat_buttons()), question
        answer = "\n".join(r.text for r in replies)
        assert "Blitox 50" in answer and "accepted" in answer or "బ్లైటాక్స్" in answer or "Blitox" in answer, question
        assert "visit:" not in answer, question
    # A question naming nobody of the officer's villages is asked about, and nothing is carded.
    [unplaced] = await conv.handle(say("ravi", "what did we recommend last time?"))
    assert not unplaced.flat_buttons() and "which farmer" in unplaced.text
