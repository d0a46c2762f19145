"""Note -> visit (or answer -> outcome) with a Groq model when a key is set, checked against the registers;
the deterministic reader otherwise, or when the model is unreachable or its output never validates."""

import logging
from datetime import date
from typing import Literal

from pydantic import BaseModel, Field

from bot.services.llm import ChatModel, ChatUnavailable, StructuringFailed
from bot.services.prompts import render
from handlers.agri.doses import above_label, parse_dose
from handlers.agri.extract import FieldReader, visit_id
from handlers.agri.models import (
    Advice,
    Objection,
    Outcome,
    Reaction,
    Result,
    Severity,
    Stage,
    Visit,
)
from handlers.agri.register import FieldBook
from handlers.agri.results import product_source
from handlers.agri.textmatch import normalise

log = logging.getLogger(__name__)

Extractor = Literal["llm", "rules"]


class DraftAdvice(BaseModel):
    product_id: str
    reaction: Reaction = "undecided"
    objection: Objection | None = None
    dose: str | None = None


class VisitDraft(BaseModel):
    """What the model must return for a visit note."""

    farmer_id: str | None = None
    village: str | None = None
    crop: str | None = None
    stage: Stage | None = None
    issue: str | None = None
    problems: list[str] = Field(default_factory=list)
    severity: Severity | None = None
    severity_pct: int | None = Field(default=None, ge=0, le=100)
    products: list[DraftAdvice] = Field(default_factory=list)
    neighbour_evidence: bool = False
    next_step: str | None = None
    note: str | None = None
    followup_days: int | None = Field(default=None, gt=0, le=120)
    visit_date: date | None = None


class OutcomeDraft(BaseModel):
    """What the model must return for an answer to a follow-up."""

    result: Result
    products: list[str] = Field(default_factory=list)
    note: str | None = None
    outcome_date: date | None = None


class StructuredVisit(BaseModel):
    visit: Visit
    extractor: Extractor
    model_failed: bool = False
    """True when a model was asked but gave no valid output (StructuringFailed): the rules filled the card."""


class StructuredOutcome(BaseModel):
    outcome: Outcome
    extractor: Extractor
    model_failed: bool = False


def _catalogue_lines(book: FieldBook) -> str:
    return "\n".join(f"{p.id} | {p.name} | {', '.join(p.aliases)}" for p in book.products.values())


def visit_prompt_values(book: FieldBook, note: str, officer: str, today: date, territories: list[str]) -> dict[str, str]:
    farmers = [f for f in book.farmers.values() if not territories or f.village in territories]
    return {
        "today": today.isoformat(),
        "farmers": "\n".join(f"{f.id} | {f.name} ({f.name_te}) | {f.village} | {', '.join(f.crops)}" for f in farmers),
        "villages": ", ".join(v.slug for v in book.villages.values() if not territories or v.slug in territories),
        "crops": ", ".join(book.lexicon.crops),
        "issues": ", ".join(book.issues),
        "catalogue": _catalogue_lines(book),
        "officer": officer,
        "note": note,
    }


def guard_visit(book: FieldBook, draft: VisitDraft, note: str, officer_id: str, today: date,
                territories: list[str]) -> Visit:
    """Return a visit holding only what the registers and the catalogue know; anything else is left empty."""
    farmer = book.farmers.get(draft.farmer_id or "")
    if farmer is not None and territories and farmer.village not in territories:
        farmer = None
    village = draft.village if draft.village in book.villages else (farmer.village if farmer else None)
    day = draft.visit_date if draft.visit_date and draft.visit_date <= today else today
    crop = draft.crop if draft.crop in book.lexicon.crops else None
    products = [_checked_dose(book, Advice(product_id=a.product_id, reaction=a.reaction, objection=a.objection),
                              a.dose, crop)
                for a in draft.products if a.product_id in book.products]
    problems = [p for p in dict.fromkeys([*([draft.issue] if draft.issue else []), *draft.problems])
                if p in book.issues]
    dropped = len(draft.products) - len(products)
    if dropped:
        log.info("dropped %s product(s) the model named outside the catalogue", dropped)
    return Visit(
        id=visit_id(farmer.id if farmer else None, day, normalise(note)), date=day, officer_id=officer_id,
        farmer_id=farmer.id if farmer else None, village=village, crop=crop, stage=draft.stage,
        problems=problems, severity=draft.severity,
        severity_pct=draft.severity_pct, products=list({a.product_id: a for a in products}.values()),
        neighbour_evidence=draft.neighbour_evidence, next_step=draft.next_step,
        # The officer's own words, in whatever script; the model's summary is not a substitute for them.
        note=" ".join(note.split())[:400] or draft.note, followup_days=draft.followup_days,
    )


def _checked_dose(book: FieldBook, advice: Advice, said: str | None, crop: str | None) -> Advice:
    """Attach the dose the model read, checked against the label; a dose it gave that has no unit is dropped
    from the advice but the officer still sees the words in the note."""
    dose = parse_dose(said or "")
    if dose is None:
        return advice
    over, label = above_label(dose, book.products[advice.product_id], crop)
    return advice.model_copy(update={"dose": dose.text(), "label_dose": label, "above_label": over})


async def llm_visit(chat: ChatModel, book: FieldBook, note: str, officer_id: str, today: date,
                    territories: list[str]) -> Visit:
    """Structure a note with the model; raise StructuringFailed or ChatUnavailable when it cannot."""
    prompt = render("agri", "structure_visit",
                    **visit_prompt_values(book, note, book.officer_name(officer_id), today, territories))
    draft, attempts = await chat.structured(prompt, VisitDraft)
    log.info("visit structured by model after %s attempt(s)", len(attempts))
    return guard_visit(book, draft, note, officer_id, today, territories)


async def structure_visit(chat: ChatModel | None, reader: FieldReader, note: str, officer_id: str, today: date,
                          territories: list[str]) -> StructuredVisit:
    """Return the visit a note describes, by model when one is configured, by rules otherwise."""
    if chat is not None:
        try:
            visit = await llm_visit(chat, reader.book, note, officer_id, today, territories)
            return StructuredVisit(visit=visit, extractor="llm")
        except ChatUnavailable:
            log.warning("chat model unavailable; reading the note with rules")
        except StructuringFailed:
            log.warning("chat model output never validated; reading the note with rules")
            visit = reader.read_visit(note, officer_id, today, territories)
            return StructuredVisit(visit=visit, extractor="rules", model_failed=True)
    return StructuredVisit(visit=reader.read_visit(note, officer_id, today, territories), extractor="rules")


async def structure_outcome(chat: ChatModel | None, reader: FieldReader, answer: str, subject: Visit,
                            officer_id: str, today: date) -> StructuredOutcome:
    """Return the outcome an answer describes; only catalogue products survive."""
    book = reader.book
    if chat is not None:
        prompt = render(
            "agri", "structure_outcome", today=today.isoformat(), catalogue=_catalogue_lines(book),
            visit_date=subject.date.isoformat(), farmer=book.farmer_name(subject.farmer_id),
            crop=subject.crop or "", issue=book.issue_name(subject.issue),
            advised=", ".join(f"{book.products[a.product_id].name} ({a.reaction})" for a in subject.products) or "nothing",
            answer=answer,
        )
        try:
            draft, _ = await chat.structured(prompt, OutcomeDraft)
        except ChatUnavailable:
            log.warning("chat model unavailable; reading the outcome with rules")
        except StructuringFailed:
            outcome = reader.read_outcome(answer, subject, officer_id, today)
            return StructuredOutcome(outcome=outcome, extractor="rules", model_failed=True)
        else:
            day = draft.outcome_date if draft.outcome_date and subject.date < draft.outcome_date <= today else today
            applied = [p for p in draft.products if p in book.products]
            outcome = Outcome(
                visit_id=subject.id, date=day, officer_id=officer_id, farmer_id=subject.farmer_id or "",
                village=subject.village or "", crop=subject.crop or "", issue=subject.issue,
                products=applied, result=draft.result, note=draft.note,
                source="ours" if applied else product_source(normalise(answer)),
            )
            return StructuredOutcome(outcome=outcome, extractor="llm")
    return StructuredOutcome(outcome=reader.read_outcome(answer, subject, officer_id, today), extractor="rules")
