"""Security of the office page: no page or action without a session; another tenant's ids are not found; a
clerk cannot reach People; forged, foreign and replayed forms are refused; expired, used and foreign links are
refused; a session ends with sign-out, removal or a change of role; the cookie is HttpOnly and SameSite=Strict."""

from datetime import datetime, timedelta, timezone

import pytest

from bot.store.invites import InviteRequest, InviteStore
from bot.store.people import remove_person
from bot.store.web_access import WebAccess
from tests.web.conftest import CLERK, Office, post, token

pytestmark = pytest.mark.hindsight

PAGES = ["/office/", "/office/people/", "/office/people/asha", "/office/registers/", "/office/registers/farmers",
         "/office/registers/farmers/export?format=csv", "/office/queue/", "/office/privacy/", "/office/memory/"]
ACTIONS = ["/office/people/add", "/office/people/invite", "/office/people/asha", "/office/people/asha/remove",
           "/office/people/invites/abcdef12/revoke", "/office/registers/farmers/import", "/office/queue/x/retry",
           "/office/queue/x/drop", "/office/privacy/subject", "/office/privacy/erase", "/office/logout"]


async def test_no_page_and_no_action_without_a_session(office: Office) -> None:
    async with office.client() as client:
        for page in PAGES:
            answer = await client.get(page)
            assert answer.status_code == 401, page
            assert "/web" in answer.text
        for action in ACTIONS:
            assert (await client.post(action, data={"name": "x"})).status_code == 401, action
    people = {u.user_id for u in office.app.services.registry.users}
    assert "x" not in people and "asha" in people


async def test_the_session_cookie_is_httponly_samesite_strict_and_signed(office: Office) -> None:
    client = office.client()
    path = "/" + office.link("asha").split("://", 1)[1].split("/", 1)[1]
    answer = await client.post(path)
    cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "path=/office" in cookie
    value = client.cookies.get("smriti_office")
    assert value
    client.cookies.set("smriti_office", value[:-2] + ("AA" if not value.endswith("AA") else "BB"), path="/office")
    assert (await client.get("/office/people/")).status_code == 401
    await client.aclose()


async def test_another_tenants_ids_are_not_found(office: Office) -> None:
    other = InviteStore(office.app.services.database).create(
        InviteRequest(tenant="othercorp", role="clerk", pack="ap"), created_by="omar")
    async with office.signed_in("asha") as client:
        assert (await client.get("/office/people/rahul")).status_code == 404  # a clerk of othercorp
        assert (await client.get("/office/people/omar")).status_code == 404
        for action in ("/office/people/rahul", "/office/people/rahul/remove",
                       f"/office/people/invites/{other.invite.ref}/revoke"):
            answer = await post(client, "/office/people/", action, role="admin", pack="ap", language="en", name="x")
            assert answer.status_code == 404, action
    assert office.app.services.registry.by_id("rahul") is not None
    assert InviteStore(office.app.services.database).find(other.code).live(datetime.now(timezone.utc))  # type: ignore[union-attr]


async def test_a_clerk_reaches_only_the_accounts_pages(office: Office) -> None:
    async with office.signed_in(CLERK) as client:
        for page in ("/office/people/", "/office/registers/", "/office/queue/", "/office/privacy/", "/office/memory/"):
            assert (await client.get(page)).status_code == 403, page
        home = await client.get("/office/")
        assert home.status_code == 200 and "/office/people/" not in home.text
        answer = await post(client, "/office/", "/office/people/add", user_id="mole", name="Mole", role="admin",
                            pack="ap", language="en")
        assert answer.status_code == 403
    assert office.app.services.registry.by_id("mole") is None


async def test_forged_foreign_and_replayed_forms_are_refused(office: Office) -> None:
    fields = {"user_id": "ravi", "name": "Ravi", "role": "officer", "pack": "agri", "language": "en"}
    async with office.signed_in("asha") as client, office.signed_in("asha") as second:
        assert (await client.post("/office/people/add", data=fields)).status_code == 403
        assert (await client.post("/office/people/add", data={**fields, "form_token": "forged.token.x"})).status_code == 403
        theirs = token((await second.get("/office/people/")).text)
        assert (await client.post("/office/people/add", data={**fields, "form_token": theirs})).status_code == 403
        mine = token((await client.get("/office/people/")).text)
        assert (await client.post("/office/people/add", data={**fields, "form_token": mine})).status_code == 303
        replay = await client.post("/office/people/add", data={**fields, "name": "Ravi Again", "form_token": mine})
        assert replay.status_code == 403 and "already sent" in replay.text
    office.app.services.registry.refresh()
    ravi = office.app.services.registry.by_id("ravi")
    assert ravi is not None and ravi.name == "Ravi" and ravi.tenant == "demo"


async def test_expired_and_used_links_are_refused(office: Office) -> None:
    access = WebAccess(office.app.services.database)
    old = access.make_link("demo", "asha", "test", now=datetime.now(timezone.utc) - timedelta(minutes=20))
    async with office.client() as client:
        assert (await client.get(f"/office/login/{old}")).status_code == 403
        assert (await client.post(f"/office/login/{old}")).status_code == 403
        assert "smriti_office" not in client.cookies
        fresh = office.link("asha").rsplit("/", 1)[1]
        assert (await client.get(f"/office/login/{fresh}")).status_code == 200  # showing the button spends nothing
        assert (await client.post(f"/office/login/{fresh}")).status_code == 303
    async with office.client() as again:
        assert (await again.post(f"/office/login/{fresh}")).status_code == 403
        assert (await again.get("/office/")).status_code == 401


async def test_a_link_works_only_for_its_own_person(office: Office) -> None:
    clerk_link = office.link(CLERK).rsplit("/", 1)[1]
    async with office.signed_in("asha") as admin_browser:
        refused = await admin_browser.post(f"/office/login/{clerk_link}")
        assert refused.status_code == 403 and "someone else" in refused.text
        assert (await admin_browser.get("/office/people/")).status_code == 200  # still Asha
    async with office.client() as clerk_browser:
        assert (await clerk_browser.post(f"/office/login/{clerk_link}")).status_code == 303
        home = await clerk_browser.get("/office/")
        assert "Anita" in home.text and "Asha" not in home.text
        assert (await clerk_browser.get("/office/people/")).status_code == 403


async def test_sign_out_removal_and_a_new_role_end_the_session(office: Office) -> None:
    async with office.signed_in("asha") as client:
        answer = await post(client, "/office/", "/office/logout")
        assert answer.status_code == 200
        assert (await client.get("/office/people/")).status_code == 401
    async with office.signed_in(CLERK) as clerk:
        assert (await clerk.get("/office/")).status_code == 200
        remove_person(office.app.services.database, "demo", CLERK)
        office.app.services.registry.refresh()
        assert (await clerk.get("/office/")).status_code == 401
