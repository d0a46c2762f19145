"""An order is dated by its pronouncement wherever its closing line breaks: "... pronounced by me in open court on
this⏎the 28th day of October, 2026." is of 28 Oct, not of the day it was argued (walk5al 86: a wrapped closing
was read as a heading of its own, and the order was filed on the day it was heard)."""

from datetime import date

import pytest

from handlers.legal.segment import segment
from tests.legal.kinds_corpus import REGISTER, upload

_ORDER = """IN THE COURT OF THE PRINCIPAL JUNIOR CIVIL JUDGE, VIKARABAD
I.A. No. 918 of 2026
in
O.S. No. 231 of 2024
Between: Pendyala Ramesh ... Petitioner/Plaintiff
And: Kommineni Sarala ... Respondent/Defendant
Counter filed on 02.10.2026. Heard both sides on 19.10.2026.
ORDER
For the reasons stated, the petition is allowed. No costs.
{closing}
"""
_CLOSINGS = [
    "Typed to my dictation, corrected and pronounced by me in open court on this the 4th day of November, 2026.",
    "Pronounced in the open court, this the 4th day of November 2026.",
    "Given under my hand and the seal of the Court, this the 4th day of November, 2026.",
    "Delivered in open court on 04.11.2026.",
]


def _wraps(closing: str) -> list[str]:
    """The closing broken at each space in turn, as a court's typist or a scan's line width breaks it."""
    return [closing[:i] + "\n" + closing[i + 1:] for i, c in enumerate(closing) if c == " "]


@pytest.mark.parametrize("closing", [w for c in _CLOSINGS for w in _wraps(c)])
def test_an_order_is_dated_by_its_pronouncement_wherever_the_line_breaks(closing: str) -> None:
    entries = segment(_ORDER.format(closing=closing), REGISTER, upload("2026-12-06T10:00"))
    assert [(e.case_id, e.kind, e.hearing_date, e.next_date) for e in entries] == [
        ("os-231-2024", "hearing", date(2026, 11, 4), None)], closing


def test_an_orders_numbered_respondents_are_its_cause_title_and_today_in_it_is_no_next_date() -> None:
    """walk5al batch: "1. Kommineni Sarala / 2. Kommineni Ravi" under "And" split the order into a guessed entry
    and the real one; "allowed for today only", sent days later, was read as a next date on the upload day."""
    order = """IN THE COURT OF THE PRINCIPAL JUNIOR CIVIL JUDGE, VIKARABAD
I.A. No. 918 of 2026 in O.S. No. 231 of 2024
Between: Pendyala Ramesh ... Petitioner/Plaintiff
And
1. Kommineni Sarala
2. Kommineni Yadamma
3. Kommineni Sarala's son Ravi ... Respondents/Defendants
Heard on 19.10.2026. Petition to dispense with the presence of the plaintiff allowed for today only.
Pronounced in open court on
the 4th day of November, 2026.
"""
    entries = segment(order, REGISTER, upload("2026-12-06T10:00"))
    assert [(e.case_id, e.kind, e.hearing_date, e.next_date) for e in entries] == [
        ("os-231-2024", "hearing", date(2026, 11, 4), None)]
