"""A delivery that fails inside the transport for a reason that does not pass (a provider's malformed answer, a
bug) is retried a bounded number of times with backoff, then given up: kept as failed in the inbox, listed by
`smriti queue list`, the sender told once, counted in /metrics; readiness comes back without a restart and a
restart does not take it up again. Replies given up are counted too, and `smriti queue resend` sends them again."""

import argparse
import asyncio
import re
from collections.abc import AsyncIterator, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import httpx
import pytest
from sqlalchemy import update
from starlette.applications import Starlette

from bot.cli import queue as queue_cli
from bot.core.app import App
from bot.services.i18n import text
from bot.store.state import InboxRow
from bot.transports.health import Health, Queued
from tests.fakes.telegram import FakeTelegram
from tests.fakes.twilio import FakeTwilio
from tests.transports.test_telegram import SRINIVAS as TG_SRINIVAS
from tests.transports.test_telegram import start_bot, stop_bot, telegram_settings, texts_to
from tests.transports.test_whatsapp import SRINIVAS, WhatsApp, start_whatsapp, stop_whatsapp, whatsapp_settings

pytestmark = pytest.mark.hindsight


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


@pytest.fixture
async def wa(tmp_path: Path, hindsight_url: str, bank_prefix: str, fake_twilio: FakeTwilio,
             png_image: Path) -> AsyncIterator[WhatsApp]:
    running = await start_whatsapp(whatsapp_settings(tmp_path, hindsight_url, bank_prefix, fake_twilio),
                                   fake_twilio, png_image)
    yield running
    await stop_whatsapp(running)


def metric(body: str, name: str, transport: str) -> float:
    found = re.search(rf'^{name}\{{transport="{transport}"\}} ([0-9.e+]+)$', body, re.M)
    return float(found.group(1)) if found else 0.0


async def scrape(health: Health) -> tuple[httpx.Response, str]:
    asgi = httpx.ASGITransport(app=Starlette(routes=health.routes()))
    async with httpx.AsyncClient(transport=asgi, base_url="http://bot") as client:
        return await client.get("/health/ready"), (await client.get("/metrics")).text


async def queue(app: App, action: str, target: str | None, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = await queue_cli._run(app, argparse.Namespace(action=action, all=False, intake_id=target))
    return code, capsys.readouterr().out


async def test_a_telegram_update_whose_get_file_answer_is_malformed_is_given_up_once(
        tmp_path: Path, hindsight_url: str, bank_prefix: str, fake_telegram: FakeTelegram, png_image: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    settings = telegram_settings(tmp_path, hindsight_url, bank_prefix, fake_telegram)
    fake_telegram.malformed.add("getFile")  # {"ok": true, "result": true}: no file in it
    bot = await start_bot(settings, fake_telegram, png_image)
    bot.transport.redelivery.base_s = 0.2
    inbox = bot.transport.inbox
    health = Health(bot.app.services, loops=[bot.transport.loops], max_inbox_age_s=0.3,
                    queues=[Queued("telegram", inbox.qsize, inbox.spool.pending, inbox.in_flight.oldest_age_s)])
    _, before = await scrape(health)
    try:
        update_id = fake_telegram.send_document(TG_SRINIVAS, b"Farmer,Village\nA,B\n", "farmers.csv", "text/csv")
        await fake_telegram.wait_consumed(update_id)
        await asyncio.sleep(0.45)  # taken, failing, retried: this worker has not handled it yet
        stuck, _ = await scrape(health)
        assert stuck.status_code == 503 and "a delivery has waited" in stuck.json()["checks"]["inbox"]
        [told] = await fake_telegram.wait_for("sendMessage", 1, timeout=10)
        reference = re.search(r"reference ([0-9A-F]{6})", told.params["text"])
        assert reference is not None
        assert told.params["text"] == text("en", "transport.gave_up", reference=reference.group(1))
        assert len(fake_telegram.sent("getFile")) == bot.transport.redelivery.max_failures == 3
        ready, after = await scrape(health)
        assert ready.status_code == 200, ready.text  # back without a restart
        assert metric(after, "smriti_deliveries_failed_total", "telegram") == \
            metric(before, "smriti_deliveries_failed_total", "telegram") + 1
        assert 'smriti_inbox_failed 1.0' in after
        assert bot.app.services.state.inbox_pending("telegram") == []
        _, listed = await queue(bot.app, "list", None, capsys)
        assert re.search(rf"inbox telegram\s+{update_id} received .* failed after 3 attempts: \w+ "
                         rf"\(reference {reference.group(1)}\)", listed)
    finally:
        await stop_bot(bot)
    again = await start_bot(settings, fake_telegram, png_image)  # a restart does not take it up again
    try:
        await asyncio.sleep(1.0)
        assert len(texts_to(fake_telegram, TG_SRINIVAS)) == 1 and len(fake_telegram.sent("getFile")) == 3
        fake_telegram.malformed.clear()  # the provider is fixed: the operator queues it again
        code, said = await queue(again.app, "retry", str(update_id), capsys)
        assert code == 0 and "queued again" in said
        await fake_telegram.wait_for("sendMessage", 2, timeout=15)  # the running worker took it: no restart
        assert len(fake_telegram.sent("getFile")) == 4
        for _ in range(100):
            if not again.app.services.state.inbox_waiting():
                break
            await asyncio.sleep(0.05)
        assert again.app.services.state.inbox_waiting() == []
    finally:
        await stop_bot(again)


async def test_a_whatsapp_delivery_that_keeps_failing_is_given_up_kept_and_listed(
        wa: WhatsApp, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    wa.transport.redelivery.base_s = 0.1
    tries = {"n": 0}

    async def malformed(incoming: object) -> object:
        tries["n"] += 1
        raise KeyError("result")  # what a provider's answer of the wrong shape raises deep in a client

    monkeypatch.setattr(wa.app.conversation, "answer", malformed)
    await wa.say(SRINIVAS, "note 2026-04-10 this one cannot be handled")
    await wa.say(SRINIVAS, "note 2026-04-11 nor this one")
    told = await wa.fake.wait_sent(2, timeout=10)
    references = [re.search(r"reference ([0-9A-F]{6})", m.body or "") for m in told]
    assert [m.body for m in told] == [text("en", "transport.gave_up", reference=r.group(1))
                                      for r in references if r is not None]
    await wa.transport.drain()
    await asyncio.sleep(0.5)
    assert tries["n"] == 6 and len(wa.fake.sent()) == 2 and len(wa.transport.in_flight) == 0
    state = wa.app.services.state
    first, second = state.inbox_waiting()
    assert first.failed_at is not None and first.attempts == 3 and state.inbox_pending("whatsapp") == []
    _, listed = await queue(wa.app, "list", None, capsys)
    assert f"inbox whatsapp  {first.key}" in listed and "failed after 3 attempts: KeyError" in listed
    code, dropped = await queue(wa.app, "drop", second.key, capsys)
    assert code == 0 and second.key in dropped
    monkeypatch.undo()  # the cause is fixed: the operator retries the other one, and a running worker takes it
    code, said = await queue(wa.app, "retry", first.key, capsys)
    assert code == 0 and "queued again" in said
    [*_, card] = await wa.fake.wait_sent(3, timeout=15)
    assert "cannot be handled" in (card.body or "")
    await wa.transport.drain()
    assert state.inbox_waiting() == [] and len(wa.fake.sent()) == 3


async def test_replies_given_up_are_counted_and_resent_on_request(
        wa: WhatsApp, capsys: pytest.CaptureFixture[str]) -> None:
    health = Health(wa.app.services)
    _, before = await scrape(health)
    wa.app.services.replies.base_backoff_s = 0.05
    wa.fake.fail_next = 5  # the provider refuses for longer than the bounded retries last
    await wa.say(SRINIVAS, "note 2026-04-12 the reply cannot go out yet")
    for _ in range(200):
        await wa.app.services.replies.flush()
        if wa.app.services.replies.outbox.listing(("failed",)):
            break
        await asyncio.sleep(0.05)
    [failed] = wa.app.services.replies.outbox.listing(("failed",))
    _, after = await scrape(health)
    assert metric(after, "smriti_replies_failed_total", "whatsapp") == \
        metric(before, "smriti_replies_failed_total", "whatsapp") + 1
    assert "smriti_replies_given_up 1.0" in after
    _, listed = await queue(wa.app, "list", None, capsys)
    assert f"reply failed   {failed.key}#0" in listed
    code, said = await queue(wa.app, "resend", "intake:nothing-like-it", capsys)
    assert code == 2 and "No given-up reply for intake:nothing-like-it" in said
    code, said = await queue(wa.app, "resend", f"{failed.key}#0", capsys)
    assert code == 0 and said.startswith("1 reply put back")
    await wa.app.services.replies.flush()  # what a running worker's next pass does
    assert len(wa.fake.accepted) == 1 and "cannot go out yet" in wa.fake.accepted[0][1]["Body"]
    assert wa.app.services.replies.outbox.listing(("failed", "flagged")) == []


async def test_a_delivery_another_worker_left_behind_does_not_take_this_one_out_of_rotation(wa: WhatsApp) -> None:
    state = wa.app.services.state
    state.inbox_put("whatsapp", "SM" + "6" * 32, '{"left": "by a worker that was killed"}')
    with wa.app.services.database.session() as s:
        s.execute(update(InboxRow).where(InboxRow.key == "SM" + "6" * 32).values(
            received_at=datetime.now(timezone.utc) - timedelta(minutes=30)))
    health = Health(wa.app.services, max_inbox_age_s=60,
                    queues=[Queued("whatsapp", wa.transport.queue_depth, wa.transport.spool.pending,
                                   wa.transport.in_flight.oldest_age_s)])
    ready, metrics = await scrape(health)
    assert ready.status_code == 200, ready.text  # this worker handles what it takes; its own state decides
    assert metric(metrics, "smriti_inbox_oldest_age_seconds", "whatsapp") >= 1800  # the operator still sees it
