"""The legal pack's office pages: the cause list for a day (printable), the cases, and a case's timeline and
entries, with an entry corrected or deleted through the case book the cards save and delete with."""

import base64
import tempfile
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bot.web import auth
from bot.web.context import Section, Viewer, WebContext
from bot.web.forms import back_to, value
from bot.web.render import render
from handlers.legal.casebook import CaseBook
from handlers.legal.models import CaseRecord, HearingRecord
from handlers.legal.timeline import timeline_chart
from handlers.legal.today import cause_list
from memory import MemoryUnavailable
from memory.asof import IST

if TYPE_CHECKING:
    from handlers.legal.pack import LegalPack

NAME = "legal"


def _day(said: str) -> date | None:
    try:
        return date.fromisoformat(said) if said else None
    except ValueError:
        return None


def section(ctx: WebContext) -> Section:
    pack: "LegalPack" = ctx.packs["legal"]  # type: ignore[assignment]

    def today() -> date:
        return ctx.services.clock().astimezone(IST).date()

    def case_of(who: Viewer, case_id: str) -> CaseRecord:
        case = pack.register_for(who.tenant).get(case_id)
        if case is None:
            raise HTTPException(404)
        return case

    async def overview(request: Request) -> Response:
        who = auth.viewer(ctx, request, NAME)
        day = _day(request.query_params.get("day", "")) or today()
        register = pack.register_for(who.tenant)
        problem = None
        try:
            listing = await cause_list(ctx.services, ctx.services.bank_of(who.tenant, NAME), register, day)
        except MemoryUnavailable:
            listing, problem = None, who.t("web.legal_memory_down")
        return render(ctx.templates, request, who, "legal.html", here=NAME, on=day, listing=listing,
                      cases=register.cases, register=register, problem=problem)

    async def case_page(request: Request, who: Viewer | None = None, status: int = 200,
                        problem: str | None = None) -> Response:
        who = who or auth.viewer(ctx, request, NAME)
        case = case_of(who, request.path_params["case"])
        book = CaseBook(ctx.services, who.tenant)
        try:
            records = await book.records(case.case_id)
        except MemoryUnavailable:
            records, problem = [], who.t("web.legal_memory_down")
        chart = None
        if any(r.kind == "hearing" for r in records):
            with tempfile.TemporaryDirectory(prefix="smriti-chart-") as folder:
                drawn = await timeline_chart(ctx.services, book.bank, case,
                                             who.t("legal.timeline_title", case=case.label), Path(folder))
                if drawn is not None:
                    chart = base64.b64encode(drawn.path.read_bytes()).decode("ascii")
        done = request.query_params.get("done")
        return render(ctx.templates, request, who, "legal_case.html", status=status, here=NAME, case=case,
                      records=sorted(records, key=lambda r: r.hearing_date, reverse=True), chart=chart,
                      problem=problem, notice=who.t(f"web.legal_done_{done}") if done in ("corrected", "deleted")
                      else None)

    async def show_case(request: Request) -> Response:
        return await case_page(request)

    def entry_of(book: CaseBook, case: CaseRecord, document_id: str) -> HearingRecord:
        record = book.store.get(book.tenant, document_id)
        if record is None or record.case_id != case.case_id:
            raise HTTPException(404)
        return record

    async def correct(request: Request) -> Response:
        who, form = await auth.posted(ctx, request, NAME)
        case = case_of(who, request.path_params["case"])
        book = CaseBook(ctx.services, who.tenant)
        record = entry_of(book, case, value(form, "document_id", 200))
        hearing = _day(value(form, "hearing_date"))
        next_said = value(form, "next_date")
        next_day = _day(next_said)
        if hearing is None or (next_said and next_day is None):
            return await case_page(request, who, 400, who.t("web.legal_bad_date"))
        if hearing > today():  # a hearing that has not happened is a next date, not an entry
            return await case_page(request, who, 400, who.t("web.legal_hearing_future"))
        if next_day is not None and next_day <= hearing:
            return await case_page(request, who, 400, who.t("web.legal_next_after"))
        said = value(form, "text", 4000) or record.text
        corrected = record.model_copy(update={"hearing_date": hearing, "next_date": next_day, "text": said,
                                              "summary": said[:len(record.summary) or len(said)],
                                              "date_source": "edited", "confidence": 1.0})
        await book.file([(corrected, case)], by=who.user.user_id, origin=f"web:{who.user.user_id}", action="edit")
        ctx.access.audit(who.tenant, who.user.user_id, "legal.correct", record.document_id, case=case.case_id,
                         hearing_date=hearing.isoformat(), before=record.hearing_date.isoformat())
        return back_to(f"/{NAME}/case/{case.case_id}", done="corrected")

    async def delete(request: Request) -> Response:
        who, form = await auth.posted(ctx, request, NAME)
        case = case_of(who, request.path_params["case"])
        book = CaseBook(ctx.services, who.tenant)
        record = entry_of(book, case, value(form, "document_id", 200))
        try:
            gone = await book.delete(record.document_id, who.user.user_id)
        except MemoryUnavailable:
            return await case_page(request, who, 503, who.t("legal.delete_unreachable"))
        if gone is not None:
            ctx.access.audit(who.tenant, who.user.user_id, "legal.delete", record.document_id, case=case.case_id,
                             hearing_date=record.hearing_date.isoformat())
        return back_to(f"/{NAME}/case/{case.case_id}", done="deleted")

    return Section(name=NAME, title_key="web.section_legal", pack="legal", roles=frozenset({"admin"}), routes=[
        Route("/", overview), Route("/case/{case}", show_case),
        Route("/case/{case}/correct", correct, methods=["POST"]),
        Route("/case/{case}/delete", delete, methods=["POST"]),
    ])
