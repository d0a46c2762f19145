"""The backlog loader: a directory of uploads (cases.json, manifest.csv, files) read in parallel into memory.

Uploads run on a pool of workers because each spends most of its time in OCR, so they finish in any order.
That is harmless because nothing depends on the order: each memory is dated with its hearing, and its id
(`upload:case:hearing date`) is the same on every run, so a re-run replaces instead of duplicating.
Entries whose date is only a guess are never stored without a person: they are listed for review.
"""

import asyncio
import csv
import logging
import mimetypes
from collections.abc import Callable
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Protocol

from pydantic import BaseModel, Field, ValidationError

from bot.core.pack import Services
from memory import ids
from memory.asof import IST
from handlers.legal.backlog import upload_id_of
from handlers.legal.extract import ReadCache, extract_file
from handlers.legal.casebook import CaseBook
from handlers.legal.models import CaseRecord, DateSource, HearingRecord, ManifestRow, ProposedEntry, Upload
from handlers.legal.records import entry_record
from handlers.legal.register import CaseRegister

log = logging.getLogger(__name__)

Progress = Callable[[int, int, str], None]
"""Called after each upload with (done, total, file name)."""


class BacklogError(ValueError):
    """The backlog directory is not usable; the message says why."""


class ReviewItem(BaseModel):
    file: str
    upload_id: str
    case_id: str | None
    hearing_date: date
    date_source: DateSource
    confidence: float
    next_date: date | None
    text: str
    reason: str


class UploadResult(BaseModel):
    file: str
    upload_id: str = ""
    read_method: str = ""
    split_method: str = ""
    stored: list[str] = Field(default_factory=list)
    held: list[ReviewItem] = Field(default_factory=list)
    discarded: int = 0
    queued: int = 0
    error: str | None = None


class IngestReport(BaseModel):
    bank_id: str
    results: list[UploadResult]

    @property
    def stored_ids(self) -> list[str]:
        return sorted(i for r in self.results for i in r.stored)

    @property
    def held(self) -> list[ReviewItem]:
        return sorted((h for r in self.results for h in r.held), key=lambda h: (h.file, h.hearing_date))

    @property
    def errors(self) -> list[UploadResult]:
        return [r for r in self.results if r.error]

    @property
    def queued(self) -> int:
        return sum(r.queued for r in self.results)


class Reviewer(Protocol):
    async def review(self, upload: Upload, entry: ProposedEntry, reason: str,
                     register: CaseRegister | None = None) -> ProposedEntry | None:
        """Return the entry to store (possibly edited, its case chosen from the register), or None to discard it."""
        ...


class Backlog(BaseModel):
    directory: Path
    rows: list[ManifestRow]


BACKLOG_FILES = ("cases.json", "manifest.csv")
"""Optional in a backlog folder: the practice's register, and which file came when from whom."""


def load_backlog_dir(directory: Path, author: str = "backlog") -> tuple[CaseRegister | None, Backlog]:
    """Read a backlog folder: its register (cases.json) if it has one, else None (the tenant's register is
    used); its manifest (manifest.csv) if it has one, else every file in it, dated by its modification time
    and recorded as by `author`."""
    if not directory.is_dir():
        raise BacklogError(f"{directory} is not a folder")
    cases, manifest = directory / "cases.json", directory / "manifest.csv"
    register = None
    if cases.is_file():
        try:
            register = CaseRegister.load(cases)
        except (ValidationError, ValueError) as exc:
            raise BacklogError(f"cases.json is not a valid case register: {exc}") from exc
    if not manifest.is_file():
        return register, Backlog(directory=directory, rows=_files_of(directory, author))
    with manifest.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        missing = {"file", "uploaded_at", "author"} - set(reader.fieldnames or [])
        if missing:
            raise BacklogError(f"manifest.csv lacks the columns {sorted(missing)}")
        try:
            rows = [ManifestRow.model_validate({k: row[k] for k in ("file", "uploaded_at", "author")})
                    for row in reader]
        except ValidationError as exc:
            raise BacklogError(f"manifest.csv has an invalid row: {exc.errors()[0]['msg']}") from exc
    return register, Backlog(directory=directory, rows=rows)


def _files_of(directory: Path, author: str) -> list[ManifestRow]:
    """Every file of a folder without a manifest, by name, uploaded when it was last written (IST)."""
    files = sorted(p for p in directory.iterdir()
                   if p.is_file() and not p.name.startswith(".") and p.name not in BACKLOG_FILES)
    if not files:
        raise BacklogError(f"{directory} has no files to read")
    return [ManifestRow(file=p.name, author=author,
                        uploaded_at=datetime.fromtimestamp(p.stat().st_mtime, tz=timezone.utc).astimezone(IST))
            for p in files]


def _review_item(upload: Upload, entry: ProposedEntry, reason: str) -> ReviewItem:
    return ReviewItem(file=upload.source_file, upload_id=upload.upload_id, case_id=entry.case_id,
                      hearing_date=entry.hearing_date, date_source=entry.date_source, confidence=entry.confidence,
                      next_date=entry.next_date, text=entry.text, reason=reason)


def review_reason(entry: ProposedEntry, uploaded: date | None = None) -> str | None:
    """Return why an entry needs a person before it is stored, or None."""
    if entry.case_id is None:
        return "no case in the register matches"
    if entry.guessed:
        return f"date guessed from the {entry.date_source.replace('_', ' ')}"
    if entry.doubt == "next_date":
        return "next date not written as one (no next-date marker)"
    if entry.implausible(uploaded or date.today()):
        return "a date outside 1990 to two years after the upload (a misreading?)"
    return None


class BacklogIngest:
    """Ingests one backlog into one bank."""

    def __init__(self, services: Services, bank_id: str, register: CaseRegister, workers: int = 5,
                 yes: bool = False, reviewer: Reviewer | None = None, progress: Progress | None = None,
                 cache: ReadCache | None = None) -> None:
        self.services = services
        self.bank_id = bank_id
        self.register = register
        self.workers = max(1, workers)
        self.yes = yes
        self.reviewer = reviewer
        self.progress = progress
        self.cache = cache
        self._review_lock = asyncio.Lock()
        self.book = CaseBook.of_bank(services, bank_id)

    def _author(self, author_id: str) -> str:
        user = self.services.registry.by_id(author_id)
        return user.name if user is not None else author_id

    async def _decide(self, upload: Upload, entry: ProposedEntry) -> ProposedEntry | str | None:
        """Return the entry to store, a reason it is held, or None when a person discarded it."""
        reason = review_reason(entry, upload.uploaded_at.astimezone(IST).date())
        if reason is None and self.yes:
            return entry
        if self.reviewer is None:
            return reason or "not confirmed (run with --yes, or interactively)"
        async with self._review_lock:
            return await self.reviewer.review(upload, entry, reason or "confirm", self.register)

    async def _one(self, directory: Path, row: ManifestRow) -> UploadResult:
        path = directory / row.file
        if not path.is_file():
            return UploadResult(file=row.file, error="file not found")
        data = await asyncio.to_thread(path.read_bytes)
        if len(data) > self.services.settings.max_media_bytes:
            return UploadResult(file=row.file, error="file too large")
        upload = Upload(upload_id=upload_id_of(data), source_file=row.file, uploaded_at=row.uploaded_at,
                        author=self._author(row.author), author_id=row.author)
        try:
            extraction = await extract_file(self.services, path, self.register, upload,
                                            mimetypes.guess_type(path.name)[0], cache=self.cache)
        except ValueError as exc:
            return UploadResult(file=row.file, upload_id=upload.upload_id, error=str(exc))
        result = UploadResult(file=row.file, upload_id=upload.upload_id, read_method=extraction.read_method,
                              split_method=extraction.split_method)
        filed: list[tuple[HearingRecord, CaseRecord]] = []
        for entry in extraction.entries:
            decided = await self._decide(upload, entry)
            if decided is None:
                result.discarded += 1
            elif isinstance(decided, str):
                result.held.append(_review_item(upload, entry, decided))
            else:
                case = self.register.get(decided.case_id or "")
                if case is None:
                    result.held.append(_review_item(upload, decided, "no case in the register matches"))
                    continue
                # The entry's id is what the page said (its case and date as read), so a re-run keeps a person's
                # corrections of it (entries.py) instead of filing a second entry beside them.
                origin = ids.hearing(upload.upload_id, entry.case_id, entry.hearing_date) if entry.case_id else None
                filed.append((entry_record(decided, case.case_id, upload, origin), case))
        if filed:
            outcome = await self.book.file(filed, by=upload.author_id)
            result.queued = outcome.queued
            result.stored = [record.document_id for record, _ in filed]
        return result

    async def run(self, backlog: Backlog) -> IngestReport:
        """Ingest every upload of the manifest with a pool of workers; report in manifest order."""
        gate = asyncio.Semaphore(self.workers)
        total = len(backlog.rows)

        async def guarded(row: ManifestRow) -> UploadResult:
            async with gate:
                try:
                    return await self._one(backlog.directory, row)
                except Exception:
                    log.exception("ingesting %s failed", row.file)
                    raise

        tasks = [asyncio.ensure_future(guarded(row)) for row in backlog.rows]
        done = 0
        for finished in asyncio.as_completed(tasks):
            result = await finished
            done += 1
            if self.progress is not None:
                self.progress(done, total, result.file)
        by_file = {id(t): t.result() for t in tasks}
        return IngestReport(bank_id=self.bank_id, results=[by_file[id(t)] for t in tasks])


def progress_bar(done: int, total: int, width: int = 30) -> str:
    filled = width * done // max(total, 1)
    return f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total}"
