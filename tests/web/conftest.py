"""The office web page on a running App (real local Hindsight, the one database), driven over ASGI by httpx in
the test's own event loop; people of two tenants: an admin and a clerk of demo, an admin of othercorp."""

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import httpx
import pytest

from bot.core.app import App
from bot.core.registry import User
from bot.store.people import import_people
from bot.store.web_access import WebAccess
from bot.web.app import build_context, create_web_app
from bot.web.auth import sign_in_link
from bot.web.context import WebContext
from handlers import INSTALLED

ADMIN = User(user_id="asha", name="Asha Rani", role="admin", pack="agri", tenant="demo", lang="en",
             telegram_ids=[5550001])
OTHER_ADMIN = User(user_id="omar", name="Omar", role="admin", pack="ap", tenant="othercorp", lang="en",
                   telegram_ids=[5550002])
CLERK = "anita"  # clerk of demo (seeds/users.json)
TOKEN = re.compile(r'name="form_token" value="([^"]+)"')


@dataclass
class Office:
    app: App
    ctx: WebContext
    asgi: object

    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=httpx.ASGITransport(app=self.asgi), base_url="http://testserver")  # type: ignore[arg-type]

    def link(self, person: str) -> str:
        user = self.app.services.registry.by_id(person)
        assert user is not None
        return sign_in_link(WebAccess(self.app.services.database), self.app.services.settings, user, "test")

    @asynccontextmanager
    async def signed_in(self, person: str) -> AsyncIterator[httpx.AsyncClient]:
        """A browser signed in as `person` by a link of their own."""
        async with self.client() as client:
            path = self.link(person).split("://", 1)[1].split("/", 1)[1]
            answer = await client.post(f"/{path}")
            assert answer.status_code == 303, answer.text
            yield client


def token(page: str) -> str:
    """The first form token on a page."""
    found = TOKEN.search(page)
    assert found, "no form on the page"
    return found.group(1)


async def post(client: httpx.AsyncClient, page: str, to: str, **fields: str) -> httpx.Response:
    """Open `page`, take a fresh form token from it and post `fields` to `to`."""
    opened = await client.get(page)
    assert opened.status_code == 200, opened.text
    return await client.post(to, data={"form_token": token(opened.text), **fields})


@pytest.fixture
async def office(app: App) -> AsyncIterator[Office]:
    import_people(app.services.database, [ADMIN, OTHER_ADMIN])
    app.services.registry.refresh()
    ctx = build_context(app, INSTALLED)
    yield Office(app=app, ctx=ctx, asgi=create_web_app(ctx))
