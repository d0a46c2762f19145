"""Over generated messages: a stranger whose message is not a live invite code is refused, and nothing of theirs is
written (people, channels, intake, raw inbox, invites), whatever the text looks like."""

from collections.abc import AsyncIterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from bot.core.app import App
from bot.services.i18n import text
from bot.store.invites import ALPHABET, InviteRequest, InviteRow, InviteStore
from bot.core.messages import Incoming
from bot.store import Base
from tests.conftest import make_settings

pytestmark = pytest.mark.hindsight

TABLES = ("people", "person_channels", "intake_items", "inbox")
REFUSALS = {text("en", "join.refused"), text("en", "core.not_registered")}


@pytest.fixture(scope="module")
async def app(tmp_path_factory: pytest.TempPathFactory, hindsight_url: str, bank_prefix: str) -> AsyncIterator[App]:
    settings = make_settings(tmp_path_factory.mktemp("join-property"), hindsight_url, bank_prefix)
    running = await App.start(settings, pack_names=[])
    InviteStore(running.services.database).create(InviteRequest(tenant="live-one", role="clerk", pack="ap"))
    yield running
    await running.aclose()


def snapshot(app: App) -> tuple[int, ...]:
    with app.services.database.session() as s:
        counts = [s.scalar(select(func.count()).select_from(Base.metadata.tables[t])) or 0 for t in TABLES]
        counts.append(s.scalar(select(func.count()).select_from(InviteRow).where(InviteRow.used_at.is_not(None))) or 0)
    return tuple(counts)


messages = st.one_of(
    st.text(max_size=60),
    st.builds(lambda head, code: f"{head} {code}", st.sampled_from(["join", "JOIN", "/start", "/start@SmritiBot"]),
              st.text(alphabet=ALPHABET + ALPHABET.upper() + "-0 ", min_size=1, max_size=16)),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=messages, transport=st.sampled_from(["telegram", "whatsapp"]), n=st.integers(0, 10**6))
async def test_a_stranger_without_a_live_code_is_refused_and_nothing_is_written(
        app: App, body: str, transport: str, n: int) -> None:
    sender = str(900_000_000 + n) if transport == "telegram" else f"whatsapp:+1555{n:07d}"
    before = snapshot(app)
    replies = await app.conversation.handle(Incoming(transport=transport, sender=sender,  # type: ignore[arg-type]
                                                     delivery_id=f"p{n}", text=body))
    assert len(replies) <= 1 and all(r.text in REFUSALS for r in replies)
    assert snapshot(app) == before
    assert app.services.registry.lookup(transport, sender) is None  # type: ignore[arg-type]
