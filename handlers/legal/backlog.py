"""The seed practice's backlog: a data spec (seeds/legal/backlog.json) rendered into real files.

Diary pages and scans become PNG images drawn with Pillow (some slightly rotated and blurred, so OCR is
exercised for real), order sheets become PDFs with a text layer or scans, notes become text files. The
rendered directory has what `smriti ingest legal DIR` reads: cases.json, manifest.csv and the files. The spec
also gives the truth the tests check against: which hearings exist and which are only guessable.
"""

import csv
import hashlib
import io
import textwrap
from datetime import date, datetime
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from pydantic import BaseModel, Field, TypeAdapter

from bot.paths import SEEDS_DIR
from handlers.legal.models import UploadKind
from handlers.legal.register import CaseRegister

BACKLOG_FILE = SEEDS_DIR / "legal" / "backlog.json"
CASES_FILE = SEEDS_DIR / "legal" / "cases.json"
_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
_NBSP = "\u00a0"
_NEXT_STYLES = ("N.D. {dot}", "Adjourned to {dot}", "next date {dot}")
_NOTE_NEXT_STYLES = ("N.D. {short}", "adjourned to {short}", "next date {dot}")


class SeedEntry(BaseModel):
    case_id: str
    ref: str
    """How the page names the case (an alias, a number, or both)."""
    hearing_date: date
    next_date: date | None = None
    text: str
    telugu_next: bool = False


class SeedUpload(BaseModel):
    file: str
    kind: UploadKind
    uploaded_at: datetime
    author: str
    entries: list[SeedEntry] = Field(default_factory=list)
    printed_date: date | None = None
    """A diary page's printed date; None when the top of the page is missing."""
    undated: bool = False
    """A typed note written without a date."""
    filed_on: date | None = None
    copy_applied: date | None = None
    copy_ready: date | None = None
    case_id: str | None = None
    document_date: date | None = None
    lines: list[str] = Field(default_factory=list)
    rotate: float = 0.0
    blur: float = 0.0

    @property
    def date_on_page(self) -> bool:
        """Return True when the hearing date can be read from the file itself (not guessed)."""
        if self.kind == "diary":
            return self.printed_date is not None
        return not self.undated


class SeedBacklog(BaseModel):
    uploads: list[SeedUpload]


class Expected(BaseModel):
    """What ingesting the rendered backlog must store, and what it must hold for review."""

    document_ids: set[str]
    held: set[str]
    """Document ids of entries whose date is only guessable: never stored by --yes."""
    latest: dict[str, date]
    """Per case, the latest hearing date among stored entries."""


def load_backlog(path: Path = BACKLOG_FILE) -> SeedBacklog:
    return SeedBacklog.model_validate_json(path.read_text(encoding="utf-8"))


def upload_id_of(data: bytes) -> str:
    """Return an upload's id: a digest of its bytes, so the same file sent twice is the same upload."""
    return "u" + hashlib.sha256(data).hexdigest()[:12]


def _dot(day: date) -> str:
    return f"{day:%d.%m.%Y}"


def _next(entry: SeedEntry, style: int, note: bool) -> str:
    if entry.next_date is None:
        return ""
    if entry.telugu_next:
        return f" వాయిదా {entry.next_date.day}/{entry.next_date.month}"
    styles = _NOTE_NEXT_STYLES if note else _NEXT_STYLES
    words = styles[style % len(styles)].format(dot=_dot(entry.next_date),
                                               short=f"{entry.next_date.day}/{entry.next_date.month}")
    return ". " + words.replace(" ", _NBSP)


def page_lines(upload: SeedUpload, register: CaseRegister) -> list[str]:
    """Return the text of an upload as it is written on the page, before any wrapping."""
    if upload.kind == "deed":
        return list(upload.lines)
    if upload.kind == "diary":
        head = [f"{upload.printed_date:%A %d %B %Y}".upper()] if upload.printed_date else []
        return head + [f"{e.ref} - {e.text}{_next(e, i, note=False)}" for i, e in enumerate(upload.entries)]
    if upload.kind == "order_sheet":
        case = register.get(upload.entries[0].case_id)
        assert case is not None
        lines = [f"IN THE COURT OF THE {case.court.upper()}", f"{case.numbers[0]}", case.title,
                 "ORDER SHEET (CERTIFIED COPY)"]
        if upload.filed_on:
            lines.append(f"Plaint presented on {_dot(upload.filed_on)}.")
        for entry in upload.entries:
            call = f" Call on {_dot(entry.next_date)}.".replace(" on ", f" on{_NBSP}") if entry.next_date else ""
            lines.append(f"{_dot(entry.hearing_date)}: {entry.text[0].upper()}{entry.text[1:]}.{call}")
        if upload.copy_applied and upload.copy_ready:
            lines.append(f"Certified copy applied on {_dot(upload.copy_applied)}, made ready on "
                         f"{_dot(upload.copy_ready)}.")
        return lines
    lines = []
    for i, entry in enumerate(upload.entries):
        lead = "" if upload.undated else f"{entry.hearing_date.day}/{entry.hearing_date.month} "
        lines.append(f"{lead}{entry.ref} - {entry.text}{_next(entry, i, note=True)}")
    return lines


def _wrapped(lines: list[str], width: int) -> list[str]:
    out: list[str] = []
    for line in lines:
        out.extend(textwrap.wrap(line, width=width, break_on_hyphens=False) or [""])
    return [line.replace(_NBSP, " ") for line in out]


def render_image(lines: list[str], rotate: float = 0.0, blur: float = 0.0) -> bytes:
    """Draw text lines as a scanned page (PNG bytes), optionally a little rotated and blurred."""
    font = ImageFont.truetype(str(_FONT), 24)
    wrapped = _wrapped(lines, 62)
    image = Image.new("L", (1000, 80 + 38 * len(wrapped)), 255)
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(wrapped):
        draw.text((40, 40 + 38 * row), line, font=font, fill=25)
    if rotate:
        image = image.rotate(rotate, expand=True, fillcolor=255, resample=Image.Resampling.BICUBIC)
    if blur:
        image = image.filter(ImageFilter.GaussianBlur(blur))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


def render_pdf(lines: list[str]) -> bytes:
    """Write text lines as a one-page PDF with a text layer (an e-copy of an order sheet)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    wrapped = _wrapped(lines, 95)
    figure = Figure(figsize=(8.27, 11.69))
    for row, line in enumerate(wrapped):
        figure.text(0.07, 0.95 - 0.022 * row, line, fontsize=9, family="DejaVu Sans")
    buffer = io.BytesIO()
    with matplotlib.rc_context({"pdf.fonttype": 42}):
        figure.savefig(buffer, format="pdf", metadata={"CreationDate": None, "Creator": None, "Producer": None})
    return buffer.getvalue()


def render_file(upload: SeedUpload, register: CaseRegister) -> bytes:
    lines = page_lines(upload, register)
    suffix = Path(upload.file).suffix.lower()
    if suffix == ".png":
        return render_image(lines, upload.rotate, upload.blur)
    if suffix == ".pdf":
        return render_pdf(lines)
    return ("\n".join(line.replace(_NBSP, " ") for line in lines) + "\n").encode("utf-8")


def render_backlog(out_dir: Path, backlog: SeedBacklog | None = None, cases: Path = CASES_FILE) -> Expected:
    """Write the backlog directory (cases.json, manifest.csv, files) and return what ingesting it must store."""
    backlog = backlog or load_backlog()
    register = CaseRegister.load(cases)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "cases.json").write_text(register.dump(), encoding="utf-8")
    stored: set[str] = set()
    held: set[str] = set()
    latest: dict[str, date] = {}
    with (out_dir / "manifest.csv").open("w", encoding="utf-8", newline="") as manifest:
        writer = csv.writer(manifest)
        writer.writerow(["file", "uploaded_at", "author"])
        for upload in backlog.uploads:
            data = render_file(upload, register)
            (out_dir / upload.file).write_bytes(data)
            writer.writerow([upload.file, upload.uploaded_at.isoformat(), upload.author])
            upload_id = upload_id_of(data)
            if upload.kind == "deed":
                assert upload.case_id and upload.document_date
                stored.add(f"{upload_id}:{upload.case_id}:{upload.document_date.isoformat()}")
                continue
            for entry in upload.entries:
                if not upload.date_on_page:
                    held.add(f"{upload_id}:{entry.case_id}")
                    continue
                stored.add(f"{upload_id}:{entry.case_id}:{entry.hearing_date.isoformat()}")
                if entry.hearing_date > latest.get(entry.case_id, date.min):
                    latest[entry.case_id] = entry.hearing_date
    return Expected(document_ids=stored, held=held, latest=latest)


CHAT_MEMORIES_FILE = SEEDS_DIR / "legal" / "chat_memories.json"


class SeedChatMemory(BaseModel):
    said_at: datetime
    author: str
    text: str = Field(min_length=1)


def load_chat_memories(path: Path = CHAT_MEMORIES_FILE) -> list[SeedChatMemory]:
    return TypeAdapter(list[SeedChatMemory]).validate_json(path.read_text(encoding="utf-8"))
