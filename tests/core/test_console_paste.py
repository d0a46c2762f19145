"""The console reads a note pasted in several lines as one message (its lines arrive together), a line ending
with a backslash as going on to the next, and every line typed or piped alone as a message of its own: single
commands and button numbers are unchanged (walk: a pasted note of several lines became one card per line)."""

import re
from collections.abc import Callable, Iterator

import pytest

from bot.core.app import App
from bot.transports.console.session import ConsoleSession, read_message, run_console


def _feed(lines: list[tuple[str, bool]]) -> tuple[Callable[[str], str], Callable[[float], bool]]:
    """A terminal giving these lines; each says whether the next one is already waiting (pasted with it)."""
    queue: Iterator[tuple[str, bool]] = iter(lines)
    waiting = [False]

    def read_line(prompt: str) -> str:
        try:
            line, waiting[0] = next(queue)
        except StopIteration:
            raise EOFError from None
        return line

    return read_line, lambda timeout: waiting[0]


async def test_lines_pasted_together_are_one_message_and_typed_ones_are_not() -> None:
    read_line, more = _feed([("12/11 Gorle partition", True), ("PW2 cross-examined at length.", True),
                             ("N.D. 2/12 for arguments", False), ("/today", False), ("1", False)])
    assert await read_message(read_line, more) == \
        "12/11 Gorle partition\nPW2 cross-examined at length.\nN.D. 2/12 for arguments"
    assert await read_message(read_line, more) == "/today"
    assert await read_message(read_line, more) == "1"
    with pytest.raises(EOFError):
        await read_message(read_line, more)


async def test_a_trailing_backslash_goes_on_to_the_next_line() -> None:
    read_line, more = _feed([("Seabreeze: counter filed \\", False), ("reply due by 10/12", False), ("/cases", False)])
    assert await read_message(read_line, more) == "Seabreeze: counter filed \nreply due by 10/12"
    assert await read_message(read_line, more) == "/cases"


@pytest.mark.hindsight
async def test_a_pasted_note_gives_one_card_in_the_console(app: App) -> None:
    read_line, more = _feed([("24/11 Gorle partition - arguments heard in part.", True),
                             ("Counsel for defendants sought time.", True), ("N.D. 2/12/2026", False),
                             ("/quit", False)])
    written: list[str] = []
    await run_console(ConsoleSession(app.conversation, "aditya"), read_line, written.append, more)
    cards = [w for w in written if re.search(r"\[\d+\] Save\b", w)]
    assert len(cards) == 1 and "sought time" in cards[0] and "2 Dec 2026" in cards[0], written
