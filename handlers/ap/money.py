"""Rupee amounts: parse what invoices print (Indian digit grouping) and show them the way AP staff read them."""

import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

PAISE = Decimal("0.01")
_AMOUNT = re.compile(r"^(?:rs\.?|inr|₹)?\s*(-?[\d,]*\d(?:\.\d+)?)\s*(?:/-)?$", re.IGNORECASE)


def parse_amount(value: str) -> Decimal:
    """Return the amount in `value` ("Rs. 9,58,632.00", "958632", "₹ 1,650"); raise ValueError otherwise."""
    match = _AMOUNT.match(value.strip())
    if not match:
        raise ValueError(f"not an amount: {value!r}")
    try:
        return Decimal(match.group(1).replace(",", "")).quantize(PAISE, rounding=ROUND_HALF_UP)
    except InvalidOperation as exc:
        raise ValueError(f"not an amount: {value!r}") from exc


def format_inr(amount: Decimal) -> str:
    """Return ₹9,58,632 (paise shown only when there are any), grouped the Indian way."""
    value = amount.quantize(PAISE, rounding=ROUND_HALF_UP)
    sign = "-" if value < 0 else ""
    whole, _, paise = f"{abs(value):.2f}".partition(".")
    head, tail = whole[:-3], whole[-3:]
    groups: list[str] = []
    while len(head) > 2:
        groups.insert(0, head[-2:])
        head = head[:-2]
    if head:
        groups.insert(0, head)
    grouped = ",".join([*groups, tail]) if groups else tail
    return f"{sign}₹{grouped}" + ("" if paise == "00" else f".{paise}")


def masked(account_number: str) -> str:
    """Return an account number as ••••4821: enough to compare, never the whole number."""
    return f"••••{suffix(account_number)}"


def suffix(account_number: str) -> str:
    digits = re.sub(r"\D", "", account_number)
    return digits[-4:] if len(digits) >= 4 else digits
