"""The accounts-payable office pages: the ledger by state, one invoice's page (its reading, match, flags,
memories and history), and the clerk's moves on it (hold, release to review, approve or reject with a reason,
mark paid) through the pack's own `act` and `pay`, as the command line and the card buttons do."""

from datetime import date
from typing import TYPE_CHECKING, Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bot.web import auth
from bot.web.context import AuditLine, Section, Viewer, WebContext
from bot.web.forms import back_to, one_of, value
from bot.web.render import render
from memory import MemoryLayerError, tags

if TYPE_CHECKING:
    from handlers.ap.pack import APPack

NAME = "ap"
STATES = ("held", "review", "decided", "approved", "paid", "rejected", "superseded")
MOVES = {"hold": "hold", "release": "review", "review": "review", "approve": "approve", "reject": "reject"}
"""The page's buttons and the clerk action each one is (releasing a hold sends the invoice to review)."""


def section(ctx: WebContext) -> Section | None:
    pack: "APPack" = ctx.packs["ap"]  # type: ignore[assignment]
    if not all(hasattr(pack, name) for name in ("act", "pay")):
        return None  # a ledger without the invoice's life (act, pay): no pages to move invoices with

    def record_of(who: Viewer, vendor: str, number: str) -> Any:
        for record in pack.book.recorded_entries(who.tenant):
            if record.entry.vendor_id == vendor and record.entry.invoice_number == number:
                return record
        raise HTTPException(404)

    async def ledger(request: Request) -> Response:
        who = auth.viewer(ctx, request, NAME)
        chosen = request.query_params.get("state", "")
        records = pack.book.recorded_entries(who.tenant)
        counts = {s: sum(1 for r in records if r.state == s) for s in STATES}
        shown = [r for r in records if not chosen or r.state == chosen]
        shown.sort(key=lambda r: (STATES.index(r.state) if r.state in STATES else 9, r.state_at), reverse=False)
        return render(ctx.templates, request, who, "ap_ledger.html", here=NAME, records=shown, counts=counts,
                      chosen=chosen, states=STATES)

    async def invoice(request: Request, who: Viewer | None = None, status: int = 200,
                      problem: str | None = None) -> Response:
        who = who or auth.viewer(ctx, request, NAME)
        vendor, number = request.path_params["vendor"], request.path_params["number"]
        record = record_of(who, vendor, number)
        history = [a for a in pack.book.actions(who.tenant, vendor) if a.invoice_number == number]
        memories: list[Any] = []
        try:
            memories = await ctx.services.memory.list_documents(ctx.services.bank_of(who.tenant, NAME),
                                                                tags=[tags.vendor(vendor)])
        except MemoryLayerError:
            problem = problem or who.t("web.ap_memory_down")
        done = request.query_params.get("done")
        return render(ctx.templates, request, who, "ap_invoice.html", status=status, here=NAME, record=record,
                      history=history, memories=memories[:20], problem=problem,
                      notice=who.t(f"web.ap_done_{done}") if done in ("moved", "paid", "asked") else None,
                      today=ctx.services.clock().date())

    async def show(request: Request) -> Response:
        return await invoice(request)

    async def move(request: Request) -> Response:
        who, form = await auth.posted(ctx, request, NAME)
        vendor, number = request.path_params["vendor"], request.path_params["number"]
        record_of(who, vendor, number)
        action = MOVES[one_of(form, "move", tuple(MOVES))]
        reason = value(form, "reason", 500) or None
        moved = await pack.act(who.tenant, number, vendor, action, who.user.user_id, reason)  # type: ignore[arg-type]
        if moved.outcome not in ("moved", "same", "second_needed"):
            return await invoice(request, who, 409 if moved.outcome != "reason_needed" else 400,
                                 who.t(f"web.ap_act_{moved.outcome}") if moved.outcome in
                                 ("reason_needed", "closed", "stale", "same_person") else who.t("web.error_other"))
        ctx.access.audit(who.tenant, who.user.user_id, f"ap.{action}", f"{vendor} {number}", reason=reason or "")
        return back_to(f"/{NAME}/invoice/{vendor}/{number}",
                       done="asked" if moved.outcome == "second_needed" else "moved")

    async def paid(request: Request) -> Response:
        who, form = await auth.posted(ctx, request, NAME)
        vendor, number = request.path_params["vendor"], request.path_params["number"]
        record_of(who, vendor, number)
        try:
            on = date.fromisoformat(value(form, "paid_on")) if value(form, "paid_on") else ctx.services.clock().date()
        except ValueError:
            return await invoice(request, who, 400, who.t("web.legal_bad_date"))
        result = await pack.pay(who.tenant, number, vendor, on, who.user.user_id, value(form, "account", 40) or None)
        if result.outcome != "paid":
            return await invoice(request, who, 409, who.t(f"web.ap_pay_{result.outcome}")
                                 if result.outcome in ("already_paid", "not_approved", "account_unverified",
                                                       "no_account", "future_date", "before_invoice") else who.t("web.error_other"))
        ctx.access.audit(who.tenant, who.user.user_id, "ap.paid", f"{vendor} {number}", paid_on=on.isoformat())
        return back_to(f"/{NAME}/invoice/{vendor}/{number}", done="paid")

    def audit(tenant: str) -> list[AuditLine]:
        """The clerks' overrides of the agent and rejections, each with its reason."""
        found = [a for a in pack.book.actions(tenant)
                 if a.action in ("override", "reject", "account_confirmed", "approval_asked")]
        return [AuditLine(at=a.at, by=a.by_user, action=a.action, target=f"{a.vendor_id} {a.invoice_number}",
                          reason=a.reason) for a in reversed(found)]

    return Section(name=NAME, title_key="web.section_ap", pack="ap", roles=frozenset({"admin", "clerk"}), audit=audit, routes=[
        Route("/", ledger), Route("/invoice/{vendor}/{number:path}/move", move, methods=["POST"]),
        Route("/invoice/{vendor}/{number:path}/paid", paid, methods=["POST"]),
        Route("/invoice/{vendor}/{number:path}", show),
    ])
