"""People: the tenant's people (add, change role and territories, remove) and invites (make, see, revoke)."""

import io
import re
from typing import Any
from datetime import datetime, timezone

import segno
from pydantic import ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bot.core.registry import User
from bot.services.i18n import LANGUAGES
from bot.store.invites import InviteRequest, InviteStore, pack_for, telegram_link, whatsapp_link
from bot.store.people import ChannelTaken, OtherTenantsId, add_person, load_people, remove_person
from bot.store.people_table import territory_slugs, whatsapp_number
from bot.web import auth
from bot.web.context import Section, Viewer, WebContext
from bot.web.forms import back_to, one_of, value
from bot.web.render import render

ROLES = ("admin", "officer", "lawyer", "clerk")
NAME = "people"


def qr_svg(data: str) -> str:
    """The link as a QR code (inline SVG), for a phone's camera."""
    out = io.BytesIO()
    segno.make(data, error="m").save(out, kind="svg", scale=4, border=2, xmldecl=False, svgns=True)
    return out.getvalue().decode("utf-8")


def section(ctx: WebContext) -> Section:
    invites = InviteStore(ctx.services.database)

    def person_of(request: Request, tenant: str) -> User:
        found = ctx.services.registry.by_id(request.path_params["person"])
        if found is None or found.tenant != tenant:
            raise HTTPException(404)
        return found

    def page(request: Request, who: Viewer, status: int = 200, **values: Any) -> Response:
        people = [u for u in load_people(ctx.services.database) if u.tenant == who.tenant]
        now = datetime.now(timezone.utc)
        shown = [(i, i.state(now)) for i in reversed(invites.invites(who.tenant))]
        packs = sorted(ctx.packs)
        done = request.query_params.get("done")
        if done in ("added", "changed", "removed", "revoked"):
            values.setdefault("notice", who.t(f"web.people_done_{done}"))
        return render(ctx.templates, request, who, "people.html", status=status, here=NAME, people=people,
                      invites=shown, roles=ROLES, packs=packs, languages_=LANGUAGES, **values)

    async def listing(request: Request) -> Response:
        return page(request, auth.viewer(ctx, request, NAME))

    def person_from(form_user: str, form: object, who: Viewer, keep: User | None) -> User:
        from starlette.datastructures import FormData

        assert isinstance(form, FormData)
        role = one_of(form, "role", ROLES)
        pack = pack_for(role, (value(form, "pack") or None) if role == "admin" else None)  # type: ignore[arg-type]
        if pack is None or pack not in ctx.packs:
            raise ValueError(who.t("web.people_pack_needed"))
        telegram = keep.telegram_ids if keep else [int(t) for t in re.split(r"[\s,;]+", value(form, "telegram")) if t]
        whatsapp = keep.whatsapp_numbers if keep else [whatsapp_number(n) for n in
                                                       re.split(r"[,;]+", value(form, "whatsapp")) if n.strip()]
        return User(user_id=form_user, name=value(form, "name", 200) or (keep.name if keep else ""), role=role,  # type: ignore[arg-type]
                    pack=pack, tenant=who.tenant, lang=one_of(form, "language", LANGUAGES),  # type: ignore[arg-type]
                    officer_id=value(form, "officer_id", 41) or (keep.officer_id if keep else None),
                    territories=territory_slugs(value(form, "territories")), telegram_ids=telegram,
                    whatsapp_numbers=whatsapp)

    def save(who: Viewer, user: User) -> str | None:
        try:
            add_person(ctx.services.database, user)
        except OtherTenantsId:
            return who.t("people.other_tenant", user=user.user_id)
        except ChannelTaken:
            return who.t("people.channel_taken")
        ctx.services.registry.refresh()
        return None

    async def add(request: Request) -> Response:
        who, form = await auth.posted(ctx, request, NAME)
        try:
            user = person_from(value(form, "user_id", 41).lower(), form, who, None)
        except (ValidationError, ValueError) as exc:
            return page(request, who, status=400, problem=_reason(who, exc))
        problem = save(who, user)
        if problem:
            return page(request, who, status=400, problem=problem)
        ctx.access.audit(who.tenant, who.user.user_id, "people.add", user.user_id, role=user.role, pack=user.pack)
        return back_to(f"/{NAME}/", done="added")

    async def edit_page(request: Request) -> Response:
        who = auth.viewer(ctx, request, NAME)
        person = person_of(request, who.tenant)
        return render(ctx.templates, request, who, "person.html", here=NAME, person=person, roles=ROLES,
                      packs=sorted(ctx.packs), languages_=LANGUAGES)

    async def edit(request: Request) -> Response:
        who, form = await auth.posted(ctx, request, NAME)
        person = person_of(request, who.tenant)
        try:
            user = person_from(person.user_id, form, who, person)
        except (ValidationError, ValueError) as exc:
            return render(ctx.templates, request, who, "person.html", status=400, here=NAME, person=person,
                          roles=ROLES, packs=sorted(ctx.packs), languages_=LANGUAGES, problem=_reason(who, exc))
        if person.role == "admin" and user.role != "admin" and not _other_admins(person):
            return page(request, who, status=400, problem=who.t("web.people_last_admin"))
        problem = save(who, user)
        if problem:
            return page(request, who, status=400, problem=problem)
        if user.role != person.role:
            ctx.access.end_all_for(person.user_id)
        ctx.access.audit(who.tenant, who.user.user_id, "people.change", user.user_id, role=user.role,
                         before=person.role, territories=user.territories)
        return back_to(f"/{NAME}/", done="changed")

    def _other_admins(person: User) -> list[User]:
        """The tenant's administrators besides `person`: a tenant is never left without one."""
        return [u for u in load_people(ctx.services.database, person.tenant)
                if u.role == "admin" and u.user_id != person.user_id]

    async def remove(request: Request) -> Response:
        who, _ = await auth.posted(ctx, request, NAME)
        person = person_of(request, who.tenant)
        if person.user_id == who.user.user_id:
            return page(request, who, status=400, problem=who.t("web.people_not_yourself"))
        remove_person(ctx.services.database, who.tenant, person.user_id)
        ctx.access.end_all_for(person.user_id)
        ctx.services.registry.refresh()
        ctx.access.audit(who.tenant, who.user.user_id, "people.remove", person.user_id)
        return back_to(f"/{NAME}/", done="removed")

    async def invite(request: Request) -> Response:
        who, form = await auth.posted(ctx, request, NAME)
        role = one_of(form, "role", ROLES)
        pack = pack_for(role, (value(form, "pack") or None) if role == "admin" else None)  # type: ignore[arg-type]
        try:
            if pack is None or pack not in ctx.packs:
                raise ValueError(who.t("web.people_pack_needed"))
            hours = float(value(form, "hours") or 72)
            made = invites.create(InviteRequest(tenant=who.tenant, role=role, pack=pack,  # type: ignore[arg-type]
                                                name=value(form, "name", 200) or None,
                                                lang=one_of(form, "language", LANGUAGES),  # type: ignore[arg-type]
                                                territories=territory_slugs(value(form, "territories")),
                                                hours=hours), created_by=who.user.user_id)
        except (ValidationError, ValueError) as exc:
            return page(request, who, status=400, problem=_reason(who, exc))
        ctx.access.audit(who.tenant, who.user.user_id, "invite.make", made.invite.ref, role=role, pack=pack)
        settings = ctx.services.settings
        username = ctx.conversation.invitations.telegram_username or settings.telegram_bot_username
        links = {"telegram": telegram_link(username, made.code) if username else None,
                 "whatsapp": whatsapp_link(settings.twilio_whatsapp_from, made.code)
                 if settings.twilio_whatsapp_from else None}
        qr_target = links["telegram"] or links["whatsapp"] or made.code
        return render(ctx.templates, request, who, "invite_made.html", here=NAME, made=made, links=links,
                      qr=qr_svg(qr_target))

    async def revoke(request: Request) -> Response:
        who, _ = await auth.posted(ctx, request, NAME)
        ref = request.path_params["ref"]
        if not any(i.ref == ref for i in invites.invites(who.tenant)):
            raise HTTPException(404)
        revoked = invites.revoke(who.tenant, ref)
        if revoked is None:
            return page(request, who, status=409, problem=who.t("people.revoke_unknown", ref=ref, tenant=who.tenant))
        ctx.access.audit(who.tenant, who.user.user_id, "invite.revoke", ref, role=revoked.role)
        return back_to(f"/{NAME}/", done="revoked")

    return Section(name=NAME, title_key="web.section_people", routes=[
        Route("/", listing), Route("/add", add, methods=["POST"]), Route("/invite", invite, methods=["POST"]),
        Route("/invites/{ref}/revoke", revoke, methods=["POST"]),
        Route("/{person}", edit_page, methods=["GET"]), Route("/{person}", edit, methods=["POST"]),
        Route("/{person}/remove", remove, methods=["POST"]),
    ])


def _reason(who: Viewer, exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        return who.t("people.invalid", field=".".join(str(p) for p in first["loc"]), reason=first["msg"])
    return who.t("people.failed", reason=str(exc))
