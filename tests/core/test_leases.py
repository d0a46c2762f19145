"""Leases, not ages: two workers on one store while a memory write takes longer than the old 2-minute age
(scaled down: a 1 s lease renewed while the work runs, a 3 s write, an "old age" of 2 s). The item is processed
once; the old rule (an item `processing` for longer than the age is abandoned) would have run it twice."""

import asyncio
from datetime import date, datetime, time, timedelta, timezone
from pathlib import Path

import pytest

from bot.core.app import App
from bot.core.conversation import Conversation
from bot.core.intake import IntakeItem
from bot.core.messages import Incoming, Reply
from bot.core.worker import IntakeWorker
from bot.core.pack import Turn
from memory import MemoryItem, RecallRequest
from memory.asof import IST
from tests.conftest import make_settings
from tests.core.notes_pack import NotesPack, registry_in_tenant
from tests.fakes.proxy import SwitchableProxy

pytestmark = pytest.mark.hindsight
TENANT = "core-leases"
LEASE = timedelta(seconds=1)
OLD_AGE = timedelta(seconds=2)
WRITE_S = 3.0


class WritingPack(NotesPack):
    """Retains each note at once (the slow memory write) and counts how often it ran."""

    def __init__(self, services: object, runs: list[str]) -> None:
        super().__init__(services)  # type: ignore[arg-type]
        self.runs = runs

    async def on_text(self, turn: Turn, body: str) -> list[Reply]:
        self.runs.append(body)
        _, day, words = body.split(" ", 2)
        item = MemoryItem(content=f"Note of {day}: {words}", context="note",
                          event_time=datetime.combine(date.fromisoformat(day), time(10, 30), IST),
                          document_id=f"note:{turn.user.user_id}:{day}:run{len(self.runs)}", tags=["kind:note"])
        await turn.services.memory.retain(turn.bank_id, [item])
        return [Reply(text=f"kept: {words}")]


async def worker_app(settings: object, runs: list[str]) -> App:
    app = await App.start(settings, pack_names=[], registry=registry_in_tenant(TENANT))  # type: ignore[arg-type]
    app.packs = {"agri": WritingPack(app.services, runs)}
    app.conversation = Conversation(app.services, app.packs)
    app.services.intake.lease = LEASE
    return app


def old_rule_due(item: IntakeItem, now: datetime) -> bool:
    """What `IntakeStore.due(stale_after=2 min)` used to decide, at the test's scale."""
    return item.state in ("received", "processing") and item.updated_at <= now - OLD_AGE


async def test_two_workers_and_a_write_slower_than_the_old_age_process_it_once(
        tmp_path: Path, hindsight_url: str, bank_prefix: str) -> None:
    host, port = hindsight_url.removeprefix("http://").split(":")
    proxy = SwitchableProxy(host, int(port))
    await proxy.up()
    settings = make_settings(tmp_path, proxy.url, bank_prefix)
    runs: list[str] = []
    first, second = await worker_app(settings, runs), await worker_app(settings, runs)
    try:
        await first.ensure_banks(TENANT)
        proxy.delay_s = WRITE_S
        note = Incoming(transport="telegram", sender="1001", delivery_id="slow-1",
                        text="note 2026-06-03 whitefly on the chilli nursery")
        answering = asyncio.create_task(first.conversation.answer(note))
        await asyncio.sleep(OLD_AGE.total_seconds() + 0.4)
        [item] = second.services.intake.listing(("processing",))
        now = datetime.now(timezone.utc)
        assert old_rule_due(item, now), "the old age rule would have taken it over"
        assert item.lease_until is not None and item.lease_until > now  # renewed while the write runs
        assert item.owner == first.services.intake.owner != second.services.intake.owner
        assert (await IntakeWorker(second.conversation).run_once()).processed == 0
        assert second.services.intake.get(item.intake_id).owner == first.services.intake.owner  # type: ignore[union-attr]
        answer = await answering
        assert [r.text for r in answer.replies] == ["kept: whitefly on the chilli nursery"]
        proxy.delay_s = 0
        report = await IntakeWorker(second.conversation).run_once(datetime.now(timezone.utc) + timedelta(hours=1))
        assert report.processed == 0 and runs == [note.text]
        found = await first.services.memory.recall(first.services.bank_of(TENANT, "agri"),
                                                   RecallRequest(query="whitefly chilli nursery", tags=["kind:note"]))
        assert [m.document_id for m in found] == ["note:srinivas:2026-06-03:run1"]
    finally:
        await first.aclose()
        await second.aclose()
        await proxy.down()


async def test_a_save_in_flight_in_a_live_process_is_not_retained_again(
        tmp_path: Path, hindsight_url: str, bank_prefix: str) -> None:
    from bot.store.leases import Leases, ProcessOwner
    from bot.core.cards import resume_saving, save_lease
    from tests.store.test_stores import _dead_owner

    app = await worker_app(make_settings(tmp_path, hindsight_url, bank_prefix), [])
    app.packs = {"agri": NotesPack(app.services)}
    app.conversation = Conversation(app.services, app.packs)
    try:
        [card] = await app.conversation.handle(Incoming(transport="telegram", sender="1001", delivery_id="c-1",
                                                        text="note 2026-06-04 thrips under the onion leaves"))
        assert card.card_id and app.services.state.move_card(card.card_id, "open", "saving")
        live = Leases(app.services.database, ProcessOwner.here())  # another worker of a live process
        assert live.acquire(save_lease(card.card_id))
        assert await resume_saving(app.services, app.packs) == 0
        assert app.services.state.card(card.card_id).status == "saving"  # type: ignore[union-attr]
        dead = Leases(app.services.database, _dead_owner())
        live.release(save_lease(card.card_id))
        assert dead.acquire(save_lease(card.card_id))  # its holder then died mid-save
        assert await resume_saving(app.services, app.packs) == 1
        assert app.services.state.card(card.card_id).status == "saved"  # type: ignore[union-attr]
        assert await resume_saving(app.services, app.packs) == 0
    finally:
        await app.aclose()
