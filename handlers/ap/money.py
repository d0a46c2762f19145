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


def account_difference(read: str, on_file: str) -> str:
    """Where two account numbers differ, digit by digit, in full (a mask would hide a dropped digit):
    "one digit missing: ... 5[0]200034419876", "digit 7 is 3, not 8", or "a different number"."""
    a, b = re.sub(r"\D", "", read), re.sub(r"\D", "", on_file)
    if a == b:
        return "the same digits"
    if len(a) + 1 == len(b):
        for i in range(len(b)):
            if b[:i] + b[i + 1:] == a:
                return f"one digit missing: the account on file reads {b[:i]}[{b[i]}]{b[i + 1:]}"
    if len(a) == len(b) + 1:
        for i in range(len(a)):
            if a[:i] + a[i + 1:] == b:
                return f"one digit extra: the invoice reads {a[:i]}[{a[i]}]{a[i + 1:]}"
    if len(a) == len(b):
        places = [i for i in range(len(a)) if a[i] != b[i]]
        if len(places) <= 3:
            return "; ".join(f"digit {i + 1} is {a[i]}, not {b[i]}" for i in places)
    return "a different number"
