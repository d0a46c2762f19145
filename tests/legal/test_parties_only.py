"""Court paper that names its case only by the parties (a vakalat signed before the number was given, a
docket headed by the cause title): the case is the one whose title has both sides on the page, and a
document's own date is the day it was signed, not an earlier order it recites. Pages written for these tests."""

from datetime import date

from handlers.legal.models import CaseRecord
from handlers.legal.register import CaseRegister
from handlers.legal.segment import segment
from tests.legal.kinds_corpus import REGISTER, upload

VAKALAT_NO_NUMBER = """VAKALATNAMA
IN THE HIGH COURT FOR THE STATE OF TELANGANA AT HYDERABAD
A.S. No.        of 2026
(against the decree dt. 14-07-2026 in O.S. No. 19 of 2020 on the file of the Senior Civil Judge, Medak)
Mothe Lakshmaiah                                 ... Appellant
                    Versus
Mothe Anjamma                                    ... Respondent
I, Mothe Lakshmaiah, the appellant above named, appoint Sri K. Ravi, Advocate.
Executed on this the 9th day of October, 2026 at Sangareddy."""


def test_a_vakalat_with_a_blank_number_is_filed_under_the_case_its_parties_name() -> None:
    [entry] = segment(VAKALAT_NO_NUMBER, REGISTER, upload("2026-10-12T11:00"))
    assert (entry.kind, entry.case_id, entry.hearing_date, entry.next_date) == (
        "document", "as-112-2023", date(2026, 10, 9), None)


def test_one_side_alone_or_the_shared_family_name_names_no_case() -> None:
    register = CaseRegister([
        CaseRecord(case_id="a", title="Mothe Lakshmaiah v. Mothe Anjamma", numbers=["A.S. 112/2023"]),
        CaseRecord(case_id="b", title="Mothe Lakshmaiah v. Gurram Venkanna", numbers=["O.S. 5/2024"]),
    ])
    assert register.by_parties("Mothe Lakshmaiah ... Appellant") is None  # one side: both cases have it
    assert register.by_parties("Mothe ... Appellant Vs Mothe ... Respondent") is None  # the family name only
    found = register.by_parties("Mothe Lakshmaiah ... Appellant\nVs\nGurram Venkanna ... Respondent")
    assert found is not None and found.case_id == "b"


def test_a_docket_headed_only_by_its_cause_title_files_its_rows_under_that_case() -> None:
    page = """ORDER SHEET
Mothe Lakshmaiah ... Appellant  Vs  Mothe Anjamma ... Respondent
12-10-2026   Appeal admitted. Notice to respondent. Call on 09-11-2026.
09-11-2026   Respondent served. Adjourned to 30-11-2026."""
    entries = segment(page, REGISTER, upload("2026-11-10T18:00"))
    assert [(e.case_id, e.hearing_date, e.next_date) for e in entries] == [
        ("as-112-2023", date(2026, 10, 12), date(2026, 11, 9)),
        ("as-112-2023", date(2026, 11, 9), date(2026, 11, 30))]


def test_a_document_is_dated_by_its_signing_not_by_a_later_deadline_or_an_earlier_order() -> None:
    page = """LEASE DEED
O.S. 231/2024 (Pendyala suit) - copy for the file
This lease is executed on this the 2nd day of March, 2026 between Pendyala Ramesh (lessor) and Gurram Ravi.
Rent arrears to be cleared on or before 30.06.2026, failing which the lease stands cancelled."""
    [entry] = segment(page, REGISTER, upload("2026-11-20T12:00"))
    assert (entry.kind, entry.case_id, entry.hearing_date) == ("document", "os-231-2024", date(2026, 3, 2))


def test_a_question_names_its_case_by_one_party_anywhere_when_only_that_case_has_the_name() -> None:
    """Walk: an imported register with Petitioner/Respondent columns; "what happened last time in Azeemuddin?"
    was refused although the note reader filed notes under that name."""
    register = CaseRegister([
        CaseRecord(case_id="os-412-2023", title="Mohd. Azeemuddin v. Syed Khaja Pasha & 2 others",
                   numbers=["O.S. 412/2023"]),
        CaseRecord(case_id="cma-77-2025", title="Gundlapalli Ravinder v. Sri Sai Chit Funds Pvt Ltd",
                   numbers=["C.M.A. 77/2025"]),
        CaseRecord(case_id="os-9-2024", title="Gundlapalli Ravinder v. Kommu Yadaiah", numbers=["O.S. 9/2024"]),
    ])
    for question, case_id in [("what happened last time in Azeemuddin?", "os-412-2023"),
                              ("when is the next date in the Pasha matter", "os-412-2023"),
                              ("history of Yadaiah", "os-9-2024"),
                              ("what happened in O.S. 9/2024", "os-9-2024")]:
        found = register.asked_about(question)
        assert found is not None and found.case_id == case_id, question
    assert register.asked_about("what happened last time in Gundlapalli?") is None  # his two cases: ask which
    assert register.asked_about("what happened in Seabreeze?") is None
    assert register.first("what happened last time in Azeemuddin?") is None  # notes keep the stricter rule
