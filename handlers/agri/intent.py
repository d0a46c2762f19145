"""What a message is before anything is read out of it: a visit note, an answer to a follow-up, a question
about the past, or something the reader cannot place.

A question about the past ("what did we recommend to X last time?", "X ki last time em cheppamu?", "ఏమి
చెప్పాము", "did X buy", "when did we visit") is answered from memory and never carded as a visit. It is told by
its form, in any of the three ways officers write: a question mark closing a sentence that asks (a question
word, an auxiliary first, a Telugu yes/no ending "-aa?", "leda?"), or, without the mark, words that only a
question about what was done use ("last time em cheppamu", "what did we"). A note that reports a farmer's
question ("he asked: will it work?") among what was seen and advised stays a note.
"""

import re
from typing import Literal

from pydantic import BaseModel

Intent = Literal["note", "outcome", "question", "unclear"]

_SENTENCES = re.compile(r"[^.!?।\n]+[.!?।]*")
_ASKS_EN = re.compile(
    r"(?:^|[-–—,:]\s*)\s*(?:what|when|why|how|which|who|whom|whose|where|did|does|do|has|have|had|is|was|were|are|can|could|"
    r"should|will)\b|\b(?:what|when|why|how|which|whom|whose)\b", re.IGNORECASE)
_ASKS_LATIN_TE = re.compile(
    r"(?<![a-z])(?:em|emi|emiti|enti|entha|ela|elaa|eppudu|enduku|ekkada|evaru|edi|ye|yemi|yem|yenti|ela\s+undi)"
    r"(?![a-z])|(?:aa|a|ra|daa|da|na|laa)\s*\?|(?<![a-z])leda\s*\?", re.IGNORECASE)
_ASKS_TE = re.compile(r"ఏమి|ఏం|ఏంటి|ఏ\s|ఎప్పుడు|ఎందుకు|ఎలా|ఎక్కడ|ఎవరు|ఎంత|ఏది|ా\s*\?|లేదా\s*\?")
# Said only when asking what was done before: "last time em cheppamu", "what did we advise", "ఏమి చెప్పాము".
_PAST_ASKED = re.compile(
    r"\b(?:what|which)\s+(?:\w+\s+){0,3}did\s+(?:we|i|you)\b|\bwhen\s+did\s+(?:we|i|you)\b|"
    r"\bdid\s+(?:we|i)\s+(?:advise|recommend|suggest|tell|give|visit)\b|"
    r"(?<![a-z])(?:em|emi|yem|yemi|enti)\s+(?:chepp|icch|ichh|ichch|vaad|vad|ichin)[a-z]*|"
    r"(?:ఏమి|ఏం|ఏ)\s*(?:\S+\s+){0,2}(?:చెప్ప|ఇచ్చ|వాడ)|(?:చెప్పా|ఇచ్చా)(?:ము|మా|ను|మ్|ం)\s*\?",
    re.IGNORECASE)
_OPENS = re.compile(r"\s*(?:what|when|why|how|which|did|does|has|have|had|were|was)\s+\w+", re.IGNORECASE)
# A farmer's own question reported inside a note: the note's verbs around it say so.
_REPORTED = re.compile(r"\b(?:asked|asking|adigadu|adigindi|adigaru|adugutunnadu|wants to know)\b|అడిగా|అడిగి",
                       re.IGNORECASE)


class ReadIntent(BaseModel):
    """The reader's statement of what a message is, and why."""

    intent: Intent
    reason: str


def _asks(sentence: str) -> bool:
    return bool(_ASKS_EN.search(sentence) or _ASKS_LATIN_TE.search(sentence) or _ASKS_TE.search(sentence))


def is_question(text: str) -> bool:
    """True when the message asks about what was done or seen before, rather than reporting a visit."""
    sentences = [s.strip() for s in _SENTENCES.findall(text) if s.strip()]
    if not sentences:
        return False
    asked = [s for s in sentences if s.endswith("?") and _asks(s)]
    if _REPORTED.search(text) and len(sentences) > 1:
        return False
    if asked:
        # A question closing a long report ("... Actara accepted. Will it work?") is the farmer's, not ours.
        return len(sentences) <= 2 or sentences[0] in asked
    # Without the mark: words only a question about the past uses, or one sentence opening as a question does
    # ("did Lachya buy Actara", "when did we visit Ramulamma").
    return len(sentences) <= 2 and bool(_PAST_ASKED.search(text) or (len(sentences) == 1 and _OPENS.match(text)))


def read_intent(text: str, awaiting_answer: bool = False, placed: bool = True) -> ReadIntent:
    """What a message is. `awaiting_answer`: a follow-up waits for this officer's answer; `placed`: the reader
    found a farmer, crop, problem or product in it."""
    if is_question(text):
        return ReadIntent(intent="question", reason="asks about the past")
    if awaiting_answer:
        return ReadIntent(intent="outcome", reason="a follow-up waits for an answer")
    if not placed:
        return ReadIntent(intent="unclear", reason="names no farmer, crop, problem or product")
    return ReadIntent(intent="note", reason="reports a visit")
