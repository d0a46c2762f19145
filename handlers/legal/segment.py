"""Splitting an upload's text into hearing entries without a language model.

Four shapes of upload: a diary page (the date printed at the top, one line per matter), a certified order
sheet (one row per hearing, `22.06.2026: ...`, under a header naming the case), a typed note (`12/9 Gorle
partition ...`) and a deed (a document, never a hearing; its dates belong to the deed). The hearing date is
read from the page; only when the page has none is it guessed from the file name or the upload time, and a
guess caps confidence so the entry always goes to review.
"""

import re
from datetime import date

from pydantic import BaseModel

from handlers.legal.dates import (
    FoundDate,
    ends_with_marker,
    file_name_date,
    find_dates,
    leading_date,
    next_date_in,
)
from handlers.legal.models import (
    GUESSED_CONFIDENCE_CAP,
    DateSource,
    ProposedEntry,
    Upload,
    UploadKind,
)
from handlers.legal.register import CaseRegister, number_spans
from memory.asof import IST

# A deed announces itself in a title line of its own; "the 2011 sale deed" inside a note is not one.
_DEED = re.compile(r"^\W*(sale\s+deed|deed\s+of\s+\w+|agreement\s+(of|for)\s+sale|gift\s+deed|settlement\s+deed|"
                   r"partition\s+deed|lease\s+deed|mortgage\s+deed)\W*$", re.I)
_ORDER_SHEET = re.compile(r"\border\s+sheet\b|\bproceedings\s+sheet\b", re.I)
_FOOTER = re.compile(r"\b(certified|true)\s+copy\b|\bcopy\s+(applied|made\s+ready|delivered|issued)\b|"
                     r"//\s*true\s+copy", re.I)
_WEEKDAY = re.compile(r"\b(mon|tues|wednes|thurs|fri|satur|sun)day\b", re.I)
_LEAD_PUNCT = re.compile(r"^[\s:;,.)\-–—]+")

_CONFIDENCE: dict[DateSource, float] = {
    "row": 0.95, "header": 0.9, "text": 0.85, "document": 0.85, "edited": 1.0,
    "file_name": GUESSED_CONFIDENCE_CAP, "upload_time": 0.3,
}


class _Block(BaseModel):
    lines: list[str]
    case_id: str | None
    case_by: str | None
    lead: FoundDate | None = None


def upload_kind(text: str, register: CaseRegister) -> UploadKind:
    """Tell a deed, an order sheet, a diary page and a typed note apart by their shape."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    head = "\n".join(lines[:6])
    if any(_DEED.match(line) for line in lines[:3]):
        return "deed"
    rows = sum(1 for line in lines if (found := leading_date(line)) is not None and found.year is not None)
    if _ORDER_SHEET.search(text) or (re.search(r"in\s+the\s+court\s+of", head, re.I) and rows >= 1):
        return "order_sheet"
    if _header_date(lines, register) is not None:
        return "diary"
    return "note"


def _header_date(lines: list[str], register: CaseRegister) -> date | None:
    for line in lines[:3]:
        if register.first(line) is not None or len(line) > 48:
            continue
        found = [d for d in find_dates(line) if d.year is not None]
        rest = _WEEKDAY.sub("", line[:found[0].start] + line[found[0].end:]) if found else line
        if found and len(re.sub(r"[\W\d_]", "", rest)) <= 6:
            return found[0].on(date.min)
    return None


def _uploaded_day(upload: Upload) -> date:
    return upload.uploaded_at.astimezone(IST).date()


def guess_date(upload: Upload) -> tuple[date, DateSource]:
    """Return a date for an upload whose page has none: the file name's, else the upload day (a guess)."""
    from_name = file_name_date(upload.source_file)
    if from_name is not None:
        return from_name, "file_name"
    return _uploaded_day(upload), "upload_time"


def _clean(lines: list[str], strip_lead: FoundDate | None = None) -> str:
    text = " ".join(line.strip() for line in lines if line.strip())
    if strip_lead is not None:
        text = _LEAD_PUNCT.sub("", text[strip_lead.end:])
    return re.sub(r"\s+", " ", text).strip()


def _confidence(source: DateSource, case_by: str | None) -> float:
    value = _CONFIDENCE[source]
    if case_by is None:
        value = min(value, 0.2)
    elif case_by != "number":
        value = round(value * 0.95, 3)
    return value


def _blocks(lines: list[str], register: CaseRegister, dated_lines: bool) -> list[_Block]:
    blocks: list[_Block] = []
    previous = ""
    for line in lines:
        # A line naming two cases is filed under neither: "file this under X" in a note about Y is data.
        mention = register.first(line) if register.only(line) is not None else None
        lead = leading_date(line, number_spans(line)) if dated_lines and not ends_with_marker(previous) else None
        previous = line
        current = blocks[-1] if blocks else None
        starts = (current is None or lead is not None
                  or (mention is not None and mention.case_id != current.case_id))
        if starts:
            blocks.append(_Block(lines=[line], case_id=mention.case_id if mention else None,
                                 case_by=mention.by if mention else None, lead=lead))
        else:
            assert current is not None
            current.lines.append(line)
            if current.case_id is None and mention is not None:
                current.case_id, current.case_by = mention.case_id, mention.by
    return blocks


def _entry(block_text: str, case_id: str | None, case_by: str | None, day: date, source: DateSource,
           kind: UploadKind) -> ProposedEntry | None:
    if not block_text:
        return None
    return ProposedEntry(
        case_id=case_id, hearing_date=day, date_source=source,
        next_date=next_date_in(block_text, day, number_spans(block_text)),
        text=block_text, confidence=_confidence(source, case_by), upload_kind=kind,
    )


def _diary_or_note(lines: list[str], register: CaseRegister, upload: Upload, kind: UploadKind) -> list[ProposedEntry]:
    header = _header_date(lines, register) if kind == "diary" else None
    body = lines[1:] if header is not None else lines
    while header is not None and body and not register.first(body[0]) and _header_date(body[:1], register):
        body = body[1:]
    entries: list[ProposedEntry] = []
    for block in _blocks(body, register, dated_lines=kind == "note"):
        text = _clean(block.lines, strip_lead=block.lead)
        if header is not None:
            day, source = header, "header"
        elif block.lead is not None and (lead_day := block.lead.on(_uploaded_day(upload))) is not None:
            day, source = lead_day, "text"
        else:
            spans = number_spans(text)
            plain = [d for d in find_dates(text, spans) if d.role == "plain"]
            in_text = plain[0].on(_uploaded_day(upload)) if plain else None
            day, source = (in_text, "text") if in_text is not None else guess_date(upload)
        entry = _entry(text, block.case_id, block.case_by, day, source, kind)
        if entry is not None:
            entries.append(entry)
    return entries


def _order_sheet(lines: list[str], register: CaseRegister) -> list[ProposedEntry]:
    rows: list[tuple[FoundDate, list[str]]] = []
    header: list[str] = []
    previous = ""
    for line in lines:
        if _FOOTER.search(line) and rows:
            break
        lead = None if ends_with_marker(previous) else leading_date(line, number_spans(line))
        previous = line
        if lead is not None and lead.year is not None:
            rows.append((lead, [line]))
        elif rows:
            rows[-1][1].append(line)
        else:
            header.append(line)
    mention = register.first("\n".join(header))
    entries: list[ProposedEntry] = []
    for lead, row_lines in rows:
        day = lead.on(date.min)
        entry = _entry(_clean(row_lines, strip_lead=lead), mention.case_id if mention else None,
                       mention.by if mention else None, day, "row", "order_sheet") if day else None
        if entry is not None:
            entries.append(entry)
    return entries


def _deed(lines: list[str], register: CaseRegister, upload: Upload) -> list[ProposedEntry]:
    text = "\n".join(lines)
    mention = register.first(text)
    spans = number_spans(text)
    dated = next((d.on(date.min) for d in find_dates(text, spans) if d.year is not None), None)
    day, source = (dated, "document") if dated is not None else guess_date(upload)
    summary = _clean(lines)[:400]
    return [ProposedEntry(case_id=mention.case_id if mention else None, kind="document", hearing_date=day,
                          date_source=source, next_date=None, text=summary,
                          confidence=_confidence(source, mention.by if mention else None), upload_kind="deed")]


def merge_same_hearing(entries: list[ProposedEntry]) -> list[ProposedEntry]:
    """Join entries of one upload that are about the same case on the same day (one memory per hearing)."""
    merged: dict[tuple[str | None, date, str], ProposedEntry] = {}
    for entry in entries:
        key = (entry.case_id, entry.hearing_date, entry.kind)
        if key not in merged:
            merged[key] = entry
            continue
        first = merged[key]
        merged[key] = first.model_copy(update={
            "text": f"{first.text} {entry.text}",
            "confidence": min(first.confidence, entry.confidence),
            "next_date": first.next_date or entry.next_date,
        })
    return list(merged.values())


def segment(text: str, register: CaseRegister, upload: Upload) -> list[ProposedEntry]:
    """Return the hearing entries in an upload's text, each filed under a case and dated."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return []
    kind = upload_kind(text, register)
    if kind == "deed":
        entries = _deed(lines, register, upload)
    elif kind == "order_sheet":
        entries = _order_sheet(lines, register)
    else:
        entries = _diary_or_note(lines, register, upload, kind)
    return merge_same_hearing(entries)
