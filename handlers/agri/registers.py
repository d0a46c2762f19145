"""The field pack's registers in the one database: villages, farmers, officers, catalogue and issue book per
tenant; their import columns; and the repository that turns a tenant's rows into the FieldBook the pack uses."""

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from bot.services.registers.cells import person_name
from bot.services.registers.codes import RegisterIndex, code_key
from bot.services.registers.kinds import (
    Cells,
    Column,
    Created,
    RegisterKind,
    Registers,
    Resolved,
    join_list,
    number_text,
    split_list,
)
from bot.store import Base, Database
from bot.store.registers import (
    RegisterRowMixin,
    RegisterStore,
    RegisterVersionMixin,
    StoredRecord,
    TenantCache,
)
from handlers.agri.models import Crop, Farmer, Issue, IssueBook, Officer, Product, Village
from handlers.agri.register import FieldBook, Lexicon, Season, load_lexicon
from handlers.agri.vocabulary import crop_key, tenant_lexicon, word_slug

PACK = "agri"


class AgriRecord(RegisterRowMixin, Base):
    __tablename__ = "agri_records"


class AgriRegisterVersion(RegisterVersionMixin, Base):
    __tablename__ = "agri_register_versions"


TABLES = (AgriRecord, AgriRegisterVersion)


def slug(text: str) -> str:
    """A deterministic slug for tags and keys: "Shankar Pally" -> "shankar-pally" (Telugu letters kept)."""
    return "-".join(re.findall(r"[0-9a-z\u0c00-\u0c7f]+", text.lower()))


def _crop(word: str, lexicon: Lexicon) -> str:
    """A crop as people write it (English, transliterated or Telugu) -> the built-in crop key, or the word as
    written: a crop nobody listed is still a crop, and the tenant's book resolves it against its crops register."""
    return crop_key(word, lexicon) or word.strip()


def _village(cells: Cells) -> Village:
    name = cells.get("name", "")
    written = " ".join(cells.get("slug", "").split())
    # A code that is only the name again ("Village ID" exported for a village without one) is no code.
    code = written if written and slug(written) != slug(name) else None
    # A Telugu name or mandal the list leaves empty stays empty (the book shows the name in its place).
    return Village(slug=slug(written or name), code=code, name=name, name_te=cells.get("name_te") or "",
                   mandal=cells.get("mandal") or "")


def _village_cells(village: Village) -> Cells:
    return {"slug": village.code or "", "name": village.name, "name_te": village.name_te, "mandal": village.mandal}


def _village_written(registers: Registers, key: str) -> str:
    """A village as the villages register writes it: its code, else its name; the key if it has neither."""
    record = registers.get("villages", {}).get(key)
    return str(record.data.get("code") or record.data.get("name") or key) if record is not None else key


def _crop_written(registers: Registers, key: str) -> str:
    """A crop as the crops register (or, for a built-in crop, the catalogue) writes it."""
    from handlers.agri.vocabulary import crop_name

    crops = {str(r.data.get("id")): Crop.model_validate(r.data) for r in registers.get("crops", {}).values()}
    return crop_name(key, "en", crops, _register_lexicon(registers))


def _farmer_written(farmer: Farmer, registers: Registers) -> Cells:
    return {**_farmer_cells(farmer), "village": _village_written(registers, farmer.village),
            "crops": join_list([_crop_written(registers, c) for c in farmer.crops])}


def _officer_written(officer: Officer, registers: Registers) -> Cells:
    return {**_officer_cells(officer), "territories": join_list([_village_written(registers, t)
                                                                 for t in officer.territories])}


def _resolve_village(village: Village, _cells: Cells, registers: Registers) -> Resolved:
    """A village the tenant has already, by its code or its name in either script, is that village: its code
    is attached to it (never a second village made from the code); a row without a code keeps the one on file."""
    index = _village_index(registers)
    found = next((key for key in (index.key(village.code or ""), index.key(village.name),
                                  index.key(village.name_te)) if key is not None), None)
    if found is None:
        return Resolved(village)
    kept = registers["villages"][found].data.get("code")
    return Resolved(village.model_copy(update={"slug": found, "code": village.code or kept}))


def _farmer(cells: Cells) -> Farmer:
    lexicon = load_lexicon()
    # A farmer the list names only in Telugu script is named so in both languages.
    name = person_name(cells.get("name") or cells.get("name_te") or "")
    if not name.strip():
        raise ValueError("missing Farmer Name")
    village = slug(cells.get("village", "").split("/")[0])
    written = cells.get("id") or f"{slug(name)}-{village}"
    return Farmer(id=written, name=name, name_te=person_name(cells.get("name_te") or ""), village=village,
                  crops=list(dict.fromkeys(_crop(c, lexicon) for c in split_list(cells.get("crops")))),
                  acres=_acres(number_text(cells.get("acres"))), phone=cells.get("phone") or None)


def _acres(written: str | None) -> float | None:
    """An acreage cell; empty is "not known yet" (a farmer added in the field), zero or less is refused."""
    return None if written is None else float(written)


def _farmer_cells(farmer: Farmer) -> Cells:
    return {"id": farmer.id, "name": farmer.name, "name_te": farmer.name_te, "village": farmer.village,
            "crops": join_list(farmer.crops), "acres": f"{farmer.acres:g}" if farmer.acres else "",
            "phone": farmer.phone or ""}


def _village_index(registers: Registers) -> RegisterIndex[StoredRecord]:
    return RegisterIndex(registers.get("villages", {}), lambda r: (
        str(r.data.get("name", "")), str(r.data.get("name_te", "")), str(r.data.get("code") or "")))


def _register_lexicon(registers: Registers) -> Lexicon:
    """The built-in words extended by the tenant's crops and issues registers, as the tenant's book reads them."""
    crops = [Crop.model_validate(r.data) for r in registers.get("crops", {}).values()]
    issues = [Issue.model_validate(r.data) for r in registers.get("issues", {}).values()]
    return tenant_lexicon(load_lexicon(), crops, issues)


def _farmer_crops(farmer: Farmer, cells: Cells, registers: Registers) -> list[str]:
    """The crops as the list writes them ("Senagalu", "Bengal gram", "కంది"), each the crops register's crop when
    one of its names or aliases says it, else a built-in crop, else kept as written; each crop once."""
    written = split_list(cells.get("crops"))
    if not written:
        return farmer.crops
    lexicon = _register_lexicon(registers)
    return list(dict.fromkeys(crop_key(word, lexicon) or word.strip() for word in written))


def _resolve_farmer(farmer: Farmer, cells: Cells, registers: Registers) -> Resolved:
    """The farmer's village by its id, code or name as the list writes it (a village nobody listed yet is
    made) and the crops by the crops register's words."""
    farmer = farmer.model_copy(update={"crops": _farmer_crops(farmer, cells, registers)})
    whole = (cells.get("village") or "").strip()
    # "Kodad/Suryapet" is a village and its mandal; "HNF/0" may be the village's own code, tried first.
    index = _village_index(registers)
    written = whole if index.key(whole) is not None else whole.split("/")[0].strip()
    found = index.key(written or farmer.village)
    if found is not None:
        return Resolved(farmer.model_copy(update={"village": found}))
    if not written:
        return Resolved(farmer)
    village = _village({"name": written})
    made = Created("villages", StoredRecord(key=village.slug, label=village.slug, data=village.model_dump(mode="json")),
                   shown=village.name)
    return Resolved(farmer.model_copy(update={"village": village.slug}), [made])


def _resolve_officer(officer: Officer, cells: Cells, registers: Registers) -> Resolved:
    index = _village_index(registers)
    written = split_list(cells.get("territories")) or officer.territories
    return Resolved(officer.model_copy(update={"territories": [index.key(w) or slug(w) for w in written]}))


def _officer(cells: Cells) -> Officer:
    return Officer(id=cells.get("id", ""), name=person_name(cells.get("name", "")),
                   territories=[slug(t) for t in split_list(cells.get("territories"))])


def _officer_cells(officer: Officer) -> Cells:
    return {"id": officer.id, "name": officer.name, "territories": join_list(officer.territories)}


def _dosage(text: str | None) -> dict[str, str]:
    """ "chilli: 500 g/acre; cotton: 400 g/acre" -> {"chilli": "500 g/acre", ...} """
    lexicon = load_lexicon()
    found: dict[str, str] = {}
    for part in split_list(text):
        crop, _, dose = part.partition(":")
        if not dose.strip():
            raise ValueError(f"label dose {part!r} is not 'crop: dose'")
        found[_crop(crop, lexicon)] = dose.strip()
    return found


def _product(cells: Cells) -> Product:
    return Product.model_validate(dict(id=cells.get("id", ""), name=cells.get("name", ""),
                   active_ingredient=cells.get("active_ingredient", ""), kind=cells.get("kind", "").lower(),
                   tier=cells.get("tier", "standard").lower(), price_rs=int(float(number_text(cells.get("price_rs")) or 0)),
                   pack_size=cells.get("pack_size", ""), dosage=_dosage(cells.get("dosage")),
                   problems=[slug(p) for p in split_list(cells.get("problems"))],
                   aliases=split_list(cells.get("aliases"))))


def _product_cells(product: Product) -> Cells:
    return {"id": product.id, "name": product.name, "active_ingredient": product.active_ingredient,
            "kind": product.kind, "tier": product.tier, "price_rs": str(product.price_rs),
            "pack_size": product.pack_size, "dosage": join_list([f"{c}: {d}" for c, d in product.dosage.items()]),
            "problems": join_list(product.problems), "aliases": join_list(product.aliases)}


def _issue_index(registers: Registers) -> RegisterIndex[StoredRecord]:
    return RegisterIndex(registers.get("issues", {}), lambda r: (
        str(r.data.get("name", "")), str(r.data.get("name_te", "")), *(str(a) for a in r.data.get("aliases") or [])))


def _resolve_product(product: Product, cells: Cells, registers: Registers) -> Resolved:
    """The Target column names issues as the issue register writes them (id, English or Telugu name, an alias):
    each is that issue's id; a word no issue has stays, and the import names it as unknown."""
    written = split_list(cells.get("problems"))
    if not written:
        return Resolved(product)
    index = _issue_index(registers)
    problems = [index.key(word) or slug(word) for word in written]
    return Resolved(product.model_copy(update={"problems": list(dict.fromkeys(problems))}))


def _issue(cells: Cells) -> Issue:
    lexicon = load_lexicon()
    days = number_text(cells.get("followup_days"))
    return Issue(id=slug(cells.get("id") or cells.get("name", "")), name=cells.get("name", ""),
                 name_te=cells.get("name_te") or cells.get("name", ""),
                 crops=[_crop(c, lexicon) for c in split_list(cells.get("crops"))],
                 followup_days=int(float(days)) if days else None, aliases=split_list(cells.get("aliases")))


def _issue_cells(issue: Issue) -> Cells:
    return {"id": issue.id, "name": issue.name, "name_te": issue.name_te, "crops": join_list(issue.crops),
            "followup_days": str(issue.followup_days or ""), "aliases": join_list(issue.aliases)}


def _crop_record(cells: Cells) -> Crop:
    name = cells.get("name", "")
    return Crop(id=word_slug(cells.get("id") or name), name=name, name_te=cells.get("name_te") or "",
                aliases=split_list(cells.get("aliases")))


def _crop_cells(crop: Crop) -> Cells:
    return {"id": crop.id, "name": crop.name, "name_te": crop.name_te, "aliases": join_list(crop.aliases)}


def _kind(name: str, model: type, columns: tuple[Column, ...], from_cells: object, to_cells: object,
          key_of: object, json_key: str, refers: object = None, resolve: object = None,
          subject: object = None, written: object = None) -> RegisterKind:
    extra = {"refers": refers} if refers else {}
    if written:
        extra["written"] = written
    if resolve:
        extra["resolve"] = resolve
    if subject:
        extra["subject"] = subject
    return RegisterKind(name=name, pack=PACK, model=model, columns=columns, from_cells=from_cells,  # type: ignore[arg-type]
                        to_cells=to_cells, key_of=key_of, json_key=json_key, tables=TABLES, **extra)  # type: ignore[arg-type]


VISIT_LOG_COLUMNS = (
    Column("date", "Visit Date", ("date", "visit date", "date of visit", "visited on", "తేదీ"), required=True),
    Column("officer", "Officer", ("officer", "field officer", "fo", "officer id", "officer name", "staff",
                                  "అధికారి")),
    Column("farmer", "Farmer", ("farmer", "farmer name", "farmer id", "grower", "రైతు", "రైతు పేరు"), required=True),
    Column("village", "Village", ("village", "gram", "గ్రామం")),
    Column("crop", "Crop", ("crop", "పంట")),
    Column("problem", "Problem", ("problem", "issue", "pest", "disease", "pest/disease", "problem seen", "సమస్య")),
    Column("products", "Products", ("products", "product", "advised", "recommended", "recommendation",
                                    "product given", "products given", "product recommended",
                                    "products recommended", "input given", "inputs", "మందు", "మందులు")),
    Column("dose", "Dose", ("dose", "dosage", "doses", "dose given", "dose advised", "మోతాదు")),
    Column("reaction", "Reaction", ("reaction", "farmer reaction", "response", "farmer response", "status",
                                    "outcome of pitch", "స్పందన", "రైతు స్పందన")),
    Column("objection", "Objection", ("objection", "objections", "farmer objection", "reason for refusal",
                                      "reason for rejection", "అభ్యంతరం")),
    Column("outcome", "Outcome", ("outcome", "result", "crop result", "effect", "ఫలితం")),
    Column("outcome_date", "Outcome Date", ("result date", "outcome date", "checked on", "date of result")),
    Column("next_step", "Next Step", ("next step", "next steps", "next action", "follow up", "followup",
                                      "follow-up", "next visit", "తదుపరి చర్య")),
    Column("notes", "Notes", ("notes", "note", "remarks", "comments", "observations", "వ్యాఖ్యలు", "గమనిక")),
)


class VisitLogRow(BaseModel):
    """A visit log's row as written (a history kind: it is read into visit records, never kept as a register)."""

    date: str = ""
    officer: str = ""
    farmer: str = ""
    village: str = ""
    crop: str = ""
    problem: str = ""
    products: str = ""
    dose: str = ""
    reaction: str = ""
    objection: str = ""
    outcome: str = ""
    outcome_date: str = ""
    next_step: str = ""
    notes: str = ""


def _import_visit_log(database: Database, tenant: str, path: Path, apply: bool, bank_prefix: str) -> object:
    from handlers.agri.visit_log import import_visit_log
    from memory.banks import bank_id

    book = FieldBooks(database).for_tenant(tenant)
    return import_visit_log(database, book, tenant, path, apply, bank_id(tenant, PACK, prefix=bank_prefix))


def _visits_now(database: Database, tenant: str, stored: list[Any]) -> list[Any]:
    from handlers.agri.visit_export import visits_now

    return visits_now(database, tenant, stored)


def _visit_log_kind() -> RegisterKind:
    def key_of(row: VisitLogRow) -> tuple[str, str]:
        return "|".join(row.model_dump().values()), f"{row.date} {row.farmer}"

    return RegisterKind(name="visits", pack=PACK, model=VisitLogRow, columns=VISIT_LOG_COLUMNS,
                        from_cells=lambda cells: VisitLogRow(**cells), to_cells=lambda row: row.model_dump(),
                        key_of=key_of, json_key="visits", tables=TABLES, history=_import_visit_log,
                        current=_visits_now)


KINDS: dict[str, RegisterKind] = {k.name: k for k in (
    _kind("villages", Village, (
        Column("slug", "Village ID", ("slug", "village code", "code", "village number", "village id code")),
        Column("name", "Village", ("village name", "name", "gram", "village/mandal"), required=True),
        Column("name_te", "Village (Telugu)", ("telugu name", "name te", "గ్రామం")),
        Column("mandal", "Mandal", ("mandal name", "block", "tehsil")),
    ), _village, _village_cells, lambda v: (v.slug, v.code or v.slug), "villages", resolve=_resolve_village),
    _kind("farmers", Farmer, (
        Column("id", "Farmer ID", ("farmer code", "id", "code", "farmer no")),
        Column("name", "Farmer Name", ("name", "farmer", "grower", "grower name")),
        Column("name_te", "Farmer Name (Telugu)", ("telugu name", "name te", "రైతు పేరు", "పేరు")),
        Column("village", "Village", ("village/mandal", "village name", "village id", "village code", "గ్రామం"),
               required=True),
        Column("crops", "Crops", ("crop", "crops grown", "పంట")),
        Column("acres", "Acres", ("acreage", "area", "area acres", "area (acres)", "land acres", "ఎకరాలు")),
        Column("phone", "Mobile", ("phone", "mobile no", "mobile number", "phone number", "contact", "cell")),
    ), _farmer, _farmer_cells, lambda f: (code_key(f.id), f.id), "farmers",
        lambda f: [("villages", f.village)], _resolve_farmer, ("farmer", lambda f: [f.id, f.name, f.name_te]),
        _farmer_written),
    _kind("officers", Officer, (
        Column("id", "Officer ID", ("id", "employee id", "emp id", "code"), required=True),
        Column("name", "Officer Name", ("name", "field officer", "officer"), required=True),
        Column("territories", "Territories", ("villages", "territory", "area", "beat")),
    ), _officer, _officer_cells, lambda o: (code_key(o.id), o.id), "officers",
        lambda o: [("villages", t) for t in o.territories], _resolve_officer, written=_officer_written),
    _kind("catalogue", Product, (
        Column("id", "Product Code", ("id", "code", "sku", "item code"), required=True),
        Column("name", "Product", ("product name", "name", "item", "item name", "brand"), required=True),
        Column("active_ingredient", "Active Ingredient", ("technical", "molecule", "a.i.", "ai")),
        Column("kind", "Type", ("kind", "category", "product type")),
        Column("tier", "Tier", ("price tier", "segment")),
        Column("price_rs", "Price (Rs)", ("price", "mrp", "rate", "price rs", "selling price"), required=True),
        Column("pack_size", "Pack Size", ("pack", "size", "unit", "packing")),
        Column("dosage", "Label Dose per Crop", ("dose", "dosage", "label dose", "dose per acre")),
        Column("problems", "Problems", ("target", "targets", "pests", "diseases", "problem")),
        Column("aliases", "Also Called", ("aliases", "other names", "local names")),
    ), _product, _product_cells, lambda p: (code_key(p.id), p.id), "products",
        lambda p: [("issues", i) for i in p.problems], _resolve_product),
    _kind("issues", Issue, (
        Column("id", "Issue ID", ("id", "code")),
        Column("name", "Issue", ("name", "problem", "pest/disease"), required=True),
        Column("name_te", "Issue (Telugu)", ("telugu name", "name te")),
        Column("crops", "Crops", ("crop",)),
        Column("followup_days", "Follow-up Days", ("followup days", "days")),
        Column("aliases", "Also Called", ("aliases", "other names", "local names", "local name")),
    ), _issue, _issue_cells, lambda i: (i.id, i.id), "issues"),
    _visit_log_kind(),
    _kind("crops", Crop, (
        Column("id", "Crop ID", ("id", "code", "crop code")),
        Column("name", "Crop", ("name", "crop name"), required=True),
        Column("name_te", "Crop (Telugu)", ("telugu name", "name te", "పంట")),
        Column("aliases", "Also Called", ("aliases", "other names", "local names", "local name")),
    ), _crop_record, _crop_cells, lambda c: (c.id, c.id), "crops"),
)}


def _shown_village(village: Village) -> Village:
    """A village as the book shows it: by its name in Telugu too when the register gives no Telugu name."""
    return village if village.name_te else village.model_copy(update={"name_te": village.name})


def _shown_farmer(farmer: Farmer) -> Farmer:
    return farmer if farmer.name_te else farmer.model_copy(update={"name_te": farmer.name})


def build_book(records: dict[str, dict[str, StoredRecord]]) -> FieldBook:
    def rows(kind: str) -> list[dict[str, object]]:
        return [r.data for r in records.get(kind, {}).values()]

    return FieldBook(
        products=[Product.model_validate(r) for r in rows("catalogue")],
        issue_book=IssueBook(issues=[Issue.model_validate(r) for r in rows("issues")]),
        villages=[_shown_village(Village.model_validate(r)) for r in rows("villages")],
        farmers=[_shown_farmer(Farmer.model_validate(r)) for r in rows("farmers")],
        officers=[Officer.model_validate(r) for r in rows("officers")],
        crops=[Crop.model_validate(r) for r in rows("crops")],
    )


class FieldBooks:
    """The repository: one FieldBook per tenant, rebuilt when that tenant's registers change."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.store = RegisterStore(database, *TABLES)
        self._cache = TenantCache(self.store, build_book)

    def for_tenant(self, tenant: str) -> FieldBook:
        return self._cache.for_tenant(tenant)

    def add_farmer(self, tenant: str, farmer: Farmer) -> None:
        """Upsert one farmer (a new farmer confirmed on a visit card); the tenant's version moves, so every
        process's cached book sees the farmer on its next read."""
        from bot.store.tenants import ensure_tenant

        if farmer.village not in self.for_tenant(tenant).villages:
            raise ValueError(f"unknown village {farmer.village}")
        ensure_tenant(self.database, tenant)
        key, label = KINDS["farmers"].key_of(farmer)
        self.store.write(tenant, "farmers", {key: StoredRecord(key=key, label=label,
                                                               data=farmer.model_dump(mode="json"))})


SEED_FILES = [("villages", "agri/villages.json"), ("issues", "agri/issues.json"),
              ("catalogue", "agri/catalogue.json"), ("farmers", "agri/farmers.json"),
              ("officers", "agri/officers.json")]


def seed_registers(database: Database, tenant: str, books: Callable[[str], FieldBook]) -> FieldBook:
    """Import the demo's registers into a tenant and return its book with the demo season (seed time only)."""
    import json

    from bot.paths import SEEDS_DIR
    from bot.services.registers.seed import import_seed_registers

    import_seed_registers(database, tenant, PACK, "handlers.agri")

    def jsonl(name: str) -> list[dict[str, object]]:
        lines = (SEEDS_DIR / "agri" / name).read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]

    season = Season.model_validate({"visits": jsonl("visits.jsonl"), "outcomes": jsonl("outcomes.jsonl")})
    return books(tenant).with_season(season)
