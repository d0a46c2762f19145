"""The office page in a real headless Chromium: sign in by link; import a messy sheet with a rejected row and
apply it; invite and revoke; forget a farmer after the preview; each checked on the page and in the database,
with screenshots of every page at phone and desktop widths written to docs/web/."""

from collections.abc import AsyncIterator
from datetime import datetime, timezone
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page

from bot.core.messages import Incoming
from bot.store.invites import InviteStore
from bot.store.registers import RegisterStore
from bot.store.subject_audit import SubjectAudit
from bot.store.web_access import WebSessionRow
from tests.web.browser import CHROMIUM, chromium, served, shoot
from tests.web.conftest import Office

pytestmark = [pytest.mark.hindsight,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (./setup.sh)")]

MESSY = ("\ufeffGrower Name,Cell,Village/Mandal,Crops Grown,Area,Notes\n"
         "Kavali Pentaiah,94401 22334,Chevella,Paddy; వరి,3,met at the shandy\n"
         ",,,,,\n"
         "Boya Lingamma,,CHEVELLA,పత్తి,\"1,5\",\n"
         "Chinna Ramulu,,Nowhere Thanda,cotton,2,\n"
         ",90000 11111,Chevella,cotton,2,\n")


@pytest.fixture(scope="module")
async def browser() -> AsyncIterator[Browser]:
    async with chromium() as running:
        yield running


async def signed_in_page(browser: Browser, office: Office, base: str, person: str = "asha") -> Page:
    context = await browser.new_context(viewport={"width": 1280, "height": 860})
    page = await context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    link = office.link(person).replace("http://127.0.0.1:8090", base)
    await page.goto(link)
    await shoot(page, "sign-in")
    await page.get_by_role("button", name="Sign in").click()
    await page.wait_for_url(f"{base}/office/")
    return page


async def test_sign_in_by_link_then_every_core_page(browser: Browser, office: Office) -> None:
    intake = office.app.services.intake
    kept = intake.record(Incoming(transport="telegram", sender="1001", delivery_id="b-q1", text="note for later"),
                         "srinivas").item
    intake.postpone(kept.intake_id, "MemoryUnavailable: memory was down")
    async with served(office.asgi) as base:
        page = await signed_in_page(browser, office, base)
        assert "Welcome, Asha Rani" in await page.inner_text("h1")
        await shoot(page, "home")
        with office.app.services.database.session() as s:
            sessions = [r for r in s.query(WebSessionRow).all() if r.ended_at is None]
        assert [(r.person_id, r.tenant_id, r.role) for r in sessions] == [("asha", "demo", "admin")]
        cookie = next(c for c in await page.context.cookies() if c["name"] == "smriti_office")
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
        for section, name in (("people", "people"), ("registers", "registers"), ("queue", "queue"),
                              ("privacy", "privacy"), ("memory", "memory")):
            await page.goto(f"{base}/office/{section}/")
            assert await page.locator("h1").count() == 1
            await shoot(page, name)
        await page.goto(f"{base}/office/queue/")
        assert await page.locator(f'tr[data-item="{kept.intake_id}"]').count() == 1
        await page.goto(f"{base}/office/lang/te?back=/office/people/")
        assert "వ్యక్తులు" in await page.inner_text("h1")
        await shoot(page, "people-te")
        await page.get_by_role("button", name="బయటకు").click()
        await page.goto(f"{base}/office/people/")
        assert "ప్రవేశించండి" in await page.inner_text("h1")


async def test_import_a_messy_sheet_with_a_rejected_row_and_apply(browser: Browser, office: Office,
                                                                  tmp_path: Path) -> None:
    sheet = tmp_path / "chevella farmers.csv"
    sheet.write_text(MESSY, encoding="utf-8")
    kind = office.ctx.kinds["farmers"]
    store = RegisterStore(office.app.services.database, *kind.tables)
    before = len(store.records("demo")["farmers"])
    async with served(office.asgi) as base:
        page = await signed_in_page(browser, office, base)
        await page.goto(f"{base}/office/registers/farmers")
        await shoot(page, "register-farmers")
        await page.set_input_files("#file", str(sheet))
        await page.get_by_role("button", name="Check the file").click()
        rejected = page.locator("tr.rejected")
        assert await rejected.count() == 1
        assert "missing Farmer Name" in await rejected.inner_text()
        assert await rejected.locator("td").nth(2).inner_text() == "6"
        assert "Nowhere Thanda" in await page.inner_text("#created")
        await shoot(page, "import-dry-run")
        assert len(store.records("demo")["farmers"]) == before
        await page.get_by_role("button", name="Apply").click()
        assert "Written" in await page.inner_text("main")
        await shoot(page, "import-applied")
    names = {r.data["name"] for r in store.records("demo")["farmers"].values()}
    assert {"Kavali Pentaiah", "Boya Lingamma", "Chinna Ramulu"} <= names
    assert len(store.records("demo")["farmers"]) == before + 3


async def test_invite_then_revoke(browser: Browser, office: Office) -> None:
    store = InviteStore(office.app.services.database)
    async with served(office.asgi) as base:
        page = await signed_in_page(browser, office, base)
        await page.goto(f"{base}/office/people/")
        form = page.locator("form", has=page.get_by_role("button", name="Make the invite"))
        await form.locator('input[name="name"]').fill("Ravi Teja")
        await form.locator('select[name="role"]').select_option("officer")
        await form.locator('input[name="territories"]').fill("Kothur")
        await form.get_by_role("button", name="Make the invite").click()
        code = await page.inner_text("#invite-code")
        assert await page.locator(".qr svg").count() == 1
        await shoot(page, "invite-made")
        invite = store.find(code)
        assert invite is not None and invite.state(datetime.now(timezone.utc)) == "open"
        await page.get_by_role("link", name="Back to people").click()
        row = page.locator(f'tr[data-invite="{invite.ref}"]')
        assert "open" in await row.inner_text()
        await row.get_by_role("button", name="Revoke").click()
        row = page.locator(f'tr[data-invite="{invite.ref}"]')
        assert "revoked" in await row.inner_text()
        assert "Invite revoked" in await page.inner_text("main")
    found = store.find(code)
    assert found is not None and found.state(datetime.now(timezone.utc)) == "revoked"
    assert store.redeem(code, "telegram", "990001") is None


async def test_forget_a_farmer_after_the_preview(browser: Browser, office: Office) -> None:
    kind = office.ctx.kinds["farmers"]
    store = RegisterStore(office.app.services.database, *kind.tables)
    assert "F001" in store.records("demo")["farmers"]
    async with served(office.asgi) as base:
        page = await signed_in_page(browser, office, base)
        await page.goto(f"{base}/office/privacy/")
        await page.select_option('select[name="kind"]', "farmer")
        await page.fill('input[name="query"]', "Ramesh Goud")
        await page.get_by_role("button", name="Preview forget").click()
        assert "agri registers" in await page.inner_text("#erase")
        await shoot(page, "forget-preview")
        assert "F001" in store.records("demo")["farmers"]
        await page.get_by_role("button", name="Erase").click()
        assert "Erased" in await page.inner_text("main")
        assert "forget" in await page.inner_text("#subject-audit")
    assert "F001" not in store.records("demo")["farmers"]
    audit = [(e.action, e.by, e.via, e.outcome) for e in SubjectAudit(office.app.services.database).entries("demo")]
    assert audit[-1] == ("forget", "asha", "web", "done")


async def test_field_pages_with_the_village_chart(browser: Browser, office: Office) -> None:
    from tests.web.test_field import record_visit

    record_visit(office)
    async with served(office.asgi) as base:
        page = await signed_in_page(browser, office, base)
        await page.goto(f"{base}/office/field/")
        assert "Ramesh Goud" in await page.inner_text("#followups")
        await shoot(page, "field")
        await page.get_by_role("link", name="Ramesh Goud").first.click()
        assert "controlled" in await page.inner_text('tr[data-visit="VW01"]')
        await shoot(page, "field-farmer")
        await page.goto(f"{base}/office/field/village/chevella")
        chart = page.locator("#chart")
        assert await chart.count() == 1
        assert await chart.evaluate("img => img.naturalWidth") > 300
        await shoot(page, "field-village")


async def test_correct_a_hearing_entry(browser: Browser, office: Office) -> None:
    from datetime import date

    from tests.web.test_legal import file_hearings

    book = await file_hearings(office)
    async with served(office.asgi) as base:
        page = await signed_in_page(browser, office, base)
        await page.goto(f"{base}/office/legal/?day=2026-12-14")
        assert "Seabreeze" in await page.inner_text("#cause-list")
        await shoot(page, "legal-cause-list")
        await page.get_by_role("link", name="Seabreeze").first.click()
        entry = page.locator('[data-entry="web:seabreeze:2026-10-05"]')
        await entry.locator("summary").click()
        await entry.locator('input[name="hearing_date"]').fill("2026-10-06")
        await entry.locator('textarea[name="text"]').fill("Plaintiff's evidence; PW1 chief examined in part.")
        await shoot(page, "legal-case")
        await entry.get_by_role("button", name="Save").click()
        assert "Corrected" in await page.inner_text("main")
        assert "6 Oct 2026" in await page.inner_text('[data-entry="web:seabreeze:2026-10-05"]')
    record = book.store.get("demo", "web:seabreeze:2026-10-05")
    assert record is not None and record.hearing_date == date(2026, 10, 6)


async def test_hold_release_then_approve_an_invoice_with_a_reason(browser: Browser, office: Office) -> None:
    ap = office.app.packs.get("ap")
    if ap is None or not hasattr(ap, "act"):
        pytest.skip("the AP pack's ledger life (act, pay) has not landed")
    from tests.web.test_ap import NUMBER, record_exception

    book = record_exception(office)
    async with served(office.asgi) as base:
        page = await signed_in_page(browser, office, base, person="anita")
        await page.goto(f"{base}/office/ap/")
        await shoot(page, "ap-ledger")
        await page.get_by_role("link", name=NUMBER).click()
        assert "quantity_mismatch" in await page.inner_text("#flags")
        await shoot(page, "ap-invoice")
        await page.get_by_role("button", name="Hold").click()
        assert "held" in await page.inner_text("#state")
        await page.get_by_role("button", name="Release to review").click()
        assert "Say why" in await page.inner_text("main")  # review over the agent's EXCEPTION is an override
        await page.fill('input[name="reason"]', "stores to recount the lot")
        await page.get_by_role("button", name="Release to review").click()
        assert "in review" in await page.inner_text("#state")
        await page.get_by_role("button", name="Approve").click()
        assert "Say why" in await page.inner_text("main")
        await page.fill('input[name="reason"]', "short supply agreed by phone")
        await page.get_by_role("button", name="Approve").click()
        assert "approved" in await page.inner_text("#state")
        assert "short supply agreed by phone" in await page.inner_text("#history")
        await shoot(page, "ap-approved")
    record = book.recorded("demo", "V001", NUMBER)  # type: ignore[attr-defined]
    assert record.state == "approved" and record.state_reason == "short supply agreed by phone"
    assert record.state_by == "anita"
