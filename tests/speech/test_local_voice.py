"""Voice notes with no key: the packaged Whisper tiny.en (faster-whisper, on this machine, offline) transcribes
real OGG/Opus notes into visit cards over the console and the Telegram fake, off the event loop, so another
officer is answered while a note is transcribed."""

import asyncio
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.core.app import App
from bot.transports.console.session import ConsoleSession
from bot.core.registry import Registry
from bot.services.speech import LocalWhisper
from bot.transports.telegram.app import TelegramTransport
from tests.agri.conftest import agri_users, say
from tests.conftest import make_settings
from tests.fakes.telegram import TOKEN, FakeTelegram
from tests.speech.conftest import voice
from tests.transports.walks import walk_registry, walk_tenant

pytestmark = pytest.mark.hindsight

SRINIVAS = 1001


@pytest.fixture
async def keyless(tmp_path: Path, hindsight_url: str, bank_prefix: str) -> AsyncIterator[App]:
    app = await App.start(make_settings(tmp_path, hindsight_url, bank_prefix),
                          registry=Registry(agri_users()), pack_names=["agri"])
    yield app
    await app.aclose()


async def test_keyless_console_voice_note_becomes_a_visit_card(keyless: App, cotton_note: Path) -> None:
    assert isinstance(keyless.services.speech, LocalWhisper)  # no key: local speech is the default
    session = ConsoleSession(keyless.conversation, "ravi")
    [card] = await session.send(f"/voice {cotton_note}")
    assert card.text.startswith('I heard: "')
    assert "Farmer: Krishna Reddy (F010)" in card.text
    assert "Crop: cotton" in card.text
    assert "Products: Proclaim (P007): accepted" in card.text
    assert [b.label for b in card.flat_buttons()] == ["Save", "Edit", "Discard"]


async def test_another_officer_is_answered_while_a_note_is_transcribed(
        keyless: App, cotton_note: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = keyless.services.speech
    assert isinstance(engine, LocalWhisper)
    started, release = threading.Event(), threading.Event()
    real = engine.transcribe_file

    def held_transcription(path: Path, language: str | None, prompt: str | None) -> str:
        started.set()
        release.wait(timeout=30)  # a transcription on the event loop would stall the text below until this
        return real(path, language, prompt)

    monkeypatch.setattr(engine, "transcribe_file", held_transcription)
    await keyless.conversation.handle(say("sita", "/pending"))  # sita's bank is ready before the race
    note = asyncio.create_task(keyless.conversation.handle(say("ravi", media=voice(cotton_note))))
    assert await asyncio.to_thread(started.wait, 30)
    [answer] = await asyncio.wait_for(keyless.conversation.handle(say("sita", "/farmers")), timeout=20)
    assert not note.done() and answer.text  # sita was answered while ravi's note was still being transcribed
    release.set()
    [card] = await note
    assert "Krishna Reddy (F010)" in card.text


async def test_keyless_telegram_voice_note_becomes_a_visit_card(
        tmp_path: Path, hindsight_url: str, bank_prefix: str, tomato_note: Path) -> None:
    fake, tenant = FakeTelegram(), walk_tenant()
    settings = make_settings(tmp_path, hindsight_url, bank_prefix, default_tenant=tenant,
                             telegram_bot_token=SecretStr(TOKEN), telegram_base_url=fake.url)
    app = await App.start(settings, registry=walk_registry(tenant), pack_names=["agri"])
    transport = TelegramTransport(app.conversation, poll_timeout_s=1.0)
    await transport.start_polling()
    try:
        fake.send_voice(SRINIVAS, tomato_note.read_bytes())
        await fake.wait_for("sendMessage", 1, timeout=60)
        [card] = [c.params["text"] for c in fake.sent("sendMessage") if c.params["chat_id"] == SRINIVAS]
        assert "Farmer: Padma (F009)" in card
        assert "Crop: tomato" in card
        assert "Products: Confidor (P005): accepted" in card
        assert fake.buttons(fake.last_message_with_buttons(SRINIVAS)).keys() == {"Save", "Edit", "Discard"}
    finally:
        await transport.stop()
        await app.aclose()
        fake.close()
