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
from bot.services.registers.table import SourceRow, fold, read_table
from bot.core.registry import User
from bot.store import Database

FIELDS: dict[str, tuple[str, ...]] = {
    "user_id": ("id", "user id", "person id", "employee id", "emp id", "staff id"),
    "name": ("name", "full name", "person", "employee name", "staff name", "పేరు"),
    "role": ("role", "designation", "position"),
    "pack": ("pack", "work"),
    "telegram_ids": ("telegram", "telegram id", "telegram ids", "telegram user id"),
    "whatsapp_numbers": ("whatsapp", "whatsapp number", "mobile", "mobile no", "mobile number", "phone", "cell"),
    "lang": ("language", "lang", "భాష"),
    "territories": ("territories", "villages", "territory", "beat"),
    "officer_id": ("officer id", "officer code"),
}
_ALIASES = {fold(alias): field for field, aliases in FIELDS.items() for alias in (field, *aliases)}
_LANGUAGES = {"english": "en", "en": "en", "telugu": "te", "te": "te", "తెలుగు": "te"}


class PeopleRejected(BaseModel):
    row: int
    reason: str


class PeopleReport(BaseModel):
    tenant: str
    written: list[str] = []
    rejected: list[PeopleRejected] = []


def whatsapp_number(said: str) -> str:
    """E.164 from what people type: "98480 11111" -> "+919848011111"; "+1 555 010 2000" kept with its code."""
    digits = re.sub(r"\D", "", said)
    if said.strip().startswith("+") and 8 <= len(digits) <= 15:
        return f"+{digits}"
    if len(digits) == 10 and digits[0] in "6789":
        return f"+91{digits}"
    if len(digits) == 12 and digits.startswith("91"):
        return f"+{digits}"
    raise ValueError(f"WhatsApp number {said!r} needs its country code (+..)")


def territory_slugs(cell: str | None) -> list[str]:
    """Villages as typed ("Kothur; Shankar Pally") as the village register keys them ("kothur", "shankar-pally")."""
    return [slug for slug in ("-".join(re.findall(r"[0-9a-z\u0c00-\u0c7f]+", v.lower())) for v in split_list(cell))
            if slug]


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40]


def _person(row: SourceRow, tenant: str) -> User:
    cells = {_ALIASES[fold(h)]: v for h, v in row.cells.items() if fold(h) in _ALIASES}
    name = cells.get("name", "").strip()
    if not name:
        raise ValueError("missing Name")
    role = cells.get("role", "").strip().lower()
    pack = pack_for(role, cells.get("pack", "").strip().lower() or None)  # type: ignore[arg-type]
    if pack is None:
        raise ValueError(f"role {role or '(none)'}: give admin, officer, lawyer or clerk (and an admin's pack)")
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
        return f"{'.'.join(str(p) for p in first['loc']) or 'row'}: {first['msg']}"
    return str(error)


def _channels(user: User) -> list[tuple[str, str]]:
    return [("telegram", str(t)) for t in user.telegram_ids] + [("whatsapp", n) for n in user.whatsapp_numbers]


def import_people_table(database: Database, path: Path, tenant: str, existing: list[User]) -> PeopleReport:
    """Read a CSV or .xlsx of people into `tenant` and write the good rows together. A row is rejected (with its
    number) when it is unreadable, repeats an id, uses another tenant's id, or names a Telegram id or WhatsApp
    number that belongs to someone else."""
    report = PeopleReport(tenant=tenant)
    tenants = {u.user_id: u.tenant for u in existing}
    owners = {channel: u.user_id for u in existing for channel in _channels(u)}
    people: dict[str, User] = {}
    seen_rows: dict[str, int] = {}
    for row in read_table(path):
        try:
            user = _person(row, tenant)
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
