"""Forgetting a case erases what is about it and nothing about another case: a kept reply that named two cases
(a register list, a cause list, an answer comparing two matters) stays for the other case with the forgotten
case's lines taken out; a reply only about the forgotten case goes. Replies written for this test."""

from datetime import timedelta

import pytest

from bot.cli.subjects import forget
from bot.core.app import App
from bot.core.messages import Reply
from bot.store.reply_outbox import OutgoingReply, outgoing
from memory.subjects import Subject
from tests.legal.helpers import fresh_practice, say

pytestmark = pytest.mark.hindsight

TENANT = "demo"
DURGA = Subject(tenant=TENANT, kind="case", subject_id="cc-77-2025")
TWO_MATTERS = ("Listed on 14 Dec 2026 (2 matters):\n"
               "• Sri Durga Agencies v. Vemula Kiran (C.C. 77/2025), Shadnagar\n"
               "   accused examined u/s 313, for arguments\n"
               "• Pendyala Ramesh v. Kommineni Sarala (O.S. 231/2024), Vikarabad\n"
               "   PW1 cross-examination")
ONLY_DURGA = "Next date in Sri Durga Agencies v. Vemula Kiran: 14 Dec 2026 (order sheet of 2 Dec 2026)."


def _keep(app: App, key: str, text: str, lists_many: bool = False) -> None:
    app.services.replies.outbox.keep(outgoing(key, "aditya", "telegram", "1", [Reply(text=text, lists_many=lists_many)]),
                                     owner="test", lease=timedelta(minutes=1))


def _kept(app: App) -> dict[str, str]:
    rows: list[OutgoingReply] = app.services.replies.outbox.of_people(["aditya"])
    return {r.key: r.reply.text for r in rows if r.key.startswith("intake:forget-")}


async def test_forgetting_a_case_keeps_the_other_cases_part_of_a_shared_reply(app: App) -> None:
    await fresh_practice(app, TENANT)
    [listed] = await app.conversation.handle(say("aditya", "/cases"))
    _keep(app, "intake:forget-cases", listed.text, lists_many=True)
    _keep(app, "intake:forget-two", TWO_MATTERS)
    _keep(app, "intake:forget-only", ONLY_DURGA)
    assert await forget(app, DURGA, confirm=lambda _: True, by="test") == 0
    kept = _kept(app)
    assert "intake:forget-only" not in kept, "a reply only about the forgotten case is erased"
    assert set(kept) == {"intake:forget-cases", "intake:forget-two"}, "a reply about other cases too stays"
    for text in kept.values():
        assert "Durga" not in text and "77/2025" not in text and "u/s 313" not in text, text
    assert "Pendyala Ramesh v. Kommineni Sarala" in kept["intake:forget-two"]
    assert "PW1 cross-examination" in kept["intake:forget-two"]
    assert "Mothe" in kept["intake:forget-cases"] and "Pendyala" in kept["intake:forget-cases"]
