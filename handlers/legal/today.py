"""The cause list for a day: the matters whose next date it is, each with its previous hearing by hearing date."""

from datetime import date

from bot.services.i18n import show_date, text
from bot.core.pack import Services
from handlers.legal.models import CauseList, CauseListItem, HearingRecord
from handlers.legal.records import HEARING, record_of
from handlers.legal.register import CaseRegister


async def cause_list(services: Services, bank: str, register: CaseRegister, day: date) -> CauseList:
    """Return the matters listed on `day`: those whose latest hearing before it set it as the next date."""
    documents = await services.memory.list_documents(bank, tags=[HEARING])
    by_case: dict[str, list[HearingRecord]] = {}
    for record in (record_of(d) for d in documents):
        if record is not None and record.kind == "hearing" and record.hearing_date < day:
            by_case.setdefault(record.case_id, []).append(record)
    items: list[CauseListItem] = []
    for case_id, records in by_case.items():
        case = register.get(case_id)
        latest_day = max(r.hearing_date for r in records)
        latest = sorted((r for r in records if r.hearing_date == latest_day),
                        key=lambda r: (-r.confidence, r.document_id))
        if case is None or not any(r.next_date == day for r in latest):
            continue
        previous = next(r for r in latest if r.next_date == day)
        items.append(CauseListItem(case_id=case_id, title=case.title, court=case.court, previous=previous))
    return CauseList(day=day, items=sorted(items, key=lambda i: (i.court, i.title)))


def render_cause_list(lang: str, listing: CauseList, register: CaseRegister) -> str:
    if not listing.items:
        return text(lang, "legal.today_none", date=show_date(lang, listing.day))
    lines = [text(lang, "legal.today_header", date=show_date(lang, listing.day), count=len(listing.items))]
    for item in listing.items:
        case = register.get(item.case_id)
        label = case.label if case else item.title
        number = case.numbers[0] if case and case.numbers else ""
        lines.append(text(lang, "legal.today_item", case=label, number=number, court=item.court))
        if item.previous is not None:
            lines.append(text(lang, "legal.today_previous", date=show_date(lang, item.previous.hearing_date),
                              source=item.previous.source_file, author=item.previous.author,
                              text=item.previous.summary))
    return "\n".join(lines)
