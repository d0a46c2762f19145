"""Invites: a one-time code with an expiry that lets one new person in, for one tenant, pack and role.

Only a hash of the code is stored, so the table cannot be read back into working links. Redeeming is one
transaction: a conditional UPDATE marks the code used (only if it is unused and not expired) and the person, their
channel and territories are written with it; of two redemptions of one code exactly one wins, and a failed one
leaves nothing behind. A code is short, lower-case and free of look-alike characters, so it survives being read
out or typed; hyphens, spaces and capitals are ignored when it comes back.
"""

import hashlib
import logging
import re
import secrets
from datetime import datetime, timedelta, timezone

from pydantic import BaseModel, Field
from sqlalchemy import DateTime, ForeignKey, String, Text, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from bot.store.people import ChannelRow, PersonRow, TerritoryRow
from bot.core.registry import Language, Pack, Role, User
from bot.store import Base, Database
from bot.store.sql import utc
from bot.store.tenants import ensure_tenant

log = logging.getLogger(__name__)

ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
CODE_LENGTH = 10
DEFAULT_HOURS = 72
PACK_OF_ROLE: dict[str, Pack] = {"officer": "agri", "lawyer": "legal", "clerk": "ap"}
_CODE_SHAPE = re.compile(f"[{ALPHABET}]{{{CODE_LENGTH}}}")


class InviteRow(Base):
    __tablename__ = "invites"
    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(String(41), ForeignKey("tenants.tenant_id"), index=True)
    pack: Mapped[str] = mapped_column(String(16))
    role: Mapped[str] = mapped_column(String(16))
    name: Mapped[str | None] = mapped_column(String(200))
    language: Mapped[str] = mapped_column(String(8))
    officer_id: Mapped[str | None] = mapped_column(String(41))
    territories: Mapped[str] = mapped_column(Text)
    created_by: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    person_id: Mapped[str | None] = mapped_column(String(41))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class InviteRequest(BaseModel):
    """Who an invite lets in: the person it creates takes these values."""

    tenant: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{0,40}$")
    role: Role
    pack: Pack
    name: str | None = Field(default=None, max_length=200)
    lang: Language = "en"
    officer_id: str | None = None
    territories: list[str] = Field(default_factory=list)
    hours: float = Field(default=DEFAULT_HOURS, gt=0, le=24 * 90)


class Invite(BaseModel):
    """An invite as the table keeps it (never the code itself)."""

    ref: str
    """The first characters of the code's hash: enough to tell invites apart in a list."""
    tenant: str
    role: Role
    pack: Pack
    name: str | None
    created_by: str | None
    expires_at: datetime
    used_at: datetime | None
    person_id: str | None
    revoked_at: datetime | None = None

    def live(self, now: datetime) -> bool:
        return self.used_at is None and self.revoked_at is None and self.expires_at > now

    def state(self, now: datetime) -> str:
        """open, used, revoked or expired."""
        if self.used_at is not None:
            return "used"
        if self.revoked_at is not None:
            return "revoked"
        return "open" if self.expires_at > now else "expired"


class IssuedInvite(BaseModel):
    code: str
    """Shown once, to the one who made the invite; the table keeps only its hash."""
    invite: Invite


def pack_for(role: Role, pack: Pack | None) -> Pack | None:
    """The pack a role works in (an admin's must be given); None when it cannot be told."""
    return pack or PACK_OF_ROLE.get(role)


def normalise_code(said: str) -> str | None:
    """The code as issued, from what came back ("ABCD-efgh 23"), or None when it cannot be one."""
    code = re.sub(r"[\s\-_.]+", "", said).lower()
    return code if _CODE_SHAPE.fullmatch(code) else None


def code_hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def _new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def _slug(name: str | None, fallback: str) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", (name or "").lower()).strip("-")[:28] or fallback
    return f"{base}-{secrets.token_hex(2)}"


def _invite(row: InviteRow) -> Invite:
    return Invite(ref=row.code_hash[:8], tenant=row.tenant_id, role=row.role, pack=row.pack,  # type: ignore[arg-type]
                  name=row.name, created_by=row.created_by, expires_at=utc(row.expires_at),  # type: ignore[arg-type]
                  used_at=utc(row.used_at), person_id=row.person_id, revoked_at=utc(row.revoked_at))


class InviteStore:
    """The invites table; the CLI and every running bot may use it at once."""

    def __init__(self, database: Database) -> None:
        self._db = database

    def create(self, request: InviteRequest, created_by: str | None = None,
               now: datetime | None = None) -> IssuedInvite:
        now = now or datetime.now(timezone.utc)
        ensure_tenant(self._db, request.tenant)
        code = _new_code()
        row = InviteRow(code_hash=code_hash(code), tenant_id=request.tenant, pack=request.pack, role=request.role,
                        name=request.name, language=request.lang, officer_id=request.officer_id,
                        territories="\n".join(request.territories), created_by=created_by, created_at=now,
                        expires_at=now + timedelta(hours=request.hours))
        with self._db.session() as s:
            s.add(row)
        log.info("invite %s made for tenant %s as %s", row.code_hash[:8], request.tenant, request.role)
        return IssuedInvite(code=code, invite=_invite(row))

    def find(self, said: str) -> Invite | None:
        """The invite a code names, used or not (no person is written)."""
        code = normalise_code(said)
        if code is None:
            return None
        with self._db.session() as s:
            row = s.get(InviteRow, code_hash(code))
            return _invite(row) if row is not None else None

    def invites(self, tenant: str) -> list[Invite]:
        with self._db.session() as s:
            rows = s.scalars(select(InviteRow).where(InviteRow.tenant_id == tenant).order_by(InviteRow.created_at))
            return [_invite(r) for r in rows]

    def revoke(self, tenant: str, ref: str, now: datetime | None = None) -> Invite | None:
        """Revoke the tenant's open invite whose hash starts with `ref` (as `people list` shows it): its code stops
        working at once. None when no open invite of this tenant has that ref (unknown, used, or ambiguous)."""
        ref = ref.strip().lower()
        if not re.fullmatch(r"[0-9a-f]{6,64}", ref):
            return None
        with self._db.session() as s:
            rows = list(s.scalars(select(InviteRow).where(InviteRow.tenant_id == tenant,
                                                          InviteRow.code_hash.startswith(ref))))
            if len(rows) != 1:
                return None
            won = s.execute(update(InviteRow).where(
                InviteRow.code_hash == rows[0].code_hash, InviteRow.used_at.is_(None),
                InviteRow.revoked_at.is_(None)).values(revoked_at=now or datetime.now(timezone.utc))
                .execution_options(synchronize_session=False))
            if won.rowcount != 1:  # type: ignore[attr-defined]
                return None
            row = s.get(InviteRow, rows[0].code_hash, populate_existing=True)
            assert row is not None
            invite = _invite(row)
        log.info("invite %s of tenant %s revoked", invite.ref, tenant)
        return invite

    def redeem(self, said: str, channel: str, address: str, now: datetime | None = None) -> User | None:
        """Bind `address` on `channel` to a new person made from the invite `said` names; None (and nothing
        written) when it is not a live code, or the address already belongs to someone."""
        code = normalise_code(said)
        if code is None:
            return None
        now = now or datetime.now(timezone.utc)
        digest = code_hash(code)
        with self._db.session() as s:
            row = s.get(InviteRow, digest)
        if row is None:
            return None
        person_id = _slug(row.name, row.role)
        try:
            with self._db.session() as s:
                # The conditional UPDATE is the transaction's first statement, so it takes the write lock first
                # (SQLite) and the loser of a race sees the code used rather than a conflict.
                won = s.execute(update(InviteRow).where(
                    InviteRow.code_hash == digest, InviteRow.used_at.is_(None), InviteRow.revoked_at.is_(None),
                    InviteRow.expires_at > now,
                ).values(used_at=now, person_id=person_id).execution_options(synchronize_session=False))
                if won.rowcount != 1:  # type: ignore[attr-defined]
                    return None
                user = User(user_id=person_id, name=row.name or row.role.capitalize(), role=row.role,  # type: ignore[arg-type]
                            pack=row.pack, tenant=row.tenant_id, lang=row.language,  # type: ignore[arg-type]
                            officer_id=row.officer_id, territories=[t for t in row.territories.split("\n") if t])
                s.add(PersonRow(person_id=user.user_id, tenant_id=user.tenant, name=user.name, role=user.role,
                                pack=user.pack, language=user.lang, officer_id=user.officer_id, updated_at=now))
                s.flush()
                s.add(ChannelRow(channel=channel, address=address, person_id=user.user_id))
                s.add_all([TerritoryRow(person_id=user.user_id, village=v, position=i)
                           for i, v in enumerate(dict.fromkeys(user.territories))])
        except IntegrityError:
            log.info("invite %s not redeemed: the address already belongs to someone", digest[:8])
            return None
        log.info("invite %s redeemed: %s joined tenant %s as %s", digest[:8], user.user_id, user.tenant, user.role)
        return user


def telegram_link(username: str, code: str) -> str:
    """The deep link that makes Telegram send `/start <code>` from the person who taps it."""
    return f"https://t.me/{username.lstrip('@')}?start={code}"


def whatsapp_link(bot_number: str, code: str) -> str:
    """A wa.me link that opens a chat with the bot with `join <code>` typed in."""
    digits = re.sub(r"\D", "", bot_number.removeprefix("whatsapp:"))
    return f"https://wa.me/{digits}?text=join%20{code}"
