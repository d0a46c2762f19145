"""The office web app: sign-in, the home page, the language switch, and each section's pages, under /office."""

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route

from bot.core.pack import PackCatalog
from bot.services.i18n import LANGUAGES
from bot.store.web_access import SESSION_HOURS, WebAccess
from bot.web import auth
from bot.web.context import PREFIX, Section, WebContext
from bot.web.render import make_templates, render

log = logging.getLogger(__name__)

CORE_SECTIONS = ("people", "registers", "queue", "privacy", "memory")

if TYPE_CHECKING:
    from bot.core.app import App


def build_context(app: "App", catalog: PackCatalog) -> WebContext:
    """The context every page uses, with the core's sections and every installed pack's (its `web` module)."""
    from bot.cli.registers import all_kinds

    ctx = WebContext(services=app.services, packs=app.packs, kinds=all_kinds(catalog.packages()),
                     conversation=app.conversation, access=WebAccess(app.services.database),
                     secret=auth.web_secret(app.services.settings))
    template_dirs: list[Path] = []
    from bot.web import memory_page, people, privacy, queue, registers

    for module in (people, registers, queue, privacy, memory_page):
        ctx.sections.append(module.section(ctx))
    for entry in catalog.select(list(app.packs)):
        part = entry.part("web")
        if part is None:
            continue
        found = part.section(ctx)
        if found is None:  # the pack has no pages to offer in this version
            continue
        ctx.sections.append(found)
        folder = Path(part.__file__ or "").parent / "web_templates"
        if folder.is_dir():
            template_dirs.append(folder)
    ctx.templates = make_templates(template_dirs)
    return ctx


def create_web_app(ctx: WebContext) -> Starlette:
    """The ASGI app; mount it as it is (its routes carry the /office prefix)."""

    async def home(request: Request) -> Response:
        who = auth.viewer(ctx, request)
        return render(ctx.templates, request, who, "home.html")

    async def login_page(request: Request) -> Response:
        token = request.path_params["token"]
        named = ctx.access.link_person(token)
        person = ctx.services.registry.by_id(named[1]) if named is not None else None
        if named is None or person is None or not ctx.access.link_is_live(token):
            return render(ctx.templates, request, None, "signin_refused.html", status=403, reason="used")
        return render(ctx.templates, request, None, "signin.html", lang=person.lang, person=person)

    async def login(request: Request) -> Response:
        token = request.path_params["token"]
        named = ctx.access.link_person(token)
        person = ctx.services.registry.by_id(named[1]) if named is not None else None
        if named is None or person is None or person.tenant != named[0]:
            return render(ctx.templates, request, None, "signin_refused.html", status=403, reason="used")
        current = auth.session_of(ctx, request)
        if current is not None and current.person_id != person.user_id:
            # A link is for its own person: it never replaces, or rides on, someone else's session here.
            return render(ctx.templates, request, None, "signin_refused.html", status=403, reason="other")
        opened = ctx.access.use_link(token, person.role)
        if opened is None:
            return render(ctx.templates, request, None, "signin_refused.html", status=403, reason="used")
        session_id, session = opened
        ctx.access.audit(session.tenant, person.user_id, "web.sign_in", person.user_id)
        response = RedirectResponse(f"{PREFIX}/", status_code=303)
        response.set_cookie(auth.COOKIE, auth.cookie_value(ctx, session_id), max_age=SESSION_HOURS * 3600,
                            path=PREFIX, httponly=True, samesite="strict", secure=_https(request))
        return response

    async def logout(request: Request) -> Response:
        who, _ = await auth.posted(ctx, request)
        ctx.access.end(who.session.session_hash)
        ctx.access.audit(who.tenant, who.user.user_id, "web.sign_out", who.user.user_id)
        response = render(ctx.templates, request, None, "signed_out.html", lang=who.lang)
        response.delete_cookie(auth.COOKIE, path=PREFIX, httponly=True, samesite="strict", secure=_https(request))
        return response

    async def language(request: Request) -> Response:
        choice = request.path_params["lang"]
        if choice not in LANGUAGES:
            raise HTTPException(404)
        back = request.query_params.get("back", f"{PREFIX}/")
        response = RedirectResponse(back if back.startswith(f"{PREFIX}/") else f"{PREFIX}/", status_code=303)
        response.set_cookie(auth.LANG_COOKIE, choice, max_age=365 * 86400, path=PREFIX, samesite="strict",
                            secure=_https(request))
        return response

    routes: list[BaseRoute] = [
        Route("/", home),
        Route("/login/{token}", login_page, methods=["GET"]),
        Route("/login/{token}", login, methods=["POST"]),
        Route("/logout", logout, methods=["POST"]),
        Route("/lang/{lang}", language),
    ]
    for section in ctx.sections:
        routes.append(Mount(f"/{section.name}", routes=section.routes))

    async def sign_in_needed(request: Request, exc: Exception) -> Response:
        lang = request.cookies.get(auth.LANG_COOKIE) or "en"
        return render(ctx.templates, request, None, "signin_needed.html", status=401,
                      lang=lang if lang in LANGUAGES else "en")

    async def http_error(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        try:
            who = auth.viewer(ctx, request)
        except (auth.SignInNeeded, HTTPException):
            who = None
        reason = exc.detail if isinstance(exc, HTTPException) and exc.detail == "form" else str(status)
        return render(ctx.templates, request, who, "error.html", status=status, reason=reason)

    inner = Starlette(routes=routes, exception_handlers={auth.SignInNeeded: sign_in_needed, HTTPException: http_error})
    return Starlette(routes=[office_mount(inner)])


def office_mount(inner: Starlette) -> Mount:
    """The office app at /office, to mount beside the webhooks."""
    return Mount(PREFIX, app=inner)


def _https(request: Request) -> bool:
    forwarded = request.headers.get("x-forwarded-proto", "")
    return request.url.scheme == "https" or forwarded.split(",")[0].strip() == "https"


__all__ = ["CORE_SECTIONS", "Section", "build_context", "create_web_app", "office_mount"]
