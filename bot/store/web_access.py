"""The office web page's own records: one-time sign-in links, sessions, used form tokens and the audit of what
people did there.

A sign-in link carries a random token; only its hash is kept (like invites), so the table cannot be read back
into working links. Using it is one conditional UPDATE (unused, not expired), so of two uses exactly one wins.
A session is a random id (its hash kept) bound to one person, tenant and role, with an expiry; signing out ends
it. A form token is used once: its nonce is inserted when the form comes back, and a second insert is refused.
"""

import hashlib
import json
import secrets
from datetime import datetime, timedelta, timezone

from pydantic import BaseModel
from sqlalchemy import DateTime, String, Text, delete, select, update
from sqlalchemy.orm import Mapped, mapped_column

from bot.store import Base, Database
from bot.store.sql import insert_ignore, rowcount, utc

LINK_MINUTES = 15
SESSION_HOURS = 8


class WebLinkRow(Base):
    __tablename__ = "web_links"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(String(41), index=True)
    person_id: Mapped[str] = mapped_column(String(41))
    created_by: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class WebSessionRow(Base):
    __tablename__ = "web_sessions"
    session_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(String(41), index=True)
    person_id: Mapped[str] = mapped_column(String(41))
    role: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class WebNonceRow(Base):
    __tablename__ = "web_form_nonces"
    nonce: Mapped[str] = mapped_column(String(64), primary_key=True)
    used_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class WebAuditRow(Base):
    __tablename__ = "web_audit"
    seq: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    tenant_id: Mapped[str] = mapped_column(String(41), index=True)
    by_user: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(40))
    target: Mapped[str] = mapped_column(String(200))
    detail: Mapped[str] = mapped_column(Text)


class WebSession(BaseModel):
    """Who a valid session cookie belongs to."""

    session_hash: str
    tenant: str
    person_id: str
    role: str
    expires_at: datetime


class WebAuditEntry(BaseModel):
    at: datetime
    by: str
    action: str
    target: str
    detail: dict[str, object]


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _now() -> datetime:
    return datetime.now(timezone.utc)


class WebAccess:
    """Links, sessions, form nonces and the audit, over the one database (several processes may share it)."""

    def __init__(self, database: Database) -> None:
        self._db = database

    def make_link(self, tenant: str, person_id: str, created_by: str, minutes: float = LINK_MINUTES,
                  now: datetime | None = None) -> str:
        """A new one-time sign-in token for this person; shown once, only its hash is kept."""
        now = now or _now()
        token = secrets.token_urlsafe(32)
        with self._db.session() as s:
            s.add(WebLinkRow(token_hash=_hash(token), tenant_id=tenant, person_id=person_id, created_by=created_by,
                             created_at=now, expires_at=now + timedelta(minutes=minutes)))
        return token

    def link_is_live(self, token: str, now: datetime | None = None) -> bool:
        now = now or _now()
        with self._db.session() as s:
            row = s.get(WebLinkRow, _hash(token))
            return row is not None and row.used_at is None and utc(row.expires_at) > now  # type: ignore[operator]

    def use_link(self, token: str, role: str, hours: float = SESSION_HOURS,
                 now: datetime | None = None) -> tuple[str, WebSession] | None:
        """Spend a live link and open a session for its person: (cookie value, session), or None when the link is
        unknown, used or expired. `role` is the person's role now, which the session is bound to."""
        now = now or _now()
        digest = _hash(token)
        session_id = secrets.token_urlsafe(32)
        with self._db.session() as s:
            won = s.execute(update(WebLinkRow).where(
                WebLinkRow.token_hash == digest, WebLinkRow.used_at.is_(None), WebLinkRow.expires_at > now,
            ).values(used_at=now).execution_options(synchronize_session=False))
            if rowcount(won) != 1:
                return None
            link = s.get(WebLinkRow, digest)
            assert link is not None
            row = WebSessionRow(session_hash=_hash(session_id), tenant_id=link.tenant_id, person_id=link.person_id,
                                role=role, created_at=now, expires_at=now + timedelta(hours=hours))
            s.add(row)
        self._prune(now)
        return session_id, self._session(row)

    def _prune(self, now: datetime) -> None:
        """Drop what can no longer be used (old links, sessions, form nonces); done at each sign-in, so the
        tables stay as small as the people signed in lately."""
        old = now - timedelta(hours=SESSION_HOURS + 1)
        with self._db.session() as s:
            s.execute(delete(WebLinkRow).where(WebLinkRow.expires_at < old))
            s.execute(delete(WebSessionRow).where(WebSessionRow.expires_at < old))
            s.execute(delete(WebNonceRow).where(WebNonceRow.used_at < old))

    def link_person(self, token: str) -> tuple[str, str] | None:
        """(tenant, person) a link names, used or not."""
        with self._db.session() as s:
            row = s.get(WebLinkRow, _hash(token))
            return (row.tenant_id, row.person_id) if row is not None else None

    def session(self, session_id: str, now: datetime | None = None) -> WebSession | None:
        """The live session this cookie value opens, or None (unknown, expired or signed out)."""
        now = now or _now()
        with self._db.session() as s:
            row = s.get(WebSessionRow, _hash(session_id))
            if row is None or row.ended_at is not None or utc(row.expires_at) <= now:  # type: ignore[operator]
                return None
            return self._session(row)

    def end(self, session_hash: str, now: datetime | None = None) -> None:
        with self._db.session() as s:
            s.execute(update(WebSessionRow).where(WebSessionRow.session_hash == session_hash,
                                                  WebSessionRow.ended_at.is_(None)).values(ended_at=now or _now()))

    def end_all_for(self, person_id: str) -> int:
        """End every session of a person (removed, or their role changed)."""
        with self._db.session() as s:
            result = s.execute(update(WebSessionRow).where(WebSessionRow.person_id == person_id,
                                                           WebSessionRow.ended_at.is_(None)).values(ended_at=_now()))
            return rowcount(result)

    def spend_nonce(self, nonce: str) -> bool:
        """True the first time a form's nonce comes back, False on a replay."""
        with self._db.session() as s:
            return insert_ignore(s, WebNonceRow.__table__, {"nonce": nonce, "used_at": _now()})

    def audit(self, tenant: str, by: str, action: str, target: str, **detail: object) -> None:
        with self._db.session() as s:
            s.add(WebAuditRow(at=_now(), tenant_id=tenant, by_user=by, action=action, target=target[:200],
                              detail=json.dumps(detail, ensure_ascii=False, sort_keys=True, default=str)))

    def audit_entries(self, tenant: str, limit: int = 200) -> list[WebAuditEntry]:
        with self._db.session() as s:
            rows = s.scalars(select(WebAuditRow).where(WebAuditRow.tenant_id == tenant)
                             .order_by(WebAuditRow.seq.desc()).limit(limit))
            return [WebAuditEntry(at=utc(r.at), by=r.by_user, action=r.action, target=r.target,  # type: ignore[arg-type]
                                  detail=json.loads(r.detail)) for r in rows]

    @staticmethod
    def _session(row: WebSessionRow) -> WebSession:
        return WebSession(session_hash=row.session_hash, tenant=row.tenant_id, person_id=row.person_id,
                          role=row.role, expires_at=utc(row.expires_at))  # type: ignore[arg-type]
