"""The cause list for a day: the matters whose next date it is, each with its previous hearing by hearing date."""

from datetime import date

from bot.services.i18n import show_date, text
from bot.core.pack import Services
from handlers.legal.casebook import CaseBook
from handlers.legal.models import CauseList, CauseListItem
from handlers.legal.register import CaseRegister
from handlers.legal.register_dates import REGISTER_KIND


async def cause_list(services: Services, bank: str, register: CaseRegister, day: date) -> CauseList:
    """Return the matters listed on `day`: every case whose next date, as its records stood before that day,
    is that day (set at its last hearing, or by a cause list), each with the record that set it."""
    book = CaseBook.of_bank(services, bank)
    listed = await book.listed_on(day)
    items: list[CauseListItem] = []
    for case_id, found in listed.items():
        case = register.get(case_id)
        if case is not None:
            by_list = found.source if found.source.kind == "listing" else None
            items.append(CauseListItem(case_id=case_id, title=case.title, court=case.court, previous=found.last,
                                       listed_by=by_list))
    due = [r for r in await book.due_on(day) if register.get(r.case_id) is not None]
    return CauseList(day=day, items=sorted(items, key=lambda i: (i.court, i.title)), due=due)


def _due_lines(lang: str, listing: CauseList, register: CaseRegister) -> list[str]:
    if not listing.due:
        return []
    lines = [text(lang, "legal.today_due_header", date=show_date(lang, listing.day), count=len(listing.due))]
    for step in listing.due:
        case = register.get(step.case_id)
        lines.append(text(lang, "legal.today_due_item", case=case.label if case else step.case_id,
                          number=case.numbers[0] if case and case.numbers else "-", text=step.summary,
                          date=show_date(lang, step.hearing_date), author=step.author))
    return lines


def render_cause_list(lang: str, listing: CauseList, register: CaseRegister) -> str:
    """The day's listed matters, then what is due that day (a step's deadline, not a hearing)."""
    if not listing.items:
        return "\n".join([text(lang, "legal.today_none", date=show_date(lang, listing.day)),
                          *_due_lines(lang, listing, register)])
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
        if item.listed_by is not None:
            by_register = item.listed_by.upload_kind == REGISTER_KIND
            lines.append(text(lang, "legal.today_register" if by_register else "legal.today_listed_by", date=show_date(lang, item.listed_by.hearing_date),
                              source=item.listed_by.source_file, author=item.listed_by.author))
    return "\n".join(lines + _due_lines(lang, listing, register))
