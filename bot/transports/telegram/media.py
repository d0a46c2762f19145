"""What a Telegram message carries as a file, checked against the size limit and fetched through the Bot API."""

import logging
import mimetypes
from pathlib import Path

import httpx
from pydantic import BaseModel, ConfigDict
from telegram import Bot, Message

from bot.transports.media_download import MediaFetchFailed, MediaTooLarge, from_provider, stream_to_file
from bot.core.messages import Media, MediaKind
from bot.core.upload_names import inside, safe_stem, safe_suffix

log = logging.getLogger(__name__)


class MediaRef(BaseModel):
    """A file announced in a message, before it is downloaded."""

    model_config = ConfigDict(frozen=True)

    kind: MediaKind
    file_id: str
    file_unique_id: str
    size_bytes: int | None
    mime_type: str | None
    file_name: str | None
    seconds: float | None = None
    """The length Telegram states for a voice note or audio file, before anything is downloaded."""


def _kind_for_document(mime_type: str | None) -> MediaKind:
    """Images sent as files are still photos, and audio files still audio: packs branch on the kind."""
    if mime_type and mime_type.startswith("image/"):
        return "photo"
    if mime_type and mime_type.startswith("audio/"):
        return "audio"
    return "document"


def _seconds(duration: object) -> float | None:
    """A duration as the Bot API sent it (read through to_dict: the attribute warns while PTB migrates it)."""
    return float(duration) if isinstance(duration, (int, float)) else None


def media_of(message: Message) -> MediaRef | None:
    """Return the file a message carries (the largest size of a photo), or None for plain text."""
    if message.voice is not None:
        voice = message.voice
        return MediaRef(kind="voice", file_id=voice.file_id, file_unique_id=voice.file_unique_id,
                        size_bytes=voice.file_size, mime_type=voice.mime_type or "audio/ogg", file_name=None,
                        seconds=_seconds(voice.to_dict().get("duration")))
    if message.audio is not None:
        audio = message.audio
        return MediaRef(kind="audio", file_id=audio.file_id, file_unique_id=audio.file_unique_id,
                        size_bytes=audio.file_size, mime_type=audio.mime_type, file_name=audio.file_name,
                        seconds=_seconds(audio.to_dict().get("duration")))
    if message.photo:
        largest = max(message.photo, key=lambda p: (p.width * p.height, p.file_size or 0))
        return MediaRef(kind="photo", file_id=largest.file_id, file_unique_id=largest.file_unique_id,
                        size_bytes=largest.file_size, mime_type="image/jpeg", file_name=None)
    if message.document is not None:
        document = message.document
        mime = document.mime_type or (mimetypes.guess_type(document.file_name)[0] if document.file_name else None)
        return MediaRef(kind=_kind_for_document(mime), file_id=document.file_id,
                        file_unique_id=document.file_unique_id, size_bytes=document.file_size, mime_type=mime,
                        file_name=document.file_name)
    return None


def is_unsupported(message: Message) -> bool:
    """True for things the packs cannot use (video, stickers, locations...)."""
    return any(x is not None for x in (message.video, message.video_note, message.sticker, message.animation,
                                       message.location, message.contact, message.poll))


def _suffix(ref: MediaRef, remote_path: str | None) -> str:
    """A plain suffix from Telegram's file path, the sender's file name or the MIME type (never a path)."""
    return safe_suffix(remote_path, ref.file_name, mime_type=ref.mime_type,
                       default=".oga" if ref.kind == "voice" else ".bin")


async def download(bot: Bot, client: httpx.AsyncClient, ref: MediaRef, target_dir: Path, stem: str,
                   max_bytes: int) -> Media:
    """Fetch the file through the Bot API (getFile, then the file URL) into target_dir, never more than
    max_bytes: raise MediaTooLarge when getFile states more, or the download runs past it."""
    remote = await bot.get_file(ref.file_id)
    if remote.file_size is not None and remote.file_size > max_bytes:
        raise MediaTooLarge(remote.file_size)
    if not remote.file_path:
        raise MediaFetchFailed("getFile gave no file path")
    if not from_provider(remote.file_path, [bot.base_file_url]):
        log.warning("refused to fetch a Telegram file from outside the Bot API's file host")
        raise MediaFetchFailed("the file is not on the Bot API's file host")
    path = inside(target_dir, f"{safe_stem(stem)}{_suffix(ref, remote.file_path)}")
    size = await stream_to_file(client, remote.file_path, path, max_bytes)
    log.debug("downloaded a %s of %s bytes", ref.kind, size)
    return Media(kind=ref.kind, path=path, mime_type=ref.mime_type, file_name=ref.file_name, size_bytes=size)
