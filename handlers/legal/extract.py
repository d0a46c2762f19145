"""From an uploaded file to proposed entries: read it (Tesseract, or Groq vision with a key), then split it.

With a chat model the split is the model's, but only if every entry keeps the rules' invariants: a case
from the register, a hearing date that is written in the text as one (not a next date, a filing date or a
deadline) and is not after the upload, a next date that is written and after the hearing. Otherwise, and
always without a key, the deterministic splitter in segment.py decides.
"""

import logging
from datetime import date
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from bot.core.errors import VisionUnavailable
from bot.services.llm import ChatUnavailable, StructuringFailed
from bot.services.ocr import ReadText
from bot.services.reading import check_entries, off_loop
from bot.services.prompts import render
from bot.services.vision import VisionReader
from bot.core.pack import Services
from handlers.legal.dates import FoundDate, find_dates
from handlers.legal.hearing import confidence, guess_date
from handlers.legal.kinds import due_date
from handlers.legal.layout import rows_of
from handlers.legal.models import Doubt, ProposedEntry, Upload
from handlers.legal.register import CaseRegister, number_spans
from handlers.legal.segment import merge_same_hearing, segment, upload_kind
from memory.asof import IST

log = logging.getLogger(__name__)

_IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".webp", ".tif", ".tiff", ".bmp"}


class ModelEntry(BaseModel):
    case_id: str
    kind: Literal["hearing", "document"] = "hearing"
    hearing_date: date | None = None
    next_date: date | None = None
    text: str = Field(min_length=1)


class ModelSegments(BaseModel):
    entries: list[ModelEntry]


class Extraction(BaseModel):
    entries: list[ProposedEntry]
    read_method: str
    split_method: Literal["rules", "llm"]
    text: str = ""
    """The text the entries were read from (a case the register does not know is proposed from it)."""


def is_image(path: Path, mime_type: str | None) -> bool:
    return (mime_type or "").startswith("image/") or path.suffix.lower() in _IMAGE_SUFFIXES


async def read_file(services: Services, path: Path, mime_type: str | None = None) -> ReadText:
    """Return an upload's text: a vision model for photos when a key is set, else Tesseract or the text layer."""
    settings = services.settings
    if settings.groq_api_key is not None and is_image(path, mime_type):
        vision = VisionReader(settings.groq_api_key.get_secret_value(), settings.groq_vision_model,
                              base_url=settings.groq_base_url, timeout_s=settings.groq_timeout_s)
        try:
            return await vision.read(path, render("legal", "transcribe"), mime_type)
        except VisionUnavailable as exc:
            log.info("vision reading failed (%s); using Tesseract", exc)
        finally:
            await vision.aclose()
    # Word positions keep a scanned docket's rows together: its date column read beside its proceedings.
    return rows_of(await services.reader.aread(path, mime_type, words=True))


def _written(dates: list[FoundDate], roles: set[str], reference: date, after: bool = False) -> set[date]:
    """Return the written dates of these roles; a year-less one is read on/before (or after) the reference."""
    values = (found.on(reference, after=after) for found in dates if found.role in roles)
    return {value for value in values if value is not None}


def check_model_split(model: ModelSegments, text: str, register: CaseRegister, upload: Upload,
             rules: list[ProposedEntry]) -> list[ProposedEntry] | None:
    """Return the model's entries if every one keeps the rules' invariants, else None (the rules decide).

    The same invariants as the rules: a hearing date is a date the page writes as one (never a next date,
    a filing date or a deadline) and is not after the upload; a next date is written and after the hearing.
    """
    uploaded = upload.uploaded_at.astimezone(IST).date()
    dates = find_dates(text, number_spans(text), today=uploaded)
    kind = upload_kind(text, register)
    if kind in ("cause_list", "receipt", "vakalat") or any(e.kind in ("listing", "step") for e in rules):
        return None  # what a page is (a list, a step, a receipt) is the rules' to say: only hearings move dates
    # The case comes from what the page says, never from what the model was talked into: a model entry must
    # be filed where the rules file that date, or the rules win.
    by_rules = {(e.hearing_date, e.case_id): e for e in rules}
    out: list[ProposedEntry] = []
    for item in model.entries:
        case = register.get(item.case_id)
        if case is None:
            log.info("model filed an entry under an unknown case; using the rules")
            return None
        if item.hearing_date is not None and item.hearing_date > uploaded:
            log.info("model's hearing date is after the upload; using the rules")
            return None
        rule = by_rules.get((item.hearing_date, case.case_id)) if item.hearing_date is not None else None
        if item.hearing_date is not None and rule is None:
            log.info("model filed an entry under another case or date than the page gives; using the rules")
            return None
        if item.hearing_date is None:
            day, source = guess_date(upload)
        elif item.hearing_date in _written(dates, {"plain", "pronounced"} | ({"other"} if item.kind == "document" else set()),
                                           uploaded):
            day, source = item.hearing_date, ("document" if item.kind == "document" else "text")
        else:
            log.info("model's hearing date is not a hearing date written in the upload; using the rules")
            return None
        doubt: Doubt | None = None
        if item.next_date is not None:
            marked = _written(dates, {"next"}, day, after=True)
            if item.next_date <= day or item.next_date not in marked | _written(dates, {"plain"}, day, after=True):
                log.info("model's next date is not a written date after the hearing; using the rules")
                return None
            doubt = None if item.next_date in marked else "next_date"
        value = confidence(source, "number", doubt)
        if rule is not None and rule.doubt is None:
            value = min(value, rule.confidence)
        out.append(ProposedEntry(case_id=case.case_id, kind=item.kind, hearing_date=day, date_source=source,
                                 next_date=item.next_date, text=item.text.strip(), confidence=value,
                                 upload_kind=kind, doubt=doubt,
                                 due_date=due_date(item.text, day) if item.kind == "step" else None))
    return merge_same_hearing(out) if out else None


async def split(services: Services, text: str, register: CaseRegister, upload: Upload) -> Extraction:
    """Split text into entries: the model's guarded split with a key, the rules otherwise."""
    settings = services.settings
    # The splitter is pure Python and linear in the text (bounded by the reader's character limit): run it in a
    # thread so one long document never stalls the bot for everyone else.
    rules = await off_loop(segment, text, register, upload, seconds=settings.max_read_seconds,
                           what="splitting it into hearings")
    check_entries(len(rules), settings.max_document_entries, "hearing entries")
    if services.chat is not None and len(register):
        cases = "\n".join(f"- {c.case_id}: {c.title}; numbers {', '.join(c.numbers)}; also called "
                          f"{', '.join(c.aliases)}" for c in register.cases)
        prompt = render("legal", "segment", cases=cases, file_name=upload.source_file,
                        uploaded_at=upload.uploaded_at.astimezone(IST).date().isoformat(), text=text)
        try:
            model, _ = await services.chat.structured(prompt, ModelSegments)
        except (ChatUnavailable, StructuringFailed) as exc:
            log.info("model split unavailable (%s); using the rules", type(exc).__name__)
        else:
            guarded = check_model_split(model, text, register, upload, rules)
            if guarded is not None:
                check_entries(len(guarded), settings.max_document_entries, "hearing entries")
                return Extraction(entries=guarded, read_method="", split_method="llm", text=text)
    return Extraction(entries=rules, read_method="", split_method="rules", text=text)


class ReadCache:
    """Texts already read, by upload id: a re-run backlog does not pay for OCR twice (the id is the bytes')."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, upload_id: str, services: Services) -> Path:
        # "rows": texts read since scanned pages are rebuilt row by row (older cached texts are read again).
        reader = "vision" if services.settings.groq_api_key is not None else "rows"
        return self.directory / f"{upload_id}.{reader}.json"

    def get(self, upload_id: str, services: Services) -> ReadText | None:
        path = self._path(upload_id, services)
        try:
            return ReadText.model_validate_json(path.read_text(encoding="utf-8")) if path.is_file() else None
        except ValueError:
            return None

    def put(self, upload_id: str, services: Services, read: ReadText) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        kept = read.model_copy(update={"page_texts": []})  # the text is what is read again; words weigh a lot
        self._path(upload_id, services).write_text(kept.model_dump_json(), encoding="utf-8")


async def extract_file(services: Services, path: Path, register: CaseRegister, upload: Upload,
                       mime_type: str | None = None, cache: ReadCache | None = None) -> Extraction:
    """Read a file (or take its text from the cache) and split it into entries."""
    read = cache.get(upload.upload_id, services) if cache is not None else None
    if read is None:
        read = await read_file(services, path, mime_type)
        if cache is not None:
            cache.put(upload.upload_id, services, read)
    extraction = await split(services, read.text, register, upload)
    return extraction.model_copy(update={"read_method": read.method})
