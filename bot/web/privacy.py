"""Audit and privacy: what was done (forget and export requests, imports, actions on the office page) and, for
one subject, forget (the preview of what goes and what is kept, then Erase) or export (JSON), through the same
requests as `smriti forget|export-subject` and the chat's /forget and /export."""

import json
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bot.core.subject_chat import KINDS, find
from bot.core.subject_ops import SubjectRequests, canonical, counts
from bot.store.subject_audit import SubjectAudit
from bot.web import auth
from bot.web.context import Section, Viewer, WebContext
from bot.web.forms import one_of, value
from bot.web.render import render
from memory.subjects import HeldItem, Subject

NAME = "privacy"


def section(ctx: WebContext) -> Section:
    services = ctx.services

    def requests(who: Viewer) -> SubjectRequests:
        return SubjectRequests(services, ctx.packs, by=who.user.user_id, via="web")

    def overview(request: Request, who: Viewer, status: int = 200, **values: Any) -> Response:
        return render(ctx.templates, request, who, "privacy.html", status=status, here=NAME, kinds=KINDS,
                      subject_audit=list(reversed(SubjectAudit(services.database).entries(who.tenant)))[:100],
                      imports=ctx.conversation.imports.history(who.tenant),
                      actions=ctx.access.audit_entries(who.tenant),
                      pack_audit=[(ctx_section.title_key, line) for ctx_section in ctx.sections
                                  if ctx_section.audit is not None for line in ctx_section.audit(who.tenant)[:100]],
                      **values)

    async def page(request: Request) -> Response:
        who = auth.viewer(ctx, request, NAME)
        done = request.query_params.get("done")
        erased = _count(request.query_params.get("n", "0"))
        return overview(request, who, notice=who.t("web.privacy_erased", count=erased)
                        if done == "erased" else None)

    def subject_from(who: Viewer, kind: str, query: str) -> Subject | str:
        found = find(services, ctx.packs, who.tenant, kind, query)
        if not found:
            return who.t("subjects.not_found", kind=kind, query=query)
        if len(found) > 1:
            return who.t("subjects.ambiguous", query=query,
                         choices=", ".join(f"{i} ({n})" for i, n in found[:8]))
        return canonical(ctx.packs, Subject(tenant=who.tenant, kind=kind, subject_id=found[0][0]))  # type: ignore[arg-type]

    async def preview(request: Request) -> Response:
        who, form = await auth.posted(ctx, request, NAME)
        kind, query = one_of(form, "kind", KINDS), value(form, "query", 200)
        action = one_of(form, "action", ("forget", "export"))
        subject = subject_from(who, kind, query) if query else who.t("subjects.usage")
        if isinstance(subject, str):
            return overview(request, who, status=400, problem=subject)
        if action == "export":
            exported = await requests(who).export(subject)
            body = json.dumps(exported, indent=1, ensure_ascii=False, default=str)
            name = f"{who.tenant}-{subject.kind}-{subject.subject_id}.json".replace("/", "-").replace(" ", "_")
            return Response(body, media_type="application/json",
                            headers={"Content-Disposition": f'attachment; filename="{name}"'})
        held = await requests(who).preview(subject)
        return render(ctx.templates, request, who, "forget_preview.html", here=NAME, subject=subject,
                      erased=_grouped(held, erased=True), kept=_grouped(held, erased=False),
                      anything=any(i.kept_because is None for i in held))

    async def erase(request: Request) -> Response:
        who, form = await auth.posted(ctx, request, NAME)
        kind = one_of(form, "kind", KINDS)
        subject = Subject(tenant=who.tenant, kind=kind, subject_id=value(form, "subject_id", 200))  # type: ignore[arg-type]
        if not find(services, ctx.packs, who.tenant, kind, subject.subject_id) and kind != "person":
            raise HTTPException(404)
        if kind == "person" and subject.subject_id == who.user.user_id:
            return overview(request, who, status=400, problem=who.t("web.people_not_yourself"))
        asked = requests(who)
        held = await asked.preview(subject)
        failed = await asked.erase(subject, held)
        if failed is not None:
            return overview(request, who, status=503, problem=who.t("subjects.failed", reason=failed))
        if kind == "person":
            ctx.access.end_all_for(subject.subject_id)
            services.registry.refresh()
        erased = sum(1 for i in held if i.kept_because is None)
        from bot.web.forms import back_to

        return back_to(f"/{NAME}/", done="erased", n=str(erased))

    return Section(name=NAME, title_key="web.section_privacy", routes=[
        Route("/", page), Route("/subject", preview, methods=["POST"]), Route("/erase", erase, methods=["POST"]),
    ])


def _grouped(held: list[HeldItem], erased: bool) -> list[tuple[str, str, int, str]]:
    """(store, what, how many, dates or the reason it is kept) for the preview's table."""
    chosen = [i for i in held if (i.kept_because is None) == erased]
    rows = []
    for key, count in sorted(counts(chosen).items()):
        store, what = key.split(":", 1)
        same = [i for i in chosen if f"{i.store}:{i.kind}" == key]
        if erased:
            days = sorted({i.day.isoformat() for i in same if i.day})
            note = ", ".join(days[:8]) + (", ..." if len(days) > 8 else "")
        else:
            note = "; ".join(sorted({i.kept_because or "" for i in same}))
        rows.append((store, what, count, note))
    return rows


def _count(value: str) -> int:
    """The erased count carried back in the redirect's query; anything else than a number reads as 0."""
    return int(value) if value.isdigit() else 0
