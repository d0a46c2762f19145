"""Signed Twilio webhook POSTs into the real ASGI app served by uvicorn on loopback, a fake media host, and a fake
Twilio REST endpoint recording what the bot sends; the echo pack behind the conversation core."""

import argparse
import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

import httpx
import pytest
import uvicorn
from pydantic import SecretStr

from bot.cli import queue as queue_cli
from bot.core.app import App
from bot.services.i18n import text
from bot.core.messages import Reply
from bot.settings import Settings
from bot.transports.whatsapp.webhook import EMPTY_TWIML, WEBHOOK_ROUTE, create_app
from bot.transports.whatsapp.send import STATUS_ROUTE
from bot.transports.whatsapp.transport import WhatsAppTransport
from memory import RecallRequest
from tests.conftest import make_settings
from tests.fakes.twilio import ACCOUNT_SID, AUTH_TOKEN, BOT_NUMBER, FakeTwilio, inbound_form, sign
from tests.transports.conftest import use_echo_pack
from tests.transports.echo_pack import EchoPack

pytestmark = pytest.mark.hindsight

PUBLIC = "https://smriti.example.org/bot"
"""The public URL Twilio calls; the app is reached on loopback, as behind a reverse proxy."""
SRINIVAS, LAKSHMI, STRANGER = "+919800000001", "+919800000002", "+15550000000"
TEMPLATE = "HX" + "1" * 32


class Clock:
    def __init__(self) -> None:
        self.offset = timedelta()

    def __call__(self) -> datetime:
        return datetime.now(timezone.utc) + self.offset


@dataclass
class WhatsApp:
    app: App
    transport: WhatsAppTransport
    fake: FakeTwilio
    pack: EchoPack
    server: uvicorn.Server
    task: "asyncio.Task[None]"
    clock: Clock
    sids: Iterator[int]

    @property
    def local(self) -> str:
        port = self.server.servers[0].sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    async def post(self, form: dict[str, str], signature: str | None = None) -> httpx.Response:
        signature = sign(PUBLIC + WEBHOOK_ROUTE, form) if signature is None else signature
        async with httpx.AsyncClient() as client:
            return await client.post(self.local + WEBHOOK_ROUTE, data=form,
                                     headers={"X-Twilio-Signature": signature})

    async def status(self, sid: str, status: str, error_code: str | None = None,
                     signature: str | None = None) -> httpx.Response:
        """Post Twilio's status callback for a message the bot sent."""
        form = {"MessageSid": sid, "SmsSid": sid, "MessageStatus": status, "SmsStatus": status,
                "AccountSid": ACCOUNT_SID, "From": BOT_NUMBER, "ApiVersion": "2010-04-01",
                **({"ErrorCode": error_code} if error_code else {})}
        signature = sign(PUBLIC + STATUS_ROUTE, form) if signature is None else signature
        async with httpx.AsyncClient() as client:
            return await client.post(self.local + STATUS_ROUTE, data=form, headers={"X-Twilio-Signature": signature})

    async def say(self, number: str, body: str = "", **kwargs: object) -> httpx.Response:
        response = await self.post(inbound_form(f"SM{next(self.sids):032d}", number, body, **kwargs))  # type: ignore[arg-type]
        assert response.status_code == 200, response.text
        return response


@pytest.fixture
def fake_twilio() -> Iterator[FakeTwilio]:
    fake = FakeTwilio()
    yield fake
    fake.close()


def whatsapp_settings(tmp_path: Path, hindsight_url: str, bank_prefix: str, fake: FakeTwilio,
                      **overrides: object) -> Settings:
    values: dict[str, object] = dict(
        twilio_account_sid=ACCOUNT_SID, twilio_auth_token=SecretStr(AUTH_TOKEN), twilio_whatsapp_from=BOT_NUMBER,
        twilio_base_url=fake.url, twilio_followup_template_sid=TEMPLATE, public_base_url=PUBLIC)
    values.update(overrides)
    return make_settings(tmp_path, hindsight_url, bank_prefix, **values)


async def start_whatsapp(settings: Settings, fake: FakeTwilio, png: Path) -> WhatsApp:
    app = await App.start(settings, pack_names=[])
    pack = use_echo_pack(app, png)
    clock = Clock()
    transport = WhatsAppTransport(app.conversation, clock=clock)
    server = uvicorn.Server(uvicorn.Config(create_app(transport), host="127.0.0.1", port=0, log_level="warning"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    return WhatsApp(app, transport, fake, pack, server, task, clock, iter(range(1, 10**6)))


async def stop_whatsapp(wa: WhatsApp) -> None:
    wa.server.should_exit = True
    await wa.task
    await wa.app.aclose()


@pytest.fixture
async def wa(tmp_path: Path, hindsight_url: str, bank_prefix: str, fake_twilio: FakeTwilio,
             png_image: Path) -> AsyncIterator[WhatsApp]:
    running = await start_whatsapp(whatsapp_settings(tmp_path, hindsight_url, bank_prefix, fake_twilio),
                                   fake_twilio, png_image)
    yield running
    await stop_whatsapp(running)


async def test_card_with_numbered_buttons_then_save_by_number(wa: WhatsApp) -> None:
    response = await wa.say(SRINIVAS, "note 2026-04-08 Ramesh rejected Amistar Top on price")
    assert response.text == EMPTY_TWIML and response.headers["content-type"].startswith("text/xml")
    [card] = await wa.fake.wait_sent(1)
    assert card.to == f"whatsapp:{SRINIVAS}"
    assert "Ramesh rejected" in card.body and card.body.endswith("Reply with a number:\n1. Save\n2. Edit\n3. Discard")

    await wa.say(SRINIVAS, "1")
    await wa.fake.wait_sent(2)
    assert "Saved to memory" in wa.fake.bodies_to(SRINIVAS)[-1]
    found = await wa.app.services.memory.recall(wa.app.services.bank_of("demo", "agri"),
                                                RecallRequest(query="Ramesh Amistar", tags=["kind:note"]))
    assert [m.document_id for m in found] == ["note:srinivas:2026-04-08"]

    await wa.say(SRINIVAS, "1")  # the saved card has no buttons: "1" is plain text now
    await wa.fake.wait_sent(3)
    assert len(await wa.app.services.memory.recall(wa.app.services.bank_of("demo", "agri"), RecallRequest(
        query="Ramesh Amistar", tags=["kind:note"]))) == 1


async def test_webhook_answers_before_the_work_is_done(wa: WhatsApp) -> None:
    response = await asyncio.wait_for(wa.say(SRINIVAS, "/wait"), timeout=5)
    assert response.status_code == 200 and wa.fake.sent() == []
    wa.pack.gate.set()
    [done] = await wa.fake.wait_sent(1)
    assert done.body == "done waiting"


async def test_forged_signature_is_refused_and_nothing_is_processed(wa: WhatsApp) -> None:
    form = inbound_form("SM" + "9" * 32, SRINIVAS, "note 2026-04-08 forged")
    forged = await wa.post(form, signature=sign(PUBLIC + WEBHOOK_ROUTE, form, token="not-the-token"))
    missing = await wa.post(form, signature="")
    local_url = await wa.post(form, signature=sign(wa.local + WEBHOOK_ROUTE, form))
    tampered = await wa.post({**form, "Body": "note 2026-04-08 changed"}, signature=sign(PUBLIC + WEBHOOK_ROUTE, form))
    assert [r.status_code for r in (forged, missing, local_url, tampered)] == [403, 403, 403, 403]
    await wa.transport.drain()
    await asyncio.sleep(0.1)
    assert wa.fake.sent() == [] and wa.app.services.state.open_cards() == []
    assert wa.app.services.intake.listing() == []
    # The same message, signed properly, still goes through: the forgeries did not mark it as seen.
    assert (await wa.post(form)).status_code == 200
    await wa.fake.wait_sent(1)


async def test_replayed_message_sid_is_processed_once(wa: WhatsApp) -> None:
    form = inbound_form("SM" + "7" * 32, SRINIVAS, "note 2026-07-01 once")
    first, again = await wa.post(form), await wa.post(form)
    assert first.status_code == again.status_code == 200
    await wa.transport.drain()
    await wa.fake.wait_sent(1)
    await asyncio.sleep(0.2)
    assert len(wa.fake.sent()) == 1
    assert len(wa.app.services.state.open_cards("srinivas")) == 1


async def test_voice_note_is_fetched_with_the_account_credentials(wa: WhatsApp, voice_ogg: bytes) -> None:
    url = wa.fake.add_media(voice_ogg, "audio/ogg")
    await wa.say(SRINIVAS, media=[(url, "audio/ogg")])
    [reply] = await wa.fake.wait_sent(1)
    assert reply.body.startswith(f"got voice {len(voice_ogg)} audio/ogg")
    [media] = wa.pack.media_seen
    assert media.path.read_bytes() == voice_ogg
    assert len(wa.fake.media_fetches) == 1
    assert list((wa.app.settings.state_dir / "media" / "whatsapp").iterdir()) == []


async def test_photo_with_caption_and_unsupported_video(wa: WhatsApp) -> None:
    jpeg = b"\xff\xd8\xff a jpeg"
    photo = wa.fake.add_media(jpeg, "image/jpeg")
    video = wa.fake.add_media(b"mp4", "video/mp4")
    await wa.say(SRINIVAS, "diary page", media=[(photo, "image/jpeg"), (video, "video/mp4")])
    sent = await wa.fake.wait_sent(2)
    assert sent[0].body.endswith("caption=diary page") and sent[0].body.startswith(f"got photo {len(jpeg)} image/jpeg")
    assert sent[1].body == text("en", "transport.unsupported")
    assert len(wa.fake.media_fetches) == 1


async def test_stranger_is_refused_and_media_never_fetched(wa: WhatsApp, voice_ogg: bytes) -> None:
    url = wa.fake.add_media(voice_ogg, "audio/ogg")
    await wa.say(STRANGER, "hello", media=[(url, "audio/ogg")])
    [refusal] = await wa.fake.wait_sent(1)
    assert refusal.to == f"whatsapp:{STRANGER}" and "only for registered users" in refusal.body
    assert wa.fake.media_fetches == [] and wa.pack.media_seen == []
    assert wa.app.services.intake.listing() == []
    assert wa.app.services.state.pref(f"whatsapp:{STRANGER}", "last_inbound") is None


async def test_oversized_media_is_refused(tmp_path: Path, hindsight_url: str, bank_prefix: str,
                                          fake_twilio: FakeTwilio, png_image: Path, voice_ogg: bytes) -> None:
    settings = whatsapp_settings(tmp_path, hindsight_url, bank_prefix, fake_twilio, max_media_bytes=1024)
    wa = await start_whatsapp(settings, fake_twilio, png_image)
    try:
        await wa.say(SRINIVAS, media=[(fake_twilio.add_media(voice_ogg, "audio/ogg"), "audio/ogg")])
        [refusal] = await fake_twilio.wait_sent(1)
        assert "Nothing was stored" in refusal.body and wa.pack.media_seen == []
    finally:
        await stop_whatsapp(wa)


async def test_edit_by_numbers_and_values_that_look_like_numbers(wa: WhatsApp) -> None:
    await wa.say(SRINIVAS, "note 2026-05-01 first words")
    await wa.fake.wait_sent(1)
    await wa.say(SRINIVAS, "7")
    await wa.fake.wait_sent(2)
    assert wa.fake.bodies_to(SRINIVAS)[-1] == text("en", "transport.no_such_option", number=7)
    await wa.say(SRINIVAS, "2")  # Edit
    await wa.fake.wait_sent(3)
    assert wa.fake.bodies_to(SRINIVAS)[-1].endswith("1. text\n2. date\n3. Back")
    await wa.say(SRINIVAS, "1")  # the text field
    await wa.fake.wait_sent(4)
    await wa.say(SRINIVAS, "3")  # a value, not an option: the prompt for a value had no buttons
    await wa.fake.wait_sent(5)
    card = wa.fake.bodies_to(SRINIVAS)[-1]
    assert card.startswith("Note dated 2026-05-01: 3") and card.endswith("1. Save\n2. Edit\n3. Discard")


async def test_quick_reply_button_payload_is_a_callback(wa: WhatsApp) -> None:
    await wa.say(SRINIVAS, "note 2026-06-02 via template button")
    await wa.fake.wait_sent(1)
    [card] = wa.app.services.state.open_cards("srinivas")
    await wa.say(SRINIVAS, "Discard", ButtonPayload=f"c:d:{card.card_id}", ButtonText="Discard")
    await wa.fake.wait_sent(2)
    assert "Discarded" in wa.fake.bodies_to(SRINIVAS)[-1]


async def test_long_replies_split_and_images_sent_by_public_url(wa: WhatsApp, png_image: Path) -> None:
    await wa.say(SRINIVAS, "/long 150")  # 150 lines of 27 characters: three pieces
    sent = await wa.fake.wait_sent(3)
    await asyncio.sleep(0.1)
    assert all(len(m.body) <= 1600 for m in sent) and len(wa.fake.sent()) == 3
    assert "\n".join(m.body for m in sent).splitlines() == [f"line {i:04d} of a long answer" for i in range(150)]
    count = len(sent)
    await wa.say(SRINIVAS, "/picture")
    sent = await wa.fake.wait_sent(count + 1)
    [url] = sent[-1].media_urls
    assert sent[-1].body == "caption for Srinivas Reddy" and url.startswith(f"{PUBLIC}/whatsapp/media/")
    async with httpx.AsyncClient() as client:
        served = await client.get(wa.local + url.removeprefix(PUBLIC))
        missing = await client.get(wa.local + "/whatsapp/media/../../state/conversation.sqlite")
    assert served.status_code == 200 and served.content == png_image.read_bytes()
    assert missing.status_code == 404


async def test_followup_inside_the_window_is_free_form_outside_uses_the_template(wa: WhatsApp) -> None:
    user = wa.app.services.registry.by_id("srinivas")
    assert user is not None
    await wa.say(SRINIVAS, "/help")
    await wa.fake.wait_sent(1)
    question = Reply(text="How did the copper fungicide work\non Ramesh's tomato?")
    inside = await wa.app.services.outbound.send(user, [question], "followup")
    assert inside.delivered and inside.transport == "whatsapp"
    free = wa.fake.sent()[-1]
    assert free.body == question.text and free.content_sid is None

    wa.clock.offset = timedelta(hours=25)
    outside = await wa.app.services.outbound.send(user, [question], "followup")
    assert outside.delivered
    template = wa.fake.sent()[-1]
    assert template.to == f"whatsapp:{SRINIVAS}" and template.content_sid == TEMPLATE and template.body is None
    assert template.content_variables == '{"1": "How did the copper fungicide work on Ramesh\'s tomato?"}'


async def test_followup_outside_the_window_without_a_template_is_logged(
        tmp_path: Path, hindsight_url: str, bank_prefix: str, fake_twilio: FakeTwilio, png_image: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    settings = whatsapp_settings(tmp_path, hindsight_url, bank_prefix, fake_twilio, twilio_followup_template_sid=None)
    wa = await start_whatsapp(settings, fake_twilio, png_image)
    try:
        user = wa.app.services.registry.by_id("lakshmi")
        assert user is not None
        with caplog.at_level(logging.WARNING):
            delivery = await wa.app.services.outbound.send(user, [Reply(text="follow-up")], "followup")
        assert not delivery.delivered and fake_twilio.sent() == []
        assert any("more than 24 hours old" in r.getMessage() and "lakshmi" in r.getMessage() for r in caplog.records)
    finally:
        await stop_whatsapp(wa)


async def test_a_twilio_500_is_retried_and_the_reply_delivered_once(wa: WhatsApp) -> None:
    wa.fake.fail_next = 1
    await wa.say(SRINIVAS, "/help")
    [refused] = await wa.fake.wait_sent(1)
    assert refused.body.startswith("What I can do")  # refused by Twilio with a 500: kept for a retry
    outbox = wa.app.services.replies.outbox
    for _ in range(100):
        [row] = outbox.listing()
        if row.attempts == 1:
            break
        await asyncio.sleep(0.05)
    assert row.state == "pending" and row.next_attempt_at is not None and "500" in (row.last_error or "")
    report = await wa.app.services.replies.flush(datetime.now(timezone.utc) + timedelta(minutes=1))
    assert report.sent == 1
    sent = wa.fake.sent()
    assert [m.body for m in sent] == [refused.body, refused.body]  # the same reply, delivered once
    [(sid, _)] = wa.fake.accepted
    [row] = outbox.listing()
    assert row.state == "sent" and row.provider_ids == [sid]
    assert (await wa.app.services.replies.flush(datetime.now(timezone.utc) + timedelta(hours=1))).sent == 0
    assert wa.app.services.intake.listing()[0].state == "done"


async def test_a_twilio_400_is_not_retried_and_is_recorded(wa: WhatsApp) -> None:
    wa.fake.fail_next, wa.fake.fail_status = 1, 400
    await wa.say(SRINIVAS, "/help")
    await wa.fake.wait_sent(1)
    outbox = wa.app.services.replies.outbox
    for _ in range(100):
        [row] = outbox.listing()
        if row.state != "pending":
            break
        await asyncio.sleep(0.05)
    assert row.state == "failed" and row.attempts == 1 and "refused: Twilio 400" in (row.last_error or "")
    assert (await wa.app.services.replies.flush(datetime.now(timezone.utc) + timedelta(hours=1))).sent == 0
    assert len(wa.fake.sent()) == 1
    assert wa.app.services.intake.listing()[0].state == "done"  # given up, and recorded as such


async def test_every_send_asks_for_status_and_only_signed_callbacks_count(wa: WhatsApp) -> None:
    await wa.say(SRINIVAS, "/help")
    [reply] = await wa.fake.wait_sent(1)
    assert reply.status_callback == PUBLIC + STATUS_ROUTE
    [(sid, _)] = wa.fake.accepted
    outbox = wa.app.services.replies.outbox
    for _ in range(100):
        if outbox.listing()[0].state == "sent":
            break
        await asyncio.sleep(0.05)
    forged = await wa.status(sid, "undelivered", "63016", signature="bm90IGEgc2lnbmF0dXJl")
    assert forged.status_code == 403 and outbox.listing()[0].state == "sent"
    unsigned = await wa.status(sid, "delivered", signature="")
    assert unsigned.status_code == 403 and outbox.listing()[0].state == "sent"
    signed = await wa.status(sid, "delivered")
    assert signed.status_code == 200 and outbox.listing()[0].state == "delivered"
    assert (await wa.status("SM" + "9" * 32, "delivered")).status_code == 200  # not ours: ignored


async def test_a_followup_undelivered_outside_the_window_goes_again_as_the_template(wa: WhatsApp) -> None:
    user = wa.app.services.registry.by_id("srinivas")
    assert user is not None
    await wa.say(SRINIVAS, "/help")
    await wa.fake.wait_sent(1)
    question = Reply(text="How did the copper fungicide work\non Ramesh's tomato?")
    assert (await wa.app.services.outbound.send(user, [question], "followup")).delivered
    free_sid, free = wa.fake.accepted[-1]
    assert free["Body"] == question.text and free["StatusCallback"] == PUBLIC + STATUS_ROUTE
    # The window had closed on WhatsApp's side after all: Twilio reports 63016.
    assert (await wa.status(free_sid, "undelivered", "63016")).status_code == 200
    template_sid, template = wa.fake.accepted[-1]
    assert template["ContentSid"] == TEMPLATE and template_sid != free_sid
    outbox = wa.app.services.replies.outbox
    [row] = [r for r in outbox.listing() if r.purpose == "followup"]
    assert row.state == "sent" and row.provider_ids == [template_sid] and row.last_error.startswith("template")
    # The template is not delivered either: flagged for the operator, never recorded as sent.
    await wa.status(template_sid, "failed", "63049")
    [row] = [r for r in outbox.listing() if r.purpose == "followup"]
    assert row.state == "flagged" and "failed (error 63049)" in (row.last_error or "")
    assert len(wa.fake.accepted) == 3  # no third try


async def test_an_undelivered_reply_without_a_template_is_flagged_in_the_queue(
        tmp_path: Path, hindsight_url: str, bank_prefix: str, fake_twilio: FakeTwilio, png_image: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    settings = whatsapp_settings(tmp_path, hindsight_url, bank_prefix, fake_twilio, twilio_followup_template_sid=None)
    wa = await start_whatsapp(settings, fake_twilio, png_image)
    try:
        await wa.say(SRINIVAS, "/help")
        await fake_twilio.wait_sent(1)
        [(sid, _)] = fake_twilio.accepted
        outbox = wa.app.services.replies.outbox
        for _ in range(100):
            if outbox.listing()[0].state == "sent":
                break
            await asyncio.sleep(0.05)
        await wa.status(sid, "undelivered", "63016")
        [row] = outbox.listing()
        assert row.state == "flagged" and row.last_error == "WhatsApp undelivered (error 63016)"
        assert len(fake_twilio.accepted) == 1
        await queue_cli._run(wa.app, argparse.Namespace(action="list", all=False, intake_id=None))
        assert f"reply flagged  {row.key}#0" in capsys.readouterr().out
    finally:
        await stop_whatsapp(wa)


async def test_a_delivery_acknowledged_before_a_crash_is_handled_after_restart(
        tmp_path: Path, hindsight_url: str, bank_prefix: str, fake_twilio: FakeTwilio, png_image: Path) -> None:
    settings = whatsapp_settings(tmp_path, hindsight_url, bank_prefix, fake_twilio)
    first = await start_whatsapp(settings, fake_twilio, png_image)
    await first.transport.loops.stop()  # the workers die: what Twilio was told arrived must not be lost
    await first.say(SRINIVAS, "note 2026-04-18 blight spread to 40 percent")
    assert fake_twilio.sent() == []
    first.server.should_exit = True
    await first.task
    await first.app.aclose()

    second = await start_whatsapp(settings, fake_twilio, png_image)
    try:
        [card] = await fake_twilio.wait_sent(1)
        assert "blight spread to 40 percent" in card.body and card.body.endswith("3. Discard")
        await second.transport.drain()  # the card goes out before the delivery is marked handled
        assert second.app.services.state.inbox_pending("whatsapp") == []
    finally:
        await stop_whatsapp(second)
