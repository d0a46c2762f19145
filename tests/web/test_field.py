"""The field pages: a farmer's visits and outcomes from the visit records, pending follow-ups, a village's
insights with the chart; a clerk cannot open them; another tenant's farmer is not found."""

import json
from datetime import UTC, datetime, timedelta

import pytest

from bot.core.scheduler import FollowUp
from handlers.agri.models import Outcome, Visit
from handlers.agri.visit_records import SavedOutcome, SavedVisit
from tests.web.conftest import CLERK, Office

pytestmark = pytest.mark.hindsight

VISIT = {"id": "VW01", "date": "2026-11-02", "officer_id": "O03", "farmer_id": "F001", "village": "chevella",
         "crop": "chilli", "stage": "flowering", "issue": "leaf-blight", "severity": "medium",
         "products": [{"product_id": "P001", "reaction": "accepted"}], "next_step": "Spray twice, 10 days apart."}


def record_visit(office: Office) -> None:
    pack = office.app.packs["agri"]
    visit = Visit.model_validate(VISIT)
    pack.records.save_visit("demo", SavedVisit(visit=visit, key="VW01", transcript="blight on chilli"))  # type: ignore[attr-defined]
    pack.records.save_outcome("demo", SavedOutcome(outcome=Outcome(  # type: ignore[attr-defined]
        visit_id="VW01", date=visit.date + timedelta(days=14), officer_id="O03", farmer_id="F001",
        village="chevella", crop="chilli", products=["P001"], result="controlled", note="two sprays did it"),
        visit_date=visit.date))
    second = Visit.model_validate({**VISIT, "id": "VW02", "date": "2026-11-20", "issue": "thrips"})
    pack.records.save_visit("demo", SavedVisit(visit=second, key="VW02"))  # type: ignore[attr-defined]
    scheduler = office.app.services.scheduler
    assert scheduler is not None
    scheduler.schedule(FollowUp(followup_id="agri-VW02", pack="agri", user_id="srinivas",
                                due_at=datetime(2026, 12, 11, 4, 0, tzinfo=UTC),
                                subject={"visit": json.dumps(second.model_dump(mode="json"))}))


async def test_a_farmers_visits_outcomes_followups_and_village_chart(office: Office) -> None:
    record_visit(office)
    async with office.signed_in("asha") as client:
        overview = await client.get("/office/field/")
        assert overview.status_code == 200
        followups = overview.text.split('id="followups"', 1)[1].split("</table>", 1)[0]
        assert "Ramesh Goud" in followups and "Srinivas Reddy" in followups and "20 Nov 2026" in followups
        assert "11 Dec 2026" in followups
        row = overview.text.split('data-farmer="F001"', 1)[1].split("</tr>", 1)[0]
        assert "<td>2</td>" in row and "20 Nov 2026" in row
        farmer = await client.get("/office/field/farmer/F001")
        visits = farmer.text.split('id="visits"', 1)[1]
        assert visits.index("20 Nov 2026") < visits.index("2 Nov 2026")
        first = visits.split('data-visit="VW01"', 1)[1].split("</tr>", 1)[0]
        assert "controlled" in first and "two sprays did it" in first and "accepted" in first
        assert "no outcome yet" in visits.split('data-visit="VW02"', 1)[1].split("</tr>", 1)[0]
        village = await client.get("/office/field/village/chevella")
        assert village.status_code == 200 and 'id="chart"' in village.text
        assert (await client.get("/office/field/farmer/NOPE")).status_code == 404
        assert (await client.get("/office/field/village/nowhere")).status_code == 404
    async with office.signed_in(CLERK) as clerk:
        assert (await clerk.get("/office/field/")).status_code == 403
    async with office.signed_in("omar") as other:
        assert (await other.get("/office/field/farmer/VW01")).status_code == 404
        page = await other.get("/office/field/")
        assert "Ramesh Goud" not in page.text.split('id="followups"', 1)[1].split("</table>", 1)[0]
