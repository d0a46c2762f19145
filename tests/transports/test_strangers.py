"""Strangers leave nothing: a refused delivery keeps no text, media or number anywhere under SMRITI_HOME (every
file's bytes, SQLite WAL files included, read after the bot stopped), and each stranger is answered at most
once an hour, so the bot cannot be used to message a number over and over."""

import asyncio
import logging
import uuid
from pathlib import Path

import pytest

from bot.core.strangers import StrangerGate
from tests.fakes.telegram import FakeTelegram
from tests.fakes.twilio import FakeTwilio
from tests.transports.test_telegram import (  # noqa: F401
    fake_telegram,
    start_bot,
    stop_bot,
    telegram_settings,
)
from tests.transports.test_whatsapp import SRINIVAS as WA_SRINIVAS
from tests.transports.test_whatsapp import (  # noqa: F401
    fake_twilio,
    start_whatsapp,
    stop_whatsapp,
    whatsapp_settings,
)

TG_STRANGER = 918273645
WA_STRANGER = "+15557654321"


def files_holding(root: Path, *needles: bytes) -> list[tuple[Path, bytes]]:
    found = []
    for path in root.rglob("*"):
        if path.is_file():
            raw = path.read_bytes()
            found += [(path, n) for n in needles if n in raw]
    return found


def test_the_gate_answers_each_stranger_once_an_hour_and_counts_the_rest(caplog: pytest.LogCaptureFixture) -> None:
    now = [1000.0]
    gate = StrangerGate(clock=lambda: now[0])
    caplog.set_level(logging.INFO, logger="bot.core.strangers")
    assert gate.refuse("whatsapp", "+15550001") is True
    assert [gate.refuse("whatsapp", "+15550001") for _ in range(50)] == [False] * 50
    assert gate.refuse("whatsapp", "+15550002") is True
    assert gate.refuse("telegram", "+15550001") is True, "the same id on another transport is another person"
    now[0] += 3599
    assert gate.refuse("whatsapp", "+15550001") is False
    now[0] += 2
    assert gate.refuse("whatsapp", "+15550001") is True
    assert gate.refused_total == 55
    lines = [r.getMessage() for r in caplog.records]
    assert lines == ["refused 1 deliveries from unregistered senders (1 answered) since the last count",
                     "refused 53 deliveries from unregistered senders (2 answered) since the last count"]
    assert not any("1555" in line for line in lines)


def test_the_gate_remembers_keyed_hashes_only_and_a_bounded_number_of_them() -> None:
    gate = StrangerGate(max_tracked=100)
    for n in range(1000):
        gate.refuse("whatsapp", f"+9199{n:08d}")
    remembered = gate._answered
    assert len(remembered) == 100
    assert not any(b"9199" in key for key in remembered)


@pytest.mark.hindsight
async def test_a_telegram_stranger_leaves_nothing_under_smriti_home(
        tmp_path: Path, hindsight_url: str, bank_prefix: str, fake_telegram: FakeTelegram,  # noqa: F811
        png_image: Path, voice_ogg: bytes) -> None:
    marker = f"secret-{uuid.uuid4().hex}"
    settings = telegram_settings(tmp_path, hindsight_url, bank_prefix, fake_telegram)
    bot = await start_bot(settings, fake_telegram, png_image)
    try:
        fake_telegram.send_text(TG_STRANGER, f"note 2026-04-08 {marker} at the farm")
        fake_telegram.send_voice(TG_STRANGER, voice_ogg)
        last = fake_telegram.send_text(TG_STRANGER, f"again {marker}")
        [refusal] = await fake_telegram.wait_for("sendMessage")
        assert "only for registered users" in refusal.params["text"]
        await fake_telegram.wait_consumed(last)
        await asyncio.sleep(0.5)
        assert len(fake_telegram.sent("sendMessage")) == 1 and fake_telegram.sent("getFile") == []
        assert bot.app.services.state.inbox_pending("telegram") == []
    finally:
        await stop_bot(bot)
    assert files_holding(tmp_path, marker.encode(), str(TG_STRANGER).encode(), voice_ogg[-64:]) == []


@pytest.mark.hindsight
async def test_a_whatsapp_stranger_leaves_nothing_under_smriti_home(
        tmp_path: Path, hindsight_url: str, bank_prefix: str, fake_twilio: FakeTwilio,  # noqa: F811
        png_image: Path, voice_ogg: bytes) -> None:
    marker = f"secret-{uuid.uuid4().hex}"
    settings = whatsapp_settings(tmp_path, hindsight_url, bank_prefix, fake_twilio)
    wa = await start_whatsapp(settings, fake_twilio, png_image)
    try:
        await wa.say(WA_STRANGER, f"note 2026-04-08 {marker} at the farm")
        await wa.say(WA_STRANGER, f"again {marker}",
                     media=[(fake_twilio.add_media(voice_ogg, "audio/ogg"), "audio/ogg")])
        await wa.say(WA_SRINIVAS, "note 2026-04-09 a registered officer's note")
        await wa.transport.drain()
        to_stranger = fake_twilio.bodies_to(WA_STRANGER)
        assert len(to_stranger) == 1 and "only for registered users" in to_stranger[0]
        assert fake_twilio.media_fetches == [] and len(fake_twilio.bodies_to(WA_SRINIVAS)) == 1
    finally:
        await stop_whatsapp(wa)
    digits = WA_STRANGER.lstrip("+").encode()
    assert files_holding(tmp_path, marker.encode(), digits, voice_ogg[-64:]) == []
    assert files_holding(tmp_path, b"a registered officer's note"), "the registered note is kept, as it should be"
