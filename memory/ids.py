"""Deterministic document ids: the same thing sent again replaces its memory instead of duplicating it.

Each id carries the real event date where one exists, so an id alone tells what and when.
"""

import hashlib
from datetime import date


def _part(value: str) -> str:
    cleaned = value.strip()
    if not cleaned or ":" in cleaned:
        raise ValueError(f"document id part must be non-empty and colon-free: {value!r}")
    return cleaned


def visit(visit_id: str) -> str:
    return f"visit:{_part(visit_id)}"


def outcome(visit_id: str) -> str:
    return f"outcome:{_part(visit_id)}"


def hearing(upload_id: str, case_id: str, hearing_date: date) -> str:
    return f"{_part(upload_id)}:{_part(case_id)}:{hearing_date.isoformat()}"


def chat_memory(user_id: str, said_at_iso: str, text: str) -> str:
    return f"chat:{_part(user_id)}:{said_at_iso}:{content_digest(text)}"


def ap_decision(vendor_id: str, invoice_number: str) -> str:
    return f"ap-decision:{_part(vendor_id)}:{_part(invoice_number.replace(':', '-'))}"


def ap_resolution(vendor_id: str, invoice_number: str) -> str:
    return f"ap-resolution:{_part(vendor_id)}:{_part(invoice_number.replace(':', '-'))}"


def seed(kind: str, record_id: str) -> str:
    return f"{_part(kind)}:{_part(record_id)}"


def content_digest(text: str, length: int = 12) -> str:
    """Return a short stable digest of text, for ids of things that have no natural key."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:length]
