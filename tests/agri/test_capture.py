"""Capturing visits: a real OGG/Opus voice note through conversion and fake Groq Whisper (with the
officer's language hint and the tenant's names as the prompt), the voice path with no speech engine, the structurer's retry -> fallback -> typed error against
fake Groq chat, and Save retaining a tagged plain-English narrative in the real local Hindsight."""

import json
from datetime import date
from pathlib import Path

import pytest

from bot.core.app import App
from bot.services.i18n import text
from bot.services.llm import ChatModel, StructuringFailed
from bot.core.messages import Media
from bot.core.registry import Registry
from handlers.agri.register import FieldBook
from handlers.agri.structure import llm_visit
from memory import RecallRequest
from tests.agri.conftest import CAPTURE_TENANT, agri_users, button, say, settings_with_groq
from tests.conftest import make_settings
from tests.fakes.groq import FakeGroq, multipart_field
from tests.voice import spoken_ogg, voice_tools_missing

pytestmark = pytest.mark.hindsight

GOOD_VISIT = json.dumps({
    "farmer_id": "F001", "village": "chevella", "crop": "chilli", "stage": "fruiting", "issue": "leaf-blight",
    "severity": "medium", "severity_pct": 20, "neighbour_evidence": True, "next_step": "Check in two weeks.",
    "products": [{"product_id": "P001", "reaction": "accepted", "objection": None},
                 {"product_id": "P999", "reaction": "accepted", "objection": None}],
    "note": "Ramesh agreed to Blitox after seeing a neighbour's field.", "visit_date": "2026-09-30",
})


@pytest.fixture(scope="module")
def voice_note(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real voice note as Telegram sends it: speech from espeak-ng, OGG container, Opus codec."""
    if voice_tools_missing():
        pytest.skip("espeak-ng and ffmpeg are needed to make a voice note")
    return spoken_ogg(tmp_path_factory.mktemp("voice"), "Ramesh chilli blight twenty percent, Blitox accepted",
                      bitrate="24k")


async def _groq_app(tmp_path: Path, hindsight_url: str, bank_prefix: str, fake_groq: FakeGroq) -> App:
    settings = settings_with_groq(tmp_path, hindsight_url, bank_prefix, fake_groq.url)
    return await App.start(settings, registry=Registry(agri_users()), pack_names=["agri"])


async def test_voice_note_is_converted_transcribed_with_language_hint_and_carded(
        tmp_path: Path, hindsight_url: str, bank_prefix: str, fake_groq: FakeGroq, voice_note: Path) -> None:
    fake_groq.transcripts.append("రమేష్ గౌడ్ మిరపలో ఆకు ఎండు తెగులు 20 శాతం. బ్లైటాక్స్ సరే అన్నాడు.")
    fake_groq.chat_script.extend([500] * 4)  # chat is down (the SDK retries once): the rules read the transcript
    app = await _groq_app(tmp_path, hindsight_url, bank_prefix, fake_groq)
    try:
        media = Media(kind="voice", path=voice_note, mime_type="audio/ogg", size_bytes=voice_note.stat().st_size)
        [card] = await app.conversation.handle(say("sita", media=media))
    finally:
        await app.aclose()
    [request] = fake_groq.transcription_requests()
    assert multipart_field(request, "language") == "te" and multipart_field(request, "model") == "whisper-large-v3"
    assert b"RIFF" in request.body and b"WAVE" in request.body  # converted to WAV before upload
    prompt = multipart_field(request, "prompt") or ""
    assert "రమేష్ గౌడ్" in prompt and "Blitox 50" in prompt  # her farmers in her language, the catalogue's names
    assert "రమేష్ గౌడ్ (F001)" in card.text and "బ్లైటాక్స్" in card.text and "20%" in card.text
    assert [b.label for b in card.flat_buttons()] == ["సేవ్", "మార్చు", "తొలగించు"]


async def test_voice_note_with_no_speech_engine_is_held_with_its_time_and_counted(
        tmp_path: Path, hindsight_url: str, bank_prefix: str, voice_note: Path) -> None:
    settings = make_settings(tmp_path, hindsight_url, bank_prefix, speech="groq")  # groq chosen, no key
    app = await App.start(settings, registry=Registry(agri_users()), pack_names=["agri"])
    try:
        assert app.services.speech is None
        media = Media(kind="voice", path=voice_note, mime_type="audio/ogg", size_bytes=voice_note.stat().st_size)
        sent = say("ravi", media=media)
        [reply] = await app.conversation.handle(sent)
        [held] = app.services.intake.unprocessed_for("ravi")
        assert held.state == "held" and held.next_attempt_at is None and held.received_at == sent.received_at
        assert held.incoming.media is not None and held.incoming.media.path.read_bytes() == voice_note.read_bytes()
        assert "not set up" in reply.text and "/pending" in reply.text and "try again in" not in reply.text
        [pending] = await app.conversation.handle(say("ravi", "/pending"))
        assert pending.text.startswith("1 of your messages") and "voice note" in pending.text
        assert "waiting for speech-to-text" in pending.text
        [other] = await app.conversation.handle(say("sita", "/pending"))
        assert other.text == text("te", "core.pending_none")
    finally:
        await app.aclose()


async def test_structurer_retries_with_the_error_then_falls_back_then_fails_typed(
        fake_groq: FakeGroq, book: FieldBook) -> None:
    chat = ChatModel("k", "primary-model", "fallback-model", base_url=fake_groq.url)
    try:
        fake_groq.chat_script.extend(["not json at all", GOOD_VISIT])
        visit = await llm_visit(chat, book, "Ramesh blitox ok", "O01", date(2026, 9, 30), ["chevella"])
        assert visit.farmer_id == "F001" and [a.product_id for a in visit.products] == ["P001"]
        retry = fake_groq.chat_requests()[1].json()
        assert retry["model"] == "primary-model" and "previous answer was invalid" in retry["messages"][-1]["content"]

        fake_groq.chat_script.extend(['{"farmer_id": "F001"', '{"severity": "extreme"}', GOOD_VISIT])
        await llm_visit(chat, book, "Ramesh blitox ok", "O01", date(2026, 9, 30), ["chevella"])
        assert [r.json()["model"] for r in fake_groq.chat_requests()[2:]] == [
            "primary-model", "primary-model", "fallback-model"]

        fake_groq.chat_script.extend(["[]", "nope", '{"stage": "sprouting"}'])
        with pytest.raises(StructuringFailed) as failed:
            await llm_visit(chat, book, "Ramesh blitox ok", "O01", date(2026, 9, 30), ["chevella"])
        assert len(failed.value.attempts) == 3
    finally:
        await chat.aclose()


async def test_model_that_never_validates_leaves_the_card_to_the_rules(
        tmp_path: Path, hindsight_url: str, bank_prefix: str, fake_groq: FakeGroq) -> None:
    fake_groq.default_chat = "{broken"
    app = await _groq_app(tmp_path, hindsight_url, bank_prefix, fake_groq)
    try:
        [card] = await app.conversation.handle(say("ravi", "Ramesh chilli blight 40%, Blitox accepted"))
    finally:
        await app.aclose()
    assert "rule-based reader" in card.text and "Ramesh Goud (F001)" in card.text and card.buttons
    assert len(fake_groq.chat_requests()) == 3


async def test_typed_note_card_edit_and_save_retains_tagged_narrative(agri_app: App) -> None:
    conv, memory = agri_app.conversation, agri_app.services.memory
    bank = agri_app.services.bank_of(CAPTURE_TENANT, "agri")
    [card] = await conv.handle(say("ravi", "Visited Raju Yadav on 2026-09-20, cotton pink bollworm 12%. "
                                           "Proclaim too expensive, he wants to wait."))
    assert "Raju Yadav (F011)" in card.text and "Proclaim (P007): rejected — price too high" in card.text
    [choose] = await conv.handle(say("ravi", callback=button(card, "Edit")))
    [ask] = await conv.handle(say("ravi", callback=button(choose, "Products")))
    assert "Products" in ask.text
    [bad] = await conv.handle(say("ravi", "something unknown"))
    assert "does not fit" in bad.text
    [edited] = await conv.handle(say("ravi", "Profex accepted, Proclaim rejected price"))
    assert "Profex Super (P008): accepted" in edited.text
    replies = await conv.handle(say("ravi", callback=button(edited, "Save")))
    assert "Saved to memory" in replies[0].text and "I will ask you" in replies[1].text
    found = await memory.recall(bank, RecallRequest(query="Raju Yadav pink bollworm", tags=["farmer:f011"]))
    [saved] = [m for m in found if m.metadata.get("kind") == "visit"]
    assert saved.text.startswith("Field visit on 2026-09-20 to Raju Yadav (F011) in Moinabad")
    assert "Profex Super (P008" in saved.text and "{" not in saved.text
    assert set(saved.tags) == {"farmer:f011", "village:moinabad", "crop:cotton", "officer:o01", "kind:visit"}
    assert saved.event_date == date(2026, 9, 20) and saved.document_id.startswith("visit:F011-20260920-")


async def test_officer_cannot_record_a_farmer_outside_the_territory(agri_app: App) -> None:
    [reply] = await agri_app.conversation.handle(say("ravi", "Hanmanth paddy blast, Beam accepted"))
    assert "not in your villages" in reply.text and not reply.buttons
    [other] = await agri_app.conversation.handle(say("ravi", "hello there"))
    assert "could not find a farmer" in other.text


async def test_voice_note_while_groq_is_down_is_kept_and_processed_when_it_is_back(
        tmp_path: Path, hindsight_url: str, bank_prefix: str, fake_groq: FakeGroq, voice_note: Path) -> None:
    from datetime import datetime, timedelta, timezone

    from bot.core.worker import IntakeWorker
    from tests.agri.conftest import RecordingNotifier

    fake_groq.transcripts.extend([503, 503])  # Whisper down (the SDK retries once)
    app = await _groq_app(tmp_path, hindsight_url, bank_prefix, fake_groq)
    notifier = RecordingNotifier()
    app.services.outbound.register("console", notifier)
    try:
        media = Media(kind="voice", path=voice_note, mime_type="audio/ogg", size_bytes=voice_note.stat().st_size)
        [kept] = await app.conversation.handle(say("ravi", media=media))
        assert "failed just now" in kept.text and "try again in about 1 min" in kept.text
        [item] = app.services.intake.listing(("held",))
        assert item.next_attempt_at is not None  # Groq down: retried on a timer, never given up
        assert item.incoming.media is not None and item.incoming.media.path.read_bytes() == voice_note.read_bytes()
        fake_groq.transcripts.append("Ramesh Goud chilli leaf blight 20 percent, Blitox accepted")
        fake_groq.chat_script.extend([500] * 4)  # chat still down: the rules structure the transcript
        report = await IntakeWorker(app.conversation).run_once(datetime.now(timezone.utc) + timedelta(minutes=1))
        assert report.processed == 1 and report.delivered == 1
        [(user_id, [card], _)] = notifier.sent
        assert user_id == "ravi" and "Ramesh Goud (F001)" in card.text and "Blitox" in card.text
        assert app.services.intake.get(item.intake_id).state == "done"
    finally:
        await app.aclose()
