"""Writing a tenant's register back in the format it came in: CSV, .xlsx (same headers) or the seed JSON."""

import json
from pathlib import Path
from typing import Any

from bot.services.registers import FORMATS
from bot.services.registers.kinds import RegisterKind, Registers
from bot.services.registers.table import write_csv, write_xlsx
from bot.store.db import Database
from bot.store.registers import RegisterStore

__all__ = ["FORMATS", "export_kind"]


def _rows(kind: RegisterKind, records: list[Any], registers: Registers) -> list[dict[str, str]]:
    by_field = {c.field: c.header for c in kind.columns}
    rows: list[dict[str, str]] = []
    for record in records:
        cells = kind.cells_written(record, registers)
        for one in cells if isinstance(cells, list) else [cells]:
            rows.append({by_field[f]: v for f, v in one.items() if f in by_field})
    return rows


def export_kind(database: Database, kind: RegisterKind, tenant: str, fmt: str, out: Path) -> int:
    """Write the tenant's records of this kind to `out`; return how many records were written."""
    registers = RegisterStore(database, *kind.tables).records(tenant)
    stored = registers.get(kind.name, {})
    records = [kind.model.model_validate(r.data) for r in stored.values()]
    if kind.current is not None:
        records = kind.current(database, tenant, records)
    if fmt == "json":
        dumped = [r.model_dump(mode="json") for r in records]
        document: object = {kind.json_key: dumped} if kind.json_key else (dumped[0] if dumped else {})
        out.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    elif not kind.columns:
        raise ValueError(f"{kind.name} is kept as JSON only (--format json)")
    elif fmt == "xlsx":
        write_xlsx(out, kind.headers, _rows(kind, records, registers))
    else:
        write_csv(out, kind.headers, _rows(kind, records, registers))
    return len(records)


