"""Who may use the bot: each person maps to one tenant, one pack and one role, and nothing else."""

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from bot.core.messages import Transport
from bot.services.registers.cells import indian_mobile

Pack = Literal["agri", "legal", "ap"]
Role = Literal["officer", "lawyer", "clerk", "admin"]
Language = Literal["en", "te"]


class User(BaseModel):
    model_config = ConfigDict(frozen=True)

    user_id: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]{0,40}$")
    name: str
    role: Role
    pack: Pack
    tenant: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{0,40}$")
    lang: Language = "en"
    officer_id: str | None = None
    """For field officers: the officer id used in visit records and tags."""
    territories: list[str] = Field(default_factory=list)
    """For field officers: village slugs whose farmers they may see (granted territories included)."""
    telegram_ids: list[int] = Field(default_factory=list)
    whatsapp_numbers: list[str] = Field(default_factory=list)
    """E.164 numbers, as Twilio sends them after `whatsapp:`."""

    @field_validator("whatsapp_numbers")
    @classmethod
    def _international(cls, numbers: list[str]) -> list[str]:
        # However it was typed ("9700022222", "09100 334455"), a number is kept as Twilio will send it.
        return list(dict.fromkeys(indian_mobile(n) for n in numbers))


class RegistryFile(BaseModel):
    users: list[User]


class Registry:
    """Looks people up by the id their transport gives, or by user id on the console and command line.

    A fixed list, indexed by id, Telegram id and WhatsApp number: a lookup costs the same for ten people or a
    hundred thousand. bot.store.people.PeopleRegistry answers the same questions from the database."""

    def __init__(self, users: list[User]) -> None:
        ids = [u.user_id for u in users]
        if len(ids) != len(set(ids)):
            raise ValueError("user ids in the registry must be unique")
        self._fixed = {u.user_id: u for u in users}
        self._owners = {("telegram", str(t)): u.user_id for u in users for t in u.telegram_ids}
        self._owners.update({("whatsapp", n): u.user_id for u in users for n in u.whatsapp_numbers})

    @classmethod
    def load(cls, path: Path) -> "Registry":
        return cls(RegistryFile.model_validate_json(path.read_text(encoding="utf-8")).users)

    @property
    def users(self) -> list[User]:
        """Everyone (every tenant): prefer `users_of` a tenant."""
        return list(self._fixed.values())

    def users_of(self, tenant: str) -> list[User]:
        return [u for u in self._fixed.values() if u.tenant == tenant]

    def count(self) -> int:
        """How many people there are, without reading them."""
        return len(self._fixed)

    def by_id(self, user_id: str) -> User | None:
        return self._fixed.get(user_id)

    def _owner(self, channel: str, address: str) -> str | None:
        """The user id reached at this address on this channel, if any."""
        return self._owners.get((channel, address))

    def lookup(self, transport: Transport, sender: str) -> User | None:
        """Return the registered person behind a transport's sender id, or None for a stranger."""
        if transport in ("console", "cli"):
            return self.by_id(sender)
        if transport == "telegram":
            owner = self._owner("telegram", str(int(sender))) if sender.isdigit() else None
        else:
            owner = self._owner("whatsapp", sender.removeprefix("whatsapp:"))
        return self.by_id(owner) if owner is not None else None

    def refresh(self) -> None:
        """Read the people again before the next lookup (someone just joined); a fixed list has nothing to read."""

    def first_for_pack(self, pack: Pack, tenant: str | None = None) -> User | None:
        return next(
            (u for u in self._fixed.values() if u.pack == pack and (tenant is None or u.tenant == tenant)), None
        )


def dump_registry(users: list[User]) -> str:
    return json.dumps(RegistryFile(users=users).model_dump(mode="json"), indent=2, ensure_ascii=False)
