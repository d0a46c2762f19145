"""Turning confirmed entries and chat memories into memories, and stored documents back into records.

A hearing is stamped with its HEARING date at 10:30 IST (when district courts start sitting), never with
the upload time; the date is also in metadata (for citations) and in the document id (for idempotent
re-uploads). A chat memory is stamped with the moment it was said and labelled as not a court record.
"""

from datetime import date, datetime, time

from handlers.legal.models import CaseRecord, HearingRecord, ProposedEntry, Upload
from memory import MemoryItem, StoredDocument, ids, tags
from memory.asof import IST
from memory.tags import TagPrefix, values_with_prefix

COURT_OPENS = time(10, 30)
SUMMARY_CHARS = 600
HEARING = tags.record_type("hearing")
DOCUMENT = tags.record_type("document")
CHAT_MEMORY = tags.record_type("chat_memory")
_KIND_TAGS = {"hearing": HEARING, "document": DOCUMENT, "chat_memory": CHAT_MEMORY}


def _show(day: date) -> str:
    return f"{day.day} {day:%b %Y}"


def _case_name(case: CaseRecord) -> str:
    number = f", {case.numbers[0]}" if case.numbers else ""
    court = f", {case.court}" if case.court else ""
    return f"{case.title} ({case.label}{number}{court})"


def hearing_memory(entry: ProposedEntry, case: CaseRecord, upload: Upload) -> MemoryItem:
    """Return the memory for one confirmed entry, dated with its hearing (or document) date."""
    day = entry.hearing_date
    if entry.kind == "document":
        header = (f"Document dated {_show(day)} in {_case_name(case)}, scanned from {upload.source_file} and "
                  f"uploaded by {upload.author}. This is a document on file, not a hearing.")
    else:
        nxt = f" Next date: {_show(entry.next_date)}." if entry.next_date else ""
        header = (f"Hearing on {_show(day)} in {_case_name(case)}, recorded by {upload.author} in "
                  f"{upload.source_file} ({entry.upload_kind.replace('_', ' ')}).{nxt}")
    return MemoryItem(
        content=f"{header}\n{entry.text}",
        event_time=datetime.combine(day, COURT_OPENS, IST),  # the HEARING date, never the upload time
        context=f"court record: {entry.upload_kind.replace('_', ' ')}",
        document_id=ids.hearing(upload.upload_id, case.case_id, day),
        tags=[tags.case(case.case_id), _KIND_TAGS[entry.kind], tags.tag(TagPrefix.AUTHOR, upload.author_id)],
        metadata={
            "source_file": upload.source_file,
            "upload_id": upload.upload_id,
            "case_id": case.case_id,
            "hearing_date": day.isoformat(),
            "author": upload.author,
            "next_date": entry.next_date.isoformat() if entry.next_date else "",
            "kind": entry.kind,
            "upload_kind": entry.upload_kind,
            "date_source": entry.date_source,
            "confidence": f"{entry.confidence:.2f}",
            "uploaded_at": upload.uploaded_at.isoformat(),
            "summary": entry.text[:SUMMARY_CHARS],
        },
    )


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
    if kind not in ("hearing", "document", "chat_memory"):
        return None
    case_id = meta.get("case_id") or next(iter(values_with_prefix(document.tags, TagPrefix.CASE)), "")
    try:
        day = date.fromisoformat(meta.get("hearing_date", "")[:10]) if meta.get("hearing_date") else document.event_date
        nxt = date.fromisoformat(meta["next_date"]) if meta.get("next_date") else None
        confidence = float(meta.get("confidence", "1") or 1)
    except ValueError:
        return None
    if day is None:
        return None
    return HearingRecord(
        document_id=document.document_id, case_id=case_id, kind=kind, hearing_date=day, next_date=nxt,
        source_file=meta.get("source_file", ""), author=meta.get("author", ""), summary=meta.get("summary", ""),
        confidence=max(0.0, min(1.0, confidence)), upload_kind=meta.get("upload_kind", ""),
    )
