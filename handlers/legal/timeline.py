"""/timeline <case>: the case's hearings on a time axis as a PNG, with the history as its caption."""

import uuid
from pathlib import Path

from bot.services.charts import Chart
from bot.core.pack import Services
from handlers.legal.ask import case_records
from handlers.legal.chart import HearingPoint, hearing_timeline
from handlers.legal.models import CaseRecord


async def timeline_chart(services: Services, bank: str, case: CaseRecord, title: str, folder: Path) -> Chart | None:
    """Draw every hearing of the case by hearing date, with the next dates they set; None if it has none."""
    hearings = [r for r in await case_records(services, bank, case, None) if r.kind == "hearing"]
    if not hearings:
        return None
    points = [HearingPoint(hearing_date=r.hearing_date, label=r.summary or r.upload_kind, source=r.source_file,
                           next_date=r.next_date) for r in hearings]
    last = max(r.hearing_date for r in hearings)
    # Dashed lines only for next dates that no recorded hearing has reached yet.
    next_dates = sorted({r.next_date for r in hearings if r.next_date is not None and r.next_date > last})
    return hearing_timeline(title, points, next_dates, folder / f"timeline-{case.case_id}-{uuid.uuid4().hex}.png")
