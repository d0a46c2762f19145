"""The console transport: the zero-network way to use the bot, running the same conversation core.

Type text; `/voice FILE`, `/photo FILE` or `/doc FILE` to send media; a number presses a button of the latest
answer. The buttons of every message of an answer are numbered one after another (two cards from one note: 1-3
and 4-6), and cards of that note still open are shown again under a later answer, so each card's buttons keep
working as they do on Telegram. A button keeps its number while its card is open: pressing another card's
button, a later answer or a restart never renumbers it (a new button takes the lowest number free). The numbered
buttons are kept in the state database (as a WhatsApp number's are), and a new chat shows the person's unsaved
cards again under their numbers: a restart loses no card, edit or button. Ctrl-D or /quit ends the chat.

A note of several lines pasted at once is one message, as it is on Telegram: lines that are already waiting when
one is read (a paste reaches a terminal all together; typing never does) join it. A line ending with a backslash
goes on to the next one, for several lines typed by hand or piped in.
"""

import asyncio
import mimetypes
import select
import sys
import uuid
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, TypeAdapter, ValidationError

from bot.core.cards import open_cards_shown
from bot.core.conversation import Conversation
from bot.core.messages import Button, Incoming, Media, MediaKind, Reply
from bot.core.outbound import Purpose
from bot.core.registry import User

_MEDIA_COMMANDS: dict[str, MediaKind] = {"/voice": "voice", "/photo": "photo", "/doc": "document"}
_BUTTONS = TypeAdapter(list[Button])
_GAP = Button(label="", data="")
"""A number no button holds now (its card was saved): pressing it says there is no such button."""


class Numbered(BaseModel):
    """A button as the console numbers it, with the card it belongs to: it keeps its number while that card is
    open."""

    number: int
    button: Button
    card_id: str | None = None
    latest: bool = True
    """Shown in the latest answer: a button of no open card (Save all, Yes/No) lives until the next answer."""


_NUMBERED = TypeAdapter(list[Numbered])


def console_key(user_id: str) -> str:
    """The conversation row holding a console chat's latest numbered buttons."""
    return f"console:{user_id}"


def _loaded(kept: str | None) -> list[Numbered]:
    if not kept:
        return []
    try:
        return _NUMBERED.validate_json(kept)
    except ValidationError:  # kept by an older console: the latest answer's buttons, numbered from 1
        try:
            return [Numbered(number=n, button=b) for n, b in enumerate(_BUTTONS.validate_json(kept), start=1)]
        except ValidationError:
            return []


def format_reply(reply: Reply, start: int = 1, numbers: list[int] | None = None) -> str:
    """The reply as printed, its buttons numbered from `start` (or with the numbers given)."""
    lines = [reply.text]
    buttons = reply.flat_buttons()
    for number, button in zip(numbers or range(start, start + len(buttons)), buttons, strict=False):
        lines.append(f"  [{number}] {button.label}")
    if reply.image is not None:
        lines.append(f"  (image: {reply.image})")
    if reply.document is not None:
        lines.append(f"  (file: {reply.document})")
    return "\n".join(lines)


class ConsoleSession:
    """Turns console lines into Incoming messages for one person and remembers the latest buttons."""

    def __init__(self, conversation: Conversation, user_id: str) -> None:
        self.conversation = conversation
        self.user_id = user_id
        self._numbered = _loaded(conversation.services.state.pref(console_key(user_id), "buttons"))
        self.last: list[Reply] = []
        """The latest answer, as numbered."""
        self._open: dict[str, Reply] = {}
        """The open cards of the latest answer that opened several, as last shown."""

    @property
    def buttons(self) -> list[Button]:
        """The buttons by number (button n at index n - 1; a number no button holds is a gap)."""
        by_number = {e.number: e.button for e in self._numbered}
        return [by_number.get(n, _GAP) for n in range(1, max(by_number, default=0) + 1)]

    @buttons.setter
    def buttons(self, buttons: list[Button]) -> None:
        self._keep([Numbered(number=n, button=b) for n, b in enumerate(buttons, start=1)])

    def _keep(self, numbered: list[Numbered]) -> None:
        self._numbered = sorted(numbered, key=lambda e: e.number)
        self.conversation.services.state.set_pref(console_key(self.user_id), "buttons",
                                                  _NUMBERED.dump_json(self._numbered).decode())

    def number(self, replies: list[Reply], keep_latest: bool = False) -> None:
        """Number the buttons of an answer: a button already numbered keeps its number while its card is open
        (a card pressed, a later answer or a restart never renumbers another card), a new one takes the lowest
        number free; buttons of no open card from earlier answers go (with `keep_latest`, those of the latest
        answer stay: a restart shows no new answer)."""
        if not any(r.buttons for r in replies):
            return
        open_ids = {c.card_id for c in self.conversation.services.state.open_cards(self.user_id)}

        def alive(entry: Numbered) -> bool:
            if entry.card_id is not None:
                return entry.card_id in open_ids
            return any(card_id in entry.button.data for card_id in open_ids) or (keep_latest and entry.latest)

        kept = {e.button.data: e.model_copy(update={"latest": keep_latest and e.latest})
                for e in self._numbered if alive(e)}
        taken = {e.number for e in kept.values()}
        for reply in replies:
            card_id = reply.card_id if reply.card_id in open_ids else None
            for button in reply.flat_buttons():
                old = kept.get(button.data)
                if old is not None:
                    kept[button.data] = old.model_copy(update={"button": button, "card_id": card_id or old.card_id,
                                                               "latest": True})
                    continue
                number = next(n for n in range(1, len(taken) + 2) if n not in taken)
                taken.add(number)
                kept[button.data] = Numbered(number=number, button=button, card_id=card_id)
        self._keep(list(kept.values()))

    def resume(self) -> list[Reply]:
        """What a new chat shows first: the person's unsaved cards with their buttons (under the numbers they
        had) and the field an edit waits for; nothing when there are none (the kept buttons still work)."""
        conversation = self.conversation
        user = conversation.services.registry.by_id(self.user_id)
        if user is None:
            return []
        shown = open_cards_shown(conversation.services, conversation.packs, user, conversation.language_of(user))
        self.number(shown, keep_latest=True)
        self.last = shown
        return shown

    def _keep_open_cards(self, replies: list[Reply]) -> list[Reply]:
        """Track the cards of a note that gave several; under a later answer, show again those still open."""
        opened = [r for r in replies if r.card_id and not r.replaces_card and _can_save(r)]
        if len(opened) > 1:
            self._open = {r.card_id: r for r in opened if r.card_id}
            return replies
        for reply in replies:
            if reply.card_id in self._open:
                if _can_save(reply):
                    self._open[reply.card_id] = reply
                else:
                    del self._open[reply.card_id]
        shown = {r.card_id for r in replies}
        waiting = [r for card_id, r in self._open.items() if card_id not in shown]
        if not waiting or not any(r.buttons for r in replies):
            return replies
        return replies + [Reply(text=f"(still open) {r.text}", buttons=r.buttons, card_id=r.card_id)
                          for r in waiting]

    def to_incoming(self, line: str) -> Incoming | str:
        """Return the Incoming for a typed line, or a short console error to print."""
        delivery = uuid.uuid4().hex
        stripped = line.strip()
        if stripped.isdigit() and self._numbered:
            pressed = next((e.button for e in self._numbered if e.number == int(stripped)), None)
            if pressed is None or not pressed.data:
                return f"There is no button {stripped}."
            return Incoming(transport="console", sender=self.user_id, delivery_id=delivery, callback=pressed.data)
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
        replies = self._keep_open_cards(await self.conversation.handle(incoming))
        self.number(replies)
        self.last = replies
        return replies

    def printed(self, replies: list[Reply]) -> list[str]:
        """The replies as printed, each button under the number it was given."""
        numbers = {e.button.data: e.number for e in self._numbered}
        out, start = [], 1
        for reply in replies:
            buttons = reply.flat_buttons()
            given = [numbers.get(b.data) for b in buttons]
            out.append(format_reply(reply, start, [n for n in given if n is not None]
                                    if all(n is not None for n in given) else None))
            start += len(buttons)
        return out


def _can_save(reply: Reply) -> bool:
    return any(b.data.startswith("c:s:") for b in reply.flat_buttons())


class ConsoleNotifier:
    """Prints what the bot sends unprompted (follow-ups, results of retried items) into the console chat."""

    def __init__(self, session: ConsoleSession, write: Callable[[str], None] = print) -> None:
        self.session = session
        self.write = write

    async def notify(self, user: User, replies: list[Reply], purpose: Purpose) -> bool:
        if user.user_id != self.session.user_id:
            return False
        self.session.number(replies)
        for printed in self.session.printed(replies):
            self.write(printed)
        return True


PASTE_GAP = 0.05
"""Seconds to wait for a pasted note's next line: a paste's lines are all there at once, a person types slower."""
CONTINUE = "\\"


def terminal_has_more(timeout: float) -> bool:
    """Whether more input is already waiting on the terminal (the next line of a paste). A pipe says no: each of
    its lines is a message of its own, as a script sends them."""
    try:
        if not sys.stdin.isatty():
            return False
        ready, _, _ = select.select([sys.stdin], [], [], timeout)
    except (OSError, ValueError):
        return False
    return bool(ready)


async def read_message(read_line: Callable[[str], str], more_waiting: Callable[[float], bool]) -> str:
    """One message: a line, the lines pasted with it, and the lines a trailing backslash continues it with.
    Raises EOFError at the end of input before any line."""
    lines = [await asyncio.to_thread(read_line, "> ")]
    while True:
        continued = lines[-1].endswith(CONTINUE)
        if continued:
            lines[-1] = lines[-1][:-len(CONTINUE)]
        elif not await asyncio.to_thread(more_waiting, PASTE_GAP):
            break
        try:
            lines.append(await asyncio.to_thread(read_line, "… " if continued else ""))
        except EOFError:
            break
    return "\n".join(lines).strip("\n")


async def run_console(
    session: ConsoleSession, read_line: Callable[[str], str] = input, write: Callable[[str], None] = print,
    more_waiting: Callable[[float], bool] = terminal_has_more,
) -> None:
    """Read messages until end of input, printing every reply."""
    write("Smriti console. /help for commands, /quit to leave. A note pasted in several lines is sent as one "
          "message; end a line with \\ to go on typing the same message on the next line.")
    for printed in session.printed(session.resume()):
        write(printed)
    while True:
        try:
            message = await read_message(read_line, more_waiting)
        except EOFError:
            return
        if message.strip() in ("/quit", "/exit"):
            return
        if not message.strip():
            continue
        for printed in session.printed(await session.send(message)):
            write(printed)
