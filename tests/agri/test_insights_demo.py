"""Village insights (deterministic aggregation on a memory server without an LLM), the demo's side-by-side
briefs, `smriti brief --json`, and the agri catalogues in both languages."""

import json
import re
from datetime import date

import pytest

from bot.core.app import App
from bot.cli.smriti import main
from bot.services.i18n import catalogue, placeholders
from handlers.agri.insights import village_insights
from handlers.agri.pack import AgriPack
from bot.core.pack import SeedReport
from tests.agri.conftest import say
from tests.databases import seed_people

pytestmark = pytest.mark.hindsight

_DATED = re.compile(r"\(\d{1,2} [A-Z][a-z]{2} 2026")


async def test_moinabad_insights_find_pink_bollworm_and_what_controls_it(seeded: SeedReport, agri_app: App) -> None:
    pack = agri_app.packs["agri"]
    assert isinstance(pack, AgriPack)
    found = await village_insights(agri_app.services.memory, seeded.bank_id, pack.book_for("demo"), "moinabad",
                                   date(2026, 9, 28))
    assert found.source == "aggregate"  # the local server has no LLM, so reflect is unavailable
    assert found.works[0].startswith("Top problem: pink bollworm")
    assert found.works[1].startswith("Proclaim (P007): controlled 3x (20 Sep 2026, 1 Sep 2026, 23 Aug 2026)")
    assert any(w.startswith("Profex Super (P008)") and "did not respond 1x (20 Aug 2026)" in w for w in found.works)
    assert found.watch[0].startswith("cotton pink bollworm")
    for point in found.works + found.objections + found.watch:
        assert _DATED.search(point), point


async def test_chevella_farmers_accept_advice_that_comes_with_a_neighbours_result(seeded: SeedReport,
                                                                                    agri_app: App) -> None:
    [reply] = await agri_app.conversation.handle(say("srinivas", "/insights Chevella"))
    with_n = re.search(r"With a neighbour's result: (\d+) of (\d+)", reply.text)
    without = re.search(r"Without a neighbour's result: (\d+) of (\d+)", reply.text)
    assert with_n and without
    assert int(with_n[1]) / int(with_n[2]) > 0.9 > 0.3 > int(without[1]) / int(without[2])
    assert "Amistar Top (P006) turned down 3x: price too high" in reply.text
    [refused] = await agri_app.conversation.handle(say("srinivas", "/insights Tandur"))
    assert "not one of your villages" in refused.text


async def test_demo_shows_memory_off_and_on_side_by_side(seeded: SeedReport, agri_app: App) -> None:
    lines: list[str] = []
    await agri_app.packs["agri"].demo("demo", lines.append)
    shown = "\n".join(lines)
    side = next(block for block in lines if "│" in block).splitlines()
    left = "\n".join(row.split("│")[0] for row in side)
    right = "\n".join(row.split("│")[1] for row in side)
    assert "memory OFF" in left and "memory ON" in right and "memory ON" not in left
    assert "No history with this farmer yet." in left and "What memory says" not in left
    assert "Blitox 50 (P001)" in right and "Amistar Top (P006), Rs 1,480" in right
    early = shown.split("as of 2026-04-20")[1]
    assert "8 Apr 2026 · visit to Ramesh Goud" in early and "21 Apr 2026" not in early.split("Moinabad as of")[0]


async def test_cli_brief_json(seeded: SeedReport, hindsight_url: str, bank_prefix: str, tmp_path: object,
                              monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SMRITI_HINDSIGHT_URL", hindsight_url)
    monkeypatch.setenv("SMRITI_BANK_PREFIX", bank_prefix)
    monkeypatch.setenv("SMRITI_HOME", str(tmp_path))
    seed_people(tmp_path)  # type: ignore[arg-type]
    monkeypatch.delenv("GROQ_API_KEY", raising=False)
    import asyncio
    code = await asyncio.to_thread(main, ["brief", "--farmer", "F001", "--as-of", "2026-04-20", "--json"])
    assert code == 0
    brief = json.loads(capsys.readouterr().out)
    assert set(brief) >= {"farmer", "as_of", "memory", "claims", "products", "avoid", "checks", "confidence",
                          "recalled", "unverified"}
    assert brief["as_of"] == "2026-04-20" and brief["memory"] == "on"
    assert {"text", "source_date", "document_id", "farmer_id"} == set(brief["claims"][0])
    assert {"id", "name", "price", "dosage", "pitch"} == set(brief["products"][0])


def test_agri_catalogues_match_in_both_languages() -> None:
    en = {k: v for k, v in catalogue("en").items() if k.startswith("agri.")}
    te = {k: v for k, v in catalogue("te").items() if k.startswith("agri.")}
    assert en.keys() == te.keys() and len(en) > 100
    assert all(placeholders(en[k]) == placeholders(te[k]) for k in en)
    assert all(any("\u0c00" <= ch <= "\u0c7f" for ch in v) for k, v in te.items() if not k.startswith("agri.claim_"))


async def test_insights_send_a_chart_of_advised_accepted_and_worked(seeded: SeedReport, agri_app: App) -> None:
    from PIL import Image

    from handlers.agri.insights import village_insights as insights_for

    [reply] = await agri_app.conversation.handle(say("srinivas", "/insights Moinabad"))
    assert reply.image is not None and reply.image.exists()
    assert "pink bollworm" in reply.text  # the caption carries the same facts as the picture
    image = Image.open(reply.image)
    assert image.width == 1000 and image.height >= 300
    plotted = json.loads(image.info["Description"])
    pack = agri_app.packs["agri"]
    expected = await insights_for(agri_app.services.memory, seeded.bank_id, pack.book_for("demo"), "moinabad", pack.today())
    assert plotted == [c.model_dump() for c in expected.counts]
    bollworm = next(row for row in plotted if "pink bollworm" in row["problem"])
    assert bollworm["advised"] >= bollworm["accepted"] >= 1 and bollworm["worked"] >= 3
