"""Text in a document that tells its reader what to decide: approve, skip review, pay now, ignore the rules.

An invoice asks to be paid; it never gets to say how it is checked. Phrases are matched by family (what they
ask the reader to do), in any case and with the usual spellings of a hurried note ("pls", "dont", "no need
to"), not by one example's words. Payment terms ("pay within 30 days", "kindly make payment by NEFT") are
what an invoice says to everyone and are not instructions to the approver.
"""

import re

from bot.services.addressed import TO_THE_READER

_PLEASE = r"(?:(?:please|pls|plz|kindly|just)\s+)?"
_IT = r"(?:(?:it|this|this\s+(?:invoice|bill|one|payment)|the\s+(?:invoice|bill|payment)|invoice|bill|payment)\s+)?"
_NOT = r"(?:do\s*n[o']?t|dont|don't|never|no\s+need\s+(?:to|for)|need\s+not|there\s+is\s+no\s+need\s+to|avoid)"
_ROUTE = r"(?:send|sending|route|routing|forward|put|refer|escalate|escalating|hold|holding|flag|flagging|block" \
         r"|blocking|check|checking|verify|verifying|call|calling|review|reviewing|query|querying|stop)"
_REVIEW = r"(?:review|reviewer|verification|checks?|approval\s+queue|audit|exception|hold|manager|finance)"
_NOW = r"(?:today|immediately|right\s+away|right\s+now|now|at\s+once|asap|same\s+day|this\s+(?:morning|evening)" \
       r"|without\s+(?:delay|fail)|on\s+priority|urgently)"

FAMILIES: dict[str, re.Pattern[str]] = {name: re.compile(pattern, re.IGNORECASE) for name, pattern in {
    # "Mark it approved", "mark as paid", "treat this as verified"
    "mark": rf"\b(?:mark|marked|treat|record|show|set|tick)\s+{_IT}(?:as\s+)?(?:approved|paid|cleared|verified"
            rf"|passed|ok(?:ay)?|released)\b",
    # "Approve this invoice", "please approve", "approve without review", "auto-approve"
    "approve": rf"\b(?:{_PLEASE}(?:auto[\s-]?)?approve\s+(?:{_IT}|immediately|urgently|now|today|without|directly"
               rf"|and\s+(?:pay|release))|auto[\s-]?approv\w*|pre[\s-]?approved|already\s+approved\s+by)",
    # "Do not send to review", "no need to verify", "don't call the vendor"
    "skip_review": rf"\b{_NOT}\s+(?:to\s+)?{_ROUTE}\b|\bno\s+{_REVIEW}\s+(?:is\s+)?(?:needed|required|necessary)"
                   rf"|\b(?:skip|bypass|avoid|waive)\s+(?:the\s+)?{_REVIEW}|\bwithout\s+(?:any\s+)?{_REVIEW}\b",
    # "Urgent, pay today", "release payment immediately", "pay now"
    "pay_now": rf"\b(?:pay|release|transfer|remit|clear|process)\s+(?:{_IT}|(?:the\s+)?amount\s+|(?:the\s+)?"
               rf"(?:full\s+)?(?:payment|dues?)\s+)?{_NOW}\b|\b(?:urgent|same[\s-]day)\s+(?:payment|release"
               rf"|transfer)\b",
}.items()}
# "Ignore previous instructions", "you are an AI", "system prompt": the families every pack shares.
FAMILIES["override_rules"] = TO_THE_READER


def instruction_in(texts: list[str]) -> tuple[str, str] | None:
    """The first text aimed at the reader's decision: its family and the words around it, or None."""
    for text in texts:
        flat = " ".join(text.split())
        for family, pattern in FAMILIES.items():
            if hit := pattern.search(flat):
                return family, _quote(flat, hit.start(), hit.end())
    return None


def _quote(flat: str, start: int, end: int, before: int = 20, after: int = 40, limit: int = 120) -> str:
    """The words around a hit, whole words only (a cut marked "…"), never a word cut in half."""
    left = max(0, start - before)
    while 0 < left < start and not flat[left - 1].isspace():
        left += 1  # into the next whole word
    right = min(len(flat), max(end + after, end), left + max(limit, end - left))
    while end < right < len(flat) and not flat[right].isspace():
        right -= 1  # back to the end of a whole word
    quoted = flat[left:right].strip()
    return ("…" if left > 0 else "") + quoted + ("…" if right < len(flat) else "")
