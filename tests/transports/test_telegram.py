"""The real PTB Application against a fake Bot API server, driving the conversation core with the echo pack."""

import asyncio
import socket
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

import httpx
import pytest
from pydantic import SecretStr

from bot.core.app import App
from bot.services.i18n import text
from bot.core.messages import Reply
from bot.store.reply_outbox import OutgoingReply
from bot.settings import Settings
from bot.transports.telegram.app import TelegramTransport
from memory import RecallRequest
from tests.conftest import make_settings
from tests.fakes.telegram import TOKEN, FakeTelegram
from tests.transports.conftest import use_echo_pack
from tests.transports.echo_pack import EchoPack

pytestmark = pytest.mark.hindsight

SRINIVAS, LAKSHMI, STRANGER = 1001, 1002, 5555
SECRET = "webhook-s3cret"


@dataclass
class Bot:
    app: App
    transport: TelegramTransport
    fake: FakeTelegram
    pack: EchoPack


@pytest.fixture
def fake_telegram() -> Iterator[FakeTelegram]:
    fake = FakeTelegram()
    yield fake
    fake.close()


def telegram_settings(tmp_path: Path, hindsight_url: str, bank_prefix: str, fake: FakeTelegram,
                      **overrides: object) -> Settings:
    return make_settings(tmp_path, hindsight_url, bank_prefix, telegram_bot_token=SecretStr(TOKEN),
                         telegram_base_url=fake.url, telegram_webhook_secret=SecretStr(SECRET), **overrides)


async def start_bot(settings: Settings, fake: FakeTelegram, png: Path) -> Bot:
    app = await App.start(settings, pack_names=[])
    pack = use_echo_pack(app, png)
    transport = TelegramTransport(app.conversation, poll_timeout_s=1.0)
    await transport.start_polling()
    return Bot(app, transport, fake, pack)


async def stop_bot(bot: Bot) -> None:
    await bot.transport.stop()
    await bot.app.aclose()


@pytest.fixture
async def bot(tmp_path: Path, hindsight_url: str, bank_prefix: str, fake_telegram: FakeTelegram,
              png_image: Path) -> AsyncIterator[Bot]:
    running = await start_bot(telegram_settings(tmp_path, hindsight_url, bank_prefix, fake_telegram),
                              fake_telegram, png_image)
    yield running
    await stop_bot(running)


def texts_to(fake: FakeTelegram, chat_id: int) -> list[str]:
    return [c.params["text"] for c in fake.sent("sendMessage") if c.params["chat_id"] == chat_id]


async def test_card_save_edits_the_card_in_place_and_retains(bot: Bot) -> None:
    fake = bot.fake
    fake.send_text(SRINIVAS, "note 2026-04-08 Ramesh rejected Amistar Top on price")
    [card] = await fake.wait_for("sendMessage")
    assert card.params["chat_id"] == SRINIVAS and "Ramesh rejected" in card.params["text"]
    card_id = fake.last_message_with_buttons(SRINIVAS)
    buttons = fake.buttons(card_id)
    assert list(buttons) == ["Save", "Edit", "Discard"] and buttons["Save"].startswith("c:s:")
    assert any(c.params["action"] == "typing" for c in fake.sent("sendChatAction"))

    fake.press(SRINIVAS, card_id, buttons["Save"])
    [edit] = await fake.wait_for("editMessageText")
    assert edit.params["message_id"] == card_id
    assert "Saved to memory" in edit.params["text"] and "reply_markup" not in edit.params
    assert len(fake.sent("answerCallbackQuery")) == 1
    assert fake.buttons(card_id) == {}

    found = await bot.app.services.memory.recall(bot.app.services.bank_of("demo", "agri"),
                                                 RecallRequest(query="Ramesh Amistar", tags=["kind:note"]))
    assert [m.document_id for m in found] == ["note:srinivas:2026-04-08"]

    fake.press(SRINIVAS, card_id, buttons["Save"])  # a late double-tap
    await fake.wait_for("answerCallbackQuery", 2)
    await fake.wait_for("sendMessage", 2)
    assert "already saved" in texts_to(fake, SRINIVAS)[-1]
    assert len(await bot.app.services.memory.recall(
        bot.app.services.bank_of("demo", "agri"), RecallRequest(query="Ramesh Amistar", tags=["kind:note"]))) == 1


async def test_edit_as_a_conversation_then_card_is_edited(bot: Bot) -> None:
    fake = bot.fake
    fake.send_text(SRINIVAS, "note 2026-05-01 first words")
    await fake.wait_for("sendMessage")
    card_id = fake.last_message_with_buttons(SRINIVAS)
    fake.press(SRINIVAS, card_id, fake.buttons(card_id)["Edit"])
    await fake.wait_for("sendMessage", 2)
    fields_id = fake.last_message_with_buttons(SRINIVAS)
    assert set(fake.buttons(fields_id)) == {"text", "date", "Back"}
    fake.press(SRINIVAS, fields_id, fake.buttons(fields_id)["date"])
    await fake.wait_for("sendMessage", 3)
    assert '"date"' in texts_to(fake, SRINIVAS)[-1]
    fake.send_text(SRINIVAS, "2026-05-02")
    [edit] = await fake.wait_for("editMessageText")
    assert edit.params["message_id"] == card_id and "2026-05-02" in edit.params["text"]
    assert set(fake.buttons(card_id)) == {"Save", "Edit", "Discard"}


async def test_stranger_is_refused_and_nothing_is_downloaded(bot: Bot, voice_ogg: bytes) -> None:
    fake = bot.fake
    fake.send_voice(STRANGER, voice_ogg)
    last = fake.send_text(STRANGER, "note 2026-04-08 secret")
    [refusal] = await fake.wait_for("sendMessage", 1)
    assert "only for registered users" in refusal.params["text"]
    await fake.wait_consumed(last)
    await asyncio.sleep(0.3)
    assert len(fake.sent("sendMessage")) == 1, "a stranger is answered once an hour, not once a message"
    assert fake.sent("getFile") == [] and bot.pack.media_seen == []
    assert bot.app.services.state.open_cards() == []
    assert not (bot.app.settings.state_dir / "media" / "telegram").exists()


async def test_voice_note_is_downloaded_and_handed_to_the_pack(bot: Bot, voice_ogg: bytes) -> None:
    fake = bot.fake
    fake.send_voice(SRINIVAS, voice_ogg)
    [reply] = await fake.wait_for("sendMessage")
    assert reply.params["text"].startswith(f"got voice {len(voice_ogg)} audio/ogg")
    [media] = bot.pack.media_seen
    assert media.path.read_bytes() == voice_ogg and voice_ogg[:4] == b"OggS"
    assert media.path.is_relative_to(bot.app.settings.state_dir)
    # The transport's own download is gone once the intake store holds its copy.
    assert list((bot.app.settings.state_dir / "media" / "telegram").iterdir()) == []
    assert len(fake.sent("getFile")) == 1


async def test_photo_takes_the_largest_size_and_documents_keep_their_type(bot: Bot) -> None:
    fake = bot.fake
    fake.send_photo(SRINIVAS, b"\xff\xd8 the large one", caption="diary page")
    await fake.wait_for("sendMessage")
    [get_file] = fake.sent("getFile")
    assert fake.files[get_file.params["file_id"]][1] == b"\xff\xd8 the large one"
    assert texts_to(fake, SRINIVAS)[-1].endswith("caption=diary page")
    fake.send_document(SRINIVAS, b"%PDF-1.4 fake", "order.pdf", "application/pdf")
    fake.send_document(SRINIVAS, b"\x89PNG scan", "scan.png", "image/png")
    await fake.wait_for("sendMessage", 3)
    kinds = [(m.kind, m.mime_type, m.file_name) for m in bot.pack.media_seen]
    assert kinds == [("photo", "image/jpeg", None), ("document", "application/pdf", "order.pdf"),
                     ("photo", "image/png", "scan.png")]


async def test_oversized_media_is_refused_before_download(bot: Bot, voice_ogg: bytes) -> None:
    fake = bot.fake
    fake.send_voice(SRINIVAS, voice_ogg, size=bot.app.settings.max_media_bytes + 1)
    [reply] = await fake.wait_for("sendMessage")
    assert "the limit is 20 MB" in reply.params["text"] and "Nothing was stored" in reply.params["text"]
    assert fake.sent("getFile") == [] and bot.pack.media_seen == []


async def test_long_replies_are_split_and_images_sent_as_photos(bot: Bot) -> None:
    fake = bot.fake
    fake.send_text(SRINIVAS, "/long 400")  # 400 lines of 27 characters: three pieces
    await fake.wait_for("sendMessage", 3)
    await asyncio.sleep(0.1)
    pieces = [c.params["text"] for c in fake.sent("sendMessage")]
    assert all(len(p) <= 4096 for p in pieces) and len(pieces) == 3
    assert "\n".join(pieces).splitlines() == [f"line {i:04d} of a long answer" for i in range(400)]
    fake.send_text(SRINIVAS, "/picture")
    [photo] = await fake.wait_for("sendPhoto")
    assert photo.params["caption"] == "caption for Srinivas Reddy"
    assert photo.files["photo"][:4] == b"\x89PNG"
    assert any(c.params["action"] == "upload_photo" for c in fake.sent("sendChatAction"))


async def test_commands_are_registered_per_chat_in_each_language(bot: Bot) -> None:
    fake = bot.fake
    calls = fake.sent("setMyCommands")
    by_scope = {(c.params["scope"]["type"], c.params["scope"].get("chat_id")): c.params["commands"] for c in calls}
    assert [c["command"] for c in by_scope[("default", None)]] == ["start", "help", "memory", "lang", "pending"]
    srinivas = by_scope[("chat", SRINIVAS)]
    assert [c["command"] for c in srinivas] == ["start", "help", "memory", "lang", "pending", "find"]
    assert srinivas[0]["description"] == text("en", "commands.start")
    assert by_scope[("chat", LAKSHMI)][0]["description"] == text("te", "commands.start")
    assert ("chat", 2001) not in by_scope  # the legal pack is not loaded in this App

    fake.send_text(SRINIVAS, "/lang te")
    await fake.wait_for("setMyCommands", len(calls) + 1)
    latest = fake.sent("setMyCommands")[-1]
    assert latest.params["scope"] == {"type": "chat", "chat_id": SRINIVAS}
    assert latest.params["commands"][0]["description"] == text("te", "commands.start")


async def test_foreign_stale_and_duplicate_updates_are_harmless(bot: Bot) -> None:
    fake = bot.fake
    fake.send_text(SRINIVAS, "note 2026-06-01 private")
    await fake.wait_for("sendMessage")
    card_id = fake.last_message_with_buttons(SRINIVAS)
    fake.press(LAKSHMI, card_id, fake.buttons(card_id)["Save"], in_chat=LAKSHMI)  # replayed callback data
    await fake.wait_for("sendMessage", 2)
    assert texts_to(fake, LAKSHMI) == [text("te", "core.card_not_yours")]
    fake.press(SRINIVAS, card_id, "c:s:ffffffffff")
    await fake.wait_for("sendMessage", 3)
    assert "no longer available" in texts_to(fake, SRINIVAS)[-1]
    assert len(fake.sent("answerCallbackQuery")) == 2

    update = {"message": fake._message(SRINIVAS, text="note 2026-07-01 once")}
    fake.push({"update_id": 777, **update})
    fake.push({"update_id": 777, **update})
    fake.send_text(SRINIVAS, "/find once")  # a later update: by the time it is answered, both 777s were handled
    await fake.wait_for("sendMessage", 7)
    await asyncio.sleep(0.2)
    assert len(bot.app.services.state.open_cards("srinivas")) == 2  # "private" and one "once"
    # The one "once" card comes with a reminder that shows the unsaved "private" card again: 4 + 2 + /find.
    assert len(fake.sent("sendMessage")) == 7


async def test_group_chats_and_stickers_get_a_clear_answer(bot: Bot) -> None:
    fake = bot.fake
    fake.send_text(SRINIVAS, "note 2026-04-08 in a group", chat_type="group")
    fake.send_sticker(SRINIVAS)
    sent = await fake.wait_for("sendMessage", 2)
    assert text("en", "transport.private_only") in [c.params["text"] for c in sent]
    assert text("en", "transport.unsupported") in [c.params["text"] for c in sent]
    assert bot.app.services.state.open_cards() == []


async def test_card_message_survives_a_restart(tmp_path: Path, hindsight_url: str, bank_prefix: str,
                                               fake_telegram: FakeTelegram, png_image: Path) -> None:
    settings = telegram_settings(tmp_path, hindsight_url, bank_prefix, fake_telegram)
    first = await start_bot(settings, fake_telegram, png_image)
    fake_telegram.send_text(SRINIVAS, "note 2026-08-01 before the restart")
    await fake_telegram.wait_for("sendMessage")
    card_id = fake_telegram.last_message_with_buttons(SRINIVAS)
    save = fake_telegram.buttons(card_id)["Save"]
    await stop_bot(first)

    second = await start_bot(settings, fake_telegram, png_image)
    try:
        # The button is pressed on a message the fake says has no buttons in its copy: only the stored id helps.
        fake_telegram.press(SRINIVAS, card_id, save)
        [edit] = await fake_telegram.wait_for("editMessageText")
        assert edit.params["message_id"] == card_id and "Saved to memory" in edit.params["text"]
    finally:
        await stop_bot(second)


async def test_an_update_taken_but_not_handled_is_handled_after_a_restart(
        tmp_path: Path, hindsight_url: str, bank_prefix: str, fake_telegram: FakeTelegram, png_image: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    settings = telegram_settings(tmp_path, hindsight_url, bank_prefix, fake_telegram)
    first = await start_bot(settings, fake_telegram, png_image)

    went_down = asyncio.Event()

    async def dies_here(incoming: object) -> object:
        went_down.set()
        raise RuntimeError("the process went down while handling this")

    monkeypatch.setattr(first.app.conversation, "answer", dies_here)
    update_id = fake_telegram.send_text(SRINIVAS, "note 2026-08-02 sent just before a crash")
    await fake_telegram.wait_consumed(update_id)  # Telegram was told it arrived: it will never send it again
    await asyncio.wait_for(went_down.wait(), 10)
    await stop_bot(first)  # before its retries ran out: nothing was said, the update is still to be handled
    assert texts_to(fake_telegram, SRINIVAS) == []

    second = await start_bot(settings, fake_telegram, png_image)
    try:
        await fake_telegram.wait_for("sendMessage", 1)
        assert "sent just before a crash" in texts_to(fake_telegram, SRINIVAS)[-1]
        assert len(second.app.services.state.open_cards("srinivas")) == 1
        for _ in range(100):  # the reply goes out just before the update is marked handled
            if not second.app.services.state.inbox_pending("telegram"):
                break
            await asyncio.sleep(0.05)
        assert second.app.services.state.inbox_pending("telegram") == []
    finally:
        await stop_bot(second)
    third = await start_bot(settings, fake_telegram, png_image)  # handled now: not queued a third time
    try:
        await asyncio.sleep(0.5)
        assert len(fake_telegram.sent("sendMessage")) == 1
        assert len(third.app.services.state.open_cards("srinivas")) == 1
    finally:
        await stop_bot(third)


async def test_notifier_sends_followups_unprompted(bot: Bot) -> None:
    user = bot.app.services.registry.by_id("srinivas")
    assert user is not None
    delivery = await bot.app.services.outbound.send(user, [Reply(text="How did the copper spray work?")], "followup")
    assert delivery.delivered and delivery.transport == "telegram"
    assert texts_to(bot.fake, SRINIVAS) == ["How did the copper spray work?"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_webhook_checks_the_secret_token(tmp_path: Path, hindsight_url: str, bank_prefix: str,
                                               fake_telegram: FakeTelegram, png_image: Path) -> None:
    app = await App.start(telegram_settings(tmp_path, hindsight_url, bank_prefix, fake_telegram), pack_names=[])
    use_echo_pack(app, png_image)
    transport = TelegramTransport(app.conversation)
    port = _free_port()
    await transport.start_webhook("https://bot.example.org/hooks/telegram", "127.0.0.1", port)
    try:
        assert fake_telegram.webhook_url == "https://bot.example.org/hooks/telegram"
        [set_hook] = fake_telegram.sent("setWebhook")
        assert set_hook.params["secret_token"] == SECRET
        update = {"update_id": 42, "message": fake_telegram._message(SRINIVAS, text="note 2026-09-01 via webhook")}
        url = f"http://127.0.0.1:{port}/hooks/telegram"
        async with httpx.AsyncClient() as client:
            forged = await client.post(url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": "wrong"})
            missing = await client.post(url, json=update)
            assert forged.status_code == 403 and missing.status_code == 403
            await asyncio.sleep(0.2)
            assert fake_telegram.sent("sendMessage") == [] and app.services.state.open_cards() == []
            good = await client.post(url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": SECRET})
            assert good.status_code == 200
        [card] = await fake_telegram.wait_for("sendMessage")
        assert "via webhook" in card.params["text"]
    finally:
        await transport.stop()
        await app.aclose()


async def test_flood_control_is_waited_out_not_dropped(bot: Bot) -> None:
    fake = bot.fake
    fake.flood_once.add("sendMessage")
    fake.send_text(SRINIVAS, "/help")
    sent = await fake.wait_for("sendMessage", 2)  # refused once with 429 retry_after, then sent again
    assert sent[0].params["text"] == sent[1].params["text"] and sent[1].params["text"].startswith("What I can do")



async def _settled_row(bot: Bot, attempts: int) -> OutgoingReply:
    for _ in range(200):
        rows = bot.app.services.replies.outbox.listing()
        if rows and rows[0].attempts >= attempts:
            return rows[0]
        await asyncio.sleep(0.05)
    raise AssertionError(f"no reply row reached {attempts} attempts: {bot.core.app.services.replies.outbox.listing()}")


async def test_a_telegram_500_then_200_delivers_the_reply_once(bot: Bot) -> None:
    bot.fake.fail_script["sendMessage"] = [500]
    bot.fake.send_text(SRINIVAS, "/help")
    row = await _settled_row(bot, 1)
    assert row.state == "pending" and "transient" in (row.last_error or "") and row.next_attempt_at is not None
    assert texts_to(bot.fake, SRINIVAS) == [row.reply.text]  # the refused try, recorded by the fake
    report = await bot.app.services.replies.flush(datetime.now(timezone.utc) + timedelta(minutes=1))
    assert report.sent == 1
    assert texts_to(bot.fake, SRINIVAS) == [row.reply.text, row.reply.text]  # refused once, delivered once
    [row] = bot.app.services.replies.outbox.listing()
    assert row.state == "sent" and row.attempts == 2
    assert (await bot.app.services.replies.flush(datetime.now(timezone.utc) + timedelta(hours=1))).sent == 0
    assert len(texts_to(bot.fake, SRINIVAS)) == 2
    assert bot.app.services.intake.listing()[0].state == "done"


async def test_a_telegram_400_is_not_retried_and_is_recorded(bot: Bot) -> None:
    bot.fake.fail_script["sendMessage"] = [400]
    bot.fake.send_text(SRINIVAS, "/help")
    row = await _settled_row(bot, 1)
    assert row.state == "failed" and "refused: BadRequest" in (row.last_error or "")
    assert (await bot.app.services.replies.flush(datetime.now(timezone.utc) + timedelta(hours=1))).sent == 0
    assert len(texts_to(bot.fake, SRINIVAS)) == 1
    assert bot.app.services.intake.listing()[0].state == "done"


async def test_a_bot_api_down_at_start_is_waited_out_not_a_crash(
        tmp_path: Path, hindsight_url: str, bank_prefix: str, fake_telegram: FakeTelegram, png_image: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """Telegram unreachable when the process starts (the operator walk: `smriti run all` exited with a
    NetworkError traceback and took WhatsApp down with it): the start waits it out and then serves."""
    fake_telegram.fail_script["getMe"] = [500, 502, 500]
    app = await App.start(telegram_settings(tmp_path, hindsight_url, bank_prefix, fake_telegram), pack_names=[])
    use_echo_pack(app, png_image)
    transport = TelegramTransport(app.conversation, poll_timeout_s=1.0)
    transport.reconnect_base_s = 0.05
    try:
        with caplog.at_level("WARNING"):
            await asyncio.wait_for(transport.start_polling(), timeout=30)
        assert sum(1 for c in fake_telegram.calls if c.method == "getMe") >= 4
        assert sum("did not answer getMe" in r.getMessage() for r in caplog.records) == 3
        assert transport.application.running
    finally:
        await transport.stop()
        await app.aclose()
