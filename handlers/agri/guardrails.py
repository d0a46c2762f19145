"""Guardrails run after every brief is drafted (by model or template): catalogue products only, catalogue
doses only, claim dates only from recalled memories, and the same date check on free text (pitch, checks,
avoid), in English or Telugu script. Lesson 5 of the write-up: a guardrail covers only the fields it checks,
so it checks every field that carries text."""

import logging
import re
from datetime import date

from pydantic import BaseModel

from bot.services.i18n import text
from handlers.agri.brief_models import BriefDraft, BriefProduct, Claim
from handlers.agri.measures import dose_text, price_text
from handlers.agri.register import FieldBook, normalise_dose
from handlers.agri.textmatch import find_dates

log = logging.getLogger(__name__)

MAX_PRODUCTS = 3
_TIDY = [(re.compile(r"\(\s*\)"), ""), (re.compile(r"\s+([,.;:)])"), r"\1"), (re.compile(r"\s{2,}"), " ")]


class CheckedText(BaseModel):
    text: str
    removed: list[str]


class Guarded(BaseModel):
    claims: list[Claim]
    products: list[BriefProduct]
    avoid: list[str]
    checks: list[str]
    unverified: list[str]


def strip_unknown_dates(text: str, known: set[date], marker: str) -> CheckedText:
    """Replace every date in `text` that no recalled memory carries with `marker`."""
    removed: list[str] = []
    out = text
    for mention in reversed(find_dates(text)):
        if mention.matches(known):
            continue
        removed.append(mention.text)
        out = out[:mention.start] + marker + out[mention.end:]
    for rx, repl in _TIDY:
        out = rx.sub(repl, out)
    return CheckedText(text=out.strip(), removed=list(reversed(removed)))


def _dose_known(book: FieldBook, product_id: str, dose: str) -> bool:
    return normalise_dose(dose) in {normalise_dose(d) for d in book.products[product_id].dosage.values()}


def guard_brief(book: FieldBook, draft: BriefDraft, known: dict[date, list[str]], crops: list[str],
                marker: str, lang: str = "en") -> Guarded:
    """Return the draft with everything memory or the catalogue cannot back removed, and say what was removed
    (in `lang`; removed dates and citations are quoted as the draft wrote them)."""
    dates = set(known)
    unverified: list[str] = []

    def t(key: str, **values: object) -> str:
        return text(lang, f"agri.{key}", **values)

    def checked(field: str, body: str) -> str:
        result = strip_unknown_dates(body, dates, marker)
        unverified.extend(t("unverified_date", field=field, removed=d) for d in result.removed)
        return result.text

    claims: list[Claim] = []
    for claim in draft.claims:
        source, document = claim.source_date, claim.document_id
        if source is not None and source not in dates:
            unverified.append(t("unverified_claim", claim=claim.text, cited=source.isoformat()))
            source = document = None
        elif source is not None and document not in known[source]:
            document = known[source][0]
        claims.append(Claim(text=checked(t("unverified_field_claim"), claim.text), source_date=source,
                            document_id=document))

    products: list[BriefProduct] = []
    for item in draft.products:
        product = book.products.get(item.id)
        if product is None:
            unverified.append(t("unverified_product_unknown", product_id=item.id))
            continue
        labelled = [c for c in ([item.crop] if item.crop in crops else []) + crops if c in product.dosage]
        if not labelled:
            unverified.append(t("unverified_product_label", product=product.name,
                                crops=", ".join(book.crop_name(c, lang) for c in crops)))
            continue
        if item.dosage and not _dose_known(book, product.id, item.dosage):
            unverified.append(t("unverified_dose", dose=item.dosage, product=product.name))
        if any(p.id == product.id for p in products) or len(products) == MAX_PRODUCTS:
            continue
        products.append(BriefProduct(
            id=product.id, name=product.name, price=price_text(lang, product),
            dosage=dose_text(lang, product, labelled[0], book.crop_name(labelled[0], lang)),
            pitch=checked(t("unverified_field_pitch", product=product.name), item.pitch),
        ))
    avoid = [checked(t("unverified_field_avoid"), a) for a in draft.avoid]
    checks = [checked(t("unverified_field_check"), c) for c in draft.checks]
    if unverified:
        log.info("guardrails removed %s unverified item(s) from a brief", len(unverified))
    return Guarded(claims=claims, products=products, avoid=avoid, checks=checks, unverified=unverified)
