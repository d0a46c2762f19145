"""The tag vocabulary: every tag a memory carries is built here, so tags stay one schema.

Tags are `prefix:value` with a lowercase, hyphenated value. Designed before anything is retained
(lesson 1 of the field-memory write-up): farmer, village, crop, officer and kind for the field pack;
case and type for the legal pack; vendor and type for accounts payable.
"""

import hashlib
import re
from enum import StrEnum


class TagPrefix(StrEnum):
    FARMER = "farmer"
    VILLAGE = "village"
    CROP = "crop"
    OFFICER = "officer"
    KIND = "kind"
    CASE = "case"
    TYPE = "type"
    VENDOR = "vendor"
    AUTHOR = "author"
    INVOICE = "invoice"


_NON_SLUG = re.compile(r"[^a-z0-9]+")


def slug(value: str) -> str:
    """Return the tag form of a value: lowercase, runs of other characters folded to one hyphen. A value with
    letters outside Latin (a farmer id or crop written in Telugu) gets a short digest of itself, so two such
    values never share a tag."""
    cleaned = _NON_SLUG.sub("-", value.strip().lower()).strip("-")
    if any(c.isalpha() and not c.isascii() for c in value):
        digest = hashlib.sha1(value.strip().lower().encode("utf-8")).hexdigest()[:8]
        cleaned = f"{cleaned}-{digest}" if cleaned else f"x{digest}"
    if not cleaned:
        raise ValueError(f"cannot build a tag value from {value!r}")
    return cleaned


def tag(prefix: TagPrefix, value: str) -> str:
    """Return `prefix:value` with the value slugged (ids such as F001 become f001)."""
    return f"{prefix.value}:{slug(value)}"


def farmer(farmer_id: str) -> str:
    return tag(TagPrefix.FARMER, farmer_id)


def village(name: str) -> str:
    return tag(TagPrefix.VILLAGE, name)


def crop(name: str) -> str:
    return tag(TagPrefix.CROP, name)


def officer(officer_id: str) -> str:
    return tag(TagPrefix.OFFICER, officer_id)


def kind(name: str) -> str:
    return tag(TagPrefix.KIND, name)


def case(case_id: str) -> str:
    return tag(TagPrefix.CASE, case_id)


def record_type(name: str) -> str:
    return tag(TagPrefix.TYPE, name)


def vendor(vendor_id: str) -> str:
    return tag(TagPrefix.VENDOR, vendor_id)


def values_with_prefix(tags: list[str], prefix: TagPrefix) -> list[str]:
    """Return the values of every tag with this prefix, in order."""
    head = f"{prefix.value}:"
    return [t[len(head):] for t in tags if t.startswith(head)]
