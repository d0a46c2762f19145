"""The structured side of AP memories: kinds, metadata keys, and reading numbers back out of metadata.

Rules compare numbers read from these keys, never from the prose of a memory (the write-up's lesson:
prose is for explaining a decision, a threshold needs a number).
"""

from decimal import Decimal, InvalidOperation
from typing import Literal

from memory import Recalled

MemoryKind = Literal["vendor_history", "past_exception", "agent_decision", "clerk_resolution"]

KIND = "kind"
VENDOR_ID = "vendor_id"
INVOICE_NUMBER = "invoice_number"
PAYMENT_COUNT = "payment_count"
CLEAN_PAYMENTS = "clean_payments"
BANK_CHANGES = "bank_changes"
ACCOUNT_SUFFIX = "account_suffix"
AMOUNT_MIN = "amount_min"
AMOUNT_MAX = "amount_max"
AMOUNT_MEDIAN = "amount_median"
MISMATCH = "mismatch"
SKU = "sku"
RESOLUTION_CODE = "resolution_code"
RESOLVED_ON = "resolved_on"
STATUS = "status"
CONFIDENCE = "confidence"
FLAGS = "flags"
TOTAL = "total"
CLERK_ACTION = "clerk_action"
AGENT_STATUS = "agent_status"
STATE = "state"
"""An invoice's ledger state (decided, held, review, approved, paid, rejected) on its one memory."""
STATE_BY = "state_by"
MAKER_BY = "approval_asked_by"
MAKER_REASON = "approval_asked_reason"
"""Who asked to approve over a bank-account block, and why (a second person approves it)."""
CHECKER_BY = "approved_second_by"
"""The second person who approved over a bank-account block."""

RESOLUTION_KINDS: tuple[MemoryKind, ...] = ("past_exception", "clerk_resolution")
"""Kinds that record how a person resolved something; the agent's own decisions never count as one."""

KIND_ORDER: dict[str, int] = {"vendor_history": 0, "past_exception": 1, "clerk_resolution": 1, "agent_decision": 2}


def kind_of(memory: Recalled) -> str:
    return memory.metadata.get(KIND, "")


def int_fact(memory: Recalled, key: str) -> int | None:
    """Return an integer metadata value, or None when it is missing or not a whole number."""
    raw = memory.metadata.get(key)
    if raw is None or not raw.strip().lstrip("-").isdigit():
        return None
    return int(raw)


def decimal_fact(memory: Recalled, key: str) -> Decimal | None:
    raw = memory.metadata.get(key)
    if raw is None:
        return None
    try:
        return Decimal(raw)
    except InvalidOperation:
        return None
