"""The scans batch (tests/corpus/legal/scans: court paper scanned or photographed, drawn in a style of its own)
read as the bot reads an upload: every field at least 95% by document kind and by format, no listing, step or
document read as a hearing, and a docket's rows kept apart across pages with the court's title never a case."""

from datetime import date

from bench.legal_corpus import CORPUS_DIR, THRESHOLD, load_corpus, load_register, score, score_page
from handlers.legal.segment import segment
from tests.legal.kinds_corpus import REGISTER, upload


def test_every_field_of_the_scans_batch_is_read_right_by_kind_and_format() -> None:
    report = score(CORPUS_DIR, "scans")
    totals: dict[str, list[int]] = {}
    for page in report.pages:
        for key, row in page.fields.items():
            totals[key] = [a + b for a, b in zip(totals.get(key, [0] * 5), row, strict=True)]
    assert {"format:pdf-scan", "format:photo", "kind:hearing", "kind:listing", "kind:step"} <= set(totals)
    for key, (total, *rights) in totals.items():
        assert all(right / total >= THRESHOLD for right in rights), (key, total, rights)
    assert sum(p.non_hearings_as_hearings for p in report.pages) == 0


def test_a_two_page_scanned_docket_gives_each_row_once_and_no_case_from_the_title() -> None:
    corpus = load_corpus(CORPUS_DIR, "scans")
    register = load_register(CORPUS_DIR, "scans")
    [page] = [p for p in corpus.pages if p.file.startswith("s01_")]
    found = segment(corpus.text(page), register, corpus.upload(page))
    assert [e.hearing_date for e in found] == [e.hearing_date for e in page.entries]
    assert {e.case_id for e in found} == {"kn-201"}
    assert score_page(corpus, page, register).fully_right == len(page.entries)


def test_an_office_note_of_a_copy_of_a_deposition_is_a_step_not_a_hearing() -> None:
    note = ("30-11-2026\nA.S. 112/2023 Mothe appeal - collected certified copy of the deposition of PW3 "
            "from the copying section today. To be kept in file.")
    [entry] = segment(note, REGISTER, upload("2026-11-30T18:00"))
    assert (entry.kind, entry.case_id, entry.hearing_date, entry.next_date) == (
        "step", "as-112-2023", date(2026, 11, 30), None)
