"""Queue: what the tenant's people sent that is kept and not processed (voice notes waiting for speech, items
kept while memory or Groq was down, failures), replies not delivered, and saves waiting for memory; retry and
drop, as `smriti queue retry|drop` does."""

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bot.core.intake import UNPROCESSED, IntakeItem
from bot.core.worker import IntakeWorker
from bot.store.reply_outbox import UNDELIVERED, OutgoingReply
from bot.web import auth
from bot.web.context import Section, WebContext
from bot.web.forms import back_to
from bot.web.render import render

NAME = "queue"


def kind_of(item: IntakeItem) -> str:
    media = item.incoming.media
    if media is not None:
        return "voice" if media.kind in ("voice", "audio") else "media"
    return "button" if item.incoming.callback else "text"


def section(ctx: WebContext) -> Section:
    services = ctx.services

    def tenant_people(tenant: str) -> set[str]:
        return {u.user_id for u in services.registry.users_of(tenant)}

    def item_of(request: Request, tenant: str) -> IntakeItem:
        item = services.intake.get(request.path_params["intake_id"])
        if item is None or item.user_id not in tenant_people(tenant):
            raise HTTPException(404)
        return item

    async def listing(request: Request) -> Response:
        who = auth.viewer(ctx, request, NAME)
        mine = tenant_people(who.tenant)
        items = [i for i in services.intake.listing(UNPROCESSED) if i.user_id in mine]
        replies = [r for r in services.replies.outbox.listing(UNDELIVERED) if r.user_id in mine]
        banks = {services.bank_of(who.tenant, pack) for pack in ctx.packs}
        retains = [q for q in services.outbox.pending() if q.bank_id in banks]
        done = request.query_params.get("done")
        return render(ctx.templates, request, who, "queue.html", here=NAME, items=items, replies=replies,
                      retains=retains, kind_of=kind_of,
                      notice=who.t(f"web.queue_done_{done}") if done in ("retried", "dropped") else None)

    async def retry(request: Request) -> Response:
        who, _ = await auth.posted(ctx, request, NAME)
        item = item_of(request, who.tenant)
        services.intake.make_due(item.intake_id)
        ctx.access.audit(who.tenant, who.user.user_id, "queue.retry", item.intake_id)
        await IntakeWorker(ctx.conversation).run_once()
        return back_to(f"/{NAME}/", done="retried")

    def reply_of(request: Request, tenant: str) -> OutgoingReply:
        key, _, position = request.path_params["reply"].rpartition("~")
        rows = [r for r in services.replies.outbox.rows(key) if str(r.position) == position]
        if not rows or rows[0].user_id not in tenant_people(tenant) or rows[0].state not in UNDELIVERED:
            raise HTTPException(404)
        return rows[0]

    async def reply_retry(request: Request) -> Response:
        who, _ = await auth.posted(ctx, request, NAME)
        row = reply_of(request, who.tenant)
        services.replies.outbox.send_again(row)
        ctx.access.audit(who.tenant, who.user.user_id, "queue.reply_retry", f"{row.key}#{row.position}")
        return back_to(f"/{NAME}/", done="retried")

    async def reply_drop(request: Request) -> Response:
        who, _ = await auth.posted(ctx, request, NAME)
        row = reply_of(request, who.tenant)
        services.replies.outbox.erase([row])
        ctx.access.audit(who.tenant, who.user.user_id, "queue.reply_drop", f"{row.key}#{row.position}")
        return back_to(f"/{NAME}/", done="dropped")

    async def drop(request: Request) -> Response:
        who, _ = await auth.posted(ctx, request, NAME)
        item = item_of(request, who.tenant)
        if services.intake.drop(item.intake_id):
            ctx.access.audit(who.tenant, who.user.user_id, "queue.drop", item.intake_id)
        return back_to(f"/{NAME}/", done="dropped")

    return Section(name=NAME, title_key="web.section_queue", routes=[
        Route("/", listing), Route("/reply/{reply}/retry", reply_retry, methods=["POST"]),
        Route("/reply/{reply}/drop", reply_drop, methods=["POST"]),
        Route("/{intake_id}/retry", retry, methods=["POST"]),
        Route("/{intake_id}/drop", drop, methods=["POST"]),
    ])
