"""The pre-visit brief: two recalls in parallel (this farmer; same village and crop without him), as of the
visit date, then a template or model draft, then guardrails. Memory OFF skips both recalls; nothing else differs."""

import asyncio
import logging
from datetime import date

from bot.services.i18n import text
from bot.services.llm import ChatModel, ChatUnavailable, StructuringFailed
from bot.services.prompts import render
from handlers.agri.brief_llm import llm_draft
from handlers.agri.brief_models import Brief, FarmerRef, RecalledCounts
from handlers.agri.compose import Composer
from handlers.agri.facts import read_facts, with_records
from handlers.agri.guardrails import guard_brief
from handlers.agri.models import Farmer
from handlers.agri.register import FieldBook
from memory import MemoryClient, MemoryItem, MemoryUnavailable, Period, Recalled, RecallRequest, tags
from memory.asof import IST

log = logging.getLogger(__name__)


class BriefContext:
    """What memory gave for one brief."""

    def __init__(self, own: list[Recalled], similar: list[Recalled], unavailable: bool = False) -> None:
        self.own, self.similar, self.unavailable = own, similar, unavailable

    def owners(self, book: FieldBook) -> dict[str, str]:
        """Each recalled memory's document id with the farmer it is about (by its farmer tag)."""
        found: dict[str, str] = {}
        for memory in self.own + self.similar:
            farmer = next((f for f in book.farmers if tags.farmer(f) in memory.tags), None)
            if memory.document_id and farmer is not None:
                found[memory.document_id] = farmer
        return found

    def known_dates(self) -> dict[date, list[str]]:
        """Return every recalled memory's date with the document ids dated then (what a claim may cite)."""
        known: dict[date, list[str]] = {}
        for memory in self.own + self.similar:
            if memory.event_date is not None:
                known.setdefault(memory.event_date, []).append(memory.document_id or "")
        return known


async def gather(memory: MemoryClient, bank: str, book: FieldBook, farmer: Farmer, as_of: date) -> BriefContext:
    """Recall this farmer's history and similar cases per crop, in parallel, with nothing after `as_of`."""
    village = book.villages[farmer.village]
    own_query = render("agri", "recall_farmer", farmer=farmer.name, farmer_id=farmer.id, village=village.name).system
    period = Period.until(as_of)
    requests = [RecallRequest(query=own_query, tags=[tags.farmer(farmer.id)], tags_match="any_strict", as_of=as_of,
                              period=period)]
    for crop in farmer.crops:
        query = render("agri", "recall_similar", crop=crop, village=village.name).system
        requests.append(RecallRequest(query=query, tags=[tags.village(village.slug), tags.crop(crop)],
                                      tags_match="all_strict", as_of=as_of, period=period))
    try:
        found = await asyncio.gather(*(memory.recall(bank, r) for r in requests))
    except MemoryUnavailable:
        log.warning("memory unreachable for a brief; answering from the register")
        return BriefContext([], [], unavailable=True)
    own_tag = tags.farmer(farmer.id)
    similar: dict[str, Recalled] = {}
    for memory_item in (m for batch in found[1:] for m in batch):
        if own_tag not in memory_item.tags:
            similar.setdefault(memory_item.document_id or memory_item.text, memory_item)
    return BriefContext(list(found[0]), list(similar.values()))


async def build_brief(memory: MemoryClient, bank: str, book: FieldBook, farmer: Farmer, as_of: date,
                      memory_on: bool, lang: str = "en", chat: ChatModel | None = None,
                      recorded: list[MemoryItem] | None = None) -> Brief:
    """Return the brief for a visit to `farmer` on `as_of`; `recorded` are the memories of the farmer's
    records up to that day (the exact history: the last visit never depends on recall's ranking)."""
    context = await gather(memory, bank, book, farmer, as_of) if memory_on else BriefContext([], [])
    if memory_on and recorded:
        context.own = with_records([i for i in recorded if i.event_time.astimezone(IST).date() <= as_of], context.own)
    own, similar = read_facts(context.own), read_facts(context.similar)
    notes: list[str] = []
    if not memory_on:
        notes.append(text(lang, "agri.memory_off"))
    elif context.unavailable:
        # Never "no history": memory could not be asked. Say so, and what the register knows.
        notes.append(text(lang, "agri.memory_unavailable"))
        key = "agri.brief_register_only" if farmer.acres else "agri.brief_register_only_no_acres"
        notes.append(text(lang, key, farmer=book.farmer_name(farmer.id, lang),
                          crops=", ".join(book.crop_name(c, lang) for c in farmer.crops),
                          acres=f"{farmer.acres or 0:g}", village=book.village_name(farmer.village, lang)))
    if not context.own and not context.unavailable:
        notes.append(text(lang, "agri.no_history"))
    draft = Composer(book, lang, farmer, own, similar, as_of).draft()
    composer = "template"
    if chat is not None:
        try:
            draft = await llm_draft(chat, book, farmer, as_of, context.own, context.similar, lang)
            composer = "llm"
        except (ChatUnavailable, StructuringFailed) as exc:
            log.warning("brief model failed (%s); using the template brief", type(exc).__name__)
            notes.append(text(lang, "agri.model_unavailable"))
    guarded = guard_brief(book, draft, context.known_dates(), farmer.crops, text(lang, "agri.date_removed"),
                          lang)
    owners = context.owners(book)
    claims = [c.model_copy(update={"farmer_id": owners.get(c.document_id or "")}) for c in guarded.claims]
    return Brief(
        farmer=FarmerRef(id=farmer.id, name=farmer.name, village=farmer.village, crops=farmer.crops),
        as_of=as_of, memory="off" if not memory_on else "unreachable" if context.unavailable else "on", claims=claims, products=guarded.products,
        avoid=guarded.avoid, checks=guarded.checks,
        confidence=draft.confidence if context.own or context.similar else "low",
        recalled=RecalledCounts(farmer=len(context.own), similar=len(context.similar)),
        unverified=guarded.unverified, composer=composer, notes=notes,  # type: ignore[arg-type]
    )
