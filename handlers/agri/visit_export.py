"""The visits held for a tenant written back as a visit log row each (imported and saved from cards alike), in
the register's own words: its farmer, village, crop, problem and product names, never internal keys."""

from typing import Any

from bot.store import Database
from handlers.agri.models import Advice, Outcome, Visit
from handlers.agri.register import FieldBook
from handlers.agri.visit_records import VisitRecords

_RESULTS = {"controlled": "controlled", "partial": "partial control", "no_effect": "no effect", "worse": "worse"}


def _product(book: FieldBook, product_id: str) -> str:
    product = book.products.get(product_id)
    return product.name if product is not None else product_id


def _per_product(book: FieldBook, advice: list[Advice], said: list[str]) -> str:
    """One value for every product when they agree ("accepted"), else each with its product named."""
    if len(set(said)) <= 1:
        return said[0] if said else ""
    return "; ".join(f"{_product(book, a.product_id)}: {s}" for a, s in zip(advice, said, strict=True) if s)


def _outcome_cells(outcome: Outcome | None) -> dict[str, str]:
    if outcome is None or outcome.result is None:
        return {}
    whose = "" if outcome.source == "ours" else f" with the {outcome.source} product"
    return {"outcome": _RESULTS[outcome.result] + whose, "outcome_date": outcome.date.isoformat()}


def visit_row(book: FieldBook, visit: Visit, outcome: Outcome | None) -> dict[str, str]:
    """A visit (and its outcome) as the cells of a visit log row."""
    issues = [book.issue_name(p) for p in visit.problems or ([visit.issue] if visit.issue else [])]
    advice = visit.products
    doses = [f"{_product(book, a.product_id)} {a.dose}" for a in advice if a.dose]
    return {
        "date": visit.date.isoformat(), "officer": book.officer_name(visit.officer_id),
        "farmer": book.farmer_name(visit.farmer_id), "village": book.village_name(visit.village),
        "crop": book.crop_name(visit.crop),
        "problem": "; ".join(issues), "products": "; ".join(_product(book, a.product_id) for a in advice),
        "dose": "; ".join(doses), "reaction": _per_product(book, advice, [a.reaction for a in advice]),
        "objection": _per_product(book, advice, [a.objection or "" for a in advice]) or (visit.objection_unnamed or ""),
        **_outcome_cells(outcome), "next_step": visit.next_step or "", "notes": visit.note or ""}


def visits_now(database: Database, tenant: str, _stored: list[Any]) -> list[Any]:
    """Every visit the tenant holds, oldest first, as visit log rows (the kind keeps no rows of its own)."""
    from handlers.agri.registers import FieldBooks, VisitLogRow

    book = FieldBooks(database).for_tenant(tenant)
    records = VisitRecords(database)
    outcomes = {o.outcome.visit_id: o.outcome for o in records.outcomes(tenant)}
    saved = sorted(records.visits(tenant), key=lambda s: (s.visit.date, s.visit.id))
    return [VisitLogRow(**visit_row(book, s.visit, outcomes.get(s.visit.id))) for s in saved]
