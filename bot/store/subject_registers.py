"""A pack's register rows about one subject, as a SubjectStore: the pack says which rows, this lists, exports
and erases them (the register's version moves, so cached repositories rebuild)."""

import re
from collections.abc import Callable
from typing import Any

from bot.services.registers.codes import fold_code
from bot.store.registers import RegisterStore, StoredRecord
from bot.core.subject_match import SubjectTerms, fold, unique_names
from memory.subjects import HeldItem, Subject, SubjectKind

Records = dict[str, dict[str, StoredRecord]]
RowsAbout = Callable[[Records, str], list[tuple[str, str]]]
"""(records of a tenant, subject id) -> the (kind, key) rows about that subject."""


Written = Callable[[str, StoredRecord, Records], dict[str, str]]
"""(kind, row, records of the tenant) -> the row as the register writes it, by its headers."""


class RegisterSubjectStore:
    def __init__(self, name: str, kind: SubjectKind, registers: RegisterStore, rows_about: RowsAbout,
                 written: Written | None = None) -> None:
        self.name, self._kind, self._registers, self._rows_about = name, kind, registers, rows_about
        self._written = written

    def _records(self, subject: Subject) -> tuple[Records, list[tuple[str, StoredRecord]]]:
        if subject.kind != self._kind:
            return {}, []
        records = self._registers.records(subject.tenant)
        return records, [(kind, records[kind][key]) for kind, key in self._rows_about(records, subject.subject_id)
                         if key in records.get(kind, {})]

    def _rows(self, subject: Subject) -> list[tuple[str, StoredRecord]]:
        return self._records(subject)[1]

    async def list_held(self, subject: Subject) -> list[HeldItem]:
        return [HeldItem(store=self.name, key=f"{kind}:{record.key}", kind=f"{kind} row")
                for kind, record in self._rows(subject)]

    async def export(self, subject: Subject) -> dict[str, Any]:
        exported: dict[str, list[dict[str, Any]]] = {}
        records, rows = self._records(subject)
        for kind, record in rows:
            row: dict[str, Any] = {"key": record.key, "label": record.label, "data": record.data}
            if self._written is not None:
                # The row as the office wrote it (its village by name or code, not the internal key).
                row["as_written"] = self._written(kind, record, records)
            exported.setdefault(kind, []).append(row)
        return exported

    async def delete(self, subject: Subject) -> list[HeldItem]:
        held = await self.list_held(subject)
        self._registers.erase(subject.tenant, [(kind, record.key) for kind, record in self._rows(subject)])
        return held


def same_id(a: str, b: str) -> bool:
    """Ids as people write them: case, spacing and separators do not matter ("f017" is "F017", "SCR/063" is
    "SCR-063")."""
    return fold_code(a) == fold_code(b) if fold_code(a) else "".join(a.split()) == "".join(b.split())


def find_rows(rows: dict[str, StoredRecord], query: str, ids_of: Callable[[dict[str, Any]], list[str]],
              names_of: Callable[[dict[str, Any]], list[str]]) -> list[tuple[str, str]]:
    """(id, label) of the rows a person means by `query`: an id, else a whole name, else a name containing it
    as a whole phrase; several when it is ambiguous, so the caller asks again."""
    wanted = fold(" ".join(query.split()))
    by_id = [r for r in rows.values() if any(i and same_id(i, query) for i in ids_of(r.data))]
    by_name = [r for r in rows.values() if any(fold(n) == wanted for n in names_of(r.data) if n)]
    inside = [r for r in rows.values()
              if any(re.search(rf"(?<!\w){re.escape(wanted)}(?!\w)", fold(n)) for n in names_of(r.data) if n)]
    found = by_id or by_name or inside
    return [(ids_of(r.data)[0] or r.key, names_of(r.data)[0] or r.label) for r in found]


def terms_from(rows: dict[str, StoredRecord], kind: str, subject: Subject, rows_about: RowsAbout,
               ids_of: Callable[[dict[str, Any]], list[str]],
               names_of: Callable[[dict[str, Any]], list[str]]) -> SubjectTerms:
    """The subject's terms from its register row (its first id is the canonical one); its id alone, matched only
    as a whole value, when no row is its."""
    mine = [key for found_kind, key in rows_about({kind: rows}, subject.subject_id) if found_kind == kind]
    if not mine:
        return SubjectTerms(exact=[subject.subject_id])
    record = rows[mine[0]]
    names, others = unique_names(names_of(record.data),
                                 [names_of(r.data) for key, r in rows.items() if key != record.key])
    ids = [i for i in dict.fromkeys([subject.subject_id, *ids_of(record.data)]) if i]
    return SubjectTerms(canonical=ids_of(record.data)[0] or record.key, ids=ids, names=names, others=others)
