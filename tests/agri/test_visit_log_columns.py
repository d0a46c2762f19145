"""A visit log as an office writes it, every column of it read: products with their doses, the farmer's response
and objection, the crop's result as an outcome linked to the visit, the follow-up and the remarks; headers as
offices write them (qualified, punctuated, in Telugu); a column not used is listed, a cell not understood is
listed under its column and kept in the visit's note. A farmer visited again months later is another visit;
the same farmer on the same day (officer, crop) is one. Walk step (issue 25): a new distributor's own log
lost its Product Given, Dose, Outcome, Objection, Next Step and Remarks columns and had its repeat visits
refused as duplicates. The log and its words are written here for the test."""

from pathlib import Path

import pytest

from bot.store import Database
from handlers.agri.register import FieldBook
from handlers.agri.visit_log import import_visit_log
from handlers.agri.visit_records import VisitRecords
from tests.databases import sqlite_database
from tests.registers import seed_book

TENANT = "logco"


@pytest.fixture
def db(tmp_path: Path) -> Database:
    database = sqlite_database(tmp_path)
    yield database  # type: ignore[misc]
    database.dispose()


@pytest.fixture(scope="module")
def book() -> FieldBook:
    return seed_book()


def _log(folder: Path, text: str) -> Path:
    path = folder / "office-log.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_every_column_of_an_office_log_is_read_into_the_visit_and_its_outcome(db: Database, book: FieldBook,
                                                                                tmp_path: Path) -> None:
    path = _log(tmp_path, "Kharif visit register\n"
                "Visit Dt.,FO,Grower,Crop,Pest,Products Given,Dosage,Farmer's Response,Objections,Crop Result,"
                "Follow-up Action,Officer Remarks,Plot Acres\n"
                "14-07-2026,Srinivas Reddy,Raju Yadav,cotton,pink bollworm,\"Proclaim, Coragen\","
                "\"Coragen 60 ml/acre; Proclaim 80 g/acre\",agreed,,80% control,check again after 12 days,"
                "sprayed in the evening,3\n"
                "16-07-2026,Srinivas Reddy,Laxmamma,cotton,pink bollworm,Coragen,two sachets,,costly,"
                "ask the dealer,ask him on 30-07-2026,,2\n")
    dry = import_visit_log(db, book, TENANT, path, apply=False, bank_id="b")
    shown = dry.render()
    assert dry.ignored_columns == ["Plot Acres"], shown
    assert "not understood in Dosage" in shown and "two sachets" in shown, shown
    assert "not understood in Crop Result" in shown and "ask the dealer" in shown, shown
    assert dry.memories_total == 3 and "outcome:" in shown, shown
    assert VisitRecords(db).visits(TENANT) == []

    import_visit_log(db, book, TENANT, path, apply=True, bank_id="b")
    records = VisitRecords(db)
    first, second = (s.visit for s in records.visits(TENANT))
    assert {a.product_id: (a.reaction, a.dose) for a in first.products} == {
        "P007": ("accepted", "80 g/acre"), "P004": ("accepted", "60 ml/acre")}
    assert first.next_step == "check again after 12 days" and first.followup_days == 12
    assert first.note == "sprayed in the evening"
    [outcome] = records.outcomes(TENANT)
    assert (outcome.outcome.visit_id, outcome.outcome.result) == (first.id, "controlled")
    assert sorted(outcome.outcome.products) == ["P004", "P007"]
    [advice] = second.products
    assert (advice.reaction, advice.objection, advice.dose) == ("rejected", "price", None)
    assert second.followup_days == 14
    assert "two sachets" in (second.note or "") and "ask the dealer" in (second.note or "")

    again = import_visit_log(db, book, TENANT, path, apply=True, bank_id="b")
    assert (len(again.added), len(again.updated), len(again.unchanged), again.memories_total) == (0, 0, 2, 0)


def test_telugu_headers_are_read(db: Database, book: FieldBook, tmp_path: Path) -> None:
    path = _log(tmp_path, "తేదీ,రైతు పేరు,పంట,సమస్య,మందు,మోతాదు,అభ్యంతరం,ఫలితం,వ్యాఖ్యలు\n"
                          "03-08-2026,Raju Yadav,cotton,pink bollworm,Proclaim,80 g/acre,ధర ఎక్కువ,no use,పొలం దగ్గర\n")
    report = import_visit_log(db, book, TENANT, path, apply=True, bank_id="b")
    assert report.ignored_columns == [] and not report.not_understood, report.render()
    [saved] = VisitRecords(db).visits(TENANT)
    [advice] = saved.visit.products
    assert (advice.dose, advice.objection, saved.visit.note) == ("80 g/acre", "price", "పొలం దగ్గర")
    [outcome] = VisitRecords(db).outcomes(TENANT)
    assert outcome.outcome.result == "no_effect"


def test_repeat_visits_months_apart_are_visits_and_the_same_day_is_one(db: Database, book: FieldBook,
                                                                       tmp_path: Path) -> None:
    row = "Srinivas Reddy,Raju Yadav,cotton,pink bollworm,Proclaim,accepted\n"
    path = _log(tmp_path, "Date,Officer,Farmer,Crop,Problem,Products,Reaction\n"
                f"05-06-2026,{row}11-09-2026,{row}05-06-2026,{row}")
    report = import_visit_log(db, book, TENANT, path, apply=True, bank_id="b")
    assert len(report.added) == 2, report.render()
    assert [(r.row, "same visit as row 2" in r.reason) for r in report.rejected] == [(4, True)]
    assert [s.visit.date.month for s in VisitRecords(db).visits(TENANT)] == [6, 9]

    again = import_visit_log(db, book, TENANT, path, apply=True, bank_id="b")
    assert (len(again.added), len(again.updated), len(again.unchanged)) == (0, 0, 2)

    # A row corrected in the sheet (another product) is the same visit, updated under the same id.
    changed = _log(tmp_path, "Date,Officer,Farmer,Crop,Problem,Products,Reaction\n"
                   f"05-06-2026,{row}11-09-2026,{row.replace('Proclaim', 'Coragen')}")
    ids = [s.visit.id for s in VisitRecords(db).visits(TENANT)]
    fixed = import_visit_log(db, book, TENANT, changed, apply=True, bank_id="b")
    assert (len(fixed.added), len(fixed.updated), len(fixed.unchanged)) == (0, 1, 1), fixed.render()
    visits = VisitRecords(db).visits(TENANT)
    assert [s.visit.id for s in visits] == ids and visits[1].visit.products[0].product_id == "P004"


def test_a_visit_imported_before_under_its_contents_key_is_replaced_not_doubled(db: Database, book: FieldBook,
                                                                               tmp_path: Path) -> None:
    """A log imported when a row's key was its contents: importing it again updates that visit (its memory goes,
    one remains) instead of adding a second one beside it."""
    from datetime import date

    from handlers.agri.models import Visit
    from handlers.agri.visit_records import SavedVisit

    earlier = Visit(id="F011-20260605-0a1b2c", date=date(2026, 6, 5), officer_id="O01", farmer_id="F011",
                    village="moinabad", crop="cotton")
    VisitRecords(db).save_visit(TENANT, SavedVisit(visit=earlier, key="log-0123456789ab", source="import"))
    path = _log(tmp_path, "Date,Officer,Farmer,Crop,Problem,Products,Reaction\n"
                          "05-06-2026,Srinivas Reddy,Raju Yadav,cotton,pink bollworm,Proclaim,accepted\n")
    dry = import_visit_log(db, book, TENANT, path, apply=False, bank_id="b")
    assert (len(dry.added), len(dry.updated)) == (0, 1), dry.render()
    applied = import_visit_log(db, book, TENANT, path, apply=True, bank_id="b")
    assert applied.removed == ["visit:F011-20260605-0a1b2c"], applied.render()
    [kept] = VisitRecords(db).visits(TENANT)
    assert kept.visit.id != earlier.id and kept.visit.products[0].product_id == "P007"
    again = import_visit_log(db, book, TENANT, path, apply=True, bank_id="b")
    assert (len(again.unchanged), again.removed) == (1, [])


def test_every_reaction_word_the_reader_knows_imports(db: Database, book: FieldBook, tmp_path: Path) -> None:
    """A reaction the reader has a word for ("already has stock" is the farmer's own stock) is a reaction the
    saved visit can hold: no row of a log breaks the import."""
    from datetime import date, timedelta

    from handlers.agri.lexicon import load_lexicon

    words = [w for group in load_lexicon().reactions.values() for w in group if "," not in w]
    lines = [f"{date(2026, 1, 1) + timedelta(days=n):%d-%m-%Y},Raju Yadav,cotton,Proclaim,{word}"
             for n, word in enumerate(words)]
    path = _log(tmp_path, "Date,Farmer,Crop,Products,Reaction\n" + "\n".join(lines) + "\n")
    report = import_visit_log(db, book, TENANT, path, apply=True, bank_id="b")
    assert len(report.added) == len(words) and not report.rejected, report.render()
    saved = VisitRecords(db).visits(TENANT)  # read back: every reaction is one a visit may hold
    assert {a.reaction for s in saved for a in s.visit.products} <= {"accepted", "postponed", "rejected", "undecided"}


def test_two_columns_of_one_kind_are_both_read(db: Database, book: FieldBook, tmp_path: Path) -> None:
    """A log with Products Recommended and Product Given (or Remarks and Notes) loses neither column."""
    path = _log(tmp_path, "Date,Farmer,Crop,Products Recommended,Product Given,Remarks,Notes\n"
                          "05-06-2026,Raju Yadav,cotton,Proclaim,Coragen,called twice,field near canal\n")
    report = import_visit_log(db, book, TENANT, path, apply=True, bank_id="b")
    assert report.ignored_columns == [], report.render()
    [saved] = VisitRecords(db).visits(TENANT)
    assert [a.product_id for a in saved.visit.products] == ["P007", "P004"]
    assert saved.visit.note == "called twice; field near canal"


def test_a_hesitation_or_put_off_with_a_reason_is_never_stored_as_accepted(db: Database, book: FieldBook,
                                                                            tmp_path: Path) -> None:
    """Walk 5al step 7 (issue 25): the log's Reaction "Hesitant - price" was stored as accepted and its Outcome
    "Partial control" was not written. A reaction is read as the card reads it, its reason after the dash, and
    an outcome as the follow-up answer is read, with whose product it was."""
    path = _log(tmp_path, "Date,Farmer,Crop,Problem,Products,Reaction,Outcome\n"
                          "01-07-2026,Raju Yadav,cotton,pink bollworm,Proclaim,Unsure - costly,Moderate control\n"
                          "02-07-2026,Raju Yadav,cotton,pink bollworm,Proclaim,will think it over,\n"
                          "03-07-2026,Raju Yadav,cotton,pink bollworm,Proclaim,Later - no money,Partial control\n"
                          "04-07-2026,Raju Yadav,cotton,pink bollworm,Proclaim,Refused - bought local brand,\n"
                          "05-07-2026,Raju Yadav,cotton,pink bollworm,Proclaim,Agreed,\"used dealer product, no effect\"\n")
    import_visit_log(db, book, TENANT, path, apply=True, bank_id="b")
    records = VisitRecords(db)
    by_day = {s.visit.date.day: s.visit for s in records.visits(TENANT)}
    taken = {day: [(a.reaction, a.objection) for a in v.products] for day, v in by_day.items()}
    assert taken == {1: [("undecided", "price")], 2: [("undecided", None)], 3: [("postponed", "money")],
                     4: [("rejected", None)], 5: [("accepted", None)]}, taken
    results = {o.outcome.visit_id: (o.outcome.result, o.outcome.source) for o in records.outcomes(TENANT)}
    assert results == {by_day[1].id: ("partial", "ours"), by_day[3].id: ("partial", "ours"),
                       by_day[5].id: ("no_effect", "dealer")}, results
