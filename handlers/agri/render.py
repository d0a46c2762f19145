"""A brief as chat text, and two briefs side by side for the demo."""

import textwrap
from itertools import zip_longest

from bot.services.i18n import show_date, text
from handlers.agri.brief_models import Brief
from handlers.agri.extract import farmer_of_visit_id
from handlers.agri.register import FieldBook


def brief_text(book: FieldBook, brief: Brief, lang: str) -> str:
    """Return the brief as one message: checks, products, what to avoid, dated claims, confidence."""

    def t(key: str, **values: object) -> str:
        return text(lang, f"agri.{key}", **values)

    lines = [t("brief_header", farmer=book.farmer_name(brief.farmer.id, lang), farmer_id=brief.farmer.id,
               village=book.village_name(brief.farmer.village, lang), as_of=show_date(lang, brief.as_of),
               memory=t(f"memory_label_{brief.memory}"))]
    if brief.memory == "on":
        lines.append(t("brief_recalled", farmer=brief.recalled.farmer, similar=brief.recalled.similar))
    lines += brief.notes
    lines.append("")
    lines.append(t("brief_checks"))
    lines += [f"• {c}" for c in brief.checks]
    lines.append(t("brief_products"))
    if not brief.products:
        lines.append(f"• {t('brief_no_products')}")
    for n, product in enumerate(brief.products, start=1):
        lines.append(f"{n}. {product.name} ({product.id}) · {product.price} · {product.dosage or '-'}")
        lines.append(f"   {product.pitch}")
    if brief.avoid:
        lines.append(t("brief_avoid"))
        lines += [f"• {a}" for a in brief.avoid]
    if brief.claims:
        lines.append(t("brief_claims"))
        for claim in brief.claims:
            source = (f"{show_date(lang, claim.source_date)} · {cited(book, claim.document_id, lang, claim.farmer_id)}"
                      if claim.source_date else t("brief_no_source"))
            lines.append(f"• {claim.text} [{source}]")
    lines.append(t("brief_confidence", confidence=t(f"confidence_{brief.confidence}")))
    if brief.unverified:
        lines.append(t("brief_unverified"))
        lines += [f"• {u}" for u in brief.unverified]
    return "\n".join(lines)


def cited(book: FieldBook, document_id: str | None, lang: str, farmer: str | None = None) -> str:
    """A memory cited as people speak of it: a visit to or an outcome of a farmer by name, never its id."""
    kind, _, key = (document_id or "").partition(":")
    farmer = farmer or (farmer_of_visit_id(book, key) if key else None)
    name = book.farmer_name(farmer, lang) if farmer in book.farmers else None
    kind = kind if kind in ("visit", "outcome") else "record"
    return text(lang, f"agri.cited_{kind}_of" if name else f"agri.cited_{kind}", farmer=name or "")


def side_by_side(left: str, right: str, width: int = 58) -> str:
    """Return two texts as columns, each wrapped to `width`."""

    def column(body: str) -> list[str]:
        out: list[str] = []
        for line in body.splitlines():
            out += textwrap.wrap(line, width, subsequent_indent="   ") or [""]
        return out

    rows = zip_longest(column(left), column(right), fillvalue="")
    return "\n".join(f"{a:<{width}} │ {b}" for a, b in rows)
