"""The field pack's part in forget and export: how a farmer is recognised, and the farmer's register row."""

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
from memory.subjects import Subject


def _ids(data: dict[str, Any]) -> list[str]:
    return [str(data.get("id") or "")]


def _names(data: dict[str, Any]) -> list[str]:
    return [str(data.get(k) or "") for k in ("name", "name_te")]


def _farmers(registers: RegisterStore, tenant: str) -> dict[str, Any]:
    return registers.records(tenant, "farmers").get("farmers", {})


def farmer_rows(records: Records, farmer_id: str) -> list[tuple[str, str]]:
    return [("farmers", key) for key, record in records.get("farmers", {}).items()
            if same_id(key, farmer_id) or same_id(str(record.data.get("id", "")), farmer_id)]


def farmer_terms(registers: RegisterStore, subject: Subject) -> SubjectTerms | None:
    if subject.kind != "farmer":
        return None
    return terms_from(_farmers(registers, subject.tenant), "farmers", subject, farmer_rows, _ids, _names)


def find_farmers(registers: RegisterStore, tenant: str, query: str) -> list[tuple[str, str]]:
    return find_rows(_farmers(registers, tenant), query, _ids, _names)


def farmer_store(registers: RegisterStore) -> RegisterSubjectStore:
    return RegisterSubjectStore("agri registers", "farmer", registers, farmer_rows)
