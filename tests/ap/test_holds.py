"""A hold ends: the person who held an invoice releases it (to review) in chat, by a button or on the CLI; anyone
else releasing, approving, reviewing or rejecting it overrides that person's hold, so is asked why first, told
whose hold it is and why, and the reason is recorded (walk6ap 60-61)."""
# ruff: noqa: F811 (the `office` fixture is imported from test_chat_ledger and named by the tests)

from datetime import date
from decimal import Decimal

import pytest

from bot.settings import Settings
from handlers.ap.questions import parse
from tests.ap.test_cli import run
from tests.ap.test_chat_ledger import LB_ACCOUNT, Office, bill, office  # noqa: F401 (the pump maker's office fixture)

pytestmark = [pytest.mark.hindsight, pytest.mark.own_registers]

QC = "QC lab has not passed the bearing samples yet"


async def held_by_kavya(office: Office, number: str, po: str, sku: str) -> list:  # type: ignore[type-arg]
    [card] = await office.say(bill(number, po, sku, LB_ACCOUNT))
    assert card.text.startswith("APPROVE")
    [asked] = await office.press(card, "Hold")
    assert "reason" in asked.text
    replies = await office.say(QC)
    assert "is now on hold" in replies[0].text and office.recorded(number).state == "held"
    return replies


async def test_another_persons_hold_is_lifted_only_with_a_reason(office: Office) -> None:
    await held_by_kavya(office, "LB/26-27/190", "NP/PO/41", "BRG-6205")
    # Approving agrees with the agent, but overrides Kavya's hold: Arjun is asked why, told whose hold it is.
    [asked] = await office.say("approve 190", "arjun")
    assert "kavya" in asked.text and QC in asked.text and "reason" in asked.text
    assert office.recorded("LB/26-27/190").state == "held"
    assert (await office.pack.act(office.tenant, "LB/26-27/190", None, "release", "arjun")).outcome == "reason_needed"
    assert office.recorded("LB/26-27/190").state == "held"
    [done] = await office.say("QC report received today, samples passed", "arjun")
    assert "is now approved" in done.text and "kavya" in done.text and "samples passed" in done.text
    record = office.recorded("LB/26-27/190")
    assert record.state == "approved" and record.state_by == "arjun"
    assert record.state_reason == "QC report received today, samples passed"


async def test_the_holder_releases_by_button_or_by_words_without_a_reason(office: Office) -> None:
    [held, *_] = await held_by_kavya(office, "LB/26-27/191", "NP/PO/42", "BRG-6206")
    [released] = await office.press(held, "Release hold")
    assert "is now sent to review" in released.text
    assert office.recorded("LB/26-27/191").state == "review"
    [again] = await office.say("release LB/26-27/191")
    assert "not on hold" in again.text and office.recorded("LB/26-27/191").state == "review"
    [rehold] = await office.say(f"hold 191 because {QC}")
    assert "on hold" in rehold.text and office.recorded("LB/26-27/191").state == "held"
    [words] = await office.say("lift the hold on invoice 191")
    assert "is now sent to review" in words.text and office.recorded("LB/26-27/191").state == "review"


async def test_release_on_the_cli_names_the_holder_when_a_reason_is_missing(
        office: Office, settings: Settings, capsys: pytest.CaptureFixture[str]) -> None:
    await held_by_kavya(office, "LB/26-27/192", "NP/PO/41", "BRG-6205")
    capsys.readouterr()
    assert await run(settings, "ap", "release", "LB/26-27/192", "--tenant", office.tenant, "--as", "arjun") == 1
    err = capsys.readouterr().err
    assert "on hold by kavya" in err and QC in err and "--reason" in err and "Traceback" not in err
    assert await run(settings, "ap", "release", "LB/26-27/192", "--tenant", office.tenant, "--as", "arjun",
                     "--reason", "QC passed on the second sample lot") == 0
    assert office.recorded("LB/26-27/192").state == "review"


@pytest.mark.parametrize("typed", ["release LB/26-27/031", "Release invoice 31 of Sri Ram",
                                   "lift the hold on invoice 31 because QC passed", "remove hold on 31", "unhold 31"])
def test_a_release_is_read_in_words(typed: str) -> None:
    ask = parse(typed, date(2026, 12, 6))
    assert ask is not None and ask.intent == "release", typed


def test_releasing_what_the_agent_held_overrides_the_agent_and_another_persons_hold_overrides_them() -> None:
    from datetime import datetime, timezone

    from handlers.ap.ledgerview import LedgerEntry
    from handlers.ap.lifecycle import RecordedEntry, may_act, reason_required

    def held(agent: str, by: str) -> RecordedEntry:
        entry = LedgerEntry(vendor_id="V9", invoice_number="GT/31", invoice_date=date(2026, 11, 2),
                            total=Decimal("100.00"), status="held", decision_id="r1")
        return RecordedEntry(entry=entry, agent_status=agent, decided_by=by, state_by=by,
                             state_at=datetime(2026, 12, 1, tzinfo=timezone.utc), state_reason="QC")

    assert not reason_required(held("APPROVE", "kavya"), "release", "Kavya")  # one's own hold, the agent agreed
    assert reason_required(held("APPROVE", "kavya"), "release", "arjun")  # another person's hold
    assert reason_required(held("APPROVE", "kavya"), "approve", "arjun")
    assert reason_required(held("EXCEPTION", "kavya"), "release", "kavya")  # the agent held it: over the agent
    assert not reason_required(held("EXCEPTION", "kavya"), "hold", "arjun")
    assert may_act("held", "release") and not may_act("approved", "release") and not may_act("review", "release")
