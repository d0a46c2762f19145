"""The issue's outage walk: two workers on a real PostgreSQL that this test starts itself, a stream of signed
WhatsApp and Telegram messages sent to both, the database stopped for 10 s mid-stream and started again. Every
message is handled exactly once and answered once, with no restart; those sent during the outage are handled
after it; readiness fails while the database is down and recovers after; /metrics counts what was sent."""

import asyncio
import os
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import httpx
import pytest
from sqlalchemy import create_engine, func, select, text

from bot.core.intake import _deliveries
from bot.paths import SEEDS_DIR
from bot.services.i18n import text as i18n_text
from bot.store import Database, upgrade
from bot.store.people import import_people_file
from handlers import INSTALLED
from tests.fakes.telegram import FakeTelegram
from tests.fakes.twilio import FakeTwilio, inbound_form, sign
from tests.ops.outage_worker import PUBLIC, SECRET, TELEGRAM_PATH
from tests import pg_server

pytestmark = pytest.mark.hindsight

ROOT = Path(__file__).resolve().parents[2]
WHATSAPP = ["+919800000001", "+919800000002"]
TELEGRAM = [1001, 1002]
MESSAGES = 40
"""Half WhatsApp, half Telegram, one every SEND_EVERY_S."""
SEND_EVERY_S = 0.3
OUTAGE_AT, OUTAGE_S = 8, 10.0
HOOK = urlparse(PUBLIC).path + TELEGRAM_PATH
"""The path Telegram's webhook is served on: the public URL's, as a reverse proxy passes it through."""


@pytest.fixture
def postgres() -> Iterator[pg_server.PgServer]:
    if not pg_server.available():
        pytest.fail("PostgreSQL's server binaries are missing: ./setup.sh installs Debian's postgresql")
    server = pg_server.PgServer()
    server.start()
    yield server
    server.close()


def _database(server: pg_server.PgServer) -> str:
    admin = create_engine(f"{server.url}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as db:
        db.execute(text("CREATE DATABASE smriti"))
    admin.dispose()
    url = f"{server.url}/smriti"
    database = Database(url)
    upgrade(database, INSTALLED.migrations())
    import_people_file(database, SEEDS_DIR / "users.json")
    database.dispose()
    return url


def _metric(body: str, name: str, **labels: str) -> float:
    total = 0.0
    for line in body.splitlines():
        if line.startswith(name + "{") and all(f'{k}="{v}"' in line for k, v in labels.items()):
            total += float(line.rsplit(" ", 1)[1])
    return total


async def _wait_live(client: httpx.AsyncClient, urls: list[str], processes: list[subprocess.Popen[str]]) -> None:
    deadline = time.monotonic() + 90
    for url in urls:
        while True:
            assert all(p.poll() is None for p in processes), "a worker died while starting"
            assert time.monotonic() < deadline, f"{url} never answered"
            try:
                if (await client.get(url + "/health/live")).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.2)


async def test_a_database_outage_mid_stream_loses_nothing_and_doubles_nothing(
        tmp_path: Path, postgres: pg_server.PgServer, hindsight_url: str, bank_prefix: str) -> None:
    url = _database(postgres)
    telegram, twilio = FakeTelegram(), FakeTwilio()
    ports = [(pg_server.free_port(), pg_server.free_port()) for _ in range(2)]
    env = {**os.environ, "SMRITI_WORKER_INTERVAL_S": "2", "SMRITI_READY_INBOX_AGE_S": "120"}
    logs = [open(tmp_path / f"worker{i}.log", "w") for i in range(2)]
    processes = [subprocess.Popen(
        [sys.executable, "-m", "tests.ops.outage_worker", str(tmp_path / f"home{i}"), url, hindsight_url,
         bank_prefix, telegram.url, twilio.url, str(wa), str(tg)],
        cwd=ROOT, env=env, stdout=logs[i], stderr=subprocess.STDOUT, text=True) for i, (wa, tg) in enumerate(ports)]
    whatsapp_urls = [f"http://127.0.0.1:{wa}" for wa, _ in ports]
    telegram_urls = [f"http://127.0.0.1:{tg}" for _, tg in ports]
    statuses: list[int] = []
    try:
        async with httpx.AsyncClient(timeout=20) as client:
            await _wait_live(client, whatsapp_urls + telegram_urls, processes)
            sent_during_outage: list[str] = []
            outage: float | None = None
            not_ready = 0
            for i in range(MESSAGES):
                if i == OUTAGE_AT:
                    postgres.stop("fast")
                    outage = time.monotonic()
                elif outage is not None and time.monotonic() - outage >= OUTAGE_S:
                    not_ready = (await client.get(whatsapp_urls[0] + "/health/ready")).status_code
                    postgres.start()
                    outage = None
                token = f"m{i:03d}"
                if outage is not None:
                    sent_during_outage.append(token)
                body = f"note 2026-05-{1 + i % 28:02d} {token}"
                if i % 2 == 0:
                    form = inbound_form(f"SM{i:032d}", WHATSAPP[i // 2 % 2], body)
                    response = await client.post(
                        whatsapp_urls[i // 2 % 2] + "/whatsapp/inbound", data=form,
                        headers={"X-Twilio-Signature": sign(PUBLIC + "/whatsapp/inbound", form)})
                else:
                    sender = TELEGRAM[i // 2 % 2]
                    update = {"update_id": 10_000 + i, "message": telegram._message(sender, text=body)}
                    response = await client.post(telegram_urls[i // 2 % 2] + HOOK, json=update,
                                                 headers={"X-Telegram-Bot-Api-Secret-Token": SECRET})
                statuses.append(response.status_code)
                await asyncio.sleep(SEND_EVERY_S)
            if outage is not None:
                await asyncio.sleep(max(0.0, OUTAGE_S - (time.monotonic() - outage)))
                not_ready = (await client.get(whatsapp_urls[0] + "/health/ready")).status_code
                postgres.start()
            assert statuses == [200] * MESSAGES  # every delivery kept somewhere durable before it was answered
            assert sent_during_outage and not_ready == 503

            deadline = time.monotonic() + 60
            while True:
                answered = _answered(telegram, twilio)
                if set(answered) >= {f"m{i:03d}" for i in range(MESSAGES)} or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.3)
            await asyncio.sleep(3)  # anything sent twice would show now
            answered = _answered(telegram, twilio)
            assert sorted(answered) == [f"m{i:03d}" for i in range(MESSAGES)], "a message was not answered"
            assert max(answered.values()) == 1, [t for t, n in answered.items() if n > 1]

            ready = [0, 0]
            deadline = time.monotonic() + 30
            while ready != [200, 200] and time.monotonic() < deadline:
                ready = [(await client.get(u + "/health/ready")).status_code for u in telegram_urls]
                await asyncio.sleep(0.5)
            assert ready == [200, 200], (await client.get(telegram_urls[0] + "/health/ready")).text
            metrics = [(await client.get(u + "/metrics")).text for u in whatsapp_urls]
            for transport in ("whatsapp", "telegram"):
                handled = sum(_metric(m, "smriti_messages_handled_total", transport=transport, outcome="answered")
                              for m in metrics)
                assert handled == MESSAGES // 2, transport
            assert sum(_metric(m, "smriti_spooled_total") for m in metrics) >= 1
        database = Database(url)
        with database.engine.connect() as db:
            assert db.execute(select(func.count()).select_from(_deliveries)).scalar() == MESSAGES
        database.dispose()
        assert all(p.poll() is None for p in processes), "a worker stopped"
    finally:
        for process in processes:
            process.terminate()
        for process, log in zip(processes, logs, strict=True):
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
            log.close()
        telegram.close()
        twilio.close()


def _answered(telegram: FakeTelegram, twilio: FakeTwilio) -> Counter[str]:
    """How many times each message's card went out, over both channels."""
    bodies = [m.body or "" for m in twilio.sent()] + [c.params.get("text", "") for c in telegram.sent("sendMessage")]
    # An earlier unsaved card shown again under a new one, in either language, is not a second answer.
    again = tuple(i18n_text(lang, "core.card_shown_again") for lang in ("en", "te"))
    return Counter(token for body in bodies if not body.startswith(again)
                   for token in re.findall(r"\bm\d{3}\b", body))
