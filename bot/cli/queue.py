"""`smriti queue list | retry [ID] | drop ID | resend [KEY]`: see and recover what could not be processed yet, the
deliveries a transport gave up on, and the replies not delivered (waiting to be sent, given up, or flagged by
WhatsApp as undelivered); `resend` puts given-up replies back for the running workers to send."""

import argparse
from collections.abc import Awaitable, Callable
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from bot.settings import Settings

if TYPE_CHECKING:
    from bot.core.app import App

STUCK_S = 60.0
"""A kept delivery not handled after this long is shown as stuck."""
WithApp = Callable[[Settings, Callable[["App"], Awaitable[int]]], Awaitable[int]]


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]", with_app: WithApp) -> None:
    queue = sub.add_parser("queue", help="list, retry or drop items that are not processed yet")
    queue.add_argument("action", choices=["list", "retry", "drop", "resend"],
                       help="resend: send given-up replies again (all, or one answer's KEY or KEY#POSITION)")
    queue.add_argument("intake_id", nargs="?", default=None,
                       help="an intake id or an inbox delivery id (retry: default all), or a reply key (resend)")
    queue.add_argument("--all", action="store_true", help="list: include processed items")

    async def handler(args: argparse.Namespace, settings: Settings) -> int:
        return await with_app(settings, lambda app: _run(app, args))

    queue.set_defaults(handler=handler)


async def _run(app: "App", args: argparse.Namespace) -> int:
    from bot.core.intake import UNPROCESSED
    from bot.store.reply_outbox import UNDELIVERED
    from bot.core.worker import IntakeWorker

    intake = app.services.intake
    if args.action == "list":
        items = intake.listing(None if args.all else UNPROCESSED)
        pending = app.services.outbox.pending()
        replies = app.services.replies.outbox.listing(UNDELIVERED)
        now = datetime.now(timezone.utc)
        inbox = [entry for entry in app.services.state.inbox_waiting()
                 if entry.failed_at is not None or (now - entry.received_at).total_seconds() >= STUCK_S]
        if not items and not pending and not replies and not inbox:
            print("Nothing waiting.")
        for entry in inbox:
            if entry.failed_at is not None:
                # The transport tried it a bounded number of times and gave up; the sender was told.
                print(f"inbox {entry.channel:<9} {entry.key} received {entry.received_at:%Y-%m-%d %H:%M} failed after "
                      f"{entry.attempts} attempts: {entry.last_error or '?'}")
                continue
            # Acknowledged to the provider, not handled: a worker that stopped, or one that is still starting.
            print(f"inbox {entry.channel:<9} {entry.key} received {entry.received_at:%Y-%m-%d %H:%M} not handled for "
                  f"{(now - entry.received_at).total_seconds() / 60:.0f} min")
        for item in items:
            kind = item.incoming.media.kind if item.incoming.media else ("button" if item.incoming.callback else "text")
            when = f"next try {item.next_attempt_at:%Y-%m-%d %H:%M}" if item.next_attempt_at else \
                ("when an engine is set up" if item.state == "held" else "")
            print(f"{item.intake_id}  {item.state:<10} {kind:<8} {item.user_id:<10} {item.incoming.transport:<9} "
                  f"received {item.received_at:%Y-%m-%d %H:%M} attempts {item.attempts} {item.last_error or ''} "
                  f"{when}".rstrip())
        for row in replies:
            when = f" next try {row.next_attempt_at:%Y-%m-%d %H:%M}" if row.next_attempt_at else ""
            print(f"reply {row.state:<8} {row.key}#{row.position} {row.purpose} to {row.user_id} on {row.transport} "
                  f"attempts {row.attempts} {row.last_error or ''}{when}".rstrip())
        for queued in pending:
            print(f"retain queued: {queued.bank_id} {queued.item.document_id} "
                  f"(event {queued.item.event_time.date()}, attempts {queued.attempts})")
        return 0
    state = app.services.state
    if args.action == "drop":
        if args.intake_id and state.inbox_drop(args.intake_id):
            print(f"Dropped the kept delivery {args.intake_id}.")
            return 0
        if not args.intake_id or not intake.drop(args.intake_id):
            print("No such unprocessed item.")
            return 2
        print(f"Dropped {args.intake_id}.")
        return 0
    if args.action == "resend":
        return _resend(app, args.intake_id)
    if args.intake_id and state.inbox_retry(args.intake_id):
        print(f"The kept delivery {args.intake_id} is queued again: a running worker takes it within seconds.")
        return 0
    targets = [args.intake_id] if args.intake_id else \
        [i.intake_id for i in intake.listing(("waiting", "failed", "held"))]
    for intake_id in targets:
        intake.make_due(intake_id)
    report = await IntakeWorker(app.conversation).run_once()
    print(f"Processed {report.processed}, replies sent {report.delivered} (failed {report.reply_failures}), "
          f"retains flushed {report.flushed} "
          f"(still queued {report.still_queued}), interrupted saves finished {report.resumed_cards}.")
    return 0


def _resend(app: "App", which: str | None) -> int:
    """Put given-up (failed or flagged) replies back to pending, tries counted afresh; the running workers' next
    pass sends them (this command has no transport of its own to send through)."""
    from bot.store.reply_outbox import OutgoingReply

    outbox = app.services.replies.outbox

    def chosen(row: OutgoingReply) -> bool:
        return which is None or which in (row.key, f"{row.key}#{row.position}")

    rows = [row for row in outbox.listing(("failed", "flagged")) if chosen(row)]
    if not rows:
        print("No given-up reply" + (f" for {which}." if which else "s."))
        return 2 if which else 0
    for row in rows:
        outbox.send_again(row)
    print(f"{len(rows)} repl{'y' if len(rows) == 1 else 'ies'} put back to be sent: the running workers send them "
          f"within their next pass (SMRITI_WORKER_INTERVAL_S, 15 s by default).")
    return 0
