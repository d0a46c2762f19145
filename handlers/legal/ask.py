"""Answering a question about a case from memory, by hearing date, with citations.

Which hearings answer it is decided from the case's records in the database (so "last time" is the latest
hearing by hearing date, never by upload, and never a recall's ranking); recall ranks records for open
questions. Court records always come before chat memories, which are labelled as such. Without a model the
answer is templated; with one, the model's answer keeps only citations it was given, and any date in its
text must be a date of those citations, or the templated answer is used.
"""

import logging
from datetime import date

from bot.services.i18n import show_date, text
from bot.core.pack import Services
from handlers.legal.compose import compose, model_answer
from handlers.legal.models import CaseRecord, HearingRecord, LegalAnswer
from handlers.legal.question import Question, parse_question
from handlers.legal.casebook import CaseBook
from handlers.legal.register import CaseRegister
from memory import MemoryUnavailable, RecallRequest, tags
from memory.asof import IST

log = logging.getLogger(__name__)


async def case_records(services: Services, bank: str, case: CaseRecord, as_of: date | None) -> list[HearingRecord]:
    """Return every record of a case (its entries and chat memories, from the database), none after as_of."""
    return await CaseBook.of_bank(services, bank).records(case.case_id, as_of)


async def _ranked(services: Services, bank: str, case: CaseRecord, question: Question,
                  records: list[HearingRecord], as_of: date | None) -> list[HearingRecord]:
    """Return the records recall finds for an open question: court records first, chat memories after."""
    by_id = {r.document_id: r for r in records}
    found = await services.memory.recall(bank, RecallRequest(
        query=f"{case.label}: {question.text}", tags=[tags.case(case.case_id)], as_of=as_of))
    order: list[HearingRecord] = []
    for item in found:
        record = by_id.get(item.document_id or "")
        if record is not None and record not in order:
            order.append(record)
    return sorted(order, key=lambda r: r.kind == "chat_memory")  # stable: keeps recall's order within each


async def ask(services: Services, bank: str, register: CaseRegister, question_text: str, lang: str = "en",
              as_of: date | None = None) -> LegalAnswer:
    """Answer one question about one case of the register."""
    today = as_of or services.clock().astimezone(IST).date()
    question = parse_question(question_text, today)
    mention = register.asked_about(question_text)
    if mention is None:
        name = register.unknown_name(question_text)
        near = register.near(name)
        return LegalAnswer(
            answer=text(lang, "legal.unknown_case", name=name,
                        near=", ".join(f"{c.label} ({c.numbers[0] if c.numbers else c.title})" for c in near)
                        or "-"),
            case_id=None, confidence=0.0, near_matches=[c.case_id for c in near])
    case = register.get(mention.case_id)
    assert case is not None
    try:
        records = await case_records(services, bank, case, as_of)
        ranked = await _ranked(services, bank, case, question, records, as_of) if question.intent == "general" else []
    except MemoryUnavailable as exc:
        log.warning("memory unavailable for a legal question: %s", exc)
        return LegalAnswer(answer=text(lang, "legal.memory_unreachable_case", case=case.label,
                                       number=", ".join(case.numbers) or "-", title=case.title, court=case.court or "-"),
                           case_id=case.case_id, confidence=0.0)
    templated = compose(lang, case, question, records, ranked, today)
    if services.chat is None or not templated.citations:
        return templated
    return await model_answer(services.chat, lang, case, question, records, templated, today)


def render_answer(lang: str, answer: LegalAnswer) -> str:
    """Return the answer with its sources listed, for a chat reply or the terminal."""
    if not answer.citations:
        return answer.answer
    lines = [answer.answer, "", text(lang, "legal.sources_header")]
    for citation in answer.citations[:12]:
        lines.append(text(lang, "legal.source_line", date=show_date(lang, citation.hearing_date),
                          source=citation.source_file, author=citation.author))
    if len(answer.citations) > 12:
        lines.append(text(lang, "legal.more_sources", count=len(answer.citations) - 12))
    return "\n".join(lines)


