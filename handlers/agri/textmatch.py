"""Finding known words and dates in mixed Telugu/English text, where Telugu suffixes attach to words."""

import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from handlers.agri.fuzzy import FUZZY_CATEGORIES, NearTerm, near_hits
from handlers.agri.translit import sound_key

_LETTER = "a-z0-9\u0c00-\u0c7f"
_TELUGU = re.compile("[\u0c00-\u0c7f]")
_TELUGU_DIGITS = str.maketrans("౦౧౨౩౪౫౬౭౮౯", "0123456789")
# Latin transliterations take Telugu case endings too (pattilo, mirapaku); English takes plurals and tenses.
_LATIN_SUFFIX = "(?:s|es|ed|ing|lo|ki|ku|ni|nu|ga|na|la|ke)?"


def normalise(text: str) -> str:
    """Return text lowercased, with Telugu digits as ASCII and runs of spaces folded."""
    return " ".join(text.translate(_TELUGU_DIGITS).lower().replace("\u200c", "").split())


def has_telugu(text: str) -> bool:
    return bool(_TELUGU.search(text))


# A crop's word takes case endings on an oblique stem: నువ్వులు -> నువ్వుల లో / నువ్వులకు, ఆముదం -> ఆముదానికి /
# ఆముదపు, and in Latin letters nuvvulu -> nuvvula ki, amudam -> amudaniki.
_STEM_MIN = 3
INFLECTED = frozenset({"crop"})


def _stem(body: str, term: str) -> str:
    if has_telugu(term[-1:]):
        if term.endswith("ు") and len(term) > _STEM_MIN:
            return body[:-1]
        if term.endswith("ం") and len(term) > _STEM_MIN:
            return f"{body[:-1]}(?:ం|ా|పు|ప)"
        return body
    if term.endswith("ulu") and len(term) > _STEM_MIN + 2:
        return f"{body[:-1]}(?:u|a)"
    if term.endswith("am") and len(term) > _STEM_MIN + 1:
        return f"{body[:-1]}(?:m|niki|nni|pu)"
    return body


def _pattern(term: str, inflected: bool = False) -> str:
    body = r"\s+".join(re.escape(part) for part in normalise(term).split())
    if inflected:
        body = _stem(body, normalise(term))
    if has_telugu(term[-1:]):
        # A Telugu word keeps its meaning with a suffix attached (మిరపలో, పత్తికి).
        return f"(?<![{_LETTER}]){body}"
    return f"(?<![{_LETTER}]){body}{_LATIN_SUFFIX}(?![{_LETTER}])"


@lru_cache(maxsize=1 << 15)
def _compiled(term: str, inflected: bool = False) -> tuple[str, re.Pattern[str]]:
    """A term's first word (text that cannot hold it cannot match) and its pattern; kept across readers, since
    every tenant's reader holds the same built-in lexicon and a register change rebuilds the reader."""
    first = normalise(term).split()[0]
    if inflected and len(normalise(term).split()) == 1:
        first = first[:_STEM_MIN]
    return first, re.compile(_pattern(term, inflected))


@dataclass(frozen=True)
class Hit:
    """One term found in a text: what it means (category, key) and where it is."""

    category: str
    key: str
    start: int
    end: int


MIN_ISSUE_CHARS = 10
"""A problem is matched by sound only by a long name ("pink ballworm"): short ones ("thrips", "blast") sound like
ordinary words of a note."""


FOUND_KEPT = 256
"""Texts whose hits a matcher keeps; a handful are read per message."""


class TermMatcher:
    """Finds every registered term in a text; overlapping hits resolve to the longest. Names in the `fuzzy`
    categories are also found misheard or misspelt (handlers.agri.fuzzy) where nothing exact was."""

    def __init__(self, fuzzy: frozenset[str] = FUZZY_CATEGORIES) -> None:
        self._terms: list[tuple[str, str, str, re.Pattern[str]]] = []
        self._fuzzy = fuzzy
        self._near: list[NearTerm] = []
        self._found: dict[str, tuple[Hit, ...]] = {}
        """Hits per text: reading one note asks for the same text's hits several times (farmer, advice, dose...)."""

    def add(self, category: str, key: str, terms: list[str]) -> None:
        self._found.clear()
        for term in terms:
            if normalise(term):
                self._terms.append((category, key, *_compiled(term, category in INFLECTED)))
                if category in self._fuzzy and (category != "issue" or len(term.replace(" ", "")) >= MIN_ISSUE_CHARS):
                    self._near.append(NearTerm(category, key, normalise(term), sound_key(term)))

    def find(self, text: str) -> list[Hit]:
        """Return non-overlapping hits in text order; `text` must already be normalised."""
        hits = self._found.get(text)
        if hits is None:
            if len(self._found) >= FOUND_KEPT:
                self._found.clear()
            hits = self._found[text] = tuple(self._find(text))
        return list(hits)

    def _find(self, text: str) -> list[Hit]:
        found = [Hit(c, k, m.start(), m.end()) for c, k, first, rx in self._terms if first in text
                 for m in rx.finditer(text)]
        found.sort(key=lambda h: (-(h.end - h.start), h.start))
        kept: list[Hit] = []
        for hit in found:
            # The same words may name two things (two farmers called Ramesh): keep both, let the caller choose.
            if all(hit.end <= k.start or hit.start >= k.end or (hit.start, hit.end) == (k.start, k.end)
                   for k in kept):
                kept.append(hit)
        if self._near:
            for near in near_hits(text, self._near, [(k.start, k.end) for k in kept]):
                if all(near.end <= k.start or near.start >= k.end for k in kept):
                    kept.append(Hit(near.category, near.key, near.start, near.end))
        return sorted(kept, key=lambda h: h.start)


# "no stem borer seen", "kattera purugu ledu", "నల్లి లేదు": a problem named to say it is not there.
_ABSENT_BEFORE = re.compile(r"(?<![a-z])(?:no|zero|nil|without|free of|free from|not seen|did not see|didn't see|"
                            r"no sign of|no signs of)\s+(?:(?!much\b|many\b|more\b|control|spray)[a-z]+\s+)?$")
_ABSENT_AFTER = re.compile(r"^\s*(?:(?:emi|em|ippudu|inka|asalu|ఏమీ|ఇప్పుడు|అసలు)\s+)?(?:(?<![a-z])(?:ledu|ledhu|levu|"
                           r"kanipinchaledu|kanapadaledu|kanipinchatledu|not seen|not found|nil|absent)(?![a-z])|"
                           r"లేదు|లేవు|కనిపించలేదు|కనబడలేదు)")


def absent(text: str, start: int, end: int) -> bool:
    """Return True when the words at text[start:end] are named to say they are not there."""
    return bool(_ABSENT_BEFORE.search(text[max(0, start - 24):start]) or _ABSENT_AFTER.match(text[end:end + 30]))


_EN_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
              "october", "november", "december"]
_TE_MONTHS = ["జనవరి", "ఫిబ్రవరి", "మార్చి", "ఏప్రిల్", "మే", "జూన్", "జూలై", "ఆగస్టు", "సెప్టెంబర్",
              "అక్టోబర్", "నవంబర్", "డిసెంబర్"]
_MONTH_WORDS: dict[str, int] = {}
for _n, _name in enumerate(_EN_MONTHS, start=1):
    _MONTH_WORDS[_name] = _n
    _MONTH_WORDS[_name[:3]] = _n
    _MONTH_WORDS["sept"] = 9
for _n, _name in enumerate(_TE_MONTHS, start=1):
    _MONTH_WORDS[_name] = _n
_MONTH_RX = "|".join(sorted((re.escape(m) for m in _MONTH_WORDS), key=len, reverse=True))
_DATE_PATTERNS = [
    re.compile(r"(?<!\d)(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})(?!\d)"),
    # Day first, as India writes it: 22-6-2026, 8/7/26, 22.06.2026 (a two-digit year is this century's).
    re.compile(r"(?<![\d/.-])(?P<d>\d{1,2})(?P<sep>[/.-])(?P<m>\d{1,2})(?P=sep)(?P<y>\d{4}|\d{2})(?![\d/-]|\.\d)"),
    # No year ("17/7", "20/11 visit") only where a note starts: elsewhere "1/2" is a half.
    re.compile(r"^\s*(?P<d>\d{1,2})[/-](?P<m>\d{1,2})(?![\d/.-])(?!\s*(?:days?|weeks?|months?|acres?|ac|ml|"
               r"l|litres?|liters?|kg|g|gms?|grams?|sprays?|times|rojulu|వారాలు|రోజులు|ఎకరాలు)\b)"),
    re.compile(rf"(?<![\w])(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?:\s+|-)(?:of\s+)?(?P<mon>{_MONTH_RX})\.?(?![a-z])"
               rf"(?:(?:,?\s+|-)(?P<y>\d{{4}}|\d{{2}}(?!\d)))?", re.IGNORECASE),
    re.compile(rf"(?<![a-z])(?P<mon>{_MONTH_RX})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?!\d)"
               rf"(?:,?\s+(?P<y>\d{{4}}))?", re.IGNORECASE),
]


@dataclass(frozen=True)
class DateMention:
    """A date written in free text; `year` is None when the writer left it out."""

    start: int
    end: int
    text: str
    year: int | None
    month: int
    day: int

    def matches(self, known: set[date]) -> bool:
        """Return True when some known date is this one (any year, if the text gave none)."""
        if self.year is not None:
            return any(k == date(self.year, self.month, self.day) for k in known if _valid(self))
        return any((k.month, k.day) == (self.month, self.day) for k in known)


def _valid(mention: DateMention) -> bool:
    try:
        date(mention.year or 2000, mention.month, mention.day)
    except ValueError:
        return False
    return True


def find_dates(text: str) -> list[DateMention]:
    """Return every date written in the text, in English or Telugu month names, ISO or d/m/y."""
    source = text.translate(_TELUGU_DIGITS)
    mentions: list[DateMention] = []
    for rx in _DATE_PATTERNS:
        for m in rx.finditer(source):
            if any(m.start() < x.end and m.end() > x.start for x in mentions):
                continue
            groups = m.groupdict()
            month = int(groups["m"]) if groups.get("m") else _MONTH_WORDS[groups["mon"].lower().rstrip(".")]
            year = int(groups["y"]) if groups.get("y") else None
            year = year + 2000 if year is not None and year < 100 else year
            mentions.append(DateMention(m.start(), m.end(), text[m.start():m.end()], year, month, int(groups["d"])))
    return sorted(mentions, key=lambda x: x.start)


def parse_day(text: str, default_year: int) -> date | None:
    """Return the first full date written in text (a missing year is `default_year`), or None."""
    for mention in find_dates(text):
        try:
            return date(mention.year or default_year, mention.month, mention.day)
        except ValueError:
            continue
    return None
