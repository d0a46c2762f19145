"""A practice at scale: 120 cases and their hearings, answered side by side at small and large size.

    .venv/bin/python -m bench.scale_legal [--sizes 100,1000,10000] [--questions 12] [--smoke] [--url URL]

One tenant gets the seed registers (the import path) and 120 generated cases. Hearings are generated as the
pack's records (EntryStore, as a confirmed card files them), each setting the next date its case's following
hearing keeps, and their memories retained in batches (the pack's one memory builder, through `memory/`),
growing to each size in turn. At each size the running bot (App.conversation, console transport) is asked, as
a lawyer: the last hearing and the next date of `questions` cases, the cause list of `questions` days (listed
days of the past and the coming ones), and an open question (the one that recalls). Right means: the last
hearing's date, the next date, and the cause list's cases exactly as the generated truth has them (the
open question is timed, not judged). After the largest size the bank is deleted and rebuilt from the records
(`rebuild_pack`, what `smriti memory rebuild` runs) and the same questions asked again.
"""

import argparse
import asyncio
import re
import sys
from datetime import date, datetime, time, timedelta, timezone

from bench.harness import bench_app
from bench.scale import Asked, ScaleRow, ask_timed, render_rows
from bot.core.app import App
from bot.core.memory_records import rebuild_pack
from bot.core.registry import Registry, User
from bot.services.i18n import show_date
from handlers.legal.models import CaseRecord, HearingRecord
from handlers.legal.pack import LegalPack
from handlers.legal.records import memory_item
from memory import MemoryClient, ids

TENANT = "benchscalelegal"
LAWYER = "scalelawyer"
CASES = 120
START = date(2024, 1, 8)
BATCH = 100
FILL_TIMEOUT_S = 1800.0
"""A batch of retains on a loaded box can take minutes; the bot's own client gives a write 3 minutes."""
FIRST = ("Amber", "Banyan", "Coral", "Dune", "Ember", "Fennel", "Garnet", "Hazel", "Indigo", "Juniper", "Kestrel",
         "Lotus")
SECOND = ("Harbour", "Meadows", "Towers", "Textiles", "Logistics", "Estates", "Pharma", "Granites", "Foods",
          "Motors")
COURTS = ("City Civil Court, Hyderabad", "II Addl. District Court, Ranga Reddy", "High Court of Telangana",
          "Commercial Court, Hyderabad")
LISTED = re.compile(r"^• (.+?) \(", re.MULTILINE)


def lawyer() -> User:
    return User(user_id=LAWYER, name="Scale Lawyer", role="lawyer", pack="legal", tenant=TENANT, lang="en")


def make_cases() -> list[CaseRecord]:
    return [CaseRecord(case_id=f"bc{n:03d}", title=f"{FIRST[n % 12]} {SECOND[n // 12 % 10]} Pvt Ltd v. State",
                       aliases=[f"{FIRST[n % 12]} {SECOND[n // 12 % 10]}"], numbers=[f"O.S. {300 + n}/2023"],
                       court=COURTS[n % len(COURTS)]) for n in range(CASES)]


def hearing_day(case: int, k: int) -> date:
    """The k-th hearing of case `case`: every two weeks, each case on a weekday of its own."""
    return START + timedelta(days=14 * k + case % 10)


def make_hearing(cases: list[CaseRecord], i: int) -> HearingRecord:
    n, k = i % len(cases), i // len(cases)
    case, day, upload = cases[n], hearing_day(n, k), f"u{i:07d}"
    nxt = hearing_day(n, k + 1)
    text = (f"{case.title}: arguments heard on the interim application; respondent sought time to file the "
            f"counter. Adjourned to {show_date('en', nxt)}.")
    return HearingRecord(document_id=ids.hearing(upload, case.case_id, day), case_id=case.case_id, kind="hearing",
                         hearing_date=day, next_date=nxt, source_file=f"diary-{day:%Y%m%d}.txt",
                         author="Bench Clerk", summary=text, upload_kind="diary", text=text, author_id="benchclerk",
                         upload_id=upload, uploaded_at=datetime.combine(day, time(18), timezone.utc),
                         date_source="page")


class Practice:
    """The generated practice: its cases, and the hearings written so far with the truth they make."""

    def __init__(self, app: App, filler: MemoryClient) -> None:
        self.filler = filler
        pack = app.packs["legal"]
        assert isinstance(pack, LegalPack)
        self.app, self.pack, self.cases = app, pack, make_cases()
        pack.registers.add(TENANT, self.cases)
        self.written: list[HearingRecord] = []

    async def grow_to(self, size: int) -> None:
        bank = self.app.services.bank_of(TENANT, "legal")
        await self.app.services.memory.ensure_bank(self.pack.bank_profile(bank))
        by_id = {c.case_id: c for c in self.cases}
        while len(self.written) < size:
            batch = [make_hearing(self.cases, i) for i in range(len(self.written), min(size, len(self.written) + BATCH))]
            for record in batch:
                self.pack.entries.save(TENANT, record, by="bench")
            await self.filler.retain(bank, [memory_item(r, by_id[r.case_id]) for r in batch])
            self.written += batch

    def last(self, case_id: str) -> HearingRecord:
        return max((r for r in self.written if r.case_id == case_id), key=lambda r: r.hearing_date)

    def listed_on(self, day: date) -> set[str]:
        """The labels of the cases whose last hearing before `day` set `day` as the next date."""
        labels = set()
        for case in self.cases:
            before = [r for r in self.written if r.case_id == case.case_id and r.hearing_date < day]
            if before and max(before, key=lambda r: r.hearing_date).next_date == day:
                labels.add(case.label)
        return labels

    def asked_cases(self, questions: int) -> list[CaseRecord]:
        heard = [c for c in self.cases if any(r.case_id == c.case_id for r in self.written[:CASES])]
        return heard[::max(1, len(heard) // questions)][:questions]

    def asked_days(self, questions: int) -> list[date]:
        days = sorted({r.next_date for r in self.written if r.next_date} | {r.hearing_date for r in self.written})
        return days[::max(1, len(days) // questions)][:questions - 1] + [days[-1]]


async def ask_all(practice: Practice, questions: int) -> list[tuple[str, Asked]]:
    asked: list[tuple[str, Asked]] = []
    app = practice.app
    for case in practice.asked_cases(questions):
        last = practice.last(case.case_id)
        asked.append(("last hearing", await ask_timed(
            app, LAWYER, f"/ask what happened last time in {case.label}?",
            lambda a, d=last.hearing_date: "Last hearing in" in a and show_date("en", d) in a.split("\n")[0])))
        asked.append(("next date", await ask_timed(
            app, LAWYER, f"/ask what is the next date in {case.label}?",
            lambda a, d=last.next_date: d is not None and show_date("en", d) in a.split("\n")[0])))
        asked.append(("open question", await ask_timed(
            app, LAWYER, f"/ask did the respondent file the counter in {case.label}?", lambda a: bool(a))))
    for day in practice.asked_days(questions):
        want = practice.listed_on(day)
        asked.append(("cause list", await ask_timed(
            app, LAWYER, f"/today {day.isoformat()}", lambda a, w=want: set(LISTED.findall(a)) == w)))
    return asked


async def measure(url: str, sizes: list[int], questions: int) -> tuple[dict[str, list[ScaleRow]], str]:
    async with bench_app(url, "scalelegal", ["legal"], [TENANT], registry=Registry([lawyer()])) as app, \
            MemoryClient(url, write_timeout_s=FILL_TIMEOUT_S) as filler:
        practice = Practice(app, filler)
        rows: dict[str, list[ScaleRow]] = {}
        answers: list[tuple[str, Asked]] = []
        for size in sizes:
            await practice.grow_to(size)
            await ask_all(practice, 1)  # warm-up at this size
            answers = await ask_all(practice, questions)
            for kind in dict.fromkeys(k for k, _ in answers):
                rows.setdefault(kind, []).append(ScaleRow.of(size, [a for k, a in answers if k == kind]))
                print(f"  ({size} memories, {kind}: {rows[kind][-1].right}/{rows[kind][-1].asked} right, wall "
                      f"p50/p95 {rows[kind][-1].wall_p50:.0f}/{rows[kind][-1].wall_p95:.0f} ms)", flush=True)
        await app.services.memory.delete_bank(app.services.bank_of(TENANT, "legal"))
        rebuilt = await rebuild_pack(practice.pack, app.services, TENANT)
        again = await ask_all(practice, questions)
        exact = [(a, b) for (kind, a), (_, b) in zip(answers, again) if kind != "open question"]
        same = sum(a.answer == b.answer for a, b in exact)
        verdict = (f"bank deleted and rebuilt from the records ({rebuilt.retained} memories): {same}/{len(exact)} "
                   f"exact answers identical, {sum(b.right for _, b in exact)}/{len(exact)} right")
    return rows, verdict


async def run(url: str, sizes: list[int], questions: int) -> list[str]:
    rows, verdict = await measure(url, sizes, questions)
    out = [f"Legal at scale: {CASES} cases, one bank growing by hearings, asked through the running bot"]
    for kind, kind_rows in rows.items():
        out += render_rows(f" {kind}", kind_rows)
    return out + [f"  {verdict}"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,10000", help="hearings (memories) at each step")
    parser.add_argument("--questions", type=int, default=12)
    parser.add_argument("--url", default="http://127.0.0.1:8888")
    parser.add_argument("--smoke", action="store_true", help="60 and 120 hearings, 2 questions of each kind")
    args = parser.parse_args(argv)
    sizes, questions = ([60, 120], 2) if args.smoke else ([int(s) for s in args.sizes.split(",")], args.questions)
    print("\n".join(asyncio.run(run(args.url, sizes, questions))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
