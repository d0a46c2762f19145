"""Cells written for a spreadsheet program: never a formula, whatever a name or a note begins with.

A clerk opens an export in Excel or LibreOffice; a cell beginning `=`, `+`, `-`, `@`, a tab or a carriage return
is run as a formula there (`=HYPERLINK(...)` opens a link on a click). Per OWASP's CSV injection guidance such a
cell gets a leading `'`; a plain number (`-12.5`) is left as it is, since it cannot be a formula. An import
takes the `'` away again, so an export imports back to what it was.
"""

import re

TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
"""Control characters other than newline and tab: terminal escapes, NUL, bidi overrides that disguise a name
("Ramu\u202egnp.exe" shows as "Ramuexe.png"), unpaired surrogates. Zero-width joiners are not here: Telugu
needs them."""


def without_controls(value: str) -> str:
    """The text without CONTROLS. A spreadsheet refuses them in a cell (openpyxl raises), a page shows them lying."""
    return CONTROLS.sub("", value)


def neutralised(value: str) -> str:
    """The cell's text, with `'` in front when a spreadsheet would read it as a formula (and no control
    characters, which no spreadsheet cell may hold)."""
    value = without_controls(value)
    if value.startswith(TRIGGERS) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def restored(value: str) -> str:
    """An imported cell without the `'` an export put in front of it."""
    if value.startswith("'") and value[1:].startswith(TRIGGERS) and not _NUMBER.fullmatch(value[1:]):
        return value[1:]
    return value
