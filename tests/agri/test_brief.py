"""The pre-visit brief against the real local Hindsight with the seeded season: as-of without future leaks,
memory ON vs OFF on the same path, the model path behind guardrails, and territory limits."""

import json
import re
from datetime import date
from pathlib import Path

import pytest

from bot.core.app import App
from bot.core.registry import Registry
from handlers.agri.brief import build_brief
from handlers.agri.pack import AgriPack, parse_brief_args
from handlers.agri.register import FieldBook
from bot.core.pack import SeedReport
from tests.agri.conftest import agri_users, say, settings_with_groq
from memory import Period, Recalled, RecallRequest
from tests.fakes.groq import FakeGroq

pytestmark = pytest.mark.hindsight

_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")


def _all_dates(brief_json: dict[str, object]) -> set[date]:
    text = json.dumps({k: v for k, v in brief_json.items() if k != "as_of"})
    return {date.fromisoformat(d) for d in _ISO.findall(text)}


async def _brief(app: App, as_of: date, memory_on: bool = True) -> dict[str, object]:
    pack = app.packs["agri"]
    assert isinstance(pack, AgriPack)
    found = await build_brief(app.services.memory, app.services.bank_of("demo", "agri"), pack.book_for("demo"),
                              pack.book_for("demo").farmers["F001"], as_of, memory_on, "en", app.services.chat)
    return found.model_dump(mode="json")


async def test_seeds_load_the_season(seeded: SeedReport, agri_app: App) -> None:
    assert seeded.retained == 76 and seeded.details == {"visits": 47, "outcomes": 29}
    docs = await agri_app.services.memory.list_documents(seeded.bank_id)
    assert {"visit:V002", "outcome:V002", "visit:V007", "outcome:V007"} <= {d.document_id for d in docs}


async def test_reloading_seeds_replaces_instead_of_duplicating(seeded: SeedReport, agri_app: App,
                                                               book: FieldBook) -> None:
    from handlers.agri.narrative import season_memories
    again = [m for m in season_memories(book) if m.document_id in ("visit:V002", "outcome:V002")]
    await agri_app.services.memory.retain(seeded.bank_id, again)
    docs = await agri_app.services.memory.list_documents(seeded.bank_id)
    assert len(docs) == 76 and len({d.document_id for d in docs}) == 76


async def test_brief_as_of_20_april_knows_the_refusal_and_nothing_after(seeded: SeedReport, agri_app: App) -> None:
    brief = await _brief(agri_app, date(2026, 4, 20))
    cited = {(c["source_date"], c["document_id"]) for c in brief["claims"]}
    assert ("2026-04-08", "visit:V002") in cited
    assert ("2026-04-18", "outcome:V002") in cited
    assert max(_all_dates(brief)) <= date(2026, 4, 20)
    assert not {"visit:V007", "outcome:V007", "visit:V027"} & {c["document_id"] for c in brief["claims"]}
    assert any("Amistar Top" in a and "price" in a for a in brief["avoid"])
    # The neighbour's result that won him over on 21 April is already in memory by 15 April.
    assert brief["products"][0]["id"] == "P001" and "Venkatesh Yadav" in brief["products"][0]["pitch"]
    assert brief["unverified"] == []


async def test_brief_on_28_september_leads_with_the_copper_fungicide(seeded: SeedReport, agri_app: App) -> None:
    brief = await _brief(agri_app, date(2026, 9, 28))
    first = brief["products"][0]
    assert (first["id"], first["price"], first["dosage"]) == ("P001", "Rs 420 per 500 g", "500 g/acre (chilli)")
    assert first["pitch"].startswith("Lead with the price: Rs 420")
    assert "2 May 2026" in first["pitch"] and "21 Apr 2026" in first["pitch"]
    assert [a for a in brief["avoid"] if a.startswith("Amistar Top (P006)")]
    assert all(p["id"] != "P006" for p in brief["products"])
    claims = {c["document_id"]: c for c in brief["claims"]}
    assert "40%" in claims["outcome:V002"]["text"] and claims["outcome:V002"]["source_date"] == "2026-04-18"
    assert claims["outcome:V027"]["source_date"] == "2026-08-14"
    assert brief["recalled"]["farmer"] == 7 and brief["recalled"]["similar"] > 0
    assert brief["confidence"] == "high" and brief["memory"] == "on" and brief["composer"] == "template"


async def test_every_brief_recall_names_its_period_so_the_server_parses_no_dates(
        seeded: SeedReport, agri_app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    memory, seen = agri_app.services.memory, []
    original = memory.recall

    async def spying(bank: str, request: RecallRequest) -> list[Recalled]:
        seen.append(request)
        return await original(bank, request)

    monkeypatch.setattr(memory, "recall", spying)
    await _brief(agri_app, date(2026, 9, 28))
    assert len(seen) >= 2
    assert all(r.as_of == date(2026, 9, 28) and r.period == Period.until(date(2026, 9, 28)) for r in seen)


async def test_memory_off_skips_both_recalls_and_says_there_is_no_history(seeded: SeedReport, agri_app: App) -> None:
    calls_before = len(agri_app.services.memory.call_log.latest(200))
    brief = await _brief(agri_app, date(2026, 9, 28), memory_on=False)
    assert len(agri_app.services.memory.call_log.latest(200)) == calls_before
    assert brief["claims"] == [] and brief["avoid"] == [] and brief["memory"] == "off"
    assert "No history with this farmer yet." in brief["notes"]
    assert brief["recalled"] == {"farmer": 0, "similar": 0} and brief["confidence"] == "low"
    assert brief["products"] and all(p["pitch"].startswith("Standard recommendation") for p in brief["products"])


async def test_model_brief_goes_through_guardrails(seeded: SeedReport, tmp_path: Path, hindsight_url: str,
                                                   bank_prefix: str, fake_groq: FakeGroq) -> None:
    fake_groq.default_chat = json.dumps({
        "claims": [{"text": "Rejected Amistar Top on price.", "source_date": "2026-04-08", "document_id": "visit:V002"},
                   {"text": "Sprayed in March.", "source_date": "2026-03-03", "document_id": "visit:V000"}],
        "products": [{"id": "P001", "pitch": "Rs 420, and it worked: see 2024-05-02 result.", "dosage": "500 g/acre"},
                     {"id": "P777", "pitch": "Brand new.", "dosage": "1 L/acre"},
                     {"id": "P002", "crop": "cotton", "pitch": "Worked on 14 Aug for hoppers.", "dosage": "3 kg/acre"}],
        "avoid": ["Do not open with Amistar Top (refused 8 April)."],
        "checks": ["ఆకు ఎండు తెగులు 9 జూలై 2026 న మళ్ళీ వచ్చిందేమో చూడండి"],
        "confidence": "high",
    })
    settings = settings_with_groq(tmp_path, hindsight_url, bank_prefix, fake_groq.url)
    app = await App.start(settings, registry=Registry(agri_users()), pack_names=["agri"])
    try:
        brief = await _brief(app, date(2026, 9, 28))
    finally:
        await app.aclose()
    assert brief["composer"] == "llm"
    assert [p["id"] for p in brief["products"]] == ["P001", "P002"]
    assert brief["products"][0]["pitch"] == "Rs 420, and it worked: see [date removed] result."
    assert brief["products"][1]["dosage"] == "60 g/acre (cotton)"
    assert brief["checks"] == ["ఆకు ఎండు తెగులు [date removed] న మళ్ళీ వచ్చిందేమో చూడండి"]
    assert brief["avoid"] == ["Do not open with Amistar Top (refused 8 April)."]
    assert brief["claims"][1] == {"text": "Sprayed in March.", "source_date": None, "document_id": None,
                                  "farmer_id": None}
    assert set(brief["unverified"]) == {
        "claim: Sprayed in March. (cited 2026-03-03, not in memory)",
        "pitch for Blitox 50: 2024-05-02", "product: P777 is not in the catalogue",
        "dosage: 3 kg/acre for Ulala is not a catalogue dose", "check: 9 జూలై 2026"}
    prompt = fake_groq.chat_requests()[0].json()["messages"][1]["content"]
    assert "visit:V002" in prompt and "outcome:V007" in prompt


async def test_brief_command_in_chat_and_territory_refusal(seeded: SeedReport, agri_app: App) -> None:
    conv = agri_app.conversation
    [shown] = await conv.handle(say("srinivas", "/brief Ramesh Goud 2026-04-20"))
    assert "Ramesh Goud (F001)" in shown.text and "8 Apr 2026 · visit to Ramesh Goud" in shown.text and "visit:" not in shown.text
    assert "2 May 2026" not in shown.text
    [telugu] = await conv.handle(say("lakshmi", "/brief రమేష్ గౌడ్ 2026-09-28"))
    assert "సారాంశం: రమేష్ గౌడ్" in telugu.text and "Blitox 50 (P001)" in telugu.text
    [refused] = await conv.handle(say("lakshmi", "/brief F011"))
    # Outside the officer's villages a farmer is refused exactly as an unknown one: nothing says they exist.
    assert "కనబడలేదు" in refused.text and "రాజు" not in refused.text and "Raju" not in refused.text
    [refused_en] = await conv.handle(say("srinivas", "/brief Hanmanth"))
    assert "could not find a farmer" in refused_en.text and "F0" not in refused_en.text


def test_brief_arguments() -> None:
    parsed = parse_brief_args("Ramesh Goud 2026-04-20 off", 2026)
    assert (parsed.farmer_query, parsed.as_of, parsed.memory_on) == ("Ramesh Goud", date(2026, 4, 20), False)
    assert parse_brief_args("F001", 2026).as_of is None
