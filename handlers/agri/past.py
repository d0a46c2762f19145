"""The answer to a question about the past ("what did we recommend to X last time?"): the farmer's last visit
from the records (its date, what was seen, what was advised and how it was taken) and its outcome when one was
recorded, said by name and date, never by a record's id. The brief follows it with the rest of the history."""

from bot.services.i18n import show_date, text
from handlers.agri.register import FieldBook
from handlers.agri.visit_records import SavedOutcome, SavedVisit


def last_visit_lines(book: FieldBook, farmer_id: str, visits: list[SavedVisit], outcomes: list[SavedOutcome],
                     lang: str) -> list[str]:
    """What the records say of the farmer's last visit, in the officer's language."""
    name = book.farmer_name(farmer_id, lang)
    if not visits:
        return [text(lang, "agri.past_no_visit", farmer=name)]
    visit = visits[-1].visit
    advised = ", ".join(
        f"{book.products[a.product_id].name if a.product_id in book.products else a.product_id}"
        f" ({text(lang, f'agri.reaction_{a.reaction}')}{', ' + a.dose if a.dose else ''})"
        for a in visit.products) or text(lang, "agri.nothing_advised")
    seen = book.problems_seen(visit.problems, visit.problem_crops, visit.crop, lang) or "-"
    lines = [text(lang, "agri.past_last_visit", farmer=name, date=show_date(lang, visit.date),
                  crop=book.crop_name(visit.crop, lang) or "-", seen=seen, advised=advised, count=len(visits))]
    after = [o.outcome for o in outcomes if o.outcome.visit_id == visit.id or o.outcome.date >= visit.date]
    if after:
        outcome = after[-1]
        lines.append(text(lang, "agri.past_outcome", date=show_date(lang, outcome.date),
                          result=text(lang, f"agri.result_{outcome.result}") if outcome.result else "-"))
    return lines
