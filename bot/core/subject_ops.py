"""Forget and export one subject across every store, for the command line and the chat alike.

`preview` only reads; `erase` deletes what is not kept, store by store (memory first, registers and the person
row last, so the ids and names that find records are still there while records are found); every request is
audited in the database (counts, never content).
"""

from datetime import UTC, datetime
from typing import Any

from bot.services.i18n import counted, in_number
from bot.store.subject_audit import AuditEntry, Outcome, SubjectAudit
from bot.core.subject_match import SubjectTerms
from bot.store.subject_stores import (
    CardStore,
    FollowUpStore,
    InboxStore,
    PersonStore,
    QueuedItemStore,
    ReplyStore,
)
from bot.core.pack import Pack, Services
from memory.errors import MemoryLayerError
from memory.subjects import HeldItem, MemorySubjectStore, Subject, SubjectStore


def terms_for(packs: dict[str, Pack], subject: Subject) -> SubjectTerms:
    """The subject's ids and names as its pack knows them; its id alone when no pack knows it."""
    for pack in packs.values():
        terms = pack.subject_terms(subject)
        if terms is not None:
            return terms
    return SubjectTerms(exact=[subject.subject_id])


def canonical(packs: dict[str, Pack], subject: Subject) -> Subject:
    """The subject under the id its register keeps ("os 112/2024" -> "os-112-2024"), which its memories carry."""
    found = terms_for(packs, subject).canonical
    return subject.model_copy(update={"subject_id": found}) if found else subject


def stores_for(services: Services, packs: dict[str, Pack]) -> list[SubjectStore]:
    """Every store that holds data about subjects, in the order they are erased."""
    def terms_of(subject: Subject) -> SubjectTerms:
        return terms_for(packs, subject)

    return [MemorySubjectStore(services.memory, services.outbox, services.bank_of),
            CardStore(services, terms_of), QueuedItemStore(services, terms_of), InboxStore(services, terms_of),
            ReplyStore(services, terms_of), FollowUpStore(services, terms_of),
            *(store for pack in packs.values() for store in pack.subject_stores()),
            PersonStore(services)]


def counts(held: list[HeldItem]) -> dict[str, int]:
    found: dict[str, int] = {}
    for item in held:
        key = f"{item.store}:{item.kind}"
        found[key] = found.get(key, 0) + 1
    return found


def describe(subject: Subject, held: list[HeldItem]) -> str:
    """What will go, store by store with dates, then what is kept and why (no content)."""
    if not held:
        return f"Nothing is held about {subject.kind} {subject.subject_id} in tenant {subject.tenant}."
    erased = [i for i in held if i.kept_because is None]
    lines = [f"Held about {subject.kind} {subject.subject_id} in tenant {subject.tenant}:"]
    if erased:
        lines.append("Will be erased:")
    for key, count in sorted(counts(erased).items()):
        store, kind = key.split(":", 1)
        days = sorted({i.day.isoformat() for i in erased if f"{i.store}:{i.kind}" == key and i.day})
        dated = f" (dated {', '.join(days[:8])}{', ...' if len(days) > 8 else ''})" if days else ""
        lines.append(f"  {store}: {count} {in_number(count, kind)}{dated}")
    kept = [i for i in held if i.kept_because is not None]
    if kept:
        lines.append("Kept (exported, not erased):")
        reasons: dict[tuple[str, str], int] = {}
        for item in kept:
            reasons[(item.store, item.kept_because or "")] = reasons.get((item.store, item.kept_because or ""), 0) + 1
        lines += [f"  {store}: {counted(n, 'item', 'items')}, because {why}" for (store, why), n in reasons.items()]
    return "\n".join(lines)


class SubjectRequests:
    """Preview, erase and export one subject; each request audited as who asked and how."""

    def __init__(self, services: Services, packs: dict[str, Pack], by: str, via: str) -> None:
        self.stores = stores_for(services, packs)
        self.packs, self.by, self.via = packs, by, via
        self._audit = SubjectAudit(services.database)

    def audit(self, action: str, subject: Subject, held: list[HeldItem], outcome: Outcome) -> None:
        self._audit.record(AuditEntry(
            at=datetime.now(UTC), action=action, by=self.by, via=self.via,  # type: ignore[arg-type]
            tenant=subject.tenant, kind=subject.kind, subject_id=subject.subject_id, held=counts(held),
            kept=sum(1 for i in held if i.kept_because is not None), outcome=outcome))

    async def preview(self, subject: Subject) -> list[HeldItem]:
        return [item for store in self.stores for item in await store.list_held(subject)]

    async def erase(self, subject: Subject, held: list[HeldItem]) -> str | None:
        """Erase from every store and audit; the reason it failed part-way, or None when done."""
        try:
            for store in self.stores:
                await store.delete(subject)
        except (MemoryLayerError, RuntimeError) as exc:
            self.audit("forget", subject, held, "failed")
            return str(exc)
        self.audit("forget", subject, held, "done")
        return None

    async def export(self, subject: Subject) -> dict[str, Any]:
        held = await self.preview(subject)
        result = {"subject": subject.model_dump(), "exported_at": datetime.now(UTC).isoformat(),
                  "stores": {store.name: await store.export(subject) for store in self.stores}}
        self.audit("export", subject, held, "done" if held else "nothing held")
        return result
