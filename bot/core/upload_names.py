"""Names for files people send: the bot makes them (a random id and a safe suffix); the sender's name is data.

A name a sender chose (Telegram's file_name, a console path, a suffix in a host's file path) never becomes part
of a path on this machine beyond a suffix that passes `SUFFIX`: `../../x`, `/etc/x`, NUL, 300 characters or
look-alike slashes all end up as `<32 hex digits>.bin` inside the folder the caller chose.
"""

import mimetypes
import re
import secrets
from pathlib import Path

# ASCII letters and digits only: no separator, dot-dot, NUL or look-alike character can pass.
SUFFIX = re.compile(r"\.[a-z0-9]{1,10}")
MAX_FILE_NAME = 200
"""A sender's file name is kept (as data) up to this many characters: shown, stored, never used as a path."""


def safe_suffix(*names: str | None, mime_type: str | None = None, default: str = ".bin") -> str:
    """The first name's suffix that is plain (`.pdf`, `.jpeg`), else the MIME type's usual one, else `default`."""
    for name in names:
        if not name or "\x00" in name:
            continue
        suffix = Path(name.replace("\\", "/")).suffix.lower()
        if SUFFIX.fullmatch(suffix):
            return suffix
    guessed = mimetypes.guess_extension(mime_type.split(";", 1)[0].strip()) if mime_type else None
    return guessed if guessed and SUFFIX.fullmatch(guessed) else default


def stored_name(*names: str | None, mime_type: str | None = None, default: str = ".bin") -> str:
    """A fresh, unguessable file name with a safe suffix taken from the candidates."""
    return secrets.token_hex(16) + safe_suffix(*names, mime_type=mime_type, default=default)


def safe_stem(stem: str) -> str:
    """A transport's id for a file (an update id, a message SID) as a plain stem: other characters become `-`."""
    plain = re.sub(r"[^A-Za-z0-9_-]", "-", stem)[:80].strip("-")
    return plain or secrets.token_hex(16)


def inside(folder: Path, name: str) -> Path:
    """`folder / name`, refused unless it stays directly inside `folder` (a last line of defence)."""
    target = folder / name
    if target.parent.resolve() != folder.resolve() or name in ("", ".", ".."):
        raise ValueError("a stored file name must stay inside its folder")
    return target


def bounded_file_name(value: str) -> str:
    """A sender's file name cut to MAX_FILE_NAME characters, keeping its suffix (it is shown and stored)."""
    if len(value) <= MAX_FILE_NAME:
        return value
    suffix = safe_suffix(value, default="")
    return value[:MAX_FILE_NAME - len(suffix)] + suffix
