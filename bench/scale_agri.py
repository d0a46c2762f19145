"""A distributor at scale: 200 farmers and a season of visits, answered side by side at small and large size.

    .venv/bin/python -m bench.scale_agri [--sizes 100,1000,10000] [--questions 20] [--smoke] [--url URL]

One tenant gets the seed registers (the import path) and 200 generated farmers in officer O01's villages.
Visits are generated as records (the pack's own VisitRecords, as the visit-log import writes them) and their
memories retained in batches (the pack's one memory builder, through `memory/`), growing to each size in turn.
At each size the running bot (App.conversation, console transport) is asked the pack's main question,
`/brief <farmer>`, for `questions` farmers, and timed; the answer is right when the brief names the farmer's
last visit (from the generated truth, not from the bot's records). After the largest size the bank is deleted
and rebuilt from the records (`rebuild_pack`, what `smriti memory rebuild` runs) and the same briefs are asked
again: they must be identical.
"""

import argparse
import asyncio
import re
import sys
from datetime import date, datetime, timedelta

from bench.harness import bench_app
from bench.scale import Asked, ScaleRow, ask_timed, render_rows
from bot.core.app import App
from bot.core.memory_records import rebuild_pack
from bot.core.registry import Registry, User
from handlers.agri.extract import visit_id
from handlers.agri.models import Advice, Farmer, Visit
from handlers.agri.pack import AgriPack
from handlers.agri.register import FieldBook
from handlers.agri.visit_records import SavedVisit, memories_of
from memory import MemoryClient

TENANT = "benchscaleagri"
OFFICER = "scaleofficer"
FARMERS = 200
SEASON_START = date(2025, 6, 1)
AS_OF = date(2026, 11, 30)
BATCH = 100
FILL_TIMEOUT_S = 1800.0
"""A batch of retains on a loaded box can take minutes; the bot's own client gives a write 3 minutes."""
CITED = re.compile(r"\[(\d{1,2} [A-Z][a-z]{2} \d{4}) · visit to ([^\]]+)\]")
"""A claim's citation of a visit in the brief: [1 Jun 2025 · visit to Ramesh Goud]."""
FIRST = ("Ramesh", "Suresh", "Mahesh", "Anil", "Ravi", "Kiran", "Srinu", "Balaraju", "Mallesh", "Yadaiah")
LAST = ("Goud", "Reddy", "Yadav", "Naik", "Rao", "Chary", "Mudiraj", "Kurma", "Gouda", "Patel", "Varma",
        "Shetty", "Bhai", "Pasha", "Khan", "Das", "Nayak", "Raju", "Babu", "Achari")


def officer() -> User:
    return User(user_id=OFFICER, name="Scale Officer", role="officer", pack="agri", tenant=TENANT, lang="en",
                officer_id="O01", territories=["chevella", "moinabad", "shankarpally"])


def make_farmers(book: FieldBook) -> list[Farmer]:
    """200 farmers with unique names in the officer's villages, each growing one crop the issue book knows."""
    crops = sorted({c for issue in book.issues.values() for c in issue.crops})
    villages = officer().territories
    return [Farmer(id=f"GF{n:03d}", name=f"{FIRST[n % len(FIRST)]} {LAST[n // len(FIRST) % len(LAST)]} {n:03d}",
                   name_te=f"రైతు {n:03d}", village=villages[n % len(villages)], crops=[crops[n % len(crops)]],
                   acres=1.0 + n % 7) for n in range(FARMERS)]


def make_visit(book: FieldBook, farmers: list[Farmer], i: int) -> SavedVisit:
    """The i-th visit of the generated seasons: farmer i mod 200, a day that only moves forward for him."""
    farmer = farmers[i % len(farmers)]
    round_ = i // len(farmers)
    day = SEASON_START + timedelta(days=(round_ * 7 + i % 5) % 540)
    crop = farmer.crops[0]
    issues = sorted(issue.id for issue in book.issues.values() if crop in issue.crops)
    issue = issues[i % len(issues)]
    products = sorted(p.id for p in book.products.values() if crop in p.dosage and issue in getattr(p, "problems", []))
    products = products or sorted(p.id for p in book.products.values() if crop in p.dosage)
    text = f"generated visit {i}"
    visit = Visit(id=visit_id(farmer.id, day, text), date=day, officer_id="O01", farmer_id=farmer.id,
                  village=farmer.village, crop=crop, issue=issue, severity_pct=5 + i % 40,
                  products=[Advice(product_id=products[i % len(products)],
                                   reaction=("accepted", "rejected", "undecided")[i % 3])],
                  note=f"Visit {round_ + 1} of the season.")
    return SavedVisit(visit=visit, key=visit.id, source="import", transcript=None, with_note=True)


class Organisation:
    """The generated distributor: its farmers, and the visits written so far with the truth they make."""

    def __init__(self, app: App, filler: MemoryClient) -> None:
        self.filler = filler
        pack = app.packs["agri"]
        assert isinstance(pack, AgriPack)
        self.app, self.pack = app, pack
        for farmer in make_farmers(pack.book_for(TENANT)):
            pack.books.add_farmer(TENANT, farmer)
        self.book = pack.book_for(TENANT)
        self.farmers = [f for f in self.book.farmers.values() if f.id.startswith("GF")]
        self.written = 0
        self.last_visit: dict[str, date] = {}

    async def grow_to(self, size: int) -> None:
        """Write visits up to `size` as records, and retain their memories in batches."""
        bank = self.app.services.bank_of(TENANT, "agri")
        await self.app.services.memory.ensure_bank(self.pack.bank_profile(bank))
        while self.written < size:
            batch = [make_visit(self.book, self.farmers, i) for i in range(self.written, min(size, self.written + BATCH))]
            for saved in batch:
                self.pack.records.save_visit(TENANT, saved)
                farmer = saved.visit.farmer_id or ""
                self.last_visit[farmer] = max(self.last_visit.get(farmer, saved.visit.date), saved.visit.date)
            await self.filler.retain(bank, memories_of(self.book, batch, []))
            self.written += len(batch)

    def asked_farmers(self, questions: int) -> list[Farmer]:
        visited = [f for f in self.farmers if f.id in self.last_visit]
        step = max(1, len(visited) // questions)
        return visited[::step][:questions]

    def right(self, farmer: Farmer, answer: str) -> bool:
        """The latest visit the brief cites is the farmer's last visit (the generated truth): present, and
        nothing later."""
        cited = [datetime.strptime(day, "%d %b %Y").date() for day, name in CITED.findall(answer)
                 if name.strip() == farmer.name]
        return bool(cited) and max(cited) == self.last_visit[farmer.id]


async def ask_all(org: Organisation, farmers: list[Farmer]) -> list[Asked]:
    return [await ask_timed(org.app, OFFICER, f"/brief {farmer.name} {AS_OF.isoformat()}",
                            lambda answer, f=farmer: org.right(f, answer)) for farmer in farmers]


async def measure(url: str, sizes: list[int], questions: int) -> tuple[list[ScaleRow], str]:
    async with bench_app(url, "scaleagri", ["agri"], [TENANT], registry=Registry([officer()])) as app, \
            MemoryClient(url, write_timeout_s=FILL_TIMEOUT_S) as filler:
        org = Organisation(app, filler)
        rows: list[ScaleRow] = []
        answers: list[Asked] = []
        for size in sizes:
            await org.grow_to(size)
            farmers = org.asked_farmers(questions)
            await ask_all(org, farmers[:1])  # warm-up at this size
            answers = await ask_all(org, farmers)
            rows.append(ScaleRow.of(size, answers))
            print(f"  ({size} memories: {rows[-1].right}/{rows[-1].asked} right, wall p50/p95 "
                  f"{rows[-1].wall_p50:.0f}/{rows[-1].wall_p95:.0f} ms)", flush=True)
        bank = app.services.bank_of(TENANT, "agri")
        await app.services.memory.delete_bank(bank)
        rebuilt = await rebuild_pack(org.pack, app.services, TENANT)
        again = await ask_all(org, org.asked_farmers(questions))
        same = sum(a.answer == b.answer for a, b in zip(answers, again))
        verdict = (f"bank deleted and rebuilt from the records ({rebuilt.retained} memories): "
                   f"{same}/{len(again)} briefs identical, {sum(a.right for a in again)}/{len(again)} right")
    return rows, verdict


async def run(url: str, sizes: list[int], questions: int) -> list[str]:
    rows, verdict = await measure(url, sizes, questions)
    return render_rows(f"Agri at scale: /brief <farmer> as of {AS_OF} through the running bot "
                       f"({FARMERS} farmers, one bank growing by visits)", rows) + [f"  {verdict}"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,10000", help="visits (memories) at each step")
    parser.add_argument("--questions", type=int, default=20)
    parser.add_argument("--url", default="http://127.0.0.1:8888")
    parser.add_argument("--smoke", action="store_true", help="30 and 60 visits, 3 briefs (the test suite's run)")
    args = parser.parse_args(argv)
    sizes, questions = ([30, 60], 3) if args.smoke else ([int(s) for s in args.sizes.split(",")], args.questions)
    print("\n".join(asyncio.run(run(args.url, sizes, questions))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
