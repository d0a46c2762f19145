"""A data directory of the old layout is moved into the one database on first start: open cards, pending
edits, queued deliveries and intake items, outbox entries, follow-ups (scheduled again) and the audit trail
survive, and the old files are renamed, never deleted."""

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from bot.core.app import App
from bot.store import Database
from tests.conftest import make_settings
from tests.databases import empty_tables
from tests.store.old_layout import build_old_layout

pytestmark = pytest.mark.hindsight

OLD_FILES = ["access.sqlite", "ap_audit.sqlite", "conversation.sqlite", "followup-jobs.sqlite", "followups.sqlite",
             "intake.sqlite", "outbox.sqlite"]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_first_start_moves_the_old_files_into_the_database(
        backend: str, tmp_path: Path, hindsight_url: str, bank_prefix: str, request: pytest.FixtureRequest) -> None:
    due = (datetime.now(timezone.utc) + timedelta(days=20)).replace(microsecond=0)
    build_old_layout(tmp_path / "state", due.isoformat())
    overrides = {}
    if backend == "postgresql":
        overrides["database_url_override"] = request.getfixturevalue("postgres_url")
        database = Database(overrides["database_url_override"])
        empty_tables(database)
        database.dispose()
    settings = make_settings(tmp_path, hindsight_url, bank_prefix, **overrides)
    app = await App.start(settings, start_local_memory=False, pack_names=["agri", "ap"])
    try:
        services = app.services
        [card] = services.state.open_cards("srinivas")
        assert card.card_id == "c0ffee0001" and card.payload["crop"] == "మిరప" and card.status == "open"
        assert services.state.awaiting_edit("srinivas").field == "crop"  # type: ignore[union-attr]
        assert services.state.pref("srinivas", "lang") == "te"
        assert services.state.pref("srinivas", "agri.awaiting_outcome") == "agri-V42"
        assert services.state.card_message("telegram:1001", "c0ffee0001") == 555
        assert [k for k, _ in services.state.inbox_pending("whatsapp")] == ["SM77"]
        assert services.state.inbox_pending("telegram") == []
        [item] = services.intake.listing(("waiting",))
        assert item.incoming.delivery_id == "update-9001" and item.attempts == 2
        assert services.intake.by_delivery("telegram", "update-9001").intake_id == item.intake_id  # type: ignore[union-attr]
        [queued] = services.outbox.pending()
        assert queued.item.document_id == "pay:V9:1" and queued.attempts == 1
        assert services.scheduler.get("agri-V42").due_at == due  # type: ignore[union-attr]
        assert services.scheduler.job_ids() == ["agri-V42"]  # scheduled again, in the new job store
        assert services.scheduler.get("agri-V41").status == "asked"  # type: ignore[union-attr]
        audit = app.packs["ap"].audit  # type: ignore[attr-defined]
        assert [e.action for e in audit.entries(run_id="run-1")] == ["INVOICE_RECEIVED", "DECISION_MADE"]
        assert audit.claim_clerk_action("run-1", "release", "asha")
        audit.record("run-1", "t-ap-demo", "CLERK_ACTION", choice="release")  # numbered after the old entries
        assert [e.seq for e in audit.entries(run_id="run-1")] == [1, 2, 3]
    finally:
        await app.aclose()
    assert sorted(p.name for p in (tmp_path / "state").glob("*.sqlite.migrated")) == [f"{n}.migrated" for n in OLD_FILES]
    assert not list((tmp_path / "state").glob("*.sqlite"))
    again = await App.start(settings, start_local_memory=False, pack_names=["agri", "ap"])  # nothing moved twice
    try:
        assert len(again.services.state.open_cards()) == 1 and len(again.services.outbox.pending()) == 1
    finally:
        await again.aclose()
