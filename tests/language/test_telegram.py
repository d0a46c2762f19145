"""The same Telugu walk over Telegram: the real PTB Application long-polls the fake Bot API. Every text the bot
sends (messages, edits, button labels, callback answers, the follow-up, the chat's command menu) is collected
and must be Telugu. With a (fake) Groq key the brief is model-written: the prompt asks for Telugu and the
guardrails strip dates the model made up in Telugu script. /lang en and /lang te switch it all, Whisper's hint too."""

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from bot.core.app import App
from bot.services.i18n import show_date, text
from bot.transports.telegram.app import TelegramTransport
from handlers.agri.pack import AgriPack
from handlers.agri.register import FieldBook
from tests.conftest import make_settings
from tests.fakes.groq import FakeGroq, multipart_field
from tests.fakes.telegram import TOKEN, ApiCall, FakeTelegram
from tests.language.script import TELUGU, is_english, not_telugu
from tests.language.walk import ANSWER_TE, OFFICER, OWN_WORDS, TELEGRAM_ID, VISIT_EN, VISIT_TE, saved
from tests.transports.walks import walk_registry, walk_tenant

pytestmark = pytest.mark.hindsight

INVENTED_PITCH_DAY, INVENTED_CHECK_DAY = date(2025, 6, 12), date(2025, 6, 15)


def _labels(markup: Any) -> list[str]:
    rows = (markup or {}).get("inline_keyboard", []) if isinstance(markup, dict) else []
    return [b["text"] for row in rows for b in row]


def _shown(call: ApiCall) -> list[str]:
    """What one Bot API call puts in front of the officer."""
    p = call.params
    if call.method in ("sendMessage", "editMessageText"):
        return [p["text"], *_labels(p.get("reply_markup"))]
    if call.method == "sendPhoto":
        return [p.get("caption") or "", *_labels(p.get("reply_markup"))]
    if call.method == "answerCallbackQuery":
        return [p["text"]] if p.get("text") else []
    if call.method == "setMyCommands" and (p.get("scope") or {}).get("chat_id") == TELEGRAM_ID:
        return [c["description"] for c in p["commands"]]
    return []


@dataclass
class Walk:
    app: App
    fake: FakeTelegram
    groq: FakeGroq
    tenant: str

    def _count(self) -> tuple[int, int, int]:
        mine = [c for c in self.fake.calls if c.params.get("chat_id") in (TELEGRAM_ID, str(TELEGRAM_ID))]
        menus = [c for c in self.fake.sent("setMyCommands") if _shown(c)]
        return (len([c for c in mine if c.method == "sendMessage"]),
                len([c for c in mine if c.method == "editMessageText"]), len(menus))

    async def step(self, act: Callable[[], object], sends: int, edits: int = 0, menus: int = 0) -> list[str]:
        """Do one thing and wait for the bot's answer to it; return the texts it showed."""
        before, start = self._count(), len(self.fake.calls)
        act()
        want = (before[0] + sends, before[1] + edits, before[2] + menus)
        for _ in range(3000):
            if all(now >= wanted for now, wanted in zip(self._count(), want)):
                break
            await asyncio.sleep(0.02)
        assert self._count() == want, f"bot answered {self._count()}, wanted {want}"
        return [t for c in self.fake.calls[start:] for t in _shown(c)]

    def card(self) -> int:
        return self.fake.last_message_with_buttons(TELEGRAM_ID)

    def press(self, label: str) -> Callable[[], object]:
        message = self.card()
        return lambda: self.fake.press(TELEGRAM_ID, message, self.fake.buttons(message)[label])

    def voice(self, ogg: bytes) -> Callable[[], object]:
        return lambda: self.fake.send_voice(TELEGRAM_ID, ogg)

    def say(self, body: str) -> Callable[[], object]:
        return lambda: self.fake.send_text(TELEGRAM_ID, body)

    def everything(self) -> list[str]:
        return [t for c in self.fake.calls for t in _shown(c)]


@pytest.fixture
async def walk(tmp_path_factory: pytest.TempPathFactory, hindsight_url: str, bank_prefix: str) -> AsyncIterator[Walk]:
    fake, groq, tenant = FakeTelegram(), FakeGroq(), walk_tenant()
    groq.default_chat = "not json"  # structuring never validates: the deterministic reader fills the cards
    settings = make_settings(tmp_path_factory.mktemp("te-telegram"), hindsight_url, bank_prefix,
                             default_tenant=tenant, telegram_bot_token=SecretStr(TOKEN), telegram_base_url=fake.url,
                             groq_api_key=SecretStr("test-key"), groq_base_url=groq.url)
    app = await App.start(settings, registry=walk_registry(tenant), pack_names=["agri"])
    transport = TelegramTransport(app.conversation, poll_timeout_s=1.0)
    await transport.start_polling()
    yield Walk(app, fake, groq, tenant)
    await transport.stop()
    await app.aclose()
    groq.close()
    fake.close()


def _telugu_brief(visit_day: date, document_id: str) -> str:
    """A model brief written in Telugu that cites the saved visit and makes up two dates in Telugu script."""
    return json.dumps({
        "claims": [{"text": "మిరపలో ఆకు ఎండు తెగులు 40%, Blitox 50 ఒప్పుకున్నాడు.", "source_date": visit_day.isoformat(),
                    "document_id": document_id}],
        "products": [{"id": "P001", "crop": "chilli", "dosage": "500 g/acre",
                      "pitch": f"{show_date('te', INVENTED_PITCH_DAY)} న పక్క పొలంలో పని చేసింది అని చెప్పండి."}],
        "avoid": [],
        "checks": [f"ఆకు ఎండు తెగులు {show_date('te', INVENTED_CHECK_DAY)} న మళ్ళీ వచ్చిందేమో చూడండి"],
        "confidence": "medium",
    }, ensure_ascii=False)


async def test_telugu_officer_walks_the_agri_flow_over_telegram_all_in_telugu(
        walk: Walk, telugu_voice: Path, book: FieldBook) -> None:
    pack = walk.app.packs["agri"]
    assert isinstance(pack, AgriPack)
    today, ogg = pack.today(), telugu_voice.read_bytes()
    walk.groq.transcripts.extend([VISIT_TE, ANSWER_TE])

    [card, *buttons] = await walk.step(walk.voice(ogg), sends=1)
    assert f"{book.farmer_name('F001', 'te')} (F001)" in card and show_date("te", today) in card
    assert buttons == [text("te", k) for k in ("core.button_save", "core.button_edit", "core.button_discard")]
    edited, scheduled = await walk.step(walk.press(text("te", "core.button_save")), sends=1, edits=1)
    [pending] = walk.app.services.scheduler.pending(OFFICER, "agri")
    assert text("te", "core.card_saved") in edited and show_date("te", pending.due_at.date()) in scheduled

    [visit] = await saved(walk.app.services.memory, walk.app.services.bank_of(walk.tenant, "agri"), "visit",
                          "Ramesh Goud chilli leaf blight Blitox")
    walk.groq.chat_script.append(_telugu_brief(today, visit.document_id or ""))
    [brief] = await walk.step(walk.say("/brief రమేష్ గౌడ్"), sends=1)
    [prompt] = [r.json()["messages"] for r in walk.groq.chat_requests() if b"pre-visit briefs" in r.body]
    assert "Answer in Telugu" in prompt[0]["content"] and visit.document_id in prompt[1]["content"]
    removed = text("te", "agri.date_removed")
    assert f"• ఆకు ఎండు తెగులు {removed} న మళ్ళీ వచ్చిందేమో చూడండి" in brief
    assert f"   {removed} న పక్క పొలంలో పని చేసింది అని చెప్పండి." in brief
    cited = text("te", "agri.cited_visit_of", farmer=book.farmer_name("F001", "te"))
    assert f"[{show_date('te', today)} · {cited}]" in brief  # the grounded claim keeps its source, by date and name
    unverified = brief.split(text("te", "agri.brief_unverified"), 1)[1]
    assert text("te", "agri.unverified_date", field=text("te", "agri.unverified_field_check"),
                removed=show_date("te", INVENTED_CHECK_DAY)) in unverified
    assert text("te", "agri.model_unavailable") not in brief

    start = len(walk.fake.calls)
    assert await walk.app.services.scheduler.fire(pending.followup_id)
    question, answer_now = [t for c in walk.fake.calls[start:] for t in _shown(c)]
    assert show_date("te", today) in question and answer_now == text("te", "agri.button_answer")
    [asked] = await walk.step(walk.press(answer_now), sends=1)
    assert "Blitox 50" in asked
    [outcome_card, *_] = await walk.step(walk.voice(ogg), sends=1)
    assert text("te", "agri.result_controlled") in outcome_card
    edited, thanks = await walk.step(walk.press(text("te", "core.button_save")), sends=1, edits=1)
    assert text("te", "core.card_saved") in edited and thanks == text("te", "agri.outcome_saved")

    everything = walk.everything()
    assert len(everything) >= 20 and walk.fake.sent("answerCallbackQuery")
    assert not_telugu(everything, book, OWN_WORDS) == {}
    assert [multipart_field(r, "language") for r in walk.groq.transcription_requests()] == ["te", "te"]
    [outcome] = await saved(walk.app.services.memory, walk.app.services.bank_of(walk.tenant, "agri"), "outcome",
                            "Ramesh Goud outcome Blitox")
    assert not TELUGU.search(visit.text + outcome.text)
    assert (visit.metadata["transcript"], outcome.metadata["transcript"]) == (VISIT_TE, ANSWER_TE)


async def test_lang_switches_telegram_replies_menu_and_whisper_hint(walk: Walk, telugu_voice: Path,
                                                                    book: FieldBook) -> None:
    ogg = telugu_voice.read_bytes()
    walk.groq.transcripts.extend([VISIT_TE, VISIT_EN, VISIT_TE])
    first = await walk.step(walk.voice(ogg), sends=1)
    switched = await walk.step(walk.say("/lang en"), sends=1, menus=1)
    assert switched[0] == text("en", "core.lang_set")
    # The earlier cards are still unsaved: the new card comes with a reminder and each of them again (never dropped).
    english = switched + await walk.step(walk.voice(ogg), sends=3) + await walk.step(walk.say("/brief Ramesh Goud"), 1)
    assert [t for t in english if t != "—" and not is_english(t, book, OWN_WORDS)] == []
    assert text("en", "agri.cmd_brief") in english  # the chat's command menu follows the language too
    back = await walk.step(walk.say("/lang te"), sends=1, menus=1)
    assert back[0] == text("te", "core.lang_set")
    again = back + await walk.step(walk.voice(ogg), sends=4) + await walk.step(walk.say("/brief రమేష్ గౌడ్"), 1)
    assert text("te", "agri.cmd_brief") in again
    assert not_telugu(first + again, book, OWN_WORDS) == {}
    assert [multipart_field(r, "language") for r in walk.groq.transcription_requests()] == ["te", "en", "te"]
