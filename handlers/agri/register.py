"""A tenant's reference data as the pack uses it (catalogue, issues, villages, farmers, officers) and the
pack's own lexicon, checked for consistency. Built by the repository (handlers/agri/registers.py)."""

from pathlib import Path

from pydantic import BaseModel, model_validator

from bot.services.registers.codes import RegisterIndex
from handlers.agri.lexicon import Lexicon, load_lexicon
from handlers.agri.models import (
    Crop,
    Farmer,
    Issue,
    IssueBook,
    Officer,
    Outcome,
    Product,
    Village,
    Visit,
)
from handlers.agri.vocabulary import crop_key, crop_name, named_crops, tenant_lexicon, word_slug

__all__ = ["FieldBook", "Lexicon", "Season", "load_lexicon", "normalise_dose"]


class Season(BaseModel):
    """The seeded season of visits and outcomes; every reference must resolve."""

    visits: list[Visit]
    outcomes: list[Outcome]

    @model_validator(mode="after")
    def _outcomes_follow_visits(self) -> "Season":
        by_id = {v.id: v for v in self.visits}
        if len(by_id) != len(self.visits):
            raise ValueError("visit ids must be unique")
        for outcome in self.outcomes:
            visit = by_id.get(outcome.visit_id)
            if visit is None or visit.farmer_id != outcome.farmer_id or outcome.date <= visit.date:
                raise ValueError(f"outcome for {outcome.visit_id} does not follow its visit")
        return self


class _Catalogue(BaseModel):
    products: list[Product]


class _Villages(BaseModel):
    villages: list[Village]


class _Farmers(BaseModel):
    farmers: list[Farmer]


class _Officers(BaseModel):
    officers: list[Officer]


class _Crops(BaseModel):
    crops: list[Crop]


class FieldBook:
    """Everything the pack knows without memory about one tenant: its catalogue and registers, checked."""

    def __init__(self, products: list[Product], issue_book: IssueBook, villages: list[Village],
                 farmers: list[Farmer], officers: list[Officer], lexicon: Lexicon | None = None,
                 season: Season | None = None, crops: list[Crop] | None = None) -> None:
        self._base = lexicon or load_lexicon()
        self.issue_book = issue_book
        self.issues = {i.id: i for i in self.issue_book.issues}
        written = [c for f in farmers for c in f.crops] + [c for p in products for c in p.dosage] \
            + [c for i in issue_book.issues for c in i.crops]
        register = list(crops or [])
        first = tenant_lexicon(self._base, register, issue_book.issues)
        self.crops = {c.id: c for c in [*register, *named_crops(written, first)]}
        """The register's crops and the crops written in other registers that no word list knew."""
        self.lexicon = tenant_lexicon(self._base, list(self.crops.values()), issue_book.issues)
        """The built-in lexicon extended by this tenant's registers: what the reader matches."""
        # An issue's crops as the issue register writes them ("Bengal gram") are the crops the book keys.
        self.issue_book = issue_book.model_copy(update={"issues": [
            i.model_copy(update={"crops": list(dict.fromkeys(self.crop_of(c) for c in i.crops))})
            for i in issue_book.issues]})
        self.issues = {i.id: i for i in self.issue_book.issues}
        self.products = {p.id: p.model_copy(update={"dosage": {self.crop_of(c): d for c, d in p.dosage.items()}})
                         for p in products}
        self.villages = {v.slug: v for v in villages}
        self.farmers = {f.id: f.model_copy(update={"crops": list(dict.fromkeys(self.crop_of(c) for c in f.crops))})
                        for f in farmers}
        self.officers = {o.id: o for o in officers}
        self._farmer_index = RegisterIndex(self.farmers, lambda f: (f.name, f.name_te))
        self._village_index = RegisterIndex(self.villages, lambda v: (v.name, v.name_te, v.code or ""))
        self._product_index = RegisterIndex(self.products, lambda p: (p.name, *p.aliases))
        self._season = season
        self._check()

    @classmethod
    def from_folder(cls, root: Path) -> "FieldBook":
        """A book read from register files in the seed layout (catalogue.json, issues.json, villages.json,
        farmers.json, officers.json, crops.json if any), e.g. a test corpus's own registers; the lexicon is the
        pack's, extended by them."""
        def read(name: str) -> str:
            return (root / name).read_text(encoding="utf-8")

        return cls(_Catalogue.model_validate_json(read("catalogue.json")).products,
                   IssueBook.model_validate_json(read("issues.json")),
                   _Villages.model_validate_json(read("villages.json")).villages,
                   _Farmers.model_validate_json(read("farmers.json")).farmers,
                   _Officers.model_validate_json(read("officers.json")).officers,
                   crops=_Crops.model_validate_json(read("crops.json")).crops if (root / "crops.json").exists() else [])

    def _check(self) -> None:
        for farmer in self.farmers.values():
            if farmer.village not in self.villages:
                raise ValueError(f"farmer {farmer.id} names an unknown village")
        for product in self.products.values():
            if not set(product.problems) <= set(self.issues):
                raise ValueError(f"product {product.id} names an unknown problem")

    def find_farmer(self, written: str) -> Farmer | None:
        """A farmer by the id as the register writes it (case, spaces, separators ignored) or full name."""
        return self._farmer_index.find(written)

    def find_village(self, written: str) -> Village | None:
        """A village by its register id or name as written (either script)."""
        return self._village_index.find(written)

    def find_product(self, written: str) -> Product | None:
        """A product by its code as the company writes it ("kv ins 01" finds KV-INS-01) or its name."""
        return self._product_index.find(written)

    def crop_of(self, word: str) -> str:
        """The crop key a word names (register, built-in words, either script); an unknown word is its own."""
        return crop_key(word, self.lexicon) or word_slug(word) or word

    def crop_name(self, crop: str | None, lang: str = "en") -> str:
        """A crop as shown to a person: the register's word, translated when the register translates it."""
        return crop_name(crop, lang, self.crops, self.lexicon) if crop else ""

    @property
    def season(self) -> Season:
        """Return the seeded season (only the demo's book has one), validated against the registers."""
        if self._season is None:
            return Season(visits=[], outcomes=[])
        for visit in self._season.visits:
            self.check_visit(visit)
        return self._season

    def with_season(self, season: Season) -> "FieldBook":
        """This book with a season of visits and outcomes to retain (the demo's, at seed time)."""
        return FieldBook(list(self.products.values()), self.issue_book, list(self.villages.values()),
                         list(self.farmers.values()), list(self.officers.values()), self._base, season,
                         list(self.crops.values()))

    def check_visit(self, visit: Visit) -> None:
        """Raise ValueError when a visit names something outside the registers or the catalogue."""
        if visit.farmer_id is not None and visit.farmer_id not in self.farmers:
            raise ValueError(f"unknown farmer {visit.farmer_id}")
        if visit.village is not None and visit.village not in self.villages:
            raise ValueError(f"unknown village {visit.village}")
        if visit.crop is not None and visit.crop not in self.lexicon.crops:
            raise ValueError(f"unknown crop {visit.crop}")
        for problem in visit.problems:
            if problem not in self.issues:
                raise ValueError(f"unknown issue {problem}")
        for advice in visit.products:
            if advice.product_id not in self.products:
                raise ValueError(f"{advice.product_id} is not in the catalogue")

    def issue(self, issue_id: str | None) -> Issue | None:
        return self.issues.get(issue_id) if issue_id else None

    def issue_name(self, issue_id: str | None, lang: str = "en") -> str:
        issue = self.issue(issue_id)
        if issue is None:
            return issue_id or ""
        return issue.name_te if lang == "te" else issue.name

    def problems_seen(self, problems: list[str], problem_crops: dict[str, str], crop: str | None,
                      lang: str = "en") -> str:
        """The problems of a visit as shown to a person, each seen on another crop than the visit's with that crop:
        "thrips, pink bollworm (cotton)"."""
        def one(problem: str) -> str:
            other = problem_crops.get(problem)
            name = self.issue_name(problem, lang)
            return f"{name} ({self.crop_name(other, lang)})" if other and other != crop else name

        return ", ".join(one(p) for p in problems)

    def farmer_name(self, farmer_id: str | None, lang: str = "en") -> str:
        farmer = self.farmers.get(farmer_id or "")
        if farmer is None:
            return farmer_id or ""
        return farmer.name_te if lang == "te" else farmer.name

    def village_name(self, slug: str | None, lang: str = "en") -> str:
        village = self.villages.get(slug or "")
        if village is None:
            return slug or ""
        return village.name_te if lang == "te" else village.name

    def officer_name(self, officer_id: str) -> str:
        officer = self.officers.get(officer_id)
        return officer.name if officer else officer_id

    def followup_days(self, issue_id: str | None) -> int:
        """Return the days until an outcome follow-up for this issue type (the issue book's default otherwise)."""
        issue = self.issue(issue_id)
        if issue is not None and issue.followup_days:
            return issue.followup_days
        return self.issue_book.default_followup_days

    def products_for(self, crop: str, issue_id: str | None = None) -> list[Product]:
        """Return catalogue products labelled for a crop (and issue), cheapest tier first."""
        order = {"budget": 0, "standard": 1, "premium": 2}
        found = [p for p in self.products.values()
                 if crop in p.dosage and (issue_id is None or issue_id in p.problems)]
        return sorted(found, key=lambda p: (order[p.tier], p.price_rs, p.id))

    def dosages(self) -> set[str]:
        """Return every label dose in the catalogue, normalised for comparison."""
        return {normalise_dose(d) for p in self.products.values() for d in p.dosage.values()}


def normalise_dose(text: str) -> str:
    return "".join(text.lower().split()).replace("per", "/")
