"""A season, held out: 40 farmers, 7 crops, 200+ notes in three scripts, read, confirmed and saved through the bot.

    .venv/bin/python -m bench.season_agri [--smoke] [--misses] [--url URL]

The register is its own (farmers with the distributor's own codes "SZN-101", in the seed catalogue's villages
and crops); the season is generated from hand-written templates in English, Telugu script and Telugu typed in
Latin letters: each note is dated at its start in one of the forms officers type ("20/11", "22-6-2026",
"8/7/26", "12 November", "12 నవంబర్"), names a farmer, crop, problem and product, the farmer's answer (accepted,
refused with a reason, postponed with a reason, undecided) and sometimes the crop's age and when to come back.
Every note goes through the running bot (App.conversation, console transport) and its card is saved with the
Save button, as an officer would. Then:

- card fields: each saved visit (read back from the pack's records) against the note's truth: farmer, date,
  crop, problem, products with their reactions, objection, follow-up days;
- briefs: `/brief <farmer>` for every farmer: it names the farmer's last visit (its date), cites no visit of
  another farmer in the farmer's own history (foreign) and no date the season does not have (invented);
- insights: `/insights <village>` for every village: no invented dates.

Targets (issue 28): fields and last visit at least 95%, zero foreign and zero invented.
"""

import argparse
import asyncio
import random
import re
import sys
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, timedelta

from bench.harness import bench_app
from bot.core.app import App
from bot.core.messages import Incoming, Reply
from bot.core.registry import Registry, User
from bot.services.i18n import show_date
from handlers.agri.models import Farmer
from handlers.agri.pack import AgriPack
from handlers.agri.register import FieldBook

TENANT = "benchseason"
OFFICER = "seasonofficer"
VILLAGES = ["chevella", "moinabad", "shankarpally", "shabad", "vikarabad", "tandur", "nawabpet"]
CROPS = ["chilli", "cotton", "paddy", "tomato", "maize", "redgram", "groundnut"]
SEASON = (date(2026, 6, 1), date(2026, 11, 28))
FIRST = [("Bhadraiah", "భద్రయ్య"), ("Chinnamma", "చిన్నమ్మ"), ("Durgaiah", "దుర్గయ్య"), ("Ellamma", "ఎల్లమ్మ"),
         ("Gopaiah", "గోపయ్య"), ("Ailaiah", "ఐలయ్య"), ("Jangamma", "జంగమ్మ"), ("Kistamma", "కిష్టమ్మ"),
         ("Lingamma", "లింగమ్మ"), ("Mogulaiah", "మొగులయ్య"), ("Nagamani", "నాగమణి"), ("Obulesu", "ఓబులేసు"),
         ("Peddanna", "పెద్దన్న"), ("Rajamma", "రాజమ్మ"), ("Sammaiah", "సమ్మయ్య"), ("Tirupathaiah", "తిరుపతయ్య"),
         ("Upendar", "ఉపేందర్"), ("Veeraiah", "వీరయ్య"), ("Yadamma", "యాదమ్మ"), ("Anasuya", "అనసూయ"),
         ("Bikshapathi", "భిక్షపతి"), ("Chennaiah", "చెన్నయ్య"), ("Dasaratham", "దశరథం"), ("Eshwaramma", "ఈశ్వరమ్మ"),
         ("Gattaiah", "గట్టయ్య"), ("Jayamma", "జయమ్మ"), ("Kondal", "కొండల్"), ("Lachaiah", "లచ్చయ్య"),
         ("Mallamma", "మల్లమ్మ"), ("Narsamma", "నర్సమ్మ"), ("Pentaiah", "పెంటయ్య"), ("Ramakka", "రామక్క"),
         ("Somaiah", "సోమయ్య"), ("Thirumalesh", "తిరుమలేష్"), ("Vijayamma", "విజయమ్మ"), ("Venkataiah", "వెంకటయ్య"),
         ("Bhoomaiah", "భూమయ్య"), ("Saraswathi", "సరస్వతి"), ("Komaramma", "కొమరమ్మ"), ("Ankamma", "అంకమ్మ")]
LAST = [("Kummari", "కుమ్మరి"), ("Boya", "బోయ"), ("Golla", "గొల్ల"), ("Bandi", "బండి"), ("Erukala", "ఎరుకల"),
        ("Chakali", "చాకలి"), ("Mekala", "మేకల"), ("Dasari", "దాసరి")]
CROP_WORDS = {  # crop -> (English, Latin-letter Telugu, Telugu script)
    "chilli": ("chilli", "mirapa", "మిరప"), "cotton": ("cotton", "patti", "పత్తి"), "paddy": ("paddy", "vari", "వరి"),
    "tomato": ("tomato", "tomato", "టమాట"), "maize": ("maize", "mokkajonna", "మొక్కజొన్న"),
    "redgram": ("redgram", "kandi", "కంది"), "groundnut": ("groundnut", "verusenaga", "వేరుశనగ")}
TE_MONTHS = ["జనవరి", "ఫిబ్రవరి", "మార్చి", "ఏప్రిల్", "మే", "జూన్", "జూలై", "ఆగస్టు", "సెప్టెంబర్", "అక్టోబర్",
             "నవంబర్", "డిసెంబర్"]
# (what the farmer said, reaction, objection), per script: English, Latin-letter Telugu, Telugu script.
ANSWERS: list[list[tuple[str, str, str | None]]] = [
    [("he agreed to buy", "accepted", None), ("bought it the same day", "accepted", None),
     ("refused, too costly", "rejected", "price"), ("no money now, will buy next week", "postponed", "money"),
     ("will think about it", "undecided", None), ("said no, does not believe it works", "rejected", "doubt"),
     ("will buy after harvest", "postponed", "wait"), ("not available in the shop", "undecided", "availability")],
    [("sare annadu", "accepted", None), ("konnadu", "accepted", None),
     ("chala costly, vaddu annadu", "rejected", "price"), ("dabbulu levu, next week konta annadu", "postponed", "money"),
     ("aalochistanu annadu", "undecided", None), ("nammakam ledu, vaddu annadu", "rejected", "doubt"),
     ("panta ayyaka konta annadu", "postponed", "wait"), ("shop lo stock ledu", "undecided", "availability")],
    [("సరే అన్నాడు", "accepted", None), ("కొన్నాడు", "accepted", None),
     ("ధర ఎక్కువ, వద్దు అన్నాడు", "rejected", "price"), ("డబ్బులు లేవు, వచ్చే వారం కొంటా అన్నాడు", "postponed", "money"),
     ("ఆలోచిస్తాను అన్నాడు", "undecided", None), ("నమ్మకం లేదు, వద్దు అన్నాడు", "rejected", "doubt"),
     ("పంట అయ్యాక కొంటా అన్నాడు", "postponed", "wait"), ("షాపులో లేదు", "undecided", "availability")],
]
# When to come back: (wording, days); None for a note that says nothing about it.
FOLLOWUPS = [["will check after {n} days", "revisit in {n} days", "phone him after {n} days"],
             ["{n} rojulu tarvata malli vastanu", "{n} rojula lo malli chustanu"],
             ["{n} రోజుల తర్వాత మళ్ళీ వస్తాను", "{n} రోజుల్లో మళ్ళీ చూస్తాను"]]
TEMPLATES = [
    ["{date} visit {farmer}, {village}. {crop} {issue} seen. Suggested {product}, {answer}. {followup}",
     "{date}: {farmer} {crop} field - {issue}. Told {product}; {answer}. {followup}",
     "{date} {farmer} ({village}) {crop} {age} days, {issue} noticed. Recommended {product}. {answer}. {followup}",
     "{date} - met {farmer} at the {crop} plot. {issue} on about {pct}% plants. {product} advised, {answer}. "
     "{followup}"],
    ["{date} {farmer} garu {crop} lo {issue} undi. {product} cheppanu, {answer}. {followup}",
     "{date} {village} lo {farmer} {crop} chusanu, {issue}. {product} vadamani cheppanu. {answer}. {followup}",
     "{date}: {farmer} {crop} {age} rojula panta, {issue} kanipinchindi. {product} - {answer}. {followup}"],
    ["{date} {farmer} {crop} పొలం చూశాను, {issue} ఉంది. {product} చెప్పాను, {answer}. {followup}",
     "{date} {village} {farmer} గారి {crop} లో {issue}. {product} వాడమని చెప్పాను. {answer}. {followup}",
     "{date}: {farmer} {crop} {age} రోజుల పంట, {issue} వచ్చింది. {product} - {answer}. {followup}"],
]
QUIET = [["{date} {farmer} {crop} checked, crop looks healthy, nothing to spray. {followup}"],
         ["{date} {farmer} {crop} chusanu, panta baagundi, emi spray avasaram ledu. {followup}"],
         ["{date} {farmer} {crop} పొలం చూశాను, పంట బాగుంది. {followup}"]]
CITATION = re.compile(r"\[(\d{1,2} [A-Z][a-z]{2} \d{4}) · (?:visit to|follow-up of|record of) ([^\]]+)\]")
DATE_RE = re.compile(r"\b(\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4})\b")


@dataclass
class Truth:
    note: str
    farmer: str
    day: date
    crop: str
    issue: str | None
    products: dict[str, str]
    objection: str | None
    followup: int | None


@dataclass
class Score:
    fields: Counter[str] = field(default_factory=Counter)
    right: Counter[str] = field(default_factory=Counter)
    misses: list[str] = field(default_factory=list)

    def add(self, name: str, ok: bool, detail: str) -> None:
        self.fields[name] += 1
        self.right[name] += ok
        if not ok:
            self.misses.append(f"{name}: {detail}")


def register(book: FieldBook) -> list[Farmer]:
    """40 farmers with the distributor's own codes, seven crops across seven villages."""
    farmers = []
    for n, (first, first_te) in enumerate(FIRST):
        last, last_te = LAST[n % len(LAST)]
        crops = [CROPS[n % len(CROPS)]]
        farmers.append(Farmer(id=f"SZN-{101 + n}", name=f"{first} {last}", name_te=f"{first_te} {last_te}",
                              village=VILLAGES[n % len(VILLAGES)], crops=crops, acres=1.0 + n % 5))
    return farmers


def _date_text(day: date, script: int, rng: random.Random) -> str:
    forms = ([f"{day.day}/{day.month}", f"{day.day}-{day.month}-{day.year}", f"{day.day}/{day.month}/{day:%y}",
              f"{day.day} {day:%B}", f"{day.day} {day:%b} {day.year}"] if script < 2 else
             [f"{day.day}/{day.month}", f"{day.day}-{day.month}-{day.year}", f"{day.day} {TE_MONTHS[day.month - 1]}"])
    return rng.choice(forms)


def season(book: FieldBook, farmers: list[Farmer], notes: int, rng: random.Random) -> list[Truth]:
    """`notes` notes, each farmer visited in turn through the season, dates moving forward for each farmer."""
    span = (SEASON[1] - SEASON[0]).days
    per_farmer = -(-notes // len(farmers))
    out: list[Truth] = []
    for i in range(notes):
        farmer = farmers[i % len(farmers)]
        round_ = i // len(farmers)
        day = SEASON[0] + timedelta(days=round_ * span // per_farmer + rng.randrange(span // per_farmer))
        script = i % 3
        crop = farmer.crops[0]
        name = farmer.name_te if script == 2 else farmer.name
        village = book.villages[farmer.village]
        values = {"date": _date_text(day, script, rng), "farmer": name, "crop": CROP_WORDS[crop][script],
                  "village": village.name_te if script == 2 else village.name, "age": 20 + rng.randrange(80),
                  "pct": 5 + rng.randrange(40)}
        days = rng.choice([None, 5, 7, 10, 14, 20])
        values["followup"] = "" if days is None else rng.choice(FOLLOWUPS[script]).format(n=days)
        issues = sorted(i.id for i in book.issues.values() if crop in i.crops)
        products = [p for p in book.products.values() if crop in p.dosage]
        if not issues or not products:
            text = rng.choice(QUIET[script]).format(**values)
            out.append(Truth(" ".join(text.split()), farmer.id, day, crop, None, {}, None, days))
            continue
        issue = book.issues[rng.choice(issues)]
        fitting = [p for p in products if issue.id in p.problems] or products
        product = rng.choice(fitting)
        answer, reaction, objection = rng.choice(ANSWERS[script])
        values.update(issue=issue.name_te if script == 2 else issue.name.split(" (")[0], product=product.name,
                      answer=answer)
        text = rng.choice(TEMPLATES[script]).format(**values)
        out.append(Truth(" ".join(text.split()), farmer.id, day, crop, issue.id, {product.id: reaction}, objection,
                         days))
    return out


def officer() -> User:
    return User(user_id=OFFICER, name="Season Officer", role="officer", pack="agri", tenant=TENANT, lang="en",
                officer_id="O01", territories=VILLAGES)


async def _say(app: App, text: str | None = None, callback: str | None = None) -> list[Reply]:
    return await app.conversation.handle(Incoming(transport="console", sender=OFFICER,
                                                  delivery_id=uuid.uuid4().hex, text=text, callback=callback))


def _button(replies: list[Reply], label: str) -> str | None:
    return next((b.data for r in replies for b in r.flat_buttons() if b.label == label), None)


async def capture(app: App, pack: AgriPack, truth: Truth, score: Score) -> None:
    """Send one note, press Save, and score the visit the records now hold against the note's truth."""
    before = {v.visit.id for v in pack.records.visits(TENANT)}
    replies = await _say(app, truth.note)
    save = _button(replies, "Save")
    if save is None:
        score.add("saved", False, f"no card: {truth.note} -> {' | '.join(r.text[:80] for r in replies)}")
        return
    await _say(app, callback=save)
    new = [v.visit for v in pack.records.visits(TENANT) if v.visit.id not in before]
    score.add("saved", len(new) == 1, f"{len(new)} saved: {truth.note}")
    if len(new) != 1:
        return
    visit = new[0]
    got = {"farmer": visit.farmer_id, "date": visit.date, "crop": visit.crop, "issue": visit.issue,
           "products": {a.product_id: a.reaction for a in visit.products}, "objection": visit.objection,
           "followup": visit.followup_days}
    want = {"farmer": truth.farmer, "date": truth.day, "crop": truth.crop, "issue": truth.issue,
            "products": truth.products, "objection": truth.objection, "followup": truth.followup}
    for name, value in want.items():
        score.add(name, got[name] == value, f"got {got[name]!r}, want {value!r}: {truth.note}")


def judge_brief(text: str, farmer: Farmer, truths: list[Truth], names: dict[str, str]) -> tuple[bool, int, int]:
    """(names the last visit, foreign citations, invented dates) for one brief's text. A citation
    "[19 Nov 2026 · visit to NAME]" is foreign when it cites the farmer on a day he had no visit, or another
    farmer's visit as his own (outside a line about that farmer's result nearby, "NAME: ..."); a date is invented
    when the season has no visit on it."""
    days_of: dict[str, set[date]] = {}
    for t in truths:
        days_of.setdefault(t.farmer, set()).add(t.day)
    own = days_of.get(farmer.id, set())
    every = {t.day for t in truths} | {date.today()}
    by_name = {name: fid for fid, name in names.items()}
    foreign = invented = 0
    for line in text.splitlines():
        invented += sum(date.fromisoformat(_iso(d)) not in every for d in DATE_RE.findall(line))
        for shown, who in CITATION.findall(line):
            day, cited = date.fromisoformat(_iso(shown)), by_name.get(who.strip())
            about_other = cited is not None and cited != farmer.id and line.lstrip("• ").startswith(who.strip())
            if cited == farmer.id:
                foreign += day not in own
            elif not about_other or day not in days_of.get(cited or "", set()):
                foreign += 1
    return show_date("en", max(own)) in text, foreign, invented


def _iso(shown: str) -> str:
    from datetime import datetime

    return datetime.strptime(shown, "%d %b %Y").date().isoformat()


async def run(url: str, notes: int, farmers_n: int, misses: bool) -> list[str]:
    rng = random.Random(28)
    async with bench_app(url, "season", ["agri"], [TENANT], registry=Registry([officer()])) as app:
        pack = app.packs["agri"]
        assert isinstance(pack, AgriPack)
        seed_book = pack.book_for(TENANT)
        taken = {f.name.split()[0].lower() for f in seed_book.farmers.values()}
        farmers = register(seed_book)[:farmers_n]
        assert not taken & {f.name.split()[0].lower() for f in farmers}, "a season name is already registered"
        for farmer in farmers:
            pack.books.add_farmer(TENANT, farmer)
        book = pack.book_for(TENANT)
        truths = season(book, farmers, notes, rng)
        score = Score()
        for truth in truths:
            await capture(app, pack, truth, score)
        names = {f.id: f.name for f in book.farmers.values()}
        last_right = foreign = invented = 0
        brief_misses = []
        for farmer in farmers:
            text = "\n".join(r.text for r in await _say(app, f"/brief {farmer.name}"))
            right, foreign_n, invented_n = judge_brief(text, farmer, truths, names)
            last_right += right
            foreign += foreign_n
            invented += invented_n
            if not right or foreign_n or invented_n:
                brief_misses.append(f"brief {farmer.name}: last={right} foreign={foreign_n} invented={invented_n}")
        every = {t.day for t in truths} | {date.today()}
        insight_invented = 0
        villages = sorted({f.village for f in farmers})
        for village in villages:
            text = "\n".join(r.text for r in await _say(app, f"/insights {book.villages[village].name}"))
            insight_invented += sum(date.fromisoformat(_iso(d)) not in every for d in DATE_RE.findall(text))
    fields = [k for k in score.fields if k != "saved"]
    total = sum(score.fields[k] for k in fields)
    right = sum(score.right[k] for k in fields)
    scripts = Counter(("te" if re.search(r"[\u0c00-\u0c7f]", t.note) else "latin") for t in truths)
    out = [f"Agri season, held out: {len(truths)} notes ({scripts['latin']} Latin letters, {scripts['te']} Telugu "
           f"script), {len(farmers)} farmers, {len({f.crops[0] for f in farmers})} crops, through the running bot",
           f"  saved           {score.right['saved']}/{score.fields['saved']}",
           f"  card fields     {100 * right / max(1, total):5.1f}%  ({right}/{total})"]
    out += [f"    {k:<12} {100 * score.right[k] / score.fields[k]:5.1f}%  ({score.right[k]}/{score.fields[k]})"
            for k in fields]
    out += [f"  brief last visit {100 * last_right / len(farmers):5.1f}%  ({last_right}/{len(farmers)})",
            f"  foreign citations {foreign}", f"  invented dates   {invented} in briefs, {insight_invented} in "
            f"insights ({len(villages)} villages)"]
    if misses:
        out += ["  misses:", *(f"    {m}" for m in score.misses + brief_misses)]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--notes", type=int, default=210)
    parser.add_argument("--misses", action="store_true", help="list every miss")
    parser.add_argument("--url", default="http://127.0.0.1:8888")
    parser.add_argument("--smoke", action="store_true", help="4 farmers, 8 notes (the test suite's run)")
    args = parser.parse_args(argv)
    notes, farmers = (8, 4) if args.smoke else (args.notes, len(FIRST))
    print("\n".join(asyncio.run(run(args.url, notes, farmers, args.misses))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
