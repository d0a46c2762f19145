"""The accounts-payable pack class: invoice -> three-way match -> gated vendor recall -> risk -> decision -> selective retain.

A clerk forwards an invoice (a PDF, a photo, or JSON); the pack answers with a decision card and Approve /
Hold / Send-to-review buttons. Memory holds each vendor's history, past exceptions with their resolutions,
and the blocks, exceptions and review routes the agent made, never routine approvals.
"""

from collections.abc import Iterable
from datetime import date, timedelta

from bot.core.messages import Media, Reply
from bot.services.i18n import text
from bot.services.prompts import bank_profile as pack_bank_profile
from bot.services.registers.seed import import_seed_registers
from handlers.ap import choices, intake, narratives, questions
from handlers.ap.ask_chat import answer_ask
from handlers.ap import cards as card
from handlers.ap.audit import AuditLog
from handlers.ap.chart import payment_chart
from handlers.ap.decision import DecisionReport
from handlers.ap.demo import run_demo
from handlers.ap.intake import IntakeResult
from handlers.ap.ledger import Ledger
from handlers.ap.invoice_memory import invoice_memory, retain_record
from handlers.ap.ledger_store import DecisionBook
from handlers.ap.ledgerview import normalise_number
from handlers.ap.lifecycle import ActResult, ClerkAction, PayResult, overrides
from handlers.ap.legacy import import_legacy_audit
from handlers.ap.models import Invoice, Policy
from handlers.ap.money import masked
from handlers.ap.payments import account_record
from handlers.ap.money import format_inr
from handlers.ap.notes import AdjustmentNote, record_note
from handlers.ap.people import PersonFound, find_person
from handlers.ap.pipeline import PACK, Decider, DecideRequest
from bot.store.registers import RegisterStore
from bot.core.subject_match import SubjectTerms
from handlers.ap.registers import TABLES, Ledgers
from handlers.ap.subjects import APRecordsStore, find_vendors, vendor_store, vendor_terms
from memory.subjects import Subject, SubjectStore
from bot.core.pack import CommandInfo, Pack, SeedReport, Services, Turn, Write
from bot.core.cards import CardSpec
from memory import BankProfile, MemoryClient, MemoryItem

_AUDIT_SHOWN = 12
REASON_WAIT = timedelta(hours=1)
"""How long an override waits for its reason; after that it is dropped, unrecorded, and the clerk told."""


def bank_profile(bank_id: str) -> BankProfile:
    """Return the AP bank's mission and the directives that keep vendors apart."""
    return pack_bank_profile(PACK, bank_id)


async def seed_bank(memory: MemoryClient, bank_id: str, ledger: Ledger) -> SeedReport:
    """Retain each paid vendor's history and each past exception; writes fail loud (no queue for seeds)."""
    await memory.ensure_bank(bank_profile(bank_id))
    items = narratives.seed_memories(ledger)
    report = await memory.retain(bank_id, items)
    kinds = [i.metadata.get("kind", "") for i in items]
    return SeedReport(bank_id=bank_id, retained=report.items,
                      details={"vendor_histories": kinds.count("vendor_history"),
                               "past_exceptions": kinds.count("past_exception")})


class APPack(Pack):
    """Accounts payable: decisions on vendor invoices, with a memory of what normal looks like per vendor."""

    name = PACK

    def __init__(self, services: Services) -> None:
        super().__init__(services)
        self.ledgers = Ledgers(services.database)
        import_legacy_audit(services.database, services.settings.state_dir)
        self.audit = AuditLog(services.database)
        self.book = DecisionBook(services.database)

    def ledger_for(self, tenant: str) -> Ledger:
        """The tenant's own vendors, POs, receipts and payments (cached until they change)."""
        return self.ledgers.for_tenant(tenant).ledger

    def policy_for(self, tenant: str) -> Policy:
        return self.ledgers.for_tenant(tenant).policy

    def decider_for(self, tenant: str) -> Decider:
        """A decider over the tenant's own registers and its recorded ledger of decisions and payments."""
        books = self.ledgers.for_tenant(tenant)
        return Decider(self.services, books.ledger, books.policy, self.audit, book=self.book)

    def subject_terms(self, subject: Subject) -> SubjectTerms | None:
        return vendor_terms(RegisterStore(self.services.database, *TABLES), subject)

    def find_subjects(self, tenant: str, kind: str, query: str) -> list[tuple[str, str]]:
        return find_vendors(RegisterStore(self.services.database, *TABLES), tenant, query) if kind == "vendor" else []

    def subject_stores(self) -> list[SubjectStore]:
        registers = RegisterStore(self.services.database, *TABLES)
        return [vendor_store(registers),
                APRecordsStore(self.services.database, lambda tenant: self.services.bank_of(tenant, self.name))]

    def commands(self) -> list[CommandInfo]:
        return [CommandInfo(command="vendors", description_key="ap.cmd_vendors", reads_memory=False),
                CommandInfo(command="audit", description_key="ap.cmd_audit")]

    def bank_profile(self, bank_id: str) -> BankProfile:
        return bank_profile(bank_id)

    def card_specs(self, tenant: str) -> dict[str, CardSpec]:
        # Decisions are not confirm-before-retain cards: the clerk's buttons are the pack's own (ap:...).
        return {}

    async def decide(self, invoice: Invoice, tenant: str, use_memory: bool = True, user_id: str = "cli",
                     lang: str = "en", record: bool = False) -> DecisionReport:
        """Decide one invoice for a tenant (the CLI, the demo and the chat all come through here).

        Only a recorded decision enters the tenant ledger; the default is a preview that changes nothing there.
        """
        return await self.decider_for(tenant).decide(
            invoice, DecideRequest(tenant=tenant, use_memory=use_memory, user_id=user_id, lang=lang, record=record))

    def memory_records(self, services: Services, tenant: str) -> Iterable[MemoryItem]:
        """Every memory the tenant's AP records say its bank should hold: each paid vendor's history and past
        exception from the registers, and one memory per recorded invoice in its current ledger state (built by
        the same functions the save paths use)."""
        yield from narratives.seed_memories(self.ledger_for(tenant))
        for record in self.book.recorded_entries(tenant):
            yield invoice_memory(record)

    def person(self, tenant: str, written: str) -> PersonFound:
        """The person of the tenant a name given for who does it names (by id or name), if they move invoices."""
        return find_person(self.services.registry.users_of(tenant), written)

    async def act(self, tenant: str, invoice_number: str, vendor_id: str | None, action: ClerkAction, by_user: str,
                  reason: str | None = None) -> ActResult:
        """A clerk's move outside chat (`smriti ap approve|hold|review|reject`): ledger, log, then memory. It is by
        a person of the tenant who moves invoices, recorded by their id (one person is never two approvers)."""
        who = self.person(tenant, by_user)
        if who.problem is not None or who.person is None:
            return ActResult(outcome=who.problem or "who_unknown", who=who)
        by_user = who.person.user_id
        moved = self.book.act(tenant, invoice_number, vendor_id, action, by_user, reason)
        if moved.outcome == "second_needed" and moved.record is not None:
            await retain_record(self.services, self.services.bank_of(tenant, self.name), moved.record)
        if moved.outcome == "moved" and moved.record is not None:
            record = moved.record
            entry = record.entry
            self.book.log(tenant, entry.decision_id or "-", entry.vendor_id, entry.invoice_number, action,
                          record.agent_status, by_user, reason)
            if overrides(record.agent_status, action):
                self.book.log(tenant, entry.decision_id or "-", entry.vendor_id, entry.invoice_number, "override",
                              record.agent_status, by_user, reason)
            await retain_record(self.services, self.services.bank_of(tenant, self.name), record)
        return moved

    async def pay(self, tenant: str, invoice_number: str, vendor_id: str | None, paid_on: date, by_user: str,
                  account: str | None = None) -> PayResult:
        """Mark an invoice paid: to the master's account, or to the one the clerk confirmed in full; by a person
        of the tenant who moves invoices, recorded by their id."""
        who = self.person(tenant, by_user)
        if who.problem is not None or who.person is None:
            return PayResult(outcome=who.problem or "who_unknown", who=who)
        by_user = who.person.user_id
        if paid_on > self.services.clock().date():
            return PayResult(outcome="future_date")
        ledger = self.ledger_for(tenant)

        def master(vendor: str) -> str | None:
            found = ledger.vendor(vendor)
            return found.bank_account.account_number if found else None

        rows = [r for r in self.book.recorded_entries(tenant)
                if r.entry.number_key == normalise_number(invoice_number)
                and (vendor_id is None or r.entry.vendor_id == vendor_id)]
        master_account = master(rows[0].entry.vendor_id) if len(rows) == 1 else None
        result = self.book.mark_paid(tenant, invoice_number, vendor_id, paid_on, by_user, master_account, account)
        if result.outcome == "paid" and result.record is not None:
            await retain_record(self.services, self.services.bank_of(tenant, self.name), result.record)
        return result

    async def on_command(self, turn: Turn, command: str, args: str) -> list[Reply] | None:
        replies = self._command(turn, command, args)
        return None if replies is None else replies + self._still_waiting(turn)

    def _command(self, turn: Turn, command: str, args: str) -> list[Reply] | None:
        if command == "vendors":
            lines = [turn.t("ap.vendors_header")]
            # Payments counted from the ledger view: the seeded history plus invoices marked paid for this tenant.
            known = self.decider_for(turn.user.tenant).view.entries(turn.user.tenant)
            lines += [turn.t("ap.vendor_line", id=v.written_id, name=v.name,
                             payments=account_record(known, v.vendor_id, v.bank_account.account_number).paid,
                             account=masked(v.bank_account.account_number))
                      for v in self.ledger_for(turn.user.tenant).vendors]
            return [Reply(text="\n".join(lines))]
        if command == "audit":
            entries = self.audit.entries(bank_id=turn.bank_id, invoice_number=args.strip() or None,
                                         limit=_AUDIT_SHOWN)
            if not entries:
                return [Reply(text=turn.t("ap.audit_empty"))]
            lines = [turn.t("ap.audit_header")]
            lines += [f"{e.at:%Y-%m-%d %H:%M:%S} {e.invoice_number or '-'} {e.action}" for e in entries]
            return [Reply(text="\n".join(lines))]
        return None

    async def on_text(self, turn: Turn, body: str) -> list[Reply]:
        pending = self.book.pending_reason(turn.user.tenant, turn.user.user_id)
        fresh = pending is not None and turn.services.clock() - pending.asked_at <= REASON_WAIT
        ask = questions.parse(body, turn.services.clock().date()) if not intake.looks_like_document(body) else None
        if pending is not None and fresh and card.looks_like_reason(body) and not intake.looks_like_document(body) \
                and (ask is None or not questions.explicit(ask, body)):
            return await choices.give_reason(turn, self.audit, self.book, pending, body)
        if ask is not None and not body.lstrip().startswith("{"):
            # A move on an earlier invoice by its number, or a question about an invoice or a vendor.
            replies = await answer_ask(turn, ask, self.ledger_for(turn.user.tenant), self.book, self.audit)
            now = self.book.pending_reason(turn.user.tenant, turn.user.user_id)
            asked_now = now is not None and (pending is None or now.run_id != pending.run_id)
            return replies + ([] if asked_now else self._still_waiting(turn))
        return await self._text(turn, body) + self._still_waiting(turn)

    def _still_waiting(self, turn: Turn) -> list[Reply]:
        """Remind a clerk whose override waits for a reason (their other message was handled as itself); an
        ask left unanswered too long is dropped, unrecorded, and they are told so."""
        tenant, user = turn.user.tenant, turn.user.user_id
        pending = self.book.pending_reason(tenant, user)
        run = self.audit.run(pending.run_id) if pending is not None else None
        if pending is None or run is None:
            return []
        values = {"number": run.report.get("invoice_number", "-"), "action": turn.t(f"ap.action_{pending.action}")}
        if turn.services.clock() - pending.asked_at > REASON_WAIT:
            self.book.take_reason(tenant, user, pending.run_id)
            return [Reply(text=turn.t("ap.reason_expired", **values))]
        return [Reply(text=turn.t("ap.reason_still_waiting", **values))]

    async def _text(self, turn: Turn, body: str) -> list[Reply]:
        if body.lstrip().startswith("{"):
            return await self._answer(turn, intake.from_json_text(body))
        if intake.looks_like_document(body):
            # An invoice pasted as text (copied out of a mail or a PDF) is read like a PDF's text layer.
            return await self._answer(turn, await intake.from_text(body, "text", self.ledger_for(turn.user.tenant).data.buyer,
                                                                   self.services.chat))
        return [Reply(text=turn.t("ap.send_invoice"))]

    async def on_media(self, turn: Turn, media: Media) -> list[Reply]:
        return await self._media(turn, media) + self._still_waiting(turn)

    async def _media(self, turn: Turn, media: Media) -> list[Reply]:
        if media.kind in ("voice", "audio"):
            return [Reply(text=turn.t("ap.send_invoice"))]
        limit = self.services.settings.max_media_bytes
        if media.size_bytes > limit:
            return [Reply(text=turn.t("ap.file_too_large", limit_mb=limit // (1024 * 1024)))]
        result = await intake.from_file(media.path, media.mime_type, self.services.reader,
                                        self.ledger_for(turn.user.tenant).data.buyer,
                                        self.services.chat, photo=media.kind == "photo")
        return await self._answer(turn, result)

    async def _answer(self, turn: Turn, result: IntakeResult) -> list[Reply]:
        if result.note is not None:
            return [Reply(text=self._note(turn, result.note))]
        if result.invoice is None:
            refusal = result.refusal or intake.Refusal(reason="unreadable", values={"detail": "-"})
            self.audit.record("-", turn.bank_id, "INVOICE_REFUSED", reason=refusal.reason, **refusal.values)
            return [Reply(text=card.render_refusal(turn.lang, refusal))]
        report = await self.decide(result.invoice, turn.user.tenant, user_id=turn.user.user_id, lang=turn.lang,
                                   record=True)
        reply = card.decision_reply(turn, report)
        if report.status != "PAYMENT_BLOCKED" or report.vendor_id is None:
            return [reply]
        chart = payment_chart(self.ledger_for(turn.user.tenant), result.invoice, report.vendor_id, report.vendor_name, turn.lang,
                              self.services.settings.state_dir / "charts")
        return [reply] if chart is None else [reply.model_copy(update={"image": chart.path})]

    def _note(self, turn: Turn, note: AdjustmentNote) -> str:
        return self.take_note(turn.user.tenant, note, turn.user.user_id, turn.lang)[1]

    def take_note(self, tenant: str, note: AdjustmentNote, by_user: str, lang: str,
                  record: bool = True) -> tuple[bool, str]:
        """A credit or debit note is recorded against the invoice it adjusts, never decided as a bill to pay; a
        preview (`record` False) only says which invoice it is against. Returns (found its invoice, message)."""
        done = record_note(self.book, self.ledger_for(tenant), tenant, note, by_user, write=record)
        if done.outcome == "recorded":  # on the invoice's audit trail too (`ap audit --invoice X`)
            self.audit.record("-", self.services.bank_of(tenant, self.name), "NOTE_RECORDED",
                              invoice_number=done.invoice_number, kind=note.kind, note=note.number or "-",
                              note_date=note.note_date.isoformat() if note.note_date else "-",
                              amount=f"{note.total:f}" if note.total is not None else "-", by=by_user)
        kind = text(lang, f"ap.kind_{note.kind}")
        amount = format_inr(note.total) if note.total is not None else "-"
        return done.outcome in ("recorded", "preview"), text(
            lang, f"ap.note_{done.outcome}", kind=kind, number=note.number or "-", amount=amount,
            vendor=done.vendor_name, invoice=done.invoice_number, candidates=", ".join(done.candidates) or "-")

    async def on_callback(self, turn: Turn, data: str) -> list[Reply]:
        return await choices.on_clerk_choice(turn, self.audit, self.book, data)

    async def load_seeds(self, tenant: str) -> SeedReport:
        """Retain each paid vendor's history and each past exception; re-running replaces, never duplicates."""
        import_seed_registers(self.services.database, tenant, self.name, "handlers.ap")
        return await seed_bank(self.services.memory, self.services.bank_of(tenant, self.name), self.ledger_for(tenant))

    async def demo(self, tenant: str, write: Write) -> None:
        await run_demo(self, tenant, write)


def create_pack(services: Services) -> APPack:
    return APPack(services)
