"""A people list as offices keep it (CSV or Excel .xlsx) read into people: one row per person, headers matched
loosely, each bad row rejected with its number and reason, the good ones added or updated together.

Telegram ids and WhatsApp numbers may hold several values in one cell ("98480 11111; 94401 22334"). A ten-digit
Indian mobile number is read as +91; any other number must be written with its country code.
"""

import re
from pathlib import Path

from pydantic import BaseModel, ValidationError

from bot.store.invites import pack_for
from bot.store.people import import_people
from bot.services.registers.kinds import split_list
from bot.services.registers.cells import indian_mobile, person_name
from bot.services.registers.codes import safe_key
from bot.services.registers.designations import RoleOf, designation_map, role_of
from bot.services.registers.reasons import clerk_reason
from bot.services.registers.table import SourceRow, header_key, read_sheet
from bot.core.registry import User
from bot.store import Database

FIELDS: dict[str, tuple[str, ...]] = {
    "user_id": ("id", "user id", "person id", "employee id", "emp id", "staff id"),
    "name": ("name", "full name", "person", "employee name", "emp name", "employee", "name of employee",
             "staff name", "officer name", "పేరు"),
    "role": ("role", "designation", "position", "post", "title", "hodda", "హోదా"),
    "pack": ("pack", "work"),
    "telegram_ids": ("telegram", "telegram id", "telegram ids", "telegram user id"),
    "whatsapp_numbers": ("whatsapp", "whatsapp number", "whatsapp no", "mobile", "mobile no", "mobile number", "phone",
                         "phone no", "phone number", "cell", "cell no", "contact", "contact no"),
    "lang": ("language", "lang", "భాష"),
    "territories": ("territories", "villages", "territory", "beat"),
    "officer_id": ("officer id", "officer code"),
}
_ALIASES = {header_key(alias): field for field, aliases in FIELDS.items() for alias in (field, *aliases)}
_LANGUAGES = {"english": "en", "en": "en", "telugu": "te", "te": "te", "తెలుగు": "te"}


class PeopleRejected(BaseModel):
    row: int
    reason: str


class PeopleReport(BaseModel):
    tenant: str
    written: list[str] = []
    rejected: list[PeopleRejected] = []
    ignored_columns: list[str] = []


whatsapp_number = indian_mobile
"""E.164 from what people type: "98480 11111", "09100 334455" -> "+91..."; "+1 555 010 2000" kept with its code."""


def territory_slugs(cell: str | None) -> list[str]:
    """Villages as typed ("Kothur; Shankar Pally") as the village register keys them ("kothur", "shankar-pally")."""
    return [slug for slug in ("-".join(re.findall(r"[0-9a-z\u0c00-\u0c7f]+", v.lower())) for v in split_list(cell))
            if slug]


def _slug(name: str) -> str:
    """An id from a name; a name in Telugu script only gets one made of a digest, so it is an id all the same."""
    found = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40]
    return found if found and name.isascii() else safe_key(name).lower()[:40].strip("-")


def _person(row: SourceRow, tenant: str, designations: dict[str, RoleOf], default_pack: str | None) -> User:
    cells = {_ALIASES[header_key(h)]: v for h, v in row.cells.items() if header_key(h) in _ALIASES}
    name = person_name(cells.get("name", "").strip())
    if not name:
        raise ValueError("missing Name")
    written = cells.get("role", "").strip()
    named = role_of(written, designations)
    if named is None:
        raise ValueError(f"designation {written or '(none)'} is not one I know: write admin, officer, lawyer or "
                         "clerk, or teach it with --designation \"Your Designation=role\"")
    role = named.role
    pack = pack_for(role, cells.get("pack", "").strip().lower() or named.pack or default_pack)  # type: ignore[arg-type]
    if pack is None:
        raise ValueError(f"{written}: say which work (agri, legal or ap) in a Pack column")
    user_id = cells.get("user_id", "").strip().lower() or _slug(name)
    if not user_id:
        raise ValueError("give an ID: the name has no letters to make one from")
    telegram = [int(t) for t in split_list(cells.get("telegram_ids")) if t.strip()]
    return User(user_id=user_id, name=name, role=role, pack=pack, tenant=tenant,  # type: ignore[arg-type]
                lang=_LANGUAGES.get(cells.get("lang", "en").strip().lower(), "en"),  # type: ignore[arg-type]
                officer_id=cells.get("officer_id") or None, territories=territory_slugs(cells.get("territories")),
                telegram_ids=telegram, whatsapp_numbers=[whatsapp_number(n) for n in
                                                         split_list(cells.get("whatsapp_numbers"))])


def _reason(error: Exception) -> str:
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        where = str(first["loc"][0]) if first["loc"] else "row"
        label = {"user_id": "ID", "tenant": "tenant", "lang": "Language"}.get(where, where.replace("_", " "))
        if first["type"] == "string_pattern_mismatch":
            return f"{label} {str(first.get('input'))!r} may hold only small letters, digits, - and _"
        return clerk_reason(error)
    return clerk_reason(error)


def _packs_named(rows: list[SourceRow], designations: dict[str, RoleOf]) -> set[str]:
    """The packs a sheet's rows say (a Pack column, or a designation that implies one: "Field Officer")."""
    found: set[str] = set()
    for row in rows:
        cells = {_ALIASES[header_key(h)]: v for h, v in row.cells.items() if header_key(h) in _ALIASES}
        named = role_of(cells.get("role", ""), designations)
        pack = cells.get("pack", "").strip().lower() or (named.pack if named else None)
        if pack:
            found.add(pack)
    return found


def _channels(user: User) -> list[tuple[str, str]]:
    return [("telegram", str(t)) for t in user.telegram_ids] + [("whatsapp", n) for n in user.whatsapp_numbers]


def import_people_table(database: Database, path: Path, tenant: str, existing: list[User],
                        designations: dict[str, str] | None = None) -> PeopleReport:
    """Read a CSV or .xlsx of people into `tenant` and write the good rows together. A row is rejected (with its
    number) when it is unreadable, repeats an id, uses another tenant's id, or names a Telegram id or WhatsApp
    number that belongs to someone else. Designations are read as roles (`designations` adds the tenant's own);
    an admin's pack, when the sheet does not say, is the one pack the tenant's people work in."""
    report = PeopleReport(tenant=tenant)
    known = designation_map(designations)
    sheet = read_sheet(path, _ALIASES)
    report.ignored_columns = [h for h in dict.fromkeys(sheet.header) if h.strip() and header_key(h) not in _ALIASES]
    packs = {u.pack for u in existing if u.tenant == tenant} | _packs_named(sheet.rows, known)
    default_pack = next(iter(packs)) if len(packs) == 1 else None
    tenants = {u.user_id: u.tenant for u in existing}
    owners = {channel: u.user_id for u in existing for channel in _channels(u)}
    people: dict[str, User] = {}
    seen_rows: dict[str, int] = {}
    for row in sheet.rows:
        try:
            user = _person(row, tenant, known, default_pack)
        except (ValidationError, ValueError) as exc:
            report.rejected.append(PeopleRejected(row=row.number, reason=_reason(exc)))
            continue
        clash = next((f"{c} {a}" for c, a in _channels(user) if owners.get((c, a), user.user_id) != user.user_id), None)
        if tenants.get(user.user_id, tenant) != tenant:
            reason: str | None = f"{user.user_id} is another tenant's id"
        elif user.user_id in people:
            reason = f"{user.user_id} is already on row {seen_rows[user.user_id]}"
        elif clash is not None:
            reason = f"{clash} already belongs to someone else"
        else:
            reason = None
        if reason is not None:
            report.rejected.append(PeopleRejected(row=row.number, reason=reason))
            continue
        people[user.user_id] = user
        seen_rows[user.user_id] = row.number
        owners.update({channel: user.user_id for channel in _channels(user)})
    import_people(database, list(people.values()))
    report.written = list(people)
    return report
