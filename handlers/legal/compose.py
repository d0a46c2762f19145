"""Composing an answer from a case's records: templated from the catalogue, or a model's answer, guarded."""

import logging
from datetime import date

from pydantic import BaseModel, Field

from bot.services.i18n import show_date, text
from bot.services.llm import ChatModel, ChatUnavailable, StructuringFailed
from bot.services.prompts import render
from handlers.legal.case_dates import next_date
from handlers.legal.dates import find_dates
from handlers.legal.models import CaseRecord, HearingRecord, LegalAnswer
from handlers.legal.question import Question, month_year
from handlers.legal.register_dates import REGISTER_KIND

log = logging.getLogger(__name__)

MAX_CHAT_LINES = 3
MAX_MODEL_RECORDS = 15


class ModelAnswer(BaseModel):
    answer: str = Field(min_length=1)
    document_ids: list[str] = Field(default_factory=list)


def _by_date(records: list[HearingRecord], newest_first: bool = False) -> list[HearingRecord]:
    return sorted(records, key=lambda r: (r.hearing_date, -r.confidence, r.document_id), reverse=newest_first)


def _entry_line(lang: str, record: HearingRecord) -> str:
    return text(lang, "legal.entry_line", source=record.source_file, author=record.author, text=record.summary)


def _timeline_line(lang: str, record: HearingRecord, live: str | None = None) -> str:
    """One record of a history; `live` is the document that sets the case's next date now: a register's date
    that court paper has since replaced is said to be superseded."""
    key = "legal.timeline_line" if record.kind == "hearing" else f"legal.{record.kind}_line"
    if record.kind == "listing" and record.upload_kind == REGISTER_KIND:
        key = "legal.register_line" if live is None or live == record.document_id else "legal.register_line_superseded"
    if record.kind == "step" and record.due_date is not None:
        key = "legal.step_due_line"
    listed = show_date(lang, record.next_date) if record.next_date else "-"
    due = show_date(lang, record.due_date) if record.due_date else "-"
    return text(lang, key, date=show_date(lang, record.hearing_date), text=record.summary,
                source=record.source_file, author=record.author, listed=listed, due=due)


def _chat_lines(lang: str, chats: list[HearingRecord]) -> list[str]:
    if not chats:
        return []
    lines = ["", text(lang, "legal.chat_header")]
    for record in _by_date(chats, newest_first=True)[:MAX_CHAT_LINES]:
        lines.append(text(lang, "legal.chat_line", date=show_date(lang, record.hearing_date),
                          author=record.author, text=record.summary))
    return lines


def _answer(lines: list[str], case: CaseRecord, cited: list[HearingRecord]) -> LegalAnswer:
    confidence = max((r.confidence for r in cited), default=0.0)
    return LegalAnswer(answer="\n".join(lines).strip(), case_id=case.case_id,
                       citations=[r.citation() for r in cited], confidence=round(confidence, 2))


def compose(lang: str, case: CaseRecord, question: Question, records: list[HearingRecord],
            ranked: list[HearingRecord], today: date) -> LegalAnswer:
    """Return the templated answer: court records by hearing date, chat memories after and labelled."""
    hearings = [r for r in records if r.kind == "hearing"]
    chats = [r for r in records if r.kind == "chat_memory"]
    name = case.label
    court = [r for r in records if r.kind != "chat_memory"]
    # A case with no hearing yet still has its steps and listings to tell by date ("what happened on 5.12?").
    if not hearings and question.intent not in ("general", "next") and not (question.intent in ("history", "day")
                                                                            and court):
        return LegalAnswer(answer=text(lang, "legal.no_records", case=name), case_id=case.case_id, confidence=0.0)
    if question.intent == "history":  # every court record, a case with no hearing yet its listings and steps
        timeline = _by_date([r for r in records if r.kind != "chat_memory"])
        lines = [text(lang, "legal.history_header", case=name, count=len({r.hearing_date for r in hearings}))]
        current = next_date(records)
        live = current.source.document_id if current is not None else ""
        lines += [_timeline_line(lang, r, live) for r in timeline]
        return _answer(lines + _chat_lines(lang, chats), case, timeline)
    if question.intent == "day" and question.day is not None:
        return _on_day(lang, case, question.day, records)
    if question.intent == "month":
        assert question.month is not None
        year = question.year or month_year(question.month, [r.hearing_date for r in hearings], today)
        month = text(lang, f"legal.month_{question.month}", year=year)
        inside = _by_date([r for r in hearings if (r.hearing_date.year, r.hearing_date.month) == (year, question.month)])
        if not inside:
            return LegalAnswer(answer=text(lang, "legal.month_none", case=name, month=month), case_id=case.case_id,
                               confidence=0.0)
        lines = [text(lang, "legal.month_header", case=name, month=month, count=len(inside))]
        return _answer(lines + [_timeline_line(lang, r) for r in inside], case, inside)
    latest_day = max(r.hearing_date for r in hearings) if hearings else None
    latest = _by_date([r for r in hearings if r.hearing_date == latest_day], newest_first=True)
    if question.intent == "next":
        found = next_date(records)
        if found is None and not latest:
            return LegalAnswer(answer=text(lang, "legal.no_records", case=name), case_id=case.case_id, confidence=0.0)
        source = found.source if found is not None else latest[0]
        if found is None:
            line = text(lang, "legal.next_date_unknown", case=name, from_date=show_date(lang, source.hearing_date))
        else:
            key = "legal.next_date" if found.day >= today else "legal.next_date_passed"
            key = f"{key}_listed" if source.kind == "listing" else key
            key = f"{key}_register" if source.upload_kind == REGISTER_KIND else key
            line = text(lang, key, case=name, date=show_date(lang, found.day),
                        from_date=show_date(lang, source.hearing_date), source=source.source_file,
                        author=source.author)
        return _answer([line], case, [source])
    if question.intent == "general" and ranked:
        records_first = [r for r in ranked if r.kind != "chat_memory"][:3]
        lines = [text(lang, "legal.general_header", case=name)] + [_timeline_line(lang, r) for r in records_first]
        return _answer(lines + _chat_lines(lang, [r for r in ranked if r.kind == "chat_memory"]), case,
                       records_first)
    if not latest:
        return LegalAnswer(answer=text(lang, "legal.no_records", case=name), case_id=case.case_id, confidence=0.0)
    lines = [text(lang, "legal.last_time", case=name, date=show_date(lang, latest[0].hearing_date))]
    lines += [_entry_line(lang, r) for r in latest]
    upcoming = next_date(records)
    if upcoming is not None:
        lines.append(text(lang, "legal.next_line", date=show_date(lang, upcoming.day)))
    return _answer(lines + _chat_lines(lang, chats), case, latest)


def _on_day(lang: str, case: CaseRecord, day: date, records: list[HearingRecord]) -> LegalAnswer:
    """What is recorded on one day in a case; else the hearings nearest before and after it."""
    court = [r for r in records if r.kind != "chat_memory"]
    that_day = _by_date([r for r in court if r.hearing_date == day])
    if that_day:
        lines = [text(lang, "legal.day_header", case=case.label, date=show_date(lang, day))]
        lines += [_entry_line(lang, r) for r in that_day]
        nxt = next((r.next_date for r in that_day if r.next_date and r.kind == "hearing"), None)
        if nxt is not None:
            lines.append(text(lang, "legal.next_line", date=show_date(lang, nxt)))
        return _answer(lines, case, that_day)
    hearings = [r for r in court if r.kind == "hearing"]
    before = max((r for r in hearings if r.hearing_date < day), key=lambda r: r.hearing_date, default=None)
    after = min((r for r in hearings if r.hearing_date > day), key=lambda r: r.hearing_date, default=None)
    near = " · ".join(show_date(lang, r.hearing_date) for r in (before, after) if r is not None) or "-"
    return LegalAnswer(answer=text(lang, "legal.day_none", case=case.label, date=show_date(lang, day), near=near),
                       case_id=case.case_id, confidence=0.0)


def _records_block(records: list[HearingRecord]) -> str:
    return "\n".join(
        f"- document_id={r.document_id} | {r.kind} on {r.hearing_date:%d %b %Y} | source {r.source_file} | "
        f"by {r.author} | next date {r.next_date.strftime('%d %b %Y') if r.next_date else 'none'} | {r.summary}"
        for r in records
    ) or "(none)"


def dates_in(answer: str, today: date) -> set[date]:
    """Return every date written in an answer (a date without a year is read as the latest one by today)."""
    found = (d.on(today) for d in find_dates(answer))
    return {d for d in found if d is not None}


async def model_answer(chat: ChatModel, lang: str, case: CaseRecord, question: Question,
                       records: list[HearingRecord], templated: LegalAnswer, today: date) -> LegalAnswer:
    """Return the model's answer if it cites only records it was given and every date it writes is theirs."""
    cited_ids = {c.document_id for c in templated.citations}
    court = [r for r in records if r.kind != "chat_memory"]
    chosen = [r for r in court if r.document_id in cited_ids]
    chosen += [r for r in _by_date(court, newest_first=True) if r.document_id not in cited_ids]
    chosen = chosen[:max(MAX_MODEL_RECORDS, len(cited_ids))]
    chats = _by_date([r for r in records if r.kind == "chat_memory"], newest_first=True)[:MAX_CHAT_LINES]
    prompt = render("legal", "answer", question=question.text, case=f"{case.title} ({case.label})",
                    today=today.isoformat(), records=_records_block(_by_date(chosen, newest_first=True)),
                    chat_memories=_records_block(chats), language="Telugu" if lang == "te" else "English")
    try:
        reply, _ = await chat.structured(prompt, ModelAnswer)
    except (ChatUnavailable, StructuringFailed) as exc:
        log.info("model answer unavailable (%s); using the template", type(exc).__name__)
        return templated
    given = {r.document_id: r for r in chosen + chats}
    kept = [given[i] for i in dict.fromkeys(reply.document_ids) if i in given]
    kept_court = [r for r in kept if r.kind != "chat_memory"]
    if not kept_court:
        log.info("model answer cited no record it was given; using the template")
        return templated
    allowed = {r.hearing_date for r in kept} | {r.next_date for r in kept if r.next_date}
    if not dates_in(reply.answer, today) <= allowed:
        log.info("model answer wrote a date none of its citations has; using the template")
        return templated
    return LegalAnswer(answer=reply.answer.strip(), case_id=case.case_id,
                       citations=[r.citation() for r in kept_court],
                       confidence=round(max(r.confidence for r in kept_court), 2), method="llm")
