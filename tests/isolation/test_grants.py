"""Territory grants: an inheriting officer is refused a farmer outside her villages, is granted the village
with `smriti access grant`, and then gets that farmer's whole seeded history (recorded by other officers)."""

import re
from pathlib import Path

import pytest

from bot.cli import smriti as cli
from bot.store.grants import grants_for
from bot.core.app import App
from bot.settings import load_settings
from handlers.agri.pack import AgriPack
from handlers.agri.registers import seed_registers
from bot.core.pack import SeedReport
from bot.services.i18n import show_date
from tests.isolation.conftest import say

pytestmark = pytest.mark.hindsight

_DOC_ID = re.compile(r"\b(?:visit|outcome):V\d{3}\b")


async def _smriti(monkeypatch: pytest.MonkeyPatch, home: Path, capsys: pytest.CaptureFixture[str],
                  *argv: str) -> str:
    """Run a `smriti` command (its real parser and handler) on this test's state directory; return the output."""
    monkeypatch.setenv("SMRITI_HOME", str(home))
    args = cli.build_parser().parse_args(list(argv))
    code = await args.handler(args, load_settings())
    out = capsys.readouterr()
    return f"{code}\n{out.out}{out.err}"


async def test_granted_village_gives_the_inheriting_officer_the_farmers_whole_history(
        seeded: SeedReport, seeded_app: App, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    pack = seeded_app.packs["agri"]
    assert isinstance(pack, AgriPack)
    book = seed_registers(seeded_app.services.database, "demo", pack.book_for)
    farmer = book.farmers["F012"]
    season = book.season
    history = {f"visit:{v.id}" for v in season.visits if v.farmer_id == farmer.id} | \
              {f"outcome:{o.visit_id}" for o in season.outcomes if o.farmer_id == farmer.id}
    # Briefs cite a source by its date and the farmer's name, never by a record id.
    history_dates = {show_date("te", v.date) for v in season.visits if v.farmer_id == farmer.id} | \
                    {show_date("te", o.date) for o in season.outcomes if o.farmer_id == farmer.id}
    lakshmi = seeded_app.services.registry.by_id("lakshmi")
    assert lakshmi is not None and farmer.village not in lakshmi.territories and len(history) >= 3
    assert {v.officer_id for v in season.visits if v.farmer_id == farmer.id} - {lakshmi.officer_id}, \
        "the history was recorded by other officers"
    conversation, home = seeded_app.conversation, seeded_app.settings.data_dir

    [refused] = await conversation.handle(say("lakshmi", "/brief F012 2026-12-01"))
    assert "కనబడలేదు" in refused.text and not _DOC_ID.search(refused.text)
    assert "శ్రీశైలం" not in refused.text
    [listing] = await conversation.handle(say("lakshmi", "/farmers"))
    assert "F012" not in listing.text

    granted = await _smriti(monkeypatch, home, capsys, "access", "grant", "lakshmi", "Moinabad")
    assert granted.startswith("0\n") and "Granted moinabad to lakshmi" in granted
    assert "chevella, vikarabad, tandur, moinabad" in granted
    assert [g.village for g in grants_for(seeded_app.services.database).grants("lakshmi")] == ["moinabad"]

    [brief] = await conversation.handle(say("lakshmi", "/brief F012 2026-12-01"))
    assert "శ్రీశైలం" in brief.text
    assert all(day in brief.text for day in history_dates), "every visit and outcome of the farmer is cited"
    assert not _DOC_ID.search(brief.text)
    [listing] = await conversation.handle(say("lakshmi", "/farmers"))
    assert "F012" in listing.text

    shown = await _smriti(monkeypatch, home, capsys, "access", "list")
    assert "lakshmi (Lakshmi Devi, tenant demo): own chevella, vikarabad, tandur; granted moinabad" in shown
    assert (await _smriti(monkeypatch, home, capsys, "access", "revoke", "lakshmi", "chevella")).startswith("2\n")
    assert (await _smriti(monkeypatch, home, capsys, "access", "grant", "anita", "moinabad")).startswith("2\n")
    assert (await _smriti(monkeypatch, home, capsys, "access", "grant", "lakshmi", "atlantis")).startswith("2\n")
    revoked = await _smriti(monkeypatch, home, capsys, "access", "revoke", "lakshmi", "moinabad")
    assert revoked.startswith("0\n") and "Revoked moinabad from lakshmi" in revoked

    [again] = await conversation.handle(say("lakshmi", "/brief F012 2026-12-01"))
    assert "కనబడలేదు" in again.text and not _DOC_ID.search(again.text) and "శ్రీశైలం" not in again.text
    [srinivas] = await conversation.handle(say("srinivas", "/brief F012 2026-12-01"))
    english_dates = {show_date("en", v.date) for v in season.visits if v.farmer_id == farmer.id}
    assert all(day in srinivas.text for day in english_dates), "revoking a grant leaves the registry's villages"
