"""A company's past visit log imported as saved visits: a dry run that writes nothing and shows the memories it
would write; Apply writes records and queues their memories, dated by the visit dates; `/brief` cites them
with their own dates, insights count them; importing the log twice changes nothing; rows that cannot be a
visit are refused in words a clerk reads. The log is written here for the test (office style: day-first
dates, officer names, farmer names as written, mixed reactions)."""

import csv
from datetime import date, timedelta
from pathlib import Path

import pytest

from bot.core.app import App
from bot.core.messages import Media
from bot.core.registry import Registry, User
from bot.services.registers.importer import import_file
from bot.settings import Settings
from handlers.agri.pack import AgriPack
from handlers.agri.registers import KINDS
from tests.agri.conftest import CAPTURE_TENANT, agri_users, say

pytestmark = pytest.mark.hindsight

# (farmer as the office writes him, crop, problem, products, reaction): 10 rows, each used five times.
ROWS = [
    ("Raju Yadav", "Cotton", "pink bollworm", "Proclaim", "accepted"),
    ("F013", "cotton", "sucking pests", "Ulala, Neem oil", "too costly, refused"),
    ("Laxmamma", "cotton", "pink bollworm", "PBW pheromone trap", "bought"),
    ("Chandraiah", "Cotton", "zinc deficiency", "Zinc sulphate", "will think"),
    ("Janardhan", "paddy", "blast", "Beam", "accepted"),
    ("Srisailam", "cotton", "sucking pests", "Confidor", "rejected - doubts it works"),
    ("Ravinder", "maize", "fall armyworm", "Delegate", "accepted"),
    ("Pochamma", "paddy", "stem borer", "Coragen", "accepted"),
    ("Raju Yadav", "cotton", "sucking pests", "Profex Super", "no money now"),
    ("Bhaskar Rao", "maize", "fall armyworm", "Coragen", "accepted"),
]
START = date(2026, 6, 2)


def _write_log(folder: Path) -> tuple[Path, list[tuple[date, str]]]:
    path = folder / "visit-log-kharif.csv"
    written: list[tuple[date, str]] = []
    with path.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(["Date", "Field Officer", "Farmer Name", "Crop", "Pest/Disease", "Products", "Reaction",
                      "Remarks"])
        for n in range(50):
            farmer, crop, problem, products, reaction = ROWS[n % len(ROWS)]
            day = START + timedelta(days=2 * n)
            out.writerow([f"{day.day:02d}-{day.month:02d}-{day.year}", "Srinivas Reddy", farmer, crop, problem,
                          products, reaction, f"round {n // len(ROWS) + 1}, plot near the canal"])
            written.append((day, farmer))
    return path, written


@pytest.fixture
async def admin_app(own_bank_settings: Settings) -> App:
    users = agri_users() + [User(user_id="meena", name="Meena", role="admin", pack="agri", tenant=CAPTURE_TENANT,
                                 lang="en", territories=["moinabad"])]
    app = await App.start(own_bank_settings, registry=Registry(users), pack_names=["agri"])
    yield app  # type: ignore[misc]
    await app.aclose()


async def test_fifty_logged_visits_become_records_and_memories_once(admin_app: App, tmp_path: Path) -> None:
    pack = admin_app.packs["agri"]
    assert isinstance(pack, AgriPack)
    services = admin_app.services
    path, written = _write_log(tmp_path)
    bank = services.bank_of(CAPTURE_TENANT, "agri")

    dry = import_file(services.database, KINDS, "visits", CAPTURE_TENANT, path, bank_prefix=services.settings.bank_prefix)
    assert (len(dry.added), len(dry.rejected), dry.memories_total) == (50, 0, 50), dry.render()
    assert "memories to write: 50" in dry.render() and "Field visit on 2026-06-02" in dry.render()
    assert pack.records.visits(CAPTURE_TENANT) == [] and services.outbox.pending(bank) == []

    applied = import_file(services.database, KINDS, "visits", CAPTURE_TENANT, path, apply=True,
                          bank_prefix=services.settings.bank_prefix)
    assert len(applied.added) == 50 and applied.applied
    saved = pack.records.visits(CAPTURE_TENANT)
    assert sorted((s.visit.date, s.visit.farmer_id) for s in saved)[0] == (START, "F011")
    assert {s.visit.date for s in saved} == {d for d, _ in written}
    assert all(f"-{s.visit.date:%Y%m%d}-" in s.document_id for s in saved)
    assert len(services.outbox.pending(bank)) == 50
    await services.outbox.flush(services.memory)
    documents = await services.memory.list_documents(bank, tags=["kind:visit"])
    assert len(documents) == 50 and {d.event_date for d in documents} == {d for d, _ in written}

    again = import_file(services.database, KINDS, "visits", CAPTURE_TENANT, path, apply=True,
                        bank_prefix=services.settings.bank_prefix)
    assert (len(again.added), len(again.updated), len(again.unchanged)) == (0, 0, 50)
    assert services.outbox.pending(bank) == [] and len(pack.records.visits(CAPTURE_TENANT)) == 50

    raju = [s.visit for s in saved if s.visit.farmer_id == "F011"]
    [brief] = await admin_app.conversation.handle(say("ravi", "/brief Raju Yadav"))
    latest = max(v.date for v in raju)
    assert f"{latest.day} {latest:%b %Y}" in brief.text
    farmer = pack.book_for(CAPTURE_TENANT).farmers["F011"]
    found = await pack.brief_for(CAPTURE_TENANT, farmer, date(2026, 12, 1), True, "en")
    cited = {c.source_date for c in found.claims if c.document_id and "F011" in c.document_id}
    assert cited == {v.date for v in raju}

    insights = await pack.insights_for(CAPTURE_TENANT, "moinabad", date(2026, 12, 1), "en", date(2026, 12, 1))
    moinabad = [s.visit for s in saved if s.visit.village == "moinabad"]
    assert sum(r.advised for r in insights.counts) == sum(len(v.products) for v in moinabad if v.issue)
    assert sum(r.accepted for r in insights.counts) == sum(
        1 for v in moinabad if v.issue for a in v.products if a.reaction == "accepted")
    refused = [s.visit for s in saved if s.visit.farmer_id == "F013" and s.visit.crop == "cotton"]
    assert all(a.reaction == "rejected" and a.objection == "price" for v in refused for a in v.products)


async def test_rows_that_cannot_be_visits_are_refused_in_plain_words(admin_app: App, tmp_path: Path) -> None:
    path = tmp_path / "log.csv"
    path.write_text("Date,Officer,Farmer,Crop,Problem,Products,Reaction,Notes\n"
                    "31-02-2026,Srinivas Reddy,Raju Yadav,cotton,,Proclaim,accepted,\n"
                    "03-07-2026,Srinivas Reddy,Somebody Unknown,cotton,,Proclaim,accepted,\n"
                    "04-07-2026,Nobody,Raju Yadav,cotton,,,,\n"
                    "05-07-2026,O01,Raju Yadav,cotton,whitefly,Proclaim,accepted,first\n"
                    "05-07-2026,O01,Raju Yadav,cotton,whitefly,Proclaim,accepted,first\n", encoding="utf-8")
    report = import_file(admin_app.services.database, KINDS, "visits", CAPTURE_TENANT, path)
    reasons = {r.row: r.reason for r in report.rejected}
    assert "no visit date" in reasons[2] and "not in the farmers register" in reasons[3]
    assert "officers register" in reasons[4] and "same visit as row 5" in reasons[6]
    assert len(report.added) == 1 and "Traceback" not in report.render()


async def test_chat_import_of_a_visit_log_shows_the_memories_then_applies(admin_app: App, tmp_path: Path) -> None:
    path, _ = _write_log(tmp_path)
    media = Media(kind="document", path=path, mime_type="text/csv", size_bytes=path.stat().st_size,
                  file_name=path.name)
    incoming = say("meena", "/import visits", media=media)
    [dry] = await admin_app.conversation.handle(incoming)
    assert "memories to write: 50" in dry.text
    apply = next(b.data for b in dry.flat_buttons() if b.data.startswith("imp:a:"))
    [done] = await admin_app.conversation.handle(say("meena", callback=apply))
    assert "add 50" in done.text and "memories queued" in done.text
    pack = admin_app.packs["agri"]
    assert isinstance(pack, AgriPack) and len(pack.records.visits(CAPTURE_TENANT)) == 50


async def test_an_objection_in_the_reaction_column_is_a_refusal_with_its_reason(admin_app: App) -> None:
    """Walk: a log's "price objection" was stored as "Accepted" (the objection dropped with it)."""
    from bot.services.registers.table import SourceRow
    from handlers.agri.visit_log import LogReader

    pack = admin_app.packs["agri"]
    assert isinstance(pack, AgriPack)
    reader = LogReader(pack.book_for(CAPTURE_TENANT))
    for written in ("price objection", "costly", "too costly, refused"):
        row = SourceRow(number=2, cells={"Date": "02-09-2026", "Officer": "Srinivas Reddy", "Farmer": "Raju Yadav",
                                         "Crop": "cotton", "Problem": "pink bollworm", "Products": "Proclaim",
                                         "Reaction": written, "Remarks": "felt it costly"})
        read = reader.read(row, "import")
        assert read.saved is not None, read.reason
        [advice] = read.saved.visit.products
        assert (advice.reaction, advice.objection) == ("rejected", "price"), written
