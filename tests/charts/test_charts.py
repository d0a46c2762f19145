"""Charts show what they claim: the plotted marks are counted in the pixels, and the PNG carries the facts."""

import json
from datetime import date
from pathlib import Path

from PIL import Image

from bot.services.charts import HEARING_COLOUR
from handlers.agri.chart import ProblemCounts, advice_outcomes
from handlers.ap.chart import PaymentPoint, payments_by_account
from handlers.legal.chart import HearingPoint, hearing_timeline
from tests.charts.pixels import colour_blobs


def test_timeline_draws_one_marker_per_hearing(tmp_path: Path) -> None:
    hearings = [HearingPoint(hearing_date=date(2026, m, d), label=f"hearing {m}/{d}", source=f"IMG_{m}{d}.jpg")
                for m, d in ((4, 2), (5, 14), (6, 22), (7, 30), (9, 24))]
    chart = hearing_timeline("Seabreeze SP suit", hearings, [date(2026, 10, 15)], tmp_path / "t.png")
    assert chart.plotted == 5
    assert colour_blobs(chart.path, HEARING_COLOUR) == 5
    image = Image.open(chart.path)
    assert image.width == 1100 and image.height >= 300
    facts = json.loads(image.info["Description"])
    assert [h["date"] for h in facts["hearings"]] == ["2026-04-02", "2026-05-14", "2026-06-22", "2026-07-30",
                                                      "2026-09-24"]
    assert facts["next_dates"] == ["2026-10-15"]


def test_advice_outcomes_and_payments_carry_their_numbers(tmp_path: Path) -> None:
    rows = [ProblemCounts(problem="chilli leaf blight", advised=6, accepted=4, worked=3),
            ProblemCounts(problem="cotton pink bollworm", advised=5, accepted=2, worked=2)]
    chart = advice_outcomes("Chevella", rows, tmp_path / "i.png")
    assert chart.plotted == 2
    assert json.loads(Image.open(chart.path).info["Description"])[0]["worked"] == 3
    payments = [PaymentPoint(paid_on=date(2025, m, 5), amount=90000 + m, account_suffix="4821") for m in range(1, 13)]
    chart = payments_by_account("Ravi Steel", payments, tmp_path / "p.png")
    assert colour_blobs(chart.path, "#1f5fbf") >= 12
