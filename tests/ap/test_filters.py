"""The code-level filters on recall: this vendor only, never this invoice, never the agent citing itself, <= 4."""

from handlers.ap.ledger import Ledger
from handlers.ap.vendor_memory import filter_memories
from memory import ids
from tests.ap.helpers import ravi_history, recalled

NUMBER = "RSC/26-27/0007"


def test_keeps_only_memories_about_this_vendor_by_tag_and_name(ledger: Ledger) -> None:
    ravi = ledger.vendor("V001")
    assert ravi is not None
    other_tag = recalled("Ravi Steel & Components was mentioned in ABC's file.", vendor_id="V002")
    no_name = recalled("Completed 14 payments to the account ending 4821.", vendor_id="V001")
    alias = recalled("Ravi Steel delivered the angles two days late in May.", vendor_id="V001", kind="past_exception")
    result = filter_memories([other_tag, no_name, alias, ravi_history()], ravi, NUMBER, limit=4)
    assert [m.text for m in result.kept] == [ravi_history().text, alias.text]
    assert result.dropped == {"other_vendor": 1, "name_missing": 1}


def test_metadata_naming_another_vendor_is_dropped_even_with_the_tag(ledger: Ledger) -> None:
    ravi = ledger.vendor("V001")
    assert ravi is not None
    mislabelled = recalled("Ravi Steel & Components and ABC share a warehouse.", vendor_id="V001")
    mislabelled = mislabelled.model_copy(update={"metadata": {**mislabelled.metadata, "vendor_id": "V002"}})
    assert filter_memories([mislabelled], ravi, NUMBER, 4).dropped == {"other_vendor": 1}


def test_never_the_invoice_being_decided_nor_the_agents_own_decision(ledger: Ledger) -> None:
    ravi = ledger.vendor("V001")
    assert ravi is not None
    own = recalled("Agent decision: PAYMENT_BLOCKED for Ravi Steel & Components.", kind="agent_decision",
                   document_id=ids.ap_decision("V001", NUMBER))
    clerk = recalled("Clerk approved Ravi Steel & Components' invoice.", kind="clerk_resolution",
                     document_id=ids.ap_resolution("V001", NUMBER))
    mentions = recalled(f"Ravi Steel & Components sent invoice {NUMBER.lower()} early.", kind="past_exception")
    by_metadata = recalled("Ravi Steel & Components invoice held.", kind="agent_decision",
                           invoice_number="RSC / 26-27/0007")
    earlier = recalled("Agent decision on invoice RSC/25-26/0079 from Ravi Steel & Components: HUMAN_REVIEW.",
                       kind="agent_decision", document_id=ids.ap_decision("V001", "RSC/25-26/0079"))
    result = filter_memories([own, clerk, mentions, by_metadata, earlier], ravi, NUMBER, 4)
    assert [m.document_id for m in result.kept] == [earlier.document_id]
    assert result.dropped == {"own_decision": 2, "this_invoice": 2}


def test_at_most_four_with_history_first(ledger: Ledger) -> None:
    ravi = ledger.vendor("V001")
    assert ravi is not None
    decisions = [recalled(f"Agent decision on invoice RSC/25-26/00{n} from Ravi Steel & Components.",
                          kind="agent_decision") for n in range(10, 16)]
    history = ravi_history()
    result = filter_memories([*decisions, history], ravi, NUMBER, limit=4)
    assert len(result.kept) == 4
    assert result.kept[0] == history
    assert result.kept[1:] == decisions[:3], "within a kind the server's ranking stands"
    assert result.dropped == {"over_limit": 3}
