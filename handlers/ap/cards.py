"""The decision card a clerk sees in chat and its Approve / Hold / Send-to-review buttons (data
`ap:<a|h|r>:<run id>`, and Release under a hold); what a press does is in choices.py."""

from decimal import Decimal

from bot.services.i18n import catalogue, show_date, text
from bot.core.messages import Button, Reply
from handlers.ap.decision import DecisionReport
from handlers.ap.intake import Refusal
from handlers.ap.money import format_inr
from bot.core.pack import Turn

PREFIX = "ap"
ACTIONS = {"a": "approve", "h": "hold", "r": "review", "l": "release"}
"""Release (`ap:l:<run id>`) is offered under a hold once it is recorded: it sends the invoice to review."""

_MEMORY_SHOWN = 160
_REASON_MAX = 300
_REASON_MIN_LETTERS = 6
_REASON_MIN_WORDS = 2
"""A one-word reply ("ok", "thanks", "yes") is not a reason an auditor can read."""


def render_report(lang: str, report: DecisionReport) -> str:
    """Return the card text: status, match, flags with evidence, memory used, recommendation."""
    lines = [
        text(lang, "ap.card_title", status=text(lang, f"ap.status_{report.status}"),
             confidence=round(report.confidence * 100), number=report.invoice_number, vendor=report.vendor_name,
             total=format_inr(report.total)),
        _match_line(lang, report),
    ]
    if report.flags:
        lines.append(text(lang, "ap.card_flags"))
        lines += [f"• {f.code}: {f.evidence}" for f in report.flags]
    lines.append(text(lang, f"ap.memory_{report.memory_source}", count=len(report.memories)))
    for memory in report.memories:
        shown = memory.text if len(memory.text) <= _MEMORY_SHOWN else memory.text[:_MEMORY_SHOWN].rstrip() + "…"
        lines.append(f"  – {shown}")
    for note in report.overrides:
        lines.append(text(lang, "ap.card_override", by=note.by_user, number=note.invoice_number,
                          action=text(lang, f"ap.did_{note.action}"),
                          status=text(lang, f"ap.status_{note.agent_status}"), on=show_date(lang, note.on),
                          reason=note.reason))
    lines += _replaces_lines(lang, report)
    lines.append(text(lang, "ap.card_recommendation", recommendation=report.recommendation))
    lines.append(ledger_line(lang, report))
    if report.retained:
        lines.append(text(lang, "ap.card_retained"))
    elif report.retain_queued:
        lines.append(text(lang, "ap.card_retain_queued"))
    return "\n".join(lines)


def _replaces_lines(lang: str, report: DecisionReport) -> list[str]:
    """The earlier invoice a replacement names: superseded by it (or, in a preview, to be), or not found."""
    if report.replaces is None:
        return []
    if report.replaces_unknown is not None:
        return [text(lang, "ap.card_replaces_unknown", number=report.replaces,
                     candidates=", ".join(report.replaces_unknown) or "-")]
    key = "ap.card_replaces_preview" if report.preview else "ap.card_replaces"
    return [text(lang, key, number=report.replaces, state=state_label(lang, report.replaces_state or "decided"))]


def state_label(lang: str, state: str) -> str:
    return text(lang, f"ap.state_{state}")


def ledger_line(lang: str, report: DecisionReport) -> str:
    """Where the invoice stands in the ledger after this run, and what this run did to it (a preview: nothing)."""
    if report.preview or report.ledger_outcome is None:
        return text(lang, "ap.card_preview")
    before = report.ledger_before
    values = {"state": state_label(lang, report.ledger_state or "decided")}
    if before is not None:
        values.update(before_state=state_label(lang, before.state), before_by=before.by,
                      before_on=show_date(lang, before.on), before_total=format_inr(before.total),
                      before_status=text(lang, f"ap.status_{before.agent_status}"))
    if report.copy_of is not None:
        values["number"] = report.copy_of
    values["changed"] = ", ".join(text(lang, f"ap.changed_{c}") for c in report.ledger_changed) or "-"
    return text(lang, f"ap.ledger_{report.ledger_outcome}", **values)


def _match_line(lang: str, report: DecisionReport) -> str:
    """The match summary; a match within tolerance names its variances instead of saying every line agrees."""
    po, grns = report.match.po_number or "-", ", ".join(report.match.grn_numbers) or "-"
    variances = "; ".join(text(lang, "ap.variance_line", item=line.description, over=format_inr(line.price_over),
                               pct=_pct(line.price_over, line.po_unit_price, line.invoiced_quantity),
                               tolerance=report.tolerance_pct)
                          for line in report.match.variances())
    if report.match.status == "matched" and variances:
        return text(lang, "ap.match_matched_variance", po=po, grns=grns, variances=variances)
    return text(lang, f"ap.match_{report.match.status}", po=po, grns=grns)


def _pct(over: Decimal, unit_price: Decimal | None, quantity: Decimal) -> str:
    if not unit_price or not quantity:
        return "-"
    return f"{(over / unit_price / quantity * 100).quantize(Decimal('0.01')).normalize():f}"


def render_refusal(lang: str, refusal: Refusal) -> str:
    values = dict(refusal.values)
    if refusal.reason == "not_invoice":
        kind = values.get("kind", "unknown")
        if kind == "model":
            return text(lang, "ap.refuse_not_invoice_model", detail=values.get("detail", "-"))
        known = f"ap.kind_{kind}"
        label = text(lang, known) if known in catalogue(lang) else kind.replace("_", " ")
        return text(lang, "ap.refuse_not_invoice", kind=label)
    return text(lang, f"ap.refuse_{refusal.reason}", **values)


def decision_reply(turn: Turn, report: DecisionReport) -> Reply:
    if report.copy_of is not None:  # nothing to choose on a copy: the clerk acts on the recorded invoice
        return Reply(text=render_report(turn.lang, report), card_id=report.run_id)
    buttons = [[
        Button(label=turn.t("ap.button_approve"), data=f"{PREFIX}:a:{report.run_id}"),
        Button(label=turn.t("ap.button_hold"), data=f"{PREFIX}:h:{report.run_id}"),
        Button(label=turn.t("ap.button_review"), data=f"{PREFIX}:r:{report.run_id}"),
    ]]
    return Reply(text=render_report(turn.lang, report), buttons=buttons, card_id=report.run_id)


def looks_like_reason(body: str) -> bool:
    """A short reply in words; an invoice, JSON or a command is handled as itself, not taken as a reason."""
    stripped = body.strip()
    if not stripped or stripped.startswith(("{", "/")) or len(stripped) > _REASON_MAX:
        return False
    words = [w for w in stripped.split() if any(ch.isalpha() for ch in w)]
    return len(words) >= _REASON_MIN_WORDS and sum(ch.isalpha() for ch in stripped) >= _REASON_MIN_LETTERS
