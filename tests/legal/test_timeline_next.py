"""/timeline draws one dashed "next" line: the case's next date as "when is the next date" answers it, never a
date an older hearing set that a later hearing or cause list has superseded (walk5al 96: E.P. 19/2026 showed
both 17 Dec, set on 27 Nov, and 8 Dec, set on 1 Dec, as live)."""

from datetime import date

from handlers.legal.models import HearingRecord
from handlers.legal.timeline import upcoming


def _record(doc: str, kind: str, day: date, nxt: date | None) -> HearingRecord:
    return HearingRecord(document_id=doc, case_id="ep-19-2026", kind=kind, hearing_date=day, next_date=nxt,
                         source_file="docket", author="clerk")


def test_the_chart_draws_only_the_cases_next_date() -> None:
    records = [_record("a", "hearing", date(2026, 11, 27), date(2026, 12, 17)),
               _record("b", "hearing", date(2026, 12, 1), date(2026, 12, 8)),
               _record("c", "step", date(2026, 12, 5), None)]
    assert upcoming(records) == [date(2026, 12, 8)]
    listed = [*records, _record("d", "listing", date(2026, 12, 4), date(2026, 12, 11))]
    assert upcoming(listed) == [date(2026, 12, 11)]  # a cause list issued after the hearing wins
    assert upcoming([_record("e", "hearing", date(2026, 12, 1), None)]) == []


def test_history_says_a_register_date_court_paper_replaced_is_superseded() -> None:
    """walk5al 40: /history printed the register's 15 Dec after a 3 Dec hearing set 18 Dec, as if both stood."""
    from handlers.legal.case_dates import REGISTER_SOURCE
    from handlers.legal.compose import compose
    from handlers.legal.models import CaseRecord
    from handlers.legal.question import parse_question
    from handlers.legal.register_dates import REGISTER_KIND

    case = CaseRecord(case_id="ep-19-2026", title="Anjaneyulu v. Pittala Narayana", numbers=["E.P. 19/2026"])
    register = HearingRecord(document_id="register-ep-19-2026-2026-12-15", case_id="ep-19-2026", kind="listing",
                             hearing_date=date(2026, 12, 1), next_date=date(2026, 12, 15), source_file="case register",
                             author="office", upload_kind=REGISTER_KIND, date_source=REGISTER_SOURCE)
    hearing = _record("h", "hearing", date(2026, 12, 3), date(2026, 12, 18))
    asked = parse_question("history of E.P. 19/2026", date(2026, 12, 6))
    shown = compose("en", case, asked, [register, hearing], [], date(2026, 12, 6)).answer
    assert "15 Dec 2026 in the case register imported that day, since superseded" in shown, shown
    alone = compose("en", case, asked, [register], [], date(2026, 12, 6)).answer
    assert "since superseded" not in alone and "15 Dec 2026" in alone, alone
