"""Forget and export one farmer in LLM mode: export holds everything a recall about him returns; forget leaves
no recall hit, document, observation or waiting item about him, and nothing about anyone else is touched."""

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.core.app import App
from bot.core.registry import Registry
from bot.store.state import Card, CardRow
from bot.store.subject_audit import SubjectAudit
from bot.cli.subjects import export, forget
from memory import MemoryClient, RecallRequest
from memory.subjects import Subject
from tests.agri.conftest import CAPTURE_TENANT, agri_users
from tests.conftest import make_settings
from tests.llm_mode.conftest import settled
from tests.llm_mode.test_agri import confirmed, save_note

RAVINDER = Subject(tenant=CAPTURE_TENANT, kind="farmer", subject_id="F017")
QUERIES = ("Ravinder maize armyworm", "pests on Ravinder's cotton", "what did Ravinder buy")


@pytest.fixture
async def app(tmp_path: Path, llm_hindsight_url: str, bank_prefix: str) -> AsyncIterator[App]:
    settings = make_settings(tmp_path, llm_hindsight_url, f"{bank_prefix}f", memory_llm=True)
    running = await App.start(settings, registry=Registry(agri_users()), pack_names=["agri"])
    yield running
    for bank in await running.services.memory.bank_ids():
        if bank.startswith(f"{bank_prefix}f-"):
            await running.services.memory.delete_bank(bank)
    await running.aclose()


async def recalled_about(memory: MemoryClient, bank: str, tag: str) -> list[str]:
    found = []
    for query in QUERIES:
        found += await memory.recall(bank, RecallRequest(query=query, tags=[tag]))
    return sorted({m.memory_id or "" for m in found})


async def test_export_then_forget_one_farmer(app: App, capsys: pytest.CaptureFixture[str]) -> None:
    memory = app.services.memory
    bank = app.services.bank_of(CAPTURE_TENANT, "agri")
    await save_note(app, "Ravinder's maize on 2026-04-14: fall armyworm in the whorls, maybe 15%. Coragen accepted.")
    await save_note(app, "2026-09-08 Ravinder cotton, pink bollworm about 20 percent. He took Proclaim.")
    await save_note(app, "Bhaskar Rao maize 2026-05-02, armyworm 10%, Delegate accepted.")
    await confirmed(app)
    await settled(memory, bank)

    recalled = await recalled_about(memory, bank, RAVINDER.tag)
    assert recalled
    exported = await export(app, RAVINDER, by="test")
    held = exported["stores"]["memory"]
    json.dumps(exported)  # it is JSON as it stands
    assert set(recalled) <= {m["memory_id"] for m in held["memories"]}
    assert {d["event_date"] for d in held["documents"]} == {"2026-04-14", "2026-09-08"}
    assert all(d["text"] for d in held["documents"])
    assert any(m["type"] == "observation" for m in held["memories"])

    assert exported["stores"]["agri registers"]["farmers"][0]["key"] == "F017"
    assert {c["payload"]["visit"]["farmer_id"] for c in exported["stores"]["cards"]["cards"]} == {"F017"}
    assert len(exported["stores"]["follow-ups"]["followups"]) == 2

    assert await forget(app, RAVINDER, confirm=lambda _: False, by="test") == 1
    assert await recalled_about(memory, bank, RAVINDER.tag) == recalled  # declined: nothing erased

    assert await forget(app, RAVINDER, confirm=lambda _: True, by="test") == 0
    shown = capsys.readouterr().out
    assert "2 documents" in shown and "2026-04-14" in shown
    await settled(memory, bank)
    assert await recalled_about(memory, bank, RAVINDER.tag) == []
    assert await memory.documents_about(bank, RAVINDER.tag) == []
    assert await memory.list_memories(bank, RAVINDER.tag) == []
    everything = await memory.recall(bank, RecallRequest(query="Ravinder armyworm bollworm Coragen Proclaim"))
    assert not [m for m in everything if "Ravinder" in m.text]
    assert await memory.documents_about(bank, "farmer:f013"), "another farmer's memory was erased"
    # No row about him in the bot's own records either; Bhaskar Rao's (F013) are all there.
    book = app.packs["agri"].book_for(CAPTURE_TENANT)  # type: ignore[attr-defined]
    assert "F017" not in book.farmers and "F013" in book.farmers
    cards = _all_cards(app)
    assert {c.payload["visit"]["farmer_id"] for c in cards} == {"F013"}
    assert app.services.scheduler is not None
    assert [json.loads(f.subject["visit"])["farmer_id"] for f in app.services.scheduler.pending()] == ["F013"]
    notes = [i.incoming.text or "" for i in app.services.intake.items_of(["ravi"])]
    assert notes and not [n for n in notes if "Ravinder" in n] and [n for n in notes if "Bhaskar" in n]
    assert (await export(app, RAVINDER, by="test"))["stores"]["cards"] == {"cards": []}
    log = SubjectAudit(app.services.database).entries(CAPTURE_TENANT)
    assert [(e.action, e.outcome) for e in log] == [("export", "done"), ("forget", "declined"), ("forget", "done"),
                                                    ("export", "nothing held")]
    assert log[2].held["memory:document"] == 2
    assert "armyworm" not in "".join(e.model_dump_json() for e in log)  # the audit says how much, never what


def _all_cards(app: App) -> list[Card]:
    """Every card, saved ones included (a saved card's payload still says what was noted)."""
    with app.services.database.session() as session:
        ids = list(session.scalars(select(CardRow.card_id)))
    return [c for c in (app.services.state.card(i) for i in ids) if c is not None]
