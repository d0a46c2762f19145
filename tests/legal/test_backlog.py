"""The seed backlog, ingested twice in shuffled order with 5 workers, against the real local Hindsight.

Run 1 reads every file for real (Tesseract on the images); run 2 reads the manifest in another order and
takes the texts from the read cache, so it tests order and idempotency, not OCR again. Both must store
exactly the hearings written on the pages, and "last time" must be the latest hearing by hearing date.
"""

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import date, datetime, timezone

import pytest

from bot.core.app import App
from bot.services.i18n import show_date
from handlers.legal.ask import ask
from handlers.legal.backlog import Expected, load_backlog, render_backlog
from handlers.legal.entries import EntryStore
from handlers.legal.ingest import IngestReport
from handlers.legal.models import GUESSED_CONFIDENCE_CAP
from handlers.legal.pack import LegalPack
from handlers.legal.casebook import CaseBook
from handlers.legal.records import chat_record
from handlers.legal.register import CaseRegister
from handlers.legal.today import cause_list
from memory import StoredDocument
from tests.conftest import make_settings
from tests.legal.helpers import shuffle_manifest

pytestmark = pytest.mark.hindsight

TENANT = "backlog"


@dataclass(frozen=True)
class Ingested:
    app: App
    bank: str
    register: CaseRegister
    expected: Expected
    first: IngestReport
    second: IngestReport
    after_first: list[StoredDocument]
    after_second: list[StoredDocument]
    orders: list[list[str]]
    progress: list[tuple[int, int, str]]


@pytest.fixture(scope="module")
async def ingested(tmp_path_factory: pytest.TempPathFactory, hindsight_url: str,
                   bank_prefix: str) -> AsyncIterator[Ingested]:
    home = tmp_path_factory.mktemp("legal-backlog")
    directory = home / "backlog"
    expected = render_backlog(directory)
    app = await App.start(make_settings(home, hindsight_url, bank_prefix))
    pack = app.packs["legal"]
    assert isinstance(pack, LegalPack)
    bank = app.services.bank_of(TENANT, "legal")
    progress: list[tuple[int, int, str]] = []
    orders = [shuffle_manifest(directory, seed=1)]
    first = await pack.ingest_dir(TENANT, directory, workers=5, yes=True,
                                  progress=lambda d, t, f: progress.append((d, t, f)))
    after_first = await app.services.memory.list_documents(bank)
    orders.append(shuffle_manifest(directory, seed=2))
    second = await pack.ingest_dir(TENANT, directory, workers=5, yes=True)
    after_second = await app.services.memory.list_documents(bank)
    yield Ingested(app=app, bank=bank, register=pack.register_for(TENANT), expected=expected, first=first,
                   second=second, after_first=after_first, after_second=after_second, orders=orders,
                   progress=progress)
    await app.aclose()


def _snapshot(documents: list[StoredDocument]) -> dict[str, tuple[tuple[str, ...], tuple[tuple[str, str], ...]]]:
    return {d.document_id: (tuple(sorted(d.tags)), tuple(sorted(d.metadata.items()))) for d in documents}


def test_both_shuffled_runs_store_exactly_the_hearings_on_the_pages(ingested: Ingested) -> None:
    assert ingested.orders[0] != ingested.orders[1]
    assert not ingested.first.errors and not ingested.second.errors
    assert set(ingested.first.stored_ids) == ingested.expected.document_ids
    assert {d.document_id for d in ingested.after_first} == ingested.expected.document_ids
    assert _snapshot(ingested.after_second) == _snapshot(ingested.after_first)
    assert len(ingested.after_second) == len(ingested.expected.document_ids)  # re-run replaced, never duplicated
    # Each stored entry is a record too, once, and the records rebuild exactly the bank's memories.
    records = EntryStore(ingested.app.services.database).all(TENANT)
    assert sorted(r.document_id for r in records) == sorted(ingested.expected.document_ids)
    pack = ingested.app.packs["legal"]
    assert isinstance(pack, LegalPack)
    assert {i.document_id for i in pack.memory_records(ingested.app.services, TENANT)} == ingested.expected.document_ids


def test_progress_was_reported_for_every_upload(ingested: Ingested) -> None:
    total = len(load_backlog().uploads)
    assert [d for d, _, _ in ingested.progress] == list(range(1, total + 1))
    assert {f for _, _, f in ingested.progress} == set(ingested.orders[0])
    assert {r.read_method for r in ingested.first.results} >= {"tesseract", "pdf", "text"}


def test_every_memory_is_stamped_with_its_hearing_date_not_its_upload(ingested: Ingested) -> None:
    for document in ingested.after_first:
        meta = document.metadata
        assert document.event_date == date.fromisoformat(meta["hearing_date"])
        assert document.document_id == f"{meta['upload_id']}:{meta['case_id']}:{meta['hearing_date']}"
        assert {"source_file", "upload_id", "case_id", "hearing_date", "author", "next_date"} <= meta.keys()
        assert f"case:{meta['case_id']}" in document.tags
    uploaded_days = {datetime.fromisoformat(d.metadata["uploaded_at"]).date() for d in ingested.after_first}
    hearing_days = {d.event_date for d in ingested.after_first}
    assert len(hearing_days) > 2 * len(uploaded_days) // 3 and hearing_days != uploaded_days


def test_guessed_dates_are_held_for_review_and_never_stored(ingested: Ingested) -> None:
    held = ingested.first.held
    assert {f"{h.upload_id}:{h.case_id}" for h in held} == ingested.expected.held
    assert all(h.date_source in ("file_name", "upload_time") and h.confidence <= GUESSED_CONFIDENCE_CAP for h in held)
    stored_uploads = {d.metadata["upload_id"] for d in ingested.after_second}
    assert not {h.upload_id for h in held} & stored_uploads


async def test_last_time_is_the_latest_hearing_for_all_five_cases(ingested: Ingested) -> None:
    assert len(ingested.expected.latest) == 5
    for case in ingested.register.cases:
        answer = await ask(ingested.app.services, ingested.bank, ingested.register,
                           f"What happened last time in {case.label}?")
        latest = ingested.expected.latest[case.case_id]
        assert answer.case_id == case.case_id
        assert answer.citations and {c.hearing_date for c in answer.citations} == {latest}, case.case_id
        assert show_date("en", latest) in answer.answer
        assert all(c.document_id in ingested.expected.document_ids for c in answer.citations)


async def test_seabreeze_last_time_is_divyas_note_not_the_last_uploaded_file(ingested: Ingested) -> None:
    seabreeze = [d for d in ingested.after_first if d.metadata["case_id"] == "seabreeze"]
    last_uploaded = max(seabreeze, key=lambda d: d.metadata["uploaded_at"])
    assert last_uploaded.event_date < date(2026, 9, 24)  # the trap: the newest upload is older
    answer = await ask(ingested.app.services, ingested.bank, ingested.register,
                       "What happened last time in Seabreeze SP suit?")
    [citation] = answer.citations
    assert (citation.hearing_date, citation.author) == (date(2026, 9, 24), "Divya")
    assert citation.source_file.endswith(".txt") and "draft 60% done" in answer.answer
    assert "15 Oct 2026" in answer.answer


async def test_month_next_date_history_and_as_of(ingested: Ingested) -> None:
    services, bank, register = ingested.app.services, ingested.bank, ingested.register
    june = await ask(services, bank, register, "what happened in June in Gorle?")
    gorle_june_2026 = {d.event_date for d in ingested.after_first
                       if d.metadata["case_id"] == "gorle" and d.event_date and (d.event_date.year, d.event_date.month) == (2026, 6)}
    assert gorle_june_2026 and {c.hearing_date for c in june.citations} == gorle_june_2026

    nxt = await ask(services, bank, register, "when is the next date in Seabreeze?", as_of=date(2026, 10, 1))
    assert "Next date in Seabreeze: 15 Oct 2026" in nxt.answer

    history = await ask(services, bank, register, "history of Gorle")
    dates = [c.hearing_date for c in history.citations]
    assert dates == sorted(dates)
    assert len(history.citations) == sum(1 for d in ingested.after_first if d.metadata["case_id"] == "gorle")

    earlier = await ask(services, bank, register, "what happened last time in Seabreeze?", as_of=date(2026, 7, 1))
    assert {c.hearing_date for c in earlier.citations} == {date(2026, 6, 22)}


async def test_cause_list_from_next_dates_with_previous_hearing_by_hearing_date(ingested: Ingested) -> None:
    listing = await cause_list(ingested.app.services, ingested.bank, ingested.register, date(2026, 10, 15))
    assert {i.case_id: i.previous.hearing_date for i in listing.items if i.previous} == {
        "seabreeze": date(2026, 9, 24), "gorle": date(2026, 9, 12)}
    assert (await cause_list(ingested.app.services, ingested.bank, ingested.register, date(2026, 10, 16))).items == []


async def test_unknown_case_lists_near_matches_and_answers_from_nothing(ingested: Ingested) -> None:
    answer = await ask(ingested.app.services, ingested.bank, ingested.register,
                       "What happened last time in Seashore?")
    assert answer.case_id is None and answer.citations == [] and answer.confidence == 0.0
    assert "Seashore" in answer.answer and answer.near_matches[0] == "seabreeze"
    assert "2026" not in answer.answer.replace("214/2024", "")


async def test_a_later_chat_memory_ranks_below_the_court_records(ingested: Ingested) -> None:
    services = ingested.app.services
    case = ingested.register.get("seabreeze")
    # Filed as /remember files it: a record of the chat memory, then its memory.
    said = chat_record("Seabreeze: client will not accept a refund of the advance", datetime.now(timezone.utc),
                       "Adv. Aditya Varma", "aditya", case)
    await CaseBook(services, TENANT).file([(said, case)], by="aditya")
    answer = await ask(services, ingested.bank, ingested.register, "What happened last time in Seabreeze?")
    assert {c.hearing_date for c in answer.citations} == {date(2026, 9, 24)}
    record_at = answer.answer.index("draft 60% done")
    chat_at = answer.answer.index("refund of the advance")
    assert record_at < answer.answer.index("Chat memories") < chat_at
    general = await ask(services, ingested.bank, ingested.register, "Seabreeze refund of the advance")
    if "refund of the advance" in general.answer:
        assert general.answer.index("Chat memories") < general.answer.index("refund of the advance")
        assert all(c.document_id != said.document_id for c in general.citations)


async def test_demo_ingests_with_a_progress_bar_and_cites_the_last_seabreeze_hearing(ingested: Ingested) -> None:
    lines: list[str] = []
    pack = ingested.app.packs["legal"]
    await pack.demo(TENANT, lines.append)
    printed = "\n".join(lines)
    assert f"[{'#' * 30}] {len(load_backlog().uploads)}/{len(load_backlog().uploads)}" in printed
    assert "Q: What happened last time in Seabreeze?" in printed
    assert "Last hearing in Seabreeze: 24 Sep 2026." in printed
    assert "24 Sep 2026 · note_seabreeze_20260924.txt · Divya" in printed
    after = await ingested.app.services.memory.list_documents(ingested.bank, tags=["type:hearing"])
    assert {d.document_id for d in after} <= ingested.expected.document_ids


async def test_timeline_picture_plots_every_hearing_of_the_case(ingested: Ingested) -> None:
    import json

    from PIL import Image

    from bot.services.charts import HEARING_COLOUR
    from handlers.legal.timeline import timeline_chart
    from tests.charts.pixels import colour_blobs

    case = ingested.register.get("seabreeze")
    assert case is not None
    chart = await timeline_chart(ingested.app.services, ingested.bank, case, "Seabreeze",
                                 ingested.app.services.settings.state_dir / "charts")
    assert chart is not None
    hearings = sorted(d.event_date for d in ingested.after_first
                      if d.metadata["case_id"] == "seabreeze" and d.metadata.get("kind") == "hearing")
    assert chart.plotted == len(hearings) > 3
    assert colour_blobs(chart.path, HEARING_COLOUR) == len(hearings)
    facts = json.loads(Image.open(chart.path).info["Description"])
    assert [h["date"] for h in facts["hearings"]] == [d.isoformat() for d in hearings]
    assert "2026-10-15" in facts["next_dates"]
