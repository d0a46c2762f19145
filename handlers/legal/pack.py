"""The legal pack: uploads become confirmed hearing entries; questions are answered by hearing date."""

import hashlib
import re
import logging
import secrets
from collections.abc import Iterable
from datetime import date
from pathlib import Path

from bot.services.i18n import counted, show_date
from bot.core.messages import Media, Reply
from bot.services.prompts import bank_profile
from bot.services.registers.seed import import_seed_registers
from bot.core.pack import CommandInfo, Pack, SeedReport, Services, Turn, Write
from bot.core.cards import CardSpec, open_card
from handlers.legal.ask import ask, render_answer
from handlers.legal.backlog import load_chat_memories, render_backlog, upload_id_of
from handlers.legal.cards import (
    SAVE_ALL_PREFIX,
    HearingCard,
    card_payload,
    save_all,
    save_all_button,
)
from handlers.legal import did_you_mean
from handlers.legal.case_card import NewCaseCard, case_card_payload
from handlers.legal.corrections import DELETE_PREFIX, KEEP_PREFIX, ORIGIN, delete_saved
from handlers.legal.edit_saved import EDIT_PREFIX, edit_button, edit_callback, edit_command
from handlers.legal.when import days_named, listing_question
from handlers.legal.entries import EntryStore
from handlers.legal.extract import ReadCache, extract_file, split
from handlers.legal.ingest import (
    BacklogError,
    BacklogIngest,
    IngestReport,
    Progress,
    Reviewer,
    load_backlog_dir,
    progress_bar,
)
from handlers.legal.models import CaseRecord, HearingRecord, ProposedEntry, Upload
from handlers.legal.newcase import NewCase, cited_case, parse_case
from handlers.legal.question import looks_like_question
from handlers.legal.casebook import CaseBook
from handlers.legal.records import chat_record, memory_item
from handlers.legal.register import CaseRegister
from handlers.legal.registers import CaseRegisters
from handlers.legal.subjects import EntrySubjectStore, case_store, case_terms, find_cases
from handlers.legal.timeline import timeline_chart
from handlers.legal.examples import case_line, example_case, help_examples
from handlers.legal.today import cause_list, render_cause_list
from memory import BankProfile, MemoryItem, MemoryUnavailable, ids
from memory.asof import IST
from memory.subjects import Subject, SubjectStore
from bot.core.subject_match import SubjectTerms

log = logging.getLogger(__name__)

_REMEMBER_WORDS = ("please remember ", "remember that ", "remember: ", "remember ")
# "/remember general: ..." keeps a line about no case, said so by the person (never by default).
_GENERAL = re.compile(r"^\s*(?:general|no\s+case|office|practice|సాధారణం|కేసు\s+లేదు)\s*[:\-–—]\s*", re.I)


def remembered_case(register: CaseRegister, said: str) -> CaseRecord | list[CaseRecord]:
    """The case a line to remember is about, named as a note or a question names it (its number, name, or a
    party's own name anywhere: "client Yadagiri says ..."); else the cases to ask between (the ones it names,
    or the nearest by name)."""
    mentions = register.mentions(said)
    named = list(dict.fromkeys(m.case_id for m in mentions))
    numbered = list(dict.fromkeys(m.case_id for m in mentions if m.by == "number"))
    if len(named) > 1 and len(numbered) == 1:
        named = numbered  # "O.S. 118/2024: Ramesh says ...": the number names the case, a name may be a person
    if named:
        cases = [c for c in (register.get(i) for i in named) if c is not None]
        return cases[0] if len(cases) == 1 else cases
    party = register.asked_about(said)
    if party is not None and (case := register.get(party.case_id)) is not None:
        return case
    return register.near(said)


def typed_step(entry: ProposedEntry) -> ProposedEntry:
    """A step typed in chat with no date of its own (an office note: "served counter copy, reply due 7/1") is
    done the day it is typed: its date is the message's, not a guess to be set first. A hearing typed without
    a date stays a guess (the sitting may have been days before)."""
    if entry.kind != "step" or entry.date_source != "upload_time":
        return entry
    return entry.model_copy(update={"date_source": "text", "confidence": max(entry.confidence, 0.8)
                                    if entry.case_id else entry.confidence})


class LegalPack(Pack):
    name = "legal"

    def __init__(self, services: Services) -> None:
        super().__init__(services)
        self.registers = CaseRegisters(services.database)
        self.entries = EntryStore(services.database)
        self._card = HearingCard(self.register_for, self._add_case, self.entries)
        self._case_card = NewCaseCard(self.register_for, self._add_case)

    def _add_case(self, tenant: str, case: CaseRecord) -> None:
        """Write a case confirmed on a card into the tenant's register (every process sees it on its next read)."""
        self.registers.add(tenant, [case])
        log.info("a case was added to a tenant's register from a card")

    def register_for(self, tenant: str) -> CaseRegister:
        """Return a tenant's own case register (cached until its cases change)."""
        return self.registers.for_tenant(tenant)

    def subject_terms(self, subject: Subject) -> SubjectTerms | None:
        return case_terms(self.registers.store, subject)

    def find_subjects(self, tenant: str, kind: str, query: str) -> list[tuple[str, str]]:
        return find_cases(self.registers.store, tenant, query) if kind == "case" else []

    def subject_stores(self) -> list[SubjectStore]:
        return [case_store(self.registers.store), EntrySubjectStore(self.entries)]

    def memory_records(self, services: Services, tenant: str) -> Iterable[MemoryItem]:
        """Every memory the tenant's entries say its bank should hold, built as Save builds it."""
        register = self.register_for(tenant)
        for record in self.entries.all(tenant):
            case = register.get(record.case_id)
            if case is not None or record.kind == "chat_memory":
                yield memory_item(record, case)

    def commands(self) -> list[CommandInfo]:
        return [CommandInfo(command=c, description_key=f"legal.command_{c}", reads_memory=c != "cases")
                for c in ("today", "ask", "history", "timeline", "remember", "cases", "case", "edit")]

    def bank_profile(self, bank_id: str) -> BankProfile:
        return bank_profile(self.name, bank_id)

    def card_specs(self, tenant: str) -> dict[str, CardSpec]:
        return {self._card.kind: self._card, self._case_card.kind: self._case_card}

    async def on_command(self, turn: Turn, command: str, args: str) -> list[Reply] | None:
        register = self.register_for(turn.user.tenant)
        if command == "today":
            return [await self._today(turn, register, args)]
        if command == "ask":
            if not args:
                return [Reply(text=turn.t("legal.ask_usage", case=example_case(turn.lang, register)))]
            return [await self._answer(turn, register, args)]
        if command == "history":
            if not args:
                return [Reply(text=turn.t("legal.history_usage", case=example_case(turn.lang, register)))]
            return [await self._answer(turn, register, f"history of {args}")]
        if command == "timeline":
            if not args:
                return [Reply(text=turn.t("legal.timeline_usage", case=example_case(turn.lang, register)))]
            return [await self._timeline(turn, register, args)]
        if command == "remember":
            return [await self._remember(turn, register, args)]
        if command == "case":
            return [self._case_add(turn, args)]
        if command == "edit":
            return [edit_command(turn, self._card, self.entries, register, args)]
        if command == "cases":
            lines = [turn.t("legal.cases_header", count=len(register))]
            lines += [case_line(turn.lang, c) for c in register.cases]
            return [Reply(text="\n".join(lines), lists_many=True)]
        return None

    def help_examples(self, turn: Turn) -> list[str]:
        return help_examples(turn.lang, self.register_for(turn.user.tenant))

    async def on_text(self, turn: Turn, body: str) -> list[Reply]:
        register = self.register_for(turn.user.tenant)
        lowered = body.strip().lower()
        for word in _REMEMBER_WORDS:
            if lowered.startswith(word):
                return [await self._remember(turn, register, body.strip()[len(word):])]
        if looks_like_question(body):
            return [await self._answer(turn, register, body)]
        upload = Upload(upload_id="t" + hashlib.sha256(body.encode("utf-8")).hexdigest()[:12],
                        source_file=f"chat message {turn.incoming.received_at.astimezone(IST):%d %b %Y %H:%M}",
                        uploaded_at=turn.incoming.received_at, author=turn.user.name, author_id=turn.user.user_id)
        extraction = await split(self.services, body, register, upload)
        extraction = extraction.model_copy(update={"entries": [typed_step(e) for e in extraction.entries]})
        proposals = self._proposals(register, extraction.entries, extraction.text)
        if not extraction.entries or all(e.case_id is None and proposals.get(i) is None
                                         for i, e in enumerate(extraction.entries)):
            return [Reply(text=turn.t("legal.text_not_understood"))]
        return self._cards(turn, upload, extraction.entries, proposals)

    async def on_media(self, turn: Turn, media: Media) -> list[Reply]:
        if media.kind in ("voice", "audio"):
            return [Reply(text=turn.t("legal.voice_unsupported"))]
        register = self.register_for(turn.user.tenant)
        data = media.path.read_bytes()
        upload = Upload(upload_id=upload_id_of(data), source_file=media.file_name or media.path.name,
                        uploaded_at=turn.incoming.received_at, author=turn.user.name, author_id=turn.user.user_id)
        try:
            extraction = await extract_file(self.services, media.path, register, upload, media.mime_type)
        except ValueError as exc:
            return [Reply(text=turn.t("legal.upload_unreadable", reason=str(exc)))]
        if not extraction.entries:
            return [Reply(text=turn.t("legal.upload_no_entries"))]
        return self._cards(turn, upload, extraction.entries,
                           self._proposals(register, extraction.entries, extraction.text))

    async def on_callback(self, turn: Turn, data: str) -> list[Reply]:
        if data.startswith(SAVE_ALL_PREFIX):
            return await save_all(turn, self._card, data[len(SAVE_ALL_PREFIX):])
        if data.startswith(did_you_mean.PREFIX):
            return [await did_you_mean.answer(turn, self._card, data)]
        if data.startswith(DELETE_PREFIX):
            return [await delete_saved(turn, data[len(DELETE_PREFIX):])]
        if data.startswith(KEEP_PREFIX):
            return [Reply(text=turn.t("legal.kept"))]
        if data.startswith(EDIT_PREFIX):
            return [edit_callback(turn, self._card, self.entries, data)]
        return await super().on_callback(turn, data)

    @staticmethod
    def _proposals(register: CaseRegister, entries: list[ProposedEntry], page: str) -> dict[int, NewCase | None]:
        """For each entry filed under no case: the case number it (or its page) cites that the register does
        not know, proposed on its card instead of dropping the entry."""
        return {i: cited_case(e.text, page, register) for i, e in enumerate(entries) if e.case_id is None}

    def _case_add(self, turn: Turn, args: str) -> Reply:
        """`/case add O.S. 311/2024 Pendyala v Kommineni, Vikarabad`: a card; Save adds the case."""
        verb, _, rest = args.strip().partition(" ")
        new = parse_case(rest) if verb.lower() == "add" else None
        if new is None:
            return Reply(text=turn.t("legal.case_usage"))
        payload = case_card_payload(new, turn.user.tenant, turn.lang)
        return open_card(turn, self._case_card, payload, intro=turn.t("legal.case_intro"))

    def _cards(self, turn: Turn, upload: Upload, entries: list[ProposedEntry],
               proposals: dict[int, NewCase | None] | None = None) -> list[Reply]:
        batch = secrets.token_hex(4)
        replies = [Reply(text=turn.t("legal.upload_found", count=len(entries), file=upload.source_file))]
        order = sorted(range(len(entries)), key=lambda i: (entries[i].hearing_date, entries[i].case_id or ""))
        register = self.register_for(turn.user.tenant)
        known = 0
        for index in order:
            origin = ids.hearing(upload.upload_id, entries[index].case_id, entries[index].hearing_date) \
                if entries[index].case_id else None
            saved = self.entries.get(turn.user.tenant, origin) if origin else None
            if saved is not None:  # the same page sent again: its entry stays as saved (and as corrected)
                replies.append(self._already_saved(turn, register, saved))
                known += 1
                continue
            new = (proposals or {}).get(index)
            near = register.near_number(new.number) if new is not None else None
            payload = card_payload(upload, entries[index], turn.user.tenant, batch, turn.lang, new, near)
            if origin:
                payload[ORIGIN] = origin
            card = open_card(turn, self._card, payload)
            replies.append(card)
            if new is not None and near is not None and card.card_id is not None:
                replies.append(did_you_mean.question(turn, card.card_id, new.number, near))
        ready = sum(1 for e in entries if not e.needs_review) - known
        if len(entries) - known > 1 and ready > 0:
            replies.append(Reply(text=turn.t("legal.save_all_hint", ready=ready, held=len(entries) - ready),
                                 buttons=save_all_button(turn, batch, ready)))
        return replies

    def _already_saved(self, turn: Turn, register: CaseRegister, saved: HearingRecord) -> Reply:
        corrected = any(a.action == "edit" for a in self.entries.audit(turn.user.tenant, saved.document_id))
        case = register.get(saved.case_id)
        return Reply(text=turn.t("legal.already_saved_corrected" if corrected else "legal.already_saved",
                                 case=case.label if case else saved.case_id,
                                 date=show_date(turn.lang, saved.hearing_date),
                                 next=show_date(turn.lang, saved.next_date) if saved.next_date else "-",
                                 file=saved.source_file),
                     buttons=edit_button(turn, saved.document_id))

    async def _answer(self, turn: Turn, register: CaseRegister, question: str) -> Reply:
        days = listing_question(question, self.services.clock().astimezone(IST).date())
        if days is not None and register.first(question) is None:
            return await self._listed(turn, register, days)  # "what is listed next week?" names no case
        answer = await ask(self.services, turn.bank_id, register, question, lang=turn.lang)
        return Reply(text=render_answer(turn.lang, answer))

    async def _timeline(self, turn: Turn, register: CaseRegister, args: str) -> Reply:
        """Answer with the case history as text, and as a picture when the case has hearings."""
        history = await self._answer(turn, register, f"history of {args}")
        mention = register.asked_about(args)
        case = register.get(mention.case_id) if mention else None
        if case is None:
            return history
        try:
            chart = await timeline_chart(self.services, turn.bank_id, case,
                                         turn.t("legal.timeline_title", case=case.label),
                                         self.services.settings.state_dir / "charts")
        except MemoryUnavailable:
            return history
        return history if chart is None else Reply(text=history.text, image=chart.path)

    async def _today(self, turn: Turn, register: CaseRegister, args: str) -> Reply:
        today = self.services.clock().astimezone(IST).date()
        days = days_named(args, today) if args.strip() else [today]
        if days is None:
            return Reply(text=turn.t("legal.today_usage"))
        return await self._listed(turn, register, days)

    async def _listed(self, turn: Turn, register: CaseRegister, days: list[date]) -> Reply:
        """The cause list of each day asked about; a span's empty days are left out, and said so if all are."""
        try:
            listings = [await cause_list(self.services, turn.bank_id, register, day) for day in days]
        except MemoryUnavailable:
            return Reply(text=turn.t("legal.memory_unreachable_today", date=show_date(turn.lang, days[0]),
                                     count=len(register)))
        if len(days) == 1:
            return Reply(text=render_cause_list(turn.lang, listings[0], register), lists_many=True)
        listed = [render_cause_list(turn.lang, listing, register) for listing in listings
                  if listing.items or listing.due]
        return Reply(text="\n\n".join(listed) or turn.t("legal.span_none", start=show_date(turn.lang, days[0]),
                                                          end=show_date(turn.lang, days[-1])), lists_many=True)

    async def _remember(self, turn: Turn, register: CaseRegister, said: str) -> Reply:
        said = said.strip()
        if not said:
            return Reply(text=turn.t("legal.remember_usage"))
        general = _GENERAL.match(said)
        case: CaseRecord | None = None
        if general is not None:  # said to be about no case: kept as the practice's own note
            said = said[general.end():].strip()
            if not said:
                return Reply(text=turn.t("legal.remember_usage"))
        else:
            named = remembered_case(register, said)
            if not isinstance(named, CaseRecord):
                return Reply(text=turn.t("legal.remember_which_case", cases="\n".join(
                    f"• {c.label} ({', '.join(c.numbers) or c.case_id})" for c in named),
                    example=example_case(turn.lang, register)))
            case = named
        record = chat_record(said, turn.incoming.received_at, turn.user.name, turn.user.user_id, case)
        outcome = await CaseBook(self.services, turn.user.tenant).file([(record, case)], by=turn.user.user_id)
        key = "legal.remembered" if outcome.fully_stored else "legal.remembered_queued"
        return Reply(text=turn.t(key, case=case.label if case else turn.t("legal.no_case_named"),
                                 date=show_date(turn.lang, turn.incoming.received_at.astimezone(IST).date())))

    async def ingest_dir(self, tenant: str, directory: Path, workers: int = 5, yes: bool = False,
                         reviewer: Reviewer | None = None, progress: Progress | None = None,
                         use_cache: bool = True, author: str = "backlog") -> IngestReport:
        """Ingest a backlog folder into the tenant's bank; a register it brings joins the tenant's register."""
        register, backlog = load_backlog_dir(directory, author)
        bank = self.services.bank_of(tenant, self.name)
        await self.services.memory.ensure_bank(self.bank_profile(bank))
        if register is not None:
            # The backlog's cases join the tenant's register; cases it does not mention stay.
            self.registers.add(tenant, register.cases)
        register = self.register_for(tenant)
        if not len(register):
            raise BacklogError("the practice has no cases yet: put a cases.json in the folder, or import the "
                               "case register first (smriti import)")
        cache = ReadCache(self.services.settings.data_dir / "legal" / "read-cache") if use_cache else None
        runner = BacklogIngest(self.services, bank, register, workers=workers, yes=yes, reviewer=reviewer,
                               progress=progress, cache=cache)
        return await runner.run(backlog)

    async def load_seeds(self, tenant: str) -> SeedReport:
        """Ingest the seed practice's backlog (dates on the page only) and its chat memories, idempotently."""
        import_seed_registers(self.services.database, tenant, self.name, "handlers.legal")
        directory = self.seed_backlog_dir()
        render_backlog(directory)
        report = await self.ingest_dir(tenant, directory, workers=5, yes=True)
        register = self.register_for(tenant)
        said: list[tuple[HearingRecord, CaseRecord | None]] = []
        for memory in load_chat_memories():
            user = self.services.registry.by_id(memory.author)
            mention = register.only(memory.text)
            case = register.get(mention.case_id) if mention else None
            said.append((chat_record(memory.text, memory.said_at, user.name if user else memory.author,
                                     memory.author, case), case))
        bank = self.services.bank_of(tenant, self.name)
        await CaseBook(self.services, tenant).file(said, by="seed")
        return SeedReport(bank_id=bank, retained=len(report.stored_ids) + len(said),
                          details={"hearings": len(report.stored_ids), "chat_memories": len(said),
                                   "held_for_review": len(report.held)})

    def seed_backlog_dir(self) -> Path:
        return self.services.settings.data_dir / "legal" / "seed-backlog"

    async def demo(self, tenant: str, write: Write) -> None:
        """Render the seed backlog, ingest it with a progress bar, and ask what happened last time."""
        import_seed_registers(self.services.database, tenant, self.name, "handlers.legal")
        directory = self.seed_backlog_dir()
        render_backlog(directory)
        write(f"Ingesting the seed backlog from {directory} again with 5 workers (uploads finish in any order; "
              f"the same ids replace, never duplicate):")
        step = {"last": -1}

        def progress(done: int, total: int, file: str) -> None:
            tenth = 10 * done // total
            if tenth != step["last"] or done == total:
                step["last"] = tenth
                write(f"  {progress_bar(done, total)} {file}")

        report = await self.ingest_dir(tenant, directory, workers=5, yes=True, progress=progress)
        write(f"Stored {counted(len(report.stored_ids), 'entry', 'entries')}; {len(report.held)} held for review "
              "(dates guessed):")
        for held in report.held:
            write(f"  - {held.file}: {held.case_id} on {held.hearing_date} ({held.reason})")
        register = self.register_for(tenant)
        bank = self.services.bank_of(tenant, self.name)
        question = "What happened last time in Seabreeze?"
        answer = await ask(self.services, bank, register, question)
        write(f"\nQ: {question}\n{render_answer('en', answer)}")
        listing = await cause_list(self.services, bank, register, date(2026, 10, 15))
        write(f"\n/today 15 Oct 2026\n{render_cause_list('en', listing, register)}")
