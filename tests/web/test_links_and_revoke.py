"""The way in and the way invites end, outside the page: `/web` in chat (admins and clerks, the link a secret
reply for the sender only), `smriti web link`, and `smriti people revoke` (the code refused afterwards, the list
saying revoked; another tenant's invite untouched)."""

import asyncio
import re
from datetime import datetime, timezone
from pathlib import Path

import pytest

from bot.cli.smriti import build_parser
from bot.core.app import App, open_database
from bot.core.messages import Incoming
from bot.store.invites import InviteRequest, InviteStore
from bot.store.web_access import WebAccess
from bot.settings import Settings
from tests.web.conftest import Office

LINK = re.compile(r"(https?://\S+/office/login/(\S+))")


def smriti(settings: Settings, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    args = build_parser().parse_args(list(argv))
    code = asyncio.run(args.handler(args, settings))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.hindsight
async def test_web_in_chat_gives_admins_and_clerks_a_secret_link_of_their_own(office: Office) -> None:
    app: App = office.app
    replies = await app.conversation.handle(Incoming(transport="telegram", sender="5550001", delivery_id="w1",
                                                     text="/web"))
    found = LINK.search(replies[-1].text)
    assert found and replies[-1].secret
    assert all(found.group(2) not in r.reply.text for r in app.services.replies.outbox.listing())
    assert WebAccess(app.services.database).link_person(found.group(2)) == ("demo", "asha")
    officer = await app.conversation.handle(Incoming(transport="telegram", sender="1001", delivery_id="w2",
                                                     text="/web"))
    assert not LINK.search(officer[-1].text) and "administrators" in officer[-1].text
    async with office.client() as client:
        assert (await client.post(f"/office/login/{found.group(2)}")).status_code == 303
        assert "Asha Rani" in (await client.get("/office/")).text


def test_smriti_web_link_and_people_revoke(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings(data_dir=tmp_path, web_base_url="https://bot.example.org/office")
    code, _, _ = smriti(settings, capsys, "people", "add", "sunil", "--tenant", "kisan-seva", "--name", "Sunil",
                        "--role", "admin", "--pack", "agri")
    assert code == 0
    code, out, _ = smriti(settings, capsys, "web", "link", "--tenant", "kisan-seva", "--person", "sunil")
    found = LINK.search(out)
    assert code == 0 and found and found.group(1).startswith("https://bot.example.org/office/login/")
    code, _, err = smriti(settings, capsys, "web", "link", "--tenant", "other", "--person", "sunil")
    assert code == 2 and "No person" in err

    database = open_database(settings)
    try:
        store = InviteStore(database)
        mine = store.create(InviteRequest(tenant="kisan-seva", role="officer", pack="agri"))
        theirs = store.create(InviteRequest(tenant="nyaya", role="lawyer", pack="legal"))
    finally:
        database.dispose()
    code, _, err = smriti(settings, capsys, "people", "revoke", "--tenant", "kisan-seva", theirs.invite.ref)
    assert code == 2 and "No open invite" in err
    code, out, _ = smriti(settings, capsys, "people", "revoke", "--tenant", "kisan-seva", mine.invite.ref)
    assert code == 0 and "Revoked" in out
    code, out, _ = smriti(settings, capsys, "people", "list", "--tenant", "kisan-seva")
    assert f"{mine.invite.ref}  officer/agri  -  revoked" in out
    database = open_database(settings)
    try:
        store = InviteStore(database)
        assert store.redeem(mine.code, "telegram", "880001") is None
        assert store.redeem(theirs.code, "telegram", "880002") is not None
        now = datetime.now(timezone.utc)
        assert [i.state(now) for i in store.invites("kisan-seva")] == ["revoked"]
    finally:
        database.dispose()


@pytest.mark.hindsight
async def test_smriti_run_serves_the_office_beside_the_webhook(office: Office) -> None:
    import httpx
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    from bot.transports.serve import beside
    from handlers import INSTALLED

    async def inbound(_: object) -> PlainTextResponse:
        return PlainTextResponse("twiml")

    webhook = beside(Starlette(routes=[Route("/whatsapp/inbound", inbound, methods=["POST"])]), office.app, INSTALLED)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=webhook), base_url="http://bot") as client:
        assert (await client.post("/whatsapp/inbound")).text == "twiml"
        assert (await client.get("/office/people/")).status_code == 401
        token = office.link("asha").rsplit("/", 1)[1]
        assert (await client.post(f"/office/login/{token}")).status_code == 303
        assert (await client.get("/office/people/")).status_code == 200


@pytest.mark.hindsight
async def test_revoke_in_chat_for_admins(office: Office) -> None:
    app: App = office.app
    store = InviteStore(app.services.database)
    mine = store.create(InviteRequest(tenant="demo", role="officer", pack="agri", name="Ravi"))
    theirs = store.create(InviteRequest(tenant="othercorp", role="clerk", pack="ap"))

    async def say(sender: str, text: str, n: int) -> str:
        replies = await app.conversation.handle(Incoming(transport="telegram", sender=sender,
                                                         delivery_id=f"rv{n}", text=text))
        return replies[-1].text

    assert mine.invite.ref in await say("5550001", "/revoke", 1)
    assert "No open invite" in await say("5550001", f"/revoke {theirs.invite.ref}", 2)
    assert "administrator" in await say("1001", f"/revoke {mine.invite.ref}", 3)
    assert "Revoked" in await say("5550001", f"/revoke {mine.invite.ref}", 4)
    now = datetime.now(timezone.utc)
    assert store.find(mine.code).state(now) == "revoked"  # type: ignore[union-attr]
    assert store.find(theirs.code).state(now) == "open"  # type: ignore[union-attr]
