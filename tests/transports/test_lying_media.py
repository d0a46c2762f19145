"""A file host that understates what it sends is cut off at the limit: the bytes are counted as they arrive,
and nothing of the file is kept. Telegram states a size in the message and in getFile; Twilio's media host
in Content-Length (here: none at all, the body ending when the connection closes)."""

import asyncio
import logging
from pathlib import Path

import pytest

from tests.fakes.http import FakeServer
from tests.fakes.telegram import FakeTelegram
from tests.fakes.twilio import FakeTwilio
from tests.transports.test_telegram import SRINIVAS as TG_SRINIVAS
from tests.transports.test_telegram import (  # noqa: F401
    fake_telegram,
    start_bot,
    stop_bot,
    telegram_settings,
    texts_to,
)
from tests.transports.test_whatsapp import SRINIVAS as WA_SRINIVAS
from tests.transports.test_whatsapp import (  # noqa: F401
    fake_twilio,
    start_whatsapp,
    stop_whatsapp,
    whatsapp_settings,
)

pytestmark = pytest.mark.hindsight

LIMIT = 256 * 1024
SENT = 48 * 1024 * 1024
"""What the lying host tries to send: 192 times the limit. What it gets out before the bot hangs up includes
what the kernel buffers on loopback (several MB), so the bot's own reading is checked in its log line."""


async def bytes_taken(server: FakeServer) -> int:
    """How much the host got out before the bot hung up (its writing thread notices a moment later)."""
    for _ in range(250):
        if server.streamed:
            [taken] = server.streamed
            return taken
        await asyncio.sleep(0.02)
    raise AssertionError("the host is still sending: the bot never hung up")


def read_before_cut_off(caplog: pytest.LogCaptureFixture) -> int:
    [line] = [r.getMessage() for r in caplog.records if r.getMessage().startswith("cut off a download at ")]
    return int(line.split()[5])


def files_under(root: Path) -> list[Path]:
    """Every file but the bot's own database (its size is the registers', not a download's)."""
    return [p for p in root.rglob("*") if p.is_file() and not p.name.startswith("smriti.db")]


async def test_telegram_file_announced_small_is_cut_off_at_the_limit(
        tmp_path: Path, hindsight_url: str, bank_prefix: str, fake_telegram: FakeTelegram,  # noqa: F811
        png_image: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot.transports.media_download")
    settings = telegram_settings(tmp_path, hindsight_url, bank_prefix, fake_telegram, max_media_bytes=LIMIT)
    bot = await start_bot(settings, fake_telegram, png_image)
    try:
        fake_telegram.send_voice(TG_SRINIVAS, b"OggS" + b"\x00" * SENT, claimed_size=40 * 1024)
        [refusal] = await fake_telegram.wait_for("sendMessage")
        assert refusal.params["text"].startswith("That file is ") and "Nothing was stored" in refusal.params["text"]
        assert len(fake_telegram.sent("getFile")) == 1, "the stated size passed, so the download was tried"
        taken = await bytes_taken(fake_telegram.server)
        assert taken < SENT // 2, f"the host got {taken} bytes out before the bot hung up"
        assert LIMIT < read_before_cut_off(caplog) <= LIMIT + 64 * 1024
        assert bot.pack.media_seen == [] and bot.app.services.intake.listing() == []
        assert not any(p.stat().st_size > LIMIT for p in files_under(tmp_path))
        assert files_under(settings.state_dir / "media" / "telegram") == []
    finally:
        await stop_bot(bot)


async def test_telegram_voice_stated_too_long_is_refused_before_download(
        tmp_path: Path, hindsight_url: str, bank_prefix: str, fake_telegram: FakeTelegram,  # noqa: F811
        png_image: Path, voice_ogg: bytes) -> None:
    bot = await start_bot(telegram_settings(tmp_path, hindsight_url, bank_prefix, fake_telegram),
                          fake_telegram, png_image)
    try:
        fake_telegram.send_voice(TG_SRINIVAS, voice_ogg, duration=3600)
        await fake_telegram.wait_for("sendMessage")
        assert "3600 s long; the limit is 300 s" in texts_to(fake_telegram, TG_SRINIVAS)[0]
        assert fake_telegram.sent("getFile") == []
    finally:
        await stop_bot(bot)


async def test_twilio_media_without_a_length_is_cut_off_at_the_limit(
        tmp_path: Path, hindsight_url: str, bank_prefix: str, fake_twilio: FakeTwilio,  # noqa: F811
        png_image: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot.transports.media_download")
    settings = whatsapp_settings(tmp_path, hindsight_url, bank_prefix, fake_twilio, max_media_bytes=LIMIT)
    wa = await start_whatsapp(settings, fake_twilio, png_image)
    try:
        url = fake_twilio.add_media(b"OggS" + b"\x00" * SENT, "audio/ogg", unannounced=True)
        await wa.say(WA_SRINIVAS, media=[(url, "audio/ogg")])
        [refusal] = await fake_twilio.wait_sent(1)
        assert "Nothing was stored" in (refusal.body or "")
        taken = await bytes_taken(fake_twilio.server)
        assert taken < SENT // 2, f"the host got {taken} bytes out before the bot hung up"
        assert LIMIT < read_before_cut_off(caplog) <= LIMIT + 64 * 1024
        assert wa.pack.media_seen == [] and wa.app.services.intake.listing() == []
        assert not any(p.stat().st_size > LIMIT for p in files_under(tmp_path))
    finally:
        await stop_whatsapp(wa)
