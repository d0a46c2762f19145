"""The legal corpus (tests/corpus/legal): pages written for it, read by the keyless rules, and /today after them."""

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import date, datetime

import pytest

from bench.legal_corpus import CORPUS_DIR, THRESHOLD, Corpus, batches_in, load_corpus, load_register, score
from bot.core.app import App
from handlers.legal.ingest import Backlog, BacklogIngest, UploadResult
from handlers.legal.models import ManifestRow, ProposedEntry, Upload
from handlers.legal.register import CaseRegister
from handlers.legal.today import cause_list, render_cause_list
from tests.conftest import make_settings

BATCHES = {name: load_corpus(batch=name) for name in batches_in(CORPUS_DIR)}
REGISTER = load_register()
# The seed practice's matters (seeds/legal): none may appear in the corpus, which must not derive from them.
SEED_NAMES = ("Seabreeze", "Gorle", "Mahesh", "Coastal Finance", "Lakshmi Textiles", "Dwaraka", "214/2024",
              "88/2023", "1423/2025", "10422/2025", "12/2025", "Visakhapatnam", "Anakapalli")


@pytest.mark.parametrize("batch", sorted(BATCHES))
def test_the_corpus_is_its_own_and_consistent(batch: str) -> None:
    corpus = BATCHES[batch]
    assert len(corpus.pages) >= (18 if batch == "4" else 40)  # batch 4: court paper of every kind
    assert len({p.file for p in corpus.pages}) == len(corpus.pages)
    for page in corpus.pages:
        text = corpus.text(page)
        assert not [name for name in SEED_NAMES if name.lower() in text.lower()], f"{page.file} names a seed case"
        for entry in page.entries:
            assert entry.case_id is None or REGISTER.get(entry.case_id) is not None, page.file
            if entry.hearing_date is not None:
                assert entry.hearing_date <= page.uploaded_at.date(), page.file
                assert entry.next_date is None or entry.next_date > entry.hearing_date, page.file
    assert any(any("\u0c00" <= ch <= "\u0c7f" for ch in corpus.text(p)) for p in corpus.pages)  # Telugu script


def test_the_batches_share_no_page_and_later_batches_have_their_own_cases() -> None:
    assert {"2", "3"} <= set(BATCHES)
    files = [p.file for corpus in BATCHES.values() for p in corpus.pages]
    assert len(files) == len(set(files))
    cases = {name: {e.case_id for p in corpus.pages for e in p.entries} for name, corpus in BATCHES.items()}
    assert len(cases["2"] - cases["1"]) >= 10  # written by another author about other matters
    assert len(cases["3"] - cases["1"] - cases["2"]) >= 10  # and a third, blind to both


@pytest.mark.parametrize("batch", sorted(BATCHES))
def test_the_rules_file_at_least_95_percent_of_the_corpus_hearings_fully_right(batch: str) -> None:
    report = score(batch=batch)
    misses = [f"{p.file}: {m}" for p in report.pages for m in p.misses]
    assert report.fully_right >= THRESHOLD, "\n".join(misses)
    for field in ("case_right", "hearing_right", "next_right"):
        assert report.share(field) >= THRESHOLD, field
    assert report.count_share >= THRESHOLD


class _ConfirmWritten:
    """A person at review: confirms entries whose date is on the page, discards guesses and unfiled ones."""

    async def review(self, upload: Upload, entry: ProposedEntry, reason: str,
                     register: CaseRegister | None = None) -> ProposedEntry | None:
        return None if entry.guessed or entry.case_id is None else entry


@dataclass(frozen=True)
class Ingested:
    app: App
    bank: str
    errors: list[UploadResult]


@pytest.fixture(scope="module")
async def ingested(tmp_path_factory: pytest.TempPathFactory, hindsight_url: str,
                   bank_prefix: str) -> AsyncIterator[Ingested]:
    app = await App.start(make_settings(tmp_path_factory.mktemp("legal-corpus"), hindsight_url, bank_prefix))
    bank = app.services.bank_of("corpus", "legal")
    await app.services.memory.ensure_bank(app.packs["legal"].bank_profile(bank))
    runner = BacklogIngest(app.services, bank, REGISTER, workers=3, yes=True, reviewer=_ConfirmWritten())
    reports = [await runner.run(Backlog(directory=corpus.pages_dir, rows=[
        ManifestRow(file=p.file, uploaded_at=p.uploaded_at, author="corpus-clerk") for p in corpus.pages]))
        for corpus in BATCHES.values()]
    yield Ingested(app=app, bank=bank, errors=[error for report in reports for error in report.errors])
    await app.aclose()


def _listed_by_the_corpus(corpora: list[Corpus], day: date) -> set[str]:
    """The cases listed on `day` by the expected entries: each case's next date is the latest one set (by a
    hearing before the day, or a cause list issued by then) after its last hearing before the day."""
    setting: dict[str, list[tuple[date, datetime, date]]] = {}
    last: dict[str, date] = {}
    for page in (page for corpus in corpora for page in corpus.pages):
        for entry in page.entries:
            if entry.case_id is None or entry.kind not in ("hearing", "listing"):
                continue
            if entry.kind == "hearing" and entry.hearing_date is not None and entry.hearing_date < day:
                last[entry.case_id] = max(last.get(entry.case_id, entry.hearing_date), entry.hearing_date)
                if entry.next_date is not None:
                    setting.setdefault(entry.case_id, []).append((entry.hearing_date, page.uploaded_at,
                                                                   entry.next_date))
            elif entry.kind == "listing" and entry.next_date is not None:
                issued = min(entry.next_date, page.uploaded_at.date())
                if issued <= day:
                    setting.setdefault(entry.case_id, []).append((issued, page.uploaded_at, entry.next_date))
    listed = set()
    for case_id, dates in setting.items():
        after = [d for d in dates if d[2] > last.get(case_id, date.min)]
        if after and max(after)[2] == day:
            listed.add(case_id)
    return listed


@pytest.mark.hindsight
async def test_today_lists_the_right_matters_on_every_next_date_of_the_corpus(ingested: Ingested) -> None:
    assert not ingested.errors
    corpora = list(BATCHES.values())
    days = sorted({e.next_date for c in corpora for p in c.pages for e in p.entries if e.next_date is not None})
    assert len(days) >= 30
    wrong = []
    for day in days:
        listing = await cause_list(ingested.app.services, ingested.bank, REGISTER, day)
        found = {item.case_id for item in listing.items}
        expected = _listed_by_the_corpus(corpora, day)
        if found != expected:
            wrong.append(f"{day}: listed {sorted(found)}, expected {sorted(expected)}")
        shown = render_cause_list("en", listing, REGISTER)
        for case_id in found:
            case = REGISTER.get(case_id)
            assert case is not None and case.label in shown
    assert not wrong, "\n".join(wrong)
