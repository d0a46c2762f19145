"""What a document is to its cases, by its shape and words: a hearing record, a listing, a step or a document.

- A cause list (a court's daily list, a board) lists the cases it names for a day: a next date, no hearing.
  Matters of other lawyers on it are not the practice's, so only registered cases are taken from it.
- A step is what happens outside a hearing: something filed, served, paid or due (a deadline), written with
  no word of a court sitting and no next date. It is kept under its case and moves no date.
- A document on file (a deed, a vakalat, a receipt) is kept as a document of its case, dated by its own date.
Everything else is a hearing record: a diary note, a docket row, an order.
"""

import re
from datetime import date, timedelta

from bot.services.addressed import addresses_the_reader
from handlers.legal.dates import FoundDate, find_dates
from handlers.legal.hearing import confidence, uploaded_day
from handlers.legal.models import ProposedEntry, Upload, UploadKind
from handlers.legal.register import CaseRegister, number_spans

# A title line of its own: "SALE DEED", "VAKALATNAMA", "FEE RECEIPT No. 45", "Received with thanks from ...".
_DOCUMENT_TITLE = re.compile(
    r"^\W*(?:(?:sale\s+deed|deed\s+of\s+\w+|agreement\s+(?:of|for)\s+sale|gift\s+deed|settlement\s+deed|"
    r"partition\s+deed|lease\s+deed|mortgage\s+deed|vakalat(?:h|t)?(?:nama)?|memo\s+of\s+appearance|"
    r"(?:general\s+|special\s+)?power\s+of\s+attorney)\W*$|"
    r"(?:[A-Za-z.]+\s*[-–:]\s*)?(?:(?:fee|money|cash|payment|process\s+fee|court\s+fee)\s+)?receipt\b(?:\W+no\b.*)?$|"
    r"received\s+with\s+thanks\b)", re.I)
_DEED_TITLE = re.compile(r"deed|agreement", re.I)
_CAUSE_LIST = re.compile(
    r"\bcause\s*-?\s*list\b|\bdaily\s+(?:list|board)\b|\b(?:today'?s|tomorrow'?s|day'?s)\s+(?:board|list)\b|"
    r"\bsitting\s+list\b|"
    r"^\W*board\b(?:\s+(?:for|of|dated|on))?|\bboard\s+(?:for|of|dated|on)\s+\(?\d|"
    r"\bmatters\s+listed\b|\blist\s+of\s+(?:cases|matters|business)\b|\bcases\s+listed\s+(?:on|for)\b|"
    r"\bfor\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day\s*,?\s+the\s+\d{1,2}|"
    r"\b(?:next|this|coming)\s+week'?s\s+(?:matters|board|list|cases)\b|\bweekly\s+(?:board|list)\b|"
    r"\b(?:matters|cases)\s+(?:for|of)\s+(?:the\s+)?(?:next|this|coming)\s+week\b", re.I)
# A board row led by its own day: "Mon 07.12  HC Ct.14  CRP 1190/2025", "Tue, 08-12-2026 ...".
_ROW_DAY = re.compile(r"^\W*(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)(\d{1,2})[./\-](\d{1,2})"
                      r"(?:[./\-](\d{4}|\d{2}))?(?!\d)", re.I)
# A court sitting, or a next date: the entry is a hearing record, whatever else it says.
_HEARING_WORDS = re.compile(
    r"\b(?:heard|hearing|adj\w*|n\.?\s?d\b|ndoh|posted|post\s+to|call(?:ed)?\s+(?:on|out)|argu\w*|args|evidence|"
    r"cross|chief|examin\w*|judge?ment|orders?\s+(?:pronounced|passed|reserved)|absent|present|appeared|"
    r"pw\s?\d|dw\s?\d|witness\w*|proceedings|not\s+reached|stands?\s+over|allowed|dismissed|decreed|bail|"
    r"nbw|warrant|court\s+(?:did|was|is|took|granted|directed)|bench|vacation|recorded|vaayida)\b|వాయిదా", re.I)
# Words about a hearing to come or a paper of one, not a sitting: "before the hearing on Saturday", "written
# arguments", "certified copy of judgment", "do not disturb ND".
_NOT_A_SITTING = re.compile(
    r"\b(?:before|for|till|until|at|on)\s+(?:the\s+)?(?:next\s+)?(?:hearing|n\.?\s?d\b\.?|next\s+date|date)\b|"
    r"\bwritten\s+arguments?\b|\bdo\s+not\s+disturb\s+\S+|"
    r"\bcop(?:y|ies)\s+of\s+(?:the\s+)?(?:[\w.]+\s+){0,2}?(?:judge?ment|order|award|decree|evidence|deposition)s?"
    r"(?:\s*(?:&|and)\s*decree)?(?:\s+(?:of|by)\s+(?:pw|dw|cw)\s?\d+(?:\s*(?:&|and|,)\s*\d+)*)?", re.I)
_STEP_WORDS = re.compile(
    r"\b(?:served|service\s+of|filed|filing|to\s+be\s+filed|presented|deposited|paid|copy\s+applied|"
    r"applied\s+for|notice\s+(?:issued|sent|received|served)|received|in\s+(?:our\s+)?office|deadline|"
    r"due|last\s+date\s+(?:for|to)|limitation|courier|registered\s+post|drafted|sent\s+to|"
    r"collect\w*|file|to\s+be\s+applied|copy\s+application|draft|xerox|client\s+informed|copying\s+section)\b",
    re.I)


def document_title(lines: list[str]) -> str | None:
    """The document's title when one of its first lines names a document on file (a deed, a vakalat, a
    receipt); None otherwise."""
    for line in lines[:5]:
        if _DOCUMENT_TITLE.match(line.strip()):
            return line.strip()
    return None


def is_deed(title: str) -> bool:
    return bool(_DEED_TITLE.search(title))


def is_cause_list(lines: list[str]) -> bool:
    """A court's list of the day (its title among the first lines): it lists cases, it records no hearing."""
    return any(_CAUSE_LIST.search(line) for line in lines[:6])


def listed_day(lines: list[str], uploaded: date) -> date | None:
    """The day a cause list is for: the first date of its title lines, a year-less one on or after the
    upload less a week (a list is printed for today or a coming day)."""
    for line in lines[:6]:
        for found in find_dates(line, number_spans(line)):
            if found.relative:
                continue
            day = found.on(uploaded.fromordinal(uploaded.toordinal() - 7), after=True)
            if day is not None:
                return day
    return None


def is_step(text: str, has_next_date: bool) -> bool:
    """An entry about something done or due outside a hearing, with no next date: a step."""
    return not has_next_date and bool(_STEP_WORDS.search(text)) and not _HEARING_WORDS.search(
        _NOT_A_SITTING.sub(" ", text)) and not addresses_the_reader(text)


_FAR = timedelta(days=366)
# The verb of the act a step records, just before its date: "counter filed on 12.11.2026", "served on the
# respondent on ...", "vakalat dated 05.12.2026". A date after "by", "before" or "within" is a deadline.
_ACT_VERB = re.compile(
    r"\b(?:filed|presented|submitted|lodged|instituted|registered|executed|issued|sent|dispatched|delivered|"
    r"served|received|deposited|paid|returned|produced|collected|obtained|applied|made\s+ready|signed|dated|"
    r"done|effected)\b", re.I)
_ACT_TAIL = re.compile(r"[^.;:]{0,40}?(?:\bon|\bdated|\bdt\.?)?(?:\s+this)?(?:\s+the)?[\s:,\-]*", re.I)
# "to be filed on", "must be served": the day it must be done by, not the day it was done.
_TO_BE = re.compile(r"\b(?:to|shall|must|should|will|yet\s+to|directed\s+to)(?:\s+be)?\s*$|\bdue\b[^.;]*$",
                    re.I)
# A deadline's word stands just before its date: "filed by 10.12", "served on or before"; "filed by D1 on" is not.
_BY = re.compile(r"\b(?:by|before|within|till|until|not\s+later\s+than)[\s:,\-]*$", re.I)
# Said after the date, as Telugu says it: "03.12.2026 na file chesaru", "03.12.2026 న దాఖలు చేశారు".
_ACT_AFTER = re.compile(
    r"\s*(?:న|నాడు|నాడే|na|naadu|nadu|roju|రోజు|tedi|తేదీ(?:న)?)?\s*(?:\S+\s+){0,3}?"
    r"(?:దాఖలు|ఫైల్\s*చే|సర్వ్|సర్వు|చెల్లించ|కట్టా|కట్టి|అందజేశ|అందింద|ఇచ్చా|"
    r"file\s+(?:chesa|chesi|chesam|chesaru|chesanu|ayyindi)|serve\s+(?:chesa|chesaru|ayyindi)|"
    r"(?:kattam|kattaamu|kattamu|kattanu|kattaru|chellincha))", re.I)


def _is_act(text: str, found: FoundDate) -> bool:
    """Whether a date is the day something was done ("filed on", "served on ... on"), not a deadline: the verb
    nearest before it is an act's, not said as one still to be done, and no "by" or "before" stands between."""
    if _ACT_AFTER.match(text, found.end):
        return not _BY.search(text[max(0, found.start - 24):found.start])
    window = text[max(0, found.start - 64):found.start]
    for verb in reversed(list(_ACT_VERB.finditer(window))):
        tail = window[verb.end():]
        if _ACT_TAIL.fullmatch(tail):
            return not _BY.search(tail) and not _TO_BE.search(window[max(0, verb.start() - 24):verb.start()])
    return False


def act_day(text: str, uploaded: date) -> date | None:
    """The day a step says its act was done ("counter filed on 12.11.2026", "served on 2nd December"): the first
    such date on or before the upload; None when the step writes none (it is then dated as it came)."""
    for found in find_dates(text, number_spans(text)):
        if found.relative or found.role not in ("other", "plain") or not _is_act(text, found):
            continue
        value = found.on(uploaded)
        if value is not None and value <= uploaded:
            return value
    return None


def due_date(text: str, day: date) -> date | None:
    """The day a step is due: the first date it writes after its own day ("reply to be filed before
    10-12-2026", "written statement due by 15/12", "within two weeks"); a year-less one is the next such day."""
    for found in find_dates(text, number_spans(text), today=day):
        if not found.relative and _is_act(text, found):
            continue  # "paid on 1st Dec": the day it was done, never its deadline
        value = found.on(day, after=True)
        if value is not None and value > day and (found.year is not None or value - day <= _FAR):
            return value
    return None


def document_kind(title: str) -> UploadKind:
    if is_deed(title):
        return "deed"
    return "receipt" if re.search(r"receipt|received", title, re.I) else "vakalat"


def listing_entries(lines: list[str], register: CaseRegister, upload: Upload) -> list[ProposedEntry]:
    """One listing per registered case a cause list names, with the list's day as its next date (no hearing).
    The list is dated by the day printed on it (a row's own day on a weekly board), never by its upload: only
    a list whose day cannot be read is dated by the upload until a person sets its day."""
    uploaded = uploaded_day(upload)
    day = listed_day(lines, uploaded)
    entries: list[ProposedEntry] = []
    for line in lines:
        own = row_day(line, uploaded) or day
        for case_id in dict.fromkeys(m.case_id for m in register.mentions(line) if m.by != "party"):
            entries.append(ProposedEntry(
                case_id=case_id, kind="listing", hearing_date=own or uploaded,
                date_source="header" if own else "upload_time", next_date=own, text=line,
                confidence=confidence("header" if own else "upload_time", "number"), upload_kind="cause_list"))
    return entries


def row_day(line: str, uploaded: date) -> date | None:
    """The day a board's row is led by (a weekday and a day), a year-less one on or after the upload less a
    week, as the list's own day is read."""
    found = _ROW_DAY.match(line)
    if found is None:
        return None
    day, month = int(found.group(1)), int(found.group(2))
    years = [int(found.group(3)) % 100 + 2000] if found.group(3) else [uploaded.year, uploaded.year + 1]
    floor = uploaded.fromordinal(uploaded.toordinal() - 7)
    for year in years:
        try:
            candidate = date(year, month, day)
        except ValueError:
            return None
        if found.group(3) or candidate >= floor:
            return candidate
    return None
