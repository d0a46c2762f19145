"""The WhatsApp webhook under operations' failures: bodies capped before they are read, two valid tokens during
a rotation, deliveries kept in the spool while the database is down and handled once when it is back, workers
that go on after failures (their error handling's included), and health that tells the truth."""

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from pydantic import SecretStr
from sqlalchemy.exc import OperationalError

from bot.core.loops import Loops
from bot.transports.health import MAX_WEBHOOK_BYTES, Health, Queued
from bot.transports.whatsapp.webhook import WEBHOOK_ROUTE
from tests.fakes.twilio import FakeTwilio, inbound_form, sign
from tests.transports.test_whatsapp import PUBLIC, SRINIVAS, WhatsApp, start_whatsapp, stop_whatsapp, \
    whatsapp_settings

pytestmark = pytest.mark.hindsight

NEW_TOKEN = "the-new-auth-token"


def down(*args: object, **kwargs: object) -> None:
    raise OperationalError("SELECT 1", {}, ConnectionRefusedError("connection refused"))


@pytest.fixture
def fake_twilio() -> AsyncIterator[FakeTwilio]:
    fake = FakeTwilio()
    yield fake  # type: ignore[misc]
    fake.close()


@pytest.fixture
async def wa(tmp_path: Path, hindsight_url: str, bank_prefix: str, fake_twilio: FakeTwilio,
             png_image: Path) -> AsyncIterator[WhatsApp]:
    settings = whatsapp_settings(tmp_path, hindsight_url, bank_prefix, fake_twilio,
                                 twilio_auth_token_secondary=SecretStr(NEW_TOKEN))
    running = await start_whatsapp(settings, fake_twilio, png_image)
    yield running
    await stop_whatsapp(running)


async def test_an_oversized_body_is_refused_before_it_is_read(wa: WhatsApp) -> None:
    host, port = wa.local.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(f"POST {WEBHOOK_ROUTE} HTTP/1.1\r\nHost: bot\r\nX-Twilio-Signature: a\r\n"
                 f"Content-Length: {300 * 1024 * 1024}\r\n\r\nBody=x".encode())
    await writer.drain()
    status_line = await asyncio.wait_for(reader.readline(), 5)  # answered without waiting for 300 MB
    assert b" 413 " in status_line
    writer.close()
    async with httpx.AsyncClient() as client:

        async def chunks() -> AsyncIterator[bytes]:
            for _ in range(MAX_WEBHOOK_BYTES // 65536 + 4):
                yield b"Body=" + b"x" * 65531
        streamed = await client.post(wa.local + WEBHOOK_ROUTE, content=chunks(), headers={"X-Twilio-Signature": "a"})
        assert streamed.status_code == 413
        unsigned = await client.post(wa.local + WEBHOOK_ROUTE, content=b"x" * 100)
        assert unsigned.status_code == 403


async def test_both_tokens_sign_during_a_rotation(wa: WhatsApp) -> None:
    form = inbound_form("SM" + "7" * 32, SRINIVAS, "note 2026-04-02 signed with the new token")
    assert (await wa.post(form, sign(PUBLIC + WEBHOOK_ROUTE, form, NEW_TOKEN))).status_code == 200
    other = inbound_form("SM" + "8" * 32, SRINIVAS, "note 2026-04-02 signed with a stranger's token")
    assert (await wa.post(other, sign(PUBLIC + WEBHOOK_ROUTE, other, "not-a-token"))).status_code == 403
    [card] = await wa.fake.wait_sent(1)
    assert "new token" in (card.body or "")


async def test_a_delivery_while_the_database_is_down_is_spooled_then_handled_once(
        wa: WhatsApp, monkeypatch: pytest.MonkeyPatch) -> None:
    state = wa.app.services.state
    with monkeypatch.context() as outage:
        outage.setattr(state, "inbox_put", down)
        response = await wa.say(SRINIVAS, "note 2026-04-03 sent while the database was down")
        assert response.status_code == 200
        assert wa.transport.spool.pending() == 1
        await asyncio.sleep(1.5)  # the replay loop tries and finds the database still down
        assert wa.transport.spool.pending() == 1 and wa.fake.sent() == []
    [card] = await wa.fake.wait_sent(1, timeout=10)
    assert "database was down" in (card.body or "")
    assert wa.transport.spool.pending() == 0
    await wa.transport.drain()
    await asyncio.sleep(1.5)
    assert len(wa.fake.sent()) == 1 and state.inbox_pending("whatsapp") == []


async def test_workers_go_on_after_failures_in_their_own_error_handling(
        wa: WhatsApp, monkeypatch: pytest.MonkeyPatch) -> None:
    real_answer = wa.app.conversation.answer
    calls = {"n": 0}

    async def down_twice(incoming: object) -> object:
        calls["n"] += 1
        if calls["n"] <= 2:
            down()
        return await real_answer(incoming)  # type: ignore[arg-type]

    with monkeypatch.context() as outage:
        outage.setattr(wa.app.conversation, "answer", down_twice)
        await wa.say(SRINIVAS, "note 2026-04-04 retried after the database came back")
        [card] = await wa.fake.wait_sent(1, timeout=10)
    assert "came back" in (card.body or "") and calls["n"] == 3

    async def bug(incoming: object) -> object:
        raise RuntimeError("a bug")

    wa.transport.redelivery.max_failures = 1  # a bug fails alike every time: given up at once here
    with monkeypatch.context() as broken:
        broken.setattr(wa.app.conversation, "answer", bug)
        broken.setattr(wa.transport.sender, "send", bug)  # and the error handler's own send fails
        for day in range(5, 9):  # more failures than there are workers
            await wa.say(SRINIVAS, f"note 2026-04-0{day} a bug hits this one")
        await asyncio.sleep(0.5)
    assert len(wa.fake.sent()) == 1
    await wa.say(SRINIVAS, "note 2026-04-09 the workers still work")
    sent = await wa.fake.wait_sent(2, timeout=10)
    assert "still work" in (sent[1].body or "")  # then the reminder of the first, unsaved card
    assert wa.transport.loops.stalled() == []


async def test_health_live_ready_and_metrics(wa: WhatsApp, monkeypatch: pytest.MonkeyPatch) -> None:
    loops = Loops()
    health = Health(wa.app.services, loops=[wa.transport.loops, loops],
                    queues=[Queued("whatsapp", wa.transport.queue_depth, wa.transport.spool.pending)])
    from starlette.applications import Starlette

    asgi = httpx.ASGITransport(app=Starlette(routes=health.routes()))
    async with httpx.AsyncClient(transport=asgi, base_url="http://bot") as client:
        assert (await client.get("/health/live")).text == "ok"
        ready = await client.get("/health/ready")
        assert ready.status_code == 200, ready.text
        await wa.say(SRINIVAS, "note 2026-04-07 counted")
        await wa.fake.wait_sent(1)
        metrics = (await client.get("/metrics")).text
        assert 'smriti_messages_handled_total{outcome="answered",pack="agri",transport="whatsapp"}' in metrics
        assert "smriti_message_handling_seconds_bucket" in metrics and "smriti_inbox_depth" in metrics
        with monkeypatch.context() as outage:
            outage.setattr(wa.app.services.database.engine, "connect", down)
            failing = await client.get("/health/ready")
            assert failing.status_code == 503 and failing.json()["checks"]["database"].startswith("unreachable")
        with monkeypatch.context() as outage:
            async def unanswering() -> bool:
                return False
            outage.setattr(wa.app.services.memory, "health", unanswering)
            failing = await client.get("/health/ready")
            assert failing.status_code == 503 and failing.json()["checks"]["memory"] == "not answering"
        assert (await client.get("/health/ready")).status_code == 200
    await loops.stop()
