"""Exact questions come from the records, complete however many there are: at 10,000 hearings (bench.scale_legal's
generated practice, written straight into the entries table) every cause list names exactly the cases the
generated truth lists, and each case's last hearing and next date are its latest. No memory is written: the
answers must not depend on a recall's ranking."""

from collections import defaultdict
from datetime import date
from pathlib import Path

import pytest

from bench.scale_legal import TENANT, lawyer, make_cases, make_hearing
from bot.core.app import App
from bot.core.registry import Registry
from handlers.legal.ask import ask
from handlers.legal.models import HearingRecord
from handlers.legal.pack import LegalPack
from handlers.legal.today import cause_list
from tests.conftest import make_settings

HEARINGS = 10_000


def listed_on(by_case: dict[str, list[HearingRecord]], day: date) -> set[str]:
    listed = set()
    for case_id, records in by_case.items():
        before = [r for r in records if r.hearing_date < day]
        if before and max(before, key=lambda r: r.hearing_date).next_date == day:
            listed.add(case_id)
    return listed


@pytest.mark.hindsight
@pytest.mark.own_registers
async def test_cause_lists_last_hearings_and_next_dates_are_complete_at_10000_hearings(
        tmp_path: Path, hindsight_url: str, bank_prefix: str) -> None:
    app = await App.start(make_settings(tmp_path, hindsight_url, bank_prefix), registry=Registry([lawyer()]),
                          pack_names=["legal"])
    try:
        pack = app.packs["legal"]
        assert isinstance(pack, LegalPack)
        cases = make_cases()
        pack.registers.add(TENANT, cases)
        records = [make_hearing(cases, i) for i in range(HEARINGS)]
        assert pack.entries.add_missing(TENANT, records) == HEARINGS
        by_case: dict[str, list[HearingRecord]] = defaultdict(list)
        for record in records:
            by_case[record.case_id].append(record)
        register, bank = pack.register_for(TENANT), app.services.bank_of(TENANT, "legal")
        days = sorted({r.hearing_date for r in records} | {r.next_date for r in records if r.next_date})
        listed_days = 0
        for day in days[::97] + days[-12:]:
            listing = await cause_list(app.services, bank, register, day)
            want = listed_on(by_case, day)
            assert {item.case_id for item in listing.items} == want, day
            assert all(item.previous is not None and item.previous.next_date == day for item in listing.items)
            listed_days += bool(want)
        assert listed_days >= 10  # the days asked do list matters (not a run of empty lists)
        for case in cases[::17]:
            latest = max(by_case[case.case_id], key=lambda r: r.hearing_date)
            last = await ask(app.services, bank, register, f"what happened last time in {case.label}?")
            assert [c.hearing_date for c in last.citations][:1] == [latest.hearing_date], case.label
            nxt = await ask(app.services, bank, register, f"what is the next date in {case.label}?")
            assert latest.next_date is not None and f"{latest.next_date.day} {latest.next_date:%b %Y}" in nxt.answer
    finally:
        await app.aclose()
