"""Secrets, transcripts and invoices never reach the logs: real flows with a Groq key (against fake Groq),
a voice note, a typed hearing note and an invoice PDF, every logger captured at DEBUG."""

import json
import logging
from pathlib import Path

import pytest

from bot.core.messages import Media
from bot.core.registry import User
from handlers.ap.demo import load_sample
from tests.ap.documents import invoice_lines, make_pdf
from tests.fakes.groq import FakeGroq
from tests.isolation.conftest import press, say, seeded_users, start_app
from tests.voice import spoken_ogg, voice_tools_missing

pytestmark = pytest.mark.hindsight

KEY = "gsk-test-SECRET"
TRANSCRIPT = "Ramesh Goud chilli leaf blight twenty percent, Blitox accepted, tamarind grove by the well"
HEARING_NOTE = "24/11 Gorle partition - cross examination of PW2 by counsel Nagabhushanam. N.D. 2/12"
_FORMAT = logging.Formatter("%(name)s %(levelname)s %(message)s")


def _users() -> list[User]:
    return seeded_users() + [
        User(user_id="logger-officer", name="Log Officer", role="officer", pack="agri", tenant="isolog",
             officer_id="O01", territories=["chevella"]),
        User(user_id="logger-clerk", name="Log Clerk", role="clerk", pack="ap", tenant="isolog"),
    ]


def _voice(folder: Path) -> Path:
    if voice_tools_missing():
        pytest.skip("espeak-ng and ffmpeg are needed to make a voice note")
    return spoken_ogg(folder, "Ramesh chilli blight")


async def test_no_log_record_holds_the_key_a_transcript_or_an_invoice(
        tmp_path: Path, hindsight_url: str, bank_prefix: str, fake_groq: FakeGroq,
        caplog: pytest.LogCaptureFixture) -> None:
    for name in [None, *logging.root.manager.loggerDict]:
        caplog.set_level(logging.DEBUG, logger=name)
    invoice = load_sample("ravi_new_account")
    app = await start_app(tmp_path, hindsight_url, bank_prefix, _users(), groq=fake_groq, key=KEY)
    try:
        fake_groq.transcripts.append(TRANSCRIPT)
        fake_groq.chat_script.append(json.dumps({
            "farmer_id": "F001", "village": "chevella", "crop": "chilli", "issue": "leaf-blight",
            "severity_pct": 20, "products": [{"product_id": "P001", "reaction": "accepted"}],
            "note": TRANSCRIPT}))
        ogg = _voice(tmp_path)
        [card] = await app.conversation.handle(say("logger-officer", media=Media(
            kind="voice", path=ogg, mime_type="audio/ogg", size_bytes=ogg.stat().st_size)))
        assert TRANSCRIPT in card.text  # the officer sees it; the logs must not
        saved = await app.conversation.handle(say("logger-officer", callback=press(card, "Save")))
        assert "Saved" in saved[0].text

        fake_groq.chat_script.append(json.dumps({"entries": [{
            "case_id": "gorle", "kind": "hearing", "hearing_date": "2026-11-24", "next_date": "2026-12-02",
            "text": "cross examination of PW2 by counsel Nagabhushanam"}]}))
        [_, hearing] = await app.conversation.handle(say("divya", HEARING_NOTE))
        assert "Nagabhushanam" in hearing.text

        body = json.loads(invoice.model_dump_json(exclude={"source"}))
        fake_groq.chat_script.append(json.dumps({"is_invoice": True, "invoice": body}))
        pdf = make_pdf(tmp_path / "invoice.pdf", invoice_lines(invoice))
        [decision] = await app.conversation.handle(say("logger-clerk", media=Media(
            kind="document", path=pdf, mime_type="application/pdf", size_bytes=pdf.stat().st_size)))
        assert invoice.invoice_number in decision.text and "9,58,632" in decision.text
    finally:
        await app.aclose()

    assert len(fake_groq.chat_requests()) == 3 and len(fake_groq.transcription_requests()) == 1
    assert any(r.levelno == logging.DEBUG for r in caplog.records), "DEBUG records must be captured"
    forbidden = [KEY, TRANSCRIPT, "tamarind", "Nagabhushanam", invoice.invoice_number, str(invoice.total),
                 "9,58,632", "958632", invoice.bank.account_number if invoice.bank else "-"]
    leaks = sorted({(f, r.name) for r in caplog.records for f in forbidden if f in _FORMAT.format(r)})
    assert leaks == [], leaks
