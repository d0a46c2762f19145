"""End-to-end over Telegram with the real packs: the real PTB Application long-polls the fake Bot API.

agri: a real OGG voice note -> Groq transcription (faked) -> visit card -> Save -> retained -> /brief cites it.
legal: a diary page sent as a file -> OCR -> one card per hearing -> Save all -> "what happened last time?".
ap: an invoice PDF -> decision card with the vendor memory -> the clerk's Hold is recorded.
"""

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.core.app import App
from bot.services.i18n import show_date
from bot.transports.telegram.app import TelegramTransport
from memory import RecallRequest
from tests.conftest import make_settings
from tests.fakes.groq import FakeGroq, multipart_field
from tests.fakes.telegram import TOKEN, FakeTelegram
from tests.registers import seed_tenants
from tests.transports.walks import (
    DIARY_FILE,
    diary_page,
    invoice_pdf,
    visit_draft,
    walk_registry,
    walk_tenant,
)

pytestmark = pytest.mark.hindsight

SRINIVAS, ADITYA, ANITA = 1001, 2001, 3001


@dataclass
class Walk:
    app: App
    fake: FakeTelegram
    groq: FakeGroq
    tenant: str
    files: Path

    def texts_to(self, chat_id: int) -> list[str]:
        return [c.params["text"] for c in self.fake.sent("sendMessage") if c.params["chat_id"] == chat_id]

    async def next_texts(self, chat_id: int, count: int, timeout: float = 60.0) -> list[str]:
        """Wait for `count` more messages to this chat; return them."""
        before = len(self.texts_to(chat_id))
        while len(self.texts_to(chat_id)) < before + count:
            await self.fake.wait_for("sendMessage", len(self.fake.sent("sendMessage")) + 1, timeout=timeout)
        return self.texts_to(chat_id)[before:before + count]

    async def text_starting(self, chat_id: int, prefix: str, timeout: float = 60.0) -> str:
        """Wait for a message to this chat that starts with `prefix`; return it."""
        while not any(t.startswith(prefix) for t in self.texts_to(chat_id)):
            await self.fake.wait_for("sendMessage", len(self.fake.sent("sendMessage")) + 1, timeout=timeout)
        return next(t for t in self.texts_to(chat_id) if t.startswith(prefix))


@pytest.fixture(scope="module")
async def walk(tmp_path_factory: pytest.TempPathFactory, hindsight_url: str, bank_prefix: str) -> AsyncIterator[Walk]:
    """One bot with all three packs, on a tenant of its own, with Groq faked (a key is needed for Whisper)."""
    fake, groq, tenant = FakeTelegram(), FakeGroq(), walk_tenant()
    home = tmp_path_factory.mktemp("telegram-walk")
    settings = make_settings(home, hindsight_url, bank_prefix, default_tenant=tenant,
                             telegram_bot_token=SecretStr(TOKEN), telegram_base_url=fake.url,
                             groq_api_key=SecretStr("test-key"), groq_base_url=groq.url)
    app = await App.start(settings, registry=walk_registry(tenant))
    seed_tenants(app.services.database, {tenant})  # a wide-scoped fixture: seeded here
    assert set(app.packs) == {"agri", "legal", "ap"}
    await app.packs["ap"].load_seeds(tenant)
    transport = TelegramTransport(app.conversation, poll_timeout_s=1.0)
    await transport.start_polling()
    yield Walk(app, fake, groq, tenant, tmp_path_factory.mktemp("files"))
    await transport.stop()
    await app.aclose()
    groq.close()
    fake.close()


async def test_agri_voice_note_to_saved_visit_to_cited_brief(walk: Walk, voice_ogg: bytes) -> None:
    fake, groq = walk.fake, walk.groq
    groq.transcripts.append("Visited Ramesh Goud in Chevella. His chilli has leaf blight, about 20 percent. "
                            "I advised Amistar Top but he said ekkuva dhara, too expensive.")
    groq.chat_script.append(visit_draft("F001", "chilli", "leaf-blight", "P006", "rejected", "price"))
    groq.default_chat = "not json"  # the brief's model call fails to validate: the pack composes by template

    fake.send_voice(SRINIVAS, voice_ogg)
    [card] = await walk.next_texts(SRINIVAS, 1)
    assert 'I heard: "Visited Ramesh Goud' in card
    assert "Ramesh Goud (F001)" in card and "Amistar Top (P006): rejected" in card
    [transcription] = groq.transcription_requests()
    assert multipart_field(transcription, "model") == "whisper-large-v3"
    assert multipart_field(transcription, "language") == "en"
    assert b"OggS" in transcription.body or b"RIFF" in transcription.body  # the voice note, as sent or converted

    card_message = fake.last_message_with_buttons(SRINIVAS)
    fake.press(SRINIVAS, card_message, fake.buttons(card_message)["Save"])
    [saved] = await fake.wait_for("editMessageText")
    assert saved.params["message_id"] == card_message and "Saved to memory" in saved.params["text"]

    bank = walk.app.services.bank_of(walk.tenant, "agri")
    found = await walk.app.services.memory.recall(bank, RecallRequest(query="Ramesh Amistar Top leaf blight",
                                                                      tags=["kind:visit"]))
    [visit] = [m for m in found if m.document_id and m.document_id.startswith("visit:F001-")]
    assert "Amistar Top" in visit.text

    fake.send_text(SRINIVAS, "/brief Ramesh")
    brief = await walk.text_starting(SRINIVAS, "Brief: Ramesh Goud (F001)")
    assert "memory ON" in brief
    # Cited by its date and the farmer's name, never by the record id.
    assert f"{show_date('en', visit.event_date)} · visit to Ramesh Goud" in brief and visit.document_id not in brief
    assert f"turned down on {show_date('en', visit.event_date)}" in brief


async def test_legal_diary_page_to_saved_hearings_to_last_time(walk: Walk) -> None:
    fake, groq, page = walk.fake, walk.groq, diary_page()
    groq.chat_script.append(page.text)  # the vision model reads the page
    groq.default_chat = "not json"  # its split and its answer fail to validate: the rules and the template take over
    fake.send_document(ADITYA, page.png, DIARY_FILE, "image/png")
    found, gorle, seabreeze, hint = await walk.next_texts(ADITYA, 4)
    assert any(b'"image_url"' in r.body for r in groq.chat_requests())  # the page went to the vision model
    assert found.startswith("I found 2 entr") and DIARY_FILE in found
    assert gorle.startswith("Gorle — hearing on 18 Jun 2025") and "Next date: 16 Jul 2025" in gorle
    assert seabreeze.startswith("Seabreeze — hearing on 18 Jun 2025")
    hint_message = fake.last_message_with_buttons(ADITYA)
    [(label, data)] = fake.buttons(hint_message).items()
    assert label == "Save all (2)"

    edits_before = len(fake.sent("editMessageText"))
    fake.press(ADITYA, hint_message, data)
    [summary] = await walk.next_texts(ADITYA, 1)
    assert summary.startswith("Saved 2")
    edits = fake.sent("editMessageText")[edits_before:]
    assert len(edits) == 2 and all("Saved to memory" in e.params["text"] for e in edits)  # both cards, in place

    fake.send_text(ADITYA, "what happened last time in Gorle?")
    [answer] = await walk.next_texts(ADITYA, 1)
    assert answer.startswith("Last hearing in Gorle: 18 Jun 2025.")
    assert f"18 Jun 2025 · {DIARY_FILE} · Adv. Aditya Varma" in answer
    assert "Seabreeze" not in answer


async def test_ap_invoice_pdf_to_decision_card_to_clerk_hold(walk: Walk) -> None:
    fake = walk.fake
    walk.groq.default_chat = "not json"  # reading the invoice's text layer needs no model
    fake.send_document(ANITA, invoice_pdf(walk.files), "ravi_steel_0007.pdf", "application/pdf")
    # A blocked payment's card comes as a photo (the vendor's payments by account) with the card as caption.
    [photo] = await fake.wait_for("sendPhoto", len(fake.sent("sendPhoto")) + 1, timeout=60)
    assert int(photo.params["chat_id"]) == ANITA and photo.files, "the chart is uploaded"
    decision = photo.params["caption"]
    assert decision.startswith("PAYMENT BLOCKED") and "RSC/26-27/0007" in decision
    assert "14 clean payments to ••••4821" in decision and "Suresh Kumar" in decision
    card_message = fake.last_message_with_buttons(ANITA)
    assert list(fake.buttons(card_message)) == ["Approve", "Hold", "Send to review"]

    fake.press(ANITA, card_message, fake.buttons(card_message)["Hold"])
    [recorded] = await walk.next_texts(ANITA, 1)
    assert recorded.startswith("Hold: RSC/26-27/0007 is now on hold (by anita), in line with the agent's "
                               "PAYMENT BLOCKED.")
    fake.press(ANITA, card_message, fake.buttons(card_message)["Hold"])  # a second tap changes nothing
    [again] = await walk.next_texts(ANITA, 1)
    assert again == "RSC/26-27/0007 is already on hold (by anita); nothing changed."
    fake.press(ANITA, card_message, fake.buttons(card_message)["Approve"])  # releasing a block says why first
    [asked] = await walk.next_texts(ANITA, 1)
    assert "reply with a short reason" in asked
