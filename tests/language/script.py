"""What "every bot string in Telugu" means as a check: no English catalogue message anywhere, and nothing left
but Telugu script once the names, ids, numbers and dates the issue lets stay as they are have been taken out."""

import re
import string
from datetime import date
from functools import lru_cache

from bot.services.i18n import catalogue, show_date
from handlers.agri.register import FieldBook

TELUGU = re.compile("[\u0c00-\u0c7f]")
LATIN = re.compile("[A-Za-z]")
_ENGLISH_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_TELUGU_MONTHS = tuple(show_date("te", date(2026, m, 1)).split(" ", 1)[1].rsplit(" ", 1)[0] for m in range(1, 13))
TELUGU_DATE = re.compile(rf"\d{{1,2}} (?:{'|'.join(_TELUGU_MONTHS)}) \d{{4}}")
ISO_DATE = re.compile(r"(?<![\w-])\d{4}-\d{2}-\d{2}(?![\w-])")
ENGLISH_DATE = re.compile(rf"\b\d{{1,2}} (?:{'|'.join(_ENGLISH_MONTHS)})[a-z]* \d{{4}}\b")
_IDS = re.compile(r"\b[FPVO]\d{2,3}\b")
RAW_ID = re.compile(r"\b(?:visit|outcome):[A-Za-z0-9-]+")
"""A memory's document id: never shown to a person (a visit is cited by its date and the farmer's name)."""
# Unit symbols of catalogue quantities (500 g, 40 ml, 1 L) and the rupee sign are symbols, not English.
_QUANTITY = re.compile(r"\d[\d,.]*\s*(?:%|g|ml|kg|L|ppm)?(?![A-Za-z])|₹")
# What a user types stays as typed: "/brief F001 [off]", "/lang te".
_COMMANDS = re.compile(r"(?<![\w/])/[a-z]+(?:@\w+)?(?: (?:te|en)\b)?|\[off\]")
MASK = "§"


@lru_cache(maxsize=1)
def english_messages() -> dict[str, re.Pattern[str]]:
    """Return a regex per English catalogue message, its placeholders as wildcards; skip ones with no words."""
    found: dict[str, re.Pattern[str]] = {}
    for key, value in catalogue("en").items():
        literals = [literal for literal, _, _, _ in string.Formatter().parse(value)]
        if not re.search(r"[A-Za-z]{2,}", "".join(literals)):
            continue  # only placeholders and symbols ("{crop} {issue}{extent}. {actions}")
        parts = [re.escape(literal) for literal in literals]
        body = ".*?".join(p for p in parts if p)
        head = r"\b" if re.match(r"\w", value) else ""
        tail = r"\b" if re.search(r"\w$", value) else ""
        found[key] = re.compile(f"{head}{body}{tail}", re.IGNORECASE | re.DOTALL)
    return found


def names(book: FieldBook) -> list[str]:
    """The words the issue lets stay as they are: product, farmer and village names (both scripts)."""
    words = [p.name for p in book.products.values()]
    words += [f.name for f in book.farmers.values()] + [f.name_te for f in book.farmers.values()]
    words += [v.name for v in book.villages.values()] + [v.name_te for v in book.villages.values()]
    return sorted(set(words), key=len, reverse=True)


def mask(text: str, book: FieldBook, own_words: list[str], commands: bool = True) -> str:
    """Replace names, the user's own words (a transcript echoed back) and, unless told not to, typed commands
    with a mark."""
    for word in sorted(own_words, key=len, reverse=True) + names(book):
        text = re.sub(rf"(?<![A-Za-z]){re.escape(word)}(?![A-Za-z])", MASK, text, flags=re.IGNORECASE)
    return _COMMANDS.sub(MASK, text) if commands else text


def english_leaks(text: str, book: FieldBook, own_words: list[str]) -> list[str]:
    masked = mask(text, book, own_words, commands=False)
    return [key for key, rx in english_messages().items() if rx.search(masked)]


def residue(text: str, book: FieldBook, own_words: list[str]) -> str:
    """Return what is left of a text after names, ids, dates, numbers and symbols are taken out."""
    left = TELUGU_DATE.sub(" ", mask(text, book, own_words))
    left = _QUANTITY.sub(" ", _IDS.sub(" ", left))
    return " ".join(w for w in re.split(r"[^\w\u0c00-\u0c7f]+", left) if w)


def not_telugu(texts: list[str], book: FieldBook, own_words: list[str]) -> dict[str, list[str]]:
    """Return each text that breaks the rule, with why: English messages, non-Telugu words, or dates in another form."""
    problems: dict[str, list[str]] = {}
    for text in texts:
        why = [f"raw record id: {found}" for found in RAW_ID.findall(text)]
        why += [f"english message {k}" for k in english_leaks(RAW_ID.sub(" ", text), book, own_words)]
        left = residue(RAW_ID.sub(" ", text), book, own_words)
        why += [f"not Telugu: {w}" for w in left.split() if LATIN.search(w) or not TELUGU.search(w)]
        if not TELUGU.search(left):
            why.append("no Telugu at all")
        bare = _IDS.sub(" ", RAW_ID.sub(" ", mask(text, book, own_words)))
        why += [f"date not in Telugu form: {d}" for d in ISO_DATE.findall(bare) + ENGLISH_DATE.findall(bare)]
        if why:
            problems[text] = why
    return problems


def is_english(text: str, book: FieldBook, own_words: list[str]) -> bool:
    """True when a text has an English catalogue message and no Telugu outside names and the user's words."""
    masked = mask(text, book, own_words)
    return bool(english_leaks(text, book, own_words)) and not TELUGU.search(masked)
