"""Kept notes come back: a voice note sent while no speech engine was set up waits in the intake store with its
sending time, shows in `smriti queue list` and /pending, and once an engine is there the worker transcribes it
and the officer gets the card, dated by the day the note was SENT, exactly once."""

import argparse
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.core.app import App
from bot.services.i18n import show_date
from bot.core.messages import Incoming
from bot.cli.queue import _run as queue_command
from bot.core.registry import Registry
from bot.services.speech import LocalWhisper
from bot.core.worker import IntakeWorker
from memory.asof import IST
from tests.agri.conftest import RecordingNotifier, agri_users
from tests.conftest import make_settings
from tests.speech.conftest import voice

pytestmark = pytest.mark.hindsight


async def test_note_kept_without_an_engine_is_carded_once_an_engine_is_there_dated_when_sent(
        tmp_path: Path, hindsight_url: str, bank_prefix: str, cotton_note: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    sent_at = datetime.now(UTC) - timedelta(days=3, hours=2)
    note = Incoming(transport="console", sender="ravi", delivery_id="kept-note-1", media=voice(cotton_note),
                    received_at=sent_at)

    without = await App.start(make_settings(tmp_path, hindsight_url, bank_prefix, speech="groq"),
                              registry=Registry(agri_users()), pack_names=["agri"])
    try:
        assert without.services.speech is None
        [kept] = await without.conversation.handle(note)
        assert "kept" in kept.text and show_date("en", sent_at.astimezone(IST).date()) in kept.text
        idle = await IntakeWorker(without.conversation).run_once(datetime.now(UTC) + timedelta(days=1))
        assert idle.processed == 0  # no engine: nothing is retried on a timer, nothing is given up
        await queue_command(without, argparse.Namespace(action="list", all=False, intake_id=None))
        listed = capsys.readouterr().out
        assert "held" in listed and "voice" in listed and "ravi" in listed and "when an engine is set up" in listed
    finally:
        await without.aclose()

    # The same machine, restarted with local speech (the default without a key).
    app = await App.start(make_settings(tmp_path, hindsight_url, bank_prefix),
                          registry=Registry(agri_users()), pack_names=["agri"])
    notifier = RecordingNotifier()
    app.services.outbound.register("console", notifier)
    try:
        assert isinstance(app.services.speech, LocalWhisper)
        [pending] = await app.conversation.handle(Incoming(transport="console", sender="ravi",
                                                           delivery_id="ask-pending", text="/pending"))
        assert pending.text.startswith("1 of your messages") and "waiting for speech-to-text" in pending.text
        worker = IntakeWorker(app.conversation)
        first = await worker.run_once()
        assert first.released_voice == 1 and first.processed == 1 and first.delivered == 1
        [(user_id, [card], _)] = notifier.sent
        assert user_id == "ravi"
        assert "Your voice note from" in card.text and "Krishna Reddy (F010)" in card.text
        assert f"Date: {show_date('en', sent_at.astimezone(IST).date())}" in card.text
        item = app.services.intake.by_delivery("console", "kept-note-1")
        assert item is not None and item.state == "done" and item.received_at == sent_at

        again = await worker.run_once(datetime.now(UTC) + timedelta(days=1))
        assert again.processed == 0 and again.released_voice == 0 and len(notifier.sent) == 1
        assert await app.conversation.handle(note) == []  # the same delivery again is a duplicate
        assert len(notifier.sent) == 1
        [none] = await app.conversation.handle(Incoming(transport="console", sender="ravi",
                                                        delivery_id="ask-pending-2", text="/pending"))
        assert none.text.startswith("Nothing is waiting")
    finally:
        await app.aclose()


@asynccontextmanager
async def _broken_engine(tmp_path: Path, hindsight_url: str, bank_prefix: str
                         ) -> AsyncIterator[tuple[App, RecordingNotifier]]:
    """An App whose speech model is missing, with a notifier recording what it sends unprompted."""
    broken = make_settings(tmp_path, hindsight_url, bank_prefix, whisper_model=str(tmp_path / "no-such-model"))
    app = await App.start(broken, registry=Registry(agri_users()), pack_names=["agri"])
    notifier = RecordingNotifier()
    app.services.outbound.register("console", notifier)
    try:
        yield app, notifier
    finally:
        await app.aclose()


async def test_engine_failure_holds_the_note_on_a_timer_until_it_transcribes(
        tmp_path: Path, hindsight_url: str, bank_prefix: str, cotton_note: Path) -> None:
    async with _broken_engine(tmp_path, hindsight_url, bank_prefix) as (app, notifier):
        [kept] = await app.conversation.handle(Incoming(transport="console", sender="ravi", delivery_id="n2",
                                                        media=voice(cotton_note)))
        assert "failed just now" in kept.text and "try again in about" in kept.text
        [held] = app.services.intake.unprocessed_for("ravi")
        assert held.state == "held" and held.next_attempt_at is not None
        assert "no-such-model" in (held.last_error or "")
        # The model turns up (an administrator put it there); the next due pass transcribes the note.
        app.services.speech._model_for = lambda language: "packaged"  # type: ignore[union-attr]
        report = await IntakeWorker(app.conversation).run_once(held.next_attempt_at + timedelta(seconds=1))
        assert report.processed == 1
        [(_, [card], _)] = notifier.sent
        assert "Krishna Reddy (F010)" in card.text
        assert app.services.intake.get(held.intake_id).state == "done"


async def test_a_held_note_tells_the_officer_once_not_on_every_retry(
        tmp_path: Path, hindsight_url: str, bank_prefix: str, cotton_note: Path) -> None:
    async with _broken_engine(tmp_path, hindsight_url, bank_prefix) as (app, notifier):
        [kept] = await app.conversation.handle(Incoming(transport="console", sender="ravi", delivery_id="n3",
                                                        media=voice(cotton_note)))
        assert "try again in about" in kept.text
        worker = IntakeWorker(app.conversation)
        for _ in range(3):  # the engine still fails: retried, and nothing more is said
            [held] = app.services.intake.unprocessed_for("ravi")
            await worker.run_once(held.next_attempt_at + timedelta(seconds=1))
        [held] = app.services.intake.unprocessed_for("ravi")
        assert held.attempts >= 3 and held.state == "held"
        assert notifier.sent == []
        app.services.speech._model_for = lambda language: "packaged"  # type: ignore[union-attr]
        await worker.run_once(held.next_attempt_at + timedelta(seconds=1))
        [(_, [card], _)] = notifier.sent  # processed: the card, once
        assert "Krishna Reddy (F010)" in card.text
