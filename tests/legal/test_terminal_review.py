"""The terminal review of a backlog: every field of an entry can be corrected before it is saved (its case by
number, name or file no.; its dates; its kind; its text), and Enter on an entry that cannot be saved yet says
what it lacks instead of asking again in silence. Entries written for these tests."""

from datetime import date
from typing import Any

from handlers.legal.models import CaseRecord, ProposedEntry
from handlers.legal.register import CaseRegister
from handlers.legal.review import TerminalReviewer
from tests.legal.kinds_corpus import REGISTER, upload

WRIT = ProposedEntry(case_id=None, hearing_date=date(2026, 11, 27), date_source="text", confidence=0.2,
                     text="WRIT PETITION No. 1234 OF 2026: GP seeks time", upload_kind="note")


def _reviewer(answers: list[str]) -> tuple[TerminalReviewer, list[str], list[str]]:
    asked: list[str] = []
    said: list[str] = []
    left = iter(answers)

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return next(left)

    return TerminalReviewer(ask=ask, say=said.append), asked, said


async def test_the_case_next_date_kind_and_text_can_each_be_set_before_saving() -> None:
    reviewer, _, said = _reviewer(["case Nandigama writ", "next 07.01.2027", "kind hearing",
                                   "text GP seeks time to file counter", ""])
    saved = await reviewer.review(upload("2026-11-30T10:00"), WRIT, "no case", REGISTER)
    assert saved is not None
    assert (saved.case_id, saved.hearing_date, saved.next_date, saved.kind, saved.text) == (
        "wp-1234-2026", date(2026, 11, 27), date(2027, 1, 7), "hearing", "GP seeks time to file counter")
    assert any("wp-1234-2026" in line and "next date 2027-01-07" in line for line in said)  # shown after each edit


async def test_a_case_typed_bare_by_its_number_or_file_number_is_the_case() -> None:
    register = CaseRegister([CaseRecord(case_id="vl-103", title="Rice Mill v. State", numbers=["W.P.(C) 7781 of 2026"],
                                        code="VL-103")])
    for typed in ("W.P.(C) 7781/2026", "VL-103", "case vl-103"):
        reviewer, _, _ = _reviewer([typed, ""])
        saved = await reviewer.review(upload("2026-11-30T10:00"), WRIT, "no case", register)
        assert saved is not None and saved.case_id == "vl-103", typed


async def test_enter_on_an_entry_without_a_case_says_what_is_missing_and_never_loops_silently() -> None:
    reviewer, asked, said = _reviewer(["", "", "d"])
    assert await reviewer.review(upload("2026-11-30T10:00"), WRIT, "no case", REGISTER) is None
    assert len(asked) == 3
    assert [line for line in said if "No case yet" in line] and len(said) == 3  # entry, then one reply per Enter


async def test_a_guessed_date_is_confirmed_by_typing_it_and_a_doubtful_next_date_by_enter() -> None:
    guessed = WRIT.model_copy(update={"case_id": "wp-1234-2026", "date_source": "upload_time"})
    reviewer, _, said = _reviewer(["", "27.11.2026", ""])
    saved = await reviewer.review(upload("2026-11-30T10:00"), guessed, "guessed", REGISTER)
    assert saved is not None and saved.hearing_date == date(2026, 11, 27) and not saved.guessed
    assert any("only a guess" in line for line in said)
    doubtful = WRIT.model_copy(update={"case_id": "wp-1234-2026", "next_date": date(2026, 12, 10),
                                       "doubt": "next_date"})
    reviewer, _, _ = _reviewer([""])
    confirmed = await reviewer.review(upload("2026-11-30T10:00"), doubtful, "next date doubtful", REGISTER)
    assert confirmed is not None and confirmed.doubt is None and confirmed.next_date == date(2026, 12, 10)


async def test_a_value_that_does_not_fit_gets_a_reason_and_the_entry_is_unchanged() -> None:
    reviewer, _, said = _reviewer(["next 31.02.2027", "case Nobody suit", "kind lunch", "", ])
    entry = WRIT.model_copy(update={"case_id": "wp-1234-2026"})
    saved: Any = await reviewer.review(upload("2026-11-30T10:00"), entry, "confirm", REGISTER)
    assert saved == entry
    assert len([line for line in said if line.startswith("  ")]) == 3
