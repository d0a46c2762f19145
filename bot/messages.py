"""Transport-neutral messages: what every adapter (console, Telegram, WhatsApp) turns its traffic into."""

from datetime import datetime, timezone
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Transport = Literal["console", "telegram", "whatsapp", "cli"]
MediaKind = Literal["voice", "audio", "photo", "document"]


class Media(BaseModel):
    """A file the user sent, already downloaded to local disk by the transport."""

    model_config = ConfigDict(frozen=True)

    kind: MediaKind
    path: Path
    mime_type: str | None = None
    file_name: str | None = None
    size_bytes: int = 0


class Incoming(BaseModel):
    """One thing a user did: a text, a media upload, or a button press."""

    model_config = ConfigDict(frozen=True)

    transport: Transport
    sender: str
    """The transport's own id for the person (Telegram user id, WhatsApp number, console user name)."""
    delivery_id: str
    """The transport's id for this delivery (update_id, MessageSid): the same id twice is one message."""
    text: str | None = None
    media: Media | None = None
    callback: str | None = None
    """The data of a pressed button."""
    received_at: datetime = Field(default_factory=lambda: datetime.now(timezone.utc))


class Button(BaseModel):
    model_config = ConfigDict(frozen=True)

    label: str
    data: str = Field(max_length=64)
    """Callback data; Telegram allows at most 64 bytes."""


class Reply(BaseModel):
    """One message back to the user; `card_id` marks a card a later reply may replace in place."""

    model_config = ConfigDict(frozen=True)

    text: str
    buttons: list[list[Button]] = Field(default_factory=list)
    image: Path | None = None
    card_id: str | None = None
    replaces_card: bool = False
    """True when this reply is the new state of an earlier card (edit it in place where the chat can)."""

    def flat_buttons(self) -> list[Button]:
        return [b for row in self.buttons for b in row]
