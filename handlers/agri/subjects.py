"""The field pack's part in forget and export: how a farmer is recognised, and the farmer's register row."""

from typing import Any

from bot.store.registers import RegisterStore, StoredRecord
from bot.core.subject_match import SubjectTerms, fold
from handlers.agri.identity import HONORIFICS
from bot.store.subject_registers import (
    Records,
    RegisterSubjectStore,
    find_rows,
    same_id,
    terms_from,
)
from handlers.agri.visit_records import SavedOutcome, SavedVisit, VisitRecords
from memory.subjects import HeldItem, Subject


def _ids(data: dict[str, Any]) -> list[str]:
    return [str(data.get("id") or "")]


def _names(data: dict[str, Any]) -> list[str]:
    return [str(data.get(k) or "") for k in ("name", "name_te")]


def _farmers(registers: RegisterStore, tenant: str) -> dict[str, Any]:
    return registers.records(tenant, "farmers").get("farmers", {})


def farmer_rows(records: Records, farmer_id: str) -> list[tuple[str, str]]:
    return [("farmers", key) for key, record in records.get("farmers", {}).items()
            if same_id(key, farmer_id) or same_id(str(record.data.get("id", "")), farmer_id)]


MIN_WORD = 4
"""A name word shorter than this is too common a syllable to prove a record is about the farmer."""


def farmer_terms(registers: RegisterStore, subject: Subject) -> SubjectTerms | None:
    """The farmer's ids and names, and each word of the name that no other farmer's name has: officers name
    a farmer by first name ("Ramulamma garu"), so a note saying only that is about them and is forgotten too."""
    if subject.kind != "farmer":
        return None
    terms = terms_from(_farmers(registers, subject.tenant), "farmers", subject, farmer_rows, _ids, _names)
    if not terms.names:
        return terms
    theirs = {fold(w) for name in terms.others for w in name.split()}
    words = [w for name in terms.names for w in name.split()
             if len(w) >= MIN_WORD and fold(w) not in theirs and fold(w) not in HONORIFICS]
    return terms.model_copy(update={"names": list(dict.fromkeys([*terms.names, *words]))})


def find_farmers(registers: RegisterStore, tenant: str, query: str) -> list[tuple[str, str]]:
    return find_rows(_farmers(registers, tenant), query, _ids, _names)


def _written(kind: str, record: StoredRecord, records: Records) -> dict[str, str]:
    from handlers.agri.registers import KINDS

    register = KINDS[kind]
    cells = register.cells_written(register.model.model_validate(record.data), records)
    headers = {c.field: c.header for c in register.columns}
    return {headers[f]: v for f, v in cells.items() if f in headers and v}


def farmer_store(registers: RegisterStore) -> RegisterSubjectStore:
    return RegisterSubjectStore("agri registers", "farmer", registers, farmer_rows, _written)


class VisitRecordStore:
    """The farmer's saved visits and outcomes (the records memory is written from): listed, exported, erased."""

    name = "agri visit records"

    def __init__(self, records: VisitRecords) -> None:
        self.records = records

    def _farmer_ids(self, subject: Subject) -> list[str]:
        if subject.kind != "farmer":
            return []
        return [f for f in self.records.farmer_ids(subject.tenant) if same_id(f, subject.subject_id)]

    def _of(self, subject: Subject) -> tuple[list[SavedVisit], list[SavedOutcome]]:
        visits: list[SavedVisit] = []
        outcomes: list[SavedOutcome] = []
        for farmer_id in self._farmer_ids(subject):
            found = self.records.of_farmer(subject.tenant, farmer_id)
            visits += found[0]
            outcomes += found[1]
        return visits, outcomes

    async def list_held(self, subject: Subject) -> list[HeldItem]:
        visits, outcomes = self._of(subject)
        return ([HeldItem(store=self.name, key=v.document_id, kind="visit record", day=v.visit.date) for v in visits]
                + [HeldItem(store=self.name, key=o.document_id, kind="outcome record", day=o.outcome.date)
                   for o in outcomes])

    async def export(self, subject: Subject) -> dict[str, Any]:
        visits, outcomes = self._of(subject)
        return {"visits": [v.model_dump(mode="json") for v in visits],
                "outcomes": [o.model_dump(mode="json") for o in outcomes]}

    async def delete(self, subject: Subject) -> list[HeldItem]:
        held = await self.list_held(subject)
        for farmer_id in self._farmer_ids(subject):
            self.records.erase_farmer(subject.tenant, farmer_id)
        return held
