"""The shape of a pre-visit brief, as the chat shows it and `smriti brief --json` prints it."""

from datetime import date
from typing import Literal

from pydantic import BaseModel, Field

Confidence = Literal["low", "medium", "high"]


class Claim(BaseModel):
    """Something memory says about the farmer or a neighbour, with the date of the memory it came from."""

    text: str
    source_date: date | None
    document_id: str | None = None
    farmer_id: str | None = None
    """Whose visit or outcome the cited memory is: the brief names them, never the document id."""


class BriefProduct(BaseModel):
    id: str
    name: str
    price: str
    dosage: str | None
    pitch: str


class FarmerRef(BaseModel):
    id: str
    name: str
    village: str
    crops: list[str]


class RecalledCounts(BaseModel):
    farmer: int = 0
    similar: int = 0


class Brief(BaseModel):
    farmer: FarmerRef
    as_of: date
    memory: Literal["on", "off", "unreachable"]
    """unreachable: memory was asked and could not answer; the brief then shows only what the register knows."""
    claims: list[Claim] = Field(default_factory=list)
    products: list[BriefProduct] = Field(default_factory=list)
    avoid: list[str] = Field(default_factory=list)
    checks: list[str] = Field(default_factory=list)
    confidence: Confidence = "low"
    recalled: RecalledCounts = Field(default_factory=RecalledCounts)
    unverified: list[str] = Field(default_factory=list)
    """Claims whose dates were stripped and free-text dates removed, because no recalled memory has them."""
    composer: Literal["template", "llm"] = "template"
    notes: list[str] = Field(default_factory=list)
    """Plain statements for the officer: no history yet, memory unavailable, model unavailable."""


class DraftClaim(BaseModel):
    text: str
    source_date: date | None = None
    document_id: str | None = None


class DraftProduct(BaseModel):
    id: str
    pitch: str = ""
    dosage: str | None = None
    crop: str | None = None
    """The crop the product is pitched for; its label dose is the one shown."""


class BriefDraft(BaseModel):
    """What the model must return for a brief; guardrails turn it into a Brief."""

    claims: list[DraftClaim] = Field(default_factory=list)
    products: list[DraftProduct] = Field(default_factory=list, max_length=6)
    avoid: list[str] = Field(default_factory=list)
    checks: list[str] = Field(default_factory=list)
    confidence: Confidence = "low"
