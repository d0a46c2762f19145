"""The legal pack's case register in the one database, per tenant: import columns and the repository.

Case ids are accepted as people write them ("OS-311/2024", "SEABREEZE"); the case_id the pack tags memories
with is a slug derived from them (or from the first number, else the title), and the id as written is kept.
"""

import re

from bot.services.registers.codes import as_written, safe_key
from bot.services.registers.kinds import Cells, Column, RegisterKind, join_list, split_list
from bot.store import Base, Database
from bot.store.registers import (
    RegisterRowMixin,
    RegisterStore,
    RegisterVersionMixin,
    StoredRecord,
    TenantCache,
)
from handlers.legal.models import CaseRecord, HearingRecord
from handlers.legal.register import CaseRegister

PACK = "legal"


class LegalRecord(RegisterRowMixin, Base):
    __tablename__ = "legal_records"


class LegalRegisterVersion(RegisterVersionMixin, Base):
    __tablename__ = "legal_register_versions"


TABLES = (LegalRecord, LegalRegisterVersion)


def case_slug(written: str) -> str:
    """A deterministic case_id: "O.S. 311/2024" -> "os-311-2024", "SEABREEZE" -> "seabreeze"; a title in
    Telugu script only gets a digest of itself, so it is a key all the same."""
    found = "-".join(re.findall(r"[a-z0-9]+", written.lower()))[:41].strip("-")
    return found if found and written.isascii() else safe_key(written).lower()[:41].strip("-")


def _cause_title(petitioner: str, respondent: str) -> str:
    """A register that keeps the parties apart: the title is "Petitioner v. Respondent"."""
    if not petitioner.strip() or not respondent.strip():
        raise ValueError("missing Title (or both Petitioner and Respondent)")
    return f"{petitioner.strip()} v. {respondent.strip()}"


def _file_next_dates(database: Database, tenant: str, written: list[StoredRecord], apply: bool,
                     bank_prefix: str) -> list[str]:
    from handlers.legal.register_dates import file_next_dates

    return file_next_dates(database, tenant, [CaseRecord.model_validate(r.data) for r in written], apply,
                           bank_prefix)


def _case(cells: Cells) -> CaseRecord:
    numbers = split_list(cells.get("numbers"))
    title = cells.get("title") or _cause_title(cells.get("petitioner", ""), cells.get("respondent", ""))
    written = cells.get("case_id") or (numbers[0] if numbers else title)
    code = as_written(cells["case_id"], "case id") if cells.get("case_id") else ""
    return CaseRecord(case_id=case_slug(written), title=title, numbers=numbers, code=code,
                      aliases=split_list(cells.get("aliases")), court=cells.get("court", ""),
                      petitioner=(cells.get("petitioner") or "").strip(),
                      respondent=(cells.get("respondent") or "").strip(),
                      cnr=(cells.get("cnr") or "").replace(" ", "").upper(), next_date=cells.get("next_date") or None)


def _case_cells(case: CaseRecord) -> Cells:
    return {"case_id": case.code or case.case_id, "title": case.title, "numbers": join_list(case.numbers),
            "petitioner": case.petitioner, "respondent": case.respondent,
            "aliases": join_list(case.aliases), "court": case.court, "cnr": case.cnr,
            "next_date": case.next_date.isoformat() if case.next_date else ""}


def _current(database: Database, tenant: str, cases: list[CaseRecord]) -> list[CaseRecord]:
    """The cases with the next date the practice's records now give (the latest hearing's or listing's, which a
    register's own date yields to once court paper supersedes it): a printed register sends no one to court
    on a stale day."""
    from handlers.legal.case_dates import next_date
    from handlers.legal.entries import EntryStore

    by_case: dict[str, list[HearingRecord]] = {}
    for record in EntryStore(database).all(tenant):
        by_case.setdefault(record.case_id, []).append(record)
    out: list[CaseRecord] = []
    for case in cases:
        found = next_date(by_case.get(case.case_id, []))
        out.append(case.model_copy(update={"next_date": found.day}) if found is not None else case)
    return out


def _key(case: CaseRecord) -> tuple[str, str]:
    return case.case_id, case.code or case.case_id


CASES = RegisterKind(
    name="cases", pack=PACK, model=CaseRecord, json_key="cases", tables=TABLES,
    columns=(
        Column("case_id", "Case ID", ("id", "matter id", "file no", "file number", "our ref", "ref")),
        Column("numbers", "Case Number", ("case no", "case number", "case numbers", "numbers", "number",
                                          "case no year", "suit no", "o s no")),
        Column("cnr", "CNR", ("cnr number", "cnr no", "ecourts cnr")),
        Column("title", "Title", ("case title", "cause title", "parties", "matter", "case name")),
        Column("petitioner", "Petitioner", ("petitioner name", "petitioners", "plaintiff", "complainant",
                                            "appellant", "applicant")),
        Column("respondent", "Respondent", ("respondent name", "respondents", "defendant", "accused",
                                            "opposite party", "opp party")),
        Column("aliases", "Also Called", ("aliases", "short name", "nickname", "known as")),
        Column("court", "Court", ("court name", "forum", "bench", "court hall")),
        Column("next_date", "Next Date", ("ndoh", "next hearing", "next hearing date", "next date of hearing",
                                          "n d o h", "next dt", "posted to", "adjourned to", "next posting"), date=True),
    ),
    from_cells=_case, to_cells=_case_cells, key_of=_key, files=_file_next_dates, current=_current, subject=("case", lambda c: [c.case_id, c.code, *c.numbers, c.title, *c.aliases]),
)
KINDS: dict[str, RegisterKind] = {CASES.name: CASES}
SEED_FILES = [("cases", "legal/cases.json")]


def build_register(records: dict[str, dict[str, StoredRecord]]) -> CaseRegister:
    return CaseRegister([CaseRecord.model_validate(r.data) for r in records.get("cases", {}).values()])


class CaseRegisters:
    """The repository: one CaseRegister per tenant, rebuilt when that tenant's cases change."""

    def __init__(self, database: Database) -> None:
        self.store = RegisterStore(database, *TABLES)
        self._cache = TenantCache(self.store, build_register)

    def for_tenant(self, tenant: str) -> CaseRegister:
        return self._cache.for_tenant(tenant)

    def add(self, tenant: str, cases: list[CaseRecord]) -> None:
        """Upsert cases (a backlog's register): cases not given are kept, never wiped."""
        self.store.write(tenant, CASES.name, {
            c.case_id: StoredRecord(key=c.case_id, label=c.case_id, data=c.model_dump(mode="json")) for c in cases})
