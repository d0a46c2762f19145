"""A clerk's typed move or question in chat (handlers/ap/questions.py) answered: a move on an earlier invoice by
its number goes through the same path as a card's button (asking why when it overrides the agent); a question
is answered from the ledger, with vendor memory for the story."""

from typing import cast

from bot.core.messages import Reply
from bot.core.pack import Turn
from handlers.ap import answers
from handlers.ap.audit import AuditLog
from handlers.ap.choices import by_number
from handlers.ap.ledger import Ledger
from handlers.ap.ledger_store import DecisionBook
from handlers.ap.lifecycle import ClerkAction
from handlers.ap.questions import Ask


async def answer_ask(turn: Turn, ask: Ask, ledger: Ledger, book: DecisionBook, audit: AuditLog) -> list[Reply]:
    records = book.recorded_entries(turn.user.tenant)
    if ask.intent in ("paid", "problems"):
        found = answers.find_vendor(ledger, ask.vendor_words)
        if found.vendor is None:
            return [Reply(text=answers.unknown_vendor(turn.lang, ledger, ask, found))]
        vendor = found.vendor
        if ask.intent == "paid":
            body = answers.paid_answer(turn.lang, ledger, records, vendor, ask.period)
        else:
            body = answers.problems_answer(turn.lang, ledger, records, vendor,
                                           book.actions(turn.user.tenant, vendor.vendor_id))
        known = answers.payments(ledger, records, vendor.vendor_id) or [
            r for r in records if r.entry.vendor_id == vendor.vendor_id]
        if not known:
            return [Reply(text=body)]  # nothing in the ledger: nothing to tell from memory either
        story = await answers.recalled(turn.services.memory, turn.bank_id, vendor,
                                       "payments, exceptions, holds and overrides")
        return [Reply(text="\n".join([body, *answers.memory_lines(turn.lang, story)]))]
    recorded, history = answers.find_invoices(ledger, records, ask)
    number = ask.number or "-"
    if len(recorded) + len(history) > 1:
        names = ", ".join([f"{r.entry.invoice_number} ({answers.vendor_name(ledger, r.entry.vendor_id)})"
                           for r in recorded] + [f"{p.invoice_number} ({answers.vendor_name(ledger, p.vendor_id)})"
                                                 for p in history])
        return [Reply(text=turn.t("ap.ask_which_invoice", number=number, candidates=names))]
    if not recorded and not history:
        return [Reply(text=turn.t("ap.ask_no_invoice", number=number))]
    if ask.intent == "state":
        said = (answers.state_answer(turn.lang, ledger, recorded[0], book.notes_on(
                    turn.user.tenant, recorded[0].entry.vendor_id, recorded[0].entry.invoice_number)) if recorded
                else answers.history_answer(turn.lang, ledger, history[0]))
        return [Reply(text=said)]
    if not recorded:
        return [Reply(text=turn.t("ap.ask_history_closed", number=history[0].invoice_number))]
    return await by_number(turn, audit, book, recorded[0], cast(ClerkAction, ask.intent), ask.reason)
