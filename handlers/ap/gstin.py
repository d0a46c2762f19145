"""A GSTIN checked as the GST network issues it: a known state code and the mod-36 check character.

A GSTIN is 15 characters: two digits of state code, the holder's PAN (10), an entity number, Z, and a check
character computed from the first 14. A photo that drops or swaps one character, or a made-up number, fails
the check; a GSTIN of another state is a different registration. Nothing here trusts the document.
"""

from typing import Literal

from pydantic import BaseModel

_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

STATES: dict[str, str] = {
    "01": "Jammu and Kashmir", "02": "Himachal Pradesh", "03": "Punjab", "04": "Chandigarh", "05": "Uttarakhand",
    "06": "Haryana", "07": "Delhi", "08": "Rajasthan", "09": "Uttar Pradesh", "10": "Bihar", "11": "Sikkim",
    "12": "Arunachal Pradesh", "13": "Nagaland", "14": "Manipur", "15": "Mizoram", "16": "Tripura",
    "17": "Meghalaya", "18": "Assam", "19": "West Bengal", "20": "Jharkhand", "21": "Odisha", "22": "Chhattisgarh",
    "23": "Madhya Pradesh", "24": "Gujarat", "25": "Daman and Diu", "26": "Dadra and Nagar Haveli and Daman and Diu",
    "27": "Maharashtra", "28": "Andhra Pradesh (old)", "29": "Karnataka", "30": "Goa", "31": "Lakshadweep",
    "32": "Kerala", "33": "Tamil Nadu", "34": "Puducherry", "35": "Andaman and Nicobar Islands", "36": "Telangana",
    "37": "Andhra Pradesh", "38": "Ladakh", "97": "Other Territory", "99": "Centre Jurisdiction",
}
"""The GST state codes (the first two digits of every GSTIN)."""

Problem = Literal["check_digit", "state_code", "format"]


class GstinCheck(BaseModel):
    gstin: str
    problem: Problem | None = None
    expected_check: str | None = None
    """The check character the first 14 characters call for, when the last one is not it."""

    @property
    def ok(self) -> bool:
        return self.problem is None


def check_character(first14: str) -> str:
    """The 15th character of a GSTIN from its first 14: weights 1, 2, 1, 2 ... over base-36 values, each
    product folded (quotient + remainder by 36), and the sum's complement mod 36."""
    total = 0
    for position, char in enumerate(first14.upper()):
        product = _ALPHABET.index(char) * (1 if position % 2 == 0 else 2)
        total += product // 36 + product % 36
    return _ALPHABET[(36 - total % 36) % 36]


def state_of(gstin: str) -> str | None:
    """The state a GSTIN is registered in, or None for a code that is no state."""
    return STATES.get(gstin[:2])


def verify(gstin: str) -> GstinCheck:
    """Check a GSTIN's shape, state code and check character."""
    value = gstin.strip().upper()
    if len(value) != 15 or any(c not in _ALPHABET for c in value):
        return GstinCheck(gstin=value, problem="format")
    if value[:2] not in STATES:
        return GstinCheck(gstin=value, problem="state_code")
    expected = check_character(value[:14])
    if value[14] != expected:
        return GstinCheck(gstin=value, problem="check_digit", expected_check=expected)
    return GstinCheck(gstin=value)


_AS_DIGIT = str.maketrans({"O": "0", "Q": "0", "D": "0", "I": "1", "L": "1", "T": "1", "Z": "2", "S": "5",
                           "B": "8", "G": "6"})
_AS_LETTER = str.maketrans({"0": "O", "1": "I", "2": "Z", "5": "S", "8": "B", "6": "G"})
_SHAPE = "DDLLLLLDDDDLXZX"
"""What each of a GSTIN's 15 places holds: D a digit, L a letter, X either, Z the letter Z."""


def _shaped(token: str) -> str | None:
    """The token with each place read as what it must hold (a scan's 0 for O in the PAN's letters, S for 5 in
    its digits), or None when a place cannot be put right that way."""
    mended = []
    for char, kind in zip(token, _SHAPE, strict=True):
        if kind == "D":
            char = char.translate(_AS_DIGIT)
        elif kind == "L":
            char = char.translate(_AS_LETTER)
        elif kind == "Z":
            char = "Z" if char in "Z2" else char
        mended.append(char)
    value = "".join(mended)
    shape_ok = all((kind != "D" or c.isdigit()) and (kind != "L" or c.isalpha()) and (kind != "Z" or c == "Z")
                   for c, kind in zip(value, _SHAPE, strict=True))
    return value if shape_ok and value[:2] in STATES else None


def mend_read(token: str) -> str | None:
    """A GSTIN read by OCR put back in shape, or None. Each place is read as the kind of character it must be;
    a token one character too long (a speck read as a character, "C12Z7" for "C1Z7") loses the one character
    whose removal leaves a GSTIN shape, preferring one that passes its check, then the first registration in
    its state (entity 1, by far the most common). The check character itself is never changed, so a GSTIN
    printed wrong still fails its check and is flagged."""
    value = token.upper()
    if len(value) == 15:
        return _shaped(value)
    if len(value) != 16:
        return None
    # The check character, last, is kept: a speck is read inside the number, not after its end.
    shaped = [s for i in range(15) if (s := _shaped(value[:i] + value[i + 1:])) is not None]
    passing = [s for s in shaped if verify(s).ok]
    if passing:
        return passing[0] if len(set(passing)) == 1 else None
    first = [s for s in shaped if s[12] == "1"]
    return first[0] if len(set(first)) == 1 else None
