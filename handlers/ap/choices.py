"""What a clerk's press on a decision card does: the invoice's ledger entry moves (lifecycle.py), the move is
audited and logged with who and why, and the invoice's one memory is replaced to say the new state.

Approve over a block, an exception or a review first asks "why?" (kept per person until the reply comes);
without a reason nothing moves. A card the invoice has since been decided again past moves nothing and says
so; a paid or rejected invoice moves no more. Hold is shown as a hold and Send to review as a review, never as
an approval.
"""

import logging
from typing import cast

from bot.core.messages import Button, Reply
from bot.core.pack import Turn
from handlers.ap.audit import AuditLog, RunRecord
from handlers.ap.cards import ACTIONS, PREFIX, state_label
from handlers.ap.decision import DecisionReport
from handlers.ap.invoice_memory import retain_record
from handlers.ap.ledger_store import DecisionBook
from handlers.ap.lifecycle import (
    ClerkAction,
    RecordedEntry,
    lifts_others_hold,
    may_act,
    overrides,
    reason_required,
    same_person,
)
from handlers.ap.reason_asks import PendingReason

log = logging.getLogger(__name__)


def _vendor_key(report: DecisionReport) -> str:
    return report.vendor_id or "UNREGISTERED"


async def on_clerk_choice(turn: Turn, audit: AuditLog, book: DecisionBook, data: str) -> list[Reply]:
    """A press on Approve / Hold / Send to review; an approval over the agent first asks for the reason."""
    parts = data.split(":")
    if len(parts) != 3 or parts[0] != PREFIX or parts[1] not in ACTIONS:
        return [Reply(text=turn.t("core.card_gone"))]
    action, run_id = cast(ClerkAction, ACTIONS[parts[1]]), parts[2]
    run = audit.run(run_id)
    if run is None:
        return [Reply(text=turn.t("core.card_gone"))]
    if run.user_id != turn.user.user_id or run.bank_id != turn.bank_id:
        return [Reply(text=turn.t("core.card_not_yours"))]
    report = DecisionReport.model_validate(run.report)
    current = book.recorded(turn.user.tenant, _vendor_key(report), report.invoice_number)
    if current is None:
        return [Reply(text=turn.t("core.card_gone"))]
    if reason_required(current, action, turn.user.user_id) and may_act(current.state, action) \
            and current.agent_status == report.status:
        book.ask_reason(turn.user.tenant, turn.user.user_id, run_id, action)
        return [Reply(text=_why(turn, current, action))]
    return await record_choice(turn, audit, book, run, report, action, None)


def _why(turn: Turn, record: RecordedEntry, action: ClerkAction) -> str:
    """Ask for the reason: over another person's hold (named, with their reason), else over the agent."""
    values = {"action": turn.t(f"ap.action_{action}"), "number": record.entry.invoice_number,
              "status": turn.t(f"ap.status_{record.agent_status}")}
    if lifts_others_hold(record.state, record.state_by, action, turn.user.user_id):
        return turn.t("ap.reason_ask_hold", holder=record.state_by, held=record.state_reason or "-", **values)
    return turn.t("ap.reason_ask", **values)


async def by_number(turn: Turn, audit: AuditLog, book: DecisionBook, record: RecordedEntry, action: ClerkAction,
                    reason: str | None) -> list[Reply]:
    """A move typed in chat on an earlier invoice ("approve SVC/26-27/187"): any clerk of the tenant, on the
    invoice's latest decision, asking why first when it overrides the agent and no reason came with it."""
    run = audit.run(record.entry.decision_id or "-")
    if run is None or run.bank_id != turn.bank_id:
        return [Reply(text=turn.t("ap.ask_no_invoice", number=record.entry.invoice_number))]
    report = DecisionReport.model_validate(run.report)
    asked_already = record.maker_by is not None and same_person(record.maker_by, turn.user.user_id)
    if not reason and reason_required(record, action, turn.user.user_id) and may_act(record.state, action) \
            and not (action == "approve" and asked_already):
        book.ask_reason(turn.user.tenant, turn.user.user_id, run.run_id, action)
        return [Reply(text=_why(turn, record, action))]
    return await record_choice(turn, audit, book, run, report, action, " ".join(reason.split()) if reason else None)


async def give_reason(turn: Turn, audit: AuditLog, book: DecisionBook, pending: PendingReason,
                      reason: str) -> list[Reply]:
    """The clerk's reply to "why?": the override waiting for it is recorded now, with the reason."""
    run = audit.run(pending.run_id)
    if run is None or not book.take_reason(turn.user.tenant, turn.user.user_id, pending.run_id):
        return [Reply(text=turn.t("core.card_gone"))]
    report = DecisionReport.model_validate(run.report)
    return await record_choice(turn, audit, book, run, report, cast(ClerkAction, pending.action),
                               " ".join(reason.split()))


async def record_choice(turn: Turn, audit: AuditLog, book: DecisionBook, run: RunRecord, report: DecisionReport,
                        action: ClerkAction, reason: str | None) -> list[Reply]:
    """Move the invoice's entry by this choice, audit and log it, and replace the invoice's memory."""
    tenant, vendor_key, user = turn.user.tenant, _vendor_key(report), turn.user.user_id
    book.take_reason(tenant, user, run.run_id)  # a choice made another way ends the wait for "why?"
    held = book.recorded(tenant, vendor_key, report.invoice_number)
    moved = book.act(tenant, report.invoice_number, vendor_key, action, user, reason,
                     run=(report.status, report.content_key))
    values = {"action": turn.t(f"ap.action_{action}"), "number": report.invoice_number,
              "status": turn.t(f"ap.status_{report.status}")}
    record = moved.record
    if record is not None:
        values.update(state=state_label(turn.lang, record.state), by=record.state_by,
                      current=turn.t(f"ap.status_{record.agent_status}"))
    if moved.outcome == "reason_needed":
        book.ask_reason(tenant, user, run.run_id, action)
        if held is not None:
            return [Reply(text=_why(turn, held, action))]
    if moved.outcome == "second_needed" and record is not None:
        return await _approval_asked(turn, audit, run, report, record, values)
    if moved.outcome != "moved" or record is None:
        key = {"same": "ap.choice_already", "closed": "ap.choice_closed", "stale": "ap.choice_stale",
               "reason_needed": "ap.reason_ask", "same_person": "ap.choice_same_person"}.get(moved.outcome,
                                                                                           "core.card_gone")
        if moved.outcome == "same" and action == "release":
            key = "ap.act_not_held"  # nothing on hold: "already approved" would not say why nothing moved
        if record is not None and record.maker_by:
            values.update(maker=record.maker_by)
        return [Reply(text=turn.t(key, **values))]
    over = overrides(report.status, action)
    audit.record(run.run_id, run.bank_id, "CLERK_ACTION", vendor_id=report.vendor_id,
                 invoice_number=report.invoice_number, action=action, clerk=user, agent_status=report.status,
                 overrides=over, reason=reason, state=record.state)
    book.log(tenant, run.run_id, vendor_key, report.invoice_number, action, report.status, user, reason)
    if over:
        book.log(tenant, run.run_id, vendor_key, report.invoice_number, "override", report.status, user, reason)
    kept = await retain_record(turn.services, run.bank_id, record)
    audit.record(run.run_id, run.bank_id, kept.step, vendor_id=report.vendor_id,
                 invoice_number=report.invoice_number, document_id=kept.document_id, state=record.state)
    memory = {"AGENT_MEMORY_RETAINED": "ap.choice_remembered", "AGENT_MEMORY_QUEUED": "ap.choice_memory_queued"}
    lines = [turn.t("ap.choice_moved" if not over else "ap.choice_moved_override", **values)]
    if held is not None and lifts_others_hold(held.state, held.state_by, action, user):
        lines.append(turn.t("ap.choice_hold_lifted", holder=held.state_by, held=held.state_reason or "-",
                            reason=reason or "-"))
    lines.append(turn.t(memory.get(kept.step, "ap.choice_memory_failed"), vendor=report.vendor_name))
    buttons = [[Button(label=turn.t("ap.button_release"), data=f"{PREFIX}:l:{run.run_id}")]] \
        if record.state == "held" else []
    return [Reply(text="\n".join(lines), buttons=buttons)]


async def _approval_asked(turn: Turn, audit: AuditLog, run: RunRecord, report: DecisionReport,
                          record: RecordedEntry, values: dict[str, str]) -> list[Reply]:
    """The first of two people asked to approve over a bank block: audited, remembered, and the clerk told a
    second person must approve."""
    audit.record(run.run_id, run.bank_id, "CLERK_ACTION", vendor_id=report.vendor_id,
                 invoice_number=report.invoice_number, action="approval_asked", clerk=record.maker_by,
                 agent_status=report.status, overrides=True, reason=record.maker_reason, state=record.state)
    kept = await retain_record(turn.services, run.bank_id, record)
    audit.record(run.run_id, run.bank_id, kept.step, vendor_id=report.vendor_id,
                 invoice_number=report.invoice_number, document_id=kept.document_id, state=record.state)
    return [Reply(text=turn.t("ap.choice_second_needed", **{**values, "maker": record.maker_by or "-"}))]
