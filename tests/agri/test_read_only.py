"""Read-only commands never send (issue 28): `smriti brief` and `smriti insights` start the app to answer, and a
follow-up already due stays unsent (it is the running bot's to send); `insights --village` takes the register's
village id as well as its name."""

import asyncio
import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from bot.cli.smriti import main
from bot.core.app import App
from bot.core.pack import SeedReport
from bot.core.scheduler import FollowUp
from bot.settings import load_settings
from handlers.agri.models import Visit
from tests.databases import seed_people


@pytest.fixture
def cli_home(hindsight_url: str, bank_prefix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SMRITI_HINDSIGHT_URL", hindsight_url)
    monkeypatch.setenv("SMRITI_BANK_PREFIX", bank_prefix)
    monkeypatch.setenv("SMRITI_HOME", str(tmp_path))
    monkeypatch.delenv("GROQ_API_KEY", raising=False)
    seed_people(tmp_path)
    return tmp_path


async def test_brief_and_insights_at_the_command_line_send_no_due_follow_up(
        seeded: SeedReport, cli_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    app = await App.start(load_settings(), run_followups=False)
    try:
        visit = Visit(id="F001-20261101-abcdef", date=date(2026, 11, 1), officer_id="O01", farmer_id="F001",
                      village="chevella", crop="chilli")
        assert app.services.scheduler is not None
        app.services.scheduler.schedule(FollowUp(
            followup_id="agri-F001-20261101-abcdef", pack="agri", user_id="srinivas",
            due_at=datetime.now(UTC) - timedelta(minutes=5), subject={"visit": visit.model_dump_json()}))
    finally:
        await app.aclose()
    assert await asyncio.to_thread(main, ["brief", "--farmer", "Ramesh Goud", "--tenant", "demo"]) == 0
    assert await asyncio.to_thread(main, ["insights", "--village", "chevella", "--json", "--tenant", "demo"]) == 0
    capsys.readouterr()
    app = await App.start(load_settings(), run_followups=False)
    try:
        assert app.services.scheduler is not None
        waiting = app.services.scheduler.get("agri-F001-20261101-abcdef")
        assert waiting is not None and waiting.status == "pending" and waiting.asked_at is None
    finally:
        await app.aclose()


async def test_insights_take_the_village_id_or_name_and_brief_a_first_name_lists_the_matches(
        seeded: SeedReport, cli_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    app = await App.start(load_settings(), run_followups=False)
    try:
        village = app.packs["agri"].book_for("demo").villages["moinabad"]  # type: ignore[attr-defined]
    finally:
        await app.aclose()
    for written in (village.slug, village.name, village.name_te, village.slug.upper()):
        assert await asyncio.to_thread(main, ["insights", "--village", written, "--json", "--tenant", "demo"]) == 0
        assert json.loads(capsys.readouterr().out)["village"] == "moinabad", written
    assert await asyncio.to_thread(main, ["brief", "--farmer", "Ramesh", "--tenant", "demo"]) == 2
    shown = capsys.readouterr().err
    assert "Ramesh Goud (F001" in shown and "Ramesh Naik (F027" in shown


async def test_listing_commands_do_not_prepare_the_memory_bank(settings: object,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Walk step (issue 25): a first /farmers took 17 s because the person's bank was set up first; a listing
    answered from the database does not touch memory. A command that reads memory still prepares it."""
    from bot.core.registry import Registry
    from tests.agri.conftest import agri_users, say

    app = await App.start(settings, registry=Registry(agri_users()), pack_names=["agri"])  # type: ignore[arg-type]
    prepared: list[str] = []

    async def ensure_bank(profile: object) -> None:
        prepared.append(str(getattr(profile, "bank_id", "")))

    monkeypatch.setattr(app.services.memory, "ensure_bank", ensure_bank)
    try:
        for command in ("/farmers", "/followups"):
            [listed] = await app.conversation.handle(say("ravi", command))
            assert listed.text and prepared == [], command
        await app.conversation.handle(say("ravi", "/brief Raju Yadav"))
        assert len(prepared) == 1
    finally:
        await app.aclose()
