"""Typed shapes that cross the memory boundary: what we retain and what comes back."""

from datetime import date, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

TagsMatch = Literal["any", "all", "any_strict", "all_strict", "exact"]
MemoryType = Literal["world", "experience", "observation"]
RAW_TYPES: tuple[MemoryType, ...] = ("world", "experience")
"""Facts as retained or extracted: each is dated by its own source, so an as-of filter can trust it."""

EVENT_DATE_KEY = "event_date"
"""Metadata key that carries a memory's real event date (YYYY-MM-DD) on every retain."""


class MemoryItem(BaseModel):
    """One memory to retain: plain-language content stamped with the real time of the event."""

    model_config = ConfigDict(frozen=True)

    content: str = Field(min_length=1)
    event_time: datetime
    context: str
    document_id: str = Field(min_length=1)
    tags: list[str] = Field(default_factory=list)
    metadata: dict[str, str] = Field(default_factory=dict)
    observation_scopes: Literal["per_tag", "combined"] | None = "per_tag"

    @field_validator("event_time")
    @classmethod
    def _must_be_aware(cls, value: datetime) -> datetime:
        if value.tzinfo is None:
            raise ValueError("event_time must carry a timezone: a naive time is ambiguous across servers")
        return value

    def metadata_with_event_date(self) -> dict[str, str]:
        """Return metadata with the event date added, so citations and as-of never depend on the server."""
        return {**self.metadata, EVENT_DATE_KEY: self.event_time.date().isoformat()}


class Recalled(BaseModel):
    """One memory as recall returned it, with its event date read from metadata first."""

    model_config = ConfigDict(frozen=True)

    text: str
    event_date: date | None
    document_id: str | None = None
    tags: list[str] = Field(default_factory=list)
    metadata: dict[str, str] = Field(default_factory=dict)
    score: float | None = None
    type: str | None = None
    memory_id: str | None = None

    def has_tag(self, tag: str) -> bool:
        return tag in self.tags


HISTORY_START = date(2000, 1, 1)
"""The earliest date a period "up to" a day starts on: before any memory this bot can hold."""


class Period(BaseModel):
    """The dates a recall is about, when the caller already knows them (both days inclusive, in India)."""

    model_config = ConfigDict(frozen=True)

    start: date
    end: date

    @classmethod
    def until(cls, end: date) -> "Period":
        """Everything up to and including `end`."""
        return cls(start=HISTORY_START, end=end)

    def ranks_anything(self, today: date) -> bool:
        """False for "everything up to today or later": every memory falls inside such a window, so it ranks
        none above another, and the server's temporal arm would only add work that grows with the bank."""
        return self.start > HISTORY_START or self.end < today

    @model_validator(mode="after")
    def _ordered(self) -> "Period":
        if self.start > self.end:
            raise ValueError("a period cannot start after it ends")
        return self


class RecallRequest(BaseModel):
    """What to recall: a query, an optional tag filter, an optional as-of date and the period meant.

    A `period` is handed to the server as the window of its temporal arm. It replaces the server's reading
    of dates in the query text, which is serialised across all requests: give one whenever the query is a
    template with no dates in it, and leave it out for a person's own question ("what happened in March?").
    A period of everything up to today or later is not sent: every memory is inside it, so it ranks nothing,
    and the server's temporal arm costs more the larger the bank.
    """

    model_config = ConfigDict(frozen=True)

    query: str = Field(min_length=1)
    tags: list[str] = Field(default_factory=list)
    tags_match: TagsMatch = "any_strict"
    as_of: date | None = None
    max_tokens: int = 2048
    """How much recalled text to return: the bot uses the first few memories of a subject, and every one more
    is work on the server, on the wire and in the answer. A caller that counts or lists (insights) asks more."""
    budget: Literal["low", "mid", "high"] = "mid"
    period: Period | None = None
    types: tuple[MemoryType, ...] | None = None
    """Which memories to recall; None means raw facts when `as_of` is set (an observation may be built from
    later facts) and everything otherwise."""

    def effective_types(self) -> list[MemoryType] | None:
        if self.types is not None:
            return list(self.types)
        return list(RAW_TYPES) if self.as_of else None


class RetainReport(BaseModel):
    """What a retain call stored."""

    bank_id: str
    items: int
    document_ids: list[str]


class ReflectAnswer(BaseModel):
    """A reflect answer, or the reason none could be given (the caller then falls back)."""

    text: str | None
    available: bool
    reason: str | None = None
    based_on: list[Recalled] = Field(default_factory=list)
    """The memories the answer was built from, each dated (observations by their latest source)."""


class BankProfile(BaseModel):
    """A bank's identity: the mission reflect works under and the directives it must keep."""

    model_config = ConfigDict(frozen=True)

    bank_id: str
    mission: str
    directives: dict[str, str] = Field(default_factory=dict)
    """Directive name -> directive text. Names are stable so syncing is idempotent."""
    graph_retrieval: bool = False
    """Whether recall also walks the bank's link graph (temporal and semantic links between memories). Off:
    Smriti's recalls are scoped by tags to one subject, where the dense and keyword arms already reach its
    memories, and the graph arm's spreading is the part of a recall that grows with the bank (its server
    time at 10,000 memories was most of a recall's; bench/README, "Recall as a bank grows")."""


class BankStats(BaseModel):
    bank_id: str
    documents: int
    memories: int
    observations: int


class RetainOperation(BaseModel):
    """An asynchronous retain Hindsight accepted: its id, and what it stores."""

    bank_id: str
    operation_id: str
    document_ids: list[str]


OperationState = Literal["pending", "processing", "completed", "failed", "cancelled", "unknown"]


class OperationStatus(BaseModel):
    operation_id: str
    status: OperationState
    error: str | None = None
    document_id: str | None = None
    kind: str | None = None


class MentalModel(BaseModel):
    """A living summary Hindsight keeps for a question under some tags (refreshed on demand)."""

    model_id: str
    name: str
    content: str | None = None
    tags: list[str] = Field(default_factory=list)
    last_refreshed_at: str | None = None


class StoredDocument(BaseModel):
    """A document as the server lists it: enough to count, audit and order without a recall."""

    document_id: str
    tags: list[str] = Field(default_factory=list)
    metadata: dict[str, str] = Field(default_factory=dict)
    event_date: date | None = None
    text: str | None = None
    """The retained content, when it was asked for (an export)."""


class StoredMemory(BaseModel):
    """One memory unit as the server lists it: a fact or an observation, dated, with its sources."""

    memory_id: str
    text: str
    type: str | None = None
    event_date: date | None = None
    document_id: str | None = None
    tags: list[str] = Field(default_factory=list)
    metadata: dict[str, str] = Field(default_factory=dict)
    source_memory_ids: list[str] = Field(default_factory=list)


class SubjectExport(BaseModel):
    """Everything one bank holds about one subject (a tag): its documents and every memory built from them."""

    bank_id: str
    tag: str
    documents: list[StoredDocument] = Field(default_factory=list)
    memories: list[StoredMemory] = Field(default_factory=list)


class ForgetReport(BaseModel):
    """What forgetting a subject removed from one bank, and anything still found about it afterwards."""

    bank_id: str
    tag: str
    documents: list[str] = Field(default_factory=list)
    observations_cleared: int = 0
    left: list[StoredMemory] = Field(default_factory=list)
