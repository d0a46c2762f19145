"""With a Groq key: vision reading, the model's split and the model's answer, each guarded (Groq faked at HTTP)."""

import json
from collections.abc import AsyncIterator
from datetime import date, datetime
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.core.app import App
from bot.core.messages import Media
from handlers.legal.ask import ask
from handlers.legal.backlog import CASES_FILE
from handlers.legal.extract import split
from handlers.legal.models import ProposedEntry, Upload
from handlers.legal.records import hearing_memory
from handlers.legal.register import CaseRegister
from memory.asof import IST
from tests.conftest import make_settings
from tests.fakes.groq import FakeGroq
from tests.legal.helpers import say

pytestmark = pytest.mark.hindsight

REGISTER = CaseRegister.load(CASES_FILE)


@pytest.fixture
async def keyed_app(tmp_path: Path, hindsight_url: str, bank_prefix: str, fake_groq: FakeGroq) -> AsyncIterator[App]:
    settings = make_settings(tmp_path, hindsight_url, bank_prefix, groq_api_key=SecretStr("k"),
                             groq_base_url=fake_groq.url)
    app = await App.start(settings)
    yield app
    await app.aclose()


def split_answer(**entry: object) -> str:
    return json.dumps({"entries": [entry]})


async def test_model_split_is_used_when_it_passes_the_guard(keyed_app: App, fake_groq: FakeGroq) -> None:
    fake_groq.chat_script.append(split_answer(case_id="seabreeze", kind="hearing", hearing_date="2026-11-24",
                                              next_date="2026-12-10", text="objections to IA 1187/2026 filed"))
    [_, card] = await keyed_app.conversation.handle(
        say("divya", "24/11 Seabreeze SP suit - objections to IA 1187/2026 filed and served. N.D. 10/12"))
    assert "objections to IA 1187/2026 filed" in card.text and "served" not in card.text  # the model's text
    assert "24 Nov 2026" in card.text and "10 Dec 2026" in card.text
    prompt = fake_groq.chat_requests()[0].json()["messages"][1]["content"]
    assert "seabreeze" in prompt and "N.D. 10/12" in prompt


async def test_model_taking_the_next_date_as_the_hearing_is_overruled(keyed_app: App, fake_groq: FakeGroq) -> None:
    fake_groq.chat_script.append(split_answer(case_id="seabreeze", kind="hearing", hearing_date="2026-12-10",
                                              next_date=None, text="objections filed"))
    [_, card] = await keyed_app.conversation.handle(
        say("divya", "24/11 Seabreeze SP suit - objections filed. N.D. 10/12"))
    assert "24 Nov 2026" in card.text and "hearing on 10 Dec" not in card.text


async def test_model_inventing_a_case_falls_back_to_the_rules(keyed_app: App, fake_groq: FakeGroq) -> None:
    fake_groq.chat_script.append(split_answer(case_id="sunrise", kind="hearing", hearing_date="2026-11-24",
                                              text="x"))
    [_, card] = await keyed_app.conversation.handle(say("divya", "24/11 Gorle - arguments continued. N.D. 2/12"))
    assert card.text.startswith("Gorle") and "24 Nov 2026" in card.text


async def test_photo_is_read_by_the_vision_model(keyed_app: App, fake_groq: FakeGroq, tmp_path: Path) -> None:
    from PIL import Image

    path = tmp_path / "IMG_20261120_101010.jpg"
    Image.new("RGB", (64, 64), "white").save(path)
    fake_groq.chat_script.append("THURSDAY 19 NOVEMBER 2026\nLakshmi Textiles - orders reserved. N.D. 03.12.2026")
    fake_groq.chat_script.append("not json")  # the split fails validation everywhere: the rules decide
    fake_groq.chat_script.append("not json")
    fake_groq.chat_script.append("not json")
    media = Media(kind="photo", path=path, file_name=path.name, mime_type="image/jpeg", size_bytes=path.stat().st_size)
    [_, card] = await keyed_app.conversation.handle(say("aditya", media=media))
    assert "Lakshmi Textiles" in card.text and "19 Nov 2026" in card.text and "3 Dec 2026" in card.text
    vision = fake_groq.chat_requests()[0].json()
    assert vision["model"] == keyed_app.settings.groq_vision_model
    assert vision["messages"][1]["content"][1]["image_url"]["url"].startswith("data:image/jpeg;base64,")


async def _stored(app: App, tenant: str) -> str:
    bank = app.services.bank_of(tenant, "legal")
    await app.services.memory.ensure_bank(app.packs["legal"].bank_profile(bank))
    upload = Upload(upload_id="ullm1", source_file="note_seabreeze.txt", author="Divya", author_id="divya",
                    uploaded_at=datetime(2026, 9, 25, 21, 0, tzinfo=IST))
    case = REGISTER.get("seabreeze")
    assert case is not None
    items = [hearing_memory(ProposedEntry(case_id="seabreeze", hearing_date=day, date_source="text", next_date=nxt,
                                          text=words, confidence=0.85), case, upload)
             for day, nxt, words in ((date(2026, 8, 27), date(2026, 9, 24), "objections not ready"),
                                     (date(2026, 9, 24), date(2026, 10, 15), "objections draft 60% done"))]
    await app.services.memory.retain(bank, items)
    return bank


async def test_model_answer_keeps_only_given_citations_and_checks_its_dates(keyed_app: App,
                                                                             fake_groq: FakeGroq) -> None:
    bank = await _stored(keyed_app, "llm-answers")
    good = "ullm1:seabreeze:2026-09-24"
    question = "What happened last time in Seabreeze?"

    fake_groq.chat_script.append(json.dumps({"answer": "On 24 Sep 2026 the objections draft was 60% done; next "
                                             "date 15 Oct 2026.", "document_ids": [good, "other:case:2026-09-30"]}))
    kept = await ask(keyed_app.services, bank, REGISTER, question, as_of=date(2026, 10, 1))
    assert kept.method == "llm" and [c.document_id for c in kept.citations] == [good]

    fake_groq.chat_script.append(json.dumps({"answer": "On 25 Sep 2026 the objections were filed.",
                                             "document_ids": [good]}))
    wrong_date = await ask(keyed_app.services, bank, REGISTER, question, as_of=date(2026, 10, 1))
    assert wrong_date.method == "template" and "24 Sep 2026" in wrong_date.answer

    fake_groq.chat_script.append(json.dumps({"answer": "The suit was decreed.", "document_ids": ["made:up:id"]}))
    uncited = await ask(keyed_app.services, bank, REGISTER, question, as_of=date(2026, 10, 1))
    assert uncited.method == "template" and [c.document_id for c in uncited.citations] == [good]

    fake_groq.chat_script.extend([500, 500, 500, 500])
    down = await ask(keyed_app.services, bank, REGISTER, question, as_of=date(2026, 10, 1))
    assert down.method == "template" and down.citations


async def test_model_split_with_a_hearing_after_the_upload_is_refused(keyed_app: App, fake_groq: FakeGroq) -> None:
    text = "Gorle today - plaintiff side arguments over, defendants to argue on 16.12.2026"
    upload = Upload(upload_id="ufuture", source_file="chat", author="Divya", author_id="divya",
                    uploaded_at=datetime(2026, 12, 2, 18, 30, tzinfo=IST))
    fake_groq.chat_script.append(split_answer(case_id="gorle", kind="hearing", hearing_date="2026-12-16",
                                              next_date=None, text="defendants to argue"))
    refused = await split(keyed_app.services, text, REGISTER, upload)
    assert refused.split_method == "rules"
    assert [(e.case_id, e.hearing_date, e.next_date) for e in refused.entries] == [
        ("gorle", date(2026, 12, 2), date(2026, 12, 16))]
    fake_groq.chat_script.append(split_answer(case_id="gorle", kind="hearing", hearing_date="2026-12-02",
                                              next_date="2026-12-16", text="plaintiff side arguments over"))
    kept = await split(keyed_app.services, text, REGISTER, upload)
    assert kept.split_method == "llm"
    assert [(e.hearing_date, e.next_date, e.needs_review) for e in kept.entries] == [
        (date(2026, 12, 2), date(2026, 12, 16), False)]
