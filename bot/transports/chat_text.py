"""Text helpers both chat transports share: cutting long replies to the chat's limit (Telegram 4096 characters,
WhatsApp 1600) and the size-limit refusal."""

from bot.services.i18n import text
from bot.core.messages import Reply

TELEGRAM_TEXT_LIMIT = 4096
TELEGRAM_CAPTION_LIMIT = 1024


def split_text(body: str, limit: int) -> list[str]:
    """Split text into pieces of at most `limit` characters, preferring paragraph, line, then word breaks."""
    if limit < 1:
        raise ValueError("limit must be positive")
    pieces: list[str] = []
    rest = body
    while len(rest) > limit:
        window = rest[:limit]
        cut = -1
        for separator in ("\n\n", "\n", " "):
            found = window.rfind(separator)
            # A break in the first quarter would leave a tiny piece; a hard cut reads better then.
            if found > limit // 4:
                cut = found
                break
        if cut == -1:
            pieces.append(window)
            rest = rest[limit:]
            continue
        pieces.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest or not pieces:
        pieces.append(rest)
    return pieces


def too_large(lang: str, size: int, limit: int) -> Reply:
    """The refusal for a file over the limit, sizes in MB as phones show them."""
    mib = 1024 * 1024
    return Reply(text=text(lang, "transport.too_large", size_mb=f"{size / mib:.1f}", limit_mb=f"{limit / mib:.0f}"))


def split_command(body: str) -> tuple[str, str] | None:
    """Return (command, arguments) for `/cmd args` (also `/cmd@botname`), or None for plain text."""
    if not body.startswith("/"):
        return None
    head, _, rest = body.partition(" ")
    return head[1:].split("@", 1)[0].lower(), rest.strip()
