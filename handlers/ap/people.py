"""Who an AP move is by: a name given on the command line (`--as NAME`) is a person of the tenant's people list,
found by id or by name however it is typed, on the AP team in a role that moves invoices. The ledger keeps the
person's id, so one person is one approver whichever way the name was written (maker-checker compares ids)."""

import re
from typing import Literal

from pydantic import BaseModel

from bot.core.registry import User

MOVERS = ("clerk", "admin")
"""Roles on the AP team that decide, approve, hold, reject and mark paid."""
_TITLES = {"mr", "mrs", "ms", "miss", "dr", "shri", "sri", "smt", "kumari"}

Problem = Literal["who_unknown", "who_ambiguous", "who_not_allowed"]


class PersonFound(BaseModel):
    person: User | None = None
    problem: Problem | None = None
    candidates: list[str] = []
    """The people a name may have meant (ambiguous), or the AP team (unknown), as 'Name (id)'."""


def _fold(text: str) -> list[str]:
    return [w for w in re.sub(r"[^0-9a-z]+", " ", text.casefold()).split() if w not in _TITLES]


def _named(person: User) -> str:
    return f"{person.name} ({person.user_id})"


def find_person(people: list[User], written: str) -> PersonFound:
    """The one person `written` names: by id, by full name, or by a part of the name only one person has."""
    wanted = _fold(written)
    if not wanted:
        return PersonFound(problem="who_unknown", candidates=[_named(p) for p in people if p.pack == "ap"][:6])
    found = [p for p in people if _fold(p.user_id) == wanted] or [p for p in people if _fold(p.name) == wanted]
    if not found:
        found = [p for p in people if set(wanted) <= set(_fold(p.name))]
    if len(found) > 1:
        return PersonFound(problem="who_ambiguous", candidates=[_named(p) for p in found])
    if not found:
        return PersonFound(problem="who_unknown", candidates=[_named(p) for p in people if p.pack == "ap"][:6])
    person = found[0]
    if person.pack != "ap" or person.role not in MOVERS:
        return PersonFound(person=person, problem="who_not_allowed")
    return PersonFound(person=person)


def refusal_values(found: PersonFound, written: str) -> dict[str, str]:
    """What a refusal says: the name as typed, the person it found and the people it may have meant."""
    person = found.person
    return {"who": written, "person": _named(person) if person else "-",
            "role": f"{person.role} ({person.pack})" if person else "-",
            "people": ", ".join(found.candidates) or "-"}
