"""Telegram's webhook under operations' needs: the current and the previous secret both accepted during a
rotation (a third refused before the body is read), an oversized body refused, an update kept in the spool
while the database is down and handled once when it is back, and the health routes on the webhook's port."""

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from pydantic import SecretStr
from sqlalchemy.exc import OperationalError

from bot.core.app import App
from bot.transports.health import Health
from bot.transports.telegram.app import TelegramTransport
from tests.fakes.telegram import FakeTelegram
from tests.pg_server import free_port
from tests.transports.conftest import use_echo_pack
from tests.transports.test_telegram import SECRET, SRINIVAS, telegram_settings

pytestmark = pytest.mark.hindsight

PREVIOUS = "the-previous-secret"
HEADER = "X-Telegram-Bot-Api-Secret-Token"


def down(*args: object, **kwargs: object) -> None:
    raise OperationalError("SELECT 1", {}, ConnectionRefusedError("connection refused"))


@pytest.fixture
def fake_telegram() -> Iterator[FakeTelegram]:
    fake = FakeTelegram()
    yield fake
    fake.close()


async def test_rotation_cap_spool_and_health_on_the_telegram_port(
        tmp_path: Path, hindsight_url: str, bank_prefix: str, fake_telegram: FakeTelegram, png_image: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    settings = telegram_settings(tmp_path, hindsight_url, bank_prefix, fake_telegram,
                                 telegram_webhook_secret_previous=SecretStr(PREVIOUS))
    app = await App.start(settings, pack_names=[])
    use_echo_pack(app, png_image)
    transport = TelegramTransport(app.conversation)
    transport.health = Health(app.services, loops=[transport.loops])
    port = free_port()
    await transport.start_webhook("https://bot.example.org/hooks/telegram", "127.0.0.1", port)
    url = f"http://127.0.0.1:{port}/hooks/telegram"
    try:
        async with httpx.AsyncClient() as client:
            def update(n: int, body: str) -> dict[str, object]:
                return {"update_id": n, "message": fake_telegram._message(SRINIVAS, text=body)}

            for n, secret in ((1, SECRET), (2, PREVIOUS)):
                answer = await client.post(url, json=update(n, f"note 2026-06-0{n} secret {n}"),
                                           headers={HEADER: secret})
                assert answer.status_code == 200
            assert (await client.post(url, json=update(3, "note 2026-06-03 no"),
                                      headers={HEADER: "guessed"})).status_code == 403
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(f"POST /hooks/telegram HTTP/1.1\r\nHost: bot\r\n{HEADER}: {SECRET}\r\n"
                         f"Content-Length: {300 * 1024 * 1024}\r\n\r\n{{".encode())
            await writer.drain()
            assert b" 413 " in await asyncio.wait_for(reader.readline(), 5)  # without waiting for 300 MB
            writer.close()
            assert (await client.post(url, content=b"not json", headers={HEADER: SECRET})).status_code == 400
            # The second note's card comes with a reminder showing the first, still unsaved, card again.
            await fake_telegram.wait_for("sendMessage", 4)

            with monkeypatch.context() as outage:
                outage.setattr(app.services.state, "inbox_put", down)
                answer = await client.post(url, json=update(4, "note 2026-06-04 while the database was down"),
                                           headers={HEADER: SECRET})
                assert answer.status_code == 200 and transport.inbox.spool.pending() == 1
                await asyncio.sleep(1.5)
                assert len(fake_telegram.sent("sendMessage")) == 4
            await fake_telegram.wait_for("sendMessage", 5)
            await asyncio.sleep(1.5)
            texts = [c.params["text"] for c in fake_telegram.sent("sendMessage")]
            cards = [t for t in texts if t.startswith("Note dated")]
            assert sum("database was down" in t for t in texts) == 1  # the spooled note answered once
            assert len({t for t in cards}) == 3  # three notes, three cards (earlier ones shown again below)

            assert (await client.get(f"http://127.0.0.1:{port}/health/live")).text == "ok"
            assert (await client.get(f"http://127.0.0.1:{port}/health/ready")).status_code == 200
            metrics = (await client.get(f"http://127.0.0.1:{port}/metrics")).text
            assert 'smriti_spooled_total{transport="telegram"}' in metrics
    finally:
        await transport.stop()
        await app.aclose()
