"""Splitting an upload's text into hearing entries without a language model, by the shape of the page.

A page is read line by line. A line that begins with a date (after a serial number or table bars, as in
`1 | 14.10.2026 | ...`) is a row: one hearing. A line that is only a date ("Wed 14-10-2026", "Date of
hearing: 21.10.2026") is a heading: the day of the lines under it. A line naming a case starts that case's
entry. Lines before all of these are the header: the case it names applies to every row naming no other
case, and it is never an entry of its own. Wrapped lines join the entry above; a line after one that ends
with a marker ("Call on", "Next") continues it. Dates are then read by hearing.py.
"""

import re
from datetime import date

from pydantic import BaseModel

from handlers.legal.dates import FoundDate, announces_next, find_dates, leading_date
from handlers.legal.hearing import (
    DayHint,
    confidence,
    date_entry,
    guess_date,
    uploaded_day,
)
from handlers.legal.kinds import act_day, document_kind, document_title, due_date, is_cause_list, is_step, listing_entries
from handlers.legal.markers import ends_with_marker
from handlers.legal.models import GUESSED_SOURCES, ProposedEntry, Upload, UploadKind
from handlers.legal.register import CaseMention, CaseRegister, number_spans

__all__ = ["guess_date", "merge_same_hearing", "segment", "upload_kind"]

# "certified copy" makes an order sheet only as a stamp on a line of its own; in a sentence ("collect certified
# copy of the order") it is an office step.
_ORDER_SHEET = re.compile(r"\border\s+sheet\b|\bproceedings\b|^\W*(?:certified|true)\s+copy\W*$", re.I | re.M)
_FOOTER = re.compile(r"^\W*(certified|true)\s+copy\b|\bcopy\s+(applied|made\s+ready|delivered|issued)\b|"
                     r"//\s*true\s+copy", re.I)
_HEADING_WORDS = re.compile(
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:mon|tue|wed|thu|fri|sat|sun)\b\.?|"
    r"\bdate(?:\s+of\s+hearing)?\b|\bdt\b\.?|\bdated\b|\bday\b|\bof\b|\bthe\b|\bthis\b|\bhearing\b|"
    r"(?:సోమ|మంగళ|బుధ|గురు|శుక్ర|శని|ఆది)వారం|తేదీ", re.I,
)
# A court's name beside a diary date ("12-01-2027 Tuesday  JFCM Jangaon") still makes the line a heading.
_COURT_WORDS = re.compile(
    r"\b(?:courts?|judge|magistrate|tribunal|forum|jcj|scj|jfcm|pdj|asj|mact|cj|prl|principal|addl|additional|"
    r"senior|junior|sr|jr|dist|district|family|sessions|civil|i{1,3}|iv)\b\.?|కోర్టు|న్యాయస్థానం", re.I)
_PLACE = re.compile(r"^(?:[A-Z][\w.]*|[\u0C00-\u0C7F]+)$")
_ITEM = re.compile(r"^\(?\d{1,2}[.)]\s+(?!\d{1,2}\s?[./\-]\s?\d)")
_LEAD_PUNCT = re.compile(r"^[\s:;,.)|\-–—]+")
_TEXT = re.compile(r"[\w\u0C00-\u0C7F]")
_SHORT = 6
# The type ends at a dash, a bracket, a gap of two spaces (eCourts prints "Filing Number" on the same line) or
# the line's end.
_CASE_TYPE_LINE = re.compile(r"case\s*type\s*:\s*([A-Za-z][A-Za-z. ]{0,15}?)\s*(?:-|\(|\s{2}|\t|\n|$)", re.I | re.M)
# The registration number is the case's number; eCourts prints the filing number (another series) first.
_CASE_NUMBER_LINES = [re.compile(rf"{label}\s*(?:number|no\.?)\s*:\s*(\d{{1,6}}\s*/\s*\d{{2,4}})", re.I)
                      for label in ("registration", "case", "filing")]
# A table header naming a next-date column after the date column: "Date | Proceedings | Next date", eCourts'
# "Business On Date | Hearing Date".
_NEXT_COLUMN = re.compile(r"(?:business\s+on\s+date|\bdate\b).{0,80}?(?:next\s*(?:date|hearing|dt)|\bhearing\s+date|"
                          r"adjourned\s+to|\bN\.?\s?D\.?(?:O\.?H\.?)?(?![a-z]))", re.I)
# "Today: X - heard; Y - absent": the day said at the start of the line is each matter's.
_RELATIVE_LEAD = re.compile(r"^[\s(\[]*(?:today|to-day|yesterday|this\s+morning|ivv?aa?la|ninna|nedu|aaj|"
                            r"ఈ\s?రోజు|నేడు|నిన్న|ఇవాళ)(?![\w\u0C00-\u0C7F])\s*[:,\-–—]?", re.I)
_CELL = re.compile(r"\s*\|\s*|\s{2,}|\t")
_PIECE_SEPARATOR = re.compile(r";|\s\|\s|\.\s+(?=[A-Z\u0C00-\u0C7F])")


class _Line(BaseModel):
    text: str
    lead: FoundDate | None = None
    heading: FoundDate | None = None
    mention: CaseMention | None = None
    item: bool = False
    unknown: bool = False
    """A note line (not a dated row, whose I.A. is the case's own) naming a number not in the register."""


class _Block(BaseModel):
    lines: list[str]
    case_id: str | None
    case_by: str | None
    lead: FoundDate | None = None
    heading: FoundDate | None = None
    unknown: bool = False
    """The block opened on a case number not in the register: a line naming a registered case is another matter."""


def _heading(line: str, spans: list[tuple[int, int]]) -> FoundDate | None:
    """Return the date of a line that is only a date (with a weekday or a label), else None."""
    found = [d for d in find_dates(line, spans) if not d.relative]
    if len(found) != 1 or found[0].role != "plain" or len(line) > 64:
        return None
    rest = _HEADING_WORDS.sub(" ", line[:found[0].start] + " " + line[found[0].end:])
    if len(line) <= 48 and len(re.sub(r"[\W\d_]", "", rest)) <= 1:
        return found[0]
    if _COURT_WORDS.search(rest) is None:
        return None
    places = re.sub(r"[,:;()\-–—|]", " ", _COURT_WORDS.sub(" ", rest)).split()
    return found[0] if len(places) <= 2 and all(_PLACE.match(word) for word in places) else None


def _split_cases(line: str, register: CaseRegister) -> list[str]:
    """Split "12/1 Gajjala appeal: heard; Bandi partition: next 1/2" into one piece per case, each with the date."""
    mentions = register.mentions(line)
    if len({m.case_id for m in mentions}) < 2:
        return [line]
    cuts: list[int] = []
    previous = mentions[0]
    for mention in mentions[1:]:
        if mention.case_id == previous.case_id:
            continue
        gaps = list(_PIECE_SEPARATOR.finditer(line, previous.end, mention.start))
        if not gaps:
            return [line]  # "Gorle and Seabreeze both adjourned": one sentence about two cases names neither
        cuts.append(gaps[-1].end())
        previous = mention
    pieces = [line[a:b].strip(" ;|") for a, b in zip([0, *cuts], [*cuts, len(line)], strict=True)]
    lead = leading_date(line, number_spans(line))
    said = _RELATIVE_LEAD.match(line)
    prefix = line[lead.start:lead.end] + " " if lead is not None else said.group(0).strip() + " " if said else ""
    return [pieces[0], *(prefix + piece for piece in pieces[1:])]


def _read_lines(text: str, register: CaseRegister) -> list[_Line]:
    lines: list[_Line] = []
    previous = above = ""
    for raw in text.splitlines():
        tidy = re.sub(r"\s*\|\s*", " | ", raw).strip(" \t|")
        for line in _split_cases(tidy, register) if _TEXT.search(tidy) else []:
            # A wrapped line whose date completes the marker above ("for args" / "15/12; Nizamabad ...") gives
            # that date to the line above; what follows the separator is a matter of its own, on the day the
            # line above began with, as a second matter on one line is (_split_cases).
            if previous and ends_with_marker(previous) and (cut := _completing_date(line)):
                _add_line(lines, line[:cut], previous, register)
                lead = leading_date(above, number_spans(above))
                day = above[lead.start:lead.end] + " " if lead is not None else ""
                previous, line = line[:cut], day + line[cut:].strip(" ;,")
            if not _TEXT.search(line):
                continue
            _add_line(lines, line, previous, register)
            previous = line
        above = tidy if _TEXT.search(tidy) else above
    return lines


def _completing_date(line: str) -> int | None:
    """Where a line that starts with a date and a separator ("15/12; ...", "05.01.2027, ...") ends its date."""
    found = find_dates(line, number_spans(line))
    if not found or re.match(r"[\s(\[]*$", line[:found[0].start]) is None:
        return None
    separator = re.match(r"\s*[;,]", line[found[0].end:])
    return found[0].end + separator.end() if separator and line[found[0].end + separator.end():].strip() else None


def _add_line(lines: list[_Line], line: str, previous: str, register: CaseRegister) -> None:
    spans = number_spans(line)
    # "Sl | Date | Proceedings | Next date" ends with a marker but is a table's header, not a sentence cut short.
    # A line that already gave its next date is complete even when a purpose follows ("Call on 12.01.2027 for
    # enquiry."): a row starting with a date under it is a row of its own.
    continues = (ends_with_marker(previous) and not (len(_CELL.split(previous)) >= 3 and not re.search(r"\d", previous))
                 and not announces_next(previous, number_spans(previous)))
    # A line still naming two cases is filed under neither: "file this under X" in a note about Y is data.
    mention = register.first(line) if register.only(line) is not None else None
    heading = None if continues or mention is not None else _heading(line, spans)
    lead = None if continues or heading is not None else leading_date(line, spans) or _table_lead(line, spans)
    lines.append(_Line(text=line, lead=lead, heading=heading, mention=mention, item=bool(_ITEM.match(line)),
                       unknown=mention is None and lead is None and bool(spans) and register.first(line) is None))


def _table_lead(line: str, spans: list[tuple[int, int]]) -> FoundDate | None:
    """Return the date of a table row whose first dated cell is among its first three (eCourts' `Judge |
    Business on date | Hearing date | Purpose`), the cells before it holding no date."""
    cells = _CELL.split(line)
    if len(cells) < 3:
        return None
    found = [d for d in find_dates(line, spans) if not d.relative]
    if not found or found[0].role != "plain":
        return None
    offset = 0
    for cell in cells[:3]:
        offset = line.find(cell, offset)
        if offset <= found[0].start < offset + max(len(cell), 1):
            return found[0] if found[0].start - offset <= 1 else None
        offset += len(cell)
    return None


def _header_case(header: list[_Line], register: CaseRegister) -> CaseMention | None:
    text = "\n".join(line.text for line in header)
    # eCourts prints the type and the number on lines of their own ("Case Type : O.S.", "Registration Number :
    # 140/2022"): together they are the case number.
    kind = _CASE_TYPE_LINE.search(text)
    number = next((m for m in (p.search(text) for p in _CASE_NUMBER_LINES) if m is not None), None)
    if kind is not None and number is not None:
        text += f"\n{kind.group(1)} {number.group(1)}"
    mentions = register.mentions(text)
    for chosen in (mentions, [m for m in mentions if m.by == "number"]):
        if chosen and len({m.case_id for m in chosen}) == 1:
            return chosen[0]
    # No number the register knows (a blank "C.R.P. No.     of 2025"): the cause title's two sides name it.
    return register.by_parties(text) if not mentions else None


def _blocks(lines: list[_Line]) -> list[_Block]:
    blocks: list[_Block] = []
    heading: FoundDate | None = None
    current: _Block | None = None
    for line in lines:
        if line.heading is not None:
            heading, current = line.heading, None
            continue
        if current is not None and current.lead is not None and _FOOTER.search(line.text):
            break
        mention = line.mention
        # A numbered paragraph of an order or judgment ("2. Learned counsel seeks time") that names no case and
        # carries no date of a sitting (an earlier order's date may be cited) goes on with its matter; a numbered line naming a case is a matter of its own.
        # So does a numbered line naming only a party of the matter being read ("2. Nalla Mallaiah" in a cause
        # title's list of respondents).
        own_party = mention is not None and mention.by == "party" and current is not None \
            and mention.case_id == current.case_id
        paragraph = line.item and (mention is None or own_party) and current is not None \
            and current.case_id is not None \
            and not any(d.role != "other" for d in find_dates(line.text, number_spans(line.text)))
        starts = (current is None or line.lead is not None or (line.item and not paragraph)
                  or (mention is not None and current.case_id is not None and mention.case_id != current.case_id)
                  or (mention is not None and current.case_id is None and current.unknown))
        if starts:
            current = _Block(lines=[line.text], case_id=mention.case_id if mention else None,
                             case_by=mention.by if mention else None, lead=line.lead,
                             heading=None if line.lead is not None else heading, unknown=line.unknown)
            blocks.append(current)
        else:
            assert current is not None
            current.lines.append(line.text)
            if current.case_id is None and mention is not None:
                current.case_id, current.case_by = mention.case_id, mention.by
    return blocks


def _clean(lines: list[str], strip_lead: FoundDate | None = None) -> str:
    text = " ".join(line.strip() for line in lines if line.strip())
    if strip_lead is not None:
        text = _LEAD_PUNCT.sub("", text[strip_lead.end:])
    text = re.sub(r"\s*\|\s*", " ", text)
    return re.sub(r"\s+", " ", text).strip()


def _dated(block: _Block) -> bool:
    return block.lead is not None or block.heading is not None


def _is_title(block: _Block, following: _Block | None, block_text: str) -> bool:
    """A case line with no date of its own, over rows that name no case, is a title (the header)."""
    if block.case_id is None or _dated(block) or following is None:
        return False
    if following.case_id is not None or not _dated(following):
        return False
    return not any(d.role != "other" for d in find_dates(block_text, number_spans(block_text)))


def _page_day(header: list[_Line], upload: Upload) -> DayHint | None:
    """The day a short header line gives ("Sangareddy court today -", "18/11/2026"), if any; a board's day
    after the upload ("Matters listed on 5.1.2027") too, which hearing.py takes for the matters' next date."""
    upload_day = uploaded_day(upload)
    for line in header:
        if len(line.text.split()) > _SHORT:
            continue
        for found in find_dates(line.text, number_spans(line.text), today=upload_day):
            if found.shift is not None:
                continue  # "after four weeks" counts from a hearing, never from the upload
            value = found.on(upload_day) if found.role == "plain" else None
            if found.role == "next" and (later := found.on(upload_day, after=True)) is not None and later > upload_day:
                value = later
            if value is not None:
                return DayHint(day=value, source="text" if found.relative else "header")
    return None


def upload_kind(text: str, register: CaseRegister) -> UploadKind:
    """Tell a deed, an order sheet, a diary page and a typed note apart by their shape."""
    return _kind(_read_lines(text, register), text)


def _kind(lines: list[_Line], text: str) -> UploadKind:
    title = document_title([line.text for line in lines])
    if title is not None:
        return document_kind(title)
    if is_cause_list([line.text for line in lines]):
        return "cause_list"
    rows = [line for line in lines if line.lead is not None and line.lead.year is not None]
    if len(rows) >= 2 and (sum(1 for r in rows if r.mention is None) * 2 > len(rows) or _ORDER_SHEET.search(text)):
        return "order_sheet"
    if rows and _ORDER_SHEET.search(text):
        return "order_sheet"
    if any(line.heading is not None for line in lines):
        return "diary"
    return "note"


def _title_end(lines: list[_Line]) -> int:
    """Where an order sheet's title ends: its first dated row, when every line above it (court, case number,
    parties, "Vs.", a numbered list of respondents) carries no date; else 0."""
    first_row = next((i for i, line in enumerate(lines) if line.lead is not None), 0)
    above = lines[:first_row]
    if any(line.heading is not None or find_dates(line.text, number_spans(line.text)) for line in above):
        return 0
    return first_row


def _entries(lines: list[_Line], register: CaseRegister, upload: Upload, kind: UploadKind) -> list[ProposedEntry]:
    anchor = next((i for i, line in enumerate(lines)
                   if line.lead is not None or line.heading is not None or line.mention is not None), len(lines))
    if kind == "order_sheet":
        anchor = max(anchor, _title_end(lines))
    header, body = lines[:anchor], lines[anchor:]
    if not body:
        header, body = [], lines
    context = _header_case(header, register)
    if context is None and kind == "order_sheet":
        # An order sheet that names its one case only below its rows (a footer, a case line after the table).
        context = register.only("\n".join(line.text for line in lines))
    context_case, context_by = (context.case_id, context.by) if context else (None, None)
    page = _page_day(header, upload)
    first_row = next((i for i, line in enumerate(lines) if line.lead is not None), 0)
    next_column = any(_NEXT_COLUMN.search(line.text) and not find_dates(line.text) for line in lines[:first_row])
    blocks = _blocks(body)
    upload_day = uploaded_day(upload)
    entries: list[ProposedEntry] = []
    for index, block in enumerate(blocks):
        following = blocks[index + 1] if index + 1 < len(blocks) else None
        text = _clean(block.lines, strip_lead=block.lead)
        if _is_title(block, following, _clean(block.lines)):
            context_case, context_by = block.case_id, block.case_by
            continue
        case_id, case_by = block.case_id, block.case_by
        if case_id is None and _dated(block):
            case_id, case_by = context_case, context_by
        if case_id is None and (wrapped := register.only(_clean(block.lines))) is not None:
            case_id, case_by = wrapped.case_id, wrapped.by  # a case's name or number cut by a line break
        if not text or (case_id is None and len(text.split()) <= _SHORT and not find_dates(text)
                        and any(b.case_id for b in blocks)):
            # A court's name or a place under the date, not a matter; a dated title ("OFFICE NOTE 02/12/2026")
            # dates the items under it.
            if page is None and index == 0 and block.lead is not None and (day := block.lead.on(upload_day)):
                page = DayHint(day=day, source="header") if day <= upload_day else None
            continue
        own = None
        if block.lead is not None and (day := block.lead.on(upload_day)) is not None:
            own = DayHint(day=day, source="row" if kind == "order_sheet" else "text")
        elif block.heading is not None and (day := block.heading.on(upload_day)) is not None:
            own = DayHint(day=day, source="header")
        pieces = _split_cases(text, register)
        for piece in pieces:
            named = register.only(piece) if len(pieces) > 1 else None
            entries.append(_entry(piece, named.case_id if named else case_id, named.by if named else case_by,
                                  upload, kind, own, page, next_column and block.lead is not None))
    return entries


def _entry(text: str, case_id: str | None, case_by: str | None, upload: Upload, kind: UploadKind,
           own: DayHint | None, page: DayHint | None, next_column: bool = False) -> ProposedEntry:
    dated = date_entry(text, number_spans(text), upload, own=own, page=page, next_column=next_column)
    return ProposedEntry(case_id=case_id, hearing_date=dated.hearing_date, date_source=dated.source,
                         next_date=dated.next_date, text=text, upload_kind=kind, doubt=dated.doubt,
                         confidence=confidence(dated.source, case_by, dated.doubt))


_SIGNED = re.compile(r"(?i)\b(?:signed|executed|made|dated|date[d:]?|this)\b[^.\n]{0,25}$")
_RECITED = re.compile(r"(?i)\b(?:order|judgment|decree|award)\s+(?:dt\.?|dated)\s*$")


def _document(lines: list[str], register: CaseRegister, upload: Upload, kind: UploadKind) -> list[ProposedEntry]:
    text = "\n".join(lines)
    mention = register.first(text) or register.by_parties(text)
    spans = number_spans(text)
    written = [d for d in find_dates(text, spans) if d.year is not None and d.on(date.min) <= uploaded_day(upload)]
    # A document's own date is the one it was signed, executed or made on ("Signed on this the 3rd day of
    # September"); else its first date that is not an order or decree it recites ("against the order dt. ...").
    own = [d for d in written if _SIGNED.search(text[max(0, d.start - 40):d.start])] or \
        [d for d in written if not _RECITED.search(text[max(0, d.start - 40):d.start])]
    dated = own[0].on(date.min) if own else None
    day, source = guess_date(upload)
    if dated is not None:
        day, source = dated, "document"
    summary = _clean(lines)[:400]
    return [ProposedEntry(case_id=mention.case_id if mention else None, kind="document", hearing_date=day,
                          date_source=source, next_date=None, text=summary,
                          confidence=confidence(source, mention.by if mention else None), upload_kind=kind)]


def merge_same_hearing(entries: list[ProposedEntry]) -> list[ProposedEntry]:
    """Join entries of one upload that are about the same case on the same day (one memory per hearing)."""
    merged: dict[tuple[str | None, date, str], ProposedEntry] = {}
    for entry in entries:
        key = (entry.case_id, entry.hearing_date, entry.kind)
        if key not in merged:
            merged[key] = entry
            continue
        first = merged[key]
        # A next date written as one beats one read from an unmarked later date.
        chosen = min((first, entry), key=lambda e: (e.next_date is None, e.doubt is not None))
        sure = [e.confidence for e in (first, entry) if e.doubt is None]
        merged[key] = first.model_copy(update={
            "text": f"{first.text} {entry.text}", "next_date": chosen.next_date, "doubt": chosen.doubt,
            "confidence": min(first.confidence, entry.confidence) if chosen.doubt or not sure else min(sure),
        })
    return list(merged.values())


def segment(text: str, register: CaseRegister, upload: Upload) -> list[ProposedEntry]:
    """Return the hearing entries in an upload's text, each filed under a case and dated."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return []
    read = _read_lines(text, register)
    kind = _kind(read, text)
    if kind in ("deed", "receipt", "vakalat"):
        return merge_same_hearing(_document(lines, register, upload, kind))
    if kind == "cause_list":
        return merge_same_hearing(listing_entries(lines, register, upload))
    entries = _entries(read, register, upload, kind)
    # An office note of a filing, a service or a deadline, with no court sitting in it: a step, not a hearing,
    # due on the day its deadline says.
    return merge_same_hearing([_as_step(e, upload)
                               if kind != "order_sheet" and is_step(e.text, e.next_date is not None) else e
                               for e in entries])


def _as_step(entry: ProposedEntry, upload: Upload) -> ProposedEntry:
    """A step is dated by the act it records ("counter filed on 12.11.2026"), not the day it was sent, when the
    entry has no day of its own; its due date is counted from that day."""
    day, source = entry.hearing_date, entry.date_source
    if source in GUESSED_SOURCES and (acted := act_day(entry.text, uploaded_day(upload))) is not None:
        day, source = acted, "text"
    value = entry.confidence
    if source != entry.date_source and entry.case_id is not None:  # the same weight for how the case was named
        value = round(value * confidence(source, "number") / confidence(entry.date_source, "number"), 3)
    return entry.model_copy(update={"kind": "step", "doubt": None, "hearing_date": day, "date_source": source,
                                    "confidence": value, "due_date": due_date(entry.text, day)})
