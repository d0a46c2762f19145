"""Nothing is lost: a process killed mid-way, Groq failing, Hindsight stopping mid-run. After recovery every
item is processed and retained exactly once, with its real event date."""

import signal
import subprocess
import sys
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.core.app import App
from bot.core.conversation import Conversation
from bot.services.i18n import text
from bot.core.messages import Incoming, Reply
from bot.core.registry import User
from bot.settings import Settings
from bot.core.worker import IntakeWorker
from memory import MemoryClient, MemoryUnavailable, RecallRequest
from tests.conftest import make_settings
from tests.core.notes_pack import NotesPack, registry_in_tenant
from tests.fakes.groq import FakeGroq
from tests.fakes.proxy import SwitchableProxy

pytestmark = pytest.mark.hindsight
ROOT = Path(__file__).resolve().parents[2]
TENANT = "core-faults"


class RecordingNotifier:
    def __init__(self) -> None:
        self.sent: list[tuple[str, list[Reply]]] = []

    async def notify(self, user: User, replies: list[Reply], purpose: str) -> bool:
        self.sent.append((user.user_id, replies))
        return True


async def notes_app(settings: Settings) -> tuple[App, RecordingNotifier]:
    app = await App.start(settings, pack_names=[], registry=registry_in_tenant(TENANT))
    app.packs = {"agri": NotesPack(app.services)}
    app.conversation = Conversation(app.services, app.packs)
    notifier = RecordingNotifier()
    app.services.outbound.register("telegram", notifier)
    return app, notifier


def telegram(delivery: str, body: str | None = None, callback: str | None = None) -> Incoming:
    return Incoming(transport="telegram", sender="1001", delivery_id=delivery, text=body, callback=callback)


def run_and_get_killed(tmp_path: Path, hindsight_url: str, bank_prefix: str, mode: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "tests.core.crash_script", str(tmp_path), hindsight_url, bank_prefix, mode, TENANT],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == -signal.SIGKILL, result.stderr[-2000:]
    return result.stdout


async def notes_about(memory: MemoryClient, bank: str, query: str) -> list[tuple[str | None, date | None]]:
    found = await memory.recall(bank, RecallRequest(query=query, tags=["kind:note"]))
    return sorted((m.document_id, m.event_date) for m in found)


async def test_killed_between_receipt_and_processing(tmp_path: Path, hindsight_url: str, bank_prefix: str) -> None:
    run_and_get_killed(tmp_path, hindsight_url, bank_prefix, "before-processing")
    app, notifier = await notes_app(make_settings(tmp_path, hindsight_url, bank_prefix))
    try:
        [item] = app.services.intake.listing(("received",))
        assert item.incoming.delivery_id == "update-77"
        # Telegram redelivers the same update after the restart: still one item.
        assert await app.conversation.handle(telegram("update-77", "note 2026-04-18 blight at 40 percent")) == []
        # Its owner is a dead process of this host: taken at once (no waiting for a lease or an age), and the
        # person is told their earlier message is handled now.
        report = await IntakeWorker(app.conversation).run_once()
        assert report.processed == 1 and report.delivered == 2
        [(user_id, [told]), (_, [card])] = notifier.sent
        assert told.text.startswith("Your message sent") and "handling it now" in told.text
        assert user_id == "srinivas" and "2026-04-18" in card.text
        await app.conversation.handle(telegram("update-80", callback=card.flat_buttons()[0].data))
        bank = app.services.bank_of(TENANT, "agri")
        assert await notes_about(app.services.memory, bank, "blight 40 percent") == [
            ("note:srinivas:2026-04-18", date(2026, 4, 18))]
        assert app.services.intake.get(item.intake_id).state == "done"
    finally:
        await app.aclose()


async def test_killed_inside_a_save_is_finished_once(tmp_path: Path, hindsight_url: str, bank_prefix: str) -> None:
    run_and_get_killed(tmp_path, hindsight_url, bank_prefix, "save")
    app, _ = await notes_app(make_settings(tmp_path, hindsight_url, bank_prefix))
    try:
        [card] = app.services.state.open_cards("srinivas")
        assert card.status == "saving"
        worker = IntakeWorker(app.conversation)
        assert (await worker.run_once()).resumed_cards == 1
        assert (await worker.run_once()).resumed_cards == 0
        bank = app.services.bank_of(TENANT, "agri")
        assert await notes_about(app.services.memory, bank, "accepted copper fungicide") == [
            ("note:srinivas:2026-04-21", date(2026, 4, 21))]
        assert app.services.state.card(card.card_id).status == "saved"
    finally:
        await app.aclose()


async def test_hindsight_stopped_mid_run_then_back(tmp_path: Path, hindsight_url: str, bank_prefix: str,
                                                   memory: MemoryClient) -> None:
    host, port = hindsight_url.removeprefix("http://").split(":")
    proxy = SwitchableProxy(host, int(port))
    await proxy.up()
    app, _ = await notes_app(make_settings(tmp_path, proxy.url, bank_prefix))
    try:
        [card] = await app.conversation.handle(telegram("u1", "note 2026-05-02 controlled after two sprays"))
        await proxy.down()
        [saved] = await app.conversation.handle(telegram("u2", callback=card.flat_buttons()[0].data))
        assert text("en", "core.card_saved_offline") in saved.text
        with pytest.raises(MemoryUnavailable):
            await app.services.memory.recall(app.services.bank_of(TENANT, "agri"), RecallRequest(query="sprays"))
        worker = IntakeWorker(app.conversation)
        assert (await worker.run_once()).still_queued == 1
        await proxy.up()
        report = await worker.run_once()
        assert report.flushed == 1 and report.still_queued == 0
        assert await notes_about(memory, app.services.bank_of(TENANT, "agri"), "two sprays") == [
            ("note:srinivas:2026-05-02", date(2026, 5, 2))]
    finally:
        await app.aclose()
        await proxy.down()


async def test_groq_failing_keeps_the_item_and_the_retry_answers(
    tmp_path: Path, hindsight_url: str, bank_prefix: str, fake_groq: FakeGroq
) -> None:
    settings = make_settings(tmp_path, hindsight_url, bank_prefix, groq_api_key=SecretStr("k"),
                             groq_base_url=fake_groq.url, groq_timeout_s=5.0)
    app, notifier = await notes_app(settings)
    try:
        fake_groq.chat_script.extend([500, 500, 503, 503])  # both models, with the SDK's one retry each
        [kept] = await app.conversation.handle(telegram("g1", "/think what is blight?"))
        assert kept.text == text("en", "core.kept_for_retry")
        [item] = app.services.intake.listing(("waiting",))
        assert item.attempts == 1 and "Groq answered" in (item.last_error or "")
        fake_groq.chat_script.append("Blight is a fungal disease.")
        worker = IntakeWorker(app.conversation)
        assert (await worker.run_once()).processed == 0  # not due yet: backoff
        report = await worker.run_once(datetime.now(timezone.utc) + timedelta(minutes=1))
        assert report.processed == 1
        assert notifier.sent[-1][1][0].text == "model says: Blight is a fungal disease."
        assert app.services.intake.get(item.intake_id).state == "done"
    finally:
        await app.aclose()


@pytest.mark.parametrize("mode", ["mid-processing", "before-send", "mid-send"])
async def test_killed_while_answering_a_note_yields_one_memory_and_the_reply(
        tmp_path: Path, hindsight_url: str, bank_prefix: str, mode: str) -> None:
    from tests.core.crash_script import NOTES

    run_and_get_killed(tmp_path, hindsight_url, bank_prefix, mode)
    shown_before = [Reply.model_validate_json(line) for line in
                    (tmp_path / "sent.txt").read_text().splitlines()] if (tmp_path / "sent.txt").exists() else []
    assert len(shown_before) == (1 if mode == "mid-send" else 0)
    app, notifier = await notes_app(make_settings(tmp_path, hindsight_url, bank_prefix))
    try:
        worker = IntakeWorker(app.conversation)
        await worker.run_once()  # at start-up: nothing waits for a lease or an age
        assert (await worker.run_once(datetime.now(timezone.utc) + timedelta(hours=1))).delivered == 0
        shown_after = [reply for _, replies in notifier.sent for reply in replies]
        cards = [r for r in shown_before + shown_after if r.card_id]
        day = NOTES[mode].split()[1]
        assert {c.card_id for c in cards} and all(day in c.text for c in cards)
        # The reply reaches the person, at most once more than once.
        assert len(cards) == (2 if mode == "mid-send" else 1)
        told = [r for r in shown_after if "handling it now" in r.text]
        assert len(told) == (1 if mode == "mid-processing" else 0)
        [item] = app.services.intake.listing()
        assert item.state == "done" and item.incoming.delivery_id == f"update-{mode}"
        await app.conversation.handle(telegram(f"save-{mode}", callback=cards[-1].flat_buttons()[0].data))
        bank = app.services.bank_of(TENANT, "agri")
        assert await notes_about(app.services.memory, bank, " ".join(NOTES[mode].split()[2:])) == [
            (f"note:srinivas:{day}", date.fromisoformat(day))]
    finally:
        await app.aclose()
