"""An entry's life as a state machine over the real commands (upload -> card -> edit -> Save -> Edit saved ->
Delete -> upload again), against the real local Hindsight, with every kind of paper in the mix (diary notes,
an office note, a cause list, a receipt, a vakalat) and the same pages sent again after their entries were
corrected. After every step: exactly one memory per saved entry and none for a deleted one, each memory saying
what its record says (case, dates, kind) and dated by it, and no record of a non-hearing kind setting or
erasing a case's next date. Saving a listing, a step or a document never changes a recorded hearing nor removes
a case's next date; a page sent again never files a second entry nor undoes a correction. Entries also come
in through the backlog ingest (no card) and are corrected from chat with /edit CASE DATE, keeping one memory."""

import asyncio
import os
import tempfile
import uuid
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from bot.core.app import App
from bot.core.messages import Reply
from memory.asof import IST
from handlers.legal.case_dates import next_date
from handlers.legal.corrections import DOCUMENT_ID
from handlers.legal.entries import EntryStore
from handlers.legal.models import DATE_MOVING
from handlers.legal.pack import LegalPack
from tests.conftest import make_settings
from tests.legal.helpers import button, say
from tests.legal.kinds_corpus import CASES, CAUSE_LIST, OFFICE_NOTE, RECEIPT, VAKALAT

pytestmark = pytest.mark.hindsight

TENANT, USER = "demo", "aditya"
NOTES = (
    "21/11 Pendyala suit - PW1 chief over. N.D. 4/12",
    "28/11 Pendyala suit - PW1 cross in part. N.D. 12/12",
    "Pendyala suit: opposite counsel served rejoinder copy in office today.",
    "25/11 Durga cheque case - accused examined u/s 313. N.D. 16/12",
    OFFICE_NOTE, CAUSE_LIST, RECEIPT, VAKALAT,
)
EDITS = (("Hearing date", "19.11.2026"), ("Hearing date", "27.11.2026"), ("Next date", "none"),
         ("Next date", "15.12.2026"), ("Case", "Durga cheque case"), ("Case", "Pendyala suit"))


class EntryLife(RuleBasedStateMachine):
    def __init__(self, hindsight_url: str, bank_prefix: str) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        folder = Path(tempfile.mkdtemp(prefix="legal-life-"))
        options = make_settings(folder, hindsight_url, f"{bank_prefix}-ll{uuid.uuid4().hex[:6]}")
        self.app: App = self.run(App.start(options))
        pack = self.app.packs["legal"]
        assert isinstance(pack, LegalPack)
        pack.registers.add(TENANT, CASES)
        self.pack = pack
        self.store = EntryStore(self.app.services.database)
        self.cards: list[Reply] = []
        """The open cards of the last upload, saved or discarded one by one."""
        self.saved: dict[str, Reply] = {}
        """Document id -> the saved card's latest message (with Edit / Delete)."""

    def run(self, work):  # type: ignore[no-untyped-def]
        return self.loop.run_until_complete(work)

    def say(self, text: str | None = None, callback: str | None = None) -> list[Reply]:
        return self.run(self.app.conversation.handle(say(USER, text, callback=callback)))

    def teardown(self) -> None:
        try:
            self.run(self.app.services.memory.delete_bank(self.app.services.bank_of(TENANT, "legal")))
        except Exception:  # noqa: BLE001 - a bank never made is nothing to delete
            pass
        self.run(self.app.aclose())
        self.loop.close()

    @precondition(lambda self: not self.cards)
    @rule(note=st.sampled_from(NOTES))
    def upload(self, note: str) -> None:
        before = self.store.all(TENANT)
        replies = self.say(note)
        self.cards = [r for r in replies if r.card_id]
        if not self.cards:  # the same page again: said so, nothing filed twice, no correction undone
            assert any("already saved" in (r.text or "") for r in replies), [r.text for r in replies]
            assert self.store.all(TENANT) == before

    def _edit(self, card: Reply, field: str, value: str) -> Reply | None:
        [menu] = self.say(callback=button(card, "Edit"))
        self.say(callback=button(menu, field))
        [shown] = self.say(value)
        return shown if shown.card_id == card.card_id else None  # a value refused leaves the card as it was

    @precondition(lambda self: bool(self.cards))
    @rule(edit=st.sampled_from(EDITS))
    def edit_card(self, edit: tuple[str, str]) -> None:
        self.cards[0] = self._edit(self.cards[0], *edit) or self.cards[0]

    def _hearings(self) -> tuple[set[tuple[str, str, object, object]], dict[str, object]]:
        records = self.store.all(TENANT)
        held = {(r.document_id, r.case_id, r.hearing_date, r.next_date) for r in records if r.kind == "hearing"}
        nxt = {c.case_id: next_date([r for r in records if r.case_id == c.case_id]) for c in CASES}
        return held, nxt

    def _save(self, card: Reply) -> None:
        assert card.card_id is not None
        open_card = self.app.services.state.card(card.card_id)
        kind = open_card.payload["entry"]["kind"] if open_card is not None else "hearing"
        held_before, next_before = self._hearings()
        [saved, *_] = self.say(callback=button(card, "Save"))
        if kind != "hearing" and not (open_card is not None and open_card.payload.get("edit_of")):
            held_after, next_after = self._hearings()
            assert held_after == held_before  # a listing, step or document never changes a recorded hearing
            assert all(next_after[c] is not None for c, d in next_before.items() if d is not None)  # nor erases
        stored = self.app.services.state.card(card.card_id)
        if stored is not None and stored.status == "saved":
            self.saved[stored.payload[DOCUMENT_ID]] = saved
        else:
            self.say(callback=button(card, "Discard"))  # held for a person's check: let it go

    @precondition(lambda self: bool(self.cards))
    @rule()
    def save(self) -> None:
        self._save(self.cards.pop(0))

    @precondition(lambda self: not self.cards)
    @rule(note=st.sampled_from(NOTES))
    def ingest(self, note: str) -> None:
        folder = Path(tempfile.mkdtemp(prefix="legal-life-backlog-"))
        page = folder / "page.txt"
        page.write_text(note, encoding="utf-8")
        written = datetime(2026, 11, 30, 19, 0, tzinfo=IST).timestamp()
        os.utime(page, (written, written))
        held_before, next_before = self._hearings()
        before = {r.document_id for r in self.store.all(TENANT)}
        report = self.run(self.pack.ingest_dir(TENANT, folder, yes=True, author=USER))
        assert not report.errors
        new = {r.document_id: r for r in self.store.all(TENANT) if r.document_id not in before}
        if all(r.kind != "hearing" for r in new.values()):
            held_after, next_after = self._hearings()
            assert held_after == held_before  # an ingested listing, step or document never changes a hearing
            assert all(next_after[c] is not None for c, d in next_before.items() if d is not None)

    @precondition(lambda self: not self.cards and bool(self.store.all(TENANT)))
    @rule(data=st.data(), edit=st.sampled_from(EDITS))
    def edit_by_command(self, data: st.DataObject, edit: tuple[str, str]) -> None:
        """Any saved entry, however it was saved (an ingested one has no card), opened with /edit CASE DATE."""
        records = sorted(self.store.all(TENANT), key=lambda r: r.document_id)
        record = data.draw(st.sampled_from(records))
        case = next(c for c in CASES if c.case_id == record.case_id)
        count = len(records)
        [opened] = self.say(f"/edit {case.numbers[0]} {record.hearing_date:%d.%m.%Y}")
        assert opened.card_id is not None, opened.text
        shown = self._edit(opened, *edit)
        self._save(shown or opened)
        assert len(self.store.all(TENANT)) == count  # an edit replaces its entry, never adds one

    @precondition(lambda self: not self.cards and bool(self.saved))
    @rule(data=st.data(), edit=st.sampled_from(EDITS))
    def edit_saved(self, data: st.DataObject, edit: tuple[str, str]) -> None:
        document_id = data.draw(st.sampled_from(sorted(self.saved)))
        opened, menu, *_ = self.say(callback=button(self.saved[document_id], "Edit"))
        if opened.card_id is None:
            return  # deleted meanwhile: "no longer saved"
        self.say(callback=button(menu, edit[0]))
        [shown] = self.say(edit[1])
        self._save(shown if shown.card_id == opened.card_id else opened)
        assert document_id in self.saved  # the edit kept the entry's document id

    @precondition(lambda self: not self.cards and bool(self.saved))
    @rule(data=st.data())
    def delete_saved(self, data: st.DataObject) -> None:
        document_id = data.draw(st.sampled_from(sorted(self.saved)))
        [confirm] = self.say(callback=button(self.saved.pop(document_id), "Delete"))
        if confirm.buttons:
            self.say(callback=button(confirm, "Yes, delete"))
        assert self.store.get(TENANT, document_id) is None

    @invariant()
    def records_and_memory_agree(self) -> None:
        records = self.store.all(TENANT)
        try:
            documents = self.run(self.app.services.memory.list_documents(self.app.services.bank_of(TENANT, "legal")))
        except Exception:  # noqa: BLE001 - no bank yet: nothing was ever saved
            documents = []
        stored = {d.document_id: d for d in documents}
        assert {r.document_id for r in records} == set(stored)  # one memory per saved entry, none for deleted
        assert set(self.saved) <= set(stored)
        for record in records:
            memory = stored[record.document_id]
            assert memory.event_date == record.hearing_date
            assert memory.metadata["case_id"] == record.case_id and memory.metadata["kind"] == record.kind
            assert memory.metadata["hearing_date"] == record.hearing_date.isoformat()
            assert memory.metadata["next_date"] == (record.next_date.isoformat() if record.next_date else "")
        for case in CASES:
            of_case = [r for r in records if r.case_id == case.case_id]
            moving = [r for r in of_case if r.kind in DATE_MOVING]
            assert next_date(of_case) == next_date(moving)  # a step never sets nor erases a next date


def test_an_entrys_life_keeps_one_memory_per_saved_entry(hindsight_url: str, bank_prefix: str) -> None:
    run_state_machine_as_test(lambda: EntryLife(hindsight_url, bank_prefix),
                              settings=settings(max_examples=8, stateful_step_count=16, deadline=None,
                                                suppress_health_check=list(HealthCheck)))
