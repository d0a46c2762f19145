"""The field pack's office pages: farmers with their visits and outcomes (from the visit records), pending
follow-ups, and a village's insights with the chart, through the same code as /brief, /followups and /insights."""

import base64
import tempfile
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bot.services.registers.table import fold
from bot.web import auth
from bot.web.context import Section, WebContext
from bot.web.render import render
from handlers.agri.chart import advice_outcomes
from handlers.agri.models import Visit

if TYPE_CHECKING:
    from handlers.agri.pack import AgriPack

NAME = "field"


def section(ctx: WebContext) -> Section:
    pack: "AgriPack" = ctx.packs["agri"]  # type: ignore[assignment]

    async def overview(request: Request) -> Response:
        who = auth.viewer(ctx, request, NAME)
        book = pack.book_for(who.tenant)
        query = fold(request.query_params.get("q", "")[:100])
        visits = pack.records.visits(who.tenant)
        counts: dict[str, int] = {}
        last: dict[str, date] = {}
        for saved in visits:
            farmer = saved.visit.farmer_id or ""
            counts[farmer] = counts.get(farmer, 0) + 1
            last[farmer] = max(last.get(farmer, saved.visit.date), saved.visit.date)
        farmers = [f for f in book.farmers.values()
                   if not query or query in fold(f.id) or query in fold(f.name) or query in fold(f.name_te or "")]
        people = {u.user_id: u for u in ctx.services.registry.users_of(who.tenant)}
        scheduler = ctx.services.scheduler
        pending = [f for f in (scheduler.pending(pack=pack.name) if scheduler else []) if f.user_id in people]
        followups = []
        for followup in pending:
            visit = Visit.model_validate_json(followup.subject["visit"])
            followups.append((followup, visit, book.farmer_name(visit.farmer_id, who.lang), people[followup.user_id]))
        return render(ctx.templates, request, who, "field.html", here=NAME, farmers=farmers[:300], counts=counts,
                      last=last, followups=followups, villages=sorted(book.villages.values(), key=lambda v: v.name),
                      query=request.query_params.get("q", "")[:100], book=book)

    async def farmer(request: Request) -> Response:
        who = auth.viewer(ctx, request, NAME)
        book = pack.book_for(who.tenant)
        found = book.farmers.get(request.path_params["farmer"])
        if found is None:
            raise HTTPException(404)
        visits, outcomes = pack.records.of_farmer(who.tenant, found.id)
        by_visit = {o.outcome.visit_id: o.outcome for o in outcomes}
        return render(ctx.templates, request, who, "field_farmer.html", here=NAME, farmer=found, book=book,
                      visits=sorted(visits, key=lambda s: s.visit.date, reverse=True), by_visit=by_visit)

    async def village(request: Request) -> Response:
        who = auth.viewer(ctx, request, NAME)
        book = pack.book_for(who.tenant)
        slug = request.path_params["village"]
        if slug not in book.villages:
            raise HTTPException(404)
        today = pack.today()
        found = await pack.insights_for(who.tenant, slug, today, who.lang, today)
        chart = None
        if found.counts:
            with tempfile.TemporaryDirectory(prefix="smriti-chart-") as folder:
                drawn = advice_outcomes(who.t("agri.insights_chart_title", village=book.village_name(slug, who.lang)),
                                        found.counts, Path(folder) / "insights.png")
                chart = base64.b64encode(drawn.path.read_bytes()).decode("ascii")
        return render(ctx.templates, request, who, "field_village.html", here=NAME, insights=found, chart=chart,
                      village=book.villages[slug], name=book.village_name(slug, who.lang))

    return Section(name=NAME, title_key="web.section_field", pack="agri", routes=[
        Route("/", overview), Route("/farmer/{farmer}", farmer), Route("/village/{village}", village),
    ])
