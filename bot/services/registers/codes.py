"""Codes as an organisation writes them (`KV-INS-01`, `GF/0012`, `HX-OS-311-2024`, a name in Telugu script).

A code is any printable text of reasonable length: kept as written for display and export, folded (case,
spaces and separators ignored) for matching. `RegisterIndex` finds a register row by its code as written or
by a name, the one lookup the packs' readers and CLIs share. A code that cannot be accepted is refused in
words a clerk reads, never with a pattern.
"""

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from typing import Annotated, Generic, TypeVar

from pydantic import AfterValidator

MAX_CODE = 60
"""Longer than any code an office writes by hand; anything longer is a pasted paragraph."""

T = TypeVar("T")


def _kept(char: str) -> bool:
    # Letters, digits and the vowel signs of Indic scripts (category M) carry meaning; the rest separates.
    return unicodedata.category(char)[0] in "LNM"


def fold_code(written: str) -> str:
    """A code or name for matching: "KV-INS-01", "kv ins 01" and "KV/INS/01" all fold to "kvins01"."""
    text = unicodedata.normalize("NFKC", written).casefold().replace("\u200c", "").replace("\u200d", "")
    return "".join(c for c in text if _kept(c))


def code_key(written: str) -> str:
    """A register's natural key for a code: two ways of writing one code ("KV-INS-01", "kv ins 01") are one
    record; "P001" stays "P001"."""
    return fold_code(written).upper()


def fold_name(written: str) -> str:
    """A name for matching: case and punctuation folded, words kept apart ("Bhaskar  Naik." -> "bhaskar naik")."""
    text = unicodedata.normalize("NFKC", written).casefold().replace("\u200c", "").replace("\u200d", "")
    return " ".join("".join(c if _kept(c) else " " for c in text).split())


def code_problem(written: str, what: str = "code") -> str | None:
    """Why a code cannot be kept, in plain words, or None when it can."""
    text = written.strip()
    if not text:
        return f"the {what} is empty"
    if len(text) > MAX_CODE:
        return f"the {what} {text[:20]}... is longer than {MAX_CODE} characters"
    if any(unicodedata.category(c) in ("Cc", "Cf", "Co", "Cn") and c not in "\u200c\u200d" for c in text):
        return f"the {what} {text!r} has a character that cannot be printed"
    if not fold_code(text):
        return f"the {what} {text!r} has no letter or digit"
    return None


def as_written(written: str, what: str = "code") -> str:
    """The code as written (outer spaces trimmed, inner runs of spaces made one); ValueError when refused."""
    problem = code_problem(written, what)
    if problem is not None:
        raise ValueError(problem)
    return " ".join(written.split())


Code = Annotated[str, AfterValidator(as_written)]
"""A register code in a pydantic model: any printable text of reasonable length, kept as written."""


def internal_key(value: str, what: str, capitals: bool = False) -> str:
    """Check a key a pack derives from a code (never typed by a person): letters, digits and hyphens."""
    if not re.fullmatch(r"[A-Z0-9][A-Z0-9-]*" if capitals else r"[a-z0-9][a-z0-9-]*", value):
        letters = "capital letters" if capitals else "small letters"
        raise ValueError(f"the {what} key {value!r} may hold only {letters}, digits and hyphens")
    return value


def safe_key(written: str) -> str:
    """An internal key made from a code, for ids built from it (letters, digits and hyphens only):
    "GF/0012" -> "GF-0012"; a code with letters outside Latin (ఆర్-12) gets a digest so it stays unique."""
    import hashlib

    ascii_part = re.sub(r"[^A-Za-z0-9]+", "-", written).strip("-")
    if ascii_part and written.isascii():
        return ascii_part
    digest = hashlib.sha1(written.encode("utf-8")).hexdigest()[:8]
    return f"{ascii_part}-{digest}" if ascii_part else f"x{digest}"


class RegisterIndex(Generic[T]):
    """Find a register row by its code as written (folded) or, failing that, by one of its names."""

    def __init__(self, rows: Mapping[str, T], names: Callable[[T], Iterable[str]] = lambda _row: ()) -> None:
        self._rows = rows
        self._by_code: dict[str, str] = {}
        self._by_name: dict[str, set[str]] = {}
        for key, row in rows.items():
            self._by_code.setdefault(fold_code(key), key)
            for name in names(row):
                if name and fold_name(name):
                    self._by_name.setdefault(fold_name(name), set()).add(key)

    def key(self, written: str) -> str | None:
        """The row's key for a code or a name as a person wrote it; None when none or several fit."""
        if written in self._rows:
            return written
        by_code = self._by_code.get(fold_code(written))
        if by_code is not None:
            return by_code
        named = self._by_name.get(fold_name(written), set())
        if len(named) == 1:
            return next(iter(named))
        # A name written without its spaces ("bengalgram") still names one row.
        squeezed = {k for name, keys in self._by_name.items() if fold_code(name) == fold_code(written) for k in keys}
        return next(iter(squeezed)) if len(squeezed) == 1 else None

    def find(self, written: str) -> T | None:
        found = self.key(written)
        return self._rows[found] if found is not None else None
