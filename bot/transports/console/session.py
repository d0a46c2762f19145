"""The console transport: the zero-network way to use the bot, running the same conversation core.

Type text; `/voice FILE`, `/photo FILE` or `/doc FILE` to send media; a number presses that button of the
latest message that had buttons. Ctrl-D or /quit ends the chat.
"""

import asyncio
import mimetypes
import uuid
from collections.abc import Callable
from pathlib import Path

from bot.core.conversation import Conversation
from bot.core.messages import Button, Incoming, Media, MediaKind, Reply
from bot.core.outbound import Purpose
from bot.core.registry import User

_MEDIA_COMMANDS: dict[str, MediaKind] = {"/voice": "voice", "/photo": "photo", "/doc": "document"}


def format_reply(reply: Reply) -> str:
    lines = [reply.text]
    for number, button in enumerate(reply.flat_buttons(), start=1):
        lines.append(f"  [{number}] {button.label}")
    if reply.image is not None:
        lines.append(f"  (image: {reply.image})")
    return "\n".join(lines)


class ConsoleSession:
    """Turns console lines into Incoming messages for one person and remembers the latest buttons."""

    def __init__(self, conversation: Conversation, user_id: str) -> None:
        self.conversation = conversation
        self.user_id = user_id
        self.buttons: list[Button] = []

    def to_incoming(self, line: str) -> Incoming | str:
        """Return the Incoming for a typed line, or a short console error to print."""
        delivery = uuid.uuid4().hex
        stripped = line.strip()
        if stripped.isdigit() and self.buttons:
            index = int(stripped) - 1
            if not 0 <= index < len(self.buttons):
                return f"There is no button {stripped}."
            return Incoming(transport="console", sender=self.user_id, delivery_id=delivery,
                            callback=self.buttons[index].data)
        head, _, rest = stripped.partition(" ")
        if head in _MEDIA_COMMANDS:
            path = Path(rest.strip()).expanduser()
            if not path.is_file():
                return f"No such file: {path}"
            media = Media(kind=_MEDIA_COMMANDS[head], path=path.resolve(), file_name=path.name,
                          mime_type=mimetypes.guess_type(path.name)[0], size_bytes=path.stat().st_size)
            return Incoming(transport="console", sender=self.user_id, delivery_id=delivery, media=media)
        return Incoming(transport="console", sender=self.user_id, delivery_id=delivery, text=stripped)

    async def send(self, line: str) -> list[Reply]:
        incoming = self.to_incoming(line)
        if isinstance(incoming, str):
            return [Reply(text=incoming)]
        replies = await self.conversation.handle(incoming)
        with_buttons = [r for r in replies if r.buttons]
        if with_buttons:
            self.buttons = with_buttons[-1].flat_buttons()
        return replies


class ConsoleNotifier:
    """Prints what the bot sends unprompted (follow-ups, results of retried items) into the console chat."""

    def __init__(self, session: ConsoleSession, write: Callable[[str], None] = print) -> None:
        self.session = session
        self.write = write

    async def notify(self, user: User, replies: list[Reply], purpose: Purpose) -> bool:
        if user.user_id != self.session.user_id:
            return False
        for reply in replies:
            self.write(format_reply(reply))
        with_buttons = [r for r in replies if r.buttons]
        if with_buttons:
            self.session.buttons = with_buttons[-1].flat_buttons()
        return True


async def run_console(
    session: ConsoleSession, read_line: Callable[[str], str] = input, write: Callable[[str], None] = print
) -> None:
    """Read lines until end of input, printing every reply."""
    write("Smriti console. /help for commands, /quit to leave.")
    while True:
        try:
            line = await asyncio.to_thread(read_line, "> ")
        except EOFError:
            return
        if line.strip() in ("/quit", "/exit"):
            return
        if not line.strip():
            continue
        for reply in await session.send(line):
            write(format_reply(reply))
