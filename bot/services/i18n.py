"""Every user-facing string comes from a message catalogue, in English and Telugu.

Catalogues are JSON files at bot/services/locales/<lang>/<namespace>.json; a key is `<namespace>.<name>`.
A missing key or placeholder is a bug: `text()` raises instead of showing a half-made message.

A count takes its noun by number: `{count:entry|entries}` gives "1 entry" and "3 entries", never "entr(y/ies)".
"""

import json
import string
from datetime import date
from functools import lru_cache
from pathlib import Path

LOCALES_DIR = Path(__file__).resolve().parent / "locales"
LANGUAGES = ("en", "te")

_TELUGU_MONTHS = (
    "జనవరి", "ఫిబ్రవరి", "మార్చి", "ఏప్రిల్", "మే", "జూన్",
    "జూలై", "ఆగస్టు", "సెప్టెంబర్", "అక్టోబర్", "నవంబర్", "డిసెంబర్",
)


@lru_cache(maxsize=None)
def catalogue(lang: str) -> dict[str, str]:
    """Return every message of a language, keyed `<namespace>.<name>`."""
    if lang not in LANGUAGES:
        raise KeyError(f"no catalogue for language {lang!r}")
    messages: dict[str, str] = {}
    for path in sorted((LOCALES_DIR / lang).glob("*.json")):
        for name, value in json.loads(path.read_text(encoding="utf-8")).items():
            messages[f"{path.stem}.{name}"] = value
    return messages


class _Count(int):
    """A whole number in a message: a format spec `one|many` writes it with its noun in the right number."""

    def __format__(self, spec: str) -> str:
        if "|" not in spec:
            return int.__format__(int(self), spec)
        one, many = spec.split("|", 1)
        return f"{int(self)} {one if self == 1 else many}"


def counted(count: int, one: str, many: str) -> str:
    """A count with its noun in the right number, for plain-English lines outside the catalogue (CLI output)."""
    return format(_Count(count), f"{one}|{many}")


def in_number(count: int, phrase: str) -> str:
    """An English noun phrase in the number a count asks ("pending follow-up" -> "pending follow-ups", "sent reply
    (its lines only)" -> "sent replies (its lines only)"); a phrase that does not end in a singular noun (already
    plural, or a participle such as "waiting to be stored") is left as it is."""
    head, bracket, rest = phrase.partition(" (")
    words = head.split(" ")
    last = words[-1]
    if count == 1 or not last.replace("-", "").isascii() or not last.replace("-", "").isalpha() \
            or last.endswith(("s", "ed")):
        return phrase
    if last.endswith("y") and last[-2:-1] not in ("a", "e", "i", "o", "u"):
        words[-1] = last[:-1] + "ies"
    elif last.endswith(("x", "z", "ch", "sh")):
        words[-1] = last + "es"
    else:
        words[-1] = last + "s"
    return " ".join(words) + bracket + rest


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def text(lang: str, key: str, **values: object) -> str:
    """Return the message `key` in `lang` with its placeholders filled; raise on anything missing."""
    template = catalogue(lang)[key]
    missing = placeholders(template) - values.keys()
    if missing:
        raise KeyError(f"message {key!r} needs {sorted(missing)}")
    return template.format(**{k: _Count(v) if type(v) is int else v for k, v in values.items()})


def show_date(lang: str, day: date) -> str:
    """Return a date the way the user reads it: 8 Apr 2026, or 8 ఏప్రిల్ 2026."""
    if lang == "te":
        return f"{day.day} {_TELUGU_MONTHS[day.month - 1]} {day.year}"
    return f"{day.day} {day:%b %Y}"
