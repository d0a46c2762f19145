"""The legal pack's part in forget and export: how a case is recognised (its id, numbers, CNR, title and
aliases), and the case's register row."""

from typing import Any

from bot.store.registers import RegisterStore
from bot.core.subject_match import SubjectTerms
from bot.store.subject_registers import (
    Records,
    RegisterSubjectStore,
    find_rows,
    same_id,
    terms_from,
)
from handlers.legal.entries import EntryStore
from handlers.legal.models import HearingRecord
from handlers.legal.registers import case_slug
from memory import tags
from memory.subjects import HeldItem, Subject


def _ids(data: dict[str, Any]) -> list[str]:
    numbers = data.get("numbers") or []
    return [str(data.get("case_id") or ""), *(str(n) for n in numbers), str(data.get("cnr") or "")]


def _names(data: dict[str, Any]) -> list[str]:
    return [str(data.get("title") or ""), *(str(a) for a in data.get("aliases") or [])]


def case_rows(records: Records, case_id: str) -> list[tuple[str, str]]:
    return [("cases", key) for key, record in records.get("cases", {}).items()
            if key == case_slug(case_id) or any(i and same_id(i, case_id) for i in _ids(record.data))]


def case_terms(registers: RegisterStore, subject: Subject) -> SubjectTerms | None:
    if subject.kind != "case":
        return None
    return terms_from(registers.records(subject.tenant, "cases").get("cases", {}), "cases", subject, case_rows,
                      _ids, _names)


def case_store(registers: RegisterStore) -> RegisterSubjectStore:
    return RegisterSubjectStore("legal registers", "case", registers, case_rows)


def find_cases(registers: RegisterStore, tenant: str, query: str) -> list[tuple[str, str]]:
    return find_rows(registers.records(tenant, "cases").get("cases", {}), query, _ids, _names)


class EntrySubjectStore:
    """A case's confirmed entries (hearings, listings, steps, documents) and their audit, in the database."""

    name = "legal entries"

    def __init__(self, entries: EntryStore) -> None:
        self.entries = entries

    def _of(self, subject: Subject) -> list[HearingRecord]:
        if subject.kind != "case":
            return []
        return self.entries.of_case(subject.tenant, tags.slug(subject.subject_id))

    async def list_held(self, subject: Subject) -> list[HeldItem]:
        return [HeldItem(store=self.name, key=r.document_id, kind=f"{r.kind} entry", day=r.hearing_date)
                for r in self._of(subject)]

    async def export(self, subject: Subject) -> dict[str, Any]:
        return {"entries": [r.model_dump(mode="json") for r in self._of(subject)]}

    async def delete(self, subject: Subject) -> list[HeldItem]:
        held = await self.list_held(subject)
        if subject.kind == "case":
            self.entries.erase_case(subject.tenant, tags.slug(subject.subject_id))
        return held
