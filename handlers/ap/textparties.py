"""Whose GSTIN is whose on a printed invoice: the seller's, or the buyer's it is billed to.

A GSTIN belongs to the party whose block it is printed in: a label on its own line ("Party GSTIN", "Buyer's
GSTIN"), else a heading to its left on the same line, else the nearest heading above it in the same column ("Buyer (Bill to)", "Details of Receiver",
"Supplier"). The tenant's own GSTIN is always the buyer's. Consignor and consignee (a freight bill's goods
parties) are neither: the bill is the transporter's, billed to whoever pays it.
"""

import re
from dataclasses import dataclass

from rapidfuzz.distance import Levenshtein

from handlers.ap.gstin import verify
from handlers.ap.models import GSTIN_PATTERN

_GSTIN = re.compile(GSTIN_PATTERN.strip("^$").join([r"(?<![0-9A-Z])(", r")(?![0-9A-Z])"]))
_BUYER = re.compile(r"\b(?:bill(?:ed)?\s*to|buyer|customer|recipient|receiver|party|sold\s+to|invoice\s+to)",
                    re.IGNORECASE)
_SELLER = re.compile(r"\b(?:supplier|seller|vendor|sold\s+by|billed\s+by|from\s*:|service\s+provider)", re.IGNORECASE)
_SEGMENT = re.compile(r"\S+(?: \S+)*")
_ABOVE = 10
_ALIGN = 6


@dataclass(frozen=True)
class Parties:
    vendor_gstin: str | None
    buyer_gstin: str | None


def _segments(line: str) -> list[tuple[int, str]]:
    """A printed line's cells: runs of words separated by two or more spaces or a rule."""
    return [(m.start(), m.group(0)) for m in _SEGMENT.finditer(line.replace("|", " "))]


def _side(text: str) -> str | None:
    buyer, seller = _BUYER.search(text), _SELLER.search(text)
    if buyer and (not seller or buyer.start() > seller.start()):
        return "buyer"
    return "seller" if seller else None


def _block_of(lines: list[str], index: int, column: int) -> str | None:
    """The party of the GSTIN at (index, column): its own cell's label, else the heading above in its column."""
    cells = [(s, c) for s, c in _segments(lines[index]) if s <= column]
    start, cell = cells[-1] if cells else (0, "")
    if not cell[:column - start].strip(" :-") and len(cells) > 1:
        start, label = cells[-2]  # "GSTIN/UIN      : 36..." is one cell, its label spaced from its value
        cell = f"{label} {cell}"
        column = start + len(label) + 1
    if (side := _side(cell[:column - start])) is not None:
        return side
    # "Buyer (Bill to): X Ltd, City      GSTIN 27...": the party's heading opens the line, its GSTIN is spaced off
    # to the right; the nearest heading to the left on the same line owns it, unless another GSTIN comes between.
    for _, left in reversed(cells[:-1]):
        if _GSTIN.search(left.upper()):
            break
        if (side := _side(left)) is not None:
            return side
    for above in range(index - 1, max(-1, index - 1 - _ABOVE), -1):
        for cell_start, text in _segments(lines[above]):
            if abs(cell_start - start) > _ALIGN:
                continue
            if _GSTIN.search(text.upper()):
                return None  # another party's block ends here
            if (side := _side(text)) is not None:
                return side
    return None


def _misread_of(gstin: str, own: str) -> bool:
    """A GSTIN that fails its own check and is a character or two from the tenant's is the tenant's, misread by
    a scan: another company's real GSTIN passes its check."""
    return not verify(gstin).ok and Levenshtein.distance(gstin, own) <= 2


def party_gstins(lines: list[str], tenant_gstin: str | None) -> Parties:
    """The seller's GSTIN (the first one not in a buyer's block, never the tenant's) and the buyer's (the
    tenant's when printed, else one in a buyer's block)."""
    vendor: str | None = None
    buyer: str | None = None
    own = False
    for index, line in enumerate(lines):
        for match in _GSTIN.finditer(line.upper()):
            gstin = match.group(1)
            if tenant_gstin and (gstin == tenant_gstin or _misread_of(gstin, tenant_gstin)):
                own = True
                continue
            side = _block_of(lines, index, match.start())
            if side == "buyer":
                buyer = buyer or gstin
            elif vendor is None:
                vendor = gstin
    return Parties(vendor_gstin=vendor, buyer_gstin=tenant_gstin if own else buyer)
