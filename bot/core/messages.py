"""Transport-neutral messages: what every adapter (console, Telegram, WhatsApp) turns its traffic into.

Every text that comes in or goes out passes `clean_text` when the message is built, so control characters
never reach the intake store, the memory, a log line or a chat.
"""

import re
import unicodedata
from datetime import datetime, timezone
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from bot.core.upload_names import bounded_file_name
from bot.services.cells import without_controls

Transport = Literal["console", "telegram", "whatsapp", "cli"]
MediaKind = Literal["voice", "audio", "photo", "document"]

_LINE_BREAKS = re.compile(r"\r\n?|[\x0b\x0c\x85\u2028\u2029]")


def clean_text(value: str) -> str:
    """Remove control characters other than newline and tab (terminal escapes, BEL, NUL, bidi overrides that
    disguise text, unpaired surrogates), turn every kind of line break into a newline, and normalise to NFC.
    Zero-width joiners stay: Telugu needs them."""
    return unicodedata.normalize("NFC", without_controls(_LINE_BREAKS.sub("\n", value)))


CleanText = Annotated[str, AfterValidator(clean_text)]
FileName = Annotated[str, AfterValidator(clean_text), AfterValidator(bounded_file_name)]
"""A sender's file name: data to show and store, never a path (bot.core.upload_names makes the stored names)."""


class Media(BaseModel):
    """A file the user sent, already downloaded to local disk by the transport."""

    model_config = ConfigDict(frozen=True)

    kind: MediaKind
    path: Path
    mime_type: str | None = None
    file_name: FileName | None = None
    size_bytes: int = 0


class Incoming(BaseModel):
    """One thing a user did: a text, a media upload, or a button press."""

    model_config = ConfigDict(frozen=True)

    transport: Transport
    sender: str
    """The transport's own id for the person (Telegram user id, WhatsApp number, console user name)."""
    delivery_id: str
    """The transport's id for this delivery (update_id, MessageSid): the same id twice is one message."""
    text: CleanText | None = None
    media: Media | None = None
    callback: CleanText | None = None
    """The data of a pressed button."""
    received_at: datetime = Field(default_factory=lambda: datetime.now(timezone.utc))


class Button(BaseModel):
    model_config = ConfigDict(frozen=True)

    label: CleanText
    data: str = Field(max_length=64)
    """Callback data; Telegram allows at most 64 bytes."""


class Reply(BaseModel):
    """One message back to the user; `card_id` marks a card a later reply may replace in place."""

    model_config = ConfigDict(frozen=True)

    text: CleanText
    buttons: list[list[Button]] = Field(default_factory=list)
    image: Path | None = None
    document: Path | None = None
    """A file to send with the text as its caption (an export): a document, not a photo."""
    card_id: str | None = None
    replaces_card: bool = False
    """True when this reply is the new state of an earlier card (edit it in place where the chat can)."""
    secret: bool = False
    """True when the text carries a live secret (an invite code): sent at once and never written to the reply
    outbox, so it is not at rest in plain text; if that send is lost, the person asks again."""
    lists_many: bool = False
    """True when the text lists many subjects line by line (a register, a cause list): one subject's export
    keeps only the lines naming it, never the other subjects' lines."""

    def flat_buttons(self) -> list[Button]:
        return [b for row in self.buttons for b in row]
