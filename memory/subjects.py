"""Forget and export one subject (a farmer, a case, a vendor) across every store that holds data about it.

India's Digital Personal Data Protection Act gives a person the right to see and to erase what is held about
them. Smriti keeps such data in several stores: Hindsight (documents, facts, observations), the retain outbox,
and the bot's own records (cards, intake, follow-ups, registers). Each store implements SubjectStore; the
`smriti forget` and `smriti export-subject` commands ask every store in turn. This module implements the memory
side; stores of the bot's own database plug into the same protocol.
"""

from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict

from memory import tags
from memory.errors import BankNotFound
from memory.models import SubjectExport

if TYPE_CHECKING:
    from memory.client import MemoryClient
    from memory.outbox import Outbox

SubjectKind = Literal["farmer", "case", "vendor", "person"]
_PACK_OF: dict[SubjectKind, str] = {"farmer": "agri", "case": "legal", "vendor": "ap"}
_TAG_OF: dict[SubjectKind, Callable[[str], str]] = {
    "farmer": tags.farmer, "case": tags.case, "vendor": tags.vendor,
    "person": lambda person_id: tags.tag(tags.TagPrefix.AUTHOR, person_id),
}
PERSON_MEMORIES_KEPT = ("memories a person recorded are the organisation's records about its farmers, cases and "
                        "vendors; forget those subjects to erase them")


class Subject(BaseModel):
    """Whom a request is about, in which tenant: `farmer F017`, `case OS 112/2024`, `vendor V-03`, or `person
    ravi` (a user of the bot: their own rows, not the memories they recorded)."""

    model_config = ConfigDict(frozen=True)

    tenant: str
    kind: SubjectKind
    subject_id: str

    @property
    def pack(self) -> str | None:
        """The pack whose bank and registers hold the subject; None for a person, who is the core's."""
        return _PACK_OF.get(self.kind)

    @property
    def tag(self) -> str:
        """The memory tag every memory about this subject carries."""
        return _TAG_OF[self.kind](self.subject_id)


class HeldItem(BaseModel):
    """One thing a store holds about a subject, described without its content (safe to show and to audit)."""

    store: str
    key: str
    kind: str
    day: date | None = None
    kept_because: str | None = None
    """Set when forgetting keeps this item (exported, never erased), and why: the law or the books need it."""


class SubjectStore(Protocol):
    """A store that can say what it holds about a subject, hand it over as JSON, and erase it."""

    name: str

    async def list_held(self, subject: Subject) -> list[HeldItem]: ...

    async def export(self, subject: Subject) -> dict[str, Any]: ...

    async def delete(self, subject: Subject) -> list[HeldItem]:
        """Erase everything about the subject; return what was erased."""
        ...


class MemorySubjectStore:
    """Hindsight (documents, facts, observations) and the outbox's memories not yet confirmed."""

    name = "memory"

    def __init__(self, memory: "MemoryClient", outbox: "Outbox", bank_of: Callable[[str, str], str]) -> None:
        self.memory, self.outbox, self.bank_of = memory, outbox, bank_of

    def _bank(self, subject: Subject) -> str:
        assert subject.pack is not None
        return self.bank_of(subject.tenant, subject.pack)

    def _waiting(self, subject: Subject) -> list[HeldItem]:
        return [HeldItem(store=self.name, key=q.item.document_id, kind="waiting to be stored",
                         day=q.item.event_time.date())
                for q in self.outbox.pending(self._bank(subject)) if subject.tag in q.item.tags]

    async def list_held(self, subject: Subject) -> list[HeldItem]:
        if subject.pack is None:
            return [HeldItem(store=self.name, key="*", kind="memories recorded", kept_because=PERSON_MEMORIES_KEPT)]
        bank = self._bank(subject)
        try:
            documents = await self.memory.documents_about(bank, subject.tag)
            units = await self.memory.list_memories(bank, subject.tag)
        except BankNotFound:
            return self._waiting(subject)  # a tenant that never stored anything here
        held = [HeldItem(store=self.name, key=d.document_id, kind="document", day=d.event_date) for d in documents]
        observations = [m for m in units if m.type == "observation"]
        held += [HeldItem(store=self.name, key=m.memory_id, kind="observation", day=m.event_date)
                 for m in observations]
        return held + self._waiting(subject)

    async def export(self, subject: Subject) -> dict[str, Any]:
        if subject.pack is None:
            return {"kept": PERSON_MEMORIES_KEPT}
        try:
            exported = await self.memory.export_subject(self._bank(subject), subject.tag)
        except BankNotFound:
            exported = SubjectExport(bank_id=self._bank(subject), tag=subject.tag)
        waiting = [q.item.model_dump(mode="json") for q in self.outbox.pending(self._bank(subject))
                   if subject.tag in q.item.tags]
        return {**exported.model_dump(mode="json"), "waiting_to_be_stored": waiting}

    async def delete(self, subject: Subject) -> list[HeldItem]:
        if subject.pack is None:
            return []
        bank = self._bank(subject)
        held = await self.list_held(subject)
        # The outbox first, so a flush racing this cannot store the subject again afterwards.
        self.outbox.forget(bank, subject.tag)
        try:
            report = await self.memory.forget_subject(bank, subject.tag)
        except BankNotFound:
            return held
        if report.left:
            raise RuntimeError(f"{len(report.left)} memories about {subject.kind} {subject.subject_id} remain")
        await self._refresh_summaries(bank)
        return held

    async def _refresh_summaries(self, bank: str) -> None:
        """Rebuild the bank's mental models, whose text may still quote what was just erased."""
        for model in await self.memory.list_mental_models(bank):
            await self.memory.refresh_mental_model(bank, model.model_id)
