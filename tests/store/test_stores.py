"""Every store on the one database, on SQLite and on a real PostgreSQL: what callers rely on, and that racing
callers (threads with their own connections, like processes) never both win a claim."""

import socket
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from pathlib import Path

from bot.store.grants import TerritoryGrants
from bot.core.intake import IntakeStore
from bot.core.messages import Incoming, Reply
from bot.core.outbound import Outbound
from bot.core.registry import Registry, User
from bot.core.scheduler import FollowUpRow, FollowUpScheduler, StoreLease
from bot.store.state import StateStore
from bot.store.leases import ProcessOwner
from bot.store import Database
from handlers.ap.audit import AuditLog
from memory.models import MemoryItem
from memory.outbox import Outbox

RACERS = 8


def race(action: object, times: int = RACERS) -> list[object]:
    with ThreadPoolExecutor(times) as pool:
        return list(pool.map(lambda _: action(), range(times)))  # type: ignore[operator]


def test_inbox_keeps_a_delivery_once_and_lists_it_until_done(database: Database) -> None:
    state = StateStore(database)
    assert race(lambda: state.inbox_put("telegram", "501", '{"u": 1}')).count(True) == 1
    state.inbox_put("telegram", "502", "{}")
    assert [k for k, _ in state.inbox_pending("telegram")] == ["501", "502"]
    state.inbox_done("telegram", "501")
    assert state.inbox_pending("telegram") == [("502", "{}")] and state.inbox_pending("whatsapp") == []


def test_a_card_is_saved_once_however_many_race_to_save_it(database: Database) -> None:
    state = StateStore(database)
    card = state.open_card("legal", "meera", "hearing", {"case": "O.S. 12/2025", "నోట్": "వాయిదా"})
    state.update_payload(card.card_id, {"case": "O.S. 12/2025", "next": "2026-03-02"})
    assert race(lambda: state.move_card(card.card_id, "open", "saving")).count(True) == 1
    assert [c.card_id for c in state.open_cards("meera")] == [card.card_id]
    state.update_payload(card.card_id, {"case": "changed after saving"})  # ignored: no longer open
    assert state.card(card.card_id).payload["next"] == "2026-03-02"  # type: ignore[union-attr]
    assert state.move_card(card.card_id, "saving", "saved") and state.open_cards() == []


def test_pending_edit_and_conversation_columns_are_typed(database: Database) -> None:
    state = StateStore(database)
    state.await_edit("kiran", "c1", "dose")
    state.await_edit("kiran", "c2", "crop")
    assert state.awaiting_edit("kiran").model_dump() == {"card_id": "c2", "field": "crop"}  # type: ignore[union-attr]
    state.clear_edit("kiran")
    assert state.awaiting_edit("kiran") is None
    state.set_pref("kiran", "lang", "te")
    state.set_pref("kiran", "agri.awaiting_outcome", "agri-V7")
    at = datetime(2026, 2, 3, 4, 5, 6, tzinfo=timezone.utc)
    state.set_pref("whatsapp:+919800000001", "last_inbound", at.isoformat())
    state.set_pref("telegram:77", "card:c9", "4242")
    assert state.pref("kiran", "lang") == "te" and state.pref("kiran", "agri.awaiting_outcome") == "agri-V7"
    assert datetime.fromisoformat(state.pref("whatsapp:+919800000001", "last_inbound")) == at  # type: ignore[arg-type]
    assert state.card_message("telegram:77", "c9") == 4242 and state.pref("telegram:77", "card:c9") == "4242"
    assert state.pref("nobody", "lang") is None


def _incoming(delivery: str) -> Incoming:
    return Incoming(transport="whatsapp", sender="+919800000002", delivery_id=delivery, text="ఎరువు 2 బస్తాలు")


def _dead_owner() -> ProcessOwner:
    """The owner a process of this host had before it died (its pid is no longer alive)."""
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return ProcessOwner(host=socket.gethostname()[:20], pid=int(gone.stdout), started="1", nonce="dead")


def test_intake_records_a_delivery_once_and_one_claimer_wins(database: Database, tmp_path: Path) -> None:
    intake = IntakeStore(database, tmp_path / "media", lease=timedelta(seconds=-1))  # its lease lapses at once
    recorded = race(lambda: intake.record(_incoming("SM1"), "kiran"))
    assert [r.is_new for r in recorded].count(True) == 1  # type: ignore[attr-defined]
    item = intake.by_delivery("whatsapp", "SM1")
    assert item is not None and len(intake.listing()) == 1 and item.owner == intake.owner
    takers = [IntakeStore(database, tmp_path / "media") for _ in range(RACERS)]
    with ThreadPoolExecutor(RACERS) as pool:
        # Its owner stopped renewing the lease: of several takers, one wins, and holds a live lease.
        assert list(pool.map(lambda taker: taker.claim(item), takers)).count(True) == 1
        taken = intake.get(item.intake_id)
        assert taken is not None and taken.owner in {t.owner for t in takers} and taken.state == "processing"
        # A live lease: nobody else takes it, however old the item.
        assert not intake.claim(taken) and intake.due(datetime.now(timezone.utc)) == []
    waiting = intake.postpone(item.intake_id, "hindsight down")
    assert waiting.state == "waiting" and waiting.attempts == 1 and waiting.next_attempt_at is not None
    assert waiting.owner is None
    assert intake.due(datetime.now(timezone.utc) + timedelta(hours=1))[0].intake_id == item.intake_id


def test_an_item_of_a_dead_process_is_taken_at_once_by_one_taker(database: Database, tmp_path: Path) -> None:
    dead = IntakeStore(database, tmp_path / "media", owner=_dead_owner())  # a long lease, never renewed
    item = dead.record(_incoming("SM2"), "kiran").item
    assert item.lease_until is not None and item.lease_until > datetime.now(timezone.utc)
    assert [i.intake_id for i in dead.due(datetime.now(timezone.utc))] == [item.intake_id]
    takers = [IntakeStore(database, tmp_path / "media") for _ in range(RACERS)]
    with ThreadPoolExecutor(RACERS) as pool:
        assert list(pool.map(lambda taker: taker.claim(item), takers)).count(True) == 1


def _memory(document_id: str) -> MemoryItem:
    return MemoryItem(content="Paid ₹41,300 against PO-77.", event_time=datetime(2026, 1, 9, tzinfo=timezone.utc),
                      context="payment", document_id=document_id)


def test_outbox_replaces_by_document_id_and_one_flusher_claims_an_item(database: Database) -> None:
    outbox = Outbox(database.engine)
    outbox.put("t-ap", [_memory("pay:1"), _memory("pay:2")], error="down")
    outbox.put("t-ap", [_memory("pay:1")], error="still down")
    pending = outbox.pending("t-ap")
    assert [q.item.document_id for q in pending] == ["pay:1", "pay:2"] and pending[0].last_error == "still down"
    assert race(lambda: outbox._claim(pending[0])).count(True) == 1
    assert outbox.drop("t-ap", "pay:1") and not outbox.drop("t-ap", "pay:1")


def test_lease_has_one_holder_until_released(database: Database) -> None:
    leases = [StoreLease(database, name="jobs") for _ in range(RACERS)]
    with ThreadPoolExecutor(RACERS) as pool:
        assert list(pool.map(lambda lease: lease.acquire(), leases)).count(True) == 1
    holder = next(lease for lease in leases if lease.held)
    other = next(lease for lease in leases if not lease.held)
    assert holder.acquire() and not other.acquire()  # the holder renews, the other still waits
    holder.release()
    assert other.acquire()


def test_a_lease_whose_holder_died_expires(database: Database) -> None:
    dead = StoreLease(database, name="jobs", ttl=timedelta(seconds=-1))  # already past its expiry
    assert dead.acquire()
    assert StoreLease(database, name="jobs").acquire()


def test_grants_and_audit(database: Database) -> None:
    grants = TerritoryGrants(database)
    assert grants.grant("kiran", "shankarpally") and not grants.grant("kiran", "shankarpally")
    officer = User(user_id="kiran", name="Kiran", role="officer", pack="agri", tenant="t1", territories=["chevella"])
    assert grants.effective(officer).territories == ["chevella", "shankarpally"]
    assert grants.revoke("kiran", "shankarpally") and grants.grants() == []
    audit = AuditLog(database)
    audit.record("r1", "t-ap", "INVOICE_RECEIVED", invoice_number="INV/88")
    audit.record("r1", "t-ap", "AGENT_MEMORY_RETAINED", document_id="d1", digest="abc")
    assert [e.action for e in audit.entries(run_id="r1")] == ["INVOICE_RECEIVED", "AGENT_MEMORY_RETAINED"]
    assert audit.retained_digest("t-ap", "d1") == "abc"
    audit.save_run("r1", "t-ap", "asha", {"decision": "hold"})
    assert race(lambda: audit.claim_clerk_action("r1", "approve", "asha")).count(True) == 1
    assert audit.run("r1").clerk_action == "approve"  # type: ignore[union-attr]


class _Recorder:
    def __init__(self) -> None:
        self.sent: list[str] = []

    async def notify(self, user: User, replies: list[Reply], purpose: str) -> bool:
        self.sent.extend(r.text for r in replies)
        return True


async def test_a_followup_claimed_by_a_process_that_died_is_asked_again_later(database: Database) -> None:
    ravi = User(user_id="ravi", name="Ravi", role="officer", pack="agri", tenant="t1")
    recorder = _Recorder()
    outbound = Outbound(StateStore(database))
    outbound.register("console", recorder)
    scheduler = FollowUpScheduler(database, Registry([ravi]), outbound)
    scheduler.register("agri", lambda f, u: [Reply(text=f"asked {f.followup_id}")])
    now = datetime.now(timezone.utc)
    with database.session() as s:
        s.add_all([FollowUpRow(followup_id=f, pack="agri", user_id="ravi", due_at=now, subject="{}",
                               status="asking", asked_at=at)
                   for f, at in (("agri-live", now), ("agri-dead", now - timedelta(hours=1)))])
    assert not await scheduler.fire("agri-live")  # another process is asking it right now
    assert await scheduler.fire("agri-dead") and recorder.sent == ["asked agri-dead"]
    assert scheduler.get("agri-dead").status == "asked"  # type: ignore[union-attr]


def test_the_last_transport_is_written_only_when_it_changes(database: Database) -> None:
    """Every message remembers its transport: the same one again is not another durable write (issue 30)."""
    ravi = User(user_id="ravi", name="Ravi", role="officer", pack="agri", tenant="t1")
    state = StateStore(database)
    writes: list[str] = []
    set_pref = state.set_pref
    state.set_pref = lambda subject, key, value: (writes.append(value), set_pref(subject, key, value))[1]  # type: ignore[method-assign]
    outbound = Outbound(state)
    for transport in ("console", "console", "telegram", "telegram", "console"):
        outbound.remember_transport(ravi, transport)  # type: ignore[arg-type]
    assert writes == ["console", "telegram", "console"]
    assert state.pref("ravi", "last_transport") == "console"


def test_only_a_server_database_pings_its_pooled_connections_before_use(tmp_path: Path) -> None:
    """A SQLite file's connection cannot go stale: pinging it was one more statement per checkout (issue 30);
    a PostgreSQL connection the server dropped must still be noticed before use."""
    sqlite = Database(f"sqlite:///{tmp_path / 'x.db'}")
    server = Database("postgresql://u:p@127.0.0.1:1/none")
    try:
        assert sqlite.engine.pool._pre_ping is False
        assert server.engine.pool._pre_ping is True
    finally:
        sqlite.dispose()
        server.dispose()
