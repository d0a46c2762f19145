"""Fetching the media of an inbound WhatsApp message from Twilio (MediaUrlN), with the account's credentials."""

import logging
import mimetypes
from pathlib import Path

import httpx
from pydantic import BaseModel, ConfigDict

from bot.transports.media_download import MediaFetchFailed, MediaTooLarge, from_provider, stream_to_file
from bot.core.messages import Media, MediaKind
from bot.core.upload_names import inside, safe_stem

log = logging.getLogger(__name__)

__all__ = ["InboundMedia", "MediaFetchFailed", "MediaFetcher", "MediaTooLarge", "kind_of"]


class InboundMedia(BaseModel):
    model_config = ConfigDict(frozen=True)

    url: str
    content_type: str


def kind_of(content_type: str) -> MediaKind | None:
    """Voice notes arrive as audio/ogg (Opus); None for what the packs cannot use (video, vCards...)."""
    base = content_type.split(";", 1)[0].strip().lower()
    if base in ("audio/ogg", "audio/opus"):
        return "voice"
    if base.startswith("audio/"):
        return "audio"
    if base.startswith("image/"):
        return "photo"
    if base in ("text/plain", "text/csv", "text/comma-separated-values") or base.startswith("application/"):
        return "document"
    return None


TWILIO_API = "https://api.twilio.com"


class MediaFetcher:
    """Downloads media with HTTP basic auth (account SID, auth token), refusing files over the size limit."""

    def __init__(self, account_sid: str, auth_token: str, max_bytes: int, target_dir: Path,
                 client: httpx.AsyncClient | None = None, base_url: str | None = None) -> None:
        self.max_bytes = max_bytes
        self.target_dir = target_dir
        # Twilio's media URLs are on its API host; a self-hosted or test Twilio (`twilio_base_url`) is its own.
        self.provider_roots = [TWILIO_API, *([base_url] if base_url else [])]
        # Twilio answers with a redirect to its storage; httpx drops the credentials on the cross-host hop.
        self.client = client or httpx.AsyncClient(auth=(account_sid, auth_token), follow_redirects=True,
                                                  timeout=httpx.Timeout(30.0, connect=10.0))

    async def aclose(self) -> None:
        await self.client.aclose()

    async def fetch(self, media: InboundMedia, stem: str) -> Media:
        """Download one file; raise MediaTooLarge (before or during the download) or MediaFetchFailed."""
        kind = kind_of(media.content_type)
        assert kind is not None
        mime = media.content_type.split(";", 1)[0].strip().lower()
        suffix = mimetypes.guess_extension(mime) or ".bin"
        if kind == "voice":
            suffix = ".ogg"
        if not from_provider(media.url, self.provider_roots):
            log.warning("refused a whatsapp media URL outside Twilio's hosts")
            raise MediaFetchFailed("the media URL is not on Twilio's host")
        path = inside(self.target_dir, f"{safe_stem(stem)}{suffix}")
        size = await stream_to_file(self.client, media.url, path, self.max_bytes)
        log.debug("fetched a whatsapp %s of %s bytes", kind, size)
        return Media(kind=kind, path=path, mime_type=mime, file_name=None, size_bytes=size)
