"""One import path for every register kind, used by customers (`smriti import`) and by `smriti seed`.

A file is read into records, each compared with what the tenant already has by natural key: added, updated,
unchanged or rejected (with the row number and the reason). Nothing is written on a dry run; `apply` upserts,
and only `replace` removes what the file does not mention.
"""

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from bot.services.registers.codes import fold_code
from bot.services.registers.kinds import Cells, RegisterKind, Registers
from bot.services.registers.reasons import clerk_reason
from bot.services.registers.cells import date_text
from bot.services.registers.table import SourceRow, header_key, read_table
from bot.store.db import Database
from bot.store.registers import RegisterStore, StoredRecord
from bot.store.subject_audit import AuditEntry, SubjectAudit
from bot.store.tenants import ensure_tenant
from memory.asof import IST


MEMORIES_SHOWN = 5
"""How many of the memories an import files the report quotes (with the count of the rest)."""


class Rejected(BaseModel):
    row: int
    reason: str


class ImportReport(BaseModel):
    """What an import does (dry run) or did (applied), row by row."""

    kind: str
    tenant: str
    added: list[str] = []
    updated: list[str] = []
    unchanged: list[str] = []
    removed: list[str] = []
    rejected: list[Rejected] = []
    ignored_columns: list[str] = []
    not_understood: dict[str, list[str]] = {}
    """Cells a history import read but could not understand, by column as the sheet names it (kept as written)."""
    created: list[str] = []
    """Records of other kinds the rows named and this import makes ("villages Kodad")."""
    forgotten: list[str] = []
    """Rows about someone erased by a forget: when and by whom; added back only when asked."""
    restored: bool = False
    applied: bool = False
    memories: list[str] = []
    """A history import (a visit log): the first memories it writes, each with its date and document id."""
    memories_total: int = 0

    def _memory_lines(self) -> list[str]:
        if not self.memories_total:
            return []
        verb = "memories queued for the memory server" if self.applied else "memories to write"
        more = self.memories_total - len(self.memories)
        return ([f"  {verb}: {self.memories_total}"] + [f"    {line}" for line in self.memories]
                + ([f"    ... and {more} more"] if more > 0 else []))

    def render(self) -> str:
        verb = "Imported" if self.applied else "Dry run (nothing written; --apply writes)"
        lines = [f"{verb}: {self.kind} for tenant {self.tenant}",
                 f"  add {len(self.added)}, update {len(self.updated)}, unchanged {len(self.unchanged)}, "
                 f"rejected {len(self.rejected)}" + (f", remove {len(self.removed)}" if self.removed else "")]
        for title, keys in (("add", self.added), ("update", self.updated), ("remove", self.removed)):
            if keys:
                lines.append(f"  {title}: {', '.join(keys)}")
        for rejected in self.rejected:
            lines.append(f"  row {rejected.row}: {rejected.reason}")
        for line in self.forgotten:
            lines.append(f"  {line}")
        if self.forgotten and not self.restored:
            lines.append("  (rows about someone erased are left out; --restore-forgotten adds them back)")
        if self.created:
            lines.append(f"  new (named in this file, made with it): {', '.join(self.created)}")
        if self.ignored_columns:
            lines.append(f"  columns not used: {', '.join(self.ignored_columns)}")
        for column, values in self.not_understood.items():
            lines.append(f"  not understood in {column} (kept as written): {'; '.join(values)}")
        return "\n".join(lines + self._memory_lines())


@dataclass
class _Parsed:
    row: int
    record: BaseModel
    cells: Cells = field(default_factory=dict)


def _json_records(kind: RegisterKind, data: Any) -> list[tuple[int, Any]]:
    if kind.json_key is None:
        return [(1, data)]
    items = data.get(kind.json_key, []) if isinstance(data, dict) else data
    if isinstance(items, dict):
        items = [items]
    if not isinstance(items, list):
        raise ValueError(f"expected a list under {kind.json_key!r}")
    return [(i + 1, item) for i, item in enumerate(items)]


def _cells(kind: RegisterKind, row: SourceRow, aliases: dict[str, str], ignored: set[str]) -> Cells:
    dates = {c.field for c in kind.columns if c.date}
    cells: dict[str, str] = {}
    for header, value in row.cells.items():
        name = aliases.get(header_key(header))
        if name is None:
            ignored.add(header)
            continue
        cells[name] = date_text(value) if name in dates else value
    missing = [c.header for c in kind.columns if c.required and not cells.get(c.field)]
    if missing:
        raise ValueError(f"missing {', '.join(missing)}")
    return cells


def read_records(kind: RegisterKind, path: Path) -> tuple[list[_Parsed], list[Rejected], list[str]]:
    """Read a file (seed JSON, CSV or .xlsx) into validated records and rejected rows."""
    parsed: list[_Parsed] = []
    rejected: list[Rejected] = []
    ignored: set[str] = set()
    if path.suffix.lower() == ".json":
        for number, item in _json_records(kind, json.loads(path.read_text(encoding="utf-8-sig"))):
            try:
                parsed.append(_Parsed(number, kind.normalise(kind.model.model_validate(item))))
            except (ValidationError, ValueError, ArithmeticError) as exc:
                rejected.append(Rejected(row=number, reason=clerk_reason(exc, kind)))
        return parsed, rejected, []
    aliases = kind.aliases()
    for row in read_table(path, aliases):
        try:
            cells = _cells(kind, row, aliases, ignored)
            parsed.append(_Parsed(row.number, kind.normalise(kind.from_cells(cells)), cells))
        except (ValidationError, ValueError, ArithmeticError) as exc:
            rejected.append(Rejected(row=row.number, reason=clerk_reason(exc, kind)))
    return parsed, rejected, sorted(ignored)


def _merge_lines(kind: RegisterKind, first: BaseModel, more: BaseModel) -> BaseModel:
    assert kind.lines_field is not None
    lines = list(getattr(first, kind.lines_field))
    lines += [line for line in getattr(more, kind.lines_field) if line not in lines]
    return kind.model.model_validate({**first.model_dump(), kind.lines_field: [line.model_dump() for line in lines]})


def _dump(record: BaseModel) -> dict[str, Any]:
    return record.model_dump(mode="json")


class Plan(BaseModel):
    """What an apply writes: the kind's records and the records of other kinds its rows made."""

    model_config = {"arbitrary_types_allowed": True}

    upserts: dict[str, StoredRecord]
    created: dict[str, dict[str, StoredRecord]] = {}


def _forgotten(database: Database, kind: RegisterKind, tenant: str) -> dict[str, AuditEntry]:
    """Folded subject id -> the last forget that erased it, for the kind's subjects in this tenant."""
    if kind.subject is None:
        return {}
    found: dict[str, AuditEntry] = {}
    for entry in SubjectAudit(database).entries(tenant):
        if entry.action == "forget" and entry.outcome == "done" and entry.kind == kind.subject[0]:
            found[fold_code(entry.subject_id)] = entry
    return found


def _erased_line(label: str, entry: AuditEntry, restored: bool) -> str:
    when = entry.at.astimezone(IST).strftime("%d %b %Y %H:%M IST")
    verb = "added back" if restored else "left out"
    return f"{label} was erased by a forget on {when} by {entry.by}: {verb}"


def plan_import(database: Database, kinds: dict[str, RegisterKind], kind: RegisterKind, tenant: str,
                path: Path, replace: bool = False, restore_forgotten: bool = False) -> tuple[ImportReport, Plan]:
    """Compare the file with the tenant's register: the report and the records an apply would write."""
    store = RegisterStore(database, *kind.tables)
    registers: Registers = store.records(tenant)
    existing = registers.get(kind.name, {})
    parsed, rejected, ignored = read_records(kind, path)
    report = ImportReport(kind=kind.name, tenant=tenant, rejected=rejected, ignored_columns=ignored)
    chosen: dict[str, tuple[int, BaseModel, str]] = {}
    cells_of: dict[str, Cells] = {}
    for item in parsed:
        key, label = kind.key_of(item.record)
        seen = chosen.get(key)
        if seen is None:
            chosen[key] = (item.row, item.record, label)
            cells_of[key] = item.cells
        elif kind.lines_field is not None:
            chosen[key] = (seen[0], _merge_lines(kind, seen[1], item.record), seen[2])
        elif _dump(seen[1]) == _dump(item.record):
            report.rejected.append(Rejected(row=item.row, reason=f"duplicate of row {seen[0]}"))
        else:
            report.rejected.append(Rejected(row=item.row, reason=f"{label} is already on row {seen[0]} "
                                                                 "with other values"))
    plan = Plan(upserts={})
    report.restored = restore_forgotten
    erased = _forgotten(database, kind, tenant)
    known = {name: set(records) for name, records in registers.items()}
    known.setdefault(kind.name, set()).update(chosen)
    final: dict[str, int] = {}
    for key, (row, record, label) in chosen.items():
        resolved = kind.resolve(record, cells_of.get(key, {}), _with(registers, plan.created))
        if resolved.problem is not None:
            report.rejected.append(Rejected(row=row, reason=resolved.problem))
            continue
        record = resolved.record
        # Resolving may find the row is a record the tenant has under another key (a village by its name).
        key, label = kind.key_of(record)
        if key in final:
            report.rejected.append(Rejected(row=row, reason=f"{label} is already on row {final[key]}"))
            continue
        final[key] = row
        missing: dict[str, list[str]] = {}
        for ref_kind, ref_key in kind.refers(record):
            if ref_key not in known.get(ref_kind, set()) and ref_key not in plan.created.get(ref_kind, {}) \
                    and not any(c.kind == ref_kind and c.record.key == ref_key for c in resolved.created):
                missing.setdefault(ref_kind, []).append(ref_key)
        if missing:
            report.rejected.append(Rejected(row=row, reason="; ".join(
                f"not in the {ref_kind} register: {', '.join(keys)}" for ref_kind, keys in missing.items())))
            continue
        for made in resolved.created:
            if made.record.key not in plan.created.setdefault(made.kind, {}):
                plan.created[made.kind][made.record.key] = made.record
                report.created.append(f"{made.kind} {made.shown or made.record.label}")
        data = _dump(record)
        before = existing.get(key)
        names = [fold_code(n) for n in kind.subject[1](record) if n] if kind.subject and before is None else []
        forget = next((erased[n] for n in names if n in erased), None)
        if forget is not None:
            report.forgotten.append(_erased_line(label, forget, restore_forgotten))
            if not restore_forgotten:
                continue
        if before is None:
            report.added.append(label)
        elif before.data != data or before.label != label:
            report.updated.append(label)
        else:
            report.unchanged.append(label)
            continue
        plan.upserts[key] = StoredRecord(key=key, label=label, data=data)
    if replace:
        kept = set(final)
        report.removed = [r.label for k, r in existing.items() if k not in kept]
    report.rejected.sort(key=lambda r: r.row)
    return report, plan


def _with(registers: Registers, created: dict[str, dict[str, StoredRecord]]) -> Registers:
    """The tenant's records with those this import makes, so a second row naming them finds them."""
    return {kind: {**registers.get(kind, {}), **created.get(kind, {})} for kind in {*registers, *created}}


def import_file(database: Database, kinds: dict[str, RegisterKind], kind_name: str, tenant: str, path: Path,
                apply: bool = False, replace: bool = False, bank_prefix: str = "smriti",
                restore_forgotten: bool = False, remember: bool = True) -> ImportReport:
    """Dry-run (default) or apply one file of one kind into a tenant's registers (a history kind: into its
    records and, through the outbox, its memory bank; a kind with `after_apply`: its derived memories queued
    too, unless `remember` is off because the caller writes them itself, as seeds do)."""
    kind = kinds[kind_name]
    if kind.history is not None:
        report: ImportReport = kind.history(database, tenant, path, apply, bank_prefix)
        return report
    report, plan = plan_import(database, kinds, kind, tenant, path, replace=replace,
                               restore_forgotten=restore_forgotten)
    if apply and (plan.upserts or plan.created or report.removed):
        ensure_tenant(database, tenant)
        for made_kind, made in plan.created.items():
            RegisterStore(database, *kind.tables).write(tenant, made_kind, made)
        # With replace, records the file has unchanged must be kept: pass them as keys to keep.
        keep = dict(plan.upserts)
        if replace:
            existing = RegisterStore(database, *kind.tables).records(tenant).get(kind.name, {})
            keep.update({k: v for k, v in existing.items() if v.label in report.unchanged})
        RegisterStore(database, *kind.tables).write(tenant, kind.name, keep, replace=replace)
        if kind.after_apply is not None and remember:
            queued = kind.after_apply(database, tenant, bank_prefix)
            report.memories, report.memories_total = queued[:MEMORIES_SHOWN], len(queued)
    if kind.files is not None:
        lines = kind.files(database, tenant, list(plan.upserts.values()), apply, bank_prefix)
        report.memories, report.memories_total = lines[:MEMORIES_SHOWN], len(lines)
    report.applied = apply
    return report
