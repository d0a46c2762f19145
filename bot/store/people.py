"""People in the one database: who may use the bot, in which tenant, pack and role, reached on which channels.

`import_people` writes them (from `smriti seed` and `smriti people`; an invite adds one, bot/store/invites.py);
`PeopleRegistry` is the Registry a running bot reads, so a person added from the command line is known on their
next message without a restart (it re-reads when the table's version changes, checked at most once a second).
"""

import time
from datetime import datetime, timezone
from pathlib import Path

from sqlalchemy import DateTime, ForeignKey, Integer, String, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from bot.core.registry import Pack, Registry, RegistryFile, User
from bot.store import Base, Database
from bot.store.tenants import ensure_tenant
from bot.store.sql import rowcount

CHECK_EVERY_S = 1.0
_BATCH = 500
MAX_CACHED = 200_000
"""People and addresses (strangers' too) a running bot keeps in memory before starting over."""


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
    """Add or update people (with their channels and territories); re-importing the same list changes nothing.

    Written in batches of statements (not a row object per person), so a hundred thousand people import in
    seconds; one transaction, so a clash (an address of someone else) leaves nothing half written."""
    for tenant in sorted({u.tenant for u in users}):
        ensure_tenant(database, tenant)
    now = datetime.now(timezone.utc)
    try:
        with database.session() as s:
            for start in range(0, len(users), _BATCH):
                batch = users[start:start + _BATCH]
                ids = [u.user_id for u in batch]
                known = set(s.scalars(select(PersonRow.person_id).where(PersonRow.person_id.in_(ids))))
                rows = [dict(person_id=u.user_id, tenant_id=u.tenant, name=u.name, role=u.role, pack=u.pack,
                             language=u.lang, officer_id=u.officer_id, updated_at=now) for u in batch]
                s.execute(delete(ChannelRow).where(ChannelRow.person_id.in_(ids)))
                s.execute(delete(TerritoryRow).where(TerritoryRow.person_id.in_(ids)))
                fresh = [r for r in rows if r["person_id"] not in known]
                if fresh:
                    s.execute(insert(PersonRow), fresh)
                for row in (r for r in rows if r["person_id"] in known):
                    s.execute(update(PersonRow).where(PersonRow.person_id == row["person_id"]).values(**row))
                channels = [dict(channel="telegram", address=str(t), person_id=u.user_id)
                            for u in batch for t in u.telegram_ids]
                channels += [dict(channel="whatsapp", address=n, person_id=u.user_id)
                             for u in batch for n in u.whatsapp_numbers]
                territories = [dict(person_id=u.user_id, village=v, position=i)
                               for u in batch for i, v in enumerate(dict.fromkeys(u.territories))]
                if channels:
                    s.execute(insert(ChannelRow), channels)
                if territories:
                    s.execute(insert(TerritoryRow), territories)
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


def load_people(database: Database, tenant: str | None = None, person_ids: list[str] | None = None,
                pack: str | None = None, limit: int | None = None) -> list[User]:
    """People (all, one tenant's, or the named ones) with their channels and territories, in one pass each."""
    conditions = [condition for condition in (
        PersonRow.tenant_id == tenant if tenant is not None else None,
        PersonRow.person_id.in_(person_ids) if person_ids is not None else None,
        PersonRow.pack == pack if pack is not None else None) if condition is not None]
    chosen = select(PersonRow.person_id).where(*conditions).order_by(PersonRow.person_id).limit(limit)
    # Plain rows, not ORM objects: a hundred thousand people are read in a second or two.
    channel_query = select(ChannelRow.person_id, ChannelRow.channel, ChannelRow.address).order_by(ChannelRow.address)
    territory_query = select(TerritoryRow.person_id, TerritoryRow.village).order_by(TerritoryRow.position)
    if conditions or limit is not None:
        # Only the chosen people's rows, by the person_id indexes (a subquery: no list of ids to pass around).
        channel_query = channel_query.where(ChannelRow.person_id.in_(chosen.scalar_subquery()))
        territory_query = territory_query.where(TerritoryRow.person_id.in_(chosen.scalar_subquery()))
    person_columns = (PersonRow.person_id, PersonRow.name, PersonRow.role, PersonRow.pack, PersonRow.tenant_id,
                      PersonRow.language, PersonRow.officer_id)
    with database.session() as s:
        people = s.execute(select(*person_columns).where(*conditions).order_by(PersonRow.person_id)
                           .limit(limit)).all()
        telegram: dict[str, list[int]] = {}
        whatsapp: dict[str, list[str]] = {}
        for person_id, channel, address in s.execute(channel_query):
            if channel == "telegram":
                telegram.setdefault(person_id, []).append(int(address))
            else:
                whatsapp.setdefault(person_id, []).append(address)
        territories: dict[str, list[str]] = {}
        for person_id, village in s.execute(territory_query):
            territories.setdefault(person_id, []).append(village)
    users = []
    for person_id, name, role, pack_, tenant_id, language, officer_id in people:
        users.append(User(
            user_id=person_id, name=name, role=role, pack=pack_, tenant=tenant_id, lang=language,
            officer_id=officer_id, territories=territories.get(person_id, []),
            telegram_ids=telegram.get(person_id, []), whatsapp_numbers=whatsapp.get(person_id, [])))
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
    """The Registry of a running bot: the people table, read a person at a time through its indexes (by id, by
    channel address, by tenant), never loaded whole; what was read is kept until the table changes."""

    def __init__(self, database: Database, check_every_s: float = CHECK_EVERY_S) -> None:
        super().__init__([])
        self._db = database
        self._check_every_s = check_every_s
        self._checked_at = float("-inf")
        self._version: tuple[int, datetime | None, int] | None = None
        self._people: dict[str, User | None] = {}
        self._addresses: dict[tuple[str, str], str | None] = {}

    def refresh(self) -> None:
        self._checked_at = float("-inf")

    def _current(self) -> None:
        """Forget what was read when the people table changed (checked at most every `check_every_s`)."""
        if time.monotonic() - self._checked_at < self._check_every_s:
            return
        version = people_version(self._db)
        if version != self._version or len(self._people) + len(self._addresses) > MAX_CACHED:
            self._people.clear()
            self._addresses.clear()
            self._version = version
        self._checked_at = time.monotonic()

    @property
    def users(self) -> list[User]:
        return load_people(self._db)

    def users_of(self, tenant: str) -> list[User]:
        return load_people(self._db, tenant=tenant)

    def count(self) -> int:
        return people_version(self._db)[0]

    def by_id(self, user_id: str) -> User | None:
        self._current()
        if user_id not in self._people:
            found = load_people(self._db, person_ids=[user_id])
            self._people[user_id] = found[0] if found else None
        return self._people[user_id]

    def _owner(self, channel: str, address: str) -> str | None:
        self._current()
        key = (channel, address)
        if key not in self._addresses:
            with self._db.session() as s:
                self._addresses[key] = s.scalar(select(ChannelRow.person_id).where(
                    ChannelRow.channel == channel, ChannelRow.address == address))
        return self._addresses[key]

    def first_for_pack(self, pack: Pack, tenant: str | None = None) -> User | None:
        found = load_people(self._db, tenant=tenant, pack=pack, limit=1)
        return found[0] if found else None


def import_people_file(database: Database, path: Path, tenant: str | None = None) -> int:
    """Import a registry file ({"users": [...]}); with `tenant`, every person is put in that tenant."""
    users = RegistryFile.model_validate_json(path.read_text(encoding="utf-8")).users
    if tenant is not None:
        users = [u.model_copy(update={"tenant": tenant}) for u in users]
    return import_people(database, users)
