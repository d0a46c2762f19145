"""Signing in by one-time link, the session cookie, and the one-time token every form carries.

The link's token is spent by a POST from the page it opens (a GET only shows a button), so a chat app fetching
the link for a preview does not use it up. A link is bound to one person: it opens a session for that person
only, and is refused while the browser is signed in as someone else, or when the person has since been removed
or moved to another tenant. The cookie holds a random session id signed with the web secret; the database
keeps only the id's hash. A form token names the session and a nonce: a token from another session, a
forged one or one already sent is refused.
"""

import logging
import os
import secrets
from pathlib import Path

from itsdangerous import BadSignature, URLSafeTimedSerializer
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request

from bot.core.registry import User
from bot.settings import Settings
from bot.services.i18n import LANGUAGES
from bot.store.web_access import SESSION_HOURS, WebAccess, WebSession
from bot.web.context import PREFIX, Viewer, WebContext

log = logging.getLogger(__name__)

COOKIE = "smriti_office"
LANG_COOKIE = "smriti_office_lang"
FORM_FIELD = "form_token"
FORM_MAX_AGE_S = SESSION_HOURS * 3600


class SignInNeeded(Exception):
    """No live session: the page says how to get a link."""


def web_secret(settings: Settings) -> str:
    """The key that signs cookies and forms: SMRITI_WEB_SECRET, else one made once and kept in the data folder."""
    if settings.web_secret is not None:
        return settings.web_secret.get_secret_value()
    path = settings.data_dir / "web-secret"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_urlsafe(48))
    return Path(path).read_text(encoding="utf-8").strip()


def base_url(settings: Settings) -> str:
    """Where people reach the office page (links in chat point here)."""
    if settings.web_base_url:
        return settings.web_base_url.rstrip("/")
    if settings.public_base_url:
        return f"{settings.public_base_url.rstrip('/')}{PREFIX}"
    return f"http://127.0.0.1:8090{PREFIX}"


def sign_in_link(access: WebAccess, settings: Settings, user: User, created_by: str) -> str:
    """A new one-time link that signs `user` in; the chat's /web and `smriti web link` both make it here."""
    token = access.make_link(user.tenant, user.user_id, created_by)
    access.audit(user.tenant, created_by, "web.link", user.user_id)
    return f"{base_url(settings)}/login/{token}"


def _cookies(secret: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret, salt="smriti-office-session")


def _forms(secret: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret, salt="smriti-office-form")


def cookie_value(ctx: WebContext, session_id: str) -> str:
    return _cookies(ctx.secret).dumps(session_id)


def session_of(ctx: WebContext, request: Request) -> WebSession | None:
    raw = request.cookies.get(COOKIE)
    if not raw:
        return None
    try:
        session_id = _cookies(ctx.secret).loads(raw, max_age=SESSION_HOURS * 3600)
    except BadSignature:
        return None
    return ctx.access.session(str(session_id))


def person_now(ctx: WebContext, session: WebSession) -> User | None:
    """The session's person as the people table has them now; None (and the session ended) when they were
    removed, moved to another tenant or given another role since signing in."""
    user = ctx.services.registry.by_id(session.person_id)
    if user is None or user.tenant != session.tenant or user.role != session.role:
        ctx.access.end(session.session_hash)
        return None
    return user


def language(ctx: WebContext, request: Request, user: User) -> str:
    chosen = request.cookies.get(LANG_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return ctx.services.state.pref(user.user_id, "lang") or user.lang


def viewer(ctx: WebContext, request: Request, section: str | None = None) -> Viewer:
    """Who is signed in, checked against the section the page belongs to: SignInNeeded without a live session,
    403 when the person's role does not give them this section."""
    session = session_of(ctx, request)
    user = person_now(ctx, session) if session is not None else None
    if session is None or user is None:
        raise SignInNeeded()
    sections = ctx.sections_for(user)
    if section is not None and not any(s.name == section for s in sections):
        raise HTTPException(403)

    def form_token() -> str:
        return str(_forms(ctx.secret).dumps({"s": session.session_hash[:24], "n": secrets.token_urlsafe(16)}))

    return Viewer(user=user, session=session, lang=language(ctx, request, user), sections=sections,
                  form_token=form_token)


async def posted(ctx: WebContext, request: Request, section: str | None = None) -> tuple[Viewer, FormData]:
    """The viewer and the form of a POST whose token is this session's and not sent before; 403 otherwise."""
    who = viewer(ctx, request, section)
    form = await request.form(max_files=1, max_fields=200)
    token = form.get(FORM_FIELD)
    try:
        data = _forms(ctx.secret).loads(str(token or ""), max_age=FORM_MAX_AGE_S)
    except BadSignature:
        log.info("refused a form with a bad token from %s", who.user.user_id)
        raise HTTPException(403, "form")
    if not isinstance(data, dict) or data.get("s") != who.session.session_hash[:24] \
            or not ctx.access.spend_nonce(str(data.get("n"))):
        log.info("refused a form from another session, or sent twice, from %s", who.user.user_id)
        raise HTTPException(403, "form")
    return who, form
