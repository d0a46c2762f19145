"""A pending card's buttons keep their numbers in the console: pressing another card's button, a later answer or
a restart of the console never renumbers them, so "1" or "5" after a restart presses the button it pressed before
(walk5al 34: after a restart the open cards were re-listed under new numbers, and after one press the others'
numbers answered "There is no button 4")."""

import pytest

from bot.core.app import App
from bot.transports.console.session import ConsoleSession
from memory import tags
from tests.legal.helpers import fresh_practice

pytestmark = pytest.mark.hindsight

TENANT = "demo"
_NOTE = ("Today: Pendyala suit - PW2 chief over, N.D. 15/12; Durga cheque case - complainant cross, N.D. 18/12; "
         "Mothe appeal - arguments heard in part, N.D. 21/12")


def _numbers(session: ConsoleSession, replies: list) -> dict[str, dict[str, int]]:
    """Each card's buttons by label, under the numbers printed."""
    shown: dict[str, dict[str, int]] = {}
    for reply, printed in zip(replies, session.printed(replies), strict=True):
        if reply.card_id:
            shown[reply.card_id] = {line.split("] ", 1)[1]: int(line.split("[", 1)[1].split("]")[0])
                                    for line in printed.splitlines() if line.startswith("  [")}
    return shown


async def _saved(app: App, case_id: str) -> int:
    bank = app.services.bank_of(TENANT, "legal")
    return len(await app.services.memory.list_documents(bank, tags=[tags.case(case_id)]))


async def test_a_pending_cards_buttons_keep_their_numbers_across_presses_and_restarts(app: App) -> None:
    await fresh_practice(app, TENANT)
    session = ConsoleSession(app.conversation, "aditya")
    first = _numbers(session, await session.send(_NOTE))
    assert len(first) == 3
    restarted = ConsoleSession(app.conversation, "aditya")
    assert _numbers(restarted, restarted.resume()) == first  # the same cards under the same numbers
    cards = list(first)
    await restarted.send(str(first[cards[1]]["Save"]))  # the second card's Save, by its first number
    assert [await _saved(app, c) for c in ("cc-77-2025", "os-231-2024", "as-112-2023")].count(1) == 1
    again = ConsoleSession(app.conversation, "aditya")
    resumed = _numbers(again, again.resume())
    assert resumed == {c: first[c] for c in (cards[0], cards[2])}  # the others kept theirs
    await again.send(str(first[cards[2]]["Save"]))
    await again.send(str(first[cards[0]]["Save"]))
    assert [await _saved(app, c) for c in ("cc-77-2025", "os-231-2024", "as-112-2023")] == [1, 1, 1]
