"""A Telugu-setting officer in the console (ConsoleSession over the real conversation core, the real local
Hindsight, Groq faked at HTTP): voice note -> card -> Save -> /brief -> follow-up fired and answered, all in
Telugu; /lang en and /lang te switch the language and the Whisper hint; a transliterated note typed with no
Groq key is still read right; what Hindsight keeps is an English narrative with the words said in metadata."""

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.core.app import App
from bot.transports.console.session import ConsoleSession
from bot.services.i18n import show_date, text
from bot.core.messages import Button, Reply
from bot.core.outbound import Purpose
from bot.core.registry import User
from handlers.agri.pack import AgriPack
from handlers.agri.register import FieldBook
from tests.conftest import make_settings
from tests.fakes.groq import FakeGroq, multipart_field
from tests.language.script import TELUGU, is_english, not_telugu
from tests.language.walk import ANSWER_TE, OFFICER, OWN_WORDS, TRANSLITERATED, VISIT_EN, VISIT_TE, saved, shown
from tests.transports.walks import walk_registry, walk_tenant

pytestmark = pytest.mark.hindsight


@dataclass
class ConsoleWalk:
    """A console chat that also shows what the bot sends by itself (follow-ups) with their buttons."""

    app: App
    session: ConsoleSession
    tenant: str
    texts: list[str] = field(default_factory=list)

    async def send(self, line: str) -> list[Reply]:
        replies = await self.session.send(line)
        self.texts += shown(replies)
        return replies

    async def notify(self, user: User, replies: list[Reply], purpose: Purpose) -> bool:
        self.texts += shown(replies)
        buttons: list[Button] = [b for r in replies for b in r.flat_buttons()]
        if buttons:
            self.session.buttons = buttons
        return True

    @property
    def pack(self) -> AgriPack:
        found = self.app.packs["agri"]
        assert isinstance(found, AgriPack)
        return found

    @property
    def bank(self) -> str:
        return self.app.services.bank_of(self.tenant, "agri")


async def _walk(home: Path, hindsight_url: str, bank_prefix: str, groq: FakeGroq | None) -> ConsoleWalk:
    tenant = walk_tenant()
    keys = {"groq_api_key": SecretStr("k"), "groq_base_url": groq.url} if groq else {}
    settings = make_settings(home, hindsight_url, bank_prefix, default_tenant=tenant, **keys)
    app = await App.start(settings, registry=walk_registry(tenant), pack_names=["agri"])
    walk = ConsoleWalk(app, ConsoleSession(app.conversation, OFFICER), tenant)
    app.services.outbound.register("console", walk)
    return walk


@pytest.fixture
async def voiced(tmp_path: Path, hindsight_url: str, bank_prefix: str, fake_groq: FakeGroq) -> AsyncIterator[ConsoleWalk]:
    """The console with a (fake) Groq key, which voice notes need; its chat answers never validate, so the
    deterministic reader fills every card and the template writes the brief."""
    fake_groq.default_chat = "not json"
    walk = await _walk(tmp_path, hindsight_url, bank_prefix, fake_groq)
    yield walk
    await walk.app.aclose()


@pytest.fixture
async def keyless(tmp_path: Path, hindsight_url: str, bank_prefix: str) -> AsyncIterator[ConsoleWalk]:
    walk = await _walk(tmp_path, hindsight_url, bank_prefix, None)
    yield walk
    await walk.app.aclose()


def _labels(reply: Reply) -> list[str]:
    return [b.label for b in reply.flat_buttons()]


async def test_telugu_officer_walks_voice_card_save_brief_followup_all_in_telugu(
        voiced: ConsoleWalk, fake_groq: FakeGroq, telugu_voice: Path, book: FieldBook) -> None:
    today = voiced.pack.today()
    fake_groq.transcripts.extend([VISIT_TE, ANSWER_TE])

    [card] = await voiced.send(f"/voice {telugu_voice}")
    assert f"{text('te', 'agri.field_farmer')}: {book.farmer_name('F001', 'te')} (F001)" in card.text
    assert f"{text('te', 'agri.field_date')}: {show_date('te', today)}" in card.text
    assert _labels(card) == [text("te", k) for k in ("core.button_save", "core.button_edit", "core.button_discard")]
    saved_card, scheduled = await voiced.send("1")
    assert saved_card.replaces_card and text("te", "core.card_saved") in saved_card.text
    [pending] = voiced.app.services.scheduler.pending(OFFICER, "agri")
    assert show_date("te", pending.due_at.date()) in scheduled.text

    [brief] = await voiced.send("/brief రమేష్ గౌడ్")
    [visit] = await saved(voiced.app.services.memory, voiced.bank, "visit", "Ramesh Goud chilli leaf blight Blitox")
    cited = text("te", "agri.cited_visit_of", farmer=book.farmer_name("F001", "te"))
    assert f"{show_date('te', today)} · {cited}" in brief.text  # the saved visit, by date and name in Telugu
    assert "visit:" not in brief.text

    assert await voiced.app.services.scheduler.fire(pending.followup_id)
    [question] = await voiced.send("1")  # the follow-up's "answer now" button
    assert show_date("te", today) in question.text and "Blitox 50" in question.text
    [outcome_card] = await voiced.send(f"/voice {telugu_voice}")
    assert text("te", "agri.result_controlled") in outcome_card.text
    saved_outcome, thanks = await voiced.send("1")
    assert text("te", "core.card_saved") in saved_outcome.text and thanks.text == text("te", "agri.outcome_saved")
    assert voiced.app.services.scheduler.get(pending.followup_id).status == "answered"

    assert len(voiced.texts) >= 14
    assert not_telugu(voiced.texts, book, OWN_WORDS) == {}
    hints = [multipart_field(r, "language") for r in fake_groq.transcription_requests()]
    assert hints == ["te", "te"]

    # What Hindsight keeps: English narratives for everyone's recall, the officer's Telugu words for audit.
    [outcome] = await saved(voiced.app.services.memory, voiced.bank, "outcome", "Ramesh Goud outcome Blitox")
    for memory, said in ((visit, VISIT_TE), (outcome, ANSWER_TE)):
        assert not TELUGU.search(memory.text) and "Ramesh Goud (F001)" in memory.text and "Chevella" in memory.text
        assert memory.metadata["transcript"] == said
    assert "Crop: chilli" in visit.text and "Problem: leaf blight" in visit.text
    assert "Farmer accepted Blitox 50" in visit.text
    assert "leaf blight was controlled after Blitox 50 (P001)" in outcome.text


async def test_lang_switches_the_replies_and_the_whisper_hint(
        voiced: ConsoleWalk, fake_groq: FakeGroq, telugu_voice: Path, book: FieldBook) -> None:
    fake_groq.transcripts.extend([VISIT_TE, VISIT_EN, VISIT_TE])
    first = await voiced.send(f"/voice {telugu_voice}")
    [english] = await voiced.send("/lang en")
    assert english.text == text("en", "core.lang_set")
    in_english = await voiced.send(f"/voice {telugu_voice}") + await voiced.send("/brief Ramesh Goud")
    assert all(is_english(t, book, OWN_WORDS) for t in shown(in_english) if t != "—")
    assert text("en", "core.button_save") in shown(in_english)
    [telugu] = await voiced.send("/lang te")
    assert telugu.text == text("te", "core.lang_set")
    again = await voiced.send(f"/voice {telugu_voice}") + await voiced.send("/brief రమేష్ గౌడ్")
    assert not_telugu(shown(first) + [telugu.text] + shown(again), book, OWN_WORDS) == {}
    hints = [multipart_field(r, "language") for r in fake_groq.transcription_requests()]
    assert hints == ["te", "en", "te"]


async def test_transliterated_note_without_a_key_is_read_right_and_carded_in_telugu(
        keyless: ConsoleWalk, book: FieldBook) -> None:
    [card] = await keyless.send(TRANSLITERATED)
    lines = card.text.splitlines()

    def line(name: str) -> str:
        label = f"{text('te', f'agri.field_{name}')}: "
        return next(row.removeprefix(label) for row in lines if row.startswith(label))

    # Two Rameshes farm in this officer's villages; only Ramesh Goud grows the chilli (mirapa) the note names.
    assert line("farmer") == f"{book.farmer_name('F001', 'te')} (F001)"
    assert line("village") == book.village_name("chevella", "te")
    assert line("crop") == text("te", "agri.crop_chilli")
    assert line("products") == f"Blitox 50 (P001): {text('te', 'agri.reaction_accepted')}"
    assert text("te", "agri.extractor_rules") in card.text
    saved_card, scheduled = await keyless.send("1")
    assert text("te", "core.card_saved") in saved_card.text
    assert not_telugu(keyless.texts, book, OWN_WORDS) == {}

    [visit] = await saved(keyless.app.services.memory, keyless.bank, "visit", "Ramesh Goud chilli Blitox")
    assert visit.metadata["transcript"] == TRANSLITERATED
    assert visit.metadata["farmer_id"] == "F001" and visit.metadata["accepted"] == "P001"
    assert "Ramesh Goud (F001) in Chevella" in visit.text and "Farmer accepted Blitox 50" in visit.text
    assert not any(word in visit.text for word in ("mirapa", "tegulu", "annadu"))  # no transliteration retained
