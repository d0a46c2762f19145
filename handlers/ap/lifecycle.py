"""An invoice's life in the ledger, as rules: which state follows which, by whom, with what reason.

    decided (the agent's status) -> held | review | approved (by whom, why) -> paid (when, to which account)
                                 -> rejected
    decided again (a receipt arrived, a corrected invoice under the same number) is a move of the same entry,
    never a second entry and never a duplicate of itself.

Paid and rejected are closed: the same number again is a duplicate of it. The corrected invoice replaces the
earlier version (the log keeps the version it superseded). These are pure functions; ledger_store.py applies
them to rows under a conditional UPDATE so two clerks never move one invoice twice.
"""

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from handlers.ap.ledgerview import LedgerEntry
from handlers.ap.people import PersonFound

State = Literal["decided", "held", "review", "approved", "paid", "rejected", "superseded"]
ClerkAction = Literal["approve", "hold", "review", "reject", "release"]
Redecision = Literal["new", "unchanged", "redecided", "corrected", "closed"]

OPEN: tuple[State, ...] = ("decided", "held", "review", "approved")
CLOSED: tuple[State, ...] = ("paid", "rejected", "superseded")
"""Superseded: a replacement invoice of the same vendor named it; the replacement is the one to pay."""
STATE_OF_ACTION: dict[ClerkAction, State] = {"approve": "approved", "hold": "held", "review": "review",
                                             "reject": "rejected", "release": "review"}
"""Releasing a hold sends the invoice to review: someone then approves or rejects it on the facts now known."""
AGREEING: dict[str, ClerkAction] = {"APPROVE": "approve", "PAYMENT_BLOCKED": "hold", "EXCEPTION": "hold",
                                    "HUMAN_REVIEW": "review"}
"""The clerk action that goes along with each agent status; any other choice overrides the agent."""
BANK_FLAGS = ("FIRST_BANK_CHANGE", "BANK_CHANGE")
"""Flags of a payment asked to an account not on file: approving over them takes a second named person."""


class DecisionMemo(BaseModel):
    """What a recorded decision said, kept on its ledger entry so its memory can be written from the record."""

    vendor_name: str
    confidence: float
    flags: list[str] = Field(default_factory=list)
    evidence: list[str] = Field(default_factory=list)
    """The flags' evidence in English (memory is written in English whatever the clerk reads)."""
    recommendation: str = ""
    mismatch: dict[str, str] = Field(default_factory=dict)
    account_asked: str | None = None
    """The account the document asked to be paid to, in full, when it is not the one on file."""


class RecordedEntry(BaseModel):
    """A ledger entry with its life: the agent's status, who moved it to its state, when and why."""

    entry: LedgerEntry
    agent_status: str
    decided_by: str
    state_by: str
    state_at: datetime
    state_reason: str | None = None
    content_key: str | None = None
    invoice_account: str | None = None
    confirmed_account: str | None = None
    confirmed_by: str | None = None
    memo: DecisionMemo | None = None
    clerk_action: str | None = None
    """The clerk's latest choice on the decision the entry holds (approve, hold, review, reject), if any."""
    maker_by: str | None = None
    maker_reason: str | None = None
    """Who asked to approve over a bank-account block, and why: a second person (the checker) approves it."""
    checker_by: str | None = None
    """The second person who approved over the bank-account block; the account the invoice asked for is then
    `confirmed_account`, confirmed by both."""

    @property
    def state(self) -> str:
        return self.entry.status

    @property
    def two_person_account(self) -> str | None:
        """The account two different people approved paying to (maker and checker), if any."""
        if self.maker_by and self.checker_by and not same_person(self.maker_by, self.checker_by):
            return self.confirmed_account
        return None


class Decided(BaseModel):
    """What recording a decision did to the invoice's entry."""

    outcome: Redecision
    record: RecordedEntry
    before: RecordedEntry | None = None


WhoRefused = Literal["who_unknown", "who_ambiguous", "who_not_allowed"]
"""The name given for who does it is no person of the tenant, fits several, or is no one who moves invoices."""
ActOutcome = Literal["moved", "same", "closed", "stale", "reason_needed", "not_found", "ambiguous",
                     "second_needed", "same_person", WhoRefused]
"""second_needed: the approval over a bank block is asked for (the maker's); same_person: the maker cannot
also be the checker (the same person id, however the name was typed)."""


class ActResult(BaseModel):
    outcome: ActOutcome
    record: RecordedEntry | None = None
    before_state: str | None = None
    candidates: list[str] = []
    who: PersonFound | None = None


PayOutcome = Literal["paid", "not_found", "ambiguous", "already_paid", "not_approved", "account_unverified",
                     "no_account", "future_date", "before_invoice", WhoRefused]
"""future_date: a payment is marked on the day it was made, never on a day still to come.
before_invoice: nor on a day before the invoice was issued (a typed year or a day and month swapped)."""


class PayResult(BaseModel):
    outcome: PayOutcome
    entry: LedgerEntry | None = None
    record: RecordedEntry | None = None
    candidates: list[str] = []
    who: PersonFound | None = None


def overrides(agent_status: str, action: ClerkAction) -> bool:
    """A choice other than the one that goes with the agent's status overrides it. Releasing a hold overrides
    the agent only when the agent itself held the invoice (an exception or a block); otherwise it lifts a
    person's hold (see lifts_others_hold)."""
    if action == "release":
        return AGREEING.get(agent_status) == "hold"
    return AGREEING.get(agent_status) != action


def needs_reason(agent_status: str, action: ClerkAction) -> bool:
    """Every override says why: approving over a block, exception or review; holding or sending to review what
    the agent approved (or a choice other than the one its status goes with); rejecting."""
    return overrides(agent_status, action)


def lifts_others_hold(state: str, held_by: str, action: ClerkAction, by_user: str) -> bool:
    """Releasing, approving, reviewing or rejecting an invoice another person put on hold overrides that person
    (a QC check, a partial receipt): it says why, as an override of the agent does."""
    return state == "held" and action != "hold" and not same_person(held_by, by_user)


def reason_required(record: "RecordedEntry", action: ClerkAction, by_user: str) -> bool:
    """Whether this person's move on the invoice as it stands needs a reason."""
    return needs_reason(record.agent_status, action) or lifts_others_hold(record.state, record.state_by, action,
                                                                          by_user)


def needs_second_person(agent_status: str, flags: list[str], action: ClerkAction) -> bool:
    """Approving over the agent when the invoice asks to be paid to an account not on file (a first change of
    bank account, or a digit that differs) takes two named people: one asks with a reason, another approves."""
    return action == "approve" and overrides(agent_status, action) and any(f in BANK_FLAGS for f in flags)


def same_person(a: str, b: str) -> bool:
    return a.strip().casefold() == b.strip().casefold()


def may_act(state: str, action: ClerkAction) -> bool:
    """A clerk moves an open invoice; a paid or rejected one stays as it is. Only a hold is released."""
    if action == "release":
        return state == "held"
    return state in OPEN and STATE_OF_ACTION[action] != state


def payable(state: str, agent_status: str) -> bool:
    """Approved by a clerk, or approved by the agent (goods received, nothing flagged) with no clerk move since
    (any clerk action takes an entry out of `decided`)."""
    return state == "approved" or (state == "decided" and agent_status == "APPROVE")


def redecided_state(state: str, old_agent: str, new_agent: str, same_content: bool) -> tuple[State, Redecision]:
    """The state after the same invoice is decided again (resent, or a corrected version under its number).

    A clerk's hold, review or approval stands while the facts give the same status; new facts (the rest of a
    receipt, a corrected invoice) put it back to `decided` under the new status."""
    if state in CLOSED:
        return state, "closed"  # type: ignore[return-value]
    if not same_content:
        return "decided", "corrected"
    if new_agent == old_agent:
        return state, "unchanged"  # type: ignore[return-value]
    return "decided", "redecided"
