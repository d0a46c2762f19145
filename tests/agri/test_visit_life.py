"""A visit's life as a state machine over the real commands (note -> card -> edits of date and farmer -> Save ->
outcome answer -> forget; a next note over an unsaved card, which stays in sight and is saved or discarded
later), against the real local Hindsight. After every step: nothing is stored before Save,
one memory per saved visit and outcome, each visit's document id carries its saved date, and the records and
the bank agree (ids, dates, farmers)."""

import asyncio
import tempfile
import uuid
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from bot.cli.subjects import forget
from bot.core.app import App
from bot.core.messages import Reply
from bot.core.registry import Registry
from handlers.agri.pack import AgriPack
from memory.subjects import Subject
from tests.agri.conftest import CAPTURE_TENANT, RecordingNotifier, agri_users, button, say
from tests.conftest import make_settings

pytestmark = pytest.mark.hindsight

FARMERS = {"F011": "Raju Yadav", "F013": "Bhaskar Rao", "F001": "Ramesh Goud"}
CROP = {"F011": "cotton", "F013": "cotton", "F001": "chilli"}
NOTES = ("{name} {crop} whitefly 20 percent, advised Proclaim, accepted",
         "{name} {crop} leaf curl seen, Proclaim too costly he said",
         "Visited {name}, {crop} looks fine, no spray needed")
DAYS = ("2026-09-03", "2026-10-15", "2026-11-20")


class VisitLife(RuleBasedStateMachine):
    def __init__(self, hindsight_url: str, bank_prefix: str) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        folder = Path(tempfile.mkdtemp(prefix="agri-life-"))
        options = make_settings(folder, hindsight_url, f"{bank_prefix}-life{uuid.uuid4().hex[:6]}")
        self.app: App = self.run(App.start(options, registry=Registry(agri_users()), pack_names=["agri"]))
        self.notifier = RecordingNotifier()
        self.app.services.outbound.register("console", self.notifier)
        pack = self.app.packs["agri"]
        assert isinstance(pack, AgriPack)
        self.pack = pack
        self.card: Reply | None = None
        self.earlier: list[Reply] = []
        """Cards left unsaved under a next note, as shown again with their buttons."""
        self.saves = 0
        self.forgotten: set[str] = set()

    def run(self, work):  # type: ignore[no-untyped-def]
        return self.loop.run_until_complete(work)

    def say(self, text: str | None = None, callback: str | None = None) -> list[Reply]:
        return self.run(self.app.conversation.handle(say("ravi", text, callback=callback)))

    def teardown(self) -> None:
        bank = self.app.services.bank_of(CAPTURE_TENANT, "agri")
        try:
            self.run(self.app.services.memory.delete_bank(bank))
        except Exception:  # noqa: BLE001 - a bank never made is nothing to delete
            pass
        self.run(self.app.aclose())
        self.loop.close()

    @precondition(lambda self: self.card is None)
    @rule(farmer=st.sampled_from(sorted(FARMERS)), note=st.sampled_from(NOTES))
    def send_note(self, farmer: str, note: str) -> None:
        if farmer in self.forgotten:
            return
        replies = self.say(note.format(name=FARMERS[farmer], crop=CROP[farmer]))
        self.card = next((r for r in replies if r.card_id), None)
        assert self.card is not None and f"({farmer})" in self.card.text

    @precondition(lambda self: self.card is not None and len(self.earlier) < 2)
    @rule(farmer=st.sampled_from(sorted(FARMERS)), note=st.sampled_from(NOTES))
    def send_note_over_an_unsaved_card(self, farmer: str, note: str) -> None:
        if farmer in self.forgotten or self.card is None:
            return
        kept = [self.card, *self.earlier]
        replies = self.say(note.format(name=FARMERS[farmer], crop=CROP[farmer]))
        new = replies[0]
        assert new.card_id is not None and f"({farmer})" in new.text
        assert any("not saved yet" in r.text for r in replies[1:])
        again = {r.card_id: r for r in replies[1:] if r.card_id}
        # Every unsaved card is shown again with its Save button; nothing was stored by the new note.
        assert set(again) == {c.card_id for c in kept}
        assert all(any(b.label == "Save" for b in r.flat_buttons()) for r in again.values())
        self.earlier = list(again.values())
        self.card = new

    @precondition(lambda self: bool(self.earlier))
    @rule(save=st.booleans())
    def finish_an_earlier_card(self, save: bool) -> None:
        earlier = self.earlier.pop(0)
        replies = self.say(callback=button(earlier, "Save" if save else "Discard"))
        if save:
            assert "Saved" in replies[0].text, replies[0].text
            self.saves += 1
        else:
            assert "Discarded" in replies[0].text, replies[0].text

    def _edit(self, label: str, value: str) -> None:
        assert self.card is not None
        [menu] = self.say(callback=button(self.card, "Edit"))
        self.say(callback=button(menu, label))
        [shown] = self.say(value)
        assert shown.card_id == self.card.card_id, shown.text
        self.card = shown

    @precondition(lambda self: self.card is not None)
    @rule(day=st.sampled_from(DAYS))
    def edit_date(self, day: str) -> None:
        self._edit("Date", day)

    @precondition(lambda self: self.card is not None)
    @rule(farmer=st.sampled_from(["F011", "F013"]))
    def edit_farmer(self, farmer: str) -> None:
        if farmer not in self.forgotten and "(F001)" not in (self.card.text if self.card else ""):
            self._edit("Farmer", FARMERS[farmer])

    @precondition(lambda self: self.card is not None)
    @rule()
    def save(self) -> None:
        assert self.card is not None
        replies = self.say(callback=button(self.card, "Save"))
        assert "Saved" in replies[0].text, replies[0].text
        self.card = None
        self.saves += 1

    @precondition(lambda self: self.card is not None)
    @rule()
    def discard(self) -> None:
        assert self.card is not None
        self.say(callback=button(self.card, "Discard"))
        self.card = None

    @precondition(lambda self: self.card is None)
    @rule(answer=st.sampled_from(["Proclaim worked, fully controlled", "no use, still whitefly is there"]))
    def answer_followup(self, answer: str) -> None:
        scheduler = self.app.services.scheduler
        assert scheduler is not None
        pending = scheduler.pending("ravi", "agri")
        if not pending:
            return
        assert self.run(scheduler.fire(pending[0].followup_id))
        card = self.say(answer)[0]
        assert card.card_id is not None, card.text
        replies = self.say(callback=button(card, "Save"))
        assert "Saved" in replies[0].text, replies[0].text

    @precondition(lambda self: self.card is None and not self.earlier)
    @rule(farmer=st.sampled_from(["F011", "F013"]))
    def forget_farmer(self, farmer: str) -> None:
        subject = Subject(tenant=CAPTURE_TENANT, kind="farmer", subject_id=farmer)
        assert self.run(forget(self.app, subject, lambda _: True, by="test")) == 0
        self.forgotten.add(farmer)

    @invariant()
    def records_and_memory_agree(self) -> None:
        visits = self.pack.records.visits(CAPTURE_TENANT)
        outcomes = self.pack.records.outcomes(CAPTURE_TENANT)
        assert len(visits) <= self.saves  # nothing is recorded before Save
        assert not {v.visit.farmer_id for v in visits} & self.forgotten
        for saved in visits:
            if saved.visit.id[0] != "V":
                assert f"-{saved.visit.date:%Y%m%d}-" in saved.document_id
        bank = self.app.services.bank_of(CAPTURE_TENANT, "agri")
        try:
            documents = self.run(self.app.services.memory.list_documents(bank))
        except Exception:  # noqa: BLE001 - no bank yet: nothing was ever saved
            documents = []
        stored = {d.document_id: d for d in documents}
        expected = {i.document_id: i for i in self.pack.memory_records(self.app.services, CAPTURE_TENANT)}
        assert set(stored) == set(expected)  # one memory per saved visit and outcome, none left over
        assert len(expected) == len(visits) + len(outcomes)
        for document_id, item in expected.items():
            assert stored[document_id].event_date == item.event_time.date()
            assert stored[document_id].metadata.get("farmer_id") == item.metadata["farmer_id"]


def test_a_visits_life_keeps_one_memory_per_saved_visit_dated_as_saved(hindsight_url: str, bank_prefix: str) -> None:
    run_state_machine_as_test(lambda: VisitLife(hindsight_url, bank_prefix),
                              settings=settings(max_examples=6, stateful_step_count=20, deadline=None,
                                                suppress_health_check=list(HealthCheck)))
