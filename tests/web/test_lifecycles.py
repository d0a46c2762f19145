"""The lives of an invite and of a sign-in link, as hypothesis state machines over the real stores: whatever the
order of making, revoking, redeeming, using, signing out and time passing, an invite lets one person in only
while open, a link opens one session only while live and unused, and a session lives only until it expires or
is ended."""

import shutil
import tempfile
from functools import cache
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hypothesis import settings, strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, consumes, invariant, rule

from bot.store import Database
from bot.store.invites import InviteRequest, InviteStore
from bot.store.web_access import LINK_MINUTES, SESSION_HOURS, WebAccess
from tests.databases import sqlite_database

START = datetime(2026, 12, 4, 9, 0, tzinfo=UTC)


@cache
def _template() -> Path:
    """A migrated database made once; each example starts from a copy (migrating costs a second)."""
    folder = Path(tempfile.mkdtemp(prefix="smriti-web-life-"))
    sqlite_database(folder).dispose()
    return folder / "smriti.db"


def fresh_database(folder: Path) -> Database:
    shutil.copy(_template(), folder / "smriti.db")
    return Database(f"sqlite:///{folder / 'smriti.db'}")


class InviteLife(RuleBasedStateMachine):
    codes = Bundle("codes")

    def __init__(self) -> None:
        super().__init__()
        self.folder = tempfile.TemporaryDirectory()
        self.db = fresh_database(Path(self.folder.name))
        self.store = InviteStore(self.db)
        self.now = START
        self.model: dict[str, dict[str, object]] = {}
        self.addresses = 0

    @rule(target=codes, hours=st.integers(min_value=1, max_value=5), tenant=st.sampled_from(["kisan", "nyaya"]))
    def make(self, hours: int, tenant: str) -> str:
        issued = self.store.create(InviteRequest(tenant=tenant, role="officer", pack="agri", hours=hours),
                                   now=self.now)
        self.model[issued.code] = {"ref": issued.invite.ref, "tenant": tenant,
                                   "until": self.now + timedelta(hours=hours), "used": False, "revoked": False}
        return issued.code

    def _open(self, code: str) -> bool:
        m = self.model[code]
        return not m["used"] and not m["revoked"] and self.now < m["until"]  # type: ignore[operator]

    @rule(code=codes, as_tenant=st.sampled_from(["kisan", "nyaya"]))
    def revoke(self, code: str, as_tenant: str) -> None:
        m = self.model[code]
        done = self.store.revoke(as_tenant, str(m["ref"]), now=self.now)
        expected = as_tenant == m["tenant"] and not m["used"] and not m["revoked"]
        assert (done is not None) == expected
        if done is not None:
            m["revoked"] = True

    @rule(code=codes)
    def redeem(self, code: str) -> None:
        self.addresses += 1
        joined = self.store.redeem(code, "telegram", str(700000 + self.addresses), now=self.now)
        assert (joined is not None) == self._open(code)
        if joined is not None:
            self.model[code]["used"] = True

    @rule(hours=st.integers(min_value=0, max_value=3))
    def wait(self, hours: int) -> None:
        self.now += timedelta(hours=hours, minutes=30)

    @invariant()
    def states_agree(self) -> None:
        for code, m in self.model.items():
            found = self.store.find(code)
            assert found is not None
            expected = "used" if m["used"] else "revoked" if m["revoked"] else \
                "open" if self.now < m["until"] else "expired"  # type: ignore[operator]
            assert found.state(self.now) == expected

    def teardown(self) -> None:
        self.db.dispose()
        self.folder.cleanup()


class LinkLife(RuleBasedStateMachine):
    links = Bundle("links")
    sessions = Bundle("sessions")

    def __init__(self) -> None:
        super().__init__()
        self.folder = tempfile.TemporaryDirectory()
        self.db = fresh_database(Path(self.folder.name))
        self.access = WebAccess(self.db)
        self.now = START
        self.made: dict[str, tuple[datetime, str]] = {}
        self.used: set[str] = set()
        self.live: dict[str, tuple[datetime, str]] = {}
        self.ended: set[str] = set()

    @rule(target=links, person=st.sampled_from(["asha", "anita"]))
    def make(self, person: str) -> str:
        token = self.access.make_link("demo", person, "test", now=self.now)
        self.made[token] = (self.now + timedelta(minutes=LINK_MINUTES), person)
        return token

    @rule(target=sessions, token=links)
    def use(self, token: str) -> str:
        opened = self.access.use_link(token, "admin", now=self.now)
        until, person = self.made[token]
        assert (opened is not None) == (token not in self.used and self.now < until)
        self.used.add(token)
        if opened is None:
            return ""
        session_id, session = opened
        assert session.person_id == person and session.tenant == "demo"
        self.live[session_id] = (self.now + timedelta(hours=SESSION_HOURS), session.session_hash)
        return session_id

    @rule(session_id=consumes(sessions))
    def sign_out(self, session_id: str) -> None:
        if session_id in self.live:
            self.access.end(self.live[session_id][1], now=self.now)
            self.ended.add(session_id)

    @rule(minutes=st.sampled_from([1, 10, 20, 240, 500]))
    def wait(self, minutes: int) -> None:
        self.now += timedelta(minutes=minutes)

    @invariant()
    def sessions_agree(self) -> None:
        for session_id, (until, _) in self.live.items():
            found = self.access.session(session_id, now=self.now)
            assert (found is not None) == (session_id not in self.ended and self.now < until)

    def teardown(self) -> None:
        self.db.dispose()
        self.folder.cleanup()


TestInviteLife = InviteLife.TestCase
TestInviteLife.settings = settings(max_examples=25, stateful_step_count=15, deadline=None)
TestLinkLife = LinkLife.TestCase
TestLinkLife.settings = settings(max_examples=25, stateful_step_count=15, deadline=None)
