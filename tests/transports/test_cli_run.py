"""`smriti run telegram` and `smriti run whatsapp` through the command line's own parser and handlers, with the
installed packs, against the fakes; Ctrl-C (SIGINT) stops each cleanly."""

import asyncio
import os
import signal
import socket
from collections.abc import Awaitable, Iterator
from pathlib import Path

import httpx
import pytest
from pydantic import SecretStr

from bot.cli.smriti import build_parser
from bot.settings import Settings
from tests.conftest import make_settings
from tests.fakes.telegram import TOKEN, FakeTelegram
from tests.fakes.twilio import ACCOUNT_SID, AUTH_TOKEN, BOT_NUMBER, FakeTwilio, inbound_form, sign

pytestmark = pytest.mark.hindsight

PUBLIC = "https://bot.example.org"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def fake_telegram() -> Iterator[FakeTelegram]:
    fake = FakeTelegram()
    yield fake
    fake.close()


@pytest.fixture
def fake_twilio() -> Iterator[FakeTwilio]:
    fake = FakeTwilio()
    yield fake
    fake.close()


async def _telegram_walk(fake: FakeTelegram) -> None:
    fake.send_text(1001, "/start")
    [welcome] = await fake.wait_for("sendMessage", timeout=90)
    assert welcome.params["text"].startswith("Namaste Srinivas Reddy")
    assert fake.sent("setMyCommands")


async def _whatsapp_walk(fake: FakeTwilio, port: int) -> None:
    form = inbound_form("SM" + "5" * 32, "+919800000001", "/start")
    async with httpx.AsyncClient() as client:
        for _ in range(900):
            try:
                if (await client.get(f"http://127.0.0.1:{port}/health")).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)
        response = await client.post(f"http://127.0.0.1:{port}/whatsapp/inbound", data=form,
                                      headers={"X-Twilio-Signature": sign(f"{PUBLIC}/whatsapp/inbound", form)})
    assert response.status_code == 200
    [welcome] = await fake.wait_sent(1, timeout=60)
    assert welcome.to == "whatsapp:+919800000001" and welcome.body.startswith("Namaste Srinivas Reddy")


async def _run_until_walked(argv: list[str], settings: Settings, walk: Awaitable[None]) -> int:
    """Run `smriti ARGV` in this process, do the walk against it, then press Ctrl-C (SIGINT) and return its exit code."""
    args = build_parser().parse_args(argv)
    running = asyncio.create_task(args.handler(args, settings))
    walking = asyncio.create_task(walk)
    done, _ = await asyncio.wait({running, walking}, return_when=asyncio.FIRST_COMPLETED)
    if running in done:
        walking.cancel()
        raise AssertionError(f"smriti {' '.join(argv)} ended early with {running.result()}")
    await walking
    # The command installed its own SIGINT handling by now (it answered), so this stops it like Ctrl-C would.
    os.kill(os.getpid(), signal.SIGINT)
    return await asyncio.wait_for(running, timeout=30)


async def test_run_telegram_polls_answers_and_stops_on_ctrl_c(tmp_path: Path, hindsight_url: str,
                                                                bank_prefix: str, fake_telegram: FakeTelegram) -> None:
    settings = make_settings(tmp_path, hindsight_url, bank_prefix, telegram_bot_token=SecretStr(TOKEN),
                             telegram_base_url=fake_telegram.url)
    assert await _run_until_walked(["run", "telegram"], settings, _telegram_walk(fake_telegram)) == 0


async def test_run_whatsapp_serves_the_webhook_and_stops_on_ctrl_c(tmp_path: Path, hindsight_url: str,
                                                                   bank_prefix: str, fake_twilio: FakeTwilio) -> None:
    port = _free_port()
    settings = make_settings(tmp_path, hindsight_url, bank_prefix, twilio_account_sid=ACCOUNT_SID,
                             twilio_auth_token=SecretStr(AUTH_TOKEN), twilio_whatsapp_from=BOT_NUMBER,
                             twilio_base_url=fake_twilio.url, public_base_url=PUBLIC)
    code = await _run_until_walked(["run", "whatsapp", "--port", str(port)], settings,
                                   _whatsapp_walk(fake_twilio, port))
    assert code == 0


async def test_run_all_serves_telegram_and_whatsapp_in_one_process(tmp_path: Path, hindsight_url: str,
                                                                   bank_prefix: str, fake_telegram: FakeTelegram,
                                                                   fake_twilio: FakeTwilio) -> None:
    port = _free_port()
    settings = make_settings(tmp_path, hindsight_url, bank_prefix, telegram_bot_token=SecretStr(TOKEN),
                             telegram_base_url=fake_telegram.url, twilio_account_sid=ACCOUNT_SID,
                             twilio_auth_token=SecretStr(AUTH_TOKEN), twilio_whatsapp_from=BOT_NUMBER,
                             twilio_base_url=fake_twilio.url, public_base_url=PUBLIC)

    async def both() -> None:
        await asyncio.gather(_telegram_walk(fake_telegram), _whatsapp_walk(fake_twilio, port))

    assert await _run_until_walked(["run", "all", "--port", str(port)], settings, both()) == 0


async def test_run_all_names_what_is_missing_before_starting_anything(tmp_path: Path, hindsight_url: str,
                                                                      bank_prefix: str, fake_telegram: FakeTelegram,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    settings = make_settings(tmp_path, hindsight_url, bank_prefix, telegram_bot_token=SecretStr(TOKEN),
                             telegram_base_url=fake_telegram.url, twilio_account_sid=ACCOUNT_SID)
    args = build_parser().parse_args(["run", "all", "--port", "9"])
    assert await args.handler(args, settings) == 2
    assert "TWILIO_AUTH_TOKEN" in capsys.readouterr().err
    assert fake_telegram.sent("getUpdates") == []


async def test_run_telegram_webhook_needs_a_secret(tmp_path: Path, hindsight_url: str, bank_prefix: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    settings = make_settings(tmp_path, hindsight_url, bank_prefix, telegram_bot_token=SecretStr(TOKEN),
                             telegram_base_url="http://127.0.0.1:9")
    args = build_parser().parse_args(["run", "telegram", "--webhook-url", "https://bot.example.org/telegram"])
    assert await args.handler(args, settings) == 2
    assert "SMRITI_TELEGRAM_WEBHOOK_SECRET" in capsys.readouterr().err


async def test_run_whatsapp_names_what_is_missing(tmp_path: Path, hindsight_url: str, bank_prefix: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    settings = make_settings(tmp_path, hindsight_url, bank_prefix, twilio_account_sid=ACCOUNT_SID)
    args = build_parser().parse_args(["run", "whatsapp", "--port", "9"])
    assert await args.handler(args, settings) == 2
    assert "TWILIO_AUTH_TOKEN" in capsys.readouterr().err
