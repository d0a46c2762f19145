"""The terminal review of a backlog (`smriti legal ingest` in a terminal, without --yes): each entry is shown,
and the clerk saves it, discards it, or corrects any of its fields before saving.

Every answer gets a reply: an entry that cannot be saved yet says what it lacks (a case, a hearing date that is
not a guess), so Enter never just asks again. The fields are edited by the same rules as a card's Edit in chat.
"""

import asyncio
import sys
from collections.abc import Callable

from handlers.legal.cards import edit_field
from handlers.legal.dates import parse_day
from handlers.legal.models import ProposedEntry, Upload
from handlers.legal.register import CaseRegister

PROMPT = "  Enter: save / d: discard / or correct: case|date|next|kind|text VALUE (a bare date is the hearing date): "
FIELDS = {"case": "case", "date": "hearing_date", "hearing": "hearing_date", "next": "next_date",
          "kind": "kind", "text": "text"}
_SAVE = ("", "s", "save", "y", "yes")


def describe(upload: Upload, entry: ProposedEntry, reason: str = "") -> str:
    nxt = f", next date {entry.next_date}" if entry.next_date else ""
    why = f" {reason}" if reason else ""
    return (f"\n{upload.source_file}: {entry.kind} in {entry.case_id or '(no case)'} on {entry.hearing_date}{nxt} "
            f"[{entry.date_source}, confidence {entry.confidence:.2f}]{why}\n  {entry.text[:300]}")


def missing(entry: ProposedEntry, register: CaseRegister | None) -> str | None:
    """What the entry lacks before it can be saved, said as what to type; None when it can be saved."""
    if entry.case_id is None or (register is not None and register.get(entry.case_id) is None):
        return "No case yet: type case and its number, name or file no. (case W.P.(C) 7781/2026), or d."
    if entry.guessed:
        return (f"The hearing date {entry.hearing_date:%d.%m.%Y} is only a guess: type the date "
                f"(date {entry.hearing_date:%d.%m.%Y} to keep it), or d.")
    if entry.unlisted:
        return "The day listed could not be read: type next and the day (next 07.12.2026), or d."
    return None


def edit(entry: ProposedEntry, answer: str, upload: Upload, register: CaseRegister | None) -> ProposedEntry:
    """The entry with the field the answer names set; a bare answer is a hearing date, else a case."""
    word, _, value = answer.partition(" ")
    field = FIELDS.get(word.lower())
    if field is None:
        value = answer
        try:
            parse_day(answer, upload.uploaded_at.date())
            field = "hearing_date"
        except ValueError:
            field = "case"
    if field != "case":
        return edit_field(entry, field, value, upload)
    mention = None
    if register is not None:
        known = register.get(value.strip().lower())
        mention = known.case_id if known else (found.case_id if (found := register.only(value)) else None)
    if mention is None:
        raise ValueError(f"{value.strip()!r} is not a case in the register (type its number, name or file no.)")
    return entry.model_copy(update={"case_id": mention})


class TerminalReviewer:
    """Asks in the terminal about each entry: save, discard, or correct its case, dates, kind or text."""

    def __init__(self, ask: Callable[[str], str] | None = None, say: Callable[[str], None] | None = None) -> None:
        self.ask = ask or (lambda prompt: input(prompt))
        self.say = say or (lambda line: print(line, file=sys.stderr))

    async def review(self, upload: Upload, entry: ProposedEntry, reason: str,
                     register: CaseRegister | None = None) -> ProposedEntry | None:
        self.say(describe(upload, entry, reason))
        while True:
            answer = (await asyncio.to_thread(self.ask, PROMPT)).strip()
            if answer.lower() in ("d", "discard"):
                return None
            if answer.lower() in _SAVE:
                lacking = missing(entry, register)
                if lacking is None:
                    # Shown and confirmed by a person: a next date read without a marker is theirs now.
                    return entry.model_copy(update={"doubt": None}) if entry.doubt else entry
                self.say(f"  {lacking}")
                continue
            try:
                entry = edit(entry, answer, upload, register)
            except ValueError as exc:
                self.say(f"  {exc}")
                continue
            self.say(describe(upload, entry))
