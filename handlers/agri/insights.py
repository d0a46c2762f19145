"""Village insights. With a language model behind memory (LLM mode): today's insights read the village's
Hindsight mental model (created by the bot, refreshed by Hindsight after each consolidation), and insights as of
a past date reflect once over the facts recalled as of that date. Without one, or when either gives nothing, a
deterministic aggregation of recalled visits and outcomes. Every point cites the dates behind it."""

import logging
import re
from collections import Counter, defaultdict
from datetime import date, timedelta
from typing import Literal

from pydantic import BaseModel, Field

from bot.services.i18n import show_date, text
from bot.services.prompts import render
from handlers.agri.chart import ProblemCounts
from handlers.agri.facts import Facts, read_facts, with_records
from handlers.agri.guardrails import strip_unknown_dates
from handlers.agri.register import FieldBook
from memory import MemoryClient, MemoryItem, MemoryLayerError, MemoryUnavailable, Period, Recalled, RecallRequest, tags
from memory.asof import IST

log = logging.getLogger(__name__)

QUESTIONS = ("works", "objections", "watch")
WATCH_DAYS = 30
MAX_DATES = 4


class Insights(BaseModel):
    village: str
    as_of: date
    source: Literal["mental_model", "reflect", "aggregate", "none"]
    works: list[str] = Field(default_factory=list)
    objections: list[str] = Field(default_factory=list)
    watch: list[str] = Field(default_factory=list)
    recalled: int = 0
    unverified: list[str] = Field(default_factory=list)
    counts: list[ProblemCounts] = Field(default_factory=list)
    """Per crop problem: product pitches advised, accepted, and reported as having worked."""


def problem_counts(book: FieldBook, facts: Facts, lang: str) -> list[ProblemCounts]:
    """Count, per crop problem, products advised vs accepted (visits) vs worked (outcomes)."""
    rows: dict[tuple[str, str], ProblemCounts] = {}

    def row(crop: str, issue: str) -> ProblemCounts:
        label = f"{book.crop_name(crop, lang)}: {book.issue_name(issue, lang)}"
        return rows.setdefault((crop, issue), ProblemCounts(problem=label, advised=0, accepted=0, worked=0))

    for visit in facts.visits:
        if visit.issue:
            counts = row(visit.crop, visit.issue)
            counts.advised += len(visit.accepted) + len(visit.rejected) + len(visit.undecided) + len(
                visit.postponed)
            counts.accepted += len(visit.accepted)
    for outcome in facts.outcomes:
        if outcome.issue and outcome.result == "controlled":
            row(outcome.crop, outcome.issue).worked += len(outcome.applied)
    return sorted(rows.values(), key=lambda r: (-r.advised, r.problem))


class Aggregator:
    """Counts what the village's memories say, in one language."""

    def __init__(self, book: FieldBook, facts: Facts, lang: str, as_of: date) -> None:
        self.book, self.facts, self.lang, self.as_of = book, facts, lang, as_of

    def t(self, key: str, **values: object) -> str:
        return text(self.lang, f"agri.{key}", **values)

    def days(self, days: list[date]) -> str:
        return ", ".join(show_date(self.lang, d) for d in sorted(set(days), reverse=True)[:MAX_DATES])

    def product(self, pid: str) -> str:
        product = self.book.products.get(pid)
        return f"{product.name} ({pid})" if product else pid

    def works(self) -> list[str]:
        counts = Counter(v.issue for v in self.facts.visits if v.issue)
        if not counts:
            return []
        issue, seen = counts.most_common(1)[0]
        lines = [self.t("insight_top_problem", issue=self.book.issue_name(issue, self.lang), count=seen,
                        dates=self.days([v.day for v in self.facts.visits if v.issue == issue]))]
        by_product: dict[str, dict[str, list[date]]] = defaultdict(lambda: defaultdict(list))
        for outcome in self.facts.outcomes:
            if outcome.issue == issue:
                for pid in outcome.applied:
                    by_product[pid][outcome.result].append(outcome.day)
        ranked = sorted(by_product.items(), key=lambda kv: (-len(kv[1].get("controlled", [])), kv[0]))
        for pid, results in ranked:
            parts = [self.t("insight_result_count", result=self.t(f"result_{r}"), count=len(d), dates=self.days(d))
                     for r, d in sorted(results.items(), key=lambda kv: -len(kv[1]))]
            lines.append(f"{self.product(pid)}: {'; '.join(parts)}")
        untreated = [o.day for o in self.facts.outcomes if o.issue == issue and not o.applied and o.source == "ours"]
        if untreated:
            lines.append(self.t("insight_untreated", count=len(untreated), dates=self.days(untreated)))
        return lines

    def objections(self) -> list[str]:
        lines = []
        refusals: dict[tuple[str, str], list[date]] = defaultdict(list)
        for visit in self.facts.visits:
            for pid in visit.rejected:
                refusals[(pid, visit.objections.get(pid, "none"))].append(visit.day)
        for (pid, objection), days in sorted(refusals.items(), key=lambda kv: -len(kv[1])):
            reason = self.t(f"objection_{objection}") if objection != "none" else "-"
            lines.append(self.t("insight_refused", product=self.product(pid), count=len(days), reason=reason,
                                dates=self.days(days)))
        for neighbour, key in ((True, "insight_with_neighbour"), (False, "insight_without_neighbour")):
            pitched = [v for v in self.facts.visits if v.neighbour == neighbour and (v.accepted or v.rejected or v.undecided
                                                                                   or v.postponed)]
            if pitched:
                took = [v for v in pitched if v.accepted]
                lines.append(self.t(key, accepted=len(took), pitched=len(pitched),
                                    dates=self.days([v.day for v in took] or [v.day for v in pitched])))
        return lines

    def watch(self) -> list[str]:
        since = self.as_of - timedelta(days=WATCH_DAYS)
        recent: dict[tuple[str, str], list[date]] = defaultdict(list)
        farms: dict[tuple[str, str], set[str]] = defaultdict(set)
        for visit in self.facts.visits:
            if visit.issue and visit.day >= since:
                recent[(visit.crop, visit.issue)].append(visit.day)
                farms[(visit.crop, visit.issue)].add(visit.farmer_id)
        lines = [self.t("insight_watch", crop=self.book.crop_name(crop, self.lang), issue=self.book.issue_name(issue, self.lang),
                        farms=len(farms[(crop, issue)]), dates=self.days(days))
                 for (crop, issue), days in sorted(recent.items(), key=lambda kv: -len(kv[1]))]
        return lines or [self.t("insight_watch_quiet", days=WATCH_DAYS)]


_SECTION = re.compile(r"^[#*\s]*(what works|works|objections?|watch)\b[*:\s]*", re.IGNORECASE)


def split_sections(answer: str) -> dict[str, list[str]]:
    """Split a model's answer into the three sections by their headings; unheaded text counts as `works`."""
    sections: dict[str, list[str]] = {q: [] for q in QUESTIONS}
    current = "works"
    for raw in answer.splitlines():
        line = raw.strip()
        heading = _SECTION.match(line)
        if heading:
            word = heading.group(1).lower()
            current = "works" if "work" in word else "objections" if word.startswith("objection") else "watch"
            line = line[heading.end():].strip()
        line = line.lstrip("-*• ").strip()
        if line:
            sections[current].append(line)
    return sections


def mental_model_id(village_slug: str) -> str:
    return f"insights-{village_slug}"


async def _from_mental_model(memory: MemoryClient, bank: str, village_slug: str, village_name: str) -> str | None:
    """Read the village's mental model; create it when missing (this answer then falls back to counting)."""
    found = await memory.mental_model(bank, mental_model_id(village_slug))
    if found is None:
        await memory.ensure_mental_model(bank, mental_model_id(village_slug), f"Insights: {village_name}",
                                         render("agri", "insight_village", village=village_name).system,
                                         [tags.village(village_slug)])
        return None
    return found.content or None


async def _model_answer(memory: MemoryClient, bank: str, village_slug: str, village_name: str, as_of: date,
                        today: date, recalled: list[Recalled]) -> tuple[str | None, Literal["mental_model", "reflect"]]:
    """One call to the model side: today's mental model, or one as-of reflect held to the as-of facts."""
    if as_of >= today:
        return await _from_mental_model(memory, bank, village_slug, village_name), "mental_model"
    answer = await memory.reflect(bank, render("agri", "insight_village", village=village_name).system,
                                  tags=[tags.village(village_slug)], tags_match="any_strict", as_of=as_of,
                                  facts=recalled)
    return (answer.text if answer.available else None), "reflect"


async def village_insights(memory: MemoryClient, bank: str, book: FieldBook, village_slug: str, as_of: date,
                           lang: str = "en", llm: bool = False, today: date | None = None,
                           recorded: list[MemoryItem] | None = None) -> Insights:
    """Return what works, how objections go and what to watch in one village, each point dated.

    `llm` says memory runs with a language model; `today` tells a current request from one as of a past date;
    `recorded` are the memories of the village's records up to `as_of`: the counts come from them.
    """
    village = book.villages[village_slug]
    village_tag = tags.village(village_slug)
    query = render("agri", "recall_village", village=village.name).system
    try:
        recalled = await memory.recall(bank, RecallRequest(query=query, tags=[village_tag], tags_match="all_strict",
                                                           as_of=as_of, period=Period.until(as_of), max_tokens=12000))
    except MemoryUnavailable:
        log.warning("memory unavailable for village insights")
        if not recorded:
            return Insights(village=village_slug, as_of=as_of, source="none")
        recalled = []
    if recorded:
        recalled = with_records([i for i in recorded if i.event_time.astimezone(IST).date() <= as_of], recalled)
    facts = read_facts(recalled)
    if llm:
        try:
            answer, source = await _model_answer(memory, bank, village_slug, village.name, as_of, today or as_of,
                                                 recalled)
        except MemoryLayerError as exc:
            log.warning("model insights unavailable (%s); counting instead", type(exc).__name__)
            answer = None
        if answer:
            result = strip_unknown_dates(answer, facts.dates, text(lang, "agri.date_removed"))
            sections = split_sections(result.text)
            return Insights(village=village_slug, as_of=as_of, source=source, works=sections["works"],
                            objections=sections["objections"], watch=sections["watch"], recalled=len(recalled),
                            unverified=result.removed, counts=problem_counts(book, facts, lang))
    agg = Aggregator(book, facts, lang, as_of)
    return Insights(village=village_slug, as_of=as_of, source="aggregate", works=agg.works(),
                    objections=agg.objections(), watch=agg.watch(), recalled=len(recalled),
                    counts=problem_counts(book, facts, lang))


def insights_text(book: FieldBook, insights: Insights, lang: str) -> str:
    """Return the insights as one message."""

    def t(key: str, **values: object) -> str:
        return text(lang, f"agri.{key}", **values)

    lines = [t("insights_header", village=book.village_name(insights.village, lang),
               as_of=show_date(lang, insights.as_of), source=t(f"insights_source_{insights.source}"))]
    if insights.source == "none":
        lines.append(t("memory_unavailable"))
        return "\n".join(lines)
    for section in QUESTIONS:
        lines.append(t(f"insights_{section}"))
        lines += [f"• {point}" for point in getattr(insights, section)] or [f"• {t('insights_nothing')}"]
    if insights.unverified:
        lines.append(t("brief_unverified"))
        lines += [f"• {u}" for u in insights.unverified]
    return "\n".join(lines)
