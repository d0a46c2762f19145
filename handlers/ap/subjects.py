"""The AP pack's part in forget and export.

A vendor's register rows (master with its contact, purchase orders, goods receipts, payment history) are copies
imported from the office's accounting system and are erased. The decisions and payments this bot recorded
(ap_ledger_entries, ap_ledger_actions) and its audit log (ap_audit, ap_runs) are the books' own record of what
was approved and paid, by whom and why: they are exported and KEPT, because the law requires them kept
(Companies Act 2013 s.128(5): books of account 8 years; CGST Act 2017 s.36: 72 months), the DPDP Act 2023
s.8(7) lets a fiduciary keep what another law requires, and without them an invoice could be paid twice.
They hold ids, amounts, dates and codes, never a contact's name, phone or email.
A person (a clerk) leaves their pending override question; decisions they signed are kept for the same reason.
"""

import json
from typing import Any

from sqlalchemy import delete, select

from bot.store import Database
from bot.store.registers import RegisterStore, StoredRecord
from bot.store.sql import utc
from bot.core.subject_match import SubjectTerms
from bot.store.subject_registers import (
    Records,
    RegisterSubjectStore,
    find_rows,
    same_id,
    terms_from,
)
from handlers.ap.audit import AuditRow, RunRow
from handlers.ap.ledger_store import ActionRow, EntryRow
from handlers.ap.reason_asks import PendingReasonRow
from memory.subjects import HeldItem, Subject

BOOKS_KEPT = ("books of account: kept 8 years (Companies Act 2013 s.128(5)) and 72 months (CGST Act s.36), "
              "which the DPDP Act s.8(7) allows; ids, amounts and dates only, and it stops a second payment")


def _names(data: dict[str, Any]) -> list[str]:
    return [str(data.get("name") or ""), *(str(a) for a in data.get("aliases") or [])]


def vendor_rows(records: Records, vendor_id: str) -> list[tuple[str, str]]:
    vendors = [k for k, r in records.get("vendors", {}).items()
               if same_id(k, vendor_id) or same_id(str(r.data.get("vendor_id", "")), vendor_id)]
    ids = {str(records["vendors"][k].data.get("vendor_id", k)) for k in vendors} | {vendor_id}

    def owned(record: StoredRecord) -> bool:
        return any(same_id(str(record.data.get("vendor_id", "")), i) for i in ids)

    pos = [k for k, r in records.get("purchase-orders", {}).items() if owned(r)]
    po_numbers = {str(records["purchase-orders"][k].data.get("po_number", "")).upper() for k in pos}
    grns = [k for k, r in records.get("goods-receipts", {}).items()
            if str(r.data.get("po_number", "")).upper() in po_numbers]
    payments = [k for k, r in records.get("payments", {}).items() if owned(r)]
    return ([("vendors", k) for k in vendors] + [("purchase-orders", k) for k in pos]
            + [("goods-receipts", k) for k in grns] + [("payments", k) for k in payments])


def _ids(data: dict[str, Any]) -> list[str]:
    return [str(data.get("vendor_id") or ""), str(data.get("gstin") or ""), str(data.get("code") or "")]


def vendor_terms(registers: RegisterStore, subject: Subject) -> SubjectTerms | None:
    if subject.kind != "vendor":
        return None
    return terms_from(registers.records(subject.tenant, "vendors").get("vendors", {}), "vendors", subject,
                      vendor_rows, _ids, _names)


def find_vendors(registers: RegisterStore, tenant: str, query: str) -> list[tuple[str, str]]:
    vendors = registers.records(tenant, "vendors").get("vendors", {})
    return find_rows(vendors, query, _ids, _names)


def vendor_store(registers: RegisterStore) -> RegisterSubjectStore:
    return RegisterSubjectStore("ap registers", "vendor", registers, vendor_rows)


class APRecordsStore:
    """The decisions, payments and audit log about a vendor (exported, kept), and a clerk's pending question."""

    name = "ap records"

    def __init__(self, database: Database, bank_of_tenant: Any) -> None:
        self._db, self._bank_of = database, bank_of_tenant

    def _vendor(self, subject: Subject) -> dict[str, list[Any]]:
        with self._db.session() as s:
            entries = list(s.scalars(select(EntryRow).where(EntryRow.tenant_id == subject.tenant)))
            actions = list(s.scalars(select(ActionRow).where(ActionRow.tenant_id == subject.tenant)))
            audit = list(s.scalars(select(AuditRow).where(AuditRow.bank_id == self._bank_of(subject.tenant),
                                                          AuditRow.vendor_id.is_not(None))))
            mine_audit = [a for a in audit if same_id(a.vendor_id or "", subject.subject_id)]
            run_ids = {a.run_id for a in mine_audit}
            runs = list(s.scalars(select(RunRow).where(RunRow.run_id.in_(run_ids)))) if run_ids else []
        return {"ledger entries": [e for e in entries if same_id(e.vendor_id, subject.subject_id)],
                "ledger actions": [a for a in actions if same_id(a.vendor_id, subject.subject_id)],
                "audit entries": mine_audit, "decision runs": runs}

    def _pending(self, subject: Subject) -> list[PendingReasonRow]:
        with self._db.session() as s:
            return list(s.scalars(select(PendingReasonRow).where(PendingReasonRow.tenant_id == subject.tenant,
                                                                 PendingReasonRow.user_id == subject.subject_id)))

    def _signed(self, subject: Subject) -> int:
        with self._db.session() as s:
            return len(list(s.scalars(select(ActionRow.id).where(ActionRow.tenant_id == subject.tenant,
                                                                 ActionRow.by_user == subject.subject_id))))

    async def list_held(self, subject: Subject) -> list[HeldItem]:
        if subject.kind == "person":
            held = [HeldItem(store=self.name, key=f"pending:{p.run_id}", kind="pending override question")
                    for p in self._pending(subject)]
            if self._signed(subject):
                held.append(HeldItem(store=self.name, key="signed", kind="decisions signed",
                                     kept_because=BOOKS_KEPT))
            return held
        if subject.kind != "vendor":
            return []
        return [HeldItem(store=self.name, key=f"{kind}:{_key(row)}", kind=kind, kept_because=BOOKS_KEPT)
                for kind, rows in self._vendor(subject).items() for row in rows]

    async def export(self, subject: Subject) -> dict[str, Any]:
        if subject.kind == "person":
            return {"pending override questions": [{"run_id": p.run_id, "action": p.action,
                                                    "asked_at": utc(p.asked_at).isoformat()}  # type: ignore[union-attr]
                                                   for p in self._pending(subject)],
                    "decisions signed": self._signed(subject), "kept": BOOKS_KEPT}
        if subject.kind != "vendor":
            return {}
        return {"kept": BOOKS_KEPT, **{kind: [_row(r) for r in rows] for kind, rows in self._vendor(subject).items()}}

    async def delete(self, subject: Subject) -> list[HeldItem]:
        if subject.kind != "person":
            return []  # a vendor's books are kept (see BOOKS_KEPT)
        held = [h for h in await self.list_held(subject) if h.kept_because is None]
        with self._db.session() as s:
            s.execute(delete(PendingReasonRow).where(PendingReasonRow.tenant_id == subject.tenant,
                                                     PendingReasonRow.user_id == subject.subject_id))
        return held


def _key(row: Any) -> str:
    for column in row.__table__.primary_key.columns:
        return str(getattr(row, column.key))
    return "?"


def _row(row: Any) -> dict[str, Any]:
    exported: dict[str, Any] = {}
    for column in row.__table__.columns:
        value = getattr(row, column.key)
        if column.key in ("detail", "report", "billed") and isinstance(value, str):
            value = json.loads(value)
        exported[column.key] = value.isoformat() if hasattr(value, "isoformat") else value
    return exported
