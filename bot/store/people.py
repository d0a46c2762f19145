"""People in the one database: who may use the bot, in which tenant, pack and role, reached on which channels.

`import_people` writes them (from `smriti seed` and `smriti people`; an invite adds one, bot/store/invites.py);
`PeopleRegistry` is the Registry a running bot reads, so a person added from the command line is known on their
next message without a restart (it re-reads when the table's version changes, checked at most once a second).
"""

import time
from datetime import datetime, timezone
from pathlib import Path

from sqlalchemy import DateTime, ForeignKey, Integer, String, delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from bot.core.registry import Registry, RegistryFile, User
from bot.store import Base, Database
from bot.store.tenants import ensure_tenant
from bot.store.sql import rowcount

CHECK_EVERY_S = 1.0


class PersonRow(Base):
    __tablename__ = "people"
    person_id: Mapped[str] = mapped_column(String(41), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(String(41), ForeignKey("tenants.tenant_id"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(16))
    pack: Mapped[str] = mapped_column(String(16))
    language: Mapped[str] = mapped_column(String(8))
    officer_id: Mapped[str | None] = mapped_column(String(41))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChannelRow(Base):
    """One address on one channel (a Telegram user id, a WhatsApp number): unique, so one sender is one person."""

    __tablename__ = "person_channels"
    channel: Mapped[str] = mapped_column(String(16), primary_key=True)
    address: Mapped[str] = mapped_column(String(64), primary_key=True)
    person_id: Mapped[str] = mapped_column(String(41), ForeignKey("people.person_id", ondelete="CASCADE"), index=True)


class TerritoryRow(Base):
    __tablename__ = "person_territories"
    person_id: Mapped[str] = mapped_column(String(41), ForeignKey("people.person_id", ondelete="CASCADE"),
                                           primary_key=True)
    village: Mapped[str] = mapped_column(String(64), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)


class ChannelTaken(ValueError):
    """An address already belongs to another person."""


class OtherTenantsId(ValueError):
    """The id is a person of another tenant."""


def import_people(database: Database, users: list[User]) -> int:
    """Add or update people (with their channels and territories); re-importing the same list changes nothing."""
    for tenant in sorted({u.tenant for u in users}):
        ensure_tenant(database, tenant)
    now = datetime.now(timezone.utc)
    try:
        with database.session() as s:
            for user in users:
                s.merge(PersonRow(person_id=user.user_id, tenant_id=user.tenant, name=user.name, role=user.role,
                                  pack=user.pack, language=user.lang, officer_id=user.officer_id, updated_at=now))
                s.execute(delete(ChannelRow).where(ChannelRow.person_id == user.user_id))
                s.execute(delete(TerritoryRow).where(TerritoryRow.person_id == user.user_id))
            s.flush()
            for user in users:
                s.add_all([ChannelRow(channel="telegram", address=str(t), person_id=user.user_id)
                           for t in user.telegram_ids])
                s.add_all([ChannelRow(channel="whatsapp", address=n, person_id=user.user_id)
                           for n in user.whatsapp_numbers])
                s.add_all([TerritoryRow(person_id=user.user_id, village=v, position=i)
                           for i, v in enumerate(dict.fromkeys(user.territories))])
    except IntegrityError as exc:
        raise ChannelTaken("a Telegram id or WhatsApp number already belongs to another person") from exc
    return len(users)


def add_person(database: Database, user: User) -> None:
    """Add one person or change one of the same tenant (the command line and the office page both do it here);
    OtherTenantsId when the id is another tenant's person, ChannelTaken when an address is someone else's."""
    elsewhere = tenant_of(database, user.user_id)
    if elsewhere is not None and elsewhere != user.tenant:
        raise OtherTenantsId(user.user_id)
    import_people(database, [user])


def load_people(database: Database) -> list[User]:
    with database.session() as s:
        people = list(s.scalars(select(PersonRow).order_by(PersonRow.person_id)))
        channels = list(s.scalars(select(ChannelRow).order_by(ChannelRow.address)))
        territories = list(s.scalars(select(TerritoryRow).order_by(TerritoryRow.position)))
    users = []
    for p in people:
        mine = [c for c in channels if c.person_id == p.person_id]
        users.append(User(
            user_id=p.person_id, name=p.name, role=p.role, pack=p.pack, tenant=p.tenant_id,  # type: ignore[arg-type]  # validated on import
            lang=p.language, officer_id=p.officer_id,  # type: ignore[arg-type]  # validated on import
            territories=[t.village for t in territories if t.person_id == p.person_id],
            telegram_ids=[int(c.address) for c in mine if c.channel == "telegram"],
            whatsapp_numbers=[c.address for c in mine if c.channel == "whatsapp"],
        ))
    return users


def remove_person(database: Database, tenant: str, person_id: str) -> bool:
    """Remove a person of this tenant (their channels and territories with them); False when there is none."""
    with database.session() as s:
        result = s.execute(delete(PersonRow).where(PersonRow.tenant_id == tenant, PersonRow.person_id == person_id))
        return rowcount(result) == 1


def tenant_of(database: Database, person_id: str) -> str | None:
    with database.session() as s:
        return s.scalar(select(PersonRow.tenant_id).where(PersonRow.person_id == person_id))


def people_version(database: Database) -> tuple[int, datetime | None, int]:
    """Cheap to read; changes whenever a person is added, changed or removed."""
    with database.session() as s:
        count, latest = s.execute(select(func.count(), func.max(PersonRow.updated_at))).one()
        channels = s.scalar(select(func.count()).select_from(ChannelRow)) or 0
    return count, latest, channels


class PeopleRegistry(Registry):
    """The Registry of a running bot: the people table, re-read when it changes."""

    def __init__(self, database: Database, check_every_s: float = CHECK_EVERY_S) -> None:
        self._db = database
        self._check_every_s = check_every_s
        self._checked_at = float("-inf")
        self._version: tuple[int, datetime | None, int] | None = None
        self._cached: dict[str, User] = {}

    def refresh(self) -> None:
        self._checked_at = float("-inf")

    @property
    def _by_id(self) -> dict[str, User]:  # type: ignore[override]  # a cached property over the base's field
        if time.monotonic() - self._checked_at >= self._check_every_s:
            version = people_version(self._db)
            if version != self._version:
                self._cached = {u.user_id: u for u in load_people(self._db)}
                self._version = version
            self._checked_at = time.monotonic()
        return self._cached


def import_people_file(database: Database, path: Path, tenant: str | None = None) -> int:
    """Import a registry file ({"users": [...]}); with `tenant`, every person is put in that tenant."""
    users = RegistryFile.model_validate_json(path.read_text(encoding="utf-8")).users
    if tenant is not None:
        users = [u.model_copy(update={"tenant": tenant}) for u in users]
    return import_people(database, users)
