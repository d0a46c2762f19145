"""Cutting long replies into the pieces a chat allows (Telegram 4096 characters, WhatsApp 1600)."""

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
