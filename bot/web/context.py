"""What every page handler is given: the running bot's services and packs, who is signed in, and the sections."""

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel
from starlette.routing import BaseRoute

from bot.core.registry import User
from bot.services.i18n import text
from bot.store.web_access import WebAccess, WebSession

if TYPE_CHECKING:
    from starlette.templating import Jinja2Templates

    from bot.core.conversation import Conversation
    from bot.core.pack import Pack, Services
    from bot.services.registers.kinds import RegisterKind

PREFIX = "/office"


class AuditLine(BaseModel):
    """One audited action a pack keeps in its own log (an AP override with its reason), for Audit and privacy."""

    at: datetime
    by: str
    action: str
    target: str
    reason: str | None = None


@dataclass(frozen=True)
class Section:
    """A group of pages: its name (the first part of its paths), its title's catalogue key, the roles that may
    use it besides an admin, and the pack it belongs to (None: a core section)."""

    name: str
    title_key: str
    routes: list[BaseRoute]
    roles: frozenset[str] = frozenset({"admin"})
    pack: str | None = None
    audit: Callable[[str], list[AuditLine]] | None = None
    """The pack's own audited actions of a tenant (shown on Audit and privacy), newest first."""


@dataclass(frozen=True)
class Viewer:
    """The person a request is signed in as, in the language the page speaks."""

    user: User
    session: WebSession
    lang: str
    sections: list[Section]
    form_token: Callable[[], str]

    @property
    def tenant(self) -> str:
        return self.user.tenant

    def t(self, key: str, **values: object) -> str:
        return text(self.lang, key, **values)

    def may(self, section: str) -> bool:
        return any(s.name == section for s in self.sections)


@dataclass
class WebContext:
    """Everything the pages use, built once when the web app is made."""

    services: "Services"
    packs: dict[str, "Pack"]
    kinds: dict[str, "RegisterKind"]
    conversation: "Conversation"
    access: WebAccess
    secret: str
    sections: list[Section] = field(default_factory=list)
    templates: "Jinja2Templates" = field(default=None)  # type: ignore[assignment]  # set once sections are known
    extra: dict[str, Any] = field(default_factory=dict)

    def sections_for(self, user: User) -> list[Section]:
        """The sections this person may use: an admin every one, anyone else those their role is given in
        their own pack."""
        if user.role == "admin":
            return list(self.sections)
        return [s for s in self.sections if user.role in s.roles and s.pack in (None, user.pack)]
