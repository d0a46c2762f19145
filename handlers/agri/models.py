"""The field pack's domain: catalogue, registers, and the visit and outcome records it confirms and retains."""

from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bot.services.registers.codes import Code

Tier = Literal["budget", "standard", "premium"]
Reaction = Literal["accepted", "postponed", "rejected", "undecided"]
"""postponed: will take it, later ("dabbulu levu, next week konta"); undecided: has not said either way."""
Objection = Literal["price", "money", "doubt", "wait", "availability"]
"""price: too costly; money: no money now, waiting for money or credit."""
ProductSource = Literal["ours", "dealer", "neighbour", "other"]
Severity = Literal["low", "medium", "high"]
Stage = Literal["nursery", "vegetative", "flowering", "fruiting", "harvest"]
Result = Literal["controlled", "partial", "no_effect", "worse"]


class Product(BaseModel):
    """One catalogue product with its label dosage per crop: the only products and doses the bot may name."""

    model_config = ConfigDict(frozen=True)

    id: Code
    """The product code as the company writes it ("P001", "KV-INS-01"), matched folded."""
    name: str
    active_ingredient: str
    kind: str
    tier: Tier
    price_rs: int = Field(gt=0)
    pack_size: str
    dosage: dict[str, str]
    """Crop slug -> label dose, e.g. {"chilli": "500 g/acre"}."""
    problems: list[str]
    """Issue ids the label covers."""
    aliases: list[str] = Field(default_factory=list)

    def price_text(self) -> str:
        return f"Rs {self.price_rs:,} per {self.pack_size}"


def crop_advised(product: Product, crop: str | None, problem_crops: dict[str, str]) -> str | None:
    """The crop a product was advised for on a visit to `crop` whose other crops had these problems: the visit's
    crop when the product's label covers it, else the crop of a problem the product is labelled for."""
    if crop in product.dosage:
        return crop
    return next((c for p, c in problem_crops.items() if p in product.problems and c in product.dosage), crop)


class Crop(BaseModel):
    """A crop the tenant's register names: its words extend the built-in lexicon, its names are shown."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    name_te: str = ""
    """Empty when the register gives no Telugu name: the name is shown as the register writes it."""
    aliases: list[str] = Field(default_factory=list)


class Issue(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    name_te: str
    crops: list[str]
    followup_days: int | None = None
    """Days until the outcome follow-up; None uses the catalogue default."""
    aliases: list[str] = Field(default_factory=list)
    """Other words people use for it (transliterated, local): the reader matches them."""


class IssueBook(BaseModel):
    default_followup_days: int = Field(default=21, gt=0)
    issues: list[Issue]


class Village(BaseModel):
    model_config = ConfigDict(frozen=True)

    slug: str = Field(min_length=1)
    """The village's key: its id in the register or its name, lowercased and hyphenated (either script)."""
    name: str
    name_te: str
    mandal: str
    code: str | None = None
    """The village's id as the register writes it ("NLG-01"), shown and exported; matched folded."""


class Farmer(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: Code
    """The farmer's id as the distributor writes it ("F001", "GF/0012", a name in Telugu script); derived from
    name and village if none."""
    name: str = Field(min_length=1)
    name_te: str
    village: str
    crops: list[str] = Field(min_length=1)
    acres: float | None = Field(default=None, gt=0)
    """None until known: a farmer added from a visit card has no acreage yet."""
    phone: str | None = None


class Officer(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    territories: list[str]


class Advice(BaseModel):
    """One product offered on a visit and how the farmer took it."""

    product_id: Code
    reaction: Reaction = "undecided"
    objection: Objection | None = None
    dose: str | None = None
    """The dose the officer gave or saw used, canonical ("200 g/acre", "2 ml/litre"), never dropped."""
    label_dose: str | None = None
    """The catalogue's label dose for the visit's crop, when the officer's dose was checked against it."""
    above_label: bool = False
    """The officer's dose is above the label dose: shown as a warning on the card and kept in the narrative."""


class Visit(BaseModel):
    """A field visit as confirmed by the officer: what was seen, what was advised, how it was received."""

    id: str = Field(pattern=r"^[A-Za-z0-9-]+$")
    date: date
    officer_id: str
    farmer_id: str | None = None
    village: str | None = None
    crop: str | None = None
    stage: Stage | None = None
    issue: str | None = None
    """The main problem: always the first of `problems`."""
    problems: list[str] = Field(default_factory=list)
    """Every problem seen on the visit, the main one first."""
    problem_crops: dict[str, str] = Field(default_factory=dict)
    """A problem seen on another of the farmer's crops than `crop` -> that crop ("chilli has thrips, cotton has
    pink bollworm": pink-bollworm -> cotton); a problem not here was seen on `crop`."""
    severity: Severity | None = None
    severity_pct: int | None = Field(default=None, ge=0, le=100)
    products: list[Advice] = Field(default_factory=list)
    objection_unnamed: Objection | None = None
    """A reason the farmer gave with no product named ("ippude mandu vaddu, vaaram aagudam": will wait): his
    answer to spraying at all, kept when no product carries it."""
    neighbour_evidence: bool = False
    """The pitch came with a neighbour's result (what Chevella farmers respond to)."""
    next_step: str | None = None
    note: str | None = None
    followup_days: int | None = Field(default=None, gt=0, le=120)
    """Days until the outcome follow-up when the officer said so; None uses the issue book's default."""
    unlisted: list[str] = Field(default_factory=list)
    """Products the note named that are not in the catalogue, as written: shown so the officer sees them."""

    @model_validator(mode="after")
    def _main_problem_first(self) -> "Visit":
        if self.issue and self.issue not in self.problems:
            self.problems.insert(0, self.issue)
        if self.problems and self.issue != self.problems[0]:
            self.issue = self.problems[0]
        return self

    def crop_of(self, problem: str) -> str | None:
        """The crop a problem of this visit was seen on."""
        return self.problem_crops.get(problem, self.crop)

    def crop_for(self, product: Product) -> str | None:
        """The crop a product was advised for: the visit's crop when its label covers it, else the crop of a
        problem of the visit it is labelled for ("Pinkout for the cotton" on a chilli visit)."""
        return crop_advised(product, self.crop, {p: c for p, c in self.problem_crops.items() if p in self.problems})

    @property
    def reaction(self) -> Reaction | None:
        """Return the farmer's overall reaction: accepted if anything was taken up."""
        reactions = {a.reaction for a in self.products}
        for choice in ("accepted", "postponed", "rejected", "undecided"):
            if choice in reactions:
                return choice  # type: ignore[return-value]
        return None

    @property
    def objection(self) -> Objection | None:
        return next((a.objection for a in self.products if a.objection), self.objection_unnamed)


class Outcome(BaseModel):
    """How the crop responded to a visit's advice, recorded weeks later and linked to that visit."""

    visit_id: str = Field(pattern=r"^[A-Za-z0-9-]+$")
    date: date
    officer_id: str
    farmer_id: str
    village: str
    crop: str
    issue: str | None = None
    products: list[Code] = Field(default_factory=list)
    """Product ids the farmer actually applied, as the catalogue writes them ("P004", "KSA-INS-02")."""
    result: Result | None = None
    """None until the officer says how the crop responded; a card cannot be saved without it."""
    note: str | None = None
    source: ProductSource = "ours"
    """Whose product the farmer used: the dealer's or a neighbour's result never counts for or against ours."""
