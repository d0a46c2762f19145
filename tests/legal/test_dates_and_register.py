"""Dates and case names in legal text: the hearing date is never the next date, a filing date or a case number."""

from datetime import date

from handlers.legal.backlog import CASES_FILE
from handlers.legal.dates import find_dates, next_date_in, parse_day
from handlers.legal.question import parse_question
from handlers.legal.register import CaseRegister, number_spans


def register() -> CaseRegister:
    return CaseRegister.load(CASES_FILE)


def test_next_dates_and_filing_dates_are_marked_as_not_hearing_dates() -> None:
    line = "22.06.2026: Counsel for defendant again sought time. Call on 14.07.2026. Plaint filed on 11.03.2024."
    roles = [(d.day, d.month, d.year, d.role) for d in find_dates(line)]
    assert roles == [(22, 6, 2026, "plain"), (14, 7, 2026, "next"), (11, 3, 2024, "other")]
    for marker in ("N.D.", "adjourned to", "next date", "వాయిదా"):
        [found] = find_dates(f"heard in part. {marker} 15/10")
        assert found.role == "next", marker


def test_short_dates_take_the_year_that_fits_the_reference() -> None:
    [hearing, nxt] = find_dates("24/9 Seabreeze - draft 60% done. N.D. 15/10")
    assert hearing.on(date(2026, 9, 25)) == date(2026, 9, 24)
    assert hearing.on(date(2027, 1, 3)) == date(2026, 9, 24)  # a January upload of a September note
    assert nxt.on(date(2026, 9, 24), after=True) == date(2026, 10, 15)
    assert next_date_in("12/12 x adjourned to 9/1", date(2026, 12, 12)) == date(2027, 1, 9)


def test_case_and_application_numbers_are_not_dates() -> None:
    text = "objections to IA 1187/2026 in R.C. 12/2025, Sy. No. 112/3, draft 60% done"
    assert find_dates(text, number_spans(text)) == []


def test_cases_are_found_by_number_title_or_alias_even_when_ocr_garbles_the_type() -> None:
    reg = register()
    assert [m.case_id for m in reg.mentions("Gorle partition 0.5. 88/2023")][-1] == "gorle"
    assert reg.first("listed in OS 214/24 today").case_id == "seabreeze"
    assert reg.first("C.C.No.1423 of 2025").case_id == "mahesh-cheque"
    assert reg.first("Coastal Finance Ltd. v. P. Mahesh Kumar").case_id == "mahesh-cheque"
    assert reg.first("objections to IA 1187/2026") is None  # an application number is not the suit


def test_near_matches_for_an_unknown_case() -> None:
    reg = register()
    name = reg.unknown_name("What happened last time in Seashore?")
    assert name == "Seashore"
    assert reg.first(name) is None
    assert reg.near(name)[0].case_id == "seabreeze"


def test_question_intents() -> None:
    assert parse_question("What happened last time in Seabreeze?").intent == "last"
    june = parse_question("what happened in June in Gorle?")
    assert (june.intent, june.month, june.year) == ("month", 6, None)
    assert parse_question("when is the next date in Seabreeze?").intent == "next"
    assert parse_question("history of Gorle").intent == "history"
    assert parse_question("did they file the counter in Gorle").intent == "general"


def test_typed_dates_for_edits() -> None:
    assert parse_day("2026-09-24") == date(2026, 9, 24)
    assert parse_day("24.09.2026") == date(2026, 9, 24)
    assert parse_day("24 Sep 2026") == date(2026, 9, 24)
    assert parse_day("24/9", date(2026, 10, 1)) == date(2026, 9, 24)


def test_a_party_name_no_other_case_has_names_a_case_only_where_a_case_name_stands() -> None:
    from bench.legal_corpus import load_register

    reg = load_register()
    assert [m.case_id for m in reg.mentions("Ruksana MC - counter filed")] == ["ruksana-mc"]
    assert [m.case_id for m in reg.mentions("2. Polisetty - JD absent")] == ["polisetty-ep"]
    assert reg.mentions("met Ruksana's brother outside the court") == []  # a person, not a case
    assert reg.first("Adv. Prasad appeared for R2") is None and register().first("Adv. Prasad appeared") is None


def test_dates_in_the_forms_clerks_write() -> None:
    forms = {"22/06/26": date(2026, 6, 22), "22-06-2026": date(2026, 6, 22), "22.6.26": date(2026, 6, 22),
             "25 November 2026": date(2026, 11, 25), "25th Nov 2026": date(2026, 11, 25),
             "Nov 25, 2026": date(2026, 11, 25), "25 నవంబర్ 2026": date(2026, 11, 25),
             "the 14th day of March, 2011": date(2011, 3, 14), "17 . 12 . 2026": date(2026, 12, 17)}
    for written, meant in forms.items():
        [found] = find_dates(f"heard on {written}")
        assert found.on(date(2027, 1, 1)) == meant, written
    assert find_dates("PW2 may be examined") == []
    [yesterday] = find_dates("నిన్న rejoinder దాఖలు", today=date(2026, 12, 18))
    assert yesterday.on(date(2026, 12, 18)) == date(2026, 12, 17)
