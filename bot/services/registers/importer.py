"""One import path for every register kind, used by customers (`smriti import`) and by `smriti seed`.

A file is read into records, each compared with what the tenant already has by natural key: added, updated,
unchanged or rejected (with the row number and the reason). Nothing is written on a dry run; `apply` upserts,
and only `replace` removes what the file does not mention.
"""

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from bot.services.registers.kinds import RegisterKind
from bot.services.registers.table import SourceRow, excel_date, fold, read_table
from bot.store.db import Database
from bot.store.registers import RegisterStore, StoredRecord
from bot.store.tenants import ensure_tenant


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
        if self.ignored_columns:
            lines.append(f"  columns not used: {', '.join(self.ignored_columns)}")
        return "\n".join(lines + self._memory_lines())


@dataclass
class _Parsed:
    row: int
    record: BaseModel


def _reason(error: Exception) -> str:
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "row"
        return f"{where}: {first['msg']}"
    return str(error)


def _json_records(kind: RegisterKind, data: Any) -> list[tuple[int, Any]]:
    if kind.json_key is None:
        return [(1, data)]
    items = data.get(kind.json_key, []) if isinstance(data, dict) else data
    if isinstance(items, dict):
        items = [items]
    if not isinstance(items, list):
        raise ValueError(f"expected a list under {kind.json_key!r}")
    return [(i + 1, item) for i, item in enumerate(items)]


def _from_row(kind: RegisterKind, row: SourceRow, aliases: dict[str, str], ignored: set[str]) -> BaseModel:
    dates = {c.field for c in kind.columns if c.date}
    cells: dict[str, str] = {}
    for header, value in row.cells.items():
        field = aliases.get(fold(header))
        if field is None:
            ignored.add(header)
            continue
        cells[field] = excel_date(value) if field in dates else value
    missing = [c.header for c in kind.columns if c.required and not cells.get(c.field)]
    if missing:
        raise ValueError(f"missing {', '.join(missing)}")
    return kind.from_cells(cells)


def read_records(kind: RegisterKind, path: Path) -> tuple[list[_Parsed], list[Rejected], list[str]]:
    """Read a file (seed JSON, CSV or .xlsx) into validated records and rejected rows."""
    parsed: list[_Parsed] = []
    rejected: list[Rejected] = []
    ignored: set[str] = set()
    if path.suffix.lower() == ".json":
        for number, item in _json_records(kind, json.loads(path.read_text(encoding="utf-8-sig"))):
            try:
                parsed.append(_Parsed(number, kind.normalise(kind.model.model_validate(item))))
            except (ValidationError, ValueError) as exc:
                rejected.append(Rejected(row=number, reason=_reason(exc)))
        return parsed, rejected, []
    aliases = kind.aliases()
    for row in read_table(path):
        try:
            parsed.append(_Parsed(row.number, kind.normalise(_from_row(kind, row, aliases, ignored))))
        except (ValidationError, ValueError) as exc:
            rejected.append(Rejected(row=row.number, reason=_reason(exc)))
    return parsed, rejected, sorted(ignored)


def _merge_lines(kind: RegisterKind, first: BaseModel, more: BaseModel) -> BaseModel:
    assert kind.lines_field is not None
    lines = list(getattr(first, kind.lines_field))
    lines += [line for line in getattr(more, kind.lines_field) if line not in lines]
    return kind.model.model_validate({**first.model_dump(), kind.lines_field: [line.model_dump() for line in lines]})


def _dump(record: BaseModel) -> dict[str, Any]:
    return record.model_dump(mode="json")


def plan_import(database: Database, kinds: dict[str, RegisterKind], kind: RegisterKind, tenant: str,
                path: Path, replace: bool = False) -> tuple[ImportReport, dict[str, StoredRecord]]:
    """Compare the file with the tenant's register: the report and the records an apply would write."""
    store = RegisterStore(database, *kind.tables)
    existing = store.records(tenant).get(kind.name, {})
    parsed, rejected, ignored = read_records(kind, path)
    report = ImportReport(kind=kind.name, tenant=tenant, rejected=rejected, ignored_columns=ignored)
    chosen: dict[str, tuple[int, BaseModel, str]] = {}
    for item in parsed:
        key, label = kind.key_of(item.record)
        seen = chosen.get(key)
        if seen is None:
            chosen[key] = (item.row, item.record, label)
        elif kind.lines_field is not None:
            chosen[key] = (seen[0], _merge_lines(kind, seen[1], item.record), seen[2])
        elif _dump(seen[1]) == _dump(item.record):
            report.rejected.append(Rejected(row=item.row, reason=f"duplicate of row {seen[0]}"))
        else:
            report.rejected.append(Rejected(row=item.row, reason=f"{label} is already on row {seen[0]} "
                                                                 "with other values"))
    known = _known_keys(database, kinds, kind, tenant, chosen)
    upserts: dict[str, StoredRecord] = {}
    for key, (row, record, label) in chosen.items():
        missing = [f"{ref_kind} {ref_key}" for ref_kind, ref_key in kind.refers(record)
                   if ref_key not in known.get(ref_kind, set())]
        if missing:
            report.rejected.append(Rejected(row=row, reason=f"unknown {', '.join(missing)}"))
            continue
        data = _dump(record)
        before = existing.get(key)
        if before is None:
            report.added.append(label)
        elif before.data != data or before.label != label:
            report.updated.append(label)
        else:
            report.unchanged.append(label)
            continue
        upserts[key] = StoredRecord(key=key, label=label, data=data)
    if replace:
        kept = {k for k in chosen}
        report.removed = [r.label for k, r in existing.items() if k not in kept]
    report.rejected.sort(key=lambda r: r.row)
    return report, upserts


def _known_keys(database: Database, kinds: dict[str, RegisterKind], kind: RegisterKind, tenant: str,
                chosen: dict[str, tuple[int, BaseModel, str]]) -> dict[str, set[str]]:
    store = RegisterStore(database, *kind.tables)
    known = {name: set(records) for name, records in store.records(tenant).items()}
    known.setdefault(kind.name, set()).update(chosen)
    return known


def import_file(database: Database, kinds: dict[str, RegisterKind], kind_name: str, tenant: str, path: Path,
                apply: bool = False, replace: bool = False, bank_prefix: str = "smriti") -> ImportReport:
    """Dry-run (default) or apply one file of one kind into a tenant's registers (a history kind: into its
    records and, through the outbox, its memory bank)."""
    kind = kinds[kind_name]
    if kind.history is not None:
        report: ImportReport = kind.history(database, tenant, path, apply, bank_prefix)
        return report
    report, upserts = plan_import(database, kinds, kind, tenant, path, replace=replace)
    if apply and (upserts or report.removed):
        ensure_tenant(database, tenant)
        # With replace, records the file has unchanged must be kept: pass them as keys to keep.
        keep = dict(upserts)
        if replace:
            existing = RegisterStore(database, *kind.tables).records(tenant).get(kind.name, {})
            keep.update({k: v for k, v in existing.items() if v.label in report.unchanged})
        RegisterStore(database, *kind.tables).write(tenant, kind.name, keep, replace=replace)
    report.applied = apply
    return report
