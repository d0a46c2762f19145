"""How well the keyless reader files hearings on pages nobody here wrote (tests/corpus/legal).

    .venv/bin/python -m bench.legal_corpus [--corpus DIR] [--batch 1|2|3|all] [--show-misses] [--json] [--ocr]

The corpus comes in batches: batch 1 (`pages/`, `expected.json`) was written with the rules; batch 2
(`pages2/`, `expected2.json`) by a second author who had not read them; batch 3 (`pages3/`, `expected3.json`)
by a third author, blind to the readers and to the other batches' pages. Each page
of a batch (a .txt file) is split by the rules with its own upload time, against the corpus's own case
register (cases.json, shared by the batches), and compared with the batch's expected file. Expected entries are matched to found ones by
case and hearing date (then by case alone). It prints the share right per field (case, hearing date, next date),
the share of pages whose entry count is right, and the share of hearings fully right: filed under the right
case with the right hearing date and the right next date. An expected hearing date of null means the page has
none: the entry is right only if its date is marked as a guess (held for review).

With --ocr each page is first drawn as an image (lines wrapped, every other one slightly rotated) and read back
by Tesseract, as a photo would be; pages in Telugu script are left out there, because the drawing font cannot
shape Telugu (OCR of real Telugu photos is exercised in tests/legal/test_ocr.py, not here).
"""

import argparse
import hashlib
import sys
import json
import re
import tempfile
from datetime import date, datetime
from pathlib import Path

from typing import Literal

from pydantic import BaseModel, Field, TypeAdapter

from bot.paths import PROJECT_ROOT
from handlers.legal.models import CaseRecord, ProposedEntry, Upload
from handlers.legal.register import CaseRegister
from handlers.legal.segment import segment

CORPUS_DIR = PROJECT_ROOT / "tests" / "corpus" / "legal"
THRESHOLD = 0.95
BATCHES: dict[str, tuple[str, str]] = {"1": ("pages", "expected.json"), "2": ("pages2", "expected2.json"),
                                        "3": ("pages3", "expected3.json"), "4": ("pages4", "expected4.json"),
                                        "walk": ("walk", "walk/expected.json"),
                                        "scans": ("scans", "scans/expected.json"),
                                        "walk5al": ("walk5al", "walk5al/expected.json")}
"""Batch name -> (pages folder, expected file) inside the corpus directory. The walk batch (court paper as it
arrives: typed pages, photos, scanned PDFs) brings its own register (walk/cases.json) and is read as the bot
reads an upload: text files as text, photos and PDFs through Tesseract with the rows rebuilt from word
positions. The scans batch (scans/, drawn by scans/make_pages.py in a style of its own: rotation either way,
noise, shading, wide date columns, pages of two scans) is read the same way and is held out like the walk. The
walk5al batch (steps dated by their act, orders whose pronouncement wraps) was written by the one who fixed them:
a regression figure, measured and not asserted."""
HELD_OUT = ("walk", "scans", "walk5al")
FIELDS = ("case", "hearing", "next", "fully")


class ExpectedEntry(BaseModel):
    case_id: str | None
    hearing_date: date | None
    """None: the page carries no hearing date, so the entry's date must be a guess held for review (or the
    entry is a listing: a cause list's, which records no hearing)."""
    next_date: date | None
    kind: Literal["hearing", "listing", "step", "document"] = "hearing"
    """What the page is to the case; for a listing, step or document the "hearing date" is the page's own date."""


class CorpusPage(BaseModel):
    file: str
    uploaded_at: datetime
    entries: list[ExpectedEntry]
    """Empty: the page is about no case of the practice (a client's deed) and must give no entry."""


class Corpus(BaseModel):
    directory: Path
    pages: list[CorpusPage]
    pages_folder: str = "pages"

    @property
    def pages_dir(self) -> Path:
        return self.directory / self.pages_folder

    def text(self, page: CorpusPage) -> str:
        path = self.pages_dir / page.file
        if path.suffix.lower() in (".txt", ".md"):
            return path.read_text(encoding="utf-8")
        return _read_upload(path)[0]

    def format(self, page: CorpusPage) -> str:
        """The page's format: a typed text, a photo, a PDF with a text layer or a scanned (image-only) PDF."""
        suffix = Path(page.file).suffix.lower().lstrip(".")
        if suffix in ("txt", "md"):
            return "text"
        if suffix == "pdf":
            return "pdf-text" if _read_upload(self.pages_dir / page.file)[1] == "pdf_text" else "pdf-scan"
        return "photo"

    def upload(self, page: CorpusPage) -> Upload:
        return Upload(upload_id=f"corpus-{Path(page.file).stem}", source_file=page.file,
                      uploaded_at=page.uploaded_at, author="Corpus clerk", author_id="corpus")


class PageScore(BaseModel):
    file: str
    count_right: bool
    hearings: int
    case_right: int
    hearing_right: int
    next_right: int
    fully_right: int
    misses: list[str]
    kinds: dict[str, list[int]] = Field(default_factory=dict)
    """Per expected kind: [entries, fully right]."""
    fields: dict[str, list[int]] = Field(default_factory=dict)
    """Per expected kind and per format ("kind:step", "format:photo"): [entries, case, hearing, next, fully]."""
    format: str = "text"
    non_hearings_as_hearings: int = 0
    """Listings, steps and documents read as hearings (never acceptable: they would move dates)."""


class CorpusReport(BaseModel):
    pages: list[PageScore]

    def share(self, field: str) -> float:
        total = sum(p.hearings for p in self.pages)
        return sum(getattr(p, field) for p in self.pages) / total if total else 0.0

    @property
    def count_share(self) -> float:
        return sum(p.count_right for p in self.pages) / len(self.pages) if self.pages else 0.0

    @property
    def fully_right(self) -> float:
        return self.share("fully_right")


def load_register(directory: Path = CORPUS_DIR, batch: str = "1") -> CaseRegister:
    """Return the corpus's own case register (never the seeds'); a batch folder with its own cases.json
    (the walk's practice) brings its own."""
    own = directory / BATCHES[batch][0] / "cases.json"
    cases = TypeAdapter(list[CaseRecord]).validate_json((own if own.is_file() else directory / "cases.json")
                                                        .read_bytes())
    return CaseRegister(cases)


_READ_CACHE = Path(tempfile.gettempdir()) / "smriti-bench-legal-reads"


def _read_upload(path: Path) -> tuple[str, str]:
    """A photo's or a PDF's text and how it was read, as the bot reads an upload without a key (Tesseract, rows
    rebuilt from word positions); kept by content hash so a second run does not OCR again."""
    from bot.services.ocr import TextReader
    from handlers.legal.layout import rows_of

    data = path.read_bytes()
    # Keyed by the page and by the reading code too: a change to OCR or layout is measured, not a stale read.
    readers = b"".join(p.read_bytes() for p in sorted((PROJECT_ROOT / "bot" / "services").glob("*.py"))
                       + [PROJECT_ROOT / "handlers" / "legal" / "layout.py"])
    cached = _READ_CACHE / f"{hashlib.sha256(data + readers).hexdigest()[:20]}.json"
    if cached.is_file():
        kept = json.loads(cached.read_text(encoding="utf-8"))
        return kept["text"], kept["method"]
    read = rows_of(TextReader().read(path, words=True))
    _READ_CACHE.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps({"text": read.text, "method": read.method}), encoding="utf-8")
    return read.text, read.method


def load_corpus(directory: Path = CORPUS_DIR, batch: str = "1") -> Corpus:
    folder, expected = BATCHES[batch]
    raw = json.loads((directory / expected).read_text(encoding="utf-8"))
    return Corpus(directory=directory, pages_folder=folder,
                  pages=TypeAdapter(list[CorpusPage]).validate_python(raw["pages"]))


def batches_in(directory: Path, walk: bool = False) -> list[str]:
    """The batches present in a corpus directory, in order; the walk batch (held out: measured, not asserted
    by the test suite) only when asked for."""
    return [name for name, (_, expected) in BATCHES.items()
            if (directory / expected).exists() and (walk or name not in HELD_OUT)]


def _kind_right(expected: ExpectedEntry, found: ProposedEntry) -> bool:
    # A page with no hearing on it, written before there were kinds: a board of a coming day (a listing) or an
    # office note of a copy applied (a step) records no hearing, as expected.
    if expected.kind == "hearing" and expected.hearing_date is None and found.kind in ("listing", "step"):
        return True
    return found.kind == expected.kind


def _hearing_right(expected: ExpectedEntry, found: ProposedEntry) -> bool:
    if not _kind_right(expected, found):
        return False
    if expected.hearing_date is None:
        return found.guessed or found.kind in ("listing", "step")
    return found.hearing_date == expected.hearing_date and not found.guessed


Pairs = list[tuple[ExpectedEntry, ProposedEntry | None]]


def _pair(expected: list[ExpectedEntry], found: list[ProposedEntry]) -> Pairs:
    left = list(found)
    pairs: Pairs = []
    ordered = sorted(expected, key=lambda e: e.hearing_date is None)
    for want in ordered:
        match = next((f for f in left if f.case_id == want.case_id and _hearing_right(want, f)), None)
        match = match or next((f for f in left if f.case_id == want.case_id), None)
        match = match or next((f for f in left if _hearing_right(want, f)), None)
        if match is not None:
            left.remove(match)
        pairs.append((want, match))
    return pairs


def score_page(corpus: Corpus, page: CorpusPage, register: CaseRegister, text: str | None = None) -> PageScore:
    found = segment(corpus.text(page) if text is None else text, register, corpus.upload(page))
    case_right = hearing_right = next_right = fully = as_hearing = 0
    misses: list[str] = []
    kinds: dict[str, list[int]] = {}
    fields: dict[str, list[int]] = {}
    form = corpus.format(page) if text is None else "photo"
    for want, got in _pair(page.entries, found):
        case_ok = got is not None and got.case_id == want.case_id
        hearing_ok = got is not None and _hearing_right(want, got)
        next_ok = got is not None and got.next_date == want.next_date
        case_right += case_ok
        hearing_right += hearing_ok
        next_right += next_ok
        fully += case_ok and hearing_ok and next_ok
        tally = kinds.setdefault(want.kind, [0, 0])
        tally[0] += 1
        tally[1] += case_ok and hearing_ok and next_ok
        for key in (f"kind:{want.kind}", f"format:{form}"):
            row = fields.setdefault(key, [0, 0, 0, 0, 0])
            for index, ok in enumerate((True, case_ok, hearing_ok, next_ok, case_ok and hearing_ok and next_ok)):
                row[index] += ok
        as_hearing += want.kind != "hearing" and got is not None and got.kind == "hearing"
        if not (case_ok and hearing_ok and next_ok):
            shown = "nothing" if got is None else (f"{got.kind} {got.case_id} {got.hearing_date} ({got.date_source}) "
                                                    f"next {got.next_date}")
            misses.append(f"want {want.kind} {want.case_id} {want.hearing_date} next {want.next_date}; got {shown}")
    if len(found) != len(page.entries):
        misses.append(f"want {len(page.entries)} entries, got {len(found)}")
    return PageScore(file=page.file, count_right=len(found) == len(page.entries), hearings=len(page.entries),
                     case_right=case_right, hearing_right=hearing_right, next_right=next_right, fully_right=fully,
                     misses=misses, kinds=kinds, non_hearings_as_hearings=as_hearing, fields=fields,
                     format=form)


def score(directory: Path = CORPUS_DIR, batch: str = "1") -> CorpusReport:
    corpus = load_corpus(directory, batch)
    register = load_register(directory, batch)
    return CorpusReport(pages=[score_page(corpus, page, register) for page in corpus.pages])


def score_all(directory: Path = CORPUS_DIR) -> CorpusReport:
    """Every batch of the corpus as one report."""
    return CorpusReport(pages=[p for batch in batches_in(directory) for p in score(directory, batch).pages])


def score_ocr(directory: Path = CORPUS_DIR, batch: str = "1") -> CorpusReport:
    """Score the pages as Tesseract reads them back from drawn images (Latin-script pages only)."""
    from bot.services.ocr import TextReader
    from handlers.legal.backlog import render_image
    from handlers.legal.layout import rows_of

    corpus = load_corpus(directory, batch)
    register = load_register(directory, batch)
    reader = TextReader()
    scores: list[PageScore] = []
    with tempfile.TemporaryDirectory() as work:
        for index, page in enumerate(corpus.pages):
            written = corpus.text(page)
            if re.search(r"[\u0c00-\u0c7f]", written):
                continue
            image = Path(work) / f"{Path(page.file).stem}.png"
            image.write_bytes(render_image(written.splitlines(), rotate=0.6 if index % 2 else 0.0))
            # As the bot reads a photo: Tesseract with word positions, the page rebuilt row by row.
            scores.append(score_page(corpus, page, register, rows_of(reader.read(image, words=True)).text))
    return CorpusReport(pages=scores)


def render(report: CorpusReport, show_misses: bool = False, title: str = "legal corpus") -> str:
    hearings = sum(p.hearings for p in report.pages)
    lines = [f"{title}: {len(report.pages)} pages, {hearings} expected hearings",
             f"  case          {report.share('case_right'):6.1%}",
             f"  hearing date  {report.share('hearing_right'):6.1%}",
             f"  next date     {report.share('next_right'):6.1%}",
             f"  entry count   {report.count_share:6.1%} of pages",
             f"  fully right   {report.fully_right:6.1%} of hearings (threshold {THRESHOLD:.0%})"]
    kinds: dict[str, list[int]] = {}
    for page in report.pages:
        for kind, (total, right) in page.kinds.items():
            kinds.setdefault(kind, [0, 0])
            kinds[kind][0] += total
            kinds[kind][1] += right
    if set(kinds) - {"hearing"}:
        lines += [f"  {kind:<13} {right / total:6.1%} fully right of {total}" for kind, (total, right) in
                  sorted(kinds.items())]
        lines.append(f"  non-hearings read as hearings: {sum(p.non_hearings_as_hearings for p in report.pages)}")
    fields: dict[str, list[int]] = {}
    for page in report.pages:
        for key, row in page.fields.items():
            fields[key] = [a + b for a, b in zip(fields.get(key, [0] * 5), row, strict=True)]
    if any(key.startswith("format:") and key != "format:text" for key in fields) or len(fields) > 2:
        lines.append(f"  {'per field':<16} {'n':>4} " + " ".join(f"{name:>8}" for name in FIELDS))
        for key, (total, *rights) in sorted(fields.items()):
            lines.append(f"  {key:<16} {total:>4} " + " ".join(f"{right / total:8.1%}" for right in rights))
    if show_misses:
        for page in report.pages:
            lines += [f"  {page.file}: {miss}" for miss in page.misses]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS_DIR)
    parser.add_argument("--batch", choices=[*BATCHES, "all"], default="all",
                        help="one batch, or every batch with each one's figures and the overall ones")
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--ocr", action="store_true", help="read each page back from an image with Tesseract")
    parser.add_argument("--smoke", action="store_true", help="the first batch only (the test suite's run)")
    args = parser.parse_args(argv)
    scorer = score_ocr if args.ocr else score
    names = batches_in(args.corpus, walk=True) if args.batch == "all" else [args.batch]
    names = names[:1] if args.smoke else names
    reports = {name: scorer(args.corpus, name) for name in names}
    overall = CorpusReport(pages=[p for report in reports.values() for p in report.pages])
    if args.json:
        print(json.dumps({"batches": {n: r.model_dump(mode="json") for n, r in reports.items()},
                          "overall": overall.model_dump(mode="json")}, indent=2))
        return 0
    parts = [render(report, args.show_misses, f"legal corpus batch {name}") for name, report in reports.items()]
    if len(reports) > 1:
        parts.append(render(overall, False, "legal corpus overall"))
    print("\n".join(parts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
