"""The legal pack's shapes: the case register, the upload manifest, proposed entries, answers and cause lists."""

from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

from bot.services.registers.codes import internal_key
from bot.services.plausible import plausible_date
from memory.asof import IST

DateSource = Literal["header", "row", "text", "document", "edited", "file_name", "upload_time"]
"""Where an entry's date came from. The last two are guesses: capped confidence, always reviewed."""

GUESSED_SOURCES: frozenset[str] = frozenset({"file_name", "upload_time"})
GUESSED_CONFIDENCE_CAP = 0.4
UNSURE_CONFIDENCE_CAP = 0.45
"""An entry whose next date was not marked as one: below what Save all or --yes stores without a person."""

Doubt = Literal["next_date"]
"""What a person must check before an entry is saved: a next date written without a next-date marker."""

EntryKind = Literal["hearing", "listing", "step", "document"]
"""What a document is to its case: a hearing record (a note, a docket row, an order), a listing (a cause list: a
next date, no hearing), a step (a filing, a service, a deadline: no hearing) or a document on file (a deed, a
vakalat, a receipt). Only hearings and listings move a case's dates."""
DATE_MOVING: frozenset[str] = frozenset({"hearing", "listing"})
RecordState = Literal["saved", "deleted"]
UploadKind = Literal["diary", "order_sheet", "note", "deed", "cause_list", "receipt", "vakalat"]


class CaseRecord(BaseModel):
    """One matter in the practice's case register."""

    model_config = ConfigDict(frozen=True)

    case_id: Annotated[str, AfterValidator(lambda v: internal_key(v, "case"))]
    """The pack's internal key (tags, document ids): lowercase letters, digits and hyphens, made from `code`."""
    title: str = Field(min_length=3)
    code: str = ""
    """The case id as the practice writes it ("HX-OS-311-2024"), shown and exported; empty for the seeds'."""
    numbers: list[str] = Field(default_factory=list)
    aliases: list[str] = Field(default_factory=list)
    court: str = ""
    petitioner: str = ""
    respondent: str = ""
    """The two sides as a register with Petitioner and Respondent columns writes them (the title joins them):
    kept so an export gives the register back with its own columns."""
    cnr: str = ""
    """The eCourts CNR number (16 characters), when the practice keeps it."""
    next_date: date | None = None
    """The next date as the register gave it when imported (its "Next Date" / "NDOH" column): filed as a listing
    of the case from the case register (handlers/legal/register_dates.py), so /today and "when is the next
    date" know it from day one."""

    @property
    def label(self) -> str:
        """Return the short name a lawyer says: the first alias, else the title."""
        return self.aliases[0] if self.aliases else self.title


class ManifestRow(BaseModel):
    """One line of manifest.csv: which file, when it was uploaded, by whom."""

    model_config = ConfigDict(frozen=True)

    file: str = Field(min_length=1)
    uploaded_at: datetime
    author: str = Field(min_length=1)

    @field_validator("file")
    @classmethod
    def _plain_name(cls, value: str) -> str:
        if "/" in value or "\\" in value or value.startswith("."):
            raise ValueError("manifest file names must be plain names inside the backlog directory")
        return value

    @field_validator("uploaded_at")
    @classmethod
    def _aware(cls, value: datetime) -> datetime:
        # A practice in India writes local times; a bare time in the manifest is read as IST.
        return value if value.tzinfo is not None else value.replace(tzinfo=IST)


class Upload(BaseModel):
    """A file (or chat text) to read, with where it came from."""

    model_config = ConfigDict(frozen=True)

    upload_id: str
    source_file: str
    uploaded_at: datetime
    author: str
    author_id: str


class ProposedEntry(BaseModel):
    """One hearing (or document) found in an upload, before anyone confirmed it."""

    case_id: str | None
    kind: EntryKind = "hearing"
    hearing_date: date
    date_source: DateSource
    next_date: date | None = None
    text: str = Field(min_length=1)
    confidence: float = Field(ge=0.0, le=1.0)
    upload_kind: UploadKind = "note"
    doubt: Doubt | None = None
    due_date: date | None = None
    """For a step, the day it is due ("reply to be filed before 10-12-2026"): shown on that day's /today, never a
    hearing or a next date."""

    @property
    def guessed(self) -> bool:
        """A hearing's (or a step's, a document's) date is a guess; a listing's own date matters not, its day does."""
        return self.date_source in GUESSED_SOURCES and self.kind != "listing"

    @property
    def unlisted(self) -> bool:
        """A listing whose day could not be read: a person gives it."""
        return self.kind == "listing" and self.next_date is None

    def implausible(self, uploaded: date) -> bool:
        """A hearing or next date outside 1990 to two years after the upload: a misreading until a person says
        otherwise (held for review, never saved on its own)."""
        return not plausible_date(self.hearing_date, uploaded) or (
            self.next_date is not None and not plausible_date(self.next_date, uploaded))

    @property
    def needs_review(self) -> bool:
        """Return True when --yes must not store it: a guessed date, a doubtful next date or no case."""
        return self.guessed or self.unlisted or self.doubt is not None or self.case_id is None


class Citation(BaseModel):
    hearing_date: date
    source_file: str
    author: str
    document_id: str


class LegalAnswer(BaseModel):
    """What `ask` returns: the text, the case it is about, and the records it rests on."""

    answer: str
    case_id: str | None
    citations: list[Citation] = Field(default_factory=list)
    confidence: float = Field(ge=0.0, le=1.0)
    near_matches: list[str] = Field(default_factory=list)
    method: Literal["template", "llm"] = "template"


class HearingRecord(BaseModel):
    """A confirmed entry (a hearing, listing, step or document of a case) or a chat memory: the record the
    database keeps (legal_entries), or one read back from an older bank's memory."""

    document_id: str
    case_id: str
    kind: Literal["hearing", "listing", "step", "document", "chat_memory"]
    hearing_date: date
    """The hearing's date; for a listing, step or document, the document's own date."""
    next_date: date | None = None
    """For a hearing, the next date it set; for a listing, the day it lists the case."""
    due_date: date | None = None
    """For a step, the day it is due (a deadline); it moves no date."""
    source_file: str = ""
    author: str = ""
    summary: str = ""
    confidence: float = 1.0
    upload_kind: str = ""
    text: str = ""
    author_id: str = ""
    upload_id: str = ""
    uploaded_at: datetime | None = None
    date_source: str = ""
    state: RecordState = "saved"

    def citation(self) -> Citation:
        return Citation(hearing_date=self.hearing_date, source_file=self.source_file, author=self.author,
                        document_id=self.document_id)


class CauseListItem(BaseModel):
    case_id: str
    title: str
    court: str
    previous: HearingRecord | None
    """The case's last hearing before the day."""
    listed_by: HearingRecord | None = None
    """The cause list that listed it, when a listing (not a hearing) set the day."""


class CauseList(BaseModel):
    day: date
    items: list[CauseListItem]
    due: list[HearingRecord] = Field(default_factory=list)
    """The steps due that day (deadlines office notes gave): shown under the list, never as hearings."""
