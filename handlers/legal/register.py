"""The case register: which matters the practice has, and how a line of text names one of them.

A case is named by its number (`O.S. 214/2024`, OCR'd as `0.5. 214/2024`), its title or an alias. Matching
a number needs its type letters too, so `IA 1187/2026` never files a note under suit `1187/2026`.
"""

import difflib
import json
import re
from pathlib import Path

from pydantic import BaseModel, TypeAdapter

from handlers.legal.models import CaseRecord

# Up to five groups of up to four letters (M.V.O.P., M.A.C.O.P., Crl.M.P., LAOP), or of five to seven with
# capitals inside (MACOP, CrlMP): never a whole word like "March".
# A civil writ's series mark ("W.P.(C) 7781 of 2026", "WRIT PETITION (CIVIL) No. ...") is the writ's own number.
# Case types spelled out, as High Court orders print them ("WRIT PETITION No. 1234 OF 2026"): their usual letters.
SPELLED_TYPES = {
    "writ petition": "WP", "writ appeal": "WA", "original suit": "OS", "appeal suit": "AS",
    "original petition": "OP", "criminal petition": "CRLP", "criminal appeal": "CRLA",
    "civil revision petition": "CRP", "civil miscellaneous appeal": "CMA", "second appeal": "SA",
    "execution petition": "EP", "sessions case": "SC", "calendar case": "CC", "miscellaneous case": "MC",
}
_SPELLED = "|".join(w.replace(" ", r"\s+") for w in sorted(SPELLED_TYPES, key=len, reverse=True))
_NUMBER = re.compile(
    r"(?<![A-Za-z0-9/.\-])((?:" + _SPELLED + r")\s+|(?:(?:(?-i:[A-Z]{5,6}|[A-Za-z]{1,4}[A-Z][A-Za-z]{0,2})|[A-Za-z015]{1,4})(?![A-Za-z015])\.?\s?){1,5}?)(?:\s*\((?:c|civ(?:il)?)\.?\))?\s*(?:(?<=[A-Za-z.)])[-–]\s*)?(?:No\.?\s*[-–]?\s*)?(\d{1,6})"
    r"\s*(?:/|of|[-–](?=\s*\d{4}(?!\d)))\s*(\d{2,4})(?!\d)",  # RCC-5-2026: a hyphen only before a full year
    re.I,
)
# OCR reads letters in a case type as digits; only applied to the type letters, never to the number itself.
_OCR_LETTERS = str.maketrans({"0": "O", "5": "S", "1": "I", "8": "B", "2": "Z", "6": "G"})
_WORD = re.compile(r"[a-z0-9]+")
_STOP = {"the", "what", "happened", "last", "time", "in", "of", "for", "when", "is", "next", "date", "history",
         "timeline", "case", "suit", "matter", "show", "me", "a", "an", "on", "and", "v", "vs", "hearing", "june",
         "tell", "about", "was", "did", "there", "were", "our", "my", "please", "previous", "partition", "sp"}

CaseList = TypeAdapter(list[CaseRecord])
# A party's name names its case before the case's type ("Ruksana MC"), with the rest of the name and what the
# case is about between ("Koteswara Rao cheque case"), or in a cause title ("Anusha v. Greenfield").
_KIND_WORDS = (r"cheque|138|maintenance|eviction|rent|custody|bail|injunction|partition|recovery|execution|divorce|"
               r"accident|murder|land|writ|property|family|civil|criminal|consumer|motor|claim")
_CASE_TYPE_AFTER = re.compile(
    r"(?:[ \t]+[A-Z][a-z]+){0,2}(?:[ \t]+(?i:" + _KIND_WORDS + r"))?"
    r"[ \t]*(?:[A-Z][A-Z.]{1,7}(?![a-z])|(?i:case|suit|matter|petition|appeal)\b|కేసు|దావా)"
    r"|[ \t]+(?i:vs?\.?|versus)[ \t]+[A-Z]")
_CAUSE_TITLE_BEFORE = re.compile(r"(?i:\bvs?\.?|\bversus)[ \t]+$")
# Words of case titles too common to name one case by themselves ("State", "Traders", "Corporation").
_NOT_PARTY = {"state", "india", "limited", "private", "company", "assurance", "insurance", "traders", "industries",
              "society", "association", "corporation", "telangana", "andhra", "pradesh", "collector", "deputy",
              "special", "tahsildar", "others", "another", "developers", "finance", "textiles", "enterprises",
              "cooperative", "municipal", "commissioner", "government", "union", "bank", "transport", "road",
              "district", "appeal", "partition", "maintenance", "divorce", "execution", "injunction", "recovery",
              "cheque", "suit", "claim", "accident", "sessions", "acquisition", "land", "writ", "petition",
              "eviction", "shop", "case", "kumar", "reddy", "naidu", "singh"}


class NumberKey(BaseModel):
    kind: str
    number: int
    year: int


class CaseMention(BaseModel):
    case_id: str
    start: int
    end: int
    by: str
    """"number", "title", "alias" or "party" (a party's name no other case has)."""


def number_key(kind: str, number: str, year: str) -> NumberKey:
    spelled = SPELLED_TYPES.get(" ".join(kind.lower().split()))
    letters = spelled or re.sub(r"[^A-Z]", "", kind.upper().translate(_OCR_LETTERS))
    letters = letters.removesuffix("NO") if len(letters) > 3 else letters
    value = int(year)
    return NumberKey(kind=letters, number=int(number), year=value + 2000 if value < 100 else value)


def number_spans(text: str) -> list[tuple[int, int]]:
    """Return the spans of the numbers of everything shaped like a case or application number (never dates)."""
    spans: list[tuple[int, int]] = []
    for match in _NUMBER.finditer(text):
        kind, number, year = match.groups()
        # "N.D. 15/10" is a next date, not a case number: a short pair that is a valid day/month stays a date.
        if len(year) <= 2 and int(number) <= 31 and int(year) <= 12:
            continue
        if number_key(kind, number, year).kind:
            spans.append((match.start(2), match.end()))  # the type letters can be a month ("1st May C.C. 12/24")
    return spans


def _phrase(value: str) -> re.Pattern[str] | None:
    """A name as a pattern, its words in order with up to three separators between; None for no words."""
    words = [re.escape(w) for w in re.findall(r"[A-Za-z0-9\u0c00-\u0c7f]+", value)]
    if not words:
        return None
    return re.compile(r"(?<![A-Za-z0-9])" + r"[\W_]{0,3}".join(words) + r"(?![A-Za-z0-9])", re.I)


class CaseRegister:
    """A practice's cases, and the matching rules for naming them."""

    def __init__(self, cases: list[CaseRecord]) -> None:
        ids = [c.case_id for c in cases]
        if len(ids) != len(set(ids)):
            raise ValueError("case ids in the register must be unique")
        self.cases = list(cases)
        self._by_id = {c.case_id: c for c in cases}
        self._numbers: list[tuple[NumberKey, str]] = []
        codes: dict[str, list[str]] = {c.case_id: [c.code] if c.code else [] for c in cases}
        for case in cases:
            for raw in case.numbers:
                match = _NUMBER.search(raw)
                if match is None:
                    # A number written the practice's own way ("HX-OS-311-2024"): named as written, folded.
                    codes[case.case_id].append(raw)
                    continue
                self._numbers.append((number_key(*match.groups()), case.case_id))
        self._names: list[tuple[re.Pattern[str], str, str]] = []
        for case in cases:
            # Longest names first, so "Seabreeze SP suit" wins over "Seabreeze" at the same place.
            named = [(a, "alias") for a in case.aliases] + [(case.title, "title")] \
                + [(c, "number") for c in codes[case.case_id] if re.search(r"[A-Za-z0-9]", c)]
            for name, by in sorted(named, key=lambda n: -len(n[0])):
                pattern = _phrase(name)
                if pattern is not None:
                    self._names.append((pattern, case.case_id, by))
        # A party's own name ("Ruksana MC", "Polisetty") names a case when no other case has that word.
        owners: dict[str, set[str]] = {}
        for case in cases:
            for name in (case.title, *case.aliases):
                for word in re.findall(r"[A-Z][a-z]{4,}", name):
                    owners.setdefault(word.lower(), set()).add(case.case_id)
        # Only where a lawyer would use it as a case's name: first on the line, or before the case's type
        # ("Ruksana MC", "Polisetty case"); "Adv. Prasad appeared" names a person, not a case.
        self._parties = [(re.compile(rf"(?<![A-Za-z]){word}(?![A-Za-z])", re.I), next(iter(ids)))
                         for word, ids in owners.items() if len(ids) == 1 and word not in _NOT_PARTY]

    @classmethod
    def load(cls, path: Path) -> "CaseRegister":
        return cls(CaseList.validate_json(path.read_text(encoding="utf-8")))

    def dump(self) -> str:
        return json.dumps([c.model_dump(exclude_defaults=True) for c in self.cases], indent=2, ensure_ascii=False)

    def get(self, case_id: str) -> CaseRecord | None:
        return self._by_id.get(case_id)

    def __len__(self) -> int:
        return len(self.cases)

    def mentions(self, text: str) -> list[CaseMention]:
        """Return every case named in the text, in order of position."""
        found: list[CaseMention] = []
        for match in _NUMBER.finditer(text):
            key = number_key(*match.groups())
            for known, case_id in self._numbers:
                # The match may start at a word before the type ("in OS 214/24"): compare the tail.
                if key.number == known.number and key.year == known.year and key.kind.endswith(known.kind):
                    found.append(CaseMention(case_id=case_id, start=match.start(), end=match.end(), by="number"))
        for pattern, case_id, by in self._names:
            for match in pattern.finditer(text):
                found.append(CaseMention(case_id=case_id, start=match.start(), end=match.end(), by=by))
        # A party's name is a weak sign: a case number the register does not have names that matter instead
        # ("M.C. 44/2026 (Renuka v. Srinu)" is another court's case, whoever else is called Srinu).
        numbered = [(m.start, m.end) for m in found if m.by == "number"]
        if all(any(s <= a and b <= e for s, e in numbered) for a, b in number_spans(text)):
            named = list(found)
            for pattern, case_id in self._parties:
                for match in pattern.finditer(text):
                    if any(m.start < match.end() and match.start() < m.end for m in named):
                        continue  # inside a name already found ("Rahim" of "Rahim eviction")
                    before = text[text.rfind("\n", 0, match.start()) + 1:match.start()]
                    at_start = not re.search(r"[A-Za-z\u0C00-\u0C7F]", before)
                    if at_start or _CASE_TYPE_AFTER.match(text, match.end()) or _CAUSE_TITLE_BEFORE.search(before):
                        found.append(CaseMention(case_id=case_id, start=match.start(), end=match.end(), by="party"))
        return sorted(found, key=lambda m: (m.start, -(m.end - m.start)))

    def by_parties(self, text: str) -> CaseMention | None:
        """The one case whose cause title has both sides named in the text ("Nallabelli Venkataiah ...
        Petitioner Vs Nallabelli Sammaiah ... Respondent" on a vakalat whose case number is still blank); a word
        both sides share (the family name) or a common word ("State") names neither side."""
        found: list[CaseMention] = []
        for case in self.cases:
            sides = re.split(r"\s+(?:vs?\.?|versus)\s+", case.title, maxsplit=1, flags=re.I)
            if len(sides) != 2:
                continue
            words = [{w.lower() for w in re.findall(r"[A-Z][a-z]{3,}", side)} - _NOT_PARTY for side in sides]
            own = [words[0] - words[1], words[1] - words[0]]
            hits = [[m for w in side for m in re.finditer(rf"(?<![A-Za-z]){w}(?![A-Za-z])", text, re.I)]
                    for side in own]
            if all(hits):
                first = min((m for side in hits for m in side), key=lambda m: m.start())
                found.append(CaseMention(case_id=case.case_id, start=first.start(), end=first.end(), by="party"))
        return found[0] if len(found) == 1 else None

    def near_number(self, written: str) -> CaseRecord | None:
        """The one registered case whose number is one keystroke from a number the register does not have
        ("OS 231/2025" or "OS 213/2024" for O.S. 231/2024: a character changed, added, dropped, or two swapped):
        a typo to ask about before a new case is made; None otherwise."""
        from rapidfuzz.distance import OSA

        match = _NUMBER.search(written)
        if match is None:
            return None
        key = number_key(*match.groups())
        wanted = f"{key.kind} {key.number}/{key.year}"
        close = {case_id for known, case_id in self._numbers
                 if OSA.distance(wanted, f"{known.kind} {known.number}/{known.year}") == 1}
        return self._by_id[close.pop()] if len(close) == 1 else None

    def first(self, text: str) -> CaseMention | None:
        mentions = self.mentions(text)
        return mentions[0] if mentions else None

    def only(self, text: str) -> CaseMention | None:
        """Return the case the text names if it names exactly one case, else None."""
        mentions = self.mentions(text)
        return mentions[0] if mentions and len({m.case_id for m in mentions}) == 1 else None

    def asked_about(self, question: str) -> CaseMention | None:
        """The case a question is about: the one it names, else the first it names, else the one case a party's
        own name anywhere in it belongs to ("what happened last time in Azeemuddin?"). In a note a party's name
        counts only where a lawyer names a case by it; a question has no other people in it to mistake."""
        named = self.only(question) or self.first(question)
        if named is not None:
            return named
        hits = {case_id: match for pattern, case_id in self._parties if (match := pattern.search(question))}
        if len(hits) != 1:
            return None
        [(case_id, match)] = hits.items()
        return CaseMention(case_id=case_id, start=match.start(), end=match.end(), by="party")

    def near(self, words: str, limit: int = 3) -> list[CaseRecord]:
        """Return the cases whose names look most like the words given (for an unknown case)."""
        wanted = [w for w in _WORD.findall(words.lower()) if w not in _STOP and not w.isdigit()]
        scored: list[tuple[float, str]] = []
        for case in self.cases:
            names = [case.title, *case.aliases, *case.numbers]
            tokens = {t for n in names for t in _WORD.findall(n.lower()) if t not in _STOP}
            best = max((difflib.SequenceMatcher(None, w, t).ratio() for w in wanted for t in tokens), default=0.0)
            scored.append((best, case.case_id))
        ranked = sorted(scored, key=lambda s: (-s[0], s[1]))
        close = [self._by_id[c] for score, c in ranked if score >= 0.5][:limit]
        return close or [self._by_id[c] for _, c in ranked[:limit]]

    @staticmethod
    def unknown_name(question: str) -> str:
        """Return the words of a question that look like the case the person meant."""
        match = re.search(r"\b(?:in|of|for|about)\s+(?:the\s+)?(.+?)[?.!]*$", question.strip(), re.I)
        tail = match.group(1) if match else question
        words = [w for w in re.findall(r"[A-Za-z0-9./-]+", tail) if w.lower() not in _STOP]
        return " ".join(words) or question.strip()
