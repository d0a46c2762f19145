"""Territory grants: villages an officer is given on top of the registry's, e.g. when inheriting a colleague's.

Grants live in the one database, so a grant made with `smriti access grant` reaches a running bot on its next
message. The core hands packs the effective user: the registry's territories plus the grants. A grant never
changes a person's tenant, pack or role.
"""

from datetime import datetime, timezone

from pydantic import BaseModel
from sqlalchemy import DateTime, String, delete, select
from sqlalchemy.orm import Mapped, mapped_column

from bot.core.registry import User
from bot.store import Base, Database
from bot.store.sql import aware, insert_ignore, rowcount


class GrantRow(Base):
    __tablename__ = "territory_grants"
    user_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    village: Mapped[str] = mapped_column(String(64), primary_key=True)
    granted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Grant(BaseModel):
    user_id: str
    village: str
    granted_at: datetime


class TerritoryGrants:
    """The grant table; the CLI and the bot may both use it at once."""

    def __init__(self, database: Database) -> None:
        self._db = database

    def grant(self, user_id: str, village: str) -> bool:
        """Grant a village; return False when it was already granted."""
        with self._db.session() as s:
            return insert_ignore(s, GrantRow.__table__,
                                 dict(user_id=user_id, village=village, granted_at=datetime.now(timezone.utc)))

    def revoke(self, user_id: str, village: str) -> bool:
        """Take a granted village back; return False when there was no such grant."""
        with self._db.session() as s:
            result = s.execute(delete(GrantRow).where(GrantRow.user_id == user_id, GrantRow.village == village))
            return rowcount(result) == 1

    def grants(self, user_id: str | None = None) -> list[Grant]:
        query = select(GrantRow).order_by(GrantRow.user_id, GrantRow.village)
        if user_id is not None:
            query = query.where(GrantRow.user_id == user_id)
        with self._db.session() as s:
            return [Grant(user_id=r.user_id, village=r.village, granted_at=aware(r.granted_at))
                    for r in s.scalars(query)]

    def effective(self, user: User) -> User:
        """Return the user with granted villages added to the registry's territories (same object if none)."""
        granted = [g.village for g in self.grants(user.user_id) if g.village not in user.territories]
        if not granted:
            return user
        return user.model_copy(update={"territories": [*user.territories, *granted]})


def grants_for(database: Database) -> TerritoryGrants:
    """Return the grant table of a bot whose state lives in `database`."""
    return TerritoryGrants(database)
