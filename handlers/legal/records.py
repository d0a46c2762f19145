"""Turning confirmed entries and chat memories into memories, and stored documents back into records.

A hearing is stamped with its HEARING date at 10:30 IST (when district courts start sitting), never with
the upload time; the date is also in metadata (for citations) and in the document id (for idempotent
re-uploads). A chat memory is stamped with the moment it was said and labelled as not a court record.
"""

from datetime import date, datetime, time

from handlers.legal.models import DATE_MOVING, CaseRecord, HearingRecord, ProposedEntry, Upload
from memory import MemoryItem, StoredDocument, ids, tags
from memory.asof import IST
from memory.tags import TagPrefix, values_with_prefix

COURT_OPENS = time(10, 30)
SUMMARY_CHARS = 600
HEARING = tags.record_type("hearing")
DOCUMENT = tags.record_type("document")
LISTING = tags.record_type("listing")
STEP = tags.record_type("step")
CHAT_MEMORY = tags.record_type("chat_memory")
_KIND_TAGS = {"hearing": HEARING, "listing": LISTING, "step": STEP, "document": DOCUMENT, "chat_memory": CHAT_MEMORY}


def _show(day: date) -> str:
    return f"{day.day} {day:%b %Y}"


def _case_name(case: CaseRecord) -> str:
    number = f", {case.numbers[0]}" if case.numbers else ""
    court = f", {case.court}" if case.court else ""
    return f"{case.title} ({case.label}{number}{court})"


def entry_record(entry: ProposedEntry, case_id: str, upload: Upload, document_id: str | None = None) -> HearingRecord:
    """The record of a confirmed entry: what the database keeps and the memory says. The document id is the
    entry's for life (an edit passes the one it was saved under)."""
    return HearingRecord(
        document_id=document_id or ids.hearing(upload.upload_id, case_id, entry.hearing_date), case_id=case_id,
        kind=entry.kind, hearing_date=entry.hearing_date,
        next_date=entry.next_date if entry.kind in DATE_MOVING else None,
        due_date=entry.due_date if entry.kind == "step" else None, source_file=upload.source_file,
        author=upload.author, summary=entry.text[:SUMMARY_CHARS], confidence=entry.confidence,
        upload_kind=entry.upload_kind, text=entry.text, author_id=upload.author_id, upload_id=upload.upload_id,
        uploaded_at=upload.uploaded_at, date_source=entry.date_source)


def _header(record: HearingRecord, case: CaseRecord) -> str:
    day, name, source = _show(record.hearing_date), _case_name(case), record.source_file
    if record.kind == "document":
        return (f"Document dated {day} in {name}, scanned from {source} and uploaded by {record.author}. "
                f"This is a document on file, not a hearing.")
    if record.kind == "step":
        due = f" Due on {_show(record.due_date)}." if record.due_date else ""
        return (f"Step in {name} on {day} (a filing, service or deadline; not a hearing), recorded by "
                f"{record.author} in {source}.{due}")
    if record.kind == "listing":
        listed = _show(record.next_date) if record.next_date else "a day not given"
        return (f"{name} is listed on {listed}, by a cause list dated {day} ({source}, uploaded by "
                f"{record.author}). This is a listing, not a hearing.")
    nxt = f" Next date: {_show(record.next_date)}." if record.next_date else ""
    kind = record.upload_kind.replace("_", " ") or "note"
    return f"Hearing on {day} in {name}, recorded by {record.author} in {source} ({kind}).{nxt}"


def chat_record(text: str, said_at: datetime, author: str, author_id: str, case: CaseRecord | None) -> HearingRecord:
    """The record of something said in chat (/remember): kept like an entry, its memory labelled as not a
    court record."""
    item = chat_memory(text, said_at, author, author_id, case)
    return HearingRecord(document_id=item.document_id, case_id=case.case_id if case else "", kind="chat_memory",
                         hearing_date=said_at.astimezone(IST).date(), source_file="chat", author=author,
                         summary=text[:SUMMARY_CHARS], text=text, author_id=author_id, uploaded_at=said_at)


def memory_item(record: HearingRecord, case: CaseRecord | None) -> MemoryItem:
    """The memory of a record, dated with its hearing (or document) date: the one function the save path, an
    edit and a rebuild from the records all use."""
    if record.kind == "chat_memory":
        said_at = record.uploaded_at or datetime.combine(record.hearing_date, COURT_OPENS, IST)
        return chat_memory(record.text or record.summary, said_at, record.author, record.author_id, case)
    if case is None:
        raise ValueError("an entry of a case needs its case")
    day = record.hearing_date
    kind = record.upload_kind.replace("_", " ") or "note"
    return MemoryItem(
        content=f"{_header(record, case)}\n{record.text or record.summary}",
        event_time=datetime.combine(day, COURT_OPENS, IST),  # the HEARING date, never the upload time
        context=f"court record: {kind}" if record.kind != "chat_memory" else "chat memory",
        document_id=record.document_id,
        tags=[tags.case(case.case_id), _KIND_TAGS[record.kind], tags.tag(TagPrefix.AUTHOR, record.author_id
                                                                          or record.author or "unknown")],
        metadata={
            "source_file": record.source_file,
            "upload_id": record.upload_id,
            "case_id": case.case_id,
            "hearing_date": day.isoformat(),
            "author": record.author,
            "next_date": record.next_date.isoformat() if record.next_date else "",
            "due_date": record.due_date.isoformat() if record.due_date else "",
            "kind": record.kind,
            "upload_kind": record.upload_kind,
            "date_source": record.date_source,
            "confidence": f"{record.confidence:.2f}",
            "uploaded_at": record.uploaded_at.astimezone(IST).isoformat() if record.uploaded_at else "",
            "summary": (record.text or record.summary)[:SUMMARY_CHARS],
        },
    )


def hearing_memory(entry: ProposedEntry, case: CaseRecord, upload: Upload) -> MemoryItem:
    """Return the memory for one confirmed entry (its record's memory)."""
    return memory_item(entry_record(entry, case.case_id, upload), case)


def chat_memory(text: str, said_at: datetime, author: str, author_id: str, case: CaseRecord | None) -> MemoryItem:
    """Return a chat memory: stamped with the moment it was said, labelled as not a court record."""
    local = said_at.astimezone(IST)
    about = f" about {_case_name(case)}" if case else ""
    return MemoryItem(
        content=(f"CHAT MEMORY, said by {author} on {_show(local.date())} at {local:%H:%M} IST{about}. "
                 f"This is not a court record.\n{text}"),
        event_time=said_at,
        context="chat memory: said by the lawyer in chat, not a court record",
        document_id=ids.chat_memory(author_id, local.isoformat(timespec="seconds"), text),
        tags=[CHAT_MEMORY, tags.tag(TagPrefix.AUTHOR, author_id), *([tags.case(case.case_id)] if case else [])],
        metadata={
            "case_id": case.case_id if case else "",
            "hearing_date": local.date().isoformat(),
            "said_at": local.isoformat(timespec="seconds"),
            "author": author,
            "source_file": "chat",
            "next_date": "",
            "kind": "chat_memory",
            "confidence": "1.00",
            "summary": text[:SUMMARY_CHARS],
        },
    )


def record_of(document: StoredDocument) -> HearingRecord | None:
    """Return the typed record of a stored hearing, document or chat memory; None for anything else."""
    meta = document.metadata
    kind = meta.get("kind") or ("chat_memory" if CHAT_MEMORY in document.tags else "hearing")
    if kind not in _KIND_TAGS:
        return None
    case_id = meta.get("case_id") or next(iter(values_with_prefix(document.tags, TagPrefix.CASE)), "")
    try:
        day = date.fromisoformat(meta.get("hearing_date", "")[:10]) if meta.get("hearing_date") else document.event_date
        nxt = date.fromisoformat(meta["next_date"]) if meta.get("next_date") else None
        due = date.fromisoformat(meta["due_date"]) if meta.get("due_date") and kind == "step" else None
        confidence = float(meta.get("confidence", "1") or 1)
    except ValueError:
        return None
    if day is None:
        return None
    return HearingRecord(
        document_id=document.document_id, case_id=case_id, kind=kind, hearing_date=day, next_date=nxt, due_date=due,
        source_file=meta.get("source_file", ""), author=meta.get("author", ""), summary=meta.get("summary", ""),
        confidence=max(0.0, min(1.0, confidence)), upload_kind=meta.get("upload_kind", ""),
        text=meta.get("summary", ""), upload_id=meta.get("upload_id", ""), date_source=meta.get("date_source", ""),
        uploaded_at=_when(meta.get("uploaded_at") or meta.get("said_at", "")), author_id=_author_of(document.tags),
    )


def _author_of(tags_: list[str]) -> str:
    return next(iter(values_with_prefix(tags_, TagPrefix.AUTHOR)), "")


def _when(value: str) -> datetime | None:
    try:
        return datetime.fromisoformat(value) if value else None
    except ValueError:
        return None
