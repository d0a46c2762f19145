"""Invite codes in the one database: made for one tenant, pack and role, redeemed once, before they expire, and
a failed redemption writes nothing (on SQLite and on PostgreSQL)."""

import string
import threading
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from bot.store.invites import ALPHABET, CODE_LENGTH, InviteRequest, InviteRow, InviteStore, normalise_code
from bot.store.people import ChannelRow, PeopleRegistry, PersonRow, TerritoryRow, import_people, load_people
from bot.core.registry import User
from bot.store import Database
from tests.databases import sqlite_database


def counts(database: Database) -> tuple[int, int, int, int]:
    """People, channels, territories and used invites: what a redemption writes."""
    with database.session() as s:
        return (s.scalar(select(func.count()).select_from(PersonRow)) or 0,
                s.scalar(select(func.count()).select_from(ChannelRow)) or 0,
                s.scalar(select(func.count()).select_from(TerritoryRow)) or 0,
                s.scalar(select(func.count()).select_from(InviteRow).where(InviteRow.used_at.is_not(None))) or 0)


def officer_invite(tenant: str = "kisan-seva", **extra: object) -> InviteRequest:
    values: dict[str, object] = dict(tenant=tenant, role="officer", pack="agri", name="Padma Rani",
                                     lang="te", territories=["kothur", "yacharam"])
    values.update(extra)
    return InviteRequest(**values)  # type: ignore[arg-type]


def test_a_code_lets_one_person_in_with_the_invites_tenant_pack_role_and_territories(database: Database) -> None:
    store = InviteStore(database)
    issued = store.create(officer_invite(), created_by="admin-1")
    assert len(issued.code) == CODE_LENGTH and set(issued.code) <= set(ALPHABET)
    with database.session() as s:
        [row] = s.scalars(select(InviteRow))
        assert issued.code not in row.code_hash, "only a hash of the code is kept"
    spaced = f"  {issued.code[:4].upper()}-{issued.code[4:]} "
    user = store.redeem(spaced, "whatsapp", "+919700012345")
    assert user is not None
    assert (user.tenant, user.pack, user.role, user.name, user.lang, user.territories) == (
        "kisan-seva", "agri", "officer", "Padma Rani", "te", ["kothur", "yacharam"])
    registry = PeopleRegistry(database)
    found = registry.lookup("whatsapp", "whatsapp:+919700012345")
    assert found is not None and found.user_id == user.user_id and found.tenant == "kisan-seva"
    assert store.find(issued.code).used_at is not None  # type: ignore[union-attr]
    assert store.redeem(issued.code, "whatsapp", "+919700099999") is None, "a code works once"
    assert counts(database) == (1, 1, 2, 1)


def test_expired_mistyped_and_unknown_codes_write_nothing(database: Database) -> None:
    store = InviteStore(database)
    now = datetime.now(timezone.utc)
    expired = store.create(officer_invite(hours=1), now=now - timedelta(hours=2))
    live = store.create(officer_invite())
    wrong = live.code[:-1] + ("a" if live.code[-1] != "a" else "b")
    for said in (expired.code, wrong, live.code[:-1], "", "hello there", live.code + "x"):
        assert store.redeem(said, "telegram", "77001") is None, said
    assert counts(database) == (0, 0, 0, 0)
    assert store.redeem(live.code, "telegram", "77001") is not None


def test_a_code_cannot_take_an_address_that_belongs_to_someone(database: Database) -> None:
    import_people(database, [User(user_id="gowri", name="Gowri", role="lawyer", pack="legal", tenant="nyaya",
                                  telegram_ids=[55501])])
    store = InviteStore(database)
    issued = store.create(officer_invite())
    assert store.redeem(issued.code, "telegram", "55501") is None
    assert store.find(issued.code).used_at is None, "the code stays for the person it was meant for"  # type: ignore[union-attr]
    assert [u.user_id for u in load_people(database)] == ["gowri"]


def test_two_redemptions_of_one_code_at_once_exactly_one_wins(database: Database) -> None:
    store = InviteStore(database)
    for _ in range(3):
        code = store.create(officer_invite(tenant="race")).code
        barrier = threading.Barrier(4)
        results: list[User | None] = []

        def redeem(address: str, code: str, barrier: threading.Barrier, results: list[User | None]) -> None:
            barrier.wait()
            results.append(store.redeem(code, "telegram", address))

        threads = [threading.Thread(target=redeem, args=(f"8800{i}", code, barrier, results)) for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sum(r is not None for r in results) == 1
    people = [u for u in load_people(database) if u.tenant == "race"]
    assert len(people) == 3 and all(len(u.telegram_ids) == 1 for u in people)


def test_codes_are_normalised_but_only_code_shaped_text_is_one() -> None:
    assert normalise_code("ABCD EFGH 23") == "abcdefgh23"
    assert normalise_code("abcd-efgh-2") is None
    assert normalise_code("abcdefgh10") is None, "0 and 1 are never in a code"


@pytest.fixture(scope="module")
def invited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    """A database with a live, an expired and a used invite."""
    database = sqlite_database(tmp_path_factory.mktemp("invites-property"))
    store = InviteStore(database)
    store.create(officer_invite())
    store.create(officer_invite(hours=1), now=datetime.now(timezone.utc) - timedelta(hours=3))
    used = store.create(officer_invite())
    assert store.redeem(used.code, "telegram", "1") is not None
    yield database
    database.dispose()


@settings(max_examples=80, deadline=None)
@given(said=st.one_of(st.text(max_size=30),
                      st.text(alphabet=ALPHABET + string.ascii_uppercase + "- ", min_size=8, max_size=14)))
def test_anything_that_is_not_a_live_code_is_refused_and_stores_nothing(invited: Database, said: str) -> None:
    database = invited
    before = counts(database)
    assert InviteStore(database).redeem(said, "whatsapp", "+15550001111") is None
    assert counts(database) == before
