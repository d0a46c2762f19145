"""Permanent vs transient: a bug fails the item at once with a reference the person and the operator share;
a service outage keeps it for a retry and says so."""

import argparse
import logging
import re
import uuid
from collections.abc import AsyncIterator

import httpx
import pytest

from bot.cli import queue as queue_cli
from bot.core.app import App
from bot.core.conversation import Conversation
from bot.core.errors import (
    ChatUnavailable,
    SpeechUnavailable,
    VisionUnavailable,
    is_transient,
)
from bot.services.i18n import text
from bot.core.messages import Incoming, Reply
from bot.settings import Settings
from bot.core.pack import Turn
from memory import MemoryRejected, MemoryUnavailable
from tests.core.notes_pack import NotesPack, registry_in_tenant

pytestmark = pytest.mark.hindsight
TENANT = "core-failures"


class FailingPack(NotesPack):
    """Raises whatever the test puts in `failure` when a text arrives."""

    failure: BaseException | None = None

    async def on_text(self, turn: Turn, body: str) -> list[Reply]:
        if self.failure is not None:
            raise self.failure
        return await super().on_text(turn, body)


@pytest.fixture
async def failing_app(settings: Settings) -> AsyncIterator[tuple[App, FailingPack]]:
    app = await App.start(settings, pack_names=[], registry=registry_in_tenant(TENANT))
    pack = FailingPack(app.services)
    app.packs = {"agri": pack}
    app.conversation = Conversation(app.services, app.packs)
    yield app, pack
    await app.aclose()


def say(body: str) -> Incoming:
    return Incoming(transport="telegram", sender="1001", delivery_id=uuid.uuid4().hex, text=body)


def test_the_tree_sorts_outages_from_bugs() -> None:
    for outage in (ChatUnavailable("x"), SpeechUnavailable("x"), VisionUnavailable("x"), MemoryUnavailable("x"),
                   TimeoutError(), ConnectionRefusedError(), httpx.ReadTimeout("x"), httpx.ConnectError("x")):
        assert is_transient(outage), outage
    for bug in (KeyError("x"), ValueError("x"), MemoryRejected("x"), AssertionError(), ZeroDivisionError()):
        assert not is_transient(bug), bug
    assert not issubclass(SpeechUnavailable, ChatUnavailable) and not issubclass(VisionUnavailable, ChatUnavailable)


async def test_a_bug_fails_the_item_at_once_with_a_reference(
        failing_app: tuple[App, FailingPack], caplog: pytest.LogCaptureFixture,
        capsys: pytest.CaptureFixture[str]) -> None:
    app, pack = failing_app
    pack.failure = KeyError("farmer_id")
    with caplog.at_level(logging.ERROR, logger="bot.core.conversation"):
        [reply] = await app.conversation.handle(say("note 2026-04-08 a note that meets a bug"))
    found = re.search(r"reference ([0-9A-F]{6})", reply.text)
    assert found is not None, reply.text
    reference = found.group(1)
    assert reply.text == text("en", "core.failed_with_reference", reference=reference)
    assert "kept" not in reply.text.lower()
    [item] = app.services.intake.listing()
    assert item.state == "failed" and item.attempts == 1 and item.next_attempt_at is None
    assert item.last_error == f"[ref {reference}] KeyError: 'farmer_id'"
    [record] = [r for r in caplog.records if reference in r.getMessage()]
    assert record.levelno == logging.ERROR and record.exc_info is not None

    await queue_cli._run(app, argparse.Namespace(action="list", all=False, intake_id=None))
    listed = capsys.readouterr().out
    assert item.intake_id in listed and f"[ref {reference}] KeyError" in listed

    pack.failure = None  # fixed: the operator retries it, and it goes through
    await queue_cli._run(app, argparse.Namespace(action="retry", all=False, intake_id=item.intake_id))
    retried = app.services.intake.get(item.intake_id)
    # Processed; no transport runs in the CLI, so its reply waits in the outbox for the bot to send it.
    assert retried is not None and retried.state == "answered"
    [waiting] = app.services.replies.outbox.rows(f"intake:{item.intake_id}")
    assert waiting.state == "pending" and waiting.attempts == 0
    await queue_cli._run(app, argparse.Namespace(action="list", all=False, intake_id=None))
    assert f"reply pending  intake:{item.intake_id}#0" in capsys.readouterr().out


@pytest.mark.parametrize("outage", [ChatUnavailable("Groq chat answered 503"),
                                    MemoryUnavailable("Hindsight unreachable: ClientConnectorError")])
async def test_an_outage_keeps_the_item_for_a_retry(failing_app: tuple[App, FailingPack],
                                                    outage: Exception) -> None:
    app, pack = failing_app
    pack.failure = outage
    [reply] = await app.conversation.handle(say("note 2026-04-08 a note during an outage"))
    assert reply.text == text("en", "core.kept_for_retry")
    [item] = app.services.intake.listing()
    assert item.state == "waiting" and item.attempts == 1 and type(outage).__name__ in (item.last_error or "")
