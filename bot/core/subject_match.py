"""Does a stored record mention a subject? Conservative matching for forget and export.

A card, a queued item or a follow-up about a farmer is found by the farmer's id (a value equal to it, or the id
as a whole token in free text) or by the farmer's full name as a whole phrase. A name shared by two subjects of
the register is no evidence (it is left out by the pack), and an occurrence inside another subject's longer
name ("Ravi" inside "Ravi Kumar") does not count: forget must never reach a record about someone else.
"""

import json
import re
import unicodedata
from typing import Any

from pydantic import BaseModel, Field

_LETTER = r"0-9a-z\u0c00-\u0c7f\u0900-\u097f"
_WORD_BEFORE = rf"(?<![{_LETTER}])"
_WORD_AFTER = rf"(?![{_LETTER}])"


class SubjectTerms(BaseModel):
    """How a subject is recognised in stored records: its ids, its names, and other subjects' names."""

    canonical: str | None = None
    """The subject's id as its register keeps it (what its memories are tagged with), when it is registered."""
    ids: list[str] = Field(default_factory=list)
    """Ids that count as a whole value or as a whole token in free text."""
    exact: list[str] = Field(default_factory=list)
    """Ids that count only as a whole value (an id no register confirms: as a token it could be any word)."""
    names: list[str] = Field(default_factory=list)
    """Full names (any script), each unique in its register."""
    others: list[str] = Field(default_factory=list)
    """Names of the register's other subjects: an occurrence of ours inside one of theirs is theirs."""


def fold(text: str) -> str:
    return unicodedata.normalize("NFC", text).casefold()


def _id_pattern(subject_id: str) -> re.Pattern[str] | None:
    parts = re.findall(rf"[{_LETTER}]+", fold(subject_id))
    if not parts:
        return None
    return re.compile(_WORD_BEFORE + r"[^0-9a-z]{1,3}".join(map(re.escape, parts)) + _WORD_AFTER)


def _phrase_pattern(name: str) -> re.Pattern[str] | None:
    words = fold(name).split()
    if not words:
        return None
    return re.compile(_WORD_BEFORE + r"\s+".join(map(re.escape, words)) + _WORD_AFTER)


class Matcher:
    """Built once per request from the pack's terms; `mentions` walks any JSON-like value."""

    def __init__(self, terms: SubjectTerms) -> None:
        self._exact = {fold(i).strip() for i in [*terms.ids, *terms.exact] if i.strip()}
        self._ids = [p for p in map(_id_pattern, terms.ids) if p is not None]
        self._names = [p for p in map(_phrase_pattern, terms.names) if p is not None]
        ours = [fold(n) for n in terms.names]
        # Only longer names that contain one of ours can hide an occurrence of ours.
        self._covers = [p for p in (_phrase_pattern(o) for o in terms.others
                                    if fold(o) not in ours and any(n and n in fold(o) for n in ours)) if p]

    def mentions(self, value: Any) -> bool:
        if isinstance(value, dict):
            return any(self.mentions(k) or self.mentions(v) for k, v in value.items())
        if isinstance(value, (list, tuple)):
            return any(self.mentions(v) for v in value)
        if isinstance(value, bool) or value is None:
            return False
        if isinstance(value, (int, float)):
            return fold(str(value)) in self._exact
        if isinstance(value, str):
            return self._text_mentions(value)
        return False

    def _text_mentions(self, text: str) -> bool:
        stripped = text.strip()
        if stripped[:1] in ("{", "[") and len(stripped) > 1:
            try:
                return self.mentions(json.loads(stripped))
            except ValueError:
                pass
        folded = fold(text)
        if folded.strip() in self._exact or any(p.search(folded) for p in self._ids):
            return True
        if not self._names:
            return False
        for cover in self._covers:
            folded = cover.sub(lambda m: " " * len(m.group()), folded)
        return any(p.search(folded) for p in self._names)


def unique_names(ours: list[str], everyone: list[list[str]]) -> tuple[list[str], list[str]]:
    """Split a subject's names into those no other subject shares, and list the others' names.

    `everyone` holds every other subject's names in the same register."""
    theirs = [n for names in everyone for n in names if n.strip()]
    taken = {fold(n) for n in theirs}
    mine = list(dict.fromkeys(n for n in ours if n.strip() and fold(n) not in taken))
    return mine, theirs
