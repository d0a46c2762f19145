"""Money as Indian invoices print it, for writing batch 3 (written apart from handlers/ap on purpose)."""

from decimal import ROUND_HALF_UP, Decimal

from tests.corpus.ap.layouts import inr

PAISE = Decimal("0.01")
_ONES = ("", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven", "Twelve",
         "Thirteen", "Fourteen", "Fifteen", "Sixteen", "Seventeen", "Eighteen", "Nineteen")
_TENS = ("", "", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety")


def q(value: Decimal) -> Decimal:
    return value.quantize(PAISE, rounding=ROUND_HALF_UP)


def indian(value: Decimal) -> str:
    """1234567.5 -> '12,34,567.50' (lakh and crore grouping), as the batch 1 layouts print it."""
    return inr(q(value))


def western(value: Decimal) -> str:
    return f"{q(value):,.2f}"


def _below_hundred(n: int) -> str:
    if n < 20:
        return _ONES[n]
    return (_TENS[n // 10] + (" " + _ONES[n % 10] if n % 10 else "")).strip()


def _below_thousand(n: int, joiner: str) -> str:
    hundreds, rest = divmod(n, 100)
    parts = []
    if hundreds:
        parts.append(f"{_ONES[hundreds]} Hundred")
    if rest:
        parts.append((joiner + " " if hundreds and joiner else "") + _below_hundred(rest))
    return " ".join(parts)


def words(value: Decimal, joiner: str = "") -> str:
    """12345.50 -> 'Twelve Thousand Three Hundred Forty Five and Fifty Paise' (Indian system)."""
    value = q(value)
    rupees = int(value)
    paise = int((value - rupees) * 100)
    parts = []
    for name, size in (("Crore", 10**7), ("Lakh", 10**5), ("Thousand", 10**3)):
        count, rupees = divmod(rupees, size)
        if count:
            parts.append(f"{_below_thousand(count, joiner) if count >= 100 else _below_hundred(count)} {name}")
    if rupees:
        parts.append(_below_thousand(rupees, joiner))
    text = " ".join(parts) or "Zero"
    if paise:
        text += f" and {_below_hundred(paise)} Paise"
    return text
