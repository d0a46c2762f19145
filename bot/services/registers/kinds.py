"""What a register kind is (farmers, cases, vendors, ...): its columns, header aliases, natural key and how a
flat row becomes the pack's own validated record and back. Packs declare their kinds; the core runs them."""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from bot.services.registers.cells import number_text as number_text  # re-exported: packs read numbers here
from bot.services.registers.table import header_key
from bot.store.registers import RegisterRowMixin, RegisterVersionMixin, StoredRecord


@dataclass(frozen=True)
class Column:
    """One column of a kind's table: its field, the header we write, and the headers people use for it."""

    field: str
    header: str
    aliases: tuple[str, ...] = ()
    date: bool = False
    required: bool = False


Cells = dict[str, str]
Registers = dict[str, dict[str, StoredRecord]]
"""A tenant's records of one pack, by kind then key."""


@dataclass(frozen=True)
class Created:
    """A record an import makes in another kind because a row names it (a village named in a farmer list)."""

    kind: str
    record: StoredRecord
    shown: str = ""
    """How the dry run names it (the village as the list wrote it); the record's label otherwise."""


@dataclass(frozen=True)
class Resolved:
    """A record with its references pointed at the tenant's own rows, and what the import must create."""

    record: Any
    created: list[Created] = field(default_factory=list)
    problem: str | None = None
    """Why the row cannot be taken, in the register's words (a vendor named that no row of the master has)."""


def _as_is(record: Any, _cells: Cells, _registers: Registers) -> Resolved:
    return Resolved(record)


@dataclass(frozen=True)
class RegisterKind:
    """A register kind of one pack, e.g. agri "farmers"."""

    name: str
    pack: str
    model: type[BaseModel]
    columns: tuple[Column, ...]
    from_cells: Callable[[Cells], BaseModel]
    """Flat fields (by Column.field) -> the validated record; raises ValueError with a reason a person reads."""
    to_cells: Callable[[Any], Cells]
    key_of: Callable[[Any], tuple[str, str]]
    """The record's natural key (stable, used for upserts) and its id as the person wrote it."""
    json_key: str | None
    """The list's name in the seed JSON format ({"farmers": [...]}); None for a single object (policy)."""
    tables: tuple[type[RegisterRowMixin], type[RegisterVersionMixin]]
    lines_field: str | None = None
    """Kinds with lines (POs, receipts): rows sharing a key are one record, each row adding its lines."""
    normalise: Callable[[Any], Any] = field(default=lambda record: record)
    """Drop what the register derives (e.g. a vendor's payment count, which its payment history says)."""
    refers: Callable[[Any], list[tuple[str, str]]] = field(default=lambda _record: [])
    """The (kind, key) pairs a record refers to, which must exist in the tenant or in the same file."""
    history: Callable[..., Any] | None = None
    """A kind that is a history, not a register (an agri visit log): `history(database, tenant, path, apply,
    bank_prefix)` reads the file into the pack's records and queues their memories, returning an ImportReport."""
    after_apply: Callable[[Any, str, str], list[str]] | None = None
    """Run once an apply changed this kind's records: `after_apply(database, tenant, bank_prefix)` queues in the
    outbox the memories the pack derives from the tenant's whole registers (AP: each paid vendor's history,
    which every payment row changes; unlike `files`, nothing of the rows themselves) and returns a line per
    memory queued; the same registers queue the same documents. Seeds skip it (their loader retains them)."""
    subject: tuple[str, Callable[[Any], list[str]]] | None = None
    """The subject kind a record is ("farmer", "case", "vendor") and the ids and names a forget may have named
    it by: a record whose subject was forgotten is not added back by an import unless asked."""
    files: Callable[[Any, str, list[StoredRecord], bool, str], list[str]] | None = None
    """What an import of this kind files beyond its rows (a case register's next dates, filed as listings with
    their memories): `files(database, tenant, records written, apply, bank_prefix)` returns the memories' lines
    the report shows; on a dry run it only says them."""
    resolve: Callable[[Any, Cells, Registers], Resolved] = field(default=_as_is)
    """Point a record's references at the tenant's rows as people name them (a village by its name or id as
    written) and say which records to create for names nobody listed yet; run before `refers` is checked."""

    written: Callable[[Any, Registers], Cells] | None = None
    """The cells as the register writes them, where a record keeps internal keys of other kinds (a farmer's
    village and crops): `written(record, registers)` names them by their code or name as written. Exports and
    the registers page use it; `to_cells` otherwise."""
    current: Callable[[Any, str, list[Any]], list[Any]] | None = None
    """The records as they stand now, for an export: `current(database, tenant, records)` puts in what the
    pack's own records say since the import (a case's next date from the latest court paper); as stored
    otherwise."""

    def cells_written(self, record: Any, registers: Registers) -> Any:
        """The record's cells for an export or a page: as the register writes them."""
        return self.written(record, registers) if self.written is not None else self.to_cells(record)

    def aliases(self) -> dict[str, str]:
        """Header key (table.header_key) -> field, for every name a column is known by."""
        found: dict[str, str] = {}
        for column in self.columns:
            for name in (column.field, column.header, *column.aliases):
                found.setdefault(header_key(name), column.field)
        return found

    @property
    def headers(self) -> list[str]:
        return [c.header for c in self.columns]


def split_list(text: str | None) -> list[str]:
    """A list typed into one cell: "cotton; chilli", "cotton, chilli" or "cotton | chilli"."""
    if not text:
        return []
    separator = ";" if ";" in text else "|" if "|" in text else ","
    return [part.strip() for part in text.split(separator) if part.strip()]


def join_list(values: list[str]) -> str:
    return "; ".join(values)
