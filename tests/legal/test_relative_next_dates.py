"""Next dates written as a span from the hearing ("call after four weeks", "in 10 days", "next month",
"after vacation"), in English and as Telugu or Hindi typed in Latin letters: counted from the hearing date,
never from the upload; a day nobody knows yet gives no date; a deadline written the same way is no next date."""

from datetime import date, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handlers.legal.cards import HearingCard
from handlers.legal.cards import card_payload
from handlers.legal.dates import parse_day
from handlers.legal.hearing import uploaded_day
from handlers.legal.segment import segment
from tests.legal.kinds_corpus import REGISTER, upload


def _one(text: str, at: str = "2026-11-28T18:00") -> tuple[str, date, date | None, bool]:
    [entry] = segment(text, REGISTER, upload(at))
    return entry.kind, entry.hearing_date, entry.next_date, entry.doubt is not None


@pytest.mark.parametrize(("page", "hearing", "next_date"), [
    ("24.11.2026 Pendyala suit - counter filed. Call after four weeks.", date(2026, 11, 24), date(2026, 12, 22)),
    ("24.11.2026 Pendyala suit - counter filed. Call after 4 (four) weeks.", date(2026, 11, 24), date(2026, 12, 22)),
    ("20/11 Mothe appeal - GP sought time. List after 2 weeks", date(2026, 11, 20), date(2026, 12, 4)),
    ("21.11.2026 Durga cheque case - accused absent. Adjourned in 10 days.", date(2026, 11, 21), date(2026, 12, 1)),
    ("21.11.2026 Durga cheque case - adjourned by three weeks", date(2026, 11, 21), date(2026, 12, 12)),
    ("19.11.2026 Nandigama writ - post after a fortnight", date(2026, 11, 19), date(2026, 12, 3)),
    ("19.11.2026 Nandigama writ - stand over for 2 months", date(2026, 11, 19), date(2027, 1, 19)),
    ("23.11.2026 Pendyala suit - PW2 cross over. 4 vaaralu tarvata vaayida", date(2026, 11, 23), date(2026, 12, 21)),
    ("23.11.2026 Pendyala suit - 10 rojula taruvata", date(2026, 11, 23), date(2026, 12, 3)),
    ("23.11.2026 Mothe appeal - do hafte baad", date(2026, 11, 23), date(2026, 12, 7)),
    ("23.11.2026 Mothe appeal - das din baad sunwai", date(2026, 11, 23), date(2026, 12, 3)),
    ("23.11.2026 Mothe appeal: నాలుగు వారాల తర్వాత వాయిదా", date(2026, 11, 23), date(2026, 12, 21)),
    ("Pendyala suit: heard today, list after 2 weeks", date(2026, 11, 28), date(2026, 12, 12)),
    ("Mothe appeal ninna vichaarana, 3 vaaralu tarvata", date(2026, 11, 27), date(2026, 12, 18)),
])
def test_a_span_is_counted_from_the_hearing_date(page: str, hearing: date, next_date: date) -> None:
    assert _one(page) == ("hearing", hearing, next_date, False)


@pytest.mark.parametrize("page", [
    "24.11.2026 Pendyala suit - judge on leave. Post after summer vacation.",
    "24.11.2026 Pendyala suit - list after vacation",
    "24.11.2026 Pendyala suit - vacation tarvata",
    "24.11.2026 Pendyala suit - chhutti ke baad",
    # a later date is on the page, but it is not the next date: the order says the matter comes after vacation
    "24.11.2026 Pendyala suit - court closes 20.12.2026; post after the Christmas vacation",
])
def test_after_vacation_is_no_date_and_nothing_else_is_taken_for_it(page: str) -> None:
    assert _one(page) == ("hearing", date(2026, 11, 24), None, False)


@pytest.mark.parametrize(("page", "next_date"), [
    ("24.11.2026 Pendyala suit - GP sought time. List next month.", date(2026, 12, 24)),
    ("24.11.2026 Pendyala suit - agle mahine", date(2026, 12, 24)),
    ("24.11.2026 Pendyala suit - vachhe nela vaayida", date(2026, 12, 24)),
    ("31.01.2027 Pendyala suit - list next month", date(2027, 2, 28)),
])
def test_next_month_is_the_same_day_a_month_on_held_for_a_person(page: str, next_date: date) -> None:
    kind, hearing, found, doubt = _one(page, "2027-02-02T18:00")
    assert (kind, found, doubt) == ("hearing", next_date, True) and hearing < found


def test_a_span_after_filed_or_within_is_a_deadline_never_a_next_date() -> None:
    assert _one("Pendyala suit: counter to be filed within four weeks; reply in 10 days.")[2] is None
    assert _one("24.11.2026 Pendyala suit - cost paid in 10 days. N.D. 15.12.2026")[2] == date(2026, 12, 15)
    assert _one("24.11.2026 Pendyala suit - time granted to file counter in 2 weeks")[2] is None


_SAID = st.sampled_from([
    ("Call after {n} weeks", 7), ("List after {n} weeks.", 7), ("Adjourned in {n} days", 1),
    ("post after {n} days", 1), ("{n} vaaralu tarvata", 7), ("{n} rojula taruvata", 1), ("{n} hafte baad", 7),
    ("{n} din baad", 1), ("adjourned by {n} weeks", 7), ("after {n} months", 0),
])


@settings(max_examples=80, deadline=None)
@given(hearing=st.dates(date(2025, 1, 1), date(2027, 6, 1)), late=st.integers(0, 40), n=st.integers(1, 9),
       said=_SAID)
def test_a_span_never_counts_from_the_upload(hearing: date, late: int, n: int, said: tuple[str, int]) -> None:
    form, per = said
    uploaded = datetime.combine(hearing + timedelta(days=late), datetime.min.time()).replace(hour=19)
    page = f"{hearing:%d.%m.%Y} Mothe appeal - arguments in part. {form.format(n=n)}"
    [entry] = segment(page, REGISTER, upload(uploaded.isoformat()))
    month = hearing.year * 12 + hearing.month - 1 + n
    by_month = hearing.replace(day=1).replace(year=month // 12, month=month % 12 + 1)
    expected = hearing + timedelta(days=n * per) if per else by_month.replace(
        day=min(hearing.day, ((by_month.replace(day=28) + timedelta(days=4)).replace(day=1) - timedelta(days=1)).day))
    assert (entry.hearing_date, entry.next_date) == (hearing, expected), page


def test_the_edit_field_takes_a_span_counted_from_the_hearing() -> None:
    assert parse_day("after 4 weeks", date(2026, 11, 24), after=True, today=date(2026, 12, 2)) == date(2026, 12, 22)
    [entry] = segment("24.11.2026 Pendyala suit - PW1 chief over.", REGISTER, upload("2026-12-02T18:00"))
    card = HearingCard(lambda tenant: REGISTER)
    payload = card_payload(upload("2026-12-02T18:00"), entry, "demo", "b1", "en")
    edited = card.apply_edit(payload, "next_date", "10 rojula taruvata")
    assert edited["entry"]["next_date"] == "2026-12-04"
    assert uploaded_day(upload("2026-12-02T18:00")) == date(2026, 12, 2)
