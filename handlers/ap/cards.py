"""The decision card a clerk sees in chat, its Approve / Hold / Send-to-review buttons, and their answers.

Button data is `ap:<a|h|r>:<run id>`. A clerk's choice is recorded once, in the audit log and the tenant ledger;
when it differs from what the agent decided, it is retained as a resolution so later invoices from the vendor can
learn it. Approving over the agent first asks for a reason (kept as a pending answer for that person): without
one nothing is recorded.
"""

import logging
from decimal import Decimal

from bot.services.i18n import catalogue, show_date, text
from bot.core.messages import Button, Reply
from handlers.ap import narratives
from handlers.ap.audit import AuditLog, RunRecord
from handlers.ap.decision import DecisionReport
from handlers.ap.intake import Refusal
from handlers.ap.ledger_store import DecisionBook, PendingReason
from handlers.ap.money import format_inr
from bot.core.pack import Turn
from memory import MemoryLayerError

log = logging.getLogger(__name__)

PREFIX = "ap"
ACTIONS = {"a": "approve", "h": "hold", "r": "review"}
AGREEING_ACTION = {"APPROVE": "approve", "PAYMENT_BLOCKED": "hold", "EXCEPTION": "hold", "HUMAN_REVIEW": "review"}
"""The clerk action that goes along with each agent status; any other choice overrides the agent."""

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
                          status=text(lang, f"ap.status_{note.agent_status}"), on=show_date(lang, note.on),
                          reason=note.reason))
    lines.append(text(lang, "ap.card_recommendation", recommendation=report.recommendation))
    if report.retained:
        lines.append(text(lang, "ap.card_retained"))
    elif report.retain_queued:
        lines.append(text(lang, "ap.card_retain_queued"))
    return "\n".join(lines)


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
    buttons = [[
        Button(label=turn.t("ap.button_approve"), data=f"{PREFIX}:a:{report.run_id}"),
        Button(label=turn.t("ap.button_hold"), data=f"{PREFIX}:h:{report.run_id}"),
        Button(label=turn.t("ap.button_review"), data=f"{PREFIX}:r:{report.run_id}"),
    ]]
    return Reply(text=render_report(turn.lang, report), buttons=buttons, card_id=report.run_id)


def needs_reason(report: DecisionReport, action: str) -> bool:
    """Approving over an exception, a review route or a block is an override that must say why."""
    return action == "approve" and report.status != "APPROVE"


def looks_like_reason(body: str) -> bool:
    """A short reply in words; an invoice, JSON or a command is handled as itself, not taken as a reason."""
    stripped = body.strip()
    if not stripped or stripped.startswith(("{", "/")) or len(stripped) > _REASON_MAX:
        return False
    words = [w for w in stripped.split() if any(ch.isalpha() for ch in w)]
    return len(words) >= _REASON_MIN_WORDS and sum(ch.isalpha() for ch in stripped) >= _REASON_MIN_LETTERS


async def on_clerk_choice(turn: Turn, audit: AuditLog, book: DecisionBook, data: str) -> list[Reply]:
    """Record the clerk's choice once; an approval over the agent first asks for the reason."""
    parts = data.split(":")
    if len(parts) != 3 or parts[0] != PREFIX or parts[1] not in ACTIONS:
        return [Reply(text=turn.t("core.card_gone"))]
    action, run_id = ACTIONS[parts[1]], parts[2]
    run = audit.run(run_id)
    if run is None:
        return [Reply(text=turn.t("core.card_gone"))]
    if run.user_id != turn.user.user_id or run.bank_id != turn.bank_id:
        return [Reply(text=turn.t("core.card_not_yours"))]
    if run.clerk_action:
        return [Reply(text=turn.t("ap.choice_already", action=turn.t(f"ap.action_{run.clerk_action}")))]
    report = DecisionReport.model_validate(run.report)
    if needs_reason(report, action):
        book.ask_reason(turn.user.tenant, turn.user.user_id, run_id, action)
        return [Reply(text=turn.t("ap.reason_ask", action=turn.t(f"ap.action_{action}"), number=report.invoice_number,
                                  status=turn.t(f"ap.status_{report.status}")))]
    return await record_choice(turn, audit, book, run, report, action, None)


async def give_reason(turn: Turn, audit: AuditLog, book: DecisionBook, pending: PendingReason,
                      reason: str) -> list[Reply]:
    """The clerk's reply to "why?": the override waiting for it is recorded now, with the reason."""
    run = audit.run(pending.run_id)
    if run is None or not book.take_reason(turn.user.tenant, turn.user.user_id, pending.run_id):
        return [Reply(text=turn.t("core.card_gone"))]
    report = DecisionReport.model_validate(run.report)
    return await record_choice(turn, audit, book, run, report, pending.action, " ".join(reason.split()))


async def record_choice(turn: Turn, audit: AuditLog, book: DecisionBook, run: RunRecord, report: DecisionReport,
                        action: str, reason: str | None) -> list[Reply]:
    """Record the choice in the audit log and the tenant ledger; retain an override as a resolution."""
    action_label = turn.t(f"ap.action_{action}")
    if not audit.claim_clerk_action(run.run_id, action, turn.user.user_id):
        earlier = audit.run(run.run_id)
        done = earlier.clerk_action if earlier and earlier.clerk_action else action
        return [Reply(text=turn.t("ap.choice_already", action=turn.t(f"ap.action_{done}")))]
    overrides = AGREEING_ACTION[report.status] != action
    audit.record(run.run_id, run.bank_id, "CLERK_ACTION", vendor_id=report.vendor_id,
                 invoice_number=report.invoice_number, action=action, clerk=turn.user.user_id,
                 agent_status=report.status, overrides=overrides, reason=reason)
    tenant, vendor_key = turn.user.tenant, report.vendor_id or "UNREGISTERED"
    book.log(tenant, run.run_id, vendor_key, report.invoice_number, action, report.status,  # type: ignore[arg-type]
             turn.user.user_id, reason)
    if overrides:
        book.log(tenant, run.run_id, vendor_key, report.invoice_number, "override", report.status, turn.user.user_id,
                 reason)
    book.set_clerk_action(tenant, vendor_key, report.invoice_number, action, run.run_id)
    book.take_reason(tenant, turn.user.user_id, run.run_id)  # a choice made another way ends the wait for "why?"
    status = turn.t(f"ap.status_{report.status}")
    if not overrides:
        return [Reply(text=turn.t("ap.choice_agrees", action=action_label, status=status))]
    item = narratives.resolution_memory(report, action, turn.user.name, turn.services.clock(), reason=reason)
    try:
        outcome = await turn.services.outbox.retain_or_queue(turn.services.memory, run.bank_id, [item])
    except MemoryLayerError as exc:
        log.warning("memory refused a clerk resolution: %s", type(exc).__name__)
        return [Reply(text=turn.t("ap.choice_override_failed", action=action_label, status=status))]
    audit.record(run.run_id, run.bank_id, "RESOLUTION_RETAINED" if outcome.fully_stored else "RESOLUTION_QUEUED",
                 vendor_id=report.vendor_id, invoice_number=report.invoice_number, document_id=item.document_id)
    key = "ap.choice_override" if outcome.fully_stored else "ap.choice_override_queued"
    return [Reply(text=turn.t(key, action=action_label, status=status, vendor=report.vendor_name))]
