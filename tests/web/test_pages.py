"""The office pages do what the command line and the chat do, checked on the page and in the database: people
added, changed and removed; invites made, shown with their QR code, and revoked (the code then refused);
a messy sheet imported with its dry run as a table, applied once; a queued item retried and dropped; a farmer
forgotten after the preview; the memory panel; Telugu pages; every action audited with who did it."""

from datetime import datetime, timezone

import pytest

from bot.core.intake import UNPROCESSED
from bot.core.messages import Incoming
from bot.store.invites import InviteStore
from bot.store.registers import RegisterStore
from bot.store.subject_audit import SubjectAudit
from bot.store.web_access import WebAccess
from tests.web.conftest import Office, post, token

pytestmark = pytest.mark.hindsight

FARMERS_CSV = ("\ufeffGrower Name,Cell,Village/Mandal,Crops Grown,Area\n"
               "Kavali Pentaiah,94401 22334,Chevella,Paddy; వరి,3\n"
               "Boya Lingamma,,Chevella,cotton,1.5\n,,,,\n"
               "Chinna Ramulu,,Nowhere Thanda,cotton,2\n"
               ",90000 11111,Chevella,cotton,2\n").encode("utf-8")


def actions(office: Office) -> list[tuple[str, str, str]]:
    return [(e.by, e.action, e.target) for e in WebAccess(office.app.services.database).audit_entries("demo")]


async def test_people_added_changed_and_removed(office: Office) -> None:
    registry = office.app.services.registry
    async with office.signed_in("asha") as client:
        added = await post(client, "/office/people/", "/office/people/add", user_id="padma", name="Padma Rani",
                           role="officer", pack="agri", language="te", territories="Chevella; Moinabad",
                           whatsapp="97000 12345")
        assert added.status_code == 303
        page = await client.get(added.headers["location"])
        assert "Padma Rani" in page.text and "+919700012345" in page.text
        changed = await post(client, "/office/people/padma", "/office/people/padma", name="Padma Rani",
                             role="admin", pack="agri", language="te", territories="chevella")
        assert changed.status_code == 303
        registry.refresh()
        padma = registry.by_id("padma")
        assert padma is not None and padma.role == "admin" and padma.territories == ["chevella"]
        assert padma.whatsapp_numbers == ["+919700012345"]  # channels kept
        taken = await post(client, "/office/people/", "/office/people/add", user_id="rahul", name="Rahul",
                           role="clerk", pack="ap", language="en")
        assert taken.status_code == 400 and "another tenant" in taken.text
        removed = await post(client, "/office/people/", "/office/people/padma/remove")
        assert removed.status_code == 303
    registry.refresh()
    assert registry.by_id("padma") is None
    rahul = registry.by_id("rahul")
    assert rahul is not None and rahul.tenant == "othercorp"
    assert [a for a in actions(office) if a[1].startswith("people.")] == [
        ("asha", "people.remove", "padma"), ("asha", "people.change", "padma"), ("asha", "people.add", "padma")]


async def test_an_invite_is_made_with_its_qr_code_and_revoked(office: Office) -> None:
    store = InviteStore(office.app.services.database)
    office.app.conversation.invitations.telegram_username = "smriti_test_bot"
    async with office.signed_in("asha") as client:
        made = await post(client, "/office/people/", "/office/people/invite", name="Ravi Teja", role="officer",
                          pack="agri", language="te", territories="kothur", hours="24")
        assert made.status_code == 200 and "<svg" in made.text
        code = made.text.split('id="invite-code">', 1)[1].split("<", 1)[0]
        assert f"https://t.me/smriti_test_bot?start={code}" in made.text
        invite = store.find(code)
        assert invite is not None and invite.state(datetime.now(timezone.utc)) == "open"
        listing = await client.get("/office/people/")
        assert f'data-invite="{invite.ref}"' in listing.text
        revoked = await post(client, "/office/people/", f"/office/people/invites/{invite.ref}/revoke")
        assert revoked.status_code == 303
        assert "revoked" in (await client.get(revoked.headers["location"])).text
        again = await post(client, "/office/people/", f"/office/people/invites/{invite.ref}/revoke")
        assert again.status_code == 409
    found = store.find(code)
    assert found is not None and found.state(datetime.now(timezone.utc)) == "revoked"
    assert store.redeem(code, "telegram", "777001") is None
    assert office.app.services.registry.lookup("telegram", "777001") is None
    assert ("asha", "invite.revoke", invite.ref) in actions(office)


async def test_a_messy_sheet_is_imported_with_its_dry_run_then_applied_once(office: Office) -> None:
    kind = office.ctx.kinds["farmers"]
    store = RegisterStore(office.app.services.database, *kind.tables)
    before = set(store.records("demo")["farmers"])
    async with office.signed_in("asha") as client:
        page = await client.get("/office/registers/farmers")
        assert page.status_code == 200 and "Ramesh Goud" in page.text
        assert "Ramesh" in (await client.get("/office/registers/farmers?q=ramesh")).text
        assert "Ramesh" not in (await client.get("/office/registers/farmers?q=lingamma")).text
        dry = await client.post("/office/registers/farmers/import", data={"form_token": token(page.text)},
                                files={"file": ("chevella.csv", FARMERS_CSV, "text/csv")})
        assert dry.status_code == 200
        assert "kavali-pentaiah-chevella" in dry.text and "missing Farmer Name" in dry.text
        assert '<tr class="rejected"><td><span class="pill rejected">rejected</span></td><td></td><td>6</td>' in dry.text
        assert "Nowhere Thanda" in dry.text.split('id="created"', 1)[1]
        assert set(store.records("demo")["farmers"]) == before  # the dry run writes nothing
        target = next(a.split('"', 1)[0] for a in dry.text.split('action="')[1:]
                      if a.split('"', 1)[0].endswith("/apply"))
        form = token(dry.text.split(target, 1)[1])
        applied = await client.post(target, data={"form_token": form})
        assert applied.status_code == 200 and "Written" in applied.text
        replayed = await client.post(target, data={"form_token": form})
        assert replayed.status_code == 403
        twice = await post(client, "/office/registers/farmers", target)
        assert twice.status_code == 400 and "already applied" in twice.text
        export = await client.get("/office/registers/farmers/export?format=csv")
        assert export.status_code == 200 and "Kavali Pentaiah" in export.text
    names = {r.data["name"] for r in store.records("demo")["farmers"].values()}
    assert {"Kavali Pentaiah", "Boya Lingamma", "Chinna Ramulu"} <= names
    assert len(store.records("demo")["farmers"]) == len(before) + 3
    assert ("asha", "import.apply", "farmers") in actions(office)


async def test_a_queued_item_is_retried_and_dropped_and_another_tenants_is_not_seen(office: Office) -> None:
    intake = office.app.services.intake
    kept = intake.record(Incoming(transport="telegram", sender="1001", delivery_id="web-q1", text="hello"),
                         "srinivas").item
    intake.fail(kept.intake_id, "ValueError: test")
    held = intake.record(Incoming(transport="telegram", sender="1001", delivery_id="web-q3", text="later"),
                         "srinivas").item
    intake.postpone(held.intake_id, "MemoryUnavailable: down")
    theirs = intake.record(Incoming(transport="telegram", sender="2001", delivery_id="web-q2", text="x"), "rahul").item
    intake.fail(theirs.intake_id, "ValueError: test")
    async with office.signed_in("asha") as client:
        page = await client.get("/office/queue/")
        assert f'data-item="{kept.intake_id}"' in page.text and theirs.intake_id not in page.text
        retried = await post(client, "/office/queue/", f"/office/queue/{kept.intake_id}/retry")
        assert retried.status_code == 303
        assert (await post(client, "/office/queue/", f"/office/queue/{theirs.intake_id}/drop")).status_code == 404
        dropped = await post(client, "/office/queue/", f"/office/queue/{held.intake_id}/drop")
        assert dropped.status_code == 303
    item = intake.get(kept.intake_id)
    assert item is not None and item.state in ("answered", "done")  # processed; its reply waits for Telegram
    gone = intake.get(held.intake_id)
    assert gone is not None and gone.state not in UNPROCESSED
    other = intake.get(theirs.intake_id)
    assert other is not None and other.state == "failed"
    assert ("asha", "queue.retry", kept.intake_id) in actions(office)


async def test_a_farmer_is_forgotten_after_the_preview_and_exported(office: Office) -> None:
    kind = office.ctx.kinds["farmers"]
    store = RegisterStore(office.app.services.database, *kind.tables)
    assert "F001" in store.records("demo")["farmers"]
    async with office.signed_in("asha") as client:
        exported = await post(client, "/office/privacy/", "/office/privacy/subject", kind="farmer",
                              query="Ramesh Goud", action="export")
        assert exported.status_code == 200 and '"F001"' in exported.text
        preview = await post(client, "/office/privacy/", "/office/privacy/subject", kind="farmer",
                             query="Ramesh Goud", action="forget")
        assert preview.status_code == 200 and "agri registers" in preview.text
        assert "F001" in store.records("demo")["farmers"]  # the preview erases nothing
        erased = await client.post("/office/privacy/erase", data={"form_token": token(preview.text.split("/privacy/erase", 1)[1]),
                                                                  "kind": "farmer", "subject_id": "F001"})
        assert erased.status_code == 303
        page = await client.get(erased.headers["location"])
        assert "Erased" in page.text and "F001" in page.text
    assert "F001" not in store.records("demo")["farmers"]
    audit = [(e.action, e.by, e.via, e.outcome) for e in SubjectAudit(office.app.services.database).entries("demo")]
    assert ("forget", "asha", "web", "done") in audit and ("export", "asha", "web", "done") in audit


async def test_memory_panel_and_telugu_pages(office: Office) -> None:
    async with office.signed_in("asha") as client:
        page = await client.get("/office/memory/")
        assert page.status_code == 200 and 'id="memory-state"' in page.text
        assert "smriti" not in page.text or office.app.services.bank_of("demo", "agri") in page.text
        switched = await client.get("/office/lang/te?back=/office/people/")
        assert switched.status_code == 303 and switched.headers["location"] == "/office/people/"
        telugu = await client.get("/office/people/")
        assert "వ్యక్తులు" in telugu.text and "ఆహ్వానాలు" in telugu.text
        assert (await client.get("/office/lang/te?back=https://evil.example/")).headers["location"] == "/office/"


async def test_an_undelivered_reply_is_sent_again_or_dropped(office: Office) -> None:
    from datetime import timedelta

    from bot.core.messages import Reply
    from bot.store.reply_outbox import outgoing

    outbox = office.app.services.replies.outbox
    ours = outgoing("web:r1", "srinivas", "telegram", "1001", [Reply(text="your card"), Reply(text="saved")])
    theirs = outgoing("web:r2", "rahul", "telegram", "2001", [Reply(text="theirs")])
    outbox.keep([*ours, *theirs], "test", timedelta(seconds=1))
    for row in [*ours, *theirs]:
        outbox.give_up(row, "Forbidden: bot was blocked by the user")
    async with office.signed_in("asha") as client:
        page = await client.get("/office/queue/")
        assert 'data-reply="web:r1~0"' in page.text and "web:r2" not in page.text
        assert (await post(client, "/office/queue/", "/office/queue/reply/web:r1~0/retry")).status_code == 303
        assert (await post(client, "/office/queue/", "/office/queue/reply/web:r1~1/drop")).status_code == 303
        assert (await post(client, "/office/queue/", "/office/queue/reply/web:r2~0/retry")).status_code == 404
    assert [(r.position, r.state, r.attempts) for r in outbox.rows("web:r1")] == [(0, "pending", 0)]
    assert [r.state for r in outbox.rows("web:r2")] == ["failed"]
    assert ("asha", "queue.reply_drop", "web:r1#1") in actions(office)


async def test_the_only_administrator_cannot_demote_themselves(office: Office) -> None:
    """A tenant is never left without an administrator (the office walk demoted its only one)."""
    async with office.signed_in("asha") as client:
        refused = await post(client, "/office/people/asha", "/office/people/asha", name="Asha Rani",
                             role="officer", pack="agri", language="en", territories="chevella")
        assert refused.status_code == 400 and "only administrator" in refused.text
    office.app.services.registry.refresh()
    asha = office.app.services.registry.by_id("asha")
    assert asha is not None and asha.role == "admin"
