"""/timeline <case>: the case's hearings on a time axis as a PNG, with the history as its caption."""

import uuid
from datetime import date
from pathlib import Path

from bot.services.charts import Chart
from bot.core.pack import Services
from handlers.legal.ask import case_records
from handlers.legal.case_dates import next_date
from handlers.legal.chart import HearingPoint, hearing_timeline
from handlers.legal.models import CaseRecord, HearingRecord


def upcoming(records: list[HearingRecord]) -> list[date]:
    """The dashed line of the chart: the case's one next date as "when is the next date" gives it (a later
    cause list or hearing supersedes an older hearing's date, which is never drawn as live)."""
    found = next_date(records)
    return [found.day] if found is not None else []


async def timeline_chart(services: Services, bank: str, case: CaseRecord, title: str, folder: Path) -> Chart | None:
    """Draw every hearing of the case by hearing date, with the next dates they set; None if it has none."""
    records = await case_records(services, bank, case, None)
    hearings = [r for r in records if r.kind == "hearing"]
    if not hearings:
        return None
    points = [HearingPoint(hearing_date=r.hearing_date, label=r.summary or r.upload_kind, source=r.source_file,
                           next_date=r.next_date) for r in hearings]
    return hearing_timeline(title, points, upcoming(records),
                            folder / f"timeline-{case.case_id}-{uuid.uuid4().hex}.png")
