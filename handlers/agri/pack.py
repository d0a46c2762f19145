"""The field pack: capture a visit (voice or typed) -> confirm -> retain; brief before a visit; ask for the
outcome weeks later; village insights. Handlers stay thin: the work is in the modules they call."""

import logging
import uuid
from datetime import date, timedelta

from pydantic import BaseModel

from bot.services.audio import AudioRejected, prepare_voice
from bot.services.i18n import show_date, text
from bot.core.messages import Button, Media, Reply
from bot.services.prompts import bank_profile
from bot.core.registry import User
from bot.core.scheduler import FollowUp
from bot.services.speech import SpeechUnavailable
from handlers.agri.brief import build_brief
from handlers.agri.cards import OutcomeCard, VisitCard
from handlers.agri.chart import advice_outcomes
from handlers.agri.demo import run_demo
from handlers.agri.followup_answer import answers_followup
from handlers.agri.extract import FieldReader
from handlers.agri.farmer_add import NEW_FARMER
from handlers.agri.farmer_parts import per_farmer
from handlers.agri.brief_models import Brief
from handlers.agri.insights import Insights, insights_text, village_insights
from handlers.agri.intent import is_question
from handlers.agri.past import last_visit_lines
from handlers.agri.models import Farmer, Visit
from handlers.agri.visit_records import VisitRecords, memories_of, save_season
from handlers.agri.newfarmer import NewFarmer, new_farmer_in
from handlers.agri.register import FieldBook
from handlers.agri.registers import FieldBooks, seed_registers
from handlers.agri.render import brief_text
from handlers.agri.subjects import VisitRecordStore, farmer_store, farmer_terms, find_farmers
from handlers.agri.structure import structure_outcome, structure_visit
from handlers.agri.textmatch import parse_day
from bot.core.conversation import show_sent
from bot.core.pack import CommandInfo, Pack, SeedReport, Services, Turn, Write
from bot.core.cards import CardSpec, card_buttons, open_card
from memory import BankProfile, MemoryItem
from memory.asof import IST
from memory.subjects import Subject, SubjectStore
from bot.core.subject_match import SubjectTerms

log = logging.getLogger(__name__)

AWAITING_OUTCOME = "agri.awaiting_outcome"
ANSWER_PREFIX = "ag:o:"
CHOOSE_PREFIX = "ag:f:"
ASKED_PREFIX = "ag:q:"
"""A button naming one of the farmers a question could mean: `ag:q:<farmer id>`."""
"""A button naming one of the farmers a note could mean: `ag:f:<card id>:<index in the card's choices>`."""
FARMER_CHOICES = "farmer_choices"
MAX_CHOICES = 6
MAX_VOICE_SECONDS = 300.0
KEPT_AFTER = timedelta(minutes=10)
"""A note processed this long after it was sent came back from the intake store: say when it was sent."""


class BriefArgs(BaseModel):
    farmer_query: str
    as_of: date | None
    memory_on: bool


def parse_brief_args(args: str, year: int) -> BriefArgs:
    """Split `/brief <farmer> [date] [off]` into its parts."""
    words = args.split()
    memory_on = not any(w.lower() in ("off", "--no-memory", "nomemory") for w in words)
    words = [w for w in words if w.lower() not in ("off", "on", "--no-memory", "nomemory")]
    as_of = None
    rest = []
    for word in words:
        day = parse_day(word, year) if any(c.isdigit() for c in word) and not word.upper().startswith("F") else None
        if day is not None:
            as_of = day
        else:
            rest.append(word)
    return BriefArgs(farmer_query=" ".join(rest), as_of=as_of, memory_on=memory_on)


class AgriPack(Pack):
    """Field memory for agri-input officers."""

    name = "agri"

    def __init__(self, services: Services) -> None:
        super().__init__(services)
        self.books = FieldBooks(services.database)
        self.records = VisitRecords(services.database)
        self._readers: dict[str, FieldReader] = {}

    def subject_terms(self, subject: Subject) -> SubjectTerms | None:
        return farmer_terms(self.books.store, subject)

    def find_subjects(self, tenant: str, kind: str, query: str) -> list[tuple[str, str]]:
        """A farmer by id as written, else by name as people say it (first name, surname first, either
        script...): every farmer that fits, so forget and export show the matches before anything is done."""
        if kind != "farmer":
            return []
        by_row = find_farmers(self.books.store, tenant, query)
        if len(by_row) == 1:
            return by_row
        book = self.book_for(tenant)
        fits = self.reader_for(tenant).farmers_named(query)
        return [(f.id, f"{f.name} ({book.village_name(f.village)})") for f in fits] or by_row

    def also_named(self, tenant: str, kind: str, query: str, chosen: str) -> list[tuple[str, str]]:
        if kind != "farmer":
            return []
        book = self.book_for(tenant)
        return [(f.id, f"{f.name} ({book.village_name(f.village)})")
                for f in self.reader_for(tenant).identity.resolve(query).farmers if f.id != chosen]

    def subject_stores(self) -> list[SubjectStore]:
        return [farmer_store(self.books.store), VisitRecordStore(self.records)]

    def commands(self) -> list[CommandInfo]:
        # /followups and /farmers list the scheduler's and the register's rows: no memory is read.
        return [CommandInfo(command=c, description_key=f"agri.cmd_{c}", reads_memory=c in ("brief", "insights"))
                for c in ("brief", "followups", "insights", "farmers")]

    def bank_profile(self, bank_id: str) -> BankProfile:
        return bank_profile(self.name, bank_id)

    def book_for(self, tenant: str) -> FieldBook:
        """The tenant's own registers (cached until the tenant's registers change)."""
        return self.books.for_tenant(tenant)

    def reader_for(self, tenant: str) -> FieldReader:
        book = self.book_for(tenant)
        reader = self._readers.get(tenant)
        if reader is None or reader.book is not book:
            reader = self._readers[tenant] = FieldReader(book)
        return reader

    def card_specs(self, tenant: str) -> dict[str, CardSpec]:
        reader = self.reader_for(tenant)
        return {"visit": VisitCard(reader, add_farmer=lambda farmer: self._add_farmer(tenant, farmer),
                                   records=self.records),
                "outcome": OutcomeCard(reader, self.records)}

    def memory_records(self, services: Services, tenant: str) -> list[MemoryItem]:
        """Every memory the tenant's visit and outcome records say its bank holds (built as Save builds it)."""
        return memories_of(self.book_for(tenant), self.records.visits(tenant), self.records.outcomes(tenant))

    def _add_farmer(self, tenant: str, farmer: Farmer) -> FieldReader:
        """Write a farmer confirmed on a card into the tenant's register; return the reader of the new book."""
        self.books.add_farmer(tenant, farmer)
        log.info("a new farmer was added to a tenant's register from a visit card")
        return self.reader_for(tenant)

    def today(self) -> date:
        return self.services.clock().astimezone(IST).date()

    def _officer(self, user: User) -> str:
        return user.officer_id or user.user_id

    def note_day(self, turn: Turn) -> date:
        """The day a note speaks of by default: the day it was SENT (a kept note processed later keeps it)."""
        return min(self.today(), turn.incoming.received_at.astimezone(IST).date())

    def vocabulary(self, turn: Turn) -> list[str]:
        """The tenant's own words for the speech model: the officer's farmers and villages, then products."""
        te = turn.lang == "te"
        farmers = [f for f in self.book_for(turn.user.tenant).farmers.values() if self.may_see(turn.user, f)]
        villages = [v for v in self.book_for(turn.user.tenant).villages.values() if v.slug in turn.user.territories]
        words = [f.name_te if te else f.name for f in farmers] + [v.name_te if te else v.name for v in villages]
        return words + [p.name for p in self.book_for(turn.user.tenant).products.values()]

    def user_in_pack(self, user: User) -> User:
        """An officer's territories as the village register keys them: a people sheet may name a village by
        its name ("Kodad") or its code ("KDD-01") in either script."""
        if not user.territories:
            return user
        book = self.book_for(user.tenant)
        keyed = [v.slug if (v := book.find_village(t)) is not None else t for t in user.territories]
        return user if keyed == user.territories else user.model_copy(update={"territories": keyed})

    def may_see(self, user: User, farmer: Farmer) -> bool:
        return user.role == "admin" or farmer.village in self.user_in_pack(user).territories

    async def on_command(self, turn: Turn, command: str, args: str) -> list[Reply] | None:
        if command == "brief":
            return await self._brief(turn, args)
        if command == "followups":
            return self._followups(turn)
        if command == "insights":
            return await self._insights(turn, args)
        if command == "farmers":
            return self._farmers(turn)
        return None

    async def _brief(self, turn: Turn, args: str) -> list[Reply]:
        """Answer /brief <farmer> [date] [off]."""
        parsed = parse_brief_args(args, self.today().year)
        # A farmer id as the register writes it ("GF/0012", "2024-17") is the farmer, never a date.
        whole = self.book_for(turn.user.tenant).find_farmer(args.strip()) if args.strip() else None
        if whole is not None and not self.may_see(turn.user, whole) and \
                self.reader_for(turn.user.tenant).farmers_named(args.strip(), turn.user.territories):
            # "రమేష్" is the whole name of a farmer elsewhere and the first name of one of the officer's own.
            whole = None
        if whole is not None:
            parsed = BriefArgs(farmer_query=args.strip(), as_of=None, memory_on=True)
        if not parsed.farmer_query:
            return [Reply(text=turn.t("agri.brief_usage"))]
        farmers = [whole] if whole is not None else \
            self.reader_for(turn.user.tenant).farmers_named(parsed.farmer_query, turn.user.territories)
        if not farmers:
            return [Reply(text=turn.t("agri.farmer_unknown", query=parsed.farmer_query))]
        if len(farmers) > 1:
            names = ", ".join(f"{self.book_for(turn.user.tenant).farmer_name(f.id, turn.lang)} ({f.id})" for f in farmers)
            return [Reply(text=turn.t("agri.farmer_ambiguous", query=parsed.farmer_query, names=names))]
        farmer = farmers[0]
        if not self.may_see(turn.user, farmer):
            # Answered as for a farmer that does not exist: a refusal never tells who is outside one's villages.
            log.info("refused a brief outside the officer's territory")
            return [Reply(text=turn.t("agri.farmer_unknown", query=parsed.farmer_query))]
        brief = await self.brief_for(turn.user.tenant, farmer, parsed.as_of or self.today(), parsed.memory_on,
                                     turn.lang)
        return [Reply(text=brief_text(self.book_for(turn.user.tenant), brief, turn.lang))]

    async def brief_for(self, tenant: str, farmer: Farmer, as_of: date, memory_on: bool, lang: str) -> Brief:
        """The brief for chat and `smriti brief`: the farmer's records up to `as_of`, and memory recalled."""
        recorded = memories_of(self.book_for(tenant), self.records.visits(tenant, farmer_id=farmer.id, until=as_of),
                               self.records.outcomes(tenant, farmer_id=farmer.id, until=as_of))
        return await build_brief(self.services.memory, self.services.bank_of(tenant, self.name),
                                 self.book_for(tenant), farmer, as_of, memory_on, lang, self.services.chat,
                                 recorded=recorded)

    async def insights_for(self, tenant: str, slug: str, as_of: date, lang: str, today: date) -> Insights:
        """A village's insights for chat and `smriti insights`: counted from the records, told from memory."""
        recorded = memories_of(self.book_for(tenant), self.records.visits(tenant, village=slug, until=as_of),
                               self.records.outcomes(tenant, village=slug, until=as_of))
        return await village_insights(self.services.memory, self.services.bank_of(tenant, self.name),
                                      self.book_for(tenant), slug, as_of, lang,
                                      llm=self.services.settings.memory_uses_llm, today=today, recorded=recorded)

    def _followups(self, turn: Turn) -> list[Reply]:
        """List the officer's pending follow-ups, each with a button to answer it now."""
        scheduler = self.services.scheduler
        pending = scheduler.pending(turn.user.user_id, self.name) if scheduler else []
        if not pending:
            return [Reply(text=turn.t("agri.followups_none"))]
        lines, buttons = [turn.t("agri.followups_header", count=len(pending))], []
        for followup in pending:
            visit = Visit.model_validate_json(followup.subject["visit"])
            lines.append(turn.t("agri.followups_item", farmer=self.book_for(turn.user.tenant).farmer_name(visit.farmer_id, turn.lang),
                                crop=self.book_for(turn.user.tenant).crop_name(visit.crop, turn.lang), visit_date=show_date(turn.lang, visit.date),
                                due=show_date(turn.lang, followup.due_at.astimezone(IST).date()),
                                status=turn.t(f"agri.followup_status_{followup.status}")))
            buttons.append([Button(label=turn.t("agri.button_answer_for", farmer=self.book_for(turn.user.tenant).farmer_name(visit.farmer_id, turn.lang)),
                                   data=f"{ANSWER_PREFIX}{followup.followup_id}")])
        return [Reply(text="\n".join(lines), buttons=buttons)]

    async def _insights(self, turn: Turn, args: str) -> list[Reply]:
        slug = self.reader_for(turn.user.tenant).village_in(args) if args.strip() else None
        if slug is None:
            return [Reply(text=turn.t("agri.insights_usage"))]
        if turn.user.role != "admin" and slug not in turn.user.territories:
            return [Reply(text=turn.t("agri.not_your_village", village=self.book_for(turn.user.tenant).village_name(slug, turn.lang)))]
        found = await self.insights_for(turn.user.tenant, slug, self.today(), turn.lang, self.today())
        caption = insights_text(self.book_for(turn.user.tenant), found, turn.lang)
        if not found.counts:
            return [Reply(text=caption)]
        village = self.book_for(turn.user.tenant).village_name(slug, turn.lang)
        chart = advice_outcomes(turn.t("agri.insights_chart_title", village=village), found.counts,
                                self.services.settings.state_dir / "charts" / f"insights-{uuid.uuid4().hex}.png")
        return [Reply(text=caption, image=chart.path)]

    def _farmers(self, turn: Turn) -> list[Reply]:
        book = self.book_for(turn.user.tenant)
        mine = [f for f in book.farmers.values() if self.may_see(turn.user, f)]
        lines = [turn.t("agri.farmers_header", count=len(mine))]
        lines += [f"{f.id} {book.farmer_name(f.id, turn.lang)} · {book.village_name(f.village, turn.lang)} · "
                  f"{', '.join(book.crop_name(c, turn.lang) for c in f.crops)}" for f in mine]
        return [Reply(text="\n".join(lines))]

    async def on_text(self, turn: Turn, body: str) -> list[Reply]:
        if is_question(body):
            # Asked, not reported: answered from memory; a follow-up waiting for an answer keeps waiting.
            log.info("a message read as a question about the past")
            return await self._answer_question(turn, body)
        awaiting = self.services.state.pref(turn.user.user_id, AWAITING_OUTCOME)
        if awaiting:
            answered = await self._outcome(turn, awaiting, body)
            if answered is not None:
                return answered
        return await self._visit(turn, body)

    async def _answer_question(self, turn: Turn, question: str) -> list[Reply]:
        """A question about the past: the farmer it names answered from the records and memory (the last
        visit, then the brief); asked which when several fit; never a visit card."""
        reader = self.reader_for(turn.user.tenant)
        found = reader.farmer_in(question, turn.user.territories)
        farmers = [found] if found is not None else reader.farmer_choices(question, turn.user.territories)
        farmers = [f for f in farmers if self.may_see(turn.user, f)]
        if not farmers:
            return [Reply(text=turn.t("agri.question_no_farmer"))]
        book = self.book_for(turn.user.tenant)
        if len(farmers) > 1:
            rows = [[Button(label=f"{book.farmer_name(f.id, turn.lang)} · {book.village_name(f.village, turn.lang)}",
                            data=f"{ASKED_PREFIX}{f.id}")] for f in farmers[:MAX_CHOICES]
                    if len(f"{ASKED_PREFIX}{f.id}".encode()) <= 64]
            return [Reply(text=turn.t("agri.question_which"), buttons=rows)]
        return await self._past_answer(turn, farmers[0])

    async def _past_answer(self, turn: Turn, farmer: Farmer) -> list[Reply]:
        tenant, today = turn.user.tenant, self.today()
        book = self.book_for(tenant)
        lines = last_visit_lines(book, farmer.id, self.records.visits(tenant, farmer_id=farmer.id, until=today),
                                 self.records.outcomes(tenant, farmer_id=farmer.id, until=today), turn.lang)
        brief = await self.brief_for(tenant, farmer, today, True, turn.lang)
        return [Reply(text="\n".join([*lines, "", brief_text(book, brief, turn.lang)]))]

    async def _visit(self, turn: Turn, note: str, heard: bool = False) -> list[Reply]:
        """Structure a visit note and show it as a card: a card per farmer when the note reports on several."""
        parts = per_farmer(self.reader_for(turn.user.tenant), note, turn.user.territories)
        if len(parts) == 1:
            return await self._visit_card(turn, note, heard)
        log.info("a note about %s farmers: a card for each", len(parts))
        replies: list[Reply] = []
        for n, part in enumerate(parts):
            replies += await self._visit_card(turn, part, heard and n == 0)
        return replies

    async def _visit_card(self, turn: Turn, note: str, heard: bool = False) -> list[Reply]:
        """Structure one farmer's visit note and show it as a card."""
        day = self.note_day(turn)
        structured = await structure_visit(self.services.chat, self.reader_for(turn.user.tenant), note, self._officer(turn.user),
                                           day, turn.user.territories)
        visit = structured.visit
        new = self._new_farmer(turn, note, visit)
        if new is not None:
            visit = visit.model_copy(update={"farmer_id": None, "village": new.village or visit.village})
        choices = [] if visit.farmer_id or new else [
            f for f in self.reader_for(turn.user.tenant).farmer_choices(note, turn.user.territories)
            if self.may_see(turn.user, f)][:MAX_CHOICES]
        if not (visit.farmer_id or new or choices or visit.crop or visit.products or visit.issue):
            log.info("a message read as unclear (no farmer, crop, problem or product): asked about, not filed")
            return [Reply(text=turn.t("agri.not_a_note"))]
        if visit.farmer_id and not self.may_see(turn.user, self.book_for(turn.user.tenant).farmers[visit.farmer_id]):
            return [Reply(text=turn.t("agri.not_your_farmer", farmer=self.book_for(turn.user.tenant).farmer_name(visit.farmer_id)))]
        payload = {"visit": visit.model_dump(mode="json"), "territories": turn.user.territories,
                   "extractor": structured.extractor, "lang": turn.lang, "today": day.isoformat(),
                   "visit_key": visit.id, "intent": "note",
                   "transcript": note, NEW_FARMER: new.model_dump() if new else None}
        intro = self._heard(turn, note) if heard else []
        if structured.model_failed:
            intro.append(turn.t("agri.model_failed_rules"))
        if new is not None:
            intro.append(turn.t("agri.visit_intro_new_farmer", name=new.name))
            if new.close_to:
                book = self.book_for(turn.user.tenant)
                intro.append(turn.t("agri.new_farmer_close_to", name=new.name, names=", ".join(
                    f"{book.farmer_name(f, turn.lang)} ({book.village_name(book.farmers[f].village, turn.lang)})"
                    for f in new.close_to if f in book.farmers)))
        if len(choices) > 1:
            payload[FARMER_CHOICES] = [f.id for f in choices]
            intro.append(turn.t("agri.which_farmer"))
        intro.append(turn.t("agri.visit_intro"))
        card = open_card(turn, self.card_specs(turn.user.tenant)["visit"], payload, intro="\n".join(intro))
        if len(choices) < 2 or card.card_id is None:
            return [card]
        book = self.book_for(turn.user.tenant)
        rows = [[Button(label=f"{book.farmer_name(f.id, turn.lang)} · {book.village_name(f.village, turn.lang)}",
                        data=f"{CHOOSE_PREFIX}{card.card_id}:{i}")] for i, f in enumerate(choices)]
        return [card.model_copy(update={"buttons": rows + card.buttons})]

    def _choose_farmer(self, turn: Turn, data: str) -> list[Reply]:
        """The officer tapped one of the farmers a note could mean: set it on the card and show the card."""
        card_id, _, index = data[len(CHOOSE_PREFIX):].rpartition(":")
        state = self.services.state
        card = state.card(card_id)
        if card is None or card.kind != "visit" or card.status != "open" or not index.isdigit():
            return [Reply(text=turn.t("core.card_gone"))]
        if card.user_id != turn.user.user_id:
            return [Reply(text=turn.t("core.card_not_yours"))]
        choices: list[str] = card.payload.get(FARMER_CHOICES) or []
        if int(index) >= len(choices):
            return [Reply(text=turn.t("core.card_gone"))]
        spec = self.card_specs(turn.user.tenant)["visit"]
        payload = {**spec.apply_edit(card.payload, "farmer", choices[int(index)]), FARMER_CHOICES: []}
        state.update_payload(card.card_id, payload)
        return [Reply(text=spec.render(turn.lang, payload), buttons=card_buttons(turn, card.card_id),
                      card_id=card.card_id, replaces_card=True)]

    def _new_farmer(self, turn: Turn, note: str, visit: Visit) -> NewFarmer | None:
        book = self.book_for(turn.user.tenant)
        officer = f"{turn.user.name} {book.officer_name(self._officer(turn.user))}"
        return new_farmer_in(self.reader_for(turn.user.tenant), note, visit, turn.user.territories, officer)

    async def _outcome(self, turn: Turn, followup_id: str, answer: str, heard: bool = False) -> list[Reply] | None:
        """Turn an answer to a follow-up into an outcome card; None when the follow-up is gone."""
        self.services.state.set_pref(turn.user.user_id, AWAITING_OUTCOME, "")
        scheduler = self.services.scheduler
        followup = scheduler.get(followup_id) if scheduler else None
        if followup is None or followup.user_id != turn.user.user_id or followup.status == "answered":
            return None
        visit = Visit.model_validate_json(followup.subject["visit"])
        if not answers_followup(self.reader_for(turn.user.tenant), visit, answer):
            # A new note or anything but an answer is handled as what it is; the follow-up stays pending
            # (/followups answers it later) and no longer takes the officer's next message.
            return None
        day = self.note_day(turn)
        structured = await structure_outcome(self.services.chat, self.reader_for(turn.user.tenant), answer, visit,
                                             self._officer(turn.user), day)
        outcome = structured.outcome
        payload = {"outcome": outcome.model_dump(mode="json"), "visit": visit.model_dump(mode="json"),
                   "followup_id": followup_id, "extractor": structured.extractor, "lang": turn.lang,
                   "today": day.isoformat(), "transcript": answer, "intent": "outcome"}
        intro = self._heard(turn, answer) if heard else []
        if structured.model_failed:
            intro.append(turn.t("agri.model_failed_rules"))
        return [open_card(turn, self.card_specs(turn.user.tenant)["outcome"], payload, intro="\n".join(intro) or None)]

    async def on_media(self, turn: Turn, media: Media) -> list[Reply]:
        if media.kind not in ("voice", "audio"):
            return [Reply(text=turn.t("agri.media_unsupported"))]
        speech = self.services.speech
        settings = self.services.settings
        if speech is None:
            # The intake store keeps the note (with its time) and releases it once an engine is set up.
            raise SpeechUnavailable("no speech engine is set up", retry=False)
        try:
            prepared = prepare_voice(media.path, settings.state_dir / "agri-audio", settings.max_media_bytes,
                                     settings.max_voice_seconds)
        except AudioRejected as exc:
            return [Reply(text=turn.t("agri.voice_rejected", reason=str(exc)))]
        try:
            # An engine failure (Groq down, model not fetched) raises SpeechUnavailable: the note is kept.
            transcript = await speech.transcribe(prepared, language=turn.lang, vocabulary=self.vocabulary(turn))
        finally:
            prepared.path.unlink(missing_ok=True)
        if not transcript.text:
            return [Reply(text=turn.t("agri.voice_empty"))]
        if is_question(transcript.text):
            return [Reply(text=turn.t("agri.heard", transcript=transcript.text)),
                    *await self._answer_question(turn, transcript.text)]
        awaiting = self.services.state.pref(turn.user.user_id, AWAITING_OUTCOME)
        if awaiting:
            answered = await self._outcome(turn, awaiting, transcript.text, heard=True)
            if answered is not None:
                return answered
        return await self._visit(turn, transcript.text, heard=True)

    def _heard(self, turn: Turn, transcript: str) -> list[str]:
        """What the card says it heard; a kept note processed later also says when it was sent."""
        sent = turn.incoming.received_at
        late = self.services.clock() - sent > KEPT_AFTER
        return ([turn.t("core.kept_note_from", sent=show_sent(turn.lang, sent))] if late else []) + \
            [turn.t("agri.heard", transcript=transcript)]

    async def on_callback(self, turn: Turn, data: str) -> list[Reply]:
        if data.startswith(CHOOSE_PREFIX):
            return self._choose_farmer(turn, data)
        if data.startswith(ASKED_PREFIX):
            farmer = self.book_for(turn.user.tenant).farmers.get(data[len(ASKED_PREFIX):])
            if farmer is None or not self.may_see(turn.user, farmer):
                return [Reply(text=turn.t("core.card_gone"))]
            return await self._past_answer(turn, farmer)
        if not data.startswith(ANSWER_PREFIX) or self.services.scheduler is None:
            return [Reply(text=turn.t("core.card_gone"))]
        followup = self.services.scheduler.get(data[len(ANSWER_PREFIX):])
        if followup is None or followup.user_id != turn.user.user_id or followup.status == "answered":
            return [Reply(text=turn.t("core.card_gone"))]
        self.services.state.set_pref(turn.user.user_id, AWAITING_OUTCOME, followup.followup_id)
        return [Reply(text=self._question(followup, turn.user.tenant, turn.lang, ask_now=True))]

    def _question(self, followup: FollowUp, tenant: str, lang: str, ask_now: bool = False) -> str:
        book = self.book_for(tenant)
        visit = Visit.model_validate_json(followup.subject["visit"])
        products = ", ".join(book.products[a.product_id].name for a in visit.products) or text(lang, "agri.nothing_advised")
        return text(lang, "agri.followup_answer_now" if ask_now else "agri.followup_question",
                    farmer=book.farmer_name(visit.farmer_id, lang), village=book.village_name(visit.village, lang),
                    crop=book.crop_name(visit.crop, lang), issue=book.issue_name(visit.issue, lang) or "-",
                    products=products, date=show_date(lang, visit.date))

    def compose_followup(self, followup: FollowUp, user: User) -> list[Reply]:
        """Word a due follow-up for the officer and take their next message as its answer."""
        lang = self.services.state.pref(user.user_id, "lang") or user.lang
        self.services.state.set_pref(user.user_id, AWAITING_OUTCOME, followup.followup_id)
        return [Reply(text=self._question(followup, user.tenant, lang), buttons=[[Button(
            label=text(lang, "agri.button_answer"), data=f"{ANSWER_PREFIX}{followup.followup_id}")]])]

    async def load_seeds(self, tenant: str) -> SeedReport:
        """Import the demo registers into the tenant (the customer's import path), then retain the seeded
        season (visits and outcomes) into its bank; re-running replaces."""
        book = seed_registers(self.services.database, tenant, self.book_for)
        bank = self.services.bank_of(tenant, self.name)
        await self.services.memory.ensure_bank(self.bank_profile(bank))
        items = save_season(self.records, tenant, book)
        report = await self.services.memory.retain(bank, items)
        return SeedReport(bank_id=bank, retained=report.items,
                          details={"visits": len(book.season.visits), "outcomes": len(book.season.outcomes)})

    async def demo(self, tenant: str, write: Write) -> None:
        """Show Ramesh's brief with memory OFF and ON side by side, and the brief as of 20 April."""
        await run_demo(self.services.memory, self.services.bank_of(tenant, self.name), self.book_for(tenant),
                       self.services.chat, write)
