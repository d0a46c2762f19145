"""Downloading a file someone sent, never more than the limit: the announced size is checked before the
download and the bytes are counted while it runs, so a server that understates the size (or does not say)
is cut off at the limit. Both chat transports fetch through here."""

import logging
from pathlib import Path

import httpx

log = logging.getLogger(__name__)

CHUNK_BYTES = 64 * 1024


class MediaTooLarge(ValueError):
    def __init__(self, size: int) -> None:
        super().__init__(f"media of {size} bytes")
        self.size = size


class MediaFetchFailed(RuntimeError):
    """The file host did not give us the file."""


def origin(url: str) -> tuple[str, str, int | None] | None:
    """(scheme, host, port) of a URL, None when it is not one."""
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError, ValueError):
        return None
    return (parsed.scheme, parsed.host, parsed.port) if parsed.scheme and parsed.host else None


def from_provider(url: str, provider_roots: list[str]) -> bool:
    """Whether `url` is on one of the provider's own origins (scheme, host and port), where its credentials go.

    A signed webhook can still name any URL; the credentials (Twilio's account SID and token, the bot token in
    Telegram's file URLs) are sent only to the provider's hosts, so a URL elsewhere is refused, not fetched."""
    found = origin(url)
    return found is not None and any(found == origin(root) for root in provider_roots)


async def stream_to_file(client: httpx.AsyncClient, url: str, path: Path, max_bytes: int) -> int:
    """Download `url` into `path`; return its size. Raise MediaTooLarge (before or during) or MediaFetchFailed;
    either way nothing is left at `path`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        # Identity: a compressed body would be counted only after it was inflated.
        async with client.stream("GET", url, headers={"Accept-Encoding": "identity"}) as response:
            if response.status_code != 200:
                raise MediaFetchFailed(f"file host answered {response.status_code}")
            announced = int(response.headers.get("Content-Length") or 0)
            if announced > max_bytes:
                raise MediaTooLarge(announced)
            size = 0
            with path.open("wb") as out:
                async for chunk in response.aiter_bytes(CHUNK_BYTES):
                    size += len(chunk)
                    if size > max_bytes:
                        log.info("cut off a download at %s bytes (limit %s, announced %s)", size, max_bytes,
                                 announced or "nothing")
                        raise MediaTooLarge(size)
                    out.write(chunk)
    except (httpx.HTTPError, httpx.InvalidURL) as exc:
        path.unlink(missing_ok=True)
        raise MediaFetchFailed(type(exc).__name__) from exc
    except (MediaTooLarge, MediaFetchFailed):
        path.unlink(missing_ok=True)
        raise
    return size
