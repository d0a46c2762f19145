"""End-to-end over WhatsApp with the real packs: signed Twilio webhook POSTs into the ASGI app on uvicorn, media
from a fake Twilio media host, replies recorded by a fake Twilio REST endpoint.

agri (in Telugu): a real OGG voice note -> Groq transcription (faked) -> visit card with numbered options ->
"1" saves it -> retained -> /brief cites it.
legal: a certified order sheet PDF -> a hearing card -> "1" saves it -> "what happened last time?".
ap: an invoice PDF with a repeat quantity mismatch -> EXCEPTION recommending the remembered correction ->
"1" (Approve) overrides the agent and is retained as a resolution.
"""

import asyncio
import itertools
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import uvicorn
from pydantic import SecretStr

from bot.core.app import App
from bot.services.i18n import show_date, text
from bot.transports.whatsapp.webhook import WEBHOOK_ROUTE, create_app
from bot.transports.whatsapp.transport import WhatsAppTransport
from memory import RecallRequest, tags
from handlers.ap.invoice_memory import document_id
from tests.conftest import make_settings
from tests.fakes.groq import FakeGroq, multipart_field
from tests.fakes.twilio import (
    ACCOUNT_SID,
    AUTH_TOKEN,
    BOT_NUMBER,
    FakeTwilio,
    inbound_form,
    sign,
)
from tests.registers import seed_tenants
from tests.transports.walks import (
    invoice_pdf,
    order_sheet_pdf,
    visit_draft,
    walk_registry,
    walk_tenant,
)

pytestmark = pytest.mark.hindsight

PUBLIC = "https://smriti.example.org"
LAKSHMI, ADITYA, ANITA = "+919800000002", "+919800000101", "+919800000201"


@dataclass
class Walk:
    app: App
    fake: FakeTwilio
    groq: FakeGroq
    tenant: str
    files: Path
    local: str
    sids: Iterator[int]

    async def say(self, number: str, body: str = "", media: list[tuple[str, str]] | None = None) -> None:
        form = inbound_form(f"SM{next(self.sids):032d}", number, body, media)
        async with httpx.AsyncClient() as client:
            response = await client.post(self.local + WEBHOOK_ROUTE, data=form,
                                         headers={"X-Twilio-Signature": sign(PUBLIC + WEBHOOK_ROUTE, form)})
        assert response.status_code == 200

    async def next_bodies(self, number: str, count: int, timeout: float = 60.0) -> list[str]:
        """Wait for `count` more messages to this number; return them."""
        before = len(self.fake.bodies_to(number))
        while len(self.fake.bodies_to(number)) < before + count:
            await self.fake.wait_sent(len(self.fake.sent()) + 1, timeout=timeout)
        return self.fake.bodies_to(number)[before:before + count]

    async def body_starting(self, number: str, prefix: str, timeout: float = 60.0) -> str:
        while not any(b.startswith(prefix) for b in self.fake.bodies_to(number)):
            await self.fake.wait_sent(len(self.fake.sent()) + 1, timeout=timeout)
        return next(b for b in self.fake.bodies_to(number) if b.startswith(prefix))


@pytest.fixture(scope="module")
async def walk(tmp_path_factory: pytest.TempPathFactory, hindsight_url: str, bank_prefix: str) -> AsyncIterator[Walk]:
    """The WhatsApp webhook app with all three packs, on a tenant of its own, Groq faked."""
    fake, groq, tenant = FakeTwilio(), FakeGroq(), walk_tenant()
    settings = make_settings(
        tmp_path_factory.mktemp("whatsapp-walk"), hindsight_url, bank_prefix, default_tenant=tenant,
        twilio_account_sid=ACCOUNT_SID, twilio_auth_token=SecretStr(AUTH_TOKEN), twilio_whatsapp_from=BOT_NUMBER,
        twilio_base_url=fake.url, public_base_url=PUBLIC, groq_api_key=SecretStr("test-key"), groq_base_url=groq.url)
    app = await App.start(settings, registry=walk_registry(tenant))
    seed_tenants(app.services.database, {tenant})  # a wide-scoped fixture: seeded here
    assert set(app.packs) == {"agri", "legal", "ap"}
    await app.packs["ap"].load_seeds(tenant)
    server = uvicorn.Server(uvicorn.Config(create_app(WhatsAppTransport(app.conversation)), host="127.0.0.1",
                                           port=0, log_level="warning"))
    serving = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    local = f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
    yield Walk(app, fake, groq, tenant, tmp_path_factory.mktemp("files"), local, itertools.count(1))
    server.should_exit = True
    await serving
    await app.aclose()
    groq.close()
    fake.close()


async def test_agri_telugu_voice_note_saved_by_number_then_brief(walk: Walk, voice_ogg: bytes) -> None:
    groq = walk.groq
    groq.transcripts.append("వెంకటేష్ యాదవ్ మిరప పంటలో ఆకు ఎండు తెగులు ఉంది. Blitox 50 చెప్పాను, ఒప్పుకున్నాడు.")
    groq.chat_script.append(visit_draft("F002", "chilli", "leaf-blight", "P001", "accepted", severity_pct=15))
    groq.default_chat = "not json"

    await walk.say(LAKSHMI, media=[(walk.fake.add_media(voice_ogg, "audio/ogg"), "audio/ogg")])
    [card] = await walk.next_bodies(LAKSHMI, 1)
    assert "F002" in card and "P001" in card
    options = [f"{i}. {text('te', f'core.button_{name}')}" for i, name in enumerate(("save", "edit", "discard"), 1)]
    assert card.endswith("\n".join([text("te", "transport.numbered_hint"), *options]))
    [transcription] = groq.transcription_requests()[-1:]
    assert multipart_field(transcription, "language") == "te"  # Lakshmi's language setting
    [fetch] = walk.fake.media_fetches[-1:]
    assert fetch.headers["Authorization"].startswith("Basic ")

    await walk.say(LAKSHMI, "1")
    [saved] = await walk.next_bodies(LAKSHMI, 1)
    assert text("te", "core.card_saved") in saved
    bank = walk.app.services.bank_of(walk.tenant, "agri")
    found = await walk.app.services.memory.recall(bank, RecallRequest(query="Venkatesh Blitox leaf blight",
                                                                      tags=["kind:visit"]))
    [visit] = [m for m in found if m.document_id and m.document_id.startswith("visit:F002-")]
    assert "Blitox" in visit.text  # memories stay in English whatever the note's language

    await walk.say(LAKSHMI, "/brief F002")
    brief = (await walk.next_bodies(LAKSHMI, 1))[-1]
    while "సారాంశం" not in brief:  # a follow-up notice may come first
        brief = (await walk.next_bodies(LAKSHMI, 1))[-1]
    assert show_date("te", visit.event_date) in brief and visit.document_id not in brief


async def test_legal_order_sheet_pdf_saved_by_number_then_last_time(walk: Walk) -> None:
    walk.groq.default_chat = "not json"  # the model's split and answer fail: the rules and the template answer
    url = walk.fake.add_media(order_sheet_pdf(), "application/pdf")
    await walk.say(ADITYA, media=[(url, "application/pdf")])
    found, card = await walk.next_bodies(ADITYA, 2)
    assert found.startswith("I found 1 entr")
    assert card.startswith("Mahesh cheque case — hearing on 7 Jan 2026") and "Next date: 18 Feb 2026" in card
    assert card.endswith("Reply with a number:\n1. Save\n2. Edit\n3. Discard")

    await walk.say(ADITYA, "1")
    [saved] = await walk.next_bodies(ADITYA, 1)
    assert "Saved to memory" in saved

    await walk.say(ADITYA, "what happened last time in the Mahesh cheque case?")
    [answer] = await walk.next_bodies(ADITYA, 1)
    assert answer.startswith("Last hearing in Mahesh cheque case: 7 Jan 2026.")
    assert "Next date: 18 Feb 2026." in answer and "7 Jan 2026 · " in answer


async def test_ap_repeat_mismatch_pdf_then_clerk_approves_by_number_with_a_reason(walk: Walk) -> None:
    walk.groq.default_chat = "not json"
    url = walk.fake.add_media(invoice_pdf(walk.files, "abc_repeat_mismatch"), "application/pdf")
    await walk.say(ANITA, media=[(url, "application/pdf")])
    [decision] = await walk.next_bodies(ANITA, 1)
    assert decision.startswith("EXCEPTION") and "ABC/26-27/007" in decision
    assert "RECURRING_MISMATCH" in decision and "Request a corrected invoice from ABC Technologies" in decision
    assert decision.endswith("Reply with a number:\n1. Approve\n2. Hold\n3. Send to review")

    await walk.say(ANITA, "1")
    [asked] = await walk.next_bodies(ANITA, 1)
    assert "reply with a short reason" in asked  # an approval over the agent says why before it is recorded
    await walk.say(ANITA, "Short supply agreed with stores, credit note to follow")
    [answer] = await walk.next_bodies(ANITA, 1)
    assert "overriding the agent's EXCEPTION" in answer
    bank = walk.app.services.bank_of(walk.tenant, "ap")
    stored = await walk.app.services.memory.list_documents(bank, tags=[tags.record_type("clerk-resolution")])
    assert document_id("V002", "ABC/26-27/007") in {d.document_id for d in stored}  # the invoice's one memory
