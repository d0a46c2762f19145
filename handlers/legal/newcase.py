"""A case the register does not know: typed by a lawyer (`/case add O.S. 311/2024 Pendyala v Kommineni,
Vikarabad`) or cited by an upload or note. The number is kept as written (in any of the forms the register
reads: O.S./OS/C.C./W.P./A.S. No. 311 of 2024 ...), with a title and court when they are given, and is only
added to the register when a person saves the card that proposes it."""

import re

from pydantic import BaseModel, Field

from handlers.legal.models import CaseRecord
from handlers.legal.register import _NOT_PARTY, _NUMBER, CaseRegister, number_key
from handlers.legal.registers import case_slug

# Applications inside a matter (I.A., E.A., C.M.P., Crl.M.P.): never a matter of their own.
_APPLICATIONS = {"IA", "EA", "CMP", "MP", "CRLMP", "REP", "IANO"}
_PARTIES = re.compile(r"([A-Z][\w.&'’-]*(?:\s+[A-Z][\w.&'’-]*){0,4})\s+(?:v|vs|v/s|versus)\.?\s+"
                      r"([A-Z][\w.&'’-]*(?:\s+[A-Z][\w.&'’-]*){0,4})")
_COURT = re.compile(r"\b(?:court|judge|magistrate|tribunal|forum|jcj|scj|jfcm|pdj|asj|mact|munsif|bench)\b", re.IGNORECASE)
_SEPARATORS = re.compile(r"\s*(?:,|;|\||\s-\s|\s–\s)\s*")
_MAX_COURT = 80


class NewCase(BaseModel):
    """A case proposed on a card, added to the register only on Save."""

    number: str = Field(min_length=3)
    """As written: "O.S. 311/2024", "OS No. 311 of 2024"."""
    title: str = ""
    court: str = ""

    @property
    def shown_title(self) -> str:
        return self.title or self.number


def _trimmed_number(written: str) -> str:
    """Drop words the number pattern took in before the case type ("in O.S. 311/2024" -> "O.S. 311/2024")."""
    words = written.split()
    while len(words) > 2 and (words[0].islower() or words[0].lower().rstrip(".") == "no"):
        words.pop(0)
    return " ".join(words).strip(" ,;:-")


def case_numbers(text: str) -> list[tuple[str, int, int]]:
    """Every case number written in the text (not applications, not dates), as written, with its span."""
    found = []
    for match in _NUMBER.finditer(text):
        kind, number, year = match.groups()
        if len(year) <= 2 and int(number) <= 31 and int(year) <= 12:
            continue  # "N.D. 15/10" is a date
        key = number_key(kind, number, year)
        if not key.kind or key.kind in _APPLICATIONS or any(key.kind.endswith(a) for a in ("IA", "EA")):
            continue
        if key.kind == "NO":
            continue  # "Document No. 8812/2026", a receipt's "No. 17/2026": a number with no case type is no case
        found.append((_trimmed_number(match.group(0)), match.start(), match.end()))
    return found


def known_number(register: CaseRegister, written: str) -> bool:
    return any(m.by == "number" for m in register.mentions(written))


def parse_case(text: str) -> NewCase | None:
    """Read "O.S. 311/2024 Pendyala v Kommineni, Vikarabad" (number, then title, then court); None without a
    case number."""
    numbers = case_numbers(text)
    if not numbers:
        return None
    written, start, end = numbers[0]
    rest = (text[:start] + " " + text[end:]).strip(" ,;:-–")
    parts = [p for p in _SEPARATORS.split(rest) if p.strip()]
    parties = _PARTIES.search(rest)
    if parties is not None:
        title = parties.group(0).strip()
        court = ", ".join(p.strip() for p in parts if p.strip() not in title and title not in p)
    else:
        title = parts[0] if parts else ""
        court = ", ".join(parts[1:])
    return NewCase(number=written, title=title.strip()[:120], court=court.strip()[:_MAX_COURT])


def cited_case(entry_text: str, page_text: str, register: CaseRegister) -> NewCase | None:
    """The one case number an entry (else its page) cites that the register does not know, with the title
    and court the page gives; None when it cites none, or several."""
    for text in (entry_text, page_text):
        unknown = list(dict.fromkeys(w for w, _, _ in case_numbers(text) if not known_number(register, w)))
        if len(unknown) == 1:
            return NewCase(number=unknown[0], title=_title_near(text, unknown[0]), court=_court_in(page_text))
        if unknown:
            return None
    return None


# An order's cause title: "Between: X ... Petitioner And: Y ... Respondent".
_BETWEEN = re.compile(r"\bbetween\s*:?\s*(.+?)\s*(?:\.{2,}|…|,)\s*(?:petitioner|plaintiff|appellant|complainant)s?\b"
                      r".*?\band\s*:?\s*(.+?)\s*(?:\.{2,}|…|,)\s*(?:respondent|defendant|accused)s?\b", re.I | re.S)


def _title_near(text: str, number: str) -> str:
    between = _BETWEEN.search(text)
    if between is not None:
        first, second = (re.split(r",\s*rep\.?\s", side.strip(), maxsplit=1)[0] for side in between.groups())
        return f"{' '.join(first.split())} v. {' '.join(second.split())}"[:120]
    at = text.find(number)
    found = sorted(_PARTIES.finditer(text), key=lambda m: abs(m.start() - max(at, 0)))
    return found[0].group(0).strip()[:120] if found else ""


def _court_in(text: str) -> str:
    for line in text.splitlines():
        if _COURT.search(line) and len(line.strip()) <= _MAX_COURT and not case_numbers(line):
            return line.strip(" |:-")
    return ""


def case_record(new: NewCase, register: CaseRegister) -> CaseRecord:
    """The register row for a confirmed new case; saving the same proposal twice gives the same row."""
    match = _NUMBER.search(new.number)
    key = number_key(*match.groups()) if match else None
    # One id however the number is written: "O.S. No. 311 of 2024" and "OS 311/2024" are os-311-2024.
    base = (f"{key.kind}-{key.number}-{key.year}".lower() if key and key.kind else
            case_slug(new.number) or case_slug(new.title) or "case")
    candidate, n = base, 1
    while (existing := register.get(candidate)) is not None and new.number not in existing.numbers:
        n += 1
        candidate = f"{base[:37]}-{n}"
    short = _short_name(new.title, register)
    return CaseRecord(case_id=candidate, title=new.title if len(new.title) >= 3 else new.number,
                      numbers=[new.number], court=new.court, aliases=[short] if short else [])


def _short_name(title: str, register: CaseRegister) -> str | None:
    """The party name lawyers call a matter by ("Pendyala" for Pendyala v Kommineni): the first party's first
    distinctive word (the other party's when the first is the State), if no case of the register has it."""
    parties = _PARTIES.search(title)
    sides = [parties.group(1), parties.group(2)] if parties else [title]
    for side in sides:
        for word in re.findall(r"[A-Z][a-z]{3,}", side):
            if word.lower() not in _NOT_PARTY and not register.mentions(word):
                return word
            break
    return None
