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
